/* mpirio.h: the MPIRIO API ([MPIRIO] in tgc's docs/references.md) for BWDSP boards
 * joined by RapidIO switches.
 *
 * An MPI-like library: point-to-point (blocking and nonblocking), collectives,
 * statistics. The default transport is a deterministic discrete-event simulation
 * of the platform: one POSIX thread per DSP, every call a request to the kernel,
 * virtual time in integer DSP cycles. Same program, same cycles, every run.
 * docs/runtime.md documents the model, the settings and the trace. Every call
 * returns MPIRIO_SUCCESS or one of the MPIRIO_ERR_ codes; none crashes on bad
 * arguments. */
#ifndef MPIRIO_H
#define MPIRIO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the library hides everything else */
#endif

#define MPIRIO_VERSION_MAJOR 1
#define MPIRIO_VERSION_MINOR 0

/* error codes, in the manner of MPI */
enum {
    MPIRIO_SUCCESS = 0,
    MPIRIO_ERR_BUFFER,   /* NULL buffer with a nonzero count */
    MPIRIO_ERR_COUNT,    /* negative count */
    MPIRIO_ERR_TYPE,     /* unknown datatype */
    MPIRIO_ERR_TAG,      /* negative tag (other than MPIRIO_ANY_TAG on a receive) */
    MPIRIO_ERR_COMM,     /* unknown communicator */
    MPIRIO_ERR_RANK,     /* rank outside the communicator */
    MPIRIO_ERR_ROOT,     /* root outside the communicator */
    MPIRIO_ERR_OP,       /* unknown reduce operation, or one not defined on the type */
    MPIRIO_ERR_TRUNCATE, /* message longer than the receive buffer (the prefix is kept) */
    MPIRIO_ERR_REQUEST,  /* NULL or already completed request handle */
    MPIRIO_ERR_ARG,      /* other invalid argument */
    MPIRIO_ERR_NOT_INIT, /* called outside a DSP, or before Init / after Finalize */
    MPIRIO_ERR_OTHER,    /* platform could not be set up */
    MPIRIO_ERR_LASTCODE
};

#define MPIRIO_ANY_SOURCE (-1)
#define MPIRIO_ANY_TAG (-1)
#define MPIRIO_PROC_NULL (-2)
#define MPIRIO_TAG_UB 0x3fffffff
/* the largest time a DSP's clock may reach by MPIRIO_Compute (2^61 - 1 cycles, 146
 * years at 500 MHz): above it a compute is MPIRIO_ERR_ARG, so that the clock (and
 * everything the DSP does after) never wraps */
#define MPIRIO_CLOCK_MAX 0x1fffffffffffffffLL

typedef int MPIRIO_Comm;
#define MPIRIO_COMM_WORLD 0
#define MPIRIO_COMM_LOCAL 1 /* the DSPs of the caller's board */

typedef int MPIRIO_Datatype;
#define MPIRIO_BYTE 1
#define MPIRIO_CHAR 2
#define MPIRIO_INT 3
#define MPIRIO_FLOAT 4
#define MPIRIO_DOUBLE 5
#define MPIRIO_LONG 6
#define MPIRIO_UNSIGNED 7

typedef int MPIRIO_Op;
#define MPIRIO_SUM 1
#define MPIRIO_PROD 2
#define MPIRIO_MIN 3
#define MPIRIO_MAX 4

typedef struct MPIRIO_Status {
    int source; /* rank of the sender in the communicator */
    int tag;
    int error;       /* MPIRIO_SUCCESS or MPIRIO_ERR_TRUNCATE */
    long long count; /* bytes received */
} MPIRIO_Status;
#define MPIRIO_STATUS_IGNORE ((MPIRIO_Status *)0)
#define MPIRIO_STATUSES_IGNORE ((MPIRIO_Status *)0)

typedef struct MPIRIO_Req *MPIRIO_Request;
#define MPIRIO_REQUEST_NULL ((MPIRIO_Request)0)

