/*
 * frontend/reader.c - what the JSON readers share: reading a file under the size limit,
 * parsing with exact syntax positions, JSON Pointers, type checks with one message each,
 * unknown fields with a "did you mean" hint, and the task id map.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fe.h"

void
fe_error(Reader *r, const char *ptr, const char *fmt, ...)
{
    Loc loc = {.file = r->file, .pointer = ptr ? ptr : ""};
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(r->d, DIAG_ERROR, &loc, fmt, ap);
    va_end(ap);
}

const char *
fe_ptr_key(Reader *r, const char *ptr, const char *key)
{
    size_t n = strlen(ptr), extra = 0;
    for (const char *k = key; *k; k++)
        extra += *k == '~' || *k == '/';
    char *s = arena_alloc(r->tmp, n + 1 + strlen(key) + extra + 1);
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

const char *
fe_ptr_index(Reader *r, const char *ptr, size_t i)
{
    return arena_printf(r->tmp, "%s/%zu", ptr, i);
}

/* The shortest %g form that reads back as the same double (0.1, not 0.10000000000000001).
 */
static const char *
real_text(Reader *r, double x)
{
    for (int prec = 1; prec < 17; prec++) {
        const char *s = arena_printf(r->tmp, "%.*g", prec, x);
        if (strtod(s, NULL) == x)
            return s;
    }
    return arena_printf(r->tmp, "%.17g", x);
}

const char *
fe_describe(Reader *r, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return arena_printf(r->tmp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    case JSON_REAL:
        return real_text(r, json_real_value(v));
    case JSON_TRUE:
        return "true";
    case JSON_FALSE:
        return "false";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

void
fe_unknown_fields(Reader *r, json_t *o, const char *ptr, const char *const *known,
                  size_t nknown)
{
    const char *key;
    json_t *v;
    json_object_foreach (o, key, v) {
        if (strncmp(key, "x-", 2) == 0)
            continue;
        size_t i = 0;
        while (i < nknown && strcmp(key, known[i]) != 0)
            i++;
        if (i < nknown)
            continue;
        const char *hint = diag_suggest(key, known, nknown);
        if (hint)
            fe_error(r, fe_ptr_key(r, ptr, key),
                     "unknown field \"%s\" (did you mean \"%s\"?)", key, hint);
        else
            fe_error(r, fe_ptr_key(r, ptr, key), "unknown field \"%s\"", key);
    }
}

bool
fe_int(Reader *r, const json_t *v, const char *ptr, const char *what, int64_t *out)
{
    if (json_is_integer(v)) {
        *out = json_integer_value(v);
        return true;
    }
    if (json_is_real(v)) {
        double x = json_real_value(v);
        /* Integral reals in the int64 range are accepted (1e6); 2^63 is exact in a
         * double. */
        if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) {
            fe_error(r, ptr, "%s is out of range, got %s", what, real_text(r, x));
            return false;
        }
        if ((double)(int64_t)x != x) {
            fe_error(r, ptr, "%s must be a whole number, got %s", what, real_text(r, x));
            return false;
        }
        *out = (int64_t)x;
        return true;
    }
    fe_error(r, ptr, "%s must be an integer, got %s", what, fe_describe(r, v));
    return false;
}

const char *
fe_string(Reader *r, const json_t *v, const char *ptr, const char *what)
{
    if (json_is_string(v))
        return json_string_value(v);
    fe_error(r, ptr, "%s must be a string, got %s", what, fe_describe(r, v));
    return NULL;
}

bool
fe_range(Diag *d, const Loc *loc, const char *what, int64_t v, int64_t lo, int64_t hi)
{
    if (v < lo)
        diag_error(d, loc, "%s must be >= %" PRId64 ", got %" PRId64, what, lo, v);
    else if (v > hi)
        diag_error(d, loc, "%s must be at most %" PRId64 ", got %" PRId64, what, hi, v);
    else
        return true;
    return false;
}

static void
read_error(Reader *r, const char *path, const Loc *where, const char *why)
{
    if (where)
        diag_error(r->d, where, "cannot read \"%s\": %s", path, why);
    else
        diag_error(r->d, &(Loc){.file = r->file}, "cannot read file: %s", why);
}

/* size < 0: unknown (a pipe, cut off at the limit). */
static void
too_big(Reader *r, const char *path, const Loc *where, int64_t size)
{
    int64_t lim = r->lim->max_file_bytes;
    if (where && size >= 0)
        diag_error(r->d, where,
                   "\"%s\" (%" PRId64 " bytes) exceeds the limit of %" PRId64
                   " bytes (raise it with --max-file-size)",
                   path, size, lim);
    else if (where)
        diag_error(r->d, where,
                   "\"%s\" exceeds the limit of %" PRId64
                   " bytes (raise it with --max-file-size)",
                   path, lim);
    else if (size >= 0)
        diag_error(r->d, &(Loc){.file = r->file},
                   "file of %" PRId64 " bytes exceeds the limit of %" PRId64
                   " bytes (raise it with --max-file-size)",
                   size, lim);
    else
        diag_error(r->d, &(Loc){.file = r->file},
                   "input exceeds the limit of %" PRId64
                   " bytes (raise it with --max-file-size)",
                   lim);
}

char *
fe_read_file(Reader *r, const char *path, const Loc *where, size_t *len)
{
    bool is_stdin = strcmp(path, "-") == 0;
    if (!is_stdin && !ir_utf8_valid(path)) {
        /* its name (and names made from it) would go into JSON, which cannot hold it */
        read_error(r, path, where, "its name is not valid UTF-8");
        return NULL;
    }
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        read_error(r, path, where, strerror(errno));
        return NULL;
    }
    int64_t limit = r->lim->max_file_bytes;
    struct stat st;
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            read_error(r, path, where, "is a directory");
            if (!is_stdin)
                fclose(f);
            return NULL;
        }
        if (S_ISREG(st.st_mode) && (int64_t)st.st_size > limit) {
            too_big(r, path, where, (int64_t)st.st_size);
            if (!is_stdin)
                fclose(f);
            return NULL;
        }
    }
    /* Read in chunks so that a pipe is held to the same limit as a file. */
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        ice("out of memory");
    for (;;) {
        if (cap - n < 2) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb)
                ice("out of memory");
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if ((int64_t)n > limit) {
            too_big(r, path, where, -1);
            free(buf);
            if (!is_stdin)
                fclose(f);
            return NULL;
        }
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    int err = errno;
    if (!is_stdin)
        fclose(f);
    if (bad) {
        read_error(r, path, where, strerror(err));
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

json_t *
fe_parse(Reader *r, const char *text, size_t len)
{
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        Loc loc = {.file = r->file,
                   .line = err.line > 0 ? err.line : 1,
                   .col = err.column > 0 ? err.column : 1};
        diag_error(r->d, &loc, "%s", err.text);
    }
    return root;
}

