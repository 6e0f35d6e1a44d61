/* tests/check_schedule.c - the scheduler: HEFT and PEFT against the published examples of
 * [HEFT] and [PEFT] (docs/references.md), pinned and heterogeneous tasks, the local
 * search over all iterations (a 4-stage pipeline), determinism. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "ir.h"

/* A graph of n tasks with per-DSP costs c[t][0..ncyc) and edges {from, to, bytes}. */
static Graph *
mk_graph(int n, int ncyc, const int64_t *c, int ne, int (*e)[3])
{
    Graph *g = ir_graph_new();
    g->name = "test";
    g->file = "<test>";
    g->ntasks = n;
    g->tasks = arena_array(g->arena, (size_t)n, sizeof *g->tasks);
    for (int t = 0; t < n; t++) {
        Task *k = &g->tasks[t];
        k->id = arena_printf(g->arena, "T%d", t);
        k->ncycles = ncyc;
        k->cycles = arena_array(g->arena, (size_t)ncyc, sizeof *k->cycles);
        memcpy(k->cycles, c + (size_t)t * ncyc, (size_t)ncyc * sizeof *k->cycles);
        k->dsp = -1;
    }
    g->nedges = ne;
    g->edges = arena_array(g->arena, (size_t)ne + 1, sizeof *g->edges);
    for (int i = 0; i < ne; i++)
        g->edges[i] =
            (Edge){.from = e[i][0], .to = e[i][1], .bytes = e[i][2], .delay = 0};
    return g;
}

/* Start of task t in the list schedule: recomputed like sched_list_makespan, by running
 * the DSP orders (the tests give the published start times). */
static void
list_times(const Sched *s, int64_t *st, int64_t *fin)
{
    const Graph *g = s->g;
    int *pc = calloc((size_t)s->ndsps, sizeof *pc);
    int64_t *avail = calloc((size_t)s->ndsps, sizeof *avail);
    char *done = calloc((size_t)g->ntasks, 1);
    for (int progress = 1; progress;) {
        progress = 0;
        for (int d = 0; d < s->ndsps; d++)
            while (pc[d] < s->nops[d]) {
                Op o = s->ops[d][pc[d]];
                if (o.kind != OP_COMPUTE) {
                    pc[d]++;
                    continue;
                }
                int64_t r = avail[d];
                int ok = 1;
                for (int j = g->pred_off[o.ref]; j < g->pred_off[o.ref + 1]; j++) {
                    const Edge *e = &g->edges[g->pred[j]];
                    if (e->delay)
                        continue;
                    if (!done[e->from])
                        ok = 0;
                    else if (fin[e->from] +
                                 plat_comm_cost(s->p, s->map[e->from], d, e->bytes) >
                             r)
                        r = fin[e->from] +
                            plat_comm_cost(s->p, s->map[e->from], d, e->bytes);
                }
                if (!ok)
                    break;
                st[o.ref] = r;
                fin[o.ref] = r + ir_task_cycles(&g->tasks[o.ref], d);
                avail[d] = fin[o.ref];
                done[o.ref] = 1;
                pc[d]++;
                progress = 1;
            }
    }
    free(pc);
    free(avail);
    free(done);
}

/* ---- Topcuoglu, Hariri, Wu 2002, Fig. 2 ---- */

static const int64_t topc_cost[10 * 3] = {
    14, 16, 9, 13, 19, 18, 11, 13, 19, 13, 8,  17, 12, 13, 10,
    13, 16, 9, 7,  15, 11, 5,  11, 14, 18, 12, 20, 21, 7,  16,
};
static int topc_edges[15][3] = {
    {0, 1, 18}, {0, 2, 12}, {0, 3, 9},  {0, 4, 11}, {0, 5, 14},
    {1, 7, 19}, {1, 8, 16}, {2, 6, 23}, {3, 7, 27}, {3, 8, 23},
    {4, 8, 13}, {5, 7, 15}, {6, 9, 17}, {7, 9, 11}, {8, 9, 13},
};

/* A graph of 10 tasks on 3 DSPs of the abstract model (costs per DSP, 15 edges), as
 * the papers draw them. */
static Graph *
paper_graph(const int64_t *cost, int (*edges)[3], Platform **p)
{
    Graph *g = mk_graph(10, 3, cost, 15, edges);
    *p = plat_abstract(g->arena, 3);
    plat_finish(g->arena, *p);
    g->platform = *p;
    ck_assert_int_eq(ir_graph_index(g), 0);
    return g;
}

static Graph *
topcuoglu(Platform **p)
{
    return paper_graph(topc_cost, topc_edges, p);
}

TEST_CASE("list", 0)

TEST(heft_topcuoglu_ranks_and_makespan_80)
{
    Platform *p;
    Graph *g = topcuoglu(&p);
    Diag *d = diag_new();
    Sched *s;
    double rank[10];
    int64_t span;
    ck_assert_int_eq(sched_heft(g, p, &s, rank, &span, d), 0);
    const double want[10] = {108, 77, 80, 80, 69, 63.333, 42.667, 35.667, 44.333, 14.667};
    for (int t = 0; t < 10; t++)
        ck_assert_double_eq_tol(rank[t], want[t], 1e-3);
    ck_assert_int_eq(span, 80);
    ck_assert_int_eq(sched_list_makespan(s), 80);

    /* The published placement: P0: T1 [27,40], T7 [57,62]; P1: T3 [18,26], T5 [26,42],
     * T8 [56,68], T9 [73,80]; P2: T0 [0,9], T2 [9,28], T4 [28,38], T6 [38,49]. */
    const int order[3][5] = {{1, 7, -1}, {3, 5, 8, 9, -1}, {0, 2, 4, 6, -1}};
    const int64_t start[10] = {0, 27, 9, 18, 28, 26, 38, 57, 56, 73};
    const int64_t finish[10] = {9, 40, 28, 26, 38, 42, 49, 62, 68, 80};
    int64_t st[10], fin[10];
    list_times(s, st, fin);
    for (int dsp = 0; dsp < 3; dsp++) {
        int k = 0;
        for (; order[dsp][k] >= 0; k++) {
            ck_assert_int_eq(s->ops[dsp][k].kind, OP_COMPUTE);
            ck_assert_int_eq(s->ops[dsp][k].ref, order[dsp][k]);
            ck_assert_int_eq(s->map[order[dsp][k]], dsp);
        }
        ck_assert_int_eq(s->nops[dsp], k);
    }
    for (int t = 0; t < 10; t++) {
        ck_assert_int_eq(st[t], start[t]);
        ck_assert_int_eq(fin[t], finish[t]);
    }
    ir_sched_free(s);
    diag_free(d);
    ir_graph_free(g);
}
END_TEST

