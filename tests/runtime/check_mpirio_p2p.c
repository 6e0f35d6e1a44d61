/* check_mpirio_p2p.c: point-to-point, the timing model of docs/design.md sections 3 and
 * 4 (the worked example to the cycle), error codes, determinism, deadlock. Every
 * run is in-process through MPIRIO_Run; the DSP functions keep their results in
 * per-rank arrays (the DSPs share this program's globals in-process). */
#include "../check_run.h"
#include <check.h>
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static MPIRIO_Stats st;
static long long tmark[64];
static int ires[64][32];
static long long lres[64][4];

static int
run(int n, const char *plat, int flags, void (*fn)(int, void *), void *arg)
{
    int rc = MPIRIO_Run(n, plat, flags | MPIRIO_RUN_QUIET, fn, arg);
    MPIRIO_Run_stats(&st);
    return rc;
}

/* ---- the worked example of docs/design.md section 3 ---- */

static void
worked(int rank, void *arg)
{
    int pipelined = *(int *)arg, iters = 2;
    static char out[64], in[2][64];
    MPIRIO_Request s = MPIRIO_REQUEST_NULL, r[2];
    MPIRIO_Init(NULL, NULL);
    if (rank == 0) {
        for (int i = 0; i < iters; i++) {
            MPIRIO_Wait(&s, MPIRIO_STATUS_IGNORE); /* zero-copy: a writes the buffer */
            MPIRIO_Compute(1000);
            memset(out, 'a' + i, sizeof out);
            MPIRIO_Isend(out, 64, MPIRIO_BYTE, 1, 0, MPIRIO_COMM_WORLD, &s);
        }
        MPIRIO_Wait(&s, MPIRIO_STATUS_IGNORE);
    } else if (rank == 1) {
        if (pipelined)
            MPIRIO_Irecv(in[0], 64, MPIRIO_BYTE, 0, 0, MPIRIO_COMM_WORLD, &r[0]);
        for (int i = 0; i < iters; i++) {
            if (pipelined) {
                MPIRIO_Wait(&r[i % 2], MPIRIO_STATUS_IGNORE);
                if (i + 1 < iters)
                    MPIRIO_Irecv(in[(i + 1) % 2], 64, MPIRIO_BYTE, 0, 0,
                                 MPIRIO_COMM_WORLD, &r[(i + 1) % 2]);
            } else
                MPIRIO_Recv(in[i % 2], 64, MPIRIO_BYTE, 0, 0, MPIRIO_COMM_WORLD,
                            MPIRIO_STATUS_IGNORE);
            ires[1][i] = in[i % 2][0];
            tmark[i] = MPIRIO_time();
            MPIRIO_Compute(2000);
        }
    }
    MPIRIO_Finalize();
}

TEST_CASE("core", 120)

/* Runs the worked example, its receives pipelined or not, without contention: its length
 * and the times of rank 1's two receives (tmark), which get 'a' then 'b'. */
static void
ck_worked(int pipelined, long long cycles, long long recv0, long long recv1)
{
    ck_assert_int_eq(run(4, "bwdsp-1board", MPIRIO_RUN_NO_CONTENTION, worked, &pipelined),
                     0);
    ck_assert_int_eq(st.cycles, cycles);
    ck_assert_int_eq(tmark[0], recv0);
    ck_assert_int_eq(tmark[1], recv1);
    ck_assert_int_eq(ires[1][0], 'a');
    ck_assert_int_eq(ires[1][1], 'b');
}

TEST(worked_example_blocking_is_7528)
{
    ck_worked(0, 7528, 2564, 5528);
    ck_assert_int_eq(st.traffic.packets, 2);
    long long f[4];
    MPIRIO_Run_finish_times(f, 4);
    ck_assert_int_eq(f[1], 7528);
    ck_assert_int_eq(f[0], 5128); /* DSP 0 waited for its last send */
    ck_assert_int_eq(f[2], 0);
}
END_TEST

TEST(worked_example_pipelined_is_6864)
{
    ck_worked(1, 6864, 2664, 4864);
}
END_TEST

TEST(worked_example_same_with_contention)
{
    int pipelined = 0;
    ck_assert_int_eq(run(4, "bwdsp-1board", 0, worked, &pipelined), 0);
    ck_assert_int_eq(st.cycles, 7528);
    pipelined = 1;
    ck_assert_int_eq(run(4, "bwdsp-1board", 0, worked, &pipelined), 0);
    ck_assert_int_eq(st.cycles, 6864);
}
END_TEST

/* ---- one message: arrival = 600 + 300 + fabric time, then recv_overhead ---- */

typedef struct One {
    int bytes, src, dst;
} One;

static unsigned char *big_out, *big_in;

