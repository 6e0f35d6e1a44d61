/*
 * tools/compile.h - the compilation that `tgc compile` and `tgc run` share
 * (cmd_compile.c): load, schedule, optimise, verify, evaluate, emit.
 */
#ifndef TGC_COMPILE_H
#define TGC_COMPILE_H

#include "cli.h"

/* The options both commands accept first, in this order (Cli.val[0..3]). */
#define TGC_COMPILE_OPTIONS                                                              \
    {"O", "METHOD", "communication optimisation: none, ma, cp, bfco (default) or es"},   \
        {"from", "FILE",                                                                 \
         "compile the tgc-schedule/1 FILE as written (no GRAPH, no -O)"},                \
        {"seed", "N", "seed of BFCO (default 1)"}, CLI_SEARCH_OBJECTIVE_OPTION
#define TGC_COMPILE_NOPTIONS 4

typedef struct Compiled {
    Graph *g;
    Sched *s;
    Arena *arena; /* of r */
    EvalResult r; /* the prediction; iteration 0 recorded */
    OptMethod method;
    bool from_file;
    CgProject project;
} Compiled;

/* Parses the shared options of c (usage errors printed: returns 2), then compiles.
 * Returns 0, 1 after reporting bad input, or 2. */
int tgc_compile(Cli *c, const CliSpec *spec, Compiled *out);
void tgc_compiled_free(Compiled *x);

#endif
