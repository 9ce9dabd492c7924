/* A session's state (session.c: the API, batches, the network as it is;
 * session_solve.c: the engines, cold and warm). Private to src/host. */
#ifndef PF_SESSION_INTERNAL_H
#define PF_SESSION_INTERNAL_H

#include <stdint.h>

#include "../common/dyn_graph.h"
#include "../device/device.h"
#include "driver_session.h"
#include "portaflow.h"

struct pf_session {
    pf_solve_options opt;  /* the caller's, copied (backend points at backend_name) */
    char backend_name[16];
    const pf_device_ops *ops; /* the backend the session runs on */
    pf_dev_session *dev;   /* its device, kept open; NULL: the host's sequential engine */
    int threads;           /* OpenMP threads for host-side steps */

    /* The network's own facts, kept from open. */
    int zero_based_ids;
    int is_real, scale_log2;
    double scale_error;

    /* Terminals: one source and one sink, or several (then the residual
     * graph has a super source and sink at view ids n_input, n_input + 1,
     * and user vertex v >= n_input is view vertex v + 2). */
    int64_t n_input;       /* the network's vertex count at open */
    int64_t n_user;        /* vertices now, as the user counts them */
    int64_t source_count, sink_count;
    int32_t *sources, *sinks; /* user ids, ascending */
    int super;             /* 1: super terminals in the view */

    pf_dyn_graph g;        /* the graph and the preflow */
    int solved;            /* the preflow is a maximum one for the graph as it is */
    int cold_next;         /* the next solve starts over (terminals changed) */
    char cold_reason[128];

    pf_session_stats stats;

    /* The labels the last solve ended with, kept for the next one
     * (session_labels.c): a host session keeps its engine's run, with its
     * arrays; a device session the heights read back after phase 1. The
     * view's vertex count and terminals then, the labels' repair queue
     * and marks (n each; the marks all 0 between repairs), and how many
     * solves started from kept labels. */
    struct pf_seq_run *seq_kept;
    int32_t *dev_labels;
    int64_t kept_n;
    int32_t kept_source, kept_sink;
    int32_t *label_queue;
    uint8_t *label_queued;
    int64_t labels_resumed;
    /* A device session's measured choice (PORTAFLOW_SESSION_LABELS unset):
     * the global relabel that last began a solve, and what the kept labels
     * cost the last solve that started from them (their read-back where the
     * cut did not need it, the repair, sending them up); the read-back of
     * the labels kept now; solves since labels were last kept. */
    double first_relabel_s, keep_labels_s, labels_read_s;
    int64_t labels_idle;
    /* A host session's: tries of the repair still to skip after one gave
     * way (PORTAFLOW_SESSION_LABELS unset). */
    int64_t repair_skips;
};

/* View id of user vertex v, and back (-1 for a super terminal). */
static inline int64_t pf_session_view_id(const struct pf_session *s, int64_t v)
{
    return s->super && v >= s->n_input ? v + 2 : v;
}
static inline int64_t pf_session_user_id(const struct pf_session *s, int64_t v)
{
    if (!s->super || v < s->n_input)
        return v;
    return v < s->n_input + 2 ? -1 : v - 2;
}

/* The graph (g) built again from the network as it now is, the preflow
 * started over: after the terminals change, and at open. */
int pf_session_rebuild(struct pf_session *s, const pf_network *net, pf_status *st);

/* The host engine's run the last solve left (its labels made valid again
 * for the graph as the batches since have left it: pf_seq_run_resume), or
 * NULL where there is none, the view was laid out again or grew, the
 * terminals moved, or the repair would cost about a global relabel: then
 * phase 1 opens a run of its own and starts with a global relabel. With
 * PORTAFLOW_CHECK_ARGS the repaired labels are checked on every arc
 * (PF_E_VERIFY, *run NULL, if one is not valid). */
int pf_session_seq_take(struct pf_session *s, struct pf_seq_run **run, pf_status *st);
/* Keeps a host solve's run (its labels valid for the graph as it is). */
void pf_session_seq_keep(struct pf_session *s, struct pf_seq_run *run);
/* A device session's heights after phase 1 read back into dev_labels and
 * kept (the view's n values, exact distances to the sink). */
int pf_session_dev_keep(struct pf_session *s, pf_status *st);
/* The kept heights repaired for the batches since, as pf_session_seq_take
 * does a run's, into *labels (the session's dev_labels); NULL where none
 * can be kept (then they are dropped). */
int pf_session_dev_take(struct pf_session *s, const int32_t **labels, pf_status *st);
/* Every kept label and run freed. */
void pf_session_labels_drop(struct pf_session *s);

/* Phase 1 from the preflow on the session's engine; then, as the options
 * ask, the cut and a flow, into sol (value, arc_flow over ids,
 * source_side over user vertices, times, backend, device). */
int pf_session_run(struct pf_session *s, pf_solution *sol, pf_status *st);

#endif
