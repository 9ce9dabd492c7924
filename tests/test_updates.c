/* Check suite "updates": the update-stream reader (every keyword, comments,
 * blank lines, CRLF, 0- and 1-based ids, real capacities, gzip, batch by
 * batch on a pipe, every error with its exact FILE:LINE message) and the
 * `gen updates` writer (reproducible, every line readable, every arc it
 * names live at its point in the stream, the batch sizes and the mix kept). */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/gen.h"
#include "common/network.h"
#include "common/updates.h"
#include "pf_config.h"
#include "support.h"

#if PF_HAVE_ZLIB
#include <zlib.h>
#endif

/* ---- helpers ---------------------------------------------------------- */

static pf_update_reader *open_text(const char *text, int zero_based, const char **path)
{
    *path = pf_test_tmpfile(text);
    pf_update_reader *r = NULL;
    pf_status st;
    ck_assert_msg(pf_update_reader_open(*path, zero_based, &r, &st) == PF_OK, "%s", st.message);
    return r;
}

/* The only batch of text (ended by solve or not); asserts there is one. */
static pf_update_batch read_one(const char *text, int zero_based)
{
    const char *path;
    pf_update_reader *r = open_text(text, zero_based, &path);
    pf_update_batch b = {0};
    pf_status st;
    ck_assert_msg(pf_update_reader_next(r, &b, &st) == 1, "%s", st.message);
    pf_update_batch rest = {0};
    ck_assert_int_eq(pf_update_reader_next(r, &rest, &st), 0);
    pf_update_batch_free(&rest);
    pf_update_reader_close(r);
    return b;
}

static void assert_update(const pf_update *u, int kind, int64_t arc, int64_t tail,
                          int64_t head, int64_t count, int64_t capacity)
{
    ck_assert_int_eq(u->kind, kind);
    ck_assert_int_eq(u->arc, arc);
    ck_assert_int_eq(u->tail, tail);
    ck_assert_int_eq(u->head, head);
    ck_assert_int_eq(u->count, count);
    ck_assert_int_eq(u->capacity, capacity);
    ck_assert_int_eq(u->is_real, 0);
}

/* ---- the reader -------------------------------------------------------- */

static const char every_keyword[] =
    "c a stream with every keyword\n"
    "\n"
    "  cap 3 17  \n"
    "\tadd 2 5 9\t\n"
    "del 4\n"
    "c in between\n"
    "addv 3\n"
    "source 2\n"
    "sink 7\n"
    "   \n"
    "solve\n";

static void check_every_keyword(const pf_update_batch *b, int base)
{
    ck_assert_int_eq(b->count, 6);
    ck_assert_int_eq(b->solve_line, 11);
    assert_update(&b->items[0], PF_UPDATE_CAP, 2, 0, 0, 0, 17);
    assert_update(&b->items[1], PF_UPDATE_ADD, 0, 2 - base, 5 - base, 0, 9);
    assert_update(&b->items[2], PF_UPDATE_DEL, 3, 0, 0, 0, 0);
    assert_update(&b->items[3], PF_UPDATE_ADDV, 0, 0, 0, 3, 0);
    assert_update(&b->items[4], PF_UPDATE_SOURCE, 0, 2 - base, 0, 0, 0);
    assert_update(&b->items[5], PF_UPDATE_SINK, 0, 7 - base, 0, 0, 0);
    const int64_t lines[] = {3, 4, 5, 7, 8, 9};
    for (int k = 0; k < 6; k++)
        ck_assert_int_eq(b->lines[k], lines[k]);
}

START_TEST(every_keyword_one_and_zero_based)
{
    for (int zero_based = 0; zero_based <= 1; zero_based++) {
        pf_update_batch b = read_one(every_keyword, zero_based);
        check_every_keyword(&b, zero_based ? 0 : 1);
        pf_update_batch_free(&b);
    }
}
END_TEST

