/* The hybrid solve (hybrid.h): the arbitrator that moves phase 1 between
 * the host's engines and a device that opens meanwhile (hybrid_open.c).
 *
 * Correctness across a switch: the state that moves is the preflow itself
 * (every residual and every excess); it is a valid preflow whichever
 * engine left it, since both only push along residual arcs as far as the
 * pusher's excess reaches. Heights never move: each engine begins every
 * stretch with a global relabel, which gives exact distances to the sink
 * over the residuals as they are, a valid labelling of any preflow. Phase
 * 1 ends only when a stretch finds no active vertex (the device: right
 * after its global relabel; the host: its labels are exact or valid all
 * along), and the cut and phase 2 are then the host engine's, on the same
 * residuals. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/omp_threads.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/device.h"
#include "driver_session.h"
#include "hybrid.h"
#include "hybrid_open.h"
#include "log.h"

/* ---- the arbitrator ------------------------------------------------------ */

typedef struct hybrid {
    pf_seq_run *host;       /* the engines and what the arbitrator knows of them */
    pf_dev_session *team;   /* the host's parallel CPU backend, or NULL: seq alone */
    pf_dev_session *dev;    /* once the opener handed it over */
    pf_hybrid *open;
    int dev_failed;
    pf_hybrid_model model;
    const pf_residual *h;   /* the solve: graph, options, answer */
    const pf_solve_options *opt;
    pf_engine_out *out;
    int on_device;
    int in_team;            /* the host's state is the team's, not seq's */
    int64_t team_entry_excess; /* the excess outside the terminals when it last
                                  came into the team */
    int alternate;          /* PORTAFLOW_HYBRID_SWITCH=alternate: after every stretch */
    int64_t stretch;        /* PORTAFLOW_HYBRID_STRETCH: discharges / rounds, 0 = natural */
    int trace;
    double t_start;
    int64_t *excess;        /* n: the state in transit */
    const pf_residual *dev_graph; /* the device's layout (h or a copy) */
    int64_t *dev_res;       /* residuals in it, when it is a copy */
    pf_hybrid_event *events;
    int64_t count, room;
    double host_seconds, team_seconds, transfer_seconds;
    double team_work, team_work_seconds; /* its rounds' relabel work, and their time */
    int64_t host_discharges;
    double last_threshold;  /* N* of the last decision */
    int64_t last_excess;    /* the active excess it was made at */
    int64_t stretches_here; /* on this engine since the last switch */
    int host_to_end;        /* a crawl went to the host: it finishes phase 1 */
} hybrid;

static int record(hybrid *y, int to_device, int64_t active, pf_status *st)
{
    if (y->count == y->room) {
        int64_t room = y->room ? 2 * y->room : 16;
        pf_hybrid_event *grown = realloc(y->events, (size_t)room * sizeof *grown);
        if (!grown)
            return pf_fail(st, PF_E_NOMEM, "realloc: out of memory for the hybrid's switches");
        y->events = grown;
        y->room = room;
    }
    pf_hybrid_event *e = &y->events[y->count++];
    *e = (pf_hybrid_event){
        .time = pf_now() - y->t_start,
        .to_device = to_device,
        .active = active,
        .c_dev = pf_hybrid_model_dev_rate(&y->model, active),
        .c_host = y->model.host_rate,
        .transfer = y->model.transfer,
        .threshold = y->last_threshold,
        .excess = y->last_excess,
    };
    if (y->trace)
        fprintf(stderr,
                "portaflow trace: hybrid switch at %.4f s to the %s: %lld active, excess %lld, "
                "C_dev %.4g/s, C_host %.4g/s (ln excess), T %.4g s, N* %.4g (excess)\n",
                e->time, to_device ? "device" : "host", (long long)active, (long long)e->excess,
                e->c_dev, e->c_host, e->transfer, e->threshold);
    return PF_OK;
}

/* The device, if the opener has it ready (never waits); first guesses of
 * the model's latency and T from the probe copy and the graph's upload. */
