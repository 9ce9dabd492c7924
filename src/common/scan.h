/* The hand-written scanner shared by the text readers (dimacs.c for
 * max-flow networks, wgraph_read.c for weighted digraphs).
 *
 * Every reader works on a whole input loaded by pf_io_load: one buffer with
 * a NUL after the last byte. The NUL is a sentinel, so these loops never
 * compare against an end pointer. Fields are separated by blanks; '\r'
 * counts as a blank so that CRLF files need no special case.
 *
 * Everything here is static: the hot helpers are inline, since they run
 * once per field of files with tens of millions of lines; the paths that
 * are rare (errors) or slow anyway (strtod) are kept out of line, so that
 * the hot loops they sit in stay small. A reader that does not use a
 * helper pays nothing for it. */
#ifndef PF_SCAN_H
#define PF_SCAN_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

static inline int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static inline int is_eol(char c) { return c == '\n' || c == '\0'; }
static inline int ends_field(char c) { return is_blank(c) || is_eol(c); }
static inline int is_digit(char c) { return (unsigned char)(c - '0') < 10; }

static inline const char *skip_blanks(const char *p)
{
    while (is_blank(*p))
        p++;
    return p;
}

/* Past the '\n' that ends the line holding p (or at the final NUL). */
static inline const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : p + strlen(p);
}

/* Length of the field at p, capped so messages stay readable. */
static inline int field_len(const char *p)
{
    int n = 0;
    while (!ends_field(p[n]) && n < 40)
        n++;
    return n;
}

/* Reads the digits at *pp into *value, leading zeros skipped; returns how
 * many significant digits there were. Any 19 digits fit uint64, so the
 * loop needs no overflow test: callers treat more as too large. */
static inline int scan_digits(const char **pp, uint64_t *value)
{
    const char *p = *pp;
    while (*p == '0')
        p++;
    const char *digits = p;
    uint64_t v = 0;
    while (is_digit(*p))
        v = v * 10 + (uint64_t)(*p++ - '0');
    *value = v;
    *pp = p;
    return (int)(p - digits);
}

enum field_kind {
    FIELD_NUMBER,   /* digits only, value fits 19 significant digits */
    FIELD_MISSING,  /* the line ended first */
    FIELD_NEGATIVE, /* '-' then digits */
    FIELD_HUGE,     /* more than 19 significant digits */
    FIELD_JUNK,     /* anything else: "x", "1.5", "12ab" */
};

/* Scans one unsigned decimal field after optional blanks; *pp ends just past
 * it and *field its first character (for messages). More than 19
 * significant digits is FIELD_HUGE. */
static inline enum field_kind scan_uint(const char **pp, const char **field,
                                        uint64_t *value)
{
    const char *p = skip_blanks(*pp);
    *field = p;
    enum field_kind kind = FIELD_NUMBER;
    if (*p == '-' && is_digit(p[1])) {
        kind = FIELD_NEGATIVE;
        p++;
    }
    if (is_digit(*p)) {
        if (scan_digits(&p, value) > 19 && kind == FIELD_NUMBER)
            kind = FIELD_HUGE;
    } else if (is_eol(*p)) {
        kind = FIELD_MISSING;
    }
    if (kind != FIELD_MISSING && !ends_field(*p)) {
        kind = FIELD_JUNK;
        while (!ends_field(*p))
            p++;
    }
    *pp = p;
    return kind;
}

/* Scans a word field (e.g. "max", "s"); returns its length, 0 if missing. */
static inline int scan_word(const char **pp, const char **field)
{
    const char *p = skip_blanks(*pp);
    *field = p;
    while (!ends_field(*p))
        p++;
    *pp = p;
    return (int)(p - *field);
}

/* ---- numbers with a sign, integer or real ---------------------------- */

enum number_kind {
    NUMBER_INTEGER, /* optional sign and digits; *integer holds the value */
    NUMBER_REAL,    /* a decimal point, an exponent, inf or nan; *real */
    NUMBER_HUGE,    /* an integer beyond int64 */
    NUMBER_MISSING, /* the line ended first */
    NUMBER_JUNK,    /* anything else: "x", "0x10", "1.5.2", "1e" */
};

