/* faults.c: a program on the shared-memory transport whose DSP fails, for faults.sh:
 *   faults segv    DSP 2 writes through a bad pointer while the others wait for it
 *   faults abort   DSP 1 calls MPIRIO_Abort(MPIRIO_COMM_WORLD, 5)
 *   faults race    DSPs 0 and 1 write one global without synchronisation (the TSan
 *                  build must report it: tests/threads/CMakeLists.txt)
 *   faults ok      every DSP passes a token round a ring (the control) */
#include <mpirio.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static const char *mode;
/* a bad address that is not null (the sanitizers check null stores themselves) */
static int *volatile nowhere = (int *)64;
int faults_shared; /* written by two DSPs in the race mode; read at the end */
/* in the race mode DSPs 0 and 1 wait for each other's write through relaxed atomics,
 * which order nothing for TSan: neither goes on to an MPIRIO call (whose mutex would
 * order the two writes when the scheduler runs one DSP's write and send before the
 * other's write) before both have written, so the race is there in every run */
static atomic_int wrote[2];

static void
dsp(int rank, void *arg)
{
    (void)arg;
    int n, v = rank;
    MPIRIO_Init(NULL, NULL);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &n);
    if (rank == 2 && strcmp(mode, "segv") == 0)
        *nowhere = 1;
    if (rank < 2 && strcmp(mode, "race") == 0) {
        faults_shared += rank + 1; /* no lock, no message between the two writes */
        atomic_store_explicit(&wrote[rank], 1, memory_order_relaxed);
        while (!atomic_load_explicit(&wrote[1 - rank], memory_order_relaxed))
            sched_yield();
    }
    if (rank == 1 && strcmp(mode, "abort") == 0)
        MPIRIO_Abort(MPIRIO_COMM_WORLD, 5);
    if (rank == 0) {
        MPIRIO_Send(&v, 1, MPIRIO_INT, 1, 0, MPIRIO_COMM_WORLD);
        MPIRIO_Recv(&v, 1, MPIRIO_INT, n - 1, 0, MPIRIO_COMM_WORLD, MPIRIO_STATUS_IGNORE);
        printf("token %d\n", v);
    } else {
        MPIRIO_Recv(&v, 1, MPIRIO_INT, rank - 1, 0, MPIRIO_COMM_WORLD,
                    MPIRIO_STATUS_IGNORE);
        v += rank;
        MPIRIO_Send(&v, 1, MPIRIO_INT, (rank + 1) % n, 0, MPIRIO_COMM_WORLD);
    }
    MPIRIO_Finalize();
}

int
main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "ok";
    int rc = MPIRIO_Run(4, NULL, 0, dsp, NULL);
    if (strcmp(mode, "race") == 0)
        printf("shared %d\n", faults_shared);
    return rc;
}
