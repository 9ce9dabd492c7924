/* pf_csr_read (graph_csr.h): picks the format by content and builds the
 * analytics CSR; the plain edge-list reader lives here.
 *
 * Edge lists as SNAP and the network repositories ship them: '#' or '%'
 * comment lines, blank lines, "U V" or "U V W" per arc (blanks or tabs
 * between), every arc line with a weight or none of them. Ids start at 1,
 * or at 0 with zero_based; the vertex count is the largest id seen. W is
 * an integer or a real (as the `p sp` reader takes them). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "graph_csr.h"
#include "io.h"
#include "network.h"
#include "scan.h"
#include "status.h"
#include "wgraph.h"

#define EL_USAGE "U V [W]"

typedef struct el_parser {
    line_ctx lc;
    pf_wgraph *g;
    int64_t base;       /* 1, or 0 with zero_based */
    int64_t top;        /* largest 0-based id seen */
    int weighted;       /* -1 until the first arc line says */
    int64_t first_line; /* the first arc line */
} el_parser;

static int el_id(el_parser *ep, const char **pp, const char *what, int64_t *id)
{
    return scan_list_id(&ep->lc, pp, what, EL_USAGE, ep->base, &ep->top, id);
}

static int el_arc(void *ctx, const char **pp)
{
    el_parser *ep = ctx;
    const line_ctx *lc = &ep->lc;
    int64_t tail = 0, head = 0, integer = 1;
    double real = 0;
    int rc = el_id(ep, pp, "tail", &tail);
    if (!rc)
        rc = el_id(ep, pp, "head", &head);
    if (rc)
        return rc;
    const char *field;
    enum number_kind kind = scan_number(pp, &field, &integer, &real);
    int has_weight = kind != NUMBER_MISSING;
    if (ep->weighted < 0) {
        ep->weighted = has_weight;
        ep->first_line = lc->line;
    } else if (has_weight != ep->weighted) {
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "%s weight, but line %lld %s one (every arc line has a weight or "
                          "none does)", has_weight ? "a" : "no", (long long)ep->first_line,
                          ep->weighted ? "has" : "has no");
    }
    if (has_weight && kind != NUMBER_INTEGER && kind != NUMBER_REAL)
        return pf_io_fail(lc->st, lc->name, lc->line, "weight '%.*s' is not a number",
                          field_len(field), field);
    if (kind == NUMBER_INTEGER && (integer > PF_WEIGHT_MAX || integer < -PF_WEIGHT_MAX))
        return pf_io_fail(lc->st, lc->name, lc->line, "weight %.*s is outside -2^62..2^62",
                          field_len(field), field);
    rc = finish_line(lc, pp, has_weight ? "weight" : "head");
    if (rc)
        return rc;
    rc = kind == NUMBER_REAL ? pf_wgraph_add_arc_real(ep->g, tail, head, real, lc->st)
                             : pf_wgraph_add_arc(ep->g, tail, head, integer, lc->st);
    if (rc == PF_E_INPUT) /* a real weight out of range: say where */
        return pf_io_fail(lc->st, lc->name, lc->line, "weight '%.*s' is not a finite number "
                          "within -2^62..2^62", field_len(field), field);
    return rc;
}

/* The edge list in text; *weighted says whether it had weights. */
static pf_wgraph *parse_el(const char *text, const char *name, int zero_based, int *weighted,
                           pf_status *st)
{
    el_parser ep = {.lc = {.name = name, .st = st}, .base = zero_based ? 0 : 1,
                    .weighted = -1};
    /* Every id is valid until the end says how many vertices there are. */
    ep.g = pf_wgraph_new(PF_MAX_VERTICES, st);
    int rc = ep.g ? scan_edge_lines(text, &ep.lc, EL_USAGE, el_arc, &ep) : PF_E_NOMEM;
    if (rc) {
        pf_wgraph_free(ep.g);
        return NULL;
    }
    ep.g->n = ep.top + 1;
    *weighted = ep.weighted == 1;
    return ep.g;
}

/* '#' or '%' (not a Matrix Market banner) first, or a first line of two or
 * three numbers: an edge list. The other formats: pf_wgraph_parse. */
static int looks_like_edge_list(const char *text)
{
    const char *p = text;
    while (is_eol(*(p = skip_blanks(p))) && *p)
        p++;
    if (*p == '%')
        return strncmp(p, "%%MatrixMarket", 14) != 0 && strncmp(p, "%%matrixmarket", 14) != 0;
    if (*p == '#')
        return 1;
    for (; *p; p = next_line(p)) {
        const char *q = skip_blanks(p);
        if (*q == 'c' || is_eol(*q))
            continue;
        int fields = count_line_fields(q);
        return is_digit(*q) && (fields == 2 || fields == 3);
    }
    return 0;
}

static pf_csr *csr_from_text(const char *text, size_t len, const char *name,
                             const pf_csr_read_options *opt, pf_status *st)
{
    int weighted = 1;
    pf_wgraph *g = looks_like_edge_list(text)
                       ? parse_el(text, name, opt && opt->zero_based, &weighted, st)
                       : pf_wgraph_parse(text, len, name, st);
    if (!g)
        return NULL;
    int undirected = opt && opt->undirected;
    pf_csr *csr = weighted ? pf_csr_from_wgraph(g, undirected, st)
                           : pf_csr_from_arcs(g->n, g->m, g->tail, g->head, NULL, NULL,
                                              undirected, st);
    pf_wgraph_free(g);
    return csr;
}

/* A regular file that starts with the binary form's magic: read as such
 * into *g (NULL and st set on error); 0 when it is not one. */
static int try_binary(const char *path, const pf_csr_read_options *opt, pf_csr **g,
                      pf_status *st)
{
    if (!path || !strcmp(path, "-"))
        return 0;
    FILE *in = fopen(path, "rb");
    struct stat info;
    char magic[8];
    if (!in)
        return 0; /* pf_io_load says why */
    int binary = fstat(fileno(in), &info) == 0 && S_ISREG(info.st_mode) &&
                 fread(magic, 1, sizeof magic, in) == sizeof magic &&
                 pf_csr_is_bin(magic, sizeof magic);
    if (binary) {
        rewind(in);
        *g = pf_csr_read_bin(in, path, (uint64_t)info.st_size, opt && opt->no_weights, st);
    }
    fclose(in);
    if (binary && *g && opt && opt->undirected && !(*g)->undirected) {
        pf_fail(st, PF_E_INPUT, "%s: --undirected: this binary graph is directed (write it "
                "undirected with gen, or read its text form)", path);
        pf_csr_free(*g);
        *g = NULL;
    }
    return binary;
}

pf_csr *pf_csr_read(const char *path, const pf_csr_read_options *opt, pf_status *st)
{
    pf_csr *g = NULL;
    if (try_binary(path, opt, &g, st))
        return g;
    pf_io_input in;
    if (!pf_io_load(path, &in, st))
        return NULL;
    g = csr_from_text(in.text, in.len, in.name, opt, st);
    pf_io_unload(&in);
    if (g)
        pf_status_ok(st);
    return g;
}
