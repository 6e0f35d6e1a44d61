/*
 * frontend/load.c - the tgc-graph/1 reader (jansson).
 *
 * Reading is two passes, each reporting every error it finds before stopping: lowering
 * (JSON syntax, schema, types, single-value ranges, references between tasks, size
 * limits) and then fe_check (the graph as a whole).  Strings are copied into the graph's
 * arena and the JSON document is released as soon as it is lowered; no json_t survives
 * in the IR.
 *
 * Accepted schema (docs/formats.md has the meaning and units of each field):
 *
 *   graph := {
 *     "format":     "tgc-graph/1",          required
 *     "name":       string,                 default: the file's base name without ".json"
 *     "iterations": integer >= 1,           default 1  (limit --max-iterations)
 *     "period_constraint": integer >= 1,    the largest acceptable period (cycles per
 *                                           iteration, docs/throughput.md); default none
 *     "platform":   preset | path | object, default "bwdsp-1board" (see platform_json.c;
 *                                           a path is relative to the graph's folder)
 *     "kernels":    { "source": path,       C file of the kernels, must exist
 *                     "header": path },     optional header; both relative to the graph
 *     "tasks":      [task, ...],            required, at least one (limit --max-tasks)
 *     "edges":      [edge, ...],            default [] (limit --max-edges)
 *     "x-...":      anything, ignored (in every object below too)
 *   }
 *   task := {
 *     "id":     string,                     required, unique, not empty
 *     "cycles": cost | [cost, ...],         required; 0..2^40; a list gives one cost per
 *                                           DSP and has as many entries as the platform;
 *                                           cost := integer | string, an expression of
 *                                           the integer params (cost_expr.c)
 *     "kernel": C identifier,               default: the built-in synthetic kernel
 *     "params": { name: integer | real | string | boolean, ... },  C identifier names
 *     "dsp":    integer | [integer, ...],   pins the task to a DSP of the platform; a
 *                                           list pins each firing of a multi-rate actor
 *     "output": string                      file the (sink) kernel writes
 *     "firing", "firings": integers         an expanded graph's (tgc expand): the task
 *                                           is firing 0 <= firing < firings of its actor
 *   }
 *   edge := {
 *     "from":  task id, "to": task id,      required; from != to unless "tokens" > 0
 *     "bytes": integer 0..2^30-1,            default 0 (a pure dependence); of one token
 *     "delay": integer 0..1000000           default 0; zero-delay edges form a DAG
 *     "produce", "consume": integer 1..2^31 tokens per firing of from / of to, default 1
 *     "tokens": integer 0..2^40             initial tokens (not with "delay"), default 0
 *     "from_port", "to_port": integer >= 0  an expanded graph's (tgc expand): the port of
 *     "from_offset", "to_offset": 0..2^30-1 from / to the edge is part of, at that byte
 *   }
 *
 * Integers may be written as reals with an integral value (1e6).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

static const char *const graph_fields[] = {
    "format", "name",   "iterations", "period_constraint", "platform", "kernels", "tasks",
    "edges",  "inputs", "outputs"};
static const char *const task_fields[] = {"id",     "cycles", "kernel",  "params", "dsp",
                                          "output", "firing", "firings", "graph"};
static const char *const edge_fields[] = {
    "from",   "to",        "bytes",       "delay",   "produce",  "consume",
    "tokens", "from_port", "from_offset", "to_port", "to_offset"};
static const char *const kernel_fields[] = {"source", "header"};
#define N(a) (sizeof a / sizeof a[0])

static Loc
at(Reader *r, const char *ptr)
{
    return (Loc){.file = r->file, .pointer = ptr};
}

/* One cost: an integer or a cycles expression of the task's params. */
static void
lower_cost(Reader *r, const Task *t, const FeIdMap *names, const json_t *v,
           const char *ptr, int64_t *out)
{
    Loc l = at(r, ptr);
    if (!json_is_string(v)) {
        if (fe_int(r, v, ptr, "cycles", out))
            fe_range(r->d, &l, "cycles", *out, 0, FE_MAX_CYCLES);
    } else if (fe_cost_expr(r, json_string_value(v), t->params, t->nparams, names, ptr,
                            out) &&
               (*out < 0 || *out > FE_MAX_CYCLES)) {
        fe_error(r, ptr,
                 "cycles must be in 0 .. %" PRId64 ", the expression gives %" PRId64,
                 FE_MAX_CYCLES, *out);
    }
}

