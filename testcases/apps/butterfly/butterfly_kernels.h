/*
 * butterfly_kernels.h - the global sum of P vectors by a butterfly (recursive doubling,
 * [MPIRIO] (docs/references.md) Table 3) as the kernels of a task graph: DSP r holds
 * vector v_r; in step s (1 .. log2 P) it sends its partial sum to DSP r ^ 2^(s-1),
 * receives that DSP's and adds them, so that after log2 P steps every DSP holds v_0 + ...
 * + v_(P-1).  Task bf<r>_<s> is step s of DSP r (step 0 makes v_r).  One sum per
 * iteration; the values are small integers, so every sum is exact.  testcases/README.md
 * has the cost model.
 *
 * The kernel interface of docs/kernels.md: tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/.
 */
#ifndef BUTTERFLY_KERNELS_H
#define BUTTERFLY_KERNELS_H

#include "tgc_kernel.h"

/* Step 0 of DSP `rank`: every output = v_rank (n floats); outs = the number of outputs.
 */
void bf_init(const tgc_io *io, int64_t rank, int64_t n, int64_t outs);
/* A step: in[0] = this DSP's partial sum, in[1] = the partner's; every output = their sum
 * (n floats).  The last step (no outputs) appends the sum to its output file. */
void bf_step(const tgc_io *io, int64_t n, int64_t outs);

/* For the checks: element i of v_rank in an iteration. */
float bf_value(int64_t iteration, int64_t rank, int64_t i);

#endif
