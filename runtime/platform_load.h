/* platform_load.h: the platform of a run (platform_load.c), below every transport: the
 * simulation reads all of it, the MPI transport (tr_mpi.c) the clock and the boards.
 * The description, its presets and its reader are tgc's (platform/platform.h). */
#ifndef MPIRIO_PLATFORM_LOAD_H
#define MPIRIO_PLATFORM_LOAD_H

#include <stddef.h>

#include "platform.h"

/* Fills p for a run of ndsps DSPs from spec: a preset name ("abstract" gets ndsps DSPs),
 * a tgc-platform/1 file (a spec that contains "/" or ends in ".json"), or NULL or ""
 * (pd_fit: the smallest preset with enough DSPs, a near-square mesh above 64).  The
 * abstract model is one board of all its DSPs here (nboards 1, dsps_per_board = ndsps).
 * Returns 0, or -1 with every message of the reader, one a line, in err (p then holds
 * nothing to free); pd_free() releases p. */
int plat_load(PlatDesc *p, const char *spec, int ndsps, char *err, size_t errlen);

#endif
