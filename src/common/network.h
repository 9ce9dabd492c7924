/* The input network: arcs as given, in input order (0-based vertex ids). */
#ifndef PF_NETWORK_H
#define PF_NETWORK_H

#include <stdint.h>

#include "portaflow.h"

struct pf_network {
    int64_t n;          /* vertices */
    int64_t m;          /* arcs */
    int64_t m_alloc;    /* capacity of the arc arrays */
    int32_t source, sink;
    int32_t *tail;      /* m */
    int32_t *head;      /* m */
    int64_t *cap;       /* m */
};

/* Reserves room for `arcs` arcs up front (readers know M from "p max"). */
int pf_network_reserve(pf_network *net, int64_t arcs, pf_status *st);

/* About how many bytes a solve of net takes at its peak (engine arrays,
 * residual graph, flows with want_flow, the cut with want_cut). */
uint64_t pf_network_solve_bytes(const pf_network *net, int want_flow, int want_cut);
/* PF_E_NOMEM, naming both amounts, when that is more than the memory
 * available (memavail.h); PF_OK otherwise. */
int pf_network_require_memory(const pf_network *net, int want_flow, int want_cut,
                              pf_status *st);

/* Largest vertex count: ids must fit int32 on every backend. */
#define PF_MAX_VERTICES ((int64_t)INT32_MAX - 1)

#endif
