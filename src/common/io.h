/* Readers and writers beyond the public ones in portaflow.h. */
#ifndef PF_IO_H
#define PF_IO_H

#include <stdint.h>
#include <stdio.h>

#include "network.h"
#include "status.h"

/* A solution as `portaflow solve --flow --cut` prints it: `c` comments,
 * one `s VALUE`, `f U V FLOW` lines (input order, 1-based ids), `n ID`
 * lines for the source side of the cut. Any subset of f/n lines may be
 * absent (has_flow / has_cut say which were present). For a network with
 * real capacities, VALUE and FLOW are in its input units and are returned
 * in its fixed point (pf_network_scale). */
typedef struct pf_solution_file {
    int64_t value;
    int has_flow;
    int64_t *arc_flow;      /* net->m entries, matched to input arcs in order */
    int has_cut;
    uint8_t *source_side;   /* net->n entries */
} pf_solution_file;

/* Reads SOLUTION against NET: f lines must name the input arcs in input
 * order (U V must match arc i's endpoints). Errors are FILE:LINE. */
int pf_solution_read(const char *path, const pf_network *net,
                     pf_solution_file *sol, pf_status *st);
void pf_solution_file_free(pf_solution_file *sol);

/* Fast writer for the DIMACS form of a network to an open stream. */
int pf_network_write_dimacs_stream(const pf_network *net, FILE *out,
                                   const char *comment, pf_status *st);

/* Input loading shared by the readers (io.c): the whole input as one
 * NUL-terminated buffer of len bytes before the NUL (regular files mapped,
 * pipes and stdin read); name is the path or "<stdin>" for messages. */
typedef struct pf_io_input {
    char *text;
    size_t len;
    const char *name;
    int mapped; /* how the text is released */
} pf_io_input;

/* Fills *in: its text, or NULL with st set. Release with pf_io_unload. */
char *pf_io_load(const char *path, pf_io_input *in, pf_status *st);
/* The rest of stream `in` after the have_len bytes `have` already read from
 * it, as one malloc'ed buffer that starts with them and ends with a NUL
 * (*len excludes it); NULL and a message naming `name` on failure. */
char *pf_io_read_stream(FILE *in, const char *have, size_t have_len, const char *name,
                        size_t *len, pf_status *st);
void pf_io_unload(pf_io_input *in);
/* gzip input (gz_input.c): does data start with the gzip magic bytes?
 * The whole of data inflated, with a NUL after it (malloc'ed); without
 * zlib, or on corrupt data, NULL and a message. pf_io_load calls both. */
int pf_gz_is_compressed(const char *data, size_t len);
char *pf_gz_inflate(const char *data, size_t len, const char *name, size_t *out_len,
                    pf_status *st);

/* The vertex count a DIMACS file's p line declares, read from the file's
 * first bytes before the whole file is; -1 where there is none to read
 * (standard input "-", a compressed file, another format, no p line in
 * the first 4 KB). */
int64_t pf_io_peek_dimacs_vertices(const char *path);

/* io.c: fails with "NAME:LINE: message" (PF_E_INPUT). */
int pf_io_fail(pf_status *st, const char *name, int64_t line,
               const char *fmt, ...) PF_PRINTF(4, 5);

#endif
