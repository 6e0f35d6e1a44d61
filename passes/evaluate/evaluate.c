/*
 * passes/evaluate/evaluate.c - the execution model of docs/design.md section 3 over all
 * iterations, with the fabric of section 4: contended links by default, the
 * contention-free fabric time with Platform.no_contention.  The BFCO fitness, the local
 * search of the scheduler, pass_verify and the predicted times of the writers all come
 * from here.
 *
 * Requires: a schedule that passes ir_sched_verify (every message sent and received once,
 * on its own DSPs).  Invalidates nothing.
 *
 * The DSPs are a max-plus system: every operation instance (DSP d, op k, iteration i)
 * starts at the maximum of the times it depends on and lasts a fixed number of cycles. We
 * compute it by running every DSP as far as it can go and parking it when it needs a
 * value that is not known yet (an arrival, or without contention a send not issued or a
 * receive not posted); whoever produces the value wakes it.  The order in which DSPs run
 * does not change any time, only when it is computed.  Nothing of a DSP is computed
 * twice, so the cost is linear in operations x iterations.
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
 *  - depart = max(issue, post) + handshake, or issue when bytes <= eager_limit;
 *  - arrival: without contention depart + plat_fabric_time; with contention the end of
 *    the last packet on the last link of the route, the links being shared (network.c);
 *  - blocking RECV: posted when the DSP reaches it, waits for the arrival, recv_overhead
 *    (+ unpack);
 *  - pipelined RECV (never for eager messages): the prolog posts the first received
 *    transfer, post_overhead, at the start of the DSP (in the order of the RECV ops);
 *    at the slot: wait for the arrival, wait_overhead (+ unpack), then post the next
 *    transfer, post_overhead, unless it is never sent (x + 1 >= iterations - delay: the
 *    last receive); a post counts at the end of its overhead;
 *  - length = when the last DSP ends its last iteration.
 *
 * Contention (network.c): a transfer of k packets is offered whole to the first link of
 * its route at its departure; a packet holds a link ser(size) cycles and is ready for
 * the next link switch_latency cycles after it has left the previous one (store and
 * forward).  A link that is free at time T takes, of the packets ready at T or
 * before, the one of the shorter message, then of the transfer issued first (issue time,
 * source DSP, the source's send order), then the lower packet index: the rule of the
 * runtime (runtime/sim_net.c, pk_before).  The network is computed in time order, as far
 * as the DSPs have fixed every departure: no DSP that can still depart a transfer is
 * earlier than the network's next decision (net_advance).  It works on trains, not
 * packets: a run of packets of one transfer that a link sends back to back costs one
 * decision, and is cut at a packet boundary only when a better packet is ready there.
 *
 * Memory: per-message values (issue, post, departure and arrival times) live in rings,
 * indexed by the transfer.  DSPs are kept within W iterations of the slowest unfinished
 * DSP (the window); without contention R > W + 2 guarantees no value is overwritten
 * before it is read (a value of transfer x is read in iteration x + 1 at the latest), and
 * since a blocked DSP never waits for a later iteration of another DSP, any W >= 1 keeps
 * a DSP parked by the window out of every chain of waits of the slowest DSP, so "no DSP
 * can move" is a real deadlock (see docs/evaluator.md).  Neither depends on the delays.
 * With contention a parked DSP may hold the network back (it could still depart a
 * transfer before the network's next decision); the window then opens one iteration
 * further, and a message's ring grows when the transfers still to be read span it.
 *
 * Arithmetic: eval_new requires plat_length_bound(p, g) <= IR_MAX_TIME (fe_check refuses
 * other graphs with an error): the length is a chain of op, handshake, packet and switch
 * times, each at most once, so every time, sum and period shift here is at most 2^62 and
 * plain int64_t arithmetic cannot overflow (docs/evaluator.md, "Arithmetic").
 *
 * The sweep: without contention and without recording (eval_length, eval_length_below
 * of the searches), runs of at most SWEEP_MAX_ITERATIONS iterations whose dependences
 * within an iteration are acyclic are computed iteration by iteration in one fixed
 * topological order of the operations, without waits or wake-ups (sweep.c); the
 * same rules, the same times, about 1.7 times faster.  Once three consecutive
 * iterations repeat each other shifted by one time, every iteration up to the end
 * effects does (sweep_skip): those are skipped exactly.  Everything else is simulated.
 *
 * Long runs: the whole simulation state, the network included, is sampled every 8
 * iterations of one DSP; once a sample repeats (relative to the slowest iteration and the
 * earliest time), whole periods are skipped exactly and the last iterations are simulated
 * as usual (steady.c, find_period).
 *
 * The files of the folder: this one (the workspace, compile, the length with its memo,
 * eval_run, deadlocks, pass_verify), simulate.c (the DSPs: run, simulate), network.c
 * (contention), steady.c (long runs), sweep.c (the sweep); private.h is what they share.
 */
