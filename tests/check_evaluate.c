/* tests/check_evaluate.c - the evaluator (passes/evaluate/) against values worked out on
 * paper from docs/design.md sections 3 and 4.  Graphs are built programmatically. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "ir.h"

/* A graph of n tasks with the given cycles on platform `plat`; edges added with add_edge.
 */
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
        g->tasks[i] = (Task){
            .id = arena_printf(a, "%c", 'a' + i), .cycles = c, .ncycles = 1, .dsp = -1};
    }
    g->edges = arena_array(a, 64, sizeof *g->edges);
    return g;
}

static int
add_edge(Graph *g, int from, int to, int64_t bytes, int delay)
{
    g->edges[g->nedges] = (Edge){.from = from, .to = to, .bytes = bytes, .delay = delay};
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

#define ck_op(s, r, d, ir, k, rd, st, en)                                                \
    do {                                                                                 \
        OpTime o_ = ot(s, r, d, ir, k);                                                  \
        ck_assert_int_eq(o_.ready, rd);                                                  \
        ck_assert_int_eq(o_.start, st);                                                  \
        ck_assert_int_eq(o_.end, en);                                                    \
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

/* The worked example of docs/design.md section 3: a (1000) on DSP 0 -> 64 bytes -> b
 * (2000) on DSP 1, 2 iterations, bwdsp-1board. */
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
     * data that departs only after the post: post at end of b, +300 handshake +264 fabric
     */
    ck_assert_int_eq(all.length - ot(s, &all, 1, 48, 1).end, 300 + 264 + 400 + 2000);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* a (500) on DSP 0 -> `bytes` -> b (300) on DSP 1, one iteration, blocking receive. */
static int64_t
one_message(const char *plat, int dst, int64_t bytes, int64_t ca, int64_t cb, MsgTime *mt)
{
    int64_t cyc[] = {ca, cb};
    Graph *g = mk_graph(plat, 2, cyc, 1);
    add_edge(g, 0, 1, bytes, 0);
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = dst;
    int m = msg1(s, 0, dst, 0, false);
    C(s, 0, 0);
    S(s, 0, m);
    R(s, dst, m);
    C(s, dst, 1);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    int64_t len = both(s, &r, a);
    *mt = r.msg_time[0];
    arena_free(a);
    diag_free(d);
    ir_sched_free(s);
    ir_graph_free(g);
    return len;
}

/* 200 bytes: one packet of 226 bytes, ser = ceil(226 * 8 * 500 / 4416) = 205; fabric =
 * 205 + 1 * (100 + 205) = 510.  a 0-500, send 500-1100, posted at 0, depart 1100 + 300 =
 * 1400, arrive 1910, receive 1910-2310, b 2310-2610. */
START_TEST(one_packet_message)
{
    MsgTime t;
    ck_assert_int_eq(one_message("bwdsp-1board", 1, 200, 500, 300, &t), 2610);
    ck_assert_int_eq(t.issue, 1100);
    ck_assert_int_eq(t.depart, 1400);
    ck_assert_int_eq(t.arrive, 1910);
}
END_TEST

/* 600 bytes: packets of 250, 250, 100 payload = 276, 276, 126 bytes on the wire; ser 250,
 * 250, ceil(126 * 4000 / 4416) = 115; fabric = 615 + (100 + 250) = 965.  Depart 1400,
 * arrive 2365, receive 2365-2765, b 2765-3065. */
START_TEST(several_packet_message)
{
    MsgTime t;
    ck_assert_int_eq(one_message("bwdsp-1board", 1, 600, 500, 300, &t), 3065);
    ck_assert_int_eq(t.arrive - t.depart, 965);
}
END_TEST

/* Section 4: 10000 bytes on one board arrive 40 * 250 + (100 + 250) = 10350 cycles after
 * they start.  a 1000, send 1000-1600, depart 1900, arrive 12250, receive -12650, b 2000.
 */
START_TEST(ten_thousand_bytes_section_4)
{
    MsgTime t;
    ck_assert_int_eq(one_message("bwdsp-1board", 1, 10000, 1000, 2000, &t), 14650);
    ck_assert_int_eq(t.depart, 1900);
    ck_assert_int_eq(t.arrive - t.depart, 10350);
}
END_TEST

/* bwdsp-4board, DSP 0 (board 0) -> DSP 8 (board 2): tree 0-1-2, so 1 + 2 = 3 switches.
 * 64 bytes: 82 + 3 * (100 + 82) = 628.  a 1000, send -1600, depart 1900, arrive 2528,
 * receive -2928, b 2928-4928. */
START_TEST(message_across_three_switches)
{
    Arena *a = arena_new();
    Platform *p = plat_preset(a, "bwdsp-4board");
    ck_assert_int_eq(plat_switch_hops(p, 0, 8), 3);
    arena_free(a);
    MsgTime t;
    ck_assert_int_eq(one_message("bwdsp-4board", 8, 64, 1000, 2000, &t), 4928);
    ck_assert_int_eq(t.arrive - t.depart, 628);
}
END_TEST

/* Aggregated: a (100) on DSP 0 sends one message with a->b (100 bytes) and a->c (60
 * bytes) to DSP 1 = [RECV, b 2000, c 500]; 2 iterations.  160 bytes: pack = unpack = 20;
 * one packet of 186 bytes, ser 169, fabric 169 + 269 = 438.  Send = 620, receive = 420.
 * it 0: a 0-100, send 100-720, depart 1020, arrive 1458; receive 1458-1878, b -3878,
 *       c -4378.
 * it 1: a 720-820 (no zero copy: the data was packed); the pack waits for (m, 0) to be
 * out: send 1458-2078; posted at 4378, depart 4678, arrive 5116, receive 5116-5536, b
 * -7536, c -8036. */
START_TEST(aggregated_message_packs_and_unpacks)
{
    int64_t cyc[] = {100, 2000, 500};
    Graph *g = mk_graph("bwdsp-1board", 3, cyc, 2);
    int e[2];
    e[0] = add_edge(g, 0, 1, 100, 0);
    e[1] = add_edge(g, 0, 2, 60, 0);
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = s->map[2] = 1;
    int m = msg(s, 0, 1, e, 2, false);
    ck_assert_int_eq(s->msgs[m].bytes, 160);
    C(s, 0, 0);
    S(s, 0, m);
    R(s, 1, m);
    C(s, 1, 1);
    C(s, 1, 2);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 8036);
    ck_op(s, &r, 0, 0, 1, 100, 100, 720);
    ck_op(s, &r, 1, 0, 0, 0, 1458, 1878);
    ck_op(s, &r, 0, 1, 0, 720, 720, 820);
    ck_op(s, &r, 0, 1, 1, 820, 1458, 2078);
    ck_op(s, &r, 1, 1, 0, 4378, 5116, 5536);
    ck_assert_int_eq(r.msg_time[1].depart, 4678);
    ck_assert_int_eq(r.busy[0], 2 * (100 + 620));
    arena_free(a);
    diag_free(d);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Pipelined receive, sender-bound: a (3000) on DSP 0 -> 64 bytes -> b (500) on DSP 1,
 * 3 iterations.  Prolog: post (m, 0) 0-300.
 * it 0: a 0-3000, send -3600, depart 3900, arrive 4164; slot 4164: wait -4364, post (m,
 * 1) -4664; b -5164. it 1: a 4164-7164, send -7764, depart max(7764, 4664) + 300 = 8064,
 * arrive 8328; slot 8328-8828 (post (m, 2) at 8828); b -9328. it 2: a 8328-11328, send
 * -11928, depart 12228, arrive 12492; wait 12492-12692, no post; b -13192. Blocking
 * instead: the last receive costs 400, not 200: 13392. */
static int64_t
pipelined_case(bool pipe, EvalResult *r, Arena *a, Sched **sout, Graph **gout)
{
    int64_t cyc[] = {3000, 500};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, 3);
    add_edge(g, 0, 1, 64, 0);
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    int m = msg1(s, 0, 1, 0, pipe);
    C(s, 0, 0);
    S(s, 0, m);
    R(s, 1, m);
    C(s, 1, 1);
    *sout = s;
    *gout = g;
    return both(s, r, a);
}

START_TEST(pipelined_receive_sender_bound)
{
    Arena *a = arena_new();
    EvalResult r;
    Sched *s;
    Graph *g;
    ck_assert_int_eq(pipelined_case(true, &r, a, &s, &g), 13192);
    ck_op(s, &r, 1, 0, 0, 300, 4164, 4664);
    ck_op(s, &r, 1, 1, 0, 5164, 8328, 8828);
    ck_op(s, &r, 1, 2, 0, 9328, 12492, 12692);
    ck_assert_int_eq(r.msg_time[1].post, 4664);
    ck_assert_int_eq(r.msg_time[2].post, 8828);
    ck_assert_int_eq(r.msg_time[2].depart, 12228);
    ir_sched_free(s);
    ir_graph_free(g);
    ck_assert_int_eq(pipelined_case(false, &r, a, &s, &g), 13392);
    ir_sched_free(s);
    ir_graph_free(g);
    arena_free(a);
}
END_TEST

/* A feedback loop: a (1000) on DSP 0 -> 64 bytes -> b (2000) on DSP 1, and b -> a with
 * delay 1; 3 iterations.  DSP 0 = [RECV m1, a, SEND m0], DSP 1 = [RECV m0, b, SEND m1].
 * it 0: RECV m1 skipped; a 0-1000, send m0 -1600; DSP 1 posted 0, depart 1900, arrive
 *       2164, receive -2564, b -4564, send m1 -5164.
 * it 1: DSP 0 posts m1 at 1600, depart 5464, arrive 5728, receive -6128; a 6128-7128
 *       (its buffer was free at 2164), send -7728; DSP 1 posts at 5164, depart 8028,
 *       arrive 8292, receive -8692, b -10692 (b's buffer free at 5728), send m1 -11292.
 * it 2: DSP 0 posted at 7728, depart 11592, arrive 11856, receive -12256, a -13256, send
 *       -13856; DSP 1 posted at 11292, depart 14156, arrive 14420, receive -14820, b
 *       -16820; the last send of m1 is skipped. */
START_TEST(delay_edge_feedback_loop)
{
    int64_t cyc[] = {1000, 2000};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, 3);
    add_edge(g, 0, 1, 64, 0);
    add_edge(g, 1, 0, 64, 1);
    ck_assert_int_eq(ir_graph_index(g), 0);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    int m0 = msg1(s, 0, 1, 0, false), m1 = msg1(s, 1, 0, 1, false);
    ck_assert_int_eq(s->msgs[m1].delay, 1);
    R(s, 0, m1);
    C(s, 0, 0);
    S(s, 0, m0);
    R(s, 1, m0);
    C(s, 1, 1);
    S(s, 1, m1);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 16820);
    ck_op(s, &r, 0, 0, 0, 0, 0, 0); /* skipped receive */
    ck_op(s, &r, 0, 1, 0, 1600, 5728, 6128);
    ck_op(s, &r, 0, 1, 1, 6128, 6128, 7128);
    ck_op(s, &r, 1, 1, 1, 8692, 8692, 10692);
    ck_op(s, &r, 0, 2, 0, 7728, 11856, 12256);
    ck_op(s, &r, 1, 2, 2, 16820, 16820, 16820); /* skipped send */
    /* transfer (m1, 0) is received in iteration 1; (m1, 2) never happens */
    ck_assert_int_eq(r.msg_time[0 * 2 + m1].issue, 5164);
    ck_assert_int_eq(r.msg_time[0 * 2 + m1].post, 1600);
    ck_assert_int_eq(r.msg_time[0 * 2 + m1].arrive, 5728);
    ck_assert_int_eq(r.msg_time[2 * 2 + m1].issue, -1);
    ck_assert_int_eq(r.busy[0], 1600 + 2000 + 2000);
    ck_assert_int_eq(r.busy[1], 3000 + 3000 + 2400);
    arena_free(a);
    diag_free(d);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Eager (eager_limit = 64): the data leaves at the issue, no handshake, no post; the
 * pipelined flag is ignored.  it 0: a 0-1000, send -1600, arrive 1864, receive -2264, b
 * -4264.  it 1: a 1864-2864, send -3464, arrive 3728, receive 4264-4664, b -6664. */
