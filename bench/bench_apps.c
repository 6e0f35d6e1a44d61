/*
 * bench/bench_apps.c - the applications of testcases/apps through tgc: the application
 * table of docs/results.md, and (--test) the test suite's run of every application.
 *
 *   bench_apps [--only NAMES] [--full] [--csv FILE] [--markdown | --json] [--keep DIR]
 *   bench_apps --test [--only NAMES] [--full] [--modes none,ma,cp,bfco] [--keep DIR]
 *
 * For each application (a graph of testcases/apps, or one made by its make_graph.sh):
 *   table (default): `tgc opt --method all` (the predicted length of each method, es
 * where it is within its limit, the improvement over none), the CPU time of BFCO (of `tgc
 *     opt --method bfco --threads 1` less that of `--method none`), and for none, ma, cp
 *     and bfco `tgc run` with contention (simulated and predicted cycles) and without
 *     (simulated must equal predicted, and the application's output check must pass);
 *   --test: `tgc run --no-contention` in every mode of --modes: checksums and output
 * files equal to the sequential program's, simulated = predicted cycles and packets, then
 * the application's output check (testcases/apps/NAME/check.c) on the parallel program's
 *     files.
 * NAMES is a comma-separated list of application names or prefixes (conv1d = every 1-D
 * convolution); --full adds the sizes left out by default.  The tables go to stdout, as
 * text or (--markdown) as the Markdown of docs/results.md; --csv writes one row per
 * application and method, --json prints one object instead of the tables.  Exit status 0
 * when everything ran and passed, 1 otherwise, 2 for bad usage.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "bench_util.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TGC_BIN
#define TGC_BIN "tgc"
#endif
#ifndef TGC_APPS_DIR
#define TGC_APPS_DIR "testcases/apps"
#endif
#ifndef TGC_CHECKERS_DIR
#define TGC_CHECKERS_DIR "."
#endif

/* An application: its folder under testcases/apps (which also names its output check
 * app_check_DIR), and either a graph file there or the arguments of its make_graph.sh. */
typedef struct App {
    const char *name, *dir, *graph, *gen;
    bool full_only; /* only with --full */
    bool test_only; /* not a row of the table */
} App;

static const App apps[] = {
    {"jpeg", "jpeg", "jpeg.json", NULL, false, false},
    {"jpeg-48x32", "jpeg", NULL, "48 32 2 75", false, true},
    {"jpeg-sdf", "jpeg", "jpeg-sdf.json", NULL, false, true},   /* multi-rate */
    {"jpeg-hier", "jpeg", "jpeg-hier.json", NULL, false, true}, /* with a subgraph */
    {"nlms", "nlms", "nlms.json", NULL, false, false},
    {"conv1d-rr-256", "conv1d", "rr-256.json", NULL, false, false},
    {"conv1d-mp-256", "conv1d", "mp-256.json", NULL, false, false},
    {"conv1d-rr-512", "conv1d", "rr-512.json", NULL, true, false},
    {"conv1d-mp-512", "conv1d", "mp-512.json", NULL, true, false},
    {"conv1d-rr-1024", "conv1d", "rr-1024.json", NULL, false, false},
    {"conv1d-mp-1024", "conv1d", "mp-1024.json", NULL, false, false},
    {"conv1d-rr-2048", "conv1d", "rr-2048.json", NULL, true, false},
    {"conv1d-mp-2048", "conv1d", "mp-2048.json", NULL, true, false},
    {"conv1d-rr-4096", "conv1d", "rr-4096.json", NULL, true, false},
    {"conv1d-mp-4096", "conv1d", "mp-4096.json", NULL, true, false},
    {"conv1d-rr-8192", "conv1d", "rr-8192.json", NULL, false, false},
    {"conv1d-mp-8192", "conv1d", "mp-8192.json", NULL, false, false},
    {"conv2d", "conv2d", "conv2d.json", NULL, false, false},
    {"matmul-slice", "matmul", "slice.json", NULL, false, false},
    {"matmul-fox", "matmul", "fox.json", NULL, false, false},
    {"matmul-slice-sdf", "matmul", "slice-sdf.json", NULL, false, true}, /* multi-rate */
    {"butterfly", "butterfly", "butterfly.json", NULL, false, false},
};
enum { NAPPS = sizeof apps / sizeof apps[0] };

