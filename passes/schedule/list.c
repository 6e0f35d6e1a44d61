/*
 * passes/schedule/list.c - list scheduling of one iteration (docs/scheduler.md, "HEFT",
 * "PEFT", "Multi-start list scheduling"): insertion-based HEFT [HEFT] and PEFT [PEFT]
 * over the zero-delay edges, and the multi-start list scheduling (forward-backward
 * improvement, perturbed ranks) whose best schedule is a start of the local search.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

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

int
sched_key_cmp(const void *a, const void *b)
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
    qsort(key, (size_t)n, sizeof *key, sched_key_cmp);
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

int
sched_merge_order(const Sched *s, int *seq)
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

int64_t
sched_list_makespan(const Sched *s)
{
    const Graph *g = s->g;
    int n = g->ntasks;
    int *seq = ir_xcalloc((size_t)n + 1, sizeof *seq);
    if (sched_merge_order(s, seq) != 0) {
        free(seq);
        return -1; /* the orders contradict the precedences */
    }
    /* In that order every task's inputs and its DSP's previous task are finished. */
    int64_t *fin = ir_xcalloc((size_t)n, sizeof *fin);
    int64_t *avail = ir_xcalloc((size_t)s->ndsps, sizeof *avail);
    int64_t span = 0;
    for (int i = 0; i < n; i++) {
        int t = seq[i], dsp = s->map[t];
        int64_t ready = avail[dsp];
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->pred[j]];
            if (e->delay)
                continue;
            int64_t r =
                fin[e->from] + plat_comm_cost(s->p, s->map[e->from], dsp, e->bytes);
            if (r > ready)
                ready = r;
        }
        fin[t] = ready + ir_task_cycles(&g->tasks[t], dsp);
        avail[dsp] = fin[t];
        if (fin[t] > span)
            span = fin[t];
    }
    free(seq);
    free(fin);
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
    qsort(key, (size_t)n, sizeof *key, sched_key_cmp);
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
