/* The CUDA backend's entry points, seen from C (cuda_backend.c, which
 * builds the ops table, and cuda_probe.c) and implemented in the .cu files.
 *
 * Layout of the backend:
 *   cuda_backend.c   the ops table of device.h (designated initialisers)
 *   cuda_probe.c     probe: runs the device query in a child process
 *   cuda_device.cu   query, open/close, buffers, fills, sync, error text
 *   cuda_steps.cu    __global__ wrappers of the shared kernel bodies
 *   cuda_scan.cu     scan / filter through CUB
 *   cuda_build.cu    build_residual / arc_flows: the residual graph built here
 *   cuda_flow_matrix.cu  flow_matrix: scipy's flow matrix from that graph
 *   cuda_apsp.cu     fw_tile / fw_phase: blocked Floyd-Warshall kernels
 *   cuda_fw_perk.cu  fw_step: the per-k Floyd-Warshall variant
 *   cuda_fw_stats.cu fw_stats: apsp --stats summed on the device
 *   cuda_apsp_ops.cuh  their element operations and vector moves
 *   cuda_internal.h  pf_dev / pf_buf and helpers for the .cu files
 *
 * Kernels are built for one SASS target plus the PTX of the same
 * architecture (meson option sm_arch); PF_CUDA_MIN_CC is that
 * architecture as major*10+minor, the oldest device the PTX can run on. */
#ifndef PF_CUDA_API_H
#define PF_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

#include "device/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cuda_device.cu ---------------------------------------------------- */

/* The device query behind probe, run in the calling process: fills up to
 * max descriptors with the devices this build can run on and returns how
 * many there are (may exceed max). 0 with *why set when there are none. */
int pf_cuda_query_devices(pf_device_desc *descs, int max, char *why, size_t why_len);
/* Nonzero once this process has called into the CUDA runtime (query or
 * open): from then on a fork()ed child can no longer use CUDA. */
int pf_cuda_runtime_initialised(void);

int pf_cuda_open(const pf_open_params *params, pf_dev **dev, pf_device_desc *desc,
                 pf_status *st);
void pf_cuda_close(pf_dev *dev);
int pf_cuda_alloc(pf_dev *dev, size_t bytes, pf_buf **buf, pf_status *st);
void pf_cuda_release(pf_dev *dev, pf_buf *buf);
int pf_cuda_upload(pf_dev *dev, pf_buf *dst, size_t offset, const void *src, size_t bytes,
                   pf_status *st);
int pf_cuda_download(pf_dev *dev, pf_buf *src, size_t offset, void *dst, size_t bytes,
                     pf_status *st);
int pf_cuda_fill_i32(pf_dev *dev, pf_buf *buf, int32_t value, int64_t count, pf_status *st);
int pf_cuda_fill_i64(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count, pf_status *st);
int pf_cuda_sync(pf_dev *dev, pf_status *st);

/* ---- cuda_scan.cu ------------------------------------------------------ */

int pf_cuda_scan_i32(pf_dev *dev, pf_buf *in, pf_buf *out, int64_t count, int64_t *total,
                     pf_status *st);
int pf_cuda_filter_i32(pf_dev *dev, pf_buf *flags, pf_buf *out, int64_t count,
                       int64_t *selected, pf_status *st);
/* Loads CUB's scan and selection kernels into dev's context: one scan and
 * one selection of a single element in its scratch, waited for. */
int pf_cuda_scan_preload(pf_dev *dev, pf_status *st);

/* ---- cuda_build.cu ----------------------------------------------------- */

pf_build_residual_fn pf_cuda_build_residual;
pf_arc_flows_fn pf_cuda_arc_flows;

/* ---- cuda_flow_matrix.cu ----------------------------------------------- */

pf_flow_matrix_fn pf_cuda_flow_matrix;

/* ---- cuda_steps.cu ----------------------------------------------------- */

int pf_cuda_mark_active(pf_dev *dev, const pf_dev_graph *g, pf_buf *flags, pf_status *st);
int pf_cuda_saturate_from(pf_dev *dev, const pf_dev_graph *g, int32_t x, pf_status *st);
int pf_cuda_push_relabel(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                         int32_t cycles, int64_t *work, pf_status *st);
int pf_cuda_cancel_violations(pf_dev *dev, const pf_dev_graph *g, pf_buf *list,
                              int64_t count, pf_status *st);
int pf_cuda_sum_excess(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                       int64_t *sum, pf_status *st);
int pf_cuda_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2],
                       int32_t level, int32_t launches, int32_t hops, int32_t excluded,
                       int64_t *count, pf_status *st);
pf_put_at_fn pf_cuda_put_at;
pf_take_at_fn pf_cuda_take_at;
pf_mark_changed_fn pf_cuda_mark_changed;

/* ---- cuda_apsp.cu ------------------------------------------------------ */

int32_t pf_cuda_fw_tile(pf_dev *dev, int32_t kind, int paths);
int pf_cuda_fw_phase(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                     pf_status *st);

/* ---- cuda_fw_perk.cu --------------------------------------------------- */

int pf_cuda_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k,
                    pf_status *st);

/* ---- cuda_fw_stats.cu -------------------------------------------------- */

int pf_cuda_fw_stats(pf_dev *dev, const pf_dev_apsp *a, int32_t n, pf_fw_stats *out,
                     pf_status *st);

/* ---- cuda_graph.cu: the analytics steps (device.h) ---------------------- */

pf_bfs_push_fn pf_cuda_bfs_push;
pf_bfs_pull_fn pf_cuda_bfs_pull;
pf_bfs_parents_fn pf_cuda_bfs_parents;
pf_sssp_relax_fn pf_cuda_sssp_relax;
pf_sssp_bucket_steps_fn pf_cuda_sssp_bucket_steps;
pf_sssp_far_fn pf_cuda_sssp_far;
pf_intersect_count_fn pf_cuda_intersect_count;
/* Loads the analytics kernels into dev's context. */
int pf_cuda_graph_preload(pf_dev *dev, pf_status *st);

/* ---- cuda_probe.c ------------------------------------------------------ */

/* probe of the ops table: pf_cuda_query_devices in a child process, so
 * that the caller (e.g. a Check runner that forks each test) stays free
 * of CUDA state. */
int pf_cuda_probe(pf_device_desc *descs, int max, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
