/*
 * passes/evaluate.c - the execution model of docs/design.md section 3 over all
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
 *    the last packet on the last link of the route, the links being shared (below);
 *  - blocking RECV: posted when the DSP reaches it, waits for the arrival, recv_overhead
 *    (+ unpack);
 *  - pipelined RECV (never for eager messages): the prolog posts the first received
 *    transfer, post_overhead, at the start of the DSP (in the order of the RECV ops);
 *    at the slot: wait for the arrival, wait_overhead (+ unpack), then post the next
 *    transfer, post_overhead, unless it is never sent (x + 1 >= iterations - delay: the
 *    last receive); a post counts at the end of its overhead;
 *  - length = when the last DSP ends its last iteration.
 *
 * Contention (the network section below): a transfer of k packets is offered whole to the
 * first link of its route at its departure; a packet holds a link ser(size) cycles and
 * is ready for the next link switch_latency cycles after it has left the previous one
 * (store and forward).  A link that is free at time T takes, of the packets ready at T or
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
 * topological order of the operations, without waits or wake-ups (sweep_order); the
 * same rules, the same times, about 1.7 times faster.  Once three consecutive
 * iterations repeat each other shifted by one time, every iteration up to the end
 * effects does (sweep_skip): those are skipped exactly.  Everything else is simulated.
 *
 * Long runs: the whole simulation state, the network included, is sampled every 8
 * iterations of one DSP; once a sample repeats (relative to the slowest iteration and the
 * earliest time), whole periods are skipped exactly and the last iterations are simulated
 * as usual (find_period).
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { ST_RUN, ST_BLOCKED, ST_WINDOW, ST_DONE, ST_CUT };

/* Runs longer than this go to simulate, whose steady state skips their periods. */
enum { SWEEP_MAX_ITERATIONS = 64 };

typedef struct COp { /* an operation compiled for the hot loop */
    OpKind kind;
    int ref;        /* task or message */
    int64_t cost;   /* COMPUTE: cycles; SEND: overhead + pack; RECV: see EMsg */
    int wbeg, wend; /* COMPUTE: zero-copy messages ev->zc[wbeg .. wend) */
} COp;

typedef struct Ring {              /* the times of one transfer */
    int64_t issue, post, dep, arr; /* dep, arr: with contention */
} Ring;

typedef struct EMsg { /* the fields the sweep reads come first: one cache line */
    int delay;
    int lag;   /* transfer x is received in iteration x + lag: 0, or 1 if delay */
    bool live; /* delay < iterations */
    bool eager, pipe, agg;
    int64_t mask;       /* ring size R - 1 */
    Ring *ring;         /* R entries: transfer x at x & mask */
    int64_t hs, fabric; /* fabric: the contention-free time (not set with contention) */
    int64_t post_cost;
    int64_t bnext; /* eval_new_bound: what a receive costs more when another follows */
    int src, dst;
    int send_k, recv_k; /* positions of its SEND and RECV ops on their DSPs */
    int64_t recv_cost;  /* blocking: recv_overhead + unpack; pipelined: wait_overhead +
                           unpack */
    int64_t bytes;
    int64_t nissue, npost; /* transfers issued / posted so far (in iteration order) */
    int64_t ndep, narr;    /* contention: departed / arrived so far (in order) */
    /* contention: the route ev->route[rbeg .. rbeg + nh), packets, their times */
    int rbeg, nh;
    int64_t npk, ser_full, ser_last;
    /* what fabric, the route and the packets were computed for: a message keeps its
     * slot from one evaluation to the next in the searches, they are not recomputed */
    const Platform *kp;
    int ksrc, kdst;
    int64_t kbytes;
    bool spipe; /* the schedule's flag (pipe is false for eager messages and bounds) */
    int ztask;  /* a single-edge message: its producer (zero copy); else -1 */
} EMsg;

typedef struct SOp { /* an operation as the sweep runs it, in the sweep's order */
    OpKind kind;
    int d;
    int64_t cost;
    EMsg *em;       /* SEND, RECV: the message */
    int wbeg, wend; /* COMPUTE: the zero-copy messages ev->szc[wbeg .. wend) */
    int64_t last;   /* its DSP's time after it in the last iteration computed */
} SOp;

/* ---- the network's state (contention) ----
 * A transfer in the network has, per hop of its route, the packets made available there
 * so far (lim: all of them at hop 0; downstream, those the previous link has started)
 * and a list of pieces: runs of packets [start, next piece's start or lim) that became
 * ready together (the first at `avail`, the others no later than the link can take them,
 * since all links run at one rate).  A link serves one piece at a time, from `ss`; its
 * candidates are the hops whose first piece waits for it. */
