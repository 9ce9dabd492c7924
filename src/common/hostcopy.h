/* Host-side help for the GPU backends' big transfers.
 *
 * A copy between pageable memory and the device is slow on NVIDIA's
 * drivers (a download into a fresh buffer runs at a small fraction of
 * the bus; bench/NOTES.md): the driver stages it through its own small
 * pinned buffers on one thread. The CUDA and OpenCL backends therefore move transfers of
 * at least pf_pinned_min() bytes through PF_STAGE_COUNT pinned buffers of
 * PF_STAGE_CHUNK bytes each, copying one chunk on the host (pf_host_copy)
 * while the DMA engine moves the other. */
#ifndef PF_HOSTCOPY_H
#define PF_HOSTCOPY_H

#include <stddef.h>

/* Bytes of one pinned staging buffer, and how many a device keeps (two:
 * one filled or drained by the host while the DMA engine works on the
 * other). */
#define PF_STAGE_CHUNK ((size_t)16 << 20)
#define PF_STAGE_COUNT 2
/* Default threshold: below it the driver's own path is as good, and the
 * many 8-byte readbacks of a solve must keep their latency. */
#define PF_STAGE_MIN_DEFAULT ((size_t)8 << 20)

/* memcpy, on several OpenMP threads when bytes is large: a single thread
 * copies at a few GB/s, less into freshly allocated pages that fault in
 * one by one, which is slower than the DMA it feeds. */
void pf_host_copy(void *dst, const void *src, size_t bytes);

/* The smallest transfer to stage, from PORTAFLOW_PINNED (knobs.h): unset ->
 * PF_STAGE_MIN_DEFAULT; "0" -> 0 (never stage); a number of bytes -> that
 * (at least 1), with *forced set: stage on every device, including those
 * that share the host's memory (to test the staged path on PoCL). */
size_t pf_pinned_min(int *forced);

#endif
