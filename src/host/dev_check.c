/* The checking layer at the device interface (dev_check.h): a checked ops
 * table per backend that validates each call and forwards it. Its devices
 * and buffers wrap the backend's: a buffer remembers its size, so every
 * range and count is checked against what was allocated. */
#include "dev_check.h"
#include "dev_check_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/status.h"

/* buf holds [offset, offset + bytes). */
static int check_bytes(const pf_buf *buf, size_t offset, size_t bytes, const char *step,
                       const char *name, pf_status *st)
{
    if (!buf)
        return pf_fail(st, PF_E_USAGE, "%s: no %s buffer", step, name);
    size_t size = CBUF(buf)->bytes;
    if (offset > size || bytes > size - offset)
        return pf_fail(st, PF_E_USAGE, "%s: %zu bytes at %zu outside the %zu-byte %s buffer",
                       step, bytes, offset, size, name);
    return PF_OK;
}

/* ---- devices and buffers ------------------------------------------------ */

static int wrap_dev(const pf_device_ops *inner, pf_dev **dev, pf_status *st)
{
    checked_dev *c = malloc(sizeof *c);
    if (!c) {
        inner->close(*dev);
        *dev = NULL;
        return pf_fail(st, PF_E_NOMEM, "out of host memory for a device handle");
    }
    c->inner = inner;
    c->dev = *dev;
    *dev = (pf_dev *)(void *)c;
    return PF_OK;
}

static int checked_open(const pf_device_ops *inner, const pf_open_params *params, pf_dev **dev,
                        pf_device_desc *desc, pf_status *st)
{
    if (!params || !dev || !desc)
        return pf_dc_usage(st, "open", "missing parameters, device or descriptor");
    if (params->device_index < -1 || params->threads < 0)
        return pf_fail(st, PF_E_USAGE, "open: device %d with %d threads", params->device_index,
                       params->threads);
    int rc = inner->open(params, dev, desc, st);
    return rc ? rc : wrap_dev(inner, dev, st);
}

static void c_close(pf_dev *dev)
{
    checked_dev *c = CDEV(dev);
    c->inner->close(c->dev);
    free(c);
}

static int c_alloc(pf_dev *dev, size_t bytes, pf_buf **buf, pf_status *st)
{
    checked_dev *c = CDEV(dev);
    checked_buf *b = malloc(sizeof *b);
    if (!b)
        return pf_fail(st, PF_E_NOMEM, "out of host memory for a buffer handle");
    int rc = c->inner->alloc(c->dev, bytes, &b->inner, st);
    if (rc) {
        free(b);
        return rc;
    }
    b->bytes = bytes;
    *buf = (pf_buf *)(void *)b;
    return PF_OK;
}

static void c_release(pf_dev *dev, pf_buf *buf)
{
    checked_dev *c = CDEV(dev);
    if (!buf)
        return;
    c->inner->release(c->dev, CBUF(buf)->inner);
    free(CBUF(buf));
}

/* A copy between buf's [offset, offset + bytes) and host memory at host:
 * step names it, buf_name its buffer's side, no_host what a missing host
 * pointer is called. */
static int check_copy(const pf_buf *buf, size_t offset, const void *host, size_t bytes,
                      const char *step, const char *buf_name, const char *no_host,
                      pf_status *st)
{
    int rc = check_bytes(buf, offset, bytes, step, buf_name, st);
    return !rc && bytes && !host ? pf_dc_usage(st, step, no_host) : rc;
}

