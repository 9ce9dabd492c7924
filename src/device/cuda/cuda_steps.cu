/* CUDA backend: the max-flow steps. The kernels and the bodies they call
 * are shared with OpenCL (and the bodies with OpenMP): the end of
 * src/device/shared/pf_kernels.h, with their parameters in
 * pf_kernel_table.h; this file compiles them once per width of residuals
 * and excess and launches them. */
#include "cuda_internal.h"

#include "device/shared/pf_vendor.h"
#include "device/shared/pf_kernel_table.h"
/* At file scope: both namespaces below share the work-group queues. */
#include "device/shared/pf_hops.h"

/* The slot of the relabel work counter, which the kernels name. */
#define PF_CTR_WORK_SLOT PF_CTR_WORK

/* The bodies and kernels once per width: each namespace holds them with
 * its own pf_cap (pf_vendor.h). pf_cap32 runs graphs the driver proved
 * 32 bits enough for (pf_dev_graph.cap_bits). */
namespace pf_cap64 {
typedef pf_i64 pf_cap;
#include "device/shared/pf_kernels.h"
} // namespace pf_cap64
namespace pf_cap32 {
typedef pf_i32 pf_cap;
#include "device/shared/pf_kernels.h"
} // namespace pf_cap32

/* Runs the statement with K = the namespace of the graph's width. */
#define PF_BY_WIDTH(bits, ...)        \
    do {                              \
        if ((bits) == 32) {           \
            namespace K = pf_cap32;   \
            __VA_ARGS__;              \
        } else {                      \
            namespace K = pf_cap64;   \
            __VA_ARGS__;              \
        }                             \
    } while (0)

/* Work-items per frontier vertex in a BFS level (see pf_body_bfs_vertex):
 * 8 covers the residual degree of typical sparse networks. */
#define PF_CUDA_BFS_LANES 8

/* ---- host side ----------------------------------------------------------- */

/* Typed device pointers of the graph (pf_i64 is long long in CUDA C++,
 * int64_t is long: the bodies want the former). */
struct graph_ptrs {
    const pf_i64 *first;
    const pf_i32 *head;
    const pf_i32 *rev;
    void *res;    /* K::pf_cap[arcs] */
    void *excess; /* K::pf_cap[n] */
    pf_i32 *height;
    pf_i64 *counters;
    pf_i32 n;
};

static int graph_ptrs_of(const pf_dev_graph *g, graph_ptrs *p, pf_status *st)
{
    if (!g || g->n < 2 || g->n > INT32_MAX)
        return pf_fail(st, PF_E_DEVICE, "cuda: graph with %lld vertices",
                       g ? (long long)g->n : -1LL);
    if (g->cap_bits != 32 && g->cap_bits != 64)
        return pf_fail(st, PF_E_DEVICE, "cuda: residuals of %d bits", (int)g->cap_bits);
    p->first = pf_cuda_ptr<const pf_i64>(g->first);
    p->head = pf_cuda_ptr<const pf_i32>(g->head);
    p->rev = pf_cuda_ptr<const pf_i32>(g->rev);
    p->res = g->res->ptr;
    p->excess = g->excess->ptr;
    p->height = pf_cuda_ptr<pf_i32>(g->height);
    p->counters = pf_cuda_ptr<pf_i64>(g->counters);
    p->n = (pf_i32)g->n;
    return PF_OK;
}

/* Common prologue: device current, typed pointers. Lists and counts are
 * checked at the interface (src/host/dev_check.c). */
static int step_begin(pf_dev *dev, const pf_dev_graph *g, const char *step, const pf_buf *list,
                      int64_t count, graph_ptrs *p, pf_status *st)
{
    (void)step, (void)list, (void)count;
    int rc = graph_ptrs_of(g, p, st);
    if (rc == PF_OK)
        rc = pf_cuda_enter(dev, st);
    return rc;
}

/* Zeroes counters[slot] on the stream. */
static int zero_counter(pf_dev *dev, const graph_ptrs *p, int slot, pf_status *st)
{
    PF_CUDA_TRY(st, "cudaMemsetAsync(counter)",
                cudaMemsetAsync(&p->counters[slot], 0, sizeof(pf_i64), dev->stream));
    return PF_OK;
}

/* Reads counters[slot] back (waits for the stream). */
static int read_counter(pf_dev *dev, const graph_ptrs *p, int slot, int64_t *value,
                        pf_status *st)
{
    int rc = pf_cuda_stage(dev, PF_CUDA_SLOT_A, &p->counters[slot], sizeof(pf_i64), st);
    if (rc == PF_OK)
        rc = pf_cuda_wait(dev, st);
    if (rc == PF_OK)
        *value = dev->pinned[PF_CUDA_SLOT_A];
    return rc;
}

/* step_begin, then counters[slot] = 0 for the step to add into. */
static int step_begin_counted(pf_dev *dev, const pf_dev_graph *g, const char *step,
                              const pf_buf *list, int64_t count, int slot, graph_ptrs *p,
                              pf_status *st)
{
    int rc = step_begin(dev, g, step, list, count, p, st);
    return rc != PF_OK ? rc : zero_counter(dev, p, slot, st);
}

