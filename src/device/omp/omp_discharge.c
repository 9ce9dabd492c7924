/* The OpenMP backend's push-relabel step when the driver gives it a work
 * budget: asynchronous highest-label discharge over a static partition.
 *
 * Why not the GPU's rounds: on a CPU a round's barrier and its pass over
 * the active list buy nothing, and processing vertices in list order does
 * far more work than highest-label order on deep graphs, where the
 * sequential engine's highest-vertex-first order moves the same excess
 * with several times fewer pushes and relabels. Here each thread owns
 * blocks of vertices and discharges its own active vertices, highest
 * first from a heap (with sweeps, see run_worker), until the budget of
 * relabel work is spent or no vertex is active anywhere.
 *
 * Only a vertex's owner writes its excess, its height and its arcs'
 * residuals, so a push into another thread's vertex is done in two halves:
 * the pusher lowers its own arc and excess and sends the rest (the reverse
 * arc, the amount) to the owner through a ring from it to that owner; the
 * owner adds them and queues the vertex when it next looks. Nothing in a
 * push is atomic, and of another thread's vertex only the height is read.
 * Why: a push that added to the far side's excess and reverse arc itself
 * (Hong's locked adds, as the GPU bodies do) would touch several cache
 * lines another core writes, and with many threads that traffic, not the
 * pushes, would bound a busy thread's rate; it would also make small
 * ownership blocks, which spread a wave of excess over the threads, cost
 * more than they save in idle time.
 * While flow is in a ring, its receiver does not see the residual arc back
 * to the pusher, and a relabel may lift it higher than that arc allows;
 * heights are only a guide within a step (as under Hong's concurrent
 * relabels), and the global relabel after it computes them afresh.
 *
 * Termination: a thread with nothing queued publishes how many messages it
 * sent and applied and goes idle; it goes busy again only to apply a
 * message (see quiescent). */
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/status.h"
#include "../device.h"
#include "../shared/pf_vendor.h"
#include "../shared/pf_kernels.h"
#include "../shared/pf_work.h"
#include "omp_internal.h"

enum {
    MIN_BLOCK_SHIFT = 8,   /* blocks of at least 256 vertices */
    HL_SHARE_MAX = 8,      /* highest-label discharges per sweep step: */
    HL_SHARE_SCALE = 32,   /* HL_SHARE_SCALE / threads^2 of them, 1 to
                              HL_SHARE_MAX (see run_worker) */
    WORK_FLUSH = 4096,     /* relabel work a thread does before it adds it
                              to the shared total and checks the budget */
    IDLE_SPINS = 256,      /* idle polls before a thread yields its core */
    RING_SLOTS_MAX = 1024, /* messages a ring holds at most (see
                              prepare_workers) */
};

/* A push into another thread's vertex: what its owner adds. */
typedef struct omp_message {
    int32_t vertex;
    uint32_t rev_arc; /* the pushed arc's reverse (ops.caps.rev_absolute) */
    int64_t amount;
} omp_message;

/* The sender's own view of one of its rings. */
typedef struct omp_outbox {
    int64_t written;    /* messages in the slots, published or not */
    int64_t taken_seen; /* the receiver's `taken` when last read */
    int dirty;          /* written > published */
} omp_outbox;

