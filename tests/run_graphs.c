/*
 * tests/run_graphs.c - the end-to-end check of the execution model: `tgc run --json` on
 * graphs, for every -O mode, asserting that the parallel program's checksums and output
 * files equal the sequential program's, that nothing deadlocks, and that the simulated
 * cycles equal the compiler's predicted cycles exactly (docs/execution-model.md), with
 * contention (--contention) or without (the default: tgc run --no-contention).
 *
 *   run_graphs --tgc PATH --testcases DIR [--modes none,ma,cp,bfco] [--contention]
 *   run_graphs --tgc PATH --random N [--seed S] [--multirate] [--modes ...]
 * [--contention]
 *              [--keep DIR]
 *   run_graphs --tgc PATH --gen CLASSES [--gen-seeds N] [--first-seed S]
 *              [--platforms P,...] [--modes ...] [--contention]
 *   run_graphs --tgc PATH --target T --ranks 4,8 (--testcases DIR | --apps DIR |
 *              --files F,... | --random N) [--modes ...] [--cycle]
 *
 * --testcases runs every tgc-graph/1 file below DIR but subgraphs (testcases/invalid
 * excepted, and testcases/apps, which bench_apps --test runs with its output checks), on
 * its own platform (the runtime simulates both models); a graph with "x-expect":
 * "checksums differ" breaks the kernel rules on purpose and must be reported (exit status
 * 1).
 * --random generates N graphs from seed S: 2 to 16 DSPs (presets and inline platforms
 * with random overheads, eager limits and copy speeds), random DAGs with delay edges
 * (forward and backward, delays 1 to 3), heterogeneous costs, pins, zero-byte and large
 * edges; with --multirate, random multi-rate graphs instead (random_sdf_graph: rates,
 * initial tokens, feedback, state channels, pins per firing), which tgc expands before
 * it schedules them, and each of them, in one -O mode (graph k in mode k mod the modes),
 * also as the file `tgc expand` writes, whose run must print the same cycles, packets
 * and checksum total.  --gen runs `tgc gen --class C --seed K --platform P` for every
 * class, seed S .. S + N - 1 (default 1 .. 5) and platform (default
 * bwdsp-1board,bwdsp-2board, bwdsp-4board) and prints per class and platform the mean
 * predicted length and the largest |simulated / predicted - 1| (which must be 0).  Exit
 * status 0 when every run passed.
 *
 * --target T --ranks 4,8 runs the programs under real MPI (tgc run --target T): the
 * testcases and applications on the preset of that many DSPs (where their pins allow;
 * a graph with costs per DSP of its own platform on that platform), STG and DOT files
 * imported with that many DSPs, random graph k on ranks[k % count].
 *
 * --cycle runs each graph once, in one (ranks, mode) pair: the pair it can run that has
 * the fewest passes so far in its set (testcases, applications, random graphs), the
 * pairs taken in turn among equals; then each pair still without a pass on the first
 * graph that can run it.  It prints the passes per set and pair, and a pair of a set
 * without a pass fails the suite: every -O mode on every count of ranks without running
 * every graph in every pair.
 *
 * A run the compiler refuses because its schedule deadlocks in the execution model is
 * skipped, not failed, but only when tgc says exactly that (refused_with: exit status
 * 1, no output, the one diagnostic "GRAPH: error: schedule deadlocks: ..."); so is one
 * es refuses for having more configurations than --es-limit ("GRAPH: error: es: more
 * than ..."), reported as tgc's refusal and never a pass (--cycle then takes the graph's
 * next pair).  A suite in which more than --max-refused PERCENT (default 10) of the runs
 * were refused as deadlocking fails, as does one in which nothing passed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ir.h"

extern char **environ;

static const char *tgc = NULL;
static const char *modes[8];
static int nmodes;
static char tmpdir[256];
static int runs, failures, skipped, passed, es_refused;
static int expansions; /* --multirate: graphs whose tgc expand file ran the same */
/* the period (docs/throughput.md): runs whose period was compared with the bound, runs
 * whose simulated period was compared with the predicted one, runs without a period */
static int period_checked, period_measured, period_none;
static double max_refused = 10; /* --max-refused: percent of the runs */
static const char *keep = NULL;
static bool contention = false;   /* --contention: tgc run without --no-contention */
static bool multirate = false;    /* --multirate: --random graphs are multi-rate */
static const char *target = NULL; /* --target T: tgc run --target T (real MPI) */
static int ranks[4], nranks;      /* --ranks 4,8: the DSP counts of the MPI runs */
/* what the last run of check_run printed (--json): its packets and checksum total */
static long long last_packets = -1;
static char last_total[32];

/* ---- running tgc
 * ----------------------------------------------------------------------- */

/* Runs argv (tgc ...) and returns the JSON it printed, or NULL. */
static json_t *
run_json(char *const *argv)
{
    char out[300];
    snprintf(out, sizeof out, "%s/bench.json", tmpdir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int st = -1;
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) == 0)
        waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    json_error_t je;
    json_t *o = json_load_file(out, 0, &je);
    unlink(out);
    return o;
}

/* The whole of a small file (malloc'd, NUL-terminated; "" when unreadable). */
static char *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 4096, n = 0, got;
    char *s = malloc(cap);
    if (!s)
        abort();
    while (f && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0 && !(s = realloc(s, cap *= 2)))
            abort();
    }
    if (f)
        fclose(f);
    s[n] = 0;
    if (len)
        *len = n;
    return s;
}

/* A refusal by tgc: exit status 1, nothing on stdout, and on stderr exactly one line
 * "GRAPH: error: WHAT..." naming the graph as given.  Two are known: the compiler's
 * refusal of a schedule that deadlocks in the execution model (passes/evaluate/,
 * eval_report_deadlock: "schedule deadlocks: ") and es's refusal of a graph with more
 * configurations than its limit (passes/baselines.c: "es: more than ").  Anything else
 * (a link error that mentions a deadlock function, a crash, a second message) is not a
 * refusal. */