typedef struct NTr {
    int m; /* message, or -1 for a free slot */
    int64_t x, issue, depart;
    int live; /* hops not finished */
    bool fin; /* arrival known (its last packet has started on the last link) */
    int next; /* free list */
    /* copies of the message's fields, so that the hot loop touches only the slot: the
     * arbitration keys, the packets and the route */
    int src, send_k, nh, rbeg;
    int64_t bytes, npk, ser_full, ser_last;
} NTr;

typedef struct NHop {
    int64_t lim;
    int head, tail; /* pieces, -1 when none */
    int cpos;       /* 0 while among its link's candidates, else -1 */
} NHop;

typedef struct NPiece {
    int64_t start, avail;
    int next;
} NPiece;

typedef struct NCand { /* a hop waiting for a link, and when its first piece is ready */
    int64_t avail;
    int id;
} NCand;

typedef struct NLink {
    int cur;         /* hop id being served (slot << hshift | hop), -1 when idle */
    int64_t ss, sj0; /* when its current run started, and with which packet */
    int64_t at;      /* the next decision, -1 when none is needed */
    NCand *cand;     /* the hops waiting for this link, by avail (cand_add; a head
                        piece's avail does not change while its hop waits, but for
                        shift_net, which keeps the order) */
    int ncand, capcand;
} NLink;

struct Evaluator {
    const Graph *g;
    int ndsps, maxops, maxmsgs;
    int nmsgs;            /* of the schedule being evaluated */
    int64_t mask, window; /* R - 1 of a new ring; W */
    COp *code;            /* [maxops] */
    int *code_off;        /* [ndsps + 1] */
    int *zc;              /* [maxmsgs] zero-copy message lists of the COMPUTE ops */
    int *zc_off;          /* [ntasks + 1] per task, during compilation */
    int64_t *tcost;       /* [ntasks] a task's cycles on every DSP, or INT64_MIN when
                             they differ by DSP (ir_task_cycles) */
    EMsg *msg;            /* [maxmsgs] */
    /* DSP state */
    int *k, *state, *queue;
    int64_t *it, *t, *busy, *compute;
    int *wait_m;     /* [ndsps] a blocked DSP waits for the arrival of transfer */
    int64_t *wait_x; /* (wait_m, wait_x) */
    int nqueue;
    int64_t limit; /* no DSP starts an iteration >= limit */
    int64_t n;     /* iterations */
    /* eval_length_below: the run stops once a DSP's time plus the work it must still do
     * reaches cutoff (INT64_MAX: never).  work[d] is what every iteration of DSP d
     * costs at least (its COMPUTE ops, the SEND and RECV ops of zero-delay messages,
     * which are never skipped), lastless[d] what its last iteration costs less (the
     * posts, or eval_new_bound's extra receive cost, that the last receive omits). */
    int64_t cutoff;
    int64_t *work, *lastless;
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
    int64_t every;     /* a sample every this many: 1 with contention, else 8 (a snapshot
                          costs about what 8 iterations of the max-plus DSPs cost) */
    int64_t skipped;   /* iterations skipped by the last evaluation */
    bool bound; /* eval_new_bound: every receive posted in time, the cheaper receive */
    /* the network (contention) */
    bool cont;        /* links are contended (BWDSP without no_contention) */
    int nlinks;       /* directed links */
    int maxh, hshift; /* longest route; hop ids are slot << hshift | hop */
    int *route;       /* [maxmsgs * maxh] the links of each message's route */
    int64_t swl;      /* switch latency */
    NLink *link;      /* [nlinks] */
    int tleaves;      /* leaves of the decision tree: a power of two >= nlinks */
    int64_t *tkey;    /* [2 * tleaves] the key of each node's winner: at leaf
                         tleaves + l, link l's next decision (INT64_MAX: none) */
    int *twin;        /* [2 * tleaves] the tree: the winning link of each node */
    NTr *tr;          /* transfer slots */
    NHop *hop;        /* [captr << hshift] */
    int captr, freetr;
    NPiece *pc;
    int cappc, freepc;
    int64_t net_now;  /* time of the last decision taken */
    bool woke;        /* the last decision woke a DSP */
    int64_t *sortbuf; /* [2 * captr] (key, slot) pairs of the snapshot */
    int *rank;        /* [captr] a slot's place in the snapshot */
    /* the sweep (no contention, nothing recorded): [maxops] each, indexed like code */
    int *sorder; /* the operations in a topological order of one iteration */
    int *sdeg;   /* dependences within an iteration still unmet (Kahn) */
    int *sxs;    /* the one operation of another DSP that waits for this one, or -1 */
    int *sdsp;   /* the DSP of each operation */
    int *stask;  /* [ntasks] the COMPUTE operation of each task */
    SOp *sop;    /* the operations in sorder's order */
    EMsg **szc;  /* [maxmsgs] ev->zc as pointers */
    /* what compile read of the platform (cplat: the times of its messages and
     * operations) and of the schedule besides ev->code and ev->msg; and whether the last
     * compile was that of eval_length / eval_length_below, which returned mlen for the
     * cutoff mcut (memo_same) */
    const Platform *cp;
    int cnd;
    int64_t cplat[7];
    bool mvalid;
    int64_t mlen, mcut;
};

