/*
 * bench/bench_util.h - what the benchmark programs that run other programs share: the
 * median of repetitions, and running a command with its output in files.
 */
#ifndef TGC_BENCH_UTIL_H
#define TGC_BENCH_UTIL_H

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>

extern char **environ;

static inline int
bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0 .. n), n > 0 (sorts v). */
static inline double
bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs argv (searched in PATH) with stdout to `out` and stderr to `err` (NULL: /dev/null)
 * and waits for it: its wait status, -1 when it did not start. */
static inline int
bench_spawn(char *const *argv, const char *out, const char *err)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err ? err : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int st = -1;
    if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0 &&
        waitpid(pid, &st, 0) != pid)
        st = -1;
    posix_spawn_file_actions_destroy(&fa);
    return st;
}

#endif
