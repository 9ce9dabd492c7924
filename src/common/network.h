/* The input network: arcs as given, in input order (0-based vertex ids). */
#ifndef PF_NETWORK_H
#define PF_NETWORK_H

#include <stdint.h>

#include "portaflow.h"

/* The arcs of a network read in place from a caller's CSR arrays
 * (pf_network_view_csr): arc k is entry k, row u -> indices[k] of capacity
 * caps[k]; indptr/indices of index_size bytes, caps of cap_size (4 or 8). */
typedef struct pf_csr_arcs {
    const void *indptr, *indices, *caps;
    int index_size, cap_size;
} pf_csr_arcs;

/* Element k of an int32 (size 4) or int64 (size 8) array, as a CSR view's
 * arrays hold them. Always inlined: the residual build's walks read every
 * arc through it. */
static inline __attribute__((always_inline)) int64_t
pf_sized_element(const void *array, int size, int64_t k)
{
    return size == 4 ? ((const int32_t *)array)[k] : ((const int64_t *)array)[k];
}

/* Writes element k of an int32 (size 4) or int64 (size 8) array. */
static inline void pf_sized_set(void *array, int size, int64_t k, int64_t value)
{
    if (size == 4)
        ((int32_t *)array)[k] = (int32_t)value;
    else
        ((int64_t *)array)[k] = value;
}

/* A CSR's row starts (n + 1 `size`-byte entries) from its rows' entry
 * counts. */
static inline void pf_sized_indptr(void *indptr, int size, const int64_t *count, int64_t n)
{
    int64_t sum = 0;
    for (int64_t u = 0; u < n; u++) {
        pf_sized_set(indptr, size, u, sum);
        sum += count[u];
    }
    pf_sized_set(indptr, size, n, sum);
}

/* The row of a CSR with n rows that holds entry k (k < its entries): the
 * last u with indptr[u] <= k. */
int64_t pf_csr_row_of(const void *indptr, int index_size, int64_t n, int64_t k);

/* The bad entry k of a CSR with n rows (its column outside 0..n-1, else
 * its capacity outside 0..2^62) as the CSR entry points word it, with its
 * row; returns PF_E_INPUT. */
int pf_csr_entry_error(const pf_csr_arcs *c, int64_t n, int64_t k, pf_status *st);

struct pf_network {
    int64_t n;          /* vertices */
    int64_t m;          /* arcs */
    int64_t m_alloc;    /* capacity of the arc arrays */
    int32_t source, sink; /* the first source and sink (the only ones, usually) */
    int zero_based_ids; /* the file numbers vertices from 0 (a 0-based edge list):
                           solutions print and read ids that way too */
    int32_t *tail;      /* m */
    int32_t *head;      /* m */
    int64_t *cap;       /* m; in fixed point (cap * 2^scale_log2) when is_real */
    pf_csr_arcs csr;    /* csr.indptr set: a CSR view, whose arcs are there
                           only (tail, head and cap stay NULL) */

    /* Several terminals (pf_network_set_terminals): NULL while there is
     * one of each, then every source and sink, ascending. */
    int64_t source_count, sink_count;
    int32_t *sources, *sinks;

    /* Real capacities (realcap.c). While reading, an arc given a real
     * capacity holds cap = -1 and its value in real_cap; pf_network_finish
     * picks the scale and turns them all into fixed point. */
    int is_real;             /* some capacity was not an integer */
    int scale_pending;       /* real capacities not yet in fixed point */
    int scale_log2;          /* cap = round(input capacity * 2^scale_log2) */
    double scale_error;      /* bound on |exact max flow - value / 2^scale_log2| */
    long double *real_cap;   /* m_alloc entries once a real capacity came */
    long double parse_error; /* sum of the decimal-to-binary rounding errors */
};

/* Reserves room for `arcs` arcs up front (readers know M from "p max"). */
int pf_network_reserve(pf_network *net, int64_t arcs, pf_status *st);

/* Records a real capacity for arc i (already added, cap set to -1):
 * `value` as parsed, `exact` = 1 when it equals the text's decimal exactly,
 * else the half-ulp of the parse is added to the error bound. */
int pf_network_real_cap(pf_network *net, int64_t i, long double value, int exact,
                        pf_status *st);

/* The role of vertex v: 1 source, 2 sink, 0 neither. */
int pf_network_role(const pf_network *net, int64_t v);

/* About how many bytes a solve of net takes at its peak (engine arrays,
 * residual graph, flows with want_flow, the cut with want_cut). */
uint64_t pf_network_solve_bytes(const pf_network *net, int want_flow, int want_cut);
/* PF_E_NOMEM, naming both amounts, when that is more than the memory
 * available (memavail.h); PF_OK otherwise. */
int pf_network_require_memory(const pf_network *net, int want_flow, int want_cut,
                              pf_status *st);

/* Whether net declares so many vertices that no arc or terminal touches
 * that solving a compact copy (below) is worth it. */
int pf_network_worth_compacting(const pf_network *net);
/* *out: a copy of net holding only the vertices that appear (the source,
 * the sink, the arcs' ends), renumbered in increasing order, arcs in input
 * order; *old_id (malloc'ed, out->n entries): each new id's old one. */
int pf_network_compact(const pf_network *net, pf_network **out, int32_t **old_id,
                       pf_status *st);
/* The cut of net (n entries, malloc'ed into *side) from the cut of its
 * compact copy: vertices that appear keep their side, the others (no arc,
 * so they cannot reach the sink) are on the source side. */
int pf_network_expand_side(const pf_network *net, const int32_t *old_id, int64_t count,
                           const uint8_t *compact_side, uint8_t **side, pf_status *st);

/* A network over the caller's CSR arrays, not copied: the residual build
 * reads them in place, so they must stay unchanged until the network is
 * freed. indptr is checked here, the entries as the build reads them: a
 * bad one fails pf_solve with pf_network_from_csr's message. Only for
 * pf_solve (one source and sink), the counts and pf_network_free: it has
 * no tail, head or cap arrays for anything else to read. A network worth
 * compacting (pf_network_worth_compacting) comes back as a copy. */
pf_network *pf_network_view_csr(int64_t vertices, int64_t source, int64_t sink,
                                const void *indptr, const void *indices, int index_size,
                                const void *capacities, int capacity_size, pf_status *st);

/* Largest vertex count: ids must fit int32 on every backend. */
#define PF_MAX_VERTICES ((int64_t)INT32_MAX - 1)

#endif
