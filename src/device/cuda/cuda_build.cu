/* CUDA backend: the residual graph built on the device (device.h:
 * build_residual, arc_flows), the layout of the host's build bit for bit.
 *
 * The host counts each vertex's arcs, sums, and walks the input in order
 * placing every arc end (residual.c). Here the order within a vertex's
 * forward part (its out-arcs in input order) and reverse part (its
 * in-arcs in input order) comes from two stable radix sorts of the arc
 * numbers, by tail and by head; an arc's rank in its part is its place
 * in the sorted run less the run's start (an exclusive scan of the
 * degrees), and src/common/arc_turn.h turns it as the host does.
 * Self-loops sort after every vertex (key n) and get no residual arcs.
 * A CSR's arcs are first laid out as arrays (a row found per arc by a
 * binary search of the row starts). Temporary buffers are stream-ordered
 * allocations, gone at the end. */
#include "cuda_internal.h"

#include <climits>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

extern "C" {
#include "common/arc_turn.h"
}

typedef unsigned long long pf_u64;

/* Grid-stride loops: m may pass what one launch covers. */
#define FOR_EACH(i, count)                                                              \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (count);        \
         i += (int64_t)gridDim.x * blockDim.x)

/* Keys for the sort by tail (by_head = 0) or head, the arc numbers as
 * values; with count_degrees, each arc also counts at both its ends. */
__global__ void pf_k_build_keys(const int32_t *tail, const int32_t *head, int64_t m, int32_t n,
                                int by_head, int count_degrees, uint32_t *keys, uint32_t *ids,
                                pf_u64 *out_deg, pf_u64 *in_deg)
{
    FOR_EACH(i, m)
    {
        int32_t u = tail[i], v = head[i];
        int loop = u == v;
        keys[i] = loop ? (uint32_t)n : (uint32_t)(by_head ? v : u);
        ids[i] = (uint32_t)i;
        if (count_degrees && !loop) {
            atomicAdd(&out_deg[u], 1ull);
            atomicAdd(&in_deg[v], 1ull);
        }
    }
}

/* degree[u] = out_deg[u] + in_deg[u], for the scan into first. */
__global__ void pf_k_build_degrees(const pf_u64 *out_deg, const pf_u64 *in_deg, int64_t n,
                                   pf_u64 *degree)
{
    FOR_EACH(u, n)
    degree[u] = out_deg[u] + in_deg[u];
}

/* One arc end per sorted entry: the forward ends (sorted by tail) or the
 * reverse ends (by head), at their turned place in their part. */
template <typename Cap>
__global__ void pf_k_build_place(const uint32_t *keys, const uint32_t *ids, int64_t m,
                                 int32_t n, int reverse, const pf_u64 *part_start,
                                 const pf_u64 *out_deg, const pf_u64 *in_deg,
                                 const long long *first, const int32_t *tail,
                                 const int32_t *head, const long long *cap, long long clamp,
                                 int32_t *g_head, Cap *g_res, long long *end_of_input)
{
    FOR_EACH(k, m)
    {
        uint32_t u = keys[k];
        if (u >= (uint32_t)n)
            continue; /* self-loops, sorted last */
        uint32_t i = ids[k];
        int64_t rank = k - (int64_t)part_start[u];
        int64_t lo = first[u] + (reverse ? (int64_t)out_deg[u] : 0);
        int64_t len = (int64_t)(reverse ? in_deg[u] : out_deg[u]);
        int64_t at = pf_turned_position(lo, len, rank, (int64_t)u, reverse);
        g_head[at] = reverse ? tail[i] : head[i];
        long long c = reverse ? 0 : cap[i];
        g_res[at] = (Cap)(c < clamp ? c : clamp);
        end_of_input[i] = at;
    }
}

/* rev of both ends of every input arc (positions in the head's list, or
 * with `absolute` the reverse arcs' indices); input_rev -1 at self-loops. */
__global__ void pf_k_build_pairs(const int32_t *tail, const int32_t *head, int64_t m,
                                 const long long *first, const long long *forward,
                                 long long *input_rev, int absolute, int32_t *g_rev)
{
    FOR_EACH(i, m)
    {
        int32_t u = tail[i], v = head[i];
        if (u == v) {
            input_rev[i] = -1;
            continue;
        }
        long long a = forward[i], b = input_rev[i];
        g_rev[a] = absolute ? (int32_t)(uint32_t)b : (int32_t)(b - first[v]);
        g_rev[b] = absolute ? (int32_t)(uint32_t)a : (int32_t)(a - first[u]);
    }
}

