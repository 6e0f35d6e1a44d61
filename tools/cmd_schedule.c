/*
 * tools/cmd_schedule.c - `tgc schedule GRAPH` / `tgc schedule --from SCHEDULE`: maps and
 * orders the tasks (HEFT, then the local search over all iterations), inserts the
 * messages, evaluates the schedule and prints a summary (docs/cli.md lists the fields);
 * writes the schedule as tgc-schedule/1 (-o), Graphviz dot (--dot) and a Gantt SVG
 * (--gantt).
 *
 * Every output is built in memory first and written only when the run succeeded, each
 * through out_write_file (a temporary file, then rename): a failed run writes nothing.
 * `--from` reads a schedule file back; writing it again with -o gives the same bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "throughput.h"

enum { O_BUDGET, O_DOT, O_GANTT, O_FROM, O_ALGO, O_OBJECTIVE, O_NODES, O_TIME };
static const CliOption own[] = {
    {"search-budget", "N",
     "local-search evaluations after HEFT (default: from the graph's size; 0 = HEFT "
     "only)"},
    {"dot", "FILE", "write the schedule as Graphviz dot (render with dot -Tsvg)"},
    {"gantt", "FILE", "write the predicted timeline as an SVG Gantt chart"},
    {"from", "FILE", "read a tgc-schedule/1 file instead of scheduling a graph"},
    {"algo", "NAME",
     "heft (default) or peft: the list scheduler; exact: branch and bound for the "
     "one-iteration length on the abstract model, from the default's schedule"},
    CLI_SEARCH_OBJECTIVE_OPTION,
    {"node-limit", "N", "--algo=exact: at most N search nodes (default: no limit)"},
    {"time-limit", "SECONDS", "--algo=exact: at most this much CPU time (default 60)"},
    {NULL, NULL, NULL},
};

static const CliSpec spec = {
    "schedule",
    "GRAPH",
    "Map and order the tasks of a task graph on the DSPs of its platform "
    "(insertion-based\n"
    "HEFT, refined by a local search whose objective is the evaluated length over all\n"
    "iterations: by default the shorter of the length as scheduled and the length with\n"
    "every receive pipelined that tgc opt's cp would pipeline, since the messages are\n"
    "optimised afterwards; --search-objective=plain judges the length as scheduled),\n"
    "insert one message per edge across DSPs (none pipelined), evaluate the schedule\n"
    "with the execution model and print a summary: schedule length in cycles and\n"
    "microseconds, messages and bytes, per-DSP utilisation and the critical path of\n"
    "iteration 0.\n"
    "With --from, the schedule is read from a tgc-schedule/1 file (its own graph and\n"
    "platform) and evaluated again; -o then writes the same bytes.\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS | CLI_CONTENTION | CLI_LIMITS | CLI_JSON,
    own,
    0,
    1,
};

static const char *
op_text(const Sched *s, int d, int k, char *buf, size_t n)
{
    Op o = s->ops[d][k];
    if (o.kind == OP_COMPUTE)
        snprintf(buf, n, "\"%s\"", ir_escaped(s->g->arena, s->g->tasks[o.ref].id));
    else if (o.kind == OP_SEND)
        snprintf(buf, n, "send m%d", o.ref);
    else
        snprintf(buf, n, "recv m%d", o.ref);
    return buf;
}

typedef struct Summary {
    int nmsgs, aggregated, pipelined;
    int64_t bytes; /* carried by messages per iteration */
    int npath;
    int *pdsp, *pop;
    int64_t path_end; /* finish of the path's last operation (iteration 0) */
} Summary;

static void
summarize(const Sched *s, const EvalResult *r, Summary *sm)
{
    memset(sm, 0, sizeof *sm);
    sm->nmsgs = s->nmsgs;
    for (int m = 0; m < s->nmsgs; m++) {
        sm->aggregated += s->msgs[m].nedges > 1;
        sm->pipelined += s->msgs[m].pipelined;
        sm->bytes += s->msgs[m].bytes;
    }
    int total = 0;
    for (int d = 0; d < s->ndsps; d++)
        total += s->nops[d];
    sm->pdsp = malloc(((size_t)total + 1) * sizeof *sm->pdsp);
    sm->pop = malloc(((size_t)total + 1) * sizeof *sm->pop);
    if (!sm->pdsp || !sm->pop)
        ice("out of memory");
    sm->npath = cg_critical_path(s, r, sm->pdsp, sm->pop);
    if (sm->npath > 0) {
        int d = sm->pdsp[sm->npath - 1], k = sm->pop[sm->npath - 1];
        for (int i = 0; i < r->nrec; i++)
            if (r->rec_iter[i] == 0)
                sm->path_end = r->op_time[d][i * s->nops[d] + k].end;
    }
}

