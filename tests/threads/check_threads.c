/* check_threads.c: the shared-memory transport (runtime/tr_threads.c, libmpirio_threads)
 * through MPIRIO_Run: point-to-point in place and staged, below and above the eager
 * limit, wildcards, order, truncation; the collectives of both families on the world
 * and on the boards; the deadlock report (every thread blocked, nothing in flight);
 * MPIRIO_Abort; one run at a time; pinning; the settings. The DSP functions keep their
 * results in per-rank arrays (the threads share this program's globals). */
#define _GNU_SOURCE /* sched_getcpu */
#include "../check_run.h"
#include <check.h>
#include <mpirio.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAXR = 16 };
static MPIRIO_Stats st;
static int res[MAXR][8];

static int
run(int n, const char *plat, int flags, void (*fn)(int, void *), void *arg)
{
    memset(res, 0, sizeof res);
    int rc = MPIRIO_Run(n, plat, flags | MPIRIO_RUN_QUIET, fn, arg);
    MPIRIO_Run_stats(&st);
    return rc;
}

/* ---- a ring: every DSP sends its pattern to the right and checks the left's ---- */

typedef struct Ring {
    int bytes, rounds, pipelined;
} Ring;

static unsigned char
pat(int rank, int round, int i)
{
    return (unsigned char)(rank * 31 + round * 7 + i);
}

static void
ring(int rank, void *arg)
{
    const Ring *g = arg;
    int n;
    MPIRIO_Init(NULL, NULL);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &n);
    unsigned char *out = malloc((size_t)g->bytes), *in[2];
    in[0] = malloc((size_t)g->bytes);
    in[1] = malloc((size_t)g->bytes);
    int right = (rank + 1) % n, left = (rank + n - 1) % n, bad = 0;
    MPIRIO_Request s = MPIRIO_REQUEST_NULL,
                   r[2] = {MPIRIO_REQUEST_NULL, MPIRIO_REQUEST_NULL};
    if (g->pipelined)
        MPIRIO_Irecv(in[0], g->bytes, MPIRIO_BYTE, left, 5, MPIRIO_COMM_WORLD, &r[0]);
    for (int k = 0; k < g->rounds; k++) {
        MPIRIO_Wait(&s, MPIRIO_STATUS_IGNORE); /* in place: written after the Wait */
        for (int i = 0; i < g->bytes; i++)
            out[i] = pat(rank, k, i);
        MPIRIO_Isend(out, g->bytes, MPIRIO_BYTE, right, 5, MPIRIO_COMM_WORLD, &s);
        MPIRIO_Status stt;
        unsigned char *got = in[k % 2];
        if (g->pipelined) {
            MPIRIO_Wait(&r[k % 2], &stt);
            if (k + 1 < g->rounds)
                MPIRIO_Irecv(in[(k + 1) % 2], g->bytes, MPIRIO_BYTE, left, 5,
                             MPIRIO_COMM_WORLD, &r[(k + 1) % 2]);
        } else
            MPIRIO_Recv(got, g->bytes, MPIRIO_BYTE, left, 5, MPIRIO_COMM_WORLD, &stt);
        if (stt.source != left || stt.tag != 5 || stt.count != g->bytes)
            bad++;
        for (int i = 0; i < g->bytes; i++)
            bad += got[i] != pat(left, k, i);
    }
    MPIRIO_Wait(&s, MPIRIO_STATUS_IGNORE);
    res[rank][0] = bad;
    res[rank][1] = 1;
    free(out);
    free(in[0]);
    free(in[1]);
    MPIRIO_Finalize();
}

static void
check_ring(int n, int bytes, int pipelined, int flags)
{
    Ring g = {bytes, 200, pipelined};
    ck_assert_int_eq(run(n, NULL, flags, ring, &g), 0);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(res[i][1], 1);
        ck_assert_msg(res[i][0] == 0, "DSP %d received %d wrong bytes (%d bytes, %s)", i,
                      res[i][0], bytes, pipelined ? "pipelined" : "blocking");
    }
    ck_assert_int_eq(st.deadlock, 0);
    ck_assert_int_eq(st.traffic.messages, (long long)n * g.rounds);
    ck_assert_int_eq(st.traffic.bytes, (long long)n * g.rounds * bytes);
    ck_assert(st.cycles > 0);
}

