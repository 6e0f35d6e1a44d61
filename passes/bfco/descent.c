/*
 * passes/bfco/descent.c - the descent after the swarm (docs/bfco.md, "Descent" and the
 * sections after it): passes of first-improvement moves (joins, units, gathers) on a
 * surrogate of the fitness, its caps and judging rules (the constants below), the
 * contended surrogate, the kicks of the iterated local search, the near-sends start and
 * the moves on the fitness itself.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* Above DESCENT_CONVERGE_MAX messages, where a pass does not fit in the descent's budget
 * (descent_reach): the first pass goes on to its end, within DESCENT_FIRST_BUDGETS
 * budgets (the 1000-task case: 3 231 moves against 1 536; the 5000-task case stops at
 * 15 360 of 16 188, and then no other pass follows); later passes go on while the pass
 * before shortened the surrogate by at least 1 / DESCENT_PASS_GAIN, within
 * DESCENT_REACH_BUDGETS budgets in all.  When the first pass shortened it by less than
 * 1 / DESCENT_FIRST_GAIN (the random cases: 5.7 %; an FFT on two boards: 4.8 %), each
 * later pass ends once 1 / DESCENT_CUT of a pass of moves in a row kept nothing (its
 * moves are sorted by their last change, the most promising first, and on the 1000-task
 * case everything a later pass keeps comes in its first quarter), and the passes after
 * the second follow only when it gained at least 1 / DESCENT_SECOND_GAIN (a first pass
 * that ended near a local optimum, as on the 1000-task case, 0.15 % and then 0.045 %, is
 * not followed further; the FFTs' second passes gain 2-5 %).  After a first pass of more
 * (an FFT on one board, whose gathers build groups of about 8: 16-21 %) the moves a later
 * pass keeps are spread over all of it, and the passes are whole.  Every pass end gets
 * the fitness, the shortest kept (docs/bfco.md, "The reach on two boards"). */
#define DESCENT_FIRST_BUDGETS 10
#define DESCENT_FIRST_GAIN 10
#define DESCENT_PASS_GAIN 1000
#define DESCENT_SECOND_GAIN 100
#define DESCENT_REACH_BUDGETS 64
#define DESCENT_CUT 8

/* Above DESCENT_CONVERGE_MAX messages, the surrogate is the contention-free length until
 * the fitness's excess over it at a pass end has grown by more than 1 / SURROGATE_GAP of
 * it since the descent's start (in a first pass that cannot end within its cap, judged
 * after every budget of moves too, gap_grown: the pass then goes on to its end first):
 * then, for the rest of the run, it is the contended
 * length (surrogate_of; screened by the contention-free one, a lower bound).  The moves
 * that shorten the contention-free length on an FFT put the transfers in each other's
 * way: the gap grows pass by pass (a 256-point FFT on one board: 0.001 % at no merge, 1.5
 * % after the first pass, 5.9 % after the tenth, while the fitness stopped improving),
 * and the descent on the contended length ends 5 % shorter.  A gap that was there from
 * the start shifts every point alike and misleads nothing: random graphs have one from
 * the start (0.38 % at no merge on the 1000-task speed case), it grows by less than 1 %,
 * and they keep the cheaper surrogate (which they would not have with the bare gap: three
 * of the speed case's seeds 1-10 crossed 1 % and took three times the CPU for 0.5-0.7
 * points; docs/bfco.md, "The contended surrogate"). */
#define SURROGATE_GAP 100

/* Once the surrogate is the contended length, the descent's passes go on until one keeps
 * nothing (a local optimum of the length that runs), within CONTENDED_PASSES passes'
 * moves (descent_moves each) in all: the first pass's cap (DESCENT_FIRST_BUDGETS) and the
 * gain rules hold only while the surrogate is the contention-free one.  On the FFTs whose
 * surrogate switches, the contended passes keep gaining after passes of almost nothing
 * (the 128-point FFT of seed 8 on two boards: 0.07 % and 0.007 % in passes 7 and 8, 0.71
 * % in pass 9; 23 passes to its local optimum, 2 % shorter than where the gain rule
 * stopped), and the 256-point FFT on two boards needs 19 passes (7.9 % shorter than
 * where its capped first pass had stopped it).  Both then end where the long search ends,
 * since its descent takes the same passes.  The random speed cases never switch
 * (docs/bfco.md, "Converging on the contended length"). */
#define CONTENDED_PASSES 16

/* The rules above and below each have a row of `bench_bfco --rules` (docs/bfco.md, "The
 * descent's rules") that shows it matters: without converge / reach fft64 16 % longer,
 * without contended fft128 3.8 %, near-sends 0.89 %, from-none up to 2.2 % (CPU 1.8x),
 * order up to 1.9 %, relocate up to 6.4 %; first-cap is the time at 5000 tasks (42.6
 * s instead of 24.4); gathers, kinds, pass-gain and cut are mixed on the two graphs
 * above 800 messages; judge, converge-contended and pass-ends act on FFTs on two
 * boards (fft128 of seed 8: 45.47 % over none with them, 45.11 % without).  Removed,
 * their rows showing no change of length nor time: the skip of a descent from gbest that
 * would only confirm, the descent at every stall, the kicks by default. */
const char *const bfco_rule_names[BFCO_RULES] = {
    "converge",   "reach", "gathers",   "kinds",     "first-cap",
    "pass-gain",  "cut",   "contended", "judge",     "converge-contended",
    "near-sends", "order", "from-none", "pass-ends", "relocate"};

/* ------------------------------------------------------------------------------------------
 * The surrogate and its tables
 * ------------------------------------------------------------------------------------------
 */

/* A length not taken (yet), in a probe and in the table of partitions. */
#define UNKNOWN INT64_MIN
/* The partition's repair failed (the table of partitions). */
#define PRE_FAILED (INT64_MIN + 1)

