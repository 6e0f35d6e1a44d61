/* mpirio_int.h: the interface between the API layer and a transport.
 *
 * api.c (the MPIRIO API: argument checks, communicators, the MPICH collectives over
 * point-to-point) includes only this header: it calls the tr_ functions below and the
 * datatype helpers, nothing else of libmpirio. The simulated BWDSP/RapidIO platform
 * implements the tr_ functions (sim.h, sim_*.c); a second transport (real MPI) is one
 * more file defining them, chosen by the build, with api.c unchanged. */
#ifndef MPIRIO_INT_H
#define MPIRIO_INT_H

#include "mpirio.h"
#include <stddef.h>
#include <stdint.h>

typedef long long Cycles;
typedef struct MPIRIO_Req Req; /* a transport's request (MPIRIO_Request) */

/* ---- datatype.c: basic datatypes and reduction operators (below every layer) ---- */

size_t dt_size(MPIRIO_Datatype t); /* 0 for an unknown type */
int dt_op_valid(MPIRIO_Datatype t, MPIRIO_Op op);
/* acc = acc op in, n elements; 0 or MPIRIO_ERR_OP */
int dt_reduce(void *acc, const void *in, int n, MPIRIO_Datatype t, MPIRIO_Op op);

/* ---- the transport ---- */

/* what a run leaves for MPIRIO_Run_stats and MPIRIO_Run_finish_times (api.c keeps
 * the last run's): the statistics and each DSP's finish time (finish, nfinish: malloc'd
 * by the transport); ran = 0 where no run was tried (another was in progress) */
typedef struct RunResult {
    int ran;
    MPIRIO_Stats stats;
    long long *finish;
    int nfinish;
} RunResult;
/* a run of n DSPs of dsp_main (MPIRIO_Run): 0, 1 (set-up error), 2 (deadlock); out
 * zero at the call */
int tr_run(int n, const char *platform, int flags, void (*fn)(int, void *), void *arg,
           RunResult *out);
int tr_dsp(void);         /* 1 inside a DSP of a running job */
int tr_active(void);      /* 1 inside a DSP that has not called Finalize */
int tr_strict(void);      /* calls outside Init..Finalize end the run (mpirio-run) */
void **tr_api_slot(void); /* the API layer's per-DSP pointer (NULL at first) */
void tr_call(const char *name); /* the API call the DSP is in (deadlock report) */
const char *tr_last_call(void); /* the last name given to tr_call, or NULL */
int tr_rank(void);              /* caller's global rank */
int tr_size(void);
int tr_dsps_per_board(void);
int tr_isend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank,
             Req **out);
/* blocking = 1: posted now, no overhead (MPIRIO_Recv); 0: post_overhead first */
int tr_irecv(void *buf, size_t cap, int src, int ctx, int tag, int blocking, Req **out);
/* the same, but the send completes only once the receiver has matched it (MPI_Ssend) */
int tr_issend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank,
              Req **out);
int tr_wait(Req *r, MPIRIO_Status *st); /* frees r; returns its error */
/* blocks until one of rs[0..n-1] (NULL entries skipped, one at least not NULL) is
 * complete; its index (tr_wait or tr_test then frees it) */
int tr_waitany(int n, Req **rs);
/* is a message of (src or -1, ctx, tag or -1) waiting to be received? Its envelope
 * in *st (source, tag, count); tr_probe blocks until there is one */
int tr_iprobe(int src, int ctx, int tag, int *flag, MPIRIO_Status *st);
int tr_probe(int src, int ctx, int tag, MPIRIO_Status *st);
/* the same, and the message is taken: no receive matches it but tr_imrecv's (MPI's
 * matched probe); blocking: waits for one */
int tr_improbe(int src, int ctx, int tag, int blocking, int *flag, void **msg,
               MPIRIO_Status *st);
int tr_imrecv(void *msg, void *buf, size_t cap, Req **out);
/* cancels a receive, or a send, that has not been matched (then frees r): 1, else 0
 * (r goes on) */
int tr_cancel(Req *r);
int tr_test(Req *r, int *flag, MPIRIO_Status *st); /* frees r when *flag */
/* an operation of the caller's DSP in progress (a nonblocking collective): fn(arg)
 * runs beside the caller, at once until it first waits, then whenever what it waits
 * for is in, as the point-to-point requests progress, whatever the caller does
 * meanwhile. Its messages are the DSP's, but match only messages of the same lane
 * (> 0, the same on every member of the operation), never the DSP's own. *out
 * completes (tr_wait, tr_test, tr_waitany) when fn returns; tr_wait returns what fn
 * returned. The caller is busy post_overhead, a wait on it wait_overhead. Only the
 * simulated platform has them. */
int tr_spawn(int lane, int (*fn)(void *), void *arg, Req **out);
int tr_agent(void);                          /* 1 inside such an operation */
void tr_compute(Cycles c, const char *name); /* busy c cycles; the trace's name */
void tr_trace_iteration(long long it);       /* the caller's spans' iteration, -1 none */
/* scratch memory for the API layer's algorithms (a collective's buffers), inside a
 * DSP, for at most the run: fast, and what a deadlocked DSP holds is freed with the
 * run; never NULL */
