/* conv1d: y = x * h (full convolution, len(y) = NX + NH - 1) on P DSPs in the two
 * models of [CONV] (docs/references.md).
 * 1 y(n) round robin: broadcast x and h, Barrier; in round k DSP r computes
 *   y(k*P + r), and one Gather per round collects the P values on DSP 0.
 * 2 matrix partition: broadcast x, split h into P column blocks (Scatter); each DSP
 *   sums the anti-diagonals of its block into a full-length partial y; one Reduce.
 * Both checked against the sequential convolution. */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 1024
#define NH 64
#define NY (NX + NH - 1)

int
main(int argc, char **argv)
{
    int rank, p, bad = 0;
    static int x[NX], h[NH], y[NY + 64], ref[NY], part[NY], hb[NH];
    MPIRIO_Init(&argc, &argv);
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &rank);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &p);
    if (NH % p) {
        if (rank == 0)
            printf("need a divisor of %d DSPs\n", NH);
        return 1;
    }
    for (int i = 0; i < NX; i++)
        x[i] = rank == 0 ? (i * 13) % 17 - 8 : 0;
    for (int i = 0; i < NH; i++)
        h[i] = rank == 0 ? (i * 3) % 7 - 3 : 0;
    if (rank == 0)
        for (int n = 0; n < NY; n++) {
            ref[n] = 0;
            for (int k = 0; k < NH; k++)
                if (n - k >= 0 && n - k < NX)
                    ref[n] += h[k] * x[n - k];
        }
    /* 1: y(n) round robin */
    long long t0 = MPIRIO_time();
    MPIRIO_Bcast(x, NX, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
    MPIRIO_Bcast(h, NH, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
    MPIRIO_Barrier(MPIRIO_COMM_WORLD);
    for (int k = 0; k * p < NY; k++) {
        int n = k * p + rank, v = 0;
        for (int j = 0; j < NH; j++)
            if (n < NY && n - j >= 0 && n - j < NX)
                v += h[j] * x[n - j];
        MPIRIO_Compute(NH / 16 + 1);
        MPIRIO_Gather(&v, 1, MPIRIO_INT, y + k * p, 1, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
    }
    long long t1 = MPIRIO_time();
    if (rank == 0)
        bad |= memcmp(y, ref, sizeof ref) != 0;
    /* 2: matrix partition */
    for (int i = 0; i < NX; i++)
        x[i] = rank == 0 ? x[i] : 0;
    MPIRIO_Bcast(x, NX, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
    int nb = NH / p;
    MPIRIO_Scatter(h, nb, MPIRIO_INT, hb, nb, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
    memset(part, 0, sizeof part);
    for (int j = 0; j < nb; j++) /* column rank*nb + j of the matrix h(j) x(i) */
        for (int i = 0; i < NX; i++)
            part[rank * nb + j + i] += hb[j] * x[i];
    MPIRIO_Compute((long long)nb * NX / 16);
    MPIRIO_Reduce(part, y, NY, MPIRIO_INT, MPIRIO_SUM, 0, MPIRIO_COMM_WORLD);
    long long t2 = MPIRIO_time();
    if (rank == 0) {
        bad |= memcmp(y, ref, sizeof ref) != 0;
        printf("conv1d %d points: round robin %lld cycles, matrix partition %lld cycles; "
               "%s\n",
               NX, t1 - t0, t2 - t1, bad ? "WRONG" : "OK");
    }
    MPIRIO_Finalize();
    return bad;
}
