/* `portaflow path`: shortest paths between given vertex pairs, from one
 * all-pairs solve with next hops (pf_apsp). Per pair, text:
 *   path 1 3 4 2
 *   c -2 + 2 + -1 = -1
 *   cost -1
 * or "no path"; --json gives one object with every pair. The pairs are
 * read and checked before anything is solved or printed, so bad input
 * leaves no partial output. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
#include "../common/wgraph.h"
#include "apsp.h"
#include "cli.h"
#include "cli_opts.h"

typedef struct path_args {
    pf_apsp_options opt;
    int json;
    const char *graph_path;
    const char *pairs_path; /* NULL or "-": stdin */
} path_args;

typedef struct pair_list {
    int32_t (*uv)[2]; /* 0-based */
    int64_t count, cap;
} pair_list;

static const pf_cmd_spec path_spec = {
    .name = "path",
    .synopsis = "[OPTIONS] GRAPH [PAIRS|-]",
    .about = "Shortest paths between the 'U V' pairs (1-based, one a line, '#' comments)\n"
             "read from PAIRS or stdin, from one all-pairs solve with next hops. Per pair:\n"
             "'path U ... V', the sum of its arcs on a 'c' line and 'cost C', or 'no path'.\n"
             "A negative cycle exits 2 naming it, as apsp does.\n",
    .shared = PF_OPTS_DEVICE | PF_OPTS_JSON,
    .max_args = 2,
};

