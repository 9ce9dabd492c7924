/* Check suite "wparser": the weighted-digraph readers (DIMACS shortest-path,
 * Matrix Market coordinate, adjacency matrix), the DIMACS sp writer and the
 * sp generator with its CLI family. Bad inputs are table-driven: each row is
 * a file, the line its error must name, and words the message must hold. */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/gen.h"
#include "common/wgen.h"
#include "common/wgraph.h"
#include "common/wgraph_io.h"
#include "support.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- helpers -------------------------------------------------------- */

static pf_wgraph *read_text(const char *text)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_read(pf_test_tmpfile(text), &st);
    ck_assert_msg(g != NULL, "rejected: %s", st.message);
    ck_assert_int_eq(st.code, PF_OK);
    return g;
}

/* One arc, as (tail, head, weight) with 1-based ids as in the files; the
 * weight as a double compares integers exactly up to 2^53. */
typedef struct arc { int tail, head; double weight; } arc;

/* The graph holds exactly these arcs, in this order. */
static void expect_arcs(const pf_wgraph *g, int64_t n, int is_real, const arc *arcs, int m)
{
    ck_assert_int_eq(g->n, n);
    ck_assert_int_eq(g->m, m);
    ck_assert_int_eq(pf_wgraph_is_real(g), is_real);
    for (int i = 0; i < m; i++) {
        double w = is_real ? g->real_weight[i] : (double)g->int_weight[i];
        ck_assert_msg(g->tail[i] + 1 == arcs[i].tail && g->head[i] + 1 == arcs[i].head &&
                          w == arcs[i].weight,
                      "arc %d is (%d,%d,%.17g), expected (%d,%d,%.17g)", i, g->tail[i] + 1,
                      g->head[i] + 1, w, arcs[i].tail, arcs[i].head, arcs[i].weight);
    }
}

typedef struct bad_case {
    const char *text;
    int line;           /* the line the message must name */
    const char *needle; /* words the message must contain */
} bad_case;

/* The reader refuses the case's text with "PATH:LINE: ..." naming it. */
static void expect_rejected(const bad_case *bc, int index)
{
    const char *path = pf_test_tmpfile(bc->text);
    pf_status st;
    ck_assert_msg(pf_wgraph_read(path, &st) == NULL, "case %d was accepted", index);
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, bc->line);
    ck_assert_msg(st.code == PF_E_INPUT && strncmp(st.message, prefix, strlen(prefix)) == 0 &&
                      strstr(st.message, bc->needle) != NULL,
                  "case %d: code %d, message '%s'; expected '%s...%s'", index, st.code,
                  st.message, prefix, bc->needle);
}

/* memcmp of len bytes; arrays of no arcs may be NULL, which memcmp may
 * not be given even for length 0. */
static int same_bytes(const void *a, const void *b, size_t len)
{
    return len == 0 || memcmp(a, b, len) == 0;
}

static int same_graph(const pf_wgraph *a, const pf_wgraph *b)
{
    if (a->n != b->n || a->m != b->m || pf_wgraph_is_real(a) != pf_wgraph_is_real(b))
        return 0;
    size_t m = (size_t)a->m;
    int weights_same = a->real_weight
                           ? same_bytes(a->real_weight, b->real_weight, m * sizeof(double))
                           : same_bytes(a->int_weight, b->int_weight, m * sizeof(int64_t));
    return weights_same && same_bytes(a->tail, b->tail, m * sizeof *a->tail) &&
           same_bytes(a->head, b->head, m * sizeof *a->head);
}

static double weight_of(const pf_wgraph *g, int64_t i)
{
    return g->real_weight ? g->real_weight[i] : (double)g->int_weight[i];
}

/* ---- DIMACS shortest-path ------------------------------------------------ */

START_TEST(sp_good)
{
    /* Comments, blank lines, tabs, CRLF; parallel arcs, a self-loop,
     * negative weights, signs, leading zeros, the largest weights. */
    pf_wgraph *g = read_text("c 9th DIMACS challenge style\r\n\np sp 3 7\r\n"
                             "a 1 2 5\na\t1 2 3\r\na 2 3 -7\na 3 3 0\n  a 3 1 +4\n"
                             "a 1 3 4611686018427387904\na 2 1 -0004611686018427387904");
    static const arc want[] = {{1, 2, 5}, {1, 2, 3}, {2, 3, -7}, {3, 3, 0}, {3, 1, 4},
                               {1, 3, 0x1p62}, {2, 1, -0x1p62}};
    expect_arcs(g, 3, 0, want, COUNT(want));
    ck_assert_int_eq(g->int_weight[5], PF_WEIGHT_MAX); /* exact, not via double */
    pf_wgraph_free(g);

    /* N = 1: no arcs, or a self-loop. */
    g = read_text("p sp 1 0\n");
    expect_arcs(g, 1, 0, NULL, 0);
    pf_wgraph_free(g);
    g = read_text("p sp 1 1\na 1 1 -3");
    expect_arcs(g, 1, 0, (const arc[]){{1, 1, -3}}, 1);
    pf_wgraph_free(g);
}
END_TEST

