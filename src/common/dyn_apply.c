/* Batches of changes on the dynamic residual graph (dyn_graph.h): the
 * check that refuses a bad batch whole, the plan that does every
 * allocation before anything changes, the changes themselves with their
 * flow rules, and the deficit repair that makes the preflow valid again. */
#include "dyn_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "dyn_layout.h"
#include "knobs.h"
#include "omp_threads.h"
#include "sort.h"
#include "status.h"
#include "timer.h"

/* ---- the check ---- */

/* Change x (index k) judged against the graph with n vertices and `ids`
 * ids (those of the changes before it counted): PF_OK, with what it may
 * add to the source's capacity in *to_source, or the error (st set where
 * given). A deletion inside the batch aside: first_use_after_delete. */
static int judge_change(const pf_dyn_graph *d, const pf_dyn_change *x, int64_t k, int64_t n,
                        int64_t ids, int64_t *to_source, pf_status *st)
{
    const int32_t s = d->view.source;
    *to_source = 0;
    switch (x->kind) {
    case PF_DYN_CAP:
    case PF_DYN_DEL:
        if (x->id < 0 || x->id >= ids)
            return pf_fail(st, PF_E_INPUT, "change %lld: arc %lld does not exist (%lld arcs)",
                           (long long)k, (long long)x->id, (long long)ids);
        if (x->id < d->ids && d->deleted[x->id])
            return pf_fail(st, PF_E_INPUT, "change %lld: arc %lld was deleted", (long long)k,
                           (long long)x->id);
        if (x->kind == PF_DYN_CAP && x->cap < 0)
            return pf_fail(st, PF_E_INPUT, "change %lld: negative capacity %lld", (long long)k,
                           (long long)x->cap);
        /* An added arc's tail is not looked up: counted as the source's. */
        if (x->kind == PF_DYN_CAP && (x->id >= d->ids || d->tail_of[x->id] == s))
            *to_source = x->cap;
        return PF_OK;
    case PF_DYN_ADD:
        if (x->tail < 0 || x->tail >= n || x->head < 0 || x->head >= n)
            return pf_fail(st, PF_E_INPUT,
                           "change %lld: vertex %lld outside the graph (%lld vertices)",
                           (long long)k,
                           (long long)(x->tail < 0 || x->tail >= n ? x->tail : x->head),
                           (long long)n);
        if (x->cap < 0)
            return pf_fail(st, PF_E_INPUT, "change %lld: negative capacity %lld", (long long)k,
                           (long long)x->cap);
        if (x->tail == s)
            *to_source = x->cap;
        return PF_OK;
    case PF_DYN_ADDV:
        if (x->count < 1)
            return pf_fail(st, PF_E_INPUT, "change %lld: adds %lld vertices (at least 1)",
                           (long long)k, (long long)x->count);
        if (x->count > PF_MAX_VERTICES - n)
            return pf_fail(st, PF_E_INPUT,
                           "change %lld: %lld more vertices pass the limit of %lld vertices",
                           (long long)k, (long long)x->count, (long long)PF_MAX_VERTICES);
        return PF_OK;
    default:
        return pf_fail(st, PF_E_INPUT, "change %lld: unknown kind %d", (long long)k,
                       (int)x->kind);
    }
}

/* The ids and vertices change x adds (a bad count: past any limit). */
static void change_adds(const pf_dyn_change *x, int64_t *ids, int64_t *n)
{
    *ids += x->kind == PF_DYN_ADD;
    if (x->kind == PF_DYN_ADDV)
        *n += x->count > 0 && x->count <= PF_MAX_VERTICES ? x->count : PF_MAX_VERTICES + 1;
}

/* The first change of c that is bad on its own terms or against the graph
 * with the changes before it; count when none is, with st set for it
 * otherwise. */
static int64_t first_bad_change(const pf_dyn_graph *d, const pf_dyn_change *c, int64_t count,
                                pf_status *st)
{
    int64_t n = d->view.n, ids = d->ids, source_cap = d->source_cap, to_source = 0;
    for (int64_t k = 0; k < count; k++) {
        if (judge_change(d, &c[k], k, n, ids, &to_source, st))
            return k;
        if (__builtin_add_overflow(source_cap, to_source, &source_cap)) {
            pf_fail(st, PF_E_INPUT,
                    "change %lld: the capacity out of the source passes 2^63 - 1", (long long)k);
            return k;
        }
        change_adds(&c[k], &ids, &n);
    }
    return count;
}

