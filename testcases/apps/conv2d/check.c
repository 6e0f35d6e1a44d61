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
app_check(const char *outdir)
{
    int64_t iw = app_param("im2col", "iw"), ci = app_param("im2col", "ci");
    int64_t kh = app_param("im2col", "kh"), kw = app_param("im2col", "kw");
    int64_t oh = app_param("gather", "oh"), ow = app_param("gather", "ow");
    int64_t images = app_iterations(), n = 0, wrong = 0, want = images * oh * ow;
    double *out = app_read_values(outdir, "conv2d.txt", &n);
    for (int64_t i = 0; i < n && i < want; i++) {
        int64_t img = i / (oh * ow), oy = i / ow % oh, ox = i % ow;
        double ref = 0;
        for (int64_t ky = 0; ky < kh; ky++)
            for (int64_t kx = 0; kx < kw; kx++)
                for (int64_t c = 0; c < ci; c++)
                    ref += (double)conv2d_in(img, oy + ky, ox + kx, c, iw, ci) *
                           conv2d_ker((ky * kw + kx) * ci + c);
        if (out[i] != ref && wrong++ == 0)
            app_fail(
                "image %lld, output (%lld, %lld) is %g, the direct convolution gives %g",
                (long long)img, (long long)oy, (long long)ox, out[i], ref);
    }
    app_check_count("conv2d.txt", n, want);
    printf("  conv2d: %lld images of %lldx%lld outputs, %lld differ from the direct "
           "convolution\n",
           (long long)images, (long long)oh, (long long)ow, (long long)wrong);
    free(out);
    return app_finish("conv2d");
}