static const char *const methods[] = {"none", "ma", "cp", "bfco", "es"};
enum { NMETHODS = 5, NRUN = 4 }; /* tgc run takes the first NRUN */

/* What one application gave. */
typedef struct Row {
    const App *app;
    char graph[PATH_MAX];
    long long dsps, iterations, tasks, edges, sequential;
    bool have[NMETHODS];
    long long opt_len[NMETHODS];
    double opt_improve[NMETHODS], opt_seconds[NMETHODS];
    char opt_error[NMETHODS][160];
    double bfco_cpu; /* seconds */
    long long sim[NRUN], pred[NRUN], sim_nc[NRUN], pred_nc[NRUN];
    bool checked[NRUN];
} Row;

static const char *tgc = TGC_BIN, *apps_dir = TGC_APPS_DIR, *checkers = TGC_CHECKERS_DIR;
static char work[PATH_MAX];
static int failures;
static FILE *msg; /* progress and failures: stdout, or stderr with --json, --markdown */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL ", msg);
    vfprintf(msg, fmt, ap);
    fputc('\n', msg);
    va_end(ap);
    failures++;
}

/* ---- running programs ---- */

/* Runs argv with stdout to `out` and stderr to `err` (NULL: /dev/null); returns its exit
 * status (-1 when it did not start or was killed) and adds its CPU seconds to *cpu. */
static int
run(char *const *argv, const char *out, const char *err, double *cpu)
{
    struct rusage r0, r1;
    getrusage(RUSAGE_CHILDREN, &r0);
    int st = bench_spawn(argv, out, err);
    int rc = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    getrusage(RUSAGE_CHILDREN, &r1);
    if (cpu)
        *cpu += (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec -
                         r0.ru_stime.tv_sec) +
                1e-6 * (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec +
                                r1.ru_stime.tv_usec - r0.ru_stime.tv_usec);
    return rc;
}

/* The first line of a file (for messages), in a static buffer. */
static const char *
first_line(const char *path)
{
    static char line[512];
    line[0] = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = 0;
        fclose(f);
    }
    line[strcspn(line, "\n")] = 0;
    return line;
}

/* Runs a tgc command that prints JSON; returns the object or NULL after reporting. */
static json_t *
tgc_json(char *const *argv, const char *what, int *status)
{
    char out[PATH_MAX + 16], err[PATH_MAX + 16];
    snprintf(out, sizeof out, "%s/out.json", work);
    snprintf(err, sizeof err, "%s/err.txt", work);
    int rc = run(argv, out, err, NULL);
    if (status)
        *status = rc;
    json_error_t je;
    json_t *o = json_load_file(out, 0, &je);
    if (!o)
        fail("%s: no JSON result (exit status %d): %s", what, rc, first_line(err));
    return o;
}

static long long
get_int(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

/* Runs the application's output check on a program's output folder; prints its lines. */
static bool
check_outputs(const App *a, const char *graph, const char *outdir, const char *what)
{
    char exe[PATH_MAX + 32], out[PATH_MAX + 16];
    snprintf(exe, sizeof exe, "%s/app_check_%s", checkers, a->dir);
    snprintf(out, sizeof out, "%s/check.txt", work);
    char *argv[] = {exe, (char *)graph, (char *)outdir, NULL};
    int rc = run(argv, out, out, NULL);
    FILE *f = fopen(out, "r");
    char line[1024];
    bool said = false;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "  ", 2) == 0) { /* the findings, not the verdict */
            fprintf(msg, "     %s", line + 2);
            said = true;
        }
    if (f)
        fclose(f);
    if (rc != 0)
        fail("%s: the output check failed (exit status %d%s)", what, rc,
             said ? "" : "; could it run? build it with the project");
    return rc == 0;
}

/* ---- the graph of an application ---- */

