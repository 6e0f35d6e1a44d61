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
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check GRAPH OUTDIR\n");
        return 2;
    }
    app_load_graph(argv[1]);
    const char *sink = app_count_tasks("gather") ? "gather" : "reduce";
    int64_t length = app_param(sink, "length"), taps = app_param(sink, "taps");
    int64_t ny = length + taps - 1, n = 0, wrong = 0, first_wrong = -1;
    size_t len;
    char *text = app_read_file(argv[2], "conv1d.txt", &len);
    double v;
    int used;
    for (char *s = text; sscanf(s, "%lf%n", &v, &used) == 1; s += used, n++) {
        if (n >= ny)
            continue;
        double ref = 0;
        for (int64_t j = 0; j < taps; j++)
            ref += (double)conv1d_h(j) * conv1d_x(n - j, length);
        if (v != ref && wrong++ == 0)
            first_wrong = n;
    }
    if (n != ny)
        app_fail("conv1d.txt has %lld values, expected %lld", (long long)n,
                 (long long)ny);
    if (wrong)
        app_fail("%lld of %lld values differ from the sequential convolution, the first "
                 "y(%lld)",
                 (long long)wrong, (long long)ny, (long long)first_wrong);
    printf(
        "  conv1d (%s): %lld outputs of %lld samples * %lld taps, %lld differ from the "
        "sequential convolution\n",
        sink[0] == 'g' ? "round robin" : "matrix partition", (long long)n,
        (long long)length, (long long)taps, (long long)wrong);
    free(text);
    return app_finish("conv1d");
}
