/*
 * bench/bench_bfco.c - the BFCO benchmark of docs/bfco.md (not a test).
 *
 * Three sections, each optional:
 *
 *   quality  per class of tools/gen_graph.c (Table 1 of [BFCO] (docs/references.md) and
 *            fft32), N instances (seeds F..F+N-1: --first, 1; --instances, 10) scheduled
 *            by pass_schedule: the improvement over none of ma, cp, bfco (and with
 *            --variants the paper's procedure, --vshaped, --joint) and es where es is
 *            within its limit; BFCO's mean and largest gap to es in percentage points
 *            and the instances where it reaches es.
 *   long     per class and instance: default BFCO with seeds 1..S (--seeds, 5) and a
 *            long reference search (--long-particles, 64; seed 1; a restart at every
 *            stall) of at least --long-factor (10) times the evaluations of the
 *            default's most expensive seed, or of --long-generations generations
 *            without a stall when given; per instance the
 *            default's gap to it (seed 1, percent of its length), the spread of the
 *            improvement over the seeds (points), the evaluations of both and their
 *            ratio.
 *   speed    BFCO on random graphs (rand50 costs, seed 7 or --speed-seed) of 100 tasks /
 *            4 DSPs, 1000 / 16, 5000 / 64 (--speed-cases), HEFT without local search: CPU
 *            seconds (the process's CPU time during opt_run; the median of --repeat
 *            runs, by default 9 up to 200 tasks, 3 up to 2000 and 1 above, each of which
 *            must find the same schedule length), evaluations, the
 *            evaluator's share (its time per evaluation measured on the result, times the
 *            evaluations), the process's peak RSS so far.
 *   threads  (--threads-speedup, with --threads N and --speed-cases) each speed case with
 *            1 thread and N in turn: median wall and CPU seconds of each, the speed-up.
 *
 * Output: markdown tables (default), or --json: one JSON document with a row per
 * instance and per summary (for harnesses; docs/bfco.md lists the fields).  BFCO options
 * (--window, --particles, ...) change the default BFCO of every section.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "gen_graph.h"
#include "stats.h"

static double
peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static Sched *
schedule(Graph *g, int64_t budget)
{
    Options opt;
    memset(&opt, 0, sizeof opt);
    opt.limits = ir_default_limits();
    opt.search_budget = budget;
    Unit u = {.g = g, .p = g->platform, .opt = &opt};
    Diag *d = diag_new();
    if (pass_schedule(&u, d) != 0) {
        diag_flush(d, stderr);
        diag_free(d);
        return NULL;
    }
    diag_free(d);
    return u.s;
}

static double
pct(int64_t none, int64_t x)
{
    return 100.0 * (double)(none - x) / (double)none;
}

/* One optimisation; its CPU seconds in *cpu.  Returns the length, or -1. */
static int64_t
run(const Sched *base, OptMethod m, const BfcoParams *bp, OptStats *st, double *cpu)
{
    Sched *out = NULL;
    Diag *d = diag_new();
    double c0 = ir_cpu_seconds();
    int rc = opt_run(base, m, bp, &out, st, d);
    if (cpu)
        *cpu = ir_cpu_seconds() - c0;
    diag_free(d);
    ir_sched_free(out);
    return rc == 0 ? st->length : -1;
}

typedef struct Variant {
    const char *name;
    OptMethod m;
    int vshaped, joint, polish; /* -1: as the default */
} Variant;

/* bfco stays third, es last */
static const Variant variants[] = {
    {"ma", OPT_MA, -1, -1, -1},      {"cp", OPT_CP, -1, -1, -1},
    {"bfco", OPT_BFCO, -1, -1, -1},  {"bfco-seed", OPT_BFCO, 0, 0, 0},
    {"bfco-v", OPT_BFCO, 1, -1, -1}, {"bfco-j", OPT_BFCO, -1, 1, -1},
    {"es", OPT_ES, -1, -1, -1},
};
enum { NV = sizeof variants / sizeof variants[0], BFCO = 2 };

typedef struct Bench {
    BfcoParams bp; /* the default BFCO */
    int instances, first, seeds, long_particles, long_generations;
    int best_of; /* the reference is the best of this many long searches (seeds 1..) */
    int long_restarts;  /* with long_generations: the default's stall and this many
                           restarts (-1: no stall, no restart) */
    int speed_seed;     /* the graph seed of the speed cases */
    int repeat;         /* runs of each speed case (0: by its size) */
    double long_factor; /* the long reference makes this many times the evaluations */
    bool variants, json;
    json_t *rows; /* --json: every row */
} Bench;

static BfcoParams
params_of(const Bench *b, const Variant *v)
{
    BfcoParams bp = b->bp;
    if (v->vshaped >= 0)
        bp.vshaped = v->vshaped;
    if (v->joint >= 0)
        bp.joint = v->joint;
    if (v->joint == 0)
        bp.joint_units = 0; /* the greedy pipeline choice only */
    if (v->polish >= 0)
        bp.polish = v->polish;
    return bp;
}

static void
row(Bench *b, json_t *o)
{
    if (b->json)
        json_array_append(b->rows, o);
    json_decref(o);
}

/* A class of tools/gen_graph.c, or SHAPE SIZE with rand50's costs: "randN", "layeredN"
 * (N tasks), "fftN", "butterflyN" (N points, a power of two): graphs of other sizes than
 * the classes.  0, or -1 if the name is neither. */
static int gen_spec_on(const char *cls, GenSpec *gs);

/* As gen_spec_on, and a suffix "@PRESET" puts the graph on that platform preset
 * (rand1000@bwdsp-4board). */
static int
gen_spec(const char *cls, GenSpec *gs)
{
    static char plat[8][64];
    static int next;
    const char *at = strchr(cls, '@');
    if (!at)
        return gen_spec_on(cls, gs);
    char base[64];
    if ((size_t)(at - cls) >= sizeof base || strlen(at + 1) >= sizeof plat[0])
        return -1;
    memcpy(base, cls, (size_t)(at - cls));
    base[at - cls] = '\0';
    if (gen_spec_on(base, gs) != 0)
        return -1;
    char *pl = plat[next++ % 8]; /* the spec keeps a pointer to it */
    strcpy(pl, at + 1);
    gs->platform = pl;
    return 0;
}

