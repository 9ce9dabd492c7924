/* Generators of analytics graphs (`portaflow gen kron|road`, and grid2d,
 * grid3d, random with --weights): each returns the CSR, rows sorted by
 * head, deterministic per seed whatever the thread count (every edge draws
 * from its own counter-based stream).
 *
 *   kron SCALE EF: Graph500's Kronecker generator, 2^SCALE vertices and
 *       EF * 2^SCALE edges, each edge picking one of four quadrants per bit
 *       with A = 0.57, B = 0.19, C = 0.19 (D = 0.05), then the vertex ids
 *       permuted at random; undirected, self-loops and repeats dropped.
 *   grid2d W H / grid3d X Y Z: the lattice, each vertex joined to its 4/8 or
 *       6/26 neighbours, undirected.
 *   random N M: M arcs with uniform random ends (self-loops and repeats
 *       possible, as in an Erdos-Renyi multigraph), directed.
 *   road W H: a road-like planar graph of high diameter: a W x H lattice
 *       whose points are jittered, each lattice edge kept with probability
 *       3/4 plus a few long straight avenues (every 64th row and column kept
 *       whole), always weighted: the rounded Euclidean length times 100
 *       (40..160), or with weights asked MIN + (MAX - MIN) * length / 1.6.
 * Weights: none (wmax = 0), or integers uniform in [wmin, wmax] on each
 * edge, the same both ways. Errors: PF_E_USAGE naming the bad parameter,
 * PF_E_NOMEM. */
#ifndef PF_GRAPH_GEN_H
#define PF_GRAPH_GEN_H

#include <stdint.h>

#include "graph_csr.h"

typedef struct pf_ggen_params {
    const char *family; /* "kron", "grid2d", "grid3d", "random", "road" */
    int64_t size[3];    /* the family's sizes as gen takes them */
    int64_t edgefactor; /* kron: default 16 */
    int32_t conn;       /* grid2d: 4 or 8, grid3d: 6 or 26 */
    int64_t wmin, wmax; /* weights in [wmin, wmax]; wmax = 0: none */
    uint64_t seed;
} pf_ggen_params;

pf_csr *pf_ggen(const pf_ggen_params *p, pf_status *st);

#endif
