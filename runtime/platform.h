/* platform.h: the platform description (platform.c), below every transport: the
 * simulation reads all of it, the MPI transport (tr_mpi.c) the clock and the boards. */
#ifndef MPIRIO_PLATFORM_H
#define MPIRIO_PLATFORM_H

#include <stddef.h>

typedef struct Platform {
    char name[64];
    int abstract; /* "model": "abstract": one board of N DSPs, a message of n bytes
                     takes n cycles, no overheads, no packets on links */
    int boards, dsps_per_board;
    int nlinks;      /* board links */
    int (*links)[2]; /* nlinks pairs of boards */
    int dsp_clock_mhz, link_mbps, packet_bytes, payload_bytes, switch_latency;
    int send_overhead, recv_overhead, post_overhead, wait_overhead;
    int copy_bytes_per_cycle, handshake, eager_limit;
    long long dsp_memory_bytes;
} Platform;

/* fills p from a preset name, a "tgc-platform/1" file, or NULL (smallest fit for
 * ndsps DSPs; near-square mesh above 64); 0, or -1 with a message in err */
int plat_load(Platform *p, const char *spec, int ndsps, char *err, size_t errlen);
void plat_free(Platform *p);

#endif