struct omp_worker {
    /* Owner only. */
    /* (height << 32) | vertex: a max-heap from the front, and the deferred
     * vertices from the back. A queued vertex is in one place only (heap or
     * deferred list), so both fit the vertices owned. */
    _Alignas(64) int64_t *heap;
    int64_t heap_len;
    int64_t capacity; /* vertices owned: bounds heap + deferred */
    int64_t offset;   /* of this thread's slice of the n-entry array */
    /* Sweeps (see run_worker): while one runs, vertices queued above the
     * label just popped wait, deferred, for the next pass. */
    int64_t deferred_len;
    int32_t sweep_below; /* the sweep's label; -1: highest-label order */
    int id;
    int64_t steps;
    int64_t work, work_unflushed;
    omp_outbox *outboxes; /* one per receiver */
    int32_t *dirty;       /* receivers with unpublished messages */
    int dirty_len;
    int64_t sent, received; /* messages, over the solve */
    /* For PORTAFLOW_TRACE: what the thread did, over the whole solve. */
    int64_t discharges, pushes, relabels, idle_polls;
    double idle_s;
    /* Written by the owner when it goes idle or busy, read by idle threads
     * (termination): state = epoch * 2 + idle, the epoch counting the
     * times it went busy; the totals as of its last going idle. */
    _Alignas(64) int64_t state;
    int64_t sent_total, received_total;
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
    /* The ring from one thread to another: its slots, and how many
     * messages the sender made visible and the receiver applied, both
     * only growing (modulo the slots), across steps. Each thread writes
     * one row of indices (its own line or lines). */
    omp_message *slots;  /* ring_mask + 1 per ring, ring from * threads + to */
    int64_t ring_mask;
    int64_t *published;  /* [from * ring_row + to], written by `from` */
    int64_t *taken;      /* [to * ring_row + from], written by `to` */
    int ring_row;
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

/* The second half of a push into v, by v's owner: the reverse arc's
 * residual and v's excess grow, and v is queued unless it already is (the
 * key is v's height now: only the owner changes it). */
static void receive(discharge_ctx *c, omp_worker *me, int32_t v, int64_t rev_arc, int64_t amount,
                    int queue)
{
    c->res[rev_arc] += amount;
    c->excess[v] += amount;
    if (queue && !c->queued[v] && v != c->source && v != c->sink) {
        c->queued[v] = 1;
        queue_own(me, c->height[v], v);
    }
}

static int64_t *published_of(const discharge_ctx *c, int from, int to)
{
    return &c->published[(int64_t)from * c->ring_row + to];
}

static int64_t *taken_of(const discharge_ctx *c, int from, int to)
{
    return &c->taken[(int64_t)to * c->ring_row + from];
}

static omp_message *slot_of(const discharge_ctx *c, int from, int to, int64_t index)
{
    return &c->slots[((int64_t)from * c->threads + to) * (c->ring_mask + 1) +
                     (index & c->ring_mask)];
}

/* Makes every message written so far visible to its receiver. */
static void publish(discharge_ctx *c, omp_worker *me)
{
    for (int i = 0; i < me->dirty_len; i++) {
        omp_outbox *out = &me->outboxes[me->dirty[i]];
        out->dirty = 0;
        __atomic_store_n(published_of(c, me->id, me->dirty[i]), out->written, __ATOMIC_RELEASE);
    }
    me->dirty_len = 0;
}

/* Applies every message published to `me`; returns whether there was one. */
static int take_messages(discharge_ctx *c, omp_worker *me, int queue)
{
    int64_t taken = 0;
    for (int from = 0; from < c->threads; from++) {
        int64_t *taken_here = taken_of(c, from, me->id);
        int64_t end = __atomic_load_n(published_of(c, from, me->id), __ATOMIC_ACQUIRE);
        int64_t i = __atomic_load_n(taken_here, __ATOMIC_RELAXED);
        if (i == end)
            continue;
        for (taken += end - i; i < end; i++) {
            const omp_message *m = slot_of(c, from, me->id, i);
            receive(c, me, m->vertex, m->rev_arc, m->amount, queue);
        }
        __atomic_store_n(taken_here, end, __ATOMIC_RELEASE);
    }
    me->received += taken;
    return taken > 0;
}

static int messages_waiting(const discharge_ctx *c, const omp_worker *me)
{
    for (int from = 0; from < c->threads; from++)
        if (__atomic_load_n(published_of(c, from, me->id), __ATOMIC_ACQUIRE) !=
            __atomic_load_n(taken_of(c, from, me->id), __ATOMIC_RELAXED))
            return 1;
    return 0;
}

/* Waits a little, longer each time: an idle thread polls its rings and the
 * others' states, and every poll of a line written since costs its writer
 * a miss. Past IDLE_SPINS polls it also yields its core, and keeps pausing
 * between polls: polling after every yield makes more polls than there are
 * discharges when many threads idle. */
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

/* Whether the ring to thread `to` has a free slot. A full one waits for
 * its receiver; meanwhile the sender applies its own messages, and
 * applying never sends, so rings full in a cycle drain. Once the budget is
 * spent the receiver may have stopped looking: then the answer is no, and
 * the push is not made. */
static int ring_has_room(discharge_ctx *c, omp_worker *me, int to)
{
    omp_outbox *out = &me->outboxes[to];
    if (out->written - out->taken_seen <= c->ring_mask)
        return 1;
    publish(c, me);
    for (int spins = 0;;) {
        out->taken_seen = __atomic_load_n(taken_of(c, me->id, to), __ATOMIC_ACQUIRE);
        if (out->written - out->taken_seen <= c->ring_mask)
            return 1;
        if (__atomic_load_n(&c->stop, __ATOMIC_RELAXED))
            return 0;
        if (!take_messages(c, me, 1))
            idle_pause(&spins); /* the receiver may need this core */
    }
}

/* The first half of a push into v, owned by thread `to`: a message (the
 * ring has room). */
static void send(discharge_ctx *c, omp_worker *me, int to, int32_t v, int64_t rev_arc,
                 int64_t amount)
{
    omp_outbox *out = &me->outboxes[to];
    *slot_of(c, me->id, to, out->written++) = (omp_message){
        .vertex = v,
        .rev_arc = (uint32_t)rev_arc,
        .amount = amount,
    };
    if (!out->dirty) {
        out->dirty = 1;
        me->dirty[me->dirty_len++] = to;
    }
    me->sent++;
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
        if (c->res[a] > 0) {
            int32_t h = live_height(c, PF_LOAD_I32(&c->height[c->head[a]]));
            if (h < best_h) {
                best_h = h;
                best = a;
            }
        }
    add_work(c, me, PF_RELABEL_COST + end - begin);
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
 * (heights only grow), so highest-label order discharges it whole. Only
 * u's owner writes u's excess and arcs, so none of this is atomic but the
 * heights that other owners read. */
static void discharge(discharge_ctx *c, omp_worker *me, int32_t u)
{
    const int64_t begin = c->first[u], end = c->first[u + 1];
    const int32_t n = c->n;
    int64_t a = begin + c->cur[u];
    int32_t hu = c->height[u];
    while (c->excess[u] > 0 && !__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
        if (live_height(c, hu) >= n) {
            PF_STORE_I32(&c->height[u], n);
            break;
        }
        /* Current arc: an arc passed over stays unusable until u is
         * relabelled (a neighbour only pushes back to u while it is higher
         * than u, and heights only grow). */
        for (; a < end; a++)
            if (c->res[a] > 0 && PF_LOAD_I32(&c->height[c->head[a]]) < hu)
                break;
        if (a == end) {
            hu = relabel(c, me, u, hu, &a);
            continue;
        }
        int32_t v = c->head[a];
        int64_t ra = PF_REV_ARC(c->first, c->rev, a, v);
        int to = owner_of(c, v);
        if (to != me->id && !ring_has_room(c, me, to))
            break;
        /* Waiting for room may have applied messages to u: read now. */
        int64_t d = c->excess[u] < c->res[a] ? c->excess[u] : c->res[a];
        c->res[a] -= d;
        c->excess[u] -= d;
        me->pushes++;
        if (to == me->id)
            receive(c, me, v, ra, d, 1);
        else
            send(c, me, to, v, ra, d);
    }
    c->cur[u] = (int32_t)((a < end ? a : begin) - begin);
    publish(c, me);
}

static void go_idle(omp_worker *me)
{
    __atomic_store_n(&me->sent_total, me->sent, __ATOMIC_RELAXED);
    __atomic_store_n(&me->received_total, me->received, __ATOMIC_RELAXED);
    __atomic_store_n(&me->state, (me->state | 1), __ATOMIC_SEQ_CST);
}

static void go_busy(omp_worker *me)
{
    __atomic_store_n(&me->state, (me->state | 1) + 1, __ATOMIC_SEQ_CST);
}

/* Whether every thread is idle with nothing in flight. A thread goes busy
 * only to take a message, and publishes its totals when it goes idle. So if
 * every thread reads idle twice with the same epoch, all were idle in
 * between, with their totals fixed; equal totals then mean no message was
 * in flight either, and nothing can start again. */
static int quiescent(const discharge_ctx *c)
{
    int64_t sent = 0, received = 0, states = 0;
    for (int t = 0; t < c->threads; t++) {
        const omp_worker *w = &c->workers[t];
        int64_t state = __atomic_load_n(&w->state, __ATOMIC_SEQ_CST);
        if (!(state & 1))
            return 0;
        states += state;
        sent += __atomic_load_n(&w->sent_total, __ATOMIC_RELAXED);
        received += __atomic_load_n(&w->received_total, __ATOMIC_RELAXED);
    }
    if (sent != received)
        return 0;
    /* States only grow: an equal sum means every one is unchanged. */
    for (int t = 0; t < c->threads; t++)
        states -= __atomic_load_n(&c->workers[t].state, __ATOMIC_SEQ_CST);
    return states == 0;
}

/* Thread t's share: seed its heap with its active vertices, discharge until
 * the budget or global quiescence, then (after every thread stopped
 * pushing) apply the messages still in flight and unqueue what is left. */
static void run_worker(discharge_ctx *c, int t)
{
    /* Every part needs its thread, or its excess would wait forever. */
    if (omp_get_num_threads() != c->threads) {
        c->short_team = 1;
        return;
    }
    omp_worker *me = &c->workers[t];
    const int64_t block = (int64_t)1 << c->block_shift;
    me->heap_len = 0;
    me->work = me->work_unflushed = 0;
    go_busy(me);
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
            }
        }
#pragma omp barrier
    /* Highest-label order with sweeps, like the sequential engine: after
     * hl_share * owned discharges in highest-label order, `owned` more in
     * passes from the top down that leave newly queued higher vertices to
     * the next pass. Pure highest-label order walks each unit of a long
     * chain's trickle of excess down the whole chain alone (quadratic); a
     * pass lets them gather. How often to sweep depends on the threads: on
     * one or two, passes cost deep layered graphs dearly (a pass holds back
     * the excess a relabelled vertex sends back), so they come rarely; on
     * many they pay, and threads idle less, so they come often
     * (hl_share: HL_SHARE_SCALE / threads^2). */
    const int64_t owned = me->capacity ? me->capacity : 1;
    const int64_t hl_stretch = c->hl_share * owned, period = hl_stretch + owned;
    if (me->sweep_below >= 0)
        me->sweep_below = c->n;
    int spins = 0, idle = 0;
    double idle_since = 0;
    while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
        if (idle) {
            if (!messages_waiting(c, me)) {
                if (quiescent(c))
                    break;
                me->idle_polls++;
                idle_pause(&spins);
                continue;
            }
            go_busy(me);
            idle = 0;
            me->idle_s += omp_get_wtime() - idle_since;
        }
        take_messages(c, me, 1);
        if (me->heap_len == 0 && me->deferred_len > 0) { /* the pass is over */
            end_sweep_pass(c, me);
            me->sweep_below = c->n;
        }
        if (me->heap_len == 0) {
            go_idle(me); /* everything sent is published: see discharge */
            idle = 1;
            spins = 0;
            idle_since = omp_get_wtime();
            continue;
        }
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
        c->queued[u] = 0;
        discharge(c, me, u);
        me->discharges++;
    }
    if (idle)
        me->idle_s += omp_get_wtime() - idle_since;
    publish(c, me);
