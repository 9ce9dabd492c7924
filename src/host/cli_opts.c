/* The shared option parser (see cli_opts.h): one getopt_long table built
 * from the shared options a command accepts plus its own, --help printed
 * from the same table, and errors that name the option. */
#include "cli_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../common/omp_threads.h"
#include "../common/progress.h"

enum {
    SH_BACKEND = 1000,
    SH_DEVICE,
    SH_THREADS,
    SH_OUT,
    SH_PROGRESS,
    SH_NO_PROGRESS,
    SH_JSON,
    SH_HELP,
};

typedef struct shared_opt {
    unsigned mask;
    pf_opt opt;
} shared_opt;

static const shared_opt shared_options[] = {
    {.mask = PF_OPTS_BACKEND,
     .opt = {.id = SH_BACKEND, .name = "backend", .letter = 'b', .arg = "NAME",
             .help = "auto, seq, omp, opencl or cuda (auto: $PORTAFLOW_BACKEND, else the best)"}},
    {.mask = PF_OPTS_DEVICE_INDEX,
     .opt = {.id = SH_DEVICE, .name = "device", .arg = "N",
             .help = "the backend's device N (see portaflow backends); default its best"}},
    {.mask = PF_OPTS_THREADS,
     .opt = {.id = SH_THREADS, .name = "threads", .letter = 't', .arg = "T",
             .help = "OpenMP threads (1..4096); default the runtime's"}},
    {.mask = PF_OPTS_OUT,
     .opt = {.id = SH_OUT, .name = "out", .letter = 'o', .arg = "FILE",
             .help = "write to FILE instead of standard output ('-': standard output)"}},
    {.mask = PF_OPTS_PROGRESS,
     .opt = {.id = SH_PROGRESS, .name = "progress",
             .help = "a status line on stderr (default: on a terminal, after a second)"}},
    {.mask = PF_OPTS_PROGRESS,
     .opt = {.id = SH_NO_PROGRESS, .name = "no-progress", .help = "no status line"}},
    {.mask = PF_OPTS_JSON,
     .opt = {.id = SH_JSON, .name = "json", .help = "print one JSON object instead of text"}},
};

static const pf_opt help_option = {.id = SH_HELP, .name = "help", .letter = 'h',
                                   .help = "print this help and exit"};

static const char exit_text[] =
    "exit status: 0 ok, 1 usage, 2 bad input, 3 backend/device failure, 4 output error\n";

enum { MAX_OPTIONS = 64, FIRST_LONG_VAL = 256 };

/* The command's options as one list: shared ones first, then its own,
 * then --help. */
typedef struct opt_list {
    const pf_opt *at[MAX_OPTIONS];
    int count;
} opt_list;

static int gather(const pf_cmd_spec *spec, opt_list *list)
{
    list->count = 0;
    for (size_t i = 0; i < sizeof shared_options / sizeof *shared_options; i++)
        if (spec->shared & shared_options[i].mask)
            list->at[list->count++] = &shared_options[i].opt;
    for (const pf_opt *o = spec->options; o && o->name; o++) {
        if (list->count >= MAX_OPTIONS - 1) {
            fprintf(stderr, "portaflow: %s: internal error: over %d options\n", spec->name,
                    MAX_OPTIONS - 1);
            return PF_EXIT_USAGE;
        }
        list->at[list->count++] = o;
    }
    list->at[list->count++] = &help_option;
    return PF_EXIT_OK;
}

/* What getopt_long returns for entry i: its letter, else a value past chars. */
static int code_of(const opt_list *list, int i)
{
    return list->at[i]->letter ? list->at[i]->letter : FIRST_LONG_VAL + i;
}

static const pf_opt *find_code(const opt_list *list, int code)
{
    for (int i = 0; i < list->count; i++)
        if (code_of(list, i) == code)
            return list->at[i];
    return NULL;
}

int pf_opts_usage_error(const pf_cmd_spec *spec, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "portaflow: %s: ", spec->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see portaflow %s --help)\n", spec->name);
    va_end(ap);
    return PF_EXIT_USAGE;
}

