/* `portaflow apsp`: all-pairs shortest paths of a weighted digraph. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/status.h"
#include "../common/timer.h"
#include "../common/wgraph.h"
#include "apsp.h"
#include "cli.h"

typedef struct apsp_args {
    pf_apsp_options opt;
    int verify, stats, binary;
    const char *out_path; /* NULL: the matrix goes to stdout unless --stats */
    const char *path;
} apsp_args;

static int parse_kind(const char *text, int *kind)
{
    static const struct {
        const char *name;
        int kind;
    } names[] = {{"auto", PF_DIST_AUTO}, {"i32", PF_DIST_I32}, {"i64", PF_DIST_I64},
                 {"f32", PF_DIST_F32}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(text, names[i].name)) {
            *kind = names[i].kind;
            return 0;
        }
    return -1;
}

static int parse_apsp_args(int argc, char **argv, apsp_args *a)
{
    memset(a, 0, sizeof *a);
    pf_apsp_options_init(&a->opt);
    pf_cli_device_args device = {.backend = &a->opt.backend,
                                 .device_index = &a->opt.device_index,
                                 .threads = &a->opt.threads};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int64_t number;
        int taken = pf_cli_device_option(argc, argv, &i, &device);
        if (taken < 0)
            return PF_EXIT_USAGE;
        if (taken) {
            continue;
        } else if (!strcmp(arg, "--type") && i + 1 < argc) {
            if (parse_kind(argv[++i], &a->opt.kind))
                return pf_cli_usage_error("--type takes auto, i32, i64 or f32");
        } else if (!strcmp(arg, "--tile") && i + 1 < argc) {
            if (pf_cli_parse_int(argv[++i], &number) || number < 16 || number % 16 || number > 1024)
                return pf_cli_usage_error("--tile takes a multiple of 16 from 16 to 1024");
            a->opt.tile = (int)number;
        } else if (!strcmp(arg, "--variant") && i + 1 < argc) {
            if ((a->opt.variant = pf_apsp_variant_parse(argv[++i])) < 0)
                return pf_cli_usage_error("--variant takes plain, simd, blocked or per-k");
        } else if (!strcmp(arg, "--simd-width") && i + 1 < argc) {
            if (pf_cli_parse_int(argv[++i], &number) || (number != 8 && number != 16))
                return pf_cli_usage_error("--simd-width takes 8 (AVX2) or 16 (AVX-512)");
            a->opt.simd_width = (int)number;
        } else if (!strcmp(arg, "--out") && i + 1 < argc) {
            a->out_path = argv[++i];
        } else if (!strcmp(arg, "--paths")) {
            a->opt.want_paths = 1;
        } else if (!strcmp(arg, "--verify")) {
            a->verify = 1;
        } else if (!strcmp(arg, "--stats")) {
            a->stats = 1;
        } else if (!strcmp(arg, "--binary")) {
            a->binary = 1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return pf_cli_usage_error("apsp: unknown or incomplete option '%s'", arg);
        } else if (!a->path) {
            a->path = arg;
        } else {
            return pf_cli_usage_error("apsp: more than one input file given");
        }
    }
    if (!a->path)
        return pf_cli_usage_error("apsp: an input file (or - for stdin) is required");
    if (a->binary && (!a->out_path || !strcmp(a->out_path, "-")))
        return pf_cli_usage_error("apsp: --binary needs --out FILE");
    if (pf_cli_check_backend(a->opt.backend))
        return PF_EXIT_USAGE;
    pf_status st;
    if (pf_apsp_variant_check(a->opt.backend, &a->opt, &st))
        return pf_cli_usage_error("apsp: %s", st.message);
    return PF_EXIT_OK;
}

/* ---- matrix output ---------------------------------------------------- */

/* Text rows through one large buffer with hand-made integer formatting:
 * n = 16384 is 268M numbers, where printf would dominate the run. */
