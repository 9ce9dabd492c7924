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
#include "../common/omp_threads.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/device.h"
#include "driver_internal.h"
#include "engine.h"

/* The layout the device builds (device.h); the driver's own order. */
#define DEVICE_ORDER PF_ARCS_FORWARD_ROTATED

/* Device bytes of the build beyond the graph's: the input (tail, head,
 * cap), input_rev, and the scratch of a CUDA-like build (keys and arc
 * numbers, sorted and not, an end per arc; five int64 per vertex). */
#define BUILD_BYTES_PER_ARC (4 + 4 + 8 + 8 + 4 * 4 + 8)
#define BUILD_BYTES_PER_VERTEX (5 * 8)

int drv_builds_on_device(const pf_device_ops *ops, const pf_network *net)
{
    return pf_knobs()->device_build != 0 && ops->build_residual && ops->arc_flows &&
           ops->caps.maxflow_steps && !net->csr.indptr && !net->sources && net->m > 0 &&
           net->m <= INT32_MAX && net->n >= 2 && net->n < INT32_MAX &&
           pf_residual_order_for(ops->caps.forward_first_arcs) == DEVICE_ORDER;
}

int pf_parallel_builds_on_device(const pf_device_ops *ops, const pf_network *net)
{
    return ops && drv_builds_on_device(ops, net);
}

/* f and the self-loops of net, in one pass over its arcs. Capacities are
 * at most 2^62 and arcs at most 2^31: each sum is kept as the sums of
 * the capacities' high and low 31 bits, which cannot overflow. */
static void network_facts(const pf_network *net, int threads, drv_facts *f, int64_t *loops)
{
    const int32_t *tail = net->tail, *head = net->head, source = net->source;
    const int64_t *cap = net->cap;
    const uint64_t low = ((uint64_t)1 << 31) - 1;
    int64_t self = 0;
    uint64_t total_hi = 0, total_lo = 0, supply_hi = 0, supply_lo = 0;
    threads = pf_resolve_threads(threads);
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
        total_lo += c & low;
        if (tail[i] == source) {
            supply_hi += c >> 31;
            supply_lo += c & low;
        }
    }
    __int128 total = ((__int128)total_hi << 31) + total_lo;
    __int128 supply = ((__int128)supply_hi << 31) + supply_lo;
    f->total_overflows = total > INT64_MAX;
    f->supply = supply > INT64_MAX ? INT64_MAX : (int64_t)supply;
    *loops = self;
}

static int device_alloc(driver *d, pf_buf **buf, size_t bytes, pf_status *st)
{
    return d->ops->alloc(d->dev, bytes ? bytes : 1, buf, st);
}

/* The input up, the graph laid out on the device, the preflow reset. */
static int build_on_device(driver *d, int64_t clamp, pf_status *st)
{
    const pf_network *net = d->net;
    const pf_device_ops *ops = d->ops;
    size_t m = (size_t)net->m;
    pf_buf *tail = NULL, *head = NULL, *cap = NULL;
    int rc;
    if (!(rc = device_alloc(d, &tail, m * 4, st)) && !(rc = device_alloc(d, &head, m * 4, st)) &&
        !(rc = device_alloc(d, &cap, m * 8, st)) &&
        !(rc = device_alloc(d, &d->input_rev, m * 8, st)) &&
        !(rc = ops->upload(d->dev, tail, 0, net->tail, m * 4, st)) &&
        !(rc = ops->upload(d->dev, head, 0, net->head, m * 4, st)) &&
        !(rc = ops->upload(d->dev, cap, 0, net->cap, m * 8, st))) {
        d->bytes += m * 8;
        pf_dev_arcs arcs = {.n = net->n, .m = net->m, .tail = tail, .head = head, .cap = cap};
        rc = ops->build_residual(d->dev, &d->g, &arcs, clamp, d->input_rev, st);
    }
    pf_buf *input[] = {tail, head, cap};
    for (int i = 0; i < 3; i++)
        if (input[i])
            ops->release(d->dev, input[i]);
    return rc ? rc : drv_reset_preflow(d, st);
}

int drv_host_graph_now(driver *d, pf_status *st)
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

int drv_open_network(driver *d, const pf_device_ops *ops, pf_early_device *early,
                     const pf_network *net, pf_residual *shell, const pf_solve_options *opt,
                     pf_engine_out *out, pf_status *st)
{
    double t0 = pf_now();
    drv_facts facts;
    int64_t loops = 0;
    network_facts(net, opt->threads, &facts, &loops);
    *shell = (pf_residual){.order = DEVICE_ORDER, .n = net->n, .arcs = 2 * (net->m - loops),
                           .source = net->source, .sink = net->sink, .input_arcs = net->m,
                           .output_arcs = net->m};
    drv_init(d, ops, shell, opt, out);
    d->facts = facts;
    d->net = net;
    double t_facts = pf_now();
    int rc = drv_check_limits(ops, shell->arcs, &facts, st);
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

int drv_network_flows(driver *d, int handed_off, int64_t *arc_flow, pf_status *st)
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

void drv_network_end(driver *d)
{
    if (d->out && d->out->res == d->own_res)
        d->out->res = NULL;
    pf_residual_free_later(&d->own_host, d->own_res,
                           d->own_res ? ((size_t)d->own_host.arcs + 1) * sizeof *d->own_res : 0);
    d->own_res = NULL;
}
