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
app_check(const char *outdir)
{
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
        int64_t nv;
        double *v = app_read_values(outdir, name, &nv);
        for (int64_t k = 0; k < nv && k < sums * n; k++) {
            double ref = 0;
            for (int64_t q = 0; q < procs; q++)
                ref += bf_value(k / n, q, k % n);
            if (v[k] != ref && wrong++ == 0)
                app_fail("%s: sum %lld, element %lld is %g, the sequential sum gives %g",
                         name, (long long)(k / n), (long long)(k % n), v[k], ref);
        }
        app_check_count(name, nv, sums * n);
        free(v);
    }
    printf(
        "  butterfly: %lld DSPs, %lld sums of %lld values each, %lld values differ from "
        "the sequential sum\n",
        (long long)procs, (long long)sums, (long long)n, (long long)wrong);
    return app_finish("butterfly");
}
