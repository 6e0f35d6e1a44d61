/*
 * passes/bfco/swarm.c - BFCO ([BFCO] (docs/references.md), docs/bfco.md): a binary
 * particle swarm search over message aggregation, with deadlock repair and greedy
 * communication pipelining.
 *
 * Requires: a schedule with one message per cross-DSP edge as comm_insert leaves it (or
 * any valid schedule: its messages are the units that merging combines).  Produces a new
 * schedule; the base is not changed.
 *
 * Encoding: the M sends give an M x M upper triangle; an entry is DIFFP when the two
 * sends differ in source DSP, destination DSP or delay, PATH when a dependence path joins
 * them, FAR when they are more than the window apart in their class's send order,
 * otherwise a decision bit (MA = 1, NOMA = 0).  The bits grow with M times the window,
 * not with M squared.  Merging is transitive: the bits set define groups by union.
 * Every particle is repaired in the paper's order, each step in one linear pass: path
 * conflicts inside a group (Algorithm 1), cycles in the merged dependence graph (a Kahn
 * traversal that splits the group it is stuck on), order adjustment (a traversal of the
 * desired sequences), then the evaluator as dynamic check.  The repaired groups are
 * written back into the particle.
 *
 * Invariant of a built schedule: its per-DSP order is a topological order of program
 * order plus the send -> receive edges of zero-delay messages, so no cycle of zero
 * iteration shift exists and the evaluator finds no deadlock (docs/design.md section 3).
 *
 * The files of the folder: space.c (the space), worker.c (merge state, the built
 * schedule and its evaluation), repair.c (section 2 of docs/bfco.md), pipelines.c
 * (section 3, the polish), fitness.c (the fitness and its cache), descent.c (the
 * descent and its rules), this one (the swarm, bfco_search); private.h is what they
 * share, bfco_int.h what the optimize pass (passes/baselines.c), the scheduler and the
 * tests use.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* The default budgets of the descent (descent_budget) and of the polish count at least
 * this many generations: the budgets a swarm of a stall of 10 had when gbest moved only
 * in its first two, which a shorter stall on large schedules keeps. */
#define BUDGET_GENERATIONS 12

/* ------------------------------------------------------------------------------------------
 * BPSO
 * ------------------------------------------------------------------------------------------
 */

void
bfco_default_params(BfcoParams *bp)
{
    memset(bp, 0, sizeof *bp);
    bp->threads = 1;
    bp->seed = 1;
    bp->stall = -1;    /* 20 on small schedules, else 3 (bfco_search) */
    bp->restarts = -1; /* 3 on small schedules, else 0 (bfco_search) */
    bp->window = 4;
    bp->w_start = 0.9;
    bp->w_end = 0.4;
    bp->c1 = 2.0;
    bp->c2 = 2.0;
    bp->vmax = 4.0;
    bp->mutation = 1.0;
    bp->epsilon = 0.05;
    bp->es_limit = INT64_C(1) << 20;
    bp->polish = true; /* the paper's BFCO is polish = false (docs/bfco.md) */
    bp->polish_budget = -1;
    bp->descent_budget = -1;
    bp->kicks = -1; /* none (bfco_search) */
    bp->kick_moves = 3;
    bp->fitness_passes = -1; /* 4 on small schedules, else 0 (bfco_search) */
    bp->joint_units = 64;
}

typedef struct Job {
    Worker *w;
    uint8_t **x;
    int64_t *f;
    const int64_t *thr; /* [P] a fitness not below it does not matter, or NULL */
    Key *key;
    const int *todo;
    int ntodo, tid, nthreads;
    const BfcoParams *bp;
    const Cache *cache;
} Job;

static void *
job_run(void *arg)
{
    Job *j = arg;
    for (int i = j->tid; i < j->ntodo; i += j->nthreads) {
        int k = j->todo[i];
        j->f[k] = bfco_fitness(j->w, j->x[k], j->bp, j->cache, &j->key[k],
                               j->thr ? j->thr[k] : INT64_MAX);
    }
    return NULL;
}

/* Evaluates particles todo[0 .. n) on the threads; the cache is only read meanwhile and
 * then filled in particle order, so what is evaluated does not depend on the threads. */
