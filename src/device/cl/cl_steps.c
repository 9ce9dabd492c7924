/* Launches of the OpenCL kernels: multi-pass scan and filter, and the
 * max-flow steps (semantics: device.h; kernel text: kernels/NAME.cl).
 *
 * Everything is enqueued on one in-order queue, so a pass sees the writes
 * of the passes before it; the host only blocks where a step returns a
 * value (scan totals, counters). */
#include "cl_kernels.h"

#include <string.h>

#include "common/status.h"

/* Work-groups to cover count items, one per work-item. */
static size_t groups_for(const pf_dev *dev, int64_t count)
{
    return (size_t)((count + (int64_t)dev->group_size - 1) / (int64_t)dev->group_size);
}

static int read_i64(pf_dev *dev, cl_mem mem, size_t index, int64_t *value, pf_status *st)
{
    cl_long v = 0;
    cl_int err = clEnqueueReadBuffer(dev->queue, mem, CL_TRUE, index * sizeof v, sizeof v,
                                     &v, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return pf_cl_fail(st, "clEnqueueReadBuffer", err);
    *value = v;
    return PF_OK;
}

/* ---- scan and filter -------------------------------------------------- */

enum scan_kind { SCAN_I32, SCAN_I64_INPLACE, SCATTER_I32 };

void pf_cl_steps_release(pf_dev *dev)
{
    for (int l = 0; l < PF_CL_SCAN_LEVELS; l++) {
        if (dev->scan_sums[l])
            clReleaseMemObject(dev->scan_sums[l]);
        dev->scan_sums[l] = NULL;
        dev->scan_sums_cap[l] = 0;
    }
    if (dev->scan_total)
        clReleaseMemObject(dev->scan_total);
    dev->scan_total = NULL;
}

/* Tile sums of one level: kept between calls, grown when needed. */
static int ensure_sums(pf_dev *dev, int level, size_t elems, pf_status *st)
{
    if (dev->scan_sums_cap[level] >= elems)
        return PF_OK;
    if (dev->scan_sums[level])
        clReleaseMemObject(dev->scan_sums[level]);
    dev->scan_sums[level] = NULL;
    dev->scan_sums_cap[level] = 0;
    cl_int err;
    dev->scan_sums[level] = clCreateBuffer(dev->context, CL_MEM_READ_WRITE,
                                           elems * sizeof(cl_long), NULL, &err);
    if (!dev->scan_sums[level])
        return pf_cl_fail_on(st, "clCreateBuffer", "scan tile sums", err);
    dev->scan_sums_cap[level] = elems;
    return PF_OK;
}

/* One scan (or scatter) of count > 0 elements at recursion depth `level`:
 * reduce the tiles, scan the tile sums (recursively), then the final pass
 * starting every tile from its scanned sum. out_cap bounds the scatter's
 * writes. The grand total lands in dev->scan_total. */
static int scan_pass(pf_dev *dev, enum scan_kind kind, cl_mem in, cl_mem out,
                     int64_t count, cl_long out_cap, int level, pf_status *st)
{
    cl_long n = count;
    cl_int rows = dev->scan_rows;
    int64_t tile = (int64_t)dev->group_size * rows;
    int64_t tiles = (count + tile - 1) / tile;
    cl_kernel *set = dev->kernels[dev->base];
    size_t groups = (size_t)tiles, local = dev->group_size;
    size_t scratch = 2 * local; /* int64 elements of local memory */
    cl_mem offsets = dev->scan_total; /* a valid placeholder when unused */
    cl_int use_offsets = 0;
    int rc;

    if (tiles > 1) {
        if (level >= PF_CL_SCAN_LEVELS)
            return pf_fail(st, PF_E_DEVICE, "scan of %lld elements needs too many levels",
                           (long long)count);
        if ((rc = ensure_sums(dev, level, (size_t)tiles, st)))
            return rc;
        cl_mem sums = dev->scan_sums[level];
        if (kind == SCAN_I64_INPLACE)
            rc = pf_cl_launch_reduce_i64(dev, set, groups, local, st, in, n, rows, sums,
                                         scratch);
        else
            rc = pf_cl_launch_reduce_i32(dev, set, groups, local, st, in, n, rows,
                                         kind == SCATTER_I32, sums, scratch);
        if (rc)
            return rc;
        rc = scan_pass(dev, SCAN_I64_INPLACE, sums, sums, tiles, 0, level + 1, st);
        if (rc)
            return rc;
        offsets = sums;
        use_offsets = 1;
    }

    cl_mem total = dev->scan_total;
    switch (kind) {
    case SCAN_I32:
        return pf_cl_launch_scan_i32(dev, set, groups, local, st, in, out, n, rows, offsets,
                                     use_offsets, total, scratch);
    case SCAN_I64_INPLACE:
        return pf_cl_launch_scan_i64_inplace(dev, set, groups, local, st, in, n, rows, offsets,
                                             use_offsets, total, scratch);
    case SCATTER_I32:
        return pf_cl_launch_scatter_i32(dev, set, groups, local, st, in, out, n, out_cap, rows,
                                        offsets, use_offsets, total, scratch);
    }
    return pf_fail(st, PF_E_DEVICE, "unknown scan kind %d", (int)kind);
}

int pf_cl_scan_i32(pf_dev *dev, pf_buf *in, pf_buf *out, int64_t count, int64_t *total,
                   pf_status *st)
{
    int rc;
    if (count == 0) {
        if (total)
            *total = 0;
        return PF_OK;
    }
    if ((rc = scan_pass(dev, SCAN_I32, in->mem, out->mem, count, 0, 0, st)))
        return rc;
    /* total NULL (this backend's own steps, not the interface): no read */
    return total ? read_i64(dev, dev->scan_total, 0, total, st) : PF_OK;
}

int pf_cl_filter_i32(pf_dev *dev, pf_buf *flags, pf_buf *out, int64_t count,
                     int64_t *selected, pf_status *st)
{
    int rc;
    *selected = 0;
    if (count == 0)
        return PF_OK;
    /* The kernel never writes past the output buffer; a result that would
     * not fit is reported below instead of corrupting memory. */
    cl_long out_cap = (cl_long)(out->bytes / sizeof(cl_int));
    if ((rc = scan_pass(dev, SCATTER_I32, flags->mem, out->mem, count, out_cap, 0, st)) ||
        (rc = read_i64(dev, dev->scan_total, 0, selected, st)))
        return rc;
    if (*selected > out_cap)
        return pf_fail(st, PF_E_USAGE,
                       "filter_i32: %lld indices selected, output holds only %lld",
                       (long long)*selected, (long long)out_cap);
    return PF_OK;
}

/* ---- max-flow steps --------------------------------------------------- */

/* Points *set at the kernels of the graph's residual width (the arguments
 * were checked at the interface, src/host/dev_check.c). */
static int kernels_for_graph(pf_dev *dev, const pf_dev_graph *g, cl_kernel **set,
                             pf_status *st)
{
    return pf_cl_kernels_for(dev, g->cap_bits, set, st);
}

/* Enqueues counters[slot] = 0. */
static int zero_counter(pf_dev *dev, const pf_dev_graph *g, int slot, const char *what,
                        pf_status *st)
{
    const cl_long zero = 0;
    cl_int err = clEnqueueFillBuffer(dev->queue, g->counters->mem, &zero, sizeof zero,
                                     (size_t)slot * sizeof zero, sizeof zero, 0, NULL, NULL);
    return err == CL_SUCCESS ? PF_OK : pf_cl_fail_on(st, "clEnqueueFillBuffer", what, err);
}

int pf_cl_mark_active(pf_dev *dev, const pf_dev_graph *g, pf_buf *flags, pf_status *st)
{
    int rc;
    cl_kernel *set = NULL;
    if ((rc = kernels_for_graph(dev, g, &set, st)))
        return rc;
    if (g->n == 0)
        return PF_OK;
    return pf_cl_launch_mark_active(dev, set, groups_for(dev, g->n), dev->group_size, st,
                                    g->excess->mem, g->height->mem, flags->mem, (cl_int)g->n,
                                    g->source, g->sink);
}

int pf_cl_saturate_from(pf_dev *dev, const pf_dev_graph *g, int32_t x, pf_status *st)
{
    int rc;
    cl_kernel *set = NULL;
    if ((rc = kernels_for_graph(dev, g, &set, st)))
        return rc;
    if (x < 0 || x >= g->n)
        return pf_fail(st, PF_E_USAGE, "saturate_from: vertex %d out of range", (int)x);
    return pf_cl_launch_saturate_from(dev, set, dev->stride_groups, dev->group_size, st, x,
                                      g->first->mem, g->head->mem, g->rev->mem, g->res->mem,
                                      g->excess->mem, g->height->mem, (cl_int)g->n);
}

int pf_cl_push_relabel(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                       int32_t cycles, int64_t *work, pf_status *st)
{
    int rc;
    cl_kernel *set = NULL;
    if ((rc = kernels_for_graph(dev, g, &set, st)))
        return rc;
    /* *work is this call's relabel work (as the OpenMP backend reports it):
     * the counter restarts from 0 at every call. */
    if ((rc = zero_counter(dev, g, PF_CTR_WORK, "relabel work counter", st)))
        return rc;
    if (count > 0 && cycles > 0) {
        cl_int n = (cl_int)g->n;
        size_t local = dev->group_size;
        /* GPUs: a work-group of PF_CL_PUSH_LANES per listed vertex (see
         * pf_k_push_relabel_group); CPUs keep one work-item per vertex. */
        if (dev->push_lanes > 1) {
            size_t lanes = (size_t)dev->push_lanes;
            rc = pf_cl_launch_push_relabel_group(
                dev, set, (size_t)count, lanes, st, list->mem, count, g->first->mem,
                g->head->mem, g->rev->mem, g->res->mem, g->excess->mem, g->height->mem,
                g->owner->mem, n, g->source, g->sink, g->follow_excess, cycles,
                g->counters->mem, lanes, lanes, 1);
        } else if (g->follow_excess) {
            rc = pf_cl_launch_push_relabel_follow(
                dev, set, groups_for(dev, count), local, st, list->mem, count, g->first->mem,
                g->head->mem, g->rev->mem, g->res->mem, g->excess->mem, g->height->mem,
                g->owner->mem, n, g->source, g->sink, cycles, g->counters->mem, local);
        } else {
            rc = pf_cl_launch_push_relabel(dev, set, groups_for(dev, count), local, st,
                                           list->mem, count, g->first->mem, g->head->mem,
                                           g->rev->mem, g->res->mem, g->excess->mem,
                                           g->height->mem, n, cycles, g->counters->mem, local);
        }
        if (rc)
            return rc;
    }
    return work ? read_i64(dev, g->counters->mem, PF_CTR_WORK, work, st) : PF_OK;
}

int pf_cl_cancel_violations(pf_dev *dev, const pf_dev_graph *g, pf_buf *list,
                            int64_t count, pf_status *st)
{
    int rc;
    cl_kernel *set = NULL;
    if ((rc = kernels_for_graph(dev, g, &set, st)))
        return rc;
    if (count == 0)
        return PF_OK;
    return pf_cl_launch_cancel_violations(dev, set, groups_for(dev, count), dev->group_size,
                                          st, list->mem, count, g->first->mem, g->head->mem,
                                          g->rev->mem, g->res->mem, g->excess->mem,
                                          g->height->mem);
}

int pf_cl_sum_excess(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                     int64_t *sum, pf_status *st)
{
    int rc;
    cl_kernel *set = NULL;
    if ((rc = kernels_for_graph(dev, g, &set, st)) ||
        (rc = zero_counter(dev, g, PF_CTR_EXCESS, "excess sum counter", st)))
        return rc;
    if (count == 0) {
        *sum = 0;
        return PF_OK;
    }
    /* A few groups stride over the list: one atomic per group. */
    size_t groups = groups_for(dev, count);
    groups = groups < dev->stride_groups ? groups : dev->stride_groups;
    rc = pf_cl_launch_sum_excess(dev, set, groups, dev->group_size, st, list->mem, count,
                                 g->excess->mem, g->counters->mem, PF_CTR_EXCESS,
                                 dev->group_size);
    return rc ? rc : read_i64(dev, g->counters->mem, PF_CTR_EXCESS, sum, st);
}

int pf_cl_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2],
                     int32_t level, int32_t launches, int32_t hops, int32_t excluded,
                     int64_t *count, pf_status *st)
{
    int rc;
    cl_kernel *set = NULL;
    if ((rc = kernels_for_graph(dev, g, &set, st)))
        return rc;
    if (*count == 0 || launches <= 0)
        return PF_OK;
    /* Slot k % 3 holds launch k's list size: launch 0's from the host,
     * launch 1's starts at zero, later ones are cleared on the device. */
    const cl_long start[2] = {*count, 0};
    cl_int err = clEnqueueWriteBuffer(dev->queue, g->counters->mem, CL_TRUE,
                                      PF_CTR_BFS * sizeof(cl_long), sizeof start, start, 0, NULL,
                                      NULL);
    if (err != CL_SUCCESS)
        return pf_cl_fail_on(st, "clEnqueueWriteBuffer", "BFS frontier sizes", err);
    /* Work-items per frontier vertex: on a GPU a level waits for the
     * longest arc chain, so 8 share a vertex's arcs; a CPU gains nothing. */
    cl_int lanes = strcmp(dev->desc.kind, "gpu") ? 1 : 8;
    for (int32_t k = 0; k < launches; k++) {
        /* A fixed NDRange: the frontier size is only known on the device. */
        if ((rc = pf_cl_launch_bfs_level(
                 dev, set, dev->stride_groups, dev->group_size, st, frontier[k % 2]->mem,
                 g->first->mem, g->head->mem, g->rev->mem, g->res->mem, g->height->mem,
                 g->owner->mem, frontier[(k + 1) % 2]->mem, g->counters->mem,
                 PF_CTR_BFS + k % 3, PF_CTR_BFS + (k + 1) % 3, PF_CTR_BFS + (k + 2) % 3,
                 level + k + 1, excluded, lanes, hops)))
            return rc;
    }
    return read_i64(dev, g->counters->mem, PF_CTR_BFS + launches % 3, count, st);
}

