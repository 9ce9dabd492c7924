/* Host-side matrix work of the APSP solver, once per distance kind: the
 * starting matrix (filled by several threads when large), the result's
 * "no path" marking, the one-thread
 * Floyd-Warshall of the `seq` backend, and the negative-cycle search. */
#include "apsp.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/status.h"
#include "../device/device.h"
#include "../device/shared/pf_fw_row.h"

size_t pf_apsp_kind_bytes(int kind) { return kind == PF_DIST_I64 ? 8 : 4; }

/* A negative self-loop is a negative cycle (pf_apsp_negative_cycle reports
 * it before any matrix is filled); any other self-loop never shortens a
 * path, and choose_kind (apsp.c) leaves it out of the distance bound. */
static int negative_weight(const pf_wgraph *g, int64_t a)
{
    return g->real_weight ? g->real_weight[a] < 0 : g->int_weight[a] < 0;
}

/* One block of functions per kind. INF is the device's "no path"; an int
 * entry above INF/2 is a sum that involved INF (apsp.c keeps every real
 * distance below INF/2), so it reads as "no path". */
#define APSP_KIND_FUNCTIONS(SUFFIX, TYPE, INF, NONE, IS_NONE, UNSCALE)                       \
    /* Rows [first, end): no path but 0 on the diagonal. */                                 \
    static void blank_##SUFFIX(TYPE *dist, int64_t n_pad, int64_t first, int64_t end)      \
    {                                                                                       \
        for (int64_t i = first; i < end; i++) {                                            \
            TYPE *row = dist + i * n_pad;                                                   \
            for (int64_t j = 0; j < n_pad; j++)                                            \
                row[j] = INF;                                                               \
            row[i] = 0;                                                                     \
        }                                                                                   \
    }                                                                                       \
                                                                                            \
    /* Next hops of rows [first, end): j where there is an arc or j = i. */                  \
    static void hops_##SUFFIX(const TYPE *dist, int32_t *next, int64_t n_pad, int64_t first, \
                              int64_t end)                                                  \
    {                                                                                       \
        for (int64_t i = first; i < end; i++)                                              \
            for (int64_t j = 0; j < n_pad; j++)                                            \
                next[i * n_pad + j] = dist[i * n_pad + j] == INF ? -1 : (int32_t)j;        \
    }                                                                                       \
                                                                                            \
    /* The arcs into a blank matrix (the lightest of parallel arcs). */                     \
    static void arcs_##SUFFIX(const pf_wgraph *g, int64_t n_pad, TYPE *dist,               \
                              int64_t hop_scale)                                            \
    {                                                                                       \
        for (int64_t a = 0; a < g->m; a++) {                                               \
            if (g->tail[a] == g->head[a] && !negative_weight(g, a))                        \
                continue; /* d(v,v) = 0 already; the weight may not fit TYPE */             \
            int64_t at = (int64_t)g->tail[a] * n_pad + g->head[a];                         \
            TYPE w = g->real_weight ? (TYPE)g->real_weight[a] : (TYPE)g->int_weight[a];    \
            if (hop_scale)                                                                  \
                w = (TYPE)(w * hop_scale + 1);                                              \
            if (w < dist[at])                                                               \
                dist[at] = w;                                                               \
        }                                                                                   \
    }                                                                                       \
                                                                                            \
    /* Rows [first, end) packed to stride n. The diagonal is 0 and its hop   \
     * the vertex itself: pf_apsp ruled out negative cycles first, and float32 \
     * rounding round a zero-weight one can leave d(i,i) an ulp below 0. */   \
    static void extract_##SUFFIX(int64_t n, int64_t n_pad, TYPE *dist, int32_t *next,      \
                                 int64_t hop_scale, int64_t first, int64_t end)             \
    {                                                                                       \
        for (int64_t i = first; i < end; i++)                                              \
            for (int64_t j = 0; j < n; j++) {                                              \
                TYPE d = dist[i * n_pad + j];                                               \
                int none = IS_NONE(d);                                                      \
                dist[i * n + j] = i == j ? 0                                                \
                                  : none ? NONE : hop_scale ? UNSCALE(d, hop_scale) : d;    \
                if (next)                                                                   \
                    next[i * n + j] = i == j ? (int32_t)i : none ? -1 : next[i * n_pad + j]; \
            }                                                                               \
    }                                                                                       \
                                                                                            \
    static void seq_fw_##SUFFIX(int64_t n, TYPE *dist, int32_t *next)                      \
    {                                                                                       \
        for (int64_t k = 0; k < n; k++) {                                                  \
            for (int64_t i = 0; i < n; i++)                                                \
                pf_fw_plain_row_##SUFFIX(dist, next, n, i, k);                              \
        }                                                                                   \
    }

