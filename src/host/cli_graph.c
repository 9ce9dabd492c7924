/* `portaflow bfs`, `sssp` and `tc`: the analytics commands (graph.h).
 *
 * Output (text): `c` lines (engine, sizes, times, traversal rate), then
 * with --stats the `s` lines the issue fixes (bfs: reached, depth,
 * checksum; sssp: reached, max_distance, checksum), else one row per
 * vertex in id order: `d ID DIST` (bfs --parents: `d ID DIST PARENT`),
 * `inf` and `-` where unreached; tc prints `s triangles T`. --json prints
 * one object with the same content (bfs --stats adds the levels). The
 * graph is read, solved and verified before anything is written, so bad
 * input leaves no partial output. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/graph_verify.h"
#include "../common/outfile.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "cli.h"
#include "cli_graph.h"
#include "cli_opts.h"
#include "graph.h"
#include "../common/progress.h"

enum {
    OPT_SOURCE = 1, OPT_PARENTS, OPT_STATS, OPT_VERIFY, OPT_DELTA, OPT_ZERO_BASED,
    OPT_UNDIRECTED, OPT_PUSH_ONLY,
};

#define INPUT_OPTIONS                                                                        \
    {.id = OPT_ZERO_BASED, .name = "zero-based",                                             \
     .help = "edge lists and --source: vertex ids start at 0 (default 1)"},                  \
    {.id = OPT_UNDIRECTED, .name = "undirected",                                             \
     .help = "each input arc is an edge: its reverse is added"},                             \
    {.id = OPT_VERIFY, .name = "verify", .help = "check the answer independently (exit 3 if wrong)"}

static const pf_opt bfs_options[] = {
    {.id = OPT_SOURCE, .name = "source", .letter = 's', .arg = "S",
     .help = "the source vertex (default the first id)"},
    {.id = OPT_PARENTS, .name = "parents", .help = "print each vertex's BFS parent (smallest id)"},
    {.id = OPT_STATS, .name = "stats", .help = "s reached / depth / checksum lines, no rows"},
    {.id = OPT_PUSH_ONLY, .name = "push-only", .help = "top-down only (no direction switch)"},
    INPUT_OPTIONS,
    {0},
};

static const pf_opt sssp_options[] = {
    {.id = OPT_SOURCE, .name = "source", .letter = 's', .arg = "S",
     .help = "the source vertex (default the first id)"},
    {.id = OPT_DELTA, .name = "delta", .arg = "D",
     .help = "near-far bucket width (default 32 x mean weight / mean degree)"},
    {.id = OPT_STATS, .name = "stats", .help = "s reached / max_distance / checksum lines, no rows"},
    INPUT_OPTIONS,
    {0},
};

static const pf_opt tc_options[] = {INPUT_OPTIONS, {0}};

#define GRAPH_ABOUT_INPUT                                                                    \
    "GRAPH: DIMACS 'p sp', Matrix Market, adjacency-matrix text, an edge list ('U V' or\n"   \
    "'U V W' lines, '#'/'%' comments) or portaflow's binary form (gen --format bin).\n"

/* What the three commands share: one graph argument and the same shared options. */
#define GRAPH_SPEC_COMMON                                                                    \
    .synopsis = "[OPTIONS] GRAPH", .max_args = 1,                                            \
    .shared = PF_OPTS_DEVICE | PF_OPTS_OUT | PF_OPTS_PROGRESS | PF_OPTS_JSON

static const pf_cmd_spec bfs_spec = {
    .name = "bfs", .options = bfs_options, GRAPH_SPEC_COMMON,
    .about = "Hop distances along arcs from the source; one 'd ID DIST' row per vertex\n"
             "('d ID DIST PARENT' with --parents; 'inf' and '-' where unreached).\n" GRAPH_ABOUT_INPUT,
};

static const pf_cmd_spec sssp_spec = {
    .name = "sssp", .options = sssp_options, GRAPH_SPEC_COMMON,
    .about = "Shortest-path distances from the source (weights 1 where the input has none);\n"
             "one 'd ID DIST' row per vertex ('inf' where unreached). A negative cycle\n"
             "reachable from the source exits 2 naming it.\n" GRAPH_ABOUT_INPUT,
};

static const pf_cmd_spec tc_spec = {
    .name = "tc", .options = tc_options, GRAPH_SPEC_COMMON,
    .about = "Triangles of the undirected simple graph (arc directions, self-loops and\n"
             "repeated arcs ignored): 's triangles T'.\n" GRAPH_ABOUT_INPUT,
};

static int on_option(void *ctx, int id, const char *arg)
{
    graph_args *a = ctx;
    switch (id) {
    case OPT_SOURCE: a->source_text = arg; break;
    case OPT_PARENTS: a->opt.parents = 1; break;
    case OPT_STATS: a->stats = 1; break;
    case OPT_VERIFY: a->verify = 1; break;
    case OPT_DELTA: a->delta_text = arg; break;
    case OPT_ZERO_BASED: a->read.zero_based = 1; break;
    case OPT_UNDIRECTED: a->read.undirected = 1; break;
    default: a->opt.push_only = 1; break;
    }
    return PF_EXIT_OK;
}

