/* The dynamic residual graph's storage (dyn_graph.h): the build from a
 * pf_residual with slack in every vertex's range, the layout that
 * recompacts or grows it (dyn_layout.h), and the small accessors. The
 * batches themselves are in dyn_apply.c, the invariant check in
 * dyn_verify.c. */
#include "dyn_graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "omp_threads.h"

#include "dyn_layout.h"
#include "status.h"

/* The defaults, from the measurements in bench/NOTES.md ("dynamic graph"). */
enum { DEFAULT_PAGE_LOG2 = 12, DEFAULT_SLACK_MIN = 4 };
#define DEFAULT_SLACK 0.125

/* Vertices per scheduling chunk of the parallel loops. */
enum { VERTEX_CHUNK = 4096 };

void pf_dyn_params_default(pf_dyn_params *p)
{
    *p = (pf_dyn_params){
        .page_log2 = DEFAULT_PAGE_LOG2,
        .slack = DEFAULT_SLACK,
        .slack_min = DEFAULT_SLACK_MIN,
        .vertex_room = -1,
        .threads = 0,
    };
}

/* p with its zeros replaced by the defaults. */
static pf_dyn_params resolved_params(const pf_dyn_params *p)
{
    pf_dyn_params def;
    pf_dyn_params_default(&def);
    if (!p)
        return def;
    pf_dyn_params r = *p;
    if (r.page_log2 <= 0)
        r.page_log2 = def.page_log2;
    if (r.slack <= 0 && r.slack_min <= 0) {
        r.slack = def.slack;
        r.slack_min = def.slack_min;
    }
    if (r.slack < 0)
        r.slack = 0;
    if (r.slack_min < 0)
        r.slack_min = 0;
    return r;
}

int64_t pf_dyn_slack_for(const pf_dyn_params *p, int64_t degree)
{
    int64_t share = (int64_t)ceil(p->slack * (double)degree);
    return share > p->slack_min ? share : p->slack_min;
}

int64_t pf_dyn_vertex_room(const pf_dyn_params *p, int64_t n)
{
    return p->vertex_room >= 0 ? p->vertex_room : n / 16 + 16;
}

int pf_dyn_arrays_alloc(dyn_arrays *a, int64_t vertex_cap, int64_t slot_cap, int page_log2,
                        pf_status *st)
{
    memset(a, 0, sizeof *a);
    size_t nv = (size_t)vertex_cap, ns = (size_t)(slot_cap > 0 ? slot_cap : 1);
    a->vertex_cap = vertex_cap;
    a->slot_cap = slot_cap;
    a->pages = (slot_cap >> page_log2) + 1;
    a->vertex_pages = ((vertex_cap + 1) >> page_log2) + 1;
    a->first = pf_alloc(nv + 1, sizeof *a->first, st);
    a->head = pf_alloc(ns, sizeof *a->head, st);
    a->rev = pf_alloc(ns, sizeof *a->rev, st);
    a->cap = pf_alloc(ns, sizeof *a->cap, st);
    a->res = pf_alloc(ns, sizeof *a->res, st);
    a->excess = pf_calloc(nv, sizeof *a->excess, st);
    a->used = pf_calloc(nv, sizeof *a->used, st);
    a->dead = pf_calloc(nv, sizeof *a->dead, st);
    a->dirty = pf_calloc((size_t)a->pages, 1, st);
    a->vertex_dirty = pf_calloc((size_t)a->vertex_pages, 1, st);
    /* A batch touches about as many vertices as slots (each change: an
     * arc's two slots, its ends' excess): both lists get the slots' size. */
    a->touched_cap[0] = a->touched_cap[1] = (int64_t)(ns / 16) + 1024;
    for (int i = 0; i < 2; i++)
        a->touched[i] = pf_alloc((size_t)a->touched_cap[i], sizeof *a->touched[i], st);
    a->walk_cur = pf_alloc(nv, sizeof *a->walk_cur, st);
    a->walk_path = pf_alloc(nv, sizeof *a->walk_path, st);
    a->walk_mark = pf_calloc(nv, 1, st);
    a->walk_dist = pf_alloc(nv, sizeof *a->walk_dist, st);
    a->walk_seen = pf_alloc(nv, sizeof *a->walk_seen, st);
    a->cover_of = pf_calloc(nv, sizeof *a->cover_of, st);
#define DYN_MISSING(graph_member, member) || !a->member
    if (0 PF_DYN_ARRAYS(DYN_MISSING)) {
#undef DYN_MISSING
        pf_dyn_arrays_free(a);
        return pf_fail(st, PF_E_NOMEM,
                       "dynamic graph: out of memory for %lld vertices and %lld slots",
                       (long long)vertex_cap, (long long)slot_cap);
    }
    return PF_OK;
}

