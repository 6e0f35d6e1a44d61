/* sim_p2p.c: point-to-point on the simulated platform (docs/design.md section 3).
 *
 * Isend: the DSP is busy send_overhead, then the send is issued: the envelope goes
 * to the receiver, which matches it against its expected (posted) queue in post
 * order, or keeps it in its unexpected queue in issue order. Rendezvous: the data
 * starts to move at max(issue, post) + handshake, i.e. when both sides are known
 * plus the handshake. Messages of at most eager_limit bytes move at issue and wait
 * in the unexpected queue if nobody has posted. A send request completes when the
 * data has fully arrived; a receive request then too. Blocking Recv: posted at the
 * call, then recv_overhead after the arrival. Irecv: post_overhead, posted when it
 * returns; Wait on it: wait_overhead after the arrival (a DSP that comes late
 * pays only the overhead). The payload is copied at the Isend, so a sender may
 * return before the receiver has the data; the issue and the post are events at
 * the DSP's clock. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

static int
matches(const Msg *m, int src, int ctx, int tag)
{
    return m->ctx == ctx && (src < 0 || src == m->src) && (tag < 0 || tag == m->tag);
}

/* requests are on a list so that a run can free those its DSPs never waited for */
static Req *
req_new(Dsp *owner)
{
    Req *r = k_zalloc(sizeof *r);
    r->owner = owner;
    r->all_next = K->reqs;
    if (K->reqs)
        K->reqs->all_prev = r;
    K->reqs = r;
    return r;
}

static void
req_free(Req *r)
{
    if (r->all_prev)
        r->all_prev->all_next = r->all_next;
    else
        K->reqs = r->all_next;
    if (r->all_next)
        r->all_next->all_prev = r->all_prev;
    k_dealloc(r);
}

static void
req_complete(Req *r)
{
    r->done = 1;
    Dsp *d = r->owner;
    if (d->waiting == r) {
        d->waiting = NULL;
        k_release(d);
    }
}

/* the data of m is in r's buffer */
static void
deliver(Msg *m, Req *r)
{
    size_t n = m->bytes;
    r->st.source = m->srank;
    r->st.tag = m->tag;
    r->st.error = MPIRIO_SUCCESS;
    if (n > r->cap) {
        n = r->cap;
        r->st.error = MPIRIO_ERR_TRUNCATE;
    }
    if (n)
        memcpy(r->buf, m->data, n);
    r->st.count = (int)n;
    req_complete(r);
}

/* both ends are known: rendezvous data starts after the handshake */
static void
matched(Msg *m, Req *r)
{
    m->rreq = r;
    m->matched = 1;
    r->msg = m;
    if (m->eager) {
        if (m->arrived) {
            deliver(m, r);
            net_msg_free(m);
        }
        return;
    }
    net_send_at(m, K->now + K->plat.handshake);
}

/* the fabric's call: the last packet of m is in */
static void
msg_arrived(Msg *m, int node)
{
    m->arrived = 1;
    if (m->sreq)
        req_complete(m->sreq);
    m->sreq = NULL;
    if (m->rreq) {
        deliver(m, m->rreq);
        net_msg_free(m);
    }
}

/* the envelope reaches the receiver, which matches it or keeps it */
static void
issue(void *mp)
{
    Msg *m = mp;
    Dsp *rd = &K->dsps[m->dst];
    Req *prev = NULL, *r = rd->posted;
    for (; r; prev = r, r = r->next)
        if (r->ctx == m->ctx && (r->src < 0 || r->src == m->src) &&
            (r->tag < 0 || r->tag == m->tag))
            break;
    if (r) {
        if (prev)
            prev->next = r->next;
        else
            rd->posted = r->next;
        if (rd->posted_tail == r)
            rd->posted_tail = prev;
        if (m->eager)
            net_send(m);
        matched(m, r);
    } else {
        if (rd->unexp_tail)
            rd->unexp_tail->next = m;
        else
            rd->unexp = m;
        rd->unexp_tail = m;
        if (m->eager)
            net_send(m);
    }
}

int
tr_isend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank, Req **out)
{
    Dsp *d = k_self();
    k_sleep(d, K->plat.send_overhead, "send");
    Msg *m = net_msg_new();
    Req *s = req_new(d);
    if (bytes) {
        m->data = k_alloc(bytes);
        memcpy(m->data, buf, bytes);
    }
    m->id = ++K->msg_seq;
    m->src = d->rank;
    m->dst = dst;
    m->ctx = ctx;
    m->tag = tag;
    m->srank = srank;
    m->bytes = bytes;
    m->prio = d->prio;
    m->issued = d->clock; /* the issue event's time */
    m->src_seq = d->nsent++;
    m->eager = (long long)bytes <= K->plat.eager_limit;
    m->sreq = s;
    m->on_arrive = msg_arrived;
    s->kind = 0;
    s->owner = d;
    s->ctx = ctx;
    s->tag = tag;
    s->src = dst;
    k_push(d->clock, 0, issue, m);
    *out = s;
    return MPIRIO_SUCCESS;
}

