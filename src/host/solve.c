/* pf_solve: picks the engine (an explicit backend, PORTAFLOW_BACKEND, or
 * the best one the probe finds), runs it on the residual graph, and turns
 * its residuals into per-arc flows and a cut. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/memavail.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "engine.h"
#include "hybrid.h"
#include "progress.h"
#include "pf_config.h"
#include "registry.h"

/* The options of API version 1: what a struct with struct_size 0 holds. */
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

/* Runs `name` (a backend alone, or "seq"). */
static int run_engine(const char *name, const pf_residual *g, const pf_solve_options *opt,
                      pf_engine_out *out, pf_status *st)
{
    pf_progress_label("solve %s", name);
    if (strcmp(name, "seq") == 0) {
        snprintf(out->device, sizeof out->device, "host CPU, 1 thread");
        return pf_seq_solve(g, opt, out, st);
    }
    pf_progress_step("opening the device, then phase 1 (pushing flow to the sink)");
    const pf_device_ops *ops = pf_backend_require(name, st);
    if (!ops)
        return PF_E_DEVICE;
    /* No probe here: opening the device reports its absence with the API's
     * own text, and a CUDA probe costs a second driver start-up. */
    return pf_parallel_solve(ops, g, opt, out, st);
}

/* opt->hybrid with PORTAFLOW_HYBRID in place of auto (as PORTAFLOW_BACKEND
 * is for the backend). */
static int hybrid_mode(pf_solve_options *opt, pf_status *st)
{
    const char *env = getenv("PORTAFLOW_HYBRID");
    if (opt->hybrid == PF_HYBRID_AUTO && env && *env) {
        static const struct {
            const char *name;
            int mode;
        } modes[] = {
            {.name = "auto", .mode = PF_HYBRID_AUTO},
            {.name = "on", .mode = PF_HYBRID_ON},
            {.name = "off", .mode = PF_HYBRID_OFF},
        };
        opt->hybrid = -1;
        for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
            if (strcmp(env, modes[i].name) == 0)
                opt->hybrid = modes[i].mode;
        if (opt->hybrid < 0)
            return pf_fail(st, PF_E_USAGE, "PORTAFLOW_HYBRID=%s: use auto, on or off", env);
    }
    if (opt->hybrid < PF_HYBRID_AUTO || opt->hybrid > PF_HYBRID_OFF)
        return pf_fail(st, PF_E_USAGE, "hybrid mode %d: use auto (0), on (1) or off (2)",
                       opt->hybrid);
    return PF_OK;
}

/* Whether to solve as the hybrid, and with which device: an explicit
 * backend with --hybrid on, or auto on a GPU; `auto` as the backend
 * (*ops NULL) looks for a GPU on the background thread (the host never
 * waits for the probe), and with --hybrid on takes the CPU backend where
 * there is none. */
static int plan_hybrid(const char *requested, const pf_solve_options *opt, int *wanted,
                       const pf_device_ops **ops, pf_status *st)
{
    *wanted = 0;
    *ops = NULL;
    if (opt->hybrid == PF_HYBRID_OFF)
        return PF_OK;
    if (strcmp(requested, "seq") == 0) {
        if (opt->hybrid == PF_HYBRID_ON)
            return pf_fail(st, PF_E_USAGE, "the hybrid pairs a parallel backend with seq: "
                                           "choose one with --backend (or auto)");
        return PF_OK;
    }
    if (strcmp(requested, "auto") != 0) {
        *ops = pf_backend_require(requested, st);
        if (!*ops)
            return PF_E_DEVICE;
        if (opt->hybrid == PF_HYBRID_AUTO && !pf_backend_on_gpu(*ops, opt->device_index))
            return PF_OK;
    }
    *wanted = 1;
    return PF_OK;
}

/* The device opens while the residual graph is built, unless
 * PORTAFLOW_HYBRID_OPEN=late (after it: both fault in much memory, which
 * contends; for measuring which pays). */
static int open_late(void)
{
    const char *when = getenv("PORTAFLOW_HYBRID_OPEN");
    return when && strcmp(when, "late") == 0;
}

static void reset_out(pf_engine_out *out, int64_t *res, uint8_t *side)
{
    memset(out, 0, sizeof *out);
    out->res = res;
    out->source_side = side;
}

