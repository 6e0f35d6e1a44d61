/* api.c: the MPIRIO API layer.
 *
 * Checks every argument (an error code, never a crash), maps communicators to
 * contexts and global ranks, and runs the MPICH collective algorithms (binomial
 * bcast, gather, scatter, reduce; dissemination barrier; allgather, allreduce and
 * alltoall as MPICH chooses them by size) over the transport's
 * point-to-point calls in a context of their own, so they never match user
 * messages. The in-switch collectives are the transport's (tr_coll_switch).
 * Nothing here knows about the simulation: it calls only the tr_ functions of
 * mpirio_int.h and the datatype helpers below them (datatype.c), so a second
 * transport defines the tr_ functions and links with this file unchanged
 * (tests/runtime/layers.sh checks the calls). */
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

const char *
MPIRIO_Error_string(int code)
{
    static const char *const s[] = {
        "success",
        "invalid buffer (NULL with a nonzero count)",
        "invalid count",
        "invalid datatype",
        "invalid tag",
        "invalid communicator",
        "invalid rank",
        "invalid root",
        "invalid reduce operation",
        "message truncated",
        "invalid request",
        "invalid argument",
        "not inside an initialised DSP",
        "platform error",
    };
    if (code < 0 || code >= MPIRIO_ERR_LASTCODE)
        return "unknown error code";
    return s[code];
}

static int
isend(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
      MPIRIO_Comm comm, MPIRIO_Request *req)
{
    CommInfo ci;
    size_t bytes;
    int e = comm_info(comm, &ci);
    if (e)
        return e;
    if (!req)
        return MPIRIO_ERR_REQUEST;
    *req = MPIRIO_REQUEST_NULL;
    if ((e = check_buf(buf, count, type, &bytes)))
        return e;
    if (dest == MPIRIO_PROC_NULL)
        return MPIRIO_SUCCESS;
    if (dest < 0 || dest >= ci.size)
        return MPIRIO_ERR_RANK;
    if (tag < 0 || tag > MPIRIO_TAG_UB)
        return MPIRIO_ERR_TAG;
    return tr_isend(buf, bytes, ci.base + dest, ci.ctx, tag, ci.me, req);
}

static int
irecv(void *buf, int count, MPIRIO_Datatype type, int source, int tag, MPIRIO_Comm comm,
      int blocking, MPIRIO_Request *req)
{
    CommInfo ci;
    size_t bytes;
    int e = comm_info(comm, &ci);
    if (e)
        return e;
    *req = MPIRIO_REQUEST_NULL;
    if ((e = check_buf(buf, count, type, &bytes)))
        return e;
    if (source == MPIRIO_PROC_NULL)
        return MPIRIO_SUCCESS;
    if (source != MPIRIO_ANY_SOURCE && (source < 0 || source >= ci.size))
        return MPIRIO_ERR_RANK;
    if (tag != MPIRIO_ANY_TAG && (tag < 0 || tag > MPIRIO_TAG_UB))
        return MPIRIO_ERR_TAG;
    return tr_irecv(buf, bytes, source < 0 ? -1 : ci.base + source, ci.ctx, tag, blocking,
                    req);
}

static void
null_status(MPIRIO_Status *st)
{
    if (st)
        *st = (MPIRIO_Status){MPIRIO_PROC_NULL, MPIRIO_ANY_TAG, MPIRIO_SUCCESS, 0};
}

int
MPIRIO_Isend(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
             MPIRIO_Comm comm, MPIRIO_Request *req)
{
    if (tr_active())
        tr_call("MPIRIO_Isend");
    return isend(buf, count, type, dest, tag, comm, req);
}

int
MPIRIO_Send(const void *buf, int count, MPIRIO_Datatype type, int dest, int tag,
            MPIRIO_Comm comm)
{
    MPIRIO_Request r;
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
    return irecv(buf, count, type, source, tag, comm, 0, req);
}

