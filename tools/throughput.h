/*
 * tools/throughput.h - the period, its bound and the throughput constraint as the
 * commands report them (tools/throughput.c, docs/throughput.md).
 */
#ifndef TGC_THROUGHPUT_H
#define TGC_THROUGHPUT_H

#include <jansson.h>

#include "ir.h"

typedef struct TgcThroughput {
    EvalPeriod period;  /* the schedule's steady state (eval_period) */
    PeriodBound bound;  /* the graph's period bound */
    int bound_rc;       /* period_bound's status: 0, or no bound */
    int64_t constraint; /* the graph's period_constraint, 0 = none */
} TgcThroughput;

/* The bound and the constraint of s's graph beside its period (NULL: none). */
void tgc_throughput(const Sched *s, const EvalPeriod *period, TgcThroughput *t, Arena *a);
/* The period is known and at most the constraint. */
bool tgc_constraint_met(const TgcThroughput *t);
/* period / bound, 0 when either is unknown or the bound is 0. */
double tgc_period_over_bound(const TgcThroughput *t);
/* The summary's lines "period", "period bound" and "period constraint" (the bound and
 * the constraint alone, judged for `method` when not NULL). */
void tgc_throughput_print(const TgcThroughput *t, const Graph *g);
void tgc_bound_print(const TgcThroughput *t, const Graph *g, const char *method);
/* The --json fields of the period (period, period_exact, period_from, period_reached,
 * period_ratio, period_constraint_met), of the bound and the constraint (period_bound,
 * period_bound_exact, period_bound_cycle, period_constraint), and both (docs/cli.md),
 * into o. */
void tgc_period_json(json_t *o, const TgcThroughput *t);
void tgc_bound_json(json_t *o, const TgcThroughput *t, const Graph *g);
void tgc_throughput_json(json_t *o, const TgcThroughput *t, const Graph *g);
/* The period for a table cell: "15640", "10.5", or "-" when there is none. */
void tgc_period_cell(const TgcThroughput *t, char *buf, size_t n);

#endif /* TGC_THROUGHPUT_H */