/* Length of the decimal real at p, 0 if there is none. The grammar is C's
 * decimal one without hex: [+-] (D+ [. D*] | . D+) [(e|E) [+-] D+]. strtod
 * alone would also take hex, and would stop early inside junk like "1.5x". */
static inline int real_text_len(const char *p)
{
    const char *q = p + (*p == '-' || *p == '+');
    const char *digits = q;
    while (is_digit(*q))
        q++;
    int mantissa_digits = (int)(q - digits);
    if (*q == '.') {
        const char *fraction = ++q;
        while (is_digit(*q))
            q++;
        mantissa_digits += (int)(q - fraction);
    }
    if (mantissa_digits == 0)
        return 0;
    if (*q == 'e' || *q == 'E') {
        const char *exponent = q + 1 + (q[1] == '-' || q[1] == '+');
        q = exponent;
        while (is_digit(*q))
            q++;
        if (q == exponent)
            return 0;
    }
    return ends_field(*q) ? (int)(q - p) : 0;
}

/* Length of `word` (lower case) standing alone at p in any case, else 0.
 * ORing 0x20 lower-cases a letter and maps nothing else onto one. */
static inline int word_len(const char *p, const char *word)
{
    int i = 0;
    while (word[i] && (p[i] | 0x20) == word[i])
        i++;
    return !word[i] && ends_field(p[i]) ? i : 0;
}

/* inf, infinity or nan at p (after the sign): its length, and its value in
 * *real; 0 if none. Known values: no strtod needed. */
static inline int spelled_real_len(const char *p, int negative, double *real)
{
    int len = word_len(p, "infinity");
    if (!len)
        len = word_len(p, "inf");
    if (len) {
        *real = negative ? -INFINITY : INFINITY;
        return len;
    }
    len = word_len(p, "nan");
    if (len)
        *real = NAN;
    return len;
}

/* What scan_real found: the kind, where the field ends, the value. */
typedef struct scanned_real {
    enum number_kind kind; /* NUMBER_REAL or NUMBER_JUNK */
    const char *end;
    double value;
} scanned_real;

/* The rest of scan_number, for fields that are not plain integers: a real
 * at p (its digits or word at unsigned_text), or junk. Out of line, so
 * that scan_number's integer path stays small enough to inline; returned
 * by value, so that the caller's cursor and value need no address. */
static __attribute__((noinline)) scanned_real scan_real(const char *p, const char *unsigned_text,
                                                        int negative)
{
    scanned_real found = {.kind = NUMBER_REAL, .end = p};
    if (is_digit(*unsigned_text) || *unsigned_text == '.') {
        int len = real_text_len(p);
        char *parsed = (char *)p;
        if (len > 0)
            found.value = strtod(p, &parsed);
        found.end = parsed == p + len ? p + len : p;
    } else {
        found.end = unsigned_text + spelled_real_len(unsigned_text, negative, &found.value);
    }
    if (found.end == p || found.end == unsigned_text) {
        found.kind = NUMBER_JUNK;
        found.end = p;
        while (!ends_field(*found.end))
            found.end++;
    }
    return found;
}

/* Scans one signed number field after optional blanks; *pp ends just past
 * it, *field at its first character. Integers take the fast path (no
 * strtod), and so do inf, infinity and nan (any case, signed); other reals
 * go through strtod, which rounds correctly, so text written with "%.17g"
 * reads back as the same double. strtod follows LC_NUMERIC: the CLI never
 * changes it, a program that does must keep '.' as the decimal point (a
 * mismatch is reported as NUMBER_JUNK, never misread). */
static inline enum number_kind scan_number(const char **pp, const char **field,
                                           int64_t *integer, double *real)
{
    const char *p = skip_blanks(*pp);
    *field = p;
    if (is_eol(*p)) {
        *pp = p;
        return NUMBER_MISSING;
    }
    int negative = *p == '-';
    const char *unsigned_text = p + (negative || *p == '+');
    if (is_digit(*unsigned_text)) {
        const char *q = unsigned_text;
        uint64_t v = 0;
        int digits = scan_digits(&q, &v);
        if (ends_field(*q)) {
            *pp = q;
            /* Past INT64_MAX is out of any range we accept, so -2^63 need
             * not be representable either. */
            if (digits > 19 || v > (uint64_t)INT64_MAX)
                return NUMBER_HUGE;
            *integer = negative ? -(int64_t)v : (int64_t)v;
            return NUMBER_INTEGER;
        }
    }
    scanned_real found = scan_real(p, unsigned_text, negative);
    *pp = found.end;
    *real = found.value;
    return found.kind;
}

