/* Random weighted digraphs for the APSP solver (`portaflow gen sp`).
 *
 * The arcs are `arcs` distinct ordered pairs (u, v), u != v, drawn
 * uniformly from all n(n-1) of them: no self-loops and no parallel arcs,
 * listed sorted by tail, then head. Weights are uniform in [min, max]
 * (integers), or with `real` uniform on a fine grid of reals in
 * [min_real, max_real].
 *
 * With `negative`, weight(u, v) = c(u, v) + p(u) - p(v): c uniform in
 * [min, max] (min >= 0) and potentials p uniform in [0, max]. Around any
 * cycle the potentials cancel, so every cycle weighs the sum of its c >= 0:
 * negative weights, no negative cycle. The weights then lie in
 * [min - max, 2 max]; pf_wgraph_weight_range tells what was produced.
 *
 * Real weights are multiples of a power of two 2^-k, with k the largest
 * that keeps the range's largest magnitude within 2^40 steps; min_real and
 * max_real are rounded inward to that grid. Sums and differences of such
 * weights are exact doubles, which is what makes the no-negative-cycle
 * promise hold for reals too.
 *
 * Deterministic per seed (the pf_rng stream of gen.h). Errors: a bad
 * parameter gives NULL and PF_E_USAGE naming it; a graph that does not fit
 * in memory, NULL and PF_E_NOMEM. */
#ifndef PF_WGEN_H
#define PF_WGEN_H

#include <stddef.h>
#include <stdint.h>

#include "portaflow.h"

typedef struct pf_wgen_params {
    int64_t vertices;          /* n in 1..PF_MAX_VERTICES */
    int64_t arcs;              /* 0..n(n-1) */
    int64_t min, max;          /* integer weights: -2^62 <= min <= max <= 2^62 */
    int real;                  /* draw reals in [min_real, max_real] instead */
    double min_real, max_real; /* finite, |.| <= 2^62 */
    int negative;              /* c + p(u) - p(v) weights; needs min >= 0 and
                                  max <= 2^61 (the weights reach 2 max) */
    uint64_t seed;
} pf_wgen_params;

pf_wgraph *pf_gen_wgraph(const pf_wgen_params *params, pf_status *st);

/* Arc count for a density: round(density * n(n-1)), density in [0, 1]. */
int64_t pf_wgen_arcs_for_density(int64_t vertices, double density);

/* The lightest and heaviest weight of g as text, "[-87, 163]" (integers
 * exactly, reals with 17 significant digits), or "none" without arcs. */
void pf_wgraph_weight_range(const pf_wgraph *g, char *text, size_t len);

#endif
