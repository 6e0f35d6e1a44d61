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
        for (int pk = 0; pk < P; pk++) {
            double worst = 0;
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
                const Edge *e = &g->edges[g->succ[j]];
                if (e->delay)
                    continue;
                double cbar = (double)plat_mean_comm_cost(p, e->bytes);
                double best = INFINITY;
                for (int pw = 0; pw < P; pw++) {
                    double v = oct[(size_t)e->to * P + pw] + (double)cost(g, e->to, pw) +
                               (pw == pk ? 0.0 : cbar);
                    if (v < best)
                        best = v;
                }
                if (best > worst)
                    worst = best;
            }
            oct[(size_t)t * P + pk] = worst;
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

static int64_t
finite(int64_t len)
{
    return len < 0 ? INT64_MAX : len;
}

/* The objective of schedule s (messages as comm_insert leaves them, none pipelined):
 * eval_length, and unless plain the shorter of that and the length with every receive
 * pipelined that cp would pipeline (bfco_cp_pipes), set and cleared in place.  One
 * candidate of the budget; two eval_length calls when something can be pipelined. */
static int64_t
objective(Search *x, Sched *s)
{
    x->evals++;
    ir_progress("schedule: local search", x->evals,
                x->budget < INT64_MAX ? x->budget : 0);
    int64_t len = finite(eval_length(x->ev, s));
    if (x->plain)
        return len;
    bfco_recv_buffers(s, x->rbuf);
    bfco_cp_pipes(s, x->rbuf, x->xbuf, x->pipe);
    int n = 0;
    for (int k = 0; k < s->nmsgs; k++) {
        s->msgs[k].pipelined = x->pipe[k];
        n += x->pipe[k];
    }
    if (n > 0) {
        int64_t piped = finite(eval_length(x->ev, s));
        if (piped < len)
            len = piped;
        for (int k = 0; k < s->nmsgs; k++)
            s->msgs[k].pipelined = false;
    }
    return len;
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
    int64_t len = evaluate(x);
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
    Sched *s0 = *sp;
    Search x = {.g = s0->g,
                .p = s0->p,
                .ev = ev,
                .n = s0->g->ntasks,
                .P = s0->ndsps,
                .plain = plain,
                .lb = lb,
                .rng = UINT64_C(0x9e3779b97f4a7c15)};
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

    /* The state always holds the best schedule found (rejected trials are undone); it is
     * returned with no receive pipelined (the optimizer decides). */
    Sched *s = build(&x);
    int64_t len = objective(&x, s);
    x.s = NULL;
    ir_sched_free(s0);
    *sp = s;
    free(x.rbuf);
    free(x.xbuf);
    free(x.pipe);
    free(x.map);
    free(x.seq);
    free(x.pos);
    return len == INT64_MAX ? -1 : len;
}

int64_t
sched_lower_bound(const Graph *g, const Platform *p)
{
    int n = g->ntasks, P = p->ndsps;
    if (!g->topo || !g->succ_off || n == 0)
        return 0;
    /* cheapest cost of each task (its pinned DSP's when pinned) */
    int64_t *c = ir_xcalloc((size_t)n, sizeof *c), *fin = ir_xcalloc((size_t)n, sizeof *fin);
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
        Sched *alt[2] = {NULL, one_dsp(g, p)};
        if (algo == SCHED_PEFT ? sched_heft(g, p, &alt[0], NULL, NULL, d)
                               : sched_peft(g, p, &alt[0], NULL, NULL, d))
            return -1;
        int64_t best = sched_local_search_lb(&s, ev, 0, plain, lb);
        for (int k = 0; k < 2; k++) {
            comm_insert(alt[k]);
            int64_t len = sched_local_search_lb(&alt[k], ev, 0, plain, lb);
            if (len >= 0 && (best < 0 || len < best)) {
                Sched *t = s;
                s = alt[k];
                alt[k] = t;
                best = len;
            }
            ir_sched_free(alt[k]);
        }
        sched_local_search_lb(&s, ev, budget, plain, lb);
        eval_free(ev);
    }
    ir_sched_free(u->s);
    u->s = s;
    return 0;
}
