/*
 * backend/sched_json.c - tgc-schedule/1 writer (docs/formats.md, "Schedule files").
 *
 * The document embeds the graph (tgc-graph/1) and the platform (tgc-platform/1) so that
 * it stands alone, then the mapping, each DSP's operation order, the messages with the
 * edges they carry, and the evaluator's predictions: the schedule length,
 * busy/idle/compute per DSP, and the times of iteration 0 on each operation and message.
 * Everything is an integer and keys come in a fixed order, so reading a file back and
 * writing it again gives the same bytes (frontend/sched_json.c reads it).  Kernel paths
 * are relative to the schedule file's folder, as in a graph file: cg_sched_json_file
 * rewrites them for the file it is going to.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

static const char *const op_names[] = {"compute", "send", "recv"};

static json_t *
sched_doc(const Sched *s, const EvalResult *r)
{
    const Graph *g = s->g;
    bool times = r && !r->deadlock;
    int ri = -1;
    for (int i = 0; times && i < r->nrec; i++)
        if (r->rec_iter[i] == 0)
            ri = i;

    json_t *o = json_object();
    cg_set(o, "format", json_string("tgc-schedule/1"));
    cg_set(o, "graph", cg_graph_object(g, false));
    cg_set(o, "platform", cg_platform_object(s->p));

    json_t *map = json_object();
    for (int t = 0; t < g->ntasks; t++)
        cg_set(map, g->tasks[t].id, json_integer(s->map[t]));
    cg_set(o, "mapping", map);

    json_t *dsps = json_array();
    for (int d = 0; d < s->ndsps; d++) {
        json_t *jd = json_object();
        cg_set(jd, "dsp", json_integer(d));
        if (times) {
            cg_set(jd, "busy", json_integer(r->busy[d]));
            cg_set(jd, "idle", json_integer(r->idle[d]));
            cg_set(jd, "compute", json_integer(r->compute[d]));
        }
        json_t *ops = json_array();
        for (int k = 0; k < s->nops[d]; k++) {
            Op op = s->ops[d][k];
            json_t *jo = json_object();
            if (op.kind == OP_COMPUTE)
                cg_set(jo, op_names[op.kind], json_string(g->tasks[op.ref].id));
            else
                cg_set(jo, op_names[op.kind], json_integer(op.ref));
            if (ri >= 0) {
                const OpTime *t = &r->op_time[d][ri * s->nops[d] + k];
                if (t->ready != t->start)
                    cg_set(jo, "ready", json_integer(t->ready));
                cg_set(jo, "start", json_integer(t->start));
                cg_set(jo, "end", json_integer(t->end));
            }
            cg_push(ops, jo);
        }
        cg_set(jd, "ops", ops);
        cg_push(dsps, jd);
    }
    cg_set(o, "dsps", dsps);

    json_t *msgs = json_array();
    for (int mi = 0; mi < s->nmsgs; mi++) {
        const Msg *m = &s->msgs[mi];
        json_t *jm = json_object();
        cg_set(jm, "id", json_integer(mi));
        cg_set(jm, "src", json_integer(m->src));
        cg_set(jm, "dst", json_integer(m->dst));
        cg_set(jm, "bytes", json_integer(m->bytes));
        if (m->delay)
            cg_set(jm, "delay", json_integer(m->delay));
        if (m->pipelined)
            cg_set(jm, "pipelined", json_true());
        json_t *es = json_array();
        for (int i = 0; i < m->nedges; i++) {
            const Edge *e = &g->edges[m->edges[i]];
            json_t *je = json_object();
            cg_set(je, "edge", json_integer(m->edges[i]));
            cg_set(je, "from", json_string(g->tasks[e->from].id));
            cg_set(je, "to", json_string(g->tasks[e->to].id));
            cg_push(es, je);
        }
        cg_set(jm, "edges", es);
        cg_set(jm, "fabric_time",
               json_integer(plat_fabric_time(s->p, m->src, m->dst, m->bytes)));
        if (ri >= 0) {
            const MsgTime *t = &r->msg_time[ri * s->nmsgs + mi];
            cg_set(jm, "issue", json_integer(t->issue));
            cg_set(jm, "post", json_integer(t->post));
            cg_set(jm, "depart", json_integer(t->depart));
            cg_set(jm, "arrive", json_integer(t->arrive));
        }
        cg_push(msgs, jm);
    }
    cg_set(o, "messages", msgs);

    if (times) {
        json_t *pr = json_object();
        cg_set(pr, "schedule_length", json_integer(r->length));
        cg_set(pr, "iterations", json_integer(g->iterations));
        cg_set(o, "predicted", pr);
    }
    return o;
}

char *
cg_sched_json(const Sched *s, const EvalResult *r)
{
    return cg_dump(sched_doc(s, r), cg_real_precision(s->g));
}

char *
cg_sched_json_file(const Sched *s, const EvalResult *r, const char *out_path)
{
    json_t *doc = sched_doc(s, r);
    cg_relative_kernels(json_object_get(doc, "graph"), out_path);
    return cg_dump(doc, cg_real_precision(s->g));
}
