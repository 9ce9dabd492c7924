/* The analytics graph's inputs and checks: the edge-list reader and its
 * FILE:LINE errors, the other formats through pf_csr_read, the binary and
 * text writers' round trips, the generators' determinism, the verifiers
 * catching each broken rule, and the bfs/sssp/tc/gen command lines. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/graph_csr.h"
#include "common/graph_gen.h"
#include "common/graph_verify.h"
#include "host/graph.h"
#include "support.h"

static pf_csr *read_text(const char *text, int zero_based, int undirected, pf_status *st)
{
    pf_csr_read_options opt = {.zero_based = zero_based, .undirected = undirected};
    return pf_csr_read(pf_test_tmpfile(text), &opt, st);
}

static void expect_error(const char *text, int zero_based, int line, const char *needle)
{
    pf_status st;
    const char *path = pf_test_tmpfile(text);
    pf_csr_read_options opt = {.zero_based = zero_based};
    pf_csr *g = pf_csr_read(path, &opt, &st);
    ck_assert_msg(g == NULL, "accepted: %s", text);
    pf_test_assert_input_error(&st, path, line, needle);
}

START_TEST(edge_lists)
{
    pf_status st;
    pf_csr *g = read_text("# SNAP style\n% another comment\n\n1\t2\n2 3\n3 1\n1 2\n", 0, 0, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(g->n, 3);
    ck_assert_int_eq(g->m, 4);
    ck_assert_int_eq(g->weights, PF_CSR_W_NONE);
    /* Rows sorted by head: 1 -> 2 twice. */
    ck_assert_int_eq(g->first[1], 2);
    ck_assert_int_eq(g->head[0], 1);
    ck_assert_int_eq(g->head[1], 1);
    pf_csr_free(g);
    g = read_text("0 2\n", 1, 0, &st); /* 0-based: vertex 1 has no arc */
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(g->n, 3);
    pf_csr_free(g);
    g = read_text("1 2 5\n2 3 -1.5\n3 3 2\n", 0, 1, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(g->weights, PF_CSR_W_F64);
    ck_assert_int_eq(g->m, 5); /* two edges both ways, the self-loop once */
    ck_assert(g->undirected);
    pf_csr_free(g);
    g = read_text("1 2 5\n2 1 7\n", 0, 0, &st); /* 1-based */
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(g->n, 2);
    ck_assert_int_eq(g->int_weight[0], 5);
    pf_csr_free(g);
}
END_TEST

START_TEST(edge_list_errors)
{
    expect_error("1 2\n2 x\n", 0, 2, "head 'x' is not a vertex id");
    expect_error("1 2 3\n2 3\n", 0, 2, "no weight, but line 1 has one");
    expect_error("1 2\n2 3 4\n", 0, 2, "a weight, but line 1 has no");
    expect_error("# c\n0 1\n", 0, 2, "--zero-based");
    expect_error("1 2 3\n1 2 3 4\n", 0, 2, "extra text");
    expect_error("1 2 abc\n", 0, 1, "weight 'abc' is not a number");
    expect_error("# only comments\n", 0, 2, "no arcs");
}
END_TEST

