/* A session's engines (session_internal.h): the graph built from a
 * network, and phase 1 resumed from the preflow the last solve and the
 * batches since left — on the device kept open (driver_session.c, only
 * the changes sent and read back), or on the host's sequential engine —
 * then the cut and a flow where the options ask for them.
 *
 * Why a solve is warm: the preflow stays a valid one through every batch
 * (dyn_graph.h), and push-relabel resumes from any valid preflow once a
 * global relabel has given exact labels, which every stretch begins with.
 * Only the vertices a batch disturbed are active then. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/network.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/seq/seq_engine.h"
#include "dev_check.h"
#include "session_internal.h"

/* The deleted ids of the graph before a rebuild, deleted again after it
 * (the network a rebuild starts from keeps them as arcs of capacity 0, so
 * that ids stay the same). */
static int delete_again(pf_dyn_graph *g, const uint8_t *deleted, int64_t ids, pf_status *st)
{
    int64_t count = 0;
    for (int64_t id = 0; id < ids; id++)
        count += deleted[id] != 0;
    if (!count)
        return PF_OK;
    pf_dyn_change *c = pf_calloc((size_t)count, sizeof *c, st);
    if (!c)
        return PF_E_NOMEM;
    count = 0;
    for (int64_t id = 0; id < ids; id++)
        if (deleted[id])
            c[count++] = (pf_dyn_change){.kind = PF_DYN_DEL, .id = id};
    int rc = pf_dyn_apply(g, c, count, NULL, st);
    free(c);
    return rc;
}

int pf_session_rebuild(pf_session *s, const pf_network *net, pf_status *st)
{
    int engine_order = s->ops->caps.forward_first_arcs || !s->ops->caps.maxflow_steps;
    pf_residual r;
    int rc = pf_residual_build(net, &r, pf_residual_order_for(engine_order), s->threads, st);
    if (rc)
        return rc;
    pf_dyn_params params;
    pf_dyn_params_default(&params);
    params.threads = s->threads;
    pf_dyn_graph fresh;
    memset(&fresh, 0, sizeof fresh);
    rc = pf_dyn_build(&r, NULL, NULL, &params, &fresh, st);
    pf_residual_free(&r);
    /* The residual graph drops self-loops: their ends come from the
     * network (whose vertex ids the view keeps; super terminals follow). */
    for (int64_t id = 0; !rc && id < fresh.ids && id < net->m; id++)
        if (fresh.slot_of[id] < 0) {
            fresh.tail_of[id] = net->tail[id];
            fresh.head_of[id] = net->head[id];
        }
    if (!rc && s->g.deleted)
        rc = delete_again(&fresh, s->g.deleted, s->g.ids < fresh.ids ? s->g.ids : fresh.ids, st);
    if (rc) {
        pf_dyn_free(&fresh);
        return rc;
    }
    pf_dyn_free(&s->g);
    s->g = fresh;
    s->g.all_dirty = 1;
    /* Without flows to report, a batch's deficits are covered, not
     * repaired (dyn_graph.h): value and cut come out the same. */
    s->g.cover_deficits = !s->opt.want_flow;
    s->n_input = net->n;
    s->super = pf_network_terminal_count(net, 0) > 1 || pf_network_terminal_count(net, 1) > 1;
    return PF_OK;
}

/* ---- phase 1 ------------------------------------------------------------ */

/* Solves after which a device session that found kept labels not worth
 * their cost tries them again (its batches may have changed kind). */
enum { LABELS_RETRY = 16 };

/* Whether a device session keeps the heights a solve ends with for the
 * next one: as PORTAFLOW_SESSION_LABELS says, else where the last time it
 * did cost less than the global relabel they replace (so on the first
 * solve), or LABELS_RETRY solves after it last did. */
static int keep_labels(const pf_session *s)
{
    int64_t knob = pf_knobs()->session_labels;
    if (knob != PF_KNOB_AUTO)
        return knob == 1;
    return s->keep_labels_s < s->first_relabel_s || s->labels_idle >= LABELS_RETRY;
}

/* On the device: the batch's changes sent (the touched slots and vertices,
 * or their pages), with the labels the last solve left where they are
 * kept (the first stretch then starts from them), stretches until a
 * global relabel finds no active vertex, what the stretches changed read
 * back; the heights too, for the cut (side) and the next solve. */
