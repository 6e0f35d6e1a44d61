/*
 * conv2d_kernels.h - 2-D convolution by im2col ([MPIRIO] (docs/references.md)
 * section 4.3) as the kernels of a task graph on P DSPs: an ih x iw x ci input and a kh x
 * kw x ci kernel, VALID, stride 1 (36x36x3 with 5x5x3 gives 32x32).  DSP 0 builds the
 * im2col matrix (one row of kh kw ci values per output pixel), sends each worker a block
 * of its rows and the kernel; worker r multiplies its block by the kernel (a
 * matrix-vector product) and the gather task puts the output image together.  One image
 * per iteration; the values are small integers, so every sum is exact in float.
 * testcases/README.md has the cost model.
 *
 * The kernel interface of docs/kernels.md: tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/.
 */
#ifndef CONV2D_KERNELS_H
#define CONV2D_KERNELS_H

#include "tgc_kernel.h"

/* out[0] = image `iteration` (ih x iw x ci floats, channels innermost); out[1 ..] = the
 * kernel (kl = kh kw ci floats) for each worker. */
void conv2d_source(const tgc_io *io, int64_t ih, int64_t iw, int64_t ci, int64_t kl,
                   int64_t procs);
/* in[0] = the image; out[r] = rows r (oh ow / procs) .. of the im2col matrix. */
void conv2d_im2col(const tgc_io *io, int64_t ih, int64_t iw, int64_t ci, int64_t kh,
                   int64_t kw, int64_t procs);
/* in[0] = rows x kl block, in[1] = the kernel; out[0] = the rows outputs. */
void conv2d_gemv(const tgc_io *io, int64_t rows, int64_t kl);
/* in[r] = the outputs of worker r; appends the oh x ow image to the output file. */
void conv2d_gather(const tgc_io *io, int64_t oh, int64_t ow, int64_t procs);

/* For the checks: the input value (y, x, c) of an image; the kernel value i, in the order
 * kh, kw, ci (i = (y kw + x) ci + c). */
float conv2d_in(int64_t image, int64_t y, int64_t x, int64_t c, int64_t iw, int64_t ci);
float conv2d_ker(int64_t i);

#endif
