/* mpi_p2p.c: MPI point-to-point: the send modes, receives of any datatype (packed
 * bytes on the wire, unpacked at completion), requests (persistent, generalized,
 * freed while active, cancelled), the Wait and Test families, probes, buffered
 * sends. Part of the API layer (mpi_int.h); the transport's calls are the tr_ ones. */
#include "mpi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
status_from_tr(MPI_Status *st, const MPIRIO_Status *t)
{
    /* MPI_ERROR is left alone: the calls that complete one request return the error,
     * those that complete several (MPI_Waitall, ...) write it */
    st->MPI_SOURCE = t->source;
    st->MPI_TAG = t->tag;
    st->mpirio_cancelled = 0;
    st->mpirio_bytes = t->count;
}

static void
empty_status(MPI_Status *st)
{
    if (st) {
        st->MPI_SOURCE = MPI_ANY_SOURCE;
        st->MPI_TAG = MPI_ANY_TAG;
        st->mpirio_cancelled = 0;
        st->mpirio_bytes = 0;
    }
}

static void
null_status(MPI_Status *st)
{
    if (st) {
        empty_status(st);
        st->MPI_SOURCE = MPI_PROC_NULL;
    }
}

/* ---- starting requests ---- */

static int
check_tag(int tag, int recv)
{
    if (recv && tag == MPI_ANY_TAG)
        return 0;
    return tag < 0 || tag > MPIRIO_TAG_UB;
}

