/* Which backend an APSP solve runs on, and opening its device early.
 *
 * The walk (pf_apsp_walk) yields the backends to try in order: the one
 * asked for, or for `auto` each compiled-in GPU backend that runs the
 * variant, then OpenMP, then seq. It probes lazily, one backend at a time:
 * once CUDA answers, OpenCL's driver is never loaded (its probe alone
 * costs a noticeable part of a whole `apsp` command on the GPU machine).
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

void pf_apsp_walk_init(pf_apsp_walk *w, const pf_apsp_options *opt)
{
    memset(w, 0, sizeof *w);
    const char *requested = opt->backend;
    if (!requested || !*requested || strcmp(requested, "auto") == 0) {
        const char *env = getenv("PORTAFLOW_BACKEND");
        requested = env && *env ? env : "auto";
    }
    snprintf(w->requested, sizeof w->requested, "%s", requested);
    w->is_auto = strcmp(w->requested, "auto") == 0;
    w->variant = opt->variant;
}

/* Whether a compiled-in backend has a GPU to offer: its probe lists GPUs
 * first, so the first descriptor says. */
static int has_gpu(const pf_device_ops *ops)
{
    pf_device_desc descs[8];
    char why[512];
    int found = pf_backend_probe(ops, descs, 8, why, sizeof why);
    return found > 0 && strcmp(descs[0].kind, "gpu") == 0;
}

const char *pf_apsp_walk_next(pf_apsp_walk *w)
{
    if (!w->is_auto)
        return w->stage++ == 0 ? w->requested : NULL;
    /* Stage 0: GPU backends in registry order; 1: omp; 2: seq. */
    while (w->stage == 0 && w->index < pf_backend_count()) {
        const pf_device_ops *ops = pf_backend_at(w->index++);
        if (strcmp(ops->name, "omp") != 0 && pf_apsp_backend_runs(ops->name, w->variant) &&
            has_gpu(ops))
            return ops->name;
    }
    if (w->stage == 0)
        w->stage = 1;
    if (w->stage == 1) {
        w->stage = 2;
        if (pf_backend_find("omp") && pf_apsp_backend_runs("omp", w->variant))
            return "omp";
    }
    if (w->stage == 2) {
        w->stage = 3;
        if (pf_apsp_backend_runs("seq", w->variant))
            return "seq";
    }
    return NULL;
}

/* ---- the early open ---------------------------------------------------- */

/* `auto`: the first GPU backend (running the variant) whose open gives a
 * GPU, kept in e; 0 when none (the walk is then past them). */
static int open_first_gpu(pf_apsp_early *e, const pf_open_params *params)
{
    pf_apsp_walk *w = &e->walk;
    while (w->stage == 0 && w->index < pf_backend_count()) {
        int best = w->index == 0;
        const pf_device_ops *ops = pf_backend_at(w->index++);
        if (!strcmp(ops->name, "omp") || !pf_apsp_backend_runs(ops->name, w->variant) ||
            (!best && !has_gpu(ops)))
            continue;
        pf_dev *dev = NULL;
        pf_device_desc desc;
        pf_status st;
        if (ops->open(params, &dev, &desc, &st) != PF_OK)
            continue;
        if (strcmp(desc.kind, "gpu") != 0) { /* OpenCL on a CPU: OpenMP serves it better */
            ops->close(dev);
            continue;
        }
        snprintf(e->name, sizeof e->name, "%s", ops->name);
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
    const char *name = pf_apsp_walk_next(&e->walk);
    snprintf(e->name, sizeof e->name, "%s", name ? name : "");
    /* seq, or a variant that seq runs on the OpenMP kernels: opened later. */
    e->ops = name && strcmp(name, "seq") != 0 ? pf_backend_find(name) : NULL;
    if (e->ops && pf_apsp_backend_runs(name, e->variant)) {
        e->rc = e->ops->open(&params, &e->dev, &e->desc, &e->st);
        if (e->rc)
            e->dev = NULL;
    } else {
        e->ops = NULL;
    }
    e->seconds = pf_now() - t0;
    return NULL;
}

pf_apsp_early *pf_apsp_open_early(const pf_apsp_options *opt)
{
    pf_apsp_early *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    pf_apsp_walk_init(&e->walk, opt);
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
