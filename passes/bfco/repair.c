/*
 * passes/bfco/repair.c - the repair of a merge, in the paper's order (docs/bfco.md,
 * section 2), each step in one linear pass: path conflicts inside a group (Algorithm 1,
 * applied while uniting: worker.c), cycles in the merged dependence graph (untangle: a
 * Kahn traversal that splits the group it is stuck on), the order adjustment (desired,
 * order: a traversal of the desired sequences), then the evaluator as dynamic check
 * (bfco_release_on_deadlock).  Builds the schedule of the repaired groups (build_msgs).
 */
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* Unit u leaves its group (labels made canonical first, so M + u is free). */
static void
release(Worker *w, int u)
{
    for (int v = 0; v < w->sp->M; v++)
        w->label[v] = gfirst(w, w->gidx[v]);
    w->label[u] = w->sp->M + u;
    bfco_regroup(w);
}

/* The member of group g whose send is latest: the one that delays the merged send most.
 */
static int
last_member(const Worker *w, int k)
{
    int best = gfirst(w, k);
    for (int i = w->gbeg[k]; i < w->gbeg[k] + w->gcnt[k]; i++)
        if (w->sp->ssl[w->gm[i]] > w->sp->ssl[best])
            best = w->gm[i];
    return best;
}

/* The merged dependence graph as adjacency lists both ways (Algorithm 2 walks the
 * predecessors). */
void
bfco_merged_graph(Worker *w)
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
        if (b->msgs[gfirst(w, k)].delay == 0) {
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
    memcpy(w->fill1, w->soff, (size_t)n * sizeof(int));
    memcpy(w->fill2, w->poff, (size_t)n * sizeof(int));
    for (int i = 0; i < ne; i++) {
        w->sadj[w->fill1[w->eu[i]]++] = w->ev2[i];
        w->padj[w->fill2[w->ev2[i]]++] = w->eu[i];
    }
}

/* The SEND and RECV of zero-delay group k are done: its consumers get their input. */
static int
deliver(Worker *w, int k, int ns)
{
    const Graph *g = w->sp->g;
    const Sched *b = w->sp->base;
    for (int i = w->gbeg[k]; i < w->gbeg[k] + w->gcnt[k]; i++) {
        const Msg *m = &b->msgs[w->gm[i]];
        for (int q = 0; q < m->nedges; q++) {
            int t = g->edges[m->edges[q]].to;
            if (--w->tneed[t] == 0)
                w->kstk[ns++] = t;
        }
    }
    return ns;
}

/* Group k loses its ready members (no producer left to wait for), stably, to a new
 * group, which is returned. */
static int
split_ready(Worker *w, int k)
{
    int b = w->gbeg[k], n = w->gcnt[k], nr = 0;
    for (int i = b; i < b + n; i++)
        if (w->uneed[w->gm[i]] == 0)
            w->scratch[nr++] = w->gm[i];
    for (int i = b, j = nr; i < b + n; i++)
        if (w->uneed[w->gm[i]] != 0)
            w->scratch[j++] = w->gm[i];
    memcpy(w->gm + b, w->scratch, (size_t)n * sizeof(int));
    int h = w->G++;
    w->gbeg[h] = b;
    w->gcnt[h] = nr;
    w->gbeg[k] = b + nr;
    w->gcnt[k] = n - nr;
    for (int i = b; i < b + nr; i++)
        w->gidx[w->gm[i]] = h;
    w->sneed[h] = 0;
    w->incand[h] = false;
    return h;
}

/* Cycles of the merged dependence graph, in one pass: a Kahn traversal of the tasks and
 * the zero-delay groups (a delayed group's RECV has no predecessor within an iteration
 * and its SEND no successor, so they lie on no cycle).  A group's SEND is ready when the
 * producers of all its members are done.  When the traversal stops short there is a
 * cycle, and then some group has a member whose producers are done while others wait
 * (take the first unit or task left in the base's own acyclic order: docs/bfco.md); the
 * first group that came to be in that state is split into its ready members, which go
 * on, and the others.  Returns the number of splits, or -1 at a cycle without rel. */
