/* The deficit repair of the dynamic residual graph (dyn_graph.h): a batch
 * that lowers or deletes arcs carrying flow leaves deficits at their heads,
 * and every deficit is cancelled forward along arcs that carry flow until
 * it meets excess (a vertex with some, the sink with the flow value, or
 * the source, which takes anything).
 *
 * Such a target is always reachable: let R be the vertices reachable from
 * a deficit v along flow-carrying arcs; no flow leaves R, so the excesses
 * in R sum to the flow entering R, >= 0; v's is negative, so R holds the
 * source or a vertex with positive excess.
 *
 * Before any of that, a cut arc's flow is sent round it where it can be
 * (dyn_reroute.c), which leaves neither excess nor deficit; on graphs with
 * many parallel routes (grids, RMFGEN's frames) most cuts end there.
 *
 * Two searches: a depth-first walk (cheap where the flow paths are short,
 * and a batch usually has few deficits), and, once that has walked more
 * than a share of the graph in one repair, exact distance labels from a
 * breadth-first search out of every target, then shortest augmenting paths
 * along them. A depth-first walk on a layered graph can wander through
 * whole layers before it descends (its paths, and every cancellation
 * along them, get long); the labelled one costs one pass over the graph
 * and paths no longer than needed (bench/NOTES.md has the measurements).
 * Where even that passes a few times the graph's size (deficits that must
 * travel far and split many ways: a grid's sink side), the repair gives up
 * and the batch leaves the initial preflow (pf_dyn_reset_preflow): the next
 * solve is cold, and the batch costs no more than a fresh start. */
#include <string.h>

#include "dyn_graph.h"
#include "dyn_layout.h"
#include "status.h"

/* The depth-first walk gives way after arcs / DFS_SHARE steps. */
enum { DFS_SHARE = 4, DFS_MIN_BUDGET = 4096 };
enum { MARK_NONE, MARK_PATH, MARK_DEAD, MARK_SEEN };
enum { OVER_BUDGET = -1 };
/* Past RESET_SHARE * (vertices + slots) steps in one repair, the preflow
 * is reset to the initial one instead: a cold start on a GPU costs a few
 * passes over the graph, so a repair that has made that many is not
 * going to pay (bench/NOTES.md has what larger shares cost). */
enum { RESET_SHARE = 2 };

static int no_path(int64_t v, int64_t deficit, pf_status *st)
{
    return pf_fail(st, PF_E_VERIFY,
                   "dynamic graph: vertex %lld has a deficit of %lld and no flow path to "
                   "excess (the preflow was not valid)",
                   (long long)v, (long long)deficit);
}

/* Cancels delta of flow along slot a (flow out of its tail). */
static void cancel_along(pf_dyn_graph *d, int64_t a, int64_t delta)
{
    int64_t r = d->view.rev[a];
    d->res[a] += delta;
    d->res[r] -= delta;
    pf_dyn_touch_slot(d, a);
    pf_dyn_touch_slot(d, r);
}

/* Cancels what it can of v's deficit along the path (walk_path[0..top))
 * to y, a vertex with excess or the source; returns the length of the
 * path that still carries flow (up to the first arc it emptied). */
static int64_t cancel_path(pf_dyn_graph *d, int64_t v, int64_t y, int64_t top,
                           pf_dyn_batch_out *out)
{
    const int64_t *path = d->walk_path;
    int64_t delta = -d->excess[v];
    if (y != d->view.source && d->excess[y] < delta)
        delta = d->excess[y];
    for (int64_t j = 0; j < top; j++)
        if (d->view.cap[path[j]] - d->res[path[j]] < delta)
            delta = d->view.cap[path[j]] - d->res[path[j]];
    for (int64_t j = 0; j < top; j++)
        cancel_along(d, path[j], delta);
    out->repair_steps += top;
    d->excess[v] += delta;
    d->excess[y] -= delta;
    pf_dyn_touch_vertex(d, v);
    pf_dyn_touch_vertex(d, y);
    for (int64_t j = 0; j < top; j++)
        if (d->view.cap[path[j]] == d->res[path[j]])
            return j;
    return top;
}

/* ---- the depth-first walk ---- */

static void walk_touch(pf_dyn_graph *d, int64_t v, int64_t *seen)
{
    if (d->walk_mark[v] == MARK_NONE) {
        d->walk_cur[v] = d->view.first[v];
        d->walk_mark[v] = MARK_SEEN;
        d->walk_seen[(*seen)++] = (int32_t)v;
    }
}

