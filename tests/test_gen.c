/* Check suite "gen": the random stream and every generator family of
 * docs/GENERATORS.md: counts against the published formulas, structure,
 * capacity ranges, determinism and parameter errors. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "support.h"

/* Fails the test with the generator's message when it returned NULL. */
static pf_network *need(pf_network *net, const pf_status *st)
{
    ck_assert_msg(net != NULL, "generator failed: %s", st->message);
    ck_assert_int_eq(st->code, PF_OK);
    return net;
}

static void check_counts(const pf_network *net, int64_t vertices, int64_t arcs)
{
    ck_assert_int_eq(pf_network_vertices(net), vertices);
    ck_assert_int_eq(pf_network_arcs(net), arcs);
}

static int same_network(const pf_network *a, const pf_network *b)
{
    if (a->n != b->n || a->m != b->m || a->source != b->source || a->sink != b->sink)
        return 0;
    size_t m = (size_t)a->m;
    return !memcmp(a->tail, b->tail, m * sizeof *a->tail) &&
           !memcmp(a->head, b->head, m * sizeof *a->head) &&
           !memcmp(a->cap, b->cap, m * sizeof *a->cap);
}

/* Every generator must fail with PF_E_USAGE (or `code`), no network, and a
 * message naming the offending parameter. */
static void expect_error(pf_network *net, const pf_status *st, int code, const char *fragment)
{
    ck_assert_ptr_null(net);
    ck_assert_int_eq(st->code, code);
    ck_assert_msg(strstr(st->message, fragment) != NULL, "message \"%s\" lacks \"%s\"",
                  st->message, fragment);
}

/* ---- random stream ---------------------------------------------------- */

START_TEST(rng_reference_values)
{
    /* splitmix64's published first output for seed 0, and xoshiro256**'s
     * first outputs from the state {1, 2, 3, 4}. */
    pf_rng r;
    pf_rng_seed(&r, 0);
    ck_assert_uint_eq(r.s[0], 0xE220A8397B1DCDAFull);
    r.s[0] = 1, r.s[1] = 2, r.s[2] = 3, r.s[3] = 4;
    ck_assert_uint_eq(pf_rng_next(&r), 11520);
    ck_assert_uint_eq(pf_rng_next(&r), 0);
    ck_assert_uint_eq(pf_rng_next(&r), 1509978240);
    ck_assert_uint_eq(pf_rng_next(&r), 1215971899390074240ull);
}
END_TEST

START_TEST(rng_deterministic)
{
    pf_rng a, b, c;
    pf_rng_seed(&a, 42);
    pf_rng_seed(&b, 42);
    pf_rng_seed(&c, 43);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = pf_rng_next(&a);
        ck_assert_uint_eq(x, pf_rng_next(&b));
        differ += x != pf_rng_next(&c);
    }
    ck_assert_int_gt(differ, 990);
}
END_TEST

START_TEST(rng_range_bounds)
{
    pf_rng r;
    pf_rng_seed(&r, 7);
    int seen[11] = {0};
    for (int i = 0; i < 20000; i++) {
        int64_t v = pf_rng_range(&r, -5, 5);
        ck_assert(v >= -5 && v <= 5);
        seen[v + 5]++;
    }
    for (int i = 0; i < 11; i++)
        ck_assert_int_gt(seen[i], 1500); /* expected 1818 */
    ck_assert_int_eq(pf_rng_range(&r, 9, 9), 9);
    ck_assert_int_eq(pf_rng_range(&r, 9, 3), 9);
    /* The full int64 range must not overflow the span computation. */
    int negative = 0;
    for (int i = 0; i < 1000; i++)
        negative += pf_rng_range(&r, INT64_MIN, INT64_MAX) < 0;
    ck_assert(negative > 400 && negative < 600);
}
END_TEST

START_TEST(rng_range_unbiased)
{
    /* A span of 3*2^62: plain modulo would put half the draws in the first
     * third of the range instead of a third. */
    pf_rng r;
    pf_rng_seed(&r, 1);
    const uint64_t third = (uint64_t)1 << 62;
    int64_t lo = INT64_MIN, hi = (int64_t)((uint64_t)INT64_MIN + 3 * third - 1);
    int first_third = 0, draws = 30000;
    for (int i = 0; i < draws; i++) {
        uint64_t off = (uint64_t)pf_rng_range(&r, lo, hi) - (uint64_t)lo;
        ck_assert(off < 3 * third);
        first_third += off < third;
    }
    ck_assert_msg(first_third > draws * 0.31 && first_third < draws * 0.36, "%d of %d",
                  first_third, draws);
}
END_TEST

