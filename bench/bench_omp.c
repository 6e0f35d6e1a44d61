/*
 * bench/bench_omp.c - the threads target against OpenMP tasks (docs/threads.md): for
 * each graph, the project of `tgc compile --target threads`, and from its sequential
 * reference (seq.c) the same task graph as an OpenMP task program: one task per task of
 * the graph and iteration, `#pragma omp task depend(...)` on the slots of its edge
 * buffers (in: the slot it reads, out: the slot it writes) and on a token of the task
 * (its iterations in order, as a kernel with state needs), the same kernels through
 * tgc_kernel_step.  The three programs (sequential, threads, OpenMP) run interleaved
 * --reps times; every run must print the sequential program's checksums; the medians of
 * the host wall-clock of each go into one row of a tgc-bench/1 table.
 *
 *   bench_omp --tgc PATH [--reps N] [--platform P] [--kernel-path DIR] [--pin]
 *             [--threads N] [--header] NAME=GRAPH...
 *
 * The wall-clock is each program's own: from the start of its run (the threads
 * released together; the OpenMP team already created by a first, empty parallel
 * region) to its end, process start-up and compilation excluded.  OpenMP runs with
 * libgomp's defaults (one thread per core unless OMP_NUM_THREADS) or --threads N.
 * Exit status 0, 1 when a program fails or prints other checksums, 2 for bad usage.
 */
#define _GNU_SOURCE /* mkdtemp, strdup */
#include "bench_util.h"
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TGC_THREADS_LIB
#define TGC_THREADS_LIB ""
#endif
#ifndef TGC_RUNTIME_INC
#define TGC_RUNTIME_INC ""
#endif
#ifndef TGC_CC
#define TGC_CC "cc"
#endif

static void
die(const char *what)
{
    fprintf(stderr, "bench_omp: error: %s\n", what);
    exit(1);
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

static char *
fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s)
        die("out of memory");
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

