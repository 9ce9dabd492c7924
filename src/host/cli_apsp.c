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

/* Distances (next = 0) or next hops (1-based, "-" for none), one row per
 * source in id order. */
static void write_rows(row_writer *w, const pf_apsp_result *res, int next)
{
    int64_t n = res->n;
    for (int64_t i = 0; i < n; i++)
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
    write_rows(&w, res, next);
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

/* Distances to --out (or stdout). Next hops go to a second file beside
 * --out (FILE.next), or follow on stdout after an empty line. */
static int write_matrix(const apsp_args *a, const pf_apsp_result *res, pf_status *st)
{
    const char *path = a->out_path && strcmp(a->out_path, "-") ? a->out_path : NULL;
    FILE *out = path ? fopen(path, a->binary ? "wb" : "w") : stdout;
    if (!out)
        return pf_fail(st, PF_E_USAGE, "%s: cannot write: %s", path, strerror(errno));
    int64_t n = res->n;
    int rc = PF_OK;
    if (a->binary)
        fwrite(res->dist, pf_apsp_kind_bytes(res->kind), (size_t)(n * n), out);
    else
        rc = write_text(out, res, 0, 0, st);
    if (!rc && res->next && path) {
        char next_path[4096];
        snprintf(next_path, sizeof next_path, "%s.next", path);
        FILE *next_out = fopen(next_path, a->binary ? "wb" : "w");
        if (!next_out) {
            rc = pf_fail(st, PF_E_USAGE, "%s: cannot write: %s", next_path, strerror(errno));
        } else {
            if (a->binary)
                fwrite(res->next, sizeof *res->next, (size_t)(n * n), next_out);
            else
                rc = write_text(next_out, res, 1, 0, st);
            int closed = finish_output(next_out, next_path, st);
            rc = rc ? rc : closed;
        }
    } else if (!rc && res->next) {
        rc = write_text(out, res, 1, 1, st);
    }
    int closed = finish_output(out, path, st);
    return rc ? rc : closed;
}

/* ---- stats and messages ----------------------------------------------- */

static void print_stats(const pf_apsp_result *res)
{
    int64_t n = res->n, reachable = 0;
    uint64_t int_sum = 0;
    double real_sum = 0, diameter = -INFINITY;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t at = i * n + j;
            double d;
            if (res->kind == PF_DIST_I32) {
                int32_t v = ((const int32_t *)res->dist)[at];
                if (v == PF_APSP_NONE_I32)
                    continue;
                int_sum += (uint64_t)(int64_t)v;
                d = v;
            } else if (res->kind == PF_DIST_I64) {
                int64_t v = ((const int64_t *)res->dist)[at];
                if (v == PF_APSP_NONE_I64)
                    continue;
                int_sum += (uint64_t)v;
                d = (double)v;
            } else {
                float v = ((const float *)res->dist)[at];
                if (isinf(v))
                    continue;
                real_sum += v;
                d = v;
            }
            if (i != j) {
                reachable++;
                diameter = d > diameter ? d : diameter;
            }
        }
    printf("s reachable_pairs %lld\n", (long long)reachable);
    if (reachable == 0)
        printf("s diameter none\n");
    else
        printf("s diameter %.17g\n", diameter);
    if (res->kind == PF_DIST_F32)
        printf("s checksum %.17g\n", real_sum);
    else
        printf("s checksum %llu\n", (unsigned long long)int_sum);
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

int pf_cli_apsp(int argc, char **argv)
{
    apsp_args a;
    int rc = parse_apsp_args(argc, argv, &a);
    if (rc)
        return rc;
    pf_status st;
    const char *name = strcmp(a.path, "-") ? a.path : "<stdin>";
    double t0 = pf_now();
    pf_wgraph *g = pf_wgraph_read(a.path, &st);
    if (!g)
        return pf_cli_error(&st);
    double read_s = pf_now() - t0;
    pf_apsp_result res;
    rc = pf_apsp(g, &a.opt, &res, &st);
    if (rc == PF_E_INPUT && res.cycle_len > 0) {
        pf_cli_report_cycle(g, &res, name);
        pf_apsp_result_free(&res);
        pf_wgraph_free(g);
        return PF_EXIT_INPUT;
    }
    if (rc) {
        pf_wgraph_free(g);
        return pf_cli_error(&st);
    }
    int64_t checked = 0;
    if (a.verify && (rc = pf_apsp_verify(g, &res, verify_sources(g), &checked, &st)) != PF_OK) {
        pf_apsp_result_free(&res);
        pf_wgraph_free(g);
        return pf_cli_error(&st);
    }
    int64_t n = res.n;
    double updates = (double)n * (double)n * (double)n;
    printf("c portaflow %s apsp: %s\n", pf_version(), name);
    printf("c vertices %lld, arcs %lld, distances %s%s\n", (long long)n,
           (long long)pf_wgraph_arcs(g), kind_text(res.kind),
           res.next ? ", with next hops" : "");
    printf("c backend %s, device %s, tile %d\n", res.backend, res.device, res.tile);
    printf("c variant %s\n", res.variant);
    printf("c read %.3f s, solve %.3f s (setup %.3f, upload %.3f, compute %.3f, download %.3f)\n",
           read_s, res.times.total, res.times.setup, res.times.upload, res.times.compute,
           res.times.download);
    printf("c times ms: read %.3f, setup %.3f, upload %.3f, compute %.3f, download %.3f\n",
           read_s * 1e3, res.times.setup * 1e3, res.times.upload * 1e3, res.times.compute * 1e3,
           res.times.download * 1e3);
    printf("c compute rate %.3g min-plus updates/s\n",
           res.times.compute > 0 ? updates / res.times.compute : 0.0);
    if (a.verify)
        printf("c verified: %lld of %lld sources checked%s\n", (long long)checked, (long long)n,
               res.next ? ", next hops too" : "");
    if (a.binary)
        printf("c binary matrix: %lld x %lld %s, row-major, native byte order, no path = %s\n",
               (long long)n, (long long)n, kind_text(res.kind),
               res.kind == PF_DIST_F32 ? "+inf" : res.kind == PF_DIST_I32 ? "2^31-1" : "2^63-1");
    if (a.stats)
        print_stats(&res);
    fflush(stdout);
    double t_write = pf_now();
    if (a.out_path || !a.stats)
        rc = write_matrix(&a, &res, &st);
    /* After the rows on stdout a "c" line would join the matrix: stderr then. */
    int rows_on_stdout = !a.out_path ? !a.stats : !strcmp(a.out_path, "-");
    if (!rc)
        fprintf(rows_on_stdout ? stderr : stdout, "c write ms %.3f\n", (pf_now() - t_write) * 1e3);
    pf_apsp_result_free(&res);
    pf_wgraph_free(g);
    return rc ? pf_cli_error(&st) : PF_EXIT_OK;
}