/* A CSR's arcs as arrays: each arc's row by a binary search of the row
 * starts (the last row starting at or before it: empty rows are passed
 * over), its column and capacity widened. */
template <typename Index, typename Capacity>
__global__ void pf_k_csr_arcs(const Index *indptr, const Index *columns, const Capacity *caps,
                              int64_t n, int64_t m, int32_t *tail, int32_t *head,
                              long long *cap)
{
    FOR_EACH(k, m)
    {
        int64_t lo = 0, hi = n - 1;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo + 1) / 2;
            if ((int64_t)indptr[mid] <= k)
                lo = mid;
            else
                hi = mid - 1;
        }
        tail[k] = (int32_t)lo;
        head[k] = (int32_t)columns[k];
        cap[k] = (long long)caps[k];
    }
}

template <typename Cap>
__global__ void pf_k_arc_flows(const long long *input_rev, int64_t m, const Cap *res,
                               long long *flow)
{
    FOR_EACH(i, m)
    {
        long long b = input_rev[i];
        flow[i] = b < 0 ? 0 : (long long)res[b];
    }
}

/* ---- host side ----------------------------------------------------------- */

static unsigned grid_for(const pf_dev *dev, int64_t count)
{
    int64_t blocks = (count + PF_CUDA_BLOCK - 1) / PF_CUDA_BLOCK;
    int64_t most = (int64_t)dev->sm_count * 32;
    if (blocks > most)
        blocks = most;
    return (unsigned)(blocks > 0 ? blocks : 1);
}

/* The build's temporary device memory, freed in stream order. */
struct build_temp {
    uint32_t *keys, *ids, *keys_sorted, *ids_sorted;
    long long *forward;                        /* m: each input arc's forward end */
    pf_u64 *out_deg, *in_deg, *degree, *out_start, *in_start; /* n each */
};

static int temp_alloc(pf_dev *dev, void **p, size_t bytes, pf_status *st)
{
    PF_CUDA_TRY(st, "cudaMallocAsync(build scratch)",
                cudaMallocAsync(p, bytes ? bytes : 1, dev->stream));
    return PF_OK;
}

static void temp_free(pf_dev *dev, build_temp *t)
{
    void *all[] = {t->keys, t->ids, t->keys_sorted, t->ids_sorted, t->forward,
                   t->out_deg, t->in_deg, t->degree, t->out_start, t->in_start};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (all[i])
            cudaFreeAsync(all[i], dev->stream);
}

static int temp_reserve(pf_dev *dev, build_temp *t, int64_t n, int64_t m, pf_status *st)
{
    size_t arcs = (size_t)m * sizeof(uint32_t), verts = (size_t)n * sizeof(pf_u64);
    int rc = PF_OK;
    void **four[] = {(void **)&t->keys, (void **)&t->ids, (void **)&t->keys_sorted,
                     (void **)&t->ids_sorted};
    for (size_t i = 0; !rc && i < 4; i++)
        rc = temp_alloc(dev, four[i], arcs, st);
    if (!rc)
        rc = temp_alloc(dev, (void **)&t->forward, (size_t)m * sizeof(long long), st);
    void **per_vertex[] = {(void **)&t->out_deg, (void **)&t->in_deg, (void **)&t->degree,
                           (void **)&t->out_start, (void **)&t->in_start};
    for (size_t i = 0; !rc && i < 5; i++)
        rc = temp_alloc(dev, per_vertex[i], verts, st);
    return rc;
}

/* The sort of (keys, ids) into (keys_sorted, ids_sorted), stable, on the
 * bits that hold 0..n. */
static int sort_ends(pf_dev *dev, build_temp *t, int64_t m, int end_bit, pf_status *st)
{
    return pf_cuda_cub_run(
        dev, "cub::DeviceRadixSort::SortPairs", st, [&](void *temp, size_t &bytes) {
            return cub::DeviceRadixSort::SortPairs(temp, bytes, t->keys, t->keys_sorted, t->ids,
                                                   t->ids_sorted, m, 0, end_bit, dev->stream);
        });
}

/* first[0] = 0, first[u + 1] = the degrees of 0..u summed; the two parts'
 * starts in the sorted runs. */
