/*
 * bench/bench_stg.c - the scheduler against optimal makespans of STG graphs.
 *
 *     bench_stg [--budget N] DIR TABLE.csv
 *
 * TABLE.csv has lines "file,processors,optimal" (a header line "file,..." is skipped);
 * DIR/file is a Standard Task Graph Set file.  Each graph runs on the abstract model with
 * zero edge costs (as the set defines it) and one iteration.  For every DSP count of the
 * table the program prints the mean and the worst ratio of the schedule length to the
 * optimum for plain HEFT, for PEFT, and for HEFT followed by the local search of
 * passes/schedule/ (objective eval_length, here the single-iteration makespan; budget N
 * evaluations per graph, default 2000), and how many schedules are optimal.  The numbers
 * depend only on the input: the run is deterministic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stg_io.h"

enum { ALGS = 3 };
static const char *const alg_name[ALGS] = {"HEFT", "PEFT", "HEFT+LS"};

typedef struct Row {
    int procs;
    int count;
    double sum[ALGS], worst[ALGS];
    int hits[ALGS];
} Row;

static Row rows[64];
static int nrows;

static Row *
row_for(int procs)
{
    for (int i = 0; i < nrows; i++)
        if (rows[i].procs == procs)
            return &rows[i];
    if (nrows == 64)
        return NULL;
    int i = nrows++;
    while (i > 0 && rows[i - 1].procs > procs) {
        rows[i] = rows[i - 1];
        i--;
    }
    memset(&rows[i], 0, sizeof rows[i]);
    rows[i].procs = procs;
    return &rows[i];
}

static void
usage(void)
{
    fprintf(stderr, "usage: bench_stg [--budget N] DIR TABLE.csv\n");
    exit(2);
}

int
main(int argc, char **argv)
{
    int64_t budget = 2000;
    int i = 1;
    if (i + 1 < argc && strcmp(argv[i], "--budget") == 0) {
        char *end;
        errno = 0;
        budget = strtoll(argv[i + 1], &end, 10);
        if (errno || *end || budget < 0)
            usage();
        i += 2;
    }
    if (argc - i != 2)
        usage();
    const char *dir = argv[i], *table = argv[i + 1];
    FILE *f = fopen(table, "r");
    if (!f) {
        fprintf(stderr, "bench_stg: %s: %s\n", table, strerror(errno));
        return 1;
    }
    char line[4096];
    int lineno = 0, status = 0;
    Diag *d = diag_new();
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char file[2048];
        int procs;
        long long opt;
        if (strncmp(line, "file,", 5) == 0 || line[0] == '\n' || line[0] == '#')
            continue;
        if (sscanf(line, "%2047[^,],%d,%lld", file, &procs, &opt) != 3 || procs < 1 ||
            opt <= 0) {
            fprintf(stderr, "bench_stg: %s:%d: expected file,processors,optimal\n", table,
                    lineno);
            status = 1;
            continue;
        }
        char path[4200], err[512];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        Graph *g = stg_read(path, err, sizeof err);
        if (!g) {
            fprintf(stderr, "bench_stg: %s\n", err);
            status = 1;
            continue;
        }
        Platform *p = plat_abstract(g->arena, procs);
        plat_finish(g->arena, p);
        g->platform = p;
        g->iterations = 1;

        int64_t len[ALGS];
        Sched *s, *ps;
        if (sched_peft(g, p, &ps, NULL, &len[1], d) != 0 ||
            sched_heft(g, p, &s, NULL, &len[0], d) != 0) {
            diag_flush(d, stderr);
            ir_graph_free(g);
            status = 1;
            continue;
        }
        ir_sched_free(ps);
        comm_insert(s);
        Evaluator *ev = eval_new(g, p);
        int64_t ev_len = eval_length(ev, s);
        if (ev_len != len[0]) {
            fprintf(stderr, "bench_stg: %s on %d: evaluator says %lld, HEFT %lld\n", file,
                    procs, (long long)ev_len, (long long)len[0]);
            status = 1;
        }
        len[2] = sched_local_search(&s, ev, budget, false);
        eval_free(ev);
        ir_sched_free(s);
        ir_graph_free(g);

        Row *r = row_for(procs);
        if (!r)
            continue;
        r->count++;
        for (int a = 0; a < ALGS; a++) {
            if (len[a] < opt) {
                fprintf(stderr,
                        "bench_stg: %s on %d: %s gives %lld below the optimum %lld\n",
                        file, procs, alg_name[a], (long long)len[a], opt);
                status = 1;
            }
            double ratio = (double)len[a] / (double)opt;
            r->sum[a] += ratio;
            if (ratio > r->worst[a])
                r->worst[a] = ratio;
            r->hits[a] += len[a] == opt;
        }
    }
    fclose(f);
    diag_free(d);

    printf("%4s %6s", "DSPs", "graphs");
    for (int a = 0; a < ALGS; a++)
        printf(" | %-7s %6s %6s %7s", alg_name[a], "mean", "worst", "optimal");
    printf("\n");
    for (int k = 0; k < nrows; k++) {
        Row *r = &rows[k];
        printf("%4d %6d", r->procs, r->count);
        for (int a = 0; a < ALGS; a++)
            printf(" | %-7s %6.4f %6.4f %3d/%-3d", "", r->sum[a] / r->count, r->worst[a],
                   r->hits[a], r->count);
        printf("\n");
    }
    return status;
}
