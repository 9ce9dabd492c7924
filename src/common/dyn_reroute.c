/* A cut arc's flow sent round it (dyn_layout.h). Where a change takes flow
 * off arc u -> w, u is left with excess and w with a deficit; a small
 * breadth-first search from u over residual arcs for w, and the flow
 * pushed along what it finds, leaves neither.
 *
 * One cut at a time (pf_dyn_reroute), or a batch's cuts together
 * (pf_dyn_reroute_cuts): each cut's searches made at once on the host's
 * threads, against the graph as the batch's changes left it and with the
 * pushes each plans taken into account, then the pushes made in the
 * batch's order, each one as far as the residuals by then allow; a cut
 * whose plan falls short searches again there. A search reads the graph
 * only (its marks are its own), and every push is made in one order, so
 * the result depends on neither the thread count nor the schedule. */
#include <stdlib.h>
#include <string.h>

#include "dyn_graph.h"
#include "dyn_layout.h"
#include "omp_threads.h"

/* Vertices a search may visit, and the most arcs a vertex it goes on from
 * may have (a grid's sink is joined to half the pixels: a search that went
 * on from it would read them all, every time). */
enum { REROUTE_VISITS = 64, REROUTE_HUB = 256 };

/* Where fewer than one search in REROUTE_RARE has found a way round (a
 * layered graph: its arcs join consecutive levels, and a way round one
 * goes back a level and forward again, rarely within the visits), only
 * one cut arc in REROUTE_RARE is searched, which keeps the record
 * current; the record is halved every REROUTE_RECORD searches, so it
 * follows a stream whose graph changes. Judged from REROUTE_PROBES
 * searches on. */
enum { REROUTE_RARE = 16, REROUTE_RECORD = 4096, REROUTE_PROBES = 256 };

/* A batch's plan for one cut holds at most PLAN_PATHS paths and
 * PLAN_MOVES planned residual changes (two per arc of a path); a cut that
 * needs more searches again when its pushes are made. Searches run on
 * the host's threads from REROUTE_PARALLEL_MIN cuts on. */
enum { PLAN_PATHS = 8, PLAN_MOVES = 128, REROUTE_PARALLEL_MIN = 64 };

/* The visited vertices' table: a power of two over twice the visits. */
enum { VISIT_TABLE = 256 };

/* One search's state, on its thread's stack: the queue with each entry's
 * parent and the slot that reached it, the visited vertices (+ 1; 0:
 * empty) and where each went in the table, the residual changes of the
 * pushes planned but not made, and the arcs read. */
typedef struct search {
    int32_t queue[REROUTE_VISITS], from[REROUTE_VISITS];
    int64_t via[REROUTE_VISITS];
    uint32_t table[VISIT_TABLE];
    int16_t place[REROUTE_VISITS];
    int64_t moved_slot[PLAN_MOVES], moved_delta[PLAN_MOVES];
    int moved;
    int64_t steps;
} search;

static void search_init(search *s)
{
    memset(s->table, 0, sizeof s->table);
    s->moved = 0;
    s->steps = 0;
}

/* Marks v visited as queue entry i; 0 when it was already. */
static int visit(search *s, int32_t v, int i)
{
    const uint32_t key = (uint32_t)v + 1;
    uint32_t h = (key * 2654435761u) >> 24;
    for (;; h = (h + 1) & (VISIT_TABLE - 1)) {
        if (s->table[h] == key)
            return 0;
        if (s->table[h] == 0) {
            s->table[h] = key;
            s->place[i] = (int16_t)h;
            return 1;
        }
    }
}

/* Slot a's residual with the planned pushes made. */
static int64_t residual(const pf_dyn_graph *d, const search *s, int64_t a)
{
    int64_t r = d->res[a];
    for (int i = 0; i < s->moved; i++)
        if (s->moved_slot[i] == a)
            r += s->moved_delta[i];
    return r;
}

/* A breadth-first search from u over residual arcs for w, visiting at most
 * REROUTE_VISITS vertices (never the source) and going on from none with
 * more than REROUTE_HUB arcs but u: w's queue entry (the path back to u
 * through `from` and `via`), or -1. */
static int find_path(const pf_dyn_graph *d, search *s, int32_t u, int32_t w)
{
    const int64_t *first = d->view.first;
    const int32_t *head = d->view.head;
    int tail = 1, found = -1;
    visit(s, u, 0);
    s->queue[0] = u;
    s->from[0] = -1;
    for (int i = 0; i < tail && found < 0 && tail < REROUTE_VISITS; i++) {
        const int32_t x = s->queue[i];
        const int64_t lo = first[x], hi = first[x + 1];
        if (x != u && hi - lo > REROUTE_HUB)
            continue;
        s->steps += hi - lo;
        for (int64_t a = lo; a < hi && tail < REROUTE_VISITS; a++) {
            const int32_t y = head[a];
            if (y == d->view.source || residual(d, s, a) <= 0 || !visit(s, y, tail))
                continue;
            s->queue[tail] = y;
            s->from[tail] = i;
            s->via[tail] = a;
            if (y == w) {
                found = tail++;
                break;
            }
            tail++;
        }
    }
    for (int i = 0; i < tail; i++)
        s->table[s->place[i]] = 0;
    return found;
}

