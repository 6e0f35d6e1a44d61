/*
 * frontend/reader.c - what the JSON readers share: reading a file under the size limit,
 * parsing with exact syntax positions, JSON Pointers, type checks with one message each,
 * unknown fields with a "did you mean" hint (all three by platform/fields.c, its
 * messages become diagnostics here), and the task id map.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fe.h"

void
fe_buf_add(FeBuf *b, const char *s)
{
    size_t k = strlen(s);
    if (b->n + k + 1 > b->cap) {
        b->cap = (b->n + k + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            ice("out of memory");
    }
    memcpy(b->s + b->n, s, k + 1);
    b->n += k;
}

/* The origin of /KIND/i... in a flattened graph, and the rest of the pointer. */
static const Origin *
origin_of(const Reader *r, const char *ptr, const char **rest, const char **kind, int *i)
{
    const Graph *g = r->origins;
    if (!g || !ptr)
        return NULL;
    bool tasks = strncmp(ptr, "/tasks/", 7) == 0, edges = strncmp(ptr, "/edges/", 7) == 0;
    if (!tasks && !edges)
        return NULL;
    char *end;
    long n = strtol(ptr + 7, &end, 10);
    if (end == ptr + 7 || n < 0 || n >= (tasks ? g->ntasks : g->nedges))
        return NULL;
    const Origin *o = tasks ? g->task_origin : g->edge_origin;
    if (!o)
        return NULL;
    *rest = end;
    *kind = tasks ? "tasks" : "edges";
    *i = (int)n;
    return &o[n];
}

Loc
fe_loc(Reader *r, const char *ptr)
{
    const char *rest, *kind;
    int i;
    const Origin *o = origin_of(r, ptr, &rest, &kind, &i);
    if (!o)
        return (Loc){.file = r->file, .pointer = ptr};
    return (Loc){.file = o->file,
                 .pointer = arena_printf(r->tmp, "/%s/%d%s", kind, o->index, rest)};
}

const char *
fe_ref(Reader *r, const Loc *at, const char *kind, int i)
{
    const Graph *g = r->origins;
    const Origin *o = !g                           ? NULL
                      : strcmp(kind, "tasks") == 0 ? g->task_origin
                                                   : g->edge_origin;
    if (!o)
        return arena_printf(r->tmp, "/%s/%d", kind, i);
    if (strcmp(o[i].file, at ? at->file : r->file) == 0)
        return arena_printf(r->tmp, "/%s/%d", kind, o[i].index);
    return arena_printf(r->tmp, "/%s/%d of %s", kind, o[i].index, o[i].file);
}

void
fe_error(Reader *r, const char *ptr, const char *fmt, ...)
{
    Loc loc = {.file = r->file, .pointer = ptr ? ptr : ""};
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(r->d, DIAG_ERROR, &loc, fmt, ap);
    va_end(ap);
}

/* A malloc'd string of platform/fields.c as text of r->tmp. */
static const char *
scratch(Reader *r, char *s)
{
    const char *t = arena_strdup(r->tmp, s);
    free(s);
    return t;
}

static void
to_diag(void *ctx, const char *file, const char *pointer, int line, int col,
        const char *msg)
{
    Loc loc = {.file = file, .pointer = pointer, .line = line, .col = col};
    diag_error(ctx, &loc, "%s", msg);
}

PdSink
fe_sink(Reader *r)
{
    return (PdSink){to_diag, r->d};
}

/* The state of platform/fields.c's reading for r, its messages through sink s. */
static PdJson
json_of(Reader *r, PdSink *s)
{
    *s = fe_sink(r);
    return (PdJson){.sink = s, .file = r->file};
}

const char *
fe_ptr_key(Reader *r, const char *ptr, const char *key)
{
    return scratch(r, pd_pointer_key(ptr, key));
}

const char *
fe_ptr_index(Reader *r, const char *ptr, size_t i)
{
    return arena_printf(r->tmp, "%s/%zu", ptr, i);
}

const char *
fe_describe(Reader *r, const json_t *v)
{
    return scratch(r, pd_value_text(v));
}

void
fe_unknown_fields(Reader *r, json_t *o, const char *ptr, const char *const *known,
                  size_t nknown)
{
    PdSink s;
    PdJson j = json_of(r, &s);
    pd_json_unknown_fields(&j, o, ptr, known, nknown);
}

bool
fe_int(Reader *r, const json_t *v, const char *ptr, const char *what, int64_t *out)
{
    PdSink s;
    PdJson j = json_of(r, &s);
    return pd_json_int(&j, v, ptr, what, out);
}

const char *
fe_string(Reader *r, const json_t *v, const char *ptr, const char *what)
{
    PdSink s;
    PdJson j = json_of(r, &s);
    return pd_json_string(&j, v, ptr, what);
}

bool
fe_range(Diag *d, const Loc *loc, const char *what, int64_t v, int64_t lo, int64_t hi)
{
    char *m = pd_range_text(what, v, lo, hi);
    if (!m)
        return true;
    diag_error(d, loc, "%s", m);
    free(m);
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
    PdSink s;
    PdJson j = json_of(r, &s);
    return pd_json_parse(&j, text, len);
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
    const char **ids = ir_xmalloc((size_t)g->ntasks + 1, sizeof *ids);
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
