/* The hybrid's background open (hybrid_open.h): a thread that opens the
 * device (the named backend, or auto's first GPU) while the host works,
 * waits for the graph, relays it out into the device's arc order and
 * uploads it; the solve takes the session over when it is ready, and
 * never waits for an open it no longer needs. */
#include <pthread.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "../common/knobs.h"
#include "../common/omp_threads.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../device/device.h"
#include "hybrid_open.h"
#include "registry.h"

typedef struct pf_hybrid opener;

static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static int pending_threads;
static int detach_threads;

void pf_hybrid_detach(int detach) { detach_threads = detach; }

int pf_hybrid_background_pending(void)
{
    pthread_mutex_lock(&pending_lock);
    int count = pending_threads;
    pthread_mutex_unlock(&pending_lock);
    return count;
}

static void pending_add(int delta)
{
    pthread_mutex_lock(&pending_lock);
    pending_threads += delta;
    pthread_mutex_unlock(&pending_lock);
}

static void opener_release(opener *o)
{
    pthread_mutex_lock(&o->lock);
    int left = --o->refs;
    pthread_mutex_unlock(&o->lock);
    if (left)
        return;
    pf_dev_session_close(o->session);
    pf_residual_free(&o->relaid); /* zeroed when never made */
    pf_residual_free(&o->owned);
    pthread_mutex_destroy(&o->lock);
    pthread_cond_destroy(&o->changed);
    free(o);
}

/* Called by the driver between the device's open and its first look at
 * the graph: waits for the graph; NULL = stop (the solve is over). The
 * host runs on seq's arc order, the device on the parallel driver's (each
 * measured faster on its own: residual.h): the device gets a copy laid out
 * again here, on this thread, with the cores the host does not use (on
 * the solving thread it would cost about one residual build). Beside a
 * team the graph is in the driver's order already, and no copy is made. */
static const pf_residual *opener_wait_graph(void *data)
{
    opener *o = data;
    o->opened_at = pf_now();
    pthread_mutex_lock(&o->lock);
    while (!o->h && !o->abandoned)
        pthread_cond_wait(&o->changed, &o->lock);
    int go = !o->abandoned;
    o->using_graph = go;
    o->reached_graph = 1;
    pthread_mutex_unlock(&o->lock);
    if (!go)
        return NULL;
    o->graph_at = o->relaid_at = pf_now();
    pf_arc_order wanted = pf_residual_order_for(0);
    if (o->h->order == wanted || o->relaid.n)
        return o->relaid.n ? &o->relaid : o->h;
    pf_status ignored; /* no room for a copy: the device takes seq's order */
    int failed = pf_residual_relayout(o->h, wanted, &o->relaid, pf_threads_beside_opener(0),
                                      &ignored);
    o->relaid_at = pf_now();
    return failed ? o->h : &o->relaid;
}

static int opener_abandoned(opener *o)
{
    pthread_mutex_lock(&o->lock);
    int gone = o->abandoned;
    pthread_mutex_unlock(&o->lock);
    return gone;
}

static int open_one(opener *o, const struct pf_device_ops *ops, pf_dev_session **s)
{
    int rc = pf_dev_session_open_waiting(ops, &o->opt, opener_wait_graph, o, s, &o->st);
    pthread_mutex_lock(&o->lock);
    o->using_graph = 0;
    pthread_cond_broadcast(&o->changed);
    pthread_mutex_unlock(&o->lock);
    if (!rc)
        o->opened = ops;
    return rc;
}

/* No backend named: auto's candidates, as the registry's selection loop
 * walks them (GPU backends whose probe finds a GPU, the first one taken
 * unprobed with PF_HYBRID_UNPROBED, then a parallel CPU backend where it
 * serves max-flow better than seq and is not the host's team), up to the
 * one-thread engine, which is the host's own; then, with
 * PF_HYBRID_CPU_FALLBACK (--hybrid on), the CPU backend whatever its
 * thread count. */
static int open_best(opener *o, pf_dev_session **s)
{
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, "auto", PF_WORK_MAXFLOW, o->opt.threads, NULL, NULL);
    walk.is_auto = 1; /* what auto does, whatever PORTAFLOW_BACKEND says */
    int rc = PF_E_DEVICE;
    const pf_device_ops *unprobed =
        o->flags & PF_HYBRID_UNPROBED ? pf_backend_walk_unprobed(&walk) : NULL;
    if (unprobed && (!(rc = open_one(o, unprobed, s)) || rc == PF_E_CANCELLED))
        return rc;
    for (const pf_device_ops *ops; !opener_abandoned(o) && (ops = pf_backend_walk_next(&walk, NULL));) {
        /* The host's team is the CPU backend already: GPUs only. */
        if (!ops->caps.maxflow_steps || ops->caps.one_thread || (o->team && ops->caps.host_cpu))
            break;
        if (!(rc = open_one(o, ops, s)) || rc == PF_E_CANCELLED)
            return rc;
    }
    const char *partner =
        o->flags & PF_HYBRID_CPU_FALLBACK && !o->team ? pf_backend_cpu_partner() : NULL;
    if (partner && !o->opened && !opener_abandoned(o))
        return open_one(o, pf_backend_find(partner), s);
    /* Nothing opened (CUDA compiled in without a driver or device, no
     * GPU in OpenCL's list): auto simply has none, which is no news. A
     * device that opened and then could not take the graph is. */
    if (!o->reached_graph) {
        o->quiet = 1;
        pf_fail(&o->st, PF_E_DEVICE, "no GPU");
    }
    return rc;
}