static bool
refused_with(const char *graph, const char *what, int code, const char *out,
             const char *err)
{
    size_t nout = 0, nerr = 0;
    free(slurp(out, &nout));
    char *e = slurp(err, &nerr);
    char head[600];
    snprintf(head, sizeof head, "%s: error: %s", graph, what);
    size_t h = strlen(head);
    char *nl = strchr(e, '\n');
    bool ok = code == 1 && nout == 0 && nerr > h && strncmp(e, head, h) == 0 && nl &&
              nl[1] == 0 && strlen(e) == nerr;
    free(e);
    return ok;
}

/* What one tgc run came to. */
enum { RUN_PASS, RUN_FAIL, RUN_DEADLOCK, RUN_ES_LIMIT };

__extension__ typedef __int128 i128;

/* The exact fraction of a {"cycles": C, "iterations": I} field; false when it is null. */
static bool
exact_of(const json_t *o, const char *key, long long *c, long long *i)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_object(v))
        return false;
    *c = json_integer_value(json_object_get(v, "cycles"));
    *i = json_integer_value(json_object_get(v, "iterations"));
    return *i > 0;
}

/* tgc run's period against its bound (period >= period_bound, exactly, whenever the
 * schedule has a period) and against the period the simulated run measured (equal when
 * both exist). */
static const char *
check_period(const json_t *o)
{
    long long pc, pi, bc, bi, mc, mi;
    if (!exact_of(o, "period_bound_exact", &bc, &bi))
        return "no period_bound";
    if (!exact_of(o, "period_exact", &pc, &pi)) {
        period_none++;
        return NULL;
    }
    period_checked++;
    if ((i128)pc * bi < (i128)bc * pi)
        return "the period is below its bound";
    if (exact_of(o, "simulated_period_exact", &mc, &mi)) {
        period_measured++;
        if ((i128)mc * pi != (i128)pc * mi)
            return "simulated period != predicted period";
    }
    return NULL;
}

/* Runs tgc run on graph with extra args and mode; checks the JSON it prints.  Returns
 * RUN_PASS when the run passed, with its simulated and predicted cycles in *sim_out and
 * *pred_out (may be NULL); RUN_DEADLOCK or RUN_ES_LIMIT when tgc refused it. */
static int
check_run(const char *graph, const char *label, char *const *extra, const char *mode,
          bool expect_mismatch, long long *sim_out, long long *pred_out)
{
    char out[300], err[300];
    snprintf(out, sizeof out, "%s/out.json", tmpdir);
    snprintf(err, sizeof err, "%s/err.txt", tmpdir);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)tgc;
    argv[n++] = "run";
    argv[n++] = (char *)graph;
    argv[n++] = "-O";
    argv[n++] = (char *)mode;
    if (!contention)
        argv[n++] = "--no-contention";
    argv[n++] = "--json";
    if (target) {
        argv[n++] = "--target";
        argv[n++] = (char *)target;
    }
    for (int i = 0; extra && extra[i] && n < 30; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int st = -1;
    double t0 = ir_wall_seconds();
    runs++;
    if (posix_spawn(&pid, tgc, &fa, NULL, argv, environ) == 0)
        waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    double secs = ir_wall_seconds() - t0;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    json_error_t je;
    json_t *o = json_load_file(out, 0, &je);
    const char *why = NULL;
    long long sim = -1, pred = -1;
    last_packets = -1;
    last_total[0] = 0;
    if (!o && refused_with(graph, "schedule deadlocks: ", code, out, err)) {
        /* the compiler refused a schedule that deadlocks in the execution model: nothing
           was emitted, nothing ran */
        skipped++;
        printf("skip %s -O %s: the compiler reports that the schedule deadlocks\n", label,
               mode);
        unlink(out);
        unlink(err);
        return RUN_DEADLOCK;
    }
    if (!o && refused_with(graph, "es: more than ", code, out, err)) {
        /* es refuses a graph with more configurations than --es-limit: tgc's refusal,
           not a pass; the coverage (--cycle) asks es of other graphs */
        es_refused++;
        printf("refused %s -O %s: tgc: es has more configurations than its limit\n",
               label, mode);
        unlink(out);
        unlink(err);
        return RUN_ES_LIMIT;
    }
    if (!o) {
        why = "no JSON result";
    } else {
        sim = json_integer_value(json_object_get(o, "simulated_cycles"));
        pred = json_integer_value(json_object_get(o, "predicted_cycles"));
        last_packets = json_integer_value(json_object_get(o, "packets"));
        const char *tot = json_string_value(json_object_get(o, "checksum_total"));
        snprintf(last_total, sizeof last_total, "%s", tot ? tot : "");
        if (expect_mismatch) { /* a graph made to break the kernel rules */
            if (json_is_true(json_object_get(o, "checksums_equal")) || code != 1)
                why = "a mismatch expected (x-expect) but not reported";
        } else if (!json_is_true(json_object_get(o, "checksums_equal")))
            why = "checksums differ";
        else if (!json_is_true(json_object_get(o, "outputs_equal")))
            why = "output files differ";
        else if (target && (sim <= 0 || code != 0)) /* MPI: wall-clock, no packets */
            why = code != 0 ? "nonzero exit status" : "no measured cycles";
        else if (target)
            ;
        else if (sim != pred || sim <= 0)
            why = "simulated cycles != predicted cycles";
        else if (code != 0 && !expect_mismatch)
            why = "nonzero exit status";
        else if (json_integer_value(json_object_get(o, "packets")) !=
                 json_integer_value(json_object_get(o, "predicted_packets")))
            why = "packets != predicted packets";
        if (!why && !target)
            why = check_period(o);
    }
    if (why) {
        failures++;
        printf("FAIL %s -O %s: %s (exit %d, simulated %lld, predicted %lld)\n", label,
               mode, why, code, sim, pred);
        FILE *f = fopen(err, "r");
        if (f) {
            char line[512];
            for (int i = 0; i < 20 && fgets(line, sizeof line, f); i++)
                printf("    %s", line);
            fclose(f);
        }
        if (keep) {
            char dst[600];
            mkdir(keep, 0777);
            const char *bn = strrchr(graph, '/');
            snprintf(dst, sizeof dst, "%s/%s", keep, bn ? bn + 1 : graph);
            FILE *in = fopen(graph, "rb"), *o2 = fopen(dst, "wb");
            int ch;
            while (in && o2 && (ch = fgetc(in)) != EOF)
                fputc(ch, o2);
            if (in)
                fclose(in);
            if (o2)
                fclose(o2);
        }
    } else {
        bool periodic = target || json_is_object(json_object_get(o, "period_exact"));
        printf("ok   %s -O %s: %lld cycles (%.2f s)%s\n", label, mode, sim, secs,
               periodic ? "" : ", no period (the run does not repeat)");
    }
    json_decref(o);
    unlink(out);
    unlink(err);
    if (sim_out)
        *sim_out = sim;
    if (pred_out)
        *pred_out = pred;
    if (why)
        return RUN_FAIL;
    passed++;
    return RUN_PASS;
}

