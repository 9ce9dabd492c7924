/* The Floyd-Warshall kernels of omp_fw_simd.h, compiled from one template
 * for each instruction set and element type. The x86 variants use
 * intrinsics (each function carries its own target attribute, so the rest
 * of the build stays at the baseline ISA and runs anywhere); the plain C
 * variant serves other CPUs and other architectures. Choosing at run time
 * (omp_fw_best_isa) rather than at build time lets the one binary run on
 * an AVX2-only CPU and use AVX-512 where the CPU has it.
 *
 * Register blocks (rows x columns of C held in registers, see the
 * template): the columns are one 64-byte line or less, so they divide any
 * tile that is a multiple of 16; the rows leave room for the B vectors,
 * the broadcast and, with next hops, as many next-hop accumulators. */
#include <stdint.h>

#include "portaflow.h"
#include "omp_fw_simd.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define OMP_FW_X86 1
#include <immintrin.h>
#else
#define OMP_FW_X86 0
#endif

#if OMP_FW_X86
/* ---- AVX-512F: 32 vector registers, compares into mask registers ------ */
#define FW_TARGET __attribute__((target("avx512f")))
#define FW_ISA_NAME "avx512f"

#define FW_NAME(x) x##_avx512_i32
#define FW_ELEM int32_t
#define FW_VEC __m512i
#define FW_LANES 16
#define FW_NV 1
#define FW_MR 8
#define FW_MR_PATHS 8
#define FW_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define FW_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define FW_BCAST(x) _mm512_set1_epi32(x)
#define FW_ADD(a, b) _mm512_add_epi32((a), (b))
#define FW_MIN(a, b) _mm512_min_epi32((a), (b))
#define FW_MASK __mmask16
#define FW_LESS(a, b) _mm512_cmplt_epi32_mask((a), (b))
#define FW_NVEC __m512i
#define FW_NLOAD(p) FW_LOAD(p)
#define FW_NSTORE(p, v) FW_STORE(p, v)
#define FW_NBCAST(x) _mm512_set1_epi32(x)
#define FW_NSELECT(m, yes, no) _mm512_mask_mov_epi32((no), (m), (yes))
#include "omp_fw_template.h"

#define FW_NAME(x) x##_avx512_f32
#define FW_ELEM float
#define FW_VEC __m512
#define FW_LANES 16
#define FW_NV 1
#define FW_MR 8
#define FW_MR_PATHS 8
#define FW_LOAD(p) _mm512_loadu_ps((const void *)(p))
#define FW_STORE(p, v) _mm512_storeu_ps((void *)(p), (v))
#define FW_BCAST(x) _mm512_set1_ps(x)
#define FW_ADD(a, b) _mm512_add_ps((a), (b))
#define FW_MIN(a, b) _mm512_min_ps((a), (b)) /* a < b ? a : b, as minps */
#define FW_MASK __mmask16
#define FW_LESS(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_LT_OQ)
#define FW_NVEC __m512i
#define FW_NLOAD(p) _mm512_loadu_si512((const void *)(p))
#define FW_NSTORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define FW_NBCAST(x) _mm512_set1_epi32(x)
#define FW_NSELECT(m, yes, no) _mm512_mask_mov_epi32((no), (m), (yes))
#include "omp_fw_template.h"

/* Next hops ride in 64-bit lanes beside the distances (widened on load,
 * narrowed on store), so one mask selects both. */
