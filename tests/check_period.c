/* tests/check_period.c - the period bound (passes/period_bound.c): hand-computed bounds
 * of small graphs, the maximum cycle ratio against an enumeration of every simple cycle
 * on random small graphs and against a certificate (the reported cycle is a cycle of that
 * ratio, and Bellman-Ford finds no cycle above it) on larger ones; multi-rate graphs'
 * bounds (through the reader and fe_expand) by hand and against their self-timed
 * execution firing by firing; the period (eval_period) never below the bound. */
#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "gen_graph.h"
#include "graph_fixture.h"
#include "ir.h"

__extension__ typedef __int128 i128;

/* ------------------------------------------------------------------ graphs by hand */

static Graph *
mk_graph(int n, const int64_t *cycles)
{
    Graph *g = fixture_graph("period", "bwdsp-1board", n, 10, 64, false);
    for (int i = 0; i < n; i++)
        *g->tasks[i].cycles = cycles[i];
    return g;
}

static void
edge(Graph *g, int from, int to, int delay)
{
    add_edge(g, from, to, 64, delay);
}

static Ratio
bound(const Graph *g, PeriodBound *pb, Arena *a)
{
    int rc = period_bound(g, g->platform, pb, a);
    ck_assert_int_eq(rc, 0);
    return pb->bound;
}

#define ck_ratio(r, n, d)                                                                \
    do {                                                                                 \
        Ratio r_ = (r);                                                                  \
        ck_assert_msg(r_.num == (n) && r_.den == (d),                                    \
                      "bound %" PRId64 "/%" PRId64 ", expected %" PRId64 "/%" PRId64,    \
                      r_.num, r_.den, (int64_t)(n), (int64_t)(d));                       \
    } while (0)

TEST_CASE("bound", 0)

/* A chain without delays: no cycle but the tasks' own; the slowest task, 200. */
TEST(a_chain_is_bounded_by_its_slowest_task)
{
    int64_t c[] = {100, 200, 50};
    Graph *g = mk_graph(3, c);
    edge(g, 0, 1, 0);
    edge(g, 1, 2, 0);
    Arena *a = arena_new();
    PeriodBound pb;
    ck_ratio(bound(g, &pb, a), 200, 1);
    ck_assert_int_eq(pb.ncycle, 1);
    ck_assert_int_eq(pb.cycle[0], 1);
    ck_assert_int_eq(pb.cycle_edges[0], -1);
    arena_free(a);
    ir_graph_free(g);
}
END_TEST

/* t0 (100) -> t1 (200) -> t0 with one delay: the loop, 300 cycles per iteration. */
TEST(a_feedback_loop_is_its_cost_over_its_delay)
{
    int64_t c[] = {100, 200};
    Graph *g = mk_graph(2, c);
    edge(g, 0, 1, 0);
    edge(g, 1, 0, 1);
    Arena *a = arena_new();
    PeriodBound pb;
    ck_ratio(bound(g, &pb, a), 300, 1);
    ck_assert_int_eq(pb.ncycle, 2);
    ck_assert_int_eq(pb.cycle_cycles, 300);
    ck_assert_int_eq(pb.cycle_tokens, 1);
    /* the cycle is t0 -> t1 -> t0 through edges 0 and 1, from either node */
    ck_assert(pb.cycle_edges[0] >= 0 && pb.cycle_edges[1] >= 0);
    ck_assert_int_ne(pb.cycle[0], pb.cycle[1]);
    /* with two delays the loop allows 150, so t1 alone (200) bounds it */
    g->edges[1].delay = 2;
    ck_ratio(bound(g, &pb, a), 200, 1);
    arena_free(a);
    ir_graph_free(g);
}
END_TEST

