/* Check suite "checker": pf_verify accepts real max-flow / min-cut
 * certificates and rejects each kind of corruption with PF_E_VERIFY and a
 * message naming what is wrong (1-based ids, as in the files). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "support.h"

static pf_network *make_network(int64_t n, int64_t s, int64_t t, const int64_t (*arcs)[3],
                                size_t count)
{
    pf_status st;
    pf_network *net = pf_network_new(n, s, t, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    for (size_t i = 0; i < count; i++)
        ck_assert_int_eq(pf_network_add_arc(net, arcs[i][0], arcs[i][1], arcs[i][2], &st),
                         PF_OK);
    return net;
}

/* pf_verify must fail with PF_E_VERIFY and exactly `message`. */
static void expect_reject(const pf_network *net, int64_t value, const int64_t *flow,
                          const uint8_t *side, const char *message)
{
    pf_status st;
    ck_assert_int_eq(pf_verify(net, value, flow, side, &st), PF_E_VERIFY);
    ck_assert_int_eq(st.code, PF_E_VERIFY);
    ck_assert_str_eq(st.message, message);
}

static void expect_accept(const pf_network *net, int64_t value, const int64_t *flow,
                          const uint8_t *side)
{
    pf_status st;
    int rc = pf_verify(net, value, flow, side, &st);
    ck_assert_msg(rc == PF_OK, "rejected: %s", st.message);
    ck_assert_int_eq(st.code, PF_OK);
}

/* ---- the CLRS network (Cormen et al., fig. 26.1), max flow 23 --------- */

/* s = 0, v1..v4 = 1..4, t = 5 (ids 1..6 in messages). */
static const int64_t clrs_arcs[][3] = {
    {0, 1, 16}, {0, 2, 13}, {2, 1, 4}, {1, 3, 12}, {3, 2, 9},
    {2, 4, 14}, {4, 3, 7},  {3, 5, 20}, {4, 5, 4},
};
static const int64_t clrs_flow[] = {11, 12, 1, 12, 0, 11, 7, 19, 4};
/* S = {s, v1, v2, v4}: v1->v3 12 + v4->v3 7 + v4->t 4 = 23. */
static const uint8_t clrs_side[] = {1, 1, 1, 0, 1, 0};

static pf_network *clrs(void) { return make_network(6, 0, 5, clrs_arcs, 9); }

START_TEST(clrs_certificate_passes)
{
    pf_network *net = clrs();
    expect_accept(net, 23, clrs_flow, clrs_side);
    expect_accept(net, 23, clrs_flow, NULL);
    expect_accept(net, 23, NULL, clrs_side);
    pf_network_free(net);
}
END_TEST

START_TEST(flow_over_capacity)
{
    pf_network *net = clrs();
    int64_t flow[9];
    memcpy(flow, clrs_flow, sizeof flow);
    flow[0] = 17;
    expect_reject(net, 23, flow, clrs_side, "arc 1 (1 -> 2): flow 17 exceeds capacity 16");
    pf_network_free(net);
}
END_TEST

START_TEST(negative_flow)
{
    pf_network *net = clrs();
    int64_t flow[9];
    memcpy(flow, clrs_flow, sizeof flow);
    flow[4] = -1;
    expect_reject(net, 23, flow, clrs_side, "arc 5 (4 -> 3): negative flow -1");
    pf_network_free(net);
}
END_TEST

START_TEST(conservation_broken)
{
    pf_network *net = clrs();
    int64_t flow[9];
    memcpy(flow, clrs_flow, sizeof flow);
    flow[3] = 11; /* v1 keeps a unit; v3 then misses one: v1 is reported first */
    expect_reject(net, 23, flow, clrs_side, "vertex 2: inflow 12 != outflow 11");
    pf_network_free(net);
}
END_TEST

START_TEST(value_wrong)
{
    pf_network *net = clrs();
    expect_reject(net, 24, clrs_flow, clrs_side, "flow value 24 != net outflow 23 of source 1");
    expect_reject(net, 22, clrs_flow, NULL, "flow value 22 != net outflow 23 of source 1");
    /* Cut only: the cut is 23, not the claimed value. */
    expect_reject(net, 22, NULL, clrs_side, "cut capacity 23 != flow value 22");
    pf_network_free(net);
}
END_TEST

