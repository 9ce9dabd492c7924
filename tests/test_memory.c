/* Memory follows the input (issue 23, defect 1): the available-memory
 * probe and its PORTAFLOW_MEMORY_LIMIT override; a 57-byte max-flow file
 * that declares 2^31 - 2 vertices is solved through the vertices that
 * appear; and what cannot fit (an APSP matrix of 2^31 rows) is refused
 * with exit 3, both amounts and "available" in the message and nothing on
 * stdout, instead of being killed by the kernel, on every backend. Also
 * the allocation helpers (status.h: pf_regrow, PF_FREE_ALL, PF_FREE_NULL)
 * and the shared sorts (sort.h): qsort orders, the inline insertion sort. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "common/knobs.h"
#include "common/memavail.h"
#include "common/sort.h"
#include "common/status.h"
#include "support.h"

#if defined(__SANITIZE_ADDRESS__)
#define PF_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PF_UNDER_ASAN 1
#endif
#endif

/* 57 bytes: two vertices that matter out of 2^31 - 2 declared. */
static const char huge_max[] = "p max 2147483646 1\nn 1 s\nn 2147483646 t\na 1 2147483646 5\n";
/* Bellman-Ford runs for it (a negative arc) unless refused first. */
static const char huge_sp[] = "p sp 2147483646 1\na 1 2 -1\n";

START_TEST(override_reads_units)
{
    const char *source;
    setenv("PORTAFLOW_MEMORY_LIMIT", "3G", 1);
    pf_knobs_reload();
    ck_assert_uint_eq(pf_mem_available(&source), (uint64_t)3 << 30);
    ck_assert_str_eq(source, "PORTAFLOW_MEMORY_LIMIT");
    setenv("PORTAFLOW_MEMORY_LIMIT", "12345", 1);
    pf_knobs_reload();
    ck_assert_uint_eq(pf_mem_available(NULL), 12345);
    pf_status st;
    ck_assert_int_eq(pf_mem_require(12345, "this", &st), PF_OK);
    ck_assert_int_eq(pf_mem_require(12346, "this", &st), PF_E_NOMEM);
    ck_assert_msg(strstr(st.message, "12346 bytes") && strstr(st.message, "12345 bytes") &&
                      strstr(st.message, "available"),
                  "%s", st.message);
    /* Not a byte count: refused, and the probe answers instead. */
    setenv("PORTAFLOW_MEMORY_LIMIT", "12Q", 1);
    pf_knobs_reload();
    pf_mem_available(&source);
    ck_assert_str_ne(source, "PORTAFLOW_MEMORY_LIMIT");
    char problem[256];
    ck_assert(pf_knob_problem(pf_knobs(), PF_KNOB_MEMORY_LIMIT, problem, sizeof problem));
    ck_assert_msg(strstr(problem, "12Q") != NULL, "%s", problem);
    unsetenv("PORTAFLOW_MEMORY_LIMIT");
    pf_knobs_reload();
    ck_assert_uint_gt(pf_mem_available(NULL), 0);
}
END_TEST

START_TEST(estimates_saturate)
{
    ck_assert_uint_eq(pf_mem_bytes(UINT64_MAX / 2, 3, 0), UINT64_MAX);
    ck_assert_uint_eq(pf_mem_bytes(1, 1, UINT64_MAX), UINT64_MAX);
    ck_assert_uint_eq(pf_mem_bytes(6, 7, 8), 50);
}
END_TEST

/* Exit 3, both amounts and the word "available" on stderr, empty stdout. */
static void expect_refused(const char *const *args, const char *why)
{
    char *out = NULL, *err = NULL;
    int rc = pf_test_run_cli(args, NULL, &out, &err);
    if (rc == 3 && strstr(err, "not compiled into this build")) { /* e.g. the ASan build */
        free(out);
        free(err);
        return;
    }
    ck_assert_msg(rc == 3, "%s %s: exit %d, stderr: %s", args[0], args[2], rc, err);
    ck_assert_msg(strstr(err, "available") && strstr(err, "needs about"), "%s", err);
    ck_assert_msg(strstr(err, why) != NULL, "expected '%s' in: %s", why, err);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
}

static const char *const backends[] = {"seq", "omp", "opencl"};

