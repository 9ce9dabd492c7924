/* CUDA backend: scan and stream compaction through CUB (shipped with the
 * toolkit). CUB's temporary storage is one device allocation per pf_dev,
 * grown when a call needs more (pf_cuda_reserve_temp), so the hot loop
 * allocates nothing. */
#include "cuda_internal.h"

#include <string.h>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

/* Makes dev->cub_temp hold at least `bytes`. Grows geometrically: the
 * need varies a little with the count, and each regrowth costs a
 * device-wide synchronisation (cudaFree). */
int pf_cuda_reserve_temp(pf_dev *dev, size_t bytes, pf_status *st)
{
    if (bytes <= dev->cub_temp_bytes && dev->cub_temp)
        return PF_OK;
    size_t want = bytes > 2 * dev->cub_temp_bytes ? bytes : 2 * dev->cub_temp_bytes;
    if (want == 0)
        want = 1;
    if (dev->cub_temp) {
        void *old = dev->cub_temp;
        dev->cub_temp = NULL;
        dev->cub_temp_bytes = 0;
        PF_CUDA_TRY(st, "cudaFree(CUB temporary storage)", cudaFree(old));
    }
    cudaError_t err = cudaMalloc(&dev->cub_temp, want);
    if (err != cudaSuccess) {
        dev->cub_temp = NULL;
        return pf_cuda_fail(st, "cudaMalloc(CUB temporary storage)", err);
    }
    dev->cub_temp_bytes = want;
    return PF_OK;
}

/* count int32 elements must fit buf; counts are vertex counts (int32). */
static int check_i32_span(const char *step, const pf_buf *buf, int64_t count, pf_status *st)
{
    if (count < 0 || count > INT32_MAX || !buf ||
        (uint64_t)count > buf->bytes / sizeof(int32_t))
        return pf_fail(st, PF_E_DEVICE, "cuda %s: %lld int32 elements in a buffer of %zu bytes",
                       step, (long long)count, buf ? buf->bytes : (size_t)0);
    return PF_OK;
}

static int32_t staged_i32(const pf_dev *dev, int slot)
{
    int32_t value;
    memcpy(&value, &dev->pinned[slot], sizeof value);
    return value;
}

int pf_cuda_scan_i32(pf_dev *dev, pf_buf *in, pf_buf *out, int64_t count, int64_t *total,
                     pf_status *st)
{
    int rc = check_i32_span("scan_i32 (in)", in, count, st);
    if (rc == PF_OK)
        rc = check_i32_span("scan_i32 (out)", out, count, st);
    if (rc == PF_OK && count > 0)
        rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK)
        return rc;
    if (count == 0) {
        if (total)
            *total = 0;
        return PF_OK;
    }
    const int32_t *src = pf_cuda_ptr<const int32_t>(in);
    int32_t *dst = pf_cuda_ptr<int32_t>(out);
    /* total = out[last] + in[last]; in[last] is staged before the scan in
     * case in and out are the same buffer. */
    if (total && (rc = pf_cuda_stage(dev, PF_CUDA_SLOT_A, src + count - 1, sizeof(int32_t),
                                     st)) != PF_OK)
        return rc;

    rc = pf_cuda_cub_run(dev, "cub::DeviceScan::ExclusiveSum", st, [&](void *temp, size_t &bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, src, dst, (int)count, dev->stream);
    });
    if (rc != PF_OK || !total)
        return rc;
    rc = pf_cuda_stage(dev, PF_CUDA_SLOT_B, dst + count - 1, sizeof(int32_t), st);
    if (rc == PF_OK)
        rc = pf_cuda_wait(dev, st);
    if (rc == PF_OK)
        *total = (int64_t)staged_i32(dev, PF_CUDA_SLOT_A) + staged_i32(dev, PF_CUDA_SLOT_B);
    return rc;
}

int pf_cuda_filter_i32(pf_dev *dev, pf_buf *flags, pf_buf *out, int64_t count,
                       int64_t *selected, pf_status *st)
{
    int rc = check_i32_span("filter_i32 (flags)", flags, count, st);
    if (rc == PF_OK)
        rc = check_i32_span("filter_i32 (out)", out, count, st);
    if (rc == PF_OK && count > 0)
        rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK)
        return rc;
    if (count == 0) {
        if (selected)
            *selected = 0;
        return PF_OK;
    }
    const int32_t *flag_ptr = pf_cuda_ptr<const int32_t>(flags);
    int32_t *dst = pf_cuda_ptr<int32_t>(out);
    /* Select the indices 0..count-1 whose flag is nonzero, in order. */
    thrust::counting_iterator<int32_t> indices(0);
    int64_t *num_selected = &dev->scratch[PF_CUDA_SLOT_A];

    rc = pf_cuda_cub_run(dev, "cub::DeviceSelect::Flagged", st, [&](void *temp, size_t &bytes) {
        return cub::DeviceSelect::Flagged(temp, bytes, indices, flag_ptr, dst, num_selected, count,
                                          dev->stream);
    });
    if (rc != PF_OK || !selected)
        return rc;
    rc = pf_cuda_stage(dev, PF_CUDA_SLOT_A, num_selected, sizeof(int64_t), st);
    if (rc == PF_OK)
        rc = pf_cuda_wait(dev, st);
    if (rc == PF_OK)
        *selected = dev->pinned[PF_CUDA_SLOT_A];
    return rc;
}

/* CUDA loads CUB's kernels at their first launch (lazy loading), half a
 * millisecond that a search's first balanced step and first selection
 * would pay inside the search; one call of each on a zeroed element of
 * the scratch loads them at the device's open and sizes the temporary
 * storage. */
extern "C" int pf_cuda_scan_preload(pf_dev *dev, pf_status *st)
{
    PF_CUDA_TRY(st, "cudaMemsetAsync(scratch)",
                cudaMemsetAsync(dev->scratch, 0, PF_CUDA_SLOTS * sizeof(int64_t), dev->stream));
    /* Slots C and D: one int32 input and one output each; the selection
     * counts into slot A. */
    pf_buf in = {&dev->scratch[PF_CUDA_SLOTS - 2], sizeof(int32_t)};
    pf_buf out = {&dev->scratch[PF_CUDA_SLOTS - 1], sizeof(int32_t)};
    int64_t selected = 0;
    int rc = pf_cuda_scan_i32(dev, &in, &out, 1, NULL, st);
    if (rc == PF_OK)
        rc = pf_cuda_filter_i32(dev, &in, &out, 1, &selected, st);
    return rc;
}