#include "private.h"

/* Runs longer than this go to simulate, whose steady state skips their periods. */
enum { SWEEP_MAX_ITERATIONS = 64 };

void *
ev_xrealloc(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        ice("evaluator workspace too large");
    void *q = realloc(p, n * size > 0 ? n * size : 1);
    if (!q)
        ice("out of memory");
    return q;
}

Evaluator *
eval_new(const Graph *g, const Platform *p)
{
    /* Every time below is at most the length, and the length at most this bound, which
     * fe_check holds to 2^62: no sum or product of the simulation can overflow. */
    if (plat_length_bound(p, g) > IR_MAX_TIME)
        ice("graph \"%s\" may run longer than 2^62 cycles on \"%s\" (fe_check refuses "
            "it)",
            g->name ? g->name : "", p->name ? p->name : "");
    Evaluator *ev = ir_xcalloc(1, sizeof *ev);
    int md = 0;
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].delay > md)
            md = g->edges[e].delay;
    ev->g = g;
    ev->ndsps = p->ndsps;
    ev->maxops = g->ntasks + 2 * g->nedges;
    ev->maxmsgs = g->nedges;
    /* Every receive is at most one iteration after its send, whatever the delay.  The
     * window is 1 (any W >= 1 is exact).  With contention a wider one (it was 4) lets
     * DSPs depart transfers iterations ahead of the network's decisions, and the links
     * then take more decisions for the same outcome (2.2 times as many on BFCO's
     * 100-task speed graph); W = 1 makes a contended evaluation about 1.5 times faster
     * (docs/evaluator.md, "Cost"). */
    int64_t w = 1;
    int64_t r = 16;
    while (r < w + 4)
        r *= 2;
    ev->window = w;
    ev->mask = r - 1;
    ev->md = md;
    ev->snapcap = 1024;
    ev->snap = ir_xcalloc(ev->snapcap, sizeof *ev->snap);
    ev->saved = ir_xcalloc(ev->snapcap, sizeof *ev->saved);
    ev->saved_busy = ir_xcalloc((size_t)p->ndsps, sizeof *ev->saved_busy);
    ev->saved_compute = ir_xcalloc((size_t)p->ndsps, sizeof *ev->saved_compute);
    size_t nd = (size_t)ev->ndsps;
    ev->code = ir_xcalloc((size_t)ev->maxops, sizeof *ev->code);
    ev->code_off = ir_xcalloc(nd + 1, sizeof *ev->code_off);
    ev->zc = ir_xcalloc((size_t)ev->maxmsgs, sizeof *ev->zc);
    ev->zc_off = ir_xcalloc((size_t)g->ntasks + 2, sizeof *ev->zc_off);
    ev->tcost = ir_xcalloc((size_t)g->ntasks + 1, sizeof *ev->tcost);
    for (int t = 0; t < g->ntasks; t++)
        ev->tcost[t] =
            g->tasks[t].ncycles <= 1 ? ir_task_cycles(&g->tasks[t], 0) : INT64_MIN;
    ev->msg = ir_xcalloc((size_t)ev->maxmsgs, sizeof *ev->msg);
    ev->k = ir_xcalloc(nd, sizeof *ev->k);
    ev->state = ir_xcalloc(nd, sizeof *ev->state);
    ev->queue = ir_xcalloc(nd, sizeof *ev->queue);
    ev->it = ir_xcalloc(nd, sizeof *ev->it);
    ev->t = ir_xcalloc(nd, sizeof *ev->t);
    ev->busy = ir_xcalloc(nd, sizeof *ev->busy);
    ev->compute = ir_xcalloc(nd, sizeof *ev->compute);
    ev->wait_m = ir_xcalloc(nd, sizeof *ev->wait_m);
    ev->wait_x = ir_xcalloc(nd, sizeof *ev->wait_x);
    ev->work = ir_xcalloc(nd + 1, sizeof *ev->work);
    ev->lastless = ir_xcalloc(nd + 1, sizeof *ev->lastless);
    ev->sorder = ir_xcalloc((size_t)ev->maxops + 1, sizeof *ev->sorder);
    ev->sdeg = ir_xcalloc((size_t)ev->maxops + 1, sizeof *ev->sdeg);
    ev->sxs = ir_xcalloc((size_t)ev->maxops + 1, sizeof *ev->sxs);
    ev->sdsp = ir_xcalloc((size_t)ev->maxops + 1, sizeof *ev->sdsp);
    ev->stask = ir_xcalloc((size_t)g->ntasks + 1, sizeof *ev->stask);
    ev->sop = ir_xcalloc((size_t)ev->maxops + 1, sizeof *ev->sop);
    ev->szc = ir_xcalloc((size_t)ev->maxmsgs + 1, sizeof *ev->szc);
    ev->cutoff = INT64_MAX;
    ev->cont = p->model == MODEL_BWDSP && !p->no_contention;
    if (ev->cont) {
        ev->nlinks = plat_directed_links(p);
        ev->maxh = plat_max_route(p);
        while ((1 << ev->hshift) < ev->maxh)
            ev->hshift++;
        ev->swl = p->switch_latency;
        ev->route =
            ir_xcalloc((size_t)ev->maxmsgs * (size_t)ev->maxh + 1, sizeof *ev->route);
        ev->link = ir_xcalloc((size_t)ev->nlinks, sizeof *ev->link);
        ev->tleaves = 1;
        while (ev->tleaves < ev->nlinks)
            ev->tleaves *= 2;
        ev->tkey = ir_xcalloc(2 * (size_t)ev->tleaves, sizeof *ev->tkey);
        ev->twin = ir_xcalloc(2 * (size_t)ev->tleaves, sizeof *ev->twin);
    }
    return ev;
}

