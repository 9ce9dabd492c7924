/* The sequential highest-label push-relabel engine (seq_engine.c): the
 * seq backend's whole max-flow solve, and the engine that finishes a solve
 * another engine began (the parallel driver's handoff, src/host/driver.c). */
#ifndef PF_SEQ_ENGINE_H
#define PF_SEQ_ENGINE_H

#include <stdint.h>

#include "../../common/residual.h"
#include "../device.h"

/* Highest-label push-relabel with global and gap relabeling. */
int pf_seq_solve(const pf_residual *g, const pf_solve_options *opt, pf_engine_out *out,
                 pf_status *st);

/* The same engine finishing a solve that another engine began: out->res
 * holds the residual capacities of a preflow (and is updated in place),
 * `excess` its n excesses, with the source's arcs' total below 2^63.
 * Phase 1 goes on from there; the rest is as pf_seq_solve. */
int pf_seq_resume(const pf_residual *g, const int64_t *excess, const pf_solve_options *opt,
                  pf_engine_out *out, pf_status *st);

#endif
