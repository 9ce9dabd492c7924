/* The OpenMP backend's Floyd-Warshall inner kernels, one table per
 * (instruction set, distance kind). omp_fw_simd.c compiles the same
 * template (omp_fw_template.h) for AVX-512F, AVX2 and plain C and picks the
 * best the running CPU has, so one binary serves CPUs with and without
 * AVX-512. All pointers are element pointers into row-major
 * matrices with leading dimension ld, or into the packed panels described
 * below; every kernel is single-threaded (the caller parallelises). */
#ifndef PF_OMP_FW_SIMD_H
#define PF_OMP_FW_SIMD_H

#include <stdint.h>

enum omp_fw_isa {
    OMP_FW_GENERIC = 0, /* plain C, any target */
    OMP_FW_AVX2 = 1,
    OMP_FW_AVX512 = 2,
};

typedef struct omp_fw_kernels {
    const char *isa; /* "avx512f", "avx2" or "generic" */
    /* The register block of `block` is panel_rows x panel_cols elements of
     * C (block_paths: panel_rows_paths x panel_cols). Packed operands:
     * A, rows x depth, is stored panel after panel of panel_rows rows, each
     * panel k-major (a[k * panel_rows + i]); B, depth x cols, panel after
     * panel of panel_cols columns, each k-major (b[k * panel_cols + j]).
     * Every value divides 16, so any tile that is a multiple of 16 splits
     * into whole panels. */
    int32_t panel_rows, panel_rows_paths, panel_cols;
    /* C(rows x cols) = min(C, A (x) B) over the min-plus semiring, k in
     * increasing order; rows and cols are multiples of the panel sizes.
     * With next_c (else NULL): next_c(i,j) = next_a(i,k) where the sum is
     * strictly smaller; next_a_packed is packed as A, by panel_rows_paths. */
    void (*block)(void *c, int32_t *next_c, int64_t ld, const void *a_packed,
                  const int32_t *next_a_packed, const void *b_packed, int32_t rows,
                  int32_t cols, int32_t depth);
    /* Unpacked, in Floyd-Warshall order: for k in 0..depth, for every row
     * i of C other than row k of B itself: C(i,:) = min(C(i,:), A(i,k) +
     * B(k,:)), and next hops as in block (they share their distances'
     * leading dimension). A and B may be C itself (phases 1 and 2); cols is
     * a multiple of 16. */
    void (*inorder)(void *c, int32_t *next_c, int64_t ldc, const void *a, const int32_t *next_a,
                    int64_t lda, const void *b, int64_t ldb, int32_t rows, int32_t cols,
                    int32_t depth);
} omp_fw_kernels;

/* The widest instruction set both compiled in and supported by this CPU
 * (and its operating system). */
enum omp_fw_isa omp_fw_best_isa(void);

/* Kernels of `isa` for enum pf_dist_kind `kind`; NULL when that pair is not
 * compiled in (x86 variants on other targets) or the kind is unknown. */
const omp_fw_kernels *omp_fw_kernels_for(int32_t kind, enum omp_fw_isa isa);

#endif