/* One candidate of the descent and what its surrogate took (probe), for its commit.  The
 * surrogate of a merge y, from the point cur of surrogate `known` (cur NULL: a start,
 * every length needed): INT64_MAX when the repair fails or the schedule deadlocks;
 * `known` when the repair gives cur back (a move the repair undid); else its length
 * without contention F (the repaired schedule with the greedy pipeline set: every
 * receive that can be pipelined is), or its contended length C where there is no
 * contention-free evaluator, and on the contended surrogate (w->csur) unless F, a lower
 * bound of it, is not below `known`: then F itself, the move rejected.  A function of
 * the repaired merge and `known` alone, whatever the tables hold: so the descent
 * searches the same on any number of threads (docs/bfco.md, "Threads"). */
typedef struct Probe {
    uint8_t *y;       /* the candidate; repaired in place */
    Key pk, rk;       /* its partition before the repair (labels), the repaired merge */
    int64_t F, C;     /* its lengths without and with contention, UNKNOWN if not taken */
    int64_t fev, cev; /* the evaluations probe made for F and for C */
    int64_t value;    /* the surrogate */
    bool failed, same, needC;
} Probe;

/* Worker w builds the repaired merge of y (its bits already repaired) with the greedy
 * pipeline set, when it has not yet (*built). */
static void
build_point(Worker *w, uint8_t *y, bool *built)
{
    if (*built)
        return;
    int nrel = 0;
    bfco_groups_from_bits(w, y);
    bfco_regroup(w);
    bfco_repair_point(w, y, &nrel); /* a repaired point is its own repair */
    bfco_greedy_pipes(w, w->gpipe);
    bfco_set_pipes(w, w->gpipe);
    *built = true;
}

/* The surrogate of p->y from cur (NULL: none) on worker w, the tables of tw only read
 * (the descent's table owner, ws[0]): the repaired bits are written back into p->y.
 * The evaluations it makes are not counted in w; commit counts them as the sequential
 * descent makes them. */
static void
probe(Worker *w, const Worker *tw, Probe *p, const uint8_t *cur, int B, int64_t known)
{
    const Space *sp = w->sp;
    uint8_t *y = p->y;
    p->F = p->C = UNKNOWN;
    p->fev = p->cev = 0;
    p->failed = p->same = p->needC = false;
    int64_t e0 = w->evals, f0 = w->fevals, pi = -1;
    bool built = false;
    bfco_groups_from_bits(w, y);
    if (tw->tables) {
        bfco_labels_key(w, &p->pk);
        if (!bfco_cache_get(&tw->pre, &p->pk, &pi))
            pi = -1;
    }
    if (pi >= 0) { /* the partition met before: its repaired bits, no repair */
        int64_t f = tw->pre_f[pi];
        if (f == PRE_FAILED) {
            p->failed = true;
            p->value = INT64_MAX;
            return;
        }
        int W = (sp->nbits + 63) / 64;
        const uint64_t *r = tw->pre_bits + (size_t)pi * W;
        for (int b = 0; b < sp->nbits; b++)
            y[b] = (r[b >> 6] >> (b & 63)) & 1;
        p->F = f;
    } else {
        int nrel = 0;
        bfco_regroup(w);
        if (bfco_repair_point(w, y, &nrel) < 0) {
            p->failed = true;
            p->value = INT64_MAX;
            return;
        }
        bfco_greedy_pipes(w, w->gpipe);
        bfco_set_pipes(w, w->gpipe);
        built = true;
    }
    if (cur && memcmp(y, cur, (size_t)B) == 0) {
        p->same = true;
        p->value = known;
        return;
    }
    if (!built) { /* the repaired merge's groups, for its key */
        bfco_groups_from_bits(w, y);
        bfco_regroup(w);
    }
    bfco_key_of(w, y, false, &p->rk);
    if (p->F == UNKNOWN && tw->tables)
        bfco_cache_get(&tw->sur, &p->rk, &p->F);
    if (p->F == UNKNOWN) {
        build_point(w, y, &built);
        p->F = bfco_eval_free(w);
    }
    /* -2: no evaluator without contention, the contended length is the only one */
    p->needC = p->F == -2 || (tw->csur && p->F >= 0 && !(cur && p->F >= known));
    if (p->needC) {
        if (tw->tables)
            bfco_cache_get(&tw->con, &p->rk, &p->C);
        if (p->C == UNKNOWN) {
            build_point(w, y, &built);
            p->C = bfco_eval(w);
        }
    }
    int64_t L = p->needC ? p->C : p->F;
    p->value = L < 0 ? INT64_MAX : L;
    p->fev = w->fevals - f0;
    p->cev = w->evals - e0;
    w->fevals = f0;
    w->evals = e0;
}

/* The most the table of partitions holds of repaired bits: a 256-point FFT's descent
 * (3 412 messages, 49 152 moves, 1.7 KB of bits a partition) filled 84 MB, doubling 168
 * MB at its peak; the 5000-task case's fits (about 15 000 partitions of 1.3 KB). */
#define PRE_TABLE_BYTES ((size_t)32 << 20)

/* The partition k of the repaired bits y (free length f) into tw's table, unless full
 * (a partition met again is then repaired again: the same result). */
