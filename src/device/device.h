/* The thin device interface: one table of function pointers per backend.
 *
 * A backend owns memory and kernels; the host driver (src/host/driver.c)
 * owns the algorithm and sequences these steps. Nothing outside
 * src/device/X/ knows which backend runs. Every entry returns a pf_code
 * and, on failure, fills the status with the backend API's own error text
 * and the name of the failing call.
 *
 * Conventions shared by every step:
 * - vertices are int32 (0..n-1), arc indices int64, capacities int64
 *   (residuals and excess on the device: pf_dev_graph.cap_bits);
 * - a vertex with height >= n is "dead" for the current phase: it cannot
 *   reach the phase's target, it is never active and nothing pushes to it;
 * - the two terminals (source, sink) are never active;
 * - lists of vertices are int32 buffers with an explicit count. */
#ifndef PF_DEVICE_H
#define PF_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "portaflow.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_dev pf_dev; /* a backend's opened device (opaque) */
typedef struct pf_buf pf_buf; /* a backend's buffer (opaque) */

/* Slots of the int64 counters buffer in pf_dev_graph. */
enum {
    PF_CTR_WORK = 1,  /* push_relabel: arcs scanned by relabels */
    PF_CTR_EXCESS = 2, /* sum_excess: the listed vertices' excess */
    PF_CTR_BFS = 4,   /* bfs_levels: three rotating frontier sizes, 4..6 */
    PF_CTR_COUNT = 8,
};

/* The most hops a batched step follows in one launch (bfs_levels and the
 * graph steps; the kernels' PF_HOPS_MOST, pf_hops.h). */
enum { PF_DEV_HOPS_MOST = 16 };

/* Device-resident graph and solver state, allocated by the driver. */
typedef struct pf_dev_graph {
    int64_t n, arcs;
    int32_t source, sink;
    /* push_relabel variant: 1 = a worker follows its excess into unowned
     * neighbours (pf_body_push_relabel_follow, uses `owner`), 0 = one hop
     * per round (pf_body_push_relabel). Chosen by the driver. */
    int32_t follow_excess;
    /* Relabel work (arcs scanned) the next push_relabel may do. A backend
     * that runs asynchronously (omp: omp_discharge.c) keeps discharging
     * every active vertex, and those that become active, until it has done
     * this much or none is left; it may then use the list, flags and
     * list_b as scratch. The GPU backends make their one pass over the
     * list. 0 = one pass everywhere. */
    int64_t work_budget;
    /* Width of res and excess: 64, or 32 where the driver proved 32 bits
     * enough (driver.c: cap_bits_needed; pf_kernels.h says why) and the
     * device runs it (pf_device_desc.maxflow_bits). */
    int32_t cap_bits;
    pf_buf *first;     /* int64[n+1] CSR offsets */
    pf_buf *head;      /* int32[arcs] */
    pf_buf *rev;       /* int32[arcs] reverse arc of a = (u,v): its position in
                          v's list, PF_REV_ARC (pf_kernels.h) = first[v] + rev[a];
                          where the ops set rev_absolute, its index (uint32) */
    pf_buf *res;       /* cap_bits [arcs] residual capacities (mutable) */
    pf_buf *excess;    /* cap_bits [n] */
    pf_buf *height;    /* int32[n] */
    pf_buf *flags;     /* int32[n] scratch for mark_active / filter */
    pf_buf *list_a;    /* int32[n] active list / BFS frontier */
    pf_buf *list_b;    /* int32[n] second frontier */
    pf_buf *counters;  /* int64[PF_CTR_COUNT] */
    pf_buf *owner;     /* int32[n] push_relabel claims; all 0 between steps */
} pf_dev_graph;

/* ---- all-pairs shortest paths: blocked Floyd-Warshall ----------------
 *
 * The matrix lives on the device for the whole solve. Element type by
 * `kind` (enum pf_dist_kind): int32, int64 or float. "No path" on the device
 * is PF_FW_INF_* below, not the public PF_APSP_NONE_*: the host keeps every
 * finite distance within (-INF/2, INF/2) (it picks the kind from the
 * weights), so a sum of two entries never overflows and a sum involving
 * INF stays above INF/2, where the host reads it as "no path". Float uses
 * +infinity, which needs no such care. */
