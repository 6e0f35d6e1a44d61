/*
 * tests/check_run.h - what every Check program of tests/ and tests/runtime/ does with its
 * tests: make its test cases, add the tests to them in the order listed, run the suite,
 * exit status.
 */
#ifndef TGC_CHECK_RUN_H
#define TGC_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/* Adds tests[0 .. n) to tc, in order (ADD_TESTS). */
static inline void
check_add_tests(TCase *tc, const TTest *const *tests, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tcase_add_test(tc, tests[i]);
}

/* ADD_TESTS(tc, test, test, ...): tcase_add_test of each, in order. */
#define ADD_TESTS(tc, ...)                                                               \
    check_add_tests((tc), (const TTest *[]){__VA_ARGS__},                                \
                    sizeof((const TTest *[]){__VA_ARGS__}) / sizeof(const TTest *))

/* A test case `name` of suite s, already added to it, for its tests to be added after;
 * timeout in seconds, 0 for Check's default. */
static inline TCase *
check_tcase(Suite *s, const char *name, double timeout)
{
    TCase *tc = tcase_create(name);
    if (timeout > 0)
        tcase_set_timeout(tc, timeout);
    suite_add_tcase(s, tc);
    return tc;
}

/* Runs every test of s with Check's normal output; EXIT_SUCCESS when none failed. */
static inline int
check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
