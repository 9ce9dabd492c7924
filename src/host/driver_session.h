/* The parallel driver in stretches, for the hybrid (hybrid.c): a device
 * opened for one residual graph that takes a preflow's state (residuals
 * and excesses: |E| + |V| values), runs bounded stretches of phase 1 on
 * it, and gives the state back. Heights never cross a switch: each
 * stretch begins with a global relabel, which gives exact distances over
 * the residuals as they are, whichever engine left them (driver.c says
 * why the arrival's violation cancelling then has nothing to do). */
#ifndef PF_DRIVER_SESSION_H
#define PF_DRIVER_SESSION_H

#include <stdint.h>

#include "../common/residual.h"
#include "engine.h"
#include "portaflow.h"

struct pf_device_ops;
typedef struct pf_dev_session pf_dev_session;

typedef struct pf_dev_stretch {
    int relabelled;        /* it began with a global relabel (else it went on
                              with the heights of an open period) */
    int64_t active_before; /* after that relabel (0: phase 1 is over), or at
                              its start */
    int64_t active;        /* after its last round (heights may be stale) */
    int64_t rounds;
    int64_t listed;        /* vertices processed: the list sizes summed over rounds */
    double work;           /* relabel work done (the driver's measure) */
    int64_t excess;        /* the active vertices' excess after the last round
                              (-1: not asked for, or the backend lacks sum_excess) */
    double seconds;        /* the whole stretch */
    double relabel_seconds; /* its global relabel */
    int crawled;           /* it ran to the round cap with at most PORTAFLOW_HANDOFF
                              vertices active in every round: the excess crawls
                              (driver.c: run_phase's handoff to the host) */
} pf_dev_stretch;

/* Opens the device (opt->device_index, opt->threads) and uploads the
 * graph; the state is the empty preflow until the first put. The options
 * are copied. On failure nothing is held. */
int pf_dev_session_open(const struct pf_device_ops *ops, const pf_residual *h,
                        const pf_solve_options *opt, pf_dev_session **s, pf_status *st);
/* The same, with the graph from wait_graph(data), called once the device
 * is open: NULL closes it again (PF_E_CANCELLED). The hybrid opens on a
 * thread of its own while the caller builds the graph, and may no longer
 * need the device by then. */
int pf_dev_session_open_waiting(const struct pf_device_ops *ops, const pf_solve_options *opt,
                                const pf_residual *(*wait_graph)(void *), void *data,
                                pf_dev_session **s, pf_status *st);
/* Replaces the device's state: residuals (h->arcs, as the input graph's)
 * and excesses (h->n; the source's is ignored). */
int pf_dev_session_put(pf_dev_session *s, const int64_t *res, const int64_t *excess,
                       pf_status *st);
/* A global relabel toward the sink, then rounds until the next one is due
 * (the driver's work measure or round cap), at most max_rounds and
 * max_work relabel work (<= 0: no bound). A stretch that a bound stopped
 * first leaves the period open: the next one goes on from there with the
 * same heights, without a relabel, until the period's work or rounds are
 * done (a put, or a stretch that ends the period, closes it);
 * pf_dev_session_resume_heights opens a period the same way. With
 * measure_excess the active excess is summed at its end (a device
 * reduction and a readback; else out->excess is -1). */
int pf_dev_session_stretch(pf_dev_session *s, int64_t max_rounds, double max_work,
                           int measure_excess, pf_dev_stretch *out, pf_status *st);
int pf_dev_session_get(pf_dev_session *s, int64_t *res, int64_t *excess, pf_status *st);
/* Seconds for a 4-byte upload and download (the transfer latency); -1 on
 * failure. */
double pf_dev_session_probe(pf_dev_session *s, pf_status *st);
const pf_device_desc *pf_dev_session_desc(const pf_dev_session *s);
/* The backend and the open device the session runs on, for other work on
 * that device (a session's BFS and SSSP, session_graph.c). */
void pf_dev_session_engine(const pf_dev_session *s, const pf_device_ops **ops, pf_dev **dev);
const char *pf_dev_session_ops_name(const pf_dev_session *s); /* the backend's */
const pf_residual *pf_dev_session_graph(const pf_dev_session *s); /* the graph it holds */
/* The device's share of the counts and times (rounds, global relabels). */
const pf_engine_out *pf_dev_session_counts(const pf_dev_session *s);
uint64_t pf_dev_session_bytes(const pf_dev_session *s);

/* Sessions (session.c): the graph changes between solves. The pages of
 * 2^page_log2 slots (head, rev, residuals) and of as many vertices (first,
 * excess) that changed; `all`: everything did. The same changes as lists
 * of slots and vertices (repeats allowed) unless lists_full. */
typedef struct pf_dev_pages {
    int page_log2;
    const uint8_t *slots;
    const uint8_t *vertices;
    int all;
    const int32_t *slot_list, *vertex_list;
    int64_t slot_count, vertex_count;
    int lists_full;
} pf_dev_pages;
/* Brings the device to graph h (the session's, which may have grown: the
 * buffers then grow, with room) and the preflow (res, excess: h->arcs and
 * h->n values, the source's excess included), sending only the listed
 * slots and vertices (a backend with sparse transfers, after
 * pf_dev_session_get_changed) or the pages marked, unless the device holds
 * something else (a flow after pf_dev_session_flow, a failed transfer);
 * heights restart. Needs 64-bit residuals on the device (PF_E_DEVICE
 * otherwise). */
int pf_dev_session_update(pf_dev_session *s, const pf_residual *h, const int64_t *res,
                          const int64_t *excess, const pf_dev_pages *pages, pf_status *st);
/* The device's preflow into res and excess, as pf_dev_session_get, but on
 * a backend with sparse transfers (device.h: put_at) only the values that
 * changed since the last call come back; *values_read says how many. */
int pf_dev_session_get_changed(pf_dev_session *s, int64_t *res, int64_t *excess,
                               int64_t *values_read, pf_status *st);
/* The device's heights (h->n values) into out. After a stretch that
 * began with no active vertex they are exact distances to the sink, n
 * where it cannot be reached: the min cut's source side is height >= n. */
int pf_dev_session_heights(pf_dev_session *s, int32_t *out, pf_status *st);
/* After pf_dev_session_update, instead of the global relabel the next
 * stretch would begin with: `height` (h->n values) goes up, the source's
 * arcs into vertices below n are saturated and the active vertices
 * listed; the next stretch starts from these heights. They must be valid
 * for the preflow on the device: height[u] <= height[v] + 1 on every
 * residual arc u->v but the source's, the sink at 0, the source at n. */
int pf_dev_session_resume_heights(pf_dev_session *s, const int32_t *height, pf_status *st);
/* Phase 2 on the device: residuals of a maximum flow into res (h->arcs).
 * The device then holds that flow, not the preflow: the next
 * pf_dev_session_update sends everything. */
int pf_dev_session_flow(pf_dev_session *s, int64_t *res, pf_status *st);
void pf_dev_session_close(pf_dev_session *s);

#endif
