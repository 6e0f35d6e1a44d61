/*
 * bench/conv1d_mpi.c - [CONV]'s 1-D convolution written by hand against MPI, the
 * reference of the benchmark bench/suites/mpi: the algorithm of the task graphs of
 * testcases/apps/conv1d (make_graph.sh), with the same kernels (conv1d_kernels.c) and the
 * same messages, without tgc or MPIRIO.
 *
 *   mpirun -np P conv1d_mpi rr|mp LENGTH [OUTPUT]
 *
 * rr (round robin): per round, rank 0 runs the source kernel and sends rank r its P
 * samples; every rank runs its worker kernel on them and sends its output back; rank 0
 * runs the gather kernel (which appends the round's outputs to OUTPUT).  mp (matrix
 * partition): rank 0 sends the whole signal to every rank, each computes its partial y
 * over its taps, rank 0 sums them (the reduce kernel writes OUTPUT).  Receives are posted
 * before the data can arrive, sends are nonblocking: what a person writing MPI would do.
 * Rank 0 prints "wall_us T": from a barrier at the start to the last rank's end, in
 * microseconds (the generated programs measure the same span).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv1d_kernels.h"

enum { TAPS = 64 };

static void *
xcalloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p) {
        fprintf(stderr, "conv1d_mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (argc < 3 || (strcmp(argv[1], "rr") != 0 && strcmp(argv[1], "mp") != 0) ||
        atol(argv[2]) < 1 || TAPS % P != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np P conv1d_mpi rr|mp LENGTH [OUTPUT] (P "
                            "divides 64)\n");
        MPI_Finalize();
        return 2;
    }
    int rr = strcmp(argv[1], "rr") == 0;
    int64_t len = atol(argv[2]), ny = len + TAPS - 1;
    const char *output = argc > 3 ? argv[3] : NULL;
    int64_t iters = rr ? (ny + P - 1) / P : 1;
    size_t in_b = rr ? (size_t)P * sizeof(float) : (size_t)len * sizeof(float);
    size_t out_b = rr ? sizeof(float) : (size_t)ny * sizeof(float);
    /* rank 0: the source's P outputs and the P worker outputs it collects */
    void **src = xcalloc(sizeof *src * (size_t)P),
         **col = xcalloc(sizeof *col * (size_t)P);
    size_t *src_b = xcalloc(sizeof *src_b * (size_t)P),
           *col_b = xcalloc(sizeof *col_b * (size_t)P);
    for (int r = 0; r < P; r++) {
        src[r] = xcalloc(in_b);
        col[r] = xcalloc(out_b);
        src_b[r] = in_b;
        col_b[r] = out_b;
    }
    void *in = xcalloc(in_b), *out = xcalloc(out_b);
    MPI_Request *req = xcalloc(sizeof *req * (size_t)P * 2);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int64_t it = 0; it < iters; it++) {
        const void *wi[1];
        void *wo[1] = {out};
        size_t wib[1] = {in_b}, wob[1] = {out_b};
        if (rank == 0) {
            for (int r = 1; r < P; r++) /* the workers' outputs of this round */
                MPI_Irecv(col[r], (int)out_b, MPI_BYTE, r, 2, MPI_COMM_WORLD, &req[r]);
            tgc_io s = {0, P, NULL, NULL, src, src_b, it, NULL, 0, 1};
            if (rr)
                conv1d_rr_source(&s, len, P);
            else
                conv1d_mp_source(&s, len, P);
            for (int r = 1; r < P; r++)
                MPI_Isend(src[r], (int)in_b, MPI_BYTE, r, 1, MPI_COMM_WORLD, &req[P + r]);
            wi[0] = src[0];
            wo[0] = col[0];
        } else {
            MPI_Recv(in, (int)in_b, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            wi[0] = in;
        }
        tgc_io w = {1, 1, wi, wib, wo, wob, it, NULL, 0, 1};
        if (rr)
            conv1d_rr_worker(&w, rank, P, TAPS);
        else
            conv1d_mp_worker(&w, rank, P, TAPS, len);
        if (rank == 0) {
            MPI_Waitall(P - 1, req + 1, MPI_STATUSES_IGNORE);
            const void **ci = (const void **)col;
            tgc_io g = {P, 0, ci, col_b, NULL, NULL, it, output, 0, 1};
            if (rr)
                conv1d_rr_gather(&g, len, TAPS, P);
            else
                conv1d_mp_reduce(&g, len, TAPS, P);
            MPI_Waitall(P - 1, req + P + 1, MPI_STATUSES_IGNORE);
        } else
            MPI_Send(out, (int)out_b, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
    double mine = MPI_Wtime() - t0, last = 0;
    MPI_Reduce(&mine, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("wall_us %.3f\n", last * 1e6);
    for (int r = 0; r < P; r++) {
        free(src[r]);
        free(col[r]);
    }
    free(src);
    free(col);
    free(src_b);
    free(col_b);
    free(in);
    free(out);
    free(req);
    MPI_Finalize();
    return 0;
}
