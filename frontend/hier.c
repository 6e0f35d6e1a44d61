/*
 * frontend/hier.c - hierarchical graphs (docs/formats.md, "Subgraphs"): a task whose body
 * is another graph file, flattened with its rates while the file that names it is read.
 *
 *   task := { "id": "enc", "graph": "encoder.json" }
 *       a subgraph actor: no cycles, kernel, params, pin or output of its own
 *   edge := { ..., "from_port": NAME, "to_port": NAME }
 *       the interface port of a subgraph actor the edge leaves or enters (optional
 *       when it has one)
 *   subgraph file := a tgc-graph/1 graph without iterations, platform and
 *       period_constraint, with interface ports:
 *       "inputs":  [ { "name": NAME, "to": TASK, "consume": N, "port": NAME }, ... ]
 *       "outputs": [ { "name": NAME, "from": TASK, "produce": N, "port": NAME }, ... ]
 *       (a port's tokens enter or leave TASK, N per firing of it, default 1; "port"
 *       names TASK's own port when TASK is itself a subgraph actor, whose rate it then
 *       has)
 *
 * A firing of the subgraph actor is one iteration of its graph: per firing it reads on an
 * input port q[TASK] x N tokens, q its graph's repetition vector.  Flattening replaces
 * the actor "enc" by its graph's actors, named "enc/ACTOR", and connects each edge of the
 * port to TASK with the rate N, so that the repetition vector of the flattened graph
 * fires them q[enc] x q[ACTOR] times per iteration.  An edge to the port may give its
 * consume (its produce, leaving an output): then it must be the port's rate per firing of
 * the actor, q[TASK] x N.  Each port takes exactly one channel.  Inside, a channel of the
 * subgraph keeps its initial tokens (a delay there is iterations of the subgraph, turned
 * into tokens with its own repetition vector).  The actor whose port it is sees the
 * port's channel first among its channels on that side, in the order of the ports, then
 * its own (docs/kernels.md).
 *
 * A subgraph file is read, flattened (its own subgraphs first) and checked as a graph of
 * its own (fe_check, its errors located in it) before it is joined; a file that includes
 * itself, directly or not, is refused (an include cycle), as is a subgraph that cannot be
 * read or is no graph.  Its kernel source is the program's: the same file as the
 * including graph's, or the including graph takes it when it has none.  Every task and
 * edge of the flattened graph remembers where it was written (g->task_origin,
 * g->edge_origin), so that fe_check's messages on the whole graph point into the right
 * file.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fe.h"

enum { MAX_DEPTH = 32 }; /* subgraphs inside subgraphs */

typedef struct Child {
    Graph *g; /* flattened and checked, NULL when it failed */
    FeIface ports;
    int base;                 /* its first actor in the flattened graph */
    bool *in_used, *out_used; /* [nin], [nout] */
} Child;

static const char *const port_fields[][4] = {{"name", "to", "consume", "port"},
                                             {"name", "from", "produce", "port"}};

/* The canonical path, in a (NULL when it does not resolve). */
static const char *
real_of(Arena *a, const char *path)
{
    char *r = realpath(path, NULL);
    const char *s = r ? arena_strdup(a, r) : NULL;
    free(r);
    return s;
}