static int64_t
ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static void *
xrealloc(void *p, size_t n, size_t size)
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
static void
ring_resize(EMsg *em, int64_t r, int64_t from)
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
            ring_resize(em, ev->mask + 1, 0);
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
        ev->woke = true;
    }
}

/* Arrival of transfer (m, x); -1 when it cannot be known yet. */
static inline int64_t
arrival(const Evaluator *ev, const EMsg *em, int64_t x)
{
    if (ev->cont)
        return em->narr > x ? em->ring[x & em->mask].arr : -1;
    if (em->nissue <= x || (!em->eager && em->npost <= x))
        return -1;
    int64_t is = em->ring[x & em->mask].issue, dep = is + (em->eager ? em->hs : 0);
    if (!em->eager) {
        int64_t po = em->ring[x & em->mask].post;
        dep = (is > po ? is : po) + em->hs;
    }
    return dep + em->fabric;
}

/* ---- the network (contention): see the top of the file --------------------------- */

#define HOP(ev, id) (&(ev)->hop[id])
#define SLOT(ev, id) ((id) >> (ev)->hshift)
#define HOPNO(ev, id) ((id) & ((1 << (ev)->hshift) - 1))

/* The arbitration order of two transfers in the network: shorter message, then issue
 * time, source DSP, the source's send order (iteration, then position). */
static inline bool
tr_before(const Evaluator *ev, int a, int b)
{
    const NTr *x = &ev->tr[a], *y = &ev->tr[b];
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes;
    if (x->issue != y->issue)
        return x->issue < y->issue;
    if (x->src != y->src)
        return x->src < y->src;
    if (x->x != y->x)
        return x->x < y->x;
    return x->send_k < y->send_k;
}

static int64_t
ser(const NTr *tr, int64_t j)
{
    return j == tr->npk - 1 ? tr->ser_last : tr->ser_full;
}

static int64_t
piece_end(const Evaluator *ev, const NHop *h, int pc)
{
    int nx = ev->pc[pc].next;
    return nx >= 0 ? ev->pc[nx].start : h->lim;
}

/* End of the run that link l serves: packets sj0 .. b - 1 back to back from ss. */
static int64_t
run_end_at(const NTr *tr, const NLink *l, int64_t b)
{
    if (b == tr->npk)
        return l->ss + (b - 1 - l->sj0) * tr->ser_full + tr->ser_last;
    return l->ss + (b - l->sj0) * tr->ser_full;
}

static int64_t
run_end(const Evaluator *ev, const NLink *l)
{
    const NHop *h = HOP(ev, l->cur);
    return run_end_at(&ev->tr[SLOT(ev, l->cur)], l, piece_end(ev, h, h->head));
}

/* -- the decisions in time order: a tournament tree over the links --
 * Leaf P + l of the tree holds link l and its next decision (INT64_MAX: none), every
 * inner node the link of the smaller key of its children and that key, the left one on
 * a tie, so the root (twin[1], tkey[1]) is the first decision by (at, link id).  An
 * update replays the log2(P) matches above one leaf, carrying the winner so far: each
 * match reads only the sibling, which the update does not change. */

