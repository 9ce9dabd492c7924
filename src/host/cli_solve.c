/* `portaflow solve` and `portaflow check`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/io.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "cli.h"
#include "cli_input.h"
#include "cli_opts.h"
#include "hybrid.h"
#include "../common/progress.h"

typedef struct solve_args {
    pf_solve_options opt;
    int print_flow, print_cut, json, verify;
    int sink_side;      /* --cut-side sink: the n lines list the sink side */
    int print_cut_arcs; /* --cut-arcs */
    const char *path;
    pf_cli_input input;
} solve_args;

enum { OPT_FLOW = 1, OPT_CUT, OPT_CUT_SIDE, OPT_CUT_ARCS, OPT_VERIFY, OPT_HYBRID, OPT_METHOD };

static const pf_opt solve_options[] = {
    {.id = OPT_FLOW, .name = "flow", .help = "print one 'f U V FLOW' line per input arc"},
    {.id = OPT_CUT, .name = "cut",
     .help = "print one 'n ID' line per vertex on the source side of a minimum cut"},
    {.id = OPT_CUT_SIDE, .name = "cut-side", .arg = "SIDE",
     .help = "source (default) or sink: the side --cut lists (implies --cut)"},
    {.id = OPT_CUT_ARCS, .name = "cut-arcs",
     .help = "print one 'x U V CAP' line per arc from the source to the sink side"},
    {.id = OPT_VERIFY, .name = "verify",
     .help = "check the answer (capacity, conservation, cut = value)"},
    {.id = OPT_HYBRID, .name = "hybrid", .arg = "MODE",
     .help = "auto (default: off, or $PORTAFLOW_HYBRID), on or off: the backend with the "
             "host's engines"},
    {.id = OPT_METHOD, .name = "method", .arg = "NAME",
     .help = "auto (default), push-relabel or bk (Boykov-Kolmogorov, seq only; auto takes it "
             "on segmentation-shaped networks)"},
    PF_CLI_INPUT_OPTIONS,
    {0},
};

static const pf_cmd_spec solve_spec = {
    .name = "solve",
    .synopsis = "[OPTIONS] [FILE|-]",
    .about = "Maximum flow of a network read from FILE or standard input: DIMACS max-flow,\n"
             "an edge list (U V CAP lines), Matrix Market or an adjacency matrix, chosen by\n"
             "content, gzip-compressed or not (the README's formats table). Several sources\n"
             "or sinks (repeated n lines or options) give the flow from all to all.\n"
             "Capacities may be real: solved exactly in fixed point, with a 'c scale' line.\n"
             "stdout: 'c' comments, one 's VALUE' line, then the f and n lines asked for;\n"
             "--json: one JSON object.\n",
    .options = solve_options,
    .shared = PF_OPTS_DEVICE | PF_OPTS_PROGRESS | PF_OPTS_JSON,
    .max_args = 1,
};

static int on_solve_option(void *ctx, int id, const char *arg)
{
    solve_args *a = ctx;
    int rc = pf_cli_input_option(&solve_spec, &a->input, id, arg);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    switch (id) {
    case OPT_FLOW:
        a->print_flow = 1;
        break;
    case OPT_CUT:
        a->print_cut = 1;
        break;
    case OPT_CUT_SIDE:
        if (strcmp(arg, "source") && strcmp(arg, "sink"))
            return pf_opts_usage_error(&solve_spec, "--cut-side takes source or sink, not '%s'",
                                       arg);
        a->sink_side = !strcmp(arg, "sink");
        a->print_cut = 1;
        break;
    case OPT_CUT_ARCS:
        a->print_cut_arcs = 1;
        break;
    case OPT_HYBRID:
        if (pf_cli_hybrid_mode(arg, &a->opt.hybrid))
            return pf_opts_usage_error(&solve_spec, "--hybrid takes auto, on or off, not '%s'",
                                       arg);
        break;
    case OPT_METHOD:
        if (!strcmp(arg, "auto"))
            a->opt.method = PF_METHOD_AUTO;
        else if (!strcmp(arg, "push-relabel"))
            a->opt.method = PF_METHOD_PUSH_RELABEL;
        else if (!strcmp(arg, "bk") || !strcmp(arg, "boykov-kolmogorov"))
            a->opt.method = PF_METHOD_BOYKOV_KOLMOGOROV;
        else
            return pf_opts_usage_error(&solve_spec,
                                       "--method takes auto, push-relabel or bk, not '%s'", arg);
        break;
    default:
        a->verify = 1;
        break;
    }
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
    pf_opts_take_device(&p.shared, &a->opt.backend, &a->opt.device_index, &a->opt.threads);
    a->opt.want_flow = a->print_flow || a->verify;
    a->opt.want_cut = a->print_cut || a->print_cut_arcs || a->verify;
    a->opt.progress = pf_opts_progress_mode(&p.shared);
    a->opt.log = pf_cli_log;
    return PF_OPTS_GO_ON;
}

