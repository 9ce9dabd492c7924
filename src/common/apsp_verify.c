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
 * at j (no loop through zero-weight cycles). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_check.h"
#include "status.h"
#include "wgraph.h"

typedef struct verify_ctx {
    const pf_wgraph *g;
    const pf_apsp_result *res;
    int64_t n;
    int64_t *first;   /* out-arc CSR: n+1 */
    int64_t *arc;     /* input arc index, grouped by tail */
    double *row;      /* d(i,.) of the source being checked, as doubles */
    uint8_t *finite;  /* d(i,v) is a distance, not "no path" */
    int32_t *queue;
    uint8_t *reached;
    double *lightest; /* lightest arc i -> v, for next hops; INFINITY = none */
    pf_status *st;
} verify_ctx;

static double arc_weight(const pf_wgraph *g, int64_t a)
{
    return g->real_weight ? g->real_weight[a] : (double)g->int_weight[a];
}

/* Exact for integer kinds up to 2^53, which covers every int32 distance
 * and int64 ones of realistic size; reals get a relative tolerance. */
static int same_value(const verify_ctx *c, double a, double b)
{
    if (c->res->kind != PF_DIST_F32)
        return a == b;
    return fabs(a - b) <= 1e-5 * (fabs(a) + fabs(b)) + 1e-30;
}

static int at_most(const verify_ctx *c, double a, double b)
{
    return a <= b || same_value(c, a, b);
}

static void load_row(verify_ctx *c, int64_t i)
{
    int64_t n = c->n;
    for (int64_t v = 0; v < n; v++) {
        int64_t at = i * n + v;
        switch (c->res->kind) {
        case PF_DIST_I32: {
            int32_t d = ((const int32_t *)c->res->dist)[at];
            c->finite[v] = d != PF_APSP_NONE_I32;
            c->row[v] = d;
            break;
        }
        case PF_DIST_I64: {
            int64_t d = ((const int64_t *)c->res->dist)[at];
            c->finite[v] = d != PF_APSP_NONE_I64;
            c->row[v] = (double)d;
            break;
        }
        default: {
            float d = ((const float *)c->res->dist)[at];
            c->finite[v] = !isinf(d) && !isnan(d);
            c->row[v] = d;
        }
        }
    }
}

static double dist_at(const verify_ctx *c, int64_t i, int64_t j)
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

static int check_source(verify_ctx *c, int64_t i)
{
    const pf_wgraph *g = c->g;
    load_row(c, i);
    if (!c->finite[i] || c->row[i] != 0)
        return pf_fail(c->st, PF_E_VERIFY, "d(%lld,%lld) is %g, not 0", (long long)i + 1,
                       (long long)i + 1, c->row[i]);
    for (int64_t a = 0; a < g->m; a++) {
        int32_t u = g->tail[a], v = g->head[a];
        if (!c->finite[u])
            continue;
        double via = c->row[u] + arc_weight(g, a);
        if (!c->finite[v] || !at_most(c, c->row[v], via))
            return pf_fail(c->st, PF_E_VERIFY,
                           "from %lld: arc %d->%d (weight %g) gives %g, but d(%lld,%d) is %s%g",
                           (long long)i + 1, u + 1, v + 1, arc_weight(g, a), via,
                           (long long)i + 1, v + 1, c->finite[v] ? "" : "no path, not ",
                           c->finite[v] ? c->row[v] : via);
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
            if (!c->reached[v] && same_value(c, c->row[v], c->row[u] + arc_weight(g, a))) {
                c->reached[v] = 1;
                c->queue[tail++] = v;
            }
        }
    }
    if (tail != finite_count) {
        for (int64_t v = 0; v < c->n; v++)
            if (c->finite[v] && !c->reached[v])
                return pf_fail(c->st, PF_E_VERIFY,
                               "d(%lld,%lld) = %g is not the weight of any path from %lld",
                               (long long)i + 1, (long long)v + 1, c->row[v], (long long)i + 1);
    }
    return PF_OK;
}

/* next(i,.) against the lightest arcs out of i and the rows of the hops. */
static int check_next_row(verify_ctx *c, int64_t i)
{
    const pf_wgraph *g = c->g;
    const int32_t *next = c->res->next + i * c->n;
    for (int64_t v = 0; v < c->n; v++)
        c->lightest[v] = INFINITY;
    for (int64_t at = c->first[i]; at < c->first[i + 1]; at++) {
        int64_t a = c->arc[at];
        double w = arc_weight(g, a);
        if (w < c->lightest[g->head[a]])
            c->lightest[g->head[a]] = w;
    }
    for (int64_t j = 0; j < c->n; j++) {
        int32_t hop = next[j];
        if (!c->finite[j] || j == i) {
            if (hop != (j == i ? (int32_t)i : -1))
                return pf_fail(c->st, PF_E_VERIFY, "next(%lld,%lld) is %d, expected %s",
                               (long long)i + 1, (long long)j + 1, hop + 1,
                               j == i ? "the vertex itself" : "none (no path)");
            continue;
        }
        if (hop < 0 || hop >= c->n || isinf(c->lightest[hop]) ||
            !same_value(c, c->row[j], c->lightest[hop] + dist_at(c, hop, j)))
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
    verify_ctx c = {.g = g, .res = res, .n = n, .st = st};
    int64_t count = max_sources > 0 && max_sources < n ? max_sources : n;
    int64_t *sources = pf_alloc((size_t)count, sizeof *sources, st);
    c.first = pf_calloc((size_t)n + 1, sizeof *c.first, st);
    c.arc = pf_alloc((size_t)g->m + 1, sizeof *c.arc, st);
    c.row = pf_alloc((size_t)n, sizeof *c.row, st);
    c.finite = pf_alloc((size_t)n, 1, st);
    c.queue = pf_alloc((size_t)n, sizeof *c.queue, st);
    c.reached = pf_alloc((size_t)n, 1, st);
    c.lightest = pf_alloc((size_t)n, sizeof *c.lightest, st);
    int rc = PF_E_NOMEM;
    if (!sources || !c.first || !c.arc || !c.row || !c.finite || !c.queue || !c.reached ||
        !c.lightest)
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
    free(sources);
    free(c.first);
    free(c.arc);
    free(c.row);
    free(c.finite);
    free(c.queue);
    free(c.reached);
    free(c.lightest);
    if (!rc)
        pf_status_ok(st);
    return rc;
}
