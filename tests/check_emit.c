/* tests/check_emit.c - the generated C (backend/emit_c.c, backend/sanitize.c):
 * identifiers from hostile task ids, escaped strings and comments, byte-identical
 * projects, refused inputs, explicit platforms. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

#ifndef TGC_TESTCASES
#define TGC_TESTCASES "testcases"
#endif

START_TEST(hostile_ids_become_unique_identifiers)
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

START_TEST(strings_are_escaped)
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

START_TEST(comments_cannot_be_closed)
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
    Unit u = {g, g->platform, NULL, opt};
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

START_TEST(projects_are_byte_identical_and_safe)
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

START_TEST(abstract_platforms_are_written_explicitly)
{
    Diag *d = diag_new();
    Options opt;
    Graph *g = load(TGC_TESTCASES "/topcuoglu/topcuoglu.json", &opt, d);
    ck_assert_ptr_nonnull(g);
    CgProject p;
    ck_assert_int_eq(emit(g, &opt, &p, d), 0);
    const CgFile *plat = NULL;
    for (int i = 0; i < p.nfiles; i++)
        if (strcmp(p.files[i].name, "platform.json") == 0)
            plat = &p.files[i];
    ck_assert_ptr_nonnull(plat);
    ck_assert_ptr_nonnull(strstr(plat->data, "\"model\": \"abstract\""));
    ck_assert_ptr_nonnull(strstr(plat->data, "\"dsps\": 3"));
    ck_assert_ptr_nonnull(strstr(plat->data, "\"eager_limit\": 1000000000"));
    ck_assert_ptr_null(strstr(plat->data, "boards"));
    cg_project_free(&p);
    ir_graph_free(g);
    diag_free(d);
}
END_TEST

static Suite *
suite(void)
{
    Suite *s = suite_create("emit");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, hostile_ids_become_unique_identifiers);
    tcase_add_test(tc, strings_are_escaped);
    tcase_add_test(tc, comments_cannot_be_closed);
    tcase_add_test(tc, projects_are_byte_identical_and_safe);
    tcase_add_test(tc, abstract_platforms_are_written_explicitly);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
