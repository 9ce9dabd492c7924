/* Setting OpenCL kernel arguments and enqueueing kernels, with errors that
 * name the kernel and the argument: what the typed launchers and setters
 * of cl_kernels.h call. */
#include "cl_internal.h"

#include <stdio.h>

#include "common/status.h"

int pf_cl_set_arg(cl_kernel kernel, const char *kernel_name, cl_uint index,
                  const char *arg_name, size_t size, const void *value, pf_status *st)
{
    cl_int err = clSetKernelArg(kernel, index, size, value);
    if (err == CL_SUCCESS)
        return PF_OK;
    char what[120];
    snprintf(what, sizeof what, "%s, argument %u (%s)", kernel_name, (unsigned)index, arg_name);
    return pf_cl_fail_on(st, "clSetKernelArg", what, err);
}

int pf_cl_enqueue(pf_dev *dev, cl_kernel kernel, const char *kernel_name, size_t groups,
                  size_t local, pf_status *st)
{
    size_t global = groups * local;
    cl_int err =
        clEnqueueNDRangeKernel(dev->queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return pf_cl_fail_on(st, "clEnqueueNDRangeKernel", kernel_name, err);
    return PF_OK;
}
