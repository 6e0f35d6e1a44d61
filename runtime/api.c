/* api.c: the MPIRIO API layer.
 *
 * Checks every argument (an error code, never a crash), maps communicators to
 * contexts and global ranks, and hands the collectives to the algorithms of coll.c
 * (the transport's in-switch collectives or MPICH's over point-to-point, in a context
 * of their own, so they never match user messages). Nothing here knows about the
 * simulation: it calls only the tr_ functions of mpirio_int.h and the API layer's
 * files below it (coll.c, the environment's Init state), so a second transport
 * defines the tr_ functions and links with this file unchanged (tests/runtime/layers.sh
 * checks the calls). */
#include "mpirio_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTX_COLL 0x10000 /* context offset of the MPICH collectives' messages */

typedef struct CommInfo {
    int ctx, base, size, me;
} CommInfo;

static int
comm_info(MPIRIO_Comm c, CommInfo *ci)
{
    if (!mpi_check_active("an MPIRIO call"))
        return MPIRIO_ERR_NOT_INIT;
    int g = tr_rank(), n = tr_size(), dpb = tr_dsps_per_board();
    if (c == MPIRIO_COMM_WORLD) {
        *ci = (CommInfo){0, 0, n, g};
        return MPIRIO_SUCCESS;
    }
    if (c == MPIRIO_COMM_LOCAL) {
        int b = g / dpb, base = b * dpb;
        int size = n - base < dpb ? n - base : dpb;
        *ci = (CommInfo){1 + b, base, size, g - base};
        return MPIRIO_SUCCESS;
    }
    return MPIRIO_ERR_COMM;
}

