/* Check suite "dimacs_parallel": the DIMACS reader's parallel arc pass
 * (src/common/dimacs_parallel.c) against the serial reader. Whatever the
 * text and the thread count, and wherever the chunks' boundaries fall, the
 * result must be the serial one: the same network, or the same message
 * naming the same line. Texts are built in memory; small ones cross chunk
 * boundaries at every line when the size threshold is lowered to 0. */
#define _GNU_SOURCE
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dimacs_arc.h"
#include "common/formats.h"
#include "common/omp_threads.h"
#include "support.h"

#define NAME "in.max"

/* ---- texts ---------------------------------------------------------- */

/* A DIMACS text being built, NUL-terminated as the loader leaves it. */
typedef struct text {
    char *bytes;
    size_t len, cap;
    size_t arcs_at; /* where its first arc line starts */
} text;

static void add(text *t, const char *fmt, ...) PF_PRINTF(2, 3);
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    while (t->len + (size_t)need + 1 > t->cap) {
        t->cap = t->cap ? 2 * t->cap : 4096;
        t->bytes = realloc(t->bytes, t->cap);
        ck_assert_ptr_nonnull(t->bytes);
    }
    va_start(ap, fmt);
    vsnprintf(t->bytes + t->len, (size_t)need + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)need;
}

static uint64_t rng_state;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint64_t rng_below(uint64_t bound) { return rng_next() % bound; }

/* Something other than an arc, between arc lines: a comment, a blank line,
 * blanks alone. */
static void add_filler(text *t)
{
    static const char *const fillers[] = {"c between arcs\n", "\n", " \t\r\n", "c\r\n", "\t\n"};
    add(t, "%s", fillers[rng_below(5)]);
}

/* One arc line with some legal oddity: tabs, leading blanks, CRLF, blanks
 * before the line end, leading zeros, capacities 0 and 2^62. */
static void add_arc(text *t, int64_t n, int last_without_newline)
{
    static const char *const seps[] = {" ", "\t", "  \t "};
    static const char *const leads[] = {"", "", "", " ", "\t "};
    static const char *const eols[] = {"\n", "\n", "\r\n", " \n", "\t\r\n"};
    const char *sep = seps[rng_below(3)];
    uint64_t cap = rng_below(4) == 0 ? (uint64_t)PF_CAP_MAX * rng_below(2) : rng_below(100000);
    add(t, "%sa%s%llu%s%llu%s%s%llu%s", leads[rng_below(5)], sep,
        (unsigned long long)rng_below((uint64_t)n) + 1, sep,
        (unsigned long long)rng_below((uint64_t)n) + 1, sep, rng_below(8) ? "" : "00",
        (unsigned long long)cap, last_without_newline ? "" : eols[rng_below(5)]);
}

/* A valid text: a head of HEAD_LINES lines (the p line third, "n N t"
 * fifth), then `arcs` arc lines, with fillers between them unless
 * `plain`; the last line ends without a newline when `open_end`. */
#define HEAD_LINES 6
static void random_dimacs(text *t, uint64_t seed, int64_t n, int64_t arcs, int open_end,
                          int plain)
{
    rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
    add(t, "c random text\n\np max %lld %lld\nn 1 s\nn %lld t\nc arcs follow\n", (long long)n,
        (long long)arcs, (long long)n);
    t->arcs_at = t->len;
    for (int64_t i = 0; i < arcs; i++) {
        if (!plain && i && rng_below(6) == 0)
            add_filler(t);
        add_arc(t, n, open_end && i + 1 == arcs);
    }
}

/* A valid text of 7 vertices and 1..most_arcs arcs, by seed. */
static void small_text(text *t, uint64_t seed, uint64_t most_arcs)
{
    random_dimacs(t, seed, 7, 1 + (int64_t)(seed % most_arcs), (int)(seed & 1), 0);
}

