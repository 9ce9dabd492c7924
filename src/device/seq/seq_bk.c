/* Boykov and Kolmogorov's augmenting-path engine ("An Experimental
 * Comparison of Min-Cut/Max-Flow Algorithms for Energy Minimization in
 * Vision", PAMI 2004) over the residual graph's CSR: two search trees,
 * one grown from the source along arcs with residual out of its vertices,
 * one from the sink along arcs with residual into them; an arc from the
 * first to the second is an augmenting path. Saturating it cuts vertices
 * off their trees (orphans), which look among their neighbours for a new
 * parent still rooted at the terminal, or leave the tree. The trees are
 * kept between augmentations, which is why the engine is fast where
 * every vertex hangs off a terminal and paths are short (segmentation
 * grids) and slow where paths are long (layered RLG or RMFGEN networks,
 * where push-relabel wins): seq_engine.h says which the seq backend takes.
 *
 * The source and the sink are the trees' roots, ordinary vertices of the
 * CSR; augmentations move flow along whole source-sink paths, so the
 * residuals always hold a flow (no phase 2) and no path ever passes
 * through a terminal. */
#include <stdlib.h>
#include <string.h>

#include "../../common/progress.h"
#include "../../common/shape.h"
#include "../../common/status.h"
#include "../../common/timer.h"
#include "seq_engine.h"

enum { FREE = 0, IN_S = 1, IN_T = 2 };

/* parent: the arc from the vertex to its parent in its tree, or these. */
#define PARENT_NONE (-1)     /* free */
#define PARENT_ROOT (-2)     /* the source or the sink */
#define PARENT_ORPHAN (-3)   /* cut off; waiting for adoption */
#define NOT_QUEUED (-1)
#define DIST_INFINITE INT32_MAX

/* What a tree step reads and writes at a vertex, in one 24-byte slot: the
 * scans visit neighbours in a random order on large graphs. */
typedef struct bk_vertex {
    int64_t parent;
    int32_t next;  /* active queue link; NOT_QUEUED; the last one points at itself */
    uint32_t mark; /* the adoption pass that last measured dist */
    int32_t dist;  /* tree edges to the root, exact as of pass `mark` */
    uint8_t tree;
} bk_vertex;

typedef struct bk {
    int32_t n, source, sink;
    const int64_t *first;
    const int32_t *head;
    const int64_t *rev;
    int64_t *res;
    bk_vertex *vx;
    int32_t active_head, active_tail; /* FIFO; -1: empty */
    int32_t *orphans;                 /* ring of n */
    int64_t orphan_head, orphan_count;
    uint32_t pass;
    int64_t value;
    int64_t augmentations;
    int64_t work; /* arcs scanned and tree edges walked */
    int overflow;
} bk;

static void set_active(bk *B, int32_t v)
{
    bk_vertex *x = &B->vx[v];
    if (x->next != NOT_QUEUED)
        return;
    x->next = v;
    if (B->active_tail >= 0)
        B->vx[B->active_tail].next = v;
    else
        B->active_head = v;
    B->active_tail = v;
}

/* The next active vertex still in a tree; -1 when none is left. A vertex
 * that left its tree while queued is dropped here. */
static int32_t next_active(bk *B)
{
    for (;;) {
        int32_t v = B->active_head;
        if (v < 0)
            return -1;
        bk_vertex *x = &B->vx[v];
        B->active_head = x->next == v ? -1 : x->next;
        if (B->active_head < 0)
            B->active_tail = -1;
        x->next = NOT_QUEUED;
        if (x->tree != FREE)
            return v;
    }
}

/* Orphans of an augmentation go to the front, so that the one nearest its
 * root (the last one found) is adopted first; orphans made by adoption go
 * to the back. */
static void add_orphan(bk *B, int32_t v, int front)
{
    B->vx[v].parent = PARENT_ORPHAN;
    if (front) {
        B->orphan_head = (B->orphan_head + B->n - 1) % B->n;
        B->orphans[B->orphan_head] = v;
        B->orphan_count++;
    } else {
        B->orphans[(B->orphan_head + B->orphan_count++) % B->n] = v;
    }
}

/* Grows v's tree by a scan of v's arcs from *from on; returns an arc from
 * the source's tree to the sink's (the middle of an augmenting path), or
 * -1, and leaves *from at the arc of v's list where it stopped. */
