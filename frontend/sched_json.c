/*
 * frontend/sched_json.c - the tgc-schedule/1 reader (tgc schedule --from).
 *
 * Accepted schema (docs/formats.md, "Schedule files"; backend/sched_json.c writes it):
 *
 *   schedule := {
 *     "format":    "tgc-schedule/1",         required
 *     "graph":     tgc-graph/1 object,       required; its "platform" field is kept as
 * the graph's reference but not read: the platform is the "platform" object below
 *     "platform":  tgc-platform/1 object,    required
 *     "mapping":   { task id: DSP, ... },    required, every task once
 *     "dsps":      [ { "dsp": d,             required, one per DSP in order
 *                      "ops": [op, ...] } ], in program order
 *     "messages":  [ message, ... ],         default []
 *     "predicted": object                    ignored (recomputed by the evaluator)
 *   }
 *   op      := { "compute": task id } | { "send": message id } | { "recv": message id }
 *              (+ "ready", "start", "end": ignored)
 *   message := { "id": its index, "src": DSP, "dst": DSP, "bytes": sum of its edges'
 * bytes, "delay": d (default 0), "pipelined": boolean (default false), "edges": [ {
 * "edge": index into graph.edges, "from": id, "to": id } ],
 *                + "fabric_time", "issue", "post", "depart", "arrive": ignored }
 *
 * Errors carry JSON Pointers into the schedule file; errors inside the embedded graph are
 * reported by the graph reader against "FILE (graph)".  The schedule must pass
 * ir_sched_verify.
 */
#include <stdlib.h>
#include <string.h>

#include "fe.h"

#define N(a) (sizeof a / sizeof a[0])

static const char *const top_fields[] = {"format", "graph",    "platform", "mapping",
                                         "dsps",   "messages", "predicted"};
static const char *const dsp_fields[] = {"dsp", "ops", "busy", "idle", "compute"};
static const char *const op_fields[] = {"compute", "send",  "recv",
                                        "ready",   "start", "end"};
static const char *const msg_fields[] = {"id",    "src",       "dst",    "bytes",
                                         "delay", "pipelined", "edges",  "fabric_time",
                                         "issue", "post",      "depart", "arrive"};
static const char *const edge_fields[] = {"edge", "from", "to"};

/* The embedded graph, read by the graph reader with the platform object in place of the
 * graph's own "platform" value (a preset or a path would not resolve from here). */
static Graph *
load_embedded_graph(Reader *r, json_t *root, const Options *opt)
{
    json_t *gv = json_object_get(root, "graph"), *pv = json_object_get(root, "platform");
    if (!gv || !json_is_object(gv)) {
        fe_error(r, gv ? "/graph" : "",
                 gv ? "graph must be a tgc-graph/1 object" : "missing field \"graph\"");
        return NULL;
    }
    if (!pv || !json_is_object(pv)) {
        fe_error(r, pv ? "/platform" : "",
                 pv ? "platform must be a tgc-platform/1 object"
                    : "missing field \"platform\"");
        return NULL;
    }
    json_t *copy = json_copy(gv);
    if (!copy || json_object_set(copy, "platform", pv) != 0)
        ice("out of memory");
    char *text = json_dumps(copy, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(copy);
    if (!text)
        ice("out of memory");
    Options o = *opt;
    o.platform = NULL;
    o.dsps = 0;
    const char *name = arena_printf(r->tmp, "%s (graph)", r->file);
    /* Kernel paths are relative to the schedule file's folder, as a graph's are to its.
     */
    Graph *g = fe_load_text(text, strlen(text), name, r->base_dir, &o, r->d);
    free(text);
    if (!g)
        return NULL;
    json_t *ref = json_object_get(gv, "platform");
    g->platform_ref = !ref ? "bwdsp-1board"
                      : json_is_string(ref)
                          ? arena_strdup(g->arena, json_string_value(ref))
                          : "inline";
    g->file = arena_strdup(g->arena, r->file);
    return g;
}

/* An integer field of o in [lo, hi]; false after reporting. */
static bool
int_field(Reader *r, json_t *o, const char *ptr, const char *key, int64_t lo, int64_t hi,
          bool required, int64_t *out)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        if (required)
            fe_error(r, ptr, "missing field \"%s\"", key);
        return false;
    }
    const char *kp = fe_ptr_key(r, ptr, key);
    Loc l = {.file = r->file, .pointer = kp};
    return fe_int(r, v, kp, key, out) && fe_range(r->d, &l, key, *out, lo, hi);
}

