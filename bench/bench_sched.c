/*
 * bench/bench_sched.c - the scheduler against published optimal schedule lengths: the
 * sched-quality suite of the benchmark harness (bench/suites/sched-quality,
 * docs/results.md).
 *
 *     bench_sched [--stg DIR]... [--dot DIR]... [--dot-procs LIST] [--dot-limit S]
 *                 [--random N] [--time|--time-quick] [--budget N] [--bb-steps N]
 *                 [--part tune|held] [--exact SECONDS] [--exact-nodes N]
 *                 [--exact-max-tasks N] [--exact-from-heft]
 *
 * --stg DIR: Standard Task Graph Set files (*.stg, no communication) with their optima in
 *   the folder's *.csv files, lines "FILE,P,OPT" (a proven optimum) or "FILE,P,LO,HI"
 *   (only bounds known: kept out of the ratios, a schedule below HI is counted as a
 *   finding); FILE is taken by its base name in DIR; a line "file,..." is a header.
 * --dot DIR: DOT graphs with communication (the Auckland optimal-schedule sets): node
 *   and edge attribute Weight, graph attributes "Number of processors" and "Total
 *   schedule length" (the optimum).
 * --dot-procs LIST (e.g. 8,16): each graph of the --dot folders (once, by its name
 *   without the "Np_" prefix) also on these DSP counts where no file gives them, the
 *   optimum proven here by --algo=exact within --dot-limit (10) CPU seconds (a graph it
 *   cannot prove is kept out of the ratios, as the STG lines with bounds only).
 * --part tune|held: only the graphs of one part.  A graph's part (in every table, the
 *   rows "tuned on" and "held out") is the parity of the FNV-1a hash of its file name
 *   without the "Np_" prefix: the defaults were tuned on the first, the second kept
 *   aside (docs/scheduler.md).
 * --bb-steps N: Options.search_bb_steps of the default (0: its default, -1: no branch
 *   and bound).
 * --exact-nodes N: the node limit of --exact (0: none).
 * --random N: N seeded random graphs of 8-10 tasks with communication on 2 and 3 DSPs,
 *   their optimum proven by --algo=exact (abstract model).
 * --time: the CPU time of `tgc schedule`'s default on 100-task graphs (--time-quick: the
 *   one-iteration ones only).
 * --exact SECONDS: also the exact search (--algo=exact) from the default's schedule on
 *   every graph of at most --exact-max-tasks (30) tasks, at most SECONDS CPU seconds
 *   each: a table of the optima proven, by set, size and DSP count; a proven length
 *   other than the published optimum fails.
 * --exact-from-heft: the exact search starts from HEFT's schedule instead (usually longer
 *   than the optimum, so that the search must find the optimum itself, not only prove
 *   the default's length: a check of the search and its prunings).
 * --budget N: the local search's budget (default: tgc schedule's default).
 *
 * Every graph runs on the abstract model, one iteration, as `tgc import` gives it.  For
 * each it schedules with HEFT, PEFT, the default of `tgc schedule` (the list schedulers,
 * the one-DSP schedule, the local search) and puts everything on one DSP, and prints in
 * the harness's tgc-bench/1 format, per set and DSP count (and per class for DOT), the
 * mean and worst ratio to the optimum and the share of optimal schedules.  It fails (exit
 * status 1) when a schedule is shorter than a proven optimum, the evaluator's length of a
 * HEFT schedule differs from HEFT's makespan, or the default is longer than the one-DSP
 * schedule: each would be a bug.  Deterministic but for the seconds.
 */
#include <dirent.h>
#include <errno.h>
#include <graphviz/cgraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_graph.h"
#include "ir.h"

enum { A_HEFT, A_PEFT, A_DEFAULT, A_ONE, NALG };
static const char *const alg_name[NALG] = {"HEFT", "PEFT", "default", "one DSP"};

static int status;

static void fail(const char *fmt, ...) TGC_PRINTF(1, 2);

static void
fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench_sched: error: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    status = 1;
}

/* ------------------------------------------------------------------------------------
 * One instance
 * ------------------------------------------------------------------------------------ */

