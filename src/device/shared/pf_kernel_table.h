/* The device kernels' argument lists, each written once: the one source of
 * truth for the kernel signatures of every dialect (OpenCL C, CUDA C++)
 * and for the OpenCL host side (kernel enum, kernel names, typed argument
 * setters: cl_kernels.h).
 *
 * A kernel NAME has one macro PF_ARGS_NAME(G, V, L) listing its
 * parameters in order, each one of
 *   G(type, name)  a global buffer of `type` elements (`type` may be const)
 *   V(type, name)  a value: pf_i32 or pf_i64
 *   L(type, name)  a work-group local buffer of `type` elements (OpenCL:
 *                  the host gives its length in elements; CUDA has none,
 *                  see pf_vendor.h: PF_LOCAL_ARG)
 * and the lists below name the kernels of each program. The consumers
 * pass their own G, V, L: PF_KERNEL (pf_vendor.h) turns them into a
 * kernel's parameter list, cl_kernels.h into a host function that sets
 * them with clSetKernelArg in the same order. A host launch that
 * disagrees with the table fails to compile; test_clbuild checks that the
 * built OpenCL program holds the table's kernels with its parameters.
 *
 * Adding a device step:
 *   1. its body (one index's work) in pf_kernels.h, and its wrapper
 *      `PF_KERNEL(name) { ... }` in the kernel section at the end of that
 *      file (the work-item's index: PF_GLOBAL_ID; bounds; the body call;
 *      an OpenCL-only kernel goes in its .cl file, as the scans do);
 *   2. one line `PF_ARGS_name(G, V, L)` here, and the name in
 *      PF_STEP_KERNELS (every GPU dialect) or PF_SCAN_KERNELS (OpenCL
 *      only: CUDA scans through CUB); an OpenCL kernel of its own
 *      program (the Floyd-Warshall ones) opens with
 *      PF_KERNEL_ATTR(name, attributes) in its .cl file;
 *   3. the host call: OpenCL pf_cl_launch_name(dev, set, groups, local,
 *      st, args...) (cl_steps.c); CUDA K::pf_k_name<<<...>>>(args...)
 *      (cuda_steps.cu); OpenMP calls the body in a loop.
 *
 * Included by the OpenCL program text (embed_cl.py puts it after
 * pf_vendor.h), by CUDA and by the OpenCL host code. */
#ifndef PF_KERNEL_TABLE_H
#define PF_KERNEL_TABLE_H

/* ---- max-flow steps: every GPU dialect ------------------------------- */

#define PF_ARGS_mark_active(G, V, L)                                                       \
    G(const pf_cap, excess) G(const pf_i32, height) G(pf_i32, flags) V(pf_i32, n)          \
    V(pf_i32, source) V(pf_i32, sink)
#define PF_ARGS_saturate_from(G, V, L)                                                     \
    V(pf_i32, x) G(const pf_i64, first) G(const pf_i32, head) G(const pf_i32, rev)          \
    G(pf_cap, res) G(pf_cap, excess) G(const pf_i32, height) V(pf_i32, n)
#define PF_ARGS_push_relabel(G, V, L)                                                      \
    G(const pf_i32, list) V(pf_i64, count) G(const pf_i64, first) G(const pf_i32, head)    \
    G(const pf_i32, rev) G(pf_cap, res) G(pf_cap, excess) G(pf_i32, height) V(pf_i32, n)    \
    V(pf_i32, cycles) G(pf_i64, counters) L(pf_i64, scratch)
#define PF_ARGS_push_relabel_follow(G, V, L)                                               \
    G(const pf_i32, list) V(pf_i64, count) G(const pf_i64, first) G(const pf_i32, head)    \
    G(const pf_i32, rev) G(pf_cap, res) G(pf_cap, excess) G(pf_i32, height)                \
    G(pf_i32, owner) V(pf_i32, n) V(pf_i32, source) V(pf_i32, sink) V(pf_i32, budget)      \
    G(pf_i64, counters) L(pf_i64, scratch)
#define PF_ARGS_push_relabel_group(G, V, L)                                                \
    G(const pf_i32, list) V(pf_i64, count) G(const pf_i64, first) G(const pf_i32, head)    \
    G(const pf_i32, rev) G(pf_cap, res) G(pf_cap, excess) G(pf_i32, height)                \
    G(pf_i32, owner) V(pf_i32, n) V(pf_i32, source) V(pf_i32, sink) V(pf_i32, follow)      \
    V(pf_i32, cycles) G(pf_i64, counters) L(pf_i32, lane_h) L(pf_i64, lane_arc)             \
    L(pf_i64, word)
