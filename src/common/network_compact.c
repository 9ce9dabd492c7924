/* Solving only the vertices that appear: a network may declare far more
 * vertices than its arcs and terminals touch ("p max 2147483646 1" with one
 * arc), and every engine allocates per declared vertex. The compact copy
 * renumbers the vertices that appear, in increasing order, and keeps the
 * arcs in input order, so flows per arc carry over unchanged; the cut
 * maps back with every vertex left out on the source side (no arc: it
 * cannot reach the sink, which is what the canonical cut says). Every
 * source and sink is kept, and so is the capacities' fixed-point scale. */
#include <stdlib.h>
#include <string.h>

#include "network.h"
#include "status.h"

/* Compact only where it saves at least this many declared vertices, and
 * where most of them are missing: below that the copy is not worth it. */
#define COMPACT_MIN_SAVED ((int64_t)1 << 16)

int pf_network_worth_compacting(const pf_network *net)
{
    /* both ends of every arc, and the terminals */
    int64_t most_used = 2 * net->m + net->source_count + net->sink_count;
    return net->n > 2 * most_used && net->n - most_used >= COMPACT_MIN_SAVED;
}

static int compare_ids(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The new id of `id`: its index in the sorted, distinct old_id[0..count). */
static int32_t new_id(const int32_t *old_id, int64_t count, int32_t id)
{
    const int32_t *found = bsearch(&id, old_id, (size_t)count, sizeof *old_id, compare_ids);
    return (int32_t)(found - old_id);
}

/* Several sources and sinks, renumbered into `small`. */
static int compact_terminals(const pf_network *net, pf_network *small, const int32_t *old_id,
                             int64_t count, pf_status *st)
{
    int64_t *ids[2] = {NULL, NULL};
    int rc = PF_OK;
    for (int sink = 0; sink < 2 && !rc; sink++) {
        int64_t n = pf_network_terminal_count(net, sink);
        ids[sink] = pf_alloc((size_t)n, sizeof *ids[sink], st);
        if (!ids[sink])
            rc = PF_E_NOMEM;
        for (int64_t k = 0; !rc && k < n; k++)
            ids[sink][k] = new_id(old_id, count, (int32_t)pf_network_terminal(net, sink, k));
    }
    if (!rc)
        rc = pf_network_set_terminals(small, ids[0], net->source_count, ids[1], net->sink_count,
                                      st);
    free(ids[0]);
    free(ids[1]);
    return rc;
}

int pf_network_compact(const pf_network *net, pf_network **out, int32_t **old_id_out,
                       pf_status *st)
{
    *out = NULL;
    *old_id_out = NULL;
    /* Every terminal is kept, even one no arc touches: a sink must stay on
     * the sink side of the cut, whatever the vertices left out get. */
    int64_t terminals = net->source_count + net->sink_count;
    int64_t ends = 2 * net->m + terminals;
    int32_t *old_id = pf_alloc((size_t)ends, sizeof *old_id, st);
    if (!old_id)
        return PF_E_NOMEM;
    for (int64_t k = 0; k < terminals; k++) {
        int sink = k >= net->source_count;
        old_id[k] = (int32_t)pf_network_terminal(net, sink, sink ? k - net->source_count : k);
    }
    if (net->m > 0) {
        memcpy(old_id + terminals, net->tail, (size_t)net->m * sizeof *old_id);
        memcpy(old_id + terminals + net->m, net->head, (size_t)net->m * sizeof *old_id);
    }
    qsort(old_id, (size_t)ends, sizeof *old_id, compare_ids);
    int64_t count = 0;
    for (int64_t k = 0; k < ends; k++)
        if (count == 0 || old_id[k] != old_id[count - 1])
            old_id[count++] = old_id[k];
    pf_network *small = pf_network_new(count, new_id(old_id, count, net->source),
                                       new_id(old_id, count, net->sink), st);
    if (!small || pf_network_reserve(small, net->m, st) != PF_OK) {
        pf_network_free(small);
        free(old_id);
        return st && st->code ? st->code : PF_E_NOMEM;
    }
    for (int64_t a = 0; a < net->m; a++) {
        small->tail[a] = new_id(old_id, count, net->tail[a]);
        small->head[a] = new_id(old_id, count, net->head[a]);
        small->cap[a] = net->cap[a];
    }
    small->m = net->m;
    /* The same capacities' scale, and the same several terminals. */
    small->is_real = net->is_real;
    small->scale_log2 = net->scale_log2;
    small->scale_error = net->scale_error;
    small->zero_based_ids = net->zero_based_ids;
    int rc = net->sources ? compact_terminals(net, small, old_id, count, st) : PF_OK;
    if (rc) {
        pf_network_free(small);
        free(old_id);
        return rc;
    }
    *out = small;
    *old_id_out = old_id;
    return PF_OK;
}

int pf_network_expand_side(const pf_network *net, const int32_t *old_id, int64_t count,
                           const uint8_t *compact_side, uint8_t **side, pf_status *st)
{
    *side = pf_alloc((size_t)net->n, 1, st);
    if (!*side)
        return PF_E_NOMEM;
    memset(*side, 1, (size_t)net->n);
    for (int64_t k = 0; k < count; k++)
        (*side)[old_id[k]] = compact_side[k];
    return PF_OK;
}
