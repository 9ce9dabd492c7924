/* The OpenMP backend's push-relabel step when the driver gives it a work
 * budget: asynchronous highest-label discharge over a static partition.
 *
 * Why not the GPU's rounds: on a CPU a round's barrier and its pass over
 * the active list buy nothing, and processing vertices in list order does
 * far more work than highest-label order on deep graphs (RLG 512x1024 on
 * 2 cores: 1.86 s of rounds against 0.24 s for the sequential engine,
 * which does the same pushes highest vertex first). Here each thread owns
 * blocks of vertices and discharges its own active vertices, highest
 * first from a heap (with sweeps, see run_worker), until the budget of
 * relabel work is spent or no vertex is active anywhere. Pushes and
 * relabels keep Hong's lock-free rules, so no thread locks a vertex: only
 * a vertex's owner lowers its excess and its arcs' residuals or raises its
 * height, and a push goes only to a neighbour read lower.
 *
 * A push that may have made a vertex active queues it with its owner: the
 * `owner` buffer (all 0 between steps) says "queued"; whoever sets it puts
 * the vertex in the owner's heap (its own) or inbox (another's). The owner
 * clears it before it reads the excess, and the pusher adds the excess
 * before it reads the flag (both sequentially consistent), so one of them
 * always sees the other: no excess is left unqueued, and a vertex is queued
 * at most once, which bounds each heap and inbox by the vertices owned.
 *
 * Termination without a shared counter on every push: each thread counts
 * the vertices it queued and the discharges it finished, in its own cache
 * line. An idle thread sums every finished count, then every queued count;
 * counts only grow and a discharge finishes after its queueing, so equal
 * sums mean nothing was queued or running at the moment the first sum was
 * complete, and nothing can be queued again. */
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/status.h"
#include "../device.h"
#include "../shared/pf_vendor.h"
#include "../shared/pf_kernels.h"
#include "omp_internal.h"

enum {
    BLOCKS_PER_THREAD = 8, /* ownership blocks per thread: spreads a wave of
                              excess (RLG moves frame by frame) over all */
    MIN_BLOCK_SHIFT = 8,   /* blocks of at least 256 vertices */
    RELABEL_COST = 12,     /* work of a relabel besides its arcs, as seq */
    HL_SHARE_MAX = 8,      /* highest-label discharges per sweep step: */
    HL_SHARE_SCALE = 32,   /* HL_SHARE_SCALE / threads^2 of them, 1 to
                              HL_SHARE_MAX (see run_worker) */
    WORK_FLUSH = 4096,     /* relabel work a thread does before it adds it
                              to the shared total and checks the budget */
    IDLE_SPINS = 256,      /* idle polls before a thread yields its core */
};

struct omp_worker {
    /* Owner only. */
    /* (height << 32) | vertex: a max-heap from the front, and the deferred
     * vertices from the back. A queued vertex is in one place only (heap,
     * deferred list or inbox), so both fit the vertices owned. */
    _Alignas(64) int64_t *heap;
    int64_t heap_len;
    int64_t capacity; /* vertices owned: bounds heap + deferred, and inbox */
    int64_t offset;   /* of this thread's slices of the n-entry arrays */
    /* Sweeps (see run_worker): while one runs, vertices queued above the
     * label just popped wait, deferred, for the next pass. */
    int64_t deferred_len;
    int32_t sweep_below; /* the sweep's label; -1: highest-label order */
    int64_t steps;
    int64_t work, work_unflushed;
    /* For PORTAFLOW_TRACE: what the thread did, over the whole solve. */
    int64_t discharges, pushes, relabels, idle_polls;
    double idle_s;
    /* Written by every thread that queues a vertex here (the pointer is
     * read with them: not on the owner's busy line above). */
    _Alignas(64) int32_t *inbox; /* a slice of the list buffer (device.h) */
    int64_t inbox_len;
    int inbox_lock;
    /* Written by the owner, read by idle threads (termination). */
    _Alignas(64) int64_t queued, finished;
};

