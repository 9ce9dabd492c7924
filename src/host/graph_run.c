/* Which engine runs an analytics command, and the graph on its device.
 *
 * `auto` ($PORTAFLOW_BACKEND where set) walks the registry, best first:
 * the first backend that offers the analytics steps (bfs_push set) and
 * opens on a GPU, else OpenMP (on a CPU the parallel steps beat one
 * thread, unlike max-flow's), else seq. A backend asked for by name that
 * lacks the steps is refused with PF_E_DEVICE saying so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
#include "graph.h"
#include "registry.h"

void pf_graph_options_init(pf_graph_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->device_index = -1;
}

static int open_backend(const pf_device_ops *ops, const pf_graph_options *opt,
                        pf_graph_engine *e, pf_device_desc *desc, pf_status *st)
{
    pf_open_params params = {.device_index = opt->device_index, .threads = opt->threads};
    int rc = ops->open(&params, &e->dev, desc, st);
    if (rc)
        return rc;
    e->ops = ops;
    snprintf(e->name, sizeof e->name, "%s", ops->name);
    return PF_OK;
}

static int open_auto(const pf_graph_options *opt, pf_graph_engine *e, pf_status *st)
{
    for (int i = 0; i < pf_backend_count(); i++) {
        const pf_device_ops *ops = pf_backend_at(i);
        if (!ops->bfs_push || !strcmp(ops->name, "omp"))
            continue;
        pf_device_desc descs[8], desc;
        char why[512];
        if (pf_backend_probe(ops, descs, 8, why, sizeof why) <= 0 || strcmp(descs[0].kind, "gpu"))
            continue;
        if (open_backend(ops, opt, e, &desc, st) != PF_OK)
            continue;
        if (!strcmp(desc.kind, "gpu"))
            return PF_OK;
        pf_graph_engine_close(e); /* OpenCL on a CPU: OpenMP serves it better */
    }
    const pf_device_ops *omp = pf_backend_find("omp");
    pf_device_desc desc;
    if (omp && omp->bfs_push && open_backend(omp, opt, e, &desc, st) == PF_OK)
        return PF_OK;
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "seq");
    return PF_OK;
}

int pf_graph_engine_open(const pf_graph_options *opt, pf_graph_engine *e, pf_status *st)
{
    memset(e, 0, sizeof *e);
    const char *name = opt->backend;
    if (!name || !*name || !strcmp(name, "auto")) {
        const char *env = getenv("PORTAFLOW_BACKEND");
        name = env && *env ? env : "auto";
    }
    if (!strcmp(name, "auto"))
        return open_auto(opt, e, st);
    if (!strcmp(name, "seq")) {
        snprintf(e->name, sizeof e->name, "seq");
        return PF_OK;
    }
    const pf_device_ops *ops = pf_backend_require(name, st);
    if (!ops)
        return PF_E_DEVICE;
    if (!ops->bfs_push)
        return pf_fail(st, PF_E_DEVICE, "backend '%s' does not run the graph analytics steps "
                       "(bfs, sssp, tc) in this build", name);
    pf_device_desc desc;
    return open_backend(ops, opt, e, &desc, st);
}

void pf_graph_engine_close(pf_graph_engine *e)
{
    if (e->ops && e->dev)
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

int pf_graph_upload(pf_graph_engine *e, const pf_csr *g, const pf_csr *rev, int weights,
                    pf_dev_csr *d, pf_status *st)
{
    memset(d, 0, sizeof *d);
    d->n = g->n;
    d->m = g->m;
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
    if (rc)
        pf_graph_release(e, d);
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