typedef struct Inst {
    const char *set; /* "stg", "dot", "random" */
    char *file, *cls;
    int P, tasks;
    int64_t opt;    /* proven optimum, or -1 */
    int64_t lo, hi; /* bounds when opt < 0 */
    int64_t len[NALG];
    double secs;      /* CPU seconds of the default */
    int64_t bb_steps; /* children its branch and bound bounded */
    /* --exact: the exact search from the default's schedule */
    int64_t ex_len, ex_nodes;
    bool ex_run, ex_proven;
    double ex_secs;
} Inst;

static int cmp_int(const void *a, const void *b);
static double exact_limit; /* --exact SECONDS: CPU seconds per instance, 0 = not run */
static int64_t
    exact_nodes; /* --exact-nodes N: at most N nodes per instance, 0 = no limit */
static int64_t search_bb_steps; /* --bb-steps N: Options.search_bb_steps of the default */
static int exact_max_tasks = 30;
static bool exact_from_heft; /* --exact-from-heft */

static Inst *insts;
static int ninsts;

/* --part: 0 every graph, 1 the tuning part, 2 the part kept aside (held out).  A graph's
 * part is the parity of the FNV-1a hash of its name without the "Np_" prefix of the DOT
 * sets, so that a graph is in one part at every DSP count. */
static int part;

static int
part_of(const char *file)
{
    const char *s = file;
    if (s[0] >= '0' && s[0] <= '9') {
        const char *u = strchr(s, '_');
        if (u && u[-1] == 'p')
            s = u + 1;
    }
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (int)(h & 1) + 1;
}

static bool
in_part(const char *file)
{
    return part == 0 || part_of(file) == part;
}

static int64_t
evaluate(Evaluator *ev, Sched *s)
{
    comm_insert(s);
    return eval_length(ev, s);
}

/* Runs every algorithm on g (abstract platform of P DSPs, one iteration). */
static void
run_instance(Graph *g, Inst *in, int64_t budget)
{
    const Platform *p = g->platform;
    Diag *d = diag_new();
    Evaluator *ev = eval_new(g, p);
    in->tasks = g->ntasks;
    for (int a = 0; a < NALG; a++)
        in->len[a] = -1;

    Sched *s;
    int64_t mk;
    if (sched_heft(g, p, &s, NULL, &mk, d) == 0) {
        in->len[A_HEFT] = evaluate(ev, s);
        if (in->len[A_HEFT] != mk)
            fail("%s on %d: the evaluator gives HEFT's schedule %lld, HEFT %lld",
                 in->file, in->P, (long long)in->len[A_HEFT], (long long)mk);
        ir_sched_free(s);
    }
    if (sched_peft(g, p, &s, NULL, &mk, d) == 0) {
        in->len[A_PEFT] = evaluate(ev, s);
        ir_sched_free(s);
    }
    s = ir_sched_new(g, p);
    for (int k = 0; k < g->ntasks; k++) {
        int t = g->topo[k];
        s->map[t] = 0;
        ir_sched_push_op(s, 0, OP_COMPUTE, t);
    }
    in->len[A_ONE] = evaluate(ev, s);
    ir_sched_free(s);

    Options o;
    memset(&o, 0, sizeof o);
    o.limits = ir_default_limits();
    o.search_budget = budget;
    o.search_bb_steps = search_bb_steps;
    SchedSearchStats st = {0};
    o.search_stats = &st;
    Unit u = {.g = g, .p = g->platform, .opt = &o};
    double t0 = ir_cpu_seconds();
    if (pass_schedule(&u, d) == 0) {
        in->secs = ir_cpu_seconds() - t0;
        in->bb_steps = st.bb_steps;
        in->len[A_DEFAULT] = eval_length(ev, u.s);
        if (exact_limit > 0 && g->ntasks <= exact_max_tasks) {
            SchedExactResult r;
            if (exact_from_heft) { /* sched_exact starts from HEFT's schedule */
                ir_sched_free(u.s);
                u.s = NULL;
            }
            sched_exact(g, p, &u.s, exact_nodes, exact_limit, &r);
            in->ex_run = true;
            in->ex_len = eval_length(ev, u.s);
            in->ex_nodes = r.nodes;
            in->ex_proven = r.proven;
            in->ex_secs = r.seconds;
            if (in->ex_len != r.length)
                fail("%s on %d: the exact search reports %lld, the evaluator %lld",
                     in->file, in->P, (long long)r.length, (long long)in->ex_len);
            if (r.proven && in->opt >= 0 && r.length != in->opt)
                fail("%s on %d: the exact search proves %lld, the published optimum is "
                     "%lld",
                     in->file, in->P, (long long)r.length, (long long)in->opt);
        }
        ir_sched_free(u.s);
    }
    if (diag_errors(d)) {
        diag_flush(d, stderr);
        fail("%s on %d: the scheduler failed", in->file, in->P);
    }
    for (int a = 0; a < NALG; a++)
        if (in->len[a] >= 0 && in->opt >= 0 && in->len[a] < in->opt)
            fail("%s on %d: %s gives %lld, below the optimum %lld", in->file, in->P,
                 alg_name[a], (long long)in->len[a], (long long)in->opt);
    if (in->len[A_DEFAULT] > in->len[A_ONE])
        fail("%s on %d: the default (%lld) is longer than the one-DSP schedule (%lld)",
             in->file, in->P, (long long)in->len[A_DEFAULT], (long long)in->len[A_ONE]);
    eval_free(ev);
    diag_free(d);
}

