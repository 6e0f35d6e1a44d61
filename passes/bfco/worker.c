/*
 * passes/bfco/worker.c - a worker (one thread's workspace, passes/bfco/private.h): its
 * merge state (labels, union-find, groups numbered by first member), the schedule it
 * builds in place and the evaluations of that schedule (with and without contention,
 * the bound).
 */
#include <stdlib.h>
#include <string.h>

#include "private.h"

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
    bfco_cache_free(&w->sur);
    bfco_cache_free(&w->con);
    bfco_cache_free(&w->pre);
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
void
bfco_regroup(Worker *w)
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
void
bfco_canonical(Worker *w)
{
    for (int u = 0; u < w->sp->M; u++)
        w->label[u] = gfirst(w, w->gidx[u]);
    bfco_regroup(w);
}

void
bfco_bits_from_groups(const Worker *w, uint8_t *bits)
{
    const Space *sp = w->sp;
    for (int b = 0; b < sp->nbits; b++)
        bits[b] = w->gidx[sp->bu[b]] == w->gidx[sp->bv[b]];
}

int64_t
bfco_eval(Worker *w)
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
int64_t
bfco_eval_below(Worker *w, int64_t c)
{
    w->evals++;
    int64_t L = eval_length_below(w->ev, w->ws, c);
    return L < 0 ? INT64_MAX : L;
}

/* bfco_eval_free when it is below c, else INT64_MAX (also on deadlock); -2 as there. */
int64_t
bfco_free_below(Worker *w, int64_t c)
{
    if (!w->evf)
        return -2;
    w->fevals++;
    int64_t L = eval_length_below(w->evf, w->ws, c);
    return L < 0 ? INT64_MAX : L;
}
