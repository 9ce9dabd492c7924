/* pf_apsp_verify: an independent check of an APSP result against the
 * input arcs alone (no Floyd-Warshall code is shared with the solver).
 *
 * For a source i, d(i,.) are the shortest-path distances exactly when
 * d(i,i) = 0, no arc (u,v,w) has d(i,v) > d(i,u) + w (then, by induction
 * along a shortest path, no d is above the true distance), and every vertex
 * with a finite d is reached from i along "tight" arcs (d(i,v) = d(i,u) + w):
 * that walk is a real path of weight d(i,v), so no d is below the true
 * distance either. The same two rules make "no path" exactly the vertices
 * that i does not reach.
 *
 * Next hops: next(i,j) = h must be an arc i -> h with d(i,j) = w(i,h) +
 * d(h,j), and following next toward j from every checked source must end
 * at j (no loop through zero-weight cycles).
 *
 * Integer distances over integer weights are compared exactly (a double
 * would merge neighbouring int64 values past 2^53); float32 ones with a
 * tolerance relative to the terms of each sum (same_sum). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_check.h"
#include "status.h"
#include "wgraph.h"

typedef struct verify_ctx {
    const pf_wgraph *g;
    const pf_apsp_result *res;
    int64_t n;
    int exact;        /* integer distances over integer weights: compare exactly */
    int64_t *first;   /* out-arc CSR: n+1 */
    int64_t *arc;     /* input arc index, grouped by tail */
    int64_t *irow;    /* exact: d(i,.) of the source being checked */
    double *row;      /* otherwise: d(i,.) as doubles */
    uint8_t *finite;  /* d(i,v) is a distance, not "no path" */
    int32_t *queue;
    uint8_t *reached;
    int64_t *ilightest; /* exact: lightest arc i -> v, for next hops; INT64_MAX = none */
    double *lightest;   /* otherwise; INFINITY = none */
    pf_status *st;
} verify_ctx;

/* Integer sums of a distance (|d| < 2^62) and a weight (|w| <= 2^62) can
 * pass int64: they are formed in __int128 and compared exactly. A double
 * holds integers exactly only up to 2^53. */
typedef __int128 exact_sum;

static double arc_weight(const pf_wgraph *g, int64_t a)
{
    return g->real_weight ? g->real_weight[a] : (double)g->int_weight[a];
}

/* Reals (float32 results) get a tolerance relative to the terms compared:
 * d = x + y holds when d is within 1e-5 of |d| + |x| + |y|. Rounding a sum
 * to float32 errs relative to its terms, not to its result: a sum that
 * cancels (-0.1 + 0.1, or 4.6e14 - 4.6e14) is exact to 1e-5 of its result
 * only by luck. */
static int same_sum(double d, double x, double y)
{
    double via = x + y;
    return d == via || fabs(d - via) <= 1e-5 * (fabs(d) + fabs(x) + fabs(y)) + 1e-30;
}

static int64_t int_dist_at(const verify_ctx *c, int64_t i, int64_t j)
{
    int64_t at = i * c->n + j;
    return c->res->kind == PF_DIST_I32 ? ((const int32_t *)c->res->dist)[at]
                                       : ((const int64_t *)c->res->dist)[at];
}

static double real_dist_at(const verify_ctx *c, int64_t i, int64_t j)
{
    int64_t at = i * c->n + j;
    switch (c->res->kind) {
    case PF_DIST_I32:
        return ((const int32_t *)c->res->dist)[at];
    case PF_DIST_I64:
        return (double)((const int64_t *)c->res->dist)[at];
    default:
        return ((const float *)c->res->dist)[at];
    }
}

