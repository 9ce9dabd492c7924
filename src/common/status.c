/* pf_fail and the allocation helpers that fail through a status (status.h). */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int pf_fail(pf_status *st, int code, const char *fmt, ...)
{
    if (st) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->message, sizeof st->message, fmt, ap);
        va_end(ap);
        st->code = code;
    }
    return code;
}

void pf_status_ok(pf_status *st)
{
    if (st) {
        st->code = PF_OK;
        st->message[0] = '\0';
    }
}

void *pf_alloc(size_t count, size_t size, pf_status *st)
{
    if (size && count > SIZE_MAX / size) {
        pf_fail(st, PF_E_NOMEM, "allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    void *p = malloc(count * size > 0 ? count * size : 1);
    if (!p)
        pf_fail(st, PF_E_NOMEM, "out of host memory (%zu bytes)", count * size);
    return p;
}

void *pf_calloc(size_t count, size_t size, pf_status *st)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        pf_fail(st, PF_E_NOMEM, "out of host memory (%zu x %zu bytes)", count, size);
    return p;
}

void *pf_regrow(void *old, size_t count, size_t size, int *ok)
{
    void *p = *ok && !(size && count > SIZE_MAX / size) ? realloc(old, count * size) : NULL;
    if (!p) {
        *ok = 0;
        return old;
    }
    return p;
}

void pf_free_each(void *const *ptrs, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(ptrs[i]);
}
