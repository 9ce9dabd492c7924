/* pf_apsp end to end, for the backend named on the command line (seq,
 * omp, opencl, cuda): random graphs against a plain triple loop, every
 * distance kind, next hops, negative cycles, overflow rules, and the
 * independent checker (pf_apsp_verify) accepting good and rejecting
 * corrupted results. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "common/wgraph.h"
#include "host/apsp.h"
#include "host/registry.h"
#include "support.h"

static const char *backend;
#define NO_PATH INT64_MAX

static pf_apsp_options options(int kind, int paths)
{
    pf_apsp_options opt;
    pf_apsp_options_init(&opt);
    opt.backend = backend;
    opt.kind = kind;
    opt.want_paths = paths;
    return opt;
}

/* Weights w(u,v) = c + p(u) - p(v), c >= 0: negative weights, no negative
 * cycle. `reach_gap` > 0 leaves vertices >= n - reach_gap without in-arcs
 * from the rest (unreachable parts). */
static pf_wgraph *random_graph(int64_t n, int64_t arcs, int negative, int64_t reach_gap,
                               uint64_t seed)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(n, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    pf_rng rng;
    pf_rng_seed(&rng, seed);
    int64_t *p = calloc((size_t)n, sizeof *p);
    for (int64_t v = 0; negative && v < n; v++)
        p[v] = pf_rng_range(&rng, 0, 40);
    int64_t cut = n - reach_gap;
    for (int64_t a = 0; a < arcs && n > 1; a++) {
        int64_t u = pf_rng_range(&rng, 0, n - 1), v = pf_rng_range(&rng, 0, n - 1);
        if (u == v || (u < cut && v >= cut))
            continue;
        int64_t w = pf_rng_range(&rng, 0, 60) + p[u] - p[v];
        ck_assert_int_eq(pf_wgraph_add_arc(g, u, v, w, &st), PF_OK);
    }
    free(p);
    return g;
}

static int64_t *reference(const pf_wgraph *g)
{
    int64_t n = g->n;
    int64_t *d = malloc((size_t)(n * n) * sizeof *d);
    for (int64_t at = 0; at < n * n; at++)
        d[at] = at % (n + 1) == 0 ? 0 : NO_PATH;
    for (int64_t a = 0; a < g->m; a++) {
        int64_t at = (int64_t)g->tail[a] * n + g->head[a];
        if (g->int_weight[a] < d[at])
            d[at] = g->int_weight[a];
    }
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++) {
            int64_t dik = d[i * n + k];
            for (int64_t j = 0; j < n && dik != NO_PATH; j++) {
                int64_t dkj = d[k * n + j];
                if (dkj != NO_PATH && dik + dkj < d[i * n + j])
                    d[i * n + j] = dik + dkj;
            }
        }
    return d;
}

static int64_t result_at(const pf_apsp_result *res, int64_t at)
{
    switch (res->kind) {
    case PF_DIST_I32: {
        int32_t v = ((const int32_t *)res->dist)[at];
        return v == PF_APSP_NONE_I32 ? NO_PATH : v;
    }
    case PF_DIST_I64: {
        int64_t v = ((const int64_t *)res->dist)[at];
        return v == PF_APSP_NONE_I64 ? NO_PATH : v;
    }
    default: {
        float v = ((const float *)res->dist)[at];
        return isinf(v) ? NO_PATH : (int64_t)v;
    }
    }
}

typedef struct graph_case {
    int64_t n, arcs;
    int negative;
    int64_t reach_gap;
} graph_case;

static const graph_case cases[] = {
    {1, 0, 0, 0},     {2, 1, 0, 0},     {7, 30, 1, 2},     {63, 400, 1, 0},
    {64, 4000, 0, 5}, {65, 300, 1, 9},  {130, 16000, 1, 0}, {203, 900, 1, 40},
    {257, 3000, 0, 0},
};
enum { CASES = sizeof cases / sizeof *cases };
static const int kinds[] = {PF_DIST_AUTO, PF_DIST_I64, PF_DIST_F32};