static int
untangle(Worker *w, bool rel)
{
    const Space *sp = w->sp;
    const Graph *g = sp->g;
    const Sched *b = sp->base;
    int T = sp->T, M = sp->M, ns = 0, done = 0, splits = 0, ch = 0, ct = 0;
    memcpy(w->tneed, sp->tzero, (size_t)T * sizeof *w->tneed);
    for (int t = 0; t < T; t++)
        if (!w->tneed[t])
            w->kstk[ns++] = t;
    for (int u = 0; u < M; u++)
        w->uneed[u] = b->msgs[u].delay == 0 ? b->msgs[u].nedges : 0;
    for (int k = 0; k < w->G; k++) {
        int n = 0;
        for (int i = w->gbeg[k]; i < w->gbeg[k] + w->gcnt[k]; i++)
            n += w->uneed[w->gm[i]];
        w->sneed[k] = n;
        w->incand[k] = false;
    }
    for (;;) {
        while (ns > 0) {
            int t = w->kstk[--ns];
            done++;
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++) {
                const Edge *E = &g->edges[g->succ[j]];
                if (E->delay != 0)
                    continue;
                int u = b->edge_msg[g->succ[j]];
                if (u < 0) {
                    if (--w->tneed[E->to] == 0)
                        w->kstk[ns++] = E->to;
                    continue;
                }
                int k = w->gidx[u];
                w->uneed[u]--;
                if (--w->sneed[k] == 0) {
                    ns = deliver(w, k, ns);
                } else if (w->uneed[u] == 0 && !w->incand[k]) {
                    w->incand[k] = true;
                    w->cand[ct++] = k;
                }
            }
        }
        if (done == T)
            return splits;
        if (!rel)
            return -1;
        int k = -1;
        while (ch < ct && k < 0) {
            int c = w->cand[ch++];
            w->incand[c] = false;
            if (w->sneed[c] > 0)
                k = c;
        }
        if (k < 0)
            ice("cycle repair: stuck, and no group has a ready member");
        ns = deliver(w, split_ready(w, k), ns);
        splits++;
    }
}

/* The desired sequences: merged send at the last member's slot, merged receive at the
 * first member's, everything else where the base has it; and empty class FIFOs. */
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
    for (int c = 0; c < sp->ncls; c++)
        w->cqh[c] = w->cqt[c] = sp->cls_off[c];
}

/* Order adjustment: a topological traversal that follows the desired sequences and, when
 * every DSP's next operation is blocked, moves forward the enabled operation closest to
 * the head of its sequence (ties: the lowest DSP).  An operation is enabled when its
 * prerequisites are done: a COMPUTE needs its same-DSP zero-delay producers and the
 * receives of its incoming messages, and (zero copy) the receive of each single-edge
 * delayed message it produces; a SEND needs its producers; a RECV of a zero-delay group
 * needs its SEND.  The groups of a class are received in the order they are sent: the
 * order in which the traversal emits the zero-delay sends, or for a delayed class the
 * order in which it emits the receives (a delayed receive takes the previous
 * iteration's transfer, so it comes first, and its SEND follows: zero copy or the pack
 * buffer).  The first group of a class's FIFO gets its turn; the others wait.  Eager
 * groups are out of the FIFOs: an eager receive needs only its send, a delayed eager
 * send its receive.  need[]
 * counts what is missing; each DSP keeps a heap of its enabled queue positions.  With the
 * merged graph acyclic, something is always enabled (docs/bfco.md); returns 0, or -1
 * should nothing be (the group to split is then in *split). */
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

/* The group at the front of class c's FIFO leaves it; the next one gets its turn. */
static void
fifo_pop(Worker *w, int c, int k, const int *turn)
{
    if (w->cq[w->cqh[c]] != k)
        ice("order adjustment: group %d out of its class order", k);
    if (++w->cqh[c] < w->cqt[c])
        dec(w, turn[w->cq[w->cqh[c]]]);
}

static void
fifo_push(Worker *w, int c, int k, const int *turn)
{
    w->cq[w->cqt[c]++] = k;
    if (w->cqh[c] == w->cqt[c] - 1)
        dec(w, turn[k]);
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
    int k = o.ref, c = sp->cls[gfirst(w, k)];
    bool delayed = b->msgs[gfirst(w, k)].delay >= 1, eager = geager(w, k);
    if (o.kind == OP_SEND) {
        if (eager) {
            if (!delayed)
                dec(w, w->rent[k]);
        } else if (delayed)
            fifo_pop(w, c, k, w->sent);
        else
            fifo_push(w, c, k, w->rent);
        return;
    }
    for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++) {
        const Msg *m = &b->msgs[w->gm[j]];
        for (int q = 0; q < m->nedges; q++) {
            dec(w, w->tent[g->edges[m->edges[q]].to]);
            if (delayed && gsize(w, k) == 1)
                dec(w, w->tent[g->edges[m->edges[q]].from]);
        }
    }
    if (eager) {
        if (delayed)
            dec(w, w->sent[k]);
    } else if (delayed)
        fifo_push(w, c, k, w->sent);
    else
        fifo_pop(w, c, k, w->rent);
}