/* the checks of a send or receive; *t the datatype */
static int
check_args(MpiState *s, const void *buf, int count, MPI_Datatype type, int peer, int tag,
           MPI_Comm comm, int recv, Type **t, Comm **c)
{
    *c = comm_get(s, comm);
    if (!*c)
        return MPI_ERR_COMM;
    if (count < 0)
        return MPI_ERR_COUNT;
    if (check_tag(tag, recv))
        return MPI_ERR_TAG;
    if (peer == MPI_PROC_NULL) /* nothing moves: any datatype will do */
        return type_check(s, type, t) ? (*t = &s->predef[MPI_BYTE], MPI_SUCCESS)
                                      : MPI_SUCCESS;
    if (type_check(s, type, t))
        return MPI_ERR_TYPE;
    if (recv && peer == MPI_ANY_SOURCE)
        return MPI_SUCCESS;
    if (peer < 0 || peer >= comm_peers(*c))
        return MPI_ERR_RANK;
    if (count > 0 && (*t)->size > 0 && !buf && (*t)->true_lb == 0 && (*t)->lb == 0)
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

static int
bsend_room(MpiState *s, size_t bytes)
{
    /* forget the buffered sends that have completed */
    size_t used = 0;
    Bsend **pp = &s->bsends;
    while (*pp) {
        Bsend *b = *pp;
        int flag = 0;
        tr_test(b->r, &flag, NULL);
        if (flag) {
            *pp = b->next;
            mpi_free(b);
        } else {
            used += b->bytes + MPI_BSEND_OVERHEAD;
            pp = &b->next;
        }
    }
    return s->bbuf && used + bytes + MPI_BSEND_OVERHEAD <= (size_t)s->bsize;
}

/* starts r (send or receive); 0 or an error code */
static int
start(MpiState *s, Rq *r)
{
    Type *t;
    Comm *c;
    int recv = r->kind == RQ_RECV;
    /* a persistent request keeps its datatype, even one freed since */
    int e = check_args(s, recv ? r->rbuf : r->sbuf, r->count, r->t ? MPI_BYTE : r->type,
                       r->peer, r->tag, r->comm, recv, &t, &c);
    if (e)
        return e;
    if (r->t)
        t = r->t;
    else if (r->peer != MPI_PROC_NULL) {
        r->t = t;
        type_ref(t);
    }
    r->active = 1;
    r->cancelled = 0;
    r->err = MPI_SUCCESS;
    if (r->peer == MPI_PROC_NULL) {
        r->tr = NULL;
        null_status(&r->st);
        return MPI_SUCCESS;
    }
    size_t bytes = (size_t)(t->size * r->count);
    if (!recv) {
        const void *data = r->sbuf;
        void *tmp = NULL;
        if (!type_contig(t)) {
            tmp = mpi_alloc(bytes);
            type_pack(t, r->sbuf, r->count, tmp);
            data = tmp;
        } else if (data && t->lb)
            data = (const char *)data + 0;
        int dest = comm_peer(c, r->peer);
        if (r->mode == 3) {
            if (!bsend_room(s, bytes)) {
                mpi_free(tmp);
                r->active = 0;
                return MPI_ERR_BUFFER;
            }
            Req *tr;
            e = tr_isend(data, bytes, dest, c->ctx, r->tag, c->rank, &tr);
            Bsend *b = mpi_alloc(sizeof *b);
            b->r = tr, b->bytes = bytes, b->next = s->bsends;
            b->seq = r->bseq = ++s->nbsend;
            s->bsends = b;
            r->tr = NULL; /* the data is in the buffer: the request is complete */
            empty_status(&r->st);
        } else if (r->mode == 1)
            e = tr_issend(data, bytes, dest, c->ctx, r->tag, c->rank, &r->tr);
        else
            e = tr_isend(data, bytes, dest, c->ctx, r->tag, c->rank, &r->tr);
        mpi_free(tmp);
        return e;
    }
    void *into = r->rbuf;
    if (!type_contig(t))
        into = r->pack = mpi_alloc(bytes);
    int src = r->peer == MPI_ANY_SOURCE ? -1 : comm_peer(c, r->peer);
    return tr_irecv(into, bytes, src, c->ctx, r->tag, 0, &r->tr);
}

static Rq *
req_new(MpiState *s, int kind, const void *sbuf, void *rbuf, int count, MPI_Datatype type,
        int peer, int tag, MPI_Comm comm, int mode)
{
    Rq *r = rq_new(s, kind);
    r->sbuf = sbuf, r->rbuf = rbuf, r->count = count, r->type = type;
    r->peer = peer, r->tag = tag, r->comm = comm, r->mode = mode;
    return r;
}

/* the transport's part of r is over: unpack, the status */
static void
finish_tr(MpiState *s, Rq *r, const MPIRIO_Status *ts, int err)
{
    r->tr = NULL;
    if (r->kind == RQ_RECV) {
        status_from_tr(&r->st, ts);
        r->err = ts->error;
        if (r->pack) {
            /* all that came, a partial last instance too (a shorter message) */
            if (r->t)
                type_unpack_bytes(r->t, r->pack, ts->count, r->count, r->rbuf);
            mpi_free(r->pack);
            r->pack = NULL;
        }
    } else {
        empty_status(&r->st);
        r->err = err;
    }
}

/* r has completed (or was never started): its status out, and the request freed
 * unless persistent; the request's error */
static int
deliver(MpiState *s, MPI_Request *rp, MPI_Status *st)
{
    Rq *r = rq_get(s, *rp);
    int err = r->err;
    if (st) {
        int keep = st->MPI_ERROR;
        *st = r->st;
        if (r->kind == RQ_GREQ && r->query)
            r->query(r->extra, st);
        st->mpirio_cancelled = r->cancelled;
        st->MPI_ERROR = keep;
    }
    r->active = 0;
    if (!r->persistent) {
        if (r->kind == RQ_GREQ && r->gfree)
            r->gfree(r->extra);
        if (r->t)
            type_unref(r->t);
        rq_free(s, r);
        *rp = MPI_REQUEST_NULL;
    }
    return err;
}

/* is r complete (transport polled once, the result kept in r)? */
static int
poll(MpiState *s, Rq *r)
{
    if (!r->active)
        return 1;
    if (r->kind == RQ_GREQ)
        return r->done;
    if (!r->tr)
        return 1;
    int flag = 0;
    MPIRIO_Status ts = {0};
    int e = tr_test(r->tr, &flag, &ts);
    if (flag)
        finish_tr(s, r, &ts, e);
    return flag;
}

/* blocks until r is complete */
static int
complete(MpiState *s, Rq *r)
{
    if (!r->active || !r->tr) {
        if (r->kind == RQ_GREQ && r->active && !r->done)
            return MPI_ERR_PENDING; /* nobody else can complete it */
        return MPI_SUCCESS;
    }
    MPIRIO_Status ts = {0};
    int e = tr_wait(r->tr, &ts);
    finish_tr(s, r, &ts, e);
    return MPI_SUCCESS;
}

static int
isend_mode(const char *name, int mode, const void *buf, int count, MPI_Datatype type,
           int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    ENTER(name);
    Rq *r = req_new(s, RQ_SEND, buf, NULL, count, type, dest, tag, comm, mode);
    int e = start(s, r);
    if (e) {
        rq_free(s, r);
        *req = MPI_REQUEST_NULL;
        return mpi_err(comm, e);
    }
    *req = r->self;
    return MPI_SUCCESS;
}

static int
send_mode(const char *name, int mode, const void *buf, int count, MPI_Datatype type,
          int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    int e = isend_mode(name, mode, buf, count, type, dest, tag, comm, &r);
    if (e)
        return e;
    MpiState *s = mpi_state();
    complete(s, rq_get(s, r));
    return deliver(s, &r, NULL);
}

int
MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return send_mode("MPI_Send", 0, buf, count, type, dest, tag, comm);
}

