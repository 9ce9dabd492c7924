/* The parallel driver on a residual graph the device builds itself
 * (device.h: build_residual). The host reads the input once for what it
 * must decide before the device does anything (the source's capacity,
 * which sets the residuals' width; the capacities' total; the
 * self-loops, which set the graph's size), sends the arcs up as they are
 * (16 bytes an arc, against 32 for the residual graph's two arcs) and
 * never lays the residual graph out itself: that build was most of a
 * CUDA solve of a large grid (bench/NOTES.md 61). The host builds its
 * copy only where it must: at a handoff to its engine (the excess
 * crawls), or where the device has no room for the build's scratch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/network.h"
#include "../common/omp_threads.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/device.h"
#include "driver_internal.h"
#include "engine.h"

/* The layout the device builds (device.h); the driver's own order. */
#define DEVICE_ORDER PF_ARCS_FORWARD_ROTATED

/* Device bytes of the build beyond the graph's: the input (tail, head,
 * cap; a CSR's widened to them once more), input_rev, and the scratch of
 * a CUDA-like build (keys and arc numbers, sorted and not, an end per
 * arc; five int64 per vertex). */
#define BUILD_BYTES_PER_ARC (2 * (4 + 4 + 8) + 8 + 4 * 4 + 8)
#define BUILD_BYTES_PER_VERTEX (5 * 8)
/* And of the flow matrix, per residual arc: its columns and values, and
 * the scratch of a CUDA-like sort (keys and arcs, sorted and not, two
 * marks, two counts) and of the values narrowed; its row starts per
 * vertex. */
#define MATRIX_BYTES_PER_ARC (4 + 8 + 4 * 4 + 2 + 2 * 8 + 4)
#define MATRIX_BYTES_PER_VERTEX 8

int pf_parallel_can_build_on_device(const pf_device_ops *ops)
{
    return ops && pf_knobs()->device_build != 0 && ops->build_residual && ops->arc_flows &&
           ops->caps.maxflow_steps;
}

static int drv_builds_on_device(const pf_device_ops *ops, const pf_network *net)
{
    return pf_parallel_can_build_on_device(ops) && !net->sources && net->m > 0 &&
           net->m <= INT32_MAX && net->n >= 2 && net->n < INT32_MAX &&
           pf_residual_order_for(ops->caps.forward_first_arcs) == DEVICE_ORDER;
}

int pf_parallel_builds_on_device(const pf_device_ops *ops, const pf_network *net)
{
    return ops && drv_builds_on_device(ops, net);
}

/* Sums of capacities kept as the sums of their high and low 31 bits:
 * capacities are at most 2^62 and arcs at most 2^31, so neither part can
 * overflow. */
typedef struct split_sum {
    uint64_t hi, lo;
} split_sum;

#define LOW_31 (((uint64_t)1 << 31) - 1)

/* The split sum put together; *past (if given): it passes INT64_MAX. */
static int64_t split_value(uint64_t hi, uint64_t lo, int *past)
{
    __int128 sum = ((__int128)hi << 31) + lo;
    if (past)
        *past = sum > INT64_MAX;
    return sum > INT64_MAX ? INT64_MAX : (int64_t)sum;
}

/* f and the self-loops of net, in one pass over its arcs (arrays). */
static void array_facts(const pf_network *net, int threads, drv_facts *f, int64_t *loops)
{
    const int32_t *tail = net->tail, *head = net->head, source = net->source;
    const int64_t *cap = net->cap;
    int64_t self = 0;
    uint64_t total_hi = 0, total_lo = 0, supply_hi = 0, supply_lo = 0;
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1) \
           reduction(+ : self, total_hi, total_lo, supply_hi, supply_lo))
    for (int64_t i = 0; i < net->m; i++) {
        if (tail[i] == head[i]) {
            self++;
            continue;
        }
        uint64_t c = (uint64_t)cap[i];
        total_hi += c >> 31;
        total_lo += c & LOW_31;
        if (tail[i] == source) {
            supply_hi += c >> 31;
            supply_lo += c & LOW_31;
        }
    }
    split_value(total_hi, total_lo, &f->total_overflows);
    f->supply = split_value(supply_hi, supply_lo, NULL);
    *loops = self;
}

/* The same for a CSR view, row by row, which also checks each entry as
 * the host's build would (pf_network_view_csr checks only the row
 * starts): PF_E_INPUT naming the first entry whose column or capacity is
 * out of range. */
