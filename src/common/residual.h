/* The residual graph in CSR form, built once from a pf_network.
 *
 * Each non-self-loop input arc i = (u,v,c) becomes a forward residual arc at
 * u (capacity c) and a reverse residual arc at v (capacity 0); rev[] pairs
 * them. Residual capacities of a pair always sum to c, so flow(i) = residual
 * of the reverse arc.
 *
 * The order of a vertex's list decides which arc wins a tie for the lowest
 * neighbour: every engine takes the first among equals (the measurements
 * behind each order are in bench/NOTES.md).
 * - PF_ARCS_FORWARD_FIRST: the vertex's forward arcs, then its reverse
 *   arcs, each part in input order. Ties go on along the input's own arcs
 *   rather than back along the arc the excess came in by; in input order
 *   the sequential engine bounces excess back and forth (several times the
 *   pushes on layered graphs, quadratic along a long chain).
 * - PF_ARCS_FORWARD_PART_ROTATED: the same, the forward part turned by a
 *   pseudo-random offset of the vertex's own: the sequential engine's.
 *   Where every vertex lists its neighbours in the same pattern (RMFGEN's
 *   frames: down, left, right, up, then the arc to the next frame), taking
 *   the first of equals sends all the excess of a frame the same way, and
 *   it piles up at a few of the arcs between frames; turned, it spreads
 *   (half the pushes on RMFGEN, 1.4-2.4x faster; dense AC graphs, whose
 *   input order suits them, lose 1.2-1.4x; bench/NOTES.md 60).
 * - PF_ARCS_FORWARD_ROTATED: both parts turned: the parallel driver's.
 *   Many vertices relabel and choose at once there, and a rule that sends
 *   them all the same way is slow: forward-first keeps the excess inside a
 *   layered graph's frames, and on a dense graph input order with the last
 *   of equals sends all of it to one vertex.
 * - PF_ARCS_INPUT, PF_ARCS_INPUT_REVERSED: plain input order, and the same
 *   backwards; for measuring. */
#ifndef PF_RESIDUAL_H
#define PF_RESIDUAL_H

#include <stdint.h>

#include "network.h"

typedef enum pf_arc_order {
    PF_ARCS_FORWARD_FIRST,
    PF_ARCS_INPUT,
    PF_ARCS_INPUT_REVERSED,
    PF_ARCS_FORWARD_ROTATED,
    PF_ARCS_FORWARD_PART_ROTATED,
} pf_arc_order;

typedef struct pf_residual {
    pf_arc_order order;
    int64_t n;             /* vertices */
    int64_t arcs;          /* residual arcs = 2 * (input arcs - self-loops) */
    int32_t source, sink;
    int64_t *first;        /* n + 1: arcs of u are [first[u], first[u+1]) */
    int32_t *head;         /* arcs: the arc's head vertex */
    int64_t *rev;          /* arcs: index of the paired reverse arc */
    int64_t *cap;          /* arcs: initial residual capacity */
    int64_t *fwd_of_input; /* input arcs: forward residual arc, -1 = self-loop */
    int64_t input_arcs;
    int64_t output_arcs;   /* input arcs that flows are reported for: all of
                              them, less a super source's and sink's */
} pf_residual;

/* Several sources or sinks (pf_network_set_terminals) become one super
 * source and one super sink, vertices n and n + 1: an arc to each source
 * with the capacity of the source's out-arcs, one from each sink with that
 * of its in-arcs. Their arcs follow the input arcs, so flows and cut sides
 * of the real vertices and arcs come first (output_arcs, net->n).
 * A CSR view (net->csr, pf_network_view_csr) is read in place, arc k being
 * entry k; it has one source and one sink.
 *
 * Builds g from net in the given order with `threads` OpenMP threads (<= 0:
 * all of them, 1: serial; always serial without OpenMP). The result is the
 * same, bit for bit, whatever the thread count, and so is the memory it
 * takes. */
int pf_residual_build(const pf_network *net, pf_residual *g, pf_arc_order order, int threads,
                      pf_status *st);

/* The order an engine wants (see above), unless PORTAFLOW_ARC_ORDER names
 * one ("forward", "rotated", "input", "input-reversed"): for measuring. */
pf_arc_order pf_residual_order_for(int sequential_engine);

/* `out` = `in` in another order: exactly what pf_residual_build gives on
 * in's network. */
int pf_residual_relayout(const pf_residual *in, pf_arc_order order, pf_residual *out,
                         int threads, pf_status *st);

/* Residual capacities of one layout in another of the same network. */
void pf_residual_copy_residuals(const pf_residual *from, const int64_t *from_res,
                                const pf_residual *to, int64_t *to_res, int threads);
void pf_residual_free(pf_residual *g);
/* pf_residual_free(g) (g may be NULL) and free(also), of `also_bytes`
 * bytes, on a detached thread when they are large (tens of megabytes and
 * more), so that the caller has its result while the pages go back; g is
 * left empty. Small ones, or where no thread starts, are freed here. */
void pf_residual_free_later(pf_residual *g, void *also, size_t also_bytes);
/* free() of up to PF_FREE_LATER_MAX blocks (NULLs allowed) of `bytes` in
 * all, the same way: on a detached thread when large, else here. */
#define PF_FREE_LATER_MAX 8
void pf_free_later(void *const *blocks, int count, size_t bytes);

/* Flow on every reported input arc (output_arcs of them), from residual capacities `res` (arcs long);
 * `threads` as for pf_residual_build. */
void pf_residual_arc_flows(const pf_residual *g, const int64_t *res,
                           int64_t *arc_flow, int threads);

/* The device form of rev (device.h): for every arc a = (u,v), the position
 * of its reverse arc in v's list, rev[a] - first[v], as int32 (`out` has
 * g->arcs entries). PF_E_INPUT if a vertex has 2^31 or more arcs (the
 * message names the head of the lowest such arc). `threads` as for
 * pf_residual_build. */
int pf_residual_rev_offsets(const pf_residual *g, int32_t *out, int threads,
                            pf_status *st);

/* The other device form of rev, for backends whose ops set rev_absolute:
 * the reverse arc's own index, as uint32. The caller makes sure that
 * g->arcs <= 2^32. `threads` as for pf_residual_build. */
void pf_residual_rev_indices(const pf_residual *g, uint32_t *out, int threads);

/* Exit-side helper: vertices that can reach `target` in the residual
 * graph given residual capacities `res`; reach[v] = 1 if so. Sequential
 * reverse BFS, used for the cut and for checks. */
int pf_residual_reaches(const pf_residual *g, const int64_t *res, int32_t target,
                        uint8_t *reach, pf_status *st);

#endif
