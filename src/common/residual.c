/* The residual graph (residual.h): its build from a network (degrees
 * counted and arcs placed per range of vertices on OpenMP threads, the
 * same arrays bit for bit for any thread count), its relayout in another
 * arc order, and what is read off residuals: arc flows, the vertices that
 * reach a target (the cut), the reverse-arc forms the devices take. */
#include "residual.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arc_turn.h"
#include "omp_threads.h"

#include "knobs.h"
#include "memavail.h"
#include "sort.h"
#include "status.h"
#include "timer.h"

/* Thread `t` of `count` gets [begin, end) of a range of `len` items. */
static void split_range(int64_t len, int t, int count, int64_t *begin, int64_t *end)
{
    *begin = len * t / count;
    *end = len * (t + 1) / count;
}

/* Inlined with a constant `csr`, so that each walk below compiles twice,
 * once per arc source, with no test of the source per arc. */
#define ARC_INLINE static inline __attribute__((always_inline))

/* The input arcs in order, from the network's arrays or, for a CSR view
 * (net->csr), from the caller's rows: u is the row of the last arc read,
 * row_end where that row ends. */
typedef struct arc_walk {
    const pf_network *net;
    int64_t u, row_end;
} arc_walk;

static arc_walk walk_begin(const pf_network *net)
{
    return (arc_walk){.net = net, .u = -1, .row_end = 0};
}

/* Arc i's tail; a walk reads i = 0, 1, 2, ... in turn. */
ARC_INLINE int32_t walk_tail(arc_walk *w, int csr, int64_t i)
{
    if (!csr)
        return w->net->tail[i];
    const pf_csr_arcs *c = &w->net->csr;
    while (i >= w->row_end)
        w->row_end = pf_sized_element(c->indptr, c->index_size, ++w->u + 1);
    return (int32_t)w->u;
}

ARC_INLINE int32_t arc_head(const pf_network *net, int csr, int64_t i)
{
    return csr ? (int32_t)pf_sized_element(net->csr.indices, net->csr.index_size, i) : net->head[i];
}

ARC_INLINE int64_t arc_cap(const pf_network *net, int csr, int64_t i)
{
    return csr ? pf_sized_element(net->csr.caps, net->csr.cap_size, i) : net->cap[i];
}

/* A CSR view's arcs are checked as they are read (pf_network_view_csr
 * checks only indptr): whether arc i's column is outside 0..n-1; such an
 * arc is left out of the build, which then fails. Never for a network. */
ARC_INLINE int bad_column(const pf_network *net, int csr, int64_t i)
{
    if (!csr)
        return 0;
    int64_t v = pf_sized_element(net->csr.indices, net->csr.index_size, i);
    return v < 0 || v >= net->n;
}

ARC_INLINE int bad_cap(const pf_network *net, int csr, int64_t i)
{
    if (!csr)
        return 0;
    int64_t c = arc_cap(net, csr, i);
    return c < 0 || c > PF_CAP_MAX;
}

/* Degrees of the vertices in [lo, hi) (count_degrees); returns the first
 * arc whose column is bad (a CSR view's), or m. */
ARC_INLINE int64_t count_range(const pf_network *net, int csr, int64_t *first, int64_t *out_deg,
                               int64_t lo, int64_t hi)
{
    arc_walk w = walk_begin(net);
    int64_t first_bad = net->m;
    for (int64_t i = 0; lo < hi && i < net->m; i++) {
        int32_t u = walk_tail(&w, csr, i), v = arc_head(net, csr, i);
        if (bad_column(net, csr, i)) {
            if (i < first_bad)
                first_bad = i;
            continue;
        }
        if (u == v)
            continue;
        if (u >= lo && u < hi) {
            first[u + 2]++;
            out_deg[u]++;
        }
        if (v >= lo && v < hi)
            first[v + 2]++;
    }
    return first_bad;
}

/* first has n + 2 entries, not yet zeroed: the degree of u goes to
 * first[u + 2], so that after the prefix sum first[u + 1] is where u's arcs
 * start and can serve as the cursor of u's out-arcs during the scatter;
 * out_deg[u] (n entries) gets u's out-degree, where its in-arcs start.
 *
 * Each thread zeroes and counts only the ends at its own range of vertices,
 * walking all arcs: no atomics, since a vertex joined to most others (the
 * source of an image-like grid) would bounce one cache line between all
 * cores. Returns the first arc of a CSR view with a bad column, or m. */