/* ---- RMFGEN ----------------------------------------------------------- */

static int64_t rmf_arcs(int64_t a, int64_t b) { return 5 * a * a * b - 4 * a * b - a * a; }

START_TEST(rmf_counts)
{
    pf_status st;
    static const int64_t sizes[][2] = {{2, 2}, {3, 5}, {7, 2}, {24, 192}, {64, 64}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int64_t a = sizes[i][0], b = sizes[i][1];
        pf_network *net = need(pf_gen_rmf(a, b, 1, 10000, 5, &st), &st);
        check_counts(net, a * a * b, rmf_arcs(a, b));
        ck_assert_int_eq(pf_network_source(net), 0);
        ck_assert_int_eq(pf_network_sink(net), a * a * b - 1);
        pf_network_free(net);
    }
    /* docs/GENERATORS.md's published checks, written out. */
    pf_network *net = need(pf_gen_rmf(24, 192, 1, 10000, 1, &st), &st);
    check_counts(net, 110592, 533952);
    pf_network_free(net);
    net = need(pf_gen_rmf(64, 64, 1, 10000, 1, &st), &st);
    check_counts(net, 262144, 1290240);
    pf_network_free(net);
}
END_TEST

START_TEST(rmf_structure)
{
    const int64_t a = 5, b = 6, c1 = 3, c2 = 40, frame = a * a;
    pf_status st;
    pf_network *net = need(pf_gen_rmf(a, b, c1, c2, 11, &st), &st);
    int64_t n = net->n;
    int *inter_out = calloc((size_t)n, sizeof *inter_out);
    int *inter_in = calloc((size_t)n, sizeof *inter_in);
    int *in_frame = calloc((size_t)b, sizeof *in_frame);
    /* perm[z][k]: the next-frame index that index k of frame z maps to. */
    int64_t *perm = calloc((size_t)(frame * b), sizeof *perm);
    for (int64_t i = 0; i < net->m; i++) {
        int64_t u = net->tail[i], v = net->head[i];
        int64_t zu = u / frame, zv = v / frame;
        if (zu == zv) {
            int64_t xu = u % frame / a, yu = u % a, xv = v % frame / a, yv = v % a;
            ck_assert_int_eq(llabs(xu - xv) + llabs(yu - yv), 1);
            ck_assert_int_eq(net->cap[i], c2 * a * a);
            in_frame[zu]++;
        } else {
            ck_assert_int_eq(zv, zu + 1);
            ck_assert(net->cap[i] >= c1 && net->cap[i] <= c2);
            inter_out[u]++;
            inter_in[v]++;
            perm[zu * frame + u % frame] = v % frame;
        }
    }
    for (int64_t z = 0; z < b; z++)
        ck_assert_int_eq(in_frame[z], 4 * a * (a - 1));
    /* Between consecutive frames the arcs are a bijection: a permutation. */
    for (int64_t v = 0; v < n; v++) {
        ck_assert_int_eq(inter_out[v], v < n - frame ? 1 : 0);
        ck_assert_int_eq(inter_in[v], v >= frame ? 1 : 0);
    }
    /* Fresh permutations: not every frame reuses the first one. */
    int fresh = 0;
    for (int64_t z = 1; z + 1 < b; z++)
        fresh += memcmp(perm, perm + z * frame, (size_t)frame * sizeof *perm) != 0;
    ck_assert_int_gt(fresh, 0);
    free(inter_out);
    free(inter_in);
    free(in_frame);
    free(perm);
    pf_network_free(net);
}
END_TEST

START_TEST(rmf_capacity_extremes)
{
    pf_status st;
    /* c1 = c2 = 0: zero inter-frame capacities are legal (c1 = 0 papers). */
    pf_network *net = need(pf_gen_rmf(3, 3, 0, 0, 1, &st), &st);
    for (int64_t i = 0; i < net->m; i++)
        ck_assert_int_eq(net->cap[i], 0);
    pf_network_free(net);
    /* c2*a*a right at the limit is accepted. */
    net = need(pf_gen_rmf(2, 2, 0, PF_CAP_MAX / 4, 1, &st), &st);
    pf_network_free(net);
}
END_TEST

