/* The dynamic residual graph's invariant check (pf_dyn_verify,
 * dyn_graph.h), for tests: the ranges and their bookkeeping, every slot
 * live and paired or dead and well-formed, the id map, and the preflow. */
#include "dyn_graph.h"

#include <stdlib.h>
#include <string.h>

#include "status.h"

static int check_ranges(const pf_dyn_graph *d, pf_status *st)
{
    const pf_residual *g = &d->view;
    if (g->n < 2 || g->n > d->vertex_cap || g->source < 0 || g->source >= g->n ||
        g->sink < 0 || g->sink >= g->n)
        return pf_fail(st, PF_E_VERIFY, "dyn: n %lld (room %lld), source %d, sink %d",
                       (long long)g->n, (long long)d->vertex_cap, (int)g->source, (int)g->sink);
    if (g->first[0] != 0 || g->first[g->n] != g->arcs || g->arcs > d->slot_cap)
        return pf_fail(st, PF_E_VERIFY, "dyn: first[0] %lld, first[n] %lld, arcs %lld, room %lld",
                       (long long)g->first[0], (long long)g->first[g->n], (long long)g->arcs,
                       (long long)d->slot_cap);
    if (g->input_arcs != d->ids || g->output_arcs != d->ids || g->fwd_of_input)
        return pf_fail(st, PF_E_VERIFY, "dyn: the view's arc counts are not the ids");
    for (int64_t u = 0; u < g->n; u++) {
        int64_t size = g->first[u + 1] - g->first[u];
        if (size < 0 || d->used[u] < 0 || d->used[u] > size || d->dead[u] < 0 ||
            d->dead[u] > d->used[u])
            return pf_fail(st, PF_E_VERIFY, "dyn: vertex %lld: range %lld, used %lld, dead %lld",
                           (long long)u, (long long)size, (long long)d->used[u],
                           (long long)d->dead[u]);
    }
    return PF_OK;
}

/* Slot a of vertex u, which is dead: its form. */
static int check_dead(const pf_dyn_graph *d, int64_t u, int64_t a, pf_status *st)
{
    if (d->view.head[a] != u || d->view.cap[a] != 0 || d->res[a] != 0)
        return pf_fail(st, PF_E_VERIFY,
                       "dyn: free slot %lld of vertex %lld: head %d, cap %lld, res %lld",
                       (long long)a, (long long)u, (int)d->view.head[a],
                       (long long)d->view.cap[a], (long long)d->res[a]);
    return PF_OK;
}

/* Slot a of vertex u, which is live: paired, capacities and residuals. */
static int check_live(const pf_dyn_graph *d, int64_t u, int64_t a, pf_status *st)
{
    const pf_residual *g = &d->view;
    int64_t v = g->head[a], r = g->rev[a];
    if (v < 0 || v >= g->n || v == u || r < g->first[v] || r >= g->first[v] + d->used[v] ||
        g->rev[r] != a || g->head[r] != u)
        return pf_fail(st, PF_E_VERIFY, "dyn: slot %lld of vertex %lld: head %lld, rev %lld "
                       "not its pair", (long long)a, (long long)u, (long long)v, (long long)r);
    if (g->cap[a] < 0 || d->res[a] < 0 || (g->cap[a] != 0 && g->cap[r] != 0) ||
        d->res[a] + d->res[r] != g->cap[a] + g->cap[r])
        return pf_fail(st, PF_E_VERIFY, "dyn: pair %lld/%lld: caps %lld/%lld, residuals "
                       "%lld/%lld", (long long)a, (long long)r, (long long)g->cap[a],
                       (long long)g->cap[r], (long long)d->res[a], (long long)d->res[r]);
    if (u == g->source && d->res[a] != 0)
        return pf_fail(st, PF_E_VERIFY, "dyn: source slot %lld has residual %lld", (long long)a,
                       (long long)d->res[a]);
    return PF_OK;
}

/* Every slot; `flow_excess` gets inflow - outflow of every vertex. */
static int check_slots(const pf_dyn_graph *d, int64_t *flow_excess, int64_t *live_pairs,
                       int64_t *source_cap, pf_status *st)
{
    const pf_residual *g = &d->view;
    for (int64_t u = 0; u < g->n; u++) {
        int64_t dead = 0;
        for (int64_t a = g->first[u]; a < g->first[u + 1]; a++) {
            int in_use = a < g->first[u] + d->used[u];
            int rc;
            if (g->rev[a] == a || !in_use) {
                dead += in_use;
                if (!in_use && g->rev[a] != a)
                    return pf_fail(st, PF_E_VERIFY, "dyn: free slot %lld of vertex %lld has "
                                   "rev %lld", (long long)a, (long long)u, (long long)g->rev[a]);
                rc = check_dead(d, u, a, st);
            } else {
                rc = check_live(d, u, a, st);
            }
            if (rc)
                return rc;
            if (g->rev[a] != a && g->cap[a] > 0) {
                int64_t flow = g->cap[a] - d->res[a];
                flow_excess[u] -= flow;
                flow_excess[g->head[a]] += flow;
                *live_pairs += 1;
                if (u == g->source)
                    *source_cap += g->cap[a];
            } else if (g->rev[a] != a && g->cap[a] == 0 && g->cap[g->rev[a]] == 0 &&
                       a < g->rev[a]) {
                *live_pairs += 1; /* a pair of capacity 0 counts once */
            }
        }
        if (dead != d->dead[u])
            return pf_fail(st, PF_E_VERIFY, "dyn: vertex %lld has %lld dead slots, counted %lld",
                           (long long)u, (long long)dead, (long long)d->dead[u]);
    }
    return PF_OK;
}

