/* conv2d_kernels.c - the kernels of the im2col convolution graph (conv2d_kernels.h). */
#include <stdio.h>
#include <string.h>

#include "conv2d_kernels.h"

float
conv2d_in(int64_t image, int64_t y, int64_t x, int64_t c, int64_t iw, int64_t ci)
{
    return (float)((((y * iw + x) * ci + c) * 7 + image * 5) % 9 - 4);
}

float
conv2d_ker(int64_t i)
{
    return (float)((i * 5) % 7 - 3);
}

void
conv2d_source(const tgc_io *io, int64_t ih, int64_t iw, int64_t ci, int64_t kl,
              int64_t procs)
{
    for (int o = 0; o < io->nout; o++)
        memset(io->out[o], 0, io->out_bytes[o]);
    float *img = io->out[0];
    if (io->out_bytes[0] >= (size_t)(ih * iw * ci) * sizeof *img)
        for (int64_t y = 0; y < ih; y++)
            for (int64_t x = 0; x < iw; x++)
                for (int64_t c = 0; c < ci; c++)
                    img[(y * iw + x) * ci + c] =
                        conv2d_in(io->iteration, y, x, c, iw, ci);
    for (int o = 1; o < io->nout && o <= procs; o++) {
        float *k = io->out[o];
        for (int64_t i = 0; i < kl && (size_t)(i + 1) * sizeof *k <= io->out_bytes[o];
             i++)
            k[i] = conv2d_ker(i);
    }
}

void
conv2d_im2col(const tgc_io *io, int64_t ih, int64_t iw, int64_t ci, int64_t kh,
              int64_t kw, int64_t procs)
{
    int64_t oh = ih - kh + 1, ow = iw - kw + 1, kl = kh * kw * ci, rows = oh * ow / procs;
    for (int o = 0; o < io->nout; o++)
        memset(io->out[o], 0, io->out_bytes[o]);
    const float *img = io->in[0];
    if (io->in_bytes[0] < (size_t)(ih * iw * ci) * sizeof *img)
        return;
    for (int64_t p = 0; p < oh * ow; p++) {
        int64_t r = p / rows, oy = p / ow, ox = p % ow;
        if (r >= io->nout || io->out_bytes[r] < (size_t)(rows * kl) * sizeof(float))
            continue;
        float *row = (float *)io->out[r] + (p % rows) * kl;
        for (int64_t ky = 0, c = 0; ky < kh; ky++)
            for (int64_t kx = 0; kx < kw; kx++)
                for (int64_t ch = 0; ch < ci; ch++, c++)
                    row[c] = img[((oy + ky) * iw + ox + kx) * ci + ch];
    }
}

void
conv2d_gemv(const tgc_io *io, int64_t rows, int64_t kl)
{
    float *y = io->out[0];
    memset(y, 0, io->out_bytes[0]);
    if (io->nin < 2 || io->in_bytes[0] < (size_t)(rows * kl) * sizeof(float) ||
        io->in_bytes[1] < (size_t)kl * sizeof(float) ||
        io->out_bytes[0] < (size_t)rows * sizeof *y)
        return;
    const float *a = io->in[0], *k = io->in[1];
    for (int64_t r = 0; r < rows; r++) {
        float s = 0;
        for (int64_t c = 0; c < kl; c++)
            s += a[r * kl + c] * k[c];
        y[r] = s;
    }
}

void
conv2d_gather(const tgc_io *io, int64_t oh, int64_t ow, int64_t procs)
{
    int64_t rows = oh * ow / procs;
    FILE *f = io->output ? fopen(io->output, io->iteration == 0 ? "w" : "a") : NULL;
    if (!f)
        return;
    for (int64_t p = 0; p < oh * ow; p++) {
        int64_t r = p / rows;
        float v = r < io->nin && io->in_bytes[r] >= (size_t)rows * sizeof(float)
                      ? ((const float *)io->in[r])[p % rows]
                      : 0;
        fprintf(f, "%.9g%c", (double)v, p % ow == ow - 1 ? '\n' : ' ');
    }
    fclose(f);
}