static inline void
tree_set(Evaluator *ev, int l, int64_t key)
{
    int64_t *tk = ev->tkey;
    int *tw = ev->twin;
    int i = ev->tleaves + l, w = l;
    tk[i] = key;
    while (i > 1) {
        int64_t ks = tk[i ^ 1];
        int ws = tw[i ^ 1];
        /* the sibling is the left child when i is odd: it wins ties (keys are times,
         * >= 0, or INT64_MAX: key + 1 fits unsigned) */
        bool sib = (uint64_t)ks < (uint64_t)key + (uint64_t)(i & 1);
        key = sib ? ks : key;
        w = sib ? ws : w;
        i >>= 1;
        tk[i] = key;
        tw[i] = w;
    }
}

/* Sets the next decision of link l to time t (-1: none).  decide marks the link it
 * serves with at = INT64_MIN without touching the tree (it stays the first until its
 * schedule). */
static inline void
set_decision(Evaluator *ev, int l, int64_t t)
{
    NLink *k = &ev->link[l];
    if (t == k->at)
        return;
    k->at = t;
    tree_set(ev, l, t < 0 ? INT64_MAX : t);
}

/* -- slots and pieces -- */

/* The growth of the slots, pieces and candidate lists is out of line: rare, and the
 * allocations' fast paths are inlined into the hot loop. */
static __attribute__((noinline)) void
tr_grow(Evaluator *ev)
{
    int old = ev->captr, cap = old ? 2 * old : 64;
    ev->tr = xrealloc(ev->tr, (size_t)cap, sizeof *ev->tr);
    ev->hop = xrealloc(ev->hop, (size_t)cap << ev->hshift, sizeof *ev->hop);
    ev->sortbuf = xrealloc(ev->sortbuf, 2 * (size_t)cap, sizeof *ev->sortbuf);
    ev->rank = xrealloc(ev->rank, (size_t)cap, sizeof *ev->rank);
    for (int i = cap - 1; i >= old; i--) {
        ev->tr[i].m = -1;
        ev->tr[i].next = ev->freetr;
        ev->freetr = i;
    }
    ev->captr = cap;
}

static int
tr_alloc(Evaluator *ev)
{
    if (ev->freetr < 0)
        tr_grow(ev);
    int s = ev->freetr;
    ev->freetr = ev->tr[s].next;
    return s;
}

static void
tr_release(Evaluator *ev, int s)
{
    ev->tr[s].m = -1;
    ev->tr[s].next = ev->freetr;
    ev->freetr = s;
}

static __attribute__((noinline)) void
pc_grow(Evaluator *ev)
{
    int old = ev->cappc, cap = old ? 2 * old : 256;
    ev->pc = xrealloc(ev->pc, (size_t)cap, sizeof *ev->pc);
    for (int i = cap - 1; i >= old; i--) {
        ev->pc[i].next = ev->freepc;
        ev->freepc = i;
    }
    ev->cappc = cap;
}

static inline int
pc_alloc(Evaluator *ev, int64_t start, int64_t avail)
{
    if (ev->freepc < 0)
        pc_grow(ev);
    int p = ev->freepc;
    ev->freepc = ev->pc[p].next;
    ev->pc[p] = (NPiece){start, avail, -1};
    return p;
}

static void
pc_release(Evaluator *ev, int p)
{
    ev->pc[p].next = ev->freepc;
    ev->freepc = p;
}

static __attribute__((noinline)) void
cand_grow(NLink *k)
{
    k->capcand = k->capcand ? 2 * k->capcand : 4;
    k->cand = xrealloc(k->cand, (size_t)k->capcand, sizeof *k->cand);
}

/* A link's candidates are kept in the order of their avail (ties in the order they
 * came): a decision at t looks only at those ready by t (decide), the next one of an
 * idle link is the first (schedule).  Most of a busy link's candidates are packets
 * still on their way to it: on a 128-point FFT on two boards, going through all of
 * them at every decision was half of the contended evaluation. */
static inline void
cand_add(Evaluator *ev, int l, int id)
{
    NLink *k = &ev->link[l];
    if (k->ncand == k->capcand)
        cand_grow(k);
    NHop *h = HOP(ev, id);
    h->cpos = 0;
    int64_t av = ev->pc[h->head].avail;
    int lo = 0, hi = k->ncand;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (k->cand[mid].avail <= av)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(&k->cand[lo + 1], &k->cand[lo], (size_t)(k->ncand - lo) * sizeof *k->cand);
    k->cand[lo] = (NCand){av, id};
    k->ncand++;
}

static inline void
cand_remove(Evaluator *ev, int l, int id)
{
    NLink *k = &ev->link[l];
    int i = 0;
    while (k->cand[i].id != id)
        i++;
    k->ncand--;
    memmove(&k->cand[i], &k->cand[i + 1], (size_t)(k->ncand - i) * sizeof *k->cand);
    HOP(ev, id)->cpos = -1;
}

