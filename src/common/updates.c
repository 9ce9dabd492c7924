/* The reader of the update stream (updates.h): one batch at a time, each
 * the lines up to a `solve`. It reads a line at a time and never past the
 * `solve` that ends a batch, so a session can answer batch by batch on a
 * pipe. gzip input cannot be read that way: it is read whole and inflated
 * by gz_input.c, then served line by line from memory. Errors are
 * "FILE:LINE: what is wrong" (PF_E_INPUT) and stay: once a line was
 * refused, every later call refuses again with the same message. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "scan.h"
#include "status.h"
#include "updates.h"

struct pf_update_reader {
    FILE *fp;          /* the stream lines come from; NULL once `text` holds the input */
    int owns_fp;       /* opened here (not stdin) */
    char *name;        /* the path, or <stdin>, for messages */
    int base;          /* the first vertex id: 1, or 0 */
    char *line;        /* the current line, NUL-terminated (getline's buffer) */
    size_t line_alloc;
    char *text;        /* gzip input, inflated whole: lines are taken from here */
    size_t text_len, text_at;
    int64_t line_no;
    int failed;        /* a line was refused: failure repeats it */
    pf_status failure;
};

/* ---- opening ------------------------------------------------------------ */


/* Input starting with the gzip magic is read whole and inflated; any
 * other input starting with its first byte (0x1f) is read whole too, as
 * it is. Input starting otherwise stays a stream (the byte goes back). */
static int take_compressed(pf_update_reader *r, pf_status *st)
{
    int first = getc(r->fp);
    if (first == EOF)
        return ferror(r->fp) ? pf_fail(st, PF_E_INPUT, "%s: read error: %s", r->name,
                                       strerror(errno))
                             : PF_OK;
    if (first != 0x1f) {
        ungetc(first, r->fp);
        return PF_OK;
    }
    char head = (char)first;
    size_t len = 0;
    char *raw = pf_io_read_stream(r->fp, &head, 1, r->name, &len, st);
    if (!raw)
        return st->code;
    if (!pf_gz_is_compressed(raw, len)) {
        r->text = raw;
        r->text_len = len;
        return PF_OK;
    }
    r->text = pf_gz_inflate(raw, len, r->name, &r->text_len, st);
    free(raw);
    return r->text ? PF_OK : st->code;
}

/* A reader on fp (not closed by pf_update_reader_close unless owns_fp). */
static int open_on(FILE *fp, int owns_fp, const char *name, int zero_based,
                   pf_update_reader **out, pf_status *st)
{
    *out = NULL;
    pf_update_reader *r = calloc(1, sizeof *r);
    char *copy = r ? strdup(name) : NULL;
    if (!copy) {
        free(r);
        if (owns_fp)
            fclose(fp);
        return pf_fail(st, PF_E_NOMEM, "%s: out of host memory for the update reader", name);
    }
    r->fp = fp;
    r->owns_fp = owns_fp;
    r->name = copy;
    r->base = zero_based ? 0 : 1;
    int rc = take_compressed(r, st);
    if (rc) {
        pf_update_reader_close(r);
        return rc;
    }
    *out = r;
    pf_status_ok(st);
    return PF_OK;
}

int pf_update_reader_open(const char *path, int zero_based, pf_update_reader **r,
                          pf_status *st)
{
    if (!path || !strcmp(path, "-"))
        return open_on(stdin, 0, "<stdin>", zero_based, r, st);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        *r = NULL;
        return pf_fail(st, PF_E_INPUT, "%s: cannot open: %s", path, strerror(errno));
    }
    return open_on(fp, 1, path, zero_based, r, st);
}

int pf_update_reader_open_stream(FILE *fp, const char *name, int zero_based,
                                 pf_update_reader **r, pf_status *st)
{
    return open_on(fp, 0, name ? name : "<stream>", zero_based, r, st);
}

void pf_update_reader_close(pf_update_reader *r)
{
    if (!r)
        return;
    if (r->owns_fp && r->fp)
        fclose(r->fp);
    else if (r->fp)
        clearerr(r->fp);
    free(r->name);
    free(r->line);
    free(r->text);
    free(r);
}

