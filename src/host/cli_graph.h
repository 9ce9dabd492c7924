/* Shared by cli_graph.c (the bfs, sssp and tc commands) and
 * cli_graph_out.c (their text and JSON output). */
#ifndef PF_CLI_GRAPH_H
#define PF_CLI_GRAPH_H

#include <stdio.h>

#include "cli_opts.h"
#include "graph.h"

typedef struct graph_args {
    const pf_cmd_spec *spec;
    pf_graph_options opt;
    pf_csr_read_options read;
    const char *source_text, *delta_text;
    int stats, verify, json, progress;
    const char *path, *out_path;
} graph_args;

/* One command's answer, as the writers print it. */
typedef struct graph_run {
    const graph_args *a;
    const pf_csr *g;
    int32_t source;   /* 0-based */
    double total_s;   /* the whole command so far: reading, solving, verifying */
    const void *res;  /* pf_bfs_result, pf_sssp_result or pf_tc_result */
    int verified;
} graph_run;

/* Writers (ctx: a graph_run). */
void write_bfs_text(FILE *out, const void *ctx);
void write_bfs_json(FILE *out, const void *ctx);
void write_sssp_text(FILE *out, const void *ctx);
void write_sssp_json(FILE *out, const void *ctx);
void write_tc_text(FILE *out, const void *ctx);
void write_tc_json(FILE *out, const void *ctx);

#endif
