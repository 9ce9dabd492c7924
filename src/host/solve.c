/* pf_solve: picks the engine (an explicit backend, PORTAFLOW_BACKEND, or
 * the best one the probe finds), runs it on the residual graph, and turns
 * its residuals into per-arc flows and a cut; pf_solve_hooked also lets a
 * caller inside the library read that graph (solve_hooks.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/memavail.h"
#include "../common/omp_threads.h"
#include "../common/sized.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../common/progress.h"
#include "../common/shape.h"
#include "engine.h"
#include "hybrid.h"
#include "log.h"
#include "pf_config.h"
#include "registry.h"
#include "solve_hooks.h"

/* The options of API version 1: what a struct with struct_size 0 holds
 * (version 2 added cancel, version 3 log: each caller's struct_size says). */
#define OPTIONS_V1_SIZE offsetof(pf_solve_options, cancel)

void pf_solve_options_init_sized(pf_solve_options *opt, size_t opt_size)
{
    const pf_solve_options defaults = {.struct_size = pf_sized_clamp(opt_size, sizeof defaults),
                                       .device_index = -1};
    pf_sized_copy(opt, opt_size, &defaults, sizeof defaults, OPTIONS_V1_SIZE);
}

/* Without the header's macro (a caller taking its address). */
void(pf_solve_options_init)(pf_solve_options *opt)
{
    pf_solve_options_init_sized(opt, sizeof *opt);
}

/* The caller's options as this library's struct: the fields it did not
 * know of keep their defaults. NULL options are the defaults. */
void pf_solve_options_copy(const pf_solve_options *in, pf_solve_options *opt)
{
    pf_solve_options_init_sized(opt, sizeof *opt);
    if (!in)
        return;
    size_t size = in->struct_size ? in->struct_size : OPTIONS_V1_SIZE;
    memcpy(opt, in, size < sizeof *opt ? size : sizeof *opt);
    opt->struct_size = sizeof *opt;
}

const char *pf_version(void) { return PF_VERSION; }

/* ---- the hybrid (hybrid.c) ---------------------------------------------- */

/* The hybrid begun in `hy` (the device opening meanwhile); its switches
 * go to sol, *paired = the backend whose device it used (or NULL). */
static int run_hybrid(pf_hybrid *hy, const pf_residual *g, const pf_solve_options *opt,
                      pf_engine_out *out, pf_solution *sol, const char **paired, pf_status *st)
{
    pf_progress_label("solve hybrid");
    pf_progress_step("the host pushing, the device opening meanwhile");
    pf_hybrid_event *events = NULL;
    int64_t count = 0;
    int rc = pf_hybrid_solve(hy, g, opt, out, &events, &count, paired, st);
    if (!rc && count > 0) {
        sol->switches = pf_alloc((size_t)count, sizeof *sol->switches, st);
        if (!sol->switches)
            rc = PF_E_NOMEM;
        for (int64_t i = 0; !rc && i < count; i++)
            sol->switches[i] = (pf_hybrid_switch){.time = events[i].time,
                                                  .to_device = events[i].to_device,
                                                  .active = events[i].active};
        sol->switch_count = rc ? 0 : count;
    }
    free(events);
    return rc;
}

/* opt->hybrid with PORTAFLOW_HYBRID in place of auto (as PORTAFLOW_BACKEND
 * is for the backend); *by_knob: it came from there. */
static int hybrid_mode(pf_solve_options *opt, int *by_knob, pf_status *st)
{
    int64_t knob = pf_knobs()->hybrid;
    *by_knob = opt->hybrid == PF_HYBRID_AUTO && knob != PF_KNOB_AUTO;
    if (*by_knob)
        opt->hybrid = (int)knob;
    if (opt->hybrid < PF_HYBRID_AUTO || opt->hybrid > PF_HYBRID_OFF)
        return pf_fail(st, PF_E_USAGE, "hybrid mode %d: use auto (0), on (1) or off (2)",
                       opt->hybrid);
    return PF_OK;
}

/* opt->method where it can run: Boykov-Kolmogorov on a backend that offers
 * it (caps.maxflow_bk; auto then takes one), not in the hybrid. */
