/*
 * passes/schedule/exact.c - the exact search of the scheduler (--algo=exact,
 * docs/scheduler.md "--algo=exact"): a depth-first branch and bound for the one-iteration
 * length in the classic model, with the prunings listed below.
 */
#include <stdlib.h>
#include <string.h>

#include "private.h"

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
    int64_t steps, step_limit, step_cap; /* sched_exact_grow: the bound's steps (a
                         task's earliest start on a DSP: its edges in + 1), at most
                         step_limit (0 = no limit), which grows to twice the steps at
                         each improvement, up to step_cap */
    double deadline;                     /* CPU seconds, 0 = none */
    bool stopped;                        /* a limit was hit: not proven */
} Exact;

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

/* Inserts (r, e, c) at place k of the queue qr/qe/qc, which it extends by one: after the
 * entries whose r is at least r (largest r first, equal ones in arrival order). */
static void
ex_queue_insert(Exact *x, int k, int64_t r, int64_t e, int64_t c)
{
    while (k > 0 && x->qr[k - 1] < r) {
        x->qr[k] = x->qr[k - 1];
        x->qe[k] = x->qe[k - 1];
        x->qc[k] = x->qc[k - 1];
        k--;
    }
    x->qr[k] = r;
    x->qe[k] = e;
    x->qc[k] = c;
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
    x->steps += g->pred_off[t + 1] - g->pred_off[t] + 1;
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
            ex_queue_insert(x, nq++, r, eq, x->cmin[q]);
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
        (x->step_limit > 0 && x->steps >= x->step_limit) ||
        (x->deadline > 0 && (x->nodes & 1023) == 0 && ir_cpu_seconds() > x->deadline)) {
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
            if (x->step_cap > x->step_limit && 2 * x->steps > x->step_limit)
                x->step_limit = 2 * x->steps < x->step_cap ? 2 * x->steps : x->step_cap;
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
            ex_queue_insert(x, m++, r, x->bl[v], x->cmin[v]);
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

/* sched_exact and sched_exact_grow: step_limit > 0 bounds the steps of the bound, and
 * step_cap > step_limit lets the limit grow. */
static int
exact_run(const Graph *g, const Platform *p, Sched **sp, int64_t node_limit,
          int64_t step_limit, int64_t step_cap, double seconds, SchedExactResult *res)
{
    double t0 = ir_cpu_seconds();
    int n = g->ntasks, P = p->ndsps;
    Exact x = {.g = g,
               .p = p,
               .n = n,
               .P = P,
               .node_limit = node_limit,
               .step_limit = step_limit,
               .step_cap = step_cap};
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
    res->steps = x.steps;
    res->proven = !x.stopped;
    res->lower = x.stopped ? lb0 : x.best;
    res->length = x.best;
    res->seconds = ir_cpu_seconds() - t0;
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
        qsort(key, (size_t)n, sizeof *key, sched_key_cmp);
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

int
sched_exact(const Graph *g, const Platform *p, Sched **sp, int64_t node_limit,
            double seconds, SchedExactResult *res)
{
    return exact_run(g, p, sp, node_limit, 0, 0, seconds, res);
}

int
sched_exact_grow(const Graph *g, const Platform *p, Sched **sp, int64_t steps,
                 int64_t step_cap, SchedExactResult *res)
{
    return exact_run(g, p, sp, 0, steps > 0 ? steps : 1, step_cap, 0, res);
}
