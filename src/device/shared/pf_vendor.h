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
#endif

#endif
