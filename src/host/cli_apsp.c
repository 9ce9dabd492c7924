/* `portaflow apsp`: all-pairs shortest paths of a weighted digraph. The
 * device opens while the file is read, and the rows are counted (--stats)
 * and written (--out FILE) while they download (pf_apsp_with's sink). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/outfile.h"
#include "../common/status.h"
#include "../common/timer.h"
#include "../common/wgraph.h"
#include "apsp.h"
#include "cli.h"
#include "cli_opts.h"
#include "../common/progress.h"

typedef struct apsp_args {
    pf_apsp_options opt;
    int verify, stats, binary, json, progress;
    const char *out_path; /* NULL: the matrix goes to stdout unless --stats */
    const char *path;
} apsp_args;

static int parse_kind(const char *text, int *kind)
{
    static const pf_opt_word kinds[] = {
        {"auto", PF_DIST_AUTO}, {"i32", PF_DIST_I32}, {"i64", PF_DIST_I64},
        {"f32", PF_DIST_F32},   {0},
    };
    return pf_opts_word(kinds, text, strlen(text), kind) ? 0 : -1;
}

enum {
    OPT_TYPE = 1,
    OPT_TILE,
    OPT_PATHS,
    OPT_VERIFY,
    OPT_STATS,
    OPT_BINARY,
    OPT_VARIANT,
    OPT_SIMD_WIDTH,
};

static const pf_opt apsp_options[] = {
    {.id = OPT_TYPE, .name = "type", .arg = "KIND",
     .help = "distance type: auto (default), i32, i64 or f32"},
    {.id = OPT_TILE, .name = "tile", .arg = "T",
     .help = "Floyd-Warshall tile: a multiple of 16 from 16 to 1024"},
    {.id = OPT_PATHS, .name = "paths",
     .help = "also next hops: FILE.next with --out, else after an empty line"},
    {.id = OPT_VERIFY, .name = "verify", .help = "check the distances by Bellman-Ford/Dijkstra"},
    {.id = OPT_STATS, .name = "stats",
     .help = "print checksum, diameter, reachable pairs (no rows unless --out)"},
    {.id = OPT_BINARY, .name = "binary", .help = "--out as raw native-order values"},
    {.id = OPT_VARIANT, .name = "variant", .arg = "V",
     .help = "plain, simd (seq, omp), blocked (all; default but on seq), per-k (cuda, opencl)"},
    {.id = OPT_SIMD_WIDTH, .name = "simd-width", .arg = "W",
     .help = "--variant simd lanes: 8 (AVX2) or 16 (AVX-512); default the widest"},
    {0},
};

static const pf_cmd_spec apsp_spec = {
    .name = "apsp",
    .synopsis = "[OPTIONS] FILE|-",
    .about = "All-pairs shortest paths (blocked Floyd-Warshall) of a DIMACS 'p sp', Matrix\n"
             "Market (.mtx) or adjacency-matrix graph; negative weights allowed. Writes N\n"
             "rows of N distances ('inf' = no path). A negative cycle exits 2 naming it.\n"
             "--variant runs one of the Floyd-Warshall study's variants instead.\n",
    .options = apsp_options,
    .out_help = "write the distance rows to FILE (and next hops to FILE.next)",
    .shared = PF_OPTS_DEVICE | PF_OPTS_OUT | PF_OPTS_JSON | PF_OPTS_PROGRESS,
    .max_args = 1,
};