/* "-b, --backend NAME" or "    --device N" into text. */
static int option_label(const pf_opt *o, const pf_cmd_spec *spec, char *text, size_t len)
{
    (void)spec;
    char letter[8] = "    ";
    if (o->letter)
        snprintf(letter, sizeof letter, "-%c, ", o->letter);
    return snprintf(text, len, "%s--%s%s%s", letter, o->name, o->arg ? " " : "",
                    o->arg ? o->arg : "");
}

static const char *help_of(const pf_cmd_spec *spec, const pf_opt *o)
{
    if (o->id == SH_OUT && spec->out_help)
        return spec->out_help;
    return o->help;
}

static int print_help(const pf_cmd_spec *spec, const opt_list *list)
{
    enum { COLUMN = 26 };
    printf("usage: portaflow %s %s\n", spec->name, spec->synopsis ? spec->synopsis : "");
    if (spec->about)
        printf("\n%s", spec->about);
    printf("\noptions:\n");
    for (int i = 0; i < list->count; i++) {
        char label[128];
        int width = option_label(list->at[i], spec, label, sizeof label);
        if (width < COLUMN - 2)
            printf("  %-*s%s\n", COLUMN - 2, label, help_of(spec, list->at[i]));
        else
            printf("  %s\n  %-*s%s\n", label, COLUMN - 2, "", help_of(spec, list->at[i]));
    }
    printf("\n%s", exit_text);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "portaflow: %s --help: writing standard output failed: %s\n", spec->name,
                strerror(errno));
        return PF_EXIT_OUTPUT;
    }
    return PF_EXIT_OK;
}

int pf_opts_int(const pf_cmd_spec *spec, const char *name, const char *text, int64_t min,
                int64_t max, int64_t *value)
{
    char *end;
    errno = 0;
    long long v = text && *text ? strtoll(text, &end, 10) : 0;
    if (!text || !*text || errno || *end || v < min || v > max)
        return pf_opts_usage_error(spec, "--%s takes a whole number from %lld to %lld, not '%s'",
                                   name, (long long)min, (long long)max, text ? text : "");
    *value = v;
    return PF_EXIT_OK;
}

int pf_opts_word(const pf_opt_word *words, const char *text, size_t len, int *value)
{
    for (const pf_opt_word *w = words; w->word; w++)
        if (strlen(w->word) == len && !strncmp(text, w->word, len)) {
            *value = w->value;
            return 1;
        }
    return 0;
}

/* Stores a shared option's value; 0 or the exit status. */
static int take_shared(const pf_cmd_spec *spec, int id, const char *arg, pf_opts_shared *sh)
{
    int64_t number = 0;
    int rc = PF_EXIT_OK;
    switch (id) {
    case SH_BACKEND:
        if (pf_cli_check_backend(arg))
            return PF_EXIT_USAGE;
        sh->backend = arg;
        break;
    case SH_DEVICE:
        rc = pf_opts_int(spec, "device", arg, 0, 1000, &number);
        sh->device_index = rc ? sh->device_index : (int)number;
        break;
    case SH_THREADS:
        rc = pf_opts_int(spec, "threads", arg, 1, 4096, &number);
        sh->threads = rc ? sh->threads : (int)number;
        if (!rc)
            pf_omp_default_threads(sh->threads); /* the input is read on them too */
        break;
    case SH_OUT:
        sh->out_path = arg;
        break;
    case SH_PROGRESS:
    case SH_NO_PROGRESS:
        sh->progress = id == SH_PROGRESS;
        break;
    default:
        sh->json = 1;
        break;
    }
    return rc;
}

/* The usage error for what getopt_long rejected ('?' or ':'). */
static int rejected(const pf_cmd_spec *spec, const opt_list *list, int code, char **argv)
{
    const pf_opt *o = find_code(list, optopt);
    if (code == ':' && o)
        return pf_opts_usage_error(spec, "--%s needs a value (%s)", o->name, o->arg);
    if (o)
        return pf_opts_usage_error(spec, "--%s takes no value", o->name);
    if (optopt > 0 && optopt < FIRST_LONG_VAL)
        return pf_opts_usage_error(spec, "unknown option '-%c'", optopt);
    const char *word = optind > 0 ? argv[optind - 1] : "?";
    int len = (int)strcspn(word, "=");
    return pf_opts_usage_error(spec, "unknown or ambiguous option '%.*s'", len, word);
}