/* -- decisions -- */

/* The last packet of the transfer in slot s starts on its last link now: it arrives at
 * `end`. */
static inline __attribute__((always_inline)) void
finalize(Evaluator *ev, int s, int64_t end)
{
    NTr *tr = &ev->tr[s];
    EMsg *em = &ev->msg[tr->m];
    tr->fin = true;
    if (em->narr != tr->x)
        ice("transfers of message %d arrive out of order", tr->m);
    em->ring[tr->x & em->mask].arr = end;
    em->narr = tr->x + 1;
    int m = tr->m; /* wake only a DSP waiting for this very transfer */
    if (ev->wait_m[em->src] == m && ev->wait_x[em->src] == tr->x)
        wake(ev, em->src);
    if (ev->wait_m[em->dst] == m && ev->wait_x[em->dst] == tr->x)
        wake(ev, em->dst);
}

/* Link l's run is over (its piece fully sent): the hop's next piece, if any, waits. */
static inline void
retire(Evaluator *ev, int l)
{
    NLink *k = &ev->link[l];
    int id = k->cur, s = SLOT(ev, id);
    NHop *h = HOP(ev, id);
    k->cur = -1;
    int p = h->head;
    h->head = ev->pc[p].next;
    if (h->head < 0)
        h->tail = -1;
    pc_release(ev, p);
    if (h->head >= 0)
        cand_add(ev, l, id);
    else if (h->lim == ev->tr[s].npk && --ev->tr[s].live == 0)
        tr_release(ev, s);
}

/* Recomputes when link l must next decide: the end of its run when something waits for
 * the link, the start of the last packet of a transfer on its last link (the arrival is
 * known then), the first packet boundary at which a better packet is ready; an idle link,
 * when its first candidate is ready.  A run that ended before now with nothing waiting
 * is retired here. */
static inline __attribute__((always_inline)) void
schedule(Evaluator *ev, int l)
{
    NLink *k = &ev->link[l];
    int64_t t = -1;
    if (k->cur >= 0) {
        int s = SLOT(ev, k->cur);
        const NTr *tr = &ev->tr[s];
        const NHop *h = HOP(ev, k->cur);
        int nx = ev->pc[h->head].next;
        int64_t b = nx >= 0 ? ev->pc[nx].start : h->lim, e = run_end_at(tr, k, b);
        bool need = k->ncand > 0 || nx >= 0;
        if (e < ev->net_now || (e == ev->net_now && !need)) {
            retire(ev, l);
        } else {
            int64_t sf = tr->ser_full;
            if (need)
                t = e;
            if (b == tr->npk && HOPNO(ev, k->cur) == tr->nh - 1 && !tr->fin) {
                int64_t f = k->ss + (tr->npk - 1 - k->sj0) * sf;
                if (t < 0 || f < t)
                    t = f;
            }
            int64_t a = -1; /* the first ready of those before the run */
            for (int c = 0; c < k->ncand && a < 0; c++)
                if (tr_before(ev, SLOT(ev, k->cand[c].id), s))
                    a = k->cand[c].avail;
            if (a >= 0) {
                int64_t bd = k->ss + ceil_div(a - k->ss, sf) * sf;
                if (bd < e && (t < 0 || bd < t))
                    t = bd;
            }
            set_decision(ev, l, t);
            return;
        }
    }
    if (k->ncand > 0)
        t = k->cand[0].avail;
    set_decision(ev, l, t);
}

/* Packets j and on of the transfer in slot s will not come to hops h0 and later as
 * projected: the run upstream was cut there. */
static void
truncate_from(Evaluator *ev, int s, int h0, int64_t j)
{
    const NTr *em = &ev->tr[s];
    for (int hn = h0; hn < em->nh; hn++) {
        int id = s << ev->hshift | hn;
        NHop *h = HOP(ev, id);
        if (h->lim <= j)
            break;
        h->lim = j;
        int prev = -1;
        for (int p = h->head; p >= 0; p = ev->pc[p].next) {
            if (ev->pc[p].start >= j) {
                if (prev >= 0)
                    ev->pc[prev].next = -1;
                else
                    h->head = -1;
                h->tail = prev;
                while (p >= 0) {
                    int nx = ev->pc[p].next;
                    pc_release(ev, p);
                    p = nx;
                }
                break;
            }
            prev = p;
        }
        int l = ev->route[em->rbeg + hn];
        if (ev->link[l].cur == id) {
            schedule(ev, l);
        } else if (h->head < 0 && h->cpos >= 0) {
            cand_remove(ev, l, id);
            schedule(ev, l);
        }
    }
}

