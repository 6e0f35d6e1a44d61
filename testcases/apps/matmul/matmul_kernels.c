/* matmul_kernels.c - the kernels of the matrix multiply graphs (matmul_kernels.h). */
#include <stdio.h>
#include <string.h>

#include "matmul_kernels.h"

float
mm_a(int64_t product, int64_t i, int64_t j, int64_t k)
{
    return (float)(((i * k + j) * 7 + product * 3) % 11 - 5);
}

float
mm_b(int64_t i, int64_t j, int64_t m)
{
    return (float)((i * m + j) * 5 % 13 - 6);
}

static void
zero_outputs(const tgc_io *io)
{
    for (int o = 0; o < io->nout; o++)
        memset(io->out[o], 0, io->out_bytes[o]);
}

static int
fits(size_t have, int64_t floats)
{
    return floats >= 0 && have >= (size_t)floats * sizeof(float);
}

/* ---- basic slicing ---- */

void
mm_slice_source(const tgc_io *io, int64_t m, int64_t k, int64_t procs)
{
    zero_outputs(io);
    /* the rows of A in order over the outputs: m / procs to each (one output per
       worker), or all in one (slice-sdf.json: its tokens are the workers' slices) */
    int64_t row0 = 0;
    (void)procs;
    for (int o = 0; o < io->nout; o++) {
        float *a = io->out[o];
        int64_t rows = (int64_t)(io->out_bytes[o] / sizeof *a / (size_t)k);
        for (int64_t i = 0; i < rows && row0 + i < m; i++)
            for (int64_t j = 0; j < k; j++)
                a[i * k + j] = mm_a(io->iteration, row0 + i, j, k);
        row0 += rows;
    }
}

void
mm_slice_rows(const tgc_io *io, int64_t first, int64_t rows, int64_t m, int64_t k)
{
    zero_outputs(io);
    float *c = io->out[0];
    const float *a = io->in[0];
    if (!fits(io->in_bytes[0], rows * k) || !fits(io->out_bytes[0], rows * m))
        return;
    (void)first; /* B is the same on every DSP: the rows need not know where they are */
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < m; j++) {
            float s = 0;
            for (int64_t l = 0; l < k; l++)
                s += a[i * k + l] * mm_b(l, j, m);
            c[i * m + j] = s;
        }
}

/* ---- Fox-like ---- */

void
mm_fox_source(const tgc_io *io, int64_t m, int64_t k, int64_t procs)
{
    zero_outputs(io);
    int64_t rows = m / procs;
    for (int r = 0; r < io->nout && r < procs; r++) {
        float *a = io->out[r], *b = a + rows * k;
        if (!fits(io->out_bytes[r], 2 * rows * k))
            continue;
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < k; j++) {
                a[i * k + j] = mm_a(io->iteration, r * rows + i, j, k);
                b[i * k + j] = mm_b(j, r * rows + i, m); /* column r rows + i of B */
            }
    }
}

void
mm_fox_step(const tgc_io *io, int64_t rank, int64_t step, int64_t rows, int64_t m,
            int64_t k, int64_t procs, int64_t last)
{
    zero_outputs(io);
    const float *a = io->in[0], *b, *cin = NULL;
    if (!fits(io->in_bytes[0], 2 * rows * k + (step ? rows * m - rows * k : 0)))
        return;
    if (step == 0) {
        b = a + rows * k;
    } else {
        if (io->nin < 2 || !fits(io->in_bytes[1], rows * k))
            return;
        b = io->in[1];
        cin = a + rows * k;
    }
    float *out = io->out[0], *c = last ? out : out + rows * k;
    if (!fits(io->out_bytes[0], rows * m + (last ? 0 : rows * k)))
        return;
    if (!last) {
        memcpy(out, a, (size_t)(rows * k) * sizeof *a);
        if (io->nout < 2 || !fits(io->out_bytes[1], rows * k))
            return;
        memcpy(io->out[1], b, (size_t)(rows * k) * sizeof *b); /* to worker rank - 1 */
    }
    if (cin)
        memcpy(c, cin, (size_t)(rows * m) * sizeof *c);
    int64_t owner = (rank + step) % procs; /* whose columns b holds */
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < rows; j++) {
            float s = 0;
            for (int64_t l = 0; l < k; l++)
                s += a[i * k + l] * b[j * k + l];
            c[i * m + owner * rows + j] = s;
        }
}

/* ---- both ---- */

void
mm_gather(const tgc_io *io, int64_t m, int64_t procs)
{
    FILE *f = io->output ? fopen(io->output, io->iteration == 0 ? "w" : "a") : NULL;
    if (!f)
        return;
    /* the rows of C in order over the inputs: m / procs in each (one input per worker),
       or all in one (slice-sdf.json) */
    (void)procs;
    int in = 0;
    int64_t first = 0; /* the row in[in] starts with */
    for (int64_t i = 0; i < m; i++) {
        while (in < io->nin &&
               i >= first + (int64_t)(io->in_bytes[in] / sizeof(float) / (size_t)m)) {
            first += (int64_t)(io->in_bytes[in] / sizeof(float) / (size_t)m);
            in++;
        }
        for (int64_t j = 0; j < m; j++) {
            float v = in < io->nin ? ((const float *)io->in[in])[(i - first) * m + j] : 0;
            fprintf(f, "%.9g%c", (double)v, j == m - 1 ? '\n' : ' ');
        }
    }
    fclose(f);
}
