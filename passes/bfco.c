/*
 * passes/bfco.c - BFCO (seed 001, docs/bfco.md): a binary particle swarm search over
 * message aggregation, with deadlock repair and greedy communication pipelining.
 *
 * Requires: a schedule with one message per cross-DSP edge as comm_insert leaves it (or
 * any valid schedule: its messages are the units that merging combines).  Produces a new
 * schedule; the base is not changed.
 *
 * Encoding: the M sends give an M x M upper triangle; an entry is DIFFP when the two
 * sends differ in source DSP, destination DSP or delay, PATH when a dependence path joins
 * them, otherwise a decision bit (MA = 1, NOMA = 0).  Merging is transitive: the bits set
 * define groups by union.  Every particle is repaired in the seed's order: path conflicts
 * inside a group (Algorithm 1), cycles in the merged dependence graph (DFS), order
 * adjustment, then the evaluator as dynamic check.  The repaired groups are written back
 * into the particle.
 *
 * Invariant of a built schedule: its per-DSP order is a topological order of program
 * order plus the send -> receive edges of zero-delay messages, so no cycle of zero
 * iteration shift exists and the evaluator finds no deadlock (DESIGN.md section 3).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bfco_int.h"

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

Space *
bfco_space_new(const Sched *base)
{
    Space *sp = ir_xcalloc(1, sizeof *sp);
    sp->base = base;
    sp->g = base->g;
    sp->p = base->p;
    sp->M = base->nmsgs;
    sp->D = base->ndsps;
    sp->T = base->g->ntasks;
    int M = sp->M, D = sp->D;
    sp->words = (M + 63) / 64 > 0 ? (M + 63) / 64 : 1;
    sp->ssl = ir_xcalloc((size_t)M, sizeof *sp->ssl);
    sp->rsl = ir_xcalloc((size_t)M, sizeof *sp->rsl);
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
    /* Classes: same (src, dst, delay), numbered by first unit. */
    sp->cls = ir_xcalloc((size_t)M, sizeof *sp->cls);
    for (int u = 0; u < M; u++) {
        const Msg *m = &base->msgs[u];
        sp->cls[u] = -1;
        for (int v = 0; v < u; v++) {
            const Msg *o = &base->msgs[v];
            if (o->src == m->src && o->dst == m->dst && o->delay == m->delay) {
                sp->cls[u] = sp->cls[v];
                break;
            }
        }
        if (sp->cls[u] < 0)
            sp->cls[u] = sp->ncls++;
    }
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
    reach(sp);
    /* Bits, row-major over the upper triangle. */
    int64_t nb = 0;
    for (int c = 0; c < sp->ncls; c++) {
        int n = sp->cls_off[c + 1] - sp->cls_off[c];
        nb += (int64_t)n * (n - 1) / 2;
    }
    sp->bu = ir_xcalloc((size_t)nb + 1, sizeof *sp->bu);
    sp->bv = ir_xcalloc((size_t)nb + 1, sizeof *sp->bv);
    for (int u = 0; u < M; u++)
        for (int v = u + 1; v < M; v++)
            if (sp->cls[u] == sp->cls[v] && !bfco_path(sp, u, v)) {
                sp->bu[sp->nbits] = u;
                sp->bv[sp->nbits++] = v;
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
    free(sp);
}

/* ------------------------------------------------------------------------------------------
 * A worker: merge state, repair, order, the schedule built in place
 * ------------------------------------------------------------------------------------------
 */

struct Worker {
    const Space *sp;
    Evaluator *ev;
    Sched *ws;
    int64_t evals;
    int *label;           /* [M] */
    int *lab2g;           /* [2M] scratch, -1 */
    int G;                /* groups */
    int *gidx;            /* [M] unit -> group */
    int *gm_off, *gm;     /* [M+1], [M] members of each group, ascending */
    int *gkey_s, *gkey_r; /* [M] send slot (last member), receive slot (first member) */
    int *uf, *ufnext, *ufhead; /* union-find with member lists */
    /* merged dependence graph: tasks, SEND nodes T+g, RECV nodes T+G+g */
    int nn, *soff, *sadj, *poff, *padj, *eu, *ev2;
    int *color, *stk, *stkit, *stkpos, *cyc, ncyc;
    /* order adjustment */
    Op *q;                 /* [sum nops] desired sequences */
    int *qoff, *qn, *head; /* [D+1], [D], [D] */
    bool *taken;
    int *pseq_off, *pseq, *ppos, *nexts, *cpos; /* per class sequences of groups */
    int *need, *qdsp, *heap, *hn, *tent, *sent, *rent;
    int *stamp, stampv;
    int *tpos, *rpos;
    bool *pipe, *bestpipe;
    int64_t *cnt;
    int *ord;
    int *epool; /* [nedges] edge lists of the built messages */
};

