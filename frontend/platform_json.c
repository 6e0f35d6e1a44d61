/*
 * frontend/platform_json.c - the tgc-platform/1 reader: preset names, platform files and
 * the inline "platform" objects of task graphs.  Every platform it returns has been
 * through plat_finish() (routes derived, board graph connected).
 *
 * Accepted schema (docs/formats.md has the meaning and units of each field):
 *
 *   platform  := PRESET-NAME | PATH | object    (a PATH contains "/" or ends in ".json")
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
 *     PARAM:            integer,           every name of PLATFORM_PARAMS (ir/ir.h), in
 *                                          its range; payload_bytes < packet_bytes
 *     "x-...":          anything, ignored
 *   }
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

#define PARAM_NAME(f, lo, hi) #f,
static const char *const fields[] = {"format", "name",   "preset",
                                     "model",  "boards", "dsps_per_board",
                                     "links",  "dsps",   PLATFORM_PARAMS(PARAM_NAME)};
#undef PARAM_NAME
#define NFIELDS (sizeof fields / sizeof fields[0])

static size_t
npresets(void)
{
    size_t n = 0;
    while (plat_preset_names[n])
        n++;
    return n;
}

/* The preset to suggest for an unknown name.  "bwdsp-<N>board" suggests the largest
 * preset of at most N boards (edit distance would tie between all of them); anything else
 * the closest name by edit distance. */
static const char *
suggest_preset(const char *name)
{
    int want;
    char tail[8];
    if (sscanf(name, "bwdsp-%dboard%7s", &want, tail) == 1 && want > 0) {
        static const int boards[] = {1, 2, 4, 16};
        static const char *const names[] = {"bwdsp-1board", "bwdsp-2board",
                                            "bwdsp-4board", "bwdsp-16board"};
        int best = 0;
        for (int i = 0; i < 4; i++)
            if (boards[i] <= want)
                best = i;
        return names[best];
    }
    return diag_suggest(name, plat_preset_names, npresets());
}

static void
unknown_preset(Reader *r, const Loc *where, const char *what, const char *name)
{
    const char *hint = suggest_preset(name);
    if (hint)
        diag_error(r->d, where, "unknown %s \"%s\" (did you mean \"%s\"?)", what, name,
                   hint);
    else
        diag_error(r->d, where,
                   "unknown %s \"%s\" (the presets are bwdsp-1board, bwdsp-2board, "
                   "bwdsp-4board, bwdsp-16board and abstract)",
                   what, name);
}

static void
chain(Arena *a, Platform *p)
{
    p->nlinks = p->nboards - 1;
    p->links = arena_array(a, (size_t)(p->nlinks > 0 ? p->nlinks : 1), sizeof *p->links);
    for (int i = 0; i + 1 < p->nboards; i++)
        p->links[i] = (BoardLink){i, i + 1};
}

static void
parse_links(Reader *r, Arena *a, Platform *p, const json_t *v, const char *ptr)
{
    if (!json_is_array(v)) {
        fe_error(r, ptr, "links must be an array of board pairs [a, b], got %s",
                 fe_describe(r, v));
        return;
    }
    int nb = p->nboards;
    size_t n = json_array_size(v);
    unsigned char *seen = calloc((size_t)nb * (size_t)nb, 1);
    if (!seen)
        ice("out of memory");
    p->links = arena_array(a, n ? n : 1, sizeof *p->links);
    p->nlinks = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        const char *ep = fe_ptr_index(r, ptr, i);
        if (!json_is_array(e) || json_array_size(e) != 2) {
            fe_error(r, ep, "a link must be a pair of board indices [a, b], got %s",
                     json_is_array(e)
                         ? arena_printf(r->tmp, "%zu values", json_array_size(e))
                         : fe_describe(r, e));
            continue;
        }
        int64_t b[2];
        bool ok = true;
        for (size_t k = 0; k < 2; k++) {
            const char *kp = fe_ptr_index(r, ep, k);
            if (!fe_int(r, json_array_get(e, k), kp, "a board index", &b[k])) {
                ok = false;
            } else if (b[k] < 0 || b[k] >= nb) {
                fe_error(r, kp,
                         "link to unknown board %" PRId64 " (the boards are 0 to %d)",
                         b[k], nb - 1);
                ok = false;
            }
        }
        if (!ok)
            continue;
        if (b[0] == b[1]) {
            fe_error(r, ep, "link joins board %" PRId64 " to itself", b[0]);
            continue;
        }
        int lo = (int)(b[0] < b[1] ? b[0] : b[1]), hi = (int)(b[0] < b[1] ? b[1] : b[0]);
        if (seen[(size_t)lo * (size_t)nb + (size_t)hi]) {
            fe_error(r, ep, "duplicate link between boards %d and %d", lo, hi);
            continue;
        }
        seen[(size_t)lo * (size_t)nb + (size_t)hi] = 1;
        p->links[p->nlinks++] = (BoardLink){(int)b[0], (int)b[1]};
    }
    free(seen);
}

