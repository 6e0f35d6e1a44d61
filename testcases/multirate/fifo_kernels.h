/*
 * fifo_kernels.h - kernels that check the multi-rate kernel interface (docs/kernels.md)
 * from inside: every token is a label (who produced it, in which iteration and firing,
 * its place in the firing), and every actor checks that each input port holds, in FIFO
 * order, exactly the tokens the rates and initial tokens of its channels give it.
 *
 * The kernel interface of docs/kernels.md (tgc_io is repeated here under the guard of the
 * generated tgc_kernel.h, so that this file also compiles on its own).
 */
#ifndef FIFO_KERNELS_H
#define FIFO_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifndef TGC_IO_DEFINED
#define TGC_IO_DEFINED
typedef struct tgc_io {
    int nin, nout;
    const void *const *in;   /* [nin] input buffers */
    const size_t *in_bytes;  /* [nin] */
    void *const *out;        /* [nout] output buffers */
    const size_t *out_bytes; /* [nout] */
    int64_t iteration;
    const char *output; /* the task's "output" file, or NULL */
    int64_t firing;     /* which firing of its actor: 0 .. firings - 1 */
    int64_t firings;    /* the actor's firings per iteration */
} tgc_io;
#endif

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
