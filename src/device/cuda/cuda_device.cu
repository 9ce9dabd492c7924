/* CUDA backend: device query, open/close, buffers, fills, error text.
 *
 * Everything an opened device does is queued on its one stream, in call
 * order; the entries that return data to the host (download, the scalar
 * readbacks of the steps) wait for that stream, the others do not. */
#include "cuda_internal.h"

#include <mutex>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PF_CUDA_MIN_CC
#error "PF_CUDA_MIN_CC (the sm_arch of the build, e.g. 90) must be defined"
#endif

/* Set before this process's first runtime call: the first call
 * initialises the driver, after which fork()ed children cannot use CUDA
 * (the probe in cuda_probe.c reads this to pick where it queries). */
static int runtime_initialised;

int pf_cuda_runtime_initialised(void)
{
    return runtime_initialised;
}

int pf_cuda_fail(pf_status *st, const char *call, cudaError_t err)
{
    (void)cudaGetLastError(); /* clear a non-sticky error: it is reported here */
    return pf_fail(st, PF_E_DEVICE, "%s: %s (%s)", call, cudaGetErrorString(err),
                   cudaGetErrorName(err));
}

int pf_cuda_enter(pf_dev *dev, pf_status *st)
{
    int current = -1;
    PF_CUDA_TRY(st, "cudaGetDevice", cudaGetDevice(&current));
    if (current != dev->ordinal)
        PF_CUDA_TRY(st, "cudaSetDevice", cudaSetDevice(dev->ordinal));
    return PF_OK;
}

int pf_cuda_stage(pf_dev *dev, int slot, const void *device_src, size_t bytes,
                  pf_status *st)
{
    PF_CUDA_TRY(st, "cudaMemcpyAsync(device to pinned host)",
                cudaMemcpyAsync(&dev->pinned[slot], device_src, bytes,
                                cudaMemcpyDeviceToHost, dev->stream));
    return PF_OK;
}

int pf_cuda_wait(pf_dev *dev, pf_status *st)
{
    PF_CUDA_TRY(st, "cudaStreamSynchronize", cudaStreamSynchronize(dev->stream));
    return PF_OK;
}

/* ---- device query -------------------------------------------------------- */

/* The compiled image runs on devices whose compute capability is at least
 * the build's architecture (the embedded PTX is JIT-compiled upwards). */
static int device_can_run(const cudaDeviceProp *prop)
{
    return prop->major * 10 + prop->minor >= PF_CUDA_MIN_CC;
}

static void describe(const cudaDeviceProp *prop, int ordinal, pf_device_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    snprintf(desc->backend, sizeof desc->backend, "cuda");
    desc->index = ordinal;
    /* prop->name holds up to 255 characters, desc->name 127: cut. */
    snprintf(desc->name, sizeof desc->name, "%.*s", (int)sizeof desc->name - 1, prop->name);
    snprintf(desc->vendor, sizeof desc->vendor, "NVIDIA");
    snprintf(desc->kind, sizeof desc->kind, "gpu");
    desc->compute_units = prop->multiProcessorCount;
    desc->global_mem = prop->totalGlobalMem;
    /* No per-allocation limit below the device's memory in CUDA. */
    desc->max_alloc = prop->totalGlobalMem;
    desc->maxflow_bits = PF_MAXFLOW_32 | PF_MAXFLOW_64; /* 64-bit atomics from sm_12 on */
    desc->fp64 = 1;
}

/* Why cudaGetDeviceCount failed, in the user's terms. */
static void explain_count_failure(cudaError_t err, char *why, size_t why_len)
{
    int driver = 0;
    if (err == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess) {
        if (driver == 0) {
            snprintf(why, why_len, "CUDA driver not found (cudaGetDeviceCount: %s (%s))",
                     cudaGetErrorString(err), cudaGetErrorName(err));
            return;
        }
        snprintf(why, why_len,
                 "CUDA driver %d.%d is older than the runtime %d.%d of this build "
                 "(cudaGetDeviceCount: %s (%s))",
                 driver / 1000, driver % 1000 / 10, CUDART_VERSION / 1000,
                 CUDART_VERSION % 1000 / 10, cudaGetErrorString(err), cudaGetErrorName(err));
        return;
    }
    snprintf(why, why_len, "cudaGetDeviceCount: %s (%s)", cudaGetErrorString(err),
             cudaGetErrorName(err));
}

