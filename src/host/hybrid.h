/* The hybrid: He & Hong's dynamically tuned CPU + device push-relabel
 * ("Dynamically Tuned Push-Relabel Algorithm for the Maximum Flow Problem
 * on CPU-GPU-Hybrid Platforms", IPDPS 2010), written from the paper's
 * description. Phase 1 runs in stretches (one global-relabel period each)
 * on the host's sequential engine or on a device backend; after every
 * stretch a model of both engines' rates of progress, and of the cost of
 * moving the state between them, says where the next stretch runs
 * (hybrid_model.c; hybrid.c: wants_device). The device is opened on a
 * background thread while the host works. The cut and phase 2 are the
 * host's. */
#ifndef PF_HYBRID_H
#define PF_HYBRID_H

#include <stdint.h>

#include "../common/residual.h"
#include "engine.h"
#include "portaflow.h"

struct pf_device_ops;

/* ---- the model (hybrid_model.c) ---------------------------------------- */

/* Progress is measured in the active vertices' excess A (what phase 1 has
 * still to move to the sink or find cut off), on the scale L = ln(1 + A):
 * a stretch's rate is the drop in L per second. The logarithm makes rates
 * measured at different stages comparable (a stretch retires a share of
 * what is left rather than a fixed amount), so the host's rate from before
 * a switch can stand against the device's after it; and what is left to
 * do is L itself. Vertices processed per second, the first measure tried,
 * compared a seq discharge with a device round's vertex, which move very
 * different amounts of excess (bench/NOTES.md 35).
 *
 * The device's rate depends on its active count N: a round over N
 * vertices takes latency + N / throughput (launches and a host round trip,
 * then the vertices at full occupancy), so it is kept as progress per
 * listed vertex times the vertices per second at N. */
typedef struct pf_hybrid_model {
    double host_rate;      /* host: drop in L per second (smoothed) */
    double dev_per_listed; /* device: drop in L per listed vertex (smoothed) */
    double dev_latency;    /* seconds per device round whatever its size */
    double dev_throughput; /* listed vertices per second past the latency; 0: not measured */
    double transfer;       /* T: seconds to move the state (|E| + |V| values) one way */
    double smooth;         /* weight of the newest measurement, 0..1 */
    int64_t start_active;  /* active vertices from which the device is first tried */
    double host_progress, host_seconds; /* decaying sums behind host_rate */
    double dev_progress, dev_listed;    /* ... and behind dev_per_listed */
    double level;          /* L when the last stretch ended */
    int level_known;
    int host_measured, dev_measured;
    int dev_unmeasurable;  /* its backend cannot sum the excess: no device rate */
} pf_hybrid_model;

/* A model with nothing measured; the caller then sets dev_latency (the
 * probe copy's round trip) and transfer (the graph's upload rate times the
 * state's bytes) as first guesses, which the measurements replace. */
void pf_hybrid_model_init(pf_hybrid_model *m, int64_t start_active);
/* A host stretch: the active excess after its global relabel and at its
 * end, and its seconds. Its progress is counted from where the last
 * stretch (of either engine) ended, its relabel's cut-offs included. */
void pf_hybrid_model_host(pf_hybrid_model *m, int64_t excess_before, int64_t excess_after,
                          double seconds);
/* A device stretch: `rounds` rounds over `listed` vertices in all, the
 * active excess at its end (-1: not measured), its seconds; its progress
 * counted as the host's. */
void pf_hybrid_model_device(pf_hybrid_model *m, int64_t rounds, int64_t listed,
                            int64_t excess_after, double seconds);
void pf_hybrid_model_transfer(pf_hybrid_model *m, double seconds);
/* The device's drop in L per second at `active` vertices (0: unknown). */
double pf_hybrid_model_dev_rate(const pf_hybrid_model *m, int64_t active);
/* He & Hong's Eq. 3, N* = T C_dev C_host / (C_dev - C_host), with the
 * rates on the L scale and N* a level of active excess: whether the next
 * stretch should run on the device (the state on the host now) or on the
 * host (on the device now), given the active count and excess left. *at
 * gets the threshold the excess was held against (infinity: never; the
 * active count start_active before the device is measured). To the
 * device costs a round trip (2T: the cut and phase 2 are the host's); to
 * the host nothing in the end, but T is asked as a margin. */
int pf_hybrid_model_to_device(const pf_hybrid_model *m, int64_t active, int64_t excess,
                              double *at);
int pf_hybrid_model_to_host(const pf_hybrid_model *m, int64_t active, int64_t excess,
                            double *at);

