/*
 * check.c - the output check of the NLMS adaptive filter: `check nlms.json OUTDIR`.
 *
 * OUTDIR/taps<p>.txt hold the converged taps of each partial filter ("index value"
 * lines), OUTDIR/nlms.txt the error power of every block.  The check runs the textbook
 * sequential NLMS (one update per sample, no delay, in double) on the same signals and
 * compares:
 *   - each run's taps against the unknown system: misalignment at most MAX_MISALIGN_DB;
 *   - the graph's taps against the sequential run's: the same bound on their distance;
 *   - the error power over the last quarter of the blocks: within MAX_POWER_DB of the
 *     sequential run's, and at most MAX_NOISE_RATIO times the noise power.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../app_check.h"
#include "nlms_kernels.h"

#define MAX_MISALIGN_DB (-25.0)
#define MAX_POWER_DB 1.0
#define MAX_NOISE_RATIO 3.0
#define NOISE_POWER 1e-4 /* NOISE^2 of nlms_kernels.c */

static double
db(double x)
{
    return 10 * log10(x);
}

int
app_check(const char *outdir)
{
    int64_t block = app_param("combine", "block"), parts = app_param("combine", "parts");
    int64_t taps = app_param("src", "taps"), system = app_param("src", "system");
    int64_t blocks = app_iterations();
    double mu = app_real("combine", "mu"), eps = app_real("combine", "eps");
    double *w = calloc((size_t)taps, sizeof *w), *ref = calloc((size_t)taps, sizeof *ref);
    int *seen = calloc((size_t)taps, sizeof *seen);
    for (int64_t p = 0; p < parts; p++) {
        char name[32], id[32];
        snprintf(name, sizeof name, "taps%lld.txt", (long long)p);
        snprintf(id, sizeof id, "part%lld", (long long)p);
        size_t len;
        char *text = app_read_file(outdir, name, &len);
        int64_t first = app_param(id, "first"), count = app_param(id, "count");
        long long j;
        double v;
        int used, k = 0;
        for (char *s = text; sscanf(s, "%lld %lf%n", &j, &v, &used) == 2;
             s += used, k++) {
            if (j < first || j >= first + count || j >= taps || seen[j]) {
                app_fail("%s: tap %lld is not one of %s's", name, j, id);
                break;
            }
            seen[j] = 1;
            w[j] = v;
        }
        if (k != count)
            app_fail("%s: %d taps, expected %lld", name, k, (long long)count);
        free(text);
    }
    size_t len;
    char *text = app_read_file(outdir, "nlms.txt", &len);
    double *power = calloc((size_t)blocks, sizeof *power);
    int64_t nlines = 0;
    long long k;
    double v;
    int used;
    for (char *s = text; nlines < blocks && sscanf(s, "%lld %lf%n", &k, &v, &used) == 2;
         s += used, nlines++)
        power[nlines] = v;
    if (nlines != blocks)
        app_fail("nlms.txt: %lld blocks, expected %lld", (long long)nlines,
                 (long long)blocks);
    free(text);

    /* the sequential NLMS, sample by sample */
    double *ref_power = calloc((size_t)blocks, sizeof *ref_power);
    for (int64_t n = 0; n < blocks * block; n++) {
        double y = 0, e2 = 0, d = nlms_noise(n);
        for (int64_t j = 0; j < system; j++)
            d += (double)nlms_system(j, system) * nlms_x(n - j);
        for (int64_t j = 0; j < taps; j++) {
            double x = nlms_x(n - j);
            y += ref[j] * x;
            e2 += x * x;
        }
        double e = d - y, g = mu * e / (eps + e2);
        for (int64_t j = 0; j < taps; j++)
            ref[j] += g * nlms_x(n - j);
        ref_power[n / block] += e * e / (double)block;
    }
    double hh = 0, dw = 0, dr = 0, dwr = 0;
    for (int64_t j = 0; j < taps; j++) {
        double h = nlms_system(j, system);
        hh += h * h;
        dw += (w[j] - h) * (w[j] - h);
        dr += (ref[j] - h) * (ref[j] - h);
        dwr += (w[j] - ref[j]) * (w[j] - ref[j]);
    }
    double ep = 0, ep_ref = 0;
    int64_t tail = blocks / 4 ? blocks / 4 : 1;
    for (int64_t b = blocks - tail; b < blocks; b++) {
        ep += power[b] / (double)tail;
        ep_ref += ref_power[b] / (double)tail;
    }
    printf(
        "  nlms: %lld taps, %lld blocks of %lld samples; misalignment %.1f dB "
        "(sequential "
        "NLMS %.1f dB), distance to the sequential taps %.1f dB; error power of the last "
        "%lld blocks %.3g (sequential %.3g, noise %.3g)\n",
        (long long)taps, (long long)blocks, (long long)block, db(dw / hh), db(dr / hh),
        db(dwr / hh), (long long)tail, ep, ep_ref, NOISE_POWER);
    if (!(db(dw / hh) <= MAX_MISALIGN_DB))
        app_fail("misalignment of the taps %.1f dB > %.1f dB", db(dw / hh),
                 MAX_MISALIGN_DB);
    if (!(db(dr / hh) <= MAX_MISALIGN_DB))
        app_fail("misalignment of the sequential taps %.1f dB > %.1f dB", db(dr / hh),
                 MAX_MISALIGN_DB);
    if (!(db(dwr / hh) <= MAX_MISALIGN_DB))
        app_fail("distance to the sequential taps %.1f dB > %.1f dB", db(dwr / hh),
                 MAX_MISALIGN_DB);
    if (!(fabs(db(ep / ep_ref)) <= MAX_POWER_DB))
        app_fail("error power %.3g differs from the sequential %.3g by %.2f dB (> %.1f)",
                 ep, ep_ref, db(ep / ep_ref), MAX_POWER_DB);
    if (!(ep <= MAX_NOISE_RATIO * NOISE_POWER))
        app_fail("error power %.3g > %.1f x the noise power", ep, MAX_NOISE_RATIO);
    free(w);
    free(ref);
    free(seen);
    free(power);
    free(ref_power);
    return app_finish("nlms");
}