/* ---- random graphs
 * ------------------------------------------------------------------------ */

static uint64_t rng;

/* The platform of a random graph (want: as random_graph), set in g; returns its DSPs. */
static int
random_platform(json_t *g, int want)
{
    int nd;
    if (ir_rand_range(&rng, 0, 2) == 0) { /* an inline platform with random parameters */
        int dpb = (int)ir_rand_range(&rng, 2, 4),
            boards = (int)ir_rand_range(&rng, 1, 16 / dpb);
        if (dpb * boards < 2)
            boards = 2;
        if (want) { /* on boards of 2 or 4 */
            dpb = dpb == 3 ? 4 : dpb;
            boards = want / dpb;
        }
        nd = dpb * boards;
        json_t *p = json_object();
        json_object_set_new(p, "format", json_string("tgc-platform/1"));
        json_object_set_new(p, "name", json_string("random"));
        json_object_set_new(p, "boards", json_integer(boards));
        json_object_set_new(p, "dsps_per_board", json_integer(dpb));
        json_object_set_new(p, "send_overhead",
                            json_integer(ir_rand_range(&rng, 0, 900)));
        json_object_set_new(p, "recv_overhead",
                            json_integer(ir_rand_range(&rng, 0, 600)));
        json_object_set_new(p, "post_overhead",
                            json_integer(ir_rand_range(&rng, 0, 400)));
        json_object_set_new(p, "wait_overhead",
                            json_integer(ir_rand_range(&rng, 0, 300)));
        json_object_set_new(p, "handshake", json_integer(ir_rand_range(&rng, 0, 500)));
        json_object_set_new(p, "switch_latency",
                            json_integer(ir_rand_range(&rng, 0, 200)));
        json_object_set_new(p, "copy_bytes_per_cycle",
                            json_integer(ir_rand_range(&rng, 1, 16)));
        json_object_set_new(
            p, "eager_limit",
            json_integer(ir_rand_range(&rng, 0, 1) ? 0 : ir_rand_range(&rng, 16, 600)));
        if (boards > 1) {
            json_t *links = json_array();
            for (int b = 0; b + 1 < boards; b++)
                json_array_append_new(links, json_pack("[ii]", b, b + 1));
            if (boards > 2 && ir_rand_range(&rng, 0, 1))
                json_array_append_new(links, json_pack("[ii]", boards - 1, 0));
            json_object_set_new(p, "links", links);
        }
        json_object_set_new(g, "platform", p);
    } else {
        long long r = ir_rand_range(&rng, 0, 2);
        if (want) /* a preset of that many */
            r = want / 4 - 1 > 2 ? 2 : want / 4 - 1;
        nd = r == 0 ? 4 : r == 1 ? 8 : 16;
        json_object_set_new(g, "platform",
                            json_string(r == 0   ? "bwdsp-1board"
                                        : r == 1 ? "bwdsp-2board"
                                                 : "bwdsp-4board"));
    }
    return nd;
}

/* Random graph k (rng seeded by the caller) on want DSPs (4, 8 or 16; 0: a random
 * platform of 2 to 16). */
static json_t *
random_graph(int k, int want, int *ndsps_out)
{
    json_t *g = json_object();
    char name[64];
    snprintf(name, sizeof name, "random%03d", k);
    json_object_set_new(g, "format", json_string("tgc-graph/1"));
    json_object_set_new(g, "name", json_string(name));
    int iters = ir_rand_range(&rng, 0, 9) == 0 ? 1 : (int)ir_rand_range(&rng, 2, 30);
    json_object_set_new(g, "iterations", json_integer(iters));
    int nd = random_platform(g, want);
    *ndsps_out = nd;
    int nt = (int)ir_rand_range(&rng, 2, 24);
    bool hetero = ir_rand_range(&rng, 0, 1);
    json_t *tasks = json_array();
    for (int t = 0; t < nt; t++) {
        json_t *o = json_object();
        char id[32];
        snprintf(id, sizeof id, "t%d", t);
        json_object_set_new(o, "id", json_string(id));
        if (hetero) {
            json_t *c = json_array();
            for (int d = 0; d < nd; d++)
                json_array_append_new(
                    c, json_integer(ir_rand_range(&rng, 0, 19) == 0
                                        ? 0
                                        : ir_rand_range(&rng, 100, 20000)));
            json_object_set_new(o, "cycles", c);
        } else {
            json_object_set_new(o, "cycles",
                                json_integer(ir_rand_range(&rng, 100, 20000)));
        }
        if (ir_rand_range(&rng, 0, 9) == 0)
            json_object_set_new(o, "dsp", json_integer(ir_rand_range(&rng, 0, nd - 1)));
        json_array_append_new(tasks, o);
    }
    json_object_set_new(g, "tasks", tasks);
    json_t *edges = json_array();
    int maxp = (int)ir_rand_range(&rng, 1, 3);
    for (int t = 1; t < nt; t++) {
        int np = (int)ir_rand_range(&rng, 1, maxp);
        for (int j = 0; j < np; j++) {
            int f = (int)ir_rand_range(&rng, 0, t - 1);
            bool dup = false; /* one edge per pair and delay */
            size_t i;
            json_t *e;
            json_array_foreach (edges, i, e) {
                if (json_integer_value(json_object_get(e, "from")) == f &&
                    json_integer_value(json_object_get(e, "to")) == t)
                    dup = true;
            }
            if (dup)
                continue;
            long long r = ir_rand_range(&rng, 0, 19);
            long long bytes = r == 0   ? 0
                              : r == 1 ? ir_rand_range(&rng, 5000, 30000)
                                       : ir_rand_range(&rng, 1, 3000);
            json_t *o = json_pack("{s:i,s:i,s:I}", "from", f, "to", t, "bytes",
                                  (json_int_t)bytes);
            if (ir_rand_range(&rng, 0, 14) == 0)
                json_object_set_new(o, "delay",
                                    json_integer(ir_rand_range(&rng, 0, 3)
                                                     ? 1
                                                     : ir_rand_range(&rng, 2, 3)));
            json_array_append_new(edges, o);
        }
    }
    int nback = (int)ir_rand_range(&rng, 0, 3);
    for (int j = 0; j < nback && nt > 1;
         j++) { /* feedback: later -> earlier, with delay */
        int a = (int)ir_rand_range(&rng, 1, nt - 1),
            b = (int)ir_rand_range(&rng, 0, a - 1);
        json_array_append_new(
            edges,
            json_pack("{s:i,s:i,s:I,s:i}", "from", a, "to", b, "bytes",
                      (json_int_t)ir_rand_range(&rng, 0, 2000), "delay",
                      (int)(ir_rand_range(&rng, 0, 3) ? 1 : ir_rand_range(&rng, 2, 3))));
    }
    /* edges name tasks by id */
    size_t i;
    json_t *e;
    json_array_foreach (edges, i, e) {
        char f[32], t[32];
        snprintf(f, sizeof f, "t%lld",
                 (long long)json_integer_value(json_object_get(e, "from")));
        snprintf(t, sizeof t, "t%lld",
                 (long long)json_integer_value(json_object_get(e, "to")));
        json_object_set_new(e, "from", json_string(f));
        json_object_set_new(e, "to", json_string(t));
    }
    json_object_set_new(g, "edges", edges);
    return g;
}