void pf_dyn_arrays_free(dyn_arrays *a)
{
#define DYN_FREE(graph_member, member) free(a->member);
    PF_DYN_ARRAYS(DYN_FREE)
#undef DYN_FREE
    memset(a, 0, sizeof *a);
}

/* d's arrays as a dyn_arrays (to free them). */
static dyn_arrays arrays_of(const pf_dyn_graph *d)
{
    dyn_arrays a = {0};
#define DYN_FROM_GRAPH(graph_member, member) a.member = d->graph_member;
    PF_DYN_ARRAYS(DYN_FROM_GRAPH)
#undef DYN_FROM_GRAPH
    return a;
}

/* Hands a's arrays to d (the old ones must be freed first). */
static void install_arrays(pf_dyn_graph *d, const dyn_arrays *a)
{
#define DYN_TO_GRAPH(graph_member, member) d->graph_member = a->member;
    PF_DYN_ARRAYS(DYN_TO_GRAPH)
#undef DYN_TO_GRAPH
    for (int i = 0; i < 2; i++) {
        d->touched_cap[i] = a->touched_cap[i];
        d->touched_count[i] = 0; /* new arrays: all_dirty says it */
    }
    d->slot_cap = a->slot_cap;
    d->vertex_cap = a->vertex_cap;
    d->pages = a->pages;
    d->vertex_pages = a->vertex_pages;
}

/* first[u + 1] - first[u] for u < n given as sizes in first[1..n]: the
 * prefix sum, first[0] = 0. */
static void sizes_to_starts(int64_t *first, int64_t n)
{
    first[0] = 0;
    for (int64_t u = 0; u < n; u++)
        first[u + 1] += first[u];
}

/* Pushes every residual out of the source to the arcs' heads, so each of
 * its slots has residual 0 (dyn_graph.h). Returns what was pushed. */
static int64_t saturate_source_slots(pf_dyn_graph *d)
{
    const int32_t s = d->view.source;
    int64_t pushed = 0;
    for (int64_t a = d->view.first[s]; a < d->view.first[s + 1]; a++)
        pushed += pf_dyn_saturate_slot(d, a);
    return pushed;
}

/* Copies g's slots into d's layout (first already set): slot a of u goes
 * to its place in u's new range, the rest of the range is free. */
static void copy_slots(pf_dyn_graph *d, const pf_residual *g, const int64_t *res, int threads)
{
    const int64_t *of = g->first, *nf = d->view.first;
    int32_t *head = d->view.head;
    int64_t *rev = d->view.rev, *cap = d->view.cap, *dres = d->res;
    (void)threads; /* read by the directive only */
    PF_OMP(omp parallel for schedule(dynamic, VERTEX_CHUNK) num_threads(threads) if (threads > 1))
    for (int64_t u = 0; u < g->n; u++) {
        int64_t shift = nf[u] - of[u];
        for (int64_t a = of[u]; a < of[u + 1]; a++) {
            int32_t v = g->head[a];
            int64_t b = g->rev[a];
            head[a + shift] = v;
            rev[a + shift] = b - of[v] + nf[v];
            cap[a + shift] = g->cap[a];
            dres[a + shift] = res ? res[a] : g->cap[a];
        }
        for (int64_t a = of[u + 1] + shift; a < nf[u + 1]; a++)
            pf_dyn_kill_slot(d, a, (int32_t)u);
        d->used[u] = of[u + 1] - of[u];
    }
}