/* The bound: a relaxation of the rules, so every time is at most the real one
 * (max-plus is monotone, docs/evaluator.md): no contention (an arrival is never earlier
 * than depart + fabric time), a departure at issue + handshake without waiting for the
 * post (every post is at least as late, a departure at least issue + handshake), a
 * receive slot of min(recv_overhead, wait_overhead + post_overhead) + unpack (what a
 * blocking and a pipelined receive that posts the next transfer cost at least), of
 * min(recv_overhead, wait_overhead) + unpack for the last transfer (no post follows), no
 * prolog posts.
 * Pipelined flags are ignored, so the bound holds for every choice of them. */
Evaluator *
eval_new_bound(const Graph *g, const Platform *p)
{
    Platform q = *p;
    q.no_contention = true;
    Evaluator *ev = eval_new(g, &q);
    ev->bound = true;
    return ev;
}

void
eval_free(Evaluator *ev)
{
    if (!ev)
        return;
    for (int m = 0; m < ev->maxmsgs; m++)
        free(ev->msg[m].ring);
    for (int l = 0; l < ev->nlinks; l++)
        free(ev->link[l].cand);
    free(ev->code);
    free(ev->code_off);
    free(ev->zc);
    free(ev->zc_off);
    free(ev->tcost);
    free(ev->msg);
    free(ev->k);
    free(ev->state);
    free(ev->queue);
    free(ev->it);
    free(ev->t);
    free(ev->busy);
    free(ev->compute);
    free(ev->wait_m);
    free(ev->wait_x);
    free(ev->work);
    free(ev->lastless);
    free(ev->snap);
    free(ev->saved);
    free(ev->saved_busy);
    free(ev->saved_compute);
    free(ev->route);
    free(ev->link);
    free(ev->tkey);
    free(ev->twin);
    free(ev->tr);
    free(ev->hop);
    free(ev->pc);
    free(ev->sortbuf);
    free(ev->rank);
    free(ev->sorder);
    free(ev->sdeg);
    free(ev->sxs);
    free(ev->sdsp);
    free(ev->stask);
    free(ev->sop);
    free(ev->szc);
    free(ev);
}

