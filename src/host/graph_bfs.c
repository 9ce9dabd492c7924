/* BFS on a device backend, direction-optimising as Beamer et al. do:
 * top-down (bfs_push) while the frontier's out-arcs m_f are few against
 * the arcs left to explore m_u, bottom-up (bfs_pull) once m_f > m_u / 15
 * (and m_f > n / 32: see DO_SCAN),
 * and back to top-down once the frontier shrinks below n / 18 vertices.
 * Pulling needs the reverse graph: the graph itself when undirected, else
 * its transpose, built on the host (also what the parents step reads).
 * One host round trip per level (the frontier size decides the next
 * step), but where the backend runs push levels back to back
 * (bfs_push_levels: the CPU's one team), it stops only to pull; the
 * levels' sizes and times are kept for --stats. A small graph (at most
 * PF_GRAPH_SMALL vertices) without --parents runs its levels as batched
 * device steps instead, those of SSSP (graph_sssp.c), every arc weighing
 * one: its levels have sizes but no times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
#include "../common/timer.h"
#include "graph.h"

/* A pull level reads every vertex's distance whatever the frontier, so
 * it pays only for a frontier whose out-arcs are also past n / DO_SCAN:
 * at the end of a deep graph's search (a lattice's far corner) m_u is
 * small enough for the alpha test to pull every last level, at a pass
 * over n each, where pushing a few thousand arcs costs far less. */
enum { DO_ALPHA = 15, DO_BETA = 18, DO_SCAN = 32 };

/* Push levels a backend runs back to back (bfs_push_levels) per call. */
enum { LEVELS_BATCH = 1024 };

typedef struct bfs_state {
    pf_graph_engine *e;
    pf_dev_csr d;
    pf_buf *dist, *list[2], *flags, *parent;
    int64_t found[2 * LEVELS_BATCH]; /* bfs_push_levels' answers */
    double seconds[LEVELS_BATCH];
} bfs_state;

static int add_level(pf_bfs_result *res, int64_t vertices, int64_t arcs, double seconds,
                     int pull, pf_status *st)
{
    if ((res->level_count & (res->level_count - 1)) == 0) { /* 0, 1, 2, 4, ...: grow */
        int32_t cap = res->level_count ? 2 * res->level_count : 1;
        pf_bfs_level *grown = realloc(res->levels, (size_t)cap * sizeof *grown);
        if (!grown)
            return pf_fail(st, PF_E_NOMEM, "out of host memory for BFS level statistics");
        res->levels = grown;
    }
    res->levels[res->level_count++] =
        (pf_bfs_level){.vertices = vertices, .arcs = arcs, .seconds = seconds, .pull = pull};
    return PF_OK;
}

static int alloc_state(bfs_state *s, const pf_csr *g, int parents, pf_status *st)
{
    size_t vbytes = (size_t)g->n * sizeof(int32_t);
    int rc = pf_graph_buf(s->e, vbytes, &s->dist, st);
    for (int i = 0; !rc && i < 2; i++)
        rc = pf_graph_buf(s->e, vbytes, &s->list[i], st);
    if (!rc && s->d.rfirst)
        rc = pf_graph_buf(s->e, vbytes, &s->flags, st);
    if (!rc && parents)
        rc = pf_graph_buf(s->e, vbytes, &s->parent, st);
    return rc;
}

static void free_state(bfs_state *s)
{
    pf_buf *bufs[] = {s->dist, s->list[0], s->list[1], s->flags, s->parent};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        if (bufs[i])
            s->e->ops->release(s->e->dev, bufs[i]);
    if (s->d.first)
        pf_graph_release(s->e, &s->d);
}

/* Push levels on the device, one after another, until one finds nothing
 * or its frontier is heavy enough to pull (can_pull); *level is then the
 * last level run, the frontier (*count vertices, *m_f arcs) in
 * list[*cur]. */
static int push_levels(bfs_state *s, int32_t *level, int *cur, int64_t *count, int64_t *m_f,
                       int64_t *m_u, int can_pull, pf_bfs_result *res, pf_status *st)
{
    pf_buf *lists[2] = {s->list[*cur], s->list[1 - *cur]};
    int32_t done = 0;
    int rc = s->e->ops->bfs_push_levels(s->e->dev, &s->d, lists, *count, *m_f, s->dist, *level,
                                        LEVELS_BATCH, *m_u, can_pull ? DO_ALPHA : 0,
                                        s->d.n / DO_SCAN, s->found, s->seconds, &done, st);
    for (int32_t k = 0; !rc && k < done; k++) {
        *count = s->found[2 * k];
        *m_f = s->found[2 * k + 1];
        *m_u -= *m_f;
        if (*count > 0)
            rc = add_level(res, *count, *m_f, s->seconds[k], 0, st);
    }
    *cur = (*cur + done) % 2;
    *level += done - 1;
    return rc;
}