void *tr_tmp_alloc(size_t n);
void tr_tmp_free(void *p);
Cycles tr_now(void);
long long tr_clock_hz(void);
void tr_set_priority(int prio);
void tr_finalize(void);
int tr_coll_default(void);
void tr_set_coll(int family);
void tr_traffic(MPIRIO_Traffic *t);
int tr_link(int link, MPIRIO_Link *l);
/* collectives in the switches; members are global ranks base..base+size-1, root
 * and the ranks in the buffers are communicator ranks */
enum {
    CO_BCAST,
    CO_GATHER,
    CO_SCATTER,
    CO_REDUCE,
    CO_BARRIER,
    CO_ALLGATHER,
    CO_ALLREDUCE,
    CO_ALLTOALL /* a tag of the MPICH algorithms only: both families use them */
};
int tr_coll_switch(int kind, int ctx, int base, int size, int root, const void *sbuf,
                   void *rbuf, size_t bytes, MPIRIO_Datatype type, MPIRIO_Op op);

/* ---- the API layer's own files ----
 * Layers, top down, each calling only those below it (tests/runtime/layers.sh):
 *   api.c (the MPIRIO names)       mpi_nbc.c (the MPI nonblocking collectives),
 *                                  mpi_session.c (MPI 4.0's sessions)
 *                                  mpi_coll.c (the MPI collectives)
 *   mpi_p2p.c                      MPI point-to-point, requests
 *   mpi_comm.c                     communicators, groups, topologies
 *   mpi_type.c                     datatypes
 *   mpi_env.c (mpi_env_tr.c)       the environment: per-DSP state, tables, errors
 *   coll.c                         the collective algorithms (both APIs)
 * then the transport's tr_ functions and datatype.c. */

/* api_base.c: a table of handles of objects (the requests of both APIs, which carry
 * them as pointer-sized values): a handle is a generation and an index (never 0);
 * dropping it moves the entry's generation on, so a handle that was dropped (its
 * request completed or freed) or never made is refused, and never reaches freed
 * memory. Memory from tr_tmp_alloc, a table per DSP. */
typedef struct Hnd {
    void *obj;
    unsigned gen;
    int next; /* free list: the next free index + 1 */
} Hnd;
typedef struct HandleTab {
    Hnd *e;
    int n, cap;
    int free; /* the first free index + 1, 0 if none */
} HandleTab;
uintptr_t hnd_new(HandleTab *t, void *obj);
void *hnd_get(const HandleTab *t, uintptr_t h); /* NULL: not a live handle of t */
void hnd_drop(HandleTab *t, uintptr_t h);

/* mpi_env.c, or mpi_env_tr.c in the MPI transport's libraries */
void mpi_mark_init(void);               /* MPIRIO_Init: the DSP is initialised */
int mpi_check_active(const char *call); /* tr_active, after the strict check */
int mpi_finalized(int *initialized);    /* 1 after Finalize; *initialized */
HandleTab *api_requests(void);          /* the caller's MPIRIO requests; NULL outside */

/* coll.c: the collective algorithms of both APIs. A group: its members, global
 * ranks g[0..size-1] (base + i where g is NULL), the caller's index me, and the
 * context of the algorithms' messages; sw the context of the transport's in-switch
 * collectives where the group is MPIRIO_COMM_WORLD or MPIRIO_COMM_LOCAL (members
 * base..base+size-1), else -1 (MPICH's algorithms in either family). Every member
 * calls with the same arguments; each function returns 0, or the first error of the
 * caller's part (MPIRIO_ERR_TRUNCATE where a message had another length than the
 * caller's counts make), after taking part in all of it. */
typedef struct CollGroup {
    int ctx, sw;
    int size, me;
    int base;
    const int *g;
} CollGroup;

/* a reduction operator of count elements of esz bytes: inout = in op inout; the
 * basic ones (type and op of mpirio.h, arg unused) also in the switches */
typedef struct CollOp CollOp;
struct CollOp {
    void (*fn)(const CollOp *o, const void *in, void *inout, int count);
    size_t esz;
    int commute;
    MPIRIO_Datatype type; /* 0 unless a basic type and operator */
    MPIRIO_Op op;
    const void *arg; /* the caller's */
};
CollOp coll_basic_op(MPIRIO_Datatype type, MPIRIO_Op op);

int coll_send(const CollGroup *cg, const void *buf, size_t bytes, int to, int tag);
int coll_recv(const CollGroup *cg, void *buf, size_t bytes, int from, int tag);
int coll_bcast(const CollGroup *cg, int tag, void *buf, size_t bytes, int root);
/* blk bytes of every member into rbuf (rank order) at root */
int coll_gather(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, size_t blk,
                int root);
int coll_scatter(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, size_t blk,
                 int root);
/* the result in rbuf at root (a noncommutative operator reduces in rank order) */
int coll_reduce(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, int count,
                const CollOp *o, int root);
int coll_barrier(const CollGroup *cg, int tag);
int coll_allgather(const CollGroup *cg, int tag, const void *sbuf, void *rbuf,
                   size_t blk);
int coll_allreduce(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, int count,
                   const CollOp *o);
/* MPICH's in both families (a switch has nothing to combine) */
int coll_alltoall(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, size_t blk);

#endif
