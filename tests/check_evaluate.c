/* tests/check_evaluate.c - the evaluator (passes/evaluate/) against values worked out on
 * paper from docs/design.md sections 3 and 4.  Graphs are built programmatically. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "evaluate_fixture.h"
#include "ir.h"

TEST_CASE("core", 0)

TEST(worked_example_blocking)
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

TEST(worked_example_pipelined)
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
TEST(records_first_and_last)
{
    Graph *g;
    Sched *s = worked_example_iters(&g, false, 50);
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
TEST(one_packet_message)
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
TEST(several_packet_message)
{
    MsgTime t;
    ck_assert_int_eq(one_message("bwdsp-1board", 1, 600, 500, 300, &t), 3065);
    ck_assert_int_eq(t.arrive - t.depart, 965);
}
END_TEST

/* Section 4: 10000 bytes on one board arrive 40 * 250 + (100 + 250) = 10350 cycles after
 * they start.  a 1000, send 1000-1600, depart 1900, arrive 12250, receive -12650, b 2000.
 */
TEST(ten_thousand_bytes_section_4)
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
TEST(message_across_three_switches)
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
TEST(aggregated_message_packs_and_unpacks)
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
    *sout = two_tasks(gout, pipe, 3000, 500, 3);
    return both(*sout, r, a);
}

TEST(pipelined_receive_sender_bound)
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
TEST(delay_edge_feedback_loop)
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
TEST(eager_message_skips_the_handshake)
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
TEST(deadlock_both_receive_first)
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
TEST(deadlock_cycle_through_three_dsps)
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
TEST(deadlock_merged_receive_before_its_send)
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
TEST(deadlock_in_a_later_iteration)
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

/* --- delay edges across DSPs with zero-delay traffic in the same direction: delay_pair
 * (evaluate_fixture.h). */

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
TEST(delay_two_across_dsps_with_zero_delay_traffic)
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
TEST(delay_three_across_dsps_with_zero_delay_traffic)
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
TEST(delay_at_least_the_iterations)
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
TEST(delay_two_pipelined)
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
TEST(contention_issue_order)
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
TEST(contention_shorter_message_first)
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

TEST(contention_on_the_board_link)
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