static int on_apsp_option(void *ctx, int id, const char *arg)
{
    apsp_args *a = ctx;
    int64_t number;
    int rc = PF_EXIT_OK;
    switch (id) {
    case OPT_TYPE:
        if (parse_kind(arg, &a->opt.kind))
            rc = pf_opts_usage_error(&apsp_spec, "--type takes auto, i32, i64 or f32, not '%s'",
                                     arg);
        break;
    case OPT_TILE:
        rc = pf_opts_int(&apsp_spec, "tile", arg, 16, 1024, &number);
        if (rc == PF_EXIT_OK && number % 16)
            rc = pf_opts_usage_error(&apsp_spec, "--tile takes a multiple of 16, not '%s'", arg);
        if (rc == PF_EXIT_OK)
            a->opt.tile = (int)number;
        break;
    case OPT_PATHS:
        a->opt.want_paths = 1;
        break;
    case OPT_VERIFY:
        a->verify = 1;
        break;
    case OPT_STATS:
        a->stats = 1;
        break;
    case OPT_BINARY:
        a->binary = 1;
        break;
    case OPT_VARIANT:
        if ((a->opt.variant = pf_apsp_variant_parse(arg)) < 0)
            rc = pf_opts_usage_error(&apsp_spec,
                                     "--variant takes plain, simd, blocked or per-k, not '%s'", arg);
        break;
    default:
        rc = pf_opts_int(&apsp_spec, "simd-width", arg, 8, 16, &number);
        if (rc == PF_EXIT_OK && number != 8 && number != 16)
            rc = pf_opts_usage_error(&apsp_spec, "--simd-width takes 8 or 16, not '%s'", arg);
        if (rc == PF_EXIT_OK)
            a->opt.simd_width = (int)number;
        break;
    }
    return rc;
}

static int parse_apsp_args(int argc, char **argv, apsp_args *a)
{
    memset(a, 0, sizeof *a);
    pf_apsp_options_init(&a->opt);
    pf_opts_parsed p;
    int rc = pf_opts_parse(&apsp_spec, argc, argv, on_apsp_option, a, &p);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_opts_take_device(&p.shared, &a->opt.backend, &a->opt.device_index, &a->opt.threads);
    a->opt.log = pf_cli_log;
    a->out_path = p.shared.out_path;
    a->json = p.shared.json;
    a->progress = pf_opts_progress_mode(&p.shared);
    if (a->json && !a->stats)
        return pf_opts_usage_error(&apsp_spec, "--json goes with --stats (the rows are not JSON)");
    if (!p.count)
        return pf_opts_usage_error(&apsp_spec, "an input file (or - for stdin) is required");
    a->path = p.args[0];
    if (a->binary && (!a->out_path || !strcmp(a->out_path, "-")))
        return pf_opts_usage_error(&apsp_spec, "--binary needs --out FILE");
    pf_status st;
    if (pf_cli_check_backend(a->opt.backend))
        return PF_EXIT_USAGE;
    if (pf_apsp_variant_check(a->opt.backend, &a->opt, &st))
        return pf_opts_usage_error(&apsp_spec, "%s", st.message);
    if (pf_outfile_check_name(a->out_path, NULL, &st) ||
        (a->opt.want_paths && pf_outfile_check_name(a->out_path, ".next", &st)))
        return pf_opts_usage_error(&apsp_spec, "--out: %s", st.message);
    return PF_OPTS_GO_ON;
}

/* ---- matrix output ---------------------------------------------------- */

/* Text rows through one large buffer with hand-made integer formatting:
 * n = 16384 is 268M numbers, where printf would dominate the run. */
typedef struct row_writer {
    FILE *out;
    char *buf;
    size_t used, cap;
    int failed; /* a write failed: the rest is not formatted */
} row_writer;

static void put_text(row_writer *w, const char *text, size_t len)
{
    if (w->used + len > w->cap) {
        w->failed |= fwrite(w->buf, 1, w->used, w->out) != w->used;
        w->used = 0;
    }
    memcpy(w->buf + w->used, text, len);
    w->used += len;
}

static void put_int(row_writer *w, int64_t v)
{
    char digits[24], *end = digits + sizeof digits, *p = end;
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag);
    if (v < 0)
        *--p = '-';
    put_text(w, p, (size_t)(end - p));
}

