/*
 * passes/schedule.c - the initial schedule: insertion-based list scheduling (HEFT, or
 * PEFT on request) of one iteration, then a local search whose objective is the evaluated
 * length over all iterations (docs/design.md section 5): by default the shorter of the
 * length as comm_insert leaves the schedule and the length with every receive pipelined
 * that the optimizer's cp baseline pipelines, since the pipeline always optimises the
 * messages afterwards.
 *
 * Requires: an indexed graph (ir_graph_index) with a resolved platform.  Produces u->s
 * with mapping, per-DSP order and messages (comm_insert); drops any previous schedule.
 *
 * Invariant kept throughout: every DSP's COMPUTE order is the restriction of one global
 * topological order of the zero-delay edges (`seq` below).  With messages inserted as
 * comm_insert does (send after the producer, receive before the first consumer) such a
 * schedule cannot deadlock within an iteration, and every move of the local search keeps
 * the invariant.
 *
 * Only zero-delay edges are precedences for the list scheduler: a delay edge carries data
 * to a later iteration.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bfco_int.h"
#include "ir.h"

/* Ranks are doubles (means); sums along different paths that are equal on paper may
 * differ in the last bits, so ties are judged with a relative tolerance and broken by
 * index. */
static int
rank_cmp(double a, double b)
{
    double m = a < 0 ? -a : a, mb = b < 0 ? -b : b;
    if (mb > m)
        m = mb;
    double tol = 1e-9 * (m > 1.0 ? m : 1.0);
    if (a > b + tol)
        return 1;
    if (a < b - tol)
        return -1;
    return 0;
}

static int
check_input(const Graph *g, const Platform *p, Diag *d)
{
    Loc loc = {.file = g->file};
    int bad = 0;
    if (!g->topo || !g->succ_off) {
        diag_error(d, &loc, "the zero-delay edges of the graph form a cycle");
        return -1;
    }
    if (p->ndsps < 1) {
        diag_error(d, &loc, "the platform has no DSP");
        return -1;
    }
    for (int t = 0; t < g->ntasks; t++) {
        const Task *k = &g->tasks[t];
        if (k->dsp >= p->ndsps) {
            diag_error(d, &loc, "task \"%s\" is pinned to DSP %d, the platform has %d",
                       k->id, k->dsp, p->ndsps);
            bad = -1;
        }
        if (k->ncycles > 1 && k->ncycles != p->ndsps) {
            diag_error(d, &loc, "task \"%s\" gives %d costs, the platform has %d DSPs",
                       k->id, k->ncycles, p->ndsps);
            bad = -1;
        }
    }
    return bad;
}

static int64_t
cost(const Graph *g, int t, int dsp)
{
    return ir_task_cycles(&g->tasks[t], dsp);
}

/* Upward rank: mean cost plus the longest mean-cost path to an exit. */
static void
upward_ranks(const Graph *g, const Platform *p, double *rank)
{
    for (int k = g->ntasks - 1; k >= 0; k--) {
        int t = g->topo[k];
        double best = 0;
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->succ[j]];
            if (e->delay)
                continue;
            double v = (double)plat_mean_comm_cost(p, e->bytes) + rank[e->to];
            if (v > best)
                best = v;
        }
        rank[t] = ir_task_mean_cycles(&g->tasks[t], p->ndsps) + best;
    }
}

int
sched_oct(const Graph *g, const Platform *p, double *oct)
{
    int P = p->ndsps;
    if (!g->topo || !g->succ_off)
        return -1;
    for (int k = g->ntasks - 1; k >= 0; k--) {
        int t = g->topo[k];
        for (int pk = 0; pk < P; pk++)
            oct[(size_t)t * P + pk] = 0;
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->succ[j]];
            if (e->delay)
                continue;
            double cbar = (double)plat_mean_comm_cost(p, e->bytes);
            /* the successor's best DSP is pk itself (no message) or the best other one,
             * so the two lowest oct + cost give every pk's in O(P) */
            double m1 = INFINITY, m2 = INFINITY;
            int at = -1;
            for (int pw = 0; pw < P; pw++) {
                double v = oct[(size_t)e->to * P + pw] + (double)cost(g, e->to, pw);
                if (v < m1) {
                    m2 = m1;
                    m1 = v;
                    at = pw;
                } else if (v < m2) {
                    m2 = v;
                }
            }
            for (int pk = 0; pk < P; pk++) {
                double here = oct[(size_t)e->to * P + pk] + (double)cost(g, e->to, pk);
                double other = (pk == at ? m2 : m1) + cbar;
                double best = here < other ? here : other;
                if (best > oct[(size_t)t * P + pk])
                    oct[(size_t)t * P + pk] = best;
            }
        }
    }
    return 0;
}

/* Busy intervals of one DSP, sorted by start. */
typedef struct Slot {
    int64_t start, finish;
} Slot;

typedef struct Lane {
    Slot *v;
    int n, cap;
} Lane;

/* Earliest start >= ready of a task of length c in an idle gap (insertion policy);
 * *pos gets the index to insert at. */
static int64_t
lane_fit(const Lane *l, int64_t ready, int64_t c, int *pos)
{
    int64_t prev = 0;
    for (int k = 0; k < l->n; k++) {
        int64_t s = ready > prev ? ready : prev;
        if (s + c <= l->v[k].start) {
            *pos = k;
            return s;
        }
        prev = l->v[k].finish;
    }
    *pos = l->n;
    return ready > prev ? ready : prev;
}

static void
lane_insert(Lane *l, int pos, int64_t s, int64_t f)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        if (!l->v)
            ice("out of memory");
    }
    memmove(&l->v[pos + 1], &l->v[pos], (size_t)(l->n - pos) * sizeof *l->v);
    l->v[pos] = (Slot){s, f};
    l->n++;
}

/* Ready list order: highest priority first, then lowest task index. */
static bool
prio_before(const void *ctx, int a, int b)
{
    const double *prio = ctx;
    int c = rank_cmp(prio[a], prio[b]);
    return c > 0 || (c == 0 && a < b);
}

/* Sort key of the global order: start, finish, then topological position. */
typedef struct Key {
    int64_t start, finish;
    int topo, task;
} Key;

static int
key_cmp(const void *a, const void *b)
{
    const Key *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->finish != y->finish)
        return x->finish < y->finish ? -1 : 1;
    return (x->topo > y->topo) - (x->topo < y->topo);
}

/* The list scheduler shared by HEFT and PEFT: priorities prio[], processor choice by
 * earliest finish time plus oct[t][p] (NULL for HEFT). */
static Sched *
list_schedule(const Graph *g, const Platform *p, const double *prio, const double *oct,
              int64_t *makespan)
{
    int n = g->ntasks, P = p->ndsps;
    int *map = ir_xcalloc((size_t)n, sizeof *map);
    int64_t *st = ir_xcalloc((size_t)n, sizeof *st),
            *fin = ir_xcalloc((size_t)n, sizeof *fin);
    int *indeg = ir_xcalloc((size_t)n, sizeof *indeg);
    Lane *lane = ir_xcalloc((size_t)P, sizeof *lane);
    IntHeap h = {
        .v = ir_xcalloc((size_t)n, sizeof(int)), .before = prio_before, .ctx = prio};
    int64_t span = 0;

    for (int i = 0; i < g->nedges; i++)
        if (g->edges[i].delay == 0)
            indeg[g->edges[i].to]++;
    for (int t = 0; t < n; t++)
        if (indeg[t] == 0)
            ir_heap_push(&h, t);
    while (h.n > 0) {
        int t = ir_heap_pop(&h);
        int lo = 0, hi = P;
        if (g->tasks[t].dsp >= 0) {
            lo = g->tasks[t].dsp;
            hi = lo + 1;
        }
        int bestd = -1, bestpos = 0;
        int64_t bests = 0, bestf = 0;
        double bestv = 0;
        for (int dsp = lo; dsp < hi; dsp++) {
            int64_t ready = 0;
            for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
                const Edge *e = &g->edges[g->pred[j]];
                if (e->delay)
                    continue;
                int64_t r = fin[e->from] + plat_comm_cost(p, map[e->from], dsp, e->bytes);
                if (r > ready)
                    ready = r;
            }
            int pos;
            int64_t c = cost(g, t, dsp);
            int64_t s = lane_fit(&lane[dsp], ready, c, &pos);
            double v = (double)(s + c) + (oct ? oct[(size_t)t * P + dsp] : 0.0);
            if (bestd < 0 || rank_cmp(v, bestv) < 0) {
                bestd = dsp;
                bestpos = pos;
                bests = s;
                bestf = s + c;
                bestv = v;
            }
        }
        map[t] = bestd;
        st[t] = bests;
        fin[t] = bestf;
        if (bestf > span)
            span = bestf;
        lane_insert(&lane[bestd], bestpos, bests, bestf);
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->succ[j]];
            if (e->delay == 0 && --indeg[e->to] == 0)
                ir_heap_push(&h, e->to);
        }
    }

    /* Per-DSP order = the global order by start time restricted to the DSP. */
    Key *key = ir_xcalloc((size_t)n, sizeof *key);
    int *tpos = ir_xcalloc((size_t)n, sizeof *tpos);
    for (int k = 0; k < n; k++)
        tpos[g->topo[k]] = k;
    for (int t = 0; t < n; t++)
        key[t] = (Key){st[t], fin[t], tpos[t], t};
    qsort(key, (size_t)n, sizeof *key, key_cmp);
    Sched *s = ir_sched_new(g, p);
    for (int t = 0; t < n; t++)
        s->map[t] = map[t];
    for (int k = 0; k < n; k++)
        ir_sched_push_op(s, map[key[k].task], OP_COMPUTE, key[k].task);

    for (int dsp = 0; dsp < P; dsp++)
        free(lane[dsp].v);
    free(lane);
    free(h.v);
    free(key);
    free(tpos);
    free(indeg);
    free(map);
    free(st);
    free(fin);
    if (makespan)
        *makespan = span;
    return s;
}

int
sched_heft(const Graph *g, const Platform *p, Sched **out, double *ranks_out,
           int64_t *makespan_out, Diag *d)
{
    *out = NULL;
    if (check_input(g, p, d) != 0)
        return -1;
    double *rank = ir_xcalloc((size_t)g->ntasks, sizeof *rank);
    upward_ranks(g, p, rank);
    *out = list_schedule(g, p, rank, NULL, makespan_out);
    if (ranks_out)
        memcpy(ranks_out, rank, (size_t)g->ntasks * sizeof *rank);
    free(rank);
    return 0;
}

