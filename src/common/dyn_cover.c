/* Covered deficits of the dynamic residual graph (dyn_graph.h): a deficit
 * d at v gets a pair of arcs without ids, source -> v saturated at d and
 * v -> sink of capacity d, instead of the repair of dyn_repair.c.
 *
 * Why that is exact for the value and the cut: every s-t cut puts v on one
 * side, so it crosses source -> v (v on the sink side) or v -> sink (v on
 * the source side), never both and never neither: each cut rises by d and
 * the order of the cuts stays, so the minimum cuts are the graph's and the
 * maximum flow is cover_total above the graph's. The source arc's flow
 * gives v what it lost, so the preflow is valid at once, whatever the
 * deficit's flow paths to the sink look like (the repair walks them: up to
 * the whole graph per batch, bench/NOTES.md 38 and 41); push-relabel then
 * sends the excess the batch left at the cut arcs' tails to the pair's
 * vertex (and on to the sink through its arc) or wherever it can go.
 *
 * After a solve, what reached the sink through v -> sink is cancelled
 * against source -> v (pf_dyn_cover_trim): a path source -> v -> sink of
 * flow m off both arcs lowers every cut by m again. A pair is then left
 * with capacity where v is still short of inflow, and with none where its
 * deficit was refilled; such a pair is kept for v's next deficit until a
 * layout drops it (pairs stay at most one per vertex: memory is bounded
 * over any number of batches). */
#include <stdlib.h>
#include <string.h>

#include "dyn_graph.h"
#include "dyn_layout.h"
#include "dyn_touch.h"
#include "omp_threads.h"
#include "sort.h"
#include "status.h"

/* Free slots at the end of u's range (not the dead ones among the used:
 * the source and sink take theirs from there or from their spares, so a
 * pair never scans a terminal's whole range for a dead slot). */
static int64_t free_at(const pf_dyn_graph *d, int64_t u)
{
    return d->view.first[u + 1] - d->view.first[u] - d->used[u];
}

/* Writes slots f (of head_r) and r (of head_f) as a pair of capacity 0. */
static void link_pair(pf_dyn_graph *d, pf_dyn_toucher *t, int64_t f, int64_t r, int32_t head_f,
                      int32_t head_r)
{
    d->view.head[f] = head_f;
    d->view.rev[f] = r;
    d->view.cap[f] = d->res[f] = 0;
    d->view.head[r] = head_r;
    d->view.rev[r] = f;
    d->view.cap[r] = d->res[r] = 0;
    pf_dyn_touch_shared(d, t, 0, f);
    pf_dyn_touch_shared(d, t, 0, r);
}

/* Pairs of capacity 0 dropped (before a layout, which then reclaims them). */
static void drop_empty_pairs(pf_dyn_graph *d)
{
    for (int64_t k = d->cover_count - 1; k >= 0; k--)
        if (d->view.cap[d->covers[k].in] == 0)
            pf_dyn_drop_pair(d, k);
}

/* The terminal's (0: source, 1: sink) spare slots still dead: another
 * arc may have taken one since its pair was dropped. */
static int64_t spares_left(pf_dyn_graph *d, int which)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < d->spare_count[which]; i++) {
        int64_t a = d->spare[which][i];
        if (d->view.rev[a] == a)
            d->spare[which][kept++] = a;
    }
    d->spare_count[which] = kept;
    return kept;
}

/* A slot of the terminal for a new pair: a spare, else a free one. */
static int64_t take_terminal_slot(pf_dyn_graph *d, int which)
{
    const int32_t u = which ? d->view.sink : d->view.source;
    while (d->spare_count[which] > 0) {
        int64_t a = d->spare[which][--d->spare_count[which]];
        if (d->view.rev[a] == a)
            return pf_dyn_claim_dead(d, u, a);
    }
    return pf_dyn_take_slot(d, u);
}

/* A batch's deficits are gathered, checked for room and covered on the
 * host's threads from COVER_PARALLEL_MIN of them on (each step reads the
 * vertices far apart, waiting on memory), with the same result as on one
 * thread: the pairs' order and slots are those of the deficits' order. */
enum { COVER_PARALLEL_MIN = 512 };

static int cover_threads(const pf_dyn_graph *d, int64_t count)
{
    return count >= COVER_PARALLEL_MIN ? pf_resolve_threads(d->params.threads) : 1;
}