int pf_cuda_query_devices(pf_device_desc *descs, int max, char *why, size_t why_len)
{
    char scratch_why[8];
    if (!why || why_len == 0) {
        why = scratch_why;
        why_len = sizeof scratch_why;
    }
    why[0] = '\0';
    runtime_initialised = 1;

    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        explain_count_failure(err, why, why_len);
        (void)cudaGetLastError();
        return 0;
    }
    if (count == 0) {
        snprintf(why, why_len, "no CUDA device");
        return 0;
    }

    int usable = 0;
    size_t used = 0; /* characters of why written about unusable devices */
    for (int ordinal = 0; ordinal < count; ordinal++) {
        cudaDeviceProp prop;
        err = cudaGetDeviceProperties(&prop, ordinal);
        int wrote = 0;
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            wrote = snprintf(why + used, why_len - used, "%sdevice %d: cudaGetDeviceProperties: %s",
                             used ? "; " : "", ordinal, cudaGetErrorString(err));
        } else if (!device_can_run(&prop)) {
            wrote = snprintf(why + used, why_len - used,
                             "%sdevice %d (%s) has compute capability %d.%d, this build "
                             "needs >= %d.%d (meson -Dsm_arch)",
                             used ? "; " : "", ordinal, prop.name, prop.major, prop.minor,
                             PF_CUDA_MIN_CC / 10, PF_CUDA_MIN_CC % 10);
        } else {
            if (descs && usable < max)
                describe(&prop, ordinal, &descs[usable]);
            usable++;
        }
        if (wrote > 0)
            used = used + (size_t)wrote < why_len ? used + (size_t)wrote : why_len - 1;
    }
    if (usable > 0)
        why[0] = '\0'; /* only a backend without devices explains itself */
    return usable;
}

/* ---- open / close -------------------------------------------------------- */

static void release_staging(pf_dev *dev);

template <typename T>
__global__ void __launch_bounds__(PF_CUDA_BLOCK) pf_k_fill(T *dst, T value, int64_t count)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        dst[i] = value;
}

/* Picks the device for params->device_index (-1: the first usable one)
 * and checks that it exists and can run this build. */
static int choose_device(int requested, int *ordinal, cudaDeviceProp *prop, pf_status *st)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        char why[256];
        explain_count_failure(err, why, sizeof why);
        (void)cudaGetLastError();
        return pf_fail(st, PF_E_DEVICE, "%s", why);
    }
    if (requested >= count)
        return pf_fail(st, PF_E_DEVICE, "no CUDA device %d (this machine has %d)", requested,
                       count);
    for (int d = requested < 0 ? 0 : requested; d < count; d++) {
        PF_CUDA_TRY(st, "cudaGetDeviceProperties", cudaGetDeviceProperties(prop, d));
        if (device_can_run(prop)) {
            *ordinal = d;
            return PF_OK;
        }
        if (requested >= 0)
            return pf_fail(st, PF_E_DEVICE,
                           "CUDA device %d (%s) has compute capability %d.%d, this build "
                           "needs >= %d.%d (meson -Dsm_arch)",
                           d, prop->name, prop->major, prop->minor, PF_CUDA_MIN_CC / 10,
                           PF_CUDA_MIN_CC % 10);
    }
    return pf_fail(st, PF_E_DEVICE, "no CUDA device of compute capability >= %d.%d",
                   PF_CUDA_MIN_CC / 10, PF_CUDA_MIN_CC % 10);
}