static int parse_path_args(int argc, char **argv, path_args *a)
{
    memset(a, 0, sizeof *a);
    pf_apsp_options_init(&a->opt);
    a->opt.want_paths = 1;
    pf_opts_parsed p;
    int rc = pf_opts_parse(&path_spec, argc, argv, NULL, a, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_opts_take_device(&p.shared, &a->opt.backend, &a->opt.device_index, &a->opt.threads);
    a->opt.log = pf_cli_log;
    a->json = p.shared.json;
    if (!p.count)
        return pf_opts_usage_error(&path_spec, "a graph file is required (path GRAPH [PAIRS|-])");
    a->graph_path = p.args[0];
    a->pairs_path = p.count > 1 ? p.args[1] : NULL;
    int graph_stdin = !strcmp(a->graph_path, "-");
    int pairs_stdin = !a->pairs_path || !strcmp(a->pairs_path, "-");
    if (graph_stdin && pairs_stdin)
        return pf_opts_usage_error(&path_spec, "the graph and the pairs cannot both come from stdin");
    return PF_OPTS_GO_ON;
}

static int pairs_push(pair_list *p, int32_t u, int32_t v, pf_status *st)
{
    if (p->count == p->cap) {
        int64_t cap = p->cap ? 2 * p->cap : 64;
        void *grown = realloc(p->uv, (size_t)cap * sizeof *p->uv);
        if (!grown)
            return pf_fail(st, PF_E_NOMEM, "out of memory for %lld pairs", (long long)cap);
        p->uv = grown;
        p->cap = cap;
    }
    p->uv[p->count][0] = u;
    p->uv[p->count][1] = v;
    p->count++;
    return PF_OK;
}

/* One vertex of a pair: a whole number in 1..n. */
static int parse_vertex(const char **text, int64_t n, int32_t *v)
{
    char *end;
    errno = 0;
    long long value = strtoll(*text, &end, 10);
    if (end == *text || errno || value < 1 || value > n)
        return -1;
    *text = end;
    *v = (int32_t)(value - 1);
    return 0;
}

/* "U V" per line; blank lines and '#' comments are skipped. Errors are
 * "NAME:LINE: what is wrong" (PF_E_INPUT). */
static int read_pairs(FILE *in, const char *name, int64_t n, pair_list *p, pf_status *st)
{
    char line[4096];
    for (int64_t number = 1; fgets(line, sizeof line, in); number++) {
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n')
            return pf_fail(st, PF_E_INPUT, "%s:%lld: line longer than %zu characters", name,
                           (long long)number, sizeof line - 2);
        const char *at = line + strspn(line, " \t\r\n");
        if (*at == '\0' || *at == '#')
            continue;
        int32_t u, v;
        if (parse_vertex(&at, n, &u) || parse_vertex(&at, n, &v))
            return pf_fail(st, PF_E_INPUT,
                           "%s:%lld: expected a pair 'U V' of vertices in 1..%lld", name,
                           (long long)number, (long long)n);
        at += strspn(at, " \t\r\n");
        if (*at != '\0' && *at != '#')
            return pf_fail(st, PF_E_INPUT, "%s:%lld: unexpected text after the pair: '%.20s'",
                           name, (long long)number, at);
        int rc = pairs_push(p, u, v, st);
        if (rc)
            return rc;
    }
    if (ferror(in))
        return pf_fail(st, PF_E_INPUT, "%s: read error: %s", name, strerror(errno));
    return PF_OK;
}

static int load_pairs(const char *path, int64_t n, pair_list *p, pf_status *st)
{
    int from_stdin = !path || !strcmp(path, "-");
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *in = from_stdin ? stdin : fopen(path, "r");
    if (!in)
        return pf_fail(st, PF_E_INPUT, "%s: cannot open: %s", name, strerror(errno));
    int rc = read_pairs(in, name, n, p, st);
    if (!from_stdin)
        fclose(in);
    return rc;
}

/* ---- arcs and distances ------------------------------------------------ */

/* The lightest arc u -> v of the graph, through the arcs sorted by tail. */
typedef struct arc_index {
    int64_t *first; /* n + 1 */
    int64_t *arc;   /* m input arc indices, grouped by tail */
} arc_index;

static int index_build(const pf_wgraph *g, arc_index *x, pf_status *st)
{
    x->first = pf_calloc((size_t)g->n + 2, sizeof *x->first, st);
    x->arc = pf_alloc((size_t)g->m + 1, sizeof *x->arc, st);
    if (!x->first || !x->arc)
        return PF_E_NOMEM;
    for (int64_t a = 0; a < g->m; a++)
        x->first[g->tail[a] + 2]++;
    for (int64_t v = 0; v < g->n; v++)
        x->first[v + 2] += x->first[v + 1];
    for (int64_t a = 0; a < g->m; a++)
        x->arc[x->first[g->tail[a] + 1]++] = a;
    return PF_OK;
}

static double arc_weight(const pf_wgraph *g, int64_t a)
{
    return g->real_weight ? g->real_weight[a] : (double)g->int_weight[a];
}

static double lightest_arc(const pf_wgraph *g, const arc_index *x, int32_t u, int32_t v)
{
    double best = INFINITY;
    for (int64_t at = x->first[u]; at < x->first[u + 1]; at++) {
        int64_t a = x->arc[at];
        if (g->head[a] == v && arc_weight(g, a) < best)
            best = arc_weight(g, a);
    }
    return best;
}

/* d(u, v) as text ("" when none), and whether there is a path. */
static int distance_text(const pf_apsp_result *res, int32_t u, int32_t v, char *out, size_t len)
{
    int64_t at = (int64_t)u * res->n + v;
    switch (res->kind) {
    case PF_DIST_I32: {
        int32_t d = ((const int32_t *)res->dist)[at];
        snprintf(out, len, "%d", d);
        return d != PF_APSP_NONE_I32;
    }
    case PF_DIST_I64: {
        int64_t d = ((const int64_t *)res->dist)[at];
        snprintf(out, len, "%lld", (long long)d);
        return d != PF_APSP_NONE_I64;
    }
    default: {
        float d = ((const float *)res->dist)[at];
        snprintf(out, len, "%.9g", (double)d);
        return !isinf(d);
    }
    }
}

static void weight_text(const pf_wgraph *g, double w, char *out, size_t len)
{
    if (g->real_weight)
        snprintf(out, len, "%.9g", w);
    else
        snprintf(out, len, "%lld", (long long)w);
}

/* ---- output ------------------------------------------------------------ */

/* The path u -> ... -> v along the next hops into *hops (count in *len;
 * the hops never loop: pf_apsp checks them). */
static int64_t walk(const pf_apsp_result *res, int32_t u, int32_t v, int32_t *hops)
{
    int64_t len = 0;
    hops[len++] = u;
    for (int32_t at = u; at != v && len <= res->n;) {
        at = res->next[(int64_t)at * res->n + v];
        hops[len++] = at;
    }
    return len;
}

static void print_pair_text(const pf_wgraph *g, const arc_index *x, const pf_apsp_result *res,
                            int32_t u, int32_t v, int32_t *hops)
{
    char cost[48], w[48];
    if (!distance_text(res, u, v, cost, sizeof cost)) {
        printf("no path\n");
        return;
    }
    int64_t len = walk(res, u, v, hops);
    fputs("path", stdout);
    for (int64_t k = 0; k < len; k++)
        printf(" %d", hops[k] + 1);
    fputs("\nc", stdout);
    if (len == 1)
        fputs(" 0", stdout);
    for (int64_t k = 0; k + 1 < len; k++) {
        weight_text(g, lightest_arc(g, x, hops[k], hops[k + 1]), w, sizeof w);
        printf("%s %s", k ? " +" : "", w);
    }
    printf(" = %s\ncost %s\n", cost, cost);
}

static void print_pair_json(const pf_wgraph *g, const arc_index *x, const pf_apsp_result *res,
                            int32_t u, int32_t v, int32_t *hops, int last)
{
    char cost[48], w[48];
    printf("  {\"from\": %d, \"to\": %d, ", u + 1, v + 1);
    if (!distance_text(res, u, v, cost, sizeof cost)) {
        printf("\"path\": null, \"arcs\": null, \"cost\": null}%s\n", last ? "" : ",");
        return;
    }
    int64_t len = walk(res, u, v, hops);
    fputs("\"path\": [", stdout);
    for (int64_t k = 0; k < len; k++)
        printf("%s%d", k ? ", " : "", hops[k] + 1);
    fputs("], \"arcs\": [", stdout);
    for (int64_t k = 0; k + 1 < len; k++) {
        weight_text(g, lightest_arc(g, x, hops[k], hops[k + 1]), w, sizeof w);
        printf("%s%s", k ? ", " : "", w);
    }
    printf("], \"cost\": %s}%s\n", cost, last ? "" : ",");
}

static int print_pairs(const path_args *a, const pf_wgraph *g, const pf_apsp_result *res,
                       const pair_list *p, pf_status *st)
{
    arc_index x = {0};
    int32_t *hops = pf_alloc((size_t)res->n + 1, sizeof *hops, st);
    int rc = hops ? index_build(g, &x, st) : PF_E_NOMEM;
    if (!rc) {
        if (a->json)
            printf("{\"backend\": \"%s\", \"variant\": \"%s\", \"pairs\": [\n", res->backend,
                   res->variant);
        for (int64_t k = 0; k < p->count; k++) {
            int32_t u = p->uv[k][0], v = p->uv[k][1];
            if (a->json)
                print_pair_json(g, &x, res, u, v, hops, k + 1 == p->count);
            else
                print_pair_text(g, &x, res, u, v, hops);
        }
        if (a->json)
            printf("]}\n");
        if (fflush(stdout) || ferror(stdout))
            rc = pf_fail(st, PF_E_OUTPUT, "writing standard output failed: %s", strerror(errno));
    }
    free(hops);
    free(x.first);
    free(x.arc);
    return rc;
}

int pf_cli_path(int argc, char **argv)
{
    path_args a;
    int rc = parse_path_args(argc, argv, &a);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_status st;
    const char *name = strcmp(a.graph_path, "-") ? a.graph_path : "<stdin>";
    pf_apsp_early *early = pf_apsp_open_early(&a.opt); /* opens while the files are read */
    pf_wgraph *g = pf_wgraph_read(a.graph_path, &st);
    if (!g) {
        pf_apsp_early_free(early);
        return pf_cli_error(&st);
    }
    pair_list pairs = {0};
    rc = load_pairs(a.pairs_path, g->n, &pairs, &st);
    pf_apsp_result res;
    memset(&res, 0, sizeof res);
    if (!rc)
        rc = pf_apsp_with(g, &a.opt, early, NULL, &res, &st);
    pf_apsp_early_free(early);
    if (rc == PF_E_INPUT && res.cycle_len > 0) {
        pf_cli_report_cycle(g, &res, name);
    } else if (rc) {
        pf_cli_error(&st);
    } else {
        rc = print_pairs(&a, g, &res, &pairs, &st);
        if (rc)
            pf_cli_error(&st);
    }
    pf_apsp_result_free(&res);
    free(pairs.uv);
    pf_wgraph_free(g);
    return pf_cli_exit_code(rc);
}
