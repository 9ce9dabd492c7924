/* bench_wio: speed of the weighted-digraph writer and reader (APSP input).
 *
 * Usage: bench_wio [ARCS [VERTICES]] [--real]   (defaults: 15,000,000 arcs,
 *        ARCS/10 vertices, integer weights in [1, 1000])
 *        bench_wio --read FILE                  (any format pf_wgraph_read
 *        takes: times the read alone)
 *
 * The first form generates a graph with pf_gen_wgraph, writes it as DIMACS
 * sp to a temp file in $TMPDIR (or /tmp), reads it back, checks it is
 * identical and prints one table row. With integer weights 15M arcs make a
 * file of about 300 MB; --real weights take 17 digits, so 10M arcs do. The
 * read comes from the page cache (the file was just written): it measures
 * parsing, not the disk. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_tmp.h"
#include "common/timer.h"
#include "common/wgen.h"
#include "common/wgraph.h"
#include "common/wgraph_io.h"

static int same_graph(const pf_wgraph *a, const pf_wgraph *b)
{
    if (a->n != b->n || a->m != b->m || pf_wgraph_is_real(a) != pf_wgraph_is_real(b))
        return 0;
    size_t m = (size_t)a->m;
    int weights = a->real_weight ? memcmp(a->real_weight, b->real_weight, m * sizeof(double))
                                 : memcmp(a->int_weight, b->int_weight, m * sizeof(int64_t));
    return weights == 0 && memcmp(a->tail, b->tail, m * sizeof *a->tail) == 0 &&
           memcmp(a->head, b->head, m * sizeof *a->head) == 0;
}

static double file_mb(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (double)sb.st_size / 1e6 : 0;
}

/* bench_wio --read FILE */
static int time_read(const char *path)
{
    pf_status st;
    double t0 = pf_now();
    pf_wgraph *g = pf_wgraph_read(path, &st);
    double t_read = pf_now() - t0;
    if (!g) {
        fprintf(stderr, "bench_wio: %s\n", st.message);
        return 1;
    }
    double mb = file_mb(path);
    printf("%12s %10s %5s %9s %7s %10s\n", "arcs", "vertices", "real", "file MB", "read s",
           "read MB/s");
    printf("%12lld %10lld %5d %9.1f %7.2f %10.0f\n", (long long)g->m, (long long)g->n,
           pf_wgraph_is_real(g), mb, t_read, mb / t_read);
    pf_wgraph_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--read"))
        return time_read(argv[2]);
    int real = argc > 1 && !strcmp(argv[argc - 1], "--real");
    int counts = argc - 1 - real;
    long long arcs = real ? 10000000 : 15000000, vertices = 0;
    char extra;
    if (counts > 2 || (counts > 0 && sscanf(argv[1], "%lld%c", &arcs, &extra) != 1) ||
        (counts > 1 && sscanf(argv[2], "%lld%c", &vertices, &extra) != 1) || arcs < 1) {
        fprintf(stderr, "usage: bench_wio [ARCS [VERTICES]] [--real] | --read FILE\n");
        return 1;
    }
    if (counts < 2)
        vertices = arcs / 10;
    pf_wgen_params params = {.vertices = vertices < 2 ? 2 : vertices, .arcs = arcs, .min = 1,
                             .max = 1000, .real = real, .min_real = 1, .max_real = 1000,
                             .seed = 1};

    char path[4096];
    if (bench_tmpfile("bench_wio", path, sizeof path))
        return 1;

    pf_status st;
    double t0 = pf_now();
    pf_wgraph *g = pf_gen_wgraph(&params, &st);
    double t_gen = pf_now() - t0, t_write = 0, t_read = 0;
    pf_wgraph *back = NULL;
    FILE *out = g ? fopen(path, "wb") : NULL;
    int ok = out != NULL;
    if (g && !out)
        snprintf(st.message, sizeof st.message, "%.400s: cannot create", path);
    if (ok) {
        t0 = pf_now();
        ok = pf_wgraph_write_dimacs(g, out, NULL, &st) == PF_OK;
        ok = fclose(out) == 0 && ok;
        t_write = pf_now() - t0;
    }
    double mb = file_mb(path);
    if (ok) {
        t0 = pf_now();
        back = pf_wgraph_read(path, &st);
        t_read = pf_now() - t0;
        ok = back != NULL;
    }
    if (ok && !same_graph(g, back)) {
        snprintf(st.message, sizeof st.message, "the graph read back differs");
        ok = 0;
    }
    unlink(path);
    pf_wgraph_free(g);
    pf_wgraph_free(back);
    if (!ok) {
        fprintf(stderr, "bench_wio: %s\n", st.message);
        return 1;
    }
    printf("%12s %10s %5s %9s %7s %8s %10s %7s %10s\n", "arcs", "vertices", "real", "file MB",
           "gen s", "write s", "write MB/s", "read s", "read MB/s");
    printf("%12lld %10lld %5d %9.1f %7.2f %8.2f %10.0f %7.2f %10.0f\n", arcs,
           (long long)params.vertices, real, mb, t_gen, t_write, mb / t_write, t_read,
           mb / t_read);
    return 0;
}
