/* Pages and touched lists of the dynamic graph (dyn_graph.h) written from
 * many threads at once (dyn_changes.c, dyn_cover.c): the page marks are
 * single bytes all set to 1, and each thread lists its touches in a
 * buffer of its own that it appends to the graph's list as one block.
 * After the threads are done, pf_dyn_touches_close brings the lists'
 * counts back within their room. The order of the lists then depends on
 * the schedule; what they hold does not. */
#ifndef PF_DYN_TOUCH_H
#define PF_DYN_TOUCH_H

#include <stdint.h>
#include <string.h>

#include "dyn_graph.h"

enum { PF_DYN_TOUCH_BLOCK = 256 };

typedef struct pf_dyn_toucher {
    int32_t item[2][PF_DYN_TOUCH_BLOCK]; /* [0] slots, [1] vertices */
    int count[2];
} pf_dyn_toucher;

static inline void pf_dyn_touches_flush(pf_dyn_graph *d, pf_dyn_toucher *t, int list)
{
    const int64_t k = t->count[list];
    if (k == 0)
        return;
    const int64_t at = __atomic_fetch_add(&d->touched_count[list], k, __ATOMIC_RELAXED);
    const int64_t room = d->touched_cap[list] - at;
    if (room < k)
        __atomic_store_n(&d->touched_full, 1, __ATOMIC_RELAXED);
    if (room > 0)
        memcpy(d->touched[list] + at, t->item[list], (size_t)(room < k ? room : k) * 4);
    t->count[list] = 0;
}

/* Slot (list 0) or vertex (list 1) i marked and listed. */
static inline void pf_dyn_touch_shared(pf_dyn_graph *d, pf_dyn_toucher *t, int list, int64_t i)
{
    uint8_t *pages = list ? d->vertex_dirty : d->dirty;
    __atomic_store_n(&pages[i >> d->page_log2], 1, __ATOMIC_RELAXED);
    if (i > INT32_MAX) {
        __atomic_store_n(&d->touched_full, 1, __ATOMIC_RELAXED);
        return;
    }
    t->item[list][t->count[list]++] = (int32_t)i;
    if (t->count[list] == PF_DYN_TOUCH_BLOCK)
        pf_dyn_touches_flush(d, t, list);
}

/* Once every thread has flushed its buffers. */
static inline void pf_dyn_touches_close(pf_dyn_graph *d)
{
    for (int list = 0; list < 2; list++)
        if (d->touched_count[list] > d->touched_cap[list])
            d->touched_count[list] = d->touched_cap[list];
}

#endif
