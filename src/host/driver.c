/* The parallel push-relabel driver, written once for every backend.
 *
 * Phase 1 pushes from the source toward the sink; phase 2 (only when a
 * flow is wanted) runs the very same loop toward the source to return the
 * excess that cannot reach the sink, which turns the preflow into a flow.
 * Each phase alternates global relabels (violation cancelling, then a
 * level-synchronous reverse BFS from the target on the device, its levels
 * queued in batches) with rounds of lock-free push-relabel over the active
 * vertices only, in which a worker may follow its excess into the
 * neighbour it drained into (g.follow_excess). A phase ends
 * only right after a global relabel finds no active vertex, so the answer
 * never rests on heights that concurrent pushes may have left stale.
 * Graph data stays on the device; per round only a few scalars come back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/omp_threads.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/device.h"
#include "dev_check.h"
#include "early_open.h"
#include "driver_internal.h"
#include "registry.h"

static int drv_dev_alloc(driver *d, pf_buf **buf, size_t count, size_t elem, pf_status *st)
{
    size_t bytes = (count ? count : 1) * elem;
    d->bytes += bytes;
    return d->ops->alloc(d->dev, bytes, buf, st);
}

/* Device bytes the solve holds (the buffers of pf_dev_graph): per arc
 * head, rev and res (16 B with 64-bit residuals, 12 B with 32-bit ones),
 * per vertex first, excess, height, flags, two lists and owner (36 B or
 * 32 B). */
static uint64_t drv_graph_bytes(const pf_residual *h, int cap_bits)
{
    uint64_t n = (uint64_t)h->n, arcs = (uint64_t)h->arcs, cap = (uint64_t)cap_bits / 8;
    return (n + 1) * 8 + arcs * (4 + 4 + cap) + n * (cap + 4 + 4 + 4 + 4 + 4) +
           PF_CTR_COUNT * 8;
}

/* ---- width of residuals and excess ----------------------------------- */

/* 32 when int32 residuals and excess provably never overflow on the
 * graph, else 64; *clamp gets the value every capacity may be clamped to
 * (S + 1). pf_kernels.h has the proof: with S the source's residual
 * capacity (f->supply), every excess stays within [-S, S], and with
 * capacities clamped to S + 1 (which changes neither the flow value nor
 * the cut found) a residual stays within its pair's clamped sum. A pair
 * here is an input arc and its reverse, whose initial residual is 0
 * (residual.h), so that sum is at most S + 1: S + 1 < 2^31 is all it
 * takes, whatever parallel or antiparallel arcs there are. The capacity
 * into the sink does not bound them: the source pushes all of S into the
 * graph first, whatever reaches the sink. */
static int cap_bits_needed(const drv_facts *f, int64_t *clamp)
{
    if (f->supply >= INT32_MAX)
        return 64;
    *clamp = f->supply + 1;
    return 32;
}

void drv_facts_of_residual(const pf_residual *h, drv_facts *f)
{
    int64_t supply = 0, total = 0;
    int supply_over = 0;
    for (int64_t a = h->first[h->source]; a < h->first[h->source + 1]; a++)
        supply_over |= __builtin_add_overflow(supply, h->cap[a], &supply);
    f->supply = supply_over ? INT64_MAX : supply;
    f->total_overflows = 0;
    for (int64_t a = 0; a < h->arcs && !f->total_overflows; a++)
        f->total_overflows = __builtin_add_overflow(total, h->cap[a], &total);
}

/* g.cap_bits for this device and graph. PORTAFLOW_CAP_BITS=32|64 forces a
 * width (measurements); otherwise 64 where the device has 64-bit atomics
 * (32 bits were measured no faster there: the narrowing and widening on
 * the host cost more than the halved residual bytes save), else 32 where
 * the graph allows it. A width the device or the graph cannot take is refused
 * with the reason and the fix. */
