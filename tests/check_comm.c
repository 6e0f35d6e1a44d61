/* tests/check_comm.c - message insertion (passes/comm.c): placement, order per DSP pair,
 * delay edges, storage reuse, and deadlock freedom of list-scheduled random graphs. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "graph_fixture.h"
#include "ir.h"

static Graph *
mk_graph(const char *plat, int n, int64_t cycles, int64_t iterations, int maxedges)
{
    Graph *g = fixture_graph("comm", plat, n, iterations, maxedges, false);
    for (int i = 0; i < n; i++)
        *g->tasks[i].cycles = cycles;
    return g;
}

/* "C t0 S m0 R m1 ..." */
static const char *
ops_text(const Sched *s, int d, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < s->nops[d]; k++) {
        Op o = s->ops[d][k];
        len += (size_t)snprintf(buf + len, n - len, "%s%s%d", k ? " " : "",
                                o.kind == OP_COMPUTE ? "C t"
                                : o.kind == OP_SEND  ? "S m"
                                                     : "R m",
                                o.ref);
    }
    return buf;
}

static void
ck_ops(const Sched *s, int d, const char *want)
{
    char buf[512];
    ck_assert_str_eq(ops_text(s, d, buf, sizeof buf), want);
}

static void
ck_valid(const Sched *s)
{
    Diag *d = diag_new();
    int rc = ir_sched_verify(s, d);
    ck_assert_msg(rc == 0, "%s", diag_text(d));
    diag_free(d);
}

TEST_CASE("core", 0)

/* DSP 0 = [t0, t1], DSP 1 = [t2, t3]; t0 -> t3 (e0) and t1 -> t2 (e1).  The receives'
 * natural places (before t3, before t2) disagree with the send order (m0, m1): m0's
 * receive moves up to just before m1's. */
