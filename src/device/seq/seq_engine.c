/* The sequential engine: highest-label push-relabel after Cherkassky and
 * Goldberg ("On implementing push-relabel method for the maximum flow
 * problem", 1997), written from the paper's description.
 *
 * Phase 1 computes a maximum preflow. Vertices are kept in buckets by
 * label, each bucket holding an active list (excess > 0) and an inactive
 * list, so that the highest active vertex is found by walking down from
 * max_active and a gap (an empty bucket) can lift everything above it to n.
 * Exact labels come from a global relabel (reverse BFS from the sink),
 * run at the start and again whenever the relabel work since the last one
 * exceeds a threshold proportional to the graph size. Vertices that cannot
 * reach the sink have label n and are never touched again in phase 1.
 *
 * The cut is the set that cannot reach the sink once phase 1 is over.
 *
 * Phase 2 (only for want_flow) turns the preflow into a flow: flow cycles
 * among the source-side vertices are cancelled by a depth-first search,
 * which also yields a topological order of the remaining acyclic flow, and
 * excess is then pushed back along incoming flow arcs in reverse
 * topological order until it reaches the source. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq_engine.h"
#include "seq_internal.h"

#include "../../common/progress.h"
#include "../../common/knobs.h"
#include "../shared/pf_work.h"
#include "../../common/status.h"
#include "../../common/timer.h"

/* Global relabel frequency: a new BFS once the relabel work (a fixed cost
 * per relabel plus the arcs it scans) exceeds GR_ALPHA * n + arcs /
 * GR_ARC_DIV, with arcs the residual slots (two per input arc). The
 * default is Cherkassky and Goldberg's frequency (hi_pr's: 2 * (6n + m)
 * for m input arcs), half as often as the parallel driver's. */
#ifndef GR_ALPHA /* overridable for tuning runs */
#define GR_ALPHA (2 * PF_GR_ALPHA)
#endif
#ifndef GR_ARC_DIV
#define GR_ARC_DIV 1
#endif
/* Phase 1 asks whether a status line is due once per this many steps + 1. */
#define PROGRESS_EVERY 0xffff
#ifndef BFS_AHEAD
#define BFS_AHEAD 8 /* queue entries to prefetch ahead in the BFS */
#endif

/* ---- buckets ---------------------------------------------------------- */

static inline void active_add(seq *S, int32_t k, int32_t v)
{
    S->link[v].next = S->bucket[k].active;
    S->bucket[k].active = v;
    if (k > S->max_active)
        S->max_active = k;
}

static inline void inactive_add(seq *S, int32_t k, int32_t v)
{
    int32_t h = S->bucket[k].inactive;
    S->link[v].next = h;
    S->link[v].prev = -1;
    if (h >= 0)
        S->link[h].prev = v;
    S->bucket[k].inactive = v;
}

static inline void inactive_remove(seq *S, int32_t k, int32_t v)
{
    int32_t nx = S->link[v].next, pv = S->link[v].prev;
    if (pv >= 0)
        S->link[pv].next = nx;
    else
        S->bucket[k].inactive = nx;
    if (nx >= 0)
        S->link[nx].prev = pv;
}

/* ---- global relabel ---------------------------------------------------- */

/* Exact distances to the sink by a BFS over residual arcs, reversed: w gets
 * a label from v when the arc w->v (the pair of v's arc to w) has
 * capacity. Rebuilds every bucket; unreached vertices get label n. */