static bool
graph_of(const App *a, char *path, size_t n)
{
    char dir[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s/%s", apps_dir, a->dir);
    if (a->graph) {
        if (snprintf(path, n, "%s/%s", dir, a->graph) >= (int)n ||
            access(path, R_OK) != 0) {
            fail("%s: cannot read %s/%s", a->name, dir, a->graph);
            return false;
        }
        return true;
    }
    char abs[PATH_MAX], script[PATH_MAX + 80], err[PATH_MAX + 16];
    if (!realpath(dir, abs)) {
        fail("%s: no folder %s", a->name, dir);
        return false;
    }
    snprintf(script, sizeof script, "%s/make_graph.sh", abs);
    if (snprintf(path, n, "%s/%s.json", work, a->name) >= (int)n) {
        fail("%s: the path of the graph is too long", a->name);
        return false;
    }
    snprintf(err, sizeof err, "%s/err.txt", work);
    char args[256];
    snprintf(args, sizeof args, "%s", a->gen);
    char *argv[16] = {"sh", script};
    int k = 2;
    for (char *s = strtok(args, " "); s && k < 14; s = strtok(NULL, " "))
        argv[k++] = s;
    argv[k++] = abs;
    argv[k] = NULL;
    if (run(argv, path, err, NULL) != 0) {
        fail("%s: make_graph.sh %s failed: %s", a->name, a->gen, first_line(err));
        return false;
    }
    return true;
}

/* ---- tgc run ---- */

/* tgc run GRAPH -O MODE [--no-contention] [--keep DIR]; checks what it reports.  With
 * --no-contention: simulated = predicted cycles and packets. */
/* The period against its bound (never below it) and the simulated period against the
 * predicted one (equal where both exist), exactly: docs/throughput.md.  NULL when they
 * hold. */
static const char *
period_problem(const json_t *o)
{
    const json_t *p = json_object_get(o, "period_exact"),
                 *b = json_object_get(o, "period_bound_exact"),
                 *m = json_object_get(o, "simulated_period_exact");
    if (!json_is_object(b))
        return "no period bound";
    if (!json_is_object(p))
        return NULL; /* the schedule never repeats: nothing to compare */
    long long pc = get_int(p, "cycles"), pi = get_int(p, "iterations");
    long long bc = get_int(b, "cycles"), bi = get_int(b, "iterations");
    __extension__ typedef __int128 wide;
    if ((wide)pc * bi < (wide)bc * pi)
        return "the period is below its bound";
    if (json_is_object(m) &&
        (wide)get_int(m, "cycles") * pi != (wide)pc * get_int(m, "iterations"))
        return "the simulated period differs from the predicted one";
    return NULL;
}

/* "15640", "21/2" or "none" (static storage, two at a time). */
static const char *
period_text(const json_t *x)
{
    static char buf[2][48];
    static int k;
    char *b = buf[k++ & 1];
    if (!json_is_object(x))
        return "none";
    long long c = get_int(x, "cycles"), i = get_int(x, "iterations");
    if (i == 1)
        snprintf(b, 48, "%lld", c);
    else
        snprintf(b, 48, "%lld/%lld", c, i);
    return b;
}

static json_t *
tgc_run(const App *a, const char *graph, const char *mode, bool contention,
        const char *keep)
{
    char what[160];
    snprintf(what, sizeof what, "%s -O %s%s", a->name, mode,
             contention ? "" : " --no-contention");
    /* a generated graph lives in the work folder: its kernels are in the app's */
    char kdir[PATH_MAX + 64];
    snprintf(kdir, sizeof kdir, "%s/%s", apps_dir, a->dir);
    char *argv[16] = {(char *)tgc,  "run",    (char *)graph,   "-O",
                      (char *)mode, "--json", "--kernel-path", kdir};
    int k = 8;
    if (!contention)
        argv[k++] = "--no-contention";
    if (keep) {
        argv[k++] = "--keep";
        argv[k++] = (char *)keep;
    }
    argv[k] = NULL;
    int rc;
    json_t *o = tgc_json(argv, what, &rc);
    if (!o)
        return NULL;
    long long sim = get_int(o, "simulated_cycles"), pred = get_int(o, "predicted_cycles");
    const char *why = NULL;
    if (!json_is_true(json_object_get(o, "checksums_equal")))
        why = "checksums differ from the sequential program's";
    else if (!json_is_true(json_object_get(o, "outputs_equal")))
        why = "output files differ from the sequential program's";
    else if (rc != 0 || sim <= 0)
        why = "tgc run failed";
    else if (!contention && sim != pred)
        why = "simulated cycles != predicted cycles";
    else if (!contention && get_int(o, "packets") != get_int(o, "predicted_packets"))
        why = "packets != predicted packets";
    else
        why = period_problem(o);
    if (why) {
        fail("%s: %s (exit status %d, simulated %lld, predicted %lld)", what, why, rc,
             sim, pred);
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ---- one application ---- */

static void
test_app(const App *a, const char *graph, char *const *modes, int nmodes)
{
    for (int m = 0; m < nmodes; m++) {
        char keep[PATH_MAX + 64], outdir[PATH_MAX + 80], what[128];
        snprintf(keep, sizeof keep, "%s/%s-%s", work, a->name, modes[m]);
        snprintf(outdir, sizeof outdir, "%s/out-parallel", keep);
        snprintf(what, sizeof what, "%s -O %s", a->name, modes[m]);
        int before = failures;
        json_t *o = tgc_run(a, graph, modes[m], false, keep);
        if (!o)
            continue;
        fprintf(msg,
                "run  %s: %lld cycles (simulated = predicted), %lld messages, %lld "
                "aggregated, %lld pipelined, period %s (bound %s)\n",
                what, get_int(o, "simulated_cycles"), get_int(o, "messages"),
                get_int(o, "aggregated"), get_int(o, "pipelined"),
                period_text(json_object_get(o, "period_exact")),
                period_text(json_object_get(o, "period_bound_exact")));
        json_decref(o);
        check_outputs(a, graph, outdir, what);
        fprintf(msg, "%s %s\n", failures == before ? "ok  " : "FAIL", what);
    }
}

static void
table_app(const App *a, Row *r)
{
    /* tgc opt --method all */
    char *opt_all[] = {(char *)tgc, "opt", r->graph, "--method", "all", "--json", NULL};
    char what[160];
    snprintf(what, sizeof what, "%s: tgc opt --method all", a->name);
    json_t *o = tgc_json(opt_all, what, NULL);
    if (o) {
        r->dsps = get_int(o, "dsps");
        r->iterations = get_int(o, "iterations");
        json_t *ms = json_object_get(o, "methods");
        for (int m = 0; m < NMETHODS; m++) {
            json_t *e = json_object_get(ms, methods[m]);
            if (!e) {
                fail("%s: no result for %s", what, methods[m]);
                continue;
            }
            const char *err = json_is_true(json_object_get(e, "refused"))
                                  ? json_string_value(json_object_get(e, "reason"))
                                  : NULL;
            if (err) {
                snprintf(r->opt_error[m], sizeof r->opt_error[m], "%s", err);
                continue;
            }
            r->have[m] = true;
            r->opt_len[m] = get_int(e, "schedule_length");
            r->opt_improve[m] =
                json_real_value(json_object_get(e, "improvement_percent"));
            r->opt_seconds[m] = json_real_value(json_object_get(e, "seconds"));
        }
        json_decref(o);
    }
    /* BFCO's CPU time: one thread, less the loading and scheduling of --method none */
    double cpu_bfco = 0, cpu_none = 0;
    char *opt_b[] = {(char *)tgc, "opt",       r->graph, "--method",
                     "bfco",      "--threads", "1",      NULL};
    char *opt_n[] = {(char *)tgc, "opt", r->graph, "--method", "none", NULL};
    if (run(opt_b, NULL, NULL, &cpu_bfco) != 0 || run(opt_n, NULL, NULL, &cpu_none) != 0)
        fail("%s: tgc opt failed", a->name);
    r->bfco_cpu = cpu_bfco > cpu_none ? cpu_bfco - cpu_none : 0;
    /* tgc run in each mode, with and without contention */
    for (int m = 0; m < NRUN; m++) {
        json_t *c = tgc_run(a, r->graph, methods[m], true, NULL);
        if (c) {
            r->sim[m] = get_int(c, "simulated_cycles");
            r->pred[m] = get_int(c, "predicted_cycles");
            r->sequential = get_int(c, "sequential_cycles");
            r->tasks = get_int(c, "tasks");
            r->edges = get_int(c, "edges");
            json_decref(c);
        }
        char keep[PATH_MAX + 64], outdir[PATH_MAX + 80];
        snprintf(keep, sizeof keep, "%s/%s-%s", work, a->name, methods[m]);
        snprintf(outdir, sizeof outdir, "%s/out-parallel", keep);
        json_t *n = tgc_run(a, r->graph, methods[m], false, keep);
        if (n) {
            r->sim_nc[m] = get_int(n, "simulated_cycles");
            r->pred_nc[m] = get_int(n, "predicted_cycles");
            json_decref(n);
            snprintf(what, sizeof what, "%s -O %s", a->name, methods[m]);
            r->checked[m] = check_outputs(a, r->graph, outdir, what);
        }
    }
}

/* ---- the tables ---- */

static double
improve(long long base, long long x)
{
    return base > 0 ? 100.0 * (double)(base - x) / (double)base : 0;
}

/* One row of a table: fixed-width columns (the first left-aligned), or Markdown. */
enum { MAXCOLS = 12 };
typedef char Cell[48];

static void
emit(bool md, int ncols, const int *width, Cell *cell)
{
    for (int c = 0; c < ncols; c++) {
        if (md)
            printf("| %s ", cell[c]);
        else
            printf(c == 0 ? "%-*s" : " %*s", width[c], cell[c]);
    }
    printf(md ? "|\n" : "\n");
}

static void
emit_head(bool md, int ncols, const int *width, const char *const *head)
{
    Cell cell[MAXCOLS];
    for (int c = 0; c < ncols; c++)
        snprintf(cell[c], sizeof cell[c], "%s", head[c]);
    emit(md, ncols, width, cell);
    if (md) {
        for (int c = 0; c < ncols; c++)
            printf(c == 0 ? "|---" : "|---:");
        printf("|\n");
    }
}

static void
print_tables(const Row *rows, int n, bool md)
{
    printf("\ntgc opt --method all: predicted cycles (the evaluator), improvement of "
           "bfco and "
           "es over none, BFCO's CPU seconds\n\n");
    static const char *const h1[] = {"application", "DSPs",   "iters", "tasks",
                                     "none",        "ma",     "cp",    "bfco",
                                     "es",          "bfco %", "es %",  "bfco s"};
    static const int w1[] = {15, 4, 5, 5, 10, 10, 10, 10, 10, 7, 7, 7};
    emit_head(md, 12, w1, h1);
    for (int i = 0; i < n; i++) {
        const Row *r = &rows[i];
        Cell c[MAXCOLS];
        snprintf(c[0], sizeof c[0], "%s", r->app->name);
        snprintf(c[1], sizeof c[1], "%lld", r->dsps);
        snprintf(c[2], sizeof c[2], "%lld", r->iterations);
        snprintf(c[3], sizeof c[3], "%lld", r->tasks);
        for (int m = 0; m < NMETHODS; m++)
            snprintf(c[4 + m], sizeof c[4 + m], r->have[m] ? "%lld" : "-", r->opt_len[m]);
        snprintf(c[9], sizeof c[9], r->have[3] ? "%.1f" : "-", r->opt_improve[3]);
        snprintf(c[10], sizeof c[10], r->have[4] ? "%.1f" : "-", r->opt_improve[4]);
        snprintf(c[11], sizeof c[11], "%.3f", r->bfco_cpu);
        emit(md, 12, w1, c);
    }
    printf(
        "\ntgc run: simulated cycles with contention, the predicted cycles of bfco, the "
        "improvement of bfco over none (simulated), the sequential program on one "
        "DSP\n\n");
    static const char *const h2[] = {"application", "none",       "ma",
                                     "cp",          "bfco",       "bfco pred.",
                                     "bfco %",      "sequential", "speed-up"};
    static const int w2[] = {15, 10, 10, 10, 10, 10, 7, 10, 8};
    emit_head(md, 9, w2, h2);
    for (int i = 0; i < n; i++) {
        const Row *r = &rows[i];
        Cell c[MAXCOLS];
        snprintf(c[0], sizeof c[0], "%s", r->app->name);
        for (int m = 0; m < NRUN; m++)
            snprintf(c[1 + m], sizeof c[1 + m], "%lld", r->sim[m]);
        snprintf(c[5], sizeof c[5], "%lld", r->pred[3]);
        snprintf(c[6], sizeof c[6], "%.1f", improve(r->sim[0], r->sim[3]));
        snprintf(c[7], sizeof c[7], "%lld", r->sequential);
        snprintf(c[8], sizeof c[8], "%.2f",
                 r->sim[3] > 0 ? (double)r->sequential / (double)r->sim[3] : 0);
        emit(md, 9, w2, c);
    }
    int nc_equal = 0, c_equal = 0, checked = 0;
    for (int i = 0; i < n; i++)
        for (int m = 0; m < NRUN; m++) {
            nc_equal += rows[i].sim_nc[m] > 0 && rows[i].sim_nc[m] == rows[i].pred_nc[m];
            c_equal += rows[i].sim[m] > 0 && rows[i].sim[m] == rows[i].pred[m];
            checked += rows[i].checked[m];
        }
    printf("\nsimulated = predicted: %d of %d runs with contention, %d of %d without; "
           "output "
           "checks passed in %d of %d\n",
           c_equal, n * NRUN, nc_equal, n * NRUN, checked, n * NRUN);
}

static bool
write_csv(const char *path, const Row *rows, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fail("cannot write %s: %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "application,method,dsps,iterations,tasks,edges,opt_cycles,"
               "opt_improvement_percent,opt_seconds,opt_error,bfco_cpu_seconds,"
               "run_simulated,run_predicted,run_simulated_no_contention,"
               "run_predicted_no_contention,output_checked,sequential_cycles\n");
    for (int i = 0; i < n; i++) {
        const Row *r = &rows[i];
        for (int m = 0; m < NMETHODS; m++) {
            fprintf(f, "%s,%s,%lld,%lld,%lld,%lld,", r->app->name, methods[m], r->dsps,
                    r->iterations, r->tasks, r->edges);
            if (r->have[m])
                fprintf(f, "%lld,%.4f,%.6f,,", r->opt_len[m], r->opt_improve[m],
                        r->opt_seconds[m]);
            else
                fprintf(f, ",,,\"%s\",", r->opt_error[m]);
            fprintf(f, m == 3 ? "%.6f," : ",", r->bfco_cpu);
            if (m < NRUN)
                fprintf(f, "%lld,%lld,%lld,%lld,%s,", r->sim[m], r->pred[m], r->sim_nc[m],
                        r->pred_nc[m], r->checked[m] ? "true" : "false");
            else
                fprintf(f, ",,,,,");
            fprintf(f, "%lld\n", r->sequential);
        }
    }
    return fclose(f) == 0;
}

/* The flat rows of --json, one object per line of a table, for `bench json-rows` (the
 * suites bfco-apps and conv1d of bench/suites): section "apps", one per application, and
 * section "conv1d", one per length that has both models. */
static json_t *
flat_rows(const Row *rows, int n)
{
    json_t *out = json_array();
    for (int i = 0; i < n; i++) {
        const Row *r = &rows[i];
        json_t *o = json_object();
        json_object_set_new(o, "section", json_string("apps"));
        json_object_set_new(o, "name", json_string(r->app->name));
        json_object_set_new(o, "dsps", json_integer(r->dsps));
        json_object_set_new(o, "iterations", json_integer(r->iterations));
        json_object_set_new(o, "tasks", json_integer(r->tasks));
        for (int m = 0; m < NMETHODS; m++) {
            char key[32];
            snprintf(key, sizeof key, "opt_%s", methods[m]);
            json_object_set_new(o, key,
                                r->have[m] ? json_integer(r->opt_len[m]) : json_null());
        }
        json_object_set_new(o, "bfco_improvement",
                            r->have[3] ? json_real(r->opt_improve[3]) : json_null());
        json_object_set_new(o, "es_improvement",
                            r->have[4] ? json_real(r->opt_improve[4]) : json_null());
        json_object_set_new(o, "bfco_cpu_seconds", json_real(r->bfco_cpu));
        bool equal = true;
        for (int m = 0; m < NRUN; m++) {
            char key[32];
            snprintf(key, sizeof key, "sim_%s", methods[m]);
            json_object_set_new(o, key, json_integer(r->sim[m]));
            snprintf(key, sizeof key, "pred_%s", methods[m]);
            json_object_set_new(o, key, json_integer(r->pred[m]));
            equal = equal && r->sim_nc[m] > 0 && r->sim_nc[m] == r->pred_nc[m] &&
                    r->checked[m];
        }
        json_object_set_new(o, "sim_improvement",
                            json_real(improve(r->sim[0], r->sim[3])));
        json_object_set_new(o, "sequential", json_integer(r->sequential));
        json_object_set_new(
            o, "speedup",
            json_real(r->sim[3] > 0 ? (double)r->sequential / (double)r->sim[3] : 0));
        json_object_set_new(o, "checked", json_boolean(equal));
        bool same = true;
        for (int m = 0; m < NRUN; m++)
            same = same && r->sim[m] == r->pred[m];
        json_object_set_new(o, "contention_predicted", json_boolean(same));
        json_array_append_new(out, o);
    }
    for (int i = 0; i < n; i++) { /* conv1d-rr-N with its conv1d-mp-N */
        const char *name = rows[i].app->name;
        if (strncmp(name, "conv1d-rr-", 10) != 0)
            continue;
        for (int j = 0; j < n; j++) {
            const char *other = rows[j].app->name;
            if (strncmp(other, "conv1d-mp-", 10) != 0 ||
                strcmp(other + 10, name + 10) != 0)
                continue;
            const Row *rr = &rows[i], *mp = &rows[j];
            json_t *o = json_object();
            json_object_set_new(o, "section", json_string("conv1d"));
            json_object_set_new(o, "length", json_integer(atoll(name + 10)));
            json_object_set_new(o, "rr_none", json_integer(rr->sim[0]));
            json_object_set_new(o, "rr_bfco", json_integer(rr->sim[3]));
            json_object_set_new(o, "mp_none", json_integer(mp->sim[0]));
            json_object_set_new(o, "mp_bfco", json_integer(mp->sim[3]));
            json_object_set_new(
                o, "rr_over_mp",
                json_real(mp->sim[3] > 0 ? (double)rr->sim[3] / (double)mp->sim[3] : 0));
            json_object_set_new(o, "sequential", json_integer(mp->sequential));
            json_array_append_new(out, o);
        }
    }
    return out;
}

static void
print_json(const Row *rows, int n)
{
    json_t *all = json_array();
    for (int i = 0; i < n; i++) {
        const Row *r = &rows[i];
        json_t *ms = json_object();
        for (int m = 0; m < NMETHODS; m++) {
            json_t *e = json_object();
            if (r->have[m]) {
                json_object_set_new(e, "opt_cycles", json_integer(r->opt_len[m]));
                json_object_set_new(e, "opt_improvement_percent",
                                    json_real(r->opt_improve[m]));
                json_object_set_new(e, "opt_seconds", json_real(r->opt_seconds[m]));
            } else {
                json_object_set_new(e, "opt_error", json_string(r->opt_error[m]));
            }
            if (m == 3)
                json_object_set_new(e, "cpu_seconds", json_real(r->bfco_cpu));
            if (m < NRUN) {
                json_object_set_new(e, "simulated_cycles", json_integer(r->sim[m]));
                json_object_set_new(e, "predicted_cycles", json_integer(r->pred[m]));
                json_object_set_new(e, "simulated_cycles_no_contention",
                                    json_integer(r->sim_nc[m]));
                json_object_set_new(e, "predicted_cycles_no_contention",
                                    json_integer(r->pred_nc[m]));
                json_object_set_new(e, "output_checked", json_boolean(r->checked[m]));
            }
            json_object_set_new(ms, methods[m], e);
        }
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(r->app->name));
        json_object_set_new(o, "graph", json_string(r->graph));
        json_object_set_new(o, "dsps", json_integer(r->dsps));
        json_object_set_new(o, "iterations", json_integer(r->iterations));
        json_object_set_new(o, "tasks", json_integer(r->tasks));
        json_object_set_new(o, "edges", json_integer(r->edges));
        json_object_set_new(o, "sequential_cycles", json_integer(r->sequential));
        json_object_set_new(o, "methods", ms);
        json_array_append_new(all, o);
    }
    json_t *root = json_object();
    json_object_set_new(root, "applications", all);
    json_object_set_new(root, "rows", flat_rows(rows, n));
    json_object_set_new(root, "failures", json_integer(failures));
    json_dumpf(root, stdout,
               JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    fputc('\n', stdout);
    json_decref(root);
}

/* ---- main ---- */

static bool
selected(const App *a, const char *only, bool full, bool test)
{
    if (a->test_only && !test)
        return false;
    if (!only)
        return full || !a->full_only;
    char list[1024];
    snprintf(list, sizeof list, "%s", only);
    for (char *s = strtok(list, ","); s; s = strtok(NULL, ","))
        if (strcmp(a->name, s) == 0 ||
            (strncmp(a->name, s, strlen(s)) == 0 && (full || !a->full_only)))
            return true;
    return false;
}

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void
usage(void)
{
    fprintf(
        stderr,
        "usage: bench_apps [--test] [--only NAMES] [--full] [--modes none,ma,cp,bfco]\n"
        "                  [--csv FILE] [--json] [--keep DIR] [--tgc PATH]\n"
        "                  [--apps DIR] [--checkers DIR]\n"
        "applications:");
    for (int i = 0; i < NAPPS; i++)
        fprintf(stderr, " %s%s", apps[i].name,
                apps[i].full_only   ? " (--full)"
                : apps[i].test_only ? " (--test)"
                                    : "");
    fputc('\n', stderr);
}

int
main(int argc, char **argv)
{
    const char *only = NULL, *csv = NULL, *keep = NULL, *mode_list = "none,ma,cp,bfco";
    bool full = false, test = false, json = false, md = false;
    const struct {
        const char *name;
        bool *on;
    } flags[] = {
        {"--test", &test}, {"--full", &full}, {"--markdown", &md}, {"--json", &json}};
    const struct {
        const char *name;
        const char **to;
    } values[] = {{"--only", &only},        {"--csv", &csv}, {"--keep", &keep},
                  {"--modes", &mode_list},  {"--tgc", &tgc}, {"--apps", &apps_dir},
                  {"--checkers", &checkers}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool known = false;
        for (size_t k = 0; k < sizeof flags / sizeof flags[0] && !known; k++)
            if (strcmp(a, flags[k].name) == 0)
                *flags[k].on = known = true;
        for (size_t k = 0; k < sizeof values / sizeof values[0] && !known; k++)
            if (strcmp(a, values[k].name) == 0 && i + 1 < argc) {
                *values[k].to = argv[++i];
                known = true;
            }
        if (!known) {
            usage();
            return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ? 0 : 2;
        }
    }
    char *modes[8];
    int nmodes = 0;
    static char ml[256];
    snprintf(ml, sizeof ml, "%s", mode_list);
    for (char *s = strtok(ml, ","); s && nmodes < 8; s = strtok(NULL, ","))
        modes[nmodes++] = s;
    setvbuf(stdout, NULL, _IOLBF, 0);
    msg = json || md ? stderr : stdout;
    if (keep) {
        mkdir(keep, 0777);
        snprintf(work, sizeof work, "%s", keep);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(work, sizeof work, "%s/tgc-bench-apps-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(work)) {
            fprintf(stderr, "bench_apps: error: cannot create %s: %s\n", work,
                    strerror(errno));
            return 1;
        }
    }
    Row *rows = calloc(NAPPS, sizeof *rows);
    int nrows = 0, ran = 0;
    for (int i = 0; i < NAPPS; i++) {
        const App *a = &apps[i];
        if (!selected(a, only, full, test))
            continue;
        Row *r = &rows[nrows];
        r->app = a;
        ran++;
        if (!graph_of(a, r->graph, sizeof r->graph))
            continue;
        if (test) {
            test_app(a, r->graph, modes, nmodes);
        } else {
            fprintf(msg, "%s: %s\n", a->name, r->graph);
            table_app(a, r);
            nrows++;
        }
    }
    if (ran == 0) {
        fprintf(stderr, "bench_apps: error: no application matches \"%s\"\n",
                only ? only : "");
        usage();
        free(rows);
        return 2;
    }
    if (!test) {
        if (json)
            print_json(rows, nrows);
        else
            print_tables(rows, nrows, md);
        if (csv && !write_csv(csv, rows, nrows))
            failures++;
    }
    free(rows);
    if (!keep)
        nftw(work, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    fprintf(msg, "bench_apps: %s (%d failures)\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