static int solve_network(const pf_network *net, const pf_solve_options *opt_in,
                         pf_solution *sol, pf_status *st)
{
    memset(sol, 0, sizeof *sol);
    pf_status_ok(st);
    pf_solve_options opt;
    read_options(opt_in, &opt);
    const char *requested = opt.backend;
    if (!requested || !*requested || strcmp(requested, "auto") == 0) {
        const char *env = getenv("PORTAFLOW_BACKEND");
        requested = env && *env ? env : "auto";
    }

    /* The seq engine is timed as one thread end to end, host steps too. */
    int host_threads = strcmp(requested, "seq") == 0 ? 1 : opt.threads;
    double t_start = pf_now();
    const char *order[8];
    char why[1024];
    int candidates = 1;
    int rc = hybrid_mode(&opt, st);
    if (!rc)
        rc = pf_network_require_memory(net, opt.want_flow, opt.want_cut, st);
    pf_hybrid *hy = NULL;
    int hybrid = 0;
    const pf_device_ops *hybrid_ops = NULL;
    if (!rc)
        rc = plan_hybrid(requested, &opt, &hybrid, &hybrid_ops, st);
    if (!rc && hybrid && !open_late() &&
        !(hy = pf_hybrid_begin(hybrid_ops, opt.hybrid == PF_HYBRID_ON, &opt, st)))
        rc = st->code;
    if (rc)
        return rc;
    if (hybrid) {
        order[0] = requested;
        host_threads = pf_hybrid_host_threads(opt.threads);
    } else if (strcmp(requested, "auto") != 0)
        order[0] = requested;
    else
        candidates = pf_backend_auto_order(order, 8, why, sizeof why);
    double t_probed = pf_now();
    pf_residual g;
    /* The hybrid's host engine is seq: its order (the device gets its own
     * copy, hybrid.c). */
    rc = pf_residual_build(net, &g,
                           pf_residual_order_for(hybrid || strcmp(order[0], "seq") == 0),
                           host_threads, st);
    if (rc) {
        pf_hybrid_cancel(hy);
        return rc;
    }
    if (hybrid && !hy && !(hy = pf_hybrid_begin(hybrid_ops, opt.hybrid == PF_HYBRID_ON, &opt, st))) {
        pf_residual_free(&g);
        return st->code;
    }
    double t_built = pf_now();
    if (getenv("PORTAFLOW_TRACE") && strcmp(getenv("PORTAFLOW_TRACE"), "0") != 0)
        fprintf(stderr, "portaflow trace: residual build %.4f s\n", t_built - t_probed);
    int64_t *res = pf_alloc((size_t)g.arcs, sizeof *res, st);
    uint8_t *side = opt.want_cut ? pf_calloc((size_t)g.n, 1, st) : NULL;
    if (!res || (opt.want_cut && !side)) {
        rc = PF_E_NOMEM;
        goto done;
    }

    pf_engine_out out;
    if (hy) {
        reset_out(&out, res, side);
        const char *paired = NULL;
        rc = run_hybrid(hy, &g, &opt, &out, sol, &paired, st);
        /* auto that found no GPU, or whose host finished first, ran seq */
        const char *name = strcmp(requested, "auto") != 0 ? requested : paired;
        snprintf(sol->backend, sizeof sol->backend, "%s", name ? name : "seq");
        sol->hybrid = 1;
    } else if (strcmp(requested, "auto") != 0) {
        reset_out(&out, res, side);
        rc = run_engine(order[0], &g, &opt, &out, st);
        snprintf(sol->backend, sizeof sol->backend, "%s", order[0]);
    } else {
        /* Best first; a device that fails to open falls through to the next
         * candidate with a message, never a crash. */
        for (int i = 0; i < candidates; i++) {
            pf_arc_order wanted = pf_residual_order_for(strcmp(order[i], "seq") == 0);
            if (g.order != wanted) { /* falling back from a device to seq */
                pf_residual_free(&g);
                rc = pf_residual_build(net, &g, wanted, host_threads, st);
                if (rc)
                    break;
            }
            reset_out(&out, res, side);
            rc = run_engine(order[i], &g, &opt, &out, st);
            snprintf(sol->backend, sizeof sol->backend, "%s", order[i]);
            if (rc != PF_E_DEVICE || i + 1 == candidates)
                break;
            fprintf(stderr, "portaflow: %s failed (%s); falling back to %s\n", order[i],
                    st->message, order[i + 1]);
            pf_status_ok(st);
        }
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
        if (solution_size < offsetof(pf_solution, switches) + sizeof full.switches)
            free(full.switches); /* a field the caller cannot free */
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
    free(sol->switches);
    sol->arc_flow = NULL;
    sol->source_side = NULL;
    sol->switches = NULL;
    sol->switch_count = 0;
}