static double
percent(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void
print_text(const Sched *s, const EvalResult *r, const Summary *sm)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    printf("%s: schedule of graph \"%s\" on %s (%d DSPs), %" PRId64 " iteration%s\n",
           ir_escaped(g->arena, g->file), ir_escaped(g->arena, g->name),
           ir_escaped(g->arena, p->name), s->ndsps, g->iterations,
           g->iterations == 1 ? "" : "s");
    printf("  schedule length  %" PRId64 " cycles (%.3f us)\n", r->length,
           plat_cycles_to_us(p, r->length));
    if (g->iterations > 1)
        printf("  per iteration    %.1f cycles on average\n",
               (double)r->length / (double)g->iterations);
    printf("  messages         %d (%d aggregated, %d pipelined), %" PRId64
           " bytes per iteration\n",
           sm->nmsgs, sm->aggregated, sm->pipelined, sm->bytes);
    for (int d = 0; d < s->ndsps; d++) {
        /* DSPs without an operation, two or more in a row, on one line */
        int idle = ir_sched_idle_end(s, d);
        if (idle - d >= 2) {
            printf("  DSPs %d-%d%*s idle: no tasks, no messages\n", d, idle - 1,
                   (int)(11 - snprintf(NULL, 0, "%d-%d", d, idle - 1)), "");
            d = idle - 1;
            continue;
        }
        int ntasks = 0;
        for (int k = 0; k < s->nops[d]; k++)
            ntasks += s->ops[d][k].kind == OP_COMPUTE;
        printf("  DSP %-3d          busy %5.1f%%  compute %5.1f%%  %d task%s\n", d,
               percent(r->busy[d], r->length), percent(r->compute[d], r->length), ntasks,
               ntasks == 1 ? "" : "s");
    }
    if (sm->npath > 0) {
        printf("  critical path    iteration 0, finishes at %" PRId64 ":", sm->path_end);
        int last = -1;
        for (int i = 0; i < sm->npath; i++) {
            char buf[256];
            if (sm->pdsp[i] != last)
                printf("%s DSP %d:", i ? " |" : "", sm->pdsp[i]);
            last = sm->pdsp[i];
            printf(" %s", op_text(s, sm->pdsp[i], sm->pop[i], buf, sizeof buf));
        }
        printf("\n");
    }
}

static json_t *
to_json(const Sched *s, const EvalResult *r, const Summary *sm)
{
    const Graph *g = s->g;
    const Platform *p = s->p;
    json_t *plat = cli_platform_json(p);
    json_t *o = json_object();
    json_object_set_new(o, "file", json_string(g->file));
    json_object_set_new(o, "graph", json_string(g->name));
    json_object_set_new(o, "platform", plat);
    json_object_set_new(o, "dsps", json_integer(s->ndsps));
    json_object_set_new(o, "iterations", json_integer(g->iterations));
    json_object_set_new(o, "schedule_length", json_integer(r->length));
    json_object_set_new(o, "schedule_length_us",
                        json_real(plat_cycles_to_us(p, r->length)));
    json_object_set_new(o, "messages", json_integer(sm->nmsgs));
    json_object_set_new(o, "aggregated", json_integer(sm->aggregated));
    json_object_set_new(o, "pipelined", json_integer(sm->pipelined));
    json_object_set_new(o, "bytes", json_integer(sm->bytes));
    json_t *dsps = json_array();
    for (int d = 0; d < s->ndsps; d++) {
        json_t *jd = json_object(), *tasks = json_array();
        for (int k = 0; k < s->nops[d]; k++)
            if (s->ops[d][k].kind == OP_COMPUTE)
                json_array_append_new(tasks, json_string(g->tasks[s->ops[d][k].ref].id));
        json_object_set_new(jd, "dsp", json_integer(d));
        json_object_set_new(jd, "tasks", tasks);
        json_object_set_new(jd, "busy", json_integer(r->busy[d]));
        json_object_set_new(jd, "compute", json_integer(r->compute[d]));
        json_object_set_new(jd, "idle", json_integer(r->idle[d]));
        json_object_set_new(
            jd, "utilisation",
            json_real(r->length > 0 ? (double)r->busy[d] / (double)r->length : 0.0));
        json_object_set_new(
            jd, "compute_share",
            json_real(r->length > 0 ? (double)r->compute[d] / (double)r->length : 0.0));
        json_array_append_new(dsps, jd);
    }
    json_object_set_new(o, "per_dsp", dsps);
    json_t *path = json_array();
    for (int i = 0; i < sm->npath; i++) {
        static const char *const kinds[] = {"compute", "send", "recv"};
        Op op = s->ops[sm->pdsp[i]][sm->pop[i]];
        json_t *step = json_object();
        json_object_set_new(step, "dsp", json_integer(sm->pdsp[i]));
        json_object_set_new(step, "kind", json_string(kinds[op.kind]));
        if (op.kind == OP_COMPUTE)
            json_object_set_new(step, "task", json_string(g->tasks[op.ref].id));
        else
            json_object_set_new(step, "message", json_integer(op.ref));
        json_array_append_new(path, step);
    }
    json_t *cp = json_object();
    json_object_set_new(cp, "end", json_integer(sm->path_end));
    json_object_set_new(cp, "ops", path);
    json_object_set_new(o, "critical_path", cp);
    return o;
}