static pf_dev_session *device_ready(hybrid *y, int wait)
{
    if (y->dev || y->dev_failed || !y->open)
        return y->dev;
    pf_status why;
    int quiet = 0;
    y->dev = pf_hybrid_opener_poll(y->open, wait, &y->dev_failed, &quiet, &why);
    pf_logger log = {.fn = y->opt->log, .data = y->opt->log_data};
    /* A named backend that did not open is the solve's error (pf_hybrid_solve). */
    int named_missing = y->open->ops && !y->open->reached_graph;
    if (y->dev_failed && !quiet && !named_missing)
        pf_log(&log, PF_LOG_WARNING, "hybrid: %s; the host solves it", why.message);
    if (!y->dev)
        return NULL;
    y->dev_graph = pf_dev_session_graph(y->dev);
    if (y->dev_graph->head != y->h->head) { /* a copy in another order */
        pf_status none;
        y->dev_res = pf_alloc((size_t)y->h->arcs + 1, sizeof *y->dev_res, &none);
        if (!y->dev_res) { /* no room for the copy's residuals: host only */
            pf_log(&log, PF_LOG_WARNING, "hybrid: %s; the host solves it", none.message);
            pf_dev_session_close(y->dev);
            y->dev = NULL;
            y->dev_failed = 1;
            return NULL;
        }
    }
    pf_status ignored;
    double probe = pf_dev_session_probe(y->dev, &ignored);
    const pf_engine_out *c = pf_dev_session_counts(y->dev);
    const pf_residual *h = y->h;
    double graph_bytes = (double)h->arcs * 16 + (double)h->n * 8;
    double state_bytes = (double)h->arcs * 8 + (double)h->n * 8;
    if (probe > 0)
        y->model.dev_latency = probe;
    if (c->times.upload > 0 && y->model.transfer <= 0)
        y->model.transfer = (probe > 0 ? probe : 0) +
                            c->times.upload * state_bytes / graph_bytes;
    if (y->trace)
        fprintf(stderr,
                "portaflow trace: hybrid device ready at %.4f s (%s): open ended at %.4f s, "
                "graph there at %.4f s, relaid out by %.4f s; probe copy %.3g s, graph upload "
                "%.4f s, T guessed %.4g s\n",
                pf_now() - y->t_start, pf_dev_session_desc(y->dev)->name,
                y->open->opened_at - y->t_start, y->open->graph_at - y->t_start,
                y->open->relaid_at - y->t_start, probe, c->times.upload, y->model.transfer);
    return y->dev;
}

/* The host's state (out->res, y->excess) out of the engine that holds it. */
static int host_state_out(hybrid *y, pf_status *st)
{
    if (y->in_team)
        return pf_dev_session_get(y->team, y->out->res, y->excess, st);
    pf_seq_run_excess(y->host, y->excess);
    return PF_OK;
}

/* The excess in y->excess outside the terminals, and (*active) how many
 * vertices hold some. */
static int64_t excess_outside_terminals(const hybrid *y, int64_t *active)
{
    int64_t sum = 0, holding = 0;
    for (int64_t v = 0; v < y->h->n; v++)
        if (v != y->h->source && v != y->h->sink && y->excess[v] > 0) {
            holding++;
            sum += y->excess[v];
        }
    *active = holding;
    return sum;
}

/* out->res and y->excess into the host's engine: the team, unless seq is
 * to finish phase 1 (a crawl, or the end). */
static int host_state_in(hybrid *y, pf_status *st)
{
    y->in_team = y->team && !y->host_to_end;
    if (y->in_team) {
        int64_t active;
        y->team_entry_excess = excess_outside_terminals(y, &active);
        return pf_dev_session_put(y->team, y->out->res, y->excess, st);
    }
    pf_seq_run_load(y->host, y->excess);
    return PF_OK;
}

/* The team's state to seq, which finishes phase 1 from here. */
static int team_to_seq(hybrid *y, pf_status *st)
{
    int rc = host_state_out(y, st);
    y->host_to_end = 1;
    return rc ? rc : host_state_in(y, st);
}