typedef struct discharge_ctx {
    const int64_t *first;
    const int32_t *head, *rev;
    int64_t *res, *excess;
    int32_t *height, *queued;
    int32_t *cur;       /* current arc of each vertex, from its first */
    int32_t *at_height; /* live vertices at each height below n */
    int32_t n, source, sink;
    int block_shift, threads;
    int64_t hl_share; /* highest-label discharges per sweep step */
    omp_worker *workers;
    int64_t budget;
    /* Shared and written: each apart from the read-only fields above,
     * which every thread reads on every arc. */
    _Alignas(64) int32_t gap; /* atomic: heights above it are dead */
    int stop;                 /* atomic */
    int short_team; /* OpenMP gave fewer threads than the partition has */
    _Alignas(64) int64_t work_total; /* atomic */
} discharge_ctx;

static int owner_of(const discharge_ctx *c, int32_t v)
{
    return (int)(((uint32_t)v >> c->block_shift) % (uint32_t)c->threads);
}

static void heap_push(omp_worker *w, int32_t height, int32_t v)
{
    int64_t item = (int64_t)height << 32 | (uint32_t)v;
    int64_t i = w->heap_len++;
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        if (w->heap[parent] >= item)
            break;
        w->heap[i] = w->heap[parent];
        i = parent;
    }
    w->heap[i] = item;
}

/* Queues v (owned by w) for discharge, or for the next sweep pass. */
static void queue_own(omp_worker *w, int32_t height, int32_t v)
{
    if (w->sweep_below >= 0 && height > w->sweep_below)
        w->heap[w->capacity - ++w->deferred_len] = v;
    else
        heap_push(w, height, v);
}

static void end_sweep_pass(const discharge_ctx *c, omp_worker *w)
{
    /* Each vertex leaves its slot before the heap can grow into it. */
    while (w->deferred_len > 0) {
        int32_t v = (int32_t)w->heap[w->capacity - w->deferred_len--];
        heap_push(w, c->height[v], v);
    }
}

static int32_t heap_pop(omp_worker *w)
{
    int32_t top = (int32_t)(uint32_t)w->heap[0];
    int64_t len = --w->heap_len, last = w->heap[len], i = 0;
    for (;;) {
        int64_t child = 2 * i + 1;
        if (child >= len)
            break;
        if (child + 1 < len && w->heap[child + 1] > w->heap[child])
            child++;
        if (last >= w->heap[child])
            break;
        w->heap[i] = w->heap[child];
        i = child;
    }
    if (len > 0)
        w->heap[i] = last;
    return top;
}

static void lock_inbox(omp_worker *w)
{
    while (__atomic_exchange_n(&w->inbox_lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&w->inbox_lock, __ATOMIC_RELAXED))
            ;
}

static void unlock_inbox(omp_worker *w)
{
    __atomic_store_n(&w->inbox_lock, 0, __ATOMIC_RELEASE);
}

/* Moves the inbox into the heap, keyed by each vertex's height now (only
 * the owner changes it, so the key stays exact until the vertex is popped). */
static void drain_inbox(const discharge_ctx *c, omp_worker *w)
{
    if (__atomic_load_n(&w->inbox_len, __ATOMIC_RELAXED) == 0)
        return;
    lock_inbox(w);
    for (int64_t i = 0; i < w->inbox_len; i++)
        queue_own(w, c->height[w->inbox[i]], w->inbox[i]);
    w->inbox_len = 0;
    unlock_inbox(w);
}

/* `me` just pushed into v: queue v with its owner unless it is queued. */
static void activate(discharge_ctx *c, omp_worker *me, int32_t v)
{
    if (v == c->source || v == c->sink || __atomic_load_n(&c->queued[v], __ATOMIC_SEQ_CST) ||
        PF_ATOMIC_CAS_I32(&c->queued[v], 0, 1) != 0)
        return;
    __atomic_store_n(&me->queued, me->queued + 1, __ATOMIC_RELEASE);
    omp_worker *to = &c->workers[owner_of(c, v)];
    if (to == me) {
        queue_own(me, c->height[v], v);
        return;
    }
    lock_inbox(to);
    to->inbox[to->inbox_len] = v;
    __atomic_store_n(&to->inbox_len, to->inbox_len + 1, __ATOMIC_RELAXED);
    unlock_inbox(to);
}

