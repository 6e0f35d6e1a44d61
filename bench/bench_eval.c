/*
 * bench/bench_eval.c - evaluations per second of eval_length (the BFCO fitness).
 *
 * Usage: bench_eval [ITERATIONS [SEED [TASKS]]]   (defaults 100, 1 and every size)
 *
 * For 20, 100 and 1000 tasks, a seeded random layered graph (cycles 500-5000, edges of
 * 64-4096 bytes, one delay-1 feedback edge per 20 tasks) is mapped round-robin in
 * topological order on 4 DSPs (bwdsp-1board) and 16 DSPs (bwdsp-4board), and 5000 tasks
 * on 64 DSPs (bwdsp-16board); messages are inserted with comm_insert, and eval_length is
 * timed with contention and without: 5 repetitions of as many evaluations as fit in
 * 0.2 s of CPU time, the median printed.  Not a test: the figures depend on the
 * machine.
 */
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"
#include "ir.h"

static uint64_t
rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static Graph *
layered(int n, int64_t iterations, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15u + (uint64_t)n;
    Graph *g = ir_graph_new();
    Arena *a = g->arena;
    g->file = "bench";
    g->name = "bench";
    g->iterations = iterations;
    g->ntasks = n;
    g->tasks = arena_array(a, (size_t)n, sizeof *g->tasks);
    g->edges = arena_array(a, (size_t)n * 4, sizeof *g->edges);
    int width = 1;
    while (width * width < n)
        width++;
    for (int t = 0; t < n; t++) {
        int64_t *c = arena_alloc(a, sizeof *c);
        *c = 500 + (int64_t)(rnd(&x) % 4501);
        g->tasks[t] =
            (Task){.id = arena_printf(a, "t%d", t), .cycles = c, .ncycles = 1, .dsp = -1};
        int layer = t / width;
        if (layer == 0)
            continue;
        int lo = (layer - 1) * width, k = 1 + (int)(rnd(&x) % 3);
        for (int j = 0; j < k; j++)
            g->edges[g->nedges++] = (Edge){.from = lo + (int)(rnd(&x) % (uint64_t)width),
                                           .to = t,
                                           .bytes = 64 + (int64_t)(rnd(&x) % 4033),
                                           .delay = 0};
        if (t % 20 == 19)
            g->edges[g->nedges++] = (Edge){
                .from = t, .to = (int)(rnd(&x) % (uint64_t)t), .bytes = 64, .delay = 1};
    }
    if (ir_graph_index(g) != 0)
        ice("layered graph has a cycle");
    return g;
}

/* Evaluations per second of eval_length on s (median of 5 runs of about 0.2 s). */
static double
rate_of(Evaluator *ev, const Sched *s, int64_t *len_out)
{
    int64_t len = eval_length(ev, s);
    long batch = 1;
    for (;;) { /* calibrate: evaluations in about 0.2 s */
        double t0 = ir_cpu_seconds();
        for (long j = 0; j < batch; j++)
            eval_length(ev, s);
        if (ir_cpu_seconds() - t0 > 0.05)
            break;
        batch *= 2;
    }
    batch *= 4;
    double rate[5];
    for (int rep = 0; rep < 5; rep++) {
        double t0 = ir_cpu_seconds();
        for (long j = 0; j < batch; j++)
            if (eval_length(ev, s) != len)
                ice("evaluation is not deterministic");
        rate[rep] = (double)batch / (ir_cpu_seconds() - t0);
    }
    *len_out = len;
    return stats_median(rate, 5);
}

int
main(int argc, char **argv)
{
    int64_t iterations = argc > 1 ? atoll(argv[1]) : 100;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    int only = argc > 3 ? atoi(argv[3]) : 0; /* one graph size */
    if (iterations < 1) {
        fprintf(stderr, "usage: bench_eval [ITERATIONS [SEED [TASKS]]]\n");
        return 2;
    }
    static const int sizes[] = {20, 100, 1000, 5000};
    static const char *plats[] = {"bwdsp-1board", "bwdsp-4board", "bwdsp-16board"};
    printf("iterations %lld, seed %llu; evaluations per second of CPU time, with "
           "contention and without (--no-contention)\n",
           (long long)iterations, (unsigned long long)seed);
    printf("%6s %5s %6s %6s %12s %10s %8s %12s %10s %8s\n", "tasks", "dsps", "ops",
           "msgs", "length", "evals/s", "ns/op/it", "free length", "evals/s", "ns/op/it");
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t pi = 0; pi < 3; pi++) {
            if ((sizes[si] == 5000) != (pi == 2) || (only && sizes[si] != only))
                continue; /* 5000 tasks on 64 DSPs only, the others on 4 and 16 */
            Graph *g = layered(sizes[si], iterations, seed);
            g->platform = plat_preset(g->arena, plats[pi]);
            Sched *s = ir_sched_new(g, g->platform);
            int nd = g->platform->ndsps;
            for (int k = 0; k < g->ntasks; k++) {
                int t = g->topo[k];
                s->map[t] = k % nd;
                ir_sched_push_op(s, k % nd, OP_COMPUTE, t);
            }
            comm_insert(s);
            Diag *d = diag_new();
            if (ir_sched_verify(s, d) != 0) {
                diag_flush(d, stderr);
                return 1;
            }
            diag_free(d);
            int ops = 0;
            for (int x = 0; x < nd; x++)
                ops += s->nops[x];
            int64_t len[2];
            double rate[2];
            for (int free_links = 0; free_links < 2; free_links++) {
                g->platform->no_contention = free_links;
                Evaluator *ev = eval_new(g, g->platform);
                rate[free_links] = rate_of(ev, s, &len[free_links]);
                eval_free(ev);
            }
            printf("%6d %5d %6d %6d %12lld %10.0f %8.2f %12lld %10.0f %8.2f\n", g->ntasks,
                   nd, ops, s->nmsgs, (long long)len[0], rate[0],
                   1e9 / rate[0] / (double)ops / (double)iterations, (long long)len[1],
                   rate[1], 1e9 / rate[1] / (double)ops / (double)iterations);
            ir_sched_free(s);
            ir_graph_free(g);
        }
    return 0;
}
