/* Independent checks of BFS and SSSP answers (graph_verify.h): one pass
 * over the arcs, a mark per vertex that some arc justifies its distance. */
#include "graph_verify.h"

#include <math.h>
#include <stdlib.h>

#include "status.h"

#define ID(v) ((long long)(v) + 1)

static int bfs_arcs(const pf_csr *g, const int32_t *dist, const int32_t *parent, int smallest,
                    uint8_t *justified, pf_status *st)
{
    for (int64_t u = 0; u < g->n; u++) {
        if (dist[u] == PF_BFS_UNREACHED)
            continue;
        for (int64_t a = g->first[u]; a < g->first[u + 1]; a++) {
            int32_t v = g->head[a];
            if (dist[v] == PF_BFS_UNREACHED || dist[v] > dist[u] + 1)
                return pf_fail(st, PF_E_VERIFY, "arc (%lld,%lld): level %d to %s", ID(u), ID(v),
                               dist[u], dist[v] == PF_BFS_UNREACHED ? "unreached" : "deeper");
            if (dist[v] != dist[u] + 1)
                continue;
            justified[v] |= 1;
            if (parent && parent[v] == u)
                justified[v] |= 2;
            if (parent && smallest && parent[v] > u)
                return pf_fail(st, PF_E_VERIFY, "vertex %lld has parent %lld, but %lld is a "
                               "smaller one a level lower", ID(v), ID(parent[v]), ID(u));
        }
    }
    return PF_OK;
}

int pf_bfs_verify(const pf_csr *g, int32_t source, const int32_t *dist, const int32_t *parent,
                  int smallest, pf_status *st)
{
    if (dist[source] != 0)
        return pf_fail(st, PF_E_VERIFY, "the source %lld is at level %d, not 0", ID(source),
                       dist[source]);
    if (parent && parent[source] != source)
        return pf_fail(st, PF_E_VERIFY, "the source's parent is %lld, not itself",
                       ID(parent[source]));
    uint8_t *justified = pf_calloc((size_t)g->n, 1, st);
    if (!justified)
        return PF_E_NOMEM;
    int rc = bfs_arcs(g, dist, parent, smallest, justified, st);
    for (int64_t v = 0; !rc && v < g->n; v++) {
        if (v == source)
            continue;
        if (dist[v] < PF_BFS_UNREACHED || (dist[v] == 0))
            rc = pf_fail(st, PF_E_VERIFY, "vertex %lld has level %d", ID(v), dist[v]);
        else if (dist[v] == PF_BFS_UNREACHED && parent && parent[v] != -1)
            rc = pf_fail(st, PF_E_VERIFY, "unreached vertex %lld has parent %lld", ID(v),
                         ID(parent[v]));
        else if (dist[v] != PF_BFS_UNREACHED && !(justified[v] & 1))
            rc = pf_fail(st, PF_E_VERIFY, "vertex %lld at level %d has no arc from level %d",
                         ID(v), dist[v], dist[v] - 1);
        else if (dist[v] != PF_BFS_UNREACHED && parent && !(justified[v] & 2))
            rc = pf_fail(st, PF_E_VERIFY, "vertex %lld at level %d: its parent %lld is no "
                         "in-neighbour a level lower", ID(v), dist[v], ID(parent[v]));
    }
    free(justified);
    return rc;
}

/* d(u) + w as the solvers compute it; saturates for integers (a sum past
 * the int64 range cannot be a distance anyway). */
static int64_t add_i(int64_t d, int64_t w)
{
    int64_t s;
    return __builtin_add_overflow(d, w, &s) ? (w > 0 ? INT64_MAX - 1 : INT64_MIN) : s;
}

int pf_sssp_verify(const pf_csr *g, int32_t source, const int64_t *dist_i, const double *dist_f,
                   pf_status *st)
{
#define REACHED(v) (dist_i ? dist_i[v] != PF_SSSP_NONE_I64 : !isinf(dist_f[v]))
    if (dist_i ? dist_i[source] != 0 : dist_f[source] != 0)
        return pf_fail(st, PF_E_VERIFY, "d(source %lld) is not 0", ID(source));
    uint8_t *justified = pf_calloc((size_t)g->n, 1, st);
    if (!justified)
        return PF_E_NOMEM;
    int rc = PF_OK;
    for (int64_t u = 0; !rc && u < g->n; u++) {
        if (!REACHED(u))
            continue;
        for (int64_t a = g->first[u]; !rc && a < g->first[u + 1]; a++) {
            int32_t v = g->head[a];
            if (!REACHED(v)) {
                rc = pf_fail(st, PF_E_VERIFY, "arc (%lld,%lld) leaves reached %lld for "
                             "unreached %lld", ID(u), ID(v), ID(u), ID(v));
                break;
            }
            int shorter, equal;
            if (dist_i) {
                int64_t via = add_i(dist_i[u], pf_csr_weight_i(g, a));
                shorter = via < dist_i[v];
                equal = via == dist_i[v];
            } else {
                double via = dist_f[u] + pf_csr_weight_f(g, a);
                shorter = via < dist_f[v];
                equal = via == dist_f[v];
            }
            if (shorter)
                rc = pf_fail(st, PF_E_VERIFY, "arc (%lld,%lld) shortens d(%lld)", ID(u), ID(v),
                             ID(v));
            if (equal)
                justified[v] = 1;
        }
    }
    for (int64_t v = 0; !rc && v < g->n; v++)
        if (v != source && REACHED(v) && !justified[v])
            rc = pf_fail(st, PF_E_VERIFY, "d(%lld) is realised by no arc from a reached vertex",
                         ID(v));
#undef REACHED
    free(justified);
    return rc;
}
