/* PLACEHOLDER: replaced by the generator work. */
#include "gen.h"
#include "status.h"
void pf_rng_seed(pf_rng *r, uint64_t seed) { r->s[0] = seed ^ 0x9E3779B97F4A7C15ull; r->s[1] = r->s[2] = r->s[3] = 0x1234567ull + seed; }
uint64_t pf_rng_next(pf_rng *r) { uint64_t z = (r->s[0] += 0x9E3779B97F4A7C15ull); z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; return z ^ (z >> 31); }
int64_t pf_rng_range(pf_rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)(pf_rng_next(r) % (uint64_t)(hi - lo + 1)); }
pf_network *pf_gen_random(int64_t n, int64_t m, int64_t cap, uint64_t seed, pf_status *st)
{
    pf_rng r; pf_rng_seed(&r, seed);
    pf_network *net = pf_network_new(n, 0, n - 1, st);
    for (int64_t i = 0; net && i < m; i++)
        pf_network_add_arc(net, pf_rng_range(&r, 0, n - 1), pf_rng_range(&r, 0, n - 1), pf_rng_range(&r, 0, cap), st);
    return net;
}
pf_network *pf_gen_rmf(int64_t a, int64_t b, int64_t c1, int64_t c2, uint64_t seed, pf_status *st) { (void)a; (void)b; (void)c1; (void)c2; (void)seed; pf_fail(st, PF_E_USAGE, "not built"); return NULL; }
pf_network *pf_gen_rlg(int64_t r, int64_t c, int64_t cap, uint64_t seed, pf_status *st) { (void)r; (void)c; (void)cap; (void)seed; pf_fail(st, PF_E_USAGE, "not built"); return NULL; }
pf_network *pf_gen_ac(int64_t n, int64_t cap, uint64_t seed, pf_status *st) { (void)n; (void)cap; (void)seed; pf_fail(st, PF_E_USAGE, "not built"); return NULL; }
pf_network *pf_gen_ak(int64_t k, pf_status *st) { (void)k; pf_fail(st, PF_E_USAGE, "not built"); return NULL; }
pf_network *pf_gen_grid2d(int64_t w, int64_t h, int conn, int64_t cap, uint64_t seed, pf_status *st) { (void)w; (void)h; (void)conn; (void)cap; (void)seed; pf_fail(st, PF_E_USAGE, "not built"); return NULL; }
pf_network *pf_gen_grid3d(int64_t x, int64_t y, int64_t z, int conn, int64_t cap, uint64_t seed, pf_status *st) { (void)x; (void)y; (void)z; (void)conn; (void)cap; (void)seed; pf_fail(st, PF_E_USAGE, "not built"); return NULL; }