static void *opener_main(void *data)
{
    opener *o = data;
#ifdef __linux__
    /* Below the solving thread where cores are short: the host's work is
     * what the solve waits for, the device's open only may pay later. */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
#endif
    pf_dev_session *s = NULL;
    int rc = o->ops ? open_one(o, o->ops, &s) : open_best(o, &s);
    pthread_mutex_lock(&o->lock);
    o->rc = rc;
    int gone = o->abandoned;
    if (!gone)
        o->session = s;
    o->done = 1;
    pthread_cond_broadcast(&o->changed);
    pthread_mutex_unlock(&o->lock);
    if (gone)
        pf_dev_session_close(s); /* on this thread: the solve is over */
    opener_release(o);
    pending_add(-1);
    return NULL;
}

const pf_device_ops *pf_hybrid_team_for(const pf_device_ops *ops, const pf_solve_options *opt)
{
    if (ops && ops->caps.host_cpu)
        return NULL; /* the device is the CPU backend: seq is the host */
    int64_t knob = pf_knobs()->hybrid_team;
    if (knob == 0)
        return NULL;
    if (knob == 1) {
        const char *partner = pf_backend_cpu_partner();
        return partner ? pf_backend_find(partner) : NULL;
    }
    return pf_backend_host_team(opt->threads);
}

pf_arc_order pf_hybrid_graph_order(const pf_device_ops *team)
{
    return pf_residual_order_for(!team);
}

pf_hybrid *pf_hybrid_begin(const struct pf_device_ops *ops, unsigned flags,
                           const pf_solve_options *opt, pf_status *st)
{
    pf_team_start_beside_opener(opt->threads);
    opener *o = pf_calloc(1, sizeof *o, st);
    if (!o)
        return NULL;
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->changed, NULL);
    o->ops = ops;
    o->flags = flags;
    o->team = pf_hybrid_team_for(ops, opt);
    o->opt = *opt;
    o->opt.progress = 0;
    o->opt.cancel = NULL; /* the caller's callback runs on the solving thread only */
    o->refs = 2;
    pending_add(1);
    int err = pthread_create(&o->thread, NULL, opener_main, o);
    if (err) {
        pending_add(-1);
        pthread_mutex_destroy(&o->lock);
        pthread_cond_destroy(&o->changed);
        free(o);
        pf_fail(st, PF_E_DEVICE, "pthread_create: %s", strerror(err));
        return NULL;
    }
    return o;
}

void pf_hybrid_opener_post_graph(pf_hybrid *o, const pf_residual *h)
{
    pthread_mutex_lock(&o->lock);
    o->graph = *h;
    o->h = &o->graph;
    pthread_cond_broadcast(&o->changed);
    pthread_mutex_unlock(&o->lock);
}

pf_dev_session *pf_hybrid_opener_poll(pf_hybrid *o, int wait, int *failed, int *quiet,
                                      pf_status *why)
{
    pthread_mutex_lock(&o->lock);
    while (wait && !o->done)
        pthread_cond_wait(&o->changed, &o->lock);
    pf_dev_session *s = NULL;
    if (o->done) {
        if (o->rc) {
            *failed = 1;
            *quiet = o->quiet;
            *why = o->st;
        } else {
            s = o->session;
            o->session = NULL;
        }
    }
    pthread_mutex_unlock(&o->lock);
    return s;
}

/* The solve is over: the thread may still be opening (it closes the
 * device itself when it gets there). The graph is freed here, or where the
 * thread still reads it (a relayout, an upload) and need not be waited
 * for, handed over to it. Detached, or joined where the caller did not
 * allow detaching (pf_hybrid_detach). */
void pf_hybrid_end(pf_hybrid *o, pf_residual *g)
{
    if (!o) {
        if (g)
            pf_residual_free(g);
        return;
    }
    pthread_t thread = o->thread;
    pthread_mutex_lock(&o->lock);
    o->abandoned = 1;
    pthread_cond_broadcast(&o->changed);
    int hand_over = g && o->using_graph && detach_threads;
    if (hand_over) {
        o->owned = *g;
        memset(g, 0, sizeof *g);
    }
    while (!hand_over && o->using_graph)
        pthread_cond_wait(&o->changed, &o->lock);
    pthread_mutex_unlock(&o->lock);
    if (g)
        pf_residual_free(g); /* zeroed when handed over */
    opener_release(o);
    if (detach_threads)
        pthread_detach(thread);
    else
        pthread_join(thread, NULL);
}

void pf_hybrid_cancel(pf_hybrid *o) { pf_hybrid_end(o, NULL); }