static int open_on(pf_dev *dev, pf_status *st)
{
    PF_CUDA_TRY(st, "cudaSetDevice", cudaSetDevice(dev->ordinal));
    PF_CUDA_TRY(st, "cudaStreamCreateWithFlags",
                cudaStreamCreateWithFlags(&dev->stream, cudaStreamNonBlocking));
    PF_CUDA_TRY(st, "cudaMallocHost(staging)",
                cudaMallocHost((void **)&dev->pinned, PF_CUDA_SLOTS * sizeof(int64_t)));
    PF_CUDA_TRY(st, "cudaMalloc(scratch)",
                cudaMalloc((void **)&dev->scratch, PF_CUDA_SLOTS * sizeof(int64_t)));
    /* Fails with cudaErrorNoKernelImageForDevice when neither the SASS nor
     * the PTX of this build fits the device: better here than at the
     * first step. */
    cudaFuncAttributes attr;
    PF_CUDA_TRY(st, "cudaFuncGetAttributes(pf_k_fill)",
                cudaFuncGetAttributes(&attr, pf_k_fill<int32_t>));
    PF_CUDA_TRY(st, "cudaFuncGetAttributes(pf_k_fill)",
                cudaFuncGetAttributes(&attr, pf_k_fill<int64_t>));
    return PF_OK;
}

int pf_cuda_open(const pf_open_params *params, pf_dev **devp, pf_device_desc *desc,
                 pf_status *st)
{
    *devp = NULL;
    runtime_initialised = 1;
    cudaDeviceProp prop;
    int ordinal = -1;
    int rc = choose_device(params ? params->device_index : -1, &ordinal, &prop, st);
    if (rc != PF_OK)
        return rc;

    pf_dev *dev = (pf_dev *)pf_calloc(1, sizeof *dev, st);
    if (!dev)
        return st ? st->code : PF_E_NOMEM;
    dev->ordinal = ordinal;
    dev->fw_variant = (int)pf_knobs()->cuda_fw_variant; /* cuda_apsp.cu's FW_P3_* */
    /* A power of two up to a warp (the shuffles' group; knobs.h). */
    dev->push_lanes = (int)pf_knobs()->cuda_push_lanes;
    dev->sm_count = prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1;
    dev->chained_launch = prop.major >= 9;
    int forced = 0; /* every CUDA device has memory of its own */
    dev->stage_min = pf_pinned_min(&forced);
    rc = open_on(dev, st);
    if (rc != PF_OK) {
        pf_cuda_close(dev);
        return rc;
    }
    if (desc)
        describe(&prop, ordinal, desc);
    *devp = dev;
    return PF_OK;
}

void pf_cuda_close(pf_dev *dev)
{
    if (!dev)
        return;
    /* Best effort: after a sticky fault every call fails, and close has
     * no status to report it through. */
    (void)cudaSetDevice(dev->ordinal);
    if (dev->stream)
        (void)cudaStreamSynchronize(dev->stream);
    if (dev->cub_temp)
        (void)cudaFree(dev->cub_temp);
    if (dev->scratch)
        (void)cudaFree(dev->scratch);
    if (dev->pinned)
        (void)cudaFreeHost(dev->pinned);
    release_staging(dev);
    if (dev->stream)
        (void)cudaStreamDestroy(dev->stream);
    (void)cudaGetLastError();
    free(dev);
}

/* ---- buffers ------------------------------------------------------------- */

int pf_cuda_alloc(pf_dev *dev, size_t bytes, pf_buf **bufp, pf_status *st)
{
    *bufp = NULL;
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK)
        return rc;
    pf_buf *buf = (pf_buf *)pf_calloc(1, sizeof *buf, st);
    if (!buf)
        return st ? st->code : PF_E_NOMEM;
    /* A zero-byte buffer still gets a real address: steps may be handed
     * empty lists, and a NULL pointer would read as "no buffer". */
    cudaError_t err = cudaMalloc(&buf->ptr, bytes ? bytes : 1);
    if (err != cudaSuccess) {
        free(buf);
        (void)cudaGetLastError();
        size_t free_bytes = 0, total_bytes = 0;
        if (err == cudaErrorMemoryAllocation &&
            cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
            return pf_fail(st, PF_E_DEVICE,
                           "cudaMalloc(%zu bytes): %s (%s); %zu of %zu MiB free on CUDA "
                           "device %d",
                           bytes, cudaGetErrorString(err), cudaGetErrorName(err),
                           free_bytes >> 20, total_bytes >> 20, dev->ordinal);
        return pf_fail(st, PF_E_DEVICE, "cudaMalloc(%zu bytes): %s (%s)", bytes,
                       cudaGetErrorString(err), cudaGetErrorName(err));
    }
    buf->bytes = bytes;
    *bufp = buf;
    return PF_OK;
}