/* Gives message em rings of at least r entries (a power of two), keeping transfers
 * [from, max(nissue, npost)). */
void
ev_ring_resize(EMsg *em, int64_t r, int64_t from)
{
    int64_t old = em->ring ? em->mask + 1 : 0;
    if (r == old)
        return;
    /* r >= 16 entries of 32 bytes: whole lines, and no entry across two */
    Ring *blk = aligned_alloc(64, (size_t)r * sizeof *blk);
    if (!blk)
        ice("out of memory");
    memset(blk, 0, (size_t)r * sizeof *blk);
    if (em->ring) {
        int64_t hi = em->nissue > em->npost ? em->nissue : em->npost, m = r - 1;
        for (int64_t x = from > 0 ? from : 0; x < hi; x++)
            blk[x & m] = em->ring[x & em->mask];
        free(em->ring);
    }
    em->ring = blk;
    em->mask = r - 1;
}

/* Compiles the schedule into ev->code and ev->msg: everything that depends on the
 * schedule (merges, pipelined flags, op order) is recomputed here, in O(ops + messages +
 * tasks). */
void
ev_compile(Evaluator *ev, const Sched *s)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    int64_t n = ev->n_run > 0 ? ev->n_run : g->iterations;
    if (s->ndsps > ev->ndsps || s->nmsgs > ev->maxmsgs)
        ice("schedule larger than its evaluator (%d DSPs, %d messages)", s->ndsps,
            s->nmsgs);
    ev->n = n;
    ev->nmsgs = s->nmsgs;
    ev->mvalid = false;
    ev->cp = p;
    ev->cnd = s->ndsps;
    int64_t pl[7] = {p->eager_limit,         p->handshake,     p->send_overhead,
                     p->recv_overhead,       p->wait_overhead, p->post_overhead,
                     p->copy_bytes_per_cycle};
    memcpy(ev->cplat, pl, sizeof pl);
    memset(ev->zc_off, 0, ((size_t)g->ntasks + 2) * sizeof *ev->zc_off);
    int64_t hdr = p->packet_bytes - p->payload_bytes;
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
        bool known = em->kp == p && em->ksrc == sm->src && em->kdst == sm->dst &&
                     em->kbytes == sm->bytes;
        if (!known && !ev->cont) /* the network computes arrivals with contention */
            em->fabric = plat_fabric_time(p, sm->src, sm->dst, sm->bytes);
        em->bytes = sm->bytes;
        int64_t unpack = em->agg ? ceil_div(sm->bytes, p->copy_bytes_per_cycle) : 0;
        em->recv_cost = (em->pipe ? p->wait_overhead : p->recv_overhead) + unpack;
        em->bnext = 0;
        if (ev->bound) { /* eval_new_bound: departs at issue + hs (arrival) */
            int64_t ro = p->recv_overhead, wo = p->wait_overhead,
                    wp = p->wait_overhead + p->post_overhead;
            em->eager = true;
            em->pipe = false;
            em->recv_cost = (wo < ro ? wo : ro) + unpack;
            em->bnext = (wp < ro ? wp : ro) - (wo < ro ? wo : ro);
        }
        em->post_cost = p->post_overhead;
        em->send_k = em->recv_k = -1;
        if (!em->ring || em->mask != ev->mask) {
            free(em->ring);
            em->ring = NULL;
            ev_ring_resize(em, ev->mask + 1, 0);
        }
        if (ev->cont && !known) {
            em->rbeg = m * ev->maxh;
            em->nh = plat_route(p, sm->src, sm->dst, ev->route + em->rbeg);
            em->npk = plat_packets(p, sm->bytes);
            em->ser_full = plat_ser(p, p->packet_bytes);
            em->ser_last =
                plat_ser(p, sm->bytes - (em->npk - 1) * p->payload_bytes + hdr);
        }
        em->kp = p;
        em->ksrc = sm->src;
        em->kdst = sm->dst;
        em->kbytes = sm->bytes;
        em->spipe = sm->pipelined;
        em->ztask = em->agg ? -1 : g->edges[sm->edges[0]].from;
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
    const int64_t *tcost = g == ev->g ? ev->tcost : NULL;
    for (int d = 0; d < s->ndsps; d++) {
        ev->code_off[d] = nc;
        ev->work[d] = ev->lastless[d] = 0;
        if (nc + s->nops[d] > ev->maxops)
            ice("schedule has more operations than its evaluator");
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            COp *c = &ev->code[nc++];
            c->kind = o.kind;
            c->ref = o.ref;
            c->wbeg = c->wend = 0;
            if (o.kind == OP_COMPUTE) {
                c->cost = tcost && tcost[o.ref] != INT64_MIN
                              ? tcost[o.ref]
                              : ir_task_cycles(&g->tasks[o.ref], d);
                c->wbeg = ev->zc_off[o.ref];
                c->wend = ev->zc_off[o.ref + 1];
                ev->work[d] += c->cost;
            } else if (o.kind == OP_SEND) {
                const Msg *sm = &s->msgs[o.ref];
                c->cost =
                    p->send_overhead +
                    (sm->nedges > 1 ? ceil_div(sm->bytes, p->copy_bytes_per_cycle) : 0);
                ev->msg[o.ref].send_k = k;
                if (sm->delay == 0)
                    ev->work[d] += c->cost;
            } else {
                const EMsg *em = &ev->msg[o.ref];
                c->cost = em->recv_cost;
                ev->msg[o.ref].recv_k = k;
                if (em->delay == 0) { /* every iteration; the last without its post */
                    int64_t more = em->pipe ? em->post_cost : em->bnext;
                    ev->work[d] += c->cost + more;
                    ev->lastless[d] += more;
                }
            }
        }
    }
    for (int d = s->ndsps; d <= ev->ndsps; d++)
        ev->code_off[d] = nc;
}

