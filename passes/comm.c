/*
 * passes/comm.c - message insertion: one single-edge message per edge across DSPs.
 *
 * Requires: a mapping and a COMPUTE order on every DSP (SEND/RECV operations and messages
 * already there are dropped).  Invalidates: evaluator times.
 *
 * Placement, in terms of a global order pi of the tasks (a topological order of the
 * zero-delay edges and of every DSP's COMPUTE order, which a list schedule always has):
 *  - SEND right after the producer; the sends after one producer go zero-delay edges
 * first, by pi of the consumer (the one that needs its data first), then delay edges,
 * ties by edge index.  Message ids follow edge indices.
 *  - zero-delay RECV right before its consumer;
 *  - RECV of a delay edge (any d >= 1: every delayed transfer is received one iteration
 *    after its send, into a ring of d buffers) right before its consumer, but never after
 *    a task that follows the producer in pi: in iteration i + 1 the producer (zero copy)
 *    waits until the receive of (m, i) is posted, so that post must not depend on
 *    anything after the producer;
 *  - per DSP pair and delay the rendezvous receives must come in send order: walking
 *    the receives from one source in reverse send order, each one moves up to just
 *    before the next (never later than its consumer).  Eager receives (bytes <=
 *    eager_limit: every message of the abstract model) stay right before their consumer
 *    and are out of that order: their data leaves at the send whatever the receiver
 *    does and is matched by tag, so a DSP never waits for a message its next task does
 *    not need (the classic model of the scheduling literature).  Within one slot delayed
 *    receives come before zero-delay ones.
 *
 * With a COMPUTE order that a list schedule gives, every dependence of the execution
 * model then goes forward in the order (iteration, pi), whatever the delays, so the
 * schedule cannot deadlock; the one exception is a pair of DSPs that carries a
 * delayed edge and a zero-delay edge whose send order forces the zero-delay receive above
 * its send.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

typedef struct Ctx {
    const Graph *g;
    const Sched *s;
    int *pi;   /* [ntasks] place of the task in the global order */
    int *key;  /* [nmsgs] receive slot: 2 * (index of the COMPUTE it precedes) + class */
    int *rank; /* [nmsgs] place among the sends of its source DSP */
} Ctx;

static _Thread_local const Ctx *sort_ctx; /* qsort has no context argument */

/* Sends after one producer: zero-delay first, by pi of the consumer, then edge index. */
static int
cmp_send(const void *a, const void *b)
{
    const Ctx *c = sort_ctx;
    int ea = c->s->msgs[*(const int *)a].edges[0],
        eb = c->s->msgs[*(const int *)b].edges[0];
    const Edge *x = &c->g->edges[ea], *y = &c->g->edges[eb];
    if ((x->delay > 0) != (y->delay > 0))
        return x->delay > 0 ? 1 : -1;
    if (c->pi[x->to] != c->pi[y->to])
        return c->pi[x->to] < c->pi[y->to] ? -1 : 1;
    return ea < eb ? -1 : ea > eb;
}

/* Receives of one DSP: by source, delay and send rank (for the order fix) */
static int
cmp_src_rank(const void *a, const void *b)
{
    const Ctx *c = sort_ctx;
    const Msg *x = &c->s->msgs[*(const int *)a], *y = &c->s->msgs[*(const int *)b];
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->delay != y->delay)
        return x->delay < y->delay ? -1 : 1;
    int ra = c->rank[*(const int *)a], rb = c->rank[*(const int *)b];
    return ra < rb ? -1 : ra > rb;
}

/* ... and by slot, then source and rank (the final order). */
static int
cmp_slot(const void *a, const void *b)
{
    const Ctx *c = sort_ctx;
    int ma = *(const int *)a, mb = *(const int *)b;
    if (c->key[ma] != c->key[mb])
        return c->key[ma] < c->key[mb] ? -1 : 1;
    return cmp_src_rank(a, b);
}

/* Ready tasks by position in the DSP orders, then by index. */
static bool
by_pos(const void *ctx, int u, int v)
{
    const int *pos = ctx;
    return pos[u] != pos[v] ? pos[u] < pos[v] : u < v;
}

/* A global order of the tasks: Kahn over zero-delay edges and each DSP's COMPUTE order,
 * ready tasks by position on their DSP, then index.  Returns false when those constraints
 * have a cycle (the remaining tasks are then appended by index). */