/* ---- Arabnejad, Barbosa 2014, sample DAG ---- */

static const int64_t peft_cost[10 * 3] = {
    22, 21, 36, 22, 18, 18, 32, 27, 43, 7,  10, 4, 29, 27, 35,
    26, 17, 24, 14, 25, 30, 29, 23, 36, 15, 21, 8, 13, 16, 33,
};
static int peft_edges[15][3] = {
    {0, 1, 17}, {0, 2, 31}, {0, 3, 29}, {0, 4, 13}, {0, 5, 7},
    {1, 7, 3},  {1, 8, 30}, {2, 6, 16}, {3, 7, 11}, {3, 8, 7},
    {4, 8, 57}, {5, 7, 5},  {6, 9, 9},  {7, 9, 42}, {8, 9, 7},
};

static Graph *
peft_graph(Platform **p)
{
    return paper_graph(peft_cost, peft_edges, p);
}

TEST(heft_on_the_peft_graph_gives_133)
{
    Platform *p;
    Graph *g = peft_graph(&p);
    Diag *d = diag_new();
    Sched *s;
    int64_t span;
    ck_assert_int_eq(sched_heft(g, p, &s, NULL, &span, d), 0);
    ck_assert_int_eq(span, 133);
    ck_assert_int_eq(sched_list_makespan(s), 133);
    ir_sched_free(s);
    diag_free(d);
    ir_graph_free(g);
}
END_TEST

TEST(peft_oct_and_makespan_122)
{
    Platform *p;
    Graph *g = peft_graph(&p);
    Diag *d = diag_new();
    double oct[30];
    ck_assert_int_eq(sched_oct(g, p, oct), 0);
    const double want[30] = {64, 68, 86, 42, 39, 42, 27, 41, 43, 42, 39, 50, 28, 37, 28,
                             42, 39, 44, 13, 16, 22, 13, 16, 33, 13, 16, 20, 0,  0,  0};
    for (int i = 0; i < 30; i++)
        ck_assert_double_eq_tol(oct[i], want[i], 1e-9);
    Sched *s;
    int64_t span;
    ck_assert_int_eq(sched_peft(g, p, &s, NULL, &span, d), 0);
    ck_assert_int_eq(span, 122);
    ck_assert_int_eq(sched_list_makespan(s), 122);
    /* The paper's schedule. */
    const int order[3][6] = {{0, 3, 1, 2, 6, -1}, {5, 7, 9, -1}, {4, 8, -1}};
    const int64_t start[10] = {0, 29, 51, 22, 35, 29, 83, 54, 81, 106};
    int64_t st[10], fin[10];
    list_times(s, st, fin);
    for (int dsp = 0; dsp < 3; dsp++) {
        int k = 0;
        for (; order[dsp][k] >= 0; k++)
            ck_assert_int_eq(s->ops[dsp][k].ref, order[dsp][k]);
        ck_assert_int_eq(s->nops[dsp], k);
    }
    for (int t = 0; t < 10; t++)
        ck_assert_int_eq(st[t], start[t]);
    ir_sched_free(s);
    diag_free(d);
    ir_graph_free(g);
}
END_TEST

TEST(pinned_tasks_stay_on_their_dsp)
{
    Platform *p;
    Graph *g = topcuoglu(&p);
    g->tasks[0].dsp = 0; /* HEFT puts T0 on P2 */
    g->tasks[9].dsp = 2; /* and T9 on P1 */
    Diag *d = diag_new();
    Sched *s;
    int64_t span;
    ck_assert_int_eq(sched_heft(g, p, &s, NULL, &span, d), 0);
    ck_assert_int_eq(s->map[0], 0);
    ck_assert_int_eq(s->map[9], 2);
    ck_assert_int_eq(sched_list_makespan(s), span);
    ck_assert_int_gt(span, 80);
    ir_sched_free(s);

    /* Every task pinned: the mapping is the input's, only the order is chosen. */
    for (int t = 0; t < 10; t++)
        g->tasks[t].dsp = (t * 7) % 3;
    ck_assert_int_eq(sched_peft(g, p, &s, NULL, &span, d), 0);
    for (int t = 0; t < 10; t++)
        ck_assert_int_eq(s->map[t], (t * 7) % 3);
    ck_assert_int_eq(sched_list_makespan(s), span);
    ir_sched_free(s);

    g->tasks[3].dsp = 3;
    ck_assert_int_eq(sched_heft(g, p, &s, NULL, &span, d), -1);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(
        diag_text(d),
        "<test>: error: task \"T3\" is pinned to DSP 3, the platform has 3\n");
    diag_free(d);
    ir_graph_free(g);
}
END_TEST

TEST(heterogeneous_costs_choose_the_fast_dsp)
{
    /* Three independent tasks, each fast on a different DSP; one slow everywhere else. */
    const int64_t c[3 * 3] = {10, 100, 100, 100, 10, 100, 100, 100, 10};
    int e[1][3] = {{0, 0, 0}};
    Graph *g = mk_graph(3, 3, c, 0, e);
    Platform *p = plat_abstract(g->arena, 3);
    g->platform = p;
    ck_assert_int_eq(ir_graph_index(g), 0);
    Diag *d = diag_new();
    Sched *s;
    int64_t span;
    ck_assert_int_eq(sched_heft(g, p, &s, NULL, &span, d), 0);
    for (int t = 0; t < 3; t++)
        ck_assert_int_eq(s->map[t], t);
    ck_assert_int_eq(span, 10);
    ir_sched_free(s);
    /* A cost list of the wrong size is an error, not a crash. */
    g->tasks[1].ncycles = 2;
    ck_assert_int_eq(sched_heft(g, p, &s, NULL, &span, d), -1);
    ck_assert_str_eq(
        diag_text(d),
        "<test>: error: task \"T1\" gives 2 costs, the platform has 3 DSPs\n");
    diag_free(d);
    ir_graph_free(g);
}
END_TEST

