/* tests/check_emit.c - the generated C (backend/emit_c.c, backend/sanitize.c):
 * identifiers from hostile task ids, escaped strings and comments, byte-identical
 * projects, refused inputs, explicit platforms. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "ir.h"

#ifndef TGC_TESTCASES
#define TGC_TESTCASES "testcases"
#endif

TEST_CASE("core", 0)

TEST(hostile_ids_become_unique_identifiers)
{
    static const char *const ids[] = {
        "a\"; system(\"x\"); //",
        "*/ int main(void) { /*",
        "int",
        "a b",
        "a_b",
        "a-b",
        "3d",
        "",
        "?\?/",
        "\xe5\x90\x8d",
        "line\nbreak",
        "a b",
        "a very long id that goes on and on and on and on and on and on",
        NULL};
    CgNames *n = cg_names_new();
    const char *got[32];
    int k = 0;
    for (; ids[k]; k++) {
        got[k] = cg_names_add(n, "t_", ids[k]);
        ck_assert_msg(cg_is_c_ident(got[k]), "\"%s\" is not an identifier", got[k]);
        for (int j = 0; j < k; j++)
            ck_assert_str_ne(got[j], got[k]);
    }
    ck_assert_str_eq(got[0], "t_a___system__x______");
    ck_assert_str_eq(got[3], "t_a_b");
    ck_assert_str_eq(got[4], "t_a_b_2");
    ck_assert_str_eq(got[5], "t_a_b_3");
    ck_assert_str_eq(got[11], "t_a_b_4");
    ck_assert_str_eq(got[7], "t_");
    /* without a prefix: keywords, leading digits and underscores, the empty id */
    CgNames *m = cg_names_new();
    ck_assert_str_eq(cg_names_add(m, "", "int"), "int_");
    ck_assert_str_eq(cg_names_add(m, "", "3d"), "x3d");
    ck_assert_str_eq(cg_names_add(m, "", "_Bool"), "x_Bool");
    ck_assert_str_eq(cg_names_add(m, "", ""), "x");
    ck_assert_str_eq(cg_names_add(m, "", "x"), "x_2");
    cg_names_reserve(m, "main_");
    ck_assert_str_eq(cg_names_add(m, "", "main"), "main__2");
    cg_names_free(m);
    cg_names_free(n);
}
END_TEST

TEST(strings_are_escaped)
{
    char *s = cg_c_string("a\"; system(\"x\"); //");
    ck_assert_str_eq(s, "\"a\\\"; system(\\\"x\\\"); //\"");
    free(s);
    s = cg_c_string("?\?/\n\\\x01\xe5");
    ck_assert_str_eq(s, "\"\\077\\077/\\n\\\\\\001\\345\"");
    free(s);
    s = cg_c_string("");
    ck_assert_str_eq(s, "\"\"");
    free(s);
}
END_TEST

TEST(comments_cannot_be_closed)
{
    static const char *const ids[] = {"*/",  "a*/b", "/*",    "**//**", "x/**/y",
                                      "*/*", "?\?/", "end\\", NULL};
    for (int k = 0; ids[k]; k++) {
        char *c = cg_c_comment(ids[k]);
        ck_assert_msg(!strstr(c, "*/") && !strstr(c, "/*") && !strstr(c, "??"),
                      "\"%s\" gives \"%s\"", ids[k], c);
        for (const char *p = c; *p; p++)
            ck_assert(*p >= 0x20 && *p < 0x7f);
        free(c);
    }
    char *c = cg_c_comment("a*/b");
    ck_assert_str_eq(c, "a\\052/b");
    free(c);
}
END_TEST

/* A graph of hostile ids, scheduled, optimised and emitted. */
static Graph *
load(const char *path, Options *opt, Diag *d)
{
    memset(opt, 0, sizeof *opt);
    opt->limits = ir_default_limits();
    opt->search_budget = -1;
    opt->method = OPT_BFCO;
    opt->seed = 1;
    opt->threads = 1;
    return fe_load_graph(path, opt, d);
}

static int
emit(Graph *g, const Options *opt, CgProject *p, Diag *d)
{
    Unit u = {.g = g, .p = g->platform, .opt = opt};
    ck_assert_int_eq(pass_schedule(&u, d), 0);
    ck_assert_int_eq(pass_optimize(&u, d), 0);
    ck_assert_int_eq(pass_verify(&u, d), 0);
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(eval_run(u.s, &(EvalOpts){1, 0}, &r, a), 0);
    int rc = cg_emit_c(u.s, &r, p, d);
    arena_free(a);
    ir_sched_free(u.s);
    return rc;
}