static int
gen_spec_on(const char *cls, GenSpec *gs)
{
    if (gen_class(cls, gs) == 0)
        return 0;
    static const struct {
        const char *prefix;
        GenShape shape;
    } shapes[] = {{"rand", GEN_RANDOM},
                  {"layered", GEN_LAYERED},
                  {"fft", GEN_FFT},
                  {"butterfly", GEN_BUTTERFLY}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        size_t n = strlen(shapes[k].prefix);
        char *end;
        if (strncmp(cls, shapes[k].prefix, n) != 0 || cls[n] < '1' || cls[n] > '9')
            continue;
        long v = strtol(cls + n, &end, 10);
        bool fft = shapes[k].shape == GEN_FFT || shapes[k].shape == GEN_BUTTERFLY;
        if (*end || v < 2 || v > 100000 || (fft && (v & (v - 1))))
            return -1;
        gen_class("rand50", gs);
        gs->shape = shapes[k].shape;
        gs->points = fft ? (int)v : 0;
        gs->tasks = shapes[k].shape == GEN_FFT         ? gen_fft_tasks((int)v)
                    : shapes[k].shape == GEN_BUTTERFLY ? gen_butterfly_tasks((int)v)
                                                       : (int)v;
        return 0;
    }
    return -1;
}

/* Instance i of class cls, scheduled as tgc opt does; NULL if it cannot be. */
static Sched *
instance(const char *cls, int i, Graph **gout, int64_t *none)
{
    GenSpec gs;
    if (gen_spec(cls, &gs) != 0) {
        fprintf(stderr, "bench_bfco: unknown class \"%s\"\n", cls);
        exit(2);
    }
    gs.seed = (uint64_t)i;
    char name[64];
    snprintf(name, sizeof name, "%s-%d", cls, i);
    Graph *g = gen_graph(&gs, name);
    if (!g) {
        fprintf(stderr, "bench_bfco: class \"%s\": unknown platform preset\n", cls);
        exit(2);
    }
    Sched *base = schedule(g, -1);
    if (!base) {
        ir_graph_free(g);
        return NULL;
    }
    *none = eval_length_of(base);
    *gout = g;
    return base;
}

static void
quality(Bench *b, const char *cls)
{
    double sum[NV] = {0}, esum[NV] = {0}, gap_sum[NV] = {0}, gap_max[NV] = {0};
    double secs[NV] = {0};
    int es_runs = 0, hits[NV] = {0}, used = 0, msgs = 0;
    int first = b->first > 0 ? b->first : 1;
    for (int i = first; i < first + b->instances; i++) {
        Graph *g;
        int64_t none;
        Sched *base = instance(cls, i, &g, &none);
        if (!base)
            continue;
        used++;
        msgs += base->nmsgs;
        int64_t L[NV];
        json_t *o =
            json_pack("{s:s, s:s, s:i, s:i, s:I}", "section", "quality", "class", cls,
                      "instance", i, "messages", base->nmsgs, "none", (json_int_t)none);
        for (int k = 0; k < NV; k++) {
            if (!b->variants && k > BFCO && k < NV - 1) {
                L[k] = -1;
                continue;
            }
            OptStats st;
            double cpu;
            BfcoParams bp = params_of(b, &variants[k]);
            L[k] = run(base, variants[k].m, &bp, &st, &cpu);
            secs[k] += cpu;
            if (L[k] >= 0) {
                sum[k] += pct(none, L[k]);
                json_object_set_new(o, variants[k].name, json_integer(L[k]));
            }
        }
        if (L[NV - 1] >= 0) {
            es_runs++;
            double e = pct(none, L[NV - 1]);
            for (int k = 0; k < NV; k++) {
                if (L[k] < 0)
                    continue;
                double x = pct(none, L[k]);
                esum[k] += x;
                gap_sum[k] += e - x;
                if (e - x > gap_max[k])
                    gap_max[k] = e - x;
                hits[k] += L[k] == L[NV - 1];
            }
        }
        row(b, o);
        ir_sched_free(base);
        ir_graph_free(g);
    }
    json_t *o = json_pack("{s:s, s:s, s:i, s:f, s:i}", "section", "quality-summary",
                          "class", cls, "instances", used, "messages_mean",
                          used ? (double)msgs / used : 0.0, "es_runs", es_runs);
    if (!b->json)
        printf("| %-8s | %3d | %5.1f |", cls, used, used ? (double)msgs / used : 0.0);
    for (int k = 0; k < NV; k++) {
        bool on = b->variants || k <= BFCO || k == NV - 1;
        if (!on)
            continue;
        int n = k == NV - 1 ? es_runs : used;
        double mean = n ? sum[k] / n : 0.0;
        char f[64];
        snprintf(f, sizeof f, "%s_improvement_mean", variants[k].name);
        json_object_set_new(o, f, json_real(mean));
        snprintf(f, sizeof f, "%s_cpu_seconds_mean", variants[k].name);
        json_object_set_new(o, f, json_real(n ? secs[k] / n : 0.0));
        if (!b->json) {
            if (k == NV - 1 && !es_runs)
                printf(" n/a |");
            else
                printf(" %6.2f%% |", mean);
        }
    }
    for (int k = BFCO; k < NV - 1; k++) {
        if (!b->variants && k > BFCO)
            continue;
        char f[64];
        snprintf(f, sizeof f, "%s_gap_to_es_mean", variants[k].name);
        json_object_set_new(o, f, json_real(es_runs ? gap_sum[k] / es_runs : 0.0));
        snprintf(f, sizeof f, "%s_gap_to_es_max", variants[k].name);
        json_object_set_new(o, f, json_real(gap_max[k]));
        snprintf(f, sizeof f, "%s_equals_es", variants[k].name);
        json_object_set_new(o, f, json_integer(hits[k]));
        if (!b->json) {
            if (es_runs)
                printf(" %.2f / %.2f, %d of %d |", gap_sum[k] / es_runs, gap_max[k],
                       hits[k], es_runs);
            else
                printf(" n/a |");
        }
    }
    if (!b->json)
        printf(" %.4f |\n", used ? secs[BFCO] / used : 0.0);
    row(b, o);
    fflush(stdout);
}

/* The long reference of instance base: the default's BFCO with --long-particles particles
 * (64), seed 1 and no limit on its restarts, and either --long-generations generations
 * without a stall (the older reference; a converged swarm then spares nearly every
 * evaluation through its bounds), or (0, the default) as many generations as it takes to
 * make at least --long-factor (10) times `evals` evaluations and `bevals` bound
 * evaluations (contention-free, docs/bfco.md "Lower bounds"): it starts from factor x
 * `pgens` (the default's particles x generations) / particles and grows by the missing
 * factor, plus a quarter, until it does.  A restart at every stall gives it fresh
 * positions, which are always evaluated.  Its evaluations in *ev and *bev, generations
 * in *gens, CPU seconds (of every attempt) in *cpu. */
