/*
 * bench/bench_scale.c - the compile pipeline on one large graph: CPU time of loading,
 * of each pass of passes/passes.def, of the evaluation and of the C emission, and the
 * peak memory (docs/cli.md, "Scale").
 *
 * Usage: bench_scale [--tasks N] [-O METHOD] [--spread] [--iterations N] [--repeat R]
 *                    [--write DIR] [--graph FILE]
 *
 * The graph is the chain of `tgc compile`'s scale target: N tasks t0 .. t(N-1) of 1000
 * cycles, an edge of 64 bytes from each task to the next two (2N - 3 edges), on
 * bwdsp-1board.  It is written as tgc-graph/1 text and read back with
 * fe_load_graph_string, so the load is timed as `tgc compile` does it.  --spread pins
 * task t to DSP t mod 4, so that every edge becomes a message (use it with -O none or ma:
 * bfco and cp search over every message).  Each phase is timed R times (default 1) on the
 * same input and the median CPU time of the process (CLOCK_PROCESS_CPUTIME_ID) is
 * printed, then the ratio of the emission to the passes, then the peak resident memory
 * (getrusage ru_maxrss).  With
 * --write the project is also written to DIR (timed as "write").  Exit status 0 after
 * printing, 1 when a step fails.  Not a test: the figures depend on the machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ir.h"
#include "output.h"
#include "stats.h"

typedef struct Pass {
    const char *name;
    int (*run)(Unit *, Diag *);
} Pass;

static const Pass passes[] = {
#define PASS(name, fn, contract) {#name, fn},
#include "passes.def"
#undef PASS
};
enum { NPASSES = (int)(sizeof passes / sizeof passes[0]) };

enum { MAXREP = 15 };

/* The chain as tgc-graph/1 text (malloc'd). */
static char *
chain_json(int n, int64_t iterations, bool spread)
{
    size_t cap = (size_t)n * 160 + 256, len = 0;
    char *s = malloc(cap);
    if (!s)
        ice("out of memory");
#define PUT(...) len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__)
    PUT("{\"format\": \"tgc-graph/1\", \"name\": \"chain%d\", \"iterations\": %" PRId64
        ", \"platform\": \"bwdsp-1board\",\n\"tasks\": [\n",
        n, iterations);
    for (int t = 0; t < n; t++) {
        if (spread)
            PUT("{\"id\": \"t%d\", \"cycles\": 1000, \"dsp\": %d}%s\n", t, t % 4,
                t + 1 < n ? "," : "");
        else
            PUT("{\"id\": \"t%d\", \"cycles\": 1000}%s\n", t, t + 1 < n ? "," : "");
    }
    PUT("],\n\"edges\": [\n");
    bool first = true;
    for (int t = 0; t < n; t++)
        for (int k = 1; k <= 2 && t + k < n; k++) {
            PUT("%s{\"from\": \"t%d\", \"to\": \"t%d\", \"bytes\": 64}\n",
                first ? "" : ",", t, t + k);
            first = false;
        }
    PUT("]}\n");
#undef PUT
    if (len >= cap)
        ice("chain text larger than its buffer");
    return s;
}

static void
usage(void)
{
    fprintf(stderr, "usage: bench_scale [--tasks N] [-O METHOD] [--spread] "
                    "[--iterations N] [--repeat R] [--write DIR] [--graph FILE]\n");
    exit(2);
}

