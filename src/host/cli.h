/* The portaflow command line: one function per subcommand. Each returns
 * the process exit status: 0 ok, 1 usage, 2 bad input, 3 backend/device
 * failure, 4 output error (writing stdout or an output file failed). */
#ifndef PF_CLI_H
#define PF_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "portaflow.h"

enum { PF_EXIT_OK = 0, PF_EXIT_USAGE = 1, PF_EXIT_INPUT = 2, PF_EXIT_DEVICE = 3, PF_EXIT_OUTPUT = 4 };

int pf_cli_solve(int argc, char **argv);
int pf_cli_compare(int argc, char **argv);
int pf_cli_demo(int argc, char **argv);
int pf_cli_check(int argc, char **argv);
int pf_cli_gen(int argc, char **argv);
int pf_cli_backends(int argc, char **argv);
int pf_cli_apsp(int argc, char **argv);
int pf_cli_path(int argc, char **argv);
int pf_cli_bfs(int argc, char **argv);  /* cli_graph.c */
int pf_cli_sssp(int argc, char **argv);
int pf_cli_tc(int argc, char **argv);
int pf_cli_session(int argc, char **argv); /* cli_session.c */
/* cli_apsp.c: "portaflow: NAME: negative cycle of ... arcs, weight W: 1 -> 3 -> 1"
 * on stderr, for apsp and path alike (res->cycle as pf_apsp left it). */
void pf_cli_report_cycle(const pf_wgraph *g, const pf_apsp_result *res, const char *name);

/* Maps a pf_code to the exit status contract. */
int pf_cli_exit_code(int code);
/* Prints "portaflow: MESSAGE" on stderr and returns the exit status. */
int pf_cli_error(const pf_status *st);
int pf_cli_usage_error(const char *fmt, ...);
/* `s` as a JSON string: quoted, with ", \\ and control bytes escaped. */
void pf_cli_json_string(FILE *out, const char *s);
/* The library's log callback for every command (pf_log_fn): writes
 * "portaflow: MESSAGE" on stderr. */
void pf_cli_log(void *data, int level, const char *message);
/* --hybrid's value (auto, on, off) as enum pf_hybrid_mode; -1 if not one. */
int pf_cli_hybrid_mode(const char *text, int *mode);
/* Solves need not wait for a device opening in the background; main then
 * ends with pf_cli_exit_now_if_detached (cli_hybrid.c). */
void pf_cli_detach_background(void);
void pf_cli_exit_now_if_detached(int status);
/* cli_knobs.c: each refused tuning variable as "portaflow: warning: ..."
 * on stderr (main calls it once); `backends --knobs` (PF_CLI_KNOBS_LIST,
 * as JSON with --json) and `--knobs-doc` (docs/KNOBS.md). */
enum { PF_CLI_KNOBS_LIST = 1, PF_CLI_KNOBS_DOC };
void pf_cli_report_knobs(void);
int pf_cli_knobs(int what, int json);
/* NULL/"auto" or a backend name portaflow knows; else reports it, -1. */
int pf_cli_check_backend(const char *backend);

#endif
