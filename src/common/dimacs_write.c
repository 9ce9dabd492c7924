/* The fast DIMACS writers, max-flow ("p max") and shortest-path ("p sp"):
 * integers formatted by hand into a large buffer, written in big chunks (a
 * 10M-arc graph in about a second). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "status.h"
#include "wgraph.h"
#include "wgraph_io.h"

/* ---- DIMACS writer ------------------------------------------------- */

/* Arc lines are formatted by hand into this buffer and written in big
 * chunks: printf per arc would cost several times the whole write. */
#define WRITE_BUFFER ((size_t)1 << 20)
#define WRITE_LINE_MAX 96 /* "a " + 2 ids + a weight or capacity + blanks, with room */

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t powers_of_ten[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
    1000000000000ull, 10000000000000ull, 100000000000000ull,
    1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
    1000000000000000000ull, 10000000000000000000ull,
};

/* Digits of v >= 10: the bit length times log10(2) (1233/4096) is the
 * count or one less, and one comparison tells which. */
static inline int decimal_digits(uint64_t v)
{
    int bits = 64 - __builtin_clzll(v);
    int guess = (bits * 1233) >> 12;
    return guess + (v >= powers_of_ten[guess]);
}

/* Decimal text of v at out, returns the end. Knowing the length first lets
 * the digits go straight to their place, two per division, instead of
 * through a scratch buffer and a variable-length copy. */
static inline char *put_uint(char *out, uint64_t v)
{
    if (v < 10) {
        *out = (char)('0' + v);
        return out + 1;
    }
    char *end = out + decimal_digits(v), *q = end;
    while (v >= 100) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10)
        memcpy(q - 2, digit_pairs + 2 * v, 2);
    else
        q[-1] = (char)('0' + v);
    return end;
}

/* "c " before every line of the comment (a trailing newline adds none). */
static int put_comment(FILE *out, const char *comment)
{
    const char *p = comment;
    do {
        int len = (int)strcspn(p, "\n");
        if (fprintf(out, "c%s%.*s\n", len ? " " : "", len, p) < 0)
            return -1;
        p += len + (p[len] == '\n');
    } while (*p);
    return 0;
}

/* Formats line i of an arc list at out (WRITE_LINE_MAX bytes of room) and
 * returns the end. */
typedef char *(*arc_formatter)(char *out, const void *graph, int64_t i);

/* The comment, the header lines, then one formatted line per arc. */
static int write_arc_lines(FILE *out, const char *comment, const char *header,
                           const void *graph, int64_t arcs, arc_formatter put_arc,
                           const char *name, pf_status *st)
{
    char *buf = pf_alloc(WRITE_BUFFER, 1, st);
    if (!buf)
        return PF_E_NOMEM;
    int ok = !comment || put_comment(out, comment) == 0;
    ok = ok && fputs(header, out) >= 0;
    size_t used = 0;
    for (int64_t i = 0; i < arcs && ok; i++) {
        if (WRITE_BUFFER - used < WRITE_LINE_MAX) {
            ok = fwrite(buf, 1, used, out) == used;
            used = 0;
        }
        used = (size_t)(put_arc(buf + used, graph, i) - buf);
    }
    /* Flushing here surfaces a full disk now, not at some later fclose. */
    ok = ok && fwrite(buf, 1, used, out) == used && fflush(out) == 0;
    int write_errno = errno;
    free(buf);
    if (!ok)
        return pf_fail(st, PF_E_INPUT, "%s: write failed: %s", name, strerror(write_errno));
    pf_status_ok(st);
    return PF_OK;
}

/* "a U V " with 1-based ids. */
static inline char *put_arc_ends(char *o, int32_t tail, int32_t head)
{
    *o++ = 'a';
    *o++ = ' ';
    o = put_uint(o, (uint64_t)tail + 1);
    *o++ = ' ';
    o = put_uint(o, (uint64_t)head + 1);
    *o++ = ' ';
    return o;
}