static void put_entry(row_writer *w, const pf_apsp_result *res, int64_t at)
{
    switch (res->kind) {
    case PF_DIST_I32: {
        int32_t d = ((const int32_t *)res->dist)[at];
        if (d == PF_APSP_NONE_I32)
            put_text(w, "inf", 3);
        else
            put_int(w, d);
        break;
    }
    case PF_DIST_I64: {
        int64_t d = ((const int64_t *)res->dist)[at];
        if (d == PF_APSP_NONE_I64)
            put_text(w, "inf", 3);
        else
            put_int(w, d);
        break;
    }
    default: {
        float d = ((const float *)res->dist)[at];
        char text[32];
        int len = isinf(d) ? snprintf(text, sizeof text, "inf")
                           : snprintf(text, sizeof text, "%.9g", (double)d);
        put_text(w, text, (size_t)len);
    }
    }
}

/* Distances (next = 0) or next hops (1-based, "-" for none) of rows
 * [first, first + count), one line per source. */
static void write_rows(row_writer *w, const pf_apsp_result *res, int next, int64_t first,
                       int64_t count)
{
    int64_t n = res->n;
    for (int64_t i = first; i < first + count && !w->failed; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t at = i * n + j;
            if (!next)
                put_entry(w, res, at);
            else if (res->next[at] < 0)
                put_text(w, "-", 1);
            else
                put_int(w, (int64_t)res->next[at] + 1);
            put_text(w, j + 1 < n ? " " : "\n", 1);
        }
}

/* One matrix as text into `out` (a blank line first if `blank_first`);
 * a failed write is PF_E_OUTPUT naming `name`. */
static int write_text(FILE *out, const char *name, const pf_apsp_result *res, int next,
                      int blank_first, pf_status *st)
{
    row_writer w = {.out = out, .cap = (size_t)1 << 20};
    w.buf = pf_alloc(w.cap, 1, st);
    if (!w.buf)
        return PF_E_NOMEM;
    if (blank_first)
        put_text(&w, "\n", 1);
    write_rows(&w, res, next, 0, res->n);
    w.failed |= fwrite(w.buf, 1, w.used, out) != w.used;
    int saved = errno;
    free(w.buf);
    if (w.failed)
        return pf_fail(st, PF_E_OUTPUT, "%s: write failed: %s", name, strerror(saved));
    return PF_OK;
}

/* One matrix (distances, or next hops when `next`) into `out`. */
static int write_one(const apsp_args *a, const pf_apsp_result *res, const pf_outfile *out,
                     int next, pf_status *st)
{
    size_t count = (size_t)res->n * (size_t)res->n;
    if (!a->binary)
        return write_text(out->fp, out->path, res, next, 0, st);
    size_t written = next ? fwrite(res->next, sizeof *res->next, count, out->fp)
                          : fwrite(res->dist, pf_apsp_kind_bytes(res->kind), count, out->fp);
    if (written != count)
        return pf_fail(st, PF_E_OUTPUT, "%s: write failed: %s", out->path, strerror(errno));
    return PF_OK;
}

/* Distances to --out (or stdout). Next hops go to a second file beside
 * --out (FILE.next), or follow on stdout after an empty line. Each file
 * replaces the old one only once it is whole (pf_outfile). */
static int write_matrix(const apsp_args *a, const pf_apsp_result *res, pf_status *st)
{
    pf_outfile dist, next;
    int rc = pf_outfile_open(&dist, a->out_path, NULL, st);
    if (rc)
        return rc;
    int next_file = res->next && dist.fp != stdout;
    rc = write_one(a, res, &dist, 0, st);
    if (!rc && res->next && !next_file)
        rc = write_text(stdout, dist.path, res, 1, 1, st);
    if (!rc && next_file && !(rc = pf_outfile_open(&next, a->out_path, ".next", st))) {
        rc = write_one(a, res, &next, 1, st);
        if (rc)
            pf_outfile_abort(&next);
        else
            rc = pf_outfile_commit(&next, st);
    }
    if (rc) {
        pf_outfile_abort(&dist);
        return rc;
    }
    return pf_outfile_commit(&dist, st);
}

/* ---- stats and messages ----------------------------------------------- */

