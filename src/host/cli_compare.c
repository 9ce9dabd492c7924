/* `portaflow compare` and `portaflow demo`: every available backend (each
 * device of it) and seq on identical input, each answer verified, one
 * table; any disagreement in value is an error (exit 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gen.h"
#include "../common/status.h"
#include "cli.h"
#include "cli_input.h"
#include "cli_opts.h"
#include "registry.h"
#include "../common/progress.h"

typedef struct compare_args {
    int threads, repeat, verify, json, progress;
    const char *path;
    pf_cli_input input; /* compare only: --source, --sink, --zero-based */
} compare_args;

typedef struct compare_row {
    char backend[16];  /* as shown: the hybrid's is "NAME+seq" */
    char engine[16];   /* the backend solved with */
    int hybrid;        /* 1: the hybrid of engine and seq; 0: engine alone */
    int device_index;
    char device[160];
    pf_solution sol;   /* the median run's times */
    char value[64];    /* sol.value in the input's units */
    int ok;            /* solved (and verified when asked) */
    char error[512];
} compare_row;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Solves `repeat` times after one warm-up when repeating; keeps the run
 * whose total time is the median. */
static void run_one(const pf_network *net, const compare_args *a, compare_row *row)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = row->engine;
    opt.hybrid = row->hybrid ? PF_HYBRID_ON : PF_HYBRID_OFF;
    opt.device_index = row->device_index;
    opt.threads = a->threads;
    opt.want_flow = opt.want_cut = a->verify;
    opt.progress = a->progress;
    opt.log = pf_cli_log;
    pf_status st;
    int runs = a->repeat > 1 ? a->repeat + 1 : 1;
    double totals[64];
    int timed = 0;
    for (int r = 0; r < runs; r++) {
        pf_solution sol;
        if (pf_solve(net, &opt, &sol, &st)) {
            snprintf(row->error, sizeof row->error, "%s", st.message);
            row->ok = 0;
            return;
        }
        if (r == 0 && a->verify &&
            pf_verify(net, sol.value, sol.arc_flow, sol.source_side, &st)) {
            snprintf(row->error, sizeof row->error, "verification failed: %.480s", st.message);
            pf_solution_free(&sol);
            row->ok = 0;
            return;
        }
        if (runs > 1 && r == 0) { /* warm-up */
            pf_solution_free(&sol);
            continue;
        }
        totals[timed++] = sol.times.total;
        double sorted[64];
        memcpy(sorted, totals, sizeof(double) * (size_t)timed);
        qsort(sorted, (size_t)timed, sizeof(double), cmp_double);
        int keep = !row->ok || sol.times.total == sorted[(timed - 1) / 2];
        if (keep) {
            pf_solution_free(&row->sol);
            row->sol = sol;
            row->ok = 1;
        } else {
            pf_solution_free(&sol);
        }
    }
    snprintf(row->device, sizeof row->device, "%s", row->sol.device);
}

static int collect_rows(compare_row *rows, int max)
{
    pf_device_desc descs[64];
    char why[2048];
    int found = pf_list_devices(descs, 64, why, sizeof why);
    int count = 0;
    /* Each device alone and, where its backend runs the parallel driver,
     * as the hybrid with seq (a row of its own). */
    for (int i = 0; i < found && count < max; i++) {
        const pf_device_ops *ops = pf_backend_find(descs[i].backend);
        int pairs = ops && ops->caps.maxflow_steps && !ops->caps.one_thread;
        for (int hybrid = 0; hybrid <= pairs && count < max; hybrid++) {
            compare_row *row = &rows[count++];
            memset(row, 0, sizeof *row);
            snprintf(row->engine, sizeof row->engine, "%.15s", descs[i].backend);
            snprintf(row->backend, sizeof row->backend, "%.11s%s", descs[i].backend,
                     hybrid ? "+seq" : "");
            row->hybrid = hybrid;
            row->device_index = descs[i].index;
        }
    }
    return count;
}

