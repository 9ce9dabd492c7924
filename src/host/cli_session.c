/* `portaflow session GRAPH [UPDATES|-]`: solves GRAPH, then reads batches
 * of updates (updates.h: cap, add, del, addv, source, sink, each batch
 * ended by `solve`) and solves again after each, warm, on one device kept
 * open; a batch ended by `bfs S` or `sssp S` is searched instead. Each
 * solve prints `c batch K`, timing lines and `s VALUE` (and f and n lines
 * with --flow and --cut), or one JSON object a line with --json. A bad
 * batch is reported as FILE:LINE (exit 2) and not applied. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/network.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../common/updates.h"
#include "cli.h"
#include "cli_input.h"
#include "cli_opts.h"

typedef struct session_args {
    pf_solve_options opt;
    int print_flow, print_cut, json, verify;
    int cold;           /* --cold: every batch solved from scratch (to compare) */
    const char *graph, *updates;
    pf_cli_input input;
} session_args;

enum { OPT_FLOW = 1, OPT_CUT, OPT_VERIFY, OPT_COLD };

static const pf_opt session_options[] = {
    {.id = OPT_FLOW, .name = "flow",
     .help = "print one 'f U V FLOW' line per arc after each solve (deleted arcs: 0)"},
    {.id = OPT_CUT, .name = "cut",
     .help = "print one 'n ID' line per vertex on the source side after each solve"},
    {.id = OPT_VERIFY, .name = "verify",
     .help = "check every answer (capacity, conservation, cut = value); a failure is exit 3"},
    {.id = OPT_COLD, .name = "cold",
     .help = "solve every batch from scratch (graph rebuilt, zero flow): what warm saves"},
    PF_CLI_INPUT_OPTIONS,
    {0},
};

static const pf_cmd_spec session_spec = {
    .name = "session",
    .synopsis = "[OPTIONS] GRAPH [UPDATES|-]",
    .about = "Solves GRAPH, then applies each batch of UPDATES (a file, or - for standard\n"
             "input, read batch by batch) and solves again from the last flow, with the\n"
             "device opened once. UPDATES lines (arcs numbered from 1 in input order, added\n"
             "arcs next; vertices numbered as in GRAPH): 'c ...', 'cap I C', 'add U V C',\n"
             "'del I', 'addv K', 'source S', 'sink T', and 'solve' ending each batch\n"
             "('bfs S' or 'sssp S' end one with a search from S of the graph as it is,\n"
             "capacities as lengths, instead of a solve).\n"
             "stdout per solve: 'c batch K', 'c' timing lines, 's VALUE' (then f and n\n"
             "lines asked for); per search: 's reached', 's depth' or 's max_distance',\n"
             "'s checksum'; --json: one JSON object per line. A bad line or batch:\n"
             "'FILE:LINE: what is wrong', exit 2, that batch not applied.\n",
    .options = session_options,
    .shared = PF_OPTS_DEVICE | PF_OPTS_JSON,
    .max_args = 2,
};

static int on_session_option(void *ctx, int id, const char *arg)
{
    session_args *a = ctx;
    int rc = pf_cli_input_option(&session_spec, &a->input, id, arg);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    if (id == OPT_FLOW)
        a->print_flow = 1;
    else if (id == OPT_CUT)
        a->print_cut = 1;
    else if (id == OPT_COLD)
        a->cold = 1;
    else
        a->verify = 1;
    return PF_EXIT_OK;
}