/* Link l starts, at time t, the first piece of hop id. */
static void
start_run(Evaluator *ev, int l, int id, int64_t t)
{
    NLink *k = &ev->link[l];
    int s = SLOT(ev, id), hn = HOPNO(ev, id);
    const NTr *em = &ev->tr[s];
    cand_remove(ev, l, id);
    NHop *h = HOP(ev, id);
    k->cur = id;
    k->ss = t;
    k->sj0 = ev->pc[h->head].start;
    int64_t b = piece_end(ev, h, h->head);
    if (hn + 1 < em->nh) { /* the packets reach the next switch one after the other */
        int nid = id + 1;
        NHop *nh = HOP(ev, nid);
        if (nh->lim != k->sj0)
            ice("packets of transfer %d reach hop %d out of order", s, hn + 1);
        nh->lim = b;
        int p = pc_alloc(ev, k->sj0, t + ser(em, k->sj0) + ev->swl);
        if (nh->tail >= 0)
            ev->pc[nh->tail].next = p;
        else
            nh->head = p;
        nh->tail = p;
        int nl = ev->route[em->rbeg + hn + 1];
        if (ev->link[nl].cur == nid) {
            schedule(ev, nl);
        } else if (nh->head == p) {
            cand_add(ev, nl, nid);
            schedule(ev, nl);
        }
    } else if (k->sj0 == em->npk - 1) {
        finalize(ev, s, t + em->ser_last);
    }
}

/* Link l decides at time t (a packet boundary of its run, or idle): of its run's next
 * packet and the candidates ready by t, the first in arbitration order goes. */
static void
decide(Evaluator *ev, int l, int64_t t)
{
    NLink *k = &ev->link[l];
    ev->net_now = t;
    k->at = INT64_MIN; /* taken (l stays first in the tree until schedule) */
    int64_t jt = -1;
    if (k->cur >= 0) {
        if (t >= run_end(ev, k))
            retire(ev, l);
        else
            jt = k->sj0 + (t - k->ss) / ev->tr[SLOT(ev, k->cur)].ser_full;
    }
    int best = -1; /* of the candidates ready by t, the first in arbitration order */
    for (int c = 0; c < k->ncand && k->cand[c].avail <= t; c++) {
        int id = k->cand[c].id;
        if (best < 0 || tr_before(ev, SLOT(ev, id), SLOT(ev, best)))
            best = id;
    }
    if (k->cur >= 0) {
        int id = k->cur, s = SLOT(ev, id);
        const NTr *em = &ev->tr[s];
        if (best < 0 || tr_before(ev, s, SLOT(ev, best))) { /* the run goes on */
            if (jt == em->npk - 1 && HOPNO(ev, id) == em->nh - 1 && !ev->tr[s].fin)
                finalize(ev, s, t + em->ser_last);
            schedule(ev, l);
            return;
        }
        /* cut: the rest of the piece waits, ready now; downstream nothing of it yet */
        NHop *h = HOP(ev, id);
        ev->pc[h->head].start = jt;
        ev->pc[h->head].avail = t;
        k->cur = -1;
        cand_add(ev, l, id);
        truncate_from(ev, s, HOPNO(ev, id) + 1, jt);
    }
    if (best >= 0)
        start_run(ev, l, best, t);
    schedule(ev, l);
}

/* Transfer (m, x) departs at time `depart`: all its packets wait for the first link. */
static void
net_depart(Evaluator *ev, int m, int64_t x, int64_t depart)
{
    EMsg *em = &ev->msg[m];
    int s = tr_alloc(ev);
    NTr *tr = &ev->tr[s];
    tr->m = m;
    tr->x = x;
    tr->issue = em->ring[x & em->mask].issue;
    tr->depart = depart;
    tr->live = em->nh;
    tr->fin = false;
    tr->src = em->src;
    tr->send_k = em->send_k;
    tr->nh = em->nh;
    tr->rbeg = em->rbeg;
    tr->bytes = em->bytes;
    tr->npk = em->npk;
    tr->ser_full = em->ser_full;
    tr->ser_last = em->ser_last;
    for (int hn = 0; hn < em->nh; hn++)
        ev->hop[s << ev->hshift | hn] = (NHop){0, -1, -1, -1};
    NHop *h = HOP(ev, s << ev->hshift);
    h->lim = em->npk;
    h->head = h->tail = pc_alloc(ev, 0, depart);
    int l = ev->route[em->rbeg];
    cand_add(ev, l, s << ev->hshift);
    schedule(ev, l);
}