static void load_row(verify_ctx *c, int64_t i)
{
    for (int64_t v = 0; v < c->n; v++) {
        switch (c->res->kind) {
        case PF_DIST_I32:
        case PF_DIST_I64: {
            int64_t d = int_dist_at(c, i, v);
            c->finite[v] = d != (c->res->kind == PF_DIST_I32 ? PF_APSP_NONE_I32
                                                             : PF_APSP_NONE_I64);
            break;
        }
        default: {
            double d = real_dist_at(c, i, v);
            c->finite[v] = !isinf(d) && !isnan(d);
        }
        }
        if (c->exact)
            c->irow[v] = int_dist_at(c, i, v);
        else
            c->row[v] = real_dist_at(c, i, v);
    }
}

/* The sign of d(i,v) - (d(i,u) + w(a)): > 0 means arc a shortens the path
 * to v; 0 (within the tolerance for reals) means it is tight. */
static int compare_via(const verify_ctx *c, int32_t v, int32_t u, int64_t a)
{
    if (c->exact) {
        exact_sum via = (exact_sum)c->irow[u] + c->g->int_weight[a];
        return (exact_sum)c->irow[v] < via ? -1 : (exact_sum)c->irow[v] > via;
    }
    double w = arc_weight(c->g, a), via = c->row[u] + w;
    if (same_sum(c->row[v], c->row[u], w))
        return 0;
    return c->row[v] < via ? -1 : 1;
}

/* d(i,v) as text, for messages. */
static const char *show_row(const verify_ctx *c, int64_t v, char *buf, size_t len)
{
    if (c->exact)
        snprintf(buf, len, "%lld", (long long)c->irow[v]);
    else
        snprintf(buf, len, "%g", c->row[v]);
    return buf;
}

/* d(i,u) + w(a) as text: exact integers print in full (past 2^53 "%g"
 * would show two different values as the same). */
static const char *show_via(const verify_ctx *c, int32_t u, int64_t a, char *buf, size_t len)
{
    if (!c->exact) {
        snprintf(buf, len, "%g", c->row[u] + arc_weight(c->g, a));
        return buf;
    }
    exact_sum via = (exact_sum)c->irow[u] + c->g->int_weight[a];
    if (via > INT64_MAX || via < INT64_MIN)
        snprintf(buf, len, "%.17g", (double)via);
    else
        snprintf(buf, len, "%lld", (long long)via);
    return buf;
}

static const char *show_weight(const verify_ctx *c, int64_t a, char *buf, size_t len)
{
    if (c->g->real_weight)
        snprintf(buf, len, "%g", c->g->real_weight[a]);
    else
        snprintf(buf, len, "%lld", (long long)c->g->int_weight[a]);
    return buf;
}

static int check_source(verify_ctx *c, int64_t i)
{
    const pf_wgraph *g = c->g;
    char d_text[48], via_text[48], w_text[48];
    load_row(c, i);
    int zero = c->exact ? c->irow[i] == 0 : c->row[i] == 0;
    if (!c->finite[i] || !zero)
        return pf_fail(c->st, PF_E_VERIFY, "d(%lld,%lld) is %s, not 0", (long long)i + 1,
                       (long long)i + 1, show_row(c, i, d_text, sizeof d_text));
    for (int64_t a = 0; a < g->m; a++) {
        int32_t u = g->tail[a], v = g->head[a];
        if (!c->finite[u])
            continue;
        if (!c->finite[v] || compare_via(c, v, u, a) > 0)
            return pf_fail(c->st, PF_E_VERIFY,
                           "from %lld: arc %d->%d (weight %s) gives %s, but d(%lld,%d) is %s%s",
                           (long long)i + 1, u + 1, v + 1, show_weight(c, a, w_text, sizeof w_text),
                           show_via(c, u, a, via_text, sizeof via_text), (long long)i + 1, v + 1,
                           c->finite[v] ? "" : "no path, not ",
                           c->finite[v] ? show_row(c, v, d_text, sizeof d_text) : via_text);
    }
    /* Tight arcs from i must reach every vertex with a finite distance. */
    memset(c->reached, 0, (size_t)c->n);
    int64_t head = 0, tail = 0, finite_count = 0;
    for (int64_t v = 0; v < c->n; v++)
        finite_count += c->finite[v];
    c->queue[tail++] = (int32_t)i;
    c->reached[i] = 1;
    while (head < tail) {
        int32_t u = c->queue[head++];
        for (int64_t at = c->first[u]; at < c->first[u + 1]; at++) {
            int64_t a = c->arc[at];
            int32_t v = g->head[a];
            if (!c->reached[v] && compare_via(c, v, u, a) == 0) {
                c->reached[v] = 1;
                c->queue[tail++] = v;
            }
        }
    }
    if (tail != finite_count) {
        for (int64_t v = 0; v < c->n; v++)
            if (c->finite[v] && !c->reached[v])
                return pf_fail(c->st, PF_E_VERIFY,
                               "d(%lld,%lld) = %s is not the weight of any path from %lld",
                               (long long)i + 1, (long long)v + 1,
                               show_row(c, v, d_text, sizeof d_text), (long long)i + 1);
    }
    return PF_OK;
}

