/* bench_apsp: Floyd-Warshall speed of every backend, in min-plus updates
 * per second (n^3 / compute time), on random graphs of the seed study's
 * sizes and the n = 16384.
 *
 * Usage: bench_apsp [--backends "cuda opencl omp seq"] [--sizes "1080 2000
 *        5000 8362 16384"] [--reps R] [--type i32|i64|f32] [--paths]
 *        [--max-n BACKEND=N ...] [--tile T] [--threads T]
 *
 * Each graph has 16 random out-arcs per vertex with weights 1..1000 (the
 * work of Floyd-Warshall does not depend on the arcs; weights this small
 * keep int32 exact). The best of R runs is reported (the first run also
 * pays for device start-up, which is outside the compute time anyway).
 * Every backend's matrix checksum must agree with the first backend's for
 * the same n: a disagreement is printed and makes the exit status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gen.h"
#include "common/wgraph.h"
#include "portaflow.h"

enum { MAX_ITEMS = 16 };

typedef struct bench_args {
    const char *backends[MAX_ITEMS];
    int backend_count;
    int64_t sizes[MAX_ITEMS];
    int size_count;
    int64_t max_n[MAX_ITEMS]; /* per backend; 0 = no limit */
    int reps, kind, paths, tile, threads;
} bench_args;

static int split_words(char *text, const char **out, int max)
{
    int count = 0;
    for (char *w = strtok(text, " ,"); w && count < max; w = strtok(NULL, " ,"))
        out[count++] = w;
    return count;
}

static int parse_args(int argc, char **argv, bench_args *a)
{
    static char default_backends[] = "cuda opencl omp seq";
    static char default_sizes[] = "1080 2000 5000 8362 16384";
    char *backends = default_backends, *sizes = default_sizes;
    const char *limits[MAX_ITEMS];
    int limit_count = 0;
    memset(a, 0, sizeof *a);
    a->reps = 2;
    a->kind = PF_DIST_I32;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--paths")) {
            a->paths = 1;
            continue;
        }
        if (!value) {
            fprintf(stderr, "bench_apsp: unknown or incomplete option %s\n", arg);
            return -1;
        }
        i++;
        if (!strcmp(arg, "--backends"))
            backends = argv[i];
        else if (!strcmp(arg, "--sizes"))
            sizes = argv[i];
        else if (!strcmp(arg, "--reps"))
            a->reps = atoi(value);
        else if (!strcmp(arg, "--tile"))
            a->tile = atoi(value);
        else if (!strcmp(arg, "--threads"))
            a->threads = atoi(value);
        else if (!strcmp(arg, "--max-n") && limit_count < MAX_ITEMS)
            limits[limit_count++] = value;
        else if (!strcmp(arg, "--type"))
            a->kind = !strcmp(value, "i64") ? PF_DIST_I64 : !strcmp(value, "f32") ? PF_DIST_F32
                                                                                  : PF_DIST_I32;
        else {
            fprintf(stderr, "bench_apsp: unknown option %s\n", arg);
            return -1;
        }
    }
    a->backend_count = split_words(backends, a->backends, MAX_ITEMS);
    const char *size_words[MAX_ITEMS];
    a->size_count = split_words(sizes, size_words, MAX_ITEMS);
    for (int s = 0; s < a->size_count; s++)
        a->sizes[s] = atoll(size_words[s]);
    /* Defaults keep the slow engines to sizes they finish in seconds. */
    for (int b = 0; b < a->backend_count; b++)
        a->max_n[b] = !strcmp(a->backends[b], "seq") ? 2000 : !strcmp(a->backends[b], "omp") ? 8362 : 0;
    for (int l = 0; l < limit_count; l++) {
        const char *eq = strchr(limits[l], '=');
        for (int b = 0; eq && b < a->backend_count; b++)
            if (!strncmp(limits[l], a->backends[b], (size_t)(eq - limits[l])) &&
                strlen(a->backends[b]) == (size_t)(eq - limits[l]))
                a->max_n[b] = atoll(eq + 1);
    }
    return a->reps > 0 && a->backend_count > 0 && a->size_count > 0 ? 0 : -1;
}