/* A channel from actor f to actor t of a random multi-rate graph whose repetition vector
 * is q: rates balanced (q[f] produce = q[t] consume) times a random factor, the tokens of
 * one iteration T = q[f] produce. */
static json_t *
random_channel(const int *q, int f, int t, long long *per)
{
    long long g = ir_gcd64(q[f], q[t]), m = ir_rand_range(&rng, 1, 3);
    long long produce = q[t] / g * m, consume = q[f] / g * m;
    *per = q[f] * produce;
    long long r = ir_rand_range(&rng, 0, 19);
    long long bytes = r == 0   ? 0
                      : r == 1 ? ir_rand_range(&rng, 2000, 6000)
                               : ir_rand_range(&rng, 1, 600);
    char fid[32], tid[32];
    snprintf(fid, sizeof fid, "a%d", f);
    snprintf(tid, sizeof tid, "a%d", t);
    json_t *o =
        json_pack("{s:s,s:s,s:I}", "from", fid, "to", tid, "bytes", (json_int_t)bytes);
    if (produce != 1)
        json_object_set_new(o, "produce", json_integer(produce));
    if (consume != 1)
        json_object_set_new(o, "consume", json_integer(consume));
    return o;
}

/* Random multi-rate graph k (rng seeded by the caller) on want DSPs (as random_graph):
 * 2 to 10 actors firing 1 to 4 times per iteration (the repetition vector is drawn
 * first and the rates made to balance it), a DAG of channels with random initial tokens
 * (a firing may read tokens of earlier iterations), feedback channels with at least one
 * iteration of tokens (as tokens or as a delay, so the graph never deadlocks), channels
 * from an actor to itself carrying state, parallel and zero-byte channels, pins of every
 * firing (a list) or of the actor, costs per DSP. */
static json_t *
random_sdf_graph(int k, int want, int *ndsps_out)
{
    json_t *g = json_object();
    char name[64];
    snprintf(name, sizeof name, "sdf%03d", k);
    json_object_set_new(g, "format", json_string("tgc-graph/1"));
    json_object_set_new(g, "name", json_string(name));
    json_object_set_new(
        g, "iterations",
        json_integer(ir_rand_range(&rng, 0, 9) == 0 ? 1 : ir_rand_range(&rng, 2, 12)));
    int nd = random_platform(g, want);
    *ndsps_out = nd;
    int n = (int)ir_rand_range(&rng, 2, 10), q[10];
    bool hetero = ir_rand_range(&rng, 0, 3) == 0;
    json_t *tasks = json_array();
    for (int a = 0; a < n; a++) {
        q[a] = (int)ir_rand_range(&rng, 1, 4);
        json_t *o = json_object();
        char id[32];
        snprintf(id, sizeof id, "a%d", a);
        json_object_set_new(o, "id", json_string(id));
        if (hetero) {
            json_t *c = json_array();
            for (int d = 0; d < nd; d++)
                json_array_append_new(c, json_integer(ir_rand_range(&rng, 100, 12000)));
            json_object_set_new(o, "cycles", c);
        } else {
            json_object_set_new(o, "cycles",
                                json_integer(ir_rand_range(&rng, 100, 12000)));
        }
        long long pin = ir_rand_range(&rng, 0, 11);
        if (pin == 0)
            json_object_set_new(o, "dsp", json_integer(ir_rand_range(&rng, 0, nd - 1)));
        else if (pin == 1) {
            json_t *l = json_array();
            for (int f = 0; f < q[a]; f++)
                json_array_append_new(l, json_integer(ir_rand_range(&rng, 0, nd - 1)));
            json_object_set_new(o, "dsp", l);
        }
        json_array_append_new(tasks, o);
    }
    json_object_set_new(g, "tasks", tasks);
    json_t *edges = json_array();
    long long per;
    for (int t = 1; t < n; t++) {
        int np = (int)ir_rand_range(&rng, 1, 2);
        for (int j = 0; j < np; j++) {
            int f = (int)ir_rand_range(&rng, 0, t - 1);
            json_t *o = random_channel(q, f, t, &per);
            if (ir_rand_range(&rng, 0, 3) == 0)
                json_object_set_new(o, "tokens",
                                    json_integer(ir_rand_range(&rng, 1, 2 * per)));
            json_array_append_new(edges, o);
        }
    }
    int nback = (int)ir_rand_range(&rng, 0, 2);
    for (int j = 0; j < nback; j++) { /* feedback with an iteration of tokens or more */
        int a = (int)ir_rand_range(&rng, 1, n - 1),
            b = (int)ir_rand_range(&rng, 0, a - 1);
        json_t *o = random_channel(q, a, b, &per);
        if (ir_rand_range(&rng, 0, 2) == 0)
            json_object_set_new(o, "delay", json_integer(ir_rand_range(&rng, 1, 2)));
        else
            json_object_set_new(o, "tokens",
                                json_integer(per * ir_rand_range(&rng, 1, 2) +
                                             ir_rand_range(&rng, 0, per - 1)));
        json_array_append_new(edges, o);
    }
    if (ir_rand_range(&rng, 0, 2) == 0) { /* state carried from firing to firing */
        int a = (int)ir_rand_range(&rng, 0, n - 1);
        long long rate = ir_rand_range(&rng, 1, 3);
        char id[32];
        snprintf(id, sizeof id, "a%d", a);
        json_t *o = json_pack("{s:s,s:s,s:I,s:I,s:I,s:I}", "from", id, "to", id, "bytes",
                              (json_int_t)ir_rand_range(&rng, 0, 64), "produce",
                              (json_int_t)rate, "consume", (json_int_t)rate, "tokens",
                              (json_int_t)(rate + ir_rand_range(&rng, 0, rate)));
        json_array_append_new(edges, o);
    }
    json_object_set_new(g, "edges", edges);
    return g;
}

