/*
 * tools/compile.h - the compilation that `tgc compile` and `tgc run` share
 * (cmd_compile.c): load, schedule, optimise, verify, evaluate, emit; the passes run
 * from the table passes/passes.def (pipeline.c).
 */
#ifndef TGC_COMPILE_H
#define TGC_COMPILE_H

#include "cli.h"

/* The options both commands accept first, in this order (Cli.val[0..6]); DIR is compile's
 * -o, run's --keep. */
#define TGC_COMPILE_OPTIONS                                                              \
    {"O", "METHOD", "communication optimisation: none, ma, cp, bfco (default) or es"},   \
        {"from", "FILE",                                                                 \
         "compile the tgc-schedule/1 FILE as written (no GRAPH, no -O)"},                \
        {"seed", "N", "seed of BFCO (default 1)"}, CLI_SEARCH_OBJECTIVE_OPTION,          \
        {"dump-after", "NAME",                                                           \
         "write the schedule after pass NAME as DIR.after-NAME.json"},                   \
        {"time-passes", NULL, "print the time of loading and of each pass to stderr"},   \
        {"force", NULL,                                                                  \
         "overwrite files in DIR that tgc did not write or that were changed"},          \
    {                                                                                    \
        "target", "T",                                                                   \
            "sim (default: the simulated platform), mpi or openmpi, mpich (real MPI, "   \
            "docs/cluster.md), threads (the host's threads, docs/threads.md)"            \
    }
#define TGC_COMPILE_NOPTIONS 8

typedef struct Compiled {
    Graph *g;
    Sched *s;
    Arena *arena; /* of r */
    EvalResult r; /* the prediction; iteration 0 recorded */
    OptMethod method;
    bool from_file;
    int target; /* CG_TARGET_ of --target */
    CgProject project;
} Compiled;

/* Parses the shared options of c (usage errors printed: returns 2), then compiles.
 * dump_dir is the directory beside which --dump-after writes its file (compile's -o DIR,
 * run's --keep DIR), or NULL when there is none (--dump-after is then a usage error).
 * Returns 0, 1 after reporting bad input, or 2. */
int tgc_compile(Cli *c, const CliSpec *spec, const char *dump_dir, Compiled *out);
void tgc_compiled_free(Compiled *x);

/* ---- tools/pipeline.c: runs the passes of passes/passes.def on a unit ----------------
 */

typedef struct PassRun {
    bool time_passes;      /* --time-passes: "tgc: time-passes: NAME  MS ms" on stderr */
    int dump_after;        /* table index of --dump-after's pass, or -1 */
    const char *dump_path; /* where that dump goes (tgc_dump_path) */
} PassRun;

int tgc_npasses(void);
const char *tgc_pass_name(int i);
int tgc_pass_find(const char *name); /* table index, or -1 */
/* The index of --dump-after's NAME in *index; a usage error printed (with a "did you
 * mean" over the table's names) and false when there is no such pass. */
bool tgc_dump_after_parse(const CliSpec *spec, const char *name, int *index);
/* "DIR.after-NAME.json" (DIR without its trailing slashes); malloc'd. */
char *tgc_dump_path(const char *dir, const char *name);
/* Every command reaches the passes through this: runs the table's passes first,
 * first + 1, ..., last on u in order (tgc schedule: up to schedule; tgc opt: schedule,
 * then optimize once per method; tgc compile and tgc run: all), stopping at the first
 * that fails.  After each one: with pr->time_passes its time on stderr; without NDEBUG,
 * ir_sched_verify on u->s, a broken schedule an internal error naming the pass; at
 * pr->dump_after, u->s with an eval_run of it as tgc-schedule/1 in pr->dump_path.
 * Returns 0, or -1 after reporting (a pass's error, a dump that cannot be written). */
int tgc_run_passes(Unit *u, int first, int last, const PassRun *pr, Diag *d);
/* The schedule a command works on: the tgc-schedule/1 file `from` when given, else the
 * graph file `graph` through the table's passes up to schedule.  *g is the graph (also
 * after a failure, for the caller to free); NULL after reporting in d. */
Sched *tgc_schedule_input(const char *from, const char *graph, const Options *opt,
                          Graph **g, Diag *d);

#endif