static void
read_mapping(Reader *r, Sched *s, json_t *root, const FeIdMap *ids)
{
    const Graph *g = s->g;
    json_t *mv = json_object_get(root, "mapping");
    if (!mv || !json_is_object(mv)) {
        fe_error(r, mv ? "/mapping" : "",
                 mv ? "mapping must be an object {task id: DSP}"
                    : "missing field \"mapping\"");
        return;
    }
    const char *key;
    json_t *v;
    bool *listed = calloc((size_t)g->ntasks + 1, sizeof *listed);
    if (!listed)
        ice("out of memory");
    json_object_foreach (mv, key, v) {
        const char *kp = fe_ptr_key(r, "/mapping", key);
        int t = fe_idmap_find(ids, key);
        if (t < 0) {
            fe_error(r, kp, "unknown task \"%s\"", key);
            continue;
        }
        listed[t] = true;
        int64_t dsp;
        Loc l = {.file = r->file, .pointer = kp};
        if (fe_int(r, v, kp, "a DSP", &dsp) &&
            fe_range(r->d, &l, "DSP", dsp, 0, s->ndsps - 1))
            s->map[t] = (int)dsp;
    }
    for (int t = 0; t < g->ntasks; t++)
        if (!listed[t])
            fe_error(r, "/mapping", "task \"%s\" is not mapped", g->tasks[t].id);
    free(listed);
}

