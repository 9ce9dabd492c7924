/* The hybrid: He & Hong's dynamically tuned CPU + device push-relabel
 * ("Dynamically Tuned Push-Relabel Algorithm for the Maximum Flow Problem
 * on CPU-GPU-Hybrid Platforms", IPDPS 2010), written from the paper's
 * description. Phase 1 runs in stretches (one global-relabel period each)
 * on the host's sequential engine or on a device backend; after every
 * stretch a model of both engines' rates on the current workload, and of
 * the cost of moving the state between them, says where the next stretch
 * runs (hybrid_model.c; hybrid.c: wants_device says how N* is used). The device is opened on a background thread while
 * the host works. The cut and phase 2 are the host's. */
#ifndef PF_HYBRID_H
#define PF_HYBRID_H

#include <stdint.h>

#include "../common/residual.h"
#include "engine.h"
#include "portaflow.h"

struct pf_device_ops;

/* ---- the model (hybrid_model.c) ---------------------------------------- */

/* Rates are vertices processed per second: a discharge on the host, a
 * listed vertex in a device round. A device round over N vertices takes
 * latency + N / throughput (launches and a host round trip, then the
 * vertices at full occupancy), so the device's rate depends on the active
 * count: C_dev(N) = N / (latency + N / throughput). */
typedef struct pf_hybrid_model {
    double c_host;        /* host discharges per second (smoothed); 0: not yet measured */
    double dev_latency;   /* seconds per device round whatever its size */
    double dev_throughput; /* listed vertices per second past the latency; 0: not measured */
    double transfer;      /* T: seconds to move the state (|E| + |V| values) one way */
    double smooth;        /* weight of the newest measurement, 0..1 */
    int64_t start_threshold; /* N* until both engines are measured */
} pf_hybrid_model;

/* A model with nothing measured; the caller then sets dev_latency (the
 * probe copy's round trip) and transfer (the graph's upload rate times the
 * state's bytes) as first guesses, which the measurements replace. */
void pf_hybrid_model_init(pf_hybrid_model *m, int64_t start_threshold);
void pf_hybrid_model_host(pf_hybrid_model *m, int64_t discharges, double seconds);
void pf_hybrid_model_device(pf_hybrid_model *m, int64_t rounds, int64_t listed, double seconds);
void pf_hybrid_model_transfer(pf_hybrid_model *m, double seconds);
/* C_dev at `active` vertices (0 while the device is not measured). */
double pf_hybrid_model_c_dev(const pf_hybrid_model *m, int64_t active);
/* N* = T C_dev C_host / (C_dev - C_host) (He & Hong, Eq. 3), C_dev taken
 * at `active`; infinity when C_dev <= C_host (the device never pays);
 * start_threshold until both rates are known. */
double pf_hybrid_model_threshold(const pf_hybrid_model *m, int64_t active);

/* ---- the solve (hybrid.c) ---------------------------------------------- */

/* One switch of the state between the engines. */
typedef struct pf_hybrid_event {
    double time;        /* seconds since the hybrid began */
    int to_device;      /* 1: host -> device, 0: device -> host */
    int64_t active;     /* active vertices when it switched */
    int64_t work;       /* vertices the stretch before it processed */
    double c_dev, c_host, transfer, threshold; /* the model then (N* may be inf) */
} pf_hybrid_event;

/* Starts opening a device on a background thread: ops's, or with ops NULL
 * the first backend in the registry's order whose device is a GPU (and,
 * with cpu_fallback, the CPU backend where none opens). opt is copied.
 * Then pf_hybrid_solve at most once, and pf_hybrid_end (or _cancel). */
typedef struct pf_hybrid pf_hybrid;
pf_hybrid *pf_hybrid_begin(const struct pf_device_ops *ops, int cpu_fallback,
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
/* Threads for the host's parallel steps (the residual build) while the
 * device opens: `threads` where given, else all but one core, which the
 * opener's thread gets (an OpenMP team waits for its slowest thread). */
int pf_hybrid_host_threads(int threads);
/* Lets go of `open` (the thread closes what it opened) and frees g, the
 * graph given to pf_hybrid_solve (NULL: none was): now, or once the thread
 * no longer reads it, so the caller never waits for a device it did not
 * need. g is zeroed. Also with `open` NULL (g freed). */
void pf_hybrid_end(pf_hybrid *open, pf_residual *g);
/* pf_hybrid_end before any graph was given. */
void pf_hybrid_cancel(pf_hybrid *open);

/* Whether a device still opens or closes on a background thread, which the
 * solve did not wait for (a graph the host finished first). Only after
 * pf_hybrid_detach(1): by default a solve waits for its thread before it
 * returns. A program that detaches ends with _exit when this is non-zero
 * (the CLI: cli.c), so no exit handler runs under a device call. */
void pf_hybrid_detach(int detach);
int pf_hybrid_background_pending(void);

#endif
