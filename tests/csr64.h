/* A CSR matrix of int64 arrays, as the CSR tests generate them, and its
 * arrays narrowed to the 4- or 8-byte integers the array API takes
 * (test_csr.c, test_csr_solve.c). */
#ifndef PF_TEST_CSR64_H
#define PF_TEST_CSR64_H

#include <stdint.h>
#include <stdlib.h>

typedef struct csr64 {
    int64_t n, m;
    int64_t *indptr, *indices, *values;
} csr64;

/* The generators' pseudo-random numbers (a 64-bit LCG's high bits). */
static inline uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static inline void csr64_free(csr64 *a)
{
    free(a->indptr);
    free(a->indices);
    free(a->values);
}

/* `len` elements of `from` as `size`-byte integers (malloc'ed). */
static inline void *narrowed(const int64_t *from, int64_t len, int size)
{
    void *out = malloc((size_t)(len + 1) * (size_t)size);
    for (int64_t k = 0; k < len; k++) {
        if (size == 4)
            ((int32_t *)out)[k] = (int32_t)from[k];
        else
            ((int64_t *)out)[k] = from[k];
    }
    return out;
}

/* Row starts (int32, calloc'ed) of a CSR with n rows of which only the
 * first two hold an entry each: far more vertices than arcs touch, so a
 * network of it is solved as a compact copy. */
static inline int32_t *two_entry_rows(int32_t n)
{
    int32_t *indptr = calloc((size_t)n + 1, sizeof *indptr);
    indptr[1] = 1;
    for (int32_t u = 2; u <= n; u++)
        indptr[u] = 2;
    return indptr;
}

/* Element k of a `size`-byte integer array. */
static inline int64_t element(const void *array, int size, int64_t k)
{
    return size == 4 ? ((const int32_t *)array)[k] : ((const int64_t *)array)[k];
}

#endif
