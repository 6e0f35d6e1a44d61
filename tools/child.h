/*
 * tools/child.h - the child processes of tgc's commands (tools/child.c): argument
 * vectors, starting a program with its output to files, and waiting for it, with the
 * progress line or with a time limit.  tgc run builds and runs the programs with these,
 * tgc calibrate its measurements under mpirun.
 */
#ifndef TGC_CHILD_H
#define TGC_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A growing NULL-terminated argv (or environment) of strings it owns. */
typedef struct Argv {
    char **v;
    int n, cap;
} Argv;

/* Appends a copy of s (NULL as ""). */
void argv_push(Argv *a, const char *s);
/* Appends each blank-separated word of text. */
void argv_words(Argv *a, const char *text);
void argv_free(Argv *a);

typedef struct Child {
    pid_t pid;
    bool started;
} Child;

/* Starts argv[0] (searched in PATH) with standard input from /dev/null and stdout and
 * stderr to the files out and err (truncated); env NULL = ours.  With `group` the child
 * leads a process group of its own, so that mpirun and the ranks it starts end together.
 */
Child child_start(char *const *argv, const char *out, const char *err, char *const *env,
                  bool group);
/* The exit status of the child, or -1 when it did not start or died of a signal.  With
 * the progress line on, waits by polling (every 50 ms) and reports `step`. */
int child_finish(Child c, const char *step);
/* The exit status of a child started with `group`, -1 as child_finish; the group is
 * killed when the child ends (a rank mpirun left behind) or after `limit` seconds (then
 * *timed_out is set). */
int child_finish_within(Child c, double limit, bool *timed_out);
/* Kills (SIGKILL) and reaps every child started and not yet waited for, with its group
 * when it leads one; async-signal-safe (an interrupted tgc run, tools/cmd_run.c). */
void child_kill_all(void);
/* The whole file at path (what a child wrote), NUL-terminated past *len (len may be
 * NULL), malloc'd; NULL when it cannot be opened. */
char *child_read_file(const char *path, size_t *len);

#endif
