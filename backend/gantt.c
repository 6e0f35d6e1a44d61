/*
 * backend/gantt.c - a schedule's predicted timeline as an SVG Gantt chart.
 *
 * One lane per DSP (compute, send overhead, receive wait, receive overhead, posts of
 * pipelined receives and blocked time in distinct colours) and one per link that carries
 * a message in the recorded iterations (DSP->switch, switch->DSP, switch->switch;
 * DSP->DSP on the abstract model).  A packet train holds link j of its route from depart
 * + j * (switch_latency + largest packet) for the sum of its packets' serialisation times
 * (section 4, no contention).  Two panels when the run is longer than what one shows: the
 * first two recorded iterations and the last two (the steady state).  The time axis is in
 * cycles and microseconds.
 *
 * Made to zoom in the report (backend/report.c, ir.h's CG_GANTT_*): the root stretches
 * (preserveAspectRatio="none"), the names are in group "names" and the time area in group
 * "time", a box's label that fits only from zoom z on has classes "zl zZ", and the ticks of
 * every zoom are drawn, each in a group "tk tZ..." naming the zooms that show it; "zl" is
 * hidden here, so a viewer shows the chart as at 1x.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* Room for n more bytes and a NUL. */
static void
buf_grow(Buf *b, size_t n)
{
    if (b->cap - b->n >= n + 1)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n + 1)
        cap *= 2;
    b->s = ir_xrealloc(b->s, cap, 1);
    b->cap = cap;
}

void
buf_printf(Buf *b, const char *fmt, ...)
{
    /* One formatting pass when the text fits in the room left, a second after growing
     * only when it does not: the C emitter writes hundreds of megabytes through here. */
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    size_t room = b->cap - b->n;
    int n = vsnprintf(room ? b->s + b->n : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        ice("bad format");
    if ((size_t)n + 1 > room) {
        buf_grow(b, (size_t)n);
        vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap2);
    }
    va_end(ap2);
    b->n += (size_t)n;
}

void
buf_add(Buf *b, const char *data, size_t n)
{
    buf_grow(b, n);
    memcpy(b->s + b->n, data, n);
    b->n += n;
    b->s[b->n] = 0;
}

void
buf_escape(Buf *b, const char *text)
{
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '<':
            buf_printf(b, "&lt;");
            break;
        case '>':
            buf_printf(b, "&gt;");
            break;
        case '&':
            buf_printf(b, "&amp;");
            break;
        case '"':
            buf_printf(b, "&quot;");
            break;
        default: {
            char esc[5]; /* XML 1.0 cannot hold a control character, even as &#1; */
            if (ir_ctl_escape((unsigned char)*c, esc))
                buf_printf(b, "%s", esc);
            else
                buf_printf(b, "%c", *c);
        }
        }
    }
}

enum {
    LINK_UP,
    LINK_DOWN,
    LINK_SWITCH,
    LINK_PAIR
}; /* DSP->SW, SW->DSP, SW->SW, DSP->DSP */

typedef struct Link {
    int kind, a, b;
} Link;

static int
link_cmp(const void *x, const void *y)
{
    const Link *p = x, *q = y;
    /* DSP a's uplink, then its downlink, then the switch links, in index order */
    int kp = p->kind == LINK_DOWN ? LINK_UP : p->kind,
        kq = q->kind == LINK_DOWN ? LINK_UP : q->kind;
    if (kp != kq)
        return kp - kq;
    if (p->a != q->a)
        return p->a - q->a;
    if (p->kind != q->kind)
        return p->kind - q->kind;
    return p->b - q->b;
}

/* The links of the route from DSP a to DSP b, in order; returns their number (<= cap). */
static int
route(const Platform *p, int a, int b, Link *out, int cap)
{
    if (p->model == MODEL_ABSTRACT) {
        out[0] = (Link){LINK_PAIR, a, b};
        return 1;
    }
    int ba = plat_board(p, a), bb = plat_board(p, b), n = 0;
    out[n++] = (Link){LINK_UP, a, ba};
    /* boards from ba up to the common ancestor, then down to bb */
    int up[64], down[64], nu = 0, nd = 0;
    for (int x = ba; x >= 0 && nu < 64; x = p->mst_parent ? p->mst_parent[x] : -1)
        up[nu++] = x;
    for (int x = bb; x >= 0 && nd < 64; x = p->mst_parent ? p->mst_parent[x] : -1)
        down[nd++] = x;
    while (nu > 1 && nd > 1 && up[nu - 2] == down[nd - 2]) {
        nu--;
        nd--;
    }
    /* now up[nu-1] == down[nd-1] is the meeting board */
    for (int i = 0; i + 1 < nu && n < cap - 1; i++)
        out[n++] = (Link){LINK_SWITCH, up[i], up[i + 1]};
    for (int i = nd - 1; i > 0 && n < cap - 1; i--)
        out[n++] = (Link){LINK_SWITCH, down[i], down[i - 1]};
    out[n++] = (Link){LINK_DOWN, b, bb};
    return n;
}

