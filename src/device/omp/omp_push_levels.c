/* The OpenMP backend's run of BFS push levels in one team (device.h
 * bfs_push_levels), for deep graphs: a lattice of 16M vertices has ~8000
 * levels of a few thousand vertices, where starting a team per level (and
 * a trip back to the host) costs as much as the level's work.
 *
 * One team runs level after level with one barrier between them. Each
 * thread claims vertices into its own piece and copies the piece into the
 * next frontier at a place reserved by one atomic add on the level's
 * counter; after the barrier every thread reads the level's totals and
 * makes the same decision (go on, or stop: nothing found, or the frontier
 * is heavy enough that the host switches to pulling). The counters rotate
 * over three slots, so a slot is cleared two levels before it is used
 * again, with no extra barrier.
 *
 * Levels of fewer than TEAM_MIN_VERTICES vertices (the first levels from
 * the source, a chain's) run on thread 0 alone while the others wait at
 * a barrier, with plain stores: no team level for one vertex. Such a run
 * starts with a barrier of its own, since it clears the counter slots
 * that slower threads may still be reading. */
#include <omp.h>
#include <string.h>

#include "../../common/status.h"
#include "../device.h"
#include "../shared/pf_vendor.h"
#include "../shared/pf_graph_kernels.h"
#include "omp_graph.h"
#include "omp_internal.h"

enum { TEAM_MIN_VERTICES = 128, CHUNK = 64, PIECE_FIRST = 4096 };

typedef struct push_team {
    const int64_t *first;
    const int32_t *head;
    int32_t *dist;
    int32_t *lists[2];
    omp_frontier_piece *pieces;
    int32_t level, levels, alpha;
    int64_t least_pull;
    int64_t *found;
    double *seconds;
    _Alignas(64) int64_t appended[3]; /* level j appends through slot j % 3 */
    _Alignas(64) int64_t arcs[3];
    _Alignas(64) int failed;
    /* Thread 0's state after a run of levels of its own, for the others. */
    int32_t j, stop;
    int64_t count, unexplored;
    double before;
} push_team;

/* Level j's totals recorded (thread 0). */
static void record(push_team *t, int32_t j, int64_t count, int64_t arcs)
{
    double now = omp_get_wtime();
    t->found[2 * j] = count;
    t->found[2 * j + 1] = arcs;
    t->seconds[j] = now - t->before;
    t->before = now;
}

static int should_stop(const push_team *t, int64_t count, int64_t arcs, int64_t unexplored)
{
    return count == 0 || (t->alpha > 0 && arcs > unexplored / t->alpha && arcs > t->least_pull);
}

/* Thread 0 alone: levels while the frontier stays small; then its state
 * for the others, and the counter slots cleared. */
static void levels_alone(push_team *t, int32_t j, int64_t count, int64_t unexplored)
{
    const int64_t *first = t->first;
    int stop = 0;
    while (!stop && j < t->levels && count < TEAM_MIN_VERTICES) {
        const int32_t *in = t->lists[j % 2];
        int32_t *out = t->lists[(j + 1) % 2], next_level = t->level + j + 1;
        int64_t next = 0, arcs = 0;
        for (int64_t i = 0; i < count; i++) {
            int32_t u = in[i];
            for (int64_t a = first[u]; a < PF_ROW_END(first, u); a++) {
                int32_t v = t->head[a];
                if (t->dist[v] == -1) {
                    t->dist[v] = next_level;
                    out[next++] = v;
                    arcs += PF_ROW_END(first, v) - first[v];
                }
            }
        }
        unexplored -= arcs;
        record(t, j, next, arcs);
        stop = should_stop(t, next, arcs, unexplored);
        count = next;
        j++;
    }
    t->j = j;
    t->count = count;
    t->unexplored = unexplored;
    t->stop = stop;
    memset(t->appended, 0, sizeof t->appended);
    memset(t->arcs, 0, sizeof t->arcs);
}