static void
evaluate_swarm(Worker **ws, int nthreads, uint8_t **x, int64_t *f, const int64_t *thr,
               Key *key, const int *todo, int n, Cache *c, const BfcoParams *bp,
               int64_t *hits)
{
    int T = nthreads < n ? nthreads : n;
    if (T < 1)
        T = 1;
    Job jobs[64];
    pthread_t th[64];
    for (int t = 0; t < T; t++)
        jobs[t] = (Job){ws[t], x, f, thr, key, todo, n, t, T, bp, c};
    for (int t = 1; t < T; t++)
        if (pthread_create(&th[t], NULL, job_run, &jobs[t]) != 0)
            ice("cannot create a thread");
    job_run(&jobs[0]);
    for (int t = 1; t < T; t++)
        pthread_join(th[t], NULL);
    for (int i = 0; i < n; i++) {
        const Key *k = &key[todo[i]];
        if (k->hit)
            (*hits)++;
        else if (!k->dyn && f[todo[i]] != INT64_MAX)
            bfco_cache_put(c, k, f[todo[i]]);
    }
}

/* Particle k's position at a (re)start: 0 no merge (none, cp), 1 every merge of the
 * window, the others at densities spread from sparse to dense, velocities to match;
 * joint pipeline bits at even odds. */
static void
seed_particle(const Space *sp, int k, int P, int B, double vmax, uint64_t *rng,
              uint8_t *x, float *v)
{
    double dens = k == 0 ? 0.0 : k == 1 ? 1.0 : pow((double)(k - 1) / (P - 1), 2.0);
    double v0 = dens <= 0 ? -vmax : dens >= 1 ? vmax : log(dens / (1 - dens));
    if (v0 > vmax)
        v0 = vmax;
    if (v0 < -vmax)
        v0 = -vmax;
    for (int b = 0; b < sp->nbits; b++) {
        x[b] = k == 1 || (k > 1 && urand(rng) < dens);
        v[b] = (float)v0;
    }
    for (int b = sp->nbits; b < B; b++) {
        x[b] = urand(rng) < 0.5;
        v[b] = 0;
    }
}

/* The search's size after `gen` generations of P particles, which the default budgets
 * of the descent and the polish scale with: the particles evaluated, counting at least
 * BUDGET_GENERATIONS generations. */
int64_t
bfco_swarm_size(int P, int gen)
{
    return (int64_t)P * (gen > BUDGET_GENERATIONS ? gen : BUDGET_GENERATIONS);
}

