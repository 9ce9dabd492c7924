/* Check suite "parser": the DIMACS and matrix readers, the DIMACS writer and
 * the solution-file reader. Bad inputs are table-driven: each row is a file,
 * the line its error must name, and words the message must contain. */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/io.h"
#include "support.h"

/* ---- helpers -------------------------------------------------------- */

static void assert_same_network(const pf_network *a, const pf_network *b)
{
    ck_assert_int_eq(a->n, b->n);
    ck_assert_int_eq(a->m, b->m);
    ck_assert_int_eq(a->source, b->source);
    ck_assert_int_eq(a->sink, b->sink);
    /* One assertion, not one per arc: Check's bookkeeping per assertion
     * would dominate a valgrind run. */
    int64_t i = 0;
    while (i < a->m && a->tail[i] == b->tail[i] && a->head[i] == b->head[i] &&
           a->cap[i] == b->cap[i])
        i++;
    ck_assert_msg(i == a->m, "arc %lld differs", (long long)i);
}

/* Points fd (0 or 1) at `path` and returns a copy of the old fd for
 * restore_fd: Check forks every test, but CK_FORK=no (valgrind runs) does
 * not, and later tests still need the real stdin/stdout. */
static int redirect_fd(int fd, const char *path, int flags)
{
    if (fd == 1)
        fflush(stdout);
    int saved = dup(fd);
    int file = open(path, flags, 0600);
    ck_assert_int_ge(file, 0);
    ck_assert_int_eq(dup2(file, fd), fd);
    close(file);
    return saved;
}

