/* OpenCL wrappers of the max-flow step bodies. The algorithm lives in
 * src/device/shared/pf_kernels.h (shared with CUDA and OpenMP); a wrapper
 * only maps a work-item to its index and checks bounds.
 *
 * The includes are for editors: embed_cl.py puts pf_vendor.h,
 * pf_kernels.h and pf_group.cl in front of this file and drops every
 * #include line. PF_CTR_WORK_SLOT comes from the build options
 * (cl_program.c), taken from device.h. */
#include "pf_vendor.h"
#include "pf_kernels.h"

__kernel void pf_k_mark_active(__global const pf_cap *excess, __global const int *height,
                               __global int *flags, int n, int source, int sink)
{
    long u = (long)get_global_id(0);
    if (u < n)
        pf_body_mark_active((int)u, excess, height, flags, n, source, sink);
}

/* Grid-stride over x's arcs: the host does not know x's degree without a
 * read-back, so a fixed number of work-items walks first[x]..first[x+1]. */
__kernel void pf_k_saturate_from(int x, __global const long *first,
                                  __global const int *head, __global const int *rev,
                                  __global pf_cap *res, __global pf_cap *excess,
                                  __global const int *height, int n)
{
    long end = first[x + 1];
    long stride = (long)get_global_size(0);
    for (long a = first[x] + (long)get_global_id(0); a < end; a += stride)
        pf_body_saturate_arc(a, x, first, head, rev, res, excess, height, n);
}

/* One listed vertex per work-item. The relabel work is summed per
 * work-group first, so the counter sees one atomic per group, not one per
 * vertex. Every work-item reaches the barriers of pf_group_sum. */
__kernel void pf_k_push_relabel(__global const int *list, long count,
                                __global const long *first, __global const int *head,
                                __global const int *rev, __global pf_cap *res,
                                __global pf_cap *excess, __global int *height, int n,
                                int cycles, __global long *counters,
                                __local long *scratch)
{
    long i = (long)get_global_id(0);
    long work = 0;
    if (i < count)
        work = pf_body_push_relabel(list[i], first, head, rev, res, excess, height, n,
                                    cycles);
    long group_work = pf_group_sum(work, scratch);
    if (get_local_id(0) == 0 && group_work != 0)
        PF_COUNTER_ADD(&counters[PF_CTR_WORK_SLOT], group_work);
}

/* The same with the worker following its excess into unowned neighbours
 * (pf_body_push_relabel_follow); `budget` operations per worker. Every
 * claim in owner[] is released before the kernel ends. */
__kernel void pf_k_push_relabel_follow(__global const int *list, long count,
                                       __global const long *first,
                                       __global const int *head, __global const int *rev,
                                       __global pf_cap *res, __global pf_cap *excess,
                                       __global int *height, __global int *owner, int n,
                                       int source, int sink, int budget,
                                       __global long *counters, __local long *scratch)
{
    long i = (long)get_global_id(0);
    long work = 0;
    if (i < count)
        work = pf_body_push_relabel_follow(list[i], first, head, rev, res, excess, height,
                                           owner, n, source, sink, budget);
    long group_work = pf_group_sum(work, scratch);
    if (get_local_id(0) == 0 && group_work != 0)
        PF_COUNTER_ADD(&counters[PF_CTR_WORK_SLOT], group_work);
}

/* pf_body_push_relabel_lanes with a work-group per listed vertex (GPUs;
 * the host picks it). */
__kernel void pf_k_push_relabel_group(__global const int *list, long count,
                                      __global const long *first, __global const int *head,
                                      __global const int *rev, __global pf_cap *res,
                                      __global pf_cap *excess, __global int *height,
                                      __global int *owner, int n, int source, int sink,
                                      int follow, int cycles, __global long *counters,
                                      __local int *lane_h, __local long *lane_arc,
                                      __local long *word)
{
    long i = (long)get_group_id(0);
    if (i >= count)
        return; /* the whole group */
    pf_lanes grp = {.lane = (int)get_local_id(0), .lanes = (int)get_local_size(0),
                    .word = word, .lane_h = lane_h, .lane_arc = lane_arc};
    long work = pf_body_push_relabel_lanes(&grp, list[i], first, head, rev, res, excess,
                                           height, owner, n, source, sink, follow, cycles);
    if (work != 0)
        PF_COUNTER_ADD(&counters[PF_CTR_WORK_SLOT], work);
}

__kernel void pf_k_cancel_violations(__global const int *list, long count,
                                     __global const long *first,
                                     __global const int *head, __global const int *rev,
                                     __global pf_cap *res, __global pf_cap *excess,
                                     __global const int *height)
{
    long i = (long)get_global_id(0);
    if (i < count)
        pf_body_cancel_violations(list[i], first, head, rev, res, excess, height);
}

/* One level of a bfs_levels batch over a fixed NDRange: the frontier size
 * is only known on the device (counts[in_slot]). */
__kernel void pf_k_bfs_level(__global const int *in, __global const long *first,
                             __global const int *head, __global const int *rev,
                             __global const pf_cap *res, __global int *height, __global int *out,
                             __global long *counts, int in_slot, int out_slot, int clear_slot,
                             int n, int level, int excluded, int lanes)
{
    pf_body_bfs_level_strided((long)get_global_id(0), (long)get_global_size(0), lanes, in,
                              first, head,
                              rev, res, height, out, counts, in_slot, out_slot, clear_slot, n,
                              level, excluded);
}
