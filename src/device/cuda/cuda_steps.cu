/* CUDA backend: the max-flow steps. Each __global__ kernel maps one
 * thread to one index and calls the body shared with OpenCL and OpenMP
 * (src/device/shared/pf_kernels.h); the algorithm lives there only. */
#include "cuda_internal.h"

#include "device/shared/pf_vendor.h"

/* The shared bodies once per width of residuals and excess: each struct
 * holds them as static members with its own pf_cap (pf_vendor.h), and a
 * kernel template takes the struct. pf_cap32 runs graphs the driver
 * proved 32 bits enough for (pf_dev_graph.cap_bits). */
struct pf_cap64 {
    typedef pf_i64 pf_cap;
#include "device/shared/pf_kernels.h"
};
struct pf_cap32 {
    typedef pf_i32 pf_cap;
#include "device/shared/pf_kernels.h"
};

/* Runs the statement with K = the body struct of the graph's width. */
#define PF_BY_WIDTH(bits, ...)        \
    do {                              \
        if ((bits) == 32) {           \
            typedef pf_cap32 K;       \
            __VA_ARGS__;              \
        } else {                      \
            typedef pf_cap64 K;       \
            __VA_ARGS__;              \
        }                             \
    } while (0)

/* One index per thread over a 1-D grid (gridDim.x allows 2^31-1 blocks,
 * so any int32 count fits without a grid-stride loop). */
static __device__ __forceinline__ pf_i64 thread_index(void)
{
    return (pf_i64)blockIdx.x * blockDim.x + threadIdx.x;
}

template <class K>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
    pf_k_mark_active(const typename K::pf_cap *excess, const pf_i32 *height, pf_i32 *flags,
                     pf_i32 n, pf_i32 source, pf_i32 sink)
{
    pf_i64 u = thread_index();
    if (u < n)
        K::pf_body_mark_active((pf_i32)u, excess, height, flags, n, source, sink);
}

/* Grid-stride over x's arcs: the host does not know x's degree without a
 * readback, so a fixed grid walks first[x]..first[x+1]. */
template <class K>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
    pf_k_saturate_from(pf_i32 x, const pf_i64 *first, const pf_i32 *head, const pf_i32 *rev,
                       typename K::pf_cap *res, typename K::pf_cap *excess, const pf_i32 *height,
                       pf_i32 n)
{
    pf_i64 end = first[x + 1];
    pf_i64 stride = (pf_i64)gridDim.x * blockDim.x;
    for (pf_i64 a = first[x] + thread_index(); a < end; a += stride)
        K::pf_body_saturate_arc(a, x, first, head, rev, res, excess, height, n);
}

template <class K>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
    pf_k_push_relabel(const pf_i32 *list, pf_i32 count, const pf_i64 *first, const pf_i32 *head,
                      const pf_i32 *rev, typename K::pf_cap *res, typename K::pf_cap *excess,
                      pf_i32 *height, pf_i32 *owner, pf_i32 n, pf_i32 source, pf_i32 sink,
                      pf_i32 follow, pf_i32 cycles, pf_i64 *work_counter)
{
    pf_i64 i = thread_index();
    if (i >= count)
        return;
    pf_i64 work =
        follow ? K::pf_body_push_relabel_follow(list[i], first, head, rev, res, excess, height,
                                                owner, n, source, sink, cycles)
               : K::pf_body_push_relabel(list[i], first, head, rev, res, excess, height, n, cycles);
    if (work != 0)
        PF_COUNTER_ADD(work_counter, work);
}

/* pf_body_push_relabel_lanes: LANES threads of a warp per listed vertex.
 * LANES is a template argument so that, with the body inlined, the group's
 * width, strides and shuffle widths are constants (a run-time width cost
 * 10-25% of the push time on the H100: bench/NOTES.md 13). */
template <class K, int LANES>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
    pf_k_push_relabel_lanes(const pf_i32 *list, pf_i32 count, const pf_i64 *first,
                            const pf_i32 *head, const pf_i32 *rev, typename K::pf_cap *res,
                            typename K::pf_cap *excess, pf_i32 *height, pf_i32 *owner, pf_i32 n,
                            pf_i32 source, pf_i32 sink, pf_i32 follow, pf_i32 cycles,
                            pf_i64 *work_counter)
{
    pf_i64 i = thread_index() / LANES; /* the same for the whole group */
    if (i >= count)
        return;
    unsigned warp_lane = threadIdx.x % 32;
    pf_lanes grp;
    grp.lanes = LANES;
    grp.lane = (int)(warp_lane % LANES);
    grp.mask = (LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u)) << (warp_lane - grp.lane);
    pf_i64 work = K::pf_body_push_relabel_lanes(&grp, list[i], first, head, rev, res, excess,
                                                height, owner, n, source, sink, follow, cycles);
    if (work != 0)
        PF_COUNTER_ADD(work_counter, work);
}

template <class K>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
    pf_k_cancel_violations(const pf_i32 *list, pf_i32 count, const pf_i64 *first,
                           const pf_i32 *head, const pf_i32 *rev, typename K::pf_cap *res,
                           typename K::pf_cap *excess, const pf_i32 *height)
{
    pf_i64 i = thread_index();
    if (i < count)
        K::pf_body_cancel_violations(list[i], first, head, rev, res, excess, height);
}

/* Work-items per frontier vertex in a BFS level (see pf_body_bfs_vertex):
 * 8 covers the typical residual degree of the benchmark families. */
#define PF_CUDA_BFS_LANES 8

