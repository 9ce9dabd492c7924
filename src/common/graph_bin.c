/* Writers of the analytics CSR (graph_csr.h): portaflow's binary form and
 * its reader, and the edge-list and DIMACS `p sp` text forms. The binary
 * form is the arrays as they lie in memory (little-endian hosts only), so
 * a 500M-arc benchmark graph loads at the speed of the disk. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "graph_csr.h"
#include "network.h"
#include "status.h"

static const char bin_magic[8] = {'P', 'F', 'C', 'S', 'R', '0', '0', '1'};

typedef struct bin_header {
    char magic[8];
    int64_t n, m;
    int32_t weights, undirected;
} bin_header;

static int write_failed(pf_status *st)
{
    return pf_fail(st, PF_E_OUTPUT, "<output stream>: write failed: %s", strerror(errno));
}

static int put(const void *data, size_t size, size_t count, FILE *out)
{
    return count == 0 || fwrite(data, size, count, out) == count;
}

int pf_csr_write_bin(const pf_csr *g, FILE *out, pf_status *st)
{
    bin_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, bin_magic, sizeof h.magic);
    h.n = g->n;
    h.m = g->m;
    h.weights = g->weights;
    h.undirected = g->undirected;
    int ok = put(&h, sizeof h, 1, out) && put(g->first, sizeof *g->first, (size_t)g->n + 1, out) &&
             put(g->head, sizeof *g->head, (size_t)g->m, out);
    if (ok && g->int_weight)
        ok = put(g->int_weight, sizeof *g->int_weight, (size_t)g->m, out);
    if (ok && g->real_weight)
        ok = put(g->real_weight, sizeof *g->real_weight, (size_t)g->m, out);
    if (!ok || fflush(out) != 0)
        return write_failed(st);
    return PF_OK;
}

int pf_csr_is_bin(const char *data, size_t len)
{
    return len >= sizeof bin_magic && memcmp(data, bin_magic, sizeof bin_magic) == 0;
}

/* The structure a reader relies on: offsets from 0 to m, never falling,
 * heads in range. */
static int check_arrays(const pf_csr *g, const char *name, pf_status *st)
{
    if (g->first[0] != 0 || g->first[g->n] != g->m)
        return pf_fail(st, PF_E_INPUT, "%s: binary graph: offsets run from %lld to %lld, not 0 "
                       "to m = %lld", name, (long long)g->first[0], (long long)g->first[g->n],
                       (long long)g->m);
    for (int64_t v = 0; v < g->n; v++)
        if (g->first[v + 1] < g->first[v])
            return pf_fail(st, PF_E_INPUT, "%s: binary graph: offset of vertex %lld falls",
                           name, (long long)v + 1);
    for (int64_t a = 0; a < g->m; a++)
        if (g->head[a] < 0 || g->head[a] >= g->n)
            return pf_fail(st, PF_E_INPUT, "%s: binary graph: arc %lld heads to %lld, outside "
                           "1..%lld", name, (long long)a + 1, (long long)g->head[a] + 1,
                           (long long)g->n);
    return PF_OK;
}

static int get(void *data, size_t size, size_t count, FILE *in)
{
    return count == 0 || fread(data, size, count, in) == count;
}

