/* fw_stats (device.h): the statistics of `apsp --stats` over the solved
 * matrix, on the device, so that only partial sums come back. One
 * work-group per row: its work-items fold columns lid, lid + items, ...
 * (pf_fw_stats.h, which the program text puts before this file), then
 * reduce in local memory; the host adds up the rows' partials
 * (cl_fw_stats.c).
 *
 * Built per distance kind (cl_fw_stats.c):
 *   PF_FW_T         element type: int or long
 *   PF_FW_INF_HALF  the largest finite entry (PF_FW_INF_* / 2)
 *   PF_STATS_ITEMS  work-items of a group (a power of two) */

#include "pf_vendor.h"
#include "pf_kernel_table.h"

typedef long pf_fw_i64;
typedef ulong pf_fw_u64;
typedef PF_FW_T fw_t; /* the table's element type */

/* partial[3 i .. 3 i + 2] = row i's reachable count, sum (as bits), most. */
PF_KERNEL_ATTR(fw_stats, __attribute__((reqd_work_group_size(PF_STATS_ITEMS, 1, 1))))
{
    __local long counts[PF_STATS_ITEMS];
    __local ulong sums[PF_STATS_ITEMS];
    __local long mosts[PF_STATS_ITEMS];
    const int lid = (int)get_local_id(0), i = (int)get_group_id(0);
    long count = 0, most = LONG_MIN;
    ulong sum = 0;
    __global const PF_FW_T *row = dist + (size_t)i * (size_t)ld;
    PF_FW_STATS_ROW(PF_FW_T, row, i, n, lid, PF_STATS_ITEMS, PF_FW_INF_HALF, count, sum, most);
    counts[lid] = count;
    sums[lid] = sum;
    mosts[lid] = most;
    for (int width = PF_STATS_ITEMS / 2; width > 0; width /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < width) {
            counts[lid] += counts[lid + width];
            sums[lid] += sums[lid + width];
            mosts[lid] = max(mosts[lid], mosts[lid + width]);
        }
    }
    if (lid == 0) {
        partial[3 * (size_t)i] = counts[0];
        partial[3 * (size_t)i + 1] = (long)sums[0];
        partial[3 * (size_t)i + 2] = mosts[0];
    }
}
