/* The dynamic residual graph of a session (dyn_graph.c): a residual graph
 * in CSR form whose vertex ranges keep free slots (slack), so arcs are
 * added, deleted and re-capacitated in place, plus the preflow that lives
 * on it (residuals and excesses), kept valid through every change.
 *
 * Why CSR with slack rather than pages of adjacency records: every engine
 * (seq, omp, the OpenCL and CUDA kernels) already walks a pf_residual, and
 * a slot that holds no arc is written as an arc no engine can use (below),
 * so the engines run on the dynamic graph unchanged. The pages are the
 * unit of transfer: the slot arrays are cut into pages of 2^page_log2
 * slots and a change marks the pages it wrote, so a device copy is brought
 * up to date by sending those pages only (bench/NOTES.md has the measured
 * page size and slack).
 *
 * A free slot ("dead"): head = its own vertex, rev = itself, cap = res = 0.
 * A self-loop of residual 0 is never pushed along, never lowers a relabel
 * and never enters a BFS; a vertex's list may hold any number of them.
 *
 * Arc ids: the input arcs are ids 0 .. input_arcs-1 (the order of the
 * network, as pf_residual.fwd_of_input), added arcs take the next ids, and
 * a deleted arc's id is never reused. The residual graph's own extra arcs
 * (a super source's and sink's, residual.h) have no id; the caller sets
 * their capacity by slot (pf_dyn_set_slot_cap).
 *
 * The preflow: res[slot] (every slot) and excess[v] (every vertex, the
 * source's included: minus what left it). Invariants after every call that
 * returns PF_OK: res[f] + res[r] = cap[f] for each pair (f forward, r
 * reverse, cap[r] = 0), so flow(f) = res[r]; excess[v] = inflow - outflow
 * >= 0 for every vertex but the source; every arc out of the source is
 * saturated (res = 0) — what push-relabel needs to resume from it.
 *
 * Covered deficits (cover_deficits = 1, dyn_cover.c): a deficit d left at
 * v is not repaired but covered by a pair of arcs without ids, source -> v
 * (saturated, capacity d) and v -> sink (capacity d). Every s-t cut
 * crosses exactly one arc of each pair, so every cut is cover_total above
 * the graph's own: the minimum cuts are the graph's, and its maximum flow
 * value is the sink's excess less cover_total. The arc flows are then not
 * a flow of the graph (for sessions that report value and cut only). */
#ifndef PF_DYN_GRAPH_H
#define PF_DYN_GRAPH_H

#include <stdint.h>

#include "residual.h"
#include "status.h"

typedef struct pf_dyn_params {
    int page_log2;       /* slots per page = 2^page_log2; 0: the default */
    double slack;        /* free slots per vertex, as a fraction of its degree... */
    int32_t slack_min;   /* ...and at least this many; both 0: the defaults */
    int64_t vertex_room; /* vertices that may be added before the arrays grow; < 0: default */
    int threads;         /* OpenMP threads for the builds and batches (<= 0: all) */
    int whole_layouts;   /* 1: room is made by whole layouts only, no windows (measuring) */
} pf_dyn_params;

/* A covered deficit's pair of arcs (forward slots): source -> v, v -> sink. */
typedef struct pf_dyn_cover_pair {
    int64_t in, out;
    int32_t v;
} pf_dyn_cover_pair;

