/* Edge-list reader: one "U V CAP" line per arc, '#' or '%' comment lines,
 * blank lines anywhere. Vertex ids start at 1 (or 0 with zero_based); the
 * vertex count is the largest id that appears. CAP is an integer in
 * 0..2^62 or a real (a decimal point or an exponent). The file names no
 * terminals: the caller sets them.
 *
 * The same lines serve the graph analytics commands (BFS, SSSP), so the
 * parser lives here in src/common, apart from the max-flow specifics. */
#include "formats.h"
#include "status.h"

#define EDGE_USAGE "U V CAP"

typedef struct edge_parser {
    line_ctx lc;
    pf_network *net;
    int64_t base;     /* the first vertex id: 1, or 0 with zero_based */
    int64_t top;      /* largest 0-based id seen */
} edge_parser;

/* One vertex id field, returned 0-based. */
static int edge_id(edge_parser *ep, const char **pp, const char *what, int64_t *id)
{
    return scan_list_id(&ep->lc, pp, what, EDGE_USAGE, ep->base, &ep->top, id);
}

/* The capacity field of arc i: an integer, or a real. */
static int edge_cap(edge_parser *ep, const char **pp, int64_t i)
{
    const line_ctx *lc = &ep->lc;
    const char *field;
    uint64_t cap = 0;
    enum field_kind kind = scan_uint(pp, &field, &cap);
    if (kind == FIELD_NUMBER && cap <= (uint64_t)PF_CAP_MAX) {
        ep->net->cap[i] = (int64_t)cap;
        return PF_OK;
    }
    int real_len = kind == FIELD_JUNK ? real_text_len(field) : 0;
    if (real_len)
        return pf_read_real_cap(lc, ep->net, i, field, real_len);
    if (kind == FIELD_MISSING)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "missing capacity (expected '" EDGE_USAGE "')");
    if (kind == FIELD_NEGATIVE)
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s is negative",
                          field_len(field), field);
    if (kind == FIELD_JUNK)
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity '%.*s' is not a number",
                          field_len(field), field);
    return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s exceeds the maximum 2^62 = %lld",
                      field_len(field), field, (long long)PF_CAP_MAX);
}

static int parse_edge(void *ctx, const char **pp)
{
    edge_parser *ep = ctx;
    pf_network *net = ep->net;
    if (net->m == net->m_alloc) {
        int rc = pf_network_reserve(net, net->m_alloc * 2 + 1024, ep->lc.st);
        if (rc)
            return rc;
    }
    int64_t tail = 0, head = 0;
    int rc = edge_id(ep, pp, "tail", &tail);
    if (!rc)
        rc = edge_id(ep, pp, "head", &head);
    if (rc)
        return rc;
    net->tail[net->m] = (int32_t)tail;
    net->head[net->m] = (int32_t)head;
    rc = edge_cap(ep, pp, net->m);
    if (!rc)
        rc = finish_line(&ep->lc, pp, "capacity");
    if (!rc)
        net->m++;
    return rc;
}

pf_network *pf_parse_edgelist(const char *text, const char *name, int zero_based,
                              int64_t min_vertices, pf_status *st)
{
    edge_parser ep = {.lc = {.name = name, .st = st}, .base = zero_based ? 0 : 1, .top = 1};
    /* The vertex count is known at the end; until then every id is valid. */
    ep.net = pf_network_new(PF_MAX_VERTICES, 0, 1, st);
    if (!ep.net)
        return NULL;
    int rc = scan_edge_lines(text, &ep.lc, EDGE_USAGE, parse_edge, &ep);
    if (rc) {
        pf_network_free(ep.net);
        return NULL;
    }
    ep.net->n = ep.top + 1 > min_vertices ? ep.top + 1 : min_vertices;
    ep.net->zero_based_ids = zero_based;
    pf_status_ok(st);
    return ep.net;
}
