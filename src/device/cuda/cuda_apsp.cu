/* CUDA backend: the blocked Floyd-Warshall steps of device.h (fw_tile,
 * fw_phase) on the device-resident distance matrix.
 *
 * Two kernels, templated over the element type (int32, int64, float) and
 * next hops on or off, so every kind runs the same code:
 *
 * - pf_k_fw_dependent (phases 1 and 2): one block per tile, the tile held
 *   in registers (each thread a 4RG x 4CG sub-tile). Step k depends on
 *   step k-1, so the block walks K with one barrier per k: the owners of
 *   row k and column k publish them to small shared buffers, everyone
 *   updates. An operand that comes from the finished diagonal tile (phase
 *   2) is read from a shared copy of it instead. One launch per phase.
 *
 * - pf_k_fw_phase3 (phase 3, nearly all the work): a min-plus "GEMM".
 *   Each block owns a BM x BN output block in registers (thread sub-tile
 *   4RG x 4CG, 256 threads) and streams the round's column panel (its rows,
 *   K) and row panel (K, its columns) through shared memory in chunks of
 *   BK k's, double-buffered with cp.async so the next chunk's copy overlaps
 *   this one's arithmetic. Phase 3 reads nothing it writes, so its order
 *   over k only matters for next-hop ties, and each thread still takes k
 *   in increasing order. Without paths it may instead start from "no
 *   path" and merge the output block (min) only at the end, its load
 *   prefetched into L2 meanwhile (PF_CUDA_FW_VARIANT, fw_p3_variant).
 *
 * The int32 update is one DPX instruction (VIADDMNMX, __viaddmin_s32);
 * float is FADD + FMNMX, int64 a 64-bit add and compare. */
#include "cuda_internal.h"
#include "cuda_apsp_ops.cuh"

#include <cuda_pipeline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- shapes ---------------------------------------------------------------- */

/* Per element type and paths: a thread owns RG groups of 4 rows and CG
 * groups of 4 columns (in both kernels), and phase 3 reads the column
 * panel AK k's at a time. 4-byte kinds without hops get 8x8 (64
 * accumulators, 128 x 128 blocks); hops double the state per element and
 * int64 doubles the registers per value, so those get 8x4 and int64 with
 * hops 4x4, keeping phase 3 within 128 registers (two blocks per SM). */
template <typename T, bool PATHS> struct fw_shape {
    static constexpr bool small_state = sizeof(T) == 4 && !PATHS;
    static constexpr int RG = sizeof(T) == 8 && PATHS ? 1 : 2;
    static constexpr int CG = small_state ? 2 : 1;
    static constexpr int AK = small_state ? 4 : 2;
};

/* The thread's sub-tile in registers, and its next hops. */
template <typename T, bool PATHS, int RG, int CG> struct fw_acc {
    T d[4 * RG][4 * CG];
    int hop[PATHS ? 4 * RG : 1][PATHS ? 4 * CG : 1];
};

/* acc(i, j) relaxed through one k: a[i] = d(row i, k), b[j] = d(k, col j),
 * a_hop[i] = next(row i, k). */
template <typename T, bool PATHS, int RG, int CG>
static __device__ __forceinline__ void fw_relax(fw_acc<T, PATHS, RG, CG> &acc,
                                                const T (&a)[4 * RG],
                                                const int (&a_hop)[PATHS ? 4 * RG : 1],
                                                const T (&b)[4 * CG])
{
#pragma unroll
    for (int i = 0; i < 4 * RG; ++i)
#pragma unroll
        for (int j = 0; j < 4 * CG; ++j) {
            if constexpr (PATHS)
                fw_relax_hop(acc.d[i][j], acc.hop[i][j], a[i], b[j], a_hop[i]);
            else
                acc.d[i][j] = fw_min_plus(a[i], b[j], acc.d[i][j]);
        }
}

/* 4 consecutive elements between memory and registers, as one vector. */
template <bool STORE, typename U>
static __device__ __forceinline__ void fw_move4(U *mem, U *regs)
{
    fw_vec<U, 4> x;
    if constexpr (STORE) {
#pragma unroll
        for (int v = 0; v < 4; ++v)
            x.v[v] = regs[v];
        fw_store<4>(mem, x);
    } else {
        x = fw_load<4>(mem);
#pragma unroll
        for (int v = 0; v < 4; ++v)
            regs[v] = x.v[v];
    }
}

/* Loads the sub-tile into registers, or (STORE) writes it back. Row i of
 * the sub-tile is matrix row (i/4)*row_step + i%4 counted from the
 * thread's first element `at` (which includes its 4*ty rows and 4*tx
 * columns); likewise columns with col_step. Groups of 4 columns are
 * contiguous, so every access is a vector one and a warp's 16 threads
 * along x cover 64 contiguous elements of a row. Offsets from `at` stay
 * within a tile's rows, so they are 32-bit (tile * n < 2^31): 64-bit
 * addresses per row would cost the registers phase 3 needs. */
