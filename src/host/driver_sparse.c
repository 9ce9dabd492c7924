/* A session's changes to and from the device one by one (driver_sparse.h). */
#include "driver_sparse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/omp_threads.h"
#include "../common/status.h"
#include "../common/timer.h"

/* A read-back marks and compacts the changed values a span at a time (a
 * quarter of the larger array), waiting for the device once per span:
 * fewer spans mean fewer waits, and each span's flags and indices take 8
 * bytes of device memory per element. A span comes back whole once more
 * than 1 / WHOLE_SHARE of its values changed, since a value gathered
 * (index and value through small copies, then the host's scatter) costs
 * about ten times a value of a whole copy (bench/NOTES.md 56 and 75 have
 * the measurements). So at most a WHOLE_SHARE-th of a span is ever
 * gathered: that is the staging of the values (device and host) and the
 * chunk the puts' lists go in, both at least SPARSE_CHUNK_MIN. */
#define SPANS 4
#define WHOLE_SHARE 10
#define SPARSE_CHUNK_MIN ((int64_t)1 << 16)

/* The host's side of a transfer (gathering the listed values to send,
 * scattering those read back) reads or writes far apart in the graph's
 * arrays, each element waiting on memory: from SPARSE_TEAM_MIN elements
 * on, on up to SPARSE_TEAM_MAX of the driver's host threads (idle while a
 * device session transfers; a few already overlap most of the waits), in
 * chunks of SPARSE_TEAM_CHUNK taken as threads come free, so that one
 * thread on a slow or busy core holds up no more than its chunk. */
#define SPARSE_TEAM_MIN ((int64_t)1 << 14)
#define SPARSE_TEAM_MAX 8
#define SPARSE_TEAM_CHUNK 2048

static int team_for(const driver *d, int64_t count)
{
    int threads = count >= SPARSE_TEAM_MIN ? pf_resolve_threads(d->host_threads) : 1;
    return threads < SPARSE_TEAM_MAX ? threads : SPARSE_TEAM_MAX;
}

/* The loop that follows on `threads` (team_for) threads, in chunks. */
#define SPARSE_TEAM_FOR(threads)                                                           \
    PF_OMP(omp parallel for schedule(dynamic, SPARSE_TEAM_CHUNK) num_threads(threads)      \
           if (threads > 1))

int drv_sparse_offered(const driver *d)
{
    const pf_device_ops *o = d->ops;
    return o->put_at && o->take_at && o->mark_changed && o->filter_i32 && d->g.cap_bits == 64;
}

static int alloc_counted(driver *d, drv_sparse *sp, pf_buf **buf, int64_t count, size_t elem,
                         pf_status *st)
{
    size_t bytes = (size_t)(count > 0 ? count : 1) * elem;
    int rc = d->ops->alloc(d->dev, bytes, buf, st);
    if (!rc)
        sp->bytes += bytes;
    return rc;
}

void drv_sparse_release(driver *d, drv_sparse *sp)
{
    pf_buf *bufs[] = {sp->snap_res, sp->snap_excess, sp->index, sp->values, sp->flags};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        if (bufs[i])
            d->ops->release(d->dev, bufs[i]);
    free(sp->host_index);
    free(sp->host_values);
    memset(sp, 0, sizeof *sp);
}

/* The staging, and snapshots the size of the graph's buffers as they are
 * allocated now (new ones are not current); where the device's memory is
 * the host's, the puts' staging only. */
static int ensure_buffers(driver *d, drv_sparse *sp, pf_status *st)
{
    if (sp->snap_arcs != d->alloc_arcs || sp->snap_n != d->alloc_n)
        drv_sparse_release(d, sp);
    if (sp->index)
        return PF_OK;
    sp->copies = d->ops->caps.host_cpu;
    int64_t most = d->alloc_arcs > d->alloc_n + 1 ? d->alloc_arcs : d->alloc_n + 1;
    sp->span = most / SPANS + 1 > SPARSE_CHUNK_MIN ? most / SPANS + 1 : SPARSE_CHUNK_MIN;
    if (sp->span > most)
        sp->span = most;
    sp->chunk = sp->span / WHOLE_SHARE + 1 > SPARSE_CHUNK_MIN ? sp->span / WHOLE_SHARE + 1
                                                              : SPARSE_CHUNK_MIN;
    if (sp->chunk > sp->span)
        sp->chunk = sp->span;
    sp->host_index = pf_alloc((size_t)sp->chunk, sizeof *sp->host_index, st);
    sp->host_values = pf_alloc((size_t)sp->chunk, sizeof *sp->host_values, st);
    int rc = sp->host_index && sp->host_values ? PF_OK : PF_E_NOMEM;
    if (!rc)
        rc = alloc_counted(d, sp, &sp->index, sp->copies ? sp->chunk : sp->span, 4, st);
    if (!rc)
        rc = alloc_counted(d, sp, &sp->values, sp->chunk, 8, st);
    if (!rc && !sp->copies)
        rc = alloc_counted(d, sp, &sp->snap_res, d->alloc_arcs, 8, st);
    if (!rc && !sp->copies)
        rc = alloc_counted(d, sp, &sp->snap_excess, d->alloc_n, 8, st);
    if (!rc && !sp->copies)
        rc = alloc_counted(d, sp, &sp->flags, sp->span, 4, st);
    /* Written before any read: the first read-back compares the graph's
     * values with the snapshots as it fills them. */
    if (!rc && !sp->copies)
        rc = d->ops->fill_i64(d->dev, sp->snap_res, 0, d->alloc_arcs, st);
    if (!rc && !sp->copies)
        rc = d->ops->fill_i64(d->dev, sp->snap_excess, 0, d->alloc_n, st);
    if (rc) {
        drv_sparse_release(d, sp);
        return rc;
    }
    sp->snap_arcs = d->alloc_arcs;
    sp->snap_n = d->alloc_n;
    return PF_OK;
}

