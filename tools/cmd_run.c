/*
 * tools/cmd_run.c - `tgc run GRAPH [compile options] [--keep DIR] [--trace FILE.json]
 * [--no-contention] [--json]`: compiles the graph (cmd_compile.c), builds the parallel
 * and the sequential programs with direct compiler calls against the in-tree (or
 * installed) libmpirio, runs both, and compares their checksums and output files
 * (docs/cli.md).
 *
 * Exit status (docs/cli.md): 0 when the checksums and the output files of the two
 * programs are equal; 1 when they differ, a program fails, or the input is bad; 2 for bad
 * usage; 3 when a program deadlocks (the simulated runtime's report follows). The
 * simulated and the predicted cycles are reported, not judged: the test suite asserts
 * their equality, with contention (the default) and with --no-contention, which both the
 * compiler's evaluator and the runtime then use.
 *
 * Speed: both programs are compiled at once and run at once (two children each time); the
 * compiler is $TGC_CC (default cc) with $TGC_CFLAGS (default -std=c11 -O1 -Wall -Wextra).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "compile.h"
#include "locate.h"
#include "progress.h"
#include "throughput.h"

extern char **environ;

#ifndef TGC_MPIRIO_BUILD_CC /* the compiler that built libmpirio */
#define TGC_MPIRIO_BUILD_CC "cc"
#endif
#ifndef TGC_MPIRIO_BUILD_CFLAGS /* its sanitizer flags, which the program needs too */
#define TGC_MPIRIO_BUILD_CFLAGS ""
#endif
#ifndef TGC_MPI_OPENMPI_FLAGS /* the MPI libraries' own flags (pkg-config ompi-c, mpich) \
                               */
#define TGC_MPI_OPENMPI_FLAGS ""
#endif
#ifndef TGC_MPI_MPICH_FLAGS
#define TGC_MPI_MPICH_FLAGS ""
#endif

enum { O_KEEP = TGC_COMPILE_NOPTIONS, O_TRACE, O_MPIRUN, O_TIMEOUT, O_PIN, O_REPORT };

static const CliOption own[] = {
    TGC_COMPILE_OPTIONS,
    {"keep", "DIR", "build in DIR and keep the project, the programs and their outputs"},
    {"trace", "FILE", "write the parallel run's Chrome trace-event JSON to FILE"},
    {"mpirun", "ARGS",
     "--target mpi: more arguments for mpirun (a hostfile: \"--hostfile FILE\")"},
    {"timeout", "S",
     "--target mpi or threads: end the parallel run after S seconds (default 600)"},
    {"pin", NULL,
     "--target threads: bind worker thread i (and DSP i) to core i modulo the cores"},
    {"report", "FILE",
     "write the HTML report of the schedule (tgc report) with the run's figures beside "
     "the prediction and their difference"},
    {NULL, NULL, NULL},
};

static const CliSpec spec = {
    "run",
    "GRAPH",
    "Compile a task graph, build the parallel program and its sequential reference, run\n"
    "both on the simulated platform and compare them: checksums of every edge (exit "
    "status\n"
    "1 if they differ), output files, simulated against predicted cycles, packets and "
    "the\n"
    "utilisation of every DSP.\n",
    CLI_PLATFORM | CLI_ITERATIONS | CLI_CONTENTION | CLI_LIMITS | CLI_JSON | CLI_KERNELS,
    own,
    0,
    1,
};

/* ---- files and processes
 * --------------------------------------------------------------- */

