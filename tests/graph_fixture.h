/* tests/graph_fixture.h - graphs and schedules built by hand, as the Check programs of
 * the passes build them (check_comm.c, check_period.c, evaluate_fixture.h). */
#ifndef TGC_GRAPH_FIXTURE_H
#define TGC_GRAPH_FIXTURE_H

#include <check.h>
#include <stdbool.h>

#include "ir.h"

/* A graph `name` (read from "NAME.json", so its messages say) of n tasks of 0 cycles each
 * (*g->tasks[i].cycles to set) on the preset `plat`, with room for maxedges edges
 * (add_edge); the tasks are named a, b, c ... when letters, t0, t1 ... otherwise. */
static inline Graph *
fixture_graph(const char *name, const char *plat, int n, int64_t iterations, int maxedges,
              bool letters)
{
    Graph *g = ir_graph_new();
    Arena *a = g->arena;
    g->file = arena_printf(a, "%s.json", name);
    g->name = name;
    g->iterations = iterations;
    g->platform = plat_preset(a, plat);
    ck_assert_ptr_nonnull(g->platform);
    g->ntasks = n;
    g->tasks = arena_array(a, (size_t)n, sizeof *g->tasks);
    for (int i = 0; i < n; i++) {
        int64_t *c = arena_alloc(a, sizeof *c);
        *c = 0;
        const char *id =
            letters ? arena_printf(a, "%c", 'a' + i) : arena_printf(a, "t%d", i);
        g->tasks[i] = (Task){.id = id, .cycles = c, .ncycles = 1, .dsp = -1};
    }
    g->edges = arena_array(a, (size_t)maxedges, sizeof *g->edges);
    return g;
}

/* Adds the edge from -> to of `bytes` and `delay`; its index. */
static inline int
add_edge(Graph *g, int from, int to, int64_t bytes, int delay)
{
    g->edges[g->nedges] = (Edge){.from = from, .to = to, .bytes = bytes, .delay = delay};
    return g->nedges++;
}

/* A schedule of COMPUTE operations only: DSP d computes the tasks order[d][0 ..
 * count[d]), in that order. */
static inline Sched *
computes(const Graph *g, int nd, const int *const *order, const int *count)
{
    Sched *s = ir_sched_new(g, g->platform);
    for (int d = 0; d < nd; d++)
        for (int k = 0; k < count[d]; k++) {
            s->map[order[d][k]] = d;
            ir_sched_push_op(s, d, OP_COMPUTE, order[d][k]);
        }
    return s;
}

#endif