static bool
global_order(const Graph *g, const int *prev, const int *pos, int *pi)
{
    int n = g->ntasks;
    int *indeg = ir_xcalloc((size_t)n, sizeof *indeg);
    int *hv = ir_xcalloc((size_t)n, sizeof *hv);
    int done = 0;
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].delay == 0)
            indeg[g->edges[e].to]++;
    for (int t = 0; t < n; t++)
        if (prev[t] >= 0)
            indeg[t]++;
    /* next[] of the DSP order: the task whose prev is t */
    int *next = ir_xcalloc((size_t)n, sizeof *next);
    for (int t = 0; t < n; t++)
        next[t] = -1;
    for (int t = 0; t < n; t++)
        if (prev[t] >= 0)
            next[prev[t]] = t;
    IntHeap heap = {.v = hv, .before = by_pos, .ctx = pos};
    for (int t = 0; t < n; t++)
        pi[t] = -1;
    for (int t = 0; t < n; t++)
        if (indeg[t] == 0)
            ir_heap_push(&heap, t);
    while (heap.n > 0) {
        int t = ir_heap_pop(&heap);
        pi[t] = done++;
        for (int k = g->succ_off[t]; k < g->succ_off[t + 1]; k++) {
            const Edge *e = &g->edges[g->succ[k]];
            if (e->delay == 0 && --indeg[e->to] == 0)
                ir_heap_push(&heap, e->to);
        }
        if (next[t] >= 0 && --indeg[next[t]] == 0)
            ir_heap_push(&heap, next[t]);
    }
    bool ok = done == n;
    for (int t = 0; t < n; t++)
        if (pi[t] < 0)
            pi[t] = done++;
    free(indeg);
    free(hv);
    free(next);
    return ok;
}