int
sched_peft(const Graph *g, const Platform *p, Sched **out, double *ranks_out,
           int64_t *makespan_out, Diag *d)
{
    *out = NULL;
    if (check_input(g, p, d) != 0)
        return -1;
    int n = g->ntasks, P = p->ndsps;
    double *oct = ir_xcalloc((size_t)n * (size_t)P, sizeof *oct);
    double *rank = ir_xcalloc((size_t)n, sizeof *rank);
    sched_oct(g, p, oct);
    for (int t = 0; t < n; t++) {
        double sum = 0;
        for (int k = 0; k < P; k++)
            sum += oct[(size_t)t * P + k];
        rank[t] = sum / P;
    }
    *out = list_schedule(g, p, rank, oct, makespan_out);
    if (ranks_out)
        memcpy(ranks_out, rank, (size_t)n * sizeof *rank);
    free(rank);
    free(oct);
    return 0;
}

int64_t
sched_list_makespan(const Sched *s)
{
    const Graph *g = s->g;
    int n = g->ntasks;
    int64_t *fin = ir_xcalloc((size_t)n, sizeof *fin);
    bool *done = ir_xcalloc((size_t)n, sizeof *done);
    int *pc = ir_xcalloc((size_t)s->ndsps, sizeof *pc);
    int64_t *avail = ir_xcalloc((size_t)s->ndsps, sizeof *avail);
    int64_t span = 0;
    /* Repeatedly advance every DSP whose next COMPUTE has all inputs finished. */
    for (bool progress = true; progress;) {
        progress = false;
        for (int dsp = 0; dsp < s->ndsps; dsp++) {
            while (pc[dsp] < s->nops[dsp]) {
                Op o = s->ops[dsp][pc[dsp]];
                if (o.kind != OP_COMPUTE) {
                    pc[dsp]++;
                    continue;
                }
                int t = o.ref;
                int64_t ready = avail[dsp];
                bool ok = true;
                for (int j = g->pred_off[t]; j < g->pred_off[t + 1] && ok; j++) {
                    const Edge *e = &g->edges[g->pred[j]];
                    if (e->delay)
                        continue;
                    if (!done[e->from]) {
                        ok = false;
                        break;
                    }
                    int64_t r = fin[e->from] +
                                plat_comm_cost(s->p, s->map[e->from], dsp, e->bytes);
                    if (r > ready)
                        ready = r;
                }
                if (!ok)
                    break;
                fin[t] = ready + ir_task_cycles(&g->tasks[t], dsp);
                done[t] = true;
                avail[dsp] = fin[t];
                if (fin[t] > span)
                    span = fin[t];
                pc[dsp]++;
                progress = true;
            }
        }
    }
    for (int dsp = 0; dsp < s->ndsps; dsp++)
        if (pc[dsp] < s->nops[dsp])
            span = -1; /* the orders contradict the precedences */
    free(fin);
    free(done);
    free(pc);
    free(avail);
    return span;
}

/* ------------------------------------------------------------------------------------------
 * Multi-start list scheduling: forward-backward improvement and perturbed priorities
 * ------------------------------------------------------------------------------------------
 *
 * The local search below moves one or two tasks at a time; on graphs without
 * communication (the STG set) its local optima stay a few percent above the optimum,
 * where a list scheduler with another priority list finds it.  Forward-backward
 * improvement (the justification of the project-scheduling literature): list-schedule the
 * reversed graph with the forward schedule's finish times as priorities (latest first),
 * then the graph again with the backward schedule's finish times (in reversed time) as
 * priorities; each pass packs the schedule against one end.  Restarts perturb the upward
 * ranks.  Only the forward passes give schedules (their list makespan); the backward ones
 * give priorities.
 */

typedef struct Multi {
    const Graph *g;
    const Platform *p;
    int n, P;
    Lane *lane;
    IntHeap h;
    int *indeg, *map;
    int64_t *st, *fin;
    int *best_map;
    int64_t *best_st, *best_fin, best;
} Multi;

/* One insertion-based list schedule of g (backward: of the reversed graph, each edge's
 * cost as from its consumer's DSP to its producer's) with priorities prio, highest first;
 * times in m->st, m->fin, DSPs in m->map.  Returns the makespan. */
static int64_t
multi_run(Multi *m, const double *prio, bool backward)
{
    const Graph *g = m->g;
    const Platform *p = m->p;
    int n = m->n, P = m->P;
    const int *in_off = backward ? g->succ_off : g->pred_off;
    const int *in = backward ? g->succ : g->pred;
    const int *out_off = backward ? g->pred_off : g->succ_off;
    const int *out = backward ? g->pred : g->succ;
    for (int d = 0; d < P; d++)
        m->lane[d].n = 0;
    m->h.n = 0;
    m->h.ctx = prio;
    for (int t = 0; t < n; t++) {
        m->indeg[t] = 0;
        for (int j = in_off[t]; j < in_off[t + 1]; j++)
            m->indeg[t] += g->edges[in[j]].delay == 0;
        if (m->indeg[t] == 0)
            ir_heap_push(&m->h, t);
    }
    int64_t span = 0;
    while (m->h.n > 0) {
        int t = ir_heap_pop(&m->h);
        int lo = 0, hi = P;
        if (g->tasks[t].dsp >= 0)
            lo = g->tasks[t].dsp, hi = lo + 1;
        int bestd = -1, bestpos = 0;
        int64_t bests = 0, bestf = 0;
        for (int d = lo; d < hi; d++) {
            int64_t ready = 0;
            for (int j = in_off[t]; j < in_off[t + 1]; j++) {
                const Edge *e = &g->edges[in[j]];
                if (e->delay)
                    continue;
                int q = backward ? e->to : e->from;
                int64_t r = m->fin[q] + plat_comm_cost(p, m->map[q], d, e->bytes);
                if (r > ready)
                    ready = r;
            }
            int pos;
            int64_t c = cost(g, t, d);
            int64_t s = lane_fit(&m->lane[d], ready, c, &pos);
            if (bestd < 0 || s + c < bestf) {
                bestd = d;
                bestpos = pos;
                bests = s;
                bestf = s + c;
            }
        }
        m->map[t] = bestd;
        m->st[t] = bests;
        m->fin[t] = bestf;
        if (bestf > span)
            span = bestf;
        lane_insert(&m->lane[bestd], bestpos, bests, bestf);
        for (int j = out_off[t]; j < out_off[t + 1]; j++) {
            const Edge *e = &g->edges[out[j]];
            int v = backward ? e->from : e->to;
            if (e->delay == 0 && --m->indeg[v] == 0)
                ir_heap_push(&m->h, v);
        }
    }
    return span;
}

/* Forward-backward improvement from priorities prio (overwritten): forward, backward,
 * forward, ... while the forward makespan shrinks; keeps the best forward schedule in m.
 * Returns the last forward makespan. */
static int64_t
multi_fbi(Multi *m, double *prio, int64_t lb)
{
    int64_t prev = INT64_MAX;
    for (int round = 0; round < 8; round++) {
        int64_t len = multi_run(m, prio, false);
        if (len < m->best) {
            m->best = len;
            memcpy(m->best_map, m->map, (size_t)m->n * sizeof *m->map);
            memcpy(m->best_st, m->st, (size_t)m->n * sizeof *m->st);
            memcpy(m->best_fin, m->fin, (size_t)m->n * sizeof *m->fin);
        }
        if (len >= prev || m->best <= lb)
            return len;
        prev = len;
        /* backward: the tasks that finish last go first */
        for (int t = 0; t < m->n; t++)
            prio[t] = (double)m->fin[t];
        multi_run(m, prio, true);
        /* forward: the tasks that finish last in reversed time (start first) go first */
        for (int t = 0; t < m->n; t++)
            prio[t] = (double)m->fin[t];
    }
    return prev;
}

/* ir.h: the best list schedule over `runs` restarts. */
Sched *
sched_multi_start(const Graph *g, const Platform *p, int runs, int64_t lb,
                  int64_t *makespan)
{
    int n = g->ntasks, P = p->ndsps;
    if (n == 0)
        return NULL;
    Multi m = {.g = g, .p = p, .n = n, .P = P, .best = INT64_MAX};
    m.lane = ir_xcalloc((size_t)P, sizeof *m.lane);
    for (int d = 0; d < P; d++) {
        m.lane[d].cap = n;
        m.lane[d].v = ir_xcalloc((size_t)n, sizeof *m.lane[d].v);
    }
    m.h = (IntHeap){.v = ir_xcalloc((size_t)n, sizeof(int)), .before = prio_before};
    m.indeg = ir_xcalloc((size_t)n, sizeof *m.indeg);
    m.map = ir_xcalloc((size_t)n, sizeof *m.map);
    m.st = ir_xcalloc((size_t)n, sizeof *m.st);
    m.fin = ir_xcalloc((size_t)n, sizeof *m.fin);
    m.best_map = ir_xcalloc((size_t)n, sizeof *m.best_map);
    m.best_st = ir_xcalloc((size_t)n, sizeof *m.best_st);
    m.best_fin = ir_xcalloc((size_t)n, sizeof *m.best_fin);
    double *rank = ir_xcalloc((size_t)n, sizeof *rank);
    double *prio = ir_xcalloc((size_t)n, sizeof *prio);
    upward_ranks(g, p, rank);
    uint64_t rng = UINT64_C(0x853c49e6748fea9b);
    for (int r = 0; r < runs && m.best > lb; r++) {
        double eps = r == 0 ? 0.0 : 0.05 + 0.2 * (double)(r % 4) / 3.0;
        for (int t = 0; t < n; t++) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            double u = (double)(rng >> 11) / 9007199254740992.0; /* [0, 1) */
            prio[t] = rank[t] * (1.0 + eps * (2.0 * u - 1.0));
        }
        multi_fbi(&m, prio, lb);
    }
    /* the best one, each DSP's tasks in order of start */
    Key *key = ir_xcalloc((size_t)n, sizeof *key);
    int *tpos = ir_xcalloc((size_t)n, sizeof *tpos);
    for (int k = 0; k < n; k++)
        tpos[g->topo[k]] = k;
    for (int t = 0; t < n; t++)
        key[t] = (Key){m.best_st[t], m.best_fin[t], tpos[t], t};
    qsort(key, (size_t)n, sizeof *key, key_cmp);
    Sched *s = ir_sched_new(g, p);
    for (int t = 0; t < n; t++)
        s->map[t] = m.best_map[t];
    for (int k = 0; k < n; k++)
        ir_sched_push_op(s, m.best_map[key[k].task], OP_COMPUTE, key[k].task);
    if (makespan)
        *makespan = m.best;
    for (int d = 0; d < P; d++)
        free(m.lane[d].v);
    free(m.lane);
    free(m.h.v);
    free(m.indeg);
    free(m.map);
    free(m.st);
    free(m.fin);
    free(m.best_map);
    free(m.best_st);
    free(m.best_fin);
    free(rank);
    free(prio);
    free(key);
    free(tpos);
    return s;
}