static int scan_degrees(pf_dev *dev, build_temp *t, long long *first, int64_t n, pf_status *st)
{
    pf_k_build_degrees<<<grid_for(dev, n), PF_CUDA_BLOCK, 0, dev->stream>>>(
        t->out_deg, t->in_deg, n, t->degree);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_build_degrees");
    PF_CUDA_TRY(st, "cudaMemsetAsync(first[0])",
                cudaMemsetAsync(first, 0, sizeof *first, dev->stream));
    int rc =
        pf_cuda_cub_run(dev, "cub::DeviceScan::InclusiveSum", st, [&](void *temp, size_t &bytes) {
            return cub::DeviceScan::InclusiveSum(temp, bytes, t->degree, first + 1, n, dev->stream);
        });
    /* Each part's starts: its degrees scanned, exclusive. */
    pf_u64 *degrees[] = {t->out_deg, t->in_deg};
    pf_u64 *starts[] = {t->out_start, t->in_start};
    for (int part = 0; !rc && part < 2; part++)
        rc = pf_cuda_cub_run(
            dev, "cub::DeviceScan::ExclusiveSum", st, [&](void *temp, size_t &bytes) {
                return cub::DeviceScan::ExclusiveSum(temp, bytes, degrees[part], starts[part], n,
                                                     dev->stream);
            });
    return rc;
}

/* One part of every list: keys (by head for the reverse part; the
 * forward part's are there from the count), the sort, the places. */
static int place_part(pf_dev *dev, pf_dev_graph *g, const pf_dev_arcs *in, build_temp *t,
                      int reverse, long long clamp, long long *end_of_input, pf_status *st)
{
    int64_t n = in->n, m = in->m;
    const int32_t *tail = pf_cuda_ptr<const int32_t>(in->tail);
    const int32_t *head = pf_cuda_ptr<const int32_t>(in->head);
    unsigned grid = grid_for(dev, m);
    if (reverse) {
        pf_k_build_keys<<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(
            tail, head, m, (int32_t)n, 1, 0, t->keys, t->ids, NULL, NULL);
        PF_CUDA_CHECK_LAUNCH(st, "pf_k_build_keys");
    }
    int end_bit = 1;
    while (end_bit < 32 && ((uint64_t)n >> end_bit) != 0)
        end_bit++;
    int rc = sort_ends(dev, t, m, end_bit, st);
    if (rc)
        return rc;
    const pf_u64 *start = reverse ? t->in_start : t->out_start;
    const long long *first = pf_cuda_ptr<const long long>(g->first);
    const long long *cap = pf_cuda_ptr<const long long>(in->cap);
    int32_t *g_head = pf_cuda_ptr<int32_t>(g->head);
    if (g->cap_bits == 32)
        pf_k_build_place<int32_t><<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(
            t->keys_sorted, t->ids_sorted, m, (int32_t)n, reverse, start, t->out_deg,
            t->in_deg, first, tail, head, cap, clamp, g_head, pf_cuda_ptr<int32_t>(g->res),
            end_of_input);
    else
        pf_k_build_place<long long><<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(
            t->keys_sorted, t->ids_sorted, m, (int32_t)n, reverse, start, t->out_deg,
            t->in_deg, first, tail, head, cap, LLONG_MAX, g_head,
            pf_cuda_ptr<long long>(g->res), end_of_input);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_build_place");
    return PF_OK;
}

static int build_on(pf_dev *dev, pf_dev_graph *g, const pf_dev_arcs *in, long long clamp,
                    pf_buf *input_rev, build_temp *t, pf_status *st)
{
    int64_t n = in->n, m = in->m;
    int rc = temp_reserve(dev, t, n, m, st);
    if (rc)
        return rc;
    PF_CUDA_TRY(st, "cudaMemsetAsync(degrees)",
                cudaMemsetAsync(t->out_deg, 0, (size_t)n * sizeof(pf_u64), dev->stream));
    PF_CUDA_TRY(st, "cudaMemsetAsync(degrees)",
                cudaMemsetAsync(t->in_deg, 0, (size_t)n * sizeof(pf_u64), dev->stream));
    const int32_t *tail = pf_cuda_ptr<const int32_t>(in->tail);
    const int32_t *head = pf_cuda_ptr<const int32_t>(in->head);
    pf_k_build_keys<<<grid_for(dev, m), PF_CUDA_BLOCK, 0, dev->stream>>>(
        tail, head, m, (int32_t)n, 0, 1, t->keys, t->ids, t->out_deg, t->in_deg);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_build_keys (degrees)");
    long long *first = pf_cuda_ptr<long long>(g->first);
    long long *reverse_ends = pf_cuda_ptr<long long>(input_rev);
    if ((rc = scan_degrees(dev, t, first, n, st)) ||
        (rc = place_part(dev, g, in, t, 0, clamp, t->forward, st)) ||
        (rc = place_part(dev, g, in, t, 1, clamp, reverse_ends, st)))
        return rc;
    pf_k_build_pairs<<<grid_for(dev, m), PF_CUDA_BLOCK, 0, dev->stream>>>(
        tail, head, m, first, t->forward, reverse_ends, 0, pf_cuda_ptr<int32_t>(g->rev));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_build_pairs");
    return PF_OK;
}

