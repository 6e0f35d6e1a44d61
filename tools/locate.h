/*
 * tools/locate.h - where tgc finds libmpirio, its MPI and threads transports and tgc
 * calibrate's micro-benchmarks (locate.c): in the build tree, from the file tgc.paths
 * that the build writes beside the tgc it built; installed, relative to the executable's
 * own folder (bin/../lib, bin/../libexec/tgc), so that an installed tree holds no build
 * path and may be moved (docs/install.md).
 */
#ifndef TGC_LOCATE_H
#define TGC_LOCATE_H

#include <stdbool.h>

typedef struct TgcPaths {
    bool in_tree;        /* tgc.paths was found beside the executable */
    char *incdir;        /* libmpirio's headers (mpirio.h) */
    char *lib;           /* in the tree: the static libmpirio to link; installed: NULL */
    char *libdir;        /* installed: the folder of libmpirio.so and the transports */
    char *openmpi_lib;   /* the Open MPI transport (libmpirio_openmpi.a), or "" */
    char *mpich_lib;     /* the MPICH transport, or "" */
    char *threads_lib;   /* the shared-memory transport (libmpirio_threads.a), or "" */
    char *calib_openmpi; /* tgc calibrate's micro-benchmark program on Open MPI, or "" */
    char *calib_mpich;   /* ... on MPICH, or "" */
    char *calib_threads; /* ... on the host's threads (tgc-calib-threads), or "" */
} TgcPaths;

/* The paths of this tgc, found once; never NULL (an absent part is ""). */
const TgcPaths *tgc_paths(void);

#endif
