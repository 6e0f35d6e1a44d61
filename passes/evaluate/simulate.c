/*
 * passes/evaluate/simulate.c - the DSPs of the execution model (docs/design.md section 3;
 * the rules at the top of evaluate.c): every DSP runs as far as it can go and parks when
 * it needs a value not known yet; whoever produces the value wakes it (run), until every
 * DSP has ended its last iteration (simulate).  With contention the network (network.c)
 * computes the arrivals; every 8 iterations the steady state (steady.c) may skip whole
 * periods.
 */
#include "private.h"

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

/* Before writing transfer x of em (contention): the ring must hold every transfer from
 * the oldest one a DSP may still read; from = min(receiver's iteration - lag, sender's
 * - 1), with the writer's own iteration `i` in place of its stale entry. */
static inline void
ring_room(Evaluator *ev, EMsg *em, int64_t x, int writer, int64_t i)
{
    int64_t a = (writer == em->dst ? i : ev->it[em->dst]) - em->lag;
    int64_t b = (writer == em->src ? i : ev->it[em->src]) - 1;
    int64_t from = a < b ? a : b;
    if (x - from <= em->mask)
        return;
    int64_t r = em->mask + 1;
    while (x - from >= r)
        r *= 2;
    if (r > (INT64_C(1) << 30))
        ice("a message's transfers span more than 2^30 iterations");
    ev_ring_resize(em, r, from);
}

/* Records op k of DSP d in the recorded iteration of index r (rec_index). */
static void
record_op(Evaluator *ev, int d, int k, int64_t r, int64_t ready, int64_t start,
          int64_t end)
{
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
    int64_t o = x & em->mask;
    MsgTime *mt = &ev->rec->msg_time[r * ev->nmsgs + m];
    mt->issue = em->ring[o].issue;
    mt->post = em->ring[o].post;
    mt->arrive = arrive;
    mt->depart = ev->cont ? em->ring[o].dep : arrive - em->fabric;
}

