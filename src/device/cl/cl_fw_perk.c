/* The per-k Floyd-Warshall variant of the OpenCL backend (fw_step with
 * PF_FW_PER_K, device.h; kernel: kernels/pf_fw_perk.cl). One small
 * program per (distance kind, next hops on/off), built on first use (from
 * the binary cache when it holds one) and kept until the device closes. */
#include "cl_kernels.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/status.h"

enum {
    PERK_EDGE = 32, /* block edge; device.h: fw_step's n is a multiple of it */
    PERK_KINDS = 3,
};

/* The program's one kernel (pf_kernel_table.h: PF_FW_PERK_KERNELS). */
#define KERNEL_NAME(ID, name) "pf_k_" #name,
static const char *const perk_kernel_names[1] = {PF_FW_PERK_KERNELS(KERNEL_NAME)};
#undef KERNEL_NAME

struct pf_cl_fw_perk {
    cl_program program[PERK_KINDS][2]; /* by kind, next hops off / on */
    cl_kernel kernel[PERK_KINDS][2];
    size_t rows[PERK_KINDS][2];        /* work-items along y (PF_PERK_LY) */
};

void pf_cl_fw_perk_release(pf_dev *dev)
{
    struct pf_cl_fw_perk *p = dev->fw_perk;
    if (!p)
        return;
    for (int kind = 0; kind < PERK_KINDS; kind++)
        for (int paths = 0; paths < 2; paths++) {
            if (p->kernel[kind][paths])
                clReleaseKernel(p->kernel[kind][paths]);
            if (p->program[kind][paths])
                clReleaseProgram(p->program[kind][paths]);
        }
    free(p);
    dev->fw_perk = NULL;
}

/* Work-items along y: 32 (one per row) where the device runs groups of
 * 1024, else as many as fit (each then takes several rows). */
static size_t rows_per_group(pf_dev *dev)
{
    size_t most = 0;
    if (clGetDeviceInfo(dev->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof most, &most, NULL) !=
        CL_SUCCESS)
        most = 256;
    size_t rows = PERK_EDGE;
    while (rows > 1 && rows * PERK_EDGE > most)
        rows /= 2;
    return rows;
}

static int get_kernel(pf_dev *dev, int32_t kind, int paths, cl_kernel *kernel, size_t *rows,
                      pf_status *st)
{
    if (!dev->fw_perk && !(dev->fw_perk = pf_calloc(1, sizeof *dev->fw_perk, st)))
        return PF_E_NOMEM;
    struct pf_cl_fw_perk *p = dev->fw_perk;
    if (!p->kernel[kind][paths]) {
        size_t ly = rows_per_group(dev);
        char options[200];
        snprintf(options, sizeof options,
                 "-cl-std=CL1.2 -DPF_FW_T=%s -DPF_FW_FLOAT=%d -DPF_FW_PATHS=%d -DPF_PERK_LY=%zu",
                 kind == PF_DIST_I64 ? "long" : kind == PF_DIST_F32 ? "float" : "int",
                 kind == PF_DIST_F32, paths, ly);
        int rc = pf_cl_build_program(dev, pf_cl_fw_perk_source, pf_cl_fw_perk_source_len,
                                     options, perk_kernel_names, 1, &p->program[kind][paths],
                                     &p->kernel[kind][paths], st);
        if (rc)
            return rc;
        p->rows[kind][paths] = ly;
    }
    *kernel = p->kernel[kind][paths];
    *rows = p->rows[kind][paths];
    return PF_OK;
}

int pf_cl_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k,
                  pf_status *st)
{
    if (variant != PF_FW_PER_K)
        return pf_fail(st, PF_E_USAGE, "opencl fw_step: variant %d is not per-k", variant);
    if (!a || !a->dist || a->kind < PF_DIST_I32 || a->kind > PF_DIST_F32 || a->n <= 0 ||
        a->n % PERK_EDGE || k < 0 || k >= a->n)
        return pf_fail(st, PF_E_USAGE, "opencl fw_step: step %d of n %d (a multiple of %d)",
                       (int)k, a ? (int)a->n : -1, PERK_EDGE);
    uint64_t cells = (uint64_t)a->n * (uint64_t)a->n;
    if (a->dist->bytes / (a->kind == PF_DIST_I64 ? 8 : 4) < cells ||
        (a->next && a->next->bytes / sizeof(cl_int) < cells))
        return pf_fail(st, PF_E_USAGE, "opencl fw_step: buffers smaller than %d x %d",
                       (int)a->n, (int)a->n);
    int paths = a->next != NULL;
    cl_kernel kernel;
    size_t rows;
    int rc = get_kernel(dev, a->kind, paths, &kernel, &rows, st);
    if (rc)
        return rc;
    /* An unused next still needs a valid argument: the distances stand in. */
    cl_mem dist = a->dist->mem, next = paths ? a->next->mem : a->dist->mem;
    if ((rc = pf_cl_args_fw_per_k(kernel, st, dist, next, a->n, k)))
        return rc;
    size_t groups = (size_t)(a->n / PERK_EDGE);
    size_t local[2] = {PERK_EDGE, rows}, global[2] = {groups * PERK_EDGE, groups * rows};
    cl_int err = clEnqueueNDRangeKernel(dev->queue, kernel, 2, NULL, global, local, 0, NULL,
                                        NULL);
    return err == CL_SUCCESS ? PF_OK
                             : pf_cl_fail_on(st, "clEnqueueNDRangeKernel", perk_kernel_names[0],
                                             err);
}
