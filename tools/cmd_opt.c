/*
 * tools/cmd_opt.c - `tgc opt GRAPH`: schedules the graph (as `tgc schedule` does), then
 * runs the communication optimisations (none, ma, cp, bfco, es; docs/bfco.md) on that
 * schedule and prints one row per method; -o/--dot/--gantt write the schedule of the
 * method asked for (of bfco with --method all), --report its HTML page with the table of
 * every method run (backend/report.c).  Every output is built first and written
 * only when the run succeeded.  A progress line goes to stderr during a step longer than
 * a second (tools/progress.c), only when stderr is a terminal and not with --json.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "progress.h"
#include "throughput.h"

enum {
    O_METHOD,
    O_SEED,
    O_PARTICLES,
    O_GENERATIONS,
    O_THREADS,
    O_STALL,
    O_ESLIMIT,
    O_VSHAPED,
    O_EPSILON,
    O_DOT,
    O_GANTT,
    O_BUDGET,
    O_JOINT,
    O_POLISH,
    O_OBJECTIVE,
    O_WINDOW,
    O_RESTARTS,
    O_TIMELIMIT,
    O_POLISHBUDGET,
    O_DESCENTBUDGET,
    O_NOJOINT,
    O_REPORT,
    O_POLISHALL,
    O_KICKS,
    O_KICKMOVES,
    O_FITNESSPASSES
};
static const CliOption own[] = {
    {"method", "NAME", "none, ma, cp, bfco (default), es or all"},
    {"seed", "N", "random seed of the swarm (default 1)"},
    {"particles", "N", "swarm size (default: the number of decision bits, 24 to 32)"},
    {"generations", "N", "generations (default 100)"},
    {"threads", "N",
     "threads of the swarm's evaluations and the descent's moves (default: the online "
     "CPUs, at most 8; the same result on any number)"},
    {"stall", "N",
     "stop after N generations without improvement (default 20 on at most 64 messages, "
     "else 3; 0 = never)"},
    {"es-limit", "N", "largest number of configurations es tries (default 1048576)"},
    {"vshaped", NULL,
     "V-shaped transfer function (|tanh v| flips a bit) instead of sigmoid"},
    {"epsilon", "X", "slack of the TIS/TEIR test (default 0.05)"},
    {"dot", "FILE", "write the optimised schedule as Graphviz dot"},
    {"gantt", "FILE", "write the optimised schedule's timeline as an SVG Gantt chart"},
    {"search-budget", "N",
     "local-search evaluations of the scheduler (default: from size)"},
    {"joint", NULL,
     "a pipeline bit per receive in each particle, searched with the merges"},
    {"no-polish", NULL,
     "no final toggling of single pipelines (the paper's BFCO exactly)"},
    CLI_SEARCH_OBJECTIVE_OPTION,
    {"window", "N",
     "merge candidates: messages of one DSP pair at most N apart in send order "
     "(default 4; 0 = every pair)"},
    {"restarts", "N",
     "at a stall, restart the swarm around the best so far N times (default 3 on at most "
     "64 messages, else 0)"},
    {"time-limit", "S",
     "stop the swarm and the descent after S seconds (wall; the polish after them "
     "still runs); the result then depends on the machine"},
    {"polish-budget", "N",
     "toggles the polish may try (default: 3/4 per particle evaluated, counting at "
     "least 12 generations, + 64; up to 800 messages at least one per receive)"},
    {"descent-budget", "N",
     "merge moves the descent may try (default: 4 per particle evaluated, counting at "
     "least 12 generations, and on to a local optimum when one pass of its moves fits "
     "in that or the schedule has at most 800 messages; above, starting from the "
     "shortest merge of sends close on their DSP, its first pass to the end (within "
     "10 budgets) and more passes while they gain, then, once contention makes the "
     "contention-free length misleading, passes judged by the contended length on to "
     "a local optimum (at most 16 passes' moves); N: at most N moves; 0 = no "
     "descent)"},
    {"no-joint", NULL,
     "no joint pipeline bits even on small schedules (default: joint at <= 64 "
     "messages)"},
    {"report", "FILE",
     "write the HTML report of the schedule -o writes, with the table of methods "
     "(tgc report)"},
    {"polish-all", NULL,
     "the polish evaluates every toggle that can be kept, also those that lengthen "
     "the contention-free length"},
    {"kicks", "N",
     "after a descent that ends at a local optimum with budget left, kick the best "
     "merge and descend again until N kicks in a row keep nothing (default 0: none)"},
    {"kick-moves", "N", "random merge moves of a kick (default 3)"},
    {"fitness-passes", "N",
     "after the last descent, up to N passes of its merge moves judged by the fitness "
     "itself while one keeps a move (default 4 on at most 64 messages, else 0)"},
    {NULL, NULL, NULL},
};

static const CliSpec spec = {
    "opt",
    "GRAPH",
    "Schedule a task graph (HEFT + local search, as tgc schedule), then optimise its\n"
    "messages: none (as scheduled), ma (merge every same-pair send, repaired), cp\n"
    "(pipeline every receive that can be), bfco (binary particle swarm over merges, "
    "with\n"
    "deadlock repair and greedy pipelining), es (exhaustive, small graphs only) or all.\n"
    "Prints one row per method: schedule length, improvement over none, messages before\n"
    "and after merging, merged groups, pipelined receives, evaluations and time.\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS | CLI_CONTENTION | CLI_LIMITS | CLI_JSON,
    own,
    1,
    1,
};

typedef struct Row {
    OptMethod m;
    bool done;
    const char *error; /* es refused */
    OptStats st;
    TgcThroughput tp; /* its schedule's period, the graph's bound */
} Row;