START_TEST(eager_message_skips_the_handshake)
{
    for (int pipe = 0; pipe < 2; pipe++) {
        Graph *g;
        Sched *s = worked_example(&g, pipe);
        g->platform->eager_limit = 64;
        Arena *a = arena_new();
        EvalResult r;
        ck_assert_int_eq(both(s, &r, a), 6664);
        ck_assert_int_eq(r.msg_time[0].depart, 1600);
        ck_assert_int_eq(r.msg_time[1].arrive, 3728);
        ck_op(s, &r, 1, 1, 0, 4264, 4264, 4664);
        g->platform->eager_limit = 63; /* one byte less: rendezvous again */
        Evaluator *ev = eval_new(g, g->platform);
        ck_assert_int_eq(eval_length(ev, s), pipe ? 6864 : 7528);
        eval_free(ev);
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST

/* --- deadlocks: the reported cycle is (blocked op, awaited op) per DSP, from the lowest
 * DSP of the cycle, in the order of the waits. */

static void
ck_step(const EvalResult *r, int j, int dsp, int op, int64_t iter)
{
    ck_assert_int_ge(r->ncycle, j + 1);
    ck_assert_int_eq(r->cycle[j].dsp, dsp);
    ck_assert_int_eq(r->cycle[j].op, op);
    ck_assert_int_eq(r->cycle[j].iter, iter);
}

/* DSP 0 = [RECV m1, c, a, SEND m0], DSP 1 = [RECV m0, d, b, SEND m1]: both receive first.
 */
START_TEST(deadlock_both_receive_first)
{
    int64_t cyc[] = {100, 100, 100, 100}; /* a b c d */
    Graph *g = mk_graph("bwdsp-1board", 4, cyc, 10);
    add_edge(g, 0, 3, 64, 0); /* a -> d */
    add_edge(g, 1, 2, 64, 0); /* b -> c */
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = s->map[2] = 0;
    s->map[1] = s->map[3] = 1;
    int m0 = msg1(s, 0, 1, 0, false), m1 = msg1(s, 1, 0, 1, false);
    R(s, 0, m1);
    C(s, 0, 2);
    C(s, 0, 0);
    S(s, 0, m0);
    R(s, 1, m0);
    C(s, 1, 3);
    C(s, 1, 1);
    S(s, 1, m1);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), -1);
    ck_assert(r.deadlock);
    ck_assert_int_eq(r.ncycle, 4);
    ck_step(&r, 0, 0, 0, 0); /* DSP 0 blocked at RECV m1 */
    ck_step(&r, 1, 1, 3, 0); /* waiting for DSP 1's SEND m1 */
    ck_step(&r, 2, 1, 0, 0); /* DSP 1 blocked at RECV m0 */
    ck_step(&r, 3, 0, 3, 0); /* waiting for DSP 0's SEND m0 */
    eval_report_deadlock(s, &r, d);
    ck_assert_str_eq(
        diag_text(d),
        "test.json: error: schedule deadlocks: DSP 0: RECV m1 (\"b\" -> \"c\") "
        "(iteration 0) waits for DSP 1: SEND m1 (\"b\" -> \"c\") (iteration 0) -> "
        "DSP 1: RECV m0 (\"a\" -> \"d\") (iteration 0) waits for DSP 0: SEND m0 "
        "(\"a\" -> \"d\") (iteration 0)\n");
    Unit u = {.g = g, .p = g->platform, .s = s};
    diag_clear(d);
    ck_assert_int_eq(pass_verify(&u, d), -1);
    ck_assert_int_eq(diag_errors(d), 1);
    arena_free(a);
    diag_free(d);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Three DSPs in a ring: DSP x = [RECV from x - 1, b_x, a_x, SEND to x + 1]. */
START_TEST(deadlock_cycle_through_three_dsps)
{
    int64_t cyc[] = {100, 100, 100, 100, 100, 100}; /* a0 a1 a2 b0 b1 b2 */
    Graph *g = mk_graph("bwdsp-1board", 6, cyc, 5);
    for (int x = 0; x < 3; x++)
        add_edge(g, x, 3 + (x + 1) % 3, 8, 0); /* a_x -> b_(x+1) */
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    for (int x = 0; x < 3; x++)
        s->map[x] = s->map[3 + x] = x;
    int m[3];
    for (int x = 0; x < 3; x++)
        m[x] = msg1(s, x, (x + 1) % 3, x, false);
    for (int x = 0; x < 3; x++) {
        R(s, x, m[(x + 2) % 3]);
        C(s, x, 3 + x);
        C(s, x, x);
        S(s, x, m[x]);
    }
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), -1);
    ck_assert_int_eq(r.ncycle, 6);
    ck_step(&r, 0, 0, 0, 0); /* DSP 0 at RECV m2 waits for DSP 2 to send it */
    ck_step(&r, 1, 2, 3, 0);
    ck_step(&r, 2, 2, 0, 0); /* DSP 2 at RECV m1 waits for DSP 1 */
    ck_step(&r, 3, 1, 3, 0);
    ck_step(&r, 4, 1, 0, 0); /* DSP 1 at RECV m0 waits for DSP 0 */
    ck_step(&r, 5, 0, 3, 0);
    arena_free(a);
    diag_free(d);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* A merged message placed badly: m0 = {a -> b, c -> d} from DSP 0 to DSP 1 is sent after
 * c but received before b, and c needs b's output: DSP 0 = [a, RECV m1, c, SEND m0], DSP
 * 1 = [RECV m0, b, SEND m1, d]. */
START_TEST(deadlock_merged_receive_before_its_send)
{
    int64_t cyc[] = {100, 100, 100, 100}; /* a b c d */
    Graph *g = mk_graph("bwdsp-1board", 4, cyc, 4);
    int e[2];
    e[0] = add_edge(g, 0, 1, 10, 0);   /* a -> b */
    int eb = add_edge(g, 1, 2, 10, 0); /* b -> c */
    e[1] = add_edge(g, 2, 3, 10, 0);   /* c -> d */
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = s->map[2] = 0;
    s->map[1] = s->map[3] = 1;
    int m0 = msg(s, 0, 1, e, 2, false), m1 = msg1(s, 1, 0, eb, false);
    C(s, 0, 0);
    R(s, 0, m1);
    C(s, 0, 2);
    S(s, 0, m0);
    R(s, 1, m0);
    C(s, 1, 1);
    S(s, 1, m1);
    C(s, 1, 3);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), -1);
    ck_assert_int_eq(r.ncycle, 4);
    ck_step(&r, 0, 0, 1, 0); /* DSP 0 at RECV m1 */
    ck_step(&r, 1, 1, 2, 0); /* waits for DSP 1's SEND m1 */
    ck_step(&r, 2, 1, 0, 0); /* DSP 1 at RECV m0 (merged) */
    ck_step(&r, 3, 0, 3, 0); /* waits for DSP 0's SEND m0, after c */
    arena_free(a);
    diag_free(d);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* A deadlock that only appears in iteration 1: p -> c with delay 2 and zero copy.
 * DSP 0 = [p, SEND m0 (delay 2), q, SEND m1], DSP 1 = [RECV m1, r, RECV m0, c]; p -> q on
 * DSP 0, q -> r by m1.  p of iteration 1 needs transfer (m0, 0) out of its buffer, which
 * DSP 1 posts in iteration 1 (every delayed transfer is received one iteration after its
 * send), but only after RECV m1 of iteration 1, which needs q of iteration 1: the same
 * cycle as a delay-1 receive at its consumer (check_comm).  Receiving m0 first, where
 * comm_insert puts it, breaks the cycle, blocking or pipelined. */
START_TEST(deadlock_in_a_later_iteration)
{
    int64_t cyc[] = {100, 100, 100, 100}; /* p q r c */
    Graph *g = mk_graph("bwdsp-1board", 4, cyc, 5);
    add_edge(g, 0, 3, 16, 2); /* p -> c, delay 2 */
    add_edge(g, 0, 1, 16, 0); /* p -> q */
    add_edge(g, 1, 2, 16, 0); /* q -> r */
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = s->map[1] = 0;
    s->map[2] = s->map[3] = 1;
    int m0 = msg1(s, 0, 1, 0, false), m1 = msg1(s, 0, 1, 2, false);
    C(s, 0, 0);
    S(s, 0, m0);
    C(s, 0, 1);
    S(s, 0, m1);
    R(s, 1, m1);
    C(s, 1, 2);
    R(s, 1, m0);
    C(s, 1, 3);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), -1);
    ck_assert_int_eq(r.ncycle, 4);
    ck_step(&r, 0, 0, 0, 1); /* DSP 0 at COMPUTE p, iteration 1 */
    ck_step(&r, 1, 1, 2, 1); /* waits for DSP 1's RECV m0 of iteration 1 (the post) */
    ck_step(&r, 2, 1, 0, 1); /* DSP 1 at RECV m1, iteration 1 */
    ck_step(&r, 3, 0, 3, 1); /* waits for DSP 0's SEND m1 of iteration 1 */
    s->ops[1][0] = (Op){OP_RECV, m0};
    s->ops[1][1] = (Op){OP_RECV, m1};
    s->ops[1][2] = (Op){OP_COMPUTE, 2};
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    diag_free(d);
    ck_assert_int_gt(both(s, &r, a), 0);
    s->msgs[m0].pipelined = true;
    ck_assert_int_gt(both(s, &r, a), 0);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* --- delay edges across DSPs with zero-delay traffic in the same direction (the case
 * that deadlocked when a delay-d transfer was received d iterations after its send).
 * a (1000) on DSP 0, b (2000) on DSP 1, bwdsp-1board; e0 = a -> b (64 bytes), e1 = a -> b
 * (64 bytes, delay d); N iterations.  DSP 0 = [a, SEND m0, SEND m1], DSP 1 = [RECV m1,
 * RECV m0, b] (what comm_insert gives, see check_comm).  Costs: send 600, receive 400,
 * handshake 300, fabric 264 (the worked example). */
static Sched *
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

/* Delay 2, 10 iterations, blocking.  m1 is sent in iterations 0-7 (the data of 8 and 9
 * would be read in iterations 10 and 11) and received in iterations 1-8; b of iteration j
 * reads the ring slot of j - 2.
 * it 0: a 0-1000, SEND m0 -1600, SEND m1 -2200 (issued 2200); DSP 1: RECV m1 skipped,
 *       RECV m0 posted 0, data 1900-2164, -2564; b -4564.
 * it 1: a is ready at 2200 but waits (zero copy) for (m1, 0), which DSP 1 posts when it
 *       reaches RECV m1 at 4564: data 4864-5128; a 5128-6128, sends -6728 and -7328.
 *       DSP 1: RECV m1 5128-5528; RECV m0 posted 5528, data 7028-7292, -7692; b -9692.
 * From then on b ends every 5128 cycles (post of m1 at the end of b, + 300 + 264, a 1000,
 * SEND m0 600, + 300 + 264, RECV m0 400, b 2000; RECV m1 ends before the issue of m0):
 * b of iteration j ends at 4564 + 5128 j for j <= 8 (40460 at j = 7, 45588 at j = 8).
 * it 8: a 41024-42024 (after (m1, 7): posted 40460, arrived 41024), SEND m0 -42624, SEND
 *       m1 skipped; DSP 1: RECV m1 41024-41424, RECV m0 posted 41424, data 42924-43188,
 *       -43588; b -45588.
 * it 9: a waits only for (m0, 8): 43188-44188, SEND m0 -44788; DSP 1: RECV m1 skipped
 *       at 45588, RECV m0 posted 45588, data 45888-46152, -46552; b 46552-48552.
 * Length 48552 = 4564 + 5128 (N - d) + 2964 (d - 1). */
