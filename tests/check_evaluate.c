/* tests/check_evaluate.c - the evaluator (passes/evaluate.c) against values worked out on
 * paper from DESIGN.md sections 3 and 4.  Graphs are built programmatically. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* A graph of n tasks with the given cycles on platform `plat`; edges added with add_edge. */
static Graph *
mk_graph(const char *plat, int n, const int64_t *cycles, int64_t iterations)
{
    Graph *g = ir_graph_new();
    Arena *a = g->arena;
    g->file = "test.json";
    g->name = "test";
    g->iterations = iterations;
    g->platform = plat_preset(a, plat);
    ck_assert_ptr_nonnull(g->platform);
    g->ntasks = n;
    g->tasks = arena_array(a, (size_t)n, sizeof *g->tasks);
    for (int i = 0; i < n; i++) {
        int64_t *c = arena_alloc(a, sizeof *c);
        *c = cycles[i];
        g->tasks[i] = (Task){.id = arena_printf(a, "%c", 'a' + i), .cycles = c, .ncycles = 1,
                             .dsp = -1};
    }
    g->edges = arena_array(a, 64, sizeof *g->edges);
    return g;
}

static int
add_edge(Graph *g, int from, int to, int64_t bytes, int delay)
{
    g->edges[g->nedges] = (Edge){from, to, bytes, delay};
    return g->nedges++;
}

/* One message carrying `edges`, from DSP src to dst. */
static int
msg(Sched *s, int src, int dst, const int *edges, int n, bool pipe)
{
    int m = ir_sched_add_msg(s, src, dst, edges, n);
    s->msgs[m].pipelined = pipe;
    return m;
}

static int
msg1(Sched *s, int src, int dst, int edge, bool pipe)
{
    return msg(s, src, dst, &edge, 1, pipe);
}

#define C(s, d, t) ir_sched_push_op(s, d, OP_COMPUTE, t)
#define S(s, d, m) ir_sched_push_op(s, d, OP_SEND, m)
#define R(s, d, m) ir_sched_push_op(s, d, OP_RECV, m)

static OpTime
ot(const Sched *s, const EvalResult *r, int d, int iter_rec, int k)
{
    return r->op_time[d][iter_rec * s->nops[d] + k];
}

#define ck_op(s, r, d, ir, k, rd, st, en)                                                    \
    do {                                                                                     \
        OpTime o_ = ot(s, r, d, ir, k);                                                      \
        ck_assert_int_eq(o_.ready, rd);                                                      \
        ck_assert_int_eq(o_.start, st);                                                      \
        ck_assert_int_eq(o_.end, en);                                                        \
    } while (0)

/* Evaluates with eval_length and eval_run (all iterations recorded) and checks that they
 * agree; returns the length. */
static int64_t
both(const Sched *s, EvalResult *r, Arena *a)
{
    Evaluator *ev = eval_new(s->g, s->p);
    int64_t l1 = eval_length(ev, s);
    int64_t l2 = eval_length(ev, s); /* the workspace is reusable */
    eval_free(ev);
    int rc = eval_run(s, &(EvalOpts){1000000, 0}, r, a);
    ck_assert_int_eq(l1, l2);
    ck_assert_int_eq(l1, r->length);
    ck_assert_int_eq(rc, l1 < 0 ? -1 : 0);
    return l1;
}

/* The worked example of DESIGN.md section 3: a (1000) on DSP 0 -> 64 bytes -> b (2000) on
 * DSP 1, 2 iterations, bwdsp-1board. */
static Sched *
worked_example(Graph **gout, bool pipe)
{
    int64_t cyc[] = {1000, 2000};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, 2);
    add_edge(g, 0, 1, 64, 0);
    ck_assert_int_eq(ir_graph_index(g), 0);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    int m = msg1(s, 0, 1, 0, pipe);
    C(s, 0, 0);
    S(s, 0, m);
    R(s, 1, m);
    C(s, 1, 1);
    *gout = g;
    return s;
}