/* runs argv with stdout to out (or /dev/null), stderr to err; the exit status */
static int
spawn(char *const *argv, const char *out, const char *err)
{
    int st = bench_spawn(argv, out, err);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static char *
slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, r;
    char *s = malloc(cap);
    while (s && (r = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap)
            s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (!s)
        die("out of memory");
    s[n] = 0;
    return s;
}

static void
dump(const char *path, const char *what)
{
    char *s = slurp(path);
    fprintf(stderr, "bench_omp: %s:\n%s\n", what, s ? s : "(nothing)");
    free(s);
}

/* ---- the OpenMP program from seq.c ---- */

typedef struct Edge {
    int id, slots, delay;
} Edge;

typedef struct Task {
    char name[256];
    int index;
    int nin, nout;
    int in[256], out[256];
} Task;

static int
edge_list(const char *text, const char *prefix, const char *name, int *ids)
{
    char key[400];
    snprintf(key, sizeof key, "static TgcBuf *const %s%s[] = {", prefix, name);
    const char *p = strstr(text, key);
    if (!p)
        return 0;
    p += strlen(key);
    int n = 0;
    while (*p && *p != '}' && n < 256) {
        if (*p == 'e' && p[-1] == '&')
            ids[n++] = atoi(p + 1);
        p++;
    }
    return n;
}

/* writes DIR/omp.c: seq.c's buffers and tasks, an OpenMP main; 0 or -1 */
static int
write_omp(const char *dir)
{
    char *sp = fmt("%s/seq.c", dir), *op = fmt("%s/omp.c", dir);
    char *seq = slurp(sp);
    if (!seq)
        return -1;
    char *cut = strstr(seq, "\nstatic void\nsequential(");
    if (!cut)
        return -1;
    *cut = 0;
    /* the edges: static TgcBuf eN = {b_eN, BYTES, SLOTS, DELAY}; */
    int nedges = 0, cap = 64;
    Edge *edges = malloc(sizeof *edges * (size_t)cap);
    for (const char *p = seq; (p = strstr(p, "static TgcBuf e")) != NULL; p++) {
        Edge e;
        long long bytes;
        if (sscanf(p, "static TgcBuf e%d = {b_e%*d, %lld, %d, %d};", &e.id, &bytes,
                   &e.slots, &e.delay) != 4)
            continue;
        if (nedges == cap)
            edges = realloc(edges, sizeof *edges * (size_t)(cap *= 2));
        edges[nedges++] = e;
    }
    /* the tasks in seq.c's (topological) order: static const TgcTask task_NAME = {I, */
    int ntasks = 0, tcap = 64;
    Task *tasks = malloc(sizeof *tasks * (size_t)tcap);
    for (const char *p = seq; (p = strstr(p, "static const TgcTask task_")) != NULL;
         p++) {
        Task t;
        if (sscanf(p, "static const TgcTask task_%255[A-Za-z0-9_] = {%d,", t.name,
                   &t.index) != 2)
            continue;
        t.nin = edge_list(seq, "in_", t.name, t.in);
        t.nout = edge_list(seq, "out_", t.name, t.out);
        if (ntasks == tcap)
            tasks = realloc(tasks, sizeof *tasks * (size_t)(tcap *= 2));
        tasks[ntasks++] = t;
    }
    /* the loop's order (the topological one) */
    const char *loop = strstr(cut + 1, "for (int64_t it = 0;");
    FILE *f = fopen(op, "w");
    if (!f || !edges || !tasks || !loop)
        return -1;
    fprintf(
        f, "/* omp.c - the task graph of seq.c as OpenMP tasks (bench/bench_omp.c) */\n");
    fputs(seq, f);
    fprintf(f,
            "\n#include <omp.h>\n#include <stdio.h>\n#include <time.h>\n\n"
            "static unsigned char zero_dep, task_dep[%d];\n"
            "#define SLOT(b, x) (&(b).base[(size_t)((x) %% (b).nslots) * (b).bytes])\n"
            "#define READ(b, it) ((it) >= (b).delay ? SLOT(b, (it) - (b).delay) : "
            "&zero_dep)\n\n"
            "static void\nomp_graph(void)\n{\n"
            "    for (int64_t it = 0; it < TGC_ITERATIONS; it++) {\n",
            ntasks > 0 ? ntasks : 1);
    /* every tgc_compute(&task_NAME, it) of seq.c's loop, in its order */
    for (const char *p = loop; (p = strstr(p, "tgc_compute(&task_")) != NULL; p++) {
        char name[256];
        if (sscanf(p, "tgc_compute(&task_%255[A-Za-z0-9_], it);", name) != 1)
            continue;
        const Task *t = NULL;
        for (int i = 0; i < ntasks; i++)
            if (strcmp(tasks[i].name, name) == 0)
                t = &tasks[i];
        if (!t)
            return -1;
        fprintf(f, "        {\n");
        for (int j = 0; j < t->nin; j++)
            fprintf(f, "            unsigned char *i%d = READ(e%d, it);\n", j, t->in[j]);
        for (int j = 0; j < t->nout; j++)
            fprintf(f, "            unsigned char *o%d = SLOT(e%d, it);\n", j, t->out[j]);
        fprintf(f, "#pragma omp task firstprivate(it) depend(inout: task_dep[%d])",
                t->index);
        for (int j = 0; j < t->nin; j++)
            fprintf(f, " depend(in: *i%d)", j);
        for (int j = 0; j < t->nout; j++)
            fprintf(f, " depend(out: *o%d)", j);
        fprintf(f, "\n            tgc_kernel_step(&task_%s, it);\n        }\n", name);
    }
    fprintf(f,
            "    }\n}\n\n"
            "int\nmain(int argc, char **argv)\n{\n    TgcArgs a;\n"
            "    int st = tgc_parse_args(&a, argc, argv, \"omp\");\n"
            "    if (st >= 0)\n        return st;\n"
            "    int team = 0;\n"
            "#pragma omp parallel\n"
            "    {\n#pragma omp single\n        team = omp_get_num_threads();\n    }\n"
            "    struct timespec t0, t1;\n"
            "    clock_gettime(CLOCK_MONOTONIC, &t0);\n"
            "#pragma omp parallel\n#pragma omp single\n    omp_graph();\n"
            "    clock_gettime(CLOCK_MONOTONIC, &t1);\n"
            "    printf(\"omp_threads %%d\\nwall_s %%.9f\\n\", team,\n"
            "           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - "
            "t0.tv_nsec));\n"
            "    return tgc_report(0, \"omp\", 1, -1, -1);\n}\n");
    int bad = fclose(f) != 0;
    (void)edges;
    free(edges);
    free(tasks);
    free(seq);
    free(sp);
    free(op);
    return bad ? -1 : 0;
}

/* ---- building and running ---- */

static int
build(const char *dir, const char *prog, bool omp)
{
    char *argv[256];
    int n = 0;
    argv[n++] = TGC_CC;
    argv[n++] = "-std=c11";
    argv[n++] = "-O2";
    if (omp)
        argv[n++] = "-fopenmp";
    argv[n++] = fmt("-I%s", dir);
    argv[n++] = fmt("-I%s", TGC_RUNTIME_INC);
    argv[n++] = "-o";
    argv[n++] = fmt("%s/%s", dir, prog);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 240) {
        const char *f = e->d_name;
        size_t len = strlen(f);
        if (len < 3 || strcmp(f + len - 2, ".c") != 0 || strcmp(f, "user_kernels.c") == 0)
            continue;
        bool is_dsp = strncmp(f, "dsp", 3) == 0 && f[3] >= '0' && f[3] <= '9';
        bool mine = strcmp(prog, "parallel") == 0     ? strcmp(f, "main.c") == 0 || is_dsp
                    : strcmp(prog, "sequential") == 0 ? strcmp(f, "seq.c") == 0
                                                      : strcmp(f, "omp.c") == 0;
        bool other = strcmp(f, "main.c") == 0 || is_dsp || strcmp(f, "seq.c") == 0 ||
                     strcmp(f, "omp.c") == 0;
        if (mine || !other)
            argv[n++] = fmt("%s/%s", dir, f);
    }
    if (d)
        closedir(d);
    argv[n++] = TGC_THREADS_LIB;
    argv[n++] = "-ljansson";
    argv[n++] = "-lpthread";
    argv[n++] = "-lm";
    argv[n] = NULL;
    char *log = fmt("%s/build-%s.log", dir, prog);
    int rc = spawn(argv, log, log);
    if (rc != 0)
        dump(log, "the build failed");
    free(log);
    return rc;
}

