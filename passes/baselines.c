/*
 * passes/baselines.c - the optimize pass: the baselines of [BFCO] (docs/references.md)
 * (none, ma, cp, es) and the dispatch to BFCO (passes/bfco/).
 *
 * Requires: a schedule that passes ir_sched_verify and does not deadlock; its messages
 * are the units merging combines (with aggregated messages, comm_insert starts again from
 * one message per edge).  Produces a new schedule; the input is not changed.
 *
 *   none  the input
 *   ma    every same-source, same-destination, same-delay send merged, then repaired
 *   cp    every receive that can be pipelined is (not eager, receive buffers fit)
 *   es    every merge partition without a path inside a group, and whose merged graph and
 *         order are deadlock-free, times every subset of pipelined receives
 *   bfco  the particle swarm search
 */
#include <stdlib.h>
#include <string.h>

#include "bfco/bfco_int.h"

static const char *const method_names[] = {"none", "ma", "cp", "bfco", "es"};

const char *
opt_method_name(OptMethod m)
{
    return (unsigned)m < sizeof method_names / sizeof *method_names ? method_names[m]
                                                                    : "?";
}

int
opt_method_parse(const char *name, OptMethod *m)
{
    for (int i = 0; i < (int)(sizeof method_names / sizeof *method_names); i++)
        if (strcmp(name, method_names[i]) == 0) {
            *m = (OptMethod)i;
            return 0;
        }
    return -1;
}