/* a, zeroed with the default options, filled from the arguments. */
static int parse_session_args(int argc, char **argv, session_args *a)
{
    pf_opts_parsed p;
    int rc = pf_opts_parse(&session_spec, argc, argv, on_session_option, a, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    if (!p.count)
        return pf_opts_usage_error(&session_spec, "a graph file is required (session GRAPH)");
    a->graph = p.args[0];
    a->updates = p.count > 1 ? p.args[1] : NULL;
    a->json = p.shared.json;
    pf_opts_take_device(&p.shared, &a->opt.backend, &a->opt.device_index, &a->opt.threads);
    a->opt.want_flow = a->print_flow || a->verify;
    a->opt.want_cut = a->print_cut || a->verify;
    a->opt.log = pf_cli_log;
    return PF_OPTS_GO_ON;
}

/* ---- one solve's output ----------------------------------------------- */

typedef struct batch_report {
    int64_t batch, updates;
    double apply_s;
    const pf_session_stats *stats;
    int64_t vertices, arcs;  /* the session's now */
    const pf_network *format; /* the input network: its scale and id base */
    const pf_network *now;    /* the network as it is now, where the arcs' ends
                                 are printed (--flow) or checked (--verify) */
} batch_report;

static void print_json(const session_args *a, const pf_solution *sol, const batch_report *r)
{
    const pf_network *net = r->format;
    int64_t base = net->zero_based_ids ? 0 : 1;
    const pf_phase_times *t = &sol->times;
    printf("{\"batch\":%lld,\"updates\":%lld,\"value\":", (long long)r->batch,
           (long long)r->updates);
    pf_cli_json_solved(stdout, net, sol);
    printf(",\"warm\":%s,\"cold_reason\":", r->stats->cold_reason[0] ? "false" : "true");
    pf_cli_json_string(stdout, r->stats->cold_reason);
    printf(",\"vertices\":%lld,\"arcs\":%lld,\"live_arcs\":%lld,\"apply_s\":%.6f,"
           "\"solve_s\":%.6f,\"upload_s\":%.6f,\"push_relabel_s\":%.6f,"
           "\"global_relabel_s\":%.6f,\"phase2_s\":%.6f,\"download_s\":%.6f,"
           "\"recompactions\":%lld,\"slots\":%lld,\"device_bytes\":%llu,\"host_bytes\":%llu",
           (long long)r->vertices, (long long)r->arcs,
           (long long)r->stats->live_arcs, r->apply_s, t->total, t->upload, t->push_relabel,
           t->global_relabel, t->phase2, t->download, (long long)r->stats->recompactions,
           (long long)r->stats->slots, (unsigned long long)r->stats->device_bytes,
           (unsigned long long)r->stats->host_bytes);
    if (a->verify)
        fputs(",\"verified\":true", stdout);
    if (a->print_flow) {
        fputs(",\"flow\":[", stdout);
        for (int64_t i = 0; i < r->arcs; i++) {
            if (i)
                fputc(',', stdout);
            pf_cli_print_amount(stdout, net, sol->arc_flow[i]);
        }
        fputc(']', stdout);
    }
    if (a->print_cut) {
        fputs(",\"cut\":[", stdout);
        int first = 1;
        for (int64_t v = 0; v < r->vertices; v++)
            if (sol->source_side[v]) {
                printf(first ? "%lld" : ",%lld", (long long)(v + base));
                first = 0;
            }
        fputc(']', stdout);
    }
    fputs("}\n", stdout);
}

static void print_lines(const session_args *a, const pf_solution *sol, const batch_report *r)
{
    const pf_network *net = r->format;
    int64_t base = net->zero_based_ids ? 0 : 1;
    const pf_phase_times *t = &sol->times;
    printf("c batch %lld updates %lld\n", (long long)r->batch, (long long)r->updates);
    if (r->batch == 0)
        printf("c backend %s\nc device %s\n", sol->backend, sol->device);
    if (r->stats->cold_reason[0])
        printf("c cold: %s\n", r->stats->cold_reason);
    printf("c vertices %lld arcs %lld live_arcs %lld\n", (long long)r->vertices,
           (long long)r->arcs, (long long)r->stats->live_arcs);
    printf("c apply_s %.6f solve_s %.6f upload_s %.6f push_relabel_s %.6f "
           "global_relabel_s %.6f phase2_s %.6f download_s %.6f\n",
           r->apply_s, t->total, t->upload, t->push_relabel, t->global_relabel, t->phase2,
           t->download);
    pf_cli_print_value(stdout, net, sol, a->verify);
    for (int64_t i = 0; a->print_flow && i < r->arcs; i++) {
        int64_t u, v;
        pf_network_arc(r->now, i, &u, &v, NULL);
        printf("f %lld %lld ", (long long)(u + base), (long long)(v + base));
        pf_cli_print_amount(stdout, net, sol->arc_flow[i]);
        fputc('\n', stdout);
    }
    for (int64_t v = 0; a->print_cut && v < r->vertices; v++)
        if (sol->source_side[v])
            printf("n %lld\n", (long long)(v + base));
}

/* Solves, verifies where asked, prints. The network as it now is is
 * built only where --flow prints its arcs or --verify checks them. */
static int solve_and_print(const session_args *a, pf_session *s, batch_report *r,
                           pf_status *st)
{
    pf_solution sol;
    int rc = pf_session_solve(s, &sol, st);
    if (rc)
        return pf_cli_error(st);
    pf_session_stats stats;
    pf_session_get_stats(s, &stats);
    r->stats = &stats;
    r->vertices = pf_session_vertices(s);
    r->arcs = pf_session_arcs(s);
    pf_network *now = NULL;
    if ((a->verify || a->print_flow) && !(now = pf_session_network(s, st))) {
        pf_solution_free(&sol);
        return pf_cli_error(st);
    }
    r->now = now;
    if (a->verify && pf_verify(now, sol.value, sol.arc_flow, sol.source_side, st)) {
        fprintf(stderr, "portaflow: batch %lld: %s answer failed verification: %s\n",
                (long long)r->batch, sol.backend, st->message);
        rc = PF_EXIT_DEVICE;
    } else {
        if (a->json)
            print_json(a, &sol, r);
        else
            print_lines(a, &sol, r);
        fflush(stdout); /* an interactive caller sees each answer as it comes */
    }
    pf_solution_free(&sol);
    pf_network_free(now);
    return rc;
}

/* A number of a search's summary: integers as integers. */
static void print_number(int real, double x)
{
    printf(real || fabs(x) >= 0x1p53 ? "%.17g" : "%.0f", x);
}

/* A search's last two numbers, depth (h: a BFS) or max_distance (d: an
 * SSSP), then the checksum: "s NAME VALUE" lines, or JSON members that
 * close the object. */
static void print_summary(int json, const pf_bfs_solution *h, const pf_sssp_solution *d)
{
    const char *open = json ? "\"" : "s ", *mid = json ? "\":" : " ", *sep = json ? "," : "\n";
    printf("%s%s%s", open, h ? "depth" : "max_distance", mid);
    if (h)
        printf("%d", h->depth);
    else
        print_number(d->real, d->max_distance);
    printf("%s%schecksum%s", sep, open, mid);
    if (h)
        printf("%lld", (long long)h->checksum);
    else
        print_number(d->real, d->checksum);
    fputs(json ? "}}\n" : "\n", stdout);
}

/* A `bfs S` or `sssp S` line: the search over the graph as it now is,
 * printed as `bfs --stats` and `sssp --stats` print theirs (one JSON
 * object with --json). The flow is left as it is. */
static int search_and_print(const session_args *a, pf_session *s, pf_update_reader *reader,
                            const pf_update_batch *b, const batch_report *r, pf_status *st)
{
    int64_t base = r->format->zero_based_ids ? 0 : 1;
    if (b->search_source >= pf_session_vertices(s)) {
        char where[512];
        fprintf(stderr, "portaflow: %s: source %lld outside %lld..%lld\n",
                pf_update_reader_where(reader, b, -1, where, sizeof where),
                (long long)(b->search_source + base), (long long)base,
                (long long)(pf_session_vertices(s) - 1 + base));
        return pf_cli_exit_code(PF_E_INPUT);
    }
    int bfs = b->end == PF_BATCH_BFS;
    pf_analytics_options aopt;
    pf_analytics_options_init(&aopt);
    aopt.threads = a->opt.threads;
    pf_bfs_solution h = {0};
    pf_sssp_solution d = {0};
    int rc = bfs ? pf_session_bfs(s, b->search_source, &aopt, &h, st)
                 : pf_session_sssp(s, b->search_source, &aopt, &d, st);
    if (rc)
        return pf_cli_error(st);
    const char *name = bfs ? "bfs" : "sssp";
    const char *backend = bfs ? h.backend : d.backend;
    const pf_analytics_times *t = bfs ? &h.times : &d.times;
    long long source = (long long)(b->search_source + base), reached = bfs ? h.reached : d.reached;
    if (a->json) {
        printf("{\"batch\":%lld,\"updates\":%lld,\"apply_s\":%.6f,\"%s\":{\"source\":%lld,"
               "\"backend\":",
               (long long)r->batch, (long long)r->updates, r->apply_s, name, source);
        pf_cli_json_string(stdout, backend);
        printf(",\"search_s\":%.6f,\"prepare_s\":%.6f,\"upload_s\":%.6f,\"kernel_s\":%.6f,"
               "\"download_s\":%.6f,\"reached\":%lld,",
               t->total, t->prepare, t->upload, t->kernel, t->download, reached);
        print_summary(1, bfs ? &h : NULL, &d);
    } else {
        printf("c batch %lld updates %lld\nc %s from %lld on %s\nc apply_s %.6f search_s %.6f "
               "prepare_s %.6f upload_s %.6f kernel_s %.6f download_s %.6f\ns reached %lld\n",
               (long long)r->batch, (long long)r->updates, name, source, backend, r->apply_s,
               t->total, t->prepare, t->upload, t->kernel, t->download, reached);
        print_summary(0, bfs ? &h : NULL, &d);
    }
    fflush(stdout);
    pf_bfs_solution_free(&h);
    pf_sssp_solution_free(&d);
    return PF_OK;
}

/* "FILE:LINE: what" for a batch the session refused: the update it names,
 * or the batch's `solve` line. */
static int report_refused(pf_update_reader *reader, const pf_update_batch *b, int64_t bad,
                          const pf_status *st)
{
    char where[512];
    const char *message = st->message;
    /* the library says "update K: ..."; the line says which update */
    if (!strncmp(message, "update ", 7)) {
        const char *colon = strchr(message, ':');
        if (colon && colon[1] == ' ')
            message = colon + 2;
    }
    int64_t k = bad >= 0 && bad < b->count ? bad : b->count - 1;
    if (k >= 0)
        pf_update_reader_where(reader, b, k, where, sizeof where);
    else
        snprintf(where, sizeof where, "%s", "updates");
    fprintf(stderr, "portaflow: %s: %s\n", where, message);
    return pf_cli_exit_code(st->code);
}

/* The arguments parsed, GRAPH read and its session opened: PF_OPTS_GO_ON
 * with *net and *s, else the exit status (nothing left to free). */
static int start_session(int argc, char **argv, session_args *a, pf_network **net,
                         pf_session **s, pf_status *st)
{
    memset(a, 0, sizeof *a);
    pf_solve_options_init(&a->opt);
    int rc = parse_session_args(argc, argv, a);
    if (rc != PF_OPTS_GO_ON) {
        pf_cli_input_free(&a->input);
        return rc;
    }
    *net = pf_cli_read_network(&a->input, a->graph, st);
    pf_cli_input_free(&a->input);
    if (!*net)
        return pf_cli_error(st);
    if (pf_session_open(*net, &a->opt, s, st)) {
        pf_network_free(*net);
        return pf_cli_error(st);
    }
    return PF_OPTS_GO_ON;
}

/* The first solve, then one after each batch of UPDATES (when given). */
static int run_batches(const session_args *a, const pf_network *net, pf_session *s,
                       pf_status *st)
{
    batch_report report = {.format = net};
    int rc = solve_and_print(a, s, &report, st);
    pf_update_reader *reader = NULL;
    if (!rc && a->updates && pf_update_reader_open(a->updates, net->zero_based_ids, &reader, st))
        rc = pf_cli_error(st);
    pf_update_batch batch;
    memset(&batch, 0, sizeof batch);
    while (!rc && reader) {
        int got = pf_update_reader_next(reader, &batch, st);
        if (got < 0 || (got != 0 && got != 1)) {
            rc = pf_cli_error(st);
            break;
        }
        if (got == 0)
            break;
        double t0 = pf_now();
        int64_t bad = -1;
        if (pf_session_apply(s, batch.items, batch.count, &bad, st)) {
            rc = report_refused(reader, &batch, bad, st);
            break;
        }
        if (a->cold && pf_session_restart(s, st)) {
            rc = pf_cli_error(st);
            break;
        }
        report = (batch_report){.batch = report.batch + 1, .updates = batch.count,
                                .apply_s = pf_now() - t0, .format = net};
        rc = batch.end == PF_BATCH_SOLVE ? solve_and_print(a, s, &report, st)
                                         : search_and_print(a, s, reader, &batch, &report, st);
    }
    pf_update_batch_free(&batch);
    pf_update_reader_close(reader);
    return rc;
}

int pf_cli_session(int argc, char **argv)
{
    session_args a;
    pf_network *net = NULL;
    pf_session *s = NULL;
    pf_status st;
    int rc = start_session(argc, argv, &a, &net, &s, &st);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    rc = run_batches(&a, net, s, &st);
    pf_session_close(s);
    pf_network_free(net);
    return rc;
}