/* t0 (5) -> t1 (7) -> t2 (9) -> t0 with two delays: 21 / 2 = 10.5 > 9, a fraction. */
TEST(a_bound_can_be_a_fraction)
{
    int64_t c[] = {5, 7, 9};
    Graph *g = mk_graph(3, c);
    edge(g, 0, 1, 0);
    edge(g, 1, 2, 1);
    edge(g, 2, 0, 1);
    Arena *a = arena_new();
    PeriodBound pb;
    ck_ratio(bound(g, &pb, a), 21, 2);
    ck_assert_int_eq(pb.ncycle, 3);
    /* three delays: 7 < 9 */
    g->edges[0].delay = 1;
    ck_ratio(bound(g, &pb, a), 9, 1);
    /* 6/4 reduces to 3/2 */
    int64_t c2[] = {1, 2, 3};
    Graph *h = mk_graph(3, c2);
    edge(h, 0, 1, 1);
    edge(h, 1, 2, 0);
    edge(h, 2, 0, 0);
    ck_ratio(bound(h, &pb, a), 6, 1);
    h->edges[1].delay = 3;
    ck_ratio(bound(h, &pb, a), 3, 1); /* 6 / 4 = 1.5 < the task of 3 */
    for (int i = 0; i < 3; i++)
        h->tasks[i].cycles[0] = 3 * (i + 1) - 2; /* 1, 4, 7: loop 12 / 4 = 3 < 7 */
    ck_ratio(bound(h, &pb, a), 7, 1);
    h->tasks[2].cycles[0] = 1; /* 1, 4, 1: 6 / 4 = 3 / 2 < 4 */
    h->tasks[1].cycles[0] = 1; /* 1, 1, 1: 3 / 4 < 1 */
    ck_ratio(bound(h, &pb, a), 1, 1);
    h->edges[1].delay = 0; /* 3 / 1 */
    h->edges[0].delay = 2; /* 3 / 2 */
    ck_ratio(bound(h, &pb, a), 3, 2);
    ck_assert_int_eq(pb.cycle_cycles, 3);
    ck_assert_int_eq(pb.cycle_tokens, 2);
    arena_free(a);
    ir_graph_free(g);
    ir_graph_free(h);
}
END_TEST

/* Two loops through t0: t0 -> t1 -> t0 (1 delay, 4 + 6 = 10) and t0 -> t2 -> t3 -> t0 (2
 * delays, 4 + 8 + 9 = 21, 10.5); the second wins. */
TEST(the_largest_of_several_loops)
{
    int64_t c[] = {4, 6, 8, 9};
    Graph *g = mk_graph(4, c);
    edge(g, 0, 1, 0);
    edge(g, 1, 0, 1);
    edge(g, 0, 2, 0);
    edge(g, 2, 3, 1);
    edge(g, 3, 0, 1);
    Arena *a = arena_new();
    PeriodBound pb;
    ck_ratio(bound(g, &pb, a), 21, 2);
    ck_assert_int_eq(pb.ncycle, 3);
    g->edges[1].delay = 0;
    g->edges[0].delay = 1;
    g->edges[3].delay = 2; /* 21 / 3 = 7 < 10 */
    ck_ratio(bound(g, &pb, a), 10, 1);
    arena_free(a);
    ir_graph_free(g);
}
END_TEST

/* A task costs its cheapest DSP, or the one it is pinned to. */
TEST(costs_per_dsp_and_pins)
{
    int64_t c[] = {100, 100};
    Graph *g = mk_graph(2, c);
    int64_t *list = arena_array(g->arena, 4, sizeof *list);
    list[0] = 500, list[1] = 300, list[2] = 400, list[3] = 700;
    g->tasks[1].cycles = list;
    g->tasks[1].ncycles = 4;
    edge(g, 0, 1, 0);
    edge(g, 1, 0, 1);
    Arena *a = arena_new();
    PeriodBound pb;
    ck_ratio(bound(g, &pb, a), 400, 1); /* 100 + 300 */
    g->tasks[1].dsp = 3;
    ck_ratio(bound(g, &pb, a), 800, 1); /* 100 + 700 */
    arena_free(a);
    ir_graph_free(g);
}
END_TEST

/* A cycle without delays has no finite period: -1 and the cycle. */
TEST(a_cycle_without_delay_is_refused)
{
    int64_t c[] = {1, 2, 3};
    Graph *g = mk_graph(3, c);
    edge(g, 0, 1, 1);
    edge(g, 1, 2, 0);
    edge(g, 2, 1, 0);
    Arena *a = arena_new();
    PeriodBound pb;
    ck_assert_int_eq(period_bound(g, g->platform, &pb, a), -1);
    ck_assert_int_eq(pb.ncycle, 2);
    ck_assert(pb.cycle_edges[0] >= 1 && pb.cycle_edges[1] >= 1);
    arena_free(a);
    ir_graph_free(g);
}
END_TEST

/* ------------------------------------------------------------------ random graphs */

static uint64_t rng_state;

static uint64_t
rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return rng_state >> 33;
}

typedef struct Arcs {
    int n, m;
    int from[256], to[256];
    int64_t w[256], t[256];
} Arcs;

static void
random_arcs(Arcs *g, int n, int m, int64_t wmax, int tmax)
{
    g->n = n;
    g->m = m;
    for (int e = 0; e < m; e++) {
        g->from[e] = (int)(rnd() % (uint64_t)n);
        g->to[e] = (int)(rnd() % (uint64_t)n);
        g->w[e] = (int64_t)(rnd() % (uint64_t)(wmax + 1));
        g->t[e] = (int64_t)(rnd() % (uint64_t)(tmax + 1));
    }
}

