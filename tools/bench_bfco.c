/*
 * tools/bench_bfco.c - the BFCO benchmark of docs/bfco.md (not a test).
 *
 * Quality: per class of seed 001's Table 1 (tools/gen_graph.c), N instances (seeds 1..N),
 * each scheduled by pass_schedule; the mean improvement over none of ma, cp, bfco (and
 * its variants) and es (where es is within its limit), BFCO's mean and largest gap to es
 * in percentage points, and on how many instances BFCO reaches the es optimum. Speed:
 * BFCO on a 100-task graph on 4 DSPs and a 1000-task graph on 16 DSPs; time and
 * evaluations per second.
 *
 *   bench_bfco [--instances N] [--es-limit N] [--threads N] [--stall N] [--particles N]
 *              [--no-speed] [--no-quality] [--classes hi20,lo20,...]
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen_graph.h"

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

typedef struct Variant {
    const char *name;
    OptMethod m;
    bool vshaped, joint, polish;
} Variant;

/* bfco must stay third and es last */
static const Variant variants[] = {
    {"ma", OPT_MA, false, false, false},
    {"cp", OPT_CP, false, false, false},
    {"bfco", OPT_BFCO, false, false, true},
    {"bfco-seed", OPT_BFCO, false, false, false},
    {"bfco-v", OPT_BFCO, true, false, true},
    {"bfco-j", OPT_BFCO, false, true, true},
    {"bfco-vj-seed", OPT_BFCO, true, true, false},
    {"es", OPT_ES, false, false, false},
};
enum { NV = sizeof variants / sizeof variants[0] };

static int64_t
run(const Sched *base, const Variant *v, const BfcoParams *bp0, OptStats *st)
{
    BfcoParams bp = *bp0;
    bp.vshaped = v->vshaped;
    bp.joint = v->joint;
    bp.polish = v->polish;
    Sched *out = NULL;
    Diag *d = diag_new();
    int rc = opt_run(base, v->m, &bp, &out, st, d);
    diag_free(d);
    ir_sched_free(out);
    return rc == 0 ? st->length : -1;
}

static void
quality(const char *cls, int n, const BfcoParams *bp)
{
    double sum[NV] = {0}, esum[NV] = {0}, gap_sum[NV] = {0}, gap_max[NV] = {0};
    int es_runs = 0, hits[NV] = {0}, used = 0, msgs = 0;
    double secs[NV] = {0};
    for (int i = 1; i <= n; i++) {
        GenSpec gs;
        gen_class(cls, &gs);
        gs.seed = (uint64_t)i;
        char name[64];
        snprintf(name, sizeof name, "%s-%d", cls, i);
        Graph *g = gen_graph(&gs, name);
        Sched *base = schedule(g, -1);
        if (!base) {
            ir_graph_free(g);
            continue;
        }
        Evaluator *ev = eval_new(g, g->platform);
        int64_t none = eval_length(ev, base);
        eval_free(ev);
        used++;
        msgs += base->nmsgs;
        int64_t L[NV];
        for (int k = 0; k < NV; k++) {
            OptStats st;
            L[k] = run(base, &variants[k], bp, &st);
            secs[k] += st.seconds;
            if (L[k] >= 0)
                sum[k] += 100.0 * (double)(none - L[k]) / (double)none;
        }
        if (L[NV - 1] >= 0) {
            es_runs++;
            double e = 100.0 * (double)(none - L[NV - 1]) / (double)none;
            for (int k = 0; k < NV; k++) {
                double b = 100.0 * (double)(none - L[k]) / (double)none;
                esum[k] += b;
                gap_sum[k] += e - b;
                if (e - b > gap_max[k])
                    gap_max[k] = e - b;
                hits[k] += L[k] == L[NV - 1];
            }
        }
        ir_sched_free(base);
        ir_graph_free(g);
    }
    printf("| %-8s | %3d | %5.1f |", cls, used, used ? (double)msgs / used : 0.0);
    for (int k = 0; k < NV - 1; k++)
        printf(" %6.2f%% |", used ? sum[k] / used : 0.0);
    if (es_runs) {
        printf(" %6.2f%% (%d runs) |", sum[NV - 1] / es_runs, es_runs);
        for (int k = 2; k < NV - 1; k++)
            printf(" %s: %.2f%%, gap %.2f / %.2f, = es %d/%d |", variants[k].name,
                   esum[k] / es_runs, gap_sum[k] / es_runs, gap_max[k], hits[k], es_runs);
    } else {
        printf(" n/a |");
        for (int k = 2; k < NV - 1; k++)
            printf(" n/a |");
    }
    printf(" %.3f / %.3f |\n", used ? secs[2] / used : 0.0,
           used ? secs[NV - 2] / used : 0.0);
    fflush(stdout);
}