/* The staged values (count of `width` bytes) to dst at the staged indices
 * (already on the device); with snap, to the snapshot as well. */
static int put_values(driver *d, drv_sparse *sp, pf_buf *dst, pf_buf *snap, int32_t width,
                      int64_t limit, int64_t count, pf_status *st)
{
    int rc = d->ops->upload(d->dev, sp->values, 0, sp->host_values, (size_t)count * width, st);
    if (!rc)
        rc = d->ops->put_at(d->dev, dst, width, 0, limit, sp->index, sp->values, count, st);
    if (!rc && snap)
        rc = d->ops->put_at(d->dev, snap, width, 0, limit, sp->index, sp->values, count, st);
    return rc;
}

/* The list's indices to the device (upload copies them before it
 * returns: no staging on the host). */
static int stage_index(driver *d, drv_sparse *sp, const int32_t *list, int64_t count,
                       pf_status *st)
{
    return d->ops->upload(d->dev, sp->index, 0, list, (size_t)count * sizeof *list, st);
}

static int put_slots(driver *d, drv_sparse *sp, const pf_residual *h, const int64_t *res,
                     const int32_t *slots, int64_t count, pf_status *st)
{
    int32_t *narrow = (int32_t *)(void *)sp->host_values;
    const int64_t limit = d->alloc_arcs;
    const int threads = team_for(d, count);
    int rc = stage_index(d, sp, slots, count, st);
    SPARSE_TEAM_FOR(threads)
    for (int64_t i = 0; i < count; i++)
        narrow[i] = h->head[slots[i]];
    if (!rc)
        rc = put_values(d, sp, d->g.head, NULL, 4, limit, count, st);
    SPARSE_TEAM_FOR(threads)
    for (int64_t i = 0; i < count; i++)
        drv_rev_for_device(d->ops, h, slots[i], 1, &narrow[i]);
    if (!rc)
        rc = put_values(d, sp, d->g.rev, NULL, 4, limit, count, st);
    SPARSE_TEAM_FOR(threads)
    for (int64_t i = 0; i < count; i++)
        sp->host_values[i] = res[slots[i]];
    if (!rc)
        rc = put_values(d, sp, d->g.res, sp->snap_res, 8, limit, count, st);
    return rc;
}

/* Vertex n (one past the last) has an offset and no excess. */
static int put_vertices(driver *d, drv_sparse *sp, const pf_residual *h, const int64_t *excess,
                        const int32_t *vertices, int64_t count, pf_status *st)
{
    const int threads = team_for(d, count);
    int rc = stage_index(d, sp, vertices, count, st);
    SPARSE_TEAM_FOR(threads)
    for (int64_t i = 0; i < count; i++)
        sp->host_values[i] = h->first[vertices[i]];
    if (!rc)
        rc = put_values(d, sp, d->g.first, NULL, 8, d->alloc_n + 1, count, st);
    SPARSE_TEAM_FOR(threads)
    for (int64_t i = 0; i < count; i++)
        sp->host_values[i] = vertices[i] < h->n ? excess[vertices[i]] : 0;
    if (!rc)
        rc = put_values(d, sp, d->g.excess, sp->snap_excess, 8, d->alloc_n, count, st);
    return rc;
}

int drv_sparse_put(driver *d, drv_sparse *sp, const pf_residual *h, const int64_t *res,
                   const int64_t *excess, const int32_t *slots, int64_t slot_count,
                   const int32_t *vertices, int64_t vertex_count, pf_status *st)
{
    if (!sp->current)
        return pf_fail(st, PF_E_USAGE, "sparse put: the device's snapshot is not current");
    int rc = PF_OK;
    for (int64_t at = 0; !rc && at < slot_count; at += sp->chunk) {
        int64_t len = slot_count - at < sp->chunk ? slot_count - at : sp->chunk;
        rc = put_slots(d, sp, h, res, slots + at, len, st);
    }
    for (int64_t at = 0; !rc && at < vertex_count; at += sp->chunk) {
        int64_t len = vertex_count - at < sp->chunk ? vertex_count - at : sp->chunk;
        rc = put_vertices(d, sp, h, excess, vertices + at, len, st);
    }
    if (rc)
        sp->current = 0;
    return rc;
}

