/* Host-side parts of the graph steps that the CUDA and OpenCL backends
 * share (device.h: sssp_relax, sssp_far, sssp_bucket_steps): how a real
 * distance bound travels to the kernels, how sssp_far's counters become
 * its answer, and how wide a batched step launches.
 * Plain host C, also compiled as C++ by nvcc; not a kernel header. */
#ifndef PF_GRAPH_HOST_H
#define PF_GRAPH_HOST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../device.h"

/* A non-negative real bound as the 64-bit pattern the kernels compare:
 * such doubles order as their bits do (pf_kernel_table.h). */
static inline int64_t pf_graph_real_bits(double bound_f)
{
    int64_t bits;
    memcpy(&bits, &bound_f, sizeof bits);
    return bits;
}

/* The bound sssp_far's kernel takes: bound_i, or bound_f's bits when the
 * weights are real. */
static inline int64_t pf_graph_far_bound(int real, int64_t bound_i, double bound_f)
{
    return real ? pf_graph_real_bits(bound_f) : bound_i;
}

/* sssp_far's answer from the kernel's counters {moved, rest, rest's
 * smallest distance (real weights: its bits), moved arcs}. */
static inline void pf_graph_far_out(const int64_t c[4], int real, pf_sssp_far_out *res)
{
    res->count = c[0];
    res->arcs = c[3];
    res->rest = c[1];
    res->rest_min_i = c[2];
    res->rest_min_f = INFINITY;
    if (real && c[1] > 0)
        memcpy(&res->rest_min_f, &c[2], sizeof res->rest_min_f);
}

/* The workers each vertex of a sssp_bucket_steps frontier gets: the
 * backend's usual `lanes`, doubled (up to PF_GRAPH_HUB_LANES) while the
 * graph's largest out-degree would take more than 16 rounds of them. A
 * batched step cannot balance a hub's arcs over the grid the way the
 * host-driven steps do (a scan of the frontier's degrees, read back
 * first), and 8 workers walking a hub's thousand arcs, an atomic each,
 * would make the step wait for them. A backend with one worker per
 * vertex (a CPU device) keeps it. */
enum { PF_GRAPH_HUB_LANES = 256 };

static inline int pf_graph_step_lanes(int64_t max_degree, int lanes)
{
    while (lanes > 1 && lanes < PF_GRAPH_HUB_LANES && (int64_t)lanes * 16 < max_degree)
        lanes *= 2;
    return lanes;
}

/* The hops each launch of sssp_bucket_steps relaxes (the kernel's `hops`,
 * 1 to PF_GRAPH_HOPS_MOST): `knob` where set (PORTAFLOW_GRAPH_HOPS, else
 * negative), else PF_GRAPH_HOPS where a vertex has at most 8 workers: a
 * work-group's own queue holds a few hundred vertices, a handful of hub
 * vertices with hundreds of workers each would serialise it. */
enum { PF_GRAPH_HOPS = 8, PF_GRAPH_HOPS_MOST = PF_DEV_HOPS_MOST };

static inline int pf_graph_step_hops(int lanes, int64_t knob)
{
    if (knob >= 1)
        return knob < PF_GRAPH_HOPS_MOST ? (int)knob : PF_GRAPH_HOPS_MOST;
    return lanes <= 8 ? PF_GRAPH_HOPS : 1;
}

/* The work-items each step of sssp_bucket_steps launches: four times the
 * expected frontier's workers, at least 8192 vertices' worth (a batch
 * that starts from a few vertices may grow by orders of magnitude before
 * it ends: a Kronecker graph's frontier goes from one vertex to a million
 * in three steps, and a launch sized for the start would stride through
 * them with a few hundred workers), at most 2^18 (a larger frontier
 * strides). */
static inline int64_t pf_graph_steps_items(int64_t hint, int lanes)
{
    const int64_t most = (int64_t)1 << 18, least = (int64_t)8192 * lanes;
    int64_t items = (hint > 0 ? hint : 1) * lanes * 4;
    items = items > least ? items : least;
    return items < most ? items : most;
}

#endif