/* Whether --cut lists vertex v: on the source side, or the sink side. */
static int on_printed_side(const solve_args *a, const pf_solution *sol, int64_t v)
{
    return (sol->source_side[v] != 0) != a->sink_side;
}

/* Whether input arc i goes from the source side to the sink side of the
 * cut (such arcs are saturated by a maximum flow); its ends and capacity. */
static int cut_arc(const pf_network *net, const pf_solution *sol, int64_t i, int64_t *u,
                   int64_t *v, int64_t *cap)
{
    pf_network_arc(net, i, u, v, cap);
    return sol->source_side[*u] && !sol->source_side[*v];
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
    const int64_t base = net->zero_based_ids ? 0 : 1; /* ids as the file numbers them */
    fputs("{\"value\":", out);
    pf_cli_json_solved(out, net, sol);
    fputs(",\"method\":", out);
    pf_cli_json_string(out, sol->method);
    fprintf(out, ",\"vertices\":%lld,\"arcs\":%lld,\"read_s\":%.6f,\"solve_s\":%.6f,\"times\":",
            (long long)pf_network_vertices(net), (long long)pf_network_arcs(net), read_s,
            sol->times.total);
    print_times_json(out, &sol->times);
    fprintf(out, ",\"rounds\":%lld,\"global_relabels\":%lld,\"host_pushes\":%lld,\"device_bytes\":%llu",
            (long long)sol->pushes_rounds, (long long)sol->global_relabels,
            (long long)sol->host_pushes, (unsigned long long)sol->device_bytes);
    if (sol->hybrid) {
        fputs(",\"hybrid\":true,\"switches\":[", out);
        for (int64_t i = 0; i < sol->switch_count; i++)
            fprintf(out, "%s{\"time_s\":%.6f,\"to\":\"%s\",\"active\":%lld}", i ? "," : "",
                    sol->switches[i].time, sol->switches[i].to_device ? "device" : "host",
                    (long long)sol->switches[i].active);
        fputc(']', out);
    }
    if (a->verify)
        fputs(",\"verified\":true", out);
    if (a->print_flow) {
        fputs(",\"flow\":[", out);
        for (int64_t i = 0; i < pf_network_arcs(net); i++) {
            if (i)
                fputc(',', out);
            pf_cli_print_amount(out, net, sol->arc_flow[i]);
        }
        fputc(']', out);
    }
    if (a->print_cut) {
        fprintf(out, ",\"cut_side\":\"%s\",\"cut\":[", a->sink_side ? "sink" : "source");
        int first = 1;
        for (int64_t v = 0; v < pf_network_vertices(net); v++)
            if (on_printed_side(a, sol, v)) {
                fprintf(out, first ? "%lld" : ",%lld", (long long)(v + base));
                first = 0;
            }
        fputc(']', out);
    }
    if (a->print_cut_arcs) {
        fputs(",\"cut_arcs\":[", out);
        int first = 1;
        for (int64_t i = 0; i < pf_network_arcs(net); i++) {
            int64_t u, v, cap;
            if (!cut_arc(net, sol, i, &u, &v, &cap))
                continue;
            fprintf(out, "%s[%lld,%lld,", first ? "" : ",", (long long)(u + base),
                    (long long)(v + base));
            pf_cli_print_amount(out, net, cap);
            fputc(']', out);
            first = 0;
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

static void print_dimacs(FILE *out, const solve_args *a, const pf_network *net,
                         const pf_solution *sol, double read_s)
{
    const int64_t base = net->zero_based_ids ? 0 : 1; /* ids as the file numbers them */
    const pf_phase_times *t = &sol->times;
    fprintf(out, "c portaflow %s\nc backend %s\nc device %s\nc method %s\n", pf_version(),
            sol->backend, sol->device, sol->method);
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
    if (sol->hybrid)
        fprintf(out, "c hybrid switches %lld host_pushes %lld\n", (long long)sol->switch_count,
                (long long)sol->host_pushes);
    pf_cli_print_value(out, net, sol, a->verify);
    int real = pf_network_scale(net, NULL, NULL);
    if (a->print_flow)
        for (int64_t i = 0; i < pf_network_arcs(net); i++) {
            int64_t u, v;
            pf_network_arc(net, i, &u, &v, NULL);
            if (real) {
                fprintf(out, "f %lld %lld ", (long long)(u + base), (long long)(v + base));
                pf_cli_print_amount(out, net, sol->arc_flow[i]);
                fputc('\n', out);
            } else { /* the fast path for the common case */
                fprintf(out, "f %lld %lld %lld\n", (long long)(u + base), (long long)(v + base),
                        (long long)sol->arc_flow[i]);
            }
        }
    if (a->print_cut && a->sink_side)
        fputs("c cut side sink: the n lines list the sink side\n", out);
    if (a->print_cut)
        for (int64_t v = 0; v < pf_network_vertices(net); v++)
            if (on_printed_side(a, sol, v))
                fprintf(out, "n %lld\n", (long long)(v + base));
    if (a->print_cut_arcs)
        for (int64_t i = 0; i < pf_network_arcs(net); i++) {
            int64_t u, v, cap;
            if (!cut_arc(net, sol, i, &u, &v, &cap))
                continue;
            fprintf(out, "x %lld %lld ", (long long)(u + base), (long long)(v + base));
            pf_cli_print_amount(out, net, cap);
            fputc('\n', out);
        }
}

int pf_cli_solve(int argc, char **argv)
{
    solve_args a;
    int rc = parse_solve_args(argc, argv, &a);
    if (rc != PF_OPTS_GO_ON) {
        pf_cli_input_free(&a.input);
        return rc;
    }
    pf_status st;
    pf_progress_open(a.opt.progress, 1, "solve");
    pf_progress_step("reading %s", a.path && strcmp(a.path, "-") ? a.path : "standard input");
    double t0 = pf_now();
    /* The hybrid's device opens while the input is read, and auto's GPU
     * probes run, where the input is not too small for a GPU. */
    pf_solve_prestart_sized(&a.opt, pf_io_peek_dimacs_vertices(a.path));
    pf_network *net = pf_cli_read_network(&a.input, a.path, &st);
    pf_cli_input_free(&a.input);
    if (!net) {
        pf_solve_prestart_cancel();
        return pf_cli_error(&st);
    }
    double read_s = pf_now() - t0;

    pf_solution sol;
    pf_progress_step("choosing a backend, building the residual graph");
    rc = pf_solve(net, &a.opt, &sol, &st);
    pf_solve_prestart_cancel();
    if (!rc && a.verify)
        pf_progress_step("verifying the answer (capacity, conservation, cut = value)");
    if (!rc && a.verify && pf_verify(net, sol.value, sol.arc_flow, sol.source_side, &st)) {
        pf_progress_clear_line();
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
    pf_progress_step("writing the answer");
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

static const pf_opt check_options[] = {
    PF_CLI_INPUT_OPTIONS,
    {0},
};

static const pf_cmd_spec check_spec = {
    .name = "check",
    .synopsis = "[OPTIONS] GRAPH SOLUTION",
    .about = "Verifies a solution file (the output of solve --flow --cut) against GRAPH:\n"
             "capacity, conservation and value of its f lines, and that the capacity of\n"
             "its cut (n lines) equals the value. A wrong solution exits 2 (with --json\n"
             "also {\"ok\":false,...} on stdout); an unreadable file exits 2, stdout empty.\n"
             "GRAPH is read as solve reads it (same options); with real capacities the\n"
             "solution's amounts are in the input's units, as solve prints them.\n",
    .options = check_options,
    .shared = PF_OPTS_JSON | PF_OPTS_PROGRESS,
    .max_args = 2,
};

static void print_check_json(const pf_network *net, const pf_solution_file *sol, int rc,
                             const pf_status *st)
{
    printf("{\"ok\":%s,\"value\":", rc ? "false" : "true");
    pf_cli_print_amount(stdout, net, sol->value);
    pf_cli_print_scale(stdout, net, 1);
    printf(",\"flow_checked\":%s,\"cut_checked\":%s", sol->has_flow ? "true" : "false",
           sol->has_cut ? "true" : "false");
    if (rc) {
        printf(",\"error\":");
        pf_cli_json_string(stdout, st->message);
    }
    printf("}\n");
}

static int on_check_option(void *ctx, int id, const char *arg)
{
    return pf_cli_input_option(&check_spec, ctx, id, arg);
}

int pf_cli_check(int argc, char **argv)
{
    pf_opts_parsed p;
    pf_cli_input input = {0};
    int rc = pf_opts_parse(&check_spec, argc, argv, on_check_option, &input, &p);
    if (rc == PF_OPTS_GO_ON && p.count != 2)
        rc = pf_opts_usage_error(&check_spec, "needs GRAPH and SOLUTION");
    if (rc != PF_OPTS_GO_ON) {
        pf_cli_input_free(&input);
        return rc;
    }
    const char *graph = p.args[0], *solution = p.args[1];
    pf_status st;
    pf_progress_open(pf_opts_progress_mode(&p.shared), 1, "check");
    pf_progress_step("reading %s", graph);
    pf_network *net = pf_cli_read_network(&input, graph, &st);
    pf_cli_input_free(&input);
    if (!net)
        return pf_cli_error(&st);
    pf_solution_file sol = {0};
    pf_progress_step("reading %s", solution);
    rc = pf_solution_read(solution, net, &sol, &st);
    if (!rc && !sol.has_flow && !sol.has_cut)
        rc = pf_fail(&st, PF_E_INPUT, "%s: no f or n lines: nothing to check", solution);
    int read = rc == PF_OK;
    pf_progress_step("verifying the solution");
    if (!rc)
        rc = pf_verify(net, sol.value, sol.has_flow ? sol.arc_flow : NULL,
                       sol.has_cut ? sol.source_side : NULL, &st);
    if (read && p.shared.json) {
        print_check_json(net, &sol, rc, &st);
    } else if (!rc) {
        char value[64];
        pf_amount_format(net, sol.value, value, sizeof value);
        printf("c check ok: value %s;%s%s\n", value,
               sol.has_flow ? " flow: capacity, conservation and value hold;" : "",
               sol.has_cut ? " cut: capacity equals the value" : "");
        pf_cli_print_scale(stdout, net, 0);
        printf("s %s\n", value);
    }
    pf_solution_file_free(&sol);
    pf_network_free(net);
    if (rc) {
        pf_progress_clear_line();
        fprintf(stderr, "portaflow: check failed: %s\n", st.message);
        return PF_EXIT_INPUT;
    }
    return PF_EXIT_OK;
}