static int64_t
long_reference(const Bench *b, const Sched *base, uint64_t seed, int64_t evals,
               int64_t bevals, int64_t pgens, int64_t *ev, int64_t *bev, int *gens,
               double *cpu)
{
    BfcoParams bp = b->bp;
    bp.seed = seed;
    bp.particles = b->long_particles;
    bp.time_limit = 0;
    double need = b->long_factor * (double)evals, bneed = b->long_factor * (double)bevals;
    int64_t G = b->long_generations;
    if (G > 0 && b->long_restarts >= 0) {
        bp.restarts = b->long_restarts;
    } else if (G > 0) {
        bp.stall = 0;
    } else {
        bp.restarts = 1 << 30;
        if (bp.stall == 0)
            bp.stall = -1; /* the default's */
        G = (int64_t)ceil(b->long_factor * (double)pgens / b->long_particles);
        G = G < 1 ? 1 : G;
    }
    *cpu = 0;
    for (;;) {
        bp.generations = (int)G;
        OptStats st;
        double c;
        int64_t L = run(base, OPT_BFCO, &bp, &st, &c);
        *cpu += c;
        *ev = st.evaluations;
        *bev = st.bound_evals;
        *gens = st.generations;
        if (b->long_generations > 0 ||
            ((double)st.evaluations >= need && (double)st.bound_evals >= bneed) ||
            L < 0 || G >= 100000)
            return L;
        double grow = 1.25 * need / (double)(st.evaluations > 0 ? st.evaluations : 1),
               bgrow = 1.25 * bneed / (double)(st.bound_evals > 0 ? st.bound_evals : 1);
        grow = bgrow > grow ? bgrow : grow;
        G = (int64_t)ceil((double)G * (grow > 1.25 ? grow : 1.25));
    }
}

static void
long_search(Bench *b, const char *cls)
{
    double gap_sum = 0, gap_max = 0, spread_sum = 0, spread_max = 0, ratio_min = INFINITY;
    double worst_sum = 0, worst_max = -INFINITY;
    double cpu_def = 0, cpu_long = 0, ev_def = 0, ev_long = 0;
    int used = 0;
    int first = b->first > 0 ? b->first : 1;
    for (int i = first; i < first + b->instances; i++) {
        Graph *g;
        int64_t none;
        Sched *base = instance(cls, i, &g, &none);
        if (!base)
            continue;
        used++;
        double lo = INFINITY, hi = -INFINITY, cpu_i = 0;
        int64_t L1 = -1, evmax = 0, bmax = 0, evsum = 0, pgens = 0;
        json_t *o =
            json_pack("{s:s, s:s, s:i, s:i, s:I}", "section", "long", "class", cls,
                      "instance", i, "messages", base->nmsgs, "none", (json_int_t)none);
        json_t *seeds = json_array(), *sevals = json_array();
        for (int s = 1; s <= b->seeds; s++) {
            BfcoParams bp = b->bp;
            bp.seed = (uint64_t)s;
            OptStats st;
            double cpu;
            int64_t L = run(base, OPT_BFCO, &bp, &st, &cpu);
            cpu_i += cpu;
            double x = pct(none, L);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
            if (s == 1)
                L1 = L;
            evmax = st.evaluations > evmax ? st.evaluations : evmax;
            bmax = st.bound_evals > bmax ? st.bound_evals : bmax;
            if ((int64_t)st.particles * st.generations > pgens)
                pgens = (int64_t)st.particles * st.generations;
            evsum += st.evaluations;
            json_array_append_new(seeds, json_integer(L));
            json_array_append_new(sevals, json_integer(st.evaluations));
        }
        /* the reference: the shortest of --best-of long searches, seeds 1.. */
        int64_t evl = 0, bevl = 0, Ll = -1;
        int gl = 0;
        double cpul = 0;
        json_t *longs = json_array();
        for (int r = 1; r <= (b->best_of > 0 ? b->best_of : 1); r++) {
            int64_t e, be;
            int gg;
            double c;
            int64_t L = long_reference(b, base, (uint64_t)r, evmax, bmax, pgens, &e, &be,
                                       &gg, &c);
            json_array_append_new(longs, json_integer(L));
            cpul += c;
            if (L >= 0 && (Ll < 0 || L < Ll))
                Ll = L;
            if (r == 1)
                evl = e, bevl = be, gl = gg;
        }
        double gap =
            100.0 * (double)(L1 - Ll) / (double)Ll; /* negative: default shorter */
        /* the worst seed's gap: none's length shrunk by the lowest improvement */
        double worst =
            100.0 * ((double)none * (1 - lo / 100.0) - (double)Ll) / (double)Ll;
        worst_sum += worst;
        worst_max = worst > worst_max ? worst : worst_max;
        double ratio = evmax > 0 ? (double)evl / (double)evmax : 0.0;
        double bratio = bmax > 0 ? (double)bevl / (double)bmax : 0.0;
        double nseeds = b->seeds ? b->seeds : 1;
        gap_sum += gap;
        gap_max = gap > gap_max ? gap : gap_max;
        spread_sum += hi - lo;
        spread_max = hi - lo > spread_max ? hi - lo : spread_max;
        ratio_min = ratio < ratio_min ? ratio : ratio_min;
        ratio_min = bratio < ratio_min ? bratio : ratio_min;
        cpu_def += cpu_i / nseeds;
        cpu_long += cpul;
        ev_def += (double)evsum / nseeds;
        ev_long += (double)evl;
        if (!b->json)
            printf("| %s-%d | %d | %.3f %% (%.3f %%) | %.3f %% .. %.3f %% | %.2f | %.0f "
                   "(max %" PRId64 ", %" PRId64 " bounds) | %" PRId64 " (%" PRId64
                   " bounds, %d gen.) | %.1f / %.1f | %.3f / %.3f |\n",
                   cls, i, base->nmsgs, gap, worst, lo, hi, hi - lo,
                   (double)evsum / nseeds, evmax, bmax, evl, bevl, gl, ratio, bratio,
                   cpu_i / nseeds, cpul);
        fflush(stdout);
        json_object_set_new(o, "default", seeds);
        json_object_set_new(o, "default_evaluations", sevals);
        json_object_set_new(o, "long", json_integer(Ll));
        json_object_set_new(o, "longs", longs);
        json_object_set_new(o, "gap_worst_seed_percent", json_real(worst));
        json_object_set_new(o, "long_evaluations", json_integer(evl));
        json_object_set_new(o, "long_bound_evaluations", json_integer(bevl));
        json_object_set_new(o, "default_bound_evaluations_max", json_integer(bmax));
        json_object_set_new(o, "bound_evaluation_ratio", json_real(bratio));
        json_object_set_new(o, "long_generations", json_integer(gl));
        json_object_set_new(o, "gap_percent", json_real(gap));
        json_object_set_new(o, "spread_points", json_real(hi - lo));
        json_object_set_new(o, "evaluation_ratio", json_real(ratio));
        json_object_set_new(o, "cpu_seconds_default", json_real(cpu_i / nseeds));
        json_object_set_new(o, "cpu_seconds_long", json_real(cpul));
        row(b, o);
        ir_sched_free(base);
        ir_graph_free(g);
    }
    double n = used ? used : 1;
    if (!used)
        ratio_min = 0;
    if (!b->json)
        printf("| **%s** | %d instances | %.3f %% mean, %.3f %% max (worst seed %.3f %% "
               "max) | | %.2f mean, %.2f max | %.0f | %.0f | %.1f min | %.3f / %.3f |\n",
               cls, used, gap_sum / n, gap_max, used ? worst_max : 0.0, spread_sum / n,
               spread_max, ev_def / n, ev_long / n, ratio_min, cpu_def / n, cpu_long / n);
    row(b, json_pack("{s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, "
                     "s:f}",
                     "section", "long-summary", "class", cls, "instances", used,
                     "gap_percent_mean", gap_sum / n, "gap_percent_max", gap_max,
                     "gap_worst_seed_percent_mean", worst_sum / n,
                     "gap_worst_seed_percent_max", used ? worst_max : 0.0,
                     "spread_points_mean", spread_sum / n, "spread_points_max",
                     spread_max, "evaluation_ratio_min", ratio_min,
                     "evaluations_default_mean", ev_def / n, "evaluations_long_mean",
                     ev_long / n, "cpu_seconds_default_mean", cpu_def / n,
                     "cpu_seconds_long_mean", cpu_long / n));
    fflush(stdout);
}

