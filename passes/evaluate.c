/*
 * passes/evaluate.c - the execution model of DESIGN.md section 3 over all iterations,
 * with the contention-free fabric time of section 4.  The BFCO fitness, the local search
 * of the scheduler, pass_verify and the predicted times of the writers all come from
 * here.
 *
 * Requires: a schedule that passes ir_sched_verify (every message sent and received once,
 * on its own DSPs).  Invalidates nothing.
 *
 * The model is a max-plus system: every operation instance (DSP d, op k, iteration i)
 * starts at the maximum of the times it depends on and lasts a fixed number of cycles. We
 * compute it by running every DSP as far as it can go and parking it when it needs a
 * value that another DSP has not produced yet (a send not issued, a receive not posted);
 * the DSP that produces the value wakes it.  The order in which DSPs run does not change
 * any time, only when it is computed.  Nothing of a DSP is computed twice, so the cost is
 * linear in operations x iterations.
 *
 * Exact rules (the simulated runtime implements the same; see docs/evaluator.md):
 *  - transfer (m, i) is the data of m sent in iteration i, received in iteration i + lag,
 *    lag = 0 for a zero-delay message and 1 for every delay d >= 1 (the receiver keeps a
 *    ring of d buffers: the consumer of iteration j reads the value of j - d in place);
 *    sends of the last d iterations are skipped, and so are the receives of iteration 0
 *    (lag 1) and of iterations j > iterations - d (zero time); a message whose delay >=
 *    iterations is never sent nor received;
 *  - COMPUTE t: cycles(t), after every single-edge message m out of t has delivered
 *    (m, i - 1) (zero copy: the DMA reads t's output buffer);
 *  - SEND m: send_overhead (+ pack of an aggregated message, which first waits for the
 *    arrival of (m, i - 1)); at its end the transfer is issued;
 *  - depart = max(issue, post) + handshake, or issue when bytes <= eager_limit; arrival =
 *    depart + plat_fabric_time;
 *  - blocking RECV: posted when the DSP reaches it, waits for the arrival, recv_overhead
 *    (+ unpack);
 *  - pipelined RECV (never for eager messages): the prolog posts the first received
 *    transfer, post_overhead, at the start of the DSP (in the order of the RECV ops);
 *    at the slot: wait for the arrival, wait_overhead (+ unpack), then post the next
 *    transfer, post_overhead, unless it is never sent (x + 1 >= iterations - delay: the
 *    last receive); a post counts at the end of its overhead;
 *  - length = when the last DSP ends its last iteration.
 *
 * Memory: per-message values (issue and post times) live in rings of R iterations.  DSPs
 * are kept within W iterations of the slowest unfinished DSP (the window); R > W + 2
 * guarantees no value is overwritten before it is read (a value of transfer x is read in
 * iteration x + 1 at the latest), and since a blocked DSP never waits for a later
 * iteration of another DSP, any W >= 1 keeps a DSP parked by the window out of every
 * chain of waits of the slowest DSP, so "no DSP can move" is a real deadlock (see
 * docs/evaluator.md).  Neither depends on the delays.
 *
 * Long runs: the whole simulation state is sampled every 8 iterations of one DSP; once a
 * sample repeats (relative to the slowest iteration and the earliest time), whole periods
 * are skipped exactly and the last iterations are simulated as usual (find_period).
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { ST_RUN, ST_BLOCKED, ST_WINDOW, ST_DONE };

typedef struct COp { /* an operation compiled for the hot loop */
    OpKind kind;
    int ref;        /* task or message */
    int64_t cost;   /* COMPUTE: cycles; SEND: overhead + pack; RECV: see EMsg */
    int wbeg, wend; /* COMPUTE: zero-copy messages ev->zc[wbeg .. wend) */
} COp;

typedef struct EMsg {
    int src, dst, delay;
    int lag; /* transfer x is received in iteration x + lag: 0, or 1 if delay */
    int send_k, recv_k; /* positions of its SEND and RECV ops on their DSPs */
    bool live;          /* delay < iterations */
    bool eager, pipe, agg;
    int64_t hs, fabric;
    int64_t recv_cost; /* blocking: recv_overhead + unpack; pipelined: wait_overhead +
                          unpack */
    int64_t post_cost;
    int64_t nissue, npost; /* transfers issued / posted so far (in iteration order) */
    int64_t *issue, *post; /* rings of R entries */
} EMsg;