/* Reads, flattens and checks the subgraph file of task t (its "graph" value v). */
static Graph *
load_child(Reader *r, Graph *g, int t, const char *given, FeIface *ports)
{
    const char *ptr = arena_printf(r->tmp, "/tasks/%d/graph", t);
    Loc where = {.file = r->file, .pointer = ptr};
    const char *path = fe_join(g->arena, r->base_dir, given);
    const char *real = real_of(r->tmp, path);
    int depth = r->stack ? r->stack->depth : 0;
    for (const FeStack *s = r->stack; real && s; s = s->up)
        if (s->real && strcmp(s->real, real) == 0) {
            /* the chain from the file that includes itself down to here */
            FeBuf chain = {0};
            const FeStack *frames[MAX_DEPTH + 2];
            int n = 0;
            for (const FeStack *f = r->stack; f && n < MAX_DEPTH + 1; f = f->up) {
                frames[n++] = f;
                if (f == s)
                    break;
            }
            for (int k = n - 1; k >= 0; k--) {
                fe_buf_add(&chain, frames[k]->shown);
                fe_buf_add(&chain, " -> ");
            }
            fe_buf_add(&chain, path);
            diag_error(r->d, &where,
                       "include cycle: %s (a graph cannot contain itself as a subgraph)",
                       chain.s);
            free(chain.s);
            return NULL;
        }
    if (depth >= MAX_DEPTH) {
        diag_error(r->d, &where, "subgraphs nested more than %d deep", MAX_DEPTH);
        return NULL;
    }
    if (r->loaded && *r->loaded > r->lim->max_tasks) {
        diag_error(r->d, &where,
                   "the subgraphs hold more than %" PRId64
                   " tasks in all (raise the limit with --max-tasks)",
                   r->lim->max_tasks);
        return NULL;
    }
    Reader sr = {.d = r->d,
                 .loaded = r->loaded,
                 .file = path,
                 .base_dir = fe_dirname(g->arena, path),
                 .lim = r->lim,
                 .tmp = r->tmp,
                 .subgraph = true,
                 .opt = r->opt};
    /* a regular file, refused before it is opened otherwise (a FIFO would block) */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        diag_error(r->d, &where, "subgraph \"%s\" is %s", ir_shown(r->tmp, path, 200),
                   S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
        return NULL;
    }
    size_t len;
    char *text = fe_read_file(&sr, path, &where, &len);
    if (!text)
        return NULL;
    int e0 = diag_errors(r->d);
    json_t *root = fe_parse(&sr, text, len);
    free(text);
    Graph *c = NULL;
    if (root) {
        c = ir_graph_new();
        c->file = arena_strdup(c->arena, path);
        c->dir = sr.base_dir;
        c->platform = g->platform;
        c->platform_ref = g->platform_ref;
        c->iterations = 1;
        FeStack frame = {.real = real, .shown = path, .up = r->stack, .depth = depth + 1};
        sr.stack = &frame;
        fe_lower(&sr, c, root);
        if (sr.loaded)
            *sr.loaded += c->ntasks;
        if (diag_errors(r->d) == e0)
            fe_flatten(&sr, c, root, ports);
        json_decref(root);
        Options o = r->opt ? *r->opt : (Options){.limits = *r->lim};
        o.read_kernels = false; /* the program's kernels are read with the graph's */
        o.iterations = 0;
        if (diag_errors(r->d) == e0)
            fe_check(c, &o, r->d);
    }
    if (diag_errors(r->d) != e0) {
        diag_note(r->d, &where, "in subgraph \"%s\" of task \"%s\"", path,
                  g->tasks[t].id);
        ir_graph_free(c);
        return NULL;
    }
    return c;
}

/* The kernel files of a subgraph are those of the program. */
static void
join_kernels(Reader *r, Graph *g, const Graph *c, int t)
{
    const char *mine[2] = {g->kernels_source, g->kernels_header};
    const char *its[2] = {c->kernels_source, c->kernels_header};
    static const char *const key[2] = {"source", "header"};
    if (!its[0] && !its[1])
        return;
    if (!mine[0] && !mine[1]) {
        g->kernels_source =
            c->kernels_source ? arena_strdup(g->arena, c->kernels_source) : NULL;
        g->kernels_header =
            c->kernels_header ? arena_strdup(g->arena, c->kernels_header) : NULL;
        return;
    }
    for (int k = 0; k < 2; k++) {
        const char *a = mine[k] ? real_of(r->tmp, mine[k]) : NULL;
        const char *b = its[k] ? real_of(r->tmp, its[k]) : NULL;
        bool same = (!mine[k] && !its[k]) || (a && b && strcmp(a, b) == 0);
        if (!same) {
            Loc l = {.file = c->file,
                     .pointer = arena_printf(r->tmp, "/kernels/%s", key[k])};
            diag_error(r->d, &l,
                       "kernel %s \"%s\" is not the one of the graph that includes it "
                       "(\"%s\"): a program has one kernel source and header",
                       key[k], its[k] ? its[k] : "(none)", mine[k] ? mine[k] : "(none)");
            Loc where = {.file = r->file,
                         .pointer = arena_printf(r->tmp, "/tasks/%d/graph", t)};
            diag_note(r->d, &where, "in subgraph \"%s\" of task \"%s\"", c->file,
                      g->tasks[t].id);
        }
    }
}

/* The interface ports of g's file, against g's tasks before flattening (task indices;
 * a port of a subgraph actor resolved through that actor's own port). */