static void
read_messages(Reader *r, Sched *s, json_t *root, const FeIdMap *ids)
{
    const Graph *g = s->g;
    json_t *ms = json_object_get(root, "messages");
    if (!ms)
        return;
    if (!json_is_array(ms)) {
        fe_error(r, "/messages", "messages must be an array");
        return;
    }
    if (json_array_size(ms) > (size_t)g->nedges) {
        fe_error(r, "/messages", "%zu messages for %d edges", json_array_size(ms),
                 g->nedges);
        return;
    }
    int *edges = malloc(((size_t)g->nedges + 1) * sizeof *edges);
    bool *used = calloc((size_t)g->nedges + 1, sizeof *used);
    if (!edges || !used)
        ice("out of memory");
    size_t i;
    json_t *m;
    json_array_foreach (ms, i, m) {
        const char *mp = fe_ptr_index(r, "/messages", i);
        if (!json_is_object(m)) {
            fe_error(r, mp, "a message must be an object, got %s", fe_describe(r, m));
            continue;
        }
        fe_unknown_fields(r, m, mp, msg_fields, N(msg_fields));
        int64_t id, src, dst, bytes, delay = 0;
        bool ok = int_field(r, m, mp, "id", 0, INT64_MAX, true, &id);
        if (ok && id != (int64_t)i) {
            fe_error(r, fe_ptr_key(r, mp, "id"), "message %zu has id %lld", i,
                     (long long)id);
            ok = false;
        }
        ok &= int_field(r, m, mp, "src", 0, s->ndsps - 1, true, &src);
        ok &= int_field(r, m, mp, "dst", 0, s->ndsps - 1, true, &dst);
        ok &= int_field(r, m, mp, "bytes", 0, INT64_MAX, true, &bytes);
        if (json_object_get(m, "delay"))
            ok &= int_field(r, m, mp, "delay", 0, FE_MAX_DELAY, false, &delay);
        json_t *pv = json_object_get(m, "pipelined");
        if (pv && !json_is_boolean(pv)) {
            fe_error(r, fe_ptr_key(r, mp, "pipelined"),
                     "pipelined must be true or false, got %s", fe_describe(r, pv));
            ok = false;
        }
        json_t *ev = json_object_get(m, "edges");
        const char *ep = fe_ptr_key(r, mp, "edges");
        if (!ev || !json_is_array(ev) || json_array_size(ev) == 0) {
            fe_error(r, ev ? ep : mp,
                     ev ? "edges must be a non-empty array" : "missing field \"edges\"");
            continue;
        }
        int ne = 0;
        int64_t sum = 0;
        size_t k;
        json_t *e;
        json_array_foreach (ev, k, e) {
            const char *kp = fe_ptr_index(r, ep, k);
            int64_t x;
            if (!json_is_object(e)) {
                fe_error(r, kp, "an edge must be an object {\"edge\": index, ...}");
                ok = false;
                continue;
            }
            fe_unknown_fields(r, e, kp, edge_fields, N(edge_fields));
            if (!int_field(r, e, kp, "edge", 0, g->nedges - 1, true, &x)) {
                ok = false;
                continue;
            }
            const Edge *ed = &g->edges[x];
            for (int end = 0; end < 2; end++) {
                const char *key = end ? "to" : "from";
                json_t *tv = json_object_get(e, key);
                const char *want = g->tasks[end ? ed->to : ed->from].id;
                if (tv &&
                    (!json_is_string(tv) || fe_idmap_find(ids, json_string_value(tv)) !=
                                                (end ? ed->to : ed->from))) {
                    fe_error(r, fe_ptr_key(r, kp, key), "edge %lld has %s \"%s\"",
                             (long long)x, key, want);
                    ok = false;
                }
            }
            if (used[x]) {
                fe_error(r, kp, "edge %lld is carried twice", (long long)x);
                ok = false;
                continue;
            }
            used[x] = true;
            edges[ne++] = (int)x;
            sum += ed->bytes;
            if (ed->delay != delay) {
                fe_error(r, kp, "edge %lld has delay %d, the message %lld", (long long)x,
                         ed->delay, (long long)delay);
                ok = false;
            }
        }
        if (ok && sum != bytes) {
            fe_error(r, fe_ptr_key(r, mp, "bytes"), "bytes is %lld, its edges carry %lld",
                     (long long)bytes, (long long)sum);
            ok = false;
        }
        if (ok && src == dst) {
            fe_error(r, mp, "a message joins two different DSPs, got %lld and %lld",
                     (long long)src, (long long)dst);
            ok = false;
        }
        if (!ok || ne == 0)
            continue;
        if (s->nmsgs != (int)i) /* an earlier message was bad: keep ids aligned */
            continue;
        int mi = ir_sched_add_msg(s, (int)src, (int)dst, edges, ne);
        s->msgs[mi].pipelined = pv && json_is_true(pv);
    }
    free(edges);
    free(used);
}

