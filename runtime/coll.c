/* coll.c: the collective algorithms, once for both APIs.
 *
 * MPIRIO_Bcast and the other MPIRIO collectives (api.c) and the MPI collectives of
 * intracommunicators (mpi_coll.c), as well as the agreements of the communicator
 * calls (mpi_comm.c), run these: on a group of members (global ranks) and a context
 * of their own, in the in-switch family the transport's collectives
 * (tr_coll_switch) where the group is MPIRIO_COMM_WORLD or MPIRIO_COMM_LOCAL, else
 * MPICH's algorithms over the transport's point-to-point calls: binomial bcast,
 * gather (the blocks of a subtree travel together), scatter and reduce (rank order
 * for a noncommutative operator), dissemination barrier, and allgather, allreduce and
 * alltoall chosen by size with MPICH's default thresholds. Data is bytes; a reduction
 * works through the operator it is handed (CollOp), so the MPI layer's operators and
 * datatypes need nothing here. Every receive checks that the message has the length
 * the caller expects: a member whose counts disagree with the others' gets
 * MPIRIO_ERR_TRUNCATE, takes part in the whole algorithm (so that nobody waits for it)
 * and sends the error on (isend_err), as in MPICH (docs/runtime.md, "Collectives whose
 * members disagree"). Calls only the tr_ functions and the datatype helpers
 * (mpirio_int.h): below every other file of the API layer. */
#include "mpirio_int.h"

#include <string.h>

static int
member(const CollGroup *cg, int i)
{
    return cg->g ? cg->g[i] : cg->base + i;
}

/* the first error of a collective is the one it returns */
static void
keep(int *err, int e)
{
    if (e && !*err)
        *err = e;
}

/* a received message of the length expected, else MPIRIO_ERR_TRUNCATE; the part of
 * buf that a shorter one left is zeroed (what is combined or passed on after an
 * error is the same on every run) */
static int
check_len(int e, const MPIRIO_Status *st, void *buf, size_t bytes)
{
    if (e)
        return e;
    if (st->error)
        return st->error;
    if ((size_t)st->count >= bytes)
        return MPIRIO_SUCCESS;
    memset((unsigned char *)buf + st->count, 0, bytes - (size_t)st->count);
    return MPIRIO_ERR_TRUNCATE;
}

/* Sends of a member that has seen an error carry it on, as MPICH's carry it in their
 * tag: the message is one byte longer than its receiver expects, which makes the
 * receiver's error too (MPIRIO_ERR_TRUNCATE); so the error of a member whose counts
 * disagree reaches the members downstream of it (the root of a gather or reduce,
 * the subtree of a bcast), never a false success. The issued send (*r). */
static void
isend_err(const CollGroup *cg, const void *buf, size_t bytes, int to, int tag, int *err,
          Req **r)
{
    if (!*err) {
        keep(err, tr_isend(buf, bytes, member(cg, to), cg->ctx, tag, cg->me, r));
        return;
    }
    unsigned char *tmp = tr_tmp_alloc(bytes + 1);
    if (bytes)
        memcpy(tmp, buf, bytes);
    tmp[bytes] = 0;
    tr_isend(tmp, bytes + 1, member(cg, to), cg->ctx, tag, cg->me, r);
    tr_tmp_free(tmp); /* the transport copied it */
}

static void
xsend(const CollGroup *cg, const void *buf, size_t bytes, int to, int tag, int *err)
{
    Req *r;
    isend_err(cg, buf, bytes, to, tag, err, &r);
    keep(err, tr_wait(r, NULL));
}

static void
xrecv(const CollGroup *cg, void *buf, size_t bytes, int from, int tag, int *err)
{
    Req *r;
    MPIRIO_Status st = {0};
    tr_irecv(buf, bytes, member(cg, from), cg->ctx, tag, 1, &r);
    keep(err, check_len(tr_wait(r, &st), &st, buf, bytes));
}

/* MPIC_Sendrecv: post the receive, issue the send, wait for both */
static void
xsendrecv(const CollGroup *cg, const void *sbuf, size_t sbytes, int to, void *rbuf,
          size_t rbytes, int from, int tag, int *err)
{
    Req *r, *s;
    MPIRIO_Status st = {0};
    tr_irecv(rbuf, rbytes, member(cg, from), cg->ctx, tag, 0, &r);
    isend_err(cg, sbuf, sbytes, to, tag, err, &s);
    keep(err, check_len(tr_wait(r, &st), &st, rbuf, rbytes));
    keep(err, tr_wait(s, NULL));
}

