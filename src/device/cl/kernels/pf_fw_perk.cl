/* The per-k Floyd-Warshall variant (fw_step with PF_FW_PER_K, device.h):
 * one launch per k over the whole matrix, a work-group per 32 x 32 block
 * of it, the block's 32 values of row k and of column k in local memory.
 *
 * Built per distance kind and next hops on/off (cl_fw_perk.c):
 *   PF_FW_T      element type: int, long or float (PF_FW_FLOAT: 1 for float)
 *   PF_FW_PATHS  1: keep the next hops (next is then a valid buffer)
 *   PF_PERK_LY   work-items along y: each takes rows y, y + LY, ... of the
 *                block (32 where the device runs 1024-item groups)
 * Row k and column k do not change in step k, so every element updates
 * at once; the host keeps finite sums away from overflow (device.h). */

#include "pf_vendor.h"
#include "pf_kernel_table.h"

#define PERK_EDGE 32

typedef PF_FW_T fw_t; /* the table's element type */

#if PF_FW_FLOAT
#define PERK_MIN(a, b) fmin((a), (b)) /* OpenCL's min is undefined on inf */
#else
#define PERK_MIN(a, b) min((a), (b))
#endif

PF_KERNEL_ATTR(fw_per_k, __attribute__((reqd_work_group_size(PERK_EDGE, PF_PERK_LY, 1))))
{
    __local PF_FW_T row_k[PERK_EDGE]; /* d(k, j) of the block's columns */
    __local PF_FW_T col_k[PERK_EDGE]; /* d(i, k) of its rows */
    __local int hop_k[PERK_EDGE];     /* next(i, k) of its rows */
    const int x = (int)get_local_id(0), y = (int)get_local_id(1);
    const size_t ld = (size_t)n;
    const size_t i0 = get_group_id(1) * PERK_EDGE, j0 = get_group_id(0) * PERK_EDGE;
    if (y == 0) {
        row_k[x] = dist[(size_t)k * ld + j0 + x];
        col_k[x] = dist[(i0 + x) * ld + k];
#if PF_FW_PATHS
        hop_k[x] = next[(i0 + x) * ld + k];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = y; r < PERK_EDGE; r += PF_PERK_LY) {
        const size_t at = (i0 + r) * ld + j0 + x;
        const PF_FW_T d = dist[at], sum = col_k[r] + row_k[x];
#if PF_FW_PATHS
        const int hop = next[at];
        next[at] = sum < d ? hop_k[r] : hop;
        dist[at] = sum < d ? sum : d;
#else
        dist[at] = PERK_MIN(d, sum);
#endif
    }
}
