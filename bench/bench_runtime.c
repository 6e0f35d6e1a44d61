/* bench_runtime: how fast the simulated platform runs (not a test).
 *
 *   bench_runtime [rounds]    (default 1000)
 *
 * For 16, 64 and 256 DSPs and both collective families: `rounds` rounds of
 * Bcast + Gather of 250 bytes, with contention. Prints the host time (CPU time of the
 * process, user + system, so that a loaded machine does not change it), the
 * simulated packets (created) and link crossings, and both per host second. */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int rounds = 1000;

static void
dsp(int rank, void *arg)
{
    static char all[256][256];
    char b[250] = {0};
    int n;
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &n);
    for (int r = 0; r < rounds; r++) {
        MPIRIO_Bcast(b, 250, MPIRIO_BYTE, 0, MPIRIO_COMM_WORLD);
        MPIRIO_Gather(b, 250, MPIRIO_BYTE, rank == 0 ? all : NULL, 250, MPIRIO_BYTE, 0,
                      MPIRIO_COMM_WORLD);
    }
}

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int
main(int argc, char **argv)
{
    if (argc > 1)
        rounds = atoi(argv[1]);
    static const int ns[] = {16, 64, 256};
    printf("%-6s %-7s %8s %12s %12s %10s %10s %12s %12s\n", "DSPs", "family", "CPU s",
           "packets", "crossings", "cycles", "switches", "packets/s", "crossings/s");
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int f = 0; f < 2; f++) {
            double t0 = now();
            int rc = MPIRIO_Run(ns[i], NULL, f ? MPIRIO_RUN_COLL_MPICH : 0, dsp, NULL);
            double dt = now() - t0;
            MPIRIO_Stats st;
            MPIRIO_Run_stats(&st);
            if (rc != 0)
                return 1;
            printf("%-6d %-7s %8.3f %12lld %12lld %10lld %10lld %12.0f %12.0f\n", ns[i],
                   f ? "mpich" : "switch", dt, st.traffic.packets,
                   st.traffic.link_packets, st.cycles, st.switches,
                   (double)st.traffic.packets / dt, (double)st.traffic.link_packets / dt);
            fflush(stdout);
        }
    return 0;
}