/* A long batch is judged in chunks on the host's threads (chunks.h): the
 * counts are the ids and the vertices, the total the source's capacity. */
typedef struct check_walk {
    const pf_dyn_graph *d;
    const pf_dyn_change *c;
} check_walk;

static void check_adds(const void *ctx, int64_t k, int64_t counts[2])
{
    const check_walk *w = ctx;
    change_adds(&w->c[k], &counts[0], &counts[1]);
}

static int check_fault(const void *ctx, int64_t k, const int64_t counts[2], int64_t *more)
{
    const check_walk *w = ctx;
    return judge_change(w->d, &w->c[k], k, counts[1], counts[0], more, NULL);
}

/* 1 when no change of c is bad (first_bad_change would return count); 0
 * when one may be, or the chunks' table could not be had. */
static int all_changes_fine(const pf_dyn_graph *d, const pf_dyn_change *c, int64_t count)
{
    const check_walk w = {.d = d, .c = c};
    const pf_chunk_judge j = {.ctx = &w, .count = count, .start = {d->ids, d->view.n},
                              .most = {INT64_MAX - 1, PF_MAX_VERTICES}, .total = d->source_cap,
                              .adds = check_adds, .fault = check_fault};
    return pf_chunks_fine(&j, pf_resolve_threads(d->params.threads));
}

/* The first of the changes before `limit` that names an arc an earlier
 * change of the batch deleted; limit when none does. The uses sort as
 * (arc id, at which change). */
static int64_t first_use_after_delete(const pf_dyn_change *c, int64_t limit, int64_t *deleted_by,
                                      pf_status *st)
{
    int64_t uses = 0, dels = 0;
    for (int64_t k = 0; k < limit; k++) {
        uses += c[k].kind == PF_DYN_CAP || c[k].kind == PF_DYN_DEL;
        dels += c[k].kind == PF_DYN_DEL;
    }
    if (dels == 0 || uses < 2)
        return limit;
    pf_id_at *list = pf_alloc((size_t)uses, sizeof *list, st);
    pf_id_at *tmp = pf_alloc((size_t)uses, sizeof *tmp, st);
    if (!list || !tmp) {
        PF_FREE_ALL(list, tmp);
        return -1;
    }
    int64_t j = 0, max_id = 0;
    for (int64_t k = 0; k < limit; k++) {
        if (c[k].kind != PF_DYN_CAP && c[k].kind != PF_DYN_DEL)
            continue;
        list[j++] = (pf_id_at){.id = c[k].id, .at = k};
        max_id = c[k].id > max_id ? c[k].id : max_id;
    }
    const pf_id_at *u = pf_radix_sort_id_at(list, tmp, uses, max_id);
    int64_t bad = limit;
    for (int64_t i = 0; i + 1 < uses; i++) {
        /* The first deletion of an id: the next use of it is bad. */
        if (c[u[i].at].kind == PF_DYN_DEL && u[i + 1].id == u[i].id && u[i + 1].at < bad) {
            bad = u[i + 1].at;
            *deleted_by = u[i].at;
        }
    }
    PF_FREE_ALL(list, tmp);
    return bad;
}

int pf_dyn_check(const pf_dyn_graph *d, const pf_dyn_change *c, int64_t count, pf_status *st)
{
    if (count < 0 || (count > 0 && !c))
        return pf_fail(st, PF_E_USAGE, "pf_dyn_check: %lld changes at %p", (long long)count,
                       (const void *)c);
    pf_status first_st = {0};
    int64_t bad = count >= PF_CHUNKS_MIN && all_changes_fine(d, c, count)
                      ? count
                      : first_bad_change(d, c, count, &first_st);
    int64_t deleted_by = -1;
    int64_t reused = first_use_after_delete(c, bad, &deleted_by, st);
    if (reused < 0)
        return PF_E_NOMEM;
    if (reused < bad)
        return pf_fail(st, PF_E_INPUT, "change %lld: arc %lld was deleted (by change %lld)",
                       (long long)reused, (long long)c[reused].id, (long long)deleted_by);
    if (bad < count) {
        if (st)
            *st = first_st;
        return first_st.code;
    }
    return PF_OK;
}

/* ---- the plan ---- */

/* What a batch needs before it starts, all of it allocated. */
typedef struct batch_plan {
    int64_t adds, new_vertices, new_slots;
    int64_t *extra_vertex, *extra_slots, extra_count; /* old vertices' demand */
    int64_t *new_demand;   /* new vertices: slots the batch's arcs take at each */
    pf_dyn_batch_lists *lists; /* the graph's */
    int need_layout;
    int room_short;        /* the layout is for a vertex's room */
    int growth;            /* ... or for vertices or slots past the arrays' room */
    dyn_windows windows;   /* a room layout made in windows (windows.count > 0) */
    dyn_plan layout;       /* else the whole one */
} batch_plan;