#define FW_NAME(x) x##_avx512_i64
#define FW_ELEM int64_t
#define FW_VEC __m512i
#define FW_LANES 8
#define FW_NV 1
#define FW_MR 8
#define FW_MR_PATHS 8
#define FW_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define FW_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define FW_BCAST(x) _mm512_set1_epi64(x)
#define FW_ADD(a, b) _mm512_add_epi64((a), (b))
#define FW_MIN(a, b) _mm512_min_epi64((a), (b))
#define FW_MASK __mmask8
#define FW_LESS(a, b) _mm512_cmplt_epi64_mask((a), (b))
#define FW_NVEC __m512i
#define FW_NLOAD(p) _mm512_cvtepi32_epi64(_mm256_loadu_si256((const void *)(p)))
#define FW_NSTORE(p, v) _mm256_storeu_si256((void *)(p), _mm512_cvtepi64_epi32(v))
#define FW_NBCAST(x) _mm512_set1_epi64(x)
#define FW_NSELECT(m, yes, no) _mm512_mask_mov_epi64((no), (m), (yes))
#include "omp_fw_template.h"

#undef FW_TARGET
#undef FW_ISA_NAME

/* ---- AVX2: 16 vector registers, compares into vector masks ------------ */
#define FW_TARGET __attribute__((target("avx2")))
#define FW_ISA_NAME "avx2"

/* AVX2 has no 64-bit min: compare and blend. */
static inline FW_TARGET __m256i fw_min_avx2_i64(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(b, a));
}