typedef struct row_writer {
    FILE *out;
    char *buf;
    size_t used, cap;
} row_writer;

static void put_text(row_writer *w, const char *text, size_t len)
{
    if (w->used + len > w->cap) {
        fwrite(w->buf, 1, w->used, w->out);
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
    for (int64_t i = first; i < first + count; i++)
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

/* One matrix as text into `out` (a blank line first if `blank_first`). */
static int write_text(FILE *out, const pf_apsp_result *res, int next, int blank_first,
                      pf_status *st)
{
    row_writer w = {.out = out, .cap = (size_t)1 << 20};
    w.buf = pf_alloc(w.cap, 1, st);
    if (!w.buf)
        return PF_E_NOMEM;
    if (blank_first)
        put_text(&w, "\n", 1);
    write_rows(&w, res, next, 0, res->n);
    fwrite(w.buf, 1, w.used, out);
    free(w.buf);
    return PF_OK;
}

/* Closes a file we opened (flushes stdout): reports a write error. */
static int finish_output(FILE *out, const char *path, pf_status *st)
{
    int failed = ferror(out);
    failed |= (path ? fclose(out) : fflush(out)) != 0;
    if (failed)
        return pf_fail(st, PF_E_USAGE, "%s: write error: %s", path ? path : "<stdout>",
                       strerror(errno));
    return PF_OK;
}

/* Next hops beside --out FILE, in FILE.next. */
static int write_next_file(const apsp_args *a, const char *path, const pf_apsp_result *res,
                           pf_status *st)
{
    char next_path[4096];
    snprintf(next_path, sizeof next_path, "%s.next", path);
    FILE *next_out = fopen(next_path, a->binary ? "wb" : "w");
    if (!next_out)
        return pf_fail(st, PF_E_USAGE, "%s: cannot write: %s", next_path, strerror(errno));
    int rc = PF_OK;
    if (a->binary)
        fwrite(res->next, sizeof *res->next, (size_t)(res->n * res->n), next_out);
    else
        rc = write_text(next_out, res, 1, 0, st);
    int closed = finish_output(next_out, next_path, st);
    return rc ? rc : closed;
}

/* Distances on stdout, then the next hops after an empty line. */
static int write_stdout(const apsp_args *a, const pf_apsp_result *res, pf_status *st)
{
    int64_t n = res->n;
    int rc = PF_OK;
    if (a->binary)
        fwrite(res->dist, pf_apsp_kind_bytes(res->kind), (size_t)(n * n), stdout);
    else
        rc = write_text(stdout, res, 0, 0, st);
    if (!rc && res->next)
        rc = write_text(stdout, res, 1, 1, st);
    int closed = finish_output(stdout, NULL, st);
    return rc ? rc : closed;
}

/* ---- stats and messages ----------------------------------------------- */

/* --stats over rows as they arrive (the solve's sink). */
typedef struct stats_acc {
    int64_t reachable; /* pairs i != j with a path */
    uint64_t int_sum;  /* integer kinds: the sum, modulo 2^64 */
    double real_sum;
    double diameter;   /* largest distance over i != j; -inf while none */
    int64_t int_max;   /* integer kinds: the same, exactly */
    int any;           /* some pair i != j has a path */
} stats_acc;

/* int32 columns [from, to) of one row: no branches, so it vectorises. */
static void stats_i32_span(stats_acc *s, const int32_t *row, int64_t from, int64_t to)
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
    if (count) {
        s->int_max = !s->any || most > s->int_max ? most : s->int_max;
        s->any = 1;
    }
}

static void stats_value(stats_acc *s, double d, int64_t exact, int diagonal)
{
    if (diagonal)
        return;
    s->reachable++;
    s->diameter = d > s->diameter ? d : s->diameter;
    s->int_max = !s->any || exact > s->int_max ? exact : s->int_max;
    s->any = 1;
}

static void stats_rows(stats_acc *s, const pf_apsp_result *res, int64_t first, int64_t count)
{
    int64_t n = res->n;
    for (int64_t i = first; i < first + count; i++) {
        if (res->kind == PF_DIST_I32) {
            const int32_t *row = (const int32_t *)res->dist + i * n;
            stats_i32_span(s, row, 0, i);
            stats_i32_span(s, row, i + 1, n);
            if (row[i] != PF_APSP_NONE_I32) /* the diagonal counts in the checksum only */
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
                stats_value(s, (double)v, v, i == j);
            } else {
                float v = ((const float *)res->dist)[at];
                if (isinf(v))
                    continue;
                s->real_sum += v;
                stats_value(s, v, 0, i == j);
            }
        }
    }
}