/* Every simple cycle from its lowest node (DFS over arcs to higher nodes): the best
 * ratio, and whether a cycle has no transit. */
typedef struct Enum {
    const Arcs *g;
    int start;
    bool on[16];
    Ratio best;
    bool any, zero;
} Enum;

static void
dfs(Enum *en, int v, int64_t W, int64_t T)
{
    const Arcs *g = en->g;
    for (int e = 0; e < g->m; e++) {
        if (g->from[e] != v)
            continue;
        int u = g->to[e];
        if (u == en->start) {
            int64_t w = W + g->w[e], t = T + g->t[e];
            if (t == 0) {
                en->zero = true;
                continue;
            }
            Ratio r = period_ratio(w, t);
            if (!en->any || period_ratio_cmp(r, en->best) > 0)
                en->best = r;
            en->any = true;
        } else if (u > en->start && !en->on[u]) {
            en->on[u] = true;
            dfs(en, u, W + g->w[e], T + g->t[e]);
            en->on[u] = false;
        }
    }
}

/* The cycle returned is a cycle of the graph whose ratio is the one returned. */
static void
ck_cycle(const Arcs *g, Ratio r, const int *cyc, int ncyc)
{
    ck_assert_int_gt(ncyc, 0);
    int64_t W = 0, T = 0;
    for (int i = 0; i < ncyc; i++) {
        int e = cyc[i], nx = cyc[(i + 1) % ncyc];
        ck_assert_int_eq(g->to[e], g->from[nx]);
        W += g->w[e];
        T += g->t[e];
    }
    ck_assert_int_gt(T, 0);
    Ratio c = period_ratio(W, T);
    ck_assert(c.num == r.num && c.den == r.den);
}

TEST(equals_the_enumeration_of_every_cycle)
{
    rng_state = 12345;
    int with_cycles = 0, refused = 0;
    for (int trial = 0; trial < 3000; trial++) {
        Arcs g;
        int n = 1 + (int)(rnd() % 8), m = (int)(rnd() % 20);
        random_arcs(&g, n, m, trial % 3 == 0 ? 3 : 1000, trial % 2 ? 3 : 1);
        Enum en = {.g = &g};
        for (int s = 0; s < n; s++) {
            en.start = s;
            dfs(&en, s, 0, 0);
        }
        Ratio r;
        int cyc[256], ncyc;
        int rc = period_max_cycle_ratio(n, m, g.from, g.to, g.w, g.t, &r, cyc, &ncyc);
        if (en.zero) {
            ck_assert_int_eq(rc, -1);
            /* the cycle reported has no transit */
            ck_assert_int_gt(ncyc, 0);
            for (int i = 0; i < ncyc; i++) {
                ck_assert_int_eq(g.t[cyc[i]], 0);
                ck_assert_int_eq(g.to[cyc[i]], g.from[cyc[(i + 1) % ncyc]]);
            }
            refused++;
            continue;
        }
        ck_assert_int_eq(rc, 0);
        if (!en.any) {
            ck_assert(r.num == 0 && r.den == 1);
            ck_assert_int_eq(ncyc, 0);
            continue;
        }
        with_cycles++;
        ck_assert_msg(r.num == en.best.num && r.den == en.best.den,
                      "trial %d: %" PRId64 "/%" PRId64 " against %" PRId64 "/%" PRId64,
                      trial, r.num, r.den, en.best.num, en.best.den);
        ck_cycle(&g, r, cyc, ncyc);
    }
    /* the sample must exercise both outcomes */
    ck_assert_int_gt(with_cycles, 600);
    ck_assert_int_gt(refused, 100);
    ck_assert_int_lt(refused, 2000);
}
END_TEST

/* Larger graphs, by certificate: Bellman-Ford (longest paths with weights den w - num t)
 * settles, so no cycle has a ratio above num / den, and the cycle returned has it. */
