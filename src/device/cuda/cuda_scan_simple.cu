/* CUDA backend: scan and stream compaction with plain kernels, the
 * alternative to CUB selected by PF_CUDA_SCAN=simple (to measure what
 * CUB's single-pass decoupled look-back buys over a textbook scan).
 *
 * Reduce-then-scan over tiles of SCAN_TILE elements: one kernel sums each
 * tile, the tile sums are scanned the same way (recursively; two levels
 * cover 2^31 elements), then one kernel scans each tile from its offset.
 * Filter is the same scan over (flag != 0) whose last pass scatters the
 * selected indices instead of writing the prefix sums. */
#include "cuda_internal.h"

#define SCAN_ROUNDS 8                          /* block-wide rounds per tile */
#define SCAN_TILE (PF_CUDA_BLOCK * SCAN_ROUNDS) /* elements per block */
#define SCAN_WARPS (PF_CUDA_BLOCK / 32)

enum scan_mode {
    SCAN_SUM,    /* out[i] = exclusive prefix sum of in */
    SCAN_SELECT, /* out[prefix count of nonzero in] = i for nonzero in[i] */
};

template <int Mode, typename In> static __device__ __forceinline__ long long item(In v)
{
    return Mode == SCAN_SELECT ? (long long)(v != 0) : (long long)v;
}

/* Exclusive scan of one value per thread across the block; every thread
 * of the block must call it. *block_total receives the sum. */
static __device__ long long block_exclusive_scan(long long x, long long *block_total)
{
    __shared__ long long warp_sums[SCAN_WARPS];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    long long inclusive = x;
    for (int offset = 1; offset < 32; offset <<= 1) {
        long long y = __shfl_up_sync(0xffffffffu, inclusive, offset);
        if (lane >= (unsigned)offset)
            inclusive += y;
    }
    if (lane == 31)
        warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        long long w = lane < SCAN_WARPS ? warp_sums[lane] : 0;
        for (int offset = 1; offset < SCAN_WARPS; offset <<= 1) {
            long long y = __shfl_up_sync(0xffffffffu, w, offset);
            if (lane >= (unsigned)offset)
                w += y;
        }
        if (lane < SCAN_WARPS)
            warp_sums[lane] = w; /* now inclusive over warps */
    }
    __syncthreads();
    long long warp_prefix = warp ? warp_sums[warp - 1] : 0;
    *block_total = warp_sums[SCAN_WARPS - 1];
    __syncthreads(); /* warp_sums is rewritten by the next call */
    return warp_prefix + inclusive - x;
}

/* sums[b] = sum of tile b's items (loads are coalesced: element
 * base + r * BLOCK + thread in round r). */
template <int Mode, typename In>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
pf_k_tile_reduce(const In *in, long long count, long long *sums)
{
    long long base = (long long)blockIdx.x * SCAN_TILE + threadIdx.x;
    long long sum = 0;
    for (int r = 0; r < SCAN_ROUNDS; r++) {
        long long i = base + (long long)r * PF_CUDA_BLOCK;
        if (i < count)
            sum += item<Mode>(in[i]);
    }
    long long block_total;
    block_exclusive_scan(sum, &block_total);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = block_total;
}

/* Scans tile b starting from offsets[b] (0 without offsets). A lone block
 * also writes the grand total. in may equal out (SCAN_SUM): each thread
 * reads the element before it writes it, and no other thread touches it. */
template <int Mode, typename In, typename Out>
__global__ void __launch_bounds__(PF_CUDA_BLOCK)
pf_k_tile_scan(const In *in, Out *out, long long count, const long long *offsets,
               long long *total)
{
    long long run = offsets ? offsets[blockIdx.x] : 0;
    long long base = (long long)blockIdx.x * SCAN_TILE + threadIdx.x;
    for (int r = 0; r < SCAN_ROUNDS; r++) {
        long long i = base + (long long)r * PF_CUDA_BLOCK;
        long long x = i < count ? item<Mode>(in[i]) : 0;
        long long round_total;
        long long prefix = run + block_exclusive_scan(x, &round_total);
        if (i < count) {
            if (Mode == SCAN_SUM)
                out[i] = (Out)prefix;
            else if (x)
                out[prefix] = (Out)i;
        }
        run += round_total;
    }
    if (total && threadIdx.x == 0)
        *total = run;
}