/* CPU seconds per eval_length of a schedule like those the search evaluates: s and the
 * base schedule alternately (the evaluator answers a repeat of its last schedule from a
 * memo, which a search seldom gets), repetitions for at least 0.2 s. */
static double
eval_cost(const Sched *s, const Sched *base)
{
    Evaluator *ev = eval_new(s->g, s->p);
    int n = 0;
    double c0 = ir_cpu_seconds(), c;
    do {
        eval_length(ev, n % 2 ? base : s);
        n++;
    } while ((c = ir_cpu_seconds() - c0) < 0.2);
    eval_free(ev);
    return c / n;
}

/* The speed case of `tasks` tasks: its graph (*g) and HEFT schedule, *heft its CPU s. */
static Sched *
speed_case(const Bench *b, int tasks, Graph **g, double *heft)
{
    const char *plat = tasks <= 200    ? "bwdsp-1board"
                       : tasks <= 2000 ? "bwdsp-4board"
                                       : "bwdsp-16board";
    GenSpec gs;
    gen_class("rand50", &gs);
    gs.tasks = tasks;
    gs.platform = plat;
    gs.seed = (uint64_t)b->speed_seed;
    char name[64];
    snprintf(name, sizeof name, "speed-%d", tasks);
    *g = gen_graph(&gs, name);
    double c0 = ir_cpu_seconds();
    Sched *base = schedule(*g, 0); /* HEFT only: the scheduler is not what is measured */
    *heft = ir_cpu_seconds() - c0;
    return base;
}

/* The CPU seconds of the calling thread. */
static double
thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The threads section: the speed case of `size` tasks optimised with 1 thread and with
 * --threads N in turn (1, N, 1, N, ...: both sides under the same load), --repeat times
 * each (default 3): the median wall and CPU seconds of opt_run of each side, and the
 * ratio of the wall medians; and the main thread's CPU seconds with N, whose ratio to
 * the CPU seconds with 1 bounds the speed-up from above whatever the load (the main
 * thread runs every sequential step and its share of the batches; what it does not
 * show is its waits for the other threads).  Both sides must find the same length and
 * evaluations. */
static void
threads(Bench *b, const char *size)
{
    int tasks = atoi(size), T = b->bp.threads;
    Graph *g;
    double heft;
    Sched *base = speed_case(b, tasks, &g, &heft);
    int runs = b->repeat > 0 ? b->repeat : 3;
    double *wall[2], *cpu[2], *main_cpu[2];
    for (int s = 0; s < 2; s++) {
        wall[s] = ir_xcalloc((size_t)runs, sizeof(double));
        cpu[s] = ir_xcalloc((size_t)runs, sizeof(double));
        main_cpu[s] = ir_xcalloc((size_t)runs, sizeof(double));
    }
    int64_t len[2] = {-1, -1}, ev[2] = {-1, -1};
    for (int k = 0; k < runs; k++)
        for (int s = 0; s < 2; s++) {
            BfcoParams bp = b->bp;
            bp.threads = s == 0 ? 1 : T;
            OptStats st;
            Sched *out = NULL;
            Diag *d = diag_new();
            double w0 = ir_wall_seconds(), c0 = ir_cpu_seconds(), m0 = thread_cpu();
            opt_run(base, OPT_BFCO, &bp, &out, &st, d);
            wall[s][k] = ir_wall_seconds() - w0;
            cpu[s][k] = ir_cpu_seconds() - c0;
            main_cpu[s][k] = thread_cpu() - m0;
            diag_free(d);
            ir_sched_free(out);
            if (len[s] < 0) {
                len[s] = st.length;
                ev[s] = st.evaluations;
            }
            if (st.length != len[0] || st.evaluations != ev[0]) {
                fprintf(stderr,
                        "bench_bfco: threads case %d: %d thread(s) found length %" PRId64
                        " in %" PRId64 " evaluations, 1 thread %" PRId64 " in %" PRId64
                        " (the search depends on the threads)\n",
                        tasks, bp.threads, st.length, st.evaluations, len[0], ev[0]);
                exit(1);
            }
        }
    double mw[2], mc[2], mm[2];
    for (int s = 0; s < 2; s++) {
        mw[s] = stats_median(wall[s], runs);
        mc[s] = stats_median(cpu[s], runs);
        mm[s] = stats_median(main_cpu[s], runs);
        free(wall[s]);
        free(cpu[s]);
        free(main_cpu[s]);
    }
    double ratio = mw[1] > 0 ? mw[0] / mw[1] : 0.0,
           bound = mm[1] > 0 ? mc[0] / mm[1] : 0.0;
    double load[1] = {-1};
    FILE *lf = fopen("/proc/loadavg", "r"); /* -1 where there is none */
    if (lf) {
        if (fscanf(lf, "%lf", &load[0]) != 1)
            load[0] = -1;
        fclose(lf);
    }
    if (!b->json)
        printf(
            "| %5d | %5d | %d | %d | %8.3f s | %8.3f s | %8.3f s | %8.3f s | %8.3f s | "
            "%5.2fx | %5.2fx | %" PRId64 " | %.2f |\n",
            tasks, base->nmsgs, T, runs, mw[0], mc[0], mw[1], mc[1], mm[1], ratio, bound,
            len[0], load[0]);
    row(b,
        json_pack(
            "{s:s, s:i, s:i, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, "
            "s:f}",
            "section", "threads", "tasks", tasks, "messages", base->nmsgs, "threads", T,
            "runs", runs, "wall_seconds_1", mw[0], "cpu_seconds_1", mc[0],
            "wall_seconds_n", mw[1], "cpu_seconds_n", mc[1], "main_thread_cpu_seconds_n",
            mm[1], "speedup", ratio, "speedup_bound", bound, "bfco", (json_int_t)len[0],
            "evaluations", (json_int_t)ev[0], "load", load[0]));
    fflush(stdout);
    ir_sched_free(base);
    ir_graph_free(g);
}