int
MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return send_mode("MPI_Ssend", 1, buf, count, type, dest, tag, comm);
}

int
MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return send_mode("MPI_Rsend", 2, buf, count, type, dest, tag, comm);
}

int
MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return send_mode("MPI_Bsend", 3, buf, count, type, dest, tag, comm);
}

int
MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
          MPI_Request *req)
{
    return isend_mode("MPI_Isend", 0, buf, count, type, dest, tag, comm, req);
}

int
MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm, MPI_Request *req)
{
    return isend_mode("MPI_Issend", 1, buf, count, type, dest, tag, comm, req);
}

int
MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm, MPI_Request *req)
{
    return isend_mode("MPI_Irsend", 2, buf, count, type, dest, tag, comm, req);
}

int
MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm, MPI_Request *req)
{
    return isend_mode("MPI_Ibsend", 3, buf, count, type, dest, tag, comm, req);
}

int
MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
          MPI_Request *req)
{
    ENTER("MPI_Irecv");
    Rq *r = req_new(s, RQ_RECV, NULL, buf, count, type, source, tag, comm, 0);
    int e = start(s, r);
    if (e) {
        rq_free(s, r);
        *req = MPI_REQUEST_NULL;
        return mpi_err(comm, e);
    }
    *req = r->self;
    return MPI_SUCCESS;
}

int
MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
         MPI_Status *status)
{
    MPI_Request r;
    int e = MPI_Irecv(buf, count, type, source, tag, comm, &r);
    if (e)
        return e;
    MpiState *s = mpi_state();
    s->call = "MPI_Recv";
    tr_call("MPI_Recv");
    complete(s, rq_get(s, r));
    e = deliver(s, &r, status);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
             void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
             MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r, w;
    int e = MPI_Irecv(rbuf, rcount, rtype, source, rtag, comm, &r);
    if (e)
        return e;
    e = MPI_Isend(sbuf, scount, stype, dest, stag, comm, &w);
    if (e)
        return e;
    MpiState *s = mpi_state();
    s->call = "MPI_Sendrecv";
    tr_call("MPI_Sendrecv");
    complete(s, rq_get(s, w));
    deliver(s, &w, NULL);
    complete(s, rq_get(s, r));
    e = deliver(s, &r, status);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                     int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    ENTER("MPI_Sendrecv_replace");
    Type *t;
    if (type_check(s, type, &t))
        return mpi_err(comm, MPI_ERR_TYPE);
    if (count < 0)
        return mpi_err(comm, MPI_ERR_COUNT);
    /* the outgoing data packed aside, then an ordinary Sendrecv */
    size_t bytes = (size_t)(t->size * count);
    void *tmp = mpi_alloc(bytes);
    type_pack(t, buf, count, tmp);
    int e = MPI_Sendrecv(tmp, (int)bytes, MPI_BYTE, dest, stag, buf, count, type, source,
                         rtag, comm, status);
    mpi_free(tmp);
    return e;
}

/* ---- persistent requests ---- */