#pragma omp barrier
    /* Nobody sends now; the flow in flight must land before the step ends. */
    take_messages(c, me, 0);
    for (int64_t i = 0; i < me->heap_len; i++)
        c->queued[(int32_t)(uint32_t)me->heap[i]] = 0;
    for (int64_t i = 1; i <= me->deferred_len; i++)
        c->queued[(int32_t)me->heap[me->capacity - i]] = 0;
    me->heap_len = me->deferred_len = 0;
    if (c->gap < c->n)
        for (int64_t lo = (int64_t)t * block; lo < c->n; lo += (int64_t)c->threads * block)
            for (int32_t v = (int32_t)lo; v < lo + block && v < c->n; v++)
                if (c->height[v] > c->gap)
                    c->height[v] = c->n;
}

/* Worker state for n vertices on dev->threads threads, kept across steps:
 * each thread's heap and deferred list share its slice of one n-entry
 * array (a thread's queue never holds more than the vertices it owns;
 * one array, not two, keeps the backend's memory per vertex small).
 * The rings' slots live in the list buffer (4n bytes: device.h lets the
 * step use it as scratch, and every ring is empty when a step ends): as
 * many as fit, up to RING_SLOTS_MAX a ring, a power of two so that an
 * index wraps by mask. Only a graph too small for one slot a ring gets
 * slots of its own. */
