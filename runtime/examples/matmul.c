/* matmul: C = A x B on P DSPs, two ways ([MPIRIO] (docs/references.md) section 4.2).
 * 1 basic slicing: DSP 0 scatters the rows of A, every DSP holds all of B, computes
 *   its rows of C into a zero matrix, and one Reduce (SUM) assembles C on DSP 0.
 * 2 Fox-like: DSP 0 scatters the rows of A and the columns of B; each DSP multiplies
 *   its row block by the column block it holds, passes that block round the ring and
 *   repeats P times; one Reduce assembles C.
 * Both are checked against the sequential product. Costs: 16 MACs per cycle. */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 64 /* A is M x K, B is K x M */
#define K 48

static double A[M * K], B[K * M], Bt[M * K], C[M * M], part[M * M], ref[M * M];

static int
check(const char *what, int rank, long long t0)
{
    if (rank != 0)
        return 0;
    int bad = memcmp(C, ref, sizeof C) != 0;
    printf("%s: %s, %lld cycles\n", what, bad ? "WRONG" : "OK", MPIRIO_time() - t0);
    return bad;
}

int
main(int argc, char **argv)
{
    int rank, p, bad = 0;
    MPIRIO_Init(&argc, &argv);
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &rank);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &p);
    if (M % p) {
        if (rank == 0)
            printf("need a divisor of %d DSPs\n", M);
        MPIRIO_Finalize();
        return 1;
    }
    int rows = M / p;
    for (int i = 0; i < M * K; i++)
        A[i] = rank == 0 ? (i * 7) % 11 - 5 : 0;
    for (int i = 0; i < K * M; i++)
        B[i] = (i * 5) % 13 - 6; /* every DSP has B (method 1) */
    if (rank == 0)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < M; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += A[i * K + k] * B[k * M + j];
                ref[i * M + j] = s;
            }
    double *arows = malloc(sizeof(double) * rows * K);
    /* 1: basic slicing */
    long long t0 = MPIRIO_time();
    MPIRIO_Scatter(A, rows * K, MPIRIO_DOUBLE, arows, rows * K, MPIRIO_DOUBLE, 0,
                   MPIRIO_COMM_WORLD);
    memset(part, 0, sizeof part);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < M; j++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += arows[i * K + k] * B[k * M + j];
            part[(rank * rows + i) * M + j] = s;
        }
    MPIRIO_Compute((long long)rows * M * K / 16);
    MPIRIO_Reduce(part, C, M * M, MPIRIO_DOUBLE, MPIRIO_SUM, 0, MPIRIO_COMM_WORLD);
    bad |= check("matmul basic slicing", rank, t0);

    /* 2: Fox-like; DSP 0 holds B transposed so that columns are contiguous */
    t0 = MPIRIO_time();
    for (int k = 0; k < K; k++)
        for (int j = 0; j < M; j++)
            Bt[j * K + k] = rank == 0 ? B[k * M + j] : 0;
    double *bcols = malloc(sizeof(double) * rows * K),
           *next = malloc(sizeof(double) * rows * K);
    MPIRIO_Scatter(A, rows * K, MPIRIO_DOUBLE, arows, rows * K, MPIRIO_DOUBLE, 0,
                   MPIRIO_COMM_WORLD);
    MPIRIO_Scatter(Bt, rows * K, MPIRIO_DOUBLE, bcols, rows * K, MPIRIO_DOUBLE, 0,
                   MPIRIO_COMM_WORLD);
    memset(part, 0, sizeof part);
    for (int step = 0; step < p; step++) {
        int owner = (rank + step) % p; /* whose columns bcols holds */
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < rows; j++) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += arows[i * K + k] * bcols[j * K + k];
                part[(rank * rows + i) * M + owner * rows + j] = s;
            }
        MPIRIO_Compute((long long)rows * rows * K / 16);
        if (step + 1 < p) {
            MPIRIO_Request r;
            MPIRIO_Irecv(next, rows * K, MPIRIO_DOUBLE, (rank + 1) % p, step,
                         MPIRIO_COMM_WORLD, &r);
            MPIRIO_Send(bcols, rows * K, MPIRIO_DOUBLE, (rank + p - 1) % p, step,
                        MPIRIO_COMM_WORLD);
            MPIRIO_Wait(&r, MPIRIO_STATUS_IGNORE);
            double *t = bcols;
            bcols = next;
            next = t;
        }
    }
    MPIRIO_Reduce(part, C, M * M, MPIRIO_DOUBLE, MPIRIO_SUM, 0, MPIRIO_COMM_WORLD);
    bad |= check("matmul Fox-like", rank, t0);
    free(arows);
    free(bcols);
    free(next);
    MPIRIO_Finalize();
    return bad;
}
