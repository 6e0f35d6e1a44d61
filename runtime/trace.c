/* trace.c: the Chrome trace-event file (opens in Perfetto and chrome://tracing).
 *
 * The bottom of the runtime: the kernel writes the DSPs' busy and blocked spans, the
 * fabric one span per packet transmission, the run the names of the tracks. The file
 * is valid JSON whatever way the process ends: trace_close writes the closing
 * brackets, and an exit handler does so when the program calls exit() or MPIRIO_Abort
 * during the run. Names go through jansson, so any byte of a span name (a task name of
 * the user's) gives valid JSON. */
#include "sim.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

int trace_active;
static FILE *tf;
static char *tpath;
static double tmhz;
static int twritten; /* events so far: the separator before the next */

static void
at_exit(void)
{
    trace_close();
}

int
trace_open(const char *path, int mhz, char *err, size_t errlen)
{
    static int registered;
    tf = fopen(path, "w");
    if (!tf) {
        snprintf(err, errlen, "cannot write the trace \"%s\": %s", path, strerror(errno));
        return -1;
    }
    tpath = strdup(path);
    if (!tpath)
        abort();
    if (!registered)
        registered = atexit(at_exit) == 0;
    tmhz = mhz;
    twritten = 0;
    trace_active = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", tf);
    return 0;
}

/* the JSON string of s, quoted, into buf; a string that is not UTF-8 becomes "?" */
static const char *
quote(const char *s, char *buf, size_t n)
{
    json_t *j = json_string(s);
    size_t k = j ? json_dumpb(j, buf, n - 1, JSON_ENCODE_ANY) : 0;
    json_decref(j);
    if (k == 0 || k >= n - 1)
        return "\"?\"";
    buf[k] = 0;
    return buf;
}

void
trace_name(int pid, int tid, const char *what, const char *name)
{
    char q[512];
    fprintf(
        tf,
        "%s{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":%s}}",
        twritten++ ? ",\n" : "", pid, tid, what, quote(name, q, sizeof q));
}

void
trace_span(int pid, int tid, const char *name, Cycles t0, Cycles t1, const char *cat)
{
    char q[512];
    fprintf(tf,
            "%s{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":%s,\"cat\":\"%s\","
            "\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"cycle\":%lld,\"cycles\":%lld}}",
            twritten++ ? ",\n" : "", pid, tid, quote(name, q, sizeof q), cat,
            (double)t0 / tmhz, (double)(t1 - t0) / tmhz, t0, t1 - t0);
}

int
trace_close(void)
{
    if (!tf)
        return 0;
    fputs("\n]}\n", tf);
    int bad = ferror(tf);
    if (fclose(tf) != 0)
        bad = 1;
    if (bad)
        fprintf(stderr, "mpirio: cannot write the trace \"%s\"\n", tpath);
    tf = NULL;
    trace_active = 0;
    free(tpath);
    tpath = NULL;
    return bad ? -1 : 0;
}
