/*
 * backend/dot.c - a schedule as a Graphviz graph, built with cgraph (agwrite, not
 * printf).
 *
 * One cluster per DSP holding its operations top to bottom in program order (thin grey
 * edges), and one for each run of idle DSPs; message edges between clusters labelled with
 * the message, its bytes and its fabric time; an aggregated message is one bold edge that
 * lists the edges it carries; a pipelined receive is dashed.  Each operation is labelled
 * with its start and finish in iteration 0; the critical path of iteration 0 (the chain
 * of operations that determined the last finish, worked out from the recorded times) is
 * drawn in red.
 *
 * cg_sched_graph builds that graph; cg_sched_dot writes it as dot text and the HTML
 * report (backend/report.c) lays it out and renders it to SVG with gvc, so both show one
 * graph built in one place.
 */
#include <graphviz/cgraph.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

static int
rec_of_iter0(const EvalResult *r)
{
    if (!r || r->deadlock)
        return -1;
    for (int i = 0; i < r->nrec; i++)
        if (r->rec_iter[i] == 0)
            return i;
    return -1;
}

/* Where each message is sent and received: at[2 * m] = index of its SEND on the source
 * DSP, at[2 * m + 1] = of its RECV on the destination DSP (-1 if absent).  malloc'd. */
static int *
msg_positions(const Sched *s)
{
    int *at = malloc(((size_t)s->nmsgs * 2 + 1) * sizeof *at);
    if (!at)
        ice("out of memory");
    for (int m = 0; m < 2 * s->nmsgs; m++)
        at[m] = -1;
    for (int d = 0; d < s->ndsps; d++)
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            if (o.kind != OP_COMPUTE && o.ref >= 0 && o.ref < s->nmsgs)
                at[2 * o.ref + (o.kind == OP_RECV)] = k;
        }
    return at;
}

int
cg_crit_path(const Sched *s, const EvalResult *r, CritPath *cp)
{
    memset(cp, 0, sizeof *cp);
    cp->on = calloc((size_t)s->ndsps + 1, sizeof *cp->on);
    cp->msg_on = calloc((size_t)s->nmsgs + 1, sizeof *cp->msg_on);
    int total = 0;
    for (int d = 0; d < s->ndsps; d++)
        total += s->nops[d];
    cp->dsp = malloc(((size_t)total + 1) * sizeof *cp->dsp);
    cp->op = malloc(((size_t)total + 1) * sizeof *cp->op);
    if (!cp->on || !cp->msg_on || !cp->dsp || !cp->op)
        ice("out of memory");
    for (int d = 0; d < s->ndsps; d++) {
        cp->on[d] = calloc((size_t)s->nops[d] + 1, sizeof **cp->on);
        if (!cp->on[d])
            ice("out of memory");
    }
    int ri = rec_of_iter0(r);
    if (ri < 0)
        return 0;
    /* The operation that finishes last in iteration 0 (the lowest DSP on a tie). */
    int d = -1, k = -1;
    int64_t best = -1;
    for (int x = 0; x < s->ndsps; x++)
        for (int y = 0; y < s->nops[x]; y++) {
            int64_t e = r->op_time[x][ri * s->nops[x] + y].end;
            if (e > best) {
                best = e;
                d = x;
                k = y;
            }
        }
    /* Walk back: an operation that waited was held up by what it waited for (a receive by
     * its message's send, when the send was later than the post or the message is eager);
     * one that did not wait by the operation before it on its DSP. */
    int *at = msg_positions(s);
    while (d >= 0 && k >= 0 && cp->nops < total && !cp->on[d][k]) {
        cp->on[d][k] = true;
        cp->dsp[cp->nops] = d;
        cp->op[cp->nops++] = k;
        const OpTime *t = &r->op_time[d][ri * s->nops[d] + k];
        Op o = s->ops[d][k];
        if (t->start > t->ready && o.kind == OP_RECV) {
            const MsgTime *mt = &r->msg_time[ri * s->nmsgs + o.ref];
            const Msg *m = &s->msgs[o.ref];
            int ks = at[2 * o.ref];
            /* the send held it up unless the receive was posted later (a rendezvous
             * starts at the later of the two); an eager message departs at its issue */
            if (ks >= 0 && (mt->issue >= mt->post || mt->depart <= mt->issue)) {
                cp->msg_on[o.ref] = true;
                d = m->src;
                k = ks;
                continue;
            }
        }
        k--;
    }
    free(at);
    /* Reverse into execution order. */
    for (int i = 0, j = cp->nops - 1; i < j; i++, j--) {
        int td = cp->dsp[i], to = cp->op[i];
        cp->dsp[i] = cp->dsp[j];
        cp->op[i] = cp->op[j];
        cp->dsp[j] = td;
        cp->op[j] = to;
    }
    return cp->nops;
}