/* Where a read-back's time went (PORTAFLOW_TRACE): marking and counting
 * the changed values, gathering and reading back the sparse ones, and
 * reading back spans whose values mostly changed. */
typedef struct get_trace {
    double mark, gather, whole;
    int64_t spans, whole_spans, sparse_values;
} get_trace;

/* Whole spans that follow each other come back as one transfer: a span
 * may be below the size from which the backends stage a transfer through
 * pinned memory (common/hostcopy.h) where the run of them is above it. */
typedef struct whole_run {
    int64_t begin, end;
} whole_run;

static int read_whole_run(driver *d, pf_buf *buf, int64_t *host, whole_run *run,
                          get_trace *tr, pf_status *st)
{
    if (run->end == run->begin)
        return PF_OK;
    double t0 = pf_now();
    int rc = d->ops->download(d->dev, buf, (size_t)run->begin * 8, host + run->begin,
                              (size_t)(run->end - run->begin) * 8, st);
    tr->whole += pf_now() - t0;
    run->begin = run->end = 0;
    return rc;
}

/* The values of buf[0..count) that differ from snap, into host (snap
 * takes them); with `refresh` only the snapshot is brought up to date. */
static int changed_values(driver *d, drv_sparse *sp, pf_buf *buf, pf_buf *snap, int64_t count,
                          int64_t limit, int64_t *host, int refresh, int64_t *read,
                          get_trace *tr, pf_status *st)
{
    int rc = PF_OK;
    whole_run run = {0, 0};
    for (int64_t base = 0; !rc && base < count; base += sp->span) {
        int64_t len = count - base < sp->span ? count - base : sp->span, selected = 0;
        double t0 = pf_now();
        rc = d->ops->mark_changed(d->dev, buf, snap, base, sp->flags, len, st);
        if (rc || refresh)
            continue;
        rc = d->ops->filter_i32(d->dev, sp->flags, sp->index, len, &selected, st);
        double t1 = pf_now();
        tr->mark += t1 - t0;
        tr->spans++;
        if (!rc && selected * WHOLE_SHARE > len) {
            /* the whole span costs less than gathering its changes; its
             * values stay as they are while the next spans are marked */
            if (run.end != base)
                rc = read_whole_run(d, buf, host, &run, tr, st);
            if (run.end == run.begin)
                run.begin = base;
            run.end = base + len;
            *read += len;
            tr->whole_spans++;
            continue;
        }
        if (!rc && selected > 0)
            rc = d->ops->take_at(d->dev, buf, base, limit, sp->index, sp->values, selected, st);
        if (!rc && selected > 0)
            rc = d->ops->download(d->dev, sp->index, 0, sp->host_index, (size_t)selected * 4,
                                  st);
        if (!rc && selected > 0)
            rc = d->ops->download(d->dev, sp->values, 0, sp->host_values,
                                  (size_t)selected * 8, st);
        if (!rc) {
            const int threads = team_for(d, selected);
            const int32_t *index = sp->host_index;
            const int64_t *values = sp->host_values;
            SPARSE_TEAM_FOR(threads)
            for (int64_t i = 0; i < selected; i++)
                host[base + index[i]] = values[i];
        }
        *read += selected;
        tr->sparse_values += selected;
        tr->gather += pf_now() - t1;
    }
    if (!rc)
        rc = read_whole_run(d, buf, host, &run, tr, st);
    return rc;
}

int drv_sparse_get(driver *d, drv_sparse *sp, int64_t *res, int64_t *excess,
                   int64_t *values_read, pf_status *st)
{
    const pf_residual *h = d->host;
    get_trace tr = {0};
    *values_read = 0;
    int rc = ensure_buffers(d, sp, st);
    int refresh = !sp->current;
    if (!rc && (refresh || sp->copies)) {
        double t0 = pf_now();
        rc = drv_download_residuals(d, res, st);
        if (!rc)
            rc = drv_download_caps(d, d->g.excess, 0, h->n, excess, st);
        *values_read = h->arcs + h->n;
        if (d->trace && !refresh)
            fprintf(stderr, "portaflow trace: read back whole (the device's memory is the "
                            "host's) in %.4f s\n", pf_now() - t0);
    }
    if (!rc && !sp->copies)
        rc = changed_values(d, sp, d->g.res, sp->snap_res, h->arcs, d->alloc_arcs, res,
                            refresh, values_read, &tr, st);
    if (!rc && !sp->copies)
        rc = changed_values(d, sp, d->g.excess, sp->snap_excess, h->n, d->alloc_n, excess,
                            refresh, values_read, &tr, st);
    sp->current = rc == PF_OK;
    if (d->trace && !refresh && !sp->copies)
        fprintf(stderr,
                "portaflow trace: read back %lld spans: marked and counted in %.4f s, "
                "%lld changed values gathered in %.4f s, %lld whole spans in %.4f s\n",
                (long long)tr.spans, tr.mark, (long long)tr.sparse_values, tr.gather,
                (long long)tr.whole_spans, tr.whole);
    return rc;
}