static Inst *
new_inst(void)
{
    insts = realloc(insts, (size_t)(ninsts + 1) * sizeof *insts);
    if (!insts)
        ice("out of memory");
    Inst *in = &insts[ninsts++];
    memset(in, 0, sizeof *in);
    in->opt = in->lo = in->hi = -1;
    return in;
}

/* ------------------------------------------------------------------------------------
 * The sets
 * ------------------------------------------------------------------------------------ */

static Graph *
import(const char *path, bool dot, int P)
{
    Options o;
    memset(&o, 0, sizeof o);
    o.limits = ir_default_limits();
    o.dsps = P;
    Diag *d = diag_new();
    Graph *g = dot ? fe_import_dot(path, &o, d) : fe_import_stg(path, &o, d);
    if (!g) {
        diag_flush(d, stderr);
        fail("%s: cannot import", path);
    }
    diag_free(d);
    return g;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir ending in ext, sorted. */
static int
list_dir(const char *dir, const char *ext, char ***out)
{
    DIR *dp = opendir(dir);
    if (!dp) {
        fail("%s: %s", dir, strerror(errno));
        *out = NULL;
        return 0;
    }
    char **v = NULL;
    int n = 0;
    size_t k = strlen(ext);
    struct dirent *e;
    while ((e = readdir(dp))) {
        size_t m = strlen(e->d_name);
        if (m > k && strcmp(e->d_name + m - k, ext) == 0) {
            v = realloc(v, (size_t)(n + 1) * sizeof *v);
            if (!v || !(v[n++] = strdup(e->d_name)))
                ice("out of memory");
        }
    }
    closedir(dp);
    if (n)
        qsort(v, (size_t)n, sizeof *v, cmp_str);
    *out = v;
    return n;
}

static void
stg_set(const char *dir, int64_t budget)
{
    char **csv;
    int ncsv = list_dir(dir, ".csv", &csv);
    if (ncsv == 0)
        fail("%s: no table of optima (*.csv)", dir);
    for (int c = 0; c < ncsv; c++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, csv[c]);
        FILE *f = fopen(path, "r");
        if (!f) {
            fail("%s: %s", path, strerror(errno));
            continue;
        }
        char line[4096];
        int lineno = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            if (strncmp(line, "file,", 5) == 0 || line[0] == '\n' || line[0] == '#')
                continue;
            char file[2048];
            int P;
            long long a, b = -1;
            int k = sscanf(line, "%2047[^,],%d,%lld,%lld", file, &P, &a, &b);
            if (k < 3 || P < 1 || a <= 0) {
                fail("%s:%d: expected FILE,P,OPT or FILE,P,LO,HI", path, lineno);
                continue;
            }
            const char *base = strrchr(file, '/');
            base = base ? base + 1 : file;
            if (!in_part(base))
                continue;
            char gpath[4200];
            snprintf(gpath, sizeof gpath, "%s/%s", dir, base);
            Graph *g = import(gpath, false, P);
            if (!g)
                continue;
            Inst *in = new_inst();
            in->set = "stg";
            in->file = strdup(base);
            in->cls = strdup("random");
            in->P = P;
            if (k == 3)
                in->opt = a;
            else
                in->lo = a, in->hi = b;
            run_instance(g, in, budget);
            ir_graph_free(g);
        }
        fclose(f);
        free(csv[c]);
    }
    free(csv);
}