#define PF_ARGS_cancel_violations(G, V, L)                                                 \
    G(const pf_i32, list) V(pf_i64, count) G(const pf_i64, first) G(const pf_i32, head)    \
    G(const pf_i32, rev) G(pf_cap, res) G(pf_cap, excess) G(const pf_i32, height)
#define PF_ARGS_sum_excess(G, V, L)                                                        \
    G(const pf_i32, list) V(pf_i64, count) G(const pf_cap, excess) G(pf_i64, counters)    \
    V(pf_i32, slot) L(pf_i64, scratch)
#define PF_ARGS_bfs_level(G, V, L)                                                         \
    G(const pf_i32, in) G(const pf_i64, first) G(const pf_i32, head) G(const pf_i32, rev)  \
    G(const pf_cap, res) G(pf_i32, height) G(pf_i32, claim) G(pf_i32, out)                 \
    G(pf_i64, counts) V(pf_i32, in_slot) V(pf_i32, out_slot) V(pf_i32, clear_slot)         \
    V(pf_i32, claim_step) V(pf_i32, excluded) V(pf_i32, lanes) V(pf_i32, hops)
#define PF_ARGS_put_at(G, V, L)                                                             \
    G(pf_i32, dst) V(pf_i32, words) V(pf_i64, base) V(pf_i64, limit)                       \
    G(const pf_i32, index) G(const pf_i32, values) V(pf_i64, count)
#define PF_ARGS_take_at_i64(G, V, L)                                                        \
    G(const pf_i64, src) V(pf_i64, base) V(pf_i64, limit) G(const pf_i32, index)           \
    G(pf_i64, out) V(pf_i64, count)
#define PF_ARGS_mark_changed_i64(G, V, L)                                                   \
    G(const pf_i64, cur) G(pf_i64, snap) V(pf_i64, base) G(pf_i32, flags) V(pf_i64, count)

/* X(ID, name) per kernel. */
#define PF_STEP_KERNELS(X)                                                                 \
    X(MARK_ACTIVE, mark_active)                                                            \
    X(SATURATE_FROM, saturate_from)                                                        \
    X(PUSH_RELABEL, push_relabel)                                                          \
    X(PUSH_RELABEL_FOLLOW, push_relabel_follow)                                            \
    X(PUSH_RELABEL_GROUP, push_relabel_group)                                              \
    X(CANCEL_VIOLATIONS, cancel_violations)                                                \
    X(SUM_EXCESS, sum_excess)                                                              \
    X(BFS_LEVEL, bfs_level)                                                                \
    X(PUT_AT, put_at)                                                                      \
    X(TAKE_AT_I64, take_at_i64)                                                            \
    X(MARK_CHANGED_I64, mark_changed_i64)

/* ---- scan and stream compaction: OpenCL only (kernels/pf_scan.cl) ---- */

#define PF_ARGS_reduce_i32(G, V, L)                                                        \
    G(const pf_i32, in) V(pf_i64, count) V(pf_i32, rows) V(pf_i32, predicate)              \
    G(pf_i64, sums) L(pf_i64, scratch)
#define PF_ARGS_reduce_i64(G, V, L)                                                        \
    G(const pf_i64, in) V(pf_i64, count) V(pf_i32, rows) G(pf_i64, sums) L(pf_i64, scratch)
#define PF_ARGS_scan_i32(G, V, L)                                                          \
    G(const pf_i32, in) G(pf_i32, out) V(pf_i64, count) V(pf_i32, rows)                    \
    G(const pf_i64, offsets) V(pf_i32, use_offsets) G(pf_i64, total) L(pf_i64, scratch)
#define PF_ARGS_scan_i64_inplace(G, V, L)                                                  \
    G(pf_i64, data) V(pf_i64, count) V(pf_i32, rows) G(const pf_i64, offsets)              \
    V(pf_i32, use_offsets) G(pf_i64, total) L(pf_i64, scratch)
#define PF_ARGS_scatter_i32(G, V, L)                                                       \
    G(const pf_i32, flags) G(pf_i32, out) V(pf_i64, count) V(pf_i64, out_cap)              \
    V(pf_i32, rows) G(const pf_i64, offsets) V(pf_i32, use_offsets) G(pf_i64, total)       \
    L(pf_i64, scratch)

#define PF_SCAN_KERNELS(X)                                                                 \
    X(REDUCE_I32, reduce_i32)                                                              \
    X(REDUCE_I64, reduce_i64)                                                              \
    X(SCAN_I32, scan_i32)                                                                  \
    X(SCAN_I64_INPLACE, scan_i64_inplace)                                                  \
    X(SCATTER_I32, scatter_i32)