/* ---- the solve (hybrid.c) ---------------------------------------------- */

/* One switch of the state between the engines. */
typedef struct pf_hybrid_event {
    double time;        /* seconds since the hybrid began */
    int to_device;      /* 1: host -> device, 0: device -> host */
    int64_t active;     /* active vertices when it switched */
    int64_t excess;     /* their excess */
    double c_dev, c_host, transfer; /* the model then: rates on the L scale, T */
    double threshold;   /* N*: the excess held against (inf: never) */
} pf_hybrid_event;

/* The host's side of a hybrid with the device `ops` (NULL: auto's GPU):
 * the parallel CPU backend where auto takes it for max-flow with
 * opt->threads (PORTAFLOW_HYBRID_TEAM=on|off: always, never) and the
 * device is not a host CPU backend itself, else NULL (seq alone). Seq
 * also finishes a crawling phase 1, and does the cut and phase 2. */
const struct pf_device_ops *pf_hybrid_team_for(const struct pf_device_ops *ops,
                                               const pf_solve_options *opt);
/* The arc order a hybrid's residual graph is built in: seq's where seq
 * is the host's engine, else the parallel driver's (the team's and the
 * device's, which then share it without a copy). */
pf_arc_order pf_hybrid_graph_order(const struct pf_device_ops *team);

/* Starts opening a device on a background thread: ops's, or with ops NULL
 * the first backend in the registry's order whose device is a GPU (and,
 * with PF_HYBRID_CPU_FALLBACK, the CPU backend where none opens and the
 * host has no team: pf_hybrid_team_for; with PF_HYBRID_UNPROBED, auto's
 * first GPU backend taken without its probe, pf_backend_walk_unprobed,
 * for a process that never forks). opt is copied. Then pf_hybrid_solve at
 * most once, and pf_hybrid_end (or _cancel). */
enum { PF_HYBRID_CPU_FALLBACK = 1, PF_HYBRID_UNPROBED = 2 };
typedef struct pf_hybrid pf_hybrid;
pf_hybrid *pf_hybrid_begin(const struct pf_device_ops *ops, unsigned flags,
                           const pf_solve_options *opt, pf_status *st);

/* Solves h with the host's sequential engine and the device `open` opens,
 * out->res required (residuals of the flow or preflow, as pf_seq_solve).
 * A device that fails to open (no room for the graph included) leaves the
 * solve to the host, with a message on stderr (none where no GPU was
 * found for ops NULL). *events gets the switches (malloc'd, *count of
 * them; NULL when none), *paired the backend's name if its device took a
 * part or was ready, else NULL. Then pf_hybrid_end. */
int pf_hybrid_solve(pf_hybrid *open, const pf_residual *h, const pf_solve_options *opt,
                    pf_engine_out *out, pf_hybrid_event **events, int64_t *count,
                    const char **paired, pf_status *st);
/* Lets go of `open` (the thread closes what it opened) and frees g, the
 * graph given to pf_hybrid_solve (NULL: none was): now, or once the thread
 * no longer reads it, so the caller never waits for a device it did not
 * need. g is zeroed. Also with `open` NULL (g freed). */
void pf_hybrid_end(pf_hybrid *open, pf_residual *g);
/* pf_hybrid_end before any graph was given. */
void pf_hybrid_cancel(pf_hybrid *open);

/* The early open (solve.c): starts opening the device that a solve with
 * `opt` would pair, or, without the hybrid, its first backend's device
 * where PORTAFLOW_DEVICE_OPEN says so, before the caller has the network:
 * the CLI, while it parses. The next solve that pairs or runs the same
 * device takes it over; _cancel lets go of one no solve took (the
 * caller's duty once its solve is over or will not happen). */
void pf_solve_prestart(const pf_solve_options *opt);
/* The same for an input of `vertices` vertices (< 0: not known): with
 * auto, no GPU is opened or probed for a network too small for one
 * (PORTAFLOW_GPU_MIN_VERTICES). */
void pf_solve_prestart_sized(const pf_solve_options *opt, int64_t vertices);
void pf_solve_prestart_cancel(void);

/* Whether a device still opens or closes on a background thread, which the
 * solve did not wait for (a graph the host finished first). Only after
 * pf_hybrid_detach(1): by default a solve waits for its thread before it
 * returns. A program that detaches ends with _exit when this is non-zero
 * (the CLI: cli.c), so no exit handler runs under a device call. */
void pf_hybrid_detach(int detach);
int pf_hybrid_background_pending(void);

#endif