/* A batch ended by `bfs S` or `sssp S` asks for that search from S. */
START_TEST(searches_end_batches)
{
    for (int zero_based = 0; zero_based <= 1; zero_based++) {
        const char *path;
        pf_update_reader *r =
            open_text("cap 1 2\nbfs 3\nsssp 4\nsolve\ndel 1\n", zero_based, &path);
        pf_update_batch b = {0};
        pf_status st;
        const int ends[] = {PF_BATCH_BFS, PF_BATCH_SSSP, PF_BATCH_SOLVE, PF_BATCH_SOLVE};
        const int64_t counts[] = {1, 0, 0, 1}, sources[] = {3, 4}, lines[] = {2, 3, 4, 0};
        for (int k = 0; k < 4; k++) {
            ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
            ck_assert_int_eq(b.end, ends[k]);
            ck_assert_int_eq(b.count, counts[k]);
            ck_assert_int_eq(b.solve_line, lines[k]);
            if (k < 2)
                ck_assert_int_eq(b.search_source, sources[k] - (zero_based ? 0 : 1));
        }
        ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 0);
        pf_update_batch_free(&b);
        pf_update_reader_close(r);
        remove(path);
    }
}
END_TEST

START_TEST(crlf_and_byte_order_mark)
{
    char text[sizeof every_keyword * 2 + 4] = "\xef\xbb\xbf";
    size_t at = 3;
    for (const char *p = every_keyword; *p; p++) {
        if (*p == '\n')
            text[at++] = '\r';
        text[at++] = *p;
    }
    text[at] = '\0';
    pf_update_batch b = read_one(text, 0);
    check_every_keyword(&b, 1);
    pf_update_batch_free(&b);
}
END_TEST

START_TEST(real_capacities)
{
    pf_update_batch b = read_one("cap 1 1.5\nadd 1 2 2e3\ncap 2 0.25\ncap 3 -0.0\ncap 4 7\n", 0);
    ck_assert_int_eq(b.count, 5);
    ck_assert_int_eq(b.solve_line, 0);
    const double reals[] = {1.5, 2000, 0.25, 0};
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(b.items[k].is_real, 1);
        ck_assert(b.items[k].real_capacity == reals[k]);
    }
    ck_assert(!signbit(b.items[3].real_capacity));
    ck_assert_int_eq(b.items[4].is_real, 0);
    ck_assert_int_eq(b.items[4].capacity, 7);
    pf_update_batch_free(&b);
}
END_TEST

typedef struct bad_line {
    const char *text;
    int zero_based;
    int line;
    const char *message;
} bad_line;

static const bad_line bad_lines[] = {
    {"cap 1 2\nfoo 1\n", 0, 2,
     "unknown keyword 'foo' (expected c, cap, add, del, addv, source, sink, solve, bfs or "
     "sssp)"},
    {"CAP 1 2\n", 0, 1,
     "unknown keyword 'CAP' (expected c, cap, add, del, addv, source, sink, solve, bfs or "
     "sssp)"},
    {"c\n\ncap\n", 0, 3, "missing arc number (expected 'cap I C')"},
    {"cap 1\n", 0, 1, "missing capacity (expected 'cap I C')"},
    {"cap 1 2 3\n", 0, 1, "extra text '3' after the capacity"},
    {"cap x 2\n", 0, 1, "arc number 'x' is not a number"},
    {"cap 1.5 2\n", 0, 1, "arc number '1.5' is not an integer"},
    {"cap 0 2\n", 0, 1, "arc number 0 is below 1"},
    {"cap -4 2\n", 1, 1, "arc number -4 is below 1"},
    {"cap 99999999999999999999 2\n", 0, 1,
     "arc number 99999999999999999999 does not fit 64 bits"},
    {"cap 9223372036854775808 2\n", 0, 1, "arc number 9223372036854775808 does not fit 64 bits"},
    {"cap 1 -5\n", 0, 1, "capacity -5 is negative"},
    {"cap 1 -0.5\n", 0, 1, "capacity -0.5 is negative"},
    {"cap 1 -inf\n", 0, 1, "capacity -inf is negative"},
    {"cap 1 nan\n", 0, 1, "capacity nan is not a number"},
    {"cap 1 inf\n", 0, 1, "capacity inf is not finite"},
    {"cap 1 12ab\n", 0, 1, "capacity '12ab' is not a number"},
    {"cap 1 0x10\n", 0, 1, "capacity '0x10' is not a number"},
    {"cap 1 99999999999999999999\n", 0, 1, "capacity 99999999999999999999 does not fit 64 bits"},
    {"add 1\n", 0, 1, "missing head (expected 'add U V C')"},
    {"add 1 2\n", 0, 1, "missing capacity (expected 'add U V C')"},
    {"add 0 2 3\n", 0, 1, "tail 0 is below 1"},
    {"add 1 0 3\n", 0, 1, "head 0 is below 1"},
    {"add -1 2 3\n", 1, 1, "tail -1 is below 0"},
    {"add 1 2 3 4\n", 0, 1, "extra text '4' after the capacity"},
    {"del\n", 0, 1, "missing arc number (expected 'del I')"},
    {"del 1 2\n", 0, 1, "extra text '2' after the arc number"},
    {"addv 0\n", 0, 1, "vertex count 0 is below 1"},
    {"addv\n", 0, 1, "missing vertex count (expected 'addv K')"},
    {"addv 2.5\n", 0, 1, "vertex count '2.5' is not an integer"},
    {"source\n", 0, 1, "missing source (expected 'source S')"},
    {"sink 0\n", 0, 1, "sink 0 is below 1"},
    {"source 1 2\n", 0, 1, "extra text '2' after the vertex"},
    {"solve now\n", 0, 1, "extra text 'now' after the solve"},
    {"bfs\n", 0, 1, "missing source (expected 'bfs S')"},
    {"sssp 0\n", 0, 1, "source 0 is below 1"},
    {"bfs 2 3\n", 1, 1, "extra text '3' after the vertex"},
    {"solve\ncap 1 2\r\ndel y\r\n", 0, 3, "arc number 'y' is not a number"},
    {"cap 1 2\rsolve\r", 0, 1,
     "lines end in a carriage return alone (old Mac line ends); convert them to newlines, "
     "e.g. tr '\\r' '\\n'"},
};

