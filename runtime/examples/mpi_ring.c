/* mpi_ring: a plain MPI program (the subset of mpirio/mpi.h), unchanged: a token
 * goes round the ring, then Bcast, Reduce, Gather, Scatter, Sendrecv, Allreduce,
 * Allgather, Alltoall and Barrier. */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, size, token, bad = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        token = 1;
        MPI_Send(&token, 1, MPI_INT, 1 % size, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, &st);
        bad |= token != size || st.MPI_SOURCE != size - 1 || st.MPI_TAG != 0;
    } else {
        MPI_Request r;
        MPI_Irecv(&token, 1, MPI_INT, rank - 1, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        token++;
        MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
    double x = rank == 2 ? 2.5 : 0, sum = 0;
    MPI_Bcast(&x, 1, MPI_DOUBLE, 2, MPI_COMM_WORLD);
    double mine = x * rank;
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    int all[64], part;
    MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Scatter(all, 1, MPI_INT, &part, 1, MPI_INT, 0, MPI_COMM_WORLD);
    bad |= part != rank;
    int left = (rank + size - 1) % size, right = (rank + 1) % size, from = -1, total = 0;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &from, 1, MPI_INT, left, 5, MPI_COMM_WORLD,
                 &st);
    bad |= from != left || st.MPI_SOURCE != left;
    MPI_Allreduce(&rank, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad |= total != size * (size - 1) / 2;
    int every[64], to[64], got[64];
    MPI_Allgather(&rank, 1, MPI_INT, every, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        bad |= every[i] != i, to[i] = 100 * rank + i;
    MPI_Alltoall(to, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        bad |= got[i] != 100 * i + rank;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    if (rank == 0) {
        bad |= sum != 2.5 * size * (size - 1) / 2;
        for (int i = 0; i < size; i++)
            bad |= all[i] != i;
        printf("mpi_ring on %d: %s (%.1f us)\n", size, bad ? "WRONG" : "OK", t * 1e6);
    }
    MPI_Finalize();
    return bad;
}