START_TEST(other_formats)
{
    pf_status st;
    pf_csr *g = read_text("c sp\np sp 3 2\na 1 2 4\na 2 3 5\n", 0, 0, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(g->n, 3);
    ck_assert_int_eq(g->weights, PF_CSR_W_I64);
    pf_csr_free(g);
    g = read_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", 0, 0,
                  &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(g->m, 4);
    pf_csr_free(g);
    g = read_text("3\n0 1 0\n0 0 2\n0 0 0\n", 0, 0, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert_int_eq(g->m, 2);
    pf_csr_free(g);
    expect_error("p sp 2 1\na 1 3 1\n", 0, 2, "head 3");
}
END_TEST

static void expect_same(const pf_csr *a, const pf_csr *b)
{
    ck_assert_int_eq(a->n, b->n);
    ck_assert_int_eq(a->m, b->m);
    ck_assert_int_eq(a->weights, b->weights);
    ck_assert(!memcmp(a->first, b->first, (size_t)(a->n + 1) * 8));
    ck_assert(!memcmp(a->head, b->head, (size_t)a->m * 4));
    if (a->int_weight)
        ck_assert(!memcmp(a->int_weight, b->int_weight, (size_t)a->m * 8));
}

START_TEST(writers_round_trip)
{
    pf_ggen_params p = {.family = "kron", .size = {8}, .edgefactor = 8, .wmin = 1, .wmax = 50,
                        .seed = 9};
    pf_status st;
    pf_csr *g = pf_ggen(&p, &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    const char *path = pf_test_tmpname();
    FILE *out = fopen(path, "wb");
    ck_assert_int_eq(pf_csr_write_bin(g, out, &st), PF_OK);
    fclose(out);
    pf_csr *back = pf_csr_read(path, NULL, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    ck_assert(back->undirected);
    expect_same(g, back);
    pf_csr_free(back);
    /* A truncated binary file is refused with its sizes. */
    char *bytes = pf_test_read_file(path);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_int_eq(truncate(path, 100), 0);
    ck_assert_ptr_null(pf_csr_read(path, NULL, &st));
    ck_assert_int_eq(st.code, PF_E_INPUT);
    ck_assert_ptr_nonnull(strstr(st.message, "bytes"));
    free(bytes);
    /* The edge list, read back as 0-based undirected, and DIMACS. */
    const char *el = pf_test_tmpname();
    out = fopen(el, "w");
    ck_assert_int_eq(pf_csr_write_el(g, out, "kron 8", &st), PF_OK);
    fclose(out);
    pf_csr_read_options opt = {.zero_based = 1, .undirected = 1};
    back = pf_csr_read(el, &opt, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    back->n = g->n; /* the highest ids may have no edge */
    ck_assert_int_eq(back->m, g->m);
    pf_csr_free(back);
    const char *gr = pf_test_tmpname();
    out = fopen(gr, "w");
    ck_assert_int_eq(pf_csr_write_dimacs(g, out, "kron 8", &st), PF_OK);
    fclose(out);
    back = pf_csr_read(gr, NULL, &st);
    ck_assert_msg(back != NULL, "%s", st.message);
    back->undirected = g->undirected;
    expect_same(g, back);
    pf_csr_free(back);
    pf_csr_free(g);
}
END_TEST

START_TEST(kron_is_reproducible_and_simple)
{
    pf_ggen_params p = {.family = "kron", .size = {10}, .edgefactor = 16, .seed = 5};
    pf_status st;
    pf_csr *a = pf_ggen(&p, &st), *b = pf_ggen(&p, &st);
    ck_assert_int_eq(a->n, 1024);
    expect_same(a, b);
    for (int64_t u = 0; u < a->n; u++)
        for (int64_t k = a->first[u]; k < a->first[u + 1]; k++) {
            PF_EXPECT(a->head[k] != u, "self-loop at %lld", (long long)u);
            PF_EXPECT(k == a->first[u] || a->head[k] > a->head[k - 1], "repeat at %lld",
                      (long long)u);
        }
    /* Skewed degrees: the largest far above the mean of 2 * 16. */
    int64_t most = 0;
    for (int64_t u = 0; u < a->n; u++)
        most = a->first[u + 1] - a->first[u] > most ? a->first[u + 1] - a->first[u] : most;
    ck_assert_int_gt(most, 8 * a->m / a->n);
    p.seed = 6;
    pf_csr *c = pf_ggen(&p, &st);
    ck_assert(c->m != a->m || memcmp(c->head, a->head, (size_t)a->m * 4) != 0);
    pf_csr_free(a), pf_csr_free(b), pf_csr_free(c);
}
END_TEST

/* 0 -> 1 -> 2, 0 -> 2, 3 unreachable, weights 1, 1, 5. */
static pf_csr *small(void)
{
    int32_t tail[] = {0, 1, 0}, head[] = {1, 2, 2};
    int64_t w[] = {1, 1, 5};
    pf_status st;
    return pf_csr_from_arcs(4, 3, tail, head, w, NULL, 0, &st);
}

START_TEST(bfs_verifier_catches)
{
    pf_csr *g = small();
    pf_status st;
    int32_t dist[] = {0, 1, 1, -1}, parent[] = {0, 0, 0, -1};
    ck_assert_int_eq(pf_bfs_verify(g, 0, dist, parent, 1, &st), PF_OK);
    int32_t bad_source[] = {1, 1, 1, -1};
    ck_assert_int_eq(pf_bfs_verify(g, 0, bad_source, NULL, 0, &st), PF_E_VERIFY);
    int32_t skips[] = {0, 1, 3, -1}; /* 0 -> 2 jumps levels */
    ck_assert_int_eq(pf_bfs_verify(g, 0, skips, NULL, 0, &st), PF_E_VERIFY);
    int32_t unjustified[] = {0, 1, 1, 2}; /* 3 has no in-arc */
    ck_assert_int_eq(pf_bfs_verify(g, 0, unjustified, NULL, 0, &st), PF_E_VERIFY);
    ck_assert_ptr_nonnull(strstr(st.message, "vertex 4"));
    int32_t wrong_parent[] = {0, 0, 1, -1}; /* 1 is at level 1, not 0 */
    ck_assert_int_eq(pf_bfs_verify(g, 0, dist, wrong_parent, 0, &st), PF_E_VERIFY);
    int32_t unreached_parent[] = {0, 0, 0, 2};
    ck_assert_int_eq(pf_bfs_verify(g, 0, dist, unreached_parent, 0, &st), PF_E_VERIFY);
    pf_csr_free(g);
    /* Two parents possible: the smallest-id rule. */
    int32_t tail[] = {0, 0, 1, 2}, head[] = {1, 2, 3, 3};
    g = pf_csr_from_arcs(4, 4, tail, head, NULL, NULL, 0, &st);
    int32_t d2[] = {0, 1, 1, 2}, p_big[] = {0, 0, 0, 2}, p_small[] = {0, 0, 0, 1};
    ck_assert_int_eq(pf_bfs_verify(g, 0, d2, p_big, 0, &st), PF_OK);
    ck_assert_int_eq(pf_bfs_verify(g, 0, d2, p_big, 1, &st), PF_E_VERIFY);
    ck_assert_int_eq(pf_bfs_verify(g, 0, d2, p_small, 1, &st), PF_OK);
    pf_csr_free(g);
}
END_TEST

START_TEST(sssp_verifier_catches)
{
    pf_csr *g = small();
    pf_status st;
    int64_t none = PF_SSSP_NONE_I64;
    int64_t good[] = {0, 1, 2, none};
    ck_assert_int_eq(pf_sssp_verify(g, 0, good, NULL, &st), PF_OK);
    int64_t shortenable[] = {0, 1, 3, none};
    ck_assert_int_eq(pf_sssp_verify(g, 0, shortenable, NULL, &st), PF_E_VERIFY);
    int64_t too_short[] = {0, 1, 1, none}; /* realised by no arc */
    ck_assert_int_eq(pf_sssp_verify(g, 0, too_short, NULL, &st), PF_E_VERIFY);
    int64_t unreached[] = {0, 1, none, none};
    ck_assert_int_eq(pf_sssp_verify(g, 0, unreached, NULL, &st), PF_E_VERIFY);
    int64_t invented[] = {0, 1, 2, 7};
    ck_assert_int_eq(pf_sssp_verify(g, 0, invented, NULL, &st), PF_E_VERIFY);
    double real[] = {0, 1, 2, 1.0 / 0.0};
    ck_assert_int_eq(pf_sssp_verify(g, 0, NULL, real, &st), PF_OK);
    pf_csr_free(g);
}
END_TEST

START_TEST(triangles_known)
{
    /* K4 with repeats, a self-loop and both directions: 4 triangles. */
    int32_t tail[] = {0, 0, 0, 1, 1, 2, 1, 2, 3, 0}, head[] = {1, 2, 3, 2, 3, 3, 0, 2, 2, 1};
    pf_status st;
    pf_csr *g = pf_csr_from_arcs(5, 10, tail, head, NULL, NULL, 0, &st);
    pf_graph_options opt;
    pf_graph_options_init(&opt);
    opt.backend = "seq";
    pf_tc_result r;
    ck_assert_int_eq(pf_graph_tc(g, &opt, &r, &st), PF_OK);
    ck_assert_int_eq(r.triangles, 4);
    ck_assert_int_eq(r.edges, 6);
    pf_csr_free(g);
}
END_TEST

static int run(const char *const *args, const char *in, char **out, char **err)
{
    return pf_test_run_cli(args, in, out, err);
}

START_TEST(cli_lines)
{
    const char *path = pf_test_tmpfile("p sp 4 3\na 1 2 1\na 2 3 1\na 1 3 5\n");
    char *out, *err;
    const char *bfs[] = {"bfs", "--stats", "-b", "seq", path, NULL};
    ck_assert_int_eq(run(bfs, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\ns reached 3\ns depth 1\ns checksum 2\n"));
    free(out), free(err);
    const char *rows[] = {"bfs", "--parents", "--verify", path, NULL};
    ck_assert_int_eq(run(rows, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "d 1 0 1\nd 2 1 1\nd 3 1 1\nd 4 inf -\n"));
    free(out), free(err);
    const char *sssp[] = {"sssp", "--stats", "--source", "1", "--verify", path, NULL};
    ck_assert_int_eq(run(sssp, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "s reached 3\ns max_distance 2\ns checksum 3\n"));
    free(out), free(err);
    const char *sssp_rows[] = {"sssp", path, NULL};
    ck_assert_int_eq(run(sssp_rows, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "d 1 0\nd 2 1\nd 3 2\nd 4 inf\n"));
    free(out), free(err);
    const char *tc[] = {"tc", "--verify", path, NULL};
    ck_assert_int_eq(run(tc, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "s triangles 1\n"));
    free(out), free(err);
    const char *json[] = {"bfs", "--stats", "--json", path, NULL};
    ck_assert_int_eq(run(json, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"reached\":3,\"depth\":1,\"checksum\":2"));
    ck_assert_ptr_nonnull(strstr(out, "\"levels\":[{\"level\":1,\"vertices\":2"));
    free(out), free(err);
}
END_TEST

/* --out, --json rows, 0-based ids and --undirected on an edge list. */
START_TEST(cli_out_and_json)
{
    const char *path = pf_test_tmpfile("# 0-based\n0 1 2\n1 2 2\n0 2 5\n");
    const char *file = pf_test_tmpname();
    char *out, *err;
    const char *bfs[] = {"bfs", "--zero-based", "--undirected", "--parents", "-o", file, path, NULL};
    ck_assert_int_eq(run(bfs, NULL, &out, &err), 0);
    ck_assert_str_eq(out, "");
    free(out), free(err);
    char *text = pf_test_read_file(file);
    ck_assert_ptr_nonnull(strstr(text, "\nd 0 0 0\nd 1 1 0\nd 2 1 0\n"));
    free(text);
    const char *sssp[] = {"sssp", "--zero-based", "--undirected", "--json", "--source", "2", path,
                          NULL};
    ck_assert_int_eq(run(sssp, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"source\":2"));
    ck_assert_ptr_nonnull(strstr(out, "\"distances\":[4,2,0]"));
    free(out), free(err);
    const char *tc[] = {"tc", "--json", "--zero-based", path, NULL};
    ck_assert_int_eq(run(tc, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"edges\":3,\"triangles\":1"));
    free(out), free(err);
}
END_TEST

START_TEST(cli_errors)
{
    const char *path = pf_test_tmpfile("p sp 3 3\na 1 2 1\na 2 3 -4\na 3 2 1\n");
    char *out, *err;
    const char *cycle[] = {"sssp", path, NULL};
    ck_assert_int_eq(run(cycle, NULL, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_ptr_nonnull(strstr(err, "negative cycle of 2 arcs, weight -3:"));
    free(out), free(err);
    const char *source[] = {"bfs", "--source", "9", path, NULL};
    ck_assert_int_eq(run(source, NULL, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(err, "outside 1..3"));
    free(out), free(err);
    const char *bad = pf_test_tmpfile("1 2\n2 q\n");
    const char *input[] = {"tc", bad, NULL};
    ck_assert_int_eq(run(input, NULL, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, ":2: head 'q'"));
    ck_assert_str_eq(out, "");
    free(out), free(err);
    const char *none[] = {"bfs", NULL};
    ck_assert_int_eq(run(none, NULL, &out, &err), 1);
    free(out), free(err);
}
END_TEST

START_TEST(cli_gen_formats)
{
    char *out, *err;
    const char *bin = pf_test_tmpname();
    const char *gen[] = {"gen", "kron", "8", "--weights", "1:9", "--format", "bin", "-o", bin, NULL};
    ck_assert_int_eq(run(gen, NULL, &out, &err), 0);
    free(out), free(err);
    const char *bfs[] = {"bfs", "--stats", "--verify", bin, NULL};
    ck_assert_int_eq(run(bfs, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "c verified"));
    char *first = out;
    free(err);
    /* The same graph as an edge list, read back 0-based and undirected:
     * the same BFS from the same vertex (id 0 there). */
    const char *el = pf_test_tmpname();
    const char *gen_el[] = {"gen", "kron", "8", "--weights", "1:9", "--format", "el", "-o", el, NULL};
    ck_assert_int_eq(run(gen_el, NULL, &out, &err), 0);
    free(out), free(err);
    const char *bfs_el[] = {"bfs", "--stats", "--zero-based", "--undirected", el, NULL};
    ck_assert_int_eq(run(bfs_el, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(first, strstr(out, "s reached")));
    free(first), free(out), free(err);
    const char *bad[] = {"gen", "kron", "8", "--cap", "5", NULL};
    ck_assert_int_eq(run(bad, NULL, &out, &err), 1);
    free(out), free(err);
    const char *bad_w[] = {"gen", "grid2d", "4", "4", "--weights", "5:1", NULL};
    ck_assert_int_eq(run(bad_w, NULL, &out, &err), 1);
    free(out), free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("graph_io");
    TCase *tc = tcase_create("graph_io");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, edge_lists);
    tcase_add_test(tc, edge_list_errors);
    tcase_add_test(tc, other_formats);
    tcase_add_test(tc, writers_round_trip);
    tcase_add_test(tc, kron_is_reproducible_and_simple);
    tcase_add_test(tc, bfs_verifier_catches);
    tcase_add_test(tc, sssp_verifier_catches);
    tcase_add_test(tc, triangles_known);
    tcase_add_test(tc, cli_lines);
    tcase_add_test(tc, cli_out_and_json);
    tcase_add_test(tc, cli_errors);
    tcase_add_test(tc, cli_gen_formats);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
