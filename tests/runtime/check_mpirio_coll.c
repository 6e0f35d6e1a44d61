/* check_mpirio_coll.c: every collective in both families (in the switches, MPICH
 * over point-to-point) for 4, 8, 16 and 64 DSPs, roots 0 and others, sizes 0, 1,
 * 250, 251 and 100000 bytes: the data, and the packet counts worked out on paper;
 * the in-switch gather against the binomial tree. */
#include "../check_run.h"
#include <check.h>
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPIRIO_Stats st;

typedef struct Case {
    int kind; /* 0 bcast, 1 gather, 2 scatter, 3 reduce (char max), 4 reduce (int sum),
                 5 barrier, 6 allgather, 7 allreduce (int sum), 8 allreduce (char max),
                 9 alltoall */
    int family, root, bytes, n;
    MPIRIO_Comm comm;
} Case;

static int bad[64];
static long long t_in[64], t_out[64];

static unsigned char
pat(int r, int i)
{
    return (unsigned char)(r * 31 + i * 7 + 1);
}

static unsigned char
pat2(int from, int to, int i)
{
    return (unsigned char)(from * 31 + to * 17 + i * 7 + 1);
}

enum { NKIND = 10 };

static void
coll_dsp(int rank, void *arg)
{
    const Case *c = arg;
    int me, n, b = c->bytes;
    MPIRIO_Comm_rank(c->comm, &me);
    MPIRIO_Comm_size(c->comm, &n);
    MPIRIO_Coll_algorithm(c->family);
    unsigned char *s = malloc((size_t)b * (size_t)n + 1),
                  *r = malloc((size_t)b * (size_t)n + 1);
    int e = 0;
    bad[rank] = 0;
    switch (c->kind) {
    case 0:
        for (int i = 0; i < b; i++)
            r[i] = me == c->root ? pat(me, i) : 0;
        e = MPIRIO_Bcast(r, b, MPIRIO_BYTE, c->root, c->comm);
        for (int i = 0; i < b; i++)
            bad[rank] |= r[i] != pat(c->root, i);
        break;
    case 1:
        for (int i = 0; i < b; i++)
            s[i] = pat(me, i);
        memset(r, 0, (size_t)b * (size_t)n);
        e = MPIRIO_Gather(s, b, MPIRIO_BYTE, r, b, MPIRIO_BYTE, c->root, c->comm);
        if (me == c->root)
            for (int k = 0; k < n; k++)
                for (int i = 0; i < b; i++)
                    bad[rank] |= r[(size_t)k * b + i] != pat(k, i);
        break;
    case 2:
        for (int k = 0; k < n; k++)
            for (int i = 0; i < b; i++)
                s[(size_t)k * b + i] = pat(k, i + 5);
        memset(r, 0, (size_t)b);
        e = MPIRIO_Scatter(s, b, MPIRIO_BYTE, r, b, MPIRIO_BYTE, c->root, c->comm);
        for (int i = 0; i < b; i++)
            bad[rank] |= r[i] != pat(me, i + 5);
        break;
    case 3:
        for (int i = 0; i < b; i++)
            s[i] = (unsigned char)(pat(me, i) & 0x7f);
        e = MPIRIO_Reduce(s, r, b, MPIRIO_CHAR, MPIRIO_MAX, c->root, c->comm);
        if (me == c->root)
            for (int i = 0; i < b; i++) {
                int m = 0;
                for (int k = 0; k < n; k++)
                    m = (pat(k, i) & 0x7f) > m ? pat(k, i) & 0x7f : m;
                bad[rank] |= r[i] != m;
            }
        break;
    case 4: {
        int cnt = b / 4, *si = (int *)s, *ri = (int *)r;
        for (int i = 0; i < cnt; i++)
            si[i] = me * 1000 + i;
        e = MPIRIO_Reduce(si, ri, cnt, MPIRIO_INT, MPIRIO_SUM, c->root, c->comm);
        if (me == c->root)
            for (int i = 0; i < cnt; i++)
                bad[rank] |= ri[i] != 1000 * n * (n - 1) / 2 + n * i;
        break;
    }
    case 5:
        MPIRIO_Compute((rank * 7919) % 3000);
        t_in[rank] = MPIRIO_time();
        e = MPIRIO_Barrier(c->comm);
        t_out[rank] = MPIRIO_time();
        break;
    case 6:
        for (int i = 0; i < b; i++)
            s[i] = pat(me, i);
        memset(r, 0, (size_t)b * (size_t)n);
        e = MPIRIO_Allgather(s, b, MPIRIO_BYTE, r, b, MPIRIO_BYTE, c->comm);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < b; i++)
                bad[rank] |= r[(size_t)k * b + i] != pat(k, i);
        break;
    case 7: {
        int cnt = b / 4, *si = (int *)s, *ri = (int *)r;
        for (int i = 0; i < cnt; i++)
            si[i] = me * 1000 + i, ri[i] = -1;
        e = MPIRIO_Allreduce(si, ri, cnt, MPIRIO_INT, MPIRIO_SUM, c->comm);
        for (int i = 0; i < cnt; i++)
            bad[rank] |= ri[i] != 1000 * n * (n - 1) / 2 + n * i;
        break;
    }
    case 8:
        for (int i = 0; i < b; i++)
            s[i] = (unsigned char)(pat(me, i) & 0x7f), r[i] = 0xff;
        e = MPIRIO_Allreduce(s, r, b, MPIRIO_CHAR, MPIRIO_MAX, c->comm);
        for (int i = 0; i < b; i++) {
            int m = 0;
            for (int k = 0; k < n; k++)
                m = (pat(k, i) & 0x7f) > m ? pat(k, i) & 0x7f : m;
            bad[rank] |= r[i] != m;
        }
        break;
    case 9:
        for (int k = 0; k < n; k++)
            for (int i = 0; i < b; i++)
                s[(size_t)k * b + i] = pat2(me, k, i);
        memset(r, 0, (size_t)b * (size_t)n);
        e = MPIRIO_Alltoall(s, b, MPIRIO_BYTE, r, b, MPIRIO_BYTE, c->comm);
        for (int k = 0; k < n; k++)
            for (int i = 0; i < b; i++)
                bad[rank] |= r[(size_t)k * b + i] != pat2(k, me, i);
        break;
    }
    bad[rank] |= e != 0;
    free(s);
    free(r);
}

