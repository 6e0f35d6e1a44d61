/*
 * passes/period_bound.c - the period bound: the maximum cycle ratio of a task graph with
 * its delays (docs/throughput.md).
 *
 * A graph iteration cannot repeat faster than its slowest cycle lets it: on a cycle of
 * tasks whose edges carry d_1 .. d_k delays (initial tokens, counted in iterations), the
 * instance of a task in iteration i + (d_1 + ... + d_k) waits, around the cycle, for its
 * own instance of iteration i and every task between, so the steady-state period of any
 * schedule, on any number of DSPs and with free communication, is at least the cycle's
 * cost over its delays.  Each task is also sequential (one DSP runs all its instances in
 * order), which is a cycle of one task and one delay: its own cost bounds the period
 * too.  The period bound is the largest of these ratios, the maximum cycle ratio of the
 * graph whose arcs are the edges (weight: the producer's cost, transit: the edge's
 * delay) and one arc per task to itself (its cost, 1).  A task costs its cheapest DSP
 * (the pinned DSP's cost when it is pinned), so that no mapping beats the bound.
 *
 * Requires: a graph whose zero-delay edges form a DAG (fe_check; a cycle without delays
 * would have no finite period).  Invalidates nothing: an analysis, run by the commands
 * that report the period.
 *
 * The ratio is computed by Howard's policy iteration (Cochet-Terrasson, Cohen, Gaubert,
 * McGettrick and Quadrat, "Numerical computation of spectral elements in max-plus
 * algebra", 1998; Dasdan, "Experimental analysis of the fastest optimum cycle ratio and
 * mean algorithms", ACM TODAES 2004, found it the fastest in practice), exactly: a
 * cycle's ratio is a fraction W / T of integers in lowest terms, and the potentials of
 * the nodes that lead to it are kept multiplied by T, so that every value is an integer
 * (128 bits: with sums of weights and transits below 2^62, a potential stays below
 * 2^125) and every comparison is exact.  Each policy iteration costs O(nodes + arcs);
 * the number of iterations is small in practice (a few dozen on 10 000 tasks).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

__extension__ typedef __int128 i128;

Ratio
period_ratio(int64_t num, int64_t den)
{
    if (den <= 0 || num < 0)
        ice("period_ratio(%lld, %lld): a ratio of cycles per iteration is num >= 0 over "
            "den > 0",
            (long long)num, (long long)den);
    int64_t g = ir_gcd64(num, den);
    return (Ratio){num / g, den / g};
}

int
period_ratio_cmp(Ratio a, Ratio b)
{
    i128 l = (i128)a.num * b.den, r = (i128)b.num * a.den;
    return l < r ? -1 : l > r;
}

double
period_ratio_value(Ratio r)
{
    return (double)r.num / (double)r.den;
}

/* The workspace of one computation. */
typedef struct Howard {
    int n, m;
    const int *from, *to;
    const int64_t *w, *t;
    int *off, *arc; /* out-arcs of the live nodes, CSR: arc[off[u] .. off[u + 1]) */
    bool *live;     /* the node reaches a cycle */
    int *pi;        /* the policy: the arc each live node follows */
    Ratio *eta;     /* the ratio of the cycle the node's policy path ends in */
    i128 *x;        /* its potential, times eta.den */
    int *state; /* value determination: 0 not seen, s + 1 on the walk from s, -1 done */
    int *walk;
    int best; /* a node of the policy cycle of the largest ratio */
} Howard;

/* The ratio of the policy cycle through c, its potentials (0 at its lowest node) and
 * those of its nodes. */
static void
close_cycle(Howard *h, int c)
{
    int64_t W = 0, T = 0;
    int low = c;
    int v = c;
    do {
        int e = h->pi[v];
        W += h->w[e];
        T += h->t[e];
        if (v < low)
            low = v;
        v = h->to[e];
    } while (v != c);
    if (T == 0)
        ice("a policy cycle without transit after the check for one");
    Ratio r = period_ratio(W, T);
    /* Potentials around from the lowest node: x(u) = den w - num t + x(next). */
    int k = 0;
    v = low;
    do {
        h->walk[k++] = v;
        v = h->to[h->pi[v]];
    } while (v != low);
    h->x[low] = 0;
    h->eta[low] = r;
    for (int i = k - 1; i >= 1; i--) {
        int u = h->walk[i], e = h->pi[u];
        h->eta[u] = r;
        h->x[u] = (i128)r.den * h->w[e] - (i128)r.num * h->t[e] + h->x[h->to[e]];
    }
    for (int i = 0; i < k; i++)
        h->state[h->walk[i]] = -1;
    if (h->best < 0 || period_ratio_cmp(r, h->eta[h->best]) > 0)
        h->best = low;
}