START_TEST(delay_two_across_dsps_with_zero_delay_traffic)
{
    Graph *g;
    Sched *s = delay_pair(&g, 2, 10, false);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 48552);
    ck_op(s, &r, 1, 0, 0, 0, 0, 0);          /* RECV m1 of iteration 0 skipped */
    ck_op(s, &r, 1, 0, 1, 0, 2164, 2564);    /* RECV m0 */
    ck_op(s, &r, 0, 0, 2, 1600, 1600, 2200); /* SEND m1 */
    ck_op(s, &r, 0, 1, 0, 2200, 5128, 6128); /* a waits for (m1, 0) */
    ck_op(s, &r, 1, 1, 0, 4564, 5128, 5528); /* RECV m1: (m1, 0) */
    ck_op(s, &r, 1, 1, 1, 5528, 7292, 7692);
    ck_op(s, &r, 1, 1, 2, 7692, 7692, 9692);
    ck_op(s, &r, 1, 7, 2, 38460, 38460, 40460);
    ck_op(s, &r, 0, 8, 0, 38096, 41024, 42024); /* after SEND m1 of 7 */
    ck_op(s, &r, 0, 8, 2, 42624, 42624, 42624); /* SEND m1 of iteration 8 skipped */
    ck_op(s, &r, 1, 8, 0, 40460, 41024, 41424); /* RECV m1: (m1, 7) */
    ck_op(s, &r, 1, 8, 2, 43588, 43588, 45588);
    ck_op(s, &r, 0, 9, 0, 42624, 43188, 44188); /* only (m0, 8) to wait for */
    ck_op(s, &r, 0, 9, 2, 44788, 44788, 44788);
    ck_op(s, &r, 1, 9, 0, 45588, 45588, 45588); /* RECV m1 of iteration 9 skipped */
    ck_op(s, &r, 1, 9, 1, 45588, 46152, 46552);
    ck_op(s, &r, 1, 9, 2, 46552, 46552, 48552);
    MsgTime t = r.msg_time[0 * 2 + 1]; /* (m1, 0): sent in iteration 0, received in 1 */
    ck_assert_int_eq(t.issue, 2200);
    ck_assert_int_eq(t.post, 4564);
    ck_assert_int_eq(t.depart, 4864);
    ck_assert_int_eq(t.arrive, 5128);
    t = r.msg_time[7 * 2 + 1];
    ck_assert_int_eq(t.post, 40460);
    ck_assert_int_eq(t.arrive, 41024);
    ck_assert_int_eq(r.msg_time[8 * 2 + 1].issue, -1); /* never sent */
    ck_assert_int_eq(r.msg_time[9 * 2 + 1].post, -1);
    ck_assert_int_eq(r.busy[0], 10 * 1000 + 10 * 600 + 8 * 600);
    ck_assert_int_eq(r.busy[1], 8 * 400 + 10 * 400 + 10 * 2000);
    Unit u = {.g = g, .p = g->platform, .s = s};
    Diag *d = diag_new();
    ck_assert_int_eq(pass_verify(&u, d), 0);
    diag_free(d);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Delay 3, 10 iterations: m1 sent in 0-6, received in 1-7.  b of iteration j ends at
 * 4564 + 5128 j for j <= 7 (40460); a of iteration 7 runs 35896-36896 and its SEND m1 is
 * skipped, so DSP 0 ends iteration 7 at 37496 (SEND m0 36896-37496, (m0, 7) arrives
 * 38060).
 * it 8: a 38060-39060, SEND m0 -39660; DSP 1: RECV m1 skipped, RECV m0 posted 40460, data
 *       40760-41024, -41424; b -43424.
 * it 9: a 41024-42024, SEND m0 -42624; DSP 1: RECV m0 posted 43424, data 43724-43988,
 *       -44388; b -46388.
 * Length 46388 = 4564 + 5128 * 7 + 2964 * 2. */
START_TEST(delay_three_across_dsps_with_zero_delay_traffic)
{
    Graph *g;
    Sched *s = delay_pair(&g, 3, 10, false);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 46388);
    ck_op(s, &r, 1, 7, 0, 35332, 35896, 36296); /* RECV m1: (m1, 6), the last */
    ck_op(s, &r, 1, 7, 2, 38460, 38460, 40460);
    ck_op(s, &r, 0, 7, 2, 37496, 37496, 37496); /* SEND m1 of iteration 7 skipped */
    ck_op(s, &r, 0, 8, 0, 37496, 38060, 39060);
    ck_op(s, &r, 1, 8, 0, 40460, 40460, 40460); /* RECV m1 of iteration 8 skipped */
    ck_op(s, &r, 1, 8, 1, 40460, 41024, 41424);
    ck_op(s, &r, 1, 8, 2, 41424, 41424, 43424);
    ck_op(s, &r, 1, 9, 0, 43424, 43424, 43424);
    ck_op(s, &r, 1, 9, 2, 44388, 44388, 46388);
    ck_assert_int_eq(r.msg_time[6 * 2 + 1].arrive, 35896);
    ck_assert_int_eq(r.msg_time[7 * 2 + 1].issue, -1);
    ck_assert_int_eq(r.busy[1], 7 * 400 + 10 * 400 + 10 * 2000);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* delay >= iterations: m1 is never sent nor received (no prolog when pipelined either),
 * so the schedule runs as the worked example over 10 iterations: 4564 + 2964 * 9 =
 * 31240.  delay = iterations - 1 = 9: m1 is sent in iteration 0 only and received in 1:
 * b ends at 4564, 9692 (as with delay 2), then every 2964 cycles: 9692 + 2964 * 8 =
 * 33404. */
START_TEST(delay_at_least_the_iterations)
{
    int delays[] = {10, 11, 1000};
    for (int j = 0; j < 3; j++)
        for (int pipe = 0; pipe < 2; pipe++) {
            Graph *g;
            Sched *s = delay_pair(&g, delays[j], 10, pipe);
            Arena *a = arena_new();
            EvalResult r;
            ck_assert_int_eq(both(s, &r, a), 31240);
            for (int i = 0; i < 10; i++) {
                OpTime o = ot(s, &r, 1, i, 0), x = ot(s, &r, 0, i, 2);
                ck_assert_int_eq(o.start, o.ready); /* RECV m1 skipped */
                ck_assert_int_eq(o.end, o.ready);
                ck_assert_int_eq(x.end, x.ready); /* SEND m1 skipped */
                ck_assert_int_eq(r.msg_time[i * 2 + 1].issue, -1);
                ck_assert_int_eq(r.msg_time[i * 2 + 1].post, -1);
            }
            ck_assert_int_eq(r.busy[1], 10 * 400 + 10 * 2000);
            arena_free(a);
            ir_sched_free(s);
            ir_graph_free(g);
        }
    Graph *g;
    Sched *s = delay_pair(&g, 9, 10, false);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 33404);
    ck_op(s, &r, 1, 1, 0, 4564, 5128, 5528);
    ck_op(s, &r, 1, 2, 0, 9692, 9692, 9692);
    ck_assert_int_eq(r.msg_time[1].arrive, 5128);
    ck_assert_int_eq(r.msg_time[1 * 2 + 1].issue, -1);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Delay 2, 10 iterations, RECV m1 pipelined (m0 blocking).  The prolog posts (m1, 0),
 * 0-300, for the receive of iteration 1; the receive of iteration j waits for (m1, j -
 * 1), 200, and posts (m1, j), 300, while (m1, j) is ever sent (j <= 7); the receive of 8
 * only waits; 0 and 9 are skipped. it 0: a 0-1000, SEND m0 -1600, SEND m1 -2200: (m1, 0)
 * departs 2500, arrives 2764. DSP 1: RECV m1 skipped at 300; RECV m0 posted 300, data
 * 1900-2164, -2564; b -4564. it 1: a waits for (m1, 0): 2764-3764, SEND m0 -4364, SEND m1
 * -4964.  DSP 1: RECV m1 4564-4764, posts (m1, 1) -5064; RECV m0 posted 5064, data
 * 5364-5628, -6028; b -8028.  (m1, 1): issued 4964, posted 5064, arrives 5628. From then
 * on DSP 1 is the bottleneck: 500 + 300 + 264 + 400 + 2000 = 3464 per iteration (the
 * issue of m0 comes before its post), so b of iteration j ends at 4564 + 3464 j for j <=
 * 7: 28812 at j = 7. it 8: a 26412-27412 ((m1, 7) posted 25848 and issued 25148 arrives
 * 26412), SEND m0 -28012, SEND m1 skipped.  DSP 1: RECV m1 28812-29012 (no post: (m1, 8)
 * is never sent); RECV m0 posted 29012, data 29312-29576, -29976; b -31976. it 9: a
 * 29576-30576, SEND m0 -31176; DSP 1: RECV m1 skipped, RECV m0 posted 31976, data
 *       32276-32540, -32940; b -34940.
 * Length 34940 (blocking: 48552). */
START_TEST(delay_two_pipelined)
{
    Graph *g;
    Sched *s = delay_pair(&g, 2, 10, true);
    /* contention-free: in iteration 7 (m0, 7) and (m1, 7) would share the links (the
     * contended model is checked below, contention_*) */
    g->platform->no_contention = true;
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 34940);
    ck_op(s, &r, 1, 0, 0, 300, 300, 300); /* skipped, after the prolog */
    ck_op(s, &r, 1, 0, 1, 300, 2164, 2564);
    ck_op(s, &r, 0, 1, 0, 2200, 2764, 3764);
    ck_op(s, &r, 1, 1, 0, 4564, 4564, 5064); /* wait + post (m1, 1) */
    ck_op(s, &r, 1, 1, 2, 6028, 6028, 8028);
    ck_op(s, &r, 1, 7, 0, 25348, 25348, 25848); /* posts (m1, 7), the last sent */
    ck_op(s, &r, 1, 7, 2, 26812, 26812, 28812);
    ck_op(s, &r, 0, 8, 0, 25148, 26412, 27412);
    ck_op(s, &r, 1, 8, 0, 28812, 28812, 29012); /* wait only */
    ck_op(s, &r, 1, 8, 2, 29976, 29976, 31976);
    ck_op(s, &r, 1, 9, 0, 31976, 31976, 31976); /* skipped */
    ck_op(s, &r, 1, 9, 2, 32940, 32940, 34940);
    ck_assert_int_eq(r.msg_time[0 * 2 + 1].post, 300);
    ck_assert_int_eq(r.msg_time[0 * 2 + 1].arrive, 2764);
    ck_assert_int_eq(r.msg_time[1 * 2 + 1].post, 5064);
    ck_assert_int_eq(r.msg_time[1 * 2 + 1].arrive, 5628);
    ck_assert_int_eq(r.msg_time[7 * 2 + 1].post, 25848);
    ck_assert_int_eq(r.msg_time[7 * 2 + 1].issue, 25148);
    ck_assert_int_eq(r.msg_time[8 * 2 + 1].post, -1);
    ck_assert_int_eq(r.busy[1], 300 + 7 * 500 + 200 + 10 * 400 + 10 * 2000);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* ---- contention: the packets of transfers that share a directed link go one at a time,
 * the shorter message first, then the one issued first (issue time, source DSP, its send
 * order); the same cases as the runtime's tests (tests/runtime/check_mpirio_p2p.c).  Two
 * producers x on DSP 1 and y on DSP 2 send 2500 or 250 bytes to z on DSP 0 (cost 0),
 * which receives them pipelined (posted in the prolog at 300 and 600) and waits for them
 * in op order (200 each).  2500 bytes are 10 packets of 250 cycles; a switch adds 100. */
