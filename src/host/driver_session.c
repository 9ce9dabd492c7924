/* The parallel driver with the device kept open (driver_session.h): in
 * stretches of phase 1 for the hybrid, and across the solves of a session,
 * whose graph changes in place between them (only the changed pages go to
 * the device). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "driver_internal.h"
#include "driver_session.h"
#include "driver_sparse.h"

struct pf_dev_session {
    driver d;
    pf_solve_options opt;
    pf_engine_out out;   /* counters and times of the device's share */
    int64_t *scratch;    /* n values: excess in transit (64-bit) */
    int32_t *narrow;     /* arcs or n values: the 32-bit path's transfers */
    int stale;           /* the device's state is not the host's preflow */
    /* A global-relabel period that a bounded stretch left open: the next
     * stretch goes on with its heights (pf_dev_session_stretch). */
    int in_period;
    double period_work;
    int64_t period_rounds, period_peak;
    drv_sparse sparse;   /* sessions: changes sent and read one by one */
};

void pf_dev_session_close(pf_dev_session *s)
{
    if (!s)
        return;
    drv_sparse_release(&s->d, &s->sparse);
    drv_close(&s->d);
    free(s->scratch);
    free(s->narrow);
    free(s);
}

int pf_dev_session_open_waiting(const pf_device_ops *ops, const pf_solve_options *opt,
                                const pf_residual *(*wait_graph)(void *), void *data,
                                pf_dev_session **session, pf_status *st)
{
    const pf_residual *h = NULL;
    pf_dev_session *s = pf_calloc(1, sizeof *s, st);
    if (!s)
        return PF_E_NOMEM;
    s->opt = *opt;
    s->opt.progress = 0; /* the hybrid draws its own status line */
    int rc = drv_open(&s->d, ops, NULL, h, &s->opt, &s->out, wait_graph, data, st);
    h = s->d.host;
    size_t n = h ? (size_t)h->n : 0, arcs = h && h->arcs ? (size_t)h->arcs : 1;
    if (!rc && !(s->scratch = pf_alloc(n, sizeof *s->scratch, st)))
        rc = PF_E_NOMEM;
    if (!rc && s->d.g.cap_bits == 32 &&
        !(s->narrow = pf_alloc(arcs > n ? arcs : n, sizeof *s->narrow, st)))
        rc = PF_E_NOMEM;
    if (rc) {
        pf_dev_session_close(s);
        return rc;
    }
    *session = s;
    return PF_OK;
}

const pf_device_desc *pf_dev_session_desc(const pf_dev_session *s) { return &s->d.desc; }

void pf_dev_session_engine(const pf_dev_session *s, const pf_device_ops **ops, pf_dev **dev)
{
    *ops = s->d.ops;
    *dev = s->d.dev;
}
const char *pf_dev_session_ops_name(const pf_dev_session *s) { return s->d.ops->name; }
const pf_residual *pf_dev_session_graph(const pf_dev_session *s) { return s->d.host; }
const pf_engine_out *pf_dev_session_counts(const pf_dev_session *s) { return &s->out; }
uint64_t pf_dev_session_bytes(const pf_dev_session *s)
{
    return s->d.bytes + s->sparse.bytes +
           (s->d.ops->held_bytes ? s->d.ops->held_bytes(s->d.dev) : 0);
}

/* Uploads count int64 values into a res or excess buffer from element
 * `at` on, at its width. On the 32-bit path a residual is stored less the
 * part its capacity lost to the clamp (cap - cap32): the same shift
 * drv_download_residuals undoes. That stays positive: an arc's flow is at
 * most S < clamp, so a clamped forward arc keeps more than cap - clamp;
 * reverse arcs have cap 0 and no shift. */
