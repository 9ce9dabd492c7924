/* The update stream of `portaflow session` (updates.c; README: "Update streams"):
 * text read one batch at a time, each batch the changes up to a `solve`
 * line, and its writer for `portaflow gen updates` (gen_updates.c).
 *
 *   c ...        comment (blank lines too)
 *   cap I C      arc I (from 1, input order) gets capacity C
 *   add U V C    a new arc U -> V of capacity C (takes the next arc number)
 *   del I        arc I is deleted (its number is never reused)
 *   addv K       K new vertices (the next ids)
 *   source S     S becomes the only source
 *   sink T       T becomes the only sink
 *   solve        ends the batch
 *   bfs S        ends the batch too, asking for a BFS from S instead of a solve
 *   sssp S       the same for shortest paths (the capacities as lengths)
 *
 * Vertex ids count from 1, or from 0 for a graph read 0-based (a 0-based
 * edge list): the graph's own numbering. Capacities are non-negative
 * integers or, for networks with real capacities, decimals. */
#ifndef PF_UPDATES_H
#define PF_UPDATES_H

#include <stdint.h>
#include <stdio.h>

#include "portaflow.h"

typedef struct pf_update_reader pf_update_reader;

/* What the line that ends a batch asks for. */
enum pf_batch_end { PF_BATCH_SOLVE = 0, PF_BATCH_BFS = 1, PF_BATCH_SSSP = 2 };

typedef struct pf_update_batch {
    pf_update *items;     /* 0-based ids (converted from the text) */
    int64_t *lines;       /* each item's line number */
    int64_t count;
    int64_t solve_line;   /* the line that ended it (solve, bfs, sssp); 0 when
                             the input ended first */
    int end;              /* enum pf_batch_end (the end of input: a solve) */
    int64_t search_source; /* bfs, sssp: the source, 0-based */
    int64_t alloc;
} pf_update_batch;

/* Opens `path` ("-" = standard input) for reading; `zero_based` = 1 when
 * vertex ids count from 0. The name in messages is the path, or <stdin>. */
int pf_update_reader_open(const char *path, int zero_based, pf_update_reader **r,
                          pf_status *st);
/* The same on a stream the caller opened (a pipe, a file, a test's
 * FILE*), named `name` in messages; close does not close fp. */
int pf_update_reader_open_stream(FILE *fp, const char *name, int zero_based,
                                 pf_update_reader **r, pf_status *st);
/* Reads the next batch into b (reusing its arrays): 1 when a batch was
 * read (ended by `solve`, `bfs` or `sssp`, or by the end of input with
 * changes in it; such a line alone is a batch of no changes), 0 at the end of input with
 * nothing left, PF_E_INPUT as "FILE:LINE: what is wrong" on a malformed
 * line (syntax and range only: whether arc 17 exists is the session's to
 * check, pf_update_reader_where names its line), PF_E_NOMEM. After a
 * failure b holds no changes, and every later call fails the same way.
 * Reads no further than the `solve` that ends the batch; gzip input
 * (recognised by its magic bytes) is read whole at open and inflated. */
int pf_update_reader_next(pf_update_reader *r, pf_update_batch *b, pf_status *st);
/* "FILE:LINE" of item k of the last batch, for the session's messages. */
const char *pf_update_reader_where(pf_update_reader *r, const pf_update_batch *b, int64_t k,
                                   char *buf, size_t len);
void pf_update_reader_close(pf_update_reader *r);
void pf_update_batch_free(pf_update_batch *b);

/* `portaflow gen updates`: a reproducible stream of `batches` batches for
 * net, each changing fraction * (live arcs) arcs (at least 1) with the
 * kinds in `mix` (bit 1 << PF_UPDATE_CAP etc.), drawn from `seed`;
 * written to out with vertex ids from `base`. The stream keeps its own
 * account of added and deleted arcs, so every line is valid when applied
 * in order. */
typedef struct pf_update_gen_params {
    double fraction;
    int64_t batches;
    unsigned mix;
    uint64_t seed;
    int base;
} pf_update_gen_params;
int pf_update_gen_write(const pf_network *net, const pf_update_gen_params *p, FILE *out,
                        pf_status *st);

#endif
