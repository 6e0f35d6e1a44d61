/*
 * nlms_kernels.h - an NLMS adaptive filter identifying an unknown system (a fixed FIR
 * plus noise), its taps split over partial filters, as the kernels of a task graph: one
 * block of samples per iteration; the combiner feeds the normalised error back to the
 * partial filters through a delay edge, so each block updates the taps with the error of
 * the block before.  testcases/README.md explains the split and the cost model.
 *
 * The kernel interface of docs/kernels.md: tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/.
 */
#ifndef NLMS_KERNELS_H
#define NLMS_KERNELS_H

#include "tgc_kernel.h"

/* Block `iteration` of the input x (block floats, to every partial filter: out[0] ..
 * out[nout-2]) and, to the combiner (out[nout-1], 2 x block floats), the desired signal
 * d = h * x + noise and the regressor energy E(n) = x(n)^2 + ... + x(n - taps + 1)^2. */
void nlms_source(const tgc_io *io, int64_t block, int64_t taps, int64_t system);
/* Partial filter `part`: taps first .. first + count - 1.  in[0] = the block of x, in[1]
 * = the normalised error g of the previous block (delay 1).  Updates its taps with g and
 * the previous block, then filters the block: out[0] = block partial outputs.  Rewrites
 * its output file with its taps after every block. */
void nlms_partial(const tgc_io *io, int64_t part, int64_t first, int64_t count,
                  int64_t block);
/* The combiner: in[0 .. parts-1] = the partial outputs, in[parts] = d and E.  e = d - y,
 * g = mu e / (eps + E) to every partial (out[p]); appends "block error-power" to its
 * output file. */
void nlms_combine(const tgc_io *io, int64_t block, int64_t parts, double mu, double eps);

/* For the checks: the input, the noise and the unknown system. */
float nlms_x(int64_t n);
float nlms_noise(int64_t n);
float nlms_system(int64_t j, int64_t system);

#endif