static int prepare_workers(pf_dev *dev, int64_t n, int block_shift, pf_status *st)
{
    if (dev->workers && dev->workers_n == n && dev->workers_shift == block_shift)
        return PF_OK;
    ompb_discharge_release(dev);
    const int threads = dev->threads, row = (threads + 7) & ~7; /* whole lines */
    const size_t pairs = (size_t)threads * (size_t)threads;
    int64_t slots = n * 4 / (int64_t)sizeof(omp_message) / (int64_t)pairs;
    slots = slots > RING_SLOTS_MAX ? RING_SLOTS_MAX : slots < 1 ? 1 : slots;
    while (slots & (slots - 1))
        slots &= slots - 1;
    const int own_slots = (uint64_t)slots * pairs * sizeof(omp_message) > (uint64_t)n * 4;
    omp_worker *w = aligned_alloc(64, sizeof *w * (size_t)threads);
    int64_t *indices = aligned_alloc(64, sizeof *indices * 2 * (size_t)threads * (size_t)row);
    omp_message *ring_slots = own_slots ? malloc(sizeof *ring_slots * pairs * (size_t)slots) : NULL;
    omp_outbox *outboxes = calloc(pairs, sizeof *outboxes);
    int32_t *dirty = malloc(sizeof *dirty * pairs);
    int64_t *heaps = malloc((size_t)(n ? n : 1) * sizeof *heaps);
    if (!w || !indices || (own_slots && !ring_slots) || !outboxes || !dirty || !heaps) {
        free(w);
        free(indices);
        free(ring_slots);
        free(outboxes);
        free(dirty);
        free(heaps);
        return pf_fail(st, PF_E_DEVICE, "omp: out of host memory for the discharge's queues");
    }
    memset(w, 0, sizeof *w * (size_t)threads);
    memset(indices, 0, sizeof *indices * 2 * (size_t)threads * (size_t)row);
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
        w[t].id = t;
        w[t].outboxes = outboxes + (size_t)t * (size_t)threads;
        w[t].dirty = dirty + (size_t)t * (size_t)threads;
        offset += owned;
    }
    dev->workers = w;
    dev->workers_n = n;
    dev->workers_shift = block_shift;
    dev->ring_indices = indices;
    dev->ring_slots = ring_slots;
    dev->ring_mask = slots - 1;
    dev->ring_row = row;
    return PF_OK;
}

