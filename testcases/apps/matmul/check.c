/*
 * check.c - the output check of the matrix multiply graphs: `check GRAPH OUTDIR`.
 *
 * OUTDIR/matmul.txt holds C = A B for every iteration (m lines of m values each); it must
 * equal the sequential product exactly (the values are small integers).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../app_check.h"
#include "matmul_kernels.h"

int
app_check(const char *outdir)
{
    int64_t m = app_param("src", "m"), k = app_param("src", "k");
    int64_t products = app_iterations(), n = 0, wrong = 0, want = products * m * m;
    double *c = app_read_values(outdir, "matmul.txt", &n);
    for (int64_t x = 0; x < n && x < want; x++) {
        int64_t prod = x / (m * m), i = x / m % m, j = x % m;
        double ref = 0;
        for (int64_t l = 0; l < k; l++)
            ref += (double)mm_a(prod, i, l, k) * mm_b(l, j, m);
        if (c[x] != ref && wrong++ == 0)
            app_fail("product %lld: C(%lld, %lld) is %g, the sequential product gives %g",
                     (long long)prod, (long long)i, (long long)j, c[x], ref);
    }
    app_check_count("matmul.txt", n, want);
    printf(
        "  matmul (%s): %lld products of %lldx%lld by %lldx%lld, %lld values differ from "
        "the sequential product\n",
        app_count_tasks("fox") ? "Fox-like" : "basic slicing", (long long)products,
        (long long)m, (long long)k, (long long)k, (long long)m, (long long)wrong);
    free(c);
    return app_finish("matmul");
}
