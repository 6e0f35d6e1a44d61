/*
 * passes/bfco/descent.c - the descent after the swarm (docs/bfco.md, "Descent" and the
 * sections after it): passes of first-improvement moves (joins, units, gathers) on a
 * surrogate of the fitness, its caps and judging rules (the constants below), the
 * contended surrogate, the kicks of the iterated local search, the near-sends start and
 * the moves on the fitness itself.
 */
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

/* The descent's surrogate of the merge in x: the length without contention of its
 * repaired schedule with the greedy pipeline set (every receive that can be pipelined
 * is), INT64_MAX when it deadlocks; the repaired groups are written back into x.  On a
 * platform without contention, the length itself.  It ranks merges as the fitness does
 * (docs/bfco.md, "Descent") at a fraction of its cost: one contention-free evaluation.
 * When `same` (B bytes) is given and the repaired x equals it, the result is `known`
 * (the surrogate of `same`) without an evaluation: a move the repair undid.  The result
 * depends only on the repaired merge (the schedule is built from its groups), so a merge
 * the descent met before is not evaluated again: its result comes from w->sur (when
 * the table of inputs has not met x's partition, or is off).  The worker's groups are
 * those of x's bits (bfco_groups_from_bits) on entry.  *unrepaired: the repair failed
 * (INT64_MAX; x is then no point of the search). */
static int64_t
surrogate_of(Worker *w, uint8_t *x, const uint8_t *same, int B, int64_t known,
             bool *unrepaired, bool *bound)
{
    int nrel = 0;
    *bound = false;
    bfco_regroup(w);
    *unrepaired = bfco_repair_point(w, x, &nrel) < 0;
    if (*unrepaired)
        return INT64_MAX;
    if (same && memcmp(x, same, (size_t)B) == 0)
        return known;
    Key k;
    int64_t L;
    bfco_key_of(w, x, false, &k);
    if (w->tables && bfco_cache_get(&w->sur, &k, &L))
        return L;
    bfco_greedy_pipes(w, w->gpipe);
    bfco_set_pipes(w, w->gpipe);
    L = bfco_eval_free(w);
    if (L == -2) {
        L = bfco_eval(w);
    } else if (w->csur && L >= 0) {
        /* the contended length only when its lower bound leaves it a chance */
        *bound = same && L >= known;
        if (!*bound)
            L = bfco_eval(w);
    }
    L = L < 0 ? INT64_MAX : L;
    if (w->tables && !*bound)
        bfco_cache_put(&w->sur, &k, L);
    return L;
}

/* The surrogate becomes the contended length (surrogate_of): the tables held the other
 * one. */
static void
surrogate_contended(Worker *w)
{
    w->csur = true;
    bfco_cache_free(&w->sur);
    memset(&w->sur, 0, sizeof w->sur);
    bfco_cache_free(&w->pre);
    memset(&w->pre, 0, sizeof w->pre);
    w->pre_n = 0;
    if (w->pre_bits)
        memset(w->pre_bits, 0,
               (size_t)w->pre_cap * ((w->sp->nbits + 63) / 64) * sizeof *w->pre_bits);
}

/* The most the table of inputs by partition (surrogate) holds of repaired bits: a
 * 256-point FFT's descent (3 412 messages, 49 152 moves, 1.7 KB of bits a partition)
 * filled 84 MB, doubling 168 MB at its peak; the 5000-task case's fits (about 15 000
 * partitions of 1.3 KB). */
#define PRE_TABLE_BYTES ((size_t)32 << 20)

/* surrogate_of; with w->tables, an input x whose partition (the groups its merge bits
 * make before the repair) was met before takes the repaired bits and the result from the
 * worker's table instead of a new repair: the repair and the surrogate are functions of
 * that partition (regroup numbers the groups by first member).  Moves that join the same
 * two groups through different bits meet the same partition, as does a move tried again
 * from the same point: at 100 tasks 362 of the 702 surrogates come from the table (keyed
 * by the bits themselves, 204), the 340 others each cost a repair and an evaluation.  At
 * 1000 tasks, where one pass does not fit in the budget and no move is tried twice, the
 * moves of a pass that join the same two groups still meet (opt_run 6.26 -> 6.00 billion
 * instructions; keyed by the bits, the table found nothing there and was off). */
