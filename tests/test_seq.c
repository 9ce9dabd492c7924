/* Suite "seq": the sequential engines (highest-label push-relabel and
 * Boykov-Kolmogorov, and the method that picks one), through pf_solve and
 * directly on the residual graph. Every solve is checked by hand here
 * (capacity, conservation, value, cut capacity, canonical cut) as well as
 * by pf_verify, and random networks are cross-checked against the Boost
 * and LEMON peers where they are compiled in. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "common/residual.h"
#include "common/shape.h"
#include "host/engine.h"
#include "host/registry.h"
#include "support.h"

typedef struct arc3 { int64_t u, v, c; } arc3;

/* ---- helpers ----------------------------------------------------------- */

static pf_network *make_net(int64_t n, int64_t s, int64_t t, const arc3 *arcs, size_t m)
{
    pf_status st;
    pf_network *net = pf_network_new(n, s, t, &st);
    ck_assert_msg(net != NULL, "pf_network_new: %s", st.message);
    for (size_t i = 0; i < m; i++)
        ck_assert_int_eq(pf_network_add_arc(net, arcs[i].u, arcs[i].v, arcs[i].c, &st), PF_OK);
    return net;
}

/* Capacity of the cut (side, complement): arcs leaving the side. */
static int64_t cut_capacity(const pf_network *net, const uint8_t *side)
{
    int64_t total = 0;
    for (int64_t i = 0; i < pf_network_arcs(net); i++) {
        int64_t u, v, c;
        pf_network_arc(net, i, &u, &v, &c);
        if (side[u] && !side[v])
            total += c;
    }
    return total;
}

/* Capacity bounds, conservation away from s and t, and value = net flow
 * out of s = net flow into t. */
static void check_flow(const pf_network *net, int64_t value, const int64_t *flow)
{
    int64_t n = pf_network_vertices(net), s = pf_network_source(net), t = pf_network_sink(net);
    int64_t *balance = calloc((size_t)n, sizeof *balance);
    ck_assert_ptr_nonnull(balance);
    for (int64_t i = 0; i < pf_network_arcs(net); i++) {
        int64_t u, v, c;
        pf_network_arc(net, i, &u, &v, &c);
        ck_assert_msg(flow[i] >= 0 && flow[i] <= c, "arc %lld: flow %lld outside 0..%lld",
                      (long long)i, (long long)flow[i], (long long)c);
        if (u == v)
            continue;
        balance[u] -= flow[i];
        balance[v] += flow[i];
    }
    for (int64_t v = 0; v < n; v++)
        if (v != s && v != t)
            ck_assert_msg(balance[v] == 0, "vertex %lld: imbalance %lld", (long long)v,
                          (long long)balance[v]);
    ck_assert_int_eq(-balance[s], value);
    ck_assert_int_eq(balance[t], value);
    free(balance);
}

/* The whole-solve engines of the seq backend: push-relabel and
 * Boykov-Kolmogorov (a flow in out->res even without want_flow). */
typedef int (*seq_engine_fn)(const pf_residual *, const pf_solve_options *, pf_engine_out *,
                             pf_status *);
static int bk_whole(const pf_residual *g, const pf_solve_options *opt, pf_engine_out *out,
                    pf_status *st)
{
    int gave_up;
    int rc = pf_seq_bk_solve(g, opt, 0, out, &gave_up, st);
    ck_assert_int_eq(gave_up, 0);
    return rc;
}
static const seq_engine_fn seq_engines[] = {pf_seq_solve, bk_whole};

/* pf_solve with these options, flows and cut wanted: rc as expected, and
 * an answer that passes pf_verify. */
static pf_solution solve_with(const pf_network *net, const char *backend, int method, int hybrid,
                              int expect_rc)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.method = method;
    opt.hybrid = hybrid;
    opt.want_flow = 1;
    opt.want_cut = 1;
    pf_solution sol;
    pf_status st;
    int rc = pf_solve(net, &opt, &sol, &st);
    ck_assert_msg(rc == expect_rc, "backend %s, method %d: rc %d (%s)", backend, method, rc,
                  st.message);
    if (rc == PF_OK)
        ck_assert_int_eq(pf_verify(net, sol.value, sol.arc_flow, sol.source_side, &st), PF_OK);
    return sol;
}

