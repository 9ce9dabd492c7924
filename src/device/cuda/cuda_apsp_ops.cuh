/* Element operations and vector moves of the Floyd-Warshall kernels
 * (cuda_apsp.cu), device code only. */
#pragma once

#include <stdint.h>

#include "device/device.h"

/* ---- element operations ---------------------------------------------------- */

/* min(d, a + b). The host keeps finite values within (-INF/2, INF/2) and
 * "no path" at INF, so no sum overflows and no INF guard is needed. */
static __device__ __forceinline__ int fw_min_plus(int a, int b, int d)
{
    return __viaddmin_s32(a, b, d);
}

static __device__ __forceinline__ long long fw_min_plus(long long a, long long b, long long d)
{
    long long s = a + b;
    return s < d ? s : d;
}

static __device__ __forceinline__ float fw_min_plus(float a, float b, float d)
{
    return fminf(a + b, d);
}

/* The kind's "no path" (device.h), where late-merging phase 3 starts. */
template <typename T> static __device__ __forceinline__ T fw_no_path();
template <> __device__ __forceinline__ int fw_no_path<int>() { return PF_FW_INF_I32; }
template <> __device__ __forceinline__ long long fw_no_path<long long>() { return PF_FW_INF_I64; }
template <> __device__ __forceinline__ float fw_no_path<float>() { return __int_as_float(0x7f800000); }

/* min(x, y), exactly as fw_min_plus takes it. */
static __device__ __forceinline__ int fw_min(int x, int y) { return min(x, y); }
static __device__ __forceinline__ long long fw_min(long long x, long long y) { return x < y ? x : y; }
static __device__ __forceinline__ float fw_min(float x, float y) { return fminf(x, y); }

/* The next-hop variant: only a strictly shorter path moves the hop, so the
 * first k (in increasing order) that reaches the minimum keeps it. The
 * minimum changes exactly when a + b < d, so testing it keeps int32 at
 * three instructions (min-plus, compare, select) instead of four. */
template <typename T>
static __device__ __forceinline__ void fw_relax_hop(T &d, int &hop, T a, T b, int a_hop)
{
    T shorter = fw_min_plus(a, b, d);
    hop = shorter != d ? a_hop : hop;
    d = shorter;
}

/* N elements moved as one aligned unit: 16-byte (or 8-byte) shared and
 * global accesses instead of N scalar ones. */
template <typename U, int N>
struct alignas(N * sizeof(U) < 16 ? N * sizeof(U) : 16) fw_vec {
    U v[N];
};

template <int N, typename U> static __device__ __forceinline__ fw_vec<U, N> fw_load(const U *p)
{
    return *reinterpret_cast<const fw_vec<U, N> *>(p);
}

template <int N, typename U>
static __device__ __forceinline__ void fw_store(U *p, const fw_vec<U, N> &x)
{
    *reinterpret_cast<fw_vec<U, N> *>(p) = x;
}