struct Evaluator {
    const Graph *g;
    int ndsps, maxops, maxmsgs;
    int nmsgs;            /* of the schedule being evaluated */
    int64_t mask, window; /* R - 1; W */
    COp *code;            /* [maxops] */
    int *code_off;        /* [ndsps + 1] */
    int *zc;              /* [maxmsgs] zero-copy message lists of the COMPUTE ops */
    int *zc_off;          /* [ntasks + 1] per task, during compilation */
    EMsg *msg;            /* [maxmsgs] */
    int64_t *ring;        /* [maxmsgs * 2 * R] */
    /* DSP state */
    int *k, *state, *queue;
    int64_t *it, *t, *busy, *compute;
    int nqueue;
    int64_t limit; /* no DSP starts an iteration >= limit */
    int64_t n;     /* iterations */
    /* recording (eval_run only) */
    EvalResult *rec;
    int64_t rec_first, rec_last;
    /* steady state (see find_period) */
    int md;                /* largest delay of the graph */
    int64_t *snap, *saved; /* [snapcap] the current and the saved snapshot */
    size_t snapcap, nsaved;
    int64_t saved_lo, saved_tb; /* base iteration and time of the saved snapshot */
    int64_t *saved_busy, *saved_compute; /* [ndsps] */
    int64_t power, lam;                  /* Brent's cycle detection */
    bool jumped;
    int probe;         /* the DSP whose iteration ends are sampled, or -1 */
    int nd;            /* DSPs of the schedule being evaluated */
    int64_t countdown; /* iteration ends of the probe until the next sample */
    int64_t skipped;   /* iterations skipped by the last evaluation */
};

static int64_t
ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

Evaluator *
eval_new(const Graph *g, const Platform *p)
{
    Evaluator *ev = ir_xcalloc(1, sizeof *ev);
    int md = 0;
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].delay > md)
            md = g->edges[e].delay;
    ev->g = g;
    ev->ndsps = p->ndsps;
    ev->maxops = g->ntasks + 2 * g->nedges;
    ev->maxmsgs = g->nedges;
    /* Every receive is at most one iteration after its send, whatever the delay. */
    int64_t w = 4;
    int64_t r = 16;
    while (r < w + 4)
        r *= 2;
    ev->window = w;
    ev->mask = r - 1;
    ev->md = md;
    /* limit, queue, 4 per DSP, per message 3 + at most 2 R ring values */
    ev->snapcap = 2 + 5 * (size_t)p->ndsps + (size_t)ev->maxmsgs * (3 + 2 * (size_t)r);
    ev->snap = ir_xcalloc(ev->snapcap, sizeof *ev->snap);
    ev->saved = ir_xcalloc(ev->snapcap, sizeof *ev->saved);
    ev->saved_busy = ir_xcalloc((size_t)p->ndsps, sizeof *ev->saved_busy);
    ev->saved_compute = ir_xcalloc((size_t)p->ndsps, sizeof *ev->saved_compute);
    size_t nd = (size_t)ev->ndsps;
    ev->code = ir_xcalloc((size_t)ev->maxops, sizeof *ev->code);
    ev->code_off = ir_xcalloc(nd + 1, sizeof *ev->code_off);
    ev->zc = ir_xcalloc((size_t)ev->maxmsgs, sizeof *ev->zc);
    ev->zc_off = ir_xcalloc((size_t)g->ntasks + 2, sizeof *ev->zc_off);
    ev->msg = ir_xcalloc((size_t)ev->maxmsgs, sizeof *ev->msg);
    ev->ring = ir_xcalloc((size_t)ev->maxmsgs * 2 * (size_t)r, sizeof *ev->ring);
    for (int m = 0; m < ev->maxmsgs; m++) {
        ev->msg[m].issue = ev->ring + (size_t)m * 2 * (size_t)r;
        ev->msg[m].post = ev->msg[m].issue + r;
    }
    ev->k = ir_xcalloc(nd, sizeof *ev->k);
    ev->state = ir_xcalloc(nd, sizeof *ev->state);
    ev->queue = ir_xcalloc(nd, sizeof *ev->queue);
    ev->it = ir_xcalloc(nd, sizeof *ev->it);
    ev->t = ir_xcalloc(nd, sizeof *ev->t);
    ev->busy = ir_xcalloc(nd, sizeof *ev->busy);
    ev->compute = ir_xcalloc(nd, sizeof *ev->compute);
    return ev;
}

