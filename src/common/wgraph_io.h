/* Writers of weighted digraphs beyond the public API (the readers are
 * pf_wgraph_read in portaflow.h). */
#ifndef PF_WGRAPH_IO_H
#define PF_WGRAPH_IO_H

#include <stdio.h>

#include "portaflow.h"

/* DIMACS shortest-path text to an open stream: "c COMMENT" lines (one per
 * line of comment; NULL = none), "p sp N M", then "a U V W" per arc in
 * input order with 1-based ids. Integer weights are written exactly, reals
 * with 17 significant digits, so pf_wgraph_read gives back the same arcs,
 * weights and integer/real kind. Flushes the stream; a failed write is
 * PF_E_INPUT with the system's reason. */
int pf_wgraph_write_dimacs(const pf_wgraph *g, FILE *out, const char *comment, pf_status *st);

#endif
