/*
 * tools/throughput.c - the period of a schedule, its bound and the graph's throughput
 * constraint as the commands print them (docs/throughput.md): `tgc schedule`, `tgc opt`,
 * `tgc run` and `tgc report` share these lines and --json fields.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "throughput.h"

void
tgc_throughput(const Sched *s, const EvalPeriod *period, TgcThroughput *t, Arena *a)
{
    memset(t, 0, sizeof *t);
    if (period)
        t->period = *period;
    t->bound_rc = period_bound(s->g, s->p, &t->bound, a);
    t->constraint = s->g->period_constraint;
}

static json_t *
ratio_number(Ratio r)
{
    if (r.den == 1)
        return json_integer(r.num);
    return json_real(period_ratio_value(r));
}

static json_t *
ratio_exact(Ratio r)
{
    json_t *o = json_object();
    json_object_set_new(o, "cycles", json_integer(r.num));
    json_object_set_new(o, "iterations", json_integer(r.den));
    return o;
}

/* "12900" or "21/2 = 10.5" */
static void
print_ratio(Ratio r)
{
    if (r.den == 1)
        printf("%" PRId64, r.num);
    else
        printf("%.1f (%" PRId64 "/%" PRId64 ")", period_ratio_value(r), r.num, r.den);
}

bool
tgc_constraint_met(const TgcThroughput *t)
{
    return t->period.found &&
           period_ratio_cmp(t->period.period, period_ratio(t->constraint, 1)) <= 0;
}

double
tgc_period_over_bound(const TgcThroughput *t)
{
    if (!t->period.found || t->bound_rc != 0 || t->bound.bound.num == 0)
        return 0;
    return period_ratio_value(t->period.period) / period_ratio_value(t->bound.bound);
}

void
tgc_bound_print(const TgcThroughput *t, const Graph *g, const char *method)
{
    const char *of = method ? " of " : "", *m = method ? method : "";
    if (t->bound_rc == 0) {
        printf("  period bound     ");
        print_ratio(t->bound.bound);
        printf(" cycles per iteration");
        if (tgc_period_over_bound(t) > 0)
            printf(", period%s%s / bound %.3f", of, m, tgc_period_over_bound(t));
        printf(":");
        for (int i = 0; i < t->bound.ncycle && i < 8; i++)
            printf("%s \"%s\"", i ? " ->" : "",
                   ir_escaped(g->arena, g->tasks[t->bound.cycle[i]].id));
        if (t->bound.ncycle > 8)
            printf(" -> ... (%d tasks)", t->bound.ncycle);
        if (t->bound.ncycle > 1)
            printf(" -> \"%s\"", ir_escaped(g->arena, g->tasks[t->bound.cycle[0]].id));
        printf(", %" PRId64 " cycles over %" PRId64 " %s\n", t->bound.cycle_cycles,
               t->bound.cycle_tokens,
               t->bound.ncycle == 1         ? "iteration (the task's own)"
               : t->bound.cycle_tokens == 1 ? "delay"
                                            : "delays");
    }
    if (t->constraint > 0) {
        printf("  period constraint %" PRId64 " cycles per iteration: ", t->constraint);
        if (!t->period.found)
            printf("unknown (no period%s%s)\n", of, m);
        else if (tgc_constraint_met(t))
            printf("met%s%s\n", method ? " by " : "", m);
        else
            printf("missed%s%s, its period is %.1f%% above it\n", method ? " by " : "", m,
                   100.0 * (period_ratio_value(t->period.period) / (double)t->constraint -
                            1.0));
    }
}

void
tgc_throughput_print(const TgcThroughput *t, const Graph *g)
{
    if (t->period.found) {
        printf("  period           ");
        print_ratio(t->period.period);
        printf(" cycles per iteration (the steady state by iteration %" PRId64 "%s)\n",
               t->period.from, t->period.reached ? "" : ", after the graph's iterations");
    } else {
        printf("  period           none: the run does not repeat within %" PRId64
               " iterations (parts of the schedule run at different rates)\n",
               t->period.run);
    }
    tgc_bound_print(t, g, NULL);
}

void
tgc_period_json(json_t *o, const TgcThroughput *t)
{
    bool p = t->period.found;
    json_object_set_new(o, "period", p ? ratio_number(t->period.period) : json_null());
    json_object_set_new(o, "period_exact",
                        p ? ratio_exact(t->period.period) : json_null());
    json_object_set_new(o, "period_from", p ? json_integer(t->period.from) : json_null());
    json_object_set_new(o, "period_reached", json_boolean(p && t->period.reached));
    double r = tgc_period_over_bound(t);
    json_object_set_new(o, "period_ratio", r > 0 ? json_real(r) : json_null());
    json_object_set_new(o, "period_constraint_met",
                        t->constraint > 0 && p ? json_boolean(tgc_constraint_met(t))
                                               : json_null());
}

void
tgc_bound_json(json_t *o, const TgcThroughput *t, const Graph *g)
{
    bool b = t->bound_rc == 0;
    json_object_set_new(o, "period_bound",
                        b ? ratio_number(t->bound.bound) : json_null());
    json_object_set_new(o, "period_bound_exact",
                        b ? ratio_exact(t->bound.bound) : json_null());
    json_t *cyc = json_array();
    for (int i = 0; b && i < t->bound.ncycle; i++)
        json_array_append_new(cyc, json_string(g->tasks[t->bound.cycle[i]].id));
    json_object_set_new(o, "period_bound_cycle", cyc);
    json_object_set_new(o, "period_constraint",
                        t->constraint > 0 ? json_integer(t->constraint) : json_null());
}

void
tgc_throughput_json(json_t *o, const TgcThroughput *t, const Graph *g)
{
    tgc_period_json(o, t);
    tgc_bound_json(o, t, g);
}

void
tgc_period_cell(const TgcThroughput *t, char *buf, size_t n)
{
    if (!t->period.found)
        snprintf(buf, n, "-");
    else if (t->period.period.den == 1)
        snprintf(buf, n, "%" PRId64, t->period.period.num);
    else
        snprintf(buf, n, "%.1f", period_ratio_value(t->period.period));
}