template <bool STORE, typename T, bool PATHS, int RG, int CG>
static __device__ __forceinline__ void fw_acc_move(fw_acc<T, PATHS, RG, CG> &acc, T *at,
                                                   int *hop_at, int n, int row_step,
                                                   int col_step)
{
#pragma unroll
    for (int i = 0; i < 4 * RG; ++i)
#pragma unroll
        for (int h = 0; h < CG; ++h) {
            int off = ((i / 4) * row_step + i % 4) * n + h * col_step;
            fw_move4<STORE>(at + off, &acc.d[i][4 * h]);
            if constexpr (PATHS)
                fw_move4<STORE>(hop_at + off, &acc.hop[i][4 * h]);
        }
}

/* ---- phases 1 and 2: tiles whose k steps depend on each other ---------------- */

/* Register cap of the dependent kernel: 512 threads leave 128 registers
 * each, which every shape's sub-tile fits (nothing spills inside the k
 * loop). The most
 * threads a tile needs, (tile/4CG) x (tile/4RG), is checked against the
 * kernel's attributes at run time (fw_tile_runs). */
#define FW_DEP_MAX_THREADS 512

/* Dynamic shared memory of the dependent kernel, in the order it is cut:
 * phase 2 keeps the diagonal tile (and its hops), both phases the
 * published row k and column k, double-buffered by k's parity. */
template <typename T, bool PATHS> static size_t fw_dep_smem(int tile, int phase)
{
    size_t diag = phase == 2 ? (size_t)tile * tile : 0;
    size_t bytes = (diag + 4 * (size_t)tile) * sizeof(T);
    if (PATHS)
        bytes += (diag + 2 * (size_t)tile) * sizeof(int);
    return bytes;
}

/* Launch: blockDim = (tile/4CG, tile/4RG); phase 1 one block (tile (r,r)),
 * phase 2 2*(tiles-1) blocks, first the row tiles (r,J), then the column
 * tiles (I,r). For a row tile d(i,k) comes from the diagonal, d(k,j) from
 * the tile itself; for a column tile the other way round; the diagonal
 * takes both from itself. */
