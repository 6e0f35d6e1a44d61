/*
 * frontend/expand.c - the single-rate expansion of a multi-rate graph (the standard SDF
 * to HSDF transformation, docs/formats.md "The expansion") and the pass that applies it.
 *
 * Requires: a graph fe_check accepted (repetition vector set, rates >= 1, tokens
 * resolved, no SDF deadlock).  Each actor a becomes q[a] tasks, its firings (the id "a"
 * when it fires once per iteration, else "a[0]" .. "a[q-1]"), each with a's cost,
 * kernel, params, pin and output, and the firing index the kernel reads.  Each channel
 * becomes the edges that carry its tokens between firings, token-exact and in FIFO
 * order: the producer's firing i writes the channel's tokens i P .. i P + P - 1 of each
 * iteration; with d initial tokens, token k of iteration n is the consumer's token
 * n T + k + d of its stream (T = q[from] P = q[to] C tokens an iteration), read by its
 * firing ((k + d) mod T) / C of iteration n + (k + d) / T.  A run of consecutive tokens
 * between the same two firings at the same iteration distance is one edge of run x bytes
 * bytes and that distance as its delay, placed in the ports of both firings (the
 * channel's port of each actor: its rank among the actor's out- or in-channels) at the
 * run's byte offset.  Runs end at a producer's or a consumer's firing boundary, so a
 * channel gives at most q[from] + q[to] edges: the expansion is linear in the firings
 * and the channels.  Edges come in channel order, each channel's in producer order.
 *
 * Why in frontend/: fe_check needs the expansion (its limits and the bound on every time
 * the passes compute are checked on the graph that is scheduled, with errors located in
 * the file), and tgc check prints its critical path; the frontend depends on ir/ only,
 * passes/ cannot be called from it.  The expansion reads no file and reports nothing:
 * every error it could meet is fe_check's.
 *
 * Invalidates: pass_expand replaces the unit's graph by its expansion in place (the same
 * Graph, so every holder of the pointer sees the expansion; the multi-rate graph stays
 * as g->original).  A single-rate graph is its own expansion: nothing changes; but for a
 * flattened one whose actors' ports are not in the order of their edges (a subgraph's
 * interface channels come first, in the order of its ports, wherever the including
 * graph's edges put them), the expansion is the same tasks and edges with the ports
 * written out, so that the kernels see them in that order (fe_expansion_needed).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* Calls emit(ctx, ...) for every run of channel e, in producer order; stops early and
 * returns false when emit does. */
typedef bool (*RunFn)(void *ctx, int e, int64_t i, int64_t j, int64_t tokens, int64_t lag,
                      int64_t from_tok, int64_t to_tok);

static bool
channel_runs(const Graph *g, int e, RunFn emit, void *ctx)
{
    const Edge *x = &g->edges[e];
    int64_t p = x->produce, c = x->consume, d = x->tokens;
    int64_t per = g->repetitions[x->from] * p;
    for (int64_t i = 0; i < g->repetitions[x->from]; i++)
        for (int64_t o = 0; o < p;) {
            int64_t pos = i * p + o + d;
            int64_t lag = pos / per, in = pos % per, j = in / c, oc = in % c;
            int64_t n = p - o < c - oc ? p - o : c - oc;
            if (!emit(ctx, e, i, j, n, lag, o, oc))
                return false;
            o += n;
        }
    return true;
}

typedef struct Count {
    int64_t n, limit;
} Count;

static bool
count_run(void *ctx, int e, int64_t i, int64_t j, int64_t tokens, int64_t lag,
          int64_t from_tok, int64_t to_tok)
{
    Count *c = ctx;
    return ++c->n <= c->limit;
}

int64_t
fe_expand_edges(const Graph *g, int64_t limit)
{
    Count c = {0, limit};
    for (int e = 0; e < g->nedges; e++)
        if (!channel_runs(g, e, count_run, &c))
            break;
    return c.n;
}

typedef struct Build {
    const Graph *g;
    Graph *x;
    const int64_t *base;           /* [ntasks] the first firing of each actor */
    const int *out_rank, *in_rank; /* [nedges] the channel's port at each end */
    int n;                         /* edges so far */
} Build;

static bool
add_run(void *ctx, int e, int64_t i, int64_t j, int64_t tokens, int64_t lag,
        int64_t from_tok, int64_t to_tok)
{
    Build *b = ctx;
    const Edge *c = &b->g->edges[e];
    int k = b->n++;
    b->x->edges[k] = (Edge){.from = (int)(b->base[c->from] + i),
                            .to = (int)(b->base[c->to] + j),
                            .bytes = tokens * c->bytes,
                            .delay = (int)lag,
                            .produce = 1,
                            .consume = 1,
                            .tokens = lag};
    b->x->ports[k] = (EdgePort){.from_port = b->out_rank[e],
                                .to_port = b->in_rank[e],
                                .from_off = from_tok * c->bytes,
                                .to_off = to_tok * c->bytes};
    return true;
}

