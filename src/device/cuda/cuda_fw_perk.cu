/* CUDA backend: the per-k Floyd-Warshall variant of the study (fw_step of
 * device.h with PF_FW_PER_K): one kernel launch per k over the whole
 * matrix, a 32 x 32 thread block per 32 x 32 block of the matrix, one
 * element per thread, with the block's 32 values of column k and of row k
 * in shared memory.
 *
 * Each step reads and writes every element once (and its next hop with
 * paths) and does one min-plus per element, so it is bound by memory
 * bandwidth: 2 n^2 sizeof(T) bytes per step (plus 2 n^2 * 4 with next
 * hops), n steps: the bandwidth-bound baseline for the blocked kernels
 * (cuda_apsp.cu). */
#include "cuda_internal.h"
#include "cuda_apsp_ops.cuh"

enum { PERK_EDGE = 32 }; /* block edge; device.h: n is a multiple of it */

template <typename T, bool PATHS>
__global__ void __launch_bounds__(PERK_EDGE * PERK_EDGE)
pf_k_fw_per_k(T *dist, int *next, int n, int k)
{
    __shared__ T row_k[PERK_EDGE];              /* d(k, j) of the block's columns */
    __shared__ T col_k[PERK_EDGE];              /* d(i, k) of its rows */
    __shared__ int hop_k[PATHS ? PERK_EDGE : 1]; /* next(i, k) of its rows */
    const size_t ld = (size_t)n;
    const int i0 = blockIdx.y * PERK_EDGE, j0 = blockIdx.x * PERK_EDGE;
    if (threadIdx.y == 0)
        row_k[threadIdx.x] = dist[(size_t)k * ld + j0 + threadIdx.x];
    else if (threadIdx.y == 1) {
        size_t at = (size_t)(i0 + threadIdx.x) * ld + k;
        col_k[threadIdx.x] = dist[at];
        if constexpr (PATHS)
            hop_k[threadIdx.x] = next[at];
    }
    __syncthreads();
    const size_t at = (size_t)(i0 + threadIdx.y) * ld + j0 + threadIdx.x;
    T d = dist[at];
    if constexpr (PATHS) {
        int hop = next[at];
        fw_relax_hop(d, hop, col_k[threadIdx.y], row_k[threadIdx.x], hop_k[threadIdx.y]);
        next[at] = hop;
    } else {
        d = fw_min_plus(col_k[threadIdx.y], row_k[threadIdx.x], d);
    }
    dist[at] = d;
}

template <typename T>
static int perk_launch(pf_dev *dev, const pf_dev_apsp *a, int32_t k, pf_status *st)
{
    dim3 grid((unsigned)(a->n / PERK_EDGE), (unsigned)(a->n / PERK_EDGE));
    dim3 block(PERK_EDGE, PERK_EDGE);
    if (a->next)
        pf_k_fw_per_k<T, true><<<grid, block, 0, dev->stream>>>(
            pf_cuda_ptr<T>(a->dist), pf_cuda_ptr<int>(a->next), a->n, k);
    else
        pf_k_fw_per_k<T, false><<<grid, block, 0, dev->stream>>>(pf_cuda_ptr<T>(a->dist),
                                                                 NULL, a->n, k);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fw_per_k");
    return PF_OK;
}

int pf_cuda_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k,
                    pf_status *st)
{
    if (variant != PF_FW_PER_K)
        return pf_fail(st, PF_E_USAGE, "cuda fw_step: variant %d is not per-k", variant);
    if (!a || !a->dist || a->n <= 0 || a->n % PERK_EDGE || a->n / PERK_EDGE > 65535 || k < 0 ||
        k >= a->n)
        return pf_fail(st, PF_E_DEVICE, "cuda fw_step: step %d of n %d (a multiple of %d)", k,
                       a ? a->n : -1, PERK_EDGE);
    size_t cells = (size_t)a->n * (size_t)a->n;
    size_t elem = a->kind == PF_DIST_I64 ? sizeof(long long) : 4;
    if (a->dist->bytes / elem < cells || (a->next && a->next->bytes / sizeof(int) < cells))
        return pf_fail(st, PF_E_DEVICE, "cuda fw_step: buffers too small for a %d x %d matrix",
                       a->n, a->n);
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK)
        return rc;
    switch (a->kind) {
    case PF_DIST_I32:
        return perk_launch<int>(dev, a, k, st);
    case PF_DIST_I64:
        return perk_launch<long long>(dev, a, k, st);
    case PF_DIST_F32:
        return perk_launch<float>(dev, a, k, st);
    }
    return pf_fail(st, PF_E_DEVICE, "cuda fw_step: unknown distance kind %d", a->kind);
}