/* Each engine on the residual graph in one arc order, with and without
 * phase 2: residuals within capacity, a cut equal to the complement of the
 * vertices that reach the sink, the graph left untouched, the same value
 * every time. */
static int64_t check_engine_order(const pf_network *net, pf_arc_order order)
{
    pf_status st;
    pf_residual g;
    ck_assert_int_eq(pf_residual_build(net, &g, order, 1, &st), PF_OK);
    int64_t *cap_copy = malloc((size_t)g.arcs * sizeof *cap_copy + 8);
    memcpy(cap_copy, g.cap, (size_t)g.arcs * sizeof *cap_copy);
    int64_t value = -1;
    for (int run = 0; run < 4; run++) {
        int want_flow = run & 1, bk = run >> 1;
        pf_solve_options opt;
        pf_solve_options_init(&opt);
        opt.want_flow = want_flow;
        pf_engine_out out;
        memset(&out, 0, sizeof out);
        out.res = malloc((size_t)g.arcs * sizeof *out.res + 8);
        out.source_side = malloc((size_t)g.n);
        uint8_t *reach = malloc((size_t)g.n);
        int rc = seq_engines[bk](&g, &opt, &out, &st);
        ck_assert_msg(rc == PF_OK, "%s: %s", bk ? "pf_seq_bk_solve" : "pf_seq_solve", st.message);
        if (value < 0)
            value = out.value;
        ck_assert_int_eq(out.value, value);
        for (int64_t a = 0; a < g.arcs; a++) {
            int64_t pair = g.cap[a] + g.cap[g.rev[a]];
            ck_assert(out.res[a] >= 0 && out.res[a] <= pair);
            ck_assert_int_eq(out.res[a] + out.res[g.rev[a]], pair);
        }
        ck_assert_int_eq(pf_residual_reaches(&g, out.res, g.sink, reach, &st), PF_OK);
        for (int64_t v = 0; v < g.n; v++)
            ck_assert_msg(out.source_side[v] == !reach[v], "vertex %lld: side %d, reaches t %d",
                          (long long)v, out.source_side[v], reach[v]);
        ck_assert_int_eq(out.source_side[g.source], 1);
        ck_assert_int_eq(out.source_side[g.sink], 0);
        ck_assert(out.times.total >= 0 && (bk || out.global_relabels >= 1));
        ck_assert(bk || strlen(out.device) > 0);
        if (want_flow || bk) {
            int64_t *flow = malloc((size_t)g.input_arcs * sizeof *flow + 8);
            pf_residual_arc_flows(&g, out.res, flow, 1);
            check_flow(net, value, flow);
            free(flow);
        }
        free(out.res);
        free(out.source_side);
        free(reach);
    }
    ck_assert(memcmp(cap_copy, g.cap, (size_t)g.arcs * sizeof *cap_copy) == 0);
    free(cap_copy);
    pf_residual_free(&g);
    return value;
}

static int64_t check_engine(const pf_network *net)
{
    int64_t value = check_engine_order(net, PF_ARCS_FORWARD_FIRST);
    ck_assert_int_eq(check_engine_order(net, PF_ARCS_FORWARD_ROTATED), value);
    ck_assert_int_eq(check_engine_order(net, PF_ARCS_FORWARD_PART_ROTATED), value);
    ck_assert_int_eq(check_engine_order(net, PF_ARCS_INPUT), value);
    return value;
}

/* Everything above plus pf_solve with backend "seq", pf_verify, and the
 * peers when `use_peers` (their int64 sums must not overflow). Returns the
 * value; `expected` < 0 means unknown. */
