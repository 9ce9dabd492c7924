/* The dynamic graph's storage (dyn_graph.c), shared with its batch code
 * (dyn_apply.c): a set of arrays sized for some room, and the layout that
 * fills them from the graph as it is, each vertex's live slots first in
 * their order, then its slack (a recompaction, or a growth). */
#ifndef PF_DYN_LAYOUT_H
#define PF_DYN_LAYOUT_H

#include <stdint.h>

#include "dyn_graph.h"

typedef struct dyn_arrays {
    int64_t vertex_cap, slot_cap, pages, vertex_pages;
    int64_t *first, *rev, *cap, *res, *excess, *used, *dead;
    int32_t *head;
    uint8_t *dirty, *vertex_dirty;
    int64_t touched_cap[2];
    int32_t *touched[2];
    int64_t *walk_cur, *walk_path;
    uint8_t *walk_mark;
    int32_t *walk_dist, *walk_seen;
    int64_t *cover_of;
} dyn_arrays;

/* Every array of dyn_arrays, each as X(where pf_dyn_graph holds it, its
 * dyn_arrays member): the one list that allocation checks, freeing, and
 * moving the arrays in and out of a graph walk. */
#define PF_DYN_ARRAYS(X)                                                                  \
    X(view.first, first) X(view.head, head) X(view.rev, rev) X(view.cap, cap) X(res, res)  \
    X(excess, excess) X(used, used) X(dead, dead) X(dirty, dirty)                          \
    X(vertex_dirty, vertex_dirty) X(walk_cur, walk_cur) X(walk_path, walk_path)            \
    X(walk_mark, walk_mark) X(walk_dist, walk_dist) X(walk_seen, walk_seen)                \
    X(cover_of, cover_of) X(touched[0], touched[0]) X(touched[1], touched[1])

/* A recompaction prepared (every allocation done) but not yet applied. */
typedef struct dyn_plan {
    dyn_arrays arrays;
    int64_t *new_slot;     /* old slots: where each live one goes (-1 dead) */
    int64_t slots;         /* first[n] after the layout */
} dyn_plan;

/* Free slots a vertex of `degree` live slots gets. */
int64_t pf_dyn_slack_for(const pf_dyn_params *p, int64_t degree);

/* The room kept for new vertices over `n`. */
int64_t pf_dyn_vertex_room(const pf_dyn_params *p, int64_t n);

/* Allocates every array for vertex_cap vertices and slot_cap slots. */
int pf_dyn_arrays_alloc(dyn_arrays *a, int64_t vertex_cap, int64_t slot_cap, int page_log2,
                        pf_status *st);
void pf_dyn_arrays_free(dyn_arrays *a);

/* Prepares the layout of d's vertices with `extra[u]` more slots for the
 * vertices listed in extra_vertex (extra_count of them, with their counts
 * in extra_slots; repeats add up), room for `more_vertices` vertices and
 * `more_slots` slots past them besides the default room. */
int pf_dyn_plan(const pf_dyn_graph *d, const int64_t *extra_vertex, const int64_t *extra_slots,
                int64_t extra_count, int64_t more_vertices, int64_t more_slots, dyn_plan *plan,
                pf_status *st);
/* Moves d into the plan's arrays (nothing can fail) and frees the old ones. */
void pf_dyn_plan_commit(pf_dyn_graph *d, dyn_plan *plan);
void pf_dyn_plan_free(dyn_plan *plan);

/* A local layout (dyn_window.c): the vertices lo..hi laid out again in
 * the slots [begin, end) they hold; where the window's new starts and
 * its slots' copies lie in dyn_windows. */
typedef struct dyn_window {
    int64_t lo, hi, begin, end;
    int64_t first_at, map_at;
} dyn_window;

/* A batch's windows, sorted and apart, prepared (every allocation done):
 * per window vertex its new start and live slots; per window slot its
 * new place (-1: a dead or free one, dropped) and a copy of it; a mark
 * per page of slots (those the windows cover). */
typedef struct dyn_windows {
    dyn_window *win;
    int64_t count, slots;
    int64_t *first, *live, *map;
    int32_t *head;
    int64_t *rev, *cap, *res;
    uint8_t *pages;
} dyn_windows;