void pf_update_batch_free(pf_update_batch *b)
{
    free(b->items);
    free(b->lines);
    memset(b, 0, sizeof *b);
}

/* ---- lines -------------------------------------------------------------- */

/* The next line of the inflated text into r->line (with its '\n'). */
static ssize_t line_from_text(pf_update_reader *r)
{
    if (r->text_at >= r->text_len)
        return -1;
    const char *start = r->text + r->text_at;
    size_t left = r->text_len - r->text_at;
    const char *nl = memchr(start, '\n', left);
    size_t len = nl ? (size_t)(nl - start) + 1 : left;
    if (len + 1 > r->line_alloc) {
        char *bigger = realloc(r->line, len + 1);
        if (!bigger)
            return -2;
        r->line = bigger;
        r->line_alloc = len + 1;
    }
    memcpy(r->line, start, len);
    r->line[len] = '\0';
    r->text_at += len;
    return (ssize_t)len;
}

/* Reads the next line into r->line: 1, or 0 at the end of the input, or
 * an error (read error, out of memory, a NUL byte in the line). */
static int read_line(pf_update_reader *r, pf_status *st)
{
    errno = 0;
    ssize_t len = r->text ? line_from_text(r) : getline(&r->line, &r->line_alloc, r->fp);
    if (len < 0) {
        if (len == -2 || errno == ENOMEM)
            return pf_fail(st, PF_E_NOMEM, "%s:%lld: out of host memory for a line", r->name,
                           (long long)r->line_no + 1);
        if (!r->text && ferror(r->fp))
            return pf_fail(st, PF_E_INPUT, "%s: read error: %s", r->name, strerror(errno));
        return 0;
    }
    r->line_no++;
    if (strlen(r->line) != (size_t)len)
        return pf_io_fail(st, r->name, r->line_no, "NUL byte in the input (binary file?)");
    for (const char *cr = strchr(r->line, '\r'); cr; cr = strchr(cr + 1, '\r'))
        if (!ends_field(cr[1]))
            return pf_io_fail(st, r->name, r->line_no,
                              "lines end in a carriage return alone (old Mac line ends); "
                              "convert them to newlines, e.g. tr '\\r' '\\n'");
    if (r->line_no == 1 && !strncmp(r->line, "\xef\xbb\xbf", 3))
        memmove(r->line, r->line + 3, (size_t)len - 2); /* a UTF-8 byte order mark */
    return 1;
}

/* ---- fields ------------------------------------------------------------- */

/* An integer field at least `least`: *value, or the reason it is not one. */
static int scan_integer(const line_ctx *lc, const char **pp, const char *what,
                        const char *usage, int64_t least, int64_t *value)
{
    const char *field;
    double real = 0;
    enum number_kind kind = scan_number(pp, &field, value, &real);
    int len = field_len(field);
    switch (kind) {
    case NUMBER_INTEGER:
        if (*value >= least)
            return PF_OK;
        return pf_io_fail(lc->st, lc->name, lc->line, "%s %.*s is below %lld", what, len, field,
                          (long long)least);
    case NUMBER_MISSING:
        return pf_io_fail(lc->st, lc->name, lc->line, "missing %s (expected '%s')", what,
                          usage);
    case NUMBER_HUGE:
        return pf_io_fail(lc->st, lc->name, lc->line, "%s %.*s does not fit 64 bits", what,
                          len, field);
    case NUMBER_REAL:
        return pf_io_fail(lc->st, lc->name, lc->line, "%s '%.*s' is not an integer", what, len,
                          field);
    default:
        return pf_io_fail(lc->st, lc->name, lc->line, "%s '%.*s' is not a number", what, len,
                          field);
    }
}

/* A capacity: a non-negative integer, or a finite non-negative decimal
 * (then is_real and real_capacity). */