static void global_relabel(seq *S)
{
    double t0 = pf_now();
    const int32_t n = S->n;
    const int64_t *restrict first = S->first, *restrict rev = S->rev;
    const int32_t *restrict head = S->head;
    const int64_t *restrict res = S->res;
    int32_t *restrict label = S->label, *restrict queue = S->queue;
    vertex *restrict vx = S->vx;

    for (int32_t k = 0; k <= S->max_label; k++)
        S->bucket[k].active = S->bucket[k].inactive = -1;
    for (int32_t v = 0; v < n; v++)
        label[v] = n;
    if (!S->source_free)
        label[S->source] = n + 1; /* never reached: acts as visited */
    S->max_active = 0;
    S->max_label = 0;

    int64_t qh = 0, qt = 0;
    label[S->sink] = 0;
    queue[qt++] = S->sink;
    while (qh < qt) {
        /* The queue says which adjacency lists come next: fetch them ahead,
         * the lists' bounds first and then their arcs. */
        if (qh + 2 * BFS_AHEAD < qt)
            __builtin_prefetch(&first[queue[qh + 2 * BFS_AHEAD]]);
        if (qh + BFS_AHEAD < qt) {
            int64_t ahead = first[queue[qh + BFS_AHEAD]];
            __builtin_prefetch(&head[ahead]);
            __builtin_prefetch(&rev[ahead]);
        }
        int32_t v = queue[qh++];
        int32_t dw = label[v] + 1;
        for (int64_t a = first[v], end = first[v + 1]; a < end; a++) {
            int32_t w = head[a];
            if (label[w] == n && res[rev[a]] > 0) {
                label[w] = dw;
                vx[w].cur = 0;
                if (vx[w].excess > 0)
                    active_add(S, dw, w);
                else
                    inactive_add(S, dw, w);
                queue[qt++] = w;
            }
        }
    }
    S->max_label = label[queue[qt - 1]];
    S->work = 0;
    S->global_relabels++;
    S->relabel_time += pf_now() - t0;
}

/* ---- phase 1 ----------------------------------------------------------- */

/* Bucket k just became empty: no vertex above it can reach the sink. */
static void gap(seq *S, int32_t k)
{
    const int32_t n = S->n;
    for (int32_t j = k + 1; j <= S->max_label; j++) {
        for (int32_t v = S->bucket[j].active; v >= 0; v = S->link[v].next)
            S->label[v] = n;
        for (int32_t v = S->bucket[j].inactive; v >= 0; v = S->link[v].next)
            S->label[v] = n;
        S->bucket[j].active = S->bucket[j].inactive = -1;
    }
    S->max_label = k - 1;
    if (S->max_active > k - 1)
        S->max_active = k - 1;
}

/* Pushes v's excess along admissible arcs, relabelling as needed, until v
 * has no excess or its label reaches n. v is in no bucket on entry. */
static void discharge(seq *S, int32_t v)
{
    const int32_t n = S->n, sink = S->sink;
    const int64_t *restrict rev = S->rev;
    const int32_t *restrict head = S->head;
    int64_t *restrict res = S->res;
    int32_t *restrict label = S->label;
    vertex *restrict vx = S->vx;
    const int64_t start = S->first[v], end = S->first[v + 1];
    int64_t ex = vx[v].excess;

    for (;;) {
        const int32_t dv = label[v];
        const int32_t target = dv - 1;
        int64_t a = start + vx[v].cur;
        for (; a < end; a++) {
            /* One branch, not two: either test alone is a coin toss for
             * the predictor, and the label array is small enough to read
             * for saturated arcs too. */
            int64_t r = res[a];
            int32_t w = head[a];
            if (!((r > 0) & (label[w] == target)))
                continue;
            int64_t delta = ex < r ? ex : r;
            res[a] = r - delta;
            res[rev[a]] += delta;
            if (vx[w].excess == 0 && w != sink) {
                inactive_remove(S, target, w);
                active_add(S, target, w);
            }
            vx[w].excess += delta;
            ex -= delta;
            S->pushes++;
            if (ex == 0)
                break;
        }
        if (a < end) { /* all excess gone; the arc may still be admissible */
            vx[v].excess = 0;
            vx[v].cur = a - start;
            inactive_add(S, dv, v);
            return;
        }

        /* Relabel: one more than the lowest neighbour over residual arcs. */
        int32_t min_label = n;
        int64_t min_arc = end;
        for (int64_t b = start; b < end; b++) {
            /* Branch-free (conditional moves): the outcome is random. */
            int32_t open = -(int32_t)(res[b] > 0); /* all ones if residual */
            int32_t candidate = (label[head[b]] & open) | (n & ~open);
            int lower = candidate < min_label;
            min_arc = lower ? b : min_arc;
            min_label = lower ? candidate : min_label;
        }
        S->work += PF_RELABEL_COST + (end - start);
        if (min_label >= n - 1) {
            label[v] = n;
            break;
        }
        label[v] = min_label + 1;
        vx[v].cur = min_arc - start;
        if (min_label + 1 > S->max_label)
            S->max_label = min_label + 1;
        /* v left label dv; if nothing else has it, nothing above can reach
         * the sink any more. */
        if (S->bucket[dv].active < 0 && S->bucket[dv].inactive < 0) {
            gap(S, dv);
            label[v] = n;
            break;
        }
    }
    vx[v].excess = ex;
}

