/* The output of bfs, sssp and tc (format: cli_graph.c's top comment and
 * README "Graph analytics"). Ids are printed as the user wrote them:
 * 1-based, or 0-based with --zero-based. */
#include <math.h>
#include <stdio.h>

#include "../common/graph_verify.h"
#include "cli.h"
#include "cli_graph.h"

static long long id_of(const graph_run *r, int64_t v)
{
    return (long long)v + (r->a->read.zero_based ? 0 : 1);
}

/* Edges traversed: the out-arcs of the reached vertices, halved for an
 * undirected graph (Graph500 counts each edge once). */
static double edges_traversed(const pf_csr *g, int64_t arcs)
{
    return g->undirected ? (double)arcs / 2 : (double)arcs;
}

static double per_second(double amount, double seconds)
{
    return seconds > 0 ? amount / seconds : 0;
}

static void times_text(FILE *out, const pf_graph_times *t, double total)
{
    fprintf(out, "c time open %.6f prepare %.6f upload %.6f kernel %.6f download %.6f "
            "total %.6f\n", t->open_s, t->prepare_s, t->upload_s, t->kernel_s, t->download_s,
            total);
}

static void times_json(FILE *out, const pf_graph_times *t, double total)
{
    fprintf(out, "\"times\":{\"open\":%.6f,\"prepare\":%.6f,\"upload\":%.6f,\"kernel\":%.6f,"
            "\"download\":%.6f,\"total\":%.6f}", t->open_s, t->prepare_s, t->upload_s,
            t->kernel_s, t->download_s, total);
}

static void head_text(FILE *out, const graph_run *r, const char *backend)
{
    fprintf(out, "c %s on %s: %lld vertices, %lld arcs%s\n", r->a->spec->name, backend,
            (long long)r->g->n, (long long)r->g->m, r->g->undirected ? " (undirected)" : "");
    if (r->a->spec->name[0] != 't')
        fprintf(out, "c source %lld\n", id_of(r, r->source));
    if (r->verified)
        fprintf(out, "c verified\n");
}

static void head_json(FILE *out, const graph_run *r, const char *backend)
{
    fprintf(out, "{\"command\":\"%s\",\"backend\":", r->a->spec->name);
    pf_cli_json_string(out, backend);
    fprintf(out, ",\"vertices\":%lld,\"arcs\":%lld,\"undirected\":%s,\"verified\":%s",
            (long long)r->g->n, (long long)r->g->m, r->g->undirected ? "true" : "false",
            r->verified ? "true" : "false");
    if (r->a->spec->name[0] != 't')
        fprintf(out, ",\"source\":%lld", id_of(r, r->source));
}

/* ---- bfs ----------------------------------------------------------------- */

void write_bfs_text(FILE *out, const void *ctx)
{
    const graph_run *r = ctx;
    const pf_bfs_result *res = r->res;
    head_text(out, r, res->backend);
    double edges = edges_traversed(r->g, res->arcs_traversed);
    fprintf(out, "c levels %d edges_traversed %.0f teps %.6g\n", res->level_count, edges,
            per_second(edges, res->t.kernel_s));
    times_text(out, &res->t, r->total_s);
    if (r->a->stats) {
        fprintf(out, "s reached %lld\ns depth %d\ns checksum %lld\n", (long long)res->reached,
                res->depth, (long long)res->checksum);
        return;
    }
    for (int64_t v = 0; v < r->g->n; v++) {
        if (res->dist[v] == PF_BFS_UNREACHED)
            fprintf(out, res->parent ? "d %lld inf -\n" : "d %lld inf\n", id_of(r, v));
        else if (res->parent)
            fprintf(out, "d %lld %d %lld\n", id_of(r, v), res->dist[v], id_of(r, res->parent[v]));
        else
            fprintf(out, "d %lld %d\n", id_of(r, v), res->dist[v]);
    }
}

