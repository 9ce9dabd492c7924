/* A batch's changes to the dynamic graph (dyn_graph.h: pf_dyn_apply), in
 * phases that each run on the host's threads from CHANGES_PARALLEL_MIN
 * changes on, and that give the same graph whatever the thread count:
 *   1. vertex additions, in the batch's order (a few writes each);
 *   2. arc additions: each vertex's new slots taken by the one thread that
 *      owns the vertex, in the batch's order, then every pair written;
 *   3. capacity changes and deletions: each arc id's changes made by the
 *      one thread that owns the id, in the batch's order, each recording
 *      the flow it took off its arc (a cut);
 *   4. the cuts' flow sent round their arcs (dyn_reroute.c).
 * Changes to different arcs commute once the reroutes wait for phase 4:
 * each writes its own pair's slots, and what it does to the excesses is
 * an addition. Arc additions come first because later changes may name
 * the arcs they add; the slots a batch's deletions free are not taken
 * again by the same batch (the plan's room does not count on them).
 *
 * Pages and touched lists are written from every thread (dyn_touch.h). */
#include <string.h>

#include "dyn_graph.h"
#include "dyn_layout.h"
#include "dyn_touch.h"
#include "omp_threads.h"
#include "status.h"
#include "timer.h"

enum { CHANGES_PARALLEL_MIN = 4096, BLOCKS_PER_THREAD = 4 };

/* A thread's share of a phase: its touches waiting to be listed, and its
 * sums of what the graph totals. */
typedef struct pf_dyn_worker {
    pf_dyn_toucher touched;
    int64_t flow_cut, source_pushed, source_cap, live_arcs;
} worker;

static void touch(pf_dyn_graph *d, worker *w, int list, int64_t i)
{
    pf_dyn_touch_shared(d, &w->touched, list, i);
}

/* A phase's workers done: their touches listed (the counts back within
 * the lists' room), their sums into the graph and `out`. */
static void workers_done(pf_dyn_graph *d, worker *w, int count, pf_dyn_batch_out *out)
{
    for (int t = 0; t < count; t++) {
        pf_dyn_touches_flush(d, &w[t].touched, 0);
        pf_dyn_touches_flush(d, &w[t].touched, 1);
        d->source_cap += w[t].source_cap;
        d->live_arcs += w[t].live_arcs;
        out->flow_cut += w[t].flow_cut;
        out->source_pushed += w[t].source_pushed;
        memset(&w[t], 0, sizeof w[t]);
    }
    pf_dyn_touches_close(d);
}

static void add_excess(pf_dyn_graph *d, worker *w, int32_t v, int64_t amount)
{
    __atomic_fetch_add(&d->excess[v], amount, __ATOMIC_RELAXED);
    touch(d, w, 1, v);
}

/* Pushes the residual of the source's slot f to its head. */
static void saturate_from_source(pf_dyn_graph *d, worker *w, int64_t f)
{
    const int64_t c = d->res[f];
    if (c <= 0)
        return;
    d->res[f] = 0;
    d->res[d->view.rev[f]] += c;
    add_excess(d, w, d->view.head[f], c);
    add_excess(d, w, d->view.source, -c);
    w->source_pushed += c;
}

/* The pair with forward slot f gets capacity c; flow above c comes off
 * the arc, leaving excess at its tail and a deficit at its head (into
 * *cut, for the reroutes and the repair). */
static void set_pair_cap(pf_dyn_graph *d, worker *w, int64_t f, int64_t c, pf_dyn_cut *cut)
{
    const int64_t r = d->view.rev[f];
    const int32_t u = d->view.head[r], v = d->view.head[f];
    const int64_t flow = d->res[r];
    if (u == d->view.source)
        w->source_cap += c - d->view.cap[f];
    d->view.cap[f] = c;
    if (c >= flow) {
        d->res[f] = c - flow;
    } else {
        d->res[f] = 0;
        d->res[r] = c;
        add_excess(d, w, u, flow - c);
        add_excess(d, w, v, c - flow);
        w->flow_cut += flow - c;
        *cut = (pf_dyn_cut){.u = u, .v = v, .amount = flow - c};
    }
    touch(d, w, 0, f);
    touch(d, w, 0, r);
    if (u == d->view.source)
        saturate_from_source(d, w, f);
}

static void delete_arc(pf_dyn_graph *d, worker *w, int64_t id, pf_dyn_cut *cut)
{
    const int64_t f = d->slot_of[id];
    d->slot_of[id] = -1;
    d->cap_of[id] = 0;
    d->deleted[id] = 1;
    if (f < 0)
        return;
    const int64_t r = d->view.rev[f];
    const int32_t u = d->view.head[r], v = d->view.head[f];
    const int64_t flow = d->res[r];
    if (flow > 0) {
        add_excess(d, w, u, flow);
        add_excess(d, w, v, -flow);
        w->flow_cut += flow;
        *cut = (pf_dyn_cut){.u = u, .v = v, .amount = flow};
    }
    if (u == d->view.source)
        w->source_cap -= d->view.cap[f];
    pf_dyn_kill_slot(d, f, u);
    pf_dyn_kill_slot(d, r, v);
    touch(d, w, 0, f);
    touch(d, w, 0, r);
    __atomic_fetch_add(&d->dead[u], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&d->dead[v], 1, __ATOMIC_RELAXED);
    w->live_arcs--;
}

