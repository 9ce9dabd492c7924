/* The OpenCL host side of the kernel table (src/device/shared/
 * pf_kernel_table.h), generated from each kernel's line in the table:
 * for every kernel of the max-flow program a typed launcher that sets the
 * arguments in the table's order and enqueues the kernel,
 *
 *   int pf_cl_launch_NAME(pf_dev *dev, cl_kernel *set, size_t groups,
 *                         size_t local, pf_status *st, ARGS...);
 *
 * and for the Floyd-Warshall kernels (programs of their own, launched in
 * 2-D) a typed setter of the arguments,
 *
 *   int pf_cl_args_NAME(cl_kernel kernel, pf_status *st, ARGS...);
 *
 * `set` is the program's kernels (pf_cl_kernels_for, or
 * dev->kernels[dev->base] for the scans); the launch is 1-D, `groups`
 * work-groups of `local` work-items. ARGS follow the table: a buffer is a
 * cl_mem, a value a cl_int (pf_i32) or cl_long (pf_i64), a local buffer
 * its length in elements (parameter NAME_items). A call whose arguments
 * do not match the table fails to compile, and the size of every value
 * comes from the table, not from the caller.
 *
 * The enum of the kernels and their names come from the same lists
 * (cl_internal.h, cl_program.c). */
#ifndef PF_CL_KERNELS_H
#define PF_CL_KERNELS_H

#include "cl_internal.h"

/* Host type of a value type of the table. */
#define PF_CL_HOST_pf_i32 cl_int
#define PF_CL_HOST_pf_i64 cl_long

/* The parameters of a launcher. */
#define PF_CL_PARAM_G(type, name) , cl_mem name
#define PF_CL_PARAM_V(type, name) , PF_CL_HOST_##type name
#define PF_CL_PARAM_L(type, name) , size_t name##_items

/* Setting one argument: `kernel`, `kernel_name`, `arg` and `rc` are
 * locals of the launcher. */
#define PF_CL_SET_ARG(name, size, value)                                                   \
    if ((rc = pf_cl_set_arg(kernel, kernel_name, arg++, #name, (size), (value), st)))      \
        return rc;
#define PF_CL_SET_G(type, name) PF_CL_SET_ARG(name, sizeof(cl_mem), &name)
#define PF_CL_SET_V(type, name) PF_CL_SET_ARG(name, sizeof(PF_CL_HOST_##type), &name)
#define PF_CL_SET_L(type, name) PF_CL_SET_ARG(name, name##_items * sizeof(PF_CL_HOST_##type), NULL)

#define PF_CL_LAUNCHER(ID, name)                                                           \
    static inline int pf_cl_launch_##name(                                                 \
        pf_dev *dev, cl_kernel *set, size_t groups, size_t local,                          \
        pf_status *st PF_ARGS_##name(PF_CL_PARAM_G, PF_CL_PARAM_V, PF_CL_PARAM_L))         \
    {                                                                                      \
        cl_kernel kernel = set[PF_CLK_##ID];                                               \
        const char *kernel_name = pf_cl_kernel_names[PF_CLK_##ID];                         \
        cl_uint arg = 0;                                                                   \
        int rc;                                                                            \
        PF_ARGS_##name(PF_CL_SET_G, PF_CL_SET_V, PF_CL_SET_L)                              \
        return pf_cl_enqueue(dev, kernel, kernel_name, groups, local, st);                 \
    }

PF_CL_KERNELS(PF_CL_LAUNCHER)

#define PF_CL_ARGS_SETTER(ID, name)                                                        \
    static inline int pf_cl_args_##name(                                                  \
        cl_kernel kernel, pf_status *st PF_ARGS_##name(PF_CL_PARAM_G, PF_CL_PARAM_V,       \
                                                       PF_CL_PARAM_L))                     \
    {                                                                                      \
        const char *kernel_name = "pf_k_" #name;                                           \
        cl_uint arg = 0;                                                                   \
        int rc;                                                                            \
        PF_ARGS_##name(PF_CL_SET_G, PF_CL_SET_V, PF_CL_SET_L)                              \
        return PF_OK;                                                                      \
    }

PF_FW_KERNELS(PF_CL_ARGS_SETTER)
PF_FW_PERK_KERNELS(PF_CL_ARGS_SETTER)
PF_FW_STATS_KERNELS(PF_CL_ARGS_SETTER)
PF_GRAPH_KERNELS(PF_CL_ARGS_SETTER)
PF_GRAPH_F64_KERNELS(PF_CL_ARGS_SETTER)

#endif