/* Four 64-bit lanes back to four int32 next hops (the low halves). */
static inline FW_TARGET void fw_store_hops_avx2_i64(int32_t *p, __m256i hops)
{
    __m256i low_halves = _mm256_permutevar8x32_epi32(hops, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
    _mm_storeu_si128((void *)p, _mm256_castsi256_si128(low_halves));
}

#define FW_NAME(x) x##_avx2_i32
#define FW_ELEM int32_t
#define FW_VEC __m256i
#define FW_LANES 8
#define FW_NV 2
#define FW_MR 4
#define FW_MR_PATHS 2
#define FW_LOAD(p) _mm256_loadu_si256((const void *)(p))
#define FW_STORE(p, v) _mm256_storeu_si256((void *)(p), (v))
#define FW_BCAST(x) _mm256_set1_epi32(x)
#define FW_ADD(a, b) _mm256_add_epi32((a), (b))
#define FW_MIN(a, b) _mm256_min_epi32((a), (b))
#define FW_MASK __m256i
#define FW_LESS(a, b) _mm256_cmpgt_epi32((b), (a))
#define FW_NVEC __m256i
#define FW_NLOAD(p) FW_LOAD(p)
#define FW_NSTORE(p, v) FW_STORE(p, v)
#define FW_NBCAST(x) _mm256_set1_epi32(x)
#define FW_NSELECT(m, yes, no) _mm256_blendv_epi8((no), (yes), (m))
#include "omp_fw_template.h"

#define FW_NAME(x) x##_avx2_f32
#define FW_ELEM float
#define FW_VEC __m256
#define FW_LANES 8
#define FW_NV 2
#define FW_MR 4
#define FW_MR_PATHS 2
#define FW_LOAD(p) _mm256_loadu_ps((const void *)(p))
#define FW_STORE(p, v) _mm256_storeu_ps((void *)(p), (v))
#define FW_BCAST(x) _mm256_set1_ps(x)
#define FW_ADD(a, b) _mm256_add_ps((a), (b))
#define FW_MIN(a, b) _mm256_min_ps((a), (b)) /* a < b ? a : b, as minps */
#define FW_MASK __m256
#define FW_LESS(a, b) _mm256_cmp_ps((a), (b), _CMP_LT_OQ)
#define FW_NVEC __m256i
#define FW_NLOAD(p) _mm256_loadu_si256((const void *)(p))
#define FW_NSTORE(p, v) _mm256_storeu_si256((void *)(p), (v))
#define FW_NBCAST(x) _mm256_set1_epi32(x)
#define FW_NSELECT(m, yes, no) _mm256_blendv_epi8((no), (yes), _mm256_castps_si256(m))
#include "omp_fw_template.h"

#define FW_NAME(x) x##_avx2_i64
#define FW_ELEM int64_t
#define FW_VEC __m256i
#define FW_LANES 4
#define FW_NV 2
#define FW_MR 4
#define FW_MR_PATHS 2
#define FW_LOAD(p) _mm256_loadu_si256((const void *)(p))
#define FW_STORE(p, v) _mm256_storeu_si256((void *)(p), (v))
#define FW_BCAST(x) _mm256_set1_epi64x(x)
#define FW_ADD(a, b) _mm256_add_epi64((a), (b))
#define FW_MIN(a, b) fw_min_avx2_i64((a), (b))
#define FW_MASK __m256i
#define FW_LESS(a, b) _mm256_cmpgt_epi64((b), (a))
#define FW_NVEC __m256i
#define FW_NLOAD(p) _mm256_cvtepi32_epi64(_mm_loadu_si128((const void *)(p)))
#define FW_NSTORE(p, v) fw_store_hops_avx2_i64((p), (v))
#define FW_NBCAST(x) _mm256_set1_epi64x(x)
#define FW_NSELECT(m, yes, no) _mm256_blendv_epi8((no), (yes), (m))
#include "omp_fw_template.h"

#undef FW_TARGET
#undef FW_ISA_NAME
#endif /* OMP_FW_X86 */

/* ---- plain C: one "lane", left to the compiler's own vectoriser ------- */
#define FW_TARGET
#define FW_ISA_NAME "generic"
#define FW_KEEP_OPS
#define FW_LANES 1
#define FW_NV 4
#define FW_MR 4
#define FW_MR_PATHS 2
#define FW_LOAD(p) (*(p))
#define FW_STORE(p, v) (*(p) = (v))
#define FW_BCAST(x) (x)
#define FW_ADD(a, b) ((a) + (b))
#define FW_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FW_MASK int
#define FW_LESS(a, b) ((a) < (b))
#define FW_NVEC int32_t
#define FW_NLOAD(p) (*(p))
#define FW_NSTORE(p, v) (*(p) = (v))
#define FW_NBCAST(x) (x)
#define FW_NSELECT(m, yes, no) ((m) ? (yes) : (no))

#define FW_NAME(x) x##_generic_i32
#define FW_ELEM int32_t
#define FW_VEC int32_t
#include "omp_fw_template.h"

#define FW_NAME(x) x##_generic_i64
#define FW_ELEM int64_t
#define FW_VEC int64_t
#include "omp_fw_template.h"

#define FW_NAME(x) x##_generic_f32
#define FW_ELEM float
#define FW_VEC float
#include "omp_fw_template.h"

enum omp_fw_isa omp_fw_best_isa(void)
{
#if OMP_FW_X86
    /* GCC's checks include the operating system's saving of the wider
     * registers (XCR0), not only the CPUID bits. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return OMP_FW_AVX512;
    if (__builtin_cpu_supports("avx2"))
        return OMP_FW_AVX2;
#endif
    return OMP_FW_GENERIC;
}

const omp_fw_kernels *omp_fw_kernels_for(int32_t kind, enum omp_fw_isa isa)
{
    static const omp_fw_kernels *const by_isa_kind[3][3] = {
        [OMP_FW_GENERIC] = {[PF_DIST_I32] = &fw_kernels_generic_i32,
                            [PF_DIST_I64] = &fw_kernels_generic_i64,
                            [PF_DIST_F32] = &fw_kernels_generic_f32},
#if OMP_FW_X86
        [OMP_FW_AVX2] = {[PF_DIST_I32] = &fw_kernels_avx2_i32,
                         [PF_DIST_I64] = &fw_kernels_avx2_i64,
                         [PF_DIST_F32] = &fw_kernels_avx2_f32},
        [OMP_FW_AVX512] = {[PF_DIST_I32] = &fw_kernels_avx512_i32,
                           [PF_DIST_I64] = &fw_kernels_avx512_i64,
                           [PF_DIST_F32] = &fw_kernels_avx512_f32},
#endif
    };
    if (kind < PF_DIST_I32 || kind > PF_DIST_F32 || (int)isa < 0 || (int)isa > OMP_FW_AVX512)
        return 0;
    return by_isa_kind[isa][kind];
}
