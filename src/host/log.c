/* pf_log: a formatted message to the caller's log callback. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

void pf_log(const pf_logger *log, int level, const char *fmt, ...)
{
    if (!log || !log->fn)
        return;
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    log->fn(log->data, level, message);
}