static Sched *
two_into_one(Graph **gout, const char *plat, int64_t cx, int64_t bx, int64_t by, int dz)
{
    int64_t cyc[] = {cx, 0, 0};
    Graph *g = mk_graph(plat, 3, cyc, 1);
    add_edge(g, 0, 2, bx, 0);
    add_edge(g, 1, 2, by, 0);
    ck_assert_int_eq(ir_graph_index(g), 0);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 1;
    s->map[1] = 2;
    s->map[2] = dz;
    int mx = msg1(s, 1, dz, 0, true), my = msg1(s, 2, dz, 1, true);
    C(s, 1, 0);
    S(s, 1, mx);
    C(s, 2, 1);
    S(s, 2, my);
    R(s, dz, mx);
    R(s, dz, my);
    C(s, dz, 2);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    diag_free(d);
    *gout = g;
    return s;
}

/* x computes 1000 first: issued 1600, departs 1900; y: issued 600, departs 900, its
 * packets hold DSP 0's link 1250-3750.  x's first packet is ready for that link at 2250,
 * but y was issued first: x's packets follow, 3750-6250.  z waits for x 6250-6450, for y
 * 6450-6650.  Without contention x arrives 1900 + 2850 = 4750: 4950, 5150. */
START_TEST(contention_issue_order)
{
    Graph *g;
    Sched *s = two_into_one(&g, "bwdsp-1board", 1000, 2500, 2500, 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 6650);
    ck_op(s, &r, 0, 0, 0, 600, 6250, 6450);
    ck_op(s, &r, 0, 0, 1, 6450, 6450, 6650);
    ck_assert_int_eq(r.msg_time[0].depart, 1900);
    ck_assert_int_eq(r.msg_time[0].arrive, 6250);
    ck_assert_int_eq(r.msg_time[1].depart, 900);
    ck_assert_int_eq(r.msg_time[1].arrive, 3750);
    g->platform->no_contention = true;
    ck_assert_int_eq(both(s, &r, a), 5150);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Both depart at 900; their first packets are ready for DSP 0's link at 1250 together:
 * y's one packet (250 bytes) goes first, 1250-1500, x's ten follow, 1500-4000 (3750
 * alone).  z: 4000-4200, 4200-4400. */
START_TEST(contention_shorter_message_first)
{
    Graph *g;
    Sched *s = two_into_one(&g, "bwdsp-1board", 0, 2500, 250, 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 4400);
    ck_assert_int_eq(r.msg_time[0].arrive, 4000);
    ck_assert_int_eq(r.msg_time[1].arrive, 1500);
    g->platform->no_contention = true;
    ck_assert_int_eq(both(s, &r, a), 4150);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Across the board link of bwdsp-2board: x (DSP 1) to DSP 4 and y (DSP 2) to DSP 5, 2500
 * bytes each, both issued at 600 and departing at 900 on their own up links; their
 * packets are ready for the board link at 1250 + 250 j together, the lower source DSP
 * first: x holds it 1250-3750, y 3750-6250.  x reaches DSP 4's link at 1600 + 250 j and
 * arrives 4100 (as alone: 900 + 10 x 250 + 2 x 350); y 6600.  Waits of 200: 4300, 6800.
 */
static Sched *
two_across(Graph **gout)
{
    int64_t cyc[] = {0, 0, 0, 0};
    Graph *g = mk_graph("bwdsp-2board", 4, cyc, 1);
    add_edge(g, 0, 2, 2500, 0);
    add_edge(g, 1, 3, 2500, 0);
    ck_assert_int_eq(ir_graph_index(g), 0);
    Sched *s = ir_sched_new(g, g->platform);
    int dsp[] = {1, 2, 4, 5};
    for (int t = 0; t < 4; t++)
        s->map[t] = dsp[t];
    int mx = msg1(s, 1, 4, 0, true), my = msg1(s, 2, 5, 1, true);
    C(s, 1, 0);
    S(s, 1, mx);
    C(s, 2, 1);
    S(s, 2, my);
    R(s, 4, mx);
    C(s, 4, 2);
    R(s, 5, my);
    C(s, 5, 3);
    *gout = g;
    return s;
}

START_TEST(contention_on_the_board_link)
{
    Graph *g;
    Sched *s = two_across(&g);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(both(s, &r, a), 6800);
    ck_assert_int_eq(r.msg_time[0].arrive, 4100);
    ck_assert_int_eq(r.msg_time[1].arrive, 6600);
    ck_op(s, &r, 4, 0, 0, 300, 4100, 4300);
    ck_op(s, &r, 5, 0, 0, 300, 6600, 6800);
    g->platform->no_contention = true;
    ck_assert_int_eq(both(s, &r, a), 4300);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* --- a reference: the definitions of docs/design.md section 3 written as a memoized
 * recursion over every operation instance (full arrays, no window, no rings).  A
 * dependence cycle met on the recursion stack is a deadlock.  The delay rule, as
 * docs/evaluator.md states it: the data of iteration x is sent in iteration x unless x >=
 * n - delay, and received in iteration x when the delay is 0, else in iteration x + 1
 * (into the ring of `delay` buffers). */

typedef struct Ref {
    const Sched *s;
    const Platform *p;
    int64_t n;
    int *off;            /* [ndsps + 1] first op of each DSP in the flat arrays */
    int64_t *end;        /* [ops * n] */
    char *st;            /* 0 new, 1 on the stack, 2 done */
    int64_t *prolog_end; /* [ndsps] */
    int64_t *first_post; /* [nmsgs] prolog post time */
    int *send_k, *recv_k;
    bool cycle;
} Ref;

static int64_t ref_end(Ref *r, int d, int k, int64_t i);

static int64_t
ref_ready(Ref *r, int d, int k, int64_t i)
{
    if (k > 0)
        return ref_end(r, d, k - 1, i);
    if (i > 0)
        return ref_end(r, d, r->s->nops[d] - 1, i - 1);
    return r->prolog_end[d];
}

static bool
ref_eager(const Ref *r, int m)
{
    return r->s->msgs[m].bytes <= r->p->eager_limit;
}

/* Is the data of iteration x of message m ever sent? */
static bool
ref_sent(const Ref *r, const Msg *ms, int64_t x)
{
    return x >= 0 && x + ms->delay < r->n;
}

/* The iteration whose RECV takes in the data of iteration x. */
static int64_t
ref_recv_iter(const Msg *ms, int64_t x)
{
    return ms->delay == 0 ? x : x + 1;
}

static int64_t
ref_arrive(Ref *r, int m, int64_t x)
{
    const Msg *ms = &r->s->msgs[m];
    int64_t issue = ref_end(r, ms->src, r->send_k[m], x), dep = issue;
    if (!ref_eager(r, m)) {
        int64_t post;
        if (!ms->pipelined) /* posted when the receive is reached */
            post = ref_ready(r, ms->dst, r->recv_k[m], ref_recv_iter(ms, x));
        else if (x == 0) /* the prolog */
            post = r->first_post[m];
        else /* at the end of the receive of the data of x - 1 */
            post = ref_end(r, ms->dst, r->recv_k[m], ref_recv_iter(ms, x - 1));
        dep = (issue > post ? issue : post) + r->p->handshake;
    }
    return dep + plat_fabric_time(r->p, ms->src, ms->dst, ms->bytes);
}

static int64_t
ref_end(Ref *r, int d, int k, int64_t i)
{
    size_t id = (size_t)(r->off[d] + k) * (size_t)r->n + (size_t)i;
    if (r->st[id] == 2)
        return r->end[id];
    if (r->st[id] == 1 || r->cycle) {
        r->cycle = true;
        return 0;
    }
    r->st[id] = 1;
    const Sched *s = r->s;
    const Platform *p = r->p;
    int64_t ready = ref_ready(r, d, k, i), start = ready, end = ready;
    Op o = s->ops[d][k];
    if (o.kind == OP_COMPUTE) {
        for (int m = 0; m < s->nmsgs && i > 0; m++) {
            const Msg *ms = &s->msgs[m];
            if (ms->nedges == 1 && s->g->edges[ms->edges[0]].from == o.ref &&
                ref_sent(r, ms, i - 1)) {
                int64_t a = ref_arrive(r, m, i - 1);
                start = a > start ? a : start;
            }
        }
        end = start + ir_task_cycles(&s->g->tasks[o.ref], d);
    } else {
        const Msg *ms = &s->msgs[o.ref];
        int64_t copy = ms->nedges > 1 ? (ms->bytes + p->copy_bytes_per_cycle - 1) /
                                            p->copy_bytes_per_cycle
                                      : 0;
        /* the data this RECV takes in: of iteration i, or i - 1 with a delay */
        int64_t x = ms->delay == 0 ? i : i - 1;
        if (o.kind == OP_SEND && ref_sent(r, ms, i)) {
            if (ms->nedges > 1 && i > 0) {
                int64_t a = ref_arrive(r, o.ref, i - 1);
                start = a > start ? a : start;
            }
            end = start + p->send_overhead + copy;
        } else if (o.kind == OP_RECV && ref_sent(r, ms, x)) {
            int64_t a = ref_arrive(r, o.ref, x);
            start = a > start ? a : start;
            bool pipe = ms->pipelined && !ref_eager(r, o.ref);
            /* a pipelined receive posts the next data, if that is ever sent */
            end = start + (pipe ? p->wait_overhead : p->recv_overhead) + copy +
                  (pipe && ref_sent(r, ms, x + 1) ? p->post_overhead : 0);
        }
    }
    r->st[id] = 2;
    r->end[id] = end;
    return end;
}

/* Length by the reference, or -1 on a cycle; r->end holds every end time. */
static int64_t
ref_length(Ref *r, const Sched *s)
{
    int nd = s->ndsps, tot = 0;
    int64_t n = s->g->iterations;
    memset(r, 0, sizeof *r);
    r->s = s;
    r->p = s->p;
    r->n = n;
    r->off = calloc((size_t)nd + 1, sizeof *r->off);
    for (int d = 0; d < nd; d++) {
        r->off[d] = tot;
        tot += s->nops[d];
    }
    r->off[nd] = tot;
    r->end = calloc((size_t)tot * (size_t)n + 1, sizeof *r->end);
    r->st = calloc((size_t)tot * (size_t)n + 1, 1);
    r->prolog_end = calloc((size_t)nd, sizeof *r->prolog_end);
    r->first_post = calloc((size_t)s->nmsgs + 1, sizeof *r->first_post);
    r->send_k = calloc((size_t)s->nmsgs + 1, sizeof *r->send_k);
    r->recv_k = calloc((size_t)s->nmsgs + 1, sizeof *r->recv_k);
    for (int d = 0; d < nd; d++)
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            if (o.kind == OP_SEND)
                r->send_k[o.ref] = k;
            if (o.kind != OP_RECV)
                continue;
            r->recv_k[o.ref] = k;
            const Msg *ms = &s->msgs[o.ref];
            if (ms->pipelined && !ref_eager(r, o.ref) && ref_sent(r, ms, 0)) {
                r->prolog_end[d] += s->p->post_overhead;
                r->first_post[o.ref] = r->prolog_end[d];
            }
        }
    int64_t len = 0;
    for (int d = 0; d < nd && !r->cycle; d++) {
        int64_t e = s->nops[d] ? ref_end(r, d, s->nops[d] - 1, n - 1) : 0;
        len = e > len ? e : len;
    }
    return r->cycle ? -1 : len;
}

static void
ref_free(Ref *r)
{
    free(r->off);
    free(r->end);
    free(r->st);
    free(r->prolog_end);
    free(r->first_post);
    free(r->send_k);
    free(r->recv_k);
}

static uint64_t
rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Merges message b into message a (same DSPs and delay): the SEND at the later of the two
 * slots, the RECV at the earlier; the last message takes b's id. */
static void
merge(Sched *s, int a, int b)
{
    Msg *ma = &s->msgs[a], *mb = &s->msgs[b];
    int *e = arena_array(s->arena, (size_t)(ma->nedges + mb->nedges), sizeof *e);
    memcpy(e, ma->edges, (size_t)ma->nedges * sizeof *e);
    memcpy(e + ma->nedges, mb->edges, (size_t)mb->nedges * sizeof *e);
    for (int j = 0; j < mb->nedges; j++)
        s->edge_msg[mb->edges[j]] = a;
    ma->edges = e;
    ma->nedges += mb->nedges;
    ma->bytes += mb->bytes;
    for (int d = 0; d < s->ndsps; d++) {
        int w = 0, first_recv = -1;
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            bool ours = o.kind != OP_COMPUTE && (o.ref == a || o.ref == b);
            if (ours && o.kind == OP_RECV) {
                if (first_recv >= 0)
                    continue;
                first_recv = w;
                o.ref = a;
            } else if (ours && o.kind == OP_SEND) {
                bool later = false; /* keep only the last SEND of the two */
                for (int j = k + 1; j < s->nops[d]; j++)
                    later |= s->ops[d][j].kind == OP_SEND &&
                             (s->ops[d][j].ref == a || s->ops[d][j].ref == b);
                if (later)
                    continue;
                o.ref = a;
            }
            s->ops[d][w++] = o;
        }
        s->nops[d] = w;
    }
    int last = s->nmsgs - 1;
    if (b != last) {
        s->msgs[b] = s->msgs[last];
        for (int j = 0; j < s->msgs[b].nedges; j++)
            s->edge_msg[s->msgs[b].edges[j]] = b;
        for (int d = 0; d < s->ndsps; d++)
            for (int k = 0; k < s->nops[d]; k++)
                if (s->ops[d][k].kind != OP_COMPUTE && s->ops[d][k].ref == last)
                    s->ops[d][k].ref = b;
    }
    s->nmsgs--;
}

/* Random graphs and schedules: list order + comm_insert, then random merges, pipelined
 * flags, eager limits and swaps of neighbouring operations (which may deadlock).  The
 * evaluator must agree with the reference on every length, every deadlock and every end
 * time of every operation in every iteration. */
START_TEST(agrees_with_a_reference_on_random_schedules)
{
    int deadlocks = 0, ok = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        uint64_t x = seed * 0x9E3779B97F4A7C15u;
        int n = 2 + (int)(rnd(&x) % 11);
        int64_t cyc[16];
        for (int t = 0; t < n; t++)
            cyc[t] = (int64_t)(rnd(&x) % 3000);
        Graph *g = mk_graph(seed % 3 ? "bwdsp-1board" : "bwdsp-4board", n, cyc,
                            1 + (int64_t)(rnd(&x) % 25));
        for (int t = 1; t < n && g->nedges < 60; t++)
            for (int j = 0, k = 1 + (int)(rnd(&x) % 3); j < k; j++)
                add_edge(g, (int)(rnd(&x) % (uint64_t)t), t, (int64_t)(rnd(&x) % 1200),
                         0);
        for (int j = 0, k = (int)(rnd(&x) % 4); j < k && g->nedges < 64; j++)
            add_edge(g, (int)(rnd(&x) % (uint64_t)n), (int)(rnd(&x) % (uint64_t)n), 64,
                     1 + (int)(rnd(&x) % 6));
        ck_assert_int_eq(ir_graph_index(g), 0);
        if (rnd(&x) % 4 == 0)
            g->platform->eager_limit = 64 + (int64_t)(rnd(&x) % 400);
        g->platform->no_contention = true; /* the reference's model */
        int nd = seed % 5 == 0 ? 16 : 2 + (int)(rnd(&x) % 3);
        if (nd > g->platform->ndsps)
            nd = g->platform->ndsps;
        Sched *s = ir_sched_new(g, g->platform);
        for (int k = 0; k < n; k++) {
            int t = g->topo[k];
            s->map[t] = (int)(rnd(&x) % (uint64_t)nd);
            ir_sched_push_op(s, s->map[t], OP_COMPUTE, t);
        }
        comm_insert(s);
        for (int j = 0, k = (int)(rnd(&x) % 4); j < k; j++) {
            int a = (int)(rnd(&x) % (uint64_t)(s->nmsgs + 1)) - 1;
            for (int b = a + 1; a >= 0 && b < s->nmsgs; b++)
                if (s->msgs[a].src == s->msgs[b].src &&
                    s->msgs[a].dst == s->msgs[b].dst &&
                    s->msgs[a].delay == s->msgs[b].delay) {
                    merge(s, a, b);
                    break;
                }
        }
        for (int m = 0; m < s->nmsgs; m++)
            s->msgs[m].pipelined = rnd(&x) % 3 == 0;
        for (int j = 0, k = (int)(rnd(&x) % 3); j < k; j++) {
            int d = (int)(rnd(&x) % (uint64_t)nd);
            if (s->nops[d] < 2)
                continue;
            int q = (int)(rnd(&x) % (uint64_t)(s->nops[d] - 1));
            Op t = s->ops[d][q];
            s->ops[d][q] = s->ops[d][q + 1];
            s->ops[d][q + 1] = t;
        }
        Ref ref;
        int64_t want = ref_length(&ref, s);
        Arena *a = arena_new();
        EvalResult r;
        int64_t got = both(s, &r, a);
        ck_assert_msg(got == want, "seed %llu: evaluator %lld, reference %lld",
                      (unsigned long long)seed, (long long)got, (long long)want);
        if (want >= 0) {
            for (int d = 0; d < s->ndsps; d++)
                for (int64_t i = 0; i < g->iterations; i++)
                    for (int k = 0; k < s->nops[d]; k++)
                        ck_assert_int_eq(
                            ot(s, &r, d, (int)i, k).end,
                            ref.end[(size_t)(ref.off[d] + k) * (size_t)ref.n +
                                    (size_t)i]);
            ok++;
        } else {
            ck_assert_int_ge(r.ncycle, 4);
            deadlocks++;
        }
        ref_free(&ref);
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(ok, 100); /* both kinds of outcome are exercised */
    ck_assert_int_gt(deadlocks, 10);
}
END_TEST

/* ---- a second reference, with contention: a discrete-event simulation of the whole
 * model packet by packet, in time order, written from the statement of the rules (the
 * runtime's event design: actions at a time before the link arbitrations of that time).
 * DSPs act at the times their operations are ready; a receive or a zero-copy wait whose
 * transfer has not arrived parks the DSP until the arrival.  A link that is free takes,
 * of the packets ready for it, the one of the shorter message, then of the transfer
 * issued first (issue time, source DSP, the source's send order), then the lower packet
 * index. */

enum { DV_DSP, DV_ISSUE, DV_POST, DV_DEPART, DV_READY, DV_END, DV_ARB };

typedef struct DEv {
    int64_t t, seq;
    int cls, type, a; /* a: DSP, message, packet or link */
    int64_t x;        /* transfer */
} DEv;

typedef struct DPkt {
    int m, hop;
    int64_t x, j;
} DPkt;

typedef struct Des {
    const Sched *s;
    const Platform *p;
    int64_t n;
    DEv *ev;
    int nev, capev;
    int64_t seq, now;
    DPkt *pk;
    int npk, cappk;
    /* per DSP */
    int *k, *blocked_m;
    int64_t *it, *blocked_x, *endt;
    bool *done, *posted_here; /* a blocking RECV posted at its first visit */
    /* per message x transfer: -1 until known */
    int64_t *issue, *post, *depart, *arrive, *left;
    int *send_k, *recv_k;
    int *route, nh_max, *nh;
    /* per link */
    int nlinks;
    int **q, *nq, *capq;
    int64_t *busy_until;
    bool *arb;
    int64_t *end; /* [ops * n] end times, as Ref */
    int *off;
} Des;

static bool
dev_less(const DEv *a, const DEv *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    if (a->cls != b->cls)
        return a->cls < b->cls;
    return a->seq < b->seq;
}

static void
des_push(Des *r, int64_t t, int cls, int type, int a, int64_t x)
{
    if (r->nev == r->capev) {
        r->capev = r->capev ? 2 * r->capev : 256;
        r->ev = realloc(r->ev, (size_t)r->capev * sizeof *r->ev);
    }
    DEv e = {t, r->seq++, cls, type, a, x};
    int i = r->nev++;
    while (i > 0 && dev_less(&e, &r->ev[(i - 1) / 2])) {
        r->ev[i] = r->ev[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->ev[i] = e;
}

static DEv
des_pop(Des *r)
{
    DEv top = r->ev[0], last = r->ev[--r->nev];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= r->nev)
            break;
        if (c + 1 < r->nev && dev_less(&r->ev[c + 1], &r->ev[c]))
            c++;
        if (!dev_less(&r->ev[c], &last))
            break;
        r->ev[i] = r->ev[c];
        i = c;
    }
    if (r->nev)
        r->ev[i] = last;
    return top;
}

#define DIX(r, m, x) ((size_t)(m) * (size_t)(r)->n + (size_t)(x))

/* Is transfer x of message ms ever sent? */
static bool
des_sent(const Des *r, const Msg *ms, int64_t x)
{
    return x >= 0 && x + ms->delay < r->n;
}

static bool
des_eager(const Des *r, int m)
{
    return r->s->msgs[m].bytes <= r->p->eager_limit;
}

static int64_t
des_ser(const Des *r, int m, int64_t j)
{
    const Platform *p = r->p;
    int64_t bytes = r->s->msgs[m].bytes, k = plat_packets(p, bytes);
    int64_t pay = j < k - 1 ? p->payload_bytes : bytes - (k - 1) * p->payload_bytes;
    return plat_ser(p, pay + p->packet_bytes - p->payload_bytes);
}

/* Is packet a before packet b on a link? */
static bool
des_before(const Des *r, const DPkt *a, const DPkt *b)
{
    const Msg *ma = &r->s->msgs[a->m], *mb = &r->s->msgs[b->m];
    if (ma->bytes != mb->bytes)
        return ma->bytes < mb->bytes;
    int64_t ia = r->issue[DIX(r, a->m, a->x)], ib = r->issue[DIX(r, b->m, b->x)];
    if (ia != ib)
        return ia < ib;
    if (ma->src != mb->src)
        return ma->src < mb->src;
    if (a->x != b->x)
        return a->x < b->x;
    if (r->send_k[a->m] != r->send_k[b->m])
        return r->send_k[a->m] < r->send_k[b->m];
    return a->j < b->j;
}

static void
des_offer(Des *r, int p, int64_t t)
{
    if (t > r->now) {
        des_push(r, t, 0, DV_READY, p, 0);
        return;
    }
    DPkt *pk = &r->pk[p];
    int l = r->route[pk->m * r->nh_max + pk->hop];
    if (r->nq[l] == r->capq[l]) {
        r->capq[l] = r->capq[l] ? 2 * r->capq[l] : 8;
        r->q[l] = realloc(r->q[l], (size_t)r->capq[l] * sizeof **r->q);
    }
    r->q[l][r->nq[l]++] = p;
    if (!r->arb[l]) {
        r->arb[l] = true;
        des_push(r, r->busy_until[l] > r->now ? r->busy_until[l] : r->now, 1, DV_ARB, l,
                 0);
    }
}

static void
des_depart(Des *r, int m, int64_t x, int64_t t)
{
    if (r->depart[DIX(r, m, x)] >= 0)
        return;
    r->depart[DIX(r, m, x)] = t;
    des_push(r, t, 0, DV_DEPART, m, x);
}

/* DSP d acts at time T on its current operation. */
static void
des_dsp(Des *r, int d, int64_t T)
{
    const Sched *s = r->s;
    const Platform *p = r->p;
    int64_t n = r->n;
    for (;;) {
        if (r->k[d] == s->nops[d]) {
            r->k[d] = 0;
            if (++r->it[d] == n) {
                r->done[d] = true;
                r->endt[d] = T;
                return;
            }
        }
        int k = r->k[d];
        int64_t i = r->it[d];
        Op o = s->ops[d][k];
        int64_t end = T;
        if (o.kind == OP_COMPUTE) {
            for (int m = 0; m < s->nmsgs && i > 0; m++) {
                const Msg *ms = &s->msgs[m];
                if (ms->nedges == 1 && s->g->edges[ms->edges[0]].from == o.ref &&
                    des_sent(r, ms, i - 1) && r->arrive[DIX(r, m, i - 1)] < 0) {
                    r->blocked_m[d] = m, r->blocked_x[d] = i - 1;
                    return;
                }
            }
            end = T + ir_task_cycles(&s->g->tasks[o.ref], d);
        } else {
            const Msg *ms = &s->msgs[o.ref];
            int m = o.ref;
            int64_t copy = ms->nedges > 1 ? (ms->bytes + p->copy_bytes_per_cycle - 1) /
                                                p->copy_bytes_per_cycle
                                          : 0;
            int64_t x = ms->delay == 0 ? i : i - 1;
            if (o.kind == OP_SEND && des_sent(r, ms, i)) {
                if (ms->nedges > 1 && i > 0 && r->arrive[DIX(r, m, i - 1)] < 0) {
                    r->blocked_m[d] = m, r->blocked_x[d] = i - 1;
                    return;
                }
                end = T + p->send_overhead + copy;
                des_push(r, end, 0, DV_ISSUE, m, i);
            } else if (o.kind == OP_RECV && des_sent(r, ms, x)) {
                bool pipe = ms->pipelined && !des_eager(r, m);
                if (!pipe && !r->posted_here[d]) {
                    r->posted_here[d] = true;
                    des_push(r, T, 0, DV_POST, m, x);
                }
                if (r->arrive[DIX(r, m, x)] < 0) {
                    r->blocked_m[d] = m, r->blocked_x[d] = x;
                    return;
                }
                r->posted_here[d] = false;
                end = T + (pipe ? p->wait_overhead : p->recv_overhead) + copy;
                if (pipe && des_sent(r, ms, x + 1)) {
                    end += p->post_overhead;
                    des_push(r, end, 0, DV_POST, m, x + 1);
                }
            }
        }
        r->end[(size_t)(r->off[d] + k) * (size_t)n + (size_t)i] = end;
        r->k[d]++;
        if (end > T) {
            des_push(r, end, 0, DV_DSP, d, 0);
            return;
        }
    }
}

/* The length, or -1 when the DSPs deadlock; r->end holds every end time. */
static int64_t
des_length(Des *r, const Sched *s)
{
    memset(r, 0, sizeof *r);
    const Platform *p = s->p;
    int nd = s->ndsps, nm = s->nmsgs, tot = 0;
    int64_t n = s->g->iterations;
    r->s = s;
    r->p = p;
    r->n = n;
    r->off = calloc((size_t)nd + 1, sizeof *r->off);
    for (int d = 0; d < nd; d++) {
        r->off[d] = tot;
        tot += s->nops[d];
    }
    r->end = calloc((size_t)tot * (size_t)n + 1, sizeof *r->end);
    r->k = calloc((size_t)nd, sizeof *r->k);
    r->blocked_m = malloc((size_t)nd * sizeof *r->blocked_m);
    for (int d = 0; d < nd; d++)
        r->blocked_m[d] = -1;
    r->it = calloc((size_t)nd, sizeof *r->it);
    r->blocked_x = calloc((size_t)nd, sizeof *r->blocked_x);
    r->endt = calloc((size_t)nd, sizeof *r->endt);
    r->done = calloc((size_t)nd, sizeof *r->done);
    r->posted_here = calloc((size_t)nd, sizeof *r->posted_here);
    size_t mx = (size_t)nm * (size_t)n + 1;
    r->issue = malloc(mx * sizeof *r->issue);
    r->post = malloc(mx * sizeof *r->post);
    r->depart = malloc(mx * sizeof *r->depart);
    r->arrive = malloc(mx * sizeof *r->arrive);
    r->left = calloc(mx, sizeof *r->left);
    for (size_t j = 0; j < mx; j++)
        r->issue[j] = r->post[j] = r->depart[j] = r->arrive[j] = -1;
    r->send_k = calloc((size_t)nm + 1, sizeof *r->send_k);
    r->recv_k = calloc((size_t)nm + 1, sizeof *r->recv_k);
    r->nh_max = plat_max_route(p);
    r->route = calloc((size_t)nm * (size_t)r->nh_max + 1, sizeof *r->route);
    r->nh = calloc((size_t)nm + 1, sizeof *r->nh);
    for (int m = 0; m < nm; m++)
        r->nh[m] =
            plat_route(p, s->msgs[m].src, s->msgs[m].dst, r->route + m * r->nh_max);
    r->nlinks = plat_directed_links(p);
    r->q = calloc((size_t)r->nlinks, sizeof *r->q);
    r->nq = calloc((size_t)r->nlinks, sizeof *r->nq);
    r->capq = calloc((size_t)r->nlinks, sizeof *r->capq);
    r->busy_until = calloc((size_t)r->nlinks, sizeof *r->busy_until);
    r->arb = calloc((size_t)r->nlinks, sizeof *r->arb);
    for (int d = 0; d < nd; d++) {
        int64_t t = 0;
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            if (o.kind == OP_SEND)
                r->send_k[o.ref] = k;
            if (o.kind != OP_RECV)
                continue;
            r->recv_k[o.ref] = k;
            const Msg *ms = &s->msgs[o.ref];
            if (ms->pipelined && !des_eager(r, o.ref) && des_sent(r, ms, 0)) {
                t += p->post_overhead; /* the prolog */
                des_push(r, t, 0, DV_POST, o.ref, 0);
            }
        }
        r->done[d] = s->nops[d] == 0;
        if (!r->done[d])
            des_push(r, t, 0, DV_DSP, d, 0);
    }
    while (r->nev > 0) {
        DEv e = des_pop(r);
        r->now = e.t;
        switch (e.type) {
        case DV_DSP:
            des_dsp(r, e.a, e.t);
            break;
        case DV_ISSUE:
            r->issue[DIX(r, e.a, e.x)] = e.t;
            if (des_eager(r, e.a))
                des_depart(r, e.a, e.x, e.t);
            else if (r->post[DIX(r, e.a, e.x)] >= 0)
                des_depart(r, e.a, e.x, e.t + p->handshake);
            break;
        case DV_POST:
            r->post[DIX(r, e.a, e.x)] = e.t;
            if (!des_eager(r, e.a) && r->issue[DIX(r, e.a, e.x)] >= 0)
                des_depart(r, e.a, e.x, e.t + p->handshake);
            break;
        case DV_DEPART: {
            int64_t k = plat_packets(p, s->msgs[e.a].bytes);
            r->left[DIX(r, e.a, e.x)] = k;
            for (int64_t j = 0; j < k; j++) {
                if (r->npk == r->cappk) {
                    r->cappk = r->cappk ? 2 * r->cappk : 256;
                    r->pk = realloc(r->pk, (size_t)r->cappk * sizeof *r->pk);
                }
                r->pk[r->npk] = (DPkt){e.a, 0, e.x, j};
                des_offer(r, r->npk++, e.t);
            }
            break;
        }
        case DV_READY:
            des_offer(r, e.a, e.t);
            break;
        case DV_ARB: {
            int l = e.a;
            r->arb[l] = false;
            if (r->nq[l] == 0)
                break;
            int b = 0;
            for (int j = 1; j < r->nq[l]; j++)
                if (des_before(r, &r->pk[r->q[l][j]], &r->pk[r->q[l][b]]))
                    b = j;
            int pk = r->q[l][b];
            r->q[l][b] = r->q[l][--r->nq[l]];
            r->busy_until[l] = e.t + des_ser(r, r->pk[pk].m, r->pk[pk].j);
            des_push(r, r->busy_until[l], 0, DV_END, pk, 0);
            if (r->nq[l] > 0) {
                r->arb[l] = true;
                des_push(r, r->busy_until[l], 1, DV_ARB, l, 0);
            }
            break;
        }
        case DV_END: {
            DPkt *pk = &r->pk[e.a];
            if (pk->hop + 1 < r->nh[pk->m]) {
                pk->hop++;
                des_offer(r, e.a, e.t + p->switch_latency);
            } else if (--r->left[DIX(r, pk->m, pk->x)] == 0) {
                r->arrive[DIX(r, pk->m, pk->x)] = e.t;
                const Msg *ms = &s->msgs[pk->m];
                int ends[2] = {ms->src, ms->dst};
                for (int j = 0; j < 2; j++) {
                    int d = ends[j];
                    if (!r->done[d] && r->blocked_m[d] == pk->m &&
                        r->blocked_x[d] == pk->x) {
                        r->blocked_m[d] = -1;
                        des_push(r, e.t, 0, DV_DSP, d, 0);
                    }
                }
            }
            break;
        }
        }
    }
    int64_t len = 0;
    for (int d = 0; d < nd; d++) {
        if (!r->done[d])
            return -1;
        len = r->endt[d] > len ? r->endt[d] : len;
    }
    return len;
}