/* PORTAFLOW_TRACE: the discharge's work over the solve, and how evenly the
 * threads shared it. */
static void trace_workers(const pf_dev *dev)
{
    if (!pf_knobs()->trace)
        return;
    int64_t sum[5] = {0}, least = INT64_MAX, most = 0;
    double idle_s = 0;
    for (int t = 0; t < dev->threads; t++) {
        const omp_worker *w = &dev->workers[t];
        sum[0] += w->discharges;
        sum[1] += w->pushes;
        sum[2] += w->relabels;
        sum[3] += w->idle_polls;
        sum[4] += w->sent;
        idle_s += w->idle_s;
        least = w->discharges < least ? w->discharges : least;
        most = w->discharges > most ? w->discharges : most;
    }
    fprintf(stderr,
            "portaflow trace: omp discharge on %d threads: %lld discharges (%lld..%lld a "
            "thread), %lld pushes (%lld to other threads), %lld relabels, %lld idle polls, %.3f s "
            "idle in all\n",
            dev->threads, (long long)sum[0], (long long)least, (long long)most, (long long)sum[1],
            (long long)sum[4], (long long)sum[2], (long long)sum[3], idle_s);
}

void ompb_discharge_release(pf_dev *dev)
{
    if (!dev->workers)
        return;
    trace_workers(dev);
    free(dev->workers[0].heap);
    free(dev->workers[0].outboxes);
    free(dev->workers[0].dirty);
    free(dev->workers);
    free(dev->ring_indices);
    free(dev->ring_slots);
    dev->workers = NULL;
    dev->ring_indices = NULL;
    dev->ring_slots = NULL;
    dev->workers_n = 0;
}

