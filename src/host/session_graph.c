/* BFS and SSSP over a session's graph as it stands (portaflow.h:
 * pf_session_bfs, pf_session_sssp).
 *
 * The analytics engines (graph.h) take a CSR of arcs; the session's graph
 * is a CSR of residual slots with slack (dyn_graph.h), in which a vertex's
 * range also holds reverse slots, free slots and the hidden arcs of
 * covered deficits and super terminals. The search's CSR is that layout
 * itself: first[] is the session's array, and only the heads (and SSSP's
 * lengths, the arcs' capacities) are the search's own, written in one
 * pass: a live arc's slot keeps its head, every other slot becomes a
 * self-loop, which no BFS or SSSP step follows anywhere.
 * A BFS's reverse graph (for its bottom-up steps) is the same layout
 * again: a live arc's reverse slot lies in its head's range and points to
 * its tail. The engine is the session's own (its backend and open
 * device), so a search costs a pass over the slots and the engine's
 * upload, never a graph built again (or transposed) or a device opened.
 *
 * What the engines' arc order decides (a parent among in-neighbours at
 * the same level) is computed here instead, over the arc ids, so every
 * backend gives the same parents as pf_bfs does: the smallest-id
 * in-neighbour one hop nearer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/omp_threads.h"
#include "../common/sized.h"
#include "../common/timer.h"
#include "driver_session.h"
#include "graph.h"
#include "session_internal.h"

/* The search's CSR over the session's slots, its reverse (BFS), and the
 * engine it runs on. */
typedef struct session_search {
    pf_csr csr;            /* first: the session's; head and lengths: ours */
    pf_csr reverse;        /* first: the session's; head: ours (BFS only) */
    int32_t *head, *head_in;
    int64_t *weight_i;     /* SSSP: a live arc's capacity on its forward slot, */
    double *weight_f;      /* 0 elsewhere (a real network's as reals) */
    pf_graph_engine engine;
    double prepare_s;
} session_search;

/* The engine of the session's backend: its open device where it runs the
 * analytics steps, else the host's one-thread searches (a seq session). */
static void session_engine(const pf_session *s, pf_graph_engine *e)
{
    memset(e, 0, sizeof *e);
    const pf_device_ops *ops = NULL;
    pf_dev *dev = NULL;
    if (s->dev)
        pf_dev_session_engine(s->dev, &ops, &dev);
    if (ops && ops->bfs_push) {
        e->ops = ops;
        e->dev = dev;
        snprintf(e->name, sizeof e->name, "%s", s->ops->name);
    } else {
        snprintf(e->name, sizeof e->name, "seq");
    }
}

/* Every slot a self-loop of its vertex in `head`. */
static void self_loops(const pf_residual *r, int32_t *head, int threads)
{
    PF_OMP(omp parallel for num_threads(threads) schedule(static) if (threads > 1))
    for (int64_t u = 0; u < r->n; u++)
        for (int64_t a = r->first[u]; a < r->first[u + 1]; a++)
            head[a] = (int32_t)u;
}

/* Heads over every slot: a live arc's own on its forward slot, else the
 * slot's vertex; for a BFS (`reverse`) also the reverse graph's: a live
 * arc's tail on its reverse slot (which lies in its head's range), else
 * the slot's vertex; for an SSSP (`weights`) the live arcs' capacities,
 * 0 on every other slot (the hidden arcs' capacities would only widen the
 * engines' overflow bound). */
