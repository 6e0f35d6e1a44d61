/*
 * check.c - the output check of the butterfly sum: `check butterfly.json OUTDIR`.
 *
 * OUTDIR/sum<r>.txt, one per DSP, hold the sum of every iteration (n values each); every
 * one must equal the sequential sum of the P vectors exactly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../app_check.h"
#include "butterfly_kernels.h"

int
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check GRAPH OUTDIR\n");
        return 2;
    }
    app_load_graph(argv[1]);
    int64_t n = app_param("bf0_0", "n"), procs = app_count_tasks("bf") ? 0 : 0;
    while (app_count_tasks("bf") > 0 && procs < 1024) {
        char id[32];
        snprintf(id, sizeof id, "bf%lld_0", (long long)procs);
        if (!app_count_tasks(id))
            break;
        procs++;
    }
    int64_t sums = app_iterations(), wrong = 0;
    for (int64_t r = 0; r < procs; r++) {
        char name[32];
        snprintf(name, sizeof name, "sum%lld.txt", (long long)r);
        size_t len;
        char *text = app_read_file(argv[2], name, &len);
        int64_t k = 0;
        double v;
        int used;
        for (char *s = text; sscanf(s, "%lf%n", &v, &used) == 1; s += used, k++) {
            if (k >= sums * n)
                continue;
            double ref = 0;
            for (int64_t q = 0; q < procs; q++)
                ref += bf_value(k / n, q, k % n);
            if (v != ref && wrong++ == 0)
                app_fail("%s: sum %lld, element %lld is %g, the sequential sum gives %g",
                         name, (long long)(k / n), (long long)(k % n), v, ref);
        }
        if (k != sums * n)
            app_fail("%s has %lld values, expected %lld", name, (long long)k,
                     (long long)(sums * n));
        free(text);
    }
    printf(
        "  butterfly: %lld DSPs, %lld sums of %lld values each, %lld values differ from "
        "the sequential sum\n",
        (long long)procs, (long long)sums, (long long)n, (long long)wrong);
    return app_finish("butterfly");
}