START_TEST(every_error_names_file_and_line)
{
    const bad_line *bad = &bad_lines[_i];
    const char *path;
    pf_update_reader *r = open_text(bad->text, bad->zero_based, &path);
    pf_update_batch b = {0};
    pf_status st;
    int rc;
    while ((rc = pf_update_reader_next(r, &b, &st)) == 1)
        continue;
    char expected[600];
    snprintf(expected, sizeof expected, "%s:%d: %s", path, bad->line, bad->message);
    ck_assert_int_eq(rc, PF_E_INPUT);
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_str_eq(st.message, expected);
    ck_assert_int_eq(b.count, 0);
    /* The failure stays: the stream is not read on past it. */
    pf_status again;
    ck_assert_int_eq(pf_update_reader_next(r, &b, &again), PF_E_INPUT);
    ck_assert_str_eq(again.message, expected);
    pf_update_batch_free(&b);
    pf_update_reader_close(r);
}
END_TEST

START_TEST(nul_byte_and_missing_file)
{
    const char *path = pf_test_tmpname();
    FILE *f = fopen(path, "wb");
    fwrite("cap 1 2\nc x\0y\n", 1, 14, f);
    fclose(f);
    pf_update_reader *r = NULL;
    pf_status st;
    ck_assert_int_eq(pf_update_reader_open(path, 0, &r, &st), PF_OK);
    pf_update_batch b = {0};
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), PF_E_INPUT);
    pf_test_assert_input_error(&st, path, 2, "NUL byte");
    pf_update_batch_free(&b);
    pf_update_reader_close(r);

    ck_assert_int_eq(pf_update_reader_open("/nonexistent/updates", 0, &r, &st), PF_E_INPUT);
    ck_assert_ptr_null(r);
    ck_assert_str_eq(st.message, "/nonexistent/updates: cannot open: No such file or directory");
}
END_TEST

/* Two batches read one at a time from a pipe: the second is written only
 * after the first was read, so a reader that read past `solve` would
 * block here (and the test time out). */
