/* OpenMP for the host-side loops of src/common and src/host: directives
 * that vanish, without a warning, in a serial build, and the thread count
 * a call asks for. */
#ifndef PF_OMP_THREADS_H
#define PF_OMP_THREADS_H

#include "pf_config.h"
#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#define PF_OMP(directive) _Pragma(#directive)
#else
#define PF_OMP(directive)
#endif

/* The team size of the process's later OpenMP regions that name none: the
 * CLI's -t, which must reach the steps before any backend (the parallel
 * DIMACS reader) as well as those the options name it to. */
static inline void pf_omp_default_threads(int threads)
{
#ifdef _OPENMP
    if (threads > 0)
        omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

/* Threads for the host's parallel steps while a device opens on another
 * thread: `threads` where given, else all but one core, which the
 * opener's thread gets (an OpenMP team waits for its slowest thread). */
static inline int pf_threads_beside_opener(int threads)
{
#ifdef _OPENMP
    int all = omp_get_max_threads();
    return threads > 0 ? threads : all > 1 ? all - 1 : 1;
#else
    (void)threads;
    return 1;
#endif
}

/* Starts the OpenMP team of pf_threads_beside_opener(threads) that the
 * calling thread's parallel steps (the residual build) will use, before a
 * device opens on another thread. Threads are created under the dynamic
 * loader's lock, which an opener's dlopen of a driver holds for a long
 * time (a driver that loads a compiler, as PoCL loads LLVM, during which
 * the build would wait for its threads); a team made first is reused. */
static inline void pf_team_start_beside_opener(int threads)
{
#ifdef _OPENMP
    int team = pf_threads_beside_opener(threads);
    if (team < 2)
        return;
    volatile int sink = 0;
#pragma omp parallel num_threads(team)
    sink += 0;
    (void)sink;
#else
    (void)threads;
#endif
}

/* Inside a parallel region: this thread's number and the team's size (the
 * runtime may give fewer threads than asked for); 0 and 1 without
 * OpenMP. */
static inline void pf_team_position(int *t, int *count)
{
#ifdef _OPENMP
    *t = omp_get_thread_num();
    *count = omp_get_num_threads();
#else
    *t = 0;
    *count = 1;
#endif
}

/* threads <= 0 means all of OpenMP's; without OpenMP everything is serial. */
static inline int pf_resolve_threads(int threads)
{
#ifdef _OPENMP
    return threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
    return 1;
#endif
}

/* Below this many elements a one-pass host loop that was given no thread
 * count runs on the calling thread: alone it takes well under a
 * millisecond, less than a team's start and, where a sequential step
 * follows, the interference of the idle workers spinning beside it. */
#define PF_OMP_MIN_TEAM_ITEMS ((int64_t)1 << 17)

/* pf_resolve_threads(threads), or 1 for a loop over fewer than
 * PF_OMP_MIN_TEAM_ITEMS elements when no count was asked for. */
static inline int pf_threads_for_items(int threads, int64_t items)
{
    return threads <= 0 && items < PF_OMP_MIN_TEAM_ITEMS ? 1 : pf_resolve_threads(threads);
}

/* Lets the calling thread's idle OpenMP workers go: after a region,
 * libgomp's workers spin (its default wait policy) for milliseconds, on
 * the cores that a sequential step run next would use. A later region
 * starts a new team. Only for a process whose OpenMP runtime is its own
 * (the CLI's): elsewhere the caller's teams are not ours to end. */
static inline void pf_omp_release_team(void)
{
#if defined(_OPENMP) && PF_HAVE_OMP_PAUSE
    if (!omp_in_parallel())
        (void)omp_pause_resource_all(omp_pause_soft);
#endif
}

#endif
