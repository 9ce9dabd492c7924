/* qsort orders shared across common (sort.h). */
#include "sort.h"

static int order_i64(int64_t x, int64_t y)
{
    return (x > y) - (x < y);
}

int pf_compare_i64(const void *a, const void *b)
{
    return order_i64(*(const int64_t *)a, *(const int64_t *)b);
}

int pf_compare_id_at(const void *a, const void *b)
{
    const pf_id_at *x = a, *y = b;
    return x->id != y->id ? order_i64(x->id, y->id) : order_i64(x->at, y->at);
}

/* Digits of RADIX_BITS: a count table of 2^RADIX_BITS entries per pass
 * stays in the first-level cache. */
enum { RADIX_BITS = 12, RADIX = 1 << RADIX_BITS };

pf_id_at *pf_radix_sort_id_at(pf_id_at *v, pf_id_at *tmp, int64_t len, int64_t max_id)
{
    int bits = 0;
    while (bits < 63 && ((uint64_t)max_id >> bits) != 0)
        bits++;
    for (int shift = 0; shift < bits; shift += RADIX_BITS) {
        int64_t count[RADIX + 1] = {0};
        for (int64_t i = 0; i < len; i++)
            count[(((uint64_t)v[i].id >> shift) & (RADIX - 1)) + 1]++;
        for (int d = 0; d < RADIX; d++)
            count[d + 1] += count[d];
        for (int64_t i = 0; i < len; i++)
            tmp[count[((uint64_t)v[i].id >> shift) & (RADIX - 1)]++] = v[i];
        pf_id_at *swap = v;
        v = tmp;
        tmp = swap;
    }
    return v;
}
