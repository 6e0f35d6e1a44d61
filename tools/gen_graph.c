/*
 * tools/gen_graph.c - the seeded random task-graph generator.  The same spec and seed
 * give the same graph on every machine (splitmix64, integer arithmetic only for the
 * draws).
 *
 * Shapes: random (each task takes 1..max_preds producers among the earlier tasks), chain
 * (i -> i+1, plus skip edges i -> i+k), layered (each task of a layer takes one or two
 * producers of the previous layer), fft (the radix-2 FFT task graph of Topcuoglu et al.:
 * a binary tree of 2n - 1 recursive calls splits the input down to its n points, then
 * log2(n) stages of n butterflies, butterfly i of stage s reading outputs i and
 * i xor 2^(s-1) of the stage before), butterfly (the radix-2 FFT as its butterflies: a
 * source, log2(n) stages of n / 2 two-input, two-output butterflies, the one of stage s
 * on points i and i xor 2^s, and a sink: 82 tasks at 32 points).  Back edges with a delay
 * close feedback loops. With pin_block, tasks are pinned in blocks to the DSPs in turn (a
 * pipeline of stages).
 */
#include <stdlib.h>
#include <string.h>

#include "gen_graph.h"

const char *const gen_class_names[] = {"hi20",     "lo20",  "rand50",
                                       "chain100", "fft32", NULL};

int
gen_class(const char *name, GenSpec *gs)
{
    GenSpec base = {.tasks = 20,
                    .shape = GEN_RANDOM,
                    .max_preds = 2,
                    .skip = 0.3,
                    .width = 4,
                    .iterations = 16,
                    .platform = "bwdsp-1board",
                    .seed = 1};
    if (strcmp(name, "hi20") ==
        0) { /* high communication: small tasks, startup dominates */
        base.cycles_lo = 300, base.cycles_hi = 2000;
        base.bytes_lo = 16, base.bytes_hi = 512;
    } else if (strcmp(name, "lo20") == 0) { /* low communication: long tasks */
        base.cycles_lo = 6000, base.cycles_hi = 20000;
        base.bytes_lo = 16, base.bytes_hi = 256;
    } else if (strcmp(name, "rand50") == 0) {
        base.tasks = 50;
        base.max_preds = 3;
        base.cycles_lo = 500, base.cycles_hi = 5000;
        base.bytes_lo = 16, base.bytes_hi = 1024;
    } else if (strcmp(name, "chain100") == 0) {
        base.tasks = 100;
        base.shape = GEN_CHAIN;
        base.pin_block = 5; /* a streaming chain cut into stages of 5, round robin */
        base.cycles_lo = 500, base.cycles_hi = 3000;
        base.bytes_lo = 16, base.bytes_hi = 1024;
    } else if (strcmp(name, "fft32") == 0) { /* 223 tasks, 382 edges; small butterflies */
        base.shape = GEN_FFT;
        base.points = 32;
        base.tasks = gen_fft_tasks(32);
        base.cycles_lo = 300, base.cycles_hi = 2000;
        base.bytes_lo = 16, base.bytes_hi = 512;
    } else {
        return -1;
    }
    *gs = base;
    return 0;
}

static int64_t
uni(uint64_t *s, int64_t lo, int64_t hi) /* uniform in [lo, hi] */
{
    if (hi <= lo)
        return lo;
    return ir_rand_range(s, lo, hi);
}

static bool
chance(uint64_t *s, double p)
{
    return (double)(ir_splitmix64(s) >> 11) * 0x1.0p-53 < p;
}

static bool
has_edge(const Graph *g, int a, int b)
{
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].from == a && g->edges[e].to == b)
            return true;
    return false;
}

static void
add(Graph *g, int cap, uint64_t *s, const GenSpec *gs, int a, int b, int delay)
{
    if (g->nedges == cap || a == b || has_edge(g, a, b))
        return;
    g->edges[g->nedges++] = (Edge){
        .from = a, .to = b, .bytes = uni(s, gs->bytes_lo, gs->bytes_hi), .delay = delay};
}

int
gen_fft_tasks(int points)
{
    int stages = 0;
    while ((1 << stages) < points)
        stages++;
    return 2 * points - 1 + points * stages;
}

int
gen_butterfly_tasks(int points)
{
    int stages = 0;
    while ((1 << stages) < points)
        stages++;
    return 2 + points / 2 * stages;
}

/* The butterfly shape: task 0 the source, task n - 1 the sink, butterfly k of stage s
 * (task 1 + s n/2 + k) on the points k with bit s inserted as 0 and as 1; a point's
 * value goes from the butterfly of stage s that wrote it to the one of stage s + 1 that
 * reads it (one edge when a butterfly feeds both points of the next). */
static void
butterfly_edges(Graph *g, int cap, uint64_t *s, const GenSpec *gs, int points)
{
    int stages = 0, half = points / 2;
    while ((1 << stages) < points)
        stages++;
    int sink = 1 + stages * half;
    for (int st = 0; st < stages; st++)
        for (int k = 0; k < half; k++) {
            int lo = ((k >> st) << (st + 1)) | (k & ((1 << st) - 1));
            for (int b = 0; b < 2; b++) {
                int pt = lo | (b << st), me = 1 + st * half + k;
                if (st == 0)
                    add(g, cap, s, gs, 0, me, 0);
                if (st + 1 == stages) {
                    add(g, cap, s, gs, me, sink, 0);
                } else { /* the butterfly of stage st + 1 on point pt */
                    int q = st + 1, kk = ((pt >> (q + 1)) << q) | (pt & ((1 << q) - 1));
                    add(g, cap, s, gs, me, 1 + q * half + kk, 0);
                }
            }
        }
}