static int device_phase1(pf_session *s, uint8_t *side, pf_phase_times *t, pf_status *st)
{
    pf_dyn_graph *g = &s->g;
    pf_dev_pages pages = {.page_log2 = g->page_log2, .slots = g->dirty,
                          .vertices = g->vertex_dirty, .all = g->all_dirty,
                          .slot_list = g->touched[0], .vertex_list = g->touched[1],
                          .slot_count = g->touched_count[0],
                          .vertex_count = g->touched_count[1], .lists_full = g->touched_full};
    const int32_t *labels = NULL;
    const int kept = s->dev_labels != NULL;
    double t0 = pf_now();
    int rc = pf_session_dev_take(s, &labels, st);
    double repair_s = pf_now() - t0;
    t->upload += repair_s; /* the labels' repair, before they go up */
    double keep_s = s->labels_read_s + repair_s;
    /* Labels that could not be kept (their repair gave way) cost this
     * much on top of the relabel the solve still begins with. */
    if (kept && !labels)
        s->keep_labels_s = keep_s + s->first_relabel_s;
    t0 = pf_now();
    if (!rc)
        rc = pf_dev_session_update(s->dev, &g->view, g->res, g->excess, &pages, st);
    if (rc)
        return rc;
    pf_dyn_clean(g);
    double t1 = pf_now();
    t->upload += t1 - t0;
    if (labels) {
        rc = pf_dev_session_resume_heights(s->dev, labels, st);
        double sent_s = pf_now() - t1;
        keep_s += sent_s;
        t->upload += sent_s;
        s->keep_labels_s = keep_s;
    }
    if (kept && pf_knobs()->trace)
        fprintf(stderr,
                "portaflow trace: session labels %s: %.4g s (read back, repair%s); a global "
                "relabel %.4g s\n",
                labels ? "kept" : "dropped (the repair gave way)", keep_s,
                labels ? ", sent up" : "", s->first_relabel_s);
    pf_dev_stretch stretch;
    int first = 1;
    /* The last stretch is one that relabelled and found nothing active:
     * kept labels start a solve, but only exact ones can end it. */
    while (!rc) {
        rc = pf_dev_session_stretch(s->dev, 0, 0, 0, &stretch, st);
        if (!rc && pf_knobs()->trace)
            fprintf(stderr,
                    "portaflow trace: session stretch: %lld -> %lld active, %lld rounds over "
                    "%lld listed in %.4g s (global relabel %.4g s)\n",
                    (long long)stretch.active_before, (long long)stretch.active,
                    (long long)stretch.rounds, (long long)stretch.listed, stretch.seconds,
                    stretch.relabel_seconds);
        if (first && stretch.relabelled)
            s->first_relabel_s = stretch.relabel_seconds;
        first = 0;
        t->global_relabel += stretch.relabel_seconds;
        t->push_relabel += stretch.seconds - stretch.relabel_seconds;
        if (!rc && pf_cancel_requested(&s->opt))
            rc = pf_fail(st, PF_E_CANCELLED, "solve cancelled by the caller");
        if (stretch.relabelled && stretch.active_before == 0)
            break;
    }
    double t2 = pf_now();
    int64_t values_read = 0;
    if (!rc)
        rc = pf_dev_session_get_changed(s->dev, g->res, g->excess, &values_read, st);
    (void)values_read; /* what came back: the download time says it */
    /* The device keeps the source's excess (its pushes take what they
     * add), so that comes back with the rest: no pass over every vertex to
     * recompute it (bench/NOTES.md 77); the test suites check it. Every
     * stretch's relabel saturated the source's arcs on the device: nothing
     * to push here, but the host's copy must hold what the device does. */
    int64_t shortfall = !rc && pf_dev_check_enabled() ? pf_dyn_source_shortfall(g) : 0;
    if (shortfall != 0)
        rc = pf_fail(st, PF_E_VERIFY,
                     "session: the source's excess read back is %lld off minus the others' sum",
                     (long long)shortfall);
    if (!rc && pf_dyn_saturate_source(g) != 0)
        g->all_dirty = 1;
    double t3 = pf_now();
    int keep = keep_labels(s);
    s->labels_idle = keep ? 0 : s->labels_idle + 1;
    if (!rc && (keep || side))
        rc = pf_session_dev_keep(s, st);
    s->labels_read_s = side ? 0 : pf_now() - t3;
    t->download += pf_now() - t2;
    for (int64_t v = 0; !rc && side && v < g->view.n; v++)
        side[v] = s->dev_labels[v] >= g->view.n; /* height n: cannot reach the sink */
    if (rc || !keep) {
        free(s->dev_labels);
        s->dev_labels = NULL;
    }
    return rc;
}

/* On the host's sequential engine, over the session's own arrays: the run
 * the last solve left, resumed from its labels where they can be kept
 * (session_labels.c), else a new one that starts with a global relabel;
 * the run is kept for the next solve. */
static int host_phase1(pf_session *s, uint8_t *side, pf_phase_times *t, pf_status *st)
{
    pf_dyn_graph *g = &s->g;
    pf_solve_options opt = s->opt;
    opt.want_flow = 0;
    pf_seq_run *run = NULL;
    double t0 = pf_now();
    int rc = pf_session_seq_take(s, &run, st);
    if (!rc && run)
        rc = pf_seq_run_resume(run, &g->view, g->res, g->excess, &opt, st);
    else if (!rc)
        rc = pf_seq_run_open_preflow(&g->view, g->res, g->excess, &opt, &run, st);
    pf_seq_stretch stretch = {0};
    while (!rc) {
        rc = pf_seq_run_stretch(run, 0, &stretch, st);
        if (rc || stretch.active == 0)
            break;
    }
    if (!rc) {
        pf_seq_run_excess(run, g->excess);
        pf_dyn_take_preflow(g); /* the source's excess, which the engine does not track */
        t->push_relabel += pf_now() - t0;
    }
    if (!rc && side) {
        pf_engine_out out = {.res = g->res, .source_side = side};
        rc = pf_seq_run_finish(run, &out, st);
        t->global_relabel += out.times.global_relabel;
    }
    if (!rc) {
        pf_session_seq_keep(s, run);
        run = NULL;
    }
    pf_seq_run_free(run);
    pf_dyn_clean(g);
    return rc;
}