/* The task's param names -> their indexes, for its cycles expressions: built once per
 * task, so that an expression naming every one of n params takes O(n), not O(n^2). */
static void
param_names(const Task *t, FeIdMap *m)
{
    const char **names = ir_xmalloc((size_t)t->nparams + 1, sizeof *names);
    for (int i = 0; i < t->nparams; i++)
        names[i] = t->params[i].name;
    fe_namemap_init(m, names, t->nparams);
    free(names);
}

static void
lower_costs(Reader *r, Graph *g, Task *t, const FeIdMap *names, const json_t *v,
            const char *ptr)
{
    if (json_is_array(v)) {
        size_t n = json_array_size(v);
        if (n == 0) {
            fe_error(r, ptr, "cycles must not be an empty list");
            return;
        }
        if ((int64_t)n > r->lim->max_dsps) {
            fe_error(r, ptr,
                     "cycles lists %zu costs, more than the limit of %" PRId64
                     " DSPs (raise it with --max-dsps)",
                     n, r->lim->max_dsps);
            return;
        }
        t->cycles = arena_array(g->arena, n, sizeof *t->cycles);
        t->ncycles = (int)n;
        for (size_t k = 0; k < n; k++)
            lower_cost(r, t, names, json_array_get(v, k), fe_ptr_index(r, ptr, k),
                       &t->cycles[k]);
        return;
    }
    if (!json_is_number(v) && !json_is_string(v)) {
        fe_error(r, ptr,
                 "cycles must be an integer, an expression (a string) or a list of them "
                 "(one per DSP), got %s",
                 fe_describe(r, v));
        return;
    }
    t->cycles = arena_alloc(g->arena, sizeof *t->cycles);
    t->ncycles = 1;
    lower_cost(r, t, names, v, ptr, &t->cycles[0]);
}

static void
lower_cycles(Reader *r, Graph *g, Task *t, const json_t *v, const char *ptr)
{
    FeIdMap names;
    param_names(t, &names);
    lower_costs(r, g, t, &names, v, ptr);
    fe_idmap_free(&names);
}

static void
lower_params(Reader *r, Graph *g, Task *t, const json_t *v, const char *ptr)
{
    if (!json_is_object(v)) {
        fe_error(r, ptr, "params must be an object, got %s", fe_describe(r, v));
        return;
    }
    t->params = arena_array(g->arena, json_object_size(v) + 1, sizeof *t->params);
    const char *key;
    json_t *pv;
    json_object_foreach ((json_t *)v, key, pv) {
        if (strncmp(key, "x-", 2) == 0)
            continue;
        Param *p = &t->params[t->nparams];
        p->name = arena_strdup(g->arena, key);
        switch (json_typeof(pv)) {
        case JSON_INTEGER:
            p->kind = PARAM_INT;
            p->i = json_integer_value(pv);
            break;
        case JSON_REAL:
            p->kind = PARAM_REAL;
            p->r = json_real_value(pv);
            break;
        case JSON_STRING:
            p->kind = PARAM_STRING;
            p->s = arena_strdup(g->arena, json_string_value(pv));
            break;
        case JSON_TRUE:
        case JSON_FALSE:
            p->kind = PARAM_BOOL;
            p->i = json_is_true(pv);
            break;
        default:
            fe_error(r, fe_ptr_key(r, ptr, key),
                     "parameter \"%s\" must be a number, a string or a boolean, got %s",
                     key, fe_describe(r, pv));
            continue;
        }
        t->nparams++;
    }
}

static const char *
copy_string(Reader *r, Graph *g, const json_t *o, const char *key, const char *ptr)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return NULL;
    const char *s = fe_string(r, v, fe_ptr_key(r, ptr, key), key);
    return s ? arena_strdup(g->arena, s) : NULL;
}

