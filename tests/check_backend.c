/* tests/check_backend.c - the writers of schedules a person reads: tgc-graph/1,
 * tgc-platform/1 and tgc-schedule/1 JSON, Graphviz dot (through cgraph), the Gantt
 * SVG and the HTML report.  The schedules and their times are built by hand (the worked
 * example of docs/design.md section 3), so these tests do not depend on the evaluator. */
#include <check.h>
#include <graphviz/cgraph.h>
#include <stdlib.h>
#include <string.h>

#include "../backend/backend.h"
#include "check_run.h"
#include "ir.h"

#ifndef TGC_TESTCASES
#error "TGC_TESTCASES must name the testcases folder"
#endif

static Task
task(Graph *g, const char *id, int64_t cycles)
{
    Task t = {.id = arena_strdup(g->arena, id), .ncycles = 1, .dsp = -1};
    t.cycles = arena_alloc(g->arena, sizeof *t.cycles);
    t.cycles[0] = cycles;
    return t;
}

/* docs/design.md section 3: a (1000 cycles) on DSP 0, b (2000) on DSP 1, a 64-byte edge,
 * 2 iterations, blocking receive; the times are the ones the design works out. */
typedef struct Example {
    Graph *g;
    Arena *a;
    Sched *s;
    EvalResult r;
} Example;

static void
worked_example(Example *x)
{
    Graph *g = ir_graph_new();
    g->name = "worked";
    g->iterations = 2;
    g->platform_ref = "bwdsp-1board";
    g->ntasks = 2;
    g->tasks = arena_array(g->arena, 2, sizeof(Task));
    g->tasks[0] = task(g, "a", 1000);
    g->tasks[1] = task(g, "b", 2000);
    g->nedges = 1;
    g->edges = arena_array(g->arena, 1, sizeof(Edge));
    g->edges[0] = (Edge){.from = 0, .to = 1, .bytes = 64};
    ir_graph_index(g);
    x->a = arena_new();
    g->platform = plat_preset(x->a, "bwdsp-1board");
    x->g = g;
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    int e = 0;
    int m = ir_sched_add_msg(s, 0, 1, &e, 1);
    ir_sched_push_op(s, 0, OP_COMPUTE, 0);
    ir_sched_push_op(s, 0, OP_SEND, m);
    ir_sched_push_op(s, 1, OP_RECV, m);
    ir_sched_push_op(s, 1, OP_COMPUTE, 1);
    x->s = s;

    EvalResult *r = &x->r;
    Arena *a = x->a;
    memset(r, 0, sizeof *r);
    r->length = 7528;
    r->busy = arena_array(a, 4, sizeof(int64_t));
    r->idle = arena_array(a, 4, sizeof(int64_t));
    r->compute = arena_array(a, 4, sizeof(int64_t));
    r->busy[0] = 3200;
    r->busy[1] = 4800;
    r->compute[0] = 2000;
    r->compute[1] = 4000;
    for (int d = 0; d < 4; d++)
        r->idle[d] = r->length - r->busy[d];
    r->nrec = 2;
    r->rec_iter = arena_array(a, 2, sizeof(int64_t));
    r->rec_iter[1] = 1;
    r->op_time = arena_array(a, 4, sizeof(OpTime *));
    for (int d = 0; d < 4; d++)
        r->op_time[d] = arena_array(a, 4, sizeof(OpTime));
    OpTime *t0 = r->op_time[0], *t1 = r->op_time[1];
    t0[0] = (OpTime){0, 0, 1000};       /* a, iteration 0 */
    t0[1] = (OpTime){1000, 1000, 1600}; /* send */
    t0[2] = (OpTime){1600, 2164, 3164}; /* a, iteration 1: waits for its buffer */
    t0[3] = (OpTime){3164, 3164, 3764};
    t1[0] = (OpTime){0, 2164, 2564}; /* receive */
    t1[1] = (OpTime){2564, 2564, 4564};
    t1[2] = (OpTime){4564, 5128, 5528};
    t1[3] = (OpTime){5528, 5528, 7528};
    r->msg_time = arena_array(a, 2, sizeof(MsgTime));
    r->msg_time[0] = (MsgTime){1600, 0, 1900, 2164};
    r->msg_time[1] = (MsgTime){3764, 4564, 4864, 5128};
}

static void
example_free(Example *x)
{
    ir_sched_free(x->s);
    ir_graph_free(x->g);
    arena_free(x->a);
}

TEST_CASE("writers", 0)

