/* The OpenMP backend's whole SSSP (device.h sssp_solve): delta-stepping
 * (Meyer & Sanders) as the GAP Benchmark Suite's paper describes it for
 * shared memory, written here from that description.
 *
 * Distances fall into bins of width delta. One team runs the whole search.
 * A round relaxes the shared frontier (the current bin) split over the
 * threads; each thread files the vertices it lowers into bins of its own
 * (no shared counter, no lock). Then, bucket fusion: while a thread's own
 * copy of the current bin stays small it relaxes it at once, without
 * waiting for the others: on a lattice or a road network the wavefront is
 * thin and would otherwise cost a barrier for every few hundred arcs over
 * thousands of bins. At the end of a round the threads agree on the
 * smallest non-empty bin left (each publishes its own smallest), place
 * their copies of it side by side in the shared frontier (a prefix over
 * the published sizes, which every thread computes itself) and start the
 * next round: two barriers a round.
 *
 * Label-correcting: a vertex may sit in several bins (it was lowered more
 * than once); an entry whose vertex's distance has since left that bin is
 * skipped. Every lowered vertex is filed in the bin of its new distance,
 * which is never below the current one (weights are non-negative), so the
 * search ends with no arc able to shorten a distance.
 *
 * A thread keeps its bins in a ring indexed by bin number: the live bins
 * never span more than max weight / delta + 3, so the ring has that many
 * slots (a power of two); a delta so small that this passes RING_MOST is
 * widened to fit, and an integer delta is rounded up to a power of two
 * (delta changes the work, never the answer). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/status.h"
#include "../device.h"
#include "../shared/pf_vendor.h"
#include "../shared/pf_graph_kernels.h"
#include "omp_internal.h"
#include "omp_graph.h"

enum {
    FUSE_MOST = 1000,    /* a thread relaxes its own current bin alone below this */
    RING_MOST = 1 << 16, /* bins per thread's ring */
    ROUND_CHUNK = 64,    /* frontier vertices handed out at a time */
    BIN_FIRST = 256,     /* a bin's first capacity (it doubles from there) */
};

#define NO_BIN INT64_MAX

/* A bin: a growable list of vertices, as a BFS frontier piece is. */
typedef omp_frontier_piece bin;

/* One thread's bins and what it publishes at the end of a round; padded so
 * that threads' published fields share no cache line. */
typedef struct thread_bins {
    bin *ring;
    bin spare;         /* the current bin's contents while fusion relaxes them */
    int64_t held;      /* entries in all the ring's bins */
    int64_t smallest;  /* published: the smallest non-empty bin, NO_BIN if none */
    int64_t size;      /* published: that bin's entries */
    int failed;        /* published: a bin could not grow */
    char pad[64];
} thread_bins;

typedef struct sssp_team {
    const int64_t *first;
    const int32_t *head;
    const int64_t *w_i; /* integer weights, NULL: every arc weighs 1 */
    const double *w_f;  /* real weights (NULL for integer ones) */
    int64_t *dist_i;
    double *dist_f;
    int shift;        /* integer distances: bin = d >> shift */
    double per_delta; /* real distances: bin = d * per_delta */
    int64_t mask;     /* ring slots - 1 */
    thread_bins *threads;
    int32_t *frontier;
    int64_t capacity;
    int64_t rounds;
    int failed; /* the shared frontier could not grow */
} sssp_team;

static int bin_push(bin *b, int32_t v) { return omp_piece_push(b, v, BIN_FIRST); }

/* Bin numbers: integer distances shift by log2 of delta (a power of two:
 * no division per arc), real ones multiply by 1 / delta (monotone, which
 * is all the bins need). */
static int64_t bin_of_f(double d, double per_delta)
{
    double q = d * per_delta;
    return q < 4.0e18 ? (int64_t)q : (int64_t)4e18;
}