void pf_cuda_release(pf_dev *dev, pf_buf *buf)
{
    if (!buf)
        return;
    if (dev)
        (void)cudaSetDevice(dev->ordinal);
    /* cudaFree waits for work still using the buffer. */
    (void)cudaFree(buf->ptr);
    (void)cudaGetLastError();
    free(buf);
}

/* The interface checks arguments (src/host/dev_check.c) where checking is
 * on; this guard stays in every build because, unlike OpenCL's runtime, the
 * CUDA runtime cannot tell a copy that overruns one buffer from one that
 * lands in the next: it would corrupt memory instead of failing. */
static int check_range(const char *what, const pf_buf *buf, size_t offset, size_t bytes,
                       pf_status *st)
{
    if (!buf || offset > buf->bytes || bytes > buf->bytes - offset)
        return pf_fail(st, PF_E_USAGE,
                       "cuda %s of %zu bytes at offset %zu overruns a buffer of %zu bytes",
                       what, bytes, offset, buf ? buf->bytes : (size_t)0);
    return PF_OK;
}

/* ---- big transfers through pinned staging ---------------------------------
 *
 * A copy from or to pageable memory goes through the driver's own small
 * pinned buffers on one thread, which moves a fraction of what the bus
 * allows. Big transfers go in PF_STAGE_CHUNK pieces through our own pinned
 * buffers instead: the host copies one piece (pf_host_copy, on several
 * threads) while the DMA engine moves the previous or next one, ordered by
 * one event per buffer on the device's stream. */

/* The pinned buffers outlive the device that made them: cudaMallocHost of
 * PF_STAGE_CHUNK bytes takes longer than a small instance's whole upload.
 * A device borrows the process's buffers at its first big transfer and
 * gives them back at close; a second device open at the same time
 * allocates its own. */
static std::mutex stage_pool_lock;
static void *stage_pool[PF_STAGE_COUNT];
static bool stage_pool_full;

/* Whether the staging buffers are there, borrowing or allocating them at
 * the first call. A failed allocation is not an error: transfers take the
 * direct path, as before, and the allocation is not tried again. */
static int staging_ready(pf_dev *dev)
{
    if (dev->stage_state == 0) {
        dev->stage_state = 1;
        {
            std::lock_guard<std::mutex> hold(stage_pool_lock);
            if (stage_pool_full) {
                for (int b = 0; b < PF_STAGE_COUNT; b++)
                    dev->stage[b] = stage_pool[b];
                stage_pool_full = false;
            }
        }
        for (int b = 0; b < PF_STAGE_COUNT && dev->stage_state == 1; b++)
            if ((!dev->stage[b] && cudaHostAlloc(&dev->stage[b], PF_STAGE_CHUNK,
                                                 cudaHostAllocPortable) != cudaSuccess) ||
                cudaEventCreateWithFlags(&dev->stage_done[b], cudaEventDisableTiming) !=
                    cudaSuccess)
                dev->stage_state = -1;
        if (dev->stage_state < 0) {
            (void)cudaGetLastError(); /* not reported: the direct path follows */
            release_staging(dev);
            dev->stage_state = -1;
        }
    }
    return dev->stage_state == 1;
}

/* Gives the buffers back to the process (or frees them, when it holds a
 * set already or this set is incomplete). The device's stream is idle. */