/* ------------------------------------------------------------------------------------------
 * Local search
 * ------------------------------------------------------------------------------------------
 */

/* The state searched: a mapping and a global topological order seq (pos = its inverse).
 */
typedef struct Search {
    const Graph *g;
    const Platform *p;
    struct Evaluator *ev;
    int n, P;
    int *map, *seq, *pos;
    Sched *s; /* scratch schedule rebuilt from map and seq for every evaluation */
    int64_t evals, budget; /* candidate schedules judged, and at most how many */
    int64_t best;
    int64_t lb;    /* a lower bound of the objective: the search stops on reaching it */
    uint64_t rng;  /* xorshift state of the perturbations (fixed seed: deterministic) */
    bool plain;    /* objective: eval_length as built, without pipelines */
    int64_t *rbuf; /* [P] receive buffers of the built schedule (bfco_recv_buffers) */
    int64_t *xbuf; /* [P] scratch of bfco_cp_pipes */
    bool *pipe;    /* [nedges + 1] cp's pipeline flags of the built schedule */
    /* the screen (docs/scheduler.md, "Screening by lower bounds") */
    bool screen;           /* evaluations cut off (eval_length_below), the bound below */
    struct Evaluator *evf; /* without contention: below the contended length; NULL if
                              the platform has none or without the screen */
    SchedSearchStats st;
} Search;

/* Rebuilds the scratch schedule; a fresh one when the old arena has grown (every
 * comm_insert allocates its messages' edge lists anew). */
static Sched *
build(Search *x)
{
    if (x->s && arena_used(x->s->arena) > ((size_t)64 << 20)) {
        ir_sched_free(x->s);
        x->s = NULL;
    }
    if (!x->s)
        x->s = ir_sched_new(x->g, x->p);
    Sched *s = x->s;
    for (int dsp = 0; dsp < s->ndsps; dsp++)
        s->nops[dsp] = 0;
    s->nmsgs = 0;
    for (int e = 0; e < x->g->nedges; e++)
        s->edge_msg[e] = -1;
    memcpy(s->map, x->map, (size_t)x->n * sizeof *s->map);
    for (int k = 0; k < x->n; k++)
        ir_sched_push_op(s, x->map[x->seq[k]], OP_COMPUTE, x->seq[k]);
    comm_insert(s);
    return s;
}

/* The length of s in ev (the objective's evaluator) when below cut, else INT64_MAX (a
 * deadlock too).  With the screen the evaluation stops as soon as the length cannot be
 * below cut (eval_length_below). */
static int64_t
length_below(Search *x, const Sched *s, int64_t cut)
{
    x->st.evals++;
    int64_t len = x->screen ? eval_length_below(x->ev, s, cut) : eval_length(x->ev, s);
    return len < 0 || len >= cut ? INT64_MAX : len;
}

/* The contention-free length of s when below cut, else cut: a lower bound of its
 * contended length (a deadlock bounds nothing: 0). */
static int64_t
free_below(Search *x, const Sched *s, int64_t cut)
{
    x->st.bound_evals++;
    int64_t b = eval_length_below(x->evf, s, cut);
    return b == EVAL_NOT_BELOW || b >= cut ? cut : b < 0 ? 0 : b;
}

/* The objective of schedule s (messages as comm_insert leaves them, none pipelined):
 * eval_length, and unless plain the shorter of that and the length with every receive
 * pipelined that cp would pipeline (bfco_cp_pipes), set and cleared in place.  One
 * candidate of the budget; two eval_length calls when something can be pipelined.
 *
 * Only a result below `cut` matters (the state's best; INT64_MAX: any): the result is
 * exact when below it, and INT64_MAX otherwise.  With the screen every evaluation stops
 * as soon as its length cannot be below what it is compared with (cut, and for the
 * second term the first one too), and with contention each term is first bounded by
 * its contention-free length: a term whose bound is not below is not evaluated, it
 * cannot be the minimum below cut. */
static int64_t
objective_below(Search *x, Sched *s, int64_t cut)
{
    x->evals++;
    x->st.candidates++;
    ir_progress("schedule: local search", x->evals,
                x->budget < INT64_MAX ? x->budget : 0);
    int64_t e0 = x->st.evals, len = INT64_MAX;
    if (cut == INT64_MAX || !x->evf || free_below(x, s, cut) < cut)
        len = length_below(x, s, cut);
    if (x->plain) {
        x->st.screened += x->st.evals == e0;
        return len;
    }
    bfco_recv_buffers(s, x->rbuf);
    bfco_cp_pipes(s, x->rbuf, x->xbuf, x->pipe);
    int n = 0;
    for (int k = 0; k < s->nmsgs; k++) {
        s->msgs[k].pipelined = x->pipe[k];
        n += x->pipe[k];
    }
    int64_t piped = INT64_MAX, cut2 = len < cut ? len : cut;
    if (n > 0) {
        if (cut2 == INT64_MAX || !x->evf || free_below(x, s, cut2) < cut2)
            piped = length_below(x, s, cut2);
        for (int k = 0; k < s->nmsgs; k++)
            s->msgs[k].pipelined = false;
    }
    x->st.screened += x->st.evals == e0;
    return piped < len ? piped : len;
}

/* The exact objective of s. */
static int64_t
objective(Search *x, Sched *s)
{
    return objective_below(x, s, INT64_MAX);
}

static int64_t
evaluate(Search *x)
{
    return objective(x, build(x));
}

/* Accepts the current state if it is better; returns true if accepted. */
static bool
try_state(Search *x)
{
    int64_t len = objective_below(x, build(x), x->best);
    if (len < x->best) {
        x->best = len;
        return true;
    }
    return false;
}

static bool
pinned(const Search *x, int t)
{
    return x->g->tasks[t].dsp >= 0;
}

/* Moves seq[from] to index `to`, shifting the tasks between. */
static void
seq_move(Search *x, int from, int to)
{
    int t = x->seq[from];
    if (from < to)
        for (int k = from; k < to; k++) {
            x->seq[k] = x->seq[k + 1];
            x->pos[x->seq[k]] = k;
        }
    else
        for (int k = from; k > to; k--) {
            x->seq[k] = x->seq[k - 1];
            x->pos[x->seq[k]] = k;
        }
    x->seq[to] = t;
    x->pos[t] = to;
}

/* Index of the closest task on t's DSP before (dir = -1) or after (+1) t in seq, or -1.
 */
static int
same_dsp_neighbour(const Search *x, int t, int dir)
{
    for (int k = x->pos[t] + dir; k >= 0 && k < x->n; k += dir)
        if (x->map[x->seq[k]] == x->map[t])
            return k;
    return -1;
}

/* Can t move to index `to` of seq and keep it topological?  Moving earlier needs no
 * direct zero-delay predecessor in between, later no direct successor (an indirect one
 * implies a direct one in between, since seq is topological). */
static bool
can_move(const Search *x, int t, int to)
{
    const Graph *g = x->g;
    int at = x->pos[t];
    if (to < at) {
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->pred[j]];
            if (e->delay == 0 && x->pos[e->from] >= to)
                return false;
        }
    } else {
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->succ[j]];
            if (e->delay == 0 && x->pos[e->to] <= to)
                return false;
        }
    }
    return true;
}

/* The first index of seq that t can move to: just after its last zero-delay predecessor.
 */
static int
earliest(const Search *x, int t)
{
    int e = 0;
    for (int j = x->g->pred_off[t]; j < x->g->pred_off[t + 1]; j++) {
        const Edge *ed = &x->g->edges[x->g->pred[j]];
        if (ed->delay == 0 && x->pos[ed->from] + 1 > e)
            e = x->pos[ed->from] + 1;
    }
    return e;
}

static bool
out_of_budget(const Search *x)
{
    return x->evals >= x->budget || x->best <= x->lb;
}

/* One round of moves and reorders over the tasks in seq order; true if anything improved.
 */
static bool
round_moves(Search *x)
{
    bool better = false;
    for (int k = 0; k < x->n && !out_of_budget(x); k++) {
        int t = x->seq[k];
        /* A task to another DSP (keeping its place in seq). */
        if (!pinned(x, t)) {
            int home = x->map[t];
            int at = x->pos[t], early = earliest(x, t);
            bool moved = false;
            for (int i = 1; i < x->P && !out_of_budget(x) && !moved; i++) {
                x->map[t] = (home + i) % x->P;
                moved = try_state(x);
                /* ... and as early in the order as its inputs allow */
                if (!moved && early < at && !out_of_budget(x)) {
                    seq_move(x, at, early);
                    moved = try_state(x);
                    if (!moved)
                        seq_move(x, early, at);
                }
                if (!moved)
                    x->map[t] = home;
            }
            better |= moved;
        }
        /* A task with a successor on the same DSP, both to another DSP: a message between
         * two DSPs can cost more than it gains alone, yet moving the pair can pay. */
        for (int j = x->g->succ_off[t]; j < x->g->succ_off[t + 1] && !out_of_budget(x);
             j++) {
            int u = x->g->edges[x->g->succ[j]].to;
            if (pinned(x, t) || pinned(x, u) || x->map[u] != x->map[t] || u == t)
                continue;
            int home = x->map[t];
            bool moved = false;
            for (int i = 1; i < x->P && !out_of_budget(x) && !moved; i++) {
                x->map[t] = x->map[u] = (home + i) % x->P;
                moved = try_state(x);
                if (!moved)
                    x->map[t] = x->map[u] = home;
            }
            better |= moved;
        }
        /* Reorder within its DSP: before the previous task, after the next one. */
        for (int dir = -1; dir <= 1 && !out_of_budget(x); dir += 2) {
            int nb = same_dsp_neighbour(x, t, dir);
            if (nb < 0 || !can_move(x, t, nb))
                continue;
            int at = x->pos[t];
            seq_move(x, at, nb);
            if (try_state(x)) {
                better = true;
                break;
            }
            seq_move(x, nb, at);
        }
    }
    return better;
}

/* One round of swaps of two unpinned tasks between DSPs; true if anything improved. */
static bool
round_swaps(Search *x)
{
    bool better = false;
    for (int a = 0; a < x->n && !out_of_budget(x); a++) {
        int t = x->seq[a];
        if (pinned(x, t))
            continue;
        for (int b = a + 1; b < x->n && !out_of_budget(x); b++) {
            int u = x->seq[b];
            if (pinned(x, u) || x->map[u] == x->map[t])
                continue;
            int mt = x->map[t];
            x->map[t] = x->map[u];
            x->map[u] = mt;
            if (try_state(x)) {
                better = true;
                break;
            }
            x->map[u] = x->map[t];
            x->map[t] = mt;
        }
    }
    return better;
}