/* A command's table must not repeat a name or a letter (its own or a
 * shared one's): reported as a programming error, so a new command finds
 * out on its first run. */
static int check_table(const pf_cmd_spec *spec, const opt_list *list)
{
    for (int i = 0; i < list->count; i++)
        for (int j = 0; j < i; j++) {
            const pf_opt *a = list->at[i], *b = list->at[j];
            if (!strcmp(a->name, b->name) || (a->letter && a->letter == b->letter)) {
                fprintf(stderr, "portaflow: %s: internal error: --%s and --%s clash\n",
                        spec->name, b->name, a->name);
                return PF_EXIT_USAGE;
            }
        }
    return PF_EXIT_OK;
}

static void build_tables(const opt_list *list, struct option *longs, char *shorts, size_t len)
{
    size_t used = (size_t)snprintf(shorts, len, "-:");
    for (int i = 0; i < list->count; i++) {
        const pf_opt *o = list->at[i];
        longs[i] = (struct option){.name = o->name,
                                   .has_arg = o->arg ? required_argument : no_argument,
                                   .flag = NULL, .val = code_of(list, i)};
        if (o->letter && used + 3 < len) {
            shorts[used++] = (char)o->letter;
            if (o->arg)
                shorts[used++] = ':';
            shorts[used] = '\0';
        }
    }
    longs[list->count] = (struct option){0};
}

int pf_opts_parse(const pf_cmd_spec *spec, int argc, char **argv, pf_opt_handler handler,
                  void *ctx, pf_opts_parsed *parsed)
{
    opt_list list;
    if (gather(spec, &list) != PF_EXIT_OK || check_table(spec, &list) != PF_EXIT_OK)
        return PF_EXIT_USAGE;
    struct option longs[MAX_OPTIONS + 1];
    char shorts[2 * MAX_OPTIONS + 4];
    build_tables(&list, longs, shorts, sizeof shorts);
    memset(parsed, 0, sizeof *parsed);
    parsed->shared.device_index = -1;
    parsed->shared.progress = -1;

    optind = 0; /* glibc: start over, whatever an earlier parse left */
    opterr = 0;
    int code;
    while ((code = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (code == '?' || code == ':')
            return rejected(spec, &list, code, argv);
        if (code == 1) { /* a positional argument, in order ("-" in shorts) */
            if (parsed->count >= spec->max_args || parsed->count >= PF_OPTS_MAX_ARGS)
                return pf_opts_usage_error(spec, "unexpected argument '%s'", optarg);
            parsed->args[parsed->count++] = optarg;
            continue;
        }
        const pf_opt *o = find_code(&list, code);
        int rc = !o                  ? pf_opts_usage_error(spec, "unexpected option")
               : o->id == SH_HELP    ? print_help(spec, &list)
               : o->id >= SH_BACKEND ? take_shared(spec, o->id, optarg, &parsed->shared)
                                     : handler(ctx, o->id, optarg);
        if (rc || o->id == SH_HELP)
            return rc;
    }
    /* After "--" getopt stops: the rest are positional. */
    for (int i = optind; i < argc; i++) {
        if (parsed->count >= spec->max_args || parsed->count >= PF_OPTS_MAX_ARGS)
            return pf_opts_usage_error(spec, "unexpected argument '%s'", argv[i]);
        parsed->args[parsed->count++] = argv[i];
    }
    return PF_OPTS_GO_ON;
}

int pf_opts_progress_mode(const pf_opts_shared *shared)
{
    if (shared->progress == 1)
        return PF_PROGRESS_AT_ONCE;
    if (shared->progress == -1 && isatty(STDERR_FILENO))
        return PF_PROGRESS_AFTER_A_SECOND;
    return PF_PROGRESS_OFF;
}

int pf_opts_progress_on(const pf_opts_shared *shared) { return pf_opts_progress_mode(shared); }

void pf_opts_take_device(const pf_opts_shared *shared, const char **backend, int *device_index,
                         int *threads)
{
    *backend = shared->backend;
    *device_index = shared->device_index;
    *threads = shared->threads;
}