static void
one_msg(int rank, void *arg)
{
    One *o = arg;
    if (rank == o->src) {
        for (int i = 0; i < o->bytes; i++)
            big_out[i] = (unsigned char)(i * 7 + 3);
        MPIRIO_Send(big_out, o->bytes, MPIRIO_BYTE, o->dst, 5, MPIRIO_COMM_WORLD);
    } else if (rank == o->dst) {
        MPIRIO_Status s;
        memset(big_in, 0, 100000);
        MPIRIO_Recv(big_in, 100000, MPIRIO_BYTE, MPIRIO_ANY_SOURCE, MPIRIO_ANY_TAG,
                    MPIRIO_COMM_WORLD, &s);
        tmark[0] = MPIRIO_time();
        ires[0][0] = s.source;
        ires[0][1] = s.tag;
        MPIRIO_Get_count(&s, MPIRIO_BYTE, &ires[0][2]);
        ires[0][3] = memcmp(big_in, big_out, (size_t)o->bytes) == 0;
        ires[0][4] = s.error;
    }
}

static long long
ser(long long s)
{
    return (s * 8 * 500 + 4415) / 4416;
}

/* the fabric time of n bytes across h switches, from docs/design.md section 4 */
static long long
fabric(long long n, int h)
{
    long long k = n ? (n + 249) / 250 : 1, sum = 0, big = 0;
    for (long long i = 0; i < k; i++) {
        long long pl = i + 1 < k ? 250 : n - 250 * (k - 1);
        long long s = ser(pl + 26);
        sum += s;
        big = s > big ? s : big;
    }
    return sum + h * (100 + big);
}

TEST(fabric_time_matches_the_formula)
{
    ck_assert_int_eq(fabric(64, 1), 264);
    ck_assert_int_eq(fabric(10000, 1), 10350);
    big_out = malloc(100000);
    big_in = malloc(100000);
    static const int sizes[] = {0, 1, 64, 250, 251, 10000, 100000};
    static const struct {
        const char *plat;
        int n, src, dst, h;
    } routes[] = {
        {"bwdsp-1board", 4, 0, 1, 1},   {"bwdsp-2board", 8, 0, 7, 2},
        {"bwdsp-4board", 16, 0, 9, 3},  {"bwdsp-4board", 16, 15, 4, 3},
        {"bwdsp-4board", 16, 13, 1, 2}, {"bwdsp-16board", 64, 63, 48, 10},
        {"bwdsp-16board", 64, 5, 6, 1},
    };
    for (size_t r = 0; r < sizeof routes / sizeof routes[0]; r++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            One o = {sizes[i], routes[r].src, routes[r].dst};
            for (int cont = 0; cont < 2; cont++) {
                ck_assert_int_eq(run(routes[r].n, routes[r].plat,
                                     cont ? 0 : MPIRIO_RUN_NO_CONTENTION, one_msg, &o),
                                 0);
                /* eager_limit 0: a 0-byte message is eager (no handshake) */
                long long hs = o.bytes <= 0 ? 0 : 300;
                long long want = 600 + hs + fabric(o.bytes, routes[r].h) + 400;
                ck_assert_msg(tmark[0] == want, "%s %d->%d %d bytes: %lld, want %lld",
                              routes[r].plat, o.src, o.dst, o.bytes, tmark[0], want);
                ck_assert_int_eq(ires[0][0], o.src);
                ck_assert_int_eq(ires[0][1], 5);
                ck_assert_int_eq(ires[0][2], o.bytes);
                ck_assert_int_eq(ires[0][3], 1);
                ck_assert_int_eq(ires[0][4], MPIRIO_SUCCESS);
                long long k = o.bytes ? (o.bytes + 249) / 250 : 1;
                ck_assert_int_eq(st.traffic.packets, k);
                ck_assert_int_eq(st.traffic.messages, 1);
                ck_assert_int_eq(st.traffic.bytes, o.bytes);
                ck_assert_int_eq(st.traffic.link_packets, k * (routes[r].h + 1));
            }
        }
    free(big_out);
    free(big_in);
}
END_TEST

TEST(ten_thousand_bytes_are_40_packets)
{
    big_out = malloc(100000);
    big_in = malloc(100000);
    One o = {10000, 2, 3};
    ck_assert_int_eq(run(4, NULL, MPIRIO_RUN_NO_CONTENTION, one_msg, &o), 0);
    ck_assert_int_eq(st.traffic.packets, 40);
    ck_assert_int_eq(tmark[0], 600 + 300 + 10350 + 400);
    free(big_out);
    free(big_in);
}
END_TEST

/* ---- the rendezvous starts at max(issue, post) + handshake ---- */

static void
late_post(int rank, void *arg)
{
    char b[64] = {0};
    if (rank == 0)
        MPIRIO_Send(b, 64, MPIRIO_BYTE, 1, 0, MPIRIO_COMM_WORLD);
    if (rank == 0)
        tmark[0] = MPIRIO_time();
    if (rank == 1) {
        MPIRIO_Compute(5000);
        MPIRIO_Request r;
        MPIRIO_Irecv(b, 64, MPIRIO_BYTE, 0, 0, MPIRIO_COMM_WORLD, &r);
        MPIRIO_Wait(&r, NULL);
        tmark[1] = MPIRIO_time();
    }
}

TEST(rendezvous_waits_for_the_post)
{
    ck_assert_int_eq(run(2, NULL, MPIRIO_RUN_NO_CONTENTION, late_post, NULL), 0);
    /* posted at 5300, data 5600-5864, wait overhead to 6064 */
    ck_assert_int_eq(tmark[0], 5864);
    ck_assert_int_eq(tmark[1], 6064);
}
END_TEST