static void
des_free(Des *r)
{
    for (int l = 0; l < r->nlinks; l++)
        free(r->q[l]);
    free(r->q), free(r->nq), free(r->capq), free(r->busy_until), free(r->arb);
    free(r->ev), free(r->pk), free(r->k), free(r->blocked_m), free(r->it);
    free(r->blocked_x), free(r->endt), free(r->done), free(r->posted_here);
    free(r->issue), free(r->post), free(r->depart), free(r->arrive), free(r->left);
    free(r->send_k), free(r->recv_k), free(r->route), free(r->nh), free(r->end);
    free(r->off);
}

/* A random schedule for the contention tests: list order + comm_insert on 1, 2 or 4
 * boards with random overheads (zeros too), packet sizes and switch latency, then random
 * merges, pipelined flags, eager limits and swaps of neighbouring operations (which may
 * deadlock). */
static Sched *
random_contended(uint64_t seed, int64_t iters_lo, int64_t iters_span, Graph **gout)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15u + 7;
    static const char *plats[] = {"bwdsp-1board", "bwdsp-2board", "bwdsp-4board"};
    int n = 2 + (int)(rnd(&x) % 11);
    int64_t cyc[16];
    for (int t = 0; t < n; t++)
        cyc[t] = rnd(&x) % 5 == 0 ? 0 : (int64_t)(rnd(&x) % 3000);
    Graph *g =
        mk_graph(plats[seed % 3], n, cyc, iters_lo + (int64_t)(rnd(&x) % iters_span));
    for (int t = 1; t < n && g->nedges < 60; t++)
        for (int j = 0, k = 1 + (int)(rnd(&x) % 3); j < k; j++)
            add_edge(g, (int)(rnd(&x) % (uint64_t)t), t,
                     rnd(&x) % 6 == 0 ? 0 : (int64_t)(rnd(&x) % 2500), 0);
    for (int j = 0, k = (int)(rnd(&x) % 4); j < k && g->nedges < 64; j++)
        add_edge(g, (int)(rnd(&x) % (uint64_t)n), (int)(rnd(&x) % (uint64_t)n), 64,
                 1 + (int)(rnd(&x) % 4));
    ck_assert_int_eq(ir_graph_index(g), 0);
    Platform *p = g->platform;
    int64_t *par[] = {&p->send_overhead, &p->recv_overhead, &p->post_overhead,
                      &p->wait_overhead, &p->handshake,     &p->switch_latency};
    for (int j = 0; j < 6; j++)
        if (rnd(&x) % 3 == 0)
            *par[j] = rnd(&x) % 2 ? 0 : (int64_t)(rnd(&x) % 700);
    if (rnd(&x) % 3 == 0) { /* small packets: more of them per message */
        p->payload_bytes = 16 + (int64_t)(rnd(&x) % 200);
        p->packet_bytes = p->payload_bytes + (int64_t)(rnd(&x) % 40);
    }
    if (rnd(&x) % 4 == 0)
        p->eager_limit = 64 + (int64_t)(rnd(&x) % 400);
    int nd = p->ndsps < 8 ? p->ndsps : 2 + (int)(rnd(&x) % 7);
    Sched *s = ir_sched_new(g, p);
    for (int k = 0; k < n; k++) {
        int t = g->topo[k];
        s->map[t] = (int)(rnd(&x) % (uint64_t)nd);
        if (nd > 4 && rnd(&x) % 2) /* across boards: DSP 4 and up */
            s->map[t] = (int)(rnd(&x) % (uint64_t)p->ndsps);
        ir_sched_push_op(s, s->map[t], OP_COMPUTE, t);
    }
    comm_insert(s);
    for (int j = 0, k = (int)(rnd(&x) % 4); j < k; j++) {
        int a = (int)(rnd(&x) % (uint64_t)(s->nmsgs + 1)) - 1;
        for (int b = a + 1; a >= 0 && b < s->nmsgs; b++)
            if (s->msgs[a].src == s->msgs[b].src && s->msgs[a].dst == s->msgs[b].dst &&
                s->msgs[a].delay == s->msgs[b].delay) {
                merge(s, a, b);
                break;
            }
    }
    for (int m = 0; m < s->nmsgs; m++)
        s->msgs[m].pipelined = rnd(&x) % 3 == 0;
    for (int j = 0, k = (int)(rnd(&x) % 3); j < k; j++) {
        int d = (int)(rnd(&x) % (uint64_t)s->ndsps);
        if (s->nops[d] < 2)
            continue;
        int q = (int)(rnd(&x) % (uint64_t)(s->nops[d] - 1));
        Op t = s->ops[d][q];
        s->ops[d][q] = s->ops[d][q + 1];
        s->ops[d][q + 1] = t;
    }
    *gout = g;
    return s;
}