static void text_free(text *t)
{
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

/* The byte offset where line `line` (1-based) starts; t->len past the last. */
static size_t line_offset(const text *t, int64_t line)
{
    size_t at = 0;
    for (int64_t l = 1; l < line && at < t->len; l++) {
        const char *nl = memchr(t->bytes + at, '\n', t->len - at);
        at = nl ? (size_t)(nl - t->bytes) + 1 : t->len;
    }
    return at;
}

/* Lines that start in [from, to), as the reader counts them. */
static int64_t lines_between(const text *t, size_t from, size_t to)
{
    int64_t lines = 0;
    for (size_t at = from; at < to; at++)
        lines += at == from || t->bytes[at - 1] == '\n';
    return lines;
}

/* Replaces line `line` (drop = 1) or puts `insert` before it (drop = 0). */
static void splice_line(text *t, int64_t line, const char *insert, int drop)
{
    size_t at = line_offset(t, line);
    size_t gone = drop ? line_offset(t, line + 1) - at : 0;
    text out = {.arcs_at = t->arcs_at};
    add(&out, "%.*s%s%s", (int)at, t->bytes, insert, t->bytes + at + gone);
    text_free(t);
    *t = out;
}

/* ---- comparisons ---------------------------------------------------- */

static void assert_same_terminals(const pf_network *a, const pf_network *b)
{
    ck_assert_int_eq(a->source, b->source);
    ck_assert_int_eq(a->sink, b->sink);
    ck_assert_int_eq(a->source_count, b->source_count);
    ck_assert_int_eq(a->sink_count, b->sink_count);
    ck_assert_int_eq(a->sources == NULL, b->sources == NULL);
    if (a->sources) {
        ck_assert(memcmp(a->sources, b->sources, (size_t)a->source_count * 4) == 0);
        ck_assert(memcmp(a->sinks, b->sinks, (size_t)a->sink_count * 4) == 0);
    }
}

static void assert_same_arcs(const pf_network *a, const pf_network *b)
{
    ck_assert_int_eq(a->n, b->n);
    ck_assert_int_eq(a->m, b->m);
    size_t m = (size_t)a->m;
    ck_assert(memcmp(a->tail, b->tail, m * sizeof *a->tail) == 0);
    ck_assert(memcmp(a->head, b->head, m * sizeof *a->head) == 0);
    ck_assert(memcmp(a->cap, b->cap, m * sizeof *a->cap) == 0);
}

static void assert_same_network(const pf_network *a, const pf_network *b)
{
    assert_same_arcs(a, b);
    assert_same_terminals(a, b);
    ck_assert_int_eq(a->is_real, b->is_real);
    ck_assert_int_eq(a->scale_pending, b->scale_pending);
    ck_assert(a->parse_error == b->parse_error);
    ck_assert_int_eq(a->real_cap == NULL, b->real_cap == NULL);
    int64_t i = 0; /* arcs of a real capacity hold cap -1 and it in real_cap */
    while (a->real_cap && i < a->m && (a->cap[i] >= 0 || a->real_cap[i] == b->real_cap[i]))
        i++;
    ck_assert_msg(!a->real_cap || i == a->m, "real capacity %lld differs", (long long)i);
}

/* The serial reader's result; NULL with *st set on an error. */
static pf_network *parse_serial(const text *t, pf_status *st)
{
    return pf_parse_dimacs_threads(t->bytes, t->len, NAME, 1, 0, st);
}

/* Parses t on `threads` threads (0: OpenMP's count) from min_bytes on and
 * asserts the serial reader's outcome; returns that (NULL: an error, then
 * in *st). */
static pf_network *assert_same_parse(const text *t, int threads, size_t min_bytes,
                                     pf_status *st)
{
    pf_status par_st;
    pf_network *serial = parse_serial(t, st);
    pf_network *par = pf_parse_dimacs_threads(t->bytes, t->len, NAME, threads, min_bytes, &par_st);
    if (!serial) {
        ck_assert_msg(par == NULL, "serial: '%s', %d threads: a network", st->message, threads);
        ck_assert_int_eq(par_st.code, st->code);
        ck_assert_str_eq(par_st.message, st->message);
    } else {
        ck_assert_msg(par != NULL, "%d threads: '%s'", threads, par_st.message);
        assert_same_network(serial, par);
    }
    pf_network_free(par);
    return serial;
}

/* The parallel pass alone over t's arc lines, into a network of the serial
 * result's size: whether it took them all (then the same arcs and lines). */
static int parallel_pass_takes(const text *t, const pf_network *serial, int threads)
{
    pf_status st;
    pf_network *net = pf_network_new(serial->n, 0, 1, &st);
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(pf_network_reserve(net, serial->m, &st), PF_OK);
    int64_t lines = -1;
    int took = pf_dimacs_arcs_parallel(t->bytes + t->arcs_at, t->bytes + t->len, net, serial->m,
                                       threads, &lines);
    if (took) {
        assert_same_arcs(serial, net);
        ck_assert_int_eq(lines, lines_between(t, t->arcs_at, t->len));
    } else {
        ck_assert_int_eq(net->m, 0);
        ck_assert_int_eq(lines, -1);
    }
    pf_network_free(net);
    return took;
}

static const int thread_counts[] = {2, 3, 8};
#define THREAD_COUNTS ((int)(sizeof thread_counts / sizeof thread_counts[0]))

/* ---- good texts ----------------------------------------------------- */

/* Above the size threshold, with the thread count OpenMP gives. */
START_TEST(large_text_any_thread_count)
{
    text t = {0};
    random_dimacs(&t, 1 + (uint64_t)_i, 100000, 700000, _i, 0);
    ck_assert_uint_gt(t.len, PF_DIMACS_PARALLEL_MIN_BYTES);
    static const int teams[] = {1, 2, 3, 8};
    pf_status st;
    for (int k = 0; k < 4; k++) {
#ifdef _OPENMP
        omp_set_num_threads(teams[k]);
#endif
        pf_network *serial = assert_same_parse(&t, 0, PF_DIMACS_PARALLEL_MIN_BYTES, &st);
        ck_assert_msg(serial != NULL, "%s", st.message);
        ck_assert_int_eq(serial->m, 700000);
        ck_assert(parallel_pass_takes(&t, serial, teams[k]));
        pf_network_free(serial);
    }
    text_free(&t);
}
END_TEST

/* Small texts cut into chunks of a few lines: every boundary position. */
START_TEST(small_texts_every_boundary)
{
    pf_status st;
    for (uint64_t seed = 1; seed <= 80; seed++) {
        text t = {0};
        small_text(&t, seed + 1000 * (uint64_t)_i, 40);
        for (int k = 0; k < THREAD_COUNTS; k++) {
            pf_network *serial = assert_same_parse(&t, thread_counts[k], 0, &st);
            ck_assert_msg(serial != NULL, "%s", st.message);
            ck_assert(parallel_pass_takes(&t, serial, thread_counts[k]));
            pf_network_free(serial);
        }
        text_free(&t);
    }
}
END_TEST

/* ---- texts the parallel pass hands back ------------------------------ */

/* A large text without fillers, so that arc i (0-based) is on line
 * HEAD_LINES + 1 + i, with the arc line number `arc` replaced by `line`, or
 * `line` put before it (replace = 0). */
static void large_text_with(text *t, int64_t arcs, int64_t arc, const char *line, int replace)
{
    random_dimacs(t, 77, 1000, arcs, 0, 1);
    splice_line(t, HEAD_LINES + 1 + arc, line, replace);
}

typedef struct decline_case {
    int64_t arc;        /* where the line goes, from the end when negative */
    const char *line;
    int replace;
    int64_t error_line; /* the line the message names; 0: the text is valid */
    const char *needle;
} decline_case;

#define ARCS 300000

static const decline_case declines[] = {
    {-3, "a 1 x 5\n", 1, HEAD_LINES + ARCS - 2, "head 'x' is not a number"},
    {-1, "a 1 2 99999999999999999999\n", 1, HEAD_LINES + ARCS, "exceeds the maximum 2^62"},
    {-2, "a 1 2 3 4\n", 1, HEAD_LINES + ARCS - 1, "extra text '4' after the capacity"},
    {-1, "a 1 2 1\n", 0, HEAD_LINES + ARCS + 1,
     "more arc lines than the p line (line 3) declares: expected 300000, found 300001"},
    {-5, "", 1, HEAD_LINES + ARCS,
     "fewer arc lines than the p line (line 3) declares: expected 300000, found 299999"},
    {-10, "n 5 s\n", 0, 0, NULL},
    {ARCS / 2, "n 7 t\n", 0, 0, NULL},
    {-4, "a 3 4 2.5\n", 1, 0, NULL},
    {-7, "p max 1000 300000\n", 0, HEAD_LINES + ARCS - 6, "second p line (the first is on line 3)"},
    {-2, "x 1 2 3\n", 0, HEAD_LINES + ARCS - 1, "unknown line type 'x'"},
    {-2, "n 1000 s\n", 0, HEAD_LINES + ARCS - 1, "vertex 1000 is already the sink (line 5)"},
};

START_TEST(large_text_declined)
{
    const decline_case *dc = &declines[_i];
    text t = {0};
    large_text_with(&t, ARCS, dc->arc < 0 ? ARCS + dc->arc : dc->arc, dc->line, dc->replace);
    pf_status st;
    pf_network *serial = NULL;
    for (int k = 0; k < THREAD_COUNTS; k++) {
        pf_network_free(serial);
        serial = assert_same_parse(&t, thread_counts[k], 0, &st);
    }
    if (dc->error_line) {
        ck_assert_ptr_null(serial);
        pf_test_assert_input_error(&st, NAME, (int)dc->error_line, dc->needle);
    } else {
        ck_assert_msg(serial != NULL, "%s", st.message);
        ck_assert(!parallel_pass_takes(&t, serial, 3));
    }
    pf_network_free(serial);
    text_free(&t);
}
END_TEST

/* What only the end tells, after arcs read in parallel: the line count
 * must be the serial one. */
START_TEST(end_of_input_errors_count_lines)
{
    text t = {0};
    random_dimacs(&t, 9, 1000, 50000, _i, 0);
    splice_line(&t, 5, "", 1); /* "n 1000 t" */
    int64_t lines = lines_between(&t, 0, t.len);
    pf_status st;
    for (int k = 0; k < THREAD_COUNTS; k++) {
        pf_network *serial = assert_same_parse(&t, thread_counts[k], 0, &st);
        ck_assert_ptr_null(serial);
        pf_test_assert_input_error(&st, NAME, (int)lines + 1, "no sink line ('n ID t')");
    }
    text_free(&t);
}
END_TEST

/* Small texts with one line changed, put in or taken out: any outcome, as
 * long as every thread count gives the serial one. */
static const char *const odd_lines[] = {
    "n 2 s\n", "n 3 t\n", "n 1 t\n", "p max 7 3\n", "a 1 2 2.5\n", "a 1 2 1e3\n", "a 1 x 3\n",
    "a 1 2\n", "a 1 2 3 4\n", "a 0 1 1\n", "a 1 8 1\n", "a 1 2 -1\n", "x 1 2\n", "ab 1 2 3\n",
    "a\n", "A 1 2 3\n", "c a 1 2 3\n", "\n", " \t\n", "a 1 2 3\n", "a 1 2 0.0\n", "a 1 2 nan\n",
    "a 1 2 4611686018427387905\n", "  a\t2 3 4\r\n", "a 1 2 3", "p max 7 0\n", "n 9 s\n",
};
#define ODD_LINES ((int)(sizeof odd_lines / sizeof odd_lines[0]))

START_TEST(small_texts_changed)
{
    pf_status st;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        text t = {0};
        small_text(&t, seed + 7000 * (uint64_t)_i, 30);
        int64_t lines = lines_between(&t, 0, t.len);
        rng_state = seed * 31 + (uint64_t)_i;
        int64_t at = 1 + (int64_t)rng_below((uint64_t)lines + 1);
        int what = (int)rng_below(3); /* 0 put in, 1 replace, 2 take out */
        splice_line(&t, at, what == 2 ? "" : odd_lines[rng_below(ODD_LINES)], what != 0);
        for (int k = 0; k < THREAD_COUNTS; k++)
            pf_network_free(assert_same_parse(&t, thread_counts[k], 0, &st));
        text_free(&t);
    }
}
END_TEST

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
    Suite *s = suite_create("dimacs_parallel");
    TCase *tc = tcase_create("dimacs_parallel");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, large_text_any_thread_count, 0, 2);
    tcase_add_loop_test(tc, small_texts_every_boundary, 0, 2);
    tcase_add_loop_test(tc, large_text_declined, 0, COUNT(declines));
    tcase_add_loop_test(tc, end_of_input_errors_count_lines, 0, 2);
    tcase_add_loop_test(tc, small_texts_changed, 0, 10);
    suite_add_tcase(s, tc);
    return pf_test_run(s);
}