template <typename T, bool PATHS, int RG, int CG>
__global__ void __launch_bounds__(FW_DEP_MAX_THREADS)
pf_k_fw_dependent(T *dist, int *next, int n, int tile, int round, int phase)
{
    static_assert(RG % CG == 0, "row groups must be a multiple of column groups");
    constexpr int SPLIT = RG / CG; /* row groups per column group */
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row_step = 4 * blockDim.y; /* = tile / RG */
    const int col_step = 4 * blockDim.x; /* = tile / CG */

    int tile_row = round, tile_col = round;
    bool own_rows = true, own_cols = true; /* operand d(k,j) / d(i,k) from this tile */
    if (phase == 2) {
        int others = n / tile - 1;
        int b = (int)blockIdx.x;
        if (b < others) {
            tile_col = b < round ? b : b + 1;
            own_cols = false;
        } else {
            b -= others;
            tile_row = b < round ? b : b + 1;
            own_rows = false;
        }
    }

    extern __shared__ __align__(16) unsigned char fw_smem[];
    const size_t diag_elems = phase == 2 ? (size_t)tile * tile : 0;
    T *diag = reinterpret_cast<T *>(fw_smem);
    T *row_buf = diag + diag_elems;  /* [2][tile] */
    T *col_buf = row_buf + 2 * tile; /* [2][tile] */
    int *diag_hop = reinterpret_cast<int *>(col_buf + 2 * tile);
    int *col_hop = diag_hop + (PATHS ? diag_elems : 0); /* [2][tile] */

    const size_t nn = (size_t)n;
    const size_t corner = (size_t)round * tile * nn + (size_t)round * tile;
    if (phase == 2) {
        /* The diagonal tile, copied while the registers load below. */
        const int threads = blockDim.x * blockDim.y, tid = ty * blockDim.x + tx;
        constexpr int VE = 16 / sizeof(T);
        for (int p = tid; p < tile * tile / VE; p += threads) {
            int r = p / (tile / VE), c = p % (tile / VE) * VE;
            __pipeline_memcpy_async(diag + r * tile + c, dist + corner + r * nn + c, 16);
        }
        if constexpr (PATHS)
            for (int p = tid; p < tile * tile / 4; p += threads) {
                int r = p / (tile / 4), c = p % (tile / 4) * 4;
                __pipeline_memcpy_async(diag_hop + r * tile + c, next + corner + r * nn + c, 16);
            }
        __pipeline_commit();
    }

    const size_t first = (size_t)(tile_row * tile + 4 * ty) * nn + tile_col * tile + 4 * tx;
    int *hop_first = PATHS ? next + first : NULL;
    fw_acc<T, PATHS, RG, CG> acc;
    fw_acc_move<false>(acc, dist + first, hop_first, n, row_step, col_step);
    if (phase == 2)
        __pipeline_wait_prior(0);

    /* k = g*row_step + 4*kq + u: row k is the thread row ty == kq's sub-tile
     * row 4g+u, column k the thread column (g%SPLIT)*blockDim.y + kq's
     * sub-tile column 4(g/SPLIT)+u. With g and u unrolled both indices are
     * compile-time, so the registers never need dynamic indexing. */
#pragma unroll
    for (int g = 0; g < RG; ++g) {
        const int col_owner_base = (g % SPLIT) * (int)blockDim.y;
        for (int kq = 0; kq < (int)blockDim.y; ++kq) {
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const int k = g * row_step + 4 * kq + u;
                const int parity = u & 1; /* = k & 1 */
                if (own_rows && ty == kq) {
#pragma unroll
                    for (int h = 0; h < CG; ++h) {
                        fw_vec<T, 4> x;
#pragma unroll
                        for (int v = 0; v < 4; ++v)
                            x.v[v] = acc.d[4 * g + u][4 * h + v];
                        fw_store<4>(row_buf + parity * tile + h * col_step + 4 * tx, x);
                    }
                }
                if (own_cols && tx == col_owner_base + kq) {
                    const int j = 4 * (g / SPLIT); /* the column's group */
#pragma unroll
                    for (int g2 = 0; g2 < RG; ++g2) {
                        fw_vec<T, 4> x;
#pragma unroll
                        for (int u2 = 0; u2 < 4; ++u2)
                            x.v[u2] = acc.d[4 * g2 + u2][j + u];
                        fw_store<4>(col_buf + parity * tile + g2 * row_step + 4 * ty, x);
                        if constexpr (PATHS) {
                            fw_vec<int, 4> y;
#pragma unroll
                            for (int u2 = 0; u2 < 4; ++u2)
                                y.v[u2] = acc.hop[4 * g2 + u2][j + u];
                            fw_store<4>(col_hop + parity * tile + g2 * row_step + 4 * ty, y);
                        }
                    }
                }
                /* One barrier per k: a buffer written at step k+2 was last
                 * read at step k, before everyone passed step k+1's barrier. */
                __syncthreads();

                const T *b_src = own_rows ? row_buf + parity * tile : diag + (size_t)k * tile;
                const T *a_src = own_cols ? col_buf + parity * tile : diag + k;
                const int *hop_src = own_cols ? col_hop + parity * tile : diag_hop + k;
                const int a_stride = own_cols ? 1 : tile;
                T a[4 * RG], b[4 * CG];
                int a_hop[PATHS ? 4 * RG : 1];
#pragma unroll
                for (int i = 0; i < 4 * RG; ++i) {
                    int at = ((i / 4) * row_step + 4 * ty + i % 4) * a_stride;
                    a[i] = a_src[at];
                    if constexpr (PATHS)
                        a_hop[i] = hop_src[at];
                }
#pragma unroll
                for (int h = 0; h < CG; ++h) {
                    fw_vec<T, 4> x = fw_load<4>(b_src + h * col_step + 4 * tx);
#pragma unroll
                    for (int v = 0; v < 4; ++v)
                        b[4 * h + v] = x.v[v];
                }
                fw_relax(acc, a, a_hop, b);
            }
        }
    }
    fw_acc_move<true>(acc, dist + first, hop_first, n, row_step, col_step);
}

/* ---- phase 3: every tile off row and column r ---------------------------------- */

#define FW_P3_THREADS 256 /* 16 x 16 */
#define FW_P3_BK 32       /* k's per staged chunk */

/* Shared layout of one pipeline stage of phase 3 (elements): the column
 * panel's BM x BK chunk, rows padded by 16 bytes so that the two rows a
 * warp reads at once fall on different banks; the row panel's BK x BN
 * chunk; with hops, the column panel's next hops, padded the same way. */
template <typename T, bool PATHS, int RG, int CG> struct fw_p3 {
    static constexpr int BM = 64 * RG, BN = 64 * CG, BK = FW_P3_BK;
    static constexpr int VE = 16 / sizeof(T); /* elements per 16 bytes */
    static constexpr int A_PITCH = BK + VE, HOP_PITCH = BK + 4;
    static constexpr size_t A_ELEMS = (size_t)BM * A_PITCH, B_ELEMS = (size_t)BK * BN;
    static constexpr size_t HOP_ELEMS = PATHS ? (size_t)BM * HOP_PITCH : 0;
    static constexpr size_t STAGE_BYTES = (A_ELEMS + B_ELEMS) * sizeof(T) + HOP_ELEMS * sizeof(int);
    static constexpr size_t SMEM = 2 * STAGE_BYTES;
    static_assert(STAGE_BYTES % 16 == 0, "stages must stay 16-byte aligned");
    static_assert(BM * BK / VE % FW_P3_THREADS == 0 && BK * BN / VE % FW_P3_THREADS == 0 &&
                      BM * BK / 4 % FW_P3_THREADS == 0,
                  "chunk copies must split evenly over the block");
};

