/*
 * fifo_kernels.h - kernels that check the multi-rate kernel interface (docs/kernels.md)
 * from inside: every token is a label (who produced it, in which iteration and firing,
 * its place in the firing), and every actor checks that each input port holds, in FIFO
 * order, exactly the tokens the rates and initial tokens of its channels give it.
 *
 * The kernel interface of docs/kernels.md: tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/.
 */
#ifndef FIFO_KERNELS_H
#define FIFO_KERNELS_H

#include "tgc_kernel.h"

/* A token: its producer's id, iteration and firing, its index among the tokens that
 * firing wrote on that channel, and the mismatches found upstream of it (zeros: an
 * initial token). */
typedef struct FifoToken {
    int32_t actor, iteration, firing, index;
    int64_t errors;
} FifoToken;

/* Actor `id`, which fires `firings` times per iteration: checks its inputs against
 * `inputs`, one "PRODUCER,PRODUCE,PRODUCER_FIRINGS,CONSUME,TOKENS" per input port
 * separated by ";" (in the order of its in-channels), then labels its output tokens, each
 * with the mismatches it saw and those its inputs carried.  With an output file, appends
 * "iteration N firing F errors E" (a sink fires once per iteration). */
void fifo_actor(const tgc_io *io, int64_t id, int64_t firings, const char *inputs);

#endif
