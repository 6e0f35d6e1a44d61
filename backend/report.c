/*
 * backend/report.c - a schedule as one self-contained HTML page (tgc report, tgc opt
 * --report): a summary, the table of methods of an optimised schedule, the per-DSP table,
 * the Gantt chart (backend/gantt.c's SVG, its hover titles giving each operation's task
 * or message, bytes, iteration, start and end), the schedule graph (backend/dot.c's
 * cgraph graph, laid out by dot and rendered to SVG in this process with gvc) and the
 * table of operations of iteration 0.
 *
 * The page loads nothing: no script, no stylesheet, no image, no font from anywhere; the
 * two pictures are inline SVG and the style sheet is in the page.  The same schedule
 * gives the same bytes: gvc runs with only the plugins linked into tgc (core: the SVG
 * renderer; dot_layout), so the layout does not depend on the fonts or plugins a machine
 * has installed (text is measured with Graphviz's built-in metrics).
 *
 * dot's layout time grows faster than the graph (0.4 s at 775 operations, 1.9 s at 1584
 * here), and faster still with its clusters (one operation on each of 500 DSPs 1.6 s,
 * of 1000 DSPs 12 s): the graph is drawn up to CG_REPORT_GRAPH_MAX operations and
 * CG_REPORT_COLUMNS_MAX columns (cg_sched_columns; a run of idle DSPs is one) and
 * replaced by a sentence above, so that a 2000-task schedule or a platform of 4096 DSPs
 * still makes its page in a moment.
 */
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* The plugins of libgvc this file uses, linked into the program (their libraries are
 * named in backend/CMakeLists.txt): no configuration file, no plugin loaded at run time.
 */