static void restore_fd(int fd, int saved)
{
    if (fd == 1)
        fflush(stdout);
    dup2(saved, fd);
    close(saved);
    if (fd == 0)
        clearerr(stdin);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random network with every legal oddity: parallel arcs, self-loops,
 * zero and maximal capacities, arcs into s and out of t. */
static pf_network *random_network(int64_t n, int64_t m)
{
    pf_status st;
    pf_network *net = pf_network_new(n, n / 3, n - 1, &st);
    ck_assert_ptr_nonnull(net);
    int rc = PF_OK;
    for (int64_t i = 0; i < m && rc == PF_OK; i++) {
        int64_t cap;
        switch (rng_next() % 5) {
        case 0: cap = 0; break;
        case 1: cap = PF_CAP_MAX; break;
        case 2: cap = (int64_t)(rng_next() % 10); break;
        default: cap = (int64_t)(rng_next() % (uint64_t)PF_CAP_MAX); break;
        }
        int64_t tail = (int64_t)(rng_next() % (uint64_t)n);
        int64_t head = i % 97 == 0 ? tail : (int64_t)(rng_next() % (uint64_t)n);
        rc = pf_network_add_arc(net, tail, head, cap, &st);
    }
    ck_assert_int_eq(rc, PF_OK);
    return net;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

/* ---- DIMACS: good input --------------------------------------------- */

START_TEST(dimacs_basic)
{
    const char *path = pf_test_tmpfile("c a small network\n"
                                       "p max 4 5\nn 1 s\nn 4 t\n"
                                       "a 1 2 3\na 1 3 2\na 2 4 5\na 3 4 7\na 2 3 0\n");
    pf_status st;
    pf_network *net = pf_network_read_dimacs(path, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(st.code, PF_OK);
    ck_assert_int_eq(pf_network_vertices(net), 4);
    ck_assert_int_eq(pf_network_arcs(net), 5);
    ck_assert_int_eq(pf_network_source(net), 0);
    ck_assert_int_eq(pf_network_sink(net), 3);
    pf_test_assert_arc(net, 0, 0, 1, 3);
    pf_test_assert_arc(net, 2, 1, 3, 5);
    pf_test_assert_arc(net, 4, 1, 2, 0);
    pf_network_free(net);
}
END_TEST

START_TEST(dimacs_odd_but_valid)
{
    const char *path = pf_test_tmpfile(
        "c leading comment\n"
        "\n"
        "p max 6 9\n"
        "c vertex 4 and 6 are isolated\n"
        "a 1 2 5\n"
        " \t a\t1  \t2\t5 \n"           /* parallel arc, tabs, leading blanks */
        "a 3 3 4\n"                      /* self-loop */
        "a 2 3 0\n"                      /* zero capacity */
        "n 1 s\n"                        /* n line after a lines */
        "a 2 1 7\n"                      /* into the source */
        "a 5 2 4611686018427387904\n"    /* out of the sink, capacity 2^62 */
        "   \n"
        "n 5 t\r\n"
        "a 2 5 00012\n"                  /* leading zeros */
        "a 3 5 1\r\n"                    /* one CRLF line among LF ones */
        "c trailing comment\n"
        "a 1 3 9");                      /* no final newline */
    pf_status st;
    pf_network *net = pf_network_read_dimacs(path, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->n, 6);
    ck_assert_int_eq(net->m, 9);
    ck_assert_int_eq(net->source, 0);
    ck_assert_int_eq(net->sink, 4);
    pf_test_assert_arc(net, 0, 0, 1, 5);
    pf_test_assert_arc(net, 1, 0, 1, 5);
    pf_test_assert_arc(net, 2, 2, 2, 4);
    pf_test_assert_arc(net, 3, 1, 2, 0);
    pf_test_assert_arc(net, 4, 1, 0, 7);
    pf_test_assert_arc(net, 5, 4, 1, PF_CAP_MAX);
    pf_test_assert_arc(net, 6, 1, 4, 12);
    pf_test_assert_arc(net, 7, 2, 4, 1);
    pf_test_assert_arc(net, 8, 0, 2, 9);
    pf_network_free(net);
}
END_TEST

START_TEST(dimacs_crlf_and_no_arcs)
{
    pf_status st;
    pf_network *net = pf_network_read_dimacs(
        pf_test_tmpfile("c crlf\r\np max 3 1\r\nn 3 s\r\nn 1 t\r\na 3 1 4\r\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->source, 2);
    ck_assert_int_eq(net->sink, 0);
    pf_test_assert_arc(net, 0, 2, 0, 4);
    pf_network_free(net);

    net = pf_network_read_dimacs(pf_test_tmpfile("p max 2 0\nn 1 s\nn 2 t\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->m, 0);
    pf_network_free(net);
}
END_TEST

/* Files are mapped unless their size is a multiple of the page size (no
 * zero byte after the end then): both paths must read the same, with or
 * without a final newline. */
START_TEST(dimacs_page_sized_files)
{
    long page = sysconf(_SC_PAGESIZE);
    static const char head[] = "p max 3 1\nn 1 s\nn 3 t\nc ";
    static const char tail[] = "\na 1 3 7";
    size_t size = (size_t)page + (size_t)(_i % 3) - 1; /* page - 1, page, page + 1 */
    int final_newline = _i >= 3;
    char *text = malloc(size + 1);
    memset(text, 'x', size);
    memcpy(text, head, sizeof head - 1);
    size_t tail_at = size - (sizeof tail - 1) - (size_t)final_newline;
    memcpy(text + tail_at, tail, sizeof tail - 1);
    if (final_newline)
        text[size - 1] = '\n';
    text[size] = '\0';
    const char *path = pf_test_tmpfile(text);
    free(text);
    pf_status st;
    pf_network *net = pf_network_read_dimacs(path, &st);
    ck_assert_msg(net != NULL, "size %zu: %s", size, st.message);
    ck_assert_int_eq(net->m, 1);
    pf_test_assert_arc(net, 0, 0, 2, 7);
    pf_network_free(net);
}
END_TEST

START_TEST(dimacs_stdin)
{
    const char *path = pf_test_tmpfile("p max 3 2\nn 1 s\nn 3 t\na 1 2 4\na 2 3 5\n");
    int saved = redirect_fd(0, path, O_RDONLY);
    pf_status st;
    pf_network *net = pf_network_read_dimacs(_i == 0 ? NULL : "-", &st);
    restore_fd(0, saved);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->m, 2);
    pf_test_assert_arc(net, 1, 1, 2, 5);
    pf_network_free(net);
}
END_TEST

START_TEST(dimacs_stdin_error_names_stdin)
{
    int saved = redirect_fd(0, pf_test_tmpfile("p max 3 1\nn 1 s\nn 3 t\na 1 2 -4\n"), O_RDONLY);
    pf_status st;
    pf_network *net = pf_network_read_dimacs(NULL, &st);
    restore_fd(0, saved);
    ck_assert_ptr_null(net);
    pf_test_assert_input_error(&st, "<stdin>", 4, "capacity -4 is negative");
}
END_TEST

typedef struct pipe_feed {
    int fd;
    const char *text;
    size_t len;
} pipe_feed;

/* Writer thread: feeds the text into the pipe, then closes it (EOF). */
static void *feed_pipe(void *arg)
{
    pipe_feed *feed = arg;
    size_t done = 0;
    while (done < feed->len) {
        ssize_t w = write(feed->fd, feed->text + done, feed->len - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(feed->fd);
    return NULL;
}

/* Standard input from a pipe has no size: the loader must grow its buffer
 * (the text here outgrows its first 4 MiB block twice). */
START_TEST(dimacs_stdin_pipe_large)
{
    pf_network *net = random_network(5000, 400000);
    char *text;
    size_t len;
    FILE *mem = open_memstream(&text, &len);
    pf_status st;
    ck_assert_int_eq(pf_network_write_dimacs_stream(net, mem, "piped", &st), PF_OK);
    fclose(mem);
    ck_assert_uint_gt(len, (size_t)8 << 20);

    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pipe_feed feed = {.fd = fds[1], .text = text, .len = len};
    pthread_t writer;
    ck_assert_int_eq(pthread_create(&writer, NULL, feed_pipe, &feed), 0);
    int saved = dup(0);
    dup2(fds[0], 0);
    close(fds[0]);
    pf_network *back = pf_network_read_dimacs("-", &st);
    restore_fd(0, saved);
    pthread_join(writer, NULL);
    ck_assert_msg(back != NULL, "%s", st.message);
    assert_same_network(net, back);
    pf_network_free(back);
    pf_network_free(net);
    free(text);
}
END_TEST

/* ---- DIMACS: bad input ---------------------------------------------- */

typedef struct bad_case {
    const char *text;
    int line;           /* the line the message must name */
    const char *needle; /* words the message must contain */
} bad_case;

#define HEADER "p max 3 1\nn 1 s\nn 3 t\n" /* arcs go on line 4 */

static const bad_case dimacs_bad[] = {
    {"", 1, "empty"},
    {"c only\nc comments\n", 3, "no 'p max N M' line"},
    {"\n  \n", 3, "no 'p max N M' line"},
    {"a 1 2 3\np max 2 1\n", 1, "arc line before the p line"},
    {"c x\nn 1 s\np max 2 0\n", 2, "n line before the p line"},
    {"p max 2 0\nc\np max 2 0\n", 3, "second p line (the first is on line 1)"},
    {"p min 2 0\n", 1, "problem type 'min' is not 'max'"},
    {"p\n", 1, "missing problem type"},
    {"p max\n", 1, "missing vertex count"},
    {"p max 2\n", 1, "missing arc count"},
    {"p max 1 0\n", 1, "vertex count 1 is outside 2..2147483646"},
    {"p max 2147483647 0\n", 1, "vertex count 2147483647 is outside"},
    {"p max two 0\n", 1, "vertex count 'two' is not a number"},
    {"p max 2 1e3\n", 1, "arc count '1e3' is not a number"},
    {"p max 2 -1\n", 1, "arc count -1 is negative"},
    {"p max 2 99999999999999999999\n", 1, "arc count 99999999999999999999 is too large"},
    {"p max 2 0 9\n", 1, "extra text '9' after the arc count"},
    {"p max 3 0\nn 3 t\n", 3, "no source line"},
    {"p max 3 0\nn 1 s\n", 3, "no sink line"},
    {"p max 3 0\nn 1 s\n  ", 4, "no sink line"},
    {"\n\n  \np max 3 0\n\nn 1 s\n", 7, "no sink line"},
    {"p max 3 0\nn 1 x\n", 2, "node role 'x' is neither s"},
    {"p max 3 0\nn 1 src\n", 2, "node role 'src'"},
    {"p max 3 0\nn 1\n", 2, "missing node role"},
    {"p max 3 0\nn\n", 2, "missing node id"},
    {"p max 3 0\nn 0 s\n", 2, "node id 0 is outside 1..3"},
    {"p max 3 0\nn 4 t\n", 2, "node id 4 is outside 1..3"},
    {"p max 3 0\nn one s\n", 2, "node id 'one' is not a number"},
    {"p max 3 0\nn 2 s\nn 2 t\n", 3, "vertex 2 is already the source (line 2)"},
    {"p max 3 0\nn 1 s t\n", 2, "extra text 't' after the node role"},
    {HEADER "a 0 2 1\n", 4, "tail 0 is outside 1..3"},
    {HEADER "a 1 4 1\n", 4, "head 4 is outside 1..3"},
    {HEADER "a -1 2 1\n", 4, "tail -1 is outside 1..3"},
    {HEADER "a 1 99999999999999999999 1\n", 4, "head 99999999999999999999 is outside"},
    {HEADER "a x 2 3\n", 4, "tail 'x' is not a number"},
    {HEADER "a 1 2y 3\n", 4, "head '2y' is not a number"},
    {HEADER "a 1 2 -3\n", 4, "capacity -3 is negative"},
    {HEADER "a 1 2 abc\n", 4, "capacity 'abc' is not a number"},
    {HEADER "a 1 2 1.5x\n", 4, "capacity '1.5x' is not a number"},
    {HEADER "a 1 2 4611686018427387905\n", 4, "capacity 4611686018427387905 exceeds the maximum 2^62"},
    {HEADER "a 1 2 9223372036854775808\n", 4, "exceeds the maximum 2^62"},
    {HEADER "a 1 2 18446744073709551617\n", 4, "exceeds the maximum 2^62"},
    {HEADER "a 1 2 99999999999999999999\n", 4, "exceeds the maximum 2^62"},
    {HEADER "a 1 2\n", 4, "missing capacity (expected 'a TAIL HEAD CAP')"},
    {HEADER "a 1 2", 4, "missing capacity"},
    {HEADER "a 1\n", 4, "missing head"},
    {HEADER "a\n", 4, "missing tail"},
    {HEADER "a 1 2 3 4\n", 4, "extra text '4' after the capacity"},
    {"p max 3 2\nn 1 s\nn 3 t\na 1 2 1\n", 5, "fewer arc lines than the p line (line 1) declares: expected 2, found 1"},
    {"p max 3 2\nn 1 s\nn 3 t\n", 4, "expected 2, found 0"},
    {HEADER "a 1 2 1\na 2 3 1\nc\na 1 3 1\n", 5, "more arc lines than the p line (line 1) declares: expected 1, found 3"},
    {"x 1 2\n", 1, "unknown line type 'x'"},
    {HEADER "ab 1 2 3\n", 4, "unknown line type 'ab'"},
    {HEADER "A 1 2 3\n", 4, "unknown line type 'A'"},
    {"p max 3 0\r\nn 1 s\r\nn 5 t\r\n", 3, "node id 5 is outside 1..3"},
};

START_TEST(dimacs_bad_input)
{
    const bad_case *bc = &dimacs_bad[_i];
    const char *path = pf_test_tmpfile(bc->text);
    pf_status st;
    pf_network *net = pf_network_read_dimacs(path, &st);
    ck_assert_msg(net == NULL, "case %d was accepted", _i);
    pf_test_assert_input_error(&st, path, bc->line, bc->needle);
}
END_TEST

START_TEST(dimacs_nul_byte)
{
    static const char text[] = "p max 2 0\nn 1 s\nn 2\0 t\n";
    const char *path = pf_test_tmpname();
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, sizeof text - 1, f);
    fclose(f);
    pf_status st;
    ck_assert_ptr_null(pf_network_read_dimacs(path, &st));
    pf_test_assert_input_error(&st, path, 3, "NUL byte");
}
END_TEST

START_TEST(missing_file)
{
    pf_status st;
    ck_assert_ptr_null(pf_network_read_dimacs("/nonexistent/graph.max", &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_str_eq(st.message, "/nonexistent/graph.max: cannot open: No such file or directory");
    ck_assert_ptr_null(pf_network_read_matrix("/nonexistent/m.txt", &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_ptr_null(pf_network_read("/nonexistent/any", &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_ptr_null(pf_network_read_dimacs("/", &st)); /* opens, cannot be read */
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_str_eq(st.message, "/: read error: Is a directory");
}
END_TEST

/* ---- writer and round trips ----------------------------------------- */

START_TEST(round_trip_random)
{
    /* ~6 MB of text: several flushes of the writer's 1 MiB buffer. */
    pf_network *net = random_network(_i == 0 ? 2 : 100000, _i == 0 ? 5 : 250000);
    const char *path = pf_test_tmpname();
    pf_status st;
    ck_assert_int_eq(pf_network_write_dimacs(net, path, &st), PF_OK);
    pf_network *back = pf_network_read_dimacs(path, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    assert_same_network(net, back);
    pf_network_free(back);
    back = pf_network_read(path, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    assert_same_network(net, back);
    pf_network_free(back);
    pf_network_free(net);
    unlink(path);
}
END_TEST

START_TEST(writer_exact_text)
{
    pf_status st;
    pf_network *net = pf_network_new(4, 3, 0, &st);
    pf_network_add_arc(net, 3, 1, 10, &st);
    pf_network_add_arc(net, 1, 1, 0, &st);
    pf_network_add_arc(net, 2, 0, PF_CAP_MAX, &st);
    const char *path = pf_test_tmpname();
    FILE *out = fopen(path, "wb");
    ck_assert_int_eq(pf_network_write_dimacs_stream(net, out, "first\nsecond\n\nlast", &st), PF_OK);
    fclose(out);
    char *text = slurp(path);
    ck_assert_str_eq(text, "c first\nc second\nc\nc last\n"
                           "p max 4 3\nn 4 s\nn 1 t\n"
                           "a 4 2 10\na 2 2 0\na 3 1 4611686018427387904\n");
    free(text);

    /* No comment at all, and a comment with a trailing newline. */
    out = fopen(path, "wb");
    ck_assert_int_eq(pf_network_write_dimacs_stream(net, out, NULL, &st), PF_OK);
    ck_assert_int_eq(pf_network_write_dimacs_stream(net, out, "x\n", &st), PF_OK);
    fclose(out);
    text = slurp(path);
    ck_assert_ptr_nonnull(strstr(text, "a 3 1 4611686018427387904\nc x\np max 4 3\n"));
    ck_assert_int_eq(strncmp(text, "p max 4 3\n", 10), 0);
    free(text);
    pf_network_free(net);
}
END_TEST

/* Every decimal length, on both sides of each power of ten, for capacities
 * and for the largest vertex ids. */
START_TEST(writer_digit_boundaries)
{
    pf_status st;
    pf_network *net = pf_network_new(2147483646, 2147483645, 0, &st);
    ck_assert_ptr_nonnull(net);
    for (int64_t power = 1;; power *= 10) { /* 10^0 .. 10^18 */
        pf_network_add_arc(net, power - 1 < net->n ? power - 1 : 0, net->n - 1, power - 1, &st);
        pf_network_add_arc(net, power < net->n ? power : 1, 2147483644, power, &st);
        if (power == 1000000000000000000)
            break;
    }
    pf_network_add_arc(net, 0, 1, PF_CAP_MAX - 1, &st);
    pf_network_add_arc(net, 0, 1, PF_CAP_MAX, &st);
    const char *path = pf_test_tmpname();
    ck_assert_int_eq(pf_network_write_dimacs(net, path, &st), PF_OK);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(strstr(text, "p max 2147483646 40\nn 2147483646 s\nn 1 t\n"
                                       "a 1 2147483646 0\na 2 2147483645 1\n"
                                       "a 10 2147483646 9\na 11 2147483645 10\n"
                                       "a 100 2147483646 99\na 101 2147483645 100\n"));
    ck_assert_ptr_nonnull(strstr(text, "a 1 2147483646 999999999999999999\n"
                                       "a 2 2147483645 1000000000000000000\n"
                                       "a 1 2 4611686018427387903\n"
                                       "a 1 2 4611686018427387904\n"));
    free(text);
    pf_network *back = pf_network_read_dimacs(path, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    assert_same_network(net, back);
    pf_network_free(back);
    pf_network_free(net);
}
END_TEST

START_TEST(writer_stdout)
{
    pf_network *net = random_network(50, 400);
    const char *path = pf_test_tmpname();
    int saved = redirect_fd(1, path, O_WRONLY | O_TRUNC);
    pf_status st;
    int rc = pf_network_write_dimacs(net, _i == 0 ? NULL : "-", &st);
    restore_fd(1, saved);
    ck_assert_msg(rc == PF_OK, "%s", st.message);
    pf_network *back = pf_network_read_dimacs(path, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    assert_same_network(net, back);
    pf_network_free(back);
    pf_network_free(net);
    unlink(path);
}
END_TEST

START_TEST(writer_errors)
{
    pf_network *net = random_network(50, 200000); /* > one buffer: fails mid-way */
    pf_status st;
    ck_assert_int_eq(pf_network_write_dimacs(net, "/dev/full", &st), PF_E_INPUT);
    ck_assert_str_eq(st.message, "/dev/full: write failed: No space left on device");
    ck_assert_int_eq(pf_network_write_dimacs(net, "/nonexistent/dir/out.max", &st), PF_E_INPUT);
    ck_assert_int_eq(strncmp(st.message, "/nonexistent/dir/out.max: cannot create", 39), 0);
    pf_network_free(net);

    /* Small output sits in the buffer until the final flush: still caught. */
    net = random_network(3, 2);
    FILE *full = fopen("/dev/full", "wb");
    ck_assert_int_eq(pf_network_write_dimacs_stream(net, full, "c", &st), PF_E_INPUT);
    ck_assert_ptr_nonnull(strstr(st.message, "No space left on device"));
    fclose(full);
    pf_network_free(net);
}
END_TEST

/* ---- matrix format and auto-detection ------------------------------- */

START_TEST(matrix_good)
{
    static const char *texts[] = {
        "3\n0 5 2\n0 1 7\n0 0 0\n",
        "c wrapped rows, comments, tabs, CRLF\r\n3 0\t5\n2 0\n1 7 0 0\r\n\nc end\n0",
    };
    pf_status st;
    pf_network *net = pf_network_read_matrix(pf_test_tmpfile(texts[_i]), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->n, 3);
    ck_assert_int_eq(net->source, 0);
    ck_assert_int_eq(net->sink, 2);
    ck_assert_int_eq(net->m, 4);
    pf_test_assert_arc(net, 0, 0, 1, 5);
    pf_test_assert_arc(net, 1, 0, 2, 2);
    pf_test_assert_arc(net, 2, 1, 1, 1); /* the diagonal entry stays as a self-loop */
    pf_test_assert_arc(net, 3, 1, 2, 7);
    pf_network_free(net);
}
END_TEST

static const bad_case matrix_bad[] = {
    {"", 1, "no vertex count"},
    {"c nothing\n", 2, "no vertex count"},
    {"1\n0\n", 1, "vertex count 1 is outside 2..2147483646"},
    {"-2\n", 1, "vertex count -2 is outside"},
    {"two\n", 1, "vertex count 'two' is not a number"},
    {"2\n0 x\n0 0\n", 2, "capacity 'x' (row 1, column 2) is not a number"},
    {"2\n0 1\n-4 0\n", 3, "capacity '-4' (row 2, column 1) is negative"},
    {"2\n0 4611686018427387905\n0 0\n", 2, "(row 1, column 2) exceeds the maximum 2^62"},
    {"2\n0 1\n0\n", 4, "expected N*N = 4 capacities (N = 2), found 3"},
    {"2\n0 1\n0 0\n0\n", 4, "more than N*N = 4 capacities (N = 2): '0' is one too many"},
    {"2\n0 1\n0 0 5\n", 3, "'5' is one too many"},
};

START_TEST(matrix_bad_input)
{
    const bad_case *bc = &matrix_bad[_i];
    const char *path = pf_test_tmpfile(bc->text);
    pf_status st;
    ck_assert_msg(pf_network_read_matrix(path, &st) == NULL, "case %d was accepted", _i);
    pf_test_assert_input_error(&st, path, bc->line, bc->needle);
}
END_TEST

START_TEST(auto_detect)
{
    pf_status st;
    /* Matrix, behind comments and blank lines. */
    pf_network *net = pf_network_read(pf_test_tmpfile("c m\n\n 2\n0 3\n0 0\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->m, 1);
    pf_test_assert_arc(net, 0, 0, 1, 3);
    pf_network_free(net);
    /* DIMACS, from standard input. */
    int saved = redirect_fd(0, pf_test_tmpfile("c d\np max 2 1\nn 2 s\nn 1 t\na 2 1 6\n"), O_RDONLY);
    net = pf_network_read(NULL, &st);
    restore_fd(0, saved);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->source, 1);
    pf_test_assert_arc(net, 0, 1, 0, 6);
    pf_network_free(net);
    /* Errors come from the reader that was picked. */
    const char *path = pf_test_tmpfile("3\n0 0 0\n");
    ck_assert_ptr_null(pf_network_read(path, &st));
    pf_test_assert_input_error(&st, path, 3, "expected N*N = 9");
    path = pf_test_tmpfile("");
    ck_assert_ptr_null(pf_network_read(path, &st));
    pf_test_assert_input_error(&st, path, 1, "empty");
}
END_TEST

/* ---- solution files ------------------------------------------------- */

/* 1 -> 2 (3), 2 -> 3 (3), 1 -> 3 (2); s = 1, t = 3. */
static pf_network *solution_network(void)
{
    pf_status st;
    pf_network *net = pf_network_read_dimacs(
        pf_test_tmpfile("p max 3 3\nn 1 s\nn 3 t\na 1 2 3\na 2 3 3\na 1 3 2\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    return net;
}

START_TEST(solution_good)
{
    pf_network *net = solution_network();
    pf_solution_file sol;
    pf_status st;
    const char *path = pf_test_tmpfile("c max flow\ns 5\nc flows\nf 1 2 3\nf\t2 3 3\r\n"
                                       "f 1 3 2\nn 1\nn 2\n");
    ck_assert_msg(pf_solution_read(path, net, &sol, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(sol.value, 5);
    ck_assert(sol.has_flow && sol.has_cut);
    ck_assert_int_eq(sol.arc_flow[0], 3);
    ck_assert_int_eq(sol.arc_flow[1], 3);
    ck_assert_int_eq(sol.arc_flow[2], 2);
    ck_assert_int_eq(sol.source_side[0], 1);
    ck_assert_int_eq(sol.source_side[1], 1);
    ck_assert_int_eq(sol.source_side[2], 0);
    pf_solution_file_free(&sol);

    /* The value alone; and a negative flow, left for pf_verify to reject. */
    ck_assert_int_eq(pf_solution_read(pf_test_tmpfile("s 0"), net, &sol, &st), PF_OK);
    ck_assert(!sol.has_flow && !sol.has_cut);
    ck_assert_ptr_null(sol.arc_flow);
    pf_solution_file_free(&sol);
    ck_assert_int_eq(pf_solution_read(pf_test_tmpfile("f 1 2 -1\nf 2 3 0\nf 1 3 9223372036854775807\n"
                                                      "s -9223372036854775808\n"),
                                      net, &sol, &st), PF_OK);
    ck_assert_int_eq(sol.arc_flow[0], -1);
    ck_assert_int_eq(sol.arc_flow[2], INT64_MAX);
    ck_assert_int_eq(sol.value, INT64_MIN);
    pf_solution_file_free(&sol);
    pf_network_free(net);
}
END_TEST

static const bad_case solution_bad[] = {
    {"", 1, "no 's VALUE' line"},
    {"c x\nn 1\n", 3, "no 's VALUE' line"},
    {"s 5\nc\ns 5\n", 3, "second s line (the first is on line 1)"},
    {"s 5\nf 1 2 3\n", 3, "found 1 f lines (from line 2), the network has 3 arcs"},
    {"s 5\nf 1 2 3\nf 2 3 3\nf 1 3 2\nf 1 3 0\n", 5, "more f lines than the network's 3 arcs"},
    {"s 5\nf 2 3 3\n", 2, "f line 1 names arc 2 -> 3, but input arc 1 is 1 -> 2"},
    {"s 5\nf 1 2 3\nf 3 2 3\n", 3, "f line 2 names arc 3 -> 2"},
    {"s 5\nf 1 2\n", 2, "missing flow (expected 'f U V FLOW')"},
    {"s 5\nf 1 4 2\n", 2, "head 4 is outside 1..3"},
    {"s 5\nf 1 2 x\n", 2, "flow 'x' is not a number"},
    {"s 5\nn 0\n", 2, "vertex id 0 is outside 1..3"},
    {"s 5\nn 4\n", 2, "vertex id 4 is outside 1..3"},
    {"s 5\nn 1\nn 2\nn 1\n", 4, "vertex 1 is listed twice in the cut"},
    {"s 5\nn 1 2\n", 2, "extra text '2' after the vertex id"},
    {"s five\n", 1, "flow value 'five' is not a number"},
    {"s\n", 1, "missing flow value"},
    {"s 9223372036854775808\n", 1, "flow value 9223372036854775808 does not fit 64 bits"},
    {"s 5 6\n", 1, "extra text '6' after the flow value"},
    {"s 5\ny 1\n", 2, "unknown line type 'y'"}, /* x lines (cut arcs) are skipped */
    {"s 5\nflow 1\n", 2, "unknown line type 'flow'"},
};

START_TEST(solution_bad_input)
{
    const bad_case *bc = &solution_bad[_i];
    pf_network *net = solution_network();
    const char *path = pf_test_tmpfile(bc->text);
    pf_solution_file sol;
    pf_status st;
    ck_assert_msg(pf_solution_read(path, net, &sol, &st) == PF_E_INPUT, "case %d: %s", _i,
                  st.message);
    pf_test_assert_input_error(&st, path, bc->line, bc->needle);
    ck_assert_ptr_null(sol.arc_flow); /* freed and cleared on failure */
    ck_assert_ptr_null(sol.source_side);
    pf_network_free(net);
}
END_TEST

START_TEST(solution_missing_file)
{
    pf_network *net = solution_network();
    pf_solution_file sol;
    pf_status st;
    ck_assert_int_eq(pf_solution_read("/nonexistent/sol", net, &sol, &st), PF_E_INPUT);
    ck_assert_int_eq(strncmp(st.message, "/nonexistent/sol: cannot open", 29), 0);
    pf_network_free(net);
}
END_TEST

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The p line's vertex count, read before the file: DIMACS files with or
 * without comments first; -1 for anything else. */
START_TEST(dimacs_peek_vertices)
{
    const char *path = pf_test_tmpname();
    struct {
        const char *text;
        int64_t want;
    } cases[] = {
        {"p max 4 5\nn 1 s\n", 4},
        {"c a comment\n\nc another\r\np max 1234567 10\n", 1234567},
        {"1 2 5\n2 3 4\n", -1},              /* an edge list */
        {"%%MatrixMarket matrix coordinate\n", -1},
        {"\x1f\x8b\x08\x00", -1},           /* gzip */
        {"p max 4\n", -1},
        {"", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        FILE *f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        fputs(cases[i].text, f);
        fclose(f);
        ck_assert_int_eq(pf_io_peek_dimacs_vertices(path), cases[i].want);
    }
    remove(path);
    ck_assert_int_eq(pf_io_peek_dimacs_vertices("-"), -1);
    ck_assert_int_eq(pf_io_peek_dimacs_vertices(path), -1); /* gone */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parser");

    TCase *tc = tcase_create("dimacs");
    tcase_add_test(tc, dimacs_basic);
    tcase_add_test(tc, dimacs_peek_vertices);
    tcase_add_test(tc, dimacs_odd_but_valid);
    tcase_add_test(tc, dimacs_crlf_and_no_arcs);
    tcase_add_loop_test(tc, dimacs_page_sized_files, 0, 6);
    tcase_add_loop_test(tc, dimacs_stdin, 0, 2);
    tcase_add_test(tc, dimacs_stdin_error_names_stdin);
    tcase_add_test(tc, dimacs_stdin_pipe_large);
    tcase_add_loop_test(tc, dimacs_bad_input, 0, COUNT(dimacs_bad));
    tcase_add_test(tc, dimacs_nul_byte);
    tcase_add_test(tc, missing_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("writer");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, round_trip_random, 0, 2);
    tcase_add_test(tc, writer_exact_text);
    tcase_add_test(tc, writer_digit_boundaries);
    tcase_add_loop_test(tc, writer_stdout, 0, 2);
    tcase_add_test(tc, writer_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("matrix");
    tcase_add_loop_test(tc, matrix_good, 0, 2);
    tcase_add_loop_test(tc, matrix_bad_input, 0, COUNT(matrix_bad));
    tcase_add_test(tc, auto_detect);
    suite_add_tcase(s, tc);

    tc = tcase_create("solution");
    tcase_add_test(tc, solution_good);
    tcase_add_loop_test(tc, solution_bad_input, 0, COUNT(solution_bad));
    tcase_add_test(tc, solution_missing_file);
    suite_add_tcase(s, tc);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
