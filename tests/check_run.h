/*
 * tests/check_run.h - the end of every Check program of tests/ and tests/runtime/: run
 * the suite, the exit status.
 */
#ifndef TGC_CHECK_RUN_H
#define TGC_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

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
