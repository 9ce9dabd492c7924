/* graph_sg: writes a portaflow analytics graph (any form pf_csr_read takes,
 * usually gen --format bin) as GAPBS's serialized graphs, so that GAPBS
 * and portaflow run the identical graph (bench/graph_anchors.sh):
 *
 *   graph_sg GRAPH OUT.sg [OUT.wsg]
 *   graph_sg --from-edges EDGES OUT.bin
 *
 * The layout is GAPBS's own (its src/writer.h, read by src/reader.h):
 * bool directed, int64 arcs, int64 vertices, int64 offsets[n+1], then
 * int32 heads (.sg) or {int32 head, int32 weight} pairs (.wsg); a directed
 * graph repeats offsets and arrays for the reverse graph. Weights must fit
 * int32. Prints "root R": the first vertex (0-based) with an out-arc, the
 * source both sides use. The second form turns an undirected edge list
 * with ids from 0 (a real graph as SNAP ships it: `#` comments, `u v`
 * lines) into portaflow's binary form, the first form's usual input.
 * Exit 2 on bad input, 4 on a failed write. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/graph_csr.h"

static int put(const void *data, size_t size, size_t count, FILE *out)
{
    return count == 0 || fwrite(data, size, count, out) == count;
}

static int write_one(const pf_csr *g, const pf_csr *rev, FILE *out, int weighted)
{
    const pf_csr *parts[2] = {g, rev};
    int ok = 1;
    for (int p = 0; p < (rev ? 2 : 1) && ok; p++) {
        const pf_csr *c = parts[p];
        ok = put(c->first, 8, (size_t)c->n + 1, out);
        if (!weighted) {
            ok = ok && put(c->head, 4, (size_t)c->m, out);
            continue;
        }
        for (int64_t a = 0; ok && a < c->m; a++) {
            int32_t pair[2] = {c->head[a], (int32_t)pf_csr_weight_i(c, a)};
            ok = put(pair, 4, 2, out);
        }
    }
    return ok;
}

static int write_sg(const pf_csr *g, const pf_csr *rev, const char *path, int weighted)
{
    FILE *out = fopen(path, "wb");
    if (!out) {
        perror(path);
        return 4;
    }
    _Bool directed = rev != NULL;
    int64_t arcs = g->m, n = g->n;
    int ok = put(&directed, 1, 1, out) && put(&arcs, 8, 1, out) && put(&n, 8, 1, out) &&
             write_one(g, rev, out, weighted);
    if (fclose(out) != 0 || !ok) {
        fprintf(stderr, "graph_sg: %s: write failed\n", path);
        return 4;
    }
    return 0;
}

/* graph_sg --from-edges EDGES OUT.bin */
static int edges_to_bin(const char *edges, const char *path)
{
    pf_status st;
    pf_csr_read_options opt = {.zero_based = 1, .undirected = 1};
    pf_csr *g = pf_csr_read(edges, &opt, &st);
    if (!g) {
        fprintf(stderr, "graph_sg: %s\n", st.message);
        return 2;
    }
    FILE *out = fopen(path, "wb");
    int rc = out && pf_csr_write_bin(g, out, &st) == PF_OK ? 0 : 4;
    if (out && fclose(out) != 0)
        rc = 4;
    if (rc)
        fprintf(stderr, "graph_sg: %s: write failed\n", path);
    pf_csr_free(g);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--from-edges") == 0)
        return edges_to_bin(argv[2], argv[3]);
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: graph_sg GRAPH OUT.sg [OUT.wsg]\n"
                        "       graph_sg --from-edges EDGES OUT.bin\n");
        return 1;
    }
    pf_status st;
    pf_csr *g = pf_csr_read(argv[1], NULL, &st);
    if (!g) {
        fprintf(stderr, "graph_sg: %s\n", st.message);
        return 2;
    }
    for (int64_t a = 0; a < g->m && g->int_weight; a++)
        if (g->int_weight[a] < INT32_MIN || g->int_weight[a] > INT32_MAX) {
            fprintf(stderr, "graph_sg: weight %lld does not fit int32\n",
                    (long long)g->int_weight[a]);
            return 2;
        }
    pf_csr *rev = g->undirected ? NULL : pf_csr_transpose(g, &st);
    int rc = write_sg(g, rev, argv[2], 0);
    if (!rc && argc == 4)
        rc = write_sg(g, rev, argv[3], 1);
    int64_t root = 0;
    while (root < g->n - 1 && g->first[root + 1] == g->first[root])
        root++;
    printf("root %lld\n", (long long)root);
    pf_csr_free(rev);
    pf_csr_free(g);
    return rc;
}