TEST(projects_are_byte_identical_and_safe)
{
    Diag *d = diag_new();
    Options opt;
    CgProject p1, p2;
    Graph *g1 = load(TGC_TESTCASES "/hostile/hostile.json", &opt, d);
    ck_assert_msg(g1 != NULL, "%s", diag_text(d));
    ck_assert_int_eq(emit(g1, &opt, &p1, d), 0);
    Graph *g2 = load(TGC_TESTCASES "/hostile/hostile.json", &opt, d);
    ck_assert_int_eq(emit(g2, &opt, &p2, d), 0);
    ck_assert_int_eq(p1.nfiles, p2.nfiles);
    ck_assert_int_gt(p1.nfiles, 10);
    for (int i = 0; i < p1.nfiles; i++) {
        ck_assert_str_eq(p1.files[i].name, p2.files[i].name);
        ck_assert_uint_eq(p1.files[i].len, p2.files[i].len);
        ck_assert(memcmp(p1.files[i].data, p2.files[i].data, p1.files[i].len) == 0);
        /* the raw id never reaches the code: its quotes are always escaped */
        ck_assert_msg(!strstr(p1.files[i].data, "system(\"x\")"), "raw id in %s",
                      p1.files[i].name);
        /* ids reach comments only, except the labels of tasks.c (string literals) */
        if (strcmp(p1.files[i].name, "tasks.c") != 0)
            ck_assert_msg(!strstr(p1.files[i].data, "*/ int main"), "raw id in %s",
                          p1.files[i].name);
        ck_assert(!strstr(p1.files[i].data, "??"));
    }
    cg_project_free(&p1);
    cg_project_free(&p2);
    ir_graph_free(g1);
    ir_graph_free(g2);
    diag_free(d);
}
END_TEST

/* The project's platform.json (the test fails without one). */
static const CgFile *
platform_json(const CgProject *p)
{
    for (int i = 0; i < p->nfiles; i++)
        if (strcmp(p->files[i].name, "platform.json") == 0)
            return &p->files[i];
    ck_abort_msg("the project has no platform.json");
    return NULL;
}

TEST(abstract_platforms_are_written_explicitly)
{
    Diag *d = diag_new();
    Options opt;
    Graph *g = load(TGC_TESTCASES "/topcuoglu/topcuoglu.json", &opt, d);
    ck_assert_ptr_nonnull(g);
    CgProject p;
    ck_assert_int_eq(emit(g, &opt, &p, d), 0);
    const CgFile *plat = platform_json(&p);
    ck_assert_ptr_nonnull(strstr(plat->data, "\"model\": \"abstract\""));
    ck_assert_ptr_nonnull(strstr(plat->data, "\"dsps\": 3"));
    ck_assert_ptr_nonnull(strstr(plat->data, "\"eager_limit\": 1000000000"));
    ck_assert_ptr_null(strstr(plat->data, "boards"));
    cg_project_free(&p);
    ir_graph_free(g);
    diag_free(d);
}
END_TEST

/* The generated platform.json is JSON whatever the platform's name ('?', non-ASCII,
 * quotes, backslashes), and reads back as the same platform. */
TEST(platform_json_is_json_for_any_name)
{
    static const char text[] =
        "{\"format\": \"tgc-graph/1\", \"platform\": {\"name\": "
        "\"p?\\u00e9\\\"q\\\\r\\n\","
        " \"boards\": 2, \"send_overhead\": 7, \"links\": [[0, 1]]},"
        " \"tasks\": [{\"id\": \"a\", \"cycles\": 10}, {\"id\": \"b\", \"cycles\": 10, "
        "\"dsp\": 5}], \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"bytes\": 8}]}";
    Diag *d = diag_new();
    Options opt;
    memset(&opt, 0, sizeof opt);
    opt.limits = ir_default_limits();
    opt.search_budget = -1;
    opt.method = OPT_NONE;
    Graph *g = fe_load_graph_string(text, "g.json", &opt, d);
    ck_assert_msg(g != NULL, "%s", diag_text(d));
    CgProject p;
    ck_assert_int_eq(emit(g, &opt, &p, d), 0);
    const CgFile *plat = platform_json(&p);
    char path[] = "/tmp/tgc-platform-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, plat->data, plat->len), (ssize_t)plat->len);
    close(fd);
    Arena *a = arena_new();
    Platform *back = fe_load_platform(a, path, NULL, d);
    unlink(path);
    ck_assert_msg(back != NULL, "%s\n%s", diag_text(d), plat->data);
    ck_assert_str_eq(back->name, "p?\xc3\xa9\"q\\r\n");
    ck_assert_int_eq(back->ndsps, 8);
    ck_assert_int_eq(back->nlinks, 1);
#define X(field, lo, hi) ck_assert_int_eq(back->field, g->platform->field);
    PLATFORM_PARAMS(X)
#undef X
    arena_free(a);
    cg_project_free(&p);
    ir_graph_free(g);
    diag_free(d);
}
END_TEST