static const char *
plat_for(int n)
{
    return n <= 4    ? "bwdsp-1board"
           : n <= 8  ? "bwdsp-2board"
           : n <= 16 ? "bwdsp-4board"
                     : "bwdsp-16board";
}

static void
run_case(Case *c, int flags)
{
    int rc = MPIRIO_Run(c->n, plat_for(c->n), flags | MPIRIO_RUN_QUIET, coll_dsp, c);
    MPIRIO_Run_stats(&st);
    ck_assert_msg(rc == 0, "kind %d family %d n %d root %d bytes %d: rc %d", c->kind,
                  c->family, c->n, c->root, c->bytes, rc);
    for (int r = 0; r < c->n; r++)
        ck_assert_msg(!bad[r], "kind %d family %d n %d root %d bytes %d: rank %d wrong",
                      c->kind, c->family, c->n, c->root, c->bytes, r);
}

static const int sizes[] = {0, 1, 250, 251, 100000};
static const int ns[] = {4, 8, 16, 64};

/* one test per collective: both families, all sizes, all N, two roots */
static void
sweep(int kind)
{
    for (int f = 0; f < 2; f++)
        for (size_t in = 0; in < sizeof ns / sizeof ns[0]; in++)
            for (size_t is = 0; is < sizeof sizes / sizeof sizes[0]; is++)
                for (int k = 0; k < 2; k++) {
                    int n = ns[in], bytes = sizes[is];
                    if (bytes == 100000 && n == 64 && (kind == 1 || kind == 2) && k == 1)
                        continue; /* 6.4 MB once per family is enough */
                    Case c = {kind, f, k ? n / 2 + 1 : 0, bytes, n, MPIRIO_COMM_WORLD};
                    if (kind == 4)
                        c.bytes = bytes / 4 * 4;
                    run_case(&c, 0);
                }
}

