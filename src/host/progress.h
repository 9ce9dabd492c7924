/* The live status line on stderr (--progress). Redrawn at most a few times
 * a second, only once the solve has run past a second, and cleared at the
 * end; never written to stdout. */
#ifndef PF_PROGRESS_H
#define PF_PROGRESS_H

#include <stdint.h>

typedef struct pf_progress {
    int enabled;
    double start, last_draw;
    int drawn;
} pf_progress;

void pf_progress_begin(pf_progress *p, int enabled);
/* True when a redraw is due (callers skip gathering numbers otherwise). */
int pf_progress_due(pf_progress *p);
void pf_progress_draw(pf_progress *p, const char *phase, int64_t active, int64_t sink_excess,
                      int64_t global_relabels);
void pf_progress_end(pf_progress *p);

#endif