static int64_t check_all(const pf_network *net, int64_t expected, int use_peers)
{
    int64_t engine_value = check_engine(net);

    uint8_t *first_side = NULL;
    int64_t value = -1;
    /* Both methods through pf_solve: the same value and canonical cut. */
    for (int method = PF_METHOD_PUSH_RELABEL; method <= PF_METHOD_BOYKOV_KOLMOGOROV; method++) {
        pf_solution sol = solve_with(net, "seq", method, PF_HYBRID_AUTO, PF_OK);
        ck_assert_str_eq(sol.method, method == PF_METHOD_PUSH_RELABEL ? "push-relabel"
                                                                       : "boykov-kolmogorov");
        ck_assert_int_eq(sol.value, engine_value);
        if (expected >= 0)
            ck_assert_int_eq(sol.value, expected);
        check_flow(net, sol.value, sol.arc_flow);
        ck_assert_ptr_nonnull(sol.source_side);
        ck_assert_int_eq(sol.source_side[pf_network_source(net)], 1);
        ck_assert_int_eq(sol.source_side[pf_network_sink(net)], 0);
        ck_assert_int_eq(cut_capacity(net, sol.source_side), sol.value);
        if (first_side)
            ck_assert(!memcmp(first_side, sol.source_side, (size_t)pf_network_vertices(net)));
        else
            first_side = sol.source_side;
        if (sol.source_side == first_side)
            sol.source_side = NULL; /* kept for the next method */
        value = sol.value;
        pf_solution_free(&sol);
    }
    free(first_side);
    if (use_peers) {
        int64_t boost = pf_peer_boost_value(net), lemon = pf_peer_lemon_value(net);
        if (boost >= 0)
            ck_assert_int_eq(value, boost);
        if (lemon >= 0)
            ck_assert_int_eq(value, lemon);
    }
    return value;
}

static void check_arcs(int64_t n, int64_t s, int64_t t, const arc3 *arcs, size_t m,
                       int64_t expected)
{
    pf_network *net = make_net(n, s, t, arcs, m);
    check_all(net, expected, 1);
    pf_network_free(net);
}

#define ARCS(...) ((const arc3[]){__VA_ARGS__}), sizeof((const arc3[]){__VA_ARGS__}) / sizeof(arc3)

/* ---- known answers ------------------------------------------------------ */

START_TEST(clrs)
{
    check_arcs(6, 0, 5,
               ARCS({0, 1, 16}, {0, 2, 13}, {1, 3, 12}, {2, 1, 4}, {2, 4, 14}, {3, 2, 9},
                    {3, 5, 20}, {4, 3, 7}, {4, 5, 4}),
               23);
}
END_TEST

START_TEST(path)
{
    check_arcs(4, 0, 3, ARCS({0, 1, 5}, {1, 2, 3}, {2, 3, 7}), 3);
    check_arcs(4, 3, 0, ARCS({3, 2, 9}, {2, 1, 8}, {1, 0, 7}), 7);
}
END_TEST

START_TEST(diamond)
{
    check_arcs(4, 0, 3, ARCS({0, 1, 3}, {0, 2, 2}, {1, 3, 2}, {2, 3, 3}, {1, 2, 1}), 5);
}
END_TEST

START_TEST(disjoint_paths)
{
    check_arcs(4, 0, 3, ARCS({0, 1, 4}, {1, 3, 6}, {0, 2, 5}, {2, 3, 2}), 6);
}
END_TEST

/* A chain where every vertex passes one unit to the sink and the rest on:
 * the excess has to travel the whole chain, and pushes that overshoot must
 * come back (k of them in the worst order). */
static pf_network *hard_chain(int64_t k)
{
    pf_status st;
    int64_t n = k + 2, s = 0, t = k + 1;
    pf_network *net = pf_network_new(n, s, t, &st);
    ck_assert_ptr_nonnull(net);
    pf_network_add_arc(net, s, 1, 2 * k, &st);
    for (int64_t i = 1; i <= k; i++) {
        pf_network_add_arc(net, i, t, 1, &st);
        if (i < k) {
            pf_network_add_arc(net, i, i + 1, 2 * k - i, &st);
            pf_network_add_arc(net, i + 1, i, k, &st); /* backward arcs invite ping-pong */
        }
    }
    return net;
}