START_TEST(cut_sides_wrong)
{
    pf_network *net = clrs();
    uint8_t side[6];
    memcpy(side, clrs_side, sizeof side);
    side[5] = 1;
    expect_reject(net, 23, clrs_flow, side, "sink 6 is on the source side of the cut");
    memcpy(side, clrs_side, sizeof side);
    side[0] = 0;
    expect_reject(net, 23, clrs_flow, side, "source 1 is on the sink side of the cut");
    memcpy(side, clrs_side, sizeof side);
    side[2] = 2;
    expect_reject(net, 23, clrs_flow, side, "vertex 3: cut side 2 is neither 0 nor 1");
    pf_network_free(net);
}
END_TEST

START_TEST(cut_capacity_wrong)
{
    pf_network *net = clrs();
    /* S = {s}: 16 + 13, a cut but not a minimum one. */
    const uint8_t only_s[] = {1, 0, 0, 0, 0, 0};
    expect_reject(net, 23, clrs_flow, only_s, "cut capacity 29 != flow value 23");
    /* S = {s, v1, v2}: v1->v3 12 + v2->v4 14; v3->v2 runs backwards, free. */
    const uint8_t s12[] = {1, 1, 1, 0, 0, 0};
    expect_reject(net, 23, clrs_flow, s12, "cut capacity 26 != flow value 23");
    pf_network_free(net);
}
END_TEST

START_TEST(usage_errors)
{
    pf_network *net = clrs();
    pf_status st;
    ck_assert_int_eq(pf_verify(net, 23, NULL, NULL, &st), PF_E_USAGE);
    ck_assert_int_eq(st.code, PF_E_USAGE);
    ck_assert_int_eq(pf_verify(NULL, 23, clrs_flow, clrs_side, &st), PF_E_USAGE);
    ck_assert_int_eq(pf_verify(net, 23, clrs_flow, clrs_side, NULL), PF_OK);
    pf_network_free(net);
}
END_TEST

/* ---- 64- and 128-bit totals, parallel arcs, self-loops ----------------- */

START_TEST(large_values)
{
    const int64_t T = 1000000000000; /* 10^12, far above 2^32 */
    /* s = 0, a = 1, t = 2. Two parallel s->a arcs, a saturated self-loop
     * at a, a reverse arc a->s and an arc out of t. */
    const int64_t arcs[][3] = {
        {0, 1, 5 * T}, {0, 1, 4 * T}, {1, 1, 7 * T}, {1, 2, PF_CAP_MAX}, {1, 0, 10}, {2, 1, 3},
    };
    const int64_t flow[] = {5 * T, 4 * T, 7 * T, 9 * T, 0, 0};
    const uint8_t side[] = {1, 0, 0};
    pf_network *net = make_network(3, 0, 2, arcs, 6);
    expect_accept(net, 9 * T, flow, side);
    /* Off by 2^32: a checker truncating to 32 bits would accept this. */
    expect_reject(net, 9 * T + ((int64_t)1 << 32), flow, side,
                  "flow value 9004294967296 != net outflow 9000000000000 of source 1");
    /* A self-loop above its capacity is still an error. */
    int64_t bad[6];
    memcpy(bad, flow, sizeof bad);
    bad[2] = 7 * T + 1;
    expect_reject(net, 9 * T, bad, side,
                  "arc 3 (2 -> 2): flow 7000000000001 exceeds capacity 7000000000000");
    /* Flow around the 2-cycle a -> t -> a, out of the sink, is fine too. */
    memcpy(bad, flow, sizeof bad);
    bad[5] = 3, bad[3] = 9 * T + 3;
    expect_accept(net, 9 * T, bad, side);
    pf_network_free(net);
}
END_TEST

START_TEST(totals_beyond_int64)
{
    const int64_t B = PF_CAP_MAX; /* 2^62 */
    /* b = 1 sends 4 * 2^62 = 2^64 into a = 2 and receives nothing: a sum
     * kept modulo 2^64 would see both balances as 0. */
    const int64_t arcs[][3] = {{1, 2, B}, {1, 2, B}, {1, 2, B}, {1, 2, B}, {0, 3, 1}};
    const int64_t flow[] = {B, B, B, B, 1};
    pf_network *net = make_network(4, 0, 3, arcs, 5);
    expect_reject(net, 1, flow, NULL, "vertex 2: inflow 0 != outflow 18446744073709551616");
    pf_network_free(net);

    /* A cut of capacity 2^64 must not wrap around to the claimed 0. */
    const int64_t wide_arcs[][3] = {{0, 1, B}, {0, 1, B}, {0, 1, B}, {0, 1, B}};
    const uint8_t side[] = {1, 0};
    net = make_network(2, 0, 1, wide_arcs, 4);
    expect_reject(net, 0, NULL, side, "cut capacity 18446744073709551616 != flow value 0");
    pf_network_free(net);
}
END_TEST

