/* Kernel bodies of the graph analytics steps (device.h: bfs_push ..
 * intersect_count), written once for OpenCL C, CUDA and host C as
 * pf_kernels.h is. Include pf_vendor.h first.
 *
 * Two layers: per-arc decisions (claim a vertex for a BFS level, lower a
 * distance), which every backend calls, and per-vertex bodies that append
 * to a shared list through a device counter (the GPU kernels' form). The
 * OpenMP backend appends to per-thread lists instead (a shared counter
 * bumped per vertex by 16 threads costs more than the work), around the
 * same per-arc decisions.
 *
 * The kernels (OpenCL and CUDA) close the file, after the bodies, with
 * their parameters from pf_kernel_table.h (PF_GRAPH_KERNELS).
 *
 * The atomics these need beyond pf_vendor.h's: the minimum of an int64 or
 * a double, each a compare-and-swap loop where
 * the dialect has no such instruction (OpenCL without
 * cl_khr_int64_extended_atomics, doubles everywhere). The minimum returns 1
 * when this worker lowered the value. */
#ifndef PF_GRAPH_KERNELS_H
#define PF_GRAPH_KERNELS_H

#if defined(__OPENCL_VERSION__)
#ifdef cl_khr_int64_extended_atomics
/* One atomic where the device has it (a compare-and-swap loop costs a load
 * and the swap, two trips to memory on a relaxation's critical path). */
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
PF_FN int pf_atomic_min_i64(__global long *p, long v)
{
    return atom_min((volatile __global long *)p, v) > v;
}
#else
PF_FN int pf_atomic_min_i64(__global long *p, long v)
{
    long old = PF_LOAD_I64(p);
    while (v < old) {
        long seen = atom_cmpxchg((volatile __global long *)p, old, v);
        if (seen == old)
            return 1;
        old = seen;
    }
    return 0;
}
#endif
/* Doubles where the device has them (the host builds with PF_GRAPH_F64). */
#if PF_GRAPH_F64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define PF_HAVE_F64 1
#define PF_LOAD_F64(p) (*(volatile __global double *)(p))
typedef double pf_f64;
#define PF_F64_INF INFINITY
#define PF_F64_FROM_BITS(b) as_double(b)
#define PF_F64_BITS(d) as_long(d)
#define PF_CAS_I64(p, old, v) atom_cmpxchg((volatile __global long *)(p), (old), (v))
#endif

#elif defined(__CUDACC__)
#define PF_HAVE_F64 1
static __device__ __forceinline__ int pf_atomic_min_i64(pf_i64 *p, pf_i64 v)
{
    return (pf_i64)atomicMin((long long *)p, (long long)v) > v;
}
#define PF_LOAD_F64(p) (*(volatile const double *)(p))
typedef double pf_f64;
#define PF_F64_INF (__longlong_as_double(0x7ff0000000000000LL))
#define PF_F64_FROM_BITS(b) __longlong_as_double(b)
#define PF_F64_BITS(d) ((pf_i64)__double_as_longlong(d))
#define PF_CAS_I64(p, old, v)                                                               \
    ((pf_i64)atomicCAS((unsigned long long *)(p), (unsigned long long)(old),              \
                       (unsigned long long)(v)))

