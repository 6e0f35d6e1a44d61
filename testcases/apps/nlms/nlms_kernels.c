/* nlms_kernels.c - the kernels of the NLMS adaptive filter graph (nlms_kernels.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nlms_kernels.h"

enum { MAX_PARTS = 16, MAX_HISTORY = 8192 };
static const float NOISE = 0.01f; /* standard deviation of the measurement noise */

static uint32_t
hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

float
nlms_x(int64_t n)
{
    if (n < 0)
        return 0;
    return (float)hash32((uint32_t)n * 2u + 1u) / 2147483648.0f - 1.0f; /* [-1, 1) */
}

float
nlms_noise(int64_t n)
{
    /* uniform on [-a, a) with a = NOISE sqrt(3): variance NOISE^2 */
    float u = (float)hash32((uint32_t)n * 2u + 0x9e3779b9u) / 2147483648.0f - 1.0f;
    return u * NOISE * 1.7320508f;
}

float
nlms_system(int64_t j, int64_t system)
{
    if (j < 0 || j >= system)
        return 0;
    return (float)(pow(0.98, (double)j) * cos(0.35 * (double)j));
}

/* The regressor energy E(n) = x(n)^2 + ... + x(n - taps + 1)^2, carried from block to
 * block (the source is one task: docs/kernels.md, rule 2), in double so that the running
 * sum does not drift. */
static double energy;

void
nlms_source(const tgc_io *io, int64_t block, int64_t taps, int64_t system)
{
    int64_t n0 = io->iteration * block;
    for (int o = 0; o < io->nout; o++)
        memset(io->out[o], 0, io->out_bytes[o]);
    for (int o = 0; o + 1 < io->nout; o++) {
        float *x = io->out[o];
        for (int64_t i = 0; i < block && (size_t)(i + 1) * sizeof *x <= io->out_bytes[o];
             i++)
            x[i] = nlms_x(n0 + i);
    }
    float *de = io->out[io->nout - 1];
    if (io->out_bytes[io->nout - 1] < (size_t)(2 * block) * sizeof *de)
        return;
    if (io->iteration == 0)
        energy = 0;
    for (int64_t i = 0; i < block; i++) {
        int64_t n = n0 + i;
        float d = nlms_noise(n);
        for (int64_t j = 0; j < system; j++)
            d += nlms_system(j, system) * nlms_x(n - j);
        double in = nlms_x(n), out = nlms_x(n - taps);
        energy += in * in - out * out;
        de[i] = d;
        de[block + i] = (float)(energy > 0 ? energy : 0);
    }
}

/* The state of a partial filter between blocks, one slot per part (each slot belongs to
 * one task: docs/kernels.md, rule 2). */
static struct Partial {
    float w[MAX_HISTORY];    /* its taps */
    float hist[MAX_HISTORY]; /* x(n0 - len + 1) .. x(n0 + block - 1), n0 = this block */
} partials[MAX_PARTS];

void
nlms_partial(const tgc_io *io, int64_t part, int64_t first, int64_t count, int64_t block)
{
    float *y = io->out[0];
    memset(y, 0, io->out_bytes[0]);
    /* the history covers the previous block and this one, first + count - 1 back */
    int64_t len = 2 * block + first + count;
    if (part < 0 || part >= MAX_PARTS || len > MAX_HISTORY || count > MAX_HISTORY ||
        io->in_bytes[0] < (size_t)block * sizeof(float) ||
        io->out_bytes[0] < (size_t)block * sizeof(float))
        return;
    struct Partial *s = &partials[part];
    if (io->iteration == 0)
        memset(s, 0, sizeof *s);
    const float *x = io->in[0];
    memmove(s->hist, s->hist + block, (size_t)(len - block) * sizeof *s->hist);
    memcpy(s->hist + len - block, x, (size_t)block * sizeof *x);
    /* x(n) of this block's sample i is hist[len - block + i] */
    if (io->nin > 1 && io->in_bytes[1] >= (size_t)block * sizeof(float)) {
        const float *g = io->in[1]; /* of the previous block: zeros in block 0 */
        for (int64_t j = 0; j < count; j++) {
            float acc = 0;
            for (int64_t i = 0; i < block; i++)
                acc += g[i] * s->hist[len - 2 * block + i - first - j];
            s->w[j] += acc;
        }
    }
    for (int64_t i = 0; i < block; i++) {
        float acc = 0;
        for (int64_t j = 0; j < count; j++)
            acc += s->w[j] * s->hist[len - block + i - first - j];
        y[i] = acc;
    }
    FILE *f = io->output ? fopen(io->output, "w") : NULL;
    if (f) {
        for (int64_t j = 0; j < count; j++)
            fprintf(f, "%lld %.9g\n", (long long)(first + j), (double)s->w[j]);
        fclose(f);
    }
}

void
nlms_combine(const tgc_io *io, int64_t block, int64_t parts, double mu, double eps)
{
    for (int o = 0; o < io->nout; o++)
        memset(io->out[o], 0, io->out_bytes[o]);
    if (io->nin != parts + 1 || io->in_bytes[parts] < (size_t)(2 * block) * sizeof(float))
        return;
    for (int p = 0; p < parts; p++)
        if (io->in_bytes[p] < (size_t)block * sizeof(float))
            return;
    const float *de = io->in[parts];
    double power = 0;
    for (int64_t i = 0; i < block; i++) {
        float y = 0;
        for (int p = 0; p < parts; p++)
            y += ((const float *)io->in[p])[i];
        float e = de[i] - y;
        float g = (float)mu * e / ((float)eps + de[block + i]);
        for (int o = 0; o < io->nout; o++)
            if (io->out_bytes[o] >= (size_t)block * sizeof(float))
                ((float *)io->out[o])[i] = g;
        power += (double)e * e;
    }
    FILE *f = io->output ? fopen(io->output, io->iteration == 0 ? "w" : "a") : NULL;
    if (f) {
        fprintf(f, "%lld %.9g\n", (long long)io->iteration, power / (double)block);
        fclose(f);
    }
}