int
coll_send(const CollGroup *cg, const void *buf, size_t bytes, int to, int tag)
{
    int err = 0;
    xsend(cg, buf, bytes, to, tag, &err);
    return err;
}

int
coll_recv(const CollGroup *cg, void *buf, size_t bytes, int from, int tag)
{
    int err = 0;
    xrecv(cg, buf, bytes, from, tag, &err);
    return err;
}

/* the in-switch family applies: the group is one the switches know, and the caller
 * asked for it */
static int
in_switch(const CollGroup *cg)
{
    return cg->sw >= 0 && tr_coll_default() == MPIRIO_COLL_SWITCH;
}

static int
is_pof2(int n)
{
    return (n & (n - 1)) == 0;
}

/* ---- bcast, gather, scatter: binomial trees ---- */

int
coll_bcast(const CollGroup *cg, int tag, void *buf, size_t bytes, int root)
{
    if (in_switch(cg))
        return tr_coll_switch(CO_BCAST, cg->sw, cg->base, cg->size, root, buf, buf, bytes,
                              MPIRIO_BYTE, 0);
    int n = cg->size, me = cg->me, rel = (me - root + n) % n, mask = 1, err = 0;
    for (; mask < n; mask <<= 1)
        if (rel & mask) {
            xrecv(cg, buf, bytes, (me - mask + n) % n, tag, &err);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            xsend(cg, buf, bytes, (me + mask) % n, tag, &err);
    return err;
}

int
coll_gather(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, size_t blk,
            int root)
{
    if (in_switch(cg))
        return tr_coll_switch(CO_GATHER, cg->sw, cg->base, cg->size, root, sbuf, rbuf,
                              blk, MPIRIO_BYTE, 0);
    int n = cg->size, rel = (cg->me - root + n) % n, err = 0;
    unsigned char *tmp = tr_tmp_alloc(blk * (size_t)n);
    if (blk)
        memcpy(tmp, sbuf, blk);
    int have = 1;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            xsend(cg, tmp, blk * (size_t)have, (rel - mask + root) % n, tag, &err);
            break;
        }
        int src = rel | mask;
        if (src < n) {
            int k = mask < n - src ? mask : n - src;
            xrecv(cg, tmp + blk * (size_t)mask, blk * (size_t)k, (src + root) % n, tag,
                  &err);
            have += k;
        }
    }
    if (rel == 0 && blk)
        for (int r = 0; r < n; r++)
            memcpy((unsigned char *)rbuf + blk * (size_t)((r + root) % n),
                   tmp + blk * (size_t)r, blk);
    tr_tmp_free(tmp);
    return err;
}

int
coll_scatter(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, size_t blk,
             int root)
{
    if (in_switch(cg))
        return tr_coll_switch(CO_SCATTER, cg->sw, cg->base, cg->size, root, sbuf, rbuf,
                              blk, MPIRIO_BYTE, 0);
    int n = cg->size, rel = (cg->me - root + n) % n, mask = 1, err = 0;
    unsigned char *tmp = tr_tmp_alloc(blk * (size_t)n);
    if (rel == 0) {
        for (int r = 0; r < n && blk; r++)
            memcpy(tmp + blk * (size_t)r,
                   (const unsigned char *)sbuf + blk * (size_t)((r + root) % n), blk);
        while (mask < n)
            mask <<= 1;
    } else
        for (; mask < n; mask <<= 1)
            if (rel & mask) {
                int k = mask < n - rel ? mask : n - rel;
                xrecv(cg, tmp, blk * (size_t)k, (rel - mask + root) % n, tag, &err);
                break;
            }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n) {
            int k = mask < n - rel - mask ? mask : n - rel - mask;
            xsend(cg, tmp + blk * (size_t)mask, blk * (size_t)k, (rel + mask + root) % n,
                  tag, &err);
        }
    if (blk)
        memcpy(rbuf, tmp, blk);
    tr_tmp_free(tmp);
    return err;
}

/* ---- reductions ---- */

static void
basic_fn(const CollOp *o, const void *in, void *inout, int count)
{
    dt_reduce(inout, in, count, o->type, o->op);
}

CollOp
coll_basic_op(MPIRIO_Datatype type, MPIRIO_Op op)
{
    return (CollOp){basic_fn, dt_size(type), 1, type, op, NULL};
}

