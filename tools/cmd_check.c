/*
 * tools/cmd_check.c - `tgc check FILE...`: reads each task graph, runs the semantic
 * checks and prints a summary of each (docs/cli.md lists the fields).  Every file is read
 * and all its errors printed; the summaries are printed only when every file is correct,
 * so a script sees either a complete answer or none (exit status 1).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const CliSpec spec = {
    "check",
    "FILE...",
    "Read task graphs (tgc-graph/1), check them and print a summary of each: tasks, "
    "edges,\n"
    "total cycles (sum of the mean task costs), total bytes, critical path (without\n"
    "communication) and communication-to-computation ratio (total bytes / total "
    "cycles).\n"
    "A multi-rate graph's totals are per iteration, each actor counted as often as it\n"
    "fires (the repetition vector, printed with the firings, their sum).\n",
    CLI_PLATFORM | CLI_ITERATIONS | CLI_LIMITS | CLI_JSON | CLI_KERNELS,
    NULL,
    1,
    -1,
};

typedef struct Summary {
    const Graph *g;
    const char *file, *name;
    const Platform *p;
    int tasks, edges, delay_edges;
    int64_t iterations, total_cycles, total_bytes, critical_path;
    double ccr; /* < 0 when there is no computation */
} Summary;

/* Of a multi-rate graph: its tasks (actors) and edges (channels) as written, the rest per
 * iteration of the graph, every actor firing as often as the repetition vector says
 * (the critical path that of the expansion, the graph tgc schedules). */
static Summary
summarize(const Graph *g)
{
    Summary s = {.g = g,
                 .file = g->file,
                 .name = g->name,
                 .p = g->platform,
                 .tasks = g->ntasks,
                 .edges = g->nedges,
                 .iterations = g->iterations};
    double cycles = 0;
    for (int t = 0; t < g->ntasks; t++)
        cycles += ir_task_mean_cycles(&g->tasks[t], g->platform->ndsps) *
                  (double)g->repetitions[t];
    for (int e = 0; e < g->nedges; e++) {
        const Edge *x = &g->edges[e];
        s.total_bytes += x->bytes * x->produce * g->repetitions[x->from];
        s.delay_edges += x->tokens > 0;
    }
    s.total_cycles = (int64_t)(cycles + 0.5);
    Graph *x = g->multirate ? fe_expand(g) : NULL;
    s.critical_path = ir_critical_path(x ? x : g, g->platform->ndsps, false);
    ir_graph_free(x);
    s.ccr = cycles > 0 ? (double)s.total_bytes / cycles : -1;
    return s;
}

/* The summary: names and file names with their control characters escaped
 * (ir_escaped), as in every line tgc prints (docs/cli.md). */
static void
print_text(const Summary *s)
{
    const Platform *p = s->p;
    Arena *a = s->g->arena;
    printf("%s: graph \"%s\"\n", ir_escaped(a, s->file), ir_escaped(a, s->name));
    if (p->model == MODEL_ABSTRACT)
        printf("  platform       %s (abstract, %d DSPs)\n", ir_escaped(a, p->name),
               p->ndsps);
    else
        printf("  platform       %s (bwdsp, %d DSPs on %d board%s)\n",
               ir_escaped(a, p->name), p->ndsps, p->nboards, p->nboards == 1 ? "" : "s");
    printf("  tasks          %d\n", s->tasks);
    printf("  edges          %d (%d with delay)\n", s->edges, s->delay_edges);
    printf("  iterations     %" PRId64 "\n", s->iterations);
    printf("  total cycles   %" PRId64 " per iteration\n", s->total_cycles);
    printf("  total bytes    %" PRId64 " per iteration\n", s->total_bytes);
    printf("  critical path  %" PRId64 " cycles\n", s->critical_path);
    if (s->g->multirate || s->g->flattened) {
        printf("  firings        %" PRId64 " per iteration:", s->g->firings);
        for (int t = 0; t < s->g->ntasks; t++)
            printf(" %s %" PRId64 "%s", ir_escaped(a, s->g->tasks[t].id),
                   s->g->repetitions[t], t + 1 < s->g->ntasks ? "," : "\n");
    }
    if (s->ccr >= 0)
        printf("  comm/comp      %.4g bytes per cycle\n", s->ccr);
    else
        printf("  comm/comp      - (no computation)\n");
}

static json_t *
to_json(const Summary *s)
{
    const Platform *p = s->p;
    json_t *plat = cli_platform_json(p);
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(s->file));
    json_object_set_new(o, "graph", json_string(s->name));
    json_object_set_new(o, "platform", plat);
    json_object_set_new(o, "tasks", json_integer(s->tasks));
    json_object_set_new(o, "edges", json_integer(s->edges));
    json_object_set_new(o, "delay_edges", json_integer(s->delay_edges));
    json_object_set_new(o, "iterations", json_integer(s->iterations));
    json_object_set_new(o, "total_cycles", json_integer(s->total_cycles));
    json_object_set_new(o, "total_bytes", json_integer(s->total_bytes));
    json_object_set_new(o, "critical_path", json_integer(s->critical_path));
    json_object_set_new(o, "ccr", s->ccr >= 0 ? json_real(s->ccr) : json_null());
    if (s->g->multirate || s->g->flattened) { /* else 1 each, firings = tasks */
        json_t *q = json_object();
        for (int t = 0; t < s->g->ntasks; t++)
            json_object_set_new(q, s->g->tasks[t].id, json_integer(s->g->repetitions[t]));
        json_object_set_new(o, "repetition_vector", q);
        json_object_set_new(o, "firings", json_integer(s->g->firings));
    }
    return o;
}

const CliSpec *const cmd_check_spec = &spec;

int
cmd_check(Cli *c)
{
    int status;
    Diag *d = diag_new();
    Summary *sum = calloc((size_t)c->nargs, sizeof *sum);
    Graph **graphs = calloc((size_t)c->nargs, sizeof *graphs);
    if (!sum || !graphs)
        ice("out of memory");
    bool ok = true;
    for (int i = 0; i < c->nargs; i++) {
        graphs[i] = fe_load_graph(c->args[i], &c->opt, d);
        if (graphs[i])
            sum[i] = summarize(graphs[i]);
        else
            ok = false;
        cli_report(d);
    }
    status = ok ? TGC_EXIT_OK : TGC_EXIT_INPUT;
    if (ok && c->json) {
        json_t *out;
        if (c->nargs == 1) {
            out = to_json(&sum[0]);
        } else {
            json_t *files = json_array();
            for (int i = 0; i < c->nargs; i++)
                json_array_append_new(files, to_json(&sum[i]));
            out = json_object();
            json_object_set_new(out, "files", files);
        }
        status = cli_print_json(out);
        json_decref(out);
    } else if (ok) {
        for (int i = 0; i < c->nargs; i++)
            print_text(&sum[i]);
    }
    for (int i = 0; i < c->nargs; i++)
        ir_graph_free(graphs[i]);
    free(graphs);
    free(sum);
    diag_free(d);
    return status;
}
