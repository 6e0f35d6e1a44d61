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
matches(const Msg *m, int src, int ctx, int tag, int lane)
{
    return m->ctx == ctx && m->lane == lane && (src < 0 || src == m->src) &&
           (tag < 0 || tag == m->tag);
}

/* requests are on a list so that a run can free those its DSPs never waited for */
static Req *
req_new(Dsp *owner)
{
    Req *r = k_zalloc(sizeof *r);
    r->owner = owner;
    r->lane = owner->lane;
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
    if (d->waiting == r || d->wait_any) {
        d->waiting = NULL;
        d->wait_any = 0;
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
    r->msg_id = m->id;
    r->msg_src = m->src;
    r->st.error = MPIRIO_SUCCESS;
    if (n > r->cap) {
        n = r->cap;
        r->st.error = MPIRIO_ERR_TRUNCATE;
    }
    if (n)
        memcpy(r->buf, m->data, n);
    r->st.count = (long long)n;
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
    if (m->cancelled) { /* nobody wants its data any more */
        net_msg_free(m);
        return;
    }
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
    if (m->cancelled) { /* before it was issued */
        net_msg_free(m);
        return;
    }
    m->queued = 1;
    Dsp *rd = &K->dsps[m->dst];
    Req *prev = NULL, *r = rd->posted;
    for (; r; prev = r, r = r->next)
        if (matches(m, r->src, r->ctx, r->tag, r->lane))
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
        if (rd->probing &&
            matches(m, rd->probe_src, rd->probe_ctx, rd->probe_tag, rd->prober->lane)) {
            rd->probing = 0;
            k_release(rd->prober);
        }
    }
}

/* The span of a send or of a receive's completion in the trace, with the message's size,
 * peer, tag and id (and the DSP's iteration) in its args, and the end of the message's
 * flow arrow (end 0 at the send, 1 at the receive) in its middle. */
static void
trace_p2p(const Dsp *d, const char *what, Cycles t0, Cycles t1, unsigned long long id,
          int peer, int tag, size_t bytes, int end)
{
    char args[160], it[48];
    const char *i = k_trace_args(d, it, sizeof it);
    snprintf(args, sizeof args, "\"bytes\":%zu,\"peer\":%d,\"tag\":%d,\"msg\":%llu%s%s",
             bytes, peer, tag, id, i ? "," : "", i ? i : "");
    trace_span(0, d->tid, what, t0, t1, "busy", args);
    trace_flow(end, id, d->tid, t0 + (t1 - t0) / 2);
}

static int
isend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank, int sync,
      Req **out)
{
    Dsp *d = k_self();
    d->polling = 0;
    Cycles t0 = d->clock; /* the send's span, traced once its message has an id */
    k_sleep(d, K->plat.send_overhead, NULL);
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
    m->lane = d->lane;
    m->prio = d->home->prio;
    m->issued = d->clock; /* the issue event's time */
    m->src_seq = d->home->nsent++;
    /* a synchronous send is never eager: its data moves (and it completes) only once
     * the receiver has matched it */
    m->eager = !sync && (long long)bytes <= K->plat.eager_limit;
    m->sreq = s;
    m->on_arrive = msg_arrived;
    s->msg = m;
    s->kind = 0;
    s->owner = d;
    s->ctx = ctx;
    s->tag = tag;
    s->src = dst;
    k_push(d->clock, 0, issue, m);
    if (trace_active)
        trace_p2p(d, "send", t0, d->clock, m->id, dst, tag, bytes, 0);
    *out = s;
    return MPIRIO_SUCCESS;
}

int
tr_isend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank, Req **out)
{
    return isend(buf, bytes, dst, ctx, tag, srank, 0, out);
}

int
tr_issend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank, Req **out)
{
    return isend(buf, bytes, dst, ctx, tag, srank, 1, out);
}