TEST(receives_follow_the_send_order)
{
    Graph *g = mk_graph("bwdsp-1board", 4, 1000, 4, 4);
    add_edge(g, 0, 3, 64, 0);
    add_edge(g, 1, 2, 64, 0);
    ir_graph_index(g);
    int o0[] = {0, 1}, o1[] = {2, 3};
    const int *ord[] = {o0, o1};
    int cnt[] = {2, 2};
    Sched *s = computes(g, 2, ord, cnt);
    comm_insert(s);
    ck_valid(s);
    ck_assert_int_eq(s->nmsgs, 2);
    ck_assert_int_eq(s->edge_msg[0], 0);
    ck_assert_int_eq(s->edge_msg[1], 1);
    ck_ops(s, 0, "C t0 S m0 C t1 S m1");
    ck_ops(s, 1, "R m0 R m1 C t2 C t3");
    ck_assert_int_gt(eval_length_of(s), 0);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* The same placement on the abstract model, where every message is eager: the receives
 * stay right before their consumers, out of send order, so t2 does not wait for the data
 * of t3 (the classic model: t2 at 21, t3 at 60, length 70; in send order it was 80). */
TEST(eager_receives_stay_before_their_consumer)
{
    Graph *g = mk_graph("abstract", 4, 10, 1, 4);
    g->platform = plat_abstract(g->arena, 2);
    add_edge(g, 0, 3, 50, 0);
    add_edge(g, 1, 2, 1, 0);
    ir_graph_index(g);
    int o0[] = {0, 1}, o1[] = {2, 3};
    const int *ord[] = {o0, o1};
    int cnt[] = {2, 2};
    Sched *s = computes(g, 2, ord, cnt);
    comm_insert(s);
    ck_valid(s);
    ck_ops(s, 0, "C t0 S m0 C t1 S m1");
    ck_ops(s, 1, "R m1 C t2 R m0 C t3");
    ck_assert_int_eq(eval_length_of(s), 70);
    ck_assert_int_eq(sched_list_makespan(s), 70);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* Sends after one producer: zero-delay edges by the consumer's place, delay edges last;
 * receives right before the consumer; no message within one DSP. */
TEST(sends_after_the_producer_receives_before_the_consumer)
{
    Graph *g = mk_graph("bwdsp-1board", 5, 1000, 3, 8);
    add_edge(g, 0, 4, 64, 0); /* e0: t0 -> t4 (DSP 1, second) */
    add_edge(g, 0, 3, 64, 0); /* e1: t0 -> t3 (DSP 1, first) */
    add_edge(g, 0, 1, 64, 0); /* e2: same DSP, no message */
    add_edge(g, 0, 2, 64, 1); /* e3: delay 1 to DSP 2 */
    ir_graph_index(g);
    int o0[] = {0, 1}, o1[] = {3, 4}, o2[] = {2};
    const int *ord[] = {o0, o1, o2};
    int cnt[] = {2, 2, 1};
    Sched *s = computes(g, 3, ord, cnt);
    comm_insert(s);
    ck_valid(s);
    ck_assert_int_eq(s->nmsgs, 3);
    ck_assert_int_eq(s->edge_msg[2], -1);
    ck_assert_int_eq(s->msgs[2].delay, 1);
    ck_ops(s, 0, "C t0 S m1 S m0 S m2 C t1"); /* t3 before t4, delay last */
    ck_ops(s, 1, "R m1 C t3 R m0 C t4");
    ck_ops(s, 2, "R m2 C t2");
    ck_assert_int_gt(eval_length_of(s), 0);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* The feedback loop of check_evaluate: the delayed receive opens DSP 0's iteration, and
 * the schedule evaluates to the length worked out there (16820). */
TEST(delay_edge_feedback_loop)
{
    Graph *g = mk_graph("bwdsp-1board", 2, 1000, 3, 2);
    g->tasks[1].cycles[0] = 2000;
    add_edge(g, 0, 1, 64, 0);
    add_edge(g, 1, 0, 64, 1);
    ir_graph_index(g);
    int o0[] = {0}, o1[] = {1};
    const int *ord[] = {o0, o1};
    int cnt[] = {1, 1};
    Sched *s = computes(g, 2, ord, cnt);
    comm_insert(s);
    ck_valid(s);
    ck_ops(s, 0, "R m1 C t0 S m0");
    ck_ops(s, 1, "R m0 C t1 S m1");
    ck_assert_int_eq(eval_length_of(s), 16820);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* t0 (DSP 0) -> t1 (DSP 2) -> t2 (DSP 1), and t0 -> t3 (DSP 1) with delay d; DSP 1 = [t2,
 * t3].  Before t3 (the natural place) the delayed receive would deadlock: t0 of iteration
 * i + 1 waits (zero copy) for its post, which would come after t2 of iteration i + 1,
 * which needs t0 of iteration i + 1.  comm_insert puts it before t2.  The same for every
 * delay: the transfer of iteration i is received in iteration i + 1 whatever d is. */
LOOP_TEST(delayed_receive_is_posted_before_the_producer_runs_again, 0, 3)
{
    int delay = 1 + _i;
    Graph *g = mk_graph("bwdsp-1board", 4, 1000, 5, 4);
    add_edge(g, 0, 3, 64, delay); /* e0 */
    add_edge(g, 0, 1, 64, 0);     /* e1 */
    add_edge(g, 1, 2, 64, 0);     /* e2 */
    ir_graph_index(g);
    int o0[] = {0}, o1[] = {2, 3}, o2[] = {1};
    const int *ord[] = {o0, o1, o2};
    int cnt[] = {1, 2, 1};
    Sched *s = computes(g, 3, ord, cnt);
    comm_insert(s);
    ck_valid(s);
    ck_ops(s, 0, "C t0 S m1 S m0");
    ck_ops(s, 1, "R m0 R m2 C t2 C t3");
    ck_ops(s, 2, "R m1 C t1 S m2");
    ck_assert_int_gt(eval_length_of(s), 0);
    /* the natural place deadlocks */
    s->ops[1][0] = (Op){OP_RECV, 2};
    s->ops[1][1] = (Op){OP_COMPUTE, 2};
    s->ops[1][2] = (Op){OP_RECV, 0};
    ck_valid(s);
    ck_assert_int_eq(eval_length_of(s), -1);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* a (DSP 0) -> b (DSP 1) twice, 64 bytes, one edge with delay 2 or 3: the case that
 * deadlocked when a delay-d transfer was received d iterations after its send.  The
 * delayed receive opens DSP 1's iteration and the lengths are those worked out in
 * check_evaluate (48552, 46388 over 10 iterations). */
TEST(delay_edge_beside_zero_delay_traffic)
{
    int64_t want[] = {48552, 46388};
    for (int delay = 2; delay <= 3; delay++) {
        Graph *g = mk_graph("bwdsp-1board", 2, 1000, 10, 2);
        g->tasks[1].cycles[0] = 2000;
        add_edge(g, 0, 1, 64, 0);
        add_edge(g, 0, 1, 64, delay);
        ir_graph_index(g);
        int o0[] = {0}, o1[] = {1};
        const int *ord[] = {o0, o1};
        int cnt[] = {1, 1};
        Sched *s = computes(g, 2, ord, cnt);
        comm_insert(s);
        ck_valid(s);
        ck_ops(s, 0, "C t0 S m0 S m1");
        ck_ops(s, 1, "R m1 R m0 C t1");
        ck_assert_int_eq(eval_length_of(s), want[delay - 2]);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST

/* Existing messages (a merge, a pipelined flag) are dropped; a second insertion gives the
 * same schedule and takes no new memory from the schedule's arena. */
TEST(reinsertion_is_idempotent_and_reuses_storage)
{
    Graph *g = mk_graph("bwdsp-1board", 4, 1000, 4, 4);
    add_edge(g, 0, 2, 64, 0);
    add_edge(g, 1, 3, 64, 0);
    ir_graph_index(g);
    int o0[] = {0, 1}, o1[] = {2, 3};
    const int *ord[] = {o0, o1};
    int cnt[] = {2, 2};
    Sched *s = computes(g, 2, ord, cnt);
    comm_insert(s);
    char before[2][512];
    for (int d = 0; d < 2; d++)
        ops_text(s, d, before[d], sizeof before[d]);
    /* merge the two messages by hand, pipelined */
    Sched *m = ir_sched_copy(s);
    int e[] = {0, 1};
    int id = ir_sched_add_msg(m, 0, 1, e, 2);
    m->msgs[id].pipelined = true;
    m->nops[0] = m->nops[1] = 0;
    ir_sched_push_op(m, 0, OP_COMPUTE, 0);
    ir_sched_push_op(m, 0, OP_COMPUTE, 1);
    ir_sched_push_op(m, 0, OP_SEND, id);
    ir_sched_push_op(m, 1, OP_RECV, id);
    ir_sched_push_op(m, 1, OP_COMPUTE, 2);
    ir_sched_push_op(m, 1, OP_COMPUTE, 3);
    m->nmsgs = 3; /* messages 0 and 1 are unused now: rebuild them out of the way */
    memmove(&m->msgs[0], &m->msgs[id], sizeof m->msgs[0]);
    m->nmsgs = 1;
    m->edge_msg[0] = m->edge_msg[1] = 0;
    m->ops[0][2].ref = m->ops[1][0].ref = 0;
    ck_valid(m);
    ck_assert_int_gt(eval_length_of(m), 0);
    comm_insert(m);
    ck_valid(m);
    ck_assert_int_eq(m->nmsgs, 2);
    ck_assert(!m->msgs[0].pipelined && m->msgs[0].nedges == 1);
    for (int d = 0; d < 2; d++)
        ck_ops(m, d, before[d]);
    size_t used = arena_used(m->arena);
    for (int k = 0; k < 10; k++)
        comm_insert(m);
    ck_assert_uint_eq(arena_used(m->arena), used);
    for (int d = 0; d < 2; d++)
        ck_ops(m, d, before[d]);
    ir_sched_free(m);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

static uint64_t
rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Random layered graphs with feedback edges, mapped at random, each DSP computing its
 * tasks in one global topological order (what a list schedule gives): every schedule is
 * valid and none deadlocks; each DSP is at least busy with its own computing.  Run 0:
 * delay 1 feedback edges; run 1: feedback delays 1 to 4 and forward edges of delay 1 to 4
 * beside the zero-delay ones. */
LOOP_TEST(list_schedules_never_deadlock, 0, 2)
{
    const char *plats[] = {"bwdsp-1board", "bwdsp-4board"};
    bool deep = _i == 1;
    for (uint64_t seed = 1; seed <= 150; seed++) {
        uint64_t x = seed * 0x9E3779B97F4A7C15u + 1;
        int n = 5 + (int)(rnd(&x) % 40);
        Graph *g = mk_graph(plats[seed % 2], n, 0, 12, 6 * n);
        for (int t = 0; t < n; t++)
            g->tasks[t].cycles[0] = 100 + (int64_t)(rnd(&x) % 3000);
        int layer_w = 1 + (int)(rnd(&x) % 5);
        for (int t = layer_w; t < n; t++) {
            int k = 1 + (int)(rnd(&x) % 3);
            for (int j = 0; j < k; j++) {
                int from = (int)(rnd(&x) % (uint64_t)(t / layer_w * layer_w));
                add_edge(g, from, t, 8 + (int64_t)(rnd(&x) % 2000), 0);
            }
            if (rnd(&x) % 6 == 0) /* feedback to an earlier task */
                add_edge(g, t, (int)(rnd(&x) % (uint64_t)t), 16,
                         deep ? 1 + (int)(rnd(&x) % 4) : 1);
            if (deep && rnd(&x) % 4 == 0) /* a delayed edge forward */
                add_edge(g, (int)(rnd(&x) % (uint64_t)t), t, 32, 1 + (int)(rnd(&x) % 4));
        }
        ck_assert_int_eq(ir_graph_index(g), 0);
        Sched *s = ir_sched_new(g, g->platform);
        int nd = g->platform->ndsps;
        for (int k = 0; k < n; k++) {
            int t = g->topo[k];
            s->map[t] = (int)(rnd(&x) % (uint64_t)nd);
            ir_sched_push_op(s, s->map[t], OP_COMPUTE, t);
        }
        comm_insert(s);
        ck_valid(s);
        int64_t len = eval_length_of(s);
        ck_assert_msg(len > 0, "seed %llu deadlocks", (unsigned long long)seed);
        int64_t per[64] = {0};
        for (int t = 0; t < n; t++)
            per[s->map[t]] += g->tasks[t].cycles[0];
        for (int d = 0; d < nd; d++)
            ck_assert_int_ge(len, per[d] * g->iterations);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST

TEST(one_task_gets_no_message)
{
    Graph *g = mk_graph("bwdsp-1board", 1, 10, 1, 1);
    ir_graph_index(g);
    Unit u = {.g = g, .p = g->platform};
    Diag *d = diag_new();
    u.s = ir_sched_new(g, g->platform);
    u.s->map[0] = 0;
    ir_sched_push_op(u.s, 0, OP_COMPUTE, 0);
    comm_insert(u.s);
    ck_assert_int_eq(u.s->nmsgs, 0);
    ck_assert_int_eq(ir_sched_verify(u.s, d), 0);
    ck_assert_int_eq(pass_verify(&u, d), 0);
    ir_sched_free(u.s);
    diag_free(d);
    ir_graph_free(g);
}
END_TEST