TEST_CASE("p2p", 120)

TEST(ring_eager_in_place)
{
    check_ring(4, 64, 0, MPIRIO_RUN_SEND_IN_PLACE); /* below the eager limit: staged */
    check_ring(4, 64, 1, MPIRIO_RUN_SEND_IN_PLACE);
}
END_TEST

TEST(ring_large_in_place)
{
    check_ring(4, 100000, 0, MPIRIO_RUN_SEND_IN_PLACE); /* rendezvous from the buffer */
    check_ring(8, 100000, 1, MPIRIO_RUN_SEND_IN_PLACE);
}
END_TEST

TEST(ring_staged)
{
    check_ring(3, 100000, 1, 0); /* copied at the call */
    check_ring(16, 1000, 0, 0);
}
END_TEST

/* the DSPs' fibers on one worker thread, and on more workers than cores */
TEST(ring_workers)
{
    setenv("MPIRIO_WORKERS", "1", 1);
    check_ring(8, 100000, 1, MPIRIO_RUN_SEND_IN_PLACE);
    check_ring(5, 64, 0, 0);
    setenv("MPIRIO_WORKERS", "7", 1);
    check_ring(8, 100000, 0, MPIRIO_RUN_SEND_IN_PLACE);
    setenv("MPIRIO_WORKERS", "0", 1);
    ck_assert_int_eq(run(2, NULL, 0, ring, NULL), 1);
    ck_assert_msg(strstr(st.report, "MPIRIO_WORKERS \"0\": expected a number of threads"),
                  "%s", st.report);
    unsetenv("MPIRIO_WORKERS");
}
END_TEST

/* ---- a ping-pong of eager messages: the sender's Wait returns while the receiver
 * copies from the staged payload (once freed too early: a lost message) ---- */

static void
pingpong(int rank, void *arg)
{
    (void)arg;
    unsigned char b[64];
    int bad = 0;
    MPIRIO_Init(NULL, NULL);
    for (int k = 0; k < 20000; k++) {
        if (rank == 0) {
            memset(b, k & 0xff, sizeof b);
            MPIRIO_Send(b, 64, MPIRIO_BYTE, 1, 3, MPIRIO_COMM_WORLD);
            MPIRIO_Recv(b, 64, MPIRIO_BYTE, 1, 3, MPIRIO_COMM_WORLD,
                        MPIRIO_STATUS_IGNORE);
            bad += b[0] != ((k + 1) & 0xff) || b[63] != ((k + 1) & 0xff);
        } else {
            MPIRIO_Recv(b, 64, MPIRIO_BYTE, 0, 3, MPIRIO_COMM_WORLD,
                        MPIRIO_STATUS_IGNORE);
            bad += b[0] != (k & 0xff) || b[63] != (k & 0xff);
            memset(b, (k + 1) & 0xff, sizeof b);
            MPIRIO_Send(b, 64, MPIRIO_BYTE, 0, 3, MPIRIO_COMM_WORLD);
        }
    }
    res[rank][0] = bad;
    res[rank][1] = 1;
    MPIRIO_Finalize();
}

TEST(pingpong_eager)
{
    /* the abstract preset: every message eager */
    ck_assert_int_eq(run(2, "abstract", MPIRIO_RUN_SEND_IN_PLACE, pingpong, NULL), 0);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(res[i][1], 1);
        ck_assert_int_eq(res[i][0], 0);
    }
}
END_TEST

/* ---- order, wildcards, truncation ---- */

