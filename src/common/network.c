/* The input network of max-flow: creation, arcs, terminals, accessors,
 * and the memory a solve of it will take. */
#include "network.h"

#include <stdlib.h>

#include "memavail.h"
#include "omp_threads.h"
#include "shape.h"
#include "sort.h"
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
    net->source_count = net->sink_count = 1;
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
    long double *r = NULL;
    if (net->real_cap) {
        r = realloc(net->real_cap, (size_t)arcs * sizeof *r);
        if (r)
            net->real_cap = r;
    }
    if (!t || !h || !c || (net->real_cap && !r))
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
    PF_FREE_ALL(net->tail, net->head, net->cap, net->sources, net->sinks, net->real_cap, net);
}

int64_t pf_csr_row_of(const void *indptr, int index_size, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (pf_sized_element(indptr, index_size, mid) <= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int pf_csr_entry_error(const pf_csr_arcs *c, int64_t n, int64_t k, pf_status *st)
{
    int64_t row = pf_csr_row_of(c->indptr, c->index_size, n, k);
    int64_t column = pf_sized_element(c->indices, c->index_size, k);
    int64_t capacity = pf_sized_element(c->caps, c->cap_size, k);
    if (column < 0 || column >= n)
        return pf_fail(st, PF_E_INPUT, "entry %lld (row %lld): column %lld outside 0..%lld",
                       (long long)k, (long long)row, (long long)column, (long long)n - 1);
    return pf_fail(st, PF_E_INPUT,
                   "entry %lld (row %lld, column %lld): capacity %lld outside 0..2^62",
                   (long long)k, (long long)row, (long long)column, (long long)capacity);
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

/* ---- several sources and sinks -------------------------------------- */

/* A sorted copy of ids without duplicates, as int32; *count is updated.
 * Fails on an id outside the network. */
static int32_t *terminal_set(const pf_network *net, const int64_t *ids, int64_t *count,
                             const char *what, pf_status *st)
{
    if (*count < 1) {
        pf_fail(st, PF_E_INPUT, "no %s given", what);
        return NULL;
    }
    int64_t *sorted = pf_alloc((size_t)*count, sizeof *sorted, st);
    int32_t *set = pf_alloc((size_t)*count, sizeof *set, st);
    if (!sorted || !set)
        goto fail;
    for (int64_t i = 0; i < *count; i++) {
        if (ids[i] < 0 || ids[i] >= net->n) {
            pf_fail(st, PF_E_INPUT, "%s %lld outside 1..%lld", what, (long long)ids[i] + 1,
                    (long long)net->n);
            goto fail;
        }
        sorted[i] = ids[i];
    }
    qsort(sorted, (size_t)*count, sizeof *sorted, pf_compare_i64);
    int64_t kept = 0;
    for (int64_t i = 0; i < *count; i++)
        if (i == 0 || sorted[i] != sorted[i - 1])
            set[kept++] = (int32_t)sorted[i];
    *count = kept;
    free(sorted);
    return set;
fail:
    free(sorted);
    free(set);
    return NULL;
}

static int in_set(const int32_t *set, int64_t count, int64_t v)
{
    int64_t lo = 0, hi = count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (set[mid] == v)
            return 1;
        if (set[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

int pf_network_set_terminals(pf_network *net, const int64_t *sources, int64_t source_count,
                             const int64_t *sinks, int64_t sink_count, pf_status *st)
{
    int32_t *src = terminal_set(net, sources, &source_count, "source", st);
    int32_t *snk = src ? terminal_set(net, sinks, &sink_count, "sink", st) : NULL;
    if (!src || !snk) {
        free(src);
        return st ? st->code : PF_E_INPUT;
    }
    for (int64_t i = 0; i < source_count; i++) {
        if (in_set(snk, sink_count, src[i])) {
            pf_fail(st, PF_E_INPUT, "vertex %lld is both a source and a sink", (long long)src[i] + 1);
            free(src);
            free(snk);
            return PF_E_INPUT;
        }
    }
    free(net->sources);
    free(net->sinks);
    net->source = src[0];
    net->sink = snk[0];
    net->source_count = source_count;
    net->sink_count = sink_count;
    net->sources = source_count > 1 || sink_count > 1 ? src : NULL;
    net->sinks = net->sources ? snk : NULL;
    if (!net->sources) {
        free(src);
        free(snk);
    }
    pf_status_ok(st);
    return PF_OK;
}

int64_t pf_network_terminal_count(const pf_network *net, int sink)
{
    return sink ? net->sink_count : net->source_count;
}

int64_t pf_network_terminal(const pf_network *net, int sink, int64_t i)
{
    if (i < 0 || i >= pf_network_terminal_count(net, sink))
        return -1;
    if (!net->sources)
        return sink ? net->sink : net->source;
    return sink ? net->sinks[i] : net->sources[i];
}

int pf_network_role(const pf_network *net, int64_t v)
{
    if (!net->sources)
        return v == net->source ? 1 : v == net->sink ? 2 : 0;
    return in_set(net->sources, net->source_count, v) ? 1
         : in_set(net->sinks, net->sink_count, v)     ? 2
                                                       : 0;
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
    /* Several terminals: a super source and sink and an arc per terminal. */
    uint64_t extra_arcs = net->sources ? (uint64_t)(net->source_count + net->sink_count) : 0;
    uint64_t extra_vertices = net->sources ? 2 : 0;
    uint64_t arcs = pf_mem_bytes((uint64_t)net->m + extra_arcs, per_arc, 0);
    return pf_mem_bytes((uint64_t)net->n + 1 + extra_vertices, per_vertex, arcs);
}

int pf_network_require_memory(const pf_network *net, int want_flow, int want_cut,
                              pf_status *st)
{
    return pf_mem_require(pf_network_solve_bytes(net, want_flow, want_cut),
                          "a max-flow solve of this network", st);
}

/* ---- shape ------------------------------------------------------------ */

int pf_network_is_segmentation(const pf_network *net, int threads)
{
    if (net->m > PF_SHAPE_MAX_ARCS_PER_VERTEX * net->n || net->n < PF_SHAPE_MIN_VERTICES)
        return 0; /* too dense or too small whatever the terminals hold */
    int64_t at_terminals = 0, m = net->m;
    threads = pf_threads_for_items(threads, m);
    int32_t s = net->source, t = net->sink;
    if (net->csr.indptr) {
        const pf_csr_arcs *c = &net->csr;
        at_terminals = pf_sized_element(c->indptr, c->index_size, s + 1) -
                       pf_sized_element(c->indptr, c->index_size, s);
        PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1)
                   reduction(+ : at_terminals))
        for (int64_t k = 0; k < m; k++)
            at_terminals += pf_sized_element(c->indices, c->index_size, k) == t;
    } else {
        PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1)
                   reduction(+ : at_terminals))
        for (int64_t k = 0; k < m; k++)
            at_terminals += (net->tail[k] == s) + (net->head[k] == t);
    }
    return pf_shape_is_segmentation(net->n, m, at_terminals);
}