/* ---- RLG -------------------------------------------------------------- */

START_TEST(rlg_counts)
{
    pf_status st;
    static const int64_t sizes[][2] = {{3, 2}, {4, 9}, {17, 3}, {512, 1024}, {512, 512}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int64_t r = sizes[i][0], c = sizes[i][1];
        pf_network *net = need(pf_gen_rlg(r, c, 10000, 3, &st), &st);
        check_counts(net, r * c + 2, 2 * r + 3 * r * (c - 1));
        ck_assert_int_eq(pf_network_source(net), 0);
        ck_assert_int_eq(pf_network_sink(net), r * c + 1);
        pf_network_free(net);
    }
    pf_network *net = need(pf_gen_rlg(512, 1024, 10000, 1, &st), &st);
    check_counts(net, 524290, 1572352);
    pf_network_free(net);
    net = need(pf_gen_rlg(512, 512, 10000, 1, &st), &st);
    check_counts(net, 262146, 785920);
    pf_network_free(net);
}
END_TEST

/* Level of a grid vertex (1..r*c), -1 for the terminals. */
static int64_t rlg_level(int64_t v, int64_t r, int64_t c)
{
    return v >= 1 && v <= r * c ? (v - 1) / r : -1;
}

START_TEST(rlg_structure)
{
    /* r = 3 is the tightest case: every vertex hits the whole next level. */
    static const int64_t sizes[][2] = {{3, 40}, {10, 12}};
    for (size_t s = 0; s < 2; s++) {
        const int64_t r = sizes[s][0], c = sizes[s][1], cap = 77;
        pf_status st;
        pf_network *net = need(pf_gen_rlg(r, c, cap, 9, &st), &st);
        int64_t n = net->n, sink = n - 1;
        int64_t *out_deg = calloc((size_t)n, sizeof *out_deg);
        int64_t *targets = calloc((size_t)n * 3, sizeof *targets);
        for (int64_t i = 0; i < net->m; i++) {
            int64_t u = net->tail[i], v = net->head[i];
            ck_assert_int_ne(v, 0);
            ck_assert_int_ne(u, sink);
            if (u == 0) {
                ck_assert_int_eq(rlg_level(v, r, c), 0);
                ck_assert_int_eq(net->cap[i], 3 * cap);
            } else if (v == sink) {
                ck_assert_int_eq(rlg_level(u, r, c), c - 1);
                ck_assert_int_eq(net->cap[i], 3 * cap);
            } else {
                ck_assert_int_eq(rlg_level(v, r, c), rlg_level(u, r, c) + 1);
                ck_assert(net->cap[i] >= 1 && net->cap[i] <= cap);
                ck_assert_int_lt(out_deg[u], 3);
                targets[u * 3 + out_deg[u]] = v;
            }
            out_deg[u]++;
        }
        ck_assert_int_eq(out_deg[0], r);
        for (int64_t v = 1; v <= r * c; v++) {
            if (rlg_level(v, r, c) == c - 1) {
                ck_assert_int_eq(out_deg[v], 1);
                continue;
            }
            ck_assert_int_eq(out_deg[v], 3);
            int64_t *t = targets + v * 3;
            ck_assert(t[0] != t[1] && t[0] != t[2] && t[1] != t[2]);
        }
        free(out_deg);
        free(targets);
        pf_network_free(net);
    }
}
END_TEST

/* ---- AC --------------------------------------------------------------- */

START_TEST(ac_counts_and_structure)
{
    pf_status st;
    pf_network *net = need(pf_gen_ac(2000, 1000000, 4, &st), &st);
    check_counts(net, 2000, 1999000);
    pf_network_free(net);

    const int64_t n = 40, cap = 9;
    net = need(pf_gen_ac(n, cap, 4, &st), &st);
    check_counts(net, n, n * (n - 1) / 2);
    ck_assert_int_eq(pf_network_source(net), 0);
    ck_assert_int_eq(pf_network_sink(net), n - 1);
    /* Every pair i < j exactly once. */
    char *seen = calloc((size_t)(n * n), 1);
    for (int64_t i = 0; i < net->m; i++) {
        int64_t u = net->tail[i], v = net->head[i];
        ck_assert_int_lt(u, v);
        ck_assert_int_eq(seen[u * n + v], 0);
        seen[u * n + v] = 1;
        ck_assert(net->cap[i] >= 1 && net->cap[i] <= cap);
    }
    free(seen);
    pf_network_free(net);
}
END_TEST

