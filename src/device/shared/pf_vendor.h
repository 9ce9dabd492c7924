/* Address-space, type and atomic macros that let one kernel body compile
 * as OpenCL C 1.2, CUDA C++ and host C with GCC atomics (the OpenMP
 * backend). Only the macros differ per dialect.
 *
 * Residuals and excess have the type pf_cap: int64, or int32 where the
 * driver proved 32 bits enough (driver.c: cap_bits_needed). OpenCL builds
 * its program once per width with -DPF_CAP_BITS=32|64; CUDA includes
 * pf_kernels.h once per width inside a namespace that defines pf_cap
 * (cuda_steps.cu); the OpenMP backend uses 64 bits. PF_LOAD_CAP and
 * PF_ATOMIC_ADD_CAP act on pf_cap.
 *
 * The int64 counters (relabel work, BFS frontier sizes) change through
 * PF_COUNTER_ADD (a non-negative amount, read after the kernel) and
 * PF_COUNTER_NEXT (one more, returns the old value, which stays below
 * 2^31: it indexes a vertex list). PF_FRONTIER_APPEND(counters, degree)
 * is a frontier's append: the slot from counters[0], the vertex's degree
 * into counters[1]; PF_FRONTIER_APPEND_ONE(counters) the slot alone. An OpenCL device without
 * cl_khr_int64_base_atomics (-DPF_ATOM64=0) does both with 32-bit atomics
 * on the slot's two words; the host only runs it on little-endian devices.
 *
 * Loads of data other workers update (residuals, excess, heights) go
 * through PF_LOAD_*: on GPUs a plain load may be served from a non-coherent
 * L1 line that predates this worker's own atomic update, which would let a
 * vertex push the same residual twice.
 *
 * The kernels (the wrappers at the end of pf_kernels.h) are written once
 * with PF_KERNEL(name), which takes the parameters from pf_kernel_table.h,
 * PF_GLOBAL_ID / PF_GLOBAL_SIZE (a 1-D grid), PF_ADD_WORK (the relabel
 * work into its counter) and, for a group of workers per vertex,
 * PF_KERNEL_LANES, PF_LANES_VERTEX and PF_LANES_INIT. A kernel that keeps
 * a queue in its work-group's memory declares it with PF_LOCAL_ARRAY (at
 * the kernel's top level), points at it with PF_LOCAL pointers, takes a
 * slot with PF_LOCAL_NEXT_I32, strides over it with PF_LOCAL_ID /
 * PF_LOCAL_SIZE and waits for its group with PF_GROUP_BARRIER (global
 * memory included). */
#ifndef PF_VENDOR_H
#define PF_VENDOR_H

#if defined(__OPENCL_VERSION__)
#ifndef PF_CAP_BITS
#define PF_CAP_BITS 64
#endif
#ifndef PF_ATOM64 /* the max-flow program sets it; the others follow the device */
#ifdef cl_khr_int64_base_atomics
#define PF_ATOM64 1
#else
#define PF_ATOM64 0
#endif
#endif
typedef long pf_i64;
typedef ulong pf_u64;
typedef int pf_i32;
#define PF_GLOBAL __global
#define PF_FN static inline
#define PF_LOAD_I64(p) (*(volatile __global long *)(p))
#define PF_LOAD_I32(p) (*(volatile __global int *)(p))
#define PF_STORE_I32(p, v) (*(volatile __global int *)(p) = (v))
#define PF_ATOMIC_CAS_I32(p, expect, v) atomic_cmpxchg((volatile __global int *)(p), (expect), (v))
#define PF_ATOMIC_XCHG_I32(p, v) atomic_xchg((volatile __global int *)(p), (v))
/* the value before: v lowered it where that is above v */
#define PF_ATOMIC_MIN_I32(p, v) atomic_min((volatile __global int *)(p), (v))
/* OpenCL 1.2 orders this work-item's global accesses only: it promises no
 * order as seen from other work-groups (pf_body_push_relabel_follow says
 * why the bodies do not rely on one). */