START_TEST(chain)
{
    for (int64_t k = 1; k <= 40; k++) {
        pf_network *net = hard_chain(k);
        check_all(net, k, 1);
        pf_network_free(net);
    }
}
END_TEST

/* An AK-like network: a path of 4-arc rungs feeding a long chain of
 * decreasing capacities, after Cherkassky and Goldberg's hard family. The
 * value is checked by the peers. */
START_TEST(ak_like)
{
    for (int64_t k = 2; k <= 24; k += 2) {
        pf_status st;
        int64_t n = 2 * k + 4, s = 0, t = n - 1;
        pf_network *net = pf_network_new(n, s, t, &st);
        ck_assert_ptr_nonnull(net);
        for (int64_t i = 1; i <= k; i++) {
            pf_network_add_arc(net, i - 1, i, k + 1 - i + 1, &st);
            pf_network_add_arc(net, i, t, 1, &st);
        }
        pf_network_add_arc(net, s, k + 1, k, &st);
        for (int64_t i = k + 1; i < 2 * k + 2; i++)
            pf_network_add_arc(net, i, i + 1, k, &st);
        pf_network_add_arc(net, 2 * k + 2, t, k, &st);
        check_all(net, -1, 1);
        pf_network_free(net);
    }
}
END_TEST

/* ---- awkward inputs ------------------------------------------------------ */

START_TEST(parallel_and_loops)
{
    check_arcs(3, 0, 2, ARCS({0, 1, 3}, {0, 1, 4}, {1, 2, 10}, {1, 2, 0}, {1, 1, 100}, {0, 0, 5}),
               7);
    check_arcs(3, 0, 2, ARCS({0, 1, 5}, {1, 0, 5}, {1, 2, 3}, {2, 1, 9}, {0, 2, 1}, {0, 2, 1}), 5);
}
END_TEST

START_TEST(zero_capacities)
{
    check_arcs(2, 0, 1, ARCS({0, 1, 0}), 0);
    check_arcs(4, 0, 3, ARCS({0, 1, 0}, {1, 3, 5}, {0, 2, 5}, {2, 3, 0}), 0);
}
END_TEST

START_TEST(huge_capacities)
{
    const int64_t big = (int64_t)1 << 40;
    check_arcs(3, 0, 2, ARCS({0, 1, big}, {1, 2, big}, {0, 2, big >> 5}), big + (big >> 5));
    check_arcs(2, 0, 1, ARCS({0, 1, PF_CAP_MAX}), PF_CAP_MAX);
    check_arcs(3, 0, 2, ARCS({0, 1, PF_CAP_MAX}, {1, 2, PF_CAP_MAX - 1}, {0, 2, 3}),
               PF_CAP_MAX + 2);
}
END_TEST

/* Capacity out of the source beyond int64: the engine runs with a budget
 * and must still get bounded answers right (peers would overflow). */
START_TEST(source_overflow)
{
    const arc3 arcs[] = {{0, 1, PF_CAP_MAX}, {0, 1, PF_CAP_MAX}, {0, 2, PF_CAP_MAX},
                         {0, 2, PF_CAP_MAX}, {1, 3, 5}, {2, 3, PF_CAP_MAX}, {1, 2, 7}};
    pf_network *net = make_net(4, 0, 3, arcs, 7);
    check_all(net, PF_CAP_MAX + 5, 0);
    pf_network_free(net);

    /* 2^63 really does not fit: a clean PF_E_INPUT. */
    const arc3 too_big[] = {{0, 1, PF_CAP_MAX}, {0, 1, PF_CAP_MAX}};
    net = make_net(2, 0, 1, too_big, 2);
    pf_residual g;
    pf_status st;
    ck_assert_int_eq(pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 1, &st), PF_OK);
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.want_flow = 1;
    pf_engine_out out;
    memset(&out, 0, sizeof out);
    out.res = malloc((size_t)g.arcs * sizeof *out.res);
    out.source_side = malloc((size_t)g.n);
    for (size_t e = 0; e < sizeof seq_engines / sizeof *seq_engines; e++) {
        ck_assert_int_eq(seq_engines[e](&g, &opt, &out, &st), PF_E_INPUT);
        ck_assert(strstr(st.message, "int64") != NULL);
    }
    free(out.res);
    free(out.source_side);
    pf_residual_free(&g);
    pf_network_free(net);
}
END_TEST