/* the collectives without a root: both families, sizes that take each of MPICH's
 * algorithms (allgather: recursive doubling, Bruck, ring; allreduce: recursive
 * doubling, Rabenseifner; alltoall: Bruck, scattered, pairwise), power-of-two and
 * other N (partial boards) */
static void
sweep_all(int kind)
{
    static const int asizes[] = {0, 1, 250, 251, 3000, 40000};
    static const int ans[] = {4, 7, 8, 10, 16, 27, 64};
    for (int f = 0; f < 2; f++)
        for (size_t in = 0; in < sizeof ans / sizeof ans[0]; in++)
            for (size_t is = 0; is < sizeof asizes / sizeof asizes[0]; is++) {
                int n = ans[in], bytes = asizes[is];
                if (bytes == 40000 && n > 16 && (kind == 6 || kind == 9))
                    continue; /* n * n * 40 KB */
                Case c = {
                    kind, f, 0, kind == 7 ? bytes / 4 * 4 : bytes, n, MPIRIO_COMM_WORLD};
                run_case(&c, 0);
            }
}

TEST_CASE("coll", 300)

TEST(allgather_both_families)
{
    sweep_all(6);
}
END_TEST

TEST(allreduce_both_families)
{
    sweep_all(7);
    sweep_all(8);
}
END_TEST

TEST(alltoall_both_families)
{
    sweep_all(9);
}
END_TEST

TEST(bcast_both_families)
{
    sweep(0);
}
END_TEST

TEST(gather_both_families)
{
    sweep(1);
}
END_TEST

TEST(scatter_both_families)
{
    sweep(2);
}
END_TEST

TEST(reduce_max_char_both_families)
{
    sweep(3);
}
END_TEST

TEST(reduce_sum_int_both_families)
{
    sweep(4);
}
END_TEST

TEST(barrier_both_families)
{
    for (int f = 0; f < 2; f++)
        for (size_t in = 0; in < sizeof ns / sizeof ns[0]; in++) {
            Case c = {5, f, 0, 0, ns[in], MPIRIO_COMM_WORLD};
            run_case(&c, 0);
            long long last_in = 0, first_out = -1;
            for (int r = 0; r < c.n; r++) {
                last_in = t_in[r] > last_in ? t_in[r] : last_in;
                if (first_out < 0 || t_out[r] < first_out)
                    first_out = t_out[r];
            }
            ck_assert_int_gt(first_out, last_in);
        }
}
END_TEST

TEST(local_communicator_collectives)
{
    for (int f = 0; f < 2; f++)
        for (int kind = 0; kind < NKIND; kind++) {
            Case c = {kind, f, 1, 251, 16, MPIRIO_COMM_LOCAL};
            if (kind == 4 || kind == 7)
                c.bytes = 252;
            run_case(&c, 0);
        }
}
END_TEST

/* ---- packet counts on paper ---- */

static long long
packets(int kind, int family, int n, int bytes, int root)
{
    Case c = {kind, family, root, bytes, n, MPIRIO_COMM_WORLD};
    run_case(&c, 0);
    return st.traffic.packets;
}

TEST(mpich_gather_sends_n_log4_n_packets)
{
    /* binomial gather, one full packet per rank: N/2 packets per round, log2 N
     * rounds = N log4 N */
    ck_assert_int_eq(packets(1, MPIRIO_COLL_MPICH, 4, 250, 0), 4);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_MPICH, 8, 250, 0), 12);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_MPICH, 16, 250, 0), 32);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_MPICH, 64, 250, 0), 192);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_MPICH, 64, 250, 17), 192);
}
END_TEST