/* the switches reduce the basic types and operators of mpirio.h */
static int
switch_op(const CollOp *o)
{
    return o->type && dt_op_valid(o->type, o->op);
}

/* binomial reduce; acc holds the caller's vector and is overwritten: the result at
 * the root of the tree, which is `root` for a commutative operator and 0 otherwise
 * (in rank order: acc holds the ranks below those of what comes in); *res the
 * buffer with the result */
static int
reduce_tree(const CollGroup *cg, int tag, unsigned char **acc, unsigned char **tmp,
            int count, const CollOp *o, int root)
{
    int n = cg->size, err = 0;
    size_t bytes = (size_t)count * o->esz;
    int troot = o->commute ? root : 0;
    int rel = (cg->me - troot + n) % n;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            xsend(cg, *acc, bytes, (rel - mask + troot) % n, tag, &err);
            break;
        }
        int src = rel | mask;
        if (src < n) {
            xrecv(cg, *tmp, bytes, (src + troot) % n, tag, &err);
            if (o->commute)
                o->fn(o, *tmp, *acc, count);
            else { /* acc holds ranks [rel, src), tmp [src, ...): acc op tmp */
                o->fn(o, *acc, *tmp, count);
                unsigned char *t = *acc;
                *acc = *tmp;
                *tmp = t;
            }
        }
    }
    if (troot != root) {
        if (cg->me == troot)
            xsend(cg, *acc, bytes, root, tag, &err);
        else if (cg->me == root)
            xrecv(cg, *acc, bytes, troot, tag, &err);
    }
    return err;
}

int
coll_reduce(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, int count,
            const CollOp *o, int root)
{
    size_t bytes = (size_t)count * o->esz;
    if (in_switch(cg) && switch_op(o))
        return tr_coll_switch(CO_REDUCE, cg->sw, cg->base, cg->size, root, sbuf, rbuf,
                              bytes, o->type, o->op);
    unsigned char *acc = tr_tmp_alloc(bytes), *tmp = tr_tmp_alloc(bytes);
    if (bytes)
        memcpy(acc, sbuf, bytes);
    int err = reduce_tree(cg, tag, &acc, &tmp, count, o, root);
    if (cg->me == root && bytes)
        memcpy(rbuf, acc, bytes);
    tr_tmp_free(acc);
    tr_tmp_free(tmp);
    return err;
}

/* ---- barrier: dissemination ---- */

int
coll_barrier(const CollGroup *cg, int tag)
{
    if (in_switch(cg))
        return tr_coll_switch(CO_BARRIER, cg->sw, cg->base, cg->size, 0, NULL, NULL, 0,
                              MPIRIO_BYTE, 0);
    int n = cg->size, err = 0;
    for (int k = 1; k < n; k <<= 1) {
        Req *s;
        keep(&err,
             tr_isend(NULL, 0, member(cg, (cg->me + k) % n), cg->ctx, tag, cg->me, &s));
        xrecv(cg, NULL, 0, (cg->me - k + n) % n, tag, &err);
        keep(&err, tr_wait(s, NULL));
    }
    return err;
}

/* ---- allgather ---- */

/* MPICH's choice for Allgather (MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE 81920 and
 * _LONG_MSG_SIZE 524288 bytes of the whole result): recursive doubling for a power of
 * two below the long size, Bruck below the short size, else the ring */
enum { AG_SHORT = 81920, AG_LONG = 524288 };

static int
allgather_recursive_doubling(const CollGroup *cg, int tag, unsigned char *rbuf,
                             size_t blk)
{
    int n = cg->size, me = cg->me, err = 0;
    for (int mask = 1; mask < n; mask <<= 1) {
        int dst = me ^ mask;
        int mine = me & ~(mask - 1), theirs = dst & ~(mask - 1);
        xsendrecv(cg, rbuf + blk * (size_t)mine, blk * (size_t)mask, dst,
                  rbuf + blk * (size_t)theirs, blk * (size_t)mask, dst, tag, &err);
    }
    return err;
}

