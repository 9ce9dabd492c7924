/* portaflow: entry point and subcommand dispatch. */
#include "cli.h"
#include "cli_opts.h"
#include "graph.h"
#include "../common/knobs.h"
#include "../common/progress.h"
#include "../common/timer.h"
#include "apsp.h"
#include "registry.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: portaflow COMMAND [OPTIONS] [ARGUMENTS]\n"
    "\n"
    "  solve     maximum flow and minimum cut of a network (DIMACS, matrix)\n"
    "  compare   every available backend and seq on one input, verified, one table\n"
    "  demo      compare on a built-in instance (RLG 256x256, seed 1)\n"
    "  session   solve a network, then again after each batch of updates (warm)\n"
    "  check     verify a solution file against its network\n"
    "  gen       write a benchmark instance (rmf, rlg, ac, ak, grid2d, grid3d,\n"
    "            random; sp for shortest paths; kron, road for bfs/sssp/tc)\n"
    "  apsp      all-pairs shortest paths (blocked Floyd-Warshall)\n"
    "  path      shortest paths between given vertex pairs, from one APSP solve\n"
    "  bfs       hop distances (and parents) from one source\n"
    "  sssp      shortest-path distances from one source\n"
    "  tc        triangles of the undirected graph\n"
    "  backends  list every backend and device found, or why none was\n"
    "  --help, --version\n"
    "\n"
    "portaflow COMMAND --help (or -h) lists that command's options. Common ones:\n"
    "-b/--backend, --device, -t/--threads, -o/--out FILE, --json, --progress;\n"
    "solve --hybrid auto|on|off: the backend with the host engine (He & Hong);\n"
    "solve --method auto|push-relabel|bk: Boykov-Kolmogorov on seq (segmentations).\n"
    "--opt=value and --opt value both work, and options may follow the file.\n"
    "Environment: PORTAFLOW_BACKEND overrides 'auto'; PORTAFLOW_MEMORY_LIMIT=BYTES\n"
    "replaces the available-memory probe; portaflow backends --knobs lists every\n"
    "tuning variable (docs/KNOBS.md).\n"
    "Exit status: 0 ok, 1 usage, 2 bad input, 3 backend/device failure or not\n"
    "enough memory, 4 output error (writing stdout or an output file failed).\n";

static const pf_opt backends_options[] = {
    {.id = PF_CLI_KNOBS_LIST, .name = "knobs",
     .help = "list the tuning variables instead: value (set or default), default, range, meaning"},
    {.id = PF_CLI_KNOBS_DOC, .name = "knobs-doc",
     .help = "print the tuning variables' table as docs/KNOBS.md holds it (Markdown)"},
    {0},
};

static const pf_cmd_spec backends_spec = {
    .name = "backends",
    .synopsis = "[OPTIONS]",
    .about = "Lists every backend and device found, or why none was, and the order\n"
             "`auto` tries for solve and apsp (with -t, for that many threads).\n",
    .options = backends_options,
    .shared = PF_OPTS_JSON | PF_OPTS_PROGRESS | PF_OPTS_THREADS,
};

static int on_backends_option(void *ctx, int id, const char *arg)
{
    (void)arg;
    *(int *)ctx = id;
    return 0;
}

/* The max-flow widths of a device (pf_device_desc.maxflow_bits): "32+64". */
static const char *maxflow_widths(int bits)
{
    return bits == (PF_MAXFLOW_32 | PF_MAXFLOW_64) ? "32+64"
           : bits == PF_MAXFLOW_32                 ? "32"
           : bits == PF_MAXFLOW_64                 ? "64"
                                                   : "none";
}

/* One row per device; a device that does not run everything gets a line
 * under it saying what it leaves out and why. */