static int to_device(hybrid *y, int64_t active, pf_status *st)
{
    double t0 = pf_now();
    int rc = host_state_out(y, st);
    if (rc)
        return rc;
    const int64_t *res = y->out->res;
    if (y->dev_res) {
        pf_residual_copy_residuals(y->h, y->out->res, y->dev_graph, y->dev_res,
                                   y->opt->threads);
        res = y->dev_res;
    }
    rc = pf_dev_session_put(y->dev, res, y->excess, st);
    double took = pf_now() - t0;
    y->transfer_seconds += took;
    pf_hybrid_model_transfer(&y->model, took);
    y->on_device = 1;
    y->stretches_here = 0;
    return rc ? rc : record(y, 1, active, st);
}

static int to_host(hybrid *y, int64_t active, int counted, pf_status *st)
{
    double t0 = pf_now();
    int rc = pf_dev_session_get(y->dev, y->dev_res ? y->dev_res : y->out->res, y->excess, st);
    if (!rc && y->dev_res)
        pf_residual_copy_residuals(y->dev_graph, y->dev_res, y->h, y->out->res,
                                   y->opt->threads);
    if (!rc)
        rc = host_state_in(y, st);
    double took = pf_now() - t0;
    y->transfer_seconds += took;
    pf_hybrid_model_transfer(&y->model, took);
    y->on_device = 0;
    y->stretches_here = 0;
    return rc || !counted ? rc : record(y, 0, active, st);
}

/* Discharges for the next host stretch: PORTAFLOW_HYBRID_STRETCH's where
 * set; while the device is still opening, about POLL_SECONDS' worth at the
 * host's rate so far, so that the device is taken up soon after it is
 * ready (a natural stretch, one global-relabel period, can last 0.2 s on a
 * million vertices); else up to the next global relabel. */
#define POLL_SECONDS 0.01
#define TEAM_FIRST_TRY 256
static int64_t host_budget(const hybrid *y)
{
    if (y->stretch > 0)
        return y->stretch;
    if (y->dev || y->dev_failed || !y->open || y->alternate)
        return 0;
    if (y->host_seconds <= 0 || y->host_discharges <= 0)
        return 4096;
    int64_t budget = (int64_t)(POLL_SECONDS * (double)y->host_discharges / y->host_seconds);
    return budget > 1024 ? budget : 1024;
}

/* Relabel work for the team's next stretch, which goes on with the same
 * heights where the last one was cut short (pf_dev_session_stretch):
 * while the device is still opening, about POLL_SECONDS' worth at the
 * team's rate so far (a sixteenth of a period before it has one), so that
 * the device is taken up soon after it is ready; once it is, four times
 * that between two looks at the rule; with no device to come, up to the
 * next global relabel. */
static double team_slice(const hybrid *y)
{
    if (y->dev_failed || !y->open || y->alternate || y->host_to_end)
        return 0;
    if (y->team_work_seconds <= 0 || y->team_work <= 0) {
        const pf_residual *h = y->h;
        return (pf_knobs()->gr_alpha * (double)h->n + (double)h->arcs / 2) / 16;
    }
    double seconds = y->dev ? 4 * POLL_SECONDS : POLL_SECONDS;
    double slice = seconds * y->team_work / y->team_work_seconds;
    return slice > 1024 ? slice : 1024;
}

/* He & Hong's rule after a stretch, with `active` vertices and their
 * `excess` left (hybrid.h: the model). */
static int wants_device(hybrid *y, int64_t active, int64_t excess)
{
    y->last_excess = excess;
    if (y->alternate)
        return !y->on_device;
    if (y->host_to_end)
        return 0;
    /* Two stretches at least on an engine before the state moves again:
     * one stretch's rate is too lumpy to act on alone. */
    if (++y->stretches_here < 2)
        return y->on_device;
    if (y->on_device)
        return !pf_hybrid_model_to_host(&y->model, active, excess, &y->last_threshold);
    return pf_hybrid_model_to_device(&y->model, active, excess, &y->last_threshold);
}

