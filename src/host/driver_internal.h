/* The parallel driver's state and steps (driver.c), shared by the whole
 * solve (driver.c) and by the sessions that keep a device open across
 * stretches and solves (driver_session.c). Private to src/host. */
#ifndef PF_DRIVER_INTERNAL_H
#define PF_DRIVER_INTERNAL_H

#include <stdint.h>

#include "../common/progress.h"
#include "../common/residual.h"
#include "../device/device.h"
#include "engine.h"

/* What the driver checks and decides on before the graph goes to the
 * device, read off the host's residual graph or the input network. */
typedef struct drv_facts {
    int64_t supply;      /* the source's residual capacity (INT64_MAX: past it) */
    int total_overflows; /* the capacities sum past 2^63 */
} drv_facts;

typedef struct driver {
    const pf_device_ops *ops;
    pf_dev *dev;
    pf_dev_graph g;
    const pf_residual *host; /* with arrays, or only its sizes where the device
                                built the graph (net set) until a handoff */
    pf_engine_out *out;
    drv_facts facts;
    /* The graph built on the device (driver_build.c): its input, the
     * reverse arc of each input arc there, and the host's copy of the
     * graph and residuals made at a handoff. */
    const pf_network *net;
    pf_buf *input_rev;
    int64_t clamp;        /* the 32-bit path's capacity clamp */
    int64_t input_loops;  /* self-loops among net's arcs */
    /* At a handoff to the host's engine, where the device built the graph:
     * the host's copy made and d->host (driver_build.c), else NULL. */
    int (*host_graph_now)(struct driver *d, pf_status *st);
    pf_residual own_host;
    int64_t *own_res;
    pf_progress progress;
    int32_t cycles;       /* push/relabel operations per vertex per round */
    int async;            /* offer backends the asynchronous discharge (device.h) */
    double gr_alpha;      /* global relabel after alpha * n + arcs / 2 work */
    int64_t gr_max_rounds; /* ... or after this many rounds, whichever first */
    double gr_time;       /* ... or once rounds took this many times the last relabel */
    int32_t gr_hops;      /* levels a launch of the relabel's BFS may go (bfs_levels) */
    double last_gr_seconds; /* wall time of the last global relabel */
    int time_cut;         /* the last drv_run_rounds stopped at the time bound */
    int64_t time_cuts;    /* how often that happened (PORTAFLOW_TRACE) */
    uint64_t bytes;       /* device memory held */
    int64_t room_n, room_arcs;   /* buffers at least this large (sessions) */
    int64_t alloc_n, alloc_arcs; /* what the buffers hold now */
    /* 32-bit path (g.cap_bits == 32): the capacities as uploaded, each
     * clamped to the source's capacity + 1 (cap_bits_needed); a residual
     * read back gets cap - clamped added to be one of the input graph. */
    int32_t *cap32;
    int64_t active;       /* size of the active list in g.list_a */
    int64_t peak_active;  /* the most active in a round of the last drv_run_rounds */
    int host_threads;     /* OpenMP threads for host-side steps (opt->threads) */
    const pf_solve_options *opt; /* the caller's cancel callback */
    pf_device_desc desc;
    /* PORTAFLOW_TRACE=1: where a global relabel's time goes (each part
     * waited for, so tracing itself slows the solve); printed at the end. */
    int trace;
    double trace_collect, trace_cancel, trace_bfs, trace_saturate;
    double trace_push, trace_listing; /* rounds: the push-relabel step, the active list */
    int64_t trace_launches;
} driver;

/* count elements of a res or excess buffer from element `at` on, as int64. */
int drv_download_caps(driver *d, pf_buf *buf, int64_t at, int64_t count, int64_t *dst,
                         pf_status *st);

/* Every residual, as the input graph's (the 32-bit clamp undone). */
int drv_download_residuals(driver *d, int64_t *res, pf_status *st);

/* The device buffers of d->g for d->host (after drv_choose_cap_bits). */
int drv_alloc_graph(driver *d, const pf_device_desc *desc, pf_status *st);

/* Releases the buffers of d->g (any that are held). */
void drv_release_graph(driver *d);

/* h's rev in the form d's backend takes (device.h: rev_absolute), on
 * d->host_threads threads; PF_E_INPUT where an offset passes int32. */