/* Queues the cp.async copies of one chunk into a stage: a_src, b_src and
 * hop_src point at the chunk's first element in the column panel (BM x
 * BK), the row panel (BK x BN) and the column panel's hops. */
template <typename T, bool PATHS, int RG, int CG>
static __device__ __forceinline__ void fw_p3_fetch(unsigned char *stage, const T *a_src,
                                                   const T *b_src, const int *hop_src, int n,
                                                   int tid)
{
    typedef fw_p3<T, PATHS, RG, CG> P;
    T *a = reinterpret_cast<T *>(stage);
    T *b = a + P::A_ELEMS;
    /* Rolled loops: unrolled, the compiler keeps every copy's address live
     * across the k loop and spills them. */
#pragma unroll 1
    for (int q = 0; q < P::BM * P::BK / P::VE / FW_P3_THREADS; ++q) {
        int p = tid + q * FW_P3_THREADS;
        int r = p / (P::BK / P::VE), c = p % (P::BK / P::VE) * P::VE;
        __pipeline_memcpy_async(a + r * P::A_PITCH + c, a_src + r * n + c, 16);
    }
#pragma unroll 1
    for (int q = 0; q < P::BK * P::BN / P::VE / FW_P3_THREADS; ++q) {
        int p = tid + q * FW_P3_THREADS;
        int r = p / (P::BN / P::VE), c = p % (P::BN / P::VE) * P::VE;
        __pipeline_memcpy_async(b + r * P::BN + c, b_src + r * n + c, 16);
    }
    if constexpr (PATHS) {
        int *hop = reinterpret_cast<int *>(b + P::B_ELEMS);
#pragma unroll 1
        for (int q = 0; q < P::BM * P::BK / 4 / FW_P3_THREADS; ++q) {
            int p = tid + q * FW_P3_THREADS;
            int r = p / (P::BK / 4), c = p % (P::BK / 4) * 4;
            __pipeline_memcpy_async(hop + r * P::HOP_PITCH + c, hop_src + r * n + c, 16);
        }
    }
    __pipeline_commit();
}

/* One staged chunk: for each k, the thread's 4RG values d(i,k) (read AK
 * k's at a time along the padded rows) and 4CG values d(k,j). */
template <typename T, bool PATHS, int RG, int CG, int AK>
static __device__ __forceinline__ void fw_p3_chunk(fw_acc<T, PATHS, RG, CG> &acc,
                                                   const unsigned char *stage, int tx, int ty)
{
    typedef fw_p3<T, PATHS, RG, CG> P;
    const T *a_chunk = reinterpret_cast<const T *>(stage);
    const T *b_chunk = a_chunk + P::A_ELEMS;
    const int *hop_chunk = reinterpret_cast<const int *>(b_chunk + P::B_ELEMS);
    /* Rolled: one pass is already AK * 16RG*CG independent updates after
     * its loads, and unrolling further only adds registers (two blocks
     * per SM need <= 128) and instruction-cache footprint. */
#pragma unroll 1
    for (int kq = 0; kq < P::BK; kq += AK) {
        fw_vec<T, AK> a_run[4 * RG];
        fw_vec<int, AK> hop_run[PATHS ? 4 * RG : 1];
#pragma unroll
        for (int i = 0; i < 4 * RG; ++i) {
            int r = (i / 4) * 64 + 4 * ty + i % 4;
            a_run[i] = fw_load<AK>(a_chunk + r * P::A_PITCH + kq);
            if constexpr (PATHS)
                hop_run[i] = fw_load<AK>(hop_chunk + r * P::HOP_PITCH + kq);
        }
#pragma unroll
        for (int kk = 0; kk < AK; ++kk) {
            T a[4 * RG], b[4 * CG];
            int a_hop[PATHS ? 4 * RG : 1];
#pragma unroll
            for (int i = 0; i < 4 * RG; ++i) {
                a[i] = a_run[i].v[kk];
                if constexpr (PATHS)
                    a_hop[i] = hop_run[i].v[kk];
            }
#pragma unroll
            for (int h = 0; h < CG; ++h) {
                fw_vec<T, 4> x = fw_load<4>(b_chunk + (kq + kk) * P::BN + h * 64 + 4 * tx);
#pragma unroll
                for (int v = 0; v < 4; ++v)
                    b[4 * h + v] = x.v[v];
            }
            fw_relax(acc, a, a_hop, b);
        }
    }
}