static int64_t count_degrees(const pf_network *net, int64_t *first, int64_t *out_deg,
                             int threads)
{
    int64_t first_bad = net->m;
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel num_threads(threads) if (threads > 1) reduction(min : first_bad))
    {
        int t, count;
        pf_team_position(&t, &count);
        int64_t lo, hi;
        split_range(net->n, t, count, &lo, &hi);
        pf_mem_prefault(first + lo + 2, (size_t)(hi - lo) * sizeof *first);
        memset(first + lo + 2, 0, (size_t)(hi - lo) * sizeof *first);
        pf_mem_prefault(out_deg + lo, (size_t)(hi - lo) * sizeof *out_deg);
        memset(out_deg + lo, 0, (size_t)(hi - lo) * sizeof *out_deg);
        int64_t bad = net->csr.indptr ? count_range(net, 1, first, out_deg, lo, hi)
                                      : count_range(net, 0, first, out_deg, lo, hi);
        if (bad < first_bad)
            first_bad = bad;
    }
    return first_bad;
}

/* Inclusive prefix sum in place. With several threads: each sums its own
 * chunk, the chunk totals are summed in order, and each chunk then adds
 * the total of the chunks before it. */
static void prefix_sum(int64_t *x, int64_t len, int threads, int64_t *chunk_base)
{
    if (threads <= 1) {
        for (int64_t k = 1; k < len; k++)
            x[k] += x[k - 1];
        return;
    }
    PF_OMP(omp parallel num_threads(threads))
    {
        int t, count;
        pf_team_position(&t, &count);
        int64_t begin, end;
        split_range(len, t, count, &begin, &end);
        for (int64_t k = begin + 1; k < end; k++)
            x[k] += x[k - 1];
        chunk_base[t + 1] = end > begin ? x[end - 1] : 0;
        PF_OMP(omp barrier)
        PF_OMP(omp single)
        {
            chunk_base[0] = 0;
            for (int c = 1; c <= count; c++)
                chunk_base[c] += chunk_base[c - 1];
        }
        for (int64_t k = begin; k < end; k++)
            x[k] += chunk_base[t];
    }
}

/* Where each arc goes within its list. The scatter counts the arcs of a
 * list (or of its forward and reverse parts) in input order; `start` NULL
 * keeps that order, else the count is mapped: INPUT_REVERSED turns the
 * list around, FORWARD_ROTATED turns each part by a pseudo-random offset
 * of the vertex's own, FORWARD_PART_ROTATED the forward part only
 * (residual.h says why). A per-vertex mapping keeps the layout
 * independent of the thread count and costs no extra pass. */
typedef struct arc_placer {
    pf_arc_order order;
    const int64_t *start;  /* n + 1: where each list starts */
    const int64_t *rstart; /* n: where each list's reverse part starts */
} arc_placer;

/* The position of the arc counted at `slot` in u's list (`reverse`: in its
 * reverse part). */
static inline int64_t place(const arc_placer *p, int64_t slot, int32_t u, int reverse)
{
    if (!p->start)
        return slot;
    if (p->order == PF_ARCS_INPUT_REVERSED)
        return p->start[u] + p->start[u + 1] - 1 - slot;
    if (reverse && p->order == PF_ARCS_FORWARD_PART_ROTATED)
        return slot;
    int64_t lo = reverse ? p->rstart[u] : p->start[u];
    int64_t hi = reverse ? p->start[u + 1] : p->rstart[u];
    return pf_turned_position(lo, hi - lo, slot - lo, u, reverse);
}

/* One pass in input order, pairing each arc with its reverse at once. */
ARC_INLINE int64_t scatter_serial_from(const pf_network *net, int csr, pf_residual *g,
                                       int64_t *in_cursor, const arc_placer *placer)
{
    int64_t *cursor = g->first + 1;
    arc_walk w = walk_begin(net);
    for (int64_t i = 0; i < net->m; i++) {
        int32_t u = walk_tail(&w, csr, i), v = arc_head(net, csr, i);
        if (bad_column(net, csr, i) || bad_cap(net, csr, i))
            return i;
        if (u == v) {
            g->fwd_of_input[i] = -1; /* self-loops carry no flow */
            continue;
        }
        int64_t a = place(placer, cursor[u]++, u, 0);
        int64_t b = place(placer, in_cursor[v]++, v, in_cursor != cursor);
        g->head[a] = v;
        g->cap[a] = arc_cap(net, csr, i);
        g->rev[a] = b;
        g->head[b] = u;
        g->cap[b] = 0;
        g->rev[b] = a;
        g->fwd_of_input[i] = a;
    }
    return net->m;
}