int drv_rev_device_form(const driver *d, const pf_residual *h, int32_t *out, pf_status *st);

/* The same form for slots [at, at + count) of h, one at a time (a
 * session's changed slots). */
static inline void drv_rev_for_device(const pf_device_ops *ops, const pf_residual *h,
                                      int64_t at, int64_t count, int32_t *out)
{
    for (int64_t i = 0; i < count; i++) {
        int64_t a = at + i;
        out[i] = ops->caps.rev_absolute ? (int32_t)(uint32_t)h->rev[a]
                                        : (int32_t)(h->rev[a] - h->first[h->head[a]]);
    }
}

/* d->host to the device: the preflow not begun (residuals = capacities). */
int drv_upload_graph(driver *d, pf_status *st);

/* The active list in list_a (mark, then compaction); d->active its size. */
int drv_collect_active(driver *d, pf_status *st);

/* Exact distances to `target` (reverse BFS), then, unless resaturate < 0,
 * the arcs out of `resaturate` that regained residual saturated. */
int drv_global_relabel(driver *d, int32_t target, int32_t excluded, int32_t resaturate,
                          pf_status *st);

/* Push-relabel rounds until a global relabel is due (work or round cap),
 * max_rounds or max_work is reached, or no vertex is active; *work gets
 * the relabel work they did. */
int drv_run_rounds(driver *d, const char *phase, int32_t target, int64_t max_rounds,
                   double max_work, int64_t *listed, double *work, pf_status *st);

/* A whole phase toward `target`: relabels and rounds until none is active. */
int drv_run_phase(driver *d, const char *phase, int32_t target, int32_t excluded,
                     int32_t resaturate, double *pr_time, double *gr_time, pf_status *st);

/* After phase 2: PF_E_DEVICE where a vertex other than the terminals kept excess. */
int drv_check_balanced(driver *d, pf_status *st);

/* Phase 1, the value and cut, and phase 2 with want_flow, on an open
 * driver; *handed_off: the host's engine finished (out->res holds the
 * flow then, in d->host's layout). */
int drv_run_solve(driver *d, int *handed_off, pf_status *st);

/* d's settings (knobs, progress, the checked ops table) for a solve of h
 * (which may have no arrays yet). */
void drv_init(driver *d, const pf_device_ops *ops, const pf_residual *h,
              const pf_solve_options *opt, pf_engine_out *out);

/* d->dev and d->desc: early's device where it opened this backend's
 * (named: the caller's table, d->ops perhaps its checked wrapper), else
 * opened here. */
int drv_open_device(driver *d, const pf_device_ops *named, pf_early_device *early,
                    const pf_solve_options *opt, pf_status *st);

/* After the open (t0: its start, t_opened: its end): the residuals' width
 * (*clamp: the 32-bit path's), the 32-bit capacities where d->host has
 * arrays, the graph's buffers; the setup time and the trace line. */
int drv_ready_buffers(driver *d, double t0, double t_opened, int64_t *clamp, pf_status *st);

/* Opens the device (or takes early's, engine.h) and uploads the graph (h,
 * or wait_graph(data) once the device is open); on failure d->dev is NULL
 * or closed by drv_close. */
int drv_open(driver *d, const pf_device_ops *ops, pf_early_device *early, const pf_residual *h,
             const pf_solve_options *opt, pf_engine_out *out,
             const pf_residual *(*wait_graph)(void *), void *data, pf_status *st);

/* Excess, heights, owners and counters zeroed: the preflow not begun. */
int drv_reset_preflow(driver *d, pf_status *st);

/* Releases the buffers and closes the device (nothing when not open). */
void drv_close(driver *d);

/* d->g.cap_bits for this device and d->facts (and the 32-bit clamp). */
int drv_choose_cap_bits(driver *d, const pf_device_desc *desc, int64_t *clamp, pf_status *st);

/* The capacities as the 32-bit path uploads them (clamped). */
int drv_make_cap32(driver *d, int64_t clamp, pf_status *st);

/* The facts of a host residual graph. */
void drv_facts_of_residual(const pf_residual *h, drv_facts *f);

/* What a device cannot hold: PF_E_DEVICE naming the limit and the fix. */
int drv_check_limits(const pf_device_ops *ops, int64_t arcs, const drv_facts *f, pf_status *st);

#endif