/* Phase 3's variants, PF_CUDA_FW_VARIANT (read at open; paths always run
 * FW_P3_LOAD):
 * - FW_P3_LOAD: the block loads its output block into the accumulators
 *   first, and waits for it (DRAM) before the first update.
 * - FW_P3_LATE_START, FW_P3_LATE_HALF: the accumulators start at "no path"
 *   and the output block is merged, min(C, acc), after the k loop: the
 *   same result bit for bit, min being exact. The block asks L2 for the
 *   output block at its start, or (HALF) before chunk chunks-2, about
 *   half a block's time ahead, so that L2 keeps it until then.
 * - FW_P3_LATE_HALF_CS: HALF with streaming (evict-first) stores of the
 *   output, so that L2 keeps the panels and prefetched blocks instead. */
enum { FW_P3_LOAD, FW_P3_LATE_START, FW_P3_LATE_HALF, FW_P3_LATE_HALF_CS, FW_P3_VARIANTS };
#define FW_P3_DEFAULT FW_P3_LATE_HALF

static __device__ __forceinline__ void fw_prefetch_l2(const void *p)
{
#ifdef __CUDA_ARCH__
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#endif
}

/* Asks L2 for the BM x BN output block at `at` (128-byte lines; rows of
 * BN elements are 256-byte aligned). */
template <typename T, int BM, int BN>
static __device__ __forceinline__ void fw_p3_prefetch(const T *at, int n, int tid)
{
    constexpr int LINES = BN * (int)sizeof(T) / 128, LINE = 128 / (int)sizeof(T);
#pragma unroll 1
    for (int p = tid; p < BM * LINES; p += FW_P3_THREADS)
        fw_prefetch_l2(at + (p / LINES) * n + (p % LINES) * LINE);
}

/* out = min(out, acc) over the thread's sub-tile (laid out as
 * fw_acc_move's with steps 64), one group of 4 rows at a time so that
 * the loaded values need no more registers than half the accumulators. */
template <bool CS, typename T, int RG, int CG>
static __device__ __forceinline__ void fw_p3_merge(const fw_acc<T, false, RG, CG> &acc, T *at,
                                                   int n)
{
#pragma unroll
    for (int g = 0; g < RG; ++g) {
        fw_vec<T, 4> c[4][CG];
#pragma unroll
        for (int u = 0; u < 4; ++u)
#pragma unroll
            for (int h = 0; h < CG; ++h)
                c[u][h] = fw_load<4>(at + (g * 64 + u) * n + h * 64);
#pragma unroll
        for (int u = 0; u < 4; ++u)
#pragma unroll
            for (int h = 0; h < CG; ++h) {
#pragma unroll
                for (int v = 0; v < 4; ++v)
                    c[u][h].v[v] = fw_min(c[u][h].v[v], acc.d[4 * g + u][4 * h + v]);
                T *out = at + (g * 64 + u) * n + h * 64;
                if constexpr (CS) {
#pragma unroll
                    for (int q = 0; q < (int)sizeof(c[u][h]) / 16; ++q) {
                        int4 x;
                        memcpy(&x, reinterpret_cast<const char *>(&c[u][h]) + 16 * q, 16);
                        __stcs(reinterpret_cast<int4 *>(out) + q, x);
                    }
                } else {
                    fw_store<4>(out, c[u][h]);
                }
            }
    }
}

/* Grid: ((n - tile)/BN, (n - tile)/BM) blocks of 16 x 16 threads: every
 * output block outside tile row and column `round`, which the block
 * indices skip. Two blocks per SM, so that one block's loads and stores
 * overlap the other's arithmetic. */