void
eval_free(Evaluator *ev)
{
    if (!ev)
        return;
    free(ev->code);
    free(ev->code_off);
    free(ev->zc);
    free(ev->zc_off);
    free(ev->msg);
    free(ev->ring);
    free(ev->k);
    free(ev->state);
    free(ev->queue);
    free(ev->it);
    free(ev->t);
    free(ev->busy);
    free(ev->compute);
    free(ev->snap);
    free(ev->saved);
    free(ev->saved_busy);
    free(ev->saved_compute);
    free(ev);
}

/* Compiles the schedule into ev->code and ev->msg: everything that depends on the
 * schedule (merges, pipelined flags, op order) is recomputed here, in O(ops + messages +
 * tasks). */
static void
compile(Evaluator *ev, const Sched *s)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    int64_t n = g->iterations;
    if (s->ndsps > ev->ndsps || s->nmsgs > ev->maxmsgs)
        ice("schedule larger than its evaluator (%d DSPs, %d messages)", s->ndsps,
            s->nmsgs);
    ev->n = n;
    ev->nmsgs = s->nmsgs;
    memset(ev->zc_off, 0, ((size_t)g->ntasks + 2) * sizeof *ev->zc_off);
    for (int m = 0; m < s->nmsgs; m++) {
        const Msg *sm = &s->msgs[m];
        EMsg *em = &ev->msg[m];
        em->src = sm->src;
        em->dst = sm->dst;
        em->delay = sm->delay;
        em->lag = sm->delay > 0;
        em->live = sm->delay < n;
        em->agg = sm->nedges > 1;
        em->eager = sm->bytes <= p->eager_limit;
        em->pipe = sm->pipelined && !em->eager;
        em->hs = em->eager ? 0 : p->handshake;
        em->fabric = plat_fabric_time(p, sm->src, sm->dst, sm->bytes);
        int64_t unpack = em->agg ? ceil_div(sm->bytes, p->copy_bytes_per_cycle) : 0;
        em->recv_cost = (em->pipe ? p->wait_overhead : p->recv_overhead) + unpack;
        em->post_cost = p->post_overhead;
        em->send_k = em->recv_k = -1;
        if (em->live && !em->agg)
            ev->zc_off[g->edges[sm->edges[0]].from + 2]++;
    }
    for (int t = 0; t < g->ntasks; t++)
        ev->zc_off[t + 2] += ev->zc_off[t + 1];
    for (int m = 0; m < s->nmsgs; m++) {
        const EMsg *em = &ev->msg[m];
        if (em->live && !em->agg)
            ev->zc[ev->zc_off[g->edges[s->msgs[m].edges[0]].from + 1]++] = m;
    }
    /* now zc_off[t] .. zc_off[t + 1] is task t's list */
    int nc = 0;
    for (int d = 0; d < s->ndsps; d++) {
        ev->code_off[d] = nc;
        if (nc + s->nops[d] > ev->maxops)
            ice("schedule has more operations than its evaluator");
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            COp *c = &ev->code[nc++];
            c->kind = o.kind;
            c->ref = o.ref;
            c->wbeg = c->wend = 0;
            if (o.kind == OP_COMPUTE) {
                c->cost = ir_task_cycles(&g->tasks[o.ref], d);
                c->wbeg = ev->zc_off[o.ref];
                c->wend = ev->zc_off[o.ref + 1];
            } else if (o.kind == OP_SEND) {
                const Msg *sm = &s->msgs[o.ref];
                c->cost =
                    p->send_overhead +
                    (sm->nedges > 1 ? ceil_div(sm->bytes, p->copy_bytes_per_cycle) : 0);
                ev->msg[o.ref].send_k = k;
            } else {
                c->cost = ev->msg[o.ref].recv_cost;
                ev->msg[o.ref].recv_k = k;
            }
        }
    }
    for (int d = s->ndsps; d <= ev->ndsps; d++)
        ev->code_off[d] = nc;
}

/* Index of iteration i among the recorded ones, or -1. */
static int64_t
rec_index(const Evaluator *ev, int64_t i)
{
    if (i < ev->rec_first)
        return i;
    if (i >= ev->n - ev->rec_last)
        return ev->rec_first + (i - (ev->n - ev->rec_last));
    return -1;
}

static void
wake(Evaluator *ev, int d)
{
    if (ev->state[d] == ST_BLOCKED) {
        ev->state[d] = ST_RUN;
        ev->queue[ev->nqueue++] = d;
    }
}

