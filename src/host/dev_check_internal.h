/* What the checking layer's two files share (dev_check.c: devices,
 * buffers, transfers and the max-flow and Floyd-Warshall steps;
 * dev_check_graph.c: the analytics steps): the wrapped device and buffer,
 * and the checks of a buffer's size. */
#ifndef PF_DEV_CHECK_INTERNAL_H
#define PF_DEV_CHECK_INTERNAL_H

#include "../common/status.h"
#include "../device/device.h"

typedef struct checked_dev {
    const pf_device_ops *inner;
    pf_dev *dev;
} checked_dev;

typedef struct checked_buf {
    pf_buf *inner;
    size_t bytes;
} checked_buf;

#define CDEV(d) ((checked_dev *)(void *)(d))
#define CBUF(b) ((checked_buf *)(void *)(b))
#define INNER(b) ((b) ? CBUF(b)->inner : NULL)

/* PF_E_USAGE: "STEP: WHAT". */
static inline int pf_dc_usage(pf_status *st, const char *step, const char *what)
{
    return pf_fail(st, PF_E_USAGE, "%s: %s", step, what);
}

/* buf holds count elements of elem bytes (count >= 0). */
static inline int pf_dc_check_elems(const pf_buf *buf, int64_t count, size_t elem,
                                    const char *step, const char *name, pf_status *st)
{
    if (count < 0)
        return pf_fail(st, PF_E_USAGE, "%s: %lld %s elements", step, (long long)count, name);
    if (!buf)
        return pf_fail(st, PF_E_USAGE, "%s: no %s buffer", step, name);
    if ((uint64_t)count > CBUF(buf)->bytes / elem)
        return pf_fail(st, PF_E_USAGE, "%s: %lld elements of %zu bytes do not fit the %zu-byte "
                       "%s buffer", step, (long long)count, elem, CBUF(buf)->bytes, name);
    return PF_OK;
}
/* t's analytics steps: checked ones where in has them (dev_check_graph.c). */
void pf_dc_graph_table(pf_device_ops *t, const pf_device_ops *in);

#endif
