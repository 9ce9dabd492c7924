/* Readers of the weighted digraphs APSP runs on, and pf_wgraph_read, which
 * picks one by content:
 *
 *   - first non-blank line starts with '%': Matrix Market coordinate;
 *   - else first line that is not blank or a 'c' comment starts with a
 *     number: adjacency-matrix text;
 *   - else DIMACS shortest-path ("p sp N M", "a U V W").
 *
 * The input is loaded whole by pf_io_load and scanned in place with the
 * helpers of scan.h, as the max-flow readers do: a 300 MB file is one pass
 * over its bytes. Weights are integers while they look like integers (no
 * strtod on that path) and reals otherwise; pf_wgraph keeps integers exact
 * until the first weight that is not integral.
 *
 * Errors are PF_E_INPUT with "FILE:LINE: what is wrong"; a problem noticed
 * at end of input is reported on line "number of lines + 1", where the
 * missing text would have had to be. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io.h"
#include "scan.h"
#include "status.h"
#include "wgraph.h"

/* ---- weights ---------------------------------------------------------- */

/* A weight accepted on input: an integer or a finite real, |w| <= 2^62
 * (NaN fails the comparison). */
static inline int weight_ok(enum number_kind kind, int64_t integer, double real)
{
    if (kind == NUMBER_INTEGER)
        return integer >= -PF_WEIGHT_MAX && integer <= PF_WEIGHT_MAX;
    return kind == NUMBER_REAL && fabs(real) <= (double)PF_WEIGHT_MAX;
}

/* The real is written as a word (inf, infinity, nan), not with digits. */
static inline int spelled_out(const char *field)
{
    const char *unsigned_text = field + (*field == '-' || *field == '+');
    return !is_digit(*unsigned_text) && *unsigned_text != '.';
}

/* Why a weight field that failed weight_ok is wrong. where places it
 * (" (row 2, column 3)", or ""); usage is the line the reader expects. */
static int weight_error(const line_ctx *lc, enum number_kind kind, const char *field,
                        const char *where, const char *usage)
{
    int len = field_len(field);
    if (kind == NUMBER_MISSING)
        return pf_io_fail(lc->st, lc->name, lc->line, "missing weight%s (expected '%s')",
                          where, usage);
    if (kind == NUMBER_JUNK)
        return pf_io_fail(lc->st, lc->name, lc->line, "weight '%.*s'%s is not a number", len,
                          field, where);
    /* "inf" and "nan" are not numbers a path can add up; "1e999" is a
     * number that strtod made infinite: out of range. */
    if (kind == NUMBER_REAL && spelled_out(field))
        return pf_io_fail(lc->st, lc->name, lc->line, "weight '%.*s'%s is not a finite number",
                          len, field, where);
    return pf_io_fail(lc->st, lc->name, lc->line, "weight %.*s%s is outside -2^62..2^62", len,
                      field, where);
}

static inline int add_weighted_arc(pf_wgraph *g, int64_t tail, int64_t head,
                                   enum number_kind kind, int64_t integer, double real,
                                   pf_status *st)
{
    if (kind == NUMBER_INTEGER)
        return pf_wgraph_add_arc(g, tail, head, integer, st);
    return pf_wgraph_add_arc_real(g, tail, head, real, st);
}

/* ---- DIMACS shortest-path ---------------------------------------------- */

#define SP_ARC_USAGE "a TAIL HEAD WEIGHT"
#define SP_PROBLEM_USAGE "p sp N M"

typedef struct sp_parser {
    line_ctx lc;
    pf_wgraph *g;           /* created by the p line */
    int64_t declared_arcs;  /* M of the p line */
    int64_t p_line;         /* 0 = not seen yet */
    const char *end;        /* the terminating NUL of the text */
} sp_parser;

/* "a U V W": the hot path, one call per arc. */
static int parse_sp_arc(sp_parser *ps, const char *line_start, const char **pp)
{
    const line_ctx *lc = &ps->lc;
    pf_wgraph *g = ps->g;
    int rc = check_arc_line(lc, line_start, ps->p_line, g ? g->m : 0, ps->declared_arcs);
    if (rc)
        return rc;
    const char *p = *pp, *weight_f;
    int64_t tail = 0, head = 0, integer = 0;
    double real = 0;
    rc = scan_arc_ends(lc, &p, g->n, "tail", "head", SP_ARC_USAGE, &tail, &head);
    if (rc)
        return rc;
    enum number_kind weight_k = scan_number(&p, &weight_f, &integer, &real);
    if (!weight_ok(weight_k, integer, real))
        return weight_error(lc, weight_k, weight_f, "", SP_ARC_USAGE);
    rc = finish_line(lc, &p, "weight");
    if (!rc)
        rc = add_weighted_arc(g, tail, head, weight_k, integer, real, lc->st);
    *pp = p;
    return rc;
}

