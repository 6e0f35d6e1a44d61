/*
 * bench/stg_io.c - Standard Task Graph Set reader for the STG tools.
 *
 * Format: the number n of real tasks, then n+2 records "id cost npred pred...", ids
 * 0..n+1 in order, predecessors earlier tasks; tokens separated by white space; what
 * follows the records (the set's '#' footer) is ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stg_io.h"

static int
next(FILE *f, long long *v)
{
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (c == '#') {
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            ungetc(c, f);
            return fscanf(f, "%lld", v) == 1 ? 0 : -1;
        }
    }
    return -1;
}

Graph *
stg_read(const char *path, char *err, size_t errn)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errn, "%s: cannot open", path);
        return NULL;
    }
    Graph *g = ir_graph_new();
    long long n, v;
    int cap = 0;
    if (next(f, &n) != 0 || n < 0 || n > 1000000) {
        snprintf(err, errn, "%s: expected the number of tasks", path);
        goto bad;
    }
    g->file = arena_strdup(g->arena, path);
    g->name = g->file;
    g->ntasks = (int)n + 2;
    g->tasks = arena_array(g->arena, (size_t)g->ntasks, sizeof *g->tasks);
    for (int t = 0; t < g->ntasks; t++) {
        long long id, c, np;
        if (next(f, &id) || next(f, &c) || next(f, &np) || id != t || c < 0 || np < 0 ||
            np > t) {
            snprintf(err, errn, "%s: bad record of task %d", path, t);
            goto bad;
        }
        Task *k = &g->tasks[t];
        k->id = arena_printf(g->arena, "%d", t);
        k->ncycles = 1;
        k->cycles = arena_alloc(g->arena, sizeof *k->cycles);
        k->cycles[0] = c;
        k->dsp = -1;
        for (long long j = 0; j < np; j++) {
            if (next(f, &v) || v < 0 || v >= t) {
                snprintf(err, errn, "%s: bad predecessor of task %d", path, t);
                goto bad;
            }
            if (g->nedges == cap) {
                cap = cap ? 2 * cap : 64;
                Edge *e = arena_array(g->arena, (size_t)cap, sizeof *e);
                if (g->nedges)
                    memcpy(e, g->edges, (size_t)g->nedges * sizeof *e);
                g->edges = e;
            }
            g->edges[g->nedges++] = (Edge){.from = (int)v, .to = t, .bytes = 0, .delay = 0};
        }
    }
    fclose(f);
    if (ir_graph_index(g) != 0) {
        snprintf(err, errn, "%s: cyclic", path);
        ir_graph_free(g);
        return NULL;
    }
    return g;
bad:
    fclose(f);
    ir_graph_free(g);
    return NULL;
}