int drv_choose_cap_bits(driver *d, const pf_device_desc *desc, int64_t *clamp, pf_status *st)
{
    int forced = pf_knobs()->cap_bits == PF_KNOB_AUTO ? 0 : (int)pf_knobs()->cap_bits;
    int has32 = (desc->maxflow_bits & PF_MAXFLOW_32) != 0;
    int has64 = (desc->maxflow_bits & PF_MAXFLOW_64) != 0;
    int graph = cap_bits_needed(&d->facts, clamp);
    int bits = forced ? forced : has64 ? 64 : 32;
    if (bits == 64 && !has64)
        return pf_fail(st, PF_E_DEVICE,
                       "%s: %s runs max-flow with 32-bit residuals only (no 64-bit atomics); "
                       "unset PORTAFLOW_CAP_BITS, or use --backend omp or seq",
                       d->ops->name, desc->name);
    if (bits == 32 && !has32)
        return pf_fail(st, PF_E_DEVICE,
                       "%s: %s runs max-flow with 64-bit residuals only; unset "
                       "PORTAFLOW_CAP_BITS", d->ops->name, desc->name);
    if (bits == 32 && graph == 64)
        return pf_fail(st, PF_E_DEVICE,
                       "%s: this graph needs 64-bit residuals (the source's capacity is %lld; "
                       "32 bits take at most 2^31 - 2) and %s%s; --backend omp or seq solves "
                       "it",
                       d->ops->name, (long long)d->facts.supply, desc->name,
                       forced ? " was asked for 32 bits (PORTAFLOW_CAP_BITS=32)"
                              : " has no 64-bit atomics");
    d->g.cap_bits = bits;
    return PF_OK;
}

/* The capacities as the 32-bit path uploads them (clamped). */
int drv_make_cap32(driver *d, int64_t clamp, pf_status *st)
{
    const pf_residual *h = d->host;
    d->cap32 = pf_alloc((size_t)(h->arcs ? h->arcs : 1), sizeof *d->cap32, st);
    if (!d->cap32)
        return PF_E_NOMEM;
    for (int64_t a = 0; a < h->arcs; a++)
        d->cap32[a] = (int32_t)(h->cap[a] < clamp ? h->cap[a] : clamp);
    return PF_OK;
}

/* Reads count elements of a res or excess buffer from element `at` on as
 * int64, whatever the width on the device. */
int drv_download_caps(driver *d, pf_buf *buf, int64_t at, int64_t count, int64_t *dst,
                         pf_status *st)
{
    if (d->g.cap_bits == 64)
        return d->ops->download(d->dev, buf, (size_t)at * 8, dst, (size_t)count * 8, st);
    int32_t *narrow = pf_alloc((size_t)(count ? count : 1), sizeof *narrow, st);
    if (!narrow)
        return PF_E_NOMEM;
    int rc = d->ops->download(d->dev, buf, (size_t)at * 4, narrow, (size_t)count * 4, st);
    for (int64_t i = 0; !rc && i < count; i++)
        dst[i] = narrow[i];
    free(narrow);
    return rc;
}

/* Every residual, as the input graph's (the clamping undone). */
int drv_download_residuals(driver *d, int64_t *res, pf_status *st)
{
    const pf_residual *h = d->host;
    int rc = drv_download_caps(d, d->g.res, 0, h->arcs, res, st);
    for (int64_t a = 0; !rc && d->cap32 && a < h->arcs; a++)
        res[a] += h->cap[a] - d->cap32[a];
    return rc;
}

int drv_alloc_graph(driver *d, const pf_device_desc *desc, pf_status *st)
{
    const pf_residual *h = d->host;
    /* Drivers may allocate lazily and fail later, deep in a step: say up
     * front when the graph cannot fit. */
    uint64_t need = drv_graph_bytes(h, d->g.cap_bits);
    if (desc->global_mem && need > desc->global_mem)
        return pf_fail(st, PF_E_DEVICE,
                       "%s: the graph needs %.1f MiB of device memory, %s has %.1f MiB",
                       d->ops->name, (double)need / 1048576.0, desc->name,
                       (double)desc->global_mem / 1048576.0);
    pf_dev_graph *g = &d->g;
    g->n = h->n;
    g->arcs = h->arcs;
    g->source = h->source;
    g->sink = h->sink;
    g->follow_excess = (int32_t)pf_knobs()->follow;
    /* A session's buffers may hold more than h, so that the graph can grow
     * in place (room_n, room_arcs). */
    size_t n = (size_t)(h->n > d->room_n ? h->n : d->room_n);
    size_t arcs = (size_t)(h->arcs > d->room_arcs ? h->arcs : d->room_arcs);
    size_t cap = (size_t)g->cap_bits / 8;
    d->alloc_n = (int64_t)n;
    d->alloc_arcs = (int64_t)arcs;
    int rc;
    if ((rc = drv_dev_alloc(d, &g->first, n + 1, 8, st)) ||
        (rc = drv_dev_alloc(d, &g->head, arcs, 4, st)) ||
        (rc = drv_dev_alloc(d, &g->rev, arcs, 4, st)) ||
        (rc = drv_dev_alloc(d, &g->res, arcs, cap, st)) ||
        (rc = drv_dev_alloc(d, &g->excess, n, cap, st)) ||
        (rc = drv_dev_alloc(d, &g->height, n, 4, st)) ||
        (rc = drv_dev_alloc(d, &g->flags, n, 4, st)) ||
        (rc = drv_dev_alloc(d, &g->list_a, n, 4, st)) ||
        (rc = drv_dev_alloc(d, &g->list_b, n, 4, st)) ||
        (rc = drv_dev_alloc(d, &g->counters, PF_CTR_COUNT, 8, st)) ||
        (rc = drv_dev_alloc(d, &g->owner, n, 4, st)))
        return rc;
    return PF_OK;
}