/* Arrival of transfer (m, x); -1 when it cannot be known yet. */
static int64_t
arrival(const EMsg *em, int64_t x, int64_t mask)
{
    if (em->nissue <= x || (!em->eager && em->npost <= x))
        return -1;
    int64_t is = em->issue[x & mask], dep = is;
    if (!em->eager) {
        int64_t po = em->post[x & mask];
        dep = (is > po ? is : po) + em->hs;
    }
    return dep + em->fabric;
}

static void
record_op(Evaluator *ev, int d, int k, int64_t i, int64_t ready, int64_t start,
          int64_t end)
{
    int64_t r = rec_index(ev, i);
    if (r < 0)
        return;
    int nops = ev->code_off[d + 1] - ev->code_off[d];
    ev->rec->op_time[d][r * nops + k] = (OpTime){ready, start, end};
}

static void
record_msg(Evaluator *ev, int m, int64_t x, int64_t arrive)
{
    int64_t r = rec_index(ev, x);
    if (r < 0)
        return;
    const EMsg *em = &ev->msg[m];
    int64_t is = em->issue[x & ev->mask], po = em->post[x & ev->mask];
    MsgTime *mt = &ev->rec->msg_time[r * ev->nmsgs + m];
    mt->issue = is;
    mt->post = po;
    mt->arrive = arrive;
    mt->depart = arrive - em->fabric;
}

static bool find_period(Evaluator *ev, int nd, int64_t lo);

/* Runs DSP d until it finishes, blocks on another DSP or reaches the window. */
static void
run(Evaluator *ev, int d)
{
    const COp *code = ev->code + ev->code_off[d];
    int nops = ev->code_off[d + 1] - ev->code_off[d];
    int k = ev->k[d];
    int64_t i = ev->it[d], t = ev->t[d], n = ev->n, mask = ev->mask;
    int64_t busy = 0, comp = 0;
    int st = ST_RUN;
    for (;;) {
        if (k == nops) {
            k = 0;
            if (++i == n) {
                st = ST_DONE;
                break;
            }
            if (d == ev->probe && --ev->countdown == 0) {
                ev->countdown = 8;
                ev->k[d] = 0;
                ev->it[d] = i;
                ev->t[d] = t;
                ev->busy[d] += busy;
                ev->compute[d] += comp;
                busy = comp = 0;
                if (find_period(ev, ev->nd, i)) {
                    i = ev->it[d];
                    t = ev->t[d];
                }
                if (ev->jumped)
                    ev->probe = -1;
            }
        }
        if (k == 0 && i >= ev->limit) {
            st = ST_WINDOW;
            break;
        }
        const COp *c = &code[k];
        int64_t start = t;
        if (c->kind == OP_COMPUTE) {
            if (i > 0) {
                for (int w = c->wbeg; w < c->wend; w++) {
                    const EMsg *em = &ev->msg[ev->zc[w]];
                    if (i - 1 >= n - em->delay)
                        continue; /* (m, i - 1) is never sent */
                    int64_t a = arrival(em, i - 1, mask);
                    if (a < 0) {
                        st = ST_BLOCKED;
                        goto out;
                    }
                    if (a > start)
                        start = a;
                }
            }
            comp += c->cost;
        } else if (c->kind == OP_SEND) {
            EMsg *em = &ev->msg[c->ref];
            if (i >= n - em->delay) { /* the last `delay` sends are skipped */
                if (ev->rec)
                    record_op(ev, d, k, i, t, t, t);
                k++;
                continue;
            }
            if (em->agg && i > 0) { /* the pack buffer holds (m, i - 1) until it is out */
                int64_t a = arrival(em, i - 1, mask);
                if (a < 0) {
                    st = ST_BLOCKED;
                    goto out;
                }
                if (a > start)
                    start = a;
            }
            em->issue[i & mask] = start + c->cost;
            em->nissue = i + 1;
            wake(ev, em->dst);
        } else {
            EMsg *em = &ev->msg[c->ref];
            int64_t x = i - em->lag;
            if (x < 0 || x >= n - em->delay) { /* (m, x) never sent: receive skipped */
                if (ev->rec)
                    record_op(ev, d, k, i, t, t, t);
                k++;
                continue;
            }
            if (!em->pipe && em->npost == x) { /* a blocking receive posts when reached */
                em->post[x & mask] = t;
                em->npost = x + 1;
                wake(ev, em->src);
            }
            int64_t a = arrival(em, x, mask);
            if (a < 0) {
                st = ST_BLOCKED;
                goto out;
            }
            if (a > start)
                start = a;
            int64_t end = start + c->cost;
            if (em->pipe && x + 1 < n - em->delay) { /* post (m, x + 1), the next slot */
                end += em->post_cost;
                em->post[(x + 1) & mask] = end;
                em->npost = x + 2;
                wake(ev, em->src);
            }
            if (ev->rec) {
                record_msg(ev, c->ref, x, a);
                record_op(ev, d, k, i, t, start, end);
            }
            busy += end - start;
            t = end;
            k++;
            continue;
        }
        if (ev->rec)
            record_op(ev, d, k, i, t, start, start + c->cost);
        busy += c->cost;
        t = start + c->cost;
        k++;
    }
out:
    ev->k[d] = k;
    ev->it[d] = i;
    ev->t[d] = t;
    ev->busy[d] += busy;
    ev->compute[d] += comp;
    ev->state[d] = st;
}

