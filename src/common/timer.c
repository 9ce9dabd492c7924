/* The monotonic wall clock every timing in portaflow reads (timer.h). */
#define _POSIX_C_SOURCE 200809L
#include "timer.h"

#include <time.h>

double pf_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