/* ---- Floyd-Warshall: OpenCL only ------------------------------------
 * Each list is a program of its own, built per distance kind with the
 * element type fw_t (kernels/pf_apsp.cl, pf_fw_perk.cl, pf_fw_stats.cl).
 * The CUDA kernels (cuda_apsp.cu, cuda_fw_*.cu) split the work in their
 * own way and are templates over the element type. */

#define PF_ARGS_fw_pivot(G, V, L)                                                          \
    G(fw_t, dist) G(pf_i32, next) V(pf_i32, n) V(pf_i32, round) V(pf_i32, phase)
#define PF_ARGS_fw_rest(G, V, L) G(fw_t, dist) G(pf_i32, next) V(pf_i32, n) V(pf_i32, round)
#define PF_ARGS_fw_per_k(G, V, L) G(fw_t, dist) G(pf_i32, next) V(pf_i32, n) V(pf_i32, k)
#define PF_ARGS_fw_stats(G, V, L)                                                          \
    G(const fw_t, dist) G(pf_i64, partial) V(pf_i32, n) V(pf_i32, ld)

#define PF_FW_KERNELS(X) X(FW_PIVOT, fw_pivot) X(FW_REST, fw_rest)
#define PF_FW_PERK_KERNELS(X) X(FW_PER_K, fw_per_k)
#define PF_FW_STATS_KERNELS(X) X(FW_STATS, fw_stats)

/* ---- graph analytics: bfs, sssp, tc (pf_graph_kernels.h) -------------
 * A program of their own on OpenCL (cl_graph.c), every GPU dialect. The
 * double kernels come last: a device without doubles builds the others;
 * their bound travels as the double's bits (values are pf_i32 or pf_i64). */

#define PF_ARGS_bfs_push(G, V, L)                                                          \
    G(const pf_i32, in) V(pf_i64, count) V(pf_i32, lanes) G(const pf_i64, first)           \
    G(const pf_i32, head) G(pf_i32, dist) V(pf_i32, level) G(pf_i32, out)                  \
    G(pf_i64, counters)
#define PF_ARGS_bfs_pull(G, V, L)                                                          \
    V(pf_i64, n) G(const pf_i64, rfirst) G(const pf_i32, rhead) G(const pf_i64, first)     \
    G(pf_i32, dist) V(pf_i32, level) G(pf_i32, flags) G(pf_i64, counters)
#define PF_ARGS_bfs_parents(G, V, L)                                                       \
    V(pf_i64, n) G(const pf_i64, rfirst) G(const pf_i32, rhead) G(const pf_i32, dist)      \
    V(pf_i32, source) G(pf_i32, parent)
#define PF_ARGS_relax_i64(G, V, L)                                                         \
    G(const pf_i32, in) V(pf_i64, count) V(pf_i32, lanes) G(const pf_i64, first)           \
    G(const pf_i32, head) G(const pf_i64, weight) V(pf_i32, has_weight) G(pf_i64, dist)    \
    G(pf_i32, claim) V(pf_i32, step) G(pf_i32, near) G(pf_i32, far) V(pf_i64, bound)       \
    G(pf_i64, counters)
#define PF_ARGS_far(G, V, L)                                                               \
    V(pf_i64, n) G(const pf_i64, first) G(const pf_i64, dist) G(pf_i32, far)               \
    V(pf_i64, bound) G(pf_i32, out) G(pf_i64, counters)
#define PF_ARGS_intersect(G, V, L)                                                         \
    V(pf_i64, n) V(pf_i32, lanes) G(const pf_i64, first) G(const pf_i32, head)             \
    G(pf_i64, counters)
#define PF_ARGS_frontier_degree(G, V, L)                                                   \
    G(const pf_i32, in) V(pf_i64, count) G(const pf_i64, first) G(pf_i32, degree)
#define PF_ARGS_bfs_push_arcs(G, V, L)                                                     \
    G(const pf_i32, in) G(const pf_i32, offset) V(pf_i64, count) V(pf_i64, arcs)           \
    G(const pf_i64, first) G(const pf_i32, head) G(pf_i32, dist) V(pf_i32, level)          \
    G(pf_i32, out) G(pf_i64, counters)