/* The lowest board that the links do not join to board 0, or -1 when all are joined. */
static int
unreached_board(const Platform *p)
{
    int nb = p->nboards, found = -1;
    int *stack = malloc((size_t)nb * sizeof *stack);
    bool *in = calloc((size_t)nb, sizeof *in);
    if (!stack || !in)
        ice("out of memory");
    int top = 0;
    stack[top++] = 0;
    in[0] = true;
    while (top > 0) {
        int u = stack[--top];
        for (int l = 0; l < p->nlinks; l++) {
            int v = p->links[l].a == u   ? p->links[l].b
                    : p->links[l].b == u ? p->links[l].a
                                         : -1;
            if (v >= 0 && !in[v]) {
                in[v] = true;
                stack[top++] = v;
            }
        }
    }
    for (int b = 0; b < nb && found < 0; b++)
        if (!in[b])
            found = b;
    free(stack);
    free(in);
    return found;
}

static const char *
field_ptr(Reader *r, const char *ptr, const char *key)
{
    return fe_ptr_key(r, ptr, key);
}

/* Lowers a platform object located at ptr ("" for a file's root). */
static Platform *
from_object(Reader *r, Arena *a, const json_t *o, const char *ptr,
            const char *default_name, bool need_format)
{
    int e0 = diag_errors(r->d);
    if (!json_is_object(o)) {
        fe_error(r, ptr, "a platform must be a JSON object, got %s", fe_describe(r, o));
        return NULL;
    }
    fe_unknown_fields(r, (json_t *)o, ptr, fields, NFIELDS);
    const json_t *v;
    const char *s;

    if ((v = json_object_get(o, "format"))) {
        s = fe_string(r, v, field_ptr(r, ptr, "format"), "format");
        if (s && strcmp(s, "tgc-platform/1") != 0)
            fe_error(r, field_ptr(r, ptr, "format"),
                     "format must be \"tgc-platform/1\", got \"%s\"", s);
    } else if (need_format) {
        fe_error(r, ptr,
                 "missing field \"format\" (a platform file starts with \"format\": "
                 "\"tgc-platform/1\")");
    }

    Platform *p = NULL;
    const char *preset = NULL;
    if ((v = json_object_get(o, "preset"))) {
        const char *pp = field_ptr(r, ptr, "preset");
        preset = fe_string(r, v, pp, "preset");
        if (preset && !(p = plat_preset(a, preset))) {
            unknown_preset(r, &(Loc){.file = r->file, .pointer = pp}, "preset", preset);
            preset = NULL;
        }
    }
    int model = -1;
    if ((v = json_object_get(o, "model"))) {
        const char *mp = field_ptr(r, ptr, "model");
        if ((s = fe_string(r, v, mp, "model"))) {
            if (strcmp(s, "bwdsp") == 0)
                model = MODEL_BWDSP;
            else if (strcmp(s, "abstract") == 0)
                model = MODEL_ABSTRACT;
            else
                fe_error(
                    r, mp,
                    "unknown model \"%s\" (the models are \"bwdsp\" and \"abstract\")",
                    s);
        }
        if (p && model >= 0 && (int)p->model != model)
            fe_error(r, mp, "model \"%s\" contradicts preset \"%s\"", s, preset);
    }
    if (!p)
        p = model == MODEL_ABSTRACT ? plat_abstract(a, 4) : plat_bwdsp_defaults(a);
    bool abstract = p->model == MODEL_ABSTRACT;
    int64_t x;

    if (abstract) {
        static const char *const bw_only[] = {"boards", "dsps_per_board", "links"};
        for (size_t i = 0; i < 3; i++)
            if (json_object_get(o, bw_only[i]))
                fe_error(r, field_ptr(r, ptr, bw_only[i]),
                         "%s applies to the bwdsp model only", bw_only[i]);
        if ((v = json_object_get(o, "dsps"))) {
            const char *dp = field_ptr(r, ptr, "dsps");
            if (fe_int(r, v, dp, "dsps", &x) &&
                fe_range(r->d, &(Loc){.file = r->file, .pointer = dp}, "dsps", x, 1,
                         FE_MAX_ABSTRACT_DSPS))
                p->ndsps = (int)x;
        } else if (!preset) {
            fe_error(
                r, ptr,
                "missing field \"dsps\" (the abstract model needs its number of DSPs)");
        }
    } else {
        if (json_object_get(o, "dsps"))
            fe_error(r, field_ptr(r, ptr, "dsps"),
                     "dsps applies to the abstract model only (a bwdsp platform has "
                     "\"boards\" of \"dsps_per_board\" DSPs)");
        bool boards_changed = false, boards_ok = true;
        if ((v = json_object_get(o, "boards"))) {
            const char *bp = field_ptr(r, ptr, "boards");
            if (fe_int(r, v, bp, "boards", &x) &&
                fe_range(r->d, &(Loc){.file = r->file, .pointer = bp}, "boards", x, 1,
                         FE_MAX_BOARDS)) {
                boards_changed = x != p->nboards;
                p->nboards = (int)x;
            } else {
                boards_ok = false;
            }
        }
        if ((v = json_object_get(o, "dsps_per_board"))) {
            const char *bp = field_ptr(r, ptr, "dsps_per_board");
            if (fe_int(r, v, bp, "dsps_per_board", &x) &&
                fe_range(r->d, &(Loc){.file = r->file, .pointer = bp}, "dsps_per_board",
                         x, 1, FE_MAX_DSPS_PER_BOARD))
                p->dsps_per_board = (int)x;
        }
        p->ndsps = p->nboards * p->dsps_per_board;
        if ((v = json_object_get(o, "links"))) {
            if (boards_ok)
                parse_links(r, a, p, v, field_ptr(r, ptr, "links"));
        } else if (boards_changed || (!preset && p->nboards > 1)) {
            chain(a, p);
        }
        if (diag_errors(r->d) == e0 && p->nboards > 1) {
            int b = unreached_board(p);
            if (b >= 0)
                fe_error(r,
                         json_object_get(o, "links") ? field_ptr(r, ptr, "links") : ptr,
                         "the board links do not connect board %d to board 0", b);
        }
    }

#define PARAM_SET(f, lo, hi)                                                             \
    if ((v = json_object_get(o, #f))) {                                                  \
        const char *fp = field_ptr(r, ptr, #f);                                          \
        if (fe_int(r, v, fp, #f, &x) &&                                                  \
            fe_range(r->d, &(Loc){.file = r->file, .pointer = fp}, #f, x, lo, hi))       \
            p->f = x;                                                                    \
    }
    PLATFORM_PARAMS(PARAM_SET)
#undef PARAM_SET
    if (p->payload_bytes >= p->packet_bytes) {
        const char *at =
            json_object_get(o, "payload_bytes")  ? field_ptr(r, ptr, "payload_bytes")
            : json_object_get(o, "packet_bytes") ? field_ptr(r, ptr, "packet_bytes")
                                                 : ptr;
        fe_error(r, at,
                 "payload_bytes (%" PRId64 ") must be less than packet_bytes (%" PRId64
                 ")",
                 p->payload_bytes, p->packet_bytes);
    }

    p->name = arena_strdup(a, default_name);
    if ((v = json_object_get(o, "name")) &&
        (s = fe_string(r, v, field_ptr(r, ptr, "name"), "name")))
        p->name = arena_strdup(a, s);

    if (diag_errors(r->d) != e0)
        return NULL;
    if (plat_finish(a, p) != 0)
        ice("platform \"%s\" passed the connectivity check but is not connected",
            p->name);
    return p;
}

Platform *
fe_platform_ref(Reader *r, Arena *a, const char *ref, const char *ptr)
{
    Platform *p = plat_preset(a, ref);
    if (p)
        return p;
    Loc where = ptr ? (Loc){.file = r->file, .pointer = ptr} : (Loc){.file = "tgc"};
    size_t n = strlen(ref);
    bool is_path = strchr(ref, '/') || (n >= 5 && strcmp(ref + n - 5, ".json") == 0);
    if (!is_path) {
        unknown_preset(r, &where, "platform", ref);
        return NULL;
    }
    const char *file = fe_join(a, r->base_dir, ref);
    Reader pr = {.d = r->d,
                 .file = file,
                 .base_dir = fe_dirname(r->tmp, file),
                 .lim = r->lim,
                 .tmp = r->tmp};
    size_t len;
    char *text = fe_read_file(&pr, file, &where, &len);
    if (!text)
        return NULL;
    json_t *root = fe_parse(&pr, text, len);
    free(text);
    if (!root)
        return NULL;
    p = from_object(&pr, a, root, "", file, true);
    json_decref(root);
    return p;
}

Platform *
fe_platform_value(Reader *r, Arena *a, const json_t *v, const char *ptr)
{
    if (json_is_string(v))
        return fe_platform_ref(r, a, json_string_value(v), ptr);
    if (json_is_object(v))
        return from_object(r, a, v, ptr, "inline", false);
    fe_error(r, ptr, "platform must be a preset name, a path or an object, got %s",
             fe_describe(r, v));
    return NULL;
}

Platform *
fe_load_platform(Arena *a, const char *ref, const char *base_dir, Diag *d)
{
    Limits lim = ir_default_limits();
    Reader r = {
        .d = d, .file = "tgc", .base_dir = base_dir, .lim = &lim, .tmp = arena_new()};
    Platform *p = fe_platform_ref(&r, a, ref, NULL);
    arena_free(r.tmp);
    return p;
}