TEST(heft_is_deterministic)
{
    /* A random layered graph, scheduled twice from two separately built copies. */
    enum { N = 60 };
    int64_t c[N * 4];
    int e[N * 3][3], ne = 0;
    uint64_t r = 12345;
    for (int t = 0; t < N; t++) {
        for (int k = 0; k < 4; k++) {
            r = r * 6364136223846793005u + 1442695040888963407u;
            c[t * 4 + k] = 5 + (int64_t)((r >> 33) % 20);
        }
        for (int j = 0; j < 3 && t > 0; j++) {
            r = r * 6364136223846793005u + 1442695040888963407u;
            int from = (int)((r >> 33) % (uint64_t)t);
            e[ne][0] = from;
            e[ne][1] = t;
            e[ne][2] = (int)((r >> 20) % 15);
            ne++;
        }
    }
    Sched *s[2];
    Graph *g[2];
    Diag *d = diag_new();
    for (int i = 0; i < 2; i++) {
        g[i] = mk_graph(N, 4, c, ne, e);
        Platform *p = plat_abstract(g[i]->arena, 4);
        g[i]->platform = p;
        ck_assert_int_eq(ir_graph_index(g[i]), 0);
        ck_assert_int_eq(sched_heft(g[i], p, &s[i], NULL, NULL, d), 0);
    }
    ck_assert_int_eq(memcmp(s[0]->map, s[1]->map, N * sizeof(int)), 0);
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(s[0]->nops[k], s[1]->nops[k]);
        ck_assert_int_eq(
            memcmp(s[0]->ops[k], s[1]->ops[k], (size_t)s[0]->nops[k] * sizeof(Op)), 0);
    }
    for (int i = 0; i < 2; i++) {
        ir_sched_free(s[i]);
        ir_graph_free(g[i]);
    }
    diag_free(d);
}
END_TEST

/* ---- the local search over all iterations ---- */

/* A chain of n stages of `cycles` each joined by edges of `bytes`, on platform `plat`. */
static Graph *
chain(int n, int64_t cycles, int bytes, int64_t iterations, const char *plat)
{
    int64_t c[16];
    int e[16][3];
    for (int t = 0; t < n; t++)
        c[t] = cycles;
    for (int t = 0; t + 1 < n; t++) {
        e[t][0] = t;
        e[t][1] = t + 1;
        e[t][2] = bytes;
    }
    Graph *g = mk_graph(n, 1, c, n - 1, e);
    g->iterations = iterations;
    g->platform = plat_preset(g->arena, plat);
    ck_assert_int_eq(ir_graph_index(g), 0);
    return g;
}

static Sched *
schedule_opts(Graph *g, int64_t budget, bool plain)
{
    Options opt = {.search_budget = budget, .search_plain = plain};
    Unit u = {.g = g, .p = g->platform, .opt = &opt};
    Diag *d = diag_new();
    ck_assert_int_eq(pass_schedule(&u, d), 0);
    ck_assert_int_eq(ir_sched_verify(u.s, d), 0);
    diag_free(d);
    /* The search returns its schedule as comm_insert leaves it: nothing pipelined. */
    for (int m = 0; m < u.s->nmsgs; m++)
        ck_assert(!u.s->msgs[m].pipelined);
    return u.s;
}

static Sched *
schedule_with_budget(Graph *g, int64_t budget)
{
    return schedule_opts(g, budget, false);
}

/* The length of s after the optimizer's cp baseline (every receive that can be is
 * pipelined), through opt_run itself: what the default objective anticipates. */
static int64_t
cp_length_of(const Sched *s, int *npipelined)
{
    Diag *d = diag_new();
    Sched *out;
    OptStats st;
    ck_assert_int_eq(opt_run(s, OPT_CP, NULL, &out, &st, d), 0);
    ck_assert_int_eq(st.length, eval_length_of(out));
    if (npipelined)
        *npipelined = st.pipelined;
    ir_sched_free(out);
    diag_free(d);
    return st.length;
}

/* The local search's objective: plain, or the shorter of plain and after cp. */
static int64_t
objective_of(const Sched *s, bool plain)
{
    int64_t len = eval_length_of(s);
    if (plain)
        return len;
    int64_t cp = cp_length_of(s, NULL);
    return cp < len ? cp : len;
}

/* The chain under mapping map[] (its only order), messages by comm_insert. */
static Sched *
chain_sched(const Graph *g, const int *map)
{
    Sched *s = ir_sched_new(g, g->platform);
    for (int t = 0; t < g->ntasks; t++) {
        s->map[t] = map[t];
        ir_sched_push_op(s, map[t], OP_COMPUTE, t);
    }
    comm_insert(s);
    return s;
}

static int64_t
chain_length(const Graph *g, const int *map)
{
    Sched *s = chain_sched(g, map);
    int64_t len = eval_length_of(s);
    ir_sched_free(s);
    return len;
}

/* The best objective over every mapping of the 4-stage chain that respects the pins. */
static int64_t
chain_best(const Graph *g, bool plain)
{
    int64_t best = INT64_MAX;
    for (int code = 0; code < 256; code++) {
        int map[4];
        bool ok = true;
        for (int t = 0; t < 4; t++) {
            map[t] = (code >> (2 * t)) & 3;
            ok &= g->tasks[t].dsp < 0 || g->tasks[t].dsp == map[t];
        }
        if (!ok)
            continue;
        Sched *s = chain_sched(g, map);
        int64_t len = objective_of(s, plain);
        ir_sched_free(s);
        if (len > 0 && len < best)
            best = len;
    }
    return best;
}

static int
dsps_used(const Sched *s)
{
    int n = 0;
    bool used[64] = {false};
    for (int t = 0; t < s->g->ntasks; t++) {
        n += !used[s->map[t]];
        used[s->map[t]] = true;
    }
    return n;
}

TEST_CASE("search", 0)

