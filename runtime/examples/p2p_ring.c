/* p2p_ring: the speed benchmark's point-to-point program (bench/bench_smpi.c), plain
 * MPI, built unchanged with mpirio-cc and with SimGrid's smpicc:
 *
 *   p2p_ring [ROUNDS] [BYTES]     (default 1000 rounds of 1000 bytes)
 *
 * Each round every rank posts a receive from its left neighbour, sends BYTES to its
 * right one and waits for both (Irecv, Isend, Waitall); the data is checked. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 1000;
    int bytes = argc > 2 ? atoi(argv[2]) : 1000, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned char *s = malloc((size_t)bytes), *r = malloc((size_t)bytes);
    if (!s || !r || rounds < 1 || bytes < 1) {
        fprintf(stderr, "p2p_ring: bad arguments or no memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    for (int k = 0; k < rounds; k++) {
        MPI_Request q[2];
        for (int i = 0; i < bytes; i++)
            s[i] = (unsigned char)(rank + k + i);
        MPI_Irecv(r, bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(s, bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        for (int i = 0; i < bytes; i++)
            bad |= r[i] != (unsigned char)(left + k + i);
    }
    int any = 0;
    MPI_Reduce(&bad, &any, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("p2p_ring on %d: %s\n", size, any ? "WRONG" : "OK");
    free(s);
    free(r);
    MPI_Finalize();
    return bad;
}
