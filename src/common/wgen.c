/* Random weighted digraphs (wgen.h): uniform distinct arcs, uniform
 * weights, and reduced-cost weights that are negative without any negative
 * cycle. */
#include "wgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"
#include "status.h"
#include "wgraph.h"

/* `return USAGE(st, "...", ...);` from the generator: PF_E_USAGE and NULL. */
#define USAGE(st, ...) (pf_fail((st), PF_E_USAGE, __VA_ARGS__), (pf_wgraph *)NULL)
#define LL(v) ((long long)(v))

/* Largest arc count whose arrays' byte sizes (8 bytes a weight) cannot
 * overflow size_t; above it the graph could never fit in memory anyway. */
#define WGEN_MAX_ARCS ((int64_t)(SIZE_MAX / sizeof(int64_t) / 2))

/* Below this fraction of all pairs, arcs are drawn at random and repeats
 * dropped (few repeats, so a few rounds); above it, every pair is visited
 * once (cheaper than chasing the last free pairs by chance). */
#define WGEN_SPARSE_SHARE 8

/* Weights are drawn as integers: c in [lo, hi], potentials in [0, hi], and
 * the weight c + p(u) - p(v) is divided by 2^shift (0 for integer weights). */
typedef struct weight_grid {
    int64_t lo, hi;
    int shift;
} weight_grid;

/* The finest power-of-two grid on which the range's largest magnitude is
 * at most 2^40 steps: three such numbers add up exactly in a double (53
 * bits), so c + p(u) - p(v) is exact and the potentials cancel exactly
 * around a cycle. */
static weight_grid real_grid(double lo, double hi)
{
    double largest = fmax(fabs(lo), fabs(hi));
    int exponent = 0; /* largest < 2^exponent */
    if (largest > 0)
        frexp(largest, &exponent);
    weight_grid grid = {.shift = 40 - exponent};
    grid.lo = (int64_t)ceil(ldexp(lo, grid.shift));
    grid.hi = (int64_t)floor(ldexp(hi, grid.shift));
    if (grid.lo > grid.hi) /* lo = hi between two grid points */
        grid.lo = grid.hi = llround(ldexp(lo, grid.shift));
    return grid;
}

static pf_wgraph *check_params(const pf_wgen_params *w, weight_grid *grid, pf_status *st)
{
    int64_t n = w->vertices;
    if (n < 1 || n > PF_MAX_VERTICES)
        return USAGE(st, "sp: vertex count n = %lld outside 1..%lld", LL(n), LL(PF_MAX_VERTICES));
    int64_t pairs = n * (n - 1); /* < 2^62 */
    if (w->arcs < 0 || w->arcs > pairs)
        return USAGE(st, "sp: arc count m = %lld outside 0..n(n-1) = %lld (no self-loops, "
                     "no parallel arcs)", LL(w->arcs), LL(pairs));
    if (w->arcs > WGEN_MAX_ARCS) {
        pf_fail(st, PF_E_NOMEM, "sp: %lld arcs do not fit in host memory", LL(w->arcs));
        return NULL;
    }
    /* The largest bound allowed: with potentials the weights reach 2 max. */
    double limit = (double)(w->negative ? PF_WEIGHT_MAX / 2 : PF_WEIGHT_MAX);
    if (w->real) {
        if (!(fabs(w->min_real) <= limit && fabs(w->max_real) <= limit))
            return USAGE(st, "sp: min = %g and max = %g must be finite, within -%.0f..%.0f",
                         w->min_real, w->max_real, limit, limit);
        if (w->min_real > w->max_real)
            return USAGE(st, "sp: min = %g exceeds max = %g", w->min_real, w->max_real);
        if (w->negative && w->min_real < 0)
            return USAGE(st, "sp: negative needs min >= 0 (the weights are c + p(u) - p(v) "
                         "with c in [min, max]), not %g", w->min_real);
        *grid = real_grid(w->min_real, w->max_real);
    } else {
        if (w->min < -(int64_t)limit || w->max > (int64_t)limit)
            return USAGE(st, "sp: min = %lld and max = %lld must lie within -%lld..%lld",
                         LL(w->min), LL(w->max), LL(limit), LL(limit));
        if (w->min > w->max)
            return USAGE(st, "sp: min = %lld exceeds max = %lld", LL(w->min), LL(w->max));
        if (w->negative && w->min < 0)
            return USAGE(st, "sp: negative needs min >= 0 (the weights are c + p(u) - p(v) "
                         "with c in [min, max]), not %lld", LL(w->min));
        *grid = (weight_grid){.lo = w->min, .hi = w->max, .shift = 0};
    }
    return pf_wgraph_new(n, st);
}

typedef struct arc_maker {
    pf_wgraph *g;
    pf_rng *rng;
    weight_grid grid;
    int real;
    const int64_t *potential; /* n, or NULL without negative */
    int64_t n;
    pf_status *st;
} arc_maker;

/* Adds the arc of pair index k (pairs in (u, v) order, v != u) with a fresh
 * weight. The caller reserved every arc and check_params bounded the
 * weights, so this does not fail in practice. */
