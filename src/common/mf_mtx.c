/* Matrix Market coordinate files as max-flow networks: the same files the
 * APSP reader takes (wgraph_read.c), with capacities instead of weights.
 *
 *   %%MatrixMarket matrix coordinate real|integer|pattern general|symmetric
 *   % comments
 *   N N ENTRIES
 *   I J CAP          (one per entry; pattern files have no CAP: 1)
 *
 * Entry (I, J, CAP) is the arc I -> J; in a symmetric file an entry off
 * the diagonal is J -> I as well. Capacities are integers in 0..2^62 or
 * nonnegative reals. The file names no terminals: the caller sets them. */
#include <string.h>
#include <strings.h>

#include "formats.h"
#include "status.h"

#define MM_BANNER_TEXT "%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric"
#define MM_SIZE_TEXT "N N ENTRIES"

typedef struct mm_net_parser {
    line_ctx lc;
    pf_network *net;
    int banner_seen, pattern, integer_only, symmetric;
    int64_t size_line, declared, entries;
    const char *end;
} mm_net_parser;

/* Is the word at *pp (moved past it) one of `words` (NUL-separated, ends
 * with an empty one)? Returns its index, -1 if not. */
static int banner_word(const char **pp, const char *words)
{
    const char *field;
    int len = scan_word(pp, &field);
    for (int i = 0; *words; i++, words += strlen(words) + 1)
        if ((size_t)len == strlen(words) && strncasecmp(field, words, (size_t)len) == 0)
            return i;
    return -1;
}

static int parse_banner(mm_net_parser *mp, const char **pp)
{
    const char *p = *pp;
    int head = banner_word(&p, "%%MatrixMarket\0");
    int object = banner_word(&p, "matrix\0");
    int format = banner_word(&p, "coordinate\0");
    int field = banner_word(&p, "real\0integer\0pattern\0");
    int symmetry = banner_word(&p, "general\0symmetric\0");
    if (head < 0 || object < 0 || format < 0 || field < 0 || symmetry < 0)
        return pf_io_fail(mp->lc.st, mp->lc.name, mp->lc.line,
                          "unsupported Matrix Market banner (expected '%s')", MM_BANNER_TEXT);
    mp->integer_only = field == 1;
    mp->pattern = field == 2;
    mp->symmetric = symmetry == 1;
    mp->banner_seen = 1;
    *pp = p;
    return finish_line(&mp->lc, pp, "banner");
}

static int parse_size(mm_net_parser *mp, const char **pp)
{
    const line_ctx *lc = &mp->lc;
    const char *field;
    uint64_t rows = 0;
    int64_t cols = 0, entries = 0;
    enum field_kind kind = scan_uint(pp, &field, &rows);
    int rc = check_vertex_count(lc, kind, field, rows, 2, MM_SIZE_TEXT);
    if (!rc)
        rc = scan_count(lc, pp, "column count", MM_SIZE_TEXT, &cols);
    if (!rc && (uint64_t)cols != rows)
        rc = pf_io_fail(lc->st, lc->name, lc->line,
                        "the matrix is not square (%llu rows, %lld columns)",
                        (unsigned long long)rows, (long long)cols);
    if (!rc)
        rc = scan_count(lc, pp, "entry count", MM_SIZE_TEXT, &entries);
    if (!rc)
        rc = finish_line(lc, pp, "entry count");
    if (rc)
        return rc;
    mp->size_line = lc->line;
    mp->declared = entries;
    mp->net = pf_network_new((int64_t)rows, 0, 1, lc->st);
    if (!mp->net)
        return lc->st ? lc->st->code : PF_E_NOMEM;
    int64_t fit = lines_that_fit(*pp, mp->end, sizeof "1 1\n" - 1);
    int64_t want = entries < fit ? entries : fit;
    return pf_network_reserve(mp->net, mp->symmetric ? 2 * want : want, lc->st);
}

