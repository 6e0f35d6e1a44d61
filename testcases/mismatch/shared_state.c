/* shared_state.c - a kernel that breaks rule 2 of docs/kernels.md on purpose: its state is
 * shared by two tasks, so the parallel order of their iterations (not the sequential one)
 * decides what they write.  `tgc run` must report the difference (exit status 1). */
#include <stdint.h>
#include <string.h>

#include "tgc_kernel.h"

void counter(const tgc_io *io);

static uint64_t calls; /* shared by every task that calls counter: the bug */

void
counter(const tgc_io *io)
{
    calls++;
    for (int k = 0; k < io->nout; k++) {
        unsigned char *o = io->out[k];
        for (size_t i = 0; i < io->out_bytes[k]; i++)
            o[i] = (unsigned char)(calls >> (8 * (i % 8)));
    }
}
