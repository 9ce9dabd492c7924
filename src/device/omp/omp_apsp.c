/* Blocked Floyd-Warshall on the OpenMP backend: fw_tile and fw_phase of
 * device.h. The matrix is host memory (pf_buf), so a phase is OpenMP loops
 * over the kernels of omp_fw_simd.h:
 *
 * - phase 1, the diagonal tile: Floyd-Warshall order on one thread, over a
 *   contiguous copy (see fw_phase1);
 * - phase 2, the round's row and column of tiles: for integer kinds without
 *   next hops a min-plus product as phase 3 (see product_phase2); otherwise
 *   in order, in 16-wide strips (the columns of a row tile and the rows of
 *   a column tile are independent), 2 * (n/tile - 1) * (tile/16) items;
 * - phase 3, every other tile: the row and column tiles no longer change,
 *   so it is a min-plus product C = min(C, A (x) B). They are packed once
 *   per round into the register-blocked kernel's panel order (contiguous,
 *   k-major), then the tiles (or column chunks of them) are spread over the
 *   threads. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/status.h"
#include "omp_fw_simd.h"
#include "omp_internal.h"

enum {
    FW_TILE_QUANTUM = 16, /* every tile is a multiple of this (device.h) */
    FW_TILE_MIN = 64,
    /* Phase 1 runs on one thread (n * tile^2 updates in all) and in-order
     * phase 2 does 2 * tile / n of the work at half speed; phase 3 gains
     * little past 256 (updates per second per core barely grow from 128). */
    FW_TILE_MAX = 256,
    FW_STRIP = 16,        /* phase 2 item: columns (row tiles) or rows (column tiles) */
    FW_L1_GUESS = 32 * 1024,
    FW_L2_GUESS = 256 * 1024,
    FW_PACK_ALIGN = 64,
};

/* One fw_phase call: the matrix, the round and the kernels for its kind. */
typedef struct fw_view {
    const omp_fw_kernels *kern;
    unsigned char *dist; /* n x n elements of esize bytes, row-major */
    int32_t *next;       /* n x n next hops, or NULL */
    int64_t n;
    int32_t kind, tile, round;
    int64_t base; /* round * tile: first row and column of the round's k range */
    size_t esize;
    int threads;
} fw_view;

static void *dist_at(const fw_view *v, int64_t row, int64_t col)
{
    return v->dist + (row * v->n + col) * (int64_t)v->esize;
}

static int32_t *next_at(const fw_view *v, int64_t row, int64_t col)
{
    return v->next ? v->next + row * v->n + col : NULL;
}

static long cache_bytes(int level)
{
    long bytes = -1;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
    bytes = sysconf(level == 1 ? _SC_LEVEL1_DCACHE_SIZE : _SC_LEVEL2_CACHE_SIZE);
#endif
    if (bytes <= 0)
        bytes = level == 1 ? FW_L1_GUESS : FW_L2_GUESS;
    return bytes;
}

/* Phase 3's kernel keeps one packed B panel (tile x one 64-byte line) in
 * L1 and re-reads the packed A tile (tile x tile values, and next hops)
 * once per column panel from L2: each gets half of its cache. */
int32_t ompb_fw_tile(pf_dev *dev, int32_t kind, int paths)
{
    (void)dev;
    long l1 = cache_bytes(1), l2 = cache_bytes(2);
    long a_tile_elem = (kind == PF_DIST_I64 ? 8 : 4) + (paths ? 4 : 0);
    int32_t tile = FW_TILE_MIN;
    for (int32_t bigger = tile + FW_TILE_QUANTUM; bigger <= FW_TILE_MAX;
         bigger += FW_TILE_QUANTUM) {
        if ((long)bigger * 64 > l1 / 2 || (long)bigger * bigger * a_tile_elem > l2 / 2)
            break;
        tile = bigger;
    }
    return tile;
}

void ompb_fw_release(pf_dev *dev)
{
    free(dev->fw_packed);
    dev->fw_packed = NULL;
    dev->fw_packed_bytes = 0;
}

/* A rectangle of the matrix copied out to contiguous memory: a 16-wide
 * strip at stride n * 4 bytes puts every row in the same few cache sets
 * (n is a multiple of 1024 in the large cases), so the in-order steps of
 * phases 1 and 2 run on copies whose rows are adjacent. */
typedef struct fw_local {
    void *dist;
    int32_t *next; /* NULL without next hops */
    int64_t ld;
} fw_local;