template <typename T, bool PATHS, int RG, int CG, int AK, int VAR>
__global__ void __launch_bounds__(FW_P3_THREADS, 2)
pf_k_fw_phase3(T *dist, int *next, int n, int tile, int round)
{
    typedef fw_p3<T, PATHS, RG, CG> P;
    extern __shared__ __align__(16) unsigned char fw_smem[];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;

    int bx = (int)blockIdx.x, by = (int)blockIdx.y;
    const int blocks_x = tile / P::BN, blocks_y = tile / P::BM; /* per tile */
    if (bx >= round * blocks_x)
        bx += blocks_x;
    if (by >= round * blocks_y)
        by += blocks_y;
    const int row0 = by * P::BM, col0 = bx * P::BN, k0 = round * tile;
    const size_t nn = (size_t)n;
    /* Block-wide bases (uniform registers); per-thread offsets are 32-bit. */
    const T *a_panel = dist + row0 * nn + k0;
    const T *b_panel = dist + k0 * nn + col0;
    const int *hop_panel = PATHS ? next + row0 * nn + k0 : NULL;

    /* The output block comes from DRAM, the panels mostly from L2: its
     * loads (or, late, its prefetch) go out first, the first two chunks'
     * copies behind them. */
    static_assert(VAR == FW_P3_LOAD || !PATHS, "paths merge the output block first");
    constexpr bool LATE = VAR != FW_P3_LOAD;
    const size_t first = (row0 + 4 * ty) * nn + col0 + 4 * tx;
    fw_acc<T, PATHS, RG, CG> acc;
    if constexpr (LATE) {
#pragma unroll
        for (int i = 0; i < 4 * RG; ++i)
#pragma unroll
            for (int j = 0; j < 4 * CG; ++j)
                acc.d[i][j] = fw_no_path<T>();
    } else {
        fw_acc_move<false>(acc, dist + first, PATHS ? next + first : NULL, n, 64, 64);
    }
    const int chunks = tile / P::BK;
    const int prefetch_at = VAR == FW_P3_LATE_START || chunks < 2 ? 0 : chunks - 2;
    fw_p3_fetch<T, PATHS, RG, CG>(fw_smem, a_panel, b_panel, hop_panel, n, tid);
    if (chunks > 1)
        fw_p3_fetch<T, PATHS, RG, CG>(fw_smem + P::STAGE_BYTES, a_panel + P::BK,
                                      b_panel + P::BK * nn, PATHS ? hop_panel + P::BK : NULL,
                                      n, tid);

    for (int c = 0; c < chunks; ++c) {
        unsigned char *stage = fw_smem + (c & 1) * P::STAGE_BYTES;
        if (c + 1 < chunks)
            __pipeline_wait_prior(1); /* chunk c landed, c+1 may still fly */
        else
            __pipeline_wait_prior(0);
        __syncthreads();
        if (LATE && c == prefetch_at)
            fw_p3_prefetch<T, P::BM, P::BN>(dist + row0 * nn + col0, n, tid);
        fw_p3_chunk<T, PATHS, RG, CG, AK>(acc, stage, tx, ty);
        __syncthreads(); /* stage free for chunk c+2 */
        if (c + 2 < chunks) {
            int kc = (c + 2) * P::BK;
            fw_p3_fetch<T, PATHS, RG, CG>(stage, a_panel + kc, b_panel + kc * nn,
                                          PATHS ? hop_panel + kc : NULL, n, tid);
        }
    }
    if constexpr (LATE)
        fw_p3_merge<VAR == FW_P3_LATE_HALF_CS>(acc, dist + first, n);
    else
        fw_acc_move<true>(acc, dist + first, PATHS ? next + first : NULL, n, 64, 64);
}

/* ---- host side ------------------------------------------------------------- */

static const char *fw_kind_name(int32_t kind)
{
    switch (kind) {
    case PF_DIST_I32:
        return "int32";
    case PF_DIST_I64:
        return "int64";
    case PF_DIST_F32:
        return "float";
    }
    return "unknown";
}

/* The element type and paths flag of a call, as a type for fw_visit. */
template <typename T, bool PATHS> struct fw_type {
    typedef T elem;
    static constexpr bool paths = PATHS;
};

/* f(fw_type<T, paths>()) for kind's element type: one dispatch for every
 * templated entry below. The caller has checked the kind. */
template <typename F> static int fw_visit(int32_t kind, int paths, F &&f)
{
    switch (kind) {
    case PF_DIST_I32:
        return paths ? f(fw_type<int, true>()) : f(fw_type<int, false>());
    case PF_DIST_I64:
        return paths ? f(fw_type<long long, true>()) : f(fw_type<long long, false>());
    default:
        return paths ? f(fw_type<float, true>()) : f(fw_type<float, false>());
    }
}

static bool fw_kind_known(int32_t kind)
{
    return kind == PF_DIST_I32 || kind == PF_DIST_I64 || kind == PF_DIST_F32;
}

/* The device's shared memory opt-in limit and the dependent kernel's
 * thread limit for kind/paths, queried once and kept in dev. */
static int fw_limits(pf_dev *dev, int32_t kind, int paths, pf_status *st)
{
    if (dev->fw_smem_optin == 0)
        PF_CUDA_TRY(st, "cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin)",
                    cudaDeviceGetAttribute(&dev->fw_smem_optin,
                                           cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                           dev->ordinal));
    int *threads = &dev->fw_dep_threads[kind][paths ? 1 : 0];
    if (*threads > 0)
        return PF_OK;
    return fw_visit(kind, paths, [&](auto t) {
        typedef typename decltype(t)::elem T;
        typedef fw_shape<T, decltype(t)::paths> S;
        cudaFuncAttributes attr;
        PF_CUDA_TRY(st, "cudaFuncGetAttributes(pf_k_fw_dependent)",
                    cudaFuncGetAttributes(
                        &attr, pf_k_fw_dependent<T, decltype(t)::paths, S::RG, S::CG>));
        *threads = attr.maxThreadsPerBlock;
        return (int)PF_OK;
    });
}

/* Whether `tile` runs for T/PATHS on dev (limits queried): a multiple of
 * 64 (the narrowest phase-3 block) whose diagonal tile fits one block's
 * shared memory and whose thread grid fits the dependent kernel. */
