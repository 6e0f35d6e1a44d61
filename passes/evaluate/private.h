/*
 * passes/evaluate/private.h - what the files of the evaluator share (not part of the IR:
 * ir/ir.h declares the evaluator's API): the compiled schedule (COp, EMsg), the state of
 * the DSPs and of the network (struct Evaluator), and one section per file.
 *
 *   evaluate.c  the workspace, compile, the length with its memo, eval_run, deadlocks
 *   simulate.c  the DSPs as a max-plus system: run, simulate (docs/design.md section 3)
 *   network.c   the links with contention (section 4): trains, arbitration, departures
 *   steady.c    long runs: the snapshot and the skip of whole periods (find_period)
 *   sweep.c     without contention: the iteration-by-iteration sweep and its skip
 */
#ifndef TGC_EVALUATE_PRIVATE_H
#define TGC_EVALUATE_PRIVATE_H

#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { ST_RUN, ST_BLOCKED, ST_WINDOW, ST_DONE, ST_CUT };

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
    int64_t n_run; /* eval_period: the iterations compile gives the run instead of the
                      graph's, 0 = the graph's */
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
    /* the first repetition the run found (eval_period): every p_c iterations from
     * iteration p_from on, the run repeats p_delta cycles later */
    bool p_found;
    int64_t p_c, p_delta, p_from;
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

static inline int64_t
ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static inline void
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

/* evaluate.c */
/* realloc of n * size bytes; an internal error on overflow or out of memory */
void *ev_xrealloc(void *p, size_t n, size_t size);
/* Gives message em rings of at least r entries (a power of two), keeping transfers
 * [from, max(nissue, npost)). */
void ev_ring_resize(EMsg *em, int64_t r, int64_t from);
/* Compiles the schedule into ev->code and ev->msg. */
void ev_compile(Evaluator *ev, const Sched *s);

/* simulate.c */
/* Runs every DSP to its end: the length, EVAL_NOT_BELOW at the cutoff, or -1 on deadlock
 * (the DSPs are then left in their blocked states for find_cycle). */
int64_t ev_simulate(Evaluator *ev, const Sched *s);

/* network.c */
void ev_try_depart(Evaluator *ev, int m);       /* departs what em can (contention) */
void ev_net_advance(Evaluator *ev, int64_t lb); /* the decisions before lb */
void ev_net_reset(Evaluator *ev);               /* an empty network */
/* The network's part of the snapshot (steady.c), appended at z: the new size. */
size_t ev_snapshot_net(Evaluator *ev, size_t z, int64_t lo, int64_t tb);
void ev_shift_net(Evaluator *ev, int64_t sh, int64_t dt); /* a skip of whole periods */

/* steady.c */
/* At every 8th end of an iteration of the probe DSP: true after skipping periods. */
bool ev_find_period(Evaluator *ev, int nd, int64_t lo);
void ev_snap_room(Evaluator *ev, size_t z); /* room for z values in the snapshots */

/* sweep.c */
/* After ev_compile: whether the sweep applies (else simulate); its length. */
bool ev_sweep_order(Evaluator *ev, const Sched *s);
int64_t ev_sweep(Evaluator *ev, const Sched *s);

#endif /* TGC_EVALUATE_PRIVATE_H */
