/*
 * passes/bfco/pipelines.c - communication pipelining on top of the merge (docs/bfco.md,
 * section 3): which receives can be pipelined and whose buffers fit, the cp baseline's
 * rule (shared with the scheduler), the paper's pipelining (greedy, TIS/TEIR pruning,
 * Algorithm 2: bfco_pipelines), and the polish after the search (single toggles).
 */
#include <stdlib.h>
#include <string.h>

#include "private.h"

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
    return bfco_eval(w);
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
    bfco_merged_graph(w);
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
    int64_t L0 = bfco_eval(w);
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
            L = bound ? fb : better(bfco_eval(w));
            if (L < bestL) {
                bestL = L;
                memcpy(best, pipe, (size_t)G * sizeof(bool));
            }
        }
        np = 0;
        for (int k = 0; k < G; k++)
            np += pipe[k];
        if (bound && lazy && bestL < lb && np > 0 && L < lb) {
            L = better(bfco_eval(w)); /* not below bestL either */
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
            L = better(bfco_eval(w));
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
int64_t
bfco_polish(Worker *w, int64_t L, int64_t budget, bool whole, bool all, int64_t *used)
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
            ir_progress("bfco: polish, toggles", tried, budget);
            int64_t Lk = INT64_MAX;
            if (failed[k] != ver && bfco_mem_ok(w, p)) {
                bfco_set_pipes(w, p);
                /* only whether lb < L and lb <= F (lb < F when strict) matters, and lb
                 * itself when kept */
                int64_t c = F >= 0 && F < L ? F + !strict : L;
                int64_t lb = bfco_free_below(w, c);
                if (lb == -2 || (lb < L && (F < 0 || lb < F || (!strict && lb == F))))
                    Lk = bfco_eval_below(w, L);
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