/* --stats, summed over rows as they arrive (the solve's sink). */
typedef struct apsp_stats {
    int64_t reachable; /* ordered pairs i != j with a path */
    uint64_t int_sum;  /* integer types: the sum of finite distances mod 2^64 */
    double real_sum;   /* float32: their sum */
    double diameter;   /* float32: the largest distance over i != j */
    int64_t int_max;   /* integer types: the same, exactly */
} apsp_stats;

static void stats_init(apsp_stats *s)
{
    *s = (apsp_stats){.diameter = -INFINITY, .int_max = INT64_MIN};
}

/* int32 columns [from, to) of one row off the diagonal: no branches, so
 * the loop vectorises (n = 16384 is 268M entries). */
static void stats_i32_span(apsp_stats *s, const int32_t *row, int64_t from, int64_t to)
{
    int64_t count = 0, sum = 0;
    int32_t most = INT32_MIN;
    for (int64_t j = from; j < to; j++) {
        int32_t v = row[j];
        int ok = v != PF_APSP_NONE_I32;
        count += ok;
        sum += ok ? v : 0;
        most = ok && v > most ? v : most;
    }
    s->reachable += count;
    s->int_sum += (uint64_t)sum;
    if (count && most > s->int_max)
        s->int_max = most;
}

static void stats_rows(apsp_stats *s, const pf_apsp_result *res, int64_t first, int64_t count)
{
    int64_t n = res->n;
    for (int64_t i = first; i < first + count; i++) {
        if (res->kind == PF_DIST_I32) {
            const int32_t *row = (const int32_t *)res->dist + i * n;
            stats_i32_span(s, row, 0, i);
            stats_i32_span(s, row, i + 1, n);
            if (row[i] != PF_APSP_NONE_I32) /* the diagonal counts in the sum only */
                s->int_sum += (uint64_t)(int64_t)row[i];
            continue;
        }
        for (int64_t j = 0; j < n; j++) {
            int64_t at = i * n + j;
            if (res->kind == PF_DIST_I64) {
                int64_t v = ((const int64_t *)res->dist)[at];
                if (v == PF_APSP_NONE_I64)
                    continue;
                s->int_sum += (uint64_t)v;
                if (i != j) {
                    s->reachable++;
                    s->int_max = v > s->int_max ? v : s->int_max;
                }
            } else {
                float v = ((const float *)res->dist)[at];
                if (isinf(v))
                    continue;
                s->real_sum += v;
                if (i != j) {
                    s->reachable++;
                    s->diameter = v > s->diameter ? v : s->diameter;
                }
            }
        }
    }
}

static double stats_diameter(const pf_apsp_result *res, const apsp_stats *s)
{
    return res->kind == PF_DIST_F32 ? s->diameter : (double)s->int_max;
}

static void print_stats(const pf_apsp_result *res, const apsp_stats *s)
{
    printf("s reachable_pairs %lld\n", (long long)s->reachable);
    if (s->reachable == 0)
        printf("s diameter none\n");
    else
        printf("s diameter %.17g\n", stats_diameter(res, s));
    if (res->kind == PF_DIST_F32)
        printf("s checksum %.17g\n", s->real_sum);
    else
        printf("s checksum %llu\n", (unsigned long long)s->int_sum);
}

void pf_cli_report_cycle(const pf_wgraph *g, const pf_apsp_result *res, const char *name)
{
    int64_t len = res->cycle_len;
    /* The cycle's weight from the lightest arc between consecutive vertices. */
    int64_t *pos = pf_alloc((size_t)g->n, sizeof *pos, NULL);
    double *lightest = pf_alloc((size_t)len, sizeof *lightest, NULL);
    double weight = NAN;
    if (pos && lightest) {
        for (int64_t v = 0; v < g->n; v++)
            pos[v] = -1;
        for (int64_t k = 0; k < len; k++) {
            pos[res->cycle[k]] = k;
            lightest[k] = INFINITY;
        }
        for (int64_t a = 0; a < g->m; a++) {
            int64_t k = pos[g->tail[a]];
            if (k < 0 || g->head[a] != res->cycle[(k + 1) % len])
                continue;
            double w = g->real_weight ? g->real_weight[a] : (double)g->int_weight[a];
            lightest[k] = w < lightest[k] ? w : lightest[k];
        }
        weight = 0;
        for (int64_t k = 0; k < len; k++)
            weight += lightest[k];
    }
    fprintf(stderr, "portaflow: %s: negative cycle of %lld arcs, weight %.17g:", name,
            (long long)len, weight);
    for (int64_t k = 0; k <= len; k++)
        fprintf(stderr, k ? " -> %d" : " %d", res->cycle[k % len] + 1);
    fputc('\n', stderr);
    free(pos);
    free(lightest);
}