void drv_release_graph(driver *d)
{
    pf_buf **bufs[] = {&d->g.first,  &d->g.head,   &d->g.rev,      &d->g.res,
                       &d->g.excess, &d->g.height, &d->g.flags,    &d->g.list_a,
                       &d->g.list_b, &d->g.counters, &d->g.owner, &d->input_rev};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        if (*bufs[i]) {
            d->ops->release(d->dev, *bufs[i]);
            *bufs[i] = NULL;
        }
    d->bytes = 0;
    d->alloc_n = d->alloc_arcs = 0;
}

int drv_rev_device_form(const driver *d, const pf_residual *h, int32_t *out, pf_status *st)
{
    if (!d->ops->caps.rev_absolute)
        return pf_residual_rev_offsets(h, out, d->host_threads, st);
    pf_residual_rev_indices(h, (uint32_t *)out, d->host_threads);
    return PF_OK;
}

int drv_upload_graph(driver *d, pf_status *st)
{
    const pf_device_ops *ops = d->ops;
    const pf_residual *h = d->host;
    size_t n = (size_t)h->n, arcs = (size_t)h->arcs;
    int32_t *rev_device = pf_alloc(arcs ? arcs : 1, sizeof *rev_device, st);
    if (!rev_device)
        return PF_E_NOMEM;
    int rc = drv_rev_device_form(d, h, rev_device, st);
    if (!rc)
        rc = ops->upload(d->dev, d->g.rev, 0, rev_device, arcs * 4, st);
    free(rev_device);
    if (rc ||
        (rc = ops->upload(d->dev, d->g.first, 0, h->first, (n + 1) * 8, st)) ||
        (rc = ops->upload(d->dev, d->g.head, 0, h->head, arcs * 4, st)) ||
        (rc = d->cap32 ? ops->upload(d->dev, d->g.res, 0, d->cap32, arcs * 4, st)
                       : ops->upload(d->dev, d->g.res, 0, h->cap, arcs * 8, st)))
        return rc;
    return drv_reset_preflow(d, st);
}

int drv_reset_preflow(driver *d, pf_status *st)
{
    const pf_device_ops *ops = d->ops;
    int64_t n = d->g.n;
    int rc;
    if ((rc = d->g.cap_bits == 32 ? ops->fill_i32(d->dev, d->g.excess, 0, n, st)
                                  : ops->fill_i64(d->dev, d->g.excess, 0, n, st)) ||
        (rc = ops->fill_i32(d->dev, d->g.height, 0, n, st)) ||
        /* every claim free, in a session's room for new vertices too */
        (rc = ops->fill_i32(d->dev, d->g.owner, 0, d->alloc_n > n ? d->alloc_n : n, st)) ||
        (rc = ops->fill_i64(d->dev, d->g.counters, 0, PF_CTR_COUNT, st)))
        return rc;
    return ops->sync(d->dev, st);
}

/* Rebuilds the active list in list_a (mark, then compaction). */
int drv_collect_active(driver *d, pf_status *st)
{
    int rc = d->ops->mark_active(d->dev, &d->g, d->g.flags, st);
    if (!rc)
        rc = d->ops->filter_i32(d->dev, d->g.flags, d->g.list_a, d->g.n, &d->active, st);
    return rc;
}

/* Exact distances to `target` by reverse BFS; vertices it does not reach
 * (and `excluded`) keep height n: dead for this phase (the gap heuristic).
 * Uses list_b and flags as the two frontiers so list_a (the active list)
 * survives. */
/* With tracing on: waits for the device and adds the time since *since
 * to *total. */
static void trace_lap(driver *d, double *since, double *total)
{
    if (!d->trace)
        return;
    pf_status ignored;
    d->ops->sync(d->dev, &ignored);
    double now = pf_now();
    *total += now - *since;
    *since = now;
}