static void print_stats(const stats_acc *s, int kind)
{
    printf("s reachable_pairs %lld\n", (long long)s->reachable);
    if (!s->any)
        printf("s diameter none\n");
    else if (kind == PF_DIST_F32)
        printf("s diameter %.17g\n", s->diameter);
    else
        printf("s diameter %.17g\n", (double)s->int_max);
    if (kind == PF_DIST_F32)
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

/* ---- output while the result downloads -------------------------------- */

/* What the solve's rows feed as they arrive (pf_apsp_sink): the --stats
 * sums, and the distances when they go to --out FILE (opened before the
 * solve, removed again if it fails). Stdout gets its rows after the "c"
 * lines instead, which come after the solve. */
typedef struct apsp_output {
    const apsp_args *a;
    stats_acc stats;
    FILE *file;       /* --out FILE, or NULL */
    const char *path;
    row_writer w;     /* text rows into file */
    double write_s;   /* spent in output, during the download or after */
} apsp_output;

static int output_rows(void *ctx, const pf_apsp_result *res, int64_t first, int64_t count,
                       pf_status *st)
{
    apsp_output *o = ctx;
    double t0 = pf_now();
    if (o->a->stats)
        stats_rows(&o->stats, res, first, count);
    if (o->file && o->a->binary) {
        size_t size = pf_apsp_kind_bytes(res->kind);
        fwrite((const char *)res->dist + (size_t)(first * res->n) * size, size,
               (size_t)(count * res->n), o->file);
    } else if (o->file) {
        write_rows(&o->w, res, 0, first, count);
    }
    o->write_s += pf_now() - t0;
    if (o->file && ferror(o->file))
        return pf_fail(st, PF_E_USAGE, "%s: write error: %s", o->path, strerror(errno));
    return PF_OK;
}

static int output_open(apsp_output *o, const apsp_args *a, pf_status *st)
{
    memset(o, 0, sizeof *o);
    o->a = a;
    o->stats.diameter = -INFINITY;
    if (!a->out_path || !strcmp(a->out_path, "-"))
        return PF_OK;
    o->path = a->out_path;
    o->w.cap = (size_t)1 << 20;
    if (!(o->w.buf = pf_alloc(o->w.cap, 1, st)))
        return PF_E_NOMEM;
    if (!(o->file = o->w.out = fopen(o->path, a->binary ? "wb" : "w")))
        return pf_fail(st, PF_E_USAGE, "%s: cannot write: %s", o->path, strerror(errno));
    return PF_OK;
}

/* Ends the output: the rest of the file (next hops beside it), or the
 * rows on stdout. `failed`: the run failed, the file goes. */
static int output_close(apsp_output *o, const pf_apsp_result *res, int failed, pf_status *st)
{
    double t0 = pf_now();
    int rc = PF_OK;
    if (o->file) {
        fwrite(o->w.buf, 1, o->w.used, o->file);
        rc = finish_output(o->file, o->path, st);
        if (!failed && !rc && res->next)
            rc = write_next_file(o->a, o->path, res, st);
        if (failed || rc)
            remove(o->path);
    } else if (!failed && !o->a->stats) {
        rc = write_stdout(o->a, res, st);
    }
    free(o->w.buf);
    o->write_s += pf_now() - t0;
    return rc;
}

static void print_header(const apsp_args *a, const pf_wgraph *g, const pf_apsp_result *res,
                         const char *name, double read_s, int64_t checked)
{
    int64_t n = res->n;
    double updates = (double)n * (double)n * (double)n;
    printf("c portaflow %s apsp: %s\n", pf_version(), name);
    printf("c vertices %lld, arcs %lld, distances %s%s\n", (long long)n,
           (long long)pf_wgraph_arcs(g), kind_text(res->kind),
           res->next ? ", with next hops" : "");
    printf("c backend %s, device %s, tile %d\n", res->backend, res->device, res->tile);
    printf("c variant %s\n", res->variant);
    printf("c read %.3f s, solve %.3f s (setup %.3f, upload %.3f, compute %.3f, download %.3f)\n",
           read_s, res->times.total, res->times.setup, res->times.upload, res->times.compute,
           res->times.download);
    printf("c times ms: read %.3f, setup %.3f, upload %.3f, compute %.3f, download %.3f\n",
           read_s * 1e3, res->times.setup * 1e3, res->times.upload * 1e3,
           res->times.compute * 1e3, res->times.download * 1e3);
    printf("c compute rate %.3g min-plus updates/s\n",
           res->times.compute > 0 ? updates / res->times.compute : 0.0);
    if (a->verify)
        printf("c verified: %lld of %lld sources checked%s\n", (long long)checked, (long long)n,
               res->next ? ", next hops too" : "");
    if (a->binary)
        printf("c binary matrix: %lld x %lld %s, row-major, native byte order, no path = %s\n",
               (long long)n, (long long)n, kind_text(res->kind),
               res->kind == PF_DIST_F32 ? "+inf" : res->kind == PF_DIST_I32 ? "2^31-1" : "2^63-1");
}

int pf_cli_apsp(int argc, char **argv)
{
    apsp_args a;
    int rc = parse_apsp_args(argc, argv, &a);
    if (rc)
        return rc;
    pf_status st;
    const char *name = strcmp(a.path, "-") ? a.path : "<stdin>";
    apsp_output out;
    if ((rc = output_open(&out, &a, &st))) {
        output_close(&out, NULL, 1, &st);
        return pf_cli_error(&st);
    }
    /* The device starts while the file is read (apsp_open.c). */
    pf_apsp_early *early = pf_apsp_open_early(&a.opt);
    double t0 = pf_now();
    pf_wgraph *g = pf_wgraph_read(a.path, &st);
    double read_s = pf_now() - t0;
    pf_apsp_result res;
    memset(&res, 0, sizeof res);
    pf_apsp_sink sink = {.rows = output_rows, .ctx = &out};
    int64_t checked = 0;
    rc = g ? pf_apsp_with(g, &a.opt, early, a.stats || out.file ? &sink : NULL, &res, &st)
           : st.code;
    pf_apsp_early_free(early);
    if (rc == PF_E_INPUT && res.cycle_len > 0)
        pf_cli_report_cycle(g, &res, name);
    else if (!rc && a.verify)
        rc = pf_apsp_verify(g, &res, verify_sources(g), &checked, &st);
    if (!rc) {
        print_header(&a, g, &res, name, read_s, checked);
        if (a.stats)
            print_stats(&out.stats, res.kind);
        fflush(stdout);
    }
    int failed = rc != PF_OK;
    int closed = output_close(&out, &res, failed, &st);
    rc = rc ? rc : closed;
    /* After the rows on stdout a "c" line would join the matrix: stderr then. */
    int rows_on_stdout = !out.path && !a.stats;
    if (!rc)
        fprintf(rows_on_stdout ? stderr : stdout, "c write ms %.3f\n", out.write_s * 1e3);
    int cycle = res.cycle_len > 0;
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    if (cycle)
        return PF_EXIT_INPUT;
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}