/* Value determination: every live node's ratio and potential under the policy. */
static void
determine(Howard *h)
{
    for (int u = 0; u < h->n; u++)
        h->state[u] = 0;
    h->best = -1;
    for (int s = 0; s < h->n; s++) {
        if (!h->live[s] || h->state[s] != 0)
            continue;
        /* Follow the policy from s until a node already done or one of this walk. */
        int len = 0, v = s;
        while (h->state[v] == 0) {
            h->state[v] = s + 1;
            h->walk[len++] = v;
            v = h->to[h->pi[v]];
        }
        int *path = h->walk + h->n; /* close_cycle uses the first n entries */
        memcpy(path, h->walk, (size_t)len * sizeof *path);
        if (h->state[v] == s + 1)
            close_cycle(h, v);
        for (int i = len - 1; i >= 0; i--) {
            int u = path[i];
            if (h->state[u] == -1)
                continue;
            int e = h->pi[u], nx = h->to[e];
            Ratio r = h->eta[nx];
            h->eta[u] = r;
            h->x[u] = (i128)r.den * h->w[e] - (i128)r.num * h->t[e] + h->x[nx];
            h->state[u] = -1;
        }
    }
}

/* Policy improvement: to a better ratio first; when no node has one, to a better
 * potential among arcs of the same ratio.  Returns whether the policy changed. */
static bool
improve(Howard *h)
{
    bool changed = false;
    for (int u = 0; u < h->n; u++) {
        if (!h->live[u])
            continue;
        int best = -1;
        Ratio be = h->eta[u];
        for (int k = h->off[u]; k < h->off[u + 1]; k++) {
            int e = h->arc[k];
            if (period_ratio_cmp(h->eta[h->to[e]], be) > 0) {
                be = h->eta[h->to[e]];
                best = e;
            }
        }
        if (best >= 0) {
            h->pi[u] = best;
            changed = true;
        }
    }
    if (changed)
        return true;
    for (int u = 0; u < h->n; u++) {
        if (!h->live[u])
            continue;
        Ratio r = h->eta[u];
        i128 bx = h->x[u];
        int best = -1;
        for (int k = h->off[u]; k < h->off[u + 1]; k++) {
            int e = h->arc[k], v = h->to[e];
            if (h->eta[v].num != r.num || h->eta[v].den != r.den)
                continue;
            i128 val = (i128)r.den * h->w[e] - (i128)r.num * h->t[e] + h->x[v];
            if (val > bx) {
                bx = val;
                best = e;
            }
        }
        if (best >= 0) {
            h->pi[u] = best;
            changed = true;
        }
    }
    return changed;
}

/* Marks the nodes that reach a cycle (the others are removed, sinks first) and lists the
 * live out-arcs of each. */
static void
prune(Howard *h)
{
    int n = h->n, m = h->m;
    int *outdeg = ir_xcalloc((size_t)n, sizeof *outdeg);
    int *roff = ir_xcalloc((size_t)n + 1, sizeof *roff);
    int *rarc = ir_xcalloc((size_t)m + 1, sizeof *rarc);
    int *queue = ir_xcalloc((size_t)n + 1, sizeof *queue);
    for (int e = 0; e < m; e++) {
        outdeg[h->from[e]]++;
        roff[h->to[e] + 1]++;
    }
    for (int u = 0; u < n; u++)
        roff[u + 1] += roff[u];
    int *fill = ir_xcalloc((size_t)n + 1, sizeof *fill);
    for (int e = 0; e < m; e++)
        rarc[roff[h->to[e]] + fill[h->to[e]]++] = e;
    int qh = 0, qt = 0;
    for (int u = 0; u < n; u++) {
        h->live[u] = true;
        if (outdeg[u] == 0)
            queue[qt++] = u;
    }
    while (qh < qt) {
        int v = queue[qh++];
        h->live[v] = false;
        for (int k = roff[v]; k < roff[v + 1]; k++) {
            int u = h->from[rarc[k]];
            if (--outdeg[u] == 0)
                queue[qt++] = u;
        }
    }
    for (int u = 0; u <= n; u++)
        h->off[u] = 0;
    for (int e = 0; e < m; e++)
        if (h->live[h->from[e]] && h->live[h->to[e]])
            h->off[h->from[e] + 1]++;
    for (int u = 0; u < n; u++)
        h->off[u + 1] += h->off[u];
    memset(fill, 0, ((size_t)n + 1) * sizeof *fill);
    for (int e = 0; e < m; e++)
        if (h->live[h->from[e]] && h->live[h->to[e]])
            h->arc[h->off[h->from[e]] + fill[h->from[e]]++] = e;
    free(outdeg);
    free(roff);
    free(rarc);
    free(queue);
    free(fill);
}