void
comm_insert(Sched *s)
{
    const Graph *g = s->g;
    int nd = s->ndsps, n = g->ntasks;
    if (!g->succ_off)
        ice("comm_insert needs ir_graph_index");

    /* The COMPUTE sequences, with SEND/RECV dropped. */
    int *coff = ir_xcalloc((size_t)nd + 1, sizeof *coff);
    int *comp = ir_xcalloc((size_t)n, sizeof *comp);
    int *pos = ir_xcalloc((size_t)n, sizeof *pos),
        *prev = ir_xcalloc((size_t)n, sizeof *prev);
    for (int t = 0; t < n; t++)
        pos[t] = prev[t] = -1;
    int nc = 0;
    for (int d = 0; d < nd; d++) {
        coff[d] = nc;
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            if (o.kind != OP_COMPUTE)
                continue;
            if (nc == n)
                ice("task computed twice");
            pos[o.ref] = nc - coff[d];
            prev[o.ref] = nc > coff[d] ? comp[nc - 1] : -1;
            comp[nc++] = o.ref;
        }
    }
    coff[nd] = nc;
    int *pi = ir_xcalloc((size_t)n, sizeof *pi);
    bool acyclic = global_order(g, prev, pos, pi);

    /* One message per edge across DSPs; storage of the old messages is reused. */
    int old = s->nmsgs;
    s->nmsgs = 0;
    for (int e = 0; e < g->nedges; e++)
        s->edge_msg[e] = -1;
    for (int e = 0; e < g->nedges; e++) {
        const Edge *ed = &g->edges[e];
        int a = s->map[ed->from], b = s->map[ed->to];
        if (a == b)
            continue;
        if (s->nmsgs < old) {
            Msg *m = &s->msgs[s->nmsgs];
            m->src = a;
            m->dst = b;
            m->edges[0] = e;
            m->nedges = 1;
            m->bytes = ed->bytes;
            m->delay = ed->delay;
            m->pipelined = false;
            s->edge_msg[e] = s->nmsgs++;
        } else {
            ir_sched_add_msg(s, a, b, &e, 1);
        }
    }
    int nm = s->nmsgs;
    Ctx c = {g, s, pi, ir_xcalloc((size_t)nm, sizeof(int)),
             ir_xcalloc((size_t)nm, sizeof(int))};
    sort_ctx = &c;

    /* Sends per producer, in their order; ranks per source DSP follow the COMPUTE order.
     */
    int *soff = ir_xcalloc((size_t)n + 1, sizeof *soff),
        *sends = ir_xcalloc((size_t)nm, sizeof *sends);
    for (int m = 0; m < nm; m++)
        soff[g->edges[s->msgs[m].edges[0]].from + 1]++;
    for (int t = 0; t < n; t++)
        soff[t + 1] += soff[t];
    int *fill = ir_xcalloc((size_t)(n > nd ? n : nd) + 1, sizeof *fill);
    memcpy(fill, soff, ((size_t)n + 1) * sizeof *fill);
    for (int m = 0; m < nm; m++)
        sends[fill[g->edges[s->msgs[m].edges[0]].from]++] = m;
    for (int t = 0; t < n; t++)
        qsort(sends + soff[t], (size_t)(soff[t + 1] - soff[t]), sizeof *sends, cmp_send);
    for (int d = 0; d < nd; d++) {
        int r = 0;
        for (int j = coff[d]; j < coff[d + 1]; j++)
            for (int k = soff[comp[j]]; k < soff[comp[j] + 1]; k++)
                c.rank[sends[k]] = r++;
    }

    /* Receive slots. */
    for (int m = 0; m < nm; m++) {
        const Msg *ms = &s->msgs[m];
        const Edge *ed = &g->edges[ms->edges[0]];
        int q = pos[ed->to], cls = 1;
        if (ed->delay >= 1) {
            cls = 0;
            if (acyclic) {
                /* COMPUTE ops of the destination before the producer in pi */
                int lo = coff[ms->dst], hi = coff[ms->dst + 1];
                while (lo < hi) {
                    int mid = lo + (hi - lo) / 2;
                    if (pi[comp[mid]] < pi[ed->from])
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo - coff[ms->dst] < q)
                    q = lo - coff[ms->dst];
            }
        }
        c.key[m] = 2 * q + cls;
    }
    int *roff = ir_xcalloc((size_t)nd + 1, sizeof *roff),
        *recvs = ir_xcalloc((size_t)nm, sizeof *recvs);
    for (int m = 0; m < nm; m++)
        roff[s->msgs[m].dst + 1]++;
    for (int d = 0; d < nd; d++)
        roff[d + 1] += roff[d];
    memcpy(fill, roff, ((size_t)nd + 1) * sizeof *fill);
    for (int m = 0; m < nm; m++)
        recvs[fill[s->msgs[m].dst]++] = m;
    for (int d = 0; d < nd; d++) {
        int *rv = recvs + roff[d], cnt = roff[d + 1] - roff[d];
        qsort(rv, (size_t)cnt, sizeof *rv, cmp_src_rank);
        /* Rendezvous receives in send order: walking each (source, delay) group in
         * reverse send order, a receive moves up to the slot of the next one, never
         * down.  Eager receives stay before their consumer and do not count (below). */
        int lim = INT32_MAX;
        for (int j = cnt - 1; j >= 0; j--) {
            const Msg *mj = &s->msgs[rv[j]];
            if (j == cnt - 1 || mj->src != s->msgs[rv[j + 1]].src ||
                mj->delay != s->msgs[rv[j + 1]].delay)
                lim = INT32_MAX;
            if (mj->bytes <= s->p->eager_limit)
                continue;
            if (c.key[rv[j]] > lim)
                c.key[rv[j]] = lim;
            lim = c.key[rv[j]];
        }
        qsort(rv, (size_t)cnt, sizeof *rv, cmp_slot);
    }

    /* Write the sequences: receives of slot q, COMPUTE q, its sends. */
    for (int d = 0; d < nd; d++) {
        s->nops[d] = 0;
        int r = roff[d];
        for (int j = coff[d]; j < coff[d + 1]; j++) {
            int q = j - coff[d];
            while (r < roff[d + 1] && c.key[recvs[r]] / 2 <= q)
                ir_sched_push_op(s, d, OP_RECV, recvs[r++]);
            ir_sched_push_op(s, d, OP_COMPUTE, comp[j]);
            for (int k = soff[comp[j]]; k < soff[comp[j] + 1]; k++)
                ir_sched_push_op(s, d, OP_SEND, sends[k]);
        }
        while (r <
               roff[d + 1]) /* only when a consumer is not computed (an invalid input) */
            ir_sched_push_op(s, d, OP_RECV, recvs[r++]);
    }
    sort_ctx = NULL;
    free(coff);
    free(comp);
    free(pos);
    free(prev);
    free(pi);
    free(c.key);
    free(c.rank);
    free(soff);
    free(sends);
    free(fill);
    free(roff);
    free(recvs);
}
