/* Private to the OpenMP backend: its buffer and device structs, shared by
 * omp_backend.c (the max-flow steps and buffers) and omp_apsp.c (the
 * Floyd-Warshall steps). */
#ifndef PF_OMP_INTERNAL_H
#define PF_OMP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../common/knobs.h"
#include "../device.h"
#include "../shared/pf_host_device.h" /* struct pf_buf: host memory */

/* Per-thread frontier pieces for the BFS levels (omp_bfs.c), kept across
 * calls. */
typedef struct omp_frontier_piece {
    int32_t *vertices;
    int64_t count, capacity;
} omp_frontier_piece;

/* Appends v to a piece, growing it by doubling from first_capacity; -1
 * when the host is out of memory (the piece is left as it was). */
static inline int omp_piece_push(omp_frontier_piece *piece, int32_t v, int64_t first_capacity)
{
    if (piece->count == piece->capacity) {
        int64_t cap = piece->capacity ? piece->capacity * 2 : first_capacity;
        int32_t *grown = realloc(piece->vertices, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        piece->vertices = grown;
        piece->capacity = cap;
    }
    piece->vertices[piece->count++] = v;
    return 0;
}

typedef struct omp_worker omp_worker;   /* omp_discharge.c */
typedef struct omp_message omp_message; /* omp_discharge.c */

struct pf_dev {
    int threads;
    /* The asynchronous discharge's per-thread heaps, for a
     * graph of workers_n vertices in blocks of 2^workers_shift. */
    omp_worker *workers;
    int64_t workers_n;
    int workers_shift;
    /* Its message rings between threads (threads x threads, of ring_mask
     * + 1 slots each): rows of ring_row indices, and the slots where the
     * list buffer cannot hold them (NULL: it can). */
    int64_t *ring_indices;
    omp_message *ring_slots;
    int64_t ring_mask;
    int ring_row;
    omp_frontier_piece *pieces;  /* 2 x threads entries: two levels' worth */
    int64_t *bfs_offsets;        /* threads rows of threads + 1 entries */
    int64_t *chunk_sums;         /* threads + 1 entries, for scan/filter */
    /* Floyd-Warshall: the round's row and column of tiles copied into the
     * register-blocked kernel's panel order (omp_apsp.c); kept across
     * phases and rounds, grown on demand, freed on close. */
    void *fw_packed;
    size_t fw_packed_bytes;
};

#define BUF(b, type) ((type *)(void *)(b)->data)

int32_t ompb_fw_tile(pf_dev *dev, int32_t kind, int paths);
int ompb_fw_phase(pf_dev *dev, const pf_dev_apsp *a, int32_t round, int32_t phase,
                  pf_status *st);
void ompb_fw_release(pf_dev *dev);
/* omp_fw_step.c: the unblocked variants (device.h fw_step, fw_simd). */
int ompb_fw_step(pf_dev *dev, const pf_dev_apsp *a, int32_t variant, int32_t k, pf_status *st);
int32_t ompb_fw_simd(pf_dev *dev, int32_t kind, int32_t width, char *what, size_t len);
/* push_relabel with g->work_budget > 0 (omp_discharge.c). *ran = 0 when
 * OpenMP gave fewer threads than asked: the caller runs rounds instead. */
int ompb_discharge(pf_dev *dev, const pf_dev_graph *g, int64_t budget, int64_t *work, int *ran,
                   pf_status *st);
void ompb_discharge_release(pf_dev *dev);
int ompb_bfs_levels(pf_dev *dev, const pf_dev_graph *g, pf_buf *const frontier[2], int32_t level,
                    int32_t levels, int32_t hops, int32_t excluded, int64_t *count,
                    pf_status *st);
uint64_t ompb_discharge_bytes(pf_dev *dev);

#endif
