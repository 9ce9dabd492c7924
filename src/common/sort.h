/* qsort orders shared across common: int64 values, and (id, at) pairs of
 * int64 by id, then by at (an id and the line or change that named it). */
#ifndef PF_SORT_H
#define PF_SORT_H

#include <stdint.h>

typedef struct pf_id_at {
    int64_t id, at;
} pf_id_at;

/* Ascending int64. */
int pf_compare_i64(const void *a, const void *b);
/* Ascending pf_id_at: by id, then by at. */
int pf_compare_id_at(const void *a, const void *b);

#endif