/* pf_dyn_windows_plan: no windows will do, only the whole layout. */
enum { PF_DYN_WHOLE = -1 };

/* Windows that give each vertex of `vertex` (count of them, sorted, each
 * once) `need` more slots than its live ones where its range is short of
 * them, with every other such vertex inside a window given its need too;
 * PF_DYN_WHOLE where that is not local. Changes nothing. */
int pf_dyn_windows_plan(const pf_dyn_graph *d, const int64_t *vertex, const int64_t *need,
                        int64_t count, dyn_windows *w, pf_status *st);
/* Lays the windows out (nothing can fail). */
void pf_dyn_windows_commit(pf_dyn_graph *d, dyn_windows *w);
void pf_dyn_windows_free(dyn_windows *w);

/* The room a layout keeps at the source and at the sink of n vertices
 * (for the pairs of covered deficits). */
static inline int64_t pf_dyn_terminal_room(int64_t n)
{
    return n / 64 + 64;
}

/* Repairs the deficits of the listed vertices (list NULL: of every
 * vertex), adding to out's deficits and repair_steps (dyn_repair.c). */
int pf_dyn_repair_list(pf_dyn_graph *d, const int64_t *list, int64_t len, pf_dyn_batch_out *out,
                       pf_status *st);

/* Flow a change took off arc u -> v (amount 0: none). */
typedef struct pf_dyn_cut {
    int32_t u, v;
    int64_t amount;
} pf_dyn_cut;

/* Moves up to `amount` of excess from u back to w along residual paths
 * found near u (a bounded search), undoing a cut's excess and deficit
 * where the flow can go round the cut arc; returns what it moved (0 also
 * where the graph's searches rarely find a way and this one is skipped,
 * and for cuts at the source). dyn_reroute.c. */
int64_t pf_dyn_reroute(pf_dyn_graph *d, int64_t u, int64_t w, int64_t amount,
                       pf_dyn_batch_out *out);
/* The same for a batch's cuts (count of them, in the batch's order), the
 * searches on the host's threads; the same result on any number. */
void pf_dyn_reroute_cuts(pf_dyn_graph *d, const pf_dyn_cut *cuts, int64_t count,
                         pf_dyn_batch_out *out);

/* A batch's scratch for its changes (dyn_changes.c), had before anything
 * changes and kept in the graph for the next batch (room changes and
 * thread_room threads; fresh memory for each batch would cost a page
 * fault every few thousand changes): the indices of its arc additions and
 * of its capacity changes and deletions, each addition's two slots, each
 * change's cut, the deficits the changes left (heads of cuts, in order),
 * the threads the changes run on and a worker for each. */
typedef struct pf_dyn_batch_lists {
    int64_t room;
    int thread_room;
    int64_t *add, *edit;
    int64_t adds, edits;
    int64_t *add_slot;
    pf_dyn_cut *cuts;
    int64_t *deficits, deficit_count;
    int threads;
    struct pf_dyn_worker *workers;
    int64_t *block_at;         /* the deficits' blocks: where each one's go */
    double arcs_s, reroutes_s; /* where the changes' time went (traces) */
} pf_dyn_batch_lists;

/* d's scratch for a batch of count changes (NULL: no memory); dropped
 * with the graph. */
pf_dyn_batch_lists *pf_dyn_batch_lists_get(pf_dyn_graph *d, int64_t count, pf_status *st);
void pf_dyn_batch_lists_drop(pf_dyn_graph *d);

/* Makes the batch's changes (checked and planned: every vertex has room
 * for its added arcs) and sends the cut flow round where it can; the
 * deficits left are listed in l for the repair. new_demand: pf_dyn_apply's
 * slots for the new vertices. */
void pf_dyn_apply_changes(pf_dyn_graph *d, const pf_dyn_change *c, int64_t count,
                          const int64_t *new_demand, pf_dyn_batch_lists *l,
                          pf_dyn_batch_out *out);

/* The pair with forward slot `slot` gets capacity `cap`, its cut flow sent
 * round where it can; 1 when flow came off it (a deficit may be left). */
int pf_dyn_cut_slot(pf_dyn_graph *d, int64_t slot, int64_t cap, pf_dyn_batch_out *out);

/* Slot or vertex i (list 0 or 1) onto its touched list, or the lists
 * marked full (no room, or an index past int32: the device's limit). */
