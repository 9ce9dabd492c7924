/* Generators of the benchmark families in docs/GENERATORS.md. Every generator is
 * deterministic for a given seed and builds the network in memory; write
 * it with pf_network_write_dimacs_stream.
 *
 * All vertex ids are 0-based (the 1-based ids of docs/GENERATORS.md minus one).
 * Each generator reserves its exact arc count up front and returns a network
 * holding exactly that many arcs. Errors: an invalid parameter gives NULL and
 * PF_E_USAGE with a message naming the parameter; a graph that does not fit
 * in memory gives NULL and PF_E_NOMEM. */
#ifndef PF_GEN_H
#define PF_GEN_H

#include <stdint.h>

#include "network.h"

/* RMFGEN: a*a*b vertices, 5a^2b - 4ab - a^2 arcs.
 * Vertex (frame z, row x, column y), all 0-based, is z*a*a + x*a + y; source
 * 0, sink a*a*b - 1. In-frame arcs to every existing 4-neighbour with
 * capacity c2*a*a; between consecutive frames a fresh random permutation,
 * capacities uniform in [c1, c2]. Needs a >= 2, b >= 2, 0 <= c1 <= c2. */
pf_network *pf_gen_rmf(int64_t a, int64_t b, int64_t c1, int64_t c2,
                       uint64_t seed, pf_status *st);
/* Washington random level graph: r*c + 2 vertices, 2r + 3r(c-1) arcs.
 * Source 0, level l (0-based) row i is 1 + l*r + i, sink r*c + 1. Source
 * and sink arcs have capacity 3*cap; each vertex of levels 0..c-2 has arcs
 * to 3 distinct random vertices of the next level, capacities in [1, cap].
 * Needs r >= 3, c >= 2, cap >= 1. */
pf_network *pf_gen_rlg(int64_t r, int64_t c, int64_t cap, uint64_t seed,
                       pf_status *st);
/* Acyclic dense: n vertices, n(n-1)/2 arcs, capacities in [1, cap].
 * Source 0, sink n-1, an arc i -> j for every i < j (ordered by i, then j).
 * Needs n >= 2, cap >= 1. */
pf_network *pf_gen_ac(int64_t n, int64_t cap, uint64_t seed, pf_status *st);
/* AK (Cherkassky-Goldberg): 4k+6 vertices, 6k+7 arcs, deterministic.
 * Source 0, sink 1; arcs in the order docs/GENERATORS.md lists them. k >= 2. */
pf_network *pf_gen_ak(int64_t k, pf_status *st);
/* Vision grids: symmetric neighbour arcs with capacities in [1, cap] and a
 * terminal arc per pixel (from the source or to the sink). Source and sink
 * are two extra vertices. conn is 4 or 8 (2D), 6 or 26 (3D).
 *
 * Pixel (x, y) is y*w + x; voxel (x, y, z) is (z*Y + y)*X + x; the source is
 * the vertex after the last pixel/voxel, the sink the one after it. Each
 * neighbour pair gives two arcs (p -> q, q -> p) of the same capacity.
 * The data term: a hidden object (an ellipse/ellipsoid centred near the
 * middle plus a few random discs/balls) is preferred by 7/8 of its pixels
 * (arc from the source), the background by 7/8 of its pixels (arc to the
 * sink), the rest are noise with the opposite preference; terminal
 * capacities are uniform in [1, 2*cap]. The min cut is a smoothed
 * segmentation of the object, not the trivial cut of all terminal arcs.
 *
 * Arc counts (W = w, H = h; X, Y, Z the 3D sides):
 *   conn 4:  2*((w-1)*h + w*(h-1)) + w*h
 *   conn 8:  the conn-4 count + 2*2*(w-1)*(h-1)
 *   conn 6:  2*((X-1)*Y*Z + X*(Y-1)*Z + X*Y*(Z-1)) + X*Y*Z
 *   conn 26: the conn-6 count
 *            + 2*2*((X-1)*(Y-1)*Z + (X-1)*Y*(Z-1) + X*(Y-1)*(Z-1))
 *            + 2*4*(X-1)*(Y-1)*(Z-1)
 * Needs every side >= 1 and cap >= 1. */
pf_network *pf_gen_grid2d(int64_t w, int64_t h, int conn, int64_t cap,
                          uint64_t seed, pf_status *st);
pf_network *pf_gen_grid3d(int64_t x, int64_t y, int64_t z, int conn,
                          int64_t cap, uint64_t seed, pf_status *st);
/* Small random network for tests: n vertices, m arcs, capacities in
 * [0, cap], with parallel arcs, self-loops, reverse pairs, arcs into s and
 * out of t possible. Source 0, sink n-1. About 1/8 of the arcs leave the
 * source, 1/8 enter the sink and 1/4 go from a lower to a higher id (so
 * s-t paths exist); the rest have uniform endpoints. With m >= 4 the first
 * arc always leaves the source and the second always enters the sink. */
pf_network *pf_gen_random(int64_t n, int64_t m, int64_t cap, uint64_t seed,
                          pf_status *st);

/* The generator's random stream (xoshiro256** seeded through splitmix64),
 * exposed so tests and benches draw the same numbers. */
typedef struct pf_rng { uint64_t s[4]; } pf_rng;
void pf_rng_seed(pf_rng *r, uint64_t seed);
uint64_t pf_rng_next(pf_rng *r);
/* Uniform in [lo, hi] without modulo bias. Requires lo <= hi (returns lo
 * otherwise). */
int64_t pf_rng_range(pf_rng *r, int64_t lo, int64_t hi);

#endif