void
cg_path_free(const Sched *s, CritPath *cp)
{
    if (cp->on)
        for (int d = 0; d < s->ndsps; d++)
            free(cp->on[d]);
    free(cp->on);
    free(cp->msg_on);
    free(cp->dsp);
    free(cp->op);
    memset(cp, 0, sizeof *cp);
}

/* An ID discipline that numbers named objects in creation order.  cgraph's default uses
 * the address of the interned name as the ID and writes subgraphs in ID order, so the
 * clusters would come out in an order that changes from run to run; with this one they
 * come out in the order they were made (DSP 0 first) and the output is deterministic. */
typedef struct IdState {
    Agraph_t *g;  /* the root graph: names live in its string pool, as cgraph's writer
                     expects (it looks up whether a name is an HTML string there) */
    char **names; /* names[i] has ID 2 * (i + 1); anonymous objects get odd IDs */
    size_t n, cap;
    size_t *slot; /* open addressing over names: index + 1, 0 = empty */
    size_t mask;
    IDTYPE anon;
} IdState;

static size_t
hash(const char *s)
{
    size_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void *
id_open(Agraph_t *g, Agdisc_t *disc)
{
    IdState *st = calloc(1, sizeof *st);
    if (!st)
        ice("out of memory");
    st->anon = 1;
    st->g = g;
    return st;
}

static long
id_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
    IdState *st = state;
    if (!str) {
        *id = st->anon;
        st->anon += 2;
        return 1;
    }
    if (st->mask) {
        for (size_t h = hash(str) & st->mask; st->slot[h]; h = (h + 1) & st->mask)
            if (strcmp(st->names[st->slot[h] - 1], str) == 0) {
                *id = 2 * (IDTYPE)st->slot[h];
                return 1;
            }
    }
    if (!createflag)
        return 0;
    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 64;
        char **nn = realloc(st->names, st->cap * sizeof *nn);
        free(st->slot);
        st->mask = 2 * st->cap - 1;
        st->slot = calloc(st->mask + 1, sizeof *st->slot);
        if (!nn || !st->slot)
            ice("out of memory");
        st->names = nn;
        for (size_t i = 0; i < st->n; i++) {
            size_t h = hash(nn[i]) & st->mask;
            while (st->slot[h])
                h = (h + 1) & st->mask;
            st->slot[h] = i + 1;
        }
    }
    char *copy = agstrdup(st->g, str); /* freed with the graph's string pool */
    if (!copy)
        ice("out of memory");
    st->names[st->n++] = copy;
    size_t h = hash(copy) & st->mask;
    while (st->slot[h])
        h = (h + 1) & st->mask;
    st->slot[h] = st->n;
    *id = 2 * (IDTYPE)st->n;
    return 1;
}

static long
id_alloc(void *state, int objtype, IDTYPE request)
{
    return 0;
}

static void
id_free(void *state, int objtype, IDTYPE id)
{
}

static char *
id_print(void *state, int objtype, IDTYPE id)
{
    IdState *st = state;
    return id % 2 == 0 && id / 2 <= st->n ? st->names[id / 2 - 1] : NULL;
}