/* One output to write: its path (NULL = not asked for) and its text. */
typedef struct Output {
    const char *path;
    char *text;
} Output;

const CliSpec *const cmd_schedule_spec = &spec;

int
cmd_schedule(Cli *c)
{
    int status;
    const char *from = c->val[O_FROM];
    if (from && c->nargs > 0)
        return cli_usage(&spec, "give either a GRAPH or --from SCHEDULE, not both");
    if (!from && c->nargs != 1)
        return cli_usage(&spec, "missing the GRAPH operand (or --from SCHEDULE)");
    if (from && (c->opt.platform || c->opt.dsps)) {
        return cli_usage(&spec, "--from takes the platform of the schedule file; "
                                "--platform and --dsps do not apply");
    }
    if (c->val[O_BUDGET] && !cli_int_value(&spec, "--search-budget", c->val[O_BUDGET], 0,
                                           INT64_C(1000000000), &c->opt.search_budget))
        return TGC_EXIT_USAGE;
    if (from && c->val[O_OBJECTIVE])
        return cli_usage(&spec, "--search-objective does not apply to --from: the "
                                "schedule is read as written");
    if (!cli_search_objective(&spec, c->val[O_OBJECTIVE], &c->opt))
        return TGC_EXIT_USAGE;
    if (c->val[O_ALGO]) {
        if (strcmp(c->val[O_ALGO], "peft") == 0)
            c->opt.algo = SCHED_PEFT;
        else if (strcmp(c->val[O_ALGO], "exact") == 0)
            c->opt.algo = SCHED_EXACT;
        else if (strcmp(c->val[O_ALGO], "heft") != 0) {
            status = cli_usage(&spec, "--algo must be heft, peft or exact, got \"%s\"",
                               c->val[O_ALGO]);
            return status;
        }
    }
    if ((c->val[O_NODES] || c->val[O_TIME]) && c->opt.algo != SCHED_EXACT)
        return cli_usage(&spec, "--node-limit and --time-limit need --algo=exact");
    SchedExactResult exact = {0};
    c->opt.exact_seconds = 60;
    c->opt.exact_result = &exact;
    SchedSearchStats search = {0};
    c->opt.search_stats = &search;
    if (c->val[O_NODES] && !cli_int_value(&spec, "--node-limit", c->val[O_NODES], 1,
                                          INT64_MAX, &c->opt.exact_nodes))
        return TGC_EXIT_USAGE;
    if (c->val[O_TIME]) {
        char *end;
        errno = 0;
        c->opt.exact_seconds = strtod(c->val[O_TIME], &end);
        if (end == c->val[O_TIME] || *end || errno || !(c->opt.exact_seconds > 0) ||
            c->opt.exact_seconds > 1e6) {
            status = cli_usage(&spec,
                               "--time-limit expects seconds above 0 (at most 1e6), got "
                               "\"%s\"",
                               c->val[O_TIME]);
            return status;
        }
    }
    Output out[3] = {{c->output, NULL}, {c->val[O_DOT], NULL}, {c->val[O_GANTT], NULL}};
    int to_stdout = 0;
    for (int i = 0; i < 3; i++)
        to_stdout += out[i].path && strcmp(out[i].path, "-") == 0;
    if (to_stdout > 1 || (to_stdout && c->json))
        return cli_usage(&spec, "only one of -o, --dot, --gantt and --json can use the "
                                "standard output");

    Diag *d = diag_new();
    Graph *g = NULL;
    Sched *s = NULL;
    Arena *a = arena_new();
    EvalResult r;
    status = TGC_EXIT_INPUT;
    s = tgc_schedule_input(from, c->nargs ? c->args[0] : NULL, &c->opt, &g, d);
    if (!s)
        goto done;
    /* The Gantt chart shows the first two and the last two iterations; the one before the
     * last two fills the DSPs that are still in it (the pipeline across DSPs). */
    EvalOpts eo = {.first = 2, .last = 3};
    if (eval_run(s, &eo, &r, a) != 0) {
        eval_report_deadlock(s, &r, d);
        goto done;
    }
    if (out[0].path)
        out[0].text = cg_sched_json_file(s, &r, out[0].path);
    if (out[1].path)
        out[1].text = cg_sched_dot(s, &r);
    if (out[2].path)
        out[2].text = cg_sched_gantt(s, &r);
    Summary sm;
    summarize(s, &r, &sm);
    EvalPeriod per;
    if (eval_period_of(s, &per) != 0)
        ice("a schedule that evaluated deadlocks in its steady state");
    TgcThroughput tp;
    tgc_throughput(s, &per, &tp, a);
    json_t *js = c->json ? to_json(s, &r, &sm) : NULL;
    if (js)
        tgc_throughput_json(js, &tp, s->g);
    if (js && search.candidates > 0) {
        json_t *x = json_object();
        json_object_set_new(x, "candidates", json_integer(search.candidates));
        json_object_set_new(x, "screened", json_integer(search.screened));
        json_object_set_new(x, "evaluations", json_integer(search.evals));
        json_object_set_new(x, "bound_evaluations", json_integer(search.bound_evals));
        json_object_set_new(x, "branch_and_bound_steps", json_integer(search.bb_steps));
        json_object_set_new(js, "search", x);
    }
    if (js && c->opt.algo == SCHED_EXACT && !from) {
        json_t *x = json_object();
        json_object_set_new(x, "proven", json_boolean(exact.proven));
        json_object_set_new(x, "length", json_integer(exact.length));
        json_object_set_new(x, "lower_bound", json_integer(exact.lower));
        json_object_set_new(x, "nodes", json_integer(exact.nodes));
        json_object_set_new(x, "seconds", json_real(exact.seconds));
        json_object_set_new(js, "exact", x);
    }
    status = TGC_EXIT_OK;
    for (int i = 0; i < 3; i++)
        if (out[i].path && out_check(out[i].path) != 0)
            status = TGC_EXIT_INPUT;
    for (int i = 0; i < 3 && status == TGC_EXIT_OK; i++)
        if (out[i].path)
            status = out_write_file(out[i].path, out[i].text, strlen(out[i].text));
    if (status == TGC_EXIT_OK) {
        if (js)
            status = cli_print_json(js);
        else if (!to_stdout) {
            print_text(s, &r, &sm);
            tgc_throughput_print(&tp, s->g);
            if (c->opt.algo == SCHED_EXACT && !from) {
                if (exact.proven)
                    printf("  exact            optimal (proven), %" PRId64
                           " nodes, %.2f s\n",
                           exact.nodes, exact.seconds);
                else
                    printf("  exact            not proven: the search stopped at its "
                           "%s after %" PRId64 " nodes, %.2f s; lower bound %" PRId64
                           "\n",
                           c->opt.exact_nodes > 0 && exact.nodes >= c->opt.exact_nodes
                               ? "node limit"
                               : "time limit",
                           exact.nodes, exact.seconds, exact.lower);
            }
        }
    }
    json_decref(js);
    free(sm.pdsp);
    free(sm.pop);

done:
    if (cli_report(d) && status == TGC_EXIT_OK)
        status = TGC_EXIT_INPUT;
    for (int i = 0; i < 3; i++)
        free(out[i].text);
    ir_sched_free(s);
    ir_graph_free(g);
    arena_free(a);
    diag_free(d);
    return status;
}
