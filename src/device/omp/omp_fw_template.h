/* One instance of the Floyd-Warshall kernels of omp_fw_simd.h, for one
 * instruction set and one element type. Included by omp_fw_simd.c only,
 * once per instance (no include guard), after defining:
 *
 *   FW_NAME(x)       x with the instance's suffix (x##_avx2_i32)
 *   FW_TARGET        attribute enabling the instruction set, or nothing
 *   FW_ELEM          element type (int32_t, int64_t, float)
 *   FW_VEC           vector of FW_LANES elements
 *   FW_NV            vectors per row of the register block
 *   FW_MR            rows of the register block, FW_MR_PATHS with next hops
 *   FW_LOAD(p), FW_STORE(p, v), FW_BCAST(x), FW_ADD(a, b)
 *   FW_MIN(a, b)     a < b ? a : b, lane by lane
 *   FW_MASK          type of FW_LESS(a, b): a < b, lane by lane
 *   FW_NVEC          FW_LANES next hops, in lanes as wide as FW_ELEM's
 *   FW_NLOAD(p), FW_NSTORE(p, v), FW_NBCAST(x)  (p: int32_t *)
 *   FW_NSELECT(m, yes, no)  m ? yes : no on next-hop lanes
 *
 * and FW_ISA_NAME, the instruction set's name for omp_fw_kernels.isa.
 * Everything but FW_TARGET and FW_ISA_NAME is undefined at the end, for the
 * next element type; with FW_KEEP_OPS defined only FW_NAME, FW_ELEM and
 * FW_VEC are (the plain C operations serve every element type). */

#define FW_COLS (FW_NV * FW_LANES)

_Static_assert(FW_MR_PATHS <= FW_MR, "the register block's arrays are FW_MR rows");

#define FW_INLINE static inline __attribute__((always_inline)) FW_TARGET

/* The register block: `rows` x FW_COLS distances (and with `paths` their
 * next hops) stay in registers for the whole depth, so each step k costs
 * `rows` broadcasts of A and FW_NV loads of B for 2 * rows * FW_NV vector
 * operations. A lane takes the sum, and A's next hop, only where the sum
 * is strictly smaller, as the scalar loop in increasing k would. `rows` and
 * `paths` are constants at every call, so each use compiles to its own
 * fully unrolled loop. */
FW_INLINE void FW_NAME(fw_micro)(FW_ELEM *c, int32_t *next_c, int64_t ld, const FW_ELEM *a,
                                 const int32_t *next_a, const FW_ELEM *b, int32_t depth,
                                 const int rows, const int paths)
{
    FW_VEC acc[FW_MR][FW_NV];
    FW_NVEC hop[FW_MR][FW_NV];
#pragma GCC unroll 16
    for (int i = 0; i < rows; i++)
#pragma GCC unroll 16
        for (int v = 0; v < FW_NV; v++) {
            acc[i][v] = FW_LOAD(c + i * ld + v * FW_LANES);
            if (paths)
                hop[i][v] = FW_NLOAD(next_c + i * ld + v * FW_LANES);
        }
    for (int32_t k = 0; k < depth; k++, a += rows, b += FW_COLS) {
        FW_VEC bk[FW_NV];
#pragma GCC unroll 16
        for (int v = 0; v < FW_NV; v++)
            bk[v] = FW_LOAD(b + v * FW_LANES);
#pragma GCC unroll 16
        for (int i = 0; i < rows; i++) {
            FW_VEC aik = FW_BCAST(a[i]);
            FW_NVEC hop_ik = FW_NBCAST(paths ? next_a[k * rows + i] : 0);
#pragma GCC unroll 16
            for (int v = 0; v < FW_NV; v++) {
                FW_VEC sum = FW_ADD(aik, bk[v]);
                if (paths)
                    hop[i][v] = FW_NSELECT(FW_LESS(sum, acc[i][v]), hop_ik, hop[i][v]);
                acc[i][v] = FW_MIN(sum, acc[i][v]);
            }
        }
    }
#pragma GCC unroll 16
    for (int i = 0; i < rows; i++)
#pragma GCC unroll 16
        for (int v = 0; v < FW_NV; v++) {
            FW_STORE(c + i * ld + v * FW_LANES, acc[i][v]);
            if (paths)
                FW_NSTORE(next_c + i * ld + v * FW_LANES, hop[i][v]);
        }
}

/* Column panels outside, row panels inside: one B panel (depth x FW_COLS)
 * stays in L1 while the A panels stream from L2. */
