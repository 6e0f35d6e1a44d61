/*
 * platform/read.c - the tgc-platform/1 reader, the one of tgc (files, --platform, the
 * inline "platform" objects of task graphs) and of libmpirio (MPIRIO_Run, mpirio-run
 * --platform, MPIRIO_PLATFORM).  Every error is reported, each with its JSON Pointer,
 * through the caller's sink.
 *
 * Accepted schema (docs/formats.md has the meaning and units of each field):
 *
 *   object    := {
 *     "format":         "tgc-platform/1",  required in a file, optional inline
 *     "name":           string,            default: the file's path, or "inline"
 *     "preset":         PRESET-NAME,       a base that the other fields override
 *     "model":          "bwdsp" | "abstract",   default "bwdsp" (or the preset's model)
 *     "boards":         integer 1..1024,   bwdsp only; default 1 (or the preset's)
 *     "dsps_per_board": integer 1..1024,   bwdsp only; default 4
 *     "links":          [[a, b], ...],     bwdsp only; board pairs, each at most once;
 *                                          default: the preset's links when "boards"
 *                                          keeps its count, else a chain 0-1-2-...
 *     "dsps":           integer 1..65536,  abstract only; required without a preset
 *     PARAM:            integer,           every name of PLATFORM_PARAMS (platform.h),
 *                                          in its range; payload_bytes < packet_bytes
 *     "x-...":          anything, ignored
 *   }
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

#define PARAM_NAME(f, lo, hi) #f,
static const char *const fields[] = {"format", "name",   "preset",
                                     "model",  "boards", "dsps_per_board",
                                     "links",  "dsps",   PLATFORM_PARAMS(PARAM_NAME)};
#undef PARAM_NAME
#define NFIELDS (sizeof fields / sizeof fields[0])

/* The state of one reading: the sink, the file and the error count (j, fields.c), and
 * the strings made for messages and pointers (freed at the end). */
typedef struct Rd {
    PdJson j;
    bool null_ptr; /* messages about the reference itself: no pointer */
    char **tmp;
    size_t ntmp, cap;
} Rd;

static void *
xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("platform: out of memory\n", stderr);
        abort();
    }
    return p;
}

static const char *rd_printf(Rd *r, const char *fmt, ...) PD_PRINTF(2, 3);
static void rd_error(Rd *r, const char *ptr, const char *fmt, ...) PD_PRINTF(3, 4);

static const char *
keep(Rd *r, char *s)
{
    if (r->ntmp == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 32;
        char **t = realloc(r->tmp, r->cap * sizeof *t);
        if (!t) {
            fputs("platform: out of memory\n", stderr);
            abort();
        }
        r->tmp = t;
    }
    r->tmp[r->ntmp++] = s;
    return s;
}

static const char *
rd_printf(Rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = pd_vformat(fmt, ap);
    va_end(ap);
    return keep(r, s);
}

static void
rd_error(Rd *r, const char *ptr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = pd_vformat(fmt, ap);
    va_end(ap);
    r->j.errors++;
    if (r->j.sink && r->j.sink->error)
        r->j.sink->error(r->j.sink->ctx, r->j.file,
                         r->null_ptr ? NULL
                         : ptr       ? ptr
                                     : "",
                         0, 0, s);
    free(s);
}

static void
rd_done(Rd *r)
{
    for (size_t i = 0; i < r->ntmp; i++)
        free(r->tmp[i]);
    free(r->tmp);
    r->tmp = NULL;
    r->ntmp = r->cap = 0;
}

static const char *
ptr_key(Rd *r, const char *ptr, const char *key)
{
    return keep(r, pd_pointer_key(ptr, key));
}

static const char *
ptr_index(Rd *r, const char *ptr, size_t i)
{
    return rd_printf(r, "%s/%zu", ptr, i);
}

/* "a string", "an array", "null", "1.5", ... for "got ..." in messages */
static const char *
describe(Rd *r, const json_t *v)
{
    return keep(r, pd_value_text(v));
}