static int c_upload(pf_dev *dev, pf_buf *dst, size_t offset, const void *src, size_t bytes,
                    pf_status *st)
{
    int rc = check_copy(dst, offset, src, bytes, "upload", "destination", "no source", st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->upload(c->dev, INNER(dst), offset, src, bytes, st);
}

static int c_download(pf_dev *dev, pf_buf *src, size_t offset, void *dst, size_t bytes,
                      pf_status *st)
{
    int rc = check_copy(src, offset, dst, bytes, "download", "source", "no destination", st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->download(c->dev, INNER(src), offset, dst, bytes, st);
}

/* fill_i32 (elem 4) or fill_i64 (elem 8): count elements of buf. */
static int c_fill(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count, size_t elem,
                  pf_status *st)
{
    const char *step = elem == 4 ? "fill_i32" : "fill_i64";
    int rc = pf_dc_check_elems(buf, count, elem, step, "target", st);
    checked_dev *c = CDEV(dev);
    if (rc)
        return rc;
    return elem == 4 ? c->inner->fill_i32(c->dev, INNER(buf), (int32_t)value, count, st)
                     : c->inner->fill_i64(c->dev, INNER(buf), value, count, st);
}

static int c_fill_i32(pf_dev *dev, pf_buf *buf, int32_t value, int64_t count, pf_status *st)
{
    return c_fill(dev, buf, value, count, sizeof value, st);
}

static int c_fill_i64(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count, pf_status *st)
{
    return c_fill(dev, buf, value, count, sizeof value, st);
}

static uint64_t c_held_bytes(pf_dev *dev)
{
    checked_dev *c = CDEV(dev);
    return c->inner->held_bytes(c->dev);
}

static int c_sync(pf_dev *dev, pf_status *st)
{
    checked_dev *c = CDEV(dev);
    return c->inner->sync(c->dev, st);
}

static int c_scan_i32(pf_dev *dev, pf_buf *in, pf_buf *out, int64_t count, int64_t *total,
                      pf_status *st)
{
    int rc = pf_dc_check_elems(in, count, 4, "scan_i32", "input", st);
    if (!rc)
        rc = pf_dc_check_elems(out, count, 4, "scan_i32", "output", st);
    if (!rc && !total)
        rc = pf_dc_usage(st, "scan_i32", "no total");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->scan_i32(c->dev, INNER(in), INNER(out), count, total, st);
}

static int c_filter_i32(pf_dev *dev, pf_buf *flags, pf_buf *out, int64_t count,
                        int64_t *selected, pf_status *st)
{
    int rc = pf_dc_check_elems(flags, count, 4, "filter_i32", "flags", st);
    if (!rc) /* every index may be selected */
        rc = pf_dc_check_elems(out, count, 4, "filter_i32", "output", st);
    if (!rc && !selected)
        rc = pf_dc_usage(st, "filter_i32", "no count out");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->filter_i32(c->dev, INNER(flags), INNER(out), count, selected, st);
}

/* ---- sparse transfers --------------------------------------------------- */

/* The array of `limit` elements of `width` bytes and the list of `count`
 * indices and values (the indices themselves are on the device: the
 * kernels skip any outside [0, limit)). */
static int check_sparse(const pf_buf *array, int32_t width, int64_t base, int64_t limit,
                        const pf_buf *index, const pf_buf *values, int64_t count,
                        const char *step, pf_status *st)
{
    if (width != 4 && width != 8)
        return pf_fail(st, PF_E_USAGE, "%s: elements of %d bytes", step, (int)width);
    if (base < 0 || limit < 0)
        return pf_fail(st, PF_E_USAGE, "%s: base %lld, limit %lld", step, (long long)base,
                       (long long)limit);
    int rc = pf_dc_check_elems(array, limit, (size_t)width, step, "array", st);
    if (!rc)
        rc = pf_dc_check_elems(index, count, 4, step, "index", st);
    if (!rc)
        rc = pf_dc_check_elems(values, count, (size_t)width, step, "values", st);
    return rc;
}

static int c_put_at(pf_dev *dev, pf_buf *dst, int32_t width, int64_t base, int64_t limit,
                    pf_buf *index, pf_buf *values, int64_t count, pf_status *st)
{
    int rc = check_sparse(dst, width, base, limit, index, values, count, "put_at", st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->put_at(c->dev, INNER(dst), width, base, limit, INNER(index),
                                      INNER(values), count, st);
}

static int c_take_at(pf_dev *dev, pf_buf *src, int64_t base, int64_t limit, pf_buf *index,
                     pf_buf *out, int64_t count, pf_status *st)
{
    int rc = check_sparse(src, 8, base, limit, index, out, count, "take_at", st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->take_at(c->dev, INNER(src), base, limit, INNER(index),
                                       INNER(out), count, st);
}

static int c_mark_changed(pf_dev *dev, pf_buf *cur, pf_buf *snap, int64_t base, pf_buf *flags,
                          int64_t count, pf_status *st)
{
    int rc = base < 0 || count < 0 || base > INT64_MAX - count
                 ? pf_fail(st, PF_E_USAGE, "mark_changed: %lld elements at %lld",
                           (long long)count, (long long)base)
                 : PF_OK;
    if (!rc)
        rc = pf_dc_check_elems(cur, base + count, 8, "mark_changed", "current", st);
    if (!rc)
        rc = pf_dc_check_elems(snap, base + count, 8, "mark_changed", "snapshot", st);
    if (!rc)
        rc = pf_dc_check_elems(flags, count, 4, "mark_changed", "flags", st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->mark_changed(c->dev, INNER(cur), INNER(snap), base,
                                            INNER(flags), count, st);
}

/* ---- the max-flow steps ------------------------------------------------- */

/* g's sizes and buffers, and the copy of g with the backend's buffers. */
static int check_graph(const pf_dev_graph *g, const char *step, pf_dev_graph *inner,
                       pf_status *st)
{
    if (!g)
        return pf_dc_usage(st, step, "no graph");
    if (g->n < 2 || g->n > INT32_MAX || g->arcs < 0)
        return pf_fail(st, PF_E_USAGE, "%s: a graph of %lld vertices and %lld arcs", step,
                       (long long)g->n, (long long)g->arcs);
    if (g->source < 0 || g->source >= g->n || g->sink < 0 || g->sink >= g->n ||
        g->source == g->sink)
        return pf_fail(st, PF_E_USAGE, "%s: source %d and sink %d in a graph of %lld vertices",
                       step, g->source, g->sink, (long long)g->n);
    if (g->cap_bits != 32 && g->cap_bits != 64)
        return pf_fail(st, PF_E_USAGE, "%s: residuals of %d bits (32 or 64)", step, g->cap_bits);
    size_t cap = (size_t)g->cap_bits / 8;
    int rc;
    if ((rc = pf_dc_check_elems(g->first, g->n + 1, 8, step, "first", st)) ||
        (rc = pf_dc_check_elems(g->head, g->arcs, 4, step, "head", st)) ||
        (rc = pf_dc_check_elems(g->rev, g->arcs, 4, step, "rev", st)) ||
        (rc = pf_dc_check_elems(g->res, g->arcs, cap, step, "res", st)) ||
        (rc = pf_dc_check_elems(g->excess, g->n, cap, step, "excess", st)) ||
        (rc = pf_dc_check_elems(g->height, g->n, 4, step, "height", st)) ||
        (rc = pf_dc_check_elems(g->flags, g->n, 4, step, "flags", st)) ||
        (rc = pf_dc_check_elems(g->list_a, g->n, 4, step, "list_a", st)) ||
        (rc = pf_dc_check_elems(g->list_b, g->n, 4, step, "list_b", st)) ||
        (rc = pf_dc_check_elems(g->counters, PF_CTR_COUNT, 8, step, "counters", st)) ||
        (g->follow_excess && (rc = pf_dc_check_elems(g->owner, g->n, 4, step, "owner", st))))
        return rc;
    *inner = *g;
    inner->first = INNER(g->first);
    inner->head = INNER(g->head);
    inner->rev = INNER(g->rev);
    inner->res = INNER(g->res);
    inner->excess = INNER(g->excess);
    inner->height = INNER(g->height);
    inner->flags = INNER(g->flags);
    inner->list_a = INNER(g->list_a);
    inner->list_b = INNER(g->list_b);
    inner->counters = INNER(g->counters);
    inner->owner = INNER(g->owner);
    return PF_OK;
}

/* The arcs of build_residual: arrays (tail, head, cap of 4, 4 and 8
 * bytes) or a CSR (indptr, head, cap of its sizes). */
static int check_arcs(const pf_dev_arcs *a, const char *step, pf_status *st)
{
    int csr = a->indptr != NULL;
    size_t index = csr ? (size_t)a->index_size : 4, cap = csr ? (size_t)a->cap_size : 8;
    if ((index != 4 && index != 8) || (cap != 4 && cap != 8) || csr == (a->tail != NULL))
        return pf_fail(st, PF_E_USAGE, "%s: arcs of %zu-byte ids and %zu-byte capacities, %s",
                       step, index, cap, csr ? "a CSR with tails" : "no tails and no CSR");
    int rc = csr ? pf_dc_check_elems(a->indptr, a->n + 1, index, step, "indptr", st)
                 : pf_dc_check_elems(a->tail, a->m, 4, step, "tail", st);
    if (!rc)
        rc = pf_dc_check_elems(a->head, a->m, index, step, "head", st);
    if (!rc)
        rc = pf_dc_check_elems(a->cap, a->m, cap, step, "cap", st);
    return rc;
}

static int c_build_residual(pf_dev *dev, pf_dev_graph *g, const pf_dev_arcs *arcs,
                            int64_t clamp, pf_buf *input_rev, pf_status *st)
{
    const char *step = "build_residual";
    pf_dev_graph in;
    int rc = check_graph(g, step, &in, st);
    if (!rc && (!arcs || arcs->n != g->n || arcs->m < 0 || g->arcs > 2 * arcs->m || clamp < 1))
        rc = pf_fail(st, PF_E_USAGE, "%s: %lld input arcs for %lld residual arcs and %lld "
                     "vertices, clamp %lld", step, arcs ? (long long)arcs->m : -1LL,
                     (long long)g->arcs, (long long)g->n, (long long)clamp);
    if (!rc)
        rc = check_arcs(arcs, step, st);
    if (!rc)
        rc = pf_dc_check_elems(input_rev, arcs->m, 8, step, "input_rev", st);
    if (rc)
        return rc;
    pf_dev_arcs inner_arcs = *arcs;
    inner_arcs.tail = arcs->tail ? INNER(arcs->tail) : NULL;
    inner_arcs.indptr = arcs->indptr ? INNER(arcs->indptr) : NULL;
    inner_arcs.head = INNER(arcs->head);
    inner_arcs.cap = INNER(arcs->cap);
    checked_dev *c = CDEV(dev);
    return c->inner->build_residual(c->dev, &in, &inner_arcs, clamp, INNER(input_rev), st);
}

static int c_arc_flows(pf_dev *dev, const pf_dev_graph *g, pf_buf *input_rev, int64_t m,
                       pf_buf *flow, pf_status *st)
{
    pf_dev_graph in;
    int rc = check_graph(g, "arc_flows", &in, st);
    if (!rc && (m < 0 || g->arcs > 2 * m))
        rc = pf_fail(st, PF_E_USAGE, "arc_flows: %lld input arcs for %lld residual arcs",
                     (long long)m, (long long)g->arcs);
    if (!rc)
        rc = pf_dc_check_elems(input_rev, m, 8, "arc_flows", "input_rev", st);
    if (!rc)
        rc = pf_dc_check_elems(flow, m, 8, "arc_flows", "flow", st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->arc_flows(c->dev, &in, INNER(input_rev), m, INNER(flow), st);
}

static int c_flow_matrix(pf_dev *dev, const pf_dev_graph *g, pf_buf *input_rev, int64_t m,
                         int32_t keep_repeats, pf_buf *indptr, pf_buf *columns, pf_buf *values,
                         pf_flow_matrix_made *made, pf_status *st)
{
    const char *step = "flow_matrix";
    pf_dev_graph in;
    int rc = check_graph(g, step, &in, st);
    if (!rc && (m < 0 || g->arcs > 2 * m || !made))
        rc = pf_fail(st, PF_E_USAGE, "%s: %lld input arcs for %lld residual arcs%s", step,
                     (long long)m, (long long)g->arcs, made ? "" : ", no count out");
    if ((!rc && (rc = pf_dc_check_elems(input_rev, m, 8, step, "input_rev", st))) ||
        (!rc && (rc = pf_dc_check_elems(indptr, g->n + 1, 8, step, "indptr", st))) ||
        (!rc && (rc = pf_dc_check_elems(columns, g->arcs, 4, step, "columns", st))) ||
        (!rc && (rc = pf_dc_check_elems(values, g->arcs, 8, step, "values", st))))
        return rc;
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->flow_matrix(c->dev, &in, INNER(input_rev), m, keep_repeats,
                                           INNER(indptr), INNER(columns), INNER(values),
                                           made, st);
}

/* A list of count vertices of g in buf. */
static int check_list(const pf_dev_graph *g, const pf_buf *list, int64_t count, const char *step,
                      pf_status *st)
{
    if (count > g->n)
        return pf_fail(st, PF_E_USAGE, "%s: a list of %lld vertices in a graph of %lld", step,
                       (long long)count, (long long)g->n);
    return pf_dc_check_elems(list, count, 4, step, "list", st);
}

static int c_mark_active(pf_dev *dev, const pf_dev_graph *g, pf_buf *flags, pf_status *st)
{
    pf_dev_graph in;
    int rc = check_graph(g, "mark_active", &in, st);
    if (!rc)
        rc = pf_dc_check_elems(flags, g->n, 4, "mark_active", "flags", st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->mark_active(c->dev, &in, INNER(flags), st);
}

static int c_saturate_from(pf_dev *dev, const pf_dev_graph *g, int32_t x, pf_status *st)
{
    pf_dev_graph in;
    int rc = check_graph(g, "saturate_from", &in, st);
    if (!rc && (x < 0 || x >= g->n))
        rc = pf_fail(st, PF_E_USAGE, "saturate_from: vertex %d outside 0..%lld", x,
                     (long long)g->n - 1);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->saturate_from(c->dev, &in, x, st);
}

/* The graph and a vertex list of a step; *in = the graph the backend gets. */
static int check_graph_list(const pf_dev_graph *g, const pf_buf *list, int64_t count,
                            const char *step, pf_dev_graph *in, pf_status *st)
{
    int rc = check_graph(g, step, in, st);
    return rc ? rc : check_list(g, list, count, step, st);
}

static int c_push_relabel(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                          int32_t cycles, int64_t *work, pf_status *st)
{
    pf_dev_graph in;
    int rc = check_graph_list(g, list, count, "push_relabel", &in, st);
    if (!rc && cycles < 0)
        rc = pf_fail(st, PF_E_USAGE, "push_relabel: %d cycles", cycles);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->push_relabel(c->dev, &in, INNER(list), count, cycles, work, st);
}

static int c_cancel_violations(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                               pf_status *st)
{
    pf_dev_graph in;
    int rc = check_graph_list(g, list, count, "cancel_violations", &in, st);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->cancel_violations(c->dev, &in, INNER(list), count, st);
}

static int c_sum_excess(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                        int64_t *sum, pf_status *st)
{
    pf_dev_graph in;
    int rc = check_graph_list(g, list, count, "sum_excess", &in, st);
    if (!rc && !sum)
        rc = pf_fail(st, PF_E_USAGE, "sum_excess: no place for the sum");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->sum_excess(c->dev, &in, INNER(list), count, sum, st);
}

static int c_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2],
                        int32_t level, int32_t launches, int32_t hops, int32_t excluded,
                        int64_t *count, pf_status *st)
{
    const char *step = "bfs_levels";
    pf_dev_graph in;
    int rc = check_graph(g, step, &in, st);
    if (!rc && (!frontier || !count))
        rc = pf_dc_usage(st, step, "no frontiers or count");
    if (!rc && (level < 0 || launches < 1 || level > INT32_MAX - launches - 1))
        rc = pf_fail(st, PF_E_USAGE, "%s: %d launches from level %d", step, launches, level);
    if (!rc && (hops < 1 || hops > PF_DEV_HOPS_MOST))
        rc = pf_fail(st, PF_E_USAGE, "%s: %d hops outside 1..%d", step, hops, PF_DEV_HOPS_MOST);
    if (!rc && (excluded < -1 || excluded >= g->n))
        rc = pf_fail(st, PF_E_USAGE, "%s: excluded vertex %d outside -1..%lld", step, excluded,
                     (long long)g->n - 1);
    if (!rc && hops > 1) /* the claims */
        rc = pf_dc_check_elems(g->owner, g->n, 4, step, "owner", st);
    if (!rc)
        rc = check_list(g, frontier[0], *count, step, st);
    /* Either frontier may receive every vertex. */
    if (!rc && (rc = pf_dc_check_elems(frontier[0], g->n, 4, step, "frontier", st)) == PF_OK)
        rc = pf_dc_check_elems(frontier[1], g->n, 4, step, "frontier", st);
    if (rc)
        return rc;
    pf_buf *const inner_frontier[2] = {INNER(frontier[0]), INNER(frontier[1])};
    checked_dev *c = CDEV(dev);
    return c->inner->bfs_levels(c->dev, &in, inner_frontier, level, launches, hops, excluded,
                                count, st);
}

/* ---- Floyd-Warshall ----------------------------------------------------- */

static int32_t c_fw_tile(pf_dev *dev, int32_t kind, int paths)
{
    checked_dev *c = CDEV(dev);
    return c->inner->fw_tile(c->dev, kind, paths);
}

static size_t kind_bytes(int32_t kind)
{
    return kind == PF_DIST_I64 ? 8 : 4;
}

/* a's sizes and buffers, and the copy of a with the backend's buffers. */
static int check_apsp(const pf_dev_apsp *a, const char *step, pf_dev_apsp *inner,
                      pf_status *st)
{
    if (!a)
        return pf_dc_usage(st, step, "no matrix");
    if (a->kind != PF_DIST_I32 && a->kind != PF_DIST_I64 && a->kind != PF_DIST_F32)
        return pf_fail(st, PF_E_USAGE, "%s: distance kind %d", step, a->kind);
    if (a->n < 1)
        return pf_fail(st, PF_E_USAGE, "%s: a matrix of order %d", step, a->n);
    int64_t cells = (int64_t)a->n * a->n;
    int rc = pf_dc_check_elems(a->dist, cells, kind_bytes(a->kind), step, "distance", st);
    if (!rc && a->next)
        rc = pf_dc_check_elems(a->next, cells, 4, step, "next-hop", st);
    if (rc)
        return rc;
    *inner = *a;
    inner->dist = INNER(a->dist);
    inner->next = INNER(a->next);
    return PF_OK;
}

static int c_fw_phase(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                      pf_status *st)
{
    pf_dev_apsp in;
    int rc = check_apsp(a, "fw_phase", &in, st);
    if (!rc && (a->tile < 1 || a->n % a->tile != 0))
        rc = pf_fail(st, PF_E_USAGE, "fw_phase: tile %d does not divide the order %d", a->tile,
                     a->n);
    if (!rc && (round < 0 || round >= a->n / a->tile))
        rc = pf_fail(st, PF_E_USAGE, "fw_phase: round %d outside 0..%d", round,
                     a->n / a->tile - 1);
    if (!rc && (phase < 1 || phase > 3))
        rc = pf_fail(st, PF_E_USAGE, "fw_phase: phase %d (1, 2 or 3)", phase);
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->fw_phase(c->dev, &in, round, phase, st);
}

static int c_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k,
                     pf_status *st)
{
    checked_dev *c = CDEV(dev);
    pf_dev_apsp in;
    int rc = check_apsp(a, "fw_step", &in, st);
    if (!rc && (variant < 0 || variant >= PF_FW_VARIANTS ||
                !(c->inner->fw_variants & 1u << variant)))
        rc = pf_fail(st, PF_E_USAGE, "fw_step: variant %d is not one %s runs", variant,
                     c->inner->name);
    if (!rc && a->n % 32 != 0)
        rc = pf_fail(st, PF_E_USAGE, "fw_step: order %d is not a multiple of 32", a->n);
    if (!rc && (k < 0 || k >= a->n))
        rc = pf_fail(st, PF_E_USAGE, "fw_step: k = %d outside 0..%d", k, a->n - 1);
    return rc ? rc : c->inner->fw_step(c->dev, &in, variant, k, st);
}

static int32_t c_fw_simd(pf_dev *dev, int32_t kind, int32_t width, char *what, size_t len)
{
    checked_dev *c = CDEV(dev);
    return c->inner->fw_simd(c->dev, kind, width, what, len);
}

static int c_fw_stats(pf_dev *dev, const pf_dev_apsp *a, int32_t n, pf_fw_stats *out,
                      pf_status *st)
{
    pf_dev_apsp in;
    int rc = check_apsp(a, "fw_stats", &in, st);
    if (!rc && (n < 0 || n > a->n))
        rc = pf_fail(st, PF_E_USAGE, "fw_stats: %d rows of a matrix of order %d", n, a->n);
    if (!rc && !out)
        rc = pf_dc_usage(st, "fw_stats", "no statistics out");
    checked_dev *c = CDEV(dev);
    return rc ? rc : c->inner->fw_stats(c->dev, &in, n, out, st);
}

/* ---- the checked tables ------------------------------------------------- */

enum { SLOTS = 8 };

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static const pf_device_ops *slot_inner[SLOTS];
static pf_device_ops slot_table[SLOTS];

/* open has no device to find the backend by: one entry per slot. */
#define SLOT_OPEN(i)                                                                          \
    static int open_##i(const pf_open_params *p, pf_dev **d, pf_device_desc *desc,          \
                        pf_status *st)                                                       \
    {                                                                                         \
        return checked_open(slot_inner[i], p, d, desc, st);                                  \
    }
SLOT_OPEN(0)
SLOT_OPEN(1)
SLOT_OPEN(2)
SLOT_OPEN(3)
SLOT_OPEN(4)
SLOT_OPEN(5)
SLOT_OPEN(6)
SLOT_OPEN(7)

static int (*const slot_open[SLOTS])(const pf_open_params *, pf_dev **, pf_device_desc *,
                                     pf_status *) = {open_0, open_1, open_2, open_3,
                                                     open_4, open_5, open_6, open_7};

/* Each entry the backend has, checked; the optional ones stay NULL where
 * it has none. */
#define CHECKED_IF_PRESENT(slot) t->slot = in->slot ? c_##slot : NULL
static void build_table(pf_device_ops *t, const pf_device_ops *in, int slot)
{
    *t = *in; /* name, caps, probe, maxflow_solve, fw_variants: as they are */
    t->open = slot_open[slot];
    t->close = c_close;
    t->alloc = c_alloc;
    t->release = c_release;
    t->upload = c_upload;
    t->download = c_download;
    t->fill_i32 = c_fill_i32;
    t->fill_i64 = c_fill_i64;
    CHECKED_IF_PRESENT(held_bytes);
    t->sync = c_sync;
    CHECKED_IF_PRESENT(scan_i32);
    CHECKED_IF_PRESENT(filter_i32);
    CHECKED_IF_PRESENT(put_at);
    CHECKED_IF_PRESENT(take_at);
    CHECKED_IF_PRESENT(mark_changed);
    CHECKED_IF_PRESENT(build_residual);
    CHECKED_IF_PRESENT(arc_flows);
    CHECKED_IF_PRESENT(flow_matrix);
    CHECKED_IF_PRESENT(mark_active);
    CHECKED_IF_PRESENT(saturate_from);
    CHECKED_IF_PRESENT(push_relabel);
    CHECKED_IF_PRESENT(cancel_violations);
    CHECKED_IF_PRESENT(sum_excess);
    CHECKED_IF_PRESENT(bfs_levels);
    CHECKED_IF_PRESENT(fw_tile);
    CHECKED_IF_PRESENT(fw_phase);
    CHECKED_IF_PRESENT(fw_step);
    CHECKED_IF_PRESENT(fw_simd);
    CHECKED_IF_PRESENT(fw_stats);
    pf_dc_graph_table(t, in);
}
#undef CHECKED_IF_PRESENT

const pf_device_ops *pf_dev_checked(const pf_device_ops *ops)
{
    const pf_device_ops *found = NULL;
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < SLOTS && !found; i++) {
        if (slot_inner[i] == ops || &slot_table[i] == ops) {
            found = &slot_table[i];
        } else if (!slot_inner[i]) {
            build_table(&slot_table[i], ops, i);
            slot_inner[i] = ops;
            found = &slot_table[i];
        }
    }
    pthread_mutex_unlock(&slots_lock);
    return found;
}

static pthread_once_t enabled_once = PTHREAD_ONCE_INIT;
static int enabled;

static void read_enabled(void)
{
    int64_t asked = pf_knobs()->check_args;
#ifdef NDEBUG
    int fallback = 0;
#else
    int fallback = 1;
#endif
    enabled = asked == PF_KNOB_AUTO ? fallback : asked != 0;
}

int pf_dev_check_enabled(void)
{
    pthread_once(&enabled_once, read_enabled);
    return enabled;
}

const pf_device_ops *pf_dev_check_ops(const pf_device_ops *ops)
{
    const pf_device_ops *checked = pf_dev_check_enabled() ? pf_dev_checked(ops) : NULL;
    return checked ? checked : ops;
}

int pf_dev_check_adopt(const pf_device_ops *checked, pf_dev **dev, pf_status *st)
{
    for (int i = 0; i < SLOTS; i++)
        if (&slot_table[i] == checked)
            return wrap_dev(slot_inner[i], dev, st);
    return PF_OK; /* not a checked table: the device stays as it is */
}
