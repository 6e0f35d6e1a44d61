/*
 * tests/check_main.c - the main of every Check program (tests/check_run.h): the test
 * cases and tests its file registered before main, in the order of the source, in one
 * suite named TGC_CHECK_SUITE; exit status EXIT_SUCCESS when every test passed.
 */
#include "check_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TGC_CHECK_SUITE
#error "the build names the suite: -DTGC_CHECK_SUITE=\"name\""
#endif

typedef struct {
    const char *file;
    int line;
    const char *cname; /* a TEST_CASE: its name and timeout */
    double timeout;
    const TTest *test; /* a test: how it is run */
    int kind, a, b;
} Entry;

static Entry *entries;
static size_t nentries, cap;
static int broken; /* out of memory before main */

static void
add(Entry e)
{
    if (nentries == cap) {
        size_t n = cap ? 2 * cap : 64;
        Entry *p = realloc(entries, n * sizeof *p);
        if (!p) {
            broken = 1;
            return;
        }
        entries = p;
        cap = n;
    }
    entries[nentries++] = e;
}

void
check_register_case(const char *name, double timeout, const char *file, int line)
{
    add((Entry){.file = file, .line = line, .cname = name, .timeout = timeout});
}

void
check_register_test(const TTest *test, int kind, int a, int b)
{
    add((Entry){.file = test->file,
                .line = test->line,
                .test = test,
                .kind = kind,
                .a = a,
                .b = b});
}

static int
by_place(const void *x, const void *y)
{
    const Entry *p = x, *q = y;
    int c = strcmp(p->file, q->file);
    return c ? c : (p->line > q->line) - (p->line < q->line);
}

/* The test case named name, made (and added to s) at its first mention. */
static TCase *
test_case(Suite *s, TCase **made, const char **names, double *timeouts, size_t *n,
          const Entry *e)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(names[i], e->cname) == 0) {
            if (timeouts[i] != e->timeout) {
                fprintf(stderr,
                        "%s:%d: test case \"%s\" named with timeout %g, first %g\n",
                        e->file, e->line, e->cname, e->timeout, timeouts[i]);
                return NULL;
            }
            return made[i];
        }
    TCase *tc = tcase_create(e->cname);
    if (e->timeout > 0)
        tcase_set_timeout(tc, e->timeout);
    suite_add_tcase(s, tc);
    names[*n] = e->cname;
    timeouts[*n] = e->timeout;
    made[(*n)++] = tc;
    return tc;
}

int
main(void)
{
    if (broken || nentries == 0) {
        fprintf(stderr, "%s: %s\n", TGC_CHECK_SUITE,
                broken ? "out of memory" : "no tests registered");
        return EXIT_FAILURE;
    }
    qsort(entries, nentries, sizeof *entries, by_place);
    Suite *s = suite_create(TGC_CHECK_SUITE);
    TCase **made = malloc(nentries * sizeof *made);
    const char **names = malloc(nentries * sizeof *names);
    double *timeouts = malloc(nentries * sizeof *timeouts);
    if (!made || !names || !timeouts) {
        fprintf(stderr, "%s: out of memory\n", TGC_CHECK_SUITE);
        return EXIT_FAILURE;
    }
    size_t ncases = 0;
    TCase *tc = NULL;
    const char *tcfile = NULL; /* the file of the last TEST_CASE */
    for (size_t i = 0; i < nentries; i++) {
        const Entry *e = &entries[i];
        if (e->cname) {
            if (!(tc = test_case(s, made, names, timeouts, &ncases, e)))
                return EXIT_FAILURE;
            tcfile = e->file;
            continue;
        }
        if (!tc || strcmp(tcfile, e->file) != 0) {
            fprintf(stderr, "%s:%d: test \"%s\" before any TEST_CASE\n", e->file, e->line,
                    e->test->name);
            return EXIT_FAILURE;
        }
        if (e->kind == CHECK_LOOP)
            tcase_add_loop_test(tc, e->test, e->a, e->b);
        else if (e->kind == CHECK_EXIT)
            tcase_add_exit_test(tc, e->test, e->a);
        else
            tcase_add_test(tc, e->test);
    }
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    free(made);
    free(names);
    free(timeouts);
    free(entries);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