static void
lower_task(Reader *r, Graph *g, Task *t, const json_t *o, const char *ptr)
{
    t->dsp = -1;
    if (!json_is_object(o)) {
        fe_error(r, ptr, "a task must be an object, got %s", fe_describe(r, o));
        return;
    }
    fe_unknown_fields(r, (json_t *)o, ptr, task_fields, N(task_fields));
    const json_t *v;
    if (json_object_get(o, "id"))
        t->id = copy_string(r, g, o, "id", ptr);
    else
        fe_error(r, ptr, "missing field \"id\"");
    if ((v = json_object_get(o, "graph"))) {
        /* a subgraph actor: its body is a graph file (frontend/hier.c reads it); the
           rest of what a task has is its actors' */
        fe_string(r, v, fe_ptr_key(r, ptr, "graph"), "graph");
        static const char *const own[] = {"cycles", "kernel", "params", "dsp",
                                          "output", "firing", "firings"};
        for (size_t k = 0; k < N(own); k++)
            if (json_object_get(o, own[k]))
                fe_error(r, fe_ptr_key(r, ptr, own[k]),
                         "a task whose body is a subgraph (\"graph\") has no \"%s\" of "
                         "its own: its subgraph's actors have theirs",
                         own[k]);
        return;
    }
    t->kernel = copy_string(r, g, o, "kernel", ptr);
    if ((v = json_object_get(o, "params"))) /* before the cycles, which may use them */
        lower_params(r, g, t, v, fe_ptr_key(r, ptr, "params"));
    if ((v = json_object_get(o, "cycles")))
        lower_cycles(r, g, t, v, fe_ptr_key(r, ptr, "cycles"));
    else
        fe_error(r, ptr, "missing field \"cycles\"");
    if ((v = json_object_get(o, "dsp")) && json_is_array(v)) {
        /* a multi-rate actor's: one DSP per firing */
        const char *dp = fe_ptr_key(r, ptr, "dsp");
        size_t n = json_array_size(v);
        if (n == 0)
            fe_error(r, dp, "dsp must not be an empty list");
        else if (n > FE_MAX_FIRINGS)
            fe_error(r, dp, "dsp lists more than %d DSPs", FE_MAX_FIRINGS);
        else {
            t->pins = arena_array(g->arena, n, sizeof *t->pins);
            t->npins = (int)n;
            for (size_t k = 0; k < n; k++) {
                const char *kp = fe_ptr_index(r, dp, k);
                int64_t x;
                Loc l = at(r, kp);
                if (fe_int(r, json_array_get(v, k), kp, "dsp", &x) &&
                    fe_range(r->d, &l, "dsp", x, 0, INT_MAX))
                    t->pins[k] = (int)x;
            }
        }
    } else if (v) {
        const char *dp = fe_ptr_key(r, ptr, "dsp");
        int64_t x;
        if (fe_int(r, v, dp, "dsp", &x)) {
            Loc l = at(r, dp);
            if (fe_range(r->d, &l, "dsp", x, 0, INT_MAX))
                t->dsp = (int)x;
        }
    }
    t->output = copy_string(r, g, o, "output", ptr);
    /* an expanded graph's: which firing of its actor the task is */
    static const char *const fire[] = {"firing", "firings"};
    for (int k = 0; k < 2; k++) {
        if (!(v = json_object_get(o, fire[k])))
            continue;
        const char *fp = fe_ptr_key(r, ptr, fire[k]);
        int64_t x;
        Loc l = at(r, fp);
        if (!fe_int(r, v, fp, fire[k], &x) ||
            !fe_range(r->d, &l, fire[k], x, k, FE_MAX_FIRINGS))
            continue;
        if (!g->firing) {
            g->firing = arena_array(g->arena, (size_t)g->ntasks + 1, sizeof *g->firing);
            for (int i = 0; i < g->ntasks; i++)
                g->firing[i] = (Firing){0, 1};
        }
        Firing *f = &g->firing[t - g->tasks];
        *(k ? &f->count : &f->index) = x;
    }
}