#define PF_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#if PF_ATOM64
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define PF_COUNTER_ADD(p, v) ((void)atom_add((volatile __global long *)(p), (long)(v)))
#define PF_COUNTER_NEXT(p) atom_inc((volatile __global long *)(p))
#else
/* A 64-bit add from two 32-bit ones: the low word's carry goes to the high
 * word. Only adds happen while a kernel runs, so the sum is exact once it
 * ends (little-endian: the low word first). */
PF_FN void pf_counter_add(__global long *p, long v)
{
    volatile __global uint *word = (volatile __global uint *)p;
    uint low = (uint)v, high = (uint)((ulong)v >> 32);
    uint before = atomic_add(&word[0], low);
    if (before + low < before)
        high++;
    if (high)
        atomic_add(&word[1], high);
}
#define PF_COUNTER_ADD(p, v) pf_counter_add((p), (long)(v))
#define PF_COUNTER_NEXT(p) ((long)atomic_inc((volatile __global int *)(p)))
#endif
#define PF_FRONTIER_APPEND(counters, degree) \
    (PF_COUNTER_ADD(&(counters)[1], (degree)), PF_COUNTER_NEXT(&(counters)[0]))
#define PF_FRONTIER_APPEND_ONE(counters) PF_COUNTER_NEXT(&(counters)[0])
#define PF_CHAINED_STEP() ((void)0)
#if PF_CAP_BITS == 32
typedef int pf_cap;
#define PF_LOAD_CAP(p) PF_LOAD_I32(p)
#define PF_ATOMIC_ADD_CAP(p, v) atomic_add((volatile __global int *)(p), (int)(v))
#else
typedef long pf_cap;
#define PF_LOAD_CAP(p) PF_LOAD_I64(p)
#define PF_ATOMIC_ADD_CAP(p, v) atom_add((volatile __global long *)(p), (long)(v))
#endif

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

/* Kernels: a __kernel per step; local buffers are kernel arguments. The
 * relabel work is summed per work-group first, so the counter sees one
 * atomic per group (pf_group_add_work, kernels/pf_group.cl). */
#define PF_LOCAL_ARG(type, name) , __local type *name
#define PF_KERNEL(name) __kernel void pf_k_##name(PF_PARAMS(name))
/* With attributes (reqd_work_group_size) before the return type. */
#define PF_KERNEL_ATTR(name, attr) __kernel attr void pf_k_##name(PF_PARAMS(name))
#define PF_GLOBAL_ID() ((pf_i64)get_global_id(0))
#define PF_GLOBAL_SIZE() ((pf_i64)get_global_size(0))
#define PF_LOCAL __local
#define PF_LOCAL_ARRAY(type, name, size) __local type name[size]
#define PF_LOCAL_NEXT_I32(p) atomic_inc((volatile __local int *)(p))
#define PF_LOCAL_ID() ((pf_i64)get_local_id(0))
#define PF_LOCAL_SIZE() ((pf_i64)get_local_size(0))
#define PF_GROUP_BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define PF_ADD_WORK(counter, work, scratch) pf_group_add_work((counter), (work), (scratch))
/* A work-group per listed vertex, sized by the host (a power of two). */
#define PF_KERNEL_LANES(name) PF_KERNEL(name)
#define PF_LANES_VERTEX() ((pf_i64)get_group_id(0))
#define PF_LANES_INIT(h, arc, w)                                                          \
    {                                                                                     \
        .lane = (int)get_local_id(0), .lanes = (int)get_local_size(0), .word = (w),      \
        .lane_h = (h), .lane_arc = (arc)                                                  \
    }