/* ---- line context and shared checks ------------------------------------ */

/* Everything a line parser needs to report an error. */
typedef struct line_ctx {
    const char *name;
    int64_t line;
    pf_status *st;
} line_ctx;

/* After the last field: only blanks may remain. Moves *pp past the line. */
static inline int finish_line(const line_ctx *lc, const char **pp, const char *after)
{
    const char *p = skip_blanks(*pp);
    if (!is_eol(*p))
        return pf_io_fail(lc->st, lc->name, lc->line, "extra text '%.*s' after the %s",
                          field_len(p), p, after);
    *pp = *p == '\n' ? p + 1 : p;
    return PF_OK;
}

/* The two ways a field fails before its value counts: missing (usage is
 * the line's shape) or not a number at all (not_a: "a number", "a vertex
 * id"); PF_OK for any other kind. what names the field in messages. */
static inline int field_missing_or_junk(const line_ctx *lc, enum field_kind kind,
                                        const char *field, const char *what, const char *usage,
                                        const char *not_a)
{
    if (kind == FIELD_MISSING)
        return pf_io_fail(lc->st, lc->name, lc->line, "missing %s (expected '%s')", what,
                          usage);
    if (kind == FIELD_JUNK)
        return pf_io_fail(lc->st, lc->name, lc->line, "%s '%.*s' is not %s", what,
                          field_len(field), field, not_a);
    return PF_OK;
}

/* An unsigned field as scanned: its text (for messages), value and kind. */
typedef struct scanned_uint {
    const char *text;
    uint64_t value;
    enum field_kind kind;
} scanned_uint;

/* Scans the next field into *f. A missing or junk field is the error
 * (field_missing_or_junk, `not_a` saying what it should be); a number,
 * negative or huge, is left to the caller's range check. */
static inline int scan_present_uint(const line_ctx *lc, const char **pp, const char *what,
                                    const char *usage, const char *not_a, scanned_uint *f)
{
    f->value = 0;
    f->kind = scan_uint(pp, &f->text, &f->value);
    return field_missing_or_junk(lc, f->kind, f->text, what, usage, not_a);
}

static inline int id_ok(enum field_kind kind, uint64_t value, int64_t n)
{
    return kind == FIELD_NUMBER && value - 1 < (uint64_t)n; /* 0 wraps high */
}

/* Why a vertex-id field that failed id_ok is wrong. */
static inline int id_error(const line_ctx *lc, enum field_kind kind, const char *field,
                           int64_t n, const char *what, const char *usage)
{
    int rc = field_missing_or_junk(lc, kind, field, what, usage, "a number");
    if (rc)
        return rc;
    return pf_io_fail(lc->st, lc->name, lc->line, "%s %.*s is outside 1..%lld",
                      what, field_len(field), field, (long long)n);
}

/* Every line of an edge list: '#' and '%' lines and blank lines passed
 * over, each other line handed to arc(ctx, &p), which moves p past it.
 * lc->line counts the lines; the first error ends the walk. A list without
 * an arc line is an error too ("no arcs"; usage: the arc line's shape). */
static inline int scan_edge_lines(const char *text, line_ctx *lc, const char *usage,
                                  int (*arc)(void *ctx, const char **pp), void *ctx)
{
    const char *p = text;
    int rc = PF_OK;
    int64_t arcs = 0;
    while (*p && !rc) {
        lc->line++;
        p = skip_blanks(p);
        if (*p == '#' || *p == '%')
            p = next_line(p);
        else if (is_eol(*p))
            p += *p != '\0';
        else {
            rc = arc(ctx, &p);
            arcs++;
        }
    }
    if (!rc && !arcs)
        return pf_io_fail(lc->st, lc->name, lc->line + 1, "no arcs ('%s' lines)", usage);
    return rc;
}

