/*
 * passes/schedule/search.c - the local search of the scheduler (docs/scheduler.md, "The
 * local search"): moves, reorders and swaps of tasks under the evaluated length over all
 * iterations (the objective: the shorter of the schedule as comm_insert leaves it and
 * with the cp baseline's pipelines), screened by lower bounds, then an iterated local
 * search.
 *
 * Invariant kept throughout: every DSP's COMPUTE order is the restriction of one global
 * topological order of the zero-delay edges (`seq` below), which every move keeps.
 */
#include <stdlib.h>
#include <string.h>

#include "bfco/bfco_int.h"
#include "private.h"

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
    if (sched_merge_order(s0, x.seq) != 0)
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
