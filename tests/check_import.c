/* tests/check_import.c - the importers (STG, DOT, SDF3) and the schedule file reader:
 * what they build, their errors with positions, and the byte-identical round trips graph
 * JSON -> graph -> graph JSON and schedule JSON -> schedule -> schedule JSON. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "ir.h"

#ifndef TGC_TESTCASES
#error "TGC_TESTCASES must name the testcases folder"
#endif

static char path_buf[4096];

static const char *
tc(const char *name)
{
    snprintf(path_buf, sizeof path_buf, "%s/import/%s", TGC_TESTCASES, name);
    return path_buf;
}

static Options
options(void)
{
    Options o = {.limits = ir_default_limits(), .search_budget = -1};
    return o;
}

/* The diagnostics of importing `name`, with the folder removed from file names. */
static char *
import_errors(Graph *(*imp)(const char *, const Options *, Diag *), const char *name,
              const Options *o)
{
    Diag *d = diag_new();
    const char *p = tc(name);
    Graph *g = imp(p, o, d);
    ck_assert_ptr_null(g);
    ck_assert_int_gt(diag_errors(d), 0);
    const char *text = diag_text(d);
    size_t n = strlen(p) - strlen(name);
    char *out = malloc(strlen(text) + 1), *w = out;
    for (const char *s = text; *s;) {
        if (strncmp(s, p, n) == 0)
            s += n;
        else
            *w++ = *s++;
    }
    *w = 0;
    diag_free(d);
    return out;
}

TEST_CASE("readers", 0)