static void
ordered(int rank, void *arg)
{
    (void)arg;
    MPIRIO_Init(NULL, NULL);
    if (rank > 0) {
        for (int k = 0; k < 300; k++) {
            int v[2] = {rank, k};
            MPIRIO_Send(v, 2, MPIRIO_INT, 0, k % 3, MPIRIO_COMM_WORLD);
        }
    } else {
        int next[4] = {0, 0, 0, 0}, bad = 0;
        for (int k = 0; k < 900; k++) {
            int v[2];
            MPIRIO_Status s;
            MPIRIO_Recv(v, 2, MPIRIO_INT, MPIRIO_ANY_SOURCE, MPIRIO_ANY_TAG,
                        MPIRIO_COMM_WORLD, &s);
            /* non-overtaking: each sender's messages in its order */
            bad += s.source != v[0] || s.tag != v[1] % 3 || v[1] != next[v[0]];
            next[v[0]] = v[1] + 1;
        }
        res[0][0] = bad;
        res[0][1] = next[1] + next[2] + next[3];
    }
    MPIRIO_Finalize();
}

TEST(order_and_wildcards)
{
    ck_assert_int_eq(run(4, NULL, MPIRIO_RUN_SEND_IN_PLACE, ordered, NULL), 0);
    ck_assert_int_eq(res[0][0], 0);
    ck_assert_int_eq(res[0][1], 900);
}
END_TEST

static void
truncated(int rank, void *arg)
{
    int big = *(int *)arg;
    MPIRIO_Init(NULL, NULL);
    static unsigned char buf[200000], small[100];
    if (rank == 0) {
        memset(buf, 7, sizeof buf);
        MPIRIO_Send(buf, big, MPIRIO_BYTE, 1, 1, MPIRIO_COMM_WORLD);
    } else {
        MPIRIO_Status s;
        memset(small, 0, sizeof small);
        int e = MPIRIO_Recv(small, 100, MPIRIO_BYTE, 0, 1, MPIRIO_COMM_WORLD, &s);
        res[1][0] = e;
        res[1][1] = s.error;
        res[1][2] = (int)s.count;
        res[1][3] = small[0] == 7 && small[99] == 7;
    }
    MPIRIO_Finalize();
}

TEST(truncation)
{
    int sizes[2] = {1000, 200000};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(run(2, NULL, MPIRIO_RUN_SEND_IN_PLACE, truncated, &sizes[i]), 0);
        ck_assert_int_eq(res[1][0], MPIRIO_ERR_TRUNCATE);
        ck_assert_int_eq(res[1][1], MPIRIO_ERR_TRUNCATE);
        ck_assert_int_eq(res[1][2], 100);
        ck_assert_int_eq(res[1][3], 1);
    }
}
END_TEST

/* ---- collectives, both families, the world and the boards ---- */

