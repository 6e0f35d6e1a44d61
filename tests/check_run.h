/*
 * tests/check_run.h - how every Check program of tests/, tests/runtime/ and
 * tests/threads/ declares its tests: each test says, where it is defined, which test case
 * it belongs to and how it is run, so that no list of the tests is written again in a
 * main.
 *
 *     TEST_CASE("core", 0)               the tests below, up to the next TEST_CASE
 *     TEST(name) { ... } END_TEST        a test (Check's START_TEST, registered)
 *     LOOP_TEST(name, 0, 3) ...          run with _i = 0, 1, 2
 *     EXIT_TEST(name, 7) ...             passes when it exits with status 7
 *
 * tests/check_main.c's main makes the suite (named by the build: TGC_CHECK_SUITE), a test
 * case at its first TEST_CASE (timeout in seconds, 0 for Check's default; a case may be
 * named again further down with the same timeout), adds the tests in the order of the
 * source, runs them and returns EXIT_SUCCESS when none failed. A program whose tests
 * registered nothing, or whose test stands above every TEST_CASE, fails.
 */
#ifndef TGC_CHECK_RUN_H
#define TGC_CHECK_RUN_H

#include <check.h>

enum { CHECK_PLAIN, CHECK_LOOP, CHECK_EXIT };

/* Called before main by the constructors TEST_CASE and TEST* write (tests/check_main.c).
 */
void check_register_case(const char *name, double timeout, const char *file, int line);
void check_register_test(const TTest *test, int kind, int a, int b);

#define CHECK_CAT_(a, b) a##b
#define CHECK_CAT(a, b) CHECK_CAT_(a, b)

#define TEST_CASE(name, timeout)                                                         \
    __attribute__((constructor)) static void CHECK_CAT(check_case_at_, __LINE__)(void)   \
    {                                                                                    \
        check_register_case((name), (timeout), __FILE__, __LINE__);                      \
    }

#define CHECK_TEST_(name, kind, a, b)                                                    \
    static const TTest *name;                                                            \
    __attribute__((constructor)) static void name##_registered(void)                     \
    {                                                                                    \
        check_register_test(name, (kind), (a), (b));                                     \
    }                                                                                    \
    START_TEST(name)

#define TEST(name) CHECK_TEST_(name, CHECK_PLAIN, 0, 0)
#define LOOP_TEST(name, start, end) CHECK_TEST_(name, CHECK_LOOP, (start), (end))
#define EXIT_TEST(name, status) CHECK_TEST_(name, CHECK_EXIT, (status), 0)

#endif