int drv_global_relabel(driver *d, int32_t target, int32_t excluded, int32_t resaturate,
                          pf_status *st)
{
    const pf_device_ops *ops = d->ops;
    pf_dev_graph *g = &d->g;
    double lap = pf_now(), begun = lap;
    int rc = drv_collect_active(d, st);
    trace_lap(d, &lap, &d->trace_collect);
    if (!rc && d->active > 0)
        rc = ops->cancel_violations(d->dev, g, g->list_a, d->active, st);
    trace_lap(d, &lap, &d->trace_cancel);
    int32_t zero = 0;
    if (!rc)
        rc = ops->fill_i32(d->dev, g->height, (int32_t)g->n, g->n, st);
    if (!rc)
        rc = ops->upload(d->dev, g->height, (size_t)target * 4, &zero, 4, st);
    if (!rc)
        rc = ops->upload(d->dev, g->list_b, 0, &target, 4, st);
    /* Launches go to the device in batches (no host round trip per
     * launch); batches grow so shallow graphs do not queue many empty
     * ones, up to 64 levels' worth. */
    pf_buf *frontier[2] = {g->list_b, g->flags};
    int64_t count = 1;
    int32_t hops = d->gr_hops, batch = 4, most = 64 / hops > 4 ? 64 / hops : 4;
    int32_t level = 0;
    for (; !rc && count > 0; level += batch, batch *= batch < most ? 2 : 1) {
        rc = ops->bfs_levels(d->dev, g, frontier, level, batch, hops, excluded, &count, st);
        if (batch % 2) {
            pf_buf *t = frontier[0];
            frontier[0] = frontier[1];
            frontier[1] = t;
        }
    }
    /* the claims of bfs_levels back to free */
    if (!rc && hops > 1)
        rc = ops->fill_i32(d->dev, g->owner, 0, g->n, st);
    d->trace_launches += level;
    trace_lap(d, &lap, &d->trace_bfs);
    /* The source has unlimited supply: whatever it can newly reach gets
     * saturated, so the source never reaches the sink at the end. */
    if (!rc && resaturate >= 0)
        rc = ops->saturate_from(d->dev, g, resaturate, st);
    trace_lap(d, &lap, &d->trace_saturate);
    d->out->global_relabels++;
    /* the BFS waited for its last level's count: most of it is in */
    d->last_gr_seconds = pf_now() - begun;
    return rc;
}

static int draw_progress(driver *d, const char *phase, int32_t target, int64_t grs)
{
    if (!pf_progress_due(&d->progress))
        return PF_OK;
    int64_t at_target = 0;
    pf_status ignored;
    drv_download_caps(d, d->g.excess, target, 1, &at_target, &ignored);
    pf_progress_draw(&d->progress, phase, d->active, at_target, grs);
    return PF_OK;
}

/* Rounds of push-relabel over the active list until the work done calls
 * for a global relabel, the round cap (or `max_rounds`) is reached, the
 * rounds took gr_time times the last relabel's wall time (d->time_cut),
 * or no vertex is active; *listed gets the sum of the list sizes (the
 * vertices processed, the hybrid's rate). The round cap catches excess
 * bouncing between a few vertices with little relabel work (seen with the
 * one-hop body): heights go stale while the work measure stays low. The
 * time bound catches the same where a relabel is cheap (bench/NOTES.md
 * 76: excess the last relabel left able to reach the sink is pushed there
 * in the first rounds; what is left climbs heights that the next relabel
 * sets to n at once). */
int drv_run_rounds(driver *d, const char *phase, int32_t target, int64_t max_rounds,
                   double max_work, int64_t *listed, double *work_done, pf_status *st)
{
    double gr_work = d->gr_alpha * (double)d->g.n + (double)d->g.arcs / 2;
    if (max_work < gr_work)
        gr_work = max_work;
    int64_t cap = d->gr_max_rounds < max_rounds ? d->gr_max_rounds : max_rounds;
    double work = 0, begun = pf_now();
    double time_cap = d->gr_time > 0 && d->last_gr_seconds > 0
                          ? d->gr_time * d->last_gr_seconds : INFINITY;
    int rc = PF_OK;
    d->peak_active = d->active;
    d->time_cut = 0;
    for (int64_t rounds = 0; !rc && d->active > 0 && work < gr_work && rounds < cap; rounds++) {
        if (rounds > 0 && pf_now() - begun >= time_cap) {
            d->time_cut = 1;
            d->time_cuts++;
            break;
        }
        int64_t round_work = 0;
        /* What is left of the budget, for a backend that discharges
         * asynchronously (device.h); the others make one pass. */
        d->g.work_budget = d->async ? (int64_t)(gr_work - work) + 1 : 0;
        *listed += d->active;
        double lap = pf_now();
        rc = d->ops->push_relabel(d->dev, &d->g, d->g.list_a, d->active, d->cycles, &round_work,
                                  st);
        trace_lap(d, &lap, &d->trace_push);
        if (!rc)
            rc = drv_collect_active(d, st);
        trace_lap(d, &lap, &d->trace_listing);
        if (d->active > d->peak_active)
            d->peak_active = d->active;
        work += (double)round_work;
        d->out->rounds++;
        draw_progress(d, phase, target, d->out->global_relabels);
        if (!rc && pf_cancel_requested(d->opt))
            rc = pf_fail(st, PF_E_CANCELLED, "solve cancelled by the caller");
    }
    *work_done = work;
    return rc;
}