START_TEST(unreachable_sink)
{
    check_arcs(4, 0, 3, ARCS({0, 1, 5}, {2, 3, 5}, {3, 0, 9}), 0);
    check_arcs(5, 0, 4, ARCS({1, 4, 5}, {2, 4, 5}), 0); /* source without arcs */
}
END_TEST

START_TEST(arcs_into_source_out_of_sink)
{
    check_arcs(3, 0, 2, ARCS({2, 0, 10}, {1, 0, 5}, {0, 1, 3}, {1, 2, 2}, {2, 1, 7}), 2);
}
END_TEST

START_TEST(isolated_and_tiny)
{
    check_arcs(10, 3, 7, ARCS({3, 7, 4}), 4);
    check_arcs(2, 1, 0, ARCS({1, 0, 5}, {0, 1, 3}), 5);
    check_arcs(2, 0, 1, NULL, 0, 0);
}
END_TEST

/* ---- random networks ------------------------------------------------------ */

/* Random network with every kind of awkwardness: parallel arcs, self-loops,
 * opposite pairs, arcs into s and out of t, some layering so that long
 * paths exist. */
static pf_network *random_net(uint64_t seed)
{
    uint64_t r = seed * 0x2545F4914F6CDD1Dull + 1;
    static const int64_t caps[] = {1, 3, 10, 1000, (int64_t)1 << 40};
    int64_t n = pf_test_rng_range(&r, 2, 80);
    int64_t m = pf_test_rng_range(&r, 0, n * pf_test_rng_range(&r, 1, 8));
    int64_t cap = caps[pf_test_rng_range(&r, 0, 4)];
    int64_t s = pf_test_rng_range(&r, 0, n - 1), t = pf_test_rng_range(&r, 0, n - 2);
    if (t >= s)
        t++;
    int layered = pf_test_rng_range(&r, 0, 2) == 0;
    pf_status st;
    pf_network *net = pf_network_new(n, s, t, &st);
    ck_assert_ptr_nonnull(net);
    for (int64_t i = 0; i < m; i++) {
        int64_t u = pf_test_rng_range(&r, 0, n - 1), v = pf_test_rng_range(&r, 0, n - 1);
        if (layered && pf_test_rng_range(&r, 0, 3) != 0) /* mostly short forward hops */
            v = (u + pf_test_rng_range(&r, 1, 3)) % n;
        int64_t c = pf_test_rng_range(&r, 0, 9) == 0 ? 0 : pf_test_rng_range(&r, 1, cap);
        ck_assert_int_eq(pf_network_add_arc(net, u, v, c, &st), PF_OK);
    }
    return net;
}

START_TEST(random_small)
{
    int64_t nonzero = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        pf_network *net = random_net(seed);
        nonzero += check_all(net, -1, 1) > 0;
        pf_network_free(net);
    }
    ck_assert(nonzero > 50); /* the generator is not degenerate */
}
END_TEST