/* The FFT shape: tree node j (0 = root) feeds 2j + 1 and 2j + 2; leaf i (tree node
 * n - 1 + i) is stage 0, index i of the butterflies. */
static void
fft_edges(Graph *g, int cap, uint64_t *s, const GenSpec *gs, int n)
{
    for (int j = 0; 2 * j + 2 < 2 * n - 1; j++) {
        add(g, cap, s, gs, j, 2 * j + 1, 0);
        add(g, cap, s, gs, j, 2 * j + 2, 0);
    }
    int base = n - 1; /* stage 0 = the leaves */
    for (int st = 1; (1 << (st - 1)) < n; st++) {
        int prev = base;
        base = st == 1 ? 2 * n - 1 : base + n;
        for (int i = 0; i < n; i++) {
            add(g, cap, s, gs, prev + i, base + i, 0);
            add(g, cap, s, gs, prev + (i ^ (1 << (st - 1))), base + i, 0);
        }
    }
}

Graph *
gen_graph(const GenSpec *gs, const char *name)
{
    Graph *g = ir_graph_new();
    Arena *a = g->arena;
    uint64_t s = gs->seed * UINT64_C(0x2545F4914F6CDD1D) + (uint64_t)gs->tasks;
    int n = gs->tasks > 0 ? gs->tasks : 1;
    if (gs->shape == GEN_FFT) {
        if (gs->points < 2 || (gs->points & (gs->points - 1)))
            ice("fft: %d points is not a power of two >= 2", gs->points);
        n = gen_fft_tasks(gs->points);
    } else if (gs->shape == GEN_BUTTERFLY) {
        if (gs->points < 2 || (gs->points & (gs->points - 1)))
            ice("butterfly: %d points is not a power of two >= 2", gs->points);
        n = gen_butterfly_tasks(gs->points);
    }
    g->name = arena_strdup(a, name ? name : "gen");
    g->file = arena_printf(a, "%s.json", g->name);
    g->iterations = gs->iterations > 0 ? gs->iterations : 1;
    g->platform_ref = arena_strdup(a, gs->platform ? gs->platform : "bwdsp-1board");
    g->platform = plat_preset(a, g->platform_ref);
    if (!g->platform) {
        ir_graph_free(g);
        return NULL;
    }
    g->ntasks = n;
    g->tasks = arena_array(a, (size_t)n, sizeof *g->tasks);
    for (int i = 0; i < n; i++) {
        int64_t *c = arena_alloc(a, sizeof *c);
        *c = uni(&s, gs->cycles_lo, gs->cycles_hi);
        g->tasks[i] = (Task){
            .id = arena_printf(a, "t%d", i),
            .cycles = c,
            .ncycles = 1,
            .dsp = gs->pin_block > 0 ? (i / gs->pin_block) % g->platform->ndsps : -1};
    }
    int cap = 8 * n + 8;
    g->edges = arena_array(a, (size_t)cap, sizeof *g->edges);
    int width = gs->width > 0 ? gs->width : 4;
    if (gs->shape == GEN_FFT)
        fft_edges(g, cap, &s, gs, gs->points);
    if (gs->shape == GEN_BUTTERFLY)
        butterfly_edges(g, cap, &s, gs, gs->points);
    for (int i = 1; i < n && gs->shape != GEN_FFT && gs->shape != GEN_BUTTERFLY; i++) {
        switch (gs->shape) {
        case GEN_RANDOM: {
            int k = (int)uni(&s, 1, gs->max_preds > 0 ? gs->max_preds : 1);
            for (int j = 0; j < k; j++) {
                /* producers lean towards recent tasks: depth grows with the graph */
                int lo = i - 8 > 0 ? i - 8 : 0;
                add(g, cap, &s, gs, (int)uni(&s, lo, i - 1), i, 0);
            }
            break;
        }
        case GEN_CHAIN:
            add(g, cap, &s, gs, i - 1, i, 0);
            for (int k = 2; k <= 4; k++)
                if (i - k >= 0 && chance(&s, gs->skip))
                    add(g, cap, &s, gs, i - k, i, 0);
            break;
        case GEN_LAYERED: {
            int layer = i / width;
            if (layer == 0)
                break;
            int lo = (layer - 1) * width, hi = layer * width - 1;
            add(g, cap, &s, gs, (int)uni(&s, lo, hi), i, 0);
            if (chance(&s, 0.5))
                add(g, cap, &s, gs, (int)uni(&s, lo, hi), i, 0);
            break;
        }
        case GEN_FFT:
        case GEN_BUTTERFLY:
            break;
        }
    }
    if (gs->delay_frac > 0) {
        int nb = (int)(gs->delay_frac * n + 0.5);
        for (int j = 0; j < nb; j++) {
            int x = (int)uni(&s, 0, n - 1), y = (int)uni(&s, 0, n - 1);
            if (x < y) {
                int t = x;
                x = y;
                y = t;
            }
            int dl = gs->max_delay > 1 ? (int)uni(&s, 1, gs->max_delay) : 1;
            if (x != y) /* a later task feeds an earlier one in a later iteration */
                add(g, cap, &s, gs, x, y, dl);
        }
    }
    if (ir_graph_index(g) != 0)
        ice("generated graph is cyclic");
    return g;
}
