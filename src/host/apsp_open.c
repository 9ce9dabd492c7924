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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
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
        if (ops->caps.host_cpu || pf_apsp_kernels_for(ops, e->opt.variant) != ops ||
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
        e->open.ops = ops;
        e->open.dev = dev;
        e->open.desc = desc;
        return 1;
    }
    return 0;
}

static void *early_main(void *arg)
{
    pf_apsp_early *e = arg;
    pf_open_params params = {.device_index = e->opt.device_index, .threads = e->opt.threads};
    if (e->walk.is_auto && open_first_gpu(e, &params))
        return NULL;
    pf_status ignored;
    e->first = pf_backend_walk_next(&e->walk, &ignored);
    /* A one-thread engine on another backend's kernels opens later, with
     * its options. */
    if (e->first && pf_apsp_kernels_for(e->first, e->opt.variant) == e->first)
        pf_early_open_device(&e->open, e->first, &params);
    return NULL;
}

pf_apsp_early *pf_apsp_open_early(const pf_apsp_options *opt)
{
    pf_apsp_early *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->opt = *opt;
    pf_apsp_walk_init(&e->walk, &e->opt);
    return pf_early_start(&e->open, early_main, e) ? NULL : e;
}

void pf_apsp_early_free(pf_apsp_early *e)
{
    if (e)
        pf_early_free(&e->open);
}
