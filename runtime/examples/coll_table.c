/* coll_table: Tables 1 and 6 of [MPIRIO] (docs/references.md) on the simulated platform:
 * the time and the packets of a point-to-point message and of each collective, for both
 * families, on the DSPs of the run. Every operation moves `bytes` bytes (default 10000)
 * per rank (Bcast: the root's buffer; Gather, Scatter, Allgather, Alltoall: one block per
 * rank; Reduce, Allreduce: a vector of ints). Rank 0 prints one line per operation; the
 * results are checked. */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, bytes = 10000, bad;

static void p2p(unsigned char *s, unsigned char *r);

/* the time and the packets of op between two in-switch barriers (whose packets,
 * N + (B - 1) + 1, are taken off) */
static void
measure(const char *name, int family, void (*op)(unsigned char *, unsigned char *),
        unsigned char *s, unsigned char *r)
{
    MPIRIO_Traffic t0, t1;
    int local, boards;
    MPIRIO_Comm_size(MPIRIO_COMM_LOCAL, &local);
    boards = (size + local - 1) / local;
    MPIRIO_Coll_algorithm(MPIRIO_COLL_SWITCH);
    MPIRIO_Barrier(MPIRIO_COMM_WORLD);
    MPIRIO_traffic(&t0);
    long long c0 = MPIRIO_time();
    MPIRIO_Coll_algorithm(family);
    op(s, r);
    long long dt = MPIRIO_time() - c0, worst;
    MPIRIO_Coll_algorithm(MPIRIO_COLL_SWITCH);
    MPIRIO_Barrier(MPIRIO_COMM_WORLD);
    MPIRIO_traffic(&t1);
    MPIRIO_Reduce(&dt, &worst, 1, MPIRIO_LONG, MPIRIO_MAX, 0, MPIRIO_COMM_WORLD);
    if (rank == 0)
        printf("%-9s %-7s %9lld cycles %8.2f us %7lld packets\n", name,
               op == p2p                      ? "-"
               : family == MPIRIO_COLL_SWITCH ? "switch"
                                              : "mpich",
               worst, (double)worst * 1e6 / (double)MPIRIO_clock_hz(),
               t1.packets - t0.packets - (size + boards));
}

static void
p2p(unsigned char *s, unsigned char *r)
{
    if (rank == 0)
        MPIRIO_Send(s, bytes, MPIRIO_BYTE, size - 1, 0, MPIRIO_COMM_WORLD);
    else if (rank == size - 1) {
        MPIRIO_Recv(r, bytes, MPIRIO_BYTE, 0, 0, MPIRIO_COMM_WORLD, MPIRIO_STATUS_IGNORE);
        bad |= memcmp(r, s, (size_t)bytes) != 0;
    }
}

static void
bcast(unsigned char *s, unsigned char *r)
{
    memcpy(r, s, (size_t)bytes);
    if (rank)
        memset(r, 0, (size_t)bytes);
    MPIRIO_Bcast(r, bytes, MPIRIO_BYTE, 0, MPIRIO_COMM_WORLD);
    bad |= memcmp(r, s, (size_t)bytes) != 0;
}

static void
gather(unsigned char *s, unsigned char *r)
{
    MPIRIO_Gather(s, bytes, MPIRIO_BYTE, r, bytes, MPIRIO_BYTE, 0, MPIRIO_COMM_WORLD);
    if (rank == 0)
        for (int k = 0; k < size; k++)
            bad |= memcmp(r + (size_t)k * bytes, s, (size_t)bytes) != 0;
}

static void
scatter(unsigned char *s, unsigned char *r)
{
    unsigned char *all = malloc((size_t)bytes * size);
    for (int k = 0; k < size; k++)
        memcpy(all + (size_t)k * bytes, s, (size_t)bytes);
    MPIRIO_Scatter(all, bytes, MPIRIO_BYTE, r, bytes, MPIRIO_BYTE, 0, MPIRIO_COMM_WORLD);
    bad |= memcmp(r, s, (size_t)bytes) != 0;
    free(all);
}