static void
pre_add(Worker *tw, const Key *k, const uint8_t *y, int64_t f)
{
    const Space *sp = tw->sp;
    int W = (sp->nbits + 63) / 64;
    if (tw->pre_n == tw->pre_cap) {
        int cap = tw->pre_cap ? 2 * tw->pre_cap : 256;
        if (tw->pre_cap && (size_t)cap * W * sizeof(uint64_t) > PRE_TABLE_BYTES)
            return;
        uint64_t *nb = ir_xcalloc((size_t)cap * W + 1, sizeof *nb);
        int64_t *nf = ir_xcalloc((size_t)cap, sizeof *nf);
        if (tw->pre_n) {
            memcpy(nb, tw->pre_bits, (size_t)tw->pre_n * W * sizeof *nb);
            memcpy(nf, tw->pre_f, (size_t)tw->pre_n * sizeof *nf);
        }
        free(tw->pre_bits);
        free(tw->pre_f);
        tw->pre_bits = nb;
        tw->pre_f = nf;
        tw->pre_cap = cap;
    }
    int64_t i = tw->pre_n++;
    uint64_t *r = tw->pre_bits + (size_t)i * W;
    for (int b = 0; b < sp->nbits; b++)
        r[b >> 6] |= (uint64_t)y[b] << (b & 63);
    tw->pre_f[i] = f;
    bfco_cache_put(&tw->pre, k, i);
}

/* Probe p into the tables of tw, and its evaluations into tw's counts, as the
 * sequential descent (one probe after the other, each seeing the tables of the ones
 * before) makes them: a length the tables hold now costs nothing.  The tables: the
 * partitions met (pre: the repair and the surrogate are functions of the partition the
 * bits make before the repair, so a join of the same two groups through another bit, or
 * a move tried again from the same point, needs no repair: at 100 tasks 362 of the 702
 * surrogates), the contention-free lengths (sur) and the contended ones (con) of the
 * repaired merges. */
static void
commit(Worker *tw, const Probe *p, int B, int64_t known)
{
    (void)B;
    if (!tw->tables) {
        tw->fevals += p->fev;
        tw->evals += p->cev;
        return;
    }
    int64_t pi;
    bool pre_now = bfco_cache_get(&tw->pre, &p->pk, &pi);
    if (p->failed) {
        if (!pre_now)
            pre_add(tw, &p->pk, p->y, PRE_FAILED);
        return;
    }
    if (p->same) { /* cur's surrogate is its free length on the contention-free one */
        if (!pre_now)
            pre_add(tw, &p->pk, p->y,
                    !tw->csur && tw->evf && known != INT64_MAX ? known : UNKNOWN);
        return;
    }
    int64_t f = pre_now ? tw->pre_f[pi] : UNKNOWN;
    if (f == UNKNOWN && !bfco_cache_get(&tw->sur, &p->rk, &f)) {
        tw->fevals += p->fev;
        bfco_cache_put(&tw->sur, &p->rk, p->F);
    }
    if (pre_now && tw->pre_f[pi] == UNKNOWN)
        tw->pre_f[pi] = p->F;
    int64_t c;
    if (p->needC && !bfco_cache_get(&tw->con, &p->rk, &c)) {
        tw->evals += p->cev;
        bfco_cache_put(&tw->con, &p->rk, p->C);
    }
    if (!pre_now)
        pre_add(tw, &p->pk, p->y, p->F);
}

/* ------------------------------------------------------------------------------------------
 * Threads: the moves of a batch probed at once
 * ------------------------------------------------------------------------------------------
 */

/* The descent's workers and its threads.  A pass tries its moves in batches of one per
 * worker, all from the same point: probed in parallel, then committed in order until
 * one is kept, the others dropped (the sequential descent would try them from the new
 * point).  So the moves tried, kept and counted are those of one thread, on any number
 * of threads; the work of the dropped ones is what the threads cost. */
typedef struct Descent Descent;

typedef struct Helper {
    Descent *dc;
    int t;
} Helper;

struct Descent {
    Worker **ws; /* [T]; ws[0] owns the tables and is the main thread's */
    int T;
    Probe *pr; /* [T] */
    int B;
    unsigned off; /* BfcoParams.rules_off */
    /* the batch */
    const uint8_t *cur;
    int64_t known;
    int nslots;
    /* the helper threads 1 .. T - 1 */
    pthread_t th[64];
    Helper hp[64];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    int round, pending;
    bool quit, pool;
};

static void *
helper_run(void *arg)
{
    Helper *h = arg;
    Descent *dc = h->dc;
    int seen = 0;
    for (;;) {
        pthread_mutex_lock(&dc->mu);
        while (dc->round == seen && !dc->quit)
            pthread_cond_wait(&dc->go, &dc->mu);
        if (dc->quit) {
            pthread_mutex_unlock(&dc->mu);
            return NULL;
        }
        seen = dc->round;
        pthread_mutex_unlock(&dc->mu);
        if (h->t < dc->nslots)
            probe(dc->ws[h->t], dc->ws[0], &dc->pr[h->t], dc->cur, dc->B, dc->known);
        pthread_mutex_lock(&dc->mu);
        if (--dc->pending == 0)
            pthread_cond_signal(&dc->done);
        pthread_mutex_unlock(&dc->mu);
    }
}

/* Probes dc->pr[0 .. n) from cur, slot t on worker t. */
static void
probe_batch(Descent *dc, const uint8_t *cur, int64_t known, int n)
{
    if (n == 1 || !dc->pool) {
        for (int j = 0; j < n; j++)
            probe(dc->ws[0], dc->ws[0], &dc->pr[j], cur, dc->B, known);
        return;
    }
    pthread_mutex_lock(&dc->mu);
    dc->cur = cur;
    dc->known = known;
    dc->nslots = n;
    dc->pending = dc->T - 1;
    dc->round++;
    pthread_cond_broadcast(&dc->go);
    pthread_mutex_unlock(&dc->mu);
    probe(dc->ws[0], dc->ws[0], &dc->pr[0], cur, dc->B, known);
    pthread_mutex_lock(&dc->mu);
    while (dc->pending > 0)
        pthread_cond_wait(&dc->done, &dc->mu);
    pthread_mutex_unlock(&dc->mu);
}