/* Returns the first arc of a CSR view with a bad column or capacity, or m
 * (the build stops there: it fails). */
static int64_t scatter_serial(const pf_network *net, pf_residual *g, int64_t *in_cursor,
                              const arc_placer *placer)
{
    if (net->csr.indptr)
        return scatter_serial_from(net, 1, g, in_cursor, placer);
    return scatter_serial_from(net, 0, g, in_cursor, placer);
}

/* scatter_parallel's walk: the arc ends at vertices [lo, hi) placed, rev
 * tagged with the input arc's number (i forward, -1 - i reverse). Returns
 * the first arc of a CSR view with a bad capacity at a tail in [lo, hi),
 * or m; arcs with a bad column (count_range found them) are left out. */
ARC_INLINE int64_t scatter_range(const pf_network *net, int csr, pf_residual *g,
                                 int64_t *in_cursor, const arc_placer *placer, int64_t lo,
                                 int64_t hi)
{
    int64_t *cursor = g->first + 1, *rev = g->rev;
    int64_t first_bad = net->m;
    arc_walk w = walk_begin(net);
    for (int64_t i = 0; lo < hi && i < net->m; i++) {
        int32_t u = walk_tail(&w, csr, i), v = arc_head(net, csr, i);
        int own_tail = u >= lo && u < hi, own_head = v >= lo && v < hi;
        if (!own_tail && !own_head)
            continue;
        if (bad_column(net, csr, i))
            continue;
        if (own_tail && bad_cap(net, csr, i) && i < first_bad)
            first_bad = i;
        if (u == v) {
            g->fwd_of_input[i] = -1; /* self-loops carry no flow */
            continue;
        }
        if (own_tail) {
            int64_t a = place(placer, cursor[u]++, u, 0);
            g->head[a] = v;
            g->cap[a] = arc_cap(net, csr, i);
            rev[a] = i;
        }
        if (own_head) {
            int64_t b = place(placer, in_cursor[v]++, v, in_cursor != cursor);
            g->head[b] = u;
            g->cap[b] = 0;
            rev[b] = -1 - i;
        }
    }
    return first_bad;
}

/* The lowest vertex whose arcs start at or after `arc` (cursor[u] holds
 * the start of u, nondecreasing in u; cursor[n] = all arcs). */
static int64_t vertex_at_arc(const int64_t *cursor, int64_t n, int64_t arc)
{
    return pf_lower_bound_i64(cursor, n, arc);
}

/* Every thread owns a contiguous range of vertices holding about the same
 * number of arcs, and walks all input arcs in order, placing only the arc
 * ends at its own vertices. Each list is thus filled in input order by one
 * thread (out-arcs, then in-arcs), the same layout as the serial pass,
 * whatever the thread count.
 *
 * The walk writes only inside the thread's own range: in rev it leaves the
 * input arc's number, as i at a forward arc and -1 - i at a reverse one.
 * (Writing fwd_of_input[i] there instead would have the threads writing
 * the same cache lines at the same time, since all walk i in step; on a
 * random graph most lines hold entries of several owners.) Two passes over
 * each range then set fwd_of_input from the forward arcs and pair every
 * reverse arc b with a = fwd_of_input[i], writing rev[b] and rev[a]. In
 * the second, the owner of a may read rev[a] while it changes from i to b:
 * both are >= 0, "not a reverse arc to pair", so either is fine, and
 * relaxed atomics make the overlap defined. No m-sized scratch array is
 * needed, whose faulting in would cost about as much (see pf_mem_prefault).
 * `bounds` has room for threads + 1 entries; `lap` gets thread 0's clock
 * after its fault-in, its scatter and its pairing (PORTAFLOW_TRACE). */
