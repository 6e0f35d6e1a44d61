/*
 * ir/diag.c - diagnostics as data.
 *
 * Library code reports errors here and returns; only tools/ decides the exit status. Each
 * message is one line:  FILE:LINE:COL: error: msg   (positions known, e.g. JSON syntax)
 *                       FILE: /json/pointer: error: msg   (semantic errors)
 *                       FILE: error: msg
 * Messages are lowercase, without a final period, names in double quotes.  A message
 * stays one line whatever it quotes: control characters in it, in the file name or in the
 * pointer (a task name with a newline, a JSON syntax error quoting the input) are written
 * as C escapes (\n, \t, \r, \xNN).
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

void (*ir_progress_hook)(const char *step, int64_t done, int64_t total);
bool ir_usage_error;

struct Diag {
    char *buf; /* all messages so far */
    size_t len, cap;
    size_t flushed; /* bytes of buf already written by diag_flush */
    int nerrors;
};

Diag *
diag_new(void)
{
    return ir_xcalloc(1, sizeof(Diag));
}

void
diag_free(Diag *d)
{
    if (!d)
        return;
    free(d->buf);
    free(d);
}

static void
append(Diag *d, const char *s, size_t n)
{
    if (d->len + n + 1 > d->cap) {
        size_t cap = d->cap ? d->cap : 256;
        while (cap < d->len + n + 1)
            cap *= 2;
        d->buf = ir_xrealloc(d->buf, cap, 1);
        d->cap = cap;
    }
    memcpy(d->buf + d->len, s, n);
    d->len += n;
    d->buf[d->len] = 0;
}

/* s[0..n) with every control character as a C escape (ir_ctl_escape), so that it cannot
 * end the line. */
static void
append_escaped(Diag *d, const char *s, size_t n)
{
    size_t from = 0;
    char esc[5];
    for (size_t i = 0; i < n; i++) {
        int k = ir_ctl_escape((unsigned char)s[i], esc);
        if (!k)
            continue;
        append(d, s + from, i - from);
        append(d, esc, (size_t)k);
        from = i + 1;
    }
    append(d, s + from, n - from);
}

static void appendf(Diag *d, const char *fmt, ...) TGC_PRINTF(2, 3);
static void appendv(Diag *d, const char *fmt, va_list ap) TGC_PRINTF(2, 0);

/* The formatted text, escaped (append_escaped). */
static void
appendv(Diag *d, const char *fmt, va_list ap)
{
    char small[512];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        ice("bad format \"%s\"", fmt);
    }
    if ((size_t)n < sizeof small) {
        append_escaped(d, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (!big)
            ice("out of memory");
        vsnprintf(big, (size_t)n + 1, fmt, ap2);
        append_escaped(d, big, (size_t)n);
        free(big);
    }
    va_end(ap2);
}

static void
appendf(Diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    appendv(d, fmt, ap);
    va_end(ap);
}

void
diag_vreport(Diag *d, DiagLevel lv, const Loc *loc, const char *fmt, va_list ap)
{
    static const char *const names[] = {"error", "warning", "note"};
    if (loc && loc->file) {
        if (loc->line > 0 && loc->col > 0)
            appendf(d, "%s:%d:%d: ", loc->file, loc->line, loc->col);
        else if (loc->line > 0)
            appendf(d, "%s:%d: ", loc->file, loc->line);
        else if (loc->pointer)
            appendf(d, "%s: %s: ", loc->file, loc->pointer[0] ? loc->pointer : "/");
        else
            appendf(d, "%s: ", loc->file);
    } else if (loc && loc->pointer) {
        appendf(d, "%s: ", loc->pointer[0] ? loc->pointer : "/");
    }
    append(d, names[lv], strlen(names[lv]));
    append(d, ": ", 2);
    appendv(d, fmt, ap);
    append(d, "\n", 1);
    if (lv == DIAG_ERROR)
        d->nerrors++;
}

void
diag_error(Diag *d, const Loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

void
diag_warning(Diag *d, const Loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
}

void
diag_note(Diag *d, const Loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_NOTE, loc, fmt, ap);
    va_end(ap);
}

int
diag_errors(const Diag *d)
{
    return d->nerrors;
}

const char *
diag_text(const Diag *d)
{
    return d->buf ? d->buf : "";
}

void
diag_flush(Diag *d, FILE *f)
{
    if (d->len > d->flushed) {
        fwrite(d->buf + d->flushed, 1, d->len - d->flushed, f);
        fflush(f);
        d->flushed = d->len;
    }
}

void
diag_clear(Diag *d)
{
    d->len = d->flushed = 0;
    d->nerrors = 0;
    if (d->buf)
        d->buf[0] = 0;
}

const char *
diag_suggest(const char *word, const char *const *cands, size_t ncands)
{
    return pd_suggest(word, cands,
                      ncands); /* the platform reader's, platform/presets.c */
}

void
ice_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "tgc: internal compiler error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nplease report this with the input that caused it\n", stderr);
    abort();
}