static const char *kind_text(int kind)
{
    return kind == PF_DIST_I32 ? "int32" : kind == PF_DIST_I64 ? "int64" : "float32";
}

/* Sources checked by --verify: all of them while n*(n+m) stays within
 * a few seconds of work, else an even spread of at least 16. */
static int64_t verify_sources(const pf_wgraph *g)
{
    const double budget = 4e9;
    double per_source = (double)(g->n + g->m);
    int64_t sources = (int64_t)(budget / per_source);
    return sources >= g->n ? 0 : sources < 16 ? 16 : sources;
}

/* What the run found, for the comment lines or the JSON object. */
typedef struct apsp_report {
    const char *name;
    const pf_wgraph *g;
    const pf_apsp_result *res;
    double read_s;
    int64_t checked; /* sources verified */
    const apsp_stats *stats; /* with --stats */
} apsp_report;

static void print_comments(const apsp_args *a, const apsp_report *r)
{
    const pf_apsp_result *res = r->res;
    int64_t n = res->n;
    double updates = (double)n * (double)n * (double)n;
    printf("c portaflow %s apsp: %s\n", pf_version(), r->name);
    printf("c vertices %lld, arcs %lld, distances %s%s\n", (long long)n,
           (long long)pf_wgraph_arcs(r->g), kind_text(res->kind),
           res->next ? ", with next hops" : "");
    printf("c backend %s, device %s, tile %d\n", res->backend, res->device, res->tile);
    printf("c variant %s\n", res->variant);
    printf("c read %.3f s, solve %.3f s (setup %.3f, upload %.3f, compute %.3f, download %.3f)\n",
           r->read_s, res->times.total, res->times.setup, res->times.upload, res->times.compute,
           res->times.download);
    printf("c times ms: read %.3f, setup %.3f, upload %.3f, compute %.3f, download %.3f\n",
           r->read_s * 1e3, res->times.setup * 1e3, res->times.upload * 1e3,
           res->times.compute * 1e3, res->times.download * 1e3);
    printf("c compute rate %.3g min-plus updates/s\n",
           res->times.compute > 0 ? updates / res->times.compute : 0.0);
    if (a->verify)
        printf("c verified: %lld of %lld sources checked%s\n", (long long)r->checked,
               (long long)n, res->next ? ", next hops too" : "");
    if (a->binary)
        printf("c binary matrix: %lld x %lld %s, row-major, native byte order, no path = %s\n",
               (long long)n, (long long)n, kind_text(res->kind),
               res->kind == PF_DIST_F32 ? "+inf" : res->kind == PF_DIST_I32 ? "2^31-1" : "2^63-1");
    if (a->stats)
        print_stats(res, r->stats);
}