int
MPIRIO_Recv(void *buf, int count, MPIRIO_Datatype type, int source, int tag,
            MPIRIO_Comm comm, MPIRIO_Status *status)
{
    MPIRIO_Request r;
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
    Req *r = *req;
    *req = MPIRIO_REQUEST_NULL;
    return tr_wait(r, status);
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
        Req *r = reqs[i];
        reqs[i] = MPIRIO_REQUEST_NULL;
        int e = tr_wait(r, st);
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
    int e = tr_test(*req, flag, status);
    if (*flag)
        *req = MPIRIO_REQUEST_NULL;
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
    if (cycles < 0)
        return MPIRIO_ERR_ARG;
    tr_call("MPIRIO_Compute");
    tr_compute(cycles, name ? name : "compute");
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

/* ---- MPICH collectives over point-to-point ---- */

static int
csend(const CommInfo *ci, const void *buf, size_t bytes, int to, int tag)
{
    Req *r;
    tr_isend(buf, bytes, ci->base + to, ci->ctx + CTX_COLL, tag, ci->me, &r);
    return tr_wait(r, NULL);
}

static int
crecv(const CommInfo *ci, void *buf, size_t bytes, int from, int tag)
{
    Req *r;
    tr_irecv(buf, bytes, ci->base + from, ci->ctx + CTX_COLL, tag, 1, &r);
    return tr_wait(r, NULL);
}

static void
bcast_binomial(const CommInfo *ci, void *buf, size_t bytes, int root)
{
    int n = ci->size, rel = (ci->me - root + n) % n, mask = 1;
    for (; mask < n; mask <<= 1)
        if (rel & mask) {
            crecv(ci, buf, bytes, (ci->me - mask + n) % n, CO_BCAST);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            csend(ci, buf, bytes, (ci->me + mask) % n, CO_BCAST);
}

/* the blocks of relative ranks rel..rel+k-1 travel together, as in MPICH */
static void
gather_binomial(const CommInfo *ci, const void *sbuf, void *rbuf, size_t blk, int root)
{
    int n = ci->size, rel = (ci->me - root + n) % n;
    unsigned char *tmp = tr_tmp_alloc(blk * (size_t)n);
    if (blk)
        memcpy(tmp, sbuf, blk);
    int have = 1;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            csend(ci, tmp, blk * (size_t)have, (rel - mask + root) % n, CO_GATHER);
            break;
        }
        int src = rel | mask;
        if (src < n) {
            int k = mask < n - src ? mask : n - src;
            crecv(ci, tmp + blk * (size_t)mask, blk * (size_t)k, (src + root) % n,
                  CO_GATHER);
            have += k;
        }
    }
    if (rel == 0)
        for (int r = 0; r < n; r++)
            if (blk)
                memcpy((unsigned char *)rbuf + blk * (size_t)((r + root) % n),
                       tmp + blk * (size_t)r, blk);
    tr_tmp_free(tmp);
}

static void
scatter_binomial(const CommInfo *ci, const void *sbuf, void *rbuf, size_t blk, int root)
{
    int n = ci->size, rel = (ci->me - root + n) % n, mask = 1;
    unsigned char *tmp = tr_tmp_alloc(blk * (size_t)n);
    if (rel == 0) {
        for (int r = 0; r < n; r++)
            if (blk)
                memcpy(tmp + blk * (size_t)r,
                       (const unsigned char *)sbuf + blk * (size_t)((r + root) % n), blk);
        while (mask < n)
            mask <<= 1;
    } else
        for (; mask < n; mask <<= 1)
            if (rel & mask) {
                int k = mask < n - rel ? mask : n - rel;
                crecv(ci, tmp, blk * (size_t)k, (rel - mask + root) % n, CO_SCATTER);
                break;
            }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n) {
            int k = mask < n - rel - mask ? mask : n - rel - mask;
            csend(ci, tmp + blk * (size_t)mask, blk * (size_t)k, (rel + mask + root) % n,
                  CO_SCATTER);
        }
    if (blk)
        memcpy(rbuf, tmp, blk);
    tr_tmp_free(tmp);
}

static void
reduce_binomial(const CommInfo *ci, const void *sbuf, void *rbuf, int count,
                MPIRIO_Datatype type, MPIRIO_Op op, int root)
{
    int n = ci->size, rel = (ci->me - root + n) % n;
    size_t bytes = (size_t)count * dt_size(type);
    unsigned char *acc = tr_tmp_alloc(bytes), *tmp = tr_tmp_alloc(bytes);
    if (bytes)
        memcpy(acc, sbuf, bytes);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            csend(ci, acc, bytes, (rel - mask + root) % n, CO_REDUCE);
            break;
        }
        int src = rel | mask;
        if (src < n) {
            crecv(ci, tmp, bytes, (src + root) % n, CO_REDUCE);
            dt_reduce(acc, tmp, count, type, op);
        }
    }
    if (rel == 0 && bytes)
        memcpy(rbuf, acc, bytes);
    tr_tmp_free(acc);
    tr_tmp_free(tmp);
}

