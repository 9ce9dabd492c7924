/* Which engine runs an analytics command, and the graph on its device.
 *
 * The registry's selection loop (registry.h, PF_WORK_GRAPH) chooses:
 * `auto` ($PORTAFLOW_BACKEND where set) takes a backend with the analytics
 * steps (bfs_push set) on a GPU, else a parallel CPU one (OpenMP), else
 * the one-thread engine, whose bfs, sssp and tc are the host algorithms
 * of graph_seq.c; a backend that fails to open falls back to the next. A
 * backend asked for by name that lacks the steps is refused with
 * PF_E_DEVICE saying so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
#include "../common/timer.h"
#include "dev_check.h"
#include "graph.h"
#include "registry.h"

void pf_graph_options_init(pf_graph_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->device_index = -1;
}

/* A backend runs the analytics: it has their steps, or it is the
 * one-thread engine (seq), which runs the host algorithms instead. */
int pf_graph_runs(const pf_device_ops *ops, const void *ctx)
{
    (void)ctx;
    return ops->bfs_push != NULL || ops->caps.one_thread;
}

typedef struct open_attempt {
    const pf_graph_options *opt;
    pf_graph_engine *e;
} open_attempt;

/* Opens a device backend (seq needs nothing opened); PF_E_DEVICE lets
 * auto fall back to the next. */
static int attempt_open(const pf_device_ops *ops, void *ctx, pf_status *st)
{
    open_attempt *a = ctx;
    pf_graph_engine *e = a->e;
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", ops->name);
    if (!ops->bfs_push) {
        if (!ops->caps.one_thread)
            return pf_fail(st, PF_E_DEVICE, "backend '%s' does not run the graph analytics "
                           "steps (bfs, sssp, tc) in this build", ops->name);
        return PF_OK;
    }
    pf_open_params params = {.device_index = a->opt->device_index, .threads = a->opt->threads};
    pf_device_desc desc;
    const pf_device_ops *checked = pf_dev_check_ops(ops); /* where checking is on */
    int rc = checked->open(&params, &e->dev, &desc, st);
    if (!rc)
        e->ops = checked;
    return rc;
}

int pf_graph_engine_open(const pf_graph_options *opt, pf_graph_engine *e, pf_status *st)
{
    if (opt->engine) { /* the caller's, open already: used, not closed here */
        *e = *opt->engine;
        e->cancel = opt->cancel;
        e->borrowed = 1;
        return PF_OK;
    }
    memset(e, 0, sizeof *e);
    pf_backend_walk walk;
    pf_backend_walk_init(&walk, opt->backend, PF_WORK_GRAPH, opt->threads, pf_graph_runs, NULL);
    const pf_device_ops *first = pf_backend_walk_next(&walk, st);
    if (!first)
        return st->code ? st->code : pf_fail(st, PF_E_DEVICE, "no backend runs bfs, sssp or tc");
    open_attempt attempt = {.opt = opt, .e = e};
    pf_logger log = {0};
    int rc = pf_backend_run(&walk, first, attempt_open, &attempt, &log, st);
    e->cancel = opt->cancel;
    return rc;
}

int pf_graph_cancelled(const pf_graph_cancel *cancel, pf_status *st)
{
    if (cancel->fn && cancel->fn(cancel->data))
        return pf_fail(st, PF_E_CANCELLED, "search cancelled by the caller");
    return PF_OK;
}

int pf_graph_engine_open_timed(const pf_graph_options *opt, pf_graph_engine *e, double *open_s,
                               char backend[16], pf_status *st)
{
    double t0 = pf_now();
    int rc = pf_graph_engine_open(opt, e, st);
    *open_s = pf_now() - t0;
    if (!rc)
        snprintf(backend, 16, "%s", e->name);
    return rc;
}

int pf_graph_check_source(const pf_csr *g, int32_t source, pf_status *st)
{
    if (source < 0 || source >= g->n)
        return pf_fail(st, PF_E_USAGE, "source %lld is outside 1..%lld", (long long)source + 1,
                       (long long)g->n);
    return PF_OK;
}

