/* What the backends whose device is the host CPU (seq, omp) share: the
 * descriptor's common part, buffers in host memory, and the ops entries
 * such a backend can take as they are (release, one-thread upload and
 * download, sync). Plain host C; not a kernel header. */
#ifndef PF_HOST_DEVICE_H
#define PF_HOST_DEVICE_H

#include <stdlib.h>
#include <string.h>

#include "../../common/status.h"
#include "../device.h"

/* Device 0 of backend, a CPU: max-flow in 64 bits (the host engines read
 * int64 residuals; a CPU has 64-bit atomics, so 32 bits would only save
 * memory) and doubles. The caller names the device. */
static inline void pf_host_describe(pf_device_desc *d, const char *backend, const char *vendor,
                                    int compute_units)
{
    memset(d, 0, sizeof *d);
    strcpy(d->backend, backend);
    d->index = 0;
    strcpy(d->vendor, vendor);
    strcpy(d->kind, "cpu");
    d->compute_units = compute_units;
    d->maxflow_bits = PF_MAXFLOW_64;
    d->fp64 = 1;
}

/* open's check of the device index: a host backend has device 0 only
 * (-1, "the best", is that one). */
static inline int pf_host_check_index(const char *backend, int device_index, pf_status *st)
{
    if (device_index > 0)
        return pf_fail(st, PF_E_DEVICE, "%s: no device %d (only device 0, the host CPU)",
                       backend, device_index);
    return PF_OK;
}

struct pf_buf {
    size_t bytes;
    unsigned char data[];
};

/* alloc's contract (device.h): PF_E_DEVICE, named after backend, when the
 * host has no room. A 0-byte buffer still gets a distinct address. */
static inline int pf_host_buf_alloc(const char *backend, size_t bytes, pf_buf **out,
                                    pf_status *st)
{
    pf_buf *b = malloc(sizeof *b + (bytes ? bytes : 1));
    if (!b)
        return pf_fail(st, PF_E_DEVICE, "%s: out of host memory for a %zu-byte buffer",
                       backend, bytes);
    b->bytes = bytes;
    *out = b;
    return PF_OK;
}

/* memcpy, where src may be NULL when bytes is 0 (an empty upload). */
static inline void pf_host_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes)
        memcpy(dst, src, bytes);
}

/* ---- ops entries (device.h) ---------------------------------------------- */

static inline void pf_host_release(pf_dev *dev, pf_buf *buf)
{
    (void)dev;
    free(buf);
}

static inline int pf_host_upload(pf_dev *dev, pf_buf *dst, size_t offset, const void *src,
                                 size_t bytes, pf_status *st)
{
    (void)dev, (void)st; /* arguments are checked at the interface (src/host/dev_check.c) */
    pf_host_copy(dst->data + offset, src, bytes);
    return PF_OK;
}

static inline int pf_host_download(pf_dev *dev, pf_buf *src, size_t offset, void *dst,
                                   size_t bytes, pf_status *st)
{
    (void)dev, (void)st;
    pf_host_copy(dst, src->data + offset, bytes);
    return PF_OK;
}

/* The host runs each step to the end before it returns: nothing to wait for. */
static inline int pf_host_sync(pf_dev *dev, pf_status *st)
{
    (void)dev, (void)st;
    return PF_OK;
}

/* The buffer entries above, for the ops table of a backend that takes them
 * all as they are (one thread): `PF_HOST_BUFFER_OPS,` among its slots. */
#define PF_HOST_BUFFER_OPS                                                                 \
    .release = pf_host_release, .upload = pf_host_upload, .download = pf_host_download,    \
    .sync = pf_host_sync

#endif