static void add_work(discharge_ctx *c, omp_worker *me, int64_t arcs)
{
    me->work += arcs;
    me->work_unflushed += arcs;
    if (me->work_unflushed < WORK_FLUSH)
        return;
    int64_t total = __atomic_add_fetch(&c->work_total, me->work_unflushed, __ATOMIC_RELAXED);
    me->work_unflushed = 0;
    if (total >= c->budget)
        __atomic_store_n(&c->stop, 1, __ATOMIC_RELAXED);
}

/* The gap heuristic, lazily: `gap` is the lowest height found empty in
 * this step; nothing above it can reach the target, so a height above it
 * counts as n. A vertex learns it is dead when it is popped or relabelled;
 * the step's end writes n into the rest (device.h: dead means >= n). Under
 * concurrent pushes a labelling can be briefly invalid, so a gap may kill a
 * vertex that still reaches the target: that costs work, never the answer,
 * since the next global relabel computes every height from scratch. */
static int32_t live_height(const discharge_ctx *c, int32_t h)
{
    return h > __atomic_load_n(&c->gap, __ATOMIC_RELAXED) ? c->n : h;
}

static void lower_gap(discharge_ctx *c, int32_t h)
{
    int32_t seen = __atomic_load_n(&c->gap, __ATOMIC_RELAXED);
    while (h < seen && !__atomic_compare_exchange_n(&c->gap, &seen, h, 0, __ATOMIC_RELAXED,
                                                    __ATOMIC_RELAXED))
        ;
}

/* u has no lower residual neighbour: lift it one above its lowest one (n
 * when none, or past the gap). Returns the new height; *arc = the arc to
 * that neighbour (where discharging resumes), or first[u]. */
static int32_t relabel(discharge_ctx *c, omp_worker *me, int32_t u, int32_t hu, int64_t *arc)
{
    const int64_t begin = c->first[u], end = c->first[u + 1];
    int32_t best_h = c->n;
    int64_t best = begin;
    for (int64_t a = begin; a < end; a++)
        if (PF_LOAD_I64(&c->res[a]) > 0) {
            int32_t h = live_height(c, PF_LOAD_I32(&c->height[c->head[a]]));
            if (h < best_h) {
                best_h = h;
                best = a;
            }
        }
    add_work(c, me, RELABEL_COST + end - begin);
    me->relabels++;
    *arc = best;
    if (best_h < hu) /* a lower neighbour appeared meanwhile: push there */
        return hu;
    int32_t lifted = live_height(c, best_h + 1 < c->n ? best_h + 1 : c->n);
    /* Count the new height before uncounting the old one, so a concurrent
     * relabel never sees a level empty that is only changing hands. */
    if (lifted < c->n)
        __atomic_fetch_add(&c->at_height[lifted], 1, __ATOMIC_RELAXED);
    if (__atomic_sub_fetch(&c->at_height[hu], 1, __ATOMIC_RELAXED) == 0) {
        lower_gap(c, hu); /* u itself is above it now */
        lifted = c->n;
    }
    PF_STORE_I32(&c->height[u], lifted);
    return lifted;
}

/* Hong's push and relabel on u until its excess is gone or it is dead. u
 * stays the highest of this thread's active vertices through its relabels
 * (heights only grow), so highest-label order discharges it whole. */
