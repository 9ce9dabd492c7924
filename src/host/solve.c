/* pf_solve: picks the engine (an explicit backend, PORTAFLOW_BACKEND, or
 * the best one the probe finds), runs it on the residual graph, and turns
 * its residuals into per-arc flows and a cut. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/memavail.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../common/progress.h"
#include "engine.h"
#include "log.h"
#include "pf_config.h"
#include "registry.h"

/* The options of API version 1: what a struct with struct_size 0 holds
 * (version 2 added cancel, version 3 log: each caller's struct_size says). */
#define OPTIONS_V1_SIZE offsetof(pf_solve_options, cancel)

void pf_solve_options_init_sized(pf_solve_options *opt, size_t opt_size)
{
    if (opt_size > sizeof *opt)
        opt_size = sizeof *opt;
    if (opt_size < OPTIONS_V1_SIZE)
        return; /* not a pf_solve_options of any version: write nothing */
    memset(opt, 0, opt_size);
    opt->struct_size = opt_size;
    opt->device_index = -1;
}

/* Without the header's macro (a caller taking its address). */
void(pf_solve_options_init)(pf_solve_options *opt)
{
    pf_solve_options_init_sized(opt, sizeof *opt);
}

/* The caller's options as this library's struct: the fields it did not
 * know of keep their defaults. NULL options are the defaults. */
static void read_options(const pf_solve_options *in, pf_solve_options *opt)
{
    pf_solve_options_init_sized(opt, sizeof *opt);
    if (!in)
        return;
    size_t size = in->struct_size ? in->struct_size : OPTIONS_V1_SIZE;
    memcpy(opt, in, size < sizeof *opt ? size : sizeof *opt);
    opt->struct_size = sizeof *opt;
}

const char *pf_version(void) { return PF_VERSION; }

/* What each attempt of the selection loop needs: the residual graph is
 * built in the arc order the first candidate wants and rebuilt when a
 * fallback wants another. */
typedef struct solve_attempt {
    const pf_network *net;
    const pf_solve_options *opt;
    pf_residual *g;
    int host_threads;
    int64_t *res;
    uint8_t *side;
    pf_engine_out *out;
    pf_solution *sol;
} solve_attempt;

static void reset_out(pf_engine_out *out, int64_t *res, uint8_t *side)
{
    memset(out, 0, sizeof *out);
    out->res = res;
    out->source_side = side;
}

static int attempt_solve(const pf_device_ops *ops, void *ctx, pf_status *st)
{
    solve_attempt *a = ctx;
    pf_arc_order wanted = pf_residual_order_for(ops->caps.forward_first_arcs);
    if (a->g->order != wanted) { /* falling back to an engine of another order */
        pf_residual_free(a->g);
        int rc = pf_residual_build(a->net, a->g, wanted, a->host_threads, st);
        if (rc)
            return rc == PF_E_DEVICE ? PF_E_INPUT : rc;
    }
    reset_out(a->out, a->res, a->side);
    snprintf(a->sol->backend, sizeof a->sol->backend, "%s", ops->name);
    pf_progress_label("solve %s", ops->name);
    if (ops->maxflow_solve)
        return ops->maxflow_solve(a->g, a->opt, a->out, st);
    if (!ops->caps.maxflow_steps)
        return pf_fail(st, PF_E_USAGE, "backend %s runs no max-flow", ops->name);
    pf_progress_step("opening the device, then phase 1 (pushing flow to the sink)");
    /* No probe here: opening the device reports its absence with the API's
     * own text, and a CUDA probe costs a second driver start-up. */
    return pf_parallel_solve(ops, a->g, a->opt, a->out, st);
}