/* The path's arcs from the one leaving y on, and `closing` back to y, are
 * a cycle of flow: cancels its smallest flow around it (no excess
 * changes) and returns the path's length up to y. */
static int64_t close_cycle(pf_dyn_graph *d, int64_t y, int64_t top, int64_t closing,
                           pf_dyn_batch_out *out)
{
    const int64_t *path = d->walk_path, *res = d->res, *cap = d->view.cap;
    int64_t from = top;
    while (from > 0 && d->view.head[path[from - 1]] != y)
        from--;
    int64_t delta = cap[closing] - res[closing];
    for (int64_t j = from; j < top; j++)
        if (cap[path[j]] - res[path[j]] < delta)
            delta = cap[path[j]] - res[path[j]];
    for (int64_t j = from; j < top; j++) {
        cancel_along(d, path[j], delta);
        d->walk_mark[d->view.head[path[j]]] = MARK_SEEN;
    }
    cancel_along(d, closing, delta);
    out->repair_steps += top - from + 1;
    return from;
}

/* The first arc from x's current one on that carries flow to a vertex not
 * known to be a dead end; the end of x's range when none does. */
static int64_t next_flow_arc(pf_dyn_graph *d, int64_t x, pf_dyn_batch_out *out)
{
    const int64_t end = d->view.first[x + 1];
    int64_t a = d->walk_cur[x];
    for (; a < end; a++)
        if (d->view.cap[a] > d->res[a] && d->walk_mark[d->view.head[a]] != MARK_DEAD)
            break;
    out->repair_steps += a - d->walk_cur[x];
    d->walk_cur[x] = a;
    return a;
}

/* Depth first from v: after each cancellation the walk goes on from the
 * end of the part of its path that still carries flow; cycles of flow met
 * on the way are cancelled; vertices from which nothing is reached are
 * dead ends for the rest of the repair (arcs only lose flow and excesses
 * only shrink during a repair). OVER_BUDGET once out->repair_steps passes
 * `budget` (what it cancelled so far stays cancelled). */
static int repair_depth_first(pf_dyn_graph *d, int64_t v, int64_t *seen, int64_t budget,
                              pf_dyn_batch_out *out, pf_status *st)
{
    walk_touch(d, v, seen);
    int64_t top = 0, x = v;
    int rc = d->walk_mark[v] == MARK_DEAD ? PF_E_VERIFY : PF_OK;
    d->walk_mark[v] = MARK_PATH;
    while (!rc && d->excess[v] < 0) {
        if (out->repair_steps > budget) {
            rc = OVER_BUDGET;
        } else if (x != v && (x == d->view.source || d->excess[x] > 0)) {
            int64_t keep = cancel_path(d, v, x, top, out);
            for (; top > keep; top--)
                d->walk_mark[d->view.head[d->walk_path[top - 1]]] = MARK_SEEN;
            x = top ? d->view.head[d->walk_path[top - 1]] : v;
        } else {
            int64_t a = next_flow_arc(d, x, out);
            if (a == d->view.first[x + 1]) {
                if (x == v) {
                    rc = PF_E_VERIFY;
                } else {
                    d->walk_mark[x] = MARK_DEAD;
                    x = d->view.head[d->view.rev[d->walk_path[--top]]];
                }
                continue;
            }
            int64_t y = d->view.head[a];
            if (d->walk_mark[y] == MARK_PATH) {
                top = close_cycle(d, y, top, a, out);
            } else {
                walk_touch(d, y, seen);
                out->repair_steps++;
                d->walk_mark[y] = MARK_PATH;
                d->walk_path[top++] = a;
            }
            x = y;
        }
    }
    for (int64_t j = 0; j < top; j++)
        d->walk_mark[d->view.head[d->walk_path[j]]] = MARK_SEEN;
    d->walk_mark[v] = MARK_SEEN;
    return rc == PF_E_VERIFY ? no_path(v, -d->excess[v], st) : rc;
}

/* ---- shortest paths by distance labels ---- */

/* walk_dist[v] = the number of flow-carrying arcs from v to the nearest
 * target (n: none), by a breadth-first search backwards from all of them
 * (walk_cur is its queue, then every vertex's current arc). */