TEST(stg_keeps_dummies_and_ids)
{
    Options o = options();
    Diag *d = diag_new();
    Graph *g = fe_import_stg(tc("small.stg"), &o, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    ck_assert_int_eq(g->ntasks, 6);
    ck_assert_str_eq(g->tasks[0].id, "0");
    ck_assert_str_eq(g->tasks[5].id, "5");
    ck_assert_int_eq(g->tasks[1].cycles[0], 5);
    ck_assert_int_eq(g->tasks[3].cycles[0], 4);
    ck_assert_int_eq(g->tasks[5].cycles[0], 0);
    ck_assert_int_eq(g->nedges, 6);
    ck_assert_int_eq(g->edges[3].from, 2); /* task 3's second predecessor */
    ck_assert_int_eq(g->edges[3].to, 3);
    ck_assert_int_eq(g->edges[3].bytes, 0);
    ck_assert_str_eq(g->name, "small");
    ck_assert_str_eq(g->platform_ref, "abstract");
    ck_assert_int_eq(g->platform->model, MODEL_ABSTRACT);
    ck_assert_ptr_nonnull(g->topo);
    /* 0 -> 1 (5) -> 3 (4) -> 4 (2) -> 5 */
    ck_assert_int_eq(ir_critical_path(g, 4, false), 11);
    ir_graph_free(g);
    o.dsps = 8;
    g = fe_import_stg(tc("small.stg"), &o, d);
    ck_assert_int_eq(g->platform->ndsps, 8);
    ck_assert_str_eq(g->platform_ref, "inline");
    ir_graph_free(g);
    diag_free(d);
}
END_TEST

TEST(stg_errors_have_positions)
{
    Options o = options();
    char *e = import_errors(fe_import_stg, "bad_number.stg", &o);
    ck_assert_str_eq(e, "bad_number.stg:4:6: error: expected an integer, found \"x\"\n");
    free(e);
    e = import_errors(fe_import_stg, "forward_pred.stg", &o);
    ck_assert_str_eq(e, "forward_pred.stg:4:12: error: predecessor 3 of task 2 is not an "
                        "earlier task\n");
    free(e);
    e = import_errors(fe_import_stg, "missing_lines.stg", &o);
    ck_assert_str_eq(
        e, "missing_lines.stg:5:1: error: unexpected end of file: expected task 3 "
           "of 4\n");
    free(e);
    e = import_errors(fe_import_stg, "wrong_id.stg", &o);
    ck_assert_str_eq(e,
                     "wrong_id.stg:4:3: error: expected task 2, found 3 (tasks must be "
                     "numbered 0..4 in order)\n");
    free(e);
    o.limits.max_tasks = 5;
    e = import_errors(fe_import_stg, "small.stg", &o);
    ck_assert_str_eq(
        e, "small.stg:1:1: error: 6 tasks (with the entry and exit tasks) exceed "
           "--max-tasks=5\n");
    free(e);
}
END_TEST

TEST(dot_reads_auckland_weights)
{
    Options o = options();
    Diag *d = diag_new();
    Graph *g = fe_import_dot(tc("small.dot"), &o, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    ck_assert_int_eq(g->ntasks, 4);
    ck_assert_int_eq(g->nedges, 4);
    ck_assert_str_eq(g->name, "small");
    ck_assert_str_eq(g->tasks[2].id, "2");
    ck_assert_int_eq(g->tasks[3].cycles[0], 4);
    ck_assert_int_eq(g->edges[1].from, 0);
    ck_assert_int_eq(g->edges[1].to, 2);
    ck_assert_int_eq(g->edges[1].bytes, 7);
    ck_assert_int_eq(g->edges[3].bytes, 6);
    /* with communication: 0 (2) + 7 + 2 (3) + 6 + 3 (4) */
    ck_assert_int_eq(ir_critical_path(g, 4, true), 22);
    ir_graph_free(g);
    g = fe_import_dot(tc("cycle.dot"), &o,
                      d); /* cycles/bytes names; the cycle is an error */
    ck_assert_ptr_null(g);
    diag_free(d);
}
END_TEST

TEST(dot_errors_name_lines_and_nodes)
{
    Options o = options();
    char *e = import_errors(fe_import_dot, "syntax.dot", &o);
    ck_assert_str_eq(e, "syntax.dot:4: error: syntax error near '->'\n");
    free(e);
    e = import_errors(fe_import_dot, "no_weight.dot", &o);
    ck_assert_str_eq(e,
                     "no_weight.dot: error: node \"b\" has no attribute \"Weight\" (or "
                     "\"cycles\")\n");
    free(e);
    e = import_errors(fe_import_dot, "bad_weight.dot", &o);
    ck_assert_str_eq(
        e, "bad_weight.dot: error: edge \"a\" -> \"b\": attribute \"Weight\" must "
           "be an integer in 0..1073741823, got \"four\"\n");
    free(e);
    e = import_errors(fe_import_dot, "cycle.dot", &o);
    ck_assert_str_eq(
        e, "cycle.dot: error: the edges without delay form a cycle through task "
           "\"a\"\n");
    free(e);
    e = import_errors(fe_import_dot, "undirected.dot", &o);
    ck_assert_str_eq(e, "undirected.dot: error: a task graph must be a digraph\n");
    free(e);
    /* cgraph's two-line message about an unterminated HTML string is one located line */
    e = import_errors(fe_import_dot, "html_string.dot", &o);
    ck_assert_str_eq(e, "html_string.dot:2: error: syntax error scanning a HTML string "
                        "(missing '>'? bad nesting? longer than 16384?) String "
                        "starting:<g {gr\n");
    free(e);
    /* a second read after an error still counts lines from 1 */
    e = import_errors(fe_import_dot, "syntax.dot", &o);
    ck_assert_str_eq(e, "syntax.dot:4: error: syntax error near '->'\n");
    free(e);
}
END_TEST

/* Counts near INT64_MAX, empty graphs and names JSON cannot hold are input errors, never
 * a wrong graph or an abort. */
TEST(import_refuses_what_check_would)
{
    Options o = options();
    char *e = import_errors(fe_import_stg, "count_overflow.stg", &o);
    ck_assert_str_eq(e, "count_overflow.stg:1:1: error: 9223372036854775809 tasks (with "
                        "the entry and exit tasks) exceed --max-tasks=100000\n");
    free(e);
    e = import_errors(fe_import_stg, "count_near_overflow.stg", &o);
    ck_assert_str_eq(e, "count_near_overflow.stg:1:1: error: 9223372036854775808 tasks "
                        "(with the entry and exit tasks) exceed --max-tasks=100000\n");
    free(e);
    o.limits.max_tasks = 1; /* below the two dummy tasks */
    e = import_errors(fe_import_stg, "small.stg", &o);
    ck_assert_str_eq(e, "small.stg:1:1: error: 6 tasks (with the entry and exit tasks) "
                        "exceed --max-tasks=1\n");
    free(e);
    o = options();
    e = import_errors(fe_import_dot, "empty.dot", &o);
    ck_assert_str_eq(e, "empty.dot: error: the graph has no nodes (a task graph needs at "
                        "least one task)\n");
    free(e);
    e = import_errors(fe_import_dot, "empty_name.dot", &o);
    ck_assert_str_eq(e, "empty_name.dot: error: a node has an empty name (task ids must "
                        "not be empty)\n");
    free(e);
    e = import_errors(fe_import_dot, "node_not_utf8.dot", &o);
    ck_assert_str_eq(
        e, "node_not_utf8.dot: error: node \"a\\xffb\": the name is not valid UTF-8\n");
    free(e);
    e = import_errors(fe_import_dot, "name_not_utf8.dot", &o);
    ck_assert_str_eq(
        e, "name_not_utf8.dot: error: the graph's name \"g\\xe9\" is not valid UTF-8\n");
    free(e);
}
END_TEST

/* Every field tgc import sdf3 reads (testcases/import/sdf3/small.xml): rates written with
 * blanks, a sign and a zero fraction, initial tokens, the last of two default processors
 * (SDF3's rule), --processor, the first token size in bits rounded up to bytes, the
 * throughput constraint 3e-4 as floor(1 / 3e-4) = 3333 cycles per iteration. */
TEST(sdf3_reads_rates_tokens_times_and_constraint)
{
    Options o = options();
    Diag *d = diag_new();
    Graph *g = fe_import_sdf3(tc("sdf3/small.xml"), &o, NULL, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    ck_assert_str_eq(g->name, "small");
    ck_assert_int_eq(g->ntasks, 2);
    ck_assert_str_eq(g->tasks[0].id, "src");
    ck_assert_str_eq(g->tasks[1].id, "dst");
    ck_assert_int_eq(g->tasks[0].cycles[0], 500); /* dsp, the last default */
    ck_assert_int_eq(g->tasks[1].cycles[0], 300);
    ck_assert_int_eq(g->nedges, 2);
    const Edge *fwd = &g->edges[0], *fb = &g->edges[1];
    ck_assert_int_eq(fwd->from, 0);
    ck_assert_int_eq(fwd->to, 1);
    ck_assert_int_eq(fwd->produce, 3);
    ck_assert_int_eq(fwd->consume, 2);
    ck_assert_int_eq(fwd->tokens, 0);
    ck_assert_int_eq(fwd->bytes, 2); /* 12 bits */
    ck_assert_int_eq(fwd->delay, 0);
    ck_assert_int_eq(fb->from, 1);
    ck_assert_int_eq(fb->to, 0);
    ck_assert_int_eq(fb->produce, 2);
    ck_assert_int_eq(fb->consume, 3);
    ck_assert_int_eq(fb->tokens, 4);
    ck_assert_int_eq(fb->bytes, 0); /* no token size */
    ck_assert_int_eq(g->period_constraint, 3333);
    ck_assert_str_eq(g->platform_ref, "bwdsp-1board");
    ck_assert_int_eq(g->platform->ndsps, 4);
    ck_assert_int_eq(g->iterations, 1);
    ir_graph_free(g);
    /* --processor arm, --platform, --iterations */
    o.platform = "bwdsp-2board";
    o.iterations = 7;
    g = fe_import_sdf3(tc("sdf3/small.xml"), &o, "arm", d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    ck_assert_int_eq(g->tasks[0].cycles[0], 700);
    ck_assert_int_eq(g->tasks[1].cycles[0], 900);
    ck_assert_str_eq(g->platform_ref, "bwdsp-2board");
    ck_assert_int_eq(g->platform->ndsps, 8);
    ck_assert_int_eq(g->iterations, 7);
    ir_graph_free(g);
    /* a processor type no actor has: one error per actor, nothing returned */
    ck_assert_ptr_null(fe_import_sdf3(tc("sdf3/small.xml"), &o, "fpga", d));
    ck_assert_int_eq(diag_errors(d), 2);
    diag_free(d);
}
END_TEST

/* What the writer makes of an imported graph: the multi-rate fields, the constraint. */
TEST(sdf3_graph_is_written_with_its_rates)
{
    Options o = options();
    Diag *d = diag_new();
    Graph *g = fe_import_sdf3(tc("sdf3/small.xml"), &o, NULL, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    char *text = cg_graph_json(g);
    ck_assert_str_eq(text, "{\n"
                           "  \"format\": \"tgc-graph/1\",\n"
                           "  \"name\": \"small\",\n"
                           "  \"period_constraint\": 3333,\n"
                           "  \"tasks\": [\n"
                           "    {\n"
                           "      \"id\": \"src\",\n"
                           "      \"cycles\": 500\n"
                           "    },\n"
                           "    {\n"
                           "      \"id\": \"dst\",\n"
                           "      \"cycles\": 300\n"
                           "    }\n"
                           "  ],\n"
                           "  \"edges\": [\n"
                           "    {\n"
                           "      \"from\": \"src\",\n"
                           "      \"to\": \"dst\",\n"
                           "      \"bytes\": 2,\n"
                           "      \"produce\": 3,\n"
                           "      \"consume\": 2\n"
                           "    },\n"
                           "    {\n"
                           "      \"from\": \"dst\",\n"
                           "      \"to\": \"src\",\n"
                           "      \"produce\": 2,\n"
                           "      \"consume\": 3,\n"
                           "      \"tokens\": 4\n"
                           "    }\n"
                           "  ]\n"
                           "}\n");
    free(text);
    ir_graph_free(g);
    diag_free(d);
}
END_TEST

/* A file name that is not UTF-8 (it would become the graph's name and go into JSON) is an
 * input error of every reader. */
TEST(file_names_must_be_utf8)
{
    char dir[] = "/tmp/tgc-import-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/g\xff.stg", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("1\n0 0 0\n1 5 1 0\n2 0 1 1\n", f);
    fclose(f);
    Options o = options();
    Diag *d = diag_new();
    ck_assert_ptr_null(fe_import_stg(path, &o, d));
    char want[512];
    snprintf(want, sizeof want,
             "%s: error: cannot read file: its name is not valid UTF-8\n", path);
    ck_assert_str_eq(diag_text(d), want);
    diag_clear(d);
    ck_assert_ptr_null(fe_import_dot(path, &o, d));
    ck_assert_str_eq(diag_text(d), want);
    diag_clear(d);
    ck_assert_ptr_null(fe_import_sdf3(path, &o, NULL, d));
    ck_assert_str_eq(diag_text(d), want);
    diag_clear(d);
    ck_assert_ptr_null(fe_load_graph(path, &o, d));
    ck_assert_str_eq(diag_text(d), want);
    diag_free(d);
    unlink(path);
    rmdir(dir);
}
END_TEST

static const char canonical_graph[] = "{\n"
                                      "  \"format\": \"tgc-graph/1\",\n"
                                      "  \"name\": \"g\",\n"
                                      "  \"iterations\": 5,\n"
                                      "  \"platform\": \"bwdsp-2board\",\n"
                                      "  \"tasks\": [\n"
                                      "    {\n"
                                      "      \"id\": \"src\",\n"
                                      "      \"cycles\": 100,\n"
                                      "      \"params\": {\n"
                                      "        \"n\": 4,\n"
                                      "        \"gain\": 0.1,\n"
                                      "        \"scale\": 2.75,\n"
                                      "        \"mode\": \"fast\",\n"
                                      "        \"on\": true\n"
                                      "      },\n"
                                      "      \"dsp\": 3\n"
                                      "    },\n"
                                      "    {\n"
                                      "      \"id\": \"sink\",\n"
                                      "      \"cycles\": [\n"
                                      "        1,\n"
                                      "        2,\n"
                                      "        3,\n"
                                      "        4,\n"
                                      "        5,\n"
                                      "        6,\n"
                                      "        7,\n"
                                      "        8\n"
                                      "      ],\n"
                                      "      \"output\": \"out.txt\"\n"
                                      "    }\n"
                                      "  ],\n"
                                      "  \"edges\": [\n"
                                      "    {\n"
                                      "      \"from\": \"src\",\n"
                                      "      \"to\": \"sink\",\n"
                                      "      \"bytes\": 64\n"
                                      "    },\n"
                                      "    {\n"
                                      "      \"from\": \"sink\",\n"
                                      "      \"to\": \"src\",\n"
                                      "      \"delay\": 2\n"
                                      "    }\n"
                                      "  ]\n"
                                      "}\n";

TEST(graph_json_round_trip)
{
    Options o = options();
    Diag *d = diag_new();
    Graph *g = fe_load_graph_string(canonical_graph, "g.json", &o, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    char *s = cg_graph_json(g);
    ck_assert_str_eq(s, canonical_graph);
    free(s);
    ir_graph_free(g);
    /* an imported graph written and read back is the same graph */
    g = fe_import_stg(tc("small.stg"), &o, d);
    s = cg_graph_json(g);
    Graph *h = fe_load_graph_string(s, "small.json", &o, d);
    ck_assert_msg(h != NULL, "%s", diag_text(d));
    char *t = cg_graph_json(h);
    ck_assert_str_eq(s, t);
    ck_assert_int_eq(h->platform->model, MODEL_ABSTRACT);
    ck_assert_int_eq(h->nedges, 6);
    free(s);
    free(t);
    ir_graph_free(g);
    ir_graph_free(h);
    diag_free(d);
}
END_TEST

/* A 3-DSP schedule of a 4-task graph with an aggregated, pipelined message and a delay
 * message, evaluated, written, read, evaluated and written again. */
static const char sched_graph[] =
    "{ \"format\": \"tgc-graph/1\", \"name\": \"rt\", "
    "\"iterations\": 6, \"platform\": \"bwdsp-1board\", "
    "\"tasks\": [{\"id\": \"a\", \"cycles\": 1000}, "
    "{\"id\": \"b\", \"cycles\": 2000}, "
    "{\"id\": \"c\", \"cycles\": 1500}, "
    "{\"id\": \"d\", \"cycles\": 500}], "
    "\"edges\": [{\"from\": \"a\", \"to\": \"b\", \"bytes\": 64}, "
    "{\"from\": \"a\", \"to\": \"c\", \"bytes\": 600}, "
    "{\"from\": \"a\", \"to\": \"d\", \"bytes\": 32}, "
    "{\"from\": \"b\", \"to\": \"d\", \"bytes\": 16}, "
    "{\"from\": \"c\", \"to\": \"d\", \"bytes\": 8}, "
    "{\"from\": \"d\", \"to\": \"a\", \"bytes\": 4, \"delay\": 1}]}";

static char *
write_eval(const Sched *s)
{
    EvalResult r;
    Arena *a = arena_new();
    EvalOpts eo = {.first = 2, .last = 2};
    ck_assert_int_eq(eval_run(s, &eo, &r, a), 0);
    char *text = cg_sched_json(s, &r);
    arena_free(a);
    return text;
}

TEST(schedule_json_round_trip_is_byte_identical)
{
    Options o = options();
    Diag *d = diag_new();
    Graph *g = fe_load_graph_string(sched_graph, "rt.json", &o, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    s->map[2] = 1;
    s->map[3] = 2;
    /* edges: 0 a->b, 1 a->c, 2 a->d, 3 b->d, 4 c->d, 5 d->a (delay 1) */
    int ab[2] = {0, 1}, ad = 2, bd[2] = {3, 4}, da = 5;
    int m0 = ir_sched_add_msg(s, 0, 1, ab, 2);
    int m1 = ir_sched_add_msg(s, 0, 2, &ad, 1);
    int m2 = ir_sched_add_msg(s, 1, 2, bd, 2);
    int m3 = ir_sched_add_msg(s, 2, 0, &da, 1);
    s->msgs[m0].pipelined = true;
    ir_sched_push_op(s, 0, OP_RECV, m3);
    ir_sched_push_op(s, 0, OP_COMPUTE, 0);
    ir_sched_push_op(s, 0, OP_SEND, m0);
    ir_sched_push_op(s, 0, OP_SEND, m1);
    ir_sched_push_op(s, 1, OP_RECV, m0);
    ir_sched_push_op(s, 1, OP_COMPUTE, 1);
    ir_sched_push_op(s, 1, OP_COMPUTE, 2);
    ir_sched_push_op(s, 1, OP_SEND, m2);
    ir_sched_push_op(s, 2, OP_RECV, m1);
    ir_sched_push_op(s, 2, OP_RECV, m2);
    ir_sched_push_op(s, 2, OP_COMPUTE, 3);
    ir_sched_push_op(s, 2, OP_SEND, m3);
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    char *first = write_eval(s);

    char tmpl[] = "/tmp/tgc-sched-XXXXXX";
    int fd = mkstemp(tmpl);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, first, strlen(first)), (ssize_t)strlen(first));
    close(fd);
    Graph *g2;
    Sched *s2 = fe_load_schedule(tmpl, &o, &g2, d);
    ck_assert_msg(s2 != NULL, "%s", diag_text(d));
    ck_assert_int_eq(s2->nmsgs, 4);
    ck_assert(s2->msgs[0].pipelined);
    ck_assert_int_eq(s2->msgs[2].nedges, 2);
    ck_assert_int_eq(s2->msgs[3].delay, 1);
    ck_assert_int_eq(g2->iterations, 6);
    char *second = write_eval(s2);
    ck_assert_str_eq(first, second);
    ck_assert_ptr_nonnull(strstr(first, "\"pipelined\": true"));

    /* a broken file is reported with a pointer, and nothing is returned */
    char *bad = strdup(first);
    char *hit = strstr(bad, "\"recv\": 2");
    ck_assert_ptr_nonnull(hit);
    hit[8] = '9';
    fd = open(tmpl, O_WRONLY | O_TRUNC);
    ck_assert_int_eq(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
    close(fd);
    Diag *d2 = diag_new();
    Graph *g3 = NULL;
    ck_assert_ptr_null(fe_load_schedule(tmpl, &o, &g3, d2));
    ck_assert_ptr_null(g3);
    ck_assert_ptr_nonnull(strstr(diag_text(d2),
                                 ": /dsps/2/ops/1/recv: error: message id must "
                                 "be at most 3, got 9"));
    diag_free(d2);
    unlink(tmpl);
    free(bad);
    free(first);
    free(second);
    ir_sched_free(s2);
    ir_graph_free(g2);
    ir_sched_free(s);
    ir_graph_free(g);
    diag_free(d);
}
END_TEST

/* Byte mutations of good inputs (fixed seed): every reader either returns a result or
 * reports at least one error; none crashes (the sanitizer build checks memory too). */
static uint64_t
next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = malloc(1 << 20);
    *len = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    return buf;
}

static void
mutate_and_read(const char *good, int kind)
{
    size_t len;
    char *orig = slurp(good, &len);
    char *buf = malloc(len + 64);
    uint64_t seed = 0x9e3779b97f4a7c15u + (uint64_t)kind;
    char tmpl[] = "/tmp/tgc-fuzz-XXXXXX";
    int fd = mkstemp(tmpl);
    ck_assert_int_ge(fd, 0);
    close(fd);
    static const char junk[] = "0123456789 -#\n{}[]\":,;=->digraph\x00\xff";
    Options o = options();
    for (int round = 0; round < 300; round++) {
        memcpy(buf, orig, len);
        size_t n = len;
        int edits = 1 + (int)(next_rand(&seed) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = n ? next_rand(&seed) % n : 0;
            char c = junk[next_rand(&seed) % (sizeof junk - 1)];
            switch (next_rand(&seed) % 3) {
            case 0:
                buf[at] = c; /* replace */
                break;
            case 1:
                if (n > 1) { /* delete */
                    memmove(buf + at, buf + at + 1, n - at - 1);
                    n--;
                }
                break;
            default:
                if (n + 1 < len + 64) { /* insert */
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = c;
                    n++;
                }
            }
        }
        FILE *f = fopen(tmpl, "wb");
        fwrite(buf, 1, n, f);
        fclose(f);
        Diag *d = diag_new();
        if (kind == 2) {
            Graph *g = NULL;
            Sched *s = fe_load_schedule(tmpl, &o, &g, d);
            ck_assert((s != NULL) == (diag_errors(d) == 0));
            ir_sched_free(s);
            ir_graph_free(g);
        } else {
            Graph *g = (kind ? fe_import_dot : fe_import_stg)(tmpl, &o, d);
            ck_assert((g != NULL) == (diag_errors(d) == 0));
            ir_graph_free(g);
        }
        diag_free(d);
    }
    unlink(tmpl);
    free(buf);
    free(orig);
}

TEST(readers_survive_mutated_inputs)
{
    mutate_and_read(tc("small.stg"), 0);
    mutate_and_read(tc("small.dot"), 1);
    snprintf(path_buf, sizeof path_buf, "%s/schedule/deadlock.json", TGC_TESTCASES);
    mutate_and_read(path_buf, 2);
}
END_TEST
