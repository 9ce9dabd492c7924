/* The parallel driver's handoff (driver_internal.h: drv_finish_on_host):
 * once phase 1 crawls on the device, the host's sequential engine finishes
 * the solve from the preflow the device left. It runs on its own arc order
 * (residual.h), which AK, handed over nearly whole, needs; the relayout
 * costs about one residual build, once. */
#include <stdio.h>
#include <stdlib.h>

#include "../common/status.h"
#include "../common/timer.h"
#include "driver_internal.h"

/* The graph in the sequential engine's arc order: h itself, or a relayout
 * of it into *relaid with its own residual array *relaid_res. */
static int seq_layout(driver *d, pf_residual *relaid, int64_t **relaid_res, int *is_relaid,
                      pf_status *st)
{
    const pf_residual *h = d->host;
    pf_arc_order order = pf_residual_order_for(1);
    *is_relaid = h->order != order;
    if (!*is_relaid)
        return PF_OK;
    int rc = pf_residual_relayout(h, order, relaid, d->host_threads, st);
    if (rc)
        return rc;
    *relaid_res = pf_alloc((size_t)h->arcs + 1, sizeof **relaid_res, st);
    return *relaid_res ? PF_OK : PF_E_NOMEM;
}

/* Phase 1 on the host from the device's preflow, then the cut and phase 2
 * (pf_seq_run over `g`, residuals in `res`). The residuals are read back
 * after the engine opened: opening fills its residual array with the
 * capacities. *download gets the seconds the read-back took. */
static int run_on_host(driver *d, const pf_residual *g, int64_t *res, int relaid,
                       int64_t *excess, pf_engine_out *host, double *download, pf_status *st)
{
    const pf_residual *h = d->host;
    pf_seq_run *run = NULL;
    int rc = pf_seq_run_open(g, res, d->opt, &run, st);
    if (rc)
        return rc;
    double t0 = pf_now();
    rc = drv_download_residuals(d, d->out->res, st);
    if (!rc)
        rc = drv_download_caps(d, d->g.excess, 0, h->n, excess, st);
    *download = pf_now() - t0;
    if (!rc && relaid)
        pf_residual_copy_residuals(h, d->out->res, g, res, d->host_threads);
    if (!rc)
        pf_seq_run_load(run, excess);
    pf_seq_stretch stretch = {.active = 1};
    while (!rc && stretch.active > 0)
        rc = pf_seq_run_stretch(run, 0, &stretch, st);
    if (!rc)
        rc = pf_seq_run_finish(run, host, st);
    pf_seq_run_free(run);
    return rc;
}

int drv_finish_on_host(driver *d, pf_status *st)
{
    const pf_residual *h = d->host;
    pf_engine_out *out = d->out;
    if (d->trace)
        fprintf(stderr,
                "portaflow trace: phase 1 crawls (%lld active at most in the last %lld rounds): "
                "the host's sequential engine finishes it\n",
                (long long)d->peak_active, (long long)d->gr_max_rounds);
    int64_t *excess = pf_alloc((size_t)h->n, sizeof *excess, st);
    if (!excess)
        return PF_E_NOMEM;
    double t0 = pf_now();
    pf_residual relaid = {0};
    int64_t *relaid_res = NULL;
    int is_relaid = 0;
    int rc = seq_layout(d, &relaid, &relaid_res, &is_relaid, st);
    out->times.setup += pf_now() - t0;

    pf_engine_out host = {.res = is_relaid ? relaid_res : out->res,
                          .source_side = out->source_side};
    double download = 0;
    if (!rc)
        rc = run_on_host(d, is_relaid ? &relaid : h, host.res, is_relaid, excess, &host,
                         &download, st);
    if (!rc && is_relaid)
        pf_residual_copy_residuals(&relaid, relaid_res, h, out->res, d->host_threads);
    pf_residual_free(&relaid); /* zeroed where there was none */
    free(relaid_res);
    free(excess);
    if (rc)
        return rc;
    out->value = host.value;
    out->global_relabels += host.global_relabels;
    out->host_pushes = host.rounds;
    out->times.download += download;
    out->times.setup += host.times.setup;
    /* The read-back ran inside the host engine's phase 1 clock. */
    double host_push = host.times.push_relabel - download;
    out->times.push_relabel += host_push > 0 ? host_push : 0;
    out->times.global_relabel += host.times.global_relabel;
    out->times.phase2 += host.times.phase2;
    return PF_OK;
}