#define PF_FW_INF_I32 ((int32_t)0x3fffffff)            /* 2^30 - 1 */
#define PF_FW_INF_I64 ((int64_t)0x3fffffffffffffffLL)  /* 2^62 - 1 */

typedef struct pf_dev_apsp {
    int32_t n;     /* matrix order: a multiple of tile (the host pads with
                      vertices that have no arcs) */
    int32_t tile;  /* tile edge, as fw_tile returned (or the user forced) */
    int32_t kind;  /* enum pf_dist_kind: PF_DIST_I32, _I64 or _F32 */
    pf_buf *dist;  /* n*n elements of kind, row-major */
    pf_buf *next;  /* int32[n*n] next hops, or NULL when paths are off */
    int32_t simd_width; /* fw_step PF_FW_SIMD: as pf_apsp_options.simd_width */
} pf_dev_apsp;

/* What fw_stats hands back: the statistics of `apsp --stats` over the
 * solved matrix's first n rows and columns, "no path" being any entry above
 * PF_FW_INF_* / 2 (as the host reads it, apsp_matrix.c). */
typedef struct pf_fw_stats {
    int64_t reachable; /* entries (i, j), i != j, with a path */
    uint64_t sum;      /* every finite entry, the diagonal included, mod 2^64 */
    int64_t most;      /* the largest finite entry off the diagonal; INT64_MIN
                          when reachable is 0 */
} pf_fw_stats;

/* The analytics digraph on the device (host side: src/common/graph_csr.h):
 * rows sorted by head. */
typedef struct pf_dev_csr {
    int64_t n, m;
    int64_t max_degree;     /* the largest out-degree: how many workers a
                               batched step gives each vertex (hubs) */
    pf_buf *first;          /* int64[n+1] */
    pf_buf *head;           /* int32[m] */
    pf_buf *weight;         /* int64[m] or double[m] by `weights`; NULL: none */
    int32_t weights;        /* 0 none, 1 int64, 2 double (enum pf_csr_weights) */
    pf_buf *rfirst, *rhead; /* the reverse graph (pull steps, parents); the same
                               buffers as first/head for an undirected graph;
                               NULL where not needed */
    pf_buf *counters;       /* int64[PF_GCTR_COUNT] scratch for the steps */
    pf_buf *lb_degree, *lb_offset; /* int32[n] scratch: a frontier's degrees and
                               their prefix sums (load-balanced advance) */
} pf_dev_csr;

enum { PF_GCTR_COUNT = 8 };

/* What sssp_far hands back. */
typedef struct pf_sssp_far_out {
    int64_t count;      /* vertices moved to out */
    int64_t arcs;       /* their out-degree sum */
    int64_t rest;       /* far vertices left */
    int64_t rest_min_i; /* their smallest distance (INT64_MAX: none) */
    double rest_min_f;  /* the same for real weights (+inf: none) */
} pf_sssp_far_out;

/* The words of a sssp_bucket_steps slot (int64 each; slot j is the state
 * before step j, slot j + 1 after it): the near frontier's size (word 1
 * is unused: no degree sum is kept); the bucket's bound (integer
 * distances, or the bits of a non-negative double, which order as the
 * values do); which of the two pile lists holds the far vertices (0 or
 * 1), how many entries it had before the step and how many the step
 * added; the smallest distance of those vertices (bits likewise;
 * INT64_MAX: none known). */
enum {
    PF_SSSP_SLOT_COUNT, PF_SSSP_SLOT_BOUND = 2, PF_SSSP_SLOT_PILE, PF_SSSP_SLOT_PILE_AT,
    PF_SSSP_SLOT_PILE_ADDED, PF_SSSP_SLOT_PILE_MIN, PF_SSSP_SLOT_WORDS = 8
};

typedef struct pf_open_params {
    int device_index;  /* index among this backend's devices; -1 = best */
    int threads;       /* CPU backends: worker threads, 0 = default */
} pf_open_params;

/* What a whole-solve engine hands back (pf_device_ops.maxflow_solve, and
 * the parallel driver in src/host/driver.c); pf_solve turns the residuals
 * into arc flows. */
