/*
 * passes/bfco/space.c - the search space of BFCO (docs/bfco.md, section 1): the units
 * (the base schedule's messages), their classes (same source DSP, destination DSP and
 * delay), the reachability between their sends (PATH entries) and the decision bits of
 * the window (bfco_space_new).
 */
#include <stdlib.h>
#include <string.h>

#include "private.h"

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

static bool
same_class(const Msg *a, const Msg *b)
{
    return a->src == b->src && a->dst == b->dst && a->delay == b->delay;
}

/* Classes numbered by their first unit, through an open-addressing table of the first
 * unit of each class. */
static void
classes(Space *sp)
{
    const Msg *msgs = sp->base->msgs;
    int M = sp->M, cap = 2 * M + 2;
    int *first = ir_xcalloc((size_t)cap, sizeof *first); /* first unit + 1, 0 = empty */
    int *cid = ir_xcalloc((size_t)cap, sizeof *cid);
    sp->cls = ir_xcalloc((size_t)M + 1, sizeof *sp->cls);
    for (int u = 0; u < M; u++) {
        const Msg *m = &msgs[u];
        uint64_t h = ((uint64_t)(unsigned)m->src * UINT64_C(1000003) +
                      (uint64_t)(unsigned)m->dst) *
                         UINT64_C(0x9E3779B97F4A7C15) +
                     (uint64_t)(unsigned)m->delay;
        int i = (int)((h >> 17) % (uint64_t)cap);
        while (first[i] && !same_class(&msgs[first[i] - 1], m))
            i = (i + 1) % cap;
        if (!first[i]) {
            first[i] = u + 1;
            cid[i] = sp->ncls++;
        }
        sp->cls[u] = cid[i];
    }
    free(first);
    free(cid);
}

/* What the repair counts for each task again and again, counted once. */
static void
repair_counts(Space *sp)
{
    const Graph *g = sp->g;
    const Sched *b = sp->base;
    int T = sp->T;
    sp->tzero = ir_xcalloc((size_t)T + 1, sizeof *sp->tzero);
    sp->tin = ir_xcalloc((size_t)T + 1, sizeof *sp->tin);
    sp->tdl_off = ir_xcalloc((size_t)T + 1, sizeof *sp->tdl_off);
    sp->tdl_u = ir_xcalloc((size_t)g->nedges + 1, sizeof *sp->tdl_u);
    int n = 0;
    for (int t = 0; t < T; t++) {
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            int e = g->pred[j];
            sp->tzero[t] += g->edges[e].delay == 0;
            sp->tin[t] += b->edge_msg[e] >= 0 || g->edges[e].delay == 0;
        }
        sp->tdl_off[t] = n;
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
            int u = b->edge_msg[g->succ[j]];
            if (u >= 0 && b->msgs[u].delay >= 1)
                sp->tdl_u[n++] = u;
        }
    }
    sp->tdl_off[T] = n;
}

static _Thread_local const int *sort_ssl; /* qsort has no context argument */

static int
by_send_slot(const void *a, const void *b)
{
    int u = *(const int *)a, v = *(const int *)b;
    int x = sort_ssl[u], y = sort_ssl[v];
    return x != y ? (x < y ? -1 : 1) : (u > v) - (u < v);
}

Space *
bfco_space_new(const Sched *base, int window)
{
    Space *sp = ir_xcalloc(1, sizeof *sp);
    sp->base = base;
    sp->g = base->g;
    sp->p = base->p;
    sp->pfree = *base->p;
    sp->pfree.no_contention = true;
    sp->has_free = base->p->model == MODEL_BWDSP && !base->p->no_contention;
    sp->M = base->nmsgs;
    sp->D = base->ndsps;
    sp->T = base->g->ntasks;
    sp->window = window > 0 ? window : 0;
    int M = sp->M, D = sp->D;
    sp->words = (M + 63) / 64 > 0 ? (M + 63) / 64 : 1;
    sp->ssl = ir_xcalloc((size_t)M + 1, sizeof *sp->ssl);
    sp->rsl = ir_xcalloc((size_t)M + 1, sizeof *sp->rsl);
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
    classes(sp);
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
    sort_ssl = sp->ssl;
    for (int c = 0; c < sp->ncls; c++) /* one source DSP per class: slots compare */
        qsort(sp->cls_units + sp->cls_off[c],
              (size_t)(sp->cls_off[c + 1] - sp->cls_off[c]), sizeof *sp->cls_units,
              by_send_slot);
    sort_ssl = NULL;
    reach(sp);
    repair_counts(sp);
    /* Bits: class by class, row-major over the send ranks, pairs within the window. */
    int64_t nb = 0;
    for (int c = 0; c < sp->ncls; c++) {
        int64_t n = sp->cls_off[c + 1] - sp->cls_off[c];
        int64_t wnd = sp->window > 0 && sp->window < n ? sp->window : n;
        nb += n * wnd - wnd * (wnd + 1) / 2;
    }
    sp->bu = ir_xcalloc((size_t)nb + 1, sizeof *sp->bu);
    sp->bv = ir_xcalloc((size_t)nb + 1, sizeof *sp->bv);
    for (int c = 0; c < sp->ncls; c++) {
        const int *cu = sp->cls_units + sp->cls_off[c];
        int n = sp->cls_off[c + 1] - sp->cls_off[c];
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n && (sp->window == 0 || j - i <= sp->window); j++)
                if (!bfco_path(sp, cu[i], cu[j])) {
                    sp->bu[sp->nbits] = cu[i];
                    sp->bv[sp->nbits++] = cu[j];
                }
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
    free(sp->tzero);
    free(sp->tin);
    free(sp->tdl_off);
    free(sp->tdl_u);
    free(sp);
}
