/* PLACEHOLDER suite. */
#include <check.h>
#include <stdlib.h>
START_TEST(placeholder) { ck_assert_int_eq(1, 1); }
END_TEST
int main(void)
{
    Suite *s = suite_create("placeholder");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, placeholder);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