TEST(switch_gather_sends_each_block_once)
{
    /* every member's block travels to the root in its own packets, which the
     * switches forward: N-1 blocks of ceil(bytes / 250) packets */
    ck_assert_int_eq(packets(1, MPIRIO_COLL_SWITCH, 4, 4, 0), 3);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_SWITCH, 16, 4, 0), 15);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_SWITCH, 64, 4, 40), 63);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_SWITCH, 16, 250, 0), 15);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_SWITCH, 64, 250, 0), 63);
    ck_assert_int_eq(packets(1, MPIRIO_COLL_SWITCH, 64, 251, 0), 63 * 2);
    /* against the binomial tree for the same 4-byte blocks: N-1 messages */
    ck_assert_int_eq(packets(1, MPIRIO_COLL_MPICH, 64, 4, 0), 63);
}
END_TEST

/* the in-switch gather is never worse than MPICH's binomial tree, in packets and in
 * cycles (the full table, 4 B to 64 KiB: docs/runtime.md, gather_table) */
TEST(switch_gather_never_worse_than_binomial)
{
    static const int gs[] = {4, 62, 248, 250, 251, 1000, 4096};
    static const int gn[] = {16, 64};
    for (size_t in = 0; in < 2; in++)
        for (size_t is = 0; is < sizeof gs / sizeof gs[0]; is++)
            for (int root = 0; root < 2; root++) {
                int n = gn[in], b = gs[is], rt = root ? n / 2 + 1 : 0;
                long long pk_s = packets(1, MPIRIO_COLL_SWITCH, n, b, rt);
                long long cy_s = st.cycles;
                long long pk_m = packets(1, MPIRIO_COLL_MPICH, n, b, rt);
                long long cy_m = st.cycles;
                ck_assert_msg(pk_s <= pk_m && cy_s <= cy_m,
                              "gather %d DSPs %d bytes root %d: switch %lld packets %lld "
                              "cycles, binomial %lld packets %lld cycles",
                              n, b, rt, pk_s, cy_s, pk_m, cy_m);
            }
}
END_TEST

TEST(all_collectives_packet_counts)
{
    /* allgather: each member's block is one broadcast, whose copies the switches make;
     * MPICH's recursive doubling at 16: each rank sends 1 + 2 + 4 + 8 blocks */
    ck_assert_int_eq(packets(6, MPIRIO_COLL_SWITCH, 16, 250, 0), 16);
    ck_assert_int_eq(packets(6, MPIRIO_COLL_MPICH, 16, 250, 0), 16 * 15);
    ck_assert_int_eq(packets(6, MPIRIO_COLL_SWITCH, 64, 251, 0), 64 * 2);
    /* allreduce of one int: 16 vectors to the switches, 3 combined vectors towards
     * board 0, one broadcast of the result; recursive doubling: 4 rounds of 16 */
    ck_assert_int_eq(packets(7, MPIRIO_COLL_SWITCH, 16, 4, 0), 16 + 3 + 1);
    ck_assert_int_eq(packets(7, MPIRIO_COLL_MPICH, 16, 4, 0), 16 * 4);
    /* 1000 ints = 16 packets per vector, 8 DSPs: 8 + 1 vectors up, 1 broadcast */
    ck_assert_int_eq(packets(7, MPIRIO_COLL_SWITCH, 8, 4000, 0), (8 + 1 + 1) * 16);
    /* alltoall: MPICH's in both families; 4 DSPs of 250 bytes, scattered: 16
     * messages (the one to itself too) */
    ck_assert_int_eq(packets(9, MPIRIO_COLL_SWITCH, 4, 250, 0), 16);
    ck_assert_int_eq(packets(9, MPIRIO_COLL_MPICH, 4, 250, 0), 16);
    /* 8 DSPs of 4 bytes, Bruck: 3 rounds of 8 messages */
    ck_assert_int_eq(packets(9, MPIRIO_COLL_MPICH, 8, 4, 0), 3 * 8);
}
END_TEST

