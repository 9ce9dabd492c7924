/* A long list judged in chunks on the host's threads (chunks.c), each
 * chunk from the two counts (ids and vertices, say) that the items before
 * it add: for checks whose every step waits on memory and whose items
 * depend on the ones before them only through such counts. A fault found
 * this way sends the caller to its one-thread check, which finds the
 * first one and words it. */
#ifndef PF_CHUNKS_H
#define PF_CHUNKS_H

#include <stdint.h>

typedef struct pf_chunk_judge {
    const void *ctx;
    int64_t count;     /* items */
    int64_t start[2];  /* the counts before item 0 */
    int64_t most[2];   /* a count summed past its most is held at most + 1 */
    int64_t total;     /* a sum that must stay within int64 (items add to it) */
    /* what item k adds to the counts */
    void (*adds)(const void *ctx, int64_t k, int64_t counts[2]);
    /* 0 when item k is fine after counts, with what it adds to total */
    int (*fault)(const void *ctx, int64_t k, const int64_t counts[2], int64_t *more);
} pf_chunk_judge;

/* Items per chunk; lists from a few chunks on are worth the threads. */
enum { PF_CHUNK = 2048, PF_CHUNKS_MIN = 4 * PF_CHUNK };

/* 1 when no item is at fault and the total stays within int64; 0
 * otherwise, and without memory for the chunks' table. */
int pf_chunks_fine(const pf_chunk_judge *j, int threads);

#endif