TEST(pipeline_chain_is_spread_over_the_dsps)
{
    Graph *g = chain(4, 3000, 2000, 100, "bwdsp-1board");
    const Platform *p = g->platform;

    /* HEFT alone sees one iteration: a message (3650 cycles) costs more than a stage, so
     * it keeps the chain on one DSP and the graph takes 100 x 12000 cycles. */
    Sched *h = schedule_with_budget(g, 0);
    for (int t = 1; t < 4; t++)
        ck_assert_int_eq(h->map[t], h->map[0]);
    ck_assert_int_eq(eval_length_of(h), 100 * 12000);

    /* One stage per DSP, blocking receives.  Bound: a middle stage's DSP, per iteration,
     * receives (waiting at most for the previous stage, recv_overhead), computes, sends
     * (send_overhead) and, before computing again, waits for its transfer (handshake +
     * fabric): the steady period is at most 3000 + 400 + 600 + 300 + fabric(2000) = 6650
     * cycles; fill and drain add at most one period per further stage. */
    int64_t fabric = plat_fabric_time(p, 0, 1, 2000);
    int64_t period = 3000 + p->recv_overhead + p->send_overhead + p->handshake + fabric;
    ck_assert_int_eq(period, 6650);
    const int spread[4] = {0, 1, 2, 3};
    int64_t one_each = chain_length(g, spread);
    ck_assert_int_le(one_each, 100 * period + 3 * period);

    /* The default objective judges a mapping by what the optimizer makes of it: one
     * stage per DSP, every receive pipelined, is the best of all 256 mappings. */
    Sched *s = schedule_with_budget(g, -1);
    ck_assert_int_eq(dsps_used(s), 4);
    ck_assert_int_eq(s->nmsgs, 3);
    int npiped;
    int64_t piped = cp_length_of(s, &npiped);
    ck_assert_int_eq(npiped, 3);
    ck_assert_int_eq(piped, chain_best(g, false));
    ck_assert_int_lt(piped, eval_length_of(s));

    /* Its length with every receive pipelined, on paper.  Stage k's DSP computes
     * iteration i at c_k(i).  Zero copy: c_k(i + 1) >= arrival of its own transfer of
     * iteration i = c_k(i) + 3000 + send_overhead + handshake + fabric (the receiver
     * posted one iteration ahead, so nothing waits for the post): the period is
     *   T = 3000 + 600 + 300 + 2350 = 6250 = the slowest (every) stage's period;
     * the pipelined receive of stage k + 1 (wait_overhead 200 + the next post 300 = 500)
     * fits in the 2650 cycles its DSP waits for its own transfer, so c_k(i) = c_k-1(i) +
     * H with the hop H = 3000 + 600 + 2650 + 500 = 6750 (fill), and the last stage
     * finishes at c_3(99) + 3000 = 99 T + 3 H + 3000, less the post_overhead the last
     * receive does not make: 618750 + 20250 + 3000 - 300 = 641700.  Bound: 100 T (the
     * iterations at the slowest stage's period) plus 3 H (fill and drain). */
    int64_t T = 3000 + p->send_overhead + p->handshake + fabric;
    int64_t H = T + p->wait_overhead + p->post_overhead;
    ck_assert_int_eq(T, 6250);
    ck_assert_int_eq(H, 6750);
    ck_assert_int_le(piped, 100 * T + 3 * H);
    ck_assert_int_ge(piped, 99 * T);
    ck_assert_int_eq(piped, 99 * T + 3 * H + 3000 - p->post_overhead);

    /* The plain objective (--search-objective=plain) keeps the old answer: as comm_insert
     * leaves them, the per-message overheads make two stages on one DSP (a message less)
     * 0.5% shorter than one stage per DSP, the best of all 256 mappings without
     * pipelines.  Both objectives are far below 100 x 12000. */
    Sched *sp = schedule_opts(g, -1, true);
    int64_t plain = eval_length_of(sp);
    ck_assert_int_eq(plain, chain_best(g, true));
    ck_assert_int_eq(dsps_used(sp), 3);
    ck_assert_int_lt(plain, one_each);
    ck_assert_int_lt(piped, plain);
    ck_assert_int_ge(plain, 100 * 3000);
    ck_assert_int_lt(plain, 100 * 12000 * 6 / 10);
    ir_sched_free(sp);
    ir_sched_free(h);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

TEST(pipeline_of_heavy_stages_gets_one_stage_per_dsp)
{
    /* Stages of 30000 cycles: the messages' overheads no longer matter and the search
     * puts one stage on each DSP, with about 100 x the slowest stage plus fill and drain,
     * under both objectives. */
    Graph *g = chain(4, 30000, 2000, 100, "bwdsp-1board");
    const Platform *p = g->platform;
    int64_t period = 30000 + p->recv_overhead + p->send_overhead + p->handshake +
                     plat_fabric_time(p, 0, 1, 2000);
    for (int plain = 0; plain <= 1; plain++) {
        Sched *s = schedule_opts(g, -1, plain);
        ck_assert_int_eq(dsps_used(s), 4);
        ck_assert_int_le(eval_length_of(s), 100 * period + 3 * period);
        ck_assert_int_eq(objective_of(s, plain), chain_best(g, plain));
        ir_sched_free(s);
    }
    ir_graph_free(g);
}
END_TEST

TEST(search_never_moves_pinned_tasks)
{
    Graph *g = chain(4, 3000, 2000, 100, "bwdsp-1board");
    g->tasks[0].dsp = 2;
    g->tasks[3].dsp = 1;
    for (int plain = 0; plain <= 1; plain++) {
        Sched *s = schedule_opts(g, -1, plain);
        ck_assert_int_eq(s->map[0], 2);
        ck_assert_int_eq(s->map[3], 1);
        int64_t len = objective_of(s, plain);
        ck_assert_int_lt(len, 100 * 12000 * 6 / 10);
        ck_assert_int_eq(len, chain_best(g, plain));
        ir_sched_free(s);
    }

    /* First and last stage on one DSP: every split makes that DSP wait for the whole
     * chain in each iteration (a round trip), so keeping all four together is best. */
    g->tasks[3].dsp = 2;
    for (int plain = 0; plain <= 1; plain++) {
        Sched *s = schedule_opts(g, -1, plain);
        ck_assert_int_eq(s->map[0], 2);
        ck_assert_int_eq(s->map[3], 2);
        ck_assert_int_eq(objective_of(s, plain), chain_best(g, plain));
        ir_sched_free(s);
    }
    ir_graph_free(g);
}
END_TEST

TEST(search_is_deterministic_and_within_budget)
{
    /* The random graph of heft_is_deterministic on a real platform, many iterations. */
    enum { N = 40 };
    int64_t c[N];
    int e[N * 2][3], ne = 0;
    uint64_t r = 777;
    for (int t = 0; t < N; t++) {
        r = r * 6364136223846793005u + 1442695040888963407u;
        c[t] = 500 + (int64_t)((r >> 33) % 4000);
        for (int j = 0; j < 2 && t > 0; j++) {
            r = r * 6364136223846793005u + 1442695040888963407u;
            e[ne][0] = (int)((r >> 33) % (uint64_t)t);
            e[ne][1] = t;
            e[ne][2] = (int)((r >> 20) % 3000);
            ne++;
        }
    }
    Sched *s[2];
    Graph *g[2];
    for (int i = 0; i < 2; i++) {
        g[i] = mk_graph(N, 1, c, ne, e);
        g[i]->iterations = 50;
        g[i]->platform = plat_preset(g[i]->arena, "bwdsp-2board");
        ck_assert_int_eq(ir_graph_index(g[i]), 0);
        s[i] = schedule_with_budget(g[i], 300);
    }
    ck_assert_int_eq(memcmp(s[0]->map, s[1]->map, N * sizeof(int)), 0);
    ck_assert_int_eq(s[0]->nmsgs, s[1]->nmsgs);
    for (int k = 0; k < s[0]->ndsps; k++) {
        ck_assert_int_eq(s[0]->nops[k], s[1]->nops[k]);
        ck_assert_int_eq(
            memcmp(s[0]->ops[k], s[1]->ops[k], (size_t)s[0]->nops[k] * sizeof(Op)), 0);
    }
    /* Never worse than HEFT under the objective searched (the default: the shorter of
     * the length as built and after cp). */
    Sched *h = schedule_with_budget(g[0], 0);
    ck_assert_int_le(objective_of(s[0], false), objective_of(h, false));
    ck_assert_int_gt(eval_length_of(s[0]), 0);
    ir_sched_free(h);
    for (int i = 0; i < 2; i++) {
        ir_sched_free(s[i]);
        ir_graph_free(g[i]);
    }
}
END_TEST

TEST(search_budget_defaults)
{
    Graph *g = chain(4, 3000, 2000, 1, "bwdsp-1board");
    /* one iteration: about 1.5e6 steps / (tasks + 2 edges), halved for the pipelined
     * objective (two evaluations when a message is not eager), within [200, 20000] */
    ck_assert_int_eq(sched_default_budget(g, true), 20000);
    Graph *big = chain(16, 3000, 2000, 1, "bwdsp-1board");
    ck_assert_int_eq(sched_default_budget(big, true), 20000); /* 32608, capped */
    ck_assert_int_eq(sched_default_budget(big, false), 1500000 / 46 / 2);
    ir_graph_free(big);
    g->iterations = 100;
    ck_assert_int_gt(sched_default_budget(g, false), 0);
    /* Where the evaluator's work, not the cap, sets the budget, a candidate of the
     * pipelined objective (two evaluations) counts twice. */
    ck_assert_int_eq(sched_default_budget(g, true), 4000);
    g->iterations = 1000000;
    ck_assert_int_lt(sched_default_budget(g, false), sched_default_budget(g, true));
    ck_assert_int_ge(sched_default_budget(g, false), 4);
    /* An explicit budget with one iteration improves the single-iteration makespan: on
     * the Topcuoglu graph the search starts from HEFT's 80 and may only get shorter. */
    Platform *p;
    Graph *t = topcuoglu(&p);
    Sched *s = schedule_with_budget(t, 200);
    ck_assert_int_le(eval_length_of(s), 80);
    ck_assert_int_eq(eval_length_of(s), sched_list_makespan(s));
    ir_sched_free(s);
    ir_graph_free(t);
    ir_graph_free(g);
}
END_TEST

TEST(delay_edges_are_no_precedence_and_never_deadlock)
{
    /* The chain with a feedback edge s3 -> s0 of delay 1 (the next iteration's input). */
    int64_t c[4] = {3000, 3000, 3000, 3000};
    int e[4][3] = {{0, 1, 2000}, {1, 2, 2000}, {2, 3, 2000}, {3, 0, 64}};
    Graph *g = mk_graph(4, 1, c, 4, e);
    g->edges[3].delay = 1;
    g->iterations = 100;
    g->platform = plat_preset(g->arena, "bwdsp-1board");
    ck_assert_int_eq(ir_graph_index(g), 0);
    Diag *d = diag_new();
    Sched *h;
    double rank[4];
    ck_assert_int_eq(sched_heft(g, g->platform, &h, rank, NULL, d), 0);
    /* The delay edge adds nothing to s3's rank: it is an exit within the iteration. */
    ck_assert_double_eq_tol(rank[3], 3000, 1e-9);
    ck_assert_int_eq(h->nops[h->map[0]], 4);
    ir_sched_free(h);
    /* Every schedule the search keeps has been evaluated without deadlock. */
    Sched *s = schedule_with_budget(g, -1);
    int64_t len = eval_length_of(s);
    ck_assert_int_gt(len, 0);
    ck_assert_int_le(len, 100 * 12000);
    ir_sched_free(s);
    diag_free(d);
    ir_graph_free(g);
}
END_TEST

/* ---- the screen of lower bounds: the same search, fewer contended evaluations ---- */

static uint64_t
lcg(uint64_t *r)
{
    *r = *r * 6364136223846793005u + 1442695040888963407u;
    return *r >> 33;
}

/* Seeded random graph i for the screen: 8 to 23 tasks of 200..6000 cycles, forward edges
 * of 0..6000 bytes, a delay edge (1 or 2) back every few graphs, some tasks pinned, 1 to
 * 12 iterations, on one or two boards or the abstract model; contention off, eager
 * messages up to 1000 bytes or a DSP memory too small for every pipeline on some. */
static Graph *
screen_graph(int i)
{
    uint64_t r = (uint64_t)i * 2654435761u + 99;
    int n = 8 + (int)(lcg(&r) % 16);
    int64_t c[24];
    int e[96][3], ne = 0, delay[96];
    for (int t = 0; t < n; t++) {
        c[t] = 200 + (int64_t)(lcg(&r) % 5800);
        for (int k = 0; k < 3 && t > 0 && ne < 90; k++)
            if (lcg(&r) % 4 != 0) {
                e[ne][0] = (int)(lcg(&r) % (uint64_t)t);
                e[ne][1] = t;
                e[ne][2] = (int)(lcg(&r) % 6001);
                delay[ne++] = 0;
            }
    }
    if (i % 3 != 0) { /* feedback: a later task to an earlier one, a later iteration */
        int to = (int)(lcg(&r) % (uint64_t)(n / 2)), from = n / 2 + to;
        e[ne][0] = from;
        e[ne][1] = to;
        e[ne][2] = 64 + (int)(lcg(&r) % 2000);
        delay[ne++] = 1 + i % 2;
    }
    Graph *g = mk_graph(n, 1, c, ne, e);
    for (int k = 0; k < ne; k++)
        g->edges[k].delay = delay[k];
    static const char *const plats[] = {"bwdsp-1board", "bwdsp-2board", "bwdsp-1board",
                                        "abstract"};
    const char *pn = plats[i % 4];
    Platform *p = strcmp(pn, "abstract") == 0 ? plat_abstract(g->arena, 3)
                                              : plat_preset(g->arena, pn);
    if (strcmp(pn, "abstract") == 0)
        plat_finish(g->arena, p);
    p->no_contention = i % 5 == 4;
    if (i % 7 == 3)
        p->eager_limit = 1000;
    if (i % 6 == 5)
        p->dsp_memory_bytes = 12000;
    g->platform = p;
    for (int t = 0; t < n; t++)
        if (lcg(&r) % 6 == 0)
            g->tasks[t].dsp = (int)(lcg(&r) % (uint64_t)p->ndsps);
    g->iterations = 1 + (int64_t)(lcg(&r) % 12);
    ck_assert_int_eq(ir_graph_index(g), 0);
    return g;
}

static Sched *
schedule_screen(Graph *g, bool plain, bool unscreened, SchedSearchStats *st)
{
    Options opt = {.search_budget = 400,
                   .search_plain = plain,
                   .search_unscreened = unscreened,
                   .search_stats = st};
    Unit u = {.g = g, .p = g->platform, .opt = &opt};
    Diag *d = diag_new();
    ck_assert_int_eq(pass_schedule(&u, d), 0);
    diag_free(d);
    return u.s;
}

/* The search with and without its screen keeps the same schedule (mapping, orders,
 * messages) after judging the same number of candidates: the screen only rejects what
 * the exact objective would reject.  Over the graphs the screen must have rejected
 * candidates without a contended evaluation, so the comparison tests it. */
TEST(screen_keeps_the_search_exact)
{
    int64_t screened = 0, spared = 0;
    for (int i = 0; i < 40; i++)
        for (int plain = 0; plain <= 1; plain++) {
            Graph *g = screen_graph(i);
            SchedSearchStats a = {0}, b = {0};
            Sched *s = schedule_screen(g, plain, false, &a);
            Sched *u = schedule_screen(g, plain, true, &b);
            ck_assert_msg(memcmp(s->map, u->map, (size_t)g->ntasks * sizeof *s->map) == 0,
                          "graph %d plain %d: mappings differ", i, plain);
            for (int k = 0; k < s->ndsps; k++) {
                ck_assert_int_eq(s->nops[k], u->nops[k]);
                ck_assert_msg(
                    memcmp(s->ops[k], u->ops[k], (size_t)s->nops[k] * sizeof(Op)) == 0,
                    "graph %d plain %d: orders of DSP %d differ", i, plain, k);
            }
            ck_assert_int_eq(s->nmsgs, u->nmsgs);
            for (int m = 0; m < s->nmsgs; m++) {
                const Msg *x = &s->msgs[m], *y = &u->msgs[m];
                ck_assert(x->src == y->src && x->dst == y->dst && x->delay == y->delay &&
                          x->bytes == y->bytes && x->nedges == y->nedges &&
                          x->pipelined == y->pipelined);
                ck_assert_int_eq(
                    memcmp(x->edges, y->edges, (size_t)x->nedges * sizeof *x->edges), 0);
            }
            ck_assert_int_eq(eval_length_of(s), eval_length_of(u));
            ck_assert_int_eq(objective_of(s, plain), objective_of(u, plain));
            /* the budget counts candidates, screened or not */
            ck_assert_int_eq(a.candidates, b.candidates);
            ck_assert_int_eq(b.screened, 0);
            ck_assert_int_eq(b.bound_evals, 0);
            ck_assert_int_le(a.evals, b.evals);
            screened += a.screened;
            spared += b.evals - a.evals;
            ir_sched_free(s);
            ir_sched_free(u);
            ir_graph_free(g);
        }
    ck_assert_int_gt(screened, 1000);
    ck_assert_int_gt(spared, 1000);
}
END_TEST

/* ---- --algo=exact against brute force, and as the oracle of the default ---- */

static uint64_t
xs(uint64_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    return *r;
}

/* A seeded random DAG of n tasks (costs 1..20, each earlier task a predecessor with
 * probability 2/5, bytes 0..maxbytes) on the abstract model of P DSPs, one iteration. */
static Graph *
random_dag_bytes(uint64_t seed, int n, int P, int maxbytes)
{
    uint64_t r = seed * 2654435761u + 12345;
    int64_t c[32];
    int e[256][3], ne = 0;
    ck_assert_int_le(n, 32);
    for (int t = 0; t < n; t++) {
        c[t] = 1 + (int64_t)(xs(&r) % 20);
        for (int u = 0; u < t; u++)
            if (xs(&r) % 5 < 2 && ne < 256) {
                e[ne][0] = u;
                e[ne][1] = t;
                e[ne][2] = (int)(xs(&r) % (uint64_t)(maxbytes + 1));
                ne++;
            }
    }
    Graph *g = mk_graph(n, 1, c, ne, e);
    g->iterations = 1;
    g->platform = plat_abstract(g->arena, P);
    ck_assert_int_eq(ir_graph_index(g), 0);
    return g;
}

/* Bytes 0..30: communication about as costly as computation. */
static Graph *
random_dag(uint64_t seed, int n, int P)
{
    return random_dag_bytes(seed, n, P, 30);
}

/* The shortest single-iteration makespan over every mapping and every topological order
 * (each DSP's order its restriction): every semi-active schedule. */
static int64_t
brute_force(const Graph *g, int P)
{
    int n = g->ntasks;
    int map[16], seq[16], npred[16], k = 0;
    bool used[16] = {0};
    int64_t best = INT64_MAX;
    long mappings = 1;
    for (int t = 0; t < n; t++)
        mappings *= P;
    for (long m = 0; m < mappings; m++) {
        long v = m;
        for (int t = 0; t < n; t++, v /= P)
            map[t] = (int)(v % P);
        /* every topological order, depth first */
        memset(npred, 0, sizeof npred);
        for (int i = 0; i < g->nedges; i++)
            npred[g->edges[i].to]++;
        int next[17];
        k = 0;
        next[0] = 0;
        while (k >= 0) {
            if (k == n) {
                Sched *s = ir_sched_new(g, g->platform);
                for (int t = 0; t < n; t++)
                    s->map[t] = map[t];
                for (int i = 0; i < n; i++)
                    ir_sched_push_op(s, map[seq[i]], OP_COMPUTE, seq[i]);
                int64_t len = sched_list_makespan(s);
                if (len < best)
                    best = len;
                ir_sched_free(s);
                k--;
                if (k >= 0) { /* undo seq[k] */
                    int t = seq[k];
                    used[t] = false;
                    for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++)
                        npred[g->edges[g->succ[j]].to]++;
                    next[k] = t + 1;
                }
                continue;
            }
            int t = next[k];
            while (t < n && (used[t] || npred[t] != 0))
                t++;
            if (t == n) {
                k--;
                if (k >= 0) {
                    int u = seq[k];
                    used[u] = false;
                    for (int j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
                        npred[g->edges[g->succ[j]].to]++;
                    next[k] = u + 1;
                }
                continue;
            }
            seq[k] = t;
            used[t] = true;
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++)
                npred[g->edges[g->succ[j]].to]--;
            k++;
            next[k] = 0;
        }
    }
    return best;
}