/* One phase: push-relabel toward `target`, never through `excluded`. With
 * handoff_active > 0 it stops early (*crawling set) when the excess crawls:
 * the batch of rounds since the last global relabel ran to the round cap
 * before doing the work that calls for a relabel, with at most
 * handoff_active vertices active in any of its rounds. What is left is
 * sequential work that costs the device a round per hop and the host a few
 * nanoseconds (AK: a few hundred active vertices whose excess creeps along
 * paths tens of thousands of arcs long; the tail of RMFGEN's phase 1). A
 * solve's start, with few active vertices, is no crawl: its batches do the
 * relabel work first. */
static int run_phase(driver *d, const char *phase, int32_t target, int32_t excluded,
                     int32_t resaturate, int64_t handoff_active, int *crawling, double *pr_time,
                     double *gr_time, pf_status *st)
{
    int rc = PF_OK;
    int crawled = 0;
    for (;;) {
        double t0 = pf_now();
        rc = drv_global_relabel(d, target, excluded, resaturate, st);
        if (!rc)
            rc = drv_collect_active(d, st);
        *gr_time += pf_now() - t0;
        if (rc || d->active == 0)
            break;
        if (handoff_active > 0 && crawled && d->peak_active <= handoff_active) {
            *crawling = 1;
            break;
        }
        t0 = pf_now();
        int64_t listed = 0, rounds_before = d->out->rounds;
        double work;
        rc = drv_run_rounds(d, phase, target, INT64_MAX, INFINITY, &listed, &work, st);
        *pr_time += pf_now() - t0;
        if (rc)
            break;
        crawled = d->out->rounds - rounds_before == d->gr_max_rounds;
    }
    return rc;
}

int drv_run_phase(driver *d, const char *phase, int32_t target, int32_t excluded,
                  int32_t resaturate, double *pr_time, double *gr_time, pf_status *st)
{
    int crawling = 0;
    return run_phase(d, phase, target, excluded, resaturate, 0, &crawling, pr_time, gr_time,
                     st);
}

/* The graph in the sequential engine's arc order: h itself, or a relayout
 * of it into *relaid with its own residual array *relaid_res. */
static int seq_layout(driver *d, pf_residual *relaid, int64_t **relaid_res, int *is_relaid,
                      pf_status *st)
{
    const pf_residual *h = d->host;
    pf_arc_order order = pf_residual_order_for(1);
    *is_relaid = h->order != order;
    if (!*is_relaid)
        return PF_OK;
    int rc = pf_residual_relayout(h, order, relaid, d->host_threads, st);
    if (rc)
        return rc;
    *relaid_res = pf_alloc((size_t)h->arcs + 1, sizeof **relaid_res, st);
    return *relaid_res ? PF_OK : PF_E_NOMEM;
}

/* Phase 1 on the host from the device's preflow, then the cut and phase 2:
 * the residuals read back into d->out->res (and laid out again into `res`
 * over `g` where the host engine's order differs), the excesses into
 * `excess`. */
static int run_on_host(driver *d, const pf_residual *g, int64_t *res, int64_t *excess,
                       pf_engine_out *host, pf_status *st)
{
    const pf_residual *h = d->host;
    double t0 = pf_now();
    int rc = drv_download_residuals(d, d->out->res, st);
    if (!rc)
        rc = drv_download_caps(d, d->g.excess, 0, h->n, excess, st);
    d->out->times.download += pf_now() - t0;
    if (rc)
        return rc;
    if (res != d->out->res)
        pf_residual_copy_residuals(h, d->out->res, g, res, d->host_threads);
    pf_seq_run *run = NULL;
    rc = pf_seq_run_open_preflow(g, res, excess, d->opt, &run, st);
    pf_seq_stretch stretch = {.active = 1};
    while (!rc && stretch.active > 0)
        rc = pf_seq_run_stretch(run, 0, &stretch, st);
    if (!rc)
        rc = pf_seq_run_finish(run, host, st);
    pf_seq_run_free(run);
    return rc;
}