/* Removes path and everything below it (our own temporary directory only). */
static void
remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dir = opendir(path);
        if (dir) {
            struct dirent *e;
            while ((e = readdir(dir)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char *p = out_path_join(path, e->d_name);
                remove_tree(p);
                free(p);
            }
            closedir(dir);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* An interrupted run (SIGINT, SIGTERM, SIGHUP) removes its temporary folder and then dies
 * of the signal, so that its exit status is the signal's.  The handler does only what is
 * async-signal-safe: it kills the children (child_kill_all), runs rm -rf on the folder
 * through fork and execve (remove_tree allocates), restores the default action and raises
 * the signal again.  A signal ignored when tgc started stays ignored. */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
static char *cleanup_argv[5]; /* rm -rf -- DIR */

static void
on_cleanup_signal(int sig)
{
    child_kill_all();
    for (int attempt = 0; attempt < 2 && cleanup_argv[0]; attempt++) {
        pid_t p = fork();
        if (p == 0) {
            char *noenv[] = {NULL};
            execve(cleanup_argv[0], cleanup_argv, noenv);
            _exit(127);
        }
        int st = 1;
        while (p > 0 && waitpid(p, &st, 0) < 0 && errno == EINTR)
            ;
        if (p > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
            break; /* else a child still wrote into it: once more */
    }
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns */
}

/* Removes dir if a signal interrupts the run; NULL: no longer (the run removes it). */
static void
remove_on_signal(const char *dir)
{
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++) {
        struct sigaction old, sa = {.sa_handler = dir ? on_cleanup_signal : SIG_DFL};
        sigemptyset(&sa.sa_mask);
        for (size_t j = 0; j < sizeof cleanup_signals / sizeof cleanup_signals[0]; j++)
            sigaddset(&sa.sa_mask, cleanup_signals[j]);
        if (sigaction(cleanup_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(cleanup_signals[i], &sa, NULL);
    }
    if (dir) {
        static char rm[] = "/bin/rm", rf[] = "-rf", dashes[] = "--";
        cleanup_argv[0] = rm;
        cleanup_argv[1] = rf;
        cleanup_argv[2] = dashes;
        cleanup_argv[3] = strdup(dir);
        if (!cleanup_argv[3])
            ice("out of memory");
    } else {
        free(cleanup_argv[3]);
        memset(cleanup_argv, 0, sizeof cleanup_argv);
    }
}

/* mkdir -p of the directory part of path below base */
static void
make_parents(const char *base, const char *rel)
{
    char *p = out_path_join(base, rel);
    for (char *s = p + strlen(base) + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0777);
            *s = '/';
        }
    free(p);
}

static void
argv_push_joined(Argv *a, const char *p1, const char *p2)
{
    char *w = malloc(strlen(p1) + strlen(p2) + 1);
    if (!w)
        ice("out of memory");
    sprintf(w, "%s%s", p1, p2);
    argv_push(a, w);
    free(w);
}

/* the MPI transport of a target (in the tree or installed, locate.c) and its MPI flags;
 * "" when there is none */
static const char *
mpi_lib(int target, const char **flags)
{
    *flags = target == CG_TARGET_MPICH ? TGC_MPI_MPICH_FLAGS : TGC_MPI_OPENMPI_FLAGS;
    return target == CG_TARGET_MPICH ? tgc_paths()->mpich_lib : tgc_paths()->openmpi_lib;
}

/* The compiler command of one program: cc FLAGS -I DIR -I MPIRIO -o OUT SOURCES... LIBS
 * (the compiler and the sanitizer flags of the build that made libmpirio: a sanitized
 * library links only into a sanitized program) */
static void
cc_command(Argv *a, const char *dir, const CgProject *p, bool parallel, const char *exe,
           int target)
{
    const char *cc = getenv("TGC_CC"), *flags = getenv("TGC_CFLAGS");
    const TgcPaths *m = tgc_paths();
    argv_words(a, cc && *cc ? cc : TGC_MPIRIO_BUILD_CC);
    argv_words(a, flags && *flags ? flags : "-std=c11 -O1 -Wall -Wextra");
    argv_words(a, TGC_MPIRIO_BUILD_CFLAGS);
    argv_push_joined(a, "-I", dir);
    argv_push_joined(a, "-I", m->incdir);
    bool threads = target == CG_TARGET_THREADS; /* both programs on the host's threads */
    bool mpi = parallel && target != CG_TARGET_SIM && !threads;
    if (mpi)
        argv_push(a, "-DTGC_MPI");
    argv_push(a, "-o");
    argv_push(a, exe);
    for (int i = 0; i < p->nfiles; i++) {
        const char *n = p->files[i].name;
        if (!p->files[i].unit)
            continue;
        bool is_main = strcmp(n, "main.c") == 0, is_seq = strcmp(n, "seq.c") == 0;
        bool is_dsp = strncmp(n, "dsp", 3) == 0 && n[3] >= '0' && n[3] <= '9';
        if ((parallel && is_seq) || (!parallel && (is_main || is_dsp)))
            continue;
        char *f = out_path_join(dir, n);
        argv_push(a, f);
        free(f);
    }
    if (mpi) {
        const char *mflags;
        argv_push(a, mpi_lib(target, &mflags));
        argv_words(a, mflags);
    } else if (threads) {
        argv_push(a, m->threads_lib);
    } else if (m->in_tree) {
        argv_push(a, m->lib);
    } else {
        argv_push_joined(a, "-L", m->libdir);
        argv_push_joined(a, "-Wl,-rpath,", m->libdir);
        argv_push(a, "-lmpirio");
    }
    argv_push(a, "-ljansson");
    argv_push(a, "-lpthread");
    argv_push(a, "-lm");
}

/* ---- the programs' reports
 * -------------------------------------------------------------- */

typedef struct DspLine {
    long long compute, end;
    double util;
} DspLine;

typedef struct Report {
    char *text;      /* the whole standard output */
    char *checksums; /* the "checksum " lines, in order */
    char total[17];  /* the hash of "checksum total", "" when the program printed none */
    long long cycles, predicted, packets, predicted_packets;
    long long period_cycles, period_iterations; /* the measured period, 0 = none */
    bool deadlock, ok;
    DspLine *dsp;
    int ndsp;
    int nedges;
} Report;

static void
parse_report(Report *r, char *text, int ndsps)
{
    memset(r, 0, sizeof *r);
    r->text = text;
    r->cycles = r->predicted = r->packets = r->predicted_packets = -1;
    r->dsp = calloc((size_t)ndsps + 1, sizeof *r->dsp);
    if (!r->dsp)
        ice("out of memory");
    r->ndsp = ndsps;
    size_t n = strlen(text);
    r->checksums = calloc(n + 1, 1);
    if (!r->checksums)
        ice("out of memory");
    size_t k = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        long long a, b;
        int dsp;
        double u;
        if (strncmp(line, "checksum ", 9) == 0) {
            memcpy(r->checksums + k, line, len);
            k += len;
            r->checksums[k++] = '\n';
            r->nedges += strncmp(line, "checksum total", 14) != 0;
            if (strncmp(line, "checksum total ", 15) == 0 && len == 15 + 16)
                memcpy(r->total, line + 15, 16);
        } else if (sscanf(line, "cycles %lld", &a) == 1) {
            r->cycles = a;
        } else if (sscanf(line, "predicted_packets %lld", &a) == 1) {
            r->predicted_packets = a;
        } else if (sscanf(line, "predicted %lld", &a) == 1) {
            r->predicted = a;
        } else if (sscanf(line, "packets %lld", &a) == 1) {
            r->packets = a;
        } else if (sscanf(line, "dsp %d compute %lld end %lld utilisation %lf", &dsp, &a,
                          &b, &u) == 4 &&
                   dsp >= 0 && dsp < ndsps) {
            r->dsp[dsp] = (DspLine){a, b, u};
        } else if (sscanf(line, "period %lld cycles per %lld iterations", &a, &b) == 2 &&
                   a >= 0 && b > 0) {
            r->period_cycles = a;
            r->period_iterations = b;
        }
        line = nl ? nl + 1 : NULL;
    }
    r->ok = r->cycles >= 0;
}

static void
free_report(Report *r)
{
    free(r->text);
    free(r->checksums);
    free(r->dsp);
}

/* Byte comparison of the output files the tasks write. */
static bool
outputs_equal(const Graph *g, const char *pa, const char *pb, int *nfiles)
{
    bool eq = true;
    *nfiles = 0;
    for (int t = 0; t < g->ntasks; t++) {
        const char *o = g->tasks[t].output;
        if (!o)
            continue;
        (*nfiles)++;
        char *fa = out_path_join(pa, o), *fb = out_path_join(pb, o);
        size_t la = 0, lb = 0;
        char *a = child_read_file(fa, &la), *b = child_read_file(fb, &lb);
        if ((a == NULL) != (b == NULL) || (a && (la != lb || memcmp(a, b, la) != 0)))
            eq = false;
        free(a);
        free(b);
        free(fa);
        free(fb);
    }
    return eq;
}

/* The compiler's or a program's messages, each line with its control characters escaped
 * (a kernel file's line quoted by cc may hold terminal escapes). */
static void
print_file_to_stderr(const char *path, const char *what)
{
    char *s = child_read_file(path, NULL);
    if (s && *s) {
        fprintf(stderr, "tgc: %s:\n", what);
        Arena *a = arena_new();
        for (char *line = s, *nl; *line; line = nl ? nl + 1 : line + strlen(line)) {
            nl = strchr(line, '\n');
            if (nl)
                *nl = 0;
            fprintf(stderr, "%s\n", ir_escaped(a, line));
        }
        arena_free(a);
    }
    free(s);
}

/* ---- the command
 * ------------------------------------------------------------------------ */

const CliSpec *const cmd_run_spec = &spec;

/* tgc report's page of the schedule run, with the section "Predicted and simulated":
 * the run's length, period, packets and each DSP's compute and end beside the
 * evaluator's.  0, or 1 after reporting. */
static int
write_report(const Compiled *x, const Report *rp, const char *target, const char *path)
{
    Arena *a = arena_new();
    Diag *d = diag_new();
    int rc = 1;
    EvalOpts eo = {.first = 2,
                   .last = 3}; /* the Gantt chart's iterations, as tgc report */
    EvalResult r;
    if (eval_run(x->s, &eo, &r, a) != 0)
        ice("a verified schedule deadlocks");
    EvalPeriod per;
    if (eval_period_of(x->s, &per) != 0)
        ice("a verified schedule deadlocks in its steady state");
    TgcThroughput tp;
    tgc_throughput(x->s, &per, &tp, a);
    CgThroughput ct = {&tp.period, tp.bound_rc == 0 ? &tp.bound : NULL, tp.constraint};
    int n = x->s->ndsps;
    int64_t *compute = calloc((size_t)n + 1, sizeof *compute);
    int64_t *end = calloc((size_t)n + 1, sizeof *end);
    if (!compute || !end)
        ice("out of memory");
    for (int k = 0; k < n; k++) {
        compute[k] = rp->dsp[k].compute;
        end[k] = rp->dsp[k].end;
    }
    CgSimulated sim = {target,
                       rp->cycles,
                       rp->packets,
                       rp->predicted_packets,
                       rp->period_cycles,
                       rp->period_iterations,
                       compute,
                       end};
    bool drawn;
    char *page = cg_sched_report(x->s, &r, NULL, 0, &ct, &sim, &drawn, d);
    if (page)
        rc = out_write_file(path, page, strlen(page));
    diag_flush(d, stderr);
    free(page);
    free(compute);
    free(end);
    diag_free(d);
    arena_free(a);
    return rc;
}

int
cmd_run(Cli *c)
{
    int status;
    const char *keep = c->val[O_KEEP], *trace = c->val[O_TRACE];
    bool no_contention = c->opt.no_contention; /* the prediction's model too */
    double timeout = 600;
    if (c->val[O_TIMEOUT]) {
        int64_t v;
        if (!cli_int_value(&spec, "--timeout", c->val[O_TIMEOUT], 1, 86400, &v))
            return TGC_EXIT_USAGE;
        timeout = (double)v;
    }
    Compiled x;
    status = tgc_compile(c, &spec, keep, &x);
    if (status != TGC_EXIT_OK) {
        tgc_compiled_free(&x);
        return status;
    }
    bool threads = x.target == CG_TARGET_THREADS;
    bool mpi = x.target != CG_TARGET_SIM && !threads;
    bool host =
        mpi || threads; /* the programs run for real: wall-clock, one after the other */
    const char *mpirun = x.target == CG_TARGET_MPICH ? "mpirun.mpich" : "mpirun.openmpi";
    bool own_mpirun = getenv("TGC_MPIRUN") && *getenv("TGC_MPIRUN");
    if (own_mpirun) /* srun, a wrapper: only -n N and --mpirun's words are added */
        mpirun = getenv("TGC_MPIRUN");
    if (!mpi && c->val[O_MPIRUN]) {
        tgc_compiled_free(&x);
        return cli_usage(&spec, "--mpirun applies to --target mpi only");
    }
    if (!host && c->val[O_TIMEOUT]) {
        tgc_compiled_free(&x);
        return cli_usage(&spec, "--timeout applies to --target mpi and threads only");
    }
    if (!threads && c->val[O_PIN]) {
        tgc_compiled_free(&x);
        return cli_usage(&spec, "--pin applies to --target threads only");
    }
    if (host && trace) {
        tgc_compiled_free(&x);
        return cli_usage(&spec, "--trace applies to the simulated platform only");
    }
    if (c->val[O_REPORT] && out_check(c->val[O_REPORT]) != 0) {
        tgc_compiled_free(&x);
        return TGC_EXIT_INPUT;
    }
    if (mpi) {
        const char *flags, *lib = mpi_lib(x.target, &flags);
        if (!*lib || access(lib, R_OK) != 0) {
            fprintf(stderr,
                    "tgc: error: --target %s: libmpirio's %s transport is not there "
                    "(install %s and rebuild and install tgc, docs/cluster.md)\n",
                    x.target == CG_TARGET_MPICH ? "mpich" : "mpi",
                    x.target == CG_TARGET_MPICH ? "MPICH" : "Open MPI",
                    x.target == CG_TARGET_MPICH ? "libmpich-dev and mpich"
                                                : "libopenmpi-dev and openmpi-bin");
            tgc_compiled_free(&x);
            return TGC_EXIT_INPUT;
        }
    }
    if (threads &&
        (!*tgc_paths()->threads_lib || access(tgc_paths()->threads_lib, R_OK) != 0)) {
        fprintf(stderr, "tgc: error: --target threads: libmpirio's shared-memory "
                        "transport (libmpirio_threads.a) is not there (rebuild and "
                        "install tgc, docs/threads.md)\n");
        tgc_compiled_free(&x);
        return TGC_EXIT_INPUT;
    }
    /* the project directory */
    char *dir;
    if (keep) {
        /* "./-name", never "-name": the compiler and mpirun would read it as an option */
        dir = keep[0] == '-' ? out_path_join(".", keep) : strdup(keep);
    } else {
        const char *tmp = getenv("TMPDIR");
        dir = out_path_join(tmp && *tmp ? tmp : "/tmp", "tgc-run-XXXXXX");
        if (!mkdtemp(dir)) {
            cli_error("cannot create a temporary directory in \"%s\": %s",
                      tmp && *tmp ? tmp : "/tmp", strerror(errno));
            free(dir);
            tgc_compiled_free(&x);
            return TGC_EXIT_INPUT;
        }
    }
    if (!dir)
        ice("out of memory");
    if (!keep)
        remove_on_signal(dir);
    /* --keep DIR stays locked until the end: two runs never share a folder */
    Diag *d = diag_new();
    OutLock *lock = out_lock(dir, d);
    status =
        lock && out_project(&x.project, dir, c->val[6] != NULL || !keep, lock, d) == 0
            ? TGC_EXIT_OK
            : TGC_EXIT_INPUT;
    cli_report(d);
    diag_free(d);
    char *exe_p = out_path_join(dir, "parallel"),
         *exe_s = out_path_join(dir, "sequential");
    char *log_p = out_path_join(dir, "build-parallel.log"),
         *log_s = out_path_join(dir, "build-sequential.log");
    char *out_p = out_path_join(dir, "parallel.out"),
         *out_s = out_path_join(dir, "sequential.out");
    char *err_p = out_path_join(dir, "parallel.err"),
         *err_s = out_path_join(dir, "sequential.err");
    char *odir_p = out_path_join(dir, "out-parallel"),
         *odir_s = out_path_join(dir, "out-sequential");
    char *plat = out_path_join(dir, "platform.json");
    Report rp = {0}, rs = {0};
    bool ran = false;
    double mpirun_s = 0;
    if (status == TGC_EXIT_OK) { /* build both at once */
        Argv ap = {0}, as = {0};
        cc_command(&ap, dir, &x.project, true, exe_p, x.target);
        cc_command(&as, dir, &x.project, false, exe_s, x.target);
        /* each compiler leads a group: an interrupted run ends its cc1 and ld too */
        Child cp = child_start(ap.v, log_p, log_p, NULL, true),
              cs = child_start(as.v, log_s, log_s, NULL, true);
        int bp = child_finish(cp, "run: building the programs"),
            bs = child_finish(cs, "run: building the programs");
        progress_end();
        if (bp != 0 || bs != 0) {
            fprintf(stderr, "tgc: error: building the generated programs failed (%s)\n",
                    !cp.started || !cs.started ? "cannot start the compiler; set TGC_CC"
                                               : "compiler output follows");
            print_file_to_stderr(bp != 0 ? log_p : log_s,
                                 bp != 0 ? "parallel" : "sequential");
            status = TGC_EXIT_INPUT;
        }
        argv_free(&ap);
        argv_free(&as);
    }
    if (status == TGC_EXIT_OK) { /* run both at once */
        mkdir(odir_p, 0777);
        mkdir(odir_s, 0777);
        for (int t = 0; t < x.g->ntasks; t++)
            if (x.g->tasks[t].output) {
                make_parents(odir_p, x.g->tasks[t].output);
                make_parents(odir_s, x.g->tasks[t].output);
            }
        Argv ap = {0}, as = {0}, env = {0}, env_s = {0};
        if (mpi) { /* mpirun [root, oversubscribed] -np N [--mpirun ARGS] parallel ... */
            argv_words(&ap, mpirun);
            if (x.target != CG_TARGET_MPICH && !own_mpirun) {
                if (geteuid() == 0)
                    argv_push(&ap, "--allow-run-as-root");
                argv_push(&ap, "--oversubscribe");
                /* the transport's settings reach the ranks on other hosts too (MPICH's
                 * mpirun passes the whole environment) */
                const char *pass[] = {"MPIRIO_COMPUTE", "MPIRIO_COLL",
                                      "MPIRIO_BOARD_SIZE", NULL};
                for (int i = 0; pass[i]; i++)
                    if (getenv(pass[i])) {
                        argv_push(&ap, "-x");
                        argv_push(&ap, pass[i]);
                    }
            }
            argv_push(&ap, "-n");
            char np[16];
            snprintf(np, sizeof np, "%d", x.s->ndsps);
            argv_push(&ap, np);
            if (c->val[O_MPIRUN])
                argv_words(&ap, c->val[O_MPIRUN]);
        }
        argv_push(&ap, exe_p);
        argv_push(&as, exe_s);
        const char *common[] = {"--platform", plat, "--quiet", NULL};
        for (int i = 0; common[i]; i++) {
            argv_push(&ap, common[i]);
            argv_push(&as, common[i]);
        }
        argv_push(&ap, "--output-dir");
        argv_push(&ap, odir_p);
        argv_push(&as, "--output-dir");
        argv_push(&as, odir_s);
        if (no_contention) {
            argv_push(&ap, "--no-contention");
            argv_push(&as, "--no-contention");
        }
        if (c->val[O_PIN]) {
            argv_push(&ap, "--pin");
            argv_push(&as, "--pin");
        }
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "MPIRIO_TRACE=", 13) != 0 &&
                strncmp(*e, "MPIRIO_NO_CONTENTION=", 21) != 0) {
                argv_push(&env, *e);
                argv_push(&env_s, *e);
            }
        if (trace) {
            char *t = malloc(strlen(trace) + 16);
            if (!t)
                ice("out of memory");
            sprintf(t, "MPIRIO_TRACE=%s", trace);
            argv_push(&env, t);
            free(t);
        }
        bool timed_out = false;
        /* under MPI and on threads the reference runs first: the parallel run's
         * wall-clock is its own */
        Child cs = host ? child_start(as.v, out_s, err_s, env_s.v, false) : (Child){0};
        int ss = host ? child_finish(cs, "run: running the sequential reference") : 0;
        double t0 = ir_wall_seconds();
        Child cp = child_start(ap.v, out_p, err_p, env.v, mpi);
        if (!host)
            cs = child_start(as.v, out_s, err_s, env_s.v, false);
        int sp = host ? child_finish_within(cp, timeout, &timed_out)
                      : child_finish(cp, "run: running the programs");
        mpirun_s = ir_wall_seconds() - t0;
        if (!host)
            ss = child_finish(cs, "run: running the programs");
        progress_end();
        ran = true;
        if (mpi && !cp.started)
            cli_error("cannot start %s (set TGC_MPIRUN)", mpirun);
        if (timed_out)
            fprintf(stderr,
                    "tgc: error: the parallel program did not end within %.0f s %s "
                    "(--timeout S)\n",
                    timeout, mpi ? "under MPI (a deadlock?)" : "on threads");
        char *tp = child_read_file(out_p, NULL), *ts = child_read_file(out_s, NULL);
        parse_report(&rp, tp ? tp : strdup(""), x.s->ndsps);
        parse_report(&rs, ts ? ts : strdup(""), 1);
        /* a program's exit status 3 is a deadlock, its report on stderr (docs/cli.md) */
        rp.deadlock = !mpi && sp == TGC_EXIT_DEADLOCK;
        rs.deadlock = ss == TGC_EXIT_DEADLOCK;
        if (sp != 0 || ss != 0 || !rp.ok || !rs.ok) {
            if (rp.deadlock || rs.deadlock)
                fprintf(stderr, "tgc: error: the %s program deadlocked\n",
                        rp.deadlock ? "parallel" : "sequential");
            else
                fprintf(stderr, "tgc: error: the %s program failed (exit status %d)\n",
                        sp != 0 || !rp.ok ? "parallel" : "sequential", sp != 0 ? sp : ss);
            print_file_to_stderr(sp != 0 || !rp.ok ? err_p : err_s, "its messages");
            status = rp.deadlock || rs.deadlock ? TGC_EXIT_DEADLOCK : TGC_EXIT_INPUT;
        }
        argv_free(&ap);
        argv_free(&as);
        argv_free(&env);
        argv_free(&env_s);
    }
    if (ran && status == TGC_EXIT_OK) {
        int nout = 0;
        bool ceq = strcmp(rp.checksums, rs.checksums) == 0 && rp.nedges == x.g->nedges;
        bool oeq = outputs_equal(x.g, odir_p, odir_s, &nout);
        if (!ceq || !oeq)
            status = TGC_EXIT_INPUT;
        const char *mname = x.from_file ? "from-file" : opt_method_name(x.method);
        int merged = 0, piped = 0;
        for (int m = 0; m < x.s->nmsgs; m++) {
            merged += x.s->msgs[m].nedges > 1;
            piped += x.s->msgs[m].pipelined;
        }
        double speedup = rp.cycles > 0 ? (double)rs.cycles / (double)rp.cycles : 0;
        /* the predicted period (the evaluator's steady state) beside the measured one */
        EvalPeriod per;
        if (eval_period_of(x.s, &per) != 0)
            ice("a verified schedule deadlocks in its steady state");
        TgcThroughput thr;
        tgc_throughput(x.s, &per, &thr, x.arena);
        bool measured = !host && rp.period_iterations > 0; /* simulated cycles only */
        Ratio mper = measured ? period_ratio(rp.period_cycles, rp.period_iterations)
                              : (Ratio){0, 1};
        bool per_eq = measured && per.found && period_ratio_cmp(mper, per.period) == 0;
        const char *target_name = x.target == CG_TARGET_OPENMPI   ? "openmpi"
                                  : x.target == CG_TARGET_MPICH   ? "mpich"
                                  : x.target == CG_TARGET_THREADS ? "threads"
                                                                  : "sim";
        /* under MPI and on threads the cycles are wall-clock at the platform's DSP
         * clock (on threads the sequential program's too) */
        double hz = 1e6 * (double)x.s->p->dsp_clock_mhz;
        double wall_s = (double)rp.cycles / hz, seq_wall_s = (double)rs.cycles / hz;
        const char *report = c->val[O_REPORT];
        if (report && write_report(&x, &rp, target_name, report) != 0) {
            status = TGC_EXIT_INPUT;
            report = NULL;
        }
        if (c->json) {
            json_t *o = json_object();
            json_object_set_new(o, "graph", json_string(x.g->name ? x.g->name : ""));
            json_object_set_new(o, "file", json_string(x.g->file ? x.g->file : ""));
            json_object_set_new(o, "platform", cli_platform_json(x.s->p));
            json_object_set_new(o, "dsps", json_integer(x.s->ndsps));
            json_object_set_new(o, "tasks", json_integer(x.g->ntasks));
            json_object_set_new(o, "edges", json_integer(x.g->nedges));
            json_object_set_new(o, "iterations", json_integer(x.g->iterations));
            json_object_set_new(o, "method", json_string(mname));
            json_object_set_new(o, "contention", json_boolean(!no_contention));
            json_object_set_new(o, "target", json_string(target_name));
            if (mpi) { /* the parallel program's wall-clock and the whole mpirun's */
                json_object_set_new(o, "ranks", json_integer(x.s->ndsps));
                json_object_set_new(o, "wall_clock_s", json_real(wall_s));
                json_object_set_new(o, "mpirun_s", json_real(mpirun_s));
            }
            if (threads) { /* both programs' wall-clock on this host */
                json_object_set_new(o, "threads", json_integer(x.s->ndsps));
                json_object_set_new(o, "wall_clock_s", json_real(wall_s));
                json_object_set_new(o, "sequential_wall_s", json_real(seq_wall_s));
                json_object_set_new(o, "pinned", json_boolean(c->val[O_PIN] != NULL));
            }
            json_object_set_new(o, "checksums_equal", json_boolean(ceq));
            json_object_set_new(o, "checksum_total",
                                rp.total[0] ? json_string(rp.total) : json_null());
            json_object_set_new(o, "outputs_equal", json_boolean(oeq));
            json_object_set_new(o, "output_files", json_integer(nout));
            json_object_set_new(o, "simulated_cycles", json_integer(rp.cycles));
            json_object_set_new(o, "schedule_length", json_integer(x.r.length));
            /* predicted_cycles: schedule_length, the name run and compile had first */
            json_object_set_new(o, "predicted_cycles", json_integer(x.r.length));
            json_object_set_new(o, "cycles_equal", json_boolean(rp.cycles == x.r.length));
            tgc_throughput_json(o, &thr, x.g);
            json_t *mp = json_null(), *mx = json_null();
            if (measured) {
                mp = mper.den == 1 ? json_integer(mper.num)
                                   : json_real(period_ratio_value(mper));
                mx = json_object();
                json_object_set_new(mx, "cycles", json_integer(mper.num));
                json_object_set_new(mx, "iterations", json_integer(mper.den));
            }
            json_object_set_new(o, "simulated_period", mp);
            json_object_set_new(o, "simulated_period_exact", mx);
            json_object_set_new(o, "period_equal",
                                measured && per.found ? json_boolean(per_eq)
                                                      : json_null());
            json_object_set_new(o, "sequential_cycles", json_integer(rs.cycles));
            json_object_set_new(o, "speedup", json_real(speedup));
            json_object_set_new(o, "packets", json_integer(rp.packets));
            json_object_set_new(o, "predicted_packets",
                                json_integer(rp.predicted_packets));
            json_object_set_new(o, "messages", json_integer(x.s->nmsgs));
            json_object_set_new(o, "aggregated", json_integer(merged));
            json_object_set_new(o, "pipelined", json_integer(piped));
            json_t *ds = json_array();
            for (int k = 0; k < x.s->ndsps; k++) {
                json_t *e = json_object();
                json_object_set_new(e, "dsp", json_integer(k));
                json_object_set_new(e, "compute", json_integer(rp.dsp[k].compute));
                json_object_set_new(e, "end", json_integer(rp.dsp[k].end));
                /* from the integers, not the program's 4-digit print (docs/cli.md) */
                double u = rp.cycles > 0 ? (double)rp.dsp[k].compute / (double)rp.cycles
                                         : rp.dsp[k].util;
                json_object_set_new(e, "compute_share", json_real(u));
                json_object_set_new(e, "predicted_busy", json_integer(x.r.busy[k]));
                json_array_append_new(ds, e);
            }
            json_object_set_new(o, "per_dsp", ds);
            json_object_set_new(o, "dir", keep ? json_string(dir) : json_null());
            json_object_set_new(o, "trace", trace ? json_string(trace) : json_null());
            json_object_set_new(o, "report", report ? json_string(report) : json_null());
            int js = cli_print_json(o);
            json_decref(o);
            if (js != 0)
                status = js;
        } else {
            printf("tgc run: graph \"%s\", %d DSP%s of %s, %" PRId64
                   " iteration%s, -O %s (%d message%s, %d aggregated, %d pipelined)\n",
                   x.g->name ? ir_escaped(x.g->arena, x.g->name) : "", x.s->ndsps,
                   cli_s(x.s->ndsps),
                   x.s->p->name ? ir_escaped(x.g->arena, x.s->p->name) : "inline",
                   x.g->iterations, cli_s(x.g->iterations), mname, x.s->nmsgs,
                   cli_s(x.s->nmsgs), merged, piped);
            printf("  checksums         %s (%d edge%s, parallel against sequential)\n",
                   ceq ? "equal" : "DIFFERENT", rp.nedges, cli_s(rp.nedges));
            if (nout)
                printf("  output files      %s (%d)\n", oeq ? "equal" : "DIFFERENT",
                       nout);
            if (mpi) {
                printf("  under MPI         %s, %d ranks (mpirun %.3f s in all)\n",
                       target_name, x.s->ndsps, mpirun_s);
                printf("  measured cycles   %lld (wall-clock %.6f s at %" PRId64
                       " MHz)\n",
                       rp.cycles, wall_s, x.s->p->dsp_clock_mhz);
                printf("  predicted cycles  %" PRId64
                       " (%s; measured / predicted %.3f)\n",
                       x.r.length, no_contention ? "no contention" : "with contention",
                       x.r.length > 0 ? (double)rp.cycles / (double)x.r.length : 0.0);
                printf("  sequential cycles %lld on one simulated DSP\n", rs.cycles);
                printf("  messages          %lld (MPI messages of the run)\n",
                       rp.packets);
            } else if (threads) {
                printf("  on threads        %d threads%s\n", x.s->ndsps,
                       c->val[O_PIN] ? ", pinned to the cores" : "");
                printf("  wall-clock        %.6f s parallel, %.6f s sequential (speed-up "
                       "%.2f)\n",
                       wall_s, seq_wall_s, speedup);
                printf("  predicted cycles  %" PRId64
                       " (%.6f s on the platform; measured "
                       "/ predicted %.3f)\n",
                       x.r.length, (double)x.r.length / hz,
                       x.r.length > 0 ? (double)rp.cycles / (double)x.r.length : 0.0);
                printf("  messages          %lld\n", rp.packets);
            } else {
                printf("  simulated cycles  %lld (%s)\n", rp.cycles,
                       no_contention ? "no contention" : "with contention");
                printf("  predicted cycles  %" PRId64 " (%s)\n", x.r.length,
                       rp.cycles == x.r.length
                           ? "equal"
                           : "DIFFERENT: evaluator and runtime disagree");
                printf("  sequential cycles %lld on one DSP (speed-up %.2f)\n", rs.cycles,
                       speedup);
                printf("  packets           %lld (predicted %lld)\n", rp.packets,
                       rp.predicted_packets);
                if (measured) {
                    char cell[32];
                    if (mper.den == 1)
                        snprintf(cell, sizeof cell, "%lld", (long long)mper.num);
                    else
                        snprintf(cell, sizeof cell, "%.1f", period_ratio_value(mper));
                    printf("  simulated period  %s cycles per iteration (%s)\n", cell,
                           !per.found ? "the evaluator finds none"
                           : per_eq   ? "the prediction's"
                                      : "DIFFERENT: evaluator and runtime disagree");
                } else {
                    printf("  simulated period  none: the run is too short to show its "
                           "steady state\n");
                }
            }
            tgc_throughput_print(&thr, x.g);
            printf("  DSP   compute       end  utilisation\n");
            for (int k = 0; k < x.s->ndsps; k++) {
                /* DSPs that did nothing, two or more in a row, on one line */
                int idle = k;
                while (idle < x.s->ndsps && rp.dsp[idle].compute == 0 &&
                       rp.dsp[idle].end == 0)
                    idle++;
                if (idle - k >= 2) {
                    printf("  %d-%d idle\n", k, idle - 1);
                    k = idle - 1;
                    continue;
                }
                printf("  %3d %9lld %9lld  %6.1f%%\n", k, rp.dsp[k].compute,
                       rp.dsp[k].end, 100.0 * rp.dsp[k].util);
            }
            if (ceq && oeq)
                printf("  result            ok: the parallel program computed what the "
                       "sequential one did\n");
            else
                printf("  result            MISMATCH: the parallel program computed "
                       "something else\n");
            if (keep)
                printf("  project, programs and outputs kept in %s\n",
                       ir_escaped(x.g->arena, dir));
            if (trace)
                printf("  trace written to %s (open it in Perfetto)\n",
                       ir_escaped(x.g->arena, trace));
            if (report)
                printf("  report written to %s\n", ir_escaped(x.g->arena, report));
        }
        if (!ceq)
            fprintf(stderr,
                    "tgc: error: the checksums of the parallel and the sequential "
                    "programs differ (tgc run --keep DIR keeps both outputs)\n");
        if (!oeq)
            fprintf(stderr,
                    "tgc: error: the output files of the parallel and the sequential "
                    "programs differ\n");
    }
    if (ran) {
        free_report(&rp);
        free_report(&rs);
    }
    if (!keep) {
        remove_on_signal(NULL);
        remove_tree(dir);
    }
    out_unlock(lock);
    free(dir);
    free(exe_p);
    free(exe_s);
    free(log_p);
    free(log_s);
    free(out_p);
    free(out_s);
    free(err_p);
    free(err_s);
    free(odir_p);
    free(odir_s);
    free(plat);
    tgc_compiled_free(&x);
    return status;
}