/* ---- AK --------------------------------------------------------------- */

START_TEST(ak_counts)
{
    for (int64_t k = 2; k <= 50; k++) {
        pf_status st;
        pf_network *net = need(pf_gen_ak(k, &st), &st);
        check_counts(net, 4 * k + 6, 6 * k + 7);
        ck_assert_int_eq(pf_network_source(net), 0);
        ck_assert_int_eq(pf_network_sink(net), 1);
        pf_network_free(net);
    }
}
END_TEST

struct arc1 { int64_t tail, head, cap; };

static int arc1_cmp(const void *pa, const void *pb)
{
    const struct arc1 *a = pa, *b = pb;
    if (a->tail != b->tail)
        return a->tail < b->tail ? -1 : 1;
    if (a->head != b->head)
        return a->head < b->head ? -1 : 1;
    return (a->cap > b->cap) - (a->cap < b->cap);
}

START_TEST(ak_exact_k2)
{
    /* docs/GENERATORS.md worked out by hand for k = 2 (d = 8), 1-based ids. */
    struct arc1 expect[] = {
        {3, 4, 3},  {3, 6, 1},   {4, 5, 2},   {4, 6, 1},                /* i = 0, 1 */
        {5, 8, 1},  {5, 6, 1},                                          /* k+3 */
        {6, 7, 3},  {7, 8, 3},                                          /* chain cap k+1 */
        {9, 10, 2}, {10, 11, 2}, {11, 12, 2}, {12, 13, 2}, {13, 14, 2}, /* chain cap k */
        {9, 14, 1}, {10, 13, 1},                                        /* shortcuts */
        {1, 3, 1000000}, {1, 9, 1000000}, {8, 2, 1000000}, {14, 2, 1000000},
    };
    size_t count = sizeof expect / sizeof expect[0];
    ck_assert_int_eq(count, 19);
    pf_status st;
    pf_network *net = need(pf_gen_ak(2, &st), &st);
    ck_assert_int_eq(net->m, (int64_t)count);
    struct arc1 got[19];
    for (size_t i = 0; i < count; i++)
        got[i] = (struct arc1){net->tail[i] + 1, net->head[i] + 1, net->cap[i]};
    qsort(expect, count, sizeof expect[0], arc1_cmp);
    qsort(got, count, sizeof got[0], arc1_cmp);
    for (size_t i = 0; i < count; i++) {
        ck_assert_int_eq(got[i].tail, expect[i].tail);
        ck_assert_int_eq(got[i].head, expect[i].head);
        ck_assert_int_eq(got[i].cap, expect[i].cap);
    }
    pf_network_free(net);
}
END_TEST

/* ---- vision grids ----------------------------------------------------- */

static int64_t grid2d_arcs(int64_t w, int64_t h, int conn)
{
    int64_t arcs = 2 * ((w - 1) * h + w * (h - 1)) + w * h;
    return conn == 8 ? arcs + 2 * 2 * (w - 1) * (h - 1) : arcs;
}

static int64_t grid3d_arcs(int64_t x, int64_t y, int64_t z, int conn)
{
    int64_t arcs = 2 * ((x - 1) * y * z + x * (y - 1) * z + x * y * (z - 1)) + x * y * z;
    if (conn == 26)
        arcs += 2 * 2 * ((x - 1) * (y - 1) * z + (x - 1) * y * (z - 1) + x * (y - 1) * (z - 1)) +
                2 * 4 * (x - 1) * (y - 1) * (z - 1);
    return arcs;
}