/* Vertices among found[0..count) without a pair. */
static int64_t without_pair(const pf_dyn_graph *d, const int64_t *found, int64_t count)
{
    const int threads = cover_threads(d, count);
    int64_t fresh = 0;
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1)
           reduction(+ : fresh))
    for (int64_t i = 0; i < count; i++)
        fresh += d->cover_of[found[i]] == 0;
    return fresh;
}

/* 1 when every new pair finds its slots without a layout. */
static int pairs_fit(pf_dyn_graph *d, const int64_t *found, int64_t count, int64_t fresh)
{
    if (free_at(d, d->view.source) + spares_left(d, 0) < fresh ||
        free_at(d, d->view.sink) + spares_left(d, 1) < fresh)
        return 0;
    const int threads = cover_threads(d, count);
    int short_of = 0;
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1)
           reduction(|| : short_of))
    for (int64_t i = 0; i < count; i++)
        short_of = short_of || (d->cover_of[found[i]] == 0 && pf_dyn_room_at(d, found[i]) < 2);
    return !short_of;
}

/* Room for the new pairs by windows (dyn_window.c) around the vertices
 * short of it: two slots at each vertex that gets a pair, one per new
 * pair at the source and at the sink. PF_DYN_WHOLE where only the whole
 * layout will do. */
static int room_in_windows(pf_dyn_graph *d, const int64_t *found, int64_t count, int64_t fresh,
                           pf_status *st)
{
    pf_id_at *want = pf_alloc((size_t)count + 2, sizeof *want, st);
    pf_id_at *tmp = pf_alloc((size_t)count + 2, sizeof *tmp, st);
    int64_t *vertex = pf_alloc((size_t)count + 2, sizeof *vertex, st);
    int64_t *need = pf_alloc((size_t)count + 2, sizeof *need, st);
    int rc = want && tmp && vertex && need ? PF_OK : PF_E_NOMEM;
    int64_t k = 0;
    for (int64_t i = 0; !rc && i < count; i++)
        if (d->cover_of[found[i]] == 0)
            want[k++] = (pf_id_at){.id = found[i], .at = 2};
    if (!rc) {
        want[k++] = (pf_id_at){.id = d->view.source, .at = fresh};
        want[k++] = (pf_id_at){.id = d->view.sink, .at = fresh};
        const pf_id_at *sorted = pf_radix_sort_id_at(want, tmp, k, d->view.n);
        for (int64_t i = 0; i < k; i++) {
            vertex[i] = sorted[i].id;
            need[i] = sorted[i].at;
        }
    }
    dyn_windows w = {0};
    if (!rc)
        rc = pf_dyn_windows_plan(d, vertex, need, k, &w, st);
    if (!rc) {
        pf_dyn_windows_commit(d, &w);
        if (!pairs_fit(d, found, count, fresh))
            rc = PF_DYN_WHOLE;
    }
    pf_dyn_windows_free(&w);
    PF_FREE_ALL(want, tmp, vertex, need);
    return rc;
}

/* Room for the new pairs: the empty pairs dropped first (their terminal
 * slots become spares, which often suffice), then windows; else a layout with two slots
 * at each vertex that gets a pair and, at the source and sink, one per
 * pair plus as many as they hold (their ranges double: a stream of batches
 * lays the graph out again rarely). */
static int make_room(pf_dyn_graph *d, const int64_t *found, int64_t count,
                     pf_dyn_batch_out *out, pf_status *st)
{
    drop_empty_pairs(d);
    const int64_t fresh = without_pair(d, found, count);
    if (pairs_fit(d, found, count, fresh))
        return PF_OK;
    int rc = room_in_windows(d, found, count, fresh, st);
    if (rc != PF_DYN_WHOLE)
        return rc;
    int64_t *vertex = pf_alloc((size_t)count + 2, sizeof *vertex, st);
    int64_t *slots = pf_alloc((size_t)count + 2, sizeof *slots, st);
    rc = vertex && slots ? PF_OK : PF_E_NOMEM;
    int64_t extra = 0;
    for (int64_t i = 0; !rc && i < count; i++) {
        if (d->cover_of[found[i]] != 0)
            continue;
        vertex[extra] = found[i];
        slots[extra++] = 2;
    }
    const int32_t terminal[2] = {d->view.source, d->view.sink};
    for (int i = 0; !rc && i < 2; i++) {
        int64_t u = terminal[i];
        vertex[extra] = u;
        slots[extra++] = fresh + d->used[u] - d->dead[u];
    }
    dyn_plan plan;
    if (!rc)
        rc = pf_dyn_plan(d, vertex, slots, extra, 0, 0, &plan, st);
    if (!rc) {
        pf_dyn_plan_commit(d, &plan);
        out->recompacted = 1;
    }
    free(vertex);
    free(slots);
    return rc;
}