typedef struct pf_dyn_graph {
    /* The graph as the engines see it: n, source, sink, first (n + 1),
     * head, rev (absolute), cap over every slot (arcs = slots, free ones
     * included); fwd_of_input is NULL (the id map is below); order is the
     * order the graph was built in. Pointers change when the graph is
     * recompacted or grows: read them after every call. */
    pf_residual view;
    int64_t *res;          /* slots: residual capacities (the preflow) */
    int64_t *excess;       /* vertices */

    /* Arc ids (ids = input arcs, then added ones). */
    int64_t ids;           /* ids handed out so far */
    int64_t ids_cap;       /* room in the id arrays */
    int64_t *slot_of;      /* ids: forward slot; -1 deleted or a self-loop */
    int32_t *tail_of, *head_of; /* ids: the arc's ends (kept after deletion) */
    int64_t *cap_of;       /* ids: its capacity now (0 once deleted) */
    uint8_t *deleted;      /* ids: 1 once deleted */

    /* Free-slot bookkeeping: slots of u are [first[u], first[u+1]); the
     * first used[u] of them have been handed out (live or dead since),
     * the rest are free. */
    int64_t *used;
    int64_t *dead;         /* vertices: dead slots among the used ones */

    /* Room: the slot arrays hold slot_cap slots and the vertex arrays
     * vertex_cap vertices (first: vertex_cap + 1), so arcs and vertices
     * are added in place until one runs out (then the graph grows, which
     * is a recompaction). The source's forward capacity in total (kept
     * within int64, so no excess can overflow). */
    int64_t slot_cap, vertex_cap;
    int64_t source_cap;

    /* The deficit repair's scratch (vertex_cap entries each): each
     * vertex's current arc, the path's slots, a mark for the vertices the
     * repair has labelled, their labels (lower bounds on the number of
     * flow-carrying arcs to excess), the vertices marked. */
    int64_t *walk_cur, *walk_path;
    uint8_t *walk_mark;
    int32_t *walk_dist, *walk_seen;

    /* Pages: dirty[p] = 1 when a slot of page p (head, rev, cap or res)
     * changed since pf_dyn_clean; vertex_dirty likewise for pages of
     * 2^page_log2 vertices (excess, first). all_dirty = 1 after a
     * recompaction or growth: every array is new. */
    int page_log2;
    int64_t pages, vertex_pages;
    uint8_t *dirty, *vertex_dirty;
    int all_dirty;          /* pages cover slot_cap slots and vertex_cap + 1 vertices */
    /* The same changes as lists: touched[0] the slots, touched[1] the
     * vertices, in the order touched (repeats possible), at most
     * touched_cap of each (a 16th of the slots): a device session sends
     * just these, one by one. touched_full: more changed than the lists
     * hold (the pages say what). */
    int32_t *touched[2];
    int64_t touched_count[2], touched_cap[2];
    int touched_full;

    /* pf_dyn_set_slot_cap left deficits where the next repair must look
     * for them at every vertex. */
    int deficits_pending;

    /* Covered deficits (above): the pairs, each vertex's pair (index + 1,
     * 0: none; vertex_cap entries, moved with the vertex arrays) and what
     * they add to every cut. A pair of capacity 0 is kept for the vertex's
     * next deficit until a layout, or terminals short of free slots, drop
     * it. */
    int cover_deficits;
    pf_dyn_cover_pair *covers;
    int64_t cover_count, cover_room;
    /* The source's [0] and the sink's [1] slots of dropped pairs (dead,
     * cover_room entries each): the next pairs take them before the free
     * slots at the range's end, so a stream of batches whose pairs come
     * and go needs no layout for them. A layout empties both. */
    int64_t *spare[2];
    int64_t spare_count[2];
    int64_t *cover_of;
    int64_t cover_total;

    /* The reroutes' record (pf_dyn_reroute): searches made and those
     * that found a way round the cut arc, both halved now and then so the
     * record follows the stream; searches skipped since it went rare. */
    int64_t reroute_tries, reroute_found, reroute_skipped;

    /* Batches applied, and the one whose added arcs last outgrew a
     * vertex's room (0: the build): a stream that outgrows its rooms
     * often gets more slack (dyn_apply.c). */
    int64_t batches_applied, last_room_layout;

    /* A batch's scratch, kept for the next (dyn_layout.h). */
    struct pf_dyn_batch_lists *batch;

    /* Counters for reports and benchmarks: whole layouts, and windows laid
     * out in their place (dyn_window.c). */
    int64_t recompactions, windows_laid;
    int64_t live_arcs;     /* pairs in use (super arcs included) */
    pf_dyn_params params;
} pf_dyn_graph;

