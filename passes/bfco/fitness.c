/*
 * passes/bfco/fitness.c - the fitness of a merge (docs/bfco.md, section 4): repair,
 * pipelines, the dynamic check, the joint pipeline bits; and the cache tables keyed by
 * two 64-bit hashes of the repaired merge (the swarm's fitness cache, the descent's
 * surrogates).
 */
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* With --joint, bit nbits + u is the pipeline bit of unit u; a group takes the bit of its
 * first member. */
static int64_t
joint_pipes(Worker *w, const uint8_t *x, int64_t Ls)
{
    const Space *sp = w->sp;
    bool *pj = w->bestpipe; /* free once bfco_pipelines has returned */
    bool *ps = w->pipe;
    for (int k = 0; k < w->G; k++)
        ps[k] = w->ws->msgs[k].pipelined;
    for (int k = 0; k < w->G; k++)
        pj[k] = x[sp->nbits + gfirst(w, k)] && bfco_pipeable(w, k);
    if (!bfco_mem_ok(w, pj) || memcmp(pj, ps, (size_t)w->G * sizeof(bool)) == 0)
        return Ls; /* the flags of the schedule are still those of ps */
    bfco_set_pipes(w, pj);
    int64_t Lj = bfco_eval_below(w, Ls);
    if (Lj < Ls)
        return Lj;
    for (int k = 0; k < w->G; k++)
        w->ws->msgs[k].pipelined = ps[k];
    return Ls;
}

/* The evaluated length of the schedule just built, merges released while the evaluator
 * reports a deadlock (the safety net; *dyn tells whether it fired). */
static int64_t
repair_dynamic(Worker *w, bool *dyn)
{
    int nrel = 0;
    int64_t L0 = bfco_eval(w);
    while (L0 < 0) {
        if (bfco_release_on_deadlock(w) < 0 || bfco_repair_static(w, true, &nrel) < 0)
            return -1;
        w->ndead++;
        *dyn = true;
        L0 = bfco_eval(w);
    }
    return L0;
}

/* ---- the fitness cache: keyed by two 64-bit hashes of the repaired merge ---- */

static uint64_t
mix64(uint64_t h, uint64_t x)
{
    h ^= x + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return h ^ (h >> 31);
}

/* The repaired merge as two hashes: the group of every unit (numbered by first member:
 * a canonical form of the partition) and, with the joint bits, the bit each group uses.
 */
void
bfco_key_of(const Worker *w, const uint8_t *x, bool joint, Key *k)
{
    const Space *sp = w->sp;
    uint64_t a = UINT64_C(0x243F6A8885A308D3), b = UINT64_C(0x13198A2E03707344);
    for (int u = 0; u < sp->M; u++) {
        a = mix64(a, (uint64_t)w->gidx[u]);
        b = mix64(b, (uint64_t)w->gidx[u] * UINT64_C(0xD6E8FEB86659FD93) + 1);
    }
    if (joint)
        for (int g = 0; g < w->G; g++) {
            uint64_t bit = x[sp->nbits + gfirst(w, g)];
            a = mix64(a, bit + 7);
            b = mix64(b, bit + 11);
        }
    k->h1 = a | 1;
    k->h2 = b;
}

/* The partition of the worker's labels (from bfco_groups_from_bits: each unit labelled
 * by its group's least member, a canonical form) as two hashes. */
void
bfco_labels_key(const Worker *w, Key *k)
{
    uint64_t a = UINT64_C(0x452821E638D01377), b = UINT64_C(0xBE5466CF34E90C6C);
    for (int u = 0; u < w->sp->M; u++) {
        a = mix64(a, (uint64_t)w->label[u]);
        b = mix64(b, (uint64_t)w->label[u] * UINT64_C(0xD6E8FEB86659FD93) + 1);
    }
    k->h1 = a | 1;
    k->h2 = b;
}

static int
cache_slot(const Cache *c, uint64_t h1, uint64_t h2)
{
    int i = (int)(h1 % (uint64_t)c->cap);
    while (c->h1[i] && (c->h1[i] != h1 || c->h2[i] != h2))
        i = (i + 1) % c->cap;
    return i;
}

