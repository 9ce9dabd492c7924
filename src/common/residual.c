#include "residual.h"

#include <stdlib.h>
#include <string.h>

#include "status.h"

/* Counting sort by tail: two passes over the input arcs, O(n + m), so a
 * 10M-arc graph builds in well under a second. */
int pf_residual_build(const pf_network *net, pf_residual *g, pf_status *st)
{
    memset(g, 0, sizeof *g);
    const int64_t n = net->n, m = net->m;
    g->n = n;
    g->source = net->source;
    g->sink = net->sink;
    g->input_arcs = m;
    g->first = pf_calloc((size_t)n + 1, sizeof *g->first, st);
    g->fwd_of_input = pf_alloc((size_t)m, sizeof *g->fwd_of_input, st);
    if (!g->first || !g->fwd_of_input)
        goto fail;

    for (int64_t i = 0; i < m; i++) {
        if (net->tail[i] == net->head[i])
            continue;
        g->first[net->tail[i] + 1]++;
        g->first[net->head[i] + 1]++;
    }
    for (int64_t u = 0; u < n; u++)
        g->first[u + 1] += g->first[u];
    g->arcs = g->first[n];

    g->head = pf_alloc((size_t)g->arcs, sizeof *g->head, st);
    g->rev = pf_alloc((size_t)g->arcs, sizeof *g->rev, st);
    g->cap = pf_alloc((size_t)g->arcs, sizeof *g->cap, st);
    int64_t *next = pf_alloc((size_t)n, sizeof *next, st);
    if (!g->head || !g->rev || !g->cap || !next) {
        free(next);
        goto fail;
    }
    memcpy(next, g->first, (size_t)n * sizeof *next);
    for (int64_t i = 0; i < m; i++) {
        int32_t u = net->tail[i], v = net->head[i];
        if (u == v) {
            g->fwd_of_input[i] = -1; /* self-loops carry no flow */
            continue;
        }
        int64_t a = next[u]++, b = next[v]++;
        g->head[a] = v;
        g->cap[a] = net->cap[i];
        g->rev[a] = b;
        g->head[b] = u;
        g->cap[b] = 0;
        g->rev[b] = a;
        g->fwd_of_input[i] = a;
    }
    free(next);
    return PF_OK;
fail:
    pf_residual_free(g);
    return st ? st->code : PF_E_NOMEM;
}

void pf_residual_free(pf_residual *g)
{
    free(g->first);
    free(g->head);
    free(g->rev);
    free(g->cap);
    free(g->fwd_of_input);
    memset(g, 0, sizeof *g);
}

void pf_residual_arc_flows(const pf_residual *g, const int64_t *res, int64_t *arc_flow)
{
    for (int64_t i = 0; i < g->input_arcs; i++) {
        int64_t a = g->fwd_of_input[i];
        arc_flow[i] = a < 0 ? 0 : res[g->rev[a]];
    }
}

int pf_residual_reaches(const pf_residual *g, const int64_t *res, int32_t target, uint8_t *reach,
                        pf_status *st)
{
    int32_t *queue = pf_alloc((size_t)g->n, sizeof *queue, st);
    if (!queue)
        return PF_E_NOMEM;
    memset(reach, 0, (size_t)g->n);
    int64_t qh = 0, qt = 0;
    queue[qt++] = target;
    reach[target] = 1;
    while (qh < qt) {
        int32_t v = queue[qh++];
        for (int64_t a = g->first[v]; a < g->first[v + 1]; a++) {
            int32_t u = g->head[a];
            /* u reaches v if the arc u->v (the reverse of a) has residual. */
            if (!reach[u] && res[g->rev[a]] > 0) {
                reach[u] = 1;
                queue[qt++] = u;
            }
        }
    }
    free(queue);
    return PF_OK;
}

int pf_residual_rev_offsets(const pf_residual *g, int32_t *out, pf_status *st)
{
    for (int64_t a = 0; a < g->arcs; a++) {
        int64_t offset = g->rev[a] - g->first[g->head[a]];
        if (offset > INT32_MAX)
            return pf_fail(st, PF_E_INPUT, "vertex %d has more than 2^31-1 arcs",
                           g->head[a] + 1);
        out[a] = (int32_t)offset;
    }
    return PF_OK;
}