/* The host's sequential engine takes the preflow over (read back from the
 * device) and does the rest: phase 1, the cut, and phase 2 when a flow is
 * wanted; d->out gets the value, the cut, the residuals and the host's
 * counts and times. It runs on its own arc order (residual.h), which AK,
 * handed over nearly whole, needs; the relayout costs about one residual
 * build, once. */
static int finish_on_host(driver *d, pf_status *st)
{
    int rc = d->host_graph_now ? d->host_graph_now(d, st) : PF_OK;
    if (rc)
        return rc;
    const pf_residual *h = d->host;
    pf_engine_out *out = d->out;
    if (d->trace)
        fprintf(stderr,
                "portaflow trace: phase 1 crawls (%lld active at most in the last %lld rounds): "
                "the host's sequential engine finishes it\n",
                (long long)d->peak_active, (long long)d->gr_max_rounds);
    int64_t *excess = pf_alloc((size_t)h->n, sizeof *excess, st);
    if (!excess)
        return PF_E_NOMEM;
    double t0 = pf_now();
    pf_residual relaid = {0};
    int64_t *relaid_res = NULL;
    int is_relaid = 0;
    rc = seq_layout(d, &relaid, &relaid_res, &is_relaid, st);
    out->times.setup += pf_now() - t0;

    pf_engine_out host = {.res = is_relaid ? relaid_res : out->res,
                          .source_side = out->source_side};
    if (!rc)
        rc = run_on_host(d, is_relaid ? &relaid : h, host.res, excess, &host, st);
    if (!rc && is_relaid)
        pf_residual_copy_residuals(&relaid, relaid_res, h, out->res, d->host_threads);
    pf_residual_free(&relaid); /* zeroed where there was none */
    free(relaid_res);
    free(excess);
    if (rc)
        return rc;
    out->value = host.value;
    out->global_relabels += host.global_relabels;
    out->host_pushes = host.rounds;
    out->times.setup += host.times.setup;
    out->times.push_relabel += host.times.push_relabel;
    out->times.global_relabel += host.times.global_relabel;
    out->times.phase2 += host.times.phase2;
    return PF_OK;
}

/* Phase 1 of a whole solve: run_phase toward the sink, except that once
 * the excess crawls (see run_phase) with at most PORTAFLOW_HANDOFF vertices
 * active the host's sequential engine takes the preflow over and does the
 * rest of phase 1, the cut and phase 2 (*handed_off set). */
static int run_phase1(driver *d, int *handed_off, pf_status *st)
{
    const pf_residual *h = d->host;
    pf_engine_out *out = d->out;
    /* The host engine needs the residuals in out->res, which a caller may
     * leave out; a graph built on the device gets them, and its host copy,
     * at the handoff (d->host_graph_now). */
    int64_t handoff_active = out->res || d->host_graph_now ? pf_knobs()->handoff : 0;
    *handed_off = 0;
    int rc = run_phase(d, "phase 1", h->sink, h->source, h->source, handoff_active, handed_off,
                       &out->times.push_relabel, &out->times.global_relabel, st);
    if (!rc && *handed_off)
        rc = finish_on_host(d, st);
    return rc;
}

static int download_results(driver *d, pf_status *st)
{
    const pf_device_ops *ops = d->ops;
    const pf_residual *h = d->host;
    pf_engine_out *out = d->out;
    double t0 = pf_now();
    int rc = drv_download_caps(d, d->g.excess, h->sink, 1, &out->value, st);
    if (!rc && out->source_side) {
        int32_t *height = pf_alloc((size_t)h->n, sizeof *height, st);
        if (!height)
            return PF_E_NOMEM;
        rc = ops->download(d->dev, d->g.height, 0, height, (size_t)h->n * 4, st);
        /* After the final phase-1 relabel, height n = cannot reach the sink. */
        for (int64_t v = 0; !rc && v < h->n; v++)
            out->source_side[v] = height[v] >= h->n;
        free(height);
    }
    out->times.download += pf_now() - t0;
    return rc;
}

/* After phase 2 every vertex but the terminals must balance; anything else
 * is a backend fault, reported rather than printed as a wrong flow. */
int drv_check_balanced(driver *d, pf_status *st)
{
    const pf_residual *h = d->host;
    int64_t *excess = pf_alloc((size_t)h->n, sizeof *excess, st);
    if (!excess)
        return PF_E_NOMEM;
    int rc = drv_download_caps(d, d->g.excess, 0, h->n, excess, st);
    for (int64_t v = 0; !rc && v < h->n; v++)
        if (v != h->source && v != h->sink && excess[v] != 0)
            rc = pf_fail(st, PF_E_DEVICE,
                         "%s: phase 2 left excess %lld at vertex %lld (backend fault)",
                         d->ops->name, (long long)excess[v], (long long)v + 1);
    free(excess);
    return rc;
}