#else /* host C */
#define PF_HAVE_F64 1
#include <math.h>
#include <string.h>
static inline int pf_atomic_min_i64(pf_i64 *p, pf_i64 v)
{
    pf_i64 old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < old)
        if (__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return 1;
    return 0;
}
static inline double pf_bits_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
static inline int pf_atomic_min_f64(double *p, double v)
{
    uint64_t *bits = (uint64_t *)(void *)p, want;
    memcpy(&want, &v, sizeof want);
    uint64_t old = __atomic_load_n(bits, __ATOMIC_RELAXED);
    while (v < pf_bits_f64(old))
        if (__atomic_compare_exchange_n(bits, &old, want, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return 1;
    return 0;
}
static inline double pf_load_f64(const double *p)
{
    uint64_t bits = __atomic_load_n((const uint64_t *)(const void *)p, __ATOMIC_RELAXED);
    return pf_bits_f64(bits);
}
#define PF_LOAD_F64(p) pf_load_f64(p)
static inline pf_i64 pf_f64_bits(double d)
{
    pf_i64 bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}
#define PF_F64_BITS(d) pf_f64_bits(d)
typedef double pf_f64;
#define PF_F64_INF INFINITY
#endif

#include "pf_hops.h"

#if defined(PF_CAS_I64) && defined(PF_HAVE_F64) /* the GPU dialects */
PF_FN int pf_atomic_min_f64(PF_GLOBAL pf_f64 *p, pf_f64 v)
{
    PF_GLOBAL pf_i64 *bits = (PF_GLOBAL pf_i64 *)p;
    pf_i64 old = PF_LOAD_I64(bits);
    while (v < PF_F64_FROM_BITS(old)) {
        pf_i64 seen = PF_CAS_I64(bits, old, PF_F64_BITS(v));
        if (seen == old)
            return 1;
        old = seen;
    }
    return 0;
}
#endif

#define PF_DIST_NONE_I64 ((pf_i64)0x7fffffffffffffffLL)

/* Where row u ends. Every body reads a row as [first[u], PF_ROW_END): a
 * CSR view with room left after each row (a dynamic graph patched in
 * place) defines this to read its row ends instead. */
#ifndef PF_ROW_END
#define PF_ROW_END(first, u) ((first)[(u) + 1])
#endif

/* ---- BFS ---------------------------------------------------------------- */

/* v joins level + 1 if nobody has it yet: 1 for the one worker that
 * claimed it. A plain load first: most arcs lead to visited vertices. */
PF_FN int pf_bfs_claim(PF_GLOBAL pf_i32 *dist, pf_i32 v, pf_i32 level)
{
    return PF_LOAD_I32(&dist[v]) == -1 && PF_ATOMIC_CAS_I32(&dist[v], -1, level + 1) == -1;
}

/* bfs_push on frontier vertex u, or `lane` of `lanes` workers sharing its
 * arcs, appending through counters[0] (vertices) and counters[1] (their
 * out-degrees). */
PF_FN void pf_body_bfs_push(pf_i32 u, pf_i32 lane, pf_i32 lanes, PF_GLOBAL const pf_i64 *first,
                            PF_GLOBAL const pf_i32 *head, PF_GLOBAL pf_i32 *dist, pf_i32 level,
                            PF_GLOBAL pf_i32 *out, PF_GLOBAL pf_i64 *counters)
{
    for (pf_i64 a = first[u] + lane; a < PF_ROW_END(first, u); a += lanes) {
        pf_i32 v = head[a];
        if (pf_bfs_claim(dist, v, level)) {
            out[PF_FRONTIER_APPEND(counters, PF_ROW_END(first, v) - first[v])] = v;
        }
    }
}

/* bfs_pull on vertex v: 1 if it joined level + 1. Only unvisited v write
 * their own dist, and what they write (level + 1) is no other vertex's
 * test value (level), so no atomics are needed. */
PF_FN int pf_body_bfs_pull(pf_i32 v, PF_GLOBAL const pf_i64 *rfirst, PF_GLOBAL const pf_i32 *rhead,
                           PF_GLOBAL pf_i32 *dist, pf_i32 level)
{
    if (dist[v] != -1)
        return 0;
    for (pf_i64 a = rfirst[v]; a < PF_ROW_END(rfirst, v); a++)
        if (PF_LOAD_I32(&dist[rhead[a]]) == level) {
            dist[v] = level + 1;
            return 1;
        }
    return 0;
}

/* The parent of v by the smallest-id rule (device.h bfs_parents). */
PF_FN pf_i32 pf_body_bfs_parent(pf_i32 v, PF_GLOBAL const pf_i64 *rfirst,
                                PF_GLOBAL const pf_i32 *rhead, PF_GLOBAL const pf_i32 *dist,
                                pf_i32 source)
{
    pf_i32 d = dist[v];
    if (v == source)
        return source;
    if (d <= 0)
        return -1;
    for (pf_i64 a = rfirst[v]; a < PF_ROW_END(rfirst, v); a++)
        if (dist[rhead[a]] == d - 1)
            return rhead[a];
    return -1; /* cannot happen after a BFS */
}

/* ---- SSSP: near-far relaxation --------------------------------------------- */

/* Whether this worker, having lowered v's distance to d, appends v to the
 * near list (1), marks it far (0: done here), or leaves it (another worker
 * of this step appended it already: -1). */
PF_FN int pf_relax_route(PF_GLOBAL pf_i32 *claim, PF_GLOBAL pf_i32 *far, pf_i32 v, pf_i32 step,
                         int is_near)
{
    if (!is_near) {
        far[v] = 1;
        return 0;
    }
    return pf_relax_claim(claim, v, step) ? 1 : -1;
}

/* The far pile of sssp_bucket_steps: the far flags, and a list of the
 * flagged vertices (each listed once: the flag's exchange decides who
 * appends) in the slot's current pile from `at` on, with the slot's
 * smallest far distance (as int64 bits: integer distances, or non-negative
 * doubles, which order as their bits do). list = 0: flags only (the host
 * moves the buckets with sssp_far). With a list the step's appends to the
 * near frontier count no degrees (nothing reads them: the launches are
 * sized by the frontier). The slot's words: device.h PF_SSSP_SLOT_*,
 * mirrored here. */
#define PF_SLOT_COUNT 0
#define PF_SLOT_BOUND 2
#define PF_SLOT_PILE 3
#define PF_SLOT_PILE_AT 4
#define PF_SLOT_PILE_ADDED 5
#define PF_SLOT_PILE_MIN 6
#define PF_SLOT_WORDS 8
typedef struct pf_far_pile {
    PF_GLOBAL pf_i32 *list;
    pf_i64 at;
    PF_GLOBAL pf_i64 *slot;
} pf_far_pile;

/* Flags only: the host moves the buckets. */
PF_FN pf_far_pile pf_no_pile(void)
{
    pf_far_pile pile;
    pile.list = 0;
    pile.at = 0;
    pile.slot = 0;
    return pile;
}

PF_FN void pf_relax_far(PF_GLOBAL pf_i32 *far, pf_i32 v, pf_i64 d_bits, pf_far_pile pile)
{
    if (!pile.list) {
        far[v] = 1;
        return;
    }
    if (PF_ATOMIC_XCHG_I32(&far[v], 1) == 0)
        pile.list[pile.at + PF_COUNTER_NEXT(&pile.slot[PF_SLOT_PILE_ADDED])] = v;
    pf_atomic_min_i64(&pile.slot[PF_SLOT_PILE_MIN], d_bits);
}

/* sssp_relax on frontier vertex u (lane of lanes, as above), integer
 * distances; has_weight = 0: every arc weighs 1 (weight is not read).
 * Appends through counters[0], their out-degrees into counters[1]. */
PF_FN void pf_body_relax_i64(pf_i32 u, pf_i32 lane, pf_i32 lanes, PF_GLOBAL const pf_i64 *first,
                             PF_GLOBAL const pf_i32 *head,
                             PF_GLOBAL const pf_i64 *weight, int has_weight,
                             PF_GLOBAL pf_i64 *dist, PF_GLOBAL pf_i32 *claim, pf_i32 step,
                             PF_GLOBAL pf_i32 *near, PF_GLOBAL pf_i32 *far, pf_i64 bound,
                             PF_GLOBAL pf_i64 *counters, pf_far_pile pile, pf_hop_queue hop)
{
    pf_i64 du = PF_LOAD_I64(&dist[u]);
    for (pf_i64 a = first[u] + lane; a < PF_ROW_END(first, u); a += lanes) {
        pf_i32 v = head[a];
        pf_i64 d = du + (has_weight ? weight[a] : 1);
        if (!(d < PF_LOAD_I64(&dist[v]) && pf_atomic_min_i64(&dist[v], d)))
            continue;
        if (d >= bound)
            pf_relax_far(far, v, d, pile);
        else if (pf_relax_near(claim, v, step, hop))
            near[pile.list ? PF_FRONTIER_APPEND_ONE(counters)
                           : PF_FRONTIER_APPEND(counters, PF_ROW_END(first, v) - first[v])] = v;
    }
}

#ifdef PF_HAVE_F64
/* The same for real weights. */
PF_FN void pf_body_relax_f64(pf_i32 u, pf_i32 lane, pf_i32 lanes, PF_GLOBAL const pf_i64 *first,
                             PF_GLOBAL const pf_i32 *head,
                             PF_GLOBAL const pf_f64 *weight, PF_GLOBAL pf_f64 *dist,
                             PF_GLOBAL pf_i32 *claim, pf_i32 step, PF_GLOBAL pf_i32 *near,
                             PF_GLOBAL pf_i32 *far, pf_f64 bound, PF_GLOBAL pf_i64 *counters,
                             pf_far_pile pile, pf_hop_queue hop)
{
    pf_f64 du = PF_LOAD_F64(&dist[u]);
    for (pf_i64 a = first[u] + lane; a < PF_ROW_END(first, u); a += lanes) {
        pf_i32 v = head[a];
        pf_f64 d = du + weight[a];
        if (!(d < PF_LOAD_F64(&dist[v]) && pf_atomic_min_f64(&dist[v], d)))
            continue;
        if (!(d < bound))
            pf_relax_far(far, v, PF_F64_BITS(d), pile);
        else if (pf_relax_near(claim, v, step, hop))
            near[pile.list ? PF_FRONTIER_APPEND_ONE(counters)
                           : PF_FRONTIER_APPEND(counters, PF_ROW_END(first, v) - first[v])] = v;
    }
}
#endif

/* ---- load-balanced advance ------------------------------------------------
 * A frontier whose degrees differ by orders of magnitude (a hub beside
 * thousands of leaves) gets one worker per arc instead of a group per
 * vertex: degree[i] of each listed vertex, offset = its exclusive scan
 * (scan_i32), then worker j finds its vertex by a binary search. */

PF_FN void pf_body_frontier_degree(pf_i64 i, PF_GLOBAL const pf_i32 *in,
                                   PF_GLOBAL const pf_i64 *first, PF_GLOBAL pf_i32 *degree)
{
    pf_i32 u = in[i];
    degree[i] = (pf_i32)(PF_ROW_END(first, u) - first[u]);
}

/* The list position of arc j of the concatenated rows: the last i with
 * offset[i] <= j. */
PF_FN pf_i64 pf_lb_find(PF_GLOBAL const pf_i32 *offset, pf_i64 count, pf_i64 j)
{
    pf_i64 lo = 0, hi = count - 1;
    while (lo < hi) {
        pf_i64 mid = (lo + hi + 1) / 2;
        if (offset[mid] <= j)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Arc j of the frontier's rows: its index in head[], and its tail in *u. */
PF_FN pf_i64 pf_lb_arc(PF_GLOBAL const pf_i32 *in, PF_GLOBAL const pf_i32 *offset, pf_i64 count,
                       PF_GLOBAL const pf_i64 *first, pf_i64 j, pf_i32 *u)
{
    pf_i64 i = pf_lb_find(offset, count, j);
    *u = in[i];
    return first[*u] + (j - offset[i]);
}

/* bfs_push's work for arc j (counters as pf_body_bfs_push's). */
PF_FN void pf_body_bfs_push_arc(pf_i64 j, PF_GLOBAL const pf_i32 *in,
                                PF_GLOBAL const pf_i32 *offset, pf_i64 count,
                                PF_GLOBAL const pf_i64 *first, PF_GLOBAL const pf_i32 *head,
                                PF_GLOBAL pf_i32 *dist, pf_i32 level, PF_GLOBAL pf_i32 *out,
                                PF_GLOBAL pf_i64 *counters)
{
    pf_i32 u;
    pf_i32 v = head[pf_lb_arc(in, offset, count, first, j, &u)];
    if (pf_bfs_claim(dist, v, level)) {
        out[PF_FRONTIER_APPEND(counters, PF_ROW_END(first, v) - first[v])] = v;
    }
}

/* sssp_relax's work for arc j, integer distances. */
PF_FN void pf_body_relax_arc_i64(pf_i64 j, PF_GLOBAL const pf_i32 *in,
                                 PF_GLOBAL const pf_i32 *offset, pf_i64 count,
                                 PF_GLOBAL const pf_i64 *first, PF_GLOBAL const pf_i32 *head,
                                 PF_GLOBAL const pf_i64 *weight, int has_weight,
                                 PF_GLOBAL pf_i64 *dist, PF_GLOBAL pf_i32 *claim, pf_i32 step,
                                 PF_GLOBAL pf_i32 *near, PF_GLOBAL pf_i32 *far, pf_i64 bound,
                                 PF_GLOBAL pf_i64 *counters)
{
    pf_i32 u;
    pf_i64 a = pf_lb_arc(in, offset, count, first, j, &u);
    pf_i32 v = head[a];
    pf_i64 d = PF_LOAD_I64(&dist[u]) + (has_weight ? weight[a] : 1);
    if (d < PF_LOAD_I64(&dist[v]) && pf_atomic_min_i64(&dist[v], d) &&
        pf_relax_route(claim, far, v, step, d < bound) == 1) {
        near[PF_FRONTIER_APPEND(counters, PF_ROW_END(first, v) - first[v])] = v;
    }
}

#ifdef PF_HAVE_F64
/* The same for real weights. */
PF_FN void pf_body_relax_arc_f64(pf_i64 j, PF_GLOBAL const pf_i32 *in,
                                 PF_GLOBAL const pf_i32 *offset, pf_i64 count,
                                 PF_GLOBAL const pf_i64 *first, PF_GLOBAL const pf_i32 *head,
                                 PF_GLOBAL const pf_f64 *weight, PF_GLOBAL pf_f64 *dist,
                                 PF_GLOBAL pf_i32 *claim, pf_i32 step, PF_GLOBAL pf_i32 *near,
                                 PF_GLOBAL pf_i32 *far, pf_f64 bound, PF_GLOBAL pf_i64 *counters)
{
    pf_i32 u;
    pf_i64 a = pf_lb_arc(in, offset, count, first, j, &u);
    pf_i32 v = head[a];
    pf_f64 d = PF_LOAD_F64(&dist[u]) + weight[a];
    if (d < PF_LOAD_F64(&dist[v]) && pf_atomic_min_f64(&dist[v], d) &&
        pf_relax_route(claim, far, v, step, d < bound) == 1) {
        near[PF_FRONTIER_APPEND(counters, PF_ROW_END(first, v) - first[v])] = v;
    }
}
#endif

/* ---- triangles: segmented intersection --------------------------------------- */

/* The triangles closed by u's arcs in the rank-ordered graph whose ids are
 * the ranks (every arc goes up, rows sorted): for each arc (u,v) (lane of
 * lanes: every lanes-th), the heads common to u's row after v and v's
 * row, by a merge. */
PF_FN pf_i64 pf_body_intersect(pf_i32 u, pf_i32 lane, pf_i32 lanes, PF_GLOBAL const pf_i64 *first,
                               PF_GLOBAL const pf_i32 *head)
{
    pf_i64 count = 0, end_u = PF_ROW_END(first, u);
    for (pf_i64 a = first[u] + lane; a < end_u; a += lanes) {
        pf_i32 v = head[a];
        pf_i64 i = a + 1, j = first[v], end_v = PF_ROW_END(first, v);
        while (i < end_u && j < end_v) {
            pf_i32 x = head[i], y = head[j];
            count += x == y;
            i += x <= y;
            j += y <= x;
        }
    }
    return count;
}

/* ---- near-far with the buckets moved on the device (sssp_bucket_steps) - */

/* a + b for b >= 0, at most "none". */
PF_FN pf_i64 pf_add_sat_i64(pf_i64 a, pf_i64 b)
{
    return a > PF_DIST_NONE_I64 - b ? PF_DIST_NONE_I64 : a + b;
}

/* Where the next bucket starts: past the bound, or at the pile's smallest
 * distance where the buckets between are empty. */
PF_FN pf_i64 pf_bucket_low(PF_GLOBAL const pf_i64 *prev)
{
    pf_i64 bound = prev[PF_SLOT_BOUND], least = prev[PF_SLOT_PILE_MIN];
    return least > bound ? least : bound;
}

/* An advance's work on pile vertex v (flagged far): below the new bound it
 * joins the near frontier (its flag cleared), else the other pile. */
PF_FN void pf_body_advance(pf_i32 v, PF_GLOBAL const pf_i64 *dist_bits, PF_GLOBAL pf_i32 *far,
                           pf_i64 bound, PF_GLOBAL pf_i32 *near, PF_GLOBAL pf_i32 *other,
                           PF_GLOBAL pf_i64 *slot)
{
    pf_i64 d = dist_bits[v];
    if (d < bound) {
        far[v] = 0;
        near[PF_FRONTIER_APPEND_ONE(slot)] = v;
    } else {
        other[PF_COUNTER_NEXT(&slot[PF_SLOT_PILE_ADDED])] = v;
        pf_atomic_min_i64(&slot[PF_SLOT_PILE_MIN], d);
    }
}

#ifdef PF_KERNEL
/* ---- the kernels (OpenCL and CUDA) ------------------------------------
 * One wrapper per step in the neutral dialect of pf_vendor.h, parameters
 * from pf_kernel_table.h (PF_GRAPH_KERNELS). Frontier kernels give `lanes`
 * work-items to each listed vertex (a grid of count * lanes), the *_arcs
 * ones one work-item per arc of the frontier's rows. Counters: [0]
 * appended vertices, [1] their out-degrees or the far vertices left, [2]
 * the smallest far distance's bits, [3] the far vertices taken's
 * out-degrees. */

PF_KERNEL(bfs_push)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count * lanes)
        pf_body_bfs_push(in[i / lanes], (pf_i32)(i % lanes), lanes, first, head, dist, level, out,
                         counters);
}

PF_KERNEL(bfs_pull)
{
    pf_i64 v = PF_GLOBAL_ID();
    if (v >= n)
        return;
    int took = pf_body_bfs_pull((pf_i32)v, rfirst, rhead, dist, level);
    flags[v] = took;
    if (took) {
        PF_COUNTER_ADD(&counters[0], 1);
        PF_COUNTER_ADD(&counters[1], PF_ROW_END(first, v) - first[v]);
    }
}

PF_KERNEL(bfs_parents)
{
    pf_i64 v = PF_GLOBAL_ID();
    if (v < n)
        parent[v] = pf_body_bfs_parent((pf_i32)v, rfirst, rhead, dist, source);
}

PF_KERNEL(relax_i64)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count * lanes)
        pf_body_relax_i64(in[i / lanes], (pf_i32)(i % lanes), lanes, first, head, weight,
                          has_weight, dist, claim, step, near, far, bound, counters,
                          pf_no_pile(), pf_hop_queue_of(0, 0, 0, 1));
}