/* Larger sparse and grid-like networks: many global relabels and gaps. */
START_TEST(random_larger)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        uint64_t r = seed;
        int64_t side = 20 + 10 * (int64_t)seed, n = side * side + 2;
        pf_status st;
        pf_network *net = pf_network_new(n, n - 2, n - 1, &st);
        ck_assert_ptr_nonnull(net);
        for (int64_t y = 0; y < side; y++) {
            pf_network_add_arc(net, n - 2, y * side, pf_test_rng_range(&r, 1, 100), &st);
            pf_network_add_arc(net, y * side + side - 1, n - 1, pf_test_rng_range(&r, 1, 100), &st);
            for (int64_t x = 0; x < side; x++) {
                int64_t v = y * side + x;
                if (x + 1 < side)
                    pf_network_add_arc(net, v, v + 1, pf_test_rng_range(&r, 0, 60), &st);
                if (x > 0)
                    pf_network_add_arc(net, v, v - 1, pf_test_rng_range(&r, 0, 20), &st);
                if (y + 1 < side)
                    pf_network_add_arc(net, v, v + side, pf_test_rng_range(&r, 0, 40), &st);
                if (y > 0)
                    pf_network_add_arc(net, v, v - side, pf_test_rng_range(&r, 0, 40), &st);
                pf_network_add_arc(net, v, pf_test_rng_range(&r, 0, n - 3), pf_test_rng_range(&r, 0, 5), &st);
            }
        }
        check_all(net, -1, 1);
        pf_network_free(net);
    }
}
END_TEST

/* The generator families the benchmarks use, small: AK (built to be hard
 * for push-relabel), RMFGEN, RLG and the generator's random networks. */
START_TEST(families)
{
    pf_status st;
    for (int64_t k = 2; k <= 30; k += 4) {
        pf_network *net = pf_gen_ak(k, &st);
        ck_assert_msg(net != NULL, "pf_gen_ak: %s", st.message);
        check_all(net, -1, 1);
        pf_network_free(net);
    }
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pf_network *net = pf_gen_rmf(3 + (int64_t)seed, 2 + 2 * (int64_t)seed, 1, 10000, seed, &st);
        ck_assert_msg(net != NULL, "pf_gen_rmf: %s", st.message);
        check_all(net, -1, 1);
        pf_network_free(net);
        net = pf_gen_rlg(4 + 3 * (int64_t)seed, 6 * (int64_t)seed, 10000, seed, &st);
        ck_assert_msg(net != NULL, "pf_gen_rlg: %s", st.message);
        check_all(net, -1, 1);
        pf_network_free(net);
    }
    for (uint64_t seed = 1; seed <= 20; seed++) {
        int64_t n = 2 + (int64_t)(seed * 7 % 50);
        pf_network *net = pf_gen_random(n, 4 * n, seed % 2 ? 100 : ((int64_t)1 << 35), seed, &st);
        ck_assert_msg(net != NULL, "pf_gen_random: %s", st.message);
        check_all(net, -1, 1);
        pf_network_free(net);
    }
}
END_TEST

/* ---- the engine's contract ------------------------------------------------ */

START_TEST(bad_input)
{
    pf_residual g;
    memset(&g, 0, sizeof g);
    g.n = 3;
    g.source = 1;
    g.sink = 1;
    pf_engine_out out;
    memset(&out, 0, sizeof out);
    int64_t res[1];
    out.res = res;
    pf_status st;
    ck_assert_int_eq(pf_seq_solve(&g, NULL, &out, &st), PF_E_INPUT);
    ck_assert_int_eq(bk_whole(&g, NULL, &out, &st), PF_E_INPUT);
}
END_TEST

/* ---- the method ------------------------------------------------------------ */

/* auto takes Boykov-Kolmogorov on a segmentation grid, on seq whatever
 * else the machine has; push-relabel elsewhere; an explicit method wins. */