static int parse_args(const pf_cmd_spec *spec, int argc, char **argv, graph_args *a)
{
    memset(a, 0, sizeof *a);
    a->spec = spec;
    pf_graph_options_init(&a->opt);
    pf_opts_parsed p;
    int rc = pf_opts_parse(spec, argc, argv, on_option, a, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_opts_take_device(&p.shared, &a->opt.backend, &a->opt.device_index, &a->opt.threads);
    a->json = p.shared.json;
    a->out_path = p.shared.out_path;
    a->progress = pf_opts_progress_mode(&p.shared);
    if (!p.count)
        return pf_opts_usage_error(spec, "a graph file is required (%s GRAPH)", spec->name);
    a->path = p.args[0];
    if (a->delta_text) {
        char *end;
        errno = 0;
        double d = strtod(a->delta_text, &end);
        if (!*a->delta_text || *end || errno || !(d > 0) || isinf(d))
            return pf_opts_usage_error(spec, "--delta takes a positive number, not '%s'",
                                       a->delta_text);
        a->opt.delta_f = d;
        a->opt.delta_i = d >= 1 && d < 9.2e18 ? (int64_t)d : 1;
    }
    return PF_OPTS_GO_ON;
}

/* The source as the user wrote it, checked against the graph. */
static int take_source(const graph_args *a, const pf_csr *g, int32_t *source, pf_status *st)
{
    int64_t base = a->read.zero_based ? 0 : 1, value = base;
    if (a->source_text) {
        char *end;
        errno = 0;
        long long v = strtoll(a->source_text, &end, 10);
        if (!*a->source_text || *end || errno)
            return pf_fail(st, PF_E_USAGE, "%s: --source takes a vertex id, not '%s'",
                           a->spec->name, a->source_text);
        value = v;
    }
    if (value < base || value - base >= g->n)
        return pf_fail(st, PF_E_USAGE, "%s: --source %lld is outside %lld..%lld",
                       a->spec->name, (long long)value, (long long)base,
                       (long long)(g->n - 1 + base));
    *source = (int32_t)(value - base);
    return PF_OK;
}

static int usage_status(const pf_status *st)
{
    fprintf(stderr, "portaflow: %s\n", st->message);
    return PF_EXIT_USAGE;
}

/* Opens the output, runs write(), commits: whole or absent. */
static int write_output(const graph_args *a, void (*write)(FILE *, const void *), const void *ctx,
                        pf_status *st)
{
    pf_outfile out;
    int rc = pf_outfile_open(&out, a->out_path, NULL, st);
    if (rc)
        return rc;
    write(out.fp, ctx);
    if (ferror(out.fp)) {
        pf_fail(st, PF_E_OUTPUT, "%s: write failed: %s", out.path, strerror(errno));
        pf_outfile_abort(&out);
        return PF_E_OUTPUT;
    }
    return pf_outfile_commit(&out, st);
}

/* ---- the commands -------------------------------------------------------- */

static pf_csr *load(graph_args *a, pf_status *st)
{
    a->read.no_weights = a->spec != &sssp_spec;
    pf_progress_open(a->progress, 1, a->spec->name);
    pf_progress_step("reading %s", strcmp(a->path, "-") ? a->path : "standard input");
    return pf_csr_read(a->path, &a->read, st);
}

/* Every command's answer, on the stack of run_command. */
typedef union graph_result {
    pf_bfs_result bfs;
    pf_sssp_result sssp;
    pf_tc_result tc;
} graph_result;

/* What run_command hands back from solve when the command has already
 * said why it ends (sssp's negative cycle): exit PF_EXIT_INPUT, no output. */
enum { REPORTED = -1 };

/* One command: its spec, its engine call (with --verify's check, setting
 * run->verified) and its writers. free_result is NULL where the answer
 * holds no memory. */
typedef struct graph_command {
    const pf_cmd_spec *spec;
    int (*solve)(const graph_args *a, graph_run *run, graph_result *res, pf_status *st);
    void (*free_result)(graph_result *res);
    void (*write_text)(FILE *out, const void *run);
    void (*write_json)(FILE *out, const void *run);
} graph_command;

/* Options, graph and, for bfs and sssp, the source; then the engine; then
 * the answer written if all went well, everything freed, the exit status. */
static int run_command(const graph_command *cmd, int argc, char **argv)
{
    graph_args a;
    int rc = parse_args(cmd->spec, argc, argv, &a);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    double t0 = pf_now();
    pf_status st;
    pf_csr *g = load(&a, &st);
    if (!g)
        return pf_cli_error(&st);
    graph_run run = {.a = &a, .g = g};
    if (cmd->spec != &tc_spec && take_source(&a, g, &run.source, &st)) {
        pf_csr_free(g);
        return usage_status(&st);
    }
    graph_result res;
    pf_progress_step("%s", cmd->spec->name);
    rc = cmd->solve(&a, &run, &res, &st);
    run.res = &res;
    run.total_s = pf_now() - t0;
    if (!rc)
        rc = write_output(&a, a.json ? cmd->write_json : cmd->write_text, &run, &st);
    pf_csr_free(g);
    if (cmd->free_result)
        cmd->free_result(&res);
    if (rc == REPORTED)
        return PF_EXIT_INPUT;
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}

static int solve_bfs(const graph_args *a, graph_run *run, graph_result *res, pf_status *st)
{
    int rc = pf_graph_bfs(run->g, run->source, &a->opt, &res->bfs, st);
    if (!rc && a->verify) {
        pf_progress_step("verifying");
        rc = pf_bfs_verify(run->g, run->source, res->bfs.dist, res->bfs.parent, 1, st);
        run->verified = !rc;
    }
    return rc;
}

/* "portaflow: NAME: negative cycle of K arcs, weight W: 1 -> 3 -> 1", as
 * apsp says it (the weight from the lightest arc between neighbours). */
static void report_cycle(const pf_csr *g, const pf_sssp_result *res, const char *name,
                         int64_t base)
{
    double weight = 0;
    for (int64_t k = 0; k < res->cycle_len; k++) {
        int32_t u = res->cycle[k], v = res->cycle[(k + 1) % res->cycle_len];
        double lightest = INFINITY;
        for (int64_t a = g->first[u]; a < g->first[u + 1]; a++)
            if (g->head[a] == v && pf_csr_weight_f(g, a) < lightest)
                lightest = pf_csr_weight_f(g, a);
        weight += lightest;
    }
    pf_progress_clear_line();
    fprintf(stderr, "portaflow: %s: negative cycle of %lld arcs, weight %.17g:", name,
            (long long)res->cycle_len, weight);
    for (int64_t k = 0; k <= res->cycle_len; k++)
        fprintf(stderr, k ? " -> %lld" : " %lld",
                (long long)res->cycle[k % res->cycle_len] + base);
    fputc('\n', stderr);
}

static int solve_sssp(const graph_args *a, graph_run *run, graph_result *res, pf_status *st)
{
    int rc = pf_graph_sssp(run->g, run->source, &a->opt, &res->sssp, st);
    if (rc == PF_E_INPUT && res->sssp.cycle_len > 0) {
        report_cycle(run->g, &res->sssp, strcmp(a->path, "-") ? a->path : "<stdin>",
                     a->read.zero_based ? 0 : 1);
        return REPORTED;
    }
    if (!rc && a->verify) {
        pf_progress_step("verifying");
        rc = pf_sssp_verify(run->g, run->source, res->sssp.dist_i, res->sssp.dist_f, st);
        run->verified = !rc;
    }
    return rc;
}

/* --verify: against seq's count. */
static int solve_tc(const graph_args *a, graph_run *run, graph_result *res, pf_status *st)
{
    int rc = pf_graph_tc(run->g, &a->opt, &res->tc, st);
    if (!rc && a->verify && strcmp(res->tc.backend, "seq")) {
        pf_progress_step("verifying against seq");
        pf_graph_options seq = a->opt;
        seq.backend = "seq";
        pf_tc_result check;
        rc = pf_graph_tc(run->g, &seq, &check, st);
        if (!rc && check.triangles != res->tc.triangles)
            rc = pf_fail(st, PF_E_VERIFY, "%s counted %lld triangles, seq %lld",
                         res->tc.backend, (long long)res->tc.triangles,
                         (long long)check.triangles);
    }
    run->verified = a->verify && !rc;
    return rc;
}

static void free_bfs(graph_result *res) { pf_bfs_result_free(&res->bfs); }
static void free_sssp(graph_result *res) { pf_sssp_result_free(&res->sssp); }

int pf_cli_bfs(int argc, char **argv)
{
    static const graph_command bfs = {.spec = &bfs_spec, .solve = solve_bfs,
                                      .free_result = free_bfs, .write_text = write_bfs_text,
                                      .write_json = write_bfs_json};
    return run_command(&bfs, argc, argv);
}

int pf_cli_sssp(int argc, char **argv)
{
    static const graph_command sssp = {.spec = &sssp_spec, .solve = solve_sssp,
                                       .free_result = free_sssp, .write_text = write_sssp_text,
                                       .write_json = write_sssp_json};
    return run_command(&sssp, argc, argv);
}

int pf_cli_tc(int argc, char **argv)
{
    static const graph_command tc = {.spec = &tc_spec, .solve = solve_tc,
                                     .write_text = write_tc_text, .write_json = write_tc_json};
    return run_command(&tc, argc, argv);
}
