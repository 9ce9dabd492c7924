/* The weighted digraph of the APSP solver: arcs as given, in input order
 * (0-based vertex ids). Weights stay exact integers until the first
 * non-integral one; from then on `real_weight` holds every weight. */
#ifndef PF_WGRAPH_H
#define PF_WGRAPH_H

#include <stdint.h>

#include "portaflow.h"

struct pf_wgraph {
    int64_t n;             /* vertices */
    int64_t m;             /* arcs */
    int64_t m_alloc;       /* capacity of the arc arrays */
    int32_t *tail;         /* m */
    int32_t *head;         /* m */
    int64_t *int_weight;   /* m, while every weight is an integer; else NULL */
    double *real_weight;   /* m, once some weight is not; else NULL */
};

/* Reserves room for `arcs` arcs up front (readers that know M). */
int pf_wgraph_reserve(pf_wgraph *g, int64_t arcs, pf_status *st);

/* pf_wgraph_read's formats, from text already loaded (NUL-terminated,
 * len bytes); name for messages. */
#include <stddef.h>
pf_wgraph *pf_wgraph_parse(const char *text, size_t len, const char *name, pf_status *st);

/* Largest |integer weight| the readers accept. The APSP solver then picks
 * a distance type wide enough for (n-1) * max|w|, or refuses the graph. */
#define PF_WEIGHT_MAX ((int64_t)1 << 62)

#endif