static int64_t scatter_parallel(const pf_network *net, pf_residual *g, int64_t *in_cursor,
                                const arc_placer *placer, int threads, int64_t *bounds,
                                double lap[3])
{
    int64_t first_bad = net->m;
    const int64_t m = net->m, n = g->n;
    int64_t *cursor = g->first + 1, *rev = g->rev;
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel num_threads(threads) reduction(min : first_bad))
    {
        int t, count;
        pf_team_position(&t, &count);
        PF_OMP(omp single)
        {
            for (int c = 0; c < count; c++)
                bounds[c] = vertex_at_arc(cursor, n, g->arcs * c / count);
            bounds[count] = n;
        }
        const int64_t lo = bounds[t], hi = bounds[t + 1];
        const int64_t arc_lo = cursor[lo], arc_hi = cursor[hi]; /* read before any scatter */
        PF_OMP(omp barrier)
        int64_t begin, end;
        split_range(m, t, count, &begin, &end);
        pf_mem_prefault(g->fwd_of_input + begin, (size_t)(end - begin) * sizeof *g->fwd_of_input);
        pf_mem_prefault(g->head + arc_lo, (size_t)(arc_hi - arc_lo) * sizeof *g->head);
        pf_mem_prefault(g->rev + arc_lo, (size_t)(arc_hi - arc_lo) * sizeof *g->rev);
        pf_mem_prefault(g->cap + arc_lo, (size_t)(arc_hi - arc_lo) * sizeof *g->cap);
        if (t == 0)
            lap[0] = pf_now();

        int64_t bad = net->csr.indptr ? scatter_range(net, 1, g, in_cursor, placer, lo, hi)
                                      : scatter_range(net, 0, g, in_cursor, placer, lo, hi);
        if (bad < first_bad)
            first_bad = bad;
        if (t == 0)
            lap[1] = pf_now();
        for (int64_t a = arc_lo; a < arc_hi; a++)
            if (rev[a] >= 0)
                g->fwd_of_input[rev[a]] = a;
        PF_OMP(omp barrier)
        for (int64_t b = arc_lo; b < arc_hi; b++) {
            int64_t tag = __atomic_load_n(&rev[b], __ATOMIC_RELAXED);
            if (tag >= 0)
                continue;
            int64_t a = g->fwd_of_input[-1 - tag];
            __atomic_store_n(&rev[b], a, __ATOMIC_RELAXED);
            __atomic_store_n(&rev[a], b, __ATOMIC_RELAXED);
        }
        if (t == 0)
            lap[2] = pf_now();
    }
    return first_bad;
}

/* The first arc of a CSR view below `k` whose capacity is bad, or k. */
static int64_t first_bad_cap(const pf_network *net, int64_t k)
{
    for (int64_t i = 0; i < k; i++)
        if (bad_cap(net, 1, i))
            return i;
    return k;
}

/* Counting sort by tail, O(n + m): count the arc ends per vertex, prefix
 * sum, scatter. */
