/* OpenMP CPU backend: the same steps as the GPU backends, on host memory,
 * with the shared kernel bodies run from OpenMP loops. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/status.h"
#include "../device.h"
#include "../shared/pf_vendor.h"
#include "../shared/pf_kernels.h"
#include "omp_graph.h"
#include "omp_internal.h"

/* Below this many items a step runs on the calling thread: waking a team
 * and meeting at its barrier costs more than the work (and far more when
 * other processes hold the cores). */
enum { PARALLEL_MIN_ITEMS = 2048 };

static int64_t host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? (int64_t)pages * page : 0;
}

static void describe(pf_device_desc *d, int threads)
{
    pf_host_describe(d, "omp", "OpenMP", omp_get_num_procs());
    snprintf(d->name, sizeof d->name, "host CPU, %d OpenMP threads", threads);
    d->global_mem = (uint64_t)host_memory_bytes();
    d->max_alloc = d->global_mem;
}

static int ompb_probe(pf_device_desc *descs, int max, char *why, size_t why_len)
{
    if (why && why_len)
        why[0] = '\0';
    if (max > 0)
        describe(&descs[0], omp_get_max_threads());
    return 1;
}

static int ompb_open(const pf_open_params *params, pf_dev **out, pf_device_desc *desc,
                    pf_status *st)
{
    int rc = pf_host_check_index("omp", params->device_index, st);
    if (rc)
        return rc;
    pf_dev *dev = pf_calloc(1, sizeof *dev, st);
    if (!dev)
        return PF_E_NOMEM;
    dev->threads = params->threads > 0 ? params->threads : omp_get_max_threads();
    dev->pieces = pf_calloc(2 * (size_t)dev->threads, sizeof *dev->pieces, st);
    dev->chunk_sums = pf_calloc((size_t)dev->threads + 1, sizeof *dev->chunk_sums, st);
    dev->bfs_offsets = pf_calloc((size_t)dev->threads * ((size_t)dev->threads + 1),
                                 sizeof *dev->bfs_offsets, st);
    if (!dev->pieces || !dev->chunk_sums || !dev->bfs_offsets) {
        free(dev->pieces);
        free(dev->chunk_sums);
        free(dev->bfs_offsets);
        free(dev);
        return PF_E_NOMEM;
    }
    if (desc)
        describe(desc, dev->threads);
    *out = dev;
    return PF_OK;
}

static void ompb_close(pf_dev *dev)
{
    if (!dev)
        return;
    for (int t = 0; t < 2 * dev->threads; t++)
        free(dev->pieces[t].vertices);
    free(dev->pieces);
    free(dev->chunk_sums);
    free(dev->bfs_offsets);
    ompb_fw_release(dev);
    ompb_discharge_release(dev);
    free(dev);
}

static int ompb_alloc(pf_dev *dev, size_t bytes, pf_buf **out, pf_status *st)
{
    (void)dev;
    return pf_host_buf_alloc("omp", bytes, out, st);
}

/* memcpy in one piece per thread: a fresh buffer's pages fault in on
 * first touch, and the threads take those faults side by side instead of
 * one after another. */
static void copy_bytes(pf_dev *dev, void *dst, const void *src, size_t bytes)
{
    if (bytes < ((size_t)1 << 22) || dev->threads == 1) { /* scalars: no team */
        pf_host_copy(dst, src, bytes);
        return;
    }
#pragma omp parallel num_threads(dev->threads)
    {
        size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
        size_t lo = bytes * t / nt, hi = bytes * (t + 1) / nt;
        memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
    }
}

static int ompb_upload(pf_dev *dev, pf_buf *dst, size_t offset, const void *src, size_t bytes,
                      pf_status *st)
{
    (void)st; /* arguments are checked at the interface (src/host/dev_check.c) */
    copy_bytes(dev, dst->data + offset, src, bytes);
    return PF_OK;
}

static int ompb_download(pf_dev *dev, pf_buf *src, size_t offset, void *dst, size_t bytes,
                        pf_status *st)
{
    (void)st;
    copy_bytes(dev, dst, src->data + offset, bytes);
    return PF_OK;
}

static int ompb_fill_i32(pf_dev *dev, pf_buf *buf, int32_t value, int64_t count, pf_status *st)
{
    (void)st;
    int32_t *p = BUF(buf, int32_t);
#pragma omp parallel for num_threads(dev->threads) schedule(static) if (count > 65536)
    for (int64_t i = 0; i < count; i++)
        p[i] = value;
    return PF_OK;
}

static int ompb_fill_i64(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count, pf_status *st)
{
    (void)st;
    int64_t *p = BUF(buf, int64_t);
#pragma omp parallel for num_threads(dev->threads) schedule(static) if (count > 65536)
    for (int64_t i = 0; i < count; i++)
        p[i] = value;
    return PF_OK;
}