/* the checksum lines of a report, and its time in seconds */
static bool
parse(const char *text, char **sums, double *secs, double hz)
{
    size_t n = strlen(text), k = 0;
    char *s = calloc(n + 1, 1);
    long long cyc = -1;
    double w = -1;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (strncmp(line, "checksum ", 9) == 0) {
            memcpy(s + k, line, len);
            k += len;
            s[k++] = '\n';
        }
        sscanf(line, "cycles %lld", &cyc);
        sscanf(line, "wall_s %lf", &w);
        line = nl ? nl + 1 : NULL;
    }
    *sums = s;
    *secs = w >= 0 ? w : cyc >= 0 ? (double)cyc / hz : -1;
    return k > 0 && *secs >= 0;
}

int
main(int argc, char **argv)
{
    const char *tgc = NULL, *platform = NULL, *kpaths[8], *nthreads = NULL;
    int nkpath = 0;
    int reps = 11, header = 0, pin = 0, first = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--tgc") == 0 && i + 1 < argc)
            tgc = argv[++i];
        else if (strcmp(a, "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(a, "--platform") == 0 && i + 1 < argc)
            platform = argv[++i];
        else if (strcmp(a, "--kernel-path") == 0 && i + 1 < argc && nkpath < 8)
            kpaths[nkpath++] = argv[++i];
        else if (strcmp(a, "--threads") == 0 && i + 1 < argc)
            nthreads = argv[++i];
        else if (strcmp(a, "--pin") == 0)
            pin = 1;
        else if (strcmp(a, "--header") == 0)
            header = 1;
        else if (a[0] == '-') {
            fprintf(stderr, "bench_omp: unknown option %s\n", a);
            return 2;
        } else {
            first = i;
            break;
        }
    }
    if (!tgc || !first || reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: bench_omp --tgc PATH [--reps N] [--platform P] "
                        "[--kernel-path DIR] [--pin] [--threads N] [--header] "
                        "NAME=GRAPH...\n");
        return 2;
    }
    if (nthreads)
        setenv("OMP_NUM_THREADS", nthreads, 1);
    if (header) {
        printf("table omp The threads target against OpenMP tasks and the sequential "
               "program (host wall-clock, medians)\n");
        printf("columns graph,dsps,tasks,reps,sequential_ms,threads_ms,omp_ms,"
               "omp_threads,threads/omp,speedup_threads,speedup_omp\n");
    }
    const char *t = getenv("TMPDIR");
    int status = 0;
    for (int g = first; g < argc; g++) {
        char *name = strdup(argv[g]), *graph = strchr(name, '=');
        if (!graph)
            die("a graph is NAME=FILE");
        *graph++ = 0;
        char *dir = fmt("%s/bench-omp-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(dir))
            die("mkdtemp");
        char *proj = fmt("%s/p", dir);
        char *cargv[32];
        int n = 0;
        cargv[n++] = (char *)tgc;
        cargv[n++] = "compile";
        cargv[n++] = graph;
        cargv[n++] = "--target";
        cargv[n++] = "threads";
        cargv[n++] = "-o";
        cargv[n++] = proj;
        if (platform) {
            cargv[n++] = "--platform";
            cargv[n++] = (char *)platform;
        }
        for (int k = 0; k < nkpath; k++) {
            cargv[n++] = "--kernel-path";
            cargv[n++] = (char *)kpaths[k];
        }
        cargv[n] = NULL;
        char *log = fmt("%s/compile.log", dir);
        if (spawn(cargv, log, log) != 0) {
            dump(log, "tgc compile failed");
            return 1;
        }
        if (write_omp(proj) != 0)
            die("cannot write the OpenMP program from seq.c");
        if (build(proj, "parallel", false) || build(proj, "sequential", false) ||
            build(proj, "omp", true))
            return 1;
        /* the DSPs, the tasks and the clock of the project */
        char *gh = fmt("%s/tgc_graph.h", proj), *h = slurp(gh);
        int ndsps = 0, ntasks = 0;
        const char *q;
        if (h && (q = strstr(h, "#define TGC_NDSPS ")))
            ndsps = atoi(q + 18);
        if (h && (q = strstr(h, "#define TGC_NTASKS ")))
            ntasks = atoi(q + 19);
        char *pj = fmt("%s/platform.json", proj), *ptxt = slurp(pj);
        double hz = 500e6;
        if (ptxt && (q = strstr(ptxt, "\"dsp_clock_mhz\":")))
            hz = 1e6 * atof(q + 16);
        const char *progs[3] = {"sequential", "parallel", "omp"};
        double *times[3];
        for (int p = 0; p < 3; p++)
            times[p] = calloc((size_t)reps, sizeof(double));
        char *want = NULL;
        int team = 0;
        for (int r = 0; r < reps; r++)
            for (int k = 0; k < 3; k++) {
                int p = (k + r) % 3; /* interleaved, each in every place of the turn */
                char *exe = fmt("%s/%s", proj, progs[p]),
                     *out = fmt("%s/%s.out", dir, progs[p]),
                     *err = fmt("%s/%s.err", dir, progs[p]),
                     *odir = fmt("%s/out-%s", dir, progs[p]);
                mkdir(odir, 0777);
                char *rargv[] = {
                    exe,  "--platform",         pj,  "--quiet", "--output-dir",
                    odir, pin ? "--pin" : NULL, NULL};
                int rc = spawn(rargv, out, err);
                char *text = slurp(out), *sums = NULL;
                double secs;
                if (rc != 0 || !text || !parse(text, &sums, &secs, hz)) {
                    fprintf(stderr, "bench_omp: %s: the %s program failed (exit %d)\n",
                            name, progs[p], rc);
                    dump(err, "its messages");
                    return 1;
                }
                if (p == 2 && (q = strstr(text, "omp_threads ")))
                    team = atoi(q + 12);
                if (!want)
                    want = strdup(sums);
                else if (strcmp(want, sums) != 0) {
                    fprintf(stderr,
                            "bench_omp: %s: the %s program printed other checksums\n",
                            name, progs[p]);
                    status = 1;
                }
                times[p][r] = secs;
                free(sums);
                free(text);
                free(exe);
                free(out);
                free(err);
                free(odir);
            }
        double ms[3];
        for (int p = 0; p < 3; p++)
            ms[p] = 1e3 * bench_median(times[p], reps);
        printf("row %s,%d,%d,%d,%.3f,%.3f,%.3f,%d,%.3f,%.2f,%.2f\n", name, ndsps, ntasks,
               reps, ms[0], ms[1], ms[2], team, ms[1] / ms[2], ms[0] / ms[1],
               ms[0] / ms[2]);
        fflush(stdout);
        char *rm[] = {"rm", "-rf", dir, NULL};
        spawn(rm, NULL, NULL);
        for (int p = 0; p < 3; p++)
            free(times[p]);
        free(want);
        free(h);
        free(gh);
        free(ptxt);
        free(pj);
        free(log);
        free(proj);
        free(dir);
        free(name);
    }
    return status;
}