TEST(graph_json_is_golden)
{
    Example x;
    worked_example(&x);
    x.g->edges[0].delay = 1;
    char *s = cg_graph_json(x.g);
    ck_assert_str_eq(s, "{\n"
                        "  \"format\": \"tgc-graph/1\",\n"
                        "  \"name\": \"worked\",\n"
                        "  \"iterations\": 2,\n"
                        "  \"tasks\": [\n"
                        "    {\n"
                        "      \"id\": \"a\",\n"
                        "      \"cycles\": 1000\n"
                        "    },\n"
                        "    {\n"
                        "      \"id\": \"b\",\n"
                        "      \"cycles\": 2000\n"
                        "    }\n"
                        "  ],\n"
                        "  \"edges\": [\n"
                        "    {\n"
                        "      \"from\": \"a\",\n"
                        "      \"to\": \"b\",\n"
                        "      \"bytes\": 64,\n"
                        "      \"delay\": 1\n"
                        "    }\n"
                        "  ]\n"
                        "}\n");
    free(s);
    example_free(&x);
}
END_TEST

TEST(platform_json_omits_defaults)
{
    Arena *a = arena_new();
    Platform *p = plat_preset(a, "bwdsp-2board");
    p->handshake = 0;
    char *s = cg_platform_json(p);
    ck_assert_str_eq(s, "{\n"
                        "  \"format\": \"tgc-platform/1\",\n"
                        "  \"name\": \"bwdsp-2board\",\n"
                        "  \"boards\": 2,\n"
                        "  \"handshake\": 0,\n"
                        "  \"links\": [\n"
                        "    [\n"
                        "      0,\n"
                        "      1\n"
                        "    ]\n"
                        "  ]\n"
                        "}\n");
    free(s);
    s = cg_platform_json(plat_abstract(a, 3));
    ck_assert_str_eq(s, "{\n"
                        "  \"format\": \"tgc-platform/1\",\n"
                        "  \"name\": \"abstract\",\n"
                        "  \"model\": \"abstract\",\n"
                        "  \"dsps\": 3\n"
                        "}\n");
    free(s);
    arena_free(a);
}
END_TEST

TEST(schedule_json_has_order_messages_and_times)
{
    Example x;
    worked_example(&x);
    char *s = cg_sched_json(x.s, &x.r);
    if (getenv("TGC_DUMP"))
        fputs(s, stderr);
    json_error_t err;
    json_t *doc = json_loads(s, 0, &err);
    ck_assert_ptr_nonnull(doc);
    ck_assert_str_eq(json_string_value(json_object_get(doc, "format")), "tgc-schedule/1");
    ck_assert_int_eq(
        json_integer_value(json_object_get(json_object_get(doc, "mapping"), "b")), 1);
    json_t *d1 = json_array_get(json_object_get(doc, "dsps"), 1);
    json_t *ops = json_object_get(d1, "ops");
    ck_assert_int_eq(json_array_size(ops), 2);
    json_t *recv = json_array_get(ops, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(recv, "recv")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(recv, "ready")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(recv, "start")), 2164);
    ck_assert_int_eq(json_integer_value(json_object_get(recv, "end")), 2564);
    json_t *m = json_array_get(json_object_get(doc, "messages"), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(m, "fabric_time")), 264);
    ck_assert_int_eq(json_integer_value(json_object_get(m, "arrive")), 2164);
    ck_assert_ptr_null(json_object_get(m, "pipelined"));
    json_t *e = json_array_get(json_object_get(m, "edges"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(e, "from")), "a");
    json_t *pr = json_object_get(doc, "predicted");
    ck_assert_int_eq(json_integer_value(json_object_get(pr, "schedule_length")), 7528);
    ck_assert_int_eq(json_integer_value(json_object_get(pr, "iterations")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(d1, "busy")), 4800);
    ck_assert_int_eq(json_integer_value(json_object_get(d1, "idle")), 7528 - 4800);
    /* the fixed key order of an operation */
    ck_assert_ptr_nonnull(strstr(s, "{\n          \"recv\": 0,\n          \"ready\": 0,\n"
                                    "          \"start\": 2164,\n"));
    json_decref(doc);
    free(s);
    example_free(&x);
}
END_TEST

/* The whole document, against testcases/schedule/worked.json, which is also what
 * `tgc schedule testcases/worked/worked.json -o` writes (tests/run_schedule.sh): the
 * times worked out in docs/design.md and the evaluator's agree, and so do the two
 * writers' inputs. */
TEST(schedule_json_is_golden)
{
    Example x;
    worked_example(&x);
    x.g->tasks[0].dsp = 0; /* as in testcases/worked/worked.json */
    x.g->tasks[1].dsp = 1;
    char *s = cg_sched_json(x.s, &x.r);
    FILE *f = fopen(TGC_TESTCASES "/schedule/worked.json", "rb");
    ck_assert_ptr_nonnull(f);
    char want[8192];
    size_t n = fread(want, 1, sizeof want - 1, f);
    fclose(f);
    want[n] = 0;
    ck_assert_str_eq(s, want);
    free(s);
    example_free(&x);
}
END_TEST