static char eager_file[64];

static void
write_platform(const char *body)
{
    snprintf(eager_file, sizeof eager_file, "/tmp/mpirio-plat-%d.json", (int)getpid());
    FILE *f = fopen(eager_file, "w");
    fputs(body, f);
    fclose(f);
}

TEST(eager_messages_skip_the_handshake)
{
    write_platform(
        "{\"format\": \"tgc-platform/1\", \"boards\": 1, \"eager_limit\": 64}");
    ck_assert_int_eq(run(2, eager_file, MPIRIO_RUN_NO_CONTENTION, late_post, NULL), 0);
    /* issued 600, arrived 864 (send done), received from the unexpected queue at
     * 5300, wait overhead to 5500 */
    ck_assert_int_eq(tmark[0], 864);
    ck_assert_int_eq(tmark[1], 5500);
    unlink(eager_file);
}
END_TEST

/* ---- contention: two senders into one DSP share its down link ---- */

static void
two_to_one(int rank, void *arg)
{
    static char b[4][2500];
    if (rank == 1 || rank == 2) {
        if (rank == 2)
            MPIRIO_Set_priority(*(int *)arg);
        MPIRIO_Send(b[rank], 2500, MPIRIO_BYTE, 0, rank, MPIRIO_COMM_WORLD);
    } else if (rank == 0) {
        MPIRIO_Request r[2];
        MPIRIO_Status s[2];
        MPIRIO_Irecv(b[0], 2500, MPIRIO_BYTE, 1, 1, MPIRIO_COMM_WORLD, &r[0]);
        MPIRIO_Irecv(b[3], 2500, MPIRIO_BYTE, 2, 2, MPIRIO_COMM_WORLD, &r[1]);
        MPIRIO_Wait(&r[0], &s[0]);
        tmark[1] = MPIRIO_time();
        MPIRIO_Wait(&r[1], &s[1]);
        tmark[2] = MPIRIO_time();
    }
}

TEST(contention_serialises_a_shared_link)
{
    int prio = 0;
    ck_assert_int_eq(run(4, NULL, MPIRIO_RUN_NO_CONTENTION, two_to_one, &prio), 0);
    long long free_len = st.cycles;
    ck_assert_int_eq(run(4, NULL, 0, two_to_one, &prio), 0);
    ck_assert_int_gt(st.cycles, free_len);
    /* equal priority, size and issue time (600): the lower source rank (1) wins */
    long long t1 = tmark[1];
    prio = 5;
    ck_assert_int_eq(run(4, NULL, 0, two_to_one, &prio), 0);
    ck_assert_int_gt(tmark[1], t1); /* rank 2's packets now go first */
}
END_TEST

/* Ranks 1 and 2 send to rank 0 (tags 1 and 2), rank 1 after computing `compute1` cycles;
 * rank 0 posts both receives, waits for rank `first`'s message, then for the other's:
 * tmark[1] and tmark[2] are when the two waits return. */
typedef struct {
    int compute1;
    int bytes[3]; /* [1], [2]: what ranks 1 and 2 send */
    int first;
} TwoSends;

static void
two_sends(int rank, void *arg)
{
    const TwoSends *t = arg;
    static char b[4][2500];
    if (rank == 1 && t->compute1)
        MPIRIO_Compute(t->compute1);
    if (rank == 1 || rank == 2) {
        MPIRIO_Send(b[rank], t->bytes[rank], MPIRIO_BYTE, 0, rank, MPIRIO_COMM_WORLD);
    } else if (rank == 0) {
        MPIRIO_Request r[2];
        MPIRIO_Irecv(b[0], t->bytes[1], MPIRIO_BYTE, 1, 1, MPIRIO_COMM_WORLD, &r[0]);
        MPIRIO_Irecv(b[3], t->bytes[2], MPIRIO_BYTE, 2, 2, MPIRIO_COMM_WORLD, &r[1]);
        MPIRIO_Wait(&r[t->first - 1], NULL);
        tmark[1] = MPIRIO_time();
        MPIRIO_Wait(&r[2 - t->first], NULL);
        tmark[2] = MPIRIO_time();
    }
}

/* Rank 1 computes first, so its thread calls MPIRIO_Send before rank 2's does, but its
 * message is issued later in virtual time (1600 against 600): issue order is by virtual
 * time, never by the order in which the threads happen to run. */
TEST(issue_order_is_virtual_time)
{
    /* rank 2: posted 600, departs 900, its ten packets hold DSP 0's link 1250-3750;
     * rank 1: issued 1600, departs 1900, its first packet is ready for that link at 2250
     * but rank 2's message was issued first and keeps the link: rank 1's packets follow,
     * 3750-6250.  Waits of 200 each: 6450, then 6650. */
    TwoSends late_issue = {.compute1 = 1000, .bytes = {0, 2500, 2500}, .first = 1};
    ck_assert_int_eq(run(4, NULL, 0, two_sends, &late_issue), 0);
    ck_assert_int_eq(tmark[1], 6450);
    ck_assert_int_eq(tmark[2], 6650);
}
END_TEST