/* The integer at key of o, in [lo, hi]: true and *out when it is. */
static bool
get_ranged(Rd *r, const json_t *v, const char *ptr, const char *what, int64_t lo,
           int64_t hi, int64_t *out)
{
    int64_t x;
    if (!pd_json_int(&r->j, v, ptr, what, &x) ||
        !pd_json_range(&r->j, ptr, what, x, lo, hi))
        return false;
    *out = x;
    return true;
}

static void
unknown_name(Rd *r, const char *ptr, const char *what, const char *name)
{
    const char *hint = pd_suggest_preset(name);
    if (hint)
        rd_error(r, ptr, "unknown %s \"%s\" (did you mean \"%s\"?)", what, name, hint);
    else
        rd_error(r, ptr,
                 "unknown %s \"%s\" (the presets are bwdsp-1board, bwdsp-2board, "
                 "bwdsp-4board, bwdsp-16board and abstract)",
                 what, name);
}

void
pd_unknown_platform(const char *name, const char *file, const char *ptr,
                    const PdSink *sink)
{
    Rd r = {.j = {.sink = sink, .file = file}, .null_ptr = ptr == NULL};
    unknown_name(&r, ptr, "platform", name);
    rd_done(&r);
}

static void
read_links(Rd *r, PlatDesc *p, const json_t *v, const char *ptr)
{
    if (!json_is_array(v)) {
        rd_error(r, ptr, "links must be an array of board pairs [a, b], got %s",
                 describe(r, v));
        return;
    }
    int nb = p->nboards;
    size_t n = json_array_size(v);
    unsigned char *seen = xmalloc((size_t)nb * (size_t)nb);
    memset(seen, 0, (size_t)nb * (size_t)nb);
    free(p->links);
    p->links = xmalloc((n ? n : 1) * sizeof *p->links);
    p->nlinks = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        const char *ep = ptr_index(r, ptr, i);
        if (!json_is_array(e) || json_array_size(e) != 2) {
            rd_error(r, ep, "a link must be a pair of board indices [a, b], got %s",
                     json_is_array(e) ? rd_printf(r, "%zu values", json_array_size(e))
                                      : describe(r, e));
            continue;
        }
        int64_t b[2];
        bool ok = true;
        for (size_t k = 0; k < 2; k++) {
            const char *kp = ptr_index(r, ep, k);
            if (!pd_json_int(&r->j, json_array_get(e, k), kp, "a board index", &b[k])) {
                ok = false;
            } else if (b[k] < 0 || b[k] >= nb) {
                rd_error(r, kp,
                         "link to unknown board %" PRId64 " (the boards are 0 to %d)",
                         b[k], nb - 1);
                ok = false;
            }
        }
        if (!ok)
            continue;
        if (b[0] == b[1]) {
            rd_error(r, ep, "link joins board %" PRId64 " to itself", b[0]);
            continue;
        }
        int lo = (int)(b[0] < b[1] ? b[0] : b[1]), hi = (int)(b[0] < b[1] ? b[1] : b[0]);
        if (seen[(size_t)lo * (size_t)nb + (size_t)hi]) {
            rd_error(r, ep, "duplicate link between boards %d and %d", lo, hi);
            continue;
        }
        seen[(size_t)lo * (size_t)nb + (size_t)hi] = 1;
        p->links[p->nlinks++] = (PdLink){(int)b[0], (int)b[1]};
    }
    free(seen);
}

/* The bwdsp model's fields: boards, dsps_per_board, links (and no dsps); the board graph
 * connected when nothing else was wrong so far. */
