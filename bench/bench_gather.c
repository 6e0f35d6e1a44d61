/* bench_gather: the in-switch gather against MPICH's binomial gather (not a test).
 *
 *   bench_gather [--max BYTES] [--dsps 16,64]    (defaults 65536 and 16,64)
 *
 * For each number of DSPs (the smallest preset platform that holds them: bwdsp-4board
 * for 16, bwdsp-16board for 64) and each block size from 4 bytes per rank, doubling,
 * up to --max (and 248, 250, 251 and 1000 bytes among them: a packet's payload is 250
 * bytes), one MPIRIO_Gather to rank 0 with contention in each family, each in a run of
 * its own. Prints a Markdown table of the packets (created, as MPIRIO_traffic counts
 * them) and the cycles (the length of the run: the root is the last to finish), and
 * whether the in-switch gather is never worse than the binomial tree in both.
 * Exit status 1 if it is worse anywhere (or a run fails). */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int blk;
static unsigned char *all;

static void
dsp(int rank, void *arg)
{
    (void)arg;
    unsigned char *b = malloc((size_t)blk + 1);
    for (int i = 0; i < blk; i++)
        b[i] = (unsigned char)(rank * 7 + i);
    MPIRIO_Gather(b, blk, MPIRIO_BYTE, rank == 0 ? all : NULL, blk, MPIRIO_BYTE, 0,
                  MPIRIO_COMM_WORLD);
    free(b);
}

/* one gather of n DSPs in family f: packets and cycles; the root's data checked */
static int
one(int n, int f, long long *packets, long long *cycles)
{
    all = calloc((size_t)blk * (size_t)n + 1, 1);
    int rc = MPIRIO_Run(n, NULL, f ? MPIRIO_RUN_COLL_MPICH : 0, dsp, NULL);
    MPIRIO_Stats st;
    MPIRIO_Run_stats(&st);
    for (int r = 0; r < n && rc == 0; r++)
        for (int i = 0; i < blk; i++)
            if (all[(size_t)r * blk + i] != (unsigned char)(r * 7 + i))
                rc = 3;
    free(all);
    *packets = st.traffic.packets;
    *cycles = st.cycles;
    return rc;
}

static int
usage(void)
{
    fprintf(stderr, "usage: bench_gather [--max BYTES] [--dsps N,N...]\n");
    return 2;
}

int
main(int argc, char **argv)
{
    long max = 65536;
    int ns[8] = {16, 64}, nn = 2;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "--max") && i + 1 < argc) {
            max = strtol(argv[++i], &end, 10);
            if (*end || max < 4 || max > (1L << 24))
                return usage();
        } else if (!strcmp(argv[i], "--dsps") && i + 1 < argc) {
            char *p = argv[++i];
            nn = 0;
            while (*p && nn < 8) {
                long v = strtol(p, &end, 10);
                if (end == p || v < 2 || v > 256 || (*end && *end != ','))
                    return usage();
                ns[nn++] = (int)v;
                p = *end ? end + 1 : end;
            }
            if (!nn || *p)
                return usage();
        } else
            return usage();
    }
    int sizes[64], ns_ = 0;
    for (long b = 4; b <= max; b *= 2) {
        static const int extra[] = {248, 250, 251, 1000};
        for (size_t e = 0; e < sizeof extra / sizeof extra[0]; e++)
            if (extra[e] > b / 2 && extra[e] < b && extra[e] <= max)
                sizes[ns_++] = extra[e];
        sizes[ns_++] = (int)b;
    }
    printf("| bytes per rank |");
    for (int j = 0; j < nn; j++)
        printf(" %d: packets switch | %d: packets mpich | %d: cycles switch | %d: cycles "
               "mpich |",
               ns[j], ns[j], ns[j], ns[j]);
    printf("\n|---|");
    for (int j = 0; j < nn; j++)
        printf("---|---|---|---|");
    printf("\n");
    int worse = 0, fail = 0;
    for (int s = 0; s < ns_; s++) {
        blk = sizes[s];
        printf("| %d |", blk);
        for (int j = 0; j < nn; j++) {
            long long p[2], c[2];
            for (int f = 0; f < 2; f++)
                if (one(ns[j], f, &p[f], &c[f])) {
                    fprintf(stderr, "bench_gather: %d DSPs, %d bytes, %s: run failed\n",
                            ns[j], blk, f ? "mpich" : "switch");
                    fail = 1;
                }
            int w = p[0] > p[1] || c[0] > c[1];
            worse |= w;
            printf(" %lld | %lld | %lld | %lld%s |", p[0], p[1], c[0], c[1],
                   w ? " (worse)" : "");
        }
        printf("\n");
        fflush(stdout);
    }
    printf("\nin-switch gather never worse than binomial in packets and cycles: %s\n",
           worse ? "NO" : "yes");
    return worse || fail;
}
