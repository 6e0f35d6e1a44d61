/*
 * passes/bfco/private.h - what the files of passes/bfco/ share (bfco_int.h is what the
 * folder shows to passes/baselines.c, the scheduler and the tests): the worker's
 * workspace, the cache tables, and one section of prototypes per file.
 */
#ifndef TGC_BFCO_PRIVATE_H
#define TGC_BFCO_PRIVATE_H

#include <stdint.h>

#include "bfco_int.h"

/* Up to this many messages the default descent goes on to a local optimum even when one
 * of its passes does not fit in its budget (descent_reach): there converging costs at
 * most about as much again as the rest of the search (a 64-point FFT of 620 messages:
 * 1.9 -> 3.8 s, 13 % shorter; 700 random tasks of 691 messages: 0.34 -> 0.69 s), at 984
 * messages (the 1000-task case) 3.2 times as much. */
#define DESCENT_CONVERGE_MAX 800

/* A table of lengths keyed by two 64-bit hashes of a repaired merge (bfco_key_of). */
typedef struct Cache {
    int cap, n;
    uint64_t *h1, *h2; /* h1 == 0: empty (h1 is never 0) */
    int64_t *f;
} Cache;

struct Worker {
    const Space *sp;
    bool exact; /* tests: every candidate of the pipelines evaluated with contention */
    Evaluator *ev;
    Evaluator *evf; /* without contention (sp->has_free), else NULL */
    Evaluator *evb; /* eval_new_bound: below every pipeline choice */
    Sched *ws;
    int64_t evals;
    int64_t fevals;              /* evaluations without contention (bounds) */
    int64_t *teir;               /* [D] */
    int64_t nsplit, nord, ndead; /* bfco_worker_repairs */
    int *label;                  /* [M] */
    int *lab2g;                  /* [2M] scratch, -1 */
    int G;                       /* groups */
    int *gidx;                   /* [M] unit -> group */
    int *gbeg, *gcnt, *gm; /* members of group g: gm[gbeg[g] .. + gcnt[g]), ascending */
    int *gkey_s, *gkey_r;  /* [M] send slot (last member), receive slot (first member) */
    int *uf, *ufnext, *ufhead, *uftail; /* union-find with member lists */
    int *scratch;                       /* [M] */
    /* cycle repair: what each task, unit and group still waits for */
    int *tneed, *uneed, *sneed, *kstk, *cand;
    bool *incand;
    /* merged dependence graph: tasks, SEND nodes T+g, RECV nodes T+G+g */
    int nn, *soff, *sadj, *poff, *padj, *eu, *ev2, *fill1, *fill2;
    int *stk, *stamp, stampv;
    /* order adjustment */
    Op *q;                 /* [sum nops] desired sequences */
    int *qoff, *qn, *head; /* [D+1], [D], [D] */
    bool *taken;
    int *need, *qdsp, *heap, *hn, *tent, *sent, *rent;
    int *cq, *cqh, *cqt; /* per class, a FIFO of groups: cq[cqh[c] .. cqt[c]) */
    int *tpos, *rpos;
    bool *pipe, *bestpipe, *gpipe;
    int64_t *cnt;
    int *ord;
    int *epool; /* [nedges] edge lists of the built messages */
    /* the descent's tables (descent.c, commit): by repaired merge its contention-free
     * (sur) and contended (con) lengths; the input partitions met before (pre): hash ->
     * entry i, whose repaired merge bits are pre_bits[i * words ..) (packed), its
     * contention-free length pre_f[i] */
    Cache sur, con, pre;
    bool tables;     /* the tables are used (BfcoParams.no_tables off) */
    bool csur;       /* the surrogate is the contended length (probe) */
    double deadline; /* ir_wall_seconds() at which the descent's passes stop
                        (--time-limit), or 0 */
    int pre_n, pre_cap;
    uint64_t *pre_bits;
    int64_t *pre_f;
};

typedef struct Key {
    uint64_t h1, h2;
    bool hit;    /* the fitness came from the cache */
    bool dyn;    /* the dynamic check released a merge: not cached */
    bool pruned; /* its bound was not below the threshold: not evaluated, not cached */
} Key;

static inline int
gfirst(const Worker *w, int k)
{
    return w->gm[w->gbeg[k]];
}

static inline int
gsize(const Worker *w, int k)
{
    return w->gcnt[k];
}

/* Is group k eager (its bytes at most eager_limit)?  An eager message leaves at its send
 * whatever its receiver does and is matched by id, so its receive is out of its class's
 * send order (passes/comm.c). */
static inline bool
geager(const Worker *w, int k)
{
    int64_t bytes = 0;
    for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++)
        bytes += w->sp->base->msgs[w->gm[j]].bytes;
    return bytes <= w->sp->base->p->eager_limit;
}

static inline double
urand(uint64_t *s)
{
    return (double)(ir_splitmix64(s) >> 11) * 0x1.0p-53;
}

/* worker.c */
void bfco_canonical(Worker *w);
int64_t bfco_eval(Worker *w);
int64_t bfco_eval_below(Worker *w, int64_t c);
int64_t bfco_free_below(Worker *w, int64_t c);
void bfco_regroup(Worker *w);

/* repair.c */
void bfco_merged_graph(Worker *w);
int bfco_release_on_deadlock(Worker *w);
int bfco_repair_point(Worker *w, uint8_t *x, int *nrel);
int bfco_repair_static(Worker *w, bool rel, int *nrel);

/* pipelines.c */
int64_t bfco_polish(Worker *w, int64_t L, int64_t budget, bool whole, bool all,
                    int64_t *used);

/* fitness.c */
void bfco_cache_free(Cache *c);
bool bfco_cache_get(const Cache *c, const Key *k, int64_t *f);
void bfco_cache_put(Cache *c, const Key *k, int64_t f);
int64_t bfco_fitness(Worker *w, uint8_t *x, const BfcoParams *bp, const Cache *c,
                     Key *key, int64_t thr);
int64_t bfco_fitness_groups(Worker *w, uint8_t *x, const BfcoParams *bp, const Cache *c,
                            Key *key, int64_t thr);
void bfco_key_of(const Worker *w, const uint8_t *x, bool joint, Key *k);
void bfco_labels_key(const Worker *w, Key *k);

/* descent.c */
int64_t bfco_descent(Worker **ws, int T, uint8_t *gb, int64_t gbf, const BfcoParams *bp,
                     int B, int P, int gen, uint64_t *rng, int64_t *tried);
int64_t bfco_fitness_moves(Worker *w, uint8_t *gb, int64_t gbf, const BfcoParams *bp,
                           int B, int64_t *tried);

/* swarm.c */
int64_t bfco_swarm_size(int P, int gen);

#endif /* TGC_BFCO_PRIVATE_H */
