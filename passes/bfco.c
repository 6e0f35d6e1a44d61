/*
 * passes/bfco.c - BFCO ([BFCO] (docs/references.md), docs/bfco.md): a binary particle
 * swarm search over message aggregation, with deadlock repair and greedy communication
 * pipelining.
 *
 * Requires: a schedule with one message per cross-DSP edge as comm_insert leaves it (or
 * any valid schedule: its messages are the units that merging combines).  Produces a new
 * schedule; the base is not changed.
 *
 * Encoding: the M sends give an M x M upper triangle; an entry is DIFFP when the two
 * sends differ in source DSP, destination DSP or delay, PATH when a dependence path joins
 * them, FAR when they are more than the window apart in their class's send order,
 * otherwise a decision bit (MA = 1, NOMA = 0).  The bits grow with M times the window,
 * not with M squared.  Merging is transitive: the bits set define groups by union.
 * Every particle is repaired in the paper's order, each step in one linear pass: path
 * conflicts inside a group (Algorithm 1), cycles in the merged dependence graph (a Kahn
 * traversal that splits the group it is stuck on), order adjustment (a traversal of the
 * desired sequences), then the evaluator as dynamic check.  The repaired groups are
 * written back into the particle.
 *
 * Invariant of a built schedule: its per-DSP order is a topological order of program
 * order plus the send -> receive edges of zero-delay messages, so no cycle of zero
 * iteration shift exists and the evaluator finds no deadlock (docs/design.md section 3).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bfco_int.h"

/* The default budgets of the descent (descent_budget) and of the polish count at least
 * this many generations: the budgets a swarm of a stall of 10 had when gbest moved only
 * in its first two, which a shorter stall on large schedules keeps. */
#define BUDGET_GENERATIONS 12

/* Up to this many messages the default descent goes on to a local optimum even when one
 * of its passes does not fit in its budget (descent_reach): there converging costs at
 * most about as much again as the rest of the search (a 64-point FFT of 620 messages:
 * 1.9 -> 3.8 s, 13 % shorter; 700 random tasks of 691 messages: 0.34 -> 0.69 s), at 984
 * messages (the 1000-task case) 3.2 times as much. */
#define DESCENT_CONVERGE_MAX 800

/* Above DESCENT_CONVERGE_MAX messages, where a pass does not fit in the descent's budget
 * (descent_reach): the first pass goes on to its end, within DESCENT_FIRST_BUDGETS
 * budgets (the 1000-task case: 3 231 moves against 1 536; the 5000-task case stops at
 * 15 360 of 16 188, and then no other pass follows); later passes go on while the pass
 * before shortened the surrogate by at least 1 / DESCENT_PASS_GAIN, within
 * DESCENT_REACH_BUDGETS budgets in all.  When the first pass shortened it by less than
 * 1 / DESCENT_FIRST_GAIN (the random cases: 5.7 %; an FFT on two boards: 4.8 %), each
 * later pass ends once 1 / DESCENT_CUT of a pass of moves in a row kept nothing (its
 * moves are sorted by their last change, the most promising first, and on the 1000-task
 * case everything a later pass keeps comes in its first quarter), and the passes after
 * the second follow only when it gained at least 1 / DESCENT_SECOND_GAIN (a first pass
 * that ended near a local optimum, as on the 1000-task case, 0.15 % and then 0.045 %, is
 * not followed further; the FFTs' second passes gain 2-5 %).  After a first pass of more
 * (an FFT on one board, whose gathers build groups of about 8: 16-21 %) the moves a later
 * pass keeps are spread over all of it, and the passes are whole.  Every pass end gets
 * the fitness, the shortest kept (docs/bfco.md, "The reach on two boards"). */
#define DESCENT_FIRST_BUDGETS 10
#define DESCENT_FIRST_GAIN 10
#define DESCENT_PASS_GAIN 1000
#define DESCENT_SECOND_GAIN 100
#define DESCENT_REACH_BUDGETS 64
#define DESCENT_CUT 8

/* Above DESCENT_CONVERGE_MAX messages, the surrogate is the contention-free length until
 * the fitness's excess over it at a pass end has grown by more than 1 / SURROGATE_GAP of
 * it since the descent's start (in a first pass that cannot end within its cap, judged
 * after every budget of moves too, gap_grown: the pass then goes on to its end first):
 * then, for the rest of the run, it is the contended
 * length (surrogate_of; screened by the contention-free one, a lower bound).  The moves
 * that shorten the contention-free length on an FFT put the transfers in each other's
 * way: the gap grows pass by pass (a 256-point FFT on one board: 0.001 % at no merge, 1.5
 * % after the first pass, 5.9 % after the tenth, while the fitness stopped improving),
 * and the descent on the contended length ends 5 % shorter.  A gap that was there from
 * the start shifts every point alike and misleads nothing: random graphs have one from
 * the start (0.38 % at no merge on the 1000-task speed case), it grows by less than 1 %,
 * and they keep the cheaper surrogate (which they would not have with the bare gap: three
 * of the speed case's seeds 1-10 crossed 1 % and took three times the CPU for 0.5-0.7
 * points; docs/bfco.md, "The contended surrogate"). */
#define SURROGATE_GAP 100

/* Once the surrogate is the contended length, the descent's passes go on until one keeps
 * nothing (a local optimum of the length that runs), within CONTENDED_PASSES passes'
 * moves (descent_moves each) in all: the first pass's cap (DESCENT_FIRST_BUDGETS) and the
 * gain rules hold only while the surrogate is the contention-free one.  On the FFTs whose
 * surrogate switches, the contended passes keep gaining after passes of almost nothing
 * (the 128-point FFT of seed 8 on two boards: 0.07 % and 0.007 % in passes 7 and 8, 0.71
 * % in pass 9; 23 passes to its local optimum, 2 % shorter than where the gain rule
 * stopped), and the 256-point FFT on two boards needs 19 passes (7.9 % shorter than
 * where its capped first pass had stopped it).  Both then end where the long search ends,
 * since its descent takes the same passes.  The random speed cases never switch
 * (docs/bfco.md, "Converging on the contended length"). */
#define CONTENDED_PASSES 16

/* ------------------------------------------------------------------------------------------
 * The space
 * ------------------------------------------------------------------------------------------
 */

static inline bool
bit_test(const uint64_t *row, int i)
{
    return (row[i >> 6] >> (i & 63)) & 1;
}

bool
bfco_path(const Space *sp, int u, int v)
{
    return bit_test(sp->desc + (size_t)u * sp->words, v) ||
           bit_test(sp->desc + (size_t)v * sp->words, u);
}

/* Reachability between sends in the dependence graph of the base: tasks, a SEND and a
 * RECV node per unit; producer -> SEND, SEND -> RECV for zero-delay units, RECV ->
 * consumer, and zero-delay edges within a DSP.  Rows are computed in reverse topological
 * order. */
static void
reach(Space *sp)
{
    const Graph *g = sp->g;
    const Sched *b = sp->base;
    int T = sp->T, M = sp->M, n = T + 2 * M, W = sp->words;
    int *off = ir_xcalloc((size_t)n + 1, sizeof *off);
    int ne = 0;
    int *eu = ir_xcalloc((size_t)2 * g->nedges + M + 1, sizeof *eu);
    int *ev = ir_xcalloc((size_t)2 * g->nedges + M + 1, sizeof *ev);
    for (int e = 0; e < g->nedges; e++) {
        const Edge *E = &g->edges[e];
        int u = b->edge_msg[e];
        if (u < 0) {
            if (E->delay == 0) {
                eu[ne] = E->from;
                ev[ne++] = E->to;
            }
        } else {
            eu[ne] = E->from;
            ev[ne++] = T + u;
            eu[ne] = T + M + u;
            ev[ne++] = E->to;
        }
    }
    for (int u = 0; u < M; u++)
        if (b->msgs[u].delay == 0) {
            eu[ne] = T + u;
            ev[ne++] = T + M + u;
        }
    for (int i = 0; i < ne; i++)
        off[eu[i] + 1]++;
    for (int i = 0; i < n; i++)
        off[i + 1] += off[i];
    int *adj = ir_xcalloc((size_t)ne + 1, sizeof *adj),
        *fill = ir_xcalloc((size_t)n + 1, sizeof *fill);
    memcpy(fill, off, (size_t)n * sizeof *fill);
    int *indeg = ir_xcalloc((size_t)n, sizeof *indeg);
    for (int i = 0; i < ne; i++) {
        adj[fill[eu[i]]++] = ev[i];
        indeg[ev[i]]++;
    }
    int *order = ir_xcalloc((size_t)n, sizeof *order), no = 0;
    for (int i = 0; i < n; i++)
        if (!indeg[i])
            order[no++] = i;
    for (int k = 0; k < no; k++)
        for (int j = off[order[k]]; j < off[order[k] + 1]; j++)
            if (--indeg[adj[j]] == 0)
                order[no++] = adj[j];
    if (no != n)
        ice("dependence graph of the base schedule is cyclic");
    uint64_t *row = ir_xcalloc((size_t)n * W, sizeof *row);
    for (int k = n - 1; k >= 0; k--) {
        int x = order[k];
        uint64_t *rx = row + (size_t)x * W;
        for (int j = off[x]; j < off[x + 1]; j++) {
            int y = adj[j];
            uint64_t *ry = row + (size_t)y * W;
            for (int w = 0; w < W; w++)
                rx[w] |= ry[w];
            if (y >= T && y < T + M)
                rx[(y - T) >> 6] |= UINT64_C(1) << ((y - T) & 63);
        }
    }
    sp->desc = ir_xcalloc((size_t)M * W, sizeof *sp->desc);
    memcpy(sp->desc, row + (size_t)T * W, (size_t)M * W * sizeof *row);
    free(row);
    free(order);
    free(indeg);
    free(fill);
    free(adj);
    free(eu);
    free(ev);
    free(off);
}

static bool
same_class(const Msg *a, const Msg *b)
{
    return a->src == b->src && a->dst == b->dst && a->delay == b->delay;
}

/* Classes numbered by their first unit, through an open-addressing table of the first
 * unit of each class. */
static void
classes(Space *sp)
{
    const Msg *msgs = sp->base->msgs;
    int M = sp->M, cap = 2 * M + 2;
    int *first = ir_xcalloc((size_t)cap, sizeof *first); /* first unit + 1, 0 = empty */
    int *cid = ir_xcalloc((size_t)cap, sizeof *cid);
    sp->cls = ir_xcalloc((size_t)M + 1, sizeof *sp->cls);
    for (int u = 0; u < M; u++) {
        const Msg *m = &msgs[u];
        uint64_t h = ((uint64_t)(unsigned)m->src * UINT64_C(1000003) +
                      (uint64_t)(unsigned)m->dst) *
                         UINT64_C(0x9E3779B97F4A7C15) +
                     (uint64_t)(unsigned)m->delay;
        int i = (int)((h >> 17) % (uint64_t)cap);
        while (first[i] && !same_class(&msgs[first[i] - 1], m))
            i = (i + 1) % cap;
        if (!first[i]) {
            first[i] = u + 1;
            cid[i] = sp->ncls++;
        }
        sp->cls[u] = cid[i];
    }
    free(first);
    free(cid);
}

/* What the repair counts for each task again and again, counted once. */
static void
repair_counts(Space *sp)
{
    const Graph *g = sp->g;
    const Sched *b = sp->base;
    int T = sp->T;
    sp->tzero = ir_xcalloc((size_t)T + 1, sizeof *sp->tzero);
    sp->tin = ir_xcalloc((size_t)T + 1, sizeof *sp->tin);
    sp->tdl_off = ir_xcalloc((size_t)T + 1, sizeof *sp->tdl_off);
    sp->tdl_u = ir_xcalloc((size_t)g->nedges + 1, sizeof *sp->tdl_u);
    int n = 0;
    for (int t = 0; t < T; t++) {
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            int e = g->pred[j];
            sp->tzero[t] += g->edges[e].delay == 0;
            sp->tin[t] += b->edge_msg[e] >= 0 || g->edges[e].delay == 0;
        }
        sp->tdl_off[t] = n;
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            int u = b->edge_msg[g->succ[j]];
            if (u >= 0 && b->msgs[u].delay >= 1)
                sp->tdl_u[n++] = u;
        }
    }
    sp->tdl_off[T] = n;
}

static _Thread_local const int *sort_ssl; /* qsort has no context argument */

static int
by_send_slot(const void *a, const void *b)
{
    int u = *(const int *)a, v = *(const int *)b;
    int x = sort_ssl[u], y = sort_ssl[v];
    return x != y ? (x < y ? -1 : 1) : (u > v) - (u < v);
}

Space *
bfco_space_new(const Sched *base, int window)
{
    Space *sp = ir_xcalloc(1, sizeof *sp);
    sp->base = base;
    sp->g = base->g;
    sp->p = base->p;
    sp->pfree = *base->p;
    sp->pfree.no_contention = true;
    sp->has_free = base->p->model == MODEL_BWDSP && !base->p->no_contention;
    sp->M = base->nmsgs;
    sp->D = base->ndsps;
    sp->T = base->g->ntasks;
    sp->window = window > 0 ? window : 0;
    int M = sp->M, D = sp->D;
    sp->words = (M + 63) / 64 > 0 ? (M + 63) / 64 : 1;
    sp->ssl = ir_xcalloc((size_t)M + 1, sizeof *sp->ssl);
    sp->rsl = ir_xcalloc((size_t)M + 1, sizeof *sp->rsl);
    sp->rbuf = ir_xcalloc((size_t)D, sizeof *sp->rbuf);
    for (int d = 0; d < D; d++) {
        if (base->nops[d] > sp->maxops)
            sp->maxops = base->nops[d];
        for (int k = 0; k < base->nops[d]; k++) {
            Op o = base->ops[d][k];
            if (o.kind == OP_SEND)
                sp->ssl[o.ref] = k;
            else if (o.kind == OP_RECV)
                sp->rsl[o.ref] = k;
        }
    }
    bfco_recv_buffers(base, sp->rbuf);
    classes(sp);
    sp->cls_off = ir_xcalloc((size_t)sp->ncls + 1, sizeof *sp->cls_off);
    sp->cls_units = ir_xcalloc((size_t)M + 1, sizeof *sp->cls_units);
    for (int u = 0; u < M; u++)
        sp->cls_off[sp->cls[u] + 1]++;
    for (int c = 0; c < sp->ncls; c++)
        sp->cls_off[c + 1] += sp->cls_off[c];
    int *fill = ir_xcalloc((size_t)sp->ncls + 1, sizeof *fill);
    memcpy(fill, sp->cls_off, (size_t)sp->ncls * sizeof *fill);
    for (int u = 0; u < M; u++)
        sp->cls_units[fill[sp->cls[u]]++] = u;
    free(fill);
    sort_ssl = sp->ssl;
    for (int c = 0; c < sp->ncls; c++) /* one source DSP per class: slots compare */
        qsort(sp->cls_units + sp->cls_off[c],
              (size_t)(sp->cls_off[c + 1] - sp->cls_off[c]), sizeof *sp->cls_units,
              by_send_slot);
    sort_ssl = NULL;
    reach(sp);
    repair_counts(sp);
    /* Bits: class by class, row-major over the send ranks, pairs within the window. */
    int64_t nb = 0;
    for (int c = 0; c < sp->ncls; c++) {
        int64_t n = sp->cls_off[c + 1] - sp->cls_off[c];
        int64_t wnd = sp->window > 0 && sp->window < n ? sp->window : n;
        nb += n * wnd - wnd * (wnd + 1) / 2;
    }
    sp->bu = ir_xcalloc((size_t)nb + 1, sizeof *sp->bu);
    sp->bv = ir_xcalloc((size_t)nb + 1, sizeof *sp->bv);
    for (int c = 0; c < sp->ncls; c++) {
        const int *cu = sp->cls_units + sp->cls_off[c];
        int n = sp->cls_off[c + 1] - sp->cls_off[c];
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n && (sp->window == 0 || j - i <= sp->window); j++)
                if (!bfco_path(sp, cu[i], cu[j])) {
                    sp->bu[sp->nbits] = cu[i];
                    sp->bv[sp->nbits++] = cu[j];
                }
    }
    return sp;
}

