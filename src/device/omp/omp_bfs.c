/* The OpenMP backend's reverse BFS levels for the global relabel.
 *
 * Deep graphs have thousands of levels of a few hundred to a few thousand
 * vertices each in every global relabel. Forking a team per level costs
 * more than such a level's work, and running those levels on one thread
 * makes the whole relabel serial however many cores there are.
 *
 * Here one team runs level after level with one barrier between them. Each
 * thread appends what it finds to its own piece, and the next level reads
 * the pieces where they lie, in piece order, so there is no merge copy and
 * no second barrier; each thread works out the pieces' offsets itself.
 * Frontiers too small to share (a long chain: one or two vertices a level
 * for thousands of levels) run on the calling thread, without a team. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/status.h"
#include "../device.h"
#include "../shared/pf_vendor.h"
#include "../shared/pf_kernels.h"
#include "omp_internal.h"

enum {
    TEAM_KEEP_FRONTIER = 64, /* the team runs on while frontiers are this large */
};

/* One level's scan of frontier vertex u: unreached in-neighbours with
 * residual capacity toward u get level + 1 and go to `piece`. Returns 0, or
 * -1 when the piece could not grow. `shared`: other threads scan the same
 * level, so a vertex is claimed by compare-and-swap. */
static int scan_vertex(const pf_dev_graph *g, int32_t u, int32_t level, int32_t excluded,
                       int shared, omp_frontier_piece *piece)
{
    const int64_t *first = BUF(g->first, int64_t);
    const int32_t *head = BUF(g->head, int32_t), *rev = BUF(g->rev, int32_t);
    const int64_t *res = BUF(g->res, int64_t);
    int32_t *height = BUF(g->height, int32_t);
    const int32_t n = (int32_t)g->n;
    for (int64_t a = first[u]; a < first[u + 1]; a++) {
        int32_t v = head[a];
        if (v == excluded || PF_LOAD_I32(&height[v]) != n ||
            res[PF_REV_ARC(first, rev, a, v)] <= 0)
            continue;
        if (shared ? PF_ATOMIC_CAS_I32(&height[v], n, level + 1) != n
                   : (height[v] = level + 1, 0))
            continue;
        if (omp_piece_push(piece, v, 1024))
            return -1;
    }
    return 0;
}

/* What the team shares. The frontier of its first level is a flat array
 * (the driver's buffer); later ones are the previous level's pieces. */
typedef struct bfs_team {
    const pf_dev_graph *g;
    omp_frontier_piece *sets[2]; /* pieces written at even / odd levels */
    int64_t *offsets_rows;       /* per thread: its copy of the pieces' offsets */
    int offsets_stride;
    const int32_t *flat;
    int64_t flat_count;
    /* The driver's two frontier buffers: level j of the batch reads
     * buffers[j % 2] and writes buffers[(j + 1) % 2]; the team's first
     * level is the batch's level `batch_k`. The last frontier goes where
     * the driver expects it (possibly over `flat`, read only at first). */
    int32_t *buffers[2];
    int32_t batch_k, level, levels, excluded;
    _Alignas(64) int failed;
    /* Written by thread 0 at the end. */
    int32_t levels_done;
    int64_t count;
} bfs_team;

/* Thread t's part of level k of the team (its k-th level): the t-th of
 * `threads` equal slices of the frontier. Deep graphs' levels are a few
 * hundred to a few thousand vertices of similar degree, so equal slices
 * balance; a shared chunk counter cost more than the slices save (16
 * threads: dozens of contended adds a level). The piece is filled through
 * a local copy: the pieces of all threads share cache lines, and a count
 * bumped in place there on every append made the threads fight over them. */