static void discharge(discharge_ctx *c, omp_worker *me, int32_t u)
{
    const int64_t begin = c->first[u], end = c->first[u + 1];
    const int32_t n = c->n;
    /* What u sent, taken off excess[u] once at the end: one locked add per
     * push less. Nobody else reads excess[u] during the step (pushers go by
     * the queued flag), and u's own reads subtract it. */
    int64_t sent = 0;
    /* The flag is cleared (sequentially consistent) before this load. */
    int64_t e = __atomic_load_n(&c->excess[u], __ATOMIC_SEQ_CST);
    int64_t a = begin + c->cur[u];
    int32_t hu = c->height[u];
    while (e > 0 && !__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
        if (live_height(c, hu) >= n) {
            PF_STORE_I32(&c->height[u], n);
            break;
        }
        /* Current arc: an arc passed over stays unusable until u is
         * relabelled (a neighbour only pushes back to u while it is higher
         * than u, and heights only grow). */
        for (; a < end; a++)
            if (PF_LOAD_I64(&c->res[a]) > 0 && PF_LOAD_I32(&c->height[c->head[a]]) < hu)
                break;
        if (a == end) {
            hu = relabel(c, me, u, hu, &a);
            continue;
        }
        int32_t v = c->head[a];
        int64_t ra = PF_REV_ARC(c->first, c->rev, a, v);
        /* A locked add waits for its cache line and holds back the loads
         * behind it: start fetching v's lines first (RLG on one thread:
         * a third of the step stalled on the reverse arc). */
        __builtin_prefetch(&c->res[ra], 1);
        __builtin_prefetch(&c->excess[v], 1);
        int64_t r = PF_LOAD_I64(&c->res[a]);
        int64_t d = e < r ? e : r;
        PF_ATOMIC_ADD_I64(&c->res[a], -d);
        PF_ATOMIC_ADD_I64(&c->res[ra], d);
        sent += d;
        me->pushes++;
        /* Sequentially consistent: ordered before activate's flag load. */
        __atomic_fetch_add(&c->excess[v], d, __ATOMIC_SEQ_CST);
        activate(c, me, v);
        e = PF_LOAD_I64(&c->excess[u]) - sent;
    }
    if (sent)
        PF_ATOMIC_ADD_I64(&c->excess[u], -sent);
    c->cur[u] = (int32_t)((a < end ? a : begin) - begin);
}

static int all_finished(const discharge_ctx *c)
{
    int64_t finished = 0, queued = 0;
    for (int t = 0; t < c->threads; t++)
        finished += __atomic_load_n(&c->workers[t].finished, __ATOMIC_ACQUIRE);
    for (int t = 0; t < c->threads; t++)
        queued += __atomic_load_n(&c->workers[t].queued, __ATOMIC_ACQUIRE);
    return finished == queued;
}

/* Waits a little, longer each time: an idle thread polls the others'
 * counters, and every poll pulls a busy thread's cache line away from it
 * (AK: one thread carries the excess down a chain, the other waits). Past
 * IDLE_SPINS polls it also yields its core, and keeps pausing between
 * polls: on 16 threads, polling after every yield made 35M polls in a
 * 2.8 s step (RLG 1024x1536, H100 host), more polls than discharges. */
static void idle_pause(int *spins)
{
    int shift = *spins < IDLE_SPINS ? *spins / 32 : IDLE_SPINS / 32;
    for (volatile int i = 0; i < (64 << shift); i++)
        ;
    if (*spins < IDLE_SPINS)
        ++*spins;
    else
        sched_yield();
}

/* Thread t's share: seed its heap with its active vertices, discharge until
 * the budget or global quiescence, then (after every thread stopped
 * pushing) unqueue whatever is left. */