Worker *
bfco_worker_new(const Space *sp)
{
    Worker *w = ir_xcalloc(1, sizeof *w);
    const Graph *g = sp->g;
    int M = sp->M, D = sp->D, T = sp->T;
    size_t nodes = (size_t)T + 2 * (size_t)M + 1, edges = 2 * (size_t)g->nedges + M + 1;
    w->sp = sp;
    w->ev = eval_new(g, sp->p);
    w->ws = ir_sched_copy(sp->base);
    Sched *ws = w->ws;
    for (int m = 0; m < M; m++)
        ws->msgs[m].pipelined = false;
    w->label = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->lab2g = ir_xcalloc(2 * (size_t)M + 1, sizeof(int));
    for (int i = 0; i < 2 * M; i++)
        w->lab2g[i] = -1;
    w->gidx = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->gm_off = ir_xcalloc((size_t)M + 2, sizeof(int));
    w->gm = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->gkey_s = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->gkey_r = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->uf = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->ufnext = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->ufhead = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->soff = ir_xcalloc(nodes + 1, sizeof(int));
    w->poff = ir_xcalloc(nodes + 1, sizeof(int));
    w->sadj = ir_xcalloc(edges, sizeof(int));
    w->padj = ir_xcalloc(edges, sizeof(int));
    w->eu = ir_xcalloc(edges, sizeof(int));
    w->ev2 = ir_xcalloc(edges, sizeof(int));
    w->color = ir_xcalloc(nodes, sizeof(int));
    w->stk = ir_xcalloc(nodes, sizeof(int));
    w->stkit = ir_xcalloc(nodes, sizeof(int));
    w->stkpos = ir_xcalloc(nodes, sizeof(int));
    w->cyc = ir_xcalloc(nodes, sizeof(int));
    w->stamp = ir_xcalloc(nodes, sizeof(int));
    size_t tot = 0;
    for (int d = 0; d < D; d++)
        tot += (size_t)sp->base->nops[d];
    w->q = ir_xcalloc(tot + 1, sizeof(Op));
    w->taken = ir_xcalloc(tot + 1, sizeof(bool));
    w->qoff = ir_xcalloc((size_t)D + 1, sizeof(int));
    w->qn = ir_xcalloc((size_t)D, sizeof(int));
    w->head = ir_xcalloc((size_t)D, sizeof(int));
    w->pseq_off = ir_xcalloc((size_t)M + 2, sizeof(int));
    w->pseq = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->ppos = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->nexts = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->cpos = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->need = ir_xcalloc(tot + 1, sizeof(int));
    w->qdsp = ir_xcalloc(tot + 1, sizeof(int));
    w->heap = ir_xcalloc(tot + 1, sizeof(int));
    w->hn = ir_xcalloc((size_t)D + 1, sizeof(int));
    w->tent = ir_xcalloc((size_t)T + 1, sizeof(int));
    w->sent = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->rent = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->tpos = ir_xcalloc((size_t)T + 1, sizeof(int));
    w->rpos = ir_xcalloc((size_t)M + 1, sizeof(int));
    w->pipe = ir_xcalloc((size_t)M + 1, sizeof(bool));
    w->bestpipe = ir_xcalloc((size_t)M + 1, sizeof(bool));
    w->cnt = ir_xcalloc((size_t)M + 1, sizeof(int64_t));
    w->ord = ir_xcalloc((size_t)M + 1, sizeof(int));
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
    ir_sched_free(w->ws);
    void *ptrs[] = {w->label,    w->lab2g,  w->gidx,   w->gm_off,   w->gm,    w->gkey_s,
                    w->gkey_r,   w->uf,     w->ufnext, w->ufhead,   w->soff,  w->poff,
                    w->sadj,     w->padj,   w->eu,     w->ev2,      w->color, w->stk,
                    w->stkit,    w->stkpos, w->cyc,    w->stamp,    w->q,     w->taken,
                    w->qoff,     w->qn,     w->head,   w->pseq_off, w->pseq,  w->ppos,
                    w->nexts,    w->cpos,   w->need,   w->qdsp,     w->heap,  w->hn,
                    w->tent,     w->sent,   w->rent,   w->tpos,     w->rpos,  w->pipe,
                    w->bestpipe, w->cnt,    w->ord,    w->epool};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        free(ptrs[i]);
    free(w);
}