START_TEST(sp_reals)
{
    /* Integral reals keep the graph integer... */
    pf_wgraph *g = read_text("p sp 2 3\na 1 2 2.0\na 2 1 1e3\na 1 1 -5E+1\n");
    expect_arcs(g, 2, 0, (const arc[]){{1, 2, 2}, {2, 1, 1000}, {1, 1, -50}}, 3);
    pf_wgraph_free(g);
    /* ...the first fractional one makes every weight a real. */
    g = read_text("p sp 3 5\na 1 2 7\na 2 3 -2.5\na 3 1 1e-3\na 1 3 .5\n"
                  "a 3 2 -4611686018427387904.0\n");
    expect_arcs(g, 3, 1,
                (const arc[]){{1, 2, 7}, {2, 3, -2.5}, {3, 1, 1e-3}, {1, 3, 0.5},
                              {3, 2, -0x1p62}}, 5);
    pf_wgraph_free(g);
    /* 17 digits give back the double they were printed from. */
    g = read_text("p sp 2 2\na 1 2 0.10000000000000001\na 2 1 4.9406564584124654e-324\n");
    ck_assert(g->real_weight[0] == 0.1 && g->real_weight[1] == 0x1p-1074);
    pf_wgraph_free(g);
}
END_TEST

#define SP_HEADER "p sp 2 1\n" /* the arc goes on line 2 */

static const bad_case sp_bad[] = {
    {"", 1, "the file is empty (expected a 'p sp N M' line)"},
    {"c only\n\n", 3, "no 'p sp N M' line"},
    {"a 1 2 3\np sp 2 1\n", 1, "arc line before the p line"},
    {"p sp 2 0\nc\np sp 2 0\n", 3, "second p line (the first is on line 1)"},
    {"c a max-flow file\np max 2 1\nn 1 s\n", 2, "problem type 'max' is not 'sp'"},
    {"p\n", 1, "missing problem type (expected 'p sp N M')"},
    {"p sp\n", 1, "missing vertex count"},
    {"p sp 0 0\n", 1, "vertex count 0 is outside 1..2147483646"},
    {"p sp 2147483647 0\n", 1, "vertex count 2147483647 is outside 1..2147483646"},
    {"p sp -3 0\n", 1, "vertex count -3 is outside"},
    {"p sp two 0\n", 1, "vertex count 'two' is not a number"},
    {"p sp 2\n", 1, "missing arc count"},
    {"p sp 2 -1\n", 1, "arc count -1 is negative"},
    {"p sp 2 1.5\n", 1, "arc count '1.5' is not a number"},
    {"p sp 2 99999999999999999999\n", 1, "arc count 99999999999999999999 is too large"},
    {"p sp 2 0 9\n", 1, "extra text '9' after the arc count"},
    {SP_HEADER "a 0 1 1\n", 2, "tail 0 is outside 1..2"},
    {SP_HEADER "a 1 3 1\n", 2, "head 3 is outside 1..2"},
    {SP_HEADER "a -1 2 1\n", 2, "tail -1 is outside 1..2"},
    {SP_HEADER "a x 2 1\n", 2, "tail 'x' is not a number"},
    {SP_HEADER "a 1 2.0 1\n", 2, "head '2.0' is not a number"},
    {SP_HEADER "a\n", 2, "missing tail (expected 'a TAIL HEAD WEIGHT')"},
    {SP_HEADER "a 1\n", 2, "missing head"},
    {SP_HEADER "a 1 2\n", 2, "missing weight (expected 'a TAIL HEAD WEIGHT')"},
    {SP_HEADER "a 1 2", 2, "missing weight"},
    {SP_HEADER "a 1 2 abc\n", 2, "weight 'abc' is not a number"},
    {SP_HEADER "a 1 2 1.5.2\n", 2, "weight '1.5.2' is not a number"},
    {SP_HEADER "a 1 2 0x10\n", 2, "weight '0x10' is not a number"},
    {SP_HEADER "a 1 2 1e\n", 2, "weight '1e' is not a number"},
    {SP_HEADER "a 1 2 -\n", 2, "weight '-' is not a number"},
    {SP_HEADER "a 1 2 12ab\n", 2, "weight '12ab' is not a number"},
    {SP_HEADER "a 1 2 infinit\n", 2, "weight 'infinit' is not a number"},
    {SP_HEADER "a 1 2 +nanx\n", 2, "weight '+nanx' is not a number"},
    {SP_HEADER "a 1 2 i\n", 2, "weight 'i' is not a number"},
    {SP_HEADER "a 1 2 nan\n", 2, "weight 'nan' is not a finite number"},
    {SP_HEADER "a 1 2 inf\n", 2, "weight 'inf' is not a finite number"},
    {SP_HEADER "a 1 2 -Infinity\n", 2, "weight '-Infinity' is not a finite number"},
    {SP_HEADER "a 1 2 4611686018427387905\n", 2,
     "weight 4611686018427387905 is outside -2^62..2^62"},
    {SP_HEADER "a 1 2 -4611686018427387905\n", 2, "weight -4611686018427387905 is outside"},
    {SP_HEADER "a 1 2 99999999999999999999\n", 2, "weight 99999999999999999999 is outside"},
    {SP_HEADER "a 1 2 -9223372036854775808\n", 2, "weight -9223372036854775808 is outside"},
    {SP_HEADER "a 1 2 4.7e18\n", 2, "weight 4.7e18 is outside -2^62..2^62"},
    {SP_HEADER "a 1 2 1e999\n", 2, "weight 1e999 is outside"},
    {SP_HEADER "a 1 2 3 4\n", 2, "extra text '4' after the weight"},
    {"p sp 2 2\na 1 2 1\n", 3, "fewer arc lines than the p line (line 1) declares: "
                               "expected 2, found 1"},
    {"p sp 2 1\na 1 2 1\nc\na 2 1 1\na 1 1 1\n", 4, "more arc lines than the p line (line 1) "
                                                  "declares: expected 1, found 3"},
    {"x 1 2\n", 1, "unknown line type 'x' (expected c, p or a)"},
    {"p sp 2 0\nn 1 s\n", 2, "unknown line type 'n'"},
    {"p sp 2 0\nab 1 2\n", 2, "unknown line type 'ab'"},
    {"p sp 2 1\r\na 1 5 1\r\n", 2, "head 5 is outside 1..2"},
};