/* "p sp N M": creates the graph and reserves its arcs. */
static int parse_sp_problem(sp_parser *ps, const char **pp)
{
    const line_ctx *lc = &ps->lc;
    int64_t n = 0, m = 0;
    int rc = scan_problem_line(lc, pp, &ps->p_line, "sp", SP_PROBLEM_USAGE, 1, &n, &m);
    if (rc)
        return rc;
    ps->g = pf_wgraph_new(n, lc->st);
    if (!ps->g)
        return lc->st ? lc->st->code : PF_E_NOMEM;
    ps->declared_arcs = m;
    int64_t fit = lines_that_fit(*pp, ps->end, sizeof "a 1 1 0" - 1);
    return pf_wgraph_reserve(ps->g, m < fit ? m : fit, lc->st);
}

static pf_wgraph *parse_sp(const char *text, size_t len, const char *name, pf_status *st)
{
    sp_parser ps = {.lc = {.name = name, .st = st}, .end = text + len};
    const char *p = text;
    int rc = PF_OK;
    while (*p && !rc) {
        ps.lc.line++;
        const char *start;
        char type = line_type(&p, &start);
        if (type == 'a')
            rc = parse_sp_arc(&ps, start, &p);
        else if (type == 'p')
            rc = parse_sp_problem(&ps, &p);
        else if (type != 'c')
            rc = unknown_line(&ps.lc, start, "c, p or a");
    }
    if (!rc)
        rc = check_dimacs_end(&ps.lc, len, ps.g != NULL, SP_PROBLEM_USAGE, ps.p_line,
                              ps.declared_arcs, ps.g ? ps.g->m : 0);
    if (rc) {
        pf_wgraph_free(ps.g);
        return NULL;
    }
    return ps.g;
}

/* ---- Matrix Market coordinate ------------------------------------------ */

/* Only in "%s" arguments: the banner's %% would be a format directive. */
#define MM_BANNER "%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric"
#define MM_SIZE_USAGE "ROWS COLS ENTRIES"

enum mm_field { MM_REAL, MM_INTEGER, MM_PATTERN };

typedef struct mm_parser {
    line_ctx lc;
    pf_wgraph *g;           /* created by the size line */
    int banner_seen;
    enum mm_field field;
    int symmetric;          /* an entry off the diagonal stands for two arcs */
    int64_t size_line;      /* 0 = not seen yet */
    int64_t declared;       /* ENTRIES of the size line */
    int64_t entries;        /* entry lines read */
    const char *end;        /* the terminating NUL of the text */
} mm_parser;

/* One word of the banner, matched without regard to case (as the Matrix
 * Market definition allows) against `allowed`; *index gets its position. */
static int mm_keyword(const line_ctx *lc, const char **pp, const char *what,
                      const char *const *allowed, int count, const char *expected, int *index)
{
    const char *field;
    int len = scan_word(pp, &field);
    if (len == 0)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "the banner ends before the %s (expected '%s')", what, MM_BANNER);
    for (int i = 0; i < count; i++) {
        if ((size_t)len == strlen(allowed[i]) && strncasecmp(field, allowed[i], (size_t)len) == 0) {
            *index = i;
            return PF_OK;
        }
    }
    return pf_io_fail(lc->st, lc->name, lc->line,
                      "Matrix Market %s '%.*s' is not supported (expected %s)", what,
                      field_len(field), field, expected);
}

/* "%%MatrixMarket matrix coordinate FIELD SYMMETRY". */
static int parse_mm_banner(mm_parser *mp, const char **pp)
{
    const line_ctx *lc = &mp->lc;
    static const char banner[] = "%%MatrixMarket";
    static const char *const object[] = {"matrix"};
    static const char *const format[] = {"coordinate"};
    static const char *const field[] = {"real", "integer", "pattern"};
    static const char *const symmetry[] = {"general", "symmetric"};
    int index = 0, rc = PF_OK;
    const char *p = *pp, *first;
    int first_len = scan_word(&p, &first);
    if (first_len != (int)strlen(banner) || strncasecmp(first, banner, strlen(banner)) != 0)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "the first line is not a Matrix Market banner (expected '%s')",
                          MM_BANNER);
    rc = mm_keyword(lc, &p, "object", object, 1, "matrix", &index);
    if (!rc)
        rc = mm_keyword(lc, &p, "format", format, 1,
                        "coordinate: dense array files are not read", &index);
    if (!rc)
        rc = mm_keyword(lc, &p, "field", field, 3, "real, integer or pattern", &index);
    mp->field = (enum mm_field)index;
    if (!rc)
        rc = mm_keyword(lc, &p, "symmetry", symmetry, 2, "general or symmetric", &index);
    mp->symmetric = index == 1;
    if (!rc)
        rc = finish_line(lc, &p, "symmetry");
    mp->banner_seen = 1;
    *pp = p;
    return rc;
}