TEST(no_cycle_beats_the_ratio_on_larger_graphs)
{
    rng_state = 777;
    enum { N = 200, M = 800 };
    int *from = malloc(M * sizeof *from), *to = malloc(M * sizeof *to);
    int64_t *w = malloc(M * sizeof *w), *t = malloc(M * sizeof *t);
    int *cyc = malloc(M * sizeof *cyc);
    i128 *dist = malloc(N * sizeof *dist);
    for (int trial = 0; trial < 40; trial++) {
        int n = 20 + (int)(rnd() % (N - 20)), m = n + (int)(rnd() % (uint64_t)(M - n));
        /* transits >= 1 on arcs that go down in index, so zero-transit arcs form a DAG */
        for (int e = 0; e < m; e++) {
            from[e] = (int)(rnd() % (uint64_t)n);
            to[e] = (int)(rnd() % (uint64_t)n);
            w[e] = (int64_t)(rnd() % (trial % 2 ? 1000000 : 10));
            t[e] = to[e] > from[e] ? (int64_t)(rnd() % 3) : 1 + (int64_t)(rnd() % 4);
        }
        Ratio r;
        int ncyc;
        ck_assert_int_eq(period_max_cycle_ratio(n, m, from, to, w, t, &r, cyc, &ncyc), 0);
        if (ncyc == 0)
            continue;
        int64_t W = 0, T = 0;
        for (int i = 0; i < ncyc; i++) {
            ck_assert_int_eq(to[cyc[i]], from[cyc[(i + 1) % ncyc]]);
            W += w[cyc[i]];
            T += t[cyc[i]];
        }
        Ratio c = period_ratio(W, T);
        ck_assert(c.num == r.num && c.den == r.den);
        for (int u = 0; u < n; u++)
            dist[u] = 0;
        bool settled = false;
        for (int round = 0; round <= n && !settled; round++) {
            settled = true;
            for (int e = 0; e < m; e++) {
                i128 d = dist[from[e]] + (i128)r.den * w[e] - (i128)r.num * t[e];
                if (d > dist[to[e]]) {
                    dist[to[e]] = d;
                    settled = false;
                }
            }
        }
        ck_assert_msg(settled, "trial %d: a cycle above %" PRId64 "/%" PRId64, trial,
                      r.num, r.den);
    }
    free(from);
    free(to);
    free(w);
    free(t);
    free(cyc);
    free(dist);
}
END_TEST

/* 10 000 tasks in a ring of stages with feedback: completes (near-linear), and the bound
 * is the heaviest stage loop, worked out by hand. */
TEST(ten_thousand_tasks)
{
    enum { N = 10000 };
    int64_t *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++)
        c[i] = 1000 + (i % 7);
    Graph *g = ir_graph_new();
    Arena *a = g->arena;
    g->iterations = 10;
    g->platform = plat_preset(a, "bwdsp-1board");
    g->ntasks = N;
    g->tasks = arena_array(a, N, sizeof *g->tasks);
    for (int i = 0; i < N; i++) {
        int64_t *ci = arena_alloc(a, sizeof *ci);
        *ci = c[i];
        g->tasks[i] = (Task){.id = "t", .cycles = ci, .ncycles = 1, .dsp = -1};
    }
    /* a chain, and every 10 tasks a feedback edge of one delay over the last 10 */
    g->edges = arena_array(a, 2 * N, sizeof *g->edges);
    for (int i = 0; i + 1 < N; i++)
        g->edges[g->nedges++] = (Edge){.from = i, .to = i + 1, .bytes = 8, .delay = 0};
    for (int i = 9; i < N; i += 10)
        g->edges[g->nedges++] = (Edge){.from = i, .to = i - 9, .bytes = 8, .delay = 1};
    /* the loop of tasks i-9 .. i costs sum of 1000 + (k % 7); the largest over the loops
     */
    int64_t best = 0;
    for (int i = 9; i < N; i += 10) {
        int64_t s = 0;
        for (int k = i - 9; k <= i; k++)
            s += c[k];
        if (s > best)
            best = s;
    }
    /* and one loop over everything with the delay of the last task's edge to the first */
    PeriodBound pb;
    Arena *b = arena_new();
    ck_ratio(bound(g, &pb, b), best, 1);
    ck_assert_int_eq(pb.ncycle, 10);
    arena_free(b);
    ir_graph_free(g);
    free(c);
}
END_TEST

/* ------------------------------------------------------------------ multi-rate graphs */

static int
rint_(uint64_t *x, int lo, int hi)
{
    return lo + (int)(ir_splitmix64(x) % (uint64_t)(hi - lo + 1));
}

/* The bound of a multi-rate graph is that of its single-rate expansion (each firing a
 * task, the initial tokens as delays between iterations): through the reader, fe_check
 * and fe_expand, as the pass expand does before tgc computes the bound. */
static Ratio
sdf_bound(const char *text, PeriodBound *pb, Arena *a)
{
    Options o = {.limits = ir_default_limits()};
    Diag *d = diag_new();
    Graph *g = fe_load_graph_string(text, "sdf.json", &o, d);
    ck_assert_msg(g, "%s", diag_text(d));
    diag_free(d);
    ck_assert(g->multirate);
    Graph *x = fe_expand(g); /* it shares g's costs and platform: freed first */
    ir_graph_index(x);
    Ratio r = bound(x, pb, a);
    ir_graph_free(x);
    ir_graph_free(g);
    return r;
}