TEST(shorter_message_goes_first)
{
    /* both start at 900; their first packets reach the switch together at 1150 and
     * are ready for DSP 0's link at 1250: the short one takes it (1250-1500), the long
     * one's ten packets follow, 250 cycles later than alone (3750) */
    TwoSends long_and_short = {.bytes = {0, 2500, 250}, .first = 2};
    ck_assert_int_eq(run(4, NULL, 0, two_sends, &long_and_short), 0);
    ck_assert_int_eq(tmark[1], 1500 + 200);
    ck_assert_int_eq(tmark[2], 4000 + 200);
    ck_assert_int_eq(run(4, NULL, MPIRIO_RUN_NO_CONTENTION, two_sends, &long_and_short),
                     0);
    ck_assert_int_eq(tmark[1], 1500 + 200);
    ck_assert_int_eq(tmark[2], 3750 + 200);
}
END_TEST

/* ---- matching: ordering, wildcards, Test, Waitall, truncation, self ---- */

static void
matching(int rank, void *arg)
{
    int v[4] = {0};
    if (rank == 0) {
        static int vals[4];
        MPIRIO_Request rq[4];
        for (int i = 0; i < 4; i++) {
            vals[i] = 100 + i;
            MPIRIO_Isend(&vals[i], 1, MPIRIO_INT, 1, i % 2, MPIRIO_COMM_WORLD, &rq[i]);
        }
        MPIRIO_Waitall(4, rq, MPIRIO_STATUSES_IGNORE);
        int big[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        MPIRIO_Send(big, 10, MPIRIO_INT, 1, 9, MPIRIO_COMM_WORLD);
        /* a message to itself */
        MPIRIO_Request r;
        MPIRIO_Isend(big, 3, MPIRIO_INT, 0, 3, MPIRIO_COMM_WORLD, &r);
        int mine[3];
        MPIRIO_Recv(mine, 3, MPIRIO_INT, 0, 3, MPIRIO_COMM_WORLD, NULL);
        MPIRIO_Wait(&r, NULL);
        ires[0][0] = mine[0] + mine[1] + mine[2];
    } else if (rank == 1) {
        MPIRIO_Status s;
        /* tag 1 first: the second message, then messages in order */
        MPIRIO_Recv(v, 1, MPIRIO_INT, 0, 1, MPIRIO_COMM_WORLD, &s);
        ires[1][0] = v[0];
        MPIRIO_Request r[3];
        MPIRIO_Status ss[3];
        MPIRIO_Irecv(&v[0], 1, MPIRIO_INT, MPIRIO_ANY_SOURCE, MPIRIO_ANY_TAG,
                     MPIRIO_COMM_WORLD, &r[0]);
        int flag = 0, polls = 0;
        while (!flag) {
            MPIRIO_Test(&r[0], &flag, &ss[0]);
            polls++;
        }
        ck_assert_ptr_null(r[0]);
        for (int i = 1; i < 3; i++)
            MPIRIO_Irecv(&v[i], 1, MPIRIO_INT, MPIRIO_ANY_SOURCE, MPIRIO_ANY_TAG,
                         MPIRIO_COMM_WORLD, &r[i]);
        MPIRIO_Waitall(3, r, ss);
        ires[1][1] = v[0], ires[1][2] = v[1], ires[1][3] = v[2];
        ires[1][4] = ss[1].tag;
        ires[1][5] = polls > 1;
        int small[4];
        int e = MPIRIO_Recv(small, 4, MPIRIO_INT, 0, 9, MPIRIO_COMM_WORLD, &s);
        ires[1][6] = e;
        ires[1][7] = s.error;
        ires[1][8] = s.count;
        ires[1][9] = small[3];
    }
}

TEST(matching_wildcards_test_waitall_truncation)
{
    ck_assert_int_eq(run(2, NULL, 0, matching, NULL), 0);
    ck_assert_int_eq(ires[0][0], 6);
    ck_assert_int_eq(ires[1][0], 101);
    ck_assert_int_eq(ires[1][1], 100);
    ck_assert_int_eq(ires[1][2], 102);
    ck_assert_int_eq(ires[1][3], 103);
    ck_assert_int_eq(ires[1][4], 0);
    ck_assert_int_eq(ires[1][5], 1);
    ck_assert_int_eq(ires[1][6], MPIRIO_ERR_TRUNCATE);
    ck_assert_int_eq(ires[1][7], MPIRIO_ERR_TRUNCATE);
    ck_assert_int_eq(ires[1][8], 16);
    ck_assert_int_eq(ires[1][9], 4);
}
END_TEST

/* ---- communicators ---- */

static void
comms(int rank, void *arg)
{
    int r, n, lr, ln;
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &r);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &n);
    MPIRIO_Comm_rank(MPIRIO_COMM_LOCAL, &lr);
    MPIRIO_Comm_size(MPIRIO_COMM_LOCAL, &ln);
    ires[rank][0] = r, ires[rank][1] = n, ires[rank][2] = lr, ires[rank][3] = ln;
    /* a ring inside each board */
    int v = rank, got = -1;
    MPIRIO_Request q;
    MPIRIO_Irecv(&got, 1, MPIRIO_INT, (lr + ln - 1) % ln, 0, MPIRIO_COMM_LOCAL, &q);
    MPIRIO_Send(&v, 1, MPIRIO_INT, (lr + 1) % ln, 0, MPIRIO_COMM_LOCAL);
    MPIRIO_Status s;
    MPIRIO_Wait(&q, &s);
    ires[rank][4] = got;
    ires[rank][5] = s.source;
}