/* Only the vertices that appear cost memory: solved in well under 1 GiB. */
START_TEST(huge_declared_max_flow_solved)
{
    setenv("PORTAFLOW_MEMORY_LIMIT", "1G", 1);
    const char *path = pf_test_tmpfile(huge_max);
    const char *args[] = {"solve", "--backend", backends[_i], "--flow", path, NULL};
    char *out = NULL, *err = NULL;
    int rc = pf_test_run_cli(args, NULL, &out, &err);
    if (rc == 3 && strstr(err, "not compiled into this build")) { /* e.g. the ASan build */
        free(out);
        free(err);
        unsetenv("PORTAFLOW_MEMORY_LIMIT");
        return;
    }
    ck_assert_msg(rc == 0, "%s: exit %d: %s", backends[_i], rc, err);
    ck_assert_msg(strstr(out, "\ns 5\nf 1 2147483646 5\n") != NULL, "%s", out);
    free(out);
    free(err);
    unsetenv("PORTAFLOW_MEMORY_LIMIT");
}
END_TEST

/* A network that needs more than is available (here: 100 bytes) is
 * refused before the solve allocates, the same on every backend. */
START_TEST(max_flow_over_the_limit_refused)
{
    setenv("PORTAFLOW_MEMORY_LIMIT", "100", 1);
    const char *path = pf_test_tmpfile("p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 3 4\n");
    const char *args[] = {"solve", "--backend", backends[_i], path, NULL};
    expect_refused(args, "100 bytes");
    unsetenv("PORTAFLOW_MEMORY_LIMIT");
}
END_TEST

/* The cut maps back from the compact solve: vertices without arcs are on
 * the source side (they cannot reach the sink), the others as solved. */
START_TEST(compact_cut_maps_back)
{
    pf_status st;
    int64_t n = 300000, t = n - 1;
    pf_network *net = pf_network_new(n, 0, t, &st);
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(pf_network_add_arc(net, 0, 2, 1, &st), PF_OK);     /* saturated */
    ck_assert_int_eq(pf_network_add_arc(net, 2, t, 5, &st), PF_OK);     /* 2 reaches t */
    ck_assert_int_eq(pf_network_add_arc(net, 3, t, 1, &st), PF_OK);     /* so does 3 */
    ck_assert_int_eq(pf_network_add_arc(net, 150000, 0, 7, &st), PF_OK); /* it cannot */
    pf_solve_options opt;
    pf_solve_options_init(&opt);
    opt.backend = "seq";
    opt.want_cut = 1;
    opt.want_flow = 1;
    pf_solution sol;
    ck_assert_msg(pf_solve(net, &opt, &sol, &st) == PF_OK, "%s", st.message);
    ck_assert_int_eq(sol.value, 1);
    ck_assert_int_eq(sol.arc_flow[0], 1);
    ck_assert_int_eq(sol.arc_flow[1], 1);
    ck_assert_int_eq(sol.arc_flow[2], 0);
    ck_assert_int_eq(sol.arc_flow[3], 0);
    for (int64_t v = 0; v < n; v++) {
        int want = !(v == 2 || v == 3 || v == t);
        PF_EXPECT(sol.source_side[v] == want, "vertex %lld: side %d, want %d", (long long)v + 1,
                  sol.source_side[v], want);
    }
    pf_solution_free(&sol);
    pf_network_free(net);
}
END_TEST

START_TEST(huge_declared_apsp_refused)
{
    setenv("PORTAFLOW_MEMORY_LIMIT", "1G", 1);
    const char *path = pf_test_tmpfile(huge_sp);
    const char *args[] = {"apsp", "--backend", backends[_i], path, NULL};
    expect_refused(args, "1.0 GiB");
    unsetenv("PORTAFLOW_MEMORY_LIMIT");
}
END_TEST

/* ulimit -v in this (forked) test process bounds the probe, and the CLI
 * it starts refuses the file without any override. */
START_TEST(address_space_limit_counts)
{
#ifdef PF_UNDER_ASAN
    /* ASan reserves terabytes of address space for its shadow memory. */
    return;
#endif
    unsetenv("PORTAFLOW_MEMORY_LIMIT");
    pf_knobs_reload();
    struct rlimit lim = {.rlim_cur = (rlim_t)2 << 30, .rlim_max = RLIM_INFINITY};
    getrlimit(RLIMIT_AS, &lim);
    lim.rlim_cur = (rlim_t)2 << 30;
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
    ck_assert_uint_le(pf_mem_available(NULL), (uint64_t)2 << 30);
    const char *path = pf_test_tmpfile(huge_sp);
    const char *args[] = {"apsp", "--backend", "seq", path, NULL};
    expect_refused(args, "2.0 GiB");
}
END_TEST

