/* The array API of portaflow.h: networks and weighted graphs built from
 * arrays, capacities set in bulk, and a solution's cut as vertex and arc
 * lists. Every array is checked whole before anything is built or
 * changed, so an error leaves no partial result. */
#include <stdlib.h>

#include "../common/network.h"
#include "../common/status.h"

/* Checks arc i's ids (already shifted to 0-based) against n. */
static int check_arc_ids(int64_t i, int64_t tail, int64_t head, int64_t n, int base,
                         pf_status *st)
{
    if (tail < 0 || tail >= n)
        return pf_fail(st, PF_E_INPUT, "arc %lld: tail %lld outside %d..%lld", (long long)i,
                       (long long)(tail + base), base, (long long)(n - 1 + base));
    if (head < 0 || head >= n)
        return pf_fail(st, PF_E_INPUT, "arc %lld: head %lld outside %d..%lld", (long long)i,
                       (long long)(head + base), base, (long long)(n - 1 + base));
    return PF_OK;
}

static int check_capacity(int64_t i, int64_t capacity, pf_status *st)
{
    if (capacity < 0 || capacity > PF_CAP_MAX)
        return pf_fail(st, PF_E_INPUT, "arc %lld: capacity %lld outside 0..2^62", (long long)i,
                       (long long)capacity);
    return PF_OK;
}

static int check_base(int base, pf_status *st)
{
    if (base != 0 && base != 1)
        return pf_fail(st, PF_E_USAGE, "id base %d: must be 0 or 1", base);
    return PF_OK;
}

/* The arguments every builder takes: the id base, and `arcs` arcs with
 * each of their arrays given (values: capacities or weights). */
static int check_arc_arrays(int base, int64_t arcs, const int64_t *tails, const int64_t *heads,
                            const void *values, pf_status *st)
{
    int rc = check_base(base, st);
    if (rc)
        return rc;
    if (arcs < 0 || (arcs > 0 && (!tails || !heads || !values)))
        return pf_fail(st, PF_E_USAGE, "arc count %lld with %s arrays", (long long)arcs,
                       arcs < 0 ? "a negative count of" : "missing");
    return PF_OK;
}

pf_network *pf_network_from_arrays(int64_t vertices, int64_t source, int64_t sink,
                                   int64_t arcs, const int64_t *tails, const int64_t *heads,
                                   const int64_t *capacities, int base, pf_status *st)
{
    if (check_arc_arrays(base, arcs, tails, heads, capacities, st))
        return NULL;
    pf_network *net = pf_network_new(vertices, source - base, sink - base, st);
    if (!net)
        return NULL;
    if (arcs > 0 && pf_network_reserve(net, arcs, st)) {
        pf_network_free(net);
        return NULL;
    }
    /* One pass: check and copy; the first bad arc frees it all. */
    for (int64_t i = 0; i < arcs; i++) {
        int64_t tail = tails[i] - base, head = heads[i] - base;
        if (check_arc_ids(i, tail, head, vertices, base, st) ||
            check_capacity(i, capacities[i], st)) {
            pf_network_free(net);
            return NULL;
        }
        net->tail[i] = (int32_t)tail;
        net->head[i] = (int32_t)head;
        net->cap[i] = capacities[i];
    }
    net->m = arcs;
    pf_status_ok(st);
    return net;
}

int pf_network_set_capacities(pf_network *net, int64_t count, const int64_t *arc_ids,
                              const int64_t *capacities, pf_status *st)
{
    if (count < 0 || (count > 0 && !capacities))
        return pf_fail(st, PF_E_USAGE, "capacity update of %lld arcs without values",
                       (long long)count);
    if (!arc_ids && count > net->m)
        return pf_fail(st, PF_E_INPUT, "%lld capacities for a network of %lld arcs",
                       (long long)count, (long long)net->m);
    for (int64_t k = 0; k < count; k++) {
        int64_t arc = arc_ids ? arc_ids[k] : k;
        if (arc < 0 || arc >= net->m)
            return pf_fail(st, PF_E_INPUT, "update %lld: arc %lld outside 0..%lld", (long long)k,
                           (long long)arc, (long long)net->m - 1);
        if (check_capacity(arc, capacities[k], st))
            return PF_E_INPUT;
    }
    for (int64_t k = 0; k < count; k++)
        net->cap[arc_ids ? arc_ids[k] : k] = capacities[k];
    pf_status_ok(st);
    return PF_OK;
}

void pf_network_get_arcs(const pf_network *net, int64_t *tails, int64_t *heads,
                         int64_t *capacities)
{
    for (int64_t i = 0; i < net->m; i++) {
        if (tails)
            tails[i] = net->tail[i];
        if (heads)
            heads[i] = net->head[i];
        if (capacities)
            capacities[i] = net->cap[i];
    }
}

int64_t pf_solution_cut_sides(const pf_network *net, const pf_solution *sol,
                              int64_t *source_vertices, int64_t *sink_vertices)
{
    if (!sol->source_side)
        return -1;
    int64_t on_source = 0, on_sink = 0;
    for (int64_t v = 0; v < net->n; v++) {
        if (sol->source_side[v]) {
            if (source_vertices)
                source_vertices[on_source] = v;
            on_source++;
        } else {
            if (sink_vertices)
                sink_vertices[on_sink] = v;
            on_sink++;
        }
    }
    return on_source;
}

int64_t pf_solution_cut_arcs(const pf_network *net, const pf_solution *sol, int64_t *arc_ids)
{
    if (!sol->source_side)
        return -1;
    int64_t count = 0;
    for (int64_t i = 0; i < net->m; i++)
        if (sol->source_side[net->tail[i]] && !sol->source_side[net->head[i]] &&
            net->cap[i] > 0) {
            if (arc_ids)
                arc_ids[count] = i;
            count++;
        }
    return count;
}

pf_wgraph *pf_wgraph_from_arrays(int64_t vertices, int64_t arcs, const int64_t *tails,
                                 const int64_t *heads, const double *weights, int base,
                                 pf_status *st)
{
    if (check_arc_arrays(base, arcs, tails, heads, weights, st))
        return NULL;
    for (int64_t i = 0; i < arcs; i++)
        if (check_arc_ids(i, tails[i] - base, heads[i] - base, vertices, base, st))
            return NULL;
    pf_wgraph *g = pf_wgraph_new(vertices, st);
    for (int64_t i = 0; g && i < arcs; i++)
        if (pf_wgraph_add_arc_real(g, tails[i] - base, heads[i] - base, weights[i], st)) {
            pf_status keep = *st;
            pf_wgraph_free(g);
            pf_fail(st, keep.code, "arc %lld: %s", (long long)i, keep.message);
            return NULL;
        }
    return g;
}