static void
read_dsps(Reader *r, Sched *s, json_t *root, const FeIdMap *ids, int nmsgs_in_file)
{
    json_t *ds = json_object_get(root, "dsps");
    if (!ds || !json_is_array(ds)) {
        fe_error(r, ds ? "/dsps" : "",
                 ds ? "dsps must be an array" : "missing field \"dsps\"");
        return;
    }
    if (json_array_size(ds) != (size_t)s->ndsps) {
        fe_error(r, "/dsps", "%zu DSPs listed, the platform has %d", json_array_size(ds),
                 s->ndsps);
        return;
    }
    size_t d;
    json_t *dv;
    json_array_foreach (ds, d, dv) {
        const char *dp = fe_ptr_index(r, "/dsps", d);
        int64_t x;
        if (!json_is_object(dv)) {
            fe_error(r, dp, "a DSP must be an object {\"dsp\": d, \"ops\": [...]}");
            continue;
        }
        fe_unknown_fields(r, dv, dp, dsp_fields, N(dsp_fields));
        if (int_field(r, dv, dp, "dsp", 0, s->ndsps - 1, true, &x) && x != (int64_t)d)
            fe_error(r, fe_ptr_key(r, dp, "dsp"), "DSP %zu is listed as %lld", d,
                     (long long)x);
        json_t *ops = json_object_get(dv, "ops");
        const char *op = fe_ptr_key(r, dp, "ops");
        if (!ops || !json_is_array(ops)) {
            fe_error(r, ops ? op : dp,
                     ops ? "ops must be an array" : "missing field \"ops\"");
            continue;
        }
        size_t k;
        json_t *o;
        json_array_foreach (ops, k, o) {
            const char *kp = fe_ptr_index(r, op, k);
            if (!json_is_object(o)) {
                fe_error(r, kp,
                         "an operation must be an object such as {\"compute\": id}");
                continue;
            }
            fe_unknown_fields(r, o, kp, op_fields, N(op_fields));
            json_t *c = json_object_get(o, "compute"), *sn = json_object_get(o, "send"),
                   *rv = json_object_get(o, "recv");
            if ((c != NULL) + (sn != NULL) + (rv != NULL) != 1) {
                fe_error(r, kp,
                         "an operation has exactly one of \"compute\", \"send\" and "
                         "\"recv\"");
                continue;
            }
            if (c) {
                const char *id = fe_string(r, c, fe_ptr_key(r, kp, "compute"), "compute");
                int t = id ? fe_idmap_find(ids, id) : -1;
                if (id && t < 0)
                    fe_error(r, fe_ptr_key(r, kp, "compute"), "unknown task \"%s\"", id);
                if (t >= 0)
                    ir_sched_push_op(s, (int)d, OP_COMPUTE, t);
                continue;
            }
            const char *key = sn ? "send" : "recv";
            const char *vp = fe_ptr_key(r, kp, key);
            Loc l = {.file = r->file, .pointer = vp};
            if (fe_int(r, sn ? sn : rv, vp, "a message id", &x) &&
                fe_range(r->d, &l, "message id", x, 0, nmsgs_in_file - 1) && x < s->nmsgs)
                ir_sched_push_op(s, (int)d, sn ? OP_SEND : OP_RECV, (int)x);
        }
    }
}

Sched *
fe_load_schedule(const char *path, const Options *opt, Graph **gout, Diag *d)
{
    Options defaults = {.limits = ir_default_limits()};
    if (!opt)
        opt = &defaults;
    *gout = NULL;
    Reader r = {.d = d,
                .file = strcmp(path, "-") == 0 ? "<stdin>" : path,
                .lim = &opt->limits,
                .tmp = arena_new()};
    if (strcmp(path, "-") != 0)
        r.base_dir = fe_dirname(r.tmp, path);
    int e0 = diag_errors(d);
    size_t len;
    char *text = fe_read_file(&r, path, NULL, &len);
    json_t *root = text ? fe_parse(&r, text, len) : NULL;
    free(text);
    Graph *g = NULL;
    Sched *s = NULL;
    if (!root)
        goto done;
    if (!json_is_object(root)) {
        fe_error(&r, "", "a schedule must be a JSON object, got %s",
                 fe_describe(&r, root));
        goto done;
    }
    fe_unknown_fields(&r, root, "", top_fields, N(top_fields));
    json_t *fv = json_object_get(root, "format");
    const char *f = fv ? fe_string(&r, fv, "/format", "format") : NULL;
    if (!fv)
        fe_error(&r, "",
                 "missing field \"format\" (a schedule starts with \"format\": "
                 "\"tgc-schedule/1\")");
    else if (f && strcmp(f, "tgc-schedule/1") != 0)
        fe_error(&r, "/format", "format must be \"tgc-schedule/1\", got \"%s\"", f);
    if (diag_errors(d) != e0)
        goto done;
    g = load_embedded_graph(&r, root, opt);
    if (!g)
        goto done;
    s = ir_sched_new(g, g->platform);
    FeIdMap ids;
    fe_idmap_init(&ids, g);
    read_mapping(&r, s, root, &ids);
    read_messages(&r, s, root, &ids);
    json_t *ms = json_object_get(root, "messages");
    read_dsps(&r, s, root, &ids, json_is_array(ms) ? (int)json_array_size(ms) : 0);
    fe_idmap_free(&ids);
    if (diag_errors(d) == e0)
        ir_sched_verify(s, d);

done:
    json_decref(root);
    arena_free(r.tmp);
    if (diag_errors(d) != e0) {
        ir_sched_free(s);
        ir_graph_free(g);
        return NULL;
    }
    *gout = g;
    return s;
}