/* "2p_Fork_Join_Nodes_10_CCR_..." -> "Fork_Join"; the DOT sets name graphs so. */
static char *
dot_class(const char *file)
{
    const char *s = strchr(file, '_');
    s = s ? s + 1 : file;
    const char *e = strstr(s, "_Nodes");
    size_t n = e ? (size_t)(e - s) : strlen(s);
    char *c = malloc(n + 1);
    if (!c)
        ice("out of memory");
    memcpy(c, s, n);
    c[n] = 0;
    return c;
}

static int64_t
graph_attr(Agraph_t *ag, const char *name)
{
    char *v = agget(ag, (char *)name);
    if (!v || !*v)
        return -1;
    char *end;
    long long x = strtoll(v, &end, 10);
    return *end ? -1 : x;
}

static int dot_procs[16], ndot_procs; /* --dot-procs: more DSP counts */
static double dot_limit = 10;         /* --dot-limit: CPU seconds of each proof */

/* The name of a DOT file without its "Np_" prefix. */
static const char *
dot_base(const char *file)
{
    const char *u = strchr(file, '_');
    return u && u > file && u[-1] == 'p' ? u + 1 : file;
}

/* The DOT graph of path on P DSPs as an instance of optimum opt (-1: proven here by the
 * exact search within dot_limit CPU seconds, bounds only when it is not). */
static void
dot_instance(const char *path, const char *file, int P, int64_t opt, int64_t budget)
{
    Graph *g = import(path, true, P);
    if (!g)
        return;
    Inst *in = new_inst();
    in->set = "dot";
    in->file = strdup(file);
    in->cls = dot_class(file);
    in->P = P;
    if (opt > 0) {
        in->opt = opt;
    } else {
        Sched *s = NULL;
        SchedExactResult r;
        sched_exact(g, g->platform, &s, 0, dot_limit, &r);
        ir_sched_free(s);
        if (r.proven)
            in->opt = r.length;
        else
            in->lo = r.lower, in->hi = r.length;
    }
    run_instance(g, in, budget);
    ir_graph_free(g);
}

static void
dot_set(const char *dir, int64_t budget)
{
    char **files;
    int n = list_dir(dir, ".dot", &files);
    if (n == 0)
        fail("%s: no DOT file", dir);
    int *fileP = calloc((size_t)n + 1, sizeof *fileP);
    if (!fileP)
        ice("out of memory");
    for (int i = 0; i < n; i++) {
        if (!in_part(files[i]))
            continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "r");
        Agraph_t *ag = f ? agread(f, NULL) : NULL;
        if (f)
            fclose(f);
        int64_t P = ag ? graph_attr(ag, "Number of processors") : -1,
                opt = ag ? graph_attr(ag, "Total schedule length") : -1;
        if (ag)
            agclose(ag);
        if (P < 1 || opt < 1) {
            fail("%s: no graph attributes \"Number of processors\" and \"Total schedule "
                 "length\"",
                 path);
            continue;
        }
        fileP[i] = (int)P;
        dot_instance(path, files[i], (int)P, opt, budget);
    }
    /* --dot-procs: each graph (once, by its name without the prefix) on the DSP counts
     * that no file of the folder gives it, the optimum proven here */
    for (int k = 0; k < ndot_procs; k++)
        for (int i = 0; i < n; i++) {
            if (!fileP[i])
                continue;
            bool first = true, given = false;
            for (int j = 0; j < n; j++)
                if (fileP[j] && strcmp(dot_base(files[j]), dot_base(files[i])) == 0) {
                    first &= j >= i;
                    given |= fileP[j] == dot_procs[k];
                }
            if (!first || given)
                continue;
            char path[4200], file[4200];
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            snprintf(file, sizeof file, "%dp_%s", dot_procs[k], dot_base(files[i]));
            dot_instance(path, file, dot_procs[k], -1, budget);
        }
    for (int i = 0; i < n; i++)
        free(files[i]);
    free(files);
    free(fileP);
}

