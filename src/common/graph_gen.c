/* The analytics graph generators (graph_gen.h). Edges are drawn into
 * arrays, in parallel where OpenMP is on (every edge has its own
 * counter-based random stream, so the graph does not depend on the thread
 * count), then pf_csr_from_arcs sorts them into rows. */
#include "graph_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "network.h"
#include "status.h"

#define LL(v) ((long long)(v))

/* splitmix64: a stream per (seed, edge) pair, good enough for graphs. */
typedef struct edge_rng {
    uint64_t state;
} edge_rng;

static inline uint64_t rng_next(edge_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline edge_rng rng_for(uint64_t seed, uint64_t stream)
{
    edge_rng r = {.state = seed * 0xd1342543de82ef95ULL + stream * 0x2545f4914f6cdd1dULL};
    rng_next(&r);
    return r;
}

/* Uniform in [0, 1) with 53 bits. */
static inline double rng_unit(edge_rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

static inline int64_t rng_between(edge_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return span == 0 ? (int64_t)rng_next(r) : lo + (int64_t)(rng_next(r) % span);
}

typedef struct edge_arrays {
    int64_t m;
    int32_t *tail, *head;
    int64_t *weight; /* NULL without weights */
} edge_arrays;

static int edges_alloc(edge_arrays *e, int64_t m, int weighted, pf_status *st)
{
    e->m = m;
    size_t room = m ? (size_t)m : 1;
    e->tail = pf_alloc(room, sizeof *e->tail, st);
    e->head = e->tail ? pf_alloc(room, sizeof *e->head, st) : NULL;
    e->weight = e->head && weighted ? pf_alloc(room, sizeof *e->weight, st) : NULL;
    return e->head && (!weighted || e->weight) ? PF_OK : PF_E_NOMEM;
}

static void edges_free(edge_arrays *e)
{
    free(e->tail);
    free(e->head);
    free(e->weight);
}

/* ---- kron ------------------------------------------------------------- */

/* One Kronecker edge: per bit, quadrant A (0,0), B (0,1), C (1,0) or D. */
static void kron_edge(uint64_t seed, int64_t k, int scale, int32_t *u, int32_t *v)
{
    edge_rng r = rng_for(seed, (uint64_t)k);
    uint32_t a = 0, b = 0;
    for (int bit = 0; bit < scale; bit++) {
        double x = rng_unit(&r);
        int row = x >= 0.57 + 0.19; /* C or D */
        int col = (x >= 0.57 && x < 0.57 + 0.19) || x >= 0.57 + 0.19 + 0.19;
        a = a << 1 | (uint32_t)row;
        b = b << 1 | (uint32_t)col;
    }
    *u = (int32_t)a;
    *v = (int32_t)b;
}

static int gen_kron(const pf_ggen_params *p, edge_arrays *e, int64_t *n, pf_status *st)
{
    int64_t scale = p->size[0], ef = p->edgefactor ? p->edgefactor : 16;
    if (scale < 1 || scale > 30)
        return pf_fail(st, PF_E_USAGE, "kron: SCALE %lld outside 1..30", LL(scale));
    if (ef < 1 || ef > 1024)
        return pf_fail(st, PF_E_USAGE, "kron: --edgefactor %lld outside 1..1024", LL(ef));
    *n = (int64_t)1 << scale;
    int64_t m = ef << scale;
    int rc = edges_alloc(e, m, p->wmax != 0, st);
    int32_t *perm = rc ? NULL : pf_alloc((size_t)*n, sizeof *perm, st);
    if (!perm)
        return PF_E_NOMEM;
    pf_rng rng;
    pf_rng_seed(&rng, p->seed);
    for (int64_t v = 0; v < *n; v++)
        perm[v] = (int32_t)v;
    for (int64_t v = *n - 1; v > 0; v--) { /* Fisher-Yates */
        int64_t j = pf_rng_range(&rng, 0, v);
        int32_t t = perm[v];
        perm[v] = perm[j];
        perm[j] = t;
    }
    uint64_t weight_seed = p->seed ^ 0x5bd1e995u;
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < m; k++) {
        int32_t u, v;
        kron_edge(p->seed, k, (int)scale, &u, &v);
        e->tail[k] = perm[u];
        e->head[k] = perm[v];
        if (e->weight) {
            edge_rng r = rng_for(weight_seed, (uint64_t)k);
            e->weight[k] = rng_between(&r, p->wmin, p->wmax);
        }
    }
    free(perm);
    return PF_OK;
}

/* ---- lattices ---------------------------------------------------------- */

/* Neighbour offsets of a lattice point (forward half only: each edge
 * once). */
typedef struct offset3 {
    int dx, dy, dz;
} offset3;

static int forward_offsets(int conn, int dims, offset3 *out)
{
    int count = 0;
    for (int dz = dims == 3 ? -1 : 0; dz <= (dims == 3 ? 1 : 0); dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
                int forward = dz > 0 || (dz == 0 && (dy > 0 || (dy == 0 && dx > 0)));
                int wanted = (conn == 4 || conn == 6) ? nonzero == 1 : nonzero >= 1;
                if (forward && wanted)
                    out[count++] = (offset3){dx, dy, dz};
            }
    return count;
}

static int gen_lattice(const pf_ggen_params *p, int dims, edge_arrays *e, int64_t *n,
                       pf_status *st)
{
    int64_t x = p->size[0], y = p->size[1], z = dims == 3 ? p->size[2] : 1;
    int conn = p->conn ? p->conn : (dims == 3 ? 6 : 4);
    if (dims == 2 && conn != 4 && conn != 8)
        return pf_fail(st, PF_E_USAGE, "grid2d: --conn must be 4 or 8, not %d", conn);
    if (dims == 3 && conn != 6 && conn != 26)
        return pf_fail(st, PF_E_USAGE, "grid3d: --conn must be 6 or 26, not %d", conn);
    if (x < 1 || y < 1 || z < 1 || x > PF_MAX_VERTICES / y / z)
        return pf_fail(st, PF_E_USAGE, "grid%dd: sizes must be >= 1 with at most %lld vertices",
                       dims, LL(PF_MAX_VERTICES));
    *n = x * y * z;
    offset3 off[13];
    int per = forward_offsets(conn, dims, off);
    int rc = edges_alloc(e, *n * per, p->wmax != 0, st);
    if (rc)
        return rc;
    int64_t m = 0;
    for (int64_t k = 0; k < z; k++)
        for (int64_t j = 0; j < y; j++)
            for (int64_t i = 0; i < x; i++)
                for (int o = 0; o < per; o++) {
                    int64_t i2 = i + off[o].dx, j2 = j + off[o].dy, k2 = k + off[o].dz;
                    if (i2 < 0 || i2 >= x || j2 < 0 || j2 >= y || k2 < 0 || k2 >= z)
                        continue;
                    e->tail[m] = (int32_t)((k * y + j) * x + i);
                    e->head[m] = (int32_t)((k2 * y + j2) * x + i2);
                    m++;
                }
    e->m = m;
    for (int64_t a = 0; e->weight && a < m; a++) {
        edge_rng r = rng_for(p->seed, (uint64_t)a);
        e->weight[a] = rng_between(&r, p->wmin, p->wmax);
    }
    return PF_OK;
}

/* ---- random ------------------------------------------------------------ */

static int gen_random(const pf_ggen_params *p, edge_arrays *e, int64_t *n, pf_status *st)
{
    *n = p->size[0];
    int64_t m = p->size[1];
    if (*n < 1 || *n > PF_MAX_VERTICES)
        return pf_fail(st, PF_E_USAGE, "random: N = %lld outside 1..%lld", LL(*n),
                       LL(PF_MAX_VERTICES));
    if (m < 0 || m > ((int64_t)1 << 36))
        return pf_fail(st, PF_E_USAGE, "random: M = %lld outside 0..2^36", LL(m));
    int rc = edges_alloc(e, m, p->wmax != 0, st);
    if (rc)
        return rc;
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < m; k++) {
        edge_rng r = rng_for(p->seed, (uint64_t)k);
        e->tail[k] = (int32_t)rng_between(&r, 0, *n - 1);
        e->head[k] = (int32_t)rng_between(&r, 0, *n - 1);
        if (e->weight)
            e->weight[k] = rng_between(&r, p->wmin, p->wmax);
    }
    return PF_OK;
}

