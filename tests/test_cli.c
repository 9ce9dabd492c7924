/* The CLI contract other tools script against: output lines, JSON, exit
 * statuses, and nothing on stdout when the input is bad. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* CLRS network, with a parallel arc, a self-loop and an arc into s. */
static const char clrs[] =
    "c CLRS 26.1 plus awkward arcs\n"
    "p max 6 12\n"
    "n 1 s\n"
    "n 6 t\n"
    "a 1 2 16\na 1 3 13\na 2 3 10\na 3 2 4\na 2 4 12\na 4 3 9\n"
    "a 3 5 14\na 5 4 7\na 4 6 20\na 5 6 4\na 2 2 5\na 3 1 3\n";

static int count_prefix(const char *text, const char *prefix)
{
    int count = 0;
    size_t len = strlen(prefix);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, prefix, len))
            count++;
    return count;
}

static int run(const char *const *args, const char *in, char **out, char **err)
{
    return pf_test_run_cli(args, in, out, err);
}

START_TEST(solve_prints_value_flow_and_cut)
{
    const char *graph = pf_test_tmpfile(clrs);
    char *out, *err;
    const char *args[] = {"solve", "--backend", "seq", "--flow", "--cut", graph, NULL};
    ck_assert_int_eq(run(args, NULL, &out, &err), 0);
    ck_assert_int_eq(count_prefix(out, "s "), 1);
    ck_assert_ptr_nonnull(strstr(out, "\ns 23\n"));
    ck_assert_int_eq(count_prefix(out, "f "), 12);
    /* f lines in input order with the file's ids */
    const char *first_f = strstr(out, "\nf ");
    ck_assert_ptr_nonnull(first_f);
    ck_assert(!strncmp(first_f, "\nf 1 2 ", 7));
    ck_assert_ptr_nonnull(strstr(out, "\nf 2 2 0\n"));
    /* the cut side: s (1), 2, 3, 5 reach... canonical cut is {1,2,3,5} */
    ck_assert_int_eq(count_prefix(out, "n "), 4);
    ck_assert_ptr_nonnull(strstr(out, "\nn 1\n"));
    ck_assert_ptr_null(strstr(out, "\nn 6\n"));
    for (const char *p = out; *p; p = strchr(p, '\n') + 1) {
        ck_assert_msg(*p == 'c' || *p == 's' || *p == 'f' || *p == 'n', "stray line: %.40s", p);
        if (!strchr(p, '\n'))
            break;
    }

    /* The same through the checker. */
    const char *solution = pf_test_tmpfile(out);
    char *out2, *err2;
    const char *check_args[] = {"check", graph, solution, NULL};
    ck_assert_int_eq(run(check_args, NULL, &out2, &err2), 0);
    free(out);
    free(err);
    free(out2);
    free(err2);
}
END_TEST