static void batch_plan_free(batch_plan *b)
{
    PF_FREE_ALL(b->extra_vertex, b->extra_slots, b->new_demand);
    pf_dyn_windows_free(&b->windows);
    pf_dyn_plan_free(&b->layout);
}

/* Ends of added arcs from which a batch's demand is counted on the
 * host's threads. */
enum { PLAN_PARALLEL_MIN = 1 << 12 };

/* Every added arc's ends, and each vertex's demand: an old vertex with
 * less room than that calls for a layout. */
static int plan_demand(pf_dyn_graph *d, const pf_dyn_change *c, int64_t count,
                       batch_plan *b, pf_status *st)
{
    const int64_t n0 = d->view.n;
    for (int64_t k = 0; k < count; k++) {
        b->adds += c[k].kind == PF_DYN_ADD;
        b->new_vertices += c[k].kind == PF_DYN_ADDV ? c[k].count : 0;
    }
    /* the added arcs' ends (2 per arc, not self-loops), sorted */
    pf_id_at *ends = pf_alloc((size_t)(2 * b->adds + 1), sizeof *ends, st);
    pf_id_at *tmp = pf_alloc((size_t)(2 * b->adds + 1), sizeof *tmp, st);
    b->extra_vertex = pf_alloc((size_t)(2 * b->adds + 1), sizeof *b->extra_vertex, st);
    b->extra_slots = pf_alloc((size_t)(2 * b->adds + 1), sizeof *b->extra_slots, st);
    b->new_demand = pf_calloc((size_t)(b->new_vertices + 1), sizeof *b->new_demand, st);
    int rc = ends && tmp && b->extra_vertex && b->extra_slots && b->new_demand ? PF_OK
                                                                              : PF_E_NOMEM;
    if (!rc)
        rc = (b->lists = pf_dyn_batch_lists_get(d, count, st)) ? PF_OK : PF_E_NOMEM;
    if (rc) {
        PF_FREE_ALL(ends, tmp);
        return rc;
    }
    int64_t ends_count = 0;
    for (int64_t k = 0; k < count; k++) {
        if (c[k].kind != PF_DYN_ADD || c[k].tail == c[k].head)
            continue;
        ends[ends_count++] = (pf_id_at){.id = c[k].tail, .at = k};
        ends[ends_count++] = (pf_id_at){.id = c[k].head, .at = k};
    }
    const pf_id_at *sorted = pf_radix_sort_id_at(ends, tmp, ends_count, n0 + b->new_vertices);
    /* each vertex's run of ends: its demand (the room lookups wait on
     * memory: on the host's threads for a long batch) */
    int64_t new_slots = 0;
    int short_room = 0;
    const int threads = ends_count >= PLAN_PARALLEL_MIN ? pf_resolve_threads(d->params.threads) : 1;
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1)
           reduction(+ : new_slots) reduction(|| : short_room))
    for (int64_t i = 0; i < ends_count; i++) {
        const int64_t u = sorted[i].id;
        if (i > 0 && sorted[i - 1].id == u)
            continue;
        int64_t k = 1;
        while (i + k < ends_count && sorted[i + k].id == u)
            k++;
        if (u >= n0) {
            b->new_demand[u - n0] = k;
            new_slots += k;
        } else {
            short_room = short_room || pf_dyn_room_at(d, u) < k;
        }
    }
    b->new_slots = b->new_vertices * d->params.slack_min + new_slots;
    b->need_layout = b->room_short = short_room;
    b->growth = n0 + b->new_vertices > d->vertex_cap ||
                d->view.first[n0] + b->new_slots > d->slot_cap;
    b->need_layout |= b->growth;
    /* a layout gives the old vertices their demand */
    for (int64_t i = 0; b->need_layout && i < ends_count;) {
        int64_t u = sorted[i].id, k = 0;
        for (; i < ends_count && sorted[i].id == u; i++)
            k++;
        if (u < n0) {
            b->extra_vertex[b->extra_count] = u;
            b->extra_slots[b->extra_count++] = k;
        }
    }
    PF_FREE_ALL(ends, tmp);
    return PF_OK;
}