/* ---- road -------------------------------------------------------------- */

/* Lattice point (i, j) jittered by up to 0.3 in each direction. */
static void road_point(uint64_t seed, int64_t v, double i, double j, double *px, double *py)
{
    edge_rng r = rng_for(seed ^ 0x726f6164u, (uint64_t)v);
    *px = i + 0.6 * (rng_unit(&r) - 0.5);
    *py = j + 0.6 * (rng_unit(&r) - 0.5);
}

static int gen_road(const pf_ggen_params *p, edge_arrays *e, int64_t *n, pf_status *st)
{
    int64_t w = p->size[0], h = p->size[1];
    if (w < 1 || h < 1 || w > PF_MAX_VERTICES / h)
        return pf_fail(st, PF_E_USAGE, "road: W and H must be >= 1 with at most %lld vertices",
                       LL(PF_MAX_VERTICES));
    *n = w * h;
    int rc = edges_alloc(e, 2 * *n, 1, st);
    if (rc)
        return rc;
    int64_t m = 0;
    for (int64_t j = 0; j < h; j++)
        for (int64_t i = 0; i < w; i++) {
            int64_t v = j * w + i;
            for (int dir = 0; dir < 2; dir++) {
                int64_t i2 = i + (dir == 0), j2 = j + (dir == 1);
                if (i2 >= w || j2 >= h)
                    continue;
                edge_rng r = rng_for(p->seed, (uint64_t)(2 * v + dir));
                int avenue = dir == 0 ? j % 64 == 0 : i % 64 == 0;
                if (!avenue && rng_unit(&r) >= 0.75)
                    continue;
                double x1, y1, x2, y2;
                road_point(p->seed, v, (double)i, (double)j, &x1, &y1);
                road_point(p->seed, j2 * w + i2, (double)i2, (double)j2, &x2, &y2);
                double len = hypot(x2 - x1, y2 - y1); /* 0.4 .. 1.6 */
                int64_t weight = llround(100 * len);
                if (p->wmax != 0)
                    weight = p->wmin + llround((double)(p->wmax - p->wmin) * fmin(1, len / 1.6));
                e->tail[m] = (int32_t)v;
                e->head[m] = (int32_t)(j2 * w + i2);
                e->weight[m++] = weight < 1 && p->wmax == 0 ? 1 : weight;
            }
        }
    e->m = m;
    return PF_OK;
}

