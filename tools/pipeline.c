/*
 * tools/pipeline.c - runs the passes of passes/passes.def on a unit, in the table's
 * order: what `tgc compile` and `tgc run` do between loading and emitting
 * (cmd_compile.c).
 *
 * The table lives in passes/ (which depends on ir/ only); the runner lives here because
 * what it does around each pass belongs to the driver: --time-passes prints the pass's
 * wall time, --dump-after writes the schedule as a file, and builds without NDEBUG run
 * ir_sched_verify after every pass, a broken schedule being an internal error that names
 * the pass.  The verifier and the dump are not counted in the pass's time.
 */
#include <stdlib.h>
#include <string.h>

#include "compile.h"

typedef struct Pass {
    const char *name;
    int (*run)(Unit *, Diag *);
    const char *contract; /* what it requires / what it invalidates */
} Pass;

static const Pass passes[] = {
#define PASS(name, fn, contract) {#name, fn, contract},
#include "passes.def"
#undef PASS
};

enum { NPASSES = (int)(sizeof passes / sizeof passes[0]) };

int
tgc_npasses(void)
{
    return NPASSES;
}

const char *
tgc_pass_name(int i)
{
    return i >= 0 && i < NPASSES ? passes[i].name : NULL;
}

int
tgc_pass_find(const char *name)
{
    for (int i = 0; i < NPASSES; i++)
        if (strcmp(passes[i].name, name) == 0)
            return i;
    return -1;
}

bool
tgc_dump_after_parse(const CliSpec *spec, const char *name, int *index)
{
    *index = tgc_pass_find(name);
    if (*index >= 0)
        return true;
    const char *names[NPASSES];
    for (int i = 0; i < NPASSES; i++)
        names[i] = passes[i].name;
    const char *hint = diag_suggest(name, names, NPASSES);
    if (hint)
        cli_usage(spec, "--dump-after: unknown pass \"%s\" (did you mean \"%s\"?)", name,
                  hint);
    else {
        char list[256] = "";
        for (int i = 0; i < NPASSES; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     i ? ", " : "", passes[i].name);
        cli_usage(spec, "--dump-after: unknown pass \"%s\" (passes: %s)", name, list);
    }
    return false;
}

char *
tgc_dump_path(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    size_t len = n + strlen(name) + sizeof ".after-.json";
    char *p = malloc(len);
    if (!p)
        ice("out of memory");
    snprintf(p, len, "%.*s.after-%s.json", (int)n, dir, name);
    return p;
}

#ifndef NDEBUG
/* The debug builds' check after every pass: a pass that breaks the graph or the schedule
 * is a bug.  The passes before schedule leave a single-rate, indexed graph. */
static void
verify_after(const Unit *u, const Pass *p)
{
    if (!u->s && p - passes < tgc_pass_find("schedule")) {
        if (u->g->multirate || !u->g->topo)
            ice("pass \"%s\" left a graph that is not single-rate and indexed", p->name);
        return;
    }
    if (!u->s)
        ice("pass \"%s\" left no schedule", p->name);
    Diag *d = diag_new();
    if (ir_sched_verify(u->s, d) != 0) {
        const char *t = diag_text(d);
        size_t n = strlen(t);
        while (n > 0 && t[n - 1] == '\n')
            n--;
        ice("pass \"%s\" left a broken schedule: %.*s", p->name, (int)n, t);
    }
    diag_free(d);
}
#endif

/* The schedule after a pass, evaluated (a deadlock leaves the times out), as a file;
 * after a pass before schedule, the graph (tgc-graph/1). */
static int
dump(const Unit *u, const Pass *p, const char *path)
{
    if (!u->s && p - passes < tgc_pass_find("schedule")) {
        char *text = cg_graph_json_file(u->g, path);
        int rc = out_write_file(path, text, strlen(text));
        free(text);
        return rc == TGC_EXIT_OK ? 0 : -1;
    }
    if (!u->s)
        ice("pass \"%s\" left no schedule", p->name);
    Arena *a = arena_new();
    EvalResult r;
    eval_run(u->s, &(EvalOpts){1, 0}, &r, a);
    char *text = cg_sched_json_file(u->s, &r, path);
    int rc = out_write_file(path, text, strlen(text));
    free(text);
    arena_free(a);
    return rc == TGC_EXIT_OK ? 0 : -1;
}

int
tgc_run_passes(Unit *u, int first, int last, const PassRun *pr, Diag *d)
{
    for (int i = first; i <= last && i < NPASSES; i++) {
        const Pass *p = &passes[i];
        double t0 = 1e3 * ir_wall_seconds();
        int rc = p->run(u, d);
        double ms = 1e3 * ir_wall_seconds() - t0;
        if (pr && pr->time_passes)
            fprintf(stderr, "tgc: time-passes: %-10s %10.3f ms\n", p->name, ms);
        if (rc != 0)
            return -1;
#ifndef NDEBUG
        verify_after(u, p);
#endif
        if (pr && pr->dump_after == i && dump(u, p, pr->dump_path) != 0)
            return -1;
    }
    return 0;
}

Sched *
tgc_schedule_input(const char *from, const char *graph, const Options *opt, Graph **g,
                   Diag *d)
{
    if (from)
        return fe_load_schedule(from, opt, g, d);
    if (!(*g = fe_load_graph(graph, opt, d)))
        return NULL;
    Unit u = {.g = *g, .p = (*g)->platform, .opt = opt};
    int sched = tgc_pass_find("schedule");
    if (tgc_run_passes(&u, 0, sched, NULL, d) == 0)
        return u.s;
    ir_sched_free(u.s);
    return NULL;
}