#elif defined(__CUDACC__)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
typedef long long pf_i64;
typedef unsigned long long pf_u64;
typedef int pf_i32;
#define PF_GLOBAL
#define PF_FN static __device__ __forceinline__
#define PF_LOAD_I64(p) (*(volatile const pf_i64 *)(p))
#define PF_LOAD_I32(p) (*(volatile const pf_i32 *)(p))
#define PF_STORE_I32(p, v) (*(volatile pf_i32 *)(p) = (v))
#define PF_ATOMIC_CAS_I32(p, expect, v) atomicCAS((int *)(p), (expect), (v))
#define PF_ATOMIC_XCHG_I32(p, v) atomicExch((int *)(p), (v))
#define PF_ATOMIC_MIN_I32(p, v) atomicMin((int *)(p), (v))
#define PF_FENCE() __threadfence()
#define PF_COUNTER_ADD(p, v) \
    ((void)atomicAdd((unsigned long long *)(p), (unsigned long long)(pf_i64)(v)))
#define PF_COUNTER_NEXT(p) ((pf_i64)atomicAdd((unsigned long long *)(p), 1ull))
/* One frontier slot per appending thread, the warp's appends taken with
 * one atomic per counter: thousands of appends a step on one counter line
 * otherwise queue at its L2 slice, and a thin frontier's step is short
 * enough for that queue to show. */
static __device__ __forceinline__ pf_i64 pf_frontier_append(pf_i64 *counters, pf_i64 degree)
{
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long sum = cg::reduce(g, (unsigned long long)degree,
                                        cg::plus<unsigned long long>());
    unsigned long long base = 0;
    if (g.thread_rank() == 0) {
        base = atomicAdd((unsigned long long *)&counters[0], (unsigned long long)g.size());
        atomicAdd((unsigned long long *)&counters[1], sum);
    }
    return (pf_i64)g.shfl(base, 0) + (pf_i64)g.thread_rank();
}
/* The same without the degree sum. */
static __device__ __forceinline__ pf_i64 pf_frontier_append_one(pf_i64 *counters)
{
    namespace cg = cooperative_groups;
    cg::coalesced_group g = cg::coalesced_threads();
    unsigned long long base = 0;
    if (g.thread_rank() == 0)
        base = atomicAdd((unsigned long long *)&counters[0], (unsigned long long)g.size());
    return (pf_i64)g.shfl(base, 0) + (pf_i64)g.thread_rank();
}
#define PF_FRONTIER_APPEND(counters, degree) pf_frontier_append((counters), (degree))
#define PF_FRONTIER_APPEND_ONE(counters) pf_frontier_append_one(counters)
/* A step of a chain launched with programmatic dependent launch
 * (sm_90 on): it lets the next step's blocks be scheduled now, then waits
 * until the step before it has finished and its writes are visible. Its
 * blocks then start while the previous step drains instead of after. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define PF_CHAINED_STEP()                                                                  \
    asm volatile("griddepcontrol.launch_dependents;\n\tgriddepcontrol.wait;" ::: "memory")
#else
#define PF_CHAINED_STEP() ((void)0)
#endif
/* pf_cap is a typedef of the namespace that includes pf_kernels.h
 * (cuda_steps.cu); the overloads pick the atomic by its width. */
static __device__ __forceinline__ pf_i32 pf_atomic_add_cap(pf_i32 *p, pf_i32 v)
{
    return atomicAdd(p, v);
}
static __device__ __forceinline__ pf_i64 pf_atomic_add_cap(pf_i64 *p, pf_i64 v)
{
    return (pf_i64)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
#define PF_LOAD_CAP(p) (*(volatile const pf_cap *)(p))
#define PF_ATOMIC_ADD_CAP(p, v) pf_atomic_add_cap((p), (pf_cap)(v))

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

/* The group of LANES consecutive threads of a warp that this thread is in. */
template <int LANES> static __device__ __forceinline__ pf_lanes pf_lanes_in_warp(void)
{
    unsigned warp_lane = threadIdx.x % 32;
    pf_lanes grp;
    grp.lanes = LANES;
    grp.lane = (int)(warp_lane % LANES);
    grp.mask = (LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u)) << (warp_lane - grp.lane);
    return grp;
}