/* Pushes all it can along every arc out of the source; the source itself
 * keeps no excess count. */
static void saturate_source(seq *S, const pf_residual *g)
{
    const int32_t s = S->source;
    for (int64_t a = g->first[s]; a < g->first[s + 1]; a++) {
        int64_t c = S->res[a];
        if (c > 0) {
            S->res[a] = 0;
            S->res[S->rev[a]] += c;
            S->vx[S->head[a]].excess += c;
        }
    }
    S->vx[s].excess = 0;
}

/* Saturates the source's arcs (or hands it a budget: see `source_free`). */
static void seq_init(seq *S, const pf_residual *g)
{
    const int32_t s = S->source;
    memcpy(S->res, g->cap, (size_t)g->arcs * sizeof *S->res);
    memset(S->vx, 0, (size_t)S->n * sizeof *S->vx);
    for (int32_t k = 0; k <= S->n; k++)
        S->bucket[k].active = S->bucket[k].inactive = -1;
    S->max_label = 0;

    /* Every excess, the sink's included, is flow that left the source, so
     * a total out of the source that fits int64 keeps every sum in range. */
    int64_t total = 0;
    int overflow = 0;
    for (int64_t a = g->first[s]; a < g->first[s + 1]; a++) {
        if (__builtin_add_overflow(total, g->cap[a], &total)) {
            overflow = 1;
            break;
        }
    }
    if (overflow) {
        /* Equivalent to a super-source with one arc of capacity INT64_MAX
         * into s: the answer is right unless that arc is in the min cut,
         * which shows as s reaching the sink at the end (pf_seq_solve then
         * fails cleanly). */
        S->source_free = 1;
        S->vx[s].excess = INT64_MAX;
        return;
    }
    saturate_source(S, g);
}

/* Resumes from a preflow that another engine left: its residuals are in
 * S->res already, its excesses in `excess`. Arcs out of the source that
 * regained residual are saturated, as at a fresh start, so the source
 * keeps its blocking label; the source's own excess is not tracked. */
static void seq_resume_init(seq *S, const pf_residual *g, const int64_t *excess)
{
    for (int32_t v = 0; v < S->n; v++) {
        S->vx[v].excess = excess[v];
        S->vx[v].cur = 0;
    }
    for (int32_t k = 0; k <= S->n; k++)
        S->bucket[k].active = S->bucket[k].inactive = -1;
    S->max_label = 0;
    saturate_source(S, g);
}

/* Highest label first, except for one stretch of SWEEP_SHARE * n discharges
 * in every (HL_SHARE + SWEEP_SHARE) * n: there a cursor walks down the
 * labels and takes the active vertices it meets, so excess lifted above
 * the cursor waits for the next sweep instead of being chased at once.
 * Pure highest-label sends excess that trickles into a long path down it
 * one unit at a time (k^2/2 pushes for k units); the waiting units
 * gather and go down together (linear instead). Sweeps alone lose several
 * times on layered graphs, where the mix changes nothing (bench/NOTES.md).
 * The idea of alternating the two orders comes from LEMON's Preflow. */
#ifndef HL_SHARE
#define HL_SHARE 20
#endif
#ifndef SWEEP_SHARE
#define SWEEP_SHARE 1
#endif

/* Phase 1 until no vertex is active, `budget` discharges are done, or
 * (stop_at_relabel) the relabel work calls for a global relabel, which is
 * then left to the caller (a stretch of the hybrid ends there). The sweep's
 * place (steps, cursor) carries over from one call to the next. */
