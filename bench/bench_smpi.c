/* bench_smpi: mpirio-run against SimGrid's SMPI on the same MPI programs (not a test).
 *
 *   bench_smpi [--reps R] [--rounds N] [--dsps 16,64] [--p2p-bytes B] [--keep DIR]
 *
 * Builds runtime/examples/bcast_gather.c and p2p_ring.c twice, with mpirio-cc and with
 * smpicc, and runs them side by side, alternating, R times each (default 5):
 * - bcast_gather (N rounds, default 1000, of MPI_Bcast of 62 ints from rank 0 then
 *   MPI_Gather of 62 ints) on 16 and 64 DSPs, under mpirio-run in both collective
 *   families and under smpirun on a cluster of as many hosts (4.416 Gbps, 0.5 us: the
 *   BWDSP link);
 * - p2p_ring (N rounds of Irecv/Isend/Waitall of B bytes, default 1000, round a ring)
 *   on the same sizes, under both, and the simulated packets (mpirio-run --summary)
 *   per host second.
 * Host time is CPU time, user + system, of the whole command (wait4), so it does not
 * depend on how loaded the machine is; each figure is the median of the R runs. Every
 * run must print its program's OK line. Prints one table; exits 1 if a build or a
 * run fails. Needs smpicc and smpirun (Debian's simgrid) on PATH. */
#define _GNU_SOURCE
#include "bench_util.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MPIRIO_CC
#define MPIRIO_CC "mpirio-cc"
#endif
#ifndef MPIRIO_RUN
#define MPIRIO_RUN "mpirio-run"
#endif
#ifndef EXAMPLES
#define EXAMPLES "runtime/examples"
#endif

static char dir[4096];
static char out[1 << 16]; /* the last command's output */

/* runs argv with its output in out; its exit status, and its CPU seconds in *cpu */
static int
run(char *const argv[], double *cpu)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        execvp(argv[0], argv);
        fprintf(stderr, "bench_smpi: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        return -1;
    *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
    FILE *f = fopen(path, "r");
    size_t k = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[k] = 0;
    if (f)
        fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

static int
build(const char *cc, const char *prog, const char *outname)
{
    char src[4200], dst[4200];
    snprintf(src, sizeof src, "%s/%s.c", EXAMPLES, prog);
    snprintf(dst, sizeof dst, "%s/%s", dir, outname);
    char *argv[] = {(char *)cc, "-O2", "-o", dst, src, NULL};
    double t;
    int rc = run(argv, &t);
    if (rc != 0)
        fprintf(stderr, "bench_smpi: %s %s failed (status %d):\n%s", cc, src, rc, out);
    return rc;
}

/* the cluster of n hosts and its host file */
static int
write_platform(int n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/cluster%d.xml", dir, n);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "<?xml version='1.0'?>\n"
            "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
            "<platform version=\"4.1\">\n"
            "  <cluster id=\"bwdsp\" prefix=\"dsp\" suffix=\"\" radical=\"0-%d\" "
            "speed=\"1Gf\" bw=\"4.416Gbps\" lat=\"0.5us\"/>\n"
            "</platform>\n",
            n - 1);
    fclose(f);
    snprintf(path, sizeof path, "%s/hosts%d", dir, n);
    f = fopen(path, "w");
    if (!f)
        return -1;
    for (int i = 0; i < n; i++)
        fprintf(f, "dsp%d\n", i);
    return fclose(f);
}

typedef struct Case {
    const char *prog;
    int n;
    const char *family; /* mpirio-run --coll, NULL for SMPI */
    double t[64];
    long long packets;
} Case;

static int reps = 5, rounds = 1000, p2p_bytes = 1000;

/* one run of c; 0, or -1 after saying why */
static int
run_case(Case *c, int rep)
{
    char n[16], r[16], b[16], plat[4200], hosts[4200], prog[4200], ok[64];
    snprintf(n, sizeof n, "%d", c->n);
    snprintf(r, sizeof r, "%d", rounds);
    snprintf(b, sizeof b, "%d", strcmp(c->prog, "p2p_ring") == 0 ? p2p_bytes : 62);
    snprintf(ok, sizeof ok, "%s on %d: OK", c->prog, c->n);
    int rc;
    if (c->family) {
        snprintf(prog, sizeof prog, "%s/%s_mpirio.so", dir, c->prog);
        char *argv[] = {MPIRIO_RUN,  "-n", n, "--coll", (char *)c->family,
                        "--summary", prog, r, b,        NULL};
        rc = run(argv, &c->t[rep]);
        const char *p = strstr(out, " messages, ");
        if (p)
            c->packets = atoll(p + strlen(" messages, "));
    } else {
        snprintf(prog, sizeof prog, "%s/%s_smpi", dir, c->prog);
        snprintf(plat, sizeof plat, "%s/cluster%d.xml", dir, c->n);
        snprintf(hosts, sizeof hosts, "%s/hosts%d", dir, c->n);
        char *argv[] = {"smpirun", "-np", n, "-platform", plat, "-hostfile",
                        hosts,     prog,  r, b,           NULL};
        rc = run(argv, &c->t[rep]);
    }
    if (rc != 0 || !strstr(out, ok)) {
        fprintf(stderr, "bench_smpi: %s on %d (%s): status %d, no \"%s\":\n%s", c->prog,
                c->n, c->family ? c->family : "smpi", rc, ok, out);
        return -1;
    }
    return 0;
}