START_TEST(method_choice)
{
    pf_status st;
    pf_network *grid = pf_gen_grid2d(40, 30, 4, 100, 3, &st);
    ck_assert_ptr_nonnull(grid);
    pf_network *rlg = pf_gen_rlg(8, 10, 1000, 2, &st);
    ck_assert_ptr_nonnull(rlg);
    ck_assert(pf_network_is_segmentation(grid, 1));
    ck_assert(pf_network_is_segmentation(grid, 2));
    ck_assert(!pf_network_is_segmentation(rlg, 1));

    pf_solution sol = solve_with(grid, "auto", PF_METHOD_AUTO, PF_HYBRID_OFF, PF_OK);
    ck_assert_str_eq(sol.backend, "seq");
    ck_assert_str_eq(sol.method, "boykov-kolmogorov");
    int64_t value = sol.value;
    pf_solution_free(&sol);
    sol = solve_with(grid, "seq", PF_METHOD_PUSH_RELABEL, PF_HYBRID_OFF, PF_OK);
    ck_assert_str_eq(sol.method, "push-relabel");
    ck_assert_int_eq(sol.value, value);
    pf_solution_free(&sol);
    sol = solve_with(rlg, "seq", PF_METHOD_AUTO, PF_HYBRID_OFF, PF_OK);
    ck_assert_str_eq(sol.method, "push-relabel");
    pf_solution_free(&sol);
    sol = solve_with(rlg, "auto", PF_METHOD_BOYKOV_KOLMOGOROV, PF_HYBRID_OFF, PF_OK);
    ck_assert_str_eq(sol.backend, "seq");
    ck_assert_str_eq(sol.method, "boykov-kolmogorov");
    pf_solution_free(&sol);

    /* Where it cannot run: a clean usage error. */
    for (int i = 0; i < pf_backend_count(); i++) /* every compiled backend without it */
        if (!pf_backend_at(i)->caps.maxflow_bk)
            solve_with(grid, pf_backend_at(i)->name, PF_METHOD_BOYKOV_KOLMOGOROV, PF_HYBRID_OFF,
                       PF_E_USAGE);
    solve_with(grid, "auto", PF_METHOD_BOYKOV_KOLMOGOROV, PF_HYBRID_ON, PF_E_USAGE);
    solve_with(grid, "seq", 7, PF_HYBRID_OFF, PF_E_USAGE);
    solve_with(grid, "seq", -1, PF_HYBRID_OFF, PF_E_USAGE);
    pf_network_free(grid);
    pf_network_free(rlg);
}
END_TEST

/* A network shaped like a segmentation whose augmenting paths are long:
 * every vertex of a chain gets a unit arc from the source, only the
 * chain's end reaches the sink, so each path walks the rest of the chain
 * (quadratic work). Chosen by its shape, Boykov-Kolmogorov gives up and
 * push-relabel answers; asked for, it runs to the end. Both are right. */
START_TEST(segmentation_give_up)
{
    const int64_t k = 3000, n = k + 2, s = k, t = k + 1;
    pf_status st;
    pf_network *net = pf_network_new(n, s, t, &st);
    ck_assert_ptr_nonnull(net);
    for (int64_t v = 0; v < k; v++) {
        pf_network_add_arc(net, s, v, 1, &st);
        if (v + 1 < k)
            pf_network_add_arc(net, v, v + 1, k, &st);
    }
    pf_network_add_arc(net, k - 1, t, k, &st);
    ck_assert(pf_network_is_segmentation(net, 1));
    pf_solution sol = solve_with(net, "seq", PF_METHOD_AUTO, PF_HYBRID_OFF, PF_OK);
    ck_assert_str_eq(sol.method, "push-relabel");
    ck_assert_int_eq(sol.value, k);
    pf_solution_free(&sol);
    sol = solve_with(net, "seq", PF_METHOD_BOYKOV_KOLMOGOROV, PF_HYBRID_OFF, PF_OK);
    ck_assert_str_eq(sol.method, "boykov-kolmogorov");
    ck_assert_int_eq(sol.value, k);
    pf_solution_free(&sol);
    pf_network_free(net);
}
END_TEST

/* Segmentation-shaped networks of every awkward kind: a vertex with arcs
 * from both terminals (the paths Boykov-Kolmogorov pays before growing),
 * parallel terminal arcs, a direct source-sink arc, zero capacities; both
 * methods give the same value and canonical cut (check_all). */