template <class K>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
    pf_k_bfs_level(const pf_i32 *in, const pf_i64 *first, const pf_i32 *head, const pf_i32 *rev,
                   const typename K::pf_cap *res, pf_i32 *height, pf_i32 *out, pf_i64 *counts,
                   pf_i32 in_slot, pf_i32 out_slot, pf_i32 clear_slot, pf_i32 n, pf_i32 level,
                   pf_i32 excluded)
{
    K::pf_body_bfs_level_strided(thread_index(), (pf_i64)gridDim.x * blockDim.x, PF_CUDA_BFS_LANES,
                                 in, first, head, rev, res, height, out, counts, in_slot, out_slot,
                                 clear_slot, n, level, excluded);
}

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
                pf_k_mark_active<K><<<pf_cuda_blocks(p.n), PF_CUDA_BLOCK, 0, dev->stream>>>(
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
    PF_BY_WIDTH(g->cap_bits, pf_k_saturate_from<K><<<blocks, PF_CUDA_BLOCK, 0, dev->stream>>>(
                                 x, p.first, p.head, p.rev, (K::pf_cap *)p.res,
                                 (K::pf_cap *)p.excess, p.height, p.n));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_saturate_from");
    return PF_OK;
}

int pf_cuda_push_relabel(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                         int32_t cycles, int64_t *work, pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin(dev, g, "push_relabel", list, count, &p, st);
    if (rc == PF_OK)
        rc = zero_counter(dev, &p, PF_CTR_WORK, st);
    if (rc != PF_OK)
        return rc;
    if (count > 0 && cycles > 0) {
        const pf_i32 *vertices = pf_cuda_ptr<const pf_i32>(list);
        pf_i32 *owner = pf_cuda_ptr<pf_i32>(g->owner);
        pf_i64 *work_counter = &p.counters[PF_CTR_WORK];
        int lanes = dev->push_lanes;
/* The kernel is the variadic part: its template arguments hold a comma. */
#define PF_PUSH_LAUNCH(width, ...)                                                            \
    __VA_ARGS__<<<pf_cuda_blocks(count * (width)), PF_CUDA_BLOCK, 0, dev->stream>>>(          \
        vertices, (pf_i32)count, p.first, p.head, p.rev, (K::pf_cap *)p.res,                 \
        (K::pf_cap *)p.excess, p.height, owner, p.n, g->source, g->sink, g->follow_excess,   \
        cycles, work_counter)
        PF_BY_WIDTH(g->cap_bits, switch (lanes) {
            case 32: PF_PUSH_LAUNCH(32, pf_k_push_relabel_lanes<K, 32>); break;
            case 16: PF_PUSH_LAUNCH(16, pf_k_push_relabel_lanes<K, 16>); break;
            case 8: PF_PUSH_LAUNCH(8, pf_k_push_relabel_lanes<K, 8>); break;
            case 4: PF_PUSH_LAUNCH(4, pf_k_push_relabel_lanes<K, 4>); break;
            case 2: PF_PUSH_LAUNCH(2, pf_k_push_relabel_lanes<K, 2>); break;
            default: PF_PUSH_LAUNCH(1, pf_k_push_relabel<K>);
        });
#undef PF_PUSH_LAUNCH
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
                pf_k_cancel_violations<K><<<pf_cuda_blocks(count), PF_CUDA_BLOCK, 0,
                                            dev->stream>>>(
                    pf_cuda_ptr<const pf_i32>(list), (pf_i32)count, p.first, p.head, p.rev,
                    (K::pf_cap *)p.res, (K::pf_cap *)p.excess, p.height));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_cancel_violations");
    return PF_OK;
}

int pf_cuda_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2],
                       int32_t level, int32_t levels, int32_t excluded, int64_t *count,
                       pf_status *st)
{
    graph_ptrs p = {};
    int rc = step_begin(dev, g, "bfs_levels", frontier[0], *count, &p, st);
    if (rc != PF_OK || *count == 0 || levels <= 0)
        return rc;
    /* Slot k % 3 holds level k's frontier size; level 0's comes from the
     * host, level 1's slot starts at zero, later ones are cleared on the
     * device by the level two before. */
    pf_i64 start[2] = {*count, 0};
    PF_CUDA_TRY(st, "cudaMemcpyAsync(BFS counts)",
                cudaMemcpyAsync(&p.counters[PF_CTR_BFS], start, sizeof start,
                                cudaMemcpyHostToDevice, dev->stream));
    /* A fixed grid: the frontier size is only known on the device. */
    int64_t blocks = pf_cuda_blocks(p.n);
    if (blocks > 2LL * dev->sm_count)
        blocks = 2LL * dev->sm_count; /* frontiers are small: launch cost rules */
    for (int32_t k = 0; k < levels; k++) {
        PF_BY_WIDTH(g->cap_bits,
                    pf_k_bfs_level<K><<<(unsigned)blocks, PF_CUDA_BLOCK, 0, dev->stream>>>(
                        pf_cuda_ptr<const pf_i32>(frontier[k % 2]), p.first, p.head, p.rev,
                        (const K::pf_cap *)p.res, p.height,
                        pf_cuda_ptr<pf_i32>(frontier[(k + 1) % 2]), p.counters,
                        PF_CTR_BFS + k % 3, PF_CTR_BFS + (k + 1) % 3, PF_CTR_BFS + (k + 2) % 3,
                        p.n, level + k, excluded));
        PF_CUDA_CHECK_LAUNCH(st, "pf_k_bfs_level");
    }
    return read_counter(dev, &p, PF_CTR_BFS + levels % 3, count, st);
}