static void
colls(int rank, void *arg)
{
    int family = *(int *)arg, n, bad = 0;
    MPIRIO_Init(NULL, NULL);
    MPIRIO_Coll_algorithm(family);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &n);
    for (int round = 0; round < 20; round++) {
        int v[4] = {rank == 2 ? round : -1, 0, 0, 0};
        MPIRIO_Bcast(v, 4, MPIRIO_INT, 2, MPIRIO_COMM_WORLD);
        bad += v[0] != round;
        long x = rank + round, sum = -1;
        MPIRIO_Reduce(&x, &sum, 1, MPIRIO_LONG, MPIRIO_SUM, 1, MPIRIO_COMM_WORLD);
        if (rank == 1)
            bad += sum != (long)n * (n - 1) / 2 + (long)n * round;
        MPIRIO_Allreduce(&x, &sum, 1, MPIRIO_LONG, MPIRIO_MAX, MPIRIO_COMM_WORLD);
        bad += sum != n - 1 + round;
        int all[MAXR], one = rank * 10 + round;
        MPIRIO_Allgather(&one, 1, MPIRIO_INT, all, 1, MPIRIO_INT, MPIRIO_COMM_WORLD);
        for (int i = 0; i < n; i++)
            bad += all[i] != i * 10 + round;
        memset(all, 0, sizeof all);
        MPIRIO_Gather(&one, 1, MPIRIO_INT, all, 1, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
        for (int i = 0; rank == 0 && i < n; i++)
            bad += all[i] != i * 10 + round;
        int mine = -1;
        MPIRIO_Scatter(all, 1, MPIRIO_INT, &mine, 1, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
        bad += mine != rank * 10 + round;
        /* the board: its own members, its own sum */
        int lr, ln, ls = 0, lx = rank;
        MPIRIO_Comm_rank(MPIRIO_COMM_LOCAL, &lr);
        MPIRIO_Comm_size(MPIRIO_COMM_LOCAL, &ln);
        MPIRIO_Allreduce(&lx, &ls, 1, MPIRIO_INT, MPIRIO_SUM, MPIRIO_COMM_LOCAL);
        int base = rank - lr;
        bad += ls != ln * base + ln * (ln - 1) / 2;
        MPIRIO_Barrier(MPIRIO_COMM_WORLD);
    }
    res[rank][0] = bad;
    res[rank][1] = 1;
    MPIRIO_Finalize();
}

TEST_CASE("collectives", 120)

TEST(collectives_both_families)
{
    int fam[2] = {MPIRIO_COLL_SWITCH, MPIRIO_COLL_MPICH};
    for (int f = 0; f < 2; f++) {
        ck_assert_int_eq(run(8, "bwdsp-2board", 0, colls, &fam[f]), 0);
        for (int i = 0; i < 8; i++) {
            ck_assert_int_eq(res[i][1], 1);
            ck_assert_msg(res[i][0] == 0, "family %d: DSP %d: %d wrong results", f, i,
                          res[i][0]);
        }
    }
}
END_TEST

/* ---- deadlocks ---- */

static void
crossed(int rank, void *arg)
{
    (void)arg;
    int v = 0;
    MPIRIO_Init(NULL, NULL);
    if (rank < 2) /* both wait for the other; DSP 2 returns */
        MPIRIO_Recv(&v, 1, MPIRIO_INT, 1 - rank, 3, MPIRIO_COMM_WORLD,
                    MPIRIO_STATUS_IGNORE);
    res[rank][0] = 1;
    MPIRIO_Finalize();
}

static void
unreceived(int rank, void *arg)
{
    (void)arg;
    static char big[100000];
    MPIRIO_Init(NULL, NULL);
    if (rank == 0) /* above the eager limit, in place: waits for a receive */
        MPIRIO_Send(big, sizeof big, MPIRIO_BYTE, 1, 9, MPIRIO_COMM_WORLD);
    else
        MPIRIO_Barrier(MPIRIO_COMM_WORLD);
    MPIRIO_Finalize();
}

TEST_CASE("runs", 120)

TEST(deadlock_reported)
{
    ck_assert_int_eq(run(3, NULL, 0, crossed, NULL), 2);
    ck_assert_int_eq(st.deadlock, 1);
    ck_assert_int_eq(res[2][0], 1);
    ck_assert_int_eq(res[0][0], 0);
    ck_assert_msg(strstr(st.report, "all 2 live DSPs are blocked") != NULL, "%s",
                  st.report);
    ck_assert_msg(strstr(st.report,
                         "DSP 0 (board 0): blocked in MPIRIO_Recv, waiting for "
                         "a message from rank 1 (tag 3, MPIRIO_COMM_WORLD)"),
                  "%s", st.report);
    ck_assert_msg(strstr(st.report,
                         "DSP 1 (board 0): blocked in MPIRIO_Recv, waiting for "
                         "a message from rank 0 (tag 3"),
                  "%s", st.report);
    ck_assert(strstr(st.report, "DSP 2") == NULL);
    ck_assert_int_eq(run(2, NULL, MPIRIO_RUN_SEND_IN_PLACE, unreceived, NULL), 2);
    ck_assert_msg(strstr(st.report,
                         "DSP 0 (board 0): blocked in MPIRIO_Send, waiting for "
                         "its send to rank 1 (tag 9"),
                  "%s", st.report);
    ck_assert_msg(strstr(st.report, "DSP 1 (board 0): blocked in MPIRIO_Barrier, waiting "
                                    "for the other members of a collective (1 of 2 "
                                    "arrived)"),
                  "%s", st.report);
    /* the next run starts clean */
    Ring g = {64, 10, 1};
    ck_assert_int_eq(run(4, NULL, MPIRIO_RUN_SEND_IN_PLACE, ring, &g), 0);
    ck_assert_int_eq(st.deadlock, 0);
    ck_assert_int_eq(st.report[0], 0);
}
END_TEST

/* ---- abort, nesting, settings, pinning ---- */

static void
aborts(int rank, void *arg)
{
    (void)arg;
    MPIRIO_Init(NULL, NULL);
    if (rank == 1)
        MPIRIO_Abort(MPIRIO_COMM_WORLD, 7);
    int v;
    MPIRIO_Recv(&v, 1, MPIRIO_INT, 1, 0, MPIRIO_COMM_WORLD, MPIRIO_STATUS_IGNORE);
    MPIRIO_Finalize();
}

EXIT_TEST(abort_ends_process, 7)
{
    run(3, NULL, 0, aborts, NULL);
}
END_TEST

static void
nested(int rank, void *arg)
{
    (void)arg;
    MPIRIO_Init(NULL, NULL);
    res[rank][0] = MPIRIO_Run(1, NULL, MPIRIO_RUN_QUIET, nested, NULL);
    MPIRIO_Finalize();
}

TEST(one_run_at_a_time)
{
    ck_assert_int_eq(run(2, NULL, 0, nested, NULL), 0);
    ck_assert_int_eq(res[0][0], 1);
    ck_assert_int_eq(res[1][0], 1);
    ck_assert_int_eq(MPIRIO_Init(NULL, NULL), MPIRIO_ERR_NOT_INIT); /* outside a run */
}
END_TEST

static void
where(int rank, void *arg)
{
    (void)arg;
    MPIRIO_Init(NULL, NULL);
    res[rank][0] = sched_getcpu();
    MPIRIO_Finalize();
}

TEST(pinned)
{
    cpu_set_t allowed;
    ck_assert_int_eq(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int cpus[CPU_SETSIZE], k = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &allowed))
            cpus[k++] = c;
    ck_assert_int_eq(run(5, NULL, MPIRIO_RUN_PIN, where, NULL), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(res[i][0], cpus[i % k]);
}
END_TEST

TEST(bad_settings)
{
    setenv("MPIRIO_COMPUTE", "sometimes", 1);
    ck_assert_int_eq(run(2, NULL, 0, where, NULL), 1);
    ck_assert_msg(
        strstr(st.report, "MPIRIO_COMPUTE \"sometimes\": expected none or spin"), "%s",
        st.report);
    unsetenv("MPIRIO_COMPUTE");
    ck_assert_int_eq(run(2, "no-such-preset", 0, where, NULL), 1);
    ck_assert_msg(strstr(st.report, "platform") != NULL, "%s", st.report);
    ck_assert_int_eq(run(0, NULL, 0, where, NULL), 1);
}
END_TEST

static void
spin(int rank, void *arg)
{
    (void)arg;
    MPIRIO_Init(NULL, NULL);
    struct timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    /* 10 ms at 500 MHz, counted from the DSP's previous MPIRIO call (here the start) */
    MPIRIO_Compute(5000000);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    res[rank][0] = (int)(MPIRIO_time() / 1000);
    /* the CPU time of the call, in microseconds: none spends none */
    res[rank][1] =
        (int)((c1.tv_sec - c0.tv_sec) * 1000000 + (c1.tv_nsec - c0.tv_nsec) / 1000);
    MPIRIO_Finalize();
}

TEST(compute_spin)
{
    setenv("MPIRIO_COMPUTE", "spin", 1);
    ck_assert_int_eq(run(2, NULL, 0, spin, NULL), 0);
    unsetenv("MPIRIO_COMPUTE");
    for (int i = 0; i < 2; i++)
        ck_assert_int_ge(res[i][0], 5000); /* at least the 5 million cycles */
    ck_assert_int_ge(st.cycles, 5000000);
    ck_assert_int_eq(run(2, NULL, 0, spin, NULL), 0); /* none: no time spent */
    ck_assert_int_lt(res[0][1], 2000);
    ck_assert_int_lt(res[1][1], 2000);
}
END_TEST