static int upload_caps(pf_dev_session *s, pf_buf *buf, int64_t at, const int64_t *src,
                       int64_t count, int residuals, pf_status *st)
{
    driver *d = &s->d;
    if (d->g.cap_bits == 64)
        return d->ops->upload(d->dev, buf, (size_t)at * 8, src, (size_t)count * 8, st);
    for (int64_t i = 0; i < count; i++)
        s->narrow[i] = (int32_t)(residuals ? src[i] - (d->host->cap[at + i] - d->cap32[at + i])
                                           : src[i]);
    return d->ops->upload(d->dev, buf, (size_t)at * 4, s->narrow, (size_t)count * 4, st);
}

int pf_dev_session_put(pf_dev_session *s, const int64_t *res, const int64_t *excess,
                       pf_status *st)
{
    driver *d = &s->d;
    const pf_residual *h = d->host;
    /* The source's excess is minus what left it (pf_kernels.h keeps it in
     * [-S, 0]); the host engine does not track it. */
    int64_t out_of_source = 0;
    for (int64_t v = 0; v < h->n; v++) {
        s->scratch[v] = excess[v];
        if (v != h->source)
            out_of_source += excess[v];
    }
    s->scratch[h->source] = -out_of_source;
    drv_sparse_forget(&s->sparse);
    s->in_period = 0;
    int rc = upload_caps(s, d->g.res, 0, res, h->arcs, 1, st);
    if (!rc)
        rc = upload_caps(s, d->g.excess, 0, s->scratch, h->n, 0, st);
    /* Heights do not cross a switch: all 0 here, so the global relabel
     * that begins the next stretch finds no violation to cancel (none has
     * h(u) > h(v) + 1) and then gives every vertex its exact distance. */
    if (!rc)
        rc = d->ops->fill_i32(d->dev, d->g.height, 0, h->n, st);
    if (!rc)
        rc = d->ops->sync(d->dev, st);
    return rc;
}

int pf_dev_session_get(pf_dev_session *s, int64_t *res, int64_t *excess, pf_status *st)
{
    driver *d = &s->d;
    int rc = drv_download_residuals(d, res, st);
    if (!rc)
        rc = drv_download_caps(d, d->g.excess, 0, d->host->n, excess, st);
    return rc;
}

int pf_dev_session_stretch(pf_dev_session *s, int64_t max_rounds, double max_work,
                           int measure_excess, pf_dev_stretch *out, pf_status *st)
{
    driver *d = &s->d;
    const pf_residual *h = d->host;
    memset(out, 0, sizeof *out);
    double t0 = pf_now();
    int rc = PF_OK;
    out->relabelled = !s->in_period;
    if (out->relabelled) {
        rc = drv_global_relabel(d, h->sink, h->source, h->source, st);
        if (!rc)
            rc = drv_collect_active(d, st);
        s->period_work = 0;
        s->period_rounds = s->period_peak = 0;
    }
    double t1 = pf_now();
    out->relabel_seconds = t1 - t0;
    out->active_before = d->active;
    out->excess = -1;
    int64_t rounds_before = s->out.rounds;
    /* What is left of the period, within the bounds. A bounded stretch
     * also bounds the asynchronous discharge's work (a round of it may
     * otherwise finish the phase): 64 arcs a round. */
    double period = d->gr_alpha * (double)d->g.n + (double)d->g.arcs / 2;
    double work = period - s->period_work, done = 0;
    if (max_rounds > 0 && 64.0 * (double)max_rounds < work)
        work = 64.0 * (double)max_rounds;
    if (max_work > 0 && max_work < work)
        work = max_work;
    int64_t rounds = d->gr_max_rounds - s->period_rounds;
    if (max_rounds > 0 && max_rounds < rounds)
        rounds = max_rounds;
    if (!rc && d->active > 0)
        rc = drv_run_rounds(d, "phase 1", h->sink, rounds, work, &out->listed, &done, st);
    out->rounds = s->out.rounds - rounds_before;
    out->active = d->active;
    out->work = done;
    s->period_work += done;
    s->period_rounds += out->rounds;
    if (d->peak_active > s->period_peak)
        s->period_peak = d->peak_active;
    s->in_period = !rc && d->active > 0 && s->period_work < period &&
                   s->period_rounds < d->gr_max_rounds && !d->time_cut;
    int64_t handoff = pf_knobs()->handoff;
    out->crawled = handoff > 0 && s->period_rounds == d->gr_max_rounds &&
                   s->period_peak <= handoff;
    if (!rc && measure_excess && d->ops->sum_excess)
        rc = d->ops->sum_excess(d->dev, &d->g, d->g.list_a, d->active, &out->excess, st);
    out->seconds = pf_now() - t0;
    s->out.times.global_relabel += out->relabel_seconds;
    s->out.times.push_relabel += out->seconds - out->relabel_seconds;
    return rc;
}