static void
descent_open(Descent *dc, Worker **ws, int T, int B, unsigned off)
{
    memset(dc, 0, sizeof *dc);
    dc->off = off;
    dc->ws = ws;
    dc->T = T < 1 ? 1 : T > 64 ? 64 : T;
    dc->B = B;
    dc->pr = ir_xcalloc((size_t)dc->T, sizeof *dc->pr);
    for (int t = 0; t < dc->T; t++)
        dc->pr[t].y = ir_xcalloc((size_t)B + 1, 1);
    if (dc->T > 1) {
        pthread_mutex_init(&dc->mu, NULL);
        pthread_cond_init(&dc->go, NULL);
        pthread_cond_init(&dc->done, NULL);
        dc->pool = true;
        for (int t = 1; t < dc->T; t++) {
            dc->hp[t] = (Helper){dc, t};
            if (pthread_create(&dc->th[t], NULL, helper_run, &dc->hp[t]) != 0)
                ice("cannot create a thread");
        }
    }
}

static void
descent_close(Descent *dc)
{
    if (dc->pool) {
        pthread_mutex_lock(&dc->mu);
        dc->quit = true;
        pthread_cond_broadcast(&dc->go);
        pthread_mutex_unlock(&dc->mu);
        for (int t = 1; t < dc->T; t++)
            pthread_join(dc->th[t], NULL);
        pthread_mutex_destroy(&dc->mu);
        pthread_cond_destroy(&dc->go);
        pthread_cond_destroy(&dc->done);
    }
    for (int t = 0; t < dc->T; t++)
        free(dc->pr[t].y);
    free(dc->pr);
}

/* The threads of the descent: on schedules of at most 64 messages a move costs a few
 * microseconds, about what handing it to another thread costs, so one. */
static int
descent_threads(const Space *sp, int T)
{
    return sp->M > 64 ? T : 1;
}

/* The surrogate of a start point x (repaired in place), probed and committed. */
static int64_t
start_surrogate(Descent *dc, uint8_t *x)
{
    Probe *p = &dc->pr[0];
    memcpy(p->y, x, (size_t)dc->B);
    probe(dc->ws[0], dc->ws[0], p, NULL, dc->B, 0);
    commit(dc->ws[0], p, dc->B, 0);
    memcpy(x, p->y, (size_t)dc->B);
    return p->value;
}

/* How far the descent's passes may go (descent_reach): moves in all, and with first_cap
 * > 0 the moves of the first pass and the rules of DESCENT_FIRST_BUDGETS. */
typedef struct Reach {
    int64_t moves, first_cap;
} Reach;

typedef struct Move {
    int64_t d; /* the surrogate's change when the move was last tried */
    int m;     /* < nbits: join the groups of bit m; < nbits + M: take unit m - nbits out;
                  else gather unit m - nbits - M (apply_move) */
} Move;

static int
move_cmp(const void *a, const void *b)
{
    const Move *p = a, *q = b;
    if (p->d != q->d)
        return p->d < q->d ? -1 : 1;
    return (p->m > q->m) - (p->m < q->m);
}

/* The descent's moves: the joins (one per merge bit), the units (take unit u out of its
 * group), and above DESCENT_CONVERGE_MAX messages the gathers (set every merge bit of
 * unit u: its group joined with those of all its window neighbours); m < nbits a join,
 * then the M units, then the M gathers.  The gathers are there for the schedules whose
 * descent may stop within its first pass, which takes the joins and the gathers in turn
 * by how often each kind was kept (first_pass_kinds): on a graph whose best merge joins
 * most messages of a pair (a 128-point FFT: 1 533 messages into 345) one gather does what
 * takes the joins about eight moves; where gathers are not kept (the 1000-task case: 0
 * of 8) the joins get the budget (docs/bfco.md, "Gather moves"). */
static bool
has_gathers(const Space *sp, unsigned off)
{
    return sp->M > DESCENT_CONVERGE_MAX && !(off & BFCO_RULE_GATHERS);
}

/* The relocations (up to DESCENT_CONVERGE_MAX messages, where the descent converges):
 * for each merge bit (u, v) and each end of it, the unit keeps only that link: it leaves
 * its group for the other end's (a unit move and a join at once, which neither makes
 * alone when each lengthens the schedule).  They take the descent out of the local
 * optima of the joins and units: fft32 seed 1 6.0 % shorter than the long search
 * without them, chain100 seed 5 0.83 -> 0.16 % above it (docs/bfco.md, "Relocations"). */
static bool
has_relocs(const Space *sp, unsigned off)
{
    return sp->M <= DESCENT_CONVERGE_MAX && !(off & BFCO_RULE_RELOCATE);
}

static int
descent_moves(const Space *sp, unsigned off)
{
    return sp->nbits + sp->M * (has_gathers(sp, off) ? 2 : 1) +
           (has_relocs(sp, off) ? 2 * sp->nbits : 0);
}

/* Move m of the descent applied to y (a copy of the current point); false when it does
 * not apply (the bit is set, the unit is alone, every bit of the unit is set, the unit
 * has that link only). */
static bool
apply_move(const Space *sp, uint8_t *y, int m, unsigned off)
{
    if (m < sp->nbits) {
        if (y[m])
            return false;
        y[m] = 1;
        return true;
    }
    int base = sp->nbits + sp->M * (has_gathers(sp, off) ? 2 : 1);
    if (m >= base) { /* relocate: unit u keeps only its link to the other end of bit b */
        int r = m - base, b = r / 2, u = r % 2 ? sp->bv[b] : sp->bu[b];
        bool any = false;
        for (int c = 0; c < sp->nbits; c++) {
            uint8_t want = c == b;
            if ((sp->bu[c] == u || sp->bv[c] == u) && y[c] != want) {
                y[c] = want;
                any = true;
            }
        }
        return any;
    }
    int u = m - sp->nbits;
    uint8_t want = u >= sp->M; /* a gather sets the unit's bits, a unit clears them */
    u = want ? u - sp->M : u;
    bool any = false;
    for (int b = 0; b < sp->nbits; b++)
        if (y[b] != want && (sp->bu[b] == u || sp->bv[b] == u)) {
            y[b] = want;
            any = true;
        }
    return any;
}

