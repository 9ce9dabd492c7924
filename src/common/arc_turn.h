/* Where a residual arc goes in its vertex's list under the turned arc
 * orders (residual.h: PF_ARCS_FORWARD_ROTATED, the forward part of
 * PF_ARCS_FORWARD_PART_ROTATED): the part [lo, lo + len) of u's list is
 * turned by a pseudo-random offset of u's own, so the arc counted `rank`
 * in input order lands at the returned position. Written once for the
 * host's build (residual.c) and a device's (device.h: build_residual),
 * which must agree bit for bit: the same layout, the same solve. */
#ifndef PF_ARC_TURN_H
#define PF_ARC_TURN_H

#include <stdint.h>

#if defined(__CUDACC__)
#define PF_TURN_FN __host__ __device__ static inline
#else
#define PF_TURN_FN static inline
#endif

/* The high 64 bits of a * b. */
PF_TURN_FN uint64_t pf_turn_mul_high(uint64_t a, uint64_t b)
{
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

/* `reverse`: the part of the vertex's list that holds its reverse arcs
 * (each part has an offset of its own). The offset is scaled into
 * [0, len) by a multiply, not a division: this runs twice per arc of
 * every parallel solve's build. len > 0, 0 <= rank < len. */
PF_TURN_FN int64_t pf_turned_position(int64_t lo, int64_t len, int64_t rank, int64_t u,
                                      int reverse)
{
    uint64_t turn = ((uint64_t)u * 2 + (uint64_t)reverse + 1) * 0x9E3779B97F4A7C15ull;
    turn ^= turn >> 29;
    int64_t at = rank + (int64_t)pf_turn_mul_high(turn, (uint64_t)len);
    return lo + (at < len ? at : at - len);
}

#endif
