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
     .help = "bucket width (default: from the mean weight and degree, see README)"},
    {.id = OPT_STATS, .name = "stats", .help = "s reached / max_distance / checksum lines, no rows"},
    INPUT_OPTIONS,
    {0},
};

static const pf_opt tc_options[] = {INPUT_OPTIONS, {0}};

#define GRAPH_ABOUT_INPUT                                                                    \
    "GRAPH: DIMACS 'p sp', Matrix Market, adjacency-matrix text, an edge list ('U V' or\n"   \
    "'U V W' lines, '#'/'%' comments) or portaflow's binary form (gen --format bin).\n"

static const pf_cmd_spec bfs_spec = {
    .name = "bfs",
    .synopsis = "[OPTIONS] GRAPH",
    .about = "Hop distances along arcs from the source; one 'd ID DIST' row per vertex\n"
             "('d ID DIST PARENT' with --parents; 'inf' and '-' where unreached).\n" GRAPH_ABOUT_INPUT,
    .options = bfs_options,
    .shared = PF_OPTS_DEVICE | PF_OPTS_OUT | PF_OPTS_PROGRESS | PF_OPTS_JSON,
    .max_args = 1,
};

static const pf_cmd_spec sssp_spec = {
    .name = "sssp",
    .synopsis = "[OPTIONS] GRAPH",
    .about = "Shortest-path distances from the source (weights 1 where the input has none);\n"
             "one 'd ID DIST' row per vertex ('inf' where unreached). A negative cycle\n"
             "reachable from the source exits 2 naming it.\n" GRAPH_ABOUT_INPUT,
    .options = sssp_options,
    .shared = PF_OPTS_DEVICE | PF_OPTS_OUT | PF_OPTS_PROGRESS | PF_OPTS_JSON,
    .max_args = 1,
};

static const pf_cmd_spec tc_spec = {
    .name = "tc",
    .synopsis = "[OPTIONS] GRAPH",
    .about = "Triangles of the undirected simple graph (arc directions, self-loops and\n"
             "repeated arcs ignored): 's triangles T'.\n" GRAPH_ABOUT_INPUT,
    .options = tc_options,
    .shared = PF_OPTS_DEVICE | PF_OPTS_OUT | PF_OPTS_PROGRESS | PF_OPTS_JSON,
    .max_args = 1,
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
    a->opt.backend = p.shared.backend;
    a->opt.device_index = p.shared.device_index;
    a->opt.threads = p.shared.threads;
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

/* What every command does first: its options, its graph and, for bfs and
 * sssp, the source. PF_OPTS_GO_ON with run->g read and
 * *t0 the start, or the status to exit with now (nothing left open). */
static int start_command(const pf_cmd_spec *spec, int argc, char **argv, graph_args *a,
                         graph_run *run, pf_csr **g, double *t0, pf_status *st)
{
    int rc = parse_args(spec, argc, argv, a);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    *t0 = pf_now();
    *g = load(a, st);
    if (!*g)
        return pf_cli_error(st);
    *run = (graph_run){.a = a, .g = *g};
    if (spec != &tc_spec && take_source(a, *g, &run->source, st)) {
        pf_csr_free(*g);
        return usage_status(st);
    }
    return PF_OPTS_GO_ON;
}

/* What every command does last: the answer written if all went well
 * (rc 0), the graph freed, the exit status. */
static int finish_command(const graph_args *a, void (*write)(FILE *, const void *),
                          graph_run *run, pf_csr *g, double t0, int rc, pf_status *st)
{
    run->total_s = pf_now() - t0;
    if (!rc)
        rc = write_output(a, write, run, st);
    pf_csr_free(g);
    return rc ? pf_cli_error(st) : PF_EXIT_OK;
}

int pf_cli_bfs(int argc, char **argv)
{
    graph_args a;
    graph_run run;
    pf_csr *g;
    double t0;
    pf_status st;
    int rc = start_command(&bfs_spec, argc, argv, &a, &run, &g, &t0, &st);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_bfs_result res;
    pf_progress_step("bfs");
    rc = pf_graph_bfs(g, run.source, &a.opt, &res, &st);
    if (!rc && a.verify) {
        pf_progress_step("verifying");
        rc = pf_bfs_verify(g, run.source, res.dist, res.parent, 1, &st);
        run.verified = !rc;
    }
    run.res = &res;
    rc = finish_command(&a, a.json ? write_bfs_json : write_bfs_text, &run, g, t0, rc, &st);
    pf_bfs_result_free(&res);
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

int pf_cli_sssp(int argc, char **argv)
{
    graph_args a;
    graph_run run;
    pf_csr *g;
    double t0;
    pf_status st;
    int rc = start_command(&sssp_spec, argc, argv, &a, &run, &g, &t0, &st);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_sssp_result res;
    pf_progress_step("sssp");
    rc = pf_graph_sssp(g, run.source, &a.opt, &res, &st);
    if (rc == PF_E_INPUT && res.cycle_len > 0) {
        report_cycle(g, &res, strcmp(a.path, "-") ? a.path : "<stdin>", a.read.zero_based ? 0 : 1);
        pf_sssp_result_free(&res);
        pf_csr_free(g);
        return PF_EXIT_INPUT;
    }
    if (!rc && a.verify) {
        pf_progress_step("verifying");
        rc = pf_sssp_verify(g, run.source, res.dist_i, res.dist_f, &st);
        run.verified = !rc;
    }
    run.res = &res;
    rc = finish_command(&a, a.json ? write_sssp_json : write_sssp_text, &run, g, t0, rc, &st);
    pf_sssp_result_free(&res);
    return rc;
}

int pf_cli_tc(int argc, char **argv)
{
    graph_args a;
    graph_run run;
    pf_csr *g;
    double t0;
    pf_status st;
    int rc = start_command(&tc_spec, argc, argv, &a, &run, &g, &t0, &st);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_tc_result res;
    pf_progress_step("tc");
    rc = pf_graph_tc(g, &a.opt, &res, &st);
    run.res = &res;
    if (!rc && a.verify && strcmp(res.backend, "seq")) { /* against seq's count */
        pf_progress_step("verifying against seq");
        pf_graph_options seq = a.opt;
        seq.backend = "seq";
        pf_tc_result check;
        rc = pf_graph_tc(g, &seq, &check, &st);
        if (!rc && check.triangles != res.triangles)
            rc = pf_fail(&st, PF_E_VERIFY, "%s counted %lld triangles, seq %lld", res.backend,
                         (long long)res.triangles, (long long)check.triangles);
    }
    run.verified = a.verify && !rc;
    return finish_command(&a, a.json ? write_tc_json : write_tc_text, &run, g, t0, rc, &st);
}
