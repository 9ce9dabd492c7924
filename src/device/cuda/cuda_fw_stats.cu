/* CUDA backend: fw_stats (device.h), the statistics of `apsp --stats` over
 * the solved matrix without downloading it. One thread block per row folds
 * the row (the shared body, src/device/shared/pf_fw_stats.h) and reduces
 * in shared memory to the row's partials; the host adds the n rows'
 * partials (24 bytes a row instead of the row). */
#include <climits>
#include <cstdlib>

#include "cuda_internal.h"

typedef long long pf_fw_i64;
typedef unsigned long long pf_fw_u64;
#include "device/shared/pf_fw_stats.h"

enum { STATS_ITEMS = 256 }; /* threads of a block, a power of two */

/* partial[3 i .. 3 i + 2] = row i's reachable count, sum (as bits), most. */
template <typename T>
__global__ void __launch_bounds__(STATS_ITEMS)
pf_k_fw_stats(const T *dist, long long *partial, int n, int ld, T inf_half)
{
    __shared__ long long counts[STATS_ITEMS];
    __shared__ unsigned long long sums[STATS_ITEMS];
    __shared__ long long mosts[STATS_ITEMS];
    const int lid = (int)threadIdx.x, i = (int)blockIdx.x;
    long long count = 0, most = LLONG_MIN;
    unsigned long long sum = 0;
    const T *row = dist + (size_t)i * (size_t)ld;
    PF_FW_STATS_ROW(T, row, i, n, lid, STATS_ITEMS, inf_half, count, sum, most);
    counts[lid] = count;
    sums[lid] = sum;
    mosts[lid] = most;
    for (int half = STATS_ITEMS / 2; half > 0; half /= 2) {
        __syncthreads();
        if (lid < half) {
            counts[lid] += counts[lid + half];
            sums[lid] += sums[lid + half];
            mosts[lid] = mosts[lid] > mosts[lid + half] ? mosts[lid] : mosts[lid + half];
        }
    }
    if (lid == 0) {
        partial[3 * (size_t)i] = counts[0];
        partial[3 * (size_t)i + 1] = (long long)sums[0];
        partial[3 * (size_t)i + 2] = mosts[0];
    }
}

/* The rows' partials (count, sum bits, most) added up. */
static void fold_partials(const long long *partial, int32_t n, pf_fw_stats *out)
{
    *out = pf_fw_stats{0, 0, INT64_MIN};
    for (int32_t i = 0; i < n; i++) {
        out->reachable += partial[3 * (size_t)i];
        out->sum += (uint64_t)partial[3 * (size_t)i + 1];
        long long most = partial[3 * (size_t)i + 2];
        out->most = most > out->most ? most : out->most;
    }
}

/* Queues the kernel and the partials' copy into host, then waits. */
static int stats_run(pf_dev *dev, const pf_dev_apsp *a, int32_t n, long long *dev_partial,
                     long long *host, pf_status *st)
{
    if (a->kind == PF_DIST_I64)
        pf_k_fw_stats<long long><<<(unsigned)n, STATS_ITEMS, 0, dev->stream>>>(
            pf_cuda_ptr<long long>(a->dist), dev_partial, n, a->n, PF_FW_INF_I64 / 2);
    else
        pf_k_fw_stats<int><<<(unsigned)n, STATS_ITEMS, 0, dev->stream>>>(
            pf_cuda_ptr<int>(a->dist), dev_partial, n, a->n, (int)(PF_FW_INF_I32 / 2));
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fw_stats");
    PF_CUDA_TRY(st, "cudaMemcpyAsync(fw_stats partials)",
                cudaMemcpyAsync(host, dev_partial, (size_t)n * 3 * sizeof *host,
                                cudaMemcpyDeviceToHost, dev->stream));
    return pf_cuda_wait(dev, st);
}

int pf_cuda_fw_stats(pf_dev *dev, const pf_dev_apsp *a, int32_t n, pf_fw_stats *out,
                     pf_status *st)
{
    if (!a || !a->dist || (a->kind != PF_DIST_I32 && a->kind != PF_DIST_I64))
        return pf_fail(st, PF_E_USAGE, "cuda fw_stats: integer distances only (kind %d)",
                       a ? a->kind : -1);
    size_t elem = a->kind == PF_DIST_I64 ? sizeof(long long) : sizeof(int);
    if (n <= 0 || n > a->n || a->dist->bytes / elem < (size_t)a->n * (size_t)a->n)
        return pf_fail(st, PF_E_USAGE, "cuda fw_stats: %d rows of a %d x %d matrix", n, a->n,
                       a->n);
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK)
        return rc;
    long long *host = (long long *)pf_alloc((size_t)n * 3, sizeof(long long), st);
    if (!host)
        return PF_E_NOMEM;
    void *dev_partial = NULL;
    /* Plain cudaMalloc (every device has it): the step waits anyway. */
    cudaError_t err = cudaMalloc(&dev_partial, (size_t)n * 3 * sizeof(long long));
    if (err != cudaSuccess) {
        free(host);
        return pf_cuda_fail(st, "cudaMalloc(fw_stats partials)", err);
    }
    rc = stats_run(dev, a, n, (long long *)dev_partial, host, st);
    err = cudaFree(dev_partial);
    if (!rc && err != cudaSuccess)
        rc = pf_cuda_fail(st, "cudaFree(fw_stats partials)", err);
    if (!rc)
        fold_partials(host, n, out);
    free(host);
    return rc;
}