START_TEST(grid_counts)
{
    static const int64_t sizes2[][2] = {{1, 1}, {1, 6}, {6, 1}, {2, 2}, {7, 3}, {64, 48}};
    static const int64_t sizes3[][3] = {{1, 1, 1}, {1, 1, 5}, {2, 3, 4}, {5, 5, 5}, {16, 8, 4}};
    pf_status st;
    for (int conn = 4; conn <= 8; conn += 4) {
        for (size_t i = 0; i < sizeof sizes2 / sizeof sizes2[0]; i++) {
            int64_t w = sizes2[i][0], h = sizes2[i][1];
            pf_network *net = need(pf_gen_grid2d(w, h, conn, 100, 2, &st), &st);
            check_counts(net, w * h + 2, grid2d_arcs(w, h, conn));
            ck_assert_int_eq(pf_network_source(net), w * h);
            ck_assert_int_eq(pf_network_sink(net), w * h + 1);
            pf_network_free(net);
        }
    }
    for (int conn = 6; conn <= 26; conn += 20) {
        for (size_t i = 0; i < sizeof sizes3 / sizeof sizes3[0]; i++) {
            int64_t x = sizes3[i][0], y = sizes3[i][1], z = sizes3[i][2];
            pf_network *net = need(pf_gen_grid3d(x, y, z, conn, 100, 2, &st), &st);
            check_counts(net, x * y * z + 2, grid3d_arcs(x, y, z, conn));
            ck_assert_int_eq(pf_network_source(net), x * y * z);
            ck_assert_int_eq(pf_network_sink(net), x * y * z + 1);
            pf_network_free(net);
        }
    }
}
END_TEST

/* Checks one grid: a terminal arc per voxel, neighbour arcs only between
 * voxels that touch (faces only for conn 4/6), both directions with one
 * capacity, no parallel arcs, capacity ranges. Returns the number of
 * voxels whose terminal arc comes from the source. */
static int64_t check_grid(const pf_network *net, int64_t X, int64_t Y, int64_t Z, int faces_only,
                          int64_t cap)
{
    int64_t voxels = X * Y * Z, source = voxels, sink = voxels + 1, from_source = 0;
    int *terminal = calloc((size_t)voxels, sizeof *terminal);
    int64_t *pair_cap = calloc((size_t)(voxels * voxels), sizeof *pair_cap);
    for (int64_t i = 0; i < net->m; i++) {
        int64_t u = net->tail[i], v = net->head[i], c = net->cap[i];
        ck_assert_int_ne(v, source);
        ck_assert_int_ne(u, sink);
        if (u == source || v == sink) {
            ck_assert(c >= 1 && c <= 2 * cap);
            terminal[u == source ? v : u]++;
            from_source += u == source;
            continue;
        }
        ck_assert(c >= 1 && c <= cap);
        int64_t dx = llabs(u % X - v % X), dy = llabs(u / X % Y - v / X % Y);
        int64_t dz = llabs(u / (X * Y) - v / (X * Y));
        ck_assert(dx <= 1 && dy <= 1 && dz <= 1 && dx + dy + dz >= 1);
        if (faces_only)
            ck_assert_int_eq(dx + dy + dz, 1);
        ck_assert_int_eq(pair_cap[u * voxels + v], 0);
        pair_cap[u * voxels + v] = c;
    }
    for (int64_t v = 0; v < voxels; v++) {
        ck_assert_int_eq(terminal[v], 1);
        for (int64_t u = 0; u < voxels; u++)
            ck_assert_int_eq(pair_cap[u * voxels + v], pair_cap[v * voxels + u]);
    }
    free(terminal);
    free(pair_cap);
    return from_source;
}

START_TEST(grid_structure)
{
    pf_status st;
    for (int conn = 4; conn <= 8; conn += 4) {
        pf_network *net = need(pf_gen_grid2d(9, 7, conn, 50, 8, &st), &st);
        check_grid(net, 9, 7, 1, conn == 4, 50);
        pf_network_free(net);
    }
    for (int conn = 6; conn <= 26; conn += 20) {
        pf_network *net = need(pf_gen_grid3d(5, 4, 3, conn, 50, 8, &st), &st);
        check_grid(net, 5, 4, 3, conn == 6, 50);
        pf_network_free(net);
    }
}
END_TEST

START_TEST(grid_data_term)
{
    /* The object and the background both hold a real share of the voxels
     * (the min cut is then a segmentation, not one side). */
    for (uint64_t seed = 1; seed <= 8; seed++) {
        pf_status st;
        pf_network *net = need(pf_gen_grid2d(60, 40, 4, 100, seed, &st), &st);
        int64_t from_source = 0;
        for (int64_t i = 0; i < net->m; i++)
            from_source += net->tail[i] == net->source;
        ck_assert_msg(from_source > 2400 / 10 && from_source < 2400 * 9 / 10, "seed %d: %lld",
                      (int)seed, (long long)from_source);
        pf_network_free(net);
        net = need(pf_gen_grid3d(16, 14, 12, 6, 100, seed, &st), &st);
        from_source = 0;
        for (int64_t i = 0; i < net->m; i++)
            from_source += net->tail[i] == net->source;
        ck_assert_msg(from_source > 2688 / 20 && from_source < 2688 * 9 / 10, "seed %d: %lld",
                      (int)seed, (long long)from_source);
        pf_network_free(net);
    }
}
END_TEST