template <typename T, bool PATHS> static bool fw_tile_runs(const pf_dev *dev, int32_t kind, int tile)
{
    typedef fw_shape<T, PATHS> S;
    if (tile < 64 || tile % 64 != 0 || tile > 4096)
        return false;
    long threads = (long)(tile / (4 * S::CG)) * (tile / (4 * S::RG));
    size_t optin = (size_t)dev->fw_smem_optin;
    return threads <= dev->fw_dep_threads[kind][PATHS] &&
           fw_dep_smem<T, PATHS>(tile, 2) <= optin &&
           fw_p3<T, PATHS, S::RG, S::CG>::SMEM <= optin &&
           fw_p3<T, PATHS, 1, 1>::SMEM <= optin;
}

/* PF_E_USAGE naming the tiles that do run. */
template <typename T, bool PATHS>
static int fw_refuse(const pf_dev *dev, const pf_dev_apsp *a, pf_status *st)
{
    char list[256] = "";
    size_t used = 0;
    for (int tile = 64; tile <= 4096 && used < sizeof list; tile += 64)
        if (fw_tile_runs<T, PATHS>(dev, a->kind, tile))
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? ", " : "",
                                     tile);
    return pf_fail(st, PF_E_USAGE,
                   "cuda: tile %d cannot run %s Floyd-Warshall%s on this device; tiles it "
                   "runs: %s",
                   a->tile, fw_kind_name(a->kind), PATHS ? " with paths" : "",
                   used ? list : "none");
}

/* Sets a kernel up for `smem` dynamic bytes (above 48 KB a block must opt
 * in) with the largest shared-memory carveout: the kernels keep their
 * data in registers and shared memory and reuse nothing through L1. */
template <typename K>
static int fw_prepare(K kernel, size_t smem, const char *name, pf_status *st)
{
    char call[128];
    snprintf(call, sizeof call, "cudaFuncSetAttribute(%s, MaxDynamicSharedMemorySize)", name);
    PF_CUDA_TRY(st, call,
                cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)smem));
    snprintf(call, sizeof call, "cudaFuncSetAttribute(%s, PreferredSharedMemoryCarveout)", name);
    PF_CUDA_TRY(st, call,
                cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     (int)cudaSharedmemCarveoutMaxShared));
    return PF_OK;
}

static int fw_check_launch(const char *name, int32_t kind, int phase, pf_status *st)
{
    char call[128];
    snprintf(call, sizeof call, "launch %s (%s, phase %d)", name, fw_kind_name(kind), phase);
    PF_CUDA_TRY(st, call, cudaGetLastError());
    return PF_OK;
}

/* Phase 3 with RG x CG sub-tiles: the shape's own when its blocks divide
 * the tile, else 4 x 4 (64 x 64 blocks, which divide every tile that runs). */
template <typename T, bool PATHS, int RG, int CG, int AK, int VAR>
static int fw_launch_phase3_as(pf_dev *dev, const pf_dev_apsp *a, int round, pf_status *st)
{
    typedef fw_p3<T, PATHS, RG, CG> P;
    dim3 grid((unsigned)((a->n - a->tile) / P::BN), (unsigned)((a->n - a->tile) / P::BM));
    if (grid.y > 65535)
        return pf_fail(st, PF_E_DEVICE, "cuda fw_phase: %d rows of blocks (limit 65535)",
                       (int)grid.y);
    auto kernel = pf_k_fw_phase3<T, PATHS, RG, CG, AK, VAR>;
    int rc = fw_prepare(kernel, P::SMEM, "pf_k_fw_phase3", st);
    if (rc != PF_OK)
        return rc;
    kernel<<<grid, dim3(16, 16), P::SMEM, dev->stream>>>(
        pf_cuda_ptr<T>(a->dist), PATHS ? pf_cuda_ptr<int>(a->next) : NULL, a->n, a->tile, round);
    return fw_check_launch("pf_k_fw_phase3", a->kind, 3, st);
}

/* The device's phase-3 variant (fw_p3_variant), paths always FW_P3_LOAD. */
template <typename T, bool PATHS, int RG, int CG, int AK>
static int fw_launch_phase3(pf_dev *dev, const pf_dev_apsp *a, int round, pf_status *st)
{
    if constexpr (!PATHS)
        switch (dev->fw_variant) {
        case FW_P3_LATE_START:
            return fw_launch_phase3_as<T, PATHS, RG, CG, AK, FW_P3_LATE_START>(dev, a, round, st);
        case FW_P3_LATE_HALF:
            return fw_launch_phase3_as<T, PATHS, RG, CG, AK, FW_P3_LATE_HALF>(dev, a, round, st);
        case FW_P3_LATE_HALF_CS:
            return fw_launch_phase3_as<T, PATHS, RG, CG, AK, FW_P3_LATE_HALF_CS>(dev, a, round,
                                                                               st);
        }
    return fw_launch_phase3_as<T, PATHS, RG, CG, AK, FW_P3_LOAD>(dev, a, round, st);
}

/* pf_dev.fw_variant comes from PF_CUDA_FW_VARIANT, whose range knobs.c
 * declares. */