/* N seeded random graphs of 8-10 tasks with communication (costs 5-50, edges of 1-50
 * bytes) on 2 and 3 DSPs of the abstract model, their optimum proven by the exact search
 * (a graph it cannot prove within 10 s is left out, stderr says so). */
static void
random_set(int N, int64_t budget)
{
    for (int i = 0; i < N; i++) {
        GenSpec gs;
        gen_class("rand50", &gs);
        gs.tasks = 8 + i % 3;
        gs.seed = (uint64_t)i + 1;
        gs.platform = "abstract";
        gs.iterations = 1;
        gs.delay_frac = 0;
        gs.cycles_lo = 5, gs.cycles_hi = 50, gs.bytes_lo = 1, gs.bytes_hi = 50;
        char label[64];
        snprintf(label, sizeof label, "random %d", i + 1);
        Graph *g = gen_graph(&gs, label);
        if (!g) {
            fail("random graph %d: cannot generate", i + 1);
            continue;
        }
        g->platform = plat_abstract(g->arena, 2 + i % 2);
        Sched *s = NULL;
        SchedExactResult r;
        sched_exact(g, g->platform, &s, 0, 10, &r);
        ir_sched_free(s);
        if (!r.proven) {
            fprintf(stderr, "bench_sched: %s: no proof within 10 s, left out\n", label);
            ir_graph_free(g);
            continue;
        }
        Inst *in = new_inst();
        in->set = "random";
        in->file = strdup(label);
        in->cls = strdup("random");
        in->P = g->platform->ndsps;
        in->opt = r.length;
        run_instance(g, in, budget);
        ir_graph_free(g);
    }
}

/* ------------------------------------------------------------------------------------
 * Tables
 * ------------------------------------------------------------------------------------ */

typedef struct Agg {
    int n, hits[NALG], worse_one[NALG], findings;
    double sum[NALG], worst[NALG], secs, max_secs;
} Agg;

static void
agg_add(Agg *a, const Inst *in)
{
    if (in->opt < 0) {
        a->findings += in->hi > 0 && in->len[A_DEFAULT] < in->hi;
        return;
    }
    a->n++;
    for (int k = 0; k < NALG; k++) {
        double r = (double)in->len[k] / (double)in->opt;
        a->sum[k] += r;
        if (r > a->worst[k])
            a->worst[k] = r;
        a->hits[k] += in->len[k] == in->opt;
        a->worse_one[k] += in->len[k] > in->len[A_ONE];
    }
    a->secs += in->secs;
    if (in->secs > a->max_secs)
        a->max_secs = in->secs;
}

static bool
has_set(const char *set)
{
    for (int i = 0; i < ninsts; i++)
        if (strcmp(insts[i].set, set) == 0)
            return true;
    return false;
}

static int
distinct_P(const char *set, int *Ps)
{
    int n = 0;
    for (int i = 0; i < ninsts; i++) {
        if (strcmp(insts[i].set, set) != 0)
            continue;
        int j = 0;
        while (j < n && Ps[j] != insts[i].P)
            j++;
        if (j == n) {
            int k = n++;
            while (k > 0 && Ps[k - 1] > insts[i].P) {
                Ps[k] = Ps[k - 1];
                k--;
            }
            Ps[k] = insts[i].P;
        }
    }
    return n;
}