static void
read_bwdsp(Rd *r, PlatDesc *p, const json_t *o, const char *ptr, bool from_preset)
{
    const json_t *v;
    int64_t x;
    if (json_object_get(o, "dsps"))
        rd_error(r, ptr_key(r, ptr, "dsps"),
                 "dsps applies to the abstract model only (a bwdsp platform has "
                 "\"boards\" of \"dsps_per_board\" DSPs)");
    bool boards_changed = false, boards_ok = true;
    if ((v = json_object_get(o, "boards"))) {
        if (get_ranged(r, v, ptr_key(r, ptr, "boards"), "boards", 1, PD_MAX_BOARDS, &x)) {
            boards_changed = x != p->nboards;
            p->nboards = (int)x;
        } else {
            boards_ok = false;
        }
    }
    if ((v = json_object_get(o, "dsps_per_board")) &&
        get_ranged(r, v, ptr_key(r, ptr, "dsps_per_board"), "dsps_per_board", 1,
                   PD_MAX_DSPS_PER_BOARD, &x))
        p->dsps_per_board = (int)x;
    p->ndsps = p->nboards * p->dsps_per_board;
    if ((v = json_object_get(o, "links"))) {
        if (boards_ok)
            read_links(r, p, v, ptr_key(r, ptr, "links"));
    } else if (boards_changed || (!from_preset && p->nboards > 1)) {
        pd_chain(p);
    }
    /* only when the rest is right: the links, the board count and every field */
    if (r->j.errors == 0 && p->nboards > 1) {
        int b = pd_unreached_board(p);
        if (b >= 0)
            rd_error(r, json_object_get(o, "links") ? ptr_key(r, ptr, "links") : ptr,
                     "the board links do not connect board %d to board 0", b);
    }
}