TEST(bcast_reduce_scatter_barrier_packet_counts)
{
    /* 10000 bytes = 40 packets: the switches copy them, the binomial tree resends */
    ck_assert_int_eq(packets(0, MPIRIO_COLL_SWITCH, 64, 10000, 5), 40);
    /* each packet: the root's link, 63 member links, and on the 4x4 mesh (24 board
     * links) the root's switch sends on all 3 of its links and every other switch on
     * all but the one it heard first: 2 * 24 - 15 = 33 crossings, of which 15 bring
     * the packet to a switch for the first time and 18 are dropped duplicates */
    ck_assert_int_eq(st.traffic.link_packets, 40 * (1 + 63 + 33));
    ck_assert_int_eq(st.traffic.dropped, 40 * 18);
    ck_assert_int_eq(packets(0, MPIRIO_COLL_MPICH, 64, 10000, 5), 63 * 40);
    ck_assert_int_eq(packets(0, MPIRIO_COLL_SWITCH, 16, 0, 0), 1);
    /* reduce of one int: N-1 DSP packets + one per board; binomial N-1 */
    ck_assert_int_eq(packets(4, MPIRIO_COLL_SWITCH, 16, 4, 3), 15 + 4);
    ck_assert_int_eq(packets(4, MPIRIO_COLL_MPICH, 16, 4, 3), 15);
    /* reduce of 1000 ints = 16 packets per vector */
    ck_assert_int_eq(packets(4, MPIRIO_COLL_SWITCH, 8, 4000, 0), (7 + 2) * 16);
    /* scatter of 250 bytes on one board: one block to each member, the switch
     * forwards them; binomial: 2 to rank 2, 1 to rank 1, 1 from 2 to 3 */
    ck_assert_int_eq(packets(2, MPIRIO_COLL_SWITCH, 4, 250, 0), 3);
    ck_assert_int_eq(packets(2, MPIRIO_COLL_MPICH, 4, 250, 0), 4);
    /* barrier: N arrivals + B-1 between switches + 1 release; dissemination
     * N log2 N */
    ck_assert_int_eq(packets(5, MPIRIO_COLL_SWITCH, 16, 0, 0), 16 + 3 + 1);
    ck_assert_int_eq(packets(5, MPIRIO_COLL_MPICH, 16, 0, 0), 16 * 4);
    ck_assert_int_eq(packets(5, MPIRIO_COLL_SWITCH, 64, 0, 0), 64 + 15 + 1);
    ck_assert_int_eq(packets(5, MPIRIO_COLL_MPICH, 64, 0, 0), 64 * 6);
}
END_TEST

/* ---- timing of the in-switch broadcast ---- */

static long long bt[8];

static void
bcast_time(int rank, void *arg)
{
    char b[64] = {0};
    MPIRIO_Bcast(b, 64, MPIRIO_BYTE, 2, MPIRIO_COMM_WORLD);
    bt[rank] = MPIRIO_time();
}

TEST(switch_bcast_timing)
{
    ck_assert_int_eq(
        MPIRIO_Run(8, "bwdsp-2board", MPIRIO_RUN_NO_CONTENTION, bcast_time, NULL), 0);
    /* root: send overhead; board 0: 600 + 264 + 400; board 1: one more hop */
    ck_assert_int_eq(bt[2], 600);
    ck_assert_int_eq(bt[0], 600 + 264 + 400);
    ck_assert_int_eq(bt[3], 600 + 264 + 400);
    ck_assert_int_eq(bt[5], 600 + 264 + 182 + 400);
}
END_TEST

/* ---- both families in one run ---- */