/* The length: by the sweep where it applies, else by simulate. */
static int64_t
length_of(Evaluator *ev, const Sched *s)
{
    if (ev->cont || s->g->iterations < 1 || s->g->iterations > SWEEP_MAX_ITERATIONS)
        return ev_simulate(ev, s);
    ev_compile(ev, s);
    if (!ev_sweep_order(ev, s))
        return ev_simulate(ev, s);
    return ev_sweep(ev, s);
}

/* Whether s is the schedule of the workspace's last compile, when that was an
 * eval_length or eval_length_below: everything compile reads (the platform's times,
 * the iterations, the operations in order, every message's DSPs, delay, bytes, pipelined
 * flag, whether it is aggregated and else its producer), compared with what compile
 * wrote; the fabric and routes go by the platform's address, as in compile, and the
 * tasks' cycles are those of the graph the workspace was made for.  A schedule of other
 * messages (another merge) differs at the first check or two. */
static bool
memo_same(const Evaluator *ev, const Sched *s)
{
    const Platform *p = s->p;
    if (!ev->mvalid || p != ev->cp || s->nmsgs != ev->nmsgs || s->ndsps != ev->cnd ||
        s->g->iterations != ev->n)
        return false;
    int64_t pl[7] = {p->eager_limit,         p->handshake,     p->send_overhead,
                     p->recv_overhead,       p->wait_overhead, p->post_overhead,
                     p->copy_bytes_per_cycle};
    if (memcmp(pl, ev->cplat, sizeof pl) != 0)
        return false;
    for (int m = 0; m < s->nmsgs; m++) {
        const Msg *sm = &s->msgs[m];
        const EMsg *em = &ev->msg[m];
        if (sm->src != em->src || sm->dst != em->dst || sm->delay != em->delay ||
            sm->bytes != em->bytes || sm->pipelined != em->spipe ||
            (sm->nedges > 1) != em->agg ||
            (!em->agg && s->g->edges[sm->edges[0]].from != em->ztask))
            return false;
    }
    for (int d = 0; d < s->ndsps; d++) {
        const COp *c = ev->code + ev->code_off[d];
        if (s->nops[d] != ev->code_off[d + 1] - ev->code_off[d])
            return false;
        for (int k = 0; k < s->nops[d]; k++)
            if (s->ops[d][k].kind != c[k].kind || s->ops[d][k].ref != c[k].ref)
                return false;
    }
    return true;
}