TEST(critical_path_follows_the_message)
{
    Example x;
    worked_example(&x);
    CritPath cp;
    ck_assert_int_eq(cg_crit_path(x.s, &x.r, &cp), 4);
    /* a -> send -> (message) -> recv -> b */
    ck_assert_int_eq(cp.dsp[0], 0);
    ck_assert_int_eq(cp.op[0], 0);
    ck_assert_int_eq(cp.dsp[1], 0);
    ck_assert_int_eq(cp.op[1], 1);
    ck_assert_int_eq(cp.dsp[2], 1);
    ck_assert_int_eq(cp.op[2], 0);
    ck_assert_int_eq(cp.dsp[3], 1);
    ck_assert_int_eq(cp.op[3], 1);
    ck_assert(cp.msg_on[0]);
    cg_path_free(x.s, &cp);
    /* a receive posted after the issue: a rendezvous starts at the post, so the path
     * stays on DSP 1; an eager message (departs at its issue) still comes from the send
     */
    x.r.op_time[1][0] = (OpTime){1700, 2264, 2664};
    x.r.msg_time[0] = (MsgTime){1600, 1700, 2000, 2264};
    ck_assert_int_eq(cg_crit_path(x.s, &x.r, &cp), 2);
    ck_assert(!cp.msg_on[0]);
    cg_path_free(x.s, &cp);
    x.r.msg_time[0] = (MsgTime){1600, 1700, 1600, 1864};
    ck_assert_int_eq(cg_crit_path(x.s, &x.r, &cp), 4);
    ck_assert(cp.msg_on[0]);
    cg_path_free(x.s, &cp);
    /* the receive no longer waits: the path is DSP 1 alone */
    x.r.op_time[1][0] = (OpTime){0, 0, 400};
    x.r.op_time[1][1] = (OpTime){400, 400, 2400};
    ck_assert_int_eq(cg_crit_path(x.s, &x.r, &cp), 2);
    ck_assert_int_eq(cp.dsp[0], 1);
    ck_assert(!cp.msg_on[0]);
    cg_path_free(x.s, &cp);
    example_free(&x);
}
END_TEST

static int
count_clusters(Agraph_t *g)
{
    int n = 0;
    for (Agraph_t *sub = agfstsubg(g); sub; sub = agnxtsubg(sub))
        n += strncmp(agnameof(sub), "cluster_dsp", 11) == 0;
    return n;
}

TEST(dot_parses_back_with_clusters_and_styles)
{
    Example x;
    worked_example(&x);
    /* make the message aggregated and pipelined: add a second edge a -> b */
    Graph *g = x.g;
    Edge *ne = arena_array(g->arena, 2, sizeof(Edge));
    ne[0] = g->edges[0];
    ne[1] = (Edge){.from = 0, .to = 1, .bytes = 32};
    g->edges = ne;
    g->nedges = 2;
    ir_graph_index(g);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[1] = 1;
    int es[2] = {0, 1};
    int m = ir_sched_add_msg(s, 0, 1, es, 2);
    s->msgs[m].pipelined = true;
    ir_sched_push_op(s, 0, OP_COMPUTE, 0);
    ir_sched_push_op(s, 0, OP_SEND, m);
    ir_sched_push_op(s, 1, OP_RECV, m);
    ir_sched_push_op(s, 1, OP_COMPUTE, 1);
    char *dot = cg_sched_dot(s, &x.r);
    /* clusters in DSP order (cgraph's default IDs would order them by string address) */
    const char *c0 = strstr(dot, "subgraph cluster_dsp0"),
               *c1 = strstr(dot, "subgraph cluster_dsp1"),
               *c23 = strstr(dot, "subgraph cluster_dsp2_3");
    ck_assert(c0 && c1 && c23 && c0 < c1 && c1 < c23);
    ck_assert_ptr_null(strstr(dot, "<d")); /* node names are not taken for HTML strings */
    Agraph_t *ag = agmemread(dot);
    ck_assert_ptr_nonnull(ag);
    /* the idle DSPs 2 and 3 share one cluster: three columns, three anchors */
    ck_assert_int_eq(count_clusters(ag), 3);
    ck_assert_int_eq(cg_sched_columns(s), 3);
    ck_assert_int_eq(agnnodes(ag), 4 + 1 + 3);
    Agraph_t *idle = agsubg(ag, "cluster_dsp2_3", 0);
    ck_assert_ptr_nonnull(idle);
    ck_assert_str_eq(agget(idle, "label"), "DSPs 2-3");
    ck_assert_ptr_nonnull(agnode(idle, "d2_idle", 0));
    Agnode_t *send = agnode(ag, "d0_1", 0), *recv = agnode(ag, "d1_0", 0);
    ck_assert_ptr_nonnull(send);
    ck_assert_ptr_nonnull(recv);
    Agedge_t *e = agedge(ag, send, recv, NULL, 0);
    ck_assert_ptr_nonnull(e);
    const char *style = agget(e, "style");
    ck_assert_ptr_nonnull(strstr(style, "bold"));
    ck_assert_ptr_nonnull(strstr(style, "dashed"));
    ck_assert_ptr_nonnull(strstr(agget(e, "label"), "m0: 96 B, "));
    ck_assert_ptr_nonnull(strstr(agget(e, "label"), "\na -> b"));
    ck_assert_str_eq(agget(e, "color"), "red"); /* on the critical path */
    ck_assert_ptr_nonnull(strstr(agget(recv, "label"), "2164 - 2564"));
    ck_assert_ptr_nonnull(strstr(agget(recv, "style"), "dashed"));
    agclose(ag);
    free(dot);
    ir_sched_free(s);
    example_free(&x);
}
END_TEST