/* ---- sparse transfers ---------------------------------------------------
 * Width-free, in the 64-bit program (sessions run on 64-bit residuals). */

int pf_cl_put_at(pf_dev *dev, pf_buf *dst, int32_t width, int64_t base, int64_t limit,
                 pf_buf *index, pf_buf *values, int64_t count, pf_status *st)
{
    cl_kernel *set = NULL;
    int rc = pf_cl_kernels_for(dev, 64, &set, st);
    if (rc || count == 0)
        return rc;
    return pf_cl_launch_put_at(dev, set, groups_for(dev, count), dev->group_size, st, dst->mem,
                               (cl_int)(width / 4), (cl_long)base, (cl_long)limit, index->mem,
                               values->mem, (cl_long)count);
}

int pf_cl_take_at(pf_dev *dev, pf_buf *src, int64_t base, int64_t limit, pf_buf *index,
                  pf_buf *out, int64_t count, pf_status *st)
{
    cl_kernel *set = NULL;
    int rc = pf_cl_kernels_for(dev, 64, &set, st);
    if (rc || count == 0)
        return rc;
    return pf_cl_launch_take_at_i64(dev, set, groups_for(dev, count), dev->group_size, st,
                                    src->mem, (cl_long)base, (cl_long)limit, index->mem,
                                    out->mem, (cl_long)count);
}

int pf_cl_mark_changed(pf_dev *dev, pf_buf *cur, pf_buf *snap, int64_t base, pf_buf *flags,
                       int64_t count, pf_status *st)
{
    cl_kernel *set = NULL;
    int rc = pf_cl_kernels_for(dev, 64, &set, st);
    if (rc || count == 0)
        return rc;
    return pf_cl_launch_mark_changed_i64(dev, set, groups_for(dev, count), dev->group_size,
                                         st, cur->mem, snap->mem, (cl_long)base, flags->mem,
                                         (cl_long)count);
}