/* The length by length_of with the cutoff c, or by the previous call when s is the
 * schedule it evaluated and its result decides this one: an exact length L (below its
 * cutoff) gives L or EVAL_NOT_BELOW; "not below" a cutoff holds for every lower one;
 * a deadlock found before a cutoff is found before every higher one (the run until it
 * stops does not depend on the cutoff).  The searches evaluate one schedule again when
 * a move leads where the previous one did. */
static int64_t
length_memo(Evaluator *ev, const Sched *s, int64_t c)
{
    ev->rec = NULL;
    ev->rec_first = ev->rec_last = 0;
    if (memo_same(ev, s)) {
        int64_t L = ev->mlen;
        if (L >= 0 && L < ev->mcut)
            return L < c ? L : EVAL_NOT_BELOW;
        if ((L == EVAL_NOT_BELOW && c <= ev->mcut) || (L == -1 && c >= ev->mcut))
            return L;
    }
    ev->cutoff = c;
    int64_t L = length_of(ev, s);
    ev->cutoff = INT64_MAX;
    ev->mvalid = true; /* length_of compiled s */
    ev->mlen = L;
    ev->mcut = c;
    return L;
}

int64_t
eval_length(Evaluator *ev, const Sched *s)
{
    return length_memo(ev, s, INT64_MAX);
}

int64_t
eval_length_of(const Sched *s)
{
    Evaluator *ev = eval_new(s->g, s->p);
    int64_t L = eval_length(ev, s);
    eval_free(ev);
    return L;
}

/* The run stops at the first DSP whose time plus the work it must still do (every
 * later iteration costs at least work[d]) reaches the cutoff: the length is at least
 * that, so "not below" is exact; a length below the cutoff never stops it. */
int64_t
eval_length_below(Evaluator *ev, const Sched *s, int64_t cutoff)
{
    return length_memo(ev, s, cutoff);
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
        if (i - 1 >= ev->n - em->delay || arrival(ev, em, i - 1) >= 0)
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
    int rc = eval_run_with(ev, s, o, r, a);
    eval_free(ev);
    return rc;
}

int
eval_run_with(Evaluator *ev, const Sched *s, const EvalOpts *o, EvalResult *r, Arena *a)
{
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
    ev->cutoff = INT64_MAX;
    int64_t len = ev_simulate(ev, s);
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
    ev->rec = NULL;
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