/* The far pile: integer distances, or the bits of non-negative doubles,
 * which order as those integers do (no doubles needed). */
PF_KERNEL(far)
{
    pf_i64 v = PF_GLOBAL_ID();
    if (v >= n || !far[v])
        return;
    pf_i64 d = dist[v];
    if (d < bound) {
        far[v] = 0;
        out[PF_COUNTER_NEXT(&counters[0])] = (pf_i32)v;
        PF_COUNTER_ADD(&counters[3], PF_ROW_END(first, v) - first[v]);
    } else {
        PF_COUNTER_ADD(&counters[1], 1);
        pf_atomic_min_i64(&counters[2], d);
    }
}

/* A step of sssp_bucket_steps (device.h): slot `at` is the state before
 * it. A frontier there is relaxed, the far routes going to the current
 * pile; an empty one makes this step an advance: the bound moves to the
 * next non-empty bucket and the pile's vertices below it become the
 * frontier, the rest the other pile. Work-item 0 carries the slot's bound
 * and pile (and the pile's smallest distance) into slot at + 1. Step at
 * reads list[at % 2] and writes the other, with claim value step0 + at. */
PF_FN void pf_bucket_carry(PF_GLOBAL const pf_i64 *prev, PF_GLOBAL pf_i64 *next, int advance,
                           pf_i64 bound)
{
    if (PF_GLOBAL_ID() != 0)
        return;
    next[PF_SLOT_BOUND] = bound;
    next[PF_SLOT_PILE] = advance ? 1 - prev[PF_SLOT_PILE] : prev[PF_SLOT_PILE];
    next[PF_SLOT_PILE_AT] = advance ? 0 : prev[PF_SLOT_PILE_AT] + prev[PF_SLOT_PILE_ADDED];
    if (!advance)
        pf_atomic_min_i64(&next[PF_SLOT_PILE_MIN], prev[PF_SLOT_PILE_MIN]);
}

