/*
 * platform/fields.c - reading JSON values, written once for every reader: the
 * tgc-platform/1 reader (read.c) and tgc's readers of graphs and schedules
 * (frontend/reader.c) parse, check and report through these, so a syntax error, a wrong
 * type, a fraction, a value out of range or an unknown field reads the same in every
 * file tgc and libmpirio accept.
 *
 * The pd_*_value, _text and _field functions return the message, a malloc'd string the
 * caller frees (NULL where it says so); the pd_json_ ones report it through the reader's
 * sink.  Out of memory ends the program with a message, as everywhere in platform/.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

char *
pd_vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!s) {
        va_end(ap2);
        fputs("platform: out of memory\n", stderr);
        abort();
    }
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

char *
pd_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = pd_vformat(fmt, ap);
    va_end(ap);
    return s;
}

char *
pd_real_text(double x)
{
    for (int prec = 1; prec < 17; prec++) {
        char *s = pd_format("%.*g", prec, x);
        if (strtod(s, NULL) == x)
            return s;
        free(s);
    }
    return pd_format("%.17g", x);
}

char *
pd_value_text(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return pd_format("an object");
    case JSON_ARRAY:
        return pd_format("an array");
    case JSON_STRING:
        return pd_format("a string");
    case JSON_INTEGER:
        return pd_format("%" JSON_INTEGER_FORMAT, json_integer_value(v));
    case JSON_REAL:
        return pd_real_text(json_real_value(v));
    case JSON_TRUE:
        return pd_format("true");
    case JSON_FALSE:
        return pd_format("false");
    case JSON_NULL:
        return pd_format("null");
    }
    return pd_format("a value");
}

char *
pd_pointer_key(const char *ptr, const char *key)
{
    size_t n = strlen(ptr), extra = 0;
    for (const char *k = key; *k; k++)
        extra += *k == '~' || *k == '/';
    char *s = malloc(n + 1 + strlen(key) + extra + 1);
    if (!s) {
        fputs("platform: out of memory\n", stderr);
        abort();
    }
    char *w = s;
    memcpy(w, ptr, n);
    w += n;
    *w++ = '/';
    for (const char *k = key; *k; k++) {
        if (*k == '~' || *k == '/') {
            *w++ = '~';
            *w++ = *k == '~' ? '0' : '1';
        } else {
            *w++ = *k;
        }
    }
    *w = 0;
    return s;
}

/* "WHAT must be ..., got " + the value's text */
static char *
got(const char *what, const char *must, char *value)
{
    char *s = pd_format("%s %s, got %s", what, must, value);
    free(value);
    return s;
}

char *
pd_int_value(const json_t *v, const char *what, int64_t *out)
{
    if (json_is_integer(v)) {
        *out = json_integer_value(v);
        return NULL;
    }
    if (!json_is_real(v))
        return got(what, "must be an integer", pd_value_text(v));
    double x = json_real_value(v);
    /* Integral reals in the int64 range are accepted (1e6); 2^63 is exact in a double. */
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
        return got(what, "is out of range", pd_real_text(x));
    if ((double)(int64_t)x != x)
        return got(what, "must be a whole number", pd_real_text(x));
    *out = (int64_t)x;
    return NULL;
}

char *
pd_string_value(const json_t *v, const char *what, const char **out)
{
    if (json_is_string(v)) {
        *out = json_string_value(v);
        return NULL;
    }
    return got(what, "must be a string", pd_value_text(v));
}

char *
pd_range_text(const char *what, int64_t v, int64_t lo, int64_t hi)
{
    if (v < lo)
        return pd_format("%s must be >= %" PRId64 ", got %" PRId64, what, lo, v);
    if (v > hi)
        return pd_format("%s must be at most %" PRId64 ", got %" PRId64, what, hi, v);
    return NULL;
}

char *
pd_unknown_field(const char *key, const char *const *known, size_t nknown)
{
    if (strncmp(key, "x-", 2) == 0)
        return NULL;
    for (size_t i = 0; i < nknown; i++)
        if (strcmp(key, known[i]) == 0)
            return NULL;
    const char *hint = pd_suggest(key, known, nknown);
    if (hint)
        return pd_format("unknown field \"%s\" (did you mean \"%s\"?)", key, hint);
    return pd_format("unknown field \"%s\"", key);
}

json_t *
pd_json_parse(PdJson *j, const char *text, size_t len)
{
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        j->errors++;
        if (j->sink && j->sink->error)
            j->sink->error(j->sink->ctx, j->file, NULL, err.line > 0 ? err.line : 1,
                           err.column > 0 ? err.column : 1, err.text);
    }
    return root;
}

bool
pd_json_ok(PdJson *j, const char *ptr, char *msg)
{
    if (!msg)
        return true;
    j->errors++;
    if (j->sink && j->sink->error)
        j->sink->error(j->sink->ctx, j->file, ptr ? ptr : "", 0, 0, msg);
    free(msg);
    return false;
}

bool
pd_json_int(PdJson *j, const json_t *v, const char *ptr, const char *what, int64_t *out)
{
    return pd_json_ok(j, ptr, pd_int_value(v, what, out));
}

const char *
pd_json_string(PdJson *j, const json_t *v, const char *ptr, const char *what)
{
    const char *out = NULL;
    pd_json_ok(j, ptr, pd_string_value(v, what, &out));
    return out;
}

bool
pd_json_range(PdJson *j, const char *ptr, const char *what, int64_t v, int64_t lo,
              int64_t hi)
{
    return pd_json_ok(j, ptr, pd_range_text(what, v, lo, hi));
}

void
pd_json_unknown_fields(PdJson *j, const json_t *o, const char *ptr,
                       const char *const *known, size_t nknown)
{
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)o, key, v) {
        char *m = pd_unknown_field(key, known, nknown);
        if (m) {
            char *kp = pd_pointer_key(ptr, key);
            pd_json_ok(j, kp, m);
            free(kp);
        }
    }
}
