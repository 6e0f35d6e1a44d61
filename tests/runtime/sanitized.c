/* sanitized: a program with a bug on one DSP, run only in the sanitizer build to show
 * that the sanitizers see into the private copy each DSP runs (mpirio-run dlopens them).
 *   sanitized overflow   DSP 3 writes one int past a heap block
 *   sanitized leak       DSP 3 drops a heap block
 *   sanitized signed     DSP 3 overflows a signed int */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *what = argc > 1 ? argv[1] : "";
    volatile int big = INT_MAX - 3 + rank;
    if (rank == 3) {
        volatile size_t size = 4 * sizeof(int); /* unknown to the compiler's checks */
        int *p = malloc(size);
        if (strcmp(what, "overflow") == 0)
            p[4] = rank;
        else if (strcmp(what, "signed") == 0)
            big = big + 1;
        if (strcmp(what, "leak") != 0)
            free(p);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return big == 0;
}