/* The task an edge names, or -1 after reporting. */
static int
edge_end(Reader *r, Graph *g, const FeIdMap *ids, const json_t *o, const char *key,
         const char *ptr, int *misses)
{
    const json_t *v = json_object_get(o, key);
    if (!v) {
        fe_error(r, ptr, "missing field \"%s\"", key);
        return -1;
    }
    const char *kp = fe_ptr_key(r, ptr, key);
    const char *id = fe_string(r, v, kp, key);
    if (!id)
        return -1;
    int t = fe_idmap_find(ids, id);
    if (t >= 0)
        return t;
    /* Suggestions cost a comparison with every id; keep them to small totals of work. */
    const char *hint = NULL;
    if ((int64_t)++ * misses * g->ntasks <= 1000000) {
        const char **cands = arena_array(r->tmp, (size_t)g->ntasks + 1, sizeof *cands);
        size_t n = 0;
        for (int k = 0; k < g->ntasks; k++)
            if (g->tasks[k].id)
                cands[n++] = g->tasks[k].id;
        hint = diag_suggest(id, cands, n);
    }
    if (hint)
        fe_error(r, kp, "unknown task \"%s\" (did you mean \"%s\"?)", id, hint);
    else
        fe_error(r, kp, "unknown task \"%s\"", id);
    return -1;
}

static void
lower_edge(Reader *r, Graph *g, const FeIdMap *ids, Edge *e, const json_t *o,
           const char *ptr, int *misses)
{
    e->from = e->to = -1;
    if (!json_is_object(o)) {
        fe_error(r, ptr, "an edge must be an object, got %s", fe_describe(r, o));
        return;
    }
    fe_unknown_fields(r, (json_t *)o, ptr, edge_fields, N(edge_fields));
    e->from = edge_end(r, g, ids, o, "from", ptr, misses);
    e->to = edge_end(r, g, ids, o, "to", ptr, misses);
    const json_t *v;
    int64_t x;
    if ((v = json_object_get(o, "bytes"))) {
        const char *bp = fe_ptr_key(r, ptr, "bytes");
        Loc l = at(r, bp);
        if (fe_int(r, v, bp, "bytes", &x) &&
            fe_range(r->d, &l, "bytes", x, 0, FE_MAX_BYTES))
            e->bytes = x;
    }
    if ((v = json_object_get(o, "delay"))) {
        const char *dp = fe_ptr_key(r, ptr, "delay");
        Loc l = at(r, dp);
        if (fe_int(r, v, dp, "delay", &x) &&
            fe_range(r->d, &l, "delay", x, 0, FE_MAX_DELAY))
            e->delay = (int)x;
    }
    /* the channel of a multi-rate graph: rates per firing, initial tokens */
    static const char *const rates[] = {"produce", "consume"};
    for (int k = 0; k < 2; k++)
        if ((v = json_object_get(o, rates[k]))) {
            const char *rp = fe_ptr_key(r, ptr, rates[k]);
            Loc l = at(r, rp);
            if (fe_int(r, v, rp, rates[k], &x) &&
                fe_range(r->d, &l, rates[k], x, 1, FE_MAX_RATE))
                *(k ? &e->consume : &e->produce) = x;
        }
    /* an expanded graph's: the ports of its tasks the edge belongs to */
    static const char *const port_keys[][2] = {{"from_port", "from_offset"},
                                               {"to_port", "to_offset"}};
    for (int k = 0; k < 2; k++) {
        const json_t *pv = json_object_get(o, port_keys[k][0]);
        const json_t *ov = json_object_get(o, port_keys[k][1]);
        if ((!pv && !ov) || (json_is_string(pv) && !ov)) /* none, or hier.c's */
            continue;
        if (!g->ports) {
            g->ports = arena_array(g->arena, (size_t)g->nedges + 1, sizeof *g->ports);
            for (int i = 0; i < g->nedges; i++)
                g->ports[i] = (EdgePort){-1, -1, 0, 0};
        }
        EdgePort *ep = &g->ports[e - g->edges];
        const char *pp = fe_ptr_key(r, ptr, port_keys[k][0]);
        const char *op = fe_ptr_key(r, ptr, port_keys[k][1]);
        Loc lp = at(r, pp), lo = at(r, op);
        if (!pv)
            fe_error(r, op, "%s needs %s", port_keys[k][1], port_keys[k][0]);
        else if (json_is_string(pv)) /* the port of a subgraph actor: hier.c's */
            ;
        else if (fe_int(r, pv, pp, port_keys[k][0], &x) &&
                 fe_range(r->d, &lp, port_keys[k][0], x, 0, INT_MAX - 1))
            *(k ? &ep->to_port : &ep->from_port) = (int)x;
        if (ov && fe_int(r, ov, op, port_keys[k][1], &x) &&
            fe_range(r->d, &lo, port_keys[k][1], x, 0, FE_MAX_BYTES))
            *(k ? &ep->to_off : &ep->from_off) = x;
    }
    if ((v = json_object_get(o, "tokens"))) {
        const char *tp = fe_ptr_key(r, ptr, "tokens");
        Loc l = at(r, tp);
        if (json_object_get(o, "delay"))
            fe_error(r, tp,
                     "give either \"delay\" or \"tokens\", not both (a delay of d "
                     "stands for d iterations of initial tokens)");
        else if (fe_int(r, v, tp, "tokens", &x) &&
                 fe_range(r->d, &l, "tokens", x, 0, FE_MAX_TOKENS))
            e->tokens = x;
    }
}

