/* The OpenMP backend's graph analytics steps (device.h: bfs_push ..
 * intersect_count) around the shared per-arc decisions of
 * pf_graph_kernels.h.
 *
 * Steps that produce a list (push, relax, the far pile) let each thread
 * append to its own piece (dev->pieces, kept across calls; the max-flow
 * BFS uses them too, never at the same time) and copy its piece into the
 * output at a place reserved by one atomic add: a shared append counter
 * bumped per vertex by every thread would be the bottleneck. Frontier vertices are handed out
 * in dynamic chunks: on power-law graphs their degrees differ by orders of
 * magnitude. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/status.h"
#include "../device.h"
#include "../shared/pf_vendor.h"
#include "../shared/pf_graph_kernels.h"
#include "omp_graph.h"
#include "omp_internal.h"

/* Frontiers with fewer out-arcs than this run on the calling thread: a
 * team's start and barrier cost more than such a step's work (lattices
 * and roads have thousands of steps of a few hundred arcs). */
enum { CHUNK_FRONTIER = 64, CHUNK_VERTICES = 1024, TEAM_MIN_ARCS = 4096 };

/* The first size of a thread's frontier piece (it doubles from there). */
enum { PIECE_FIRST = 4096 };

/* A traversal (BFS, SSSP) takes a thread per TRAVERSAL_ARCS arcs of the
 * graph, up to the device's threads. Its levels or rounds each end at a
 * barrier, and a small graph's whole search is shorter than the team's
 * start and barriers: where every core runs one of the team's threads, a
 * thread the system deschedules holds the barrier for a scheduler tick
 * (milliseconds) against microseconds of work. Triangle counting, whose
 * work per arc is far larger and which has one barrier, keeps them all. */
enum { TRAVERSAL_ARCS = 1 << 17 };

int ompb_traversal_team(const pf_dev *dev, const pf_dev_csr *g)
{
    int64_t team = g->m / TRAVERSAL_ARCS;
    return team < 1 ? 1 : team < dev->threads ? (int)team : dev->threads;
}

/* Thread t's piece into out at a place it reserves with one atomic add:
 * no barrier (the list's order is unspecified, device.h), so a step costs
 * the one barrier at the end of its parallel region, as GAPBS's do. */
static void piece_flush(const omp_frontier_piece *mine, int32_t *out, int64_t *total)
{
    if (mine->count == 0)
        return;
    int64_t at = __atomic_fetch_add(total, mine->count, __ATOMIC_RELAXED);
    memcpy(out + at, mine->vertices, (size_t)mine->count * sizeof *out);
}

/* The out-degree sum of list[0..count). */
static int64_t list_arcs(pf_dev *dev, const pf_dev_csr *g, const int32_t *list, int64_t count)
{
    const int64_t *first = BUF(g->first, int64_t);
    int64_t arcs = 0;
#pragma omp parallel for num_threads(ompb_traversal_team(dev, g)) schedule(static) \
    reduction(+ : arcs) if (count > 4096)
    for (int64_t i = 0; i < count; i++)
        arcs += PF_ROW_END(first, list[i]) - first[list[i]];
    return arcs;
}

static int no_memory(pf_status *st, const char *step)
{
    return pf_fail(st, PF_E_DEVICE, "omp: %s: out of host memory for a frontier", step);
}

int ompb_bfs_push(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count, int64_t in_arcs,
                  pf_buf *dist, int32_t level, pf_buf *out, int64_t *out_count,
                  int64_t *out_arcs, pf_status *st)
{
    /* in_arcs: dynamic chunks of vertices balance well enough on CPUs; it
     * only says whether a team pays. */
    const int team = in_arcs < 0 || in_arcs >= TEAM_MIN_ARCS;
    const int64_t *first = BUF(g->first, int64_t);
    const int32_t *head = BUF(g->head, int32_t), *list = BUF(in, int32_t);
    int32_t *d = BUF(dist, int32_t);
    int64_t arcs = 0, total = 0;
    int failed = 0;
#pragma omp parallel num_threads(ompb_traversal_team(dev, g)) if (team) reduction(+ : arcs) \
    reduction(| : failed)
    {
        omp_frontier_piece *mine = &dev->pieces[omp_get_thread_num()];
        mine->count = 0;
#pragma omp for schedule(dynamic, CHUNK_FRONTIER) nowait
        for (int64_t i = 0; i < count; i++) {
            int32_t u = list[i];
            for (int64_t a = first[u]; a < PF_ROW_END(first, u); a++) {
                int32_t v = head[a];
                if (pf_bfs_claim(d, v, level)) {
                    failed |= omp_piece_push(mine, v, PIECE_FIRST);
                    arcs += PF_ROW_END(first, v) - first[v];
                }
            }
        }
        piece_flush(mine, BUF(out, int32_t), &total);
    }
    if (failed)
        return no_memory(st, "bfs_push");
    *out_count = total;
    *out_arcs = arcs;
    return PF_OK;
}