/* The least residual (planned pushes made) along the path to queue entry
 * `end`, and at most `most`. */
static int64_t path_room(const pf_dyn_graph *d, const search *s, int end, int64_t most)
{
    for (int i = end; i > 0; i = s->from[i]) {
        int64_t r = residual(d, s, s->via[i]);
        if (r < most)
            most = r;
    }
    return most;
}

static void push_slot(pf_dyn_graph *d, int64_t a, int64_t amount)
{
    const int64_t r = d->view.rev[a];
    d->res[a] -= amount;
    d->res[r] += amount;
    pf_dyn_touch_slot(d, a);
    pf_dyn_touch_slot(d, r);
}

/* Pushes up to `amount` from u to w along paths found one after another
 * in the graph as it is; returns what it pushed. */
static int64_t reroute_now(pf_dyn_graph *d, search *s, int32_t u, int32_t w, int64_t amount)
{
    int64_t done = 0;
    while (done < amount) {
        int end = find_path(d, s, u, w);
        if (end < 0)
            break;
        int64_t push = path_room(d, s, end, amount - done);
        for (int i = end; i > 0; i = s->from[i])
            push_slot(d, s->via[i], push);
        done += push;
    }
    return done;
}

static int reroute_due(pf_dyn_graph *d)
{
    if (d->reroute_tries < REROUTE_PROBES || d->reroute_found * REROUTE_RARE >= d->reroute_tries)
        return 1;
    return ++d->reroute_skipped % REROUTE_RARE == 0;
}

/* A search made, `done` of its cut sent round: onto the record, and the
 * excess and deficit it undid. */
static void rerouted(pf_dyn_graph *d, int32_t u, int32_t w, int64_t done, pf_dyn_batch_out *out)
{
    d->reroute_found += done > 0;
    if (++d->reroute_tries >= REROUTE_RECORD) {
        d->reroute_tries /= 2;
        d->reroute_found /= 2;
    }
    if (done > 0) {
        d->excess[u] -= done;
        d->excess[w] += done;
        pf_dyn_touch_vertex(d, u);
        pf_dyn_touch_vertex(d, w);
    }
    out->rerouted += done;
}

int64_t pf_dyn_reroute(pf_dyn_graph *d, int64_t u, int64_t w, int64_t amount,
                       pf_dyn_batch_out *out)
{
    if (amount <= 0 || u == d->view.source || w == d->view.source || !reroute_due(d))
        return 0;
    search s;
    search_init(&s);
    int64_t done = reroute_now(d, &s, (int32_t)u, (int32_t)w, amount);
    rerouted(d, (int32_t)u, (int32_t)w, done, out);
    out->repair_steps += s.steps;
    return done;
}

/* ---- a batch's cuts ---- */

/* A cut's plan: `paths` paths (-1: not searched) stored in thread
 * `thread`'s list from `at` on, each as its amount, its length and its
 * slots; complete = 0 where the search stopped before it had found all
 * it could (the plan's limits, or no memory for the list). */
typedef struct cut_plan {
    int64_t at;
    int32_t thread, paths;
    int complete;
} cut_plan;

typedef struct plan_list {
    int64_t *v, len, cap;
} plan_list;

static int list_room(plan_list *l, int64_t more)
{
    if (l->len + more <= l->cap)
        return 1;
    int64_t cap = l->cap ? 2 * l->cap : 1024;
    while (cap < l->len + more)
        cap *= 2;
    int64_t *v = realloc(l->v, (size_t)cap * sizeof *v);
    if (!v)
        return 0;
    l->v = v;
    l->cap = cap;
    return 1;
}

/* Searches for c's paths as far as the plan's limits allow, each found
 * with the pushes before it planned (not made). */
static void plan_cut(const pf_dyn_graph *d, search *s, plan_list *list, int thread,
                     const pf_dyn_cut *c, cut_plan *p)
{
    *p = (cut_plan){.at = list->len, .thread = thread, .complete = 1};
    s->moved = 0;
    for (int64_t left = c->amount; left > 0;) {
        int end = p->paths < PLAN_PATHS ? find_path(d, s, c->u, c->v) : -1;
        if (end < 0) {
            p->complete = p->paths < PLAN_PATHS;
            return;
        }
        int len = 0;
        for (int i = end; i > 0; i = s->from[i])
            len++;
        if (s->moved + 2 * len > PLAN_MOVES || !list_room(list, 2 + len)) {
            p->complete = 0;
            return;
        }
        const int64_t push = path_room(d, s, end, left);
        int64_t *out = list->v + list->len;
        out[0] = push;
        out[1] = len;
        int j = 2;
        for (int i = end; i > 0; i = s->from[i]) {
            const int64_t a = s->via[i];
            out[j++] = a;
            s->moved_slot[s->moved] = a;
            s->moved_delta[s->moved++] = -push;
            s->moved_slot[s->moved] = d->view.rev[a];
            s->moved_delta[s->moved++] = push;
        }
        list->len += 2 + len;
        p->paths++;
        left -= push;
    }
}