static void
barrier_dissemination(const CommInfo *ci)
{
    int n = ci->size;
    for (int k = 1; k < n; k <<= 1) {
        Req *s;
        tr_isend(NULL, 0, ci->base + (ci->me + k) % n, ci->ctx + CTX_COLL, CO_BARRIER,
                 ci->me, &s);
        crecv(ci, NULL, 0, (ci->me - k + n) % n, CO_BARRIER);
        tr_wait(s, NULL);
    }
}

/* MPIC_Sendrecv: post the receive, issue the send, wait for both */
static void
csendrecv(const CommInfo *ci, const void *sbuf, size_t sbytes, int to, void *rbuf,
          size_t rbytes, int from, int tag)
{
    Req *r, *s;
    tr_irecv(rbuf, rbytes, ci->base + from, ci->ctx + CTX_COLL, tag, 0, &r);
    tr_isend(sbuf, sbytes, ci->base + to, ci->ctx + CTX_COLL, tag, ci->me, &s);
    tr_wait(r, NULL);
    tr_wait(s, NULL);
}

static int
is_pof2(int n)
{
    return (n & (n - 1)) == 0;
}

/* MPICH's choice for Allgather (MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE 81920 and
 * _LONG_MSG_SIZE 524288 bytes of the whole result): recursive doubling for a power of
 * two below the long size, Bruck below the short size, else the ring */
enum { AG_SHORT = 81920, AG_LONG = 524288 };

static void
allgather_recursive_doubling(const CommInfo *ci, unsigned char *rbuf, size_t blk)
{
    int n = ci->size, me = ci->me;
    for (int mask = 1; mask < n; mask <<= 1) {
        int dst = me ^ mask;
        int mine = me & ~(mask - 1), theirs = dst & ~(mask - 1);
        csendrecv(ci, rbuf + blk * (size_t)mine, blk * (size_t)mask, dst,
                  rbuf + blk * (size_t)theirs, blk * (size_t)mask, dst, CO_ALLGATHER);
    }
}

static void
allgather_bruck(const CommInfo *ci, unsigned char *rbuf, size_t blk)
{
    int n = ci->size, me = ci->me, pof2 = 1;
    unsigned char *tmp = tr_tmp_alloc(blk * (size_t)n);
    if (blk)
        memcpy(tmp, rbuf + blk * (size_t)me, blk);
    for (; pof2 <= n / 2; pof2 <<= 1)
        csendrecv(ci, tmp, blk * (size_t)pof2, (me - pof2 + n) % n,
                  tmp + blk * (size_t)pof2, blk * (size_t)pof2, (me + pof2) % n,
                  CO_ALLGATHER);
    if (n - pof2 > 0)
        csendrecv(ci, tmp, blk * (size_t)(n - pof2), (me - pof2 + n) % n,
                  tmp + blk * (size_t)pof2, blk * (size_t)(n - pof2), (me + pof2) % n,
                  CO_ALLGATHER);
    for (int i = 0; i < n && blk; i++)
        memcpy(rbuf + blk * (size_t)((me + i) % n), tmp + blk * (size_t)i, blk);
    tr_tmp_free(tmp);
}

static void
allgather_ring(const CommInfo *ci, unsigned char *rbuf, size_t blk)
{
    int n = ci->size, me = ci->me, left = (me - 1 + n) % n, right = (me + 1) % n;
    int j = me, jnext = left;
    for (int i = 1; i < n; i++) {
        csendrecv(ci, rbuf + blk * (size_t)j, blk, right, rbuf + blk * (size_t)jnext, blk,
                  left, CO_ALLGATHER);
        j = jnext;
        jnext = (jnext - 1 + n) % n;
    }
}