/* The global order of a schedule whose per-DSP COMPUTE orders are consistent with the
 * zero-delay precedences: a merge of the DSP sequences, lowest DSP first among the ready
 * heads.  Returns -1 if the orders contradict the precedences. */
static int
merge_order(const Sched *s, int *seq)
{
    const Graph *g = s->g;
    int n = g->ntasks, done = 0;
    int *pc = ir_xcalloc((size_t)s->ndsps, sizeof *pc);
    bool *fin = ir_xcalloc((size_t)n, sizeof *fin);
    for (bool progress = true; progress && done < n;) {
        progress = false;
        for (int dsp = 0; dsp < s->ndsps; dsp++) {
            while (pc[dsp] < s->nops[dsp]) {
                Op o = s->ops[dsp][pc[dsp]];
                if (o.kind != OP_COMPUTE) {
                    pc[dsp]++;
                    continue;
                }
                bool ok = true;
                for (int j = g->pred_off[o.ref]; j < g->pred_off[o.ref + 1] && ok; j++) {
                    const Edge *e = &g->edges[g->pred[j]];
                    ok = e->delay || fin[e->from];
                }
                if (!ok)
                    break;
                fin[o.ref] = true;
                seq[done++] = o.ref;
                pc[dsp]++;
                progress = true;
            }
        }
    }
    free(pc);
    free(fin);
    return done == n ? 0 : -1;
}

/* First improvement over the neighbourhoods until a local optimum or the budget. */
static void
descend(Search *x)
{
    while (!out_of_budget(x)) {
        if (round_moves(x))
            continue;
        if (!round_swaps(x))
            break; /* a local optimum of all three neighbourhoods */
    }
}

static uint64_t
rnd(Search *x)
{
    x->rng ^= x->rng << 13;
    x->rng ^= x->rng >> 7;
    x->rng ^= x->rng << 17;
    return x->rng;
}

/* Iterated local search against the local optima that first improvement ends in: from
 * the best state, a perturbation, then descent; the result is kept when it is shorter,
 * else the best state comes back.  Perturbations, in turn: a few unpinned tasks to random
 * DSPs; a cluster move (a task and every neighbour in the graph that shares its DSP, to
 * another DSP); all unpinned tasks of one DSP onto another (two clusters merged).  The
 * order seq is kept, so every state stays consistent with the precedences.  Stops when
 * the budget is spent or the lower bound is reached. */
static void
perturb_and_descend(Search *x)
{
    int nfree = 0;
    for (int t = 0; t < x->n; t++)
        nfree += !pinned(x, t);
    if (x->P < 2 || nfree == 0)
        return;
    int *bmap = ir_xcalloc((size_t)x->n, sizeof *bmap);
    int *bseq = ir_xcalloc((size_t)x->n, sizeof *bseq);
    int64_t bbest = x->best;
    memcpy(bmap, x->map, (size_t)x->n * sizeof *bmap);
    memcpy(bseq, x->seq, (size_t)x->n * sizeof *bseq);
    const Graph *g = x->g;
    for (int round = 0; !out_of_budget(x); round++) {
        int kind = round % 3;
        int t = (int)(rnd(x) % (uint64_t)x->n);
        while (pinned(x, t))
            t = (t + 1) % x->n;
        int to = (x->map[t] + 1 + (int)(rnd(x) % (uint64_t)(x->P - 1))) % x->P;
        if (kind == 0) {
            int k = 2 + (int)(rnd(x) % (uint64_t)(nfree / 8 + 2));
            for (int i = 0; i < k; i++) {
                int u = (int)(rnd(x) % (uint64_t)x->n);
                if (!pinned(x, u))
                    x->map[u] = (int)(rnd(x) % (uint64_t)x->P);
            }
            x->map[t] = to;
        } else if (kind == 1) {
            int from = x->map[t];
            for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
                int u = g->edges[g->pred[j]].from;
                if (!pinned(x, u) && x->map[u] == from)
                    x->map[u] = to;
            }
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
                int u = g->edges[g->succ[j]].to;
                if (!pinned(x, u) && x->map[u] == from)
                    x->map[u] = to;
            }
            x->map[t] = to;
        } else {
            int from = x->map[t];
            for (int u = 0; u < x->n; u++)
                if (!pinned(x, u) && x->map[u] == from)
                    x->map[u] = to;
        }
        x->best = INT64_MAX;
        x->best = evaluate(x);
        descend(x);
        if (x->best < bbest) {
            bbest = x->best;
            memcpy(bmap, x->map, (size_t)x->n * sizeof *bmap);
            memcpy(bseq, x->seq, (size_t)x->n * sizeof *bseq);
        } else {
            memcpy(x->map, bmap, (size_t)x->n * sizeof *bmap);
            memcpy(x->seq, bseq, (size_t)x->n * sizeof *bseq);
            for (int k = 0; k < x->n; k++)
                x->pos[x->seq[k]] = k;
            x->best = bbest;
        }
    }
    free(bmap);
    free(bseq);
}

int64_t
sched_local_search(Sched **sp, struct Evaluator *ev, int64_t budget, bool plain)
{
    return sched_local_search_lb(sp, ev, budget, plain, -1);
}

int64_t
sched_local_search_lb(Sched **sp, struct Evaluator *ev, int64_t budget, bool plain,
                      int64_t lb)
{
    return sched_local_search_screen(sp, ev, budget, plain, lb, true, NULL);
}

int64_t
sched_local_search_screen(Sched **sp, struct Evaluator *ev, int64_t budget, bool plain,
                          int64_t lb, bool screen, SchedSearchStats *st)
{
    Sched *s0 = *sp;
    Search x = {.g = s0->g,
                .p = s0->p,
                .ev = ev,
                .n = s0->g->ntasks,
                .P = s0->ndsps,
                .plain = plain,
                .lb = lb,
                .rng = UINT64_C(0x9e3779b97f4a7c15)};
    /* With contention, the contention-free length of a term bounds it at a sixth to a
     * seventeenth of its cost (docs/evaluator.md, "Cost"). */
    x.screen = screen;
    if (screen && x.p->model == MODEL_BWDSP && !x.p->no_contention) {
        Platform q = *x.p;
        q.no_contention = true;
        x.evf = eval_new(x.g, &q);
    }
    x.rbuf = ir_xcalloc((size_t)x.P, sizeof *x.rbuf);
    x.xbuf = ir_xcalloc((size_t)x.P, sizeof *x.xbuf);
    x.pipe = ir_xcalloc((size_t)x.g->nedges + 1, sizeof *x.pipe);
    x.map = ir_xcalloc((size_t)x.n, sizeof *x.map);
    x.seq = ir_xcalloc((size_t)x.n, sizeof *x.seq);
    x.pos = ir_xcalloc((size_t)x.n, sizeof *x.pos);
    memcpy(x.map, s0->map, (size_t)x.n * sizeof *x.map);
    if (merge_order(s0, x.seq) != 0)
        ice("schedule order contradicts the precedences");
    for (int k = 0; k < x.n; k++)
        x.pos[x.seq[k]] = k;
    x.budget = budget > 0 ? budget : 0;
    x.best = INT64_MAX;
    x.best = evaluate(&x);
    if (x.budget < INT64_MAX)
        x.budget += 1; /* the evaluation of the start does not count */

    descend(&x);
    perturb_and_descend(&x);

    /* The state always holds the best schedule found (rejected trials are undone) and
     * x.best is its exact objective; it is returned with no receive pipelined (the
     * optimizer decides). */
    Sched *s = build(&x);
    int64_t len = x.best;
    x.s = NULL;
    ir_sched_free(s0);
    *sp = s;
    if (st) {
        st->candidates += x.st.candidates;
        st->screened += x.st.screened;
        st->evals += x.st.evals;
        st->bound_evals += x.st.bound_evals;
    }
    eval_free(x.evf);
    free(x.rbuf);
    free(x.xbuf);
    free(x.pipe);
    free(x.map);
    free(x.seq);
    free(x.pos);
    return len == INT64_MAX ? -1 : len;
}

/* ------------------------------------------------------------------------------------------
 * Exact search (--algo=exact): branch and bound for the one-iteration length in the
 * classic model (an edge costs plat_comm_cost between DSPs, nothing on one DSP, no
 * contention, a DSP computes while messages travel: the abstract model's evaluator).
 * ------------------------------------------------------------------------------------------
 *
 * Depth first over the exhaustive list-scheduling state space of the optimal-scheduling
 * literature (Sinnen, "Reducing the solution space of optimal task scheduling", Computers
 * & Operations Research 43, 2014, and the Auckland A* work after it): a step appends a
 * free task (every zero-delay predecessor placed) to the end of one DSP, where it starts
 * at the later of the DSP's last finish and the arrival of its inputs.  Any schedule
 * left-shifts into a semi-active one no longer, and appending the tasks of that one in
 * order of start rebuilds it, so the search is complete.  Prunings, each keeping an
 * optimal completion of the partial schedule reachable:
 *  - processor normalisation: on a homogeneous platform (the same cost of a task and of
 *    an edge on any DSPs) without pins, empty DSPs are interchangeable (only the first is
 *    tried) and states are compared up to a permutation of the DSPs;
 *  - duplicate states: the completions of a partial schedule depend only on the set of
 *    placed tasks, each DSP's last finish and, for each unplaced task with a placed
 *    predecessor, when that data reaches each DSP.  Two independent 64-bit hashes of
 *    that (each DSP's column hashed, the columns summed when normalised) are kept in a
 *    table of the states explored; a state met again is cut: depth first, its first
 *    visit has finished and explored its completions against an incumbent no shorter;
 *  - identical tasks (same costs, same predecessors and successors with the same bytes)
 *    are appended in index order;
 *  - fixed task order (fork, join and fork-join structures, Orr and Sinnen): when every
 *    free task has at most one predecessor and at most one successor, the successors are
 *    one task, the predecessors sit on one DSP, and the free tasks sorted by data ready
 *    time (the predecessor's finish plus the edge's cost, 0 without a predecessor), ties
 *    by larger outgoing edge cost, then index, also have non-increasing outgoing edge
 *    costs, only the first of that order is appended (to each DSP);
 *  - the bound: the latest finish so far; for every unplaced task the earliest start it
 *    can still get (after its DSP's last finish, its placed predecessors' data, and the
 *    best split of its unplaced predecessors between its DSP, one after the other, and
 *    the others, paying the edge) plus its bottom level (ex_tails: cheapest costs, and
 *    the edges to its successors for the best split of them between its DSP, one after
 *    the other, and the others); and the load bound (over the DSPs, the sum of each
 *    one's max(last finish, the earliest start a task left can have there) plus the
 *    cheapest work left); and, for the schedules shorter than the incumbent (the only
 *    ones still searched for), clusters of tasks that must share a DSP (a predecessor
 *    whose data would come too late from another DSP, a task that can start early
 *    enough on one DSP only), whose tasks run there one after the other (ex_bound).  A
 *    child whose bound is not below the incumbent is cut.
 * Children are tried in order of bound, then start, task and DSP (deterministic).  The
 * incumbent starts as the given schedule's length, so the result is never worse. */