START_TEST(worked_example_blocking)
{
    Graph *g;
    Sched *s = worked_example(&g, false);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 7528);
    ck_assert_int_eq(r.nrec, 2);
    ck_op(s, &r, 0, 0, 0, 0, 0, 1000);       /* a */
    ck_op(s, &r, 0, 0, 1, 1000, 1000, 1600); /* send, issued 1600 */
    ck_op(s, &r, 1, 0, 0, 0, 2164, 2564);    /* posted at 0, data 1900-2164 */
    ck_op(s, &r, 1, 0, 1, 2564, 2564, 4564); /* b */
    ck_op(s, &r, 0, 1, 0, 1600, 2164, 3164); /* a waits for its output buffer */
    ck_op(s, &r, 0, 1, 1, 3164, 3164, 3764);
    ck_op(s, &r, 1, 1, 0, 4564, 5128, 5528); /* posted at 4564, data 4864-5128 */
    ck_op(s, &r, 1, 1, 1, 5528, 5528, 7528);
    MsgTime t0 = r.msg_time[0], t1 = r.msg_time[1];
    ck_assert_int_eq(t0.issue, 1600);
    ck_assert_int_eq(t0.post, 0);
    ck_assert_int_eq(t0.depart, 1900);
    ck_assert_int_eq(t0.arrive, 2164);
    ck_assert_int_eq(t1.issue, 3764);
    ck_assert_int_eq(t1.post, 4564);
    ck_assert_int_eq(t1.depart, 4864);
    ck_assert_int_eq(t1.arrive, 5128);
    ck_assert_int_eq(r.busy[0], 3200);
    ck_assert_int_eq(r.compute[0], 2000);
    ck_assert_int_eq(r.idle[0], 7528 - 3200);
    ck_assert_int_eq(r.busy[1], 4800);
    ck_assert_int_eq(r.compute[1], 4000);
    ck_assert(!r.deadlock);
    arena_free(a);
    diag_free(d);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

START_TEST(worked_example_pipelined)
{
    Graph *g;
    Sched *s = worked_example(&g, true);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 6864);
    ck_op(s, &r, 1, 0, 0, 300, 2164, 2664); /* prolog 0-300; wait 2164-2364, post -2664 */
    ck_op(s, &r, 1, 0, 1, 2664, 2664, 4664);
    ck_op(s, &r, 0, 1, 0, 1600, 2164, 3164);
    ck_op(s, &r, 0, 1, 1, 3164, 3164, 3764);
    ck_op(s, &r, 1, 1, 0, 4664, 4664, 4864); /* data was in at 4328; no post */
    ck_op(s, &r, 1, 1, 1, 4864, 4864, 6864);
    ck_assert_int_eq(r.msg_time[1].post, 2664);
    ck_assert_int_eq(r.msg_time[1].depart, 4064);
    ck_assert_int_eq(r.msg_time[1].arrive, 4328);
    /* busy: prolog 300 + (200 + 300) + 200 + 2 * 2000 */
    ck_assert_int_eq(r.busy[1], 300 + 500 + 200 + 4000);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Recording only the first and the last iterations gives the same times. */
START_TEST(records_first_and_last)
{
    int64_t cyc[] = {1000, 2000};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, 50);
    add_edge(g, 0, 1, 64, 0);
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    int m = msg1(s, 0, 1, 0, false);
    C(s, 0, 0);
    S(s, 0, m);
    R(s, 1, m);
    C(s, 1, 1);
    Arena *a = arena_new();
    EvalResult all, some;
    both(s, &all, a);
    ck_assert_int_eq(all.nrec, 50);
    ck_assert_int_eq(eval_run(s, &(EvalOpts){2, 3}, &some, a), 0);
    ck_assert_int_eq(some.nrec, 5);
    int64_t want[] = {0, 1, 47, 48, 49};
    for (int j = 0; j < 5; j++) {
        ck_assert_int_eq(some.rec_iter[j], want[j]);
        for (int d = 0; d < 2; d++)
            for (int k = 0; k < 2; k++) {
                OpTime x = ot(s, &some, d, j, k), y = ot(s, &all, d, (int)want[j], k);
                ck_assert_int_eq(x.start, y.start);
                ck_assert_int_eq(x.end, y.end);
            }
        ck_assert_int_eq(some.msg_time[j].arrive, all.msg_time[want[j]].arrive);
    }
    /* steady state: DSP 1 is the bottleneck; one iteration of it = 2000 + 400 + wait for
     * data that departs only after the post: post at end of b, +300 handshake +264 fabric */
    ck_assert_int_eq(all.length - ot(s, &all, 1, 48, 1).end, 300 + 264 + 400 + 2000);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

static Suite *
suite(void)
{
    Suite *su = suite_create("evaluate");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, worked_example_blocking);
    tcase_add_test(tc, worked_example_pipelined);
    tcase_add_test(tc, records_first_and_last);
    suite_add_tcase(su, tc);
    return su;
}

int
main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