/* With contention, the evaluator against the packet-level simulation: the same length,
 * the same deadlocks, the same end time of every operation in every iteration. */
START_TEST(contention_agrees_with_a_packet_simulation)
{
    int deadlocks = 0, ok = 0, differ = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 1, 25, &g);
        Des des;
        int64_t want = des_length(&des, s);
        Arena *a = arena_new();
        EvalResult r;
        int64_t got = both(s, &r, a);
        ck_assert_msg(got == want, "seed %llu: evaluator %lld, packet simulation %lld",
                      (unsigned long long)seed, (long long)got, (long long)want);
        if (want >= 0) {
            for (int d = 0; d < s->ndsps; d++)
                for (int64_t i = 0; i < g->iterations; i++)
                    for (int k = 0; k < s->nops[d]; k++)
                        ck_assert_msg(
                            ot(s, &r, d, (int)i, k).end ==
                                des.end[(size_t)(des.off[d] + k) * (size_t)des.n +
                                        (size_t)i],
                            "seed %llu: DSP %d op %d iteration %lld",
                            (unsigned long long)seed, d, k, (long long)i);
            ok++;
            /* the bound that fe_check holds to 2^62 is a bound (docs/evaluator.md) */
            ck_assert_int_le(got, plat_length_bound(g->platform, g));
            g->platform->no_contention = true; /* contention mattered here? */
            Evaluator *ev = eval_new(g, g->platform);
            differ += eval_length(ev, s) != got;
            eval_free(ev);
        } else {
            deadlocks++;
        }
        des_free(&des);
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(ok, 100); /* every kind of outcome is exercised */
    ck_assert_int_gt(deadlocks, 5);
    ck_assert_int_gt(differ, 50); /* and contention changed the length of these */
}
END_TEST

