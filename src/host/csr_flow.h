/* scipy's flow matrix of a CSR view read off the residual graph of its
 * solve (csr_flow_residual.c), for pf_solve_csr_flow (csr_solve.c).
 *
 * Vertex u's residual list holds an arc to v for every input entry (u,v)
 * and one for every entry (v,u), self-loops aside: the heads of row u of
 * the input united with row u of its transpose, i.e. the columns of row u
 * of the flow matrix. The structure is those heads sorted (the list's own
 * order is the engine's and is not relied on), and each arc's place among
 * its row's entries; the values are then the net flow along each arc,
 * cap - res, summed into its entry. */
#ifndef PF_CSR_FLOW_H
#define PF_CSR_FLOW_H

#include <stdint.h>

#include "../common/residual.h"
#include "portaflow.h"

typedef struct pf_residual_flow {
    pf_csr_matrix out; /* indptr and indices final; values allocated (int32) */
    uint32_t *slot;    /* g->arcs: arc a's entry, counted from its row's first */
    int64_t arcs;
    int threads;       /* OpenMP threads of its passes (<= 0: the calling
                          thread's default) */
} pf_residual_flow;

/* pf_residual_flow_structure's answer where the lists cannot give the
 * matrix (an error is a pf_code). */
#define PF_RESIDUAL_FLOW_CANNOT (-1)

/* The structure of the flow matrix of a CSR view (indptr and indices of
 * index_size bytes, the view's own) from the residual graph g of its
 * solve, repeated positions as `repeats` says (PF_CSR_*), on `threads`
 * OpenMP threads (<= 0: the calling thread's default; the values too). Self-loops have no residual arcs: an input with
 * some has its rows read once more for them. PF_OK;
 * PF_RESIDUAL_FLOW_CANNOT where the lists do not give it: a graph with
 * super terminals, KEEP_REPEATS with a repeated position in an arc order
 * whose lists are not forward arcs first (residual.h); PF_E_CANCELLED
 * once *abandon is set (read between rows); PF_E_NOMEM. f is empty unless
 * PF_OK. */
int pf_residual_flow_structure(const pf_residual *g, const void *indptr, const void *indices,
                               int index_size, int repeats, int threads, const int *abandon,
                               pf_residual_flow *f, pf_status *st);

/* The matrix: f's structure (handed over to *out, f left without it) with
 * the values from g (the graph the structure was read from) and its
 * residuals res. Values int32 unless one does not fit. */
int pf_residual_flow_values(pf_residual_flow *f, const pf_residual *g, const int64_t *res,
                            pf_csr_matrix *out, pf_status *st);

void pf_residual_flow_free(pf_residual_flow *f);

#endif
