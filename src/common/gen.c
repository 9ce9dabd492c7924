/* Benchmark-family generators (docs/GENERATORS.md) and their random stream.
 *
 * Every generator validates its parameters, computes the exact vertex and
 * arc counts with overflow checks, reserves the arc arrays once and fills
 * them directly: no per-arc reallocation or validation, so a graph of ten
 * million arcs takes a fraction of a second. Clean-room code written from
 * the family definitions alone. */
#include "gen.h"

#include <assert.h>
#include <stdlib.h>

#include "status.h"

/* ---- random stream ---------------------------------------------------- */

/* splitmix64 turns any seed (0 included) into well-mixed state words;
 * xoshiro256** must not start from the all-zero state, and consecutive
 * splitmix64 outputs are distinct, so at least three words are non-zero. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void pf_rng_seed(pf_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t pf_rng_next(pf_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* Uniform in [0, span) for span >= 1: Lemire's multiply-shift with the
 * rejection step that removes the bias of a plain modulo. The division
 * only runs in the rare case the low word lands in the biased zone. */
static inline uint64_t rng_below(pf_rng *r, uint64_t span)
{
    unsigned __int128 prod = (unsigned __int128)pf_rng_next(r) * span;
    uint64_t low = (uint64_t)prod;
    if (low < span) {
        uint64_t threshold = (0 - span) % span;
        while (low < threshold) {
            prod = (unsigned __int128)pf_rng_next(r) * span;
            low = (uint64_t)prod;
        }
    }
    return (uint64_t)(prod >> 64);
}

int64_t pf_rng_range(pf_rng *r, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    /* Unsigned arithmetic: hi - lo can exceed INT64_MAX for wide ranges. */
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    uint64_t offset = span ? rng_below(r, span) : pf_rng_next(r);
    return (int64_t)((uint64_t)lo + offset);
}

/* Uniform double in [0, 1) from the top 53 bits. */
static inline double rng_unit(pf_rng *r) { return (double)(pf_rng_next(r) >> 11) * 0x1.0p-53; }

/* ---- building --------------------------------------------------------- */

/* Largest arc count whose arrays' byte sizes cannot overflow size_t; above
 * it the graph could never fit in memory anyway. */
#define GEN_MAX_ARCS ((int64_t)(SIZE_MAX / sizeof(int64_t) / 2))

/* A network with room for exactly `arcs` arcs (filled by put_arc). */
static pf_network *gen_network(const char *family, int64_t vertices, int64_t source,
                               int64_t sink, int64_t arcs, pf_status *st)
{
    if (arcs > GEN_MAX_ARCS) {
        pf_fail(st, PF_E_NOMEM, "%s: %lld arcs do not fit in host memory", family,
                (long long)arcs);
        return NULL;
    }
    pf_network *net = pf_network_new(vertices, source, sink, st);
    if (!net)
        return NULL;
    if (arcs > 0 && pf_network_reserve(net, arcs, st) != PF_OK) {
        pf_network_free(net);
        return NULL;
    }
    return net;
}

/* Appends one arc; the caller reserved the exact count, so no growth or
 * range checks here (this is the hot loop of every generator). */
static inline void put_arc(pf_network *net, int64_t tail, int64_t head, int64_t cap)
{
    assert(net->m < net->m_alloc);
    int64_t k = net->m++;
    net->tail[k] = (int32_t)tail;
    net->head[k] = (int32_t)head;
    net->cap[k] = cap;
}

/* *out = a * b, false if it overflows or leaves [0, limit]. */
static int mul_within(int64_t a, int64_t b, int64_t limit, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out) && *out >= 0 && *out <= limit;
}

/* `return USAGE(st, "...", ...);` from a generator: PF_E_USAGE and NULL. */
#define USAGE(st, ...) (pf_fail((st), PF_E_USAGE, __VA_ARGS__), (pf_network *)NULL)
#define LL(v) ((long long)(v))

/* ---- RMFGEN ----------------------------------------------------------- */