/* --- steady state.  When the probe DSP ends an iteration, the snapshot below holds the
 * whole state of the simulation: the queue, each DSP's position, time and state, the
 * window, and per message its counters and every issue and post time that can still be
 * read (from transfer min(receiver - lag, sender - 1) on).  Written relative to the
 * slowest iteration lo and the earliest DSP time tb, the snapshot determines the rest of
 * the run: every rule is a max or a sum of these values and constants, and the only rules
 * that look at absolute iterations are those of the first two iterations (the skipped
 * receives of iteration 0, the prolog) and of the last `delay` + 1 (skipped sends and
 * receives, the last posts).  So when two snapshots away from both ends are equal, c =
 * lo2 - lo1 iterations later everything repeats shifted by Delta = tb2 - tb1 cycles, and
 * whole periods can be skipped, as long as no skipped period reaches the iterations near
 * the end (or recorded ones); those are then simulated as usual.  Exact, not an estimate.
 */

#define EMPTY(ev, d)                                                                     \
    ((ev)->code_off[(d) + 1] == (ev)->code_off[d]) /* a DSP without ops */

static int64_t
needed_from(const Evaluator *ev, const EMsg *em)
{
    int64_t a = ev->it[em->dst] - em->lag, b = ev->it[em->src] - 1;
    return a < b ? a : b;
}

static size_t
snapshot(Evaluator *ev, int nd, int64_t lo, int64_t tb)
{
    int64_t *o = ev->snap, mask = ev->mask;
    size_t z = 0;
    o[z++] = ev->limit - lo;
    o[z++] = ev->nqueue;
    for (int j = 0; j < ev->nqueue; j++)
        o[z++] = ev->queue[j];
    for (int d = 0; d < nd; d++) {
        if (EMPTY(ev, d))
            continue;
        o[z++] = ev->k[d];
        o[z++] = ev->it[d] - lo;
        o[z++] = ev->t[d] - tb;
        o[z++] = ev->state[d];
    }
    for (int m = 0; m < ev->nmsgs; m++) {
        const EMsg *em = &ev->msg[m];
        if (!em->live)
            continue;
        int64_t from = needed_from(ev, em);
        int64_t ni = em->nissue - from, np = em->npost - from;
        if (z + 3 + (size_t)(ni > 0 ? ni : 0) + (size_t)(np > 0 ? np : 0) > ev->snapcap)
            return 0; /* cannot happen in a valid schedule; 0 means "no snapshot" */
        o[z++] = em->nissue - lo;
        o[z++] = em->npost - lo;
        o[z++] = from - lo;
        for (int64_t x = from; x < em->nissue; x++)
            o[z++] = em->issue[x & mask] - tb;
        for (int64_t x = from; x < em->npost; x++)
            o[z++] = em->post[x & mask] - tb;
    }
    return z;
}

/* Called at every 8th end of an iteration of the probe DSP, which is running (its state
 * flushed to ev).  Returns true after skipping periods. */
