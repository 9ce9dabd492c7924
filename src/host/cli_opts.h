/* The one option parser every portaflow command uses (libc getopt_long).
 *
 * How a command declares its options and gets --help for free:
 *
 *     enum { OPT_FLOW = 1, OPT_TYPE };          // ids of the command's own options
 *     static const pf_opt solve_options[] = {
 *         {.id = OPT_FLOW, .name = "flow", .help = "print one f line per input arc"},
 *         {.id = OPT_TYPE, .name = "type", .letter = 'k', .arg = "KIND",
 *          .help = "distance type: auto, i32, i64 or f32"},
 *         {0},                                   // the table ends with a zeroed entry
 *     };
 *     static const pf_cmd_spec solve_spec = {
 *         .name = "solve", .synopsis = "[OPTIONS] [FILE|-]",
 *         .about = "Maximum flow of a network.\n",   // printed under the usage line
 *         .options = solve_options,
 *         .shared = PF_OPTS_DEVICE | PF_OPTS_PROGRESS, // shared options it accepts
 *         .max_args = 1,
 *     };
 *     static int on_option(void *ctx, int id, const char *arg) { ... return 0; }
 *     ...
 *     pf_opts_parsed p;
 *     int rc = pf_opts_parse(&solve_spec, argc, argv, on_option, &my_args, &p);
 *     if (rc != PF_OPTS_GO_ON)
 *         return rc;                                 // --help (0) or a usage error (1)
 *
 * An option with .arg takes a value (`--type i32`, `--type=i32`, `-k i32`,
 * `-ki32`); without .arg it is a flag. A value may start with '-' (`--min -5`).
 * Positional arguments come back in their order in p.args[0 .. p.count-1];
 * options and positional arguments may be mixed in any order, and `--` ends
 * the options. The shared options (backend, device, threads, output file,
 * progress, JSON) are declared once in cli_opts.c; a command picks those it
 * accepts with .shared and finds their values in p.shared. `-h`/`--help` is
 * always there: it prints `usage: portaflow NAME SYNOPSIS`, .about, every
 * option with its help, and the exit statuses, then the command returns 0.
 * The handler returns 0, or the exit status after reporting a bad value
 * (pf_opts_usage_error). A table that repeats a name or a letter (its own
 * or a shared option's) makes every run of the command exit 1 with an
 * "internal error" naming both. Values check with pf_opts_int; main
 * checks stdout and closes the status line when the command returns.
 *
 * A new command also: writes output files through pf_outfile
 * (src/common/outfile.h: whole or absent, exit 4 on a write error); opens
 * its status line with pf_progress_open(pf_opts_progress_mode(&p.shared),
 * 1, "NAME") and names its steps with pf_progress_step (progress.h); goes
 * into main's table in cli.c; and lists its options in README's "Command
 * line" section and in the command list of tests/test_cli.c's
 * readme_and_help_agree, which checks that README and --help agree. */
#ifndef PF_CLI_OPTS_H
#define PF_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>

/* One option of a command. */
typedef struct pf_opt {
    int id;            /* passed to the handler; 1..999 (the shared ones use 1000+) */
    const char *name;  /* the long name, without "--" */
    int letter;        /* the short form's letter, or 0 */
    const char *arg;   /* the value's name in --help ("N", "FILE"); NULL: a flag */
    const char *help;  /* one line */
} pf_opt;

/* The shared options a command may accept (pf_cmd_spec.shared). */
enum {
    PF_OPTS_BACKEND = 1 << 0,  /* -b, --backend NAME */
    PF_OPTS_DEVICE_INDEX = 1 << 1, /* --device N */
    PF_OPTS_THREADS = 1 << 2,  /* -t, --threads T */
    PF_OPTS_OUT = 1 << 3,      /* -o, --out FILE */
    PF_OPTS_PROGRESS = 1 << 4, /* --progress, --no-progress */
    PF_OPTS_JSON = 1 << 5,     /* --json */
    PF_OPTS_DEVICE = PF_OPTS_BACKEND | PF_OPTS_DEVICE_INDEX | PF_OPTS_THREADS,
};

typedef struct pf_cmd_spec {
    const char *name;      /* the command word: "solve" */
    const char *synopsis;  /* after the name on the usage line: "[OPTIONS] FILE" */
    const char *about;     /* what the command does and prints; lines end in '\n' */
    const pf_opt *options; /* the command's own options, ended by {0}; may be NULL */
    const char *out_help;  /* --out's help line where the command says more; may be NULL */
    unsigned shared;       /* PF_OPTS_* */
    int max_args;          /* at most this many positional arguments */
} pf_cmd_spec;

/* The values of the shared options (defaults where not given). */
typedef struct pf_opts_shared {
    const char *backend;  /* NULL: auto */
    int device_index;     /* -1: the backend's best device */
    int threads;          /* 0: the runtime's default */
    const char *out_path; /* NULL: not given */
    int progress;         /* -1: auto (a terminal on stderr), 0 off, 1 on */
    int json;
} pf_opts_shared;

enum { PF_OPTS_MAX_ARGS = 16 };

typedef struct pf_opts_parsed {
    pf_opts_shared shared;
    int count;                           /* positional arguments, in order */
    const char *args[PF_OPTS_MAX_ARGS];
} pf_opts_parsed;

/* The command's handler for its own options: 0, or an exit status. */
typedef int (*pf_opt_handler)(void *ctx, int id, const char *arg);

/* What pf_opts_parse returns when the command should go on. */
#define PF_OPTS_GO_ON (-1)

/* Parses argv[1..argc-1] (argv[0] is the command word). Returns
 * PF_OPTS_GO_ON, or the status to exit with now: 0 after --help, 1 after a
 * usage error (reported on stderr, naming the option), 4 if --help could
 * not be written. */
int pf_opts_parse(const pf_cmd_spec *spec, int argc, char **argv, pf_opt_handler handler,
                  void *ctx, pf_opts_parsed *parsed);

/* Prints "portaflow: CMD: MESSAGE" and where help is; returns 1 (usage). */
int pf_opts_usage_error(const pf_cmd_spec *spec, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The status line's mode (progress.h): from the start with --progress,
 * past a second when stderr is a terminal, else off. A command opens it
 * with pf_progress_open(mode, 1, "NAME"); main closes it. */
int pf_opts_progress_mode(const pf_opts_shared *shared);
/* The same value under its first name (commands written against it). */
int pf_opts_progress_on(const pf_opts_shared *shared);

/* The device choice (--backend, --device, --threads) into the fields
 * that pf_solve_options, pf_apsp_options and pf_graph_options each have. */
void pf_opts_take_device(const pf_opts_shared *shared, const char **backend, int *device_index,
                         int *threads);

/* A word an option takes and the value it stands for; a table of them
 * ends with {0}. */
typedef struct pf_opt_word {
    const char *word;
    int value;
} pf_opt_word;

/* The len bytes at text looked up among words: 1 with *value set, else 0. */
int pf_opts_word(const pf_opt_word *words, const char *text, size_t len, int *value);

/* Whole-number option values: a decimal integer in [min, max], else a usage
 * error naming the option (--NAME) and the range. 0 or the exit status. */
int pf_opts_int(const pf_cmd_spec *spec, const char *name, const char *text, int64_t min,
                int64_t max, int64_t *value);

#endif