/* A stretch of seq's: *active vertices left active, *excess their
 * excess; *over: phase 1 is (none is active: seq's labels are valid). */
static int seq_stretch(hybrid *y, int64_t *active, int64_t *excess, int *over, pf_status *st)
{
    pf_seq_stretch sh;
    int rc = pf_seq_run_stretch(y->host, host_budget(y), &sh, st);
    if (rc)
        return rc;
    y->host_seconds += sh.seconds;
    y->host_discharges += sh.discharges;
    pf_hybrid_model_host(&y->model, sh.excess_before, sh.excess, sh.seconds);
    if (y->trace)
        fprintf(stderr,
                "portaflow trace: hybrid %.4f s host stretch: %lld -> %lld active, "
                "excess %lld -> %lld, %lld discharges in %.4g s\n",
                pf_now() - y->t_start, (long long)sh.active_before, (long long)sh.active,
                (long long)sh.excess_before, (long long)sh.excess, (long long)sh.discharges,
                sh.seconds);
    *active = sh.active;
    *excess = sh.excess;
    *over = sh.active == 0;
    return PF_OK;
}

/* PORTAFLOW_TRACE's line for a stretch of the team or the device; one
 * that went on in an open period says so. */
static void trace_stretch(const hybrid *y, const char *side, const pf_dev_stretch *sd)
{
    if (y->trace)
        fprintf(stderr,
                "portaflow trace: hybrid %.4f s %s stretch%s: %lld -> %lld active, "
                "excess %lld left, %lld rounds over %lld listed in %.4g s\n",
                pf_now() - y->t_start, side, sd->relabelled ? "" : " (going on)",
                (long long)sd->active_before, (long long)sd->active, (long long)sd->excess,
                (long long)sd->rounds, (long long)sd->listed, sd->seconds);
}

/* A stretch of the team's, rated as the host's: the same as seq_stretch,
 * the state handed to seq where phase 1 is over (only a global relabel
 * that finds no active vertex says so: within a stretch the team's
 * heights are a guide) or the excess crawls (the parallel driver's rule:
 * seq takes such a tail for good). */
static int team_stretch(hybrid *y, int64_t *active, int64_t *excess, int *over, pf_status *st)
{
    pf_dev_stretch sd;
    int rc = pf_dev_session_stretch(y->team, y->stretch, team_slice(y), 1, &sd, st);
    if (rc)
        return rc;
    y->team_seconds += sd.seconds;
    y->team_work += sd.work;
    y->team_work_seconds += sd.seconds - sd.relabel_seconds;
    pf_hybrid_model_host(&y->model, y->team_entry_excess, sd.excess, sd.seconds);
    trace_stretch(y, "team", &sd);
    *active = sd.active;
    *excess = sd.excess;
    *over = sd.relabelled && sd.active_before == 0;
    if (*over || (sd.crawled && sd.active > 0))
        return team_to_seq(y, st);
    return PF_OK;
}

/* The host's state moves to a device that was ready before the first
 * stretch (the input took longer to read than the device to open), where
 * the rule wants it there. */
static int device_at_once(hybrid *y, pf_status *st)
{
    int rc = host_state_out(y, st);
    int64_t active = 0, excess = rc ? 0 : excess_outside_terminals(y, &active);
    if (!rc && wants_device(y, active, excess))
        rc = to_device(y, active, st);
    return rc;
}

/* Phase 1 in stretches until one finds no active vertex; the state is
 * seq's at the end. */
