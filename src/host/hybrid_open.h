/* The hybrid's background open (hybrid_open.c), as the arbitrator
 * (hybrid.c) sees it: the state the solve and the opener thread share,
 * and the two calls between them. */
#ifndef PF_HYBRID_OPEN_H
#define PF_HYBRID_OPEN_H

#include <pthread.h>

#include "../common/residual.h"
#include "driver_session.h"
#include "hybrid.h"
#include "portaflow.h"

/* Shared by the solve and its opener thread; the last of the two to let
 * go frees it. The thread opens the device, then waits for the graph (the
 * caller builds it meanwhile) and uploads it; it uses the graph only while
 * `using_graph`. A solve that gives up waits for that to end (an upload),
 * never for the open. */
struct pf_hybrid {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
    const struct pf_device_ops *ops; /* NULL: the first GPU backend that opens */
    unsigned flags;                  /* pf_hybrid_begin's (hybrid.h) */
    const struct pf_device_ops *team; /* the host's parallel CPU backend (the
                                        opener then opens GPUs only), or NULL */
    const pf_residual *h;            /* posted by pf_hybrid_solve (in
                                        pf_hybrid_graph_order):
                                        &graph, the thread's own copy of the
                                        caller's struct (the arrays shared) */
    pf_residual graph;
    pf_residual relaid;              /* h in the parallel driver's order, the
                                        device's graph (n = 0: h itself) */
    pf_residual owned;               /* h, handed over by pf_hybrid_end while
                                        this thread still read it */
    pf_solve_options opt;
    int refs;
    int using_graph, done, abandoned;
    int rc;
    int quiet;                       /* no GPU where auto looked for one: no message */
    int reached_graph;               /* some device opened (then failed on the graph) */
    pf_status st;
    const struct pf_device_ops *opened;
    pf_dev_session *session;
    double opened_at, graph_at, relaid_at; /* pf_now() when the open, the wait
                                             for the graph, its relayout ended */
};

/* Hands the opener the solve's graph (it waits for it once the device is
 * open). */
void pf_hybrid_opener_post_graph(pf_hybrid *o, const pf_residual *h);
/* The session once the thread has it (taken over: the thread lets go),
 * NULL while it is opening; *failed with the reason when it could not.
 * With `wait`, blocks until the thread is done. */
pf_dev_session *pf_hybrid_opener_poll(pf_hybrid *o, int wait, int *failed, int *quiet,
                                      pf_status *why);

#endif