/* Room in the table for `more` pairs. */
static int reserve_pairs(pf_dyn_graph *d, int64_t more, pf_status *st)
{
    int64_t need = d->cover_count + more;
    if (need <= d->cover_room)
        return PF_OK;
    int64_t room = d->cover_room * 2 > need ? d->cover_room * 2 : need + 16;
    int ok = 1;
    d->covers = pf_regrow(d->covers, (size_t)room, sizeof *d->covers, &ok);
    for (int i = 0; i < 2; i++)
        d->spare[i] = pf_regrow(d->spare[i], (size_t)room, sizeof *d->spare[i], &ok);
    if (!ok)
        return pf_fail(st, PF_E_NOMEM, "dynamic graph: out of memory for %lld deficit pairs",
                       (long long)room);
    d->cover_room = room;
    return PF_OK;
}

/* The table entries and terminal slots of the pairs that found[0..count)
 * lack, in turn (the terminals' slots are taken one after another): each
 * new pair's sink slot in sink_slot[i], -1 for a vertex that has its
 * pair. Each new pair's place in the table goes to place[i] where given
 * (the caller tells the vertex), else to the vertex's cover_of. */
static void new_pairs(pf_dyn_graph *d, const int64_t *found, int64_t count, int64_t *sink_slot,
                      int64_t *place, int threads)
{
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1))
    for (int64_t i = 0; i < count; i++)
        sink_slot[i] = d->cover_of[found[i]] == 0 ? 0 : -1;
    for (int64_t i = 0; i < count; i++) {
        if (sink_slot[i] < 0)
            continue;
        pf_dyn_cover_pair *p = &d->covers[d->cover_count];
        p->v = (int32_t)found[i];
        p->in = take_terminal_slot(d, 0);
        sink_slot[i] = take_terminal_slot(d, 1);
        if (place)
            place[i] = d->cover_count;
        else
            d->cover_of[found[i]] = d->cover_count + 1;
        d->cover_count++;
    }
}

/* What covering adds to the graph's totals, per thread. */
typedef struct cover_sums {
    pf_dyn_toucher touched;
    int64_t covered, live_arcs;
} cover_sums;

/* v's pair (its v-side slots taken and both arcs linked where it is new:
 * sink_slot >= 0), both arcs raised by delta, the source arc's flow with
 * them: v's excess rises by delta. Touches only v's own slots and its
 * pair's, so vertices are covered on many threads at once. */
static void cover(pf_dyn_graph *d, int32_t v, int64_t delta, int64_t sink_slot, cover_sums *sum)
{
    const int32_t s = d->view.source, t = d->view.sink;
    pf_dyn_cover_pair *p = &d->covers[d->cover_of[v] - 1];
    if (sink_slot >= 0) {
        int64_t in_rev = pf_dyn_take_slot(d, v);
        p->out = pf_dyn_take_slot(d, v);
        link_pair(d, &sum->touched, p->in, in_rev, v, s);
        link_pair(d, &sum->touched, p->out, sink_slot, t, v);
        sum->live_arcs += 2;
    }
    d->view.cap[p->in] += delta;
    d->res[d->view.rev[p->in]] += delta;
    d->view.cap[p->out] += delta;
    d->res[p->out] += delta;
    d->excess[v] += delta;
    sum->covered += delta;
    pf_dyn_touch_shared(d, &sum->touched, 0, p->in);
    pf_dyn_touch_shared(d, &sum->touched, 0, d->view.rev[p->in]);
    pf_dyn_touch_shared(d, &sum->touched, 0, p->out);
    pf_dyn_touch_shared(d, &sum->touched, 1, v);
}