double pf_dev_session_probe(pf_dev_session *s, pf_status *st)
{
    driver *d = &s->d;
    int32_t value = 0;
    double t0 = pf_now();
    int rc = d->ops->upload(d->dev, d->g.flags, 0, &value, 4, st);
    if (!rc)
        rc = d->ops->download(d->dev, d->g.flags, 0, &value, 4, st);
    return rc ? -1 : pf_now() - t0;
}

static const pf_residual *given_graph(void *h) { return h; }

int pf_dev_session_open(const pf_device_ops *ops, const pf_residual *h,
                        const pf_solve_options *opt, pf_dev_session **session, pf_status *st)
{
    return pf_dev_session_open_waiting(ops, opt, given_graph, (void *)h, session, st);
}

/* ---- sessions: the graph changes between solves ------------------------ */

/* Slots [at, at + count) of h and res: head, rev and residuals. */
static int upload_slots(pf_dev_session *s, const pf_residual *h, const int64_t *res, int64_t at,
                        int64_t count, int32_t *rev_buf, pf_status *st)
{
    driver *d = &s->d;
    drv_rev_for_device(d->ops, h, at, count, rev_buf);
    int rc = d->ops->upload(d->dev, d->g.head, (size_t)at * 4, h->head + at, (size_t)count * 4, st);
    if (!rc)
        rc = d->ops->upload(d->dev, d->g.rev, (size_t)at * 4, rev_buf, (size_t)count * 4, st);
    if (!rc)
        rc = upload_caps(s, d->g.res, at, res + at, count, 1, st);
    return rc;
}

/* Vertices [at, at + count) of h: their first offsets (and the one after
 * the last) and excesses. */
static int upload_vertices(pf_dev_session *s, const pf_residual *h, const int64_t *excess,
                           int64_t at, int64_t count, pf_status *st)
{
    driver *d = &s->d;
    int rc = d->ops->upload(d->dev, d->g.first, (size_t)at * 8, h->first + at,
                            (size_t)(count + 1) * 8, st);
    if (!rc)
        rc = upload_caps(s, d->g.excess, at, excess + at, count, 0, st);
    return rc;
}

/* Each run of consecutive marked pages of `total` items, as one call. */
static int upload_runs(pf_dev_session *s, const pf_residual *h, const int64_t *values,
                       const uint8_t *marks, int page_log2, int64_t total, int slots,
                       int32_t *rev_buf, pf_status *st)
{
    int64_t pages = (total + ((int64_t)1 << page_log2) - 1) >> page_log2;
    int rc = PF_OK;
    for (int64_t p = 0; !rc && p < pages;) {
        if (!marks[p]) {
            p++;
            continue;
        }
        int64_t q = p;
        while (q < pages && marks[q])
            q++;
        int64_t at = p << page_log2, end = q << page_log2;
        if (end > total)
            end = total;
        if (slots) {
            /* rev_buf holds one page: convert and send a page at a time. */
            for (int64_t a = at; !rc && a < end; a += (int64_t)1 << page_log2) {
                int64_t count = end - a < ((int64_t)1 << page_log2) ? end - a
                                                                   : (int64_t)1 << page_log2;
                rc = upload_slots(s, h, values, a, count, rev_buf, st);
            }
        } else {
            rc = upload_vertices(s, h, values, at, end - at, st);
        }
        p = q;
    }
    return rc;
}

