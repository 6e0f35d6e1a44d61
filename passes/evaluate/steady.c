/*
 * passes/evaluate/steady.c - long runs (docs/evaluator.md, "Long runs: skipping the
 * periodic regime exactly"): the whole state of the simulation sampled at the probe
 * DSP's iteration ends; once a sample repeats, relative to the slowest iteration and the
 * earliest time, whole periods are skipped exactly (find_period).  The first repetition
 * is the schedule's period (eval_period, docs/throughput.md).
 */
#include "private.h"

/* --- steady state.  When the probe DSP ends an iteration, the snapshot below holds the
 * whole state of the simulation: the queue, each DSP's position, time and state, the
 * window, per message its counters and every time that can still be read (from transfer
 * min(receiver - lag, sender - 1) on), and with contention the network: every transfer
 * in it with its pieces on each hop, every link's run and next decision.  Written
 * relative to the slowest iteration lo and the earliest DSP time tb, the snapshot
 * determines the rest of the run: every rule is a max or a sum of these values and
 * constants, or (the links) a comparison of them, and the only rules that look at
 * absolute iterations are those of the first two iterations (the skipped receives of
 * iteration 0, the prolog) and of the last `delay` + 1 (skipped sends and receives, the
 * last posts).  So when two snapshots away from both ends are equal, c = lo2 - lo1
 * iterations later everything repeats shifted by Delta = tb2 - tb1 cycles, and whole
 * periods can be skipped, as long as no skipped period reaches the iterations near the
 * end (or recorded ones); those are then simulated as usual.  Exact, not an estimate.
 */

#define EMPTY(ev, d)                                                                     \
    ((ev)->code_off[(d) + 1] == (ev)->code_off[d]) /* a DSP without ops */

static int64_t
needed_from(const Evaluator *ev, const EMsg *em)
{
    int64_t a = ev->it[em->dst] - em->lag, b = ev->it[em->src] - 1;
    return a < b ? a : b;
}

/* Room for z values in the snapshot buffers. */
void
ev_snap_room(Evaluator *ev, size_t z)
{
    if (z <= ev->snapcap)
        return;
    size_t cap = ev->snapcap;
    while (cap < z)
        cap *= 2;
    ev->snap = ev_xrealloc(ev->snap, cap, sizeof *ev->snap);
    ev->saved = ev_xrealloc(ev->saved, cap, sizeof *ev->saved);
    ev->snapcap = cap;
}
static size_t
snapshot(Evaluator *ev, int nd, int64_t lo, int64_t tb)
{
    size_t z = 0;
    ev_snap_room(ev, 2 + (size_t)ev->nqueue + 4 * (size_t)nd);
    int64_t *o = ev->snap;
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
        int64_t nq = ev->cont ? em->ndep - from : 0, na = ev->cont ? em->narr - from : 0;
        if (ni > em->mask + 1 || np > em->mask + 1 || nq > em->mask + 1 ||
            na > em->mask + 1)
            return 0; /* cannot happen in a valid schedule; 0 means "no snapshot" */
        ev_snap_room(ev, z + 5 + (size_t)(ni > 0 ? ni : 0) + (size_t)(np > 0 ? np : 0) +
                             (size_t)(nq > 0 ? nq : 0) + (size_t)(na > 0 ? na : 0));
        o = ev->snap;
        o[z++] = em->nissue - lo;
        o[z++] = em->npost - lo;
        o[z++] = from - lo;
        for (int64_t x = from; x < em->nissue; x++)
            o[z++] = em->ring[x & em->mask].issue - tb;
        for (int64_t x = from; x < em->npost; x++)
            o[z++] = em->ring[x & em->mask].post - tb;
        if (ev->cont) {
            o[z++] = em->ndep - lo;
            o[z++] = em->narr - lo;
            for (int64_t x = from; x < em->ndep; x++)
                o[z++] = em->ring[x & em->mask].dep - tb;
            for (int64_t x = from; x < em->narr; x++)
                o[z++] = em->ring[x & em->mask].arr - tb;
        }
    }
    if (ev->cont)
        z = ev_snapshot_net(ev, z, lo, tb);
    return z;
}

/* The skipped periods must run only iterations below this: general ones, and none that
 * eval_run records.  An iteration i is general when every rule takes its general case
 * in it: for a message of delay d >= 1 the sends are skipped from n - d on, the receives
 * from n - d + 1 and the post of the next transfer is omitted from n - d, the zero-copy
 * waits end at n - d + 1; without a delay only the last iteration omits its post.  So
 * every i < n - max(md, 1) is general (md, the largest delay of the graph, covers every
 * live message).  A recorded last iteration r >= n - rec_last must be simulated after
 * the skip: a DSP is then at most at iteration limit (parked at its start) or inside
 * iteration limit - 1, so limit <= n - rec_last suffices. */
