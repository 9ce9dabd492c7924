/* Blocked Floyd-Warshall (semantics: fw_phase in device.h).
 *
 * One source for every distance kind: the host builds it once per (kind,
 * next hops on/off, tile) with the element type and the launch shape as
 * macros (cl_apsp.c, fw_options), so the shapes are compile-time constants
 * the compiler can unroll and keep in registers:
 *   PF_FW_T       element type: int, long or float (PF_FW_FLOAT: 1 for float)
 *   PF_FW_PATHS   1: keep the next hops (next is then a valid buffer)
 *   PF_FW_TILE    tile edge T
 *   PF_FW_VB      vector width of the row loads and stores (>= 2)
 *   PF_FW_RM, PF_FW_RN  rows and columns of the block a work-item of
 *                 pf_k_fw_rest owns (PF_FW_RN a multiple of PF_FW_VB)
 *   PF_FW_KC      k values staged in local memory at a time (phase 3)
 *   PF_FW_UNROLL  unroll factor of the phase-3 k loop
 *   PF_FW_P       pf_k_fw_pivot: a work-item owns a P x P block (P even)
 *
 * The host keeps finite distances within (-INF/2, INF/2), so a plain sum
 * never overflows and min(d, a + b) needs no INF test. The kernels'
 * parameters: pf_kernel_table.h (PF_FW_KERNELS). */

#include "pf_vendor.h"
#include "pf_kernel_table.h"

#define FW_CAT_(a, b) a##b
#define FW_CAT(a, b) FW_CAT_(a, b)
#define FW_PRAGMA_(text) _Pragma(#text)
#define FW_UNROLL(count) FW_PRAGMA_(unroll count)

typedef PF_FW_T fw_t;
typedef FW_CAT(PF_FW_T, PF_FW_VB) fw_v;   /* PF_FW_VB adjacent columns */
typedef FW_CAT(int, PF_FW_VB) fw_iv;      /* k indices of those columns */
typedef FW_CAT(PF_FW_T, PF_FW_P) fw_pv;   /* a pivot work-item's block row */
typedef FW_CAT(int, PF_FW_P) fw_ipv;      /* its next hops */
/* Comparisons give integer lanes as wide as the elements. */
#if PF_FW_FLOAT
typedef FW_CAT(int, PF_FW_VB) fw_mv;
typedef FW_CAT(int, PF_FW_P) fw_mpv;
#else
typedef FW_CAT(PF_FW_T, PF_FW_VB) fw_mv;
typedef FW_CAT(PF_FW_T, PF_FW_P) fw_mpv;
#endif

/* vstoreN is overloaded: these store distances and hops alike. */
#define FW_VSTORE FW_CAT(vstore, PF_FW_VB)
#define FW_PSTORE FW_CAT(vstore, PF_FW_P)
/* A comparison of long vectors yields long lanes; the hop selects take int
 * lanes (-1 stays -1). */
#define FW_IMASK FW_CAT(convert_int, PF_FW_VB)
#define FW_PMASK FW_CAT(convert_int, PF_FW_P)

#if PF_FW_FLOAT
/* fmin, not min: OpenCL leaves min undefined for infinite arguments. */
#define FW_MIN(a, b) fmin((a), (b))
#else
#define FW_MIN(a, b) min((a), (b))
#endif

/* With next hops: where sum < d (strictly), d = sum and hop = its hop.
 * mask_t is the comparison's type, to_int converts its lanes to the hops'
 * int lanes. */
#define FW_TAKE_SHORTER(d, hop, sum, sum_hop, mask_t, to_int) \
    do {                                                      \
        const mask_t shorter = (sum) < (d);                   \
        (hop) = select((hop), (sum_hop), to_int(shorter));    \
        (d) = select((d), (sum), shorter);                    \
    } while (0)

#define FW_TILE PF_FW_TILE

/* ---- phases 1 and 2: tiles whose pivot row or column is their own ----
 *
 * One work-group per tile, (T/P) x (T/P) work-items, each owning the P x P
 * block at rows ty*P.., columns tx*P.. in registers. Step k needs row k and
 * column k of the tile's pivot tiles: row k of tile (r, tile_col) and
 * column k of tile (tile_row, r). When that tile is the work-group's own,
 * its owners publish the row or column in local memory before the step
 * (its values after step k-1, which step k does not change: d(k,k) = 0);
 * otherwise it is the diagonal tile, final after phase 1, read from global
 * memory. The publish buffers alternate by the parity of k, so one barrier
 * a step suffices: a work-item writes buffer k%2 again only after the
 * barrier of step k+1, which every reader of step k has passed.
 *   phase 1: tile (r, r), both pivots its own;
 *   phase 2: group g < nt-1: tile (r, j), pivot row its own, pivot column
 *            the diagonal tile's; else tile (i, r), the converse. */
#define FW_DX (FW_TILE / PF_FW_P)