static int solve_network(const pf_network *net, const pf_solve_options *opt_in,
                         pf_solution *sol, pf_status *st)
{
    memset(sol, 0, sizeof *sol);
    pf_status_ok(st);
    pf_solve_options opt;
    read_options(opt_in, &opt);
    double t_start = pf_now();
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, opt.backend, PF_WORK_MAXFLOW, opt.threads, NULL, NULL);
    const pf_device_ops *first = pf_backend_walk_next(&walk, st);
    if (!first)
        return st->code ? st->code : pf_fail(st, PF_E_DEVICE, "no backend runs max-flow");
    /* A one-thread engine asked for is timed as one thread end to end,
     * host steps too. */
    int host_threads = !walk.is_auto && first->caps.one_thread ? 1 : opt.threads;
    double t_probed = pf_now();
    pf_residual g;
    int rc = pf_network_require_memory(net, opt.want_flow, opt.want_cut, st);
    if (rc)
        return rc;
    rc = pf_residual_build(net, &g, pf_residual_order_for(first->caps.forward_first_arcs),
                           host_threads, st);
    if (rc)
        return rc;
    double t_built = pf_now();
    if (pf_knobs()->trace)
        fprintf(stderr, "portaflow trace: residual build %.4f s\n", t_built - t_probed);
    int64_t *res = pf_alloc((size_t)g.arcs, sizeof *res, st);
    uint8_t *side = opt.want_cut ? pf_calloc((size_t)g.n, 1, st) : NULL;
    if (!res || (opt.want_cut && !side)) {
        rc = PF_E_NOMEM;
        goto done;
    }

    pf_engine_out out;
    solve_attempt attempt = {.net = net, .opt = &opt, .g = &g, .host_threads = host_threads,
                             .res = res, .side = side, .out = &out, .sol = sol};
    pf_logger log = {.fn = opt.log, .data = opt.log_data};
    /* Best first; a device that fails to open falls through to the next
     * candidate with a message, never a crash. */
    rc = pf_backend_run(&walk, first, attempt_solve, &attempt, &log, st);
    if (rc)
        goto done;

    sol->value = out.value;
    sol->times = out.times;
    sol->times.setup += t_built - t_start;
    sol->pushes_rounds = out.rounds;
    sol->global_relabels = out.global_relabels;
    sol->host_pushes = out.host_pushes;
    sol->device_bytes = out.device_bytes;
    pf_network_scale(net, &sol->scale_log2, NULL);
    snprintf(sol->device, sizeof sol->device, "%s", out.device);
    if (opt.want_flow) {
        sol->arc_flow = pf_alloc((size_t)net->m, sizeof *sol->arc_flow, st);
        if (!sol->arc_flow) {
            rc = PF_E_NOMEM;
            goto done;
        }
        pf_residual_arc_flows(&g, res, sol->arc_flow, host_threads);
    }
    sol->source_side = side;
    side = NULL;
    sol->times.total = pf_now() - t_start;
done:
    free(res);
    free(side);
    pf_residual_free(&g);
    if (rc)
        pf_solution_free(sol);
    return rc;
}

/* A network that declares far more vertices than its arcs and terminals
 * touch is solved as a compact copy (network_compact.c): memory follows
 * the input, not the p line. Flows carry over arc by arc; the cut is
 * mapped back. */
static int solve(const pf_network *net, const pf_solve_options *opt_in, pf_solution *sol,
                 pf_status *st)
{
    pf_solve_options options;
    read_options(opt_in, &options);
    const pf_solve_options *opt = &options;
    if (!pf_network_worth_compacting(net))
        return solve_network(net, opt, sol, st);
    memset(sol, 0, sizeof *sol);
    pf_network *compact = NULL;
    int32_t *old_id = NULL;
    int rc = pf_network_compact(net, &compact, &old_id, st);
    if (!rc && opt->want_cut)
        rc = pf_mem_require(pf_network_solve_bytes(compact, opt->want_flow, 1) + (uint64_t)net->n,
                            "a max-flow solve of this network with its cut", st);
    if (!rc)
        rc = solve_network(compact, opt, sol, st);
    if (!rc && sol->source_side) {
        uint8_t *side;
        rc = pf_network_expand_side(net, old_id, compact->n, sol->source_side, &side, st);
        free(sol->source_side);
        sol->source_side = rc ? NULL : side;
        if (rc)
            pf_solution_free(sol);
    }
    pf_network_free(compact);
    free(old_id);
    return rc;
}

int pf_solve_sized(const pf_network *net, const pf_solve_options *opt, pf_solution *sol,
                   size_t solution_size, pf_status *st)
{
    if (solution_size < sizeof *sol) {
        /* A caller built for a smaller pf_solution: solve into a full one
         * and hand over the part it knows of. */
        pf_solution full;
        int rc = solve(net, opt, &full, st);
        memcpy(sol, &full, solution_size);
        return rc;
    }
    return solve(net, opt, sol, st);
}

int(pf_solve)(const pf_network *net, const pf_solve_options *opt, pf_solution *sol,
              pf_status *st)
{
    return solve(net, opt, sol, st);
}

void pf_solution_free(pf_solution *sol)
{
    free(sol->arc_flow);
    free(sol->source_side);
    sol->arc_flow = NULL;
    sol->source_side = NULL;
}