/* A capacity of a real network in input units, written so that it reads
 * back as real: a whole number gets ".0", or the reader would take it for
 * an integer (refused past 2^62, and the network would lose its scale). */
static char *put_real_amount(char *o, const pf_network *net, int64_t amount)
{
    int len = pf_amount_format(net, amount, o, WRITE_LINE_MAX - 24);
    if (len > 0 && !memchr(o, '.', (size_t)len) && !memchr(o, 'e', (size_t)len) &&
        !memchr(o, 'E', (size_t)len)) {
        memcpy(o + len, ".0", 2);
        len += 2;
    }
    return o + len;
}

static char *put_capacity_arc(char *o, const void *graph, int64_t i)
{
    const pf_network *net = graph;
    o = put_arc_ends(o, net->tail[i], net->head[i]);
    if (net->is_real) /* in input units, at most 21 digits and an exponent */
        o = put_real_amount(o, net, net->cap[i]);
    else
        o = put_uint(o, (uint64_t)net->cap[i]); /* >= 0: pf_network_add_arc checks */
    *o++ = '\n';
    return o;
}

static int write_dimacs(const pf_network *net, FILE *out, const char *comment,
                        const char *name, pf_status *st)
{
    /* The p line and one n line per source and sink. */
    int64_t terminals = net->source_count + net->sink_count;
    char *header = pf_alloc((size_t)terminals * 16 + 48, 1, st);
    if (!header)
        return PF_E_NOMEM;
    size_t used = (size_t)sprintf(header, "p max %lld %lld\n", (long long)net->n, (long long)net->m);
    for (int sink = 0; sink < 2; sink++)
        for (int64_t k = 0; k < pf_network_terminal_count(net, sink); k++)
            used += (size_t)sprintf(header + used, "n %lld %c\n",
                                    (long long)pf_network_terminal(net, sink, k) + 1,
                                    sink ? 't' : 's');
    int rc = write_arc_lines(out, comment, header, net, net->m, put_capacity_arc, name, st);
    free(header);
    return rc;
}

static char *put_weight_arc(char *o, const void *graph, int64_t i)
{
    const pf_wgraph *g = graph;
    o = put_arc_ends(o, g->tail[i], g->head[i]);
    if (g->real_weight) {
        /* 17 significant digits: strtod reads back the same double. At
         * most 24 characters ("-2.2250738585072014e-308"), well within the
         * room left after two ids. */
        o += snprintf(o, WRITE_LINE_MAX - 24, "%.17g", g->real_weight[i]);
    } else {
        int64_t w = g->int_weight[i]; /* |w| <= 2^62: negating cannot overflow */
        if (w < 0)
            *o++ = '-';
        o = put_uint(o, (uint64_t)(w < 0 ? -w : w));
    }
    *o++ = '\n';
    return o;
}

int pf_wgraph_write_dimacs(const pf_wgraph *g, FILE *out, const char *comment, pf_status *st)
{
    char header[64];
    snprintf(header, sizeof header, "p sp %lld %lld\n", (long long)g->n, (long long)g->m);
    return write_arc_lines(out, comment, header, g, g->m, put_weight_arc, "<output stream>", st);
}

int pf_network_write_dimacs_stream(const pf_network *net, FILE *out,
                                   const char *comment, pf_status *st)
{
    return write_dimacs(net, out, comment, "<output stream>", st);
}

int pf_network_write_dimacs(const pf_network *net, const char *path, pf_status *st)
{
    int to_stdout = !path || strcmp(path, "-") == 0;
    const char *name = to_stdout ? "<stdout>" : path;
    FILE *out = to_stdout ? stdout : fopen(path, "wb");
    if (!out)
        return pf_fail(st, PF_E_INPUT, "%s: cannot create: %s", name, strerror(errno));
    int rc = write_dimacs(net, out, NULL, name, st);
    if (!to_stdout && fclose(out) != 0 && !rc)
        rc = pf_fail(st, PF_E_INPUT, "%s: write failed: %s", name, strerror(errno));
    return rc;
}