/* Sum of the packets' serialisation times and the largest one, as plat_fabric_time. */
static void
train(const Platform *p, int64_t bytes, int64_t *sum, int64_t *largest)
{
    int64_t k = plat_packets(p, bytes);
    int64_t hdr = p->packet_bytes - p->payload_bytes;
    int64_t last = bytes - (k - 1) * p->payload_bytes;
    int64_t sf = plat_ser(p, p->payload_bytes + hdr), sl = plat_ser(p, last + hdr);
    *sum = (k - 1) * sf + sl;
    *largest = k > 1 ? sf : sl;
}

static const struct {
    const char *name, *fill;
} kinds[] = {
    {"compute (even iteration)", "#6fa8dc"},
    {"compute (odd)", "#a9cdee"},
    {"send overhead", "#f6b26b"},
    {"receive wait", "#f4cccc"},
    {"receive overhead", "#93c47d"},
    {"post (pipelined)", "#b4a7d6"},
    {"blocked (buffer)", "#d9d9d9"},
    {"link transfer", "#8e7cc3"},
};
enum { K_COMPUTE, K_COMPUTE_ODD, K_SEND, K_WAIT, K_RECV, K_POST, K_BLOCKED, K_LINK };

enum {
    LEFT = CG_GANTT_LEFT,
    RIGHT = 30,
    WIDTH = CG_GANTT_WIDTH - LEFT - RIGHT,
    LANE = 24
};

typedef struct Panel {
    int r0, r1;     /* recorded iterations [r0, r1) */
    int64_t t0, t1; /* time window */
} Panel;

static double
xpos(const Panel *pn, int64_t t)
{
    double span = (double)(pn->t1 - pn->t0);
    return LEFT + (span > 0 ? (double)(t - pn->t0) * WIDTH / span : 0);
}

static void
box(Buf *b, const Panel *pn, int lane, int y0, int64_t t0, int64_t t1, int kind,
    const char *label, const char *tip)
{
    if (t1 < pn->t0 || t0 > pn->t1 || t1 <= t0)
        return;
    if (t0 < pn->t0)
        t0 = pn->t0;
    if (t1 > pn->t1)
        t1 = pn->t1;
    double x0 = xpos(pn, t0), x1 = xpos(pn, t1);
    double w = x1 - x0 < 0.5 ? 0.5 : x1 - x0;
    int y = y0 + lane * LANE + 3;
    buf_printf(
        b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s>", x0, y,
        w, LANE - 6, kinds[kind].fill,
        /* outlines separate neighbouring boxes; on slivers they would hide the fill */
        (kind == K_COMPUTE || kind == K_COMPUTE_ODD || kind == K_LINK) && w >= 4
            ? " stroke=\"#20466d\" stroke-width=\"0.5\""
            : "");
    buf_printf(b, "<title>");
    buf_escape(b, tip);
    buf_printf(b, "</title></rect>\n");
    /* the label, when it fits at some zoom of the report (x1 at 1x, where it shows in a
     * viewer; class z2 ... from 2x on: hidden outside the report's zoom) */
    int z = 1;
    double need = label ? (double)strlen(label) * 6.2 + 4 : 0;
    while (label && need >= w * z && z < CG_GANTT_ZOOM_MAX)
        z *= 2;
    if (label && need < w * z) {
        if (z == 1)
            buf_printf(b, "<text x=\"%.1f\" y=\"%d\" class=\"in\">", (x0 + x1) / 2,
                       y + LANE - 10);
        else
            buf_printf(b, "<text x=\"%.1f\" y=\"%d\" class=\"in zl z%d\">", (x0 + x1) / 2,
                       y + LANE - 10, z);
        buf_escape(b, label);
        buf_printf(b, "</text>\n");
    }
}

static int
cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int64_t
nice_step(int64_t span)
{
    int64_t step = 1;
    while (span / step > 10) {
        if (span / (step * 2) <= 10)
            return step * 2;
        if (span / (step * 5) <= 10)
            return step * 5;
        step *= 10;
    }
    return step;
}

