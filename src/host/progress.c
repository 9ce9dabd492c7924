#include "progress.h"

#include <stdio.h>

#include "../common/timer.h"

enum { PF_PROGRESS_DELAY_S = 1, PF_PROGRESS_REDRAWS_PER_S = 4 };

void pf_progress_begin(pf_progress *p, int enabled)
{
    p->enabled = enabled;
    p->start = p->last_draw = pf_now();
    p->drawn = 0;
}

int pf_progress_due(pf_progress *p)
{
    if (!p->enabled)
        return 0;
    double now = pf_now();
    return now - p->start >= PF_PROGRESS_DELAY_S &&
           now - p->last_draw >= 1.0 / PF_PROGRESS_REDRAWS_PER_S;
}

void pf_progress_draw(pf_progress *p, const char *phase, int64_t active, int64_t sink_excess,
                      int64_t global_relabels)
{
    double now = pf_now();
    p->last_draw = now;
    p->drawn = 1;
    fprintf(stderr, "\r\033[K%s: %lld active, %lld at target, %lld global relabels, %.1f s",
            phase, (long long)active, (long long)sink_excess, (long long)global_relabels,
            now - p->start);
    fflush(stderr);
}

void pf_progress_end(pf_progress *p)
{
    if (p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->drawn = 0;
}