/* Ids and names reach labels with their backslashes doubled: "a\\N\\l" is shown as
 * written, not as Graphviz's escapes for the node's name and a left-justified line; a
 * long id is cut without leaving a lone backslash before the closing quote. */
TEST(dot_labels_escape_backslashes)
{
    Example x;
    worked_example(&x);
    Graph *g = x.g;
    g->name = "g\\G";
    g->tasks[0].id = "a\\N\\l";
    char *longid = arena_alloc(g->arena, 400);
    memset(longid, '\\', 399);
    g->tasks[1].id = longid;
    char *dot = cg_sched_dot(x.s, &x.r);
    Agraph_t *ag = agmemread(dot);
    ck_assert_msg(ag != NULL, "%s", dot);
    Agnode_t *a = agnode(ag, "d0_0", 0), *b = agnode(ag, "d1_1", 0);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    /* the attribute value as the renderer reads it: \\ is one backslash */
    ck_assert_ptr_nonnull(strstr(agget(a, "label"), "a\\\\N\\\\l\n"));
    ck_assert_ptr_nonnull(strstr(agget(ag, "label"), "g\\\\G on "));
    const char *lb = agget(b, "label");
    size_t run = strspn(lb, "\\");
    ck_assert_uint_eq(run % 2, 0);
    ck_assert_uint_gt(run, 0);
    ck_assert_ptr_nonnull(strstr(lb, "...\n"));
    agclose(ag);
    free(dot);
    example_free(&x);
}
END_TEST

static int
count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

TEST(gantt_has_a_lane_per_dsp_and_link)
{
    Example x;
    worked_example(&x);
    char *svg = cg_sched_gantt(x.s, &x.r);
    ck_assert(strncmp(svg, "<svg ", 5) == 0);
    ck_assert_ptr_nonnull(strstr(svg, "</svg>\n"));
    /* one panel (2 iterations): 4 DSP lanes, DSP 0 -> switch and switch -> DSP 1 */
    ck_assert_int_eq(count(svg, "class=\"lane\">DSP "), 4 + 1);
    ck_assert_int_eq(count(svg, ">DSP 0 \xe2\x86\x92 SW 0<"), 1);
    ck_assert_int_eq(count(svg, ">SW 0 \xe2\x86\x92 DSP 1<"), 1);
    ck_assert_int_eq(count(svg, "<title>b, iteration 1: 5528 - 7528</title>"), 1);
    ck_assert_int_eq(count(svg, "<title>a waits for its output buffer, iteration 1: "
                                "1600 - 2164</title>"),
                     1);
    ck_assert_int_eq(count(svg, "receive wait"), 1); /* the legend */
    /* the second link starts switch_latency + 82 cycles after the first */
    ck_assert_int_eq(count(svg, "iteration 0: 1900 - 1982</title>"), 1);
    ck_assert_int_eq(count(svg, "iteration 0: 2082 - 2164</title>"), 1);
    ck_assert_int_eq(count(svg, "<text"), count(svg, "</text>"));
    ck_assert_int_eq(count(svg, "<title>"), count(svg, "</title></rect>"));
    /* made for the report's zoom: a stretching root, the names (title and legend, the
     * panel's) apart from the time area, the ticks of every zoom (those of 1x shown, the
     * finer ones hidden outside the report), a label that fits only when zoomed hidden */
    ck_assert_int_eq(count(svg, "preserveAspectRatio=\"none\""), 1);
    ck_assert_int_eq(count(svg, "<g class=\"names\">"), 2);
    ck_assert_int_eq(count(svg, "<g class=\"time\">"), 1);
    ck_assert_int_eq(count(svg, "<g class=\"tk"), count(svg, "class=\"tick\""));
    ck_assert_int_ge(count(svg, "<g class=\"tk t1 t2"), 2);
    ck_assert_int_ge(count(svg, "<g class=\"tk zl"), 2);
    ck_assert_int_eq(
        count(svg, "<g class=\"tk zl t1 ") + count(svg, "<g class=\"tk zl t1\""), 0);
    ck_assert_int_ge(count(svg, "class=\"in zl z"), 1);
    ck_assert_int_eq(count(svg, ".tgc-gantt .zl{display:none}"), 1);
    free(svg);
    example_free(&x);
}
END_TEST

/* The part of page between the first `open` and the `close` after it (malloc'd), or
 * NULL when either is missing. */