static void
read_fields(Rd *r, const json_t *o, const char *ptr, const char *default_name,
            bool need_format, PlatDesc *p)
{
    if (!json_is_object(o)) {
        rd_error(r, ptr, "a platform must be a JSON object, got %s", describe(r, o));
        return;
    }
    /* every key that is not a field and does not start with "x-": unknown field
     * "bords" (did you mean "boards"?) */
    pd_json_unknown_fields(&r->j, o, ptr, fields, NFIELDS);
    const json_t *v;
    const char *s;

    if ((v = json_object_get(o, "format"))) {
        const char *fp = ptr_key(r, ptr, "format");
        s = pd_json_string(&r->j, v, fp, "format");
        if (s && strcmp(s, "tgc-platform/1") != 0)
            rd_error(r, fp, "format must be \"tgc-platform/1\", got \"%s\"", s);
    } else if (need_format) {
        rd_error(r, ptr,
                 "missing field \"format\" (a platform file starts with \"format\": "
                 "\"tgc-platform/1\")");
    }

    bool have = false;
    const char *preset = NULL;
    if ((v = json_object_get(o, "preset"))) {
        const char *pp = ptr_key(r, ptr, "preset");
        preset = pd_json_string(&r->j, v, pp, "preset");
        if (preset && pd_preset(p, preset) == 0) {
            have = true;
        } else if (preset) {
            unknown_name(r, pp, "preset", preset);
            preset = NULL;
        }
    }
    int model = -1;
    if ((v = json_object_get(o, "model"))) {
        const char *mp = ptr_key(r, ptr, "model");
        if ((s = pd_json_string(&r->j, v, mp, "model"))) {
            if (strcmp(s, "bwdsp") == 0)
                model = PD_BWDSP;
            else if (strcmp(s, "abstract") == 0)
                model = PD_ABSTRACT;
            else
                rd_error(
                    r, mp,
                    "unknown model \"%s\" (the models are \"bwdsp\" and \"abstract\")",
                    s);
        }
        if (have && model >= 0 && (int)p->model != model)
            rd_error(r, mp, "model \"%s\" contradicts preset \"%s\"", s, preset);
    }
    if (!have) {
        if (model == PD_ABSTRACT)
            pd_abstract(p, 4);
        else
            pd_defaults(p);
    }
    int64_t x;

    if (p->model == PD_ABSTRACT) {
        static const char *const bw_only[] = {"boards", "dsps_per_board", "links"};
        for (size_t i = 0; i < 3; i++)
            if (json_object_get(o, bw_only[i]))
                rd_error(r, ptr_key(r, ptr, bw_only[i]),
                         "%s applies to the bwdsp model only", bw_only[i]);
        if ((v = json_object_get(o, "dsps"))) {
            if (get_ranged(r, v, ptr_key(r, ptr, "dsps"), "dsps", 1, PD_MAX_ABSTRACT_DSPS,
                           &x))
                p->ndsps = (int)x;
        } else if (!preset) {
            rd_error(
                r, ptr,
                "missing field \"dsps\" (the abstract model needs its number of DSPs)");
        }
    } else {
        read_bwdsp(r, p, o, ptr, preset != NULL);
    }

#define PARAM_SET(f, lo, hi)                                                             \
    if ((v = json_object_get(o, #f)) &&                                                  \
        get_ranged(r, v, ptr_key(r, ptr, #f), #f, lo, hi, &x))                           \
        p->f = x;
    PLATFORM_PARAMS(PARAM_SET)
#undef PARAM_SET
    if (p->payload_bytes >= p->packet_bytes) {
        const char *at =
            json_object_get(o, "payload_bytes")  ? ptr_key(r, ptr, "payload_bytes")
            : json_object_get(o, "packet_bytes") ? ptr_key(r, ptr, "packet_bytes")
                                                 : ptr;
        rd_error(r, at,
                 "payload_bytes (%" PRId64 ") must be less than packet_bytes (%" PRId64
                 ")",
                 p->payload_bytes, p->packet_bytes);
    }

    pd_set_name(p, default_name);
    if ((v = json_object_get(o, "name")) &&
        (s = pd_json_string(&r->j, v, ptr_key(r, ptr, "name"), "name")))
        pd_set_name(p, s);
}

int
pd_read_object(const json_t *o, const char *file, const char *ptr,
               const char *default_name, bool need_format, const PdSink *sink,
               PlatDesc *out)
{
    Rd r = {.j = {.sink = sink, .file = file}};
    memset(out, 0, sizeof *out);
    read_fields(&r, o, ptr, default_name, need_format, out);
    rd_done(&r);
    if (r.j.errors) {
        pd_free(out);
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
}

int
pd_read_text(const char *text, size_t len, const char *file, const PdSink *sink,
             PlatDesc *out)
{
    PdJson j = {.sink = sink, .file = file};
    json_t *root = pd_json_parse(&j, text, len);
    if (!root) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    int rc = pd_read_object(root, file, "", file, true, sink, out);
    json_decref(root);
    return rc;
}

/* s[0..n) appended at w (room permitting) with control characters as C escapes */
static size_t
put_escaped(char *buf, size_t cap, size_t at, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char e[5];
        size_t k = 0;
        if (c >= 0x20 && c != 0x7f) {
            e[k++] = (char)c;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            e[k++] = '\\';
            e[k++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        } else {
            e[k++] = '\\';
            e[k++] = 'x';
            e[k++] = hex[c >> 4];
            e[k++] = hex[c & 15];
        }
        for (size_t i = 0; i < k; i++, at++)
            if (at + 1 < cap)
                buf[at] = e[i];
    }
    if (cap)
        buf[at + 1 < cap ? at : cap - 1] = 0;
    return at;
}

size_t
pd_format_message(char *buf, size_t n, const char *file, const char *pointer, int line,
                  int col, const char *msg)
{
    char head[64];
    size_t at = 0;
    if (file) {
        at = put_escaped(buf, n, at, file);
        if (line > 0) {
            snprintf(head, sizeof head, ":%d:%d", line, col);
            at = put_escaped(buf, n, at, head);
        } else if (pointer) {
            at = put_escaped(buf, n, at, ": ");
            at = put_escaped(buf, n, at, pointer[0] ? pointer : "/");
        }
        at = put_escaped(buf, n, at, ": ");
    } else if (pointer) {
        at = put_escaped(buf, n, at, pointer[0] ? pointer : "/");
        at = put_escaped(buf, n, at, ": ");
    }
    at = put_escaped(buf, n, at, "error: ");
    return put_escaped(buf, n, at, msg);
}