/* What the passes watch: where the current pass ends (lim: a move count) and, above
 * DESCENT_CONVERGE_MAX messages (gap_grown), the fitness of the points they reach, the
 * shortest kept in x (*F), and the gap between it and the surrogate since the start
 * (gap0); within a pass, after every `every` moves (> 0: a first pass that cannot end
 * within its cap), the next at `next`.  When the gap has grown there (`grown`), the pass
 * goes on to its end on the contention-free surrogate, and the contended one takes over
 * after it, within `reach` (CONTENDED_PASSES). */
typedef struct Judge {
    uint8_t *x;
    int64_t *F;
    const BfcoParams *bp;
    int64_t gap0, every, next;
    int64_t lim, reach;
    bool grown;
} Judge;

/* The descent's passes stop: the time limit is spent. */
static bool
out_of_time(const Worker *w)
{
    return w->deadline > 0 && ir_wall_seconds() >= w->deadline;
}

static int64_t fitness_kept(Worker *w, uint8_t *cur, uint8_t *x, int64_t *F, int B,
                            const BfcoParams *bp);

/* The fitness of cur (kept in jd->x when shorter); true when its excess over the
 * surrogate S has grown by more than 1 / SURROGATE_GAP since the start (and the surrogate
 * is still the contention-free one). */
static bool
gap_grown(Worker *w, uint8_t *cur, int64_t S, int B, Judge *jd)
{
    int64_t f = fitness_kept(w, cur, jd->x, jd->F, B, jd->bp);
    return !w->csur && w->evf && f != INT64_MAX && f - S - jd->gap0 > S / SURROGATE_GAP &&
           !(jd->bp->rules_off & BFCO_RULE_CONTENDED);
}

/* From now on the surrogate is the contended length (*S recomputed).  The tables keep
 * what they hold: the contention-free lengths are still the bounds that screen. */
static void
to_contended(Descent *dc, uint8_t *cur, int64_t *S)
{
    dc->ws[0]->csur = true;
    *S = start_surrogate(dc, cur);
}

/* The order a pass tries its moves in: mv[i .. end) in turn, or, for the first pass when
 * there are gathers (kinds), the joins mv[at[0] .. kend[0]) in bit order and the gathers
 * mv[at[1] .. kend[1]) in unit order in turn, the next move from the kind whose moves
 * were kept more often so far ((kept + 1) / (tried + 2), ties to the joins), then the
 * units mv[i .. end).  since: the moves tried in a row that kept nothing. */
typedef struct Gen {
    bool kinds;
    int i, end, at[2], kend[2];
    int64_t tried[2], kept[2], since;
} Gen;

/* The index in mv of the next move, -1 at the end; *kind its kind (0 a join, 1 a gather
 * of the first pass with kinds, else -1).  Advances g past it. */
static int
gen_next(Gen *g, int *kind)
{
    *kind = -1;
    if (g->kinds && (g->at[0] < g->kend[0] || g->at[1] < g->kend[1])) {
        int k = g->at[0] >= g->kend[0]   ? 1
                : g->at[1] >= g->kend[1] ? 0
                                         : (g->kept[1] + 1) * (g->tried[0] + 2) >
                                               (g->kept[0] + 1) * (g->tried[1] + 2);
        *kind = k;
        return g->at[k]++;
    }
    return g->i < g->end ? g->i++ : -1;
}

/* One pass from cur (surrogate *S) over the moves of g, until g ends, *n reaches
 * jd->lim, the time is up, or with cut > 0 nm / cut moves in a row (nm: the moves of a
 * pass) kept nothing: first improvement, in batches of one move per thread (Descent).
 * When jd watches within the pass (jd->every > 0), the point is judged after every
 * jd->every moves.  True when it kept a move. */
static bool
run_pass(Descent *dc, uint8_t *cur, int64_t *S, Move *mv, Gen *g, int cut, int64_t *n,
         Judge *jd)
{
    Worker *w = dc->ws[0];
    const Space *sp = w->sp;
    int nm = descent_moves(sp, dc->off), B = dc->B;
    int idx[64], kind[64];
    Gen after[64];
    bool moved = false;
    for (;;) {
        /* the next moves that apply, as if none of them were kept */
        Gen h = *g;
        int k = 0;
        int64_t nh = *n;
        while (k < dc->T && nh < jd->lim && !out_of_time(w) &&
               (cut == 0 || h.since * cut < nm)) {
            int kd, m = gen_next(&h, &kd);
            if (m < 0)
                break;
            memcpy(dc->pr[k].y, cur, (size_t)B);
            if (!apply_move(sp, dc->pr[k].y, mv[m].m, dc->off))
                continue;
            if (kd >= 0)
                h.tried[kd]++;
            h.since++;
            nh++;
            idx[k] = m;
            kind[k] = kd;
            after[k++] = h;
        }
        if (k == 0) {
            *g = h;
            return moved;
        }
        probe_batch(dc, cur, *S, k);
        bool kept = false;
        for (int j = 0; j < k && !kept; j++) {
            const Probe *p = &dc->pr[j];
            commit(w, p, B, *S);
            (*n)++;
            ir_progress("bfco: descent, moves", *n, jd->lim); /* a terminal, after 1 s */
            *g = after[j];
            mv[idx[j]].d = p->value == INT64_MAX ? INT64_MAX : p->value - *S;
            if (p->value < *S) {
                kept = moved = true;
                *S = p->value;
                memcpy(cur, p->y, (size_t)B);
                if (kind[j] >= 0)
                    g->kept[kind[j]]++;
                g->since = 0;
            }
            if (jd->every > 0 && *n >= jd->next) {
                jd->next = *n + jd->every;
                if (gap_grown(w, cur, *S, B, jd)) {
                    jd->every = 0;
                    jd->grown = true;
                    jd->lim = jd->reach;
                }
            }
        }
    }
}