/* Room in the id arrays for `need` ids; the arrays keep their contents. */
static int grow_ids(pf_dyn_graph *d, int64_t need, pf_status *st)
{
    if (need <= d->ids_cap)
        return PF_OK;
    int64_t cap = d->ids_cap * 2 > need ? d->ids_cap * 2 : need;
    size_t k = (size_t)cap;
    int ok = 1;
    d->slot_of = pf_regrow(d->slot_of, k, sizeof *d->slot_of, &ok);
    d->tail_of = pf_regrow(d->tail_of, k, sizeof *d->tail_of, &ok);
    d->head_of = pf_regrow(d->head_of, k, sizeof *d->head_of, &ok);
    d->cap_of = pf_regrow(d->cap_of, k, sizeof *d->cap_of, &ok);
    d->deleted = pf_regrow(d->deleted, k, sizeof *d->deleted, &ok);
    if (!ok)
        return pf_fail(st, PF_E_NOMEM, "dynamic graph: out of memory for %lld arc ids",
                       (long long)cap);
    d->ids_cap = cap;
    return PF_OK;
}

int pf_dyn_set_slot_cap(pf_dyn_graph *d, int64_t slot, int64_t cap, pf_status *st)
{
    if (slot < 0 || slot >= d->view.arcs || d->view.rev[slot] == slot ||
        d->view.cap[d->view.rev[slot]] != 0)
        return pf_fail(st, PF_E_INPUT, "pf_dyn_set_slot_cap: slot %lld is not a forward slot",
                       (long long)slot);
    if (cap < 0)
        return pf_fail(st, PF_E_INPUT, "pf_dyn_set_slot_cap: negative capacity %lld",
                       (long long)cap);
    int64_t tail = d->view.head[d->view.rev[slot]], total = 0;
    if (tail == d->view.source &&
        __builtin_add_overflow(d->source_cap - d->view.cap[slot], cap, &total))
        return pf_fail(st, PF_E_INPUT,
                       "pf_dyn_set_slot_cap: the capacity out of the source passes 2^63 - 1");
    pf_dyn_batch_out out = {0};
    if (pf_dyn_cut_slot(d, slot, cap, &out))
        d->deficits_pending = 1;
    return PF_OK;
}

/* Both passes of pf_dyn_take_preflow read every vertex or every arc of the
 * source (half the pixels of a grid) after every solve of a session: on
 * the host's threads from this many on. */
enum { TAKE_PARALLEL_MIN = 1 << 16 };

int64_t pf_dyn_source_shortfall(const pf_dyn_graph *d)
{
    const int32_t s = d->view.source;
    const int64_t n = d->view.n, *excess = d->excess;
    const int threads = pf_resolve_threads(d->params.threads);
    int64_t others = 0;
    PF_OMP(omp parallel for reduction(+ : others) schedule(static) num_threads(threads)
           if (threads > 1 && n >= TAKE_PARALLEL_MIN))
    for (int64_t v = 0; v < n; v++)
        others += v == s ? 0 : excess[v];
    return excess[s] + others;
}

int64_t pf_dyn_saturate_source(pf_dyn_graph *d)
{
    const int32_t s = d->view.source;
    const int64_t begin = d->view.first[s], end = d->view.first[s + 1];
    const int64_t *res = d->res;
    const int threads = pf_resolve_threads(d->params.threads);
    int64_t open = 0;
    PF_OMP(omp parallel for reduction(+ : open) schedule(static) num_threads(threads)
           if (threads > 1 && end - begin >= TAKE_PARALLEL_MIN))
    for (int64_t a = begin; a < end; a++)
        open += res[a] > 0;
    int64_t pushed = 0;
    for (int64_t a = begin; open > 0 && a < end; a++) {
        int64_t c = pf_dyn_saturate_slot(d, a);
        if (c > 0) {
            pf_dyn_touch_vertex(d, d->view.head[a]);
            pf_dyn_touch_vertex(d, s);
            pushed += c;
        }
    }
    return pushed;
}

int64_t pf_dyn_take_preflow(pf_dyn_graph *d)
{
    d->excess[d->view.source] -= pf_dyn_source_shortfall(d);
    return pf_dyn_saturate_source(d);
}

/* ---- the batch ---- */

/* The deficits of the listed vertices (NULL: of every vertex) covered or
 * repaired, as the graph is set to; none is pending after it. */
static int fix_deficits(pf_dyn_graph *d, const int64_t *list, int64_t len,
                        pf_dyn_batch_out *out, pf_status *st)
{
    int rc = d->cover_deficits ? pf_dyn_cover_list(d, list, len, out, st)
                               : pf_dyn_repair_list(d, list, len, out, st);
    if (!rc)
        d->deficits_pending = 0;
    return rc;
}