static int csr_facts(const pf_network *net, int threads, drv_facts *f, int64_t *loops,
                     pf_status *st)
{
    const pf_csr_arcs *c = &net->csr;
    const int64_t n = net->n, source = net->source;
    int64_t self = 0, first_bad = net->m;
    uint64_t total_hi = 0, total_lo = 0, supply_hi = 0, supply_lo = 0;
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel for num_threads(threads) schedule(dynamic, 4096) if (threads > 1) \
           reduction(+ : self, total_hi, total_lo, supply_hi, supply_lo) \
           reduction(min : first_bad))
    for (int64_t u = 0; u < n; u++) {
        int64_t end = pf_sized_element(c->indptr, c->index_size, u + 1);
        for (int64_t k = pf_sized_element(c->indptr, c->index_size, u); k < end; k++) {
            int64_t v = pf_sized_element(c->indices, c->index_size, k);
            int64_t cap = pf_sized_element(c->caps, c->cap_size, k);
            if (v < 0 || v >= n || cap < 0 || cap > PF_CAP_MAX) {
                first_bad = k < first_bad ? k : first_bad;
                continue;
            }
            if (v == u) {
                self++;
                continue;
            }
            total_hi += (uint64_t)cap >> 31;
            total_lo += (uint64_t)cap & LOW_31;
            if (u == source) {
                supply_hi += (uint64_t)cap >> 31;
                supply_lo += (uint64_t)cap & LOW_31;
            }
        }
    }
    if (first_bad < net->m)
        return pf_csr_entry_error(c, n, first_bad, st);
    split_value(total_hi, total_lo, &f->total_overflows);
    f->supply = split_value(supply_hi, supply_lo, NULL);
    *loops = self;
    return PF_OK;
}

static int network_facts(const pf_network *net, int threads, drv_facts *f, int64_t *loops,
                         pf_status *st)
{
    threads = pf_resolve_threads(threads);
    if (net->csr.indptr)
        return csr_facts(net, threads, f, loops, st);
    array_facts(net, threads, f, loops);
    return PF_OK;
}

static int device_alloc(driver *d, pf_buf **buf, size_t bytes, pf_status *st)
{
    return d->ops->alloc(d->dev, bytes ? bytes : 1, buf, st);
}

/* The input up as it is held (arrays, or a CSR view's rows, columns and
 * capacities), the graph laid out on the device, the preflow reset. */
static int build_on_device(driver *d, int64_t clamp, pf_status *st)
{
    const pf_network *net = d->net;
    const pf_csr_arcs *c = &net->csr;
    const pf_device_ops *ops = d->ops;
    size_t m = (size_t)net->m, n = (size_t)net->n;
    int csr = c->indptr != NULL;
    size_t index = csr ? (size_t)c->index_size : 4, cap_size = csr ? (size_t)c->cap_size : 8;
    const void *rows = csr ? c->indptr : (const void *)net->tail;
    const void *heads = csr ? c->indices : (const void *)net->head;
    const void *caps = csr ? c->caps : (const void *)net->cap;
    size_t row_bytes = csr ? (n + 1) * index : m * 4;
    pf_buf *row = NULL, *head = NULL, *cap = NULL;
    int rc;
    if (!(rc = device_alloc(d, &row, row_bytes, st)) &&
        !(rc = device_alloc(d, &head, m * index, st)) &&
        !(rc = device_alloc(d, &cap, m * cap_size, st)) &&
        !(rc = device_alloc(d, &d->input_rev, m * 8, st)) &&
        !(rc = ops->upload(d->dev, row, 0, rows, row_bytes, st)) &&
        !(rc = ops->upload(d->dev, head, 0, heads, m * index, st)) &&
        !(rc = ops->upload(d->dev, cap, 0, caps, m * cap_size, st))) {
        d->bytes += m * 8;
        pf_dev_arcs arcs = {.n = net->n, .m = net->m, .tail = csr ? NULL : row, .head = head,
                            .cap = cap, .indptr = csr ? row : NULL,
                            .index_size = (int32_t)index, .cap_size = (int32_t)cap_size};
        rc = ops->build_residual(d->dev, &d->g, &arcs, clamp, d->input_rev, st);
    }
    pf_buf *input[] = {row, head, cap};
    for (int i = 0; i < 3; i++)
        if (input[i])
            ops->release(d->dev, input[i]);
    return rc ? rc : drv_reset_preflow(d, st);
}

static int drv_host_graph_now(driver *d, pf_status *st)
{
    if (d->host == &d->own_host)
        return PF_OK;
    double t0 = pf_now();
    int rc = pf_residual_build(d->net, &d->own_host, DEVICE_ORDER, d->host_threads, st);
    if (rc)
        return rc == PF_E_DEVICE ? PF_E_INPUT : rc;
    d->host = &d->own_host;
    d->own_res = pf_alloc((size_t)d->own_host.arcs + 1, sizeof *d->own_res, st);
    if (!d->own_res)
        return PF_E_NOMEM;
    d->out->res = d->own_res;
    if (d->g.cap_bits == 32 && !d->cap32)
        rc = drv_make_cap32(d, d->clamp, st);
    d->out->times.setup += pf_now() - t0;
    if (d->trace)
        fprintf(stderr, "portaflow trace: the host's copy of the residual graph %.4f s\n",
                pf_now() - t0);
    return rc;
}