TEST(world_and_local_communicators)
{
    ck_assert_int_eq(run(10, "bwdsp-4board", 0, comms, NULL), 0);
    for (int i = 0; i < 10; i++) {
        int b = i / 4, ln = b == 2 ? 2 : 4, lr = i % 4;
        ck_assert_int_eq(ires[i][0], i);
        ck_assert_int_eq(ires[i][1], 10);
        ck_assert_int_eq(ires[i][2], lr);
        ck_assert_int_eq(ires[i][3], ln);
        ck_assert_int_eq(ires[i][4], b * 4 + (lr + ln - 1) % ln);
        ck_assert_int_eq(ires[i][5], (lr + ln - 1) % ln);
    }
}
END_TEST

/* ---- every error code ---- */

static void
errors(int rank, void *arg)
{
    int *e = ires[rank], k = 0;
    int v[4] = {0};
    MPIRIO_Request r;
    if (rank != 0)
        return;
    e[k++] = MPIRIO_Send(NULL, 1, MPIRIO_INT, 1, 0, MPIRIO_COMM_WORLD);   /* 0 */
    e[k++] = MPIRIO_Send(v, -1, MPIRIO_INT, 1, 0, MPIRIO_COMM_WORLD);     /* 1 */
    e[k++] = MPIRIO_Send(v, 1, 99, 1, 0, MPIRIO_COMM_WORLD);              /* 2 */
    e[k++] = MPIRIO_Send(v, 1, MPIRIO_INT, 1, -3, MPIRIO_COMM_WORLD);     /* 3 */
    e[k++] = MPIRIO_Send(v, 1, MPIRIO_INT, 1, 0, 42);                     /* 4 */
    e[k++] = MPIRIO_Send(v, 1, MPIRIO_INT, 4, 0, MPIRIO_COMM_WORLD);      /* 5 */
    e[k++] = MPIRIO_Bcast(v, 1, MPIRIO_INT, 7, MPIRIO_COMM_WORLD);        /* 6 */
    e[k++] = MPIRIO_Reduce(v, v, 1, MPIRIO_INT, 9, 0, MPIRIO_COMM_WORLD); /* 7 */
    e[k++] = MPIRIO_Reduce(v, v, 1, MPIRIO_BYTE, MPIRIO_SUM, 0, MPIRIO_COMM_WORLD);
    e[k++] = MPIRIO_Wait(NULL, NULL);                                       /* 9 */
    e[k++] = MPIRIO_Compute(-1);                                            /* 10 */
    e[k++] = MPIRIO_Irecv(v, 1, MPIRIO_INT, 9, 0, MPIRIO_COMM_WORLD, &r);   /* 11 */
    e[k++] = MPIRIO_Isend(v, 1, MPIRIO_INT, 1, 0, MPIRIO_COMM_WORLD, NULL); /* 12 */
    e[k++] = MPIRIO_Gather(v, 2, MPIRIO_INT, v, 1, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
    e[k++] = MPIRIO_Scatter(v, 1, MPIRIO_INT, v, 1, MPIRIO_INT, -1, MPIRIO_COMM_LOCAL);
    e[k++] = MPIRIO_Comm_rank(5, v);      /* 15 */
    e[k++] = MPIRIO_Test(&r, NULL, NULL); /* 16 */
    e[k++] = MPIRIO_Coll_algorithm(7);    /* 17 */
    e[k++] = MPIRIO_Recv(v, 1, MPIRIO_INT, MPIRIO_PROC_NULL, 0, MPIRIO_COMM_WORLD, NULL);
    e[k++] = MPIRIO_Type_size(MPIRIO_DOUBLE, &v[0]) * 100 + v[0]; /* 19 */
    e[k++] = MPIRIO_Type_size(0, &v[0]);                          /* 20 */
    e[k++] = MPIRIO_Initialized(&v[0]) * 100 + v[0];              /* 21 */
    MPIRIO_Status s = {0, 0, 0, 6};
    e[k++] = MPIRIO_Get_count(&s, MPIRIO_INT, &v[0]) * 100 + v[0]; /* 22: -1 */
    e[k++] = MPIRIO_Set_priority(3);                               /* 23 */
    e[k++] = MPIRIO_Coll_algorithm(MPIRIO_COLL_MPICH);             /* 24: 0 */
    e[k++] = MPIRIO_Coll_algorithm(MPIRIO_COLL_SWITCH);            /* 25: 1 */
    MPIRIO_Finalize();
    e[k++] = MPIRIO_Initialized(&v[0]) * 100 + v[0];                 /* 26 */
    e[k++] = MPIRIO_Send(v, 1, MPIRIO_INT, 1, 0, MPIRIO_COMM_WORLD); /* 27 */
}

/* requests that completed, or never were: refused, and the live one still works
 * (issue 37, 2: these were waits on freed memory) */
static void
stale(int rank, void *arg)
{
    int *e = ires[rank], k = 0, x = rank, y = -1, flag = 0;
    int peer = rank ^ 1;
    MPIRIO_Request r, old, arr[2], q;
    MPIRIO_Status s;
    MPIRIO_Irecv(&y, 1, MPIRIO_INT, peer, 1, MPIRIO_COMM_WORLD, &r);
    MPIRIO_Send(&x, 1, MPIRIO_INT, peer, 1, MPIRIO_COMM_WORLD);
    old = r;
    e[k++] = MPIRIO_Wait(&r, &s); /* 0: success */
    e[k++] = y == peer && r == MPIRIO_REQUEST_NULL;
    /* a new request takes the old one's place */
    MPIRIO_Irecv(&y, 1, MPIRIO_INT, peer, 2, MPIRIO_COMM_WORLD, &r);
    MPIRIO_Isend(&x, 1, MPIRIO_INT, peer, 2, MPIRIO_COMM_WORLD, &q);
    MPIRIO_Request c = old;
    e[k++] = MPIRIO_Wait(&c, &s); /* 2 */
    c = old;
    e[k++] = MPIRIO_Test(&c, &flag, &s); /* 3 */
    arr[0] = r, arr[1] = old;
    e[k++] = MPIRIO_Waitall(2, arr, NULL); /* 4: the live one is waited for */
    e[k++] = y == peer && arr[0] == MPIRIO_REQUEST_NULL;
    c = (MPIRIO_Request)(unsigned long)0x12345678;
    e[k++] = MPIRIO_Wait(&c, &s); /* 6 */
    c = old;
    e[k++] = MPIRIO_Wait(&c, &s); /* 7: still refused after the slot's reuse */
    MPIRIO_Wait(&q, NULL);
}

TEST(stale_requests_are_refused)
{
    ck_assert_int_eq(run(2, NULL, 0, stale, NULL), 0);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(ires[i][0], MPIRIO_SUCCESS);
        ck_assert_int_eq(ires[i][1], 1);
        ck_assert_int_eq(ires[i][2], MPIRIO_ERR_REQUEST);
        ck_assert_int_eq(ires[i][3], MPIRIO_ERR_REQUEST);
        ck_assert_int_eq(ires[i][4], MPIRIO_ERR_REQUEST);
        ck_assert_int_eq(ires[i][5], 1);
        ck_assert_int_eq(ires[i][6], MPIRIO_ERR_REQUEST);
        ck_assert_int_eq(ires[i][7], MPIRIO_ERR_REQUEST);
    }
}
END_TEST