typedef struct pf_engine_out {
    int64_t value;
    int64_t *res;          /* g->arcs residual capacities (caller allocates);
                              a valid flow when want_flow, else a preflow */
    uint8_t *source_side;  /* g->n entries or NULL: 1 = source side of a min cut */
    pf_phase_times times;
    int64_t rounds;        /* pushes (seq) or push-relabel rounds (parallel) */
    int64_t global_relabels;
    int64_t host_pushes;   /* parallel: pushes of the host engine that finished it */
    uint64_t device_bytes;
    int method;            /* enum pf_maxflow_method that ran; 0: push-relabel */
    char device[160];
} pf_engine_out;

/* Whether the caller's cancel callback asks the solve to stop. Engines
 * check it between rounds or stretches of work. */
static inline int pf_cancel_requested(const pf_solve_options *opt)
{
    return opt && opt->cancel && opt->cancel(opt->cancel_data);
}

struct pf_residual; /* src/common/residual.h */

/* What a backend can do, declared in its ops table (in the spirit of
 * ggml's supports_op): the host asks these, never a backend's name. The
 * optional slots (NULL = not offered: maxflow_solve, fw_phase, fw_step,
 * fw_simd, fw_stats) and fw_variants are capabilities too. */
typedef struct pf_device_caps {
    /* The max-flow steps (mark_active .. bfs_levels): the parallel driver
     * (pf_parallel_solve) runs on this backend. */
    unsigned maxflow_steps : 1;
    /* 1: pf_dev_graph.rev holds each reverse arc's index (uint32), which
     * limits the graph to 2^32 arcs; 0: its position in its vertex's list
     * (int32), which needs first[v] to use. The backend's PF_REV_ARC must
     * read the form it asks for. */
    unsigned rev_absolute : 1;
    /* Its max-flow wants the sequential engine's arc order (residual.h:
     * PF_ARCS_FORWARD_PART_ROTATED, forward arcs first); 0: the parallel
     * engines' rotated order. */
    unsigned forward_first_arcs : 1;
    /* Its device is the host CPU and host memory (no transfers to speak of). */
    unsigned host_cpu : 1;
    /* It runs on one thread: the host's own work around a solve (residual
     * build, flows) runs on one thread too, so the solve's times are one
     * thread's; an APSP variant it lacks may run on a host_cpu backend's
     * kernels with one thread instead (apsp.c). */
    unsigned one_thread : 1;
    /* Its maxflow_solve runs the Boykov-Kolmogorov method too (enum
     * pf_maxflow_method: it reads pf_solve_options.method and sets
     * pf_engine_out.method). */
    unsigned maxflow_bk : 1;
    /* The widths of residuals its max-flow steps can run in: PF_MAXFLOW_32
     * and/or PF_MAXFLOW_64; each device says what it runs itself
     * (pf_device_desc.maxflow_bits), within these. */
    unsigned maxflow_bits : 2;
    /* Its probe runs in a process of its own (a driver start-up besides the
     * one its open makes; every device it lists is a GPU): a caller that
     * opens the device at once anyway may open it unprobed instead
     * (registry.h: pf_backend_walk_unprobed). */
    unsigned probe_elsewhere : 1;
} pf_device_caps;

/* The graph analytics steps' signatures (semantics: their entries in
 * pf_device_ops below). Each backend declares its steps with these types
 * (`pf_bfs_push_fn pf_cl_bfs_push;`), so every parameter list is written
 * once, here. */
typedef int pf_bfs_push_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                           int64_t in_arcs, pf_buf *dist, int32_t level, pf_buf *out,
                           int64_t *out_count, int64_t *out_arcs, pf_status *st);
typedef int pf_bfs_pull_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t level,
                           pf_buf *flags, int64_t *found, int64_t *found_arcs, pf_status *st);
typedef int pf_bfs_parents_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                              pf_buf *parent, pf_status *st);
typedef int pf_sssp_relax_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                             int64_t in_arcs, pf_buf *dist, pf_buf *claim, int32_t step,
                             pf_buf *near, pf_buf *far, int64_t bound_i, double bound_f,
                             int64_t *near_count, int64_t *near_arcs, pf_status *st);
typedef int pf_sssp_far_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, pf_buf *far,
                           int64_t bound_i, double bound_f, pf_buf *out, pf_sssp_far_out *res,
                           pf_status *st);
typedef int pf_intersect_count_fn(pf_dev *dev, const pf_dev_csr *g, int64_t *total,
                                  pf_status *st);
typedef int pf_sssp_solve_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                             int64_t delta_i, double delta_f, double max_weight, int64_t *rounds,
                             pf_status *st);