typedef struct ExKey {
    uint64_t a, b; /* a == 0: an empty slot */
} ExKey;

typedef struct Exact {
    const Graph *g;
    const Platform *p;
    int n, P;
    bool sym;         /* homogeneous, nothing pinned: DSPs interchangeable */
    int64_t *cmin;    /* [n] cheapest cost */
    int64_t *bl;      /* [n] bottom level (ex_tails), own cost included */
    int *equiv;       /* [n] the next lower-index identical task, or -1 */
    int *proc;        /* [n] DSP of a placed task, -1 if not placed */
    int64_t *st, *ft; /* [n] start and finish of placed tasks */
    int *npred;       /* [n] unplaced zero-delay predecessors */
    int *np0, *ns0;   /* [n] zero-delay predecessor and successor edges */
    int *pe, *se;     /* [n] the only such edge in and out (when np0/ns0 is 1) */
    int64_t *fr;      /* [P] last finish per DSP */
    int64_t *emin;    /* [P] scratch of the bound */
    int64_t *dwork;   /* [P] scratch of the bound: work attached to the DSP */
    int64_t *dest;    /* [P] scratch of the bound: its earliest start */
    int *uf;          /* [n] scratch of the bound: clusters (union-find) */
    int *att, *catt;  /* [n] scratch of the bound: DSP a task, a cluster is attached to */
    int64_t *cwork;   /* [n] scratch of the bound: a cluster's work */
    int64_t *cest;    /* [n] scratch of the bound: a cluster's earliest start */
    int *cnt;         /* [P] tasks per DSP */
    int64_t *est;     /* [n] scratch of the bound */
    int64_t *comm;    /* [nedges] cost of each edge between two DSPs */
    int64_t *qr, *qe, *qc; /* [n] scratch of ex_est_on */
    int *free_buf;         /* [(n + 1) * n] free tasks, per depth */
    int *fto;              /* [n] scratch of ex_fto */
    uint64_t *z1, *z2;     /* [n] random words: the placed set's hashes are their sums */
    uint64_t set1, set2;
    uint64_t *col1, *col2; /* [P] scratch of ex_signature */
    ExKey *tab;            /* the states explored (a cache, see ex_seen) */
    size_t cap, used, max_cap;
    int64_t rem; /* cheapest work not placed */
    int placed;
    int64_t best;     /* incumbent length */
    int *best_proc;   /* [n] its mapping */
    int64_t *best_st; /* [n] its start times */
    int64_t nodes, node_limit;
    double deadline; /* CPU seconds, 0 = none */
    bool stopped;    /* a limit was hit: not proven */
} Exact;

static double
cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int64_t
ex_cost(const Exact *x, int t, int d)
{
    return ir_task_cycles(&x->g->tasks[t], d);
}

/* The cost of edge e (index into g->edges) from DSP a to DSP b. */
static int64_t
ex_edge(const Exact *x, int e, int a, int b)
{
    if (a == b)
        return 0;
    return x->sym ? x->comm[e] : plat_comm_cost(x->p, a, b, x->g->edges[e].bytes);
}

/* When t's inputs have reached DSP d (every predecessor placed). */
static int64_t
ex_ready(const Exact *x, int t, int d)
{
    const Graph *g = x->g;
    int64_t r = 0;
    for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
        const Edge *e = &g->edges[g->pred[j]];
        if (e->delay)
            continue;
        int q = e->from;
        int64_t a = x->ft[q] + ex_edge(x, g->pred[j], x->proc[q], d);
        if (a > r)
            r = a;
    }
    return r;
}

/* "Too late": a bound at least this large cuts (no overflow when a few are added). */
#define EX_INF (INT64_MAX / 8)

/* The clusters of ex_bound: tasks that share a DSP in any schedule shorter than the
 * incumbent (union-find over the unplaced tasks). */
static int
ex_find(Exact *x, int t)
{
    while (x->uf[t] != t) {
        x->uf[t] = x->uf[x->uf[t]];
        t = x->uf[t];
    }
    return t;
}

static void
ex_union(Exact *x, int a, int b)
{
    a = ex_find(x, a);
    b = ex_find(x, b);
    if (a != b)
        x->uf[a < b ? b : a] = a < b ? a : b;
}

/* The earliest start task t (not placed) can still get on DSP d: after the DSP's last
 * finish, after each placed predecessor's data, and for the predecessors not placed yet
 * (earliest finish e_q = est + cheapest cost): those on d run there one after the other
 * after its last finish, the others send their data (cost r_q = e_q + the edge's cheapest
 * cost).  The best split puts on d the k largest r_q, for the best k.  A predecessor
 * whose data would come too late for a schedule shorter than the incumbent (r_q + bl[t]
 * >= best) must be on d: it joins t's cluster. */
static int64_t
ex_est_on(Exact *x, int t, int d)
{
    const Graph *g = x->g;
    int64_t a = x->fr[d];
    int nq = 0;
    for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
        const Edge *e = &g->edges[g->pred[j]];
        if (e->delay)
            continue;
        int q = e->from;
        if (x->proc[q] >= 0) {
            int64_t r = x->ft[q] + ex_edge(x, g->pred[j], x->proc[q], d);
            if (r > a)
                a = r;
        } else {
            int64_t eq = x->est[q] + x->cmin[q], r = eq + x->comm[g->pred[j]];
            if (r + x->bl[t] >= x->best) {
                /* remote, its data comes too late: q runs on t's DSP */
                r = EX_INF;
                ex_union(x, q, t);
            }
            /* insertion by r, largest first */
            int k = nq++;
            while (k > 0 && x->qr[k - 1] < r) {
                x->qr[k] = x->qr[k - 1];
                x->qe[k] = x->qe[k - 1];
                x->qc[k] = x->qc[k - 1];
                k--;
            }
            x->qr[k] = r;
            x->qe[k] = eq;
            x->qc[k] = x->cmin[q];
        }
    }
    if (nq == 0)
        return a < EX_INF ? a : EX_INF;
    int64_t best = INT64_MAX, sum = x->fr[d], emax = 0;
    for (int k = 0; k <= nq; k++) {
        /* the first k on d, the others remote */
        int64_t v = a;
        if (k < nq && x->qr[k] > v)
            v = x->qr[k];
        if (k > 0) {
            int64_t on = sum > emax ? sum : emax;
            if (on > v)
                v = on;
        }
        if (v < best)
            best = v;
        if (k < nq) {
            sum += x->qc[k];
            if (x->qe[k] > emax)
                emax = x->qe[k];
        }
    }
    return best < EX_INF ? best : EX_INF;
}

/* The bound of the current partial schedule.  Besides the bounds that hold for any
 * completion, some that hold for the completions shorter than the incumbent (the only
 * ones searched for): a task that can only start early enough on one DSP is attached to
 * it; a task and a predecessor whose data would come too late from another DSP share one
 * (ex_est_on), and so does each cluster of such pairs; the tasks a DSP gets that way run
 * one after the other there. */
static int64_t
ex_bound(Exact *x)
{
    const Graph *g = x->g;
    int n = x->n, P = x->P;
    int64_t lb = 0;
    for (int d = 0; d < P; d++) {
        if (x->fr[d] > lb)
            lb = x->fr[d];
        x->emin[d] = INT64_MAX;
        x->dwork[d] = 0;
        x->dest[d] = INT64_MAX;
    }
    int empties = 0;
    for (int d = 0; d < P; d++)
        empties += x->cnt[d] == 0;
    for (int t = 0; t < n; t++) {
        x->uf[t] = t;
        /* a placed task: the bottom level holds from its start */
        if (x->proc[t] >= 0 && x->st[t] + x->bl[t] > lb)
            lb = x->st[t] + x->bl[t];
    }
    /* earliest starts of the unplaced tasks, in topological order; emin[d] the earliest
     * any of them can start on DSP d */
    for (int k = 0; k < n; k++) {
        int t = g->topo[k];
        if (x->proc[t] >= 0)
            continue;
        int64_t m = EX_INF, empty_v = 0;
        int lo = 0, hi = P, feasible = 0, only = -1;
        if (g->tasks[t].dsp >= 0)
            lo = g->tasks[t].dsp, hi = lo + 1;
        bool empty_done = false;
        for (int d = lo; d < hi; d++) {
            int64_t v;
            if (x->sym && x->cnt[d] == 0 && empty_done) {
                v = empty_v; /* empty DSPs are interchangeable */
            } else {
                v = ex_est_on(x, t, d);
                if (x->sym && x->cnt[d] == 0) {
                    empty_done = true;
                    empty_v = v;
                }
            }
            if (v + x->bl[t] >= x->best)
                continue; /* too late there */
            feasible++;
            only = d;
            if (v < m)
                m = v;
            if (v < x->emin[d])
                x->emin[d] = v;
        }
        x->est[t] = m;
        x->att[t] = feasible == 1 ? only : feasible == 0 ? -2 : -1;
        if (m + x->bl[t] > lb)
            lb = m + x->bl[t];
    }
    if (lb >= x->best)
        return lb;
    /* clusters: attached to one DSP (-1 none, -2 two different ones), their work and
     * earliest start, at their root */
    for (int t = 0; t < n; t++) {
        x->cwork[t] = 0;
        x->cest[t] = INT64_MAX;
        x->catt[t] = -1;
    }
    for (int t = 0; t < n; t++) {
        if (x->proc[t] >= 0)
            continue;
        int r = ex_find(x, t);
        x->cwork[r] += x->cmin[t];
        if (x->est[t] < x->cest[r])
            x->cest[r] = x->est[t];
        int a = x->att[t];
        if (a != -1 && x->catt[r] != a)
            x->catt[r] = x->catt[r] == -1 ? a : -2;
    }
    for (int t = 0; t < n; t++) {
        if (x->proc[t] >= 0 || x->uf[t] != t)
            continue;
        int a = x->catt[t];
        if (a == -2)
            return EX_INF; /* on two DSPs at once */
        if (a >= 0 && !(x->sym && x->cnt[a] == 0 && empties > 1)) {
            x->dwork[a] += x->cwork[t];
            if (x->cest[t] < x->dest[a])
                x->dest[a] = x->cest[t];
        } else if (x->cest[t] + x->cwork[t] > lb) {
            lb = x->cest[t] + x->cwork[t];
        }
    }
    for (int d = 0; d < P; d++) {
        int64_t e = x->dest[d] > x->fr[d] ? x->dest[d] : x->fr[d];
        if (x->dwork[d] > 0 && e + x->dwork[d] > lb)
            lb = e + x->dwork[d];
    }
    /* load: a DSP that gets some of the tasks left is idle or busy until the earliest
     * start one can have there, then runs them; one that gets none counts until the
     * length, which is at least lb (and its last finish); the cheapest work left over
     * all: P x length >= the sum over the DSPs of max(last finish, min(emin, lb)) +
     * the work left */
    int64_t load = x->rem;
    for (int d = 0; d < P; d++) {
        int64_t e = x->emin[d] < lb ? x->emin[d] : lb;
        load += x->fr[d] > e ? x->fr[d] : e;
    }
    int64_t lbl = (load + P - 1) / P;
    return lbl > lb ? lbl : lb;
}