/* The default schedule with a search budget of 300 candidates (which leaves the local
 * search in its local optima more often) and Options.search_bb_steps = steps. */
static Sched *
schedule_steps(Graph *g, int64_t steps)
{
    Options opt = {.search_budget = 300, .search_bb_steps = steps};
    Unit u = {.g = g, .p = g->platform, .opt = &opt};
    Diag *d = diag_new();
    ck_assert_int_eq(pass_schedule(&u, d), 0);
    ck_assert_int_eq(ir_sched_verify(u.s, d), 0);
    diag_free(d);
    return u.s;
}

static Sched *
schedule_algo(Graph *g, SchedAlgo algo, SchedExactResult *r)
{
    Options opt = {.search_budget = -1, .exact_result = r, .algo = algo};
    Unit u = {.g = g, .p = g->platform, .opt = &opt};
    Diag *d = diag_new();
    ck_assert_int_eq(pass_schedule(&u, d), 0);
    ck_assert_int_eq(ir_sched_verify(u.s, d), 0);
    diag_free(d);
    return u.s;
}

TEST_CASE("exact", 60)

/* sched_exact proves the brute-force optimum of small random graphs with communication
 * (6 tasks on 2 DSPs, 5 on 3; the last 16 with edges up to 6 times dearer than a task, so
 * that the bound's clusters of tasks that must share a DSP form), starting from nothing
 * and from HEFT, and its schedule evaluates to its length. */