void pf_graph_engine_close(pf_graph_engine *e)
{
    if (e->ops && e->dev && !e->borrowed)
        e->ops->close(e->dev);
    e->dev = NULL;
}

int pf_graph_buf(pf_graph_engine *e, size_t bytes, pf_buf **buf, pf_status *st)
{
    return e->ops->alloc(e->dev, bytes ? bytes : 8, buf, st);
}

static int put_array(pf_graph_engine *e, const void *data, size_t bytes, pf_buf **buf,
                     pf_status *st)
{
    int rc = pf_graph_buf(e, bytes, buf, st);
    if (!rc && bytes)
        rc = e->ops->upload(e->dev, *buf, 0, data, bytes, st);
    return rc;
}

/* One empty step (a frontier of no vertices), read back: the device's
 * first launch and read of a process loads its analytics code (a CUDA
 * module loads at the first launch of one of its kernels, NVIDIA's OpenCL
 * sets its program up at the first enqueue), about a millisecond that the
 * algorithm's first level would otherwise pay. The lists and distances
 * are stand-ins: no vertex is read. */
static int warm_steps(pf_graph_engine *e, pf_dev_csr *d, pf_status *st)
{
    int64_t found = 0, arcs = 0;
    return e->ops->bfs_push(e->dev, d, d->lb_degree, 0, 0, d->lb_offset, 0, d->lb_degree, &found,
                            &arcs, st);
}

int pf_graph_upload(pf_graph_engine *e, const pf_csr *g, const pf_csr *rev, int weights,
                    pf_dev_csr *d, pf_status *st)
{
    memset(d, 0, sizeof *d);
    d->n = g->n;
    d->m = g->m;
    d->max_degree = pf_csr_max_degree(g);
    d->weights = weights ? g->weights : PF_CSR_W_NONE;
    int rc = put_array(e, g->first, ((size_t)g->n + 1) * sizeof *g->first, &d->first, st);
    if (!rc)
        rc = put_array(e, g->head, (size_t)g->m * sizeof *g->head, &d->head, st);
    if (!rc && d->weights == PF_CSR_W_I64)
        rc = put_array(e, g->int_weight, (size_t)g->m * 8, &d->weight, st);
    if (!rc && d->weights == PF_CSR_W_F64)
        rc = put_array(e, g->real_weight, (size_t)g->m * 8, &d->weight, st);
    if (!rc && rev == g) {
        d->rfirst = d->first;
        d->rhead = d->head;
    } else if (!rc && rev) {
        rc = put_array(e, rev->first, ((size_t)rev->n + 1) * sizeof *rev->first, &d->rfirst, st);
        if (!rc)
            rc = put_array(e, rev->head, (size_t)rev->m * sizeof *rev->head, &d->rhead, st);
    }
    for (int i = 0; !rc && i < 2; i++)
        rc = pf_graph_buf(e, (size_t)g->n * sizeof(int32_t), i ? &d->lb_offset : &d->lb_degree,
                          st);
    if (!rc)
        rc = pf_graph_buf(e, PF_GCTR_COUNT * sizeof(int64_t), &d->counters, st);
    if (!rc)
        rc = e->ops->fill_i64(e->dev, d->counters, 0, PF_GCTR_COUNT, st);
    if (!rc)
        rc = warm_steps(e, d, st);
    if (rc)
        pf_graph_release(e, d);
    return rc;
}

int pf_graph_upload_timed(pf_graph_engine *e, const pf_csr *g, const pf_csr *rev, int weights,
                          pf_dev_csr *d, double *upload_s, pf_status *st)
{
    double t0 = pf_now();
    int rc = pf_graph_upload(e, g, rev, weights, d, st);
    if (!rc)
        rc = e->ops->sync(e->dev, st);
    *upload_s = pf_now() - t0;
    return rc;
}

void pf_graph_release(pf_graph_engine *e, pf_dev_csr *d)
{
    pf_buf *own[] = {d->first, d->head, d->weight, d->counters, d->lb_degree, d->lb_offset,
                     d->rfirst != d->first ? d->rfirst : NULL,
                     d->rhead != d->head ? d->rhead : NULL};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        if (own[i])
            e->ops->release(e->dev, own[i]);
    memset(d, 0, sizeof *d);
}