static int scan_capacity(const line_ctx *lc, const char **pp, const char *usage, pf_update *u)
{
    const char *field;
    int64_t integer = 0;
    double real = 0;
    enum number_kind kind = scan_number(pp, &field, &integer, &real);
    int len = field_len(field);
    if (kind == NUMBER_INTEGER && integer >= 0) {
        u->capacity = integer;
        return PF_OK;
    }
    if (kind == NUMBER_REAL && isfinite(real) && real >= 0) {
        u->is_real = 1;
        u->real_capacity = real + 0.0; /* -0.0 is 0 */
        return PF_OK;
    }
    if (kind == NUMBER_MISSING)
        return pf_io_fail(lc->st, lc->name, lc->line, "missing capacity (expected '%s')",
                          usage);
    if (kind == NUMBER_HUGE)
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s does not fit 64 bits",
                          len, field);
    if (kind == NUMBER_JUNK)
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity '%.*s' is not a number", len,
                          field);
    if (kind == NUMBER_REAL && isnan(real))
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s is not a number", len,
                          field);
    if (kind == NUMBER_REAL && isinf(real) && real > 0)
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s is not finite", len,
                          field);
    return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s is negative", len, field);
}

/* A vertex id of the stream's numbering, *id 0-based. */
static int scan_vertex(const line_ctx *lc, const char **pp, const char *what,
                       const char *usage, int base, int64_t *id)
{
    int rc = scan_integer(lc, pp, what, usage, base, id);
    if (!rc)
        *id -= base;
    return rc;
}

/* An arc number (from 1), *arc 0-based. */
static int scan_arc(const line_ctx *lc, const char **pp, const char *usage, int64_t *arc)
{
    int rc = scan_integer(lc, pp, "arc number", usage, 1, arc);
    if (!rc)
        *arc -= 1;
    return rc;
}

/* ---- lines -------------------------------------------------------------- */

/* The lines that end a batch (the changes are enum pf_update_kind, >= 1). */
enum { KEYWORD_SOLVE = 0, KEYWORD_BFS = -1, KEYWORD_SSSP = -2 };

typedef struct keyword {
    const char *word;
    int kind;          /* enum pf_update_kind, or a KEYWORD_ that ends a batch */
    const char *usage; /* the line's shape, for messages */
} keyword;

static const keyword keywords[] = {
    {.word = "cap", .kind = PF_UPDATE_CAP, .usage = "cap I C"},
    {.word = "add", .kind = PF_UPDATE_ADD, .usage = "add U V C"},
    {.word = "del", .kind = PF_UPDATE_DEL, .usage = "del I"},
    {.word = "addv", .kind = PF_UPDATE_ADDV, .usage = "addv K"},
    {.word = "source", .kind = PF_UPDATE_SOURCE, .usage = "source S"},
    {.word = "sink", .kind = PF_UPDATE_SINK, .usage = "sink T"},
    {.word = "solve", .kind = KEYWORD_SOLVE, .usage = "solve"},
    {.word = "bfs", .kind = KEYWORD_BFS, .usage = "bfs S"},
    {.word = "sssp", .kind = KEYWORD_SSSP, .usage = "sssp S"},
};

static const keyword *find_keyword(const char *word, int len)
{
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if ((size_t)len == strlen(keywords[i].word) && !memcmp(word, keywords[i].word, (size_t)len))
            return &keywords[i];
    return NULL;
}

/* The fields of a change line after its keyword, into *u. */
static int scan_change(const line_ctx *lc, const char **pp, const keyword *k, int base,
                       pf_update *u)
{
    *u = (pf_update){.kind = k->kind};
    int rc = PF_OK;
    const char *last = "keyword";
    switch (k->kind) {
    case PF_UPDATE_CAP:
        rc = scan_arc(lc, pp, k->usage, &u->arc);
        if (!rc)
            rc = scan_capacity(lc, pp, k->usage, u);
        last = "capacity";
        break;
    case PF_UPDATE_ADD:
        rc = scan_vertex(lc, pp, "tail", k->usage, base, &u->tail);
        if (!rc)
            rc = scan_vertex(lc, pp, "head", k->usage, base, &u->head);
        if (!rc)
            rc = scan_capacity(lc, pp, k->usage, u);
        last = "capacity";
        break;
    case PF_UPDATE_DEL:
        rc = scan_arc(lc, pp, k->usage, &u->arc);
        last = "arc number";
        break;
    case PF_UPDATE_ADDV:
        rc = scan_integer(lc, pp, "vertex count", k->usage, 1, &u->count);
        last = "vertex count";
        break;
    default: /* source, sink */
        rc = scan_vertex(lc, pp, k->kind == PF_UPDATE_SOURCE ? "source" : "sink", k->usage,
                         base, &u->tail);
        last = "vertex";
        break;
    }
    return rc ? rc : finish_line(lc, pp, last);
}