/* The frontier (dist == level) as a bitmap: a pull step tests every
 * in-neighbour against it, and n/8 bytes stay in cache where the n * 4 of
 * dist do not (GAPBS pulls from a bitmap too). Each word is one thread's.
 * It lives in the graph's scratch g->lb_degree (n int32, which only the
 * GPUs' balanced advance uses), so no allocation per level (n/8 bytes
 * are past malloc's mmap threshold from n = 2^20: page faults each
 * level); graphs too small for that get their own. */
static void frontier_bitmap(uint64_t *bits, const int32_t *d, int64_t n, int32_t level)
{
    int64_t words = (n + 63) / 64;
#pragma omp for schedule(static)
    for (int64_t w = 0; w < words; w++) {
        uint64_t word = 0;
        int64_t end = (w + 1) * 64 < n ? (w + 1) * 64 : n;
        for (int64_t v = w * 64; v < end; v++)
            word |= (uint64_t)(d[v] == level) << (v - w * 64);
        bits[w] = word;
    }
}

int ompb_bfs_pull(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t level, pf_buf *flags,
                  int64_t *found, int64_t *found_arcs, pf_status *st)
{
    const int64_t *rfirst = BUF(g->rfirst, int64_t), *first = BUF(g->first, int64_t);
    const int32_t *rhead = BUF(g->rhead, int32_t);
    int32_t *d = BUF(dist, int32_t), *f = BUF(flags, int32_t);
    int64_t joined = 0, arcs = 0;
    const int64_t n = g->n;
    int own = n < 64; /* g->lb_degree holds n * 4 >= (n + 63) / 64 * 8 bytes from here */
    uint64_t *front = own ? malloc(8) : BUF(g->lb_degree, uint64_t);
    if (!front)
        return no_memory(st, "bfs_pull");
    /* One team: the bitmap, then (after the loop's barrier) the pull. */
#pragma omp parallel num_threads(ompb_traversal_team(dev, g))
    {
        frontier_bitmap(front, d, n, level);
#pragma omp for schedule(dynamic, CHUNK_VERTICES) reduction(+ : joined, arcs)
        for (int64_t v = 0; v < n; v++) {
            int took = 0;
            if (d[v] == -1)
                for (int64_t a = rfirst[v]; a < PF_ROW_END(rfirst, v); a++) {
                    int32_t u = rhead[a];
                    if (front[u >> 6] >> (u & 63) & 1) { /* the bitmap's dist[u] == level */
                        d[v] = level + 1;
                        took = 1;
                        break;
                    }
                }
            f[v] = took;
            if (took) {
                joined++;
                arcs += PF_ROW_END(first, v) - first[v];
            }
        }
    }
    if (own)
        free(front);
    *found = joined;
    *found_arcs = arcs;
    return PF_OK;
}

int ompb_bfs_parents(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                     pf_buf *parent, pf_status *st)
{
    (void)st;
    const int64_t *rfirst = BUF(g->rfirst, int64_t);
    const int32_t *rhead = BUF(g->rhead, int32_t), *d = BUF(dist, int32_t);
    int32_t *p = BUF(parent, int32_t);
    const int64_t n = g->n;
#pragma omp parallel for num_threads(ompb_traversal_team(dev, g)) schedule(dynamic, CHUNK_VERTICES)
    for (int64_t v = 0; v < n; v++)
        p[v] = pf_body_bfs_parent((int32_t)v, rfirst, rhead, d, source);
    return PF_OK;
}

/* One frontier vertex's relaxation into this thread's piece; *arcs grows
 * by the out-degrees of the vertices it lists. */