/* The default name of a graph: the file's base name without ".json". */
static const char *
base_name(Arena *a, const char *file)
{
    if (strcmp(file, "<stdin>") == 0)
        return "stdin";
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    size_t n = strlen(b);
    if (n > 5 && strcmp(b + n - 5, ".json") == 0)
        n -= 5;
    return n ? arena_strndup(a, b, n) : "graph";
}

static void
lower_graph(Reader *r, Graph *g, const json_t *root)
{
    if (!json_is_object(root)) {
        fe_error(r, "", "a task graph must be a JSON object, got %s",
                 fe_describe(r, root));
        return;
    }
    const json_t *v;
    const char *s;
    int64_t x;

    /* Another tgc format is one mistake, not a field-by-field mismatch. */
    v = json_object_get(root, "format");
    if (json_is_string(v) && (strcmp(json_string_value(v), "tgc-schedule/1") == 0 ||
                              strcmp(json_string_value(v), "tgc-platform/1") == 0)) {
        bool sched = json_string_value(v)[4] == 's';
        fe_error(r, "/format", "this is a %s file, not a task graph (%s)",
                 json_string_value(v),
                 sched ? "read it with \"tgc schedule --from\""
                       : "name it with --platform or in the graph's \"platform\"");
        return;
    }
    fe_unknown_fields(r, (json_t *)root, "", graph_fields, N(graph_fields));
    /* a subgraph (docs/formats.md, "Subgraphs") has interface ports and runs as part of
       the graph that includes it */
    static const char *const iface[] = {"inputs", "outputs"}, *const top[] = {
                                                                  "iterations",
                                                                  "platform",
                                                                  "period_constraint"};
    for (int k = 0; k < 2 && !r->subgraph; k++)
        if (json_object_get(root, iface[k]))
            fe_error(
                r, fe_ptr_key(r, "", iface[k]),
                "a graph with interface ports (\"inputs\", \"outputs\") is a "
                "subgraph: name it in the \"graph\" field of a task of the graph that "
                "uses it");
    for (int k = 0; k < 3 && r->subgraph; k++)
        if (json_object_get(root, top[k]))
            fe_error(r, fe_ptr_key(r, "", top[k]),
                     "a subgraph runs as part of the graph that includes it: \"%s\" "
                     "belongs to the top-level graph",
                     top[k]);

    if ((v = json_object_get(root, "format"))) {
        if ((s = fe_string(r, v, "/format", "format")) && strcmp(s, "tgc-graph/1") != 0)
            fe_error(r, "/format", "format must be \"tgc-graph/1\", got \"%s\"", s);
    } else {
        fe_error(r, "",
                 "missing field \"format\" (a task graph starts with \"format\": "
                 "\"tgc-graph/1\")");
    }
    g->name = copy_string(r, g, root, "name", "");
    if (!g->name)
        g->name = base_name(g->arena, g->file);
    if ((v = json_object_get(root, "iterations"))) {
        Loc l = at(r, "/iterations");
        if (fe_int(r, v, "/iterations", "iterations", &x) &&
            fe_range(r->d, &l, "iterations", x, 1, INT64_MAX))
            g->iterations = x;
    }
    if ((v = json_object_get(root, "period_constraint"))) {
        Loc l = at(r, "/period_constraint");
        if (fe_int(r, v, "/period_constraint", "period_constraint", &x) &&
            fe_range(r->d, &l, "period_constraint", x, 1, FE_MAX_TOTAL))
            g->period_constraint = x;
    }

    if ((v = json_object_get(root, "kernels"))) {
        if (!json_is_object(v)) {
            fe_error(
                r, "/kernels",
                "kernels must be an object {\"source\": ..., \"header\": ...}, got %s",
                fe_describe(r, v));
        } else {
            fe_unknown_fields(r, (json_t *)v, "/kernels", kernel_fields,
                              N(kernel_fields));
            const char *src = copy_string(r, g, v, "source", "/kernels");
            const char *hdr = copy_string(r, g, v, "header", "/kernels");
            if (!json_object_get(v, "source"))
                fe_error(r, "/kernels", "missing field \"source\"");
            if (src)
                g->kernels_source = fe_join(g->arena, r->base_dir, src);
            if (hdr)
                g->kernels_header = fe_join(g->arena, r->base_dir, hdr);
        }
    }

    /* Sizes are checked on the JSON arrays before anything is allocated for them. */
    const json_t *tasks = json_object_get(root, "tasks");
    bool tasks_ok = false;
    if (!tasks) {
        fe_error(r, "", "missing field \"tasks\"");
    } else if (!json_is_array(tasks)) {
        fe_error(r, "/tasks", "tasks must be an array, got %s", fe_describe(r, tasks));
    } else if ((int64_t)json_array_size(tasks) > r->lim->max_tasks) {
        fe_error(r, "/tasks",
                 "%zu tasks exceed the limit of %" PRId64 " (raise it with --max-tasks)",
                 json_array_size(tasks), r->lim->max_tasks);
    } else {
        size_t n = json_array_size(tasks);
        g->tasks = arena_array(g->arena, n + 1, sizeof *g->tasks);
        g->ntasks = (int)n;
        for (size_t i = 0; i < n; i++)
            lower_task(r, g, &g->tasks[i], json_array_get(tasks, i),
                       fe_ptr_index(r, "/tasks", i));
        tasks_ok = true;
    }

    const json_t *edges = json_object_get(root, "edges");
    if (!edges)
        return;
    if (!json_is_array(edges)) {
        fe_error(r, "/edges", "edges must be an array, got %s", fe_describe(r, edges));
    } else if ((int64_t)json_array_size(edges) > r->lim->max_edges) {
        fe_error(r, "/edges",
                 "%zu edges exceed the limit of %" PRId64 " (raise it with --max-edges)",
                 json_array_size(edges), r->lim->max_edges);
    } else if (tasks_ok) {
        size_t m = json_array_size(edges);
        g->edges = arena_array(g->arena, m + 1, sizeof *g->edges);
        g->nedges = (int)m;
        FeIdMap ids;
        fe_idmap_init(&ids, g);
        int misses = 0;
        for (size_t i = 0; i < m; i++)
            lower_edge(r, g, &ids, &g->edges[i], json_array_get(edges, i),
                       fe_ptr_index(r, "/edges", i), &misses);
        fe_idmap_free(&ids);
    }
}