FW_INLINE void FW_NAME(fw_block_with)(FW_ELEM *c, int32_t *next_c, int64_t ld,
                                      const FW_ELEM *a, const int32_t *next_a,
                                      const FW_ELEM *b, int32_t rows, int32_t cols,
                                      int32_t depth, const int panel_rows, const int paths)
{
    for (int32_t j = 0; j < cols; j += FW_COLS)
        for (int32_t i = 0; i < rows; i += panel_rows)
            FW_NAME(fw_micro)(c + i * ld + j, paths ? next_c + i * ld + j : 0, ld,
                              a + (int64_t)i * depth, paths ? next_a + (int64_t)i * depth : 0,
                              b + (int64_t)j * depth, depth, panel_rows, paths);
}

static FW_TARGET void FW_NAME(fw_block)(void *c, int32_t *next_c, int64_t ld,
                                         const void *a_packed, const int32_t *next_a_packed,
                                         const void *b_packed, int32_t rows, int32_t cols,
                                         int32_t depth)
{
    if (next_c)
        FW_NAME(fw_block_with)(c, next_c, ld, a_packed, next_a_packed, b_packed, rows, cols,
                               depth, FW_MR_PATHS, 1);
    else
        FW_NAME(fw_block_with)(c, 0, ld, a_packed, 0, b_packed, rows, cols, depth, FW_MR, 0);
}

/* Row k of B is skipped as a row of C (phase 2's row tiles, where B is
 * C): it would only change through a negative d(k,k). */
FW_INLINE void FW_NAME(fw_inorder_with)(FW_ELEM *c, int32_t *next_c, int64_t ldc,
                                        const FW_ELEM *a, const int32_t *next_a, int64_t lda,
                                        const FW_ELEM *b, int64_t ldb, int32_t rows,
                                        int32_t cols, int32_t depth, const int paths)
{
    for (int32_t k = 0; k < depth; k++) {
        const FW_ELEM *bk = b + k * ldb;
        for (int32_t i = 0; i < rows; i++) {
            FW_ELEM *ci = c + i * ldc;
            if (ci == bk)
                continue;
            FW_VEC aik = FW_BCAST(a[i * lda + k]);
            FW_NVEC hop_ik = FW_NBCAST(paths ? next_a[i * lda + k] : 0);
            for (int32_t j = 0; j < cols; j += FW_LANES) {
                FW_VEC sum = FW_ADD(aik, FW_LOAD(bk + j)), old = FW_LOAD(ci + j);
                if (paths) {
                    int32_t *hop_ij = next_c + i * ldc + j;
                    FW_NSTORE(hop_ij, FW_NSELECT(FW_LESS(sum, old), hop_ik, FW_NLOAD(hop_ij)));
                }
                FW_STORE(ci + j, FW_MIN(sum, old));
            }
        }
    }
}

static FW_TARGET void FW_NAME(fw_inorder)(void *c, int32_t *next_c, int64_t ldc, const void *a,
                                           const int32_t *next_a, int64_t lda, const void *b,
                                           int64_t ldb, int32_t rows, int32_t cols,
                                           int32_t depth)
{
    if (next_c)
        FW_NAME(fw_inorder_with)(c, next_c, ldc, a, next_a, lda, b, ldb, rows, cols, depth, 1);
    else
        FW_NAME(fw_inorder_with)(c, 0, ldc, a, 0, lda, b, ldb, rows, cols, depth, 0);
}

static const omp_fw_kernels FW_NAME(fw_kernels) = {
    .isa = FW_ISA_NAME,
    .panel_rows = FW_MR,
    .panel_rows_paths = FW_MR_PATHS,
    .panel_cols = FW_COLS,
    .block = FW_NAME(fw_block),
    .inorder = FW_NAME(fw_inorder),
};

#undef FW_INLINE
#undef FW_COLS
#undef FW_NAME
#undef FW_ELEM
#undef FW_VEC
#ifndef FW_KEEP_OPS
#undef FW_LANES
#undef FW_NV
#undef FW_MR
#undef FW_MR_PATHS
#undef FW_LOAD
#undef FW_STORE
#undef FW_BCAST
#undef FW_ADD
#undef FW_MIN
#undef FW_MASK
#undef FW_LESS
#undef FW_NVEC
#undef FW_NLOAD
#undef FW_NSTORE
#undef FW_NBCAST
#undef FW_NSELECT
#endif
