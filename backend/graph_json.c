/*
 * backend/graph_json.c - tgc-graph/1 and tgc-platform/1 writers (docs/formats.md).
 *
 * Keys come out in a fixed order (jansson keeps insertion order), two-space indent, and a
 * field equal to its default is left out, so that writing what was read gives the same
 * text. The object builders are shared with backend/sched_json.c, which embeds both
 * documents.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* json_object_set_new that treats out of memory as the internal error it is */
void
cg_set(json_t *o, const char *key, json_t *v)
{
    if (!v || json_object_set_new(o, key, v) != 0)
        ice("out of memory building JSON");
}

void
cg_push(json_t *a, json_t *v)
{
    if (!v || json_array_append_new(a, v) != 0)
        ice("out of memory building JSON");
}

char *
cg_dump(json_t *doc, int real_precision)
{
    char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                  JSON_REAL_PRECISION(real_precision));
    json_decref(doc);
    if (!s)
        ice("out of memory writing JSON");
    size_t n = strlen(s);
    char *out = realloc(s, n + 2);
    if (!out)
        ice("out of memory writing JSON");
    out[n] = '\n';
    out[n + 1] = 0;
    return out;
}

int
cg_real_precision(const Graph *g)
{
    int best = 1;
    for (int t = 0; t < g->ntasks; t++)
        for (int k = 0; k < g->tasks[t].nparams; k++) {
            const Param *p = &g->tasks[t].params[k];
            if (p->kind != PARAM_REAL)
                continue;
            int prec = 1;
            char buf[40];
            for (; prec < 17; prec++) {
                snprintf(buf, sizeof buf, "%.*g", prec, p->r);
                if (strtod(buf, NULL) == p->r)
                    break;
            }
            if (prec > best)
                best = prec;
        }
    return best;
}

static json_t *
param_value(const Param *p)
{
    switch (p->kind) {
    case PARAM_INT:
        return json_integer(p->i);
    case PARAM_REAL:
        return json_real(p->r);
    case PARAM_STRING:
        return json_string(p->s);
    case PARAM_BOOL:
        return json_boolean(p->i);
    }
    return json_null();
}

/* all: every field written, defaults too (the generated platform.json), else the fields
 * that differ from the model's defaults. */
