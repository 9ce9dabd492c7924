/* `portaflow solve` and `portaflow check`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/io.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "cli.h"
#include "cli_opts.h"

typedef struct solve_args {
    pf_solve_options opt;
    int print_flow, print_cut, json, verify;
    const char *path;
} solve_args;

enum { OPT_FLOW = 1, OPT_CUT, OPT_VERIFY };

static const pf_opt solve_options[] = {
    {.id = OPT_FLOW, .name = "flow", .help = "print one 'f U V FLOW' line per input arc"},
    {.id = OPT_CUT, .name = "cut",
     .help = "print one 'n ID' line per vertex on the source side of a minimum cut"},
    {.id = OPT_VERIFY, .name = "verify",
     .help = "check the answer (capacity, conservation, cut = value)"},
    {0},
};

static const pf_cmd_spec solve_spec = {
    .name = "solve",
    .synopsis = "[OPTIONS] [FILE|-]",
    .about = "Maximum flow of a DIMACS max-flow (or adjacency-matrix) network read from\n"
             "FILE or standard input. stdout: 'c' comments, one 's VALUE' line, then the\n"
             "f and n lines asked for; --json: one JSON object.\n",
    .options = solve_options,
    .shared = PF_OPTS_DEVICE | PF_OPTS_PROGRESS | PF_OPTS_JSON,
    .max_args = 1,
};

static int on_solve_option(void *ctx, int id, const char *arg)
{
    solve_args *a = ctx;
    (void)arg;
    if (id == OPT_FLOW)
        a->print_flow = 1;
    else if (id == OPT_CUT)
        a->print_cut = 1;
    else
        a->verify = 1;
    return PF_EXIT_OK;
}

static int parse_solve_args(int argc, char **argv, solve_args *a)
{
    memset(a, 0, sizeof *a);
    pf_solve_options_init(&a->opt);
    pf_opts_parsed p;
    int rc = pf_opts_parse(&solve_spec, argc, argv, on_solve_option, a, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    a->path = p.count ? p.args[0] : NULL;
    a->json = p.shared.json;
    a->opt.backend = p.shared.backend;
    a->opt.device_index = p.shared.device_index;
    a->opt.threads = p.shared.threads;
    a->opt.want_flow = a->print_flow || a->verify;
    a->opt.want_cut = a->print_cut || a->verify;
    a->opt.progress = pf_opts_progress_on(&p.shared);
    return PF_OPTS_GO_ON;
}

static void print_times_json(FILE *out, const pf_phase_times *t)
{
    fprintf(out,
            "{\"total_s\":%.6f,\"setup_s\":%.6f,\"upload_s\":%.6f,\"push_relabel_s\":%.6f,"
            "\"global_relabel_s\":%.6f,\"phase2_s\":%.6f,\"download_s\":%.6f}",
            t->total, t->setup, t->upload, t->push_relabel, t->global_relabel, t->phase2,
            t->download);
}

static void print_json(FILE *out, const solve_args *a, const pf_network *net,
                       const pf_solution *sol, double read_s)
{
    fprintf(out, "{\"value\":%lld,\"backend\":", (long long)sol->value);
    pf_cli_json_string(out, sol->backend);
    fputs(",\"device\":", out);
    pf_cli_json_string(out, sol->device);
    fprintf(out, ",\"vertices\":%lld,\"arcs\":%lld,\"read_s\":%.6f,\"solve_s\":%.6f,\"times\":",
            (long long)pf_network_vertices(net), (long long)pf_network_arcs(net), read_s,
            sol->times.total);
    print_times_json(out, &sol->times);
    fprintf(out, ",\"rounds\":%lld,\"global_relabels\":%lld,\"host_pushes\":%lld,\"device_bytes\":%llu",
            (long long)sol->pushes_rounds, (long long)sol->global_relabels,
            (long long)sol->host_pushes, (unsigned long long)sol->device_bytes);
    if (a->verify)
        fputs(",\"verified\":true", out);
    if (a->print_flow) {
        fputs(",\"flow\":[", out);
        for (int64_t i = 0; i < pf_network_arcs(net); i++)
            fprintf(out, i ? ",%lld" : "%lld", (long long)sol->arc_flow[i]);
        fputc(']', out);
    }
    if (a->print_cut) {
        fputs(",\"cut\":[", out);
        int first = 1;
        for (int64_t v = 0; v < pf_network_vertices(net); v++)
            if (sol->source_side[v]) {
                fprintf(out, first ? "%lld" : ",%lld", (long long)v + 1);
                first = 0;
            }
        fputc(']', out);
    }
    fputs("}\n", out);
}

static void print_dimacs(FILE *out, const solve_args *a, const pf_network *net,
                         const pf_solution *sol, double read_s)
{
    const pf_phase_times *t = &sol->times;
    fprintf(out, "c portaflow %s\nc backend %s\nc device %s\n", pf_version(), sol->backend,
            sol->device);
    fprintf(out, "c vertices %lld arcs %lld\nc read_s %.6f\nc solve_s %.6f\n",
            (long long)pf_network_vertices(net), (long long)pf_network_arcs(net), read_s,
            t->total);
    fprintf(out,
            "c times setup_s %.6f upload_s %.6f push_relabel_s %.6f global_relabel_s %.6f "
            "phase2_s %.6f download_s %.6f\n",
            t->setup, t->upload, t->push_relabel, t->global_relabel, t->phase2, t->download);
    fprintf(out, "c rounds %lld global_relabels %lld device_bytes %llu\n",
            (long long)sol->pushes_rounds, (long long)sol->global_relabels,
            (unsigned long long)sol->device_bytes);
    if (sol->host_pushes)
        fprintf(out, "c host_finish pushes %lld (phase 1 ended on the host's sequential engine)\n",
                (long long)sol->host_pushes);
    if (a->verify)
        fputs("c verify ok (capacity, conservation, value, cut = value)\n", out);
    fprintf(out, "s %lld\n", (long long)sol->value);
    if (a->print_flow)
        for (int64_t i = 0; i < pf_network_arcs(net); i++) {
            int64_t u, v;
            pf_network_arc(net, i, &u, &v, NULL);
            fprintf(out, "f %lld %lld %lld\n", (long long)u + 1, (long long)v + 1,
                    (long long)sol->arc_flow[i]);
        }
    if (a->print_cut)
        for (int64_t v = 0; v < pf_network_vertices(net); v++)
            if (sol->source_side[v])
                fprintf(out, "n %lld\n", (long long)v + 1);
}

int pf_cli_solve(int argc, char **argv)
{
    solve_args a;
    int rc = parse_solve_args(argc, argv, &a);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_status st;
    double t0 = pf_now();
    pf_network *net = pf_network_read(a.path, &st);
    if (!net)
        return pf_cli_error(&st);
    double read_s = pf_now() - t0;

    pf_solution sol;
    rc = pf_solve(net, &a.opt, &sol, &st);
    if (!rc && a.verify && pf_verify(net, sol.value, sol.arc_flow, sol.source_side, &st)) {
        fprintf(stderr, "portaflow: %s answer failed verification: %s\n", sol.backend,
                st.message);
        pf_solution_free(&sol);
        pf_network_free(net);
        return PF_EXIT_DEVICE;
    }
    if (rc) {
        pf_network_free(net);
        return pf_cli_error(&st);
    }
    /* Output only once everything succeeded: no partial results on stdout. */
    static char stdout_buffer[1 << 20];
    setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
    if (a.json)
        print_json(stdout, &a, net, &sol, read_s);
    else
        print_dimacs(stdout, &a, net, &sol, read_s);
    pf_solution_free(&sol);
    pf_network_free(net);
    /* A write error (stdout full or closed) is exit 4, found by main's check. */
    return PF_EXIT_OK;
}