static size_t local_bytes(const fw_view *v, int32_t rows, int32_t cols)
{
    size_t bytes = (size_t)rows * cols * (v->esize + (v->next ? 4 : 0));
    return (bytes + FW_PACK_ALIGN - 1) / FW_PACK_ALIGN * FW_PACK_ALIGN;
}

static fw_local local_at(const fw_view *v, unsigned char *mem, int32_t rows, int32_t cols)
{
    fw_local l = {.dist = mem, .ld = cols};
    if (v->next)
        l.next = (int32_t *)(void *)(mem + (size_t)rows * cols * v->esize);
    return l;
}

/* Copies rows x cols at (row, col) into l, or back when `back`. */
static void local_copy(const fw_view *v, const fw_local *l, int64_t row, int64_t col,
                       int32_t rows, int32_t cols, int back)
{
    for (int32_t i = 0; i < rows; i++) {
        unsigned char *near = (unsigned char *)l->dist + (size_t)i * l->ld * v->esize;
        unsigned char *far = dist_at(v, row + i, col);
        memcpy(back ? far : near, back ? near : far, (size_t)cols * v->esize);
        if (v->next) {
            int32_t *near_hops = l->next + i * l->ld, *far_hops = next_at(v, row + i, col);
            memcpy(back ? far_hops : near_hops, back ? near_hops : far_hops,
                   (size_t)cols * sizeof *far_hops);
        }
    }
}

static void local_inorder(const fw_view *v, const fw_local *c, const fw_local *a,
                          const fw_local *b, int32_t rows, int32_t cols)
{
    v->kern->inorder(c->dist, c->next, c->ld, a->dist, a->next, a->ld, b->dist, b->ld, rows, cols,
                     v->tile);
}

static int ensure_packed(pf_dev *dev, size_t bytes, pf_status *st)
{
    if (bytes <= dev->fw_packed_bytes)
        return PF_OK;
    ompb_fw_release(dev);
    size_t rounded = (bytes + FW_PACK_ALIGN - 1) / FW_PACK_ALIGN * FW_PACK_ALIGN;
    dev->fw_packed = aligned_alloc(FW_PACK_ALIGN, rounded);
    if (!dev->fw_packed)
        return pf_fail(st, PF_E_DEVICE,
                       "omp: out of host memory for %zu bytes of Floyd-Warshall scratch", rounded);
    dev->fw_packed_bytes = rounded;
    return PF_OK;
}

/* One thread: the diagonal tile is one tile^3 step chain, and a barrier
 * per k would cost more than it saves (far more when other processes
 * hold cores); it is 1/(n/tile)^2 of the round's work. */
static int fw_phase1(pf_dev *dev, const fw_view *v, pf_status *st)
{
    int rc = ensure_packed(dev, local_bytes(v, v->tile, v->tile), st);
    if (rc)
        return rc;
    fw_local diag = local_at(v, dev->fw_packed, v->tile, v->tile);
    local_copy(v, &diag, v->base, v->base, v->tile, v->tile, 0);
    local_inorder(v, &diag, &diag, &diag, v->tile, v->tile);
    local_copy(v, &diag, v->base, v->base, v->tile, v->tile, 1);
    return PF_OK;
}

static int fw_phase2(pf_dev *dev, const fw_view *v, pf_status *st)
{
    int32_t tile = v->tile, strips = tile / FW_STRIP;
    int64_t base = v->base, tiles = v->n / tile;
    int64_t per_side = (tiles - 1) * strips, items = 2 * per_side;
    if (items == 0)
        return PF_OK;
    size_t diag_bytes = local_bytes(v, tile, tile), strip_bytes = local_bytes(v, tile, FW_STRIP);
    int rc = ensure_packed(dev, diag_bytes + (size_t)v->threads * strip_bytes, st);
    if (rc)
        return rc;
    unsigned char *scratch = dev->fw_packed;
    fw_local diag = local_at(v, scratch, tile, tile);
#pragma omp parallel num_threads(v->threads)
    {
#pragma omp single
        local_copy(v, &diag, base, base, tile, tile, 0);
        unsigned char *mine = scratch + diag_bytes + (size_t)omp_get_thread_num() * strip_bytes;
#pragma omp for schedule(dynamic, 1)
        for (int64_t item = 0; item < items; item++) {
            int64_t on_side = item % per_side;
            int64_t other = on_side / strips; /* tile index, the round's left out */
            other += other >= v->round;
            int64_t offset = other * tile + on_side % strips * FW_STRIP;
            if (item < per_side) { /* columns of row tile (round, other): A is the diagonal */
                fw_local strip = local_at(v, mine, tile, FW_STRIP);
                local_copy(v, &strip, base, offset, tile, FW_STRIP, 0);
                local_inorder(v, &strip, &diag, &strip, tile, FW_STRIP);
                local_copy(v, &strip, base, offset, tile, FW_STRIP, 1);
            } else { /* rows of column tile (other, round): B is the diagonal */
                fw_local strip = local_at(v, mine, FW_STRIP, tile);
                local_copy(v, &strip, offset, base, FW_STRIP, tile, 0);
                local_inorder(v, &strip, &strip, &diag, FW_STRIP, tile);
                local_copy(v, &strip, offset, base, FW_STRIP, tile, 1);
            }
        }
    }
    return PF_OK;
}