/* The fitness of cur, which replaces x (fitness *F) when it is shorter. */
static int64_t
fitness_kept(Worker *w, uint8_t *cur, uint8_t *x, int64_t *F, int B, const BfcoParams *bp)
{
    Key k;
    int64_t f = bfco_fitness(w, cur, bp, NULL, &k, INT64_MAX);
    if (f < *F && !(bp->rules_off & BFCO_RULE_PASS_ENDS)) {
        *F = f;
        memcpy(x, cur, (size_t)B);
    }
    return f;
}

/* Passes of first-improvement moves on the surrogate from cur (surrogate *S) until a
 * pass keeps no move (true: cur is a local optimum), *n reaches budget or the time limit
 * is spent.  With first_cap > 0 (descent_reach's rule above DESCENT_CONVERGE_MAX
 * messages), while the surrogate is the contention-free one: the first pass tries at
 * most first_cap moves, no pass follows when it did not end within them, the passes also
 * stop when one shortens the surrogate by less than 1 / DESCENT_PASS_GAIN of it, and when
 * the first shortened it by less than 1 / DESCENT_FIRST_GAIN a later pass ends after
 * DESCENT_CUT's run of moves that kept nothing and the second must gain 1 /
 * DESCENT_SECOND_GAIN.  Above DESCENT_CONVERGE_MAX messages (and with first_cap) every
 * pass end (and the start) gets the fitness, the shortest kept in x (*F), and a gap
 * between the fitness and the surrogate grown by more than 1 / SURROGATE_GAP since the
 * start makes the surrogate the contended length from then on (in a first pass with more
 * moves than its cap, judged every budget of moves too: there a grown gap lifts the cap,
 * and the switch comes at the pass's end).  On the contended length the passes follow
 * until one keeps nothing, within CONTENDED_PASSES passes' moves (with first_cap; else
 * within budget): its moves kept are spread over whole passes (the cut stopped a
 * 128-point FFT on two boards 1.3 % above the long search, whole passes 0.015 %), and its
 * gains come back after passes of almost none (CONTENDED_PASSES).
 * mv: the moves in the order to try (first: mv is in its first order, and with gathers
 * the first pass takes the kinds in turn: Gen); each pass ends by sorting them by the
 * surrogate's change when they were last tried (the most promising first, ties by the
 * first pass's order). */
static bool
passes(Descent *dc, uint8_t *cur, int64_t *S, Move *mv, bool first, int64_t first_cap,
       int64_t budget, int64_t *n, uint8_t *x, int64_t *F, const BfcoParams *bp)
{
    Worker *w = dc->ws[0];
    const Space *sp = w->sp;
    int B = dc->B;
    unsigned off = bp->rules_off;
    bool moved = true, go = true, cutting = false;
    bool track = x && (first_cap > 0 || sp->M > DESCENT_CONVERGE_MAX);
    int64_t nm = descent_moves(sp, off);
    Judge jd = {.x = x, .F = F, .bp = bp};
    /* on the contended length, the passes go on to a local optimum (CONTENDED_PASSES);
     * an explicit budget (first_cap 0) stays the reach */
    jd.reach = first_cap > 0 && CONTENDED_PASSES * nm > budget &&
                       !(off & BFCO_RULE_CONVERGE_CONTENDED)
                   ? CONTENDED_PASSES * nm
                   : budget;
    if (track && !w->csur && w->evf) {
        int64_t f = fitness_kept(w, cur, x, F, B, bp);
        jd.gap0 = f == INT64_MAX ? 0 : f - *S;
    }
    for (int pass = 0;
         moved && go && *n < (w->csur ? jd.reach : budget) && !out_of_time(w); pass++) {
        int64_t S0 = *S;
        bool free0 = !w->csur;
        jd.lim = w->csur ? jd.reach : budget;
        if (pass == 0 && free0 && first_cap > 0 && first_cap < budget - *n &&
            !(off & BFCO_RULE_FIRST_CAP))
            jd.lim = *n + first_cap;
        /* a first pass with more moves than its cap may never reach its end: judged
         * after every budget of moves (fft256 on two boards: 4 019 messages, 23 534 moves
         * against a cap of 15 360) */
        jd.every = track && free0 && pass == 0 && first_cap > 0 && nm > jd.lim - *n &&
                           !(off & BFCO_RULE_JUDGE)
                       ? first_cap / DESCENT_FIRST_BUDGETS
                       : 0;
        jd.next = *n + jd.every;
        jd.grown = false;
        int cut = cutting && free0 ? DESCENT_CUT : 0;
        Gen g = {.end = (int)nm};
        if (pass == 0 && first && has_gathers(sp, off) && !(off & BFCO_RULE_KINDS))
            /* the joins and the gathers in turn, then the units */
            g = (Gen){.kinds = true,
                      .i = sp->nbits,
                      .end = sp->nbits + sp->M,
                      .at = {0, sp->nbits + sp->M},
                      .kend = {sp->nbits, sp->nbits + 2 * sp->M}};
        moved = run_pass(dc, cur, S, mv, &g, g.kinds ? 0 : cut, n, &jd);
        if (!(off & BFCO_RULE_ORDER))
            qsort(mv, (size_t)nm, sizeof *mv, move_cmp);
        bool sw = jd.grown; /* the gap grew within the pass */
        if (first_cap > 0 && free0 && !sw) {
            go = (S0 - *S >= S0 / (pass == 1 && cutting ? DESCENT_SECOND_GAIN
                                                        : DESCENT_PASS_GAIN) ||
                  ((off & BFCO_RULE_PASS_GAIN) && S0 > *S)) &&
                 (pass > 0 || *n < jd.lim);
            if (pass == 0)
                cutting = S0 - *S < S0 / DESCENT_FIRST_GAIN && !(off & BFCO_RULE_CUT);
        }
        if (track && !sw && !(jd.every > 0 && jd.next - jd.every == *n)) /* not judged */
            sw = gap_grown(w, cur, *S, B, &jd);
        if (sw) { /* passes on the contended length follow, to a local optimum */
            to_contended(dc, cur, S);
            go = true;
            moved = true;
        }
    }
    return !moved;
}