static int drv_open_network(driver *d, const pf_device_ops *ops, pf_early_device *early,
                            const pf_network *net, pf_residual *shell,
                            const pf_solve_options *opt, pf_engine_out *out, pf_status *st)
{
    double t0 = pf_now();
    drv_facts facts = {0};
    int64_t loops = 0;
    int rc = network_facts(net, opt->threads, &facts, &loops, st);
    *shell = (pf_residual){.order = DEVICE_ORDER, .n = net->n, .arcs = 2 * (net->m - loops),
                           .source = net->source, .sink = net->sink, .input_arcs = net->m,
                           .output_arcs = net->m};
    drv_init(d, ops, shell, opt, out);
    d->facts = facts;
    d->net = net;
    d->input_loops = loops;
    d->host_graph_now = drv_host_graph_now;
    double t_facts = pf_now();
    if (!rc)
        rc = drv_check_limits(ops, shell->arcs, &facts, st);
    if (!rc)
        rc = drv_open_device(d, ops, early, opt, st);
    if (rc) {
        d->dev = NULL;
        return rc;
    }
    snprintf(out->device, sizeof out->device, "%s", d->desc.name);
    double t_opened = pf_now();
    d->clamp = INT64_MAX;
    rc = drv_ready_buffers(d, t0, t_opened, &d->clamp, st);
    if (rc)
        return rc;
    double t_up = pf_now();
    uint64_t scratch = (uint64_t)net->m * BUILD_BYTES_PER_ARC +
                       (uint64_t)net->n * BUILD_BYTES_PER_VERTEX;
    int room = !d->desc.global_mem || d->bytes + scratch <= d->desc.global_mem;
    if (room) {
        rc = build_on_device(d, d->clamp, st);
    } else { /* the graph fits, the build's scratch does not: the host's way */
        rc = drv_host_graph_now(d, st);
        if (!rc)
            rc = drv_upload_graph(d, st);
    }
    out->times.upload += pf_now() - t_up;
    out->device_bytes = d->bytes;
    if (d->trace)
        fprintf(stderr,
                "portaflow trace: %s: input read %.4f s, device open %.4f s, %s %.4f s\n",
                ops->name, t_facts - t0, t_opened - t_facts,
                room ? "arcs sent and laid out there" : "no room to lay out there: built here",
                pf_now() - t_up);
    return rc;
}

static int drv_network_flows(driver *d, int handed_off, int64_t *arc_flow, pf_status *st)
{
    double t0 = pf_now();
    int rc = PF_OK;
    if (d->host == &d->own_host) {
        /* a handoff, or built here: the residuals in the host's copy */
        if (!handed_off)
            rc = drv_download_residuals(d, d->own_res, st);
        if (!rc)
            pf_residual_arc_flows(&d->own_host, d->own_res, arc_flow, d->host_threads);
    } else {
        const pf_device_ops *ops = d->ops;
        size_t m = (size_t)d->net->m;
        pf_buf *flow = NULL;
        rc = device_alloc(d, &flow, m * 8, st);
        if (!rc)
            rc = ops->arc_flows(d->dev, &d->g, d->input_rev, (int64_t)m, flow, st);
        if (!rc)
            rc = ops->download(d->dev, flow, 0, arc_flow, m * 8, st);
        if (flow)
            ops->release(d->dev, flow);
    }
    d->out->times.download += pf_now() - t0;
    return rc;
}

/* After a solve that stayed on the device (no handoff), on a network
 * without self-loops, where the device has room: scipy's flow matrix
 * (csr_flow.h) made there (device.h: flow_matrix), *made = 1; else *made
 * = 0 and *out empty (the host makes it from the arc flows). */