static void
panel_window(const Sched *s, const EvalResult *r, Panel *pn)
{
    pn->t0 = INT64_MAX;
    pn->t1 = 0;
    for (int ri = pn->r0; ri < pn->r1; ri++)
        for (int d = 0; d < s->ndsps; d++)
            for (int k = 0; k < s->nops[d]; k++) {
                const OpTime *t = &r->op_time[d][ri * s->nops[d] + k];
                if (t->ready < pn->t0)
                    pn->t0 = t->ready;
                if (t->end > pn->t1)
                    pn->t1 = t->end;
            }
    if (pn->r0 == 0 && r->rec_iter[0] == 0)
        pn->t0 = 0;
    if (pn->t0 == INT64_MAX)
        pn->t0 = 0;
    if (pn->t1 <= pn->t0)
        pn->t1 = pn->t0 + 1;
}

/* The DSP lanes: every DSP, except that on platforms of more than 8 DSPs those without
 * operations are left out (the title says how many).  lane_of[d] is -1 for those. */
static int
dsp_lanes(const Sched *s, int *lane_of)
{
    int n = 0;
    for (int d = 0; d < s->ndsps; d++)
        lane_of[d] = s->ndsps <= 8 || s->nops[d] > 0 ? n++ : -1;
    return n;
}