void
bfco_space_free(Space *sp)
{
    if (!sp)
        return;
    free(sp->cls);
    free(sp->cls_off);
    free(sp->cls_units);
    free(sp->ssl);
    free(sp->rsl);
    free(sp->desc);
    free(sp->bu);
    free(sp->bv);
    free(sp->rbuf);
    free(sp->tzero);
    free(sp->tin);
    free(sp->tdl_off);
    free(sp->tdl_u);
    free(sp);
}

/* ------------------------------------------------------------------------------------------
 * A worker: merge state, repair, order, the schedule built in place
 * ------------------------------------------------------------------------------------------
 */

/* A table of lengths keyed by two 64-bit hashes of a repaired merge (key_of). */
typedef struct Cache {
    int cap, n;
    uint64_t *h1, *h2; /* h1 == 0: empty (h1 is never 0) */
    int64_t *f;
} Cache;

static void
cache_free(Cache *c)
{
    free(c->h1);
    free(c->h2);
    free(c->f);
}

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
    Cache sur;  /* the descent's surrogates by repaired merge (surrogate) */
    /* the descent's input partitions met before (surrogate): hash -> entry i, whose
     * repaired merge bits are pre_bits[i * pre_words ..) (packed), surrogate pre_f[i] */
    Cache pre;
    bool tables;     /* sur and pre are used (BfcoParams.no_tables off) */
    bool csur;       /* the surrogate is the contended length (surrogate_of) */
    double deadline; /* now() at which the descent's passes stop (--time-limit), or 0 */
    int pre_n, pre_cap;
    uint64_t *pre_bits;
    int64_t *pre_f;
};

Worker *
bfco_worker_new(const Space *sp)
{
    Worker *w = ir_xcalloc(1, sizeof *w);
    const Graph *g = sp->g;
    int M = sp->M, D = sp->D, T = sp->T;
    size_t nodes = (size_t)T + 2 * (size_t)M + 1, edges = 2 * (size_t)g->nedges + M + 1;
    size_t m1 = (size_t)M + 1, t1 = (size_t)T + 1;
    w->sp = sp;
    w->ev = eval_new(g, sp->p);
    w->evf = sp->has_free ? eval_new(g, &sp->pfree) : NULL;
    w->evb = eval_new_bound(g, sp->p);
    w->teir = ir_xcalloc((size_t)D + 1, sizeof(int64_t));
    w->ws = ir_sched_copy(sp->base);
    Sched *ws = w->ws;
    for (int m = 0; m < M; m++)
        ws->msgs[m].pipelined = false;
    w->label = ir_xcalloc(m1, sizeof(int));
    w->lab2g = ir_xcalloc(2 * m1, sizeof(int));
    for (int i = 0; i < 2 * M; i++)
        w->lab2g[i] = -1;
    w->gidx = ir_xcalloc(m1, sizeof(int));
    w->gbeg = ir_xcalloc(m1, sizeof(int));
    w->gcnt = ir_xcalloc(m1, sizeof(int));
    w->gm = ir_xcalloc(m1, sizeof(int));
    w->gkey_s = ir_xcalloc(m1, sizeof(int));
    w->gkey_r = ir_xcalloc(m1, sizeof(int));
    w->uf = ir_xcalloc(m1, sizeof(int));
    w->ufnext = ir_xcalloc(m1, sizeof(int));
    w->ufhead = ir_xcalloc(m1, sizeof(int));
    w->uftail = ir_xcalloc(m1, sizeof(int));
    w->scratch = ir_xcalloc(m1, sizeof(int));
    w->tneed = ir_xcalloc(t1, sizeof(int));
    w->uneed = ir_xcalloc(m1, sizeof(int));
    w->sneed = ir_xcalloc(m1, sizeof(int));
    w->kstk = ir_xcalloc(t1, sizeof(int));
    w->cand = ir_xcalloc(m1, sizeof(int));
    w->incand = ir_xcalloc(m1, sizeof(bool));
    w->soff = ir_xcalloc(nodes + 1, sizeof(int));
    w->poff = ir_xcalloc(nodes + 1, sizeof(int));
    w->sadj = ir_xcalloc(edges, sizeof(int));
    w->padj = ir_xcalloc(edges, sizeof(int));
    w->eu = ir_xcalloc(edges, sizeof(int));
    w->ev2 = ir_xcalloc(edges, sizeof(int));
    w->fill1 = ir_xcalloc(nodes, sizeof(int));
    w->fill2 = ir_xcalloc(nodes, sizeof(int));
    w->stk = ir_xcalloc(nodes, sizeof(int));
    w->stamp = ir_xcalloc(nodes, sizeof(int));
    size_t tot = 0;
    for (int d = 0; d < D; d++)
        tot += (size_t)sp->base->nops[d];
    w->q = ir_xcalloc(tot + 1, sizeof(Op));
    w->taken = ir_xcalloc(tot + 1, sizeof(bool));
    w->qoff = ir_xcalloc((size_t)D + 1, sizeof(int));
    w->qn = ir_xcalloc((size_t)D, sizeof(int));
    w->head = ir_xcalloc((size_t)D, sizeof(int));
    w->need = ir_xcalloc(tot + 1, sizeof(int));
    w->qdsp = ir_xcalloc(tot + 1, sizeof(int));
    w->heap = ir_xcalloc(tot + 1, sizeof(int));
    w->hn = ir_xcalloc((size_t)D + 1, sizeof(int));
    w->tent = ir_xcalloc(t1, sizeof(int));
    w->sent = ir_xcalloc(m1, sizeof(int));
    w->rent = ir_xcalloc(m1, sizeof(int));
    w->cq = ir_xcalloc(m1, sizeof(int));
    w->cqh = ir_xcalloc((size_t)sp->ncls + 1, sizeof(int));
    w->cqt = ir_xcalloc((size_t)sp->ncls + 1, sizeof(int));
    w->tpos = ir_xcalloc(t1, sizeof(int));
    w->rpos = ir_xcalloc(m1, sizeof(int));
    w->pipe = ir_xcalloc(m1, sizeof(bool));
    w->bestpipe = ir_xcalloc(m1, sizeof(bool));
    w->gpipe = ir_xcalloc(m1, sizeof(bool));
    w->cnt = ir_xcalloc(m1, sizeof(int64_t));
    w->ord = ir_xcalloc(m1, sizeof(int));
    w->epool = ir_xcalloc((size_t)g->nedges + 1, sizeof(int));
    for (int u = 0; u < M; u++)
        w->label[u] = u;
    return w;
}

void
bfco_worker_free(Worker *w)
{
    if (!w)
        return;
    eval_free(w->ev);
    eval_free(w->evf);
    eval_free(w->evb);
    free(w->teir);
    ir_sched_free(w->ws);
    void *ptrs[] = {w->label,   w->lab2g,  w->gidx,  w->gbeg,   w->gcnt,   w->gm,
                    w->gkey_s,  w->gkey_r, w->uf,    w->ufnext, w->ufhead, w->uftail,
                    w->scratch, w->tneed,  w->uneed, w->sneed,  w->kstk,   w->cand,
                    w->incand,  w->soff,   w->poff,  w->sadj,   w->padj,   w->eu,
                    w->ev2,     w->fill1,  w->fill2, w->stk,    w->stamp,  w->q,
                    w->taken,   w->qoff,   w->qn,    w->head,   w->need,   w->qdsp,
                    w->heap,    w->hn,     w->tent,  w->sent,   w->rent,   w->cq,
                    w->cqh,     w->cqt,    w->tpos,  w->rpos,   w->pipe,   w->bestpipe,
                    w->gpipe,   w->cnt,    w->ord,   w->epool};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        free(ptrs[i]);
    cache_free(&w->sur);
    cache_free(&w->pre);
    free(w->pre_bits);
    free(w->pre_f);
    free(w);
}

const Sched *
bfco_worker_sched(const Worker *w)
{
    return w->ws;
}

void
bfco_worker_exact(Worker *w, bool exact)
{
    w->exact = exact;
}

int64_t
bfco_worker_evals(const Worker *w)
{
    return w->evals;
}

void
bfco_worker_repairs(const Worker *w, int64_t *splits, int64_t *order_releases,
                    int64_t *deadlock_releases)
{
    *splits = w->nsplit;
    *order_releases = w->nord;
    *deadlock_releases = w->ndead;
}

int
bfco_ngroups(const Worker *w)
{
    return w->G;
}

void
bfco_set_labels(Worker *w, const int *label)
{
    memcpy(w->label, label, (size_t)w->sp->M * sizeof *label);
}

static int
uf_find(int *uf, int x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

static void
uf_init(Worker *w)
{
    for (int u = 0; u < w->sp->M; u++) {
        w->uf[u] = u;
        w->ufhead[u] = u;
        w->uftail[u] = u;
        w->ufnext[u] = -1;
    }
}

/* Unites the groups of u and v unless that puts two sends joined by a path into one
 * group (Algorithm 1: the merge is released, NOMA). */
static void
unite(Worker *w, int u, int v)
{
    const Space *sp = w->sp;
    int ru = uf_find(w->uf, u), rv = uf_find(w->uf, v);
    if (ru == rv)
        return;
    for (int a = w->ufhead[ru]; a >= 0; a = w->ufnext[a])
        for (int c = w->ufhead[rv]; c >= 0; c = w->ufnext[c])
            if (bfco_path(sp, a, c))
                return;
    int lo = ru < rv ? ru : rv, hi = ru < rv ? rv : ru;
    w->ufnext[w->uftail[lo]] = w->ufhead[hi];
    w->uftail[lo] = w->uftail[hi];
    w->uf[hi] = lo;
}

static void
uf_labels(Worker *w)
{
    for (int u = 0; u < w->sp->M; u++)
        w->label[u] = uf_find(w->uf, u);
}

void
bfco_groups_from_bits(Worker *w, const uint8_t *bits)
{
    const Space *sp = w->sp;
    uf_init(w);
    for (int b = 0; b < sp->nbits; b++)
        if (bits[b])
            unite(w, sp->bu[b], sp->bv[b]);
    uf_labels(w);
}

void
bfco_groups_all(Worker *w)
{
    const Space *sp = w->sp;
    uf_init(w);
    for (int c = 0; c < sp->ncls; c++)
        for (int i = sp->cls_off[c]; i < sp->cls_off[c + 1]; i++)
            for (int j = i + 1; j < sp->cls_off[c + 1]; j++)
                if (!bfco_path(sp, sp->cls_units[i], sp->cls_units[j]))
                    unite(w, sp->cls_units[i], sp->cls_units[j]);
    uf_labels(w);
}

static int
gfirst(const Worker *w, int k)
{
    return w->gm[w->gbeg[k]];
}

static int
gsize(const Worker *w, int k)
{
    return w->gcnt[k];
}

/* Is group k eager (its bytes at most eager_limit)?  An eager message leaves at its send
 * whatever its receiver does and is matched by id, so its receive is out of its class's
 * send order (passes/comm.c). */
static bool
geager(const Worker *w, int k)
{
    int64_t bytes = 0;
    for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++)
        bytes += w->sp->base->msgs[w->gm[j]].bytes;
    return bytes <= w->sp->base->p->eager_limit;
}

/* The slots of the merged operations: the send at its last member's, the receive at its
 * first member's. */
static void
keys(Worker *w)
{
    const Space *sp = w->sp;
    for (int k = 0; k < w->G; k++) {
        w->gkey_s[k] = -1;
        w->gkey_r[k] = 1 << 30;
    }
    for (int u = 0; u < sp->M; u++) {
        int k = w->gidx[u];
        if (sp->ssl[u] > w->gkey_s[k])
            w->gkey_s[k] = sp->ssl[u];
        if (sp->rsl[u] < w->gkey_r[k])
            w->gkey_r[k] = sp->rsl[u];
    }
}

/* Dense group numbers by first member, member lists and the slots of the merged ops. */
static void
regroup(Worker *w)
{
    const Space *sp = w->sp;
    int M = sp->M;
    w->G = 0;
    for (int u = 0; u < M; u++) {
        int l = w->label[u];
        if (w->lab2g[l] < 0)
            w->lab2g[l] = w->G++;
        w->gidx[u] = w->lab2g[l];
    }
    for (int u = 0; u < M; u++)
        w->lab2g[w->label[u]] = -1;
    memset(w->gcnt, 0, (size_t)w->G * sizeof(int));
    for (int u = 0; u < M; u++)
        w->gcnt[w->gidx[u]]++;
    for (int k = 0, n = 0; k < w->G; k++) {
        w->gbeg[k] = n;
        n += w->gcnt[k];
        w->gcnt[k] = 0;
    }
    for (int u = 0; u < M; u++) {
        int k = w->gidx[u];
        w->gm[w->gbeg[k] + w->gcnt[k]++] = u;
    }
    keys(w);
}

/* Labels from the groups (each unit labelled by its group's first member), renumbered. */
static void
canonical(Worker *w)
{
    for (int u = 0; u < w->sp->M; u++)
        w->label[u] = gfirst(w, w->gidx[u]);
    regroup(w);
}

void
bfco_bits_from_groups(const Worker *w, uint8_t *bits)
{
    const Space *sp = w->sp;
    for (int b = 0; b < sp->nbits; b++)
        bits[b] = w->gidx[sp->bu[b]] == w->gidx[sp->bv[b]];
}

