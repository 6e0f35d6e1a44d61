/* tests/check_cli.c - the shared option parsing and output helpers of the driver
 * (tools/cli.c): option forms, usage errors, atomic output files. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "cli.h"

static const CliOption own[] = {
    {"seed", "N", "random seed"},
    {"O", "LEVEL", "optimization level"},
    {"verbose", NULL, "say more"},
    {NULL, NULL, NULL},
};
static const CliSpec spec = {
    "test",
    "FILE...",
    "A command for the tests.\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS | CLI_LIMITS | CLI_JSON,
    own,
    1,
    3,
};

static bool
parse(Cli *c, int *status, int argc, const char **argv)
{
    return cli_parse(c, &spec, argc, (char **)argv, status);
}

TEST_CASE("core", 0)

TEST(option_forms)
{
    const char *argv[] = {"test",      "--platform=bwdsp-2board",
                          "a.json",    "--dsps",
                          "8",         "-oout",
                          "--seed",    "7",
                          "-O2",       "--json",
                          "-",         "--max-tasks=5",
                          "--verbose", "--",
                          "--seed"};
    Cli c;
    int status = -1;
    ck_assert(parse(&c, &status, 15, argv));
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(c.opt.platform, "bwdsp-2board");
    ck_assert_int_eq(c.opt.dsps, 8);
    ck_assert_str_eq(c.output, "out");
    ck_assert(c.json);
    ck_assert_int_eq(c.opt.limits.max_tasks, 5);
    ck_assert_int_eq(c.opt.limits.max_edges, ir_default_limits().max_edges);
    ck_assert_str_eq(c.val[0], "7");
    ck_assert_str_eq(c.val[1], "2");
    ck_assert_str_eq(c.val[2], "");
    ck_assert_int_eq(c.nargs, 3);
    ck_assert_str_eq(c.args[0], "a.json");
    ck_assert_str_eq(c.args[1], "-");
    ck_assert_str_eq(c.args[2], "--seed");
    cli_free(&c);

    const char *argv2[] = {"test", "-o", "x", "--iterations", "9", "f"};
    ck_assert(parse(&c, &status, 6, argv2));
    ck_assert_str_eq(c.output, "x");
    ck_assert_int_eq(c.opt.iterations, 9);
    ck_assert_ptr_null(c.val[0]);
    ck_assert_ptr_null(c.opt.platform);
    cli_free(&c);

    /* getopt_long: unique prefixes of long options, values attached to short ones */
    const char *argv3[] = {"test", "--verb", "--se=3", "--max-t", "4", "-O", "3", "g"};
    ck_assert(parse(&c, &status, 8, argv3));
    ck_assert_str_eq(c.val[2], "");
    ck_assert_str_eq(c.val[0], "3");
    ck_assert_str_eq(c.val[1], "3");
    ck_assert_int_eq(c.opt.limits.max_tasks, 4);
    ck_assert_int_eq(c.nargs, 1);
    ck_assert_str_eq(c.args[0], "g");
    cli_free(&c);
}
END_TEST

TEST(usage_errors_give_status_2)
{
    const char *bad[][4] = {
        {"test", "--sed=1", "f", NULL},    /* unknown (did you mean --seed?) */
        {"test", "-x", "f", NULL},         /* unknown short option */
        {"test", "f", "--seed", NULL},     /* missing value */
        {"test", "--dsps=0", "f", NULL},   /* out of range */
        {"test", "--json=1", "f", NULL},   /* a flag with a value */
        {"test", "--verbose", NULL, NULL}, /* no operand */
        {"test", "--max=1", "f", NULL},    /* ambiguous: --max-tasks, --max-edges ... */
        {"test", "--help=1", "f", NULL},   /* a flag with a value */
        {"test", "-o", NULL, NULL},        /* missing value of a short option */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int argc = 0;
        while (argc < 4 && bad[i][argc])
            argc++;
        Cli c;
        int status = -1;
        ck_assert_msg(!parse(&c, &status, argc, bad[i]), "case %zu", i);
        ck_assert_int_eq(status, 2);
    }
    const char *many[] = {"test", "a", "b", "c", "d"};
    Cli c;
    int status = -1;
    ck_assert(!parse(&c, &status, 5, many));
    ck_assert_int_eq(status, 2);
    const char *plat[] = {"test", "--platform", "bwdsp-3board", "f"};
    ck_assert(!parse(&c, &status, 4, plat));
    ck_assert_int_eq(status, 1); /* a bad platform is bad input */
    int64_t v = 0;
    ck_assert(cli_int_value(&spec, "--seed", "123", 0, 1000, &v));
    ck_assert_int_eq(v, 123);
    ck_assert(!cli_int_value(&spec, "--seed", "12x", 0, 1000, &v));
    ck_assert(!cli_int_value(&spec, "--seed", "99999999999999999999", 0, INT64_MAX, &v));
    ck_assert(!cli_int_value(&spec, "--seed", "1001", 0, 1000, &v));
}
END_TEST

static int
count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

TEST(output_files_are_atomic)
{
    char dir[] = "/tmp/tgc_cli_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256], bad[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    ck_assert_int_eq(out_write_file(path, "first\n", 6), 0);
    ck_assert_int_eq(out_write_file(path, "second\n", 7), 0);
    FILE *f = fopen(path, "r");
    char buf[32] = {0};
    ck_assert_uint_eq(fread(buf, 1, sizeof buf - 1, f), 7);
    fclose(f);
    ck_assert_str_eq(buf, "second\n");
    ck_assert_int_eq(count_entries(dir), 1); /* no temporary file left */
    snprintf(bad, sizeof bad, "%s/no/such/folder/out.txt", dir);
    ck_assert_int_eq(out_write_file(bad, "x", 1), 1);
    ck_assert_int_eq(count_entries(dir), 1);
    unlink(path);
    rmdir(dir);
}
END_TEST