static int search_open(const pf_session *s, int weights, int reverse, session_search *q,
                       pf_status *st)
{
    double t0 = pf_now();
    const pf_dyn_graph *g = &s->g;
    const pf_residual *r = &g->view;
    const int64_t n = r->n, m = r->first[n];
    const size_t slots = (size_t)(m ? m : 1);
    q->head = pf_alloc(slots, sizeof *q->head, st);
    q->head_in = reverse ? pf_alloc(slots, sizeof *q->head_in, st) : NULL;
    if (weights && s->is_real)
        q->weight_f = pf_calloc(slots, sizeof *q->weight_f, st);
    else if (weights)
        q->weight_i = pf_calloc(slots, sizeof *q->weight_i, st);
    if (!q->head || (reverse && !q->head_in) || (weights && !q->weight_i && !q->weight_f))
        return PF_E_NOMEM;
    const int threads = pf_threads_for_items(s->threads, m);
    self_loops(r, q->head, threads);
    if (reverse)
        self_loops(r, q->head_in, threads);
    /* (each id has slots of its own: no two iterations write one place) */
    const int id_threads = pf_threads_for_items(s->threads, g->ids);
    PF_OMP(omp parallel for num_threads(id_threads) schedule(static) if (id_threads > 1))
    for (int64_t id = 0; id < g->ids; id++) {
        int64_t slot = g->slot_of[id];
        if (slot < 0 || g->deleted[id])
            continue;
        q->head[slot] = r->head[slot];
        if (reverse)
            q->head_in[r->rev[slot]] = r->head[r->rev[slot]];
        if (q->weight_i)
            q->weight_i[slot] = r->cap[slot];
        else if (q->weight_f)
            q->weight_f[slot] = ldexp((double)r->cap[slot], -s->scale_log2);
    }
    q->csr = (pf_csr){.n = n, .m = m, .first = r->first, .head = q->head,
                      .int_weight = q->weight_i, .real_weight = q->weight_f,
                      .weights = q->weight_f   ? PF_CSR_W_F64
                                 : q->weight_i ? PF_CSR_W_I64
                                               : PF_CSR_W_NONE};
    q->reverse = (pf_csr){.n = n, .m = m, .first = r->first, .head = q->head_in};
    session_engine(s, &q->engine);
    q->prepare_s = pf_now() - t0;
    return PF_OK;
}

/* The caller's options for a search of the session from `source` (a user
 * id), checked; eopt runs it on q's engine. */
static int search_options(const pf_session *s, int64_t source, const pf_analytics_options *opt,
                          pf_graph_options *eopt, pf_status *st)
{
    if (!s)
        return pf_fail(st, PF_E_USAGE, "no session (NULL)");
    int undirected = 0;
    int rc = pf_analytics_engine_options(opt, eopt, &undirected, st);
    if (!rc && undirected)
        rc = pf_fail(st, PF_E_USAGE, "undirected: a session's graph is directed");
    if (!rc && (source < 0 || source >= s->n_user))
        rc = pf_fail(st, PF_E_USAGE, "source %lld is outside 0..%lld", (long long)source,
                     (long long)s->n_user - 1);
    return rc;
}

/* A search's start: the options checked, the CSR (with lengths for an
 * SSSP, the reverse for a BFS) written, eopt set to run on the session's
 * engine. */
static int search_begin(const pf_session *s, int64_t source, const pf_analytics_options *opt,
                        int sssp, pf_graph_options *eopt, session_search *q, pf_status *st)
{
    memset(q, 0, sizeof *q);
    pf_graph_options_init(eopt);
    int rc = search_options(s, source, opt, eopt, st);
    if (!rc)
        rc = search_open(s, sssp, !sssp, q, st);
    eopt->engine = &q->engine;
    eopt->reverse = sssp ? NULL : &q->reverse;
    return rc;
}

/* A search's end: where it succeeded, the engine's name and the times into
 * the solution's fields and the status cleared; q's arrays freed. */
static void search_end(int rc, session_search *q, const char *engine_backend,
                       const pf_graph_times *t, double t0, char backend[16],
                       pf_analytics_times *times, pf_status *st)
{
    if (!rc) {
        memcpy(backend, engine_backend, 16);
        pf_analytics_take_times(t, q->prepare_s, t0, times);
        pf_status_ok(st);
    }
    free(q->head);
    free(q->head_in);
    free(q->weight_i);
    free(q->weight_f);
}

/* BFS distances by user id, the summary, and the parents where asked. */
static int take_bfs(const pf_session *s, int64_t source, const pf_bfs_result *res, int parents,
                    pf_bfs_solution *out, pf_status *st)
{
    const pf_dyn_graph *g = &s->g;
    const int64_t n = s->n_user;
    out->vertices = n;
    out->dist = pf_alloc((size_t)(n ? n : 1), sizeof *out->dist, st);
    out->parent = parents ? pf_alloc((size_t)(n ? n : 1), sizeof *out->parent, st) : NULL;
    if (!out->dist || (parents && !out->parent))
        return PF_E_NOMEM;
    for (int64_t v = 0; v < n; v++) {
        int32_t d = res->dist[pf_session_view_id(s, v)];
        out->dist[v] = d;
        if (parents)
            out->parent[v] = -1;
        if (d >= 0) {
            out->reached++;
            out->checksum += d;
            if (d > out->depth)
                out->depth = d;
        }
    }
    /* Arcs in id order, ends as view ids (a self-loop has no slot). */
    for (int64_t id = 0; id < g->ids; id++) {
        if (g->deleted[id])
            continue;
        int64_t u = pf_session_user_id(s, g->tail_of[id]);
        int64_t w = pf_session_user_id(s, g->head_of[id]);
        if (u < 0 || w < 0 || out->dist[u] < 0)
            continue;
        out->arcs_traversed++;
        if (parents && g->slot_of[id] >= 0 && out->dist[w] == out->dist[u] + 1 &&
            (out->parent[w] < 0 || u < out->parent[w]))
            out->parent[w] = (int32_t)u;
    }
    if (parents)
        out->parent[source] = (int32_t)source;
    return PF_OK;
}