Sched *
opt_merge(const Sched *base, const int *group, bool repair, int *released)
{
    for (int u = 0; u < base->nmsgs; u++)
        for (int v = 0; v < u; v++)
            if (group[u] == group[v]) {
                const Msg *a = &base->msgs[u], *b = &base->msgs[v];
                if (a->src != b->src || a->dst != b->dst || a->delay != b->delay)
                    return NULL;
            }
    Space *sp = bfco_space_new(base, 0); /* every pair: any group is expressible */
    Worker *w = bfco_worker_new(sp);
    int M = base->nmsgs;
    int *label = ir_xcalloc((size_t)M, sizeof *label);
    for (int u = 0; u < M; u++) { /* the first unit of each group names it */
        label[u] = u;
        for (int v = 0; v < u; v++)
            if (group[v] == group[u]) {
                label[u] = v;
                break;
            }
    }
    Sched *out = NULL;
    if (repair) {
        /* Algorithm 1 first: the groups as bits, united in order with path checks. */
        uint8_t *bits = ir_xcalloc((size_t)sp->nbits + 1, 1);
        for (int b = 0; b < sp->nbits; b++)
            bits[b] = label[sp->bu[b]] == label[sp->bv[b]];
        bfco_groups_from_bits(w, bits);
        int rel = 0;
        int before = 0;
        for (int u = 0; u < M; u++)
            before += label[u] != u;
        if (bfco_repair(w, true, &rel) >= 0)
            out = ir_sched_copy(bfco_worker_sched(w));
        if (released && out)
            *released = before - (M - out->nmsgs);
        free(bits);
    } else {
        bfco_set_labels(w, label);
        bfco_build_naive(w);
        out = ir_sched_copy(bfco_worker_sched(w));
        if (released)
            *released = 0;
    }
    free(label);
    bfco_worker_free(w);
    bfco_space_free(sp);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * Exhaustive search
 * ------------------------------------------------------------------------------------------
 */

typedef struct Es {
    const Space *sp;
    Worker *w;
    int *rgs; /* [M] restricted growth string within each class */
    int *label;
    int64_t count; /* configurations (partitions x pipeline subsets) */
    int64_t limit;
    bool over;
    bool run; /* false: only count */
    int64_t best;
    int *best_label;
    bool *best_pipe;
    bool *pipe;
    int *cand;
} Es;

static void
es_partition(Es *es)
{
    const Space *sp = es->sp;
    Worker *w = es->w;
    bfco_set_labels(w, es->label);
    int64_t L0;
    if (!es->run) {
        /* counting needs only the pipelinable groups: every receive but eager ones */
        int G = 0, np = 0;
        for (int u = 0; u < sp->M; u++) {
            if (es->label[u] != u)
                continue;
            G++;
            int64_t bytes = 0;
            for (int v = u; v < sp->M; v++)
                if (es->label[v] == u)
                    bytes += sp->base->msgs[v].bytes;
            np += bytes > sp->p->eager_limit;
        }
        (void)G;
        int64_t c = np >= 62 ? INT64_MAX : (INT64_C(1) << np);
        es->count = c > INT64_MAX - es->count ? INT64_MAX : es->count + c;
        if (es->count > es->limit)
            es->over = true;
        return;
    }
    L0 = bfco_repair(w, false, NULL);
    if (L0 < 0)
        return; /* the merged graph or the order deadlocks: not a candidate */
    /* Bounds (docs/bfco.md) skip what cannot be strictly shorter than the best so far:
     * the partition when its bound for every pipeline set is not below it, a subset
     * when its length without contention is not.  The optimum is the same. */
    if (es->best != INT64_MAX && bfco_eval_bound(w) >= es->best)
        return;
    int G = bfco_ngroups(w), n = 0;
    for (int k = 0; k < G; k++) {
        es->pipe[k] = false;
        if (bfco_pipeable(w, k))
            es->cand[n++] = k;
    }
    /* Gray code over the candidate subsets: one flag changes per step. */
    int64_t total = INT64_C(1) << n;
    for (int64_t i = 0; i < total; i++) {
        if (i > 0) {
            int bit = __builtin_ctzll((unsigned long long)i);
            es->pipe[es->cand[bit]] ^= 1;
        }
        if (!bfco_mem_ok(w, es->pipe))
            continue;
        int64_t L = L0;
        if (i > 0) {
            bfco_set_pipes(w, es->pipe);
            int64_t lb = es->best == INT64_MAX ? -2 : bfco_eval_free(w);
            L = lb >= es->best ? -1 : bfco_eval_pipes(w, es->pipe);
        }
        if (L >= 0 && L < es->best) {
            es->best = L;
            memcpy(es->best_label, es->label, (size_t)sp->M * sizeof(int));
            memset(es->best_pipe, 0, (size_t)sp->M * sizeof(bool));
            memcpy(es->best_pipe, es->pipe, (size_t)G * sizeof(bool));
        }
    }
}

/* Every partition of class c.. onwards: restricted growth strings, a block never holds
 * two units joined by a path. */
static void
es_class(Es *es, int c, int i)
{
    const Space *sp = es->sp;
    if (es->over)
        return;
    if (c == sp->ncls) {
        es_partition(es);
        return;
    }
    int lo = sp->cls_off[c], n = sp->cls_off[c + 1] - lo;
    if (i == n) {
        es_class(es, c + 1, 0);
        return;
    }
    int u = sp->cls_units[lo + i];
    int maxb = -1;
    for (int j = 0; j < i; j++)
        if (es->rgs[lo + j] > maxb)
            maxb = es->rgs[lo + j];
    for (int blk = 0; blk <= maxb + 1; blk++) {
        bool ok = true;
        int first = -1;
        for (int j = 0; j < i && ok; j++)
            if (es->rgs[lo + j] == blk) {
                int v = sp->cls_units[lo + j];
                if (first < 0)
                    first = v;
                ok = !bfco_path(sp, u, v);
            }
        if (!ok)
            continue;
        es->rgs[lo + i] = blk;
        es->label[u] = first >= 0 ? first : u;
        es_class(es, c, i + 1);
    }
}

static int
run_es(const Space *sp, const BfcoParams *bp, Sched **out, OptStats *st, Diag *d)
{
    Es es = {.sp = sp, .limit = bp->es_limit};
    es.w = bfco_worker_new(sp);
    es.rgs = ir_xcalloc((size_t)sp->M + 1, sizeof(int));
    es.label = ir_xcalloc((size_t)sp->M + 1, sizeof(int));
    es.best_label = ir_xcalloc((size_t)sp->M + 1, sizeof(int));
    es.best_pipe = ir_xcalloc((size_t)sp->M + 1, sizeof(bool));
    es.pipe = ir_xcalloc((size_t)sp->M + 1, sizeof(bool));
    es.cand = ir_xcalloc((size_t)sp->M + 1, sizeof(int));
    es.best = INT64_MAX;
    int rc = 0;
    /* es keeps every receive buffer in its DSP's memory (bfco_mem_ok): when the delay
       rings of the base schedule alone exceed it, no configuration fits, and that is
       the cause to report, not a deadlock */
    int full = -1;
    for (int dsp = 0; dsp < sp->D && full < 0; dsp++)
        if (sp->rbuf[dsp] > sp->p->dsp_memory_bytes)
            full = dsp;
    if (full >= 0) {
        Loc loc = {.file = sp->g->file};
        diag_error(
            d, &loc,
            "es: the receive buffers of DSP %d need %lld bytes (a ring of max(delay, "
            "1) slots per message), more than its %lld bytes of memory "
            "(dsp_memory_bytes of platform \"%s\"): no configuration fits; raise "
            "dsp_memory_bytes or lower the delays (the other methods check the "
            "memory only for the second buffer of a pipelined receive)",
            full, (long long)sp->rbuf[full], (long long)sp->p->dsp_memory_bytes,
            sp->p->name ? sp->p->name : "inline");
        rc = -1;
    } else {
        es_class(&es, 0, 0);
    }
    if (rc < 0) {
        /* reported */
    } else if (es.over) {
        Loc loc = {.file = sp->g->file};
        diag_error(
            d, &loc,
            "es: more than %lld configurations (merge partitions x pipeline subsets); "
            "raise the limit with --es-limit",
            (long long)es.limit);
        rc = -1;
    } else {
        int64_t count = es.count;
        es.run = true;
        es_class(&es, 0, 0);
        es.count = count;
        if (es.best == INT64_MAX) {
            rc = -1;
        } else {
            bfco_set_labels(es.w, es.best_label);
            bfco_repair(es.w, false, NULL);
            st->length = bfco_eval_pipes(es.w, es.best_pipe);
            *out = ir_sched_copy(bfco_worker_sched(es.w));
        }
    }
    st->evaluations = bfco_worker_evals(es.w);
    st->bound_evals = bfco_worker_bound_evals(es.w);
    bfco_worker_free(es.w);
    free(es.rgs);
    free(es.label);
    free(es.best_label);
    free(es.best_pipe);
    free(es.pipe);
    free(es.cand);
    return rc;
}

/* ------------------------------------------------------------------------------------------
 * Dispatch
 * ------------------------------------------------------------------------------------------
 */

int
opt_run(const Sched *base, OptMethod m, const BfcoParams *bp, Sched **out, OptStats *st,
        Diag *d)
{
    double t0 = ir_wall_seconds();
    BfcoParams def;
    if (!bp) {
        bfco_default_params(&def);
        bp = &def;
    }
    memset(st, 0, sizeof *st);
    *out = NULL;
    Loc loc = {.file = base->g->file};
    /* An input with aggregated messages (a schedule file, a second run) starts again from
     * one message per edge, in its COMPUTE order. */
    Sched *own = NULL;
    for (int k = 0; k < base->nmsgs && !own; k++)
        if (base->msgs[k].nedges != 1) {
            own = ir_sched_copy(base);
            comm_insert(own);
            base = own;
        }
    st->msgs_before = base->nmsgs;
    {
        Evaluator *ev = eval_new(base->g, base->p);
        int64_t L = eval_length(ev, base);
        eval_free(ev);
        if (L < 0) {
            diag_error(d, &loc, "optimize: the input schedule deadlocks");
            ir_sched_free(own);
            return -1;
        }
    }
    /* The PATH rows are bitsets over the messages, one per task and per send and receive.
     */
    double rows = (double)base->g->ntasks + 2.0 * base->nmsgs;
    if (rows * ((base->nmsgs + 63) / 64) * 8.0 > 1024.0 * 1024 * 1024) {
        diag_error(d, &loc,
                   "optimize: %d messages over %d tasks is more than the optimizer "
                   "handles (its path table would exceed 1 GiB)",
                   base->nmsgs, base->g->ntasks);
        ir_sched_free(own);
        return -1;
    }
    Space *sp = bfco_space_new(base, m == OPT_BFCO ? bp->window : 0);
    st->nbits = sp->nbits;
    int rc = 0;
    if (m == OPT_BFCO) {
        rc = bfco_search(sp, bp, out, st);
    } else if (m == OPT_ES) {
        rc = run_es(sp, bp, out, st, d);
    } else {
        Worker *w = bfco_worker_new(sp);
        int64_t L;
        if (m == OPT_MA) {
            bfco_groups_all(w);
            L = bfco_repair(w, true, NULL);
        } else {
            L = bfco_repair(w, false, NULL);
            if (L >= 0 && m == OPT_CP) {
                bool *pipe = ir_xcalloc((size_t)sp->M + 1, sizeof *pipe);
                bfco_greedy_pipes(w, pipe);
                L = bfco_eval_pipes(w, pipe);
                free(pipe);
            }
        }
        st->length = L;
        st->evaluations = bfco_worker_evals(w);
        if (L >= 0)
            *out = ir_sched_copy(bfco_worker_sched(w));
        bfco_worker_free(w);
        rc = L >= 0 ? 0 : -1;
    }
    if (rc < 0 && diag_errors(d) == 0)
        diag_error(d, &loc, "optimize: %s found no deadlock-free schedule",
                   opt_method_name(m));
    if (*out) {
        st->msgs_after = (*out)->nmsgs;
        for (int k = 0; k < (*out)->nmsgs; k++) {
            st->merged_groups += (*out)->msgs[k].nedges > 1;
            st->pipelined += (*out)->msgs[k].pipelined;
        }
    }
    bfco_space_free(sp);
    ir_sched_free(own);
    st->seconds = ir_wall_seconds() - t0;
    return rc;
}

/* Requires u->s with one message per cross-DSP edge, as pass_schedule leaves it;
 * replaces u->s (messages merged and pipelined by u->opt->method, order repaired), so
 * any evaluation of the old one is invalid.  -O none keeps u->s. */
int
pass_optimize(Unit *u, Diag *d)
{
    if (!u->s) {
        Loc loc = {.file = u->g->file};
        diag_error(d, &loc, "optimize: no schedule");
        return -1;
    }
    if (u->opt->method == OPT_NONE && !u->stats)
        return 0;
    BfcoParams bp;
    if (u->bfco) {
        bp = *u->bfco;
    } else {
        bfco_default_params(&bp);
        bp.seed = u->opt->seed;
        bp.threads = u->opt->threads > 0 ? u->opt->threads : 1;
    }
    Sched *out;
    OptStats st;
    if (opt_run(u->s, u->opt->method, &bp, &out, u->stats ? u->stats : &st, d) < 0)
        return -1;
    ir_sched_free(u->s);
    u->s = out;
    return 0;
}
