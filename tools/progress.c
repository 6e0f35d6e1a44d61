/*
 * tools/progress.c - the progress line (tools/progress.h).  A report names its step; the
 * line appears once the same step has lasted PROGRESS_DELAY seconds and is redrawn at
 * most ten times a second, as "tgc: STEP 45% (450/1000), 3 s" (or without the counts when
 * the total is unknown), and erased when the step changes or ends.  Reports cost a clock
 * read when the line is off-screen; nothing is drawn unless stderr is a terminal.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ir.h"
#include "progress.h"

#define PROGRESS_DELAY 1.0

static bool enabled;
static char step_name[64];
static double step_start, last_draw;
static bool shown;
static pthread_t owner; /* the thread that draws: a report from another is dropped */

void
progress_end(void)
{
    if (shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    shown = false;
    step_name[0] = 0;
}

void
progress_step(const char *step, int64_t done, int64_t total)
{
    if (!enabled || !pthread_equal(pthread_self(), owner))
        return;
    double t = ir_wall_seconds();
    if (strncmp(step, step_name, sizeof step_name - 1) != 0) {
        progress_end();
        snprintf(step_name, sizeof step_name, "%s", step);
        step_start = t;
        last_draw = 0;
    }
    if (t - step_start < PROGRESS_DELAY || t - last_draw < 0.1)
        return;
    last_draw = t;
    if (total > 0)
        fprintf(stderr, "\r\033[Ktgc: %s %d%% (%lld/%lld), %.0f s", step_name,
                (int)(100 * (done < total ? done : total) / total), (long long)done,
                (long long)total, t - step_start);
    else
        fprintf(stderr, "\r\033[Ktgc: %s, %.0f s", step_name, t - step_start);
    fflush(stderr);
    shown = true;
}

bool
progress_enabled(void)
{
    return enabled;
}

void
progress_init(bool json)
{
    enabled = !json && isatty(2);
    owner = pthread_self();
    ir_progress_hook = enabled ? progress_step : NULL;
}
