/* The sequential highest-label push-relabel engine (seq_engine.c): the
 * seq backend's whole max-flow solve, and the host side of the hybrid
 * (src/host/hybrid.c), in stretches on a preflow another engine left. */
#ifndef PF_SEQ_ENGINE_H
#define PF_SEQ_ENGINE_H

#include <stdint.h>

#include "../../common/residual.h"
#include "../device.h"

/* Highest-label push-relabel with global and gap relabeling. */
int pf_seq_solve(const pf_residual *g, const pf_solve_options *opt, pf_engine_out *out,
                 pf_status *st);

/* Boykov and Kolmogorov's augmenting paths over two search trees
 * (seq_bk.c): a flow in out->res (no preflow), the canonical cut. With
 * may_give_up it stops once its work passes a bound that segmentation
 * networks stay well inside (long augmenting paths: push-relabel's
 * networks): *gave_up = 1, PF_OK, out->times its time, the rest of out
 * unset. */
int pf_seq_bk_solve(const pf_residual *g, const pf_solve_options *opt, int may_give_up,
                    pf_engine_out *out, int *gave_up, pf_status *st);
/* Whether the seq backend's whole solve of g runs pf_seq_bk_solve: the
 * method asks for it, or auto and g is shaped like a segmentation
 * (src/common/shape.h). */
int pf_seq_takes_bk(const pf_residual *g, const pf_solve_options *opt);

/* The same engine in stretches, for the hybrid (src/host/hybrid.c), which
 * moves the preflow between it and a device: open over the residuals `res`
 * (the caller's array, updated in place; filled with the capacities and the
 * source's arcs saturated), then stretches; between two stretches the
 * caller may change `res` and hand new excesses to pf_seq_run_load (a
 * preflow another engine left). A stretch starts with a global relabel
 * (exact labels: nothing about heights crosses a switch) unless the last
 * one stopped on its budget with no relabel due and no load since, and
 * discharges until the next global relabel is due, or `budget` discharges
 * (<= 0: no bound). Active counts are vertices with excess and a label below n. */
typedef struct pf_seq_run pf_seq_run;
typedef struct pf_seq_stretch {
    int64_t active_before; /* after the stretch's global relabel; 0: phase 1 is over */
    int64_t active;        /* when it stopped; 0: phase 1 is over */
    int64_t excess_before; /* the active vertices' excess then */
    int64_t excess;        /* ... and when it stopped */
    int64_t discharges;
    double seconds;        /* the relabel included */
} pf_seq_stretch;
int pf_seq_run_open(const pf_residual *g, int64_t *res, const pf_solve_options *opt,
                    pf_seq_run **run, pf_status *st);
/* The same over residuals `res` that already hold a preflow (a session's,
 * after a change to the graph), with its excesses: nothing is refilled. */
int pf_seq_run_open_preflow(const pf_residual *g, int64_t *res, const int64_t *excess,
                            const pf_solve_options *opt, pf_seq_run **run, pf_status *st);
/* Phase 1 again on a run kept from an earlier solve of the same graph (a
 * session's: g's arrays may have moved, its vertices and terminals are
 * the same), from the preflow that res and excess hold and from the run's
 * own labels, which must be valid for it (label[u] <= label[v] + 1 on
 * every residual arc u->v; n: cut off from the sink): no global relabel,
 * and no arrays allocated. The caller keeps the labels valid across its
 * changes to the graph (src/host/session_labels.c). */
int pf_seq_run_resume(pf_seq_run *run, const pf_residual *g, int64_t *res, const int64_t *excess,
                      const pf_solve_options *opt, pf_status *st);
/* The run's labels (g->n of them), valid for its residuals once a stretch
 * reported 0 active, and after pf_seq_run_finish. */
int32_t *pf_seq_run_labels(pf_seq_run *run);
/* Host memory the run holds. */
uint64_t pf_seq_run_bytes(const pf_seq_run *run);
void pf_seq_run_load(pf_seq_run *run, const int64_t *excess);
int pf_seq_run_stretch(pf_seq_run *run, int64_t budget, pf_seq_stretch *out, pf_status *st);
/* Every vertex's excess (the source's is not tracked: 0). */
void pf_seq_run_excess(const pf_seq_run *run, int64_t *excess);
/* Once a stretch reported 0 active: the cut and, for want_flow, phase 2,
 * as pf_seq_solve; out->res is the array given to pf_seq_run_open. */
int pf_seq_run_finish(pf_seq_run *run, pf_engine_out *out, pf_status *st);
void pf_seq_run_free(pf_seq_run *run);

#endif