/* What step `at` of sssp_bucket_steps works on: the slot before it, its
 * lists, its claim value, the current pile (appends go to the slot after
 * it) and the frontier's size. A relaxing step's slot is carried here. */
typedef struct pf_bucket_step {
    PF_GLOBAL pf_i64 *prev;
    PF_GLOBAL pf_i32 *in, *near, *other_pile;
    pf_i32 step;
    pf_far_pile pile;
    pf_i64 count, bound; /* the frontier's size; the bucket's bound (a double's bits) */
} pf_bucket_step;

PF_FN pf_bucket_step pf_bucket_step_of(PF_GLOBAL pf_i64 *slots, pf_i32 at, pf_i32 step0,
                                       PF_GLOBAL pf_i32 *list0, PF_GLOBAL pf_i32 *list1,
                                       PF_GLOBAL pf_i32 *pile0, PF_GLOBAL pf_i32 *pile1)
{
    pf_bucket_step s;
    s.prev = slots + (pf_i64)PF_SLOT_WORDS * at;
    s.in = at % 2 ? list1 : list0;
    s.near = at % 2 ? list0 : list1;
    s.step = step0 + at;
    s.pile.list = s.prev[PF_SLOT_PILE] ? pile1 : pile0;
    s.other_pile = s.prev[PF_SLOT_PILE] ? pile0 : pile1;
    s.pile.at = s.prev[PF_SLOT_PILE_AT] + s.prev[PF_SLOT_PILE_ADDED];
    s.pile.slot = s.prev + PF_SLOT_WORDS;
    s.count = s.prev[PF_SLOT_COUNT];
    s.bound = s.prev[PF_SLOT_BOUND];
    if (s.count > 0)
        pf_bucket_carry(s.prev, s.pile.slot, 0, s.prev[PF_SLOT_BOUND]);
    return s;
}