/* A file whose solve fits: solved as before, limit or not. */
START_TEST(small_input_still_solves)
{
    setenv("PORTAFLOW_MEMORY_LIMIT", "64M", 1);
    const char *path = pf_test_tmpfile("p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 3 4\n");
    const char *args[] = {"solve", "--backend", "seq", path, NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(pf_test_run_cli(args, NULL, &out, &err), 0);
    ck_assert_msg(strstr(out, "s 4\n") != NULL, "%s", out);
    free(out);
    free(err);
    unsetenv("PORTAFLOW_MEMORY_LIMIT");
}
END_TEST

/* pf_regrow: side-by-side arrays grow together, and one that cannot grow
 * (here: a size that overflows) keeps its block and stops the rest. */
START_TEST(regrow_keeps_blocks_on_failure)
{
    int ok = 1;
    int64_t *a = pf_regrow(NULL, 4, sizeof *a, &ok);
    int32_t *b = pf_regrow(NULL, 4, sizeof *b, &ok);
    ck_assert_int_eq(ok, 1);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    a[3] = 7;
    a = pf_regrow(a, 8, sizeof *a, &ok);
    ck_assert_int_eq(ok, 1);
    ck_assert_int_eq(a[3], 7);
    int64_t *kept = a;
    a = pf_regrow(a, SIZE_MAX / 2, sizeof *a, &ok);
    ck_assert_int_eq(ok, 0);
    ck_assert_ptr_eq(a, kept);
    int32_t *b_kept = b;
    b = pf_regrow(b, 16, sizeof *b, &ok); /* after a failure: untouched */
    ck_assert_ptr_eq(b, b_kept);
    ck_assert_int_eq(ok, 0);
    PF_FREE_ALL(a, b, NULL);
    char *c = malloc(3);
    PF_FREE_NULL(c);
    ck_assert_ptr_null(c);
}
END_TEST

/* pf_compare_id_at orders by id, then at, both ways round and past 2^32. */
START_TEST(id_at_order)
{
    pf_id_at v[] = {{5, 2}, {INT64_MIN, 9}, {5, -1}, {INT64_MAX, 0}, {5, INT64_MAX}, {-3, 4}};
    qsort(v, sizeof v / sizeof *v, sizeof *v, pf_compare_id_at);
    const pf_id_at want[] = {{INT64_MIN, 9}, {-3, 4},         {5, -1},
                             {5, 2},         {5, INT64_MAX}, {INT64_MAX, 0}};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        ck_assert_int_eq(v[i].id, want[i].id);
        ck_assert_int_eq(v[i].at, want[i].at);
    }
    int64_t x[] = {3, INT64_MIN, (int64_t)1 << 40, -1, INT64_MAX};
    qsort(x, 5, sizeof *x, pf_compare_i64);
    ck_assert(x[0] == INT64_MIN && x[1] == -1 && x[2] == 3 && x[3] == (int64_t)1 << 40 &&
              x[4] == INT64_MAX);
}
END_TEST

static int order_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int order_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The insertion sorts order every length from 0 to 40 as qsort does:
 * repeated values, negative ranks, and keys past 2^63 (unsigned order). */
START_TEST(insertion_sorts_match_qsort)
{
    uint64_t state = 0x9e3779b97f4a7c15u;
    for (int64_t len = 0; len <= 40; len++) {
        uint64_t keys[40], keys_want[40];
        int32_t ranks[40], ranks_want[40];
        for (int64_t i = 0; i < len; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            keys[i] = (state >> 60) << 60 | (state >> 33) % 5; /* high nibble, few low values */
            ranks[i] = (int32_t)(state >> 40) % 7 - 3;
        }
        memcpy(keys_want, keys, sizeof keys);
        memcpy(ranks_want, ranks, sizeof ranks);
        qsort(keys_want, (size_t)len, sizeof *keys_want, order_u64);
        qsort(ranks_want, (size_t)len, sizeof *ranks_want, order_i32);
        pf_insertion_sort_u64(keys, len);
        pf_insertion_sort_i32(ranks, len);
        ck_assert_mem_eq(keys, keys_want, (size_t)len * sizeof *keys);
        ck_assert_mem_eq(ranks, ranks_want, (size_t)len * sizeof *ranks);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("memory");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, override_reads_units);
    tcase_add_test(tc, estimates_saturate);
    tcase_add_loop_test(tc, huge_declared_max_flow_solved, 0, 3);
    tcase_add_test(tc, compact_cut_maps_back);
    tcase_add_loop_test(tc, max_flow_over_the_limit_refused, 0, 3);
    tcase_add_loop_test(tc, huge_declared_apsp_refused, 0, 3);
    tcase_add_test(tc, address_space_limit_counts);
    tcase_add_test(tc, small_input_still_solves);
    tcase_add_test(tc, regrow_keeps_blocks_on_failure);
    tcase_add_test(tc, id_at_order);
    tcase_add_test(tc, insertion_sorts_match_qsort);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