static void
summary_table(const char *set, const char *title)
{
    if (!has_set(set))
        return;
    int Ps[64], nP = distinct_P(set, Ps);
    printf("table %s %s\n", set, title);
    printf(
        "columns DSPs,part,graphs,HEFT mean,HEFT worst,PEFT mean,PEFT worst,default mean,"
        "default worst,default optimal,HEFT worse than one DSP,default worse than one "
        "DSP,default seconds mean,default seconds max%s\n",
        strcmp(set, "stg") == 0 ? ",bounds only,default below the upper bound" : "");
    static const char *const parts[] = {"all", "tuned on", "held out"};
    for (int k = 0; k < nP && k < 64; k++)
        for (int pt = 0; pt < 3; pt++) {
            Agg a = {0};
            int nb = 0;
            for (int i = 0; i < ninsts; i++)
                if (strcmp(insts[i].set, set) == 0 && insts[i].P == Ps[k] &&
                    (pt == 0 || part_of(insts[i].file) == pt)) {
                    agg_add(&a, &insts[i]);
                    nb += insts[i].opt < 0;
                }
            if (a.n == 0 || (pt > 0 && part != 0))
                continue;
            printf("row %d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d/%d,%d,%d,%.4f,%.4f",
                   Ps[k], part ? parts[part] : parts[pt], a.n, a.sum[A_HEFT] / a.n,
                   a.worst[A_HEFT], a.sum[A_PEFT] / a.n, a.worst[A_PEFT],
                   a.sum[A_DEFAULT] / a.n, a.worst[A_DEFAULT], a.hits[A_DEFAULT], a.n,
                   a.worse_one[A_HEFT], a.worse_one[A_DEFAULT], a.secs / a.n, a.max_secs);
            if (strcmp(set, "stg") == 0)
                printf(",%d,%d", nb, a.findings);
            printf("\n");
        }
    printf(
        "plot bars x=DSPs y=HEFT mean,PEFT mean,default mean by=part ylabel=mean ratio "
        "to the optimum\n");
}

static void
class_table(const char *set, const char *title)
{
    if (!has_set(set))
        return;
    int Ps[64], nP = distinct_P(set, Ps);
    char **cls = NULL;
    int nc = 0;
    for (int i = 0; i < ninsts; i++) {
        if (strcmp(insts[i].set, set) != 0)
            continue;
        int j = 0;
        while (j < nc && strcmp(cls[j], insts[i].cls) != 0)
            j++;
        if (j == nc) {
            cls = realloc(cls, (size_t)(nc + 1) * sizeof *cls);
            if (!cls)
                ice("out of memory");
            cls[nc++] = insts[i].cls;
        }
    }
    qsort(cls, (size_t)nc, sizeof *cls, cmp_str);
    printf("table %s-class %s\n", set, title);
    printf("columns class,DSPs,graphs,HEFT mean,HEFT worst,default mean,default worst,"
           "default optimal\n");
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < nP; k++) {
            Agg a = {0};
            for (int i = 0; i < ninsts; i++)
                if (strcmp(insts[i].set, set) == 0 && insts[i].P == Ps[k] &&
                    strcmp(insts[i].cls, cls[c]) == 0)
                    agg_add(&a, &insts[i]);
            if (a.n == 0)
                continue;
            printf("row %s,%d,%d,%.4f,%.4f,%.4f,%.4f,%d/%d\n", cls[c], Ps[k], a.n,
                   a.sum[A_HEFT] / a.n, a.worst[A_HEFT], a.sum[A_DEFAULT] / a.n,
                   a.worst[A_DEFAULT], a.hits[A_DEFAULT], a.n);
        }
    printf("plot bars x=class y=default mean by=DSPs ylabel=mean ratio to the optimum\n");
    free(cls);
}

static void
instance_table(void)
{
    printf("table instances Every instance: the length of each schedule\n");
    printf("columns set,file,class,tasks,DSPs,optimum,lower,upper,HEFT,PEFT,default,one "
           "DSP,default seconds,default bb steps,exact,exact proven,exact seconds,exact "
           "nodes\n");
    for (int i = 0; i < ninsts; i++) {
        const Inst *in = &insts[i];
        printf("row %s,%s,%s,%d,%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%.4f,%lld,%lld,%s,"
               "%.3f,%lld\n",
               in->set, in->file, in->cls, in->tasks, in->P, (long long)in->opt,
               (long long)in->lo, (long long)in->hi, (long long)in->len[A_HEFT],
               (long long)in->len[A_PEFT], (long long)in->len[A_DEFAULT],
               (long long)in->len[A_ONE], in->secs, (long long)in->bb_steps,
               (long long)(in->ex_run ? in->ex_len : -1),
               !in->ex_run     ? ""
               : in->ex_proven ? "yes"
                               : "no",
               in->ex_secs, (long long)in->ex_nodes);
    }
    printf("csv-only\n");
}