pf_network *pf_gen_rmf(int64_t a, int64_t b, int64_t c1, int64_t c2, uint64_t seed, pf_status *st)
{
    if (a < 2)
        return USAGE(st, "rmf: frame side a = %lld must be at least 2", LL(a));
    if (b < 2)
        return USAGE(st, "rmf: frame count b = %lld must be at least 2", LL(b));
    if (c1 < 0)
        return USAGE(st, "rmf: capacity c1 = %lld must be non-negative", LL(c1));
    if (c1 > c2)
        return USAGE(st, "rmf: capacity c1 = %lld exceeds c2 = %lld", LL(c1), LL(c2));
    int64_t frame, vertices, frame_cap;
    if (!mul_within(a, a, PF_MAX_VERTICES, &frame) ||
        !mul_within(frame, b, PF_MAX_VERTICES, &vertices))
        return USAGE(st, "rmf: a*a*b vertices (a = %lld, b = %lld) exceed the vertex limit",
                     LL(a), LL(b));
    if (!mul_within(c2, frame, PF_CAP_MAX, &frame_cap))
        return USAGE(st, "rmf: in-frame capacity c2*a*a (c2 = %lld, a = %lld) exceeds 2^62",
                     LL(c2), LL(a));

    /* 4a(a-1) in-frame arcs per frame, one inter-frame arc per vertex of
     * every frame but the last: 5a^2b - 4ab - a^2. */
    int64_t arcs = 4 * a * (a - 1) * b + frame * (b - 1);
    pf_network *net = gen_network("rmf", vertices, 0, vertices - 1, arcs, st);
    if (!net)
        return NULL;
    int32_t *perm = pf_alloc((size_t)frame, sizeof *perm, st);
    if (!perm) {
        pf_network_free(net);
        return NULL;
    }
    for (int64_t k = 0; k < frame; k++)
        perm[k] = (int32_t)k;

    pf_rng rng;
    pf_rng_seed(&rng, seed);
    for (int64_t z = 0; z < b; z++) {
        int64_t base = z * frame;
        for (int64_t x = 0; x < a; x++) {
            for (int64_t y = 0; y < a; y++) {
                int64_t v = base + x * a + y;
                if (x > 0)
                    put_arc(net, v, v - a, frame_cap);
                if (x < a - 1)
                    put_arc(net, v, v + a, frame_cap);
                if (y > 0)
                    put_arc(net, v, v - 1, frame_cap);
                if (y < a - 1)
                    put_arc(net, v, v + 1, frame_cap);
            }
        }
        if (z == b - 1)
            break;
        /* Fisher-Yates: shuffling the previous permutation again gives a
         * fresh uniform one, independent of the last frame's. */
        for (int64_t k = frame - 1; k > 0; k--) {
            int64_t j = (int64_t)rng_below(&rng, (uint64_t)k + 1);
            int32_t held = perm[k];
            perm[k] = perm[j];
            perm[j] = held;
        }
        for (int64_t k = 0; k < frame; k++)
            put_arc(net, base + k, base + frame + perm[k], pf_rng_range(&rng, c1, c2));
    }
    free(perm);
    assert(net->m == arcs);
    pf_status_ok(st);
    return net;
}

/* ---- Washington random level graph ------------------------------------ */

pf_network *pf_gen_rlg(int64_t r, int64_t c, int64_t cap, uint64_t seed, pf_status *st)
{
    if (r < 3)
        return USAGE(st, "rlg: rows r = %lld must be at least 3 (3 distinct successors)", LL(r));
    if (c < 2)
        return USAGE(st, "rlg: levels c = %lld must be at least 2", LL(c));
    if (cap < 1 || cap > PF_CAP_MAX / 3)
        return USAGE(st, "rlg: cap = %lld outside 1..%lld (terminal arcs carry 3*cap)",
                     LL(cap), LL(PF_CAP_MAX / 3));
    int64_t grid;
    if (!mul_within(r, c, PF_MAX_VERTICES - 2, &grid))
        return USAGE(st, "rlg: r*c + 2 vertices (r = %lld, c = %lld) exceed the vertex limit",
                     LL(r), LL(c));
    int64_t vertices = grid + 2, sink = grid + 1;
    int64_t arcs = 2 * r + 3 * r * (c - 1);
    pf_network *net = gen_network("rlg", vertices, 0, sink, arcs, st);
    if (!net)
        return NULL;

    pf_rng rng;
    pf_rng_seed(&rng, seed);
    for (int64_t i = 0; i < r; i++)
        put_arc(net, 0, 1 + i, 3 * cap);
    for (int64_t level = 0; level + 1 < c; level++) {
        int64_t next = 1 + (level + 1) * r;
        for (int64_t i = 0; i < r; i++) {
            int64_t u = 1 + level * r + i;
            /* Three distinct successors by rejection: with r >= 3 at most a
             * third of the draws are repeats. */
            int64_t d0 = (int64_t)rng_below(&rng, (uint64_t)r), d1, d2;
            do
                d1 = (int64_t)rng_below(&rng, (uint64_t)r);
            while (d1 == d0);
            do
                d2 = (int64_t)rng_below(&rng, (uint64_t)r);
            while (d2 == d0 || d2 == d1);
            put_arc(net, u, next + d0, pf_rng_range(&rng, 1, cap));
            put_arc(net, u, next + d1, pf_rng_range(&rng, 1, cap));
            put_arc(net, u, next + d2, pf_rng_range(&rng, 1, cap));
        }
    }
    for (int64_t i = 0; i < r; i++)
        put_arc(net, 1 + (c - 1) * r + i, sink, 3 * cap);
    assert(net->m == arcs);
    pf_status_ok(st);
    return net;
}