/* computes near the end of the clock (issue 37, 4: one hung the simulator, two
 * wrapped the clock negative with success) */
static void
big_computes(int rank, void *arg)
{
    int *e = ires[rank];
    long long *t = lres[rank];
    e[0] = MPIRIO_Compute(0x7fffffffffffffffLL - 5);
    e[1] = MPIRIO_Compute(MPIRIO_CLOCK_MAX / 2);
    e[2] = MPIRIO_Compute(MPIRIO_CLOCK_MAX / 2);
    e[3] = MPIRIO_Compute(MPIRIO_CLOCK_MAX / 2); /* beyond the limit */
    t[0] = MPIRIO_time();
    e[4] = MPIRIO_Compute(MPIRIO_CLOCK_MAX - t[0]); /* to the limit exactly */
    e[5] = MPIRIO_Compute(1);
    t[1] = MPIRIO_time();
    int x = rank;
    if (rank == 0) /* the DSPs still talk at the end of time */
        MPIRIO_Send(&x, 1, MPIRIO_INT, 1, 0, MPIRIO_COMM_WORLD);
    else
        MPIRIO_Recv(&x, 1, MPIRIO_INT, 0, 0, MPIRIO_COMM_WORLD, NULL);
    e[6] = x;
}

TEST(computes_stop_at_the_end_of_the_clock)
{
    ck_assert_int_eq(run(2, NULL, 0, big_computes, NULL), 0);
    for (int i = 0; i < 2; i++) {
        long long *t = lres[i];
        ck_assert_int_eq(ires[i][0], MPIRIO_ERR_ARG);
        ck_assert_int_eq(ires[i][1], MPIRIO_SUCCESS);
        ck_assert_int_eq(ires[i][2], MPIRIO_SUCCESS);
        ck_assert_int_eq(ires[i][3], MPIRIO_ERR_ARG);
        ck_assert(t[0] == 2 * (MPIRIO_CLOCK_MAX / 2));
        ck_assert_int_eq(ires[i][4], MPIRIO_SUCCESS);
        ck_assert_int_eq(ires[i][5], MPIRIO_ERR_ARG);
        ck_assert(t[1] == MPIRIO_CLOCK_MAX);
        ck_assert_int_eq(ires[i][6], 0);
    }
    ck_assert(st.cycles > MPIRIO_CLOCK_MAX && st.cycles < MPIRIO_CLOCK_MAX + 100000);
}
END_TEST