/* "ROWS COLS ENTRIES": creates the graph and reserves its arcs. */
static int parse_mm_size(mm_parser *mp, const char **pp)
{
    const line_ctx *lc = &mp->lc;
    const char *p = *pp, *field;
    uint64_t rows = 0;
    int64_t cols = 0, entries = 0;
    enum field_kind kind = scan_uint(&p, &field, &rows);
    int rc = check_vertex_count(lc, kind, field, rows, 1, MM_SIZE_USAGE);
    if (!rc)
        rc = scan_count(lc, &p, "column count", MM_SIZE_USAGE, &cols);
    if (!rc && (uint64_t)cols != rows)
        rc = pf_io_fail(lc->st, lc->name, lc->line,
                        "the matrix is not square (%llu rows, %lld columns): an adjacency "
                        "matrix needs ROWS = COLS", (unsigned long long)rows, (long long)cols);
    if (!rc)
        rc = scan_count(lc, &p, "entry count", MM_SIZE_USAGE, &entries);
    if (!rc)
        rc = finish_line(lc, &p, "entry count");
    if (rc)
        return rc;
    mp->size_line = lc->line;
    mp->declared = entries;
    mp->g = pf_wgraph_new((int64_t)rows, lc->st);
    if (!mp->g)
        return lc->st ? lc->st->code : PF_E_NOMEM;
    *pp = p;
    /* An entry line takes at least 4 bytes ("1 1\n"); symmetric entries
     * may give two arcs each. */
    int64_t fit = lines_that_fit(p, mp->end, sizeof "1 1\n" - 1);
    int64_t want = entries < fit ? entries : fit;
    return pf_wgraph_reserve(mp->g, mp->symmetric ? 2 * want : want, lc->st);
}

/* More entry lines than the size line declares: count them all (error
 * path only). */
static int too_many_entries(const mm_parser *mp, const char *line_start)
{
    int64_t found = mp->declared;
    for (const char *p = line_start; *p; p = next_line(p)) {
        const char *q = skip_blanks(p);
        found += *q != '%' && !is_eol(*q);
    }
    return pf_io_fail(mp->lc.st, mp->lc.name, mp->lc.line,
                      "more entries than the size line (line %lld) declares: "
                      "expected %lld, found %lld",
                      (long long)mp->size_line, (long long)mp->declared, (long long)found);
}

/* "I J W" (or "I J" for pattern): the arc I -> J, and J -> I as well for an
 * off-diagonal entry of a symmetric matrix. */
static int parse_mm_entry(mm_parser *mp, const char *line_start, const char **pp)
{
    const line_ctx *lc = &mp->lc;
    pf_wgraph *g = mp->g;
    const char *usage = mp->field == MM_PATTERN ? "I J" : "I J WEIGHT";
    if (mp->entries == mp->declared)
        return too_many_entries(mp, line_start);
    const char *p = *pp, *weight_f = NULL;
    int64_t tail = 0, head = 0, integer = 1; /* pattern entries weigh 1 */
    double real = 0;
    enum number_kind weight_k = NUMBER_INTEGER;
    int rc = scan_arc_ends(lc, &p, g->n, "row", "column", usage, &tail, &head);
    if (rc)
        return rc;
    if (mp->field != MM_PATTERN)
        weight_k = scan_number(&p, &weight_f, &integer, &real);
    if (!weight_ok(weight_k, integer, real))
        return weight_error(lc, weight_k, weight_f, "", usage);
    if (mp->field == MM_INTEGER && weight_k != NUMBER_INTEGER)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "weight '%.*s' is not an integer (the banner says integer)",
                          field_len(weight_f), weight_f);
    const char *last = mp->field == MM_PATTERN ? "column (pattern entries have no weight)"
                                               : "weight";
    rc = finish_line(lc, &p, last);
    if (!rc)
        rc = add_weighted_arc(g, tail, head, weight_k, integer, real, lc->st);
    if (!rc && mp->symmetric && tail != head)
        rc = add_weighted_arc(g, head, tail, weight_k, integer, real, lc->st);
    mp->entries++;
    *pp = p;
    return rc;
}

