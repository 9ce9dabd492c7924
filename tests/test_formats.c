/* Check suite "formats": the max-flow inputs beyond DIMACS and the matrix:
 * edge lists, Matrix Market, gzip-compressed input, detection by content,
 * several sources and sinks (read, solved, verified) and real capacities
 * in fixed point. */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/network.h"
#include "pf_config.h"
#include "support.h"

#if PF_HAVE_ZLIB
#include <zlib.h>
#endif

/* ---- helpers -------------------------------------------------------- */

/* Options with one source and one sink (0-based API ids). */
static pf_read_options terminals(const int64_t *source, const int64_t *sink)
{
    pf_read_options opt;
    pf_read_options_init(&opt);
    opt.sources = source;
    opt.source_count = 1;
    opt.sinks = sink;
    opt.sink_count = 1;
    return opt;
}

/* Solves on `backend` with flow and cut, verifies, returns the value. */
static int64_t solve_verified(const pf_network *net, const char *backend)
{
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = backend;
    opt.want_flow = opt.want_cut = 1;
    pf_solution sol;
    pf_status st;
    int rc = pf_solve(net, &opt, &sol, &st);
    ck_assert_msg(rc == PF_OK, "%s: %s", backend, st.message);
    rc = pf_verify(net, sol.value, sol.arc_flow, sol.source_side, &st);
    ck_assert_msg(rc == PF_OK, "%s: verify: %s", backend, st.message);
    int64_t value = sol.value;
    pf_solution_free(&sol);
    return value;
}

/* ---- edge lists ----------------------------------------------------- */

START_TEST(edgelist_good)
{
    const char *path = pf_test_tmpfile("# an edge list\n% another comment\n\n1 2 5\n 2\t4 3 \n1 3 2\n3 4 9\n");
    int64_t s = 0, t = 4; /* vertex 5: a terminal past the last arc */
    pf_read_options opt = terminals(&s, &t);
    pf_status st;
    pf_network *net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_vertices(net), 5);
    ck_assert_int_eq(pf_network_arcs(net), 4);
    pf_test_assert_arc(net, 1, 1, 3, 3);
    ck_assert_int_eq(pf_network_sink(net), 4);
    ck_assert_int_eq(solve_verified(net, "seq"), 0); /* 5 is unreachable */
    pf_network_free(net);

    /* 0-based ids. */
    path = pf_test_tmpfile("0 1 5\n1 2 3\n0 2 1\n");
    s = 0;
    t = 2;
    opt = terminals(&s, &t);
    opt.zero_based = 1;
    net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_vertices(net), 3);
    pf_test_assert_arc(net, 0, 0, 1, 5);
    ck_assert_int_eq(solve_verified(net, "seq"), 4);
    pf_network_free(net);
}
END_TEST

static const struct bad_case {
    const char *text;
    int line;
    const char *needle;
} edgelist_bad[] = {
    {"1 2 3\n1 2\n", 2, "missing capacity"},
    {"1 2 3\n0 2 3\n", 2, "tail 0 outside 1..2147483646 (ids start at 1; --zero-based"},
    {"1 2 3\n1 x 3\n", 2, "head 'x' is not a vertex id"},
    {"1 2 3\n1 2 -3\n", 2, "capacity -3 is negative"},
    {"1 2 3\n1 2 -0.5\n", 2, "capacity '-0.5' is negative"},
    {"1 2 3\n1 2 3 4\n", 2, "extra text '4' after the capacity"},
    {"1 2 3\n1 2 4611686018427387905\n", 2, "exceeds the maximum 2^62"},
    {"1 2 3\n1 2 1.5.2\n", 2, "capacity '1.5.2' is not a number"},
    {"# nothing\n", 2, "no arcs"},
};

START_TEST(edgelist_bad_input)
{
    const struct bad_case *c = &edgelist_bad[_i];
    const char *path = pf_test_tmpfile(c->text);
    int64_t s = 0, t = 1;
    pf_read_options opt = terminals(&s, &t);
    pf_status st;
    pf_network *net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net == NULL, "case %d was accepted", _i);
    pf_test_assert_input_error(&st, path, c->line, c->needle);
}
END_TEST

