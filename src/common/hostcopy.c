/* The threaded host copy and the staging threshold of the GPU backends' big
 * transfers (hostcopy.h). */
#include "hostcopy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "knobs.h"

/* Each thread copies at least this much: below it the fork and join of
 * the team cost more than the copy saves. */
#define PIECE_MIN ((size_t)1 << 20)
/* A few threads saturate the memory bus for a plain copy; more only take
 * cores from whatever else the process runs. */
#define THREADS_MAX 8

void pf_host_copy(void *dst, const void *src, size_t bytes)
{
    int threads = 1;
#ifdef _OPENMP
    size_t pieces = bytes / PIECE_MIN;
    threads = omp_get_max_threads();
    if (threads > THREADS_MAX)
        threads = THREADS_MAX;
    if ((size_t)threads > pieces)
        threads = (int)pieces;
#endif
    if (threads <= 1) {
        memcpy(dst, src, bytes);
        return;
    }
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int t = 0; t < threads; t++) {
        /* Piece borders on 4 KiB, so no two threads fault in one page. */
        size_t begin = (bytes / (size_t)threads * (size_t)t) & ~(size_t)4095;
        size_t end = t == threads - 1 ? bytes
                                      : (bytes / (size_t)threads * (size_t)(t + 1)) &
                                            ~(size_t)4095;
        memcpy((char *)dst + begin, (const char *)src + begin, end - begin);
    }
#endif
}

size_t pf_pinned_min(int *forced)
{
    const pf_knob_values *k = pf_knobs();
    *forced = k->set[PF_KNOB_PINNED] && k->pinned > 0;
    return (uint64_t)k->pinned > SIZE_MAX ? SIZE_MAX : (size_t)k->pinned;
}
