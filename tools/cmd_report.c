/*
 * tools/cmd_report.c - `tgc report GRAPH -o FILE` / `tgc report --from SCHEDULE -o FILE`:
 * schedules the graph as `tgc schedule` does (or reads a tgc-schedule/1 file, such as
 * one `tgc opt -o` wrote), evaluates it and writes the HTML report of backend/report.c:
 * one self-contained page with the summary, the per-DSP table, the Gantt chart, the
 * schedule graph and the operations (docs/cli.md).  `tgc opt --report` writes the same
 * page with the table of methods.
 *
 * The page is built in memory and written only when the run succeeded, through
 * out_write_file (a temporary file, then rename): a failed run writes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "throughput.h"

enum { O_FROM, O_BUDGET, O_OBJECTIVE };
static const CliOption own[] = {
    {"from", "FILE", "read a tgc-schedule/1 file instead of scheduling a graph"},
    {"search-budget", "N",
     "local-search evaluations after HEFT (default: from the graph's size; 0 = HEFT "
     "only)"},
    CLI_SEARCH_OBJECTIVE_OPTION,
    {NULL, NULL, NULL},
};

static const CliSpec spec = {
    "report",
    "GRAPH -o FILE",
    "Schedule a task graph as tgc schedule does (or read a schedule with --from),\n"
    "evaluate it and write an HTML report to FILE (-o is required; \"-\" writes the\n"
    "standard output): one self-contained page that loads nothing from anywhere, with\n"
    "a summary, the per-DSP table, the Gantt chart (hover over an operation for its\n"
    "task or message, bytes, iteration, start and end), the schedule graph laid out by\n"
    "Graphviz's dot (up to 1600 operations) and the table of operations with the\n"
    "times of iteration 0.  Open it in any browser: xdg-open FILE.\n"
    "tgc opt --report FILE writes the same page for an optimised schedule, with the\n"
    "table of methods.\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS | CLI_CONTENTION | CLI_LIMITS | CLI_JSON,
    own,
    0,
    1,
};

const CliSpec *const cmd_report_spec = &spec;

int
cmd_report(Cli *c)
{
    int status;
    const char *from = c->val[O_FROM];
    const char *why = NULL;
    if (from && c->nargs > 0)
        why = "give either a GRAPH or --from SCHEDULE, not both";
    else if (!from && c->nargs != 1)
        why = "missing the GRAPH operand (or --from SCHEDULE)";
    else if (!c->output)
        why = "missing -o FILE (\"-o -\" writes the report to the standard output)";
    else if (from && (c->opt.platform || c->opt.dsps))
        why = "--from takes the platform of the schedule file; --platform and --dsps do "
              "not apply";
    else if (from && (c->val[O_OBJECTIVE] || c->val[O_BUDGET]))
        why = "--search-budget and --search-objective do not apply to --from: the "
              "schedule is read as written";
    else if (strcmp(c->output, "-") == 0 && c->json)
        why = "only one of -o and --json can use the standard output";
    if (why)
        return cli_usage(&spec, "%s", why);
    if (c->val[O_BUDGET] && !cli_int_value(&spec, "--search-budget", c->val[O_BUDGET], 0,
                                           INT64_C(1000000000), &c->opt.search_budget))
        return TGC_EXIT_USAGE;
    if (!cli_search_objective(&spec, c->val[O_OBJECTIVE], &c->opt))
        return TGC_EXIT_USAGE;

    Diag *d = diag_new();
    Graph *g = NULL;
    Sched *s = NULL;
    Arena *a = arena_new();
    char *page = NULL;
    status = TGC_EXIT_INPUT;
    s = tgc_schedule_input(from, c->nargs ? c->args[0] : NULL, &c->opt, &g, d);
    if (!s)
        goto done;
    /* the iterations the Gantt chart shows, as tgc schedule --gantt records them */
    EvalOpts eo = {.first = 2, .last = 3};
    EvalResult r;
    if (eval_run(s, &eo, &r, a) != 0) {
        eval_report_deadlock(s, &r, d);
        goto done;
    }
    EvalPeriod per;
    if (eval_period_of(s, &per) != 0)
        ice("a schedule that evaluated deadlocks in its steady state");
    TgcThroughput tp;
    tgc_throughput(s, &per, &tp, a);
    CgThroughput ct = {&tp.period, tp.bound_rc == 0 ? &tp.bound : NULL, tp.constraint};
    bool drawn;
    if (!(page = cg_sched_report(s, &r, NULL, 0, &ct, NULL, &drawn, d)))
        goto done;
    size_t len = strlen(page);
    if (out_check(c->output) != 0 || out_write_file(c->output, page, len) != 0)
        goto done;
    status = TGC_EXIT_OK;
    int nops = 0;
    for (int k = 0; k < s->ndsps; k++)
        nops += s->nops[k];
    if (c->json) {
        json_t *o = json_object();
        json_object_set_new(o, "file", json_string(g->file));
        json_object_set_new(o, "graph", json_string(g->name));
        json_object_set_new(o, "platform", cli_platform_json(s->p));
        json_object_set_new(o, "iterations", json_integer(g->iterations));
        json_object_set_new(o, "schedule_length", json_integer(r.length));
        tgc_throughput_json(o, &tp, g);
        json_object_set_new(o, "operations", json_integer(nops));
        json_object_set_new(o, "graph_drawn", json_boolean(drawn));
        json_object_set_new(o, "report", json_string(c->output));
        json_object_set_new(o, "page_bytes", json_integer((json_int_t)len));
        status = cli_print_json(o);
        json_decref(o);
    } else if (strcmp(c->output, "-") != 0) {
        printf("%s: report of graph \"%s\" on %s (%d DSPs): schedule length %lld cycles, "
               "%d operations%s\n",
               ir_escaped(a, c->output), ir_escaped(a, g->name),
               ir_escaped(a, s->p->name), s->ndsps, (long long)r.length, nops,
               drawn ? "" : " (too many to draw the graph)");
    }

done:
    if (cli_report(d) && status == TGC_EXIT_OK)
        status = TGC_EXIT_INPUT;
    free(page);
    ir_sched_free(s);
    ir_graph_free(g);
    arena_free(a);
    diag_free(d);
    return status;
}