TEST(every_error_code_is_returned)
{
    ck_assert_int_eq(run(4, NULL, 0, errors, NULL), 0);
    int want[] = {MPIRIO_ERR_BUFFER,
                  MPIRIO_ERR_COUNT,
                  MPIRIO_ERR_TYPE,
                  MPIRIO_ERR_TAG,
                  MPIRIO_ERR_COMM,
                  MPIRIO_ERR_RANK,
                  MPIRIO_ERR_ROOT,
                  MPIRIO_ERR_OP,
                  MPIRIO_ERR_OP,
                  MPIRIO_ERR_REQUEST,
                  MPIRIO_ERR_ARG,
                  MPIRIO_ERR_RANK,
                  MPIRIO_ERR_REQUEST,
                  MPIRIO_ERR_TRUNCATE,
                  MPIRIO_ERR_ROOT,
                  MPIRIO_ERR_COMM,
                  MPIRIO_ERR_ARG,
                  -1,
                  MPIRIO_SUCCESS,
                  8,
                  MPIRIO_ERR_TYPE,
                  1,
                  -1,
                  MPIRIO_SUCCESS,
                  MPIRIO_COLL_SWITCH,
                  MPIRIO_COLL_MPICH,
                  0,
                  MPIRIO_ERR_NOT_INIT};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(ires[0][i] == want[i], "call %zu: %d, want %d", i, ires[0][i],
                      want[i]);
    /* outside a run nothing works, nothing crashes */
    int v = 0;
    ck_assert_int_eq(MPIRIO_Send(&v, 1, MPIRIO_INT, 0, 0, MPIRIO_COMM_WORLD),
                     MPIRIO_ERR_NOT_INIT);
    ck_assert_int_eq(MPIRIO_Init(NULL, NULL), MPIRIO_ERR_NOT_INIT);
    ck_assert_int_eq(MPIRIO_Barrier(MPIRIO_COMM_WORLD), MPIRIO_ERR_NOT_INIT);
    MPIRIO_Traffic t;
    ck_assert_int_eq(MPIRIO_traffic(&t), MPIRIO_ERR_NOT_INIT);
    ck_assert_str_eq(MPIRIO_Error_string(MPIRIO_ERR_TRUNCATE), "message truncated");
    ck_assert_str_eq(MPIRIO_Error_string(1000), "unknown error code");
    ck_assert_int_eq(MPIRIO_Run(4, "no-such-platform", MPIRIO_RUN_QUIET, errors, NULL),
                     1);
    ck_assert_int_eq(MPIRIO_Run(65, "bwdsp-16board", MPIRIO_RUN_QUIET, errors, NULL), 1);
}
END_TEST

/* ---- deadlock: two DSPs both receive first ---- */

static void
both_receive(int rank, void *arg)
{
    int v = rank;
    if (rank < 2) {
        MPIRIO_Recv(&v, 1, MPIRIO_INT, 1 - rank, 7, MPIRIO_COMM_WORLD, NULL);
        MPIRIO_Send(&v, 1, MPIRIO_INT, 1 - rank, 7, MPIRIO_COMM_WORLD);
    }
    ires[rank][0] = 1;
}

TEST(deadlock_is_reported_not_hung)
{
    ires[0][0] = ires[1][0] = ires[2][0] = 0;
    ck_assert_int_eq(run(4, NULL, 0, both_receive, NULL), 2);
    ck_assert_int_eq(st.deadlock, 1);
    ck_assert_ptr_nonnull(strstr(st.report, "deadlock"));
    ck_assert_ptr_nonnull(strstr(st.report, "DSP 0 (board 0): blocked in MPIRIO_Recv, "
                                            "waiting for a message from rank 1 (tag 7"));
    ck_assert_ptr_nonnull(strstr(st.report, "DSP 1 (board 0): blocked in MPIRIO_Recv"));
    ck_assert_ptr_null(strstr(st.report, "DSP 2"));
    ck_assert_int_eq(ires[0][0], 0);
    ck_assert_int_eq(ires[2][0], 1);
}
END_TEST

static void
send_deadlock(int rank, void *arg)
{
    int v = 0;
    if (rank < 2)
        MPIRIO_Send(&v, 1, MPIRIO_INT, 1 - rank, 0, MPIRIO_COMM_WORLD);
}

TEST(rendezvous_sends_deadlock_too)
{
    ck_assert_int_eq(run(2, NULL, 0, send_deadlock, NULL), 2);
    ck_assert_ptr_nonnull(strstr(st.report,
                                 "blocked in MPIRIO_Send, waiting for its send "
                                 "to rank 1"));
}
END_TEST

/* ---- determinism: five runs, identical ---- */

