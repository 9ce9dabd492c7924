/* DIMACS max-flow and adjacency-matrix readers, and the DIMACS writer.
 *
 * Inputs are loaded whole by pf_io_load (io.c) as text with a NUL after the
 * last byte, and parsed by a hand-written scanner (scan.h,
 * shared with the weighted-graph reader): a 300 MB file costs one pass over
 * its bytes instead of tens of millions of stdio calls. The trailing NUL is
 * a sentinel, so the inner loops never compare against an end pointer (the
 * loader rejects text that holds a NUL itself). A large file's arc lines
 * are read on every OpenMP thread where they have the common shape
 * (dimacs_parallel.c); anything else, errors included, reads here.
 *
 * Errors are PF_E_INPUT with "FILE:LINE: what is wrong" (FILE is the path or
 * <stdin>). A problem noticed at end of input (no p line, too few arcs, no
 * source) is reported on line "number of lines + 1": where the missing text
 * would have had to be. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dimacs_arc.h"
#include "formats.h"
#include "io.h"
#include "omp_threads.h"
#include "scan.h"
#include "status.h"

/* ---- DIMACS reader -------------------------------------------------- */

#define NODE_USAGE "n ID s|t"
#define PROBLEM_USAGE "p max N M"

typedef struct dimacs_parser {
    line_ctx lc;
    pf_network *net;        /* created by the p line */
    int64_t declared_arcs;  /* M of the p line */
    int64_t p_line;         /* 0 = not seen yet */
    pf_terminal_list terminals[2]; /* the n lines: sources, sinks */
    const char *end;        /* the terminating NUL of the text */
} dimacs_parser;

/* "a U V CAP": the hot path, one call per arc. */
static int parse_arc_line(dimacs_parser *ps, const char *line_start, const char **pp)
{
    const line_ctx *lc = &ps->lc;
    pf_network *net = ps->net;
    int rc = check_arc_line(lc, line_start, ps->p_line, net ? net->m : 0, ps->declared_arcs);
    if (rc)
        return rc;
    if (net->m == net->m_alloc) {
        /* The p line reserved a safe upper bound; growing is a fallback. */
        int64_t want = net->m_alloc * 2 + 64;
        rc = pf_network_reserve(net, want < ps->declared_arcs ? want : ps->declared_arcs, lc->st);
        if (rc)
            return rc;
    }
    dimacs_arc arc;
    rc = scan_dimacs_arc(lc, pp, net->n, &arc);
    if (rc)
        return rc;
    store_dimacs_arc(net, net->m, &arc);
    if (arc.real_len &&
        (rc = pf_read_real_cap(lc, net, net->m, arc.cap_text, arc.real_len)) != PF_OK)
        return rc;
    net->m++;
    return PF_OK;
}

/* "p max N M": creates the network and reserves its arcs. */
static int parse_problem_line(dimacs_parser *ps, const char **pp)
{
    const line_ctx *lc = &ps->lc;
    const char *p = *pp;
    int64_t n = 0, m = 0;
    int rc = scan_problem_line(lc, &p, &ps->p_line, "max", PROBLEM_USAGE, 2, &n, &m);
    if (rc)
        return rc;
    ps->net = pf_network_new(n, 0, 1, lc->st);
    if (!ps->net)
        return lc->st ? lc->st->code : PF_E_NOMEM;
    ps->declared_arcs = m;
    int64_t fit = lines_that_fit(p, ps->end, sizeof "a 1 1 0" - 1);
    *pp = p;
    return pf_network_reserve(ps->net, ps->declared_arcs < fit ? ps->declared_arcs : fit, lc->st);
}

/* "n ID s" or "n ID t"; either may repeat (several sources or sinks). */
static int parse_node_line(dimacs_parser *ps, const char **pp)
{
    const line_ctx *lc = &ps->lc;
    if (!ps->net)
        return pf_io_fail(lc->st, lc->name, lc->line, "n line before the p line");
    const char *p = *pp, *id_f, *role_f;
    uint64_t id_v = 0;
    enum field_kind id_k = scan_uint(&p, &id_f, &id_v);
    if (!id_ok(id_k, id_v, ps->net->n))
        return id_error(lc, id_k, id_f, ps->net->n, "node id", NODE_USAGE);
    int32_t id = (int32_t)(id_v - 1);
    int role_len = scan_word(&p, &role_f);
    if (role_len == 0)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "missing node role (expected '" NODE_USAGE "')");
    if (role_len != 1 || (role_f[0] != 's' && role_f[0] != 't'))
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "node role '%.*s' is neither s (source) nor t (sink)",
                          field_len(role_f), role_f);
    int rc = finish_line(lc, &p, "node role");
    if (rc)
        return rc;

    *pp = p;
    return pf_terminal_list_add(&ps->terminals[role_f[0] == 't'], id, lc->line, lc->st);
}