START_TEST(sp_bad_input) { expect_rejected(&sp_bad[_i], _i); }
END_TEST

START_TEST(missing_file_and_nul)
{
    pf_status st;
    ck_assert_ptr_null(pf_wgraph_read("/nonexistent/graph.gr", &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_str_eq(st.message, "/nonexistent/graph.gr: cannot open: No such file or directory");
    static const char text[] = "p sp 2 1\na 1 2\0 5\n";
    const char *path = pf_test_tmpname();
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, sizeof text - 1, f);
    fclose(f);
    ck_assert_ptr_null(pf_wgraph_read(path, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_ptr_nonnull(strstr(st.message, ":2: NUL byte"));
}
END_TEST

/* ---- Matrix Market ------------------------------------------------------- */

START_TEST(mtx_good)
{
    /* General integer, comments and blank lines anywhere after the banner,
     * an explicit 0 (an arc of weight 0), a repeated entry (parallel arcs). */
    pf_wgraph *g = read_text("%%MatrixMarket matrix coordinate integer general\n"
                             "% a comment\n\n3 3 4\n1 2 5\n%another\n3 1 -2\n2 2 0\n1 2 4\n");
    expect_arcs(g, 3, 0, (const arc[]){{1, 2, 5}, {3, 1, -2}, {2, 2, 0}, {1, 2, 4}}, 4);
    pf_wgraph_free(g);

    /* Real, symmetric: an off-diagonal entry is two arcs, a diagonal one
     * stays one; the banner's words in any case; CRLF. */
    g = read_text("%%MatrixMarket MATRIX Coordinate REAL Symmetric\r\n3 3 3\r\n"
                  "1 1 2.5e0\r\n3 1 -0.25\r\n2 3 7\r\n");
    expect_arcs(g, 3, 1,
                (const arc[]){{1, 1, 2.5}, {3, 1, -0.25}, {1, 3, -0.25}, {2, 3, 7}, {3, 2, 7}},
                5);
    pf_wgraph_free(g);

    /* Pattern: weight 1; symmetric pattern mirrors too. */
    g = read_text("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n");
    expect_arcs(g, 2, 0, (const arc[]){{1, 2, 1}, {2, 1, 1}}, 2);
    pf_wgraph_free(g);
    g = read_text("  \n%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n3 2\n");
    expect_arcs(g, 3, 0, (const arc[]){{3, 2, 1}, {2, 3, 1}}, 2);
    pf_wgraph_free(g);

    /* N = 1, and a matrix with no entries. */
    g = read_text("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -1.5\n");
    expect_arcs(g, 1, 1, (const arc[]){{1, 1, -1.5}}, 1);
    pf_wgraph_free(g);
    g = read_text("%%MatrixMarket matrix coordinate real general\n4 4 0\n");
    expect_arcs(g, 4, 0, NULL, 0);
    pf_wgraph_free(g);
}
END_TEST

#define MM_GENERAL "%%MatrixMarket matrix coordinate real general\n"
#define MM_3X3 MM_GENERAL "3 3 1\n" /* the entry goes on line 3 */

static const bad_case mtx_bad[] = {
    {"% a comment first\n%%MatrixMarket matrix coordinate real general\n", 1,
     "the first line is not a Matrix Market banner"},
    {"%%MatrixMarket vector coordinate real general\n", 1,
     "Matrix Market object 'vector' is not supported (expected matrix)"},
    {"%%MatrixMarket matrix array real general\n3 3\n", 1,
     "Matrix Market format 'array' is not supported (expected coordinate"},
    {"%%MatrixMarket matrix coordinate complex general\n", 1,
     "Matrix Market field 'complex' is not supported (expected real, integer or pattern)"},
    {"%%MatrixMarket matrix coordinate real hermitian\n", 1,
     "Matrix Market symmetry 'hermitian' is not supported (expected general or symmetric)"},
    {"%%MatrixMarket matrix coordinate integer skew-symmetric\n", 1,
     "symmetry 'skew-symmetric' is not supported"},
    {"%%MatrixMarket matrix coordinate real\n", 1, "the banner ends before the symmetry"},
    {"%%MatrixMarket\n", 1, "the banner ends before the object"},
    {"%%MatrixMarket matrix coordinate real general x\n", 1, "extra text 'x' after the symmetry"},
    {MM_GENERAL "% only comments\n", 3, "no size line 'ROWS COLS ENTRIES' after the banner"},
    {MM_GENERAL "3 4 1\n1 4 1\n", 2, "the matrix is not square (3 rows, 4 columns)"},
    {MM_GENERAL "0 0 0\n", 2, "vertex count 0 is outside 1..2147483646"},
    {MM_GENERAL "x 3 1\n", 2, "vertex count 'x' is not a number"},
    {MM_GENERAL "3\n", 2, "missing column count (expected 'ROWS COLS ENTRIES')"},
    {MM_GENERAL "3 y 1\n", 2, "column count 'y' is not a number"},
    {MM_GENERAL "3 3\n", 2, "missing entry count"},
    {MM_GENERAL "3 3 -1\n", 2, "entry count -1 is negative"},
    {MM_GENERAL "3 3 1 9\n", 2, "extra text '9' after the entry count"},
    {MM_3X3 "4 1 1\n", 3, "row 4 is outside 1..3"},
    {MM_3X3 "1 0 1\n", 3, "column 0 is outside 1..3"},
    {MM_3X3 "1\n", 3, "missing column (expected 'I J WEIGHT')"},
    {MM_3X3 "1 2\n", 3, "missing weight (expected 'I J WEIGHT')"},
    {MM_3X3 "1 2 x\n", 3, "weight 'x' is not a number"},
    {MM_3X3 "1 2 nan\n", 3, "weight 'nan' is not a finite number"},
    {MM_3X3 "1 2 5e20\n", 3, "weight 5e20 is outside -2^62..2^62"},
    {MM_3X3 "1 2 3 4\n", 3, "extra text '4' after the weight"},
    {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 2.5\n", 3,
     "weight '2.5' is not an integer (the banner says integer)"},
    {"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 5\n", 3,
     "extra text '5' after the column (pattern entries have no weight)"},
    {MM_GENERAL "3 3 2\n1 2 1\n% end\n", 5, "fewer entries than the size line (line 2) "
                                           "declares: expected 2, found 1"},
    {MM_3X3 "1 2 1\n2 3 1\n%\n3 1 1\n", 4, "more entries than the size line (line 2) "
                                          "declares: expected 1, found 3"},
};

START_TEST(mtx_bad_input) { expect_rejected(&mtx_bad[_i], _i); }
END_TEST

/* ---- adjacency matrix ---------------------------------------------------- */

START_TEST(matrix_good)
{
    /* 0, inf and - are no arc; a nonzero diagonal entry is a self-loop;
     * rows wrap and share lines; c comments; CRLF; reals. */
    pf_wgraph *g = read_text("c a weighted matrix\r\n3 0 5\n-2 inf\t7 -\r\nc middle\n"
                             "-1.5 +inf 0.0\n");
    expect_arcs(g, 3, 1, (const arc[]){{1, 2, 5}, {1, 3, -2}, {2, 2, 7}, {3, 1, -1.5}}, 4);
    pf_wgraph_free(g);
    /* N = 1, with no arc and with a self-loop; integers stay integers. */
    g = read_text("1\n0\n");
    expect_arcs(g, 1, 0, NULL, 0);
    pf_wgraph_free(g);
    g = read_text("1 -4");
    expect_arcs(g, 1, 0, (const arc[]){{1, 1, -4}}, 1);
    pf_wgraph_free(g);
    g = read_text("2\n0 -4611686018427387904\nINF 0\n");
    expect_arcs(g, 2, 0, (const arc[]){{1, 2, -0x1p62}}, 1);
    pf_wgraph_free(g);
}
END_TEST

static const bad_case matrix_bad[] = {
    {"0\n", 1, "vertex count 0 is outside 1..2147483646"},
    {"c x\n-2\n", 2, "vertex count -2 is outside"},
    {"2147483647\n", 1, "vertex count 2147483647 is outside"},
    {"2\n0 x\n0 0\n", 2, "weight 'x' (row 1, column 2) is not a number"},
    {"2\n0 1\n-- 0\n", 3, "weight '--' (row 2, column 1) is not a number"},
    {"2\n0 nan\n0 0\n", 2, "weight 'nan' (row 1, column 2) is not a finite number"},
    {"2\n0 -inf\n0 0\n", 2, "weight '-inf' (row 1, column 2) is not a finite number"},
    {"2\n0 1\n0 4611686018427387905\n", 3, "weight 4611686018427387905 (row 2, column 2) "
                                          "is outside -2^62..2^62"},
    {"2\n0 1e999\n0 0\n", 2, "weight 1e999 (row 1, column 2) is outside"},
    {"2\n0 1\n0\n", 4, "expected N*N = 4 weights (N = 2), found 3"},
    {"2\n0 1\n0 0\n0\n", 4, "more than N*N = 4 weights (N = 2): '0' is one too many"},
    {"2\n0 1\n0 0 inf\n", 3, "'inf' is one too many"},
};

START_TEST(matrix_bad_input) { expect_rejected(&matrix_bad[_i], _i); }
END_TEST

/* ---- writer ---------------------------------------------------------------- */

START_TEST(writer_exact_text)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(3, &st);
    pf_wgraph_add_arc(g, 2, 0, -7, &st);
    pf_wgraph_add_arc(g, 1, 1, 0, &st);
    pf_wgraph_add_arc(g, 0, 2, PF_WEIGHT_MAX, &st);
    pf_wgraph_add_arc(g, 0, 2, -PF_WEIGHT_MAX, &st);
    const char *path = pf_test_tmpname();
    FILE *out = fopen(path, "wb");
    ck_assert_int_eq(pf_wgraph_write_dimacs(g, out, "two\nlines", &st), PF_OK);
    ck_assert_int_eq(pf_wgraph_add_arc_real(g, 1, 2, 0.1, &st), PF_OK);
    ck_assert_int_eq(pf_wgraph_write_dimacs(g, out, NULL, &st), PF_OK);
    fclose(out);
    char *text = pf_test_read_file(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "c two\nc lines\np sp 3 4\na 3 1 -7\na 2 2 0\n"
                           "a 1 3 4611686018427387904\na 1 3 -4611686018427387904\n"
                           "p sp 3 5\na 3 1 -7\na 2 2 0\na 1 3 4.6116860184273879e+18\n"
                           "a 1 3 -4.6116860184273879e+18\na 2 3 0.10000000000000001\n");
    free(text);
    pf_wgraph_free(g);
}
END_TEST

/* Write, read back: the same arcs, weights and kind. */
static void round_trip(const pf_wgraph *g)
{
    const char *path = pf_test_tmpname();
    FILE *out = fopen(path, "wb");
    pf_status st;
    ck_assert_int_eq(pf_wgraph_write_dimacs(g, out, "round trip", &st), PF_OK);
    fclose(out);
    pf_wgraph *back = pf_wgraph_read(path, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    ck_assert_msg(same_graph(g, back), "the graph read back differs");
    pf_wgraph_free(back);
    unlink(path);
}

START_TEST(writer_round_trip)
{
    /* ~200k arcs: several flushes of the writer's buffer. Weights of every
     * size and sign; for reals also the extremes of the double range the
     * readers accept (subnormals, 2^62). */
    pf_rng rng;
    pf_rng_seed(&rng, 42 + (uint64_t)_i);
    pf_status st;
    int64_t n = 1000, m = 200000;
    pf_wgraph *g = pf_wgraph_new(n, &st);
    static const double real_extremes[] = {0x1p-1074, -0x1p-1022, 0x1p62, -0x1p62, 1e-300,
                                           0.1, -1.0 / 3};
    for (int64_t i = 0; i < m; i++) {
        int64_t u = pf_rng_range(&rng, 0, n - 1), v = pf_rng_range(&rng, 0, n - 1);
        int64_t bits = pf_rng_range(&rng, 0, 62);
        int64_t w = pf_rng_range(&rng, -((int64_t)1 << bits), (int64_t)1 << bits);
        if (_i == 0) {
            pf_wgraph_add_arc(g, u, v, w, &st);
        } else {
            double x = i < COUNT(real_extremes) ? real_extremes[i]
                                                : ldexp((double)w, -(int)(w & 127));
            ck_assert_int_eq(pf_wgraph_add_arc_real(g, u, v, x, &st), PF_OK);
        }
    }
    ck_assert_int_eq(pf_wgraph_is_real(g), _i);
    round_trip(g);
    pf_wgraph_free(g);
}
END_TEST

START_TEST(writer_errors)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_new(2, &st);
    pf_wgraph_add_arc(g, 0, 1, 3, &st);
    FILE *full = fopen("/dev/full", "wb");
    ck_assert_int_eq(pf_wgraph_write_dimacs(g, full, NULL, &st), PF_E_INPUT);
    ck_assert_str_eq(st.message, "<output stream>: write failed: No space left on device");
    fclose(full);
    pf_wgraph_free(g);
}
END_TEST

/* ---- generator ------------------------------------------------------------ */

static pf_wgen_params params(int64_t n, int64_t m, uint64_t seed)
{
    return (pf_wgen_params){.vertices = n, .arcs = m, .min = 1, .max = 1000, .min_real = 1,
                            .max_real = 1000, .seed = seed};
}

static pf_wgraph *generate(const pf_wgen_params *w)
{
    pf_status st;
    pf_wgraph *g = pf_gen_wgraph(w, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(st.code, PF_OK);
    return g;
}

/* Exactly the requested count of arcs, sorted by (tail, head) and so
 * without parallel arcs, no self-loop, weights in [lo, hi]. */
static void expect_simple(const pf_wgraph *g, int64_t n, int64_t m, double lo, double hi)
{
    ck_assert_int_eq(g->n, n);
    ck_assert_int_eq(g->m, m);
    int64_t i = 0;
    for (; i < m; i++) {
        int64_t key = (int64_t)g->tail[i] * n + g->head[i];
        int64_t prev = i ? (int64_t)g->tail[i - 1] * n + g->head[i - 1] : -1;
        double w = weight_of(g, i);
        if (g->tail[i] == g->head[i] || key <= prev || !(w >= lo && w <= hi))
            break;
    }
    ck_assert_msg(i == m, "arc %lld (%d,%d,%.17g) breaks the rules", (long long)i,
                  i < m ? g->tail[i] : -1, i < m ? g->head[i] : -1,
                  i < m ? weight_of(g, i) : 0.0);
}

START_TEST(gen_counts_and_determinism)
{
    /* Sparse (random draws) and dense (every pair visited) sides, the
     * complete graph, N = 1. */
    static const int64_t sizes[][2] = {{200, 800}, {200, 30000}, {30, 870}, {1, 0}, {2, 2}};
    for (int s = 0; s < COUNT(sizes); s++) {
        pf_wgen_params w = params(sizes[s][0], sizes[s][1], 7);
        pf_wgraph *a = generate(&w), *b = generate(&w);
        expect_simple(a, w.vertices, w.arcs, 1, 1000);
        ck_assert_msg(same_graph(a, b), "seed 7 gave two graphs for size %d", s);
        w.seed = 8;
        pf_wgraph *c = generate(&w);
        if (w.arcs > 1)
            ck_assert_msg(!same_graph(a, c), "seeds 7 and 8 gave the same graph");
        pf_wgraph_free(a);
        pf_wgraph_free(b);
        pf_wgraph_free(c);
    }
    ck_assert_int_eq(pf_wgen_arcs_for_density(100, 0.5), 4950);
    ck_assert_int_eq(pf_wgen_arcs_for_density(100, 1), 9900);
    ck_assert_int_eq(pf_wgen_arcs_for_density(1, 1), 0);
    ck_assert_int_eq(pf_wgen_arcs_for_density(3, 0.01), 0);
}
END_TEST

/* A negative cycle? Bellman-Ford from a virtual source joined to every
 * vertex by weight 0: a relaxation in round n means a negative cycle. The
 * generator's real weights sum exactly, so doubles decide it exactly. */
static int has_negative_cycle(const pf_wgraph *g)
{
    double *dist = calloc((size_t)g->n, sizeof *dist);
    int changed = 1;
    for (int64_t round = 0; round <= g->n && changed; round++) {
        changed = 0;
        for (int64_t i = 0; i < g->m; i++) {
            double via = dist[g->tail[i]] + weight_of(g, i);
            if (via < dist[g->head[i]]) {
                dist[g->head[i]] = via;
                changed = 1;
            }
        }
    }
    free(dist);
    return changed;
}

START_TEST(gen_negative_without_negative_cycles)
{
    /* Integers, then reals; sparse and dense. */
    for (int dense = 0; dense < 2; dense++) {
        pf_wgen_params w = params(150, dense ? 150 * 149 : 600, 3);
        w.real = _i;
        w.negative = 1;
        w.min = 0;
        w.max = 50;
        w.min_real = 0;
        w.max_real = 0.5;
        pf_wgraph *g = generate(&w);
        double hi = _i ? 2 * w.max_real : 2.0 * (double)w.max;
        expect_simple(g, w.vertices, w.arcs, -hi / 2, hi);
        ck_assert_int_eq(pf_wgraph_is_real(g), _i);
        int negatives = 0;
        for (int64_t i = 0; i < g->m; i++)
            negatives += weight_of(g, i) < 0;
        ck_assert_msg(negatives > g->m / 10, "only %d negative weights", negatives);
        ck_assert_msg(!has_negative_cycle(g), "a negative cycle");
        pf_wgraph_free(g);
    }
    /* Plain negative weights can make negative cycles: the check sees them. */
    pf_wgen_params w = params(50, 500, 3);
    w.min = -10;
    w.max = 1;
    pf_wgraph *g = generate(&w);
    ck_assert(has_negative_cycle(g));
    pf_wgraph_free(g);
}
END_TEST

START_TEST(gen_reals)
{
    pf_wgen_params w = params(100, 2000, 5);
    w.real = 1;
    w.min_real = -0.75;
    w.max_real = 0.25;
    pf_wgraph *g = generate(&w);
    ck_assert(pf_wgraph_is_real(g));
    expect_simple(g, 100, 2000, -0.75, 0.25);
    round_trip(g);
    pf_wgraph_free(g);
    /* min = max: that one weight (on the grid: 0.1 is rounded to it). */
    w.min_real = w.max_real = 0.1;
    g = generate(&w);
    ck_assert(fabs(g->real_weight[0] - 0.1) < 1e-12 && g->real_weight[0] == g->real_weight[1999]);
    pf_wgraph_free(g);
}
END_TEST

START_TEST(gen_bad_params)
{
    static const struct {
        pf_wgen_params w;
        const char *needle;
    } bad[] = {
        {{.vertices = 0, .max = 1}, "vertex count n = 0 outside 1..2147483646"},
        {{.vertices = 3, .arcs = 7, .max = 1}, "arc count m = 7 outside 0..n(n-1) = 6"},
        {{.vertices = 3, .arcs = -1, .max = 1}, "arc count m = -1"},
        {{.vertices = 3, .min = 5, .max = 4}, "min = 5 exceeds max = 4"},
        {{.vertices = 3, .max = PF_WEIGHT_MAX + 1}, "must lie within"},
        {{.vertices = 3, .max = PF_WEIGHT_MAX, .negative = 1}, "must lie within"},
        {{.vertices = 3, .min = -1, .max = 3, .negative = 1}, "negative needs min >= 0"},
        {{.vertices = 3, .real = 1, .min_real = NAN, .max_real = 1}, "must be finite"},
        {{.vertices = 3, .real = 1, .min_real = 2, .max_real = 1}, "min = 2 exceeds max = 1"},
        {{.vertices = 3, .real = 1, .min_real = -1, .max_real = 1, .negative = 1},
         "negative needs min >= 0"},
    };
    for (int i = 0; i < COUNT(bad); i++) {
        pf_status st;
        ck_assert_ptr_null(pf_gen_wgraph(&bad[i].w, &st));
        ck_assert_int_eq(st.code, PF_E_USAGE);
        ck_assert_msg(strstr(st.message, bad[i].needle), "case %d: '%s'", i, st.message);
    }
}
END_TEST

/* `portaflow gen sp` writes what pf_gen_wgraph builds, says which weights
 * it produced, and refuses options of other families. */
START_TEST(gen_cli)
{
    const char *path = pf_test_tmpname();
    const char *args[] = {"gen", "sp", "40", "--density", "0.25", "--min", "2", "--max", "9",
                          "--negative", "--seed", "11", "-o", path, NULL};
    char *out, *err;
    ck_assert_int_eq(pf_test_run_cli(args, NULL, &out, &err), 0);
    free(out), free(err);
    pf_wgen_params w = params(40, 390, 11);
    w.min = 2;
    w.max = 9;
    w.negative = 1;
    pf_wgraph *want = generate(&w);
    pf_status st;
    pf_wgraph *got = pf_wgraph_read(path, &st);
    ck_assert_msg(got != NULL, "%s", st.message);
    ck_assert(same_graph(want, got));
    char range[128], line[192];
    pf_wgraph_weight_range(want, range, sizeof range);
    snprintf(line, sizeof line, "\nc weights produced: %s\np sp 40 390\n", range);
    char *text = pf_test_read_file(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, line), "no '%s' in the file", line);
    ck_assert(range[1] == '-'); /* negative weights were produced */
    free(text);
    pf_wgraph_free(got);
    pf_wgraph_free(want);

    const char *real_args[] = {"gen", "sp", "5", "--real", "--min", "-1.5", "--max", "2.5",
                               NULL};
    ck_assert_int_eq(pf_test_run_cli(real_args, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "--min -1.5 --max 2.5 --real\n"));
    ck_assert_ptr_nonnull(strstr(out, "p sp 5 20\n")); /* 8N capped at N(N-1) */
    free(out), free(err);

    static const char *const bad[][8] = {
        {"gen", "sp", "5", "--cap", "3", NULL},
        {"gen", "rmf", "2", "2", "--negative", NULL},
        {"gen", "sp", "5", "--arcs", "3", "--density", "0.5", NULL},
        {"gen", "sp", "5", "--density", "1.5", NULL},
        {"gen", "sp", "5", "--min", "1.5", NULL},
        {"gen", "sp", "5", "--arcs", "21", NULL},
    };
    for (int i = 0; i < COUNT(bad); i++) {
        ck_assert_int_eq(pf_test_run_cli(bad[i], NULL, &out, &err), 1);
        ck_assert_msg(strlen(err) > 0, "case %d: no message", i);
        free(out), free(err);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("wparser");

    TCase *tc = tcase_create("dimacs_sp");
    tcase_add_test(tc, sp_good);
    tcase_add_test(tc, sp_reals);
    tcase_add_loop_test(tc, sp_bad_input, 0, COUNT(sp_bad));
    tcase_add_test(tc, missing_file_and_nul);
    suite_add_tcase(s, tc);

    tc = tcase_create("matrix_market");
    tcase_add_test(tc, mtx_good);
    tcase_add_loop_test(tc, mtx_bad_input, 0, COUNT(mtx_bad));
    suite_add_tcase(s, tc);

    tc = tcase_create("matrix");
    tcase_add_test(tc, matrix_good);
    tcase_add_loop_test(tc, matrix_bad_input, 0, COUNT(matrix_bad));
    suite_add_tcase(s, tc);

    tc = tcase_create("writer");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, writer_exact_text);
    tcase_add_loop_test(tc, writer_round_trip, 0, 2);
    tcase_add_test(tc, writer_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("generator");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, gen_counts_and_determinism);
    tcase_add_loop_test(tc, gen_negative_without_negative_cycles, 0, 2);
    tcase_add_test(tc, gen_reals);
    tcase_add_test(tc, gen_bad_params);
    tcase_add_test(tc, gen_cli);
    suite_add_tcase(s, tc);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
