/* Check suite "text": what every text reader does with the bytes around
 * the numbers (issue 23, defect 7): a UTF-8 byte order mark at the start is
 * skipped, lines ended by a carriage return alone get a message saying so,
 * and bytes that are not printable ASCII reach messages as \xNN. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/io.h"
#include "common/wgraph.h"
#include "support.h"

static pf_network *solution_network(void)
{
    pf_status st;
    pf_network *net = pf_network_read_dimacs(
        pf_test_tmpfile("p max 3 3\nn 1 s\nn 3 t\na 1 2 3\na 2 3 3\na 1 3 2\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    return net;
}

#define BOM "\xef\xbb\xbf"

/* A UTF-8 byte order mark at the start is skipped by every reader: a
 * mapped file (_i = 0) and one read into a buffer (1, a page-sized file). */
START_TEST(utf8_bom_accepted)
{
    char text[8192];
    const char *body = BOM "p max 3 1\nn 1 s\nn 3 t\na 1 3 9\n";
    snprintf(text, sizeof text, "%s", body);
    if (_i == 1) {
        size_t len = strlen(text);
        long page = sysconf(_SC_PAGESIZE);
        ck_assert_int_lt(page, (long)sizeof text);
        text[len] = 'c'; /* one comment line pads the file to a page */
        memset(text + len + 1, ' ', (size_t)page - len - 2);
        text[page - 1] = '\n';
        text[page] = '\0';
    }
    pf_status st;
    pf_network *net = pf_network_read(pf_test_tmpfile(text), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    pf_test_assert_arc(net, 0, 0, 2, 9);
    pf_network_free(net);

    net = pf_network_read(pf_test_tmpfile(BOM "3\n0 4 0\n0 0 5\n0 0 0\n"), &st);
    ck_assert_msg(net != NULL, "%s", st.message);
    ck_assert_int_eq(net->m, 2);
    pf_network_free(net);

    net = solution_network();
    pf_solution_file sol;
    const char *path = pf_test_tmpfile(BOM "s 5\nn 1\n");
    ck_assert_msg(pf_solution_read(path, net, &sol, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(sol.value, 5);
    pf_solution_file_free(&sol);
    pf_network_free(net);

    /* Only at the start: elsewhere it is text like any other. */
    const char *late = pf_test_tmpfile("p max 3 1\n" BOM "n 1 s\nn 3 t\na 1 3 9\n");
    ck_assert_ptr_null(pf_network_read(late, &st));
    pf_test_assert_input_error(&st, late, 2, "\\xef\\xbb\\xbfn");
}
END_TEST

/* Bytes that are not printable ASCII reach messages as \xNN: an escape
 * sequence in a bad field must not reach the terminal. */
START_TEST(unprintable_bytes_escaped)
{
    pf_status st;
    const char *path = pf_test_tmpfile("p max 2 1\nn 1 s\nn 2 t\na 1 2 \x1b[31m\x7f\xc3\xa9\n");
    ck_assert_ptr_null(pf_network_read(path, &st));
    pf_test_assert_input_error(&st, path, 4, "capacity '\\x1b[31m\\x7f\\xc3\\xa9' is not a number");
    for (const char *p = st.message; *p; p++)
        ck_assert_msg(*p >= 0x20 && *p < 0x7f, "raw byte 0x%02x in '%s'", (unsigned char)*p,
                      st.message);
}
END_TEST

/* Old Mac line ends (CR alone) get a message saying so, on line 1. */
START_TEST(cr_only_line_ends)
{
    pf_status st;
    const char *path = pf_test_tmpfile("p max 2 1\rn 1 s\rn 2 t\ra 1 2 7\r");
    ck_assert_ptr_null(pf_network_read(path, &st));
    pf_test_assert_input_error(&st, path, 1, "carriage return alone");
    /* CRLF stays fine, and so does a stray CR in a file with newlines. */
    pf_network *net = pf_network_read(pf_test_tmpfile("p max 2 1\r\nn 1 s\rn 2 t\na 1 2 7\n"),
                                      &st);
    ck_assert_ptr_null(net);
    ck_assert_msg(strstr(st.message, "carriage") == NULL, "%s", st.message);
}
END_TEST

/* A UTF-8 byte order mark at the start is skipped by every weighted-graph
 * reader (issue 23, defect 7). */
START_TEST(utf8_bom_accepted_weighted)
{
    pf_status st;
    pf_wgraph *g = pf_wgraph_read(pf_test_tmpfile(BOM "p sp 2 1\na 1 2 -4\n"), &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert(g->n == 2 && g->m == 1 && g->int_weight[0] == -4);
    pf_wgraph_free(g);
    g = pf_wgraph_read(pf_test_tmpfile(BOM "%%MatrixMarket matrix coordinate integer general\n"
                                           "2 2 1\n2 1 6\n"),
                       &st);
    ck_assert_msg(g != NULL, "%s", st.message);
    ck_assert(g->n == 2 && g->m == 1 && g->tail[0] == 1 && g->int_weight[0] == 6);
    pf_wgraph_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("text");
    tcase_add_loop_test(tc, utf8_bom_accepted, 0, 2);
    tcase_add_test(tc, utf8_bom_accepted_weighted);
    tcase_add_test(tc, unprintable_bytes_escaped);
    tcase_add_test(tc, cr_only_line_ends);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