void write_bfs_json(FILE *out, const void *ctx)
{
    const graph_run *r = ctx;
    const pf_bfs_result *res = r->res;
    head_json(out, r, res->backend);
    double edges = edges_traversed(r->g, res->arcs_traversed);
    fprintf(out, ",\"reached\":%lld,\"depth\":%d,\"checksum\":%lld,\"edges_traversed\":%.0f,"
            "\"teps\":%.6g,", (long long)res->reached, res->depth, (long long)res->checksum,
            edges, per_second(edges, res->t.kernel_s));
    times_json(out, &res->t, r->total_s);
    if (r->a->stats) {
        fputs(",\"levels\":[", out);
        for (int32_t k = 0; k < res->level_count; k++)
            fprintf(out, "%s{\"level\":%d,\"vertices\":%lld,\"arcs\":%lld,\"seconds\":%.6g,"
                    "\"direction\":\"%s\"}", k ? "," : "", k + 1,
                    (long long)res->levels[k].vertices, (long long)res->levels[k].arcs,
                    res->levels[k].seconds,
                    res->levels[k].pull == 2 ? "batched" : res->levels[k].pull ? "pull" : "push");
        fputs("]}\n", out);
        return;
    }
    fputs(",\"distances\":[", out);
    for (int64_t v = 0; v < r->g->n; v++)
        fprintf(out, v ? ",%d" : "%d", res->dist[v]);
    fputc(']', out);
    if (res->parent) {
        fputs(",\"parents\":[", out);
        for (int64_t v = 0; v < r->g->n; v++) {
            int32_t p = res->parent[v];
            if (p < 0)
                fprintf(out, v ? ",null" : "null");
            else
                fprintf(out, v ? ",%lld" : "%lld", id_of(r, p));
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

/* ---- sssp ---------------------------------------------------------------- */

static void print_int128(FILE *out, __int128 value)
{
    char digits[48];
    int at = (int)sizeof digits - 1;
    digits[at] = '\0';
    unsigned __int128 mag = value < 0 ? -(unsigned __int128)value : (unsigned __int128)value;
    do {
        digits[--at] = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag);
    if (value < 0)
        digits[--at] = '-';
    fputs(digits + at, out);
}

/* d(v) as text; 0 where unreached ("inf", or "null" in JSON). */
static int dist_text(const pf_sssp_result *res, int64_t v, char *text, size_t len)
{
    if (res->dist_f) {
        if (isinf(res->dist_f[v]))
            return 0;
        snprintf(text, len, "%.17g", res->dist_f[v]);
    } else {
        if (res->dist_i[v] == PF_SSSP_NONE_I64)
            return 0;
        snprintf(text, len, "%lld", (long long)res->dist_i[v]);
    }
    return 1;
}

static void sssp_numbers(FILE *out, const pf_sssp_result *res, const char *between,
                         const char *max_name, const char *sum_name)
{
    fputs(max_name, out);
    if (res->dist_f)
        fprintf(out, "%.17g", res->max_f);
    else
        fprintf(out, "%lld", (long long)res->max_i);
    fputs(between, out);
    fputs(sum_name, out);
    if (res->dist_f)
        fprintf(out, "%.17g", res->sum_f);
    else
        print_int128(out, res->sum_i);
}

void write_sssp_text(FILE *out, const void *ctx)
{
    const graph_run *r = ctx;
    const pf_sssp_result *res = r->res;
    head_text(out, r, res->backend);
    double edges = edges_traversed(r->g, res->arcs_traversed);
    fprintf(out, "c steps %lld edges_traversed %.0f teps %.6g\n", (long long)res->steps, edges,
            per_second(edges, res->t.kernel_s));
    times_text(out, &res->t, r->total_s);
    if (r->a->stats) {
        fprintf(out, "s reached %lld\n", (long long)res->reached);
        sssp_numbers(out, res, "\n", "s max_distance ", "s checksum ");
        fputc('\n', out);
        return;
    }
    char text[64];
    for (int64_t v = 0; v < r->g->n; v++)
        fprintf(out, "d %lld %s\n", id_of(r, v), dist_text(res, v, text, sizeof text) ? text
                                                                                   : "inf");
}

void write_sssp_json(FILE *out, const void *ctx)
{
    const graph_run *r = ctx;
    const pf_sssp_result *res = r->res;
    head_json(out, r, res->backend);
    double edges = edges_traversed(r->g, res->arcs_traversed);
    fprintf(out, ",\"reached\":%lld,", (long long)res->reached);
    sssp_numbers(out, res, ",", "\"max_distance\":", "\"checksum\":");
    fprintf(out, ",\"steps\":%lld,\"edges_traversed\":%.0f,\"teps\":%.6g,",
            (long long)res->steps, edges, per_second(edges, res->t.kernel_s));
    times_json(out, &res->t, r->total_s);
    if (!r->a->stats) {
        char text[64];
        fputs(",\"distances\":[", out);
        for (int64_t v = 0; v < r->g->n; v++)
            fprintf(out, "%s%s", v ? "," : "",
                    dist_text(res, v, text, sizeof text) ? text : "null");
        fputc(']', out);
    }
    fputs("}\n", out);
}

/* ---- tc ------------------------------------------------------------------ */

void write_tc_text(FILE *out, const void *ctx)
{
    const graph_run *r = ctx;
    const pf_tc_result *res = r->res;
    head_text(out, r, res->backend);
    fprintf(out, "c edges %lld (simple, undirected) edges_per_second %.6g\n",
            (long long)res->edges, per_second((double)res->edges, res->t.kernel_s));
    times_text(out, &res->t, r->total_s);
    fprintf(out, "s triangles %lld\n", (long long)res->triangles);
}

void write_tc_json(FILE *out, const void *ctx)
{
    const graph_run *r = ctx;
    const pf_tc_result *res = r->res;
    head_json(out, r, res->backend);
    fprintf(out, ",\"edges\":%lld,\"triangles\":%lld,", (long long)res->edges,
            (long long)res->triangles);
    times_json(out, &res->t, r->total_s);
    fputs("}\n", out);
}