pf_csr *pf_ggen(const pf_ggen_params *p, pf_status *st)
{
    if (p->wmax != 0 && p->wmin > p->wmax) {
        pf_fail(st, PF_E_USAGE, "%s: --weights MIN:MAX with MIN %lld above MAX %lld", p->family,
                LL(p->wmin), LL(p->wmax));
        return NULL;
    }
    edge_arrays e = {0};
    int64_t n = 0;
    int rc, undirected = 1;
    const char *f = p->family;
    if (!strcmp(f, "kron"))
        rc = gen_kron(p, &e, &n, st);
    else if (!strcmp(f, "grid2d") || !strcmp(f, "grid3d"))
        rc = gen_lattice(p, f[4] == '3' ? 3 : 2, &e, &n, st);
    else if (!strcmp(f, "road"))
        rc = gen_road(p, &e, &n, st);
    else if (!strcmp(f, "random")) {
        rc = gen_random(p, &e, &n, st);
        undirected = 0;
    } else
        rc = pf_fail(st, PF_E_USAGE, "no analytics family '%s'", f);
    pf_csr *g = NULL;
    if (!rc)
        g = pf_csr_from_arcs(n, e.m, e.tail, e.head, e.weight, NULL, undirected, st);
    edges_free(&e);
    if (g && !strcmp(f, "kron") && pf_csr_simplify(g, st) != PF_OK) {
        pf_csr_free(g);
        g = NULL;
    }
    return g;
}
