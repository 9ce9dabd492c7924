/* The CUDA backend's ops table (contract: src/device/device.h). The
 * entries are implemented in this folder's .cu files and cuda_probe.c;
 * see cuda_api.h for the layout. */
#include "cuda_api.h"

/* The device opened, then the analytics kernels and CUB's loaded into its
 * context: CUDA loads a kernel at its first launch (lazy loading), which a
 * small graph's search would otherwise pay inside its first steps. */
static int open_loaded(const pf_open_params *params, pf_dev **dev, pf_device_desc *desc,
                       pf_status *st)
{
    int rc = pf_cuda_open(params, dev, desc, st);
    if (!rc)
        rc = pf_cuda_graph_preload(*dev, st);
    if (!rc)
        rc = pf_cuda_scan_preload(*dev, st);
    if (rc && *dev) {
        pf_cuda_close(*dev);
        *dev = NULL;
    }
    return rc;
}

const pf_device_ops pf_backend_cuda = {
    .name = "cuda",
    .caps = {.maxflow_steps = 1, .maxflow_bits = PF_MAXFLOW_32 | PF_MAXFLOW_64,
             .probe_elsewhere = 1},
    .probe = pf_cuda_probe,
    .open = open_loaded,
    .close = pf_cuda_close,
    .alloc = pf_cuda_alloc,
    .release = pf_cuda_release,
    .upload = pf_cuda_upload,
    .download = pf_cuda_download,
    .fill_i32 = pf_cuda_fill_i32,
    .fill_i64 = pf_cuda_fill_i64,
    .sync = pf_cuda_sync,
    .scan_i32 = pf_cuda_scan_i32,
    .filter_i32 = pf_cuda_filter_i32,
    .put_at = pf_cuda_put_at,
    .take_at = pf_cuda_take_at,
    .mark_changed = pf_cuda_mark_changed,
    .build_residual = pf_cuda_build_residual,
    .arc_flows = pf_cuda_arc_flows,
    .flow_matrix = pf_cuda_flow_matrix,
    .mark_active = pf_cuda_mark_active,
    .saturate_from = pf_cuda_saturate_from,
    .push_relabel = pf_cuda_push_relabel,
    .cancel_violations = pf_cuda_cancel_violations,
    .sum_excess = pf_cuda_sum_excess,
    .bfs_levels = pf_cuda_bfs_levels,
    .fw_tile = pf_cuda_fw_tile,
    .fw_phase = pf_cuda_fw_phase,
    .fw_variants = 1u << PF_FW_PER_K,
    .fw_step = pf_cuda_fw_step,
    .fw_stats = pf_cuda_fw_stats,
    .bfs_push = pf_cuda_bfs_push,
    .bfs_pull = pf_cuda_bfs_pull,
    .bfs_parents = pf_cuda_bfs_parents,
    .sssp_relax = pf_cuda_sssp_relax,
    .sssp_far = pf_cuda_sssp_far,
    .sssp_bucket_steps = pf_cuda_sssp_bucket_steps,
    .intersect_count = pf_cuda_intersect_count,
};