/* What a device cannot hold. Excess is int64 on every backend: with all
 * capacities summing below 2^63 no excess, residual or flow value can
 * overflow. Larger totals (up to 2^62 per arc is legal input) are left to
 * the sequential engine, which bounds the source's supply itself; so are
 * graphs past a backend's 32-bit reverse-arc indices. */
int drv_check_limits(const pf_device_ops *ops, int64_t arcs, const drv_facts *f, pf_status *st)
{
    if (ops->caps.rev_absolute && (uint64_t)arcs > UINT32_MAX)
        return pf_fail(st, PF_E_DEVICE,
                       "%s: %lld residual arcs, more than its 32-bit reverse-arc indices "
                       "reach (2^32); --backend seq solves it",
                       ops->name, (long long)arcs);
    if (f->total_overflows)
        return pf_fail(st, PF_E_DEVICE,
                       "%s: capacities sum past 2^63, which int64 excess cannot hold on a "
                       "device; --backend seq solves it",
                       ops->name);
    return PF_OK;
}

/* ---- the device opened early ------------------------------------------ */

struct pf_early_device {
    const pf_device_ops *ops; /* as named: the unchecked table */
    pf_open_params params;
    int unprobed;             /* pf_parallel_open_early's */
    pf_early_open open;
};

static void *early_main(void *arg)
{
    pf_early_device *e = arg;
    pf_early_open_device(&e->open, e->ops, &e->params);
    if (e->unprobed && e->open.rc != PF_OK)
        pf_backend_probe_after(e->ops);
    return NULL;
}

pf_early_device *pf_parallel_open_early(const pf_device_ops *ops, const pf_solve_options *opt,
                                        int unprobed)
{
    if (!ops || ops->caps.host_cpu || !ops->caps.maxflow_steps || ops->maxflow_solve)
        return NULL;
    pf_early_device *e = calloc(1, sizeof *e);
    if (!e)
        return NULL; /* the solve opens the device itself */
    pf_team_start_beside_opener(opt->threads);
    e->ops = ops;
    e->params = (pf_open_params){.device_index = opt->device_index, .threads = opt->threads};
    e->unprobed = unprobed;
    return pf_early_start(&e->open, early_main, e) ? NULL : e;
}

void pf_parallel_early_free(pf_early_device *e)
{
    if (e)
        pf_early_free(&e->open);
}

/* d->dev and d->desc: early's device where it opened this backend's (named
 * is the caller's table, d->ops perhaps its checked wrapper), else opened
 * here. */
int drv_open_device(driver *d, const pf_device_ops *named, pf_early_device *early,
                    const pf_solve_options *opt, pf_status *st)
{
    if (early && early->ops == named) {
        int rc = pf_early_take(&early->open, named, &d->dev, &d->desc, st);
        if (rc)
            return rc;
        if (d->dev) /* opened through the unchecked table */
            return pf_dev_check_adopt(d->ops, &d->dev, st);
    }
    pf_open_params params = {.device_index = opt->device_index, .threads = opt->threads};
    return d->ops->open(&params, &d->dev, &d->desc, st);
}

void drv_init(driver *d, const pf_device_ops *ops, const pf_residual *h,
              const pf_solve_options *opt, pf_engine_out *out)
{
    *d = (driver){.ops = pf_dev_check_ops(ops), /* every step's arguments checked, where
                                                   that is on */
                  .host = h, .out = out, .host_threads = opt->threads, .opt = opt};
    /* Operations per worker per round. Short budgets win on GPUs (a warp
     * waits for its longest chain) and, overall, on CPUs too. */
    const pf_knob_values *knobs = pf_knobs();
    d->cycles = (int32_t)knobs->cycles;
    d->gr_alpha = knobs->gr_alpha;
    d->gr_max_rounds = knobs->gr_rounds;
    d->gr_time = knobs->gr_time;
    /* a host-memory device's BFS runs level by level on its threads */
    d->gr_hops = ops->caps.host_cpu ? 1 : (int32_t)knobs->gr_hops;
    d->trace = knobs->trace != 0;
    d->async = knobs->async != 0;
    pf_progress_begin(&d->progress, opt->progress);
}