static int64_t
skip_clear(const Evaluator *ev)
{
    int64_t e = ev->md > 1 ? ev->md : 1;
    if (ev->rec_last > e)
        e = ev->rec_last;
    return ev->n - e;
}

/* Called at every 8th end of an iteration of the probe DSP, which is running (its state
 * flushed to ev).  Returns true after skipping periods. */
bool
ev_find_period(Evaluator *ev, int nd, int64_t lo)
{
    int64_t tb = -1;
    for (int d = 0; d < nd; d++)
        if (ev->state[d] != ST_DONE && ev->it[d] < lo)
            lo = ev->it[d];
    /* far enough from the start (the skipped receives of iteration 0, the prolog,
     * recorded iterations) */
    if (lo < ev->rec_first + (ev->md > 0) + 2 || lo < 2)
        return false;
    /* a skip needs ev->limit + c <= clear (below) with c >= 1, and the limit only grows:
     * once that fails no snapshot can pay */
    int64_t clear = skip_clear(ev);
    if (ev->limit + 1 > clear) {
        ev->jumped = true;
        return false;
    }
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
        if (c > 0 && !ev->p_found) {
            ev->p_found = true;
            ev->p_c = c;
            ev->p_delta = delta;
            ev->p_from = ev->saved_lo;
        }
        /* The window only grows, by c per period: the k skipped periods run iterations
         * below ev->limit + k * c, which must stay below clear (skip_clear). */
        if (c <= 0 || ev->limit + c > clear)
            return false;
        int64_t k = (clear - ev->limit) / c, sh = k * c, dt = k * delta;
        int64_t *o = ev->snap + 2 + ev->nqueue;
        for (int d = 0; d < nd; d++)
            o += EMPTY(ev, d) ? 0 : 4;
        for (int m = 0; m < ev->nmsgs; m++) {
            EMsg *em = &ev->msg[m];
            if (!em->live)
                continue;
            int64_t from = o[2] + lo + sh, mask = em->mask;
            em->nissue = o[0] + lo + sh;
            em->npost = o[1] + lo + sh;
            o += 3;
            for (int64_t x = from; x < em->nissue; x++)
                em->ring[x & mask].issue = *o++ + tb + dt;
            for (int64_t x = from; x < em->npost; x++)
                em->ring[x & mask].post = *o++ + tb + dt;
            if (ev->cont) {
                em->ndep = o[0] + lo + sh;
                em->narr = o[1] + lo + sh;
                o += 2;
                for (int64_t x = from; x < em->ndep; x++)
                    em->ring[x & mask].dep = *o++ + tb + dt;
                for (int64_t x = from; x < em->narr; x++)
                    em->ring[x & mask].arr = *o++ + tb + dt;
            }
        }
        if (ev->cont)
            ev_shift_net(ev, sh, dt);
        for (int d = 0; d < nd; d++) {
            if (EMPTY(ev, d))
                continue;
            ev->it[d] += sh;
            ev->t[d] += dt;
            ev->wait_x[d] += sh;
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

/* The iterations of eval_period's run: about 5e7 operation steps when it never repeats,
 * at least 1024 iterations and at most 2^20. */
static int64_t
period_run(const Sched *s)
{
    int64_t ops = 1;
    for (int d = 0; d < s->ndsps; d++)
        ops += s->nops[d];
    int64_t n = INT64_C(50000000) / ops;
    return n < 1024 ? 1024 : n > (INT64_C(1) << 20) ? INT64_C(1) << 20 : n;
}

/* The schedule's period (docs/throughput.md): the first repetition of a run of the
 * schedule long enough to show it, nothing recorded (so the sweep never takes it). */
int
eval_period(Evaluator *ev, const Sched *s, EvalPeriod *out)
{
    memset(out, 0, sizeof *out);
    int64_t n = s->g->iterations;
    out->run = period_run(s);
    ev->rec = NULL;
    ev->rec_first = ev->rec_last = 0;
    ev->cutoff = INT64_MAX;
    ev->n_run = out->run;
    int64_t len = ev_simulate(ev, s);
    ev->n_run = 0;
    ev->mvalid = false; /* compiled for other iterations: no memo of it */
    if (len < 0)
        return -1;
    if (!ev->p_found)
        return 0;
    out->found = true;
    out->period = period_ratio(ev->p_delta, ev->p_c);
    out->cycles = ev->p_delta;
    out->iterations = ev->p_c;
    out->from = ev->p_from;
    /* The graph's own run is the same up to its general iterations (below n - max(D,
     * 1), with every message live when D < n): it shows the regime when two periods of
     * it come before them. */
    int64_t md = ev->md > 1 ? ev->md : 1;
    out->reached = ev->md < n && out->from + 2 * out->iterations <= n - md;
    return 0;
}

int
eval_period_of(const Sched *s, EvalPeriod *out)
{
    Evaluator *ev = eval_new(s->g, s->p);
    int rc = eval_period(ev, s, out);
    eval_free(ev);
    return rc;
}