static void
speed(Bench *b, const char *size)
{
    int tasks = atoi(size);
    Graph *g;
    double heft;
    Sched *base = speed_case(b, tasks, &g, &heft);
    double c0;
    int used = 0;
    for (int d = 0; d < base->ndsps; d++)
        for (int k = 0; k < base->nops[d]; k++)
            if (base->ops[d][k].kind == OP_COMPUTE) {
                used++;
                break;
            }
    int64_t none = eval_length_of(base);
    OptStats st;
    BfcoParams bp = b->bp;
    Sched *out = NULL;
    /* one run's CPU time of a few hundredths of a second varies by a third from run to
     * run: the median of several */
    int runs = b->repeat > 0 ? b->repeat : tasks <= 200 ? 9 : tasks <= 2000 ? 3 : 1;
    double *cpus = malloc(sizeof *cpus * (size_t)runs);
    if (!cpus)
        abort();
    int64_t first_len = -1;
    for (int k = 0; k < runs; k++) {
        ir_sched_free(out);
        out = NULL;
        Diag *d = diag_new();
        c0 = ir_cpu_seconds();
        opt_run(base, OPT_BFCO, &bp, &out, &st, d);
        cpus[k] = ir_cpu_seconds() - c0;
        diag_free(d);
        if (k == 0)
            first_len = st.length;
        else if (st.length != first_len) {
            fprintf(stderr,
                    "bench_bfco: speed case %d: run %d found length %" PRId64
                    ", run 1 %" PRId64 " (the search is not deterministic)\n",
                    tasks, k + 1, st.length, first_len);
            exit(1);
        }
    }
    double *sorted = malloc(sizeof *sorted * (size_t)runs);
    if (!sorted)
        abort();
    memcpy(sorted, cpus, sizeof *sorted * (size_t)runs);
    double cpu = stats_median(sorted, runs);
    free(sorted);
    double peak = peak_mb();
    double per = out ? eval_cost(out, base) : 0.0;
    double share = cpu > 0 ? 100.0 * per * (double)st.evaluations / cpu : 0.0;
    if (share > 100)
        share = 100;
    if (!b->json)
        printf("| %5d | %3d (%d used) | %5d | %6d | %3d x %3d | %8.3f s | %7" PRId64
               " (%" PRId64 " polish) | %" PRId64 " | %" PRId64
               " | %8.0f | %5.1f %% | %6.2f%% | %5.0f MB | %.2f s |\n",
               tasks, g->platform->ndsps, used, base->nmsgs, st.nbits, st.particles,
               st.generations, cpu, st.evaluations, st.polish_evals, st.bound_evals,
               st.cache_hits, cpu > 0 ? st.evaluations / cpu : 0.0, share,
               pct(none, st.length), peak, heft);
    row(b, json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:I, s:f, s:f, s:f, "
                     "s:f, s:I, s:I, s:i, s:f}",
                     "section", "speed", "tasks", tasks, "dsps", g->platform->ndsps,
                     "dsps_used", used, "messages", base->nmsgs, "decision_bits",
                     st.nbits, "particles", st.particles, "generations", st.generations,
                     "cpu_seconds", cpu, "evaluations", (json_int_t)st.evaluations,
                     "evaluations_per_cpu_second", cpu > 0 ? st.evaluations / cpu : 0.0,
                     "evaluator_share_percent", share, "improvement_percent",
                     pct(none, st.length), "peak_rss_mb", peak, "none", (json_int_t)none,
                     "bfco", (json_int_t)st.length, "restarts", st.restarts,
                     "heft_cpu_seconds", heft));
    json_t *last = json_array_get(b->rows, json_array_size(b->rows) - 1);
    if (b->json && last) {
        json_t *all = json_array();
        for (int k = 0; k < runs; k++)
            json_array_append_new(all, json_real(cpus[k]));
        json_object_set_new(last, "runs", json_integer(runs));
        json_object_set_new(last, "cpu_seconds_runs", all);
        json_object_set_new(last, "polish_evaluations", json_integer(st.polish_evals));
        json_object_set_new(last, "bound_evaluations", json_integer(st.bound_evals));
        json_object_set_new(last, "cache_hits", json_integer(st.cache_hits));
        json_object_set_new(last, "descent_moves", json_integer(st.descent_moves));
        json_object_set_new(last, "fitness_moves", json_integer(st.fitness_moves));
    }
    fflush(stdout);
    free(cpus);
    ir_sched_free(out);
    ir_sched_free(base);
    ir_graph_free(g);
}

/* The rules of the descent that the rules section switches off one at a time: the
 * BfcoParams.rules_off bits, then the moves on the fitness (their own
 * parameters at 0).  Where each acts: every schedule, up to DESCENT_CONVERGE_MAX (800)
 * messages, or above it; a graph outside a rule's scope runs the default's search
 * unchanged and is not run again. */
enum { SCOPE_ALL, SCOPE_SMALL, SCOPE_LARGE };
enum { RULE_FITNESS = BFCO_RULES, NRULES };
static const int rule_scope[NRULES] = {
    [0] = SCOPE_SMALL,  /* converge */
    [1] = SCOPE_ALL,    /* reach */
    [2] = SCOPE_LARGE,  /* gathers */
    [3] = SCOPE_LARGE,  /* kinds */
    [4] = SCOPE_LARGE,  /* first-cap */
    [5] = SCOPE_LARGE,  /* pass-gain */
    [6] = SCOPE_LARGE,  /* cut */
    [7] = SCOPE_LARGE,  /* contended */
    [8] = SCOPE_LARGE,  /* judge */
    [9] = SCOPE_LARGE,  /* converge-contended */
    [10] = SCOPE_LARGE, /* near-sends */
    [11] = SCOPE_ALL,   /* order */
    [12] = SCOPE_ALL,   /* from-none */
    [13] = SCOPE_LARGE, /* pass-ends */
    [14] = SCOPE_SMALL, /* relocate */
    [RULE_FITNESS] = SCOPE_SMALL,
};
static const char *const rule_help[NRULES] = {
    "up to 800 messages, the passes go on to a local optimum",
    "when a pass fits in the budget, passes beyond it (16 passes)",
    "above 800 messages, the gather moves",
    "above 800, the first pass takes joins and gathers by their success",
    "above 800, the first pass within 10 budgets",
    "above 800, later passes while the one before gained 0.1 %",
    "after a first pass of < 10 %, later passes cut, the third after 1 %",
    "above 800, the contended surrogate once the gap grew by 1 %",
    "a capped first pass judged (the gap) every budget of moves",
    "on the contended surrogate, passes to a local optimum (16 passes)",
    "above 800, the first descent from the near-sends start",
    "later passes try the moves by their last change",
    "the descent from no merge too",
    "above 800, the shortest pass end kept (its fitness)",
    "up to 800 messages, the relocation moves",
    "up to 64 messages, the moves on the fitness (--fitness-passes 0)",
};
#define RULE_LARGE_MSGS 800 /* DESCENT_CONVERGE_MAX (passes/bfco/private.h) */