static int build_plain(const pf_network *net, pf_residual *g, pf_arc_order order, int threads,
                       pf_status *st)
{
    memset(g, 0, sizeof *g);
    g->order = order;
    const int64_t n = net->n, m = net->m;
    threads = pf_resolve_threads(threads);
    g->n = n;
    g->source = net->source;
    g->sink = net->sink;
    g->input_arcs = g->output_arcs = m;
    g->first = pf_alloc((size_t)n + 2, sizeof *g->first, st); /* + 1: count_degrees */
    g->fwd_of_input = pf_alloc((size_t)m, sizeof *g->fwd_of_input, st);
    int64_t *scratch = pf_alloc((size_t)threads + 1, sizeof *scratch, st);
    /* Out-degrees, then where each vertex's in-arcs go next. */
    int64_t *in_cursor = pf_alloc((size_t)n + 1, sizeof *in_cursor, st);
    int64_t *spans = NULL;
    if (!g->first || !g->fwd_of_input || !scratch || !in_cursor)
        goto fail;

    g->first[0] = g->first[1] = 0;
    double t_start = pf_now(), lap[3] = {0, 0, 0};
    int64_t bad = count_degrees(net, g->first, in_cursor, threads);
    double t_counted = pf_now();
    if (bad < net->m) {
        pf_csr_entry_error(&net->csr, net->n, first_bad_cap(net, bad), st);
        goto fail;
    }
    prefix_sum(g->first, n + 2, threads, scratch);
    g->arcs = g->first[n + 1];
    PF_OMP(omp parallel for num_threads(threads) if (threads > 1))
    for (int64_t u = 0; u < n; u++)
        in_cursor[u] += g->first[u + 1];
    /* Input order: both kinds of arc go through one cursor. */
    int64_t *in_cursor_mem = in_cursor;
    if (order == PF_ARCS_INPUT || order == PF_ARCS_INPUT_REVERSED)
        in_cursor = g->first + 1;
    /* The lists' bounds, for a placer that maps positions: the cursors
     * move during the scatter. */
    arc_placer placer = {.order = order};
    if (order == PF_ARCS_INPUT_REVERSED || order == PF_ARCS_FORWARD_ROTATED ||
        order == PF_ARCS_FORWARD_PART_ROTATED) {
        spans = pf_alloc(2 * (size_t)n + 1, sizeof *spans, st);
        if (!spans)
            goto fail;
        PF_OMP(omp parallel for num_threads(threads) if (threads > 1))
        for (int64_t u = 0; u <= n; u++) {
            spans[u] = g->first[u + 1];
            if (u < n)
                spans[n + 1 + u] = in_cursor[u];
        }
        placer.start = spans;
        placer.rstart = spans + n + 1;
    }

    g->head = pf_alloc((size_t)g->arcs, sizeof *g->head, st);
    g->rev = pf_alloc((size_t)g->arcs, sizeof *g->rev, st);
    g->cap = pf_alloc((size_t)g->arcs, sizeof *g->cap, st);
    if (!g->head || !g->rev || !g->cap)
        goto fail;
    double t_scatter = pf_now();
    if (threads > 1) {
        bad = scatter_parallel(net, g, in_cursor, &placer, threads, scratch, lap);
    } else {
        pf_mem_prefault(g->fwd_of_input, (size_t)m * sizeof *g->fwd_of_input);
        pf_mem_prefault(g->head, (size_t)g->arcs * sizeof *g->head);
        pf_mem_prefault(g->rev, (size_t)g->arcs * sizeof *g->rev);
        pf_mem_prefault(g->cap, (size_t)g->arcs * sizeof *g->cap);
        bad = scatter_serial(net, g, in_cursor, &placer);
    }
    if (bad < net->m) {
        pf_csr_entry_error(&net->csr, net->n, bad, st);
        goto fail;
    }
    /* The in-arc cursors stopped at the end of each list: the next start. */
    PF_OMP(omp parallel for num_threads(threads) if (threads > 1))
    for (int64_t u = 0; u < n; u++)
        g->first[u + 1] = in_cursor[u];
    in_cursor = in_cursor_mem;
    free(in_cursor); /* in_cursor_mem: the fail path frees in_cursor too */
    free(spans);
    free(scratch);
    if (pf_knobs()->trace && threads > 1)
        fprintf(stderr, "portaflow trace: residual build on %d threads: count %.4f s, sums %.4f s, "
                "fault-in %.4f s, scatter %.4f s, pairs %.4f s, rest %.4f s\n", threads,
                t_counted - t_start, t_scatter - t_counted, lap[0] - t_scatter, lap[1] - lap[0],
                lap[2] - lap[1], pf_now() - lap[2]);
    return PF_OK;
fail:
    PF_FREE_ALL(in_cursor, spans, scratch);
    pf_residual_free(g);
    return st ? st->code : PF_E_NOMEM;
}

/* `sum` + `add`, saturating at PF_CAP_MAX + 1 (both are nonnegative). */
static int64_t add_capped(int64_t sum, int64_t add)
{
    return add > PF_CAP_MAX + 1 - sum ? PF_CAP_MAX + 1 : sum + add;
}

/* The super terminals' arcs, after net's own in `wide` (room reserved):
 * super source n -> each source, each sink -> super sink n + 1. */
static int add_super_arcs(const pf_network *net, pf_network *wide, pf_status *st)
{
    int64_t *out_sum = pf_calloc((size_t)net->n, sizeof *out_sum, st);
    int64_t *in_sum = pf_calloc((size_t)net->n, sizeof *in_sum, st);
    int rc = out_sum && in_sum ? PF_OK : PF_E_NOMEM;
    for (int64_t i = 0; !rc && i < net->m; i++) {
        out_sum[net->tail[i]] = add_capped(out_sum[net->tail[i]], net->cap[i]);
        in_sum[net->head[i]] = add_capped(in_sum[net->head[i]], net->cap[i]);
    }
    int64_t total = 0;
    for (int64_t k = 0; !rc && k < net->source_count; k++) {
        int32_t s = net->sources[k];
        total = add_capped(total, out_sum[s]);
        wide->tail[wide->m] = (int32_t)net->n;
        wide->head[wide->m] = s;
        wide->cap[wide->m++] = out_sum[s];
    }
    if (!rc && total > PF_CAP_MAX)
        rc = pf_fail(st, PF_E_INPUT, "the arcs out of the %lld sources carry more than 2^62 in all",
                     (long long)net->source_count);
    for (int64_t k = 0; !rc && k < net->sink_count; k++) {
        int32_t t = net->sinks[k];
        wide->tail[wide->m] = t;
        wide->head[wide->m] = (int32_t)net->n + 1;
        /* More than can ever enter t, so the arc never saturates and t
         * stays on the sink side of every cut (one above 2^62 at most). */
        wide->cap[wide->m++] = in_sum[t] > PF_CAP_MAX ? PF_CAP_MAX + 1 : in_sum[t] + 1;
    }
    free(out_sum);
    free(in_sum);
    return rc;
}

