/*
 * conv1d_kernels.h - the 1-D convolution y = x * h (full: length + taps - 1 outputs) of
 * [CONV] (docs/references.md) in its two models, as the kernels of task graphs on P DSPs:
 *
 *   round robin (rr-*.json): one round per iteration; the source broadcasts the P new
 *     samples of x, worker r keeps the last taps samples and computes y(kP + r), and the
 *     gather task collects the P outputs of the round;
 *   matrix partition (mp-*.json): one iteration; the source broadcasts all of x, worker r
 *     takes taps r taps/P .. (r+1) taps/P - 1 (a block of columns of the matrix h(j)
 * x(i)) and sums its anti-diagonals into a full-length partial y; one reduction adds
 * them.
 *
 * x and h hold small integers, so every sum is exact in float and both models must give
 * the sequential convolution exactly.  testcases/README.md has the cost model.
 *
 * The kernel interface of docs/kernels.md: tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/.
 */
#ifndef CONV1D_KERNELS_H
#define CONV1D_KERNELS_H

#include "tgc_kernel.h"

/* Round robin: out[r] = x(kP) .. x(kP + P - 1) of round k (zeros past the signal). */
void conv1d_rr_source(const tgc_io *io, int64_t length, int64_t procs);
/* Worker `rank`: in[0] = the round's samples; out[0] = y(kP + rank) (one float). */
void conv1d_rr_worker(const tgc_io *io, int64_t rank, int64_t procs, int64_t taps);
/* in[r] = y(kP + r); appends the outputs of the round that exist to the output file. */
void conv1d_rr_gather(const tgc_io *io, int64_t length, int64_t taps, int64_t procs);

/* Matrix partition: out[r] = the whole signal x (length floats), r < procs. */
void conv1d_mp_source(const tgc_io *io, int64_t length, int64_t procs);
/* Worker `rank`: in[0] = x; out[0] = its partial y (length + taps - 1 floats). */
void conv1d_mp_worker(const tgc_io *io, int64_t rank, int64_t procs, int64_t taps,
                      int64_t length);
/* in[r] = the partial y of worker r; writes their sum to the output file. */
void conv1d_mp_reduce(const tgc_io *io, int64_t length, int64_t taps, int64_t procs);

/* For the checks: the signal (0 outside 0 .. length - 1) and the filter. */
float conv1d_x(int64_t n, int64_t length);
float conv1d_h(int64_t j);

#endif