static const char *
rule_name(int r)
{
    return r == RULE_FITNESS ? "fitness-moves" : bfco_rule_names[r];
}

/* The graphs of the rules section: "quick" (the classes and sizes the rules were tuned
 * on) and "held" (instances and sizes they were not). */
static const char *const rule_quick[] = {"hi20:1",     "hi20:2",
                                         "lo20:1",     "lo20:2",
                                         "rand50:1",   "rand50:2",
                                         "chain100:1", "fft32:1",
                                         "fft32:2",    "rand100@bwdsp-4board:7",
                                         "fft64:1",    "rand1000@bwdsp-4board:7",
                                         "fft128:1",   NULL};
static const char *const rule_held[] = {"hi20:11",
                                        "lo20:11",
                                        "rand50:11",
                                        "rand50:12",
                                        "chain100:11",
                                        "butterfly32:1",
                                        "butterfly32:2",
                                        "layered150:1",
                                        "fft32:11",
                                        "rand300@bwdsp-2board:3",
                                        "rand1000@bwdsp-4board:8",
                                        NULL};

/* One graph of the rules section ("CLASS:INSTANCE"): the default and every rule off,
 * their lengths, CPU seconds (medians of runs) and whether the search changed (the
 * length, evaluations, bound evaluations or descent moves differ) into len[], cpu[],
 * same[] (index NRULES: the default).  Returns the messages, or -1. */
static int
rule_graph(const Bench *b, const char *spec, int64_t *len, double *cpu, bool *same,
           int64_t *none)
{
    char cls[64];
    const char *colon = strrchr(spec, ':');
    snprintf(cls, sizeof cls, "%.*s", (int)(colon - spec), spec);
    Graph *g;
    Sched *base = instance(cls, atoi(colon + 1), &g, none);
    if (!base)
        return -1;
    int runs = b->repeat > 0 ? b->repeat : 1, M = base->nmsgs;
    double *c = ir_xcalloc((size_t)runs, sizeof *c);
    OptStats def = {0};
    for (int r = NRULES; r >= 0; r--) { /* the default first */
        int sc = r == NRULES ? SCOPE_ALL : rule_scope[r];
        if ((sc == SCOPE_SMALL && M > RULE_LARGE_MSGS) ||
            (sc == SCOPE_LARGE && M <= RULE_LARGE_MSGS)) {
            len[r] = len[NRULES];
            cpu[r] = cpu[NRULES];
            same[r] = true;
            continue;
        }
        BfcoParams bp = b->bp;
        if (r == RULE_FITNESS)
            bp.fitness_passes = 0;
        else if (r < BFCO_RULES)
            bp.rules_off |= 1u << r;
        OptStats st;
        for (int k = 0; k < runs; k++) {
            len[r] = run(base, OPT_BFCO, &bp, &st, &c[k]);
            if (len[r] < 0) {
                fprintf(stderr, "bench_bfco: rules: %s without %s: no result\n", spec,
                        r == NRULES ? "nothing" : rule_name(r));
                exit(1);
            }
        }
        cpu[r] = stats_median(c, runs);
        if (r == NRULES)
            def = st;
        same[r] = st.length == def.length && st.evaluations == def.evaluations &&
                  st.bound_evals == def.bound_evals &&
                  st.descent_moves == def.descent_moves &&
                  st.fitness_moves == def.fitness_moves;
    }
    free(c);
    ir_sched_free(base);
    ir_graph_free(g);
    return M;
}

/* The rules section on one set of graphs: per graph a line of the lengths (--json: a
 * row), then per rule the change of the default's length without it (percent of the
 * default's; > 0: longer without the rule), the graphs whose search it changed, and the
 * CPU seconds of the graphs in its scope with and without it. */
static void
rules(Bench *b, const char *set)
{
    const char *const *gs = strcmp(set, "held") == 0 ? rule_held : rule_quick;
    int ng = 0;
    while (gs[ng])
        ng++;
    int64_t(*len)[NRULES + 1] = ir_xcalloc((size_t)ng, sizeof *len);
    double(*cpu)[NRULES + 1] = ir_xcalloc((size_t)ng, sizeof *cpu);
    bool(*same)[NRULES + 1] = ir_xcalloc((size_t)ng, sizeof *same);
    int *msgs = ir_xcalloc((size_t)ng, sizeof *msgs);
    for (int i = 0; i < ng; i++) {
        int64_t none;
        msgs[i] = rule_graph(b, gs[i], len[i], cpu[i], same[i], &none);
        if (msgs[i] < 0) {
            fprintf(stderr, "bench_bfco: rules: %s cannot be scheduled\n", gs[i]);
            exit(1);
        }
        json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:I, s:I, s:f}", "section",
                              "rules-graph", "set", set, "graph", gs[i], "messages",
                              msgs[i], "none", (json_int_t)none, "bfco",
                              (json_int_t)len[i][NRULES], "cpu_seconds", cpu[i][NRULES]);
        json_t *off = json_object();
        for (int r = 0; r < NRULES; r++)
            json_object_set_new(off, rule_name(r), json_integer(len[i][r]));
        json_object_set_new(o, "without", off);
        row(b, o);
        if (!b->json)
            fprintf(stderr, "rules %s: %s (%d messages): %" PRId64 " cycles, %.3f s\n",
                    set, gs[i], msgs[i], len[i][NRULES], cpu[i][NRULES]);
    }
    if (!b->json) {
        printf("Set %s: %d graphs (", set, ng);
        for (int i = 0; i < ng; i++)
            printf("%s%s", i ? ", " : "", gs[i]);
        printf(")\n\n| rule off | scope | graphs in scope | searches changed | length "
               "change %%: mean / min / max | longer / shorter | CPU s default | CPU s "
               "off | off / default |\n|---|---|---:|---:|---|---|---:|---:|---:|\n");
    }
    for (int r = 0; r < NRULES; r++) {
        int n = 0, changed = 0, longer = 0, shorter = 0;
        double sum = 0, lo = 0, hi = 0, c0 = 0, c1 = 0;
        for (int i = 0; i < ng; i++) {
            int sc = rule_scope[r];
            if ((sc == SCOPE_SMALL && msgs[i] > RULE_LARGE_MSGS) ||
                (sc == SCOPE_LARGE && msgs[i] <= RULE_LARGE_MSGS))
                continue;
            double d =
                100.0 * (double)(len[i][r] - len[i][NRULES]) / (double)len[i][NRULES];
            lo = n == 0 || d < lo ? d : lo;
            hi = n == 0 || d > hi ? d : hi;
            n++;
            sum += d;
            changed += !same[i][r];
            longer += d > 0;
            shorter += d < 0;
            c0 += cpu[i][NRULES];
            c1 += same[i][r] ? cpu[i][NRULES] : cpu[i][r];
        }
        static const char *const scn[] = {"all", "<= 800 msgs", "> 800 msgs"};
        if (!b->json)
            printf(
                "| %s | %s | %d | %d | %+.3f / %+.3f / %+.3f | %d / %d | %.3f | %.3f | "
                "%.2f |\n",
                rule_name(r), scn[rule_scope[r]], n, changed, n ? sum / n : 0.0, lo, hi,
                longer, shorter, c0, c1, c0 > 0 ? c1 / c0 : 0.0);
        row(b, json_pack("{s:s, s:s, s:s, s:i, s:i, s:f, s:f, s:f, s:i, s:i, s:f, s:f}",
                         "section", "rules", "set", set, "rule", rule_name(r), "graphs",
                         n, "changed", changed, "length_change_percent_mean",
                         n ? sum / n : 0.0, "length_change_percent_min", lo,
                         "length_change_percent_max", hi, "longer", longer, "shorter",
                         shorter, "cpu_seconds_default", c0, "cpu_seconds_off", c1));
    }
    if (!b->json)
        printf("\n");
    fflush(stdout);
    free(len);
    free(cpu);
    free(same);
    free(msgs);
}