/* A CSR's arcs as arrays in *arrays (their buffers stream-ordered
 * allocations in `own`, freed by the caller). */
static int csr_as_arrays(pf_dev *dev, const pf_dev_arcs *in, pf_dev_arcs *arrays,
                         pf_buf own[3], pf_status *st)
{
    int64_t n = in->n, m = in->m;
    size_t sizes[3] = {(size_t)m * 4, (size_t)m * 4, (size_t)m * 8};
    for (int i = 0; i < 3; i++) {
        own[i].bytes = sizes[i];
        int rc = temp_alloc(dev, &own[i].ptr, sizes[i], st);
        if (rc)
            return rc;
    }
    *arrays = (pf_dev_arcs){.n = n, .m = m, .tail = &own[0], .head = &own[1], .cap = &own[2],
                            .indptr = NULL, .index_size = 4, .cap_size = 8};
    int32_t *tail = pf_cuda_ptr<int32_t>(&own[0]), *head = pf_cuda_ptr<int32_t>(&own[1]);
    long long *cap = pf_cuda_ptr<long long>(&own[2]);
    unsigned grid = grid_for(dev, m);
#define PF_CSR_ARCS(Index, Capacity)                                                         \
    pf_k_csr_arcs<Index, Capacity><<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(                 \
        pf_cuda_ptr<const Index>(in->indptr), pf_cuda_ptr<const Index>(in->head),            \
        pf_cuda_ptr<const Capacity>(in->cap), n, m, tail, head, cap)
    if (in->index_size == 4 && in->cap_size == 4)
        PF_CSR_ARCS(int32_t, int32_t);
    else if (in->index_size == 4)
        PF_CSR_ARCS(int32_t, long long);
    else if (in->cap_size == 4)
        PF_CSR_ARCS(long long, int32_t);
    else
        PF_CSR_ARCS(long long, long long);
#undef PF_CSR_ARCS
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_csr_arcs");
    return PF_OK;
}

extern "C" int pf_cuda_build_residual(pf_dev *dev, pf_dev_graph *g, const pf_dev_arcs *in,
                                      int64_t clamp, pf_buf *input_rev, pf_status *st)
{
    if (in->n < 1 || in->n >= INT32_MAX || in->m < 0 || in->m > INT32_MAX)
        return pf_fail(st, PF_E_DEVICE, "cuda build_residual: %lld vertices, %lld arcs",
                       (long long)in->n, (long long)in->m);
    int rc = pf_cuda_enter(dev, st);
    if (rc)
        return rc;
    pf_buf own[3] = {};
    pf_dev_arcs arrays = *in;
    if (in->indptr)
        rc = csr_as_arrays(dev, in, &arrays, own, st);
    build_temp t = {};
    if (!rc)
        rc = build_on(dev, g, &arrays, (long long)clamp, input_rev, &t, st);
    temp_free(dev, &t);
    for (int i = 0; i < 3; i++)
        if (own[i].ptr)
            cudaFreeAsync(own[i].ptr, dev->stream);
    return rc ? rc : pf_cuda_wait(dev, st);
}

extern "C" int pf_cuda_arc_flows(pf_dev *dev, const pf_dev_graph *g, pf_buf *input_rev,
                                 int64_t m, pf_buf *flow, pf_status *st)
{
    int rc = pf_cuda_enter(dev, st);
    if (rc)
        return rc;
    const long long *rev = pf_cuda_ptr<const long long>(input_rev);
    long long *out = pf_cuda_ptr<long long>(flow);
    if (g->cap_bits == 32)
        pf_k_arc_flows<int32_t><<<grid_for(dev, m), PF_CUDA_BLOCK, 0, dev->stream>>>(
            rev, m, pf_cuda_ptr<const int32_t>(g->res), out);
    else
        pf_k_arc_flows<long long><<<grid_for(dev, m), PF_CUDA_BLOCK, 0, dev->stream>>>(
            rev, m, pf_cuda_ptr<const long long>(g->res), out);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_arc_flows");
    return PF_OK;
}
