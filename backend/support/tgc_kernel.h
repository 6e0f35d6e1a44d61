/*
 * tgc_kernel.h - the kernel interface of tgc (docs/kernels.md), written by tgc into every
 * generated project.
 *
 *     void KERNEL(const tgc_io *io, PARAMS...);
 *
 * io gives the task's inputs (its in-edges, in the order of the graph's "edges" array)
 * and outputs (its out-edges, same order), each with its size in bytes, the iteration
 * being computed and the task's "output" file (NULL when it has none).  An actor of a
 * multi-rate graph sees one input per in-channel holding the tokens it consumes per
 * firing, in FIFO order, one output per out-channel for the tokens it produces, and
 * which of its firings per iteration the call is (docs/kernels.md).  The task's
 * "params" follow as arguments in the order the graph lists them: integers as int64_t,
 * reals as double, strings as const char *, booleans as int.  A kernel reads only its
 * inputs, writes only its outputs (every byte of them) and its output file, and keeps
 * state between calls only for one task (docs/kernels.md, rule 2; a delay edge is the
 * portable way).  The inputs of a delay edge hold zeros in the first iterations.
 */
#ifndef TGC_IO_DEFINED
#define TGC_IO_DEFINED
#include <stddef.h>
#include <stdint.h>

typedef struct tgc_io {
    int nin, nout;
    const void *const *in;   /* [nin] input buffers */
    const size_t *in_bytes;  /* [nin] */
    void *const *out;        /* [nout] output buffers */
    const size_t *out_bytes; /* [nout] */
    int64_t iteration;
    const char *output; /* the task's "output" file, or NULL */
    int64_t firing;     /* which firing of its actor the call is: 0 .. firings - 1 */
    int64_t firings;    /* how often the actor fires per iteration (1: single-rate) */
} tgc_io;
#endif