static void
id_close(void *state)
{
    IdState *st = state;
    free(st->names);
    free(st->slot);
    free(st);
}

static void
id_register(void *state, int objtype, void *obj)
{
}

static Agiddisc_t seq_ids = {id_open,  id_map,   id_alloc,   id_free,
                             id_print, id_close, id_register};

/* agsafeset with our constant strings (cgraph's prototypes take char *). */
static void
set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, "");
}

/* Text of the input (ids, names) for a label, in a: Graphviz reads a backslash in a
 * label as an escape (\\N is the node's name, \\l ends a left-justified line), so each is
 * doubled; a control character (which no SVG can hold) is shown as ir_ctl_escape writes
 * it.  At most LABEL_MAX bytes, cut between characters and never inside a doubled
 * backslash, then "...", so that the fixed-size labels below are never truncated. */
enum { LABEL_MAX = 100 };

static const char *
label_text(Arena *a, const char *s)
{
    char *out = arena_alloc(a, LABEL_MAX + 4), *w = out;
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        char esc[5];
        int k = ir_ctl_escape(*p, esc);
        size_t need = k ? (size_t)k + 1 : *p == '\\' ? 2 : 1;
        if ((size_t)(w - out) + need > LABEL_MAX) {
            while (w > out && ((unsigned char)w[-1] & 0xc0) == 0x80)
                w--; /* not inside a UTF-8 character */
            if (w > out && (unsigned char)w[-1] >= 0xc0)
                w--;
            strcpy(w, "...");
            return out;
        }
        if (k) { /* shown as the terminal shows it: the backslash doubled for Graphviz */
            *w++ = '\\';
            memcpy(w, esc, (size_t)k);
            w += k;
            continue;
        }
        if (*p == '\\')
            *w++ = '\\';
        *w++ = (char)*p;
    }
    *w = 0;
    return out;
}

static void
fmt_bytes(char *out, size_t n, int64_t b)
{
    snprintf(out, n, "%lld B", (long long)b);
}

int
cg_sched_columns(const Sched *s)
{
    int n = 0;
    for (int d = 0; d < s->ndsps; n++)
        d = s->nops[d] > 0 ? d + 1 : ir_sched_idle_end(s, d);
    return n;
}