static void
allgather_mpich(const CommInfo *ci, const void *sbuf, void *rbuf, size_t blk)
{
    unsigned char *r = rbuf;
    size_t total = blk * (size_t)ci->size;
    if (blk)
        memmove(r + blk * (size_t)ci->me, sbuf, blk);
    if (ci->size == 1)
        return;
    if (total < AG_LONG && is_pof2(ci->size))
        allgather_recursive_doubling(ci, r, blk);
    else if (total < AG_SHORT)
        allgather_bruck(ci, r, blk);
    else
        allgather_ring(ci, r, blk);
}

/* MPICH's Allreduce for commutative operations: the ranks beyond the largest power of
 * two fold into their neighbours, then recursive doubling for vectors up to
 * MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE (2048 bytes) or with fewer elements than the
 * power of two, else Rabenseifner's reduce-scatter (recursive halving) and allgather
 * (recursive doubling); the folded ranks get the result back */
enum { AR_SHORT = 2048 };

static int
ar_real(int newrank, int rem)
{
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

static void
allreduce_rabenseifner(const CommInfo *ci, unsigned char *acc, unsigned char *tmp,
                       int count, size_t esz, MPIRIO_Datatype type, MPIRIO_Op op,
                       int newrank, int pof2, int rem)
{
    int *cnts = tr_tmp_alloc(2 * (size_t)pof2 * sizeof *cnts), *disps = cnts + pof2;
    for (int i = 0; i < pof2; i++)
        cnts[i] = count / pof2 + (i < count % pof2);
    disps[0] = 0;
    for (int i = 1; i < pof2; i++)
        disps[i] = disps[i - 1] + cnts[i - 1];
    int mask = 1, send_idx = 0, recv_idx = 0, last_idx = pof2;
    while (mask < pof2) {
        int newdst = newrank ^ mask, dst = ar_real(newdst, rem), scnt = 0, rcnt = 0;
        if (newrank < newdst) {
            send_idx = recv_idx + pof2 / (mask * 2);
            for (int i = send_idx; i < last_idx; i++)
                scnt += cnts[i];
            for (int i = recv_idx; i < send_idx; i++)
                rcnt += cnts[i];
        } else {
            recv_idx = send_idx + pof2 / (mask * 2);
            for (int i = send_idx; i < recv_idx; i++)
                scnt += cnts[i];
            for (int i = recv_idx; i < last_idx; i++)
                rcnt += cnts[i];
        }
        csendrecv(ci, acc + esz * (size_t)disps[send_idx], esz * (size_t)scnt, dst,
                  tmp + esz * (size_t)disps[recv_idx], esz * (size_t)rcnt, dst,
                  CO_ALLREDUCE);
        dt_reduce(acc + esz * (size_t)disps[recv_idx],
                  tmp + esz * (size_t)disps[recv_idx], rcnt, type, op);
        send_idx = recv_idx;
        mask <<= 1;
        if (mask < pof2)
            last_idx = recv_idx + pof2 / mask;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int newdst = newrank ^ mask, dst = ar_real(newdst, rem), scnt = 0, rcnt = 0;
        if (newrank < newdst) {
            if (mask != pof2 / 2)
                last_idx = last_idx + pof2 / (mask * 2);
            recv_idx = send_idx + pof2 / (mask * 2);
            for (int i = send_idx; i < recv_idx; i++)
                scnt += cnts[i];
            for (int i = recv_idx; i < last_idx; i++)
                rcnt += cnts[i];
        } else {
            recv_idx = send_idx - pof2 / (mask * 2);
            for (int i = send_idx; i < last_idx; i++)
                scnt += cnts[i];
            for (int i = recv_idx; i < send_idx; i++)
                rcnt += cnts[i];
        }
        csendrecv(ci, acc + esz * (size_t)disps[send_idx], esz * (size_t)scnt, dst,
                  acc + esz * (size_t)disps[recv_idx], esz * (size_t)rcnt, dst,
                  CO_ALLREDUCE);
        if (newrank > newdst)
            send_idx = recv_idx;
    }
    tr_tmp_free(cnts);
}

static void
allreduce_mpich(const CommInfo *ci, const void *sbuf, void *rbuf, int count,
                MPIRIO_Datatype type, MPIRIO_Op op)
{
    int n = ci->size, me = ci->me, pof2 = 1;
    size_t esz = dt_size(type), bytes = (size_t)count * esz;
    unsigned char *acc = rbuf, *tmp = tr_tmp_alloc(bytes);
    if (bytes)
        memmove(acc, sbuf, bytes);
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2, newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            csend(ci, acc, bytes, me + 1, CO_ALLREDUCE);
            newrank = -1;
        } else {
            crecv(ci, tmp, bytes, me - 1, CO_ALLREDUCE);
            dt_reduce(acc, tmp, count, type, op);
            newrank = me / 2;
        }
    } else
        newrank = me - rem;
    if (newrank >= 0) {
        if (bytes <= AR_SHORT || count < pof2)
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int dst = ar_real(newrank ^ mask, rem);
                csendrecv(ci, acc, bytes, dst, tmp, bytes, dst, CO_ALLREDUCE);
                dt_reduce(acc, tmp, count, type, op);
            }
        else
            allreduce_rabenseifner(ci, acc, tmp, count, esz, type, op, newrank, pof2,
                                   rem);
    }
    if (me < 2 * rem) {
        if (me % 2)
            csend(ci, acc, bytes, me - 1, CO_ALLREDUCE);
        else
            crecv(ci, acc, bytes, me + 1, CO_ALLREDUCE);
    }
    tr_tmp_free(tmp);
}

