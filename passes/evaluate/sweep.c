/*
 * passes/evaluate/sweep.c - the sweep (docs/evaluator.md, "How it computes it"): without
 * contention and without recording, the times of a run of at most SWEEP_MAX_ITERATIONS
 * iterations whose dependences within an iteration are acyclic, iteration by iteration in
 * one fixed topological order of the operations, without waits or wake-ups; the same
 * rules and times as simulate.
 */
#include "private.h"

/* ---- the sweep.  Without contention and without recording, the times of an acyclic
 * schedule are computed iteration by iteration, the operations of every DSP in one
 * topological order of the dependences within an iteration: program order, a
 * zero-delay SEND before its RECV (the arrival needs the issue), and the RECV of a
 * delayed blocking message before the zero-copy COMPUTE or the pack that waits for the
 * arrival of the transfer this RECV posts (the same iteration).  Every other value an
 * operation reads comes from an earlier iteration: the issue of a delayed transfer, the
 * posts of pipelined receives (one transfer ahead), the posts of zero-delay receives.
 * No DSP waits, so each operation instance is computed once with run()'s rules; the
 * times, and so the length, are those of simulate (a max-plus system has one solution,
 * whatever the order it is computed in).  A cycle in these dependences (a deadlock, or
 * one the iterations at the ends break) and long runs (the steady state skips their
 * periods) are left to simulate.  Returns false when it leaves the schedule to it. */
bool
ev_sweep_order(Evaluator *ev, const Sched *s)
{
    int nd = s->ndsps, nc = ev->code_off[nd];
    for (int d = 0; d < nd; d++)
        for (int j = ev->code_off[d]; j < ev->code_off[d + 1]; j++) {
            ev->sdsp[j] = d;
            ev->sxs[j] = -1;
            ev->sdeg[j] = j > ev->code_off[d];
            if (ev->code[j].kind == OP_COMPUTE)
                ev->stask[ev->code[j].ref] = j;
        }
    for (int m = 0; m < s->nmsgs; m++) {
        const EMsg *em = &ev->msg[m];
        if (!em->live || em->send_k < 0 || em->recv_k < 0)
            continue;
        int snd = ev->code_off[em->src] + em->send_k,
            rcv = ev->code_off[em->dst] + em->recv_k;
        int from = -1, to = -1;
        if (em->delay == 0) {
            from = snd;
            to = rcv;
        } else if (!em->eager && !em->pipe) {
            from = rcv;
            /* the pack, or the COMPUTE of the zero-copy producer */
            to = em->agg ? snd : ev->stask[s->g->edges[s->msgs[m].edges[0]].from];
        }
        if (from < 0)
            continue;
        if (ev->sxs[from] >= 0)
            return false; /* not a schedule run() knows: leave it to simulate */
        ev->sxs[from] = to;
        ev->sdeg[to]++;
    }
    int no = 0, nq = 0;
    for (int j = 0; j < nc; j++)
        if (ev->sdeg[j] == 0)
            ev->sorder[nq++] = j;
    /* sorder[no .. nq) is the queue of ready operations */
    while (no < nq) {
        int j = ev->sorder[no++];
        int d = ev->sdsp[j];
        if (j + 1 < ev->code_off[d + 1] && --ev->sdeg[j + 1] == 0)
            ev->sorder[nq++] = j + 1;
        if (ev->sxs[j] >= 0 && --ev->sdeg[ev->sxs[j]] == 0)
            ev->sorder[nq++] = ev->sxs[j];
    }
    if (no != nc)
        return false;
    for (int q = 0; q < nc; q++) {
        int j = ev->sorder[q];
        const COp *c = &ev->code[j];
        ev->sop[q] = (SOp){.kind = c->kind,
                           .d = ev->sdsp[j],
                           .cost = c->cost,
                           .em = c->kind == OP_COMPUTE ? NULL : &ev->msg[c->ref],
                           .wbeg = c->wbeg,
                           .wend = c->wend};
    }
    for (int w = 0; w < ev->zc_off[s->g->ntasks]; w++)
        ev->szc[w] = &ev->msg[ev->zc[w]];
    return true;
}

/* Arrival of transfer x of em without contention, when its issue and post are known:
 * arrival() without the checks (the sweep's order guarantees them). */
#define ARRIVAL(em, x)                                                                   \
    (((em)->eager ||                                                                     \
              (em)->ring[(x) & (em)->mask].issue > (em)->ring[(x) & (em)->mask].post     \
          ? (em)->ring[(x) & (em)->mask].issue                                           \
          : (em)->ring[(x) & (em)->mask].post) +                                         \
     (em)->hs + (em)->fabric)

/* The sweep's steady state: iterations i - 2 .. i (all at least 1 and at most `to`, the
 * last iteration in which every live operation runs its general case) each ended every
 * operation dl cycles after the one before.  An operation of iteration j + 1 reads only
 * values of iterations j - 1 .. j + 1 (a zero-copy producer, a pack: the arrival of
 * transfer j, whose post a zero-delay pipelined receive wrote in iteration j - 1) and
 * constants, and a maximum of values shifted by dl is the maximum shifted by dl: so
 * iterations i + 1 .. to repeat iteration i, each dl later.  Sets the state at the end of
 * iteration `to`: the DSPs' times, and the values of iterations to - 1 and to that later
 * iterations read (every issue of a send, every post of a receive: transfer j - lag for
 * a blocking receive of iteration j, j - lag + 1 for a pipelined one). */
