/* The CLI contract other tools script against: output lines, JSON, exit
 * statuses, and nothing on stdout when the input is bad. */
#include <check.h>
#include <ctype.h>
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
        {{"apsp", "--type", "i16", "g", NULL}, "--type takes auto, i32, i64 or f32, not 'i16'"},
        {{"apsp", "--type", "i3", "g", NULL}, "not 'i3'"},
        {{"gen", "updates", "g", "--fraction=0.5", "--batches=2", "--mix=cap,foo"}, "not 'foo'"},
        {{"gen", "updates", "g", "--fraction=0.5", "--batches=2", "--mix=cap,,add"}, "not ''"},
        {{"gen", "updates", "g", "--fraction=0.5", "--batches=2", "--mix=ca"}, "not 'ca'"},
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

/* `gen updates`: a stream for a graph file, one `solve` per batch, the
 * same bytes for a seed on stdout and in -o FILE, usage errors with the
 * synopsis and nothing on stdout, a bad GRAPH exit 2. */
START_TEST(gen_updates_contract)
{
    char graph[256], out_file[256];
    snprintf(graph, sizeof graph, "%s", pf_test_tmpfile(clrs));
    snprintf(out_file, sizeof out_file, "%s", pf_test_tmpname());
    char *out, *err, *again, *again_err;
    const char *args[] = {"gen", "updates", graph, "--fraction", "0.25", "--batches", "4",
                          "--seed", "3", NULL};
    ck_assert_int_eq(run(args, NULL, &out, &err), 0);
    ck_assert_int_eq(count_prefix(out, "solve"), 4);
    ck_assert(!strncmp(out, "c portaflow gen updates ", 24));
    ck_assert_ptr_nonnull(strstr(out, "--fraction 0.25 --batches 4 --mix cap,add,del --seed 3\n"));
    ck_assert_int_eq(count_prefix(out, "addv"), 0);
    const char *to_file[] = {"gen", "updates", "--seed=3", graph, "--batches=4", "--fraction",
                             "0.25", "-o", out_file, NULL};
    ck_assert_int_eq(run(to_file, NULL, &again, &again_err), 0);
    ck_assert_str_eq(again, "");
    char *written = pf_test_read_file(out_file);
    ck_assert_str_eq(written, out);
    free(written), free(again), free(again_err);
    const char *other_seed[] = {"gen", "updates", graph, "--fraction", "0.25", "--batches", "4",
                                "--seed", "4", NULL};
    ck_assert_int_eq(run(other_seed, NULL, &again, &again_err), 0);
    ck_assert_str_ne(again, out);
    free(again), free(again_err), free(out), free(err);

    /* An edge list read 0-based: the stream's ids count from 0 too. */
    const char *edges = pf_test_tmpfile("0 1 5\n1 2 4\n0 2 1\n");
    char edges_path[256];
    snprintf(edges_path, sizeof edges_path, "%s", edges);
    const char *zero[] = {"gen", "updates", edges_path, "--zero-based", "--source", "0",
                          "--sink", "2", "--fraction", "1", "--batches", "2", "--mix",
                          "add,addv", NULL};
    ck_assert_int_eq(run(zero, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "vertex ids from 0\n"));
    ck_assert_int_eq(count_prefix(out, "cap ") + count_prefix(out, "del "), 0);
    free(out), free(err);

    const char *usage[][12] = {
        {"gen", "updates", NULL},
        {"gen", "updates", graph, "--batches", "2", NULL},
        {"gen", "updates", graph, "--fraction", "0", "--batches", "2", NULL},
        {"gen", "updates", graph, "--fraction", "1.5", "--batches", "2", NULL},
        {"gen", "updates", graph, "--fraction", "x", "--batches", "2", NULL},
        {"gen", "updates", graph, "--fraction", "0.5", "--batches", "0", NULL},
        {"gen", "updates", graph, "--fraction", "0.5", "--batches", "2", "--mix", "cap,foo", NULL},
        {"gen", "updates", graph, "--fraction", "0.5", "--batches", "2", "--cap", "3", NULL},
        {"gen", "rmf", "2", "2", "--fraction", "0.5", NULL},
        {"gen", "rmf", "2", "2", "--zero-based", NULL},
    };
    for (size_t i = 0; i < sizeof usage / sizeof *usage; i++) {
        ck_assert_msg(run(usage[i], NULL, &out, &err) == 1, "row %zu", i);
        ck_assert_str_eq(out, "");
        ck_assert_msg(strstr(err, "usage: gen ") != NULL, "row %zu: %s", i, err);
        free(out), free(err);
    }
    const char *bad_graph[] = {"gen", "updates", "/nonexistent/graph", "--fraction", "0.5",
                               "--batches", "2", "-o", out_file, NULL};
    ck_assert_int_eq(run(bad_graph, NULL, &out, &err), 2);
    ck_assert_str_eq(out, "");
    free(out), free(err);
    const char *help[] = {"gen", "--help", NULL};
    ck_assert_int_eq(run(help, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "updates GRAPH"));
    ck_assert_ptr_nonnull(strstr(out, "--fraction F"));
    free(out), free(err);
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

/* --cut-side picks the side the n lines list; --cut-arcs lists the arcs
 * from the source side to the sink side in input order (their capacities
 * sum to the value); check reads output that has x lines. */
START_TEST(cut_side_and_cut_arcs)
{
    const char *graph = pf_test_tmpfile(clrs);
    char *graph_copy = strdup(graph);
    char *out, *err;
    const char *arcs[] = {"solve", "-b", "seq", "--flow", "--cut", "--cut-arcs", graph_copy, NULL};
    ck_assert_int_eq(run(arcs, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\nn 5\nx 2 4 12\nx 5 4 7\nx 5 6 4\n"));
    ck_assert_int_eq(count_prefix(out, "x "), 3);
    const char *solution = pf_test_tmpfile(out);
    free(out), free(err);
    const char *check[] = {"check", graph_copy, solution, NULL};
    ck_assert_int_eq(run(check, NULL, &out, &err), 0);
    free(out), free(err);

    const char *sink[] = {"solve", "--cut-side=sink", graph_copy, NULL};
    ck_assert_int_eq(run(sink, NULL, &out, &err), 0);
    ck_assert_int_eq(count_prefix(out, "n "), 2);
    ck_assert_ptr_nonnull(strstr(out, "\nn 4\nn 6\n"));
    ck_assert_int_eq(count_prefix(out, "x "), 0);
    free(out), free(err);

    const char *source[] = {"solve", "--cut", "--cut-side", "source", graph_copy, NULL};
    ck_assert_int_eq(run(source, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\nn 1\nn 2\nn 3\nn 5\n"));
    free(out), free(err);

    const char *json[] = {"solve", "--json", "--cut-side", "sink", "--cut-arcs", graph_copy, NULL};
    ck_assert_int_eq(run(json, NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"cut_side\":\"sink\",\"cut\":[4,6]"));
    ck_assert_ptr_nonnull(strstr(out, "\"cut_arcs\":[[2,4,12],[5,4,7],[5,6,4]]"));
    free(out), free(err);

    const char *bad[] = {"solve", "--cut-side", "middle", graph_copy, NULL};
    ck_assert_int_eq(run(bad, NULL, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(err, "--cut-side"));
    ck_assert_str_eq(out, "");
    free(out), free(err);
    free(graph_copy);
}
END_TEST

/* The lines of `text` that do not start with 'c' (timings live in those). */
static char *without_comments(const char *text)
{
    char *kept = calloc(strlen(text) + 1, 1);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (*line != 'c')
            strncat(kept, line, len);
        line += len;
    }
    return kept;
}

/* --progress: every command says in words on stderr what it does, and its
 * stdout is what it is without; --no-progress: stderr stays empty. */
START_TEST(progress_on_stderr_only)
{
    char graph[256], sp[256], solution[256];
    snprintf(graph, sizeof graph, "%s", pf_test_tmpfile(clrs));
    snprintf(sp, sizeof sp, "%s", pf_test_tmpfile("p sp 4 4\na 1 2 5\na 2 3 -2\na 3 1 1\na 1 2 7\n"));
    snprintf(solution, sizeof solution, "%s", pf_test_tmpfile("s 23\nn 1\nn 2\nn 3\nn 5\n"));
    const struct {
        const char *args[8];
        const char *says; /* expected on stderr with --progress */
    } cases[] = {
        {{"solve", "-b", "seq", "--flow", graph}, "solve seq: phase 1 (pushing flow to the sink)"},
        {{"solve", "-b", "omp", "--flow", graph}, "solve omp: opening the device"},
        {{"apsp", "-b", "seq", sp}, "apsp: Floyd-Warshall over 4 vertices"},
        {{"gen", "rmf", "3", "3"}, "gen: generating rmf"},
        {{"check", graph, solution}, "check: verifying the solution"},
        {{"compare", graph}, "compare: solving on seq"},
        {{"backends"}, "backends: probing every backend"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *with[10], *without[10];
        int n = 0;
        for (; cases[i].args[n]; n++)
            with[n] = without[n] = cases[i].args[n];
        with[n] = "--progress", without[n] = "--no-progress";
        with[n + 1] = without[n + 1] = NULL;
        char *out_on, *err_on, *out_off, *err_off;
        ck_assert_msg(run(with, NULL, &out_on, &err_on) == 0, "case %zu: %s", i, err_on);
        ck_assert_int_eq(run(without, NULL, &out_off, &err_off), 0);
        ck_assert_msg(strstr(err_on, cases[i].says) != NULL, "case %zu says: %s", i, err_on);
        ck_assert_msg(strstr(err_on, ": finished, ") != NULL, "case %zu ends: %s", i, err_on);
        ck_assert_msg(strchr(err_on, '\033') == NULL, "no terminal codes into a file");
        ck_assert_str_eq(err_off, "");
        char *kept_on = without_comments(out_on), *kept_off = without_comments(out_off);
        if (strcmp(cases[i].args[0], "compare") && strcmp(cases[i].args[0], "backends"))
            ck_assert_str_eq(kept_on, kept_off); /* compare and backends print timings */
        ck_assert_ptr_null(strstr(out_on, "finished"));
        free(kept_on), free(kept_off);
        free(out_on), free(err_on), free(out_off), free(err_off);
    }
}
END_TEST

/* Whether `name` appears in `text` as a whole option "--name". */
static int mentions_option(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = strstr(text, "--"); p; p = strstr(p + 2, "--"))
        if (!strncmp(p + 2, name, len) && !(isalnum((unsigned char)p[2 + len]) || p[2 + len] == '-'))
            return 1;
    return 0;
}

/* The "--name" options at the start of --help's option lines, into names
 * (a strdup'ed list ending in NULL). */
static int help_options(const char *help, char **names, int max)
{
    int count = 0;
    for (const char *line = help; line && *line && count < max - 1;) {
        const char *p = line;
        while (*p == ' ')
            p++;
        if (p[0] == '-' && p[1] != '-' && p[2] == ',')
            p += 4;
        if (p > line && p[0] == '-' && p[1] == '-') {
            size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
            names[count++] = strndup(p + 2, len);
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    names[count] = NULL;
    return count;
}

/* README's "Command line" section and every command's --help name the
 * same options. */
START_TEST(readme_and_help_agree)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../README.md", getenv("PF_SRCDIR") ? getenv("PF_SRCDIR") : ".");
    char *readme = pf_test_read_file(path);
    ck_assert_ptr_nonnull(readme);
    char *section = strstr(readme, "## Command line");
    ck_assert_ptr_nonnull(section);
    char *end = strstr(section + 3, "\n## ");
    if (end)
        *end = '\0';
    static const char *const commands[] = {"solve", "compare", "demo", "check", "gen", "apsp",
                                           "backends", "bfs", "sssp", "tc", "session"};
    char all_help[65536] = "";
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char *out, *err;
        const char *args[] = {commands[i], "--help", NULL};
        ck_assert_int_eq(run(args, NULL, &out, &err), 0);
        char *names[64];
        int count = help_options(out, names, 64);
        ck_assert_int_gt(count, 0);
        for (int k = 0; k < count; k++) {
            ck_assert_msg(mentions_option(section, names[k]),
                          "%s --%s is in --help but not in README's Command line section",
                          commands[i], names[k]);
            free(names[k]);
        }
        strncat(all_help, out, sizeof all_help - strlen(all_help) - 1);
        free(out), free(err);
    }
    /* And the other way: every option README names is some command's. */
    for (const char *p = strstr(section, "--"); p; p = strstr(p + 2, "--")) {
        size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (!isalnum((unsigned char)p[2]) || (len == 3 && !strncmp(p + 2, "opt", 3)) ||
            (len == 7 && !strncmp(p + 2, "version", 7)))
            continue; /* "--", the "--opt=value" example, portaflow --version */
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, p + 2);
        ck_assert_msg(mentions_option(all_help, name), "README names --%s, no --help does", name);
    }
    free(readme);
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
    tcase_add_test(tc, gen_updates_contract);
    tcase_add_test(tc, json_everywhere);
    tcase_add_test(tc, cut_side_and_cut_arcs);
    tcase_add_test(tc, progress_on_stderr_only);
    tcase_add_test(tc, readme_and_help_agree);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