/* The kick of the iterated local search: `k` random moves applied to y (the best point;
 * a move that does not apply is drawn again, at most 4 k draws). */
static void
kick(const Space *sp, uint8_t *y, int k, uint64_t *rng)
{
    int nm = sp->nbits + sp->M;
    for (int done = 0, draws = 0; done < k && draws < 4 * k; draws++)
        done += apply_move(sp, y, (int)(urand(rng) * nm), 0);
}

/* Descent from the merge of x (fitness F): passes of first-improvement moves on the
 * surrogate — join two groups (a merge bit that is not set), take a unit out of its
 * group (its bits cleared), above DESCENT_CONVERGE_MAX messages gather — until a pass
 * keeps no move or `reach` (>= budget) moves were tried, or (first_cap > 0) the rule of
 * DESCENT_FIRST_BUDGETS stops them; then the fitness of the end point (with first_cap,
 * of every pass end), kept in x when it is shorter than F. The
 * first pass tries every join in bit order, then every unit; each later pass tries the
 * moves in the order of the surrogate's change when they were last tried: the moves a
 * pass keeps are mostly among those that came close in the pass before, so a budget that
 * ends within a pass spends it where the gains are (docs/bfco.md, "Descent").
 * When the descent ends at a local optimum with budget left, an iterated local search
 * follows: x kicked by bp->kick_moves random moves, descended again, kept when its
 * fitness is shorter, until `budget` is used or bp->kicks kicks in a row kept nothing.
 * Deterministic for a given rng.  Returns the fitness of x; *tried gets the moves
 * tried, *local (if not NULL) whether the first descent ended at a local optimum. */
static int64_t
descend(Descent *dc, uint8_t *x, int64_t F, const BfcoParams *bp, int64_t budget,
        int64_t reach, int64_t first_cap, uint64_t *rng, int64_t *tried, bool *at_local)
{
    Worker *w = dc->ws[0];
    const Space *sp = w->sp;
    int B = dc->B;
    int nm = descent_moves(sp, bp->rules_off);
    uint8_t *cur = ir_xcalloc((size_t)B + 1, 1);
    Move *mv = ir_xcalloc((size_t)nm, sizeof *mv);
    for (int m = 0; m < nm; m++)
        mv[m] = (Move){0, m};
    memcpy(cur, x, (size_t)B);
    int64_t S = start_surrogate(dc, cur), n = 0;
    bool local = passes(dc, cur, &S, mv, true, first_cap, reach, &n, x, &F, bp);
    if (at_local)
        *at_local = local;
    Key k;
    int64_t f = bfco_fitness(w, cur, bp, NULL, &k, F);
    if (f < F) {
        F = f;
        memcpy(x, cur, (size_t)B);
    }
    for (int fails = 0; local && n < budget && fails < bp->kicks;) {
        memcpy(cur, x, (size_t)B);
        kick(sp, cur, bp->kick_moves, rng);
        S = start_surrogate(dc, cur);
        passes(dc, cur, &S, mv, false, 0, budget, &n, NULL, NULL, bp);
        f = bfco_fitness(w, cur, bp, NULL, &k, F);
        fails++;
        if (f < F) {
            F = f;
            memcpy(x, cur, (size_t)B);
            fails = 0;
        }
    }
    free(mv);
    free(cur);
    *tried += n;
    return F;
}

/* After the last descent: passes of the descent's moves from gb (fitness gbf) on the
 * fitness itself, with the bound's cutoff, first improvement, until a pass keeps none or
 * bp->fitness_passes passes ran.  The surrogate is contention-free: a merge that pays
 * only with contention, or whose greedy pipeline set is not the fitness's, is invisible
 * to the descent (rand50-15: three such moves, 0.30 % shorter; docs/bfco.md, "Moves on
 * the fitness").  Returns gb's fitness; *tried gets the moves tried. */
int64_t
bfco_fitness_moves(Worker *w, uint8_t *gb, int64_t gbf, const BfcoParams *bp, int B,
                   int64_t *tried)
{
    const Space *sp = w->sp;
    int nm = sp->nbits + sp->M;
    uint8_t *y = ir_xcalloc((size_t)B + 1, 1);
    Key k;
    bool moved = true;
    for (int pass = 0; moved && pass < bp->fitness_passes; pass++) {
        moved = false;
        for (int m = 0; m < nm; m++) {
            memcpy(y, gb, (size_t)B);
            if (!apply_move(sp, y, m, 0))
                continue;
            (*tried)++;
            int64_t f = bfco_fitness(w, y, bp, NULL, &k, gbf);
            if (f < gbf) {
                gbf = f;
                memcpy(gb, y, (size_t)B);
                moved = true;
            }
        }
    }
    free(y);
    return gbf;
}