/* Writes added arc x as id `id` on slots f (at its tail) and r (at its
 * head); a self-loop has no slots. */
static void write_added(pf_dyn_graph *d, worker *w, const pf_dyn_change *x, int64_t id, int64_t f,
                        int64_t r)
{
    const int32_t u = (int32_t)x->tail, v = (int32_t)x->head;
    d->tail_of[id] = u;
    d->head_of[id] = v;
    d->cap_of[id] = x->cap;
    d->deleted[id] = 0;
    d->slot_of[id] = u == v ? -1 : f;
    if (u == v)
        return;
    d->view.head[f] = v;
    d->view.rev[f] = r;
    d->view.cap[f] = x->cap;
    d->res[f] = x->cap;
    d->view.head[r] = u;
    d->view.rev[r] = f;
    d->view.cap[r] = 0;
    d->res[r] = 0;
    touch(d, w, 0, f);
    touch(d, w, 0, r);
    w->live_arcs++;
    if (u == d->view.source) {
        w->source_cap += x->cap;
        saturate_from_source(d, w, f);
    }
}

/* count vertices appended, each with slack_min free slots plus those the
 * batch's arcs take there (demand, indexed from the first new vertex). */
static void add_vertices(pf_dyn_graph *d, worker *w, int64_t count, const int64_t *demand)
{
    for (int64_t j = 0; j < count; j++) {
        const int64_t v = d->view.n;
        const int64_t lo = d->view.first[v];
        const int64_t hi = lo + d->params.slack_min + demand[j];
        d->view.first[v + 1] = hi;
        for (int64_t a = lo; a < hi; a++) {
            pf_dyn_kill_slot(d, a, (int32_t)v);
            touch(d, w, 0, a);
        }
        d->used[v] = d->dead[v] = d->excess[v] = d->cover_of[v] = 0;
        d->walk_mark[v] = 0;
        touch(d, w, 1, v);
        touch(d, w, 1, v + 1);
        d->view.n++;
    }
    d->view.arcs = d->view.first[d->view.n];
}

/* Phases 2 and 3 (above) on `threads` threads; workers: one per thread. */
static void change_arcs(pf_dyn_graph *d, const pf_dyn_change *c, const pf_dyn_batch_lists *l,
                        int threads, worker *workers)
{
    const int64_t ids = d->ids;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1))
    {
        int t, team;
        pf_team_position(&t, &team);
        worker *w = &workers[t];
        for (int64_t j = 0; j < l->adds; j++) {
            const pf_dyn_change *x = &c[l->add[j]];
            if (x->tail == x->head)
                continue;
            if (x->tail % team == t)
                l->add_slot[2 * j] = pf_dyn_take_slot(d, x->tail);
            if (x->head % team == t)
                l->add_slot[2 * j + 1] = pf_dyn_take_slot(d, x->head);
        }
        PF_OMP(omp barrier)
        PF_OMP(omp for schedule(static))
        for (int64_t j = 0; j < l->adds; j++)
            write_added(d, w, &c[l->add[j]], ids + j, l->add_slot[2 * j], l->add_slot[2 * j + 1]);
        for (int64_t j = 0; j < l->edits; j++) {
            const int64_t k = l->edit[j];
            const pf_dyn_change *x = &c[k];
            if (x->id % team != t)
                continue;
            if (x->kind == PF_DYN_DEL) {
                delete_arc(d, w, x->id, &l->cuts[k]);
            } else {
                if (d->slot_of[x->id] >= 0)
                    set_pair_cap(d, w, d->slot_of[x->id], x->cap, &l->cuts[k]);
                d->cap_of[x->id] = x->cap;
            }
        }
    }
}

/* The heads of the cuts that are short after the reroutes (the deficits,
 * in the batch's order; a vertex may come more than once) into
 * l->deficits: on the host's threads, in blocks, each listing its own
 * after those of the blocks before it. The cuts are not needed after
 * this: a head that is not short has its cut's amount zeroed. */