void
fe_lower(Reader *r, Graph *g, const json_t *root)
{
    lower_graph(r, g, root);
}

/* The platform: --platform wins over the graph's, --dsps resizes it, the default is
 * bwdsp-1board.  The graph's own platform is read (and its errors reported) even when
 * --platform overrides it. */
static void
resolve_platform(Reader *r, Graph *g, const json_t *root, const Options *opt)
{
    const json_t *v = json_is_object(root) ? json_object_get(root, "platform") : NULL;
    const char *where = NULL;
    if (v) {
        g->platform = fe_platform_value(r, g->arena, v, "/platform");
        g->platform_ref =
            json_is_string(v) ? arena_strdup(g->arena, json_string_value(v)) : "inline";
        where = "/platform";
    }
    if (opt && opt->platform) {
        /* Relative to the current folder, as every path on the command line. */
        Reader optr = *r;
        optr.base_dir = NULL;
        g->platform = fe_platform_ref(&optr, g->arena, opt->platform, NULL);
        g->platform_ref = arena_strdup(g->arena, opt->platform);
        where = NULL;
    } else if (!v) {
        g->platform = plat_preset(g->arena, "bwdsp-1board");
        g->platform_ref = "bwdsp-1board";
    }
    Platform *p = g->platform;
    if (!p)
        return;
    p->no_contention = opt && opt->no_contention;
    bool by_option = opt && opt->platform;
    Loc loc = {.file = by_option ? "tgc" : r->file, .pointer = where};
    if (opt && opt->dsps > 0) {
        const char *why = NULL;
        if (opt->dsps > r->lim->max_dsps) {
            diag_error(r->d, &loc,
                       "--dsps %d exceeds the limit of %" PRId64
                       " DSPs (raise it with --max-dsps)",
                       opt->dsps, r->lim->max_dsps);
            g->platform = NULL;
            return;
        }
        int set = plat_set_dsps(g->arena, p, opt->dsps, &why);
        if (set != 0) {
            diag_error(r->d, &(Loc){.file = "tgc"}, "--dsps %d: %s", opt->dsps,
                       why ? why : "the board links are not connected");
            ir_usage_error = set == -1;
            g->platform = NULL;
            return;
        }
    }
    if (p->ndsps > r->lim->max_dsps) {
        diag_error(r->d, &loc,
                   "platform \"%s\" has %d DSPs, more than the limit of %" PRId64
                   " (raise it with --max-dsps)",
                   p->name, p->ndsps, r->lim->max_dsps);
        g->platform = NULL;
    }
}