static const pf_cmd_spec check_spec = {
    .name = "check",
    .synopsis = "[OPTIONS] GRAPH SOLUTION",
    .about = "Verifies a solution file (the output of solve --flow --cut) against GRAPH:\n"
             "capacity, conservation and value of its f lines, and that the capacity of\n"
             "its cut (n lines) equals the value. A wrong solution exits 2 (with --json\n"
             "also {\"ok\":false,...} on stdout); an unreadable file exits 2, stdout empty.\n",
    .shared = PF_OPTS_JSON,
    .max_args = 2,
};

static void print_check_json(const pf_solution_file *sol, int rc, const pf_status *st)
{
    printf("{\"ok\":%s,\"value\":%lld,\"flow_checked\":%s,\"cut_checked\":%s",
           rc ? "false" : "true", (long long)sol->value, sol->has_flow ? "true" : "false",
           sol->has_cut ? "true" : "false");
    if (rc) {
        printf(",\"error\":");
        pf_cli_json_string(stdout, st->message);
    }
    printf("}\n");
}

int pf_cli_check(int argc, char **argv)
{
    pf_opts_parsed p;
    int rc = pf_opts_parse(&check_spec, argc, argv, NULL, NULL, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    if (p.count != 2)
        return pf_opts_usage_error(&check_spec, "needs GRAPH and SOLUTION");
    const char *graph = p.args[0], *solution = p.args[1];
    pf_status st;
    pf_network *net = pf_network_read(graph, &st);
    if (!net)
        return pf_cli_error(&st);
    pf_solution_file sol = {0};
    rc = pf_solution_read(solution, net, &sol, &st);
    if (!rc && !sol.has_flow && !sol.has_cut)
        rc = pf_fail(&st, PF_E_INPUT, "%s: no f or n lines: nothing to check", solution);
    int read = rc == PF_OK;
    if (!rc)
        rc = pf_verify(net, sol.value, sol.has_flow ? sol.arc_flow : NULL,
                       sol.has_cut ? sol.source_side : NULL, &st);
    if (read && p.shared.json)
        print_check_json(&sol, rc, &st);
    else if (!rc)
        printf("c check ok: value %lld;%s%s\ns %lld\n", (long long)sol.value,
               sol.has_flow ? " flow: capacity, conservation and value hold;" : "",
               sol.has_cut ? " cut: capacity equals the value" : "", (long long)sol.value);
    pf_solution_file_free(&sol);
    pf_network_free(net);
    if (rc) {
        fprintf(stderr, "portaflow: check failed: %s\n", st.message);
        return PF_EXIT_INPUT;
    }
    return PF_EXIT_OK;
}
