/*
 * tools/cmd_import.c - `tgc import FORMAT FILE [-o graph.json]`: converts a task graph of
 * another format into tgc-graph/1 (on stdout without -o).  Formats: stg (Standard Task
 * Graph Set) and dot (Graphviz, the Auckland data sets' Weight attributes).  The result
 * uses the abstract model; --dsps sets its DSP count, --iterations its iterations.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const CliSpec spec = {
    "import",
    "FORMAT FILE",
    "Convert a task graph into tgc-graph/1.  FORMAT is one of:\n"
    "  stg   Standard Task Graph Set (Kasahara lab): n, then n+2 lines \"id cost npred\n"
    "        preds...\" with the dummy entry 0 and exit n+1 (kept, cost 0); edges of 0 "
    "bytes\n"
    "  dot   Graphviz digraph; node attribute Weight (or cycles), edge attribute Weight\n"
    "        (or bytes), optional edge attribute delay\n"
    "The graph uses the abstract model (an edge costs its bytes in cycles between "
    "DSPs).\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS | CLI_LIMITS,
    NULL,
    2,
    2,
};

int
cmd_import(int argc, char **argv)
{
    Cli c;
    int status;
    if (!cli_parse(&c, &spec, argc, argv, &status))
        return status;
    const char *fmt = c.args[0];
    Graph *(*imp)(const char *, const Options *, Diag *) = NULL;
    if (strcmp(fmt, "stg") == 0)
        imp = fe_import_stg;
    else if (strcmp(fmt, "dot") == 0)
        imp = fe_import_dot;
    if (!imp) {
        static const char *const names[] = {"stg", "dot"};
        const char *hint = diag_suggest(fmt, names, 2);
        status =
            hint ? cli_usage(&spec, "unknown format \"%s\" (did you mean \"%s\"?)", fmt,
                             hint)
                 : cli_usage(&spec, "unknown format \"%s\" (the formats are stg and dot)",
                             fmt);
        cli_free(&c);
        return status;
    }
    if (c.opt.platform) {
        cli_free(&c);
        return cli_usage(&spec, "imported graphs use the abstract model; --platform does "
                                "not apply (use --dsps N)");
    }
    Diag *d = diag_new();
    Graph *g = imp(c.args[1], &c.opt, d);
    status = TGC_EXIT_INPUT;
    if (g) {
        if (c.opt.iterations > 0)
            g->iterations = c.opt.iterations;
        char *text = cg_graph_json(g);
        status = out_write_file(c.output ? c.output : "-", text, strlen(text));
        free(text);
        ir_graph_free(g);
    }
    if (cli_report(d))
        status = TGC_EXIT_INPUT;
    diag_free(d);
    cli_free(&c);
    return status;
}