static void phase1_run(seq *S, int64_t budget, int stop_at_relabel)
{
    const int64_t hl_stretch = HL_SHARE * (int64_t)S->n;
    const int64_t period = (HL_SHARE + SWEEP_SHARE) * (int64_t)S->n;
    while (S->max_active > 0 && budget > 0) {
        int sweeping = S->steps++ % period >= hl_stretch;
        int32_t k = S->max_active;
        if (sweeping) {
            if (S->cursor <= 0 || S->cursor > S->max_active)
                S->cursor = S->max_active;
            k = S->cursor;
        }
        int32_t v = S->bucket[k].active;
        if (v < 0) {
            if (k == S->max_active)
                S->max_active = k - 1;
            S->cursor = k - 1;
            continue;
        }
        S->bucket[k].active = S->link[v].next;
        discharge(S, v);
        S->discharges++;
        budget--;
        if (S->progress && (S->steps & PROGRESS_EVERY) == 0 && pf_progress_wanted())
            pf_progress_say("phase 1 (pushing flow to the sink), %lld units of flow at the sink, "
                            "highest active label %d, %lld global relabels",
                            (long long)S->vx[S->sink].excess, (int)S->max_active,
                            (long long)S->global_relabels);
        if (S->work > S->work_limit) {
            if (pf_cancel_requested(S->opt)) {
                S->cancelled = 1;
                return;
            }
            if (stop_at_relabel)
                return;
            global_relabel(S);
            S->cursor = 0;
        }
    }
}

static void phase1(seq *S)
{
    global_relabel(S);
    phase1_run(S, INT64_MAX, 0);
}

/* ---- entry ------------------------------------------------------------- */

static void seq_free(seq *S)
{
    PF_FREE_ALL(S->label, S->vx, S->link, S->bucket, S->queue);
}

/* S over g's arrays, the residuals `res` and the caller's options (the
 * arrays a session's graph holds may move between two solves). */
static void seq_bind(seq *S, const pf_residual *g, int64_t *res, const pf_solve_options *opt)
{
    S->first = g->first;
    S->head = g->head;
    S->rev = g->rev;
    S->cap = g->cap;
    S->res = res;
    S->work_limit = GR_ALPHA * g->n + g->arcs / GR_ARC_DIV;
    S->opt = opt;
    S->progress = opt && opt->progress;
}

/* Checks g and allocates S's arrays over the residuals `res`. */
static int seq_setup(seq *S, const pf_residual *g, int64_t *res, const pf_solve_options *opt,
                     pf_status *st)
{
    memset(S, 0, sizeof *S);
    if (g->n < 2 || g->n > INT32_MAX - 1 || g->source < 0 || g->sink < 0 || g->source >= g->n ||
        g->sink >= g->n || g->source == g->sink)
        return pf_fail(st, PF_E_INPUT, "seq: bad residual graph (n %lld, source %d, sink %d)",
                       (long long)g->n, (int)g->source, (int)g->sink);
    if (!res)
        return pf_fail(st, PF_E_USAGE, "seq: no residual output array");
    S->n = (int32_t)g->n;
    S->source = g->source;
    S->sink = g->sink;
    seq_bind(S, g, res, opt);
    size_t n = (size_t)g->n;
    S->label = pf_alloc(n, sizeof *S->label, st);
    S->vx = pf_alloc(n, sizeof *S->vx, st);
    S->link = pf_alloc(n, sizeof *S->link, st);
    S->bucket = pf_alloc(n + 1, sizeof *S->bucket, st);
    S->queue = pf_alloc(n, sizeof *S->queue, st);
    if (!S->label || !S->vx || !S->link || !S->bucket || !S->queue) {
        seq_free(S);
        return pf_fail(st, PF_E_NOMEM, "seq: out of host memory for %lld vertices",
                       (long long)g->n);
    }
    return PF_OK;
}

/* After phase 1: the cut, phase 2 when a flow is wanted, and out's
 * counts and times (phase 1 began at t_phase1). */