/* the receive looks in the unexpected queue, or waits in the expected one */
static void
post(void *rp)
{
    Req *r = rp;
    Dsp *d = r->owner;
    Msg *prev = NULL, *m = d->unexp;
    for (; m; prev = m, m = m->next)
        if (matches(m, r->src, r->ctx, r->tag))
            break;
    if (m) {
        if (prev)
            prev->next = m->next;
        else
            d->unexp = m->next;
        if (d->unexp_tail == m)
            d->unexp_tail = prev;
        m->next = NULL;
        matched(m, r);
        return;
    }
    if (d->posted_tail)
        d->posted_tail->next = r;
    else
        d->posted = r;
    d->posted_tail = r;
}

int
tr_irecv(void *buf, size_t cap, int src, int ctx, int tag, int blocking, Req **out)
{
    Dsp *d = k_self();
    if (!blocking)
        k_sleep(d, K->plat.post_overhead, "post");
    Req *r = req_new(d);
    r->kind = 1;
    r->blocking = blocking;
    r->owner = d;
    r->buf = buf;
    r->cap = cap;
    r->src = src;
    r->ctx = ctx;
    r->tag = tag;
    *out = r;
    k_push(d->clock, 0, post, r);
    return MPIRIO_SUCCESS;
}

static const char *
ctx_name(int ctx, char *buf, size_t n)
{
    int c = ctx & 0xffff;
    const char *kind = ctx & 0x10000 ? " (collective)" : "";
    if (c == 0)
        snprintf(buf, n, "MPIRIO_COMM_WORLD%s", kind);
    else
        snprintf(buf, n, "MPIRIO_COMM_LOCAL of board %d%s", c - 1, kind);
    return buf;
}

static void
describe(const Dsp *d, char *buf, size_t n)
{
    const Req *r = d->waiting;
    char cn[64];
    ctx_name(r->ctx, cn, sizeof cn);
    if (r->kind == 0) {
        snprintf(buf, n, "waiting for its send to rank %d (tag %d, %s) to be received",
                 r->src, r->tag, cn);
    } else if (r->msg) {
        snprintf(buf, n,
                 "waiting for the data of a matched message from rank %d (tag %d, %s)",
                 r->msg->src, r->msg->tag, cn);
    } else {
        char s[32], t[32];
        if (r->src < 0)
            snprintf(s, sizeof s, "any rank");
        else
            snprintf(s, sizeof s, "rank %d", r->src);
        if (r->tag < 0)
            snprintf(t, sizeof t, "any tag");
        else
            snprintf(t, sizeof t, "tag %d", r->tag);
        snprintf(buf, n, "waiting for a message from %s (%s, %s)", s, t, cn);
    }
}

int
tr_wait(Req *r, MPIRIO_Status *st)
{
    Dsp *d = k_self();
    Cycles after = r->kind == 0  ? 0
                   : r->blocking ? K->plat.recv_overhead
                                 : K->plat.wait_overhead;
    const char *what = r->blocking ? "recv" : "wait";
    if (!r->done) {
        d->describe = describe;
        d->waiting = r;
        k_wait_busy(d, after, what);
    } else
        k_sleep(d, after, what);
    int err = r->kind == 1 ? r->st.error : MPIRIO_SUCCESS;
    if (st && r->kind == 1)
        *st = r->st;
    req_free(r);
    return err;
}

int
tr_test(Req *r, int *flag, MPIRIO_Status *st)
{
    Dsp *d = k_self();
    k_sync(d);
    if (!r->done) {
        /* an unsuccessful poll of the DMA status */
        Cycles c = K->plat.wait_overhead / 10;
        k_sleep(d, c > 0 ? c : 1, "test");
        *flag = 0;
        return MPIRIO_SUCCESS;
    }
    *flag = 1;
    return tr_wait(r, st);
}

void
p2p_free_all(void)
{
    for (int i = 0; i < K->ndsps; i++) {
        Dsp *d = &K->dsps[i];
        for (Msg *m = d->unexp; m;) {
            Msg *nx = m->next;
            net_msg_free(m);
            m = nx;
        }
        d->unexp = NULL;
    }
    while (K->reqs)
        req_free(K->reqs);
}
