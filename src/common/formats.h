/* The max-flow readers' shared parts: one parser per format (dimacs.c,
 * edgelist.c, mf_mtx.c), the n lines' terminal lists, real capacities with
 * FILE:LINE messages, and the finishing step every reader ends with
 * (read_shared.c; read_network.c chooses the parser). */
#ifndef PF_FORMATS_H
#define PF_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "io.h"
#include "network.h"
#include "scan.h"

/* Parsers of NUL-terminated text; NULL with st set on error. */
pf_network *pf_parse_dimacs(const char *text, size_t len, const char *name, pf_status *st);
/* pf_parse_dimacs with its arc lines cut into `threads` chunks read on as
 * many threads (0: OpenMP's thread count; without OpenMP the chunks are
 * read one after another) where the text has at least min_bytes: the same
 * network, or the same error, as on one. pf_parse_dimacs passes 0 and
 * PF_DIMACS_PARALLEL_MIN_BYTES: below that, a team's start costs more than
 * it saves. */
pf_network *pf_parse_dimacs_threads(const char *text, size_t len, const char *name, int threads,
                                    size_t min_bytes, pf_status *st);
#define PF_DIMACS_PARALLEL_MIN_BYTES ((size_t)16 << 20)
pf_network *pf_parse_matrix(const char *text, const char *name, pf_status *st);
/* "%%MatrixMarket matrix coordinate ..." as a network: entry (I, J, W) is
 * the arc I -> J of capacity W (pattern: 1; symmetric: J -> I too). The
 * terminals are left to the caller (source 0, sink 1 until then). */
pf_network *pf_parse_mm_network(const char *text, size_t len, const char *name, pf_status *st);

/* Edge list: "U V CAP" lines, '#' and '%' comment lines; ids from 1, or
 * from 0 with zero_based. The vertex count is the largest id seen (plus one
 * when 0-based), at least `min_vertices`; no terminals (source 0, sink 1
 * until the caller sets them). */
pf_network *pf_parse_edgelist(const char *text, const char *name, int zero_based,
                              int64_t min_vertices, pf_status *st);

/* The terminals a file names, each with the line that named it. */
typedef struct pf_terminal_list {
    int64_t *ids;    /* 0-based */
    int64_t *lines;
    int64_t count, alloc;
} pf_terminal_list;

int pf_terminal_list_add(pf_terminal_list *list, int64_t id, int64_t line, pf_status *st);
void pf_terminal_list_free(pf_terminal_list *list);
/* Makes lists[0] the sources and lists[1] the sinks of net; a vertex in
 * both is "FILE:LINE: vertex V is already the sink (line L); ..." on the
 * later of its two lines. */
int pf_terminal_lists_apply(pf_terminal_list lists[2], pf_network *net, const line_ctx *lc);

/* Arc i's capacity is the real written at field (len chars): records it,
 * or fails with "FILE:LINE: capacity 'TEXT' is negative" and the like. */
int pf_read_real_cap(const line_ctx *lc, pf_network *net, int64_t i, const char *field, int len);

/* Every reader's last step: the options' terminals replace the file's
 * (NULL options: none), then the real capacities' scale is chosen. Frees
 * net and returns NULL on failure; passes a NULL net through. */
pf_network *pf_read_finish(pf_network *net, const pf_read_options *opt, const char *name,
                           pf_status *st);

#endif
