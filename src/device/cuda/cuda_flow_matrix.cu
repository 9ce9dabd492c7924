/* CUDA backend: scipy's flow matrix made on the device from the residual
 * graph build_residual laid out (device.h: flow_matrix).
 *
 * Vertex u's residual list holds an arc to v for every input entry (u, v)
 * and one for every entry (v, u): the columns of row u of the flow matrix
 * are its heads, sorted. A segmented sort of every list by head, the
 * first of each run of equal heads marked, an exclusive scan of the marks
 * (scipy's repeats kept as it keeps them) gives each entry its place and
 * each row its start; an entry's value is its run's flows out less its
 * flows in. Row starts and values are written as int32 where they fit,
 * so that scipy's int32 result is read back as it is. */
#include "cuda_internal.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

/* The pinned slot the run count of the last arc comes back in. */
enum { SLOT_LAST_RUN = 2 };

#define FOR_EACH(i, count)                                                              \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (count);        \
         i += (int64_t)gridDim.x * blockDim.x)

__global__ void pf_k_fm_keys(const int32_t *head, int64_t arcs, int32_t *keys, uint32_t *ids)
{
    FOR_EACH(a, arcs)
    {
        keys[a] = head[a];
        ids[a] = (uint32_t)a;
    }
}

/* reverse[b] = 1 at every input arc's reverse arc; begins[first[u]] = 1
 * where u's list is not empty. */
__global__ void pf_k_fm_marks(const long long *input_rev, int64_t m, const long long *first,
                              int64_t n, uint8_t *reverse, uint8_t *begins)
{
    FOR_EACH(i, m > n ? m : n)
    {
        if (i < m && input_rev[i] >= 0)
            reverse[input_rev[i]] = 1;
        if (i < n && first[i] < first[i + 1])
            begins[first[i]] = 1;
    }
}

/* The end of the run of equal heads that starts at sorted position p. */
__device__ static int64_t run_end(const int32_t *keys, const uint8_t *begins, int64_t arcs,
                                  int64_t p)
{
    int64_t q = p + 1;
    while (q < arcs && !begins[q] && keys[q] == keys[p])
        q++;
    return q;
}

/* entries[p]: how many entries the run of equal heads starting at sorted
 * position p makes (0 where none starts there): one, or with
 * keep_repeats as many as its forward or its reverse arcs, whichever are
 * more (scipy pairs an int32 matrix's repeats so). */
__global__ void pf_k_fm_runs(const int32_t *keys, const uint32_t *ids, const uint8_t *reverse,
                             const uint8_t *begins, int64_t arcs, int keep_repeats,
                             long long *entries)
{
    FOR_EACH(p, arcs)
    {
        long long copies = 0;
        if (begins[p] || keys[p] != keys[p - 1]) {
            copies = 1;
            if (keep_repeats) {
                long long forward = 0, back = 0;
                for (int64_t q = p, end = run_end(keys, begins, arcs, p); q < end; q++)
                    (reverse[ids[q]] ? back : forward)++;
                copies = forward > back ? forward : back;
            }
        }
        entries[p] = copies;
    }
}

/* Row starts: indptr[u] = the place of the first entry of u's list (the
 * total past the last arc), as Index (int32 where the total fits). */
template <typename Index>
__global__ void pf_k_fm_indptr(const long long *first, const long long *place, int64_t n,
                               int64_t arcs, long long total, Index *indptr)
{
    FOR_EACH(u, n + 1)
    indptr[u] = (Index)(first[u] < arcs ? place[first[u]] : total);
}

/* Each run's column and value: forward arcs add their flow (the residual
 * of their pair), reverse arcs take theirs (their residual) away; its
 * other entries (kept repeats) hold the column and 0. *wide becomes 1
 * where a value does not fit int32. */
template <typename Cap>
__global__ void pf_k_fm_entries(const int32_t *keys, const uint32_t *ids, const uint8_t *reverse,
                                const uint8_t *begins, const long long *copies,
                                const long long *place, int64_t arcs, const long long *first,
                                const int32_t *head, const int32_t *rev, const Cap *res,
                                int32_t *columns, long long *values, unsigned long long *wide)
{
    FOR_EACH(p, arcs)
    {
        if (copies[p] == 0)
            continue;
        long long value = 0;
        for (int64_t q = p, end = run_end(keys, begins, arcs, p); q < end; q++) {
            uint32_t a = ids[q];
            value += reverse[a] ? -(long long)res[a]
                                : (long long)res[first[head[a]] + rev[a]];
        }
        long long e = place[p];
        for (long long c = 0; c < copies[p]; c++) {
            columns[e + c] = keys[p];
            values[e + c] = c == 0 ? value : 0;
        }
        if (value < INT32_MIN || value > INT32_MAX)
            atomicOr(wide, 1ull);
    }
}

