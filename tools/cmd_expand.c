/*
 * tools/cmd_expand.c - `tgc expand GRAPH [-o single.json]`: the single-rate expansion of
 * a multi-rate graph (the pass expand of passes/passes.def, frontend/expand.c) written as
 * a tgc-graph/1 file to look at: every firing a task, every run of tokens between two
 * firings an edge, with the firings and ports the generated code reads
 * (docs/formats.md, "The expansion").  The file reads back and compiles to the same
 * program as the graph itself.  A single-rate graph is its own expansion.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"

static const CliSpec spec = {
    "expand",
    "GRAPH",
    "Write the single-rate expansion of a multi-rate task graph as a tgc-graph/1 file\n"
    "(on stdout without -o): each firing of an actor becomes a task (\"a[0]\", \"a[1]\" "
    "...,\n"
    "the actor's id when it fires once per iteration), each run of tokens between two\n"
    "firings an edge, with the firing index and the ports the kernels see.  The file\n"
    "reads back as a graph that compiles and runs as the multi-rate one does.  With\n"
    "--json, prints a summary (graph, actors, firings, edges) instead; -o still writes "
    "the\n"
    "file.\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS | CLI_LIMITS | CLI_JSON,
    NULL,
    1,
    1,
};

const CliSpec *const cmd_expand_spec = &spec;

int
cmd_expand(Cli *c)
{
    int status;
    const char *out = c->output ? c->output : (c->json ? NULL : "-");
    if (c->json && out && strcmp(out, "-") == 0)
        return cli_usage(&spec, "--json and -o - both use the standard output");
    if (out && out_check(out) != 0)
        return TGC_EXIT_INPUT;
    Diag *d = diag_new();
    Graph *g = fe_load_graph(c->args[0], &c->opt, d);
    status = TGC_EXIT_INPUT;
    int64_t actors = g ? g->ntasks : 0, channels = g ? g->nedges : 0;
    Unit u = {.g = g, .p = g ? g->platform : NULL, .opt = &c->opt};
    int expand = tgc_pass_find("expand");
    if (expand < 0)
        ice("passes.def has no pass \"expand\"");
    if (g && tgc_run_passes(&u, expand, expand, NULL, d) == 0) {
        status = TGC_EXIT_OK;
        if (out) {
            char *text = cg_graph_json_file(g, out);
            status = out_write_file(out, text, strlen(text));
            free(text);
        }
        if (status == TGC_EXIT_OK && c->json) {
            json_t *o = json_object();
            json_object_set_new(o, "graph", json_string(g->name ? g->name : ""));
            json_object_set_new(o, "platform", cli_platform_json(g->platform));
            json_object_set_new(o, "actors", json_integer(actors));
            json_object_set_new(o, "channels", json_integer(channels));
            json_object_set_new(o, "tasks", json_integer(g->ntasks));
            json_object_set_new(o, "edges", json_integer(g->nedges));
            json_object_set_new(o, "iterations", json_integer(g->iterations));
            if (out)
                json_object_set_new(o, "file", json_string(out));
            status = cli_print_json(o);
            json_decref(o);
        }
    }
    if (cli_report(d))
        status = TGC_EXIT_INPUT;
    ir_graph_free(g);
    diag_free(d);
    return status;
}