static void print_backends_table(const pf_device_desc *descs, int count, char *why)
{
    printf("%-8s %-3s %-4s %-48s %-24s %5s %10s %10s %-8s\n", "backend", "dev", "kind", "name",
           "vendor", "units", "mem_MiB", "maxbuf_MiB", "maxflow");
    for (int i = 0; i < count; i++) {
        char mem[24] = "", max_alloc[24] = ""; /* blank where the device has no own memory */
        if (descs[i].global_mem)
            snprintf(mem, sizeof mem, "%llu", (unsigned long long)(descs[i].global_mem >> 20));
        if (descs[i].max_alloc)
            snprintf(max_alloc, sizeof max_alloc, "%llu",
                     (unsigned long long)(descs[i].max_alloc >> 20));
        printf("%-8s %-3d %-4s %-48.48s %-24.24s %5d %10s %10s %-8s\n", descs[i].backend,
               descs[i].index, descs[i].kind, descs[i].name, descs[i].vendor,
               descs[i].compute_units, mem, max_alloc, maxflow_widths(descs[i].maxflow_bits));
        if (descs[i].limits[0])
            printf("             runs apsp (every type); %s\n", descs[i].limits);
    }
    if (why[0]) {
        printf("\nnot available:\n");
        for (char *line = strtok(why, "\n"); line; line = strtok(NULL, "\n"))
            printf("  %s\n", line);
    }
}

static void print_backend_json(const char *backend, int index, const char *kind,
                               const char *name, const char *vendor, int units,
                               unsigned long long mem, unsigned long long max_alloc,
                               int maxflow_bits, int fp64, const char *limits)
{
    printf("{\"backend\":");
    pf_cli_json_string(stdout, backend);
    printf(",\"index\":%d,\"kind\":", index);
    pf_cli_json_string(stdout, kind);
    printf(",\"name\":");
    pf_cli_json_string(stdout, name);
    printf(",\"vendor\":");
    pf_cli_json_string(stdout, vendor);
    printf(",\"compute_units\":%d,\"global_mem_bytes\":%llu,\"max_alloc_bytes\":%llu", units,
           mem, max_alloc);
    printf(",\"maxflow_bits\":[%s%s%s],\"fp64\":%s,\"limits\":",
           maxflow_bits & PF_MAXFLOW_32 ? "32" : "",
           maxflow_bits == (PF_MAXFLOW_32 | PF_MAXFLOW_64) ? "," : "",
           maxflow_bits & PF_MAXFLOW_64 ? "64" : "", fp64 ? "true" : "false");
    pf_cli_json_string(stdout, limits);
    printf("}");
}

/* {"devices":[...],"unavailable":["why", ...]}: seq (the host, one
 * thread) is always a device. */
static void print_backends_json(const pf_device_desc *descs, int count, char *why)
{
    printf("{\"devices\":[");
    for (int i = 0; i < count; i++) {
        print_backend_json(descs[i].backend, descs[i].index, descs[i].kind, descs[i].name,
                           descs[i].vendor, descs[i].compute_units,
                           (unsigned long long)descs[i].global_mem,
                           (unsigned long long)descs[i].max_alloc, descs[i].maxflow_bits,
                           descs[i].fp64, descs[i].limits);
        if (i + 1 < count)
            fputc(',', stdout);
    }
    printf("],\"unavailable\":[");
    int first = 1;
    for (char *line = strtok(why, "\n"); line; line = strtok(NULL, "\n")) {
        if (!first)
            fputc(',', stdout);
        pf_cli_json_string(stdout, line);
        first = 0;
    }
    printf("]");
}

/* What `auto` picks, per command, and why it passes over the others. */
typedef struct auto_choice {
    const char *command;
    char order[128];
    char why[1024];
} auto_choice;

enum { AUTO_COMMANDS = 3 };

static void explain_auto(auto_choice choices[AUTO_COMMANDS], int threads)
{
    pf_apsp_options apsp;
    pf_apsp_options_init(&apsp);
    choices[0].command = "solve";
    pf_backend_auto_explain(PF_WORK_MAXFLOW, threads, NULL, NULL, choices[0].order,
                            sizeof choices[0].order, choices[0].why, sizeof choices[0].why);
    choices[1].command = "apsp";
    pf_backend_auto_explain(PF_WORK_APSP, threads, pf_apsp_walk_runs, &apsp, choices[1].order,
                            sizeof choices[1].order, choices[1].why, sizeof choices[1].why);
    choices[2].command = "bfs"; /* and sssp, tc */
    pf_backend_auto_explain(PF_WORK_GRAPH, threads, pf_graph_runs, NULL, choices[2].order,
                            sizeof choices[2].order, choices[2].why, sizeof choices[2].why);
}