#define I32_NONE(d) ((d) > PF_FW_INF_I32 / 2)
#define I64_NONE(d) ((d) > PF_FW_INF_I64 / 2)
#define F32_NONE(d) isinf(d)
/* key = d * scale + hops with 0 <= hops < scale: d is the floor quotient. */
#define FLOOR_DIV(key, scale) ((key) / (scale) - ((key) % (scale) < 0))
#define NOT_SCALED(key, scale) (key)
PF_FW_PLAIN_ROW(i32, int32_t, )
PF_FW_PLAIN_ROW(i64, int64_t, )
PF_FW_PLAIN_ROW(f32, float, )
APSP_KIND_FUNCTIONS(i32, int32_t, PF_FW_INF_I32, PF_APSP_NONE_I32, I32_NONE, FLOOR_DIV)
APSP_KIND_FUNCTIONS(i64, int64_t, PF_FW_INF_I64, PF_APSP_NONE_I64, I64_NONE, FLOOR_DIV)
APSP_KIND_FUNCTIONS(f32, float, INFINITY, INFINITY, F32_NONE, NOT_SCALED)

/* ---- the starting matrix, its rows shared among threads ---------------- */

enum {
    FILL_THREADS_MAX = 16,
    FILL_CELLS_PER_THREAD = 1 << 22, /* below this a thread costs more than it saves */
};

typedef struct fill_rows {
    int kind, hops; /* hops: next hops from the distances, else blank rows */
    void *dist;
    int32_t *next;
    int64_t n_pad, first, end;
} fill_rows;

static void *fill_rows_run(void *arg)
{
    const fill_rows *f = arg;
    switch (f->kind) {
    case PF_DIST_I32:
        f->hops ? hops_i32(f->dist, f->next, f->n_pad, f->first, f->end)
                : blank_i32(f->dist, f->n_pad, f->first, f->end);
        break;
    case PF_DIST_I64:
        f->hops ? hops_i64(f->dist, f->next, f->n_pad, f->first, f->end)
                : blank_i64(f->dist, f->n_pad, f->first, f->end);
        break;
    default:
        f->hops ? hops_f32(f->dist, f->next, f->n_pad, f->first, f->end)
                : blank_f32(f->dist, f->n_pad, f->first, f->end);
    }
    return NULL;
}

/* Every row of `job` once, split among threads: a large matrix (1 GiB at
 * n = 16384) is first touched here, which one core does at a fraction of
 * the memory bandwidth. A thread that cannot start leaves its rows to
 * this one. */
static void fill_parallel(const fill_rows *job)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t threads = job->n_pad * job->n_pad / FILL_CELLS_PER_THREAD;
    threads = threads > cpus ? cpus : threads;
    threads = threads > FILL_THREADS_MAX ? FILL_THREADS_MAX : threads < 1 ? 1 : threads;
    fill_rows parts[FILL_THREADS_MAX];
    pthread_t tids[FILL_THREADS_MAX];
    int started[FILL_THREADS_MAX] = {0};
    for (int64_t t = 0; t < threads; t++) {
        parts[t] = *job;
        parts[t].first = job->n_pad * t / threads;
        parts[t].end = job->n_pad * (t + 1) / threads;
        if (t > 0)
            started[t] = pthread_create(&tids[t], NULL, fill_rows_run, &parts[t]) == 0;
    }
    fill_rows_run(&parts[0]);
    for (int64_t t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tids[t], NULL);
        else
            fill_rows_run(&parts[t]);
    }
}

void pf_apsp_fill(const pf_wgraph *g, int kind, int64_t n_pad, void *dist, int32_t *next,
                  int64_t hop_scale)
{
    fill_rows job = {.kind = kind, .dist = dist, .next = next, .n_pad = n_pad};
    fill_parallel(&job);
    switch (kind) {
    case PF_DIST_I32:
        arcs_i32(g, n_pad, dist, hop_scale);
        break;
    case PF_DIST_I64:
        arcs_i64(g, n_pad, dist, hop_scale);
        break;
    default:
        arcs_f32(g, n_pad, dist, 0);
    }
    if (next) {
        job.hops = 1;
        fill_parallel(&job);
    }
}

