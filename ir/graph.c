/*
 * ir/graph.c - task graph core: creation, adjacency index, costs, critical path.
 *
 * Invariant after ir_graph_index(): succ/pred list every edge exactly once; topo is a
 * topological order of the zero-delay edges (ties broken by task index, so it is
 * deterministic) or NULL when those edges have a cycle.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

Limits
ir_default_limits(void)
{
    Limits l = {
        .max_tasks = 100000,
        .max_edges = 1000000,
        .max_dsps = 4096,
        .max_iterations = 1000000000,
        .max_file_bytes = 256 * 1024 * 1024,
    };
    return l;
}

Graph *
ir_graph_new(void)
{
    Arena *a = arena_new();
    Graph *g = arena_alloc(a, sizeof *g);
    g->arena = a;
    g->iterations = 1;
    return g;
}

void
ir_graph_free(Graph *g)
{
    if (!g)
        return;
    /* pass_expand swapped the contents of g and of its expansion: g's struct lives in
       the arena of the original, the original's in g's arena */
    Arena *orig = g->original ? g->original->arena : NULL;
    arena_free(g->arena);
    if (orig)
        arena_free(orig);
}

static void
csr(Arena *a, int n, int m, const Edge *e, bool out, int **off_out, int **idx_out)
{
    int *off = arena_array(a, (size_t)n + 1, sizeof *off);
    int *idx = arena_array(a, (size_t)m, sizeof *idx);
    for (int i = 0; i < m; i++)
        off[(out ? e[i].from : e[i].to) + 1]++;
    for (int t = 0; t < n; t++)
        off[t + 1] += off[t];
    int *fill = ir_xmemdup(off, ((size_t)n + 1) * sizeof *off);
    for (int i = 0; i < m; i++)
        idx[fill[out ? e[i].from : e[i].to]++] = i;
    free(fill);
    *off_out = off;
    *idx_out = idx;
}

int
ir_graph_index(Graph *g)
{
    int n = g->ntasks;
    csr(g->arena, n, g->nedges, g->edges, true, &g->succ_off, &g->succ);
    csr(g->arena, n, g->nedges, g->edges, false, &g->pred_off, &g->pred);

    /* Kahn's algorithm; a heap of ready tasks keeps the lowest index first. */
    int *indeg = ir_xcalloc((size_t)n + 1, sizeof *indeg);
    IntHeap heap = {.v = ir_xcalloc((size_t)n + 1, sizeof(int)),
                    .before = ir_heap_by_index};
    int *topo = arena_array(g->arena, (size_t)n + 1, sizeof *topo);
    for (int i = 0; i < g->nedges; i++)
        if (g->edges[i].delay == 0)
            indeg[g->edges[i].to]++;
    int done = 0;
    for (int t = 0; t < n; t++)
        if (indeg[t] == 0)
            ir_heap_push(&heap, t);
    while (heap.n > 0) {
        int t = ir_heap_pop(&heap);
        topo[done++] = t;
        for (int k = g->succ_off[t]; k < g->succ_off[t + 1]; k++) {
            const Edge *e = &g->edges[g->succ[k]];
            if (e->delay == 0 && --indeg[e->to] == 0)
                ir_heap_push(&heap, e->to);
        }
    }
    free(indeg);
    free(heap.v);
    g->topo = done == n ? topo : NULL;
    return done == n ? 0 : -1;
}

int
ir_task_find(const Graph *g, const char *id)
{
    for (int i = 0; i < g->ntasks; i++)
        if (strcmp(g->tasks[i].id, id) == 0)
            return i;
    return -1;
}

int64_t
ir_task_cycles(const Task *t, int dsp)
{
    if (t->ncycles <= 1)
        return t->ncycles ? t->cycles[0] : 0;
    if (dsp < 0 || dsp >= t->ncycles)
        ice("DSP %d out of range for task \"%s\"", dsp, t->id);
    return t->cycles[dsp];
}

double
ir_task_mean_cycles(const Task *t, int ndsps)
{
    if (t->ncycles <= 1)
        return t->ncycles ? (double)t->cycles[0] : 0.0;
    double s = 0;
    for (int i = 0; i < t->ncycles; i++)
        s += (double)t->cycles[i];
    return s / t->ncycles;
}

int64_t
ir_critical_path(const Graph *g, int ndsps, bool with_comm)
{
    if (!g->topo)
        return -1;
    double *fin = calloc((size_t)g->ntasks + 1, sizeof *fin);
    if (!fin)
        ice("out of memory");
    double best = 0;
    for (int k = 0; k < g->ntasks; k++) {
        int t = g->topo[k];
        double start = 0;
        for (int j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
            const Edge *e = &g->edges[g->pred[j]];
            if (e->delay)
                continue;
            double v = fin[e->from] + (with_comm ? (double)e->bytes : 0.0);
            if (v > start)
                start = v;
        }
        fin[t] = start + ir_task_mean_cycles(&g->tasks[t], ndsps);
        if (fin[t] > best)
            best = fin[t];
    }
    free(fin);
    return (int64_t)(best + 0.5);
}