/* eval_length_below against eval_length: with a cutoff above the length the exact
 * length, at or below it EVAL_NOT_BELOW (a deadlock: -1 or EVAL_NOT_BELOW), with and
 * without contention and in eval_new_bound's workspace, on short runs and on long ones
 * that skip periods; the cut runs leave the workspace as good as new. */
static Evaluator *
workspace(const Sched *s, bool bound)
{
    return bound ? eval_new_bound(s->g, s->p) : eval_new(s->g, s->p);
}

/* eval_length_below(s, c) in a new workspace: a run (a new workspace has no memo). */
static int64_t
below_fresh(const Sched *s, bool bound, int64_t c)
{
    Evaluator *ev = workspace(s, bound);
    int64_t L = eval_length_below(ev, s, c);
    eval_free(ev);
    return L;
}

/* Every cutoff runs in a workspace of its own (in ev, which has evaluated s, the memo
 * answers: it must answer as the run does). */
static void
ck_cutoffs(Evaluator *ev, bool bound, const Sched *s, uint64_t *x, uint64_t seed,
           int *cuts)
{
    int64_t L = eval_length(ev, s);
    int64_t c[12] = {L - 1, L, L + 1, L / 2, L - L / 50, L + L / 50, 0, 1, INT64_MAX};
    int nc = 9;
    while (nc < 12)
        c[nc++] =
            L > 0 ? (int64_t)(rnd(x) % (uint64_t)(2 * L + 2)) : (int64_t)(rnd(x) % 100);
    for (int j = 0; j < nc; j++) {
        Evaluator *cut = workspace(s, bound);
        int64_t got = eval_length_below(cut, s, c[j]);
        ck_assert_int_eq(eval_length_below(ev, s, c[j]), got);
        if (got == EVAL_NOT_BELOW) /* nothing left over from a cut run */
            ck_assert_int_eq(eval_length(cut, s), L);
        eval_free(cut);
        if (L < 0)
            ck_assert_msg(got == -1 || (got == EVAL_NOT_BELOW && c[j] != INT64_MAX),
                          "seed %llu: deadlock, cutoff %lld gives %lld",
                          (unsigned long long)seed, (long long)c[j], (long long)got);
        else if (L < c[j])
            ck_assert_msg(got == L, "seed %llu: length %lld, cutoff %lld gives %lld",
                          (unsigned long long)seed, (long long)L, (long long)c[j],
                          (long long)got);
        else
            ck_assert_msg(
                got == EVAL_NOT_BELOW, "seed %llu: length %lld, cutoff %lld gives %lld",
                (unsigned long long)seed, (long long)L, (long long)c[j], (long long)got);
        *cuts += got == EVAL_NOT_BELOW;
    }
}

/* Without contention eval_length and eval_length_below take the sweep (one pass per
 * iteration in a fixed order of the operations) where it applies; eval_run always
 * simulates.  They must agree on every random schedule, in eval_new's workspace without
 * contention and in eval_new_bound's, with and without a cutoff. */
START_TEST(sweep_agrees_with_simulate)
{
    int runs = 0, deadlocks = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 1, 40, &g);
        g->platform->no_contention = true;
        for (int model = 0; model < 2; model++) {
            Evaluator *ev =
                model ? eval_new_bound(g, g->platform) : eval_new(g, g->platform);
            Arena *a = arena_new();
            EvalResult r;
            int rc = eval_run_with(ev, s, NULL, &r, a);
            int64_t L = eval_length(ev, s);
            ck_assert_msg(
                L == (rc < 0 ? -1 : r.length), "seed %llu model %d: %lld, simulated %lld",
                (unsigned long long)seed, model, (long long)L, (long long)r.length);
            if (L > 0) {
                ck_assert_int_eq(below_fresh(s, model, L + 1), L);
                ck_assert_int_eq(below_fresh(s, model, L), EVAL_NOT_BELOW);
            }
            deadlocks += L < 0;
            runs++;
            arena_free(a);
            eval_free(ev);
        }
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_eq(runs, 800);
    ck_assert_int_lt(deadlocks, runs / 2); /* most runs have a length to compare */
}
END_TEST

/* The memo (docs/evaluator.md, "Cost"): one workspace evaluates a schedule, then others
 * that differ from it in one pipelined flag, one operation's place or its platform's
 * handshake, then it again, with and without cutoffs; every answer is the one a new
 * workspace computes. */
START_TEST(memo_is_exact)
{
    int unchanged = 0, n = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 1, 25, &g);
        uint64_t x = seed * 0xD1B54A32D192ED03u;
        for (int model = 0; model < 3; model++) {
            g->platform->no_contention = model == 1;
            Evaluator *ev = workspace(s, model == 2);
            for (int step = 0; step < 24; step++) {
                int what = (int)(rnd(&x) % 5), m = -1, d = -1;
                int64_t hs = g->platform->handshake;
                if (what == 1 && s->nmsgs > 0) { /* one pipelined flag */
                    m = (int)(rnd(&x) % (uint64_t)s->nmsgs);
                    s->msgs[m].pipelined = !s->msgs[m].pipelined;
                } else if (what == 2) { /* the first two operations of a DSP swapped */
                    d = (int)(rnd(&x) % (uint64_t)s->ndsps);
                    if (s->nops[d] < 2)
                        d = -1;
                    else {
                        Op t = s->ops[d][0];
                        s->ops[d][0] = s->ops[d][1];
                        s->ops[d][1] = t;
                    }
                } else if (what == 3) {
                    g->platform->handshake = hs + 1 + (int64_t)(rnd(&x) % 50);
                }
                int64_t L = below_fresh(s, model == 2, INT64_MAX);
                int64_t c = rnd(&x) % 3 == 0 ? INT64_MAX
                            : L > 0          ? (int64_t)(rnd(&x) % (uint64_t)(2 * L + 2))
                                             : (int64_t)(rnd(&x) % 100);
                int64_t want = below_fresh(s, model == 2, c);
                int64_t got =
                    c == INT64_MAX ? eval_length(ev, s) : eval_length_below(ev, s, c);
                ck_assert_msg(got == want, "seed %llu model %d step %d: %lld, fresh %lld",
                              (unsigned long long)seed, model, step, (long long)got,
                              (long long)want);
                unchanged += what == 0 || what == 4;
                n++;
                if (m >= 0 && rnd(&x) % 2) /* back to s: the memo holds the variant */
                    s->msgs[m].pipelined = !s->msgs[m].pipelined;
                if (d >= 0 && rnd(&x) % 2) {
                    Op t = s->ops[d][0];
                    s->ops[d][0] = s->ops[d][1];
                    s->ops[d][1] = t;
                }
                g->platform->handshake = hs;
            }
            eval_free(ev);
        }
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_eq(n, 200 * 3 * 24);
    ck_assert_int_gt(unchanged, n / 4); /* repeats, which the memo answers */
}
END_TEST