static int relax_one(const pf_dev_csr *g, int32_t u, void *dist, int32_t *claim, int32_t step,
                     int32_t *far, int64_t bound_i, double bound_f, omp_frontier_piece *mine,
                     int64_t *arcs)
{
    const int64_t *first = BUF(g->first, int64_t);
    const int32_t *head = BUF(g->head, int32_t);
    int failed = 0;
    if (g->weights == 2) {
        const double *w = BUF(g->weight, double);
        double *d = dist, du = PF_LOAD_F64(&d[u]);
        for (int64_t a = first[u]; a < PF_ROW_END(first, u); a++) {
            int32_t v = head[a];
            double nd = du + w[a];
            if (nd < PF_LOAD_F64(&d[v]) && pf_atomic_min_f64(&d[v], nd) &&
                pf_relax_route(claim, far, v, step, nd < bound_f) == 1) {
                failed |= omp_piece_push(mine, v, PIECE_FIRST);
                *arcs += PF_ROW_END(first, v) - first[v];
            }
        }
        return failed;
    }
    const int64_t *w = g->weight ? BUF(g->weight, int64_t) : NULL;
    int64_t *d = dist, du = PF_LOAD_I64(&d[u]);
    for (int64_t a = first[u]; a < PF_ROW_END(first, u); a++) {
        int32_t v = head[a];
        int64_t nd = du + (w ? w[a] : 1);
        if (nd < PF_LOAD_I64(&d[v]) && pf_atomic_min_i64(&d[v], nd) &&
            pf_relax_route(claim, far, v, step, nd < bound_i) == 1) {
            failed |= omp_piece_push(mine, v, PIECE_FIRST);
            *arcs += PF_ROW_END(first, v) - first[v];
        }
    }
    return failed;
}

int ompb_sssp_relax(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                    int64_t in_arcs, pf_buf *dist, pf_buf *claim, int32_t step, pf_buf *near,
                    pf_buf *far, int64_t bound_i, double bound_f, int64_t *near_count,
                    int64_t *near_arcs, pf_status *st)
{
    const int team = in_arcs < 0 || in_arcs >= TEAM_MIN_ARCS;
    const int32_t *list = BUF(in, int32_t);
    int32_t *claims = BUF(claim, int32_t), *far_flags = BUF(far, int32_t);
    void *d = BUF(dist, void);
    int failed = 0;
    int64_t total = 0, arcs = 0;
#pragma omp parallel num_threads(ompb_traversal_team(dev, g)) if (team) reduction(| : failed) \
    reduction(+ : arcs)
    {
        omp_frontier_piece *mine = &dev->pieces[omp_get_thread_num()];
        mine->count = 0;
#pragma omp for schedule(dynamic, CHUNK_FRONTIER) nowait
        for (int64_t i = 0; i < count; i++)
            failed |= relax_one(g, list[i], d, claims, step, far_flags, bound_i, bound_f, mine,
                                &arcs);
        piece_flush(mine, BUF(near, int32_t), &total);
    }
    if (failed)
        return no_memory(st, "sssp_relax");
    *near_count = total;
    *near_arcs = arcs;
    return PF_OK;
}

int ompb_sssp_far(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, pf_buf *far, int64_t bound_i,
                  double bound_f, pf_buf *out, pf_sssp_far_out *res, pf_status *st)
{
    int32_t *f = BUF(far, int32_t);
    const int real = g->weights == 2;
    const int64_t *di = BUF(dist, int64_t);
    const double *df = BUF(dist, double);
    const int64_t n = g->n;
    int64_t rest = 0, min_i = PF_DIST_NONE_I64;
    double min_f = PF_F64_INF;
    int failed = 0;
    int64_t total = 0;
#pragma omp parallel num_threads(ompb_traversal_team(dev, g)) reduction(+ : rest) \
    reduction(| : failed) reduction(min : min_i, min_f)
    {
        omp_frontier_piece *mine = &dev->pieces[omp_get_thread_num()];
        mine->count = 0;
#pragma omp for schedule(static) nowait
        for (int64_t v = 0; v < n; v++) {
            if (!f[v])
                continue;
            int take = real ? df[v] < bound_f : di[v] < bound_i;
            if (take) {
                f[v] = 0;
                failed |= omp_piece_push(mine, (int32_t)v, PIECE_FIRST);
            } else {
                rest++;
                if (real && df[v] < min_f)
                    min_f = df[v];
                if (!real && di[v] < min_i)
                    min_i = di[v];
            }
        }
        piece_flush(mine, BUF(out, int32_t), &total);
    }
    if (failed)
        return no_memory(st, "sssp_far");
    res->count = total;
    res->arcs = list_arcs(dev, g, BUF(out, int32_t), total);
    res->rest = rest;
    res->rest_min_i = min_i;
    res->rest_min_f = min_f;
    return PF_OK;
}

int ompb_intersect_count(pf_dev *dev, const pf_dev_csr *g, int64_t *total, pf_status *st)
{
    (void)st;
    const int64_t *first = BUF(g->first, int64_t);
    const int32_t *head = BUF(g->head, int32_t);
    const int64_t n = g->n;
    int64_t sum = 0;
#pragma omp parallel for num_threads(dev->threads) schedule(dynamic, 64) reduction(+ : sum)
    for (int64_t u = 0; u < n; u++)
        sum += pf_body_intersect((int32_t)u, 0, 1, first, head);
    *total = sum;
    return PF_OK;
}
