/*
 * check.c - the output check of the 1-D convolution graphs: `check GRAPH OUTDIR`.
 *
 * OUTDIR/conv1d.txt holds y, one value per line; it must equal the sequential full
 * convolution of x and h exactly (they hold small integers, so every sum is exact).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../app_check.h"
#include "conv1d_kernels.h"

int
app_check(const char *outdir)
{
    const char *sink = app_count_tasks("gather") ? "gather" : "reduce";
    int64_t length = app_param(sink, "length"), taps = app_param(sink, "taps");
    int64_t ny = length + taps - 1, n = 0, wrong = 0, first_wrong = -1;
    double *y = app_read_values(outdir, "conv1d.txt", &n);
    for (int64_t i = 0; i < n && i < ny; i++) {
        double ref = 0;
        for (int64_t j = 0; j < taps; j++)
            ref += (double)conv1d_h(j) * conv1d_x(i - j, length);
        if (y[i] != ref && wrong++ == 0)
            first_wrong = i;
    }
    app_check_count("conv1d.txt", n, ny);
    if (wrong)
        app_fail("%lld of %lld values differ from the sequential convolution, the first "
                 "y(%lld)",
                 (long long)wrong, (long long)ny, (long long)first_wrong);
    printf(
        "  conv1d (%s): %lld outputs of %lld samples * %lld taps, %lld differ from the "
        "sequential convolution\n",
        sink[0] == 'g' ? "round robin" : "matrix partition", (long long)n,
        (long long)length, (long long)taps, (long long)wrong);
    free(y);
    return app_finish("conv1d");
}