/* Every vertex of found[0..count) covered (their pairs reserved). */
static void cover_all(pf_dyn_graph *d, const int64_t *found, int64_t count)
{
    int64_t *sink_slot = d->walk_cur; /* scratch: vertex_cap entries */
    const int threads = cover_threads(d, count);
    /* the new pairs' table places, to tell their vertices on the threads */
    int64_t *place = threads > 1 ? malloc((size_t)count * sizeof *place) : NULL;
    new_pairs(d, found, count, sink_slot, place, threads);
    int64_t covered = 0, live_arcs = 0;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1) reduction(+ : covered, live_arcs))
    {
        cover_sums sum;
        memset(&sum, 0, sizeof sum);
        PF_OMP(omp for schedule(dynamic, 256))
        for (int64_t i = 0; i < count; i++) {
            if (place && sink_slot[i] >= 0)
                d->cover_of[found[i]] = place[i] + 1;
            cover(d, (int32_t)found[i], -d->excess[found[i]], sink_slot[i], &sum);
        }
        pf_dyn_touches_flush(d, &sum.touched, 0);
        pf_dyn_touches_flush(d, &sum.touched, 1);
        covered += sum.covered;
        live_arcs += sum.live_arcs;
    }
    free(place);
    pf_dyn_touches_close(d);
    d->excess[d->view.source] -= covered;
    d->source_cap += covered;
    d->cover_total += covered;
    d->live_arcs += live_arcs;
    pf_dyn_touch_vertex(d, d->view.source);
}

/* Whether v's deficit is one to cover, where list[k] (or k) names it. */
static int to_cover(const pf_dyn_graph *d, const int64_t *list, int64_t k)
{
    const int64_t v = list ? list[k] : k;
    return v != d->view.source && v != d->view.sink && d->excess[v] < 0 &&
           (!list || d->walk_dist[v] == (int32_t)k);
}

/* gather_deficits on `threads` threads: each listed vertex kept where it
 * is first named (the smallest place naming it, in walk_dist), the kept
 * ones written in blocks, each after those of the blocks before it; -1
 * without memory for the blocks' table (the caller gathers on one). */
static int64_t gather_on_threads(pf_dyn_graph *d, const int64_t *list, int64_t count,
                                 int threads, int64_t *total, int *sink_short)
{
    const int64_t blocks = 4 * (int64_t)threads, block = (count + blocks - 1) / blocks;
    int64_t *at = malloc((size_t)(blocks + 1) * sizeof *at);
    if (!at)
        return -1;
    int32_t *first_named = d->walk_dist; /* scratch (the repair sets its own) */
    const int32_t s = d->view.source, t = d->view.sink;
    int64_t sum = 0;
    int sink = 0;
    PF_OMP(omp parallel num_threads(threads))
    {
        if (list) {
            PF_OMP(omp for schedule(static))
            for (int64_t k = 0; k < count; k++)
                if (list[k] != s && d->excess[list[k]] < 0)
                    __atomic_store_n(&first_named[list[k]], INT32_MAX, __ATOMIC_RELAXED);
            PF_OMP(omp for schedule(static))
            for (int64_t k = 0; k < count; k++) {
                if (list[k] == s || d->excess[list[k]] >= 0)
                    continue;
                int32_t *slot = &first_named[list[k]];
                int32_t now = __atomic_load_n(slot, __ATOMIC_RELAXED);
                while ((int32_t)k < now &&
                       !__atomic_compare_exchange_n(slot, &now, (int32_t)k, 0, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED))
                    ;
            }
        }
        PF_OMP(omp for schedule(static) reduction(+ : sum) reduction(|| : sink))
        for (int64_t j = 0; j < blocks; j++) {
            int64_t kept = 0;
            for (int64_t k = j * block; k < count && k < (j + 1) * block; k++) {
                const int64_t v = list ? list[k] : k;
                sink = sink || (v == t && d->excess[t] < 0);
                if (to_cover(d, list, k)) {
                    kept++;
                    sum -= d->excess[v];
                }
            }
            at[j + 1] = kept;
        }
        PF_OMP(omp single)
        {
            at[0] = 0;
            for (int64_t j = 0; j < blocks; j++)
                at[j + 1] += at[j];
        }
        PF_OMP(omp for schedule(static))
        for (int64_t j = 0; j < blocks; j++) {
            int64_t *out = d->walk_path + at[j];
            for (int64_t k = j * block; k < count && k < (j + 1) * block; k++)
                if (to_cover(d, list, k))
                    *out++ = list ? list[k] : k;
        }
    }
    const int64_t found = at[blocks];
    free(at);
    *total = sum;
    *sink_short = sink;
    return found;
}

/* The listed vertices (every vertex where list is NULL) with a deficit,
 * each once, into d->walk_path; the sink's, which no pair can cover, is
 * reported in *sink_short. Returns how many. */