/* Several terminals: the network with a super source and sink added. */
static int build_with_super_terminals(const pf_network *net, pf_residual *g, pf_arc_order order,
                                      int threads, pf_status *st)
{
    memset(g, 0, sizeof *g);
    if (net->n + 2 > PF_MAX_VERTICES)
        return pf_fail(st, PF_E_INPUT, "%lld vertices and a super source and sink exceed %lld",
                       (long long)net->n, (long long)PF_MAX_VERTICES);
    int64_t arcs = net->m + net->source_count + net->sink_count;
    pf_network wide = {.n = net->n + 2, .source = (int32_t)net->n, .sink = (int32_t)net->n + 1};
    int rc = pf_network_reserve(&wide, arcs, st);
    if (!rc && net->m > 0) { /* no arcs: NULL arrays, which memcpy may not take */
        memcpy(wide.tail, net->tail, (size_t)net->m * sizeof *wide.tail);
        memcpy(wide.head, net->head, (size_t)net->m * sizeof *wide.head);
        memcpy(wide.cap, net->cap, (size_t)net->m * sizeof *wide.cap);
        wide.m = net->m;
    }
    if (!rc)
        rc = add_super_arcs(net, &wide, st);
    if (!rc)
        rc = build_plain(&wide, g, order, threads, st);
    if (!rc)
        g->output_arcs = net->m;
    PF_FREE_ALL(wide.tail, wide.head, wide.cap);
    return rc;
}

int pf_residual_build(const pf_network *net, pf_residual *g, pf_arc_order order, int threads,
                      pf_status *st)
{
    if (net->scale_pending) {
        memset(g, 0, sizeof *g);
        return pf_fail(st, PF_E_USAGE,
                       "real capacities not in fixed point yet: call pf_network_finish first");
    }
    if (net->sources && net->csr.indptr) {
        memset(g, 0, sizeof *g);
        return pf_fail(st, PF_E_USAGE, "a CSR view has one source and one sink");
    }
    if (net->sources)
        return build_with_super_terminals(net, g, order, threads, st);
    return build_plain(net, g, order, threads, st);
}

pf_arc_order pf_residual_order_for(int sequential_engine)
{
    int64_t order = pf_knobs()->arc_order;
    if (order != PF_KNOB_AUTO)
        return (pf_arc_order)order;
    return sequential_engine ? PF_ARCS_FORWARD_PART_ROTATED : PF_ARCS_FORWARD_ROTATED;
}

/* Through a network view of `in` (its arcs in input order), so the result
 * is exactly what a build from the original network gives. */
int pf_residual_relayout(const pf_residual *in, pf_arc_order order, pf_residual *out,
                         int threads, pf_status *st)
{
    memset(out, 0, sizeof *out);
    const int64_t m = in->input_arcs;
    pf_network view = {.n = in->n, .m = m, .m_alloc = m, .source = in->source,
                       .sink = in->sink};
    view.tail = pf_alloc((size_t)m + 1, sizeof *view.tail, st);
    view.head = pf_alloc((size_t)m + 1, sizeof *view.head, st);
    view.cap = pf_alloc((size_t)m + 1, sizeof *view.cap, st);
    int rc = view.tail && view.head && view.cap ? PF_OK : PF_E_NOMEM;
    if (!rc) {
        threads = pf_threads_for_items(threads, m);
        PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1))
        for (int64_t i = 0; i < m; i++) {
            int64_t a = in->fwd_of_input[i];
            /* A self-loop stays one (on vertex 0): it has no residual arcs. */
            view.tail[i] = a < 0 ? 0 : in->head[in->rev[a]];
            view.head[i] = a < 0 ? 0 : in->head[a];
            view.cap[i] = a < 0 ? 0 : in->cap[a];
        }
        rc = pf_residual_build(&view, out, order, threads, st);
        out->output_arcs = in->output_arcs;
    }
    PF_FREE_ALL(view.tail, view.head, view.cap);
    return rc;
}