static_assert(FW_P3_VARIANTS == 4, "PF_CUDA_FW_VARIANT's range in knobs.c");

template <typename T, bool PATHS>
static int fw_launch(pf_dev *dev, const pf_dev_apsp *a, int round, int phase, pf_status *st)
{
    typedef fw_shape<T, PATHS> S;
    const int tile = a->tile, tiles = a->n / tile;
    if (phase != 1 && tiles == 1)
        return PF_OK; /* no tile off the diagonal */
    if (phase == 3) {
        if (tile % (64 * S::RG) == 0 && tile % (64 * S::CG) == 0)
            return fw_launch_phase3<T, PATHS, S::RG, S::CG, S::AK>(dev, a, round, st);
        return fw_launch_phase3<T, PATHS, 1, 1, S::AK>(dev, a, round, st);
    }
    size_t smem = fw_dep_smem<T, PATHS>(tile, phase);
    auto kernel = pf_k_fw_dependent<T, PATHS, S::RG, S::CG>;
    int rc = fw_prepare(kernel, smem, "pf_k_fw_dependent", st);
    if (rc != PF_OK)
        return rc;
    dim3 block((unsigned)(tile / (4 * S::CG)), (unsigned)(tile / (4 * S::RG)));
    unsigned blocks = phase == 1 ? 1u : 2u * (unsigned)(tiles - 1);
    kernel<<<blocks, block, smem, dev->stream>>>(pf_cuda_ptr<T>(a->dist),
                                                 PATHS ? pf_cuda_ptr<int>(a->next) : NULL,
                                                 a->n, tile, round, phase);
    return fw_check_launch("pf_k_fw_dependent", a->kind, phase, st);
}

/* The call's own consistency (the host's contract), before any tile test. */
static int fw_check_call(const pf_dev_apsp *a, int32_t round, int32_t phase, pf_status *st)
{
    if (!a || !a->dist || !fw_kind_known(a->kind) || a->n <= 0 || a->tile <= 0)
        return pf_fail(st, PF_E_DEVICE, "cuda fw_phase: no matrix, or kind %d, n %d, tile %d",
                       a ? a->kind : -1, a ? a->n : -1, a ? a->tile : -1);
    if (a->n % a->tile != 0 || round < 0 || round >= a->n / a->tile || phase < 1 || phase > 3)
        return pf_fail(st, PF_E_DEVICE, "cuda fw_phase: round %d phase %d of n %d, tile %d",
                       round, phase, a->n, a->tile);
    size_t cells = (size_t)a->n * (size_t)a->n;
    size_t elem = a->kind == PF_DIST_I64 ? sizeof(long long) : 4;
    if (a->dist->bytes / elem < cells || (a->next && a->next->bytes / sizeof(int) < cells))
        return pf_fail(st, PF_E_DEVICE,
                       "cuda fw_phase: buffers of %zu and %zu bytes for a %d x %d matrix",
                       a->dist->bytes, a->next ? a->next->bytes : (size_t)0, a->n, a->n);
    return PF_OK;
}

/* 128 where it runs: the largest edge whose diagonal tile fits one block
 * (256 needs 256 KB for int32 alone) and a multiple of every phase-3
 * block. Phase 3 is compute-bound there already (its matrix traffic per
 * round is about a third of the memory bandwidth at full speed), while
 * phases 1 and 2, the serial part, grow with the edge. Else 64 (int64
 * with paths: a 128 tile would need 1024 threads of at most 64
 * registers). */
int32_t pf_cuda_fw_tile(pf_dev *dev, int32_t kind, int paths)
{
    const int preferred = 128, fallback = 64;
    if (!fw_kind_known(kind) || pf_cuda_enter(dev, NULL) != PF_OK ||
        fw_limits(dev, kind, paths, NULL) != PF_OK)
        return fallback;
    int runs = fw_visit(kind, paths, [&](auto t) {
        return (int)fw_tile_runs<typename decltype(t)::elem, decltype(t)::paths>(dev, kind,
                                                                                 preferred);
    });
    return runs ? preferred : fallback;
}

int pf_cuda_fw_phase(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                     pf_status *st)
{
    int rc = fw_check_call(a, round, phase, st);
    if (rc == PF_OK)
        rc = pf_cuda_enter(dev, st);
    if (rc == PF_OK)
        rc = fw_limits(dev, a->kind, a->next != NULL, st);
    if (rc != PF_OK)
        return rc;
    return fw_visit(a->kind, a->next != NULL, [&](auto t) {
        typedef typename decltype(t)::elem T;
        constexpr bool PATHS = decltype(t)::paths;
        if (!fw_tile_runs<T, PATHS>(dev, a->kind, a->tile))
            return fw_refuse<T, PATHS>(dev, a, st);
        return fw_launch<T, PATHS>(dev, a, round, phase, st);
    });
}
