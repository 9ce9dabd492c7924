/* pf_solve with hooks at its turning points, for callers inside the
 * library that read the residual graph the solve builds before it goes
 * (csr_solve.c: scipy's flow matrix read off the residual lists). */
#ifndef PF_SOLVE_HOOKS_H
#define PF_SOLVE_HOOKS_H

#include <stdint.h>

#include "../common/residual.h"
#include "portaflow.h"

typedef struct pf_solve_hooks {
    /* An engine is about to run on g (built, or rebuilt for it, in its
     * order; the engines only read g), or with g NULL on a residual graph
     * its device builds itself (engine.h: pf_parallel_solve_network).
     * host_busy: the engine keeps every host core busy (a host-CPU
     * backend on many threads). */
    void (*engine_start)(void *data, const pf_residual *g, int host_busy);
    /* The solve succeeded: g and its residuals res (g->arcs of them),
     * before either goes; not called where the device built the graph
     * (the arc flows are the solution's). Non-zero (st set) fails the
     * solve. */
    int (*solved)(void *data, const pf_residual *g, const int64_t *res, pf_status *st);
    /* g is about to be freed or rebuilt: whatever reads it must stop. */
    void (*release)(void *data, const pf_residual *g);
    void *data;
    /* NULL, or where the first backend's device builds the graph itself
     * (g NULL above), its wish for the flow matrix made there; made or
     * not, the caller reads it after the solve. */
    struct pf_matrix_request *matrix;
} pf_solve_hooks;

/* pf_solve, calling `hooks` on the residual graph of net itself. A
 * network solved as a compact copy (network_compact.c) is solved without
 * them: its residual graph numbers the vertices otherwise. */
int pf_solve_hooked(const pf_network *net, const pf_solve_options *opt, pf_solution *sol,
                    const pf_solve_hooks *hooks, pf_status *st);

#endif