/* Kernels: a __global__ function per step, PF_CUDA_BLOCK threads a block
 * (cuda_internal.h). Shared memory is not passed as an argument: local
 * buffers of the table vanish from the parameter list, and PF_ADD_WORK
 * and PF_LANES_INIT never name them. PF_KERNEL_LANES is a template over
 * LANES, so that with the body inlined the group's width, strides and
 * shuffle widths are constants. */
#define PF_LOCAL_ARG(type, name)
#define PF_KERNEL(name) \
    __global__ void __launch_bounds__(PF_CUDA_BLOCK) pf_k_##name(PF_PARAMS(name))
#define PF_GLOBAL_ID() ((pf_i64)blockIdx.x * blockDim.x + threadIdx.x)
#define PF_GLOBAL_SIZE() ((pf_i64)gridDim.x * blockDim.x)
#define PF_LOCAL
#define PF_LOCAL_ARRAY(type, name, size) __shared__ type name[size]
#define PF_LOCAL_NEXT_I32(p) atomicAdd((int *)(p), 1)
#define PF_LOCAL_ID() ((pf_i64)threadIdx.x)
#define PF_LOCAL_SIZE() ((pf_i64)blockDim.x)
#define PF_GROUP_BARRIER() __syncthreads() /* global and shared writes seen by the block */
#define PF_ADD_WORK(counter, work, scratch)       \
    do {                                          \
        if ((work) != 0)                          \
            PF_COUNTER_ADD((counter), (work));    \
    } while (0)
#define PF_KERNEL_LANES(name) template <int LANES> PF_KERNEL(name)
#define PF_LANES_VERTEX() (PF_GLOBAL_ID() / LANES) /* the same for the whole group */
#define PF_LANES_INIT(h, arc, w) pf_lanes_in_warp<LANES>()

#else /* host C: the OpenMP backend */
#include <stdint.h>
typedef int64_t pf_i64;
typedef uint64_t pf_u64;
typedef int32_t pf_i32;
#define PF_GLOBAL
#define PF_FN static inline
#define PF_LOAD_I64(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define PF_LOAD_I32(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define PF_STORE_I32(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define PF_COUNTER_ADD(p, v) ((void)__atomic_fetch_add((p), (pf_i64)(v), __ATOMIC_RELAXED))
#define PF_COUNTER_NEXT(p) __atomic_fetch_add((p), (pf_i64)1, __ATOMIC_RELAXED)
#define PF_FRONTIER_APPEND(counters, degree) \
    (PF_COUNTER_ADD(&(counters)[1], (degree)), PF_COUNTER_NEXT(&(counters)[0]))
#define PF_FRONTIER_APPEND_ONE(counters) PF_COUNTER_NEXT(&(counters)[0])
#define PF_CHAINED_STEP() ((void)0)
/* The bodies' work-group queues (no kernels here: a body is called with
 * none). */
#define PF_LOCAL
#define PF_LOCAL_NEXT_I32(p) __atomic_fetch_add((p), 1, __ATOMIC_RELAXED)
/* The OpenMP backend runs residuals and excess in 64 bits only. */
typedef int64_t pf_cap;
#define PF_LOAD_CAP(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define PF_ATOMIC_ADD_CAP(p, v) __atomic_fetch_add((p), (pf_cap)(v), __ATOMIC_RELAXED)
static inline pf_i32 pf_atomic_cas_i32(pf_i32 *p, pf_i32 expect, pf_i32 v)
{
    __atomic_compare_exchange_n(p, &expect, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expect; /* the value seen: equals the expected one on success */
}
#define PF_ATOMIC_CAS_I32(p, expect, v) pf_atomic_cas_i32((p), (expect), (v))
#define PF_ATOMIC_XCHG_I32(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define PF_FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
/* The OpenMP backend asks for absolute reverse-arc indices (its ops set
 * rev_absolute): a push then skips the load of first[v], one cache miss in
 * a handful on a CPU. `first` and `v` go unused. */
#define PF_REV_ARC(first, rev, a, v) ((void)(first), (void)(v), (pf_i64)(uint32_t)(rev)[a])
#endif

#endif