static int
init_mode(const char *name, int kind, int mode, const void *sbuf, void *rbuf, int count,
          MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request *req)
{
    ENTER(name);
    Type *t;
    Comm *c;
    int e = check_args(s, kind == RQ_RECV ? rbuf : sbuf, count, type, peer, tag, comm,
                       kind == RQ_RECV, &t, &c);
    if (e)
        return mpi_err(comm, e);
    Rq *r = req_new(s, kind, sbuf, rbuf, count, type, peer, tag, comm, mode);
    r->persistent = 1;
    if (peer != MPI_PROC_NULL) {
        r->t = t;
        type_ref(t);
    }
    *req = r->self;
    return MPI_SUCCESS;
}

int
MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    return init_mode("MPI_Send_init", RQ_SEND, 0, buf, NULL, count, type, dest, tag, comm,
                     req);
}

int
MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return init_mode("MPI_Ssend_init", RQ_SEND, 1, buf, NULL, count, type, dest, tag,
                     comm, req);
}

int
MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return init_mode("MPI_Rsend_init", RQ_SEND, 2, buf, NULL, count, type, dest, tag,
                     comm, req);
}

int
MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return init_mode("MPI_Bsend_init", RQ_SEND, 3, buf, NULL, count, type, dest, tag,
                     comm, req);
}

int
MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    return init_mode("MPI_Recv_init", RQ_RECV, 0, NULL, buf, count, type, source, tag,
                     comm, req);
}

int
MPI_Start(MPI_Request *req)
{
    ENTER("MPI_Start");
    Rq *r = req ? rq_get(s, *req) : NULL;
    if (!r || !r->persistent || r->active)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    int e = start(s, r);
    return e ? mpi_err(r->comm, e) : MPI_SUCCESS;
}

int
MPI_Startall(int n, MPI_Request reqs[])
{
    for (int i = 0; i < n; i++) {
        int e = MPI_Start(&reqs[i]);
        if (e)
            return e;
    }
    return MPI_SUCCESS;
}

/* ---- completion ---- */

int
MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    ENTER("MPI_Wait");
    if (!req)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    if (!*req) {
        empty_status(status);
        return MPI_SUCCESS;
    }
    Rq *r = rq_get(s, *req);
    if (!r) /* completed and freed, freed, or never made */
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    if (!r->active && r->persistent) {
        empty_status(status);
        return MPI_SUCCESS;
    }
    MPI_Comm comm = r->comm;
    int e = complete(s, r);
    if (e)
        return mpi_err(comm, e);
    e = deliver(s, req, status);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

/* a request that counts in Waitany/Testany (not NULL, not an inactive persistent) */
static int
live(const Rq *r)
{
    return r && (r->active || !r->persistent);
}

/* the arguments of the calls on arrays of requests: n >= 0, every handle
 * MPI_REQUEST_NULL or a live request's; 0 or the error code (nothing done then) */
static int
check_reqs(MpiState *s, int n, const MPI_Request reqs[])
{
    if (n < 0)
        return MPI_ERR_COUNT;
    if (n > 0 && !reqs)
        return MPI_ERR_REQUEST;
    for (int i = 0; i < n; i++)
        if (reqs[i] && !rq_get(s, reqs[i]))
            return MPI_ERR_REQUEST;
    return MPI_SUCCESS;
}

#define CHECK_REQS(n, reqs)                                                              \
    do {                                                                                 \
        int e_ = check_reqs(s, n, reqs);                                                 \
        if (e_)                                                                          \
            return mpi_err(MPI_COMM_WORLD, e_);                                          \
    } while (0)

int
MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    ENTER("MPI_Waitall");
    CHECK_REQS(n, reqs);
    int err = 0;
    for (int i = 0; i < n; i++) {
        MPI_Status *st = statuses ? &statuses[i] : NULL;
        Rq *r = rq_get(s, reqs[i]);
        if (!live(r)) {
            empty_status(st);
            if (r && st)
                st->MPI_ERROR = MPI_SUCCESS;
            continue;
        }
        complete(s, r);
        int e = deliver(s, &reqs[i], st);
        if (st)
            st->MPI_ERROR = e;
        if (e)
            err = 1;
    }
    return err ? mpi_err(MPI_COMM_WORLD, MPI_ERR_IN_STATUS) : MPI_SUCCESS;
}

