/* globals: each DSP must see its own copy of the program's globals (as under MPI).
 * Every DSP adds rank + 1 to a global counter one at a time, with MPIRIO calls in
 * between so that the DSPs interleave; each must end with its own count. */
#include <mpirio.h>
#include <stdio.h>

int counter; /* one per DSP under mpirio-run */
static int hidden = 100;

int
main(int argc, char **argv)
{
    int rank, n;
    MPIRIO_Init(&argc, &argv);
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &rank);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &n);
    for (int i = 0; i <= rank; i++) {
        counter++;
        hidden++;
        MPIRIO_Compute(10);
        MPIRIO_Barrier(MPIRIO_COMM_LOCAL);
    }
    for (int i = rank + 1; i < n; i++) /* keep the barriers matched */
        MPIRIO_Barrier(MPIRIO_COMM_LOCAL);
    int mine[2] = {counter, hidden}, all[2 * 256];
    MPIRIO_Gather(mine, 2, MPIRIO_INT, all, 2, MPIRIO_INT, 0, MPIRIO_COMM_WORLD);
    int bad = 0;
    if (rank == 0) {
        for (int r = 0; r < n; r++)
            bad |= all[2 * r] != r + 1 || all[2 * r + 1] != 100 + r + 1;
        printf("globals: %s\n", bad ? "SHARED (wrong)" : "private per DSP: OK");
    }
    MPIRIO_Finalize();
    return bad;
}