static int team_level(bfs_team *bt, int t, int threads, int32_t k, const int64_t *in_offsets,
                      int64_t total)
{
    omp_frontier_piece out = bt->sets[k % 2][t];
    const omp_frontier_piece *in = bt->sets[(k + 1) % 2];
    out.count = 0;
    const int64_t lo = total * t / threads, hi = total * (t + 1) / threads;
    int p = 0, rc = 0;
    if (k > 0)
        while (lo >= in_offsets[p + 1] && p + 1 < threads)
            p++;
    for (int64_t i = lo; i < hi && !rc; i++) {
        int32_t u;
        if (k == 0) {
            u = bt->flat[i];
        } else {
            while (i >= in_offsets[p + 1])
                p++;
            u = in[p].vertices[i - in_offsets[p]];
        }
        rc = scan_vertex(bt->g, u, bt->level + k, bt->excluded, 1, &out);
    }
    bt->sets[k % 2][t] = out;
    return rc;
}

static void run_team(bfs_team *bt)
{
    const int t = omp_get_thread_num(), threads = omp_get_num_threads();
    int64_t *offsets = bt->offsets_rows + (int64_t)t * bt->offsets_stride;
    int64_t total = bt->flat_count;
    int32_t k = 0;
    for (;; k++) {
        if (team_level(bt, t, threads, k, offsets, total))
            __atomic_store_n(&bt->failed, 1, __ATOMIC_RELAXED);
#pragma omp barrier
        const omp_frontier_piece *out = bt->sets[k % 2];
        offsets[0] = 0;
        for (int p = 0; p < threads; p++)
            offsets[p + 1] = offsets[p] + out[p].count;
        total = offsets[threads];
        /* Every thread reads the same counts, so all leave together. */
        if (__atomic_load_n(&bt->failed, __ATOMIC_RELAXED) || total < TEAM_KEEP_FRONTIER ||
            k + 1 == bt->levels)
            break;
    }
    const omp_frontier_piece *mine = &bt->sets[k % 2][t];
    int32_t *result = bt->buffers[(bt->batch_k + k + 1) % 2];
    if (mine->count > 0) /* an empty piece may have no buffer: memcpy wants one */
        memcpy(result + offsets[t], mine->vertices, (size_t)mine->count * sizeof *result);
    if (t == 0) {
        bt->levels_done = k + 1;
        bt->count = total;
    }
}

static int64_t level_serial(const pf_dev_graph *g, const int32_t *frontier, int64_t count,
                            int32_t *next, int32_t level, int32_t excluded)
{
    /* `next` holds at most n - 1 vertices: a piece over it cannot grow. */
    omp_frontier_piece piece = {.vertices = next, .capacity = g->n};
    for (int64_t i = 0; i < count; i++)
        scan_vertex(g, frontier[i], level, excluded, 0, &piece);
    return piece.count;
}

/* Host memory needs no batching: levels run one after another and stop at
 * the first empty frontier. One level a launch whatever the hops (a
 * level-synchronous BFS on the host threads: owner[] untouched). */
int ompb_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2], int32_t level,
                    int32_t levels, int32_t hops, int32_t excluded, int64_t *count,
                    pf_status *st)
{
    (void)hops;
    const int64_t team_min = pf_knobs()->omp_bfs_team;
    for (int32_t k = 0; k < levels && *count > 0;) {
        pf_buf *in = frontier[k % 2];
        if (*count < team_min || dev->threads == 1) {
            *count = level_serial(g, BUF(in, int32_t), *count, BUF(frontier[(k + 1) % 2], int32_t),
                                  level + k, excluded);
            k++;
            continue;
        }
        bfs_team bt = {
            .g = g,
            .buffers = {BUF(frontier[0], int32_t), BUF(frontier[1], int32_t)},
            .batch_k = k,
            .sets = {dev->pieces, dev->pieces + dev->threads},
            .offsets_rows = dev->bfs_offsets,
            .offsets_stride = dev->threads + 1,
            .flat = BUF(in, int32_t),
            .flat_count = *count,
            .level = level + k,
            .levels = levels - k,
            .excluded = excluded,
        };
#pragma omp parallel num_threads(dev->threads)
        run_team(&bt);
        if (bt.failed)
            return pf_fail(st, PF_E_DEVICE, "omp: out of host memory for a BFS frontier");
        k += bt.levels_done;
        *count = bt.count;
    }
    return PF_OK;
}
