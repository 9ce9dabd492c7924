/* `portaflow solve` and `portaflow check`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/io.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "cli.h"

typedef struct solve_args {
    pf_solve_options opt;
    int print_flow, print_cut, json, verify, progress_flag; /* -1 auto, 0 off, 1 on */
    const char *path;
} solve_args;

static int parse_solve_args(int argc, char **argv, solve_args *a)
{
    memset(a, 0, sizeof *a);
    pf_solve_options_init(&a->opt);
    a->progress_flag = -1;
    pf_cli_device_args device = {.backend = &a->opt.backend,
                                 .device_index = &a->opt.device_index,
                                 .threads = &a->opt.threads};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int taken = pf_cli_device_option(argc, argv, &i, &device);
        if (taken < 0)
            return PF_EXIT_USAGE;
        if (taken) {
            continue;
        } else if (!strcmp(arg, "--flow")) {
            a->print_flow = 1;
        } else if (!strcmp(arg, "--cut")) {
            a->print_cut = 1;
        } else if (!strcmp(arg, "--json")) {
            a->json = 1;
        } else if (!strcmp(arg, "--verify")) {
            a->verify = 1;
        } else if (!strcmp(arg, "--progress")) {
            a->progress_flag = 1;
        } else if (!strcmp(arg, "--no-progress")) {
            a->progress_flag = 0;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return pf_cli_usage_error("solve: unknown or incomplete option '%s'", arg);
        } else if (!a->path) {
            a->path = arg;
        } else {
            return pf_cli_usage_error("solve: more than one input file given");
        }
    }
    if (pf_cli_check_backend(a->opt.backend))
        return PF_EXIT_USAGE;
    a->opt.want_flow = a->print_flow || a->verify;
    a->opt.want_cut = a->print_cut || a->verify;
    a->opt.progress = a->progress_flag == 1 || (a->progress_flag == -1 && isatty(2));
    return PF_EXIT_OK;
}

static void print_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, out);
    }
    fputc('"', out);
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
    print_json_string(out, sol->backend);
    fputs(",\"device\":", out);
    print_json_string(out, sol->device);
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
    if (rc)
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
    if (fflush(stdout) != 0) {
        perror("portaflow: writing the output");
        return PF_EXIT_INPUT;
    }
    return PF_EXIT_OK;
}

int pf_cli_check(int argc, char **argv)
{
    if (argc != 3)
        return pf_cli_usage_error("check takes GRAPH SOLUTION");
    pf_status st;
    pf_network *net = pf_network_read(argv[1], &st);
    if (!net)
        return pf_cli_error(&st);
    pf_solution_file sol = {0};
    int rc = pf_solution_read(argv[2], net, &sol, &st);
    if (!rc && !sol.has_flow && !sol.has_cut)
        rc = pf_fail(&st, PF_E_INPUT, "%s: no f or n lines: nothing to check", argv[2]);
    if (!rc)
        rc = pf_verify(net, sol.value, sol.has_flow ? sol.arc_flow : NULL,
                       sol.has_cut ? sol.source_side : NULL, &st);
    if (!rc)
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