/* Room for one more item in b. */
static int grow_batch(pf_update_batch *b, const char *name, pf_status *st)
{
    if (b->count < b->alloc)
        return PF_OK;
    int64_t alloc = b->alloc ? b->alloc * 2 : 64;
    int ok = 1;
    b->items = pf_regrow(b->items, (size_t)alloc, sizeof *b->items, &ok);
    b->lines = pf_regrow(b->lines, (size_t)alloc, sizeof *b->lines, &ok);
    if (!ok)
        return pf_fail(st, PF_E_NOMEM, "%s: out of host memory for a batch of %lld updates",
                       name, (long long)alloc);
    b->alloc = alloc;
    return PF_OK;
}

/* One line: 1 at a line that ends the batch (solve, bfs, sssp), else 0
 * (a change appended to b, a comment, a blank line), or an error. */
static int take_line(pf_update_reader *r, pf_update_batch *b, pf_status *st)
{
    line_ctx lc = {.name = r->name, .line = r->line_no, .st = st};
    const char *p = r->line, *word;
    int len = scan_word(&p, &word);
    if (len == 0 || (len == 1 && word[0] == 'c'))
        return 0;
    const keyword *k = find_keyword(word, len);
    if (!k)
        return pf_io_fail(st, r->name, r->line_no,
                          "unknown keyword '%.*s' (expected c, cap, add, del, addv, source, "
                          "sink, solve, bfs or sssp)",
                          field_len(word), word);
    if (k->kind <= KEYWORD_SOLVE) { /* the batch ends here */
        int rc = PF_OK;
        if (k->kind != KEYWORD_SOLVE)
            rc = scan_vertex(&lc, &p, "source", k->usage, r->base, &b->search_source);
        if (!rc)
            rc = finish_line(&lc, &p, k->kind == KEYWORD_SOLVE ? "solve" : "vertex");
        if (rc)
            return rc;
        b->solve_line = r->line_no;
        b->end = k->kind == KEYWORD_BFS    ? PF_BATCH_BFS
                 : k->kind == KEYWORD_SSSP ? PF_BATCH_SSSP
                                           : PF_BATCH_SOLVE;
        return 1;
    }
    int rc = grow_batch(b, r->name, st);
    if (!rc)
        rc = scan_change(&lc, &p, k, r->base, &b->items[b->count]);
    if (rc)
        return rc;
    b->lines[b->count++] = r->line_no;
    return 0;
}

int pf_update_reader_next(pf_update_reader *r, pf_update_batch *b, pf_status *st)
{
    b->count = 0;
    b->solve_line = 0;
    b->end = PF_BATCH_SOLVE;
    if (r->failed) {
        *st = r->failure;
        return st->code;
    }
    pf_status_ok(st);
    int rc;
    while ((rc = read_line(r, st)) == 1) {
        rc = take_line(r, b, st);
        if (rc)
            break;
    }
    if (rc == 1 || (rc == 0 && b->count > 0))
        return 1; /* ended by `solve`, or by the end of the input */
    if (rc != 0) {
        r->failed = 1;
        r->failure = *st;
        b->count = 0;
    }
    return rc;
}

const char *pf_update_reader_where(pf_update_reader *r, const pf_update_batch *b, int64_t k,
                                   char *buf, size_t len)
{
    int64_t line = k >= 0 && k < b->count ? b->lines[k] : b->solve_line;
    snprintf(buf, len, "%s:%lld", r->name, (long long)line);
    return buf;
}
