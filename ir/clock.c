/*
 * ir/clock.c - the two clocks of tgc: the wall clock of time limits and progress, and
 * the process's CPU time of the benchmarks and of --algo=exact's limit.
 */
#include <time.h>

#include "ir.h"

static double
seconds(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double
ir_wall_seconds(void)
{
    return seconds(CLOCK_MONOTONIC);
}

double
ir_cpu_seconds(void)
{
    return seconds(CLOCK_PROCESS_CPUTIME_ID);
}