START_TEST(matches_triple_loop)
{
    const graph_case *c = &cases[_i % CASES];
    int kind = kinds[(_i / CASES) % 3], paths = (_i / CASES / 3) % 2;
    pf_wgraph *g = random_graph(c->n, c->arcs, c->negative, c->reach_gap, 77u + (uint64_t)_i);
    int64_t *want = reference(g);
    pf_apsp_options opt = options(kind, paths);
    pf_apsp_result res;
    pf_status st;
    int rc = pf_apsp(g, &opt, &res, &st);
    PF_EXPECT(rc == PF_OK, "n=%lld: %s", (long long)c->n, st.message);
    ck_assert_int_eq(res.kind, kind == PF_DIST_AUTO ? PF_DIST_I32 : kind);
    /* Hops that loop on a zero-weight cycle are rebuilt from the
     * distances on the host (apsp.c): the backend stays. */
    ck_assert_str_eq(res.backend, backend);
    for (int64_t at = 0; at < c->n * c->n; at++)
        PF_EXPECT(result_at(&res, at) == want[at], "n=%lld kind %d: d(%lld,%lld) = %lld, want %lld",
                  (long long)c->n, res.kind, (long long)(at / c->n + 1),
                  (long long)(at % c->n + 1), (long long)result_at(&res, at),
                  (long long)want[at]);
    int64_t checked = 0;
    rc = pf_apsp_verify(g, &res, 0, &checked, &st);
    PF_EXPECT(rc == PF_OK, "verify: %s", st.message);
    ck_assert_int_eq(checked, c->n);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    free(want);
}
END_TEST

/* The study's variants (--variant, --simd-width): each one the backend
 * runs gives the triple loop's distances and next hops the checker
 * accepts; each one it does not run is refused as a usage error. */
typedef struct variant_case {
    int variant, simd_width;
    const char *label; /* how pf_apsp_result.variant starts */
} variant_case;

static const variant_case variant_cases[] = {
    {PF_FW_BLOCKED, 0, "blocked"}, {PF_FW_PLAIN, 0, "plain"}, {PF_FW_SIMD, 0, ""},
    {PF_FW_SIMD, 8, ""},           {PF_FW_SIMD, 16, ""},      {PF_FW_PER_K, 0, "per-k"},
};
enum { VARIANT_CASES = sizeof variant_cases / sizeof *variant_cases };
static const graph_case variant_graphs[] = {{65, 300, 1, 9}, {203, 1500, 1, 40}};

START_TEST(every_variant)
{
    const variant_case *vc = &variant_cases[_i % VARIANT_CASES];
    int rest = _i / VARIANT_CASES;
    int kind = kinds[rest % 3], paths = rest / 3 % 2;
    const graph_case *c = &variant_graphs[rest / 6 % 2];
    pf_wgraph *g = random_graph(c->n, c->arcs, c->negative, c->reach_gap, 500u + (uint64_t)_i);
    pf_apsp_options opt = options(kind, paths);
    opt.variant = vc->variant;
    opt.simd_width = vc->simd_width;
    pf_apsp_result res;
    pf_status st;
    int rc = pf_apsp(g, &opt, &res, &st);
    if (!pf_apsp_backend_runs(backend, vc->variant)) {
        PF_EXPECT(rc == PF_E_USAGE && strstr(st.message, "does not run on backend"),
                  "%s on %s: rc %d (%s), expected a usage error",
                  pf_apsp_variant_name(vc->variant), backend, rc, rc ? st.message : "ok");
        pf_apsp_result_free(&res);
        pf_wgraph_free(g);
        return;
    }
    PF_EXPECT(rc == PF_OK, "%s: %s", pf_apsp_variant_name(vc->variant), st.message);
    if (!(kind == PF_DIST_F32 && paths && !strcmp(res.backend, "seq")))
        ck_assert_str_eq(res.backend, backend);
    if (vc->variant == PF_FW_SIMD)
        PF_EXPECT(!strncmp(res.variant, "simd: ", 6) || !strncmp(res.variant, "plain (simd", 11),
                  "simd ran as '%s'", res.variant);
    else
        PF_EXPECT(!strcmp(res.variant, vc->label) ||
                      (kind == PF_DIST_F32 && paths && !strcmp(res.variant, "plain")),
                  "%s ran as '%s'", vc->label, res.variant);
    int64_t *want = reference(g);
    for (int64_t at = 0; at < c->n * c->n; at++)
        PF_EXPECT(result_at(&res, at) == want[at], "%s n=%lld kind %d: d(%lld,%lld) = %lld, want %lld",
                  res.variant, (long long)c->n, res.kind, (long long)(at / c->n + 1),
                  (long long)(at % c->n + 1), (long long)result_at(&res, at),
                  (long long)want[at]);
    int64_t checked = 0;
    rc = pf_apsp_verify(g, &res, 0, &checked, &st);
    PF_EXPECT(rc == PF_OK, "verify %s: %s", res.variant, st.message);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    free(want);
}
END_TEST