static void run_worker(discharge_ctx *c, int t)
{
    /* Every part needs its thread, or its excess would wait forever. */
    if (omp_get_num_threads() != c->threads) {
        c->short_team = 1;
        return;
    }
    omp_worker *me = &c->workers[t];
    const int64_t block = (int64_t)1 << c->block_shift;
    me->heap_len = me->inbox_len = me->queued = me->finished = 0;
    me->work = me->work_unflushed = 0;
    /* Heights are new since the last step (a global relabel ran): current
     * arcs start over, and the per-height counts are taken afresh. */
    for (int64_t lo = (int64_t)t * block; lo < c->n; lo += (int64_t)c->threads * block) {
        size_t len = (size_t)(c->n - lo < block ? c->n - lo : block);
        memset(c->cur + lo, 0, len * sizeof *c->cur);
        memset(c->at_height + lo, 0, len * sizeof *c->at_height);
    }
#pragma omp barrier
    for (int64_t lo = (int64_t)t * block; lo < c->n; lo += (int64_t)c->threads * block)
        for (int32_t v = (int32_t)lo; v < lo + block && v < c->n; v++) {
            int32_t h = c->height[v];
            if (h >= c->n)
                continue;
            __atomic_fetch_add(&c->at_height[h], 1, __ATOMIC_RELAXED);
            if (v != c->source && v != c->sink && c->excess[v] > 0) {
                c->queued[v] = 1;
                heap_push(me, h, v);
                me->queued++;
            }
        }
#pragma omp barrier
    /* Highest-label order with sweeps, like the sequential engine: after
     * hl_share * owned discharges in highest-label order, `owned` more in
     * passes from the top down that leave newly queued higher vertices to
     * the next pass. Pure highest-label order walks each unit of AK's
     * trickle down its whole chain alone (quadratic); a pass lets them
     * gather. How often to sweep depends on the threads (H100 host, NOTES
     * 27): on one or two, passes cost RLG dearly (a pass holds back the
     * excess a relabelled vertex sends back; 1024x1536 on 2 threads: 6.4 s
     * at share 2, 4.5 s at 8); on many they pay (RMFGEN 128x128 on 4
     * threads: 10.5 s at share 2, 12.6 s at 8; on 16: 3.7 s at 1, 4.4 s at
     * 2), and the trace shows threads idle half as long, though why is
     * not settled. */
    const int64_t owned = me->capacity ? me->capacity : 1;
    const int64_t hl_stretch = c->hl_share * owned, period = hl_stretch + owned;
    if (me->sweep_below >= 0)
        me->sweep_below = c->n;
    int spins = 0;
    double idle_since = 0;
    while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
        drain_inbox(c, me);
        if (me->heap_len == 0 && me->deferred_len > 0) { /* the pass is over */
            end_sweep_pass(c, me);
            me->sweep_below = c->n;
        }
        if (me->heap_len == 0) {
            if (spins == 0)
                idle_since = omp_get_wtime();
            if (all_finished(c))
                break;
            me->idle_polls++;
            idle_pause(&spins);
            continue;
        }
        if (spins)
            me->idle_s += omp_get_wtime() - idle_since;
        spins = 0;
        int32_t u = heap_pop(me), hu = c->height[u];
        int64_t phase = me->steps++ % period;
        if (phase == hl_stretch) {
            me->sweep_below = c->n;
        } else if (phase == 0 && me->sweep_below >= 0) {
            me->sweep_below = -1;
            end_sweep_pass(c, me);
        }
        if (me->sweep_below >= 0)
            me->sweep_below = hu;
        __atomic_store_n(&c->queued[u], 0, __ATOMIC_SEQ_CST);
        discharge(c, me, u);
        me->discharges++;
        __atomic_store_n(&me->finished, me->finished + 1, __ATOMIC_RELEASE);
    }
    if (spins)
        me->idle_s += omp_get_wtime() - idle_since;
#pragma omp barrier
    for (int64_t i = 0; i < me->heap_len; i++)
        c->queued[(int32_t)(uint32_t)me->heap[i]] = 0;
    for (int64_t i = 0; i < me->inbox_len; i++)
        c->queued[me->inbox[i]] = 0;
    for (int64_t i = 1; i <= me->deferred_len; i++)
        c->queued[(int32_t)me->heap[me->capacity - i]] = 0;
    me->heap_len = me->inbox_len = me->deferred_len = 0;
    if (c->gap < c->n)
        for (int64_t lo = (int64_t)t * block; lo < c->n; lo += (int64_t)c->threads * block)
            for (int32_t v = (int32_t)lo; v < lo + block && v < c->n; v++)
                if (c->height[v] > c->gap)
                    c->height[v] = c->n;
}

/* Worker state for n vertices on dev->threads threads, kept across steps:
 * each thread's heap and deferred list share its slice of one n-entry
 * array (a thread's queue never holds more than the vertices it owns;
 * one array, not two, keeps omp within issue 6's 48 bytes per vertex). */
static int prepare_workers(pf_dev *dev, int64_t n, int block_shift, pf_status *st)
{
    if (dev->workers && dev->workers_n == n && dev->workers_shift == block_shift)
        return PF_OK;
    ompb_discharge_release(dev);
    const int threads = dev->threads;
    omp_worker *w = aligned_alloc(64, sizeof *w * (size_t)threads);
    int64_t *heaps = malloc((size_t)(n ? n : 1) * sizeof *heaps);
    if (!w || !heaps) {
        free(w);
        free(heaps);
        return pf_fail(st, PF_E_DEVICE, "omp: out of host memory for the discharge's queues");
    }
    memset(w, 0, sizeof *w * (size_t)threads);
    const int64_t block = (int64_t)1 << block_shift;
    int64_t offset = 0;
    for (int t = 0; t < threads; t++) {
        int64_t owned = 0;
        for (int64_t lo = (int64_t)t * block; lo < n; lo += (int64_t)threads * block)
            owned += n - lo < block ? n - lo : block;
        w[t].capacity = owned;
        w[t].offset = offset;
        w[t].heap = heaps + offset;
        w[t].sweep_below = -1;
        offset += owned;
    }
    dev->workers = w;
    dev->workers_n = n;
    dev->workers_shift = block_shift;
    return PF_OK;
}