static pf_wgraph *bench_graph(int64_t n, pf_status *st)
{
    pf_wgraph *g = pf_wgraph_new(n, st);
    if (!g || pf_wgraph_reserve(g, n * 16, st)) {
        pf_wgraph_free(g);
        return NULL;
    }
    pf_rng rng;
    pf_rng_seed(&rng, (uint64_t)n);
    for (int64_t u = 0; u < n; u++)
        for (int k = 0; k < 16 && n > 1; k++) {
            int64_t v = pf_rng_range(&rng, 0, n - 2);
            pf_wgraph_add_arc(g, u, v >= u ? v + 1 : v, pf_rng_range(&rng, 1, 1000), st);
        }
    return g;
}

static uint64_t checksum(const pf_apsp_result *res)
{
    uint64_t sum = 0;
    int64_t cells = res->n * res->n;
    for (int64_t at = 0; at < cells; at++) {
        if (res->kind == PF_DIST_I32)
            sum = sum * 31 + (uint64_t)(int64_t)((const int32_t *)res->dist)[at];
        else if (res->kind == PF_DIST_I64)
            sum = sum * 31 + (uint64_t)((const int64_t *)res->dist)[at];
        else
            sum = sum * 31 + (uint64_t)(int64_t)((const float *)res->dist)[at];
    }
    return sum;
}

int main(int argc, char **argv)
{
    bench_args a;
    if (parse_args(argc, argv, &a)) {
        fprintf(stderr, "usage: bench_apsp [--backends LIST] [--sizes LIST] [--reps R] "
                        "[--type i32|i64|f32] [--paths] [--max-n BACKEND=N] [--tile T] "
                        "[--threads T]\n");
        return 2;
    }
    int disagreements = 0;
    printf("| n | backend | device | type | tile | compute s | updates/s | upload s | "
           "download s | total s | checksum |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < a.size_count; s++) {
        int64_t n = a.sizes[s];
        pf_status st;
        pf_wgraph *g = bench_graph(n, &st);
        if (!g) {
            fprintf(stderr, "bench_apsp: n=%lld: %s\n", (long long)n, st.message);
            return 1;
        }
        uint64_t first_sum = 0;
        int have_first = 0;
        for (int b = 0; b < a.backend_count; b++) {
            if (a.max_n[b] && n > a.max_n[b])
                continue;
            pf_apsp_options opt;
            pf_apsp_options_init(&opt);
            opt.backend = a.backends[b];
            opt.kind = a.kind;
            opt.want_paths = a.paths;
            opt.tile = a.tile;
            opt.threads = a.threads;
            pf_apsp_result best = {0};
            int rc = PF_OK;
            for (int r = 0; r < a.reps && !rc; r++) {
                pf_apsp_result res;
                rc = pf_apsp(g, &opt, &res, &st);
                if (rc)
                    break;
                if (!best.dist || res.times.compute < best.times.compute) {
                    pf_apsp_result_free(&best);
                    best = res;
                } else {
                    pf_apsp_result_free(&res);
                }
            }
            if (rc) {
                printf("| %lld | %s | failed: %s |||||||||\n", (long long)n, a.backends[b],
                       st.message);
                fflush(stdout);
                continue;
            }
            uint64_t sum = checksum(&best);
            const char *agree = "";
            if (!have_first) {
                first_sum = sum;
                have_first = 1;
            } else if (sum != first_sum) {
                agree = " DISAGREES";
                disagreements++;
            }
            double updates = (double)n * (double)n * (double)n;
            printf("| %lld | %s | %s | %s | %d | %.4f | %.3g | %.4f | %.4f | %.4f | %016llx%s |\n",
                   (long long)n, best.backend, best.device,
                   best.kind == PF_DIST_I32 ? "i32" : best.kind == PF_DIST_I64 ? "i64" : "f32",
                   best.tile, best.times.compute, updates / best.times.compute,
                   best.times.upload, best.times.download, best.times.total,
                   (unsigned long long)sum, agree);
            fflush(stdout);
            pf_apsp_result_free(&best);
        }
        pf_wgraph_free(g);
    }
    if (disagreements)
        fprintf(stderr, "bench_apsp: %d result(s) disagree with the first backend\n",
                disagreements);
    return disagreements ? 1 : 0;
}
