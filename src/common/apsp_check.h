/* Internal pieces of the APSP checker (apsp_verify.c) that the solver
 * uses too. */
#ifndef PF_APSP_CHECK_H
#define PF_APSP_CHECK_H

#include <stdint.h>

#include "portaflow.h"

/* Following next (an n x n next-hop matrix, -1 = no path) toward every j
 * from each of `sources` (NULL = every vertex; count of them) ends at j:
 * no hop out of range, no loop. O(n^2): vertices proved to lead to j are
 * remembered per column. PF_E_VERIFY naming the first bad pair otherwise. */
int pf_apsp_next_walks_end(int64_t n, const int32_t *next, const int64_t *sources,
                           int64_t count, pf_status *st);

#endif