int
bfco_search(const Space *sp, const BfcoParams *bp0, Sched **out, OptStats *st)
{
    double t0 = ir_wall_seconds();
    /* The joint pipeline bits by default on small schedules: where the paper's greedy
     * pipeline choice misjudges a merge, only they find it (docs/bfco.md, section 8). */
    BfcoParams q = *bp0;
    if (q.joint_units > 0 && sp->M <= q.joint_units)
        q.joint = true;
    /* Restarts by default on small schedules (at most 64 messages, the size up to which
     * the joint bits are on by default): there a stalled swarm costs little to restart,
     * and a single start misses the best merge on some lo20 and rand50 graphs
     * (docs/bfco.md). */
    if (q.restarts < 0)
        q.restarts = sp->M <= 64 ? 3 : 0;
    /* Without restarts, a stall ends the swarm and the descent takes over: the swarm's
     * later generations on larger schedules seldom better gbest, the descent does, and
     * its budget and the polish's do not shrink with a shorter swarm
     * (BUDGET_GENERATIONS).  On the speed graphs of seeds 1-10 a stall of 3 instead of 10
     * finds the same at 100 tasks and more at 1000 than the swarm's later generations
     * ever did (docs/bfco.md, "The stall on large schedules"). */
    if (q.stall < 0)
        q.stall = sp->M <= 64 ? 20 : 3;
    /* No kicks by default: with the relocation moves they keep nothing the default's
     * lengths show (docs/bfco.md, "The descent's rules": the row "kicks"). */
    if (q.kicks < 0)
        q.kicks = 0;
    /* The moves on the fitness, on small schedules too: a move costs a bound and, when
     * the bound does not prune it, a fitness; on rand50 about 7 % more evaluations. */
    if (q.fitness_passes < 0)
        q.fitness_passes = sp->M <= 64 ? 4 : 0;
    const BfcoParams *bp = &q;
    int B = sp->nbits + (bp->joint ? sp->M : 0);
    int P = bp->particles > 0 ? bp->particles : (B < 24 ? 24 : B > 32 ? 32 : B);
    int Gn = bp->generations > 0 ? bp->generations : 100;
    int nthreads = bp->threads < 1 ? 1 : bp->threads > 64 ? 64 : bp->threads;
    if (B == 0) {
        P = 1;
        Gn = 1;
    } else if (P < 2) {
        P = 2; /* particles 0 and 1 are none/cp and ma */
    }
    if (nthreads > P)
        nthreads = P;
    Worker *ws[64];
    for (int t = 0; t < nthreads; t++) {
        ws[t] = bfco_worker_new(sp);
        ws[t]->tables = !bp->no_tables;
        ws[t]->deadline = bp->time_limit > 0 ? t0 + bp->time_limit : 0;
    }
    size_t nb = (size_t)B + 1;
    uint8_t **x = ir_xcalloc((size_t)P, sizeof *x),
            **pb = ir_xcalloc((size_t)P, sizeof *pb);
    float **v = ir_xcalloc((size_t)P, sizeof *v);
    int64_t *f = ir_xcalloc((size_t)P, sizeof *f),
            *pbf = ir_xcalloc((size_t)P, sizeof *pbf);
    Key *key = ir_xcalloc((size_t)P, sizeof *key);
    uint64_t *rng = ir_xcalloc((size_t)P, sizeof *rng);
    int *todo = ir_xcalloc((size_t)P, sizeof *todo);
    uint8_t *gb = ir_xcalloc(nb, 1);
    int64_t gbf = INT64_MAX;
    double vmax = bp->vmax > 0 ? bp->vmax : 4.0;
    double pm = B > 0 ? bp->mutation / B : 0;
    for (int k = 0; k < P; k++) {
        x[k] = ir_xcalloc(nb, 1);
        pb[k] = ir_xcalloc(nb, 1);
        v[k] = ir_xcalloc(nb, sizeof(float));
        uint64_t s = bp->seed ^ (UINT64_C(0xD1B54A32D192ED03) * (uint64_t)(k + 1));
        rng[k] = ir_splitmix64(&s);
        seed_particle(sp, k, P, B, vmax, &rng[k], x[k], v[k]);
        todo[k] = k;
    }
    Cache cache = {0};
    int64_t hits = 0;
    int gen = 0, stall = 0, restarts = 0;
    /* The descent (docs/bfco.md, "Descent") at the end, from no merge and from gbest;
     * its moves in all at most the budget (default: 4 per particle evaluated), its
     * passes at most the reach (descent_reach).  A descent at every stall too changed
     * no length (docs/bfco.md, "The descent's rules": the row "stalls"). */
    int64_t dtried = 0;
    uint64_t drng = bp->seed ^ UINT64_C(0x6A09E667F3BCC909); /* the kicks' stream */
    bool fresh = true; /* the positions are new: no velocity update before evaluating */
    for (gen = 0; gen < Gn; gen++) {
        if (!fresh) {
            double wgt = Gn > 1 ? bp->w_start - (bp->w_start - bp->w_end) * gen / (Gn - 1)
                                : bp->w_end;
            for (int k = 0; k < P; k++) {
                uint64_t *r = &rng[k];
                for (int b = 0; b < B; b++) {
                    double vv = wgt * v[k][b] + bp->c1 * urand(r) * (pb[k][b] - x[k][b]) +
                                bp->c2 * urand(r) * (gb[b] - x[k][b]);
                    if (vv > vmax)
                        vv = vmax;
                    if (vv < -vmax)
                        vv = -vmax;
                    v[k][b] = (float)vv;
                    double u = urand(r);
                    if (bp->vshaped) {
                        if (u < fabs(tanh(vv)))
                            x[k][b] ^= 1;
                    } else {
                        x[k][b] = u < 1.0 / (1.0 + exp(-vv));
                    }
                    if (pm > 0 && urand(r) < pm)
                        x[k][b] ^= 1;
                }
            }
        }
        /* a particle matters only if it betters its pbest (strictly): pbest is the
         * threshold of its bound, except on fresh positions */
        evaluate_swarm(ws, nthreads, x, f, fresh ? NULL : pbf, key, todo, P, &cache, bp,
                       &hits);
        bool improved = false;
        for (int k = 0; k < P; k++) {
            if (fresh || f[k] < pbf[k]) {
                pbf[k] = f[k];
                memcpy(pb[k], x[k], (size_t)B);
            }
            if (pbf[k] < gbf) {
                gbf = pbf[k];
                memcpy(gb, pb[k], (size_t)B);
                improved = true;
            }
        }
        fresh = false;
        stall = improved ? 0 : stall + 1;
        ir_progress("bfco: generation", gen + 1, Gn);
        if (bp->time_limit > 0 && ir_wall_seconds() - t0 >= bp->time_limit) {
            gen++;
            break;
        }
        if (bp->stall > 0 && stall >= bp->stall) {
            if (restarts >= bp->restarts) {
                gen++;
                break;
            }
            /* restart: new positions for every particle but the seeds, gbest kept */
            restarts++;
            stall = 0;
            fresh = true;
            for (int k = 2; k < P; k++)
                seed_particle(sp, k, P, B, vmax, &rng[k], x[k], v[k]);
        }
    }
    if (gbf != INT64_MAX && sp->nbits > 0)
        gbf = bfco_descent(ws, nthreads, gb, gbf, bp, B, P, gen, &drng, &dtried);
    int64_t ftried = 0;
    if (gbf != INT64_MAX && sp->nbits > 0)
        gbf = bfco_fitness_moves(ws[0], gb, gbf, bp, B, &ftried);
    /* the polish budget: 3/4 evaluation per particle evaluated (bfco_swarm_size: the
     * search's size, not what the bounds and the cache spared of it) */
    /* The ma baseline's merge, which the window may not express, is a candidate too. */
    Worker *w0 = ws[0];
    Key k0;
    bool ma_best = false;
    if (sp->window > 0 && sp->nbits > 0) {
        bfco_groups_all(w0);
        int64_t Lma = bfco_fitness_groups(w0, NULL, bp, NULL, &k0, INT64_MAX);
        ma_best = Lma < gbf;
        if (ma_best)
            gbf = Lma;
    }
    /* Rebuild the best schedule (the fitness is deterministic). */
    int64_t L;
    if (ma_best) {
        bfco_groups_all(w0);
        L = bfco_fitness_groups(w0, NULL, bp, NULL, &k0, INT64_MAX);
    } else {
        L = bfco_fitness(w0, gb, bp, NULL, &k0, INT64_MAX);
    }
    int64_t pol = 0;
    if (bp->polish && L != INT64_MAX) {
        int64_t budget = bp->polish_budget >= 0 ? bp->polish_budget
                                                : bfco_swarm_size(P, gen) * 3 / 4 + 64;
        L = bfco_polish(w0, L, budget,
                        bp->polish_budget < 0 && sp->M <= DESCENT_CONVERGE_MAX,
                        bp->polish_all, &pol);
    }
    int rc = 0;
    if (L == INT64_MAX) {
        rc = -1;
        *out = NULL;
    } else {
        *out = ir_sched_copy(w0->ws);
    }
    st->length = L == INT64_MAX ? -1 : L;
    st->nbits = B;
    st->particles = P;
    st->generations = gen;
    st->restarts = restarts;
    st->cache_hits = hits;
    st->polish_evals = pol;
    st->descent_moves = dtried;
    st->fitness_moves = ftried;
    st->joint = bp->joint;
    st->evaluations = 0;
    st->bound_evals = 0;
    for (int t = 0; t < nthreads; t++) {
        st->evaluations += ws[t]->evals;
        st->bound_evals += ws[t]->fevals;
        bfco_worker_free(ws[t]);
    }
    for (int k = 0; k < P; k++) {
        free(x[k]);
        free(pb[k]);
        free(v[k]);
    }
    free(x);
    free(pb);
    free(v);
    free(f);
    free(pbf);
    free(key);
    free(rng);
    free(todo);
    free(gb);
    bfco_cache_free(&cache);
    return rc;
}
