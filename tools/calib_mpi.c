/*
 * tools/calib_mpi.c - the micro-benchmarks of `tgc calibrate --target mpi` ([BFCO]
 * section 5.3: the start-up and transfer parameters are measured on the target).  An
 * MPIRIO program, built against the MPI transport of libmpirio (tgc-calib-openmpi,
 * tgc-calib-mpich) and started by tgc calibrate under mpirun -np P, so that what it
 * measures is the cost of the calls the generated programs make, MPIRIO over MPI.
 *
 *   tgc-calib-IMPL [REPS]
 *
 * tgc-calib-threads (-DTGC_CALIB_THREADS, against the shared-memory transport) runs
 * the same measurements as P threads of one process: `tgc-calib-threads REPS P`.
 *
 * Its sends are in place (MPIRIO_SEND_IN_PLACE=1), as those of the generated programs
 * are (MPIRIO_RUN_SEND_IN_PLACE).
 *
 * Ranks 0 and 1 measure, the others finalise at once (they would only compete for the
 * CPUs).  Rank 0 prints, times in seconds, medians of REPS repetitions (default 200):
 *
 *   size P / local L            ranks, and ranks of rank 0's board (MPIRIO_COMM_LOCAL)
 *   overhead send|post|wait|recv T   MPIRIO_Isend of 8 bytes; MPIRIO_Irecv; MPIRIO_Wait
 *                               and MPIRIO_Recv on a message that has arrived
 *   pingpong B T                half the round trip of B bytes (Send, Recv), 8 B to 256
 * KiB stream B T                  per message of 16 back-to-back Isends of B bytes (4, 16
 * and 64 KiB: the sizes of generated programs' messages) into posted receives
 */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "stats.h"

/* the calling rank, asked each time: tgc-calib-threads runs the ranks as fibers that may
 * resume on another thread, so a thread-local would be another rank's */
static int
my_rank(void)
{
    int r;
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &r);
    return r;
}

/* ranks 0 and 1 meet: neither goes on before the other has arrived */
static void
sync2(void)
{
    char b = 0;
    int peer = 1 - my_rank();
    if (my_rank() == 0) {
        MPIRIO_Send(&b, 0, MPIRIO_BYTE, peer, 99, MPIRIO_COMM_WORLD);
        MPIRIO_Recv(&b, 0, MPIRIO_BYTE, peer, 99, MPIRIO_COMM_WORLD,
                    MPIRIO_STATUS_IGNORE);
    } else {
        MPIRIO_Recv(&b, 0, MPIRIO_BYTE, peer, 99, MPIRIO_COMM_WORLD,
                    MPIRIO_STATUS_IGNORE);
        MPIRIO_Send(&b, 0, MPIRIO_BYTE, peer, 99, MPIRIO_COMM_WORLD);
    }
}