int pf_cuda_mark_active(pf_dev *dev, const pf_dev_graph *g, pf_buf *flags, pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin(dev, g, "mark_active", NULL, 0, &p, st);
    if (rc == PF_OK && (uint64_t)p.n > flags->bytes / sizeof(pf_i32))
        rc = pf_fail(st, PF_E_DEVICE, "cuda mark_active: flags buffer of %zu bytes for %d vertices",
                     flags->bytes, p.n);
    if (rc != PF_OK)
        return rc;
    PF_BY_WIDTH(g->cap_bits,
                K::pf_k_mark_active<<<pf_cuda_blocks(p.n), PF_CUDA_BLOCK, 0, dev->stream>>>(
                    (const K::pf_cap *)p.excess, p.height, pf_cuda_ptr<pf_i32>(flags), p.n,
                    g->source, g->sink));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_mark_active");
    return PF_OK;
}

int pf_cuda_saturate_from(pf_dev *dev, const pf_dev_graph *g, int32_t x, pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin(dev, g, "saturate_from", NULL, 0, &p, st);
    if (rc == PF_OK && (x < 0 || x >= p.n))
        rc = pf_fail(st, PF_E_DEVICE, "cuda saturate_from: vertex %d of %d", x, p.n);
    if (rc != PF_OK)
        return rc;
    /* A few blocks per multiprocessor cover the largest degree in a few
     * strides; this step runs a handful of times per solve. */
    unsigned blocks = (unsigned)dev->sm_count * 4u;
    PF_BY_WIDTH(g->cap_bits, K::pf_k_saturate_from<<<blocks, PF_CUDA_BLOCK, 0, dev->stream>>>(
                                 x, p.first, p.head, p.rev, (K::pf_cap *)p.res,
                                 (K::pf_cap *)p.excess, p.height, p.n));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_saturate_from");
    return PF_OK;
}

int pf_cuda_push_relabel(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                         int32_t cycles, int64_t *work, pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin_counted(dev, g, "push_relabel", list, count, PF_CTR_WORK, &p, st);
    if (rc != PF_OK)
        return rc;
    if (count > 0 && cycles > 0) {
        const pf_i32 *vertices = pf_cuda_ptr<const pf_i32>(list);
        pf_i32 *owner = pf_cuda_ptr<pf_i32>(g->owner);
        int lanes = dev->push_lanes;
/* The kernel is the variadic part: its template arguments hold a comma. */
#define PF_PUSH_LANES(width, ...)                                                             \
    __VA_ARGS__<<<pf_cuda_blocks(count * (width)), PF_CUDA_BLOCK, 0, dev->stream>>>(          \
        vertices, count, p.first, p.head, p.rev, (K::pf_cap *)p.res, (K::pf_cap *)p.excess,  \
        p.height, owner, p.n, g->source, g->sink, g->follow_excess, cycles, p.counters)
        PF_BY_WIDTH(g->cap_bits, switch (lanes) {
            case 32: PF_PUSH_LANES(32, K::pf_k_push_relabel_group<32>); break;
            case 16: PF_PUSH_LANES(16, K::pf_k_push_relabel_group<16>); break;
            case 8: PF_PUSH_LANES(8, K::pf_k_push_relabel_group<8>); break;
            case 4: PF_PUSH_LANES(4, K::pf_k_push_relabel_group<4>); break;
            case 2: PF_PUSH_LANES(2, K::pf_k_push_relabel_group<2>); break;
            default:
                if (g->follow_excess)
                    K::pf_k_push_relabel_follow<<<pf_cuda_blocks(count), PF_CUDA_BLOCK, 0,
                                                  dev->stream>>>(
                        vertices, count, p.first, p.head, p.rev, (K::pf_cap *)p.res,
                        (K::pf_cap *)p.excess, p.height, owner, p.n, g->source, g->sink, cycles,
                        p.counters);
                else
                    K::pf_k_push_relabel<<<pf_cuda_blocks(count), PF_CUDA_BLOCK, 0,
                                           dev->stream>>>(
                        vertices, count, p.first, p.head, p.rev, (K::pf_cap *)p.res,
                        (K::pf_cap *)p.excess, p.height, p.n, cycles, p.counters);
        });
#undef PF_PUSH_LANES
        PF_CUDA_CHECK_LAUNCH(st, "pf_k_push_relabel");
    } else if (work) {
        *work = 0; /* nothing ran: no need to wait for the zeroed counter */
        return PF_OK;
    }
    return work ? read_counter(dev, &p, PF_CTR_WORK, work, st) : PF_OK;
}

int pf_cuda_cancel_violations(pf_dev *dev, const pf_dev_graph *g, pf_buf *list,
                              int64_t count, pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin(dev, g, "cancel_violations", list, count, &p, st);
    if (rc != PF_OK || count == 0)
        return rc;
    PF_BY_WIDTH(g->cap_bits,
                K::pf_k_cancel_violations<<<pf_cuda_blocks(count), PF_CUDA_BLOCK, 0,
                                            dev->stream>>>(
                    pf_cuda_ptr<const pf_i32>(list), count, p.first, p.head, p.rev,
                    (K::pf_cap *)p.res, (K::pf_cap *)p.excess, p.height));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_cancel_violations");
    return PF_OK;
}

