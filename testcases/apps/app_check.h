/*
 * app_check.h - what the output checks of the applications share (app_check.c): reading
 * a graph's params and a program's output files, and the verdict.
 *
 * Each application's check.c is a program `check GRAPH OUTDIR`: it reads the task graph
 * (for its params and iterations), the files the sinks wrote into OUTDIR (the parallel
 * program's --output-dir, DIR/out-parallel of `tgc run --keep DIR`), checks them against
 * its own computation, prints one line per finding and exits 0 when they pass, 1 when
 * not.
 */
#ifndef APP_CHECK_H
#define APP_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* What each application's check.c defines: the checks of the files in outdir, once
 * app_check.c's main has checked its arguments and loaded the graph; returns
 * app_finish(NAME). */
int app_check(const char *outdir);

/* Reads the graph or exits 1 with a message. */
void app_load_graph(const char *path);
/* The iterations of the graph. */
int64_t app_iterations(void);
/* The integer param `name` of task `id`; exits 1 when there is none. */
int64_t app_param(const char *id, const char *name);
/* The real (or integer) param `name` of task `id`; exits 1 when there is none. */
double app_real(const char *id, const char *name);
/* The number of tasks whose id begins with prefix. */
int app_count_tasks(const char *prefix);
/* The whole file DIR/NAME (malloc'd, NUL-terminated past *len), or exits 1. */
char *app_read_file(const char *dir, const char *name, size_t *len);
/* The numbers the file DIR/NAME begins with, separated by white space (malloc'd, *n of
 * them), or exits 1 when it cannot be read. */
double *app_read_values(const char *dir, const char *name, int64_t *n);
/* A failed check when file `name` has n values, not want. */
void app_check_count(const char *name, int64_t n, int64_t want);
/* Records a failed check (printf-style message); app_finish then exits 1. */
void app_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "NAME: ok" or "NAME: FAILED (n checks)" and exits 0 or 1. */
int app_finish(const char *name);

#endif