/* Unit u leaves its group (labels made canonical first, so M + u is free). */
static void
release(Worker *w, int u)
{
    for (int v = 0; v < w->sp->M; v++)
        w->label[v] = gfirst(w, w->gidx[v]);
    w->label[u] = w->sp->M + u;
    regroup(w);
}

/* The member of group g whose send is latest: the one that delays the merged send most.
 */
static int
last_member(const Worker *w, int k)
{
    int best = gfirst(w, k);
    for (int i = w->gbeg[k]; i < w->gbeg[k] + w->gcnt[k]; i++)
        if (w->sp->ssl[w->gm[i]] > w->sp->ssl[best])
            best = w->gm[i];
    return best;
}

/* The merged dependence graph as adjacency lists both ways (Algorithm 2 walks the
 * predecessors). */
static void
merged_graph(Worker *w)
{
    const Space *sp = w->sp;
    const Graph *g = sp->g;
    const Sched *b = sp->base;
    int T = sp->T, G = w->G, n = T + 2 * G, ne = 0;
    for (int e = 0; e < g->nedges; e++) {
        const Edge *E = &g->edges[e];
        int u = b->edge_msg[e];
        if (u < 0) {
            if (E->delay == 0) {
                w->eu[ne] = E->from;
                w->ev2[ne++] = E->to;
            }
        } else {
            w->eu[ne] = E->from;
            w->ev2[ne++] = T + w->gidx[u];
            w->eu[ne] = T + G + w->gidx[u];
            w->ev2[ne++] = E->to;
        }
    }
    for (int k = 0; k < G; k++)
        if (b->msgs[gfirst(w, k)].delay == 0) {
            w->eu[ne] = T + k;
            w->ev2[ne++] = T + G + k;
        }
    w->nn = n;
    memset(w->soff, 0, ((size_t)n + 1) * sizeof(int));
    memset(w->poff, 0, ((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < ne; i++) {
        w->soff[w->eu[i] + 1]++;
        w->poff[w->ev2[i] + 1]++;
    }
    for (int i = 0; i < n; i++) {
        w->soff[i + 1] += w->soff[i];
        w->poff[i + 1] += w->poff[i];
    }
    memcpy(w->fill1, w->soff, (size_t)n * sizeof(int));
    memcpy(w->fill2, w->poff, (size_t)n * sizeof(int));
    for (int i = 0; i < ne; i++) {
        w->sadj[w->fill1[w->eu[i]]++] = w->ev2[i];
        w->padj[w->fill2[w->ev2[i]]++] = w->eu[i];
    }
}

/* The SEND and RECV of zero-delay group k are done: its consumers get their input. */
static int
deliver(Worker *w, int k, int ns)
{
    const Graph *g = w->sp->g;
    const Sched *b = w->sp->base;
    for (int i = w->gbeg[k]; i < w->gbeg[k] + w->gcnt[k]; i++) {
        const Msg *m = &b->msgs[w->gm[i]];
        for (int q = 0; q < m->nedges; q++) {
            int t = g->edges[m->edges[q]].to;
            if (--w->tneed[t] == 0)
                w->kstk[ns++] = t;
        }
    }
    return ns;
}

/* Group k loses its ready members (no producer left to wait for), stably, to a new
 * group, which is returned. */
static int
split_ready(Worker *w, int k)
{
    int b = w->gbeg[k], n = w->gcnt[k], nr = 0;
    for (int i = b; i < b + n; i++)
        if (w->uneed[w->gm[i]] == 0)
            w->scratch[nr++] = w->gm[i];
    for (int i = b, j = nr; i < b + n; i++)
        if (w->uneed[w->gm[i]] != 0)
            w->scratch[j++] = w->gm[i];
    memcpy(w->gm + b, w->scratch, (size_t)n * sizeof(int));
    int h = w->G++;
    w->gbeg[h] = b;
    w->gcnt[h] = nr;
    w->gbeg[k] = b + nr;
    w->gcnt[k] = n - nr;
    for (int i = b; i < b + nr; i++)
        w->gidx[w->gm[i]] = h;
    w->sneed[h] = 0;
    w->incand[h] = false;
    return h;
}

/* Cycles of the merged dependence graph, in one pass: a Kahn traversal of the tasks and
 * the zero-delay groups (a delayed group's RECV has no predecessor within an iteration
 * and its SEND no successor, so they lie on no cycle).  A group's SEND is ready when the
 * producers of all its members are done.  When the traversal stops short there is a
 * cycle, and then some group has a member whose producers are done while others wait
 * (take the first unit or task left in the base's own acyclic order: docs/bfco.md); the
 * first group that came to be in that state is split into its ready members, which go
 * on, and the others.  Returns the number of splits, or -1 at a cycle without rel. */
static int
untangle(Worker *w, bool rel)
{
    const Space *sp = w->sp;
    const Graph *g = sp->g;
    const Sched *b = sp->base;
    int T = sp->T, M = sp->M, ns = 0, done = 0, splits = 0, ch = 0, ct = 0;
    memcpy(w->tneed, sp->tzero, (size_t)T * sizeof *w->tneed);
    for (int t = 0; t < T; t++)
        if (!w->tneed[t])
            w->kstk[ns++] = t;
    for (int u = 0; u < M; u++)
        w->uneed[u] = b->msgs[u].delay == 0 ? b->msgs[u].nedges : 0;
    for (int k = 0; k < w->G; k++) {
        int n = 0;
        for (int i = w->gbeg[k]; i < w->gbeg[k] + w->gcnt[k]; i++)
            n += w->uneed[w->gm[i]];
        w->sneed[k] = n;
        w->incand[k] = false;
    }
    for (;;) {
        while (ns > 0) {
            int t = w->kstk[--ns];
            done++;
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
                const Edge *E = &g->edges[g->succ[j]];
                if (E->delay != 0)
                    continue;
                int u = b->edge_msg[g->succ[j]];
                if (u < 0) {
                    if (--w->tneed[E->to] == 0)
                        w->kstk[ns++] = E->to;
                    continue;
                }
                int k = w->gidx[u];
                w->uneed[u]--;
                if (--w->sneed[k] == 0) {
                    ns = deliver(w, k, ns);
                } else if (w->uneed[u] == 0 && !w->incand[k]) {
                    w->incand[k] = true;
                    w->cand[ct++] = k;
                }
            }
        }
        if (done == T)
            return splits;
        if (!rel)
            return -1;
        int k = -1;
        while (ch < ct && k < 0) {
            int c = w->cand[ch++];
            w->incand[c] = false;
            if (w->sneed[c] > 0)
                k = c;
        }
        if (k < 0)
            ice("cycle repair: stuck, and no group has a ready member");
        ns = deliver(w, split_ready(w, k), ns);
        splits++;
    }
}

/* The desired sequences: merged send at the last member's slot, merged receive at the
 * first member's, everything else where the base has it; and empty class FIFOs. */
static void
desired(Worker *w)
{
    const Space *sp = w->sp;
    const Sched *b = sp->base;
    int D = sp->D, n = 0;
    for (int d = 0; d < D; d++) {
        w->qoff[d] = n;
        for (int k = 0; k < b->nops[d]; k++) {
            Op o = b->ops[d][k];
            if (o.kind == OP_SEND) {
                int g = w->gidx[o.ref];
                if (sp->ssl[o.ref] != w->gkey_s[g])
                    continue;
                o.ref = g;
            } else if (o.kind == OP_RECV) {
                int g = w->gidx[o.ref];
                if (sp->rsl[o.ref] != w->gkey_r[g])
                    continue;
                o.ref = g;
            }
            w->taken[n] = false;
            w->q[n++] = o;
        }
        w->qn[d] = n - w->qoff[d];
        w->head[d] = 0;
    }
    w->qoff[D] = n;
    for (int c = 0; c < sp->ncls; c++)
        w->cqh[c] = w->cqt[c] = sp->cls_off[c];
}

/* Order adjustment: a topological traversal that follows the desired sequences and, when
 * every DSP's next operation is blocked, moves forward the enabled operation closest to
 * the head of its sequence (ties: the lowest DSP).  An operation is enabled when its
 * prerequisites are done: a COMPUTE needs its same-DSP zero-delay producers and the
 * receives of its incoming messages, and (zero copy) the receive of each single-edge
 * delayed message it produces; a SEND needs its producers; a RECV of a zero-delay group
 * needs its SEND.  The groups of a class are received in the order they are sent: the
 * order in which the traversal emits the zero-delay sends, or for a delayed class the
 * order in which it emits the receives (a delayed receive takes the previous
 * iteration's transfer, so it comes first, and its SEND follows: zero copy or the pack
 * buffer).  The first group of a class's FIFO gets its turn; the others wait.  Eager
 * groups are out of the FIFOs: an eager receive needs only its send, a delayed eager
 * send its receive.  need[]
 * counts what is missing; each DSP keeps a heap of its enabled queue positions.  With the
 * merged graph acyclic, something is always enabled (docs/bfco.md); returns 0, or -1
 * should nothing be (the group to split is then in *split). */
static void
heap_push(Worker *w, int d, int pos)
{
    int *h = w->heap + w->qoff[d];
    int k = w->hn[d]++;
    h[k] = pos;
    while (k > 0 && h[(k - 1) / 2] > h[k]) {
        int t = h[k];
        h[k] = h[(k - 1) / 2];
        h[(k - 1) / 2] = t;
        k = (k - 1) / 2;
    }
}

static int
heap_pop(Worker *w, int d)
{
    int *h = w->heap + w->qoff[d];
    int top = h[0], n = --w->hn[d];
    h[0] = h[n];
    for (int k = 0;;) {
        int l = 2 * k + 1, r = l + 1, m = k;
        if (l < n && h[l] < h[m])
            m = l;
        if (r < n && h[r] < h[m])
            m = r;
        if (m == k)
            break;
        int t = h[k];
        h[k] = h[m];
        h[m] = t;
        k = m;
    }
    return top;
}

static void
dec(Worker *w, int i)
{
    if (--w->need[i] == 0)
        heap_push(w, w->qdsp[i], i - w->qoff[w->qdsp[i]]);
}

/* The group at the front of class c's FIFO leaves it; the next one gets its turn. */
static void
fifo_pop(Worker *w, int c, int k, const int *turn)
{
    if (w->cq[w->cqh[c]] != k)
        ice("order adjustment: group %d out of its class order", k);
    if (++w->cqh[c] < w->cqt[c])
        dec(w, turn[w->cq[w->cqh[c]]]);
}

static void
fifo_push(Worker *w, int c, int k, const int *turn)
{
    w->cq[w->cqt[c]++] = k;
    if (w->cqh[c] == w->cqt[c] - 1)
        dec(w, turn[k]);
}

static void
execute(Worker *w, int d, int i)
{
    const Space *sp = w->sp;
    const Graph *g = sp->g;
    const Sched *b = sp->base;
    Op o = w->q[i];
    w->ws->ops[d][w->ws->nops[d]++] = o;
    if (o.kind == OP_COMPUTE) {
        int t = o.ref;
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            int e = g->succ[j], u = b->edge_msg[e];
            if (u < 0) {
                if (g->edges[e].delay == 0)
                    dec(w, w->tent[g->edges[e].to]);
            } else {
                dec(w, w->sent[w->gidx[u]]);
            }
        }
        return;
    }
    int k = o.ref, c = sp->cls[gfirst(w, k)];
    bool delayed = b->msgs[gfirst(w, k)].delay >= 1, eager = geager(w, k);
    if (o.kind == OP_SEND) {
        if (eager) {
            if (!delayed)
                dec(w, w->rent[k]);
        } else if (delayed)
            fifo_pop(w, c, k, w->sent);
        else
            fifo_push(w, c, k, w->rent);
        return;
    }
    for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++) {
        const Msg *m = &b->msgs[w->gm[j]];
        for (int q = 0; q < m->nedges; q++) {
            dec(w, w->tent[g->edges[m->edges[q]].to]);
            if (delayed && gsize(w, k) == 1)
                dec(w, w->tent[g->edges[m->edges[q]].from]);
        }
    }
    if (eager) {
        if (delayed)
            dec(w, w->sent[k]);
    } else if (delayed)
        fifo_push(w, c, k, w->sent);
    else
        fifo_pop(w, c, k, w->rent);
}

static int
order(Worker *w, int *split)
{
    const Space *sp = w->sp;
    const Sched *b = sp->base;
    Sched *ws = w->ws;
    int D = sp->D, n = w->qoff[D], remaining = n;
    for (int d = 0; d < D; d++) {
        ws->nops[d] = 0;
        w->hn[d] = 0;
        for (int i = w->qoff[d]; i < w->qoff[d + 1]; i++) {
            w->qdsp[i] = d;
            Op o = w->q[i];
            if (o.kind == OP_COMPUTE)
                w->tent[o.ref] = i;
            else if (o.kind == OP_SEND)
                w->sent[o.ref] = i;
            else
                w->rent[o.ref] = i;
        }
    }
    for (int i = 0; i < n; i++) {
        Op o = w->q[i];
        int need = 0;
        if (o.kind == OP_COMPUTE) {
            int t = o.ref;
            need = sp->tin[t];
            for (int j = sp->tdl_off[t]; j < sp->tdl_off[t + 1]; j++)
                need += gsize(w, w->gidx[sp->tdl_u[j]]) == 1;
        } else {
            int k = o.ref;
            bool delayed = b->msgs[gfirst(w, k)].delay >= 1;
            if (o.kind == OP_SEND) {
                for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++)
                    need += b->msgs[w->gm[j]].nedges;
                need += delayed; /* its turn */
            } else {
                need += !delayed; /* its turn, after its send */
            }
        }
        w->need[i] = need;
    }
    for (int i = 0; i < n; i++)
        if (w->need[i] == 0)
            heap_push(w, w->qdsp[i], i - w->qoff[w->qdsp[i]]);
    while (remaining > 0) {
        bool progress = true;
        while (progress) {
            progress = false;
            for (int d = 0; d < D; d++) {
                while (w->hn[d] > 0 && w->heap[w->qoff[d]] == w->head[d]) {
                    int pos = heap_pop(w, d);
                    w->taken[w->qoff[d] + pos] = true;
                    execute(w, d, w->qoff[d] + pos);
                    remaining--;
                    progress = true;
                    while (w->head[d] < w->qn[d] && w->taken[w->qoff[d] + w->head[d]])
                        w->head[d]++;
                }
            }
        }
        if (remaining == 0)
            break;
        int bd = -1, bdist = 0;
        for (int d = 0; d < D; d++)
            if (w->hn[d] > 0 && (bd < 0 || w->heap[w->qoff[d]] - w->head[d] < bdist)) {
                bd = d;
                bdist = w->heap[w->qoff[d]] - w->head[d];
            }
        if (bd < 0) {
            *split = -1;
            for (int d = 0; d < D && *split < 0; d++) {
                if (w->head[d] >= w->qn[d])
                    continue;
                Op o = w->q[w->qoff[d] + w->head[d]];
                if (o.kind != OP_COMPUTE && gsize(w, o.ref) > 1)
                    *split = o.ref;
            }
            for (int k = 0; k < w->G && *split < 0; k++)
                if (gsize(w, k) > 1)
                    *split = k;
            return -1;
        }
        int pos = heap_pop(w, bd);
        w->taken[w->qoff[bd] + pos] = true;
        execute(w, bd, w->qoff[bd] + pos);
        remaining--;
    }
    return 0;
}