static void
reduce(unsigned char *s, unsigned char *r)
{
    int n = bytes / 4, *v = calloc((size_t)n + 1, sizeof(int)), *sum = (int *)r;
    for (int i = 0; i < n; i++)
        v[i] = rank + i;
    MPIRIO_Reduce(v, sum, n, MPIRIO_INT, MPIRIO_SUM, 0, MPIRIO_COMM_WORLD);
    if (rank == 0)
        for (int i = 0; i < n; i++)
            bad |= sum[i] != size * (size - 1) / 2 + size * i;
    free(v);
}

static void
allgather(unsigned char *s, unsigned char *r)
{
    MPIRIO_Allgather(s, bytes, MPIRIO_BYTE, r, bytes, MPIRIO_BYTE, MPIRIO_COMM_WORLD);
    for (int k = 0; k < size; k++)
        bad |= memcmp(r + (size_t)k * bytes, s, (size_t)bytes) != 0;
}

static void
allreduce(unsigned char *s, unsigned char *r)
{
    int n = bytes / 4, *v = calloc((size_t)n + 1, sizeof(int)), *sum = (int *)r;
    for (int i = 0; i < n; i++)
        v[i] = rank + i;
    MPIRIO_Allreduce(v, sum, n, MPIRIO_INT, MPIRIO_SUM, MPIRIO_COMM_WORLD);
    for (int i = 0; i < n; i++)
        bad |= sum[i] != size * (size - 1) / 2 + size * i;
    free(v);
}

/* block k of every rank's buffer is s with its first byte the rank */
static void
alltoall(unsigned char *s, unsigned char *r)
{
    unsigned char *all = malloc((size_t)bytes * size + 1);
    for (int k = 0; k < size; k++) {
        memcpy(all + (size_t)k * bytes, s, (size_t)bytes);
        if (bytes)
            all[(size_t)k * bytes] = (unsigned char)rank;
    }
    MPIRIO_Alltoall(all, bytes, MPIRIO_BYTE, r, bytes, MPIRIO_BYTE, MPIRIO_COMM_WORLD);
    for (int k = 0; k < size && bytes; k++)
        bad |= r[(size_t)k * bytes] != (unsigned char)k ||
               memcmp(r + (size_t)k * bytes + 1, s + 1, (size_t)bytes - 1) != 0;
    free(all);
}

static void
barrier(unsigned char *s, unsigned char *r)
{
    MPIRIO_Barrier(MPIRIO_COMM_WORLD);
}

int
main(int argc, char **argv)
{
    MPIRIO_Init(&argc, &argv);
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &rank);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &size);
    if (argc > 1)
        bytes = atoi(argv[1]);
    unsigned char *s = malloc((size_t)bytes + 1), *r = malloc((size_t)bytes * size + 1);
    for (int i = 0; i < bytes; i++)
        s[i] = (unsigned char)(i * 7 + 1);
    if (rank == 0)
        printf("%d DSPs, %d bytes per rank\n", size, bytes);
    struct {
        const char *name;
        void (*op)(unsigned char *, unsigned char *);
    } ops[] = {{"send", p2p},
               {"bcast", bcast},
               {"gather", gather},
               {"scatter", scatter},
               {"reduce", reduce},
               {"allgather", allgather},
               {"allreduce", allreduce},
               {"alltoall", alltoall},
               {"barrier", barrier}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        for (int f = 0; f < (i == 0 ? 1 : 2); f++)
            measure(ops[i].name, f, ops[i].op, s, r);
    int all_bad = 0;
    MPIRIO_Reduce(&bad, &all_bad, 1, MPIRIO_INT, MPIRIO_MAX, 0, MPIRIO_COMM_WORLD);
    if (rank == 0)
        printf("coll_table: %s\n", all_bad ? "WRONG" : "OK");
    free(s);
    free(r);
    MPIRIO_Finalize();
    return all_bad;
}
