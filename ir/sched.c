/*
 * ir/sched.c - schedule construction and its invariant checker.
 *
 * A Sched owns an arena.  Operation arrays grow by doubling (the old array stays in the
 * arena until the schedule is freed: schedules are short-lived and small).  Message edge
 * lists are copied into the arena.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

Sched *
ir_sched_new(const Graph *g, const Platform *p)
{
    Arena *a = arena_new();
    Sched *s = arena_alloc(a, sizeof *s);
    s->arena = a;
    s->g = g;
    s->p = p;
    s->ndsps = p->ndsps;
    s->map = arena_array(a, (size_t)g->ntasks + 1, sizeof *s->map);
    for (int t = 0; t < g->ntasks; t++)
        s->map[t] = -1;
    s->ops = arena_array(a, (size_t)s->ndsps, sizeof *s->ops);
    s->nops = arena_array(a, (size_t)s->ndsps, sizeof *s->nops);
    s->capops = arena_array(a, (size_t)s->ndsps, sizeof *s->capops);
    s->edge_msg = arena_array(a, (size_t)g->nedges + 1, sizeof *s->edge_msg);
    for (int e = 0; e < g->nedges; e++)
        s->edge_msg[e] = -1;
    return s;
}

void
ir_sched_free(Sched *s)
{
    if (s)
        arena_free(s->arena);
}

Sched *
ir_sched_copy(const Sched *s)
{
    Sched *c = ir_sched_new(s->g, s->p);
    memcpy(c->map, s->map, (size_t)s->g->ntasks * sizeof *c->map);
    for (int d = 0; d < s->ndsps; d++) {
        c->capops[d] = s->nops[d] > 0 ? s->nops[d] : 1;
        c->ops[d] = arena_array(c->arena, (size_t)c->capops[d], sizeof(Op));
        if (s->nops[d]) /* ops[d] may be NULL */
            memcpy(c->ops[d], s->ops[d], (size_t)s->nops[d] * sizeof(Op));
        c->nops[d] = s->nops[d];
    }
    c->capmsgs = s->nmsgs > 0 ? s->nmsgs : 1;
    c->msgs = arena_array(c->arena, (size_t)c->capmsgs, sizeof(Msg));
    for (int m = 0; m < s->nmsgs; m++) {
        c->msgs[m] = s->msgs[m];
        c->msgs[m].edges = arena_array(c->arena, (size_t)s->msgs[m].nedges, sizeof(int));
        memcpy(c->msgs[m].edges, s->msgs[m].edges,
               (size_t)s->msgs[m].nedges * sizeof(int));
    }
    c->nmsgs = s->nmsgs;
    memcpy(c->edge_msg, s->edge_msg, (size_t)s->g->nedges * sizeof *c->edge_msg);
    return c;
}

void
ir_sched_push_op(Sched *s, int dsp, OpKind kind, int ref)
{
    if (dsp < 0 || dsp >= s->ndsps)
        ice("DSP %d out of range", dsp);
    if (s->nops[dsp] == s->capops[dsp]) {
        int cap = s->capops[dsp] ? 2 * s->capops[dsp] : 16;
        Op *n = arena_array(s->arena, (size_t)cap, sizeof *n);
        if (s->nops[dsp])
            memcpy(n, s->ops[dsp], (size_t)s->nops[dsp] * sizeof *n);
        s->ops[dsp] = n;
        s->capops[dsp] = cap;
    }
    s->ops[dsp][s->nops[dsp]++] = (Op){kind, ref};
}

int
ir_sched_idle_end(const Sched *s, int d)
{
    while (d < s->ndsps && s->nops[d] == 0)
        d++;
    return d;
}

int
ir_sched_add_msg(Sched *s, int src, int dst, const int *edges, int nedges)
{
    if (nedges < 1)
        ice("a message carries at least one edge");
    if (s->nmsgs == s->capmsgs) {
        int cap = s->capmsgs ? 2 * s->capmsgs : 16;
        Msg *n = arena_array(s->arena, (size_t)cap, sizeof *n);
        if (s->nmsgs)
            memcpy(n, s->msgs, (size_t)s->nmsgs * sizeof *n);
        s->msgs = n;
        s->capmsgs = cap;
    }
    int id = s->nmsgs++;
    Msg *m = &s->msgs[id];
    memset(m, 0, sizeof *m);
    m->src = src;
    m->dst = dst;
    m->edges = arena_array(s->arena, (size_t)nedges, sizeof(int));
    memcpy(m->edges, edges, (size_t)nedges * sizeof(int));
    m->nedges = nedges;
    m->delay = s->g->edges[edges[0]].delay;
    for (int i = 0; i < nedges; i++) {
        m->bytes += s->g->edges[edges[i]].bytes;
        s->edge_msg[edges[i]] = id;
    }
    return id;
}

static int
fail(Diag *d, const Sched *s, const char *what)
{
    Loc loc = {.file = s->g->file};
    diag_error(d, &loc, "invalid schedule: %s", what);
    return -1;
}