/* Options that contradict the variant are refused before any work. */
START_TEST(variant_options_checked)
{
    pf_apsp_options opt = options(PF_DIST_AUTO, 0);
    pf_status st;
    opt.variant = PF_FW_PLAIN;
    opt.tile = 64;
    ck_assert_int_eq(pf_apsp_variant_check(backend, &opt, &st), PF_E_USAGE);
    ck_assert_ptr_nonnull(strstr(st.message, "--tile"));
    opt.tile = 0;
    opt.variant = PF_FW_BLOCKED;
    opt.simd_width = 8;
    ck_assert_int_eq(pf_apsp_variant_check(backend, &opt, &st), PF_E_USAGE);
    ck_assert_ptr_nonnull(strstr(st.message, "--simd-width"));
    opt.variant = PF_FW_SIMD;
    opt.simd_width = 12;
    ck_assert_int_eq(pf_apsp_variant_check(backend, &opt, &st), PF_E_USAGE);
    opt.simd_width = 0;
    opt.variant = PF_FW_VARIANTS;
    ck_assert_int_eq(pf_apsp_variant_check(backend, &opt, &st), PF_E_USAGE);
    for (int v = 0; v < PF_FW_VARIANTS; v++)
        ck_assert_int_eq(pf_apsp_variant_parse(pf_apsp_variant_name(v)), v);
    ck_assert_int_eq(pf_apsp_variant_parse("vec16"), -1);
}
END_TEST

/* A negative cycle hidden in a larger graph: reported with its vertices,
 * which must form a real cycle of negative weight. */
START_TEST(negative_cycle_found)
{
    pf_wgraph *g = random_graph(90, 700, 1, 0, 5u + (uint64_t)_i);
    pf_status st;
    int64_t a = 10 + _i, b = 40, c = 70;
    pf_wgraph_add_arc(g, a, b, -100, &st);
    pf_wgraph_add_arc(g, b, c, 30, &st);
    pf_wgraph_add_arc(g, c, a, 20, &st);
    pf_apsp_options opt = options(PF_DIST_AUTO, 0);
    pf_apsp_result res;
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_E_INPUT);
    ck_assert_msg(strstr(st.message, "negative cycle") != NULL, "%s", st.message);
    ck_assert_int_gt(res.cycle_len, 0);
    int64_t weight = 0;
    for (int64_t k = 0; k < res.cycle_len; k++) {
        int32_t u = res.cycle[k], v = res.cycle[(k + 1) % res.cycle_len];
        int64_t lightest = NO_PATH;
        for (int64_t e = 0; e < g->m; e++)
            if (g->tail[e] == u && g->head[e] == v && g->int_weight[e] < lightest)
                lightest = g->int_weight[e];
        PF_EXPECT(lightest != NO_PATH, "cycle step %d->%d is no arc", u + 1, v + 1);
        weight += lightest;
    }
    ck_assert_int_lt(weight, 0);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

START_TEST(negative_self_loop)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(4, &st);
    pf_wgraph_add_arc(g, 0, 1, 3, &st);
    pf_wgraph_add_arc(g, 2, 2, -1, &st);
    pf_apsp_options opt = options(PF_DIST_AUTO, 0);
    pf_apsp_result res;
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_E_INPUT);
    ck_assert_int_eq(res.cycle_len, 1);
    ck_assert_int_eq(res.cycle[0], 2);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* Weights whose paths could pass 2^29 need int64; forcing int32 is
 * refused, and weights that could overflow int64 are refused outright. */
