/* Work-group helpers (sum, exclusive scan, work counter) used by the
 * kernels of pf_kernels.h and pf_scan.cl. They synchronise with barrier(),
 * so every work-item of the group must call them the same number of
 * times; they never wait on another work-group. Work-group sizes are
 * powers of two. */
#include "pf_vendor.h"

/* Sums one int64 per work-item over the work-group; every work-item gets
 * the sum. scratch: get_local_size(0) longs; the size is a power of two. */
PF_FN long pf_group_sum(long v, __local long *scratch)
{
    size_t lid = get_local_id(0);
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t width = get_local_size(0) / 2; width > 0; width /= 2) {
        if (lid < width)
            scratch[lid] += scratch[lid + width];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    long sum = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE); /* scratch may be reused after return */
    return sum;
}

/* Exclusive prefix sum of one int64 per work-item across the group;
 * *total receives the sum of all. scratch: 2 * get_local_size(0) longs
 * (Hillis-Steele with two buffers, so one barrier per step suffices). */
PF_FN long pf_group_exclusive_scan(long v, __local long *scratch, long *total)
{
    size_t lid = get_local_id(0), size = get_local_size(0);
    __local long *src = scratch, *dst = scratch + size;
    src[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t offset = 1; offset < size; offset *= 2) {
        dst[lid] = lid >= offset ? src[lid] + src[lid - offset] : src[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local long *swap = src;
        src = dst;
        dst = swap;
    }
    long inclusive = src[lid];
    *total = src[size - 1];
    barrier(CLK_LOCAL_MEM_FENCE); /* scratch may be reused after return */
    return inclusive - v;
}

/* Adds each work-item's `work` to *counter, summed over the work-group
 * first, so the counter sees one atomic per group (PF_ADD_WORK). Every
 * work-item of the group must call it. */
PF_FN void pf_group_add_work(__global long *counter, long work, __local long *scratch)
{
    long group_work = pf_group_sum(work, scratch);
    if (get_local_id(0) == 0 && group_work != 0)
        PF_COUNTER_ADD(counter, group_work);
}