#define SDF_AB(extra)                                                                    \
    "{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", \"cycles\": 10}, "        \
    "{\"id\": "                                                                          \
    "\"b\", \"cycles\": 7}], \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"bytes\": "   \
    "4, "                                                                                \
    "\"produce\": 2, \"consume\": 3}" extra "]}"

/* a (10 cycles) writes 2 tokens a firing, b (7) reads 3: q = (3, 2).  Worked by hand:
 * - alone, each firing is its own task: the slowest firing, 10;
 * - a channel from a to itself with 1 token runs a's 3 firings in order: 30;
 * - with 2 tokens, a[k] waits for a[k - 2]: a[0] -> a[2] -> a[1] -> a[0] crosses 2
 *   iterations for 30 cycles, 15;
 * - b -> a writing 3 and reading 2 with 6 tokens (one iteration): a[1] reads b's tokens
 *   2 and 3 of the previous iteration, that is b[0] and b[1] of it, and b[0] reads a[0]
 *   and a[1]: a[1] -> b[0] -> a[1] over 1 delay, 17; the same given as "delay": 1;
 * - with 12 tokens (two iterations) 17 / 2 < 10: each firing alone again;
 * - a costing 5 with its self channel of 2 tokens: 15 / 2 (b alone is 7). */
TEST(multirate_bounds_by_hand)
{
    Arena *a = arena_new();
    PeriodBound pb;
    ck_ratio(sdf_bound(SDF_AB(""), &pb, a), 10, 1);
    ck_ratio(
        sdf_bound(SDF_AB(", {\"from\": \"a\", \"to\": \"a\", \"tokens\": 1}"), &pb, a),
        30, 1);
    ck_assert_int_eq(pb.ncycle, 3);
    ck_assert_int_eq(pb.cycle_tokens, 1);
    ck_ratio(
        sdf_bound(SDF_AB(", {\"from\": \"a\", \"to\": \"a\", \"tokens\": 2}"), &pb, a),
        15, 1);
    ck_assert_int_eq(pb.ncycle, 3);
    ck_assert_int_eq(pb.cycle_cycles, 30);
    ck_assert_int_eq(pb.cycle_tokens, 2);
    const char *back6 = SDF_AB(", {\"from\": \"b\", \"to\": \"a\", \"produce\": 3, "
                               "\"consume\": 2, \"tokens\": 6}");
    ck_ratio(sdf_bound(back6, &pb, a), 17, 1);
    ck_assert_int_eq(pb.ncycle, 2);
    ck_ratio(sdf_bound(SDF_AB(", {\"from\": \"b\", \"to\": \"a\", \"produce\": 3, "
                              "\"consume\": 2, \"delay\": 1}"),
                       &pb, a),
             17, 1);
    ck_ratio(sdf_bound(SDF_AB(", {\"from\": \"b\", \"to\": \"a\", \"produce\": 3, "
                              "\"consume\": 2, \"tokens\": 12}"),
                       &pb, a),
             10, 1);
    ck_ratio(
        sdf_bound("{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", "
                  "\"cycles\": 5}, {\"id\": \"b\", \"cycles\": 7}], \"edges\": "
                  "[{\"from\": \"a\", \"to\": \"b\", \"produce\": 2, \"consume\": 3}, "
                  "{\"from\": \"a\", \"to\": \"a\", \"tokens\": 2}]}",
                  &pb, a),
        15, 2);
    arena_free(a);
}
END_TEST

/* Random live multi-rate graphs against their self-timed execution, firing by firing on
 * the multi-rate graph itself (not its expansion), with unlimited DSPs and free
 * messages: firing j of an actor starts when the firings that wrote the tokens it reads
 * have finished, and firing j - q[a] too (the same firing of the previous iteration,
 * which the expansion makes the same task, and a task is sequential).  Each firing's
 * finish times grow, past a transient, by exactly Delta every c iterations; the largest
 * Delta / c over the firings is the graph's rate, which must be the bound exactly. */
enum { SDF_N = 2400, SDF_WINDOW = 600, SDF_MAXC = 60 };

typedef struct Sdf {
    int n, m;
    int64_t q[6], cost[6];
    int from[16], to[16];
    int64_t p[16], c[16], t[16];
} Sdf;