/* The levels, from the source alone at level 0. */
static int run_levels(bfs_state *s, const pf_csr *g, int32_t source, int push_only,
                      pf_bfs_result *res, pf_status *st)
{
    const pf_device_ops *ops = s->e->ops;
    pf_dev *dev = s->e->dev;
    int32_t zero = 0;
    int rc = ops->fill_i32(dev, s->dist, -1, g->n, st);
    if (!rc)
        rc = ops->upload(dev, s->dist, (size_t)source * 4, &zero, 4, st);
    if (!rc)
        rc = ops->upload(dev, s->list[0], 0, &source, 4, st);
    int64_t count = 1, m_f = g->first[source + 1] - g->first[source];
    int64_t m_u = g->m - m_f;
    int pull = 0, cur = 0, can_pull = s->d.rfirst != NULL && !push_only;
    for (int32_t level = 0; !rc && count > 0; level++) {
        if ((rc = pf_graph_cancelled(&s->e->cancel, st)))
            break;
        double t0 = pf_now();
        int64_t next = 0, arcs = 0;
        if (!pull && can_pull && m_f > m_u / DO_ALPHA && m_f > g->n / DO_SCAN)
            pull = 1;
        if (!pull && ops->bfs_push_levels) { /* until pulling pays, on the device */
            rc = push_levels(s, &level, &cur, &count, &m_f, &m_u, can_pull, res, st);
            continue;
        }
        int pulled = pull;
        if (pull) {
            rc = ops->bfs_pull(dev, &s->d, s->dist, level, s->flags, &next, &arcs, st);
            if (!rc && next > 0 && next < g->n / DO_BETA && next < count) {
                int64_t listed = 0; /* back to top-down: the frontier as a list */
                rc = ops->filter_i32(dev, s->flags, s->list[cur], g->n, &listed, st);
                pull = 0;
            }
        } else {
            rc = ops->bfs_push(dev, &s->d, s->list[cur], count, m_f, s->dist, level,
                               s->list[1 - cur], &next, &arcs, st);
            cur = 1 - cur;
        }
        m_u -= arcs;
        m_f = arcs;
        count = next;
        if (!rc && count > 0)
            rc = add_level(res, count, arcs, pf_now() - t0, pulled, st);
    }
    return rc;
}

/* reached, depth, checksum and the arcs out of reached vertices, into the
 * result pf_graph_bfs zeroed. */
static void bfs_summary(const pf_csr *g, pf_bfs_result *res)
{
    for (int64_t v = 0; v < g->n; v++) {
        int32_t d = res->dist[v];
        if (d < 0)
            continue;
        res->reached++;
        res->checksum += d;
        res->depth = d > res->depth ? d : res->depth;
        res->arcs_traversed += g->first[v + 1] - g->first[v];
    }
}

/* The levels of a search whose steps ran in batches (no level has a time
 * of its own): each distance's vertices and their out-degrees. */
static int batched_levels(const pf_csr *g, pf_bfs_result *res, pf_status *st)
{
    int32_t depth = 0;
    for (int64_t v = 0; v < g->n; v++)
        depth = res->dist[v] > depth ? res->dist[v] : depth;
    int64_t *count = calloc(2 * ((size_t)depth + 1), sizeof *count);
    if (!count)
        return pf_fail(st, PF_E_NOMEM, "out of host memory for BFS level statistics");
    int64_t *arcs = count + depth + 1;
    for (int64_t v = 0; v < g->n; v++)
        if (res->dist[v] >= 0) {
            count[res->dist[v]]++;
            arcs[res->dist[v]] += g->first[v + 1] - g->first[v];
        }
    int rc = PF_OK;
    for (int32_t k = 1; !rc && k <= depth; k++)
        rc = add_level(res, count[k], arcs[k], 0, 2, st);
    free(count);
    return rc;
}

/* A small graph without --parents: one bucket of the SSSP bucket steps
 * with every arc weighing 1 (pf_graph_hops_on_device), whose steps are the
 * levels, batched without a round trip each. */