void pf_residual_copy_residuals(const pf_residual *from, const int64_t *from_res,
                                const pf_residual *to, int64_t *to_res, int threads)
{
    threads = pf_threads_for_items(threads, from->input_arcs);
    PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1))
    for (int64_t i = 0; i < from->input_arcs; i++) {
        int64_t a = from->fwd_of_input[i], b = to->fwd_of_input[i];
        if (a >= 0) {
            to_res[b] = from_res[a];
            to_res[to->rev[b]] = from_res[from->rev[a]];
        }
    }
}

/* Below this many bytes a thread costs more than the free it would hide. */
#define FREE_LATER_MIN_BYTES ((size_t)64 << 20)

/* The blocks a detached thread frees. */
typedef struct free_job {
    void *blocks[PF_FREE_LATER_MAX];
    int count;
} free_job;

static void *free_job_run(void *arg)
{
    free_job *job = arg;
    for (int k = 0; k < job->count; k++)
        free(job->blocks[k]);
    free(job);
    return NULL;
}

void pf_free_later(void *const *blocks, int count, size_t bytes)
{
    if (count > PF_FREE_LATER_MAX)
        count = PF_FREE_LATER_MAX;
    free_job *job = bytes >= FREE_LATER_MIN_BYTES ? malloc(sizeof *job) : NULL;
    pthread_attr_t attr;
    pthread_t thread;
    int started = 0;
    if (job && pthread_attr_init(&attr) == 0) {
        job->count = count;
        memcpy(job->blocks, blocks, (size_t)count * sizeof *blocks);
        started = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                  pthread_create(&thread, &attr, free_job_run, job) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) { /* small, or no thread: here and now */
        free(job);
        for (int k = 0; k < count; k++)
            free(blocks[k]);
    }
}

void pf_residual_free_later(pf_residual *g, void *also, size_t also_bytes)
{
    pf_residual empty = {0};
    if (!g)
        g = &empty;
    size_t bytes = also_bytes + (size_t)g->arcs * (sizeof *g->head + sizeof *g->rev +
                                                   sizeof *g->cap) +
                   (size_t)g->input_arcs * sizeof *g->fwd_of_input;
    void *blocks[] = {g->first, g->head, g->rev, g->cap, g->fwd_of_input, also};
    pf_free_later(blocks, 6, bytes);
    memset(g, 0, sizeof *g);
}

void pf_residual_free(pf_residual *g)
{
    PF_FREE_ALL(g->first, g->head, g->rev, g->cap, g->fwd_of_input);
    memset(g, 0, sizeof *g);
}

void pf_residual_arc_flows(const pf_residual *g, const int64_t *res, int64_t *arc_flow,
                           int threads)
{
    threads = pf_threads_for_items(threads, g->output_arcs);
    PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1))
    for (int64_t i = 0; i < g->output_arcs; i++) {
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

void pf_residual_rev_indices(const pf_residual *g, uint32_t *out, int threads)
{
    threads = pf_threads_for_items(threads, g->arcs);
    PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1))
    for (int64_t a = 0; a < g->arcs; a++)
        out[a] = (uint32_t)g->rev[a];
}

/* Reports the lowest arc whose offset does not fit, as the serial loop
 * did, whatever the thread count. */
int pf_residual_rev_offsets(const pf_residual *g, int32_t *out, int threads, pf_status *st)
{
    threads = pf_threads_for_items(threads, g->arcs);
    int64_t first_bad = g->arcs;
    PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1)
               reduction(min : first_bad))
    for (int64_t a = 0; a < g->arcs; a++) {
        int64_t offset = g->rev[a] - g->first[g->head[a]];
        if (offset > INT32_MAX && a < first_bad)
            first_bad = a;
        out[a] = (int32_t)offset;
    }
    if (first_bad < g->arcs)
        return pf_fail(st, PF_E_INPUT, "vertex %d has more than 2^31-1 arcs",
                       g->head[first_bad] + 1);
    return PF_OK;
}
