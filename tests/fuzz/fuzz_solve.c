/* libFuzzer target: read a network, solve it on one engine (FUZZ_BACKEND,
 * "seq" or "omp", set by the build), and check the answer: the flow and
 * the cut must pass the certificate checker, and another engine than seq
 * must find the same value as seq; on seq, Boykov-Kolmogorov must find the
 * same value and canonical cut as push-relabel. Networks are capped so
 * that an iteration stays fast. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_support.h"

#ifndef FUZZ_BACKEND
#error "FUZZ_BACKEND names the engine under test"
#endif

#define SOLVE_MAX_VERTICES 64
#define SOLVE_MAX_ARCS 512

/* Parallel engines hold excess in int64 and refuse (PF_E_DEVICE) networks
 * whose residual capacities sum to 2^63 or more; seq solves those. Several
 * sources or sinks add a super source's and a super sink's arcs, each set
 * carrying at most the input's total. */
static int parallel_may_refuse(const pf_network *net)
{
    __int128 total = 0;
    for (int64_t i = 0; i < pf_network_arcs(net); i++) {
        int64_t u, v, cap;
        pf_network_arc(net, i, &u, &v, &cap);
        total += cap;
    }
    if (pf_network_terminal_count(net, 0) > 1 || pf_network_terminal_count(net, 1) > 1)
        total *= 3;
    return total >= (__int128)1 << 63;
}

/* Any format: as the file says, else (edge lists, Matrix Market name no
 * terminals) with vertex 1 the source and vertex 2 the sink. */
static pf_network *read_any(const char *path)
{
    static const int64_t source[] = {0}, sink[] = {1};
    pf_status st;
    pf_network *net = pf_network_read(path, &st);
    if (net)
        return net;
    pf_read_options opt;
    pf_read_options_init(&opt);
    opt.sources = source;
    opt.source_count = 1;
    opt.sinks = sink;
    opt.sink_count = 1;
    return pf_network_read_with(path, &opt, &st);
}

/* Solves and checks the answer; 0 = the engine refused the network as it
 * may (parallel_may_refuse). */
static int solve_on(const pf_network *net, const char *backend, int method, pf_solution *sol)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.method = method;
    opt.threads = 2;
    opt.want_flow = 1;
    opt.want_cut = 1;
    *sol = (pf_solution){0};
    pf_status st;
    int rc = pf_solve(net, &opt, sol, &st);
    if (rc == PF_E_DEVICE && strcmp(backend, "seq") != 0 && parallel_may_refuse(net))
        return 0;
    fuzz_expect_ok(rc, "pf_solve", &st);
    fuzz_expect_ok(pf_verify(net, sol->value, sol->arc_flow, sol->source_side, &st),
                   "pf_verify of the solver's flow and cut", &st);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pf_network *net = read_any(fuzz_file(0, data, size));
    if (!net)
        return 0;
    if (pf_network_vertices(net) <= SOLVE_MAX_VERTICES &&
        pf_network_arcs(net) <= SOLVE_MAX_ARCS) {
        pf_solution sol, ref;
        int on_seq = strcmp(FUZZ_BACKEND, "seq") == 0;
        if (solve_on(net, FUZZ_BACKEND, PF_METHOD_PUSH_RELABEL, &sol)) {
            solve_on(net, "seq", on_seq ? PF_METHOD_BOYKOV_KOLMOGOROV : PF_METHOD_AUTO, &ref);
            if (ref.value != sol.value)
                fuzz_fail(FUZZ_BACKEND, on_seq ? "Boykov-Kolmogorov's value differs"
                                               : "flow value differs from seq's");
            if (on_seq && memcmp(ref.source_side, sol.source_side,
                                 (size_t)pf_network_vertices(net)) != 0)
                fuzz_fail(FUZZ_BACKEND, "Boykov-Kolmogorov's canonical cut differs");
            pf_solution_free(&ref);
        }
        pf_solution_free(&sol);
    }
    pf_network_free(net);
    return 0;
}