START_TEST(batch_by_batch_on_a_pipe)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    FILE *in = fdopen(fds[0], "r");
    static const char first[] = "c first\ncap 1 5\nsolve\n";
    static const char second[] = "del 2\nsolve\nadd 1 2 3\n";
    ck_assert_int_eq(write(fds[1], first, strlen(first)), (ssize_t)strlen(first));
    pf_update_reader *r = NULL;
    pf_status st;
    ck_assert_int_eq(pf_update_reader_open_stream(in, "pipe", 0, &r, &st), PF_OK);
    pf_update_batch b = {0};
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
    ck_assert_int_eq(b.count, 1);
    ck_assert_int_eq(b.solve_line, 3);
    assert_update(&b.items[0], PF_UPDATE_CAP, 0, 0, 0, 0, 5);

    ck_assert_int_eq(write(fds[1], second, strlen(second)), (ssize_t)strlen(second));
    close(fds[1]);
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
    ck_assert_int_eq(b.count, 1);
    ck_assert_int_eq(b.solve_line, 5);
    assert_update(&b.items[0], PF_UPDATE_DEL, 1, 0, 0, 0, 0);
    char where[64];
    ck_assert_str_eq(pf_update_reader_where(r, &b, 0, where, sizeof where), "pipe:4");
    /* The last batch has no solve: returned all the same, solve_line 0. */
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
    ck_assert_int_eq(b.count, 1);
    ck_assert_int_eq(b.solve_line, 0);
    assert_update(&b.items[0], PF_UPDATE_ADD, 0, 0, 1, 0, 3);
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 0);
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 0);
    pf_update_batch_free(&b);
    pf_update_reader_close(r);
    fclose(in);
}
END_TEST

START_TEST(empty_input_and_empty_batches)
{
    static const char *const empty[] = {"", "\n\n", "c only a comment\n  \t\n"};
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
        const char *path;
        pf_update_reader *r = open_text(empty[i], 0, &path);
        pf_update_batch b = {0};
        pf_status st;
        ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 0);
        ck_assert_int_eq(b.count, 0);
        pf_update_reader_close(r);
        pf_update_batch_free(&b);
    }
    /* A solve alone is a batch with no change: the session solves again. */
    const char *path;
    pf_update_reader *r = open_text("solve\nc\nsolve", 0, &path);
    pf_update_batch b = {0};
    pf_status st;
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
    ck_assert_int_eq(b.count, 0);
    ck_assert_int_eq(b.solve_line, 1);
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
    ck_assert_int_eq(b.solve_line, 3);
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 0);
    pf_update_reader_close(r);
    pf_update_batch_free(&b);
}
END_TEST

START_TEST(large_batches_grow)
{
    size_t len = 0;
    char *text = NULL;
    FILE *mem = open_memstream(&text, &len);
    for (int i = 1; i <= 1000; i++)
        fprintf(mem, "cap %d %d\n", i, 2 * i);
    fputs("solve\n", mem);
    fclose(mem);
    pf_update_batch b = read_one(text, 0);
    ck_assert_int_eq(b.count, 1000);
    for (int i = 0; i < 1000; i++)
        PF_EXPECT(b.items[i].arc == i && b.items[i].capacity == 2 * (i + 1) &&
                      b.lines[i] == i + 1, "item %d", i);
    pf_update_batch_free(&b);
    free(text);
}
END_TEST

START_TEST(gzip_input)
{
#if PF_HAVE_ZLIB
    const char *path = pf_test_tmpname();
    gzFile gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    gzputs(gz, every_keyword);
    gzputs(gz, "del 9\n");
    gzclose(gz);
    pf_update_reader *r = NULL;
    pf_status st;
    ck_assert_int_eq(pf_update_reader_open(path, 0, &r, &st), PF_OK);
    pf_update_batch b = {0};
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
    check_every_keyword(&b, 1);
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 1);
    ck_assert_int_eq(b.count, 1);
    ck_assert_int_eq(b.lines[0], 12);
    ck_assert_int_eq(pf_update_reader_next(r, &b, &st), 0);
    pf_update_batch_free(&b);
    pf_update_reader_close(r);
    /* Truncated: a clean error at open. */
    FILE *f = fopen(path, "r+b");
    ck_assert_int_eq(ftruncate(fileno(f), 20), 0);
    fclose(f);
    ck_assert_int_eq(pf_update_reader_open(path, 0, &r, &st), PF_E_INPUT);
    ck_assert_ptr_nonnull(strstr(st.message, "gzip"));
#endif
    /* A text starting with the first magic byte only is read as text. */
    const char *path2;
    pf_update_reader *r2 = open_text("\x1f" "cap 1 2\n", 0, &path2);
    pf_update_batch b2 = {0};
    pf_status st2;
    ck_assert_int_eq(pf_update_reader_next(r2, &b2, &st2), PF_E_INPUT);
    pf_test_assert_input_error(&st2, path2, 1, "unknown keyword '\\x1fcap'");
    pf_update_batch_free(&b2);
    pf_update_reader_close(r2);
}
END_TEST

/* ---- the writer --------------------------------------------------------- */

