/*
 * passes/bfco/bfco_int.h - what passes/bfco/ shares with passes/baselines.c, the
 * scheduler (the cp baseline's pipelining rule) and the tests (not part of the IR: the
 * workspace of one optimisation run).
 *
 * A Space is the problem: the base schedule's messages ("units"), their classes (same
 * source DSP, destination DSP and delay), the fixed PATH entries and the decision bits.
 * A Worker is one thread's workspace: a merge state (a label per unit), the schedule it
 * builds in place (ws) and an Evaluator.  Nothing in a Worker is shared, so workers run
 * in parallel.
 */
#ifndef TGC_BFCO_INT_H
#define TGC_BFCO_INT_H

#include "ir.h"

typedef struct Space {
    const Sched *base;
    const Graph *g;
    const Platform *p;
    /* p without contention: its lengths are lower bounds of p's (docs/bfco.md); valid
     * when has_free */
    Platform pfree;
    bool has_free;
    int M, D, T; /* units (base messages), DSPs, tasks */
    int *cls;    /* [M] class of each unit, numbered by first unit */
    int ncls;
    int *cls_off; /* [ncls + 1] units of class c: cls_units[cls_off[c] .. cls_off[c+1]) */
    int *cls_units; /* in send order (the slot of the unit's SEND on its source DSP) */
    int *ssl,
        *rsl;  /* [M] slot of the unit's SEND on its source, RECV on its destination */
    int words; /* 64-bit words per reachability row */
    uint64_t *desc; /* [M * words]: units whose SEND is reachable from the unit's SEND */
    int window;     /* bits join units at most this far apart in their class's send
                       order; 0 = every pair */
    int nbits;      /* decision variables: same-class pairs within the window, no path */
    int *bu, *bv;   /* [nbits] the pair of bit b, by class, then send rank of bu, bv */
    int64_t *rbuf;  /* [D] receive buffer bytes of the base schedule per DSP */
    int maxops;     /* largest nops of the base */
    /* per task, for the repair: zero-delay producers (the cycle repair's count), inputs
     * the order adjustment waits for (messages and zero-delay edges), and the units of
     * its delayed outgoing edges, one per edge: tdl_u[tdl_off[t] .. tdl_off[t + 1]) */
    int *tzero, *tin, *tdl_off, *tdl_u;
} Space;

typedef struct Worker Worker;

/* The space of base with bits for same-class pairs at most `window` apart in send order
 * (0: every pair). */
Space *bfco_space_new(const Sched *base, int window);
void bfco_space_free(Space *sp);
bool bfco_path(const Space *sp, int u,
               int v); /* a dependence path between the two sends */

Worker *bfco_worker_new(const Space *sp);
void bfco_worker_free(Worker *w);
const Sched *bfco_worker_sched(const Worker *w); /* the schedule last built */
int64_t bfco_worker_evals(const Worker *w);
/* Tests: exact = true evaluates every candidate of bfco_pipelines with contention, also
 * those a lower bound shows cannot be kept (the same result, more evaluations). */
void bfco_worker_exact(Worker *w, bool exact);
/* What the repair had to do so far: groups split by the cycle repair, merges released
 * because the order traversal found nothing enabled, and merges released on a deadlock
 * the evaluator reported.  The last two are safety nets that should never fire. */
void bfco_worker_repairs(const Worker *w, int64_t *splits, int64_t *order_releases,
                         int64_t *deadlock_releases);

/* Merge state.  Labels: units with equal labels are merged (0 <= label < 2 * M). */
void bfco_set_labels(Worker *w, const int *label);
/* Groups from a bit vector (transitive), Algorithm 1 applied while uniting. */
void bfco_groups_from_bits(Worker *w, const uint8_t *bits);
/* Groups of the ma baseline: every same-class pair in unit order, Algorithm 1 applied
 * while uniting (independent of the window). */
void bfco_groups_all(Worker *w);
void bfco_bits_from_groups(const Worker *w,
                           uint8_t *bits); /* canonical bits of the groups */
/* Cycles, order adjustment, dynamic check.  With release, merges are released until the
 * schedule is deadlock-free (*released counts them); without, the first problem fails.
 * Builds the schedule without pipelines.  Returns its length, or -1. */
int64_t bfco_repair(Worker *w, bool release, int *released);
/* A point of the search (its merge bits): the groups of bits, repaired as the search
 * repairs them (static repair with release, again until the repaired bits make the
 * groups repaired); bits get the repaired bits, and a point so repaired is its own
 * repair.  Builds the schedule without pipelines; returns its length, or -1. */
int64_t bfco_repair_bits(Worker *w, uint8_t *bits, int *released);
/* No repair: merged send at the last member's slot, receive at the first member's. */
void bfco_build_naive(Worker *w);
int bfco_ngroups(const Worker *w);
bool bfco_pipeable(const Worker *w, int grp);
/* The pipelining rule of the cp baseline on any schedule, shared with the scheduler's
 * local search (passes/schedule/): a receive can be pipelined when its message is not
 * eager (bfco_msg_pipeable), and cp pipelines, in message order, each such receive whose
 * second buffer still fits in its DSP's memory next to rbuf[] (bfco_recv_buffers: every
 * receive buffer of s, a ring of max(delay, 1) slots per message) and the pipelines
 * before it.  pipe[] gets a flag per message of s; x is scratch of s->ndsps.  Allocates
 * nothing. */
bool bfco_msg_pipeable(const Platform *p, const Msg *m);
void bfco_recv_buffers(const Sched *s, int64_t *rbuf);
void bfco_cp_pipes(const Sched *s, const int64_t *rbuf, int64_t *x, bool *pipe);
bool bfco_mem_ok(const Worker *w, const bool *pipe);
/* Sets the pipelined flags of the built schedule and evaluates it (-1 on deadlock). */
int64_t bfco_eval_pipes(Worker *w, const bool *pipe);
/* The paper's pipelining on the built schedule whose length without pipelines is L0:
 * greedy, TIS/TEIR pruning, Algorithm 2.  Leaves the best pipeline set found in the
 * schedule and returns its length.  L0 = BFCO_L0_LAZY: not evaluated yet, and lb (>= 0)
 * a lower bound of it; it is then evaluated only if the result depends on it (the
 * result is the same). */
enum { BFCO_L0_LAZY = -3 };
int64_t bfco_pipelines(Worker *w, double epsilon, int64_t L0, int64_t lb);
/* The length of the built schedule, as built, without contention: a lower bound of its
 * length (-1 on deadlock; -2 when the platform has no contention to leave out). */
int64_t bfco_eval_free(Worker *w);
/* eval_new_bound on the built schedule: below its length with any pipelines, with and
 * without contention (-1 on deadlock). */
int64_t bfco_eval_bound(Worker *w);
void bfco_set_pipes(Worker *w, const bool *pipe); /* the flags of the built schedule */
int64_t bfco_worker_bound_evals(const Worker *w); /* bfco_eval_free, bfco_eval_bound */
void bfco_greedy_pipes(Worker *w, bool *pipe);
/* Drops from pipe the pipelines with TIS >= TEIR * (1 - epsilon) (docs/bfco.md); true if
 * any was dropped. */
bool bfco_prune_tis_teir(Worker *w, bool *pipe, double epsilon);

/* BPSO over the space (passes/bfco/swarm.c). */
int bfco_search(const Space *sp, const BfcoParams *bp, Sched **out, OptStats *st);

#endif /* TGC_BFCO_INT_H */