static bool
find_period(Evaluator *ev, int nd, int64_t lo)
{
    int64_t n = ev->n, tb = -1;
    for (int d = 0; d < nd; d++)
        if (ev->state[d] != ST_DONE && ev->it[d] < lo)
            lo = ev->it[d];
    /* far enough from the start (the skipped receives of iteration 0, the prolog,
     * recorded iterations) */
    if (lo < ev->rec_first + (ev->md > 0) + 2 || lo < 2)
        return false;
    for (int d = 0; d < nd; d++) {
        if (EMPTY(ev, d))
            continue;
        if (ev->state[d] == ST_DONE)
            return false;
        if (tb < 0 || ev->t[d] < tb)
            tb = ev->t[d];
    }
    size_t z = snapshot(ev, nd, lo, tb);
    if (z == 0) {
        ev->jumped = true; /* give up: simulate to the end */
        return false;
    }
    if (ev->nsaved == z && memcmp(ev->snap, ev->saved, z * sizeof *ev->snap) == 0) {
        ev->jumped = true; /* one attempt: the rest is simulated */
        int64_t c = lo - ev->saved_lo, delta = tb - ev->saved_tb;
        /* The window only grows, by c per period: the k skipped periods run iterations
         * below ev->limit + k * c, which must stay clear of the last md + 1 iterations
         * and of the recorded last ones. */
        int64_t clear = n - ev->rec_last - ev->md - 2;
        if (c <= 0 || ev->limit + c > clear)
            return false;
        int64_t k = (clear - ev->limit) / c, sh = k * c, dt = k * delta;
        int64_t *o = ev->snap + 2 + ev->nqueue, mask = ev->mask;
        for (int d = 0; d < nd; d++)
            o += EMPTY(ev, d) ? 0 : 4;
        for (int m = 0; m < ev->nmsgs; m++) {
            EMsg *em = &ev->msg[m];
            if (!em->live)
                continue;
            int64_t from = o[2] + lo + sh;
            em->nissue = o[0] + lo + sh;
            em->npost = o[1] + lo + sh;
            o += 3;
            for (int64_t x = from; x < em->nissue; x++)
                em->issue[x & mask] = *o++ + tb + dt;
            for (int64_t x = from; x < em->npost; x++)
                em->post[x & mask] = *o++ + tb + dt;
        }
        for (int d = 0; d < nd; d++) {
            if (EMPTY(ev, d))
                continue;
            ev->it[d] += sh;
            ev->t[d] += dt;
            ev->busy[d] += k * (ev->busy[d] - ev->saved_busy[d]);
            ev->compute[d] += k * (ev->compute[d] - ev->saved_compute[d]);
        }
        ev->limit += sh;
        ev->skipped = sh;
        return true;
    }
    if (ev->lam == ev->power) { /* Brent: keep the snapshot at powers of two */
        memcpy(ev->saved, ev->snap, z * sizeof *ev->snap);
        ev->nsaved = z;
        ev->saved_lo = lo;
        ev->saved_tb = tb;
        memcpy(ev->saved_busy, ev->busy, (size_t)nd * sizeof *ev->busy);
        memcpy(ev->saved_compute, ev->compute, (size_t)nd * sizeof *ev->compute);
        ev->power *= 2;
        ev->lam = 0;
    }
    ev->lam++;
    return false;
}

/* Runs every DSP to its end.  Returns the length, or -1 on deadlock (the DSPs are then
 * left in their blocked states for find_cycle). */
static int64_t
simulate(Evaluator *ev, const Sched *s)
{
    compile(ev, s);
    int nd = s->ndsps;
    int64_t n = ev->n;
    ev->nqueue = 0;
    ev->limit = ev->window;
    ev->nsaved = 0;
    ev->power = 1;
    ev->lam = 1;
    ev->jumped = false;
    ev->skipped = 0;
    ev->nd = nd;
    ev->countdown = 8;
    ev->probe = -1;
    for (int d = 0; d < nd && ev->probe < 0; d++)
        if (ev->code_off[d + 1] > ev->code_off[d])
            ev->probe = d;
    for (int m = 0; m < s->nmsgs; m++)
        ev->msg[m].nissue = ev->msg[m].npost = 0;
    for (int d = 0; d < nd; d++) {
        ev->k[d] = 0;
        ev->it[d] = 0;
        ev->t[d] = 0;
        ev->busy[d] = ev->compute[d] = 0;
        /* the prolog: pipelined receives post their first transfer, in op order */
        const COp *code = ev->code + ev->code_off[d];
        int nops = ev->code_off[d + 1] - ev->code_off[d];
        for (int k = 0; k < nops; k++) {
            if (code[k].kind != OP_RECV)
                continue;
            EMsg *em = &ev->msg[code[k].ref];
            if (!em->pipe || !em->live)
                continue;
            ev->t[d] += em->post_cost;
            ev->busy[d] += em->post_cost;
            em->post[0] = ev->t[d];
            em->npost = 1;
        }
        ev->state[d] = nops == 0 || n <= 0 ? ST_DONE : ST_RUN;
    }
    for (int d = nd - 1; d >= 0; d--) /* popped from the end: DSP 0 runs first */
        if (ev->state[d] == ST_RUN)
            ev->queue[ev->nqueue++] = d;
    for (;;) {
        while (ev->nqueue > 0) {
            int d = ev->queue[--ev->nqueue];
            run(ev, d);
        }
        int64_t lo = -1;
        bool parked = false;
        for (int d = 0; d < nd; d++) {
            if (ev->state[d] == ST_DONE)
                continue;
            if (lo < 0 || ev->it[d] < lo)
                lo = ev->it[d];
            parked |= ev->state[d] == ST_WINDOW;
        }
        if (lo < 0)
            break; /* all done */
        if (!parked || lo + ev->window <= ev->limit)
            return -1;
        ev->limit = lo + ev->window;
        for (int d = nd - 1; d >= 0; d--)
            if (ev->state[d] == ST_WINDOW && ev->it[d] < ev->limit) {
                ev->state[d] = ST_RUN;
                ev->queue[ev->nqueue++] = d;
            }
    }
    int64_t len = 0;
    for (int d = 0; d < nd; d++)
        if (ev->t[d] > len)
            len = ev->t[d];
    return len;
}