static void
draw_panel(Buf *b, const Sched *s, const EvalResult *r, const Panel *pn,
           const Link *links, int nlinks, int y0, const char *title)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    int *lane_of = malloc(((size_t)s->ndsps + 1) * sizeof *lane_of);
    int *dsp_at = malloc(((size_t)s->ndsps + 1) * sizeof *dsp_at);
    if (!lane_of || !dsp_at)
        ice("out of memory");
    int ndl = dsp_lanes(s, lane_of);
    for (int d = 0; d < s->ndsps; d++)
        if (lane_of[d] >= 0)
            dsp_at[lane_of[d]] = d;
    int nl = ndl + nlinks;
    char tip[512], lab[64];
    /* the names: the panel's title, the lanes', the axis's (group "names", which the
     * report's zoom leaves unstretched at the left) */
    int ya = y0 + nl * LANE;
    buf_printf(b, "<g class=\"names\">\n<text x=\"%d\" y=\"%d\" class=\"h\">", LEFT,
               y0 - 8);
    buf_escape(b, title);
    buf_printf(b, "</text>\n");
    for (int l = 0; l < nl; l++) {
        int y = y0 + l * LANE;
        if (l < ndl) {
            int d = dsp_at[l];
            snprintf(lab, sizeof lab, "DSP %d (%.0f%%)", d,
                     r->length > 0 ? 100.0 * (double)r->busy[d] / (double)r->length
                                   : 0.0);
        } else {
            const Link *k = &links[l - ndl];
            if (k->kind == LINK_UP)
                snprintf(lab, sizeof lab, "DSP %d \xe2\x86\x92 SW %d", k->a, k->b);
            else if (k->kind == LINK_DOWN)
                snprintf(lab, sizeof lab, "SW %d \xe2\x86\x92 DSP %d", k->b, k->a);
            else if (k->kind == LINK_SWITCH)
                snprintf(lab, sizeof lab, "SW %d \xe2\x86\x92 SW %d", k->a, k->b);
            else
                snprintf(lab, sizeof lab, "DSP %d \xe2\x86\x92 DSP %d", k->a, k->b);
        }
        buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"lane\">%s</text>\n", LEFT - 8,
                   y + LANE / 2 + 4, lab);
    }
    buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"lane\">cycles</text>\n", LEFT - 30,
               ya + 16);
    buf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"lane\">time</text>\n</g>\n", LEFT - 30,
               ya + 29);
    /* the time area (group "time", which the report's zoom stretches): the lanes'
     * backgrounds, the axis, the boxes */
    buf_printf(b, "<g class=\"time\">\n");
    for (int l = 0; l < nl; l++)
        buf_printf(
            b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", LEFT,
            y0 + l * LANE, WIDTH, LANE,
            l < ndl ? (l % 2 ? "#f3f6fa" : "#ffffff") : (l % 2 ? "#f7f4fb" : "#fdfcfe"));
    buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n",
               LEFT, ya, LEFT + WIDTH, ya);
    /* The ticks of every zoom (nice steps of the window / z): each in a group of class
     * "tk" and "tZ" for every zoom Z that shows it (the report shows those of its zoom;
     * a viewer those of 1x, the others being "zl") */
    int64_t span = pn->t1 - pn->t0, steps[8];
    int nz = 0;
    for (int z = 1; z <= CG_GANTT_ZOOM_MAX && nz < 8; z *= 2)
        steps[nz++] = nice_step(span / z > 0 ? span / z : 1);
    int64_t *ticks = NULL;
    size_t nt = 0, capt = 0;
    for (int i = 0; i < nz; i++)
        for (int64_t t = (pn->t0 + steps[i] - 1) / steps[i] * steps[i]; t <= pn->t1;
             t += steps[i]) {
            if (nt == capt) {
                capt = capt ? 2 * capt : 64;
                ticks = ir_xrealloc(ticks, capt, sizeof *ticks);
            }
            ticks[nt++] = t;
        }
    qsort(ticks, nt, sizeof *ticks, cmp_i64);
    for (size_t i = 0; i < nt; i++) {
        int64_t t = ticks[i];
        if (i > 0 && ticks[i - 1] == t)
            continue;
        double x = xpos(pn, t);
        buf_printf(b, "<g class=\"tk%s", t % steps[0] == 0 ? "" : " zl");
        for (int k = 0, z = 1; k < nz; k++, z *= 2)
            if (t % steps[k] == 0)
                buf_printf(b, " t%d", z);
        buf_printf(b,
                   "\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                   "class=\"grid\"/>\n",
                   x, y0, x, ya + 4);
        buf_printf(b, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">%lld</text>\n", x,
                   ya + 16, (long long)t);
        buf_printf(b,
                   "<text x=\"%.1f\" y=\"%d\" class=\"tick us\">%.2f \xc2\xb5s</text>"
                   "</g>\n",
                   x, ya + 29, plat_cycles_to_us(p, t));
    }
    free(ticks);

    /* prolog posts of pipelined receives, before the first iteration */
    if (r->rec_iter[pn->r0] == 0)
        for (int d = 0; d < s->ndsps; d++)
            if (s->nops[d] > 0) {
                int64_t first = r->op_time[d][pn->r0 * s->nops[d]].ready;
                bool any = false;
                for (int k = 0; k < s->nops[d]; k++)
                    any |= s->ops[d][k].kind == OP_RECV &&
                           s->msgs[s->ops[d][k].ref].pipelined;
                if (any && first > 0)
                    box(b, pn, lane_of[d], y0, 0, first, K_POST, "post",
                        "prolog: posts of the pipelined receives");
            }
    /* operations of every recorded iteration that falls into the window (in a pipeline
     * the DSPs are in different iterations at once) */
    for (int ri = 0; ri < r->nrec; ri++) {
        long long it = (long long)r->rec_iter[ri];
        bool last_iter = r->rec_iter[ri] == g->iterations - 1;
        for (int d = 0; d < s->ndsps; d++)
            for (int k = 0; k < s->nops[d]; k++) {
                const OpTime *t = &r->op_time[d][ri * s->nops[d] + k];
                Op o = s->ops[d][k];
                if (o.kind == OP_COMPUTE) {
                    const char *id = g->tasks[o.ref].id;
                    if (t->start > t->ready) {
                        snprintf(tip, sizeof tip,
                                 "%s waits for its output buffer, "
                                 "iteration %lld: %lld - %lld",
                                 id, it, (long long)t->ready, (long long)t->start);
                        box(b, pn, lane_of[d], y0, t->ready, t->start, K_BLOCKED, NULL,
                            tip);
                    }
                    snprintf(tip, sizeof tip, "%s, iteration %lld: %lld - %lld", id, it,
                             (long long)t->start, (long long)t->end);
                    box(b, pn, lane_of[d], y0, t->start, t->end,
                        it % 2 ? K_COMPUTE_ODD : K_COMPUTE, id, tip);
                    continue;
                }
                const Msg *m = &s->msgs[o.ref];
                if (o.kind == OP_SEND) {
                    if (t->start > t->ready) {
                        snprintf(tip, sizeof tip,
                                 "send m%d waits, iteration %lld: %lld - %lld", o.ref, it,
                                 (long long)t->ready, (long long)t->start);
                        box(b, pn, lane_of[d], y0, t->ready, t->start, K_BLOCKED, NULL,
                            tip);
                    }
                    snprintf(tip, sizeof tip,
                             "send m%d (%lld B to DSP %d), iteration %lld: "
                             "%lld - %lld",
                             o.ref, (long long)m->bytes, m->dst, it, (long long)t->start,
                             (long long)t->end);
                    snprintf(lab, sizeof lab, "s%d", o.ref);
                    box(b, pn, lane_of[d], y0, t->start, t->end, K_SEND, lab, tip);
                    continue;
                }
                snprintf(tip, sizeof tip,
                         "receive m%d from DSP %d waits, iteration %lld: "
                         "%lld - %lld",
                         o.ref, m->src, it, (long long)t->ready, (long long)t->start);
                box(b, pn, lane_of[d], y0, t->ready, t->start, K_WAIT, NULL, tip);
                int64_t post = m->pipelined && !last_iter ? p->post_overhead : 0;
                if (post > t->end - t->start)
                    post = 0;
                snprintf(tip, sizeof tip,
                         "%s m%d (%lld B from DSP %d), iteration %lld: "
                         "%lld - %lld",
                         m->pipelined ? "wait (pipelined)" : "receive", o.ref,
                         (long long)m->bytes, m->src, it, (long long)t->start,
                         (long long)(t->end - post));
                snprintf(lab, sizeof lab, "r%d", o.ref);
                box(b, pn, lane_of[d], y0, t->start, t->end - post, K_RECV, lab, tip);
                if (post) {
                    snprintf(tip, sizeof tip, "post m%d for iteration %lld: %lld - %lld",
                             o.ref, it + 1, (long long)(t->end - post),
                             (long long)t->end);
                    box(b, pn, lane_of[d], y0, t->end - post, t->end, K_POST, NULL, tip);
                }
            }
        /* link lanes */
        for (int mi = 0; mi < s->nmsgs; mi++) {
            const Msg *m = &s->msgs[mi];
            const MsgTime *mt = &r->msg_time[ri * s->nmsgs + mi];
            if (mt->depart < 0 || mt->arrive < mt->depart)
                continue;
            Link rt[130];
            int n = route(p, m->src, m->dst, rt, 130);
            int64_t sum = mt->arrive - mt->depart, largest = 0;
            if (p->model != MODEL_ABSTRACT)
                train(p, m->bytes, &sum, &largest);
            for (int j = 0; j < n; j++) {
                Link *hit =
                    bsearch(&rt[j], links, (size_t)nlinks, sizeof *links, link_cmp);
                if (!hit)
                    continue;
                int64_t a = mt->depart + j * (p->switch_latency + largest);
                int64_t e = j == n - 1 ? mt->arrive : a + sum;
                snprintf(tip, sizeof tip,
                         "m%d (%lld B, DSP %d to DSP %d), iteration %lld: "
                         "%lld - %lld",
                         mi, (long long)m->bytes, m->src, m->dst, it, (long long)a,
                         (long long)e);
                snprintf(lab, sizeof lab, "m%d", mi);
                box(b, pn, ndl + (int)(hit - links), y0, a, e, K_LINK, lab, tip);
            }
        }
    }
    buf_printf(b, "</g>\n");
    free(lane_of);
    free(dsp_at);
}

