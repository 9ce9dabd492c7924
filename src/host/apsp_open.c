/* Which backend an APSP solve runs on, and opening its device early.
 *
 * The walk (the registry's, registry.h) yields the backends to try in
 * order: the one asked for, or for `auto` each GPU backend that runs the
 * variant, then the parallel CPU backends, then the one-thread engine. It
 * probes lazily, one backend at a time: once CUDA answers, OpenCL's driver
 * is never loaded.
 *
 * pf_apsp_open_early opens the first backend's device on a background
 * thread, so that the device's start-up (driver, context) overlaps the
 * caller's reading of its graph and the host matrix's fill. For `auto` it
 * opens the registry's best backend without probing it first (a CUDA
 * probe is a child process that starts CUDA once more just to count
 * devices), the others after a probe (an OpenCL open builds programs,
 * which costs more than its probe where there is no GPU), and keeps the
 * first that opens a GPU; the probing walk takes over from there should it
 * fall back. The walk runs on that thread alone until pf_apsp joins it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
#include "../common/timer.h"
#include "apsp.h"
#include "registry.h"

void pf_apsp_walk_init(pf_backend_walk *w, const pf_apsp_options *opt)
{
    pf_backend_walk_init(w, opt->backend, PF_WORK_APSP, opt->threads, pf_apsp_walk_runs, opt);
}

/* ---- the early open ---------------------------------------------------- */

/* `auto`: the first GPU backend (running the variant) whose open gives a
 * GPU, kept in e; 0 when none (the walk is then past them). The best
 * backend opens without a probe; the others only where their probe lists
 * a GPU. */
static int open_first_gpu(pf_apsp_early *e, const pf_open_params *params)
{
    pf_backend_walk *w = &e->walk;
    while (w->stage == 0 && w->index < pf_backend_count()) {
        int best = w->index == 0;
        const pf_device_ops *ops = pf_backend_at(w->index++);
        if (ops->caps.host_cpu || pf_apsp_kernels_for(ops, e->variant) != ops ||
            (!best && !pf_backend_has_gpu(ops)))
            continue;
        pf_dev *dev = NULL;
        pf_device_desc desc;
        pf_status st;
        if (ops->open(params, &dev, &desc, &st) != PF_OK)
            continue;
        if (strcmp(desc.kind, "gpu") != 0) { /* a CPU device: the host backends serve it better */
            ops->close(dev);
            continue;
        }
        e->first = ops;
        e->ops = ops;
        e->dev = dev;
        e->desc = desc;
        return 1;
    }
    return 0;
}

static void *early_main(void *arg)
{
    pf_apsp_early *e = arg;
    double t0 = pf_now();
    pf_open_params params = {.device_index = e->device_index, .threads = e->threads};
    if (e->walk.is_auto && open_first_gpu(e, &params)) {
        e->seconds = pf_now() - t0;
        return NULL;
    }
    pf_status ignored;
    e->first = pf_backend_walk_next(&e->walk, &ignored);
    /* A one-thread engine on another backend's kernels opens later, with
     * its options. */
    e->ops = e->first && pf_apsp_kernels_for(e->first, e->variant) == e->first ? e->first : NULL;
    if (e->ops) {
        e->rc = e->ops->open(&params, &e->dev, &e->desc, &e->st);
        if (e->rc)
            e->dev = NULL;
    }
    e->seconds = pf_now() - t0;
    return NULL;
}

pf_apsp_early *pf_apsp_open_early(const pf_apsp_options *opt)
{
    pf_apsp_early *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->opt = *opt;
    pf_apsp_walk_init(&e->walk, &e->opt);
    e->variant = opt->variant;
    e->device_index = opt->device_index;
    e->threads = opt->threads;
    pf_status_ok(&e->st);
    if (pthread_create(&e->thread, NULL, early_main, e) != 0) {
        free(e); /* pf_apsp then opens the device itself */
        return NULL;
    }
    e->started = 1;
    return e;
}

void pf_apsp_early_join(pf_apsp_early *e)
{
    if (e && e->started && !e->joined) {
        pthread_join(e->thread, NULL);
        e->joined = 1;
    }
}

void pf_apsp_early_free(pf_apsp_early *e)
{
    if (!e)
        return;
    pf_apsp_early_join(e);
    if (e->dev)
        e->ops->close(e->dev);
    free(e);
}
