/* The graph analytics kernels (device.h: bfs_push .. intersect_count), each
 * a thin wrapper of a body of pf_graph_kernels.h, which the program text
 * puts before this file (after pf_vendor.h). Built once per device by
 * cl_graph.c with -DPF_GRAPH_F64=0|1 (doubles, for real SSSP weights).
 *
 * Frontier kernels give `lanes` work-items to each listed vertex (global
 * size count * lanes): on a GPU a vertex's arcs then load in parallel.
 * Counters: [0] appended vertices, [1] their out-degrees or the far
 * vertices left, [2] the smallest far distance's bits, [3] the far
 * vertices taken's out-degrees. */

__kernel void pf_k_bfs_push(__global const int *in, long count, int lanes,
                            __global const long *first, __global const int *head,
                            __global int *dist, int level, __global int *out,
                            __global long *counters)
{
    long i = (long)get_global_id(0);
    if (i < count * lanes)
        pf_body_bfs_push(in[i / lanes], (int)(i % lanes), lanes, first, head, dist, level, out,
                         counters);
}

__kernel void pf_k_bfs_pull(long n, __global const long *rfirst, __global const int *rhead,
                            __global const long *first, __global int *dist, int level,
                            __global int *flags, __global long *counters)
{
    long v = (long)get_global_id(0);
    if (v >= n)
        return;
    int took = pf_body_bfs_pull((int)v, rfirst, rhead, dist, level);
    flags[v] = took;
    if (took) {
        PF_COUNTER_ADD(&counters[0], 1);
        PF_COUNTER_ADD(&counters[1], first[v + 1] - first[v]);
    }
}

__kernel void pf_k_bfs_parents(long n, __global const long *rfirst, __global const int *rhead,
                               __global const int *dist, int source, __global int *parent)
{
    long v = (long)get_global_id(0);
    if (v < n)
        parent[v] = pf_body_bfs_parent((int)v, rfirst, rhead, dist, source);
}

__kernel void pf_k_relax_i64(__global const int *in, long count, int lanes,
                             __global const long *first, __global const int *head,
                             __global const long *weight, int has_weight, __global long *dist,
                             __global int *claim, int step, __global int *near,
                             __global int *far, long bound, __global long *counters)
{
    long i = (long)get_global_id(0);
    if (i < count * lanes)
        pf_body_relax_i64(in[i / lanes], (int)(i % lanes), lanes, first, head, weight,
                          has_weight, dist, claim, step, near, far, bound, counters);
}

/* The far pile (sssp_far): integer distances, or the bits of non-negative
 * doubles, which order as those integers do (so no doubles are needed). */
__kernel void pf_k_far(long n, __global const long *first, __global const long *dist,
                       __global int *far, long bound, __global int *out, __global long *counters)
{
    long v = (long)get_global_id(0);
    if (v >= n || !far[v])
        return;
    long d = dist[v];
    if (d < bound) {
        far[v] = 0;
        out[PF_COUNTER_NEXT(&counters[0])] = (int)v;
        PF_COUNTER_ADD(&counters[3], first[v + 1] - first[v]);
    } else {
        PF_COUNTER_ADD(&counters[1], 1);
        pf_atomic_min_i64(&counters[2], d);
    }
}

__kernel void pf_k_intersect(long n, int lanes, __global const long *first,
                             __global const int *head, __global long *counters)
{
    long i = (long)get_global_id(0);
    if (i >= n * lanes)
        return;
    long found = pf_body_intersect((int)(i / lanes), (int)(i % lanes), lanes, first, head);
    if (found)
        PF_COUNTER_ADD(&counters[0], found);
}

#if PF_GRAPH_F64
__kernel void pf_k_relax_f64(__global const int *in, long count, int lanes,
                             __global const long *first, __global const int *head,
                             __global const double *weight, __global double *dist,
                             __global int *claim, int step, __global int *near,
                             __global int *far, double bound, __global long *counters)
{
    long i = (long)get_global_id(0);
    if (i < count * lanes)
        pf_body_relax_f64(in[i / lanes], (int)(i % lanes), lanes, first, head, weight, dist,
                          claim, step, near, far, bound, counters);
}
#endif

/* ---- load-balanced advance: one work-item per arc (pf_graph_kernels.h) ---- */

__kernel void pf_k_frontier_degree(__global const int *in, long count,
                                   __global const long *first, __global int *degree)
{
    long i = (long)get_global_id(0);
    if (i < count)
        pf_body_frontier_degree(i, in, first, degree);
}

__kernel void pf_k_bfs_push_arcs(__global const int *in, __global const int *offset, long count,
                                 long arcs, __global const long *first,
                                 __global const int *head, __global int *dist, int level,
                                 __global int *out, __global long *counters)
{
    long j = (long)get_global_id(0);
    if (j < arcs)
        pf_body_bfs_push_arc(j, in, offset, count, first, head, dist, level, out, counters);
}

__kernel void pf_k_relax_arcs_i64(__global const int *in, __global const int *offset, long count,
                                  long arcs, __global const long *first,
                                  __global const int *head, __global const long *weight,
                                  int has_weight, __global long *dist, __global int *claim,
                                  int step, __global int *near, __global int *far, long bound,
                                  __global long *counters)
{
    long j = (long)get_global_id(0);
    if (j < arcs)
        pf_body_relax_arc_i64(j, in, offset, count, first, head, weight, has_weight, dist, claim,
                              step, near, far, bound, counters);
}

#if PF_GRAPH_F64
__kernel void pf_k_relax_arcs_f64(__global const int *in, __global const int *offset, long count,
                                  long arcs, __global const long *first,
                                  __global const int *head, __global const double *weight,
                                  __global double *dist, __global int *claim, int step,
                                  __global int *near, __global int *far, double bound,
                                  __global long *counters)
{
    long j = (long)get_global_id(0);
    if (j < arcs)
        pf_body_relax_arc_f64(j, in, offset, count, first, head, weight, dist, claim, step, near,
                              far, bound, counters);
}
#endif
