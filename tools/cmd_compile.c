/*
 * tools/cmd_compile.c - `tgc compile GRAPH [-O METHOD] [--platform P] [--dsps N]
 * [--from schedule.json] -o DIR`: the generated C project of a graph (docs/cli.md,
 * docs/kernels.md), and the compilation that `tgc run` shares with it (compile.h).
 *
 * The pipeline: fe_load_graph -> the passes of passes/passes.def (pass_schedule: HEFT +
 * local search, messages inserted; pass_optimize: -O; pass_verify), run by pipeline.c ->
 * eval_run (the prediction) -> cg_emit_c -> out_project.  With --from, the schedule
 * file is loaded and only the passes from "verify" on run.  Nothing is written unless
 * every step succeeded, except the file of --dump-after, written right after its pass.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "throughput.h"

static const CliOption own[] = {TGC_COMPILE_OPTIONS, {NULL, NULL, NULL}};

static const CliSpec spec = {
    "compile",
    "GRAPH",
    "Compile a task graph into a C project in DIR: one C file per DSP against MPIRIO,\n"
    "main.c, a sequential reference program, the kernels, a CMakeLists.txt and a README\n"
    "(docs/kernels.md).  With --from, the schedule of a tgc-schedule/1 file is compiled "
    "as\n"
    "written.\n",
    CLI_OUTPUT | CLI_OUTPUT_DIR | CLI_PLATFORM | CLI_ITERATIONS | CLI_CONTENTION |
        CLI_LIMITS | CLI_JSON | CLI_KERNELS,
    own,
    0,
    1,
};

void
tgc_compiled_free(Compiled *x)
{
    cg_project_free(&x->project);
    if (x->s)
        ir_sched_free(x->s);
    if (x->g)
        ir_graph_free(x->g);
    if (x->arena)
        arena_free(x->arena);
    memset(x, 0, sizeof *x);
}

int
tgc_compile(Cli *c, const CliSpec *sp, const char *dump_dir, Compiled *out)
{
    memset(out, 0, sizeof *out);
    const char *method = c->val[0], *from = c->val[1], *seed = c->val[2];
    const char *dump_after = c->val[4];
    PassRun pr = {.time_passes = c->val[5] != NULL, .dump_after = -1};
    Options opt = c->opt;
    opt.method = OPT_BFCO;
    opt.seed = 1;
    opt.threads = 1;
    if (method && opt_method_parse(method, &opt.method) != 0)
        return cli_usage(sp, "unknown -O method \"%s\" (none, ma, cp, bfco, es)", method);
    if (!cli_search_objective(sp, c->val[3], &opt))
        return TGC_EXIT_USAGE;
    if (seed) {
        int64_t v;
        if (!cli_int_value(sp, "--seed", seed, 0, INT64_MAX, &v))
            return TGC_EXIT_USAGE;
        opt.seed = (uint64_t)v;
    }
    const char *target = c->val[7];
    if (!target || strcmp(target, "sim") == 0)
        out->target = CG_TARGET_SIM;
    else if (strcmp(target, "mpi") == 0 || strcmp(target, "openmpi") == 0)
        out->target = CG_TARGET_OPENMPI;
    else if (strcmp(target, "mpich") == 0)
        out->target = CG_TARGET_MPICH;
    else if (strcmp(target, "threads") == 0)
        out->target = CG_TARGET_THREADS;
    else
        return cli_usage(
            sp, "unknown --target \"%s\" (sim, mpi, openmpi, mpich, threads)", target);
    if (from && c->nargs > 0)
        return cli_usage(sp, "give either GRAPH or --from FILE, not both");
    if (!from && c->nargs != 1)
        return cli_usage(sp, "expected one GRAPH (or --from FILE)");
    if (from && method)
        return cli_usage(
            sp, "-O does not apply to --from: the schedule is compiled as written");
    if (from && c->val[3])
        return cli_usage(sp, "--search-objective does not apply to --from: the schedule "
                             "is compiled as written");
    int first = from ? tgc_pass_find("verify") : 0;
    if (first < 0)
        ice("passes.def has no pass \"verify\"");
    if (dump_after) {
        if (!tgc_dump_after_parse(sp, dump_after, &pr.dump_after))
            return TGC_EXIT_USAGE;
        if (pr.dump_after < first)
            return cli_usage(sp, "--dump-after=%s: pass \"%s\" does not run with --from",
                             dump_after, dump_after);
        if (!dump_dir)
            return cli_usage(sp,
                             "--dump-after needs --keep DIR: the dump is written "
                             "beside DIR, as DIR.after-%s.json",
                             dump_after);
    }
    out->method = opt.method;
    out->from_file = from != NULL;
    char *dump_path = dump_after ? tgc_dump_path(dump_dir, dump_after) : NULL;
    pr.dump_path = dump_path;
    Diag *d = diag_new();
    int rc = -1;
    double t0 = 1e3 * ir_wall_seconds();
    if (from)
        out->s = fe_load_schedule(from, &opt, &out->g, d);
    else
        out->g = fe_load_graph(c->args[0], &opt, d);
    if (pr.time_passes)
        fprintf(stderr, "tgc: time-passes: %-10s %10.3f ms\n", "load",
                1e3 * ir_wall_seconds() - t0);
    if (out->g && (!from || out->s)) {
        Unit u = {.g = out->g, .p = out->g->platform, .s = out->s, .opt = &opt};
        rc = tgc_run_passes(&u, first, tgc_npasses() - 1, &pr, d);
        out->s = u.s;
    }
    free(dump_path);
    if (rc == 0) {
        out->arena = arena_new();
        rc = eval_run(out->s, &(EvalOpts){1, 0}, &out->r, out->arena);
        if (rc != 0)
            eval_report_deadlock(out->s, &out->r, d);
    }
    if (rc == 0)
        rc = cg_emit_c_for(out->s, &out->r, out->target, &out->project, d);
    int status = cli_report(d);
    diag_free(d);
    if (rc != 0 && status == 0)
        status = TGC_EXIT_INPUT;
    return rc == 0 ? TGC_EXIT_OK : status;
}

const CliSpec *const cmd_compile_spec = &spec;

int
cmd_compile(Cli *c)
{
    int status;
    if (!c->output || strcmp(c->output, "-") == 0)
        return cli_usage(&spec, "-o DIR is required (the project is a directory)");
    Compiled x;
    status = tgc_compile(c, &spec, c->output, &x);
    if (status == TGC_EXIT_OK) {
        Diag *d = diag_new();
        if (out_project(&x.project, c->output, c->val[6] != NULL, NULL, d) != 0)
            status = TGC_EXIT_INPUT;
        cli_report(d);
        diag_free(d);
    }
    if (status == TGC_EXIT_OK) {
        int merged = 0, piped = 0;
        for (int m = 0; m < x.s->nmsgs; m++) {
            merged += x.s->msgs[m].nedges > 1;
            piped += x.s->msgs[m].pipelined;
        }
        const char *mname = x.from_file ? "from-file" : opt_method_name(x.method);
        if (c->json) {
            json_t *o = json_object();
            json_object_set_new(o, "dir", json_string(c->output));
            json_object_set_new(o, "graph", json_string(x.g->name ? x.g->name : ""));
            json_object_set_new(o, "platform", cli_platform_json(x.s->p));
            json_object_set_new(o, "method", json_string(mname));
            json_object_set_new(o, "dsps", json_integer(x.s->ndsps));
            json_object_set_new(o, "messages", json_integer(x.s->nmsgs));
            json_object_set_new(o, "aggregated", json_integer(merged));
            json_object_set_new(o, "pipelined", json_integer(piped));
            json_object_set_new(o, "schedule_length", json_integer(x.r.length));
            /* predicted_cycles: schedule_length, the name run and compile had first */
            json_object_set_new(o, "predicted_cycles", json_integer(x.r.length));
            json_object_set_new(o, "tasks", json_integer(x.g->ntasks));
            EvalPeriod per;
            if (eval_period_of(x.s, &per) != 0)
                ice("a verified schedule deadlocks in its steady state");
            TgcThroughput tp;
            tgc_throughput(x.s, &per, &tp, x.arena);
            tgc_throughput_json(o, &tp, x.g);
            json_t *files = json_array();
            for (int i = 0; i < x.project.nfiles; i++)
                json_array_append_new(files, json_string(x.project.files[i].name));
            json_object_set_new(o, "files", files);
            status = cli_print_json(o);
            json_decref(o);
        } else {
            printf("%s: %d files for %d DSP%s (-O %s: %d message%s, %d aggregated, %d "
                   "pipelined); predicted length %" PRId64 " cycles\n",
                   ir_escaped(x.g->arena, c->output), x.project.nfiles, x.s->ndsps,
                   cli_s(x.s->ndsps), mname, x.s->nmsgs, cli_s(x.s->nmsgs), merged, piped,
                   x.r.length);
        }
    }
    tgc_compiled_free(&x);
    return status;
}
