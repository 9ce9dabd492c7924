/* The digraph of the analytics commands (bfs, sssp, tc): compressed sparse
 * rows, each vertex's arcs sorted by head (ties in input order), so every
 * engine sees the same arc order and a "smallest id" rule is cheap.
 *
 * Built from the weighted readers (DIMACS `p sp`, Matrix Market, the
 * adjacency-matrix text, wgraph_read.c), from plain edge lists as SNAP
 * ships them (graph_read.c), or loaded from portaflow's binary form
 * (graph_bin.c), which skips parsing for large benchmark graphs.
 *
 * Weights: none (every arc weighs 1), int64 or double, as the input had
 * them. Vertex ids are 0-based inside; `base` is what the user's ids
 * start at (1, or 0 for --zero-based edge lists) for printing them back. */
#ifndef PF_GRAPH_CSR_H
#define PF_GRAPH_CSR_H

#include <stdint.h>
#include <stdio.h>

#include "portaflow.h"

enum pf_csr_weights { PF_CSR_W_NONE = 0, PF_CSR_W_I64 = 1, PF_CSR_W_F64 = 2 };

typedef struct pf_csr {
    int64_t n, m;
    int64_t *first;      /* n + 1 */
    int32_t *head;       /* m */
    int64_t *int_weight; /* m with PF_CSR_W_I64, else NULL */
    double *real_weight; /* m with PF_CSR_W_F64, else NULL */
    int32_t weights;     /* enum pf_csr_weights */
    int32_t undirected;  /* every arc (u,v) has its (v,u) (informational) */
} pf_csr;

/* How the commands read a graph (their shared input options). */
typedef struct pf_csr_read_options {
    int zero_based; /* edge lists: ids start at 0 (default 1) */
    int undirected; /* each input arc also gives its reverse (self-loops once) */
    int no_weights; /* the caller ignores weights (bfs, tc): the binary form's
                       are not read */
} pf_csr_read_options;

/* Reads path ("-": stdin) by content: portaflow's binary form (its magic
 * bytes), Matrix Market, edge list (first line a '#'/'%' comment, or two
 * or three numbers), adjacency-matrix text (a lone N), else DIMACS `p sp`.
 * The binary form is read from regular files only (not stdin).
 * Errors: PF_E_INPUT "FILE:LINE: what is wrong"; NULL. */
pf_csr *pf_csr_read(const char *path, const pf_csr_read_options *opt, pf_status *st);

/* The CSR of g's arcs (and their reverses when undirected), rows sorted by
 * head. g is left as it was. */
pf_csr *pf_csr_from_wgraph(const pf_wgraph *g, int undirected, pf_status *st);

/* The CSR of `m` arcs given as arrays (weights NULL: none). Rows sorted by
 * head; the arrays are not kept. */
pf_csr *pf_csr_from_arcs(int64_t n, int64_t m, const int32_t *tail, const int32_t *head,
                         const int64_t *int_weight, const double *real_weight, int undirected,
                         pf_status *st);

/* Drops self-loops and repeated arcs (u,v), keeping the lightest. */
int pf_csr_simplify(pf_csr *g, pf_status *st);

/* The reverse graph (arc (u,v) becomes (v,u)), rows sorted by head. */
pf_csr *pf_csr_transpose(const pf_csr *g, pf_status *st);

void pf_csr_free(pf_csr *g);

/* Arc a's weight as a double / as an integer (1 without weights). */
static inline double pf_csr_weight_f(const pf_csr *g, int64_t a)
{
    return g->real_weight ? g->real_weight[a] : g->int_weight ? (double)g->int_weight[a] : 1.0;
}
static inline int64_t pf_csr_weight_i(const pf_csr *g, int64_t a)
{
    return g->int_weight ? g->int_weight[a] : 1;
}
/* Whether some weight is negative. */
int pf_csr_has_negative(const pf_csr *g);
/* The largest out-degree (0 without vertices). */
int64_t pf_csr_max_degree(const pf_csr *g);

/* Binary form (graph_bin.c): "PFCSR001" then little-endian int64 n, m,
 * int32 weights, int32 undirected, first[n+1] (int64), head[m] (int32),
 * weights[m] (int64 or double). Write: PF_E_OUTPUT on a failed write. */
int pf_csr_write_bin(const pf_csr *g, FILE *out, pf_status *st);
/* Whether data starts with the binary form's magic. */
int pf_csr_is_bin(const char *data, size_t len);
/* The binary form from in (positioned at its start), file_bytes long;
 * name for messages. Not from pipes: pf_csr_read takes it from files. */
pf_csr *pf_csr_read_bin(FILE *in, const char *name, uint64_t file_bytes, int no_weights,
                        pf_status *st);

/* Text writers: edge list "U V [W]" (0-based, as GAPBS's .el/.wel read
 * it; with undirected only arcs u <= v, once) and DIMACS `p sp`
 * (1-based; unweighted arcs weigh 1). */
int pf_csr_write_el(const pf_csr *g, FILE *out, const char *comment, pf_status *st);
int pf_csr_write_dimacs(const pf_csr *g, FILE *out, const char *comment, pf_status *st);

#endif