/* How many blank-separated fields the line at p holds. */
static inline int count_line_fields(const char *p)
{
    int fields = 0;
    for (;;) {
        p = skip_blanks(p);
        if (is_eol(*p))
            return fields;
        fields++;
        while (!ends_field(*p))
            p++;
    }
}

/* One vertex id of an edge-list line, where the vertex count is not known
 * yet: base is the first id (1, or 0 with --zero-based), *id gets it
 * 0-based and *top the largest 0-based id so far; usage is the line's
 * shape, named when the field is missing. */
static inline int scan_list_id(const line_ctx *lc, const char **pp, const char *what,
                               const char *usage, int64_t base, int64_t *top, int64_t *id)
{
    scanned_uint f;
    int rc = scan_present_uint(lc, pp, what, usage, "a vertex id", &f);
    if (rc)
        return rc;
    uint64_t v = f.value;
    if (f.kind != FIELD_NUMBER || v < (uint64_t)base ||
        v - (uint64_t)base >= (uint64_t)PF_MAX_VERTICES)
        return pf_io_fail(lc->st, lc->name, lc->line, "%s %.*s outside %lld..%lld%s", what,
                          field_len(f.text), f.text, (long long)base,
                          (long long)(PF_MAX_VERTICES - 1 + base),
                          v == 0 && base == 1
                              ? " (ids start at 1; --zero-based reads 0-based ids)"
                              : "");
    *id = (int64_t)v - base;
    if (*id > *top)
        *top = *id;
    return PF_OK;
}

/* The two 1-based vertex ids in 1..n that open an arc or entry line
 * ("U V", "I J"), named tail_name and head_name in messages; *tail and
 * *head get them 0-based. */
static inline int scan_arc_ends(const line_ctx *lc, const char **pp, int64_t n,
                                const char *tail_name, const char *head_name,
                                const char *usage, int64_t *tail, int64_t *head)
{
    const char *tail_f, *head_f;
    uint64_t tail_v = 0, head_v = 0;
    enum field_kind tail_k = scan_uint(pp, &tail_f, &tail_v);
    enum field_kind head_k = scan_uint(pp, &head_f, &head_v);
    if (id_ok(tail_k, tail_v, n) && id_ok(head_k, head_v, n)) {
        *tail = (int64_t)tail_v - 1;
        *head = (int64_t)head_v - 1;
        return PF_OK;
    }
    if (!id_ok(tail_k, tail_v, n))
        return id_error(lc, tail_k, tail_f, n, tail_name, usage);
    return id_error(lc, head_k, head_f, n, head_name, usage);
}

/* N of a p line or a matrix: a number in least..PF_MAX_VERTICES (max-flow
 * needs a source and a sink, so 2; shortest paths make sense from 1). */
static inline int check_vertex_count(const line_ctx *lc, enum field_kind kind,
                                     const char *field, uint64_t n, int64_t least,
                                     const char *usage)
{
    int rc = field_missing_or_junk(lc, kind, field, "vertex count", usage, "a number");
    if (rc)
        return rc;
    if (kind != FIELD_NUMBER || n < (uint64_t)least || n > (uint64_t)PF_MAX_VERTICES)
        return pf_io_fail(lc->st, lc->name, lc->line, "vertex count %.*s is outside %lld..%lld",
                          field_len(field), field, (long long)least,
                          (long long)PF_MAX_VERTICES);
    return PF_OK;
}

/* A count field (arcs, entries): a number in 0..INT64_MAX. what names it in
 * messages ("arc count"). */
static inline int scan_count(const line_ctx *lc, const char **pp, const char *what,
                             const char *usage, int64_t *count)
{
    scanned_uint f;
    int rc = scan_present_uint(lc, pp, what, usage, "a number", &f);
    if (!rc && (f.kind != FIELD_NUMBER || f.value > (uint64_t)INT64_MAX))
        rc = pf_io_fail(lc->st, lc->name, lc->line, "%s %.*s is %s", what, field_len(f.text),
                        f.text, f.kind == FIELD_NEGATIVE ? "negative" : "too large");
    if (rc)
        return rc;
    *count = (int64_t)f.value;
    return PF_OK;
}

/* The rest of a DIMACS problem line after the 'p': "TYPE N M", where TYPE
 * must be `type` ("max", "sp") and N at least least_n. *first_p_line is 0
 * until a p line was read, and must stay alone. usage is the whole line as
 * the reader expects it ("p max N M"). */