/* ---- the flow ------------------------------------------------------------ */

/* Residuals of a maximum flow into res (slots), from the preflow: phase 2
 * on the device, or on the host over a copy (the session keeps its
 * preflow either way). */
static int flow_residuals(pf_session *s, int64_t *res, pf_phase_times *t, pf_status *st)
{
    double t0 = pf_now();
    if (s->dev) {
        int rc = pf_dev_session_flow(s->dev, res, st);
        t->phase2 += pf_now() - t0;
        return rc;
    }
    const pf_dyn_graph *g = &s->g;
    int64_t *excess = pf_alloc((size_t)g->view.n, sizeof *excess, st);
    if (!excess)
        return PF_E_NOMEM;
    memcpy(res, g->res, (size_t)g->view.arcs * sizeof *res);
    memcpy(excess, g->excess, (size_t)g->view.n * sizeof *excess);
    pf_solve_options opt = s->opt;
    opt.want_flow = 1;
    pf_seq_run *run = NULL;
    int rc = pf_seq_run_open_preflow(&g->view, res, excess, &opt, &run, st);
    pf_engine_out out = {.res = res};
    if (!rc)
        rc = pf_seq_run_finish(run, &out, st);
    pf_seq_run_free(run);
    free(excess);
    t->phase2 += pf_now() - t0;
    return rc;
}

/* ---- a solve --------------------------------------------------------------- */

/* The solution's per-id flows (residual of the reverse slot) and per-user-
 * vertex cut from the view's arrays. */
static int fill_solution(pf_session *s, const int64_t *flow_res, const uint8_t *side_view,
                         pf_solution *sol, pf_status *st)
{
    const pf_dyn_graph *g = &s->g;
    if (flow_res) {
        sol->arc_flow = pf_calloc((size_t)(g->ids ? g->ids : 1), sizeof *sol->arc_flow, st);
        if (!sol->arc_flow)
            return PF_E_NOMEM;
        for (int64_t id = 0; id < g->ids; id++) {
            int64_t slot = g->slot_of[id];
            sol->arc_flow[id] = slot < 0 ? 0 : flow_res[g->view.rev[slot]];
        }
    }
    if (side_view) {
        sol->source_side = pf_alloc((size_t)s->n_user, 1, st);
        if (!sol->source_side)
            return PF_E_NOMEM;
        for (int64_t v = 0; v < s->n_user; v++)
            sol->source_side[v] = side_view[pf_session_view_id(s, v)];
    }
    return PF_OK;
}

int pf_session_run(pf_session *s, pf_solution *sol, pf_status *st)
{
    pf_dyn_graph *g = &s->g;
    pf_phase_times t = {0};
    uint8_t *side = s->opt.want_cut ? pf_calloc((size_t)g->view.n, 1, st) : NULL;
    int64_t *flow_res = s->opt.want_flow ? pf_alloc((size_t)g->view.arcs, sizeof *flow_res, st)
                                         : NULL;
    int rc = (s->opt.want_cut && !side) || (s->opt.want_flow && !flow_res) ? PF_E_NOMEM : PF_OK;
    if (!rc)
        rc = s->dev ? device_phase1(s, side, &t, st) : host_phase1(s, side, &t, st);
    if (!rc) {
        pf_dyn_cover_trim(g);
        sol->value = pf_dyn_value(g);
    }
    if (!rc && flow_res)
        rc = flow_residuals(s, flow_res, &t, st);
    if (!rc)
        rc = fill_solution(s, flow_res, side, sol, st);
    if (!rc) {
        sol->times = t;
        sol->scale_log2 = s->scale_log2;
        snprintf(sol->backend, sizeof sol->backend, "%s", s->ops->name);
        if (s->dev)
            snprintf(sol->device, sizeof sol->device, "%s", pf_dev_session_desc(s->dev)->name);
        else
            snprintf(sol->device, sizeof sol->device, "host CPU, 1 thread");
        sol->device_bytes = s->dev ? pf_dev_session_bytes(s->dev) : 0;
        const pf_engine_out *counts = s->dev ? pf_dev_session_counts(s->dev) : NULL;
        if (counts) {
            sol->pushes_rounds = counts->rounds;
            sol->global_relabels = counts->global_relabels;
        }
    } else {
        pf_solution_free(sol);
    }
    free(side);
    free(flow_res);
    return rc;
}
