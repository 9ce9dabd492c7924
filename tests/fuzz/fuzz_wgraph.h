/* Checks shared by the targets that read weighted digraphs (APSP input). */
#ifndef PF_FUZZ_WGRAPH_H
#define PF_FUZZ_WGRAPH_H

#include <stddef.h>
#include <stdint.h>

/* Reads path with pf_wgraph_read. A failure must be PF_E_INPUT or
 * PF_E_NOMEM; a graph must have its arcs' ends among its vertices and
 * survive a DIMACS sp write-and-read round trip (same arcs, weights and
 * integer/real kind). */
void fuzz_read_wgraph(const char *path);

/* The format pf_wgraph_read picks for this text: 'm' Matrix Market, 'a'
 * adjacency matrix, 'd' DIMACS sp. */
char fuzz_wgraph_format(const uint8_t *data, size_t size);

#endif