START_TEST(kind_follows_the_weights)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(10, &st);
    for (int v = 0; v + 1 < 10; v++)
        pf_wgraph_add_arc(g, v, v + 1, 100000000, &st);
    pf_apsp_options opt = options(PF_DIST_AUTO, 0);
    pf_apsp_result res;
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_OK);
    ck_assert_int_eq(res.kind, PF_DIST_I64);
    ck_assert_int_eq(((int64_t *)res.dist)[9], 900000000);
    ck_assert_int_eq(((int64_t *)res.dist)[9 * 10], PF_APSP_NONE_I64);
    pf_apsp_result_free(&res);
    opt.kind = PF_DIST_I32;
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_E_USAGE);
    pf_wgraph_free(g);

    g = pf_wgraph_new(3, &st);
    pf_wgraph_add_arc(g, 0, 1, (int64_t)1 << 62, &st);
    opt.kind = PF_DIST_AUTO;
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_E_INPUT);
    pf_wgraph_free(g);
}
END_TEST

/* Real weights run in float32; compare with a double triple loop. */
START_TEST(real_weights)
{
    pf_status st;
    int64_t n = 70;
    pf_wgraph *g = pf_wgraph_new(n, &st);
    pf_rng rng;
    pf_rng_seed(&rng, 99);
    double *d = malloc((size_t)(n * n) * sizeof *d);
    for (int64_t at = 0; at < n * n; at++)
        d[at] = at % (n + 1) == 0 ? 0 : INFINITY;
    for (int a = 0; a < 900; a++) {
        int64_t u = pf_rng_range(&rng, 0, n - 1), v = pf_rng_range(&rng, 0, n - 1);
        double w = (double)pf_rng_range(&rng, 1, 100000) / 1000.0 + 0.125;
        if (u == v)
            continue;
        pf_wgraph_add_arc_real(g, u, v, w, &st);
        d[u * n + v] = fmin(d[u * n + v], w);
    }
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                d[i * n + j] = fmin(d[i * n + j], d[i * n + k] + d[k * n + j]);
    pf_apsp_options opt = options(PF_DIST_AUTO, 1);
    pf_apsp_result res;
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_OK);
    ck_assert_int_eq(res.kind, PF_DIST_F32);
    for (int64_t at = 0; at < n * n; at++) {
        float got = ((float *)res.dist)[at];
        PF_EXPECT(isinf(d[at]) ? isinf(got) : fabs(got - d[at]) <= 1e-5 * d[at] + 1e-6,
                  "d(%lld,%lld) = %g, want %g", (long long)(at / n), (long long)(at % n),
                  (double)got, d[at]);
    }
    int64_t checked;
    ck_assert_msg(pf_apsp_verify(g, &res, 0, &checked, &st) == PF_OK, "%s", st.message);
    opt.kind = PF_DIST_I32;
    pf_apsp_result_free(&res);
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_E_USAGE);
    pf_wgraph_free(g);
    free(d);
}
END_TEST

/* The checker rejects a distance that is too small, one too large, a
 * missing path, and a next hop that does not start a shortest path. */
