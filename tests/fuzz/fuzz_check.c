/* libFuzzer target: `check`, that is the solution reader and the
 * certificate checker against a network. The input is a network (DIMACS
 * max-flow or matrix text), a line "----", then a solution file ("s VALUE",
 * "f U V FLOW", "n ID", "c"). Any input must be read or refused cleanly;
 * and a solution with a flow and a cut that the checker accepts must carry
 * the maximum flow value, which the sequential engine recomputes. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_support.h"
#include "io.h"

/* The solution reader allocates per vertex and per arc, and accepted
 * certificates are re-solved: networks past these sizes are skipped. */
#define CHECK_MAX_VERTICES 4096
#define CHECK_MAX_ARCS 16384
#define RESOLVE_MAX_VERTICES 256

static void expect_max_flow(const pf_network *net, int64_t value)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    pf_solution sol = {0};
    pf_status st;
    fuzz_expect_ok(pf_solve(net, &opt, &sol, &st), "pf_solve seq", &st);
    if (sol.value != value)
        fuzz_fail("pf_verify", "accepted a flow and a cut whose value is not the maximum");
    pf_solution_free(&sol);
}

static void check_solution(const pf_network *net, const char *path)
{
    pf_solution_file sol = {0};
    pf_status st;
    int rc = pf_solution_read(path, net, &sol, &st);
    if (rc != PF_OK) {
        if (rc != PF_E_INPUT && rc != PF_E_NOMEM)
            fuzz_expect_ok(rc, "pf_solution_read (failure code)", &st);
        return;
    }
    if (sol.has_flow || sol.has_cut) {
        rc = pf_verify(net, sol.value, sol.has_flow ? sol.arc_flow : NULL,
                       sol.has_cut ? sol.source_side : NULL, &st);
        if (rc != PF_OK && rc != PF_E_VERIFY)
            fuzz_expect_ok(rc, "pf_verify (failure code)", &st);
        if (rc == PF_OK && sol.has_flow && sol.has_cut &&
            pf_network_vertices(net) <= RESOLVE_MAX_VERTICES)
            expect_max_flow(net, sol.value);
    }
    pf_solution_file_free(&sol);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *graph, *solution;
    size_t graph_len, solution_len;
    fuzz_split(data, size, &graph, &graph_len, &solution, &solution_len);
    pf_status st;
    pf_network *net = pf_network_read(fuzz_file(0, graph, graph_len), &st);
    if (!net)
        return 0;
    if (pf_network_vertices(net) <= CHECK_MAX_VERTICES && pf_network_arcs(net) <= CHECK_MAX_ARCS)
        check_solution(net, fuzz_file(1, solution, solution_len));
    pf_network_free(net);
    return 0;
}
