/* Checks of BFS and SSSP answers that do not trust the solver that made
 * them (graph_verify.c). Failures are PF_E_VERIFY naming the first vertex
 * or arc that breaks a rule (1-based ids). */
#ifndef PF_GRAPH_VERIFY_H
#define PF_GRAPH_VERIFY_H

#include <stdint.h>

#include "graph_csr.h"

/* BFS distances: dist[v] hops from the source, -1 where unreached. */
#define PF_BFS_UNREACHED (-1)

/* The Graph500 validator's rules: dist[source] = 0; an arc (u,v) from a
 * reached u leads to a reached v with dist[v] <= dist[u] + 1; every reached
 * v but the source has an arc from a vertex one level lower. With parents
 * (may be NULL): parent[source] = source, parent[v] = -1 exactly where v is
 * unreached, otherwise (parent[v], v) is an arc and parent[v] is one level
 * lower, so following parents strictly lowers the level: the parent tree
 * has no cycle. With smallest also: parent[v] is the smallest such vertex
 * (the rule every portaflow engine follows). */
int pf_bfs_verify(const pf_csr *g, int32_t source, const int32_t *dist, const int32_t *parent,
                  int smallest, pf_status *st);

/* SSSP distances, integer (dist_i, PF_SSSP_NONE_I64 where unreached) or
 * real (dist_f, +infinity where unreached); pass the other NULL. Rules:
 * d(source) = 0; no arc from a reached u can shorten d(v) (v is reached
 * and d(v) <= d(u) + w); every finite d(v), v != source, equals d(u) + w
 * for some arc (u,v) from a reached u. Real sums are compared as the
 * solvers compute them: d(u) + w rounded once. */
#define PF_SSSP_NONE_I64 INT64_MAX
int pf_sssp_verify(const pf_csr *g, int32_t source, const int64_t *dist_i, const double *dist_f,
                   pf_status *st);

#endif