static void
read_ports(Reader *r, const Graph *g, const json_t *root, Child *kids, FeIface *out)
{
    FeIdMap ids;
    fe_idmap_init(&ids, g);
    for (int side = 0; side < 2; side++) {
        const char *key = side ? "outputs" : "inputs";
        const json_t *a = json_object_get(root, key);
        const char *ap = fe_ptr_key(r, "", key);
        size_t n = json_is_array(a) ? json_array_size(a) : 0;
        if (a && !json_is_array(a))
            fe_error(r, ap, "%s must be an array of ports, got %s", key,
                     fe_describe(r, a));
        FePort *ports = arena_array(r->tmp, n + 1, sizeof *ports);
        bool *normal = arena_array(r->tmp, n + 1, sizeof *normal);
        int np = 0;
        for (size_t i = 0; i < n; i++) {
            const json_t *o = json_array_get(a, i);
            const char *pp = fe_ptr_index(r, ap, i);
            if (!json_is_object(o)) {
                fe_error(r, pp, "a port must be an object, got %s", fe_describe(r, o));
                continue;
            }
            fe_unknown_fields(r, (json_t *)o, pp, port_fields[side], 4);
            const char *name = NULL, *task = NULL, *inner = NULL;
            const json_t *v;
            if (!(v = json_object_get(o, "name")))
                fe_error(r, pp, "missing field \"name\"");
            else if ((name = fe_string(r, v, fe_ptr_key(r, pp, "name"), "name")) &&
                     !*name)
                fe_error(r, fe_ptr_key(r, pp, "name"), "name must not be empty");
            for (int k = 0; name && k < np; k++)
                if (strcmp(ports[k].name, name) == 0) {
                    fe_error(r, fe_ptr_key(r, pp, "name"),
                             "duplicate %s port \"%s\" (first at %s/%d)",
                             side ? "output" : "input", name, ap, k);
                    name = NULL;
                }
            const char *tk = port_fields[side][1], *rk = port_fields[side][2];
            const char *tp = fe_ptr_key(r, pp, tk);
            if (!(v = json_object_get(o, tk)))
                fe_error(r, pp, "missing field \"%s\"", tk);
            else
                task = fe_string(r, v, tp, tk);
            int t = task ? fe_idmap_find(&ids, task) : -1;
            if (task && t < 0)
                fe_error(r, tp, "unknown task \"%s\"", task);
            if ((v = json_object_get(o, "port")))
                inner = fe_string(r, v, fe_ptr_key(r, pp, "port"), "port");
            int64_t rate = 1;
            bool given = false;
            if ((v = json_object_get(o, rk))) {
                Loc l = fe_loc(r, fe_ptr_key(r, pp, rk));
                given = fe_int(r, v, l.pointer, rk, &rate) &&
                        fe_range(r->d, &l, rk, rate, 1, FE_MAX_RATE);
            }
            if (!name || t < 0)
                continue;
            FePort port = {.name = arena_strdup(r->tmp, name), .task = t, .rate = rate};
            Child *k = &kids[t];
            if (k->g) { /* the port of a subgraph actor: that actor's own port */
                const FePort *kp = side ? k->ports.out : k->ports.in;
                int kn = side ? k->ports.nout : k->ports.nin, found = -1;
                for (int j = 0; j < kn; j++)
                    if (inner ? strcmp(kp[j].name, inner) == 0 : kn == 1)
                        found = j;
                if (found < 0 && inner)
                    fe_error(r, fe_ptr_key(r, pp, "port"),
                             "subgraph task \"%s\" has no %s port \"%s\"", task,
                             side ? "output" : "input", inner);
                else if (found < 0)
                    fe_error(
                        r, fe_ptr_key(r, pp, tk),
                        "subgraph task \"%s\" has %d %s ports: name one with \"port\"",
                        task, kn, side ? "output" : "input");
                if (found < 0)
                    continue;
                int64_t per = k->g->repetitions[kp[found].task] * kp[found].rate;
                if (given && rate != per) {
                    fe_error(
                        r, fe_ptr_key(r, pp, rk),
                        "%s must be %" PRId64 ", the tokens subgraph task \"%s\" %s on "
                        "its port \"%s\" per firing, got %" PRId64,
                        rk, per, task, side ? "writes" : "reads", kp[found].name, rate);
                    continue;
                }
                bool *used = side ? k->out_used : k->in_used;
                if (used[found]) {
                    fe_error(r, fe_ptr_key(r, pp, inner ? "port" : tk),
                             "%s port \"%s\" of subgraph task \"%s\" already has its "
                             "channel (a port takes one)",
                             side ? "output" : "input", kp[found].name, task);
                    continue;
                }
                used[found] = true;
                port.task = k->base + kp[found].task;
                port.rate = kp[found].rate;
                port.rank = kp[found].rank;
            } else if (inner) {
                fe_error(
                    r, fe_ptr_key(r, pp, "port"),
                    "\"port\" names a port of a subgraph actor, and task \"%s\" is not "
                    "one",
                    task);
                continue;
            } else {
                port.task = k->base;
                normal[np] = true;
            }
            ports[np++] = port;
        }
        /* a port of one of g's own actors comes first among its channels, in the
           order of the ports (one through a subgraph actor keeps the rank it has in
           that subgraph) */
        for (int k = 0; k < np; k++) {
            if (!normal[k])
                continue;
            for (int j = 0; j < k; j++)
                ports[k].rank += normal[j] && ports[j].task == ports[k].task;
        }
        if (side) {
            out->out = ports;
            out->nout = np;
        } else {
            out->in = ports;
            out->nin = np;
        }
    }
    fe_idmap_free(&ids);
}