static const unsigned every_kind = (1u << PF_UPDATE_CAP) | (1u << PF_UPDATE_ADD) |
                                   (1u << PF_UPDATE_DEL) | (1u << PF_UPDATE_ADDV);

/* The stream for net, as text (malloc'ed); asserts it was written. */
static char *gen_text(const pf_network *net, double fraction, int64_t batches, unsigned mix,
                      uint64_t seed, int base)
{
    pf_update_gen_params p = {.fraction = fraction, .batches = batches, .mix = mix,
                              .seed = seed, .base = base};
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    pf_status st;
    ck_assert_msg(pf_update_gen_write(net, &p, mem, &st) == PF_OK, "%s", st.message);
    fclose(mem);
    return text;
}

/* What a replay saw. */
typedef struct replay_counts {
    int64_t batches;
    int64_t kinds[PF_UPDATE_SINK + 1];
    int64_t into_source, out_of_sink, to_added_vertex;
    int64_t lowered, to_zero;
} replay_counts;

/* The graph as the stream leaves it: which arcs live, their capacities. */
typedef struct replay_model {
    const pf_network *net;
    int64_t vertices, arcs, live_count, alloc;
    char *live;
    int64_t *cap;
} replay_model;

/* A capacity of the stream in net's units (fixed point on a real network):
 * the kind must be the network's, and a real one on its grid. */
static int64_t model_capacity(const replay_model *m, const pf_update *u)
{
    ck_assert_int_eq(u->is_real, m->net->is_real);
    if (!u->is_real)
        return u->capacity;
    double fixed = ldexp(u->real_capacity, m->net->scale_log2);
    PF_EXPECT(fixed == floor(fixed), "capacity %.17g is off the network's grid",
              u->real_capacity);
    return (int64_t)fixed;
}

static void model_apply(replay_model *m, const pf_update *u, int64_t max_cap, replay_counts *c)
{
    c->kinds[u->kind]++;
    if (u->kind == PF_UPDATE_CAP || u->kind == PF_UPDATE_DEL)
        PF_EXPECT(u->arc >= 0 && u->arc < m->arcs && m->live[u->arc],
                  "arc %lld is not live", (long long)u->arc + 1);
    if (u->kind == PF_UPDATE_CAP) {
        int64_t c_new = model_capacity(m, u);
        PF_EXPECT(c_new <= 2 * max_cap, "capacity %lld above twice the input's largest",
                  (long long)c_new);
        c->lowered += c_new < m->cap[u->arc];
        c->to_zero += c_new == 0;
        m->cap[u->arc] = c_new;
    } else if (u->kind == PF_UPDATE_DEL) {
        m->live[u->arc] = 0;
        m->live_count--;
    } else if (u->kind == PF_UPDATE_ADDV) {
        PF_EXPECT(u->count >= 1 && u->count <= 4, "addv %lld", (long long)u->count);
        m->vertices += u->count;
    } else {
        ck_assert_int_eq(u->kind, PF_UPDATE_ADD);
        PF_EXPECT(u->tail >= 0 && u->tail < m->vertices && u->head >= 0 &&
                      u->head < m->vertices,
                  "arc %lld -> %lld outside the %lld vertices", (long long)u->tail,
                  (long long)u->head, (long long)m->vertices);
        c->into_source += pf_network_role(m->net, u->head) == 1;
        c->out_of_sink += pf_network_role(m->net, u->tail) == 2;
        c->to_added_vertex += u->tail >= m->net->n || u->head >= m->net->n;
        if (m->arcs == m->alloc) {
            m->alloc *= 2;
            m->live = realloc(m->live, (size_t)m->alloc);
            m->cap = realloc(m->cap, (size_t)m->alloc * sizeof *m->cap);
        }
        m->cap[m->arcs] = model_capacity(m, u);
        m->live[m->arcs++] = 1;
        m->live_count++;
    }
}

/* Reads the stream back batch by batch and applies it to a model of the
 * graph: every line must parse, every arc named be live, every vertex
 * exist, every kind be in the mix; each batch must hold max(1, round(F *
 * live arcs)) changes (where the mix can always give one) and end with
 * `solve`. */