static void
ex_place(Exact *x, int t, int d, int64_t s)
{
    const Graph *g = x->g;
    x->proc[t] = d;
    x->st[t] = s;
    x->ft[t] = s + ex_cost(x, t, d);
    x->fr[d] = x->ft[t];
    x->cnt[d]++;
    x->rem -= x->cmin[t];
    x->placed++;
    x->set1 += x->z1[t];
    x->set2 += x->z2[t];
    for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++)
        if (g->edges[g->succ[j]].delay == 0)
            x->npred[g->edges[g->succ[j]].to]--;
}

static void
ex_unplace(Exact *x, int t, int64_t old_fr)
{
    const Graph *g = x->g;
    int d = x->proc[t];
    x->fr[d] = old_fr;
    x->cnt[d]--;
    x->rem += x->cmin[t];
    x->placed--;
    x->set1 -= x->z1[t];
    x->set2 -= x->z2[t];
    x->proc[t] = -1;
    for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++)
        if (g->edges[g->succ[j]].delay == 0)
            x->npred[g->edges[g->succ[j]].to]++;
}

static uint64_t
ex_mix(uint64_t z)
{
    z ^= z >> 30;
    z *= UINT64_C(0xbf58476d1ce4e5b9);
    z ^= z >> 27;
    z *= UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z;
}

/* The state's two hashes: the placed set; per DSP its last finish and, for each unplaced
 * task with a placed predecessor, when that data reaches the DSP; the DSP columns summed
 * (any permutation of the DSPs hashes the same) when they are interchangeable. */
static ExKey
ex_signature(Exact *x)
{
    const Graph *g = x->g;
    for (int d = 0; d < x->P; d++) {
        x->col1[d] = ex_mix((uint64_t)x->fr[d] + UINT64_C(0x632be59bd9b4e019));
        x->col2[d] = ex_mix((uint64_t)x->fr[d] ^ UINT64_C(0x8cb92ba72f3d8dd7));
    }
    for (int t = 0; t < x->n; t++) {
        if (x->proc[t] >= 0)
            continue;
        bool any = false;
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1] && !any; j++)
            any = g->edges[g->pred[j]].delay == 0 &&
                  x->proc[g->edges[g->pred[j]].from] >= 0;
        if (!any)
            continue;
        for (int d = 0; d < x->P; d++) {
            int64_t a = 0;
            for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
                const Edge *e = &g->edges[g->pred[j]];
                int q = e->from;
                if (e->delay || x->proc[q] < 0)
                    continue;
                int64_t r = x->ft[q] + ex_edge(x, g->pred[j], x->proc[q], d);
                if (r > a)
                    a = r;
            }
            uint64_t v = (uint64_t)a * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)t;
            x->col1[d] = ex_mix(x->col1[d] ^ v);
            x->col2[d] = ex_mix(x->col2[d] + (v ^ UINT64_C(0xd6e8feb86659fd93)));
        }
    }
    ExKey k = {x->set1, x->set2};
    for (int d = 0; d < x->P; d++) {
        uint64_t dd = x->sym ? 0 : (uint64_t)(d + 1) * UINT64_C(0xa0761d6478bd642f);
        k.a += ex_mix(x->col1[d] ^ dd);
        k.b += ex_mix(x->col2[d] + dd);
    }
    if (k.a == 0)
        k.a = 1;
    return k;
}

/* Has the state of key k been explored?  Records it if not.  The table is a cache of
 * buckets of 4 keys: it doubles while it is half full, up to max_cap keys, then a new key
 * replaces one of its bucket (a state forgotten is only explored again). */
static bool
ex_seen(Exact *x, ExKey k)
{
    if (x->used * 2 >= x->cap && x->cap < x->max_cap) {
        size_t cap = x->cap ? 2 * x->cap : 4096;
        ExKey *tab = calloc(cap, sizeof *tab);
        if (tab) {
            size_t used = 0;
            for (size_t i = 0; i < x->cap; i++) {
                if (x->tab[i].a == 0)
                    continue;
                size_t h = x->tab[i].a & (cap - 4);
                for (int j = 0; j < 4; j++)
                    if (tab[h + (size_t)j].a == 0) {
                        tab[h + (size_t)j] = x->tab[i];
                        used++;
                        break;
                    }
            }
            free(x->tab);
            x->tab = tab;
            x->cap = cap;
            x->used = used;
        } else {
            x->max_cap = x->cap; /* no more memory: keep the table as it is */
        }
    }
    if (x->cap == 0)
        return false;
    ExKey *b = &x->tab[k.a & (x->cap - 4)];
    for (int j = 0; j < 4; j++) {
        if (b[j].a == k.a && b[j].b == k.b)
            return true;
        if (b[j].a == 0) {
            b[j] = k;
            x->used++;
            return false;
        }
    }
    b[k.b & 3] = k;
    return false;
}

/* If the nf free tasks fv form a fixed task order, its first task, else -1. */
static int
ex_fto(Exact *x, const int *fv, int nf)
{
    if (!x->sym || nf < 2)
        return -1;
    const Graph *g = x->g;
    int child = -1, pdsp = -1;
    for (int i = 0; i < nf; i++) {
        int t = fv[i];
        if (x->np0[t] > 1 || x->ns0[t] > 1)
            return -1;
        if (x->ns0[t] == 1) {
            int c = g->edges[x->se[t]].to;
            if (child >= 0 && c != child)
                return -1;
            child = c;
        }
        if (x->np0[t] == 1) {
            int d = x->proc[g->edges[x->pe[t]].from];
            if (pdsp >= 0 && d != pdsp)
                return -1;
            pdsp = d;
        }
    }
    /* sort by data ready time, then larger outgoing cost, then index (insertion) */
    int *o = x->fto;
    for (int i = 0; i < nf; i++) {
        int t = fv[i], k = i;
        int64_t dt = x->np0[t] ? x->ft[g->edges[x->pe[t]].from] + x->comm[x->pe[t]] : 0;
        int64_t ot = x->ns0[t] ? x->comm[x->se[t]] : 0;
        while (k > 0) {
            int u = o[k - 1];
            int64_t du =
                x->np0[u] ? x->ft[g->edges[x->pe[u]].from] + x->comm[x->pe[u]] : 0;
            int64_t ou = x->ns0[u] ? x->comm[x->se[u]] : 0;
            if (du < dt || (du == dt && (ou > ot || (ou == ot && u < t))))
                break;
            o[k] = u;
            k--;
        }
        o[k] = t;
    }
    for (int i = 1; i < nf; i++) {
        int64_t a = x->ns0[o[i - 1]] ? x->comm[x->se[o[i - 1]]] : 0;
        int64_t b = x->ns0[o[i]] ? x->comm[x->se[o[i]]] : 0;
        if (b > a)
            return -1;
    }
    return o[0];
}

typedef struct ExChild {
    int64_t lb, s;
    int t, d;
} ExChild;

static int
ex_child_cmp(const void *a, const void *b)
{
    const ExChild *u = a, *v = b;
    if (u->lb != v->lb)
        return u->lb < v->lb ? -1 : 1;
    if (u->s != v->s)
        return u->s < v->s ? -1 : 1;
    if (u->t != v->t)
        return u->t < v->t ? -1 : 1;
    return (u->d > v->d) - (u->d < v->d);
}

static void
ex_dfs(Exact *x, ExChild *buf)
{
    if (x->stopped)
        return;
    x->nodes++;
    if ((x->node_limit > 0 && x->nodes >= x->node_limit) ||
        (x->deadline > 0 && (x->nodes & 1023) == 0 && cpu_seconds() > x->deadline)) {
        x->stopped = true;
        return;
    }
    const Graph *g = x->g;
    if (x->placed == x->n) {
        int64_t len = 0;
        for (int d = 0; d < x->P; d++)
            if (x->fr[d] > len)
                len = x->fr[d];
        if (len < x->best) {
            x->best = len;
            memcpy(x->best_proc, x->proc, (size_t)x->n * sizeof *x->proc);
            memcpy(x->best_st, x->st, (size_t)x->n * sizeof *x->st);
        }
        return;
    }
    if (x->placed > 0 && ex_seen(x, ex_signature(x)))
        return;
    int *fv = x->free_buf + (size_t)x->placed * (size_t)x->n, nf = 0;
    for (int t = 0; t < x->n; t++)
        if (x->proc[t] < 0 && x->npred[t] == 0 &&
            !(x->equiv[t] >= 0 && x->proc[x->equiv[t]] < 0))
            fv[nf++] = t;
    int first = ex_fto(x, fv, nf);
    if (first >= 0) {
        fv[0] = first;
        nf = 1;
    }
    int nc = 0;
    for (int i = 0; i < nf; i++) {
        int t = fv[i];
        int lo = 0, hi = x->P;
        if (g->tasks[t].dsp >= 0)
            lo = g->tasks[t].dsp, hi = lo + 1;
        bool empty_tried = false;
        for (int d = lo; d < hi; d++) {
            if (x->sym && x->cnt[d] == 0) {
                if (empty_tried)
                    continue;
                empty_tried = true;
            }
            int64_t s = ex_ready(x, t, d);
            if (x->fr[d] > s)
                s = x->fr[d];
            int64_t f = s + ex_cost(x, t, d);
            if (f >= x->best)
                continue;
            buf[nc++] = (ExChild){0, s, t, d};
        }
    }
    /* bounds of the children */
    for (int i = 0; i < nc; i++) {
        int64_t old_fr = x->fr[buf[i].d];
        ex_place(x, buf[i].t, buf[i].d, buf[i].s);
        buf[i].lb = ex_bound(x);
        ex_unplace(x, buf[i].t, old_fr);
    }
    qsort(buf, (size_t)nc, sizeof *buf, ex_child_cmp);
    for (int i = 0; i < nc && !x->stopped; i++) {
        if (buf[i].lb >= x->best)
            break;
        int64_t old_fr = x->fr[buf[i].d];
        ex_place(x, buf[i].t, buf[i].d, buf[i].s);
        ex_dfs(x, buf + nc);
        ex_unplace(x, buf[i].t, old_fr);
    }
}

