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
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check GRAPH OUTDIR\n");
        return 2;
    }
    app_load_graph(argv[1]);
    int64_t m = app_param("src", "m"), k = app_param("src", "k");
    int64_t products = app_iterations(), n = 0, wrong = 0, want = products * m * m;
    size_t len;
    char *text = app_read_file(argv[2], "matmul.txt", &len);
    double v;
    int used;
    for (char *s = text; sscanf(s, "%lf%n", &v, &used) == 1; s += used, n++) {
        if (n >= want)
            continue;
        int64_t prod = n / (m * m), i = n / m % m, j = n % m;
        double ref = 0;
        for (int64_t l = 0; l < k; l++)
            ref += (double)mm_a(prod, i, l, k) * mm_b(l, j, m);
        if (v != ref && wrong++ == 0)
            app_fail("product %lld: C(%lld, %lld) is %g, the sequential product gives %g",
                     (long long)prod, (long long)i, (long long)j, v, ref);
    }
    if (n != want)
        app_fail("matmul.txt has %lld values, expected %lld", (long long)n,
                 (long long)want);
    printf(
        "  matmul (%s): %lld products of %lldx%lld by %lldx%lld, %lld values differ from "
        "the sequential product\n",
        app_count_tasks("fox") ? "Fox-like" : "basic slicing", (long long)products,
        (long long)m, (long long)k, (long long)k, (long long)m, (long long)wrong);
    free(text);
    return app_finish("matmul");
}