/* collective algorithm families, selectable at run time (MPIRIO_Coll_algorithm) */
#define MPIRIO_COLL_SWITCH 0 /* in the RapidIO switches ([MPIRIO] Algorithms 1-3) */
#define MPIRIO_COLL_MPICH 1  /* binomial trees and dissemination over point-to-point */

/* environment */
int MPIRIO_Init(int *argc, char ***argv);
int MPIRIO_Finalize(void);
int MPIRIO_Initialized(int *flag);
/* *flag = 1 once the caller has called Finalize; 0 outside a DSP */
int MPIRIO_Finalized(int *flag);
/* for a launcher's report of a fault: the DSP running now (-1 outside the DSPs) and
 * the last MPIRIO or MPI call it made (NULL if none) */
int MPIRIO_Current(int *rank, const char **last_call);
int MPIRIO_Comm_rank(MPIRIO_Comm comm, int *rank);
int MPIRIO_Comm_size(MPIRIO_Comm comm, int *size);
const char *MPIRIO_Error_string(int code);
/* ends the whole run at once with exit status `code` (as MPI_Abort ends the job),
 * after a message naming the DSP; MPIRIO_ERR_COMM for a bad communicator */
int MPIRIO_Abort(MPIRIO_Comm comm, int code);

/* point-to-point; counts are in elements of the datatype */
int MPIRIO_Send(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
                MPIRIO_Comm comm);
int MPIRIO_Recv(void *buf, int count, MPIRIO_Datatype type, int source, int tag,
                MPIRIO_Comm comm, MPIRIO_Status *status);
int MPIRIO_Isend(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
                 MPIRIO_Comm comm, MPIRIO_Request *req);
int MPIRIO_Irecv(void *buf, int count, MPIRIO_Datatype type, int source, int tag,
                 MPIRIO_Comm comm, MPIRIO_Request *req);
int MPIRIO_Wait(MPIRIO_Request *req, MPIRIO_Status *status);
int MPIRIO_Waitall(int n, MPIRIO_Request *reqs, MPIRIO_Status *statuses);
int MPIRIO_Test(MPIRIO_Request *req, int *flag, MPIRIO_Status *status);
int MPIRIO_Get_count(const MPIRIO_Status *status, MPIRIO_Datatype type, int *count);
int MPIRIO_Type_size(MPIRIO_Datatype type, int *size);
/* priority of the caller's later messages (higher goes first on a busy link) */
int MPIRIO_Set_priority(int priority);

/* collectives */
int MPIRIO_Bcast(void *buf, int count, MPIRIO_Datatype type, int root, MPIRIO_Comm comm);
int MPIRIO_Reduce(const void *sendbuf, void *recvbuf, int count, MPIRIO_Datatype type,
                  MPIRIO_Op op, int root, MPIRIO_Comm comm);
int MPIRIO_Gather(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                  void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, int root,
                  MPIRIO_Comm comm);
int MPIRIO_Scatter(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                   void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, int root,
                   MPIRIO_Comm comm);
int MPIRIO_Barrier(MPIRIO_Comm comm);
/* every member gets the blocks of all, in rank order */
int MPIRIO_Allgather(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                     void *recvbuf, int recvcount, MPIRIO_Datatype recvtype,
                     MPIRIO_Comm comm);
/* every member gets the reduction of all vectors */
int MPIRIO_Allreduce(const void *sendbuf, void *recvbuf, int count, MPIRIO_Datatype type,
                     MPIRIO_Op op, MPIRIO_Comm comm);
/* block j of member i's sendbuf becomes block i of member j's recvbuf */
int MPIRIO_Alltoall(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                    void *recvbuf, int recvcount, MPIRIO_Datatype recvtype,
                    MPIRIO_Comm comm);
/* the family used by the caller's later collectives; every member of a collective
 * must use the same one. Returns the previous family, or -1 for a bad argument. */
int MPIRIO_Coll_algorithm(int family);

/* time and statistics */
/* the DSP is busy `cycles`; MPIRIO_ERR_ARG for cycles < 0 or one that would take its
 * clock beyond MPIRIO_CLOCK_MAX (then the clock stays) */
