/*
 * tools/cmd_import.c - `tgc import FORMAT FILE [-o graph.json]`: converts a task graph of
 * another format into tgc-graph/1 (on stdout without -o).  Formats: stg (Standard Task
 * Graph Set) and dot (Graphviz, the Auckland data sets' Weight attributes), which use
 * the abstract model (--dsps sets its DSP count), and sdf3 (SDF3's synchronous dataflow
 * graphs in XML: a multi-rate graph on --platform, default bwdsp-1board; --processor
 * picks the processor type whose execution times it takes).  --iterations sets the
 * iterations.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { O_PROCESSOR };
static const CliOption own[] = {
    {"processor", "TYPE",
     "sdf3: the execution times of processor TYPE (default: each actor's default "
     "processor)"},
    {NULL, NULL, NULL},
};

static const CliSpec spec = {
    "import",
    "FORMAT FILE",
    "Convert a task graph into tgc-graph/1.  FORMAT is one of:\n"
    "  stg   Standard Task Graph Set (Kasahara lab): n, then n+2 lines \"id cost npred\n"
    "        preds...\" with the dummy entry 0 and exit n+1 (kept, cost 0); edges of 0 "
    "bytes\n"
    "  dot   Graphviz digraph; node attribute Weight (or cycles), edge attribute Weight\n"
    "        (or bytes), optional edge attribute delay\n"
    "  sdf3  SDF3's synchronous dataflow graph (XML): actors, ports with rates, "
    "channels\n"
    "        with initial tokens, the execution times of the default processor (or of\n"
    "        --processor TYPE), token sizes (in bits, rounded up to bytes), the\n"
    "        throughput constraint (as period_constraint)\n"
    "stg and dot graphs use the abstract model (an edge costs its bytes in cycles\n"
    "between DSPs); sdf3 graphs the platform of --platform (default bwdsp-1board).\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS | CLI_LIMITS,
    own,
    2,
    2,
};

const CliSpec *const cmd_import_spec = &spec;

int
cmd_import(Cli *c)
{
    int status;
    const char *fmt = c->args[0];
    Graph *(*imp)(const char *, const Options *, Diag *) = NULL;
    bool sdf3 = strcmp(fmt, "sdf3") == 0;
    if (strcmp(fmt, "stg") == 0)
        imp = fe_import_stg;
    else if (strcmp(fmt, "dot") == 0)
        imp = fe_import_dot;
    if (!imp && !sdf3) {
        static const char *const names[] = {"stg", "dot", "sdf3"};
        const char *hint = diag_suggest(fmt, names, 3);
        status = hint ? cli_usage(&spec, "unknown format \"%s\" (did you mean \"%s\"?)",
                                  fmt, hint)
                      : cli_usage(&spec,
                                  "unknown format \"%s\" (the formats are stg, dot and "
                                  "sdf3)",
                                  fmt);
        return status;
    }
    if (!sdf3 && c->val[O_PROCESSOR])
        return cli_usage(&spec, "--processor applies to sdf3 graphs only");
    if (sdf3 && c->val[O_PROCESSOR] && !*c->val[O_PROCESSOR])
        return cli_usage(&spec, "--processor needs a processor type");
    if (!sdf3 && c->opt.platform) {
        return cli_usage(&spec, "imported graphs use the abstract model; --platform does "
                                "not apply (use --dsps N)");
    }
    Diag *d = diag_new();
    Graph *g = sdf3 ? fe_import_sdf3(c->args[1], &c->opt, c->val[O_PROCESSOR], d)
                    : imp(c->args[1], &c->opt, d);
    status = TGC_EXIT_INPUT;
    if (g) {
        if (c->opt.iterations > 0)
            g->iterations = c->opt.iterations;
        char *text = cg_graph_json(g);
        status = out_write_file(c->output ? c->output : "-", text, strlen(text));
        free(text);
        ir_graph_free(g);
    }
    if (cli_report(d))
        status = TGC_EXIT_INPUT;
    diag_free(d);
    return status;
}
