/* The weighted digraph of the APSP side (wgraph.h): creation, arcs with
 * integer or real weights (the first non-integral one switches every
 * weight to real), accessors. */
#include "wgraph.h"

#include <math.h>
#include <stdlib.h>

#include "network.h"
#include "status.h"

pf_wgraph *pf_wgraph_new(int64_t vertices, pf_status *st)
{
    /* APSP allows one vertex (max-flow needs two). */
    if (vertices < 1 || vertices > PF_MAX_VERTICES) {
        pf_fail(st, PF_E_INPUT, "vertex count %lld out of range 1..%lld", (long long)vertices,
                (long long)PF_MAX_VERTICES);
        return NULL;
    }
    pf_wgraph *g = pf_calloc(1, sizeof *g, st);
    if (!g)
        return NULL;
    g->n = vertices;
    pf_status_ok(st);
    return g;
}

int pf_wgraph_reserve(pf_wgraph *g, int64_t arcs, pf_status *st)
{
    if (arcs <= g->m_alloc)
        return PF_OK;
    int32_t *t = realloc(g->tail, (size_t)arcs * sizeof *t);
    if (t)
        g->tail = t;
    int32_t *h = realloc(g->head, (size_t)arcs * sizeof *h);
    if (h)
        g->head = h;
    int ok = t && h;
    if (ok && g->real_weight) {
        double *w = realloc(g->real_weight, (size_t)arcs * sizeof *w);
        ok = w != NULL;
        if (w)
            g->real_weight = w;
    } else if (ok) {
        int64_t *w = realloc(g->int_weight, (size_t)arcs * sizeof *w);
        ok = w != NULL;
        if (w)
            g->int_weight = w;
    }
    if (!ok)
        return pf_fail(st, PF_E_NOMEM, "out of host memory for %lld arcs", (long long)arcs);
    g->m_alloc = arcs;
    return PF_OK;
}

/* From the first non-integral weight on, every weight is kept as a real. */
static int switch_to_real(pf_wgraph *g, pf_status *st)
{
    size_t room = g->m_alloc > 0 ? (size_t)g->m_alloc : 1;
    double *w = pf_alloc(room, sizeof *w, st);
    if (!w)
        return PF_E_NOMEM;
    for (int64_t i = 0; i < g->m; i++)
        w[i] = (double)g->int_weight[i];
    free(g->int_weight);
    g->int_weight = NULL;
    g->real_weight = w;
    return PF_OK;
}

static int append_arc(pf_wgraph *g, int64_t tail, int64_t head, pf_status *st)
{
    if (tail < 0 || tail >= g->n || head < 0 || head >= g->n)
        return pf_fail(st, PF_E_INPUT, "arc (%lld,%lld) names a vertex outside 0..%lld",
                       (long long)tail, (long long)head, (long long)g->n - 1);
    if (g->m == g->m_alloc) {
        int rc = pf_wgraph_reserve(g, g->m_alloc ? g->m_alloc * 2 : 64, st);
        if (rc)
            return rc;
    }
    g->tail[g->m] = (int32_t)tail;
    g->head[g->m] = (int32_t)head;
    return PF_OK;
}

int pf_wgraph_add_arc(pf_wgraph *g, int64_t tail, int64_t head, int64_t weight, pf_status *st)
{
    if (weight < -PF_WEIGHT_MAX || weight > PF_WEIGHT_MAX)
        return pf_fail(st, PF_E_INPUT, "weight %lld outside -2^62..2^62", (long long)weight);
    int rc = append_arc(g, tail, head, st);
    if (rc)
        return rc;
    if (g->real_weight)
        g->real_weight[g->m] = (double)weight;
    else
        g->int_weight[g->m] = weight;
    g->m++;
    return PF_OK;
}

int pf_wgraph_add_arc_real(pf_wgraph *g, int64_t tail, int64_t head, double weight,
                           pf_status *st)
{
    if (!isfinite(weight))
        return pf_fail(st, PF_E_INPUT, "weight %g is not a finite number", weight);
    /* Integral reals stay integers while the graph has only integers. */
    if (!g->real_weight && weight == floor(weight) && fabs(weight) <= (double)PF_WEIGHT_MAX)
        return pf_wgraph_add_arc(g, tail, head, (int64_t)weight, st);
    int rc = append_arc(g, tail, head, st);
    if (!rc && !g->real_weight)
        rc = switch_to_real(g, st);
    if (rc)
        return rc;
    g->real_weight[g->m] = weight;
    g->m++;
    return PF_OK;
}

void pf_wgraph_free(pf_wgraph *g)
{
    if (!g)
        return;
    PF_FREE_ALL(g->tail, g->head, g->int_weight, g->real_weight, g);
}

int64_t pf_wgraph_vertices(const pf_wgraph *g) { return g->n; }
int64_t pf_wgraph_arcs(const pf_wgraph *g) { return g->m; }
int pf_wgraph_is_real(const pf_wgraph *g) { return g->real_weight != NULL; }