/* A chain of n tasks (edges to the next two), task t on DSP t % 4 of bwdsp-1board, one
 * message per edge across DSPs; *g receives the graph. */
static Sched *
spread_chain(int n, Graph **gout)
{
    Graph *g = ir_graph_new();
    Arena *a = g->arena;
    g->file = "chain";
    g->name = "chain";
    g->ntasks = n;
    g->tasks = arena_array(a, (size_t)n, sizeof *g->tasks);
    g->edges = arena_array(a, 2 * (size_t)n, sizeof *g->edges);
    for (int t = 0; t < n; t++) {
        int64_t *c = arena_alloc(a, sizeof *c);
        *c = 1000;
        /* ids sharing their first 40 bytes: the sanitiser truncates them to one name */
        g->tasks[t] = (Task){.id = arena_printf(a, "%040d/%d", 0, t),
                             .cycles = c,
                             .ncycles = 1,
                             .dsp = -1};
        for (int k = 1; k <= 2 && t + k < n; k++)
            g->edges[g->nedges++] =
                (Edge){.from = t, .to = t + k, .bytes = 64, .delay = 0};
    }
    ck_assert_int_eq(ir_graph_index(g), 0);
    g->platform = plat_preset(a, "bwdsp-1board");
    Sched *s = ir_sched_new(g, g->platform);
    for (int t = 0; t < n; t++) {
        s->map[t] = t % 4;
        ir_sched_push_op(s, t % 4, OP_COMPUTE, t);
    }
    comm_insert(s);
    *gout = g;
    return s;
}

/* CPU seconds of cg_emit_c on the spread chain of n tasks, the least of three runs. */
static double
emit_seconds(int n, int *nmsgs)
{
    Graph *g;
    Sched *s = spread_chain(n, &g);
    *nmsgs = s->nmsgs;
    Arena *a = arena_new();
    EvalResult r;
    ck_assert_int_eq(eval_run(s, &(EvalOpts){1, 0}, &r, a), 0);
    double best = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        Diag *d = diag_new();
        CgProject p;
        double t0 = ir_cpu_seconds();
        ck_assert_int_eq(cg_emit_c(s, &r, &p, d), 0);
        double sec = ir_cpu_seconds() - t0;
        if (sec < best)
            best = sec;
        cg_project_free(&p);
        diag_free(d);
    }
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
    return best;
}

TEST_CASE("scale", 120)

/* Emission is linear in the size of the schedule: ten times the tasks, edges and
 * messages cost about ten times the CPU time (quadratic emission costs a hundred times).
 * The bound, 30, leaves room for cache effects; the sizes keep the test under a second.
 */
TEST(emission_is_linear)
{
    int m1, m2;
    double small = emit_seconds(2500, &m1), large = emit_seconds(25000, &m2);
    ck_assert_int_gt(m2, 30000);
    double ratio = large / (small > 1e-4 ? small : 1e-4);
    printf(
        "emission of 2500 tasks %.4f s, 25000 tasks %.4f s (%d messages): ratio %.1f\n",
        small, large, m2, ratio);
    ck_assert_msg(ratio < 30, "emission of 10x the tasks took %.1fx the CPU time", ratio);
}
END_TEST

TEST_CASE("core", 0)

/* Ids that sanitise to one name all get names of their own, in input order. */
TEST(many_ids_with_one_sanitised_form_stay_unique)
{
    CgNames *n = cg_names_new();
    char id[64];
    const char *first = cg_names_add(n, "t_", "a-b");
    ck_assert_str_eq(first, "t_a_b");
    for (int i = 2; i <= 50000; i++) {
        snprintf(id, sizeof id, "a%cb", i % 2 ? '+' : '*');
        const char *got = cg_names_add(n, "t_", id);
        char want[64];
        snprintf(want, sizeof want, "t_a_b_%d", i);
        ck_assert_str_eq(got, want);
    }
    cg_names_reserve(n, "t_x_2");
    ck_assert_str_eq(cg_names_add(n, "t_", "x"), "t_x");
    ck_assert_str_eq(cg_names_add(n, "t_", "x"), "t_x_3");
    ck_assert(cg_names_has(n, "t_a_b_50000"));
    ck_assert(!cg_names_has(n, "t_a_b_50001"));
    cg_names_free(n);
}
END_TEST