static int64_t grow(bk *B, int32_t v, int64_t *from)
{
    bk_vertex *x = &B->vx[v];
    int in_s = x->tree == IN_S;
    B->work += B->first[v + 1] - *from;
    for (int64_t a = *from; a < B->first[v + 1]; a++) {
        /* The source's tree grows along v->w, the sink's along w->v. */
        if (B->res[in_s ? a : B->rev[a]] == 0)
            continue;
        int32_t w = B->head[a];
        bk_vertex *y = &B->vx[w];
        if (y->tree == FREE) {
            y->tree = x->tree;
            y->parent = B->rev[a];
            y->mark = x->mark;
            y->dist = x->dist + 1;
            set_active(B, w);
        } else if (y->tree != x->tree) {
            *from = a;
            return in_s ? a : B->rev[a];
        } else if (y->mark <= x->mark && y->dist > x->dist && y->parent != PARENT_ROOT) {
            /* Shorter paths through v (Boykov and Kolmogorov's heuristic). */
            y->parent = B->rev[a];
            y->mark = x->mark;
            y->dist = x->dist + 1;
        }
    }
    return -1;
}

/* Pushes the bottleneck along the path through `middle` (an arc from the
 * source's tree to the sink's) and makes orphans of the vertices whose
 * tree arc it saturates. */
static void augment(bk *B, int64_t middle)
{
    int64_t *res = B->res;
    int64_t flow = res[middle];
    /* The source's side: v's tree arc runs parent -> v. */
    for (int32_t v = B->head[B->rev[middle]]; B->vx[v].parent != PARENT_ROOT;) {
        int64_t up = B->vx[v].parent;
        if (res[B->rev[up]] < flow)
            flow = res[B->rev[up]];
        v = B->head[up];
        B->work++;
    }
    /* The sink's side: v -> parent. */
    for (int32_t v = B->head[middle]; B->vx[v].parent != PARENT_ROOT;) {
        int64_t up = B->vx[v].parent;
        if (res[up] < flow)
            flow = res[up];
        v = B->head[up];
        B->work++;
    }
    res[middle] -= flow;
    res[B->rev[middle]] += flow;
    for (int32_t v = B->head[B->rev[middle]]; B->vx[v].parent != PARENT_ROOT;) {
        int64_t up = B->vx[v].parent;
        int32_t p = B->head[up];
        res[up] += flow;
        if ((res[B->rev[up]] -= flow) == 0)
            add_orphan(B, v, 1);
        v = p;
    }
    for (int32_t v = B->head[middle]; B->vx[v].parent != PARENT_ROOT;) {
        int64_t up = B->vx[v].parent;
        int32_t p = B->head[up];
        res[B->rev[up]] += flow;
        if ((res[up] -= flow) == 0)
            add_orphan(B, v, 1);
        v = p;
    }
    if (__builtin_add_overflow(B->value, flow, &B->value))
        B->overflow = 1;
    B->augmentations++;
}

/* `flow` along arc a, its reverse taking it back; counted in the value
 * when a reaches the sink. */
static void push_arc(bk *B, int64_t a, int64_t flow)
{
    B->res[a] -= flow;
    B->res[B->rev[a]] += flow;
    if (B->head[a] == B->sink && __builtin_add_overflow(B->value, flow, &B->value))
        B->overflow = 1;
}

/* Flow along every path source -> v -> sink (and source -> sink) before
 * the trees grow: segmentation networks often give a vertex an arc from
 * each terminal, and each of these paths would otherwise cost an
 * augmentation and an orphan. */
static void pair_terminals(bk *B)
{
    int64_t *res = B->res;
    for (int64_t a = B->first[B->source]; a < B->first[B->source + 1]; a++) {
        int32_t v = B->head[a];
        if (v == B->sink) {
            push_arc(B, a, res[a]);
            continue;
        }
        for (int64_t b = B->first[v]; res[a] > 0 && b < B->first[v + 1]; b++)
            if (B->head[b] == B->sink && res[b] > 0) {
                int64_t flow = res[a] < res[b] ? res[a] : res[b];
                push_arc(B, a, flow);
                push_arc(B, b, flow);
            }
    }
}

/* Tree edges from w to its root, or DIST_INFINITE where an orphan cuts w
 * off; marks the vertices it walked with their distances for this pass,
 * so that later walks stop where this one went. */