static void
random_live_sdf(Sdf *s, uint64_t *x, char *text, size_t size)
{
    s->n = rint_(x, 2, 5);
    s->m = 0;
    for (int a = 0; a < s->n; a++) {
        s->q[a] = rint_(x, 1, 4);
        s->cost[a] = rint_(x, 0, 3) ? rint_(x, 1, 100) : 0;
    }
    int want = rint_(x, s->n - 1, 10);
    for (int e = 0; e < want; e++) {
        /* a chain first (so the graph is connected), then any pair */
        int f = e < s->n - 1 ? e : rint_(x, 0, s->n - 1);
        int to = e < s->n - 1 ? e + 1 : rint_(x, 0, s->n - 1);
        int64_t g = ir_gcd64(s->q[f], s->q[to]);
        int64_t k = rint_(x, 1, 2), p = s->q[to] / g * k, c = s->q[f] / g * k;
        int64_t per = s->q[f] * p, tokens;
        if (f == to)
            tokens = c * rint_(x, 1, 3); /* >= c: live */
        else if (f > to)
            tokens = per * rint_(x, 1, 2) + rint_(x, 0, (int)per); /* >= an iteration */
        else
            tokens = rint_(x, 0, 1) ? 0 : rint_(x, 0, (int)(2 * per));
        s->from[s->m] = f, s->to[s->m] = to, s->p[s->m] = p, s->c[s->m] = c;
        s->t[s->m++] = tokens;
    }
    size_t n = (size_t)snprintf(text, size, "{\"format\": \"tgc-graph/1\", \"tasks\": [");
    for (int a = 0; a < s->n; a++)
        n += (size_t)snprintf(text + n, size - n,
                              "%s{\"id\": \"a%d\", \"cycles\": %" PRId64 "}",
                              a ? ", " : "", a, s->cost[a]);
    n += (size_t)snprintf(text + n, size - n, "], \"edges\": [");
    for (int e = 0; e < s->m; e++)
        n += (size_t)snprintf(
            text + n, size - n,
            "%s{\"from\": \"a%d\", \"to\": \"a%d\", \"produce\": %" PRId64
            ", \"consume\": %" PRId64 ", \"tokens\": %" PRId64 "}",
            e ? ", " : "", s->from[e], s->to[e], s->p[e], s->c[e], s->t[e]);
    snprintf(text + n, size - n, "]}");
    ck_assert(n + 3 < size);
}

/* The self-timed rate of s, exactly, or false when some firing shows no period within
 * the window (the transient is longer). */
static bool
self_timed_rate(const Sdf *s, Ratio *rate)
{
    int64_t *fin[6], done[6] = {0};
    for (int a = 0; a < s->n; a++)
        fin[a] = malloc((size_t)(SDF_N * s->q[a]) * sizeof *fin[a]);
    for (bool moved = true; moved;) {
        moved = false;
        for (int a = 0; a < s->n; a++)
            for (;;) {
                int64_t j = done[a];
                if (j == SDF_N * s->q[a])
                    break;
                int64_t start = j >= s->q[a] ? fin[a][j - s->q[a]] : 0;
                bool ready = true;
                for (int e = 0; e < s->m && ready; e++) {
                    if (s->to[e] != a)
                        continue;
                    /* tokens j c .. j c + c - 1 of the stream; those from t on were
                     * written by firings (k - t) / p of the producer */
                    int64_t lo = j * s->c[e], hi = lo + s->c[e] - 1;
                    if (hi < s->t[e])
                        continue;
                    lo = lo > s->t[e] ? lo : s->t[e];
                    int64_t f0 = (lo - s->t[e]) / s->p[e], f1 = (hi - s->t[e]) / s->p[e];
                    int f = s->from[e];
                    if (f1 >= done[f]) {
                        ready = false;
                        break;
                    }
                    for (int64_t k = f0; k <= f1; k++)
                        start = fin[f][k] > start ? fin[f][k] : start;
                }
                if (!ready)
                    break;
                fin[a][j] = start + s->cost[a];
                done[a]++;
                moved = true;
            }
    }
    bool ok = true;
    *rate = period_ratio(0, 1);
    for (int a = 0; a < s->n && ok; a++) {
        ck_assert_int_eq(done[a], SDF_N * s->q[a]); /* live: every firing ran */
        for (int64_t k = 0; k < s->q[a] && ok; k++) {
            const int64_t *f = fin[a];
            int64_t q = s->q[a];
            bool found = false;
            for (int c = 1; c <= SDF_MAXC && !found; c++) {
                int64_t delta = f[(SDF_N - 1) * q + k] - f[(SDF_N - 1 - c) * q + k];
                found = true;
                for (int64_t n = SDF_N - SDF_WINDOW; n + c < SDF_N && found; n++)
                    found = f[(n + c) * q + k] - f[n * q + k] == delta;
                if (found) {
                    Ratio r = period_ratio(delta, c);
                    if (period_ratio_cmp(r, *rate) > 0)
                        *rate = r;
                }
            }
            ok = found;
        }
    }
    for (int a = 0; a < s->n; a++)
        free(fin[a]);
    return ok;
}

