/* Local layouts of the dynamic graph (dyn_layout.h). Where a batch needs
 * more slots at a few vertices than their ranges hold, the vertices
 * around each one are laid out again inside the slots they hold together
 * (a window), as a whole layout would lay them out: each its live slots,
 * what the batch takes there and its slack. Every slot outside the
 * windows stays where it is, so the arrays are kept, and a device's copy
 * is brought up to date by the windows' slots and the vertices' starts
 * instead of the whole graph (the full layout costs a pass over every
 * slot into new memory, and then the whole upload).
 *
 * A window grows from its vertex outwards, a vertex at a time on
 * alternate sides, until the slots it covers hold its vertices' live ones
 * and what the batch takes there (their bases) with free slots to spare:
 * at least half the slack a layout would give them (their shares). Each
 * vertex then gets its base and its share of the window's free slots.
 * Windows that meet are merged. One past WINDOW_VERTICES vertices, or a
 * graph without the room anywhere near, calls for the whole layout. */
#include <stdlib.h>
#include <string.h>

#include "dyn_graph.h"
#include "dyn_layout.h"
#include "omp_threads.h"
#include "sort.h"
#include "status.h"

enum { WINDOW_VERTICES = 1 << 16, WINDOWS_MOST = 256 };

void pf_dyn_windows_free(dyn_windows *w)
{
    PF_FREE_ALL(w->win, w->first, w->live, w->map, w->head, w->rev, w->cap, w->res, w->pages);
    memset(w, 0, sizeof *w);
}

/* What the batch takes at v (the requests are sorted by vertex). */
static int64_t need_of(const int64_t *vertex, const int64_t *need, int64_t count, int64_t v)
{
    const int64_t at = pf_lower_bound_i64(vertex, count, v);
    return at < count && vertex[at] == v ? need[at] : 0;
}

/* A window vertex's live slots with what the batch takes there (its
 * base), and the slack a layout would give it on top (its share). */
static int64_t base_of(const pf_dyn_graph *d, int64_t v, int64_t need)
{
    return d->used[v] - d->dead[v] + need;
}

static int64_t share_of(const pf_dyn_graph *d, int64_t v, int64_t base)
{
    int64_t share = pf_dyn_slack_for(&d->params, base);
    if (v == d->view.source || v == d->view.sink)
        share += pf_dyn_terminal_room(d->view.n);
    return share;
}

typedef struct request_list {
    const int64_t *vertex, *need;
    int64_t count;
} request_list;

/* A window's sums: its vertices' bases and shares. */
typedef struct window_sums {
    int64_t base, share;
} window_sums;

static void add_vertex(const pf_dyn_graph *d, const request_list *r, int64_t v, window_sums *sum)
{
    const int64_t base = base_of(d, v, need_of(r->vertex, r->need, r->count, v));
    sum->base += base;
    sum->share += share_of(d, v, base);
}

/* The free slots of a window of `slots` slots: enough when they come to
 * at least half the shares (each vertex gets its share of them). */
static int window_holds(int64_t slots, const window_sums *sum)
{
    return slots - sum->base >= 0 && 2 * (slots - sum->base) >= sum->share;
}

/* Grows [*lo, *hi] until its slots hold what its vertices need; 0 when
 * it would pass the limits first. */
static int grow_window(const pf_dyn_graph *d, const request_list *r, int64_t *lo, int64_t *hi)
{
    const int64_t *first = d->view.first, n = d->view.n;
    window_sums sum = {0};
    for (int64_t v = *lo; v <= *hi; v++)
        add_vertex(d, r, v, &sum);
    for (int right = 1; !window_holds(first[*hi + 1] - first[*lo], &sum); right = !right) {
        if (*hi - *lo + 1 >= WINDOW_VERTICES || (*lo == 0 && *hi == n - 1))
            return 0;
        int64_t v = (right && *hi + 1 < n) || *lo == 0 ? ++*hi : --*lo;
        add_vertex(d, r, v, &sum);
    }
    return 1;
}