START_TEST(terminals_required)
{
    pf_status st;
    const char *path = pf_test_tmpfile("1 2 3\n");
    ck_assert_ptr_null(pf_network_read(path, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_msg(strstr(st.message, "edge-list files name no source and sink") &&
                      strstr(st.message, "--source"),
                  "%s", st.message);
    path = pf_test_tmpfile("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 3\n");
    ck_assert_ptr_null(pf_network_read(path, &st));
    ck_assert_msg(strstr(st.message, "Matrix Market files name no source"), "%s", st.message);
    /* Terminals outside the graph, in the user's numbering. */
    path = pf_test_tmpfile("1 2 3\n2 3 3\n");
    int64_t s = 0, t = 2;
    pf_read_options opt = terminals(&s, &t);
    opt.sinks = (int64_t[]){-1};
    ck_assert_ptr_null(pf_network_read_with(path, &opt, &st));
    ck_assert_msg(strstr(st.message, "sink 0 is not a vertex (ids 1..3)"), "%s", st.message);
    opt = terminals(&s, &s);
    ck_assert_ptr_null(pf_network_read_with(path, &opt, &st));
    ck_assert_msg(strstr(st.message, "both a source and a sink"), "%s", st.message);
}
END_TEST

/* ---- Matrix Market -------------------------------------------------- */

START_TEST(mm_good)
{
    pf_status st;
    int64_t s = 0, t = 2;
    pf_read_options opt = terminals(&s, &t);
    const char *path = pf_test_tmpfile("%%MatrixMarket matrix coordinate integer general\n"
                                       "% comment\n3 3 3\n1 2 4\n2 3 3\n1 3 1\n");
    pf_network *net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_arcs(net), 3);
    ck_assert_int_eq(solve_verified(net, "seq"), 4);
    pf_network_free(net);
    /* Symmetric: both directions; pattern: capacity 1. */
    path = pf_test_tmpfile("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 2\n2 2\n");
    net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_arcs(net), 5);
    pf_test_assert_arc(net, 0, 1, 0, 1);
    pf_test_assert_arc(net, 1, 0, 1, 1);
    ck_assert_int_eq(solve_verified(net, "seq"), 1);
    pf_network_free(net);
    /* Real symmetric. */
    path = pf_test_tmpfile("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.5\n3 2 0.25\n");
    net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    char text[64];
    int64_t value = solve_verified(net, "seq");
    pf_amount_format(net, value, text, sizeof text);
    ck_assert_str_eq(text, "0.25");
    pf_network_free(net);
}
END_TEST