static int32_t root_distance(bk *B, int32_t w)
{
    int32_t d = 0;
    int32_t k = w;
    for (;;) {
        bk_vertex *y = &B->vx[k];
        if (y->mark == B->pass) {
            d += y->dist;
            break;
        }
        B->work++;
        if (y->parent == PARENT_ORPHAN)
            return DIST_INFINITE;
        d++;
        if (y->parent == PARENT_ROOT) {
            y->mark = B->pass;
            y->dist = 1;
            break;
        }
        k = B->head[y->parent];
    }
    int32_t total = d;
    for (k = w; B->vx[k].mark != B->pass; k = B->head[B->vx[k].parent]) {
        B->vx[k].mark = B->pass;
        B->vx[k].dist = d--;
    }
    return total;
}

/* An orphan v takes the neighbour nearest its root as its parent among
 * those of its tree that reach it (source's tree: w->v with residual;
 * sink's: v->w); without one it leaves the tree, its children become
 * orphans and its tree's neighbours that could take it back go active. */
static void adopt(bk *B, int32_t v)
{
    bk_vertex *x = &B->vx[v];
    int in_s = x->tree == IN_S;
    int64_t best = -1;
    int32_t best_dist = DIST_INFINITE;
    B->work += B->first[v + 1] - B->first[v];
    for (int64_t a = B->first[v]; a < B->first[v + 1]; a++) {
        if (B->res[in_s ? B->rev[a] : a] == 0)
            continue;
        int32_t w = B->head[a];
        if (B->vx[w].tree != x->tree)
            continue;
        int32_t d = root_distance(B, w);
        if (d < best_dist) {
            best_dist = d;
            best = a;
        }
    }
    if (best >= 0) {
        x->parent = best;
        x->mark = B->pass;
        x->dist = best_dist + 1;
        return;
    }
    for (int64_t a = B->first[v]; a < B->first[v + 1]; a++) {
        int32_t w = B->head[a];
        bk_vertex *y = &B->vx[w];
        if (y->tree != x->tree)
            continue;
        if (B->res[in_s ? B->rev[a] : a] > 0)
            set_active(B, w);
        if (y->parent >= 0 && B->head[y->parent] == v)
            add_orphan(B, w, 0);
    }
    x->tree = FREE;
    x->parent = PARENT_NONE;
}

static void adopt_orphans(bk *B)
{
    while (B->orphan_count > 0) {
        int32_t v = B->orphans[B->orphan_head];
        B->orphan_head = (B->orphan_head + 1) % B->n;
        B->orphan_count--;
        adopt(B, v);
    }
}

/* A new adoption pass: distances measured before it are stale. The marks
 * start over (all zero) before the counter would wrap. */
static void next_pass(bk *B)
{
    if (++B->pass == UINT32_MAX) {
        for (int32_t v = 0; v < B->n; v++)
            B->vx[v].mark = 0;
        B->pass = 1;
    }
}

/* The canonical cut, as every engine reports it: the source side is what
 * cannot reach the sink. Once the flow is maximum, the sink's tree reaches
 * the sink along its tree arcs and the source's tree cannot reach it (that
 * would be an augmenting path), so only free vertices are in question:
 * those with a residual path into the sink's tree, searched backwards from
 * the free vertices next to it, with the orphan ring (empty now) as the
 * queue. Far less than a search from the sink over every arc. */
static void canonical_cut(bk *B, uint8_t *side)
{
    int32_t *queue = B->orphans;
    int64_t queued = 0;
    for (int32_t v = 0; v < B->n; v++) {
        side[v] = B->vx[v].tree != IN_T;
        if (B->vx[v].tree != FREE)
            continue;
        for (int64_t a = B->first[v]; a < B->first[v + 1]; a++)
            if (B->res[a] > 0 && B->vx[B->head[a]].tree == IN_T) {
                side[v] = 0;
                queue[queued++] = v;
                break;
            }
    }
    for (int64_t q = 0; q < queued; q++) {
        int32_t v = queue[q];
        for (int64_t a = B->first[v]; a < B->first[v + 1]; a++) {
            int32_t u = B->head[a];
            if (side[u] && B->vx[u].tree == FREE && B->res[B->rev[a]] > 0) {
                side[u] = 0;
                queue[queued++] = u;
            }
        }
    }
}

/* Where the caller lets it give up: after this many arcs scanned and tree
 * edges walked per residual arc and vertex. The suite's grids take
 * 1.5-1.8; networks with long augmenting paths run into the hundreds and
 * thousands (RMFGEN 24x192 1642, AK 5211, AC 24: bench/NOTES.md 59), where
 * push-relabel is far faster. */
#define BK_GIVE_UP_WORK 8