static void
exact_table(void)
{
    int sizes[64], ns = 0, Ps[64], nP = 0;
    for (int i = 0; i < ninsts; i++) {
        if (!insts[i].ex_run)
            continue;
        int j = 0;
        while (j < ns && sizes[j] != insts[i].tasks)
            j++;
        if (j == ns && ns < 64)
            sizes[ns++] = insts[i].tasks;
        j = 0;
        while (j < nP && Ps[j] != insts[i].P)
            j++;
        if (j == nP && nP < 64)
            Ps[nP++] = insts[i].P;
    }
    if (!ns)
        return;
    qsort(sizes, (size_t)ns, sizeof *sizes, cmp_int);
    qsort(Ps, (size_t)nP, sizeof *Ps, cmp_int);
    printf("table exact --algo=exact from %s schedule: optima proven within %g CPU "
           "seconds each\n",
           exact_from_heft ? "HEFT's" : "the default's", exact_limit);
    printf("columns set,tasks,DSPs,graphs,proven,agree with the optimum,default optimal,"
           "seconds mean,seconds max,nodes max\n");
    const char *sets[] = {"dot", "stg", "random"};
    for (int z = 0; z < 3; z++)
        for (int a = 0; a < ns; a++)
            for (int b = 0; b < nP; b++) {
                int n = 0, pr = 0, agree = 0, dopt = 0;
                double sum = 0, mx = 0;
                int64_t nmax = 0;
                for (int i = 0; i < ninsts; i++) {
                    const Inst *in = &insts[i];
                    if (!in->ex_run || strcmp(in->set, sets[z]) != 0 ||
                        in->tasks != sizes[a] || in->P != Ps[b])
                        continue;
                    n++;
                    pr += in->ex_proven;
                    agree += in->ex_proven && (in->opt < 0 || in->ex_len == in->opt);
                    dopt += in->ex_proven && in->len[A_DEFAULT] == in->ex_len;
                    sum += in->ex_secs;
                    if (in->ex_secs > mx)
                        mx = in->ex_secs;
                    if (in->ex_nodes > nmax)
                        nmax = in->ex_nodes;
                }
                if (n)
                    printf("row %s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%lld\n", sets[z], sizes[a],
                           Ps[b], n, pr, agree, dopt, sum / n, mx, (long long)nmax);
            }
}

/* ------------------------------------------------------------------------------------
 * Speed on 100 tasks
 * ------------------------------------------------------------------------------------ */

static int
cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median CPU seconds of pass_schedule over 5 runs. */
static double
time_schedule(Graph *g, int64_t *len)
{
    double t[5];
    for (int r = 0; r < 5; r++) {
        Options o = {.limits = ir_default_limits(), .search_budget = -1};
        Unit u = {.g = g, .p = g->platform, .opt = &o};
        Diag *d = diag_new();
        double t0 = ir_cpu_seconds();
        if (pass_schedule(&u, d) != 0) {
            diag_flush(d, stderr);
            fail("%s: the scheduler failed", g->name);
        }
        t[r] = ir_cpu_seconds() - t0;
        Evaluator *ev = eval_new(g, g->platform);
        *len = u.s ? eval_length(ev, u.s) : -1;
        eval_free(ev);
        ir_sched_free(u.s);
        diag_free(d);
    }
    qsort(t, 5, sizeof *t, cmp_double);
    return t[2];
}

static bool time_quick; /* --time-quick: only the one-iteration rows */

static void
speed_table(void)
{
    printf("table time Schedule time of tgc schedule's default on 100-task graphs (CPU, "
           "median of 5)\n");
    printf("columns graph,platform,DSPs,iterations,tasks,edges,length,seconds\n");
    static const struct {
        const char *label, *platform;
        int64_t iterations;
    } runs[] = {{"gen random 100", "abstract", 1},
                {"gen random 100", "bwdsp-1board", 1},
                {"gen random 100", "bwdsp-1board", 16},
                {"gen random 100", "bwdsp-1board", 256},
                {"gen random 100", "bwdsp-4board", 16}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        if (time_quick && runs[r].iterations > 1)
            continue;
        GenSpec gs;
        gen_class("rand50", &gs);
        gs.tasks = 100;
        gs.seed = 1;
        gs.platform = runs[r].platform;
        gs.iterations = runs[r].iterations;
        if (strcmp(runs[r].platform, "abstract") == 0)
            gs.cycles_lo = 5, gs.cycles_hi = 50, gs.bytes_lo = 1, gs.bytes_hi = 50;
        Graph *g = gen_graph(&gs, runs[r].label);
        int64_t len;
        double sec = time_schedule(g, &len);
        printf("row %s,%s,%d,%lld,%d,%d,%lld,%.4f\n", runs[r].label, runs[r].platform,
               g->platform->ndsps, (long long)g->iterations, g->ntasks, g->nedges,
               (long long)len, sec);
        ir_graph_free(g);
    }
}