int
fe_flatten(Reader *r, Graph *g, const json_t *root, FeIface *iface)
{
    int e0 = diag_errors(r->d);
    const json_t *tasks = json_object_get(root, "tasks");
    const json_t *edges = json_object_get(root, "edges");
    int n = g->ntasks;
    Child *kids = arena_array(r->tmp, (size_t)n + 1, sizeof *kids);
    bool any = false;
    for (int t = 0; t < n; t++) {
        const json_t *v = json_object_get(json_array_get(tasks, (size_t)t), "graph");
        if (!json_is_string(v))
            continue;
        any = true;
        kids[t].g = load_child(r, g, t, json_string_value(v), &kids[t].ports);
        if (kids[t].g)
            join_kernels(r, g, kids[t].g, t);
        kids[t].in_used = arena_array(r->tmp, (size_t)kids[t].ports.nin + 1, 1);
        kids[t].out_used = arena_array(r->tmp, (size_t)kids[t].ports.nout + 1, 1);
    }
    if (diag_errors(r->d) != e0)
        goto done;
    /* the flattened actors: each task, or its subgraph's actors in their place */
    int64_t nt = 0, ne = g->nedges;
    for (int t = 0; t < n; t++) {
        kids[t].base = (int)nt;
        nt += kids[t].g ? kids[t].g->ntasks : 1;
        ne += kids[t].g ? kids[t].g->nedges : 0;
        if (nt > r->lim->max_tasks || ne > r->lim->max_edges)
            break;
    }
    if (nt > r->lim->max_tasks || ne > r->lim->max_edges) {
        fe_error(r, nt > r->lim->max_tasks ? "/tasks" : "/edges",
                 "the subgraphs flatten into more than %" PRId64
                 " %s (raise the limit with --max-%s)",
                 nt > r->lim->max_tasks ? r->lim->max_tasks : r->lim->max_edges,
                 nt > r->lim->max_tasks ? "tasks" : "edges",
                 nt > r->lim->max_tasks ? "tasks" : "edges");
        goto done;
    }
    if (iface)
        read_ports(r, g, root, kids, iface);
    if (!any && !iface)
        goto done;
    if ((any || iface) && (g->ports || g->firing)) {
        fe_error(r, "",
                 "the ports and firings of an expanded graph do not mix with "
                 "subgraphs");
        goto done;
    }
    /* how many of g's ports each of its own actors has on each side: its edges come
       after them */
    int *pin = arena_array(r->tmp, (size_t)nt + 1, sizeof *pin);
    int *pout = arena_array(r->tmp, (size_t)nt + 1, sizeof *pout);
    for (int k = 0; iface && k < iface->nin; k++)
        pin[iface->in[k].task]++;
    for (int k = 0; iface && k < iface->nout; k++)
        pout[iface->out[k].task]++;
    Task *ft = arena_array(g->arena, (size_t)nt + 1, sizeof *ft);
    Origin *to = arena_array(g->arena, (size_t)nt + 1, sizeof *to);
    for (int t = 0; t < n; t++) {
        const Graph *c = kids[t].g;
        if (!c) {
            ft[kids[t].base] = g->tasks[t];
            to[kids[t].base] = g->task_origin ? g->task_origin[t] : (Origin){r->file, t};
            continue;
        }
        for (int k = 0; k < c->ntasks; k++) {
            Task *x = &ft[kids[t].base + k];
            *x = c->tasks[k];
            x->id = arena_printf(g->arena, "%s/%s", g->tasks[t].id, c->tasks[k].id);
            /* the subgraph's arena dies with it: what the task points at moves here */
            x->cycles = arena_array(g->arena, (size_t)x->ncycles + 1, sizeof *x->cycles);
            memcpy(x->cycles, c->tasks[k].cycles, (size_t)x->ncycles * sizeof *x->cycles);
            if (x->kernel)
                x->kernel = arena_strdup(g->arena, x->kernel);
            if (x->output)
                x->output = arena_strdup(g->arena, x->output);
            x->params = arena_array(g->arena, (size_t)x->nparams + 1, sizeof *x->params);
            for (int p = 0; p < x->nparams; p++) {
                x->params[p] = c->tasks[k].params[p];
                x->params[p].name = arena_strdup(g->arena, x->params[p].name);
                if (x->params[p].s)
                    x->params[p].s = arena_strdup(g->arena, x->params[p].s);
            }
            if (x->pins) {
                x->pins = arena_array(g->arena, (size_t)x->npins, sizeof *x->pins);
                memcpy(x->pins, c->tasks[k].pins, (size_t)x->npins * sizeof *x->pins);
            }
            Origin o = c->task_origin ? c->task_origin[k] : (Origin){c->file, k};
            to[kids[t].base + k] = (Origin){arena_strdup(g->arena, o.file), o.index};
        }
    }

    /* the edges: g's own, their ends at a subgraph actor moved to the port's actor, then
       those of each subgraph; the port of each channel at its ends */
    Edge *fe = arena_array(g->arena, (size_t)ne + 1, sizeof *fe);
    Origin *eo = arena_array(g->arena, (size_t)ne + 1, sizeof *eo);
    int *frank = arena_array(g->arena, (size_t)ne + 1, sizeof *frank);
    int *trank = arena_array(g->arena, (size_t)ne + 1, sizeof *trank);
    int *outs = arena_array(r->tmp, (size_t)nt + 1, sizeof *outs);
    int *ins = arena_array(r->tmp, (size_t)nt + 1, sizeof *ins);
    int m = 0;
    for (int j = 0; j < g->nedges; j++, m++) {
        Edge e = g->edges[j];
        const json_t *o = json_array_get(edges, (size_t)j);
        const char *ep = arena_printf(r->tmp, "/edges/%d", j);
        eo[m] = g->edge_origin ? g->edge_origin[j] : (Origin){r->file, j};
        for (int side = 0; side < 2; side++) { /* 0: from, an output port; 1: to */
            int t = side ? e.to : e.from;
            const char *pk = side ? "to_port" : "from_port";
            const char *rk = side ? "consume" : "produce";
            const json_t *pv = json_object_get(o, pk);
            const Child *k = &kids[t];
            int *rank = side ? &trank[m] : &frank[m];
            if (!k->g) {
                if (json_is_string(pv))
                    fe_error(
                        r, fe_ptr_key(r, ep, pk),
                        "%s names a port of a subgraph actor, and task \"%s\" is not "
                        "one",
                        pk, g->tasks[t].id);
                *(side ? &e.to : &e.from) = k->base;
                *rank = (side ? pin : pout)[k->base] + (side ? ins : outs)[k->base]++;
                continue;
            }
            const FePort *kp = side ? k->ports.in : k->ports.out;
            int kn = side ? k->ports.nin : k->ports.nout, found = -1;
            const char *name = json_string_value(pv);
            if (pv && !name) {
                fe_error(r, fe_ptr_key(r, ep, pk),
                         "%s must name a port of subgraph task \"%s\" (a string), got %s",
                         pk, g->tasks[t].id, fe_describe(r, pv));
                continue;
            }
            for (int q = 0; q < kn; q++)
                if (name ? strcmp(kp[q].name, name) == 0 : kn == 1)
                    found = q;
            if (found < 0) {
                FeBuf names = {0};
                for (int q = 0; q < kn; q++) {
                    fe_buf_add(&names, q ? ", \"" : "\"");
                    fe_buf_add(&names, kp[q].name);
                    fe_buf_add(&names, "\"");
                }
                const char *what = side ? "input" : "output";
                if (name) {
                    const char **cands =
                        arena_array(r->tmp, (size_t)kn + 1, sizeof *cands);
                    for (int q = 0; q < kn; q++)
                        cands[q] = kp[q].name;
                    const char *hint = diag_suggest(name, cands, (size_t)kn);
                    fe_error(
                        r, fe_ptr_key(r, ep, pk),
                        "subgraph task \"%s\" has no %s port \"%s\"%s%s%s (its %s ports: "
                        "%s)",
                        g->tasks[t].id, what, name, hint ? " (did you mean \"" : "",
                        hint ? hint : "", hint ? "\"?)" : "", what,
                        kn ? names.s : "none");
                } else
                    fe_error(
                        r, ep,
                        "the edge %s subgraph task \"%s\", which has %d %s ports: name "
                        "one with \"%s\"%s%s",
                        side ? "enters" : "leaves", g->tasks[t].id, kn, what, pk,
                        kn ? " (" : "", kn ? names.s : "");
                free(names.s);
                continue;
            }
            bool *used = side ? k->in_used : k->out_used;
            if (used[found]) {
                fe_error(
                    r, pv ? fe_ptr_key(r, ep, pk) : ep,
                    "%s port \"%s\" of subgraph task \"%s\" already has its channel (a "
                    "port takes one)",
                    side ? "input" : "output", kp[found].name, g->tasks[t].id);
                continue;
            }
            used[found] = true;
            int64_t per = k->g->repetitions[kp[found].task] * kp[found].rate;
            if (json_object_get(o, rk) && (side ? e.consume : e.produce) != per) {
                fe_error(r, fe_ptr_key(r, ep, rk),
                         "%s must be %" PRId64
                         ", the tokens subgraph task \"%s\" %s on its "
                         "port \"%s\" per firing, got %" PRId64,
                         rk, per, g->tasks[t].id, side ? "reads" : "writes",
                         kp[found].name, side ? e.consume : e.produce);
                continue;
            }
            *(side ? &e.consume : &e.produce) = kp[found].rate;
            *(side ? &e.to : &e.from) = k->base + kp[found].task;
            *rank = kp[found].rank;
        }
        fe[m] = e;
    }
    bool edges_ok = diag_errors(r->d) == e0; /* else an unused port is their doing */
    for (int t = 0; t < n; t++) {
        const Child *k = &kids[t];
        if (!k->g)
            continue;
        for (int side = 0; side < 2 && edges_ok; side++)
            for (int q = 0; q < (side ? k->ports.nin : k->ports.nout); q++)
                if (!(side ? k->in_used : k->out_used)[q])
                    fe_error(
                        r, arena_printf(r->tmp, "/tasks/%d/graph", t),
                        "%s port \"%s\" of subgraph task \"%s\" has no channel (every "
                        "port of a subgraph takes one)",
                        side ? "input" : "output",
                        (side ? k->ports.in : k->ports.out)[q].name, g->tasks[t].id);
        /* the subgraph's channels: after the interface channels of their actors */
        const Graph *c = k->g;
        for (int j = 0; j < c->nedges; j++, m++) {
            Edge e = c->edges[j];
            e.from += k->base;
            e.to += k->base;
            e.delay = 0; /* its delay is in its tokens, in iterations of the subgraph */
            fe[m] = e;
            Origin o = c->edge_origin ? c->edge_origin[j] : (Origin){c->file, j};
            eo[m] = (Origin){arena_strdup(g->arena, o.file), o.index};
            /* a subgraph's channels keep the ports they have there (fe_flatten gives
               every subgraph file its ranks) */
            if (!c->from_rank)
                ice("subgraph \"%s\" without the ports of its channels", c->file);
            frank[m] = c->from_rank[j];
            trank[m] = c->to_rank[j];
        }
    }
    g->tasks = ft;
    g->ntasks = (int)nt;
    g->edges = fe;
    g->nedges = m;
    if (any) {
        g->task_origin = to;
        g->edge_origin = eo;
        g->flattened = true;
    }
    g->from_rank = frank;
    g->to_rank = trank;
done: /* the subgraphs were copied into g, or g is refused */
    for (int t = 0; t < n; t++)
        ir_graph_free(kids[t].g);
    return diag_errors(r->d) - e0;
}