int
MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    ENTER("MPI_Waitany");
    CHECK_REQS(n, reqs);
    for (;;) {
        int any = 0, ntr = 0;
        for (int i = 0; i < n; i++) {
            Rq *r = rq_get(s, reqs[i]);
            if (!live(r))
                continue;
            any = 1;
            if (!r->active || (r->kind != RQ_GREQ && !r->tr) ||
                (r->kind == RQ_GREQ && r->done)) {
                *index = i;
                int e = deliver(s, &reqs[i], status);
                return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
            }
            if (r->tr)
                ntr++;
        }
        if (!any) {
            *index = MPI_UNDEFINED;
            empty_status(status);
            return MPI_SUCCESS;
        }
        if (!ntr)
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_PENDING);
        Req **trs = mpi_alloc((size_t)n * sizeof *trs);
        for (int i = 0; i < n; i++) {
            Rq *r = rq_get(s, reqs[i]);
            trs[i] = live(r) && r->active ? r->tr : NULL;
        }
        int k = tr_waitany(n, trs);
        mpi_free(trs);
        complete(s, rq_get(s, reqs[k]));
    }
}

int
MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
             MPI_Status statuses[])
{
    int k;
    MPI_Status st;
    int e = MPI_Waitany(n, reqs, &k, &st);
    if (e)
        return e;
    if (k == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    MpiState *s = mpi_state();
    int m = 0;
    indices[m] = k;
    if (statuses)
        statuses[m] = st;
    m++;
    for (int i = 0; i < n; i++) {
        Rq *r = rq_get(s, reqs[i]);
        if (i != k && live(r) && poll(s, r)) {
            indices[m] = i;
            deliver(s, &reqs[i], statuses ? &statuses[m] : NULL);
            m++;
        }
    }
    *outcount = m;
    return MPI_SUCCESS;
}

int
MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    ENTER("MPI_Test");
    if (!req)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    Rq *r = rq_get(s, *req);
    if (*req && !r)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    if (!live(r)) {
        *flag = 1;
        empty_status(status);
        return MPI_SUCCESS;
    }
    MPI_Comm comm = r->comm;
    *flag = poll(s, r);
    if (!*flag)
        return MPI_SUCCESS;
    int e = deliver(s, req, status);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    ENTER("MPI_Testall");
    CHECK_REQS(n, reqs);
    int all = 1;
    for (int i = 0; i < n; i++) {
        Rq *r = rq_get(s, reqs[i]);
        if (live(r) && !poll(s, r))
            all = 0;
    }
    *flag = all;
    if (!all)
        return MPI_SUCCESS;
    int err = 0;
    for (int i = 0; i < n; i++) {
        MPI_Status *st = statuses ? &statuses[i] : NULL;
        if (!live(rq_get(s, reqs[i]))) {
            empty_status(st);
            continue;
        }
        int e = deliver(s, &reqs[i], st);
        if (st)
            st->MPI_ERROR = e;
        if (e)
            err = 1;
    }
    return err ? mpi_err(MPI_COMM_WORLD, MPI_ERR_IN_STATUS) : MPI_SUCCESS;
}

int
MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    ENTER("MPI_Testany");
    CHECK_REQS(n, reqs);
    int any = 0;
    for (int i = 0; i < n; i++) {
        Rq *r = rq_get(s, reqs[i]);
        if (!live(r))
            continue;
        any = 1;
        if (poll(s, r)) {
            *flag = 1;
            *index = i;
            int e = deliver(s, &reqs[i], status);
            return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
        }
    }
    *flag = !any;
    *index = MPI_UNDEFINED;
    if (!any)
        empty_status(status);
    return MPI_SUCCESS;
}

int
MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
             MPI_Status statuses[])
{
    ENTER("MPI_Testsome");
    CHECK_REQS(n, reqs);
    int any = 0, m = 0;
    for (int i = 0; i < n; i++) {
        Rq *r = rq_get(s, reqs[i]);
        if (!live(r))
            continue;
        any = 1;
        if (poll(s, r)) {
            indices[m] = i;
            deliver(s, &reqs[i], statuses ? &statuses[m] : NULL);
            m++;
        }
    }
    *outcount = any ? m : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int
MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status)
{
    ENTER("MPI_Request_get_status");
    Rq *r = rq_get(s, req);
    if (req && !r)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    if (!live(r)) {
        *flag = 1;
        empty_status(status);
        return MPI_SUCCESS;
    }
    *flag = poll(s, r);
    if (*flag && status) {
        *status = r->st;
        status->mpirio_cancelled = r->cancelled;
    }
    return MPI_SUCCESS;
}