static int64_t
surrogate(Worker *w, uint8_t *x, const uint8_t *same, int B, int64_t known)
{
    const Space *sp = w->sp;
    bool failed, bound;
    bfco_groups_from_bits(w, x);
    if (!w->tables)
        return surrogate_of(w, x, same, B, known, &failed, &bound);
    Key k;
    int64_t i;
    bfco_labels_key(w, &k);
    int W = (sp->nbits + 63) / 64;
    if (bfco_cache_get(&w->pre, &k, &i)) {
        const uint64_t *r = w->pre_bits + (size_t)i * W;
        int64_t L = w->pre_f[i];
        if (L == INT64_MIN) /* the repair failed: x as it was */
            return INT64_MAX;
        bool lower = L < 0; /* a lower bound b, held as -b - 2 */
        L = lower ? -L - 2 : L;
        if (!lower || (same && L >= known)) {
            for (int b = 0; b < sp->nbits; b++)
                x[b] = (r[b >> 6] >> (b & 63)) & 1;
            return same && memcmp(x, same, (size_t)B) == 0 ? known : L;
        }
        L = surrogate_of(w, x, same, B, known, &failed, &bound);
        w->pre_f[i] = bound ? -L - 2 : L;
        return L;
    }
    int64_t L = surrogate_of(w, x, same, B, known, &failed, &bound);
    if (w->pre_n == w->pre_cap) {
        int cap = w->pre_cap ? 2 * w->pre_cap : 256;
        if (w->pre_cap && (size_t)cap * W * sizeof(uint64_t) > PRE_TABLE_BYTES)
            return L; /* full: a partition met again is repaired again, the same result */
        uint64_t *nb = ir_xcalloc((size_t)cap * W + 1, sizeof *nb);
        int64_t *nf = ir_xcalloc((size_t)cap, sizeof *nf);
        if (w->pre_n) {
            memcpy(nb, w->pre_bits, (size_t)w->pre_n * W * sizeof *nb);
            memcpy(nf, w->pre_f, (size_t)w->pre_n * sizeof *nf);
        }
        free(w->pre_bits);
        free(w->pre_f);
        w->pre_bits = nb;
        w->pre_f = nf;
        w->pre_cap = cap;
    }
    i = w->pre_n++;
    uint64_t *r = w->pre_bits + (size_t)i * W;
    for (int b = 0; b < sp->nbits; b++)
        r[b >> 6] |= (uint64_t)x[b] << (b & 63);
    w->pre_f[i] = failed ? INT64_MIN : bound ? -L - 2 : L;
    bfco_cache_put(&w->pre, &k, i);
    return L;
}

/* A move of the descent: y (repaired by the surrogate) becomes the current point cur
 * when its surrogate is shorter than *S (then *S is y's).  *d gets the surrogate's change
 * (y's minus *S before the move).  True when it moved. */
