/*
 * matmul_kernels.h - C = A B (A m x k, B k x m) on P DSPs in the two ways of [MPIRIO]
 * (docs/references.md) section 4.2, as the kernels of task graphs; one product per
 * iteration (a new A each time, B fixed):
 *
 *   basic slicing (slice.json): DSP 0 sends each worker m/P rows of A; every DSP holds
 *     all of B (the paper's premise), so worker r computes rows r m/P .. of C alone;
 *   Fox-like (fox.json): DSP 0 sends worker r its rows of A and its m/P columns of B;
 *     in P steps worker r multiplies its rows by the column block it holds, then passes
 *     the block to worker r - 1 round the ring (task fox<r>_<s> is step s of worker r).
 *
 * The gather task on DSP 0 writes C.  The values are small integers, so every sum is
 * exact in float.  testcases/README.md has the cost model.
 *
 * The kernel interface of docs/kernels.md: tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/.
 */
#ifndef MATMUL_KERNELS_H
#define MATMUL_KERNELS_H

#include "tgc_kernel.h"

/* Basic slicing: out[r] = rows r m/P .. (r+1) m/P - 1 of A (rows x k floats); with one
 * output (slice-sdf.json, one token a worker's rows), all of A. */
void mm_slice_source(const tgc_io *io, int64_t m, int64_t k, int64_t procs);
/* in[0] = rows of A from row `first`; out[0] = the same rows of C (rows x m floats). */
void mm_slice_rows(const tgc_io *io, int64_t first, int64_t rows, int64_t m, int64_t k);

/* Fox-like: out[r] = worker r's rows of A, then its columns of B (column-major: each
 * column's k values together), rows x k floats each. */
void mm_fox_source(const tgc_io *io, int64_t m, int64_t k, int64_t procs);
/* Step `step` of worker `rank`.  in[0]: from the source (step 0: A rows, B block) or from
 * step - 1 (A rows, then the C rows so far); in[1] (step > 0): the B block of worker
 * rank + 1.  out[0]: A rows and C rows to the next step, or (last = 1) the C rows to the
 * gather task; out[1] (last = 0): the B block, to worker rank - 1. */
void mm_fox_step(const tgc_io *io, int64_t rank, int64_t step, int64_t rows, int64_t m,
                 int64_t k, int64_t procs, int64_t last);

/* in[r] = rows r m/P .. of C, or all of them in in[0] (slice-sdf.json); appends C (m lines
 * of m values) to the output file. */
void mm_gather(const tgc_io *io, int64_t m, int64_t procs);

/* For the checks: A of a product (i, j) and B (i, j). */
float mm_a(int64_t product, int64_t i, int64_t j, int64_t k);
float mm_b(int64_t i, int64_t j, int64_t m);

#endif
