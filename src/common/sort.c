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
