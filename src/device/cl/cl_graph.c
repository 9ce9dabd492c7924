/* The graph analytics steps of the OpenCL backend (device.h: bfs_push ..
 * intersect_count; kernels: kernels/pf_graph.cl after the shared bodies
 * of src/device/shared/pf_graph_kernels.h). One program per device, built
 * on first use with doubles where the device has cl_khr_fp64 (real SSSP
 * weights need them); it needs 64-bit atomics (distances, counters).
 *
 * Each step zeroes the counters, enqueues its kernels and reads the
 * counters back (the host decides the next step from them). Frontiers of
 * high mean degree on a GPU advance one work-item per arc (degrees, their
 * scan, a binary search per arc), others a group of lanes per vertex. */
#include "cl_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

/* The double kernels last: a device without doubles builds the others. */
enum graph_kernel {
    GK_BFS_PUSH, GK_BFS_PULL, GK_BFS_PARENTS, GK_RELAX_I64, GK_FAR, GK_INTERSECT,
    GK_FRONTIER_DEGREE, GK_BFS_PUSH_ARCS, GK_RELAX_ARCS_I64, GK_RELAX_F64, GK_RELAX_ARCS_F64,
    GK_COUNT
};
enum { GK_WITHOUT_F64 = GK_RELAX_F64 };

static const char *const graph_kernel_names[GK_COUNT] = {
    [GK_BFS_PUSH] = "pf_k_bfs_push",
    [GK_BFS_PULL] = "pf_k_bfs_pull",
    [GK_BFS_PARENTS] = "pf_k_bfs_parents",
    [GK_RELAX_I64] = "pf_k_relax_i64",
    [GK_FAR] = "pf_k_far",
    [GK_INTERSECT] = "pf_k_intersect",
    [GK_FRONTIER_DEGREE] = "pf_k_frontier_degree",
    [GK_BFS_PUSH_ARCS] = "pf_k_bfs_push_arcs",
    [GK_RELAX_ARCS_I64] = "pf_k_relax_arcs_i64",
    [GK_RELAX_F64] = "pf_k_relax_f64",
    [GK_RELAX_ARCS_F64] = "pf_k_relax_arcs_f64",
};

/* One work-item per arc pays where a frontier's mean degree passes this
 * many arcs per listed vertex's lanes (a hub among leaves); below it the
 * degree pass and scan cost more than they save. The offsets are int32. */
#define BALANCE_MEAN_DEGREE 32
#define BALANCE_MOST_ARCS ((int64_t)INT32_MAX)

struct pf_cl_graph {
    cl_program program;
    cl_kernel kernels[GK_COUNT];
    int f64;     /* the program has pf_k_relax_f64 */
    int lanes;   /* work-items per frontier vertex */
    int balance; /* PORTAFLOW_GRAPH_BALANCE: 1 always by arcs, 0 never, -1 choose */
};

void pf_cl_graph_release(pf_dev *dev)
{
    struct pf_cl_graph *p = dev->graph;
    if (!p)
        return;
    for (int k = 0; k < GK_COUNT; k++)
        if (p->kernels[k])
            clReleaseKernel(p->kernels[k]);
    if (p->program)
        clReleaseProgram(p->program);
    free(p);
    dev->graph = NULL;
}

static int program(pf_dev *dev, struct pf_cl_graph **out, pf_status *st)
{
    if (dev->graph) {
        *out = dev->graph;
        return PF_OK;
    }
    if (!dev->atom64)
        return pf_fail(st, PF_E_DEVICE, "opencl: %s has no 64-bit atomics "
                       "(cl_khr_int64_base_atomics), which bfs, sssp and tc need here; "
                       "use --backend omp or seq", dev->desc.name);
    struct pf_cl_graph *p = pf_calloc(1, sizeof *p, st);
    if (!p)
        return PF_E_NOMEM;
    p->f64 = dev->desc.fp64;
    /* A GPU loads a vertex's arcs in parallel; a CPU gains nothing. */
    p->lanes = strcmp(dev->desc.kind, "gpu") ? 1 : 8;
    const char *balance = getenv("PORTAFLOW_GRAPH_BALANCE");
    p->balance = balance && (*balance == '0' || *balance == '1') ? *balance - '0' : -1;
    char options[160];
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DPF_CAP_BITS=64 -DPF_ATOM64=1 "
             "-DPF_GRAPH_F64=%d", p->f64);
    int rc = pf_cl_build_program(dev, pf_cl_graph_source, pf_cl_graph_source_len, options,
                                 graph_kernel_names, p->f64 ? GK_COUNT : GK_WITHOUT_F64,
                                 &p->program, p->kernels, st);
    if (rc) {
        free(p);
        return rc;
    }
    dev->graph = p;
    *out = p;
    return PF_OK;
}