TEST(multirate_bound_is_the_self_timed_rate)
{
    uint64_t x = 4242;
    int compared = 0, skipped = 0, fractions = 0;
    char text[4096];
    for (int i = 0; i < 300; i++) {
        Sdf s;
        random_live_sdf(&s, &x, text, sizeof text);
        Options o = {.limits = ir_default_limits()};
        Diag *d = diag_new();
        Graph *g = fe_load_graph_string(text, "sdf.json", &o, d);
        ck_assert_msg(g, "graph %d: %s\n%s", i, diag_text(d), text);
        diag_free(d);
        /* the drawn q may have a common factor: the repetition vector is fe_check's */
        for (int a = 0; a < s.n; a++)
            s.q[a] = g->repetitions ? g->repetitions[a] : 1;
        Graph *xg = g->multirate ? fe_expand(g) : NULL;
        Graph *h = xg ? xg : g;
        ir_graph_index(h);
        Arena *a = arena_new();
        PeriodBound pb;
        Ratio b = bound(h, &pb, a);
        Ratio r;
        if (self_timed_rate(&s, &r)) {
            ck_assert_msg(period_ratio_cmp(r, b) == 0,
                          "graph %d: self-timed %" PRId64 "/%" PRId64 ", bound %" PRId64
                          "/%" PRId64 "\n%s",
                          i, r.num, r.den, b.num, b.den, text);
            compared++;
            fractions += b.den > 1;
        } else
            skipped++;
        arena_free(a);
        if (xg)
            ir_graph_free(xg);
        ir_graph_free(g);
    }
    /* the sample must mean something: most graphs settle within the window, and some
     * bounds are fractions (a cycle over several iterations' tokens) */
    ck_assert_int_gt(compared, 270);
    ck_assert_int_gt(fractions, 10);
    fprintf(
        stderr,
        "multi-rate: %d graphs compared with their self-timed rate (%d fractions), %d "
        "without a period in the window\n",
        compared, fractions, skipped);
}
END_TEST

/* ------------------------------------------------------------------ the period */

static EvalPeriod
period_of(const Sched *s)
{
    EvalPeriod p;
    ck_assert_int_eq(eval_period_of(s, &p), 0);
    return p;
}

/* DSP d computes the tasks listed in order[d], then comm_insert. */
static Sched *
sched_of(const Graph *g, int nd, const int *const *order, const int *count)
{
    Sched *s = computes(g, nd, order, count);
    comm_insert(s);
    return s;
}

TEST_CASE("period", 120)

/* The worked example of docs/design.md: a (1000) on DSP 0, b (2000) on DSP 1, 64 bytes,
 * blocking; the length is 4564 + 2964 (N - 1) (evaluator.md), so the period is 2964,
 * whatever N, also N = 2 (a run too short to show it: the schedule repeated). */
