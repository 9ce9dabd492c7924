/* OpenMP for the host-side loops of src/common and src/host: directives
 * that vanish, without a warning, in a serial build, and the thread count
 * a call asks for. */
#ifndef PF_OMP_THREADS_H
#define PF_OMP_THREADS_H

#ifdef _OPENMP
#include <omp.h>
#define PF_OMP(directive) _Pragma(#directive)
#else
#define PF_OMP(directive)
#endif

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

#endif