static char *
part(const char *page, const char *open, const char *close)
{
    const char *a = strstr(page, open);
    const char *z = a ? strstr(a, close) : NULL;
    if (!z)
        return NULL;
    size_t n = (size_t)(z - a) + strlen(close);
    char *out = malloc(n + 1);
    memcpy(out, a, n);
    out[n] = 0;
    return out;
}

/* Rows of the body of the table with that id; -1 when the table or its body is missing.
 */
static int
table_rows(const char *page, const char *id)
{
    char open[64];
    snprintf(open, sizeof open, "<table id=\"%s\">", id);
    char *t = part(page, open, "</table>");
    char *body = t ? part(t, "<tbody>", "</tbody>") : NULL;
    int n = body ? count(body, "<tr") : -1;
    if (body)
        ck_assert_int_eq(count(body, "<tr"), count(body, "</tr>"));
    free(body);
    free(t);
    return n;
}

/* What makes a page one document that loads nothing: its frame, balanced elements, no
 * script, no external reference of any kind. */
static void
check_self_contained(const char *page)
{
    ck_assert(strncmp(page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n", 40) == 0);
    size_t n = strlen(page);
    ck_assert(n > 16 && strcmp(page + n - 16, "</body>\n</html>\n") == 0);
    ck_assert_int_eq(count(page, "<html"), 1);
    ck_assert_int_eq(count(page, "<body>"), 1);
    ck_assert_int_eq(count(page, "<table"), count(page, "</table>"));
    ck_assert_int_eq(count(page, "<section"), count(page, "</section>"));
    ck_assert_int_eq(count(page, "<svg"), count(page, "</svg>"));
    ck_assert_int_eq(count(page, "<script"), 0);
    ck_assert_int_eq(count(page, "<link"), 0);
    ck_assert_int_eq(count(page, "<img"), 0);
    ck_assert_int_eq(count(page, "<iframe"), 0);
    ck_assert_int_eq(count(page, "@import"), 0);
    ck_assert_int_eq(count(page, "url("), 0);
    ck_assert_int_eq(count(page, " src="), 0);
    ck_assert_int_eq(count(page, "href=\"http"), 0);
    ck_assert_int_eq(count(page, "href='http"), 0);
    /* the only URLs are the SVG namespaces, which nothing fetches */
    ck_assert_int_eq(count(page, "http://") + count(page, "https://"),
                     count(page, "xmlns=\"http://www.w3.org/2000/svg\"") +
                         count(page, "xmlns:xlink=\"http://www.w3.org/1999/xlink\""));
    ck_assert_int_eq(count(page, "<?xml"), 0); /* the renderer's prologue is cut */
    ck_assert_int_eq(count(page, "<!DOCTYPE"), 1);
}

TEST(report_is_one_self_contained_page)
{
    Example x;
    worked_example(&x);
    OptStats st[2] = {
        {.length = 7528, .msgs_before = 1, .msgs_after = 1, .evaluations = 1},
        {.length = 7000,
         .msgs_before = 1,
         .msgs_after = 1,
         .pipelined = 1,
         .evaluations = 9}};
    CgReportMethod rm[3] = {{"none", NULL, &st[0], 0.0, false},
                            {"cp", NULL, &st[1], 7.01, true},
                            {"es", "es: too many configurations", NULL, 0.0, false}};
    Diag *d = diag_new();
    bool drawn = false;
    char *page = cg_sched_report(x.s, &x.r, rm, 3, NULL, NULL, &drawn, d);
    ck_assert_ptr_nonnull(page);
    ck_assert_int_eq(diag_errors(d), 0);
    ck_assert(drawn);
    check_self_contained(page);
    /* a row per item: 10 summary lines, 3 methods, 4 DSPs, 4 operations */
    ck_assert_int_eq(table_rows(page, "summary-table"), 10);
    ck_assert_int_eq(table_rows(page, "methods-table"), 3);
    ck_assert_int_eq(table_rows(page, "dsp-table"), 4);
    ck_assert_int_eq(table_rows(page, "ops-table"), 4);
    ck_assert_int_eq(count(page, "<tr class=\"shown\"><td>cp</td>"), 1);
    ck_assert_int_eq(count(page, "<td colspan=\"7\">es: too many configurations</td>"),
                     1);
    /* the critical path of iteration 0 (a, send, receive, b) is marked */
    char *ops = part(page, "<table id=\"ops-table\">", "</table>");
    ck_assert_int_eq(count(ops, "<tr class=\"crit\">"), 4);
    ck_assert_int_eq(count(ops, "<td>b</td><td></td><td></td><td class=\"n\">2564</td>"
                                "<td class=\"n\">4564</td>"),
                     1);
    ck_assert_int_eq(count(ops, "<td>a \xe2\x86\x92 b</td>"), 2); /* send and receive */
    free(ops);
    /* two pictures: the Gantt chart with its scoped style, the graph rendered by gvc with
     * a node per operation and a cluster per DSP */
    ck_assert_int_eq(count(page, "<svg"), 2);
    char *gantt = part(page, "<section id=\"gantt\">", "</section>");
    ck_assert_int_eq(count(gantt, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                                  "class=\"tgc-gantt\""),
                     1);
    ck_assert_int_eq(count(gantt, "<title>b, iteration 1: 5528 - 7528</title>"), 1);
    ck_assert_int_eq(count(gantt, "<style>"), count(gantt, "<style>.tgc-gantt text{"));
    /* the zoom: a button per scale, 1x checked; at 32x the chart 130 + 1130 * 32 pixels
     * wide and the labels of every zoom up to 32 shown */
    ck_assert_int_eq(count(gantt, "<input type=\"radio\" name=\"gantt-zoom\""), 6);
    ck_assert_int_eq(count(gantt, "id=\"gz1\" checked=\"checked\"/>"), 1);
    free(gantt);
    ck_assert_int_eq(count(page, "#gz32:checked~.gantt-view svg{width:36290px}"), 1);
    ck_assert_int_eq(count(page,
                           "#gz32:checked~.gantt-view .z32,#gz32:checked~.gantt-view "
                           ".t32{display:inline}"),
                     1);
    char *graph = part(page, "<section id=\"graph\">", "</section>");
    ck_assert_ptr_nonnull(graph);
    ck_assert_int_eq(count(graph, "<svg"), 1);
    for (int dsp = 0; dsp < 2; dsp++)
        for (int k = 0; k < 2; k++) {
            char t[64];
            snprintf(t, sizeof t, "<title>d%d_%d</title>", dsp, k);
            ck_assert_int_eq(count(graph, t), 1);
        }
    /* DSPs 0 and 1 busy, 2 and 3 idle: one cluster for the idle two */
    const char *clusters[] = {"cluster_dsp0", "cluster_dsp1", "cluster_dsp2_3"};
    for (int c = 0; c < 3; c++) {
        char t[64];
        snprintf(t, sizeof t, "<title>%s</title>", clusters[c]);
        ck_assert_int_eq(count(graph, t), 1);
    }
    ck_assert_int_eq(count(graph, "<title>cluster_dsp"), 3);
    ck_assert_int_eq(count(graph, "class=\"edge\""), 3); /* program order x2, m0 */
    ck_assert_ptr_nonnull(strstr(graph, ">send m0 to DSP 1</text>"));
    free(graph);
    /* the same schedule, the same bytes */
    char *again = cg_sched_report(x.s, &x.r, rm, 3, NULL, NULL, &drawn, d);
    ck_assert_str_eq(page, again);
    free(again);
    /* without methods, no methods section */
    char *plain = cg_sched_report(x.s, &x.r, NULL, 0, NULL, NULL, &drawn, d);
    check_self_contained(plain);
    ck_assert_int_eq(table_rows(plain, "methods-table"), -1);
    ck_assert_int_eq(table_rows(plain, "summary-table"), 9);
    free(plain);
    free(page);
    diag_free(d);
    example_free(&x);
}
END_TEST

/* tgc run --report: the run's figures beside the prediction, a difference marked and
 * the verdict its largest */
TEST(report_puts_the_run_beside_the_prediction)
{
    Example x;
    worked_example(&x);
    Diag *d = diag_new();
    bool drawn;
    int64_t compute[4] = {x.r.compute[0], x.r.compute[1], 0, 0}, end[4] = {3764, 7528};
    CgSimulated sim = {"sim", x.r.length, 4, 4, 0, 0, compute, end};
    char *page = cg_sched_report(x.s, &x.r, NULL, 0, NULL, &sim, &drawn, d);
    ck_assert_ptr_nonnull(page);
    check_self_contained(page);
    /* length, packets, the compute and end of the two busy DSPs (the ends those of their
     * last operations in iteration 1, the last) */
    ck_assert_int_eq(table_rows(page, "simulated-table"), 6);
    ck_assert_int_eq(count(page, "<td class=\"n\">+0</td>"), 6);
    ck_assert_int_eq(count(page, "largest difference: 0 cycles (they agree)"), 1);
    ck_assert_int_eq(count(page, "<tr class=\"crit\"><th>"), 0);
    free(page);
    compute[1] += 5;
    sim.length -= 7;
    page = cg_sched_report(x.s, &x.r, NULL, 0, NULL, &sim, &drawn, d);
    ck_assert_ptr_nonnull(page);
    ck_assert_int_eq(count(page, "<td class=\"n\">+5</td>"), 1);
    ck_assert_int_eq(count(page, "<td class=\"n\">-7</td>"), 1);
    ck_assert_int_eq(count(page, "<tr class=\"crit\"><th>"), 2);
    ck_assert_int_eq(count(page, "largest difference: 7 cycles (they DISAGREE"), 1);
    free(page);
    /* measured on a host: no claim that they agree */
    sim.target = "threads";
    page = cg_sched_report(x.s, &x.r, NULL, 0, NULL, &sim, &drawn, d);
    ck_assert_int_eq(count(page, "<h2>Predicted and measured</h2>"), 1);
    ck_assert_ptr_null(strstr(page, "DISAGREE"));
    free(page);
    /* without a run, no such section */
    page = cg_sched_report(x.s, &x.r, NULL, 0, NULL, NULL, &drawn, d);
    ck_assert_ptr_null(strstr(page, "id=\"simulated\""));
    free(page);
    diag_free(d);
    example_free(&x);
}
END_TEST

TEST(report_escapes_names)
{
    Example x;
    worked_example(&x);
    x.g->name = "<b>\"g\" & co";
    x.g->tasks[0].id = "a</td><script>";
    Diag *d = diag_new();
    bool drawn;
    char *page = cg_sched_report(x.s, &x.r, NULL, 0, NULL, NULL, &drawn, d);
    ck_assert_ptr_nonnull(page);
    check_self_contained(page);
    ck_assert_ptr_null(strstr(page, "<b>"));
    ck_assert_ptr_null(strstr(page, "a</td>"));
    ck_assert_int_eq(
        count(page, "<title>Schedule of &lt;b&gt;&quot;g&quot; &amp; co</title>"), 1);
    ck_assert_int_eq(table_rows(page, "ops-table"), 4);
    ck_assert_int_eq(table_rows(page, "dsp-table"), 4);
    free(page);
    diag_free(d);
    example_free(&x);
}
END_TEST

/* A graph of n independent 10-cycle tasks t0, t1, ..., one iteration. */
static Graph *
tasks_graph(const char *name, int n)
{
    Graph *g = ir_graph_new();
    g->name = name;
    g->iterations = 1;
    g->platform_ref = "inline";
    g->ntasks = n;
    g->tasks = arena_array(g->arena, (size_t)n, sizeof(Task));
    for (int i = 0; i < n; i++) {
        char id[32];
        snprintf(id, sizeof id, "t%d", i);
        g->tasks[i] = task(g, id, 10);
    }
    ir_graph_index(g);
    return g;
}

/* The report of s and r, asserted one self-contained page with the picture of the graph
 * in it (two SVGs: it and the Gantt chart) or not (the Gantt chart alone), as drawn. */
static char *
report_of(const Sched *s, const EvalResult *r, bool drawn)
{
    Diag *d = diag_new();
    bool got = !drawn;
    char *page = cg_sched_report(s, r, NULL, 0, NULL, NULL, &got, d);
    ck_assert_ptr_nonnull(page);
    ck_assert(got == drawn);
    check_self_contained(page);
    ck_assert_int_eq(count(page, "<svg"), drawn ? 2 : 1);
    diag_free(d);
    return page;
}

/* Above CG_REPORT_GRAPH_MAX operations the graph is left out with a sentence; the tables
 * keep every row. */
TEST(report_leaves_out_a_big_graph)
{
    int n = CG_REPORT_GRAPH_MAX + 1;
    Graph *g = tasks_graph("big", n);
    Arena *a = arena_new();
    g->platform = plat_abstract(a, 1);
    Sched *s = ir_sched_new(g, g->platform);
    for (int i = 0; i < n; i++) {
        s->map[i] = 0;
        ir_sched_push_op(s, 0, OP_COMPUTE, i);
    }
    EvalResult r = {.length = 10 * n, .nrec = 1};
    r.busy = arena_array(a, 1, sizeof(int64_t));
    r.idle = arena_array(a, 1, sizeof(int64_t));
    r.compute = arena_array(a, 1, sizeof(int64_t));
    r.busy[0] = r.compute[0] = r.length;
    r.rec_iter = arena_array(a, 1, sizeof(int64_t));
    r.op_time = arena_array(a, 1, sizeof(OpTime *));
    r.op_time[0] = arena_array(a, (size_t)n, sizeof(OpTime));
    for (int i = 0; i < n; i++)
        r.op_time[0][i] = (OpTime){10 * i, 10 * i, 10 * i + 10};
    char *page = report_of(s, &r, false); /* the Gantt chart only */
    char sentence[128];
    snprintf(sentence, sizeof sentence,
             "<p class=\"omitted\">The schedule has %d operations", n);
    ck_assert_int_eq(count(page, sentence), 1);
    ck_assert_int_eq(table_rows(page, "ops-table"), n);
    ck_assert_int_eq(table_rows(page, "dsp-table"), 1);
    free(page);
    ir_sched_free(s);
    ir_graph_free(g);
    arena_free(a);
}
END_TEST

/* A graph of one 10-cycle task on each DSP d of an abstract platform of ndsps DSPs for
 * which busy(d, ndsps) holds; *s receives its schedule and *r an evaluation of it. */
typedef bool (*BusyFn)(int d, int ndsps);
static Graph *
spread_graph(int ndsps, BusyFn busy, Arena *a, Sched **s, EvalResult *r)
{
    int n = 0;
    for (int d = 0; d < ndsps; d++)
        n += busy(d, ndsps);
    Graph *g = tasks_graph("spread", n);
    g->platform = plat_abstract(a, ndsps);
    *s = ir_sched_new(g, g->platform);
    *r = (EvalResult){.length = 10, .nrec = 1};
    r->busy = arena_array(a, (size_t)ndsps, sizeof(int64_t));
    r->idle = arena_array(a, (size_t)ndsps, sizeof(int64_t));
    r->compute = arena_array(a, (size_t)ndsps, sizeof(int64_t));
    r->rec_iter = arena_array(a, 1, sizeof(int64_t));
    r->op_time = arena_array(a, (size_t)ndsps, sizeof(OpTime *));
    for (int d = 0, i = 0; d < ndsps; d++) {
        if (!busy(d, ndsps)) {
            r->idle[d] = 10;
            continue;
        }
        (*s)->map[i] = d;
        ir_sched_push_op(*s, d, OP_COMPUTE, i++);
        r->busy[d] = r->compute[d] = 10;
        r->op_time[d] = arena_array(a, 1, sizeof(OpTime));
        r->op_time[d][0] = (OpTime){0, 0, 10};
    }
    return g;
}

static bool
busy_pattern(int d, int ndsps)
{
    (void)ndsps;
    return d == 0 || d == 2 || d == 6; /* of 8: 0, 1, 2, 3-5, 6, 7 */
}

static bool
busy_ends(int d, int ndsps)
{
    return d == 0 || d == ndsps - 1;
}

static bool
busy_even(int d, int ndsps)
{
    (void)ndsps;
    return d % 2 == 0;
}

/* Runs of two or more idle DSPs are one cluster (DSPs 3-5), a lone idle DSP its own
 * (DSP 1), in DSP order; cg_sched_columns counts what the graph has. */
TEST(dot_joins_runs_of_idle_dsps)
{
    Arena *a = arena_new();
    Sched *s;
    EvalResult r;
    Graph *g = spread_graph(8, busy_pattern, a, &s, &r);
    char *dot = cg_sched_dot(s, &r);
    const char *names[] = {"cluster_dsp0",   "cluster_dsp1", "cluster_dsp2",
                           "cluster_dsp3_5", "cluster_dsp6", "cluster_dsp7"};
    const char *prev = dot;
    for (int i = 0; i < 6; i++) {
        char want[64];
        snprintf(want, sizeof want, "subgraph %s {", names[i]);
        const char *at = strstr(dot, want);
        ck_assert_msg(at && at >= prev, "%s missing or out of order", want);
        prev = at;
    }
    Agraph_t *ag = agmemread(dot);
    ck_assert_ptr_nonnull(ag);
    ck_assert_int_eq(count_clusters(ag), 6);
    ck_assert_int_eq(cg_sched_columns(s), 6);
    ck_assert_int_eq(agnnodes(ag), 3 + 3 + 6); /* tasks, placeholders, anchors */
    ck_assert_str_eq(agget(agsubg(ag, "cluster_dsp3_5", 0), "label"), "DSPs 3-5");
    ck_assert_str_eq(agget(agsubg(ag, "cluster_dsp7", 0), "label"), "DSP 7  (busy 0%)");
    ck_assert_ptr_nonnull(agnode(ag, "d3_idle", 0));
    ck_assert_ptr_null(agnode(ag, "d4_idle", 0));
    agclose(ag);
    free(dot);
    ir_sched_free(s);
    ir_graph_free(g);
    arena_free(a);
}
END_TEST

/* The report draws the graph of two busy DSPs among 4096 (three columns) and leaves out,
 * with its sentence, one of 257 busy DSPs and 256 idle ones between them (513 columns,
 * 257 operations). */
TEST(report_counts_columns)
{
    struct {
        int ndsps;
        BusyFn busy;
        int columns;
        bool drawn;
    } cases[] = {{4096, busy_ends, 3, true}, {513, busy_even, 513, false}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Arena *a = arena_new();
        Sched *s;
        EvalResult r;
        Graph *g = spread_graph(cases[c].ndsps, cases[c].busy, a, &s, &r);
        ck_assert_int_eq(cg_sched_columns(s), cases[c].columns);
        char *page = report_of(s, &r, cases[c].drawn);
        char sentence[160];
        snprintf(sentence, sizeof sentence,
                 "<p class=\"omitted\">The schedule has %d operations in %d columns",
                 g->ntasks, cases[c].columns);
        ck_assert_int_eq(count(page, sentence), cases[c].drawn ? 0 : 1);
        ck_assert_int_eq(table_rows(page, "dsp-table"), cases[c].ndsps);
        free(page);
        ir_sched_free(s);
        ir_graph_free(g);
        arena_free(a);
    }
}
END_TEST
