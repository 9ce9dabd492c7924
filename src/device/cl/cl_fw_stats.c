/* fw_stats of the OpenCL backend (device.h; kernel: kernels/pf_fw_stats.cl
 * after the shared body src/device/shared/pf_fw_stats.h): a work-group per
 * row writes the row's partials, and the host adds the n rows' partials
 * (24 bytes a row instead of the row). One small program per integer
 * kind, built on first use and kept until the device closes. */
#include "cl_kernels.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/status.h"

enum { STATS_KINDS = 2, STATS_ITEMS_MOST = 256 };

/* The program's one kernel (pf_kernel_table.h: PF_FW_STATS_KERNELS). */
#define KERNEL_NAME(ID, name) "pf_k_" #name,
static const char *const stats_kernel_names[1] = {PF_FW_STATS_KERNELS(KERNEL_NAME)};
#undef KERNEL_NAME

struct pf_cl_fw_stats {
    cl_program program[STATS_KINDS]; /* by kind: int32, int64 */
    cl_kernel kernel[STATS_KINDS];
    size_t items; /* work-items of a group */
};

void pf_cl_fw_stats_release(pf_dev *dev)
{
    struct pf_cl_fw_stats *p = dev->fw_stats;
    if (!p)
        return;
    for (int k = 0; k < STATS_KINDS; k++) {
        if (p->kernel[k])
            clReleaseKernel(p->kernel[k]);
        if (p->program[k])
            clReleaseProgram(p->program[k]);
    }
    free(p);
    dev->fw_stats = NULL;
}

static int get_kernel(pf_dev *dev, int32_t kind, cl_kernel *kernel, size_t *items,
                      pf_status *st)
{
    if (!dev->fw_stats && !(dev->fw_stats = pf_calloc(1, sizeof *dev->fw_stats, st)))
        return PF_E_NOMEM;
    struct pf_cl_fw_stats *p = dev->fw_stats;
    int k = kind == PF_DIST_I64;
    if (!p->kernel[k]) {
        size_t most = dev->group_size ? dev->group_size : 1;
        p->items = most < STATS_ITEMS_MOST ? most : STATS_ITEMS_MOST;
        char options[200];
        snprintf(options, sizeof options,
                 "-cl-std=CL1.2 -DPF_FW_T=%s -DPF_FW_INF_HALF=%lld%s -DPF_STATS_ITEMS=%zu",
                 k ? "long" : "int",
                 k ? (long long)(PF_FW_INF_I64 / 2) : (long long)(PF_FW_INF_I32 / 2), k ? "L" : "",
                 p->items);
        int rc = pf_cl_build_program(dev, pf_cl_fw_stats_source, pf_cl_fw_stats_source_len,
                                     options, stats_kernel_names, 1, &p->program[k],
                                     &p->kernel[k], st);
        if (rc)
            return rc;
    }
    *kernel = p->kernel[k];
    *items = p->items;
    return PF_OK;
}

/* The rows' partials (count, sum bits, most) added up. */
static void fold_partials(const int64_t *partial, int32_t n, pf_fw_stats *out)
{
    *out = (pf_fw_stats){.reachable = 0, .sum = 0, .most = INT64_MIN};
    for (int32_t i = 0; i < n; i++) {
        out->reachable += partial[3 * (size_t)i];
        out->sum += (uint64_t)partial[3 * (size_t)i + 1];
        out->most = partial[3 * (size_t)i + 2] > out->most ? partial[3 * (size_t)i + 2]
                                                           : out->most;
    }
}

int pf_cl_fw_stats(pf_dev *dev, const pf_dev_apsp *a, int32_t n, pf_fw_stats *out,
                   pf_status *st)
{
    if (!a || !a->dist || (a->kind != PF_DIST_I32 && a->kind != PF_DIST_I64))
        return pf_fail(st, PF_E_USAGE, "opencl fw_stats: integer distances only (kind %d)",
                       a ? (int)a->kind : -1);
    if (n <= 0 || n > a->n ||
        a->dist->bytes / (a->kind == PF_DIST_I64 ? 8 : 4) < (uint64_t)a->n * (uint64_t)a->n)
        return pf_fail(st, PF_E_USAGE, "opencl fw_stats: %d rows of a %d x %d matrix", (int)n,
                       (int)a->n, (int)a->n);
    cl_kernel kernel;
    size_t items;
    int rc = get_kernel(dev, a->kind, &kernel, &items, st);
    if (rc)
        return rc;
    size_t bytes = (size_t)n * 3 * sizeof(int64_t);
    int64_t *partial = pf_alloc((size_t)n * 3, sizeof *partial, st);
    if (!partial)
        return PF_E_NOMEM;
    cl_int err;
    cl_mem dev_partial = clCreateBuffer(dev->context, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        free(partial);
        return pf_cl_fail_on(st, "clCreateBuffer", "fw_stats partials", err);
    }
    cl_mem dist = a->dist->mem;
    rc = pf_cl_args_fw_stats(kernel, st, dist, dev_partial, n, a->n);
    size_t local = items, global = (size_t)n * items;
    if (!rc) {
        err = clEnqueueNDRangeKernel(dev->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            rc = pf_cl_fail_on(st, "clEnqueueNDRangeKernel", stats_kernel_names[0], err);
    }
    if (!rc) {
        err = clEnqueueReadBuffer(dev->queue, dev_partial, CL_TRUE, 0, bytes, partial, 0, NULL,
                                  NULL);
        if (err != CL_SUCCESS)
            rc = pf_cl_fail_on(st, "clEnqueueReadBuffer", "fw_stats partials", err);
    }
    clReleaseMemObject(dev_partial);
    if (!rc)
        fold_partials(partial, n, out);
    free(partial);
    return rc;
}