static int alloc_ids(pf_dyn_graph *d, int64_t ids_cap, pf_status *st)
{
    size_t k = (size_t)(ids_cap > 0 ? ids_cap : 1);
    d->ids_cap = ids_cap;
    d->slot_of = pf_alloc(k, sizeof *d->slot_of, st);
    d->tail_of = pf_alloc(k, sizeof *d->tail_of, st);
    d->head_of = pf_alloc(k, sizeof *d->head_of, st);
    d->cap_of = pf_alloc(k, sizeof *d->cap_of, st);
    d->deleted = pf_calloc(k, 1, st);
    if (!d->slot_of || !d->tail_of || !d->head_of || !d->cap_of || !d->deleted)
        return pf_fail(st, PF_E_NOMEM, "dynamic graph: out of memory for %lld arc ids",
                       (long long)ids_cap);
    return PF_OK;
}

/* The id map of g's reported arcs: each one's forward slot, ends and
 * capacity (a self-loop of g has no slot and g keeps neither its ends nor
 * its capacity: -1, -1 and 0, which the caller may overwrite). */
static void fill_ids(pf_dyn_graph *d, const pf_residual *g)
{
    const int64_t *of = g->first, *nf = d->view.first;
    for (int64_t i = 0; i < d->ids; i++) {
        int64_t a = g->fwd_of_input[i];
        if (a < 0) {
            d->slot_of[i] = -1;
            d->tail_of[i] = d->head_of[i] = -1;
            d->cap_of[i] = 0;
            continue;
        }
        int32_t u = g->head[g->rev[a]], v = g->head[a];
        d->slot_of[i] = a - of[u] + nf[u];
        d->tail_of[i] = u;
        d->head_of[i] = v;
        d->cap_of[i] = g->cap[a];
    }
}

static int check_input(const pf_residual *g, pf_status *st)
{
    if (g->n < 2 || g->n > PF_MAX_VERTICES || g->source < 0 || g->sink < 0 ||
        g->source >= g->n || g->sink >= g->n || g->source == g->sink)
        return pf_fail(st, PF_E_INPUT,
                       "pf_dyn_build: bad residual graph (n %lld, source %d, sink %d)",
                       (long long)g->n, (int)g->source, (int)g->sink);
    return PF_OK;
}

/* Free slots the source and the sink keep beyond their slack: room for
 * the pairs that cover a batch's deficits (dyn_cover.c), so the first
 * batches need no layout for them (a batch of 1% of the arcs leaves
 * deficits at up to about one vertex in a hundred: RLG's 1.1%; a layout
 * is a pass over every slot, these slots a few per thousand vertices). */
static void add_terminal_room(const pf_residual *g, int64_t n, int64_t *sizes)
{
    sizes[g->source + 1] += pf_dyn_terminal_room(n);
    sizes[g->sink + 1] += pf_dyn_terminal_room(n);
}

int pf_dyn_build(const pf_residual *g, const int64_t *res, const int64_t *excess,
                 const pf_dyn_params *p, pf_dyn_graph *d, pf_status *st)
{
    memset(d, 0, sizeof *d);
    int rc = check_input(g, st);
    if (rc)
        return rc;
    d->params = resolved_params(p);
    d->page_log2 = d->params.page_log2;
    const int64_t n = g->n;
    const int threads = pf_resolve_threads(d->params.threads);
    int64_t room = pf_dyn_vertex_room(&d->params, n);
    if (room > PF_MAX_VERTICES - n)
        room = PF_MAX_VERTICES - n;

    int64_t *sizes = pf_alloc((size_t)n + 1, sizeof *sizes, st);
    if (!sizes)
        return PF_E_NOMEM;
    for (int64_t u = 0; u < n; u++) {
        int64_t deg = g->first[u + 1] - g->first[u];
        sizes[u + 1] = deg + pf_dyn_slack_for(&d->params, deg);
    }
    add_terminal_room(g, n, sizes);
    sizes_to_starts(sizes, n);
    int64_t slots = sizes[n];
    int64_t slot_cap = slots + room * (d->params.slack_min + 1);
    dyn_arrays a;
    rc = pf_dyn_arrays_alloc(&a, n + room, slot_cap, d->page_log2, st);
    if (rc) {
        free(sizes);
        return rc;
    }
    memcpy(a.first, sizes, ((size_t)n + 1) * sizeof *sizes);
    free(sizes);
    install_arrays(d, &a);
    d->view = (pf_residual){
        .order = g->order, .n = n, .arcs = slots, .source = g->source, .sink = g->sink,
        .first = a.first, .head = a.head, .rev = a.rev, .cap = a.cap,
    };

    d->ids = g->fwd_of_input ? g->output_arcs : 0;
    rc = alloc_ids(d, d->ids + d->ids / 8 + 64, st);
    if (rc) {
        pf_dyn_free(d);
        return rc;
    }
    copy_slots(d, g, res, threads);
    if (excess)
        memcpy(d->excess, excess, (size_t)n * sizeof *excess);
    saturate_source_slots(d);
    fill_ids(d, g);
    d->view.input_arcs = d->view.output_arcs = d->ids;
    d->live_arcs = g->arcs / 2;
    for (int64_t b = d->view.first[g->source]; b < d->view.first[g->source + 1]; b++)
        d->source_cap += d->view.cap[b];
    d->all_dirty = 1;
    return PF_OK;
}