START_TEST(every_backend_and_stdin)
{
    const char *graph = pf_test_tmpfile(clrs);
    const char *names[] = {"auto", "seq", "omp"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char *out, *err;
        const char *args[] = {"solve", "--backend", names[i], "--verify", "-", NULL};
        ck_assert_int_eq(run(args, graph, &out, &err), 0);
        ck_assert_ptr_nonnull(strstr(out, "\ns 23\n"));
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(json_output)
{
    const char *graph = pf_test_tmpfile(clrs);
    char *out, *err;
    const char *args[] = {"solve", "--json", "--flow", "--cut", graph, NULL};
    ck_assert_int_eq(run(args, NULL, &out, &err), 0);
    ck_assert(out[0] == '{');
    ck_assert_ptr_nonnull(strstr(out, "\"value\":23"));
    ck_assert_ptr_nonnull(strstr(out, "\"flow\":["));
    ck_assert_ptr_nonnull(strstr(out, "\"cut\":[1,"));
    ck_assert_int_eq(count_prefix(out, "{"), 1);
    ck_assert(!strcmp(out + strlen(out) - 2, "}\n"));
    free(out);
    free(err);
}
END_TEST

START_TEST(exit_statuses)
{
    const char *graph = pf_test_tmpfile(clrs);
    const char *bad = pf_test_tmpfile("p max 3 1\nn 1 s\nn 3 t\na 1 9 5\n");
    char *out, *err;

    const char *usage[] = {"solve", "--bogus", graph, NULL};
    ck_assert_int_eq(run(usage, NULL, &out, &err), 1);
    ck_assert_str_eq(out, "");
    free(out), free(err);

    const char *unknown_backend[] = {"solve", "--backend", "quantum", graph, NULL};
    ck_assert_int_eq(run(unknown_backend, NULL, &out, &err), 1);
    free(out), free(err);

    const char *bad_input[] = {"solve", "--flow", bad, NULL};
    ck_assert_int_eq(run(bad_input, NULL, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, ":4:") != NULL, "error names the line: %s", err);
    free(out), free(err);

    const char *missing[] = {"solve", "/nonexistent/graph.max", NULL};
    ck_assert_int_eq(run(missing, NULL, &out, &err), 2);
    ck_assert_str_eq(out, "");
    free(out), free(err);

    const char *no_device[] = {"solve", "--backend", "cuda", "--device", "99", graph, NULL};
    ck_assert_int_eq(run(no_device, NULL, &out, &err), 3);
    ck_assert_str_eq(out, "");
    ck_assert(strlen(err) > 0);
    free(out), free(err);

    const char *no_command[] = {NULL};
    ck_assert_int_eq(run(no_command, NULL, &out, &err), 1);
    free(out), free(err);

    const char *help[] = {"--help", NULL};
    ck_assert_int_eq(run(help, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage: portaflow"));
    free(out), free(err);
}
END_TEST

/* apsp: the rows, next hops, stats, and its exit statuses (a negative
 * cycle is bad input, named on stderr, with nothing on stdout). */
START_TEST(apsp_contract)
{
    const char *graph = pf_test_tmpfile("c small\np sp 4 4\na 1 2 5\na 2 3 -2\na 3 1 1\na 1 2 7\n");
    char *out, *err;
    const char *rows[] = {"apsp", "--backend", "seq", "--verify", graph, NULL};
    ck_assert_int_eq(run(rows, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\n0 5 3 inf\n-1 0 -2 inf\n1 6 0 inf\ninf inf inf 0\n"));
    ck_assert_ptr_nonnull(strstr(out, "c verified: 4 of 4 sources"));
    free(out), free(err);

    const char *paths[] = {"apsp", "--paths", graph, NULL};
    ck_assert_int_eq(run(paths, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\n\n1 2 2 -\n3 2 3 -\n1 1 3 -\n- - - 4\n"));
    free(out), free(err);

    const char *stats[] = {"apsp", "--stats", graph, NULL};
    ck_assert_int_eq(run(stats, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "s reachable_pairs 6\ns diameter 6\ns checksum 12\n"));
    ck_assert_ptr_null(strstr(out, "inf"));
    free(out), free(err);

    const char *cycle = pf_test_tmpfile("p sp 3 3\na 1 2 -1\na 2 3 -2\na 3 1 1\n");
    const char *negative[] = {"apsp", cycle, NULL};
    ck_assert_int_eq(run(negative, NULL, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, "negative cycle of 3 arcs, weight -2") != NULL, "%s", err);
    free(out), free(err);

    const char *bad = pf_test_tmpfile("p sp 3 1\na 1 4 2\n");
    const char *bad_input[] = {"apsp", bad, NULL};
    ck_assert_int_eq(run(bad_input, NULL, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, ":2:") != NULL, "error names the line: %s", err);
    free(out), free(err);

    const char *binary_needs_out[] = {"apsp", "--binary", graph, NULL};
    ck_assert_int_eq(run(binary_needs_out, NULL, &out, &err), 1);
    free(out), free(err);

    const char *forced[] = {"apsp", "--type", "i32", "--backend", "seq", pf_test_tmpfile(
        "p sp 3 2\na 1 2 400000000\na 2 3 400000000\n"), NULL};
    ck_assert_int_eq(run(forced, NULL, &out, &err), 1);
    ck_assert_msg(strstr(err, "int32 cannot hold") != NULL, "%s", err);
    free(out), free(err);
}
END_TEST

START_TEST(check_rejects_corrupted_solution)
{
    const char *graph = pf_test_tmpfile(clrs);
    char *out, *err;
    const char *args[] = {"solve", "--backend", "seq", "--flow", "--cut", graph, NULL};
    ck_assert_int_eq(run(args, NULL, &out, &err), 0);
    /* Corrupt the value. */
    char *s_line = strstr(out, "\ns 23\n");
    ck_assert_ptr_nonnull(s_line);
    s_line[4] = '4';
    const char *solution = pf_test_tmpfile(out);
    char *out2, *err2;
    const char *check_args[] = {"check", graph, solution, NULL};
    ck_assert_int_eq(run(check_args, NULL, &out2, &err2), 2);
    ck_assert(strlen(err2) > 0);
    free(out), free(err), free(out2), free(err2);
}
END_TEST

START_TEST(gen_counts_and_backends)
{
    char *out, *err;
    const char *gen[] = {"gen", "rmf", "3", "4", "--seed", "5", NULL};
    ck_assert_int_eq(run(gen, NULL, &out, &err), 0);
    /* 5a^2b - 4ab - a^2 = 180 - 48 - 9 = 123 arcs, 36 vertices */
    ck_assert_ptr_nonnull(strstr(out, "p max 36 123\n"));
    ck_assert_int_eq(count_prefix(out, "a "), 123);
    free(out), free(err);

    const char *bad_gen[] = {"gen", "rmf", "3", NULL};
    ck_assert_int_eq(run(bad_gen, NULL, &out, &err), 1);
    free(out), free(err);

    const char *backends[] = {"backends", NULL};
    ck_assert_int_eq(run(backends, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "omp"));
    ck_assert_ptr_nonnull(strstr(out, "seq"));
    free(out), free(err);
}
END_TEST

START_TEST(compare_agrees)
{
    const char *graph = pf_test_tmpfile(clrs);
    char *out, *err;
    const char *args[] = {"compare", graph, NULL};
    ck_assert_int_eq(run(args, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "| seq |"));
    ck_assert_ptr_nonnull(strstr(out, "| 23 |"));
    ck_assert_ptr_null(strstr(out, "FAILED"));
    free(out), free(err);
}
END_TEST

/* Every command: --help and -h print its usage and options and exit 0. */
START_TEST(help_for_every_command)
{
    static const struct {
        const char *command, *option;
    } commands[] = {
        {"solve", "--backend NAME"}, {"compare", "--repeat R"}, {"demo", "--threads T"},
        {"check", "--help"},         {"gen", "--out FILE"},     {"apsp", "--tile T"},
        {"backends", "--help"},
    };
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        for (int short_form = 0; short_form < 2; short_form++) {
            char *out, *err, usage[64];
            const char *args[] = {commands[i].command, short_form ? "-h" : "--help", NULL};
            ck_assert_int_eq(run(args, NULL, &out, &err), 0);
            snprintf(usage, sizeof usage, "usage: portaflow %s ", commands[i].command);
            ck_assert_msg(!strncmp(out, usage, strlen(usage)), "%s", out);
            ck_assert_msg(strstr(out, commands[i].option) != NULL, "%s lacks %s", out,
                          commands[i].option);
            ck_assert_ptr_nonnull(strstr(out, "exit status:"));
            ck_assert_str_eq(err, "");
            free(out), free(err);
        }
}
END_TEST

/* --opt=value, --opt value, short forms and options after the file all
 * mean the same; bad options exit 1 naming the option. */
START_TEST(option_forms)
{
    const char *graph = pf_test_tmpfile(clrs);
    char *graph_copy = strdup(graph);
    const char *const forms[][8] = {
        {"solve", "--backend", "seq", "--threads", "2", graph_copy, NULL},
        {"solve", "--backend=seq", "--threads=2", graph_copy, NULL},
        {"solve", "-b", "seq", "-t", "2", graph_copy, NULL},
        {"solve", "-bseq", "-t2", graph_copy, NULL},
        {"solve", graph_copy, "--backend", "seq", NULL},
        {"solve", "--backend", "seq", "--", graph_copy, NULL},
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        char *out, *err;
        ck_assert_msg(run(forms[i], NULL, &out, &err) == 0, "form %zu: %s", i, err);
        ck_assert_ptr_nonnull(strstr(out, "c backend seq\n"));
        ck_assert_ptr_nonnull(strstr(out, "\ns 23\n"));
        free(out), free(err);
    }
    static const struct {
        const char *args[7];
        const char *message;
    } bad[] = {
        {{"solve", "--bogus", NULL}, "'--bogus'"},
        {{"solve", "--bogus=3", NULL}, "'--bogus'"},
        {{"solve", "-x", NULL}, "'-x'"},
        {{"solve", "--flow=yes", NULL}, "--flow takes no value"},
        {{"apsp", "--type", NULL}, "--type needs a value"},
        {{"apsp", "-o", NULL}, "--out needs a value"},
        {{"solve", "--threads", "0", NULL}, "--threads"},
        {{"solve", "--device", "x", NULL}, "--device"},
        {{"compare", "--repeat", "64", "f", NULL}, "--repeat"},
        {{"solve", "a", "b", NULL}, "unexpected argument 'b'"},
        {{"backends", "extra", NULL}, "unexpected argument 'extra'"},
        {{"check", "only-one", NULL}, "GRAPH and SOLUTION"},
        {{"gen", "rmf", "2", "2", "--arcs", "5"}, "--arcs is not an option of rmf"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *out, *err;
        ck_assert_msg(run(bad[i].args, NULL, &out, &err) == 1, "bad %zu", i);
        ck_assert_str_eq(out, "");
        ck_assert_msg(strstr(err, bad[i].message) != NULL, "bad %zu: %s", i, err);
        ck_assert_msg(strstr(err, "--help") != NULL, "bad %zu points to --help: %s", i, err);
        free(out), free(err);
    }
    free(graph_copy);
}
END_TEST

/* gen: positional sizes mixed with options, and negative option values. */
START_TEST(gen_positional_and_negative_values)
{
    char *a_out, *a_err, *b_out, *b_err;
    const char *first[] = {"gen", "sp", "6", "--min", "-5", "--max=3", "--seed", "2", NULL};
    const char *second[] = {"gen", "--seed=2", "--min=-5", "sp", "--max", "3", "6", NULL};
    ck_assert_int_eq(run(first, NULL, &a_out, &a_err), 0);
    ck_assert_int_eq(run(second, NULL, &b_out, &b_err), 0);
    ck_assert_str_eq(a_out, b_out);
    ck_assert_ptr_nonnull(strstr(a_out, "--min -5 --max 3"));
    ck_assert_ptr_nonnull(strstr(a_out, "p sp 6 "));
    free(a_out), free(a_err), free(b_out), free(b_err);

    const char *negative_size[] = {"gen", "rmf", "-3", "2", NULL};
    ck_assert_int_eq(run(negative_size, NULL, &a_out, &a_err), 1);
    ck_assert_str_eq(a_out, "");
    free(a_out), free(a_err);
}
END_TEST

/* True when `text` is one valid JSON document (python3's json module). */
static int valid_json(const char *text)
{
    const char *path = pf_test_tmpfile(text);
    char command[512];
    snprintf(command, sizeof command,
             "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' %s", path);
    return system(command) == 0;
}

/* --json: solve, check, compare, backends and apsp --stats each print one
 * valid JSON object with the numbers of their text form. */
START_TEST(json_everywhere)
{
    char graph[256], sp[256], solution[256], wrong[256];
    snprintf(graph, sizeof graph, "%s", pf_test_tmpfile(clrs));
    snprintf(sp, sizeof sp, "%s", pf_test_tmpfile("p sp 4 4\na 1 2 5\na 2 3 -2\na 3 1 1\na 1 2 7\n"));
    snprintf(solution, sizeof solution, "%s", pf_test_tmpfile("s 23\nn 1\nn 2\nn 3\nn 5\n"));
    snprintf(wrong, sizeof wrong, "%s", pf_test_tmpfile("s 24\nn 1\nn 2\nn 3\nn 5\n"));
    const struct {
        const char *args[8];
        int status;
        const char *fields[4];
    } cases[] = {
        {{"solve", "--json", "--flow", "--cut", graph}, 0, {"\"value\":23", "\"cut\":[1,2,3,5]"}},
        {{"check", "--json", graph, solution}, 0, {"\"ok\":true", "\"value\":23"}},
        {{"check", graph, wrong, "--json"}, 2, {"\"ok\":false", "\"error\":\"cut capacity"}},
        {{"compare", "--json", graph}, 0,
         {"\"runs\":[", "\"backend\":\"seq\"", "\"value\":23", "\"agree\":true"}},
        {{"backends", "--json"}, 0, {"\"devices\":[", "\"backend\":\"seq\"", "\"unavailable\":["}},
        {{"apsp", "--stats", "--json", "--verify", sp}, 0,
         {"\"reachable_pairs\":6", "\"diameter\":6", "\"checksum\":12", "\"verified_sources\":4"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out, *err;
        ck_assert_msg(run(cases[i].args, NULL, &out, &err) == cases[i].status, "case %zu: %s",
                      i, err);
        ck_assert_msg(valid_json(out), "case %zu is not JSON: %s", i, out);
        for (int f = 0; f < 4 && cases[i].fields[f]; f++)
            ck_assert_msg(strstr(out, cases[i].fields[f]) != NULL, "case %zu lacks %s: %s", i,
                          cases[i].fields[f], out);
        free(out), free(err);
    }
    char *out, *err;
    const char *rows_are_not_json[] = {"apsp", "--json", sp, NULL};
    ck_assert_int_eq(run(rows_are_not_json, NULL, &out, &err), 1);
    ck_assert_str_eq(out, "");
    free(out), free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("contract");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, solve_prints_value_flow_and_cut);
    tcase_add_test(tc, every_backend_and_stdin);
    tcase_add_test(tc, json_output);
    tcase_add_test(tc, exit_statuses);
    tcase_add_test(tc, check_rejects_corrupted_solution);
    tcase_add_test(tc, apsp_contract);
    tcase_add_test(tc, gen_counts_and_backends);
    tcase_add_test(tc, compare_agrees);
    tcase_add_test(tc, help_for_every_command);
    tcase_add_test(tc, option_forms);
    tcase_add_test(tc, gen_positional_and_negative_values);
    tcase_add_test(tc, json_everywhere);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