Graph *
fe_load_text(const char *text, size_t len, const char *file, const char *base_dir,
             const Options *opt, Diag *d)
{
    Options defaults = {.limits = ir_default_limits()};
    if (!opt)
        opt = &defaults;
    Reader r = {.d = d,
                .file = file,
                .base_dir = base_dir,
                .lim = &opt->limits,
                .tmp = arena_new(),
                .opt = opt};
    int e0 = diag_errors(d);
    json_t *root = fe_parse(&r, text, len);
    if (!root) {
        arena_free(r.tmp);
        return NULL;
    }
    Graph *g = ir_graph_new();
    g->file = arena_strdup(g->arena, file);
    g->dir = base_dir ? arena_strdup(g->arena, base_dir) : ".";
    r.file = g->file;
    lower_graph(&r, g, root);
    resolve_platform(&r, g, root, opt);
    /* the subgraphs, once the graph itself and its platform read well */
    char *real = strcmp(file, "<stdin>") != 0 ? realpath(file, NULL) : NULL;
    FeStack top = {.real = real ? arena_strdup(r.tmp, real) : NULL, .shown = g->file};
    free(real);
    r.stack = &top;
    int64_t loaded = 0;
    r.loaded = &loaded;
    if (diag_errors(d) == e0)
        fe_flatten(&r, g, root, NULL);
    json_decref(root);
    arena_free(r.tmp);
    if (diag_errors(d) != e0) {
        ir_graph_free(g);
        return NULL;
    }
    if (opt->iterations > 0)
        g->iterations = opt->iterations;
    if (fe_check(g, opt, d) != 0) {
        ir_graph_free(g);
        return NULL;
    }
    return g;
}

Graph *
fe_load_graph_string(const char *text, const char *name, const Options *opt, Diag *d)
{
    return fe_load_text(text, strlen(text), name ? name : "<string>", NULL, opt, d);
}

Graph *
fe_load_graph(const char *path, const Options *opt, Diag *d)
{
    Options defaults = {.limits = ir_default_limits()};
    if (!opt)
        opt = &defaults;
    bool is_stdin = strcmp(path, "-") == 0;
    const char *file = is_stdin ? "<stdin>" : path;
    Reader r = {.d = d, .file = file, .lim = &opt->limits, .tmp = arena_new()};
    size_t len;
    char *text = fe_read_file(&r, path, NULL, &len);
    Graph *g = NULL;
    if (text) {
        const char *dir = is_stdin ? NULL : fe_dirname(r.tmp, path);
        g = fe_load_text(text, len, file, dir, opt, d);
        free(text);
    }
    arena_free(r.tmp);
    return g;
}
