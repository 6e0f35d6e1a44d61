/* platform_load.c: the platform a run simulates (docs/design.md section 2): a preset, a
 * platform file read by the one tgc-platform/1 reader (platform/read.c, tgc's), or the
 * platform that fits the number of DSPs.  The messages are the reader's, in the form
 * tgc prints them (pd_format_message), so that a file refused by one is refused by the
 * other with the same words (tests/platform_agree.sh). */
#include "platform_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct Messages {
    char *buf;
    size_t n, len;
} Messages;

/* one message a line into the caller's buffer (cut short if it is full) */
static void
collect(void *ctx, const char *file, const char *pointer, int line, int col,
        const char *msg)
{
    Messages *m = ctx;
    if (m->len && m->len + 1 < m->n)
        m->buf[m->len++] = '\n';
    if (m->len + 1 >= m->n)
        return;
    size_t need =
        pd_format_message(m->buf + m->len, m->n - m->len, file, pointer, line, col, msg);
    m->len = m->len + need < m->n ? m->len + need : m->n - 1;
}

/* the file as text, or NULL with the message tgc gives for it */
static char *
read_file(const char *path, size_t *len, const PdSink *sink)
{
    char why[200];
    FILE *f = fopen(path, "rb");
    struct stat st;
    const char *fail = NULL;
    char *buf = NULL;
    if (!f)
        fail = strerror(errno);
    else if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
        fail = "is a directory";
    size_t cap = 65536, n = 0, got;
    if (!fail && !(buf = malloc(cap)))
        fail = "out of memory";
    while (!fail && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        char *b = cap - n < 2 ? realloc(buf, cap *= 2) : buf;
        if (!b)
            fail = "out of memory";
        else
            buf = b;
    }
    if (!fail && ferror(f))
        fail = strerror(errno);
    if (f)
        fclose(f);
    if (!fail) {
        buf[n] = 0;
        *len = n;
        return buf;
    }
    free(buf);
    snprintf(why, sizeof why, "cannot read \"%s\": %s", path, fail);
    sink->error(sink->ctx, NULL, NULL, 0, 0, why);
    return NULL;
}

int
plat_load(PlatDesc *p, const char *spec, int ndsps, char *err, size_t n)
{
    Messages m = {err, n, 0};
    PdSink sink = {collect, &m};
    if (n)
        err[0] = 0;
    memset(p, 0, sizeof *p);
    if (!spec || !*spec) {
        pd_fit(p, ndsps);
        return 0;
    }
    if (strcmp(spec, "abstract") == 0) {
        pd_abstract(p, ndsps);
    } else if (pd_preset(p, spec) != 0) {
        if (!pd_is_path(spec)) {
            pd_unknown_platform(spec, NULL, NULL, &sink);
            return -1;
        }
        size_t len;
        char *text = read_file(spec, &len, &sink);
        if (!text)
            return -1;
        int rc = pd_read_text(text, len, spec, &sink, p);
        free(text);
        if (rc != 0)
            return -1;
    }
    if (p->model == PD_ABSTRACT) {
        p->nboards = 1;
        p->dsps_per_board = p->ndsps;
    }
    return 0;
}