/* ---- the graphs, and the (ranks, mode) pairs they run in
 * ---------------------------------------------------------------------------- */

/* The sets of graphs, each with its own coverage of the pairs (--cycle). */
enum { SET_TESTCASES, SET_APPS, SET_RANDOM, NSETS };
static const char *const set_name[NSETS] = {"testcases", "applications", "random graphs"};

/* One graph to run: a tgc-graph/1 file, an STG or DOT file (imported on the abstract
 * model with the run's count of DSPs), or random graph k of a seed (generated for the
 * run's count of DSPs).  A pair is (index into ranks, index into modes); without
 * --ranks there is one count, the graph's own platform. */
typedef struct {
    int set;
    char *path;         /* the file; NULL for a random graph */
    const char *format; /* "json", "stg" or "dot" */
    int k;              /* a random graph: graph k of seed */
    uint64_t seed;
    long long pinned;   /* the largest DSP a task is pinned to, -1 for none */
    bool mismatch;      /* "x-expect": "checksums differ": must be reported */
    bool own_platform;  /* costs per DSP of its platform: runs on that platform only */
    bool refused[4][8]; /* tgc refused the pair (deadlock, es's limit) */
} Case;

static Case *all;
static int nall;
static bool cycle = false;       /* --cycle: each graph in one pair, the pairs in turn */
static int covered[NSETS][4][8]; /* passes per set and pair */

static Case *
add_case(int set, const char *path, const char *format)
{
    all = realloc(all, (size_t)(nall + 1) * sizeof *all);
    if (!all)
        abort();
    Case *c = &all[nall++];
    memset(c, 0, sizeof *c);
    c->set = set;
    c->path = path ? strdup(path) : NULL;
    c->format = format;
    c->pinned = -1;
    return c;
}

static int
nr(void) /* the counts of DSPs a graph can take */
{
    return nranks ? nranks : 1;
}

/* Whether c can run on the ri-th count of ranks. */
static bool
feasible(const Case *c, int ri)
{
    if (!nranks || c->own_platform)
        return ri == 0;
    if (!c->path && !cycle) /* a random graph has one count: k's */
        return ri == c->k % nranks;
    return c->pinned < ranks[ri];
}

/* tgc import FORMAT path --dsps n into out; false when the file does not import (the
 * importers' bad inputs are not graphs to run). */
static bool
import_graph(const char *path, const char *format, int n, const char *out)
{
    char dsps[16];
    snprintf(dsps, sizeof dsps, "%d", n);
    char *argv[] = {
        (char *)tgc,    "import", (char *)format, (char *)path, "--dsps", dsps,
        "--iterations", "3",      "-o",           (char *)out,  NULL};
    json_t *o = run_json(argv); /* prints nothing; the file is the result */
    json_decref(o);
    json_error_t je;
    json_t *g = json_load_file(out, 0, &je);
    json_decref(g);
    return g != NULL;
}

/* --multirate: the file `tgc expand` writes of graph (which ran in mode with the cycles
 * sim and pred, and last_packets, last_total) reads back as a graph whose run is the
 * same: the same simulated and predicted cycles, packets and checksum total (the hash of
 * every edge's checksums, names included: the expansion's tasks are the firings the
 * multi-rate run scheduled).  RUN_PASS or RUN_FAIL. */
static int
check_expansion(const char *graph, const char *label, const char *mode, long long sim,
                long long pred)
{
    long long packets = last_packets;
    char total[32], xpath[300], xlabel[800];
    snprintf(total, sizeof total, "%s", last_total);
    snprintf(xpath, sizeof xpath, "%s/expanded.json", tmpdir);
    snprintf(xlabel, sizeof xlabel, "%s as tgc expand wrote it", label);
    char *argv[] = {(char *)tgc, "expand", (char *)graph, "-o", xpath, "--json", NULL};
    json_t *o = run_json(argv);
    long long firings = json_integer_value(json_object_get(o, "tasks"));
    json_decref(o);
    const char *why = NULL;
    long long xsim = -1, xpred = -1;
    if (!o || firings <= 0)
        why = "tgc expand wrote no graph";
    else if (check_run(xpath, xlabel, NULL, mode, false, &xsim, &xpred) != RUN_PASS)
        why = "its run did not pass";
    else if (!*total || strcmp(total, last_total) != 0)
        why = "another checksum total";
    else if (xsim != sim || xpred != pred || last_packets != packets)
        why = "other cycles or packets";
    unlink(xpath);
    if (why) {
        failures++;
        printf("FAIL %s -O %s: tgc expand's file: %s (simulated %lld / %lld, predicted "
               "%lld / %lld, packets %lld / %lld, checksum total %s / %s)\n",
               label, mode, why, sim, xsim, pred, xpred, packets, last_packets, total,
               last_total);
        return RUN_FAIL;
    }
    expansions++;
    printf("ok   %s -O %s: tgc expand's file (%lld firings) runs the same: %lld cycles, "
           "%lld packets, checksum total %s\n",
           label, mode, firings, xsim, packets, total);
    return RUN_PASS;
}

