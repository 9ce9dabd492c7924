/* Self-test of Check as built by this overlay: a library that ran every test
 * as passed would let portaflow's suites pass whatever they check, so one
 * test of each kind is run (a failed assertion, a crash, a timeout, a pass)
 * in fork mode and each must be reported as what it is. Exits 0 when all
 * four are, 1 otherwise, naming the first that is not. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(fails_an_assertion)
{
    ck_assert_int_eq(1, 2);
}
END_TEST

START_TEST(crashes)
{
    raise(SIGSEGV);
}
END_TEST

START_TEST(runs_past_its_timeout)
{
    sleep(10);
}
END_TEST

START_TEST(passes)
{
    ck_assert_int_eq(2, 2);
}
END_TEST

/* What Check must report for each test: its result and a piece of its message. */
static const struct {
    const char *test;
    int result;
    const char *message;
} expected[] = {
    {.test = "fails_an_assertion", .result = CK_FAILURE, .message = "1 == 2"},
    {.test = "crashes", .result = CK_ERROR, .message = "signal"},
    {.test = "runs_past_its_timeout", .result = CK_ERROR, .message = "timeout"},
    {.test = "passes", .result = CK_PASS, .message = ""},
};
enum { N_EXPECTED = sizeof expected / sizeof expected[0] };

static Suite *selftest_suite(void)
{
    Suite *suite = suite_create("check-selftest");
    TCase *tcase = tcase_create("kinds");
    tcase_set_timeout(tcase, 1);
    tcase_add_test(tcase, fails_an_assertion);
    tcase_add_test(tcase, crashes);
    tcase_add_test(tcase, runs_past_its_timeout);
    tcase_add_test(tcase, passes);
    suite_add_tcase(suite, tcase);
    return suite;
}

/* 1 when the result of the test at `index` (in the order they ran, that of
 * tcase_add_test) is the one expected. */
static int reported_as_expected(TestResult *result, int index)
{
    const char *name = expected[index].test;
    const char *message = tr_msg(result) ? tr_msg(result) : "";
    if (tr_rtype(result) != expected[index].result || !strstr(message, expected[index].message)) {
        fprintf(stderr, "check-selftest: %s reported as result %d (\"%s\"), expected %d with \"%s\"\n",
                name, tr_rtype(result), message, expected[index].result, expected[index].message);
        return 0;
    }
    return 1;
}

/* Check's environment variables could select, skip or stretch tests here;
 * the self-test runs with none of them. */
static void ignore_check_environment(void)
{
    static const char *const variables[] = {
        "CK_RUN_SUITE", "CK_RUN_CASE", "CK_INCLUDE_TAGS", "CK_EXCLUDE_TAGS", "CK_FORK",
        "CK_DEFAULT_TIMEOUT", "CK_TIMEOUT_MULTIPLIER", "CK_VERBOSITY",
    };
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; i++)
        unsetenv(variables[i]);
}

int main(void)
{
    ignore_check_environment();
    SRunner *runner = srunner_create(selftest_suite());
    srunner_set_fork_status(runner, CK_FORK);
    srunner_run_all(runner, CK_SILENT);
    int ok = srunner_ntests_run(runner) == N_EXPECTED;
    if (!ok)
        fprintf(stderr, "check-selftest: %d tests run, expected %d\n", srunner_ntests_run(runner),
                (int)N_EXPECTED);
    TestResult **results = srunner_results(runner);
    for (int i = 0; ok && i < N_EXPECTED; i++)
        ok = reported_as_expected(results[i], i);
    free(results);
    srunner_free(runner);
    if (ok)
        printf("check-selftest: a failure, a crash, a timeout and a pass each reported as such\n");
    return ok ? 0 : 1;
}