static const struct bad_case mm_bad[] = {
    {"%%MatrixMarket matrix array real general\n", 1, "unsupported Matrix Market banner"},
    {"%%MatrixMarket matrix coordinate real general\n2 3 1\n", 2, "not square"},
    {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n", 3,
     "not an integer (the banner says integer)"},
    {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -1\n", 3, "negative"},
    {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n2 1 1\n", 4, "more entries"},
    {"%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n", 4, "fewer entries"},
    {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 3 1\n", 3, "column 3 is outside 1..2"},
    {"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2 1\n", 3, "extra text '1'"},
};

START_TEST(mm_bad_input)
{
    const struct bad_case *c = &mm_bad[_i];
    const char *path = pf_test_tmpfile(c->text);
    int64_t s = 0, t = 1;
    pf_read_options opt = terminals(&s, &t);
    pf_status st;
    ck_assert_msg(pf_network_read_with(path, &opt, &st) == NULL, "case %d was accepted", _i);
    pf_test_assert_input_error(&st, path, c->line, c->needle);
}
END_TEST

/* ---- detection and gzip ----------------------------------------------- */

START_TEST(detection)
{
    pf_status st;
    int64_t s = 0, t = 1;
    pf_read_options opt = terminals(&s, &t);
    /* Three numbers on the first line: an edge list. */
    pf_network *net = pf_network_read_with(pf_test_tmpfile("1 2 7\n"), &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    pf_test_assert_arc(net, 0, 0, 1, 7);
    pf_network_free(net);
    /* One number: the adjacency matrix (its own terminals unless given). */
    net = pf_network_read(pf_test_tmpfile("c m\n2\n0 7\n0 0\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    pf_test_assert_arc(net, 0, 0, 1, 7);
    pf_network_free(net);
    /* '%' that is not a banner: an edge-list comment. */
    net = pf_network_read_with(pf_test_tmpfile("% c\n1 2 7\n"), &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    pf_network_free(net);
    /* The options' terminals replace a DIMACS file's own. */
    int64_t s2 = 1, t2 = 2;
    opt = terminals(&s2, &t2);
    net = pf_network_read_with(pf_test_tmpfile("p max 3 2\nn 1 s\nn 3 t\na 1 2 4\na 2 3 6\n"), &opt,
                               &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_source(net), 1);
    ck_assert_int_eq(pf_network_sink(net), 2);
    ck_assert_int_eq(solve_verified(net, "seq"), 6);
    pf_network_free(net);
}
END_TEST

#if PF_HAVE_ZLIB
static const char *gz_tmpfile(const char *text, int members)
{
    const char *path = pf_test_tmpname();
    gzFile gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    gzputs(gz, text);
    gzclose(gz);
    for (int k = 1; k < members; k++) { /* another member appended */
        gz = gzopen(path, "ab");
        gzputs(gz, "c more\n");
        gzclose(gz);
    }
    return path;
}
#endif

START_TEST(gzip_input)
{
    const char *dimacs = "p max 3 2\nn 1 s\nn 3 t\na 1 2 4\na 2 3 6\n";
    pf_status st;
#if PF_HAVE_ZLIB
    for (int members = 1; members <= 2; members++) {
        pf_network *net = pf_network_read(gz_tmpfile(dimacs, members), &st);
        ck_assert_msg(net != NULL, "%s", st.message);
        ck_assert_int_eq(pf_network_arcs(net), 2);
        ck_assert_int_eq(solve_verified(net, "seq"), 4);
        pf_network_free(net);
    }
    /* The APSP readers load through the same path. */
    pf_wgraph *g = pf_wgraph_read(gz_tmpfile("p sp 2 1\na 1 2 5\n", 1), &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(pf_wgraph_arcs(g), 1);
    pf_wgraph_free(g);
    /* Truncated: a clean error, not a partial network. */
    const char *path = gz_tmpfile(dimacs, 1);
    char *whole = pf_test_read_file(path);
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ftruncate(fileno(f), 20), 0);
    fclose(f);
    free(whole);
    ck_assert_ptr_null(pf_network_read(path, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_msg(strstr(st.message, "gzip"), "%s", st.message);
#else
    const char *path = pf_test_tmpfile("\x1f\x8b\x08 not really");
    ck_assert_ptr_null(pf_network_read(path, &st));
    ck_assert_msg(strstr(st.message, "without zlib"), "%s", st.message);
    (void)dimacs;
#endif
}
END_TEST

/* ---- several sources and sinks ---------------------------------------- */

/* Two sources, two sinks; the flow 1->3->5 (3), 2->3 (1 more through 3->5
 * is capped at 4), 2->4->6 (2): value 6. */
static const char multi_text[] = "p max 6 6\nn 1 s\nn 2 s\nn 5 t\nn 6 t\nn 1 s\n"
                                 "a 1 3 3\na 2 3 5\na 3 5 4\na 2 4 2\na 4 6 9\na 5 1 7\n";

START_TEST(multi_terminal)
{
    pf_status st;
    pf_network *net = pf_network_read(pf_test_tmpfile(multi_text), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_vertices(net), 6);
    ck_assert_int_eq(pf_network_arcs(net), 6);
    ck_assert_int_eq(pf_network_terminal_count(net, 0), 2); /* "n 1 s" twice: once */
    ck_assert_int_eq(pf_network_terminal_count(net, 1), 2);
    ck_assert_int_eq(pf_network_terminal(net, 1, 1), 5);
    ck_assert_int_eq(pf_network_terminal(net, 1, 2), -1);
    static const char *const backends[] = {"seq", "omp", "opencl", "cuda"};
    for (int b = 0; b < 4; b++) {
        char why[256];
        if (strcmp(backends[b], "seq") && !pf_test_backend_devices(backends[b], why, sizeof why))
            continue;
        ck_assert_int_eq(solve_verified(net, backends[b]), 6);
    }
    /* Flows only for the input arcs, cut sides only for the real vertices. */
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    opt.want_flow = opt.want_cut = 1;
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_OK);
    ck_assert_int_eq(sol.arc_flow[4], 2);
    ck_assert_int_eq(sol.source_side[0], 1);
    ck_assert_int_eq(sol.source_side[4], 0);
    ck_assert_int_eq(sol.source_side[5], 0);
    /* The checker holds every sink outside the cut and every source in. */
    sol.source_side[5] = 1;
    ck_assert_int_eq(pf_verify(net, sol.value, NULL, sol.source_side, &st), PF_E_VERIFY);
    ck_assert_msg(strstr(st.message, "sink 6 is on the source side"), "%s", st.message);
    sol.source_side[5] = 0;
    sol.source_side[1] = 0;
    ck_assert_int_eq(pf_verify(net, sol.value, NULL, sol.source_side, &st), PF_E_VERIFY);
    ck_assert_msg(strstr(st.message, "source 2 is on the sink side"), "%s", st.message);
    /* A wrong value against the sources' joint outflow. */
    ck_assert_int_eq(pf_verify(net, 5, sol.arc_flow, NULL, &st), PF_E_VERIFY);
    ck_assert_msg(strstr(st.message, "of the 2 sources"), "%s", st.message);
    pf_solution_free(&sol);
    pf_network_free(net);
}
END_TEST

/* Far more vertices than arcs: solved as a compact copy, which must keep
 * every terminal (an isolated sink stays on the sink side) and the scale. */
START_TEST(multi_terminal_compacted)
{
    pf_status st;
    const char *path = pf_test_tmpfile("1 3 0.5\n2 3 0.25\n3 200000 1.5\n");
    pf_read_options opt;
    pf_read_options_init(&opt);
    opt.sources = (int64_t[]){0, 1, 99999}; /* 100000: no arc */
    opt.source_count = 3;
    opt.sinks = (int64_t[]){199999, 150000}; /* 150001: no arc */
    opt.sink_count = 2;
    pf_network *net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_vertices(net), 200000);
    pf_solve_options sopt;
    pf_solve_options_init(&sopt);
    sopt.backend = "seq";
    sopt.want_flow = sopt.want_cut = 1;
    pf_solution sol;
    ck_assert_msg(pf_solve(net, &sopt, &sol, &st) == PF_OK, "%s", st.message);
    ck_assert_msg(pf_verify(net, sol.value, sol.arc_flow, sol.source_side, &st) == PF_OK, "%s",
                  st.message);
    int k;
    pf_network_scale(net, &k, NULL);
    ck_assert_int_eq(sol.scale_log2, k);
    ck_assert(pf_amount_to_double(net, sol.value) == 0.75);
    ck_assert_int_eq(sol.source_side[150000], 0);
    ck_assert_int_eq(sol.source_side[99999], 1);
    pf_solution_free(&sol);
    pf_network_free(net);
}
END_TEST

START_TEST(multi_terminal_options_and_errors)
{
    pf_status st;
    /* Repeated options on an edge list: sources 1 2, sinks 5 6. */
    const char *path = pf_test_tmpfile("1 3 3\n2 3 5\n3 5 4\n2 4 2\n4 6 9\n5 1 7\n");
    pf_read_options opt;
    pf_read_options_init(&opt);
    opt.sources = (int64_t[]){0, 1};
    opt.source_count = 2;
    opt.sinks = (int64_t[]){4, 5};
    opt.sink_count = 2;
    pf_network *net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(solve_verified(net, "seq"), 6);
    pf_network_free(net);
    /* --source alone keeps the file's sinks, all of them. */
    path = pf_test_tmpfile(multi_text);
    pf_read_options_init(&opt);
    opt.sources = (int64_t[]){1};
    opt.source_count = 1;
    net = pf_network_read_with(path, &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_terminal_count(net, 0), 1);
    ck_assert_int_eq(pf_network_terminal_count(net, 1), 2);
    ck_assert_int_eq(solve_verified(net, "seq"), 6); /* 2 -> 3 -> 5 (4), 2 -> 4 -> 6 (2) */
    pf_network_free(net);
    /* A vertex both: the later line, naming the earlier. */
    path = pf_test_tmpfile("p max 3 0\nn 2 t\nn 1 s\nn 3 t\nn 2 s\n");
    ck_assert_ptr_null(pf_network_read(path, &st));
    pf_test_assert_input_error(&st, path, 5, "vertex 2 is already the sink (line 2)");
    /* The API refuses the same. */
    net = pf_network_new(3, 0, 2, &st);
    ck_assert_int_eq(pf_network_set_terminals(net, (int64_t[]){0, 1}, 2, (int64_t[]){1}, 1, &st),
                     PF_E_INPUT);
    ck_assert_msg(strstr(st.message, "vertex 2 is both"), "%s", st.message);
    pf_network_free(net);
}
END_TEST

/* ---- real capacities -------------------------------------------------- */

START_TEST(real_exact_scale)
{
    pf_status st;
    /* All capacities sum to 1.125: finest 2^k with 1.125 * 2^k <= 2^61 is
     * k = 60 (the largest, 0.5, and the source's 0.75 would allow more). */
    pf_network *net = pf_network_read(
        pf_test_tmpfile("p max 3 3\nn 1 s\nn 3 t\na 1 2 0.5\na 2 3 0.375\na 1 3 2.5e-1\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    int k;
    double error;
    ck_assert_int_eq(pf_network_scale(net, &k, &error), 1);
    ck_assert_int_eq(k, 60);
    ck_assert(error == 0);
    pf_test_assert_arc(net, 0, 0, 1, (int64_t)1 << 59);
    int64_t value = solve_verified(net, "seq");
    pf_solve_options sopt;
    pf_solve_options_init(&sopt);
    sopt.backend = "seq";
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &sopt, &sol, &st), PF_OK);
    ck_assert_int_eq(sol.scale_log2, 60);
    pf_solution_free(&sol);
    static const char *const parallel[] = {"omp", "opencl", "cuda"};
    for (int b = 0; b < 3; b++) { /* their excess holds the capacities' sum */
        char why[256];
        if (pf_test_backend_devices(parallel[b], why, sizeof why))
            ck_assert_int_eq(solve_verified(net, parallel[b]), value);
    }
    char text[64];
    pf_amount_format(net, value, text, sizeof text);
    ck_assert_str_eq(text, "0.625");
    int64_t back;
    ck_assert_int_eq(pf_amount_parse(net, "0.625", &back), PF_OK);
    ck_assert_int_eq(back, value);
    ck_assert(pf_amount_to_double(net, value) == 0.625);
    pf_network_free(net);

    /* Integers in a real file scale too; a big total lowers the scale. */
    net = pf_network_read(pf_test_tmpfile("p max 2 2\nn 1 s\nn 2 t\na 1 2 3e18\na 1 2 3000000000000000000.5\n"),
                          &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    pf_network_scale(net, &k, &error);
    ck_assert_int_eq(k, -2); /* 6e18 / 4 <= 2^61 = 2.3e18 */
    pf_amount_format(net, solve_verified(net, "seq"), text, sizeof text);
    ck_assert_str_eq(text, "6e+18");
    /* The .5 was rounded off; 20 digits count as inexact (+ half an ulp). */
    ck_assert_msg(error >= 0.5 && error < 0.7, "error %g", error);
    pf_network_free(net);
}
END_TEST

START_TEST(real_inexact_and_bound)
{
    pf_status st;
    const char *text = "1 2 0.1\n2 3 0.2\n1 3 0.3\n";
    /* Edge list with reals; 0.1 is no binary fraction: nonzero bound. */
    int64_t s = 0, t = 2;
    pf_read_options opt = terminals(&s, &t);
    pf_network *net = pf_network_read_with(pf_test_tmpfile(text), &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    int k;
    double error;
    pf_network_scale(net, &k, &error);
    ck_assert_int_eq(k, 61); /* the sum 0.6 < 1: 0.6 * 2^61 <= 2^61 */
    ck_assert(error > 0 && error < 1e-17);
    double value = pf_amount_to_double(net, solve_verified(net, "seq"));
    ck_assert_msg(fabs(value - 0.4) < 1e-17, "value %.20g", value);
    pf_network_free(net);
    /* The 32-bit path's bound. */
    opt.bound_log2 = 31;
    net = pf_network_read_with(pf_test_tmpfile(text), &opt, &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    pf_network_scale(net, &k, &error);
    ck_assert_int_eq(k, 30);
    ck_assert(error > 1e-11 && error < 1e-9);
    for (int64_t i = 0; i < pf_network_arcs(net); i++) {
        int64_t c;
        pf_network_arc(net, i, NULL, NULL, &c);
        ck_assert(c <= (int64_t)1 << 31);
    }
    pf_network_free(net);
}
END_TEST

START_TEST(real_matrix)
{
    pf_status st;
    /* Reals in the adjacency matrix; "0.0" is no arc, as 0 is. */
    pf_network *net = pf_network_read(pf_test_tmpfile("3\n0 0.5 0.0\n0 0 1.5e0\n0 0 0\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(pf_network_arcs(net), 2);
    char text[64];
    pf_amount_format(net, solve_verified(net, "seq"), text, sizeof text);
    ck_assert_str_eq(text, "0.5");
    pf_network_free(net);
    const char *path = pf_test_tmpfile("2\n0 -0.5\n0 0\n");
    ck_assert_ptr_null(pf_network_read(path, &st));
    pf_test_assert_input_error(&st, path, 2, "capacity '-0.5' (row 1, column 2) is negative");
}
END_TEST

/* The writer keeps every terminal and the capacities in input units. */
START_TEST(writer_round_trip)
{
    pf_status st;
    static const char *const inputs[] = {
        multi_text,
        "p max 3 3\nn 1 s\nn 3 t\na 1 2 0.1\na 2 3 2.5e-7\na 1 3 3\n",
    };
    for (int k = 0; k < 2; k++) {
        pf_network *net = pf_network_read(pf_test_tmpfile(inputs[k]), &st);
        ck_assert_msg(net != NULL, "%s", st.message);
        const char *path = pf_test_tmpname();
        ck_assert_int_eq(pf_network_write_dimacs(net, path, &st), PF_OK);
        pf_network *back = pf_network_read(path, &st);
        ck_assert_msg(back != NULL, "%s", st.message);
        ck_assert_int_eq(pf_network_terminal_count(back, 0), pf_network_terminal_count(net, 0));
        ck_assert_int_eq(pf_network_terminal_count(back, 1), pf_network_terminal_count(net, 1));
        int k1, k2;
        pf_network_scale(net, &k1, NULL);
        pf_network_scale(back, &k2, NULL);
        ck_assert_int_eq(k1, k2);
        for (int64_t i = 0; i < pf_network_arcs(net); i++)
            ck_assert_int_eq(net->cap[i], back->cap[i]);
        pf_network_free(back);
        pf_network_free(net);
    }
}
END_TEST

START_TEST(real_api_and_integer_unchanged)
{
    pf_status st;
    pf_network *net = pf_network_new(2, 0, 1, &st);
    ck_assert_int_eq(pf_network_add_arc_real(net, 0, 1, 1.5, &st), PF_OK);
    ck_assert_int_eq(pf_network_add_arc_real(net, 0, 1, -1, &st), PF_E_INPUT);
    /* Not solvable before the scale is chosen. */
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    pf_solution sol;
    ck_assert_int_eq(pf_solve(net, &opt, &sol, &st), PF_E_USAGE);
    ck_assert_msg(strstr(st.message, "pf_network_finish"), "%s", st.message);
    ck_assert_int_eq(pf_network_finish(net, PF_SCALE_BOUND_LOG2, &st), PF_OK);
    char text[64];
    pf_amount_format(net, solve_verified(net, "seq"), text, sizeof text);
    ck_assert_str_eq(text, "1.5");
    pf_network_free(net);
    /* An integer file: no scale, amounts print as integers. */
    net = pf_network_read(pf_test_tmpfile("p max 2 1\nn 1 s\nn 2 t\na 1 2 4611686018427387904\n"),
                          &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    int k = 7;
    ck_assert_int_eq(pf_network_scale(net, &k, NULL), 0);
    ck_assert_int_eq(k, 0);
    pf_amount_format(net, 4611686018427387904, text, sizeof text);
    ck_assert_str_eq(text, "4611686018427387904");
    pf_network_free(net);
}
END_TEST

/* ---- the command line ---------------------------------------------- */

/* Runs portaflow; returns its exit status, *out and *err (caller frees). */
static int run(const char *const *args, char **out, char **err)
{
    return pf_test_run_cli(args, NULL, out, err);
}

START_TEST(cli_edgelist_terminals)
{
    const char *path = pf_test_tmpfile("# two sources\n1 3 3\n2 3 5\n3 5 4\n2 4 2\n4 6 9\n5 1 7\n");
    char *out, *err;
    int rc = run((const char *const[]){"solve", "--source", "1", "--source=2", "--sink", "5",
                                       "--sink", "6", "--flow", "--cut", "--verify", path, NULL},
                 &out, &err);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    ck_assert_msg(strstr(out, "\ns 6\n") && strstr(out, "f 4 6 2\n") && strstr(out, "c vertices 6 arcs 6\n"),
                  "%s", out);
    ck_assert_msg(!strstr(out, "n 7") && !strstr(out, "c scale"), "%s", out);
    free(out);
    free(err);
    /* The same graph 0-based. */
    path = pf_test_tmpfile("0 2 3\n1 2 5\n2 4 4\n1 3 2\n3 5 9\n4 0 7\n");
    rc = run((const char *const[]){"solve", "--zero-based", "--source", "0", "--source", "1",
                                   "--sink", "4", "--sink", "5", "--flow", "--cut", path, NULL},
             &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "\ns 6\n"), "rc %d: %s %s", rc, out, err);
    /* Its solution speaks the file's 0-based ids, and check reads it so. */
    ck_assert_msg(strstr(out, "\nf 0 2 ") && strstr(out, "\nf 4 0 0\n") && strstr(out, "\nn 0\n") && !strstr(out, "\nn 6\n"),
                  "%s", out);
    const char *solution = pf_test_tmpname();
    FILE *f = fopen(solution, "w");
    fputs(out, f);
    fclose(f);
    free(out);
    free(err);
    rc = run((const char *const[]){"check", "--zero-based", "--source", "0", "--source", "1",
                                   "--sink", "4", "--sink", "5", path, solution, NULL},
             &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "c check ok: value 6;"), "rc %d: %s %s", rc, out, err);
    free(out);
    free(err);
    /* No terminals: exit 2 and a message naming the options, stdout empty. */
    rc = run((const char *const[]){"solve", path, NULL}, &out, &err);
    ck_assert_int_eq(rc, 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "--source S --sink T"), "%s", err);
    free(out);
    free(err);
    /* A bad id is a usage error naming the option. */
    rc = run((const char *const[]){"solve", "--source", "x", path, NULL}, &out, &err);
    ck_assert_int_eq(rc, 1);
    ck_assert_msg(strstr(err, "--source"), "%s", err);
    free(out);
    free(err);
    /* --help lists the options. */
    rc = run((const char *const[]){"solve", "--help", NULL}, &out, &err);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(strstr(out, "--source ID") && strstr(out, "--sink ID") && strstr(out, "--zero-based"),
                  "%s", out);
    free(out);
    free(err);
}
END_TEST

START_TEST(cli_real_solve_and_check)
{
    const char *graph = pf_test_tmpfile("p max 4 4\nn 1 s\nn 4 t\na 1 2 0.5\na 2 4 0.25\na 1 4 1e-1\na 1 3 2\n");
    char *out, *err;
    int rc = run((const char *const[]){"solve", "--flow", "--cut", graph, NULL}, &out, &err);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    ck_assert_msg(strstr(out, "c scale 2^-59 error ") && strstr(out, "\ns 0.35\n") &&
                      strstr(out, "f 1 2 0.25\n") && strstr(out, "f 1 4 0.1\n") &&
                      strstr(out, "f 1 3 0\n"),
                  "%s", out);
    ck_assert_msg(strstr(out, "c scale") < strstr(out, "\ns "), "%s", out);
    /* check reads the amounts back exactly. */
    const char *solution = pf_test_tmpname();
    FILE *f = fopen(solution, "w");
    fputs(out, f);
    fclose(f);
    free(out);
    free(err);
    rc = run((const char *const[]){"check", graph, solution, NULL}, &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "c check ok: value 0.35") && strstr(out, "c scale 2^-59"),
                  "rc %d: %s %s", rc, out, err);
    free(out);
    free(err);
    rc = run((const char *const[]){"check", "--json", graph, solution, NULL}, &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "\"ok\":true,\"value\":0.35,\"scale_log2\":-59,"),
                  "rc %d: %s %s", rc, out, err);
    free(out);
    free(err);
    /* A flow off by one unit of the scale is caught. */
    f = fopen(solution, "w");
    fputs("s 0.35\nf 1 2 0.25\nf 2 4 0.25\nf 1 4 0.100000000000000005\nf 1 3 0\n", f);
    fclose(f);
    rc = run((const char *const[]){"check", graph, solution, NULL}, &out, &err);
    ck_assert_msg(rc == 2 && strstr(err, "check failed"), "rc %d: %s %s", rc, out, err);
    free(out);
    free(err);
    /* JSON: amounts in input units. */
    rc = run((const char *const[]){"solve", "--json", "--flow", graph, NULL}, &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "{\"value\":0.35,\"scale_log2\":-59,\"scale_error\":") &&
                      strstr(out, "\"flow\":[0.25,0.25,0.1,0]"),
                  "rc %d: %s %s", rc, out, err);
    free(out);
    free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("formats");
    TCase *tc = tcase_create("edgelist");
    tcase_add_test(tc, edgelist_good);
    tcase_add_loop_test(tc, edgelist_bad_input, 0, sizeof edgelist_bad / sizeof *edgelist_bad);
    tcase_add_test(tc, terminals_required);
    suite_add_tcase(s, tc);
    tc = tcase_create("mm");
    tcase_add_test(tc, mm_good);
    tcase_add_loop_test(tc, mm_bad_input, 0, sizeof mm_bad / sizeof *mm_bad);
    suite_add_tcase(s, tc);
    tc = tcase_create("detect");
    tcase_add_test(tc, detection);
    tcase_add_test(tc, gzip_input);
    suite_add_tcase(s, tc);
    tc = tcase_create("terminals");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, multi_terminal);
    tcase_add_test(tc, multi_terminal_options_and_errors);
    tcase_add_test(tc, multi_terminal_compacted);
    suite_add_tcase(s, tc);
    tc = tcase_create("real");
    tcase_add_test(tc, real_exact_scale);
    tcase_add_test(tc, real_inexact_and_bound);
    tcase_add_test(tc, real_matrix);
    tcase_add_test(tc, writer_round_trip);
    tcase_add_test(tc, real_api_and_integer_unchanged);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cli_edgelist_terminals);
    tcase_add_test(tc, cli_real_solve_and_check);
    suite_add_tcase(s, tc);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