int pf_session_bfs_sized(pf_session *s, int64_t source, const pf_analytics_options *opt,
                         pf_bfs_solution *sol, size_t solution_size, pf_status *st)
{
    double t0 = pf_now();
    pf_bfs_solution full = {0};
    pf_graph_options eopt;
    session_search q;
    int rc = search_begin(s, source, opt, 0, &eopt, &q, st);
    int parents = eopt.parents;
    eopt.parents = 0; /* take_bfs's, by arc id, whatever the engine's arc order */
    pf_bfs_result res = {0};
    if (!rc)
        rc = pf_graph_bfs(&q.csr, (int32_t)pf_session_view_id(s, source), &eopt, &res, st);
    if (!rc)
        rc = take_bfs(s, source, &res, parents, &full, st);
    search_end(rc, &q, res.backend, &res.t, t0, full.backend, &full.times, st);
    if (rc) {
        pf_bfs_solution_free(&full);
        full = (pf_bfs_solution){0};
    }
    pf_bfs_result_free(&res);
    if (solution_size < offsetof(pf_bfs_solution, parent) + sizeof full.parent)
        free(full.parent);
    pf_sized_copy(sol, solution_size, &full, sizeof full, 0);
    return rc;
}

/* SSSP distances by user id (reals for a real network, as the engine
 * gave them) and the summary. */
static int take_sssp(const pf_session *s, const pf_sssp_result *res, pf_sssp_solution *out,
                     pf_status *st)
{
    const int64_t n = s->n_user;
    const int real = res->dist_f != NULL;
    out->vertices = n;
    out->real = real;
    out->dist_i = real ? NULL : pf_alloc((size_t)(n ? n : 1), sizeof *out->dist_i, st);
    out->dist_f = real ? pf_alloc((size_t)(n ? n : 1), sizeof *out->dist_f, st) : NULL;
    if (!out->dist_i && !out->dist_f)
        return PF_E_NOMEM;
    __int128 sum_i = 0;
    int64_t max_i = 0;
    double sum_f = 0, max_f = 0;
    for (int64_t v = 0; v < n; v++) {
        int64_t at = pf_session_view_id(s, v);
        if (real) {
            double d = out->dist_f[v] = res->dist_f[at];
            if (isinf(d))
                continue;
            sum_f += d;
            max_f = d > max_f ? d : max_f;
        } else {
            int64_t d = out->dist_i[v] = res->dist_i[at];
            if (d == INT64_MAX)
                continue;
            sum_i += d;
            max_i = d > max_i ? d : max_i;
        }
        out->reached++;
    }
    out->max_distance = real ? max_f : (double)max_i;
    out->checksum = real ? sum_f : (double)sum_i;
    return PF_OK;
}

int pf_session_sssp_sized(pf_session *s, int64_t source, const pf_analytics_options *opt,
                          pf_sssp_solution *sol, size_t solution_size, pf_status *st)
{
    double t0 = pf_now();
    pf_sssp_solution full = {0};
    pf_graph_options eopt;
    session_search q;
    int rc = search_begin(s, source, opt, 1, &eopt, &q, st);
    pf_sssp_result res = {0};
    if (!rc)
        rc = pf_graph_sssp(&q.csr, (int32_t)pf_session_view_id(s, source), &eopt, &res, st);
    if (!rc)
        rc = take_sssp(s, &res, &full, st);
    search_end(rc, &q, res.backend, &res.t, t0, full.backend, &full.times, st);
    if (rc) {
        pf_sssp_solution_free(&full);
        full = (pf_sssp_solution){0};
    }
    pf_sssp_result_free(&res);
    if (solution_size < offsetof(pf_sssp_solution, dist_f) + sizeof full.dist_f)
        free(full.dist_f);
    pf_sized_copy(sol, solution_size, &full, sizeof full, 0);
    return rc;
}