int64_t
eval_length(Evaluator *ev, const Sched *s)
{
    ev->rec = NULL;
    return simulate(ev, s);
}

/* What blocked DSP d waits for: the operation instance of another DSP that would produce
 * the missing value.  Returns false when d is not blocked. */
static bool
waits_for(const Evaluator *ev, int d, DeadStep *to)
{
    if (ev->state[d] != ST_BLOCKED)
        return false;
    const COp *c = &ev->code[ev->code_off[d] + ev->k[d]];
    int64_t i = ev->it[d];
    if (c->kind == OP_RECV) {
        const EMsg *em = &ev->msg[c->ref];
        *to = (DeadStep){em->src, em->send_k, i - em->lag};
        return true;
    }
    /* COMPUTE (zero copy) or SEND (pack): transfer (m, i - 1) has no post yet */
    int one = c->ref, beg = c->wbeg, end = c->wend;
    const int *list = ev->zc;
    if (c->kind == OP_SEND) {
        list = &one;
        beg = 0;
        end = 1;
    }
    for (int w = beg; w < end; w++) {
        const EMsg *em = &ev->msg[list[w]];
        if (i - 1 >= ev->n - em->delay || arrival(em, i - 1, ev->mask) >= 0)
            continue;
        if (em->nissue <= i - 1)
            *to = (DeadStep){em->src, em->send_k, i - 1};
        else
            *to = (DeadStep){em->dst, em->recv_k, i - 1 + em->lag - (em->pipe ? 1 : 0)};
        return true;
    }
    return false;
}

/* Follows the waits from the first blocked DSP until a DSP repeats; writes the cycle as
 * pairs (blocked op, awaited op), starting at the lowest DSP of the cycle. */
static int
find_cycle(const Evaluator *ev, int nd, DeadStep *out)
{
    int *seen = ir_xcalloc((size_t)nd, sizeof *seen); /* position in the walk + 1 */
    int *walk = ir_xcalloc((size_t)nd + 1, sizeof *walk);
    int nwalk = 0, d = -1, n = 0;
    for (int x = 0; x < nd && d < 0; x++)
        if (ev->state[x] == ST_BLOCKED)
            d = x;
    DeadStep to;
    while (d >= 0 && !seen[d] && waits_for(ev, d, &to)) {
        seen[d] = ++nwalk;
        walk[nwalk - 1] = d;
        d = to.dsp;
    }
    int from = 0;
    if (d >= 0 && seen[d])
        from = seen[d] - 1; /* the cycle proper */
    int len = nwalk - from, low = from;
    for (int j = from; j < nwalk; j++)
        if (walk[j] < walk[low])
            low = j;
    for (int j = 0; j < len; j++) {
        int x = walk[from + (low - from + j) % len];
        out[n++] = (DeadStep){x, ev->k[x], ev->it[x]};
        waits_for(ev, x, &out[n++]);
    }
    free(seen);
    free(walk);
    return n;
}