/* Checks what only the end of input can tell: a p line, all M arcs, s, t. */
static int finish_dimacs(dimacs_parser *ps, size_t len)
{
    const line_ctx *lc = &ps->lc;
    int64_t eof_line = lc->line + 1;
    int rc = check_dimacs_end(lc, len, ps->net != NULL, PROBLEM_USAGE, ps->p_line,
                              ps->declared_arcs, ps->net ? ps->net->m : 0);
    if (rc)
        return rc;
    if (!ps->terminals[0].count)
        return pf_io_fail(lc->st, lc->name, eof_line, "no source line ('n ID s')");
    if (!ps->terminals[1].count)
        return pf_io_fail(lc->st, lc->name, eof_line, "no sink line ('n ID t')");
    return pf_terminal_lists_apply(ps->terminals, ps->net, lc);
}

/* Reads the lines from *pp on, each by its type, until `stop` (a line
 * start or the end of the text), the text's NUL, or an error. */
static int parse_lines(dimacs_parser *ps, const char **pp, const char *stop)
{
    const char *p = *pp;
    int rc = PF_OK;
    while (p < stop && *p && !rc) {
        ps->lc.line++;
        const char *start;
        char type = line_type(&p, &start);
        if (type == 'a')
            rc = parse_arc_line(ps, start, &p);
        else if (type == 'n')
            rc = parse_node_line(ps, &p);
        else if (type == 'p')
            rc = parse_problem_line(ps, &p);
        else if (type != 'c')
            rc = unknown_line(&ps->lc, start, "c, p, n or a");
    }
    *pp = p;
    return rc;
}

/* The start of the first arc line from p on (the end of the text if none):
 * where the head's c, p and n lines end. */
static const char *first_arc_line(const char *p)
{
    while (*p) {
        const char *line = p, *start;
        char type = line_type(&p, &start);
        if (type == 'a')
            return line;
        if (type != 'c')
            p = next_line(p); /* a comment or blank line is behind p already */
    }
    return p;
}

/* The arc lines from *pp (the first of them) on several threads, when the
 * p line came before them; *pp moves to the end of the text where that
 * took them all. Otherwise nothing changes: the serial loop goes on from
 * the same line with the same state, so it reads and reports exactly what
 * it would have without this detour. */
static void parse_arcs_in_parallel(dimacs_parser *ps, const char **pp, int threads)
{
    int64_t lines = 0;
    if (ps->net && **pp &&
        pf_dimacs_arcs_parallel(*pp, ps->end, ps->net, ps->declared_arcs, threads, &lines)) {
        ps->lc.line += lines;
        *pp = ps->end;
    }
}

pf_network *pf_parse_dimacs_threads(const char *text, size_t len, const char *name, int threads,
                                    size_t min_bytes, pf_status *st)
{
    dimacs_parser ps = {.lc = {.name = name, .st = st}, .end = text + len};
    threads = threads > 0 ? threads : pf_resolve_threads(0);
    int parallel = threads > 1 && len >= min_bytes;
    /* Serially up to the first arc line where the arc lines may go on
     * several threads, then on from wherever that left off. One call of
     * parse_lines, so that its hot loop is compiled once, here. */
    const char *p = text, *stop = parallel ? first_arc_line(text) : ps.end;
    int rc;
    while ((rc = parse_lines(&ps, &p, stop)) == PF_OK && stop != ps.end) {
        parse_arcs_in_parallel(&ps, &p, threads);
        stop = ps.end;
    }
    if (!rc)
        rc = finish_dimacs(&ps, len);
    pf_terminal_list_free(&ps.terminals[0]);
    pf_terminal_list_free(&ps.terminals[1]);
    if (rc) {
        pf_network_free(ps.net);
        return NULL;
    }
    pf_status_ok(st);
    return ps.net;
}

pf_network *pf_parse_dimacs(const char *text, size_t len, const char *name, pf_status *st)
{
    return pf_parse_dimacs_threads(text, len, name, 0, PF_DIMACS_PARALLEL_MIN_BYTES, st);
}

/* ---- adjacency-matrix reader ---------------------------------------- */