static int check_method(const pf_backend_walk *walk, const pf_solve_options *opt, pf_status *st)
{
    if (opt->method < PF_METHOD_AUTO || opt->method > PF_METHOD_BOYKOV_KOLMOGOROV)
        return pf_fail(st, PF_E_USAGE,
                       "max-flow method %d: use auto (0), push-relabel (1) or "
                       "boykov-kolmogorov (2)",
                       opt->method);
    if (opt->method != PF_METHOD_BOYKOV_KOLMOGOROV)
        return PF_OK;
    if (opt->hybrid == PF_HYBRID_ON)
        return pf_fail(st, PF_E_USAGE, "the hybrid runs push-relabel: the method "
                                       "boykov-kolmogorov runs without it (--hybrid off)");
    const pf_device_ops *ops = walk->is_auto ? NULL : pf_backend_find(walk->requested);
    if (ops && !ops->caps.maxflow_bk)
        return pf_fail(st, PF_E_USAGE,
                       "backend %s runs push-relabel only: the method boykov-kolmogorov runs on "
                       "the one-thread host engine (portaflow solve --help)",
                       walk->requested);
    return PF_OK;
}

static const char *method_name(int method)
{
    return method == PF_METHOD_BOYKOV_KOLMOGOROV ? "boykov-kolmogorov" : "push-relabel";
}

/* Whether to solve as the hybrid, and with which device: with --hybrid on,
 * an explicit backend that runs the parallel driver, or `auto` as the
 * backend (*ops NULL), which walks the registry's candidates on the
 * background thread (the host never waits for a probe; the CPU backend
 * where nothing else pairs). --hybrid auto leaves it off: on the H200
 * suite the hybrid beats every engine on one instance and trails the
 * fastest by up to 1.8x on others (bench/results/2026-11-29-h200-
 * hybrid.md), and auto must not be slower than the engine it would
 * otherwise pick. */
static int plan_hybrid(const pf_backend_walk *walk, const pf_solve_options *opt, int by_knob,
                       int *wanted, const pf_device_ops **ops, pf_status *st)
{
    *wanted = 0;
    *ops = NULL;
    if (opt->hybrid != PF_HYBRID_ON)
        return PF_OK;
    if (!walk->is_auto) {
        *ops = pf_backend_require(walk->requested, st);
        if (!*ops)
            return PF_E_DEVICE;
        int pairs = (*ops)->caps.maxflow_steps && !(*ops)->caps.one_thread;
        if (!pairs && by_knob) { /* the variable asks for it where it can be */
            *ops = NULL;
            return PF_OK;
        }
        if (!pairs)
            return pf_fail(st, PF_E_USAGE, "the hybrid pairs a parallel backend with seq: "
                                           "%s is none; choose one with --backend (or auto)",
                           (*ops)->name);
    }
    *wanted = 1;
    return PF_OK;
}

/* The device opens while the residual graph is built, unless
 * PORTAFLOW_HYBRID_OPEN=late (after it: both fault in much memory, which
 * contends; for measuring which pays). */
static int open_late(void)
{
    return pf_knobs()->hybrid_open == 1;
}

/* Whether the CLI's solve opens first's device while the input is read,
 * not after it (PORTAFLOW_DEVICE_OPEN): where the device builds the
 * residual graph itself, the host's only work after the read is small,
 * and the open is the critical path; where the host builds it, an open
 * beside the read's and the build's page faults slows both. */
static int opens_while_reading(const pf_device_ops *first)
{
    int64_t when = pf_knobs()->device_open;
    return when == 0 || (when == PF_KNOB_AUTO && pf_parallel_can_build_on_device(first));
}

/* ---- the selection loop's attempts ---------------------------------------- */

/* What each attempt of the selection loop needs: the residual graph is
 * built in the arc order the first candidate wants and rebuilt when a
 * fallback wants another; where the first candidate's device builds it
 * (on_device), the host builds it only for a fallback. */
typedef struct solve_attempt {
    const pf_network *net;
    const pf_solve_options *opt;
    pf_residual *g;
    int built;      /* g holds a graph */
    const pf_device_ops *on_device; /* the backend that builds it itself, or NULL */
    int device_flows; /* the attempt that answered filled arc_flow itself */
    int64_t *arc_flow; /* net->m, with want_flow where on_device */
    int host_threads;
    int64_t *res;
    uint8_t *side;
    pf_engine_out *out;
    pf_solution *sol;
    pf_early_device *early; /* the first backend's device, opening since the build */
    const pf_solve_hooks *hooks; /* NULL: none */
} solve_attempt;

/* The hooks' calls, where there are hooks. */
static void hook_engine_start(const pf_solve_hooks *hooks, const pf_residual *g, int host_busy)
{
    if (hooks && hooks->engine_start)
        hooks->engine_start(hooks->data, g, host_busy);
}