/* One change to the graph. Capacities are in the network's units (fixed
 * point for real networks). */
typedef enum pf_dyn_kind {
    PF_DYN_CAP,    /* arc `id` gets capacity `cap` */
    PF_DYN_ADD,    /* a new arc tail -> head of capacity `cap`; takes the next id */
    PF_DYN_DEL,    /* arc `id` is deleted */
    PF_DYN_ADDV,   /* `count` vertices appended (ids n .. n+count-1) */
} pf_dyn_kind;

typedef struct pf_dyn_change {
    int32_t kind;          /* pf_dyn_kind */
    int64_t id;            /* CAP, DEL */
    int64_t tail, head;    /* ADD (vertex ids of the view) */
    int64_t cap;           /* CAP, ADD: >= 0 */
    int64_t count;         /* ADDV: >= 1 */
} pf_dyn_change;

/* What a batch did, for reports. */
typedef struct pf_dyn_batch_out {
    int64_t flow_cut;      /* flow removed from arcs by lowered or deleted capacities */
    int64_t rerouted;      /* of it, sent round the arc from its tail to its head */
    int64_t deficits;      /* vertices left with a deficit, before the repair */
    int64_t covered;       /* of them, covered by a pair (cover_deficits) */
    int64_t repair_steps;  /* arcs walked by the deficit repair */
    int64_t source_pushed; /* pushed out of the source on new or raised arcs */
    int recompacted;       /* the slot arrays were rebuilt (every page dirty) */
    int reset;             /* the repair cost more than a fresh start would: the
                              preflow is the initial one (every page dirty) */
} pf_dyn_batch_out;

void pf_dyn_params_default(pf_dyn_params *p);

/* Builds the dynamic graph from g (any arc order; g is not kept) with the
 * preflow `res` (g->arcs values, residuals of g's arcs) and `excess` (g->n
 * values) — the state a previous solve left — or, with res == NULL, the
 * initial preflow: residuals = capacities, then every source arc
 * saturated. The state must satisfy the invariants above (residual left at
 * the source's slots is pushed out again). The ids are g's reported arcs
 * (output_arcs); g keeps no self-loop's ends or capacity, so those ids get
 * tail_of = head_of = -1 and cap_of = 0, for the caller to overwrite. */
int pf_dyn_build(const pf_residual *g, const int64_t *res, const int64_t *excess,
                 const pf_dyn_params *p, pf_dyn_graph *d, pf_status *st);
void pf_dyn_free(pf_dyn_graph *d);

/* Checks a batch against the graph as it is, without changing anything:
 * PF_E_INPUT naming the first bad change by its index ("change 3: arc 17
 * was deleted"): an unknown or deleted id (ids the batch's own ADD
 * changes hand out before it count), a vertex outside the graph (counting
 * the vertices its ADDV changes add before it), a negative capacity, an
 * ADDV count below 1, or sizes past the engines' limits (int32 vertex
 * ids). Arcs into the source, out of the sink, parallel arcs and
 * self-loops are allowed (a self-loop gets an id and carries no flow). */
int pf_dyn_check(const pf_dyn_graph *d, const pf_dyn_change *c, int64_t count, pf_status *st);

/* Applies a batch (checked first with pf_dyn_check: a bad one changes
 * nothing), keeping the preflow valid: a raised capacity opens residual
 * capacity; a capacity lowered below the arc's flow (or a deleted arc)
 * takes the difference off the flow, leaving excess at the tail and a
 * deficit at the head; arcs out of the source are saturated. Once every
 * change is made, short residual paths from tail to head take what they
 * can of each cut round its arc (dyn_reroute.c), and every deficit left
 * is repaired by cancelling flow forward along arcs that carry flow, until
 * it meets excess (or the sink's, or the source), which keeps the
 * invariants (dyn_repair.c). The graph's arcs end as the changes made in
 * order leave them; the changes run on params.threads threads in phases
 * (dyn_changes.c) whose result does not depend on the number. Slots are
 * taken from a vertex's free ones; where a vertex has none, the whole
 * graph is recompacted (every vertex's slack restored) first. PF_E_NOMEM
 * leaves the graph as it was. `out` may be NULL. */