/* --json (with --stats): one object on stdout; the rows go only to --out. */
static void print_json(const apsp_args *a, const apsp_report *r)
{
    const pf_apsp_result *res = r->res;
    const apsp_stats s = *r->stats;
    printf("{\"input\":");
    pf_cli_json_string(stdout, r->name);
    printf(",\"vertices\":%lld,\"arcs\":%lld,\"type\":\"%s\",\"paths\":%s,\"backend\":",
           (long long)res->n, (long long)pf_wgraph_arcs(r->g), kind_text(res->kind),
           res->next ? "true" : "false");
    pf_cli_json_string(stdout, res->backend);
    printf(",\"device\":");
    pf_cli_json_string(stdout, res->device);
    printf(",\"variant\":");
    pf_cli_json_string(stdout, res->variant);
    printf(",\"tile\":%d,\"read_s\":%.6f,\"solve_s\":%.6f,\"setup_s\":%.6f,\"upload_s\":%.6f,"
           "\"compute_s\":%.6f,\"download_s\":%.6f",
           res->tile, r->read_s, res->times.total, res->times.setup, res->times.upload,
           res->times.compute, res->times.download);
    if (a->verify)
        printf(",\"verified_sources\":%lld", (long long)r->checked);
    printf(",\"reachable_pairs\":%lld,\"diameter\":", (long long)s.reachable);
    if (s.reachable == 0)
        printf("null");
    else
        printf("%.17g", stats_diameter(res, &s));
    if (res->kind == PF_DIST_F32)
        printf(",\"checksum\":%.17g}\n", s.real_sum);
    else
        printf(",\"checksum\":%llu}\n", (unsigned long long)s.int_sum);
}

/* ---- output while the result downloads -------------------------------- */

/* What the solve's rows feed as they arrive (pf_apsp_sink): the --stats
 * sums, and the distances when they go to --out FILE (its temporary file,
 * renamed into place once all is written: pf_outfile). Rows for stdout
 * wait until the "c" lines, which follow the solve. */
typedef struct apsp_output {
    const apsp_args *a;
    apsp_stats stats;
    int to_file;      /* --out names a file: dist is open */
    pf_outfile dist;
    row_writer w;     /* text rows into dist */
    double write_s;   /* spent writing, during the download or after */
} apsp_output;

static int output_rows(void *ctx, const pf_apsp_result *res, int64_t first, int64_t count,
                       pf_status *st)
{
    apsp_output *o = ctx;
    double t0 = pf_now();
    if (o->a->stats)
        stats_rows(&o->stats, res, first, count);
    if (o->to_file && o->a->binary) {
        size_t size = pf_apsp_kind_bytes(res->kind), values = (size_t)(count * res->n);
        o->w.failed |= fwrite((const char *)res->dist + (size_t)(first * res->n) * size, size,
                              values, o->dist.fp) != values;
    } else if (o->to_file) {
        write_rows(&o->w, res, 0, first, count);
    }
    o->write_s += pf_now() - t0;
    if (o->w.failed)
        return pf_fail(st, PF_E_OUTPUT, "%s: write failed: %s", o->dist.path, strerror(errno));
    return PF_OK;
}

/* --stats alone: the device summed them (pf_apsp_sink.stats); the same
 * values stats_rows would have found (integer kinds: exact sums). */
static int output_stats(void *ctx, const pf_apsp_result *res, const pf_fw_stats *sums,
                        pf_status *st)
{
    (void)res;
    (void)st;
    apsp_output *o = ctx;
    o->stats.reachable = sums->reachable;
    o->stats.int_sum = sums->sum;
    o->stats.int_max = sums->most;
    return PF_OK;
}

static int output_open(apsp_output *o, const apsp_args *a, pf_status *st)
{
    memset(o, 0, sizeof *o);
    o->a = a;
    stats_init(&o->stats);
    if (!a->out_path || !strcmp(a->out_path, "-"))
        return PF_OK;
    o->w.cap = (size_t)1 << 20;
    if (!(o->w.buf = pf_alloc(o->w.cap, 1, st)))
        return PF_E_NOMEM;
    int rc = pf_outfile_open(&o->dist, a->out_path, NULL, st);
    if (rc)
        return rc;
    o->to_file = 1;
    o->w.out = o->dist.fp;
    return PF_OK;
}

/* Ends the output: the file (and FILE.next) committed, or the rows on
 * stdout; `failed`: the run failed, the old file stays. */