int pf_seq_bk_solve(const pf_residual *g, const pf_solve_options *opt, int may_give_up,
                    pf_engine_out *out, int *gave_up, pf_status *st)
{
    *gave_up = 0;
    double t_start = pf_now();
    if (g->n < 2 || g->n > INT32_MAX - 1 || g->source < 0 || g->sink < 0 || g->source >= g->n ||
        g->sink >= g->n || g->source == g->sink)
        return pf_fail(st, PF_E_INPUT, "seq: bad residual graph (n %lld, source %d, sink %d)",
                       (long long)g->n, (int)g->source, (int)g->sink);
    if (!out->res)
        return pf_fail(st, PF_E_USAGE, "seq: no residual output array");
    bk B = {.n = (int32_t)g->n, .source = g->source, .sink = g->sink, .first = g->first,
            .head = g->head, .rev = g->rev, .res = out->res,
            .active_head = -1, .active_tail = -1, .pass = 1};
    B.vx = pf_alloc((size_t)g->n, sizeof *B.vx, st);
    B.orphans = B.vx ? pf_alloc((size_t)g->n, sizeof *B.orphans, st) : NULL;
    if (!B.orphans) {
        free(B.vx);
        return PF_E_NOMEM;
    }
    memcpy(B.res, g->cap, (size_t)g->arcs * sizeof *B.res);
    for (int32_t v = 0; v < B.n; v++)
        B.vx[v] = (bk_vertex){.parent = PARENT_NONE, .next = NOT_QUEUED, .tree = FREE};
    B.vx[B.source] = (bk_vertex){.parent = PARENT_ROOT, .next = NOT_QUEUED, .dist = 1, .tree = IN_S};
    B.vx[B.sink] = (bk_vertex){.parent = PARENT_ROOT, .next = NOT_QUEUED, .dist = 1, .tree = IN_T};
    set_active(&B, B.source);
    set_active(&B, B.sink);
    pair_terminals(&B);

    pf_progress progress;
    pf_progress_begin(&progress, opt ? opt->progress : 0);
    pf_progress_step("augmenting paths (Boykov-Kolmogorov)");
    double t_search = pf_now();
    int rc = PF_OK;
    const int64_t work_limit =
        may_give_up ? BK_GIVE_UP_WORK * (g->arcs + g->n) : INT64_MAX;
    int32_t v = -1;
    int64_t from = 0; /* v's arcs before it need no second look */
    for (int64_t steps = 0; !B.overflow; steps++) {
        if ((steps & 0x3fff) == 0) {
            if (pf_cancel_requested(opt)) {
                rc = pf_fail(st, PF_E_CANCELLED, "solve cancelled by the caller");
                break;
            }
            if (opt && opt->progress && pf_progress_wanted())
                pf_progress_say("augmenting paths (Boykov-Kolmogorov), %lld paths, %lld units "
                                "of flow at the sink",
                                (long long)B.augmentations, (long long)B.value);
        }
        if (B.work > work_limit) {
            *gave_up = 1;
            break;
        }
        /* After an augmentation v goes on growing while it is in a tree. */
        if (v < 0 || B.vx[v].tree == FREE) {
            v = next_active(&B);
            if (v < 0)
                break;
            from = g->first[v];
        }
        int64_t middle = grow(&B, v, &from);
        if (middle < 0) {
            v = -1;
            continue;
        }
        next_pass(&B);
        augment(&B, middle);
        adopt_orphans(&B);
    }
    if (rc == PF_OK && B.overflow)
        rc = pf_fail(st, PF_E_INPUT,
                     "seq: the maximum flow exceeds the int64 range (capacity out of the "
                     "source overflows and the cut is not bounded)");
    double t_cut = pf_now();
    if (rc == PF_OK && !*gave_up && out->source_side)
        canonical_cut(&B, out->source_side);
    pf_progress_end(&progress);
    double t_end = pf_now();
    free(B.vx);
    free(B.orphans);
    if (rc != PF_OK)
        return rc;
    out->value = B.value;
    out->rounds = B.augmentations;
    out->global_relabels = 0;
    out->device_bytes = 0;
    out->times.setup = t_search - t_start;
    out->times.push_relabel = t_cut - t_search;
    out->times.phase2 = t_end - t_cut;
    out->times.total = t_end - t_start;
    pf_status_ok(st);
    return PF_OK;
}

int pf_seq_takes_bk(const pf_residual *g, const pf_solve_options *opt)
{
    int method = opt ? opt->method : PF_METHOD_AUTO;
    return method == PF_METHOD_BOYKOV_KOLMOGOROV ||
           (method == PF_METHOD_AUTO && pf_residual_is_segmentation(g));
}
