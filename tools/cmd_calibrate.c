/*
 * tools/cmd_calibrate.c - `tgc calibrate --target mpi -n P [-o platform.json]
 * [--graphs G,...]`: measures the MPI machine the generated programs run on and writes
 * the tgc-platform/1 description of it, so that the scheduler and BFCO optimise for it
 * ([BFCO] section 5.3; docs/cluster.md).
 *
 * Runs the micro-benchmarks (tools/calib_mpi.c, built against the MPI transport of
 * libmpirio) under mpirun -np P and fits the platform's parameters, in cycles of the
 * BWDSP clock (500 MHz: the graphs' task costs keep their meaning):
 *   send_overhead, post_overhead, wait_overhead, recv_overhead   the medians of the
 *       calls' own times (MPIRIO_Isend; MPIRIO_Irecv; MPIRIO_Wait and MPIRIO_Recv of an
 *       arrived message);
 *   link_mbps      the median rate of the streaming runs (16 back-to-back Isends);
 *   switch_latency what the smallest ping-pong leaves after the overheads and the
 *       serialisation of two hops (the model's DSP -> switch -> DSP);
 *   eager_limit, handshake   the largest message size after which the ping-pong is
 *       above the model without a handshake by more than half of what the larger sizes
 *       are above it, and the median of that excess over the larger sizes;
 *   dsps_per_board  MPIRIO_COMM_LOCAL's size (the ranks of a node); boards in a chain.
 * Packets are 4 KiB of payload with a 32-byte header (the model's pipelining unit).
 *
 * With --graphs, each graph is then compiled for the written platform and run with
 * `tgc run --target mpi` (MPIRIO_COMPUTE=spin: the DSPs are busy for the tasks' cycles,
 * their kernels included).  A task's cycles are DSP cycles, but under MPI its kernel
 * runs on the host, and a kernel that takes longer there than its cost makes the task
 * last longer than the model says; so the first run also measures every kernel on this
 * host (the sequential program under TGC_KERNEL_TIMES: calls and seconds per task),
 * and the graph is run again, --runs times, with each task's cycles raised to its
 * kernel's mean host time where that is larger (a copy of the graph: host costs).  Per
 * graph the prediction with the graph's costs and what that run measured, the
 * prediction with the host costs, the median of the measured cycles and the error,
 * and the mean of |error| over the graphs are printed.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "cli.h"
#include "locate.h"
#include "output.h"
#include "stats.h"

extern char **environ;

enum { O_TARGET, O_N, O_REPS, O_GRAPHS, O_METHOD, O_RUNS, O_MPIRUN, O_TIMEOUT, O_KPATH };

static const CliOption own[] = {
    {"target", "T",
     "mpi (= openmpi) or mpich: the MPI to measure; threads: this host's threads"},
    {"n", "P",
     "ranks of the measurement and DSPs of the platform written (at least 2; threads: "
     "default the cores)"},
    {"reps", "N", "repetitions of each micro-benchmark (default 200)"},
    {"graphs", "G,...", "then run these graphs on the platform: predicted vs measured"},
    {"O", "METHOD", "the -O of those runs (default bfco)"},
    {"runs", "R", "runs of each graph; the median counts (default 3)"},
    {"mpirun", "ARGS", "more arguments for mpirun (a hostfile: \"--hostfile FILE\")"},
    {"timeout", "S", "end a run after S seconds (default 600)"},
    {"kernel-path", "DIR", "a folder the graphs' kernel files may be in (tgc run's)"},
    {NULL, NULL, NULL},
};

static const CliSpec spec = {
    "calibrate",
    "",
    "Measure an MPI machine with ping-pong and streaming micro-benchmarks under mpirun,\n"
    "fit the overheads, handshake and link rate of the platform model and write a\n"
    "tgc-platform/1 file (-o; default: the standard output, unless --graphs). With\n"
    "--graphs, run each graph on that platform under MPI and compare the measured\n"
    "wall-clock with the prediction (docs/cluster.md). --target threads measures the\n"
    "shared-memory transport the same way, as threads of one process, and runs the\n"
    "graphs with tgc run --target threads, their tasks at their kernels' host time\n"
    "(docs/threads.md).\n",
    CLI_OUTPUT | CLI_JSON,
    own,
    0,
    0,
};

/* ---- processes ---- */