static double
pct(int64_t none, int64_t x)
{
    return none > 0 ? 100.0 * (double)(none - x) / (double)none : 0.0;
}

/* An int option of BFCO's: absent (text NULL) leaves *out; false on a usage error. */
static bool
int_option(const char *opt, const char *text, int64_t lo, int64_t hi, int *out)
{
    int64_t v;
    if (!text)
        return true;
    if (!cli_int_value(&spec, opt, text, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

const CliSpec *const cmd_opt_spec = &spec;

int
cmd_opt(Cli *c)
{
    int status;
    BfcoParams bp;
    bfco_default_params(&bp);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    bp.threads = ncpu < 1 ? 1 : ncpu > 8 ? 8 : (int)ncpu;
    bool all = false;
    OptMethod method = OPT_BFCO;
    int64_t v;
    status = TGC_EXIT_USAGE;
    if (c->val[O_METHOD]) {
        if (strcmp(c->val[O_METHOD], "all") == 0)
            all = true;
        else if (opt_method_parse(c->val[O_METHOD], &method) != 0) {
            cli_usage(&spec, "--method must be none, ma, cp, bfco, es or all, got \"%s\"",
                      c->val[O_METHOD]);
            goto usage;
        }
    }
    if (c->val[O_SEED]) {
        if (!cli_int_value(&spec, "--seed", c->val[O_SEED], 0, INT64_MAX, &v))
            goto usage;
        bp.seed = (uint64_t)v;
    }
    if (!int_option("--particles", c->val[O_PARTICLES], 1, 100000, &bp.particles) ||
        !int_option("--generations", c->val[O_GENERATIONS], 1, 1000000,
                    &bp.generations) ||
        !int_option("--threads", c->val[O_THREADS], 1, 64, &bp.threads) ||
        !int_option("--stall", c->val[O_STALL], 0, 1000000, &bp.stall))
        goto usage;
    if (c->val[O_ESLIMIT] && !cli_int_value(&spec, "--es-limit", c->val[O_ESLIMIT], 1,
                                            INT64_MAX, &bp.es_limit))
        goto usage;
    if (c->val[O_BUDGET] && !cli_int_value(&spec, "--search-budget", c->val[O_BUDGET], 0,
                                           INT64_C(1000000000), &c->opt.search_budget))
        goto usage;
    if (!cli_search_objective(&spec, c->val[O_OBJECTIVE], &c->opt))
        goto usage;
    if (!int_option("--window", c->val[O_WINDOW], 0, 1000000, &bp.window) ||
        !int_option("--restarts", c->val[O_RESTARTS], 0, 1000000, &bp.restarts))
        goto usage;
    if (c->val[O_POLISHBUDGET] &&
        !cli_int_value(&spec, "--polish-budget", c->val[O_POLISHBUDGET], 0, INT64_MAX,
                       &bp.polish_budget))
        goto usage;
    if (c->val[O_DESCENTBUDGET] &&
        !cli_int_value(&spec, "--descent-budget", c->val[O_DESCENTBUDGET], 0, INT64_MAX,
                       &bp.descent_budget))
        goto usage;
    if (!int_option("--kicks", c->val[O_KICKS], 0, 1000000, &bp.kicks) ||
        !int_option("--kick-moves", c->val[O_KICKMOVES], 1, 1000000, &bp.kick_moves) ||
        !int_option("--fitness-passes", c->val[O_FITNESSPASSES], 0, 1000000,
                    &bp.fitness_passes))
        goto usage;
    if (c->val[O_TIMELIMIT]) {
        char *end;
        double t = strtod(c->val[O_TIMELIMIT], &end);
        if (*end || end == c->val[O_TIMELIMIT] || !(t > 0 && t <= 1e9)) {
            cli_usage(&spec,
                      "--time-limit must be a number of seconds above 0, at most 1e9, "
                      "got \"%s\"",
                      c->val[O_TIMELIMIT]);
            goto usage;
        }
        bp.time_limit = t;
    }
    bp.vshaped = c->val[O_VSHAPED] != NULL;
    bp.joint = c->val[O_JOINT] != NULL;
    if (c->val[O_NOJOINT])
        bp.joint_units = 0;
    bp.polish = c->val[O_POLISH] == NULL;
    bp.polish_all = c->val[O_POLISHALL] != NULL;
    if (c->val[O_EPSILON]) {
        char *end;
        double e = strtod(c->val[O_EPSILON], &end);
        if (*end || end == c->val[O_EPSILON] || !(e >= 0 && e < 1)) {
            cli_usage(&spec, "--epsilon must be a number in [0, 1), got \"%s\"",
                      c->val[O_EPSILON]);
            goto usage;
        }
        bp.epsilon = e;
    }
    enum { NOUT = 4 };
    const char *paths[NOUT] = {c->output, c->val[O_DOT], c->val[O_GANTT],
                               c->val[O_REPORT]};
    int to_stdout = 0;
    for (int i = 0; i < NOUT; i++)
        to_stdout += paths[i] && strcmp(paths[i], "-") == 0;
    if (to_stdout > 1 || (to_stdout && c->json)) {
        cli_usage(&spec, "only one of -o, --dot, --gantt, --report and --json can use "
                         "the standard output");
        goto usage;
    }

    Diag *d = diag_new();
    Arena *a = arena_new();
    Graph *g = NULL;
    Sched *base = NULL, *keep = NULL;
    char *text[NOUT] = {NULL, NULL, NULL, NULL};
    Row rows[5];
    int nrows = 0;
    status = TGC_EXIT_INPUT;
    if (!(g = fe_load_graph(c->args[0], &c->opt, d)))
        goto done;
    Unit u = {.g = g, .p = g->platform, .opt = &c->opt};
    int sched = tgc_pass_find("schedule"), optimize = tgc_pass_find("optimize");
    if (tgc_run_passes(&u, 0, sched, NULL, d) != 0) { /* expand, schedule */
        ir_sched_free(u.s);
        goto done;
    }
    base = u.s;
    for (int i = 0; i < 5; i++) {
        OptMethod m = (OptMethod)i;
        if (!all && m != method)
            continue;
        Row *r = &rows[nrows++];
        memset(r, 0, sizeof *r);
        r->m = m;
        Diag *dm = all && m == OPT_ES ? diag_new() : d;
        /* the optimize pass of the table on a copy of the schedule, with this method and
         * every parameter of the search */
        Options om = c->opt;
        om.method = m;
        Unit um = {.g = g,
                   .p = g->platform,
                   .s = ir_sched_copy(base),
                   .opt = &om,
                   .bfco = &bp,
                   .stats = &r->st};
        int rc = tgc_run_passes(&um, optimize, optimize, NULL, dm);
        Sched *out = um.s;
        if (rc != 0) { /* the pass left its input: the copy */
            ir_sched_free(out);
            out = NULL;
        }
        progress_end();
        if (dm != d) {
            if (rc != 0) { /* es refused: a warning, the other methods stand */
                const char *t = diag_text(dm), *why = strstr(t, "error: es: ");
                why = why ? why + strlen("error: es: ") : t;
                size_t n = strlen(why);
                while (n > 0 && why[n - 1] == '\n')
                    n--;
                r->error = arena_strndup(a, why, n);
                fprintf(stderr, "%s: warning: es refused: %s\n", ir_escaped(a, g->file),
                        r->error);
            }
            diag_free(dm);
        }
        if (rc != 0 && !r->error)
            goto done;
        r->done = rc == 0;
        if (rc == 0) {
            EvalPeriod per;
            if (eval_period_of(out, &per) != 0)
                ice("an optimised schedule deadlocks in its steady state");
            tgc_throughput(out, &per, &r->tp, a);
        }
        if (rc == 0 && (m == method || (all && m == OPT_BFCO))) {
            ir_sched_free(keep);
            keep = out;
        } else {
            ir_sched_free(out);
        }
    }
    int64_t none = -1;
    for (int i = 0; i < nrows; i++)
        if (rows[i].m == OPT_NONE && rows[i].done)
            none = rows[i].st.length;
    if (none < 0) { /* the improvement is over the schedule as scheduled */
        Evaluator *ev = eval_new(g, g->platform);
        none = eval_length(ev, base);
        eval_free(ev);
    }
    if (keep && (paths[0] || paths[1] || paths[2] || paths[3])) {
        EvalOpts eo = {.first = 2, .last = 3};
        EvalResult er;
        if (eval_run(keep, &eo, &er, a) != 0) {
            eval_report_deadlock(keep, &er, d);
            goto done;
        }
        if (paths[0])
            text[0] = cg_sched_json_file(keep, &er, paths[0]);
        if (paths[1])
            text[1] = cg_sched_dot(keep, &er);
        if (paths[2])
            text[2] = cg_sched_gantt(keep, &er);
        if (paths[3]) {
            CgReportMethod rm[5];
            for (int i = 0; i < nrows; i++)
                rm[i] = (CgReportMethod){
                    .name = opt_method_name(rows[i].m),
                    .error = rows[i].done ? NULL : rows[i].error,
                    .st = rows[i].done ? &rows[i].st : NULL,
                    .improvement = pct(none, rows[i].st.length),
                    .shown = rows[i].m == (all ? OPT_BFCO : method),
                };
            const TgcThroughput *kt = NULL;
            for (int i = 0; i < nrows; i++)
                if (rows[i].done && rows[i].m == (all ? OPT_BFCO : method))
                    kt = &rows[i].tp;
            CgThroughput ct = {0};
            if (kt)
                ct = (CgThroughput){&kt->period, kt->bound_rc == 0 ? &kt->bound : NULL,
                                    kt->constraint};
            bool drawn;
            if (!(text[3] = cg_sched_report(keep, &er, rm, nrows, kt ? &ct : NULL, NULL,
                                            &drawn, d)))
                goto done;
        }
    }
    status = TGC_EXIT_OK;
    for (int i = 0; i < NOUT; i++)
        if (paths[i] && out_check(paths[i]) != 0)
            status = TGC_EXIT_INPUT;
    for (int i = 0; i < NOUT && status == TGC_EXIT_OK; i++)
        if (paths[i])
            status = out_write_file(paths[i], text[i], strlen(text[i]));
    if (status != TGC_EXIT_OK)
        goto done;
    if (c->json) {
        json_t *o = json_object(), *ms = json_object();
        json_object_set_new(o, "file", json_string(g->file));
        json_object_set_new(o, "graph", json_string(g->name));
        json_object_set_new(o, "platform", cli_platform_json(g->platform));
        json_object_set_new(o, "dsps", json_integer(g->platform->ndsps));
        json_object_set_new(o, "iterations", json_integer(g->iterations));
        json_object_set_new(o, "seed", json_integer((json_int_t)bp.seed));
        for (int i = 0; i < nrows; i++) {
            const Row *r = &rows[i];
            json_t *jm = json_object();
            if (!r->done) { /* a refusal (es above --es-limit), said on stderr too */
                json_object_set_new(jm, "refused", json_true());
                json_object_set_new(jm, "reason", json_string(r->error));
            } else {
                json_object_set_new(jm, "refused", json_false());
                json_object_set_new(jm, "schedule_length", json_integer(r->st.length));
                tgc_period_json(jm, &r->tp);
                json_object_set_new(jm, "improvement_percent",
                                    json_real(pct(none, r->st.length)));
                json_object_set_new(jm, "messages_before",
                                    json_integer(r->st.msgs_before));
                json_object_set_new(jm, "messages_after", json_integer(r->st.msgs_after));
                json_object_set_new(jm, "aggregated", json_integer(r->st.merged_groups));
                json_object_set_new(jm, "merged_groups", /* the old name of aggregated */
                                    json_integer(r->st.merged_groups));
                json_object_set_new(jm, "pipelined", json_integer(r->st.pipelined));
                json_object_set_new(jm, "evaluations", json_integer(r->st.evaluations));
                json_object_set_new(jm, "seconds", json_real(r->st.seconds));
                json_object_set_new(jm, "decision_bits", json_integer(r->st.nbits));
                if (r->m == OPT_BFCO) {
                    json_object_set_new(jm, "particles", json_integer(r->st.particles));
                    json_object_set_new(jm, "generations",
                                        json_integer(r->st.generations));
                    json_object_set_new(jm, "restarts", json_integer(r->st.restarts));
                    json_object_set_new(jm, "cache_hits", json_integer(r->st.cache_hits));
                    json_object_set_new(jm, "polish_evaluations",
                                        json_integer(r->st.polish_evals));
                    json_object_set_new(jm, "descent_moves",
                                        json_integer(r->st.descent_moves));
                    json_object_set_new(jm, "fitness_moves",
                                        json_integer(r->st.fitness_moves));
                }
            }
            json_object_set_new(ms, opt_method_name(r->m), jm);
        }
        json_object_set_new(o, "methods", ms);
        TgcThroughput tb;
        tgc_throughput(base, NULL, &tb, a);
        tgc_bound_json(o, &tb, g);
        status = cli_print_json(o);
        json_decref(o);
    } else if (!to_stdout) {
        printf("%s: graph \"%s\" on %s (%d DSPs), %" PRId64 " iterations\n",
               ir_escaped(a, g->file), ir_escaped(a, g->name),
               ir_escaped(a, g->platform->name), g->platform->ndsps, g->iterations);
        printf("  %-6s %12s %10s %8s %6s %6s %7s %9s %11s %9s\n", "method", "length",
               "period", "improve", "msgs", "after", "merged", "pipelined", "evaluations",
               "seconds");
        for (int i = 0; i < nrows; i++) {
            const Row *r = &rows[i];
            if (!r->done) {
                printf("  %-6s %12s (above --es-limit: the warning on stderr)\n",
                       opt_method_name(r->m), "refused");
                continue;
            }
            char cell[32];
            tgc_period_cell(&r->tp, cell, sizeof cell);
            printf("  %-6s %12" PRId64 " %10s %7.2f%% %6d %6d %7d %9d %11" PRId64
                   " %9.3f\n",
                   opt_method_name(r->m), r->st.length, cell, pct(none, r->st.length),
                   r->st.msgs_before, r->st.msgs_after, r->st.merged_groups,
                   r->st.pipelined, r->st.evaluations, r->st.seconds);
        }
        /* the bound, and the constraint judged on the schedule -o would write */
        for (int i = 0; i < nrows; i++)
            if (rows[i].done && rows[i].m == (all ? OPT_BFCO : method))
                tgc_bound_print(&rows[i].tp, g, opt_method_name(rows[i].m));
    }

done:
    if (cli_report(d) && status == TGC_EXIT_OK)
        status = TGC_EXIT_INPUT;
    for (int i = 0; i < NOUT; i++)
        free(text[i]);
    ir_sched_free(keep);
    ir_sched_free(base);
    ir_graph_free(g);
    arena_free(a);
    diag_free(d);
usage:
    return status;
}
