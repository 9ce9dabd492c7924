/* The unblocked Floyd-Warshall variants of the OpenMP backend (fw_step,
 * fw_simd of device.h), as the Floyd-Warshall study runs them: one k at a
 * time over the whole matrix, the rows shared among the threads.
 *
 * - plain: the scalar triple loop's inner two loops (the compiler's own
 *   vectoriser is kept out, so it is the study's "Normal"/"OpenMP" code);
 * - simd: the same rows through the instruction-set kernels of
 *   omp_fw_simd.h (the study's Vec8 = AVX2 and Vec16 = AVX-512, 8 and 16
 *   32-bit lanes). AVX2 has no 64-bit min, so int64 at 8 lanes runs plain.
 *
 * One thread (the seq backend's simd variant opens this backend with one)
 * is the study's one-core column. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "../../common/status.h"
#include "../shared/pf_fw_row.h"
#include "omp_fw_simd.h"
#include "omp_internal.h"

enum {
    STEP_ROWS = 8,   /* rows per SIMD kernel call */
    STEP_QUANTUM = 32, /* device.h: fw_step's n is a multiple of this */
};

#if defined(__GNUC__) && !defined(__clang__)
#define FW_SCALAR __attribute__((optimize("no-tree-vectorize")))
#else
#define FW_SCALAR
#endif

/* Row i of step k, scalar: the study's plain loop body. */
PF_FW_PLAIN_ROW(i32, int32_t, FW_SCALAR)
PF_FW_PLAIN_ROW(i64, int64_t, FW_SCALAR)
PF_FW_PLAIN_ROW(f32, float, FW_SCALAR)

static void plain_row(const pf_dev_apsp *a, int64_t i, int64_t k)
{
    int32_t *next = a->next ? BUF(a->next, int32_t) : NULL;
    switch (a->kind) {
    case PF_DIST_I32:
        pf_fw_plain_row_i32(BUF(a->dist, int32_t), next, a->n, i, k);
        break;
    case PF_DIST_I64:
        pf_fw_plain_row_i64(BUF(a->dist, int64_t), next, a->n, i, k);
        break;
    default:
        pf_fw_plain_row_f32(BUF(a->dist, float), next, a->n, i, k);
    }
}

/* The SIMD kernels for kind at `width` lanes (0 = widest), NULL for the
 * plain loop; *what says which and why. */
static const omp_fw_kernels *simd_kernels(int32_t kind, int32_t width, char *what, size_t len)
{
    enum omp_fw_isa best = omp_fw_best_isa(), isa = best;
    const char *note = "";
    if (width == 8 && best > OMP_FW_AVX2)
        isa = OMP_FW_AVX2;
    if (width == 16 && best < OMP_FW_AVX512)
        note = " (16 lanes asked: this CPU has no AVX-512F)";
    if (isa == OMP_FW_GENERIC) {
        snprintf(what, len, "this CPU has neither AVX2 nor AVX-512F");
        return NULL;
    }
    if (kind == PF_DIST_I64 && isa == OMP_FW_AVX2) {
        snprintf(what, len, "AVX2 has no 64-bit min for int64%s", note);
        return NULL;
    }
    const omp_fw_kernels *kern = omp_fw_kernels_for(kind, isa);
    int lanes = (isa == OMP_FW_AVX512 ? 512 : 256) / (kind == PF_DIST_I64 ? 64 : 32);
    snprintf(what, len, "%s, %d lanes%s", kern ? kern->isa : "?", lanes, note);
    return kern;
}

int32_t ompb_fw_simd(pf_dev *dev, int32_t kind, int32_t width, char *what, size_t len)
{
    (void)dev;
    char scratch[128];
    if (!what) {
        what = scratch;
        len = sizeof scratch;
    }
    const omp_fw_kernels *kern = simd_kernels(kind, width, what, len);
    if (!kern)
        return 0;
    return strcmp(kern->isa, "avx512f") == 0 ? 16 : 8;
}

/* Rows [i0, i0 + rows) of step k through the SIMD kernel (its own test
 * skips row k: C's row that is B's row). */
static void simd_rows(const omp_fw_kernels *kern, const pf_dev_apsp *a, int64_t i0,
                      int32_t rows, int64_t k)
{
    size_t esize = a->kind == PF_DIST_I64 ? 8 : 4;
    unsigned char *dist = a->dist->data;
    int32_t *next = a->next ? BUF(a->next, int32_t) : NULL;
    int64_t n = a->n;
    kern->inorder(dist + (size_t)(i0 * n) * esize, next ? next + i0 * n : NULL, n,
                  dist + (size_t)(i0 * n + k) * esize, next ? next + i0 * n + k : NULL, n,
                  dist + (size_t)(k * n) * esize, n, rows, (int32_t)n, 1);
}

int ompb_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k, pf_status *st)
{
    if (variant != PF_FW_PLAIN && variant != PF_FW_SIMD)
        return pf_fail(st, PF_E_USAGE, "omp: fw_step: variant %d is not plain or simd", variant);
    if (a->kind < PF_DIST_I32 || a->kind > PF_DIST_F32 || a->n <= 0 || a->n % STEP_QUANTUM ||
        k < 0 || k >= a->n)
        return pf_fail(st, PF_E_USAGE, "omp: fw_step: step %d of n = %d (kind %d)", k, a->n,
                       a->kind);
    size_t esize = a->kind == PF_DIST_I64 ? 8 : 4, cells = (size_t)a->n * (size_t)a->n;
    if (!a->dist || a->dist->bytes < cells * esize || (a->next && a->next->bytes < cells * 4))
        return pf_fail(st, PF_E_DEVICE, "omp: fw_step: buffers too small for n = %d", a->n);
    char what[128];
    const omp_fw_kernels *kern =
        variant == PF_FW_SIMD ? simd_kernels(a->kind, a->simd_width, what, sizeof what) : NULL;
    int64_t n = a->n;
    if (kern) {
#pragma omp parallel for schedule(static) num_threads(dev->threads)
        for (int64_t block = 0; block < n / STEP_ROWS; block++)
            simd_rows(kern, a, block * STEP_ROWS, STEP_ROWS, k);
    } else {
#pragma omp parallel for schedule(static) num_threads(dev->threads)
        for (int64_t i = 0; i < n; i++)
            if (i != k)
                plain_row(a, i, k);
    }
    return PF_OK;
}