typedef int pf_sssp_bucket_steps_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *const list[2],
                                    pf_buf *const pile[2], pf_buf *slots, int32_t steps,
                                    int64_t hint, pf_buf *dist, pf_buf *claim, int32_t step,
                                    pf_buf *far, int64_t delta_i, double delta_f, pf_status *st);
typedef int pf_bfs_push_levels_fn(pf_dev *dev, const pf_dev_csr *g, pf_buf *const list[2],
                                  int64_t count, int64_t in_arcs, pf_buf *dist, int32_t level,
                                  int32_t levels, int64_t unexplored, int32_t alpha,
                                  int64_t least_pull, int64_t *found, double *seconds,
                                  int32_t *done, pf_status *st);

/* The sparse transfers' signatures, declared the same way. */
typedef int pf_put_at_fn(pf_dev *dev, pf_buf *dst, int32_t width, int64_t base, int64_t limit,
                         pf_buf *index, pf_buf *values, int64_t count, pf_status *st);
typedef int pf_take_at_fn(pf_dev *dev, pf_buf *src, int64_t base, int64_t limit,
                          pf_buf *index, pf_buf *out, int64_t count, pf_status *st);
typedef int pf_mark_changed_fn(pf_dev *dev, pf_buf *cur, pf_buf *snap, int64_t base,
                               pf_buf *flags, int64_t count, pf_status *st);

/* A max-flow network's input arcs on the device, for build_residual: arc
 * i runs tail[i] -> head[i] (vertex ids, 0..n-1) with capacity cap[i]
 * (0..2^62), i < m, in input order. Held as arrays (indptr NULL: tail and
 * head int32, cap int64) or as a CSR (tail NULL: arc i in row u for
 * indptr[u] <= i < indptr[u + 1], n + 1 row starts; head holds the
 * columns), whose indptr and head have index_size bytes an element and
 * cap cap_size (4 or 8 each). */
typedef struct pf_dev_arcs {
    int64_t n, m;
    pf_buf *tail, *head, *cap;
    pf_buf *indptr;
    int32_t index_size, cap_size;
} pf_dev_arcs;
typedef int pf_build_residual_fn(pf_dev *dev, pf_dev_graph *g, const pf_dev_arcs *in,
                                 int64_t clamp, pf_buf *input_rev, pf_status *st);
typedef int pf_arc_flows_fn(pf_dev *dev, const pf_dev_graph *g, pf_buf *input_rev, int64_t m,
                            pf_buf *flow, pf_status *st);
/* What flow_matrix made: its entries, and the bytes of an indptr element
 * and of a value as it wrote them. */
typedef struct pf_flow_matrix_made {
    int64_t entries;
    int32_t index_size, value_size;
} pf_flow_matrix_made;
typedef int pf_flow_matrix_fn(pf_dev *dev, const pf_dev_graph *g, pf_buf *input_rev, int64_t m,
                              int32_t keep_repeats, pf_buf *indptr, pf_buf *columns,
                              pf_buf *values, pf_flow_matrix_made *made, pf_status *st);