/* dst[k * rows + i] = src[i * ld + k]: `rows` rows of `depth` elements into
 * one k-major panel. Inlined with a constant size, so each copy is a move. */
static inline __attribute__((always_inline)) void pack_rows_sized(unsigned char *dst,
                                                                  const unsigned char *src,
                                                                  int64_t ld, int32_t rows,
                                                                  int32_t depth, size_t size)
{
    for (int32_t i = 0; i < rows; i++)
        for (int32_t k = 0; k < depth; k++)
            memcpy(dst + ((int64_t)k * rows + i) * size, src + ((int64_t)i * ld + k) * size, size);
}

static void pack_rows(void *dst, const void *src, int64_t ld, int32_t rows, int32_t depth,
                      size_t size)
{
    if (size == 8)
        pack_rows_sized(dst, src, ld, rows, depth, 8);
    else
        pack_rows_sized(dst, src, ld, rows, depth, 4);
}

/* Phase 2 equals a min-plus product with its own tiles as they were
 * (row tile = min(C, D (x) C), column tile = min(C, C (x) D)) once phase 1
 * has closed the diagonal tile D, i.e. every d(k,k) >= 0: any chain of
 * in-order updates through D is no shorter than its one-hop shortcut.
 * Only exact arithmetic gives the same bits (float sums round per chain)
 * and only without next hops the same tie-breaking, hence integers alone. */
static int product_phase2(const fw_view *v)
{
    if (v->next || v->kind == PF_DIST_F32)
        return 0;
    for (int64_t k = v->base; k < v->base + v->tile; k++) {
        const void *dkk = dist_at(v, k, k);
        if (v->esize == 8 ? *(const int64_t *)dkk < 0 : *(const int32_t *)dkk < 0)
            return 0;
    }
    return 1;
}

/* Work items of a min-plus phase: a tile's rows times `chunk` columns.
 * Phase 3 walks the (tiles-1)^2 tiles off the round's row and column;
 * phase 2 the round's row of tiles, then its column. */
static int64_t product_items(const fw_view *v, int32_t phase, int32_t chunk)
{
    int64_t others = v->n / v->tile - 1, chunks = v->tile / chunk;
    return phase == 3 ? others * others * chunks : 2 * others * chunks;
}

static void product_item(const fw_view *v, int32_t phase, int32_t chunk, int64_t item,
                         int64_t *row, int64_t *col)
{
    int64_t others = v->n / v->tile - 1, chunks = v->tile / chunk;
    int64_t row_chunks = others * chunks; /* chunks of a row of tiles, the round's left out */
    int64_t tile_row, off_round_col;
    if (phase == 2 && item < row_chunks) {
        *row = v->base;
        off_round_col = item;
    } else {
        if (phase == 2) { /* column tile: its chunks all lie in the round's column */
            item -= row_chunks;
            tile_row = item / chunks;
            *col = v->base + item % chunks * chunk;
        } else {
            tile_row = item / row_chunks;
            off_round_col = item % row_chunks;
        }
        tile_row += tile_row >= v->round;
        *row = tile_row * v->tile;
        if (phase == 2)
            return;
    }
    *col = off_round_col * chunk;
    *col += *col >= v->base ? v->tile : 0;
}

