/* The parallel push-relabel driver over a backend's max-flow steps. It
 * takes the residual graph and fills residual capacities, the value and
 * optionally the cut (pf_engine_out, device.h), as a backend's whole-solve
 * entry does; pf_solve (solve.c) turns residuals into arc flows. */
#ifndef PF_ENGINE_H
#define PF_ENGINE_H

#include <stdint.h>

#include "../common/residual.h"
#include "../device/device.h"
#include "../device/seq/seq_engine.h"
#include "portaflow.h"

struct pf_device_ops;

/* A GPU backend's device opening on a thread of its own (driver start,
 * context, program load) while the caller builds the residual graph;
 * pf_parallel_solve takes it over. NULL where the backend opens nothing
 * worth overlapping (a host CPU backend, a whole-solve backend) or no
 * thread could start. unprobed: ops was taken without its probe (auto's
 * pf_backend_walk_unprobed); where its open finds no device, the thread
 * goes on to probe the backends auto would try next, so that the
 * fallback after the build finds their answers ready. */
typedef struct pf_early_device pf_early_device;
pf_early_device *pf_parallel_open_early(const struct pf_device_ops *ops,
                                        const pf_solve_options *opt, int unprobed);
/* Joins the opening and closes what it opened, if nobody took it; NULL is
 * fine. */
void pf_parallel_early_free(pf_early_device *early);

/* The parallel push-relabel driver over a device backend (src/host/driver.c),
 * on early's device where early opened this backend's (its failure to
 * open is then this solve's), else on one it opens. out->res is filled
 * only when opt->want_flow. */
int pf_parallel_solve(const struct pf_device_ops *ops, pf_early_device *early,
                      const pf_residual *g, const pf_solve_options *opt, pf_engine_out *out,
                      pf_status *st);

/* Whether ops builds net's residual graph on its device (device.h:
 * build_residual; PORTAFLOW_DEVICE_BUILD): a network of one source and
 * one sink, in arrays or a CSR view, solved in the driver's own arc
 * order. */
int pf_parallel_builds_on_device(const struct pf_device_ops *ops, const pf_network *net);
/* The part of that which needs no network: ops builds residual graphs on
 * its device at all. */
int pf_parallel_can_build_on_device(const struct pf_device_ops *ops);

/* A caller's wish for scipy's flow matrix of a CSR view (csr_flow.h)
 * made where the device built the graph (device.h: flow_matrix), and
 * what came of it. */
typedef struct pf_matrix_request {
    int repeats;          /* PF_CSR_SUM_REPEATS or PF_CSR_KEEP_REPEATS */
    int flows_wanted;     /* the caller wants the arc flows too */
    int made;             /* matrix holds it (the caller frees it) */
    int flows_skipped;    /* made, and the arc flows were not read back */
    pf_csr_matrix matrix;
} pf_matrix_request;

/* pf_parallel_solve where the device builds the residual graph from net
 * itself (pf_parallel_builds_on_device): out->res is not used; with
 * opt->want_flow, arc_flow (net->m) gets the flow on every input arc,
 * but where `matrix` (NULL: none) was made and its caller wants no flows. */
int pf_parallel_solve_network(const struct pf_device_ops *ops, pf_early_device *early,
                              const pf_network *net, const pf_solve_options *opt,
                              pf_engine_out *out, int64_t *arc_flow,
                              pf_matrix_request *matrix, pf_status *st);

/* The caller's options (NULL: defaults; a struct of an earlier API
 * version: its fields, defaults for the rest) as this library's struct. */
void pf_solve_options_copy(const pf_solve_options *in, pf_solve_options *opt);

#endif