/* Takes the network's decisions in time order while they are earlier than lb (no DSP
 * can depart a transfer before lb), until one wakes a DSP. */
static void
net_advance(Evaluator *ev, int64_t lb)
{
    ev->woke = false;
    while (!ev->woke) {
        int l = ev->twin[1];
        int64_t t = ev->tkey[1];
        if (t >= lb)
            break;        /* INT64_MAX: no decision left */
        decide(ev, l, t); /* ends with schedule(l), which moves l in the tree */
    }
}

/* Departs every transfer of em whose issue and post are both known (contention). */
static void
try_depart(Evaluator *ev, int m)
{
    EMsg *em = &ev->msg[m];
    while (em->ndep < em->nissue && (em->eager || em->ndep < em->npost)) {
        int64_t x = em->ndep, is = em->ring[x & em->mask].issue, dep = is;
        if (!em->eager) {
            int64_t po = em->ring[x & em->mask].post;
            dep = (is > po ? is : po) + em->hs;
        }
        em->ring[x & em->mask].dep = dep;
        em->ndep = x + 1;
        net_depart(ev, m, x, dep);
    }
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
    ring_resize(em, r, from);
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

static bool find_period(Evaluator *ev, int nd, int64_t lo);

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
                if (find_period(ev, ev->nd, i)) {
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
                try_depart(ev, c->ref);
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
                    try_depart(ev, c->ref);
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
                    try_depart(ev, c->ref);
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
static void
snap_room(Evaluator *ev, size_t z)
{
    if (z <= ev->snapcap)
        return;
    size_t cap = ev->snapcap;
    while (cap < z)
        cap *= 2;
    ev->snap = xrealloc(ev->snap, cap, sizeof *ev->snap);
    ev->saved = xrealloc(ev->saved, cap, sizeof *ev->saved);
    ev->snapcap = cap;
}

static int
cmp_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : 0;
}

/* Appends the network's state to the snapshot at z; returns the new size. */
static size_t
snapshot_net(Evaluator *ev, size_t z, int64_t lo, int64_t tb)
{
    for (int l = 0; l < ev->nlinks; l++) /* retire the runs that are over */
        if (ev->link[l].cur >= 0)
            schedule(ev, l);
    /* the transfers in the network, by (message, transfer) */
    int nt = 0;
    for (int s = 0; s < ev->captr; s++)
        if (ev->tr[s].m >= 0) {
            ev->sortbuf[2 * nt] =
                (int64_t)ev->tr[s].m << 32 | (int64_t)(uint32_t)(ev->tr[s].x - lo + 1000);
            ev->sortbuf[2 * nt + 1] = s;
            nt++;
        }
    if (nt > 1) /* sortbuf is NULL while no transfer was ever sorted */
        qsort(ev->sortbuf, (size_t)nt, 2 * sizeof *ev->sortbuf, cmp_pair);
    snap_room(ev, z + 3 + 3 * (size_t)ev->nlinks + 6 * (size_t)nt);
    int64_t *o = ev->snap;
    o[z++] = ev->net_now - tb;
    o[z++] = nt;
    for (int r = 0; r < nt; r++) {
        int s = (int)ev->sortbuf[2 * r + 1];
        const NTr *tr = &ev->tr[s];
        const EMsg *em = &ev->msg[tr->m];
        ev->rank[s] = r;
        size_t need = 6 + 2 * (size_t)em->nh;
        for (int hn = 0; hn < em->nh; hn++)
            for (int p = ev->hop[s << ev->hshift | hn].head; p >= 0; p = ev->pc[p].next)
                need += 2;
        snap_room(ev, z + need + 3 * (size_t)ev->nlinks + 6 * (size_t)(nt - r));
        o = ev->snap;
        o[z++] = tr->m;
        o[z++] = tr->x - lo;
        o[z++] = tr->issue - tb;
        o[z++] = tr->depart - tb;
        o[z++] = tr->fin;
        o[z++] = tr->live;
        for (int hn = 0; hn < em->nh; hn++) {
            const NHop *h = &ev->hop[s << ev->hshift | hn];
            o[z++] = h->lim;
            size_t at = z++;
            int cnt = 0;
            for (int p = h->head; p >= 0; p = ev->pc[p].next, cnt++) {
                o[z++] = ev->pc[p].start;
                o[z++] = ev->pc[p].avail - tb;
            }
            o[at] = cnt;
        }
    }
    for (int l = 0; l < ev->nlinks; l++) {
        const NLink *k = &ev->link[l];
        if (k->cur < 0) {
            o[z++] = -1;
        } else {
            o[z++] = (int64_t)ev->rank[SLOT(ev, k->cur)] * ev->maxh + HOPNO(ev, k->cur);
            o[z++] = k->ss - tb;
            o[z++] = k->sj0;
        }
        o[z++] = k->at >= 0 ? k->at - tb : INT64_MIN;
    }
    return z;
}

static size_t
snapshot(Evaluator *ev, int nd, int64_t lo, int64_t tb)
{
    size_t z = 0;
    snap_room(ev, 2 + (size_t)ev->nqueue + 4 * (size_t)nd);
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
        snap_room(ev, z + 5 + (size_t)(ni > 0 ? ni : 0) + (size_t)(np > 0 ? np : 0) +
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
        z = snapshot_net(ev, z, lo, tb);
    return z;
}

/* Shifts the network by sh iterations and dt cycles (a skip of whole periods). */
static void
shift_net(Evaluator *ev, int64_t sh, int64_t dt)
{
    for (int s = 0; s < ev->captr; s++) {
        NTr *tr = &ev->tr[s];
        if (tr->m < 0)
            continue;
        tr->x += sh;
        tr->issue += dt;
        tr->depart += dt;
        for (int hn = 0; hn < ev->msg[tr->m].nh; hn++)
            for (int p = ev->hop[s << ev->hshift | hn].head; p >= 0; p = ev->pc[p].next)
                ev->pc[p].avail += dt;
    }
    for (int l = 0; l < ev->nlinks; l++) {
        NLink *k = &ev->link[l];
        for (int c = 0; c < k->ncand; c++)
            k->cand[c].avail += dt;
        k->ss += dt;
        if (k->at >= 0) {
            k->at += dt;
            tree_set(ev, l, k->at);
        }
    }
    ev->net_now += dt;
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
static bool
find_period(Evaluator *ev, int nd, int64_t lo)
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
            shift_net(ev, sh, dt);
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

/* An empty network: every link idle, every slot and piece free. */
static void
net_reset(Evaluator *ev)
{
    for (int l = 0; l < ev->nlinks; l++) {
        NLink *k = &ev->link[l];
        k->cur = -1;
        k->ncand = 0;
        k->at = -1;
    }
    for (int i = 0; i < ev->tleaves; i++) {
        ev->tkey[ev->tleaves + i] = INT64_MAX;
        ev->twin[ev->tleaves + i] = i;
    }
    for (int i = ev->tleaves - 1; i > 0; i--) { /* every key equal: the left one wins */
        ev->tkey[i] = INT64_MAX;
        ev->twin[i] = ev->twin[2 * i];
    }
    ev->freetr = -1;
    for (int s = ev->captr - 1; s >= 0; s--)
        tr_release(ev, s);
    ev->freepc = -1;
    for (int p = ev->cappc - 1; p >= 0; p--)
        pc_release(ev, p);
    ev->net_now = -1;
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
    ev->every = ev->cont ? 1 : 8;
    ev->countdown = ev->every;
    ev->probe = -1;
    for (int d = 0; d < nd && ev->probe < 0; d++)
        if (ev->code_off[d + 1] > ev->code_off[d])
            ev->probe = d;
    for (int m = 0; m < s->nmsgs; m++)
        ev->msg[m].nissue = ev->msg[m].npost = ev->msg[m].ndep = ev->msg[m].narr = 0;
    if (ev->cont)
        net_reset(ev);
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
            net_advance(ev, lb);
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
static bool
sweep_order(Evaluator *ev, const Sched *s)
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
static int64_t
sweep(Evaluator *ev, const Sched *s)
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

/* The length: by the sweep where it applies, else by simulate. */
static int64_t
length_of(Evaluator *ev, const Sched *s)
{
    if (ev->cont || s->g->iterations < 1 || s->g->iterations > SWEEP_MAX_ITERATIONS)
        return simulate(ev, s);
    compile(ev, s);
    if (!sweep_order(ev, s))
        return simulate(ev, s);
    return sweep(ev, s);
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