static int batched_bfs(pf_graph_engine *e, const pf_csr *g, int32_t source, pf_bfs_result *res,
                       pf_status *st)
{
    pf_dev_csr d;
    int rc = pf_graph_upload_timed(e, g, NULL, 0, &d, &res->t.upload_s, st);
    int64_t *hops = rc ? NULL : pf_alloc((size_t)g->n, sizeof *hops, st);
    res->dist = rc ? NULL : pf_alloc((size_t)g->n, sizeof *res->dist, st);
    if (!rc && (!hops || !res->dist))
        rc = PF_E_NOMEM;
    int64_t steps = 0;
    if (!rc)
        rc = pf_graph_hops_on_device(e, &d, source, hops, &steps, &res->t, st);
    for (int64_t v = 0; !rc && v < g->n; v++)
        res->dist[v] = hops[v] == INT64_MAX ? -1 : (int32_t)hops[v];
    free(hops);
    if (d.first)
        pf_graph_release(e, &d);
    return rc ? rc : batched_levels(g, res, st);
}

static int device_bfs(pf_graph_engine *e, const pf_csr *g, int32_t source,
                      const pf_graph_options *opt, pf_bfs_result *res, pf_status *st)
{
    if (g->n <= PF_GRAPH_SMALL && !opt->parents && e->ops->sssp_bucket_steps)
        return batched_bfs(e, g, source, res, st);
    bfs_state s = {.e = e};
    double t0 = pf_now();
    pf_csr *transposed = NULL;
    const pf_csr *rev = g;
    if (!g->undirected && (opt->parents || !opt->push_only) && opt->reverse) {
        rev = opt->reverse;
    } else if (!g->undirected && (opt->parents || !opt->push_only)) {
        transposed = pf_csr_transpose(g, st);
        if (!transposed)
            return st->code;
        rev = transposed;
    } else if (!g->undirected) {
        rev = NULL;
    }
    double t1 = pf_now();
    res->t.prepare_s = t1 - t0;
    int rc = pf_graph_upload(e, g, rev, 0, &s.d, st);
    pf_csr_free(transposed);
    if (!rc)
        rc = alloc_state(&s, g, opt->parents, st);
    if (!rc)
        rc = e->ops->sync(e->dev, st);
    double t2 = pf_now();
    res->t.upload_s = t2 - t1;
    if (!rc)
        rc = run_levels(&s, g, source, opt->push_only, res, st);
    if (!rc && opt->parents)
        rc = e->ops->bfs_parents(e->dev, &s.d, s.dist, source, s.parent, st);
    if (!rc)
        rc = e->ops->sync(e->dev, st);
    double t3 = pf_now();
    res->t.kernel_s = t3 - t2;
    size_t vbytes = (size_t)g->n * sizeof(int32_t);
    res->dist = rc ? NULL : pf_alloc((size_t)g->n, sizeof *res->dist, st);
    res->parent = rc || !opt->parents ? NULL : pf_alloc((size_t)g->n, sizeof *res->parent, st);
    if (!rc && (!res->dist || (opt->parents && !res->parent)))
        rc = PF_E_NOMEM;
    if (!rc)
        rc = e->ops->download(e->dev, s.dist, 0, res->dist, vbytes, st);
    if (!rc && opt->parents)
        rc = e->ops->download(e->dev, s.parent, 0, res->parent, vbytes, st);
    res->t.download_s = pf_now() - t3;
    free_state(&s);
    return rc;
}

int pf_graph_bfs(const pf_csr *g, int32_t source, const pf_graph_options *opt,
                 pf_bfs_result *res, pf_status *st)
{
    memset(res, 0, sizeof *res);
    pf_graph_engine e;
    int rc = pf_graph_check_source(g, source, st);
    if (!rc)
        rc = pf_graph_engine_open_timed(opt, &e, &res->t.open_s, res->backend, st);
    if (rc)
        return rc;
    rc = e.ops ? device_bfs(&e, g, source, opt, res, st)
               : pf_graph_seq_bfs(g, source, opt->parents, &e.cancel, res, st);
    pf_graph_engine_close(&e);
    if (!rc)
        bfs_summary(g, res);
    if (!rc)
        pf_status_ok(st);
    else
        pf_bfs_result_free(res);
    return rc;
}

void pf_bfs_result_free(pf_bfs_result *res)
{
    PF_FREE_NULL(res->dist);
    PF_FREE_NULL(res->parent);
    PF_FREE_NULL(res->levels);
    res->level_count = 0;
}