PF_KERNEL_ATTR(fw_pivot, __attribute__((reqd_work_group_size(FW_DX, FW_DX, 1))))
{
    __local fw_pv pivot_row[2][FW_DX];
    __local fw_t pivot_col[2][FW_TILE];
#if PF_FW_PATHS
    __local int pivot_hop[2][FW_TILE]; /* next(i, k) of the pivot column */
#endif
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    int tile_row = round, tile_col = round, row_is_own = 1, col_is_own = 1;
    if (phase == 2) {
        const int others = n / FW_TILE - 1, g = (int)get_group_id(0);
        if (g < others) {
            tile_col = g + (g >= round);
            col_is_own = 0;
        } else {
            tile_row = (g - others) + (g - others >= round);
            row_is_own = 0;
        }
    }
    const size_t kbase = (size_t)round * FW_TILE;
    const size_t tile_at = (size_t)tile_row * FW_TILE * n + (size_t)tile_col * FW_TILE;
    const size_t diag_at = kbase * n + kbase;
    __global fw_t *tile = dist + tile_at;
    __global const fw_t *diag = dist + diag_at;

    /* Offsets within a band of T rows fit an int (the host's n is far
     * below 2^31 / T); 32-bit offsets save registers. */
    const int mine = ty * PF_FW_P * n + tx * PF_FW_P; /* this block's corner */
    fw_pv acc[PF_FW_P];
#pragma unroll
    for (int r = 0; r < PF_FW_P; r++)
        acc[r] = *(__global const fw_pv *)(tile + mine + r * n);
#if PF_FW_PATHS
    __global int *tile_next = next + tile_at;
    __global const int *diag_next = next + diag_at;
    fw_ipv hop[PF_FW_P];
#pragma unroll
    for (int r = 0; r < PF_FW_P; r++)
        hop[r] = *(__global const fw_ipv *)(tile_next + mine + r * n);
#endif

    for (int k0 = 0; k0 < FW_TILE; k0 += PF_FW_P) {
        const int owner = k0 / PF_FW_P;
        /* Unrolled so that the published row and column are registers with
         * a constant index (a private array indexed by k would spill). */
#pragma unroll
        for (int m = 0; m < PF_FW_P; m++) {
            const int k = k0 + m, buf = m & 1;
            if (row_is_own && ty == owner)
                pivot_row[buf][tx] = acc[m];
            if (col_is_own && tx == owner) {
#pragma unroll
                for (int r = 0; r < PF_FW_P; r++) {
                    fw_t lanes[PF_FW_P];
                    FW_PSTORE(acc[r], 0, lanes);
                    pivot_col[buf][ty * PF_FW_P + r] = lanes[m];
#if PF_FW_PATHS
                    int hops[PF_FW_P];
                    FW_PSTORE(hop[r], 0, hops);
                    pivot_hop[buf][ty * PF_FW_P + r] = hops[m];
#endif
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            const fw_pv row_k = row_is_own
                                    ? pivot_row[buf][tx]
                                    : *(__global const fw_pv *)(diag + k * n + tx * PF_FW_P);
#pragma unroll
            for (int r = 0; r < PF_FW_P; r++) {
                const int i = ty * PF_FW_P + r;
                const fw_t col_k = col_is_own ? pivot_col[buf][i] : diag[i * n + k];
                const fw_pv via_k = col_k + row_k;
#if PF_FW_PATHS
                const int hop_k = col_is_own ? pivot_hop[buf][i] : diag_next[i * n + k];
                FW_TAKE_SHORTER(acc[r], hop[r], via_k, (fw_ipv)(hop_k), fw_mpv, FW_PMASK);
#else
                acc[r] = FW_MIN(acc[r], via_k);
#endif
            }
        }
    }

#pragma unroll
    for (int r = 0; r < PF_FW_P; r++) {
        *(__global fw_pv *)(tile + mine + r * n) = acc[r];
#if PF_FW_PATHS
        *(__global fw_ipv *)(tile_next + mine + r * n) = hop[r];
#endif
    }
}

/* ---- phase 3: every tile off the pivot row and column ------------------
 *
 * C = min(C, A (x) B) over k in K, A = tile (i, r), B = tile (r, j); A and
 * B do not change in phase 3, so the k order only matters per element,
 * and each work-item runs its own elements' k in increasing order. The
 * work-group stages PF_FW_KC columns of A and rows of B at a time in local
 * memory; a work-item owns PF_FW_RM rows (ty + m*TY, strided so that a
 * warp reads few distinct A words: broadcasts) by PF_FW_RN columns, in
 * PF_FW_VB-wide vectors at (g*TX + tx)*VB (adjacent work-items read
 * adjacent vectors: no bank conflicts, coalesced global access). The A
 * chunk rows are padded by one element so that the column reads of
 * different rows fall in different banks. With next hops, each element
 * remembers the k of its last strict improvement; next(i, j) = next(i, k)
 * is looked up at the end (tile (i, r) does not change either). */
#define FW_TX (FW_TILE / PF_FW_RN)
#define FW_TY (FW_TILE / PF_FW_RM)
#define FW_NG (PF_FW_RN / PF_FW_VB)   /* vectors in a work-item's block row */
#define FW_TV (FW_TILE / PF_FW_VB)    /* vectors in a tile row */
#define FW_KV (PF_FW_KC / PF_FW_VB)   /* vectors in an A chunk row */
#define FW_LDA (PF_FW_KC + 1)
#define FW_GROUP (FW_TX * FW_TY)

PF_KERNEL_ATTR(fw_rest, __attribute__((reqd_work_group_size(FW_TX, FW_TY, 1))))
{
    __local fw_t a_chunk[FW_TILE * FW_LDA];
    __local fw_v b_chunk[PF_FW_KC * FW_TV];
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int lid = ty * FW_TX + tx;
    const int gx = (int)get_group_id(0), gy = (int)get_group_id(1);
    const int tile_col = gx + (gx >= round), tile_row = gy + (gy >= round);
    const int kbase = round * FW_TILE;
    const size_t row0 = (size_t)tile_row * FW_TILE, col0 = (size_t)tile_col * FW_TILE;
    __global fw_t *c_tile = dist + row0 * n + col0;
    __global const fw_t *a_tile = dist + row0 * n + kbase;
    __global const fw_t *b_tile = dist + (size_t)kbase * n + col0;

    /* Offsets within a band of T rows fit an int (see pf_k_fw_pivot). */
    const int mine = ty * n + tx * PF_FW_VB; /* first element of the block */
    fw_v acc[PF_FW_RM][FW_NG];
#pragma unroll
    for (int m = 0; m < PF_FW_RM; m++)
#pragma unroll
        for (int g = 0; g < FW_NG; g++)
            acc[m][g] = *(__global const fw_v *)(c_tile + mine + m * FW_TY * n +
                                                 g * FW_TX * PF_FW_VB);
#if PF_FW_PATHS
    fw_iv via[PF_FW_RM][FW_NG];
#pragma unroll
    for (int m = 0; m < PF_FW_RM; m++)
#pragma unroll
        for (int g = 0; g < FW_NG; g++)
            via[m][g] = (fw_iv)(-1);
#endif

    for (int k0 = 0; k0 < FW_TILE; k0 += PF_FW_KC) {
        barrier(CLK_LOCAL_MEM_FENCE); /* the previous chunk is consumed */
        /* Fixed trip counts, unrolled: no loop state kept in registers. */
#pragma unroll
        for (int e0 = 0; e0 < FW_TILE * FW_KV; e0 += FW_GROUP) {
            const int e = e0 + lid, row = e / FW_KV, part = e % FW_KV;
            if ((FW_TILE * FW_KV) % FW_GROUP == 0 || e < FW_TILE * FW_KV)
                FW_VSTORE(*(__global const fw_v *)(a_tile + row * n + k0 + part * PF_FW_VB), 0,
                          a_chunk + row * FW_LDA + part * PF_FW_VB);
        }
#pragma unroll
        for (int e0 = 0; e0 < PF_FW_KC * FW_TV; e0 += FW_GROUP) {
            const int e = e0 + lid, row = e / FW_TV, part = e % FW_TV;
            if ((PF_FW_KC * FW_TV) % FW_GROUP == 0 || e < PF_FW_KC * FW_TV)
                b_chunk[e] = *(__global const fw_v *)(b_tile + (k0 + row) * n +
                                                      part * PF_FW_VB);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        FW_UNROLL(PF_FW_UNROLL)
        for (int kk = 0; kk < PF_FW_KC; kk++) {
            fw_v b[FW_NG];
#pragma unroll
            for (int g = 0; g < FW_NG; g++)
                b[g] = b_chunk[kk * FW_TV + g * FW_TX + tx];
#pragma unroll
            for (int m = 0; m < PF_FW_RM; m++) {
                const fw_t a = a_chunk[(ty + m * FW_TY) * FW_LDA + kk];
#pragma unroll
                for (int g = 0; g < FW_NG; g++) {
                    const fw_v via_k = a + b[g];
#if PF_FW_PATHS
                    FW_TAKE_SHORTER(acc[m][g], via[m][g], via_k, (fw_iv)(k0 + kk), fw_mv,
                                    FW_IMASK);
#else
                    acc[m][g] = FW_MIN(acc[m][g], via_k);
#endif
                }
            }
        }
    }

#pragma unroll
    for (int m = 0; m < PF_FW_RM; m++) {
#if PF_FW_PATHS
        __global int *next_row = next + (row0 + ty + m * FW_TY) * n;
#endif
#pragma unroll
        for (int g = 0; g < FW_NG; g++) {
            const int at = mine + m * FW_TY * n + g * FW_TX * PF_FW_VB;
            *(__global fw_v *)(c_tile + at) = acc[m][g];
#if PF_FW_PATHS
            const size_t col = col0 + (g * FW_TX + tx) * PF_FW_VB;
            int ks[PF_FW_VB];
            FW_VSTORE(via[m][g], 0, ks);
#pragma unroll
            for (int e = 0; e < PF_FW_VB; e++)
                if (ks[e] >= 0)
                    next_row[col + e] = next_row[kbase + ks[e]];
#endif
        }
    }
}