uint64_t ompb_discharge_bytes(pf_dev *dev)
{
    if (!dev->workers)
        return 0;
    const uint64_t pairs = (uint64_t)dev->threads * (uint64_t)dev->threads;
    return (uint64_t)dev->workers_n * 8 + 2 * (uint64_t)dev->threads * dev->ring_row * 8 +
           pairs * (sizeof(omp_outbox) + 4) +
           (dev->ring_slots ? pairs * (uint64_t)(dev->ring_mask + 1) * sizeof(omp_message) : 0);
}

int ompb_discharge(pf_dev *dev, const pf_dev_graph *g, int64_t budget, int64_t *work, int *ran,
                   pf_status *st)
{
    *ran = 0;
    int shift = MIN_BLOCK_SHIFT;
    int64_t blocks_per_thread = pf_knobs()->omp_blocks;
    int64_t hl_share = HL_SHARE_SCALE / ((int64_t)dev->threads * dev->threads);
    hl_share = hl_share < 1 ? 1 : hl_share > HL_SHARE_MAX ? HL_SHARE_MAX : hl_share;
    while (((int64_t)1 << shift) * dev->threads * blocks_per_thread < g->n)
        shift++;
    int rc = prepare_workers(dev, g->n, shift, st);
    if (rc)
        return rc;
    if (!dev->ring_slots && g->list_a->bytes < (uint64_t)dev->threads * (uint64_t)dev->threads *
                                                    (uint64_t)(dev->ring_mask + 1) * sizeof(omp_message))
        return pf_fail(st, PF_E_DEVICE, "omp: the list buffer is smaller than device.h says (n int32)");
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
        .hl_share = pf_knobs()->omp_hl_share == PF_KNOB_AUTO ? hl_share : pf_knobs()->omp_hl_share,
        .threads = dev->threads,
        .workers = dev->workers,
        .slots = dev->ring_slots ? dev->ring_slots : BUF(g->list_a, omp_message),
        .ring_mask = dev->ring_mask,
        .published = dev->ring_indices,
        .taken = dev->ring_indices + (size_t)dev->threads * (size_t)dev->ring_row,
        .ring_row = dev->ring_row,
        /* Scratch the driver does not read across this step (device.h). */
        .cur = BUF(g->flags, int32_t),
        .at_height = BUF(g->list_b, int32_t),
        .gap = (int32_t)g->n,
        .budget = budget,
    };
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