static int make_arc(const arc_maker *am, uint64_t k)
{
    int64_t u = (int64_t)(k / (uint64_t)(am->n - 1));
    int64_t v = (int64_t)(k % (uint64_t)(am->n - 1));
    v += v >= u; /* skip the self-loop */
    int64_t weight = pf_rng_range(am->rng, am->grid.lo, am->grid.hi);
    if (am->potential)
        weight += am->potential[u] - am->potential[v];
    if (am->real)
        return pf_wgraph_add_arc_real(am->g, u, v, ldexp((double)weight, -am->grid.shift),
                                      am->st);
    return pf_wgraph_add_arc(am->g, u, v, weight, am->st);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* `count` distinct pair indices below `pairs`, sorted: draw them all, sort,
 * drop repeats, draw the missing ones again. With count <= pairs / 8 a
 * round repeats on average at most 1/16 of what it drew. */
static uint64_t *sample_sorted(pf_rng *rng, uint64_t pairs, int64_t count, pf_status *st)
{
    uint64_t *keys = pf_alloc(count > 0 ? (size_t)count : 1, sizeof *keys, st);
    int64_t have = 0;
    while (keys && have < count) {
        for (int64_t i = have; i < count; i++)
            keys[i] = (uint64_t)pf_rng_range(rng, 0, (int64_t)pairs - 1);
        qsort(keys, (size_t)count, sizeof *keys, compare_u64);
        have = 1;
        for (int64_t i = 1; i < count; i++)
            if (keys[i] != keys[have - 1])
                keys[have++] = keys[i];
    }
    return keys;
}

pf_wgraph *pf_gen_wgraph(const pf_wgen_params *params, pf_status *st)
{
    weight_grid grid;
    pf_wgraph *g = check_params(params, &grid, st);
    if (!g)
        return NULL;
    int64_t n = params->vertices, arcs = params->arcs;
    uint64_t pairs = (uint64_t)n * (uint64_t)(n - 1);
    pf_rng rng;
    pf_rng_seed(&rng, params->seed);
    int64_t *potential = NULL;
    uint64_t *keys = NULL;
    int rc = pf_wgraph_reserve(g, arcs, st);
    if (!rc && params->negative) {
        potential = pf_alloc((size_t)n, sizeof *potential, st);
        rc = potential ? PF_OK : PF_E_NOMEM;
        for (int64_t v = 0; potential && v < n; v++)
            potential[v] = pf_rng_range(&rng, 0, grid.hi);
    }
    arc_maker am = {.g = g, .rng = &rng, .grid = grid, .real = params->real,
                    .potential = potential, .n = n, .st = st};
    if (!rc && (uint64_t)arcs <= pairs / WGEN_SPARSE_SHARE) {
        keys = sample_sorted(&rng, pairs, arcs, st);
        rc = keys ? PF_OK : PF_E_NOMEM;
        for (int64_t i = 0; !rc && i < arcs; i++)
            rc = make_arc(&am, keys[i]);
    } else if (!rc) {
        /* Selection sampling: pair k is taken with probability
         * (still wanted) / (still left), which gives exactly `arcs` pairs,
         * every subset of that size equally likely. */
        uint64_t wanted = (uint64_t)arcs;
        for (uint64_t k = 0; !rc && wanted > 0; k++) {
            if ((uint64_t)pf_rng_range(&rng, 0, (int64_t)(pairs - k - 1)) < wanted) {
                rc = make_arc(&am, k);
                wanted--;
            }
        }
    }
    free(keys);
    free(potential);
    if (rc) {
        pf_wgraph_free(g);
        return NULL;
    }
    pf_status_ok(st);
    return g;
}

int64_t pf_wgen_arcs_for_density(int64_t vertices, double density)
{
    int64_t pairs = vertices * (vertices - 1); /* < 2^62 for any valid n */
    double arcs = round(density * (double)pairs);
    if (!(arcs > 0)) /* NaN too */
        return 0;
    /* (double)pairs may round above pairs: clamp as an integer. */
    return arcs >= (double)pairs || (int64_t)arcs > pairs ? pairs : (int64_t)arcs;
}

void pf_wgraph_weight_range(const pf_wgraph *g, char *text, size_t len)
{
    if (g->m == 0) {
        snprintf(text, len, "none");
    } else if (g->real_weight) {
        double lo = g->real_weight[0], hi = lo;
        for (int64_t i = 1; i < g->m; i++) {
            lo = fmin(lo, g->real_weight[i]);
            hi = fmax(hi, g->real_weight[i]);
        }
        snprintf(text, len, "[%.17g, %.17g]", lo, hi);
    } else {
        int64_t lo = g->int_weight[0], hi = lo;
        for (int64_t i = 1; i < g->m; i++) {
            lo = g->int_weight[i] < lo ? g->int_weight[i] : lo;
            hi = g->int_weight[i] > hi ? g->int_weight[i] : hi;
        }
        snprintf(text, len, "[%lld, %lld]", LL(lo), LL(hi));
    }
}