static pf_wgraph *parse_mm(const char *text, size_t len, const char *name, pf_status *st)
{
    mm_parser mp = {.lc = {.name = name, .st = st}, .end = text + len};
    const char *p = text;
    int rc = PF_OK;
    while (*p && !rc) {
        mp.lc.line++;
        const char *start = skip_blanks(p);
        p = start;
        if (is_eol(*start))
            p = *start ? start + 1 : start;
        else if (!mp.banner_seen)
            rc = parse_mm_banner(&mp, &p);
        else if (*start == '%')
            p = next_line(start);
        else if (!mp.g)
            rc = parse_mm_size(&mp, &p);
        else
            rc = parse_mm_entry(&mp, start, &p);
    }
    if (!rc)
        rc = check_mm_end(&mp.lc, mp.g != NULL, MM_SIZE_USAGE, mp.size_line, mp.declared,
                          mp.entries);
    if (rc) {
        pf_wgraph_free(mp.g);
        return NULL;
    }
    return mp.g;
}

/* ---- adjacency-matrix text ---------------------------------------------- */

typedef struct matrix_parser {
    line_ctx lc;
    pf_wgraph *g;       /* created by the N field */
    int64_t entries;    /* weights read so far */
    int64_t total;      /* N * N */
} matrix_parser;

/* The first number: N, which creates the graph. */
static int matrix_size(matrix_parser *mp, const char **pp)
{
    const char *field;
    uint64_t n = 0;
    enum field_kind kind = scan_uint(pp, &field, &n);
    int rc = check_vertex_count(&mp->lc, kind, field, n, 1, "N");
    if (rc)
        return rc;
    mp->g = pf_wgraph_new((int64_t)n, mp->lc.st);
    if (!mp->g)
        return mp->lc.st ? mp->lc.st->code : PF_E_NOMEM;
    mp->total = (int64_t)n * (int64_t)n; /* n < 2^31, so no overflow */
    return PF_OK;
}

/* One weight: entry number mp->entries, row-major. 0, inf and - are "no
 * arc" (a zero self-loop is no arc either: it changes no distance). */
static int matrix_weight(matrix_parser *mp, const char **pp)
{
    const line_ctx *lc = &mp->lc;
    pf_wgraph *g = mp->g;
    const char *field = *pp;
    if (mp->entries == mp->total)
        return matrix_overflow(lc, g->n, field, "weights");
    int64_t row = mp->entries / g->n, col = mp->entries % g->n;
    mp->entries++;
    if (field[0] == '-' && ends_field(field[1])) {
        *pp = field + 1;
        return PF_OK;
    }
    int64_t integer = 0;
    double real = 0;
    enum number_kind kind = scan_number(pp, &field, &integer, &real);
    int no_arc = kind == NUMBER_INTEGER ? integer == 0
               : kind == NUMBER_REAL && (real == 0 || (real == INFINITY && spelled_out(field)));
    if (no_arc)
        return PF_OK;
    if (!weight_ok(kind, integer, real)) {
        char where[64];
        snprintf(where, sizeof where, " (row %lld, column %lld)", (long long)row + 1,
                 (long long)col + 1);
        return weight_error(lc, kind, field, where, "N, then N*N weights");
    }
    return add_weighted_arc(g, row, col, kind, integer, real, lc->st);
}

static int matrix_field(void *ctx, const char **pp)
{
    matrix_parser *mp = ctx;
    return mp->g ? matrix_weight(mp, pp) : matrix_size(mp, pp);
}

static pf_wgraph *parse_matrix(const char *text, const char *name, pf_status *st)
{
    matrix_parser mp = {.lc = {.name = name, .st = st}};
    int rc = scan_value_stream(text, &mp.lc, matrix_field, &mp);
    if (!rc)
        rc = check_matrix_end(&mp.lc, mp.g ? mp.g->n : 0, mp.entries, "weights");
    if (rc) {
        pf_wgraph_free(mp.g);
        return NULL;
    }
    return mp.g;
}

/* ---- the public reader ------------------------------------------------- */

/* Matrix Market files start with their banner, and '%' is their comment
 * sign; no line of the other formats starts with it. */
static int looks_like_matrix_market(const char *text)
{
    const char *p = text;
    while (is_eol(*(p = skip_blanks(p))) && *p)
        p++;
    return *p == '%';
}

pf_wgraph *pf_wgraph_parse(const char *text, size_t len, const char *name, pf_status *st)
{
    pf_wgraph *g;
    if (looks_like_matrix_market(text))
        g = parse_mm(text, len, name, st);
    else if (looks_like_matrix(text))
        g = parse_matrix(text, name, st);
    else
        g = parse_sp(text, len, name, st);
    if (g)
        pf_status_ok(st);
    return g;
}

pf_wgraph *pf_wgraph_read(const char *path, pf_status *st)
{
    pf_io_input in;
    if (!pf_io_load(path, &in, st))
        return NULL;
    pf_wgraph *g = pf_wgraph_parse(in.text, in.len, in.name, st);
    pf_io_unload(&in);
    return g;
}