/* ---- random test networks --------------------------------------------- */

START_TEST(random_shape)
{
    const int64_t n = 10, m = 600, cap = 25;
    pf_status st;
    pf_network *net = need(pf_gen_random(n, m, cap, 3, &st), &st);
    check_counts(net, n, m);
    ck_assert_int_eq(net->tail[0], 0);
    ck_assert_int_eq(net->head[1], n - 1);
    int self_loops = 0, into_s = 0, out_of_t = 0, parallel = 0, reverse = 0, zero_cap = 0;
    int pairs[10][10] = {{0}};
    for (int64_t i = 0; i < m; i++) {
        int u = net->tail[i], v = net->head[i];
        ck_assert(u >= 0 && u < n && v >= 0 && v < n);
        ck_assert(net->cap[i] >= 0 && net->cap[i] <= cap);
        self_loops += u == v;
        into_s += v == 0;
        out_of_t += u == n - 1;
        zero_cap += net->cap[i] == 0;
        parallel += pairs[u][v] > 0;
        reverse += u != v && pairs[v][u] > 0;
        pairs[u][v]++;
    }
    ck_assert(self_loops && into_s && out_of_t && parallel && reverse && zero_cap);
    pf_network_free(net);

    /* Small m: the terminals still get their arcs. */
    net = need(pf_gen_random(50, 4, 10, 3, &st), &st);
    ck_assert_int_eq(net->tail[0], 0);
    ck_assert_int_eq(net->head[1], 49);
    pf_network_free(net);
    net = need(pf_gen_random(2, 0, 10, 3, &st), &st);
    check_counts(net, 2, 0);
    pf_network_free(net);
}
END_TEST

/* ---- every family ----------------------------------------------------- */

/* Builds family `which` with `seed`; AK ignores the seed. */
static pf_network *build(int which, uint64_t seed, pf_status *st)
{
    switch (which) {
    case 0: return pf_gen_rmf(6, 5, 1, 1000, seed, st);
    case 1: return pf_gen_rlg(20, 15, 1000, seed, st);
    case 2: return pf_gen_ac(60, 1000, seed, st);
    case 3: return pf_gen_grid2d(30, 20, 8, 100, seed, st);
    case 4: return pf_gen_grid3d(8, 7, 6, 26, 100, seed, st);
    case 5: return pf_gen_random(100, 1000, 50, seed, st);
    default: return pf_gen_ak(12, st);
    }
}

START_TEST(deterministic)
{
    for (int which = 0; which <= 6; which++) {
        pf_status st;
        pf_network *a = need(build(which, 1234, &st), &st);
        pf_network *b = need(build(which, 1234, &st), &st);
        pf_network *c = need(build(which, 1235, &st), &st);
        ck_assert_msg(same_network(a, b), "family %d: same seed, different network", which);
        if (which != 6)
            ck_assert_msg(!same_network(a, c), "family %d: seed has no effect", which);
        pf_network_free(a);
        pf_network_free(b);
        pf_network_free(c);
    }
}
END_TEST