START_TEST(verify_rejects_corruption)
{
    pf_wgraph *g = random_graph(50, 600, 1, 5, 31);
    pf_apsp_options opt = options(PF_DIST_AUTO, 1);
    pf_apsp_result res;
    pf_status st;
    ck_assert_int_eq(pf_apsp(g, &opt, &res, &st), PF_OK);
    int32_t *dist = res.dist;
    int64_t n = 50, checked;
    int64_t at = 3 * n + 17;
    ck_assert_int_ne(dist[at], PF_APSP_NONE_I32);
    int32_t keep = dist[at];
    int32_t corruptions[] = {keep - 1, keep + 1, PF_APSP_NONE_I32};
    for (int k = 0; k < 3; k++) {
        dist[at] = corruptions[k];
        ck_assert_int_eq(pf_apsp_verify(g, &res, 0, &checked, &st), PF_E_VERIFY);
    }
    dist[at] = keep;
    ck_assert_int_eq(pf_apsp_verify(g, &res, 0, &checked, &st), PF_OK);
    /* A hop with no arc from vertex 4 to it cannot start any path. */
    int32_t stray = 0;
    for (int found = 1; found && stray < n; stray += found) {
        found = 0;
        for (int64_t e = 0; e < g->m; e++)
            found |= g->tail[e] == 3 && g->head[e] == stray;
    }
    ck_assert_int_lt(stray, n);
    res.next[at] = stray;
    ck_assert_int_eq(pf_apsp_verify(g, &res, 0, &checked, &st), PF_E_VERIFY);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* Zero-weight cycles everywhere (arcs both ways, weight 0) with next hops:
 * the hops must still end at their targets, for integer and real weights. */
START_TEST(next_hops_on_zero_cycles)
{
    int real = _i;
    pf_status st;
    int64_t n = 150;
    pf_wgraph *g = pf_wgraph_new(n, &st);
    pf_rng rng;
    pf_rng_seed(&rng, 4242);
    for (int a = 0; a < 700; a++) {
        int64_t u = pf_rng_range(&rng, 0, n - 1), v = pf_rng_range(&rng, 0, n - 1);
        int64_t w = pf_rng_range(&rng, 0, 3) == 0 ? pf_rng_range(&rng, 1, 9) : 0;
        if (real) {
            pf_wgraph_add_arc_real(g, u, v, (double)w + (w ? 0.5 : 0.0), &st);
            pf_wgraph_add_arc_real(g, v, u, w ? 1.25 : 0.0, &st);
        } else {
            pf_wgraph_add_arc(g, u, v, w, &st);
            pf_wgraph_add_arc(g, v, u, w ? 2 : 0, &st);
        }
    }
    pf_apsp_options opt = options(PF_DIST_AUTO, 1);
    opt.tile = 64; /* several rounds (every backend runs 64): loops need a later k of a tile */
    pf_apsp_result res;
    ck_assert_msg(pf_apsp(g, &opt, &res, &st) == PF_OK, "%s", st.message);
    /* Integers never loop (their ties are broken by arc count); reals may,
     * and get hops rebuilt from the distances on the same backend. */
    ck_assert_str_eq(res.backend, backend);
    int64_t checked;
    ck_assert_msg(pf_apsp_verify(g, &res, 0, &checked, &st) == PF_OK, "%s", st.message);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* A zero-weight cycle 0 -> 2 -> 0 beside 1 -> 0 of weight `back`, solved
 * with next hops on the backend under test and checked. */
static void solve_zero_cycle_graph(double back, pf_wgraph **g, pf_apsp_result *res)
{
    const double arcs[][3] = {{0, 1, 1.6}, {0, 2, -2}, {1, 0, back}, {1, 1, 2},
                              {1, 2, 1.5}, {2, 0, 2},  {2, 1, 150}};
    pf_status st;
    *g = pf_wgraph_new(3, &st);
    for (size_t a = 0; a < sizeof arcs / sizeof *arcs; a++)
        ck_assert_int_eq(pf_wgraph_add_arc_real(*g, (int64_t)arcs[a][0], (int64_t)arcs[a][1],
                                                arcs[a][2], &st),
                         PF_OK);
    pf_apsp_options opt = options(PF_DIST_AUTO, 1);
    ck_assert_msg(pf_apsp(*g, &opt, res, &st) == PF_OK, "%s", st.message);
    ck_assert_str_eq(res->backend, backend);
    int64_t checked;
    ck_assert_msg(pf_apsp_verify(*g, res, 0, &checked, &st) == PF_OK, "%s", st.message);
}

/* Found by fuzz_apsp_omp (back = -0.7): Bellman-Ford in doubles lowered
 * d(0) and d(2) by an ulp each time round the zero-weight cycle, closed it
 * in its parent graph and reported it as a negative cycle of weight 0.
 * There is none: the answer is the distances. */
START_TEST(zero_cycle_is_no_negative_cycle)
{
    pf_wgraph *g;
    pf_apsp_result res;
    solve_zero_cycle_graph(-0.7, &g, &res);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* Found by fuzz_apsp_seq (back = -0.5): float32 rounding makes the detour
 * 0 -> 2 -> 0 -> 1 (-2 + 3.5999999) look shorter than the arc 0 -> 1
 * (1.6): plain Floyd-Warshall's hops from 0 toward 1 then loop 0 -> 2 ->
 * 0. Every backend must give hops that reach 1. */
START_TEST(rounding_round_a_zero_cycle)
{
    pf_wgraph *g;
    pf_apsp_result res;
    solve_zero_cycle_graph(-0.5, &g, &res);
    ck_assert_int_eq(res.next[0 * 3 + 1], 1); /* the arc itself, not the detour */
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* A positive self-loop never shortens a path: one of 2^32 - 2 (past int32)
 * must neither wrap negative in the int32 matrix nor, with next hops,
 * overflow the tie-breaking scale (issue 23, defect 2). */
START_TEST(huge_positive_self_loop)
{
    int paths = _i;
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(3, &st);
    pf_wgraph_add_arc(g, 0, 1, 1, &st);
    pf_wgraph_add_arc(g, 1, 1, 4294967294, &st);
    pf_wgraph_add_arc(g, 1, 2, 1, &st);
    pf_apsp_options opt = options(PF_DIST_AUTO, paths);
    pf_apsp_result res;
    ck_assert_msg(pf_apsp(g, &opt, &res, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(res.kind, PF_DIST_I32);
    const int64_t want[9] = {0, 1, 2, NO_PATH, 0, 1, NO_PATH, NO_PATH, 0};
    for (int64_t at = 0; at < 9; at++)
        PF_EXPECT(result_at(&res, at) == want[at], "paths %d: d(%lld,%lld) = %lld, want %lld",
                  paths, (long long)(at / 3 + 1), (long long)(at % 3 + 1),
                  (long long)result_at(&res, at), (long long)want[at]);
    if (paths) {
        const int32_t want_next[9] = {0, 1, 1, -1, 1, 2, -1, -1, 2};
        for (int64_t at = 0; at < 9; at++)
            PF_EXPECT(res.next[at] == want_next[at], "next(%lld,%lld) = %d, want %d",
                      (long long)(at / 3 + 1), (long long)(at % 3 + 1), res.next[at],
                      want_next[at]);
    }
    int64_t checked;
    ck_assert_msg(pf_apsp_verify(g, &res, 0, &checked, &st) == PF_OK, "%s", st.message);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);

    g = pf_wgraph_new(1, &st);
    pf_wgraph_add_arc(g, 0, 0, 3000000000, &st);
    ck_assert_msg(pf_apsp(g, &opt, &res, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(result_at(&res, 0), 0);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* Past 2^53 a double cannot tell neighbouring integers apart: the checker
 * must accept the exact int64 answer and reject one that is off by one
 * (issue 23, defect 3). */
START_TEST(verify_exact_past_2_53)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(3, &st);
    pf_wgraph_add_arc(g, 0, 1, 9007199254740993, &st);
    pf_wgraph_add_arc(g, 1, 2, 1, &st);
    pf_apsp_options opt = options(PF_DIST_AUTO, _i);
    pf_apsp_result res;
    ck_assert_msg(pf_apsp(g, &opt, &res, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(res.kind, PF_DIST_I64);
    int64_t *dist = res.dist, checked;
    ck_assert_int_eq(dist[2], 9007199254740994);
    ck_assert_msg(pf_apsp_verify(g, &res, 0, &checked, &st) == PF_OK, "%s", st.message);
    const int64_t wrong[] = {9007199254740993, 9007199254740995};
    for (int k = 0; k < 2; k++) {
        dist[2] = wrong[k];
        ck_assert_int_eq(pf_apsp_verify(g, &res, 0, &checked, &st), PF_E_VERIFY);
    }
    dist[2] = 9007199254740994;
    dist[1] = 9007199254740992;
    ck_assert_int_eq(pf_apsp_verify(g, &res, 0, &checked, &st), PF_E_VERIFY);
    /* The message prints both sides in full, not as two equal "%g". */
    ck_assert_msg(strstr(st.message, "gives 9007199254740993, but d(1,3) is 9007199254740994"),
                  "%s", st.message);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
}
END_TEST

/* The Floyd-Warshall study's 4-vertex example (adjacency-matrix text). */
static const char study_graph[] = "4\n0 inf -2 inf\n4 0 3 inf\ninf inf 0 2\ninf -1 inf 0\n";

/* ---- early open and rows streamed to a sink ----------------------------- */

typedef struct sink_log {
    int64_t next_row; /* rows must come in order, each once */
    int calls;
    int64_t *copy;    /* the rows as the sink saw them */
} sink_log;

static int log_rows(void *ctx, const pf_apsp_result *res, int64_t first, int64_t count,
                    pf_status *st)
{
    (void)st;
    sink_log *log = ctx;
    ck_assert_int_eq(first, log->next_row);
    ck_assert_int_ge(count, 1);
    for (int64_t at = first * res->n; at < (first + count) * res->n; at++)
        log->copy[at] = result_at(res, at);
    log->next_row = first + count;
    log->calls++;
    return PF_OK;
}

/* pf_apsp_with on an early-opened device: the sink sees every row once, in
 * order, with the final distances; without next hops a device backend
 * streams them in several blocks, with them (or on seq) all at once. */
START_TEST(rows_stream_to_sink)
{
    int paths = _i % 2, kind = kinds[_i / 2 % 3];
    pf_wgraph *g = random_graph(203, 1500, 1, 40, 900u + (uint64_t)_i);
    int64_t n = g->n, *want = reference(g);
    pf_apsp_options opt = options(kind, paths);
    sink_log log = {.copy = malloc((size_t)(n * n) * sizeof *log.copy)};
    pf_apsp_sink sink = {.rows = log_rows, .ctx = &log};
    pf_apsp_early *early = pf_apsp_open_early(&opt);
    ck_assert_ptr_nonnull(early);
    pf_apsp_result res;
    pf_status st;
    int rc = pf_apsp_with(g, &opt, early, &sink, &res, &st);
    pf_apsp_early_free(early);
    PF_EXPECT(rc == PF_OK, "%s", st.message);
    ck_assert_int_eq(log.next_row, n);
    if (!paths && strcmp(backend, "seq") != 0)
        PF_EXPECT(log.calls > 1, "%d sink calls: the rows did not stream", log.calls);
    else
        ck_assert_int_eq(log.calls, 1);
    for (int64_t at = 0; at < n * n; at++) {
        PF_EXPECT(log.copy[at] == want[at] && result_at(&res, at) == want[at],
                  "d(%lld,%lld): sink %lld, result %lld, want %lld", (long long)(at / n + 1),
                  (long long)(at % n + 1), (long long)log.copy[at],
                  (long long)result_at(&res, at), (long long)want[at]);
    }
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    free(want);
    free(log.copy);
}
END_TEST

/* `apsp --out FILE` is written while the rows download: a run that fails
 * (here a negative cycle) leaves the old file as it was, one that works
 * replaces it whole. */
START_TEST(apsp_out_file_whole_or_none)
{
    char out_path[4096];
    snprintf(out_path, sizeof out_path, "%s", pf_test_tmpfile("old\n"));
    const char *cycle = pf_test_tmpfile("2\n0 1\n-3 0\n");
    const char *failing[] = {"apsp", "--backend", backend, "--out", out_path, cycle, NULL};
    char *out, *err;
    int rc = pf_test_run_cli(failing, NULL, &out, &err);
    char *old = pf_test_read_file(out_path);
    PF_EXPECT(rc == 2 && out[0] == '\0' && old && !strcmp(old, "old\n"),
              "exit %d, stdout '%s', file '%s'", rc, out, old ? old : "(gone)");
    free(old);
    free(out);
    free(err);
    const char *graph = pf_test_tmpfile(study_graph);
    const char *working[] = {"apsp", "--backend", backend, "--stats", "--out", out_path, graph,
                             NULL};
    rc = pf_test_run_cli(working, NULL, &out, &err);
    PF_EXPECT(rc == 0, "exit %d: %s", rc, err);
    ck_assert_ptr_nonnull(strstr(out, "s reachable_pairs 12\ns diameter 5\ns checksum 18\n"));
    char *rows = pf_test_read_file(out_path);
    ck_assert_str_eq(rows, "0 -1 -2 0\n4 0 2 4\n5 1 0 2\n3 -1 1 0\n");
    free(rows);
    free(out);
    free(err);
}
END_TEST

/* ---- portaflow path -------------------------------------------------- */


static int run_path(const char *graph, const char *pairs, int json, char **out, char **err)
{
    const char *graph_file = pf_test_tmpfile(graph);
    char graph_path[4096];
    snprintf(graph_path, sizeof graph_path, "%s", graph_file);
    const char *pairs_file = pf_test_tmpfile(pairs);
    const char *args[] = {"path", "--backend", backend, graph_path, json ? "--json" : "-", NULL};
    return pf_test_run_cli(args, pairs_file, out, err);
}

START_TEST(path_study_example)
{
    char *out, *err;
    int rc = run_path(study_graph, "1 2\n# a comment\n\n3 1\n2 2\n", 0, &out, &err);
    PF_EXPECT(rc == 0, "exit %d: %s", rc, err);
    ck_assert_str_eq(out, "path 1 3 4 2\nc -2 + 2 + -1 = -1\ncost -1\n"
                          "path 3 4 2 1\nc 2 + -1 + 4 = 5\ncost 5\n"
                          "path 2\nc 0 = 0\ncost 0\n");
    free(out);
    free(err);
}
END_TEST

START_TEST(path_json_and_no_path)
{
    char *out, *err;
    /* Vertex 3 reaches nobody; nothing reaches it. */
    const char *graph = "3\n0 1.5 inf\n2.25 0 inf\ninf inf 0\n";
    const char *pairs_file = pf_test_tmpfile("1 2\n1 3\n");
    char pairs_path[4096];
    snprintf(pairs_path, sizeof pairs_path, "%s", pairs_file);
    const char *graph_file = pf_test_tmpfile(graph);
    const char *args[] = {"path", "--backend", backend, "--json", graph_file, pairs_path, NULL};
    int rc = pf_test_run_cli(args, NULL, &out, &err);
    PF_EXPECT(rc == 0, "exit %d: %s", rc, err);
    ck_assert_ptr_nonnull(strstr(out, "{\"from\": 1, \"to\": 2, \"path\": [1, 2], \"arcs\": [1.5], "
                                      "\"cost\": 1.5},\n"));
    ck_assert_ptr_nonnull(strstr(out, "{\"from\": 1, \"to\": 3, \"path\": null, \"arcs\": null, "
                                      "\"cost\": null}\n]}\n"));
    free(out);
    free(err);
    rc = run_path(graph, "3 1\n", 0, &out, &err);
    PF_EXPECT(rc == 0, "exit %d: %s", rc, err);
    ck_assert_str_eq(out, "no path\n");
    free(out);
    free(err);
}
END_TEST

/* Bad pairs and negative cycles: the documented exit status, a message
 * naming the line or the cycle, and nothing on stdout. */
START_TEST(path_refuses_bad_input)
{
    static const struct {
        const char *graph, *pairs, *message;
    } cases[] = {
        {study_graph, "1 2\n1 5\n", ":2: expected a pair 'U V' of vertices in 1..4"},
        {study_graph, "1\n", ":1: expected a pair"},
        {study_graph, "1 2 3\n", ":1: unexpected text after the pair"},
        {study_graph, "0 2\n", ":1: expected a pair"},
        {"2\n0 1\n-3 0\n", "1 2\n", "negative cycle"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char *out, *err;
        int rc = run_path(cases[c].graph, cases[c].pairs, 0, &out, &err);
        PF_EXPECT(rc == 2 && strstr(err, cases[c].message) && out[0] == '\0',
                  "case %zu: exit %d, stdout '%s', stderr '%s'", c, rc, out, err);
        free(out);
        free(err);
    }
}
END_TEST

int main(int argc, char **argv)
{
    backend = argc > 1 ? argv[1] : "seq";
    if (pf_test_backend_missing(backend))
        return PF_TEST_SKIP;
    Suite *s = suite_create(backend);
    TCase *tc = tcase_create("apsp");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, matches_triple_loop, 0, CASES * 3 * 2);
    tcase_add_loop_test(tc, negative_cycle_found, 0, 3);
    tcase_add_test(tc, negative_self_loop);
    tcase_add_test(tc, kind_follows_the_weights);
    tcase_add_test(tc, real_weights);
    tcase_add_test(tc, verify_rejects_corruption);
    tcase_add_loop_test(tc, next_hops_on_zero_cycles, 0, 2);
    tcase_add_test(tc, rounding_round_a_zero_cycle);
    tcase_add_test(tc, zero_cycle_is_no_negative_cycle);
    tcase_add_loop_test(tc, huge_positive_self_loop, 0, 2);
    tcase_add_loop_test(tc, verify_exact_past_2_53, 0, 2);
    tcase_add_loop_test(tc, every_variant, 0, VARIANT_CASES * 3 * 2 * 2);
    tcase_add_test(tc, variant_options_checked);
    tcase_add_loop_test(tc, rows_stream_to_sink, 0, 6);
    tcase_add_test(tc, apsp_out_file_whole_or_none);
    tcase_add_test(tc, path_study_example);
    tcase_add_test(tc, path_json_and_no_path);
    tcase_add_test(tc, path_refuses_bad_input);
    suite_add_tcase(s, tc);
    return pf_test_run_in_process(s);
}