__global__ void pf_k_fm_narrow(const long long *values, int64_t entries, int32_t *narrow)
{
    FOR_EACH(e, entries)
    narrow[e] = (int32_t)values[e];
}

/* ---- host side ----------------------------------------------------------- */

static unsigned grid_of(const pf_dev *dev, int64_t count)
{
    int64_t blocks = (count + PF_CUDA_BLOCK - 1) / PF_CUDA_BLOCK;
    int64_t most = (int64_t)dev->sm_count * 32;
    return (unsigned)(blocks > most ? most : blocks > 0 ? blocks : 1);
}

struct fm_temp {
    int32_t *keys, *keys_sorted;
    uint32_t *ids, *ids_sorted;
    uint8_t *reverse, *begins;
    long long *copies, *place; /* entries a sorted position starts; their place */
    unsigned long long *wide;  /* 1: a value does not fit int32 */
    int32_t *narrow;           /* the values as int32, before they go in place */
};

static int fm_alloc(pf_dev *dev, void **p, size_t bytes, pf_status *st)
{
    PF_CUDA_TRY(st, "cudaMallocAsync(flow matrix scratch)",
                cudaMallocAsync(p, bytes ? bytes : 1, dev->stream));
    return PF_OK;
}

/* The values made narrow where every one fits int32: through a scratch
 * array, since in place an element's int32 would land on one not read
 * yet. */
static int fm_narrow(pf_dev *dev, pf_buf *values, pf_flow_matrix_made *made, fm_temp *t,
                     pf_status *st)
{
    int rc = pf_cuda_stage(dev, PF_CUDA_SLOT_A, t->wide, sizeof *t->wide, st);
    if (!rc)
        rc = pf_cuda_wait(dev, st);
    if (rc)
        return rc;
    made->value_size = dev->pinned[PF_CUDA_SLOT_A] ? 8 : 4;
    if (made->value_size == 8 || made->entries == 0)
        return PF_OK;
    if ((rc = fm_alloc(dev, (void **)&t->narrow, (size_t)made->entries * 4, st)))
        return rc;
    pf_k_fm_narrow<<<grid_of(dev, made->entries), PF_CUDA_BLOCK, 0, dev->stream>>>(
        pf_cuda_ptr<const long long>(values), made->entries, t->narrow);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fm_narrow");
    PF_CUDA_TRY(st, "cudaMemcpyAsync(flow matrix values)",
                cudaMemcpyAsync(values->ptr, t->narrow, (size_t)made->entries * 4,
                                cudaMemcpyDeviceToDevice, dev->stream));
    return PF_OK;
}