static int64_t gather_deficits(pf_dyn_graph *d, const int64_t *list, int64_t len,
                               int64_t *total, int *sink_short)
{
    const int64_t count = list ? len : d->view.n;
    const int threads = cover_threads(d, count);
    if (threads > 1 && count < INT32_MAX) {
        int64_t found = gather_on_threads(d, list, count, threads, total, sink_short);
        if (found >= 0)
            return found;
    }
    int64_t found = 0;
    *total = 0;
    *sink_short = 0;
    for (int64_t k = 0; k < count; k++) {
        int64_t v = list ? list[k] : k;
        if (v == d->view.source || d->excess[v] >= 0 || d->walk_mark[v])
            continue;
        if (v == d->view.sink) {
            *sink_short = 1;
            continue;
        }
        d->walk_mark[v] = 1;
        d->walk_path[found++] = v;
        *total -= d->excess[v];
    }
    for (int64_t i = 0; i < found; i++)
        d->walk_mark[d->walk_path[i]] = 0;
    return found;
}

int pf_dyn_cover_list(pf_dyn_graph *d, const int64_t *list, int64_t len, pf_dyn_batch_out *out,
                      pf_status *st)
{
    int64_t total = 0, sum = 0;
    int sink_short = 0;
    int64_t count = gather_deficits(d, list, len, &total, &sink_short);
    int rc = PF_OK;
    if (sink_short) {
        const int64_t sink = d->view.sink;
        rc = pf_dyn_repair_list(d, &sink, 1, out, st);
    }
    if (rc || count == 0)
        return rc;
    /* The pairs need slots, perhaps a layout (which gives walk_path new
     * memory: the list is kept aside over it), and a table entry each. */
    int fits = !__builtin_add_overflow(d->source_cap, total, &sum) &&
               !__builtin_add_overflow(d->cover_total, total, &sum);
    pf_status room_st = {0};
    int room = PF_OK;
    if (fits && !pairs_fit(d, d->walk_path, count, without_pair(d, d->walk_path, count))) {
        int64_t *kept = pf_alloc((size_t)count, sizeof *kept, &room_st);
        room = kept ? PF_OK : PF_E_NOMEM;
        if (kept) {
            memcpy(kept, d->walk_path, (size_t)count * sizeof *kept);
            room = make_room(d, kept, count, out, &room_st);
            memcpy(d->walk_path, kept, (size_t)count * sizeof *kept);
            free(kept);
        }
    }
    const int64_t *found = d->walk_path;
    if (fits && !room)
        room = reserve_pairs(d, without_pair(d, found, count), &room_st);
    if (!fits || room) {
        /* No memory for the layout, or totals past int64: the repair,
         * which needs neither (and uses walk_path itself: it scans). */
        if (room && room != PF_E_NOMEM) {
            if (st)
                *st = room_st;
            return room;
        }
        return pf_dyn_repair_list(d, NULL, 0, out, st);
    }
    cover_all(d, found, count);
    out->deficits += count;
    out->covered += count;
    return PF_OK;
}

void pf_dyn_cover_trim(pf_dyn_graph *d)
{
    const int32_t s = d->view.source, t = d->view.sink;
    for (int64_t k = 0; k < d->cover_count; k++) {
        const pf_dyn_cover_pair *p = &d->covers[k];
        int64_t in_rev = d->view.rev[p->in], out_rev = d->view.rev[p->out];
        int64_t m = d->res[out_rev] < d->res[in_rev] ? d->res[out_rev] : d->res[in_rev];
        if (m <= 0)
            continue;
        d->view.cap[p->in] -= m;
        d->res[in_rev] -= m;
        d->view.cap[p->out] -= m;
        d->res[out_rev] -= m;
        d->excess[s] += m;
        d->excess[t] -= m;
        d->source_cap -= m;
        d->cover_total -= m;
        pf_dyn_touch_slot(d, p->in);
        pf_dyn_touch_slot(d, in_rev);
        pf_dyn_touch_slot(d, p->out);
        pf_dyn_touch_slot(d, out_rev);
        pf_dyn_touch_vertex(d, s);
        pf_dyn_touch_vertex(d, t);
    }
}

int pf_dyn_is_cover_slot(const pf_dyn_graph *d, int64_t a)
{
    int64_t k = d->cover_of[d->view.head[a]];
    if (k != 0 && d->covers[k - 1].in == a)
        return 1;
    k = d->cover_of[d->view.head[d->view.rev[a]]];
    return k != 0 && d->covers[k - 1].out == a;
}
