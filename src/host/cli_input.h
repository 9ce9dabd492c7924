/* The input options that solve, check and compare share: --source and
 * --sink (repeatable: several terminals), --zero-based (edge-list ids),
 * the network read with them, and amounts (value, flows) printed in the
 * input's units with the `c scale` line of real-capacity networks (also
 * the value lines solve and session both print). */
#ifndef PF_CLI_INPUT_H
#define PF_CLI_INPUT_H

#include <stdint.h>
#include <stdio.h>

#include "cli_opts.h"
#include "portaflow.h"

/* Option ids (a command's own range, kept clear of its other options). */
enum { PF_CLI_OPT_SOURCE = 900, PF_CLI_OPT_SINK, PF_CLI_OPT_ZERO_BASED };

/* Entries for a command's option table. */
#define PF_CLI_INPUT_OPTIONS                                                                   \
    {.id = PF_CLI_OPT_SOURCE, .name = "source", .arg = "ID",                                   \
     .help = "a source vertex (repeat for several); replaces the file's own"},                 \
    {.id = PF_CLI_OPT_SINK, .name = "sink", .arg = "ID",                                       \
     .help = "a sink vertex (repeat for several); replaces the file's own"},                   \
    {.id = PF_CLI_OPT_ZERO_BASED, .name = "zero-based",                                        \
     .help = "edge lists, --source, --sink: vertex ids start at 0 (default 1)"}

typedef struct pf_cli_input {
    int64_t *ids[2];    /* as written: sources, sinks */
    int64_t count[2];
    int zero_based;
} pf_cli_input;

/* Handles id if it is one of the input options: 0 or an exit status;
 * PF_OPTS_GO_ON if id is not one of them. */
int pf_cli_input_option(const pf_cmd_spec *spec, pf_cli_input *in, int id, const char *arg);
/* Reads the network at path with the options; NULL with st set. */
pf_network *pf_cli_read_network(const pf_cli_input *in, const char *path, pf_status *st);
void pf_cli_input_free(pf_cli_input *in);

/* An amount in input units (the integer itself for integer networks). */
void pf_cli_print_amount(FILE *out, const pf_network *net, int64_t amount);
/* "c scale 2^-K error E" for a network with real capacities; nothing
 * otherwise. With json: ',"scale_log2":-K,"scale_error":E' instead. */
void pf_cli_print_scale(FILE *out, const pf_network *net, int json);

/* A solution in JSON, after the caller's "value": key: the value, its
 * scale, then the "backend" and "device" members. */
void pf_cli_json_solved(FILE *out, const pf_network *net, const pf_solution *sol);
/* A solution's DIMACS value lines: "c verify ok ..." where it was
 * verified, the scale line, then "s VALUE". */
void pf_cli_print_value(FILE *out, const pf_network *net, const pf_solution *sol, int verified);

#endif