const Sched *
bfco_worker_sched(const Worker *w)
{
    return w->ws;
}

int64_t
bfco_worker_evals(const Worker *w)
{
    return w->evals;
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

void
bfco_groups_from_bits(Worker *w, const uint8_t *bits)
{
    const Space *sp = w->sp;
    int M = sp->M;
    for (int u = 0; u < M; u++) {
        w->uf[u] = u;
        w->ufhead[u] = u;
        w->ufnext[u] = -1;
    }
    for (int b = 0; b < sp->nbits; b++) {
        if (!bits[b])
            continue;
        int ru = uf_find(w->uf, sp->bu[b]), rv = uf_find(w->uf, sp->bv[b]);
        if (ru == rv)
            continue;
        /* Algorithm 1: a merge that would put two sends joined by a path into one group
         * is released (NOMA). */
        bool conflict = false;
        for (int a = w->ufhead[ru]; a >= 0 && !conflict; a = w->ufnext[a])
            for (int c = w->ufhead[rv]; c >= 0 && !conflict; c = w->ufnext[c])
                conflict = bfco_path(sp, a, c);
        if (conflict)
            continue;
        int lo = ru < rv ? ru : rv, hi = ru < rv ? rv : ru;
        int t = w->ufhead[lo];
        while (w->ufnext[t] >= 0)
            t = w->ufnext[t];
        w->ufnext[t] = w->ufhead[hi];
        w->uf[hi] = lo;
    }
    for (int u = 0; u < M; u++)
        w->label[u] = uf_find(w->uf, u);
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
    memset(w->gm_off, 0, ((size_t)w->G + 1) * sizeof(int));
    for (int u = 0; u < M; u++)
        w->gm_off[w->gidx[u] + 1]++;
    for (int g = 0; g < w->G; g++)
        w->gm_off[g + 1] += w->gm_off[g];
    for (int g = 0; g < w->G; g++) {
        w->gkey_s[g] = -1;
        w->gkey_r[g] = 1 << 30;
        w->ppos[g] = w->gm_off[g]; /* fill cursor */
    }
    for (int u = 0; u < M; u++) {
        int g = w->gidx[u];
        w->gm[w->ppos[g]++] = u;
        if (sp->ssl[u] > w->gkey_s[g])
            w->gkey_s[g] = sp->ssl[u];
        if (sp->rsl[u] < w->gkey_r[g])
            w->gkey_r[g] = sp->rsl[u];
    }
}

void
bfco_bits_from_groups(const Worker *w, uint8_t *bits)
{
    const Space *sp = w->sp;
    for (int b = 0; b < sp->nbits; b++)
        bits[b] = w->gidx[sp->bu[b]] == w->gidx[sp->bv[b]];
}

static void
release(Worker *w, int u)
{
    w->label[u] = w->sp->M + u;
}

/* The member of group g whose send is latest: the one that delays the merged send most.
 */
static int
last_member(const Worker *w, int g)
{
    int best = w->gm[w->gm_off[g]];
    for (int i = w->gm_off[g]; i < w->gm_off[g + 1]; i++)
        if (w->sp->ssl[w->gm[i]] > w->sp->ssl[best])
            best = w->gm[i];
    return best;
}

static int
gsize(const Worker *w, int g)
{
    return w->gm_off[g + 1] - w->gm_off[g];
}

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
        if (b->msgs[w->gm[w->gm_off[k]]].delay == 0) {
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
    /* fill with stkit / stkpos as cursors */
    for (int i = 0; i < n; i++) {
        w->stkit[i] = w->soff[i];
        w->stkpos[i] = w->poff[i];
    }
    for (int i = 0; i < ne; i++) {
        w->sadj[w->stkit[w->eu[i]]++] = w->ev2[i];
        w->padj[w->stkpos[w->ev2[i]]++] = w->eu[i];
    }
}

/* DFS for a cycle of the merged dependence graph; the cycle's nodes in w->cyc. */
static bool
find_cycle(Worker *w)
{
    int n = w->nn;
    memset(w->color, 0, (size_t)n * sizeof(int));
    for (int s = 0; s < n; s++) {
        if (w->color[s])
            continue;
        int sp = 0;
        w->stk[sp] = s;
        w->stkit[sp] = w->soff[s];
        w->stkpos[s] = sp;
        w->color[s] = 1;
        sp = 1;
        while (sp > 0) {
            int x = w->stk[sp - 1];
            if (w->stkit[sp - 1] == w->soff[x + 1]) {
                w->color[x] = 2;
                sp--;
                continue;
            }
            int y = w->sadj[w->stkit[sp - 1]++];
            if (w->color[y] == 1) {
                w->ncyc = 0;
                for (int i = w->stkpos[y]; i < sp; i++)
                    w->cyc[w->ncyc++] = w->stk[i];
                return true;
            }
            if (w->color[y] == 0) {
                w->color[y] = 1;
                w->stk[sp] = y;
                w->stkit[sp] = w->soff[y];
                w->stkpos[y] = sp;
                sp++;
            }
        }
    }
    return false;
}

/* Releases a merge on the cycle: a group entered through one member's producer and left
 * through another member's consumer loses the entering member. */
static void
release_on_cycle(Worker *w)
{
    const Space *sp = w->sp;
    const Graph *g = sp->g;
    int T = sp->T, G = w->G, n = w->ncyc;
    int fallback = -1;
    for (int i = 0; i < n; i++) {
        int x = w->cyc[i];
        if (x < T || x >= T + G || gsize(w, x - T) < 2)
            continue;
        int k = x - T;
        if (fallback < 0)
            fallback = k;
        int p = w->cyc[(i + n - 1) % n], c = w->cyc[(i + 2) % n];
        int a = -1;
        bool both = false;
        for (int j = w->gm_off[k]; j < w->gm_off[k + 1]; j++) {
            const Msg *m = &sp->base->msgs[w->gm[j]];
            bool from = false, to = false;
            for (int q = 0; q < m->nedges; q++) {
                from |= g->edges[m->edges[q]].from == p;
                to |= g->edges[m->edges[q]].to == c;
            }
            if (from && to)
                both = true;
            if (from && a < 0)
                a = w->gm[j];
        }
        if (a >= 0 && !both) {
            release(w, a);
            return;
        }
    }
    if (fallback < 0)
        ice("a cycle without a merged message");
    release(w, last_member(w, fallback));
}

/* The desired sequences: merged send at the last member's slot, merged receive at the
 * first member's, everything else where the base has it; and the per-pair order of the
 * groups (by merged send slot). */
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
    /* per class (pair and delay: messages are matched by id, the order holds per delay)
     */
    int nc = sp->ncls;
    memset(w->pseq_off, 0, ((size_t)nc + 1) * sizeof(int));
    for (int k = 0; k < w->G; k++)
        w->pseq_off[sp->cls[w->gm[w->gm_off[k]]] + 1]++;
    for (int i = 0; i < nc; i++)
        w->pseq_off[i + 1] += w->pseq_off[i];
    memset(w->nexts, 0, (size_t)nc * sizeof(int));
    for (int d = 0; d < D; d++)
        for (int i = w->qoff[d]; i < w->qoff[d + 1]; i++)
            if (w->q[i].kind == OP_SEND) {
                int k = w->q[i].ref;
                int c = sp->cls[w->gm[w->gm_off[k]]];
                w->cpos[k] = w->nexts[c];
                w->pseq[w->pseq_off[c] + w->nexts[c]++] = k;
            }
}