/* checks shared by the point-to-point calls; *bytes on success */
static int
check_buf(const void *buf, int count, MPIRIO_Datatype type, size_t *bytes)
{
    if (count < 0)
        return MPIRIO_ERR_COUNT;
    size_t sz = dt_size(type);
    if (!sz)
        return MPIRIO_ERR_TYPE;
    if (count > 0 && !buf)
        return MPIRIO_ERR_BUFFER;
    *bytes = (size_t)count * sz;
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Init(int *argc, char ***argv)
{
    if (!tr_active())
        return MPIRIO_ERR_NOT_INIT;
    mpi_mark_init();
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Finalized(int *flag)
{
    if (!flag)
        return MPIRIO_ERR_ARG;
    int init;
    *flag = tr_dsp() && mpi_finalized(&init);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Current(int *rank, const char **last_call)
{
    int in = tr_dsp();
    if (rank)
        *rank = in ? tr_rank() : -1;
    if (last_call)
        *last_call = in ? tr_last_call() : NULL;
    return in ? MPIRIO_SUCCESS : MPIRIO_ERR_NOT_INIT;
}

int
MPIRIO_Initialized(int *flag)
{
    if (!flag)
        return MPIRIO_ERR_ARG;
    *flag = tr_active();
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Finalize(void)
{
    if (!mpi_check_active("MPIRIO_Finalize"))
        return MPIRIO_ERR_NOT_INIT;
    tr_finalize();
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Abort(MPIRIO_Comm comm, int code)
{
    CommInfo ci;
    int e = comm_info(comm, &ci);
    if (e)
        return e;
    fprintf(stderr, "mpirio: DSP %d called MPIRIO_Abort(%d) at cycle %lld\n", tr_rank(),
            code, tr_now());
    fflush(stdout);
    exit(code);
}

int
MPIRIO_Comm_rank(MPIRIO_Comm comm, int *rank)
{
    CommInfo ci;
    int e = comm_info(comm, &ci);
    if (e)
        return e;
    if (!rank)
        return MPIRIO_ERR_ARG;
    *rank = ci.me;
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Comm_size(MPIRIO_Comm comm, int *size)
{
    CommInfo ci;
    int e = comm_info(comm, &ci);
    if (e)
        return e;
    if (!size)
        return MPIRIO_ERR_ARG;
    *size = ci.size;
    return MPIRIO_SUCCESS;
}

/* the transport's request *out of a send (NULL to MPIRIO_PROC_NULL) */
static int
isend(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
      MPIRIO_Comm comm, Req **out)
{
    CommInfo ci;
    size_t bytes;
    *out = NULL;
    int e = comm_info(comm, &ci);
    if (e)
        return e;
    if ((e = check_buf(buf, count, type, &bytes)))
        return e;
    if (dest == MPIRIO_PROC_NULL)
        return MPIRIO_SUCCESS;
    if (dest < 0 || dest >= ci.size)
        return MPIRIO_ERR_RANK;
    if (tag < 0 || tag > MPIRIO_TAG_UB)
        return MPIRIO_ERR_TAG;
    return tr_isend(buf, bytes, ci.base + dest, ci.ctx, tag, ci.me, out);
}

static int
irecv(void *buf, int count, MPIRIO_Datatype type, int source, int tag, MPIRIO_Comm comm,
      int blocking, Req **out)
{
    CommInfo ci;
    size_t bytes;
    *out = NULL;
    int e = comm_info(comm, &ci);
    if (e)
        return e;
    if ((e = check_buf(buf, count, type, &bytes)))
        return e;
    if (source == MPIRIO_PROC_NULL)
        return MPIRIO_SUCCESS;
    if (source != MPIRIO_ANY_SOURCE && (source < 0 || source >= ci.size))
        return MPIRIO_ERR_RANK;
    if (tag != MPIRIO_ANY_TAG && (tag < 0 || tag > MPIRIO_TAG_UB))
        return MPIRIO_ERR_TAG;
    return tr_irecv(buf, bytes, source < 0 ? -1 : ci.base + source, ci.ctx, tag, blocking,
                    out);
}

static void
null_status(MPIRIO_Status *st)
{
    if (st)
        *st = (MPIRIO_Status){MPIRIO_PROC_NULL, MPIRIO_ANY_TAG, MPIRIO_SUCCESS, 0};
}

/* The program holds handles of the caller's table (api_requests), never the
 * transport's requests: a handle of a request that completed (and was freed) or
 * that never was is MPIRIO_ERR_REQUEST, not a use of freed memory. */

/* the handle of the transport's request r (MPIRIO_REQUEST_NULL for none) */
static MPIRIO_Request
handle_of(Req *r)
{
    return r ? (MPIRIO_Request)hnd_new(api_requests(), r) : MPIRIO_REQUEST_NULL;
}

/* the live request behind *req, its handle dropped and *req MPIRIO_REQUEST_NULL; NULL
 * for a handle that is not one */
static Req *
take(MPIRIO_Request *req)
{
    HandleTab *t = api_requests();
    Req *r = hnd_get(t, (uintptr_t)*req);
    if (r) {
        hnd_drop(t, (uintptr_t)*req);
        *req = MPIRIO_REQUEST_NULL;
    }
    return r;
}

int
MPIRIO_Isend(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
             MPIRIO_Comm comm, MPIRIO_Request *req)
{
    if (tr_active())
        tr_call("MPIRIO_Isend");
    if (!req)
        return tr_active() ? MPIRIO_ERR_REQUEST : MPIRIO_ERR_NOT_INIT;
    Req *r;
    int e = isend(buf, count, type, dest, tag, comm, &r);
    *req = handle_of(r);
    return e;
}

int
MPIRIO_Send(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
            MPIRIO_Comm comm)
{
    Req *r;
    if (tr_active())
        tr_call("MPIRIO_Send");
    int e = isend(buf, count, type, dest, tag, comm, &r);
    if (e || !r)
        return e;
    return tr_wait(r, NULL);
}

int
MPIRIO_Irecv(void *buf, int count, MPIRIO_Datatype type, int source, int tag,
             MPIRIO_Comm comm, MPIRIO_Request *req)
{
    if (!req)
        return tr_active() ? MPIRIO_ERR_REQUEST : MPIRIO_ERR_NOT_INIT;
    if (tr_active())
        tr_call("MPIRIO_Irecv");
    Req *r;
    int e = irecv(buf, count, type, source, tag, comm, 0, &r);
    *req = handle_of(r);
    return e;
}

int
MPIRIO_Recv(void *buf, int count, MPIRIO_Datatype type, int source, int tag,
            MPIRIO_Comm comm, MPIRIO_Status *status)
{
    Req *r;
    if (tr_active())
        tr_call("MPIRIO_Recv");
    int e = irecv(buf, count, type, source, tag, comm, 1, &r);
    if (e)
        return e;
    if (!r) {
        null_status(status);
        return MPIRIO_SUCCESS;
    }
    return tr_wait(r, status);
}

int
MPIRIO_Wait(MPIRIO_Request *req, MPIRIO_Status *status)
{
    if (!mpi_check_active("MPIRIO_Wait"))
        return MPIRIO_ERR_NOT_INIT;
    if (!req)
        return MPIRIO_ERR_REQUEST;
    if (!*req) {
        null_status(status);
        return MPIRIO_SUCCESS;
    }
    tr_call("MPIRIO_Wait");
    Req *r = take(req);
    return r ? tr_wait(r, status) : MPIRIO_ERR_REQUEST;
}

int
MPIRIO_Waitall(int n, MPIRIO_Request *reqs, MPIRIO_Status *statuses)
{
    if (!mpi_check_active("MPIRIO_Waitall"))
        return MPIRIO_ERR_NOT_INIT;
    if (n < 0)
        return MPIRIO_ERR_COUNT;
    if (n > 0 && !reqs)
        return MPIRIO_ERR_REQUEST;
    int err = MPIRIO_SUCCESS;
    for (int i = 0; i < n; i++) {
        MPIRIO_Status *st = statuses ? &statuses[i] : NULL;
        if (!reqs[i]) {
            null_status(st);
            continue;
        }
        tr_call("MPIRIO_Waitall");
        Req *r = take(&reqs[i]);
        int e = r ? tr_wait(r, st) : MPIRIO_ERR_REQUEST;
        if (e && !err)
            err = e;
    }
    return err;
}

int
MPIRIO_Test(MPIRIO_Request *req, int *flag, MPIRIO_Status *status)
{
    if (!mpi_check_active("MPIRIO_Test"))
        return MPIRIO_ERR_NOT_INIT;
    if (!req)
        return MPIRIO_ERR_REQUEST;
    if (!flag)
        return MPIRIO_ERR_ARG;
    if (!*req) {
        *flag = 1;
        null_status(status);
        return MPIRIO_SUCCESS;
    }
    tr_call("MPIRIO_Test");
    HandleTab *t = api_requests();
    Req *r = hnd_get(t, (uintptr_t)*req);
    if (!r) {
        *flag = 0;
        return MPIRIO_ERR_REQUEST;
    }
    int e = tr_test(r, flag, status);
    if (*flag) {
        hnd_drop(t, (uintptr_t)*req);
        *req = MPIRIO_REQUEST_NULL;
    }
    return e;
}

int
MPIRIO_Get_count(const MPIRIO_Status *status, MPIRIO_Datatype type, int *count)
{
    size_t sz = dt_size(type);
    if (!sz)
        return MPIRIO_ERR_TYPE;
    if (!status || !count)
        return MPIRIO_ERR_ARG;
    /* the count of bytes is a long long: messages of 2 GiB and more are counted right;
     * -1 for a partial element or a count above INT_MAX */
    long long n = status->count / (long long)sz;
    *count = status->count % (long long)sz || n > 0x7fffffff ? -1 : (int)n;
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Type_size(MPIRIO_Datatype type, int *size)
{
    size_t sz = dt_size(type);
    if (!sz)
        return MPIRIO_ERR_TYPE;
    if (!size)
        return MPIRIO_ERR_ARG;
    *size = (int)sz;
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Set_priority(int priority)
{
    if (!tr_active())
        return MPIRIO_ERR_NOT_INIT;
    tr_set_priority(priority);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Coll_algorithm(int family)
{
    if (!tr_active())
        return -1;
    if (family != MPIRIO_COLL_SWITCH && family != MPIRIO_COLL_MPICH)
        return -1;
    int old = tr_coll_default();
    tr_set_coll(family);
    return old;
}

int
MPIRIO_Compute_named(long long cycles, const char *name)
{
    if (!mpi_check_active("MPIRIO_Compute"))
        return MPIRIO_ERR_NOT_INIT;
    if (cycles < 0 || cycles > MPIRIO_CLOCK_MAX - tr_now())
        return MPIRIO_ERR_ARG;
    tr_call("MPIRIO_Compute");
    tr_compute(cycles, name ? name : "compute");
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Trace_iteration(long long iteration)
{
    if (!mpi_check_active("MPIRIO_Trace_iteration"))
        return MPIRIO_ERR_NOT_INIT;
    tr_trace_iteration(iteration < 0 ? -1 : iteration);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Compute(long long cycles)
{
    return MPIRIO_Compute_named(cycles, NULL);
}

long long
MPIRIO_time(void)
{
    return tr_dsp() ? tr_now() : 0;
}

long long
MPIRIO_clock_hz(void)
{
    return tr_clock_hz();
}

double
MPIRIO_Wtime(void)
{
    return (double)MPIRIO_time() / (double)MPIRIO_clock_hz();
}

int
MPIRIO_traffic(MPIRIO_Traffic *t)
{
    if (!tr_dsp())
        return MPIRIO_ERR_NOT_INIT;
    if (!t)
        return MPIRIO_ERR_ARG;
    tr_traffic(t);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_link_traffic(int link, MPIRIO_Link *l)
{
    if (!tr_dsp())
        return MPIRIO_ERR_NOT_INIT;
    if (!l)
        return MPIRIO_ERR_ARG;
    return tr_link(link, l);
}

/* ---- collectives (coll.c) ---- */

/* the group of a communicator for the collective algorithms: their messages in a
 * context of their own, the in-switch ones in the communicator's */
static CollGroup
group_of(const CommInfo *ci)
{
    return (CollGroup){ci->ctx + CTX_COLL, ci->ctx, ci->size, ci->me, ci->base, NULL};
}

/* one side of a collective: buf, count of type; its bytes once checked */
typedef struct Side {
    const void *buf;
    int count;
    MPIRIO_Datatype type;
    size_t bytes;
} Side;

/* The checks of the collectives, written once: the communicator, the root (rooted
 * ones), the caller's own block (own: every member) and, where there is one, the
 * other side (many: the root's blocks of every member for Gather and Scatter, the
 * result for Reduce, at the root only; the receive side of Allgather, Allreduce and
 * Alltoall, at every member: root NOROOT). */
enum { NOROOT = -0x7fffffff - 1 };

static int
coll_args(MPIRIO_Comm comm, int root, const char *name, CommInfo *ci, Side *own,
          Side *many)
{
    int e = comm_info(comm, ci);
    if (e)
        return e;
    if (root != NOROOT && (root < 0 || root >= ci->size))
        return MPIRIO_ERR_ROOT;
    tr_call(name);
    if (own && (e = check_buf(own->buf, own->count, own->type, &own->bytes)))
        return e;
    if (many && (root == NOROOT || ci->me == root) &&
        (e = check_buf(many->buf, many->count, many->type, &many->bytes)))
        return e;
    return MPIRIO_SUCCESS;
}

/* the caller's two sides must have blocks of one length (a local error, returned at
 * once, as an invalid root is) */
static int
same_blocks(const Side *own, const Side *many)
{
    return own->bytes == many->bytes ? MPIRIO_SUCCESS : MPIRIO_ERR_TRUNCATE;
}

int
MPIRIO_Bcast(void *buf, int count, MPIRIO_Datatype type, int root, MPIRIO_Comm comm)
{
    CommInfo ci;
    Side own = {buf, count, type, 0};
    int e = coll_args(comm, root, "MPIRIO_Bcast", &ci, &own, NULL);
    if (e)
        return e;
    CollGroup cg = group_of(&ci);
    return coll_bcast(&cg, CO_BCAST, buf, own.bytes, root);
}

int
MPIRIO_Reduce(const void *sendbuf, void *recvbuf, int count, MPIRIO_Datatype type,
              MPIRIO_Op op, int root, MPIRIO_Comm comm)
{
    CommInfo ci;
    Side own = {sendbuf, count, type, 0}, res = {recvbuf, count, type, 0};
    int e = coll_args(comm, root, "MPIRIO_Reduce", &ci, &own, &res);
    if (e)
        return e;
    if (!dt_op_valid(type, op))
        return MPIRIO_ERR_OP;
    CollGroup cg = group_of(&ci);
    CollOp o = coll_basic_op(type, op);
    return coll_reduce(&cg, CO_REDUCE, sendbuf, recvbuf, count, &o, root);
}

int
MPIRIO_Gather(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype, void *recvbuf,
              int recvcount, MPIRIO_Datatype recvtype, int root, MPIRIO_Comm comm)
{
    CommInfo ci;
    Side own = {sendbuf, sendcount, sendtype, 0}, all = {recvbuf, recvcount, recvtype, 0};
    int e = coll_args(comm, root, "MPIRIO_Gather", &ci, &own, &all);
    if (e)
        return e;
    if (ci.me == root && (e = same_blocks(&own, &all)))
        return e;
    CollGroup cg = group_of(&ci);
    return coll_gather(&cg, CO_GATHER, sendbuf, recvbuf, own.bytes, root);
}

int
MPIRIO_Scatter(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
               void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, int root,
               MPIRIO_Comm comm)
{
    CommInfo ci;
    Side own = {recvbuf, recvcount, recvtype, 0}, all = {sendbuf, sendcount, sendtype, 0};
    int e = coll_args(comm, root, "MPIRIO_Scatter", &ci, &own, &all);
    if (e)
        return e;
    if (ci.me == root && (e = same_blocks(&own, &all)))
        return e;
    CollGroup cg = group_of(&ci);
    return coll_scatter(&cg, CO_SCATTER, sendbuf, recvbuf, own.bytes, root);
}

int
MPIRIO_Barrier(MPIRIO_Comm comm)
{
    CommInfo ci;
    int e = coll_args(comm, NOROOT, "MPIRIO_Barrier", &ci, NULL, NULL);
    if (e)
        return e;
    CollGroup cg = group_of(&ci);
    return coll_barrier(&cg, CO_BARRIER);
}

int
MPIRIO_Allgather(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                 void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, MPIRIO_Comm comm)
{
    CommInfo ci;
    Side own = {sendbuf, sendcount, sendtype, 0}, all = {recvbuf, recvcount, recvtype, 0};
    int e = coll_args(comm, NOROOT, "MPIRIO_Allgather", &ci, &own, &all);
    if (e)
        return e;
    if ((e = same_blocks(&own, &all)))
        return e;
    CollGroup cg = group_of(&ci);
    return coll_allgather(&cg, CO_ALLGATHER, sendbuf, recvbuf, own.bytes);
}

int
MPIRIO_Allreduce(const void *sendbuf, void *recvbuf, int count, MPIRIO_Datatype type,
                 MPIRIO_Op op, MPIRIO_Comm comm)
{
    CommInfo ci;
    Side own = {sendbuf, count, type, 0}, res = {recvbuf, count, type, 0};
    int e = coll_args(comm, NOROOT, "MPIRIO_Allreduce", &ci, &own, &res);
    if (e)
        return e;
    if (!dt_op_valid(type, op))
        return MPIRIO_ERR_OP;
    CollGroup cg = group_of(&ci);
    CollOp o = coll_basic_op(type, op);
    return coll_allreduce(&cg, CO_ALLREDUCE, sendbuf, recvbuf, count, &o);
}

int
MPIRIO_Alltoall(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, MPIRIO_Comm comm)
{
    CommInfo ci;
    Side own = {sendbuf, sendcount, sendtype, 0}, all = {recvbuf, recvcount, recvtype, 0};
    int e = coll_args(comm, NOROOT, "MPIRIO_Alltoall", &ci, &own, &all);
    if (e)
        return e;
    if ((e = same_blocks(&own, &all)))
        return e;
    CollGroup cg = group_of(&ci);
    return coll_alltoall(&cg, CO_ALLTOALL, sendbuf, recvbuf, own.bytes);
}

/* ---- runs ---- */

static RunResult last_run; /* the last run's statistics and finish times */

int
MPIRIO_Run(int n, const char *platform, int flags, void (*dsp_main)(int rank, void *arg),
           void *arg)
{
    RunResult r = {0};
    int rc = tr_run(n, platform, flags, dsp_main, arg, &r);
    if (r.ran) { /* else another run is in progress: its results stay */
        free(last_run.finish);
        last_run = r;
    }
    return rc;
}

int
MPIRIO_Run_stats(MPIRIO_Stats *stats)
{
    if (!stats)
        return MPIRIO_ERR_ARG;
    *stats = last_run.stats;
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Run_finish_times(long long *times, int n)
{
    if (!times || n < 0)
        return MPIRIO_ERR_ARG;
    for (int i = 0; i < n && i < last_run.nfinish; i++)
        times[i] = last_run.finish[i];
    return MPIRIO_SUCCESS;
}