static void
speed(const char *label, int tasks, const char *plat, const BfcoParams *bp)
{
    GenSpec gs;
    gen_class("rand50", &gs);
    gs.tasks = tasks;
    gs.platform = plat;
    gs.seed = 7;
    Graph *g = gen_graph(&gs, label);
    double t0 = now();
    Sched *base = schedule(g, 0); /* HEFT only: the scheduler is not what is measured */
    double ts = now() - t0;
    Evaluator *ev = eval_new(g, g->platform);
    int64_t none = eval_length(ev, base);
    eval_free(ev);
    static const struct {
        const char *name;
        int threads;
        bool v, j, p;
    } runs[] = {{"bfco", 1, false, false, true},
                {"bfco", 2, false, false, true},
                {"bfco-seed", 1, false, false, false},
                {"bfco-v", 2, true, false, true},
                {"bfco-vj", 2, true, true, true}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        BfcoParams b = *bp;
        b.threads = runs[r].threads;
        b.vshaped = runs[r].v;
        b.joint = runs[r].j;
        b.polish = runs[r].p;
        OptStats st;
        Sched *out = NULL;
        Diag *d = diag_new();
        double c0 = (double)clock() / CLOCKS_PER_SEC;
        opt_run(base, OPT_BFCO, &b, &out, &st, d);
        double cpu = (double)clock() / CLOCKS_PER_SEC - c0;
        diag_free(d);
        ir_sched_free(out);
        printf("| %-8s | %d | %5d | %3d | %5d | %6d | %3d x %3d | %7.3f s | %7.3f s | "
               "%8.0f | "
               "%6.2f%% | %.2f s |\n",
               runs[r].name, b.threads, tasks, g->platform->ndsps, base->nmsgs, st.nbits,
               st.particles, st.generations, st.seconds, cpu,
               st.seconds > 0 ? (double)st.evaluations / st.seconds : 0.0,
               100.0 * (double)(none - st.length) / (double)none, ts);
        fflush(stdout);
    }
    ir_sched_free(base);
    ir_graph_free(g);
}

int
main(int argc, char **argv)
{
    int n = 10;
    bool do_speed = true, do_quality = true;
    BfcoParams bp;
    bfco_default_params(&bp);
    const char *classes = "hi20,lo20,rand50,chain100";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--instances") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--es-limit") == 0 && i + 1 < argc)
            bp.es_limit = atoll(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            bp.threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--stall") == 0 && i + 1 < argc)
            bp.stall = atoi(argv[++i]);
        else if (strcmp(argv[i], "--particles") == 0 && i + 1 < argc)
            bp.particles = atoi(argv[++i]);
        else if (strcmp(argv[i], "--classes") == 0 && i + 1 < argc)
            classes = argv[++i];
        else if (strcmp(argv[i], "--no-speed") == 0)
            do_speed = false;
        else if (strcmp(argv[i], "--no-quality") == 0)
            do_quality = false;
        else {
            fprintf(stderr,
                    "usage: bench_bfco [--instances N] [--es-limit N] [--threads N] "
                    "[--stall N] [--particles N] [--classes LIST] [--no-speed] "
                    "[--no-quality]\n");
            return 2;
        }
    }
    if (do_quality) {
        printf(
            "Mean improvement over none (%d instances per class, seeds 1..%d; es on the "
            "instances within --es-limit %" PRId64 ")\n\n",
            n, n, bp.es_limit);
        printf("| class | n | msgs |");
        for (int k = 0; k < NV; k++)
            printf(" %s |", variants[k].name);
        for (int k = 2; k < NV - 1; k++)
            printf(" %s on es runs: mean, gap mean / max (points), = es |",
                   variants[k].name);
        printf(" seconds bfco / %s |\n|", variants[NV - 2].name);
        for (int k = 0; k < 2 * NV + 1; k++)
            printf("---|");
        printf("\n");
        char *list = strdup(classes);
        for (char *c = strtok(list, ","); c; c = strtok(NULL, ","))
            quality(c, n, &bp);
        free(list);
        printf("\n");
    }
    if (do_speed) {
        printf("Speed (wall time of opt_run, CPU time of the process during it)\n\n");
        printf("| variant | threads | tasks | DSPs | msgs | bits | particles x "
               "generations | "
               "wall | CPU | evals/s (wall) | improvement | HEFT |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        speed("jpeg-sized", 100, "bwdsp-1board", &bp);
        speed("large", 1000, "bwdsp-4board", &bp);
    }
    return 0;
}