/* ---- acyclic dense ------------------------------------------------------ */

pf_network *pf_gen_ac(int64_t n, int64_t cap, uint64_t seed, pf_status *st)
{
    if (n < 2 || n > PF_MAX_VERTICES)
        return USAGE(st, "ac: vertex count n = %lld outside 2..%lld", LL(n), LL(PF_MAX_VERTICES));
    if (cap < 1 || cap > PF_CAP_MAX)
        return USAGE(st, "ac: cap = %lld outside 1..%lld", LL(cap), LL(PF_CAP_MAX));
    /* n < 2^31, so n(n-1) < 2^62 cannot overflow. */
    int64_t arcs = n * (n - 1) / 2;
    pf_network *net = gen_network("ac", n, 0, n - 1, arcs, st);
    if (!net)
        return NULL;
    pf_rng rng;
    pf_rng_seed(&rng, seed);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++)
            put_arc(net, i, j, pf_rng_range(&rng, 1, cap));
    pf_status_ok(st);
    return net;
}

/* ---- AK ----------------------------------------------------------------- */

/* docs/GENERATORS.md numbers AK's vertices from 1; this takes those ids. */
static inline void put_arc1(pf_network *net, int64_t tail, int64_t head, int64_t cap)
{
    put_arc(net, tail - 1, head - 1, cap);
}

pf_network *pf_gen_ak(int64_t k, pf_status *st)
{
    if (k < 2 || k > (PF_MAX_VERTICES - 6) / 4)
        return USAGE(st, "ak: k = %lld outside 2..%lld", LL(k), LL((PF_MAX_VERTICES - 6) / 4));
    const int64_t terminal_cap = 1000000;
    int64_t vertices = 4 * k + 6, arcs = 6 * k + 7, d = 2 * k + 4;
    pf_network *net = gen_network("ak", vertices, 0, 1, arcs, st);
    if (!net)
        return NULL;
    /* The first half: a path of shrinking capacities whose every vertex
     * also drains one unit into vertex k+4, the head of a long chain. */
    for (int64_t i = 0; i < k; i++) {
        put_arc1(net, i + 3, i + 4, k - i + 1);
        put_arc1(net, i + 3, k + 4, 1);
    }
    put_arc1(net, k + 3, 2 * k + 4, 1);
    put_arc1(net, k + 3, k + 4, 1);
    for (int64_t v = k + 4; v <= 2 * k + 3; v++)
        put_arc1(net, v, v + 1, k + 1);
    /* The second half: a chain with unit shortcuts from its front to its
     * back, nested so each shortcut is longer than the one before. */
    for (int64_t v = d + 1; v <= 4 * k + 5; v++)
        put_arc1(net, v, v + 1, k);
    for (int64_t i = 0; i < k; i++)
        put_arc1(net, d + 1 + i, 4 * k + 6 - i, 1);
    put_arc1(net, 1, 3, terminal_cap);
    put_arc1(net, 1, d + 1, terminal_cap);
    put_arc1(net, d, 2, terminal_cap);
    put_arc1(net, 4 * k + 6, 2, terminal_cap);
    assert(net->m == arcs);
    pf_status_ok(st);
    return net;
}

/* ---- vision grids ------------------------------------------------------- */

/* A neighbour offset; each list holds one of every +/- pair, so every
 * unordered neighbour pair is visited once, from its earlier vertex (dz is
 * never negative, which grid_build's bounds test relies on). */
struct grid_offset { int dx, dy, dz; };