/* A cycle of live arcs without transit, into cyc (arcs in order): Kahn's algorithm on
 * those arcs; what it cannot remove holds such a cycle, found by walking back along
 * zero-transit in-arcs from a node left.  Returns its length, 0 when there is none. */
static int
zero_transit_cycle(const Howard *h, int *cyc)
{
    int n = h->n;
    int *indeg = ir_xcalloc((size_t)n, sizeof *indeg);
    int *queue = ir_xcalloc((size_t)n + 1, sizeof *queue);
    int *back = ir_xcalloc((size_t)n, sizeof *back); /* a zero-transit in-arc */
    for (int u = 0; u < n; u++)
        back[u] = -1;
    for (int u = 0; u < n; u++)
        for (int k = h->off[u]; k < h->off[u + 1]; k++) {
            int e = h->arc[k];
            if (h->t[e] == 0) {
                indeg[h->to[e]]++;
                back[h->to[e]] = e;
            }
        }
    int qh = 0, qt = 0, left = 0;
    for (int u = 0; u < n; u++)
        if (h->live[u]) {
            left++;
            if (indeg[u] == 0)
                queue[qt++] = u;
        }
    while (qh < qt) {
        int u = queue[qh++];
        left--;
        for (int k = h->off[u]; k < h->off[u + 1]; k++) {
            int e = h->arc[k];
            if (h->t[e] == 0 && --indeg[h->to[e]] == 0)
                queue[qt++] = h->to[e];
        }
    }
    int len = 0;
    if (left > 0) {
        /* Every node left has a zero-transit in-arc from a node left. */
        int v = -1;
        for (int u = 0; u < n && v < 0; u++)
            if (h->live[u] && indeg[u] > 0)
                v = u;
        for (int u = 0; u < n; u++)
            back[u] = -1;
        for (int u = 0; u < n; u++)
            for (int k = h->off[u]; k < h->off[u + 1]; k++) {
                int e = h->arc[k];
                if (h->t[e] == 0 && indeg[u] > 0 && indeg[h->to[e]] > 0)
                    back[h->to[e]] = e;
            }
        int *seen = ir_xcalloc((size_t)n, sizeof *seen);
        while (!seen[v]) {
            seen[v] = 1;
            v = h->from[back[v]];
        }
        /* v is on the cycle: walk it back once, then reverse into forward order */
        int u = v;
        do {
            cyc[len++] = back[u];
            u = h->from[back[u]];
        } while (u != v);
        for (int i = 0; i < len / 2; i++) {
            int tmp = cyc[i];
            cyc[i] = cyc[len - 1 - i];
            cyc[len - 1 - i] = tmp;
        }
        free(seen);
    }
    free(indeg);
    free(queue);
    free(back);
    return len;
}