int pf_dyn_windows_plan(const pf_dyn_graph *d, const int64_t *vertex, const int64_t *need,
                        int64_t count, dyn_windows *w, pf_status *st)
{
    memset(w, 0, sizeof *w);
    if (d->params.whole_layouts)
        return PF_DYN_WHOLE;
    const request_list r = {.vertex = vertex, .need = need, .count = count};
    const int64_t *first = d->view.first;
    int64_t room = 16;
    w->win = pf_alloc((size_t)room, sizeof *w->win, st);
    if (!w->win)
        return PF_E_NOMEM;
    for (int64_t i = 0; i < count; i++) {
        const int64_t u = vertex[i];
        if (need[i] <= 0 || pf_dyn_room_at(d, u) >= need[i])
            continue;
        if (w->count > 0 && u <= w->win[w->count - 1].hi)
            continue; /* inside the last window: counted there */
        int64_t lo = u, hi = u;
        if (!grow_window(d, &r, &lo, &hi))
            return PF_DYN_WHOLE;
        /* windows that meet become one, grown again */
        while (w->count > 0 && lo <= w->win[w->count - 1].hi + 1) {
            const dyn_window *last = &w->win[--w->count];
            lo = lo < last->lo ? lo : last->lo;
            hi = hi > last->hi ? hi : last->hi;
            if (!grow_window(d, &r, &lo, &hi))
                return PF_DYN_WHOLE;
        }
        if (w->count == WINDOWS_MOST)
            return PF_DYN_WHOLE;
        if (w->count == room) {
            int ok = 1;
            room *= 2;
            w->win = pf_regrow(w->win, (size_t)room, sizeof *w->win, &ok);
            if (!ok)
                return pf_fail(st, PF_E_NOMEM, "dynamic graph: out of memory for windows");
        }
        w->win[w->count++] = (dyn_window){.lo = lo, .hi = hi, .begin = first[lo],
                                          .end = first[hi + 1]};
    }
    /* the windows' new starts (the last vertex of each takes what is left)
     * and room to copy their slots */
    int64_t vertices = 0;
    for (int64_t k = 0; k < w->count; k++) {
        w->win[k].first_at = vertices;
        w->win[k].map_at = w->slots;
        vertices += w->win[k].hi - w->win[k].lo + 1;
        w->slots += w->win[k].end - w->win[k].begin;
    }
    const size_t s = (size_t)(w->slots > 0 ? w->slots : 1);
    w->first = pf_alloc((size_t)vertices + 1, sizeof *w->first, st);
    w->live = pf_alloc((size_t)vertices + 1, sizeof *w->live, st);
    w->map = pf_alloc(s, sizeof *w->map, st);
    w->head = pf_alloc(s, sizeof *w->head, st);
    w->rev = pf_alloc(s, sizeof *w->rev, st);
    w->cap = pf_alloc(s, sizeof *w->cap, st);
    w->res = pf_alloc(s, sizeof *w->res, st);
    w->pages = pf_alloc((size_t)d->pages, 1, st);
    if (!w->first || !w->live || !w->map || !w->head || !w->rev || !w->cap || !w->res ||
        !w->pages)
        return PF_E_NOMEM;
    /* each vertex its base and its share of the window's free slots */
    for (int64_t k = 0; k < w->count; k++) {
        const dyn_window *x = &w->win[k];
        window_sums sum = {0};
        for (int64_t v = x->lo; v <= x->hi; v++)
            add_vertex(d, &r, v, &sum);
        const int64_t free_slots = x->end - x->begin - sum.base;
        int64_t at = x->begin;
        for (int64_t v = x->lo; v <= x->hi; v++) {
            const int64_t base = base_of(d, v, need_of(r.vertex, r.need, r.count, v));
            w->first[x->first_at + v - x->lo] = at;
            at += base + (int64_t)((__int128)free_slots * share_of(d, v, base) /
                                   (sum.share > 0 ? sum.share : 1));
        }
    }
    return PF_OK;
}