/* The bottom levels bl[t]: how long the schedule lasts at least from t's start.  t's
 * successors (each once, the dearest edge from t) start after t's finish; those on t's
 * DSP one after the other, each of the others after its data, r_s = the edge's cheapest
 * cost + bl[s].  Any split of them: the remote ones give max r_s, the local ones L give
 * max over L of bl[s] and the sum of their cheapest costs + the smallest bl[s] - cost
 * over all successors (the last of them starts after all the others), both growing
 * with L; so the best split puts the largest r_s on t's DSP, the first k for the best k.
 * With no communication this is the bottom level of cheapest costs. */
static void
ex_tails(Exact *x)
{
    const Graph *g = x->g;
    int n = x->n;
    int64_t *edge = ir_xcalloc((size_t)n + 1, sizeof *edge);
    int *mark = ir_xcalloc((size_t)n + 1, sizeof *mark);
    for (int t = 0; t < n; t++)
        mark[t] = -1;
    for (int k = n - 1; k >= 0; k--) {
        int t = g->topo[k], m = 0;
        int64_t slack = INT64_MAX;
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->succ[j]];
            if (e->delay)
                continue;
            if (mark[e->to] != t) {
                mark[e->to] = t;
                edge[e->to] = 0;
            }
            if (x->comm[g->succ[j]] > edge[e->to])
                edge[e->to] = x->comm[g->succ[j]];
        }
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->succ[j]];
            int v = e->to;
            if (e->delay || mark[v] != t)
                continue;
            mark[v] = -2 - t; /* once */
            int64_t r = edge[v] + x->bl[v];
            int i = m++;
            while (i > 0 && x->qr[i - 1] < r) {
                x->qr[i] = x->qr[i - 1];
                x->qe[i] = x->qe[i - 1];
                x->qc[i] = x->qc[i - 1];
                i--;
            }
            x->qr[i] = r;
            x->qe[i] = x->bl[v];
            x->qc[i] = x->cmin[v];
            if (x->bl[v] - x->cmin[v] < slack)
                slack = x->bl[v] - x->cmin[v];
        }
        int64_t tail = m > 0 ? x->qr[0] : 0, sum = 0, blmax = 0;
        for (int i = 0; i < m; i++) {
            /* the first i + 1 on t's DSP */
            sum += x->qc[i];
            if (x->qe[i] > blmax)
                blmax = x->qe[i];
            int64_t v = sum + slack > blmax ? sum + slack : blmax;
            if (i + 1 < m && x->qr[i + 1] > v)
                v = x->qr[i + 1];
            if (v < tail)
                tail = v;
        }
        x->bl[t] = x->cmin[t] + tail;
    }
    free(edge);
    free(mark);
}

/* Are tasks a and b identical: the same costs, the same zero-delay predecessors and
 * successors with the same bytes, no delay edge, not pinned? */
static bool
ex_identical(const Graph *g, const Platform *p, int a, int b)
{
    const Task *u = &g->tasks[a], *v = &g->tasks[b];
    if (u->dsp >= 0 || v->dsp >= 0)
        return false;
    for (int d = 0; d < p->ndsps; d++)
        if (ir_task_cycles(u, d) != ir_task_cycles(v, d))
            return false;
    if (g->pred_off[a + 1] - g->pred_off[a] != g->pred_off[b + 1] - g->pred_off[b] ||
        g->succ_off[a + 1] - g->succ_off[a] != g->succ_off[b + 1] - g->succ_off[b])
        return false;
    for (int j = g->pred_off[a]; j < g->pred_off[a + 1]; j++) {
        const Edge *e = &g->edges[g->pred[j]];
        bool found = false;
        for (int k = g->pred_off[b]; k < g->pred_off[b + 1] && !found; k++) {
            const Edge *f = &g->edges[g->pred[k]];
            found = f->from == e->from && f->bytes == e->bytes && f->delay == 0 &&
                    e->delay == 0;
        }
        if (!found)
            return false;
    }
    for (int j = g->succ_off[a]; j < g->succ_off[a + 1]; j++) {
        const Edge *e = &g->edges[g->succ[j]];
        bool found = false;
        for (int k = g->succ_off[b]; k < g->succ_off[b + 1] && !found; k++) {
            const Edge *f = &g->edges[g->succ[k]];
            found =
                f->to == e->to && f->bytes == e->bytes && f->delay == 0 && e->delay == 0;
        }
        if (!found)
            return false;
    }
    return true;
}

/* Is the platform homogeneous for g: every task costs the same on every DSP, nothing is
 * pinned, and every edge costs the same between any two distinct DSPs? */
static bool
ex_homogeneous(const Graph *g, const Platform *p)
{
    for (int t = 0; t < g->ntasks; t++)
        if (g->tasks[t].dsp >= 0 || g->tasks[t].ncycles > 1)
            return false;
    for (int e = 0; e < g->nedges; e++) {
        int64_t c = p->ndsps > 1 ? plat_comm_cost(p, 0, 1, g->edges[e].bytes) : 0;
        for (int a = 0; a < p->ndsps; a++)
            for (int b = 0; b < p->ndsps; b++)
                if (a != b && plat_comm_cost(p, a, b, g->edges[e].bytes) != c)
                    return false;
    }
    return true;
}

int
sched_exact(const Graph *g, const Platform *p, Sched **sp, int64_t node_limit,
            double seconds, SchedExactResult *res)
{
    double t0 = cpu_seconds();
    int n = g->ntasks, P = p->ndsps;
    Exact x = {.g = g, .p = p, .n = n, .P = P, .node_limit = node_limit};
    x.deadline = seconds > 0 ? t0 + seconds : 0;
    x.sym = ex_homogeneous(g, p);
    /* at most 2^24 states of 16 bytes (256 MiB) */
    x.max_cap = (size_t)1 << 24;
    x.cmin = ir_xcalloc((size_t)n + 1, sizeof *x.cmin);
    x.bl = ir_xcalloc((size_t)n + 1, sizeof *x.bl);
    x.equiv = ir_xcalloc((size_t)n + 1, sizeof *x.equiv);
    x.proc = ir_xcalloc((size_t)n + 1, sizeof *x.proc);
    x.st = ir_xcalloc((size_t)n + 1, sizeof *x.st);
    x.ft = ir_xcalloc((size_t)n + 1, sizeof *x.ft);
    x.npred = ir_xcalloc((size_t)n + 1, sizeof *x.npred);
    x.np0 = ir_xcalloc((size_t)n + 1, sizeof *x.np0);
    x.ns0 = ir_xcalloc((size_t)n + 1, sizeof *x.ns0);
    x.pe = ir_xcalloc((size_t)n + 1, sizeof *x.pe);
    x.se = ir_xcalloc((size_t)n + 1, sizeof *x.se);
    x.est = ir_xcalloc((size_t)n + 1, sizeof *x.est);
    x.qr = ir_xcalloc((size_t)n + 1, sizeof *x.qr);
    x.qe = ir_xcalloc((size_t)n + 1, sizeof *x.qe);
    x.qc = ir_xcalloc((size_t)n + 1, sizeof *x.qc);
    x.free_buf = ir_xcalloc((size_t)(n + 1) * (size_t)n + 1, sizeof *x.free_buf);
    x.fto = ir_xcalloc((size_t)n + 1, sizeof *x.fto);
    x.z1 = ir_xcalloc((size_t)n + 1, sizeof *x.z1);
    x.z2 = ir_xcalloc((size_t)n + 1, sizeof *x.z2);
    x.col1 = ir_xcalloc((size_t)P, sizeof *x.col1);
    x.col2 = ir_xcalloc((size_t)P, sizeof *x.col2);
    x.comm = ir_xcalloc((size_t)g->nedges + 1, sizeof *x.comm);
    for (int e = 0; e < g->nedges; e++) {
        /* the cheapest cost of the edge between two distinct DSPs */
        int64_t c = INT64_MAX;
        for (int a = 0; a < P; a++)
            for (int b = 0; b < P; b++)
                if (a != b && plat_comm_cost(p, a, b, g->edges[e].bytes) < c)
                    c = plat_comm_cost(p, a, b, g->edges[e].bytes);
        x.comm[e] = c == INT64_MAX ? 0 : c;
    }
    x.fr = ir_xcalloc((size_t)P, sizeof *x.fr);
    x.emin = ir_xcalloc((size_t)P, sizeof *x.emin);
    x.dwork = ir_xcalloc((size_t)P, sizeof *x.dwork);
    x.dest = ir_xcalloc((size_t)P, sizeof *x.dest);
    x.uf = ir_xcalloc((size_t)n + 1, sizeof *x.uf);
    x.att = ir_xcalloc((size_t)n + 1, sizeof *x.att);
    x.catt = ir_xcalloc((size_t)n + 1, sizeof *x.catt);
    x.cwork = ir_xcalloc((size_t)n + 1, sizeof *x.cwork);
    x.cest = ir_xcalloc((size_t)n + 1, sizeof *x.cest);
    x.cnt = ir_xcalloc((size_t)P, sizeof *x.cnt);
    x.best_proc = ir_xcalloc((size_t)n + 1, sizeof *x.best_proc);
    x.best_st = ir_xcalloc((size_t)n + 1, sizeof *x.best_st);
    uint64_t seed = UINT64_C(0x2545f4914f6cdd1d);
    for (int t = 0; t < n; t++) {
        const Task *k = &g->tasks[t];
        x.proc[t] = -1;
        x.cmin[t] = ir_task_cycles(k, k->dsp >= 0 ? k->dsp : 0);
        for (int d = 1; d < P && k->dsp < 0; d++)
            if (ir_task_cycles(k, d) < x.cmin[t])
                x.cmin[t] = ir_task_cycles(k, d);
        x.rem += x.cmin[t];
        x.equiv[t] = -1;
        for (int u = t - 1; u >= 0 && x.equiv[t] < 0; u--)
            if (ex_identical(g, p, u, t))
                x.equiv[t] = u;
        x.z1[t] = ex_mix(seed += UINT64_C(0x9e3779b97f4a7c15));
        x.z2[t] = ex_mix(seed += UINT64_C(0x9e3779b97f4a7c15));
    }
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].delay == 0) {
            int a = g->edges[e].from, b = g->edges[e].to;
            x.npred[b]++;
            x.np0[b]++;
            x.pe[b] = e;
            x.ns0[a]++;
            x.se[a] = e;
        }
    ex_tails(&x);
    if (!*sp) { /* no incumbent given: HEFT's */
        Diag *d = diag_new();
        if (sched_heft(g, p, sp, NULL, NULL, d) != 0)
            ice("sched_exact: HEFT failed on a checked graph");
        diag_free(d);
        comm_insert(*sp);
    }
    Sched *s0 = *sp;
    x.best = sched_list_makespan(s0);
    if (x.best < 0)
        x.best = INT64_MAX;
    int64_t start = x.best;
    int64_t lb0 = ex_bound(&x);
    /* a child buffer per depth: at most n free tasks x P DSPs each */
    ExChild *buf = ir_xcalloc((size_t)(n + 1) * (size_t)n * (size_t)P + 1, sizeof *buf);
    if (n > 0 && lb0 < x.best)
        ex_dfs(&x, buf);
    res->nodes = x.nodes;
    res->proven = !x.stopped;
    res->lower = x.stopped ? lb0 : x.best;
    res->length = x.best;
    res->seconds = cpu_seconds() - t0;
    if (x.best < start) {
        /* the schedule found: each DSP's tasks in order of start */
        Key *key = ir_xcalloc((size_t)n + 1, sizeof *key);
        int *tpos = ir_xcalloc((size_t)n + 1, sizeof *tpos);
        for (int k = 0; k < n; k++)
            tpos[g->topo[k]] = k;
        for (int t = 0; t < n; t++)
            key[t] = (Key){x.best_st[t],
                           x.best_st[t] + ir_task_cycles(&g->tasks[t], x.best_proc[t]),
                           tpos[t], t};
        qsort(key, (size_t)n, sizeof *key, key_cmp);
        Sched *s = ir_sched_new(g, p);
        for (int t = 0; t < n; t++)
            s->map[t] = x.best_proc[t];
        for (int k = 0; k < n; k++)
            ir_sched_push_op(s, x.best_proc[key[k].task], OP_COMPUTE, key[k].task);
        comm_insert(s);
        ir_sched_free(s0);
        *sp = s;
        free(key);
        free(tpos);
    }
    free(buf);
    free(x.tab);
    free(x.cmin);
    free(x.bl);
    free(x.equiv);
    free(x.proc);
    free(x.st);
    free(x.ft);
    free(x.npred);
    free(x.np0);
    free(x.ns0);
    free(x.pe);
    free(x.se);
    free(x.est);
    free(x.qr);
    free(x.qe);
    free(x.qc);
    free(x.free_buf);
    free(x.fto);
    free(x.z1);
    free(x.z2);
    free(x.col1);
    free(x.col2);
    free(x.comm);
    free(x.fr);
    free(x.emin);
    free(x.dwork);
    free(x.dest);
    free(x.uf);
    free(x.att);
    free(x.catt);
    free(x.cwork);
    free(x.cest);
    free(x.cnt);
    free(x.best_proc);
    free(x.best_st);
    return 0;
}