TEST(the_worked_example_repeats_every_2964_cycles)
{
    int64_t c[] = {1000, 2000};
    for (int64_t n = 1; n <= 300; n += 299) {
        Graph *g = mk_graph(2, c);
        g->iterations = n;
        g->platform->no_contention = n > 1; /* both models: one link each way */
        edge(g, 0, 1, 0);
        ir_graph_index(g);
        int o0[] = {0}, o1[] = {1};
        const int *ord[] = {o0, o1};
        int cnt[] = {1, 1};
        Sched *s = sched_of(g, 2, ord, cnt);
        EvalPeriod p = period_of(s);
        ck_assert(p.found);
        ck_ratio(p.period, 2964, 1);
        ck_assert(p.reached == (n > 1));
        ck_assert_int_gt(p.run, 1000);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST

/* On one DSP a loop runs back to back: its period is its cost, the bound exactly; with
 * the loop on two DSPs the messages' overheads come on top. */
TEST(a_loop_on_one_dsp_meets_its_bound)
{
    int64_t c[] = {700, 1100, 900};
    Graph *g = mk_graph(3, c);
    g->iterations = 50;
    edge(g, 0, 1, 0);
    edge(g, 1, 2, 0);
    edge(g, 2, 0, 1);
    ir_graph_index(g);
    int o0[] = {0, 1, 2};
    const int *ord[] = {o0};
    int cnt[] = {3};
    Sched *s = sched_of(g, 1, ord, cnt);
    EvalPeriod p = period_of(s);
    Arena *a = arena_new();
    PeriodBound pb;
    ck_ratio(bound(g, &pb, a), 2700, 1);
    ck_assert(p.found && p.reached);
    ck_ratio(p.period, 2700, 1);
    ir_sched_free(s);
    int o1[] = {0, 1}, o2[] = {2};
    const int *ord2[] = {o1, o2};
    int cnt2[] = {2, 1};
    s = sched_of(g, 2, ord2, cnt2);
    p = period_of(s);
    ck_assert(p.found);
    ck_assert(period_ratio_cmp(p.period, pb.bound) > 0);
    ir_sched_free(s);
    arena_free(a);
    ir_graph_free(g);
}
END_TEST

/* Random graphs (delays up to 3, feedback), random mappings in topological order, both
 * models, sometimes every receive pipelined: the period is never below the bound, and
 * where the run repeats, one period more adds exactly the period's cycles to the length:
 * L(n + c) - L(n) = Delta once n is past the regime. */
TEST(random_schedules_never_beat_the_bound)
{
    int found = 0, tight = 0, total = 0;
    for (int i = 0; i < 120; i++) {
        uint64_t x = UINT64_C(991) + (uint64_t)i * 7919u;
        GenSpec gs = {.tasks = ir_rand_range(&x, 3, 24),
                      .shape = (GenShape)ir_rand_range(&x, 0, 2),
                      .max_preds = ir_rand_range(&x, 1, 3),
                      .skip = 0.3,
                      .width = ir_rand_range(&x, 2, 4),
                      .cycles_lo = 100,
                      .cycles_hi = ir_rand_range(&x, 300, 9000),
                      .bytes_lo = 8,
                      .bytes_hi = ir_rand_range(&x, 16, 4000),
                      .delay_frac = ir_rand_range(&x, 0, 2) ? 0.25 : 0,
                      .max_delay = ir_rand_range(&x, 1, 3),
                      .iterations = ir_rand_range(&x, 1, 40),
                      .platform =
                          ir_rand_range(&x, 0, 2) == 0 ? "bwdsp-2board" : "bwdsp-1board",
                      .seed = (uint64_t)i + 17};
        Graph *g = gen_graph(&gs, "random");
        ck_assert_ptr_nonnull(g);
        g->platform->no_contention = i % 2;
        int nd = ir_rand_range(&x, 1, g->platform->ndsps);
        Sched *s = ir_sched_new(g, g->platform);
        for (int t = 0; t < g->ntasks; t++) {
            int task = g->topo[t], d = ir_rand_range(&x, 0, nd - 1);
            s->map[task] = d;
            ir_sched_push_op(s, d, OP_COMPUTE, task);
        }
        comm_insert(s);
        if (i % 3 == 0)
            for (int m = 0; m < s->nmsgs; m++)
                s->msgs[m].pipelined = true;
        Evaluator *ev = eval_new(g, g->platform);
        if (eval_length(ev, s) < 0) { /* comm_insert's exception (delay edges) */
            eval_free(ev);
            ir_sched_free(s);
            ir_graph_free(g);
            continue;
        }
        total++;
        EvalPeriod p;
        ck_assert_int_eq(eval_period(ev, s, &p), 0);
        Arena *a = arena_new();
        PeriodBound pb;
        ck_assert_int_eq(period_bound(g, g->platform, &pb, a), 0);
        if (p.found) {
            found++;
            ck_assert_msg(period_ratio_cmp(p.period, pb.bound) >= 0,
                          "graph %d: period %" PRId64 "/%" PRId64
                          " below the bound %" PRId64 "/%" PRId64,
                          i, p.period.num, p.period.den, pb.bound.num, pb.bound.den);
            tight += period_ratio_cmp(p.period, pb.bound) == 0;
            /* one period more: exactly Delta more cycles */
            int md = 0;
            for (int e = 0; e < g->nedges; e++)
                md = g->edges[e].delay > md ? g->edges[e].delay : md;
            int64_t n = p.from + 3 * p.iterations + md + 8;
            g->iterations = n;
            int64_t l1 = eval_length(ev, s);
            g->iterations = n + p.iterations;
            int64_t l2 = eval_length(ev, s);
            ck_assert_msg(l2 - l1 == p.cycles,
                          "graph %d: L(%" PRId64 ") = %" PRId64 ", L(+%" PRId64
                          ") = %" PRId64 ", period %" PRId64 " cycles",
                          i, n, l1, p.iterations, l2, p.cycles);
            /* the eval_length workspace answers the same period again (no memo of it) */
            EvalPeriod q;
            ck_assert_int_eq(eval_period(ev, s, &q), 0);
            ck_assert(q.found && period_ratio_cmp(q.period, p.period) == 0);
        }
        arena_free(a);
        eval_free(ev);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    /* the sample must mean something: most schedules repeat */
    ck_assert_int_gt(total, 80);
    ck_assert_int_gt(found, total * 9 / 10);
    fprintf(stderr, "period: %d schedules, %d periodic, %d at their bound\n", total,
            found, tight);
}
END_TEST