START_TEST(parameter_errors)
{
    pf_status st;
    const int64_t big = (int64_t)1 << 20;
    expect_error(pf_gen_rmf(1, 4, 1, 10, 1, &st), &st, PF_E_USAGE, "a = 1");
    expect_error(pf_gen_rmf(4, 1, 1, 10, 1, &st), &st, PF_E_USAGE, "b = 1");
    expect_error(pf_gen_rmf(4, 4, -1, 10, 1, &st), &st, PF_E_USAGE, "c1 = -1");
    expect_error(pf_gen_rmf(4, 4, 11, 10, 1, &st), &st, PF_E_USAGE, "c1 = 11 exceeds c2 = 10");
    expect_error(pf_gen_rmf(big, 4, 1, 10, 1, &st), &st, PF_E_USAGE, "vertex limit");
    expect_error(pf_gen_rmf(INT64_MAX, INT64_MAX, 1, 10, 1, &st), &st, PF_E_USAGE,
                 "vertex limit");
    expect_error(pf_gen_rmf(2, 2, 0, PF_CAP_MAX / 4 + 1, 1, &st), &st, PF_E_USAGE, "c2*a*a");

    expect_error(pf_gen_rlg(2, 4, 10, 1, &st), &st, PF_E_USAGE, "r = 2");
    expect_error(pf_gen_rlg(4, 1, 10, 1, &st), &st, PF_E_USAGE, "c = 1");
    expect_error(pf_gen_rlg(4, 4, 0, 1, &st), &st, PF_E_USAGE, "cap = 0");
    expect_error(pf_gen_rlg(4, 4, PF_CAP_MAX / 3 + 1, 1, &st), &st, PF_E_USAGE, "cap =");
    expect_error(pf_gen_rlg(big, big, 10, 1, &st), &st, PF_E_USAGE, "vertex limit");

    expect_error(pf_gen_ac(1, 10, 1, &st), &st, PF_E_USAGE, "n = 1");
    expect_error(pf_gen_ac(10, 0, 1, &st), &st, PF_E_USAGE, "cap = 0");
    expect_error(pf_gen_ac(PF_MAX_VERTICES + 1, 10, 1, &st), &st, PF_E_USAGE, "n =");
    /* 2^61 arcs: refused as out of memory before any allocation. */
    expect_error(pf_gen_ac(PF_MAX_VERTICES, 10, 1, &st), &st, PF_E_NOMEM, "arcs");

    expect_error(pf_gen_ak(1, &st), &st, PF_E_USAGE, "k = 1");
    expect_error(pf_gen_ak(INT64_MAX / 2, &st), &st, PF_E_USAGE, "k =");

    expect_error(pf_gen_grid2d(0, 4, 4, 10, 1, &st), &st, PF_E_USAGE, "w = 0");
    expect_error(pf_gen_grid2d(4, -3, 4, 10, 1, &st), &st, PF_E_USAGE, "h = -3");
    expect_error(pf_gen_grid2d(4, 4, 6, 10, 1, &st), &st, PF_E_USAGE, "conn = 6");
    expect_error(pf_gen_grid2d(4, 4, 4, 0, 1, &st), &st, PF_E_USAGE, "cap = 0");
    expect_error(pf_gen_grid2d(big, big, 4, 10, 1, &st), &st, PF_E_USAGE, "vertex count");
    expect_error(pf_gen_grid3d(4, 4, 0, 6, 10, 1, &st), &st, PF_E_USAGE, "z = 0");
    expect_error(pf_gen_grid3d(4, 4, 4, 8, 10, 1, &st), &st, PF_E_USAGE, "conn = 8");
    expect_error(pf_gen_grid3d(4, 4, 4, 26, PF_CAP_MAX, 1, &st), &st, PF_E_USAGE, "cap =");
    expect_error(pf_gen_grid3d(big, big, big, 26, 10, 1, &st), &st, PF_E_USAGE,
                 "vertex count");

    expect_error(pf_gen_random(1, 4, 10, 1, &st), &st, PF_E_USAGE, "n = 1");
    expect_error(pf_gen_random(4, -1, 10, 1, &st), &st, PF_E_USAGE, "m = -1");
    expect_error(pf_gen_random(4, 4, -1, 1, &st), &st, PF_E_USAGE, "cap = -1");

    /* A NULL status is allowed: the generator still fails cleanly. */
    ck_assert_ptr_null(pf_gen_ak(0, NULL));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gen");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, rng_reference_values);
    tcase_add_test(tc, rng_deterministic);
    tcase_add_test(tc, rng_range_bounds);
    tcase_add_test(tc, rng_range_unbiased);
    tcase_add_test(tc, rmf_counts);
    tcase_add_test(tc, rmf_structure);
    tcase_add_test(tc, rmf_capacity_extremes);
    tcase_add_test(tc, rlg_counts);
    tcase_add_test(tc, rlg_structure);
    tcase_add_test(tc, ac_counts_and_structure);
    tcase_add_test(tc, ak_counts);
    tcase_add_test(tc, ak_exact_k2);
    tcase_add_test(tc, grid_counts);
    tcase_add_test(tc, grid_structure);
    tcase_add_test(tc, grid_data_term);
    tcase_add_test(tc, random_shape);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, parameter_errors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
