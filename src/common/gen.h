/* Generators of the benchmark families in GENERATORS.md. Every generator is
 * deterministic for a given seed and builds the network in memory; write
 * it with pf_network_write_dimacs_stream. */
#ifndef PF_GEN_H
#define PF_GEN_H

#include <stdint.h>

#include "network.h"

/* RMFGEN: a*a*b vertices, 5a^2b - 4ab - a^2 arcs. */
pf_network *pf_gen_rmf(int64_t a, int64_t b, int64_t c1, int64_t c2,
                       uint64_t seed, pf_status *st);
/* Washington random level graph: r*c + 2 vertices, 2r + 3r(c-1) arcs. */
pf_network *pf_gen_rlg(int64_t r, int64_t c, int64_t cap, uint64_t seed,
                       pf_status *st);
/* Acyclic dense: n vertices, n(n-1)/2 arcs, capacities in [1, cap]. */
pf_network *pf_gen_ac(int64_t n, int64_t cap, uint64_t seed, pf_status *st);
/* AK (Cherkassky-Goldberg): 4k+6 vertices, 6k+7 arcs, deterministic. */
pf_network *pf_gen_ak(int64_t k, pf_status *st);
/* Vision grids: symmetric neighbour arcs with capacities in [1, cap] and a
 * terminal arc per pixel (from the source or to the sink). Source and sink
 * are two extra vertices. conn is 4 or 8 (2D), 6 or 26 (3D). */
pf_network *pf_gen_grid2d(int64_t w, int64_t h, int conn, int64_t cap,
                          uint64_t seed, pf_status *st);
pf_network *pf_gen_grid3d(int64_t x, int64_t y, int64_t z, int conn,
                          int64_t cap, uint64_t seed, pf_status *st);
/* Small random network for tests: n vertices, m arcs, capacities in
 * [0, cap], with parallel arcs, self-loops, reverse pairs, arcs into s and
 * out of t possible. */
pf_network *pf_gen_random(int64_t n, int64_t m, int64_t cap, uint64_t seed,
                          pf_status *st);

/* The generator's random stream (splitmix64/xoshiro-style), exposed so
 * tests and benches draw the same numbers. */
typedef struct pf_rng { uint64_t s[4]; } pf_rng;
void pf_rng_seed(pf_rng *r, uint64_t seed);
uint64_t pf_rng_next(pf_rng *r);
/* Uniform in [lo, hi] without modulo bias. */
int64_t pf_rng_range(pf_rng *r, int64_t lo, int64_t hi);

#endif
