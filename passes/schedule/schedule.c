/*
 * passes/schedule/schedule.c - the initial schedule: insertion-based list scheduling
 * (HEFT, or PEFT on request) of one iteration, then a local search whose objective is the
 * evaluated length over all iterations (docs/design.md section 5): by default the shorter
 * of the length as comm_insert leaves the schedule and the length with every receive
 * pipelined that the optimizer's cp baseline pipelines, since the pipeline always
 * optimises the messages afterwards.
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
 *
 * The files of the folder: list.c (HEFT, PEFT, the multi-start list scheduling),
 * search.c (the local search), exact.c (--algo=exact), this one (the pass, the lower
 * bound, the default budget); private.h is what they share.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#ifndef TGC_BB_STEPS
#define TGC_BB_STEPS 1e6
#endif

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

int64_t
sched_default_bb_steps(const Graph *g, const Platform *p, int64_t *cap)
{
    /* A fixed count (docs/scheduler.md, "The default's branch and bound"), and up to 4
     * times that while shorter schedules come. */
    *cap = 0;
    if (p->model != MODEL_ABSTRACT || g->iterations != 1 || g->ntasks == 0)
        return 0;
    *cap = 4 * (int64_t)TGC_BB_STEPS;
    return (int64_t)TGC_BB_STEPS;
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
        best = sched_local_search_screen(&s, ev, budget, plain, lb, screen, st);
        eval_free(ev);
        /* On the classic model, while the length is above the lower bound, a branch and
         * bound from it: the local search's moves end in local optima that the
         * exhaustive search's bound sees past (docs/scheduler.md, "The default's
         * branch and bound"). */
        int64_t nb = u->opt ? u->opt->search_bb_steps : 0, cap = 0;
        if (nb == 0)
            nb = sched_default_bb_steps(g, p, &cap);
        else
            cap = 4 * nb;
        if (nb > 0 && best > lb && p->model == MODEL_ABSTRACT && g->iterations == 1) {
            SchedExactResult r;
            sched_exact_grow(g, p, &s, nb, cap, &r);
            if (st)
                st->bb_steps += r.steps;
        }
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