static int seq_finish(seq *S, const pf_solve_options *opt, pf_engine_out *out, double t_start,
                      double t_phase1, pf_status *st)
{
    size_t n = (size_t)S->n;
    uint8_t *side = out->source_side ? out->source_side : pf_alloc(n, 1, st);
    if (!side)
        return PF_E_NOMEM;
    /* The cut: one more exact BFS; whatever it does not reach is the
     * source side. */
    global_relabel(S);
    S->global_relabels--; /* the cut's BFS is not a relabel of phase 1 */
    for (size_t v = 0; v < n; v++)
        side[v] = S->label[v] >= S->n;
    double t_phase2 = pf_now();

    int rc = PF_OK;
    if (S->source_free && !side[S->source]) {
        rc = pf_fail(st, PF_E_INPUT,
                     "seq: the maximum flow exceeds the int64 range (capacity out of the "
                     "source overflows and the cut is not bounded)");
    } else if (opt && opt->want_flow) {
        side[S->source] = 0; /* excess returns to the source, never through it */
        pf_progress_step("phase 2 (returning excess to the source), %lld units of flow at the "
                         "sink", (long long)S->vx[S->sink].excess);
        pf_seq_phase2(S, side);
        side[S->source] = 1;
    }
    double t_end = pf_now();
    out->value = S->vx[S->sink].excess;
    out->rounds = S->pushes;
    out->global_relabels = S->global_relabels;
    out->device_bytes = 0;
    out->times.setup = t_phase1 - t_start;
    out->times.global_relabel = S->relabel_time;
    out->times.push_relabel = (t_phase2 - t_phase1) - S->relabel_time;
    out->times.phase2 = t_end - t_phase2;
    out->times.total = t_end - t_start;
    snprintf(out->device, sizeof out->device, "host CPU, 1 thread");
    if (side != out->source_side)
        free(side);
    return rc;
}

/* A whole solve. */
static int seq_solve(const pf_residual *g, const pf_solve_options *opt, pf_engine_out *out,
                     pf_status *st)
{
    double t_start = pf_now();
    seq S;
    int rc = seq_setup(&S, g, out->res, opt, st);
    if (rc)
        return rc;
    pf_progress progress;
    pf_progress_begin(&progress, opt ? opt->progress : 0);
    seq_init(&S, g);
    double t_phase1 = pf_now();
    pf_progress_step("phase 1 (pushing flow to the sink)");
    phase1(&S);
    if (S.cancelled)
        rc = pf_fail(st, PF_E_CANCELLED, "solve cancelled by the caller");
    else
        rc = seq_finish(&S, opt, out, t_start, t_phase1, st);
    pf_progress_end(&progress);
    seq_free(&S);
    if (rc == PF_OK)
        pf_status_ok(st);
    return rc;
}

int pf_seq_solve(const pf_residual *g, const pf_solve_options *opt, pf_engine_out *out,
                 pf_status *st)
{
    return seq_solve(g, opt, out, st);
}

/* ---- stretches, for the hybrid (seq_engine.h: pf_seq_run) -------------- */

/* Labels are not carried across a switch: every stretch starts with a
 * global relabel, which gives exact distances to the sink over the
 * residuals as they are now, whichever engine left them. That is a valid
 * labelling for any preflow, so a stretch may follow any number of pushes
 * made elsewhere; the buckets are rebuilt by that same relabel. */
struct pf_seq_run {
    seq S;
    const pf_residual *g;
    double t_start, t_phase1;
    int labels_stale; /* a global relabel is due before the next discharge */
};

/* A run over g and `res`: from the start (excess NULL: res filled with
 * the capacities, the source's arcs saturated) or from the preflow that
 * res and excess hold. */
static int run_open(const pf_residual *g, int64_t *res, const int64_t *excess,
                    const pf_solve_options *opt, pf_seq_run **run, pf_status *st)
{
    pf_seq_run *r = pf_calloc(1, sizeof *r, st);
    if (!r)
        return PF_E_NOMEM;
    r->t_start = pf_now();
    int rc = seq_setup(&r->S, g, res, opt, st);
    if (rc) {
        free(r);
        return rc;
    }
    r->g = g;
    r->labels_stale = 1;
    if (excess)
        seq_resume_init(&r->S, g, excess);
    else
        seq_init(&r->S, g);
    r->t_phase1 = pf_now();
    *run = r;
    return PF_OK;
}

int pf_seq_run_open(const pf_residual *g, int64_t *res, const pf_solve_options *opt,
                    pf_seq_run **run, pf_status *st)
{
    return run_open(g, res, NULL, opt, run, st);
}

int pf_seq_run_open_preflow(const pf_residual *g, int64_t *res, const int64_t *excess,
                            const pf_solve_options *opt, pf_seq_run **run, pf_status *st)
{
    return run_open(g, res, excess, opt, run, st);
}

void pf_seq_run_load(pf_seq_run *run, const int64_t *excess)
{
    seq_resume_init(&run->S, run->g, excess);
    run->S.steps = 0;
    run->S.cursor = 0;
    run->labels_stale = 1;
}