static int
allgather_bruck(const CollGroup *cg, int tag, unsigned char *rbuf, size_t blk)
{
    int n = cg->size, me = cg->me, pof2 = 1, err = 0;
    unsigned char *tmp = tr_tmp_alloc(blk * (size_t)n);
    if (blk)
        memcpy(tmp, rbuf + blk * (size_t)me, blk);
    for (; pof2 <= n / 2; pof2 <<= 1)
        xsendrecv(cg, tmp, blk * (size_t)pof2, (me - pof2 + n) % n,
                  tmp + blk * (size_t)pof2, blk * (size_t)pof2, (me + pof2) % n, tag,
                  &err);
    if (n - pof2 > 0)
        xsendrecv(cg, tmp, blk * (size_t)(n - pof2), (me - pof2 + n) % n,
                  tmp + blk * (size_t)pof2, blk * (size_t)(n - pof2), (me + pof2) % n,
                  tag, &err);
    for (int i = 0; i < n && blk; i++)
        memcpy(rbuf + blk * (size_t)((me + i) % n), tmp + blk * (size_t)i, blk);
    tr_tmp_free(tmp);
    return err;
}

static int
allgather_ring(const CollGroup *cg, int tag, unsigned char *rbuf, size_t blk)
{
    int n = cg->size, me = cg->me, left = (me - 1 + n) % n, right = (me + 1) % n;
    int j = me, jnext = left, err = 0;
    for (int i = 1; i < n; i++) {
        xsendrecv(cg, rbuf + blk * (size_t)j, blk, right, rbuf + blk * (size_t)jnext, blk,
                  left, tag, &err);
        j = jnext;
        jnext = (jnext - 1 + n) % n;
    }
    return err;
}

int
coll_allgather(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, size_t blk)
{
    if (in_switch(cg))
        return tr_coll_switch(CO_ALLGATHER, cg->sw, cg->base, cg->size, 0, sbuf, rbuf,
                              blk, MPIRIO_BYTE, 0);
    unsigned char *r = rbuf;
    size_t total = blk * (size_t)cg->size;
    if (blk)
        memmove(r + blk * (size_t)cg->me, sbuf, blk);
    if (cg->size == 1)
        return MPIRIO_SUCCESS;
    if (total < AG_LONG && is_pof2(cg->size))
        return allgather_recursive_doubling(cg, tag, r, blk);
    if (total < AG_SHORT)
        return allgather_bruck(cg, tag, r, blk);
    return allgather_ring(cg, tag, r, blk);
}

/* ---- allreduce ---- */

/* MPICH's Allreduce: the ranks beyond the largest power of two fold into their
 * neighbours, then recursive doubling for vectors up to
 * MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE (2048 bytes), with fewer elements than the
 * power of two or of a noncommutative operator, else Rabenseifner's reduce-scatter
 * (recursive halving) and allgather (recursive doubling); the folded ranks get the
 * result back */
enum { AR_SHORT = 2048 };

static int
ar_real(int newrank, int rem)
{
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

static void
allreduce_rabenseifner(const CollGroup *cg, int tag, unsigned char *acc,
                       unsigned char *tmp, int count, const CollOp *o, int newrank,
                       int pof2, int rem, int *errp)
{
    size_t esz = o->esz;
    int err = *errp;
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
        xsendrecv(cg, acc + esz * (size_t)disps[send_idx], esz * (size_t)scnt, dst,
                  tmp + esz * (size_t)disps[recv_idx], esz * (size_t)rcnt, dst, tag,
                  &err);
        o->fn(o, tmp + esz * (size_t)disps[recv_idx], acc + esz * (size_t)disps[recv_idx],
              rcnt);
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
        xsendrecv(cg, acc + esz * (size_t)disps[send_idx], esz * (size_t)scnt, dst,
                  acc + esz * (size_t)disps[recv_idx], esz * (size_t)rcnt, dst, tag,
                  &err);
        if (newrank > newdst)
            send_idx = recv_idx;
    }
    tr_tmp_free(cnts);
    *errp = err;
}