static int64_t relax_f64(const sssp_team *t, bin *ring, int32_t u, int64_t current, int *failed)
{
    const int64_t *first = t->first;
    const int32_t *head = t->head;
    const double *w = t->w_f;
    double *dist = t->dist_f, per_delta = t->per_delta, du = PF_LOAD_F64(&dist[u]);
    const int64_t mask = t->mask, end = PF_ROW_END(first, u);
    int64_t filed = 0;
    if (bin_of_f(du, per_delta) != current)
        return 0;
    for (int64_t a = first[u]; a < end; a++) {
        int32_t v = head[a];
        double d = du + w[a];
        if (d < PF_LOAD_F64(&dist[v]) && pf_atomic_min_f64(&dist[v], d)) {
            *failed |= bin_push(&ring[bin_of_f(d, per_delta) & mask], v);
            filed++;
        }
    }
    return filed;
}

static int64_t relax_i64(const sssp_team *t, bin *ring, int32_t u, int64_t current, int *failed)
{
    const int64_t *first = t->first, *w = t->w_i;
    const int32_t *head = t->head;
    int64_t *dist = t->dist_i, du = PF_LOAD_I64(&dist[u]);
    const int64_t mask = t->mask, end = PF_ROW_END(first, u);
    const int shift = t->shift;
    int64_t filed = 0;
    if (du >> shift != current)
        return 0;
    for (int64_t a = first[u]; a < end; a++) {
        int32_t v = head[a];
        int64_t d = du + (w ? w[a] : 1);
        if (d < PF_LOAD_I64(&dist[v]) && pf_atomic_min_i64(&dist[v], d)) {
            *failed |= bin_push(&ring[(d >> shift) & mask], v);
            filed++;
        }
    }
    return filed;
}

/* Relaxes u's arcs if u still belongs to bin `current`, filing each vertex
 * it lowers in this thread's bins. */
static void relax_vertex(const sssp_team *t, thread_bins *mine, int32_t u, int64_t current)
{
    mine->held += t->dist_f ? relax_f64(t, mine->ring, u, current, &mine->failed)
                            : relax_i64(t, mine->ring, u, current, &mine->failed);
}

/* Bucket fusion: this thread's copy of the current bin, relaxed at once
 * while it stays below FUSE_MOST (what it lowers into the same bin comes
 * back round). */
static void fuse(const sssp_team *t, thread_bins *mine, int64_t current)
{
    bin *b = &mine->ring[current & t->mask];
    while (b->count > 0 && b->count < FUSE_MOST && !mine->failed) {
        bin taken = *b;
        *b = mine->spare;
        b->count = 0;
        mine->held -= taken.count;
        for (int64_t i = 0; i < taken.count; i++)
            relax_vertex(t, mine, taken.vertices[i], current);
        taken.count = 0;
        mine->spare = taken;
    }
}

/* This thread's smallest non-empty bin from `current` on, published. */
static void publish(const sssp_team *t, thread_bins *mine, int64_t current)
{
    mine->smallest = NO_BIN;
    mine->size = 0;
    for (int64_t k = 0; mine->held > 0 && k <= t->mask; k++) {
        bin *b = &mine->ring[(current + k) & t->mask];
        if (b->count > 0) {
            mine->smallest = current + k;
            mine->size = b->count;
            return;
        }
    }
}

/* The team's loop; every thread runs it. Returns when no bin is left, or
 * when a thread could not grow a bin (t->failed or a thread's failed). */
static void run_rounds(sssp_team *t, int64_t first_count)
{
    const int me = omp_get_thread_num(), nt = omp_get_num_threads();
    thread_bins *mine = &t->threads[me];
    int64_t current = 0, count = first_count;
    for (;;) {
#pragma omp for schedule(dynamic, ROUND_CHUNK) nowait
        for (int64_t i = 0; i < count; i++)
            relax_vertex(t, mine, t->frontier[i], current);
        fuse(t, mine, current);
        publish(t, mine, current);
#pragma omp barrier
        int64_t next = NO_BIN, at = 0, total = 0;
        int failed = t->failed;
        for (int k = 0; k < nt; k++) {
            failed |= t->threads[k].failed;
            next = t->threads[k].smallest < next ? t->threads[k].smallest : next;
        }
        if (next == NO_BIN || failed)
            return; /* every thread saw the same and leaves */
        for (int k = 0; k < nt; k++) {
            int64_t size = t->threads[k].smallest == next ? t->threads[k].size : 0;
            at += k < me ? size : 0;
            total += size;
        }
        if (total > t->capacity) { /* every thread takes this branch, or none */
#pragma omp barrier
            if (me == 0) {
                int32_t *grown = realloc(t->frontier, (size_t)total * sizeof *grown);
                if (grown) {
                    t->frontier = grown;
                    t->capacity = total;
                } else {
                    t->failed = 1;
                }
            }
#pragma omp barrier
            if (t->failed)
                return;
        }
        if (mine->smallest == next) {
            bin *b = &mine->ring[next & t->mask];
            memcpy(t->frontier + at, b->vertices, (size_t)b->count * sizeof *b->vertices);
            mine->held -= b->count;
            b->count = 0;
        }
        if (me == 0)
            t->rounds++;
        current = next;
        count = total;
#pragma omp barrier
    }
}

