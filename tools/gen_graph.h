/*
 * tools/gen_graph.h - the seeded random task-graph generator (tools/gen_graph.c), shared
 * by `tgc gen`, the BFCO benchmark and the BFCO property test.
 */
#ifndef TGC_GEN_GRAPH_H
#define TGC_GEN_GRAPH_H

#include "ir.h"

typedef enum { GEN_RANDOM, GEN_CHAIN, GEN_LAYERED, GEN_FFT, GEN_BUTTERFLY } GenShape;

typedef struct GenSpec {
    int tasks;  /* fft: 2 * points - 1 + points * log2(points), butterfly: 2 + points / 2
                 * log2(points), from points */
    int points; /* fft, butterfly: points of the transform, a power of two >= 2 */
    GenShape shape;
    int max_preds; /* random: each task draws 1..max_preds earlier producers */
    double skip;   /* chain: probability of an edge i -> i+k, k = 2..4 */
    int width;     /* layered: tasks per layer */
    int64_t cycles_lo, cycles_hi; /* task cost, uniform */
    int64_t bytes_lo, bytes_hi;   /* edge size, uniform */
    double delay_frac;            /* back edges per task, with a delay of 1..max_delay */
    int max_delay;                /* 0 = 1 */
    int64_t iterations;
    const char *platform; /* preset name */
    uint64_t seed;
    int pin_block; /* > 0: task i pinned to DSP (i / pin_block) % ndsps (stages) */
} GenSpec;

/* The named classes of the BFCO benchmark: "hi20", "lo20", "rand50", "chain100" ([BFCO]
 * (docs/references.md) Table 1) and "fft32" (the task graph of a 32-point FFT).  Returns
 * 0, or -1 if the name is unknown. */
int gen_class(const char *name, GenSpec *gs);
extern const char *const gen_class_names[]; /* NULL-terminated */
/* The tasks of an FFT task graph of n points (n a power of two >= 2). */
int gen_fft_tasks(int points);
/* The tasks of a butterfly graph of n points (n a power of two >= 2). */
int gen_butterfly_tasks(int points);
/* A graph (indexed, platform resolved) named after the class and seed; NULL if the
 * platform preset is unknown. */
Graph *gen_graph(const GenSpec *gs, const char *name);

#endif /* TGC_GEN_GRAPH_H */