/* The lightest arcs out of i, per head (for next hops). */
static void load_lightest(verify_ctx *c, int64_t i)
{
    const pf_wgraph *g = c->g;
    for (int64_t v = 0; v < c->n; v++) {
        if (c->exact)
            c->ilightest[v] = INT64_MAX;
        else
            c->lightest[v] = INFINITY;
    }
    for (int64_t at = c->first[i]; at < c->first[i + 1]; at++) {
        int64_t a = c->arc[at];
        int32_t v = g->head[a];
        if (c->exact && g->int_weight[a] < c->ilightest[v])
            c->ilightest[v] = g->int_weight[a];
        else if (!c->exact && arc_weight(g, a) < c->lightest[v])
            c->lightest[v] = arc_weight(g, a);
    }
}

/* Does an arc i -> hop followed by a shortest path hop ~> j weigh d(i,j)? */
static int hop_starts_path(const verify_ctx *c, int32_t hop, int64_t j)
{
    if (c->exact)
        return c->ilightest[hop] != INT64_MAX &&
               (exact_sum)c->irow[j] == (exact_sum)c->ilightest[hop] + int_dist_at(c, hop, j);
    return !isinf(c->lightest[hop]) &&
           same_sum(c->row[j], c->lightest[hop], real_dist_at(c, hop, j));
}

/* next(i,.) against the lightest arcs out of i and the rows of the hops. */
static int check_next_row(verify_ctx *c, int64_t i)
{
    const int32_t *next = c->res->next + i * c->n;
    load_lightest(c, i);
    for (int64_t j = 0; j < c->n; j++) {
        int32_t hop = next[j];
        if (!c->finite[j] || j == i) {
            if (hop != (j == i ? (int32_t)i : -1))
                return pf_fail(c->st, PF_E_VERIFY, "next(%lld,%lld) is %d, expected %s",
                               (long long)i + 1, (long long)j + 1, hop + 1,
                               j == i ? "the vertex itself" : "none (no path)");
            continue;
        }
        if (hop < 0 || hop >= c->n || !hop_starts_path(c, hop, j))
            return pf_fail(c->st, PF_E_VERIFY,
                           "next(%lld,%lld) = %d does not start a shortest path",
                           (long long)i + 1, (long long)j + 1, hop + 1);
    }
    return PF_OK;
}