/* An advance to `bound`: the pile's vertices below it become the frontier,
 * the others the other pile. */
PF_FN void pf_bucket_advance(const pf_bucket_step *s, PF_GLOBAL const pf_i64 *dist_bits,
                             PF_GLOBAL pf_i32 *far, pf_i64 bound)
{
    pf_bucket_carry(s->prev, s->pile.slot, 1, bound);
    for (pf_i64 i = PF_GLOBAL_ID(); i < s->pile.at; i += PF_GLOBAL_SIZE())
        pf_body_advance(s->pile.list[i], dist_bits, far, bound, s->near, s->other_pile,
                        s->pile.slot);
}

/* What a batched step's relaxations read besides the step: the graph, its
 * weights and distances (real: doubles' bits), the claims and far flags,
 * the workers per vertex and the hops. */
typedef struct pf_bucket_graph {
    PF_GLOBAL const pf_i64 *first;
    PF_GLOBAL const pf_i32 *head;
    PF_GLOBAL const pf_i64 *weight;
    PF_GLOBAL pf_i64 *dist;
    PF_GLOBAL pf_i32 *claim;
    PF_GLOBAL pf_i32 *far;
    int has_weight, real;
    pf_i32 lanes, hops;
} pf_bucket_graph;

/* Frontier vertex u relaxed by worker `lane` of its lanes. */
PF_FN void pf_bucket_relax(const pf_bucket_graph *g, const pf_bucket_step *s, pf_i32 u,
                           pf_i64 lane, pf_hop_queue q)
{
#ifdef PF_HAVE_F64
    if (g->real) {
        pf_body_relax_f64(u, (pf_i32)lane, g->lanes, g->first, g->head,
                          (PF_GLOBAL const pf_f64 *)g->weight, (PF_GLOBAL pf_f64 *)g->dist,
                          g->claim, s->step, s->near, g->far, PF_F64_FROM_BITS(s->bound),
                          s->pile.slot, s->pile, q);
        return;
    }
#endif
    pf_body_relax_i64(u, (pf_i32)lane, g->lanes, g->first, g->head, g->weight, g->has_weight,
                      g->dist, g->claim, s->step, s->near, g->far, s->bound, s->pile.slot,
                      s->pile, q);
}

