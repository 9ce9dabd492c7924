/* A session's changes to and from the device one by one (driver_sparse.c):
 * the slots and vertices a batch touched go up as index/value lists
 * written in place on the device (put_at), and after a solve only the
 * residuals and excesses it changed come back (mark_changed against a
 * device-side snapshot of what the host holds, filter_i32, take_at). A
 * batch of 0.1% of the arcs then costs transfers of its size, not of the
 * graph's. On a device whose memory is the host's (caps.host_cpu) a
 * read-back is one copy of each array instead, which moves less than the
 * comparison, and there are no snapshots. Private to src/host; needs
 * 64-bit residuals on the device. */
#ifndef PF_DRIVER_SPARSE_H
#define PF_DRIVER_SPARSE_H

#include <stdint.h>

#include "driver_internal.h"

typedef struct drv_sparse {
    pf_buf *snap_res, *snap_excess; /* what the host holds: alloc_arcs, alloc_n values */
    int64_t snap_arcs, snap_n;      /* the graph's buffer sizes these were made for (0: none) */
    pf_buf *flags, *index;          /* device staging: marks and indices, span elements */
    pf_buf *values;                 /* and values, chunk elements */
    int copies;                     /* read-backs copy whole: no snapshots, no marks, and
                                     * indices for the puts only (chunk elements) */
    int32_t *host_index;            /* host staging: chunk elements each */
    int64_t *host_values;
    int64_t span;                   /* a quarter of the larger array (driver_sparse.c) */
    int64_t chunk;                  /* a tenth of a span */
    uint64_t bytes;                 /* device memory held */
    int current;                    /* the snapshots equal the host's arrays */
} drv_sparse;

/* 1 when d's backend offers the sparse transfers (device.h: put_at). */
int drv_sparse_offered(const driver *d);

/* Sends slots[0..slot_count) of h (head, rev, residual) and
 * vertices[0..vertex_count) (first, excess), each as the host holds it
 * now, and keeps the snapshots (where kept) current. Needs sp->current
 * (else the caller sends everything). */
int drv_sparse_put(driver *d, drv_sparse *sp, const pf_residual *h, const int64_t *res,
                   const int64_t *excess, const int32_t *slots, int64_t slot_count,
                   const int32_t *vertices, int64_t vertex_count, pf_status *st);

/* The device's residuals and excesses into res and excess (h->arcs and
 * h->n values): only those that changed since the snapshots when they are
 * current, else (or where sp->copies) everything, the snapshots taken.
 * *values_read: how many values came back. */
int drv_sparse_get(driver *d, drv_sparse *sp, int64_t *res, int64_t *excess,
                   int64_t *values_read, pf_status *st);

/* The snapshots no longer match (the caller sent whole arrays). */
static inline void drv_sparse_forget(drv_sparse *sp) { sp->current = 0; }

/* Releases every buffer (before the graph's buffers grow, and at close). */
void drv_sparse_release(driver *d, drv_sparse *sp);

#endif
