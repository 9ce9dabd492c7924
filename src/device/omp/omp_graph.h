/* The OpenMP backend's graph analytics steps (omp_graph.c; semantics in
 * device.h). */
#ifndef PF_OMP_GRAPH_H
#define PF_OMP_GRAPH_H

#include "../device.h"

pf_bfs_push_fn ompb_bfs_push;
pf_bfs_pull_fn ompb_bfs_pull;
pf_bfs_parents_fn ompb_bfs_parents;
pf_sssp_relax_fn ompb_sssp_relax;
pf_sssp_far_fn ompb_sssp_far;
/* omp_sssp.c: delta-stepping with bucket fusion, the whole search. */
pf_sssp_solve_fn ompb_sssp_solve;
/* omp_push_levels.c: push levels in one team. */
pf_bfs_push_levels_fn ompb_bfs_push_levels;
pf_intersect_count_fn ompb_intersect_count;

/* The team a BFS or SSSP step on g runs with (omp_graph.c). */
int ompb_traversal_team(const pf_dev *dev, const pf_dev_csr *g);

#endif