bool
bfco_cache_get(const Cache *c, const Key *k, int64_t *f)
{
    if (!c || !c->cap)
        return false;
    int i = cache_slot(c, k->h1, k->h2);
    if (!c->h1[i])
        return false;
    *f = c->f[i];
    return true;
}

void
bfco_cache_put(Cache *c, const Key *k, int64_t f)
{
    if (2 * (c->n + 1) > c->cap) {
        Cache o = *c;
        c->cap = o.cap ? 2 * o.cap : 1024;
        c->n = 0;
        c->h1 = ir_xcalloc((size_t)c->cap, sizeof *c->h1);
        c->h2 = ir_xcalloc((size_t)c->cap, sizeof *c->h2);
        c->f = ir_xcalloc((size_t)c->cap, sizeof *c->f);
        for (int i = 0; i < o.cap; i++)
            if (o.h1[i]) {
                int j = cache_slot(c, o.h1[i], o.h2[i]);
                c->h1[j] = o.h1[i];
                c->h2[j] = o.h2[i];
                c->f[j] = o.f[i];
                c->n++;
            }
        free(o.h1);
        free(o.h2);
        free(o.f);
    }
    int j = cache_slot(c, k->h1, k->h2);
    if (c->h1[j])
        return;
    c->h1[j] = k->h1;
    c->h2[j] = k->h2;
    c->f[j] = f;
    c->n++;
}

void
bfco_cache_free(Cache *c)
{
    free(c->h1);
    free(c->h2);
    free(c->f);
}

/* Fitness of the merge in the worker's labels (the repair's groups written back into x
 * when x is given): repair, pipelines; the length.  A merge found in c costs no
 * evaluation.  When the bound of the merge (eval_new_bound: below its length with any
 * pipelines, so below its fitness) is not below thr, its fitness cannot be below thr:
 * it is not evaluated and the result is INT64_MAX (key->pruned). */
int64_t
bfco_fitness_groups(Worker *w, uint8_t *x, const BfcoParams *bp, const Cache *c, Key *key,
                    int64_t thr)
{
    const Space *sp = w->sp;
    int nrel = 0;
    memset(key, 0, sizeof *key);
    bfco_regroup(w);
    if ((x ? bfco_repair_point(w, x, &nrel) : bfco_repair_static(w, true, &nrel)) < 0)
        return INT64_MAX;
    bfco_key_of(w, x, bp->joint && x, key);
    int64_t f;
    if (bfco_cache_get(c, key, &f)) {
        key->hit = true;
        return f;
    }
    if (thr != INT64_MAX) {
        /* cut at thr: the repaired schedule never deadlocks (docs/bfco.md, section 2),
         * and the bound's relaxed rules add no dependence */
        w->fevals++;
        int64_t b = eval_length_below(w->evb, w->ws, thr);
        if (b == EVAL_NOT_BELOW) {
            key->pruned = true;
            return INT64_MAX;
        }
    }
    /* Without contention the length is a lower bound (docs/bfco.md); when it finds no
     * deadlock, the contended L0 is evaluated only if the pipelines need it. */
    int64_t lb = bfco_eval_free(w), L0 = BFCO_L0_LAZY;
    if (lb < 0) {
        L0 = repair_dynamic(w, &key->dyn);
        if (L0 < 0)
            return INT64_MAX;
        if (key->dyn && x)
            bfco_bits_from_groups(w, x);
    }
    int64_t L = bfco_pipelines(w, bp->epsilon, L0, lb);
    if (bp->joint && x) {
        L = joint_pipes(w, x, L);
        for (int u = 0; u < sp->M; u++) /* Lamarckian: the bits say what was used */
            x[sp->nbits + u] = w->ws->msgs[w->gidx[u]].pipelined;
    }
    return L;
}

int64_t
bfco_fitness(Worker *w, uint8_t *x, const BfcoParams *bp, const Cache *c, Key *key,
             int64_t thr)
{
    bfco_groups_from_bits(w, x);
    return bfco_fitness_groups(w, x, bp, c, key, thr);
}
