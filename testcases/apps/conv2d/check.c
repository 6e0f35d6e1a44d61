/*
 * check.c - the output check of the im2col convolution: `check conv2d.json OUTDIR`.
 *
 * OUTDIR/conv2d.txt holds one oh x ow output image per iteration (a line per output row);
 * it must equal the direct convolution exactly (the values are small integers).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../app_check.h"
#include "conv2d_kernels.h"

int
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check GRAPH OUTDIR\n");
        return 2;
    }
    app_load_graph(argv[1]);
    int64_t iw = app_param("im2col", "iw"), ci = app_param("im2col", "ci");
    int64_t kh = app_param("im2col", "kh"), kw = app_param("im2col", "kw");
    int64_t oh = app_param("gather", "oh"), ow = app_param("gather", "ow");
    int64_t images = app_iterations(), n = 0, wrong = 0, want = images * oh * ow;
    size_t len;
    char *text = app_read_file(argv[2], "conv2d.txt", &len);
    double v;
    int used;
    for (char *s = text; sscanf(s, "%lf%n", &v, &used) == 1; s += used, n++) {
        if (n >= want)
            continue;
        int64_t img = n / (oh * ow), oy = n / ow % oh, ox = n % ow;
        double ref = 0;
        for (int64_t ky = 0; ky < kh; ky++)
            for (int64_t kx = 0; kx < kw; kx++)
                for (int64_t c = 0; c < ci; c++)
                    ref += (double)conv2d_in(img, oy + ky, ox + kx, c, iw, ci) *
                           conv2d_ker((ky * kw + kx) * ci + c);
        if (v != ref && wrong++ == 0)
            app_fail(
                "image %lld, output (%lld, %lld) is %g, the direct convolution gives %g",
                (long long)img, (long long)oy, (long long)ox, v, ref);
    }
    if (n != want)
        app_fail("conv2d.txt has %lld values, expected %lld", (long long)n,
                 (long long)want);
    printf("  conv2d: %lld images of %lldx%lld outputs, %lld differ from the direct "
           "convolution\n",
           (long long)images, (long long)oh, (long long)ow, (long long)wrong);
    free(text);
    return app_finish("conv2d");
}