static void list_deficits(pf_dyn_graph *d, pf_dyn_batch_lists *l, int64_t count)
{
    const int threads = l->threads;
    const int64_t blocks = BLOCKS_PER_THREAD * (int64_t)threads;
    const int64_t block = (count + blocks - 1) / blocks;
    int64_t *at = l->block_at;
    pf_dyn_cut *cuts = l->cuts;
    PF_OMP(omp parallel num_threads(threads) if (threads > 1))
    {
        PF_OMP(omp for schedule(dynamic, 1))
        for (int64_t j = 0; j < blocks; j++) {
            int64_t found = 0;
            for (int64_t k = j * block; k < count && k < (j + 1) * block; k++) {
                pf_dyn_cut *c = &cuts[k];
                if (c->amount > 0 && c->v != d->view.source && d->excess[c->v] < 0)
                    found++;
                else
                    c->amount = 0;
            }
            at[j + 1] = found;
        }
        PF_OMP(omp single)
        {
            at[0] = 0;
            for (int64_t j = 0; j < blocks; j++)
                at[j + 1] += at[j];
        }
        PF_OMP(omp for schedule(dynamic, 1))
        for (int64_t j = 0; j < blocks; j++) {
            int64_t *out = l->deficits + at[j];
            for (int64_t k = j * block; k < count && k < (j + 1) * block; k++)
                if (cuts[k].amount > 0)
                    *out++ = cuts[k].v;
        }
    }
    l->deficit_count = at[blocks];
}

void pf_dyn_apply_changes(pf_dyn_graph *d, const pf_dyn_change *c, int64_t count,
                          const int64_t *new_demand, pf_dyn_batch_lists *l,
                          pf_dyn_batch_out *out)
{
    worker *workers = l->workers;
    int64_t next_new = 0;
    l->adds = l->edits = 0;
    for (int64_t k = 0; k < count; k++) {
        l->cuts[k] = (pf_dyn_cut){0};
        if (c[k].kind == PF_DYN_ADDV) {
            add_vertices(d, &workers[0], c[k].count, new_demand + next_new);
            next_new += c[k].count;
        } else if (c[k].kind == PF_DYN_ADD) {
            l->add[l->adds++] = k;
        } else {
            l->edit[l->edits++] = k;
        }
    }
    workers_done(d, workers, 1, out);
    double t0 = pf_now();
    change_arcs(d, c, l, l->threads, workers);
    workers_done(d, workers, l->threads, out);
    d->ids += l->adds;
    d->view.input_arcs = d->view.output_arcs = d->ids;
    double t1 = pf_now();
    pf_dyn_reroute_cuts(d, l->cuts, count, out);
    l->arcs_s = t1 - t0;
    l->reroutes_s = pf_now() - t1;
    list_deficits(d, l, count);
}

int pf_dyn_cut_slot(pf_dyn_graph *d, int64_t slot, int64_t cap, pf_dyn_batch_out *out)
{
    worker w;
    memset(&w, 0, sizeof w);
    pf_dyn_cut cut = {0};
    set_pair_cap(d, &w, slot, cap, &cut);
    workers_done(d, &w, 1, out);
    pf_dyn_reroute(d, cut.u, cut.v, cut.amount, out);
    return cut.amount > 0;
}

pf_dyn_batch_lists *pf_dyn_batch_lists_get(pf_dyn_graph *d, int64_t count, pf_status *st)
{
    const int threads = count >= CHANGES_PARALLEL_MIN ? pf_resolve_threads(d->params.threads) : 1;
    pf_dyn_batch_lists *l = d->batch;
    if (!l || l->room < count || l->thread_room < threads) {
        pf_dyn_batch_lists_drop(d);
        const int64_t room = count > 1024 ? count : 1024;
        const size_t k = (size_t)room;
        l = pf_calloc(1, sizeof *l, st);
        if (!l)
            return NULL;
        l->room = room;
        l->thread_room = threads;
        l->add = pf_alloc(k, sizeof *l->add, st);
        l->edit = pf_alloc(k, sizeof *l->edit, st);
        l->add_slot = pf_alloc(2 * k, sizeof *l->add_slot, st);
        l->cuts = pf_alloc(k, sizeof *l->cuts, st);
        l->deficits = pf_alloc(k, sizeof *l->deficits, st);
        l->workers = pf_calloc((size_t)threads, sizeof *l->workers, st);
        l->block_at = pf_alloc((size_t)(BLOCKS_PER_THREAD * threads + 1), sizeof *l->block_at, st);
        d->batch = l;
        if (!l->add || !l->edit || !l->add_slot || !l->cuts || !l->deficits || !l->workers ||
            !l->block_at) {
            pf_dyn_batch_lists_drop(d);
            return NULL;
        }
    }
    l->threads = threads;
    l->adds = l->edits = l->deficit_count = 0;
    l->arcs_s = l->reroutes_s = 0;
    return l;
}

void pf_dyn_batch_lists_drop(pf_dyn_graph *d)
{
    pf_dyn_batch_lists *l = d->batch;
    if (l)
        PF_FREE_ALL(l->add, l->edit, l->add_slot, l->cuts, l->deficits, l->workers, l->block_at, l);
    d->batch = NULL;
}