/* h's offsets, heads and reverse arcs, whole. */
static int upload_structure(pf_dev_session *s, const pf_residual *h, pf_status *st)
{
    driver *d = &s->d;
    int32_t *rev = pf_alloc((size_t)(h->arcs ? h->arcs : 1), sizeof *rev, st);
    if (!rev)
        return PF_E_NOMEM;
    int rc = drv_rev_device_form(d, h, rev, st);
    if (!rc)
        rc = d->ops->upload(d->dev, d->g.first, 0, h->first, (size_t)(h->n + 1) * 8, st);
    if (!rc)
        rc = d->ops->upload(d->dev, d->g.head, 0, h->head, (size_t)h->arcs * 4, st);
    if (!rc)
        rc = d->ops->upload(d->dev, d->g.rev, 0, rev, (size_t)h->arcs * 4, st);
    free(rev);
    return rc;
}

/* The whole graph again, into buffers with room to grow where it
 * outgrew them (a quarter more). */
static int upload_everything(pf_dev_session *s, const pf_residual *h, const int64_t *res,
                             const int64_t *excess, pf_status *st)
{
    driver *d = &s->d;
    int rc = PF_OK;
    int grow = h->n > d->alloc_n || h->arcs > d->alloc_arcs;
    d->host = h;
    if (grow) {
        drv_sparse_release(d, &s->sparse);
        drv_release_graph(d);
        d->room_n = h->n + h->n / 4;
        d->room_arcs = h->arcs + h->arcs / 4;
        int64_t *scratch = realloc(s->scratch, (size_t)d->room_n * sizeof *scratch);
        if (!scratch)
            return pf_fail(st, PF_E_NOMEM, "session: out of host memory for %lld vertices",
                           (long long)d->room_n);
        s->scratch = scratch;
        rc = drv_alloc_graph(d, &d->desc, st);
    }
    d->g.n = h->n;
    d->g.arcs = h->arcs;
    d->g.source = h->source;
    d->g.sink = h->sink;
    /* New buffers get everything (owner and counters zeroed too); buffers
     * that held the graph before get its structure, then the preflow. */
    if (!rc && grow)
        rc = drv_upload_graph(d, st);
    else if (!rc)
        rc = upload_structure(s, h, st);
    if (!rc)
        rc = pf_dev_session_put(s, res, excess, st);
    return rc;
}

/* After an update that succeeded (rc): heights restart from 0, so the
 * global relabel that begins the next stretch has no violation to cancel
 * (pf_dev_session_put). */
static int restart_heights(pf_dev_session *s, int rc, pf_status *st)
{
    driver *d = &s->d;
    if (!rc)
        rc = d->ops->fill_i32(d->dev, d->g.height, 0, d->host->n, st);
    if (!rc)
        rc = d->ops->sync(d->dev, st);
    s->stale = rc != PF_OK;
    return rc;
}

/* Past half the pages changed, one transfer of the whole arrays costs
 * less than one per run of pages (bench/NOTES.md: the page sizes). */
static int mostly_marked(const uint8_t *marks, int page_log2, int64_t total)
{
    int64_t pages = (total + ((int64_t)1 << page_log2) - 1) >> page_log2, marked = 0;
    for (int64_t p = 0; p < pages; p++)
        marked += marks[p] != 0;
    return 2 * marked > pages;
}