static void release_staging(pf_dev *dev)
{
    bool complete = true;
    for (int b = 0; b < PF_STAGE_COUNT; b++) {
        complete = complete && dev->stage[b];
        if (dev->stage_done[b])
            (void)cudaEventDestroy(dev->stage_done[b]);
        dev->stage_done[b] = NULL;
    }
    if (complete) {
        std::lock_guard<std::mutex> hold(stage_pool_lock);
        if (!stage_pool_full) {
            for (int b = 0; b < PF_STAGE_COUNT; b++) {
                stage_pool[b] = dev->stage[b];
                dev->stage[b] = NULL;
            }
            stage_pool_full = true;
        }
    }
    for (int b = 0; b < PF_STAGE_COUNT; b++) {
        if (dev->stage[b])
            (void)cudaFreeHost(dev->stage[b]);
        dev->stage[b] = NULL;
    }
    dev->stage_state = 0;
}

/* A staged transfer failed part-way: let the copies already queued finish,
 * so that none still uses a staging buffer when the next transfer fills
 * it, then report the call that failed. */
static int staging_fail(pf_dev *dev, const char *call, cudaError_t err, pf_status *st)
{
    (void)cudaStreamSynchronize(dev->stream);
    return pf_cuda_fail(st, call, err);
}

static size_t chunk_at(size_t offset, size_t bytes)
{
    return bytes - offset < PF_STAGE_CHUNK ? bytes - offset : PF_STAGE_CHUNK;
}

static int staged_upload(pf_dev *dev, char *dst, const char *src, size_t bytes,
                         pf_status *st)
{
    cudaError_t err;
    for (size_t offset = 0, k = 0; offset < bytes; offset += PF_STAGE_CHUNK, k++) {
        int b = (int)(k % PF_STAGE_COUNT);
        size_t len = chunk_at(offset, bytes);
        /* The buffer's previous piece must have left it. */
        if (k >= PF_STAGE_COUNT &&
            (err = cudaEventSynchronize(dev->stage_done[b])) != cudaSuccess)
            return staging_fail(dev, "cudaEventSynchronize(upload staging)", err, st);
        pf_host_copy(dev->stage[b], src + offset, len);
        err = cudaMemcpyAsync(dst + offset, dev->stage[b], len, cudaMemcpyHostToDevice,
                              dev->stream);
        if (err != cudaSuccess)
            return staging_fail(dev, "cudaMemcpyAsync(pinned host to device)", err, st);
        if ((err = cudaEventRecord(dev->stage_done[b], dev->stream)) != cudaSuccess)
            return staging_fail(dev, "cudaEventRecord(upload staging)", err, st);
    }
    return pf_cuda_wait(dev, st);
}

/* Queues the device-to-staging copy of the piece at offset into buffer b. */
static cudaError_t queue_download(pf_dev *dev, int b, const char *src, size_t offset,
                                  size_t bytes)
{
    cudaError_t err = cudaMemcpyAsync(dev->stage[b], src + offset, chunk_at(offset, bytes),
                                      cudaMemcpyDeviceToHost, dev->stream);
    return err != cudaSuccess ? err : cudaEventRecord(dev->stage_done[b], dev->stream);
}

static int staged_download(pf_dev *dev, char *dst, const char *src, size_t bytes,
                           pf_status *st)
{
    cudaError_t err;
    const size_t ahead = (size_t)PF_STAGE_COUNT * PF_STAGE_CHUNK;
    for (size_t offset = 0, k = 0; offset < bytes && k < PF_STAGE_COUNT;
         offset += PF_STAGE_CHUNK, k++)
        if ((err = queue_download(dev, (int)k, src, offset, bytes)) != cudaSuccess)
            return staging_fail(dev, "cudaMemcpyAsync(device to pinned host)", err, st);
    for (size_t offset = 0, k = 0; offset < bytes; offset += PF_STAGE_CHUNK, k++) {
        int b = (int)(k % PF_STAGE_COUNT);
        if ((err = cudaEventSynchronize(dev->stage_done[b])) != cudaSuccess)
            return staging_fail(dev, "cudaEventSynchronize(download staging)", err, st);
        pf_host_copy(dst + offset, dev->stage[b], chunk_at(offset, bytes));
        /* The buffer is free again: start the piece that goes there next. */
        if (bytes - offset > ahead &&
            (err = queue_download(dev, b, src, offset + ahead, bytes)) != cudaSuccess)
            return staging_fail(dev, "cudaMemcpyAsync(device to pinned host)", err, st);
    }
    return PF_OK; /* the last event waited for was the stream's last work */
}