/* The id map: each live arc's forward slot, ends and capacity; no two ids
 * on one slot (owner: slots entries, -1). */
static int check_ids(const pf_dyn_graph *d, int64_t *owner, pf_status *st)
{
    const pf_residual *g = &d->view;
    for (int64_t i = 0; i < d->ids; i++) {
        int64_t f = d->slot_of[i];
        if (d->deleted[i]) {
            if (f != -1 || d->cap_of[i] != 0)
                return pf_fail(st, PF_E_VERIFY, "dyn: deleted arc %lld: slot %lld, cap %lld",
                               (long long)i, (long long)f, (long long)d->cap_of[i]);
            continue;
        }
        if (f < 0) {
            if (d->tail_of[i] != d->head_of[i])
                return pf_fail(st, PF_E_VERIFY, "dyn: arc %lld (%d -> %d) has no slot",
                               (long long)i, (int)d->tail_of[i], (int)d->head_of[i]);
            continue;
        }
        int64_t u = d->tail_of[i];
        if (f >= g->arcs || u < 0 || u >= g->n || f < g->first[u] ||
            f >= g->first[u] + d->used[u] || g->rev[f] == f || g->head[f] != d->head_of[i] ||
            g->cap[f] != d->cap_of[i] || g->cap[g->rev[f]] != 0)
            return pf_fail(st, PF_E_VERIFY, "dyn: arc %lld (%d -> %d, cap %lld) is not at its "
                           "slot %lld", (long long)i, (int)d->tail_of[i], (int)d->head_of[i],
                           (long long)d->cap_of[i], (long long)f);
        if (owner[f] >= 0)
            return pf_fail(st, PF_E_VERIFY, "dyn: arcs %lld and %lld share slot %lld",
                           (long long)owner[f], (long long)i, (long long)f);
        owner[f] = i;
    }
    return PF_OK;
}

static int check_preflow(const pf_dyn_graph *d, const int64_t *flow_excess, pf_status *st)
{
    for (int64_t v = 0; v < d->view.n; v++) {
        if (flow_excess[v] != d->excess[v])
            return pf_fail(st, PF_E_VERIFY, "dyn: vertex %lld: excess %lld, flows give %lld",
                           (long long)v, (long long)d->excess[v], (long long)flow_excess[v]);
        if (v != d->view.source && d->excess[v] < 0 && !d->deficits_pending)
            return pf_fail(st, PF_E_VERIFY, "dyn: vertex %lld has a deficit of %lld",
                           (long long)v, (long long)-d->excess[v]);
    }
    return PF_OK;
}

/* The covered deficits' pairs: each one's arcs where the table says, of
 * one capacity, the source's saturated; cover_total their sum. */
static int check_covers(const pf_dyn_graph *d, pf_status *st)
{
    const pf_residual *g = &d->view;
    int64_t total = 0;
    for (int64_t k = 0; k < d->cover_count; k++) {
        const pf_dyn_cover_pair *p = &d->covers[k];
        if (p->v < 0 || p->v >= g->n || d->cover_of[p->v] != k + 1 || g->head[p->in] != p->v ||
            g->head[g->rev[p->in]] != g->source || g->head[p->out] != g->sink ||
            g->head[g->rev[p->out]] != p->v || g->cap[p->in] != g->cap[p->out] ||
            d->res[p->in] != 0)
            return pf_fail(st, PF_E_VERIFY, "dyn: deficit pair %lld of vertex %d is not "
                           "source -> v, v -> sink of one capacity", (long long)k, (int)p->v);
        total += g->cap[p->in];
    }
    if (total != d->cover_total)
        return pf_fail(st, PF_E_VERIFY, "dyn: the pairs hold %lld, counted %lld",
                       (long long)total, (long long)d->cover_total);
    return PF_OK;
}

int pf_dyn_verify(const pf_dyn_graph *d, pf_status *st)
{
    int rc = check_ranges(d, st);
    if (rc)
        return rc;
    int64_t *flow_excess = pf_calloc((size_t)d->view.n, sizeof *flow_excess, st);
    int64_t *owner = pf_alloc((size_t)d->view.arcs + 1, sizeof *owner, st);
    if (!flow_excess || !owner) {
        free(flow_excess);
        free(owner);
        return PF_E_NOMEM;
    }
    memset(owner, 0xff, ((size_t)d->view.arcs + 1) * sizeof *owner);
    int64_t live_pairs = 0, source_cap = 0;
    rc = check_slots(d, flow_excess, &live_pairs, &source_cap, st);
    if (!rc && live_pairs != d->live_arcs)
        rc = pf_fail(st, PF_E_VERIFY, "dyn: %lld live pairs, counted %lld",
                     (long long)live_pairs, (long long)d->live_arcs);
    if (!rc && source_cap != d->source_cap)
        rc = pf_fail(st, PF_E_VERIFY, "dyn: the source's capacity is %lld, counted %lld",
                     (long long)source_cap, (long long)d->source_cap);
    if (!rc)
        rc = check_ids(d, owner, st);
    if (!rc)
        rc = check_preflow(d, flow_excess, st);
    if (!rc)
        rc = check_covers(d, st);
    free(flow_excess);
    free(owner);
    return rc;
}
