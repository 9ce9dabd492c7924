/* Status helpers shared by every part of portaflow. */
#ifndef PF_STATUS_H
#define PF_STATUS_H

#include <stddef.h>
#include <stdlib.h>

#include "portaflow.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PF_PRINTF(a, b)
#endif

/* Sets st (if non-NULL) to code + formatted message and returns code, so
 * callers can write `return pf_fail(st, PF_E_INPUT, "...")`. */
int pf_fail(pf_status *st, int code, const char *fmt, ...) PF_PRINTF(3, 4);
void pf_status_ok(pf_status *st);

/* Allocation helpers that fail through a status instead of returning NULL
 * silently. Sizes are checked for overflow. */
void *pf_alloc(size_t count, size_t size, pf_status *st);
void *pf_calloc(size_t count, size_t size, pf_status *st);

/* Grows `old` to count * size bytes (checked for overflow) and returns the
 * block; where that fails, or *ok is already 0, returns `old` untouched
 * and sets *ok to 0. Growing several arrays side by side takes one *ok and
 * one check, and each array keeps a valid block whatever happens. */
void *pf_regrow(void *old, size_t count, size_t size, int *ok);

/* Frees each pointer given (any may be NULL): a structure's arrays in one
 * call instead of one free() a line. C only (a compound literal). */
#define PF_FREE_ALL(...)                                                                 \
    pf_free_each((void *[]){__VA_ARGS__}, sizeof((void *[]){__VA_ARGS__}) / sizeof(void *))
void pf_free_each(void *const *ptrs, size_t count);
/* free(p), then p = NULL: for results their owner may free twice. */
#define PF_FREE_NULL(p) (free(p), (p) = NULL)

#ifdef __cplusplus
}
#endif
#endif