/* A relaxing step: its frontier over the whole grid, then each work-group's
 * further hops from its own queue. */
PF_FN void pf_bucket_relax_hops(const pf_bucket_graph *g, const pf_bucket_step *s,
                                PF_LOCAL pf_i32 *lists, PF_LOCAL pf_i32 *counts)
{
    if (g->hops > 1)
        pf_hops_begin(counts);
    for (pf_i64 i = PF_GLOBAL_ID(); i < s->count * g->lanes; i += PF_GLOBAL_SIZE())
        pf_bucket_relax(g, s, s->in[i / g->lanes], i % g->lanes,
                        pf_hop_queue_of(lists, counts, 0, g->hops));
    for (pf_i32 hop = 1; hop < g->hops; hop++) {
        pf_i64 queued = pf_hop_queued(counts, hop);
        if (queued == 0)
            break;
        PF_LOCAL const pf_i32 *in = lists + ((hop - 1) % 2) * PF_HOP_ROOM;
        for (pf_i64 i = PF_LOCAL_ID(); i < queued * g->lanes; i += PF_LOCAL_SIZE())
            pf_bucket_relax(g, s, in[i / g->lanes], i % g->lanes,
                            pf_hop_queue_of(lists, counts, hop, g->hops));
    }
}

/* Step s: an advance to `bound` where its frontier is empty, else its
 * relaxations; `hop_room` the group's queues and counts (PF_HOP_WORDS). */