static int fw_product(pf_dev *dev, const fw_view *v, int32_t phase, pf_status *st)
{
    const omp_fw_kernels *kern = v->kern;
    int32_t tile = v->tile;
    int64_t n = v->n, base = v->base;
    if (n == tile)
        return PF_OK;
    int32_t panel_rows = v->next ? kern->panel_rows_paths : kern->panel_rows;
    int32_t panel_cols = kern->panel_cols;
    /* A: the round's column of tiles (n x tile), B: its row (tile x n). */
    size_t strip_bytes = (size_t)n * tile * v->esize, hops_bytes = (size_t)n * tile * 4;
    int rc = ensure_packed(dev, 2 * strip_bytes + (v->next ? hops_bytes : 0), st);
    if (rc)
        return rc;
    unsigned char *a_packed = dev->fw_packed, *b_packed = a_packed + strip_bytes;
    int32_t *hops_packed = (int32_t *)(void *)(b_packed + strip_bytes);

    /* Whole tiles unless that leaves fewer than 4 items a thread. */
    int32_t chunk = tile;
    while (chunk / 2 >= panel_cols && chunk / 2 % panel_cols == 0 &&
           product_items(v, phase, chunk) < 4 * v->threads)
        chunk /= 2;
    int64_t items = product_items(v, phase, chunk);
#pragma omp parallel num_threads(v->threads)
    {
#pragma omp for schedule(static)
        for (int64_t panel = 0; panel < n / panel_rows; panel++) {
            int64_t offset = panel * panel_rows * tile;
            pack_rows(a_packed + offset * (int64_t)v->esize, dist_at(v, panel * panel_rows, base),
                      n, panel_rows, tile, v->esize);
            if (v->next)
                pack_rows(hops_packed + offset, next_at(v, panel * panel_rows, base), n,
                          panel_rows, tile, 4);
        }
#pragma omp for schedule(static)
        for (int64_t panel = 0; panel < n / panel_cols; panel++)
            for (int32_t k = 0; k < tile; k++)
                memcpy(b_packed + (panel * tile + k) * panel_cols * (int64_t)v->esize,
                       dist_at(v, base + k, panel * panel_cols), panel_cols * v->esize);
        /* Dynamic: a core that other work slows down takes fewer items;
         * consecutive items share a row of tiles, so its packed A. */
#pragma omp for schedule(dynamic, 1)
        for (int64_t item = 0; item < items; item++) {
            int64_t row, col;
            product_item(v, phase, chunk, item, &row, &col);
            const void *a = a_packed + row * tile * (int64_t)v->esize;
            const void *b = b_packed + col * tile * (int64_t)v->esize;
            kern->block(dist_at(v, row, col), next_at(v, row, col), n, a,
                        v->next ? hops_packed + row * tile : NULL, b, tile, chunk, tile);
        }
    }
    return PF_OK;
}

int ompb_fw_phase(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                  pf_status *st)
{
    const omp_fw_kernels *kern = omp_fw_kernels_for(a->kind, omp_fw_best_isa());
    if (!kern)
        return pf_fail(st, PF_E_USAGE, "omp: fw_phase: unknown distance kind %d", a->kind);
    if (a->tile < FW_TILE_QUANTUM || a->tile % FW_TILE_QUANTUM || a->n <= 0 || a->n % a->tile)
        return pf_fail(st, PF_E_USAGE,
                       "omp: fw_phase: tile %d on n = %d: this backend runs any tile that is a "
                       "multiple of 16 and divides n (16, 32, 48, ...)",
                       a->tile, a->n);
    if (round < 0 || round >= a->n / a->tile || phase < 1 || phase > 3)
        return pf_fail(st, PF_E_USAGE, "omp: fw_phase: no round %d phase %d with %d tiles a side",
                       round, phase, a->n / a->tile);
    size_t esize = a->kind == PF_DIST_I64 ? 8 : 4, cells = (size_t)a->n * (size_t)a->n;
    if (!a->dist || a->dist->bytes < cells * esize || (a->next && a->next->bytes < cells * 4))
        return pf_fail(st, PF_E_DEVICE, "omp: fw_phase: buffers too small for n = %d", a->n);
    fw_view v = {
        .kern = kern,
        .dist = a->dist->data,
        .next = a->next ? BUF(a->next, int32_t) : NULL,
        .n = a->n,
        .kind = a->kind,
        .tile = a->tile,
        .round = round,
        .base = (int64_t)round * a->tile,
        .esize = esize,
        .threads = dev->threads,
    };
    switch (phase) {
    case 1:
        return fw_phase1(dev, &v, st);
    case 2:
        return product_phase2(&v) ? fw_product(dev, &v, 2, st) : fw_phase2(dev, &v, st);
    default:
        return fw_product(dev, &v, 3, st);
    }
}