static replay_counts replay(const pf_network *net, const char *text, double fraction,
                            unsigned mix, int base)
{
    replay_model m = {.net = net, .vertices = net->n, .arcs = net->m, .live_count = net->m,
                      .alloc = net->m + 16};
    m.live = malloc((size_t)m.alloc);
    m.cap = malloc((size_t)m.alloc * sizeof *m.cap);
    int64_t max_cap = 1;
    for (int64_t i = 0; i < net->m; i++) {
        m.live[i] = 1;
        m.cap[i] = net->cap[i];
        max_cap = net->cap[i] > max_cap ? net->cap[i] : max_cap;
    }
    replay_counts c = {0};
    const char *path;
    pf_update_reader *r = open_text(text, base == 0, &path);
    pf_update_batch b = {0};
    pf_status st;
    int rc;
    while ((rc = pf_update_reader_next(r, &b, &st)) == 1) {
        c.batches++;
        PF_EXPECT(b.solve_line > 0, "batch %lld has no solve", (long long)c.batches);
        int64_t expected = llround(fraction * (double)m.live_count);
        expected = expected < 1 ? 1 : expected;
        if (mix & ((1u << PF_UPDATE_ADD) | (1u << PF_UPDATE_ADDV)))
            PF_EXPECT(b.count == expected, "batch %lld: %lld changes, expected %lld",
                      (long long)c.batches, (long long)b.count, (long long)expected);
        for (int64_t k = 0; k < b.count; k++) {
            PF_EXPECT(mix & (1u << b.items[k].kind), "kind %d not in the mix",
                      b.items[k].kind);
            model_apply(&m, &b.items[k], max_cap, &c);
        }
    }
    ck_assert_msg(rc == 0, "%s", st.message);
    pf_update_batch_free(&b);
    pf_update_reader_close(r);
    free(m.live);
    free(m.cap);
    return c;
}

START_TEST(gen_same_seed_same_bytes)
{
    pf_status st;
    pf_network *net = pf_gen_random(30, 120, 100, 3, &st);
    char *a = gen_text(net, 0.05, 20, every_kind, 7, 1);
    char *b = gen_text(net, 0.05, 20, every_kind, 7, 1);
    char *c = gen_text(net, 0.05, 20, every_kind, 8, 1);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c);
    /* The header says how it was made. */
    ck_assert_ptr_nonnull(strstr(a, "c update stream: 20 batches, each changing 0.05 of the "
                                    "live arcs, mix cap,add,del,addv, seed 7\n"));
    ck_assert(!strncmp(a, "c ", 2));
    free(a);
    free(b);
    free(c);
    pf_network_free(net);
}
END_TEST

START_TEST(gen_every_arc_live_when_named)
{
    pf_status st;
    pf_network *net = pf_gen_random(40, 200, 1000, 5, &st);
    const double fractions[] = {0.01, 0.1, 0.5, 1};
    for (int base = 0; base <= 1; base++)
        for (size_t f = 0; f < sizeof fractions / sizeof *fractions; f++) {
            char *text = gen_text(net, fractions[f], 30, every_kind, 11 + f, base);
            replay_counts c = replay(net, text, fractions[f], every_kind, base);
            ck_assert_int_eq(c.batches, 30);
            for (int kind = PF_UPDATE_CAP; kind <= PF_UPDATE_ADDV; kind++)
                ck_assert_int_gt(c.kinds[kind], 0);
            free(text);
        }
    /* A long stream: the rare arcs into the source and out of the sink,
     * arcs to added vertices, capacities lowered and set to 0. */
    char *text = gen_text(net, 1, 40, every_kind, 99, 1);
    replay_counts c = replay(net, text, 1, every_kind, 1);
    ck_assert_int_gt(c.into_source, 0);
    ck_assert_int_gt(c.out_of_sink, 0);
    ck_assert_int_gt(c.to_added_vertex, 0);
    ck_assert_int_gt(c.lowered, 0);
    ck_assert_int_gt(c.to_zero, 0);
    free(text);
    pf_network_free(net);
}
END_TEST