/* Runs c in pair (ri, mi): RUN_PASS, RUN_FAIL or a refusal (remembered in c). */
static int
run_case(Case *c, int ri, int mi)
{
    int r = nranks && !c->own_platform ? ranks[ri] : 0; /* 0: the graph's own platform */
    char path[300], label[700], plat[32];
    char *extra[3] = {NULL, NULL, NULL};
    const char *graph = path;
    if (!c->path) {
        rng = c->seed * UINT64_C(1000003) + (uint64_t)c->k;
        int nd;
        json_t *g =
            multirate ? random_sdf_graph(c->k, r, &nd) : random_graph(c->k, r, &nd);
        snprintf(path, sizeof path, "%s/%s%03d-s%llu.json", tmpdir,
                 multirate ? "sdf" : "random", c->k, (unsigned long long)c->seed);
        snprintf(label, sizeof label, "random %s%d (seed %llu, %d DSPs)",
                 multirate ? "multi-rate " : "", c->k, (unsigned long long)c->seed, nd);
        int bad = json_dump_file(g, path, JSON_INDENT(2));
        json_decref(g);
        if (bad) {
            printf("FAIL cannot write %s\n", path);
            failures++;
            return RUN_FAIL;
        }
    } else {
        if (r)
            snprintf(label, sizeof label, "%s (%d ranks)", c->path, r);
        else
            snprintf(label, sizeof label, "%s%s", c->path,
                     nranks ? " (its own platform: costs per DSP)" : "");
        if (strcmp(c->format, "json") != 0) {
            snprintf(path, sizeof path, "%s/imported.json", tmpdir);
            if (!import_graph(c->path, c->format, r ? r : 4, path)) {
                printf("FAIL %s: tgc import wrote no graph\n", label);
                failures++;
                return RUN_FAIL;
            }
        } else {
            graph = c->path;
            if (r) { /* --ranks: on a preset of that many DSPs */
                snprintf(plat, sizeof plat, "bwdsp-%dboard", r / 4);
                extra[0] = "--platform";
                extra[1] = plat;
            }
        }
    }
    long long sim, pred;
    int st = check_run(graph, label, extra, modes[mi], c->mismatch, &sim, &pred);
    /* each random multi-rate graph once through tgc expand, the modes in turn */
    if (st == RUN_PASS && multirate && !c->path && !target && mi == c->k % nmodes)
        st = check_expansion(graph, label, modes[mi], sim, pred);
    if (graph == path)
        unlink(path);
    if (st == RUN_DEADLOCK || st == RUN_ES_LIMIT)
        c->refused[ri][mi] = true;
    if (st == RUN_PASS && !c->mismatch && (!nranks || !c->own_platform))
        covered[c->set][ri][mi]++;
    return st;
}

/* Runs the graphs of set.  Without --cycle each graph in every pair it can run.  With
 * --cycle each graph once, in the pair it can run that has the fewest passes so far
 * (among equals the next in turn), the next such pair after a refusal; then each pair
 * still without a pass (few graphs can run it: pins, es's limit) on the first graph
 * that can. */
static void
run_set(int set)
{
    int np = nr() * nmodes, turn = 0;
    bool any = false;
    for (int i = 0; i < nall; i++) {
        Case *c = &all[i];
        if (c->set != set)
            continue;
        any = true;
        if (!cycle) {
            for (int ri = 0; ri < nr(); ri++) {
                if (!feasible(c, ri)) {
                    if (c->path)
                        printf("skip %s (%d ranks): tasks are pinned to DSP %lld\n",
                               c->path, ranks[ri], c->pinned);
                    continue;
                }
                for (int mi = 0; mi < nmodes; mi++)
                    run_case(c, ri, mi);
            }
            continue;
        }
        for (;;) {
            int best = -1;
            for (int j = 0; j < np; j++) {
                int p = (turn + j) % np, ri = p / nmodes, mi = p % nmodes;
                if (!feasible(c, ri) || c->refused[ri][mi])
                    continue;
                if (best < 0 ||
                    covered[set][ri][mi] < covered[set][best / nmodes][best % nmodes])
                    best = p;
            }
            if (best < 0) {
                printf("skip %s: tgc refused every pair it can run in\n",
                       c->path ? c->path : "a random graph");
                break;
            }
            turn = (best + 1) % np;
            int st = run_case(c, best / nmodes, best % nmodes);
            if (st == RUN_PASS || st == RUN_FAIL)
                break;
        }
    }
    if (!cycle || !any)
        return;
    for (int p = 0; p < np; p++) {
        int ri = p / nmodes, mi = p % nmodes;
        for (int i = 0; i < nall && covered[set][ri][mi] == 0; i++) {
            Case *c = &all[i];
            if (c->set != set || !feasible(c, ri) || c->refused[ri][mi] || c->mismatch ||
                (nranks && c->own_platform))
                continue;
            if (run_case(c, ri, mi) == RUN_FAIL)
                break;
        }
    }
}

/* --cycle: the passes of each set per pair; false when a pair of a set that ran has
 * none. */