extern gvplugin_library_t gvplugin_core_LTX_library;
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
static const lt_symlist_t builtins[] = {
    {"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
    {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
    {NULL, NULL},
};

static const char style[] =
    "body{font-family:Helvetica,Arial,sans-serif;font-size:14px;color:#222;"
    "margin:1.5em;max-width:100em}\n"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;"
    "border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:0.5em 0}\n"
    "th,td{border:1px solid #ccc;padding:0.2em 0.6em;text-align:left;"
    "vertical-align:top}\n"
    "th{background:#eef2f7}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "tr.shown td{background:#fff7d6}tr.crit td{background:#fde8e8}\n"
    ".picture{overflow:auto;border:1px solid #ddd;padding:0.3em}\n"
    /* text a little wider than Graphviz measured it is not clipped at the picture's edge
     */
    ".tgc-graph svg{overflow:visible;margin:0 3em}\n"
    /* Graphviz and the Gantt writer size text by Helvetica's widths: fonts of the same
     * widths first, then a condensed one, so that labels stay inside their boxes */
    ".picture svg text{font-family:\"Liberation Sans\",\"Nimbus Sans\",Arimo,Helvetica,"
    "Arial,\"DejaVu Sans Condensed\",sans-serif}\n"
    ".tasks{max-width:50em}.note{color:#555}.more{color:#777;white-space:nowrap}\n";

/* The style of the Gantt chart's zoom, z = 2, 4 ... CG_GANTT_ZOOM_MAX: the chart W0
 * pixels wide, of which L the names, is drawn Wz = L + (W0 - L) * z wide, its root
 * stretched f = Wz / W0 times (preserveAspectRatio="none"); the names shrunk back by 1/f
 * from the left edge (they stay as wide as at 1x), the time area scaled by z / f from L
 * and moved to start at L (its boxes z times as wide as at 1x), the text in it shrunk by
 * 1/z about its own middle (as wide as at 1x), and the labels that fit from zoom z on
 * shown (backend/gantt.c gives each the smallest zoom at which it fits). */
static void
zoom_style(Buf *b)
{
    const double w0 = CG_GANTT_WIDTH, l = CG_GANTT_LEFT;
    buf_printf(b, ".zoom label{margin-right:0.8em}"
                  ".gantt-view{max-height:50em;margin-top:0.3em}\n"
                  ".gantt-view .names,.gantt-view .time{transform-box:view-box;"
                  "transform-origin:0 0}\n"
                  ".gantt-view .time text{transform-box:fill-box;"
                  "transform-origin:center}\n"
                  ".gantt-view .tk{display:none}"
                  "#gz1:checked~.gantt-view .t1{display:inline}\n");
    for (int z = 2; z <= CG_GANTT_ZOOM_MAX; z *= 2) {
        double wz = l + (w0 - l) * z, f = wz / w0;
        const char *on = "~.gantt-view";
        buf_printf(b, "#gz%d:checked%s svg{width:%.0fpx}\n", z, on, wz);
        buf_printf(b, "#gz%d:checked%s .names{transform:scaleX(%.6f)}\n", z, on, 1 / f);
        buf_printf(b,
                   "#gz%d:checked%s .time{transform:translateX(%.4fpx) scaleX(%.6f) "
                   "translateX(-%.0fpx)}\n",
                   z, on, l / f, z / f, l);
        buf_printf(b, "#gz%d:checked%s .time text{transform:scaleX(%.6f)}\n", z, on,
                   1.0 / z);
        for (int k = 2; k <= z; k *= 2)
            buf_printf(b, "#gz%d:checked%s .z%d,", z, on, k);
        buf_printf(b, "#gz%d:checked%s .t%d{display:inline}\n", z, on, z);
    }
}

static double
percent(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Index of iteration 0 among r's recorded iterations, or -1. */
static int
rec_of_iter0(const EvalResult *r)
{
    for (int i = 0; r && !r->deadlock && i < r->nrec; i++)
        if (r->rec_iter[i] == 0)
            return i;
    return -1;
}

static void
cell(Buf *b, const char *text)
{
    buf_printf(b, "<td>");
    buf_escape(b, text);
    buf_printf(b, "</td>");
}

static void
num(Buf *b, long long v)
{
    buf_printf(b, "<td class=\"n\">%lld</td>", v);
}

static void
row(Buf *b, const char *name, const char *value)
{
    buf_printf(b, "<tr><th>");
    buf_escape(b, name);
    buf_printf(b, "</th>");
    cell(b, value);
    buf_printf(b, "</tr>\n");
}

/* "15640" or "10.5 (21/2)" */
static void
ratio_text(char *v, size_t n, Ratio r)
{
    if (r.den == 1)
        snprintf(v, n, "%lld", (long long)r.num);
    else
        snprintf(v, n, "%.1f (%lld/%lld)", (double)r.num / (double)r.den,
                 (long long)r.num, (long long)r.den);
}

static void
throughput_rows(Buf *b, const Graph *g, const CgThroughput *tp)
{
    char v[768], x[64];
    const EvalPeriod *per = tp->period;
    if (per && per->found) {
        ratio_text(x, sizeof x, per->period);
        snprintf(v, sizeof v,
                 "%s cycles per iteration (the steady state by iteration %lld%s)", x,
                 (long long)per->from,
                 per->reached ? "" : ", after the graph's iterations");
    } else if (per) {
        snprintf(v, sizeof v,
                 "none: the run does not repeat within %lld iterations (parts of the "
                 "schedule run at different rates)",
                 (long long)per->run);
    }
    if (per)
        row(b, "period", v);
    const PeriodBound *pb = tp->bound;
    if (pb) {
        ratio_text(x, sizeof x, pb->bound);
        size_t n = (size_t)snprintf(v, sizeof v, "%s cycles per iteration:", x);
        for (int i = 0; i < pb->ncycle && i < 8 && n < sizeof v; i++)
            n += (size_t)snprintf(v + n, sizeof v - n, "%s \"%s\"", i ? " ->" : "",
                                  g->tasks[pb->cycle[i]].id);
        if (pb->ncycle > 8 && n < sizeof v)
            n += (size_t)snprintf(v + n, sizeof v - n, " -> ... (%d tasks)", pb->ncycle);
        if (pb->ncycle > 1 && n < sizeof v)
            n += (size_t)snprintf(v + n, sizeof v - n, " -> \"%s\"",
                                  g->tasks[pb->cycle[0]].id);
        if (n < sizeof v)
            n +=
                (size_t)snprintf(v + n, sizeof v - n, ", %lld cycles over %lld %s",
                                 (long long)pb->cycle_cycles, (long long)pb->cycle_tokens,
                                 pb->ncycle == 1         ? "iteration (the task's own)"
                                 : pb->cycle_tokens == 1 ? "delay"
                                                         : "delays");
        if (per && per->found && pb->bound.num > 0 && n < sizeof v)
            snprintf(v + n, sizeof v - n, "; period / bound %.3f",
                     ((double)per->period.num / (double)per->period.den) /
                         ((double)pb->bound.num / (double)pb->bound.den));
        row(b, "period bound", v);
    }
    if (tp->constraint > 0) {
        if (!per || !per->found)
            snprintf(v, sizeof v, "%lld cycles per iteration: unknown (no period)",
                     (long long)tp->constraint);
        else if (per->period.num <= tp->constraint * per->period.den)
            snprintf(v, sizeof v, "%lld cycles per iteration: met",
                     (long long)tp->constraint);
        else
            snprintf(v, sizeof v, "%lld cycles per iteration: missed",
                     (long long)tp->constraint);
        row(b, "period constraint", v);
    }
}

static void
summary(Buf *b, const Sched *s, const EvalResult *r, const CritPath *cp,
        const CgReportMethod *methods, int nmethods, const CgThroughput *tp)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    char v[512];
    int nmsgs = s->nmsgs, aggregated = 0, pipelined = 0, nops = 0;
    int64_t bytes = 0;
    for (int m = 0; m < s->nmsgs; m++) {
        aggregated += s->msgs[m].nedges > 1;
        pipelined += s->msgs[m].pipelined;
        bytes += s->msgs[m].bytes;
    }
    for (int d = 0; d < s->ndsps; d++)
        nops += s->nops[d];
    buf_printf(b, "<section id=\"summary\">\n<h2>Summary</h2>\n"
                  "<table id=\"summary-table\">\n<tbody>\n");
    row(b, "graph", g->name ? g->name : "graph");
    if (g->file)
        row(b, "file", g->file);
    if (p->model == MODEL_ABSTRACT)
        snprintf(v, sizeof v, "%s (abstract model, %d DSPs)",
                 p->name ? p->name : "inline", p->ndsps);
    else
        snprintf(v, sizeof v, "%s (bwdsp, %d DSPs on %d board%s)",
                 p->name ? p->name : "inline", p->ndsps, p->nboards,
                 p->nboards == 1 ? "" : "s");
    row(b, "platform", v);
    snprintf(v, sizeof v, "%lld", (long long)g->iterations);
    row(b, "iterations", v);
    snprintf(v, sizeof v, "%d tasks, %d edges", g->ntasks, g->nedges);
    row(b, "graph size", v);
    snprintf(v, sizeof v, "%lld cycles (%.3f \xc2\xb5s)", (long long)r->length,
             plat_cycles_to_us(p, r->length));
    row(b, "schedule length", v);
    snprintf(v, sizeof v, "%.1f cycles on average",
             (double)r->length / (double)(g->iterations > 0 ? g->iterations : 1));
    row(b, "per iteration", v);
    if (tp)
        throughput_rows(b, g, tp);
    snprintf(v, sizeof v, "%d (%d aggregated, %d pipelined), %lld bytes per iteration",
             nmsgs, aggregated, pipelined, (long long)bytes);
    row(b, "messages", v);
    snprintf(v, sizeof v, "%d (tasks, sends and receives of one iteration)", nops);
    row(b, "operations", v);
    int ri = rec_of_iter0(r);
    if (cp->nops > 0 && ri >= 0) {
        int d = cp->dsp[cp->nops - 1], k = cp->op[cp->nops - 1];
        snprintf(v, sizeof v,
                 "%d operations, finishes at cycle %lld (marked in the tables)", cp->nops,
                 (long long)r->op_time[d][ri * s->nops[d] + k].end);
        row(b, "critical path of iteration 0", v);
    }
    if (nmethods > 0) {
        size_t n = 0;
        v[0] = 0;
        for (int i = 0; i < nmethods && n < sizeof v; i++)
            n += (size_t)snprintf(v + n, sizeof v - n, "%s%s%s", i ? ", " : "",
                                  methods[i].name, methods[i].shown ? " (shown)" : "");
        row(b, "methods", v);
    }
    buf_printf(b, "</tbody>\n</table>\n</section>\n");
}

/* One row of the table of predicted and simulated figures; returns |difference|. */
static int64_t
sim_row(Buf *b, const char *what, int64_t predicted, int64_t simulated)
{
    buf_printf(b, "<tr%s><th>", predicted != simulated ? " class=\"crit\"" : "");
    buf_escape(b, what);
    buf_printf(b, "</th>");
    num(b, predicted);
    num(b, simulated);
    buf_printf(b, "<td class=\"n\">%+lld</td></tr>\n",
               (long long)(simulated - predicted));
    return simulated > predicted ? simulated - predicted : predicted - simulated;
}

/* The end of DSP d's last operation in the last iteration, -1 when r did not record it.
 */
static int64_t
predicted_end(const Sched *s, const EvalResult *r, int d)
{
    if (r->nrec == 0 || r->rec_iter[r->nrec - 1] != s->g->iterations - 1)
        return -1;
    int64_t end = 0;
    for (int k = 0; k < s->nops[d]; k++) {
        const OpTime *t = &r->op_time[d][(r->nrec - 1) * s->nops[d] + k];
        if (t->end > end)
            end = t->end;
    }
    return end;
}

enum { SIM_DSP_ROWS = 64 }; /* DSPs listed one by one; the others summarised */

/* The evaluator's figures beside those the generated program measured on its target. */
static void
sim_table(Buf *b, const Sched *s, const EvalResult *r, const CgThroughput *tp,
          const CgSimulated *sim)
{
    bool simulated = strcmp(sim->target, "sim") == 0;
    buf_printf(b, "<section id=\"simulated\">\n<h2>Predicted and %s</h2>\n",
               simulated ? "simulated" : "measured");
    buf_printf(b,
               "<p class=\"note\">The evaluator's prediction beside what the generated "
               "program measured on target ");
    buf_escape(b, sim->target);
    buf_printf(b, "%s; difference = %s - predicted.</p>\n",
               simulated ? " (the simulated platform: the two must agree exactly)"
                         : " (wall-clock at the DSP clock: not expected to agree)",
               simulated ? "simulated" : "measured");
    buf_printf(b,
               "<table id=\"simulated-table\">\n<thead><tr><th></th><th>predicted"
               "</th><th>%s</th><th>difference</th></tr></thead>\n<tbody>\n",
               simulated ? "simulated" : "measured");
    int64_t worst = sim_row(b, "length (cycles)", r->length, sim->length);
    if (tp && tp->period && tp->period->found && sim->period_iters > 0 &&
        tp->period->period.den == 1 && sim->period_cycles % sim->period_iters == 0) {
        int64_t d = sim_row(b, "period (cycles per iteration)", tp->period->period.num,
                            sim->period_cycles / sim->period_iters);
        worst = d > worst ? d : worst;
    }
    if (sim->packets >= 0 && sim->predicted_packets >= 0) {
        int64_t d = sim_row(b, "packets", sim->predicted_packets, sim->packets);
        worst = d > worst ? d : worst;
    }
    int listed = 0, rest = 0;
    int64_t rest_worst = 0;
    for (int d = 0; d < s->ndsps; d++) {
        if (s->nops[d] == 0)
            continue;
        int64_t pe = predicted_end(s, r, d);
        if (listed < SIM_DSP_ROWS) {
            char what[64];
            snprintf(what, sizeof what, "DSP %d compute", d);
            int64_t x = sim_row(b, what, r->compute[d], sim->compute[d]);
            if (pe >= 0) {
                snprintf(what, sizeof what, "DSP %d end", d);
                int64_t y = sim_row(b, what, pe, sim->end[d]);
                x = y > x ? y : x;
            }
            worst = x > worst ? x : worst;
            listed++;
        } else {
            int64_t x = r->compute[d] > sim->compute[d] ? r->compute[d] - sim->compute[d]
                                                        : sim->compute[d] - r->compute[d];
            int64_t y = pe < 0             ? 0
                        : pe > sim->end[d] ? pe - sim->end[d]
                                           : sim->end[d] - pe;
            x = y > x ? y : x;
            rest_worst = x > rest_worst ? x : rest_worst;
            rest++;
        }
    }
    if (rest)
        buf_printf(b,
                   "<tr%s><th>%d more busy DSPs</th><td colspan=\"3\">largest "
                   "difference of their compute and end: %lld</td></tr>\n",
                   rest_worst ? " class=\"crit\"" : "", rest, (long long)rest_worst);
    worst = rest_worst > worst ? rest_worst : worst;
    buf_printf(b,
               "</tbody>\n</table>\n<p id=\"simulated-verdict\">largest difference: "
               "%lld cycles%s</p>\n</section>\n",
               (long long)worst,
               !simulated   ? ""
               : worst == 0 ? " (they agree)"
                            : " (they DISAGREE: a bug)");
}

static void
methods_table(Buf *b, const CgReportMethod *methods, int nmethods)
{
    buf_printf(
        b, "<section id=\"methods\">\n<h2>Methods</h2>\n"
           "<p class=\"note\">The communication optimisations run on the schedule; the "
           "page shows the highlighted one. Improvement is over none (the schedule "
           "as scheduled).</p>\n"
           "<table id=\"methods-table\">\n<thead><tr><th>method</th><th>length "
           "(cycles)</th><th>improvement</th><th>messages</th><th>after merging</th>"
           "<th>merged groups</th><th>pipelined</th><th>evaluations</th></tr></thead>\n"
           "<tbody>\n");
    for (int i = 0; i < nmethods; i++) {
        const CgReportMethod *m = &methods[i];
        buf_printf(b, "<tr%s>", m->shown ? " class=\"shown\"" : "");
        cell(b, m->name);
        if (m->error || !m->st) {
            buf_printf(b, "<td colspan=\"7\">");
            buf_escape(b, m->error ? m->error : "not run");
            buf_printf(b, "</td></tr>\n");
            continue;
        }
        num(b, m->st->length);
        buf_printf(b, "<td class=\"n\">%.2f%%</td>", m->improvement);
        num(b, m->st->msgs_before);
        num(b, m->st->msgs_after);
        num(b, m->st->merged_groups);
        num(b, m->st->pipelined);
        num(b, m->st->evaluations);
        buf_printf(b, "</tr>\n");
    }
    buf_printf(b, "</tbody>\n</table>\n</section>\n");
}

/* The DSP table names at most the first TASKS_HEAD and the last TASKS_TAIL tasks of a
 * DSP. */
enum { TASKS_HEAD = 8, TASKS_TAIL = 2 };

static void
dsp_table(Buf *b, const Sched *s, const EvalResult *r)
{
    const Graph *g = s->g;
    buf_printf(b,
               "<section id=\"dsps\">\n<h2>DSPs</h2>\n"
               "<p class=\"note\">Over all iterations: busy = compute and the overheads "
               "of sends and receives.</p>\n"
               "<table id=\"dsp-table\">\n<thead><tr><th>DSP</th><th>board</th>"
               "<th>busy</th><th>compute</th><th>busy (cycles)</th><th>compute "
               "(cycles)</th><th>idle (cycles)</th><th>operations</th><th>tasks</th>"
               "</tr></thead>\n<tbody>\n");
    for (int d = 0; d < s->ndsps; d++) {
        int ntasks = 0;
        for (int k = 0; k < s->nops[d]; k++)
            ntasks += s->ops[d][k].kind == OP_COMPUTE;
        buf_printf(b, "<tr>");
        num(b, d);
        if (s->p->model == MODEL_ABSTRACT)
            buf_printf(b, "<td></td>");
        else
            num(b, plat_board(s->p, d));
        buf_printf(b, "<td class=\"n\">%.1f%%</td><td class=\"n\">%.1f%%</td>",
                   percent(r->busy[d], r->length), percent(r->compute[d], r->length));
        num(b, r->busy[d]);
        num(b, r->compute[d]);
        num(b, r->idle[d]);
        num(b, s->nops[d]);
        /* a long list is summarised: its first and last names and how many between
         * (the table of operations has them all) */
        buf_printf(b, "<td class=\"tasks\">%d: ", ntasks);
        int shown = 0;
        for (int k = 0; k < s->nops[d]; k++)
            if (s->ops[d][k].kind == OP_COMPUTE) {
                bool head = shown < TASKS_HEAD, tail = shown >= ntasks - TASKS_TAIL;
                if (ntasks <= TASKS_HEAD + TASKS_TAIL + 1 || head || tail) {
                    buf_printf(b, "%s", shown ? ", " : "");
                    buf_escape(b, g->tasks[s->ops[d][k].ref].id);
                } else if (shown == TASKS_HEAD) {
                    buf_printf(b,
                               ", <span class=\"more\">\xe2\x80\xa6 %d more "
                               "\xe2\x80\xa6</span>",
                               ntasks - TASKS_HEAD - TASKS_TAIL);
                }
                shown++;
            }
        buf_printf(b, "</td></tr>\n");
    }
    buf_printf(b, "</tbody>\n</table>\n</section>\n");
}

static void
ops_table(Buf *b, const Sched *s, const EvalResult *r, const CritPath *cp)
{
    const Graph *g = s->g;
    int ri = rec_of_iter0(r);
    buf_printf(b, "<section id=\"operations\">\n<h2>Operations</h2>\n"
                  "<p class=\"note\">Each DSP's program in order, with the times of "
                  "iteration 0 in cycles; the critical path of iteration 0 is "
                  "highlighted.</p>\n"
                  "<table id=\"ops-table\">\n<thead><tr><th>DSP</th><th>#</th>"
                  "<th>operation</th><th>task or message</th><th>bytes</th><th>peer</th>"
                  "<th>start</th><th>end</th><th>edges carried</th></tr></thead>\n"
                  "<tbody>\n");
    for (int d = 0; d < s->ndsps; d++)
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            buf_printf(b, "<tr%s>",
                       cp->nops > 0 && cp->on[d][k] ? " class=\"crit\"" : "");
            num(b, d);
            num(b, k);
            if (o.kind == OP_COMPUTE) {
                cell(b, "compute");
                cell(b, g->tasks[o.ref].id);
                buf_printf(b, "<td></td><td></td>");
            } else {
                const Msg *m = &s->msgs[o.ref];
                char what[64];
                cell(b, o.kind == OP_SEND ? "send"
                        : m->pipelined    ? "wait (pipelined)"
                                          : "receive");
                snprintf(what, sizeof what, "m%d", o.ref);
                cell(b, what);
                num(b, m->bytes);
                snprintf(what, sizeof what, "%s DSP %d",
                         o.kind == OP_SEND ? "to" : "from",
                         o.kind == OP_SEND ? m->dst : m->src);
                cell(b, what);
            }
            if (ri >= 0) {
                const OpTime *t = &r->op_time[d][ri * s->nops[d] + k];
                num(b, t->start);
                num(b, t->end);
            } else {
                buf_printf(b, "<td></td><td></td>");
            }
            buf_printf(b, "<td>");
            if (o.kind != OP_COMPUTE) {
                const Msg *m = &s->msgs[o.ref];
                for (int i = 0; i < m->nedges; i++) {
                    const Edge *e = &g->edges[m->edges[i]];
                    buf_printf(b, "%s", i ? ", " : "");
                    buf_escape(b, g->tasks[e->from].id);
                    buf_printf(b, " \xe2\x86\x92 ");
                    buf_escape(b, g->tasks[e->to].id);
                }
            }
            buf_printf(b, "</td></tr>\n");
        }
    buf_printf(b, "</tbody>\n</table>\n</section>\n");
}

/* The <svg> element of an SVG document: what comes before it (the XML declaration, the
 * doctype, comments) does not belong inside HTML. */
static void
add_svg_element(Buf *b, const char *svg, size_t len)
{
    const char *at = strstr(svg, "<svg");
    if (!at)
        ice("no <svg> element in the renderer's output");
    buf_add(b, at, len - (size_t)(at - svg));
}

/* The schedule graph laid out by dot and rendered as SVG into b.  Returns 0, or -1 after
 * reporting (Graphviz failed). */
static int
graph_svg(Buf *b, const Sched *s, const EvalResult *r, Diag *d)
{
    /* warnings of the layout are not the user's concern; the level is restored after */
    agerrlevel_t level = agseterr(AGERR);
    GVC_t *gvc = gvContextPlugins(builtins, 0);
    if (!gvc)
        ice("out of memory");
    Agraph_t *ag = cg_sched_graph(s, r);
    char *data = NULL;
    unsigned int len = 0;
    int rc = -1;
    if (gvLayout(gvc, ag, "dot") == 0) {
        if (gvRenderData(gvc, ag, "svg", &data, &len) == 0 && data) {
            add_svg_element(b, data, len);
            rc = 0;
        }
        gvFreeRenderData(data);
        gvFreeLayout(gvc, ag);
    }
    if (rc != 0)
        diag_error(d, NULL,
                   "graphviz could not lay out and render the schedule graph "
                   "(dot layout, svg renderer)");
    agclose(ag);
    gvFreeContext(gvc);
    agseterr(level);
    return rc;
}

char *
cg_sched_report(const Sched *s, const EvalResult *r, const CgReportMethod *methods,
                int nmethods, const CgThroughput *tp, const CgSimulated *sim, bool *drawn,
                Diag *d)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    if (!r || r->deadlock)
        ice("a report needs an evaluated schedule");
    int nops = 0;
    for (int k = 0; k < s->ndsps; k++)
        nops += s->nops[k];
    int ncols = cg_sched_columns(s);
    *drawn = nops <= CG_REPORT_GRAPH_MAX && ncols <= CG_REPORT_COLUMNS_MAX;
    CritPath cp;
    cg_crit_path(s, r, &cp);

    Buf b = {0};
    buf_printf(&b,
               "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
               "<meta name=\"generator\" content=\"tgc\"/>\n<title>Schedule of ");
    buf_escape(&b, g->name ? g->name : "graph");
    buf_printf(&b, "</title>\n<style>\n%s", style);
    zoom_style(&b);
    buf_printf(&b, "</style>\n</head>\n<body>\n<h1>Schedule of ");
    buf_escape(&b, g->name ? g->name : "graph");
    buf_printf(&b, " on ");
    buf_escape(&b, p->name ? p->name : "inline");
    buf_printf(&b, "</h1>\n");
    summary(&b, s, r, &cp, methods, nmethods, tp);
    if (nmethods > 0)
        methods_table(&b, methods, nmethods);
    if (sim)
        sim_table(&b, s, r, tp, sim);
    dsp_table(&b, s, r);

    /* Zoom without a script: one radio button per scale, whose :checked rule widens the
     * SVG (its viewBox keeps the proportions); the scroll bars of the view pan. */
    buf_printf(&b, "<section id=\"gantt\">\n<h2>Gantt chart</h2>\n"
                   "<p class=\"note\">The predicted timeline; hover over an operation "
                   "for its task or message, bytes, iteration, start and end. Zoom with "
                   "the buttons, pan with the scroll bars.</p>\n"
                   "<div class=\"zoom\">zoom:\n");
    for (int z = 1; z <= CG_GANTT_ZOOM_MAX; z *= 2)
        buf_printf(&b,
                   "<input type=\"radio\" name=\"gantt-zoom\" id=\"gz%d\"%s/>"
                   "<label for=\"gz%d\">%d\xc3\x97</label>\n",
                   z, z > 1 ? "" : " checked=\"checked\"", z, z);
    buf_printf(&b, "<div class=\"picture gantt-view\">\n");
    char *gantt = cg_sched_gantt(s, r);
    buf_add(&b, gantt, strlen(gantt));
    free(gantt);
    buf_printf(&b, "</div>\n</div>\n</section>\n");

    buf_printf(&b, "<section id=\"graph\">\n<h2>Schedule graph</h2>\n");
    if (*drawn) {
        buf_printf(&b, "<p class=\"note\">One cluster per DSP, its operations in program "
                       "order with their times in iteration 0; red: the critical path of "
                       "iteration 0; bold: an aggregated message; dashed: a pipelined "
                       "receive.</p>\n<div class=\"picture tgc-graph\">\n");
        if (graph_svg(&b, s, r, d) != 0) {
            free(b.s);
            cg_path_free(s, &cp);
            return NULL;
        }
        buf_printf(&b, "</div>\n");
    } else {
        buf_printf(&b,
                   "<p class=\"omitted\">The schedule has %d operations in %d columns "
                   "(a busy DSP or a run of idle DSPs each); the graph is drawn up to %d "
                   "operations and %d columns, since laying it out would take long. "
                   "<code>tgc schedule --dot FILE</code> writes it for Graphviz.</p>\n",
                   nops, ncols, CG_REPORT_GRAPH_MAX, CG_REPORT_COLUMNS_MAX);
    }
    buf_printf(&b, "</section>\n");
    ops_table(&b, s, r, &cp);
    buf_printf(&b, "</body>\n</html>\n");
    cg_path_free(s, &cp);
    return b.s;
}