/* f on each item of a comma-separated list, then a blank line. */
static void
each(Bench *b, const char *list, void (*f)(Bench *, const char *))
{
    char *copy = strdup(list);
    for (char *c = strtok(copy, ","); c; c = strtok(NULL, ","))
        f(b, c);
    free(copy);
    if (!b->json)
        printf("\n");
}

static void
usage_to(FILE *f, int status)
{
    fprintf(
        f,
        "usage: bench_bfco [--quality] [--long] [--speed] [--threads-speedup] [--classes "
        "LIST] "
        "[--instances N]\n"
        "                  [--first N] [--seeds N] [--long-particles N]\n"
        "                  [--long-generations N] [--long-restarts N] [--long-factor X]\n"
        "                  [--best-of N] [--rule-off RULE,...]\n"
        "                  [--speed-cases LIST] [--speed-seed N] [--repeat N]\n"
        "                  [--variants] [--json]\n"
        "                  [--threads N] [--es-limit N] [--window N] [--particles N]\n"
        "                  [--generations N] [--stall N] [--restarts N] "
        "[--time-limit S]\n"
        "                  [--polish-budget N] [--descent-budget N] [--kicks N]\n"
        "                  [--kick-moves N] [--fitness-passes N] [--joint]\n"
        "                  [--no-joint] [--vshaped]\n"
        "                  [--no-polish] [--polish-all]\n"
        "                  [--rules] [--rule-sets quick,held]\n"
        "  without a section option: --quality --speed\n"
        "  --rules: on each set of graphs (quick: the classes the rules were tuned on,\n"
        "  held: others), the default and the default with each rule below off in turn:\n"
        "  the change of the length, the searches changed, CPU seconds (--repeat N: the\n"
        "  medians of N runs).  --rule-off RULE,... (repeatable) switches rules off in\n"
        "  every section.  The rules (docs/bfco.md, \"The descent's rules\"):\n");
    for (int r = 0; r < NRULES; r++)
        fprintf(f, "    %-19s %s\n", rule_name(r), rule_help[r]);
    exit(status);
}

static void
usage(void)
{
    usage_to(stderr, 2);
}

static long long
num(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        usage();
    char *end;
    long long v = strtoll(argv[++*i], &end, 10);
    if (*end || v < 0)
        usage();
    return v;
}

