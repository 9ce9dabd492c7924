/* The library's messages that are not errors (a fallback to another
 * backend): handed to the caller's log callback (pf_log_fn, portaflow.h),
 * never printed by the library itself. */
#ifndef PF_LOG_H
#define PF_LOG_H

#include "portaflow.h"

typedef struct pf_logger {
    pf_log_fn fn;   /* NULL: the message goes nowhere */
    void *data;
} pf_logger;

/* Formats the message and hands it to log->fn (log may be NULL). */
void pf_log(const pf_logger *log, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