static bool
coverage(void)
{
    bool ok = true;
    for (int set = 0; set < NSETS; set++) {
        bool any = false;
        for (int i = 0; i < nall; i++)
            any |= all[i].set == set;
        if (!any)
            continue;
        printf("coverage of the %s (passes per ranks and -O mode):\n%-8s", set_name[set],
               "ranks");
        for (int mi = 0; mi < nmodes; mi++)
            printf(" %6s", modes[mi]);
        printf("\n");
        for (int ri = 0; ri < nr(); ri++) {
            char rl[16];
            snprintf(rl, sizeof rl, "%d", ranks[ri]);
            printf("%-8s", nranks ? rl : "own");
            for (int mi = 0; mi < nmodes; mi++)
                printf(" %6d", covered[set][ri][mi]);
            printf("\n");
        }
        for (int ri = 0; ri < nr(); ri++)
            for (int mi = 0; mi < nmodes; mi++)
                if (covered[set][ri][mi] == 0) {
                    printf("FAIL no pass of the %s on %d ranks with -O %s\n",
                           set_name[set], nranks ? ranks[ri] : 0, modes[mi]);
                    ok = false;
                }
    }
    return ok;
}

/* ---- testcases
 * ---------------------------------------------------------------------------- */

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A tgc-graph/1 file (anything else is not a graph to run); graphs under an "apps"
 * folder are the applications. */
static void
add_file(const char *path)
{
    json_error_t je;
    json_t *g = json_load_file(path, 0, &je);
    if (!g)
        return;
    const char *fmt = json_string_value(json_object_get(g, "format"));
    /* a subgraph (interface ports) runs as part of the graph that includes it */
    if (!fmt || strcmp(fmt, "tgc-graph/1") != 0 || json_object_get(g, "inputs") ||
        json_object_get(g, "outputs")) {
        json_decref(g);
        return;
    }
    Case *c = add_case(strstr(path, "/apps/") ? SET_APPS : SET_TESTCASES, path, "json");
    const char *expect = json_string_value(json_object_get(g, "x-expect"));
    c->mismatch = expect && strcmp(expect, "checksums differ") == 0;
    size_t ti;
    json_t *task;
    json_array_foreach (json_object_get(g, "tasks"), ti, task) {
        json_t *pin = json_object_get(task, "dsp"), *p;
        size_t pi;
        if (json_is_integer(pin) && json_integer_value(pin) > c->pinned)
            c->pinned = json_integer_value(pin);
        json_array_foreach (pin, pi, p) /* a multi-rate actor's: one DSP per firing */
            if (json_integer_value(p) > c->pinned)
                c->pinned = json_integer_value(p);
        c->own_platform |= json_is_array(json_object_get(task, "cycles"));
    }
    json_decref(g);
}

static bool walk_apps = false; /* --apps DIR: the graphs of testcases/apps too */

static void
walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "invalid") == 0 ||
            (strcmp(e->d_name, "apps") == 0 && !walk_apps)) /* bench_apps --test */
            continue;
        names = realloc(names, (size_t)(n + 1) * sizeof *names);
        names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
        sprintf(names[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, (size_t)n, sizeof *names, cmp_str);
    for (int i = 0; i < n; i++) {
        struct stat st;
        size_t l = strlen(names[i]);
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
            walk(names[i]);
        else if (l > 5 && strcmp(names[i] + l - 5, ".json") == 0)
            add_file(names[i]);
        else if (l > 4 && (strcmp(names[i] + l - 4, ".stg") == 0 ||
                           strcmp(names[i] + l - 4, ".dot") == 0)) {
            char out[300]; /* a graph when it imports */
            const char *fmt = strcmp(names[i] + l - 4, ".stg") == 0 ? "stg" : "dot";
            snprintf(out, sizeof out, "%s/imported.json", tmpdir);
            if (import_graph(names[i], fmt, 4, out))
                add_case(SET_TESTCASES, names[i], fmt);
            unlink(out);
        }
        free(names[i]);
    }
    free(names);
}

/* ---- tgc gen's classes
 * ------------------------------------------------------------------------ */

/* Every class x platform x seed x mode: the asserts of check_run, and a summary line per
 * class and platform. */
static void
gen_classes(const char *classes, int nseeds, int first, const char *platforms)
{
    static char cl[256], pl[256];
    snprintf(cl, sizeof cl, "%s", classes);
    const char *cls[16], *pls[16];
    int ncl = 0, npl = 0;
    char *save;
    for (char *c = strtok_r(cl, ",", &save); c && ncl < 16;
         c = strtok_r(NULL, ",", &save))
        cls[ncl++] = c;
    snprintf(pl, sizeof pl, "%s", platforms);
    for (char *c = strtok_r(pl, ",", &save); c && npl < 16;
         c = strtok_r(NULL, ",", &save))
        pls[npl++] = c;
    static char summary[16 * 16][160];
    int nsum = 0;
    for (int ci = 0; ci < ncl; ci++)
        for (int pi = 0; pi < npl; pi++) {
            double max = 0, psum = 0;
            int k = 0, bad = 0;
            for (int sd = first; sd < first + nseeds; sd++) {
                char path[300], seed[32], label[160];
                snprintf(path, sizeof path, "%s/%s-%d.json", tmpdir, cls[ci], sd);
                snprintf(seed, sizeof seed, "%d", sd);
                snprintf(label, sizeof label, "%s seed %d on %s", cls[ci], sd, pls[pi]);
                char *gen[] = {(char *)tgc, "gen", "--class",    (char *)cls[ci],
                               "--seed",    seed,  "--platform", (char *)pls[pi],
                               "-o",        path,  NULL};
                json_t *g = run_json(gen);
                json_decref(g);
                json_error_t je;
                json_t *gj = json_load_file(path, 0, &je);
                if (!gj) {
                    failures++;
                    bad++;
                    printf("FAIL %s: tgc gen wrote no graph\n", label);
                    continue;
                }
                json_decref(gj);
                for (int m = 0; m < nmodes; m++) {
                    long long sim = -1, pred = -1;
                    if (check_run(path, label, NULL, modes[m], false, &sim, &pred) !=
                        RUN_PASS) {
                        bad++;
                        continue;
                    }
                    double diff = (double)(sim - pred) / (double)pred;
                    diff = diff < 0 ? -diff : diff;
                    max = diff > max ? diff : max;
                    psum += (double)pred;
                    k++;
                }
                unlink(path);
            }
            snprintf(summary[nsum++], sizeof summary[0],
                     "%-10s %-14s %5d %5d %14.0f %11.4f%%", cls[ci], pls[pi], k, bad,
                     k ? psum / k : 0.0, 100 * max);
        }
    printf("%s, simulated against predicted cycles:\n",
           contention ? "with contention" : "without contention");
    printf("%-10s %-14s %5s %5s %14s %12s\n", "class", "platform", "runs", "bad",
           "mean predicted", "max |diff|");
    for (int i = 0; i < nsum; i++)
        printf("%s\n", summary[i]);
}