int pf_cuda_upload(pf_dev *dev, pf_buf *dst, size_t offset, const void *src, size_t bytes,
                   pf_status *st)
{
    int rc = check_range("upload", dst, offset, bytes, st);
    if (rc != PF_OK || bytes == 0)
        return rc;
    if ((rc = pf_cuda_enter(dev, st)) != PF_OK)
        return rc;
    if (dev->stage_min && bytes >= dev->stage_min && staging_ready(dev))
        return staged_upload(dev, (char *)dst->ptr + offset, (const char *)src, bytes, st);
    PF_CUDA_TRY(st, "cudaMemcpyAsync(host to device)",
                cudaMemcpyAsync((char *)dst->ptr + offset, src, bytes, cudaMemcpyHostToDevice,
                                dev->stream));
    /* The caller may reuse src as soon as we return. */
    return pf_cuda_wait(dev, st);
}

int pf_cuda_download(pf_dev *dev, pf_buf *src, size_t offset, void *dst, size_t bytes,
                     pf_status *st)
{
    int rc = check_range("download", src, offset, bytes, st);
    if (rc != PF_OK || bytes == 0)
        return rc;
    if ((rc = pf_cuda_enter(dev, st)) != PF_OK)
        return rc;
    if (dev->stage_min && bytes >= dev->stage_min && staging_ready(dev))
        return staged_download(dev, (char *)dst, (const char *)src->ptr + offset, bytes, st);
    PF_CUDA_TRY(st, "cudaMemcpyAsync(device to host)",
                cudaMemcpyAsync(dst, (const char *)src->ptr + offset, bytes,
                                cudaMemcpyDeviceToHost, dev->stream));
    return pf_cuda_wait(dev, st);
}

template <typename T>
static int fill(pf_dev *dev, pf_buf *buf, T value, int64_t count, const char *what,
                pf_status *st)
{
    if (count < 0 || !buf || (uint64_t)count > buf->bytes / sizeof(T))
        return pf_fail(st, PF_E_DEVICE, "cuda %s of %lld elements overruns a buffer of %zu bytes",
                       what, (long long)count, buf ? buf->bytes : (size_t)0);
    if (count == 0)
        return PF_OK;
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK)
        return rc;
    if (value == 0) {
        PF_CUDA_TRY(st, "cudaMemsetAsync",
                    cudaMemsetAsync(buf->ptr, 0, (size_t)count * sizeof(T), dev->stream));
        return PF_OK;
    }
    /* Grid-stride: a few waves of blocks cover any count. */
    unsigned blocks = pf_cuda_blocks(count);
    unsigned cap = (unsigned)dev->sm_count * 16u;
    pf_k_fill<T><<<blocks < cap ? blocks : cap, PF_CUDA_BLOCK, 0, dev->stream>>>(
        pf_cuda_ptr<T>(buf), value, count);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_fill");
    return PF_OK;
}

int pf_cuda_fill_i32(pf_dev *dev, pf_buf *buf, int32_t value, int64_t count, pf_status *st)
{
    return fill<int32_t>(dev, buf, value, count, "fill_i32", st);
}

int pf_cuda_fill_i64(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count, pf_status *st)
{
    return fill<int64_t>(dev, buf, value, count, "fill_i64", st);
}

int pf_cuda_sync(pf_dev *dev, pf_status *st)
{
    int rc = pf_cuda_enter(dev, st);
    if (rc != PF_OK)
        return rc;
    return pf_cuda_wait(dev, st);
}
