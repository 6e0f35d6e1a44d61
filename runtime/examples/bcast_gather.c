/* bcast_gather: the speed benchmark's collective program (bench/bench_smpi.c), plain
 * MPI, built unchanged with mpirio-cc and with SimGrid's smpicc:
 *
 *   bcast_gather [ROUNDS] [INTS]     (default 1000 rounds of 62 ints)
 *
 * Each round: MPI_Bcast of INTS ints from rank 0, then MPI_Gather of INTS ints to
 * rank 0. Rank 0 checks every block of the last round and prints OK. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 1000;
    int ints = argc > 2 ? atoi(argv[2]) : 62, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *b = malloc(sizeof *b * (size_t)ints);
    int *all = malloc(sizeof *all * (size_t)ints * (size_t)size);
    if (!b || !all || rounds < 1 || ints < 1) {
        fprintf(stderr, "bcast_gather: bad arguments or no memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < ints; i++)
            b[i] = rank == 0 ? r * ints + i : -1;
        MPI_Bcast(b, ints, MPI_INT, 0, MPI_COMM_WORLD);
        for (int i = 0; i < ints; i++)
            b[i] += rank;
        MPI_Gather(b, ints, MPI_INT, all, ints, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        for (int p = 0; p < size; p++)
            for (int i = 0; i < ints; i++)
                bad |= all[p * ints + i] != (rounds - 1) * ints + i + p;
        printf("bcast_gather on %d: %s\n", size, bad ? "WRONG" : "OK");
    }
    free(b);
    free(all);
    MPI_Finalize();
    return bad;
}