int
MPI_Request_free(MPI_Request *req)
{
    ENTER("MPI_Request_free");
    Rq *r = req ? rq_get(s, *req) : NULL;
    if (!r)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    /* an active send or receive goes on; the transport's request lives until the run
     * ends (a receive into a packed buffer is then never unpacked, as MPI allows) */
    if (r->kind == RQ_GREQ && r->gfree)
        r->gfree(r->extra);
    if (!r->active || !r->tr || r->kind != RQ_RECV || !r->pack) {
        if (r->t)
            type_unref(r->t);
        rq_free(s, r);
    } else
        rq_forget(s, r);
    *req = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

int
MPI_Cancel(MPI_Request *req)
{
    ENTER("MPI_Cancel");
    Rq *r = req ? rq_get(s, *req) : NULL;
    if (!r)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    if (r->kind == RQ_GREQ) {
        if (r->gcancel)
            r->gcancel(r->extra, r->done);
        return MPI_SUCCESS;
    }
    if (!r->active)
        return MPI_SUCCESS;
    /* a send or receive that no one has matched yet is cancelled; a buffered send
     * (complete at its start) through its message in the buffer, which it frees */
    int cancelled = 0;
    if (r->tr)
        cancelled = tr_cancel(r->tr);
    else if (r->kind == RQ_SEND && r->mode == 3)
        for (Bsend **pp = &s->bsends; *pp; pp = &(*pp)->next)
            if ((*pp)->seq == r->bseq) {
                Bsend *b = *pp;
                if ((cancelled = tr_cancel(b->r))) {
                    *pp = b->next;
                    mpi_free(b);
                }
                break;
            }
    if (cancelled) {
        r->tr = NULL;
        empty_status(&r->st);
        r->cancelled = 1;
        mpi_free(r->pack);
        r->pack = NULL;
    }
    return MPI_SUCCESS;
}

int
MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    *flag = status->mpirio_cancelled;
    return MPI_SUCCESS;
}

int
MPI_Grequest_start(MPI_Grequest_query_function *query,
                   MPI_Grequest_free_function *free_fn,
                   MPI_Grequest_cancel_function *cancel, void *extra, MPI_Request *req)
{
    ENTER("MPI_Grequest_start");
    Rq *r = rq_new(s, RQ_GREQ);
    r->active = 1;
    r->query = query, r->gfree = free_fn, r->gcancel = cancel, r->extra = extra;
    r->comm = MPI_COMM_WORLD;
    empty_status(&r->st);
    *req = r->self;
    return MPI_SUCCESS;
}

int
MPI_Grequest_complete(MPI_Request req)
{
    ENTER("MPI_Grequest_complete");
    Rq *r = rq_get(s, req);
    if (!r || r->kind != RQ_GREQ)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    r->done = 1;
    return MPI_SUCCESS;
}

/* ---- probes ---- */

static int
probe(const char *name, int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    ENTER(name);
    Comm *c = comm_get(s, comm);
    if (!c)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);
    if (check_tag(tag, 1))
        return mpi_err(comm, MPI_ERR_TAG);
    if (source == MPI_PROC_NULL) {
        if (flag)
            *flag = 1;
        null_status(status);
        return MPI_SUCCESS;
    }
    if (source != MPI_ANY_SOURCE && (source < 0 || source >= comm_peers(c)))
        return mpi_err(comm, MPI_ERR_RANK);
    int src = source == MPI_ANY_SOURCE ? -1 : comm_peer(c, source);
    MPIRIO_Status ts = {0};
    if (flag) {
        tr_iprobe(src, c->ctx, tag, flag, &ts);
        if (!*flag)
            return MPI_SUCCESS;
    } else
        tr_probe(src, c->ctx, tag, &ts);
    if (status)
        status_from_tr(status, &ts);
    return MPI_SUCCESS;
}