int drv_ready_buffers(driver *d, double t0, double t_opened, int64_t *clamp, pf_status *st)
{
    int rc = drv_choose_cap_bits(d, &d->desc, clamp, st);
    if (!rc && d->g.cap_bits == 32 && d->host->cap)
        rc = drv_make_cap32(d, *clamp, st);
    if (!rc)
        rc = drv_alloc_graph(d, &d->desc, st);
    d->out->times.setup += pf_now() - t0;
    if (d->trace)
        fprintf(stderr,
                "portaflow trace: device open %.4f s, graph buffers %.4f s; %d-bit residuals: "
                "%d B per arc, %d B per vertex\n",
                t_opened - t0, pf_now() - t_opened, (int)d->g.cap_bits, 8 + d->g.cap_bits / 8,
                28 + d->g.cap_bits / 8);
    return rc;
}

/* Opens the device for h and readies its buffers: the graph uploaded, the
 * preflow not yet begun (residuals = capacities, excess and heights 0). */
int drv_open(driver *d, const pf_device_ops *ops, pf_early_device *early, const pf_residual *h,
             const pf_solve_options *opt, pf_engine_out *out,
             const pf_residual *(*wait_graph)(void *), void *data, pf_status *st)
{
    const pf_device_ops *named = ops;
    drv_init(d, ops, h, opt, out);
    if (h)
        drv_facts_of_residual(h, &d->facts);
    int rc = h ? drv_check_limits(ops, h->arcs, &d->facts, st) : PF_OK;
    if (rc)
        return rc;
    double t0 = pf_now();
    rc = drv_open_device(d, named, early, opt, st);
    if (rc) {
        d->dev = NULL;
        return rc;
    }
    snprintf(out->device, sizeof out->device, "%s", d->desc.name);
    if (wait_graph) {
        d->host = h = wait_graph(data);
        if (!h)
            return pf_fail(st, PF_E_CANCELLED, "%s: the solve ended before the device opened",
                           d->ops->name);
        drv_facts_of_residual(h, &d->facts);
        if ((rc = drv_check_limits(ops, h->arcs, &d->facts, st)))
            return rc;
    }
    int64_t clamp = 0;
    rc = drv_ready_buffers(d, t0, pf_now(), &clamp, st);
    t0 = pf_now();
    if (!rc)
        rc = drv_upload_graph(d, st);
    out->times.upload += pf_now() - t0;
    out->device_bytes = d->bytes;
    return rc;
}

void drv_close(driver *d)
{
    if (!d->dev)
        return;
    pf_progress_end(&d->progress);
    if (d->trace)
        fprintf(stderr,
                "portaflow trace: %lld global relabels: collect %.4f s, cancel %.4f s, "
                "bfs %.4f s (%lld launches, batches rounded up), saturate %.4f s; %lld "
                "periods ended by the time bound; %lld rounds: push-relabel %.4f s, active "
                "lists %.4f s\n",
                (long long)d->out->global_relabels, d->trace_collect, d->trace_cancel,
                d->trace_bfs, (long long)d->trace_launches, d->trace_saturate,
                (long long)d->time_cuts, (long long)d->out->rounds, d->trace_push,
                d->trace_listing);
    drv_release_graph(d);
    free(d->cap32);
    d->cap32 = NULL;
    d->ops->close(d->dev);
    d->dev = NULL;
}

int drv_run_solve(driver *d, int *handed_off, pf_status *st)
{
    const pf_solve_options *opt = d->opt;
    pf_engine_out *out = d->out;
    int rc = run_phase1(d, handed_off, st);
    if (!rc && !*handed_off)
        rc = download_results(d, st);
    if (!rc && opt->want_flow && !*handed_off) {
        double p2_pr = 0, p2_gr = 0;
        rc = drv_run_phase(d, "phase 2", d->g.source, d->g.sink, -1, &p2_pr, &p2_gr, st);
        out->times.phase2 += p2_pr + p2_gr;
        if (!rc)
            rc = drv_check_balanced(d, st);
    }
    return rc;
}

int pf_parallel_solve(const pf_device_ops *ops, pf_early_device *early, const pf_residual *h,
                      const pf_solve_options *opt, pf_engine_out *out, pf_status *st)
{
    driver d;
    int rc = drv_open(&d, ops, early, h, opt, out, NULL, NULL, st);
    int handed_off = 0;
    if (!rc)
        rc = drv_run_solve(&d, &handed_off, st);
    if (!rc && opt->want_flow && !handed_off) {
        double t0 = pf_now();
        rc = drv_download_residuals(&d, out->res, st);
        out->times.download += pf_now() - t0;
    }
    if (d.dev && d.ops->held_bytes)
        out->device_bytes += d.ops->held_bytes(d.dev);
    drv_close(&d);
    return rc;
}
