/* Sorts shared across the library: qsort orders for int64 values and for
 * (id, at) pairs of int64 by id, then by at (an id and the line or change
 * that named it); a radix sort of such pairs; a search of a sorted row;
 * an inline insertion sort for short rows. */
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

/* Puts v[0 .. len) in ascending order of id, entries of one id in the
 * order they came (ids in 0 .. max_id), by radix: a pass over v per 12
 * bits of max_id, between v and tmp (len entries). Returns whichever of
 * the two holds the result. For the long lists of a batch, where qsort's
 * comparisons through a pointer cost several times as much. */
pf_id_at *pf_radix_sort_id_at(pf_id_at *v, pf_id_at *tmp, int64_t len, int64_t max_id);

/* The first place in v[0 .. len) (ascending) holding x or more; len
 * where none does. */
static inline int64_t pf_lower_bound_i64(const int64_t *v, int64_t len, int64_t x)
{
    int64_t lo = 0, hi = len;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Defines `static inline void NAME(TYPE *v, int64_t len)`, which puts
 * v[0 .. len) in ascending order (by `>`) by insertion: for rows of a few
 * dozen values, where it beats qsort's call through a pointer for every
 * comparison. Inline, so that each hot loop gets its own typed copy. */
#define PF_DEFINE_INSERTION_SORT(NAME, TYPE)                                                   \
    static inline void NAME(TYPE *v, int64_t len)                                              \
    {                                                                                          \
        for (int64_t i = 1; i < len; i++) {                                                    \
            TYPE x = v[i];                                                                     \
            int64_t j = i;                                                                     \
            for (; j > 0 && v[j - 1] > x; j--)                                                 \
                v[j] = v[j - 1];                                                               \
            v[j] = x;                                                                          \
        }                                                                                      \
    }

/* Flow-matrix rows' (head << 32 | place) keys; triangle counting's ranks. */
PF_DEFINE_INSERTION_SORT(pf_insertion_sort_u64, uint64_t)
PF_DEFINE_INSERTION_SORT(pf_insertion_sort_i32, int32_t)

#endif