int MPIRIO_Compute(long long cycles);
/* the same; the trace names the span `name` (a task, a kernel; NULL: "compute") */
int MPIRIO_Compute_named(long long cycles, const char *name);
/* the spans the calling DSP traces from now on carry `iteration` in their args (a
 * program's loop counter; the code tgc generates gives each operation's); costs no time,
 * does nothing without a trace.  A negative value: no iteration. */
int MPIRIO_Trace_iteration(long long iteration);
long long MPIRIO_time(void);     /* the caller's virtual time in cycles */
double MPIRIO_Wtime(void);       /* the same in seconds at the DSP clock */
long long MPIRIO_clock_hz(void); /* the DSP clock */

typedef struct MPIRIO_Traffic {
    long long messages;     /* messages injected (collectives in the switch: one per
                               DSP contribution and one per switch aggregate) */
    long long packets;      /* packets created by DSPs and switches (replicas excluded) */
    long long bytes;        /* payload bytes of those packets */
    long long link_packets; /* packet crossings of links (replicas included) */
    long long retries;      /* link-level retransmissions after a CRC error */
    long long dropped;      /* broadcast duplicates dropped by a switch */
    int nlinks;             /* directed links, for MPIRIO_link_traffic */
} MPIRIO_Traffic;

typedef struct MPIRIO_Link {
    int from_kind, from; /* kind 0 = DSP (global index), 1 = switch (board index) */
    int to_kind, to;
    long long packets, bytes, retries;
    long long busy_cycles;
} MPIRIO_Link;

int MPIRIO_traffic(MPIRIO_Traffic *t);
int MPIRIO_link_traffic(int link, MPIRIO_Link *l);

/* in-process runs (no launcher): run dsp_main(rank, arg) on n simulated DSPs and
 * return when all have returned. platform: a preset name, a "tgc-platform/1" file,
 * or NULL (the smallest preset with n DSPs). flags: MPIRIO_RUN_. Settings also come
 * from the environment (docs/runtime.md). Returns 0, 2 after a deadlock (the report
 * is on stderr), or 1 if the platform cannot be set up. Globals are shared by the
 * DSPs here: only mpirio-run privatises them. */
#define MPIRIO_RUN_NO_CONTENTION 1
#define MPIRIO_RUN_SUMMARY 2    /* print the summary at the end */
#define MPIRIO_RUN_COLL_MPICH 4 /* default collective family MPICH */
#define MPIRIO_RUN_QUIET 8      /* no deadlock report on stderr (tests) */
/* as mpirio-run runs programs: a call before MPIRIO_Init/MPI_Init or after Finalize
 * ends the run (exit status 1) with a message naming the DSP and the call */
#define MPIRIO_RUN_STRICT 16
/* the program leaves the buffer of an MPIRIO_Isend unchanged until the send's Wait (as
 * MPI requires): a transport may send from it in place (the MPI transport does; the
 * simulation copies the payload at the call either way) */
#define MPIRIO_RUN_SEND_IN_PLACE 32
/* the shared-memory transport (libmpirio_threads): thread i runs on the i-th core the
 * process may use, modulo their number (MPIRIO_PIN=1 does the same); others ignore it */
#define MPIRIO_RUN_PIN 64

typedef struct MPIRIO_Stats {
    long long cycles; /* length: the time the last DSP finished */
    int ndsps;
    int deadlock; /* 1 if the run ended in a deadlock */
    MPIRIO_Traffic traffic;
    long long events;   /* kernel events processed */
    long long switches; /* hand-offs between DSP threads */
    char report[4096];  /* the deadlock report, if any */
} MPIRIO_Stats;

int MPIRIO_Run(int n, const char *platform, int flags,
               void (*dsp_main)(int rank, void *arg), void *arg);
/* statistics of the last MPIRIO_Run in this process */
int MPIRIO_Run_stats(MPIRIO_Stats *stats);
/* cycles at which each DSP finished in the last run (n entries copied) */
int MPIRIO_Run_finish_times(long long *times, int n);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
