/* Engines: the sequential highest-label engine and the parallel driver.
 * Both take the residual graph and fill residual capacities, the value and
 * optionally the cut; pf_solve (solve.c) turns residuals into arc flows. */
#ifndef PF_ENGINE_H
#define PF_ENGINE_H

#include <stdint.h>

#include "../common/residual.h"
#include "portaflow.h"

typedef struct pf_engine_out {
    int64_t value;
    int64_t *res;          /* g->arcs residual capacities (caller allocates);
                              a valid flow when want_flow, else a preflow */
    uint8_t *source_side;  /* g->n entries or NULL: 1 = source side of a min cut */
    pf_phase_times times;
    int64_t rounds;        /* pushes (seq) or push-relabel rounds (parallel) */
    int64_t global_relabels;
    int64_t host_pushes;   /* parallel: pushes of the host engine that finished it */
    uint64_t device_bytes;
    char device[160];
} pf_engine_out;

/* Highest-label push-relabel with global and gap relabeling (src/host/engine_seq.c). */
int pf_seq_solve(const pf_residual *g, const pf_solve_options *opt,
                 pf_engine_out *out, pf_status *st);

/* The same engine finishing a solve that another engine began: out->res
 * holds the residual capacities of a preflow (and is updated in place),
 * `excess` its n excesses, with the source's arcs' total below 2^63.
 * Phase 1 goes on from there; the rest is as pf_seq_solve. */
int pf_seq_resume(const pf_residual *g, const int64_t *excess, const pf_solve_options *opt,
                  pf_engine_out *out, pf_status *st);

/* Whether the caller's cancel callback asks the solve to stop. Engines
 * check it between rounds or stretches of work. */
static inline int pf_cancel_requested(const pf_solve_options *opt)
{
    return opt && opt->cancel && opt->cancel(opt->cancel_data);
}

struct pf_device_ops;
/* The parallel push-relabel driver over a device backend (src/host/driver.c).
 * out->res is filled only when opt->want_flow. */
int pf_parallel_solve(const struct pf_device_ops *ops, const pf_residual *g,
                      const pf_solve_options *opt, pf_engine_out *out, pf_status *st);

#endif