int
main(int argc, char **argv)
{
    int dsps[8] = {16, 64}, ndsps = 2;
    const char *keep = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--reps") == 0 && v)
            reps = atoi(v), i++;
        else if (strcmp(argv[i], "--rounds") == 0 && v)
            rounds = atoi(v), i++;
        else if (strcmp(argv[i], "--p2p-bytes") == 0 && v)
            p2p_bytes = atoi(v), i++;
        else if (strcmp(argv[i], "--keep") == 0 && v)
            keep = v, i++;
        else if (strcmp(argv[i], "--dsps") == 0 && v) {
            ndsps = 0;
            for (char *s = argv[++i]; *s && ndsps < 8; s += *s == ',') {
                char *e;
                dsps[ndsps++] = (int)strtol(s, &e, 10);
                if (e == s)
                    break;
                s = e;
            }
        } else {
            fprintf(stderr, "usage: bench_smpi [--reps R] [--rounds N] [--dsps 16,64] "
                            "[--p2p-bytes B] [--keep DIR]\n");
            return argv[i][0] == '-' && argv[i][1] == 'h' ? 0 : 2;
        }
    }
    if (reps < 1 || reps > 64 || rounds < 1 || p2p_bytes < 1 || ndsps < 1) {
        fprintf(stderr, "bench_smpi: --reps 1 to 64, --rounds and --p2p-bytes >= 1\n");
        return 2;
    }
    for (int i = 0; i < ndsps; i++)
        if (dsps[i] < 2 || dsps[i] > 4096) {
            fprintf(stderr, "bench_smpi: --dsps: 2 to 4096 each\n");
            return 2;
        }
    if (keep) {
        snprintf(dir, sizeof dir, "%s", keep);
        mkdir(dir, 0700);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/bench_smpi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "bench_smpi: cannot create %s\n", dir);
            return 1;
        }
    }
    static const char *const progs[] = {"bcast_gather", "p2p_ring"};
    for (int p = 0; p < 2; p++) {
        char name[64];
        snprintf(name, sizeof name, "%s_mpirio", progs[p]);
        if (build(MPIRIO_CC, progs[p], name) != 0)
            return 1;
        snprintf(name, sizeof name, "%s_smpi", progs[p]);
        if (build("smpicc", progs[p], name) != 0)
            return 1;
    }
    Case cases[64];
    int nc = 0;
    for (int i = 0; i < ndsps; i++) {
        if (write_platform(dsps[i]) != 0) {
            fprintf(stderr, "bench_smpi: cannot write the platform in %s\n", dir);
            return 1;
        }
        cases[nc++] = (Case){.prog = "bcast_gather", .n = dsps[i], .family = "switch"};
        cases[nc++] = (Case){.prog = "bcast_gather", .n = dsps[i], .family = "mpich"};
        cases[nc++] = (Case){.prog = "bcast_gather", .n = dsps[i], .family = NULL};
        cases[nc++] = (Case){.prog = "p2p_ring", .n = dsps[i], .family = "switch"};
        cases[nc++] = (Case){.prog = "p2p_ring", .n = dsps[i], .family = NULL};
    }
    /* side by side: every repetition runs every case once */
    for (int r = 0; r < reps; r++)
        for (int c = 0; c < nc; c++)
            if (run_case(&cases[c], r) != 0)
                return 1;
    printf("host CPU time (user + system) of the whole command, median of %d runs\n",
           reps);
    printf("bcast_gather: %d rounds of MPI_Bcast of 62 ints from rank 0, then "
           "MPI_Gather of 62 ints\n",
           rounds);
    printf("p2p_ring: %d rounds of Irecv/Isend/Waitall of %d bytes round a ring\n\n",
           rounds, p2p_bytes);
    printf("%-13s %5s %-7s %10s %10s %8s %10s %14s\n", "program", "DSPs", "family",
           "mpirio s", "smpi s", "ratio", "packets", "packets/s");
    for (int c = 0; c < nc; c++) {
        Case *x = &cases[c];
        if (!x->family)
            continue;
        Case *smpi = x;
        while (smpi->family)
            smpi++;
        double m = bench_median(x->t, reps), s = bench_median(smpi->t, reps);
        int p2p = strcmp(x->prog, "p2p_ring") == 0;
        printf("%-13s %5d %-7s %10.4f %10.4f %8.3f %10lld", x->prog, x->n,
               p2p ? "-" : x->family, m, s, m / s, x->packets);
        if (p2p)
            printf(" %14.0f", (double)x->packets / m);
        printf("\n");
    }
    if (!keep)
        nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
    return 0;
}
