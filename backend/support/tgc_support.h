/*
 * tgc_support.h - what the generated files of a tgc project share (written by tgc; the
 * same in every project).  The per-graph constants come from tgc_graph.h.
 *
 * Buffers.  Every edge is a buffer of `bytes` bytes, or a ring of `nslots` of them:
 * iteration i writes slot i % nslots, and the consumer of iteration i reads the value of
 * iteration i - delay (slot (i - delay) % nslots), or zeros while i < delay.  An edge
 * within one DSP has delay + 1 slots; the producer's side of a message has one (it waits
 * for the transfer before writing again).  A delayed transfer x (delay d >= 1) is
 * received in iteration x + 1 into slot x % d of a ring of d slots, d + 1 when the
 * receive is pipelined (the next transfer lands while the consumer reads); a zero-delay
 * pipelined receive has two.
 *
 * Messages.  tgc_send, tgc_recv and tgc_post_first implement the operations of
 * docs/design.md section 3 on MPIRIO: the tag of a message is its index, so every message
 * keeps its own order of transfers.
 */
#ifndef TGC_SUPPORT_H
#define TGC_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "mpirio.h"
#include "tgc_kernel.h"

typedef struct TgcBuf {
    unsigned char *base;
    size_t bytes;
    int nslots;
    int delay;
} TgcBuf;

typedef struct TgcMsg {
    int id;                /* message index: the tag */
    int peer;              /* destination (send side) or source (receive side) */
    int delay;             /* transfer x: sent in iteration x, received in x (delay 0) or
                              x + 1, read by the consumer of iteration x + delay */
    int pipelined;         /* receive side: double-buffered, posted one transfer ahead */
    int nparts;            /* edges carried; > 1 = aggregated (packed) */
    int bytes;             /* sum of the parts */
    long long copy_cycles; /* aggregated: ceil(bytes / copy_bytes_per_cycle) */
    TgcBuf *const *parts;  /* send: the producers' buffers; receive: the consumers' */
    unsigned char *pack;   /* aggregated: 1 slot, or 2 when pipelined */
    MPIRIO_Request req;    /* the transfer in flight, or MPIRIO_REQUEST_NULL */
} TgcMsg;

typedef void (*TgcKernel)(const tgc_io *io);

typedef struct TgcTaskInfo { /* tasks.c: one per task of the graph */
    const char *label;       /* the id, escaped and quoted, for messages */
    TgcKernel kernel;
    const char *output; /* the "output" file, or NULL */
} TgcTaskInfo;

typedef struct TgcEdgeInfo {
    const char *label; /* "from" -> "to", escaped */
    long long bytes;
    int delay;
} TgcEdgeInfo;

typedef struct TgcTask { /* a task on the DSP that runs it */
    int task;            /* index into tgc_tasks */
    int dsp;
    long long cycles; /* its cost on that DSP */
    int nin, nout, nzc;
    const int *in_edges; /* [nin] edge index of each input */
    TgcBuf *const *in;   /* [nin] */
    TgcBuf *const *out;  /* [nout] */
    TgcMsg *const *zc;   /* [nzc] single-edge messages sending an output in place */
    const void **in_ptr; /* [nin] scratch */
    size_t *in_bytes;    /* [nin] */
    void **out_ptr;      /* [nout] scratch */
    size_t *out_bytes;   /* [nout] */
} TgcTask;

/* A firing of an actor of a multi-rate graph (docs/kernels.md): which firing it is, and
 * its ports when its edges carry parts of them (a run of tokens each). */
typedef struct TgcPorts {
    long long firing, firings;
    int nip, nop;                         /* input and output ports; 0: the edges */
    const int *in_port;                   /* [nin] the input port of each in-edge */
    const size_t *in_off;                 /* [nin] its byte offset there */
    const int *out_port;                  /* [nout] the output port of each out-edge */
    const size_t *out_off;                /* [nout] */
    unsigned char *const *ip, *const *op; /* [nip], [nop] the ports' buffers */
    const size_t *ip_bytes, *op_bytes;    /* [nip], [nop] their sizes */
} TgcPorts;

typedef struct TgcArgs {
    const char *platform;   /* --platform FILE */
    const char *output_dir; /* --output-dir DIR: where the tasks' output files go */
    int flags;              /* MPIRIO_RUN_ flags */
} TgcArgs;

extern const TgcTaskInfo tgc_tasks[];
extern const TgcEdgeInfo tgc_edges[];

void tgc_compute(const TgcTask *t, int64_t it);
/* tgc_compute of a firing: its inputs gathered into its ports before the kernel, its
 * output ports scattered into its edges after it. */
void tgc_compute_ports(const TgcTask *t, const TgcPorts *p, int64_t it);
/* The kernel of t for iteration it and the checksums of its inputs, without the runtime
 * (tgc_compute is the zero-copy waits, this, then MPIRIO_Compute): for a program that
 * runs the tasks some other way, such as bench/bench_omp.c's OpenMP tasks. */
void tgc_kernel_step(const TgcTask *t, int64_t it);
void tgc_send(TgcMsg *m, int64_t it);
void tgc_recv(TgcMsg *m, int64_t it);
void tgc_post_first(TgcMsg *m);
void tgc_wait_send(TgcMsg *m);
/* A DSP with operations has ended iteration `it` (for the measured period). */
void tgc_iteration_end(int dsp, int64_t it);
void tgc_dsp_end(int dsp);
/* The built-in kernel: hashes the task's seed, the iteration and every input into every
 * output, so that any graph can be run and checked. */
void tgc_synthetic(const tgc_io *io, uint64_t seed);
/* The command line of the parallel and the sequential program: -1 to run, else the exit
 * status to return at once (0 after --help, 2 after a usage error). */
int tgc_parse_args(TgcArgs *a, int argc, char **argv, const char *program);
/* Prints the checksums and totals; returns the exit status (0; 1 when the platform could
 * not be set up; 3 after a deadlock, whose report goes to stderr). */
int tgc_report(int run_rc, const char *program, int ndsps, long long predicted_cycles,
               long long predicted_packets);

#endif