static long long fam_pk[2];

static void
side_by_side(int rank, void *arg)
{
    static char b[2500];
    for (int f = 0; f < 2; f++) {
        /* in-switch barriers around the measured broadcast: all their packets are
         * counted before anyone leaves them */
        MPIRIO_Coll_algorithm(MPIRIO_COLL_SWITCH);
        MPIRIO_Barrier(MPIRIO_COMM_WORLD);
        MPIRIO_Traffic t0, t1;
        MPIRIO_traffic(&t0);
        MPIRIO_Coll_algorithm(f);
        MPIRIO_Bcast(b, 2500, MPIRIO_BYTE, 0, MPIRIO_COMM_WORLD);
        MPIRIO_Coll_algorithm(MPIRIO_COLL_SWITCH);
        MPIRIO_Barrier(MPIRIO_COMM_WORLD);
        MPIRIO_traffic(&t1);
        if (rank == 0)
            fam_pk[f] = t1.packets - t0.packets;
    }
}

TEST(families_side_by_side_in_one_run)
{
    ck_assert_int_eq(MPIRIO_Run(16, NULL, 0, side_by_side, NULL), 0);
    /* the second barrier's packets are counted too */
    ck_assert_int_eq(fam_pk[MPIRIO_COLL_SWITCH], 10 + 16 + 3 + 1);
    ck_assert_int_eq(fam_pk[MPIRIO_COLL_MPICH], 15 * 10 + 16 + 3 + 1);
}
END_TEST

TEST(odd_sizes_and_partial_boards)
{
    /* 7, 10 and 27 DSPs: partial boards, binomial trees that are not full */
    static const int odd[] = {7, 10, 27};
    for (int f = 0; f < 2; f++)
        for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
            for (int kind = 0; kind < NKIND; kind++) {
                Case c = {kind, f, 5, 251, odd[i], MPIRIO_COMM_WORLD};
                if (kind == 4 || kind == 7)
                    c.bytes = 252;
                run_case(&c, 0);
                c.comm = MPIRIO_COMM_LOCAL;
                c.root = 1;
                run_case(&c, 0);
            }
}
END_TEST

static void
missing_member(int rank, void *arg)
{
    MPIRIO_Coll_algorithm(*(int *)arg);
    if (rank != 3)
        MPIRIO_Barrier(MPIRIO_COMM_WORLD);
}

TEST(a_missing_member_is_a_deadlock)
{
    int f = MPIRIO_COLL_SWITCH;
    ck_assert_int_eq(MPIRIO_Run(4, NULL, MPIRIO_RUN_QUIET, missing_member, &f), 2);
    MPIRIO_Run_stats(&st);
    ck_assert_ptr_nonnull(strstr(st.report,
                                 "DSP 0 (board 0): blocked in MPIRIO_Barrier, "
                                 "waiting for the barrier release (in-switch"));
    ck_assert_ptr_null(strstr(st.report, "DSP 3"));
    f = MPIRIO_COLL_MPICH;
    ck_assert_int_eq(MPIRIO_Run(4, NULL, MPIRIO_RUN_QUIET, missing_member, &f), 2);
    MPIRIO_Run_stats(&st);
    ck_assert_ptr_nonnull(strstr(st.report, "DSP 0 (board 0): blocked in MPIRIO_Barrier, "
                                            "waiting for a message from rank 3"));
    ck_assert_ptr_nonnull(strstr(st.report, "(collective)"));
}
END_TEST

TEST(collectives_survive_faults)
{
    setenv("MPIRIO_FAULTS", "0.01", 1);
    for (int kind = 0; kind < NKIND; kind++)
        for (int f = 0; f < 2; f++) {
            Case c = {kind, f, 3, 2500, 16, MPIRIO_COMM_WORLD};
            run_case(&c, 0);
        }
    unsetenv("MPIRIO_FAULTS");
}
END_TEST