/* Two-pass parallel scan: each thread sums its contiguous chunk, a serial
 * scan of the per-thread sums gives each chunk's offset, then each thread
 * writes its chunk. `select` turns it into stream compaction. */
static int64_t chunked_scan(pf_dev *dev, const int32_t *in, int32_t *out, int64_t count,
                            int select)
{
    int threads = count < 65536 ? 1 : dev->threads;
    int64_t *sums = dev->chunk_sums;
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t lo = count * t / nt, hi = count * (t + 1) / nt, s = 0;
        for (int64_t i = lo; i < hi; i++)
            s += select ? (in[i] != 0) : in[i];
        sums[t + 1] = s;
#pragma omp barrier
#pragma omp single
        {
            sums[0] = 0;
            for (int k = 1; k <= nt; k++)
                sums[k] += sums[k - 1];
        }
        int64_t run = sums[t];
        if (select) {
            for (int64_t i = lo; i < hi; i++)
                if (in[i])
                    out[run++] = (int32_t)i;
        } else {
            for (int64_t i = lo; i < hi; i++) {
                int32_t v = in[i];
                out[i] = (int32_t)run;
                run += v;
            }
        }
    }
    return sums[threads];
}

static int ompb_scan_i32(pf_dev *dev, pf_buf *in, pf_buf *out, int64_t count, int64_t *total,
                        pf_status *st)
{
    (void)st;
    *total = chunked_scan(dev, BUF(in, int32_t), BUF(out, int32_t), count, 0);
    return PF_OK;
}

static int ompb_filter_i32(pf_dev *dev, pf_buf *flags, pf_buf *out, int64_t count,
                          int64_t *selected, pf_status *st)
{
    (void)st;
    *selected = chunked_scan(dev, BUF(flags, int32_t), BUF(out, int32_t), count, 1);
    return PF_OK;
}

/* The sparse transfers: the bodies in loops (device.h). */
static int ompb_put_at(pf_dev *dev, pf_buf *dst, int32_t width, int64_t base, int64_t limit,
                       pf_buf *index, pf_buf *values, int64_t count, pf_status *st)
{
    (void)st;
    int32_t *to = BUF(dst, int32_t);
    const int32_t *at = BUF(index, int32_t), *from = BUF(values, int32_t);
#pragma omp parallel for num_threads(dev->threads) schedule(static) if (count > 65536)
    for (int64_t i = 0; i < count; i++)
        pf_body_put_at(i, to, width / 4, base, limit, at, from);
    return PF_OK;
}

static int ompb_take_at(pf_dev *dev, pf_buf *src, int64_t base, int64_t limit, pf_buf *index,
                        pf_buf *out, int64_t count, pf_status *st)
{
    (void)st;
    const int64_t *from = BUF(src, int64_t);
    const int32_t *at = BUF(index, int32_t);
    int64_t *to = BUF(out, int64_t);
#pragma omp parallel for num_threads(dev->threads) schedule(static) if (count > 65536)
    for (int64_t i = 0; i < count; i++)
        pf_body_take_at_i64(i, from, base, limit, at, to);
    return PF_OK;
}

static int ompb_mark_changed(pf_dev *dev, pf_buf *cur, pf_buf *snap, int64_t base,
                             pf_buf *flags, int64_t count, pf_status *st)
{
    (void)st;
    const int64_t *now = BUF(cur, int64_t);
    int64_t *was = BUF(snap, int64_t);
    int32_t *f = BUF(flags, int32_t);
#pragma omp parallel for num_threads(dev->threads) schedule(static) if (count > 65536)
    for (int64_t i = 0; i < count; i++)
        pf_body_mark_changed_i64(i, now, was, base, f);
    return PF_OK;
}

static int ompb_mark_active(pf_dev *dev, const pf_dev_graph *g, pf_buf *flags, pf_status *st)
{
    (void)st;
    const int64_t *excess = BUF(g->excess, int64_t);
    const int32_t *height = BUF(g->height, int32_t);
    int32_t *f = BUF(flags, int32_t);
    int32_t n = (int32_t)g->n;
#pragma omp parallel for num_threads(dev->threads) schedule(static) if (n > 65536)
    for (int32_t u = 0; u < n; u++)
        pf_body_mark_active(u, excess, height, f, n, g->source, g->sink);
    return PF_OK;
}

static int ompb_saturate_from(pf_dev *dev, const pf_dev_graph *g, int32_t x, pf_status *st)
{
    (void)st;
    const int64_t *first = BUF(g->first, int64_t);
    int64_t begin = first[x], end = first[x + 1];
#pragma omp parallel for num_threads(dev->threads) schedule(static) if (end - begin > 65536)
    for (int64_t a = begin; a < end; a++)
        pf_body_saturate_arc(a, x, first, BUF(g->head, int32_t), BUF(g->rev, int32_t),
                             BUF(g->res, int64_t), BUF(g->excess, int64_t),
                             BUF(g->height, int32_t), (int32_t)g->n);
    return PF_OK;
}