/* The messages of the built schedule: one per group, numbered as the groups, edges in
 * member order. */
static void
build_msgs(Worker *w)
{
    const Space *sp = w->sp;
    const Sched *b = sp->base;
    Sched *ws = w->ws;
    for (int e = 0; e < sp->g->nedges; e++)
        ws->edge_msg[e] = b->edge_msg[e] < 0 ? -1 : w->gidx[b->edge_msg[e]];
    int n = 0;
    ws->nmsgs = w->G;
    for (int k = 0; k < w->G; k++) {
        Msg *m = &ws->msgs[k];
        const Msg *m0 = &b->msgs[gfirst(w, k)];
        m->src = m0->src;
        m->dst = m0->dst;
        m->delay = m0->delay;
        m->pipelined = false;
        m->bytes = 0;
        m->nedges = 0;
        m->edges = w->epool + n;
        for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++) {
            const Msg *mu = &b->msgs[w->gm[j]];
            for (int q = 0; q < mu->nedges; q++)
                w->epool[n++] = mu->edges[q];
            m->bytes += mu->bytes;
            m->nedges += mu->nedges;
        }
    }
}

static int64_t
eval(Worker *w)
{
    w->evals++;
    return eval_length(w->ev, w->ws);
}

int64_t
bfco_eval_bound(Worker *w)
{
    w->fevals++;
    return eval_length(w->evb, w->ws);
}

void
bfco_set_pipes(Worker *w, const bool *pipe)
{
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = pipe[k];
}

int64_t
bfco_worker_bound_evals(const Worker *w)
{
    return w->fevals;
}

int64_t
bfco_eval_free(Worker *w)
{
    if (!w->evf)
        return -2;
    w->fevals++;
    return eval_length(w->evf, w->ws);
}

/* The contended length of the built schedule when it is below c, else INT64_MAX (also on
 * deadlock): for the tests that only ask whether it is shorter than c. */
static int64_t
eval_below(Worker *w, int64_t c)
{
    w->evals++;
    int64_t L = eval_length_below(w->ev, w->ws, c);
    return L < 0 ? INT64_MAX : L;
}

/* bfco_eval_free when it is below c, else INT64_MAX (also on deadlock); -2 as there. */
static int64_t
free_below(Worker *w, int64_t c)
{
    if (!w->evf)
        return -2;
    w->fevals++;
    int64_t L = eval_length_below(w->evf, w->ws, c);
    return L < 0 ? INT64_MAX : L;
}

/* Releases a merge on the deadlock cycle the evaluator reports. */
static int
release_on_deadlock(Worker *w)
{
    Arena *a = arena_new();
    EvalResult r;
    memset(&r, 0, sizeof r);
    EvalOpts o = {0, 0};
    w->evals++;
    int rc = eval_run_with(w->ev, w->ws, &o, &r, a);
    int k = -1;
    if (rc < 0)
        for (int i = 0; i < r.ncycle && k < 0; i++) {
            Op op = w->ws->ops[r.cycle[i].dsp][r.cycle[i].op];
            if (op.kind != OP_COMPUTE && gsize(w, op.ref) > 1)
                k = op.ref;
        }
    arena_free(a);
    for (int g = 0; g < w->G && k < 0; g++)
        if (gsize(w, g) > 1)
            k = g;
    if (k < 0)
        return -1;
    release(w, last_member(w, k));
    return 0;
}

/* Steps 2 and 3 of the repair on the current groups: the cycle repair and the order
 * adjustment, each one pass (the order's fallback starts again); builds the schedule. */
static int
repair_static(Worker *w, bool rel, int *nrel)
{
    for (;;) {
        int s = untangle(w, rel);
        if (s < 0)
            return -1;
        if (s > 0) {
            w->nsplit += s;
            *nrel += s;
            canonical(w);
        }
        desired(w);
        int split;
        if (order(w, &split) == 0) {
            build_msgs(w);
            return 0;
        }
        if (!rel || split < 0)
            return -1;
        release(w, last_member(w, split));
        w->nord++;
        (*nrel)++;
    }
}

/* repair_static for a point of the search, which is its merge bits x (set from the
 * repaired groups).  Bits join only units within the window of each other, so a repair
 * that takes a unit out of a group may leave members that were joined only through it:
 * their bits then make a finer partition than the groups repaired, and the length
 * evaluated would not be that of the point kept (a 256-point FFT: 2 of about 1 000
 * moves the descent kept, one of them 2.4 % off).  So when the repair split a group, the
 * groups are made again from the repaired bits and repaired again until they are the
 * bits' own; each round only splits, so it ends. */
static int
repair_bits(Worker *w, uint8_t *x, int *nrel)
{
    for (;;) {
        int n0 = *nrel;
        if (repair_static(w, true, nrel) < 0)
            return -1;
        bfco_bits_from_groups(w, x);
        if (*nrel == n0)
            return 0;
        bfco_groups_from_bits(w, x);
        bool same = true;
        for (int u = 0; u < w->sp->M && same; u++)
            same = w->label[u] == gfirst(w, w->gidx[u]);
        if (same)
            return 0;
        regroup(w);
    }
}

int64_t
bfco_repair(Worker *w, bool rel, int *released)
{
    int nrel = 0;
    regroup(w);
    for (;;) {
        if (repair_static(w, rel, &nrel) < 0)
            return -1;
        int64_t L = eval(w);
        if (L >= 0) {
            if (released)
                *released = nrel;
            return L;
        }
        if (!rel || release_on_deadlock(w) < 0)
            return -1;
        w->ndead++;
        nrel++;
    }
}

int64_t
bfco_repair_bits(Worker *w, uint8_t *bits, int *released)
{
    int nrel = 0;
    bfco_groups_from_bits(w, bits);
    regroup(w);
    if (repair_bits(w, bits, &nrel) < 0)
        return -1;
    if (released)
        *released = nrel;
    int64_t L = eval(w);
    return L < 0 ? -1 : L;
}

void
bfco_build_naive(Worker *w)
{
    regroup(w);
    desired(w);
    Sched *ws = w->ws;
    for (int d = 0; d < w->sp->D; d++) {
        ws->nops[d] = 0;
        for (int i = w->qoff[d]; i < w->qoff[d + 1]; i++)
            ws->ops[d][ws->nops[d]++] = w->q[i];
    }
    build_msgs(w);
}

/* ------------------------------------------------------------------------------------------
 * Pipelining
 * ------------------------------------------------------------------------------------------
 */

bool
bfco_msg_pipeable(const Platform *p, const Msg *m)
{
    return m->bytes > p->eager_limit;
}

bool
bfco_pipeable(const Worker *w, int k)
{
    return bfco_msg_pipeable(w->sp->p, &w->ws->msgs[k]);
}

void
bfco_recv_buffers(const Sched *s, int64_t *rbuf)
{
    for (int d = 0; d < s->ndsps; d++)
        rbuf[d] = 0;
    for (int u = 0; u < s->nmsgs; u++) {
        const Msg *m = &s->msgs[u];
        /* a ring of max(delay, 1) slots (saturated: far above any memory size) */
        int64_t ring = m->bytes * (m->delay > 1 ? m->delay : 1), cap = INT64_C(1) << 60;
        rbuf[m->dst] = rbuf[m->dst] < cap - ring ? rbuf[m->dst] + ring : cap;
    }
}

void
bfco_cp_pipes(const Sched *s, const int64_t *rbuf, int64_t *x, bool *pipe)
{
    const Platform *p = s->p;
    for (int d = 0; d < s->ndsps; d++)
        x[d] = rbuf[d];
    for (int k = 0; k < s->nmsgs; k++) {
        const Msg *m = &s->msgs[k];
        pipe[k] = bfco_msg_pipeable(p, m) && x[m->dst] + m->bytes <= p->dsp_memory_bytes;
        if (pipe[k])
            x[m->dst] += m->bytes;
    }
}

/* Receive buffers per DSP: max(delay, 1) per message (the ring), one more when
 * pipelined. */
bool
bfco_mem_ok(const Worker *w, const bool *pipe)
{
    const Space *sp = w->sp;
    int64_t extra[64];
    int64_t *x = sp->D <= 64 ? extra : ir_xcalloc((size_t)sp->D, sizeof *x);
    for (int d = 0; d < sp->D; d++)
        x[d] = sp->rbuf[d];
    for (int k = 0; k < w->G; k++)
        if (pipe[k])
            x[w->ws->msgs[k].dst] += w->ws->msgs[k].bytes;
    bool ok = true;
    for (int d = 0; d < sp->D; d++)
        ok &= x[d] <= sp->p->dsp_memory_bytes;
    if (x != extra)
        free(x);
    return ok;
}

void
bfco_greedy_pipes(Worker *w, bool *pipe)
{
    const Space *sp = w->sp;
    int64_t extra[64];
    int64_t *x = sp->D <= 64 ? extra : ir_xcalloc((size_t)sp->D, sizeof *x);
    bfco_cp_pipes(w->ws, sp->rbuf, x, pipe); /* the built schedule has w->G messages */
    if (x != extra)
        free(x);
}

int64_t
bfco_eval_pipes(Worker *w, const bool *pipe)
{
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = pipe[k];
    return eval(w);
}

static int64_t
better(int64_t L)
{
    return L < 0 ? INT64_MAX : L;
}

/* TIS and TEIR of every pipelined receive from one evaluation (docs/bfco.md): TIS is the
 * interval between the sender's issues of the message in two consecutive iterations, TEIR
 * the receiving DSP's busy cycles in one iteration (the iteration time it would have if
 * it never waited).  Pipelines with TIS >= TEIR * (1 - epsilon) are dropped; with a
 * single iteration every pipeline is dropped (no next iteration to overlap with).  *len
 * gets the length of the schedule with pipe as given (-1 on deadlock; -2 when no
 * evaluation was needed). */
static bool
tis_teir(Worker *w, bool *pipe, double eps, int64_t *len)
{
    const Sched *ws = w->ws;
    int64_t N = w->sp->g->iterations;
    bool changed = false;
    *len = -2;
    if (N < 2) {
        for (int k = 0; k < w->G; k++) {
            changed |= pipe[k];
            pipe[k] = false;
        }
        return changed;
    }
    for (int k = 0; k < w->G; k++)
        ws->msgs[k].pipelined = pipe[k];
    Arena *a = arena_new();
    EvalResult r;
    memset(&r, 0, sizeof r);
    EvalOpts o = {0, 3};
    w->evals++;
    int rc = eval_run_with(w->ev, ws, &o, &r, a);
    *len = r.length;
    if (rc < 0 || r.nrec < 2) {
        arena_free(a);
        return false;
    }
    int r0 = r.nrec >= 3 ? r.nrec - 3 : 0, r1 = r0 + 1;
    for (int d = 0; d < ws->ndsps; d++) {
        w->teir[d] = 0;
        for (int i = 0; i < ws->nops[d]; i++) {
            const OpTime *ot = &r.op_time[d][(size_t)r1 * ws->nops[d] + i];
            w->teir[d] += ot->end - ot->start;
        }
    }
    for (int k = 0; k < w->G; k++) {
        if (!pipe[k])
            continue;
        const MsgTime *t0 = &r.msg_time[(size_t)r0 * ws->nmsgs + k];
        const MsgTime *t1 = &r.msg_time[(size_t)r1 * ws->nmsgs + k];
        if (t0->issue < 0 || t1->issue < 0)
            continue;
        int64_t tis = t1->issue - t0->issue;
        int64_t teir = w->teir[ws->msgs[k].dst];
        if ((double)tis >= (double)teir * (1.0 - eps)) {
            pipe[k] = false;
            changed = true;
        }
    }
    arena_free(a);
    return changed;
}

bool
bfco_prune_tis_teir(Worker *w, bool *pipe, double eps)
{
    int64_t len;
    return tis_teir(w, pipe, eps, &len);
}

/* Algorithm 2's key: the tasks before the receive in its DSP's queue that reach it. */
static void
reach_counts(Worker *w, const bool *pipe)
{
    const Space *sp = w->sp;
    const Sched *ws = w->ws;
    int T = sp->T, G = w->G;
    for (int d = 0; d < sp->D; d++)
        for (int i = 0; i < ws->nops[d]; i++) {
            Op o = ws->ops[d][i];
            if (o.kind == OP_COMPUTE)
                w->tpos[o.ref] = i;
            else if (o.kind == OP_RECV)
                w->rpos[o.ref] = i;
        }
    merged_graph(w);
    for (int k = 0; k < G; k++) {
        w->cnt[k] = 0;
        if (!pipe[k])
            continue;
        int d = ws->msgs[k].dst;
        w->stampv++;
        int sp_ = 0;
        w->stk[sp_++] = T + G + k;
        w->stamp[T + G + k] = w->stampv;
        while (sp_ > 0) {
            int x = w->stk[--sp_];
            if (x < T && sp->base->map[x] == d && w->tpos[x] < w->rpos[k])
                w->cnt[k]++;
            for (int j = w->poff[x]; j < w->poff[x + 1]; j++) {
                int y = w->padj[j];
                if (w->stamp[y] != w->stampv) {
                    w->stamp[y] = w->stampv;
                    w->stk[sp_++] = y;
                }
            }
        }
    }
}