static int output_close(apsp_output *o, const pf_apsp_result *res, int failed, pf_status *st)
{
    double t0 = pf_now();
    int rc = PF_OK;
    if (o->to_file) {
        o->w.failed |= !failed && fwrite(o->w.buf, 1, o->w.used, o->dist.fp) != o->w.used;
        if (!failed && o->w.failed)
            rc = pf_fail(st, PF_E_OUTPUT, "%s: write failed: %s", o->dist.path, strerror(errno));
        pf_outfile next;
        if (!failed && !rc && res->next &&
            !(rc = pf_outfile_open(&next, o->a->out_path, ".next", st))) {
            rc = write_one(o->a, res, &next, 1, st);
            if (rc)
                pf_outfile_abort(&next);
            else
                rc = pf_outfile_commit(&next, st);
        }
        if (failed || rc)
            pf_outfile_abort(&o->dist);
        else
            rc = pf_outfile_commit(&o->dist, st);
    } else if (!failed && !o->a->stats) {
        rc = write_matrix(o->a, res, st);
    }
    free(o->w.buf);
    o->write_s += pf_now() - t0;
    return rc;
}

int pf_cli_apsp(int argc, char **argv)
{
    apsp_args a;
    int rc = parse_apsp_args(argc, argv, &a);
    if (rc != PF_OPTS_GO_ON)
        return rc;
    pf_status st;
    const char *name = strcmp(a.path, "-") ? a.path : "<stdin>";
    apsp_output out;
    if ((rc = output_open(&out, &a, &st))) {
        free(out.w.buf);
        return pf_cli_error(&st);
    }
    pf_apsp_early *early = pf_apsp_open_early(&a.opt); /* opens while the file is read */
    pf_progress_open(a.progress, 1, "apsp");
    pf_progress_step("reading %s", name);
    double t0 = pf_now();
    pf_wgraph *g = pf_wgraph_read(a.path, &st);
    double read_s = pf_now() - t0;
    pf_apsp_result res;
    memset(&res, 0, sizeof res);
    /* --stats alone needs no matrix on the host: a device may sum them. */
    int stats_only = a.stats && !out.to_file && !a.verify;
    pf_apsp_sink sink = {.rows = output_rows, .ctx = &out,
                         .stats = stats_only ? output_stats : NULL};
    int streams = a.stats || out.to_file;
    if (g)
        pf_progress_step("Floyd-Warshall over %lld vertices (%.3g min-plus updates)",
                         (long long)g->n, (double)g->n * (double)g->n * (double)g->n);
    rc = g ? pf_apsp_with(g, &a.opt, early, streams ? &sink : NULL, &res, &st) : st.code;
    pf_apsp_early_free(early);
    pf_progress_clear_line();
    int64_t checked = 0;
    if (rc == PF_E_INPUT && res.cycle_len > 0)
        pf_cli_report_cycle(g, &res, name);
    else if (!rc && a.verify) {
        pf_progress_step("verifying the distances from %lld sources",
                         (long long)(verify_sources(g) ? verify_sources(g) : g->n));
        rc = pf_apsp_verify(g, &res, verify_sources(g), &checked, &st);
    }
    if (!rc) {
        apsp_report report = {.name = name, .g = g, .res = &res, .read_s = read_s,
                              .checked = checked, .stats = &out.stats};
        if (a.json)
            print_json(&a, &report);
        else
            print_comments(&a, &report);
        if (fflush(stdout) != 0)
            rc = pf_fail(&st, PF_E_OUTPUT, "writing standard output failed: %s", strerror(errno));
    }
    if (!rc && !out.to_file && !a.stats)
        pf_progress_step("writing %lld x %lld distances%s", (long long)res.n, (long long)res.n,
                         res.next ? " and next hops" : "");
    int closed = output_close(&out, &res, rc != PF_OK, &st);
    rc = rc ? rc : closed;
    /* Not after rows on stdout, where a "c" line would join the matrix
     * (and stderr stays for errors and --progress). */
    if (!rc && !a.json && (out.to_file || a.stats))
        printf("c write ms %.3f\n", out.write_s * 1e3);
    int cycle = res.cycle_len > 0;
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    if (cycle)
        return PF_EXIT_INPUT;
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}