/* The buckets, empty (as seq_resume_init leaves them), filled from the
 * labels as they stand, which must be valid (label[u] <= label[v] + 1 on
 * every residual arc u->v; n: the vertex cannot reach the sink): what a
 * global relabel leaves, without its search. */
static void buckets_from_labels(seq *S)
{
    const int32_t n = S->n;
    int32_t *label = S->label;
    S->max_active = 0;
    S->max_label = 0;
    label[S->sink] = 0;
    if (!S->source_free)
        label[S->source] = n + 1;
    for (int32_t v = 0; v < n; v++) {
        int32_t k = label[v];
        if (v == S->source || v == S->sink)
            continue;
        if (k >= n) {
            label[v] = n;
            continue;
        }
        S->vx[v].cur = 0;
        if (S->vx[v].excess > 0)
            active_add(S, k, v);
        else
            inactive_add(S, k, v);
        if (k > S->max_label)
            S->max_label = k;
    }
    S->work = 0;
    S->cursor = 0;
}

int pf_seq_run_resume(pf_seq_run *run, const pf_residual *g, int64_t *res, const int64_t *excess,
                      const pf_solve_options *opt, pf_status *st)
{
    seq *S = &run->S;
    if (g->n != S->n || g->source != S->source || g->sink != S->sink || !res || !excess)
        return pf_fail(st, PF_E_USAGE,
                       "seq: a run of %d vertices resumed on a graph of %lld (or other "
                       "terminals)",
                       (int)S->n, (long long)g->n);
    run->t_start = pf_now();
    run->g = g;
    seq_bind(S, g, res, opt);
    S->cancelled = 0;
    S->pushes = S->global_relabels = S->steps = S->discharges = 0;
    S->relabel_time = 0;
    seq_resume_init(S, g, excess);
    buckets_from_labels(S);
    run->labels_stale = 0;
    run->t_phase1 = pf_now();
    return PF_OK;
}

int32_t *pf_seq_run_labels(pf_seq_run *run) { return run->S.label; }

uint64_t pf_seq_run_bytes(const pf_seq_run *run)
{
    const uint64_t n = (uint64_t)run->S.n;
    return n * (sizeof(int32_t) + sizeof(vertex) + sizeof(bucket_link) + sizeof(int32_t)) +
           (n + 1) * sizeof(bucket);
}

/* The active vertices (labels below n, as the buckets hold them), and
 * their excess summed into *excess. */
static int64_t count_active(const seq *S, int64_t *excess)
{
    int64_t count = 0, sum = 0;
    for (int32_t k = 1; k <= S->max_active; k++)
        for (int32_t v = S->bucket[k].active; v >= 0; v = S->link[v].next) {
            count++;
            sum += S->vx[v].excess;
        }
    *excess = sum;
    return count;
}

int pf_seq_run_stretch(pf_seq_run *run, int64_t budget, pf_seq_stretch *out, pf_status *st)
{
    seq *S = &run->S;
    double t0 = pf_now();
    int64_t before = S->discharges;
    /* A stretch that ended on its budget left valid labels: the next one
     * goes on from them unless the relabel work says one is due. */
    if (run->labels_stale || S->work > S->work_limit) {
        global_relabel(S);
        S->cursor = 0;
    }
    run->labels_stale = 0;
    out->active_before = count_active(S, &out->excess_before);
    phase1_run(S, budget > 0 ? budget : INT64_MAX, 1);
    out->discharges = S->discharges - before;
    out->active = count_active(S, &out->excess);
    out->seconds = pf_now() - t0;
    if (S->cancelled)
        return pf_fail(st, PF_E_CANCELLED, "solve cancelled by the caller");
    return PF_OK;
}

void pf_seq_run_excess(const pf_seq_run *run, int64_t *excess)
{
    for (int32_t v = 0; v < run->S.n; v++)
        excess[v] = run->S.vx[v].excess;
}

int pf_seq_run_finish(pf_seq_run *run, pf_engine_out *out, pf_status *st)
{
    return seq_finish(&run->S, run->S.opt, out, run->t_start, run->t_phase1, st);
}

void pf_seq_run_free(pf_seq_run *run)
{
    if (!run)
        return;
    seq_free(&run->S);
    free(run);
}