static void
usage(void)
{
    fprintf(stderr,
            "usage: bench_sched [--stg DIR]... [--dot DIR]... [--dot-procs LIST] "
            "[--dot-limit S] [--random N] [--time|--time-quick] [--budget N] "
            "[--bb-steps N] [--part tune|held] [--exact SECONDS] [--exact-nodes N] "
            "[--exact-max-tasks N] [--exact-from-heft]\n");
    exit(2);
}

int
main(int argc, char **argv)
{
    int64_t budget = -1;
    bool timing = false;
    int nrandom = 0;
    const char *stg[16], *dot[16];
    int nstg = 0, ndot = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stg") == 0 && i + 1 < argc && nstg < 16)
            stg[nstg++] = argv[++i];
        else if (strcmp(argv[i], "--dot") == 0 && i + 1 < argc && ndot < 16)
            dot[ndot++] = argv[++i];
        else if (strcmp(argv[i], "--time") == 0)
            timing = true;
        else if (strcmp(argv[i], "--time-quick") == 0)
            timing = time_quick = true;
        else if (strcmp(argv[i], "--random") == 0 && i + 1 < argc)
            nrandom = atoi(argv[++i]);
        else if (strcmp(argv[i], "--exact") == 0 && i + 1 < argc) {
            char *end;
            exact_limit = strtod(argv[++i], &end);
            if (*end || !(exact_limit > 0))
                usage();
        } else if (strcmp(argv[i], "--bb-steps") == 0 && i + 1 < argc)
            search_bb_steps = atoll(argv[++i]);
        else if (strcmp(argv[i], "--exact-nodes") == 0 && i + 1 < argc)
            exact_nodes = atoll(argv[++i]);
        else if (strcmp(argv[i], "--exact-max-tasks") == 0 && i + 1 < argc)
            exact_max_tasks = atoi(argv[++i]);
        else if (strcmp(argv[i], "--dot-procs") == 0 && i + 1 < argc) {
            char *q = argv[++i];
            while (*q && ndot_procs < 16) {
                char *end;
                long v = strtol(q, &end, 10);
                if (end == q || v < 1 || v > 4096)
                    usage();
                dot_procs[ndot_procs++] = (int)v;
                q = *end == ',' ? end + 1 : end;
                if (*end && *end != ',')
                    usage();
            }
        } else if (strcmp(argv[i], "--dot-limit") == 0 && i + 1 < argc) {
            char *end;
            dot_limit = strtod(argv[++i], &end);
            if (*end || !(dot_limit > 0))
                usage();
        } else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc) {
            i++;
            part = strcmp(argv[i], "tune") == 0   ? 1
                   : strcmp(argv[i], "held") == 0 ? 2
                                                  : -1;
            if (part < 0)
                usage();
        } else if (strcmp(argv[i], "--exact-from-heft") == 0)
            exact_from_heft = true;
        else if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc) {
            char *end;
            budget = strtoll(argv[++i], &end, 10);
            if (*end || budget < -1)
                usage();
        } else
            usage();
    }
    if (!nstg && !ndot && !timing && nrandom <= 0)
        usage();
    for (int i = 0; i < nstg; i++)
        stg_set(stg[i], budget);
    for (int i = 0; i < ndot; i++)
        dot_set(dot[i], budget);
    if (nrandom > 0)
        random_set(nrandom, budget);
    printf("tgc-bench/1\n");
    summary_table("stg", "STG (no communication): schedule length / optimum");
    summary_table("dot", "DOT graphs with communication: schedule length / optimum");
    class_table("dot", "DOT graphs by class: schedule length / optimum");
    summary_table("random", "Random graphs of 8-10 tasks with communication: schedule "
                            "length / the optimum that --algo=exact proves");
    exact_table();
    if (ninsts)
        instance_table();
    if (timing)
        speed_table();
    return status;
}