void pf_apsp_extract_rows(int64_t n, int64_t n_pad, int kind, void *dist, int32_t *next,
                          int64_t hop_scale, int64_t first, int64_t count)
{
    int64_t end = first + count < n ? first + count : n;
    switch (kind) {
    case PF_DIST_I32:
        extract_i32(n, n_pad, dist, next, hop_scale, first, end);
        break;
    case PF_DIST_I64:
        extract_i64(n, n_pad, dist, next, hop_scale, first, end);
        break;
    default:
        extract_f32(n, n_pad, dist, next, 0, first, end);
    }
}

void pf_apsp_extract(int64_t n, int64_t n_pad, int kind, void *dist, int32_t *next,
                     int64_t hop_scale)
{
    pf_apsp_extract_rows(n, n_pad, kind, dist, next, hop_scale, 0, n);
}

void pf_apsp_seq_fw(int64_t n, int kind, void *dist, int32_t *next)
{
    switch (kind) {
    case PF_DIST_I32:
        seq_fw_i32(n, dist, next);
        break;
    case PF_DIST_I64:
        seq_fw_i64(n, dist, next);
        break;
    default:
        seq_fw_f32(n, dist, next);
    }
}

/* ---- negative cycles ------------------------------------------------ */

typedef struct out_arcs {
    int64_t *first;  /* n+1 */
    int32_t *head;   /* m */
    int64_t *arc;    /* m: index of the input arc (for its weight) */
} out_arcs;

static int out_arcs_build(const pf_wgraph *g, out_arcs *o, pf_status *st)
{
    o->first = pf_calloc((size_t)g->n + 1, sizeof *o->first, st);
    o->head = pf_alloc((size_t)g->m + 1, sizeof *o->head, st);
    o->arc = pf_alloc((size_t)g->m + 1, sizeof *o->arc, st);
    if (!o->first || !o->head || !o->arc)
        return PF_E_NOMEM;
    for (int64_t a = 0; a < g->m; a++)
        o->first[g->tail[a] + 1]++;
    for (int64_t v = 0; v < g->n; v++)
        o->first[v + 1] += o->first[v];
    for (int64_t a = 0; a < g->m; a++) {
        int64_t at = o->first[g->tail[a]]++;
        o->head[at] = g->head[a];
        o->arc[at] = a;
    }
    for (int64_t v = g->n; v > 0; v--)
        o->first[v] = o->first[v - 1];
    o->first[0] = 0;
    return PF_OK;
}

static void out_arcs_free(out_arcs *o)
{
    free(o->first);
    free(o->head);
    free(o->arc);
}

/* A cycle in the parent graph of Bellman-Ford is a negative cycle (parents
 * change only on strict improvement). O(n): each vertex is walked once;
 * returns a vertex on a cycle, or -1. */
static int32_t parent_cycle(const int32_t *parent, int64_t n, int32_t *walk_of)
{
    for (int64_t v = 0; v < n; v++)
        walk_of[v] = -1;
    for (int64_t start = 0; start < n; start++) {
        int32_t v = (int32_t)start;
        while (v >= 0 && walk_of[v] < 0) {
            walk_of[v] = (int32_t)start;
            v = parent[v];
        }
        if (v >= 0 && walk_of[v] == start)
            return v;
    }
    return -1;
}

/* An improvement Bellman-Ford takes: any, in exact int64; for reals, one
 * past double rounding. A zero-weight cycle must never close in the parent
 * graph (a rounded sum can come out an ulp lower each time round it: the
 * cycle reported would then weigh 0), and a cycle lighter than 1e-9 of
 * its distances is below what float32 distances can show anyway. */
#define IMPROVES_INT(via, d) ((via) < (d))
#define IMPROVES_REAL(via, d) ((via) < (d) - 1e-9 * (fabs(via) + fabs(d)))

/* Rounds of Bellman-Ford over the vertices changed in the previous round,
 * with distances in TYPE (int64 is exact: apsp.c has bounded every path
 * weight well inside it). */
