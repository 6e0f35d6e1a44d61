/*
 * bench/stg_optimal.c - optimal makespans of small STG graphs (P|prec|Cmax, zero edge
 * costs) by branch and bound, written as the CSV table that bench_stg reads.
 *
 *     stg_optimal [-P 2,4,8,16] [--node-limit N] FILE.stg... > optimal.csv
 *
 * The search builds semi-active schedules task by task in order of start time (ties by
 * task index): every schedule can be left-shifted into one of these without getting
 * longer, so the search is exact.  It branches on the next task and its DSP; among DSPs
 * free by the task's ready time only the latest-free one is tried (an exchange argument),
 * and DSPs free at the same time are interchangeable.  Bounds: the longest path through
 * every unscheduled task from its earliest start, and the remaining work spread over the
 * DSPs. A graph whose search exceeds the node limit is reported on stderr and left out of
 * the table, so that every line of the table is a proven optimum.  Good for up to ~16
 * tasks.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stg_io.h"

typedef struct BB {
    const Graph *g;
    int n, P;
    int64_t *c, *tail, *fin, *avail, *head;
    int *npend;
    bool *done;
    int64_t work; /* cost of the unscheduled tasks */
    int64_t best;
    int64_t nodes, limit;
} BB;

static int64_t
lower_bound(BB *b, int64_t last_start)
{
    int64_t minav = INT64_MAX, sum = 0;
    for (int q = 0; q < b->P; q++) {
        int64_t a = b->avail[q] > last_start ? b->avail[q] : last_start;
        sum += a;
        if (a < minav)
            minav = a;
    }
    int64_t lb = (sum + b->work + b->P - 1) / b->P;
    const Graph *g = b->g;
    for (int k = 0; k < b->n; k++) {
        int t = g->topo[k];
        if (b->done[t])
            continue;
        int64_t h = minav;
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            int u = g->edges[g->pred[j]].from;
            int64_t r = b->done[u] ? b->fin[u] : b->head[u] + b->c[u];
            if (r > h)
                h = r;
        }
        b->head[t] = h;
        if (h + b->tail[t] > lb)
            lb = h + b->tail[t];
    }
    return lb;
}

static void
search(BB *b, int left, int64_t last_start, int last_task, int64_t span)
{
    if (b->nodes++ > b->limit)
        return;
    if (left == 0) {
        if (span < b->best)
            b->best = span;
        return;
    }
    int64_t lb = lower_bound(b, last_start);
    if (lb < span)
        lb = span;
    if (lb >= b->best)
        return;
    const Graph *g = b->g;
    for (int t = 0; t < b->n; t++) {
        if (b->done[t] || b->npend[t])
            continue;
        int64_t ready = 0;
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            int u = g->edges[g->pred[j]].from;
            if (b->fin[u] > ready)
                ready = b->fin[u];
        }
        /* Candidate DSPs: the latest free by `ready`, and one per later free time. */
        int fit = -1;
        for (int q = 0; q < b->P; q++)
            if (b->avail[q] <= ready && (fit < 0 || b->avail[q] > b->avail[fit]))
                fit = q;
        for (int q = 0; q < b->P; q++) {
            if (q != fit && b->avail[q] <= ready)
                continue;
            bool dup = false;
            for (int r = 0; r < q && !dup; r++)
                dup = b->avail[r] == b->avail[q] && (r == fit || b->avail[r] > ready);
            if (dup)
                continue;
            int64_t s = b->avail[q] > ready ? b->avail[q] : ready;
            if (s < last_start || (s == last_start && t < last_task))
                continue;
            int64_t f = s + b->c[t], saved = b->avail[q];
            if (f >= b->best)
                continue;
            b->done[t] = true;
            b->fin[t] = f;
            b->avail[q] = f;
            b->work -= b->c[t];
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++)
                b->npend[g->edges[g->succ[j]].to]--;
            search(b, left - 1, s, t, f > span ? f : span);
            for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++)
                b->npend[g->edges[g->succ[j]].to]++;
            b->work += b->c[t];
            b->avail[q] = saved;
            b->done[t] = false;
            if (b->best <= lb)
                return; /* the bound is reached: optimal */
        }
    }
}