static inline void pf_dyn_list_touched(pf_dyn_graph *d, int list, int64_t i)
{
    if (d->touched_count[list] < d->touched_cap[list] && i <= INT32_MAX)
        d->touched[list][d->touched_count[list]++] = (int32_t)i;
    else
        d->touched_full = 1;
}

/* Marks the page of slot a, and of vertex v, dirty, and lists them. */
static inline void pf_dyn_touch_slot(pf_dyn_graph *d, int64_t a)
{
    d->dirty[a >> d->page_log2] = 1;
    pf_dyn_list_touched(d, 0, a);
}
static inline void pf_dyn_touch_vertex(pf_dyn_graph *d, int64_t v)
{
    d->vertex_dirty[v >> d->page_log2] = 1;
    pf_dyn_list_touched(d, 1, v);
}

/* Pushes the residual of the source's slot a to the arc's head (the source
 * loses it as excess, the head gains it); returns what moved (0 where a had
 * no residual). Marks no page. */
static inline int64_t pf_dyn_saturate_slot(pf_dyn_graph *d, int64_t a)
{
    int64_t c = d->res[a];
    if (c <= 0)
        return 0;
    d->res[a] = 0;
    d->res[d->view.rev[a]] += c;
    d->excess[d->view.head[a]] += c;
    d->excess[d->view.source] -= c;
    return c;
}

/* Free or dead slots vertex u can give without a layout. */
static inline int64_t pf_dyn_room_at(const pf_dyn_graph *d, int64_t u)
{
    return d->view.first[u + 1] - d->view.first[u] - d->used[u] + d->dead[u];
}

/* Dead slot a of u handed out: no longer dead (rev -1 until the caller
 * writes the arc), so a second take before that cannot return it again. */
static inline int64_t pf_dyn_claim_dead(pf_dyn_graph *d, int64_t u, int64_t a)
{
    d->dead[u]--;
    d->view.rev[a] = -1;
    return a;
}

/* A slot of u for a new arc: a free one, else a dead one (the caller made
 * sure there is one: pf_dyn_room_at). */
static inline int64_t pf_dyn_take_slot(pf_dyn_graph *d, int64_t u)
{
    const int64_t lo = d->view.first[u];
    if (lo + d->used[u] < d->view.first[u + 1])
        return lo + d->used[u]++;
    for (int64_t a = lo; a < lo + d->used[u]; a++)
        if (d->view.rev[a] == a)
            return pf_dyn_claim_dead(d, u, a);
    return -1;
}

/* Writes slot a of vertex u as a free slot. */
static inline void pf_dyn_kill_slot(pf_dyn_graph *d, int64_t a, int32_t u)
{
    d->view.head[a] = u;
    d->view.rev[a] = a;
    d->view.cap[a] = 0;
    d->res[a] = 0;
}

/* Kills pair k's four slots and takes it out of the table (the last pair
 * moves into its place). Its arcs must carry no flow, or the caller must
 * be about to start the preflow over. */
static inline void pf_dyn_drop_pair(pf_dyn_graph *d, int64_t k)
{
    const pf_dyn_cover_pair p = d->covers[k];
    const int32_t s = d->view.source, t = d->view.sink;
    const int64_t slot[4] = {p.in, d->view.rev[p.in], p.out, d->view.rev[p.out]};
    const int32_t owner[4] = {s, p.v, p.v, t};
    d->source_cap -= d->view.cap[p.in];
    for (int i = 0; i < 4; i++) {
        pf_dyn_kill_slot(d, slot[i], owner[i]);
        pf_dyn_touch_slot(d, slot[i]);
        d->dead[owner[i]]++;
    }
    /* Room for these: pf_dyn_cover_list's reserve (spares + pairs stay
     * within cover_room, since new pairs take spares first). */
    d->spare[0][d->spare_count[0]++] = slot[0];
    d->spare[1][d->spare_count[1]++] = slot[3];
    d->live_arcs -= 2;
    d->cover_of[p.v] = 0;
    d->cover_count--;
    if (k != d->cover_count) {
        d->covers[k] = d->covers[d->cover_count];
        d->cover_of[d->covers[k].v] = k + 1;
    }
}

#endif