static long long tiles_of(long long count)
{
    return (count + SCAN_TILE - 1) / SCAN_TILE;
}

/* Tile sums needed by every level of a scan of count elements. */
static size_t tile_sums_needed(long long count)
{
    size_t need = 0;
    for (long long tiles = tiles_of(count); tiles > 1; tiles = tiles_of(tiles))
        need += (size_t)tiles;
    return need;
}

static int reserve_tile_sums(pf_dev *dev, size_t need, pf_status *st)
{
    if (need <= dev->tile_sums_cap && dev->tile_sums)
        return PF_OK;
    if (dev->tile_sums) {
        int64_t *old = dev->tile_sums;
        dev->tile_sums = NULL;
        dev->tile_sums_cap = 0;
        PF_CUDA_TRY(st, "cudaFree(scan tile sums)", cudaFree(old));
    }
    size_t want = need > 0 ? need : 1;
    cudaError_t err = cudaMalloc((void **)&dev->tile_sums, want * sizeof(int64_t));
    if (err != cudaSuccess) {
        dev->tile_sums = NULL;
        return pf_cuda_fail(st, "cudaMalloc(scan tile sums)", err);
    }
    dev->tile_sums_cap = want;
    return PF_OK;
}

/* One level: reduce the tiles, scan their sums (next level, in the sums
 * area after this level's), scan the tiles from those offsets. */
template <int Mode, typename In, typename Out>
static int scan_level(pf_dev *dev, const In *in, Out *out, long long count, long long *sums,
                      long long *total, pf_status *st)
{
    long long tiles = tiles_of(count);
    if (tiles == 1) {
        pf_k_tile_scan<Mode, In, Out><<<1, PF_CUDA_BLOCK, 0, dev->stream>>>(in, out, count,
                                                                            nullptr, total);
        PF_CUDA_CHECK_LAUNCH(st, "pf_k_tile_scan");
        return PF_OK;
    }
    pf_k_tile_reduce<Mode, In><<<(unsigned)tiles, PF_CUDA_BLOCK, 0, dev->stream>>>(in, count,
                                                                                  sums);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_tile_reduce");
    int rc = scan_level<SCAN_SUM, long long, long long>(dev, sums, sums, tiles, sums + tiles,
                                                        total, st);
    if (rc != PF_OK)
        return rc;
    pf_k_tile_scan<Mode, In, Out><<<(unsigned)tiles, PF_CUDA_BLOCK, 0, dev->stream>>>(
        in, out, count, sums, nullptr);
    PF_CUDA_CHECK_LAUNCH(st, "pf_k_tile_scan");
    return PF_OK;
}

template <int Mode>
static int run_scan(pf_dev *dev, const int32_t *in, int32_t *out, int64_t count,
                    int64_t *result, pf_status *st)
{
    int rc = reserve_tile_sums(dev, tile_sums_needed(count), st);
    if (rc != PF_OK)
        return rc;
    long long *total = (long long *)&dev->scratch[PF_CUDA_SLOT_B];
    rc = scan_level<Mode, int32_t, int32_t>(dev, in, out, count, (long long *)dev->tile_sums,
                                            total, st);
    if (rc != PF_OK || !result)
        return rc;
    rc = pf_cuda_stage(dev, PF_CUDA_SLOT_B, total, sizeof(int64_t), st);
    if (rc == PF_OK)
        rc = pf_cuda_wait(dev, st);
    if (rc == PF_OK)
        *result = dev->pinned[PF_CUDA_SLOT_B];
    return rc;
}

int pf_cuda_simple_scan_i32(pf_dev *dev, const int32_t *in, int32_t *out, int64_t count,
                            int64_t *total, pf_status *st)
{
    return run_scan<SCAN_SUM>(dev, in, out, count, total, st);
}

int pf_cuda_simple_filter_i32(pf_dev *dev, const int32_t *flags, int32_t *out, int64_t count,
                              int64_t *selected, pf_status *st)
{
    return run_scan<SCAN_SELECT>(dev, flags, out, count, selected, st);
}