typedef struct pf_device_ops {
    const char *name; /* "seq", "omp", "opencl", "cuda" */
    pf_device_caps caps;
    /* Optional (NULL: none): a whole max-flow solve on the host residual
     * graph g (struct pf_residual, in the arc order caps asks for), with no
     * device steps: fills out->res (g->arcs residuals: a flow when
     * opt->want_flow, else a preflow), out->value, out->source_side when
     * non-NULL, the times and counters. The sequential highest-label
     * engine (src/device/seq) is one. */
    int (*maxflow_solve)(const struct pf_residual *g, const pf_solve_options *opt,
                         pf_engine_out *out, pf_status *st);

    /* How many usable devices; fills up to max descriptors. Never aborts:
     * 0 with *why set (e.g. "no CUDA driver: ...") when unavailable. */
    int (*probe)(pf_device_desc *descs, int max, char *why, size_t why_len);
    int (*open)(const pf_open_params *params, pf_dev **dev, pf_device_desc *desc,
                pf_status *st);
    void (*close)(pf_dev *dev);

    /* Buffers. alloc fails cleanly (PF_E_DEVICE, with the API's text) when
     * the device has no room or the size exceeds its max allocation. */
    int (*alloc)(pf_dev *dev, size_t bytes, pf_buf **buf, pf_status *st);
    void (*release)(pf_dev *dev, pf_buf *buf);
    int (*upload)(pf_dev *dev, pf_buf *dst, size_t offset, const void *src,
                  size_t bytes, pf_status *st);
    int (*download)(pf_dev *dev, pf_buf *src, size_t offset, void *dst,
                    size_t bytes, pf_status *st);
    int (*fill_i32)(pf_dev *dev, pf_buf *buf, int32_t value, int64_t count,
                    pf_status *st);
    int (*fill_i64)(pf_dev *dev, pf_buf *buf, int64_t value, int64_t count,
                    pf_status *st);
    /* Memory the backend holds for the open device beyond the buffers it
     * was asked for (omp: the discharge's queues), for the memory report;
     * NULL where there is none worth counting. */
    uint64_t (*held_bytes)(pf_dev *dev);
    /* Waits for all queued work (used around timed phases). */
    int (*sync)(pf_dev *dev, pf_status *st);

    /* Exclusive prefix sum of int32 in[0..count) into out; *total = sum. */
    int (*scan_i32)(pf_dev *dev, pf_buf *in, pf_buf *out, int64_t count,
                    int64_t *total, pf_status *st);
    /* Stream compaction: writes, in increasing order, every index i with
     * flags[i] != 0 to out[0..*selected). */
    int (*filter_i32)(pf_dev *dev, pf_buf *flags, pf_buf *out, int64_t count,
                      int64_t *selected, pf_status *st);
    /* Sparse transfers, for a session whose graph and preflow change in a
     * few places between solves. Optional as a group (NULL: the session
     * sends and reads whole pages instead). `limit` is dst's or src's
     * element count: an index past it is skipped, never written or read.
     * put_at: dst[base + index[i]] = values[i] for i < count, elements of
     * `width` bytes (4 or 8); a repeated index must come with one value. */
    pf_put_at_fn *put_at;
    /* take_at: out[i] = src[base + index[i]] for i < count (int64). */
    pf_take_at_fn *take_at;
    /* mark_changed: for i < count, flags[i] = (cur[base + i] !=
     * snap[base + i]), then snap[base + i] = cur[base + i] (int64): with
     * filter_i32 and take_at, only what changed since the last look comes
     * back. */
    pf_mark_changed_fn *mark_changed;

    /* The residual graph built on the device instead of the host (the
     * parallel driver's device path, src/host/driver_build.c). Optional as
     * a pair (NULL: the host builds it and uploads it).
     * build_residual: g->first, head, rev (in the form caps.rev_absolute
     * names) and res from the input arcs `in`, exactly as the host's
     * pf_residual_build in PF_ARCS_FORWARD_ROTATED order gives them and
     * the driver uploads them (src/common/residual.h, arc_turn.h): a
     * self-loop has no residual arcs, every other arc a forward arc at its
     * tail (its capacity; with 32-bit residuals, g->cap_bits, the smaller
     * of it and `clamp`) and a reverse arc at its head (0). The caller has
     * set g->n = in->n, g->arcs (twice the arcs that are no self-loop) and
     * g->cap_bits and allocated g's buffers for them. input_rev (in->m
     * int64) gets the position of each input arc's reverse arc, -1 for a
     * self-loop. Leaves excess, height, owner and counters as they were.
     * arc_flows: flow[i] (int64) = the residual of arc input_rev[i], the
     * flow on input arc i, 0 where input_rev[i] is -1, for i < m. */
    pf_build_residual_fn *build_residual;
    pf_arc_flows_fn *arc_flows;
    /* Optional (NULL: the host makes it from the arc flows): scipy's flow
     * matrix of the input from the graph build_residual made, whose input
     * has no self-loops, after a solve. Row u holds one entry per distinct
     * head of u's residual arcs (its row's columns and its column's rows
     * in the input), columns increasing; its value is the flow along the
     * input arcs u -> v less that along v -> u: the residual of each
     * forward arc's pair, less each reverse arc's residual. With
     * keep_repeats (scipy's rule for int32 input, csr_flow.h) a head that
     * f forward and r reverse arcs share gets max(f, r) entries, the value
     * in the first and 0 in the others; else one. indptr (room for n + 1
     * int64), columns (int32) and values (room for g->arcs int64) hold up
     * to g->arcs entries; made->entries gets how many. Written narrow
     * where they fit, as scipy's int32 result wants them read back:
     * indptr as int32 where the entries fit int32 (made->index_size 4,
     * else 8), the values as int32 where every one fits (made->value_size
     * 4, else 8). */
    pf_flow_matrix_fn *flow_matrix;
    /* flags[u] = 1 iff excess[u] > 0, height[u] < n and u is no terminal. */
    int (*mark_active)(pf_dev *dev, const pf_dev_graph *g, pf_buf *flags,
                       pf_status *st);
    /* For every arc (x,v) with res > 0 and height[v] < n: push all of it
     * (x has unlimited supply). Initialises the preflow from the source
     * and re-saturates it when a global relabel finds it reaches the sink. */
    int (*saturate_from)(pf_dev *dev, const pf_dev_graph *g, int32_t x,
                         pf_status *st);
    /* Lock-free push-relabel (Hong): each listed vertex, by one worker,
     * up to `cycles` times: push min(excess, res) to its lowest residual
     * neighbour if lower, else relabel to that height + 1 (n if none or
     * >= n). With g->follow_excess the worker moves on to the neighbour it
     * drained into when it can claim it (owner[]), within the same budget.
     * With g->work_budget > 0 a backend may instead discharge
     * asynchronously until the budget is spent (pf_dev_graph). Heights
     * never fall. counters[PF_CTR_WORK] = arcs scanned by relabels in this
     * step; *work (if non-NULL) receives it. */
    int (*push_relabel)(pf_dev *dev, const pf_dev_graph *g, pf_buf *list,
                        int64_t count, int32_t cycles, int64_t *work,
                        pf_status *st);
    /* Before a global relabel: each listed vertex pushes its excess along
     * residual arcs (u,v) with height[u] > height[v] + 1 (as far as its
     * excess reaches: the preflow stays a preflow). */
    int (*cancel_violations)(pf_dev *dev, const pf_dev_graph *g, pf_buf *list,
                             int64_t count, pf_status *st);
    /* *sum = the excess of the `count` listed vertices, summed (uses
     * counters[PF_CTR_EXCESS]). The hybrid's measure of progress: the
     * active excess a stretch of phase 1 moved to the sink or cut off. */
    int (*sum_excess)(pf_dev *dev, const pf_dev_graph *g, pf_buf *list, int64_t count,
                      int64_t *sum, pf_status *st);
    /* `launches` launches of the reverse BFS from the target, queued
     * without waiting in between (deep graphs have thousands of levels; a
     * host round trip per level would dominate). On entry frontier[0]
     * holds the *count vertices to go on from; `level` counts the launches
     * before (with hops == 1 it is their height). Launch k reads
     * frontier[k % 2] and, for every listed u and arc (u,v) with
     * res[rev] > 0 (v reaches u) and v != excluded, lowers height[v] to
     * height[u] + 1 where that is lower (atomically) and lists v on
     * frontier[(k + 1) % 2]. A launch of one hop is one level: every
     * listed vertex has the same height and each v is lowered once, from
     * n. With hops > 1 (up to PF_DEV_HOPS_MOST) a backend may follow what
     * it lowered for up to hops levels within the launch; a vertex may
     * then be lowered more than once and a list holds several heights,
     * but once *count is 0 every height is the exact distance all the
     * same. It lists a vertex once per list through owner[] (the value
     * level + k + 1 in launch k), which the caller sets back to 0 after
     * the last launch. Frontier sizes stay on the device
     * (counters[PF_CTR_BFS + k % 3]); launches past an empty frontier do
     * nothing. On return *count is the size of the frontier left in
     * frontier[launches % 2]. */
    int (*bfs_levels)(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2],
                      int32_t level, int32_t launches, int32_t hops, int32_t excluded,
                      int64_t *count, pf_status *st);
    /* APSP. Tile edge this device runs `kind` (with next hops or not)
     * best at: a multiple of 16 from its properties (registers, local
     * memory, SIMD width). Never fails. */
    int32_t (*fw_tile)(pf_dev *dev, int32_t kind, int paths);
    /* One phase of round r of blocked Floyd-Warshall; K = r*tile ..
     * (r+1)*tile - 1, tiles named by (tile row, tile column):
     *   phase 1: tile (r, r);
     *   phase 2: tiles (r, j) and (i, r) for every i, j != r;
     *   phase 3: every tile (i, j) with i != r and j != r.
     * Each element (i, j) of the phase's tiles takes, for k in K in
     * increasing order, d(i,j) = min(d(i,j), d(i,k) + d(k,j)); when next is
     * not NULL and the sum is strictly smaller, next(i,j) = next(i,k)
     * (hops that form shortest paths when no cycle weighs zero: blocked
     * order can loop on one, which the host rules out, apsp.c).
     * Phase p of round r starts after everything queued before it. A tile
     * the backend cannot run (a user's --tile) fails with PF_E_USAGE and
     * the tiles it can run; fw_tile's choice always runs. */
    int (*fw_phase)(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                    pf_status *st);
    /* The unblocked variants of the Floyd-Warshall study: bit 1u << v set
     * for each enum pf_fw_variant v that fw_step runs (PF_FW_PLAIN,
     * PF_FW_SIMD, PF_FW_PER_K); fw_phase is PF_FW_BLOCKED. */
    unsigned fw_variants;
    /* Step k of the triple loop over the whole matrix: every element
     * (i, j) takes d(i,j) = min(d(i,j), d(i,k) + d(k,j)) and, when next is
     * not NULL and the sum is strictly smaller, next(i,j) = next(i,k).
     * Row k and column k do not change in step k (d(k,k) >= 0: the host
     * rules out negative cycles), so all elements may update at once. a->n
     * is a multiple of 32 (a->tile is not used). Step k starts after
     * everything queued before it. */
    int (*fw_step)(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k,
                   pf_status *st);
    /* PF_FW_SIMD for `kind` asked with `width` 32-bit lanes (8, 16; 0 =
     * widest): the lanes fw_step will use, 0 when it runs the plain loop
     * instead (no such instructions, or none with a 64-bit min for int64),
     * and in `what` a line saying which ("avx2, 8 lanes") or why not.
     * NULL where fw_variants has no PF_FW_SIMD. */
    int32_t (*fw_simd)(pf_dev *dev, int32_t kind, int32_t width, char *what, size_t len);
    /* Optional (NULL: not offered): the statistics of a->dist's first n
     * rows and columns (n <= a->n; a->tile is not used), integer kinds
     * only (float: PF_E_USAGE; its sum depends on the order, which only
     * the host keeps). Waits for everything queued before it; the matrix
     * stays as it is. Lets `apsp --stats` skip downloading the matrix. */
    int (*fw_stats)(pf_dev *dev, const pf_dev_apsp *a, int32_t n, pf_fw_stats *out,
                    pf_status *st);

    /* ---- graph analytics (BFS, SSSP, triangles): pf_dev_csr above ----
     * Optional as a group: a backend without them leaves bfs_push NULL.
     * Each step is one of the Gunrock-style operators: advance (push or
     * pull), filter (filter_i32 above), compute (a map over vertices or a
     * frontier) and segmented intersection. Bodies: shared/pf_graph_kernels.h. */
    /* advance, push (top-down BFS): for every u in in[0..count) and arc
     * (u,v) with dist[v] == -1: dist[v] = level + 1, exactly once
     * (atomically), v appended to out. *out_count = vertices appended,
     * *out_arcs = the sum of their out-degrees. Order in out unspecified.
     * in_arcs: the frontier's own out-degree sum (the last step's
     * *out_arcs), with which a backend picks between a worker group per
     * vertex and an advance balanced over arcs (a scan of the degrees and a
     * binary search per arc: hubs of power-law graphs). */
    pf_bfs_push_fn *bfs_push;
    /* advance, pull (bottom-up BFS): every v with dist[v] == -1 scans its
     * in-arcs (g->rfirst, g->rhead) for a u with dist[u] == level and stops
     * at the first; then dist[v] = level + 1 and flags[v] = 1; every other
     * flags[v] = 0. *found, *found_arcs as bfs_push's counts. */
    pf_bfs_pull_fn *bfs_pull;
    /* compute: parent[v] = the smallest u with an arc (u,v) and dist[u] ==
     * dist[v] - 1 (the first in v's in-arcs, which are sorted), for every
     * reached v but the source; parent[source] = source; -1 elsewhere.
     * Needs g->rfirst. */
    pf_bfs_parents_fn *bfs_parents;
    /* advance with relaxation (near-far SSSP): for every u in in[0..count)
     * and arc (u,v), d = dist[u] + w (w = 1 without weights); where d <
     * dist[v], dist[v] = d by an atomic minimum, and the worker that lowered
     * it appends v to near if d < bound (once per step: claim[v] is
     * exchanged for `step`, and only the worker that saw another value
     * appends), else sets far[v] = 1. dist is int64 (no weights, integer
     * weights; "none" INT64_MAX) or double (real; +inf); bound likewise
     * (bound_i / bound_f). *near_count = vertices appended, *near_arcs =
     * their out-degree sum; in_arcs as bfs_push's. */
    pf_sssp_relax_fn *sssp_relax;
    /* compute + filter (near-far's far pile): every v with far[v] = 1 and
     * dist[v] < bound goes to out (far[v] = 0); of those left with far[v]
     * = 1, out->rest counts them and rest_min_i / rest_min_f is their
     * smallest distance. */
    pf_sssp_far_fn *sssp_far;
    /* segmented intersection (triangles): g holds each undirected edge once,
     * oriented from lower to higher rank, rows sorted by head; *total = the
     * sum over its arcs (u,v) of |N(u) n N(v)|. */
    pf_intersect_count_fn *intersect_count;
    /* Optional (NULL: the host drives sssp_relax and sssp_far): the whole
     * SSSP from `source` for non-negative weights (none, int64 or double as
     * g->weights says), by buckets of width delta_i (integer distances) or
     * delta_f (real ones), which a backend may widen (the answer is the
     * same). max_weight: the largest weight (1 without weights), or more.
     * dist holds the start: 0 at the source, "none" (INT64_MAX or +inf)
     * elsewhere; it ends with the distances. *rounds = the rounds that
     * waited for every worker (statistics). */
    pf_sssp_solve_fn *sssp_solve;
    /* Optional (NULL: the host moves the buckets with sssp_far): near-far
     * with the buckets moved on the device, `steps` steps queued at once
     * for non-negative weights and a fixed width delta (delta_i, or delta_f
     * for real weights). The far pile is the far flags plus a list of the
     * flagged vertices, pile[0] or pile[1] (int32[n] each). Slot j of
     * slots (PF_SSSP_SLOT_WORDS int64 words, PF_SSSP_SLOT_*) is the state
     * before step j: the host writes slot 0 and fills the others' words
     * with 0, but PILE_MIN with INT64_MAX. Step j reads list[j % 2] and
     * writes list[(j + 1) % 2] with claim value step + j. A step with a
     * frontier relaxes it as sssp_relax does (bound: the slot's), a
     * vertex lowered past the bound joining the pile once (listed where
     * its flag goes from 0 to 1) and lowering the pile's smallest
     * distance; a step without one advances: the bound becomes the larger
     * of the old bound and the pile's smallest distance, plus delta, and
     * the pile's vertices below it become the frontier (flags cleared),
     * the others the other pile. A slot with neither frontier nor pile
     * entries ends the search; steps after it do nothing. A relaxing step
     * may also relax again, before it ends, vertices it lowered below the
     * bound (several hops in one launch: the same answer, fewer steps);
     * those still in the frontier it writes are relaxed by the next step.
     * hint: the frontier size expected (the last one the host saw), which
     * sizes the launches; a larger frontier still runs whole. */
    pf_sssp_bucket_steps_fn *sssp_bucket_steps;
    /* Optional (NULL: one bfs_push per level): bfs_push levels one after
     * another without returning, for deep graphs (thousands of small
     * levels). Level j (0-based) pushes list[j % 2] into list[(j + 1) % 2]
     * at level `level` + j; the first frontier has `count` vertices and
     * `in_arcs` out-arcs. After each level, unexplored -= its out-arcs; it
     * stops after `levels` levels, after a level that found nothing, or,
     * with alpha > 0, after a level whose out-arcs pass both unexplored /
     * alpha and least_pull (the host's switch to pulling). found[2j],
     * found[2j + 1] = level j's vertices and their out-arcs, seconds[j] its
     * time; *done = the levels run. */
    pf_bfs_push_levels_fn *bfs_push_levels;
} pf_device_ops;

/* The compiled-in backends (each defined in its own folder). */
extern const pf_device_ops pf_backend_seq;
extern const pf_device_ops pf_backend_omp;
extern const pf_device_ops pf_backend_opencl;
extern const pf_device_ops pf_backend_cuda;

#ifdef __cplusplus
}
#endif
#endif