static void hook_release(const pf_solve_hooks *hooks, const pf_residual *g)
{
    if (hooks && hooks->release)
        hooks->release(hooks->data, g);
}

static void reset_out(pf_engine_out *out, int64_t *res, uint8_t *side)
{
    memset(out, 0, sizeof *out);
    out->res = res;
    out->source_side = side;
}

/* ---- the early open --------------------------------------------------- */

/* The device a hybrid solve will pair, opening since pf_solve_prestart
 * (one per process: the CLI's solve), with what it was planned for. */
static struct {
    pf_hybrid *open;
    const pf_device_ops *ops;
    unsigned flags; /* pf_hybrid_begin's */
    int unprobed; /* auto may open its first GPU backend unprobed (the CLI) */
    /* Not the hybrid: the first backend's device, opening while the input
     * is read (early_ops: for which). */
    pf_early_device *early;
    const pf_device_ops *early_ops;
    int owns_openmp; /* the process is one solve's (the CLI): its teams are ours */
} prestarted;

/* Whether a solve with these options runs the hybrid (*ops, *flags: what
 * its opener opens, as pf_hybrid_begin takes them); errors are left to
 * the solve. */
static int plans_hybrid(const pf_solve_options *opt_in, const pf_device_ops **ops,
                        unsigned *flags)
{
    pf_solve_options opt;
    pf_solve_options_copy(opt_in, &opt);
    pf_status st;
    int by_knob, hybrid = 0;
    if (hybrid_mode(&opt, &by_knob, &st))
        return 0;
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, opt.backend, PF_WORK_MAXFLOW, opt.threads, NULL, NULL);
    if (plan_hybrid(&walk, &opt, by_knob, &hybrid, ops, &st))
        return 0;
    *flags = opt.hybrid == PF_HYBRID_ON ? PF_HYBRID_CPU_FALLBACK : 0;
    return hybrid;
}

void pf_solve_prestart(const pf_solve_options *opt) { pf_solve_prestart_sized(opt, -1); }

void pf_solve_prestart_sized(const pf_solve_options *opt, int64_t vertices)
{
    pf_solve_prestart_cancel();
    prestarted.owns_openmp = 1;
    pf_solve_options own; /* NULL options: the defaults */
    pf_solve_options_copy(opt, &own);
    pf_status st;
    if (!plans_hybrid(&own, &prestarted.ops, &prestarted.flags)) {
        /* `auto` alone, in a process that opens the device at once: CUDA
         * opens unprobed (its open says whether there is a device, and
         * its probe would start the driver once more), else the probes
         * overlap the reading. Not the device itself now: a device open
         * while the input is read slows the residual build's page
         * faults. */
        pf_backend_walk walk;
        pf_backend_walk_init(&walk, own.backend, PF_WORK_MAXFLOW, own.threads, NULL, NULL);
        pf_backend_walk_size(&walk, vertices);
        pf_backend_walk_method(&walk, own.method, 0);
        /* (no GPU either for a method only seq runs) */
        prestarted.unprobed = walk.is_auto && !walk.skip_gpus && !(walk.skip_stages & 1);
        const pf_device_ops *first = prestarted.unprobed ? pf_backend_walk_unprobed(&walk)
                                     : walk.is_auto        ? NULL
                                                           : pf_backend_walk_next(&walk, NULL);
        if (prestarted.unprobed && !first)
            pf_backend_probe_ahead();
        else if (first && vertices >= 0 && opens_while_reading(first)) {
            prestarted.early = pf_parallel_open_early(first, &own, first == walk.unprobed);
            prestarted.early_ops = first;
        }
        return;
    }
    /* This process opens the device at once and never forks: its first
     * GPU backend may open unprobed, as plain auto's (registry.h). */
    prestarted.flags |= PF_HYBRID_UNPROBED;
    if (!open_late())
        prestarted.open = pf_hybrid_begin(prestarted.ops, prestarted.flags, &own, &st);
}

void pf_solve_prestart_cancel(void)
{
    pf_hybrid_cancel(prestarted.open);
    prestarted.open = NULL;
    pf_parallel_early_free(prestarted.early);
    prestarted.early = NULL;
}

/* The device opening since pf_solve_prestart where it is first's, else a
 * new early open of first (NULL where first opens nothing worth it).
 * Only a process that prestarts (the CLI: one solve) writes prestarted;
 * library solves on several threads at once only read its NULL. */