int
coll_allreduce(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, int count,
               const CollOp *o)
{
    size_t bytes = (size_t)count * o->esz;
    if (in_switch(cg) && switch_op(o))
        return tr_coll_switch(CO_ALLREDUCE, cg->sw, cg->base, cg->size, 0, sbuf, rbuf,
                              bytes, o->type, o->op);
    int n = cg->size, me = cg->me, pof2 = 1, err = 0;
    unsigned char *acc = rbuf, *tmp = tr_tmp_alloc(bytes);
    if (bytes)
        memmove(acc, sbuf, bytes);
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2, newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            xsend(cg, acc, bytes, me + 1, tag, &err);
            newrank = -1;
        } else {
            xrecv(cg, tmp, bytes, me - 1, tag, &err);
            o->fn(o, tmp, acc, count); /* the lower rank's first */
            newrank = me / 2;
        }
    } else
        newrank = me - rem;
    if (newrank >= 0) {
        if (bytes <= AR_SHORT || count < pof2 || !o->commute)
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int dst = ar_real(newrank ^ mask, rem);
                xsendrecv(cg, acc, bytes, dst, tmp, bytes, dst, tag, &err);
                if (o->commute || dst < me)
                    o->fn(o, tmp, acc, count);
                else {
                    o->fn(o, acc, tmp, count);
                    if (bytes)
                        memcpy(acc, tmp, bytes);
                }
            }
        else
            allreduce_rabenseifner(cg, tag, acc, tmp, count, o, newrank, pof2, rem, &err);
    }
    if (me < 2 * rem) {
        if (me % 2)
            xsend(cg, acc, bytes, me - 1, tag, &err);
        else
            xrecv(cg, acc, bytes, me + 1, tag, &err);
    }
    tr_tmp_free(tmp);
    return err;
}

/* ---- alltoall ---- */

/* MPICH's Alltoall (both families: a switch has nothing to combine): Bruck for blocks
 * of at most MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE (256 bytes) on 8 or more ranks, all
 * receives and sends posted at once in groups of MPIR_CVAR_ALLTOALL_THROTTLE (32) up
 * to _MEDIUM_MSG_SIZE (32768 bytes), else the pairwise exchange */
enum { A2A_SHORT = 256, A2A_MEDIUM = 32768, A2A_THROTTLE = 32 };

static int
alltoall_bruck(const CollGroup *cg, int tag, const unsigned char *s, unsigned char *r,
               size_t blk)
{
    int n = cg->size, me = cg->me, err = 0;
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
        xsendrecv(cg, pk, blk * k, (me + pof2) % n, in, blk * k, (me - pof2 + n) % n, tag,
                  &err);
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
    return err;
}

static int
alltoall_scattered(const CollGroup *cg, int tag, const unsigned char *s, unsigned char *r,
                   size_t blk)
{
    int n = cg->size, me = cg->me, err = 0;
    Req *rq[2 * A2A_THROTTLE];
    MPIRIO_Status st;
    for (int ii = 0; ii < n; ii += A2A_THROTTLE) {
        int ss = n - ii < A2A_THROTTLE ? n - ii : A2A_THROTTLE;
        for (int i = 0; i < ss; i++) {
            int src = (me + i + ii) % n;
            tr_irecv(r + blk * (size_t)src, blk, member(cg, src), cg->ctx, tag, 0,
                     &rq[i]);
        }
        for (int i = 0; i < ss; i++) {
            int dst = (me - i - ii + 2 * n) % n;
            isend_err(cg, s + blk * (size_t)dst, blk, dst, tag, &err, &rq[ss + i]);
        }
        for (int i = 0; i < ss; i++)
            keep(&err, check_len(tr_wait(rq[i], &st), &st,
                                 r + blk * (size_t)((me + i + ii) % n), blk));
        for (int i = ss; i < 2 * ss; i++)
            keep(&err, tr_wait(rq[i], NULL));
    }
    return err;
}

static int
alltoall_pairwise(const CollGroup *cg, int tag, const unsigned char *s, unsigned char *r,
                  size_t blk)
{
    int n = cg->size, me = cg->me, err = 0;
    if (blk)
        memcpy(r + blk * (size_t)me, s + blk * (size_t)me, blk);
    for (int i = 1; i < n; i++) {
        int src, dst;
        if (is_pof2(n))
            src = dst = me ^ i;
        else
            src = (me - i + n) % n, dst = (me + i) % n;
        xsendrecv(cg, s + blk * (size_t)dst, blk, dst, r + blk * (size_t)src, blk, src,
                  tag, &err);
    }
    return err;
}

int
coll_alltoall(const CollGroup *cg, int tag, const void *sbuf, void *rbuf, size_t blk)
{
    if (blk <= A2A_SHORT && cg->size >= 8)
        return alltoall_bruck(cg, tag, sbuf, rbuf, blk);
    if (blk <= A2A_MEDIUM)
        return alltoall_scattered(cg, tag, sbuf, rbuf, blk);
    return alltoall_pairwise(cg, tag, sbuf, rbuf, blk);
}