static int drv_network_matrix(driver *d, int keep_repeats, pf_csr_matrix *out, int *made,
                              pf_status *st)
{
    *made = 0;
    memset(out, 0, sizeof *out);
    const pf_device_ops *ops = d->ops;
    uint64_t scratch = (uint64_t)d->g.arcs * MATRIX_BYTES_PER_ARC +
                       (uint64_t)(d->g.n + 1) * MATRIX_BYTES_PER_VERTEX;
    int room = !d->desc.global_mem || d->bytes + scratch <= d->desc.global_mem;
    if (!ops->flow_matrix || d->host == &d->own_host || d->input_loops > 0 || !room)
        return PF_OK;
    double t0 = pf_now();
    int64_t n = d->g.n, arcs = d->g.arcs;
    pf_flow_matrix_made sizes = {0};
    pf_buf *indptr = NULL, *columns = NULL, *values = NULL;
    int32_t *narrow_columns = NULL;
    int rc;
    if (!(rc = device_alloc(d, &indptr, (size_t)(n + 1) * 8, st)) &&
        !(rc = device_alloc(d, &columns, (size_t)arcs * 4, st)) &&
        !(rc = device_alloc(d, &values, (size_t)arcs * 8, st)))
        rc = ops->flow_matrix(d->dev, &d->g, d->input_rev, d->net->m, keep_repeats, indptr,
                              columns, values, &sizes, st);
    /* Read back into the matrix's own arrays, at the sizes the device
     * wrote; only columns of a matrix past 2^31 entries widen here. */
    int64_t entries = sizes.entries;
    if (!rc) {
        *out = (pf_csr_matrix){.rows = n, .entries = entries, .index_size = sizes.index_size,
                               .value_size = sizes.value_size};
        out->indptr = pf_alloc((size_t)n + 1, (size_t)sizes.index_size, st);
        narrow_columns = pf_alloc((size_t)entries + 1, 4, st);
        out->values = pf_alloc((size_t)entries + 1, (size_t)sizes.value_size, st);
        out->indices = sizes.index_size == 4 ? narrow_columns
                                             : pf_alloc((size_t)entries + 1, 8, st);
        if (!out->indptr || !narrow_columns || !out->values || !out->indices)
            rc = PF_E_NOMEM;
    }
    if (!rc &&
        !(rc = ops->download(d->dev, indptr, 0, out->indptr,
                             (size_t)(n + 1) * (size_t)sizes.index_size, st)) &&
        !(rc = ops->download(d->dev, columns, 0, narrow_columns, (size_t)entries * 4, st)) &&
        !(rc = ops->download(d->dev, values, 0, out->values,
                             (size_t)entries * (size_t)sizes.value_size, st))) {
        if (out->indices != narrow_columns) {
            int threads = pf_resolve_threads(d->host_threads);
            (void)threads; /* read by the directive only */
            PF_OMP(omp parallel for num_threads(threads) if (threads > 1))
            for (int64_t e = 0; e < entries; e++)
                ((int64_t *)out->indices)[e] = narrow_columns[e];
        }
        *made = 1;
    }
    if (out->indices != narrow_columns)
        free(narrow_columns);
    if (!*made) {
        free(out->indices);
        free(out->indptr);
        free(out->values);
        memset(out, 0, sizeof *out);
    }
    pf_buf *bufs[] = {indptr, columns, values};
    for (int i = 0; i < 3; i++)
        if (bufs[i])
            ops->release(d->dev, bufs[i]);
    d->out->times.download += pf_now() - t0;
    if (d->trace)
        fprintf(stderr, "portaflow trace: %s: the flow matrix made on the device %.4f s\n",
                ops->name, pf_now() - t0);
    return rc;
}

static void drv_network_end(driver *d)
{
    if (d->out && d->out->res == d->own_res)
        d->out->res = NULL;
    pf_residual_free_later(&d->own_host, d->own_res,
                           d->own_res ? ((size_t)d->own_host.arcs + 1) * sizeof *d->own_res : 0);
    d->own_res = NULL;
}

int pf_parallel_solve_network(const pf_device_ops *ops, pf_early_device *early,
                              const pf_network *net, const pf_solve_options *opt,
                              pf_engine_out *out, int64_t *arc_flow,
                              pf_matrix_request *matrix, pf_status *st)
{
    driver d;
    pf_residual shell;
    int rc = drv_open_network(&d, ops, early, net, &shell, opt, out, st);
    int handed_off = 0;
    if (!rc)
        rc = drv_run_solve(&d, &handed_off, st);
    if (!rc && matrix && opt->want_flow)
        rc = drv_network_matrix(&d, matrix->repeats == PF_CSR_KEEP_REPEATS, &matrix->matrix,
                                &matrix->made, st);
    if (matrix)
        matrix->flows_skipped = !rc && matrix->made && !matrix->flows_wanted;
    if (!rc && opt->want_flow && !(matrix && matrix->flows_skipped))
        rc = drv_network_flows(&d, handed_off, arc_flow, st);
    if (d.dev && d.ops->held_bytes)
        out->device_bytes += d.ops->held_bytes(d.dev);
    drv_close(&d);
    drv_network_end(&d);
    return rc;
}