static void
sweep_skip(Evaluator *ev, const Sched *s, int64_t i, int64_t to, int64_t dl)
{
    int64_t dt = (to - i) * dl;
    for (int d = 0; d < s->ndsps; d++)
        if (ev->code_off[d + 1] > ev->code_off[d])
            ev->t[d] += dt;
    for (int m = 0; m < s->nmsgs; m++) {
        EMsg *em = &ev->msg[m];
        if (!em->live)
            continue;
        int64_t pp = (em->pipe ? 1 : 0) - em->lag, mask = em->mask;
        int64_t v[4] = {em->ring[(i - 1) & mask].issue, em->ring[i & mask].issue,
                        em->ring[(i - 1 + pp) & mask].post,
                        em->ring[(i + pp) & mask].post};
        em->ring[(to - 1) & mask].issue = v[0] + dt;
        em->ring[to & mask].issue = v[1] + dt;
        em->ring[(to - 1 + pp) & mask].post = v[2] + dt;
        em->ring[(to + pp) & mask].post = v[3] + dt;
    }
}

/* The length by the sweep, after compile and sweep_order: as simulate's (EVAL_NOT_BELOW
 * at the cutoff).  run()'s rules without its waits: each instance once, in order; once
 * three iterations repeat each other shifted in time, to the end of the general case at
 * once (sweep_skip). */
int64_t
ev_sweep(Evaluator *ev, const Sched *s)
{
    int nd = s->ndsps, nc = ev->code_off[nd];
    int64_t n = ev->n;
    int64_t *t = ev->t;
    for (int d = 0; d < nd; d++) {
        t[d] = 0;
        for (int j = ev->code_off[d]; j < ev->code_off[d + 1]; j++) {
            if (ev->code[j].kind != OP_RECV)
                continue;
            EMsg *em = &ev->msg[ev->code[j].ref];
            if (!em->pipe || !em->live)
                continue;
            t[d] += em->post_cost; /* the prolog, as in simulate */
            em->ring[0].post = t[d];
        }
        if (ev->code_off[d + 1] > ev->code_off[d] &&
            ev->cutoff - t[d] <= ev->work[d] * n - ev->lastless[d])
            return EVAL_NOT_BELOW;
    }
    /* the last iteration in which every live operation runs its general case (no end
     * of the run, no start), and the shift of the last compared iteration (-1: none) */
    int64_t dmax = 1, prev = -1;
    for (int m = 0; m < s->nmsgs; m++)
        if (ev->msg[m].live && ev->msg[m].delay > dmax)
            dmax = ev->msg[m].delay;
    int64_t last = n - 1 - dmax;
    for (int64_t i = 0; i < n; i++) {
        bool cmp = i >= 2 && i <= last, uni = true;
        int64_t dl = 0;
        for (SOp *c = ev->sop, *e = ev->sop + nc; c < e; c++) {
            int64_t start = t[c->d];
            EMsg *em = c->em;
            if (c->kind == OP_COMPUTE) {
                if (i > 0)
                    for (int w = c->wbeg; w < c->wend; w++) {
                        const EMsg *z = ev->szc[w];
                        if (i - 1 < n - z->delay) {
                            int64_t a = ARRIVAL(z, i - 1);
                            start = a > start ? a : start;
                        }
                    }
                t[c->d] = start + c->cost;
            } else if (c->kind == OP_SEND) {
                if (i >= n - em->delay)
                    goto next;
                if (em->agg && i > 0) {
                    int64_t a = ARRIVAL(em, i - 1);
                    start = a > start ? a : start;
                }
                em->ring[i & em->mask].issue = t[c->d] = start + c->cost;
            } else {
                int64_t x = i - em->lag;
                if (x < 0 || x >= n - em->delay)
                    goto next;
                if (!em->pipe)
                    em->ring[x & em->mask].post = start; /* posted when reached */
                int64_t a = ARRIVAL(em, x);
                int64_t end = (a > start ? a : start) + c->cost;
                if (x + 1 < n - em->delay) {
                    end += em->bnext; /* eval_new_bound only */
                    if (em->pipe) {
                        end += em->post_cost;
                        em->ring[(x + 1) & em->mask].post = end;
                    }
                }
                t[c->d] = end;
            }
        next:
            if (cmp && c == ev->sop)
                dl = t[c->d] - c->last;
            else if (cmp)
                uni &= t[c->d] - c->last == dl;
            c->last = t[c->d];
        }
        if (cmp && uni && dl == prev && i < last) {
            /* iterations i - 2 .. i are one iteration shifted by dl: so are the others up
             * to `last` (sweep_skip) */
            sweep_skip(ev, s, i, last, dl);
            i = last;
        }
        prev = cmp && uni ? dl : -1;
        /* iterations i + 1 .. n - 1 are still to run */
        for (int d = 0; d < nd && i + 1 < n; d++)
            if (ev->code_off[d + 1] > ev->code_off[d] &&
                ev->cutoff - t[d] <= ev->work[d] * (n - i - 1) - ev->lastless[d])
                return EVAL_NOT_BELOW;
    }
    int64_t len = 0;
    for (int d = 0; d < nd; d++)
        if (t[d] > len)
            len = t[d];
    return len < ev->cutoff ? len : EVAL_NOT_BELOW;
}