/* ---- certificates from a reference max-flow ----------------------------- */

/* A small Dinic on the input arcs (test-only reference, no shared code with
 * the solvers): residual arc 2i is arc i forward, 2i+1 its reverse. */
struct dinic {
    const pf_network *net;
    int64_t *resid, *adj, *first, *iter;
    int64_t *level, *queue;
};

static int32_t dinic_to(const struct dinic *d, int64_t a)
{
    return a & 1 ? d->net->tail[a / 2] : d->net->head[a / 2];
}

static int dinic_bfs(struct dinic *d)
{
    int64_t n = d->net->n, head = 0, tail = 0;
    for (int64_t v = 0; v < n; v++)
        d->level[v] = -1;
    d->level[d->net->source] = 0;
    d->queue[tail++] = d->net->source;
    while (head < tail) {
        int64_t u = d->queue[head++];
        for (int64_t k = d->first[u]; k < d->first[u + 1]; k++) {
            int64_t a = d->adj[k], v = dinic_to(d, a);
            if (d->resid[a] > 0 && d->level[v] < 0) {
                d->level[v] = d->level[u] + 1;
                d->queue[tail++] = v;
            }
        }
    }
    return d->level[d->net->sink] >= 0;
}

static int64_t dinic_dfs(struct dinic *d, int64_t u, int64_t limit)
{
    if (u == d->net->sink)
        return limit;
    for (; d->iter[u] < d->first[u + 1]; d->iter[u]++) {
        int64_t a = d->adj[d->iter[u]], v = dinic_to(d, a);
        if (d->resid[a] <= 0 || d->level[v] != d->level[u] + 1)
            continue;
        int64_t got = dinic_dfs(d, v, limit < d->resid[a] ? limit : d->resid[a]);
        if (got > 0) {
            d->resid[a] -= got;
            d->resid[a ^ 1] += got;
            return got;
        }
    }
    return 0;
}

/* Fills flow (m) and side (n) with a maximum flow and the minimum cut of the
 * vertices still reachable from s; returns the value. */
static int64_t reference_max_flow(const pf_network *net, int64_t *flow, uint8_t *side)
{
    int64_t n = net->n, m = net->m;
    struct dinic d = {.net = net};
    d.resid = calloc((size_t)(2 * m + 1), sizeof *d.resid);
    d.adj = calloc((size_t)(2 * m + 1), sizeof *d.adj);
    d.first = calloc((size_t)(n + 1), sizeof *d.first);
    d.iter = calloc((size_t)n, sizeof *d.iter);
    d.level = calloc((size_t)n, sizeof *d.level);
    d.queue = calloc((size_t)n, sizeof *d.queue);
    for (int64_t i = 0; i < m; i++) {
        d.resid[2 * i] = net->cap[i];
        d.first[net->tail[i] + 1]++;
        d.first[net->head[i] + 1]++;
    }
    for (int64_t v = 0; v < n; v++)
        d.first[v + 1] += d.first[v];
    for (int64_t v = 0; v < n; v++)
        d.iter[v] = d.first[v];
    for (int64_t a = 0; a < 2 * m; a++) {
        int64_t from = a & 1 ? net->head[a / 2] : net->tail[a / 2];
        d.adj[d.iter[from]++] = a;
    }
    int64_t value = 0;
    while (dinic_bfs(&d)) {
        for (int64_t v = 0; v < n; v++)
            d.iter[v] = d.first[v];
        for (int64_t got; (got = dinic_dfs(&d, net->source, INT64_MAX)) > 0;)
            value += got;
    }
    for (int64_t i = 0; i < m; i++)
        flow[i] = net->cap[i] - d.resid[2 * i];
    for (int64_t v = 0; v < n; v++)
        side[v] = d.level[v] >= 0; /* the last BFS: reachable from s */
    free(d.resid);
    free(d.adj);
    free(d.first);
    free(d.iter);
    free(d.level);
    free(d.queue);
    return value;
}

