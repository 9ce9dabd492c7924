/* Address-space, type and atomic macros that let one kernel body compile
 * as OpenCL C 1.2 (+ cl_khr_int64_base_atomics), CUDA C++ and host C with
 * GCC atomics (the OpenMP backend). Only the macros differ per dialect.
 *
 * Loads of data other workers update (residuals, excess, heights) go
 * through PF_LOAD_*: on GPUs a plain load may be served from a non-coherent
 * L1 line that predates this worker's own atomic update, which would let a
 * vertex push the same residual twice. */
#ifndef PF_VENDOR_H
#define PF_VENDOR_H

#if defined(__OPENCL_VERSION__)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
typedef long pf_i64;
typedef int pf_i32;
#define PF_GLOBAL __global
#define PF_FN static inline
#define PF_LOAD_I64(p) (*(volatile __global long *)(p))
#define PF_LOAD_I32(p) (*(volatile __global int *)(p))
#define PF_STORE_I32(p, v) (*(volatile __global int *)(p) = (v))
#define PF_ATOMIC_ADD_I64(p, v) atom_add((volatile __global long *)(p), (long)(v))
#define PF_ATOMIC_CAS_I32(p, expect, v) atomic_cmpxchg((volatile __global int *)(p), (expect), (v))
#define PF_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)

/* A group of workers sharing one vertex (pf_body_push_relabel_lanes): the
 * work-group, talking through local memory. Every call is a barrier, so
 * the whole group must make it: values it returns are the same for all. */
#define PF_HAVE_LANES 1
typedef struct pf_lanes {
    int lane, lanes;          /* lanes = the work-group size, a power of two */
    __local long *word;       /* 1 */
    __local int *lane_h;      /* lanes */
    __local long *lane_arc;   /* lanes */
} pf_lanes;

/* Lane 0's value, for every lane. */
PF_FN long pf_lanes_bcast(pf_lanes *g, long value)
{
    barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read the last one */
    if (g->lane == 0)
        g->word[0] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    return g->word[0];
}

/* The lowest height over the lanes, ties to the first arc; for every lane. */
PF_FN void pf_lanes_lowest(pf_lanes *g, int *h, long *arc)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    g->lane_h[g->lane] = *h;
    g->lane_arc[g->lane] = *arc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = g->lanes / 2; stride > 0; stride /= 2) {
        if (g->lane < stride) {
            int oh = g->lane_h[g->lane + stride];
            long oa = g->lane_arc[g->lane + stride], a = g->lane_arc[g->lane];
            if (oh < g->lane_h[g->lane] ||
                (oh == g->lane_h[g->lane] && oa >= 0 && (a < 0 || oa < a))) {
                g->lane_h[g->lane] = oh;
                g->lane_arc[g->lane] = oa;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *h = g->lane_h[0];
    *arc = g->lane_arc[0];
}

#elif defined(__CUDACC__)
typedef long long pf_i64;
typedef int pf_i32;
#define PF_GLOBAL
#define PF_FN static __device__ __forceinline__
#define PF_LOAD_I64(p) (*(volatile const pf_i64 *)(p))
#define PF_LOAD_I32(p) (*(volatile const pf_i32 *)(p))
#define PF_STORE_I32(p, v) (*(volatile pf_i32 *)(p) = (v))
#define PF_ATOMIC_ADD_I64(p, v) \
    ((pf_i64)atomicAdd((unsigned long long *)(p), (unsigned long long)(pf_i64)(v)))
#define PF_ATOMIC_CAS_I32(p, expect, v) atomicCAS((int *)(p), (expect), (v))
#define PF_FENCE() __threadfence()

/* A group of workers sharing one vertex (pf_body_push_relabel_lanes):
 * `lanes` consecutive lanes of a warp (a power of two up to 32), talking
 * through shuffles. */
#define PF_HAVE_LANES 1
typedef struct pf_lanes {
    unsigned mask; /* this group's lanes within the warp */
    int lane, lanes;
} pf_lanes;

/* Lane 0's value, for every lane. */
static __device__ __forceinline__ pf_i64 pf_lanes_bcast(pf_lanes *g, pf_i64 value)
{
    return __shfl_sync(g->mask, value, 0, g->lanes);
}

/* The lowest height over the lanes, ties to the first arc; for every lane. */
static __device__ __forceinline__ void pf_lanes_lowest(pf_lanes *g, pf_i32 *h, pf_i64 *arc)
{
    for (int offset = g->lanes / 2; offset > 0; offset /= 2) {
        pf_i32 oh = __shfl_xor_sync(g->mask, *h, offset, g->lanes);
        pf_i64 oa = __shfl_xor_sync(g->mask, *arc, offset, g->lanes);
        if (oh < *h || (oh == *h && oa >= 0 && (*arc < 0 || oa < *arc))) {
            *h = oh;
            *arc = oa;
        }
    }
}

#else /* host C: the OpenMP backend */
#include <stdint.h>
typedef int64_t pf_i64;
typedef int32_t pf_i32;
#define PF_GLOBAL
#define PF_FN static inline
#define PF_LOAD_I64(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define PF_LOAD_I32(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define PF_STORE_I32(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define PF_ATOMIC_ADD_I64(p, v) __atomic_fetch_add((p), (pf_i64)(v), __ATOMIC_RELAXED)
static inline pf_i32 pf_atomic_cas_i32(pf_i32 *p, pf_i32 expect, pf_i32 v)
{
    __atomic_compare_exchange_n(p, &expect, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expect; /* the value seen: equals the expected one on success */
}
#define PF_ATOMIC_CAS_I32(p, expect, v) pf_atomic_cas_i32((p), (expect), (v))
#define PF_FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
/* The OpenMP backend asks for absolute reverse-arc indices (its ops set
 * rev_absolute): a push then skips the load of first[v], one cache miss in
 * a handful on a CPU (NOTES 27). `first` and `v` go unused. */
#define PF_REV_ARC(first, rev, a, v) ((void)(first), (void)(v), (pf_i64)(uint32_t)(rev)[a])
#endif

#endif