/* Order adjustment: a topological traversal that follows the desired sequences and, when
 * every DSP's next operation is blocked, moves forward the enabled operation closest to
 * the head of its sequence (ties: the lowest DSP).  An operation is enabled when its
 * prerequisites are done: a COMPUTE needs its same-DSP zero-delay producers and the
 * receives of its incoming messages, and (zero copy) the receive of each single-edge
 * delayed message it produces; a SEND needs its producers, the previous group of its
 * class (pair and delay) sent and, aggregated with a delay, its previous transfer (its
 * receive; any delay d >= 1 is received one iteration after its send); a RECV needs its
 * send (zero delay) and the previous group of its class received.  need[] counts what
 * is missing; each DSP keeps a heap of its enabled queue positions.  Returns 0, or -1
 * when nothing is enabled (the group to split is then in *split). */
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
    int k = o.ref, c = sp->cls[w->gm[w->gm_off[k]]], next = w->cpos[k] + 1;
    bool more = next < w->pseq_off[c + 1] - w->pseq_off[c];
    int nk = more ? w->pseq[w->pseq_off[c] + next] : -1;
    const Msg *m0 = &b->msgs[w->gm[w->gm_off[k]]];
    if (o.kind == OP_SEND) {
        if (m0->delay == 0)
            dec(w, w->rent[k]);
        if (more)
            dec(w, w->sent[nk]);
        return;
    }
    for (int j = w->gm_off[k]; j < w->gm_off[k + 1]; j++) {
        const Msg *m = &b->msgs[w->gm[j]];
        for (int q = 0; q < m->nedges; q++) {
            dec(w, w->tent[g->edges[m->edges[q]].to]);
            if (m0->delay >= 1 && gsize(w, k) == 1)
                dec(w, w->tent[g->edges[m->edges[q]].from]);
        }
    }
    if (m0->delay >= 1 && gsize(w, k) > 1)
        dec(w, w->sent[k]);
    if (more)
        dec(w, w->rent[nk]);
}