static void
busy_mix(int rank, void *arg)
{
    int n;
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &n);
    static int buf[64][300];
    for (int it = 0; it < 20; it++) {
        MPIRIO_Compute((rank * 37 + it * 11) % 500);
        MPIRIO_Request r;
        MPIRIO_Irecv(buf[rank], 300, MPIRIO_INT, MPIRIO_ANY_SOURCE, it, MPIRIO_COMM_WORLD,
                     &r);
        int v[300];
        for (int i = 0; i < 300; i++)
            v[i] = rank * 1000 + it;
        MPIRIO_Send(v, 1 + (rank * 13 + it) % 300, MPIRIO_INT, (rank * 5 + it + 1) % n,
                    it, MPIRIO_COMM_WORLD);
        MPIRIO_Status s;
        /* the sender is (r - it - 1) * 5^-1 mod n; ANY_SOURCE keeps it honest */
        MPIRIO_Wait(&r, &s);
        ires[rank][it % 16] += s.source * 31 + buf[rank][0];
    }
    MPIRIO_Barrier(MPIRIO_COMM_WORLD);
    tmark[rank] = MPIRIO_time();
}

TEST(five_runs_are_identical)
{
    long long len[5], pk[5], ev[5], t0[5];
    unsigned sum[5];
    for (int i = 0; i < 5; i++) {
        memset(ires, 0, sizeof ires);
        ck_assert_int_eq(run(16, "bwdsp-4board", 0, busy_mix, NULL), 0);
        len[i] = st.cycles, pk[i] = st.traffic.link_packets, ev[i] = st.events;
        t0[i] = tmark[3];
        sum[i] = 0;
        for (int r = 0; r < 16; r++)
            for (int k = 0; k < 16; k++)
                sum[i] = sum[i] * 31u + (unsigned)ires[r][k];
    }
    for (int i = 1; i < 5; i++) {
        ck_assert_int_eq(len[i], len[0]);
        ck_assert_int_eq(pk[i], pk[0]);
        ck_assert_int_eq(ev[i], ev[0]);
        ck_assert_int_eq(t0[i], t0[0]);
        ck_assert_int_eq(sum[i], sum[0]);
    }
}
END_TEST

/* ---- faults: corrupted packets are retransmitted, data intact ---- */

TEST(corrupted_packets_are_retried)
{
    big_out = malloc(100000);
    big_in = malloc(100000);
    One o = {100000, 0, 13};
    setenv("MPIRIO_FAULTS", "0.01", 1);
    ck_assert_int_eq(run(16, NULL, 0, one_msg, &o), 0);
    ck_assert_int_eq(ires[0][3], 1);
    ck_assert_int_gt(st.traffic.retries, 0);
    long long retries = st.traffic.retries, len = st.cycles;
    /* 400 packets over 3 links: about 12 retries at 1% */
    ck_assert_int_lt(retries, 60);
    ck_assert_int_eq(run(16, NULL, 0, one_msg, &o), 0);
    ck_assert_int_eq(st.traffic.retries, retries);
    ck_assert_int_eq(st.cycles, len);
    unsetenv("MPIRIO_FAULTS");
    ck_assert_int_eq(run(16, NULL, 0, one_msg, &o), 0);
    ck_assert_int_eq(st.traffic.retries, 0);
    ck_assert_int_lt(st.cycles, len);
    free(big_out);
    free(big_in);
}
END_TEST

/* ---- time and traffic from inside ---- */

static void
inside(int rank, void *arg)
{
    if (rank == 0) {
        MPIRIO_Compute(12345);
        tmark[0] = MPIRIO_time();
        ires[0][0] = MPIRIO_Wtime() == 12345.0 / 500e6;
        ires[0][1] = MPIRIO_clock_hz() == 500000000LL;
        char b[600];
        MPIRIO_Send(b, 600, MPIRIO_BYTE, 5, 0, MPIRIO_COMM_WORLD);
        MPIRIO_Traffic t;
        MPIRIO_traffic(&t);
        ires[0][2] = (int)t.packets;
        ires[0][3] = (int)t.link_packets;
        MPIRIO_Link l;
        ires[0][4] = MPIRIO_link_traffic(0, &l);
        ires[0][5] = (int)l.packets;
        ires[0][6] = l.from_kind * 10 + l.to_kind;
        ires[0][7] = MPIRIO_link_traffic(t.nlinks, &l);
        ires[0][8] = t.nlinks;
        ires[0][9] = MPIRIO_Run(2, NULL, MPIRIO_RUN_QUIET, inside, NULL); /* nested */
    } else if (rank == 5) {
        char b[600];
        MPIRIO_Recv(b, 600, MPIRIO_BYTE, 0, 0, MPIRIO_COMM_WORLD, NULL);
    }
}

TEST(time_and_traffic_from_inside)
{
    ck_assert_int_eq(run(8, NULL, 0, inside, NULL), 0);
    ck_assert_int_eq(tmark[0], 12345);
    ck_assert_int_eq(ires[0][0], 1);
    ck_assert_int_eq(ires[0][1], 1);
    ck_assert_int_eq(ires[0][2], 3);
    ck_assert_int_eq(ires[0][3], 9);
    ck_assert_int_eq(ires[0][4], MPIRIO_SUCCESS);
    ck_assert_int_eq(ires[0][5], 3);
    ck_assert_int_eq(ires[0][6], 1);
    ck_assert_int_eq(ires[0][7], MPIRIO_ERR_ARG);
    ck_assert_int_eq(ires[0][8], 2 * 8 + 2);
    ck_assert_int_eq(ires[0][9], 1);
}
END_TEST