#define PF_ARGS_relax_arcs_i64(G, V, L)                                                    \
    G(const pf_i32, in) G(const pf_i32, offset) V(pf_i64, count) V(pf_i64, arcs)           \
    G(const pf_i64, first) G(const pf_i32, head) G(const pf_i64, weight)                   \
    V(pf_i32, has_weight) G(pf_i64, dist) G(pf_i32, claim) V(pf_i32, step)                 \
    G(pf_i32, near) G(pf_i32, far) V(pf_i64, bound) G(pf_i64, counters)
#define PF_ARGS_relax_f64(G, V, L)                                                         \
    G(const pf_i32, in) V(pf_i64, count) V(pf_i32, lanes) G(const pf_i64, first)           \
    G(const pf_i32, head) G(const pf_f64, weight) G(pf_f64, dist) G(pf_i32, claim)         \
    V(pf_i32, step) G(pf_i32, near) G(pf_i32, far) V(pf_i64, bound_bits)                   \
    G(pf_i64, counters)
#define PF_ARGS_relax_arcs_f64(G, V, L)                                                    \
    G(const pf_i32, in) G(const pf_i32, offset) V(pf_i64, count) V(pf_i64, arcs)           \
    G(const pf_i64, first) G(const pf_i32, head) G(const pf_f64, weight) G(pf_f64, dist)   \
    G(pf_i32, claim) V(pf_i32, step) G(pf_i32, near) G(pf_i32, far)                        \
    V(pf_i64, bound_bits) G(pf_i64, counters)

/* `at` first: between the steps of a batch the OpenCL host sets only it. */
#define PF_ARGS_bucket_steps_i64(G, V, L)                                                  \
    V(pf_i32, at) G(pf_i32, list0) G(pf_i32, list1) G(pf_i64, slots) V(pf_i32, lanes)      \
    G(const pf_i64, first) G(const pf_i32, head) G(const pf_i64, weight)                   \
    V(pf_i32, has_weight) G(pf_i64, dist) G(pf_i32, claim) V(pf_i32, step0) G(pf_i32, far) \
    G(pf_i32, pile0) G(pf_i32, pile1) V(pf_i64, delta) V(pf_i32, hops)
#define PF_ARGS_bucket_steps_f64(G, V, L)                                                  \
    V(pf_i32, at) G(pf_i32, list0) G(pf_i32, list1) G(pf_i64, slots) V(pf_i32, lanes)      \
    G(const pf_i64, first) G(const pf_i32, head) G(const pf_f64, weight) G(pf_f64, dist)   \
    G(pf_i32, claim) V(pf_i32, step0) G(pf_i32, far) G(pf_i32, pile0) G(pf_i32, pile1)     \
    V(pf_i64, delta_bits) V(pf_i32, hops)

#define PF_GRAPH_KERNELS(X)                                                                \
    X(BFS_PUSH, bfs_push)                                                                  \
    X(BFS_PULL, bfs_pull)                                                                  \
    X(BFS_PARENTS, bfs_parents)                                                            \
    X(RELAX_I64, relax_i64)                                                                \
    X(FAR, far)                                                                            \
    X(INTERSECT, intersect)                                                                \
    X(FRONTIER_DEGREE, frontier_degree)                                                    \
    X(BFS_PUSH_ARCS, bfs_push_arcs)                                                        \
    X(RELAX_ARCS_I64, relax_arcs_i64)                                                      \
    X(BUCKET_STEPS_I64, bucket_steps_i64)
#define PF_GRAPH_F64_KERNELS(X)                                                            \
    X(RELAX_F64, relax_f64)                                                                \
    X(RELAX_ARCS_F64, relax_arcs_f64)                                                      \
    X(BUCKET_STEPS_F64, bucket_steps_f64)

/* ---- turning a list into a parameter list ---------------------------- */

/* The parameters of kernel `name` in the dialect that includes this.
 * OpenCL C has no variadic macros (NVIDIA's compiler refuses even their
 * definition), so there embed_cl.py expands each list when it embeds the
 * program text: it appends `#define PF_CL_PARAMS_name ...` for every
 * PF_ARGS_name above. Elsewhere each parameter expands to ", type name"
 * and the first comma goes. */
#ifdef __OPENCL_VERSION__
#define PF_PARAMS(name) PF_CL_PARAMS_##name
#else
#define PF_DROP_FIRST(list) PF_DROP_FIRST_(list)
#define PF_DROP_FIRST_(first, ...) __VA_ARGS__
#define PF_PARAM_G(type, name) , PF_GLOBAL type *name
#define PF_PARAM_V(type, name) , type name
#define PF_PARAMS(name) PF_DROP_FIRST(PF_ARGS_##name(PF_PARAM_G, PF_PARAM_V, PF_LOCAL_ARG))
#endif

#endif