/* Runs DSP d until it finishes, blocks on another DSP or reaches the window. */
static void
run(Evaluator *ev, int d)
{
    const COp *code = ev->code + ev->code_off[d];
    int nops = ev->code_off[d + 1] - ev->code_off[d];
    int k = ev->k[d];
    int64_t i = ev->it[d], t = ev->t[d], n = ev->n;
    int64_t busy = 0, comp = 0;
    bool cont = ev->cont;
    int st = ST_RUN;
    int64_t ri = ev->rec ? rec_index(ev, i) : -1; /* iteration i is recorded there */
    for (;;) {
        if (k == nops) {
            k = 0;
            if (++i == n) {
                st = ST_DONE;
                break;
            }
            if (d == ev->probe && --ev->countdown == 0) {
                ev->countdown = ev->every;
                ev->k[d] = 0;
                ev->it[d] = i;
                ev->t[d] = t;
                ev->busy[d] += busy;
                ev->compute[d] += comp;
                busy = comp = 0;
                if (ev_find_period(ev, ev->nd, i)) {
                    i = ev->it[d];
                    t = ev->t[d];
                }
                if (ev->jumped)
                    ev->probe = -1;
            }
            /* iterations i .. n - 1 are still to run: the length is at least this */
            if (ev->cutoff - t <= ev->work[d] * (n - i) - ev->lastless[d]) {
                st = ST_CUT;
                break;
            }
            ri = ev->rec ? rec_index(ev, i) : -1;
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
                    int64_t a = arrival(ev, em, i - 1);
                    if (a < 0) {
                        st = ST_BLOCKED;
                        ev->wait_m[d] = ev->zc[w];
                        ev->wait_x[d] = i - 1;
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
                if (ri >= 0)
                    record_op(ev, d, k, ri, t, t, t);
                k++;
                continue;
            }
            if (em->agg && i > 0) { /* the pack buffer holds (m, i - 1) until it is out */
                int64_t a = arrival(ev, em, i - 1);
                if (a < 0) {
                    st = ST_BLOCKED;
                    ev->wait_m[d] = c->ref;
                    ev->wait_x[d] = i - 1;
                    goto out;
                }
                if (a > start)
                    start = a;
            }
            if (cont)
                ring_room(ev, em, i, d, i);
            em->ring[i & em->mask].issue = start + c->cost;
            em->nissue = i + 1;
            if (cont)
                ev_try_depart(ev, c->ref);
            else
                wake(ev, em->dst);
        } else {
            EMsg *em = &ev->msg[c->ref];
            int64_t x = i - em->lag;
            if (x < 0 || x >= n - em->delay) { /* (m, x) never sent: receive skipped */
                if (ri >= 0)
                    record_op(ev, d, k, ri, t, t, t);
                k++;
                continue;
            }
            if (!em->pipe && em->npost == x) { /* a blocking receive posts when reached */
                if (cont)
                    ring_room(ev, em, x, d, i);
                em->ring[x & em->mask].post = t;
                em->npost = x + 1;
                if (cont)
                    ev_try_depart(ev, c->ref);
                else
                    wake(ev, em->src);
            }
            int64_t a = arrival(ev, em, x);
            if (a < 0) {
                st = ST_BLOCKED;
                ev->wait_m[d] = c->ref;
                ev->wait_x[d] = x;
                goto out;
            }
            if (a > start)
                start = a;
            int64_t end = start + c->cost;
            if (em->bnext && x + 1 < n - em->delay) /* eval_new_bound only */
                end += em->bnext;
            if (em->pipe && x + 1 < n - em->delay) { /* post (m, x + 1), the next slot */
                end += em->post_cost;
                if (cont)
                    ring_room(ev, em, x + 1, d, i);
                em->ring[(x + 1) & em->mask].post = end;
                em->npost = x + 2;
                if (cont)
                    ev_try_depart(ev, c->ref);
                else
                    wake(ev, em->src);
            }
            if (ev->rec)
                record_msg(ev, c->ref, x, a);
            if (ri >= 0)
                record_op(ev, d, k, ri, t, start, end);
            busy += end - start;
            t = end;
            k++;
            continue;
        }
        if (ri >= 0)
            record_op(ev, d, k, ri, t, start, start + c->cost);
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

/* Runs every DSP to its end.  Returns the length, or -1 on deadlock (the DSPs are then
 * left in their blocked states for find_cycle). */
int64_t
ev_simulate(Evaluator *ev, const Sched *s)
{
    ev_compile(ev, s);
    int nd = s->ndsps;
    int64_t n = ev->n;
    ev->nqueue = 0;
    ev->limit = ev->window;
    ev->nsaved = 0;
    ev->power = 1;
    ev->lam = 1;
    ev->jumped = false;
    ev->p_found = false;
    ev->skipped = 0;
    ev->nd = nd;
    ev->every = ev->cont ? 1 : 8;
    ev->countdown = ev->every;
    ev->probe = -1;
    for (int d = 0; d < nd && ev->probe < 0; d++)
        if (ev->code_off[d + 1] > ev->code_off[d])
            ev->probe = d;
    for (int m = 0; m < s->nmsgs; m++)
        ev->msg[m].nissue = ev->msg[m].npost = ev->msg[m].ndep = ev->msg[m].narr = 0;
    if (ev->cont)
        ev_net_reset(ev);
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
            em->ring[0].post = ev->t[d];
            em->npost = 1;
        }
        ev->state[d] = nops == 0 || n <= 0 ? ST_DONE : ST_RUN;
    }
    for (int d = nd - 1; d >= 0; d--) /* popped from the end: DSP 0 runs first */
        if (ev->state[d] == ST_RUN)
            ev->queue[ev->nqueue++] = d;
    /* the network may decide up to the first DSP that can still depart a transfer: the
     * earliest parked one (a blocked DSP goes on only after an arrival, which is later
     * than the decision that fixes it) */
    for (int d = 0; d < nd; d++) /* what every DSP must do from its start */
        if (ev->state[d] == ST_RUN &&
            ev->cutoff - ev->t[d] <= ev->work[d] * n - ev->lastless[d])
            return EVAL_NOT_BELOW;
    int64_t lb = INT64_MAX;
    for (;;) {
        while (ev->nqueue > 0) {
            int d = ev->queue[--ev->nqueue];
            run(ev, d);
            if (ev->state[d] == ST_CUT)
                return EVAL_NOT_BELOW;
            if (ev->state[d] == ST_WINDOW && ev->t[d] < lb)
                lb = ev->t[d];
        }
        if (ev->cont && ev->tkey[1] < lb) {
            ev_net_advance(ev, lb);
            continue;
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
        if (!parked)
            return -1;
        if (lo + ev->window > ev->limit)
            ev->limit = lo + ev->window;
        else if (ev->cont && ev->tkey[1] != INT64_MAX)
            ev->limit++; /* a parked DSP holds the network back: let it go on */
        else
            return -1;
        lb = INT64_MAX;
        for (int d = nd - 1; d >= 0; d--)
            if (ev->state[d] == ST_WINDOW && ev->it[d] < ev->limit) {
                ev->state[d] = ST_RUN;
                ev->queue[ev->nqueue++] = d;
            } else if (ev->state[d] == ST_WINDOW && ev->t[d] < lb) {
                lb = ev->t[d];
            }
    }
    int64_t len = 0;
    for (int d = 0; d < nd; d++)
        if (ev->t[d] > len)
            len = ev->t[d];
    return len < ev->cutoff ? len : EVAL_NOT_BELOW;
}
