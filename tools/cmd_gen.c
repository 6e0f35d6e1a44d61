/*
 * tools/cmd_gen.c - `tgc gen`: the seeded random task-graph generator (tools/gen_graph.c)
 * as a command.  Writes one tgc-graph/1 document; the same options give the same bytes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gen_graph.h"

enum { O_CLASS, O_SEED, O_TASKS, O_SHAPE, O_POINTS, O_CYCLES, O_BYTES, O_DELAY, O_NAME };
static const CliOption own[] = {
    {"class", "NAME",
     "hi20, lo20, rand50, chain100 (the BFCO paper's Table 1) or fft32 (default rand50)"},
    {"seed", "N", "random seed (default 1)"},
    {"tasks", "N", "number of tasks (overrides the class)"},
    {"shape", "NAME", "random, chain, layered, fft or butterfly (overrides the class)"},
    {"points", "N",
     "fft, butterfly: points of the transform, a power of two (default 32)"},
    {"cycles", "LO:HI", "task cost range in cycles (overrides the class)"},
    {"bytes", "LO:HI", "edge size range in bytes (overrides the class)"},
    {"delay-edges", "N", "per 100 tasks, back edges with delay 1 (default 0)"},
    {"name", "NAME",
     "graph name (default CLASS-SEED, or SHAPE SIZE-SEED after --tasks, --shape, "
     "--points)"},
    {NULL, NULL, NULL},
};

static const CliSpec spec = {
    "gen",
    "",
    "Generate a random task graph (tgc-graph/1) from a class and a seed.  Classes\n"
    "follow Table 1 of the BFCO paper ([BFCO] in docs/references.md): hi20 (20 tasks,\n"
    "high communication ratio), lo20 (20 tasks, low), rand50 (50 tasks, random DAG),\n"
    "chain100 (100 tasks, a chain with skip edges); fft32 is the task graph of a\n"
    "32-point FFT (63 recursive calls, 5 stages of 32 butterflies, 223 tasks).  Any\n"
    "size with --tasks, or --points with --shape fft or butterfly (the FFT as its\n"
    "butterflies: a source, log2(points) stages of points / 2, a sink).  Writes to -o "
    "FILE or the\n"
    "standard output.\n",
    CLI_OUTPUT | CLI_PLATFORM | CLI_ITERATIONS,
    own,
    0,
    0,
};

static bool
range(const char *opt, const char *text, int64_t *lo, int64_t *hi)
{
    char *end;
    long long a = strtoll(text, &end, 10);
    if (*end != ':')
        return cli_usage(&spec, "%s wants LO:HI, got \"%s\"", opt, text), false;
    long long b = strtoll(end + 1, &end, 10);
    if (*end || a < 0 || b < a)
        return cli_usage(&spec, "%s wants 0 <= LO <= HI, got \"%s\"", opt, text), false;
    *lo = a;
    *hi = b;
    return true;
}

const CliSpec *const cmd_gen_spec = &spec;

int
cmd_gen(Cli *c)
{
    int status;
    GenSpec gs;
    const char *cls = c->val[O_CLASS] ? c->val[O_CLASS] : "rand50";
    int64_t v;
    status = TGC_EXIT_USAGE;
    if (gen_class(cls, &gs) != 0) {
        cli_usage(&spec, "unknown class \"%s\" (hi20, lo20, rand50, chain100, fft32)",
                  cls);
        goto out;
    }
    if (c->val[O_SEED]) {
        if (!cli_int_value(&spec, "--seed", c->val[O_SEED], 0, INT64_MAX, &v))
            goto out;
        gs.seed = (uint64_t)v;
    }
    if (c->val[O_TASKS]) {
        if (!cli_int_value(&spec, "--tasks", c->val[O_TASKS], 1, c->opt.limits.max_tasks,
                           &v))
            goto out;
        gs.tasks = (int)v;
    }
    if (c->val[O_SHAPE]) {
        const char *s = c->val[O_SHAPE];
        if (strcmp(s, "random") == 0)
            gs.shape = GEN_RANDOM;
        else if (strcmp(s, "chain") == 0)
            gs.shape = GEN_CHAIN;
        else if (strcmp(s, "layered") == 0)
            gs.shape = GEN_LAYERED;
        else if (strcmp(s, "fft") == 0)
            gs.shape = GEN_FFT;
        else if (strcmp(s, "butterfly") == 0)
            gs.shape = GEN_BUTTERFLY;
        else {
            cli_usage(
                &spec,
                "--shape must be random, chain, layered, fft or butterfly, got \"%s\"",
                s);
            goto out;
        }
    }
    bool fft = gs.shape == GEN_FFT || gs.shape == GEN_BUTTERFLY;
    if (fft) {
        if (c->val[O_TASKS]) {
            cli_usage(&spec,
                      "--tasks does not apply to an %s graph: its size is --points",
                      gs.shape == GEN_FFT ? "fft" : "butterfly");
            goto out;
        }
        if (gs.points == 0)
            gs.points = 32;
        if (c->val[O_POINTS]) {
            if (!cli_int_value(&spec, "--points", c->val[O_POINTS], 2, 1 << 20, &v))
                goto out;
            if (v & (v - 1)) {
                cli_usage(&spec, "--points must be a power of two, got %s",
                          c->val[O_POINTS]);
                goto out;
            }
            gs.points = (int)v;
        }
        gs.tasks = gs.shape == GEN_FFT ? gen_fft_tasks(gs.points)
                                       : gen_butterfly_tasks(gs.points);
        if (gs.tasks > c->opt.limits.max_tasks) {
            cli_usage(&spec, "--points %d makes %d tasks, more than the limit %" PRId64,
                      gs.points, gs.tasks, c->opt.limits.max_tasks);
            goto out;
        }
    } else if (c->val[O_POINTS]) {
        cli_usage(&spec, "--points applies only to --shape fft and butterfly");
        goto out;
    }
    if (c->val[O_CYCLES] &&
        !range("--cycles", c->val[O_CYCLES], &gs.cycles_lo, &gs.cycles_hi))
        goto out;
    if (c->val[O_BYTES] && !range("--bytes", c->val[O_BYTES], &gs.bytes_lo, &gs.bytes_hi))
        goto out;
    if (c->val[O_DELAY]) {
        if (!cli_int_value(&spec, "--delay-edges", c->val[O_DELAY], 0, 100, &v))
            goto out;
        gs.delay_frac = (double)v / 100.0;
    }
    if (c->opt.iterations > 0)
        gs.iterations = c->opt.iterations;
    if (c->opt.platform)
        gs.platform = c->opt.platform;
    /* CLASS-SEED, or when --tasks, --shape or --points changed the graph's shape or size,
     * SHAPE SIZE-SEED: "rand2000-1", "chain300-2", "fft64-1" */
    char name[128];
    if (c->val[O_TASKS] || c->val[O_SHAPE] || c->val[O_POINTS]) {
        static const char *const shape_names[] = {[GEN_RANDOM] = "rand",
                                                  [GEN_CHAIN] = "chain",
                                                  [GEN_LAYERED] = "layered",
                                                  [GEN_FFT] = "fft",
                                                  [GEN_BUTTERFLY] = "butterfly"};
        snprintf(name, sizeof name, "%s%d-%" PRIu64, shape_names[gs.shape],
                 fft ? gs.points : gs.tasks, gs.seed);
    } else {
        snprintf(name, sizeof name, "%s-%" PRIu64, cls, gs.seed);
    }
    Graph *g = gen_graph(&gs, c->val[O_NAME] ? c->val[O_NAME] : name);
    if (!g) {
        cli_error("unknown platform preset \"%s\"", gs.platform);
        status = TGC_EXIT_INPUT;
        goto out;
    }
    if (c->opt.dsps > 0) {
        const char *why;
        int set = plat_set_dsps(g->arena, g->platform, c->opt.dsps, &why);
        if (set != 0) {
            cli_error("--dsps %d: %s", c->opt.dsps, why);
            ir_graph_free(g);
            status = set == -1 ? TGC_EXIT_USAGE : TGC_EXIT_INPUT;
            goto out;
        }
        g->platform_ref = "inline";
    }
    char *text = cg_graph_json(g);
    status = out_write_file(c->output ? c->output : "-", text, strlen(text));
    free(text);
    ir_graph_free(g);
out:
    return status;
}