static void print_table_head(void)
{
    printf("| backend | dev | device | value | solve_s | upload_s | push_relabel_s | "
           "global_relabel_s | phase2_s | download_s | rounds | global_relabels | "
           "device_MiB | verified |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

static void print_table_row(const compare_row *row, const compare_args *a)
{
    if (!row->ok) {
        printf("| %s | %d | - | FAILED: %s |\n", row->backend, row->device_index, row->error);
        return;
    }
    const pf_phase_times *t = &row->sol.times;
    int bk = strcmp(row->sol.method, "boykov-kolmogorov") == 0; /* shown: "seq (bk)" */
    printf("| %s%s | %d | %.40s | %s | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f | %lld | "
           "%lld | %.1f | %s |\n",
           row->backend, bk ? " (bk)" : "", row->device_index < 0 ? 0 : row->device_index,
           row->device,
           row->value, t->total, t->upload, t->push_relabel, t->global_relabel,
           t->phase2, t->download, (long long)row->sol.pushes_rounds,
           (long long)row->sol.global_relabels, (double)row->sol.device_bytes / 1048576.0,
           a->verify ? "yes" : "not asked");
}

/* One element of "runs": the same numbers as a table row. */
static void print_json_row(const compare_row *row, const compare_args *a)
{
    printf("{\"backend\":");
    pf_cli_json_string(stdout, row->backend);
    printf(",\"device_index\":%d,\"ok\":%s", row->device_index < 0 ? 0 : row->device_index,
           row->ok ? "true" : "false");
    if (!row->ok) {
        printf(",\"error\":");
        pf_cli_json_string(stdout, row->error);
        printf("}");
        return;
    }
    const pf_phase_times *t = &row->sol.times;
    printf(",\"device\":");
    pf_cli_json_string(stdout, row->device);
    printf(",\"method\":");
    pf_cli_json_string(stdout, row->sol.method);
    printf(",\"value\":%s,\"solve_s\":%.6f,\"upload_s\":%.6f,\"push_relabel_s\":%.6f,"
           "\"global_relabel_s\":%.6f,\"phase2_s\":%.6f,\"download_s\":%.6f,\"rounds\":%lld,"
           "\"global_relabels\":%lld,\"device_bytes\":%llu,\"verified\":%s}",
           row->value, t->total, t->upload, t->push_relabel, t->global_relabel,
           t->phase2, t->download, (long long)row->sol.pushes_rounds,
           (long long)row->sol.global_relabels, (unsigned long long)row->sol.device_bytes,
           a->verify ? "true" : "false");
}

/* Runs every row, printing each as it finishes (a table, or the "runs"
 * array of the JSON object that `head` opened). */
static int compare_network(const pf_network *net, const compare_args *a)
{
    compare_row rows[65];
    int count = collect_rows(rows, 65);
    if (a->json)
        printf(",\"runs\":[");
    else
        print_table_head();
    int failures = 0, disagree = 0;
    int64_t reference = -1;
    for (int i = 0; i < count; i++) {
        compare_row *row = &rows[i];
        pf_progress_label("compare");
        pf_progress_step("solving on %s, device %d (run %d of %d)", row->backend,
                         row->device_index < 0 ? 0 : row->device_index, i + 1, count);
        run_one(net, a, row);
        if (row->ok)
            pf_amount_format(net, row->sol.value, row->value, sizeof row->value);
        failures += !row->ok;
        if (row->ok && reference < 0)
            reference = row->sol.value;
        else if (row->ok && row->sol.value != reference)
            disagree = 1;
        if (a->json)
            fputs(i ? "," : "", stdout), print_json_row(row, a);
        else
            print_table_row(row, a);
        fflush(stdout);
        if (row->ok)
            pf_solution_free(&row->sol);
    }
    if (a->json)
        printf("],\"agree\":%s,\"failed_runs\":%d}\n", disagree ? "false" : "true", failures);
    pf_progress_clear_line();
    if (disagree) {
        fprintf(stderr, "portaflow: backends disagree on the flow value\n");
        return PF_EXIT_DEVICE;
    }
    if (failures) {
        fprintf(stderr, "portaflow: %d backend run(s) failed\n", failures);
        return PF_EXIT_DEVICE;
    }
    return PF_EXIT_OK;
}

/* What is compared: one line of text, or the JSON object's first fields. */
static void print_instance(const compare_args *a, const char *what, const pf_network *net)
{
    if (a->json) {
        printf("{\"instance\":");
        pf_cli_json_string(stdout, what);
        printf(",\"vertices\":%lld,\"arcs\":%lld", (long long)pf_network_vertices(net),
               (long long)pf_network_arcs(net));
        pf_cli_print_scale(stdout, net, 1);
    } else {
        printf("%s: %lld vertices, %lld arcs\n", what, (long long)pf_network_vertices(net),
               (long long)pf_network_arcs(net));
        pf_cli_print_scale(stdout, net, 0);
        putchar('\n');
    }
}

enum { OPT_REPEAT = 1, OPT_NO_VERIFY };

/* The timing and checking entries that compare and demo share. */
#define COMPARE_RUN_OPTIONS                                                                    \
    {.id = OPT_REPEAT, .name = "repeat", .arg = "R",                                           \
     .help = "time R runs (1..63) after a warm-up, report the median"},                        \
    {.id = OPT_NO_VERIFY, .name = "no-verify", .help = "do not verify each answer"}

static const pf_opt compare_options[] = {
    COMPARE_RUN_OPTIONS,
    PF_CLI_INPUT_OPTIONS,
    {0},
};

static const pf_opt demo_options[] = {
    COMPARE_RUN_OPTIONS,
    {0},
};

static const pf_cmd_spec compare_spec = {
    .name = "compare",
    .synopsis = "[OPTIONS] FILE|-",
    .about = "Runs every available backend (each device) and seq on the same input,\n"
             "verifies each answer and prints one table. Disagreement exits 3. FILE is\n"
             "read as solve reads it (same formats and input options).\n",
    .options = compare_options,
    .shared = PF_OPTS_THREADS | PF_OPTS_JSON | PF_OPTS_PROGRESS,
    .max_args = 1,
};

static const pf_cmd_spec demo_spec = {
    .name = "demo",
    .synopsis = "[OPTIONS]",
    .about = "compare on a built-in instance (Washington RLG 256x256, seed 1).\n",
    .options = demo_options,
    .shared = PF_OPTS_THREADS | PF_OPTS_JSON | PF_OPTS_PROGRESS,
    .max_args = 0,
};

typedef struct compare_parse {
    const pf_cmd_spec *spec;
    compare_args *args;
} compare_parse;

static int on_compare_option(void *ctx, int id, const char *arg)
{
    compare_parse *c = ctx;
    int64_t number;
    int rc = pf_cli_input_option(c->spec, &c->args->input, id, arg);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    if (id == OPT_NO_VERIFY) {
        c->args->verify = 0;
        return PF_EXIT_OK;
    }
    rc = pf_opts_int(c->spec, "repeat", arg, 1, 63, &number);
    if (rc == PF_EXIT_OK)
        c->args->repeat = (int)number;
    return rc;
}

static int parse_compare_args(const pf_cmd_spec *spec, int argc, char **argv, compare_args *a)
{
    memset(a, 0, sizeof *a);
    a->repeat = 1;
    a->verify = 1;
    compare_parse ctx = {.spec = spec, .args = a};
    pf_opts_parsed p;
    int rc = pf_opts_parse(spec, argc, argv, on_compare_option, &ctx, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    a->threads = p.shared.threads;
    a->json = p.shared.json;
    a->progress = pf_opts_progress_mode(&p.shared);
    a->path = p.count ? p.args[0] : NULL;
    if (spec->max_args && !a->path)
        return pf_opts_usage_error(spec, "needs a FILE (or - for standard input)");
    return PF_OPTS_GO_ON;
}

int pf_cli_compare(int argc, char **argv)
{
    compare_args a;
    int rc = parse_compare_args(&compare_spec, argc, argv, &a);
    if (rc != PF_OPTS_GO_ON) {
        pf_cli_input_free(&a.input);
        return rc;
    }
    pf_status st;
    pf_progress_open(a.progress, 1, "compare");
    pf_progress_step("reading %s", a.path);
    pf_network *net = pf_cli_read_network(&a.input, a.path, &st);
    pf_cli_input_free(&a.input);
    if (!net)
        return pf_cli_error(&st);
    char what[600];
    snprintf(what, sizeof what, "instance %s", a.path);
    print_instance(&a, a.json ? a.path : what, net);
    rc = compare_network(net, &a);
    pf_network_free(net);
    return rc;
}

int pf_cli_demo(int argc, char **argv)
{
    compare_args a;
    int rc = parse_compare_args(&demo_spec, argc, argv, &a);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_status st;
    pf_progress_open(a.progress, 1, "demo");
    pf_progress_step("generating the built-in instance");
    pf_network *net = pf_gen_rlg(256, 256, 10000, 1, &st);
    if (!net)
        return pf_cli_error(&st);
    print_instance(&a,
                   "built-in instance: Washington random level graph, 256 rows x 256 levels, "
                   "capacities 1..10000, seed 1",
                   net);
    rc = compare_network(net, &a);
    pf_network_free(net);
    return rc;
}