pf_csr *pf_csr_read_bin(FILE *in, const char *name, uint64_t file_bytes, int no_weights,
                        pf_status *st)
{
    bin_header h;
    if (file_bytes < sizeof h || !get(&h, sizeof h, 1, in)) {
        pf_fail(st, PF_E_INPUT, "%s: binary graph: shorter than its header", name);
        return NULL;
    }
    if (h.n < 1 || h.n > PF_MAX_VERTICES || h.m < 0 || h.weights < PF_CSR_W_NONE ||
        h.weights > PF_CSR_W_F64 || (h.undirected != 0 && h.undirected != 1)) {
        pf_fail(st, PF_E_INPUT, "%s: binary graph: bad header (n %lld, m %lld, weights %d)",
                name, (long long)h.n, (long long)h.m, (int)h.weights);
        return NULL;
    }
    uint64_t weight_bytes = h.weights == PF_CSR_W_NONE ? 0 : 8;
    uint64_t want = sizeof h + ((uint64_t)h.n + 1) * 8 + (uint64_t)h.m * (4 + weight_bytes);
    if (file_bytes != want) {
        pf_fail(st, PF_E_INPUT, "%s: binary graph: %llu bytes, its header (n %lld, m %lld) "
                "needs %llu", name, (unsigned long long)file_bytes, (long long)h.n,
                (long long)h.m, (unsigned long long)want);
        return NULL;
    }
    pf_csr *g = pf_calloc(1, sizeof *g, st);
    if (!g)
        return NULL;
    if (no_weights) { /* the arrays are checked for size above, not read */
        h.weights = PF_CSR_W_NONE;
        weight_bytes = 0;
    }
    g->n = h.n;
    g->m = h.m;
    g->weights = h.weights;
    g->undirected = h.undirected;
    size_t room = h.m ? (size_t)h.m : 1;
    g->first = pf_alloc((size_t)h.n + 1, sizeof *g->first, st);
    g->head = pf_alloc(room, sizeof *g->head, st);
    int ok = g->first && g->head;
    if (ok && h.weights == PF_CSR_W_I64)
        ok = (g->int_weight = pf_alloc(room, 8, st)) != NULL;
    if (ok && h.weights == PF_CSR_W_F64)
        ok = (g->real_weight = pf_alloc(room, 8, st)) != NULL;
    if (ok) {
        void *weights = g->int_weight ? (void *)g->int_weight : (void *)g->real_weight;
        ok = get(g->first, 8, (size_t)h.n + 1, in) && get(g->head, 4, (size_t)h.m, in) &&
             (!weight_bytes || get(weights, 8, (size_t)h.m, in));
        if (!ok)
            pf_fail(st, PF_E_INPUT, "%s: binary graph: read failed: %s", name,
                    ferror(in) ? strerror(errno) : "the file ended early");
        else
            ok = check_arrays(g, name, st) == PF_OK;
    }
    if (!ok) {
        pf_csr_free(g);
        return NULL;
    }
    return g;
}

static int put_comment(FILE *out, char lead, const char *comment)
{
    for (const char *line = comment; line && *line;) {
        size_t len = strcspn(line, "\n");
        if (fprintf(out, "%c %.*s\n", lead, (int)len, line) < 0)
            return 0;
        line += len + (line[len] == '\n');
    }
    return 1;
}

static int put_weight(FILE *out, const pf_csr *g, int64_t a)
{
    if (g->real_weight)
        return fprintf(out, " %.17g\n", g->real_weight[a]) > 0;
    if (g->int_weight)
        return fprintf(out, " %" PRId64 "\n", g->int_weight[a]) > 0;
    return fputc('\n', out) != EOF;
}

int pf_csr_write_el(const pf_csr *g, FILE *out, const char *comment, pf_status *st)
{
    int ok = put_comment(out, '#', comment);
    for (int64_t u = 0; ok && u < g->n; u++)
        for (int64_t a = g->first[u]; ok && a < g->first[u + 1]; a++) {
            if (g->undirected && g->head[a] < u)
                continue;
            ok = fprintf(out, "%" PRId64 " %" PRId32, u, g->head[a]) > 0 &&
                 put_weight(out, g, a);
        }
    if (!ok || fflush(out) != 0)
        return write_failed(st);
    return PF_OK;
}

int pf_csr_write_dimacs(const pf_csr *g, FILE *out, const char *comment, pf_status *st)
{
    int ok = put_comment(out, 'c', comment) &&
             fprintf(out, "p sp %" PRId64 " %" PRId64 "\n", g->n, g->m) > 0;
    for (int64_t u = 0; ok && u < g->n; u++)
        for (int64_t a = g->first[u]; ok && a < g->first[u + 1]; a++) {
            ok = fprintf(out, "a %" PRId64 " %" PRId32, u + 1, g->head[a] + 1) > 0;
            if (ok && !g->int_weight && !g->real_weight)
                ok = fputs(" 1\n", out) != EOF;
            else if (ok)
                ok = put_weight(out, g, a);
        }
    if (!ok || fflush(out) != 0)
        return write_failed(st);
    return PF_OK;
}
