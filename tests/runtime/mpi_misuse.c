/* mpi_misuse.c: programs MPI implementations refuse, for mpirio-run to report
 * (tests/runtime/CMakeLists.txt, mpirio_mpi_*): argv[1] picks the case.
 *   nofinalize     every DSP returns from main without MPI_Finalize
 *   noinit         every DSP returns from main without MPI_Init (as a test that
 *                  skips itself): no report, exit status 0
 *   beforeinit     every DSP calls MPI_Comm_rank before MPI_Init
 *   afterfinalize  DSP 2 calls MPI_Barrier after MPI_Finalize
 *   segv           DSP 2 writes through a null pointer after an MPI_Barrier
 *   bigcount       DSP 0 sends 2 GiB + 16 bytes to DSP 1, which checks the counts
 *   polldeadlock   each DSP polls (MPI_Test, MPI_Iprobe) for a message nobody sends
 *   ok             a correct program (prints "ok") */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
bigcount(int rank)
{
    const long long bytes = (1LL << 31) + 16;
    const int n = (int)(bytes / 8);
    double *buf = malloc((size_t)bytes);
    if (!buf)
        return 3;
    int bad = 0;
    if (rank == 0) {
        for (int i = 0; i < n; i += 4096)
            buf[i] = i;
        buf[n - 1] = -1.0;
        MPI_Send(buf, n, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Status st;
        memset(buf, 0, 8);
        MPI_Recv(buf, n, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &st);
        int count = 0, bcount = 0;
        MPI_Count elems = 0;
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        MPI_Get_count(&st, MPI_BYTE, &bcount);
        MPI_Get_elements_x(&st, MPI_BYTE, &elems);
        printf("doubles %d bytes %s elements %lld last %g\n", count,
               bcount == MPI_UNDEFINED ? "MPI_UNDEFINED" : "wrong", (long long)elems,
               buf[n - 1]);
        bad = count != n || bcount != MPI_UNDEFINED || elems != bytes ||
              buf[n - 1] != -1.0 || buf[4096] != 4096.0;
    }
    free(buf);
    return bad;
}

int
main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "ok";
    int rank = -1;
    if (strcmp(what, "noinit") == 0) {
        printf("skipped\n");
        return 0;
    }
    if (strcmp(what, "beforeinit") == 0)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* the first DSP to run ends the run */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (strcmp(what, "nofinalize") == 0)
        return 0;
    if (strcmp(what, "segv") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 2) {
            volatile int *p = NULL;
            *p = 1;
        }
    }
    if (strcmp(what, "polldeadlock") == 0) {
        int x = 0, flag = 0;
        if (rank % 2 == 0) {
            MPI_Request r;
            MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r);
            while (!flag)
                MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        } else
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    int rc = 0;
    if (strcmp(what, "bigcount") == 0)
        rc = bigcount(rank);
    MPI_Finalize();
    if (strcmp(what, "afterfinalize") == 0 && rank == 2)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && strcmp(what, "ok") == 0)
        printf("ok\n");
    return rc;
}
