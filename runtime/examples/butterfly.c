/* butterfly: the global sum of a vector over P DSPs ([MPIRIO] (docs/references.md) Table
 * 3), written by hand as a butterfly (recursive doubling: at step k exchange with rank ^
 * 2^k and add) and with MPIRIO_Reduce(MPIRIO_SUM); both checked against the sequential
 * sum. */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1000

int
main(int argc, char **argv)
{
    int rank, p, bad = 0;
    static int v[N], acc[N], in[N], red[N], ref[N];
    MPIRIO_Init(&argc, &argv);
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &rank);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &p);
    if (p & (p - 1)) {
        if (rank == 0)
            printf("the butterfly needs a power of two DSPs\n");
        return 1;
    }
    for (int i = 0; i < N; i++) {
        v[i] = acc[i] = rank * 3 + i;
        ref[i] = 0;
        for (int r = 0; r < p; r++)
            ref[i] += r * 3 + i;
    }
    long long t0 = MPIRIO_time();
    for (int k = 1; k < p; k <<= 1) {
        int partner = rank ^ k;
        MPIRIO_Request r;
        MPIRIO_Irecv(in, N, MPIRIO_INT, partner, k, MPIRIO_COMM_WORLD, &r);
        MPIRIO_Send(acc, N, MPIRIO_INT, partner, k, MPIRIO_COMM_WORLD);
        MPIRIO_Wait(&r, MPIRIO_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            acc[i] += in[i];
        MPIRIO_Compute(N / 16);
    }
    long long t1 = MPIRIO_time();
    for (int i = 0; i < N; i++)
        bad |= acc[i] != ref[i];
    MPIRIO_Reduce(v, red, N, MPIRIO_INT, MPIRIO_SUM, 0, MPIRIO_COMM_WORLD);
    long long t2 = MPIRIO_time();
    if (rank == 0) {
        for (int i = 0; i < N; i++)
            bad |= red[i] != ref[i];
        printf("butterfly by hand: %lld cycles; MPIRIO_Reduce: %lld cycles; %s\n",
               t1 - t0, t2 - t1, bad ? "WRONG" : "OK");
    }
    MPIRIO_Finalize();
    return bad;
}