/* An initial upper bound: list scheduling by longest tail on the earliest-free DSP. */
static int64_t
list_bound(BB *b)
{
    const Graph *g = b->g;
    int *np = calloc((size_t)b->n, sizeof *np);
    bool *dn = calloc((size_t)b->n, sizeof *dn);
    int64_t *av = calloc((size_t)b->P, sizeof *av),
            *fn = calloc((size_t)b->n, sizeof *fn);
    int64_t span = 0;
    for (int t = 0; t < b->n; t++)
        np[t] = g->pred_off[t + 1] - g->pred_off[t];
    for (int k = 0; k < b->n; k++) {
        int best = -1;
        for (int t = 0; t < b->n; t++)
            if (!dn[t] && !np[t] && (best < 0 || b->tail[t] > b->tail[best]))
                best = t;
        int64_t ready = 0;
        for (int j = g->pred_off[best]; j < g->pred_off[best + 1]; j++)
            if (fn[g->edges[g->pred[j]].from] > ready)
                ready = fn[g->edges[g->pred[j]].from];
        int q = 0;
        for (int r = 1; r < b->P; r++)
            if (av[r] < av[q])
                q = r;
        fn[best] = (av[q] > ready ? av[q] : ready) + b->c[best];
        av[q] = fn[best];
        dn[best] = true;
        if (fn[best] > span)
            span = fn[best];
        for (int j = g->succ_off[best]; j < g->succ_off[best + 1]; j++)
            np[g->edges[g->succ[j]].to]--;
    }
    free(np);
    free(dn);
    free(av);
    free(fn);
    return span;
}

/* Optimal makespan of g on P DSPs, or -1 when the node limit is exceeded. */
static int64_t
optimal(const Graph *g, int P, int64_t limit, int64_t *nodes)
{
    BB b = {.g = g, .n = g->ntasks, .P = P, .limit = limit};
    b.c = calloc((size_t)b.n, sizeof *b.c);
    b.tail = calloc((size_t)b.n, sizeof *b.tail);
    b.fin = calloc((size_t)b.n, sizeof *b.fin);
    b.head = calloc((size_t)b.n, sizeof *b.head);
    b.avail = calloc((size_t)P, sizeof *b.avail);
    b.npend = calloc((size_t)b.n, sizeof *b.npend);
    b.done = calloc((size_t)b.n, sizeof *b.done);
    for (int t = 0; t < b.n; t++) {
        b.c[t] = ir_task_cycles(&g->tasks[t], 0);
        b.work += b.c[t];
        b.npend[t] = g->pred_off[t + 1] - g->pred_off[t];
    }
    for (int k = b.n - 1; k >= 0; k--) {
        int t = g->topo[k];
        int64_t m = 0;
        for (int j = g->succ_off[t]; j < g->succ_off[t + 1]; j++)
            if (b.tail[g->edges[g->succ[j]].to] > m)
                m = b.tail[g->edges[g->succ[j]].to];
        b.tail[t] = b.c[t] + m;
    }
    int64_t ub = list_bound(&b);
    if (lower_bound(&b, 0) == ub) {
        b.best = ub; /* the list schedule meets the bound */
    } else {
        b.best = ub + 1; /* +1: the search must find a schedule to prove it */
        search(&b, b.n, 0, -1, 0);
    }
    *nodes = b.nodes;
    int64_t r = b.nodes > b.limit ? -1 : b.best;
    free(b.c);
    free(b.tail);
    free(b.fin);
    free(b.head);
    free(b.avail);
    free(b.npend);
    free(b.done);
    return r;
}

static void
usage(void)
{
    fprintf(stderr, "usage: stg_optimal [-P 2,4,8,16] [--node-limit N] FILE.stg...\n");
    exit(2);
}

int
main(int argc, char **argv)
{
    int procs[64], np = 0;
    int64_t limit = 200000000;
    int first = 1;
    while (first < argc && argv[first][0] == '-') {
        if (first + 1 >= argc)
            usage();
        if (strcmp(argv[first], "-P") == 0) {
            char *s = argv[first + 1], *end;
            np = 0;
            for (;;) {
                long v = strtol(s, &end, 10);
                if (end == s || v < 1 || v > 4096 || np == 64)
                    usage();
                procs[np++] = (int)v;
                if (*end == 0)
                    break;
                if (*end != ',')
                    usage();
                s = end + 1;
            }
        } else if (strcmp(argv[first], "--node-limit") == 0) {
            char *end;
            errno = 0;
            limit = strtoll(argv[first + 1], &end, 10);
            if (errno || *end || limit < 1)
                usage();
        } else {
            usage();
        }
        first += 2;
    }
    if (np == 0) {
        const int def[] = {2, 4, 8, 16};
        memcpy(procs, def, sizeof def);
        np = 4;
    }
    if (first >= argc)
        usage();
    int status = 0;
    printf("file,processors,optimal\n");
    for (int i = first; i < argc; i++) {
        char err[512];
        Graph *g = stg_read(argv[i], err, sizeof err);
        if (!g) {
            fprintf(stderr, "stg_optimal: %s\n", err);
            status = 1;
            continue;
        }
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        for (int k = 0; k < np; k++) {
            int64_t nodes;
            int64_t opt = optimal(g, procs[k], limit, &nodes);
            if (opt < 0)
                fprintf(stderr, "stg_optimal: %s on %d: node limit exceeded\n", base,
                        procs[k]);
            else
                printf("%s,%d,%lld\n", base, procs[k], (long long)opt);
        }
        ir_graph_free(g);
    }
    return status;
}