int
main(int argc, char **argv)
{
    Bench b = {.instances = 10,
               .seeds = 5,
               .long_particles = 64,
               .long_restarts = -1,
               .long_factor = 10,
               .speed_seed = 7};
    bfco_default_params(&b.bp);
    bool q = false, l = false, sp = false, th = false, ru = false;
    const char *rule_sets = "quick,held";
    const char *classes = "hi20,lo20,rand50,chain100,fft32", *cases = "100,1000";
    /* The options that take a whole number: where each goes (an int or an int64_t). */
    const struct {
        const char *name;
        int *i;
        int64_t *l;
    } nums[] = {
        {"--speed-seed", &b.speed_seed, NULL},
        {"--instances", &b.instances, NULL},
        {"--seeds", &b.seeds, NULL},
        {"--long-particles", &b.long_particles, NULL},
        {"--first", &b.first, NULL},
        {"--long-restarts", &b.long_restarts, NULL},
        {"--best-of", &b.best_of, NULL},
        {"--long-generations", &b.long_generations, NULL},
        {"--threads", &b.bp.threads, NULL},
        {"--es-limit", NULL, &b.bp.es_limit},
        {"--window", &b.bp.window, NULL},
        {"--particles", &b.bp.particles, NULL},
        {"--generations", &b.bp.generations, NULL},
        {"--stall", &b.bp.stall, NULL},
        {"--restarts", &b.bp.restarts, NULL},
        {"--polish-budget", NULL, &b.bp.polish_budget},
        {"--descent-budget", NULL, &b.bp.descent_budget},
        {"--kicks", &b.bp.kicks, NULL},
        {"--kick-moves", &b.bp.kick_moves, NULL},
        {"--fitness-passes", &b.bp.fitness_passes, NULL},
    };
    const int nnums = (int)(sizeof nums / sizeof nums[0]);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int o = 0;
        while (o < nnums && strcmp(a, nums[o].name) != 0)
            o++;
        if (o < nnums) {
            int64_t v = num(argc, argv, &i);
            if (nums[o].i)
                *nums[o].i = (int)v;
            else
                *nums[o].l = v;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            usage_to(stdout, 0);
        else if (strcmp(a, "--quality") == 0)
            q = true;
        else if (strcmp(a, "--long") == 0)
            l = true;
        else if (strcmp(a, "--speed") == 0)
            sp = true;
        else if (strcmp(a, "--rules") == 0)
            ru = true;
        else if (strcmp(a, "--rule-sets") == 0 && i + 1 < argc)
            rule_sets = argv[++i];
        else if (strcmp(a, "--threads-speedup") == 0)
            th = true;
        else if (strcmp(a, "--variants") == 0)
            b.variants = true;
        else if (strcmp(a, "--json") == 0)
            b.json = true;
        else if (strcmp(a, "--joint") == 0)
            b.bp.joint = true;
        else if (strcmp(a, "--no-joint") == 0)
            b.bp.joint_units = 0;
        else if (strcmp(a, "--vshaped") == 0)
            b.bp.vshaped = true;
        else if (strcmp(a, "--no-polish") == 0)
            b.bp.polish = false;
        else if (strcmp(a, "--polish-all") == 0)
            b.bp.polish_all = true;
        else if (strcmp(a, "--classes") == 0 && i + 1 < argc)
            classes = argv[++i];
        else if (strcmp(a, "--speed-cases") == 0 && i + 1 < argc)
            cases = argv[++i];
        else if (strcmp(a, "--repeat") == 0) {
            long long n = num(argc, argv, &i);
            if (n > 1000) /* each run is kept for the median */
                usage();
            b.repeat = (int)n;
        } else if (strcmp(a, "--time-limit") == 0 && i + 1 < argc)
            b.bp.time_limit = atof(argv[++i]);
        else if (strcmp(a, "--rule-off") == 0 && i + 1 < argc) {
            char *list = strdup(argv[++i]), *save = NULL;
            for (char *r = strtok_r(list, ",", &save); r;
                 r = strtok_r(NULL, ",", &save)) {
                int k = 0;
                while (k < NRULES && strcmp(rule_name(k), r) != 0)
                    k++;
                if (k == RULE_FITNESS)
                    b.bp.fitness_passes = 0;
                if (k >= BFCO_RULES && k < NRULES)
                    continue;
                if (k == NRULES) {
                    fprintf(stderr, "bench_bfco: unknown rule \"%s\"\n", r);
                    usage();
                }
                b.bp.rules_off |= 1u << k;
            }
            free(list);
        } else if (strcmp(a, "--long-factor") == 0 && i + 1 < argc)
            b.long_factor = atof(argv[++i]);
        else
            usage();
    }
    if (!q && !l && !sp && !th && !ru)
        q = sp = true;
    b.rows = json_array();
    if (q) {
        if (!b.json) {
            printf(
                "Improvement over none, mean of %d instances per class (seeds %d..%d); "
                "es where within --es-limit %" PRId64
                "; CPU seconds of bfco per instance\n\n",
                b.instances, b.first > 0 ? b.first : 1,
                (b.first > 0 ? b.first : 1) + b.instances - 1, b.bp.es_limit);
            int ncol = 4;
            printf("| class | n | msgs |");
            for (int k = 0; k < NV; k++)
                if (b.variants || k <= BFCO || k == NV - 1) {
                    printf(" %s |", variants[k].name);
                    ncol++;
                }
            for (int k = BFCO; k < NV - 1; k++)
                if (b.variants || k == BFCO) {
                    printf(" %s gap to es: mean / max (points), = es |",
                           variants[k].name);
                    ncol++;
                }
            printf(" bfco CPU s |\n|");
            for (int k = 0; k < ncol; k++)
                printf("---|");
            printf("\n");
        }
        each(&b, classes, quality);
    }
    if (l) {
        if (!b.json) {
            if (b.long_generations > 0 && b.long_restarts >= 0)
                printf("Default BFCO (seeds 1..%d) against a long search (%d particles x "
                       "%d generations, %d restarts, seed 1)",
                       b.seeds, b.long_particles, b.long_generations, b.long_restarts);
            else if (b.long_generations > 0)
                printf("Default BFCO (seeds 1..%d) against a long search (%d particles x "
                       "%d generations, no stall, seed 1)",
                       b.seeds, b.long_particles, b.long_generations);
            else
                printf("Default BFCO (seeds 1..%d) against a long search (%d particles, "
                       "seed 1, a restart at every stall, at least %g times the "
                       "evaluations and the bound evaluations of the default's most "
                       "expensive seed)",
                       b.seeds, b.long_particles, b.long_factor);
            if (b.best_of > 1)
                printf(", the shortest of %d such searches (seeds 1..%d)", b.best_of,
                       b.best_of);
            printf(", %d instances per class from seed %d; gap: of seed 1 to the long "
                   "search, percent of its length (and of the worst seed); improvement "
                   "over none of seeds 1..%d\n\n",
                   b.instances, b.first > 0 ? b.first : 1, b.seeds);
            printf("| instance | msgs | gap to long | improvement: min .. max | seed "
                   "spread (points) | evaluations default: mean (max) | evaluations "
                   "long (bounds, generations) | ratio long / max: evaluations / bounds "
                   "| CPU s "
                   "default / long |\n");
            printf("|---|---|---|---|---|---|---|---|---|\n");
        }
        each(&b, classes, long_search);
    }
    if (sp) {
        if (!b.json) {
            printf("Speed: %d thread(s), CPU time of opt_run (the median of %s "
                   "runs), HEFT schedules of rand50-cost graphs (seed %d)\n\n",
                   b.bp.threads, b.repeat > 0 ? "--repeat" : "9, 3 or 1 (by size)",
                   b.speed_seed);
            printf(
                "| tasks | DSPs | msgs | bits | particles x generations | CPU | "
                "evaluations | bounds | cache hits | evals / CPU s | evaluator share | "
                "improvement | peak RSS | HEFT CPU |\n");
            printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        }
        each(&b, cases, speed);
    }
    if (ru) {
        if (!b.json)
            printf(
                "The descent's rules: the default and each rule off in turn; length "
                "change: percent of the default's length (> 0: longer without the "
                "rule); CPU s: of the graphs in the rule's scope, medians of %d run(s) "
                "(a search that did not change counts the default's)\n\n",
                b.repeat > 0 ? b.repeat : 1);
        char *copy = strdup(rule_sets);
        for (char *c = strtok(copy, ","); c; c = strtok(NULL, ",")) {
            if (strcmp(c, "quick") != 0 && strcmp(c, "held") != 0) {
                fprintf(stderr, "bench_bfco: unknown rule set \"%s\" (quick, held)\n", c);
                return 2;
            }
            rules(&b, c);
        }
        free(copy);
    }
    if (th) {
        if (!b.json) {
            printf(
                "Threads: opt_run with 1 thread and with %d in turn (the median of %d "
                "runs each), HEFT schedules of rand50-cost graphs (seed %d); load: the "
                "1-minute load average after the row\n\n",
                b.bp.threads, b.repeat > 0 ? b.repeat : 3, b.speed_seed);
            printf("| tasks | msgs | threads | runs | wall 1 | CPU 1 | wall N | CPU N | "
                   "main thread's CPU N | speed-up (wall) | CPU 1 / main thread's CPU N "
                   "| length | load |\n");
            printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        }
        each(&b, cases, threads);
    }
    if (b.json) {
        json_t *doc =
            json_pack("{s:s, s:O}", "format", "tgc-bench-bfco/1", "rows", b.rows);
        char *text = json_dumps(doc, JSON_INDENT(1));
        puts(text);
        free(text);
        json_decref(doc);
    }
    json_decref(b.rows);
    return 0;
}
