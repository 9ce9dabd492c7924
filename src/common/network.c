/* The input network of max-flow: creation, arcs, accessors, and the
 * memory a solve of it will take. */
#include "network.h"

#include <stdlib.h>

#include "memavail.h"
#include "status.h"

pf_network *pf_network_new(int64_t vertices, int64_t source, int64_t sink, pf_status *st)
{
    if (vertices < 2 || vertices > PF_MAX_VERTICES) {
        pf_fail(st, PF_E_INPUT, "vertex count %lld out of range 2..%lld",
                (long long)vertices, (long long)PF_MAX_VERTICES);
        return NULL;
    }
    if (source < 0 || source >= vertices || sink < 0 || sink >= vertices) {
        pf_fail(st, PF_E_INPUT, "source %lld or sink %lld outside 0..%lld",
                (long long)source, (long long)sink, (long long)vertices - 1);
        return NULL;
    }
    if (source == sink) {
        pf_fail(st, PF_E_INPUT, "source and sink are the same vertex (%lld)", (long long)source);
        return NULL;
    }
    pf_network *net = pf_calloc(1, sizeof *net, st);
    if (!net)
        return NULL;
    net->n = vertices;
    net->source = (int32_t)source;
    net->sink = (int32_t)sink;
    pf_status_ok(st);
    return net;
}

int pf_network_reserve(pf_network *net, int64_t arcs, pf_status *st)
{
    if (arcs <= net->m_alloc)
        return PF_OK;
    int32_t *t = realloc(net->tail, (size_t)arcs * sizeof *t);
    if (t)
        net->tail = t;
    int32_t *h = realloc(net->head, (size_t)arcs * sizeof *h);
    if (h)
        net->head = h;
    int64_t *c = realloc(net->cap, (size_t)arcs * sizeof *c);
    if (c)
        net->cap = c;
    if (!t || !h || !c)
        return pf_fail(st, PF_E_NOMEM, "out of host memory for %lld arcs", (long long)arcs);
    net->m_alloc = arcs;
    return PF_OK;
}

int pf_network_add_arc(pf_network *net, int64_t tail, int64_t head, int64_t capacity, pf_status *st)
{
    if (tail < 0 || tail >= net->n || head < 0 || head >= net->n)
        return pf_fail(st, PF_E_INPUT, "arc (%lld,%lld) names a vertex outside 0..%lld",
                       (long long)tail, (long long)head, (long long)net->n - 1);
    if (capacity < 0 || capacity > PF_CAP_MAX)
        return pf_fail(st, PF_E_INPUT, "capacity %lld outside 0..2^62", (long long)capacity);
    if (net->m == net->m_alloc) {
        int64_t grow = net->m_alloc ? net->m_alloc * 2 : 64;
        int rc = pf_network_reserve(net, grow, st);
        if (rc)
            return rc;
    }
    net->tail[net->m] = (int32_t)tail;
    net->head[net->m] = (int32_t)head;
    net->cap[net->m] = capacity;
    net->m++;
    return PF_OK;
}

void pf_network_free(pf_network *net)
{
    if (!net)
        return;
    free(net->tail);
    free(net->head);
    free(net->cap);
    free(net);
}

int64_t pf_network_vertices(const pf_network *net) { return net->n; }
int64_t pf_network_arcs(const pf_network *net) { return net->m; }
int64_t pf_network_source(const pf_network *net) { return net->source; }
int64_t pf_network_sink(const pf_network *net) { return net->sink; }

int pf_network_arc(const pf_network *net, int64_t i, int64_t *tail, int64_t *head, int64_t *capacity)
{
    if (i < 0 || i >= net->m)
        return PF_E_USAGE;
    if (tail)
        *tail = net->tail[i];
    if (head)
        *head = net->head[i];
    if (capacity)
        *capacity = net->cap[i];
    return PF_OK;
}

/* Per vertex: the residual graph's first[] and the engines' height, excess,
 * list and BFS arrays; per input arc: two residual arcs (head, rev, cap,
 * residual) and the map back to the input. Measured peaks of the seq, omp
 * and OpenCL engines stay below these (with PoCL's host copies). */
#define SOLVE_BYTES_PER_VERTEX 48
#define SOLVE_BYTES_PER_ARC 88

uint64_t pf_network_solve_bytes(const pf_network *net, int want_flow, int want_cut)
{
    uint64_t per_vertex = SOLVE_BYTES_PER_VERTEX + (want_cut ? 1 : 0);
    uint64_t per_arc = SOLVE_BYTES_PER_ARC + (want_flow ? sizeof(int64_t) : 0);
    uint64_t arcs = pf_mem_bytes((uint64_t)net->m, per_arc, 0);
    return pf_mem_bytes((uint64_t)net->n + 1, per_vertex, arcs);
}

int pf_network_require_memory(const pf_network *net, int want_flow, int want_cut,
                              pf_status *st)
{
    return pf_mem_require(pf_network_solve_bytes(net, want_flow, want_cut),
                          "a max-flow solve of this network", st);
}