/* Above DESCENT_CONVERGE_MAX messages, where the descent does not converge by default,
 * the first descent starts from the shortest (by fitness) of no merge and the merges of
 * the sends of a class at most d slots apart on their DSP, d = 2, 4, ... NEAR_MAX_SLOTS;
 * the d's are tried upwards until NEAR_STOP of them in a row did not better the
 * shortest.  Sends close in their DSP's order leave close in time, and one message for
 * them costs their receiver one overhead instead of several.  On the 128-point FFT of
 * one board the start is 11 % shorter than no merge (d = 4), and the default ends
 * 0.6-3.0 % shorter on 8 of the 10 FFTs of one and two boards whose start changed (0.24
 * and 0.86 % longer on the other two); on four boards and on the 1000-task random graph
 * no merge is the shortest and the scan costs two or three evaluations (docs/bfco.md,
 * "The near-sends start"). */
#define NEAR_MAX_SLOTS 32
#define NEAR_STOP 2

/* z (no merge) becomes the start named above. */
static void
near_sends_start(Worker *w, uint8_t *z, const BfcoParams *bp, int B)
{
    const Space *sp = w->sp;
    Key k;
    int64_t best = bfco_fitness(w, z, bp, NULL, &k, INT64_MAX);
    uint8_t *q = ir_xcalloc((size_t)B + 1, 1);
    for (int d = 2, fails = 0; d <= NEAR_MAX_SLOTS && fails < NEAR_STOP; d += 2) {
        memcpy(q, z, (size_t)B);
        for (int b = 0; b < sp->nbits; b++)
            q[b] = abs(sp->ssl[sp->bu[b]] - sp->ssl[sp->bv[b]]) <= d;
        int64_t f = bfco_fitness(w, q, bp, NULL, &k, best);
        if (f < best) {
            best = f;
            memcpy(z, q, (size_t)B);
            fails = 0;
        } else {
            fails++;
        }
    }
    free(q);
}

/* The descent starts from no merge (with gbest's joint bits; above
 * DESCENT_CONVERGE_MAX messages near_sends_start's point) before it starts from gbest:
 * that end point does not depend on the seed, and the descents from different gbests
 * end some percent apart (fft32), so this is what keeps the seeds together.  gb and the
 * result as descend's. */
static int64_t
descend_from_none(Descent *dc, uint8_t *gb, int64_t gbf, const BfcoParams *bp,
                  int64_t budget, const Reach *r, uint64_t *rng, int64_t *tried)
{
    Worker *w = dc->ws[0];
    int B = dc->B;
    uint8_t *z = ir_xcalloc((size_t)B + 1, 1);
    memcpy(z, gb, (size_t)B);
    memset(z, 0, (size_t)w->sp->nbits);
    if (w->sp->M > DESCENT_CONVERGE_MAX && !(bp->rules_off & BFCO_RULE_NEAR_SENDS))
        near_sends_start(w, z, bp, B);
    int64_t fz = descend(dc, z, INT64_MAX - 1, bp, budget - *tried, r->moves - *tried,
                         r->first_cap, rng, tried, NULL);
    if (fz < gbf) {
        gbf = fz;
        memcpy(gb, z, (size_t)B);
    }
    free(z);
    return gbf;
}

/* The descent's moves after `gen` generations of P particles: the option, or 4 per
 * particle evaluated (bfco_swarm_size). */
static int64_t
descent_budget(const BfcoParams *bp, int P, int gen)
{
    return bp->descent_budget >= 0 ? bp->descent_budget : 4 * bfco_swarm_size(P, gen);
}

/* How far the descent's passes may go (the kicks stay within the budget): by default up
 * to 16 passes (every move once: descent_moves each), enough to reach a local optimum
 * (fft32: 3 000-8 700 moves against a budget of 1 408, 5-9 passes), when one pass fits
 * in the budget or the schedule has at most DESCENT_CONVERGE_MAX messages.  On larger
 * schedules whose pass does not fit, converging costs several times the rest of the
 * search (3.2 times at 1000 tasks): there the rules of DESCENT_FIRST_BUDGETS (first_cap).
 * An explicit budget is the reach (docs/bfco.md, "Descent"). */
static Reach
descent_reach(const BfcoParams *bp, const Space *sp, int64_t budget)
{
    unsigned off = bp->rules_off;
    int64_t pass = descent_moves(sp, off);
    if (bp->descent_budget >= 0 || (off & BFCO_RULE_REACH))
        return (Reach){budget, 0};
    if (pass > budget && sp->M > DESCENT_CONVERGE_MAX)
        return (Reach){DESCENT_REACH_BUDGETS * budget, DESCENT_FIRST_BUDGETS * budget};
    if (pass > budget && (off & BFCO_RULE_CONVERGE))
        return (Reach){budget, 0};
    return (Reach){16 * pass > budget ? 16 * pass : budget, 0};
}

/* The descent at the end of the swarm (docs/bfco.md, "Descent"), from no merge and
 * then from gbest (gb, gbf) after `gen` generations.  (When the first end point is
 * gbest and a local optimum, the second only confirms it with one pass: sparing it
 * changed no length nor time, the row "skip" of "The descent's rules".)  Returns
 * gbest's fitness. */
int64_t
bfco_descent(Worker **ws, int T, uint8_t *gb, int64_t gbf, const BfcoParams *bp, int B,
             int P, int gen, uint64_t *rng, int64_t *tried)
{
    int64_t budget = descent_budget(bp, P, gen);
    Reach r = descent_reach(bp, ws[0]->sp, budget);
    Descent dc;
    descent_open(&dc, ws, descent_threads(ws[0]->sp, T), B, bp->rules_off);
    if (*tried < budget && !(bp->rules_off & BFCO_RULE_FROM_NONE))
        gbf = descend_from_none(&dc, gb, gbf, bp, budget, &r, rng, tried);
    if (*tried < budget)
        gbf = descend(&dc, gb, gbf, bp, budget - *tried, r.moves - *tried, r.first_cap,
                      rng, tried, NULL);
    descent_close(&dc);
    return gbf;
}