/* Makes c's planned pushes, each as far as the residuals now allow, and
 * searches again for what the plan could not send; returns what moved. */
static int64_t make_plan(pf_dyn_graph *d, search *s, const plan_list *lists, const cut_plan *p,
                         const pf_dyn_cut *c)
{
    int64_t done = 0;
    int short_of = !p->complete;
    const int64_t *v = p->paths > 0 ? lists[p->thread].v + p->at : NULL;
    for (int32_t k = 0; k < p->paths; k++) {
        const int64_t planned = v[0], len = v[1], *slot = v + 2;
        int64_t push = planned < c->amount - done ? planned : c->amount - done;
        for (int64_t i = 0; i < len; i++)
            if (d->res[slot[i]] < push)
                push = d->res[slot[i]];
        short_of |= push < planned;
        for (int64_t i = 0; push > 0 && i < len; i++)
            push_slot(d, slot[i], push);
        done += push > 0 ? push : 0;
        v += 2 + len;
    }
    if (short_of && done < c->amount)
        done += reroute_now(d, s, c->u, c->v, c->amount - done);
    return done;
}

/* The plans of the cuts from `start` on that are due (their paths 0, the
 * others' -1), up to the end or, while the record is still being made,
 * the cut that completes its probes (the rest are judged by what those
 * find); returns where that stopped. */
static int64_t due_cuts(pf_dyn_graph *d, const pf_dyn_cut *cuts, int64_t start, int64_t count,
                        cut_plan *plans, int64_t *due)
{
    const int32_t source = d->view.source;
    const int64_t probes_left = REROUTE_PROBES - d->reroute_tries;
    *due = 0;
    for (int64_t k = start; k < count; k++) {
        const pf_dyn_cut *c = &cuts[k];
        int wanted = c->amount > 0 && c->u != source && c->v != source && reroute_due(d);
        plans[k].paths = wanted ? 0 : -1;
        *due += wanted;
        if (probes_left > 0 && *due == probes_left)
            return k + 1;
    }
    return count;
}

/* Plans the due cuts of [start, end) on the host's threads, then makes
 * them in order. */
static void reroute_span(pf_dyn_graph *d, const pf_dyn_cut *cuts, int64_t start, int64_t end,
                         int64_t due, cut_plan *plans, pf_dyn_batch_out *out)
{
    const int threads = due >= REROUTE_PARALLEL_MIN ? pf_resolve_threads(d->params.threads) : 1;
    plan_list *lists = calloc((size_t)threads, sizeof *lists);
    int64_t steps = 0;
    if (lists) {
        PF_OMP(omp parallel num_threads(threads) if (threads > 1) reduction(+ : steps))
        {
            int thread, team;
            pf_team_position(&thread, &team);
            search s;
            search_init(&s);
            PF_OMP(omp for schedule(dynamic, 64))
            for (int64_t k = start; k < end; k++)
                if (plans[k].paths == 0)
                    plan_cut(d, &s, &lists[thread], thread, &cuts[k], &plans[k]);
            steps += s.steps;
        }
    }
    search s;
    search_init(&s);
    for (int64_t k = start; k < end; k++) {
        if (plans[k].paths < 0)
            continue;
        const pf_dyn_cut *c = &cuts[k];
        int64_t done = lists ? make_plan(d, &s, lists, &plans[k], c)
                             : reroute_now(d, &s, c->u, c->v, c->amount);
        rerouted(d, c->u, c->v, done, out);
    }
    out->repair_steps += steps + s.steps;
    for (int t = 0; lists && t < threads; t++)
        free(lists[t].v);
    free(lists);
}

void pf_dyn_reroute_cuts(pf_dyn_graph *d, const pf_dyn_cut *cuts, int64_t count,
                         pf_dyn_batch_out *out)
{
    cut_plan *plans = malloc((size_t)(count > 0 ? count : 1) * sizeof *plans);
    if (!plans) {
        /* no memory for plans: each cut searched and pushed in turn */
        for (int64_t k = 0; k < count; k++)
            pf_dyn_reroute(d, cuts[k].u, cuts[k].v, cuts[k].amount, out);
        return;
    }
    for (int64_t start = 0, due = 0; start < count;) {
        int64_t end = due_cuts(d, cuts, start, count, plans, &due);
        reroute_span(d, cuts, start, end, due, plans, out);
        start = end;
    }
    free(plans);
}