/* The window holding slot a (windows sorted by slot), or -1. */
static int64_t window_of(const dyn_windows *w, int64_t a)
{
    int64_t lo = 0, hi = w->count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (w->win[mid].end <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->count && w->win[lo].begin <= a ? lo : -1;
}

/* Where slot a is after the windows' layout (-1: a dead one dropped). */
static int64_t moved(const dyn_windows *w, int64_t a)
{
    int64_t k = window_of(w, a);
    return k < 0 ? a : w->map[w->win[k].map_at + a - w->win[k].begin];
}

/* Window k's slots copied, each one's new place and each vertex's live
 * slots (they keep their order). */
static void window_copy(const pf_dyn_graph *d, dyn_windows *w, int64_t k)
{
    const dyn_window *x = &w->win[k];
    int64_t *map = w->map + x->map_at, *live = w->live + x->first_at;
    const int64_t *nf = w->first + x->first_at;
    for (int64_t v = x->lo; v <= x->hi; v++) {
        int64_t to = nf[v - x->lo];
        const int64_t used_end = d->view.first[v] + d->used[v];
        for (int64_t a = d->view.first[v]; a < d->view.first[v + 1]; a++)
            map[a - x->begin] = a < used_end && d->view.rev[a] != a ? to++ : -1;
        live[v - x->lo] = to - nf[v - x->lo];
    }
    const size_t len = (size_t)(x->end - x->begin);
    memcpy(w->head + x->map_at, d->view.head + x->begin, len * sizeof *w->head);
    memcpy(w->rev + x->map_at, d->view.rev + x->begin, len * sizeof *w->rev);
    memcpy(w->cap + x->map_at, d->view.cap + x->begin, len * sizeof *w->cap);
    memcpy(w->res + x->map_at, d->res + x->begin, len * sizeof *w->res);
}

/* Window k laid out from its copy: each vertex's range at its new start,
 * its live slots first, the rest free; the reverse slots outside every
 * window told where their pairs went; every slot and vertex of the
 * window touched. */
static void window_write(pf_dyn_graph *d, const dyn_windows *w, int64_t k)
{
    const dyn_window *x = &w->win[k];
    const int64_t *map = w->map + x->map_at, *nf = w->first + x->first_at;
    const int64_t *live = w->live + x->first_at;
    for (int64_t v = x->lo; v <= x->hi; v++) {
        const int64_t lo = nf[v - x->lo], hi = v < x->hi ? nf[v - x->lo + 1] : x->end;
        d->view.first[v] = lo;
        d->used[v] = live[v - x->lo];
        d->dead[v] = 0;
        for (int64_t a = lo + live[v - x->lo]; a < hi; a++)
            pf_dyn_kill_slot(d, a, (int32_t)v);
        pf_dyn_touch_vertex(d, v);
    }
    for (int64_t i = 0; i < x->end - x->begin; i++) {
        const int64_t to = map[i];
        if (to < 0)
            continue;
        const int64_t partner = w->rev[x->map_at + i];
        d->view.head[to] = w->head[x->map_at + i];
        d->view.cap[to] = w->cap[x->map_at + i];
        d->res[to] = w->res[x->map_at + i];
        d->view.rev[to] = moved(w, partner);
        if (window_of(w, partner) < 0) {
            d->view.rev[partner] = to;
            pf_dyn_touch_slot(d, partner);
        }
    }
    for (int64_t a = x->begin; a < x->end; a++)
        pf_dyn_touch_slot(d, a);
}

void pf_dyn_windows_commit(pf_dyn_graph *d, dyn_windows *w)
{
    if (w->count == 0)
        return;
    for (int64_t k = 0; k < w->count; k++)
        window_copy(d, w, k);
    for (int64_t k = 0; k < w->count; k++)
        window_write(d, w, k);
    /* ids, pairs and spare slots that point into a window: the ids'
     * slots looked up only on the pages the windows cover */
    uint8_t *page = w->pages;
    memset(page, 0, (size_t)d->pages);
    for (int64_t k = 0; k < w->count; k++)
        for (int64_t p = w->win[k].begin >> d->page_log2; p <= (w->win[k].end - 1) >> d->page_log2;
             p++)
            page[p] = 1;
    const int threads = pf_threads_for_items(d->params.threads, d->ids);
    const int shift = d->page_log2;
    int64_t *slot_of = d->slot_of;
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1))
    for (int64_t i = 0; i < d->ids; i++)
        if (slot_of[i] >= 0 && page[slot_of[i] >> shift])
            slot_of[i] = moved(w, slot_of[i]);
    for (int64_t k = 0; k < d->cover_count; k++) {
        d->covers[k].in = moved(w, d->covers[k].in);
        d->covers[k].out = moved(w, d->covers[k].out);
    }
    for (int which = 0; which < 2; which++) {
        int64_t kept = 0;
        for (int64_t i = 0; i < d->spare_count[which]; i++)
            if (window_of(w, d->spare[which][i]) < 0)
                d->spare[which][kept++] = d->spare[which][i];
        d->spare_count[which] = kept;
    }
    d->windows_laid += w->count;
}
