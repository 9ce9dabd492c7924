/* Whether a max-flow network is shaped like an image segmentation: most
 * vertices hang off a terminal (a data term per pixel or voxel) and each
 * has few arcs (a grid's neighbours). Boykov and Kolmogorov's augmenting
 * paths are several times faster than push-relabel there, and far slower
 * where paths from source to sink are long (RLG, RMFGEN: no vertex but
 * a frame's touches a terminal): bench/NOTES.md 59 has the measurements
 * behind both bounds. */
#ifndef PF_SHAPE_H
#define PF_SHAPE_H

#include <stdint.h>

#include "network.h"
#include "residual.h"

/* Below this many vertices every network is "shaped" so (a handful of
 * vertices, all next to a terminal) and either method takes microseconds:
 * push-relabel stays the one engine there. */
#define PF_SHAPE_MIN_VERTICES 1000
/* Input arcs per vertex above which a network is no grid. */
#define PF_SHAPE_MAX_ARCS_PER_VERTEX 32

/* terminal_arcs: arcs at the source or the sink; arcs: input arcs. */
static inline int pf_shape_is_segmentation(int64_t vertices, int64_t arcs, int64_t terminal_arcs)
{
    int64_t inner = vertices - 2;
    return inner >= PF_SHAPE_MIN_VERTICES && 2 * terminal_arcs >= inner &&
           arcs <= PF_SHAPE_MAX_ARCS_PER_VERTEX * vertices;
}

static inline int pf_residual_is_segmentation(const pf_residual *g)
{
    int64_t at_terminals = g->first[g->source + 1] - g->first[g->source] +
                           g->first[g->sink + 1] - g->first[g->sink];
    return pf_shape_is_segmentation(g->n, g->arcs / 2, at_terminals);
}

/* The same of the network as given, before its residual graph is built
 * (auto's choice of a backend): arcs out of the source and into the sink,
 * on `threads` OpenMP threads (as pf_residual_build). A network of
 * several sources or sinks counts those of its first ones. */
int pf_network_is_segmentation(const pf_network *net, int threads);

#endif