static pf_early_device *early_device(const pf_device_ops *first, const pf_solve_options *opt,
                                     int unprobed)
{
    pf_early_device *early = prestarted.early;
    if (early) {
        prestarted.early = NULL;
        if (prestarted.early_ops == first)
            return early;
        pf_parallel_early_free(early);
    }
    return pf_parallel_open_early(first, opt, unprobed);
}

/* The early opener where it opens what this solve needs; else a new one. */
static pf_hybrid *hybrid_opener(const pf_device_ops *ops, unsigned flags,
                                const pf_solve_options *opt, pf_status *st)
{
    pf_hybrid *open = prestarted.open;
    prestarted.open = NULL;
    if (open && prestarted.ops == ops &&
        (prestarted.flags & PF_HYBRID_CPU_FALLBACK) == (flags & PF_HYBRID_CPU_FALLBACK))
        return open;
    pf_hybrid_cancel(open);
    return pf_hybrid_begin(ops, flags, opt, st);
}

/* a->g in the order ops wants (built, or rebuilt for a fallback), and
 * the residuals to fill. */
static int graph_for(solve_attempt *a, const pf_device_ops *ops, pf_status *st)
{
    pf_arc_order wanted = pf_residual_order_for(ops->caps.forward_first_arcs);
    if (!a->built || a->g->order != wanted) { /* falling back to an engine of another order */
        if (a->built) {
            hook_release(a->hooks, a->g);
            pf_residual_free(a->g);
            a->built = 0;
        }
        int rc = pf_residual_build(a->net, a->g, wanted, a->host_threads, st);
        if (rc)
            return rc == PF_E_DEVICE ? PF_E_INPUT : rc;
        a->built = 1;
    }
    if (!a->res && !(a->res = pf_alloc((size_t)a->g->arcs + 1, sizeof *a->res, st)))
        return PF_E_NOMEM;
    return PF_OK;
}

static int attempt_solve(const pf_device_ops *ops, void *ctx, pf_status *st)
{
    solve_attempt *a = ctx;
    snprintf(a->sol->backend, sizeof a->sol->backend, "%s", ops->name);
    pf_progress_label("solve %s", ops->name);
    if (ops == a->on_device) {
        reset_out(a->out, NULL, a->side);
        hook_engine_start(a->hooks, NULL, 0); /* no residual graph on the host */
        pf_progress_step("opening the device, the arcs to it, then phase 1 (pushing flow to "
                         "the sink)");
        a->device_flows = 1;
        return pf_parallel_solve_network(ops, a->early, a->net, a->opt, a->out, a->arc_flow,
                                         a->hooks ? a->hooks->matrix : NULL, st);
    }
    a->device_flows = 0;
    int rc = graph_for(a, ops, st);
    if (rc)
        return rc;
    reset_out(a->out, a->res, a->side);
    hook_engine_start(a->hooks, a->g, ops->caps.host_cpu && !ops->caps.one_thread);
    if (ops->maxflow_solve)
        return ops->maxflow_solve(a->g, a->opt, a->out, st);
    if (!ops->caps.maxflow_steps)
        return pf_fail(st, PF_E_USAGE, "backend %s runs no max-flow", ops->name);
    pf_progress_step("opening the device, then phase 1 (pushing flow to the sink)");
    /* No probe here: opening the device reports its absence with the API's
     * own text, and a CUDA probe costs a second driver start-up. */
    return pf_parallel_solve(ops, a->early, a->g, a->opt, a->out, st);
}