/* PORTAFLOW_TRACE: the discharge's work over the solve, and how evenly the
 * threads shared it. */
static void trace_workers(const pf_dev *dev)
{
    const char *trace = getenv("PORTAFLOW_TRACE");
    if (!trace || strcmp(trace, "0") == 0)
        return;
    int64_t sum[4] = {0}, least = INT64_MAX, most = 0;
    double idle_s = 0;
    for (int t = 0; t < dev->threads; t++) {
        const omp_worker *w = &dev->workers[t];
        sum[0] += w->discharges;
        sum[1] += w->pushes;
        sum[2] += w->relabels;
        sum[3] += w->idle_polls;
        idle_s += w->idle_s;
        least = w->discharges < least ? w->discharges : least;
        most = w->discharges > most ? w->discharges : most;
    }
    fprintf(stderr,
            "portaflow trace: omp discharge on %d threads: %lld discharges (%lld..%lld a "
            "thread), %lld pushes, %lld relabels, %lld idle polls, %.3f s idle in all\n",
            dev->threads, (long long)sum[0], (long long)least, (long long)most, (long long)sum[1],
            (long long)sum[2], (long long)sum[3], idle_s);
}

void ompb_discharge_release(pf_dev *dev)
{
    if (!dev->workers)
        return;
    trace_workers(dev);
    free(dev->workers[0].heap);
    free(dev->workers);
    dev->workers = NULL;
    dev->workers_n = 0;
}

uint64_t ompb_discharge_bytes(pf_dev *dev)
{
    return dev->workers ? (uint64_t)dev->workers_n * 8 : 0;
}

int ompb_discharge(pf_dev *dev, const pf_dev_graph *g, int64_t budget, int64_t *work, int *ran,
                   pf_status *st)
{
    *ran = 0;
    int shift = MIN_BLOCK_SHIFT;
    int64_t blocks_per_thread = ompb_env_at_least("PORTAFLOW_OMP_BLOCKS", 1, BLOCKS_PER_THREAD);
    int64_t hl_share = HL_SHARE_SCALE / ((int64_t)dev->threads * dev->threads);
    hl_share = hl_share < 1 ? 1 : hl_share > HL_SHARE_MAX ? HL_SHARE_MAX : hl_share;
    while (((int64_t)1 << shift) * dev->threads * blocks_per_thread < g->n)
        shift++;
    int rc = prepare_workers(dev, g->n, shift, st);
    if (rc)
        return rc;
    discharge_ctx c = {
        .first = BUF(g->first, int64_t),
        .head = BUF(g->head, int32_t),
        .rev = BUF(g->rev, int32_t),
        .res = BUF(g->res, int64_t),
        .excess = BUF(g->excess, int64_t),
        .height = BUF(g->height, int32_t),
        .queued = BUF(g->owner, int32_t),
        .n = (int32_t)g->n,
        .source = g->source,
        .sink = g->sink,
        .block_shift = shift,
        .hl_share = ompb_env_at_least("PORTAFLOW_OMP_HL_SHARE", 0, hl_share),
        .threads = dev->threads,
        .workers = dev->workers,
        /* Scratch the driver does not read across this step (device.h). */
        .cur = BUF(g->flags, int32_t),
        .at_height = BUF(g->list_b, int32_t),
        .gap = (int32_t)g->n,
        .budget = budget,
    };
    for (int t = 0; t < c.threads; t++)
        c.workers[t].inbox = BUF(g->list_a, int32_t) + c.workers[t].offset;
#pragma omp parallel num_threads(c.threads)
    run_worker(&c, omp_get_thread_num());
    *ran = !c.short_team;
    if (c.short_team)
        return PF_OK;
    int64_t total = 0;
    for (int t = 0; t < c.threads; t++)
        total += c.workers[t].work;
    BUF(g->counters, int64_t)[PF_CTR_WORK] = total;
    if (work)
        *work = total;
    return PF_OK;
}