Graph *
fe_expand(const Graph *g)
{
    if (!g->repetitions || g->firings > INT32_MAX)
        ice("fe_expand of a graph fe_check did not accept");
    Graph *x = ir_graph_new();
    Arena *a = x->arena;
    x->file = g->file;
    x->name = g->name;
    x->iterations = g->iterations;
    x->period_constraint = g->period_constraint;
    x->platform_ref = g->platform_ref;
    x->platform = g->platform;
    x->dir = g->dir;
    x->kernels_source = g->kernels_source;
    x->kernels_header = g->kernels_header;
    x->kernels_source_text = g->kernels_source_text;
    x->kernels_header_text = g->kernels_header_text;
    x->kernels_source_len = g->kernels_source_len;
    x->kernels_header_len = g->kernels_header_len;

    int n = (int)g->firings;
    int64_t *base = arena_array(a, (size_t)g->ntasks + 1, sizeof *base);
    x->tasks = arena_array(a, (size_t)n + 1, sizeof *x->tasks);
    x->firing = arena_array(a, (size_t)n + 1, sizeof *x->firing);
    x->repetitions = arena_array(a, (size_t)n + 1, sizeof *x->repetitions);
    int t = 0;
    for (int k = 0; k < g->ntasks; k++) {
        const Task *actor = &g->tasks[k];
        int64_t q = g->repetitions[k];
        base[k] = t;
        for (int64_t f = 0; f < q; f++, t++) {
            Task *task = &x->tasks[t];
            *task = *actor; /* cost, kernel, params, pin, output: shared with g */
            if (actor->pins) {
                task->dsp = actor->pins[f];
                task->pins = NULL;
                task->npins = 0;
            }
            if (q > 1)
                task->id = arena_printf(a, "%s[%" PRId64 "]", actor->id, f);
            x->firing[t] = (Firing){f, q};
            x->repetitions[t] = 1;
        }
    }
    x->ntasks = n;
    x->firings = n;

    int *out_rank = arena_array(a, (size_t)g->nedges + 1, sizeof *out_rank);
    int *in_rank = arena_array(a, (size_t)g->nedges + 1, sizeof *in_rank);
    int *outs = arena_array(a, (size_t)g->ntasks + 1, sizeof *outs);
    int *ins = arena_array(a, (size_t)g->ntasks + 1, sizeof *ins);
    for (int e = 0; e < g->nedges; e++) { /* a flattened graph says, else edge order */
        out_rank[e] = g->from_rank ? g->from_rank[e] : outs[g->edges[e].from]++;
        in_rank[e] = g->to_rank ? g->to_rank[e] : ins[g->edges[e].to]++;
    }
    int64_t m = fe_expand_edges(g, INT32_MAX);
    if (m > INT32_MAX)
        ice("fe_expand: more than 2^31 edges");
    x->edges = arena_array(a, (size_t)m + 1, sizeof *x->edges);
    x->ports = arena_array(a, (size_t)m + 1, sizeof *x->ports);
    x->nedges = (int)m;
    Build b = {g, x, base, out_rank, in_rank, 0};
    for (int e = 0; e < g->nedges; e++)
        channel_runs(g, e, add_run, &b);
    if (ir_graph_index(x) != 0)
        ice("the expansion of graph \"%s\" has a cycle of zero-delay edges",
            g->name ? g->name : "");
    return x;
}

bool
fe_expansion_needed(const Graph *g)
{
    if (g->multirate)
        return true;
    if (!g->from_rank || !g->to_rank)
        return false;
    int *outs = calloc((size_t)g->ntasks + 1, sizeof *outs);
    int *ins = calloc((size_t)g->ntasks + 1, sizeof *ins);
    if (!outs || !ins)
        ice("out of memory");
    bool other = false;
    for (int e = 0; e < g->nedges && !other; e++)
        other = g->from_rank[e] != outs[g->edges[e].from]++ ||
                g->to_rank[e] != ins[g->edges[e].to]++;
    free(outs);
    free(ins);
    return other;
}

int
pass_expand(Unit *u, Diag *d)
{
    Graph *g = u->g;
    if (!fe_expansion_needed(g))
        return 0;
    Graph *x = fe_expand(g);
    Graph tmp = *g;
    *g = *x;
    *x = tmp;
    g->original = x;
    return 0;
}