/* The ring's slots for the largest weight: a power of two covering
 * most / delta + 4 bins; delta widened where that would pass RING_MOST. */
static int64_t ring_slots(double most, int real, int64_t *delta_i, double *delta_f)
{
    double span;
    if (real) {
        if (most / *delta_f > RING_MOST - 8)
            *delta_f = most / (RING_MOST - 8);
        span = most / *delta_f + 4;
    } else {
        if (most / (double)*delta_i > RING_MOST - 8)
            *delta_i = (int64_t)(most / (RING_MOST - 8)) + 1;
        int64_t wide = 1; /* a power of two: bins by shifting */
        while (wide < *delta_i && wide < ((int64_t)1 << 61))
            wide *= 2;
        *delta_i = wide;
        span = most / (double)*delta_i + 4;
    }
    int64_t slots = 1;
    while (slots < span)
        slots *= 2;
    return slots;
}

static void free_team(sssp_team *t, int threads)
{
    for (int k = 0; t->threads && k < threads; k++) {
        thread_bins *tb = &t->threads[k];
        for (int64_t s = 0; tb->ring && s <= t->mask; s++)
            free(tb->ring[s].vertices);
        free(tb->ring);
        free(tb->spare.vertices);
    }
    free(t->threads);
    free(t->frontier);
}

int ompb_sssp_solve(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                    int64_t delta_i, double delta_f, double max_weight, int64_t *rounds,
                    pf_status *st)
{
    const int threads = ompb_traversal_team(dev, g);
    sssp_team t = {
        .first = BUF(g->first, int64_t),
        .head = BUF(g->head, int32_t),
        .w_i = g->weights == 1 ? BUF(g->weight, int64_t) : NULL,
        .w_f = g->weights == 2 ? BUF(g->weight, double) : NULL,
        .dist_i = g->weights == 2 ? NULL : BUF(dist, int64_t),
        .dist_f = g->weights == 2 ? BUF(dist, double) : NULL,
        .capacity = g->n > 0 ? g->n : 1,
    };
    delta_i = delta_i > 0 ? delta_i : 1;
    delta_f = delta_f > 0 ? delta_f : 1;
    t.mask = ring_slots(max_weight > 1 ? max_weight : 1, t.w_f != NULL, &delta_i, &delta_f) - 1;
    while (((int64_t)1 << t.shift) < delta_i)
        t.shift++;
    t.per_delta = 1 / delta_f;
    t.threads = calloc((size_t)threads, sizeof *t.threads);
    t.frontier = malloc((size_t)t.capacity * sizeof *t.frontier);
    int ok = t.threads && t.frontier;
    for (int k = 0; ok && k < threads; k++) {
        t.threads[k].ring = calloc((size_t)t.mask + 1, sizeof *t.threads[k].ring);
        ok = t.threads[k].ring != NULL;
    }
    if (ok) {
        t.frontier[0] = source;
#pragma omp parallel num_threads(threads)
        run_rounds(&t, 1);
        for (int k = 0; k < threads; k++)
            ok &= !t.threads[k].failed;
        ok &= !t.failed;
    }
    *rounds = t.rounds;
    free_team(&t, threads);
    return ok ? PF_OK
              : pf_fail(st, PF_E_DEVICE, "omp: sssp_solve: out of host memory for the bins");
}