#define BELLMAN_FORD(SUFFIX, TYPE, WEIGHTS, IMPROVES)                                       \
    static int32_t bellman_ford_##SUFFIX(const pf_wgraph *g, const out_arcs *o, TYPE *d,  \
                                         int32_t *parent, uint8_t *queued, int32_t *queue,\
                                         int32_t *walk_of)                                  \
    {                                                                                       \
        int64_t n = g->n, count = n;                                                        \
        for (int64_t v = 0; v < n; v++) {                                                  \
            d[v] = 0;                                                                       \
            parent[v] = -1;                                                                 \
            queue[v] = (int32_t)v;                                                          \
        }                                                                                   \
        for (int64_t round = 0; count > 0 && round <= n; round++) {                        \
            int64_t taken = count;                                                          \
            count = 0;                                                                      \
            memset(queued, 0, (size_t)n);                                                   \
            for (int64_t q = 0; q < taken; q++) {                                          \
                int32_t u = queue[q];                                                       \
                for (int64_t at = o->first[u]; at < o->first[u + 1]; at++) {               \
                    int32_t v = o->head[at];                                                \
                    TYPE via = d[u] + (TYPE)g->WEIGHTS[o->arc[at]];                         \
                    if (IMPROVES(via, d[v])) {                                              \
                        d[v] = via;                                                         \
                        parent[v] = u;                                                      \
                        if (!queued[v]) {                                                   \
                            queued[v] = 1;                                                  \
                            queue[taken + count++] = v;                                     \
                        }                                                                   \
                    }                                                                       \
                }                                                                           \
            }                                                                               \
            memmove(queue, queue + taken, (size_t)count * sizeof *queue);                   \
            int32_t on_cycle = parent_cycle(parent, n, walk_of);                            \
            if (on_cycle >= 0)                                                              \
                return on_cycle;                                                            \
        }                                                                                   \
        return -1;                                                                          \
    }

BELLMAN_FORD(int, int64_t, int_weight, IMPROVES_INT)
BELLMAN_FORD(real, double, real_weight, IMPROVES_REAL)

int pf_apsp_negative_cycle(const pf_wgraph *g, int32_t **cycle, int64_t *cycle_len,
                           pf_status *st)
{
    *cycle = NULL;
    *cycle_len = 0;
    /* A negative self-loop is the shortest answer and Bellman-Ford's parent
     * graph would not show it (a vertex is not its own parent). */
    for (int64_t a = 0; a < g->m; a++) {
        double w = g->real_weight ? g->real_weight[a] : (double)g->int_weight[a];
        if (g->tail[a] == g->head[a] && w < 0) {
            *cycle = pf_alloc(1, sizeof **cycle, st);
            if (!*cycle)
                return PF_E_NOMEM;
            (*cycle)[0] = g->tail[a];
            *cycle_len = 1;
            return pf_fail(st, PF_E_INPUT, "negative cycle: the self-loop at vertex %d",
                           g->tail[a] + 1);
        }
    }
    out_arcs o = {0};
    size_t n = (size_t)g->n;
    void *d = pf_alloc(n, 8, st);
    int32_t *parent = pf_alloc(n, sizeof *parent, st);
    /* The queue holds this round's vertices and, after them, the next's. */
    int32_t *queue = pf_alloc(2 * n, sizeof *queue, st);
    int32_t *walk_of = pf_alloc(n, sizeof *walk_of, st);
    uint8_t *queued = pf_alloc(n, 1, st);
    int rc = d && parent && queue && walk_of && queued ? out_arcs_build(g, &o, st) : PF_E_NOMEM;
    if (rc)
        goto done;
    int32_t on_cycle = g->real_weight
                           ? bellman_ford_real(g, &o, d, parent, queued, queue, walk_of)
                           : bellman_ford_int(g, &o, d, parent, queued, queue, walk_of);
    if (on_cycle < 0)
        goto done;
    /* Walk the parents round the cycle (they run against the arcs), then
     * reverse into arc order. */
    int64_t len = 0;
    for (int32_t v = on_cycle;;) {
        queue[len++] = v;
        v = parent[v];
        if (v == on_cycle)
            break;
    }
    *cycle = pf_alloc((size_t)len, sizeof **cycle, st);
    if (!*cycle) {
        rc = PF_E_NOMEM;
        goto done;
    }
    for (int64_t i = 0; i < len; i++)
        (*cycle)[i] = queue[len - 1 - i];
    *cycle_len = len;
    rc = pf_fail(st, PF_E_INPUT, "negative cycle through %lld vertices (first: vertex %d)",
                 (long long)len, (*cycle)[0] + 1);
done:
    out_arcs_free(&o);
    free(d);
    free(parent);
    free(queue);
    free(walk_of);
    free(queued);
    return rc;
}