int
eval_run(const Sched *s, const EvalOpts *o, EvalResult *r, Arena *a)
{
    Evaluator *ev = eval_new(s->g, s->p);
    int nd = s->ndsps;
    int64_t n = s->g->iterations;
    int64_t first = o && o->first > 0 ? o->first : 0,
            last = o && o->last > 0 ? o->last : 0;
    if (first + last >= n) {
        first = n;
        last = 0;
    }
    memset(r, 0, sizeof *r);
    r->nrec = (int)(first + last);
    r->rec_iter = arena_array(a, (size_t)r->nrec + 1, sizeof *r->rec_iter);
    for (int64_t j = 0; j < first; j++)
        r->rec_iter[j] = j;
    for (int64_t j = 0; j < last; j++)
        r->rec_iter[first + j] = n - last + j;
    r->op_time = arena_array(a, (size_t)nd + 1, sizeof *r->op_time);
    for (int d = 0; d < nd; d++) {
        size_t cnt = (size_t)r->nrec * (size_t)s->nops[d];
        r->op_time[d] = arena_array(a, cnt + 1, sizeof **r->op_time);
        for (size_t j = 0; j < cnt; j++)
            r->op_time[d][j] = (OpTime){-1, -1, -1};
    }
    size_t cm = (size_t)r->nrec * (size_t)s->nmsgs;
    r->msg_time = arena_array(a, cm + 1, sizeof *r->msg_time);
    for (size_t j = 0; j < cm; j++)
        r->msg_time[j] = (MsgTime){-1, -1, -1, -1};
    ev->rec = r;
    ev->rec_first = first;
    ev->rec_last = last;
    int64_t len = simulate(ev, s);
    r->busy = arena_array(a, (size_t)nd + 1, sizeof *r->busy);
    r->idle = arena_array(a, (size_t)nd + 1, sizeof *r->idle);
    r->compute = arena_array(a, (size_t)nd + 1, sizeof *r->compute);
    for (int d = 0; d < nd; d++) {
        r->busy[d] = ev->busy[d];
        r->compute[d] = ev->compute[d];
        r->idle[d] = len >= 0 ? len - ev->busy[d] : 0;
    }
    r->length = len;
    if (len < 0) {
        r->deadlock = true;
        r->cycle = arena_array(a, 2 * (size_t)nd + 1, sizeof *r->cycle);
        r->ncycle = find_cycle(ev, nd, r->cycle);
    }
    eval_free(ev);
    return len < 0 ? -1 : 0;
}

/* "COMPUTE \"a\"", "SEND m1 (\"a\" -> \"b\")", "RECV m1 (\"a\" -> \"b\" + 2 more)" */
static const char *
op_name(Arena *a, const Sched *s, int dsp, int k)
{
    if (dsp < 0 || dsp >= s->ndsps || k < 0 || k >= s->nops[dsp])
        return "?";
    Op o = s->ops[dsp][k];
    const Graph *g = s->g;
    if (o.kind == OP_COMPUTE)
        return arena_printf(a, "COMPUTE \"%s\"", g->tasks[o.ref].id);
    const Msg *m = &s->msgs[o.ref];
    const Edge *e = &g->edges[m->edges[0]];
    const char *more = m->nedges > 1 ? arena_printf(a, " + %d more", m->nedges - 1) : "";
    return arena_printf(a, "%s m%d (\"%s\" -> \"%s\"%s)",
                        o.kind == OP_SEND ? "SEND" : "RECV", o.ref, g->tasks[e->from].id,
                        g->tasks[e->to].id, more);
}

void
eval_report_deadlock(const Sched *s, const EvalResult *r, Diag *d)
{
    Arena *a = arena_new();
    const char *text = "";
    for (int j = 0; j + 1 < r->ncycle; j += 2) {
        const DeadStep *b = &r->cycle[j], *w = &r->cycle[j + 1];
        text = arena_printf(
            a, "%s%sDSP %d: %s (iteration %lld) waits for DSP %d: %s (iteration %lld)",
            text, j ? " -> " : "", b->dsp, op_name(a, s, b->dsp, b->op),
            (long long)b->iter, w->dsp, op_name(a, s, w->dsp, w->op), (long long)w->iter);
    }
    Loc loc = {.file = s->g->file};
    diag_error(d, &loc, "schedule deadlocks: %s",
               r->ncycle ? text : "no DSP can advance");
    arena_free(a);
}

/* Requires u->s; invalidates nothing (reads only): the schedule's invariants, then an
 * evaluation over all iterations; a deadlock is reported as an error. */
int
pass_verify(Unit *u, Diag *d)
{
    if (!u->s) {
        Loc loc = {.file = u->g->file};
        diag_error(d, &loc, "no schedule to verify");
        return -1;
    }
    if (ir_sched_verify(u->s, d) != 0)
        return -1;
    Arena *a = arena_new();
    EvalResult r;
    int rc = eval_run(u->s, &(EvalOpts){0, 0}, &r, a);
    if (rc != 0)
        eval_report_deadlock(u->s, &r, d);
    arena_free(a);
    return rc;
}
