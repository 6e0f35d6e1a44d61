/*
 * tools/output.h - the one module through which tgc writes files (tools/output.c, the
 * rules in docs/cli.md, "Output files").
 */
#ifndef TGC_OUTPUT_H
#define TGC_OUTPUT_H

#include "ir.h"

/* Writes data to path ("-" = standard output), whole or not at all: a new path or a
 * regular file (also at the end of symbolic links) through a temporary sibling renamed
 * over it; a character device or a FIFO written through; tgc's own standard output or
 * error written through its descriptor; anything else refused.  Returns 0, or 1 after
 * printing "tgc: error: cannot write "PATH": WHY". */
int out_write_file(const char *path, const void *data, size_t len);
/* Whether out_write_file could write path (checked for every output of a command before
 * the first is written).  0, or 1 after printing the error. */
int out_check(const char *path);
/* "DIR/NAME", malloc'd (never NULL). */
char *out_path_join(const char *dir, const char *name);

/* The lock of a project folder: created when missing, then locked (flock), so that two
 * tgc do not write or run in one folder at once.  NULL after reporting (another tgc holds
 * it). */
typedef struct OutLock OutLock;
OutLock *out_lock(const char *dir, Diag *d);
void out_unlock(OutLock *l); /* NULL is fine */
/* Writes project p into dir: a new dir built beside it and renamed into place; an
 * existing one locked (unless held, the caller's lock of it), checked name by name (a
 * directory or a link where a file goes is refused; a file tgc did not write, or that was
 * changed since, needs force), written into a temporary folder inside it, then renamed
 * into place; files of the earlier project that this one lacks are removed when
 * unchanged.  Records what it wrote in dir/.tgc-project.  Returns 0, or -1 after
 * reporting, dir as it was. */
int out_project(const CgProject *p, const char *dir, bool force, OutLock *held, Diag *d);

#endif