Agraph_t *
cg_sched_graph(const Sched *s, const EvalResult *r)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    int ri = rec_of_iter0(r);
    CritPath cp;
    cg_crit_path(s, r, &cp);

    Arena *ta = arena_new(); /* label texts */
    Agdisc_t disc = {&AgMemDisc, &seq_ids, &AgIoDisc};
    Agraph_t *ag = agopen("schedule", Agdirected, &disc);
    char buf[1024];
    set(ag, "rankdir", "TB");
    set(ag, "newrank", "true");
    set(ag, "nodesep", "0.35");
    set(ag, "ranksep", "0.3");
    set(ag, "fontname", "Helvetica");
    set(ag, "labelloc", "t");
    if (r && !r->deadlock)
        snprintf(buf, sizeof buf,
                 "%s on %s (%d DSPs): %lld iterations, length %lld cycles (%.2f us)\n"
                 "times of iteration 0 in cycles; red = critical path of iteration 0; "
                 "bold = aggregated message; dashed = pipelined receive",
                 label_text(ta, g->name ? g->name : "graph"),
                 label_text(ta, p->name ? p->name : "platform"), s->ndsps,
                 (long long)g->iterations, (long long)r->length,
                 plat_cycles_to_us(p, r->length));
    else
        snprintf(buf, sizeof buf, "%s on %s (%d DSPs)%s",
                 label_text(ta, g->name ? g->name : "graph"),
                 label_text(ta, p->name ? p->name : "platform"), s->ndsps,
                 r && r->deadlock ? ": DEADLOCK" : "");
    set(ag, "label", buf);

    Agnode_t ***nodes = calloc((size_t)s->ndsps + 1, sizeof *nodes);
    Agnode_t **anchors = calloc((size_t)s->ndsps + 1, sizeof *anchors);
    Agnode_t **firsts = calloc((size_t)s->ndsps + 1, sizeof *firsts);
    if (!nodes || !anchors || !firsts)
        ice("out of memory");
    /* One column per busy DSP and one per run of idle DSPs (DSPs 4-15, as in tgc
     * schedule's summary): on 4096 DSPs with a few busy, a cluster each made the layout
     * take minutes. */
    int ncols = 0;
    for (int d = 0; d < s->ndsps;) {
        int last = s->nops[d] > 0 ? d : ir_sched_idle_end(s, d) - 1;
        if (last > d)
            snprintf(buf, sizeof buf, "cluster_dsp%d_%d", d, last);
        else
            snprintf(buf, sizeof buf, "cluster_dsp%d", d);
        Agraph_t *sub = agsubg(ag, buf, 1);
        if (last > d)
            snprintf(buf, sizeof buf, "DSPs %d-%d", d, last);
        else if (r && !r->deadlock && r->length > 0)
            snprintf(buf, sizeof buf, "DSP %d  (busy %.0f%%)", d,
                     100.0 * (double)r->busy[d] / (double)r->length);
        else
            snprintf(buf, sizeof buf, "DSP %d", d);
        set(sub, "label", buf);
        set(sub, "style", "rounded");
        set(sub, "color", "gray60");
        set(sub, "fontname", "Helvetica-Bold");
        nodes[d] = calloc((size_t)s->nops[d] + 1, sizeof **nodes);
        if (!nodes[d])
            ice("out of memory");
        /* An invisible anchor at the top of each column; the anchors share a rank, so
         * every column starts at the same height (time flows down from one origin). */
        snprintf(buf, sizeof buf, "d%d_top", d);
        Agnode_t *anchor = agnode(sub, buf, 1);
        anchors[ncols] = anchor;
        set(anchor, "shape", "point");
        set(anchor, "style", "invis");
        set(anchor, "width", "0");
        set(anchor, "height", "0");
        set(anchor, "label", "");
        if (s->nops[d] == 0) {
            /* dot drops empty clusters: idle DSPs get a placeholder */
            snprintf(buf, sizeof buf, "d%d_idle", d);
            Agnode_t *n = agnode(sub, buf, 1);
            firsts[ncols++] = n;
            set(n, "label", "(idle)");
            set(n, "shape", "plaintext");
            set(n, "fontname", "Helvetica");
            set(n, "fontsize", "11");
            d = last + 1;
            continue;
        }
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            snprintf(buf, sizeof buf, "d%d_%d", d, k);
            Agnode_t *n = agnode(sub, buf, 1);
            nodes[d][k] = n;
            char what[256];
            if (o.kind == OP_COMPUTE) {
                snprintf(what, sizeof what, "%s", label_text(ta, g->tasks[o.ref].id));
                set(n, "shape", "box");
                set(n, "fillcolor", "#cfe2f3");
            } else {
                const Msg *m = &s->msgs[o.ref];
                if (o.kind == OP_SEND)
                    snprintf(what, sizeof what, "send m%d to DSP %d", o.ref, m->dst);
                else
                    snprintf(what, sizeof what, "%s m%d from DSP %d",
                             m->pipelined ? "wait" : "recv", o.ref, m->src);
                set(n, "shape", o.kind == OP_SEND ? "cds" : "box");
                set(n, "fillcolor", o.kind == OP_SEND ? "#fce5cd" : "#d9ead3");
                if (o.kind == OP_RECV && m->pipelined)
                    set(n, "style", "filled,dashed");
            }
            if (ri >= 0) {
                const OpTime *t = &r->op_time[d][ri * s->nops[d] + k];
                snprintf(buf, sizeof buf, "%s\n%lld - %lld", what, (long long)t->start,
                         (long long)t->end);
            } else {
                snprintf(buf, sizeof buf, "%s", what);
            }
            set(n, "label", buf);
            if (!agget(n, "style") || !*agget(n, "style"))
                set(n, "style", "filled");
            set(n, "fontname", "Helvetica");
            set(n, "fontsize", "11");
            if (cp.on[d][k]) {
                set(n, "color", "red");
                set(n, "penwidth", "2.5");
            }
            if (k > 0) {
                Agedge_t *e = agedge(sub, nodes[d][k - 1], n, NULL, 1);
                bool crit = cp.on[d][k] && cp.on[d][k - 1];
                set(e, "color", crit ? "red" : "gray70");
                set(e, "penwidth", crit ? "2" : "1");
                set(e, "arrowsize", "0.5");
                set(e, "weight", "10");
            }
        }
        firsts[ncols++] = nodes[d][0];
        d++;
    }
    Agraph_t *top = agsubg(ag, "top", 1);
    set(top, "rank", "same");
    for (int c = 0; c < ncols; c++) {
        agsubnode(top, anchors[c], 1);
        Agedge_t *e = agedge(ag, anchors[c], firsts[c], NULL, 1);
        set(e, "style", "invis");
        set(e, "weight", "10");
    }
    int *at = msg_positions(s);
    for (int mi = 0; mi < s->nmsgs; mi++) {
        const Msg *m = &s->msgs[mi];
        int ks = at[2 * mi], kr = at[2 * mi + 1];
        if (ks < 0 || kr < 0)
            continue;
        Agedge_t *e = agedge(ag, nodes[m->src][ks], nodes[m->dst][kr], NULL, 1);
        char b[32];
        fmt_bytes(b, sizeof b, m->bytes);
        int len = snprintf(buf, sizeof buf, "m%d: %s, %lld cyc", mi, b,
                           (long long)plat_fabric_time(p, m->src, m->dst, m->bytes));
        if (m->delay && len < (int)sizeof buf)
            len += snprintf(buf + len, sizeof buf - (size_t)len, ", delay %d", m->delay);
        for (int i = 0; i < m->nedges && len < (int)sizeof buf - 2 * LABEL_MAX - 16;
             i++) {
            const Edge *ed = &g->edges[m->edges[i]];
            if (m->nedges > 1)
                len += snprintf(buf + len, sizeof buf - (size_t)len, "\n%s -> %s",
                                label_text(ta, g->tasks[ed->from].id),
                                label_text(ta, g->tasks[ed->to].id));
        }
        set(e, "label", buf);
        set(e, "fontname", "Helvetica");
        set(e, "fontsize", "10");
        char style[32] = "";
        if (m->nedges > 1)
            strcat(style, "bold");
        if (m->pipelined)
            strcat(style, style[0] ? ",dashed" : "dashed");
        if (style[0])
            set(e, "style", style);
        set(e, "penwidth", m->nedges > 1 ? "3" : "1.3");
        set(e, "color", cp.msg_on[mi] ? "red" : m->nedges > 1 ? "#674ea7" : "#3d85c6");
        set(e, "fontcolor", cp.msg_on[mi] ? "red" : "black");
        set(e, "constraint", "true");
    }

    for (int d = 0; d < s->ndsps; d++)
        free(nodes[d]);
    free(nodes);
    free(anchors);
    free(firsts);
    free(at);
    cg_path_free(s, &cp);
    arena_free(ta); /* agsafeset copied every label into the graph's string pool */
    return ag;
}

char *
cg_sched_dot(const Sched *s, const EvalResult *r)
{
    Agraph_t *ag = cg_sched_graph(s, r);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        ice("out of memory");
    if (agwrite(ag, f) != 0)
        ice("agwrite failed");
    fclose(f);
    agclose(ag);
    return text;
}

int
cg_critical_path(const Sched *s, const EvalResult *r, int *dsp, int *op)
{
    CritPath cp;
    int n = cg_crit_path(s, r, &cp);
    if (n > 0) {
        memcpy(dsp, cp.dsp, (size_t)n * sizeof *dsp);
        memcpy(op, cp.op, (size_t)n * sizeof *op);
    }
    cg_path_free(s, &cp);
    return n;
}