START_TEST(gen_mix_and_running_out_of_arcs)
{
    pf_status st;
    pf_network *net = pf_gen_random(10, 20, 50, 1, &st);
    unsigned del_only = 1u << PF_UPDATE_DEL;
    /* All 20 go in the first batch; the others have nothing to delete
     * and are empty. */
    char *text = gen_text(net, 1, 3, del_only, 1, 1);
    replay_counts c = replay(net, text, 1, del_only, 1);
    ck_assert_int_eq(c.batches, 3);
    ck_assert_int_eq(c.kinds[PF_UPDATE_DEL], 20);
    free(text);
    unsigned cap_only = 1u << PF_UPDATE_CAP;
    text = gen_text(net, 0.25, 4, cap_only, 1, 1);
    c = replay(net, text, 0.25, cap_only, 1);
    ck_assert_int_eq(c.kinds[PF_UPDATE_CAP], 4 * 5);
    free(text);
    unsigned add_addv = (1u << PF_UPDATE_ADD) | (1u << PF_UPDATE_ADDV);
    text = gen_text(net, 0.5, 5, add_addv, 2, 1);
    c = replay(net, text, 0.5, add_addv, 1);
    ck_assert_int_eq(c.kinds[PF_UPDATE_CAP] + c.kinds[PF_UPDATE_DEL], 0);
    free(text);
    pf_network_free(net);
}
END_TEST

START_TEST(gen_real_capacities)
{
    pf_status st;
    pf_network *net = pf_network_new(6, 0, 5, &st);
    const double caps[] = {1.5, 0.25, 3.75, 2.125, 10.5, 0.1};
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(pf_network_add_arc_real(net, i % 5, i % 5 + 1, caps[i], &st), PF_OK);
    ck_assert_int_eq(pf_network_finish(net, PF_SCALE_BOUND_LOG2, &st), PF_OK);
    char *text = gen_text(net, 0.5, 50, every_kind, 4, 1);
    replay_counts c = replay(net, text, 0.5, every_kind, 1); /* every capacity real, on the grid */
    ck_assert_int_eq(c.batches, 50);
    ck_assert_ptr_nonnull(strstr(text, "(real capacities)"));
    free(text);
    pf_network_free(net);
}
END_TEST

START_TEST(gen_refuses_bad_parameters)
{
    pf_status st;
    pf_network *net = pf_gen_random(10, 20, 50, 1, &st);
    const pf_update_gen_params bad[] = {
        {.fraction = 0, .batches = 1, .mix = every_kind, .base = 1},
        {.fraction = 1.5, .batches = 1, .mix = every_kind, .base = 1},
        {.fraction = NAN, .batches = 1, .mix = every_kind, .base = 1},
        {.fraction = 0.5, .batches = 0, .mix = every_kind, .base = 1},
        {.fraction = 0.5, .batches = 1, .mix = 0, .base = 1},
        {.fraction = 0.5, .batches = 1, .mix = 1u << PF_UPDATE_SINK, .base = 1},
        {.fraction = 0.5, .batches = 1, .mix = every_kind, .base = 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        ck_assert_int_eq(pf_update_gen_write(net, &bad[i], mem, &st), PF_E_USAGE);
        fclose(mem);
        ck_assert_msg(len == 0, "row %zu wrote %zu bytes", i, len);
        free(text);
    }
    pf_network_free(net);
}
END_TEST

static void add_gen_tests(TCase *tc)
{
    tcase_add_test(tc, gen_same_seed_same_bytes);
    tcase_add_test(tc, gen_every_arc_live_when_named);
    tcase_add_test(tc, gen_mix_and_running_out_of_arcs);
    tcase_add_test(tc, gen_real_capacities);
    tcase_add_test(tc, gen_refuses_bad_parameters);
}

int main(void)
{
    Suite *s = suite_create("updates");
    TCase *reader = tcase_create("reader");
    tcase_add_test(reader, every_keyword_one_and_zero_based);
    tcase_add_test(reader, searches_end_batches);
    tcase_add_test(reader, crlf_and_byte_order_mark);
    tcase_add_test(reader, real_capacities);
    tcase_add_loop_test(reader, every_error_names_file_and_line, 0,
                        (int)(sizeof bad_lines / sizeof *bad_lines));
    tcase_add_test(reader, nul_byte_and_missing_file);
    tcase_add_test(reader, batch_by_batch_on_a_pipe);
    tcase_add_test(reader, empty_input_and_empty_batches);
    tcase_add_test(reader, large_batches_grow);
    tcase_add_test(reader, gzip_input);
    suite_add_tcase(s, reader);
    TCase *gen = tcase_create("gen");
    tcase_set_timeout(gen, 60);
    add_gen_tests(gen);
    suite_add_tcase(s, gen);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