/* MPICH's Alltoall (both families: a switch has nothing to combine): Bruck for blocks
 * of at most MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE (256 bytes) on 8 or more ranks, all
 * receives and sends posted at once in groups of MPIR_CVAR_ALLTOALL_THROTTLE (32) up
 * to _MEDIUM_MSG_SIZE (32768 bytes), else the pairwise exchange */
enum { A2A_SHORT = 256, A2A_MEDIUM = 32768, A2A_THROTTLE = 32 };

static void
alltoall_bruck(const CommInfo *ci, const unsigned char *s, unsigned char *r, size_t blk)
{
    int n = ci->size, me = ci->me;
    unsigned char *tmp = tr_tmp_alloc(blk * (size_t)n);
    unsigned char *pk = tr_tmp_alloc(blk * (size_t)n),
                  *in = tr_tmp_alloc(blk * (size_t)n);
    for (int i = 0; i < n && blk; i++) /* tmp[i]: the block for rank me + i */
        memcpy(tmp + blk * (size_t)i, s + blk * (size_t)((me + i) % n), blk);
    for (int pof2 = 1; pof2 < n; pof2 <<= 1) {
        size_t k = 0;
        for (int i = 0; i < n; i++)
            if (i & pof2 && blk)
                memcpy(pk + blk * k++, tmp + blk * (size_t)i, blk);
            else if (i & pof2)
                k++;
        csendrecv(ci, pk, blk * k, (me + pof2) % n, in, blk * k, (me - pof2 + n) % n,
                  CO_ALLTOALL);
        k = 0;
        for (int i = 0; i < n; i++)
            if (i & pof2 && blk)
                memcpy(tmp + blk * (size_t)i, in + blk * k++, blk);
    }
    for (int i = 0; i < n && blk; i++) /* tmp[i] came from rank me - i */
        memcpy(r + blk * (size_t)((me - i + n) % n), tmp + blk * (size_t)i, blk);
    tr_tmp_free(in);
    tr_tmp_free(pk);
    tr_tmp_free(tmp);
}

static void
alltoall_scattered(const CommInfo *ci, const unsigned char *s, unsigned char *r,
                   size_t blk)
{
    int n = ci->size, me = ci->me;
    Req *rq[2 * A2A_THROTTLE];
    for (int ii = 0; ii < n; ii += A2A_THROTTLE) {
        int ss = n - ii < A2A_THROTTLE ? n - ii : A2A_THROTTLE;
        for (int i = 0; i < ss; i++) {
            int src = (me + i + ii) % n;
            tr_irecv(r + blk * (size_t)src, blk, ci->base + src, ci->ctx + CTX_COLL,
                     CO_ALLTOALL, 0, &rq[i]);
        }
        for (int i = 0; i < ss; i++) {
            int dst = (me - i - ii + 2 * n) % n;
            tr_isend(s + blk * (size_t)dst, blk, ci->base + dst, ci->ctx + CTX_COLL,
                     CO_ALLTOALL, ci->me, &rq[ss + i]);
        }
        for (int i = 0; i < 2 * ss; i++)
            tr_wait(rq[i], NULL);
    }
}

