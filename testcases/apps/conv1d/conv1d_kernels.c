/* conv1d_kernels.c - the kernels of the 1-D convolution graphs (conv1d_kernels.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv1d_kernels.h"

enum { MAX_PROCS = 64, MAX_WINDOW = 4096 };

float
conv1d_x(int64_t n, int64_t length)
{
    return n < 0 || n >= length ? 0.0f : (float)((n * 13) % 17 - 8);
}

float
conv1d_h(int64_t j)
{
    return (float)((j * 3) % 7 - 3);
}

/* Appends y values to the output file ("w" in iteration 0), one per line. */
static void
write_outputs(const tgc_io *io, const float *y, int64_t n)
{
    FILE *f =
        io->output && n > 0 ? fopen(io->output, io->iteration == 0 ? "w" : "a") : NULL;
    if (!f)
        return;
    for (int64_t i = 0; i < n; i++)
        fprintf(f, "%.9g\n", (double)y[i]);
    fclose(f);
}

/* ---- round robin ---- */

void
conv1d_rr_source(const tgc_io *io, int64_t length, int64_t procs)
{
    for (int o = 0; o < io->nout; o++) {
        float *x = io->out[o];
        memset(x, 0, io->out_bytes[o]);
        for (int64_t i = 0; i < procs && (size_t)(i + 1) * sizeof *x <= io->out_bytes[o];
             i++)
            x[i] = conv1d_x(io->iteration * procs + i, length);
    }
}

/* The last samples each worker has seen, one slot per rank (each belongs to one task:
 * docs/kernels.md, rule 2): window[w - 1] is the newest. */
static float windows[MAX_PROCS][MAX_WINDOW];

void
conv1d_rr_worker(const tgc_io *io, int64_t rank, int64_t procs, int64_t taps)
{
    float *y = io->out[0];
    memset(y, 0, io->out_bytes[0]);
    int64_t w = taps + procs;
    if (rank < 0 || rank >= MAX_PROCS || w > MAX_WINDOW ||
        io->in_bytes[0] < (size_t)procs * sizeof(float) || io->out_bytes[0] < sizeof *y)
        return;
    float *win = windows[rank];
    if (io->iteration == 0)
        memset(win, 0, sizeof windows[rank]);
    memmove(win, win + procs, (size_t)(w - procs) * sizeof *win);
    memcpy(win + w - procs, io->in[0], (size_t)procs * sizeof *win);
    /* y(kP + rank) = sum_j h(j) x(kP + rank - j); x(kP + i) is win[w - procs + i] */
    float acc = 0;
    for (int64_t j = 0; j < taps; j++)
        acc += conv1d_h(j) * win[w - procs + rank - j];
    y[0] = acc;
}

void
conv1d_rr_gather(const tgc_io *io, int64_t length, int64_t taps, int64_t procs)
{
    float y[MAX_PROCS];
    int64_t ny = length + taps - 1, n0 = io->iteration * procs, n = 0;
    for (int64_t r = 0; r < procs && r < io->nin && r < MAX_PROCS && n0 + r < ny;
         r++, n++)
        y[r] = io->in_bytes[r] >= sizeof(float) ? ((const float *)io->in[r])[0] : 0;
    write_outputs(io, y, n);
}

/* ---- matrix partition ---- */

void
conv1d_mp_source(const tgc_io *io, int64_t length, int64_t procs)
{
    for (int o = 0; o < io->nout && o < procs; o++) {
        float *x = io->out[o];
        memset(x, 0, io->out_bytes[o]);
        for (int64_t i = 0; i < length && (size_t)(i + 1) * sizeof *x <= io->out_bytes[o];
             i++)
            x[i] = conv1d_x(i, length);
    }
}

void
conv1d_mp_worker(const tgc_io *io, int64_t rank, int64_t procs, int64_t taps,
                 int64_t length)
{
    float *part = io->out[0];
    memset(part, 0, io->out_bytes[0]);
    int64_t ny = length + taps - 1, nb = taps / procs;
    if (io->in_bytes[0] < (size_t)length * sizeof(float) ||
        io->out_bytes[0] < (size_t)ny * sizeof *part)
        return;
    const float *x = io->in[0];
    for (int64_t j = rank * nb; j < (rank + 1) * nb; j++) /* column j of h(j) x(i) */
        for (int64_t i = 0; i < length; i++)
            part[j + i] += conv1d_h(j) * x[i];
}

void
conv1d_mp_reduce(const tgc_io *io, int64_t length, int64_t taps, int64_t procs)
{
    int64_t ny = length + taps - 1;
    if (io->nin != procs)
        return;
    for (int r = 0; r < io->nin; r++)
        if (io->in_bytes[r] < (size_t)ny * sizeof(float))
            return;
    float *y = malloc((size_t)ny * sizeof *y);
    if (!y)
        return;
    for (int64_t n = 0; n < ny; n++) {
        float s = 0;
        for (int r = 0; r < io->nin; r++)
            s += ((const float *)io->in[r])[n];
        y[n] = s;
    }
    write_outputs(io, y, ny);
    free(y);
}