static int
order(Worker *w, int *split)
{
    const Space *sp = w->sp;
    const Graph *g = sp->g;
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
            for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
                int e = g->pred[j];
                need += b->edge_msg[e] >= 0 || g->edges[e].delay == 0;
            }
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
                int u = b->edge_msg[g->succ[j]];
                need += u >= 0 && b->msgs[u].delay >= 1 && gsize(w, w->gidx[u]) == 1;
            }
        } else {
            int k = o.ref;
            const Msg *m0 = &b->msgs[w->gm[w->gm_off[k]]];
            need += w->cpos[k] > 0;
            if (o.kind == OP_SEND) {
                for (int j = w->gm_off[k]; j < w->gm_off[k + 1]; j++)
                    need += b->msgs[w->gm[j]].nedges;
                need += m0->delay >= 1 && gsize(w, k) > 1;
            } else {
                need += m0->delay == 0;
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
        const Msg *m0 = &b->msgs[w->gm[w->gm_off[k]]];
        m->src = m0->src;
        m->dst = m0->dst;
        m->delay = m0->delay;
        m->pipelined = false;
        m->bytes = 0;
        m->nedges = 0;
        m->edges = w->epool + n;
        for (int j = w->gm_off[k]; j < w->gm_off[k + 1]; j++) {
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

/* Releases a merge on the deadlock cycle the evaluator reports. */
static int
release_on_deadlock(Worker *w)
{
    Arena *a = arena_new();
    EvalResult r;
    memset(&r, 0, sizeof r);
    EvalOpts o = {0, 0};
    w->evals++;
    int rc = eval_run(w->ws, &o, &r, a);
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

int64_t
bfco_repair(Worker *w, bool rel, int *released)
{
    int nrel = 0;
    for (;;) {
        regroup(w);
        merged_graph(w);
        if (find_cycle(w)) {
            if (!rel)
                return -1;
            release_on_cycle(w);
            nrel++;
            continue;
        }
        desired(w);
        int split;
        if (order(w, &split) < 0) {
            if (!rel || split < 0)
                return -1;
            release(w, last_member(w, split));
            nrel++;
            continue;
        }
        build_msgs(w);
        int64_t L = eval(w);
        if (L < 0) {
            if (!rel || release_on_deadlock(w) < 0)
                return -1;
            nrel++;
            continue;
        }
        if (released)
            *released = nrel;
        return L;
    }
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
 * single iteration every pipeline is dropped (no next iteration to overlap with). */
bool
bfco_prune_tis_teir(Worker *w, bool *pipe, double eps)
{
    const Sched *ws = w->ws;
    int64_t N = w->sp->g->iterations;
    bool changed = false;
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
    if (eval_run(ws, &o, &r, a) < 0 || r.nrec < 2) {
        arena_free(a);
        return false;
    }
    int r0 = r.nrec >= 3 ? r.nrec - 3 : 0, r1 = r0 + 1;
    for (int k = 0; k < w->G; k++) {
        if (!pipe[k])
            continue;
        const MsgTime *t0 = &r.msg_time[(size_t)r0 * ws->nmsgs + k];
        const MsgTime *t1 = &r.msg_time[(size_t)r1 * ws->nmsgs + k];
        if (t0->issue < 0 || t1->issue < 0)
            continue;
        int64_t tis = t1->issue - t0->issue;
        int d = ws->msgs[k].dst;
        int64_t teir = 0;
        for (int i = 0; i < ws->nops[d]; i++) {
            const OpTime *ot = &r.op_time[d][(size_t)r1 * ws->nops[d] + i];
            teir += ot->end - ot->start;
        }
        if ((double)tis >= (double)teir * (1.0 - eps)) {
            pipe[k] = false;
            changed = true;
        }
    }
    arena_free(a);
    return changed;
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

int64_t
bfco_pipelines(Worker *w, double eps, int64_t L0)
{
    int G = w->G;
    bool *pipe = w->pipe, *best = w->bestpipe;
    int64_t bestL = better(L0);
    memset(best, 0, (size_t)G * sizeof(bool));
    bfco_greedy_pipes(w, pipe);
    int np = 0;
    for (int k = 0; k < G; k++)
        np += pipe[k];
    if (np > 0) {
        int64_t L = better(bfco_eval_pipes(w, pipe));
        if (L < bestL) {
            bestL = L;
            memcpy(best, pipe, (size_t)G * sizeof(bool));
        }
        if (bfco_prune_tis_teir(w, pipe, eps)) {
            L = better(bfco_eval_pipes(w, pipe));
            if (L < bestL) {
                bestL = L;
                memcpy(best, pipe, (size_t)G * sizeof(bool));
            }
        }
        np = 0;
        for (int k = 0; k < G; k++)
            np += pipe[k];
        if (L > L0 && np > 0) {
            /* Algorithm 2: drop the pipelines with the longest prologs first until the
             * schedule is no longer than without pipelines. */
            reach_counts(w, pipe);
            int n = 0;
            for (int k = 0; k < G; k++)
                if (pipe[k])
                    w->ord[n++] = k;
            for (int i = 1; i < n; i++) { /* stable insertion sort, most reach first */
                int x = w->ord[i], j = i;
                while (j > 0 && w->cnt[w->ord[j - 1]] < w->cnt[x]) {
                    w->ord[j] = w->ord[j - 1];
                    j--;
                }
                w->ord[j] = x;
            }
            for (int i = 0; i < n - 1 && L > L0; i++) {
                pipe[w->ord[i]] = false;
                L = better(bfco_eval_pipes(w, pipe));
                if (L < bestL) {
                    bestL = L;
                    memcpy(best, pipe, (size_t)G * sizeof(bool));
                }
            }
        }
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
    bp->stall = 20;
    bp->w_start = 0.9;
    bp->w_end = 0.4;
    bp->c1 = 2.0;
    bp->c2 = 2.0;
    bp->vmax = 4.0;
    bp->mutation = 1.0;
    bp->epsilon = 0.05;
    bp->es_limit = INT64_C(1) << 20;
    bp->polish = true; /* the seed's BFCO is polish = false (docs/bfco.md) */
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
        pj[k] = x[sp->nbits + w->gm[w->gm_off[k]]] && bfco_pipeable(w, k);
    if (!bfco_mem_ok(w, pj) || memcmp(pj, ps, (size_t)w->G * sizeof(bool)) == 0)
        return Ls; /* the flags of the schedule are still those of ps */
    int64_t Lj = better(bfco_eval_pipes(w, pj));
    if (Lj < Ls)
        return Lj;
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = ps[k];
    return Ls;
}

/* Fitness of a particle: repair (written back), pipelines; the length. */
static int64_t
fitness(Worker *w, uint8_t *x, double eps, bool joint)
{
    bfco_groups_from_bits(w, x);
    int64_t L0 = bfco_repair(w, true, NULL);
    if (L0 < 0)
        return INT64_MAX;
    bfco_bits_from_groups(w, x);
    int64_t L = bfco_pipelines(w, eps, L0);
    if (joint) {
        L = joint_pipes(w, x, L);
        const Space *sp = w->sp;
        for (int u = 0; u < sp->M; u++) /* Lamarckian: the bits say what was used */
            x[sp->nbits + u] = w->ws->msgs[w->gidx[u]].pipelined;
    }
    return L;
}

/* --polish: first-improvement toggling of single pipelines on the built schedule. */
static int64_t
polish(Worker *w, int64_t L)
{
    bool *p = w->pipe;
    for (int k = 0; k < w->G; k++)
        p[k] = w->ws->msgs[k].pipelined;
    for (int pass = 0; pass < 3; pass++) {
        bool improved = false;
        for (int k = 0; k < w->G; k++) {
            if (!p[k] && !bfco_pipeable(w, k))
                continue;
            p[k] = !p[k];
            int64_t Lk = bfco_mem_ok(w, p) ? better(bfco_eval_pipes(w, p)) : INT64_MAX;
            if (Lk < L) {
                L = Lk;
                improved = true;
            } else {
                p[k] = !p[k];
            }
        }
        if (!improved)
            break;
    }
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = p[k];
    return L;
}

typedef struct Job {
    Worker *w;
    uint8_t **x;
    int64_t *f;
    const int *todo;
    int ntodo, tid, nthreads;
    double eps;
    bool joint;
} Job;

static void *
job_run(void *arg)
{
    Job *j = arg;
    for (int i = j->tid; i < j->ntodo; i += j->nthreads) {
        int k = j->todo[i];
        j->f[k] = fitness(j->w, j->x[k], j->eps, j->joint);
    }
    return NULL;
}

/* A cache of raw positions already evaluated: the fitness is a function of the position,
 * so a hit changes nothing but the time. */
typedef struct Cache {
    int nbits, cap, n;
    uint64_t *hash;
    uint8_t **raw, **fixed;
    int64_t *f;
} Cache;

static uint64_t
hash_bits(const uint8_t *x, int n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (int i = 0; i < n; i++)
        h = (h ^ x[i]) * UINT64_C(1099511628211);
    return h;
}

static int
cache_find(const Cache *c, const uint8_t *x, uint64_t h)
{
    if (!c->cap)
        return -1;
    for (int i = (int)(h % (uint64_t)c->cap);; i = (i + 1) % c->cap) {
        if (!c->raw[i])
            return -1;
        if (c->hash[i] == h && memcmp(c->raw[i], x, (size_t)c->nbits) == 0)
            return i;
    }
}

static void
cache_put(Cache *c, const uint8_t *raw, const uint8_t *fixed, int64_t f)
{
    if (2 * (c->n + 1) > c->cap) {
        Cache o = *c;
        c->cap = o.cap ? 2 * o.cap : 1024;
        c->n = 0;
        c->hash = ir_xcalloc((size_t)c->cap, sizeof *c->hash);
        c->raw = ir_xcalloc((size_t)c->cap, sizeof *c->raw);
        c->fixed = ir_xcalloc((size_t)c->cap, sizeof *c->fixed);
        c->f = ir_xcalloc((size_t)c->cap, sizeof *c->f);
        for (int i = 0; i < o.cap; i++)
            if (o.raw[i]) {
                int j = (int)(o.hash[i] % (uint64_t)c->cap);
                while (c->raw[j])
                    j = (j + 1) % c->cap;
                c->hash[j] = o.hash[i];
                c->raw[j] = o.raw[i];
                c->fixed[j] = o.fixed[i];
                c->f[j] = o.f[i];
                c->n++;
            }
        free(o.hash);
        free(o.raw);
        free(o.fixed);
        free(o.f);
    }
    uint64_t h = hash_bits(raw, c->nbits);
    if (cache_find(c, raw, h) >= 0)
        return;
    int j = (int)(h % (uint64_t)c->cap);
    while (c->raw[j])
        j = (j + 1) % c->cap;
    c->hash[j] = h;
    c->raw[j] = ir_xcalloc((size_t)c->nbits + 1, 1);
    memcpy(c->raw[j], raw, (size_t)c->nbits);
    c->fixed[j] = ir_xcalloc((size_t)c->nbits + 1, 1);
    memcpy(c->fixed[j], fixed, (size_t)c->nbits);
    c->f[j] = f;
    c->n++;
}

static void
cache_free(Cache *c)
{
    for (int i = 0; i < c->cap; i++) {
        free(c->raw[i]);
        free(c->fixed[i]);
    }
    free(c->hash);
    free(c->raw);
    free(c->fixed);
    free(c->f);
}

static void
evaluate_swarm(Worker **ws, int nthreads, uint8_t **x, int64_t *f, int P, Cache *c,
               double eps, bool joint, int *todo, uint8_t **raw)
{
    int n = 0;
    for (int k = 0; k < P; k++) {
        uint64_t h = hash_bits(x[k], c->nbits);
        int i = cache_find(c, x[k], h);
        if (i >= 0) {
            memcpy(x[k], c->fixed[i], (size_t)c->nbits);
            f[k] = c->f[i];
        } else {
            memcpy(raw[k], x[k], (size_t)c->nbits);
            todo[n++] = k;
        }
    }
    int T = nthreads < n ? nthreads : n;
    if (T < 1)
        T = 1;
    Job jobs[64];
    pthread_t th[64];
    for (int t = 0; t < T; t++)
        jobs[t] = (Job){ws[t], x, f, todo, n, t, T, eps, joint};
    for (int t = 1; t < T; t++)
        if (pthread_create(&th[t], NULL, job_run, &jobs[t]) != 0)
            ice("cannot create a thread");
    job_run(&jobs[0]);
    for (int t = 1; t < T; t++)
        pthread_join(th[t], NULL);
    for (int i = 0; i < n; i++)
        cache_put(c, raw[todo[i]], x[todo[i]], f[todo[i]]);
}

int
bfco_search(const Space *sp, const BfcoParams *bp, Sched **out, OptStats *st)
{
    int B = sp->nbits + (bp->joint ? sp->M : 0);
    int P = bp->particles > 0 ? bp->particles : (B < 8 ? 8 : B > 32 ? 32 : B);
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
    for (int t = 0; t < nthreads; t++)
        ws[t] = bfco_worker_new(sp);
    size_t nb = (size_t)B + 1;
    uint8_t **x = ir_xcalloc((size_t)P, sizeof *x),
            **pb = ir_xcalloc((size_t)P, sizeof *pb);
    uint8_t **raw = ir_xcalloc((size_t)P, sizeof *raw);
    float **v = ir_xcalloc((size_t)P, sizeof *v);
    int64_t *f = ir_xcalloc((size_t)P, sizeof *f),
            *pbf = ir_xcalloc((size_t)P, sizeof *pbf);
    uint64_t *rng = ir_xcalloc((size_t)P, sizeof *rng);
    int *todo = ir_xcalloc((size_t)P, sizeof *todo);
    uint8_t *gb = ir_xcalloc(nb, 1);
    int64_t gbf = INT64_MAX;
    double vmax = bp->vmax > 0 ? bp->vmax : 4.0;
    double pm = B > 0 ? bp->mutation / B : 0;
    for (int k = 0; k < P; k++) {
        x[k] = ir_xcalloc(nb, 1);
        pb[k] = ir_xcalloc(nb, 1);
        raw[k] = ir_xcalloc(nb, 1);
        v[k] = ir_xcalloc(nb, sizeof(float));
        uint64_t s = bp->seed ^ (UINT64_C(0xD1B54A32D192ED03) * (uint64_t)(k + 1));
        rng[k] = splitmix(&s);
        /* Particle 0: no merge (none, cp); particle 1: every merge (ma); the others at
         * densities spread from sparse to dense, velocities matching their density. */
        double dens = k == 0 ? 0.0 : k == 1 ? 1.0 : pow((double)(k - 1) / (P - 1), 2.0);
        double v0 = dens <= 0 ? -vmax : dens >= 1 ? vmax : log(dens / (1 - dens));
        if (v0 > vmax)
            v0 = vmax;
        if (v0 < -vmax)
            v0 = -vmax;
        for (int b = 0; b < sp->nbits; b++) {
            x[k][b] = k == 1 || (k > 1 && urand(&rng[k]) < dens);
            v[k][b] = (float)v0;
        }
        for (int b = sp->nbits; b < B; b++) /* joint pipeline bits: even odds */
            x[k][b] = urand(&rng[k]) < 0.5;
    }
    Cache cache = {.nbits = B};
    int gen = 0, stall = 0;
    for (gen = 0; gen < Gn; gen++) {
        if (gen > 0) {
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
        evaluate_swarm(ws, nthreads, x, f, P, &cache, bp->epsilon, bp->joint, todo, raw);
        bool improved = false;
        for (int k = 0; k < P; k++) {
            if (gen == 0 || f[k] < pbf[k]) {
                pbf[k] = f[k];
                memcpy(pb[k], x[k], (size_t)B);
            }
            if (pbf[k] < gbf) {
                gbf = pbf[k];
                memcpy(gb, pb[k], (size_t)B);
                improved = true;
            }
        }
        stall = improved ? 0 : stall + 1;
        if (bp->progress) {
            int64_t ev = 0;
            for (int t = 0; t < nthreads; t++)
                ev += ws[t]->evals;
            bp->progress(bp->progress_ctx, gen + 1, Gn, gbf, ev);
        }
        if (bp->stall > 0 && stall >= bp->stall) {
            gen++;
            break;
        }
    }
    /* Rebuild the best schedule (the fitness is deterministic). */
    int64_t L = fitness(ws[0], gb, bp->epsilon, bp->joint);
    if (bp->polish && L != INT64_MAX)
        L = polish(ws[0], L);
    int rc = 0;
    if (L == INT64_MAX) {
        rc = -1;
        *out = NULL;
    } else {
        *out = ir_sched_copy(ws[0]->ws);
    }
    st->length = L == INT64_MAX ? -1 : L;
    st->nbits = B;
    st->particles = P;
    st->generations = gen;
    st->evaluations = 0;
    for (int t = 0; t < nthreads; t++) {
        st->evaluations += ws[t]->evals;
        bfco_worker_free(ws[t]);
    }
    for (int k = 0; k < P; k++) {
        free(x[k]);
        free(pb[k]);
        free(raw[k]);
        free(v[k]);
    }
    free(x);
    free(pb);
    free(raw);
    free(v);
    free(f);
    free(pbf);
    free(rng);
    free(todo);
    free(gb);
    cache_free(&cache);
    return rc;
}