static void
alltoall_pairwise(const CommInfo *ci, const unsigned char *s, unsigned char *r,
                  size_t blk)
{
    int n = ci->size, me = ci->me;
    if (blk)
        memcpy(r + blk * (size_t)me, s + blk * (size_t)me, blk);
    for (int i = 1; i < n; i++) {
        int src, dst;
        if (is_pof2(n))
            src = dst = me ^ i;
        else
            src = (me - i + n) % n, dst = (me + i) % n;
        csendrecv(ci, s + blk * (size_t)dst, blk, dst, r + blk * (size_t)src, blk, src,
                  CO_ALLTOALL);
    }
}

static void
alltoall_mpich(const CommInfo *ci, const void *sbuf, void *rbuf, size_t blk)
{
    if (blk <= A2A_SHORT && ci->size >= 8)
        alltoall_bruck(ci, sbuf, rbuf, blk);
    else if (blk <= A2A_MEDIUM)
        alltoall_scattered(ci, sbuf, rbuf, blk);
    else
        alltoall_pairwise(ci, sbuf, rbuf, blk);
}

/* common checks of the rooted collectives */
static int
coll_enter(MPIRIO_Comm comm, int root, CommInfo *ci, const char *name)
{
    int e = comm_info(comm, ci);
    if (e)
        return e;
    if (root < 0 || root >= ci->size)
        return MPIRIO_ERR_ROOT;
    tr_call(name);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Bcast(void *buf, int count, MPIRIO_Datatype type, int root, MPIRIO_Comm comm)
{
    CommInfo ci;
    size_t bytes;
    int e = coll_enter(comm, root, &ci, "MPIRIO_Bcast");
    if (e || (e = check_buf(buf, count, type, &bytes)))
        return e;
    if (tr_coll_default() == MPIRIO_COLL_SWITCH)
        return tr_coll_switch(CO_BCAST, ci.ctx, ci.base, ci.size, root, buf, buf, bytes,
                              type, 0);
    bcast_binomial(&ci, buf, bytes, root);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Reduce(const void *sendbuf, void *recvbuf, int count, MPIRIO_Datatype type,
              MPIRIO_Op op, int root, MPIRIO_Comm comm)
{
    CommInfo ci;
    size_t bytes;
    int e = coll_enter(comm, root, &ci, "MPIRIO_Reduce");
    if (e || (e = check_buf(sendbuf, count, type, &bytes)))
        return e;
    if (ci.me == root && count > 0 && !recvbuf)
        return MPIRIO_ERR_BUFFER;
    if (!dt_op_valid(type, op))
        return MPIRIO_ERR_OP;
    if (tr_coll_default() == MPIRIO_COLL_SWITCH)
        return tr_coll_switch(CO_REDUCE, ci.ctx, ci.base, ci.size, root, sendbuf, recvbuf,
                              bytes, type, op);
    reduce_binomial(&ci, sendbuf, recvbuf, count, type, op, root);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Gather(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype, void *recvbuf,
              int recvcount, MPIRIO_Datatype recvtype, int root, MPIRIO_Comm comm)
{
    CommInfo ci;
    size_t blk, rblk;
    int e = coll_enter(comm, root, &ci, "MPIRIO_Gather");
    if (e || (e = check_buf(sendbuf, sendcount, sendtype, &blk)))
        return e;
    if (ci.me == root) {
        if ((e = check_buf(recvbuf, recvcount, recvtype, &rblk)))
            return e;
        if (rblk < blk)
            return MPIRIO_ERR_TRUNCATE;
    }
    if (tr_coll_default() == MPIRIO_COLL_SWITCH)
        return tr_coll_switch(CO_GATHER, ci.ctx, ci.base, ci.size, root, sendbuf, recvbuf,
                              blk, MPIRIO_BYTE, 0);
    gather_binomial(&ci, sendbuf, recvbuf, blk, root);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Scatter(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
               void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, int root,
               MPIRIO_Comm comm)
{
    CommInfo ci;
    size_t blk, sblk;
    int e = coll_enter(comm, root, &ci, "MPIRIO_Scatter");
    if (e || (e = check_buf(recvbuf, recvcount, recvtype, &blk)))
        return e;
    if (ci.me == root) {
        if ((e = check_buf(sendbuf, sendcount, sendtype, &sblk)))
            return e;
        if (sblk > blk)
            return MPIRIO_ERR_TRUNCATE;
        blk = sblk;
    }
    if (tr_coll_default() == MPIRIO_COLL_SWITCH)
        return tr_coll_switch(CO_SCATTER, ci.ctx, ci.base, ci.size, root, sendbuf,
                              recvbuf, blk, MPIRIO_BYTE, 0);
    scatter_binomial(&ci, sendbuf, recvbuf, blk, root);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Barrier(MPIRIO_Comm comm)
{
    CommInfo ci;
    int e = coll_enter(comm, 0, &ci, "MPIRIO_Barrier");
    if (e)
        return e;
    if (tr_coll_default() == MPIRIO_COLL_SWITCH)
        return tr_coll_switch(CO_BARRIER, ci.ctx, ci.base, ci.size, 0, NULL, NULL, 0,
                              MPIRIO_BYTE, 0);
    barrier_dissemination(&ci);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Allgather(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                 void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, MPIRIO_Comm comm)
{
    CommInfo ci;
    size_t blk, rblk;
    int e = coll_enter(comm, 0, &ci, "MPIRIO_Allgather");
    if (e || (e = check_buf(sendbuf, sendcount, sendtype, &blk)) ||
        (e = check_buf(recvbuf, recvcount, recvtype, &rblk)))
        return e;
    if (rblk < blk)
        return MPIRIO_ERR_TRUNCATE;
    if (tr_coll_default() == MPIRIO_COLL_SWITCH)
        return tr_coll_switch(CO_ALLGATHER, ci.ctx, ci.base, ci.size, 0, sendbuf, recvbuf,
                              blk, MPIRIO_BYTE, 0);
    allgather_mpich(&ci, sendbuf, recvbuf, blk);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Allreduce(const void *sendbuf, void *recvbuf, int count, MPIRIO_Datatype type,
                 MPIRIO_Op op, MPIRIO_Comm comm)
{
    CommInfo ci;
    size_t bytes;
    int e = coll_enter(comm, 0, &ci, "MPIRIO_Allreduce");
    if (e || (e = check_buf(sendbuf, count, type, &bytes)) ||
        (e = check_buf(recvbuf, count, type, &bytes)))
        return e;
    if (!dt_op_valid(type, op))
        return MPIRIO_ERR_OP;
    if (tr_coll_default() == MPIRIO_COLL_SWITCH)
        return tr_coll_switch(CO_ALLREDUCE, ci.ctx, ci.base, ci.size, 0, sendbuf, recvbuf,
                              bytes, type, op);
    allreduce_mpich(&ci, sendbuf, recvbuf, count, type, op);
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Alltoall(const void *sendbuf, int sendcount, MPIRIO_Datatype sendtype,
                void *recvbuf, int recvcount, MPIRIO_Datatype recvtype, MPIRIO_Comm comm)
{
    CommInfo ci;
    size_t blk, rblk;
    int e = coll_enter(comm, 0, &ci, "MPIRIO_Alltoall");
    if (e || (e = check_buf(sendbuf, sendcount, sendtype, &blk)) ||
        (e = check_buf(recvbuf, recvcount, recvtype, &rblk)))
        return e;
    if (rblk < blk)
        return MPIRIO_ERR_TRUNCATE;
    alltoall_mpich(&ci, sendbuf, recvbuf, blk);
    return MPIRIO_SUCCESS;
}

/* ---- runs ---- */

int
MPIRIO_Run(int n, const char *platform, int flags, void (*dsp_main)(int rank, void *arg),
           void *arg)
{
    return tr_run(n, platform, flags, dsp_main, arg);
}

int
MPIRIO_Run_stats(MPIRIO_Stats *stats)
{
    if (!stats)
        return MPIRIO_ERR_ARG;
    return tr_run_stats(stats);
}

int
MPIRIO_Run_finish_times(long long *times, int n)
{
    if (!times || n < 0)
        return MPIRIO_ERR_ARG;
    tr_run_finish_times(times, n);
    return MPIRIO_SUCCESS;
}