static json_t *
platform_object(const Platform *p, bool all)
{
    json_t *o = json_object();
    cg_set(o, "format", json_string("tgc-platform/1"));
    if (all || (p->name && strcmp(p->name, "inline") != 0))
        cg_set(o, "name", json_string(p->name ? p->name : "inline"));
    Arena *a = arena_new();
    const Platform *def;
    if (p->model == MODEL_ABSTRACT) {
        def = plat_abstract(a, p->ndsps);
        cg_set(o, "model", json_string("abstract"));
        cg_set(o, "dsps", json_integer(p->ndsps));
    } else {
        def = plat_bwdsp_defaults(a);
        if (all || p->nboards != 1)
            cg_set(o, "boards", json_integer(p->nboards));
        if (all || p->dsps_per_board != def->dsps_per_board)
            cg_set(o, "dsps_per_board", json_integer(p->dsps_per_board));
    }
#define X(field, lo, hi)                                                                 \
    if (all || p->field != def->field)                                                   \
        cg_set(o, #field, json_integer(p->field));
    PLATFORM_PARAMS(X)
#undef X
    arena_free(a);
    if (p->model != MODEL_ABSTRACT && (all || p->nlinks > 0)) {
        json_t *links = json_array();
        for (int i = 0; i < p->nlinks; i++)
            cg_push(links, json_pack("[ii]", p->links[i].a, p->links[i].b));
        cg_set(o, "links", links);
    }
    return o;
}

json_t *
cg_platform_object(const Platform *p)
{
    return platform_object(p, false);
}

char *
cg_platform_json_explicit(const Platform *p)
{
    return cg_dump(platform_object(p, true), 17);
}

json_t *
cg_graph_object(const Graph *g, bool platform_inline)
{
    json_t *o = json_object();
    cg_set(o, "format", json_string("tgc-graph/1"));
    if (g->name)
        cg_set(o, "name", json_string(g->name));
    if (g->iterations != 1)
        cg_set(o, "iterations", json_integer(g->iterations));
    if (g->period_constraint > 0)
        cg_set(o, "period_constraint", json_integer(g->period_constraint));
    bool inline_p = g->platform && (platform_inline || !g->platform_ref ||
                                    strcmp(g->platform_ref, "inline") == 0);
    if (inline_p)
        cg_set(o, "platform", cg_platform_object(g->platform));
    else if (g->platform_ref && strcmp(g->platform_ref, "bwdsp-1board") != 0)
        cg_set(o, "platform", json_string(g->platform_ref)); /* the default is left out */
    if (g->kernels_source || g->kernels_header) {
        json_t *k = json_object();
        if (g->kernels_source)
            cg_set(k, "source", json_string(g->kernels_source));
        if (g->kernels_header)
            cg_set(k, "header", json_string(g->kernels_header));
        cg_set(o, "kernels", k);
    }
    json_t *tasks = json_array();
    for (int i = 0; i < g->ntasks; i++) {
        const Task *t = &g->tasks[i];
        json_t *jt = json_object();
        cg_set(jt, "id", json_string(t->id));
        if (t->ncycles == 1) {
            cg_set(jt, "cycles", json_integer(t->cycles[0]));
        } else {
            json_t *c = json_array();
            for (int k = 0; k < t->ncycles; k++)
                cg_push(c, json_integer(t->cycles[k]));
            cg_set(jt, "cycles", c);
        }
        if (t->kernel)
            cg_set(jt, "kernel", json_string(t->kernel));
        if (t->nparams > 0) {
            json_t *ps = json_object();
            for (int k = 0; k < t->nparams; k++)
                cg_set(ps, t->params[k].name, param_value(&t->params[k]));
            cg_set(jt, "params", ps);
        }
        if (t->pins) {
            json_t *pins = json_array();
            for (int k = 0; k < t->npins; k++)
                cg_push(pins, json_integer(t->pins[k]));
            cg_set(jt, "dsp", pins);
        } else if (t->dsp >= 0)
            cg_set(jt, "dsp", json_integer(t->dsp));
        if (t->output)
            cg_set(jt, "output", json_string(t->output));
        if (g->firing && g->firing[i].count > 1) {
            cg_set(jt, "firing", json_integer(g->firing[i].index));
            cg_set(jt, "firings", json_integer(g->firing[i].count));
        }
        cg_push(tasks, jt);
    }
    cg_set(o, "tasks", tasks);
    json_t *edges = json_array();
    for (int i = 0; i < g->nedges; i++) {
        const Edge *e = &g->edges[i];
        json_t *je = json_object();
        cg_set(je, "from", json_string(g->tasks[e->from].id));
        cg_set(je, "to", json_string(g->tasks[e->to].id));
        if (e->bytes)
            cg_set(je, "bytes", json_integer(e->bytes));
        if (e->produce > 1)
            cg_set(je, "produce", json_integer(e->produce));
        if (e->consume > 1)
            cg_set(je, "consume", json_integer(e->consume));
        /* a delay as written before multi-rate graphs; the initial tokens of a channel
           of a multi-rate graph, or of one from a task to itself (which a delay cannot
           be, docs/formats.md) */
        if (e->delay && e->from != e->to)
            cg_set(je, "delay", json_integer(e->delay));
        else if (e->tokens > 0)
            cg_set(je, "tokens", json_integer(e->tokens));
        if (g->ports) {
            const EdgePort *p = &g->ports[i];
            if (p->from_port >= 0) {
                cg_set(je, "from_port", json_integer(p->from_port));
                if (p->from_off)
                    cg_set(je, "from_offset", json_integer(p->from_off));
            }
            if (p->to_port >= 0) {
                cg_set(je, "to_port", json_integer(p->to_port));
                if (p->to_off)
                    cg_set(je, "to_offset", json_integer(p->to_off));
            }
        }
        cg_push(edges, je);
    }
    cg_set(o, "edges", edges);
    return o;
}

char *
cg_graph_json(const Graph *g)
{
    return cg_dump(cg_graph_object(g, false), cg_real_precision(g));
}

/* The path of `target` relative to the folder of file `out` (both made canonical with
 * realpath), malloc'd; NULL when either cannot be resolved. */
char *
cg_relative_to(const char *out, const char *target)
{
    const char *slash = strrchr(out, '/');
    char dir[4096];
    if (!slash)
        strcpy(dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out) + (slash == out), out);
    char *from = realpath(dir, NULL), *to = realpath(target, NULL);
    char *rel = NULL;
    if (from && to) {
        /* the longest common prefix of whole components */
        size_t i = 0, common = 0;
        while (from[i] && from[i] == to[i]) {
            i++;
            if (from[i] == '/' || (from[i] == 0 && (to[i] == '/' || to[i] == 0)))
                common = i;
        }
        int ups = 0;
        if (strcmp(from, "/") != 0)
            for (const char *c = from + common; *c; c++)
                ups += *c == '/';
        else
            common = 0;
        rel = malloc((size_t)ups * 3 + strlen(to) + 2);
        if (!rel)
            ice("out of memory");
        char *w = rel;
        for (int k = 0; k < ups; k++, w += 3)
            memcpy(w, "../", 3);
        strcpy(w, to + common + (to[common] == '/'));
    }
    free(from);
    free(to);
    return rel;
}

void
cg_relative_kernels(json_t *graph, const char *out_path)
{
    json_t *k = json_object_get(graph, "kernels");
    if (!k || !out_path || strcmp(out_path, "-") == 0)
        return;
    static const char *const keys[] = {"source", "header"};
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(k, keys[i]);
        char *rel = v ? cg_relative_to(out_path, json_string_value(v)) : NULL;
        if (rel)
            cg_set(k, keys[i], json_string(rel));
        free(rel);
    }
}

char *
cg_graph_json_file(const Graph *g, const char *out_path)
{
    json_t *doc = cg_graph_object(g, false);
    cg_relative_kernels(doc, out_path);
    return cg_dump(doc, cg_real_precision(g));
}

char *
cg_platform_json(const Platform *p)
{
    return cg_dump(cg_platform_object(p), 17);
}