int64_t
sched_lower_bound(const Graph *g, const Platform *p)
{
    int n = g->ntasks, P = p->ndsps;
    if (!g->topo || !g->succ_off || n == 0)
        return 0;
    /* cheapest cost of each task (its pinned DSP's when pinned) */
    int64_t *c = ir_xcalloc((size_t)n, sizeof *c),
            *fin = ir_xcalloc((size_t)n, sizeof *fin);
    int64_t *pin = ir_xcalloc((size_t)P, sizeof *pin);
    double work = 0;
    for (int t = 0; t < n; t++) {
        const Task *k = &g->tasks[t];
        if (k->dsp >= 0 && k->dsp < P) {
            c[t] = ir_task_cycles(k, k->dsp);
            pin[k->dsp] += c[t];
        } else {
            c[t] = ir_task_cycles(k, 0);
            for (int d = 1; d < P; d++)
                if (ir_task_cycles(k, d) < c[t])
                    c[t] = ir_task_cycles(k, d);
        }
        work += (double)c[t];
    }
    /* longest path of cheapest costs over the zero-delay edges (communication 0: the
     * two ends can share a DSP) */
    int64_t cp = 0;
    for (int k = 0; k < n; k++) {
        int t = g->topo[k];
        int64_t st = 0;
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->pred[j]];
            if (e->delay == 0 && fin[e->from] > st)
                st = fin[e->from];
        }
        fin[t] = st + c[t];
        if (fin[t] > cp)
            cp = fin[t];
    }
    double it = (double)g->iterations;
    double lb = (double)cp;
    double load = ceil(it * work / P);
    if (load > lb)
        lb = load;
    for (int d = 0; d < P; d++)
        if (it * (double)pin[d] > lb)
            lb = it * (double)pin[d];
    free(c);
    free(fin);
    free(pin);
    return lb > 9e18 ? INT64_MAX : (int64_t)lb;
}

int64_t
sched_default_budget(const Graph *g, bool plain)
{
    /* An evaluation costs about (tasks + 2 edges) x iterations operation steps, a
     * candidate one evaluation (plain, or nothing to pipeline) or two.  Several
     * iterations: about 3e8 steps in all, within [4, 4000] candidates.  One iteration:
     * about 1.5e6 steps (0.08 s for 100 tasks on the abstract model, RelWithDebInfo),
     * within [200, 20000]. */
    double size = (double)(g->ntasks + 2 * g->nedges);
    /* the pipelined objective evaluates twice only when a message can be pipelined,
     * i.e. is not eager (never on the abstract model) */
    bool twice = false;
    for (int e = 0; e < g->nedges && !plain && !twice; e++)
        twice = !g->platform || g->edges[e].bytes > g->platform->eager_limit;
    if (g->iterations <= 1) {
        double b = 1.5e6 / (size > 1 ? size : 1) / (twice ? 2 : 1);
        return (int64_t)(b < 200 ? 200 : b > 20000 ? 20000 : b);
    }
    double work = size * (double)g->iterations;
    if (twice)
        work *= 2;
    double b = 3e8 / (work > 1 ? work : 1);
    if (b < 4)
        b = 4;
    if (b > 4000)
        b = 4000;
    return (int64_t)b;
}

/* How many restarts sched_multi_start makes: about 3e5 task-and-edge visits of a DSP in
 * all (each restart some forward and backward list schedules), within [4, 64]. */
static int
sched_multi_runs(const Graph *g)
{
    double size =
        (double)(g->ntasks + g->nedges) * (g->platform ? g->platform->ndsps : 1);
    double r = 3e5 / (size > 1 ? size : 1);
    return r < 4 ? 4 : r > 64 ? 64 : (int)r;
}

/* Every unpinned task on the DSP where the unpinned tasks cost least in all, in
 * topological order; pinned tasks on their DSPs. */
static Sched *
one_dsp(const Graph *g, const Platform *p)
{
    int best = 0;
    int64_t bestc = INT64_MAX;
    for (int d = 0; d < p->ndsps; d++) {
        int64_t sum = 0;
        for (int t = 0; t < g->ntasks; t++)
            if (g->tasks[t].dsp < 0)
                sum += ir_task_cycles(&g->tasks[t], d);
        if (sum < bestc) {
            bestc = sum;
            best = d;
        }
    }
    Sched *s = ir_sched_new(g, p);
    for (int k = 0; k < g->ntasks; k++) {
        int t = g->topo[k], d = g->tasks[t].dsp >= 0 ? g->tasks[t].dsp : best;
        s->map[t] = d;
        ir_sched_push_op(s, d, OP_COMPUTE, t);
    }
    return s;
}

/* Requires u->g loaded with its platform (u->p); replaces u->s (any earlier schedule and
 * every result computed from it are invalid): the list scheduler of u->opt->algo (HEFT
 * by default), messages inserted, local search. */
int
pass_schedule(Unit *u, Diag *d)
{
    Graph *g = u->g;
    SchedAlgo algo = u->opt ? u->opt->algo : SCHED_HEFT;
    const Platform *p = u->p ? u->p : g->platform;
    if (!p) {
        Loc loc = {.file = g->file};
        diag_error(d, &loc, "the graph has no platform");
        return -1;
    }
    if (!g->succ_off && ir_graph_index(g) != 0) {
        Loc loc = {.file = g->file};
        diag_error(d, &loc, "the zero-delay edges of the graph form a cycle");
        return -1;
    }
    if (algo == SCHED_EXACT && (p->model != MODEL_ABSTRACT || g->iterations != 1)) {
        Loc loc = {.file = g->file};
        diag_error(d, &loc,
                   "--algo=exact needs one iteration on the abstract model (the classic "
                   "model of the scheduling literature); the graph has %lld iteration%s "
                   "on %s",
                   (long long)g->iterations, g->iterations == 1 ? "" : "s", p->name);
        return -1;
    }
    Sched *s;
    int rc = algo == SCHED_PEFT ? sched_peft(g, p, &s, NULL, NULL, d)
                                : sched_heft(g, p, &s, NULL, NULL, d);
    if (rc != 0)
        return -1;
    comm_insert(s);

    int64_t budget = u->opt ? u->opt->search_budget : -1;
    bool plain = u->opt && u->opt->search_plain;
    if (budget < 0)
        budget = sched_default_budget(g, plain);
    if (budget > 0 && g->ntasks > 0) {
        /* Starting points: the list schedule asked for, the other one and the one-DSP
         * schedule; the search starts from the best under its objective (ties: that
         * order), so its result is never worse than any of them. */
        struct Evaluator *ev = eval_new(g, p);
        int64_t lb = sched_lower_bound(g, p);
        Sched *alt[3] = {NULL, one_dsp(g, p),
                         sched_multi_start(g, p, sched_multi_runs(g), lb, NULL)};
        if (algo == SCHED_PEFT ? sched_heft(g, p, &alt[0], NULL, NULL, d)
                               : sched_peft(g, p, &alt[0], NULL, NULL, d))
            return -1;
        bool screen = !(u->opt && u->opt->search_unscreened);
        SchedSearchStats *st = u->opt ? u->opt->search_stats : NULL;
        int64_t best = sched_local_search_screen(&s, ev, 0, plain, lb, screen, st);
        for (int k = 0; k < 3; k++) {
            comm_insert(alt[k]);
            int64_t len =
                sched_local_search_screen(&alt[k], ev, 0, plain, lb, screen, st);
            if (len >= 0 && (best < 0 || len < best)) {
                Sched *t = s;
                s = alt[k];
                alt[k] = t;
                best = len;
            }
            ir_sched_free(alt[k]);
        }
        sched_local_search_screen(&s, ev, budget, plain, lb, screen, st);
        eval_free(ev);
    }
    if (algo == SCHED_EXACT) {
        /* the default's schedule is the incumbent of the exact search */
        const Options *o = u->opt;
        SchedExactResult r;
        sched_exact(g, p, &s, o ? o->exact_nodes : 0, o ? o->exact_seconds : 0, &r);
        if (o && o->exact_result)
            *o->exact_result = r;
    }
    ir_sched_free(u->s);
    u->s = s;
    return 0;
}
