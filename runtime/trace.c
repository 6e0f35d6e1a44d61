/* trace.c: the Chrome trace-event file (opens in Perfetto and chrome://tracing).
 *
 * The bottom of the runtime: the kernel writes the DSPs' busy and blocked spans, the
 * fabric one span per packet transmission, the run the names of the tracks. The file
 * is valid JSON whatever way the process ends: trace_close writes the closing
 * brackets, an exit handler does so when the program calls exit() or MPIRIO_Abort
 * during the run, and trace_crash (async-signal-safe: the run's handler of a DSP's
 * fault calls it) writes what was traced and the brackets. So the events go through
 * a buffer of this file, not stdio's: each whole event is put in it and counted only
 * then, and written out with write(2) when it fills. Names go through jansson, so any
 * byte of a span name (a task name of the user's) gives valid JSON. */
#include "sim.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int trace_active;
static int tfd = -1; /* the file, or -1 */
static int tbad;     /* a write failed */
static char tbuf[1 << 16];
static size_t tlen; /* bytes of whole events in tbuf, not yet written */
static char *tpath;
static double tmhz;
static int twritten; /* events so far: the separator before the next */

static void
at_exit(void)
{
    trace_close();
}

/* all of buf to the file (async-signal-safe); a failure is remembered in tbad */
static void
put_raw(const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(tfd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            tbad = 1;
            return;
        }
        buf += w;
        n -= (size_t)w;
    }
}

static void
flush(void)
{
    put_raw(tbuf, tlen);
    tlen = 0;
}

/* one whole event (or the file's head) into the buffer: counted once it is all in, so
 * that trace_crash never writes half of one */
static void
put(const char *ev, size_t n)
{
    if (tlen + n > sizeof tbuf)
        flush();
    if (n > sizeof tbuf) {
        put_raw(ev, n);
        return;
    }
    memcpy(tbuf + tlen, ev, n);
    atomic_signal_fence(memory_order_seq_cst); /* the bytes before the count */
    tlen += n;
}

int
trace_open(const char *path, int mhz, char *err, size_t errlen)
{
    static int registered;
    tfd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (tfd < 0) {
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
    tbad = 0;
    tlen = 0;
    trace_active = 1;
    static const char head[] = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    put(head, sizeof head - 1);
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

/* the event formatted into ev (its size n, room for any: the name is at most 511
 * bytes) to the buffer */
static void
put_event(const char *ev, size_t n, int len)
{
    if (len < 0 || (size_t)len >= n)
        tbad = 1; /* not written: the file is reported as not written */
    else
        put(ev, (size_t)len);
}

void
trace_name(int pid, int tid, const char *what, const char *name)
{
    if (tfd < 0)
        return;
    char q[512], ev[1024];
    put_event(ev, sizeof ev,
              snprintf(ev, sizeof ev,
                       "%s{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{"
                       "\"name\":%s}}",
                       twritten++ ? ",\n" : "", pid, tid, what,
                       quote(name, q, sizeof q)));
}

void
trace_span(int pid, int tid, const char *name, Cycles t0, Cycles t1, const char *cat,
           const char *args)
{
    if (tfd < 0)
        return;
    char q[512], ev[1280];
    put_event(ev, sizeof ev,
              snprintf(ev, sizeof ev,
                       "%s{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":%s,\"cat\":\"%s\","
                       "\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"cycle\":%lld,\"cycles\":%lld"
                       "%s%s}}",
                       twritten++ ? ",\n" : "", pid, tid, quote(name, q, sizeof q), cat,
                       (double)t0 / tmhz, (double)(t1 - t0) / tmhz, t0, t1 - t0,
                       args ? "," : "", args ? args : ""));
}

/* Flow events of the trace-event format's first kind ("s" and "f", the end binding to
 * the span that encloses it, "bp":"e"), which Perfetto and chrome://tracing draw as an
 * arrow. */
void
trace_flow(int end, unsigned long long id, int tid, Cycles t)
{
    if (tfd < 0)
        return;
    char ev[256];
    put_event(ev, sizeof ev,
              snprintf(ev, sizeof ev,
                       "%s{\"ph\":\"%s\",%s\"id\":%llu,\"pid\":0,\"tid\":%d,"
                       "\"name\":\"message\",\"cat\":\"message\",\"ts\":%.3f}",
                       twritten++ ? ",\n" : "", end ? "f" : "s",
                       end ? "\"bp\":\"e\"," : "", id, tid, (double)t / tmhz));
}

static const char tail[] = "\n]}\n";

void
trace_crash(void)
{
    if (tfd < 0)
        return;
    flush();
    put_raw(tail, sizeof tail - 1);
    close(tfd);
    tfd = -1; /* the rest of the run (if the signal's action lets it go on) writes nothing
               */
    trace_active = 0;
}

int
trace_close(void)
{
    if (tfd < 0)
        return 0;
    flush();
    put_raw(tail, sizeof tail - 1);
    int bad = tbad;
    if (close(tfd) != 0)
        bad = 1;
    if (bad)
        fprintf(stderr, "mpirio: cannot write the trace \"%s\"\n", tpath);
    tfd = -1;
    trace_active = 0;
    free(tpath);
    tpath = NULL;
    return bad ? -1 : 0;
}