static int run_phase1(hybrid *y, pf_status *st)
{
    if (y->dev && !y->alternate) {
        int rc = device_at_once(y, st);
        if (rc)
            return rc;
    }
    for (;;) {
        if (pf_cancel_requested(y->opt))
            return pf_fail(st, PF_E_CANCELLED, "solve cancelled by the caller");
        int64_t active, excess;
        if (!y->on_device) {
            int over;
            int rc = y->in_team ? team_stretch(y, &active, &excess, &over, st)
                                : seq_stretch(y, &active, &excess, &over, st);
            if (rc || over)
                return rc;
            if (device_ready(y, 0) && wants_device(y, active, excess) &&
                (rc = to_device(y, active, st)))
                return rc;
            continue;
        }
        pf_dev_stretch sd;
        int rc = pf_dev_session_stretch(y->dev, y->stretch, 0, 1, &sd, st);
        if (rc)
            return rc;
        pf_hybrid_model_device(&y->model, sd.rounds, sd.listed, sd.excess, sd.seconds);
        trace_stretch(y, "device", &sd);
        if (sd.relabelled && sd.active_before == 0) { /* over, after an exact relabel */
            y->host_to_end = 1;
            return to_host(y, 0, 0, st);
        }
        active = sd.active;
        /* The excess crawls (a round per hop for a few vertices): the
         * host's work from here on, as without the hybrid (driver.c). */
        if (sd.crawled && active > 0) {
            y->host_to_end = 1;
            if ((rc = to_host(y, active, 1, st)))
                return rc;
            continue;
        }
        /* No vertex left active: the next relabel (the device's, cheap)
         * will most likely say phase 1 is over. */
        if (active > 0 && !wants_device(y, active, sd.excess) &&
            (rc = to_host(y, active, 1, st)))
            return rc;
    }
}

/* The host's team on the solve's graph (which is in the team's order:
 * pf_hybrid_graph_order), given the state seq's open made (the source's
 * arcs saturated). A team that does not open leaves the host to seq,
 * with a message. */
static int open_team(hybrid *y, const pf_device_ops *team_ops, pf_status *st)
{
    pf_solve_options team_opt = *y->opt;
    team_opt.threads = pf_threads_beside_opener(y->opt->threads);
    team_opt.device_index = -1; /* the option names the device's, not the team's */
    pf_status why;
    double t0 = pf_now();
    int failed = pf_dev_session_open(team_ops, y->h, &team_opt, &y->team, &why);
    if (y->trace)
        fprintf(stderr, "portaflow trace: hybrid team opened (%s) in %.4f s\n", team_ops->name,
                pf_now() - t0);
    if (failed) {
        pf_logger log = {.fn = y->opt->log, .data = y->opt->log_data};
        pf_log(&log, PF_LOG_WARNING, "hybrid: %s; seq is the host's engine", why.message);
        y->team = NULL;
        return PF_OK;
    }
    /* With a few hundred vertices active or fewer a device's rounds are
     * latency-bound, and the team's parallel stretches do better there
     * than any device: the device is first tried above. */
    if (y->model.start_active < TEAM_FIRST_TRY)
        y->model.start_active = TEAM_FIRST_TRY;
    pf_seq_run_excess(y->host, y->excess);
    return host_state_in(y, st);
}

/* The engines that took part, for the solution's device line. */
static void describe(const hybrid *y, char *text, size_t size)
{
    int len = 0;
    if (y->dev)
        len = snprintf(text, size, "%s + ", pf_dev_session_desc(y->dev)->name);
    if (y->team && len >= 0 && (size_t)len < size)
        len += snprintf(text + len, size - (size_t)len, "%s + ",
                        pf_dev_session_desc(y->team)->name);
    if (len >= 0 && (size_t)len < size)
        snprintf(text + len, size - (size_t)len, "host CPU, 1 thread%s",
                 y->dev ? "" : y->dev_failed ? " (the device failed)"
                                             : " (the device was not needed)");
}