int
MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe("MPI_Probe", source, tag, comm, NULL, status);
}

int
MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    return probe("MPI_Iprobe", source, tag, comm, flag, status);
}

/* ---- matched probes ---- */

static int
mprobe(const char *name, int source, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
       MPI_Status *status)
{
    ENTER(name);
    Comm *c = comm_get(s, comm);
    if (!c)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);
    if (check_tag(tag, 1))
        return mpi_err(comm, MPI_ERR_TAG);
    if (source == MPI_PROC_NULL) {
        if (flag)
            *flag = 1;
        *msg = MPI_MESSAGE_NO_PROC;
        null_status(status);
        return MPI_SUCCESS;
    }
    if (source != MPI_ANY_SOURCE && (source < 0 || source >= comm_peers(c)))
        return mpi_err(comm, MPI_ERR_RANK);
    int src = source == MPI_ANY_SOURCE ? -1 : comm_peer(c, source), f = 0;
    void *m = NULL;
    MPIRIO_Status ts = {0};
    tr_improbe(src, c->ctx, tag, flag == NULL, &f, &m, &ts);
    if (flag)
        *flag = f;
    if (!f) {
        *msg = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    int i = tab_new(&s->msgs, 0, sizeof(MsgH));
    MsgH *h = tab_at(&s->msgs, i);
    h->used = 1, h->m = m, h->comm = comm;
    *msg = i;
    if (status)
        status_from_tr(status, &ts);
    return MPI_SUCCESS;
}

int
MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status)
{
    return mprobe("MPI_Mprobe", source, tag, comm, NULL, msg, status);
}

int
MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
            MPI_Status *status)
{
    return mprobe("MPI_Improbe", source, tag, comm, flag, msg, status);
}

int
MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Request *req)
{
    ENTER("MPI_Imrecv");
    if (!msg)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    Rq *r =
        req_new(s, RQ_RECV, NULL, buf, count, type, MPI_PROC_NULL, 0, MPI_COMM_WORLD, 0);
    if (*msg == MPI_MESSAGE_NO_PROC) {
        r->active = 1;
        null_status(&r->st);
        *msg = MPI_MESSAGE_NULL;
        *req = r->self;
        return MPI_SUCCESS;
    }
    MsgH *h = tab_at(&s->msgs, *msg);
    Type *t;
    if (!h || !h->used) {
        rq_free(s, r);
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    }
    if (count < 0 || type_check(s, type, &t)) {
        rq_free(s, r);
        return mpi_err(h->comm, count < 0 ? MPI_ERR_COUNT : MPI_ERR_TYPE);
    }
    r->comm = h->comm;
    r->t = t;
    type_ref(t);
    r->active = 1;
    size_t bytes = (size_t)(t->size * count);
    void *into = buf;
    if (!type_contig(t))
        into = r->pack = mpi_alloc(bytes);
    tr_imrecv(h->m, into, bytes, &r->tr);
    tab_free(&s->msgs, *msg);
    *msg = MPI_MESSAGE_NULL;
    *req = r->self;
    return MPI_SUCCESS;
}

int
MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Status *status)
{
    MPI_Request r;
    int e = MPI_Imrecv(buf, count, type, msg, &r);
    if (e)
        return e;
    return MPI_Wait(&r, status);
}

/* ---- buffered sends ---- */

int
MPI_Buffer_attach(void *buf, int size)
{
    ENTER("MPI_Buffer_attach");
    if (s->bbuf)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_BUFFER);
    if (size < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    s->bbuf = buf;
    s->bsize = size;
    return MPI_SUCCESS;
}

int
MPI_Buffer_detach(void *buf, int *size)
{
    ENTER("MPI_Buffer_detach");
    /* waits until every buffered message has left */
    while (s->bsends) {
        Bsend *b = s->bsends;
        s->bsends = b->next;
        tr_wait(b->r, NULL);
        mpi_free(b);
    }
    memcpy(buf, &s->bbuf, sizeof s->bbuf);
    *size = s->bsize;
    s->bbuf = NULL;
    s->bsize = 0;
    return MPI_SUCCESS;
}