static void label_all(pf_dyn_graph *d, pf_dyn_batch_out *out)
{
    const int64_t n = d->view.n;
    int64_t *queue = d->walk_cur, tail = 0;
    for (int64_t v = 0; v < n; v++) {
        int target = v == d->view.source || d->excess[v] > 0;
        d->walk_dist[v] = target ? 0 : (int32_t)n;
        if (target)
            queue[tail++] = v;
    }
    for (int64_t at = 0; at < tail; at++) {
        int64_t y = queue[at];
        for (int64_t r = d->view.first[y]; r < d->view.first[y + 1]; r++) {
            int64_t x = d->view.head[r], f = d->view.rev[r];
            if (d->walk_dist[x] == n && d->view.cap[f] > d->res[f]) {
                d->walk_dist[x] = d->walk_dist[y] + 1;
                queue[tail++] = x;
            }
        }
    }
    for (int64_t v = 0; v < n; v++)
        d->walk_cur[v] = d->view.first[v];
    out->repair_steps += n + d->view.first[n];
}

/* The first arc from x's current one on that carries flow to a vertex
 * labelled one less than x; the end of x's range when none does. */
static int64_t next_admissible(pf_dyn_graph *d, int64_t x, pf_dyn_batch_out *out)
{
    const int64_t end = d->view.first[x + 1];
    const int32_t want = d->walk_dist[x] - 1;
    int64_t a = d->walk_cur[x];
    for (; a < end; a++)
        if (d->view.cap[a] > d->res[a] && d->walk_dist[d->view.head[a]] == want)
            break;
    out->repair_steps += a - d->walk_cur[x];
    d->walk_cur[x] = a;
    return a;
}

/* x's label: one more than the lowest head of its flow-carrying arcs (n
 * when it has none). Labels only grow: arcs only lose flow and excesses
 * only shrink during a repair. */
static void relabel(pf_dyn_graph *d, int64_t x, pf_dyn_batch_out *out)
{
    const int32_t n = (int32_t)d->view.n;
    int32_t best = n;
    for (int64_t a = d->view.first[x]; a < d->view.first[x + 1]; a++)
        if (d->view.cap[a] > d->res[a] && d->walk_dist[d->view.head[a]] < best - 1)
            best = d->walk_dist[d->view.head[a]] + 1;
    out->repair_steps += d->view.first[x + 1] - d->view.first[x];
    d->walk_dist[x] = best;
    d->walk_cur[x] = d->view.first[x];
}

/* v's deficit along shortest flow paths (labels from label_all);
 * OVER_BUDGET once out->repair_steps passes give_up. */
static int repair_labelled(pf_dyn_graph *d, int64_t v, int64_t give_up, pf_dyn_batch_out *out,
                           pf_status *st)
{
    int64_t top = 0, x = v;
    while (d->excess[v] < 0) {
        if (out->repair_steps > give_up)
            return OVER_BUDGET;
        if (x != v && (x == d->view.source || d->excess[x] > 0)) {
            top = cancel_path(d, v, x, top, out);
            x = top ? d->view.head[d->walk_path[top - 1]] : v;
            continue;
        }
        if (d->walk_dist[v] >= d->view.n)
            return no_path(v, -d->excess[v], st);
        int64_t a = next_admissible(d, x, out);
        if (a < d->view.first[x + 1]) {
            d->walk_path[top++] = a;
            x = d->view.head[a];
            out->repair_steps++;
            continue;
        }
        relabel(d, x, out);
        if (x != v)
            x = d->view.head[d->view.rev[d->walk_path[--top]]];
    }
    return PF_OK;
}

/* ---- the repair ---- */

int pf_dyn_repair_list(pf_dyn_graph *d, const int64_t *list, int64_t len, pf_dyn_batch_out *out,
                       pf_status *st)
{
    const int64_t count = list ? len : d->view.n;
    const int64_t budget = out->repair_steps + d->view.arcs / DFS_SHARE + DFS_MIN_BUDGET;
    const int64_t give_up = out->repair_steps + RESET_SHARE * (d->view.n + d->view.arcs);
    int64_t seen = 0;
    int rc = PF_OK, labelled = 0;
    for (int64_t k = 0; k < count && !rc; k++) {
        int64_t v = list ? list[k] : k;
        if (v == d->view.source || d->excess[v] >= 0)
            continue;
        out->deficits++;
        if (!labelled)
            rc = repair_depth_first(d, v, &seen, budget, out, st);
        if (rc == OVER_BUDGET) {
            for (int64_t j = 0; j < seen; j++)
                d->walk_mark[d->walk_seen[j]] = MARK_NONE;
            seen = 0;
            label_all(d, out);
            labelled = 1;
        }
        if (labelled)
            rc = repair_labelled(d, v, give_up, out, st);
    }
    for (int64_t j = 0; j < seen; j++)
        d->walk_mark[d->walk_seen[j]] = MARK_NONE;
    if (rc == OVER_BUDGET) {
        pf_dyn_reset_preflow(d);
        out->reset = 1;
        rc = PF_OK;
    }
    return rc;
}