void pf_dyn_free(pf_dyn_graph *d)
{
    pf_dyn_batch_lists_drop(d);
    dyn_arrays a = arrays_of(d);
    pf_dyn_arrays_free(&a);
    PF_FREE_ALL(d->slot_of, d->tail_of, d->head_of, d->cap_of, d->deleted, d->covers,
                d->spare[0], d->spare[1]);
    memset(d, 0, sizeof *d);
}

/* The new range sizes: live slots, their slack and the extra ones. */
static void plan_sizes(const pf_dyn_graph *d, const int64_t *extra_vertex,
                       const int64_t *extra_slots, int64_t extra_count, int64_t *sizes)
{
    const int64_t n = d->view.n;
    for (int64_t u = 0; u < n; u++)
        sizes[u + 1] = 0;
    for (int64_t k = 0; k < extra_count; k++)
        sizes[extra_vertex[k] + 1] += extra_slots[k];
    for (int64_t u = 0; u < n; u++) {
        int64_t live = d->used[u] - d->dead[u];
        sizes[u + 1] += live + pf_dyn_slack_for(&d->params, live + sizes[u + 1]);
    }
    add_terminal_room(&d->view, n, sizes);
    sizes_to_starts(sizes, n);
}

int pf_dyn_plan(const pf_dyn_graph *d, const int64_t *extra_vertex, const int64_t *extra_slots,
                int64_t extra_count, int64_t more_vertices, int64_t more_slots, dyn_plan *plan,
                pf_status *st)
{
    memset(plan, 0, sizeof *plan);
    const int64_t n = d->view.n;
    int64_t *sizes = pf_alloc((size_t)n + 1, sizeof *sizes, st);
    if (!sizes)
        return PF_E_NOMEM;
    plan_sizes(d, extra_vertex, extra_slots, extra_count, sizes);
    int64_t room = pf_dyn_vertex_room(&d->params, n + more_vertices);
    if (room > PF_MAX_VERTICES - n - more_vertices)
        room = PF_MAX_VERTICES - n - more_vertices;
    int64_t vertex_cap = n + more_vertices + room;
    int64_t slot_cap = sizes[n] + more_slots + room * (d->params.slack_min + 1);
    int rc = pf_dyn_arrays_alloc(&plan->arrays, vertex_cap, slot_cap, d->page_log2, st);
    if (!rc) {
        plan->new_slot = pf_alloc((size_t)(d->view.arcs > 0 ? d->view.arcs : 1),
                                  sizeof *plan->new_slot, st);
        if (!plan->new_slot) {
            pf_dyn_arrays_free(&plan->arrays);
            rc = PF_E_NOMEM;
        }
    }
    if (rc) {
        free(sizes);
        return rc;
    }
    memcpy(plan->arrays.first, sizes, ((size_t)n + 1) * sizeof *sizes);
    plan->slots = sizes[n];
    free(sizes);
    return PF_OK;
}

void pf_dyn_plan_free(dyn_plan *plan)
{
    pf_dyn_arrays_free(&plan->arrays);
    free(plan->new_slot);
    memset(plan, 0, sizeof *plan);
}