static int solve_network(const pf_network *net, const pf_solve_options *opt_in,
                         pf_solution *sol, const pf_solve_hooks *hooks, pf_status *st)
{
    memset(sol, 0, sizeof *sol);
    pf_status_ok(st);
    pf_solve_options opt;
    pf_solve_options_copy(opt_in, &opt);
    double t_start = pf_now();
    int by_knob;
    int rc = hybrid_mode(&opt, &by_knob, st);
    if (rc)
        return rc;
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, opt.backend, PF_WORK_MAXFLOW, opt.threads, NULL, NULL);
    pf_backend_walk_size(&walk, pf_network_vertices(net));
    int hybrid = 0;
    const pf_device_ops *hybrid_ops = NULL, *first = NULL;
    rc = plan_hybrid(&walk, &opt, by_knob, &hybrid, &hybrid_ops, st);
    if (!rc)
        rc = check_method(&walk, &opt, st);
    if (rc)
        return rc;
    if (!hybrid)
        pf_backend_walk_method(&walk, opt.method,
                               walk.is_auto && opt.method == PF_METHOD_AUTO &&
                                   pf_network_is_segmentation(net, opt.threads));
    if (!hybrid && prestarted.unprobed)
        first = pf_backend_walk_unprobed(&walk);
    if (!hybrid && !first && !(first = pf_backend_walk_next(&walk, st)))
        return st->code ? st->code : pf_fail(st, PF_E_DEVICE, "no backend runs max-flow");
    /* A one-thread engine asked for is timed as one thread end to end,
     * host steps too; auto's builds a small network on one thread (a team
     * would cost more than it saves, then spin beside the engine); the
     * hybrid leaves its opener a core. */
    int host_threads = hybrid                     ? pf_threads_beside_opener(opt.threads)
                       : !first->caps.one_thread ? opt.threads
                       : walk.is_auto            ? pf_threads_for_items(opt.threads, net->m)
                                                 : 1;
    double t_probed = pf_now();
    pf_residual g;
    rc = pf_network_require_memory(net, opt.want_flow, opt.want_cut, st);
    if (rc)
        return rc;
    pf_hybrid *hy = NULL;
    unsigned flags = opt.hybrid == PF_HYBRID_ON ? PF_HYBRID_CPU_FALLBACK : 0;
    if (hybrid && !open_late() && !(hy = hybrid_opener(hybrid_ops, flags, &opt, st)))
        return st->code;
    /* The first backend's device starts while the residual graph is built
     * (both take a few tenths of a second on large graphs), where the CLI
     * did not start it while reading the input already. */
    pf_early_device *early = hybrid ? NULL : early_device(first, &opt, first == walk.unprobed);
    if (early)
        host_threads = pf_threads_beside_opener(opt.threads);
    /* A device that builds the residual graph itself gets the arcs as
     * they are (driver_build.c); else the host builds it, in the hybrid's
     * host engine's order (hybrid.h) or the first backend's. */
    const pf_device_ops *on_device =
        !hybrid && pf_parallel_builds_on_device(first, net) ? first : NULL;
    pf_arc_order order = hybrid ? pf_hybrid_graph_order(pf_hybrid_team_for(hybrid_ops, &opt))
                                : pf_residual_order_for(first->caps.forward_first_arcs);
    memset(&g, 0, sizeof g);
    rc = on_device ? PF_OK : pf_residual_build(net, &g, order, host_threads, st);
    if (rc) {
        pf_hybrid_cancel(hy);
        pf_parallel_early_free(early);
        return rc;
    }
    if (hybrid && !hy && !(hy = pf_hybrid_begin(hybrid_ops, flags, &opt, st))) {
        pf_residual_free(&g);
        return st->code;
    }
    /* A one-thread engine next: the build's team would spin beside it. */
    if (prestarted.owns_openmp && !hybrid && !early && first->caps.one_thread)
        pf_omp_release_team();
    double t_built = pf_now();
    if (pf_knobs()->trace && !on_device)
        fprintf(stderr, "portaflow trace: residual build %.4f s\n", t_built - t_probed);
    int64_t *res = on_device ? NULL : pf_alloc((size_t)g.arcs, sizeof *res, st);
    int64_t vertices = on_device ? net->n : g.n;
    uint8_t *side = opt.want_cut ? pf_calloc((size_t)vertices, 1, st) : NULL;
    if (opt.want_flow && on_device &&
        !(sol->arc_flow = pf_alloc((size_t)net->m, sizeof *sol->arc_flow, st)))
        rc = PF_E_NOMEM;
    if ((!on_device && !res) || (opt.want_cut && !side) || rc) {
        rc = PF_E_NOMEM;
        goto done;
    }

    pf_engine_out out;
    int device_flows = 0;
    if (hybrid) {
        reset_out(&out, res, side);
        hook_engine_start(hooks, &g, 0); /* seq on one core, beside a device */
        const char *paired = NULL;
        rc = run_hybrid(hy, &g, &opt, &out, sol, &paired, st);
        /* auto that found nothing to pair, or whose host finished first,
         * ran seq alone */
        const char *name = walk.is_auto ? paired : hybrid_ops->name;
        snprintf(sol->backend, sizeof sol->backend, "%s", name ? name : "seq");
        sol->hybrid = 1;
    } else {
        solve_attempt attempt = {.net = net, .opt = &opt, .g = &g, .built = !on_device,
                                 .on_device = on_device, .arc_flow = sol->arc_flow,
                                 .host_threads = host_threads, .res = res, .side = side,
                                 .out = &out, .sol = sol, .early = early, .hooks = hooks};
        pf_logger log = {.fn = opt.log, .data = opt.log_data};
        /* Best first; a device that fails to open falls through to the next
         * candidate with a message, never a crash. */
        rc = pf_backend_run(&walk, first, attempt_solve, &attempt, &log, st);
        res = attempt.res; /* allocated by a fallback where the device built none */
        device_flows = attempt.device_flows;
    }
    if (rc)
        goto done;

    sol->value = out.value;
    sol->times = out.times;
    sol->times.setup += t_built - t_start;
    sol->pushes_rounds = out.rounds;
    sol->global_relabels = out.global_relabels;
    sol->host_pushes = out.host_pushes;
    sol->device_bytes = out.device_bytes;
    snprintf(sol->method, sizeof sol->method, "%s", method_name(out.method));
    pf_network_scale(net, &sol->scale_log2, NULL);
    snprintf(sol->device, sizeof sol->device, "%s", out.device);
    pf_matrix_request *matrix = hooks && device_flows ? hooks->matrix : NULL;
    if (matrix && matrix->flows_skipped)
        PF_FREE_NULL(sol->arc_flow); /* never read back: the caller wanted the matrix */
    if (opt.want_flow && !device_flows) {
        if (!sol->arc_flow &&
            !(sol->arc_flow = pf_alloc((size_t)net->m, sizeof *sol->arc_flow, st))) {
            rc = PF_E_NOMEM;
            goto done;
        }
        pf_residual_arc_flows(&g, res, sol->arc_flow, host_threads);
    }
    sol->source_side = side;
    side = NULL;
    sol->times.total = pf_now() - t_start;
    if (hooks && hooks->solved && !device_flows)
        rc = hooks->solved(hooks->data, &g, res, st);