static int
order(Worker *w, int *split)
{
    const Space *sp = w->sp;
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
            need = sp->tin[t];
            for (int j = sp->tdl_off[t]; j < sp->tdl_off[t + 1]; j++)
                need += gsize(w, w->gidx[sp->tdl_u[j]]) == 1;
        } else {
            int k = o.ref;
            bool delayed = b->msgs[gfirst(w, k)].delay >= 1;
            if (o.kind == OP_SEND) {
                for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++)
                    need += b->msgs[w->gm[j]].nedges;
                need += delayed; /* its turn */
            } else {
                need += !delayed; /* its turn, after its send */
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
        const Msg *m0 = &b->msgs[gfirst(w, k)];
        m->src = m0->src;
        m->dst = m0->dst;
        m->delay = m0->delay;
        m->pipelined = false;
        m->bytes = 0;
        m->nedges = 0;
        m->edges = w->epool + n;
        for (int j = w->gbeg[k]; j < w->gbeg[k] + w->gcnt[k]; j++) {
            const Msg *mu = &b->msgs[w->gm[j]];
            for (int q = 0; q < mu->nedges; q++)
                w->epool[n++] = mu->edges[q];
            m->bytes += mu->bytes;
            m->nedges += mu->nedges;
        }
    }
}

/* Releases a merge on the deadlock cycle the evaluator reports. */
int
bfco_release_on_deadlock(Worker *w)
{
    Arena *a = arena_new();
    EvalResult r;
    memset(&r, 0, sizeof r);
    EvalOpts o = {0, 0};
    w->evals++;
    int rc = eval_run_with(w->ev, w->ws, &o, &r, a);
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

/* Steps 2 and 3 of the repair on the current groups: the cycle repair and the order
 * adjustment, each one pass (the order's fallback starts again); builds the schedule. */
int
bfco_repair_static(Worker *w, bool rel, int *nrel)
{
    for (;;) {
        int s = untangle(w, rel);
        if (s < 0)
            return -1;
        if (s > 0) {
            w->nsplit += s;
            *nrel += s;
            bfco_canonical(w);
        }
        desired(w);
        int split;
        if (order(w, &split) == 0) {
            build_msgs(w);
            return 0;
        }
        if (!rel || split < 0)
            return -1;
        release(w, last_member(w, split));
        w->nord++;
        (*nrel)++;
    }
}

/* bfco_repair_static for a point of the search, which is its merge bits x (set from the
 * repaired groups).  Bits join only units within the window of each other, so a repair
 * that takes a unit out of a group may leave members that were joined only through it:
 * their bits then make a finer partition than the groups repaired, and the length
 * evaluated would not be that of the point kept (a 256-point FFT: 2 of about 1 000
 * moves the descent kept, one of them 2.4 % off).  So when the repair split a group, the
 * groups are made again from the repaired bits and repaired again until they are the
 * bits' own; each round only splits, so it ends. */
int
bfco_repair_point(Worker *w, uint8_t *x, int *nrel)
{
    for (;;) {
        int n0 = *nrel;
        if (bfco_repair_static(w, true, nrel) < 0)
            return -1;
        bfco_bits_from_groups(w, x);
        if (*nrel == n0)
            return 0;
        bfco_groups_from_bits(w, x);
        bool same = true;
        for (int u = 0; u < w->sp->M && same; u++)
            same = w->label[u] == gfirst(w, w->gidx[u]);
        if (same)
            return 0;
        bfco_regroup(w);
    }
}

int64_t
bfco_repair(Worker *w, bool rel, int *released)
{
    int nrel = 0;
    bfco_regroup(w);
    for (;;) {
        if (bfco_repair_static(w, rel, &nrel) < 0)
            return -1;
        int64_t L = bfco_eval(w);
        if (L >= 0) {
            if (released)
                *released = nrel;
            return L;
        }
        if (!rel || bfco_release_on_deadlock(w) < 0)
            return -1;
        w->ndead++;
        nrel++;
    }
}

int64_t
bfco_repair_bits(Worker *w, uint8_t *bits, int *released)
{
    int nrel = 0;
    bfco_groups_from_bits(w, bits);
    bfco_regroup(w);
    if (bfco_repair_point(w, bits, &nrel) < 0)
        return -1;
    if (released)
        *released = nrel;
    int64_t L = bfco_eval(w);
    return L < 0 ? -1 : L;
}

void
bfco_build_naive(Worker *w)
{
    bfco_regroup(w);
    desired(w);
    Sched *ws = w->ws;
    for (int d = 0; d < w->sp->D; d++) {
        ws->nops[d] = 0;
        for (int i = w->qoff[d]; i < w->qoff[d + 1]; i++)
            ws->ops[d][ws->nops[d]++] = w->q[i];
    }
    build_msgs(w);
}