/* Where each live slot goes: the live ones of a vertex keep their order. */
static void plan_slot_map(const pf_dyn_graph *d, dyn_plan *plan, int threads)
{
    const int64_t *of = d->view.first, *nf = plan->arrays.first, *rev = d->view.rev;
    int64_t *map = plan->new_slot;
    (void)threads;
    PF_OMP(omp parallel for schedule(dynamic, VERTEX_CHUNK) num_threads(threads) if (threads > 1))
    for (int64_t u = 0; u < d->view.n; u++) {
        int64_t to = nf[u];
        for (int64_t a = of[u]; a < of[u + 1]; a++)
            map[a] = rev[a] == a ? -1 : to++;
    }
}

/* The slots in their new places, rev through the map, slack free. */
static void plan_move_slots(const pf_dyn_graph *d, dyn_plan *plan, int threads)
{
    const int64_t *of = d->view.first, *map = plan->new_slot;
    dyn_arrays *x = &plan->arrays;
    (void)threads;
    PF_OMP(omp parallel for schedule(dynamic, VERTEX_CHUNK) num_threads(threads) if (threads > 1))
    for (int64_t u = 0; u < d->view.n; u++) {
        int64_t to = x->first[u];
        for (int64_t a = of[u]; a < of[u] + d->used[u]; a++) {
            if (map[a] < 0)
                continue;
            x->head[to] = d->view.head[a];
            x->rev[to] = map[d->view.rev[a]];
            x->cap[to] = d->view.cap[a];
            x->res[to] = d->res[a];
            to++;
        }
        x->used[u] = to - x->first[u];
        for (; to < x->first[u + 1]; to++) {
            x->head[to] = (int32_t)u;
            x->rev[to] = to;
            x->cap[to] = 0;
            x->res[to] = 0;
        }
    }
}

void pf_dyn_plan_commit(pf_dyn_graph *d, dyn_plan *plan)
{
    const int threads = pf_resolve_threads(d->params.threads);
    plan_slot_map(d, plan, threads);
    plan_move_slots(d, plan, threads);
    memcpy(plan->arrays.excess, d->excess, (size_t)d->view.n * sizeof *d->excess);
    memcpy(plan->arrays.cover_of, d->cover_of, (size_t)d->view.n * sizeof *d->cover_of);
    const int64_t *map = plan->new_slot;
    for (int64_t k = 0; k < d->cover_count; k++) {
        d->covers[k].in = map[d->covers[k].in];
        d->covers[k].out = map[d->covers[k].out];
    }
    int64_t *slot_of = d->slot_of;
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1))
    for (int64_t i = 0; i < d->ids; i++)
        if (slot_of[i] >= 0)
            slot_of[i] = map[slot_of[i]];

    dyn_arrays old = arrays_of(d);
    pf_dyn_arrays_free(&old);
    install_arrays(d, &plan->arrays);
    d->view.first = plan->arrays.first;
    d->view.arcs = plan->slots;
    d->all_dirty = 1;
    d->spare_count[0] = d->spare_count[1] = 0; /* the layout reclaimed the dead slots */
    d->recompactions++;
    free(plan->new_slot);
    memset(plan, 0, sizeof *plan);
}

void pf_dyn_cover_clear(pf_dyn_graph *d)
{
    while (d->cover_count > 0)
        pf_dyn_drop_pair(d, d->cover_count - 1);
    d->cover_total = 0;
}

void pf_dyn_reset_preflow(pf_dyn_graph *d)
{
    pf_dyn_cover_clear(d);
    const int threads = pf_resolve_threads(d->params.threads);
    const int64_t slots = d->view.arcs;
    int64_t *res = d->res;
    const int64_t *cap = d->view.cap;
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1))
    for (int64_t a = 0; a < slots; a++)
        res[a] = cap[a];
    memset(d->excess, 0, (size_t)d->view.n * sizeof *d->excess);
    saturate_source_slots(d);
    d->deficits_pending = 0;
    d->all_dirty = 1;
}

int64_t pf_dyn_flow(const pf_dyn_graph *d, int64_t id)
{
    if (id < 0 || id >= d->ids || d->slot_of[id] < 0)
        return 0;
    return d->res[d->view.rev[d->slot_of[id]]];
}

void pf_dyn_clean(pf_dyn_graph *d)
{
    memset(d->dirty, 0, (size_t)d->pages);
    memset(d->vertex_dirty, 0, (size_t)d->vertex_pages);
    d->all_dirty = 0;
    d->touched_count[0] = d->touched_count[1] = 0;
    d->touched_full = 0;
}