TEST(exact_matches_brute_force)
{
    for (int i = 0; i < 40; i++) {
        int P = i % 2 ? 3 : 2, n = P == 2 ? 6 : 5;
        Graph *g = random_dag_bytes((uint64_t)i + 1, n, P, i < 24 ? 30 : 120);
        int64_t opt = brute_force(g, P);
        SchedExactResult r;
        Sched *s = NULL;
        ck_assert_int_eq(sched_exact(g, g->platform, &s, 0, 0, &r), 0);
        ck_assert(r.proven);
        ck_assert_int_eq(r.length, opt);
        ck_assert_int_eq(r.lower, opt);
        ck_assert_int_eq(eval_length_of(s), opt);
        ir_sched_free(s);
        Diag *d = diag_new();
        ck_assert_int_eq(sched_heft(g, g->platform, &s, NULL, NULL, d), 0);
        diag_free(d);
        comm_insert(s);
        int64_t heft = eval_length_of(s);
        ck_assert_int_eq(sched_exact(g, g->platform, &s, 0, 0, &r), 0);
        ck_assert(r.proven);
        ck_assert_int_eq(r.length, opt);
        ck_assert_int_le(r.length, heft);
        ck_assert_int_eq(eval_length_of(s), opt);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST

/* A seeded fork (shape 0: task 0 feeds all others), join (1: all feed the last) or
 * fork-join (2: 0 feeds the middle tasks, which feed the last) of n tasks on the abstract
 * model of P DSPs; costs 1..4 and bytes 0..6, so that ties, identical tasks and fixed
 * task orders are common. */
static Graph *
fork_join_dag(uint64_t seed, int shape, int n, int P)
{
    uint64_t r = seed * 2654435761u + 777;
    int64_t c[16];
    int e[32][3], ne = 0;
    for (int t = 0; t < n; t++)
        c[t] = 1 + (int64_t)(xs(&r) % 4);
    for (int t = 0; t < n; t++) {
        bool first = t == 0, last = t == n - 1;
        if (shape != 1 && !first) /* from the fork */
            e[ne][0] = 0, e[ne][1] = t, e[ne][2] = (int)(xs(&r) % 7), ne++;
        if (shape != 0 && !last && !(shape == 2 && first)) /* into the join */
            e[ne][0] = t, e[ne][1] = n - 1, e[ne][2] = (int)(xs(&r) % 7), ne++;
    }
    if (shape == 2) /* the fork's edge to the join is not part of a fork-join */
        for (int i = 0; i < ne; i++)
            if (e[i][0] == 0 && e[i][1] == n - 1) {
                e[i][0] = e[ne - 1][0], e[i][1] = e[ne - 1][1], e[i][2] = e[ne - 1][2];
                ne--;
                break;
            }
    Graph *g = mk_graph(n, 1, c, ne, e);
    g->iterations = 1;
    g->platform = plat_abstract(g->arena, P);
    ck_assert_int_eq(ir_graph_index(g), 0);
    return g;
}

/* The fixed task order, identical-task and duplicate-state prunings keep the optimum:
 * sched_exact, from the one-DSP schedule, against the brute force on 36 seeded forks,
 * joins and fork-joins of 6 tasks on 2 and 3 DSPs. */
TEST(exact_matches_brute_force_on_forks_and_joins)
{
    for (int i = 0; i < 36; i++) {
        int P = 2 + i % 2, shape = (i / 2) % 3;
        Graph *g = fork_join_dag((uint64_t)i + 1, shape, 6, P);
        int64_t opt = brute_force(g, P);
        SchedExactResult r;
        /* from everything on DSP 0 (no message), so the search itself must find it */
        Sched *s = ir_sched_new(g, g->platform);
        for (int k = 0; k < g->ntasks; k++) {
            s->map[g->topo[k]] = 0;
            ir_sched_push_op(s, 0, OP_COMPUTE, g->topo[k]);
        }
        ck_assert_int_eq(sched_exact(g, g->platform, &s, 0, 0, &r), 0);
        ck_assert(r.proven);
        ck_assert_int_eq(r.length, opt);
        ck_assert_int_eq(eval_length_of(s), opt);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST

/* The exact search as the oracle of the default on random graphs of 8 to 10 tasks on 2
 * and 3 DSPs: --algo=exact proves an optimum no longer than the default, which is no
 * longer than HEFT, PEFT and the one-DSP schedule; a node limit gives an unproven
 * result that is still a valid schedule no longer than the default. */
TEST(exact_is_the_oracle_of_the_default)
{
    int optimal = 0, total = 0;
    for (int i = 0; i < 20; i++) {
        int P = 2 + i % 2, n = 8 + i % 3;
        Graph *g = random_dag((uint64_t)i + 100, n, P);
        SchedExactResult r = {0};
        Sched *def = schedule_algo(g, SCHED_HEFT, NULL);
        Sched *ex = schedule_algo(g, SCHED_EXACT, &r);
        int64_t ld = eval_length_of(def), le = eval_length_of(ex);
        ck_assert(r.proven);
        ck_assert_int_eq(le, r.length);
        ck_assert_int_le(le, ld);
        Diag *d = diag_new();
        Sched *h;
        ck_assert_int_eq(sched_heft(g, g->platform, &h, NULL, NULL, d), 0);
        comm_insert(h);
        ck_assert_int_le(ld, eval_length_of(h));
        ir_sched_free(h);
        ck_assert_int_eq(sched_peft(g, g->platform, &h, NULL, NULL, d), 0);
        comm_insert(h);
        ck_assert_int_le(ld, eval_length_of(h));
        ir_sched_free(h);
        int64_t work = 0;
        for (int t = 0; t < n; t++)
            work += g->tasks[t].cycles[0];
        ck_assert_int_le(ld, work); /* one DSP: the work, no message */
        diag_free(d);
        optimal += ld == le;
        total++;
        /* a node limit of 1: not proven, and never worse than its start */
        Sched *lim = NULL;
        ck_assert_int_eq(sched_exact(g, g->platform, &lim, 1, 0, &r), 0);
        ck_assert_int_ge(r.length, le);
        ck_assert_int_eq(eval_length_of(lim), r.length);
        ir_sched_free(lim);
        ir_sched_free(def);
        ir_sched_free(ex);
        ir_graph_free(g);
    }
    /* the default finds most of these optima (18 of 20 when written) */
    ck_assert_int_ge(optimal, total * 3 / 4);
}
END_TEST

/* The default's branch and bound (search_bb_steps, sched_exact_grow) on 40 random graphs
 * of 20-23 tasks on 6 DSPs whose edges cost up to 10 times a task (where the local
 * search's moves end in local optima; a budget of 300 candidates): never longer than the
 * local search alone, never shorter than the optimum sched_exact proves, deterministic,
 * and shorter than the local search alone on many of them (a branch and bound that never
 * ran, or kept its start, fails). */
TEST(default_branch_and_bound_goes_past_the_local_optima)
{
    int better = 0, optimal = 0, off_optimal = 0;
    for (int i = 0; i < 40; i++) {
        int n = 20 + i % 4;
        Graph *g = random_dag_bytes((uint64_t)i + 300, n, 6, 200);
        Sched *with = schedule_steps(g, 0), *again = schedule_steps(g, 0),
              *without = schedule_steps(g, -1);
        int64_t lw = eval_length_of(with), lo = eval_length_of(without);
        ck_assert_int_eq(eval_length_of(again), lw);
        for (int t = 0; t < n; t++)
            ck_assert_int_eq(with->map[t], again->map[t]);
        Sched *ex = NULL;
        SchedExactResult r;
        ck_assert_int_eq(sched_exact(g, g->platform, &ex, 0, 0, &r), 0);
        ck_assert(r.proven);
        ck_assert_int_le(lw, lo);
        ck_assert_int_ge(lw, r.length);
        better += lw < lo;
        optimal += lw == r.length;
        off_optimal += lo > r.length;
        ir_sched_free(with);
        ir_sched_free(again);
        ir_sched_free(without);
        ir_sched_free(ex);
        ir_graph_free(g);
    }
    /* when written: 10 local searches off the optimum, all 10 bettered, 39 optimal */
    ck_assert_int_ge(better, 6);
    ck_assert_int_gt(optimal, 40 - off_optimal);
}
END_TEST

/* Multi-start list scheduling against HEFT and the exact search on 40 seeded random
 * graphs of 10 tasks on 2 and 3 DSPs, with and without communication: its schedule is
 * valid and has the makespan it reports, which is never longer than HEFT's (its first
 * pass is HEFT's schedule) nor than with fewer restarts, and never shorter than the
 * optimum that sched_exact proves; and it is strictly shorter than HEFT, down to the
 * optimum, on many of them (a multi-start that only returned HEFT's schedule, or lost
 * its best pass, fails). */
TEST(multi_start_beats_heft_down_to_the_optimum)
{
    int better = 0, optimal = 0, heft_optimal = 0, total = 0;
    for (int i = 0; i < 40; i++) {
        int P = 2 + i % 2;
        Graph *g = random_dag((uint64_t)i + 300, 10, P);
        if (i % 4 >= 2) /* no communication: the STG case */
            for (int e = 0; e < g->nedges; e++)
                g->edges[e].bytes = 0;
        Diag *d = diag_new();
        Sched *h;
        int64_t heft;
        ck_assert_int_eq(sched_heft(g, g->platform, &h, NULL, &heft, d), 0);
        int64_t ms1, ms;
        Sched *m1 = sched_multi_start(g, g->platform, 1, -1, &ms1);
        Sched *m = sched_multi_start(g, g->platform, 16, -1, &ms);
        ck_assert_ptr_nonnull(m);
        ck_assert_int_eq(sched_list_makespan(m), ms);
        ck_assert_int_eq(sched_list_makespan(m1), ms1);
        comm_insert(m);
        ck_assert_int_eq(ir_sched_verify(m, d), 0);
        ck_assert_int_eq(eval_length_of(m), ms);
        diag_free(d);
        ck_assert_int_le(ms1, heft);
        ck_assert_int_le(ms, ms1);
        SchedExactResult r;
        Sched *ex = NULL;
        ck_assert_int_eq(sched_exact(g, g->platform, &ex, 0, 0, &r), 0);
        ck_assert(r.proven);
        ck_assert_int_ge(ms, r.length);
        better += ms < heft;
        optimal += ms == r.length;
        heft_optimal += heft == r.length;
        total++;
        /* stopping at a lower bound: at the optimum it stops there, or before */
        int64_t msl;
        Sched *ml = sched_multi_start(g, g->platform, 16, r.length, &msl);
        ck_assert_int_ge(msl, ms);
        ck_assert(ms > r.length || msl == r.length);
        ir_sched_free(ml);
        ir_sched_free(ex);
        ir_sched_free(m);
        ir_sched_free(m1);
        ir_sched_free(h);
        ir_graph_free(g);
    }
    /* when written: 5 of the 40 shorter than HEFT, 33 optimal against HEFT's 28 */
    ck_assert_int_eq(total, 40);
    ck_assert_int_ge(better, 4);
    ck_assert_int_ge(optimal, heft_optimal + 4);
}
END_TEST