START_TEST(cutoff_is_exact)
{
    int cuts = 0, runs = 0;
    for (uint64_t seed = 1; seed <= 460; seed++) {
        Graph *g;
        /* 400 short runs, 60 long ones (200 to 1200 iterations: periods skipped) */
        Sched *s = seed <= 400 ? random_contended(seed, 1, 25, &g)
                               : random_contended(seed, 200, 1000, &g);
        uint64_t x = seed * 0x2545F4914F6CDD1Du;
        for (int model = 0; model < 3; model++) {
            g->platform->no_contention = model == 1;
            Evaluator *ev =
                model == 2 ? eval_new_bound(g, g->platform) : eval_new(g, g->platform);
            ck_cutoffs(ev, model == 2, s, &x, seed, &cuts);
            eval_free(ev);
            runs++;
        }
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_eq(runs, 3 * 460);
    ck_assert_int_gt(cuts, runs); /* the "not below" side is exercised */
}
END_TEST

/* Overflow: one 2^31-byte edge over a 1 Mbit/s link with a 100 GHz clock, so that
 * one transfer takes about 1.9e15 cycles.  1000 iterations fit: the run is periodic from
 * the second iteration on, so L(1000) = L(2) + 998 (L(3) - L(2)) exactly, with and
 * without contention (before the fix 10000 iterations gave a shorter length than 1000 and
 * 5000 a false deadlock; fe_check now refuses those,
 * testcases/invalid/total-time-overflow-*). The bound is above every length and below
 * 2^62 at 1000 iterations, above at 5000. */
static int64_t
huge_edge_length(int64_t iterations, bool contention)
{
    int64_t cyc[] = {100, 100};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, iterations);
    g->platform->link_mbps = 1;
    g->platform->dsp_clock_mhz = 100000;
    g->platform->no_contention = !contention;
    add_edge(g, 0, 1, INT64_C(1) << 31, 0);
    ck_assert_int_eq(ir_graph_index(g), 0);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    C(s, 0, 0);
    C(s, 1, 1);
    comm_insert(s);
    int64_t bound = plat_length_bound(g->platform, g), len = -1;
    if (bound <= IR_MAX_TIME) {
        Evaluator *ev = eval_new(g, g->platform);
        len = eval_length(ev, s);
        eval_free(ev);
        ck_assert_int_gt(len, 0);
        ck_assert_int_le(len, bound);
    }
    ir_sched_free(s);
    ir_graph_free(g);
    return len;
}

START_TEST(a_huge_edge_fits_or_is_refused)
{
    for (int c = 0; c < 2; c++) {
        int64_t l2 = huge_edge_length(2, c), l3 = huge_edge_length(3, c);
        int64_t l1000 = huge_edge_length(1000, c);
        ck_assert_int_gt(l3 - l2, INT64_C(1800000000000000)); /* one transfer */
        ck_assert_int_eq(l1000, l2 + 998 * (l3 - l2));
        ck_assert_int_gt(l1000, INT64_C(1) << 60);
        ck_assert_int_eq(huge_edge_length(5000, c), -1); /* refused: not evaluated */
        ck_assert_int_eq(huge_edge_length(10000, c), -1);
    }
}
END_TEST

/* Long runs with contention: eval_length skips whole periods (the network's state
 * included); the packet simulation runs every iteration. */
START_TEST(contention_steady_state_skipping_is_exact)
{
    int compared = 0;
    for (uint64_t seed = 1001; seed <= 1060; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 200, 1000, &g);
        Des des;
        int64_t want = des_length(&des, s);
        Evaluator *ev = eval_new(g, g->platform);
        int64_t got = eval_length(ev, s);
        eval_free(ev);
        ck_assert_msg(got == want, "seed %llu: evaluator %lld, packet simulation %lld",
                      (unsigned long long)seed, (long long)got, (long long)want);
        compared += want >= 0;
        des_free(&des);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(compared, 30);
}
END_TEST

/* Steady state: eval_length skips whole periods once the run repeats itself; eval_run
 * recording every iteration never skips.  They must agree exactly, on long runs of random
 * schedules (with deadlocks, merges, pipelining, delays, eager messages), and recording
 * only the first and the last iterations must give the same times as recording all. */
START_TEST(steady_state_skipping_is_exact)
{
    int compared = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        uint64_t x = seed * 0x2545F4914F6CDD1Du;
        int n = 2 + (int)(rnd(&x) % 9);
        int64_t cyc[16];
        for (int t = 0; t < n; t++)
            cyc[t] = 1 + (int64_t)(rnd(&x) % 3000);
        Graph *g = mk_graph(seed % 3 ? "bwdsp-1board" : "bwdsp-4board", n, cyc,
                            300 + (int64_t)(rnd(&x) % 1500));
        for (int t = 1; t < n; t++)
            for (int j = 0, k = 1 + (int)(rnd(&x) % 2); j < k; j++)
                add_edge(g, (int)(rnd(&x) % (uint64_t)t), t, (int64_t)(rnd(&x) % 1200),
                         0);
        for (int j = 0, k = (int)(rnd(&x) % 3); j < k; j++)
            add_edge(g, (int)(rnd(&x) % (uint64_t)n), (int)(rnd(&x) % (uint64_t)n), 64,
                     1 + (int)(rnd(&x) % 5));
        ck_assert_int_eq(ir_graph_index(g), 0);
        if (rnd(&x) % 4 == 0)
            g->platform->eager_limit = 64 + (int64_t)(rnd(&x) % 400);
        int nd = 2 + (int)(rnd(&x) % 3);
        Sched *s = ir_sched_new(g, g->platform);
        for (int k = 0; k < n; k++) {
            int t = g->topo[k];
            s->map[t] = (int)(rnd(&x) % (uint64_t)nd);
            ir_sched_push_op(s, s->map[t], OP_COMPUTE, t);
        }
        comm_insert(s);
        for (int a = 0; a + 1 < s->nmsgs && rnd(&x) % 2; a++)
            for (int b = a + 1; b < s->nmsgs; b++)
                if (s->msgs[a].src == s->msgs[b].src &&
                    s->msgs[a].dst == s->msgs[b].dst &&
                    s->msgs[a].delay == s->msgs[b].delay) {
                    merge(s, a, b);
                    break;
                }
        for (int m = 0; m < s->nmsgs; m++)
            s->msgs[m].pipelined = rnd(&x) % 3 == 0;
        Arena *a = arena_new();
        EvalResult all, some;
        int64_t len =
            both(s, &all, a); /* eval_length (skips) == eval_run (records all) */
        int rc = eval_run(s, &(EvalOpts){2, 3}, &some, a);
        ck_assert_int_eq(some.length, len);
        ck_assert_int_eq(rc, len < 0 ? -1 : 0);
        if (len >= 0) {
            for (int d = 0; d < s->ndsps; d++) {
                ck_assert_int_eq(some.busy[d], all.busy[d]);
                ck_assert_int_eq(some.compute[d], all.compute[d]);
                for (int j = 0; j < some.nrec; j++)
                    for (int k = 0; k < s->nops[d]; k++) {
                        OpTime u = ot(s, &some, d, j, k);
                        OpTime v = ot(s, &all, d, (int)some.rec_iter[j], k);
                        ck_assert_int_eq(u.ready, v.ready);
                        ck_assert_int_eq(u.start, v.start);
                        ck_assert_int_eq(u.end, v.end);
                    }
            }
            for (int j = 0; j < some.nrec; j++)
                for (int m = 0; m < s->nmsgs; m++) {
                    MsgTime u = some.msg_time[j * s->nmsgs + m];
                    MsgTime v = all.msg_time[some.rec_iter[j] * s->nmsgs + m];
                    ck_assert_int_eq(u.issue, v.issue);
                    ck_assert_int_eq(u.post, v.post);
                    ck_assert_int_eq(u.arrive, v.arrive);
                }
            compared++;
        }
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(compared, 30);
}
END_TEST

/* 10^9 iterations of the worked example, in no time.  Blocking: from iteration 1 on, b
 * ends every 300 + 264 + 400 + 2000 = 2964 cycles (DSP 1 posts at the end of b; the send
 * was issued 800 cycles before), so the length is 4564 + 2964 * (N - 1).  Pipelined: the
 * same length as the full simulation extrapolated from 1000 and 2000 iterations. */
START_TEST(a_billion_iterations)
{
    Graph *g;
    Sched *s = worked_example(&g, false);
    g->iterations = 1000000000;
    Evaluator *ev = eval_new(g, g->platform);
    ck_assert_int_eq(eval_length(ev, s), 4564 + INT64_C(2964) * (g->iterations - 1));
    s->msgs[0].pipelined = true;
    Arena *a = arena_new();
    EvalResult r1, r2;
    g->iterations = 1000;
    eval_run(s, &(EvalOpts){1000, 0}, &r1, a);
    g->iterations = 2000;
    eval_run(s, &(EvalOpts){2000, 0}, &r2, a);
    int64_t per = (r2.length - r1.length) / 1000;
    g->iterations = 1000000000;
    ck_assert_int_eq(eval_length(ev, s), r1.length + per * (g->iterations - 1000));
    eval_free(ev);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* The delay pair of delay_two_across_dsps_with_zero_delay_traffic over N iterations: b of
 * iteration j ends every 5128 cycles while RECV m1 takes in data (j <= N - d), then every
 * 2964 (the worked example's period): 4564 + 5128 (N - d) + 2964 (d - 1).  Checked by the
 * full simulation for small N, then for 10^9 iterations with delays up to 10^6 (the
 * largest a graph may have): the periodic skip must land exactly on the d - 1 iterations
 * without m1 at the end. */
START_TEST(a_billion_iterations_with_a_delay_edge)
{
    int small[] = {1, 2, 3, 7, 30};
    for (int j = 0; j < 5; j++) {
        Graph *g;
        Sched *s = delay_pair(&g, small[j], 50, false);
        Arena *a = arena_new();
        EvalResult r;
        ck_assert_int_eq(both(s, &r, a),
                         4564 + 5128 * (50 - small[j]) + 2964 * (small[j] - 1));
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    int big[] = {1, 2, 1000, 1000000};
    for (int j = 0; j < 4; j++) {
        Graph *g;
        Sched *s = delay_pair(&g, big[j], 1000000000, false);
        Evaluator *ev = eval_new(g, g->platform);
        int64_t n = g->iterations, d = big[j];
        ck_assert_int_eq(eval_length(ev, s), 4564 + 5128 * (n - d) + 2964 * (d - 1));
        eval_free(ev);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("evaluate");
    ADD_TESTS(
        check_tcase(s, "core", 0), worked_example_blocking, worked_example_pipelined,
        records_first_and_last, one_packet_message, several_packet_message,
        ten_thousand_bytes_section_4, message_across_three_switches,
        aggregated_message_packs_and_unpacks, pipelined_receive_sender_bound,
        delay_edge_feedback_loop, eager_message_skips_the_handshake,
        deadlock_both_receive_first, deadlock_cycle_through_three_dsps,
        deadlock_merged_receive_before_its_send, deadlock_in_a_later_iteration,
        delay_two_across_dsps_with_zero_delay_traffic,
        delay_three_across_dsps_with_zero_delay_traffic, delay_at_least_the_iterations,
        delay_two_pipelined, contention_issue_order, contention_shorter_message_first,
        contention_on_the_board_link, agrees_with_a_reference_on_random_schedules,
        steady_state_skipping_is_exact, contention_agrees_with_a_packet_simulation,
        sweep_agrees_with_simulate, memo_is_exact, cutoff_is_exact,
        a_huge_edge_fits_or_is_refused, contention_steady_state_skipping_is_exact,
        a_billion_iterations, a_billion_iterations_with_a_delay_edge);
    return check_run(s);
}