int
ir_sched_verify(const Sched *s, Diag *d)
{
    const Graph *g = s->g;
    Arena *tmp = arena_new();
    int rc = 0;
    int *seen = arena_array(tmp, (size_t)g->ntasks + 1, sizeof *seen);
    int *sends = arena_array(tmp, (size_t)s->nmsgs + 1, sizeof *sends);
    int *recvs = arena_array(tmp, (size_t)s->nmsgs + 1, sizeof *recvs);
    char *why = NULL;

    for (int t = 0; t < g->ntasks && !why; t++)
        if (s->map[t] < 0 || s->map[t] >= s->ndsps)
            why = arena_printf(tmp, "task \"%s\" is not mapped", g->tasks[t].id);
    for (int dsp = 0; dsp < s->ndsps && !why; dsp++) {
        for (int k = 0; k < s->nops[dsp] && !why; k++) {
            Op o = s->ops[dsp][k];
            if (o.kind == OP_COMPUTE) {
                if (o.ref < 0 || o.ref >= g->ntasks)
                    why =
                        arena_printf(tmp, "DSP %d computes unknown task %d", dsp, o.ref);
                else if (s->map[o.ref] != dsp)
                    why = arena_printf(tmp,
                                       "task \"%s\" is computed on DSP %d, mapped to %d",
                                       g->tasks[o.ref].id, dsp, s->map[o.ref]);
                else if (seen[o.ref]++)
                    why = arena_printf(tmp, "task \"%s\" is computed twice",
                                       g->tasks[o.ref].id);
            } else {
                if (o.ref < 0 || o.ref >= s->nmsgs) {
                    why = arena_printf(tmp, "DSP %d uses unknown message %d", dsp, o.ref);
                    break;
                }
                const Msg *m = &s->msgs[o.ref];
                int want = o.kind == OP_SEND ? m->src : m->dst;
                if (want != dsp)
                    why = arena_printf(tmp, "message %d is %s on DSP %d, not on DSP %d",
                                       o.ref, o.kind == OP_SEND ? "sent" : "received",
                                       dsp, want);
                else if ((o.kind == OP_SEND ? sends : recvs)[o.ref]++)
                    why = arena_printf(tmp, "message %d is %s twice", o.ref,
                                       o.kind == OP_SEND ? "sent" : "received");
            }
        }
    }
    for (int t = 0; t < g->ntasks && !why; t++)
        if (!seen[t])
            why = arena_printf(tmp, "task \"%s\" is never computed", g->tasks[t].id);
    for (int m = 0; m < s->nmsgs && !why; m++) {
        if (!sends[m] || !recvs[m])
            why = arena_printf(tmp, "message %d is never %s", m,
                               sends[m] ? "received" : "sent");
        for (int i = 0; i < s->msgs[m].nedges && !why; i++) {
            const Edge *e = &g->edges[s->msgs[m].edges[i]];
            if (s->map[e->from] != s->msgs[m].src || s->map[e->to] != s->msgs[m].dst)
                why =
                    arena_printf(tmp, "message %d carries an edge between other DSPs", m);
            else if (e->delay != s->msgs[m].delay)
                why = arena_printf(tmp, "message %d mixes delays", m);
        }
    }
    for (int e = 0; e < g->nedges && !why; e++) {
        bool cross = s->map[g->edges[e].from] != s->map[g->edges[e].to];
        int m = s->edge_msg[e];
        if (cross && m < 0)
            why = arena_printf(tmp, "edge %d crosses DSPs without a message", e);
        else if (!cross && m >= 0)
            why = arena_printf(tmp, "edge %d within one DSP has a message", e);
        else if (m >= 0) {
            bool found = false;
            for (int i = 0; i < s->msgs[m].nedges; i++)
                found |= s->msgs[m].edges[i] == e;
            if (!found)
                why = arena_printf(tmp, "edge %d is not carried by its message %d", e, m);
        }
    }
    /* Per DSP pair and delay, rendezvous receives in the order of the sends. */
    if (!why) {
        int *rank = arena_array(tmp, (size_t)s->nmsgs + 1, sizeof *rank);
        for (int dsp = 0; dsp < s->ndsps; dsp++) {
            int n = 0;
            for (int k = 0; k < s->nops[dsp]; k++)
                if (s->ops[dsp][k].kind == OP_SEND)
                    rank[s->ops[dsp][k].ref] = n++;
        }
        int *last =
            arena_array(tmp, (size_t)s->ndsps * (size_t)s->ndsps + 1, sizeof *last);
        for (int dsp = 0; dsp < s->ndsps && !why; dsp++) {
            for (int i = 0; i < s->ndsps; i++)
                last[i] = -1;
            for (int k = 0; k < s->nops[dsp] && !why; k++) {
                Op o = s->ops[dsp][k];
                /* Eager messages are out of the order: their data leaves at the send
                 * and waits at the receiver, matched by id. */
                if (o.kind != OP_RECV || s->msgs[o.ref].bytes <= s->p->eager_limit)
                    continue;
                int src = s->msgs[o.ref].src, dl = s->msgs[o.ref].delay;
                int prev = dl == 0 ? last[src] : -1;
                /* The order holds among messages of one delay: a delayed message crosses
                 * iterations, and messages are matched by their id (the tag). */
                for (int j = k - 1; dl != 0 && j >= 0 && prev < 0; j--) {
                    Op p = s->ops[dsp][j];
                    if (p.kind == OP_RECV && s->msgs[p.ref].src == src &&
                        s->msgs[p.ref].delay == dl &&
                        s->msgs[p.ref].bytes > s->p->eager_limit)
                        prev = rank[p.ref];
                }
                if (rank[o.ref] < prev)
                    why = arena_printf(
                        tmp, "DSP %d receives from DSP %d out of send order", dsp, src);
                if (dl == 0)
                    last[src] = rank[o.ref];
            }
        }
    }
    if (why)
        rc = fail(d, s, why);
    arena_free(tmp);
    return rc;
}
