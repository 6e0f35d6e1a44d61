/* mpirio/mpi.h: the MPI subset of MPIRIO under MPI's names, so that a plain MPI
 * program of that subset compiles and runs on the simulated platform unchanged.
 * mpirio-cc puts this directory first on the include path: <mpi.h> finds it.
 * Everything maps one to one onto mpirio.h; see docs/runtime.md for the subset. */
#ifndef MPIRIO_MPI_H
#define MPIRIO_MPI_H

#include "../mpirio.h"

typedef MPIRIO_Comm MPI_Comm;
typedef MPIRIO_Datatype MPI_Datatype;
typedef MPIRIO_Op MPI_Op;
typedef MPIRIO_Status MPI_Status;
typedef MPIRIO_Request MPI_Request;

/* MPI_Status fields */
#define MPI_SOURCE source
#define MPI_TAG tag
#define MPI_ERROR error

#define MPI_COMM_WORLD MPIRIO_COMM_WORLD
#define MPI_COMM_LOCAL MPIRIO_COMM_LOCAL
#define MPI_BYTE MPIRIO_BYTE
#define MPI_CHAR MPIRIO_CHAR
#define MPI_INT MPIRIO_INT
#define MPI_FLOAT MPIRIO_FLOAT
#define MPI_DOUBLE MPIRIO_DOUBLE
#define MPI_LONG MPIRIO_LONG
#define MPI_UNSIGNED MPIRIO_UNSIGNED
#define MPI_SUM MPIRIO_SUM
#define MPI_PROD MPIRIO_PROD
#define MPI_MIN MPIRIO_MIN
#define MPI_MAX MPIRIO_MAX
#define MPI_ANY_SOURCE MPIRIO_ANY_SOURCE
#define MPI_ANY_TAG MPIRIO_ANY_TAG
#define MPI_PROC_NULL MPIRIO_PROC_NULL
#define MPI_TAG_UB MPIRIO_TAG_UB
#define MPI_STATUS_IGNORE MPIRIO_STATUS_IGNORE
#define MPI_STATUSES_IGNORE MPIRIO_STATUSES_IGNORE
#define MPI_REQUEST_NULL MPIRIO_REQUEST_NULL

#define MPI_SUCCESS MPIRIO_SUCCESS
#define MPI_ERR_BUFFER MPIRIO_ERR_BUFFER
#define MPI_ERR_COUNT MPIRIO_ERR_COUNT
#define MPI_ERR_TYPE MPIRIO_ERR_TYPE
#define MPI_ERR_TAG MPIRIO_ERR_TAG
#define MPI_ERR_COMM MPIRIO_ERR_COMM
#define MPI_ERR_RANK MPIRIO_ERR_RANK
#define MPI_ERR_ROOT MPIRIO_ERR_ROOT
#define MPI_ERR_OP MPIRIO_ERR_OP
#define MPI_ERR_TRUNCATE MPIRIO_ERR_TRUNCATE
#define MPI_ERR_REQUEST MPIRIO_ERR_REQUEST
#define MPI_ERR_ARG MPIRIO_ERR_ARG
#define MPI_ERR_OTHER MPIRIO_ERR_OTHER

#define MPI_Init MPIRIO_Init
#define MPI_Finalize MPIRIO_Finalize
#define MPI_Initialized MPIRIO_Initialized
#define MPI_Comm_rank MPIRIO_Comm_rank
#define MPI_Comm_size MPIRIO_Comm_size
#define MPI_Send MPIRIO_Send
#define MPI_Recv MPIRIO_Recv
#define MPI_Isend MPIRIO_Isend
#define MPI_Irecv MPIRIO_Irecv
#define MPI_Wait MPIRIO_Wait
#define MPI_Waitall MPIRIO_Waitall
#define MPI_Test MPIRIO_Test
#define MPI_Get_count MPIRIO_Get_count
#define MPI_Type_size MPIRIO_Type_size
#define MPI_Bcast MPIRIO_Bcast
#define MPI_Reduce MPIRIO_Reduce
#define MPI_Gather MPIRIO_Gather
#define MPI_Scatter MPIRIO_Scatter
#define MPI_Barrier MPIRIO_Barrier
#define MPI_Allgather MPIRIO_Allgather
#define MPI_Allreduce MPIRIO_Allreduce
#define MPI_Alltoall MPIRIO_Alltoall
#define MPI_Wtime MPIRIO_Wtime

/* a common call composed of the subset */
static inline int
MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
             void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
             MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r;
    int e = MPIRIO_Irecv(rbuf, rcount, rtype, source, rtag, comm, &r);
    if (e)
        return e;
    e = MPIRIO_Send(sbuf, scount, stype, dest, stag, comm);
    int w = MPIRIO_Wait(&r, status);
    return e ? e : w;
}

#define MPI_Abort MPIRIO_Abort

static inline double
MPI_Wtick(void)
{
    return 1.0 / (double)MPIRIO_clock_hz();
}

static inline int
MPI_Error_string(int code, char *s, int *len)
{
    const char *m = MPIRIO_Error_string(code);
    int n = 0;
    while (m[n] && n < 255) {
        s[n] = m[n];
        n++;
    }
    s[n] = 0;
    *len = n;
    return MPI_SUCCESS;
}
#define MPI_MAX_ERROR_STRING 256

#endif