char *
cg_sched_gantt(const Sched *s, const EvalResult *r)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    Buf b = {0};
    if (!r || r->deadlock || r->nrec == 0) {
        buf_printf(
            &b,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tgc-gantt\" width=\"400\" "
            "height=\"40\">"
            "<text x=\"10\" y=\"25\">%s</text></svg>\n",
            r && r->deadlock ? "the schedule deadlocks" : "no iterations recorded");
        return b.s;
    }
    /* the links that carry a recorded message */
    int cap = 0, nlinks = 0;
    Link *links = NULL;
    for (int mi = 0; mi < s->nmsgs; mi++) {
        bool used = false;
        for (int ri = 0; ri < r->nrec; ri++)
            used |= r->msg_time[ri * s->nmsgs + mi].depart >= 0;
        if (!used)
            continue;
        Link rt[130];
        int n = route(p, s->msgs[mi].src, s->msgs[mi].dst, rt, 130);
        for (int j = 0; j < n; j++) {
            bool have = false;
            for (int i = 0; i < nlinks && !have; i++)
                have = link_cmp(&links[i], &rt[j]) == 0;
            if (have)
                continue;
            if (nlinks == cap) {
                cap = cap ? 2 * cap : 16;
                links = ir_xrealloc(links, (size_t)cap, sizeof *links);
            }
            links[nlinks++] = rt[j];
        }
    }
    if (nlinks)
        qsort(links, (size_t)nlinks, sizeof *links, link_cmp);

    Panel pn[2];
    int npanels = 1;
    bool all_fit = r->nrec <= 4 && r->rec_iter[r->nrec - 1] == r->nrec - 1;
    if (all_fit) {
        pn[0] = (Panel){0, r->nrec, 0, 0};
    } else {
        pn[0] = (Panel){0, r->nrec < 2 ? r->nrec : 2, 0, 0};
        int from = r->nrec - 2 > pn[0].r1 ? r->nrec - 2 : pn[0].r1;
        if (from < r->nrec) {
            pn[1] = (Panel){from, r->nrec, 0, 0};
            npanels = 2;
        }
    }
    for (int i = 0; i < npanels; i++)
        panel_window(s, r, &pn[i]);

    int *lane_of = malloc(((size_t)s->ndsps + 1) * sizeof *lane_of);
    if (!lane_of)
        ice("out of memory");
    int ndl = dsp_lanes(s, lane_of);
    free(lane_of);
    int nl = ndl + nlinks;
    int ph = nl * LANE + 70;
    int top = 92;
    int height = top + npanels * ph + 10;
    int width = LEFT + WIDTH + RIGHT;
    /* The style rules are scoped under the root's class: inlined into an HTML page (the
     * report), an SVG's <style> applies to the whole document. */
    buf_printf(&b,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tgc-gantt\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "preserveAspectRatio=\"none\" "
               "font-family=\"Helvetica, Arial, sans-serif\">\n",
               width, height, width, height);
    buf_printf(&b, "<style>.tgc-gantt text{font-size:11px;fill:#222}"
                   ".tgc-gantt .h{font-size:13px;font-weight:bold}"
                   ".tgc-gantt .t{font-size:15px;font-weight:bold}"
                   ".tgc-gantt .lane{text-anchor:end}"
                   ".tgc-gantt .tick{text-anchor:middle;font-size:10px}"
                   ".tgc-gantt .us{fill:#777}"
                   ".tgc-gantt .in{text-anchor:middle;font-size:10px;fill:#000}"
                   ".tgc-gantt .grid{stroke:#bbb;stroke-width:0.5;stroke-dasharray:2,3}"
                   ".tgc-gantt .zl{display:none}"
                   ".tgc-gantt .time *{vector-effect:non-scaling-stroke}"
                   "</style>\n");
    buf_printf(&b, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    buf_printf(&b, "<g class=\"names\">\n<text x=\"10\" y=\"22\" class=\"t\">");
    char line[512];
    snprintf(line, sizeof line,
             "%s on %s (%d DSPs): %lld iterations, schedule length %lld cycles = %.2f "
             "\xc2\xb5s",
             g->name ? g->name : "graph", p->name ? p->name : "platform", s->ndsps,
             (long long)g->iterations, (long long)r->length,
             plat_cycles_to_us(p, r->length));
    if (ndl < s->ndsps) {
        size_t n = strlen(line);
        snprintf(line + n, sizeof line - n, " (%d idle DSPs not shown)", s->ndsps - ndl);
    }
    buf_escape(&b, line);
    buf_printf(&b, "</text>\n");
    /* legend */
    int lx = 10;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        buf_printf(&b,
                   "<rect x=\"%d\" y=\"34\" width=\"14\" height=\"12\" fill=\"%s\" "
                   "stroke=\"#555\" stroke-width=\"0.5\"/>",
                   lx, kinds[i].fill);
        buf_printf(&b, "<text x=\"%d\" y=\"44\">%s</text>\n", lx + 18, kinds[i].name);
        lx += 26 + (int)strlen(kinds[i].name) * 6 + 10;
    }
    buf_printf(&b, "</g>\n");
    for (int i = 0; i < npanels; i++) {
        char title[256];
        long long a = (long long)r->rec_iter[pn[i].r0];
        long long z = (long long)r->rec_iter[pn[i].r1 - 1];
        if (a == z)
            snprintf(title, sizeof title, "iteration %lld", a);
        else
            snprintf(title, sizeof title, "iterations %lld-%lld%s", a, z,
                     i == 1         ? " (steady state, end of the run)"
                     : npanels == 2 ? " (start of the run)"
                                    : "");
        draw_panel(&b, s, r, &pn[i], links, nlinks, top + i * ph, title);
    }
    buf_printf(&b, "</svg>\n");
    free(links);
    return b.s;
}