typedef struct matrix_parser {
    line_ctx lc;
    pf_network *net;      /* created by the N field */
    int64_t entries;      /* capacities read so far */
    int64_t total;        /* N * N */
} matrix_parser;

/* The first number: N, which creates the network. */
static int matrix_size(matrix_parser *mp, enum field_kind kind, const char *field,
                       uint64_t n)
{
    const line_ctx *lc = &mp->lc;
    int rc = check_vertex_count(lc, kind, field, n, 2, "N");
    if (rc)
        return rc;
    mp->net = pf_network_new((int64_t)n, 0, (int64_t)n - 1, lc->st);
    if (!mp->net)
        return lc->st ? lc->st->code : PF_E_NOMEM;
    mp->total = (int64_t)n * (int64_t)n; /* n < 2^31, so no overflow */
    return PF_OK;
}

/* One capacity: entry number mp->entries, row-major. */
static int matrix_entry(matrix_parser *mp, enum field_kind kind, const char *field,
                        uint64_t cap)
{
    const line_ctx *lc = &mp->lc;
    pf_network *net = mp->net;
    if (mp->entries == mp->total)
        return matrix_overflow(lc, net->n, field, "capacities");
    int64_t row = mp->entries / net->n, col = mp->entries % net->n;
    int real_len = 0; /* a real capacity ("0.5"): its length */
    if (kind == FIELD_JUNK && field[0] != '-')
        real_len = real_text_len(field);
    if ((kind != FIELD_NUMBER || cap > (uint64_t)PF_CAP_MAX) && !real_len) {
        const char *why = kind == FIELD_JUNK && real_text_len(field) ? "is negative"
                        : kind == FIELD_JUNK ? "is not a number"
                        : kind == FIELD_NEGATIVE ? "is negative"
                        : "exceeds the maximum 2^62";
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "capacity '%.*s' (row %lld, column %lld) %s",
                          field_len(field), field, (long long)row + 1, (long long)col + 1, why);
    }
    mp->entries++;
    if (real_len ? strtold(field, NULL) == 0 : cap == 0)
        return PF_OK;
    if (net->m == net->m_alloc) {
        /* Zeros make the arc count unknowable up front: grow by doubling. */
        int64_t want = net->m_alloc * 2 + 1024;
        int rc = pf_network_reserve(net, want < mp->total ? want : mp->total, lc->st);
        if (rc)
            return rc;
    }
    net->tail[net->m] = (int32_t)row;
    net->head[net->m] = (int32_t)col;
    net->cap[net->m] = (int64_t)cap;
    if (real_len) {
        int rc = pf_read_real_cap(lc, net, net->m, field, real_len);
        if (rc)
            return rc;
    }
    net->m++;
    return PF_OK;
}

/* One field of the stream: N first, then the capacities. */
static int matrix_field(void *ctx, const char **pp)
{
    matrix_parser *mp = ctx;
    const char *field;
    uint64_t value = 0;
    enum field_kind kind = scan_uint(pp, &field, &value);
    return mp->net ? matrix_entry(mp, kind, field, value) : matrix_size(mp, kind, field, value);
}

pf_network *pf_parse_matrix(const char *text, const char *name, pf_status *st)
{
    matrix_parser mp = {.lc = {.name = name, .st = st}};
    int rc = scan_value_stream(text, &mp.lc, matrix_field, &mp);
    if (!rc)
        rc = check_matrix_end(&mp.lc, mp.net ? mp.net->n : 0, mp.entries, "capacities");
    if (rc) {
        pf_network_free(mp.net);
        return NULL;
    }
    pf_status_ok(st);
    return mp.net;
}

/* ---- public readers ------------------------------------------------- */

/* The explicit readers; pf_network_read and pf_network_read_with, which
 * choose by content, are in read_network.c. */
static pf_network *read_network(const char *path, int matrix, pf_status *st)
{
    pf_io_input in;
    if (!pf_io_load(path, &in, st))
        return NULL;
    pf_network *net = matrix ? pf_parse_matrix(in.text, in.name, st)
                             : pf_parse_dimacs(in.text, in.len, in.name, st);
    pf_io_unload(&in);
    return pf_read_finish(net, NULL, in.name, st);
}

pf_network *pf_network_read_dimacs(const char *path, pf_status *st)
{
    return read_network(path, 0, st);
}

pf_network *pf_network_read_matrix(const char *path, pf_status *st)
{
    return read_network(path, 1, st);
}
