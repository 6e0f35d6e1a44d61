/* fir_kernels.c - kernels of the fir4 example graph (interface: fir_kernels.h). */
#include <stdio.h>
#include <string.h>

#include "fir_kernels.h"

enum { NSAMPLES = 64, NTAPS = 64, NPART = 16 };

static float
coefficient(int64_t k)
{
    /* A symmetric low-pass window, exact in float. */
    int64_t m = k < NTAPS / 2 ? k : NTAPS - 1 - k;
    return (float)(m + 1) / (float)(NTAPS * NTAPS);
}

void
fir_source(const tgc_io *io)
{
    float *x = io->out[0];
    size_t n = io->out_bytes[0] / sizeof *x;
    uint32_t s = (uint32_t)io->iteration * 2654435761u + 1u;
    for (size_t i = 0; i < n && i < NSAMPLES; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)(s >> 8) / (float)(1u << 24) - 0.5f;
    }
    for (size_t o = 1; o < (size_t)io->nout; o++)
        memcpy(io->out[o], x, io->out_bytes[o] < io->out_bytes[0] ? io->out_bytes[o]
                                                                  : io->out_bytes[0]);
}

void
fir_taps(const tgc_io *io, int64_t first, int64_t count)
{
    const float *x = io->in[0];
    size_t nx = io->in_bytes[0] / sizeof *x;
    float gain = 1.0f;
    if (io->nin > 1 && io->in_bytes[1] >= 2 * sizeof(float)) {
        const float *fb = io->in[1];
        gain = 1.0f / (1.0f + (fb[1] > 0 ? fb[1] : 0));
    }
    float *y = io->out[0];
    size_t ny = io->out_bytes[0] / sizeof *y;
    for (size_t j = 0; j < ny && j < NPART; j++) {
        float acc = 0;
        for (int64_t k = 0; k < count; k++) {
            size_t i = (j * 4 + (size_t)k) % (nx ? nx : 1);
            acc += coefficient(first + k) * (nx ? x[i] : 0.0f);
        }
        y[j] = acc * gain;
    }
}

void
fir_sum(const tgc_io *io)
{
    float sum = 0, energy = 0;
    for (int i = 0; i < io->nin; i++) {
        const float *p = io->in[i];
        for (size_t j = 0; j < io->in_bytes[i] / sizeof *p; j++) {
            sum += p[j];
            energy += p[j] * p[j];
        }
    }
    if (io->nout > 0 && io->out_bytes[0] >= 2 * sizeof(float)) {
        float *fb = io->out[0];
        fb[0] = sum;
        fb[1] = energy;
    }
    if (io->output) {
        FILE *f = fopen(io->output, io->iteration == 0 ? "w" : "a");
        if (f) {
            fprintf(f, "%lld %.6f\n", (long long)io->iteration, (double)sum);
            fclose(f);
        }
    }
}
