/* mpi_env_tr.c: the MPI transport's stand-in for the MPI names layer (mpi_env.c and
 * the other mpi_*.c files), which the MPI transport's libraries leave out: there the
 * real MPI library defines the MPI names (MPI_Init, MPI_Send, ...), and a program
 * written to them is built against it directly (docs/cluster.md). What api.c asks of
 * that layer is the Init/Finalize state of the DSP, here one per process: this file
 * keeps it (also for the shared-memory transport, tr_threads.c, whose DSPs are the
 * fibers of one process). Part of the API layer: it calls only tr_ functions. */
#include "mpirio_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the DSP's state, in the transport's per-DSP slot (tr_api_slot, which only the names
 * layer uses otherwise): per DSP, not per thread, since the shared-memory transport's
 * DSPs are fibers that share worker threads; freed with the run (tr_tmp_alloc) */
typedef struct EnvTr {
    int initialized;    /* MPIRIO_Init returned */
    HandleTab requests; /* the MPIRIO requests of the DSP */
} EnvTr;

static EnvTr *
env(void)
{
    void **slot = tr_api_slot();
    if (!*slot) {
        EnvTr *e = tr_tmp_alloc(sizeof *e);
        memset(e, 0, sizeof *e);
        *slot = e;
    }
    return *slot;
}

HandleTab *
api_requests(void)
{
    return tr_dsp() ? &env()->requests : NULL;
}

void
mpi_mark_init(void)
{
    if (tr_active())
        env()->initialized = 1;
}

int
mpi_check_active(const char *call)
{
    if (!tr_dsp())
        return 0;
    int active = tr_active();
    if ((!env()->initialized || !active) && tr_strict()) {
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
    *init = dsp && env()->initialized;
    return dsp && !tr_active();
}