/* A layout for a vertex's room within SLACK_SOON batches of the last one
 * (or of the build) raises the free slots every vertex gets by SLACK_STEP,
 * up to SLACK_MOST: a layout gives each vertex the same slack again, and
 * among millions of vertices a stream of random added arcs soon brings
 * one past it (each layout a pass over every slot, and on a device a
 * whole upload). Rare layouts leave the slack as it is. */
enum { SLACK_SOON = 8, SLACK_STEP = 2, SLACK_MOST = 10 };

static void slack_for_stream(pf_dyn_graph *d, int64_t batch)
{
    if (batch - d->last_room_layout <= SLACK_SOON && d->params.slack_min < SLACK_MOST) {
        int32_t more = d->params.slack_min + SLACK_STEP;
        d->params.slack_min = more < SLACK_MOST ? more : SLACK_MOST;
    }
    d->last_room_layout = batch;
}

int pf_dyn_apply(pf_dyn_graph *d, const pf_dyn_change *c, int64_t count, pf_dyn_batch_out *out,
                 pf_status *st)
{
    double t[5];
    t[0] = pf_now();
    int rc = pf_dyn_check(d, c, count, st);
    if (rc)
        return rc;
    batch_plan p = {0};
    t[1] = pf_now();
    rc = plan_demand(d, c, count, &p, st);
    if (!rc)
        rc = grow_ids(d, d->ids + p.adds, st);
    const int32_t slack_min = d->params.slack_min;
    const int64_t last_room_layout = d->last_room_layout;
    if (!rc && p.need_layout && !p.growth) {
        rc = pf_dyn_windows_plan(d, p.extra_vertex, p.extra_slots, p.extra_count, &p.windows,
                                 st);
        if (rc == PF_DYN_WHOLE) {
            pf_dyn_windows_free(&p.windows);
            rc = PF_OK;
        }
    }
    if (!rc && p.need_layout && p.windows.count == 0) {
        if (p.room_short) {
            /* the new vertices get the raised slack too */
            slack_for_stream(d, d->batches_applied + 1);
            p.new_slots += p.new_vertices * (d->params.slack_min - slack_min);
        }
        rc = pf_dyn_plan(d, p.extra_vertex, p.extra_slots, p.extra_count, p.new_vertices,
                         p.new_slots, &p.layout, st);
    }
    if (rc) { /* refused: as it was */
        d->params.slack_min = slack_min;
        d->last_room_layout = last_room_layout;
        batch_plan_free(&p);
        return rc;
    }
    d->batches_applied++;
    pf_dyn_batch_out done = {0};
    t[2] = pf_now();
    if (p.windows.count > 0) {
        pf_dyn_windows_commit(d, &p.windows);
    } else if (p.need_layout) {
        pf_dyn_plan_commit(d, &p.layout);
        done.recompacted = 1;
    }
    t[3] = pf_now();
    pf_dyn_apply_changes(d, c, count, p.new_demand, p.lists, &done);
    t[4] = pf_now();
    if (d->deficits_pending)
        rc = fix_deficits(d, NULL, 0, &done, st);
    else
        rc = fix_deficits(d, p.lists->deficits, p.lists->deficit_count, &done, st);
    if (pf_knobs()->trace)
        fprintf(stderr,
                "portaflow trace: batch of %lld changes: check %.4f s, plan %.4f, layout %.4f "
                "(%s), arcs %.4f (%d threads), reroutes %.4f (%lld of %lld flow), deficits %.4f "
                "(%lld, %lld covered)\n",
                (long long)count, t[1] - t[0], t[2] - t[1], t[3] - t[2],
                p.windows.count > 0 ? "windows" : p.need_layout ? "whole" : "none",
                p.lists->arcs_s, p.lists->threads, p.lists->reroutes_s, (long long)done.rerouted,
                (long long)done.flow_cut, pf_now() - t[4], (long long)done.deficits,
                (long long)done.covered);
    batch_plan_free(&p);
    if (out)
        *out = done;
    return rc;
}

int pf_dyn_repair(pf_dyn_graph *d, pf_dyn_batch_out *out, pf_status *st)
{
    pf_dyn_batch_out counts = {0};
    int rc = fix_deficits(d, NULL, 0, &counts, st);
    if (out) {
        out->deficits += counts.deficits;
        out->covered += counts.covered;
        out->recompacted |= counts.recompacted;
        out->repair_steps += counts.repair_steps;
    }
    return rc;
}