int pf_dev_session_update(pf_dev_session *s, const pf_residual *h, const int64_t *res,
                          const int64_t *excess, const pf_dev_pages *pages, pf_status *st)
{
    driver *d = &s->d;
    if (d->g.cap_bits != 64)
        return pf_fail(st, PF_E_DEVICE,
                       "%s: a session needs 64-bit residuals on the device, and %s has 32-bit "
                       "ones only; --backend omp or seq runs sessions",
                       d->ops->name, d->desc.name);
    int sparse = !pages->lists_full && s->sparse.current && drv_sparse_offered(d);
    s->in_period = 0; /* heights restart */
    if (pages->all || s->stale || h->n > d->alloc_n || h->arcs > d->alloc_arcs ||
        h->first != d->host->first ||
        (!sparse && mostly_marked(pages->slots, pages->page_log2, h->arcs))) {
        int rc = upload_everything(s, h, res, excess, st);
        s->stale = rc != PF_OK;
        return rc;
    }
    d->host = h;
    d->g.n = h->n;
    d->g.arcs = h->arcs;
    int rc = PF_OK;
    if (sparse) {
        rc = drv_sparse_put(d, &s->sparse, h, res, excess, pages->slot_list, pages->slot_count,
                            pages->vertex_list, pages->vertex_count, st);
        return restart_heights(s, rc, st);
    }
    drv_sparse_forget(&s->sparse); /* pages go up: the snapshots fall behind */
    int64_t page = (int64_t)1 << pages->page_log2;
    int32_t *rev_buf = pf_alloc((size_t)page, sizeof *rev_buf, st);
    if (!rev_buf)
        return PF_E_NOMEM;
    rc = upload_runs(s, h, res, pages->slots, pages->page_log2, h->arcs, 1, rev_buf, st);
    if (!rc)
        rc = upload_runs(s, h, excess, pages->vertices, pages->page_log2, h->n, 0, NULL, st);
    free(rev_buf);
    return restart_heights(s, rc, st);
}

int pf_dev_session_get_changed(pf_dev_session *s, int64_t *res, int64_t *excess,
                               int64_t *values_read, pf_status *st)
{
    if (!drv_sparse_offered(&s->d)) {
        *values_read = s->d.host->arcs + s->d.host->n;
        return pf_dev_session_get(s, res, excess, st);
    }
    int rc = drv_sparse_get(&s->d, &s->sparse, res, excess, values_read, st);
    s->stale = s->stale || rc != PF_OK;
    return rc;
}

int pf_dev_session_heights(pf_dev_session *s, int32_t *out, pf_status *st)
{
    driver *d = &s->d;
    return d->ops->download(d->dev, d->g.height, 0, out, (size_t)d->host->n * 4, st);
}

int pf_dev_session_resume_heights(pf_dev_session *s, const int32_t *height, pf_status *st)
{
    driver *d = &s->d;
    const pf_residual *h = d->host;
    int rc = d->ops->upload(d->dev, d->g.height, 0, height, (size_t)h->n * 4, st);
    /* The source sits at n: an arc of it with room into a vertex below
     * n - 1 would break the labels, so its arcs are saturated, as the
     * global relabel does. */
    if (!rc)
        rc = d->ops->saturate_from(d->dev, &d->g, h->source, st);
    if (!rc)
        rc = drv_collect_active(d, st);
    s->in_period = rc == PF_OK;
    s->period_work = 0;
    s->period_rounds = s->period_peak = 0;
    return rc;
}

int pf_dev_session_flow(pf_dev_session *s, int64_t *res, pf_status *st)
{
    s->in_period = 0;
    driver *d = &s->d;
    const pf_residual *h = d->host;
    double pr = 0, gr = 0;
    s->stale = 1; /* the device's preflow becomes a flow */
    drv_sparse_forget(&s->sparse);
    int rc = drv_run_phase(d, "phase 2", h->source, h->sink, -1, &pr, &gr, st);
    s->out.times.phase2 += pr + gr;
    if (!rc)
        rc = drv_check_balanced(d, st);
    if (!rc)
        rc = drv_download_residuals(d, res, st);
    return rc;
}