int pf_dyn_apply(pf_dyn_graph *d, const pf_dyn_change *c, int64_t count, pf_dyn_batch_out *out,
                 pf_status *st);

/* Sets the capacity of the pair whose forward slot is `slot` (an arc
 * without an id: a super terminal's), with the same flow rules as
 * PF_DYN_CAP; deficits it leaves are repaired by the next pf_dyn_apply or
 * by pf_dyn_repair. */
int pf_dyn_set_slot_cap(pf_dyn_graph *d, int64_t slot, int64_t cap, pf_status *st);
int pf_dyn_repair(pf_dyn_graph *d, pf_dyn_batch_out *out, pf_status *st);

/* After an engine wrote its preflow into d->res and d->excess (a solve:
 * the source's excess not tracked, residual returned to the source's
 * slots): the source's excess recomputed (every excess sums to 0) and its
 * slots saturated again, so the invariants hold for the next batch.
 * Returns what was pushed out of the source. Marks no page: the caller
 * knows what the engine wrote. */
int64_t pf_dyn_take_preflow(pf_dyn_graph *d);
/* Its two halves, for an engine that keeps the source's excess itself
 * (the parallel driver: every push adds and takes alike): how far the
 * source's excess is from minus the others' sum (0 where the invariant
 * holds; a pass over every vertex), and the source's slots saturated
 * again (what was pushed). */
int64_t pf_dyn_source_shortfall(const pf_dyn_graph *d);
int64_t pf_dyn_saturate_source(pf_dyn_graph *d);

/* The initial preflow on the graph as it is (residuals = capacities,
 * every source arc saturated): a cold start; every page dirty. */
void pf_dyn_reset_preflow(pf_dyn_graph *d);

/* Covered deficits (dyn_cover.c; the clear beside the reset in
 * dyn_graph.c). pf_dyn_cover_list covers the deficits of
 * the listed vertices (NULL: of every vertex), making room by a layout
 * where a vertex or a terminal lacks slots; where a pair cannot be made
 * (no memory for the layout, a total past int64, a deficit at the sink)
 * it repairs instead. pf_dyn_cover_trim, after a solve (the source's arcs
 * saturated again), cancels what reached the sink through each pair
 * against its source arc: both arcs lose it, and so does cover_total.
 * pf_dyn_cover_clear removes every pair (for a fresh preflow: the pairs'
 * arcs become free slots). pf_dyn_is_cover_slot: slot a is an arc of a
 * pair. */
int pf_dyn_cover_list(pf_dyn_graph *d, const int64_t *list, int64_t len, pf_dyn_batch_out *out,
                      pf_status *st);
void pf_dyn_cover_trim(pf_dyn_graph *d);
void pf_dyn_cover_clear(pf_dyn_graph *d);
int pf_dyn_is_cover_slot(const pf_dyn_graph *d, int64_t a);

/* The graph's own maximum flow value once the preflow is a maximum one. */
static inline int64_t pf_dyn_value(const pf_dyn_graph *d)
{
    return d->excess[d->view.sink] - d->cover_total;
}

/* The flow on arc `id` (0 for deleted arcs and self-loops). */
int64_t pf_dyn_flow(const pf_dyn_graph *d, int64_t id);

/* Marks every page clean (after the caller has copied the dirty ones). */
void pf_dyn_clean(pf_dyn_graph *d);

/* Checks the invariants (tests; O(slots + vertices)): PF_E_VERIFY with
 * the first broken one. */
int pf_dyn_verify(const pf_dyn_graph *d, pf_status *st);

#endif