/* Whether arc a (weight w) out of u starts a path of d(u,j) whose rest is
 * d(w,j): exactly for integer kinds, up to float32 rounding for reals
 * (relative to the terms: a sum that cancels is exact only to their size).
 * A "no path" d(u,j) never is. */
static int tight(const pf_wgraph *g, int kind, const void *dist, int64_t u, int64_t w,
                 int64_t a, int64_t j)
{
    const int64_t n = g->n;
    if (kind == PF_DIST_F32) {
        double du = ((const float *)dist)[u * n + j], dw = ((const float *)dist)[w * n + j];
        double wt = g->real_weight ? g->real_weight[a] : (double)g->int_weight[a];
        return !isinf(du) &&
               fabs(du - (wt + dw)) <= 1e-5 * (fabs(du) + fabs(wt) + fabs(dw)) + 1e-30;
    }
    __int128 du, dw;
    if (kind == PF_DIST_I32) {
        du = ((const int32_t *)dist)[u * n + j];
        dw = ((const int32_t *)dist)[w * n + j];
        if (du == PF_APSP_NONE_I32)
            return 0;
    } else {
        du = ((const int64_t *)dist)[u * n + j];
        dw = ((const int64_t *)dist)[w * n + j];
        if (du == PF_APSP_NONE_I64)
            return 0;
    }
    return du == (__int128)g->int_weight[a] + dw;
}

int pf_apsp_hops_from_dist(const pf_wgraph *g, int kind, const void *dist, int32_t *next,
                           pf_status *st)
{
    const int64_t n = g->n;
    int64_t *rfirst = pf_calloc((size_t)n + 1, sizeof *rfirst, st);
    int64_t *rarc = pf_alloc((size_t)g->m + 1, sizeof *rarc, st);
    int32_t *queue = pf_alloc((size_t)n + 1, sizeof *queue, st);
    int64_t *seen = pf_alloc((size_t)n + 1, sizeof *seen, st);
    int rc = rfirst && rarc && queue && seen ? PF_OK : PF_E_NOMEM;
    /* the arcs by head, as a reverse BFS from each target reads them */
    for (int64_t a = 0; !rc && a < g->m; a++)
        rfirst[g->head[a] + 1]++;
    for (int64_t v = 0; !rc && v < n; v++)
        rfirst[v + 1] += rfirst[v];
    for (int64_t a = 0; !rc && a < g->m; a++)
        rarc[rfirst[g->head[a]]++] = a;
    for (int64_t v = n; !rc && v > 0; v--)
        rfirst[v] = rfirst[v - 1];
    if (!rc)
        rfirst[0] = 0;
    for (int64_t v = 0; !rc && v < n; v++)
        seen[v] = -1;
    for (int64_t j = 0; !rc && j < n; j++) {
        int64_t head = 0, tail = 0;
        queue[tail++] = (int32_t)j;
        seen[j] = j;
        while (head < tail) {
            const int32_t w = queue[head++];
            for (int64_t k = rfirst[w]; k < rfirst[w + 1]; k++) {
                const int64_t a = rarc[k];
                const int32_t u = g->tail[a];
                if (seen[u] == j || !tight(g, kind, dist, u, w, a, j))
                    continue;
                seen[u] = j;
                next[u * n + j] = w;
                queue[tail++] = u;
            }
        }
        /* every vertex with a path must have been reached */
        for (int64_t u = 0; u < n && !rc; u++)
            if (seen[u] != j && next[u * n + j] >= 0)
                rc = pf_fail(st, PF_E_VERIFY,
                             "no arc out of %lld starts a path of its distance to %lld",
                             (long long)u + 1, (long long)j + 1);
    }
    free(rfirst);
    free(rarc);
    free(queue);
    free(seen);
    return rc;
}
