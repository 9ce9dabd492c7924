/* Status helpers shared by every part of portaflow. */
#ifndef PF_STATUS_H
#define PF_STATUS_H

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

#ifdef __cplusplus
}
#endif
#endif