/* the time since the message of rank 0 surely arrived: it sent, waited, and met us */
static void
overheads(int reps, unsigned char *buf)
{
    double *v = malloc(sizeof *v * (size_t)reps);
    const char *what[] = {"send", "post", "wait", "recv"};
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < reps; i++) {
            MPIRIO_Request r;
            sync2();
            double t0 = 0, t1 = 0;
            if (k == 0) { /* Isend */
                if (my_rank() == 0) {
                    t0 = ir_wall_seconds();
                    MPIRIO_Isend(buf, 8, MPIRIO_BYTE, 1, 1, MPIRIO_COMM_WORLD, &r);
                    t1 = ir_wall_seconds();
                    MPIRIO_Wait(&r, MPIRIO_STATUS_IGNORE);
                } else
                    MPIRIO_Recv(buf, 8, MPIRIO_BYTE, 0, 1, MPIRIO_COMM_WORLD,
                                MPIRIO_STATUS_IGNORE);
            } else if (k == 1) { /* Irecv */
                if (my_rank() == 1) {
                    t0 = ir_wall_seconds();
                    MPIRIO_Irecv(buf, 8, MPIRIO_BYTE, 0, 1, MPIRIO_COMM_WORLD, &r);
                    t1 = ir_wall_seconds();
                    sync2();
                    MPIRIO_Wait(&r, MPIRIO_STATUS_IGNORE);
                } else {
                    sync2();
                    MPIRIO_Send(buf, 8, MPIRIO_BYTE, 1, 1, MPIRIO_COMM_WORLD);
                }
            } else if (k == 2) { /* Wait on an arrived message */
                if (my_rank() == 1) {
                    MPIRIO_Irecv(buf, 8, MPIRIO_BYTE, 0, 1, MPIRIO_COMM_WORLD, &r);
                    sync2();
                    sync2();
                    t0 = ir_wall_seconds();
                    MPIRIO_Wait(&r, MPIRIO_STATUS_IGNORE);
                    t1 = ir_wall_seconds();
                } else {
                    sync2();
                    MPIRIO_Send(buf, 8, MPIRIO_BYTE, 1, 1, MPIRIO_COMM_WORLD);
                    sync2();
                }
            } else { /* Recv of an arrived message */
                if (my_rank() == 1) {
                    sync2();
                    t0 = ir_wall_seconds();
                    MPIRIO_Recv(buf, 8, MPIRIO_BYTE, 0, 1, MPIRIO_COMM_WORLD,
                                MPIRIO_STATUS_IGNORE);
                    t1 = ir_wall_seconds();
                } else {
                    MPIRIO_Send(buf, 8, MPIRIO_BYTE, 1, 1, MPIRIO_COMM_WORLD);
                    sync2();
                }
            }
            v[i] = t1 - t0;
        }
        /* the measuring rank tells rank 0, which prints */
        double m = stats_median(v, reps);
        int who = k == 0 ? 0 : 1;
        if (who == 1 && my_rank() == 1)
            MPIRIO_Send(&m, 1, MPIRIO_DOUBLE, 0, 2, MPIRIO_COMM_WORLD);
        if (who == 1 && my_rank() == 0)
            MPIRIO_Recv(&m, 1, MPIRIO_DOUBLE, 1, 2, MPIRIO_COMM_WORLD,
                        MPIRIO_STATUS_IGNORE);
        if (my_rank() == 0)
            printf("overhead %s %.9e\n", what[k], m);
    }
    free(v);
}

static void
pingpong(int reps, unsigned char *buf)
{
    static const int sizes[] = {8,    64,    256,   1024,  2048,   4096,
                                8192, 16384, 32768, 65536, 131072, 262144};
    double *v = malloc(sizeof *v * (size_t)reps);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int b = sizes[s], n = b >= 262144 ? (reps + 9) / 10 : reps;
        sync2();
        for (int i = 0; i < n; i++) {
            double t0 = ir_wall_seconds();
            if (my_rank() == 0) {
                MPIRIO_Send(buf, b, MPIRIO_BYTE, 1, 3, MPIRIO_COMM_WORLD);
                MPIRIO_Recv(buf, b, MPIRIO_BYTE, 1, 3, MPIRIO_COMM_WORLD,
                            MPIRIO_STATUS_IGNORE);
            } else {
                MPIRIO_Recv(buf, b, MPIRIO_BYTE, 0, 3, MPIRIO_COMM_WORLD,
                            MPIRIO_STATUS_IGNORE);
                MPIRIO_Send(buf, b, MPIRIO_BYTE, 0, 3, MPIRIO_COMM_WORLD);
            }
            v[i] = (ir_wall_seconds() - t0) / 2;
        }
        if (my_rank() == 0)
            printf("pingpong %d %.9e\n", b, stats_median(v, n));
    }
    free(v);
}