/* Runs argv (its own process group) with stdout to out and stderr to err in
 * environment env; the exit status, or -1 (did not start, a signal, killed after limit
 * seconds). */
static int
run_cmd(char *const *argv, const char *out, const char *err, char *const *env,
        double limit)
{
    bool timed_out;
    return child_finish_within(child_start(argv, out, err, env, true), limit, &timed_out);
}

/* ---- the fit ---- */

#define NSIZES 16

typedef struct Measured {
    int size, local;
    double send, post, wait, recv; /* seconds */
    int npp, nst;
    int pp_bytes[NSIZES], st_bytes[NSIZES];
    double pp[NSIZES], st[NSIZES]; /* seconds */
} Measured;

static bool
parse_measured(const char *text, Measured *m)
{
    memset(m, 0, sizeof *m);
    m->send = m->post = m->wait = m->recv = -1;
    for (const char *line = text; line && *line;) {
        char w[16];
        int b;
        double t;
        if (sscanf(line, "size %d", &b) == 1)
            m->size = b;
        else if (sscanf(line, "local %d", &b) == 1)
            m->local = b;
        else if (sscanf(line, "overhead %15s %lf", w, &t) == 2) {
            if (strcmp(w, "send") == 0)
                m->send = t;
            else if (strcmp(w, "post") == 0)
                m->post = t;
            else if (strcmp(w, "wait") == 0)
                m->wait = t;
            else if (strcmp(w, "recv") == 0)
                m->recv = t;
        } else if (sscanf(line, "pingpong %d %lf", &b, &t) == 2 && m->npp < NSIZES) {
            m->pp_bytes[m->npp] = b;
            m->pp[m->npp++] = t;
        } else if (sscanf(line, "stream %d %lf", &b, &t) == 2 && m->nst < NSIZES) {
            m->st_bytes[m->nst] = b;
            m->st[m->nst++] = t;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return m->size >= 2 && m->local >= 1 && m->send >= 0 && m->post >= 0 &&
           m->wait >= 0 && m->recv >= 0 && m->npp >= 4 && m->nst >= 1;
}

static int64_t
cycles(const Platform *p, double s)
{
    double c = s * 1e6 * (double)p->dsp_clock_mhz;
    return c < 0 ? 0 : (int64_t)llround(c);
}

/* the model's one-way time of an n-byte blocking message between two DSPs of a board,
 * without the handshake (plat_comm_cost with it, ir/platform.c) */
static int64_t
model_eager(const Platform *p, int64_t bytes)
{
    return p->send_overhead + plat_fabric_time(p, 0, 1, bytes) + p->recv_overhead;
}

/* Fills p (the BWDSP defaults, P DSPs) from the measurements; -1 with *why. */
static int
fit(Arena *a, Platform *p, const Measured *m, int P, const char *kind, const char **why)
{
    int dpb = m->local >= 1 && m->local <= P && P % m->local == 0 ? m->local : P;
    p->dsps_per_board = dpb;
    p->nboards = 0; /* plat_set_dsps lays out the boards (a chain) */
    if (plat_set_dsps(a, p, P, why) != 0)
        return -1;
    p->packet_bytes = 4096 + 32;
    p->payload_bytes = 4096;
    p->send_overhead = cycles(p, m->send);
    p->post_overhead = cycles(p, m->post);
    p->wait_overhead = cycles(p, m->wait);
    p->recv_overhead = cycles(p, m->recv);
    double rates[NSIZES];
    for (int i = 0; i < m->nst; i++)
        rates[i] = m->st[i] > 0 ? 8.0 * m->st_bytes[i] / m->st[i] / 1e6 : 0;
    double mbps = stats_median(rates, m->nst);
    p->link_mbps = mbps < 1 ? 1 : mbps > 1e7 ? 10000000 : (int64_t)llround(mbps);
    /* the smallest ping-pong: overheads, two serialisations, the switch */
    p->switch_latency = 0;
    int64_t s0 = cycles(p, m->pp[0]) - model_eager(p, m->pp_bytes[0]);
    p->switch_latency = s0 > 0 ? s0 : 0;
    /* the excess over the model without handshake, per size */
    double ex[NSIZES];
    for (int i = 0; i < m->npp; i++)
        ex[i] = (double)(cycles(p, m->pp[i]) - model_eager(p, m->pp_bytes[i]));
    /* eager limit: the split that best separates a low excess (below) from a high one
     * (above): the largest median difference, the upper half of the sizes at least 2 */
    int best = m->npp - 1;
    double best_gap = 0, hs = 0;
    for (int k = 0; k + 2 < m->npp; k++) {
        double lo[NSIZES], hi[NSIZES];
        int nl = 0, nh = 0;
        for (int i = 0; i < m->npp; i++) {
            if (i <= k)
                lo[nl++] = ex[i];
            else
                hi[nh++] = ex[i];
        }
        double gap = stats_median(hi, nh) - stats_median(lo, nl);
        if (gap > best_gap) {
            best_gap = gap;
            best = k;
            hs = gap;
        }
    }
    if (best_gap <= 0 || best == m->npp - 1) { /* no protocol change seen */
        p->eager_limit = m->pp_bytes[m->npp - 1];
        p->handshake = 0;
    } else {
        p->eager_limit = m->pp_bytes[best];
        p->handshake = (int64_t)llround(hs);
    }
    if (strcmp(kind, "threads") == 0) {
        /* the shared-memory transport moves a message when both sides are there, from
           the sender's buffer into the receiver's (docs/threads.md): every message a
           rendezvous without a handshake, which makes the pipelined receives double
           buffers as on the DSPs */
        p->eager_limit = 0;
        p->handshake = 0;
    }
    p->name = arena_printf(a, "calibrated-%s-%d", kind, P);
    return plat_finish(a, p);
}

/* ---- the command ---- */

typedef struct GraphRun {
    const char *graph;
    long long graph_predicted, graph_measured; /* with the graph's own costs, one run */
    long long predicted, measured;             /* with the host costs, the median */
    int raised;                                /* tasks whose cost the host raised */
    double error;                              /* measured / predicted - 1 */
    bool ok;
    const char *why;
} GraphRun;

/* Writes to out the copy of graph with host costs: each task's cycles the larger of
 * its cost and its kernel's mean host time (times: the sequential program's
 * TGC_KERNEL_TIMES file, "task T calls N seconds S cycles C"), in cycles at hz; the
 * kernels' files named by absolute paths (the copy is elsewhere), the platform left to
 * --platform.  Returns the number of tasks raised, or -1 with *why. */
static int
host_graph(const char *graph, const char *times, double hz, bool replace, const char *out,
           const char **why)
{
    json_error_t je;
    json_t *g = json_load_file(graph, 0, &je);
    FILE *f = fopen(times, "r");
    json_t *tasks = json_object_get(g, "tasks");
    int raised = 0, seen = 0;
    char line[256];
    *why = NULL;
    while (g && f && json_is_array(tasks) && fgets(line, sizeof line, f)) {
        int t;
        long long calls, cost;
        double sec;
        if (sscanf(line, "task %d calls %lld seconds %lf cycles %lld", &t, &calls, &sec,
                   &cost) != 4 ||
            !json_is_object(json_array_get(tasks, (size_t)t))) {
            *why = "unreadable kernel times";
            break;
        }
        seen++;
        long long host = calls > 0 ? llround(sec / (double)calls * hz) : 0;
        if (replace) /* threads: a task lasts its kernel's host time, whatever its cost */
            host = host > 0 ? host : 1;
        raised += replace ? host != cost : host > cost;
        json_object_set_new(json_array_get(tasks, (size_t)t), "cycles",
                            json_integer(host > cost || replace ? host : cost));
    }
    if (f)
        fclose(f);
    if (!*why && (!g || !json_is_array(tasks) || seen != (int)json_array_size(tasks)))
        *why = !g ? "the graph does not load" : "no kernel times for every task";
    json_t *k = json_object_get(g, "kernels");
    const char *keys[] = {"source", "header"};
    for (int i = 0; !*why && i < 2; i++) {
        const char *v = json_string_value(json_object_get(k, keys[i]));
        if (!v || v[0] == '/')
            continue;
        const char *slash = strrchr(graph, '/');
        char rel[4096];
        snprintf(rel, sizeof rel, "%.*s%s", slash ? (int)(slash - graph + 1) : 0, graph,
                 v);
        char *abs = realpath(rel, NULL);
        if (!abs) {
            *why = "a kernel file does not resolve";
            break;
        }
        json_object_set_new(k, keys[i], json_string(abs));
        free(abs);
    }
    json_object_del(g, "platform");
    if (!*why && json_dump_file(g, out, JSON_INDENT(2)) != 0)
        *why = "cannot write the copy with host costs";
    json_decref(g);
    return *why ? -1 : raised;
}

/* One `tgc run --target` of graph on plat (more words in extra, NULL-ended); its JSON
 * when it ran and the checksums are equal, else NULL and the first line of what it
 * printed in *why (in a). */
static json_t *
run_graph(Arena *a, const char *exe, const char *graph, const char *plat,
          const char *tname, const char *method, int64_t timeout, const char *mpirun_args,
          char *const *extra, char *const *env, const char *fo, const char *fe,
          const char **why)
{
    Argv v = {0};
    argv_push(&v, exe);
    argv_push(&v, "run");
    argv_push(&v, graph);
    argv_push(&v, "--platform");
    argv_push(&v, plat);
    argv_push(&v, "--target");
    argv_push(&v, tname);
    argv_push(&v, "-O");
    argv_push(&v, method);
    argv_push(&v, "--json");
    char to[24];
    snprintf(to, sizeof to, "%lld", (long long)timeout);
    argv_push(&v, "--timeout");
    argv_push(&v, to);
    if (mpirun_args) {
        argv_push(&v, "--mpirun");
        argv_push(&v, mpirun_args);
    }
    for (int i = 0; extra && extra[i]; i++)
        argv_push(&v, extra[i]);
    int code = run_cmd(v.v, fo, fe, env, (double)timeout + 60);
    argv_free(&v);
    json_error_t je;
    json_t *o = json_load_file(fo, 0, &je);
    if (code == 0 && o && json_is_true(json_object_get(o, "checksums_equal")) &&
        json_integer_value(json_object_get(o, "predicted_cycles")) > 0)
        return o;
    json_decref(o);
    char *e = child_read_file(fe, NULL);
    char *nl = e ? strchr(e, '\n') : NULL;
    if (nl)
        *nl = 0;
    *why = arena_strdup(a, e && *e ? e : "tgc run failed");
    free(e);
    return NULL;
}

static char *
self_exe(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return strdup("tgc");
    buf[n] = 0;
    return strdup(buf);
}

static int
cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* Every graph of --graphs can be read: otherwise "G: error: cannot read it: WHY" for each
 * that cannot, false. */
static bool
graphs_readable(const char *list)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        ice("out of memory");
    Arena *a = arena_new();
    bool ok = true;
    for (char *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
        FILE *f = fopen(g, "r");
        if (f) {
            fclose(f);
            continue;
        }
        fprintf(stderr, "%s: error: cannot read it: %s\n", ir_escaped(a, g),
                strerror(errno));
        ok = false;
    }
    arena_free(a);
    free(copy);
    return ok;
}

const CliSpec *const cmd_calibrate_spec = &spec;

int
cmd_calibrate(Cli *c)
{
    int status;
    const char *target = c->val[O_TARGET];
    int64_t P = 0, reps = 200, runs = 3, timeout = 600;
    bool mpich = false, threads = false;
    if (!target)
        return cli_usage(&spec, "--target mpi (or mpich, threads) is required");
    if (strcmp(target, "mpi") == 0 || strcmp(target, "openmpi") == 0)
        mpich = false;
    else if (strcmp(target, "mpich") == 0)
        mpich = true;
    else if (strcmp(target, "threads") == 0)
        threads = true;
    else
        return cli_usage(&spec, "unknown --target \"%s\" (mpi, openmpi, mpich, threads)",
                         target);
    const char *tname = threads ? "threads" : mpich ? "mpich" : "openmpi";
    if (!c->val[O_N] && !threads)
        return cli_usage(&spec, "-n P is required");
    if (threads && c->val[O_MPIRUN])
        return cli_usage(&spec, "--mpirun applies to the MPI targets only");
    if (!c->val[O_N]) { /* threads: one DSP per core this process may use */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        P = n >= 2 ? n : 2;
    }
    if ((c->val[O_N] && !cli_int_value(&spec, "-n", c->val[O_N], 2, 4096, &P)) ||
        (c->val[O_REPS] &&
         !cli_int_value(&spec, "--reps", c->val[O_REPS], 5, 100000, &reps)) ||
        (c->val[O_RUNS] &&
         !cli_int_value(&spec, "--runs", c->val[O_RUNS], 1, 1000, &runs)) ||
        (c->val[O_TIMEOUT] &&
         !cli_int_value(&spec, "--timeout", c->val[O_TIMEOUT], 1, 86400, &timeout)))
        return TGC_EXIT_USAGE;
    const char *calib = threads ? tgc_paths()->calib_threads
                        : mpich ? tgc_paths()->calib_mpich
                                : tgc_paths()->calib_openmpi;
    if (!*calib || access(calib, X_OK) != 0) {
        if (threads)
            fprintf(stderr,
                    "tgc: error: --target threads: tgc-calib-threads, libmpirio's "
                    "micro-benchmarks on threads, is not there (rebuild and "
                    "install tgc, docs/threads.md)\n");
        else
            fprintf(stderr,
                    "tgc: error: --target %s: libmpirio's %s transport is not there "
                    "(install %s and rebuild and install tgc, docs/cluster.md)\n",
                    target, mpich ? "MPICH" : "Open MPI",
                    mpich ? "libmpich-dev and mpich" : "libopenmpi-dev and openmpi-bin");
        return TGC_EXIT_INPUT;
    }
    const char *out = c->output;
    if (out && strcmp(out, "-") != 0 && out_check(out) != 0)
        return TGC_EXIT_INPUT;
    if (c->val[O_GRAPHS] && !graphs_readable(c->val[O_GRAPHS]))
        return TGC_EXIT_INPUT; /* before minutes of measurements */
    const char *mpirun = mpich ? "mpirun.mpich" : "mpirun.openmpi";
    bool own_mpirun = getenv("TGC_MPIRUN") && *getenv("TGC_MPIRUN");
    if (own_mpirun) /* srun, a wrapper: only -n P and --mpirun's words are added */
        mpirun = getenv("TGC_MPIRUN");
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/tgc-calibrate-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "tgc: error: cannot create a temporary directory: %s\n",
                strerror(errno));
        return TGC_EXIT_INPUT;
    }
    char fo[600], fe[600], fplat[600];
    snprintf(fo, sizeof fo, "%s/calib.out", dir);
    snprintf(fe, sizeof fe, "%s/calib.err", dir);
    snprintf(fplat, sizeof fplat, "%s/platform.json", dir);
    /* 1. the micro-benchmarks */
    Argv w = {0};
    char np[24];
    snprintf(np, sizeof np, "%lld", (long long)P);
    if (threads)
        mpirun = "tgc-calib-threads";
    if (!threads) {
        argv_words(&w, mpirun);
        if (!mpich && !own_mpirun) {
            if (geteuid() == 0)
                argv_push(&w, "--allow-run-as-root");
            argv_push(&w, "--oversubscribe");
        }
        argv_push(&w, "-n");
        argv_push(&w, np);
        if (c->val[O_MPIRUN])
            argv_words(&w, c->val[O_MPIRUN]);
    }
    argv_push(&w, calib);
    char rs[24];
    snprintf(rs, sizeof rs, "%lld", (long long)reps);
    argv_push(&w, rs);
    if (threads)
        argv_push(&w, np);
    int rc = run_cmd(w.v, fo, fe, environ, (double)timeout);
    argv_free(&w);
    char *text = child_read_file(fo, NULL);
    Measured m;
    Arena *a = arena_new();
    Platform *p = plat_bwdsp_defaults(a);
    const char *why = NULL;
    status = TGC_EXIT_OK;
    if (rc != 0 || !text || !parse_measured(text, &m)) {
        char *e = child_read_file(fe, NULL);
        fprintf(
            stderr, "tgc: error: the micro-benchmarks under %s failed (%s)%s%s", mpirun,
            rc == -1 ? "did not start, or were killed after --timeout" : "exit status",
            e && *e ? ":\n" : "\n", e ? e : "");
        free(e);
        status = TGC_EXIT_INPUT;
    } else if (fit(a, p, &m, (int)P, threads ? "threads" : "mpi", &why) != 0) {
        fprintf(stderr, "tgc: error: the fitted platform is not valid: %s\n",
                why ? why : "?");
        status = TGC_EXIT_INPUT;
    }
    free(text);
    char *pj = status == TGC_EXIT_OK ? cg_platform_json_explicit(p) : NULL;
    if (pj && out_write_file(fplat, pj, strlen(pj)) != 0)
        status = TGC_EXIT_INPUT;
    /* 2. the graphs on that platform */
    int ng = 0;
    GraphRun *gr = NULL;
    if (status == TGC_EXIT_OK && c->val[O_GRAPHS]) {
        char *list = strdup(c->val[O_GRAPHS]), *save = NULL, *exe = self_exe();
        if (!list || !exe)
            ice("out of memory");
        Argv env = {0};
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "MPIRIO_COMPUTE=", 15) != 0)
                argv_push(&env, *e);
        /* MPI: the DSPs busy for the tasks' cycles; threads: for their kernels' time */
        argv_push(&env, threads ? "MPIRIO_COMPUTE=none" : "MPIRIO_COMPUTE=spin");
        Argv envk = {0}; /* the first run: the kernels' host times as well */
        char fk[600], fh[600];
        snprintf(fk, sizeof fk, "%s/kernel-times.txt", dir);
        snprintf(fh, sizeof fh, "%s/host-costs.json", dir);
        for (int i = 0; i < env.n; i++)
            if (strncmp(env.v[i], "TGC_KERNEL_TIMES=", 17) != 0)
                argv_push(&envk, env.v[i]);
        char *kt = arena_printf(a, "TGC_KERNEL_TIMES=%s", fk);
        argv_push(&envk, kt);
        const char *method = c->val[O_METHOD] ? c->val[O_METHOD] : "bfco";
        double hz = 1e6 * (double)p->dsp_clock_mhz;
        for (char *g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
            gr = realloc(gr, sizeof *gr * (size_t)(ng + 1));
            if (!gr)
                ice("out of memory");
            GraphRun *r = &gr[ng++];
            *r = (GraphRun){.graph = g};
            unlink(fk);
            char *kp[] = {"--kernel-path", (char *)c->val[O_KPATH], NULL};
            json_t *o =
                run_graph(a, exe, g, fplat, tname, method, timeout, c->val[O_MPIRUN],
                          c->val[O_KPATH] ? kp : NULL, envk.v, fo, fe, &r->why);
            if (!o)
                continue;
            r->graph_predicted =
                json_integer_value(json_object_get(o, "predicted_cycles"));
            r->graph_measured =
                json_integer_value(json_object_get(o, "simulated_cycles"));
            json_decref(o);
            r->raised = host_graph(g, fk, hz, threads, fh, &r->why);
            if (r->raised < 0)
                continue;
            /* the copy names the kernels by absolute paths: their folder is allowed */
            const char *slash = strrchr(g, '/');
            char *kdir = slash ? arena_printf(a, "%.*s", (int)(slash - g), g) : ".";
            char *extra[] = {"--kernel-path", kdir && *kdir ? kdir : "/",
                             c->val[O_KPATH] ? "--kernel-path" : NULL,
                             (char *)c->val[O_KPATH], NULL};
            long long *meas = calloc((size_t)runs, sizeof *meas);
            if (!meas)
                ice("out of memory");
            int nm = 0;
            for (int k = 0; k < runs; k++) {
                o = run_graph(a, exe, fh, fplat, tname, method, timeout, c->val[O_MPIRUN],
                              extra, env.v, fo, fe, &r->why);
                if (!o)
                    break;
                r->predicted = json_integer_value(json_object_get(o, "predicted_cycles"));
                meas[nm++] = json_integer_value(json_object_get(o, "simulated_cycles"));
                json_decref(o);
            }
            if (nm == runs) {
                qsort(meas, (size_t)nm, sizeof *meas, cmp_ll);
                r->measured =
                    nm % 2 ? meas[nm / 2] : (meas[nm / 2 - 1] + meas[nm / 2]) / 2;
                r->error = (double)r->measured / (double)r->predicted - 1;
                r->ok = true;
                r->why = NULL;
            }
            free(meas);
        }
        unlink(fk);
        unlink(fh);
        argv_free(&envk);
        argv_free(&env);
        free(exe);
        /* the graph names point into list: kept until the end */
        for (int i = 0; i < ng; i++)
            gr[i].graph = arena_strdup(a, gr[i].graph);
        free(list);
    }
    /* 3. the report */
    if (status == TGC_EXIT_OK) {
        double sum = 0;
        int nok = 0;
        for (int i = 0; i < ng; i++)
            if (gr[i].ok) {
                sum += fabs(gr[i].error);
                nok++;
            }
        if (out && out_write_file(out, pj, strlen(pj)) != 0)
            status = TGC_EXIT_INPUT;
        else if (c->json) {
            json_t *o = json_object();
            json_object_set_new(o, "target", json_string(tname));
            json_object_set_new(o, "ranks", json_integer(P));
            json_error_t je;
            json_object_set_new(o, "platform", json_loads(pj, 0, &je));
            json_t *ms = json_object();
            json_object_set_new(ms, "send_s", json_real(m.send));
            json_object_set_new(ms, "post_s", json_real(m.post));
            json_object_set_new(ms, "wait_s", json_real(m.wait));
            json_object_set_new(ms, "recv_s", json_real(m.recv));
            json_t *pp = json_array(), *st = json_array();
            for (int i = 0; i < m.npp; i++)
                json_array_append_new(
                    pp, json_pack("{s:i,s:f,s:I}", "bytes", m.pp_bytes[i], "seconds",
                                  m.pp[i], "model_cycles",
                                  (json_int_t)plat_comm_cost(p, 0, 1, m.pp_bytes[i])));
            for (int i = 0; i < m.nst; i++)
                json_array_append_new(st, json_pack("{s:i,s:f}", "bytes", m.st_bytes[i],
                                                    "seconds", m.st[i]));
            json_object_set_new(ms, "pingpong", pp);
            json_object_set_new(ms, "stream", st);
            json_object_set_new(o, "measured", ms);
            json_t *ga = json_array();
            for (int i = 0; i < ng; i++) {
                json_t *g = json_object();
                json_object_set_new(g, "graph", json_string(gr[i].graph));
                json_object_set_new(g, "ok", json_boolean(gr[i].ok));
                if (gr[i].graph_predicted > 0) {
                    json_object_set_new(g, "graph_cost_predicted_cycles",
                                        json_integer(gr[i].graph_predicted));
                    json_object_set_new(g, "graph_cost_measured_cycles",
                                        json_integer(gr[i].graph_measured));
                }
                if (gr[i].ok) {
                    json_object_set_new(g, "host_raised_tasks",
                                        json_integer(gr[i].raised));
                    json_object_set_new(g, "predicted_cycles",
                                        json_integer(gr[i].predicted));
                    json_object_set_new(g, "measured_cycles",
                                        json_integer(gr[i].measured));
                    json_object_set_new(g, "error", json_real(gr[i].error));
                } else
                    json_object_set_new(g, "why",
                                        json_string(gr[i].why ? gr[i].why : ""));
                json_array_append_new(ga, g);
            }
            json_object_set_new(o, "graphs", ga);
            json_object_set_new(o, "mean_abs_error",
                                nok ? json_real(sum / nok) : json_null());
            /* the same as rows for the benchmark harness (bench json-rows) */
            json_t *rows = json_array();
            json_array_append_new(
                rows, json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "section",
                                "fitted", "send_overhead", (json_int_t)p->send_overhead,
                                "post_overhead", (json_int_t)p->post_overhead,
                                "wait_overhead", (json_int_t)p->wait_overhead,
                                "recv_overhead", (json_int_t)p->recv_overhead,
                                "link_mbps", (json_int_t)p->link_mbps, "switch_latency",
                                (json_int_t)p->switch_latency, "eager_limit",
                                (json_int_t)p->eager_limit, "handshake",
                                (json_int_t)p->handshake));
            for (int i = 0; i < ng; i++)
                if (gr[i].ok)
                    json_array_append_new(
                        rows,
                        json_pack("{s:s,s:s,s:I,s:I,s:f,s:i,s:I,s:I,s:f}", "section",
                                  "graphs", "graph", gr[i].graph, "predicted_cycles",
                                  (json_int_t)gr[i].predicted, "measured_cycles",
                                  (json_int_t)gr[i].measured, "error_percent",
                                  100 * gr[i].error, "host_raised_tasks", gr[i].raised,
                                  "graph_cost_predicted_cycles",
                                  (json_int_t)gr[i].graph_predicted,
                                  "graph_cost_measured_cycles",
                                  (json_int_t)gr[i].graph_measured,
                                  "graph_cost_error_percent",
                                  100 * ((double)gr[i].graph_measured /
                                             (double)gr[i].graph_predicted -
                                         1)));
            json_array_append_new(
                rows, json_pack("{s:s,s:i,s:I,s:o}", "section", "summary", "graphs", nok,
                                "runs", (json_int_t)runs, "mean_abs_error_percent",
                                nok ? json_real(100 * sum / nok) : json_null()));
            json_object_set_new(o, "rows", rows);
            status = cli_print_json(o);
            json_decref(o);
        } else {
            if (!out && !ng)
                fputs(pj, stdout);
            FILE *f = !out && !ng ? stderr : stdout;
            fprintf(f,
                    "tgc calibrate: %s, %lld ranks (%d per board): send %lld, post %lld, "
                    "wait %lld, recv %lld cycles; link %lld Mbit/s, switch %lld cycles, "
                    "eager limit %lld bytes, handshake %lld cycles (at %lld MHz)\n",
                    threads ? "threads"
                    : mpich ? "MPICH"
                            : "Open MPI",
                    (long long)P, p->dsps_per_board, (long long)p->send_overhead,
                    (long long)p->post_overhead, (long long)p->wait_overhead,
                    (long long)p->recv_overhead, (long long)p->link_mbps,
                    (long long)p->switch_latency, (long long)p->eager_limit,
                    (long long)p->handshake, (long long)p->dsp_clock_mhz);
            fprintf(f, "  %-9s %12s %14s\n", "ping-pong", "measured us", "model us");
            for (int i = 0; i < m.npp; i++)
                fprintf(f, "  %9d %12.3f %14.3f\n", m.pp_bytes[i], m.pp[i] * 1e6,
                        plat_cycles_to_us(p, plat_comm_cost(p, 0, 1, m.pp_bytes[i])));
            if (ng) {
                fprintf(f, "  %-36s %24s | %-41s\n", "", "the graph's costs (1 run)",
                        "host costs (median)");
                fprintf(f, "  %-36s %11s %12s | %6s %11s %12s %8s\n", "graph",
                        "predicted", "measured", "raised", "predicted", "measured",
                        "error");
                for (int i = 0; i < ng; i++) {
                    if (gr[i].ok)
                        fprintf(f, "  %-36s %11lld %12lld | %6d %11lld %12lld %+7.1f%%\n",
                                ir_escaped(a, gr[i].graph), gr[i].graph_predicted,
                                gr[i].graph_measured, gr[i].raised, gr[i].predicted,
                                gr[i].measured, 100 * gr[i].error);
                    else
                        fprintf(f, "  %-36s not run: %s\n", ir_escaped(a, gr[i].graph),
                                ir_escaped(a, gr[i].why));
                }
                if (nok)
                    fprintf(f,
                            "  mean |error| %.1f%% over %d graph%s (host costs, median "
                            "of %lld run%s each, MPIRIO_COMPUTE=%s)\n",
                            100 * sum / nok, nok, nok == 1 ? "" : "s", (long long)runs,
                            runs == 1 ? "" : "s", threads ? "none" : "spin");
            }
        }
    }
    int nbad = 0;
    for (int i = 0; i < ng; i++)
        nbad += !gr[i].ok;
    if (status == TGC_EXIT_OK && nbad) {
        fprintf(
            stderr,
            "tgc: error: %d of the %d graphs of --graphs not run (the table says why)\n",
            nbad, ng);
        status = TGC_EXIT_INPUT;
    }
    free(gr);
    free(pj);
    unlink(fo);
    unlink(fe);
    unlink(fplat);
    rmdir(dir);
    arena_free(a);
    return status;
}