int
main(int argc, char **argv)
{
    const char *cases = NULL, *mode_list = "none,ma,cp,bfco", *classes = NULL;
    const char *files = NULL;
    const char *platforms = "bwdsp-1board,bwdsp-2board,bwdsp-4board";
    int ngen = 5, first = 1;
    int nrandom = -1;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--contention") == 0) {
            contention = true;
            continue;
        }
        if (strcmp(argv[i], "--cycle") == 0) {
            cycle = true;
            continue;
        }
        if (strcmp(argv[i], "--multirate") == 0) {
            multirate = true;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "run_graphs: %s needs a value\n", argv[i]);
            return 2;
        }
        if (strcmp(argv[i], "--tgc") == 0)
            tgc = argv[i + 1];
        else if (strcmp(argv[i], "--testcases") == 0)
            cases = argv[i + 1];
        else if (strcmp(argv[i], "--random") == 0)
            nrandom = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--modes") == 0)
            mode_list = argv[i + 1];
        else if (strcmp(argv[i], "--keep") == 0)
            keep = argv[i + 1];
        else if (strcmp(argv[i], "--gen") == 0)
            classes = argv[i + 1];
        else if (strcmp(argv[i], "--gen-seeds") == 0)
            ngen = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--first-seed") == 0)
            first = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--platforms") == 0)
            platforms = argv[i + 1];
        else if (strcmp(argv[i], "--max-refused") == 0)
            max_refused = strtod(argv[i + 1], NULL);
        else if (strcmp(argv[i], "--target") == 0)
            target = argv[i + 1];
        else if (strcmp(argv[i], "--apps") == 0) {
            cases = argv[i + 1];
            walk_apps = true;
        } else if (strcmp(argv[i], "--files") == 0)
            files = argv[i + 1];
        else if (strcmp(argv[i], "--ranks") == 0) {
            static char rl[64];
            snprintf(rl, sizeof rl, "%s", argv[i + 1]);
            for (char *r = strtok(rl, ","); r && nranks < 4; r = strtok(NULL, ",")) {
                int v = atoi(r);
                if (v != 4 && v != 8 && v != 16) {
                    fprintf(stderr, "run_graphs: --ranks: 4, 8 or 16, not \"%s\"\n", r);
                    return 2;
                }
                ranks[nranks++] = v;
            }
        } else {
            fprintf(stderr, "run_graphs: unknown option \"%s\"\n", argv[i]);
            return 2;
        }
        i++;
    }
    if (!tgc || (!cases && nrandom < 0 && !classes && !files)) {
        fprintf(
            stderr,
            "usage: run_graphs --tgc PATH (--testcases DIR | --random N [--seed S]"
            " [--multirate]) [--modes none,ma,cp,bfco] [--contention] [--keep DIR]"
            " [--max-refused PERCENT]\n"
            "       run_graphs --tgc PATH --gen hi20,lo20,rand50,chain100"
            " [--gen-seeds N] [--first-seed S] [--platforms P,...] [--modes ...]"
            " [--contention]\n"
            "       run_graphs --tgc PATH --target mpi --ranks 4,8 (--testcases DIR | "
            "--apps DIR | --files F,... | --random N) [--modes ...] [--cycle]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    static char ml[256];
    snprintf(ml, sizeof ml, "%s", mode_list);
    for (char *s = strtok(ml, ","); s && nmodes < 8; s = strtok(NULL, ","))
        modes[nmodes++] = s;
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/tgc-graphs-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    if (cases)
        walk(cases);
    if (files) {
        static char fl[4096];
        snprintf(fl, sizeof fl, "%s", files);
        char *save = NULL;
        for (char *f = strtok_r(fl, ",", &save); f; f = strtok_r(NULL, ",", &save))
            add_file(f);
    }
    for (int k = 0; k < nrandom; k++) {
        Case *c = add_case(SET_RANDOM, NULL, "json");
        c->k = k;
        c->seed = seed;
    }
    for (int set = 0; set < NSETS; set++)
        run_set(set);
    if (cycle && !coverage())
        failures++;
    if (classes)
        gen_classes(classes, ngen, first, platforms);
    rmdir(tmpdir);
    printf("%d runs, %d failures, %d refused by the compiler as deadlocking, %d refused "
           "by es's limit\n",
           runs, failures, skipped, es_refused);
    if (!target) {
        printf(
            "period >= period_bound on %d runs (%d without a period); simulated period "
            "= predicted on %d\n",
            period_checked, period_none, period_measured);
        if (passed > 0 && period_checked == 0) {
            printf("FAIL no run had a period to compare with its bound\n");
            failures++;
        }
    }
    if (multirate && !target) {
        printf("tgc expand's file ran the same as its multi-rate graph on %d graphs\n",
               expansions);
        if (passed > 0 && expansions == 0) {
            printf("FAIL no multi-rate graph was run as tgc expand's file\n");
            failures++;
        }
    }
    /* A suite that mostly refuses has not tested what it says it tests. */
    if (skipped && 100.0 * skipped > max_refused * runs) {
        printf("FAIL %d of %d runs (%.1f%%) were refused, more than --max-refused %g%%\n",
               skipped, runs, 100.0 * skipped / runs, max_refused);
        failures++;
    }
    if (runs == 0)
        printf("FAIL nothing ran\n");
    else if (passed == 0)
        printf("FAIL nothing passed\n");
    return failures || passed == 0 ? 1 : 0;
}