static void
stream(int reps, unsigned char *buf)
{
    enum { K = 16 };
    static const int sizes[] = {4096, 16384, 65536};
    double *v = malloc(sizeof *v * (size_t)reps);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int b = sizes[s], n = (reps + 4) / 5;
        for (int i = 0; i < n; i++) {
            MPIRIO_Request r[K];
            char ack = 0;
            if (my_rank() == 1)
                for (int k = 0; k < K; k++)
                    MPIRIO_Irecv(buf + (size_t)k * (size_t)b, b, MPIRIO_BYTE, 0, 4,
                                 MPIRIO_COMM_WORLD, &r[k]);
            sync2();
            double t0 = ir_wall_seconds();
            if (my_rank() == 0) {
                for (int k = 0; k < K; k++)
                    MPIRIO_Isend(buf + (size_t)k * (size_t)b, b, MPIRIO_BYTE, 1, 4,
                                 MPIRIO_COMM_WORLD, &r[k]);
                MPIRIO_Waitall(K, r, MPIRIO_STATUSES_IGNORE);
                MPIRIO_Recv(&ack, 0, MPIRIO_BYTE, 1, 5, MPIRIO_COMM_WORLD,
                            MPIRIO_STATUS_IGNORE);
            } else {
                MPIRIO_Waitall(K, r, MPIRIO_STATUSES_IGNORE);
                MPIRIO_Send(&ack, 0, MPIRIO_BYTE, 0, 5, MPIRIO_COMM_WORLD);
            }
            v[i] = (ir_wall_seconds() - t0) / K;
        }
        if (my_rank() == 0)
            printf("stream %d %.9e\n", b, stats_median(v, n));
    }
    free(v);
}

/* after MPIRIO_Init: the measurements of this rank; its exit status */
static int
measure(int reps)
{
    int size, local;
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &size);
    MPIRIO_Comm_size(MPIRIO_COMM_LOCAL, &local);
    if (size < 2) {
        fprintf(stderr, "tgc-calib: needs at least 2 ranks\n");
        MPIRIO_Finalize();
        return 1;
    }
    if (my_rank() >= 2) {
        MPIRIO_Finalize();
        return 0;
    }
    unsigned char *buf = calloc(16, 1048576);
    if (!buf)
        return 1;
    if (my_rank() == 0)
        printf("size %d\nlocal %d\n", size, local);
    overheads(reps, buf);
    pingpong(reps, buf);
    stream(reps, buf);
    free(buf);
    fflush(stdout);
    MPIRIO_Finalize();
    return 0;
}

#ifdef TGC_CALIB_THREADS
/* tgc-calib-threads REPS P: the same on the shared-memory transport, P threads of one
 * process (MPIRIO_Run, sends in place as generated programs make them) */
static int reps_all, status[2];

static void
dsp(int r, void *arg)
{
    (void)arg;
    MPIRIO_Init(NULL, NULL);
    int st = measure(reps_all);
    if (r < 2)
        status[r] = st;
}

int
main(int argc, char **argv)
{
    reps_all = argc > 1 ? atoi(argv[1]) : 200;
    int n = argc > 2 ? atoi(argv[2]) : 2;
    if (reps_all < 5)
        reps_all = 5;
    if (n < 2 || n > 4096) {
        fprintf(stderr, "tgc-calib-threads: 2 to 4096 threads, not %d\n", n);
        return 1;
    }
    /* every message eager (staged when no receive is posted), as MPI's small ones:
       the measurements' sends do not wait for their receivers */
    setenv("MPIRIO_PLATFORM", "abstract", 0);
    int rc = MPIRIO_Run(n, NULL, MPIRIO_RUN_SEND_IN_PLACE, dsp, NULL);
    return rc != 0 || status[0] != 0 || status[1] != 0;
}
#else
int
main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 200;
    if (reps < 5)
        reps = 5;
    /* the sends of generated programs are in place (MPIRIO_RUN_SEND_IN_PLACE): measure
       those; the buffers here are not written while a send is out */
    setenv("MPIRIO_SEND_IN_PLACE", "1", 1);
    MPIRIO_Init(&argc, &argv);
    return measure(reps);
}
#endif