static inline int scan_problem_line(const line_ctx *lc, const char **pp, int64_t *first_p_line,
                                    const char *type, const char *usage, int64_t least_n,
                                    int64_t *n, int64_t *m)
{
    if (*first_p_line)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "second p line (the first is on line %lld)", (long long)*first_p_line);
    const char *p = *pp, *field;
    int type_len = scan_word(&p, &field);
    if (type_len == 0)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "missing problem type (expected '%s')", usage);
    if ((size_t)type_len != strlen(type) || memcmp(field, type, (size_t)type_len) != 0)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "problem type '%.*s' is not '%s' (expected '%s')",
                          field_len(field), field, type, usage);
    uint64_t vertices = 0;
    enum field_kind kind = scan_uint(&p, &field, &vertices);
    int rc = check_vertex_count(lc, kind, field, vertices, least_n, usage);
    if (!rc)
        rc = scan_count(lc, &p, "arc count", usage, m);
    if (!rc)
        rc = finish_line(lc, &p, "arc count");
    if (rc)
        return rc;
    *n = (int64_t)vertices;
    *first_p_line = lc->line;
    *pp = p;
    return PF_OK;
}

/* ---- line-oriented files (DIMACS, solutions) ---------------------------- */

/* Starts the line at *pp and says what it is: its first field when that is
 * one letter ('a', 'p', ...); 'c' for a comment or a blank line, which is
 * then already skipped; 0 for anything else (see unknown_line). *start is
 * the line's first field (for messages); *pp ends past the type letter (or
 * at the next line). The readers dispatch on it in a written-out loop:
 * through a table of parsers (an indirect call per line) the max-flow
 * parse took 10% more instructions. */
static inline char line_type(const char **pp, const char **start)
{
    const char *s = skip_blanks(*pp);
    *start = s;
    if (*s == 'c') {
        *pp = next_line(s);
        return 'c';
    }
    if (is_eol(*s)) {
        *pp = *s ? s + 1 : s; /* blank line, or blanks at EOF */
        return 'c';
    }
    *pp = s + 1;
    return ends_field(s[1]) ? *s : 0; /* never reads past the NUL */
}

/* A line whose type none of the reader's parsers takes; `expected` lists
 * the ones they do ("c, p or a"). */
static inline int unknown_line(const line_ctx *lc, const char *start, const char *expected)
{
    return pf_io_fail(lc->st, lc->name, lc->line, "unknown line type '%.*s' (expected %s)",
                      field_len(start), start, expected);
}

/* At most how many lines of min_bytes or more (newline included) the text
 * from p to end can still hold: a declared count that lies cannot make a
 * reader reserve more memory than the file justifies. */
static inline int64_t lines_that_fit(const char *p, const char *end, size_t min_bytes)
{
    return (int64_t)((size_t)(end - p) / min_bytes) + 1;
}

/* Why an arc line may not come here: before the p line, or past its count
 * (then says by how much, counting the 'a' lines from line_start on). Out
 * of line and cold: the readers' hot loops run faster without it. */
static __attribute__((cold, noinline)) int arc_line_error(const line_ctx *lc,
                                                          const char *line_start,
                                                          int64_t p_line, int64_t declared)
{
    if (!p_line)
        return pf_io_fail(lc->st, lc->name, lc->line, "arc line before the p line");
    int64_t found = declared;
    for (const char *p = line_start; *p; p = next_line(p)) {
        const char *q = skip_blanks(p);
        if (q[0] == 'a' && ends_field(q[1]))
            found++;
    }
    return pf_io_fail(lc->st, lc->name, lc->line,
                      "more arc lines than the p line (line %lld) declares: "
                      "expected %lld, found %lld",
                      (long long)p_line, (long long)declared, (long long)found);
}

/* An arc line may come only after the p line (p_line, 0 = none yet) and
 * while fewer than its `declared` arcs were read. */
static inline int check_arc_line(const line_ctx *lc, const char *line_start, int64_t p_line,
                                 int64_t read, int64_t declared)
{
    if (p_line && read < declared)
        return PF_OK;
    return arc_line_error(lc, line_start, p_line, declared);
}

