/*
 * fir_kernels.h - kernels of the fir4 example graph.
 *
 * The kernel interface of docs/kernels.md (tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/):
 *
 *     void KERNEL(const tgc_io *io, PARAMS...);
 *
 * `io` gives the task's input buffers (its in-edges, in the order of the graph's "edges"
 * array) and output buffers (its out-edges, same order), each with its size in bytes, the
 * iteration being computed and the task's "output" file (NULL when it has none).  The
 * task's "params" follow as arguments in the order the graph lists them: integers as
 * int64_t, reals as double, strings as const char *, booleans as int.  A kernel reads only
 * its inputs and writes only its outputs (and its output file); the inputs of a delay edge
 * hold zeros in the first iterations.
 */
#ifndef FIR_KERNELS_H
#define FIR_KERNELS_H

#include "tgc_kernel.h"

/* 64 input samples (float) per iteration, from a fixed pseudo-random sequence. */
void fir_source(const tgc_io *io);
/* Partial FIR: taps first .. first+count-1 over the samples; 16 partial outputs (float).
 * An optional second input (feedback, 2 floats) scales the result. */
void fir_taps(const tgc_io *io, int64_t first, int64_t count);
/* Adds the partial outputs; writes the feedback (sum and energy) and appends the sum to
 * the output file. */
void fir_sum(const tgc_io *io);

#endif