START_TEST(random_certificates)
{
    /* Dense random networks: parallel arcs, self-loops, reverse pairs,
     * arcs into s and out of t all occur. */
    static const int64_t shapes[][2] = {{2, 6}, {5, 40}, {20, 100}, {60, 600}, {200, 900}};
    for (uint64_t seed = 1; seed <= 10; seed++) {
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            pf_status st;
            pf_network *net = pf_gen_random(shapes[k][0], shapes[k][1], 30, seed, &st);
            ck_assert_msg(net != NULL, "%s", st.message);
            int64_t *flow = malloc((size_t)net->m * sizeof *flow);
            uint8_t *side = malloc((size_t)net->n);
            int64_t value = reference_max_flow(net, flow, side);
            expect_accept(net, value, flow, side);
            /* Any claim above or below the optimum is refused. */
            ck_assert_int_eq(pf_verify(net, value + 1, flow, side, &st), PF_E_VERIFY);
            ck_assert_int_eq(pf_verify(net, value + 1, NULL, side, &st), PF_E_VERIFY);
            if (value > 0)
                ck_assert_int_eq(pf_verify(net, value - 1, flow, NULL, &st), PF_E_VERIFY);
            /* Moving a unit of flow off a carrying non-loop arc breaks
             * conservation somewhere or the value. */
            for (int64_t i = 0; i < net->m; i++) {
                if (flow[i] > 0 && net->tail[i] != net->head[i]) {
                    flow[i]--;
                    ck_assert_int_eq(pf_verify(net, value, flow, side, &st), PF_E_VERIFY);
                    flow[i]++;
                    break;
                }
            }
            free(flow);
            free(side);
            pf_network_free(net);
        }
    }
}
END_TEST

START_TEST(generated_certificates)
{
    pf_status st;
    pf_network *nets[] = {
        pf_gen_rmf(4, 5, 1, 100, 3, &st),
        pf_gen_rlg(6, 8, 100, 3, &st),
        pf_gen_ac(30, 100, 3, &st),
        pf_gen_ak(6, &st),
        pf_gen_grid3d(6, 5, 4, 26, 20, 3, &st),
    };
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        pf_network *net = nets[k];
        ck_assert_msg(net != NULL, "generator %zu failed", k);
        int64_t *flow = malloc((size_t)net->m * sizeof *flow);
        uint8_t *side = malloc((size_t)net->n);
        int64_t value = reference_max_flow(net, flow, side);
        expect_accept(net, value, flow, side);
        free(flow);
        free(side);
        pf_network_free(net);
    }
}
END_TEST

START_TEST(grid_cut_is_a_segmentation)
{
    /* The vision grids' data term must give a real segmentation: the max
     * flow saturates neither all source arcs nor all sink arcs, and the
     * min cut puts a real share of the pixels on each side. */
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pf_status st;
        pf_network *net = pf_gen_grid2d(48, 40, seed % 2 ? 4 : 8, 100, seed, &st);
        ck_assert_msg(net != NULL, "%s", st.message);
        int64_t *flow = malloc((size_t)net->m * sizeof *flow);
        uint8_t *side = malloc((size_t)net->n);
        int64_t value = reference_max_flow(net, flow, side);
        expect_accept(net, value, flow, side);
        int64_t from_source = 0, to_sink = 0, pixels = 48 * 40, on_source_side = 0;
        for (int64_t i = 0; i < net->m; i++) {
            from_source += net->tail[i] == net->source ? net->cap[i] : 0;
            to_sink += net->head[i] == net->sink ? net->cap[i] : 0;
        }
        for (int64_t v = 0; v < pixels; v++)
            on_source_side += side[v];
        ck_assert_int_lt(value, from_source);
        ck_assert_int_lt(value, to_sink);
        ck_assert_msg(on_source_side > pixels / 10 && on_source_side < pixels * 9 / 10,
                      "seed %d: %lld of %lld pixels on the source side", (int)seed,
                      (long long)on_source_side, (long long)pixels);
        free(flow);
        free(side);
        pf_network_free(net);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("checker");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, clrs_certificate_passes);
    tcase_add_test(tc, flow_over_capacity);
    tcase_add_test(tc, negative_flow);
    tcase_add_test(tc, conservation_broken);
    tcase_add_test(tc, value_wrong);
    tcase_add_test(tc, cut_sides_wrong);
    tcase_add_test(tc, cut_capacity_wrong);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, large_values);
    tcase_add_test(tc, totals_beyond_int64);
    tcase_add_test(tc, random_certificates);
    tcase_add_test(tc, generated_certificates);
    tcase_add_test(tc, grid_cut_is_a_segmentation);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