static const struct grid_offset offsets_4[] = {{1, 0, 0}, {0, 1, 0}};
static const struct grid_offset offsets_8[] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {-1, 1, 0}};
static const struct grid_offset offsets_6[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const struct grid_offset offsets_26[] = {
    {1, 0, 0},   {0, 1, 0},  {0, 0, 1},                                    /* faces */
    {-1, 1, 0},  {1, 1, 0},  {-1, 0, 1}, {1, 0, 1}, {0, -1, 1}, {0, 1, 1}, /* edges */
    {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1},                        /* corners */
};

/* The hidden object the data term describes: a union of axis-aligned
 * ellipsoids in pixel coordinates. A point p is inside blob b when
 * sum_d ((p_d - centre_d) * inv_radius_d)^2 <= 1; a grid dimension of side
 * 1 gets inv_radius 0, which turns 3D blobs into the 2D ones. */
#define GRID_MAX_BLOBS 4
struct grid_blob { double centre[3], inv_radius[3]; };
struct grid_object { int blobs; struct grid_blob blob[GRID_MAX_BLOBS]; };

static void grid_make_object(struct grid_object *obj, const int64_t side[3], pf_rng *rng)
{
    double min_side = 0;
    for (int d = 0; d < 3; d++)
        if (side[d] > 1 && (min_side == 0 || (double)side[d] < min_side))
            min_side = (double)side[d];
    if (min_side == 0)
        min_side = 1;
    /* The main body: an ellipse near the centre spanning 50-80% of each side. */
    struct grid_blob *body = &obj->blob[0];
    for (int d = 0; d < 3; d++) {
        double radius = (0.25 + 0.15 * rng_unit(rng)) * (double)side[d];
        body->centre[d] = (0.45 + 0.1 * rng_unit(rng)) * (double)side[d];
        body->inv_radius[d] = side[d] > 1 ? 1.0 / radius : 0.0;
    }
    /* One to three round satellites anywhere, so the cut is not convex. */
    obj->blobs = 2 + (int)rng_below(rng, GRID_MAX_BLOBS - 1);
    for (int b = 1; b < obj->blobs; b++) {
        double radius = (0.06 + 0.09 * rng_unit(rng)) * min_side;
        for (int d = 0; d < 3; d++) {
            obj->blob[b].centre[d] = (0.15 + 0.7 * rng_unit(rng)) * (double)side[d];
            obj->blob[b].inv_radius[d] = side[d] > 1 ? 1.0 / radius : 0.0;
        }
    }
}

static int grid_inside(const struct grid_object *obj, int64_t x, int64_t y, int64_t z)
{
    double p[3] = {(double)x + 0.5, (double)y + 0.5, (double)z + 0.5};
    for (int b = 0; b < obj->blobs; b++) {
        double sum = 0;
        for (int d = 0; d < 3; d++) {
            double t = (p[d] - obj->blob[b].centre[d]) * obj->blob[b].inv_radius[d];
            sum += t * t;
        }
        if (sum <= 1.0)
            return 1;
    }
    return 0;
}

/* Builds an X*Y*Z grid (Z = 1 for 2D) with the given neighbour offsets.
 * Arcs per voxel, in voxel order: each forward neighbour pair (both
 * directions, one capacity), then the voxel's terminal arc. */
static pf_network *grid_build(const char *family, const int64_t side[3],
                              const struct grid_offset *offsets, int offset_count,
                              int64_t cap, uint64_t seed, pf_status *st)
{
    int64_t X = side[0], Y = side[1], Z = side[2];
    int64_t voxels = X * Y * Z; /* the callers checked it fits */
    int64_t arcs = voxels;
    for (int o = 0; o < offset_count; o++)
        arcs += 2 * (X - abs(offsets[o].dx)) * (Y - abs(offsets[o].dy)) * (Z - abs(offsets[o].dz));
    int64_t source = voxels, sink = voxels + 1;
    pf_network *net = gen_network(family, voxels + 2, source, sink, arcs, st);
    if (!net)
        return NULL;

    pf_rng rng;
    pf_rng_seed(&rng, seed);
    struct grid_object obj;
    grid_make_object(&obj, side, &rng);
    for (int64_t z = 0; z < Z; z++) {
        for (int64_t y = 0; y < Y; y++) {
            for (int64_t x = 0; x < X; x++) {
                int64_t v = (z * Y + y) * X + x;
                for (int o = 0; o < offset_count; o++) {
                    int64_t nx = x + offsets[o].dx, ny = y + offsets[o].dy, nz = z + offsets[o].dz;
                    if (nx < 0 || nx >= X || ny < 0 || ny >= Y || nz >= Z)
                        continue;
                    int64_t u = (nz * Y + ny) * X + nx;
                    int64_t c = pf_rng_range(&rng, 1, cap);
                    put_arc(net, v, u, c);
                    put_arc(net, u, v, c);
                }
                /* Data term: 1 in 8 voxels is noise that prefers the wrong
                 * side; smoothing by the neighbour arcs has to outvote it. */
                int object = grid_inside(&obj, x, y, z);
                if (rng_below(&rng, 8) == 0)
                    object = !object;
                int64_t c = pf_rng_range(&rng, 1, 2 * cap);
                if (object)
                    put_arc(net, source, v, c);
                else
                    put_arc(net, v, sink, c);
            }
        }
    }
    assert(net->m == arcs);
    pf_status_ok(st);
    return net;
}

/* Checks sides >= 1, the product against the vertex limit and cap. */
static int grid_check(const char *family, const int64_t side[3], int dims, int64_t cap,
                      pf_status *st)
{
    static const char *const names[3] = {"x", "y", "z"};
    static const char *const names2d[2] = {"w", "h"};
    int64_t voxels = 1;
    for (int d = 0; d < dims; d++) {
        if (side[d] < 1)
            return pf_fail(st, PF_E_USAGE, "%s: side %s = %lld must be at least 1", family,
                           dims == 2 ? names2d[d] : names[d], (long long)side[d]);
        if (!mul_within(voxels, side[d], PF_MAX_VERTICES - 2, &voxels))
            return pf_fail(st, PF_E_USAGE, "%s: the grid's vertex count exceeds the limit %lld",
                           family, (long long)PF_MAX_VERTICES);
    }
    if (cap < 1 || cap > PF_CAP_MAX / 2)
        return pf_fail(st, PF_E_USAGE,
                       "%s: cap = %lld outside 1..%lld (terminal arcs carry up to 2*cap)", family,
                       (long long)cap, (long long)(PF_CAP_MAX / 2));
    return PF_OK;
}

pf_network *pf_gen_grid2d(int64_t w, int64_t h, int conn, int64_t cap, uint64_t seed,
                          pf_status *st)
{
    int64_t side[3] = {w, h, 1};
    if (conn != 4 && conn != 8)
        return USAGE(st, "grid2d: connectivity conn = %d must be 4 or 8", conn);
    if (grid_check("grid2d", side, 2, cap, st) != PF_OK)
        return NULL;
    if (conn == 4)
        return grid_build("grid2d", side, offsets_4, 2, cap, seed, st);
    return grid_build("grid2d", side, offsets_8, 4, cap, seed, st);
}

pf_network *pf_gen_grid3d(int64_t x, int64_t y, int64_t z, int conn, int64_t cap,
                          uint64_t seed, pf_status *st)
{
    int64_t side[3] = {x, y, z};
    if (conn != 6 && conn != 26)
        return USAGE(st, "grid3d: connectivity conn = %d must be 6 or 26", conn);
    if (grid_check("grid3d", side, 3, cap, st) != PF_OK)
        return NULL;
    if (conn == 6)
        return grid_build("grid3d", side, offsets_6, 3, cap, seed, st);
    return grid_build("grid3d", side, offsets_26, 13, cap, seed, st);
}

/* ---- random test networks ----------------------------------------------- */

pf_network *pf_gen_random(int64_t n, int64_t m, int64_t cap, uint64_t seed, pf_status *st)
{
    if (n < 2 || n > PF_MAX_VERTICES)
        return USAGE(st, "random: vertex count n = %lld outside 2..%lld", LL(n),
                     LL(PF_MAX_VERTICES));
    if (m < 0)
        return USAGE(st, "random: arc count m = %lld must be non-negative", LL(m));
    if (cap < 0 || cap > PF_CAP_MAX)
        return USAGE(st, "random: cap = %lld outside 0..%lld", LL(cap), LL(PF_CAP_MAX));
    int64_t source = 0, sink = n - 1;
    pf_network *net = gen_network("random", n, source, sink, m, st);
    if (!net)
        return NULL;
    pf_rng rng;
    pf_rng_seed(&rng, seed);
    for (int64_t i = 0; i < m; i++) {
        /* Kinds 0 and 1 feed the terminals; 2 and 3 point forward (lower to
         * higher id) so that long s-t paths form; the rest are uniform and
         * bring the self-loops, parallel and reverse arcs. The first two
         * arcs are fixed to kinds 0 and 1 so s and t are never isolated. */
        uint64_t kind = m >= 4 && i < 2 ? (uint64_t)i : rng_below(&rng, 8);
        int64_t u = (int64_t)rng_below(&rng, (uint64_t)n);
        int64_t v = (int64_t)rng_below(&rng, (uint64_t)n);
        if (kind == 0) {
            u = source;
        } else if (kind == 1) {
            v = sink;
        } else if (kind <= 3 && u > v) {
            int64_t held = u;
            u = v;
            v = held;
        }
        put_arc(net, u, v, pf_rng_range(&rng, 0, cap));
    }
    pf_status_ok(st);
    return net;
}