PF_FN void pf_bucket_step_run(const pf_bucket_graph *g, const pf_bucket_step *s, pf_i64 bound,
                              PF_LOCAL pf_i32 *hop_room)
{
    if (s->count == 0)
        pf_bucket_advance(s, g->dist, g->far, bound);
    else
        pf_bucket_relax_hops(g, s, hop_room, hop_room + 2 * PF_HOP_ROOM);
}

PF_KERNEL(bucket_steps_i64)
{
    PF_CHAINED_STEP();
    PF_LOCAL_ARRAY(pf_i32, hop_room, PF_HOP_WORDS);
    pf_bucket_step s = pf_bucket_step_of(slots, at, step0, list0, list1, pile0, pile1);
    pf_bucket_graph g = {first, head, weight, dist, claim, far, has_weight, 0, lanes, hops};
    pf_bucket_step_run(&g, &s, pf_add_sat_i64(pf_bucket_low(s.prev), delta), hop_room);
}

PF_KERNEL(intersect)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i >= n * lanes)
        return;
    pf_i64 found = pf_body_intersect((pf_i32)(i / lanes), (pf_i32)(i % lanes), lanes, first, head);
    if (found)
        PF_COUNTER_ADD(&counters[0], found);
}

PF_KERNEL(frontier_degree)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count)
        pf_body_frontier_degree(i, in, first, degree);
}

