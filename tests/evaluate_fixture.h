/* tests/evaluate_fixture.h - what check_evaluate.c and check_evaluate_ref.c share: graphs
 * and schedules built by hand, the operations' times, both evaluations at once, the
 * worked example of docs/design.md section 3 and the delay pair. */
#ifndef TGC_EVALUATE_FIXTURE_H
#define TGC_EVALUATE_FIXTURE_H

#include <check.h>

#include "graph_fixture.h"
#include "ir.h"

/* A graph of n tasks a, b, c ... with the given cycles on platform `plat`; edges added
 * with add_edge. */
static inline Graph *
mk_graph(const char *plat, int n, const int64_t *cycles, int64_t iterations)
{
    Graph *g = fixture_graph("test", plat, n, iterations, 64, true);
    for (int i = 0; i < n; i++)
        *g->tasks[i].cycles = cycles[i];
    return g;
}

/* One message carrying `edges`, from DSP src to dst. */
static inline int
msg(Sched *s, int src, int dst, const int *edges, int n, bool pipe)
{
    int m = ir_sched_add_msg(s, src, dst, edges, n);
    s->msgs[m].pipelined = pipe;
    return m;
}

static inline int
msg1(Sched *s, int src, int dst, int edge, bool pipe)
{
    return msg(s, src, dst, &edge, 1, pipe);
}

#define C(s, d, t) ir_sched_push_op(s, d, OP_COMPUTE, t)
#define S(s, d, m) ir_sched_push_op(s, d, OP_SEND, m)
#define R(s, d, m) ir_sched_push_op(s, d, OP_RECV, m)

static inline OpTime
ot(const Sched *s, const EvalResult *r, int d, int iter_rec, int k)
{
    return r->op_time[d][iter_rec * s->nops[d] + k];
}

#define ck_op(s, r, d, ir, k, rd, st, en)                                                \
    do {                                                                                 \
        OpTime o_ = ot(s, r, d, ir, k);                                                  \
        ck_assert_int_eq(o_.ready, rd);                                                  \
        ck_assert_int_eq(o_.start, st);                                                  \
        ck_assert_int_eq(o_.end, en);                                                    \
    } while (0)

/* Evaluates with eval_length and eval_run (all iterations recorded) and checks that they
 * agree; returns the length. */
static inline int64_t
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

/* a (CYCLES_A) on DSP 0 -> 64 bytes -> b (CYCLES_B) on DSP 1, bwdsp-1board, ITERS
 * iterations: DSP 0 = [a, SEND], DSP 1 = [RECV, b], the receive pipelined or not. */
static inline Sched *
two_tasks(Graph **gout, bool pipe, int64_t cycles_a, int64_t cycles_b, int iters)
{
    int64_t cyc[] = {cycles_a, cycles_b};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, iters);
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

/* The worked example of docs/design.md section 3: a (1000) on DSP 0 -> 64 bytes -> b
 * (2000) on DSP 1, bwdsp-1board, ITERS iterations. */
static inline Sched *
worked_example_iters(Graph **gout, bool pipe, int iters)
{
    return two_tasks(gout, pipe, 1000, 2000, iters);
}

/* The worked example as docs/design.md gives it: 2 iterations. */
static inline Sched *
worked_example(Graph **gout, bool pipe)
{
    return worked_example_iters(gout, pipe, 2);
}

/* --- delay edges across DSPs with zero-delay traffic in the same direction (the case
 * that deadlocked when a delay-d transfer was received d iterations after its send).
 * a (1000) on DSP 0, b (2000) on DSP 1, bwdsp-1board; e0 = a -> b (64 bytes), e1 = a -> b
 * (64 bytes, delay d); N iterations.  DSP 0 = [a, SEND m0, SEND m1], DSP 1 = [RECV m1,
 * RECV m0, b] (what comm_insert gives, see check_comm).  Costs: send 600, receive 400,
 * handshake 300, fabric 264 (the worked example). */
static inline Sched *
delay_pair(Graph **gout, int delay, int64_t iterations, bool pipe1)
{
    int64_t cyc[] = {1000, 2000};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, iterations);
    add_edge(g, 0, 1, 64, 0);
    add_edge(g, 0, 1, 64, delay);
    ck_assert_int_eq(ir_graph_index(g), 0);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    int m0 = msg1(s, 0, 1, 0, false), m1 = msg1(s, 0, 1, 1, pipe1);
    C(s, 0, 0);
    S(s, 0, m0);
    S(s, 0, m1);
    R(s, 1, m1);
    R(s, 1, m0);
    C(s, 1, 1);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    diag_free(d);
    *gout = g;
    return s;
}

#endif
