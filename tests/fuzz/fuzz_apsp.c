/* libFuzzer target: read a weighted digraph (DIMACS sp, Matrix Market or
 * matrix text), compute all-pairs shortest paths with next hops on one
 * engine (FUZZ_BACKEND, "seq" or "omp", set by the build) and check the
 * answer: distances and next hops must pass pf_apsp_verify, a negative
 * cycle reported must be a cycle of arcs whose weight is negative, and an
 * engine other than seq must give seq's integer distances exactly. Graphs
 * are capped so that an iteration stays fast. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_support.h"
#include "wgraph.h"

#ifndef FUZZ_BACKEND
#error "FUZZ_BACKEND names the engine under test"
#endif

#define APSP_MAX_VERTICES 24
#define APSP_MAX_ARCS 256
/* The lightest arc u -> v, as a double (reals) or exactly; 0 = no arc. */
static int lightest_arc(const pf_wgraph *g, int32_t u, int32_t v, double *real, __int128 *integer)
{
    int found = 0;
    for (int64_t a = 0; a < g->m; a++) {
        if (g->tail[a] != u || g->head[a] != v)
            continue;
        double r = g->real_weight ? g->real_weight[a] : 0;
        int64_t w = g->int_weight ? g->int_weight[a] : 0;
        if (!found || (g->real_weight ? r < *real : w < *integer)) {
            *real = r;
            *integer = w;
        }
        found = 1;
    }
    return found;
}

static void check_cycle(const pf_wgraph *g, const pf_apsp_result *res)
{
    double real_sum = 0;
    __int128 int_sum = 0;
    for (int64_t i = 0; i < res->cycle_len; i++) {
        int32_t u = res->cycle[i], v = res->cycle[(i + 1) % res->cycle_len];
        double real;
        __int128 integer;
        if (u < 0 || u >= g->n || v < 0 || v >= g->n || !lightest_arc(g, u, v, &real, &integer))
            fuzz_fail("pf_apsp", "the negative cycle reported is not a cycle of arcs");
        real_sum += real;
        int_sum += integer;
    }
    if (g->real_weight ? !(real_sum < 0) : int_sum >= 0)
        fuzz_fail("pf_apsp", "the negative cycle reported does not weigh less than 0");
}

static int run_apsp(const pf_wgraph *g, const char *backend, pf_apsp_result *res)
{
    pf_apsp_options opt;
    pf_apsp_options_init(&opt);
    opt.backend = backend;
    opt.threads = 2;
    opt.want_paths = 1;
    pf_status st;
    int rc = pf_apsp(g, &opt, res, &st);
    if (rc == PF_E_INPUT) {
        if (res->cycle_len > 0)
            check_cycle(g, res);
        return rc;
    }
    fuzz_expect_ok(rc, "pf_apsp", &st);
    int64_t checked = 0;
    fuzz_expect_ok(pf_apsp_verify(g, res, 0, &checked, &st), "pf_apsp_verify", &st);
    return PF_OK;
}

static void compare_with_seq(const pf_wgraph *g, const pf_apsp_result *res)
{
    pf_apsp_result ref;
    if (run_apsp(g, "seq", &ref) != PF_OK)
        fuzz_fail(FUZZ_BACKEND, "solved a graph that seq refuses");
    size_t cells = (size_t)g->n * (size_t)g->n;
    if (ref.kind != res->kind)
        fuzz_fail(FUZZ_BACKEND, "distance type differs from seq's");
    size_t bytes = res->kind == PF_DIST_I32 ? sizeof(int32_t) : sizeof(int64_t);
    if (res->kind != PF_DIST_F32 && memcmp(ref.dist, res->dist, cells * bytes) != 0)
        fuzz_fail(FUZZ_BACKEND, "distances differ from seq's");
    pf_apsp_result_free(&ref);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_read(fuzz_file(0, data, size), &st);
    if (!g)
        return 0;
    if (g->n <= APSP_MAX_VERTICES && g->m <= APSP_MAX_ARCS) {
        pf_apsp_result res;
        if (run_apsp(g, FUZZ_BACKEND, &res) == PF_OK && strcmp(FUZZ_BACKEND, "seq") != 0)
            compare_with_seq(g, &res);
        pf_apsp_result_free(&res);
    }
    pf_wgraph_free(g);
    return 0;
}
