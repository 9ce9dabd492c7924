/* A long list judged in chunks on the host's threads (chunks.h). */
#include "chunks.h"

#include <stdlib.h>

#include "omp_threads.h"

/* counts[i] + more[i], held at most[i] + 1 past most[i]. */
static void add_counts(int64_t counts[2], const int64_t more[2], const int64_t most[2])
{
    for (int i = 0; i < 2; i++) {
        int64_t sum;
        counts[i] = __builtin_add_overflow(counts[i], more[i], &sum) || sum > most[i]
                        ? most[i] + 1
                        : sum;
    }
}

int pf_chunks_fine(const pf_chunk_judge *j, int threads)
{
    const int64_t chunks = (j->count + PF_CHUNK - 1) / PF_CHUNK;
    /* per chunk: the counts before it, then what its items add to total */
    int64_t *at = malloc((size_t)(chunks > 0 ? chunks : 1) * 3 * sizeof *at);
    if (!at)
        return 0;
    PF_OMP(omp parallel for schedule(static) num_threads(threads) if (threads > 1))
    for (int64_t c = 0; c < chunks; c++) {
        int64_t counts[2] = {0, 0};
        const int64_t end = (c + 1) * PF_CHUNK < j->count ? (c + 1) * PF_CHUNK : j->count;
        for (int64_t k = c * PF_CHUNK; k < end; k++)
            j->adds(j->ctx, k, counts);
        at[3 * c] = counts[0];
        at[3 * c + 1] = counts[1];
    }
    int64_t running[2] = {j->start[0], j->start[1]};
    for (int64_t c = 0; c < chunks; c++) {
        const int64_t more[2] = {at[3 * c], at[3 * c + 1]};
        at[3 * c] = running[0];
        at[3 * c + 1] = running[1];
        add_counts(running, more, j->most);
    }
    int fine = 1;
    PF_OMP(omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
           reduction(&& : fine))
    for (int64_t c = 0; c < chunks; c++) {
        int64_t counts[2] = {at[3 * c], at[3 * c + 1]}, sum = 0;
        const int64_t end = (c + 1) * PF_CHUNK < j->count ? (c + 1) * PF_CHUNK : j->count;
        for (int64_t k = c * PF_CHUNK; k < end && fine; k++) {
            int64_t more = 0, step[2] = {0, 0};
            fine = !j->fault(j->ctx, k, counts, &more) && !__builtin_add_overflow(sum, more, &sum);
            j->adds(j->ctx, k, step);
            add_counts(counts, step, j->most);
        }
        at[3 * c + 2] = sum;
    }
    for (int64_t c = 0, total = j->total; fine && c < chunks; c++)
        fine = !__builtin_add_overflow(total, at[3 * c + 2], &total);
    free(at);
    return fine;
}
