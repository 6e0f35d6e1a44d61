/*
 * passes/schedule/private.h - what the files of passes/schedule/ share (the scheduler's
 * API is in ir/ir.h, section passes/schedule/).
 */
#ifndef TGC_SCHEDULE_PRIVATE_H
#define TGC_SCHEDULE_PRIVATE_H

#include "ir.h"

/* Sort key of the global order: start, finish, then topological position. */
typedef struct Key {
    int64_t start, finish;
    int topo, task;
} Key;

/* list.c */
int sched_key_cmp(const void *a, const void *b);
/* The global order of a schedule whose per-DSP COMPUTE orders are consistent with the
 * zero-delay precedences: a merge of the DSP sequences, lowest DSP first among the ready
 * heads, into seq[0 .. ntasks).  Returns -1 if the orders contradict the precedences. */
int sched_merge_order(const Sched *s, int *seq);

#endif /* TGC_SCHEDULE_PRIVATE_H */