START_TEST(segmentation_random)
{
    for (uint64_t seed = 1; seed <= 40; seed++) {
        uint64_t r = seed * 0x9E3779B97F4A7C15ull;
        int64_t w = pf_test_rng_range(&r, 1, 12), h = pf_test_rng_range(&r, 1, 12), n = w * h + 2;
        int64_t s = n - 2, t = n - 1;
        pf_status st;
        pf_network *net = pf_network_new(n, s, t, &st);
        ck_assert_ptr_nonnull(net);
        for (int64_t v = 0; v < w * h; v++) {
            int64_t kind = pf_test_rng_range(&r, 0, 4);
            if (kind != 1)
                pf_network_add_arc(net, s, v, pf_test_rng_range(&r, 0, 50), &st);
            if (kind != 0)
                pf_network_add_arc(net, v, t, pf_test_rng_range(&r, 0, 50), &st);
            if (kind == 4)
                pf_network_add_arc(net, s, v, pf_test_rng_range(&r, 1, 9), &st);
            if (v % w + 1 < w) {
                pf_network_add_arc(net, v, v + 1, pf_test_rng_range(&r, 0, 30), &st);
                pf_network_add_arc(net, v + 1, v, pf_test_rng_range(&r, 0, 30), &st);
            }
            if (v + w < w * h) {
                pf_network_add_arc(net, v, v + w, pf_test_rng_range(&r, 0, 30), &st);
                pf_network_add_arc(net, v + w, v, pf_test_rng_range(&r, 0, 30), &st);
            }
        }
        if (seed % 5 == 0)
            pf_network_add_arc(net, s, t, 17, &st);
        check_all(net, -1, 1);
        pf_network_free(net);
    }
}
END_TEST

/* No cut array wanted, no options: the value and the preflow still come. */
START_TEST(no_cut_array)
{
    const arc3 arcs[] = {{0, 1, 16}, {0, 2, 13}, {1, 3, 12}, {2, 1, 4}, {2, 4, 14},
                         {3, 2, 9},  {3, 5, 20}, {4, 3, 7},  {4, 5, 4}};
    pf_network *net = make_net(6, 0, 5, arcs, 9);
    pf_residual g;
    pf_status st;
    ck_assert_int_eq(pf_residual_build(net, &g, PF_ARCS_FORWARD_FIRST, 1, &st), PF_OK);
    pf_engine_out out;
    memset(&out, 0, sizeof out);
    out.res = malloc((size_t)g.arcs * sizeof *out.res);
    ck_assert_int_eq(pf_seq_solve(&g, NULL, &out, &st), PF_OK);
    ck_assert_int_eq(out.value, 23);
    ck_assert_int_ge(out.rounds, 1);
    free(out.res);
    pf_residual_free(&g);
    pf_network_free(net);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("seq");
    TCase *known = tcase_create("known");
    tcase_add_test(known, clrs);
    tcase_add_test(known, path);
    tcase_add_test(known, diamond);
    tcase_add_test(known, disjoint_paths);
    tcase_add_test(known, chain);
    tcase_add_test(known, ak_like);
    suite_add_tcase(s, known);

    TCase *awkward = tcase_create("awkward");
    tcase_add_test(awkward, parallel_and_loops);
    tcase_add_test(awkward, zero_capacities);
    tcase_add_test(awkward, huge_capacities);
    tcase_add_test(awkward, source_overflow);
    tcase_add_test(awkward, unreachable_sink);
    tcase_add_test(awkward, arcs_into_source_out_of_sink);
    tcase_add_test(awkward, isolated_and_tiny);
    tcase_add_test(awkward, bad_input);
    tcase_add_test(awkward, no_cut_array);
    suite_add_tcase(s, awkward);

    TCase *random = tcase_create("random");
    tcase_set_timeout(random, 240);
    tcase_add_test(random, random_small);
    tcase_add_test(random, random_larger);
    tcase_add_test(random, families);
    tcase_add_test(random, segmentation_random);
    tcase_add_test(random, method_choice);
    tcase_add_test(random, segmentation_give_up);
    suite_add_tcase(s, random);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