/* counters[0..3] = {0, 0, c2, 0}. */
static int reset_counters(pf_dev *dev, const pf_dev_csr *g, int64_t c2, pf_status *st)
{
    const cl_long start[4] = {0, 0, c2, 0};
    cl_int err = clEnqueueWriteBuffer(dev->queue, g->counters->mem, CL_TRUE, 0, sizeof start,
                                      start, 0, NULL, NULL);
    return err == CL_SUCCESS ? PF_OK
                             : pf_cl_fail_on(st, "clEnqueueWriteBuffer", "graph counters", err);
}

static int read_counters(pf_dev *dev, const pf_dev_csr *g, int64_t *c, pf_status *st)
{
    cl_long values[4];
    cl_int err = clEnqueueReadBuffer(dev->queue, g->counters->mem, CL_TRUE, 0, sizeof values,
                                     values, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return pf_cl_fail_on(st, "clEnqueueReadBuffer", "graph counters", err);
    for (int i = 0; i < 4; i++)
        c[i] = values[i];
    return PF_OK;
}

/* Sets the arguments and enqueues `items` work-items (rounded up to whole
 * groups; the kernels check their range). */
static int launch(pf_dev *dev, struct pf_cl_graph *p, int k, int64_t items, const cl_arg *args,
                  int nargs, pf_status *st)
{
    int rc = pf_cl_set_args(p->kernels[k], graph_kernel_names[k], args, nargs, st);
    if (rc || items <= 0)
        return rc;
    size_t local = dev->group_size;
    size_t global = ((size_t)items + local - 1) / local * local;
    cl_int err = clEnqueueNDRangeKernel(dev->queue, p->kernels[k], 1, NULL, &global, &local, 0,
                                        NULL, NULL);
    return err == CL_SUCCESS ? PF_OK
                             : pf_cl_fail_on(st, "clEnqueueNDRangeKernel", graph_kernel_names[k],
                                             err);
}

/* Whether to advance over arcs: a GPU, and a frontier of high mean degree. */
static int balance_arcs(const struct pf_cl_graph *p, int64_t count, int64_t in_arcs)
{
    if (in_arcs <= 0 || in_arcs >= BALANCE_MOST_ARCS || p->balance == 0)
        return 0;
    return p->balance == 1 || (p->lanes > 1 && in_arcs > count * BALANCE_MEAN_DEGREE);
}

/* g->lb_offset = the exclusive scan of the listed vertices' degrees. */
static int frontier_offsets(pf_dev *dev, struct pf_cl_graph *p, const pf_dev_csr *g, pf_buf *in,
                            int64_t count, pf_status *st)
{
    cl_long n_items = count;
    cl_arg args[] = {ARG(in->mem), ARG(n_items), ARG(g->first->mem), ARG(g->lb_degree->mem)};
    int rc = launch(dev, p, GK_FRONTIER_DEGREE, count, args, NARGS(args), st);
    int64_t total = 0;
    if (!rc)
        rc = pf_cl_scan_i32(dev, g->lb_degree, g->lb_offset, count, &total, st);
    return rc;
}

int pf_cl_bfs_push(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count, int64_t in_arcs,
                   pf_buf *dist, int32_t level, pf_buf *out, int64_t *out_count,
                   int64_t *out_arcs, pf_status *st)
{
    struct pf_cl_graph *p = NULL;
    int64_t c[4] = {0, 0, 0, 0};
    int rc = program(dev, &p, st);
    if (!rc)
        rc = reset_counters(dev, g, 0, st);
    cl_long n_items = count, arcs = in_arcs;
    cl_int lanes = p ? p->lanes : 1, lvl = level;
    if (!rc && balance_arcs(p, count, in_arcs)) {
        rc = frontier_offsets(dev, p, g, in, count, st);
        cl_arg args[] = {ARG(in->mem), ARG(g->lb_offset->mem), ARG(n_items), ARG(arcs),
                         ARG(g->first->mem), ARG(g->head->mem), ARG(dist->mem), ARG(lvl),
                         ARG(out->mem), ARG(g->counters->mem)};
        if (!rc)
            rc = launch(dev, p, GK_BFS_PUSH_ARCS, in_arcs, args, NARGS(args), st);
    } else if (!rc) {
        cl_arg args[] = {ARG(in->mem),   ARG(n_items), ARG(lanes),    ARG(g->first->mem),
                         ARG(g->head->mem), ARG(dist->mem), ARG(lvl), ARG(out->mem),
                         ARG(g->counters->mem)};
        rc = launch(dev, p, GK_BFS_PUSH, count * lanes, args, NARGS(args), st);
    }
    if (!rc)
        rc = read_counters(dev, g, c, st);
    if (!rc) {
        *out_count = c[0];
        *out_arcs = c[1];
    }
    return rc;
}

int pf_cl_bfs_pull(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t level, pf_buf *flags,
                   int64_t *found, int64_t *found_arcs, pf_status *st)
{
    struct pf_cl_graph *p = NULL;
    int64_t c[4] = {0, 0, 0, 0};
    int rc = program(dev, &p, st);
    if (!rc)
        rc = reset_counters(dev, g, 0, st);
    cl_long n = g->n;
    cl_int lvl = level;
    if (!rc) {
        cl_arg args[] = {ARG(n), ARG(g->rfirst->mem), ARG(g->rhead->mem), ARG(g->first->mem),
                         ARG(dist->mem), ARG(lvl), ARG(flags->mem), ARG(g->counters->mem)};
        rc = launch(dev, p, GK_BFS_PULL, n, args, NARGS(args), st);
    }
    if (!rc)
        rc = read_counters(dev, g, c, st);
    if (!rc) {
        *found = c[0];
        *found_arcs = c[1];
    }
    return rc;
}

int pf_cl_bfs_parents(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, int32_t source,
                      pf_buf *parent, pf_status *st)
{
    struct pf_cl_graph *p = NULL;
    int rc = program(dev, &p, st);
    cl_long n = g->n;
    cl_int s = source;
    if (!rc) {
        cl_arg args[] = {ARG(n), ARG(g->rfirst->mem), ARG(g->rhead->mem), ARG(dist->mem), ARG(s),
                         ARG(parent->mem)};
        rc = launch(dev, p, GK_BFS_PARENTS, n, args, NARGS(args), st);
    }
    return rc;
}

int pf_cl_sssp_relax(pf_dev *dev, const pf_dev_csr *g, pf_buf *in, int64_t count,
                     int64_t in_arcs, pf_buf *dist, pf_buf *claim, int32_t step, pf_buf *near,
                     pf_buf *far, int64_t bound_i, double bound_f, int64_t *near_count,
                     int64_t *near_arcs, pf_status *st)
{
    struct pf_cl_graph *p = NULL;
    int64_t c[4] = {0, 0, 0, 0};
    int rc = program(dev, &p, st);
    if (!rc && g->weights == 2 && !p->f64)
        rc = pf_fail(st, PF_E_DEVICE, "opencl: %s has no doubles (cl_khr_fp64), which real "
                     "weights need; use --backend omp or seq", dev->desc.name);
    if (!rc)
        rc = reset_counters(dev, g, 0, st);
    cl_long n_items = count, bound = bound_i, arcs = in_arcs;
    cl_int lanes = p ? p->lanes : 1, stp = step, has_weight = g->weight != NULL;
    cl_double bound_d = bound_f;
    /* Without weights a dummy buffer stands in (the kernel does not read it). */
    cl_mem weight = g->weight ? g->weight->mem : g->first->mem;
    int by_arc = !rc && balance_arcs(p, count, in_arcs);
    if (by_arc)
        rc = frontier_offsets(dev, p, g, in, count, st);
    if (!rc && by_arc && g->weights == 2) {
        cl_arg args[] = {ARG(in->mem),   ARG(g->lb_offset->mem), ARG(n_items),   ARG(arcs),
                         ARG(g->first->mem), ARG(g->head->mem),  ARG(weight),    ARG(dist->mem),
                         ARG(claim->mem), ARG(stp),              ARG(near->mem), ARG(far->mem),
                         ARG(bound_d),   ARG(g->counters->mem)};
        rc = launch(dev, p, GK_RELAX_ARCS_F64, in_arcs, args, NARGS(args), st);
    } else if (!rc && by_arc) {
        cl_arg args[] = {ARG(in->mem),    ARG(g->lb_offset->mem), ARG(n_items),   ARG(arcs),
                         ARG(g->first->mem), ARG(g->head->mem),   ARG(weight),    ARG(has_weight),
                         ARG(dist->mem),  ARG(claim->mem),        ARG(stp),       ARG(near->mem),
                         ARG(far->mem),   ARG(bound),             ARG(g->counters->mem)};
        rc = launch(dev, p, GK_RELAX_ARCS_I64, in_arcs, args, NARGS(args), st);
    } else if (!rc && g->weights == 2) {
        cl_arg args[] = {ARG(in->mem),    ARG(n_items),      ARG(lanes),    ARG(g->first->mem),
                         ARG(g->head->mem), ARG(weight),     ARG(dist->mem), ARG(claim->mem),
                         ARG(stp),        ARG(near->mem),    ARG(far->mem), ARG(bound_d),
                         ARG(g->counters->mem)};
        rc = launch(dev, p, GK_RELAX_F64, count * lanes, args, NARGS(args), st);
    } else if (!rc) {
        cl_arg args[] = {ARG(in->mem),    ARG(n_items),   ARG(lanes),     ARG(g->first->mem),
                         ARG(g->head->mem), ARG(weight),  ARG(has_weight), ARG(dist->mem),
                         ARG(claim->mem), ARG(stp),       ARG(near->mem), ARG(far->mem),
                         ARG(bound),      ARG(g->counters->mem)};
        rc = launch(dev, p, GK_RELAX_I64, count * lanes, args, NARGS(args), st);
    }
    if (!rc)
        rc = read_counters(dev, g, c, st);
    if (!rc) {
        *near_count = c[0];
        *near_arcs = c[1];
    }
    return rc;
}

int pf_cl_sssp_far(pf_dev *dev, const pf_dev_csr *g, pf_buf *dist, pf_buf *far, int64_t bound_i,
                   double bound_f, pf_buf *out, pf_sssp_far_out *res, pf_status *st)
{
    struct pf_cl_graph *p = NULL;
    int64_t c[4] = {0, 0, 0, 0};
    int real = g->weights == 2;
    cl_long bound = bound_i, n = g->n;
    if (real) /* non-negative doubles order as their bits do */
        memcpy(&bound, &bound_f, sizeof bound);
    int rc = program(dev, &p, st);
    if (!rc)
        rc = reset_counters(dev, g, INT64_MAX, st);
    if (!rc) {
        cl_arg args[] = {ARG(n), ARG(g->first->mem), ARG(dist->mem), ARG(far->mem), ARG(bound),
                         ARG(out->mem), ARG(g->counters->mem)};
        rc = launch(dev, p, GK_FAR, n, args, NARGS(args), st);
    }
    if (!rc)
        rc = read_counters(dev, g, c, st);
    if (!rc) {
        res->count = c[0];
        res->arcs = c[3];
        res->rest = c[1];
        res->rest_min_i = c[2];
        res->rest_min_f = INFINITY;
        if (real && c[1] > 0)
            memcpy(&res->rest_min_f, &c[2], sizeof res->rest_min_f);
    }
    return rc;
}

int pf_cl_intersect_count(pf_dev *dev, const pf_dev_csr *g, int64_t *total, pf_status *st)
{
    struct pf_cl_graph *p = NULL;
    int64_t c[4] = {0, 0, 0, 0};
    int rc = program(dev, &p, st);
    if (!rc)
        rc = reset_counters(dev, g, 0, st);
    cl_long n = g->n;
    cl_int lanes = p ? p->lanes : 1;
    if (!rc) {
        cl_arg args[] = {ARG(n), ARG(lanes), ARG(g->first->mem), ARG(g->head->mem),
                         ARG(g->counters->mem)};
        rc = launch(dev, p, GK_INTERSECT, n * lanes, args, NARGS(args), st);
    }
    if (!rc)
        rc = read_counters(dev, g, c, st);
    if (!rc)
        *total = c[0];
    return rc;
}
