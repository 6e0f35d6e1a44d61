/* mpi_env_tr.c: the MPI transport's stand-in for the MPI names layer (mpi_env.c and
 * the other mpi_*.c files), which the MPI transport's libraries leave out: there the
 * real MPI library defines the MPI names (MPI_Init, MPI_Send, ...), and a program
 * written to them is built against it directly (docs/cluster.md). What api.c asks of
 * that layer is the Init/Finalize state of the DSP, here one per process: this file
 * keeps it (also for the shared-memory transport, tr_threads.c, whose DSPs are the
 * threads of one process). Part of the API layer: it calls only tr_ functions. */
#include "mpirio_int.h"

#include <stdio.h>
#include <stdlib.h>

/* per thread: the shared-memory transport's DSPs are the threads of one process */
static _Thread_local int initialized;    /* MPIRIO_Init returned */
static _Thread_local HandleTab requests; /* the MPIRIO requests of the DSP */

HandleTab *
api_requests(void)
{
    return tr_dsp() ? &requests : NULL;
}

void
mpi_mark_init(void)
{
    if (tr_active())
        initialized = 1;
}

int
mpi_check_active(const char *call)
{
    if (!tr_dsp())
        return 0;
    int active = tr_active();
    if ((!initialized || !active) && tr_strict()) {
        fflush(stdout);
        fprintf(stderr, "mpirio: DSP %d called %s %s\n", tr_rank(), call,
                active ? "before MPIRIO_Init" : "after MPIRIO_Finalize");
        exit(1);
    }
    return active;
}

int
mpi_finalized(int *init)
{
    int dsp = tr_dsp();
    *init = dsp && initialized;
    return dsp && !tr_active();
}