const char *
fe_join(Arena *a, const char *base_dir, const char *path)
{
    if (!base_dir || !*base_dir || strcmp(base_dir, ".") == 0 || path[0] == '/')
        return arena_strdup(a, path);
    size_t n = strlen(base_dir);
    return arena_printf(a, "%s%s%s", base_dir, base_dir[n - 1] == '/' ? "" : "/", path);
}

const char *
fe_dirname(Arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    if (slash == path)
        return "/";
    return arena_strndup(a, path, (size_t)(slash - path));
}

static uint64_t
hash(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

void
fe_namemap_init(FeIdMap *m, const char *const *names, int n)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    m->mask = cap - 1;
    m->slot = calloc(cap, sizeof *m->slot);
    m->name = malloc(((size_t)n + 1) * sizeof *m->name);
    if (!m->slot || !m->name)
        ice("out of memory");
    for (int t = 0; t < n; t++) {
        m->name[t] = names[t];
        if (!names[t])
            continue;
        size_t i = hash(names[t]) & m->mask;
        while (m->slot[i] && strcmp(m->name[m->slot[i] - 1], names[t]) != 0)
            i = (i + 1) & m->mask;
        if (!m->slot[i])
            m->slot[i] = t + 1;
    }
}

void
fe_idmap_init(FeIdMap *m, const Graph *g)
{
    const char **ids = malloc(((size_t)g->ntasks + 1) * sizeof *ids);
    if (!ids)
        ice("out of memory");
    for (int t = 0; t < g->ntasks; t++)
        ids[t] = g->tasks[t].id;
    fe_namemap_init(m, ids, g->ntasks);
    free(ids);
}

int
fe_idmap_find(const FeIdMap *m, const char *id)
{
    size_t i = hash(id) & m->mask;
    while (m->slot[i]) {
        if (strcmp(m->name[m->slot[i] - 1], id) == 0)
            return m->slot[i] - 1;
        i = (i + 1) & m->mask;
    }
    return -1;
}

void
fe_idmap_free(FeIdMap *m)
{
    free(m->slot);
    free(m->name);
    m->slot = NULL;
    m->name = NULL;
}

bool
fe_is_identifier(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return false;
    for (; *s; s++) {
        char c = *s;
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9')))
            return false;
    }
    return true;
}
