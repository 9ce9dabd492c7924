/* The residual graph in CSR form, built once from a pf_network.
 *
 * Each non-self-loop input arc i = (u,v,c) becomes a forward residual arc at
 * u (capacity c) and a reverse residual arc at v (capacity 0); rev[] pairs
 * them. Residual capacities of a pair always sum to c, so flow(i) = residual
 * of the reverse arc.
 *
 * The order of a vertex's list decides which arc wins a tie for the lowest
 * neighbour, and the engines want different orders (bench/NOTES.md 17, 21):
 * - PF_ARCS_FORWARD_FIRST: the vertex's forward arcs, then its reverse arcs,
 *   each part in input order. The sequential engine takes the first
 *   admissible arc, so ties go on along the input's own arcs rather than
 *   back along the arc the excess came in by; with input order it bounced
 *   excess back and forth on RLG (3x the pushes) and along AK's second
 *   chain (quadratic).
 * - PF_ARCS_INPUT: plain input order. The parallel driver's bodies take the
 *   LAST lowest arc; in this order that took the OpenMP driver through
 *   RMFGEN 64x64 in 264 rounds (forward-first, first of equals: 812) and
 *   RLG 512x1024 in 157 (159). */
#ifndef PF_RESIDUAL_H
#define PF_RESIDUAL_H

#include <stdint.h>

#include "network.h"

typedef enum pf_arc_order {
    PF_ARCS_FORWARD_FIRST = 0,
    PF_ARCS_INPUT = 1,
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
} pf_residual;

/* Builds g from net in the given order with `threads` OpenMP threads (<= 0:
 * all of them, 1: serial; always serial without OpenMP). The result is the
 * same, bit for bit, whatever the thread count, and so is the memory it
 * takes. */
int pf_residual_build(const pf_network *net, pf_residual *g, pf_arc_order order, int threads,
                      pf_status *st);

/* The order an engine wants (see above), unless PORTAFLOW_ARC_ORDER names
 * one ("input" or "forward"): for measuring one engine in the other order. */
pf_arc_order pf_residual_order_for(int sequential_engine);

/* `out` = `in` in forward-first order, with the same vertex offsets, and
 * *moved_to (allocated, in->arcs long) = where each of in's arcs went. The
 * same, bit for bit, as pf_residual_build(..., PF_ARCS_FORWARD_FIRST, ...)
 * on in's network. */
int pf_residual_forward_first(const pf_residual *in, pf_residual *out, int64_t **moved_to,
                              int threads, pf_status *st);

/* Per-arc values between two layouts (moved_to from the above): with
 * `back` 0, to[moved_to[a]] = from[a]; with `back` 1, to[a] = from[moved_to[a]]. */
void pf_residual_move_values(const int64_t *moved_to, int64_t arcs, const int64_t *from,
                             int64_t *to, int back, int threads);
void pf_residual_free(pf_residual *g);

/* Flow on every input arc, from residual capacities `res` (arcs long);
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

/* Exit-side helper: vertices that can reach `target` in the residual
 * graph given residual capacities `res`; reach[v] = 1 if so. Sequential
 * reverse BFS, used for the cut and for checks. */
int pf_residual_reaches(const pf_residual *g, const int64_t *res, int32_t target,
                        uint8_t *reach, pf_status *st);

#endif