static int ompb_push_relabel(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                             int32_t cycles, int64_t *work, pf_status *st)
{
    if (g->work_budget > 0) {
        int ran, rc = ompb_discharge(dev, g, g->work_budget, work, &ran, st);
        if (rc || ran)
            return rc;
    }
    const int32_t *vertices = BUF(list, int32_t);
    const int64_t *first = BUF(g->first, int64_t);
    const int32_t *head = BUF(g->head, int32_t), *rev = BUF(g->rev, int32_t);
    int64_t *res = BUF(g->res, int64_t), *excess = BUF(g->excess, int64_t);
    int32_t *height = BUF(g->height, int32_t), *owner = BUF(g->owner, int32_t);
    const int32_t n = (int32_t)g->n, follow = g->follow_excess;
    int64_t total = 0;
#pragma omp parallel for num_threads(dev->threads) schedule(dynamic, 16) reduction(+ : total) \
    if (count > PARALLEL_MIN_ITEMS)
    for (int64_t i = 0; i < count; i++)
        total += follow ? pf_body_push_relabel_follow(vertices[i], first, head, rev, res, excess,
                                                      height, owner, n, g->source, g->sink,
                                                      cycles)
                        : pf_body_push_relabel(vertices[i], first, head, rev, res, excess, height,
                                               n, cycles);
    BUF(g->counters, int64_t)[PF_CTR_WORK] = total;
    if (work)
        *work = total;
    return PF_OK;
}

static int ompb_cancel_violations(pf_dev *dev, const pf_dev_graph *g, pf_buf *list,
                                 int64_t count, pf_status *st)
{
    (void)st;
    const int32_t *vertices = BUF(list, int32_t);
#pragma omp parallel for num_threads(dev->threads) schedule(dynamic, 64) \
    if (count > PARALLEL_MIN_ITEMS)
    for (int64_t i = 0; i < count; i++)
        pf_body_cancel_violations(vertices[i], BUF(g->first, int64_t), BUF(g->head, int32_t),
                                  BUF(g->rev, int32_t), BUF(g->res, int64_t),
                                  BUF(g->excess, int64_t), BUF(g->height, int32_t));
    return PF_OK;
}

static int ompb_sum_excess(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                           int64_t *sum, pf_status *st)
{
    (void)st;
    const int32_t *vertices = BUF(list, int32_t);
    const int64_t *excess = BUF(g->excess, int64_t);
    int64_t total = 0;
#pragma omp parallel for num_threads(dev->threads) schedule(static) reduction(+ : total) \
    if (count > PARALLEL_MIN_ITEMS)
    for (int64_t i = 0; i < count; i++)
        total += excess[vertices[i]];
    *sum = total;
    return PF_OK;
}

const pf_device_ops pf_backend_omp = {
    .name = "omp",
    .caps = {.maxflow_steps = 1, .rev_absolute = 1 /* pf_vendor.h: PF_REV_ARC */, .host_cpu = 1,
             .maxflow_bits = PF_MAXFLOW_64},
    .probe = ompb_probe,
    .open = ompb_open,
    .close = ompb_close,
    .alloc = ompb_alloc,
    .release = pf_host_release,
    .upload = ompb_upload,
    .download = ompb_download,
    .fill_i32 = ompb_fill_i32,
    .fill_i64 = ompb_fill_i64,
    .held_bytes = ompb_discharge_bytes,
    .sync = pf_host_sync,
    .scan_i32 = ompb_scan_i32,
    .filter_i32 = ompb_filter_i32,
    .put_at = ompb_put_at,
    .take_at = ompb_take_at,
    .mark_changed = ompb_mark_changed,
    .mark_active = ompb_mark_active,
    .saturate_from = ompb_saturate_from,
    .push_relabel = ompb_push_relabel,
    .cancel_violations = ompb_cancel_violations,
    .sum_excess = ompb_sum_excess,
    .bfs_levels = ompb_bfs_levels,
    .fw_tile = ompb_fw_tile,
    .fw_phase = ompb_fw_phase,
    .fw_variants = 1u << PF_FW_PLAIN | 1u << PF_FW_SIMD,
    .fw_step = ompb_fw_step,
    .fw_simd = ompb_fw_simd,
    .bfs_push = ompb_bfs_push,
    .bfs_pull = ompb_bfs_pull,
    .bfs_parents = ompb_bfs_parents,
    .sssp_relax = ompb_sssp_relax,
    .sssp_far = ompb_sssp_far,
    .intersect_count = ompb_intersect_count,
    .sssp_solve = ompb_sssp_solve,
    .bfs_push_levels = ompb_bfs_push_levels,
};