int pf_hybrid_solve(pf_hybrid *open, const pf_residual *h, const pf_solve_options *opt,
                    pf_engine_out *out, pf_hybrid_event **events, int64_t *count,
                    const char **paired, pf_status *st)
{
    *events = NULL;
    *count = 0;
    *paired = NULL;
    /* stretches_here starts past the rule's two: the first move waits
     * for nothing but the device. */
    hybrid y = {.h = h, .opt = opt, .out = out, .open = open, .t_start = pf_now(),
                .stretches_here = 2};
    pf_hybrid_opener_post_graph(open, h);
    if (!out->res)
        return pf_fail(st, PF_E_USAGE, "hybrid: no residual output array");
    const pf_knob_values *knobs = pf_knobs();
    y.trace = knobs->trace != 0;
    y.stretch = knobs->hybrid_stretch;
    y.alternate = knobs->hybrid_switch == 1;
    pf_hybrid_model_init(&y.model, knobs->hybrid_start);

    int rc = PF_OK;
    y.excess = pf_alloc((size_t)h->n, sizeof *y.excess, st);
    if (!y.excess)
        rc = PF_E_NOMEM;
    if (!rc)
        rc = pf_seq_run_open(h, out->res, opt, &y.host, st);
    /* A device ready already takes the state at once (run_phase1): the
     * team's open would cost more than its help with what comes back. */
    if (!rc && open->team && (y.alternate || !device_ready(&y, 0)))
        rc = open_team(&y, open->team, st);
    /* The alternating test mode wants every switch it can get: it waits
     * for the device rather than finish on the host first. */
    if (!rc && y.alternate)
        device_ready(&y, 1);
    if (!rc)
        rc = run_phase1(&y, st);
    if (!rc && open->ops && !y.dev && !y.dev_failed)
        device_ready(&y, 1); /* a named backend: learn whether it opens */
    if (!rc && open->ops && y.dev_failed && !open->reached_graph) {
        /* The user named this backend and its device did not open: an
         * error, as without the hybrid (a device that opened but has no
         * room for the graph leaves the solve to the host instead). */
        pthread_mutex_lock(&open->lock);
        pf_status why = open->st;
        pthread_mutex_unlock(&open->lock);
        rc = pf_fail(st, PF_E_DEVICE, "%s", why.message);
    }
    pf_engine_out dev_counts = {0}, team_counts = {0};
    if (y.dev) {
        *paired = pf_dev_session_ops_name(y.dev);
        dev_counts = *pf_dev_session_counts(y.dev);
        out->device_bytes = pf_dev_session_bytes(y.dev);
    }
    if (y.team) {
        if (!*paired && y.team_seconds > 0)
            *paired = pf_dev_session_ops_name(y.team);
        team_counts = *pf_dev_session_counts(y.team);
        out->device_bytes += pf_dev_session_bytes(y.team);
    }
    describe(&y, out->device, sizeof out->device);
    char device[sizeof out->device];
    memcpy(device, out->device, sizeof device);
    uint64_t device_bytes = out->device_bytes;
    if (!rc)
        rc = pf_seq_run_finish(y.host, out, st);
    if (!rc) {
        memcpy(out->device, device, sizeof device);
        out->device_bytes = device_bytes;
        out->host_pushes = out->rounds;
        out->rounds = dev_counts.rounds + team_counts.rounds;
        out->global_relabels += dev_counts.global_relabels + team_counts.global_relabels;
        /* Wall time by step; the device's open and graph upload ran on
         * the other thread, under the host's stretches, and are left out. */
        double host_push = y.host_seconds - out->times.global_relabel;
        out->times.upload = y.transfer_seconds;
        out->times.push_relabel = (host_push > 0 ? host_push : 0) +
                                  dev_counts.times.push_relabel + team_counts.times.push_relabel;
        out->times.global_relabel +=
            dev_counts.times.global_relabel + team_counts.times.global_relabel;
        out->times.total = pf_now() - y.t_start;
        *events = y.events;
        *count = y.count;
        y.events = NULL;
        if (y.trace)
            fprintf(stderr,
                    "portaflow trace: hybrid %lld switches; host stretches %.4f s (seq), "
                    "%.4f s (team), transfers %.4f s\n",
                    (long long)y.count, y.host_seconds, y.team_seconds, y.transfer_seconds);
    }
    pf_dev_session_close(y.dev);
    pf_dev_session_close(y.team);
    pf_seq_run_free(y.host);
    free(y.excess);
    free(y.dev_res);
    free(y.events);
    return rc;
}
