/* tests/check_frontend.c - the tgc-graph/1 and tgc-platform/1 readers and the semantic
 * checks, on strings, with the exact text of every message. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "ir.h"

static Options
opts(void)
{
    Options o = {.limits = ir_default_limits()};
    return o;
}

/* Loads text with options o; returns the diagnostics (static buffer) and the graph. */
static char text_buf[8192];
static Graph *
load(const char *text, const Options *o)
{
    Diag *d = diag_new();
    Graph *g = fe_load_graph_string(text, "g.json", o, d);
    snprintf(text_buf, sizeof text_buf, "%s", diag_text(d));
    diag_free(d);
    return g;
}

/* Expects the load to fail with exactly `want` as diagnostics. */
static void
fails(const char *text, const Options *o, const char *want)
{
    Options def = opts();
    Graph *g = load(text, o ? o : &def);
    ck_assert_ptr_null(g);
    ck_assert_str_eq(text_buf, want);
}

#define HEAD "{\"format\": \"tgc-graph/1\", "
#define TWO                                                                              \
    "\"tasks\": [{\"id\": \"a\", \"cycles\": 10}, {\"id\": \"b\", \"cycles\": 20}]"

TEST_CASE("core", 0)

TEST(minimal_graph_loads_with_defaults)
{
    Options o = opts();
    Graph *g = load(
        HEAD TWO ", \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"bytes\": 64}]}", &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_str_eq(text_buf, "");
    ck_assert_str_eq(g->name, "g");
    ck_assert_int_eq(g->iterations, 1);
    ck_assert_int_eq(g->ntasks, 2);
    ck_assert_int_eq(g->nedges, 1);
    ck_assert_int_eq(g->edges[0].from, 0);
    ck_assert_int_eq(g->edges[0].to, 1);
    ck_assert_int_eq(g->edges[0].bytes, 64);
    ck_assert_int_eq(g->edges[0].delay, 0);
    ck_assert_int_eq(g->tasks[1].dsp, -1);
    ck_assert_ptr_null(g->tasks[0].kernel);
    ck_assert_str_eq(g->platform->name, "bwdsp-1board");
    ck_assert_str_eq(g->platform_ref, "bwdsp-1board");
    ck_assert_int_eq(g->platform->ndsps, 4);
    ck_assert_ptr_nonnull(g->topo);
    ck_assert_int_eq(ir_critical_path(g, 4, false), 30);
    ir_graph_free(g);
}
END_TEST

TEST(all_fields_are_lowered)
{
    Options o = opts();
    Graph *g =
        load(HEAD "\"name\": \"n\", \"iterations\": 1e3, \"x-note\": [1, 2],"
                  "\"platform\": {\"model\": \"abstract\", \"dsps\": 3},"
                  "\"tasks\": [{\"id\": \"a\", \"cycles\": [1, 2, 3], \"dsp\": 2,"
                  " \"params\": {\"k\": 3, \"r\": 0.5, \"s\": \"x\", \"on\": true, "
                  "\"x-c\": null}, \"output\": \"out.bin\", \"x-y\": 1},"
                  "{\"id\": \"b\", \"cycles\": 4}],"
                  "\"edges\": [{\"from\": \"b\", \"to\": \"a\", \"delay\": 2}]}",
             &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_str_eq(g->name, "n");
    ck_assert_int_eq(g->iterations, 1000);
    ck_assert_int_eq(g->platform->model, MODEL_ABSTRACT);
    ck_assert_int_eq(g->platform->ndsps, 3);
    ck_assert_str_eq(g->platform_ref, "inline");
    const Task *a = &g->tasks[0];
    ck_assert_int_eq(a->ncycles, 3);
    ck_assert_int_eq(a->cycles[2], 3);
    ck_assert_int_eq(a->dsp, 2);
    ck_assert_str_eq(a->output, "out.bin");
    ck_assert_int_eq(a->nparams, 4);
    ck_assert_str_eq(a->params[0].name, "k");
    ck_assert_int_eq(a->params[0].kind, PARAM_INT);
    ck_assert_int_eq(a->params[0].i, 3);
    ck_assert_int_eq(a->params[1].kind, PARAM_REAL);
    ck_assert(a->params[1].r == 0.5);
    ck_assert_str_eq(a->params[2].s, "x");
    ck_assert_int_eq(a->params[3].kind, PARAM_BOOL);
    ck_assert_int_eq(a->params[3].i, 1);
    ck_assert_int_eq(g->edges[0].delay, 2);
    ck_assert_int_eq(g->edges[0].bytes, 0);
    ir_graph_free(g);
}
END_TEST

TEST(syntax_error_has_line_and_column)
{
    fails("{\n  \"format\": \"tgc-graph/1\",\n  \"tasks\": [}\n", NULL,
          "g.json:3:13: error: unexpected token near '}'\n");
    fails("{\"a\": 1, \"a\": 2}", NULL,
          "g.json:1:12: error: duplicate object key near '\"a\"'\n");
    fails("", NULL, "g.json:1:1: error: '[' or '{' expected near end of file\n");
}
END_TEST

TEST(unknown_field_suggests)
{
    fails(HEAD "\"tasks\": [{\"id\": \"a\", \"cylces\": 1}]}", NULL,
          "g.json: /tasks/0/cylces: error: unknown field \"cylces\" (did you mean "
          "\"cycles\"?)\n"
          "g.json: /tasks/0: error: missing field \"cycles\"\n");
    fails(HEAD TWO ", \"zzzzzz\": 1, \"a/b~\": 2}", NULL,
          "g.json: /zzzzzz: error: unknown field \"zzzzzz\"\n"
          "g.json: /a~1b~0: error: unknown field \"a/b~\"\n");
}
END_TEST

TEST(every_error_of_a_pass_is_reported)
{
    fails(HEAD "\"iterations\": 0, \"tasks\": [{\"id\": 3, \"cycles\": -1},"
               "{\"id\": \"b\", \"cycles\": 1.5, \"dsp\": -2}],"
               "\"edges\": [{\"from\": \"b\", \"to\": \"c\", \"bytes\": 4294967296}]}",
          NULL,
          "g.json: /iterations: error: iterations must be >= 1, got 0\n"
          "g.json: /tasks/0/id: error: id must be a string, got 3\n"
          "g.json: /tasks/0/cycles: error: cycles must be >= 0, got -1\n"
          "g.json: /tasks/1/cycles: error: cycles must be a whole number, got 1.5\n"
          "g.json: /tasks/1/dsp: error: dsp must be >= 0, got -2\n"
          "g.json: /edges/0/to: error: unknown task \"c\" (did you mean \"b\"?)\n"
          "g.json: /edges/0/bytes: error: bytes must be at most 1073741823, got "
          "4294967296\n");
}
END_TEST

TEST(semantic_errors)
{
    fails(HEAD
          "\"tasks\": [{\"id\": \"a\", \"cycles\": 1}, {\"id\": \"a\", \"cycles\": 2},"
          "{\"id\": \"c\", \"cycles\": [1, 2], \"dsp\": 4}],"
          "\"edges\": [{\"from\": \"c\", \"to\": \"c\", \"bytes\": 1}]}",
          NULL,
          "g.json: /tasks/1/id: error: duplicate task id \"a\" (first at /tasks/0)\n"
          "g.json: /tasks/2/cycles: error: cycles lists 2 costs but platform "
          "\"bwdsp-1board\" "
          "has 4 DSPs\n"
          "g.json: /tasks/2/dsp: error: dsp 4 is outside platform \"bwdsp-1board\" (DSPs "
          "0 to "
          "3)\n"
          "g.json: /edges/0: error: edge from task \"c\" to itself\n");
}
END_TEST

TEST(zero_delay_cycles_are_printed)
{
    fails(
        HEAD
        "\"tasks\": [{\"id\": \"a\", \"cycles\": 1}, {\"id\": \"b\", \"cycles\": 1},"
        "{\"id\": \"c\", \"cycles\": 1}, {\"id\": \"d\", \"cycles\": 1},"
        "{\"id\": \"e\", \"cycles\": 1}],"
        "\"edges\": [{\"from\": \"b\", \"to\": \"c\"}, {\"from\": \"c\", \"to\": \"a\"},"
        "{\"from\": \"a\", \"to\": \"b\"}, {\"from\": \"d\", \"to\": \"e\"},"
        "{\"from\": \"e\", \"to\": \"d\"}, {\"from\": \"a\", \"to\": \"d\"},"
        "{\"from\": \"c\", \"to\": \"b\", \"delay\": 1}]}",
        NULL,
        "g.json: /edges/2: error: cycle of zero-delay edges: a -> b -> c -> a (give one "
        "of "
        "its edges a \"delay\")\n"
        "g.json: /edges/3: error: cycle of zero-delay edges: d -> e -> d (give one of "
        "its "
        "edges a \"delay\")\n");
    /* With a delay on the loop the graph is legal. */
    Options o = opts();
    Graph *g = load(HEAD TWO ", \"edges\": [{\"from\": \"a\", \"to\": \"b\"},"
                             "{\"from\": \"b\", \"to\": \"a\", \"delay\": 1}]}",
                    &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ir_graph_free(g);
}
END_TEST

TEST(limits_name_their_option)
{
    Options o = opts();
    o.limits.max_tasks = 1;
    o.limits.max_edges = 0;
    o.limits.max_iterations = 5;
    fails(HEAD "\"iterations\": 6, " TWO
               ", \"edges\": [{\"from\": \"a\", \"to\": \"b\"}]}",
          &o,
          "g.json: /tasks: error: 2 tasks exceed the limit of 1 (raise it with "
          "--max-tasks)\n"
          "g.json: /edges: error: 1 edges exceed the limit of 0 (raise it with "
          "--max-edges)\n");
    o = opts();
    o.limits.max_iterations = 5;
    fails(HEAD "\"iterations\": 6, " TWO "}", &o,
          "g.json: /iterations: error: 6 iterations exceed the limit of 5 (raise it with "
          "--max-iterations)\n");
    o = opts();
    o.limits.max_dsps = 2;
    fails(HEAD TWO "}", &o,
          "g.json: error: platform \"bwdsp-1board\" has 4 DSPs, more than the limit of 2 "
          "(raise "
          "it with --max-dsps)\n");
}
END_TEST

TEST(platform_presets_and_hints)
{
    fails(HEAD "\"platform\": \"bwdsp-3board\", " TWO "}", NULL,
          "g.json: /platform: error: unknown platform \"bwdsp-3board\" (did you mean "
          "\"bwdsp-2board\"?)\n");
    fails(HEAD "\"platform\": \"abstrct\", " TWO "}", NULL,
          "g.json: /platform: error: unknown platform \"abstrct\" (did you mean "
          "\"abstract\"?)\n");
    Options o = opts();
    o.platform = "bwdsp-4board";
    Graph *g = load(HEAD "\"platform\": \"bwdsp-2board\", " TWO "}", &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_int_eq(g->platform->ndsps, 16);
    ck_assert_int_eq(g->platform->nboards, 4);
    ir_graph_free(g);
    o = opts();
    o.dsps = 8;
    g = load(HEAD TWO "}", &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_int_eq(g->platform->ndsps, 8);
    ck_assert_int_eq(g->platform->nboards, 2);
    ir_graph_free(g);
    o.dsps = 6;
    fails(HEAD TWO "}", &o,
          "tgc: error: --dsps 6: 6 DSPs is not a whole number of boards of 4\n");
}
END_TEST

TEST(inline_platform_fields)
{
    Options o = opts();
    Graph *g = load(HEAD "\"platform\": {\"preset\": \"bwdsp-2board\", \"handshake\": 0,"
                         "\"eager_limit\": 64, \"name\": \"fast\"}, " TWO "}",
                    &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_str_eq(g->platform->name, "fast");
    ck_assert_int_eq(g->platform->handshake, 0);
    ck_assert_int_eq(g->platform->eager_limit, 64);
    ck_assert_int_eq(g->platform->ndsps, 8);
    ck_assert_int_eq(g->platform->send_overhead, 600);
    ck_assert_int_eq(plat_switch_hops(g->platform, 0, 7), 2);
    ir_graph_free(g);
    g = load(HEAD "\"platform\": {\"boards\": 3, \"dsps_per_board\": 2,"
                  "\"links\": [[0, 2], [2, 1]]}, " TWO "}",
             &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_int_eq(g->platform->ndsps, 6);
    ck_assert_int_eq(plat_switch_hops(g->platform, 0, 2), 3);
    ck_assert_str_eq(g->platform->name, "inline");
    ir_graph_free(g);
}
END_TEST

TEST(platform_errors)
{
    fails(HEAD
          "\"platform\": {\"boards\": 3, \"links\": [[0, 1], [1, 1], [0, 5], [1, 0], 7]},"
          "\"tasks\": [{\"id\": \"a\", \"cycles\": 1}]}",
          NULL,
          "g.json: /platform/links/1: error: link joins board 1 to itself\n"
          "g.json: /platform/links/2/1: error: link to unknown board 5 (the boards are 0 "
          "to 2)\n"
          "g.json: /platform/links/3: error: duplicate link between boards 0 and 1\n"
          "g.json: /platform/links/4: error: a link must be a pair of board indices [a, "
          "b], got "
          "7\n");
    fails(HEAD "\"platform\": {\"boards\": 3, \"links\": [[0, 1]]},"
               "\"tasks\": [{\"id\": \"a\", \"cycles\": 1}]}",
          NULL,
          "g.json: /platform/links: error: the board links do not connect board 2 to "
          "board 0\n");
    fails(
        HEAD "\"platform\": {\"dsp_clock_mhz\": 0, \"payload_bytes\": 300, \"dsps\": 2,"
             "\"handshak\": 1, \"link_mbps\": \"fast\"},"
             "\"tasks\": [{\"id\": \"a\", \"cycles\": 1}]}",
        NULL,
        "g.json: /platform/handshak: error: unknown field \"handshak\" (did you mean "
        "\"handshake\"?)\n"
        "g.json: /platform/dsps: error: dsps applies to the abstract model only (a bwdsp "
        "platform has \"boards\" of \"dsps_per_board\" DSPs)\n"
        "g.json: /platform/dsp_clock_mhz: error: dsp_clock_mhz must be >= 1, got 0\n"
        "g.json: /platform/link_mbps: error: link_mbps must be an integer, got a string\n"
        "g.json: /platform/payload_bytes: error: payload_bytes (300) must be less than "
        "packet_bytes (276)\n");
    fails(HEAD "\"platform\": {\"model\": \"abstract\", \"boards\": 2},"
               "\"tasks\": [{\"id\": \"a\", \"cycles\": 1}]}",
          NULL,
          "g.json: /platform/boards: error: boards applies to the bwdsp model only\n"
          "g.json: /platform: error: missing field \"dsps\" (the abstract model needs "
          "its number "
          "of DSPs)\n");
    fails(HEAD "\"platform\": 4, \"tasks\": [{\"id\": \"a\", \"cycles\": 1}]}", NULL,
          "g.json: /platform: error: platform must be a preset name, a path or an "
          "object, got "
          "4\n");
}
END_TEST

TEST(platform_file_is_read_relative_to_the_graph)
{
    char dir[] = "/tmp/tgc_fe_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256], gpath[256];
    snprintf(path, sizeof path, "%s/p.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"format\": \"tgc-platform/1\", \"model\": \"abstract\", \"dsps\": 5}\n", f);
    fclose(f);
    snprintf(gpath, sizeof gpath, "%s/g.json", dir);
    f = fopen(gpath, "w");
    fputs(HEAD "\"platform\": \"p.json\", " TWO "}", f);
    fclose(f);
    Diag *d = diag_new();
    Options o = opts();
    Graph *g = fe_load_graph(gpath, &o, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    ck_assert_int_eq(g->platform->ndsps, 5);
    ck_assert_str_eq(g->platform->name, path);
    ir_graph_free(g);

    Arena *a = arena_new();
    Platform *p = fe_load_platform(a, "p.json", dir, d);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->ndsps, 5);
    ck_assert_ptr_null(fe_load_platform(a, "bwdsp-17board", NULL, d));
    ck_assert_str_eq(diag_text(d),
                     "tgc: error: unknown platform \"bwdsp-17board\" (did you "
                     "mean \"bwdsp-16board\"?)\n");
    diag_clear(d);
    f = fopen(path, "w");
    fputs("{\"model\": \"abstract\",\n \"dsps\": 5,}\n", f);
    fclose(f);
    ck_assert_ptr_null(fe_load_platform(a, "p.json", dir, d));
    char want[512];
    snprintf(want, sizeof want, "%s:2:12: error: string or '}' expected near '}'\n",
             path);
    ck_assert_str_eq(diag_text(d), want);
    diag_clear(d);
    f = fopen(path, "w");
    fputs("{\"model\": \"abstract\", \"dsps\": 5}\n", f);
    fclose(f);
    ck_assert_ptr_null(fe_load_platform(a, "p.json", dir, d));
    snprintf(
        want, sizeof want,
        "%s: /: error: missing field \"format\" (a platform file starts with \"format\": "
        "\"tgc-platform/1\")\n",
        path);
    ck_assert_str_eq(diag_text(d), want);
    arena_free(a);
    diag_free(d);
    unlink(path);
    unlink(gpath);
    rmdir(dir);
}
END_TEST

TEST(kernels_must_exist)
{
    fails(
        HEAD
        "\"kernels\": {\"source\": \"/nonexistent/k.c\"}, \"tasks\": [{\"id\": \"a\","
        " \"cycles\": 1, \"kernel\": \"f\"}, {\"id\": \"b\", \"cycles\": 1, \"kernel\": "
        "\"2x\", \"params\": {\"a b\": 1}}]}",
        NULL,
        "g.json: /tasks/1/kernel: error: kernel \"2x\" is not a C identifier\n"
        "g.json: /tasks/1/params/a b: error: parameter name \"a b\" is not a C "
        "identifier\n"
        "g.json: /kernels/source: error: kernel source \"/nonexistent/k.c\" does not "
        "exist\n");
    fails(HEAD "\"tasks\": [{\"id\": \"a\", \"cycles\": 1, \"kernel\": \"f\"}]}", NULL,
          "g.json: /tasks/0/kernel: error: task \"a\" names kernel \"f\" but the graph "
          "has no "
          "\"kernels\" source\n");
}
END_TEST

TEST(totals_cannot_overflow)
{
    fails(HEAD "\"iterations\": 4194305, \"tasks\": [{\"id\": \"a\", \"cycles\": "
               "1099511627776}]}",
          NULL,
          "g.json: /iterations: error: 4194305 iterations of up to 1099511627776 cycles "
          "each "
          "exceed 2^62 cycles in total\n");
    fails(HEAD "\"tasks\": [{\"id\": \"a\", \"cycles\": 1099511627777}]}", NULL,
          "g.json: /tasks/0/cycles: error: cycles must be at most 1099511627776, got "
          "1099511627777\n");
    fails(HEAD "\"tasks\": [{\"id\": \"a\", \"cycles\": 99999999999999999999}]}", NULL,
          "g.json:1:78: error: too big integer near '99999999999999999999'\n");
}
END_TEST

TEST(document_shape_errors)
{
    fails("[1]", NULL,
          "g.json: /: error: a task graph must be a JSON object, got an array\n");
    fails(
        "{\"format\": \"tgc-graph/2\", \"tasks\": []}", NULL,
        "g.json: /format: error: format must be \"tgc-graph/1\", got \"tgc-graph/2\"\n");
    fails("{\"tasks\": [3], \"edges\": {}}", NULL,
          "g.json: /: error: missing field \"format\" (a task graph starts with "
          "\"format\": "
          "\"tgc-graph/1\")\n"
          "g.json: /tasks/0: error: a task must be an object, got 3\n"
          "g.json: /edges: error: edges must be an array, got an object\n");
    fails(HEAD "\"tasks\": []}", NULL,
          "g.json: /tasks: error: a task graph needs at least one task\n");
}
END_TEST

TEST(checks_run_on_built_graphs)
{
    /* fe_check on a graph built in code, as the importers do. */
    Graph *g = ir_graph_new();
    g->file = "imported.stg";
    g->platform = plat_preset(g->arena, "bwdsp-1board");
    g->ntasks = 2;
    g->tasks = arena_array(g->arena, 2, sizeof(Task));
    for (int i = 0; i < 2; i++) {
        g->tasks[i].id = i ? "y" : "x";
        g->tasks[i].dsp = -1;
        g->tasks[i].ncycles = 1;
        g->tasks[i].cycles = arena_alloc(g->arena, sizeof(int64_t));
        g->tasks[i].cycles[0] = i ? -5 : 5;
    }
    g->nedges = 2;
    g->edges = arena_array(g->arena, 2, sizeof(Edge));
    g->edges[0] = (Edge){.from = 0, .to = 1, .bytes = 8, .delay = 0};
    g->edges[1] = (Edge){.from = 1, .to = 0, .bytes = 8, .delay = -1};
    Diag *d = diag_new();
    Options o = opts();
    ck_assert_int_eq(fe_check(g, &o, d), 2);
    ck_assert_str_eq(diag_text(d),
                     "imported.stg: /tasks/1/cycles: error: cycles must be >= 0, "
                     "got -5\n"
                     "imported.stg: /edges/1/delay: error: delay must be >= 0, "
                     "got -1\n");
    diag_free(d);
    ir_graph_free(g);
}
END_TEST

/* Mutated inputs (a fixed pseudo-random sequence of byte edits) never crash the readers:
 * each load either returns a graph with no error or NULL with at least one error, every
 * message a whole line about g.json (or the command line). */
TEST(mutated_inputs_never_crash)
{
    static const char base[] =
        "{\"format\": \"tgc-graph/1\", \"name\": \"m\", \"iterations\": 4,\n"
        " \"platform\": {\"preset\": \"bwdsp-2board\", \"boards\": 3, \"links\": [[0, "
        "1], [1, 2]],"
        " \"eager_limit\": 64},\n"
        " \"tasks\": [{\"id\": \"a\", \"cycles\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, "
        "12]},\n"
        "  {\"id\": \"b\", \"cycles\": 20, \"dsp\": 3, \"params\": {\"k\": 1.5, \"s\": "
        "\"t\"}},\n"
        "  {\"id\": \"c\", \"cycles\": 1e3, \"output\": \"o\"}],\n"
        " \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"bytes\": 64},\n"
        "  {\"from\": \"b\", \"to\": \"c\"}, {\"from\": \"c\", \"to\": \"a\", \"delay\": "
        "1}]}\n";
    static const char alphabet[] = "{}[],:\"0123456789-.e ax/~\\tn";
    size_t n = sizeof base - 1;
    char *buf = malloc(2 * n + 2);
    uint64_t x = 12345;
    int loaded = 0;
    Options o = opts();
    for (int round = 0; round < 4000; round++) {
        memcpy(buf, base, n + 1);
        size_t len = n;
        int edits = 1 + (int)(x % 3);
        for (int k = 0; k < edits; k++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            size_t at = (size_t)(x >> 33) % len;
            int what = (int)((x >> 20) % 3);
            if (what == 0) { /* replace */
                buf[at] = alphabet[(x >> 40) % (sizeof alphabet - 1)];
            } else if (what == 1 && len > 1) { /* delete */
                memmove(buf + at, buf + at + 1, len - at);
                len--;
            } else if (len < 2 * n) { /* insert */
                memmove(buf + at + 1, buf + at, len - at + 1);
                buf[at] = alphabet[(x >> 40) % (sizeof alphabet - 1)];
                len++;
            }
        }
        Diag *d = diag_new();
        Graph *g = fe_load_graph_string(buf, "g.json", &o, d);
        const char *t = diag_text(d);
        if (g) {
            ck_assert_int_eq(diag_errors(d), 0);
            loaded++;
        } else {
            ck_assert_int_gt(diag_errors(d), 0);
            ck_assert_msg(t[strlen(t) - 1] == '\n', "%s", t);
        }
        for (const char *line = t; *line; line = strchr(line, '\n') + 1)
            ck_assert_msg(strncmp(line, "g.json", 6) == 0 ||
                              strncmp(line, "tgc: ", 5) == 0,
                          "%s", line);
        ir_graph_free(g);
        diag_free(d);
    }
    ck_assert_int_gt(loaded, 0); /* some edits keep the graph valid */
    free(buf);
}
END_TEST

/* "cycles" as an expression of the task's integer params (frontend/cost_expr.c). */
static int64_t
cost_of(const char *expr)
{
    char text[1024];
    snprintf(text, sizeof text,
             HEAD
             "\"tasks\": [{\"id\": \"a\", \"cycles\": \"%s\", \"params\": {\"n\": 10, "
             "\"m\": 3, \"on\": true}}]}",
             expr);
    Options o = opts();
    Graph *g = load(text, &o);
    ck_assert_msg(g != NULL, "%s: %s", expr, text_buf);
    int64_t c = g->tasks[0].cycles[0];
    ir_graph_free(g);
    return c;
}

static void
cost_fails(const char *expr, const char *want)
{
    char text[1024];
    snprintf(text, sizeof text,
             HEAD
             "\"tasks\": [{\"id\": \"a\", \"cycles\": \"%s\", \"params\": {\"n\": 10, "
             "\"m\": 3, \"g\": 0.5}}]}",
             expr);
    fails(text, NULL, want);
}

TEST(cycles_expressions)
{
    ck_assert_int_eq(cost_of("42"), 42);
    ck_assert_int_eq(cost_of("1 + 2 * 3"), 7);
    ck_assert_int_eq(cost_of("(1 + 2) * 3"), 9);
    ck_assert_int_eq(cost_of("n - m - 1"), 6); /* left to right */
    ck_assert_int_eq(cost_of("n / m"), 3);     /* truncating, as in C */
    ck_assert_int_eq(cost_of("n % m"), 1);
    ck_assert_int_eq(cost_of("cdiv(n, m)"), 4);
    ck_assert_int_eq(cost_of("cdiv(9, m)"), 3);
    ck_assert_int_eq(cost_of("cdiv(0, m)"), 0);
    ck_assert_int_eq(cost_of("min(n, m, 7) + max(n, m, 7)"), 13);
    ck_assert_int_eq(cost_of("max(5)"), 5);
    ck_assert_int_eq(cost_of("-m + n * -1 + 20"), 7);
    ck_assert_int_eq(cost_of(" n*n\\t* 1000000 "), 100000000);
    ck_assert_int_eq(cost_of("1099511627776"), INT64_C(1) << 40);
    /* the params come after the cycles in the object: read first all the same */
    Options o = opts();
    Graph *g =
        load(HEAD "\"tasks\": [{\"id\": \"a\", \"cycles\": [\"k\", \"2 * k\"], "
                  "\"params\": {\"k\": 5}}], \"platform\": {\"model\": \"abstract\", "
                  "\"dsps\": 2}}",
             &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_int_eq(g->tasks[0].cycles[0], 5);
    ck_assert_int_eq(g->tasks[0].cycles[1], 10);
    ir_graph_free(g);

    const char *at = "g.json: /tasks/0/cycles: error: ";
    char want[512];
    struct {
        const char *expr, *msg;
    } bad[] = {
        {"n * nn",
         "cycles expression, column 5: unknown name \"nn\" (did you mean \"n\"?)"},
        {"zzzz", "cycles expression, column 1: unknown name \"zzzz\" (the task's integer "
                 "params: n, m)"},
        {"2 * g",
         "cycles expression, column 5: parameter \"g\" is a real, not an integer"},
        {"(n + 1", "cycles expression, column 7: expected \")\", found the end of the "
                   "expression"},
        {"n m",
         "cycles expression, column 3: expected an operator or the end, found \"m\""},
        {"", "cycles expression, column 1: expected a number, a name or \"(\", found the "
             "end of the expression"},
        {"1.5",
         "cycles expression, column 2: a number must be an integer, found \".\" in "
         "it"},
        {"n / (m - 3)", "cycles expression, column 3: division by zero"},
        {"n % 0", "cycles expression, column 3: division by zero"},
        {"9223372036854775807 + n", "cycles expression, column 21: the value overflows "
                                    "64-bit integers"},
        {"99999999999999999999",
         "cycles expression, column 1: the number overflows 64-bit "
         "integers"},
        {"ceil(n)",
         "cycles expression, column 1: unknown function \"ceil\" (the functions: "
         "cdiv, min, max)"},
        {"cdiv(n)", "cycles expression, column 1: cdiv takes 2 arguments, got 1"},
        {"cdiv(n, 0)", "cycles expression, column 1: cdiv(a, b) needs b > 0, got 0"},
        {"min(n m)", "cycles expression, column 7: expected \",\" or \")\", found \"m\""},
        {"m - n", "cycles must be in 0 .. 1099511627776, the expression gives -7"},
        /* -INT64_MIN overflows: checked, not computed (undefined behaviour before) */
        {"-(-9223372036854775807 - 1)",
         "cycles expression, column 1: the value overflows 64-bit integers"},
        {"- - (-9223372036854775807 - 1)",
         "cycles expression, column 3: the value overflows 64-bit integers"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(want, sizeof want, "%s%s\n", at, bad[i].msg);
        cost_fails(bad[i].expr, want);
    }
    /* nesting is bounded, so a hostile file cannot overflow the stack */
    char deep[400];
    memset(deep, '(', 300);
    strcpy(deep + 300, "1");
    cost_fails(deep, "g.json: /tasks/0/cycles: error: cycles expression, column 65: the "
                     "expression nests deeper than 64\n");
}
END_TEST

/* A cycles expression naming every one of many params (one lookup per name: the map of
 * the task's params, built once, not a scan of them per name), names longer than the
 * lookup's stack buffer, the x- params left out, the first of a list of costs and the
 * last. */
TEST(cycles_expressions_many_params)
{
    enum { N = 40000 };
    size_t cap = (size_t)N * 40 + 4096;
    char *text = malloc(cap), *expr = malloc((size_t)N * 12 + 1024);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(expr);
    char longname[301];
    memset(longname, 'q', 300);
    longname[300] = 0;
    size_t n = (size_t)snprintf(text, cap,
                                HEAD "\"platform\": {\"model\": \"abstract\", "
                                     "\"dsps\": 2}, \"tasks\": [{\"id\": \"a\", "
                                     "\"params\": {\"x-note\": 5, \"%s\": 1000000",
                                longname);
    size_t e = (size_t)sprintf(expr, "%s", longname);
    for (int i = 0; i < N; i++) {
        n += (size_t)snprintf(text + n, cap - n, ", \"p%d\": %d", i, i % 7);
        e += (size_t)sprintf(expr + e, " + p%d", i);
    }
    snprintf(text + n, cap - n, "}, \"cycles\": [\"%s\", \"2 * p%d\"]}]}", expr, N - 1);
    int64_t sum = 1000000;
    for (int i = 0; i < N; i++)
        sum += i % 7;
    Options o = opts();
    Graph *g = load(text, &o);
    ck_assert_msg(g != NULL, "%s", text_buf);
    ck_assert_int_eq(g->tasks[0].nparams, N + 1);
    ck_assert_int_eq(g->tasks[0].cycles[0], sum);
    ck_assert_int_eq(g->tasks[0].cycles[1], 2 * ((N - 1) % 7));
    ir_graph_free(g);
    /* a name that is not a param (x-note is not one), the hint from the params */
    fails(
        HEAD "\"tasks\": [{\"id\": \"a\", \"params\": {\"x-note\": 5, \"rows\": 2}, "
             "\"cycles\": \"rows * x\"}]}",
        &o,
        "g.json: /tasks/0/cycles: error: cycles expression, column 8: unknown name \"x\" "
        "(the task's integer params: rows)\n");
    free(text);
    free(expr);
}
END_TEST