/* Arc i's capacity from the entry's last field. */
static int entry_cap(mm_net_parser *mp, const char **pp, int64_t i)
{
    const line_ctx *lc = &mp->lc;
    const char *field;
    uint64_t cap = 1;
    enum field_kind kind = mp->pattern ? FIELD_NUMBER : scan_uint(pp, &field, &cap);
    if (kind == FIELD_NUMBER && cap <= (uint64_t)PF_CAP_MAX) {
        mp->net->cap[i] = (int64_t)cap;
        return PF_OK;
    }
    int real_len = kind == FIELD_JUNK && !mp->integer_only ? real_text_len(field) : 0;
    if (real_len)
        return pf_read_real_cap(lc, mp->net, i, field, real_len);
    if (kind == FIELD_MISSING)
        return pf_io_fail(lc->st, lc->name, lc->line, "missing capacity (expected 'I J CAP')");
    if (kind == FIELD_NEGATIVE || (kind == FIELD_JUNK && *field == '-' && real_text_len(field)))
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s is negative",
                          field_len(field), field);
    if (kind == FIELD_JUNK)
        return pf_io_fail(lc->st, lc->name, lc->line, "capacity '%.*s' is not %s",
                          field_len(field), field,
                          mp->integer_only ? "an integer (the banner says integer)" : "a number");
    return pf_io_fail(lc->st, lc->name, lc->line, "capacity %.*s exceeds the maximum 2^62 = %lld",
                      field_len(field), field, (long long)PF_CAP_MAX);
}

static int parse_entry(mm_net_parser *mp, const char **pp)
{
    const line_ctx *lc = &mp->lc;
    pf_network *net = mp->net;
    if (mp->entries == mp->declared)
        return pf_io_fail(lc->st, lc->name, lc->line,
                          "more entries than the size line (line %lld) declares (%lld)",
                          (long long)mp->size_line, (long long)mp->declared);
    if (net->m + 2 > net->m_alloc) {
        int rc = pf_network_reserve(net, net->m_alloc * 2 + 64, lc->st);
        if (rc)
            return rc;
    }
    int64_t tail = 0, head = 0;
    int rc = scan_arc_ends(lc, pp, net->n, "row", "column", mp->pattern ? "I J" : "I J CAP",
                           &tail, &head);
    if (rc)
        return rc;
    net->tail[net->m] = (int32_t)tail;
    net->head[net->m] = (int32_t)head;
    long double parse_error = net->parse_error;
    rc = entry_cap(mp, pp, net->m);
    if (!rc)
        rc = finish_line(lc, pp, mp->pattern ? "column (pattern entries have no capacity)"
                                             : "capacity");
    if (rc)
        return rc;
    net->m++;
    if (mp->symmetric && tail != head) {
        net->tail[net->m] = (int32_t)head;
        net->head[net->m] = (int32_t)tail;
        net->cap[net->m] = net->cap[net->m - 1];
        if (net->cap[net->m] < 0) { /* the same text twice: its parse error twice */
            rc = pf_network_real_cap(net, net->m, net->real_cap[net->m - 1], 1, lc->st);
            net->parse_error += net->parse_error - parse_error;
        }
        net->m++;
    }
    mp->entries++;
    return rc;
}

pf_network *pf_parse_mm_network(const char *text, size_t len, const char *name, pf_status *st)
{
    mm_net_parser mp = {.lc = {.name = name, .st = st}, .end = text + len};
    const char *p = text;
    int rc = PF_OK;
    while (*p && !rc) {
        mp.lc.line++;
        p = skip_blanks(p);
        if (is_eol(*p))
            p += *p != '\0';
        else if (!mp.banner_seen)
            rc = parse_banner(&mp, &p);
        else if (*p == '%')
            p = next_line(p);
        else if (!mp.net)
            rc = parse_size(&mp, &p);
        else
            rc = parse_entry(&mp, &p);
    }
    if (!rc)
        rc = check_mm_end(&mp.lc, mp.net != NULL, MM_SIZE_TEXT, mp.size_line, mp.declared,
                          mp.entries);
    if (rc) {
        pf_network_free(mp.net);
        return NULL;
    }
    pf_status_ok(st);
    return mp.net;
}