static int fm_run(pf_dev *dev, const pf_dev_graph *g, pf_buf *input_rev, int64_t m,
                  int keep_repeats, pf_buf *indptr, pf_buf *columns, pf_buf *values,
                  pf_flow_matrix_made *made, fm_temp *t, pf_status *st)
{
    int64_t n = g->n, arcs = g->arcs;
    size_t a4 = (size_t)arcs * 4, a8 = (size_t)arcs * 8;
    int rc;
    if ((rc = fm_alloc(dev, (void **)&t->keys, a4, st)) ||
        (rc = fm_alloc(dev, (void **)&t->keys_sorted, a4, st)) ||
        (rc = fm_alloc(dev, (void **)&t->ids, a4, st)) ||
        (rc = fm_alloc(dev, (void **)&t->ids_sorted, a4, st)) ||
        (rc = fm_alloc(dev, (void **)&t->reverse, (size_t)arcs, st)) ||
        (rc = fm_alloc(dev, (void **)&t->begins, (size_t)arcs, st)) ||
        (rc = fm_alloc(dev, (void **)&t->copies, a8, st)) ||
        (rc = fm_alloc(dev, (void **)&t->place, a8, st)) ||
        (rc = fm_alloc(dev, (void **)&t->wide, sizeof *t->wide, st)))
        return rc;
    const long long *first = pf_cuda_ptr<const long long>(g->first);
    const int32_t *head = pf_cuda_ptr<const int32_t>(g->head);
    PF_CUDA_TRY(st, "cudaMemsetAsync(flow matrix marks)",
                cudaMemsetAsync(t->reverse, 0, (size_t)arcs, dev->stream));
    PF_CUDA_TRY(st, "cudaMemsetAsync(flow matrix marks)",
                cudaMemsetAsync(t->begins, 0, (size_t)arcs, dev->stream));
    PF_CUDA_TRY(st, "cudaMemsetAsync(flow matrix marks)",
                cudaMemsetAsync(t->wide, 0, sizeof *t->wide, dev->stream));
    unsigned grid = grid_of(dev, arcs);
    pf_k_fm_keys<<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(head, arcs, t->keys, t->ids);
    pf_k_fm_marks<<<grid_of(dev, m > n ? m : n), PF_CUDA_BLOCK, 0, dev->stream>>>(
        pf_cuda_ptr<const long long>(input_rev), m, first, n, t->reverse, t->begins);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fm_marks");
    rc = pf_cuda_cub_run(
        dev, "cub::DeviceSegmentedSort::SortPairs", st, [&](void *temp, size_t &bytes) {
            return cub::DeviceSegmentedSort::SortPairs(temp, bytes, t->keys, t->keys_sorted, t->ids,
                                                       t->ids_sorted, arcs, n, first, first + 1,
                                                       dev->stream);
        });
    if (rc)
        return rc;
    pf_k_fm_runs<<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(t->keys_sorted, t->ids_sorted,
                                                         t->reverse, t->begins, arcs,
                                                         keep_repeats, t->copies);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fm_runs");
    rc = pf_cuda_cub_run(dev, "cub::DeviceScan::ExclusiveSum", st, [&](void *temp, size_t &bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, t->copies, t->place, arcs,
                                             dev->stream);
    });
    if (!rc)
        rc = pf_cuda_stage(dev, PF_CUDA_SLOT_A, &t->place[arcs - 1], sizeof(long long), st);
    if (!rc)
        rc = pf_cuda_stage(dev, SLOT_LAST_RUN, &t->copies[arcs - 1], sizeof(long long), st);
    if (!rc)
        rc = pf_cuda_wait(dev, st);
    if (rc)
        return rc;
    made->entries = dev->pinned[PF_CUDA_SLOT_A] + dev->pinned[SLOT_LAST_RUN];
    made->index_size = made->entries > INT32_MAX ? 8 : 4;
    if (made->index_size == 4)
        pf_k_fm_indptr<int32_t><<<grid_of(dev, n + 1), PF_CUDA_BLOCK, 0, dev->stream>>>(
            first, t->place, n, arcs, (long long)made->entries, pf_cuda_ptr<int32_t>(indptr));
    else
        pf_k_fm_indptr<long long><<<grid_of(dev, n + 1), PF_CUDA_BLOCK, 0, dev->stream>>>(
            first, t->place, n, arcs, (long long)made->entries, pf_cuda_ptr<long long>(indptr));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fm_indptr");
    const int32_t *rev = pf_cuda_ptr<const int32_t>(g->rev);
    int32_t *cols = pf_cuda_ptr<int32_t>(columns);
    long long *vals = pf_cuda_ptr<long long>(values);
    if (g->cap_bits == 32)
        pf_k_fm_entries<int32_t><<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(
            t->keys_sorted, t->ids_sorted, t->reverse, t->begins, t->copies, t->place, arcs,
            first, head, rev, pf_cuda_ptr<const int32_t>(g->res), cols, vals, t->wide);
    else
        pf_k_fm_entries<long long><<<grid, PF_CUDA_BLOCK, 0, dev->stream>>>(
            t->keys_sorted, t->ids_sorted, t->reverse, t->begins, t->copies, t->place, arcs,
            first, head, rev, pf_cuda_ptr<const long long>(g->res), cols, vals, t->wide);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fm_entries");
    return fm_narrow(dev, values, made, t, st);
}

extern "C" int pf_cuda_flow_matrix(pf_dev *dev, const pf_dev_graph *g, pf_buf *input_rev,
                                   int64_t m, int32_t keep_repeats, pf_buf *indptr,
                                   pf_buf *columns, pf_buf *values, pf_flow_matrix_made *made,
                                   pf_status *st)
{
    *made = (pf_flow_matrix_made){.entries = 0, .index_size = 4, .value_size = 4};
    int rc = pf_cuda_enter(dev, st);
    if (rc || g->arcs == 0) {
        if (!rc)
            PF_CUDA_TRY(st, "cudaMemsetAsync(indptr)",
                        cudaMemsetAsync(indptr->ptr, 0, (size_t)(g->n + 1) * 4, dev->stream));
        return rc ? rc : pf_cuda_wait(dev, st);
    }
    fm_temp t = {};
    rc = fm_run(dev, g, input_rev, m, keep_repeats, indptr, columns, values, made, &t, st);
    void *all[] = {t.keys, t.keys_sorted, t.ids, t.ids_sorted, t.reverse, t.begins,
                   t.copies, t.place, t.wide, t.narrow};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (all[i])
            cudaFreeAsync(all[i], dev->stream);
    return rc ? rc : pf_cuda_wait(dev, st);
}
