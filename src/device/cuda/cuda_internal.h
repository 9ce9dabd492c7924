/* Internals shared by the CUDA backend's .cu files (C++ only). */
#ifndef PF_CUDA_INTERNAL_H
#define PF_CUDA_INTERNAL_H

#include <cuda_runtime.h>

#include <stddef.h>
#include <stdint.h>

#include <exception>

/* The project headers carry no C++ guards of their own (portaflow.h
 * aside): give their declarations C linkage here. */
extern "C" {
#include "common/hostcopy.h"
#include "common/knobs.h"
#include "common/status.h"
#include "device/device.h"
}
#include "cuda_api.h"

/* Every launch uses blocks of this many threads (one index per thread). */
#define PF_CUDA_BLOCK 256

/* int64 slots of the pinned host staging area and of the device scratch
 * (small readbacks: counters, scan totals, number selected). */
enum {
    PF_CUDA_SLOT_A = 0,
    PF_CUDA_SLOT_B = 1,
    PF_CUDA_SLOTS = 4,
};

struct pf_buf {
    void *ptr;
    size_t bytes; /* as requested */
};

struct pf_dev {
    int ordinal;          /* CUDA device number */
    cudaStream_t stream;  /* every operation is queued here, in order */
    int sm_count;         /* sizes the grid-stride launches */
    int chained_launch;   /* programmatic dependent launch (compute capability 9.0 on) */
    int64_t *pinned;      /* host, page-locked, PF_CUDA_SLOTS */
    int64_t *scratch;     /* device, PF_CUDA_SLOTS */
    void *cub_temp;       /* CUB temporary storage, grown on demand */
    size_t cub_temp_bytes;
    /* Floyd-Warshall limits, queried at first use (cuda_apsp.cu), 0 until
     * then: the shared memory one block may opt into, and per distance
     * kind and paths off/on the most threads the phase 1/2 kernel runs in
     * a block (its registers decide). */
    int fw_smem_optin;
    int fw_dep_threads[3][2];
    /* Phase 3's kernel variant, PF_CUDA_FW_VARIANT at open (cuda_apsp.cu). */
    int fw_variant;
    /* Threads per listed vertex in push_relabel: 1 (pf_body_push_relabel)
     * or 2..32 (pf_body_push_relabel_lanes); PF_CUDA_PUSH_LANES at open. */
    int push_lanes;
    /* Pinned staging for transfers of at least stage_min bytes (0: never;
     * PORTAFLOW_PINNED, common/hostcopy.h): PF_STAGE_COUNT host buffers of
     * PF_STAGE_CHUNK bytes and an event per buffer marking the end of the
     * copy that last used it. Allocated at the first big transfer;
     * stage_state 0 = not yet tried, 1 = ready, -1 = allocation failed
     * (transfers then go straight from/to the caller's memory). */
    size_t stage_min;
    int stage_state;
    void *stage[PF_STAGE_COUNT];
    cudaEvent_t stage_done[PF_STAGE_COUNT];
};

/* PF_E_DEVICE with "CALL: error string (cudaErrorName)". Also clears the
 * runtime's last-error slot, so a later launch check does not report this
 * (non-sticky) error again. */
int pf_cuda_fail(pf_status *st, const char *call, cudaError_t err);

/* Makes dev's device current for the calling thread: the runtime keeps
 * the current device per thread and streams belong to one device. */
int pf_cuda_enter(pf_dev *dev, pf_status *st);


/* Returns through pf_cuda_fail when a runtime call fails. */
#define PF_CUDA_TRY(st, call_text, expr)                     \
    do {                                                     \
        cudaError_t pf_cuda_err_ = (expr);                   \
        if (pf_cuda_err_ != cudaSuccess)                     \
            return pf_cuda_fail((st), (call_text), pf_cuda_err_); \
    } while (0)

/* Checks the launch just queued (bad configuration, no kernel image for
 * this device, an earlier sticky fault). */
#define PF_CUDA_CHECK_LAUNCH(st, kernel_name) \
    PF_CUDA_TRY((st), "launch " kernel_name, cudaGetLastError())

template <typename T> static inline T *pf_cuda_ptr(const pf_buf *buf)
{
    return static_cast<T *>(buf->ptr);
}

/* Blocks of PF_CUDA_BLOCK threads covering count indices (count is at most
 * INT32_MAX, so this fits the 2^31-1 limit of gridDim.x). */
static inline unsigned pf_cuda_blocks(int64_t count)
{
    return (unsigned)((count + PF_CUDA_BLOCK - 1) / PF_CUDA_BLOCK);
}

/* Queues a copy of `bytes` (at most 8) device bytes into pinned slot
 * `slot`; the value is there after the stream is synchronised. */
int pf_cuda_stage(pf_dev *dev, int slot, const void *device_src, size_t bytes,
                  pf_status *st);
/* Waits for everything queued on dev's stream. */
int pf_cuda_wait(pf_dev *dev, pf_status *st);

/* Makes dev->cub_temp hold at least `bytes` (cuda_scan.cu). */
int pf_cuda_reserve_temp(pf_dev *dev, size_t bytes, pf_status *st);

/* Runs a CUB call, turning its result into a status. CUB itself may throw
 * cuda::cuda_error (its device guard checks cudaGetDevice/cudaSetDevice);
 * an exception must not unwind into the C callers, where it would end the
 * process. */
template <typename Call> static int pf_cuda_cub_call(const char *name, pf_status *st, Call call)
{
    try {
        cudaError_t err = call();
        if (err != cudaSuccess)
            return pf_cuda_fail(st, name, err);
        return PF_OK;
    } catch (const std::exception &e) {
        (void)cudaGetLastError();
        return pf_fail(st, PF_E_DEVICE, "%s: %s", name, e.what());
    } catch (...) {
        (void)cudaGetLastError();
        return pf_fail(st, PF_E_DEVICE, "%s: unknown C++ exception", name);
    }
}

/* Runs a CUB call twice: with no storage, to learn the size of its
 * temporary storage, then with dev->cub_temp grown to it. `call(temp,
 * bytes)` makes the CUB call. */
template <typename Call>
static int pf_cuda_cub_run(pf_dev *dev, const char *name, pf_status *st, Call call)
{
    size_t bytes = 0;
    int rc = pf_cuda_cub_call(name, st, [&] { return call((void *)nullptr, bytes); });
    if (!rc)
        rc = pf_cuda_reserve_temp(dev, bytes, st);
    bytes = dev->cub_temp_bytes;
    return rc ? rc : pf_cuda_cub_call(name, st, [&] { return call(dev->cub_temp, bytes); });
}

#endif