/* Every thread's part of team level j: its claims placed in the next
 * frontier, its out-arcs added to the level's count. */
static void team_level(push_team *t, omp_frontier_piece *mine, int32_t j, int64_t count)
{
    const int64_t *first = t->first;
    const int32_t *in = t->lists[j % 2];
    int32_t level = t->level + j;
    int64_t arcs = 0;
    int failed = 0;
    mine->count = 0;
#pragma omp for schedule(dynamic, CHUNK) nowait
    for (int64_t i = 0; i < count; i++) {
        int32_t u = in[i];
        for (int64_t a = first[u]; a < PF_ROW_END(first, u); a++) {
            int32_t v = t->head[a];
            if (pf_bfs_claim(t->dist, v, level)) {
                failed |= omp_piece_push(mine, v, PIECE_FIRST);
                arcs += PF_ROW_END(first, v) - first[v];
            }
        }
    }
    if (mine->count > 0) {
        int64_t at = __atomic_fetch_add(&t->appended[j % 3], mine->count, __ATOMIC_RELAXED);
        memcpy(t->lists[(j + 1) % 2] + at, mine->vertices,
               (size_t)mine->count * sizeof *mine->vertices);
    }
    if (arcs > 0)
        __atomic_fetch_add(&t->arcs[j % 3], arcs, __ATOMIC_RELAXED);
    if (failed)
        __atomic_store_n(&t->failed, 1, __ATOMIC_RELAXED);
}

static void run_levels(push_team *t, int64_t count, int64_t unexplored)
{
    const int me = omp_get_thread_num();
    omp_frontier_piece *mine = &t->pieces[me];
    int32_t j = 0;
    int stop = 0;
    while (!stop && j < t->levels) {
        if (count < TEAM_MIN_VERTICES) {
            /* Every thread has read the last team level's totals before
             * thread 0 clears their slots. */
#pragma omp barrier
            if (me == 0)
                levels_alone(t, j, count, unexplored);
#pragma omp barrier
            j = t->j;
            count = t->count;
            unexplored = t->unexplored;
            stop = t->stop;
            continue; /* the next level (if any) is a team level */
        }
        team_level(t, mine, j, count);
#pragma omp barrier
        count = t->appended[j % 3];
        int64_t arcs = t->arcs[j % 3];
        unexplored -= arcs;
        stop = should_stop(t, count, arcs, unexplored) || t->failed;
        if (me == 0) {
            record(t, j, count, arcs);
            t->appended[(j + 2) % 3] = 0; /* read by all before this level's barrier */
            t->arcs[(j + 2) % 3] = 0;
            t->j = j + 1;
        }
        j++;
    }
}

int ompb_bfs_push_levels(pf_dev *dev, const pf_dev_csr *g, pf_buf *const list[2],
                         int64_t count, int64_t in_arcs, pf_buf *dist, int32_t level,
                         int32_t levels, int64_t unexplored, int32_t alpha,
                         int64_t least_pull, int64_t *found, double *seconds, int32_t *done,
                         pf_status *st)
{
    (void)in_arcs; /* the team shares out vertices in dynamic chunks */
    push_team t = {
        .first = BUF(g->first, int64_t),
        .head = BUF(g->head, int32_t),
        .dist = BUF(dist, int32_t),
        .lists = {BUF(list[0], int32_t), BUF(list[1], int32_t)},
        .pieces = dev->pieces,
        .level = level,
        .levels = levels,
        .alpha = alpha,
        .least_pull = least_pull,
        .found = found,
        .seconds = seconds,
        .before = omp_get_wtime(),
    };
#pragma omp parallel num_threads(ompb_traversal_team(dev, g))
    run_levels(&t, count, unexplored);
    *done = t.j;
    if (t.failed)
        return pf_fail(st, PF_E_DEVICE, "omp: bfs_push_levels: out of host memory for a "
                       "frontier");
    return PF_OK;
}