/* the receive looks in the unexpected queue, or waits in the expected one */
static void
post(void *rp)
{
    Req *r = rp;
    if (r->dropped) { /* cancelled before it was posted */
        req_free(r);
        return;
    }
    r->posted = 1;
    Dsp *d = r->owner->home;
    Msg *prev = NULL, *m = d->unexp;
    for (; m; prev = m, m = m->next)
        if (matches(m, r->src, r->ctx, r->tag, r->lane))
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
    d->polling = 0;
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
    if (ctx >= 0x20000) {
        /* the contexts of communicators made by the MPI API: pairs from 0x20000 */
        snprintf(buf, n, "communicator context %d%s", ctx & ~1,
                 ctx & 1 ? " (collective)" : "");
        return buf;
    }
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
    if (r->kind == 2) {
        snprintf(buf, n, "waiting for its %s to complete",
                 r->agent && r->agent->call ? r->agent->call : "nonblocking operation");
    } else if (r->kind == 0) {
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

/* A livelock: every live DSP polls (MPI_Test, MPI_Iprobe) or is blocked, and no event
 * is pending but the pollers' own wake-ups, so no poll can ever succeed. After
 * LIVELOCK_POLLS such polls in a row each poller blocks for good where it polls,
 * and the kernel reports the deadlock as any other (a program that polls a bounded
 * number of times and then does something else is not one: a million polls with
 * nothing in flight are). */
enum { LIVELOCK_POLLS = 1000000 };
static long long quiet_polls;
static const Kernel *quiet_run;

static int
quiet(const Dsp *self)
{
    if (K->ready)
        return 0;
    size_t pollers = 0;
    for (int i = 0; i < K->ndsps; i++) {
        const Dsp *o = &K->dsps[i];
        if (o == self || o->state == DS_DONE || o->state == DS_BLOCKED)
            continue;
        if (o->state != DS_BUSY || !o->polling)
            return 0;
        pollers++;
    }
    return k_q.nwheel + k_q.nfar == pollers;
}

/* d's poll failed: 1 if d must block for good (a livelock) */
static int
poll_failed(Dsp *d)
{
    d->polling = 1;
    if (quiet_run != K) {
        quiet_run = K;
        quiet_polls = 0;
    }
    if (!quiet(d)) {
        quiet_polls = 0;
        return 0;
    }
    return ++quiet_polls >= LIVELOCK_POLLS;
}

int
tr_wait(Req *r, MPIRIO_Status *st)
{
    Dsp *d = k_self();
    d->polling = 0;
    Cycles after = r->kind == 0  ? 0
                   : r->blocking ? K->plat.recv_overhead
                                 : K->plat.wait_overhead;
    const char *what = r->blocking ? "recv" : "wait";
    /* a receive's span is traced here, with its message */
    const char *span = r->kind == 1 ? NULL : what;
    if (!r->done) {
        d->describe = describe;
        d->waiting = r;
        k_wait_busy(d, after, span);
    } else
        k_sleep(d, after, span);
    if (r->kind == 1 && trace_active && after > 0) {
        if (r->msg_id)
            trace_p2p(d, what, d->clock - after, d->clock, r->msg_id, r->msg_src,
                      r->st.tag, (size_t)r->st.count, 1);
        else
            trace_span(0, d->tid, what, d->clock - after, d->clock, "busy", NULL);
    }
    int err = r->kind != 0 ? r->st.error : MPIRIO_SUCCESS;
    if (st && r->kind != 0)
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
        if (poll_failed(d)) {
            d->describe = describe;
            d->waiting = r;
            k_wait_busy(d, 0, "test"); /* never released: the run ends in a deadlock */
        }
        /* an unsuccessful poll of the DMA status */
        Cycles c = K->plat.wait_overhead / 10;
        k_sleep(d, c > 0 ? c : 1, "test");
        *flag = 0;
        return MPIRIO_SUCCESS;
    }
    *flag = 1;
    return tr_wait(r, st);
}

static void
describe_probe(const Dsp *e, char *buf, size_t n)
{
    const Dsp *d = e->home;
    char cn[64], s[32], t[32];
    ctx_name(d->probe_ctx, cn, sizeof cn);
    if (d->probe_src < 0)
        snprintf(s, sizeof s, "any rank");
    else
        snprintf(s, sizeof s, "rank %d", d->probe_src);
    if (d->probe_tag < 0)
        snprintf(t, sizeof t, "any tag");
    else
        snprintf(t, sizeof t, "tag %d", d->probe_tag);
    snprintf(buf, n, "probing for a message from %s (%s, %s)", s, t, cn);
}

static void
describe_any(const Dsp *d, char *buf, size_t n)
{
    snprintf(buf, n, "waiting for any of its requests to complete");
}

int
tr_waitany(int n, Req **rs)
{
    Dsp *d = k_self();
    k_sync(d);
    for (;;) {
        for (int i = 0; i < n; i++)
            if (rs[i] && rs[i]->done)
                return i;
        d->describe = describe_any;
        d->wait_any = 1;
        k_wait_busy(d, 0, "wait");
    }
}

/* in the queue of e's DSP, a message of e's lane */
static Msg *
find_unexp(const Dsp *e, int src, int ctx, int tag)
{
    for (Msg *m = e->home->unexp; m; m = m->next)
        if (matches(m, src, ctx, tag, e->lane))
            return m;
    return NULL;
}

/* e blocks until a matching envelope reaches its DSP's queue (issue) */
static void
probe_block(Dsp *e, int src, int ctx, int tag)
{
    Dsp *d = e->home;
    d->probing = 1; /* never matched: the run ends in a deadlock */
    d->prober = e;
    d->probe_src = src, d->probe_ctx = ctx, d->probe_tag = tag;
    e->describe = describe_probe;
    k_wait_busy(e, 0, "probe");
}

static void
probe_status(const Msg *m, MPIRIO_Status *st)
{
    st->source = m->srank;
    st->tag = m->tag;
    st->error = MPIRIO_SUCCESS;
    st->count = (long long)m->bytes;
}

int
tr_iprobe(int src, int ctx, int tag, int *flag, MPIRIO_Status *st)
{
    Dsp *d = k_self();
    k_sync(d);
    Msg *m = find_unexp(d, src, ctx, tag);
    if (!m && poll_failed(d))
        probe_block(d, src, ctx, tag);
    /* a poll of the DMA status, as tr_test's */
    Cycles c = K->plat.wait_overhead / 10;
    k_sleep(d, c > 0 ? c : 1, "probe");
    *flag = m != NULL;
    if (m)
        probe_status(m, st);
    return MPIRIO_SUCCESS;
}

int
tr_probe(int src, int ctx, int tag, MPIRIO_Status *st)
{
    Dsp *d = k_self();
    k_sync(d);
    Msg *m;
    while (!(m = find_unexp(d, src, ctx, tag)))
        probe_block(d, src, ctx, tag);
    Cycles c = K->plat.wait_overhead / 10;
    k_sleep(d, c > 0 ? c : 1, "probe");
    probe_status(m, st);
    return MPIRIO_SUCCESS;
}

/* takes m out of d's unexpected queue */
static void
unexp_remove(Dsp *d, Msg *m)
{
    Msg *prev = NULL, *q = d->unexp;
    for (; q && q != m; prev = q, q = q->next)
        ;
    if (!q)
        return;
    if (prev)
        prev->next = m->next;
    else
        d->unexp = m->next;
    if (d->unexp_tail == m)
        d->unexp_tail = prev;
    m->next = NULL;
}

int
tr_improbe(int src, int ctx, int tag, int blocking, int *flag, void **msg,
           MPIRIO_Status *st)
{
    Dsp *d = k_self();
    int f = 0;
    if (blocking)
        tr_probe(src, ctx, tag, st), f = 1;
    else
        tr_iprobe(src, ctx, tag, &f, st);
    *flag = f;
    *msg = NULL;
    if (!f)
        return MPIRIO_SUCCESS;
    Msg *m = find_unexp(d, src, ctx, tag);
    unexp_remove(d->home, m);
    *msg = m;
    return MPIRIO_SUCCESS;
}

int
tr_imrecv(void *msg, void *buf, size_t cap, Req **out)
{
    Dsp *d = k_self();
    d->polling = 0;
    k_sleep(d, K->plat.post_overhead, "post");
    k_sync(d);
    Req *r = req_new(d);
    r->kind = 1;
    r->owner = d;
    r->buf = buf;
    r->cap = cap;
    Msg *m = msg;
    r->src = m->src, r->ctx = m->ctx, r->tag = m->tag;
    *out = r;
    matched(m, r);
    return MPIRIO_SUCCESS;
}

/* a send that no receive has matched: its message leaves the receiver's unexpected
 * queue (eager data still on the way is dropped when it is in) */
static int
cancel_send(Req *r)
{
    Msg *m = r->msg;
    if (!m->queued) { /* its issue event is still to come (at this very cycle) */
        m->cancelled = 1;
        m->sreq = NULL;
        req_free(r);
        return 1;
    }
    Dsp *rd = &K->dsps[m->dst];
    Msg *q = rd->unexp;
    for (; q && q != m; q = q->next)
        ;
    if (m->matched || !q) /* matched, or taken by a matched probe */
        return 0;
    unexp_remove(rd, m);
    m->sreq = NULL;
    if (m->eager && !m->arrived)
        m->cancelled = 1;
    else
        net_msg_free(m);
    req_free(r);
    return 1;
}

int
tr_cancel(Req *r)
{
    Dsp *d = k_self();
    k_sync(d); /* the post and the issue are events at the DSP's clock */
    if (r->done)
        return 0;
    if (r->kind == 0)
        return cancel_send(r);
    if (r->msg)
        return 0;
    if (!r->posted) { /* its post event is still to come (at this very cycle) */
        r->dropped = 1;
        return 1;
    }
    Dsp *h = d->home;
    Req *prev = NULL, *q = h->posted;
    for (; q && q != r; prev = q, q = q->next)
        ;
    if (!q)
        return 0;
    if (prev)
        prev->next = r->next;
    else
        h->posted = r->next;
    if (h->posted_tail == r)
        h->posted_tail = prev;
    req_free(r);
    return 1;
}

/* ---- agents: operations in progress (tr_spawn) ---- */

typedef struct Work {
    Req *r;
    int (*fn)(void *);
    void *arg;
} Work;

static void
agent_work(void *p)
{
    Work w = *(Work *)p;
    k_dealloc(p);
    Dsp *a = k_self();
    w.r->agent = a;
    int e = w.fn(w.arg);
    /* it completes at the agent's time: the DSP that waits for it goes on then */
    k_sync(a);
    w.r->st.error = e;
    w.r->agent = NULL;
    req_complete(w.r);
}

int
tr_spawn(int lane, int (*fn)(void *), void *arg, Req **out)
{
    Dsp *d = k_self();
    d->polling = 0;
    k_sleep(d, K->plat.post_overhead, "post");
    Req *r = req_new(d);
    r->kind = 2;
    *out = r; /* before it runs: it may be done at once */
    Work *w = k_alloc(sizeof *w);
    w->r = r, w->fn = fn, w->arg = arg;
    k_agent(d, lane, agent_work, w);
    return MPIRIO_SUCCESS;
}

int
tr_agent(void)
{
    Dsp *d = k_self();
    return d && d != d->home;
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
