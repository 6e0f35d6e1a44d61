/*
 * tools/progress.h - the progress line of tgc (tools/progress.c): on a terminal, a step
 * that has taken more than a second (the schedule search, BFCO, emission, the build and
 * the runs of tgc run) shows one line on stderr, rewritten in place and erased when the
 * step ends.  Never with --json, never when stderr is not a terminal.
 */
#ifndef TGC_PROGRESS_H
#define TGC_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* Turns the line on when stderr is a terminal and json is false (cli_parse calls it). */
void progress_init(bool json);
/* Reports a step of the driver itself (the passes report through ir_progress). */
void progress_step(const char *step, int64_t done, int64_t total);
/* Whether the line is on. */
bool progress_enabled(void);
/* Erases the line, if one is shown; the next report starts a new step. */
void progress_end(void);

#endif