static bool
keep_if_shorter(Worker *w, uint8_t *y, uint8_t *cur, int64_t *S, int B, int64_t *d)
{
    int64_t s = surrogate(w, y, cur, B, *S);
    *d = s == INT64_MAX ? INT64_MAX : s - *S;
    if (s >= *S)
        return false;
    *S = s;
    memcpy(cur, y, (size_t)B);
    return true;
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
has_gathers(const Space *sp)
{
    return sp->M > DESCENT_CONVERGE_MAX;
}

static int
descent_moves(const Space *sp)
{
    return sp->nbits + sp->M * (has_gathers(sp) ? 2 : 1);
}

/* Move m of the descent applied to y (a copy of the current point); false when it does
 * not apply (the bit is set, the unit is alone, every bit of the unit is set). */
static bool
apply_move(const Space *sp, uint8_t *y, int m)
{
    if (m < sp->nbits) {
        if (y[m])
            return false;
        y[m] = 1;
        return true;
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
    return !w->csur && w->evf && f != INT64_MAX && f - S - jd->gap0 > S / SURROGATE_GAP;
}

/* From now on the surrogate is the contended length (*S recomputed). */
static void
to_contended(Worker *w, uint8_t *cur, int64_t *S, int B)
{
    surrogate_contended(w);
    *S = surrogate(w, cur, NULL, B, 0);
}

/* Move mv[i] tried from cur (y: room for a copy); true when it was kept.  When jd
 * watches within the pass (jd->every > 0), the point is judged after every jd->every
 * moves. */
static bool
try_move(Worker *w, uint8_t *cur, uint8_t *y, int64_t *S, int B, Move *mv, int64_t *n,
         Judge *jd)
{
    memcpy(y, cur, (size_t)B);
    if (!apply_move(w->sp, y, mv->m))
        return false;
    (*n)++;
    ir_progress("bfco: descent, moves", *n, jd->lim); /* on a terminal, after 1 s */
    bool kept = keep_if_shorter(w, y, cur, S, B, &mv->d);
    if (jd->every > 0 && *n >= jd->next) {
        jd->next = *n + jd->every;
        if (gap_grown(w, cur, *S, B, jd)) {
            jd->every = 0;
            jd->grown = true;
            jd->lim = jd->reach;
        }
    }
    return kept;
}

/* The first pass when there are gathers (mv in its first order: joins, units, gathers):
 * the joins in bit order and the gathers in unit order in turn, the next move from the
 * kind whose moves were kept more often so far ((kept + 1) / (tried + 2), ties to the
 * joins), then the units, until *n reaches jd->lim or the time is up.  True when it
 * kept a move. */
static bool
first_pass_kinds(Worker *w, uint8_t *cur, uint8_t *y, int64_t *S, int B, Move *mv,
                 int64_t *n, Judge *jd)
{
    const Space *sp = w->sp;
    int nj = sp->nbits, nu = sp->M, end[2] = {nj, nj + 2 * nu}, at[2] = {0, nj + nu};
    int64_t tried[2] = {0, 0}, kept[2] = {0, 0};
    bool moved = false;
    while ((at[0] < end[0] || at[1] < end[1]) && *n < jd->lim && !out_of_time(w)) {
        int k = at[0] >= end[0] ? 1
                : at[1] >= end[1]
                    ? 0
                    : (kept[1] + 1) * (tried[0] + 2) > (kept[0] + 1) * (tried[1] + 2);
        int64_t n0 = *n;
        bool kk = try_move(w, cur, y, S, B, &mv[at[k]++], n, jd);
        tried[k] += *n - n0;
        kept[k] += kk;
        moved |= kk;
    }
    for (int i = nj; i < nj + nu && *n < jd->lim && !out_of_time(w); i++)
        moved |= try_move(w, cur, y, S, B, &mv[i], n, jd);
    return moved;
}

/* One pass: every move of mv in order from cur until *n reaches jd->lim or the time is
 * up, or with cut > 0 until nm / cut moves in a row (nm: the moves of a pass) kept
 * nothing; true when it kept one. */
static bool
one_pass(Worker *w, uint8_t *cur, uint8_t *y, int64_t *S, int B, Move *mv, int cut,
         int64_t *n, Judge *jd)
{
    bool moved = false;
    int nm = descent_moves(w->sp);
    int64_t since = 0; /* moves tried since the last one kept */
    for (int i = 0;
         i < nm && *n < jd->lim && !out_of_time(w) && (cut == 0 || since * cut < nm);
         i++) {
        int64_t n0 = *n;
        bool kept = try_move(w, cur, y, S, B, &mv[i], n, jd);
        moved |= kept;
        since = kept ? 0 : since + (*n - n0);
    }
    return moved;
}

/* The fitness of cur, which replaces x (fitness *F) when it is shorter. */
static int64_t
fitness_kept(Worker *w, uint8_t *cur, uint8_t *x, int64_t *F, int B, const BfcoParams *bp)
{
    Key k;
    int64_t f = bfco_fitness(w, cur, bp, NULL, &k, INT64_MAX);
    if (f < *F) {
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
 * the first pass is first_pass_kinds); each pass ends by sorting them by the surrogate's
 * change when they were last tried (the most promising first, ties by the first pass's
 * order). */
static bool
passes(Worker *w, uint8_t *cur, int64_t *S, int B, Move *mv, bool first,
       int64_t first_cap, int64_t budget, int64_t *n, uint8_t *x, int64_t *F,
       const BfcoParams *bp)
{
    const Space *sp = w->sp;
    uint8_t *y = ir_xcalloc((size_t)B + 1, 1);
    bool moved = true, go = true, cutting = false;
    bool track = x && (first_cap > 0 || sp->M > DESCENT_CONVERGE_MAX);
    int64_t nm = descent_moves(sp);
    Judge jd = {.x = x, .F = F, .bp = bp};
    /* on the contended length, the passes go on to a local optimum (CONTENDED_PASSES);
     * an explicit budget (first_cap 0) stays the reach */
    jd.reach =
        first_cap > 0 && CONTENDED_PASSES * nm > budget ? CONTENDED_PASSES * nm : budget;
    if (track && !w->csur && w->evf) {
        int64_t f = fitness_kept(w, cur, x, F, B, bp);
        jd.gap0 = f == INT64_MAX ? 0 : f - *S;
    }
    for (int pass = 0;
         moved && go && *n < (w->csur ? jd.reach : budget) && !out_of_time(w); pass++) {
        int64_t S0 = *S;
        bool free0 = !w->csur;
        jd.lim = w->csur ? jd.reach : budget;
        if (pass == 0 && free0 && first_cap > 0 && first_cap < budget - *n)
            jd.lim = *n + first_cap;
        /* a first pass with more moves than its cap may never reach its end: judged
         * after every budget of moves (fft256 on two boards: 4 019 messages, 23 534 moves
         * against a cap of 15 360) */
        jd.every = track && free0 && pass == 0 && first_cap > 0 && nm > jd.lim - *n
                       ? first_cap / DESCENT_FIRST_BUDGETS
                       : 0;
        jd.next = *n + jd.every;
        jd.grown = false;
        int cut = cutting && free0 ? DESCENT_CUT : 0;
        moved = pass == 0 && first && has_gathers(sp)
                    ? first_pass_kinds(w, cur, y, S, B, mv, n, &jd)
                    : one_pass(w, cur, y, S, B, mv, cut, n, &jd);
        qsort(mv, (size_t)nm, sizeof *mv, move_cmp);
        bool sw = jd.grown; /* the gap grew within the pass */
        if (first_cap > 0 && free0 && !sw) {
            go = S0 - *S >= S0 / (pass == 1 && cutting ? DESCENT_SECOND_GAIN
                                                       : DESCENT_PASS_GAIN) &&
                 (pass > 0 || *n < jd.lim);
            if (pass == 0)
                cutting = S0 - *S < S0 / DESCENT_FIRST_GAIN;
        }
        if (track && !sw && !(jd.every > 0 && jd.next - jd.every == *n)) /* not judged */
            sw = gap_grown(w, cur, *S, B, &jd);
        if (sw) { /* passes on the contended length follow, to a local optimum */
            to_contended(w, cur, S, B);
            go = true;
            moved = true;
        }
    }
    free(y);
    return !moved;
}

/* The kick of the iterated local search: `k` random moves applied to y (the best point;
 * a move that does not apply is drawn again, at most 4 k draws). */
static void
kick(const Space *sp, uint8_t *y, int k, uint64_t *rng)
{
    int nm = sp->nbits + sp->M;
    for (int done = 0, draws = 0; done < k && draws < 4 * k; draws++)
        done += apply_move(sp, y, (int)(urand(rng) * nm));
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
descend(Worker *w, uint8_t *x, int64_t F, const BfcoParams *bp, int B, int64_t budget,
        int64_t reach, int64_t first_cap, uint64_t *rng, int64_t *tried, bool *at_local)
{
    const Space *sp = w->sp;
    int nm = descent_moves(sp);
    uint8_t *cur = ir_xcalloc((size_t)B + 1, 1);
    Move *mv = ir_xcalloc((size_t)nm, sizeof *mv);
    for (int m = 0; m < nm; m++)
        mv[m] = (Move){0, m};
    memcpy(cur, x, (size_t)B);
    int64_t S = surrogate(w, cur, NULL, B, 0), n = 0;
    bool local = passes(w, cur, &S, B, mv, true, first_cap, reach, &n, x, &F, bp);
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
        S = surrogate(w, cur, NULL, B, 0);
        passes(w, cur, &S, B, mv, false, 0, budget, &n, NULL, NULL, bp);
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
            if (!apply_move(sp, y, m))
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

/* The first descent of a run starts from no merge (with gbest's joint bits; above
 * DESCENT_CONVERGE_MAX messages near_sends_start's point) before it starts from gbest:
 * that end point does not depend on the seed, and the descents from different gbests
 * end some percent apart (fft32), so this is what keeps the seeds together.  gb and the
 * result as descend's; *at_local: gb is now that end point and a local optimum. */
static int64_t
descend_from_none(Worker *w, uint8_t *gb, int64_t gbf, const BfcoParams *bp, int B,
                  int64_t budget, const Reach *r, uint64_t *rng, int64_t *tried,
                  bool *at_local)
{
    bool local = false;
    uint8_t *z = ir_xcalloc((size_t)B + 1, 1);
    memcpy(z, gb, (size_t)B);
    memset(z, 0, (size_t)w->sp->nbits);
    if (w->sp->M > DESCENT_CONVERGE_MAX)
        near_sends_start(w, z, bp, B);
    int64_t fz = descend(w, z, INT64_MAX - 1, bp, B, budget - *tried, r->moves - *tried,
                         r->first_cap, rng, tried, &local);
    if (fz < gbf) {
        gbf = fz;
        memcpy(gb, z, (size_t)B);
        *at_local = local;
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
    int64_t pass = descent_moves(sp);
    if (bp->descent_budget >= 0)
        return (Reach){budget, 0};
    if (pass > budget && sp->M > DESCENT_CONVERGE_MAX)
        return (Reach){DESCENT_REACH_BUDGETS * budget, DESCENT_FIRST_BUDGETS * budget};
    return (Reach){16 * pass > budget ? 16 * pass : budget, 0};
}

/* The descent at a stall or at the end (docs/bfco.md, "Descent"), from gbest (gb, gbf)
 * after `gen` generations; the first one of a run (first) also from no merge.  When
 * that end point is gbest and a local optimum, the descent from gbest would only
 * confirm it: without kicks it does not run.  Returns gbest's fitness. */
int64_t
bfco_descent(Worker *w, uint8_t *gb, int64_t gbf, const BfcoParams *bp, int B, int P,
             int gen, bool first, uint64_t *rng, int64_t *tried)
{
    int64_t budget = descent_budget(bp, P, gen);
    Reach r = descent_reach(bp, w->sp, budget);
    bool at_local = false;
    if (first && *tried < budget)
        gbf = descend_from_none(w, gb, gbf, bp, B, budget, &r, rng, tried, &at_local);
    if (*tried < budget && !(at_local && bp->kicks == 0))
        gbf = descend(w, gb, gbf, bp, B, budget - *tried, r.moves - *tried, r.first_cap,
                      rng, tried, NULL);
    return gbf;
}
