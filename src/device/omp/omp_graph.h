/* The OpenMP backend's graph analytics steps (omp_graph.c; semantics in
 * device.h). */
#ifndef PF_OMP_GRAPH_H
#define PF_OMP_GRAPH_H

#include "../device.h"

int ompb_bfs_push(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count, int64_t in_arcs,
                  pf_buf *dist, int32_t level, pf_buf *out, int64_t *out_count,
                  int64_t *out_arcs, pf_status *st);
int ompb_bfs_pull(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t level, pf_buf *flags,
                  int64_t *found, int64_t *found_arcs, pf_status *st);
int ompb_bfs_parents(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                     pf_buf *parent, pf_status *st);
int ompb_sssp_relax(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                    int64_t in_arcs, pf_buf *dist, pf_buf *claim, int32_t step, pf_buf *near,
                    pf_buf *far, int64_t bound_i, double bound_f, int64_t *near_count,
                    int64_t *near_arcs, pf_status *st);
int ompb_sssp_relax_steps(pf_dev *dev, const pf_dev_csr *g, pf_buf *const list[2],
                          pf_buf *counts, int32_t steps, int64_t hint, pf_buf *dist,
                          pf_buf *claim, int32_t step, pf_buf *far, int64_t bound_i,
                          double bound_f, pf_status *st);
int ompb_sssp_far(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, pf_buf *far, int64_t bound_i,
                  double bound_f, pf_buf *out, pf_sssp_far_out *res, pf_status *st);
/* omp_sssp.c: delta-stepping with bucket fusion, the whole search. */
int ompb_sssp_solve(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                    int64_t delta_i, double delta_f, double max_weight, int64_t *rounds,
                    pf_status *st);
/* omp_push_levels.c: push levels in one team. */
int ompb_bfs_push_levels(pf_dev *dev, const pf_dev_csr *g, pf_buf *const list[2],
                         int64_t count, int64_t in_arcs, pf_buf *dist, int32_t level,
                         int32_t levels, int64_t unexplored, int32_t alpha,
                         int64_t least_pull, int64_t *found, double *seconds, int32_t *done,
                         pf_status *st);
int ompb_intersect_count(pf_dev *dev, const pf_dev_csr *g, int64_t *total, pf_status *st);

#endif
