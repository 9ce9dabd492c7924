/* bench_io: speed of the DIMACS writer and reader and of the residual build.
 *
 * Usage: bench_io [ARCS [VERTICES [THREADS]]]   (defaults: 10,000,000 arcs,
 * ARCS/10 vertices, all OpenMP threads for the residual build). Builds a
 * random network in memory (own xorshift generator, so the numbers do not
 * depend on the generator module), writes it to a temp file in $TMPDIR (or
 * /tmp), reads it back, checks it is identical, builds the residual graph,
 * and prints one table row. Capacities are below 2^40,
 * so 10M arcs make a file of about 300 MB. The read comes from the page
 * cache (the file was just written): it measures parsing, not the disk. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_tmp.h"
#include "common/io.h"
#include "common/residual.h"
#include "common/timer.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Random arcs between random vertices; fills the arrays directly, since
 * going through pf_network_add_arc would time the checks, not the I/O. */
static pf_network *random_network(int64_t vertices, int64_t arcs, pf_status *st)
{
    pf_network *net = pf_network_new(vertices, 0, vertices - 1, st);
    if (!net)
        return NULL;
    if (pf_network_reserve(net, arcs, st)) {
        pf_network_free(net);
        return NULL;
    }
    for (int64_t i = 0; i < arcs; i++) {
        net->tail[i] = (int32_t)(rng_next() % (uint64_t)vertices);
        net->head[i] = (int32_t)(rng_next() % (uint64_t)vertices);
        net->cap[i] = (int64_t)(rng_next() >> 24); /* below 2^40 */
    }
    net->m = arcs;
    return net;
}

static int same_network(const pf_network *a, const pf_network *b)
{
    if (a->n != b->n || a->m != b->m || a->source != b->source || a->sink != b->sink)
        return 0;
    size_t m = (size_t)a->m;
    return memcmp(a->tail, b->tail, m * sizeof *a->tail) == 0 &&
           memcmp(a->head, b->head, m * sizeof *a->head) == 0 &&
           memcmp(a->cap, b->cap, m * sizeof *a->cap) == 0;
}

static int64_t parse_count(const char *text, const char *what)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end || v < 1) {
        fprintf(stderr, "bench_io: %s must be a positive integer, not '%s'\n", what, text);
        exit(1);
    }
    return v;
}

int main(int argc, char **argv)
{
    int64_t arcs = argc > 1 ? parse_count(argv[1], "ARCS") : 10000000;
    int64_t vertices = argc > 2 ? parse_count(argv[2], "VERTICES") : arcs / 10;
    if (vertices < 2)
        vertices = 2;
    int threads = argc > 3 ? (int)parse_count(argv[3], "THREADS") : 0;

    char path[4096];
    if (bench_tmpfile("bench_io", path, sizeof path))
        return 1;

    pf_status st;
    double t0 = pf_now();
    pf_network *net = random_network(vertices, arcs, &st);
    double t_gen = pf_now() - t0;
    int ok = net != NULL;

    double t_write = 0, t_read = 0, t_residual = 0, mb = 0;
    pf_network *back = NULL;
    if (ok) {
        t0 = pf_now();
        ok = pf_network_write_dimacs(net, path, &st) == PF_OK;
        t_write = pf_now() - t0;
    }
    struct stat sb;
    if (ok && stat(path, &sb) == 0)
        mb = (double)sb.st_size / 1e6;
    if (ok) {
        t0 = pf_now();
        back = pf_network_read_dimacs(path, &st);
        t_read = pf_now() - t0;
        ok = back != NULL;
    }
    if (ok && !same_network(net, back)) {
        fprintf(stderr, "bench_io: the network read back differs from the one written\n");
        ok = 0;
        st.message[0] = '\0';
    }
    if (ok) {
        pf_residual g;
        t0 = pf_now();
        ok = pf_residual_build(back, &g, PF_ARCS_INPUT, threads, &st) == PF_OK;
        t_residual = pf_now() - t0;
        pf_residual_free(&g);
    }
    unlink(path);
    pf_network_free(net);
    pf_network_free(back);
    if (!ok) {
        if (st.message[0])
            fprintf(stderr, "bench_io: %s\n", st.message);
        return 1;
    }

    printf("%12s %10s %9s %7s %8s %10s %7s %10s %10s\n", "arcs", "vertices", "file MB",
           "gen s", "write s", "write MB/s", "read s", "read MB/s", "residual s");
    printf("%12lld %10lld %9.1f %7.2f %8.2f %10.0f %7.2f %10.0f %10.2f\n",
           (long long)arcs, (long long)vertices, mb, t_gen, t_write, mb / t_write,
           t_read, mb / t_read, t_residual);
    return 0;
}