PF_KERNEL(bfs_push_arcs)
{
    pf_i64 j = PF_GLOBAL_ID();
    if (j < arcs)
        pf_body_bfs_push_arc(j, in, offset, count, first, head, dist, level, out, counters);
}

PF_KERNEL(relax_arcs_i64)
{
    pf_i64 j = PF_GLOBAL_ID();
    if (j < arcs)
        pf_body_relax_arc_i64(j, in, offset, count, first, head, weight, has_weight, dist, claim,
                              step, near, far, bound, counters);
}

#ifdef PF_HAVE_F64
PF_KERNEL(relax_f64)
{
    pf_i64 i = PF_GLOBAL_ID();
    if (i < count * lanes)
        pf_body_relax_f64(in[i / lanes], (pf_i32)(i % lanes), lanes, first, head, weight, dist,
                          claim, step, near, far, PF_F64_FROM_BITS(bound_bits), counters,
                          pf_no_pile(), pf_hop_queue_of(0, 0, 0, 1));
}

PF_KERNEL(bucket_steps_f64)
{
    PF_CHAINED_STEP();
    PF_LOCAL_ARRAY(pf_i32, hop_room, PF_HOP_WORDS);
    pf_bucket_step s = pf_bucket_step_of(slots, at, step0, list0, list1, pile0, pile1);
    /* An advance's bound: a width below the distances' precision still
     * moves it, at least to the next double (non-negative: its bits plus
     * one). */
    pf_i64 low_bits = pf_bucket_low(s.prev);
    pf_f64 low = PF_F64_FROM_BITS(low_bits), bound = low + PF_F64_FROM_BITS(delta_bits);
    pf_bucket_graph g = {first, head, (PF_GLOBAL const pf_i64 *)weight, (PF_GLOBAL pf_i64 *)dist,
                         claim, far, 1, 1, lanes, hops};
    pf_bucket_step_run(&g, &s, bound > low ? PF_F64_BITS(bound) : low_bits + 1, hop_room);
}

PF_KERNEL(relax_arcs_f64)
{
    pf_i64 j = PF_GLOBAL_ID();
    if (j < arcs)
        pf_body_relax_arc_f64(j, in, offset, count, first, head, weight, dist, claim, step, near,
                              far, PF_F64_FROM_BITS(bound_bits), counters);
}
#endif
#endif

#endif