int
period_max_cycle_ratio(int n, int m, const int *from, const int *to, const int64_t *w,
                       const int64_t *t, Ratio *out, int *cycle, int *ncycle)
{
    *out = (Ratio){0, 1};
    *ncycle = 0;
    /* Every potential is below 2^125 when the sums of each node's largest weight and
     * largest transit are below 2^62 (a policy path meets each node once). */
    int64_t *wmax = ir_xcalloc((size_t)n + 1, sizeof *wmax);
    int64_t *tmax = ir_xcalloc((size_t)n + 1, sizeof *tmax);
    for (int e = 0; e < m; e++) {
        if (w[e] < 0 || t[e] < 0)
            ice("arc %d: negative weight or transit", e);
        if (w[e] > wmax[from[e]])
            wmax[from[e]] = w[e];
        if (t[e] > tmax[from[e]])
            tmax[from[e]] = t[e];
    }
    int64_t ws = 0, ts = 0;
    bool big = false;
    for (int u = 0; u < n; u++) {
        ws = ir_add_sat(ws, wmax[u]);
        ts = ir_add_sat(ts, tmax[u]);
        big |= ws >= IR_MAX_TIME || ts >= IR_MAX_TIME;
    }
    free(wmax);
    free(tmax);
    if (big)
        return -2;

    Howard h = {.n = n, .m = m, .from = from, .to = to, .w = w, .t = t};
    h.off = ir_xcalloc((size_t)n + 1, sizeof *h.off);
    h.arc = ir_xcalloc((size_t)m + 1, sizeof *h.arc);
    h.live = ir_xcalloc((size_t)n + 1, sizeof *h.live);
    h.pi = ir_xcalloc((size_t)n + 1, sizeof *h.pi);
    h.eta = ir_xcalloc((size_t)n + 1, sizeof *h.eta);
    h.x = ir_xcalloc((size_t)n + 1, sizeof *h.x);
    h.state = ir_xcalloc((size_t)n + 1, sizeof *h.state);
    h.walk = ir_xcalloc(2 * (size_t)n + 1, sizeof *h.walk);
    prune(&h);
    int rc = 0;
    int len = zero_transit_cycle(&h, cycle);
    if (len > 0) {
        *ncycle = len;
        rc = -1;
        goto done;
    }
    bool any = false;
    for (int u = 0; u < n; u++) {
        if (!h.live[u])
            continue;
        any = true;
        /* the first policy: the heaviest arc, the first of equals */
        int best = h.arc[h.off[u]];
        for (int k = h.off[u]; k < h.off[u + 1]; k++)
            if (w[h.arc[k]] > w[best])
                best = h.arc[k];
        h.pi[u] = best;
    }
    if (!any)
        goto done;
    /* Exact policy iteration ends (the policy's values strictly improve and there are
     * finitely many policies); the cap only turns a bug into an internal error rather
     * than a hang. */
    int64_t rounds = 0;
    do {
        determine(&h);
        if (++rounds > INT64_C(100000000))
            ice("Howard's policy iteration did not converge");
    } while (improve(&h));
    *out = h.eta[h.best];
    int v = h.best;
    do {
        cycle[len++] = h.pi[v];
        v = to[h.pi[v]];
    } while (v != h.best);
    *ncycle = len;
done:
    free(h.off);
    free(h.arc);
    free(h.live);
    free(h.pi);
    free(h.eta);
    free(h.x);
    free(h.state);
    free(h.walk);
    return rc;
}

int64_t
period_task_cycles(const Graph *g, const Platform *p, int task)
{
    const Task *t = &g->tasks[task];
    if (t->dsp >= 0)
        return ir_task_cycles(t, t->dsp);
    int64_t best = t->cycles[0];
    for (int k = 1; k < t->ncycles; k++)
        if (t->cycles[k] < best)
            best = t->cycles[k];
    (void)p;
    return best;
}

int
period_bound(const Graph *g, const Platform *p, PeriodBound *pb, Arena *a)
{
    memset(pb, 0, sizeof *pb);
    pb->bound = (Ratio){0, 1};
    int n = g->ntasks, m = g->nedges + g->ntasks;
    int *from = ir_xcalloc((size_t)m + 1, sizeof *from);
    int *to = ir_xcalloc((size_t)m + 1, sizeof *to);
    int64_t *w = ir_xcalloc((size_t)m + 1, sizeof *w);
    int64_t *t = ir_xcalloc((size_t)m + 1, sizeof *t);
    int64_t *cost = ir_xcalloc((size_t)n + 1, sizeof *cost);
    for (int u = 0; u < n; u++)
        cost[u] = period_task_cycles(g, p, u);
    /* arcs 0 .. nedges - 1 are the edges, then each task's own sequence */
    for (int e = 0; e < g->nedges; e++) {
        from[e] = g->edges[e].from;
        to[e] = g->edges[e].to;
        w[e] = cost[from[e]];
        t[e] = g->edges[e].delay;
    }
    for (int u = 0; u < n; u++) {
        int e = g->nedges + u;
        from[e] = to[e] = u;
        w[e] = cost[u];
        t[e] = 1;
    }
    int *cyc = ir_xcalloc((size_t)m + 1, sizeof *cyc);
    int ncyc;
    int rc = period_max_cycle_ratio(n, m, from, to, w, t, &pb->bound, cyc, &ncyc);
    pb->ncycle = ncyc;
    pb->cycle = arena_array(a, (size_t)ncyc + 1, sizeof *pb->cycle);
    pb->cycle_edges = arena_array(a, (size_t)ncyc + 1, sizeof *pb->cycle_edges);
    for (int i = 0; i < ncyc; i++) {
        int e = cyc[i];
        pb->cycle[i] = from[e];
        pb->cycle_edges[i] = e < g->nedges ? e : -1;
        pb->cycle_cycles += w[e];
        pb->cycle_tokens += t[e];
    }
    free(from);
    free(to);
    free(w);
    free(t);
    free(cost);
    free(cyc);
    return rc;
}
