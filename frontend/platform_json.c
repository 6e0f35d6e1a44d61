/*
 * frontend/platform_json.c - where tgc finds a platform: a preset name, a platform file
 * (read under the input limits, relative to the graph's folder) or the inline "platform"
 * object of a task graph.  The format itself is read by the one tgc-platform/1 reader,
 * platform/read.c, which libmpirio uses too; its messages become diagnostics here.  Every
 * platform returned has been through plat_finish() (routes derived).
 *
 *   platform  := PRESET-NAME | PATH | object    (a PATH contains "/" or ends in ".json")
 */
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* The description the reader made, as a Platform in a (d is released). */
static Platform *
platform_of(Arena *a, PlatDesc *d)
{
    Platform *p = plat_from_desc(a, d);
    if (!p)
        ice("platform \"%s\" passed the connectivity check but is not connected",
            d->name);
    pd_free(d);
    return p;
}

static Platform *
from_object(Reader *r, Arena *a, const json_t *o, const char *ptr)
{
    PdSink sink = fe_sink(r);
    PlatDesc d;
    if (pd_read_object(o, r->file, ptr, "inline", false, &sink, &d) != 0)
        return NULL;
    return platform_of(a, &d);
}

Platform *
fe_platform_ref(Reader *r, Arena *a, const char *ref, const char *ptr)
{
    Platform *p = plat_preset(a, ref);
    if (p)
        return p;
    Loc where = ptr ? (Loc){.file = r->file, .pointer = ptr} : (Loc){.file = "tgc"};
    if (!pd_is_path(ref)) {
        PdSink sink = fe_sink(r);
        pd_unknown_platform(ref, where.file, ptr, &sink);
        return NULL;
    }
    const char *file = fe_join(a, r->base_dir, ref);
    Reader pr = {.d = r->d, .file = file, .lim = r->lim, .tmp = r->tmp};
    size_t len;
    char *text = fe_read_file(&pr, file, &where, &len);
    if (!text)
        return NULL;
    PdSink sink = fe_sink(r);
    PlatDesc d;
    int rc = pd_read_text(text, len, file, &sink, &d);
    free(text);
    if (rc != 0)
        return NULL;
    return platform_of(a, &d);
}

Platform *
fe_platform_value(Reader *r, Arena *a, const json_t *v, const char *ptr)
{
    if (json_is_string(v))
        return fe_platform_ref(r, a, json_string_value(v), ptr);
    if (json_is_object(v))
        return from_object(r, a, v, ptr);
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