int pf_cuda_sum_excess(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                       int64_t *sum, pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin_counted(dev, g, "sum_excess", list, count, PF_CTR_EXCESS, &p, st);
    if (rc != PF_OK)
        return rc;
    if (count == 0) {
        *sum = 0;
        return PF_OK;
    }
    /* At most 128 blocks stride over the list: one atomic per thread. */
    unsigned blocks = pf_cuda_blocks(count);
    blocks = blocks < 128 ? blocks : 128;
    PF_BY_WIDTH(g->cap_bits,
                K::pf_k_sum_excess<<<blocks, PF_CUDA_BLOCK, 0, dev->stream>>>(
                    pf_cuda_ptr<const pf_i32>(list), count, (const K::pf_cap *)p.excess,
                    p.counters, PF_CTR_EXCESS));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_sum_excess");
    return read_counter(dev, &p, PF_CTR_EXCESS, sum, st);
}

int pf_cuda_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2],
                       int32_t level, int32_t launches, int32_t hops, int32_t excluded,
                       int64_t *count, pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin(dev, g, "bfs_levels", frontier[0], *count, &p, st);
    if (rc != PF_OK || *count == 0 || launches <= 0)
        return rc;
    /* Slot k % 3 holds launch k's list size; launch 0's comes from the
     * host, launch 1's slot starts at zero, later ones are cleared on the
     * device by the launch two before. */
    pf_i64 start[2] = {*count, 0};
    PF_CUDA_TRY(st, "cudaMemcpyAsync(BFS counts)",
                cudaMemcpyAsync(&p.counters[PF_CTR_BFS], start, sizeof start,
                                cudaMemcpyHostToDevice, dev->stream));
    /* A fixed grid: the frontier size is only known on the device. */
    int64_t blocks = pf_cuda_blocks(p.n);
    if (blocks > 2LL * dev->sm_count)
        blocks = 2LL * dev->sm_count; /* frontiers are small: launch cost rules */
    pf_i32 *claim = pf_cuda_ptr<pf_i32>(g->owner);
    for (int32_t k = 0; k < launches; k++) {
        PF_BY_WIDTH(g->cap_bits,
                    K::pf_k_bfs_level<<<(unsigned)blocks, PF_CUDA_BLOCK, 0, dev->stream>>>(
                        pf_cuda_ptr<const pf_i32>(frontier[k % 2]), p.first, p.head, p.rev,
                        (const K::pf_cap *)p.res, p.height, claim,
                        pf_cuda_ptr<pf_i32>(frontier[(k + 1) % 2]), p.counters,
                        PF_CTR_BFS + k % 3, PF_CTR_BFS + (k + 1) % 3, PF_CTR_BFS + (k + 2) % 3,
                        level + k + 1, excluded, PF_CUDA_BFS_LANES, hops));
        PF_CUDA_CHECK_LAUNCH(st, "pf_k_bfs_level");
    }
    return read_counter(dev, &p, PF_CTR_BFS + launches % 3, count, st);
}

/* ---- sparse transfers: width-free, compiled in the 64-bit namespace ---- */

int pf_cuda_put_at(pf_dev *dev, pf_buf *dst, int32_t width, int64_t base, int64_t limit,
                   pf_buf *index, pf_buf *values, int64_t count, pf_status *st)
{
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK || count == 0)
        return rc;
    pf_cap64::pf_k_put_at<<<pf_cuda_blocks(count), PF_CUDA_BLOCK, 0, dev->stream>>>(
        pf_cuda_ptr<pf_i32>(dst), width / 4, base, limit, pf_cuda_ptr<const pf_i32>(index),
        pf_cuda_ptr<const pf_i32>(values), count);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_put_at");
    return PF_OK;
}

int pf_cuda_take_at(pf_dev *dev, pf_buf *src, int64_t base, int64_t limit, pf_buf *index,
                    pf_buf *out, int64_t count, pf_status *st)
{
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK || count == 0)
        return rc;
    pf_cap64::pf_k_take_at_i64<<<pf_cuda_blocks(count), PF_CUDA_BLOCK, 0, dev->stream>>>(
        pf_cuda_ptr<const pf_i64>(src), base, limit, pf_cuda_ptr<const pf_i32>(index),
        pf_cuda_ptr<pf_i64>(out), count);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_take_at_i64");
    return PF_OK;
}

int pf_cuda_mark_changed(pf_dev *dev, pf_buf *cur, pf_buf *snap, int64_t base, pf_buf *flags,
                         int64_t count, pf_status *st)
{
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK || count == 0)
        return rc;
    pf_cap64::pf_k_mark_changed_i64<<<pf_cuda_blocks(count), PF_CUDA_BLOCK, 0, dev->stream>>>(
        pf_cuda_ptr<const pf_i64>(cur), pf_cuda_ptr<pf_i64>(snap), base,
        pf_cuda_ptr<pf_i32>(flags), count);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_mark_changed_i64");
    return PF_OK;
}