int
main(int argc, char **argv)
{
    int n = 100000, reps = 1;
    int64_t iterations = 1;
    bool spread = false;
    const char *method = "bfco", *write_dir = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--spread") == 0) {
            spread = true;
            continue;
        }
        if (!v)
            usage();
        i++;
        if (strcmp(a, "--tasks") == 0)
            n = atoi(v);
        else if (strcmp(a, "-O") == 0)
            method = v;
        else if (strcmp(a, "--iterations") == 0)
            iterations = atoll(v);
        else if (strcmp(a, "--repeat") == 0)
            reps = atoi(v);
        else if (strcmp(a, "--write") == 0)
            write_dir = v;
        else if (strcmp(a, "--graph") == 0)
            file = v;
        else
            usage();
    }
    Options opt = {
        .limits = ir_default_limits(), .search_budget = -1, .seed = 1, .threads = 1};
    if (n < 3 || n > opt.limits.max_tasks || iterations < 1 || reps < 1 ||
        reps > MAXREP || opt_method_parse(method, &opt.method) != 0)
        usage();
    char *text = file ? NULL : chain_json(n, iterations, spread);
    if (file && iterations > 1)
        opt.iterations = iterations;
    enum { LOAD, EVAL = NPASSES + 1, EMIT, WRITE, NPHASES };
    const char *names[NPHASES] = {
        [LOAD] = "load", [EVAL] = "evaluate", [EMIT] = "emit", [WRITE] = "write"};
    for (int p = 0; p < NPASSES; p++)
        names[1 + p] = passes[p].name;
    double t[NPHASES][MAXREP] = {{0}};
    int nedges = 0, nmsgs = 0, nfiles = 0, ntasks = 0;
    const char *gname = NULL;
    size_t bytes = 0;
    for (int r = 0; r < reps; r++) {
        Diag *d = diag_new();
        double c0 = ir_cpu_seconds();
        Graph *g = file ? fe_load_graph(file, &opt, d)
                        : fe_load_graph_string(text, "chain.json", &opt, d);
        t[LOAD][r] = ir_cpu_seconds() - c0;
        Unit u = {.g = g, .p = g ? g->platform : NULL, .opt = &opt};
        int rc = g ? 0 : -1;
        for (int p = 0; rc == 0 && p < NPASSES; p++) {
            c0 = ir_cpu_seconds();
            rc = passes[p].run(&u, d);
            t[1 + p][r] = ir_cpu_seconds() - c0;
        }
        Arena *a = arena_new();
        EvalResult er;
        CgProject proj = {0};
        if (rc == 0) {
            c0 = ir_cpu_seconds();
            rc = eval_run(u.s, &(EvalOpts){1, 0}, &er, a);
            t[EVAL][r] = ir_cpu_seconds() - c0;
        }
        if (rc == 0) {
            c0 = ir_cpu_seconds();
            rc = cg_emit_c(u.s, &er, &proj, d);
            t[EMIT][r] = ir_cpu_seconds() - c0;
        }
        if (rc == 0 && write_dir) {
            c0 = ir_cpu_seconds();
            rc = out_project(&proj, write_dir, true, NULL, d);
            t[WRITE][r] = ir_cpu_seconds() - c0;
        }
        if (rc != 0) {
            diag_flush(d, stderr);
            fprintf(stderr, "bench_scale: the pipeline failed\n");
            return 1;
        }
        nedges = u.g->nedges;
        ntasks = u.g->ntasks;
        iterations = u.g->iterations;
        free((void *)gname);
        gname = strdup(u.g->name ? u.g->name : "graph");
        nmsgs = u.s->nmsgs;
        nfiles = proj.nfiles;
        bytes = 0;
        for (int f = 0; f < proj.nfiles; f++)
            bytes += proj.files[f].len;
        cg_project_free(&proj);
        arena_free(a);
        ir_sched_free(u.s);
        ir_graph_free(u.g);
        diag_free(d);
    }
    free(text);
    if (file)
        printf("graph \"%s\" (%s): %d tasks after the passes, %d edges, %" PRId64
               " iteration%s, -O %s: %d messages, %d files, %zu bytes of C\n",
               gname, strrchr(file, '/') ? strrchr(file, '/') + 1 : file, ntasks, nedges,
               iterations, iterations == 1 ? "" : "s", method, nmsgs, nfiles, bytes);
    else
        printf("chain of %d tasks, %d edges, %" PRId64
               " iteration%s, -O %s%s: %d messages, "
               "%d files, %zu bytes of C\n",
               n, nedges, iterations, iterations == 1 ? "" : "s", method,
               spread ? ", spread over 4 DSPs" : "", nmsgs, nfiles, bytes);
    free((void *)gname);
    printf("CPU seconds, median of %d run%s:\n", reps, reps == 1 ? "" : "s");
    double med[NPHASES], passes_total = 0;
    for (int p = 0; p < NPHASES; p++) {
        if (p == WRITE && !write_dir)
            continue;
        med[p] = stats_median(t[p], reps);
        if (p >= 1 && p <= NPASSES)
            passes_total += med[p];
        printf("  %-10s %9.3f\n", names[p], med[p]);
    }
    printf("  %-10s %9.3f (the passes together)\n", "passes", passes_total);
    printf("emit / passes  %.3f\n", passes_total > 0 ? med[EMIT] / passes_total : 0.0);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory    %.1f MiB (resident)\n", (double)ru.ru_maxrss / 1024.0);
    return 0;
}