/* At the end of a file (reported on the line after the last): at least the
 * `declared` items ("arc lines", "entries") its header ("p line", "size
 * line"), standing on header_line, gave. */
static inline int check_declared(const line_ctx *lc, const char *items, const char *header,
                                 int64_t header_line, int64_t declared, int64_t found)
{
    if (found >= declared)
        return PF_OK;
    return pf_io_fail(lc->st, lc->name, lc->line + 1,
                      "fewer %s than the %s (line %lld) declares: expected %lld, found %lld",
                      items, header, (long long)header_line, (long long)declared,
                      (long long)found);
}

/* At the end of a DIMACS file (reported on the line after the last): a p
 * line was read (graph: whether it made the graph; p_usage: its shape;
 * len: the input's size, 0 when the file is empty) and all the arcs it
 * declares (it stood on p_line). */
static inline int check_dimacs_end(const line_ctx *lc, size_t len, int graph,
                                   const char *p_usage, int64_t p_line, int64_t declared,
                                   int64_t found)
{
    int64_t eof_line = lc->line + 1;
    if (!graph)
        return len == 0 ? pf_io_fail(lc->st, lc->name, eof_line,
                                     "the file is empty (expected a '%s' line)", p_usage)
                        : pf_io_fail(lc->st, lc->name, eof_line, "no '%s' line", p_usage);
    return check_declared(lc, "arc lines", "p line", p_line, declared, found);
}

/* At the end of a Matrix Market file (reported on the line after the
 * last): the size line was read (sized; size_usage: its shape) and at
 * least the `declared` entries it gave (size_line: where it stood). */
static inline int check_mm_end(const line_ctx *lc, int sized, const char *size_usage,
                               int64_t size_line, int64_t declared, int64_t entries)
{
    if (!sized)
        return pf_io_fail(lc->st, lc->name, lc->line + 1, "no size line '%s' after the banner",
                          size_usage);
    return check_declared(lc, "entries", "size line", size_line, declared, entries);
}

/* ---- matrix files ---------------------------------------------------- */

/* Feeds every field of a matrix file to field(ctx, &p), which consumes one.
 * The values are one stream: rows may wrap or share lines; lines starting
 * with 'c' are comments. lc->line follows the line being read. */
static inline int scan_value_stream(const char *text, line_ctx *lc,
                                    int (*field)(void *ctx, const char **pp), void *ctx)
{
    const char *p = text;
    int rc = PF_OK;
    while (*p && !rc) {
        lc->line++;
        p = skip_blanks(p);
        if (*p == 'c') {
            p = next_line(p);
            continue;
        }
        while (!rc && !is_eol(*(p = skip_blanks(p))))
            rc = field(ctx, &p);
        if (*p == '\n')
            p++;
    }
    return rc;
}

/* The value after the N*N-th of a matrix file (`what` names the values:
 * "weights"). */
static inline int matrix_overflow(const line_ctx *lc, int64_t n, const char *field,
                                  const char *what)
{
    return pf_io_fail(lc->st, lc->name, lc->line,
                      "more than N*N = %lld %s (N = %lld): '%.*s' is one too many",
                      (long long)(n * n), what, (long long)n, field_len(field), field);
}

/* At the end of a matrix file: were N (0 = not read) and all N*N values
 * there? */
static inline int check_matrix_end(const line_ctx *lc, int64_t n, int64_t entries,
                                   const char *what)
{
    if (n == 0)
        return pf_io_fail(lc->st, lc->name, lc->line + 1,
                          "no vertex count N (the file is empty)");
    if (entries < n * n)
        return pf_io_fail(lc->st, lc->name, lc->line + 1,
                          "expected N*N = %lld %s (N = %lld), found %lld", (long long)(n * n),
                          what, (long long)n, (long long)entries);
    return PF_OK;
}

/* Matrix files start (after 'c' comments and blank lines) with a number;
 * DIMACS files with a letter. */
static inline int looks_like_matrix(const char *text)
{
    for (const char *p = text; *p; p = next_line(p)) {
        const char *q = skip_blanks(p);
        if (*q == 'c' || *q == '\n')
            continue;
        return is_digit(*q) || (*q == '-' && is_digit(q[1]));
    }
    return 0;
}

#endif