int pf_apsp_next_walks_end(int64_t n, const int32_t *next, const int64_t *sources,
                           int64_t count, pf_status *st)
{
    int64_t *proved = pf_alloc((size_t)n, sizeof *proved, st);   /* column it leads to */
    int64_t *on_walk = pf_alloc((size_t)n, sizeof *on_walk, st); /* walk id */
    if (!proved || !on_walk) {
        free(proved);
        free(on_walk);
        return PF_E_NOMEM;
    }
    for (int64_t v = 0; v < n; v++)
        proved[v] = on_walk[v] = -1;
    int rc = PF_OK;
    int64_t walk = 0;
    for (int64_t j = 0; j < n && !rc; j++) {
        proved[j] = j;
        for (int64_t s = 0; s < count && !rc; s++, walk++) {
            int64_t start = sources ? sources[s] : s, v = start;
            if (next[v * n + j] < 0)
                continue; /* no path: the caller checks that d says so too */
            while (v >= 0 && v < n && proved[v] != j && on_walk[v] != walk) {
                on_walk[v] = walk;
                v = next[v * n + j];
            }
            if (v < 0 || v >= n || proved[v] != j) {
                rc = pf_fail(st, PF_E_VERIFY, "next hops from %lld toward %lld %s",
                             (long long)start + 1, (long long)j + 1,
                             v < 0 || v >= n ? "stop before they get there" : "run round a cycle");
                break;
            }
            for (int64_t u = start; proved[u] != j; u = next[u * n + j])
                proved[u] = j;
        }
    }
    free(proved);
    free(on_walk);
    return rc;
}

int pf_apsp_verify(const pf_wgraph *g, const pf_apsp_result *res, int64_t max_sources,
                   int64_t *checked, pf_status *st)
{
    int64_t n = g->n;
    *checked = 0;
    if (res->n != n || !res->dist)
        return pf_fail(st, PF_E_VERIFY, "the result has %lld vertices, the graph %lld",
                       (long long)res->n, (long long)n);
    verify_ctx c = {.g = g, .res = res, .n = n, .st = st,
                    .exact = res->kind != PF_DIST_F32 && !g->real_weight};
    int64_t count = max_sources > 0 && max_sources < n ? max_sources : n;
    int64_t *sources = pf_alloc((size_t)count, sizeof *sources, st);
    c.first = pf_calloc((size_t)n + 1, sizeof *c.first, st);
    c.arc = pf_alloc((size_t)g->m + 1, sizeof *c.arc, st);
    if (c.exact) {
        c.irow = pf_alloc((size_t)n, sizeof *c.irow, st);
        c.ilightest = pf_alloc((size_t)n, sizeof *c.ilightest, st);
    } else {
        c.row = pf_alloc((size_t)n, sizeof *c.row, st);
        c.lightest = pf_alloc((size_t)n, sizeof *c.lightest, st);
    }
    c.finite = pf_alloc((size_t)n, 1, st);
    c.queue = pf_alloc((size_t)n, sizeof *c.queue, st);
    c.reached = pf_alloc((size_t)n, 1, st);
    int rc = PF_E_NOMEM;
    if (!sources || !c.first || !c.arc || !(c.exact ? c.irow && c.ilightest : c.row && c.lightest) ||
        !c.finite || !c.queue || !c.reached)
        goto done;
    for (int64_t a = 0; a < g->m; a++)
        c.first[g->tail[a] + 1]++;
    for (int64_t v = 0; v < n; v++)
        c.first[v + 1] += c.first[v];
    for (int64_t a = 0; a < g->m; a++)
        c.arc[c.first[g->tail[a]]++] = a;
    for (int64_t v = n; v > 0; v--)
        c.first[v] = c.first[v - 1];
    c.first[0] = 0;
    for (int64_t s = 0; s < count; s++)
        sources[s] = count == n ? s : s * n / count;
    rc = PF_OK;
    for (int64_t s = 0; s < count && !rc; s++) {
        rc = check_source(&c, sources[s]);
        if (!rc && res->next)
            rc = check_next_row(&c, sources[s]);
    }
    if (!rc && res->next)
        rc = pf_apsp_next_walks_end(n, res->next, sources, count, st);
    if (!rc)
        *checked = count;
done:
    PF_FREE_ALL(sources, c.first, c.arc, c.row, c.irow, c.ilightest, c.finite, c.queue, c.reached,
                c.lightest);
    if (!rc)
        pf_status_ok(st);
    return rc;
}