static int
by_key(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* w->ord[0 .. n): most reach first, ties by message. */
static void
sort_by_count(Worker *w, int n)
{
    int64_t *key = ir_xcalloc((size_t)n + 1, sizeof *key);
    for (int i = 0; i < n; i++)
        key[i] = ((int64_t)(INT32_MAX - w->cnt[w->ord[i]]) << 32) | w->ord[i];
    qsort(key, (size_t)n, sizeof *key, by_key);
    for (int i = 0; i < n; i++)
        w->ord[i] = (int)(key[i] & 0xffffffff);
    free(key);
}

/* L0 of bfco_pipelines when it is lazy: the length without pipelines, evaluated now
 * (the flags of the schedule are restored). */
static int64_t
lazy_l0(Worker *w)
{
    bool *keep = w->gpipe;
    for (int k = 0; k < w->G; k++) {
        keep[k] = w->ws->msgs[k].pipelined;
        w->ws->msgs[k].pipelined = false;
    }
    int64_t L0 = eval(w);
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = keep[k];
    return L0;
}

int64_t
bfco_pipelines(Worker *w, double eps, int64_t L0, int64_t lb)
{
    int G = w->G;
    bool *pipe = w->pipe, *best = w->bestpipe;
    bool lazy = L0 == BFCO_L0_LAZY;
    /* The candidates in the paper's order, the first strictly shortest kept: L0 (no
     * pipelines), greedy, pruned, each step of Algorithm 2.  A lazy L0 is evaluated
     * only when a later candidate is not strictly shorter than its bound lb, or when
     * Algorithm 2 needs it: the result is the one an evaluated L0 gives. */
    int64_t bestL = lazy ? INT64_MAX : better(L0);
    memset(best, 0, (size_t)G * sizeof(bool));
    bfco_greedy_pipes(w, pipe);
    int np = 0;
    for (int k = 0; k < G; k++)
        np += pipe[k];
    if (np > 0) {
        /* one evaluation gives the greedy set's length and its TIS/TEIR */
        bool *greedy = w->gpipe;
        memcpy(greedy, pipe, (size_t)G * sizeof(bool));
        int64_t L;
        bool dropped = tis_teir(w, pipe, eps, &L);
        L = L == -2 ? better(bfco_eval_pipes(w, greedy)) : better(L);
        if (L < bestL) {
            bestL = L;
            memcpy(best, greedy, (size_t)G * sizeof(bool));
        }
        /* The pruned set: when its contention-free length (a lower bound, section 4
         * "Lower bounds") is not below bestL it cannot be kept, and L holds that bound
         * (`bound`) until a test below needs more than it tells. */
        bool bound = false;
        if (dropped) {
            bfco_set_pipes(w, pipe);
            int64_t fb = bfco_eval_free(w);
            bound = !w->exact && fb >= 0 && fb >= bestL;
            L = bound ? fb : better(eval(w));
            if (L < bestL) {
                bestL = L;
                memcpy(best, pipe, (size_t)G * sizeof(bool));
            }
        }
        np = 0;
        for (int k = 0; k < G; k++)
            np += pipe[k];
        if (bound && lazy && bestL < lb && np > 0 && L < lb) {
            L = better(eval(w)); /* not below bestL either */
            bound = false;
        }
        if (lazy && (bestL >= lb || (L >= lb && np > 0))) {
            lazy = false;
            L0 = better(lazy_l0(w));
            if (L0 <= bestL) { /* L0 comes first: it wins ties */
                bestL = L0;
                memset(best, 0, (size_t)G * sizeof(bool));
            }
        }
        if (bound && !lazy && np > 0 && L <= L0)
            L = better(eval(w));
        if (!lazy && L > L0 && np > 0) {
            /* Algorithm 2: drop the pipelines with the longest prologs first until the
             * schedule is no longer than without pipelines. */
            reach_counts(w, pipe);
            int n = 0;
            for (int k = 0; k < G; k++)
                if (pipe[k])
                    w->ord[n++] = k;
            sort_by_count(w, n);
            for (int i = 0; i < n - 1 && L > L0; i++) {
                pipe[w->ord[i]] = false;
                L = better(bfco_eval_pipes(w, pipe));
                if (L < bestL) {
                    bestL = L;
                    memcpy(best, pipe, (size_t)G * sizeof(bool));
                }
            }
        }
    } else if (lazy) {
        bestL = better(lazy_l0(w));
    }
    for (int k = 0; k < G; k++)
        w->ws->msgs[k].pipelined = best[k];
    return bestL;
}

/* ------------------------------------------------------------------------------------------
 * BPSO
 * ------------------------------------------------------------------------------------------
 */

void
bfco_default_params(BfcoParams *bp)
{
    memset(bp, 0, sizeof *bp);
    bp->threads = 1;
    bp->seed = 1;
    bp->stall = -1;    /* 20 on small schedules, else 3 (bfco_search) */
    bp->restarts = -1; /* 3 on small schedules, else 0 (bfco_search) */
    bp->window = 4;
    bp->w_start = 0.9;
    bp->w_end = 0.4;
    bp->c1 = 2.0;
    bp->c2 = 2.0;
    bp->vmax = 4.0;
    bp->mutation = 1.0;
    bp->epsilon = 0.05;
    bp->es_limit = INT64_C(1) << 20;
    bp->polish = true; /* the paper's BFCO is polish = false (docs/bfco.md) */
    bp->polish_budget = -1;
    bp->descent_budget = -1;
    bp->kicks = -1; /* 10 on small schedules, else 0 (bfco_search) */
    bp->kick_moves = 3;
    bp->fitness_passes = -1; /* 4 on small schedules, else 0 (bfco_search) */
    bp->joint_units = 64;
}

static uint64_t
splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double
urand(uint64_t *s)
{
    return (double)(splitmix(s) >> 11) * 0x1.0p-53;
}

/* With --joint, bit nbits + u is the pipeline bit of unit u; a group takes the bit of its
 * first member. */
static int64_t
joint_pipes(Worker *w, const uint8_t *x, int64_t Ls)
{
    const Space *sp = w->sp;
    bool *pj = w->bestpipe; /* free once bfco_pipelines has returned */
    bool *ps = w->pipe;
    for (int k = 0; k < w->G; k++)
        ps[k] = w->ws->msgs[k].pipelined;
    for (int k = 0; k < w->G; k++)
        pj[k] = x[sp->nbits + gfirst(w, k)] && bfco_pipeable(w, k);
    if (!bfco_mem_ok(w, pj) || memcmp(pj, ps, (size_t)w->G * sizeof(bool)) == 0)
        return Ls; /* the flags of the schedule are still those of ps */
    bfco_set_pipes(w, pj);
    int64_t Lj = eval_below(w, Ls);
    if (Lj < Ls)
        return Lj;
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = ps[k];
    return Ls;
}

/* The evaluated length of the schedule just built, merges released while the evaluator
 * reports a deadlock (the safety net; *dyn tells whether it fired). */
static int64_t
repair_dynamic(Worker *w, bool *dyn)
{
    int nrel = 0;
    int64_t L0 = eval(w);
    while (L0 < 0) {
        if (release_on_deadlock(w) < 0 || repair_static(w, true, &nrel) < 0)
            return -1;
        w->ndead++;
        *dyn = true;
        L0 = eval(w);
    }
    return L0;
}

/* ---- the fitness cache: keyed by two 64-bit hashes of the repaired merge ---- */

typedef struct Key {
    uint64_t h1, h2;
    bool hit;    /* the fitness came from the cache */
    bool dyn;    /* the dynamic check released a merge: not cached */
    bool pruned; /* its bound was not below the threshold: not evaluated, not cached */
} Key;

static uint64_t
mix64(uint64_t h, uint64_t x)
{
    h ^= x + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return h ^ (h >> 31);
}

/* The repaired merge as two hashes: the group of every unit (numbered by first member:
 * a canonical form of the partition) and, with the joint bits, the bit each group uses.
 */
static void
key_of(const Worker *w, const uint8_t *x, bool joint, Key *k)
{
    const Space *sp = w->sp;
    uint64_t a = UINT64_C(0x243F6A8885A308D3), b = UINT64_C(0x13198A2E03707344);
    for (int u = 0; u < sp->M; u++) {
        a = mix64(a, (uint64_t)w->gidx[u]);
        b = mix64(b, (uint64_t)w->gidx[u] * UINT64_C(0xD6E8FEB86659FD93) + 1);
    }
    if (joint)
        for (int g = 0; g < w->G; g++) {
            uint64_t bit = x[sp->nbits + gfirst(w, g)];
            a = mix64(a, bit + 7);
            b = mix64(b, bit + 11);
        }
    k->h1 = a | 1;
    k->h2 = b;
}

static int
cache_slot(const Cache *c, uint64_t h1, uint64_t h2)
{
    int i = (int)(h1 % (uint64_t)c->cap);
    while (c->h1[i] && (c->h1[i] != h1 || c->h2[i] != h2))
        i = (i + 1) % c->cap;
    return i;
}

static bool
cache_get(const Cache *c, const Key *k, int64_t *f)
{
    if (!c || !c->cap)
        return false;
    int i = cache_slot(c, k->h1, k->h2);
    if (!c->h1[i])
        return false;
    *f = c->f[i];
    return true;
}

static void
cache_put(Cache *c, const Key *k, int64_t f)
{
    if (2 * (c->n + 1) > c->cap) {
        Cache o = *c;
        c->cap = o.cap ? 2 * o.cap : 1024;
        c->n = 0;
        c->h1 = ir_xcalloc((size_t)c->cap, sizeof *c->h1);
        c->h2 = ir_xcalloc((size_t)c->cap, sizeof *c->h2);
        c->f = ir_xcalloc((size_t)c->cap, sizeof *c->f);
        for (int i = 0; i < o.cap; i++)
            if (o.h1[i]) {
                int j = cache_slot(c, o.h1[i], o.h2[i]);
                c->h1[j] = o.h1[i];
                c->h2[j] = o.h2[i];
                c->f[j] = o.f[i];
                c->n++;
            }
        free(o.h1);
        free(o.h2);
        free(o.f);
    }
    int j = cache_slot(c, k->h1, k->h2);
    if (c->h1[j])
        return;
    c->h1[j] = k->h1;
    c->h2[j] = k->h2;
    c->f[j] = f;
    c->n++;
}

/* Fitness of the merge in the worker's labels (the repair's groups written back into x
 * when x is given): repair, pipelines; the length.  A merge found in c costs no
 * evaluation.  When the bound of the merge (eval_new_bound: below its length with any
 * pipelines, so below its fitness) is not below thr, its fitness cannot be below thr:
 * it is not evaluated and the result is INT64_MAX (key->pruned). */
static int64_t
fitness_groups(Worker *w, uint8_t *x, const BfcoParams *bp, const Cache *c, Key *key,
               int64_t thr)
{
    const Space *sp = w->sp;
    int nrel = 0;
    memset(key, 0, sizeof *key);
    regroup(w);
    if ((x ? repair_bits(w, x, &nrel) : repair_static(w, true, &nrel)) < 0)
        return INT64_MAX;
    key_of(w, x, bp->joint && x, key);
    int64_t f;
    if (cache_get(c, key, &f)) {
        key->hit = true;
        return f;
    }
    if (thr != INT64_MAX) {
        /* cut at thr: the repaired schedule never deadlocks (docs/bfco.md, section 2),
         * and the bound's relaxed rules add no dependence */
        w->fevals++;
        int64_t b = eval_length_below(w->evb, w->ws, thr);
        if (b == EVAL_NOT_BELOW) {
            key->pruned = true;
            return INT64_MAX;
        }
    }
    /* Without contention the length is a lower bound (docs/bfco.md); when it finds no
     * deadlock, the contended L0 is evaluated only if the pipelines need it. */
    int64_t lb = bfco_eval_free(w), L0 = BFCO_L0_LAZY;
    if (lb < 0) {
        L0 = repair_dynamic(w, &key->dyn);
        if (L0 < 0)
            return INT64_MAX;
        if (key->dyn && x)
            bfco_bits_from_groups(w, x);
    }
    int64_t L = bfco_pipelines(w, bp->epsilon, L0, lb);
    if (bp->joint && x) {
        L = joint_pipes(w, x, L);
        for (int u = 0; u < sp->M; u++) /* Lamarckian: the bits say what was used */
            x[sp->nbits + u] = w->ws->msgs[w->gidx[u]].pipelined;
    }
    return L;
}

static int64_t
fitness(Worker *w, uint8_t *x, const BfcoParams *bp, const Cache *c, Key *key,
        int64_t thr)
{
    bfco_groups_from_bits(w, x);
    return fitness_groups(w, x, bp, c, key, thr);
}

/* Polish: first-improvement toggling of single pipelines on the built schedule, at most
 * three passes and `budget` toggles tried.  A toggle whose length without contention (a
 * lower bound) is not below the current length cannot be kept: it costs no evaluation.
 * Unless `all`, a toggle is also skipped when it lengthens the contention-free length
 * of the current set: a heuristic screen (docs/bfco.md), the contended length is not
 * evaluated for a toggle that makes the schedule worse even without contention.  When
 * the budget ends within the first pass (fewer toggles than receives that can be
 * toggled: the 1000- and 5000-task cases, not the 100-task case nor fft32), the screen
 * is strict: it also skips a toggle that leaves the contention-free length as it is.
 * There those are most of the polish's contended evaluations and seldom kept
 * (docs/bfco.md, "The polish on large schedules").  With `whole` (the default budget on
 * schedules of at most DESCENT_CONVERGE_MAX messages, where the descent converges too)
 * the budget is at least one toggle per receive, so the first pass ends and its screen
 * is not strict: a 64-point FFT on two boards (759 messages, 482 receives against a
 * budget of 352) kept 12 pipelines fewer and came out 1.5 % shorter than with the strict
 * screen, the length of a search ten times longer. */
static int64_t
polish(Worker *w, int64_t L, int64_t budget, bool whole, bool all, int64_t *used)
{
    bool *p = w->pipe;
    int64_t e0 = w->evals, tried = 0, ntog = 0;
    for (int k = 0; k < w->G; k++) {
        p[k] = w->ws->msgs[k].pipelined;
        ntog += p[k] || bfco_pipeable(w, k);
    }
    if (whole && budget < ntog)
        budget = ntog;
    bool strict = !all && budget < ntog;
    int64_t F = all ? -2 : bfco_eval_free(w); /* contention-free length of the set */
    /* A toggle's outcome depends only on the set (and L, F, which change with it): one
     * that failed since the last improvement fails again, it is not evaluated (but
     * counts as tried, so the budget runs out where it did). */
    int64_t ver = 0, *failed = ir_xcalloc((size_t)w->G + 1, sizeof *failed);
    for (int k = 0; k < w->G; k++)
        failed[k] = -1;
    for (int pass = 0; pass < 3; pass++) {
        bool improved = false;
        for (int k = 0; k < w->G && tried < budget; k++) {
            if (!p[k] && !bfco_pipeable(w, k))
                continue;
            p[k] = !p[k];
            tried++;
            int64_t Lk = INT64_MAX;
            if (failed[k] != ver && bfco_mem_ok(w, p)) {
                bfco_set_pipes(w, p);
                /* only whether lb < L and lb <= F (lb < F when strict) matters, and lb
                 * itself when kept */
                int64_t c = F >= 0 && F < L ? F + !strict : L;
                int64_t lb = free_below(w, c);
                if (lb == -2 || (lb < L && (F < 0 || lb < F || (!strict && lb == F))))
                    Lk = eval_below(w, L);
                if (Lk < L)
                    F = F == -2 ? -2 : lb;
            }
            if (Lk < L) {
                L = Lk;
                improved = true;
                ver++;
            } else {
                p[k] = !p[k];
                failed[k] = ver;
            }
        }
        if (!improved)
            break;
    }
    free(failed);
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = p[k];
    *used = w->evals - e0;
    return L;
}

/* The descent's surrogate of the merge in x: the length without contention of its
 * repaired schedule with the greedy pipeline set (every receive that can be pipelined
 * is), INT64_MAX when it deadlocks; the repaired groups are written back into x.  On a
 * platform without contention, the length itself.  It ranks merges as the fitness does
 * (docs/bfco.md, "Descent") at a fraction of its cost: one contention-free evaluation.
 * When `same` (B bytes) is given and the repaired x equals it, the result is `known`
 * (the surrogate of `same`) without an evaluation: a move the repair undid.  The result
 * depends only on the repaired merge (the schedule is built from its groups), so a merge
 * the descent met before is not evaluated again: its result comes from w->sur (when
 * the table of inputs has not met x's partition, or is off).  The worker's groups are
 * those of x's bits (bfco_groups_from_bits) on entry.  *unrepaired: the repair failed
 * (INT64_MAX; x is then no point of the search). */
static int64_t
surrogate_of(Worker *w, uint8_t *x, const uint8_t *same, int B, int64_t known,
             bool *unrepaired, bool *bound)
{
    int nrel = 0;
    *bound = false;
    regroup(w);
    *unrepaired = repair_bits(w, x, &nrel) < 0;
    if (*unrepaired)
        return INT64_MAX;
    if (same && memcmp(x, same, (size_t)B) == 0)
        return known;
    Key k;
    int64_t L;
    key_of(w, x, false, &k);
    if (w->tables && cache_get(&w->sur, &k, &L))
        return L;
    bfco_greedy_pipes(w, w->gpipe);
    bfco_set_pipes(w, w->gpipe);
    L = bfco_eval_free(w);
    if (L == -2) {
        L = eval(w);
    } else if (w->csur && L >= 0) {
        /* the contended length only when its lower bound leaves it a chance */
        *bound = same && L >= known;
        if (!*bound)
            L = eval(w);
    }
    L = L < 0 ? INT64_MAX : L;
    if (w->tables && !*bound)
        cache_put(&w->sur, &k, L);
    return L;
}

/* The surrogate becomes the contended length (surrogate_of): the tables held the other
 * one. */
static void
surrogate_contended(Worker *w)
{
    w->csur = true;
    cache_free(&w->sur);
    memset(&w->sur, 0, sizeof w->sur);
    cache_free(&w->pre);
    memset(&w->pre, 0, sizeof w->pre);
    w->pre_n = 0;
    if (w->pre_bits)
        memset(w->pre_bits, 0,
               (size_t)w->pre_cap * ((w->sp->nbits + 63) / 64) * sizeof *w->pre_bits);
}

/* The partition of the worker's labels (from bfco_groups_from_bits: each unit labelled
 * by its group's least member, a canonical form) as two hashes. */
static void
labels_key(const Worker *w, Key *k)
{
    uint64_t a = UINT64_C(0x452821E638D01377), b = UINT64_C(0xBE5466CF34E90C6C);
    for (int u = 0; u < w->sp->M; u++) {
        a = mix64(a, (uint64_t)w->label[u]);
        b = mix64(b, (uint64_t)w->label[u] * UINT64_C(0xD6E8FEB86659FD93) + 1);
    }
    k->h1 = a | 1;
    k->h2 = b;
}

/* The most the table of inputs by partition (surrogate) holds of repaired bits: a
 * 256-point FFT's descent (3 412 messages, 49 152 moves, 1.7 KB of bits a partition)
 * filled 84 MB, doubling 168 MB at its peak; the 5000-task case's fits (about 15 000
 * partitions of 1.3 KB). */
#define PRE_TABLE_BYTES ((size_t)32 << 20)

/* surrogate_of; with w->tables, an input x whose partition (the groups its merge bits
 * make before the repair) was met before takes the repaired bits and the result from the
 * worker's table instead of a new repair: the repair and the surrogate are functions of
 * that partition (regroup numbers the groups by first member).  Moves that join the same
 * two groups through different bits meet the same partition, as does a move tried again
 * from the same point: at 100 tasks 362 of the 702 surrogates come from the table (keyed
 * by the bits themselves, 204), the 340 others each cost a repair and an evaluation.  At
 * 1000 tasks, where one pass does not fit in the budget and no move is tried twice, the
 * moves of a pass that join the same two groups still meet (opt_run 6.26 -> 6.00 billion
 * instructions; keyed by the bits, the table found nothing there and was off). */
static int64_t
surrogate(Worker *w, uint8_t *x, const uint8_t *same, int B, int64_t known)
{
    const Space *sp = w->sp;
    bool failed, bound;
    bfco_groups_from_bits(w, x);
    if (!w->tables)
        return surrogate_of(w, x, same, B, known, &failed, &bound);
    Key k;
    int64_t i;
    labels_key(w, &k);
    int W = (sp->nbits + 63) / 64;
    if (cache_get(&w->pre, &k, &i)) {
        const uint64_t *r = w->pre_bits + (size_t)i * W;
        int64_t L = w->pre_f[i];
        if (L == INT64_MIN) /* the repair failed: x as it was */
            return INT64_MAX;
        bool lower = L < 0; /* a lower bound b, held as -b - 2 */
        L = lower ? -L - 2 : L;
        if (!lower || (same && L >= known)) {
            for (int b = 0; b < sp->nbits; b++)
                x[b] = (r[b >> 6] >> (b & 63)) & 1;
            return same && memcmp(x, same, (size_t)B) == 0 ? known : L;
        }
        L = surrogate_of(w, x, same, B, known, &failed, &bound);
        w->pre_f[i] = bound ? -L - 2 : L;
        return L;
    }
    int64_t L = surrogate_of(w, x, same, B, known, &failed, &bound);
    if (w->pre_n == w->pre_cap) {
        int cap = w->pre_cap ? 2 * w->pre_cap : 256;
        if (w->pre_cap && (size_t)cap * W * sizeof(uint64_t) > PRE_TABLE_BYTES)
            return L; /* full: a partition met again is repaired again, the same result */
        uint64_t *nb = ir_xcalloc((size_t)cap * W + 1, sizeof *nb);
        int64_t *nf = ir_xcalloc((size_t)cap, sizeof *nf);
        if (w->pre_n) {
            memcpy(nb, w->pre_bits, (size_t)w->pre_n * W * sizeof *nb);
            memcpy(nf, w->pre_f, (size_t)w->pre_n * sizeof *nf);
        }
        free(w->pre_bits);
        free(w->pre_f);
        w->pre_bits = nb;
        w->pre_f = nf;
        w->pre_cap = cap;
    }
    i = w->pre_n++;
    uint64_t *r = w->pre_bits + (size_t)i * W;
    for (int b = 0; b < sp->nbits; b++)
        r[b >> 6] |= (uint64_t)x[b] << (b & 63);
    w->pre_f[i] = failed ? INT64_MIN : bound ? -L - 2 : L;
    cache_put(&w->pre, &k, i);
    return L;
}

/* A move of the descent: y (repaired by the surrogate) becomes the current point cur
 * when its surrogate is shorter than *S (then *S is y's).  *d gets the surrogate's change
 * (y's minus *S before the move).  True when it moved. */
static bool
keep_if_shorter(Worker *w, uint8_t *y, uint8_t *cur, int64_t *S, int B, int64_t *d)
{
    int64_t s = surrogate(w, y, cur, B, *S);
    *d = s == INT64_MAX ? INT64_MAX : s - *S;
    if (s >= *S)
        return false;
    *S = s;
    memcpy(cur, y, (size_t)B);
    return true;
}

/* How far the descent's passes may go (descent_reach): moves in all, and with first_cap
 * > 0 the moves of the first pass and the rules of DESCENT_FIRST_BUDGETS. */
typedef struct Reach {
    int64_t moves, first_cap;
} Reach;

typedef struct Move {
    int64_t d; /* the surrogate's change when the move was last tried */
    int m;     /* < nbits: join the groups of bit m; < nbits + M: take unit m - nbits out;
                  else gather unit m - nbits - M (apply_move) */
} Move;

static int
move_cmp(const void *a, const void *b)
{
    const Move *p = a, *q = b;
    if (p->d != q->d)
        return p->d < q->d ? -1 : 1;
    return (p->m > q->m) - (p->m < q->m);
}

/* The descent's moves: the joins (one per merge bit), the units (take unit u out of its
 * group), and above DESCENT_CONVERGE_MAX messages the gathers (set every merge bit of
 * unit u: its group joined with those of all its window neighbours); m < nbits a join,
 * then the M units, then the M gathers.  The gathers are there for the schedules whose
 * descent may stop within its first pass, which takes the joins and the gathers in turn
 * by how often each kind was kept (first_pass_kinds): on a graph whose best merge joins
 * most messages of a pair (a 128-point FFT: 1 533 messages into 345) one gather does what
 * takes the joins about eight moves; where gathers are not kept (the 1000-task case: 0
 * of 8) the joins get the budget (docs/bfco.md, "Gather moves"). */
static bool
has_gathers(const Space *sp)
{
    return sp->M > DESCENT_CONVERGE_MAX;
}

static int
descent_moves(const Space *sp)
{
    return sp->nbits + sp->M * (has_gathers(sp) ? 2 : 1);
}

/* Move m of the descent applied to y (a copy of the current point); false when it does
 * not apply (the bit is set, the unit is alone, every bit of the unit is set). */
static bool
apply_move(const Space *sp, uint8_t *y, int m)
{
    if (m < sp->nbits) {
        if (y[m])
            return false;
        y[m] = 1;
        return true;
    }
    int u = m - sp->nbits;
    uint8_t want = u >= sp->M; /* a gather sets the unit's bits, a unit clears them */
    u = want ? u - sp->M : u;
    bool any = false;
    for (int b = 0; b < sp->nbits; b++)
        if (y[b] != want && (sp->bu[b] == u || sp->bv[b] == u)) {
            y[b] = want;
            any = true;
        }
    return any;
}

/* The wall clock, in seconds (--time-limit). */
static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What the passes watch: where the current pass ends (lim: a move count) and, above
 * DESCENT_CONVERGE_MAX messages (gap_grown), the fitness of the points they reach, the
 * shortest kept in x (*F), and the gap between it and the surrogate since the start
 * (gap0); within a pass, after every `every` moves (> 0: a first pass that cannot end
 * within its cap), the next at `next`.  When the gap has grown there (`grown`), the pass
 * goes on to its end on the contention-free surrogate, and the contended one takes over
 * after it, within `reach` (CONTENDED_PASSES). */
typedef struct Judge {
    uint8_t *x;
    int64_t *F;
    const BfcoParams *bp;
    int64_t gap0, every, next;
    int64_t lim, reach;
    bool grown;
} Judge;

/* The descent's passes stop: the time limit is spent. */
static bool
out_of_time(const Worker *w)
{
    return w->deadline > 0 && now() >= w->deadline;
}

static int64_t fitness_kept(Worker *w, uint8_t *cur, uint8_t *x, int64_t *F, int B,
                            const BfcoParams *bp);

/* The fitness of cur (kept in jd->x when shorter); true when its excess over the
 * surrogate S has grown by more than 1 / SURROGATE_GAP since the start (and the surrogate
 * is still the contention-free one). */
static bool
gap_grown(Worker *w, uint8_t *cur, int64_t S, int B, Judge *jd)
{
    int64_t f = fitness_kept(w, cur, jd->x, jd->F, B, jd->bp);
    return !w->csur && w->evf && f != INT64_MAX && f - S - jd->gap0 > S / SURROGATE_GAP;
}

/* From now on the surrogate is the contended length (*S recomputed). */
static void
to_contended(Worker *w, uint8_t *cur, int64_t *S, int B)
{
    surrogate_contended(w);
    *S = surrogate(w, cur, NULL, B, 0);
}

/* Move mv[i] tried from cur (y: room for a copy); true when it was kept.  When jd
 * watches within the pass (jd->every > 0), the point is judged after every jd->every
 * moves. */
static bool
try_move(Worker *w, uint8_t *cur, uint8_t *y, int64_t *S, int B, Move *mv, int64_t *n,
         Judge *jd)
{
    memcpy(y, cur, (size_t)B);
    if (!apply_move(w->sp, y, mv->m))
        return false;
    (*n)++;
    bool kept = keep_if_shorter(w, y, cur, S, B, &mv->d);
    if (jd->every > 0 && *n >= jd->next) {
        jd->next = *n + jd->every;
        if (gap_grown(w, cur, *S, B, jd)) {
            jd->every = 0;
            jd->grown = true;
            jd->lim = jd->reach;
        }
    }
    return kept;
}

/* The first pass when there are gathers (mv in its first order: joins, units, gathers):
 * the joins in bit order and the gathers in unit order in turn, the next move from the
 * kind whose moves were kept more often so far ((kept + 1) / (tried + 2), ties to the
 * joins), then the units, until *n reaches jd->lim or the time is up.  True when it
 * kept a move. */
static bool
first_pass_kinds(Worker *w, uint8_t *cur, uint8_t *y, int64_t *S, int B, Move *mv,
                 int64_t *n, Judge *jd)
{
    const Space *sp = w->sp;
    int nj = sp->nbits, nu = sp->M, end[2] = {nj, nj + 2 * nu}, at[2] = {0, nj + nu};
    int64_t tried[2] = {0, 0}, kept[2] = {0, 0};
    bool moved = false;
    while ((at[0] < end[0] || at[1] < end[1]) && *n < jd->lim && !out_of_time(w)) {
        int k = at[0] >= end[0] ? 1
                : at[1] >= end[1]
                    ? 0
                    : (kept[1] + 1) * (tried[0] + 2) > (kept[0] + 1) * (tried[1] + 2);
        int64_t n0 = *n;
        bool kk = try_move(w, cur, y, S, B, &mv[at[k]++], n, jd);
        tried[k] += *n - n0;
        kept[k] += kk;
        moved |= kk;
    }
    for (int i = nj; i < nj + nu && *n < jd->lim && !out_of_time(w); i++)
        moved |= try_move(w, cur, y, S, B, &mv[i], n, jd);
    return moved;
}

/* One pass: every move of mv in order from cur until *n reaches jd->lim or the time is
 * up, or with cut > 0 until nm / cut moves in a row (nm: the moves of a pass) kept
 * nothing; true when it kept one. */
static bool
one_pass(Worker *w, uint8_t *cur, uint8_t *y, int64_t *S, int B, Move *mv, int cut,
         int64_t *n, Judge *jd)
{
    bool moved = false;
    int nm = descent_moves(w->sp);
    int64_t since = 0; /* moves tried since the last one kept */
    for (int i = 0;
         i < nm && *n < jd->lim && !out_of_time(w) && (cut == 0 || since * cut < nm);
         i++) {
        int64_t n0 = *n;
        bool kept = try_move(w, cur, y, S, B, &mv[i], n, jd);
        moved |= kept;
        since = kept ? 0 : since + (*n - n0);
    }
    return moved;
}

/* The fitness of cur, which replaces x (fitness *F) when it is shorter. */
static int64_t
fitness_kept(Worker *w, uint8_t *cur, uint8_t *x, int64_t *F, int B, const BfcoParams *bp)
{
    Key k;
    int64_t f = fitness(w, cur, bp, NULL, &k, INT64_MAX);
    if (f < *F) {
        *F = f;
        memcpy(x, cur, (size_t)B);
    }
    return f;
}

/* Passes of first-improvement moves on the surrogate from cur (surrogate *S) until a
 * pass keeps no move (true: cur is a local optimum), *n reaches budget or the time limit
 * is spent.  With first_cap > 0 (descent_reach's rule above DESCENT_CONVERGE_MAX
 * messages), while the surrogate is the contention-free one: the first pass tries at
 * most first_cap moves, no pass follows when it did not end within them, the passes also
 * stop when one shortens the surrogate by less than 1 / DESCENT_PASS_GAIN of it, and when
 * the first shortened it by less than 1 / DESCENT_FIRST_GAIN a later pass ends after
 * DESCENT_CUT's run of moves that kept nothing and the second must gain 1 /
 * DESCENT_SECOND_GAIN.  Above DESCENT_CONVERGE_MAX messages (and with first_cap) every
 * pass end (and the start) gets the fitness, the shortest kept in x (*F), and a gap
 * between the fitness and the surrogate grown by more than 1 / SURROGATE_GAP since the
 * start makes the surrogate the contended length from then on (in a first pass with more
 * moves than its cap, judged every budget of moves too: there a grown gap lifts the cap,
 * and the switch comes at the pass's end).  On the contended length the passes follow
 * until one keeps nothing, within CONTENDED_PASSES passes' moves (with first_cap; else
 * within budget): its moves kept are spread over whole passes (the cut stopped a
 * 128-point FFT on two boards 1.3 % above the long search, whole passes 0.015 %), and its
 * gains come back after passes of almost none (CONTENDED_PASSES).
 * mv: the moves in the order to try (first: mv is in its first order, and with gathers
 * the first pass is first_pass_kinds); each pass ends by sorting them by the surrogate's
 * change when they were last tried (the most promising first, ties by the first pass's
 * order). */
static bool
passes(Worker *w, uint8_t *cur, int64_t *S, int B, Move *mv, bool first,
       int64_t first_cap, int64_t budget, int64_t *n, uint8_t *x, int64_t *F,
       const BfcoParams *bp)
{
    const Space *sp = w->sp;
    uint8_t *y = ir_xcalloc((size_t)B + 1, 1);
    bool moved = true, go = true, cutting = false;
    bool track = x && (first_cap > 0 || sp->M > DESCENT_CONVERGE_MAX);
    int64_t nm = descent_moves(sp);
    Judge jd = {.x = x, .F = F, .bp = bp};
    /* on the contended length, the passes go on to a local optimum (CONTENDED_PASSES);
     * an explicit budget (first_cap 0) stays the reach */
    jd.reach =
        first_cap > 0 && CONTENDED_PASSES * nm > budget ? CONTENDED_PASSES * nm : budget;
    if (track && !w->csur && w->evf) {
        int64_t f = fitness_kept(w, cur, x, F, B, bp);
        jd.gap0 = f == INT64_MAX ? 0 : f - *S;
    }
    for (int pass = 0;
         moved && go && *n < (w->csur ? jd.reach : budget) && !out_of_time(w); pass++) {
        int64_t S0 = *S;
        bool free0 = !w->csur;
        jd.lim = w->csur ? jd.reach : budget;
        if (pass == 0 && free0 && first_cap > 0 && first_cap < budget - *n)
            jd.lim = *n + first_cap;
        /* a first pass with more moves than its cap may never reach its end: judged
         * after every budget of moves (fft256 on two boards: 4 019 messages, 23 534 moves
         * against a cap of 15 360) */
        jd.every = track && free0 && pass == 0 && first_cap > 0 && nm > jd.lim - *n
                       ? first_cap / DESCENT_FIRST_BUDGETS
                       : 0;
        jd.next = *n + jd.every;
        jd.grown = false;
        int cut = cutting && free0 ? DESCENT_CUT : 0;
        moved = pass == 0 && first && has_gathers(sp)
                    ? first_pass_kinds(w, cur, y, S, B, mv, n, &jd)
                    : one_pass(w, cur, y, S, B, mv, cut, n, &jd);
        qsort(mv, (size_t)nm, sizeof *mv, move_cmp);
        bool sw = jd.grown; /* the gap grew within the pass */
        if (first_cap > 0 && free0 && !sw) {
            go = S0 - *S >= S0 / (pass == 1 && cutting ? DESCENT_SECOND_GAIN
                                                       : DESCENT_PASS_GAIN) &&
                 (pass > 0 || *n < jd.lim);
            if (pass == 0)
                cutting = S0 - *S < S0 / DESCENT_FIRST_GAIN;
        }
        if (track && !sw && !(jd.every > 0 && jd.next - jd.every == *n)) /* not judged */
            sw = gap_grown(w, cur, *S, B, &jd);
        if (sw) { /* passes on the contended length follow, to a local optimum */
            to_contended(w, cur, S, B);
            go = true;
            moved = true;
        }
    }
    free(y);
    return !moved;
}

/* The kick of the iterated local search: `k` random moves applied to y (the best point;
 * a move that does not apply is drawn again, at most 4 k draws). */
static void
kick(const Space *sp, uint8_t *y, int k, uint64_t *rng)
{
    int nm = sp->nbits + sp->M;
    for (int done = 0, draws = 0; done < k && draws < 4 * k; draws++)
        done += apply_move(sp, y, (int)(urand(rng) * nm));
}

/* Descent from the merge of x (fitness F): passes of first-improvement moves on the
 * surrogate — join two groups (a merge bit that is not set), take a unit out of its
 * group (its bits cleared), above DESCENT_CONVERGE_MAX messages gather — until a pass
 * keeps no move or `reach` (>= budget) moves were tried, or (first_cap > 0) the rule of
 * DESCENT_FIRST_BUDGETS stops them; then the fitness of the end point (with first_cap,
 * of every pass end), kept in x when it is shorter than F. The
 * first pass tries every join in bit order, then every unit; each later pass tries the
 * moves in the order of the surrogate's change when they were last tried: the moves a
 * pass keeps are mostly among those that came close in the pass before, so a budget that
 * ends within a pass spends it where the gains are (docs/bfco.md, "Descent").
 * When the descent ends at a local optimum with budget left, an iterated local search
 * follows: x kicked by bp->kick_moves random moves, descended again, kept when its
 * fitness is shorter, until `budget` is used or bp->kicks kicks in a row kept nothing.
 * Deterministic for a given rng.  Returns the fitness of x; *tried gets the moves
 * tried, *local (if not NULL) whether the first descent ended at a local optimum. */
static int64_t
descend(Worker *w, uint8_t *x, int64_t F, const BfcoParams *bp, int B, int64_t budget,
        int64_t reach, int64_t first_cap, uint64_t *rng, int64_t *tried, bool *at_local)
{
    const Space *sp = w->sp;
    int nm = descent_moves(sp);
    uint8_t *cur = ir_xcalloc((size_t)B + 1, 1);
    Move *mv = ir_xcalloc((size_t)nm, sizeof *mv);
    for (int m = 0; m < nm; m++)
        mv[m] = (Move){0, m};
    memcpy(cur, x, (size_t)B);
    int64_t S = surrogate(w, cur, NULL, B, 0), n = 0;
    bool local = passes(w, cur, &S, B, mv, true, first_cap, reach, &n, x, &F, bp);
    if (at_local)
        *at_local = local;
    Key k;
    int64_t f = fitness(w, cur, bp, NULL, &k, F);
    if (f < F) {
        F = f;
        memcpy(x, cur, (size_t)B);
    }
    for (int fails = 0; local && n < budget && fails < bp->kicks;) {
        memcpy(cur, x, (size_t)B);
        kick(sp, cur, bp->kick_moves, rng);
        S = surrogate(w, cur, NULL, B, 0);
        passes(w, cur, &S, B, mv, false, 0, budget, &n, NULL, NULL, bp);
        f = fitness(w, cur, bp, NULL, &k, F);
        fails++;
        if (f < F) {
            F = f;
            memcpy(x, cur, (size_t)B);
            fails = 0;
        }
    }
    free(mv);
    free(cur);
    *tried += n;
    return F;
}

/* After the last descent: passes of the descent's moves from gb (fitness gbf) on the
 * fitness itself, with the bound's cutoff, first improvement, until a pass keeps none or
 * bp->fitness_passes passes ran.  The surrogate is contention-free: a merge that pays
 * only with contention, or whose greedy pipeline set is not the fitness's, is invisible
 * to the descent (rand50-15: three such moves, 0.30 % shorter; docs/bfco.md, "Moves on
 * the fitness").  Returns gb's fitness; *tried gets the moves tried. */
static int64_t
fitness_moves(Worker *w, uint8_t *gb, int64_t gbf, const BfcoParams *bp, int B,
              int64_t *tried)
{
    const Space *sp = w->sp;
    int nm = sp->nbits + sp->M;
    uint8_t *y = ir_xcalloc((size_t)B + 1, 1);
    Key k;
    bool moved = true;
    for (int pass = 0; moved && pass < bp->fitness_passes; pass++) {
        moved = false;
        for (int m = 0; m < nm; m++) {
            memcpy(y, gb, (size_t)B);
            if (!apply_move(sp, y, m))
                continue;
            (*tried)++;
            int64_t f = fitness(w, y, bp, NULL, &k, gbf);
            if (f < gbf) {
                gbf = f;
                memcpy(gb, y, (size_t)B);
                moved = true;
            }
        }
    }
    free(y);
    return gbf;
}

typedef struct Job {
    Worker *w;
    uint8_t **x;
    int64_t *f;
    const int64_t *thr; /* [P] a fitness not below it does not matter, or NULL */
    Key *key;
    const int *todo;
    int ntodo, tid, nthreads;
    const BfcoParams *bp;
    const Cache *cache;
} Job;

static void *
job_run(void *arg)
{
    Job *j = arg;
    for (int i = j->tid; i < j->ntodo; i += j->nthreads) {
        int k = j->todo[i];
        j->f[k] = fitness(j->w, j->x[k], j->bp, j->cache, &j->key[k],
                          j->thr ? j->thr[k] : INT64_MAX);
    }
    return NULL;
}

/* Evaluates particles todo[0 .. n) on the threads; the cache is only read meanwhile and
 * then filled in particle order, so what is evaluated does not depend on the threads. */
static void
evaluate_swarm(Worker **ws, int nthreads, uint8_t **x, int64_t *f, const int64_t *thr,
               Key *key, const int *todo, int n, Cache *c, const BfcoParams *bp,
               int64_t *hits)
{
    int T = nthreads < n ? nthreads : n;
    if (T < 1)
        T = 1;
    Job jobs[64];
    pthread_t th[64];
    for (int t = 0; t < T; t++)
        jobs[t] = (Job){ws[t], x, f, thr, key, todo, n, t, T, bp, c};
    for (int t = 1; t < T; t++)
        if (pthread_create(&th[t], NULL, job_run, &jobs[t]) != 0)
            ice("cannot create a thread");
    job_run(&jobs[0]);
    for (int t = 1; t < T; t++)
        pthread_join(th[t], NULL);
    for (int i = 0; i < n; i++) {
        const Key *k = &key[todo[i]];
        if (k->hit)
            (*hits)++;
        else if (!k->dyn && f[todo[i]] != INT64_MAX)
            cache_put(c, k, f[todo[i]]);
    }
}

/* Particle k's position at a (re)start: 0 no merge (none, cp), 1 every merge of the
 * window, the others at densities spread from sparse to dense, velocities to match;
 * joint pipeline bits at even odds. */
static void
seed_particle(const Space *sp, int k, int P, int B, double vmax, uint64_t *rng,
              uint8_t *x, float *v)
{
    double dens = k == 0 ? 0.0 : k == 1 ? 1.0 : pow((double)(k - 1) / (P - 1), 2.0);
    double v0 = dens <= 0 ? -vmax : dens >= 1 ? vmax : log(dens / (1 - dens));
    if (v0 > vmax)
        v0 = vmax;
    if (v0 < -vmax)
        v0 = -vmax;
    for (int b = 0; b < sp->nbits; b++) {
        x[b] = k == 1 || (k > 1 && urand(rng) < dens);
        v[b] = (float)v0;
    }
    for (int b = sp->nbits; b < B; b++) {
        x[b] = urand(rng) < 0.5;
        v[b] = 0;
    }
}

/* Above DESCENT_CONVERGE_MAX messages, where the descent does not converge by default,
 * the first descent starts from the shortest (by fitness) of no merge and the merges of
 * the sends of a class at most d slots apart on their DSP, d = 2, 4, ... NEAR_MAX_SLOTS;
 * the d's are tried upwards until NEAR_STOP of them in a row did not better the
 * shortest.  Sends close in their DSP's order leave close in time, and one message for
 * them costs their receiver one overhead instead of several.  On the 128-point FFT of
 * one board the start is 11 % shorter than no merge (d = 4), and the default ends
 * 0.6-3.0 % shorter on 8 of the 10 FFTs of one and two boards whose start changed (0.24
 * and 0.86 % longer on the other two); on four boards and on the 1000-task random graph
 * no merge is the shortest and the scan costs two or three evaluations (docs/bfco.md,
 * "The near-sends start"). */
#define NEAR_MAX_SLOTS 32
#define NEAR_STOP 2

/* z (no merge) becomes the start named above. */
static void
near_sends_start(Worker *w, uint8_t *z, const BfcoParams *bp, int B)
{
    const Space *sp = w->sp;
    Key k;
    int64_t best = fitness(w, z, bp, NULL, &k, INT64_MAX);
    uint8_t *q = ir_xcalloc((size_t)B + 1, 1);
    for (int d = 2, fails = 0; d <= NEAR_MAX_SLOTS && fails < NEAR_STOP; d += 2) {
        memcpy(q, z, (size_t)B);
        for (int b = 0; b < sp->nbits; b++)
            q[b] = abs(sp->ssl[sp->bu[b]] - sp->ssl[sp->bv[b]]) <= d;
        int64_t f = fitness(w, q, bp, NULL, &k, best);
        if (f < best) {
            best = f;
            memcpy(z, q, (size_t)B);
            fails = 0;
        } else {
            fails++;
        }
    }
    free(q);
}

/* The first descent of a run starts from no merge (with gbest's joint bits; above
 * DESCENT_CONVERGE_MAX messages near_sends_start's point) before it starts from gbest:
 * that end point does not depend on the seed, and the descents from different gbests
 * end some percent apart (fft32), so this is what keeps the seeds together.  gb and the
 * result as descend's; *at_local: gb is now that end point and a local optimum. */
static int64_t
descend_from_none(Worker *w, uint8_t *gb, int64_t gbf, const BfcoParams *bp, int B,
                  int64_t budget, const Reach *r, uint64_t *rng, int64_t *tried,
                  bool *at_local)
{
    bool local = false;
    uint8_t *z = ir_xcalloc((size_t)B + 1, 1);
    memcpy(z, gb, (size_t)B);
    memset(z, 0, (size_t)w->sp->nbits);
    if (w->sp->M > DESCENT_CONVERGE_MAX)
        near_sends_start(w, z, bp, B);
    int64_t fz = descend(w, z, INT64_MAX - 1, bp, B, budget - *tried, r->moves - *tried,
                         r->first_cap, rng, tried, &local);
    if (fz < gbf) {
        gbf = fz;
        memcpy(gb, z, (size_t)B);
        *at_local = local;
    }
    free(z);
    return gbf;
}

/* The search's size after `gen` generations of P particles, which the default budgets
 * of the descent and the polish scale with: the particles evaluated, counting at least
 * BUDGET_GENERATIONS generations. */
static int64_t
swarm_size(int P, int gen)
{
    return (int64_t)P * (gen > BUDGET_GENERATIONS ? gen : BUDGET_GENERATIONS);
}

/* The descent's moves after `gen` generations of P particles: the option, or 4 per
 * particle evaluated (swarm_size). */
static int64_t
descent_budget(const BfcoParams *bp, int P, int gen)
{
    return bp->descent_budget >= 0 ? bp->descent_budget : 4 * swarm_size(P, gen);
}

/* How far the descent's passes may go (the kicks stay within the budget): by default up
 * to 16 passes (every move once: descent_moves each), enough to reach a local optimum
 * (fft32: 3 000-8 700 moves against a budget of 1 408, 5-9 passes), when one pass fits
 * in the budget or the schedule has at most DESCENT_CONVERGE_MAX messages.  On larger
 * schedules whose pass does not fit, converging costs several times the rest of the
 * search (3.2 times at 1000 tasks): there the rules of DESCENT_FIRST_BUDGETS (first_cap).
 * An explicit budget is the reach (docs/bfco.md, "Descent"). */
static Reach
descent_reach(const BfcoParams *bp, const Space *sp, int64_t budget)
{
    int64_t pass = descent_moves(sp);
    if (bp->descent_budget >= 0)
        return (Reach){budget, 0};
    if (pass > budget && sp->M > DESCENT_CONVERGE_MAX)
        return (Reach){DESCENT_REACH_BUDGETS * budget, DESCENT_FIRST_BUDGETS * budget};
    return (Reach){16 * pass > budget ? 16 * pass : budget, 0};
}

/* The descent at a stall or at the end (docs/bfco.md, "Descent"), from gbest (gb, gbf)
 * after `gen` generations; the first one of a run (first) also from no merge.  When
 * that end point is gbest and a local optimum, the descent from gbest would only
 * confirm it: without kicks it does not run.  Returns gbest's fitness. */
static int64_t
descent(Worker *w, uint8_t *gb, int64_t gbf, const BfcoParams *bp, int B, int P, int gen,
        bool first, uint64_t *rng, int64_t *tried)
{
    int64_t budget = descent_budget(bp, P, gen);
    Reach r = descent_reach(bp, w->sp, budget);
    bool at_local = false;
    if (first && *tried < budget)
        gbf = descend_from_none(w, gb, gbf, bp, B, budget, &r, rng, tried, &at_local);
    if (*tried < budget && !(at_local && bp->kicks == 0))
        gbf = descend(w, gb, gbf, bp, B, budget - *tried, r.moves - *tried, r.first_cap,
                      rng, tried, NULL);
    return gbf;
}

int
bfco_search(const Space *sp, const BfcoParams *bp0, Sched **out, OptStats *st)
{
    double t0 = now();
    /* The joint pipeline bits by default on small schedules: where the paper's greedy
     * pipeline choice misjudges a merge, only they find it (docs/bfco.md, section 8). */
    BfcoParams q = *bp0;
    if (q.joint_units > 0 && sp->M <= q.joint_units)
        q.joint = true;
    /* Restarts by default on small schedules (at most 64 messages, the size up to which
     * the joint bits are on by default): there a stalled swarm costs little to restart,
     * and a single start misses the best merge on some lo20 and rand50 graphs
     * (docs/bfco.md). */
    if (q.restarts < 0)
        q.restarts = sp->M <= 64 ? 3 : 0;
    /* Without restarts, a stall ends the swarm and the descent takes over: the swarm's
     * later generations on larger schedules seldom better gbest, the descent does, and
     * its budget and the polish's do not shrink with a shorter swarm
     * (BUDGET_GENERATIONS).  On the speed graphs of seeds 1-10 a stall of 3 instead of 10
     * finds the same at 100 tasks and more at 1000 than the swarm's later generations
     * ever did (docs/bfco.md, "The stall on large schedules"). */
    if (q.stall < 0)
        q.stall = sp->M <= 64 ? 20 : 3;
    /* Kicks by default on small schedules, as the restarts: there the descent reaches a
     * local optimum with budget left and the kicks find better ones (rand50); on the
     * 100-task case they used the budget left (0.03 s) and kept nothing (docs/bfco.md,
     * "Descent"). */
    if (q.kicks < 0)
        q.kicks = sp->M <= 64 ? 10 : 0;
    /* The moves on the fitness, on small schedules too: a move costs a bound and, when
     * the bound does not prune it, a fitness; on rand50 about 7 % more evaluations. */
    if (q.fitness_passes < 0)
        q.fitness_passes = sp->M <= 64 ? 4 : 0;
    const BfcoParams *bp = &q;
    int B = sp->nbits + (bp->joint ? sp->M : 0);
    int P = bp->particles > 0 ? bp->particles : (B < 24 ? 24 : B > 32 ? 32 : B);
    int Gn = bp->generations > 0 ? bp->generations : 100;
    int nthreads = bp->threads < 1 ? 1 : bp->threads > 64 ? 64 : bp->threads;
    if (B == 0) {
        P = 1;
        Gn = 1;
    } else if (P < 2) {
        P = 2; /* particles 0 and 1 are none/cp and ma */
    }
    if (nthreads > P)
        nthreads = P;
    Worker *ws[64];
    for (int t = 0; t < nthreads; t++) {
        ws[t] = bfco_worker_new(sp);
        ws[t]->tables = !bp->no_tables;
        ws[t]->deadline = bp->time_limit > 0 ? t0 + bp->time_limit : 0;
    }
    size_t nb = (size_t)B + 1;
    uint8_t **x = ir_xcalloc((size_t)P, sizeof *x),
            **pb = ir_xcalloc((size_t)P, sizeof *pb);
    float **v = ir_xcalloc((size_t)P, sizeof *v);
    int64_t *f = ir_xcalloc((size_t)P, sizeof *f),
            *pbf = ir_xcalloc((size_t)P, sizeof *pbf);
    Key *key = ir_xcalloc((size_t)P, sizeof *key);
    uint64_t *rng = ir_xcalloc((size_t)P, sizeof *rng);
    int *todo = ir_xcalloc((size_t)P, sizeof *todo);
    uint8_t *gb = ir_xcalloc(nb, 1);
    int64_t gbf = INT64_MAX;
    double vmax = bp->vmax > 0 ? bp->vmax : 4.0;
    double pm = B > 0 ? bp->mutation / B : 0;
    for (int k = 0; k < P; k++) {
        x[k] = ir_xcalloc(nb, 1);
        pb[k] = ir_xcalloc(nb, 1);
        v[k] = ir_xcalloc(nb, sizeof(float));
        uint64_t s = bp->seed ^ (UINT64_C(0xD1B54A32D192ED03) * (uint64_t)(k + 1));
        rng[k] = splitmix(&s);
        seed_particle(sp, k, P, B, vmax, &rng[k], x[k], v[k]);
        todo[k] = k;
    }
    Cache cache = {0};
    int64_t hits = 0;
    int gen = 0, stall = 0, restarts = 0;
    /* The descent (docs/bfco.md, "Descent") at every stall and at the end, from gbest
     * unless gbest is where the last descent ended, the first one also from no merge;
     * its moves in all at most the budget (default: 4 per particle evaluated), its
     * passes at most the reach (descent_reach). */
    int64_t dtried = 0, dlast = INT64_MIN;
    uint64_t drng = bp->seed ^ UINT64_C(0x6A09E667F3BCC909); /* the kicks' stream */
    bool fresh = true; /* the positions are new: no velocity update before evaluating */
    for (gen = 0; gen < Gn; gen++) {
        if (!fresh) {
            double wgt = Gn > 1 ? bp->w_start - (bp->w_start - bp->w_end) * gen / (Gn - 1)
                                : bp->w_end;
            for (int k = 0; k < P; k++) {
                uint64_t *r = &rng[k];
                for (int b = 0; b < B; b++) {
                    double vv = wgt * v[k][b] + bp->c1 * urand(r) * (pb[k][b] - x[k][b]) +
                                bp->c2 * urand(r) * (gb[b] - x[k][b]);
                    if (vv > vmax)
                        vv = vmax;
                    if (vv < -vmax)
                        vv = -vmax;
                    v[k][b] = (float)vv;
                    double u = urand(r);
                    if (bp->vshaped) {
                        if (u < fabs(tanh(vv)))
                            x[k][b] ^= 1;
                    } else {
                        x[k][b] = u < 1.0 / (1.0 + exp(-vv));
                    }
                    if (pm > 0 && urand(r) < pm)
                        x[k][b] ^= 1;
                }
            }
        }
        /* a particle matters only if it betters its pbest (strictly): pbest is the
         * threshold of its bound, except on fresh positions */
        evaluate_swarm(ws, nthreads, x, f, fresh ? NULL : pbf, key, todo, P, &cache, bp,
                       &hits);
        bool improved = false;
        for (int k = 0; k < P; k++) {
            if (fresh || f[k] < pbf[k]) {
                pbf[k] = f[k];
                memcpy(pb[k], x[k], (size_t)B);
            }
            if (pbf[k] < gbf) {
                gbf = pbf[k];
                memcpy(gb, pb[k], (size_t)B);
                improved = true;
            }
        }
        fresh = false;
        stall = improved ? 0 : stall + 1;
        ir_progress("bfco: generation", gen + 1, Gn);
        if (bp->time_limit > 0 && now() - t0 >= bp->time_limit) {
            gen++;
            break;
        }
        if (bp->stall > 0 && stall >= bp->stall) {
            if (gbf != dlast && gbf != INT64_MAX && sp->nbits > 0) {
                gbf = descent(ws[0], gb, gbf, bp, B, P, gen + 1, dlast == INT64_MIN,
                              &drng, &dtried);
                dlast = gbf;
            }
            if (restarts >= bp->restarts) {
                gen++;
                break;
            }
            /* restart: new positions for every particle but the seeds, gbest kept */
            restarts++;
            stall = 0;
            fresh = true;
            for (int k = 2; k < P; k++)
                seed_particle(sp, k, P, B, vmax, &rng[k], x[k], v[k]);
        }
    }
    if (gbf != dlast && gbf != INT64_MAX && sp->nbits > 0)
        gbf = descent(ws[0], gb, gbf, bp, B, P, gen, dlast == INT64_MIN, &drng, &dtried);
    int64_t ftried = 0;
    if (gbf != INT64_MAX && sp->nbits > 0)
        gbf = fitness_moves(ws[0], gb, gbf, bp, B, &ftried);
    /* the polish budget: 3/4 evaluation per particle evaluated (swarm_size: the search's
     * size, not what the bounds and the cache spared of it) */
    /* The ma baseline's merge, which the window may not express, is a candidate too. */
    Worker *w0 = ws[0];
    Key k0;
    bool ma_best = false;
    if (sp->window > 0 && sp->nbits > 0) {
        bfco_groups_all(w0);
        int64_t Lma = fitness_groups(w0, NULL, bp, NULL, &k0, INT64_MAX);
        ma_best = Lma < gbf;
        if (ma_best)
            gbf = Lma;
    }
    /* Rebuild the best schedule (the fitness is deterministic). */
    int64_t L;
    if (ma_best) {
        bfco_groups_all(w0);
        L = fitness_groups(w0, NULL, bp, NULL, &k0, INT64_MAX);
    } else {
        L = fitness(w0, gb, bp, NULL, &k0, INT64_MAX);
    }
    int64_t pol = 0;
    if (bp->polish && L != INT64_MAX) {
        int64_t budget =
            bp->polish_budget >= 0 ? bp->polish_budget : swarm_size(P, gen) * 3 / 4 + 64;
        L = polish(w0, L, budget, bp->polish_budget < 0 && sp->M <= DESCENT_CONVERGE_MAX,
                   bp->polish_all, &pol);
    }
    int rc = 0;
    if (L == INT64_MAX) {
        rc = -1;
        *out = NULL;
    } else {
        *out = ir_sched_copy(w0->ws);
    }
    st->length = L == INT64_MAX ? -1 : L;
    st->nbits = B;
    st->particles = P;
    st->generations = gen;
    st->restarts = restarts;
    st->cache_hits = hits;
    st->polish_evals = pol;
    st->descent_moves = dtried;
    st->fitness_moves = ftried;
    st->joint = bp->joint;
    st->evaluations = 0;
    st->bound_evals = 0;
    for (int t = 0; t < nthreads; t++) {
        st->evaluations += ws[t]->evals;
        st->bound_evals += ws[t]->fevals;
        bfco_worker_free(ws[t]);
    }
    for (int k = 0; k < P; k++) {
        free(x[k]);
        free(pb[k]);
        free(v[k]);
    }
    free(x);
    free(pb);
    free(v);
    free(f);
    free(pbf);
    free(key);
    free(rng);
    free(todo);
    free(gb);
    cache_free(&cache);
    return rc;
}