done:
    hook_release(hooks, &g);
    /* The residual graph (the hybrid's until it ends) and the residuals, most
     * of the solve's memory, go back on a thread of their own when large. */
    pf_residual_free_later(hy ? NULL : &g, res, res ? (size_t)g.arcs * sizeof *res : 0);
    free(side);
    pf_parallel_early_free(early);
    pf_hybrid_end(hy, &g); /* frees g, also without a hybrid */
    if (rc)
        pf_solution_free(sol);
    return rc;
}

/* A network that declares far more vertices than its arcs and terminals
 * touch is solved as a compact copy (network_compact.c): memory follows
 * the input, not the p line. Flows carry over arc by arc; the cut is
 * mapped back. */
static int solve(const pf_network *net, const pf_solve_options *opt_in, pf_solution *sol,
                 const pf_solve_hooks *hooks, pf_status *st)
{
    pf_solve_options options;
    pf_solve_options_copy(opt_in, &options);
    const pf_solve_options *opt = &options;
    if (!pf_network_worth_compacting(net))
        return solve_network(net, opt, sol, hooks, st);
    memset(sol, 0, sizeof *sol);
    pf_network *compact = NULL;
    int32_t *old_id = NULL;
    int rc = pf_network_compact(net, &compact, &old_id, st);
    if (!rc && opt->want_cut)
        rc = pf_mem_require(pf_network_solve_bytes(compact, opt->want_flow, 1) + (uint64_t)net->n,
                            "a max-flow solve of this network with its cut", st);
    if (!rc)
        rc = solve_network(compact, opt, sol, NULL, st);
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
        int rc = solve(net, opt, &full, NULL, st);
        memcpy(sol, &full, solution_size);
        if (solution_size < offsetof(pf_solution, switches) + sizeof full.switches)
            free(full.switches); /* a field the caller cannot free */
        return rc;
    }
    return solve(net, opt, sol, NULL, st);
}

int pf_solve_hooked(const pf_network *net, const pf_solve_options *opt, pf_solution *sol,
                    const pf_solve_hooks *hooks, pf_status *st)
{
    return solve(net, opt, sol, hooks, st);
}

int(pf_solve)(const pf_network *net, const pf_solve_options *opt, pf_solution *sol,
              pf_status *st)
{
    return solve(net, opt, sol, NULL, st);
}

void pf_solution_free(pf_solution *sol)
{
    free(sol->arc_flow);
    free(sol->source_side);
    free(sol->switches);
    sol->arc_flow = NULL;
    sol->source_side = NULL;
    sol->switches = NULL;
    sol->switch_count = 0;
}