static void print_auto_table(auto_choice choices[AUTO_COMMANDS])
{
    printf("\nauto tries, in order:\n");
    for (int c = 0; c < AUTO_COMMANDS; c++) {
        printf("  %-6s %s\n", choices[c].command, choices[c].order);
        if (c == 0 && pf_knobs()->gpu_min_vertices > 0)
            printf("           (no GPU for a network of fewer than %lld vertices: "
                   "PORTAFLOW_GPU_MIN_VERTICES)\n",
                   (long long)pf_knobs()->gpu_min_vertices);
        for (char *line = strtok(choices[c].why, "\n"); line; line = strtok(NULL, "\n"))
            printf("           passed over %s\n", line);
    }
}

/* ,"auto":{"solve":{"order":[...],"passed_over":[...]},...} */
static void print_auto_json(auto_choice choices[AUTO_COMMANDS])
{
    printf(",\"auto\":{");
    for (int c = 0; c < AUTO_COMMANDS; c++) {
        printf("%s\"%s\":{\"order\":[", c ? "," : "", choices[c].command);
        int first = 1;
        for (char *name = strtok(choices[c].order, ", "); name; name = strtok(NULL, ", ")) {
            printf(first ? "" : ",");
            pf_cli_json_string(stdout, name);
            first = 0;
        }
        printf("],\"passed_over\":[");
        first = 1;
        for (char *line = strtok(choices[c].why, "\n"); line; line = strtok(NULL, "\n")) {
            printf(first ? "" : ",");
            pf_cli_json_string(stdout, line);
            first = 0;
        }
        printf("]}");
    }
    printf("}");
}

int pf_cli_backends(int argc, char **argv)
{
    pf_opts_parsed parsed;
    int knobs = 0;
    int rc = pf_opts_parse(&backends_spec, argc, argv, on_backends_option, &knobs, &parsed);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    if (knobs)
        return pf_cli_knobs(knobs, parsed.shared.json);
    pf_progress_open(pf_opts_progress_mode(&parsed.shared), 1, "backends");
    pf_progress_step("probing every backend for devices");
    pf_device_desc descs[64];
    char why[2048];
    int count = pf_list_devices(descs, 64, why, sizeof why);
    auto_choice choices[AUTO_COMMANDS];
    explain_auto(choices, parsed.shared.threads);
    pf_progress_close();
    if (parsed.shared.json) {
        print_backends_json(descs, count, why);
        print_auto_json(choices);
        printf("}\n");
    } else {
        print_backends_table(descs, count, why);
        print_auto_table(choices);
    }
    return PF_EXIT_OK;
}

/* Every command's output checked in one place: what is still buffered is
 * flushed and stdout closed; a failure is exit 4 (with a message) unless
 * the command had already failed and said why. */
static int finish_stdout(const char *cmd, int rc)
{
    errno = 0;
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int saved = errno; /* 0: an earlier write failed, its errno is gone */
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed || rc != PF_EXIT_OK) /* a failed command said why already */
        return rc;
    fprintf(stderr, "portaflow: %s: writing standard output failed%s%s\n", cmd,
            saved ? ": " : "", saved ? strerror(saved) : "");
    return PF_EXIT_OUTPUT;
}

int main(int argc, char **argv)
{
    pf_cli_detach_background();
    if (argc < 2)
        return pf_cli_usage_error("a command is required");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage_text, stdout);
        return finish_stdout(cmd, PF_EXIT_OK);
    }
    if (!strcmp(cmd, "--version")) {
        printf("portaflow %s\n", pf_version());
        return finish_stdout(cmd, PF_EXIT_OK);
    }
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"solve", pf_cli_solve}, {"compare", pf_cli_compare}, {"demo", pf_cli_demo},
        {"check", pf_cli_check}, {"gen", pf_cli_gen},         {"backends", pf_cli_backends},
        {"apsp", pf_cli_apsp},
        {"path", pf_cli_path},
        {"bfs", pf_cli_bfs},     {"sssp", pf_cli_sssp},       {"tc", pf_cli_tc},
        {"session", pf_cli_session},
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(cmd, commands[i].name)) {
            pf_cli_report_knobs();
            double t_start = pf_now();
            int rc = commands[i].run(argc - 1, argv + 1);
            pf_progress_close(); /* the line off the terminal before the last word */
            rc = finish_stdout(cmd, rc);
            if (pf_knobs()->trace) /* what is left of a process's wall is its start and exit */
                fprintf(stderr, "portaflow trace: %s done %.4f s after it began\n", cmd,
                        pf_now() - t_start);
            pf_cli_exit_now_if_detached(rc);
            return rc;
        }
    return pf_cli_usage_error("unknown command '%s'", cmd);
}
