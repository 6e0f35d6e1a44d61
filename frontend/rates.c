/*
 * frontend/rates.c - the rates of a multi-rate graph (synchronous dataflow,
 * docs/formats.md "Multi-rate graphs"): the repetition vector, the consistency of the
 * rates, the initial tokens, and the SDF deadlock check.  Called by fe_check.
 *
 * Requires: a graph whose edges join existing tasks and whose rates and tokens are in
 * range (fe_check's edge checks found nothing).  The repetition vector q is the smallest
 * positive integer solution of q[from] x produce = q[to] x consume over every edge, per
 * connected component, found by a breadth-first walk that gives each task its firings
 * relative to the component's first task as a fraction in lowest terms, then scales the
 * fractions by the least common multiple of their denominators.  Every product is
 * checked: a numerator or denominator that does not fit in 64 bits means that a firing
 * count of the true solution does not (the reduced fraction q[v] / q[root] has q[v]'s
 * divisor as numerator and q[root]'s as denominator), so overflow is reported as such and
 * never wrapped.
 *
 * The deadlock check runs one iteration symbolically: an actor fires, as many times at
 * once as its input tokens allow, until every actor has fired q times or none can fire.
 * An actor that cannot has an input channel short of tokens whose producer cannot fire
 * either (a producer that fired all its q firings left enough for every remaining firing
 * of the consumer), so following the short channels from any blocked actor closes a cycle
 * of blocked actors: the cycle the message names.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* Tokens of one iteration of a channel, and initial tokens, at most 2^61 each, so that
 * what a channel holds (at most both) fits in 63 bits. */
#define MAX_PER_ITERATION (INT64_C(1) << 61)

typedef struct Frac {
    int64_t n, d; /* in lowest terms, both >= 1 */
} Frac;

/* q x num / den in lowest terms; false when it does not fit in 64 bits. */
static bool
frac_scale(Frac q, int64_t num, int64_t den, Frac *out)
{
    int64_t g = ir_gcd64(num, den);
    num /= g;
    den /= g;
    int64_t g1 = ir_gcd64(q.n, den), g2 = ir_gcd64(num, q.d);
    int64_t n, d;
    if (__builtin_mul_overflow(q.n / g1, num / g2, &n) ||
        __builtin_mul_overflow(q.d / g2, den / g1, &d))
        return false;
    *out = (Frac){n, d};
    return true;
}

static Loc
edge_at(Reader *r, int e, const char *field)
{
    return fe_loc(r, arena_printf(r->tmp, "/edges/%d%s", e, field ? field : ""));
}

static Loc
task_at(Reader *r, int t)
{
    return fe_loc(r, arena_printf(r->tmp, "/tasks/%d", t));
}

/* "/edges/3 a -> b (produce 2, consume 1)" in r->tmp, for a message located at `at`. */
static const char *
channel_text(Reader *r, const Loc *at, const Graph *g, int e)
{
    const Edge *x = &g->edges[e];
    return arena_printf(r->tmp, "%s %s -> %s (produce %" PRId64 ", consume %" PRId64 ")",
                        fe_ref(r, at, "edges", e), g->tasks[x->from].id,
                        g->tasks[x->to].id, x->produce, x->consume);
}

/* "3 : 2" for the firings of a and b, whose ratio a / b is f. */
static const char *
ratio_text(Reader *r, Frac f)
{
    return arena_printf(r->tmp, "%" PRId64 " : %" PRId64, f.n, f.d);
}

/* The fraction q[b] / q[a] as the walk knows them (both relative to the root). */
static bool
relative(Frac qa, Frac qb, Frac *out)
{
    /* (qb.n / qb.d) / (qa.n / qa.d) = qb.n qa.d / (qb.d qa.n) */
    Frac one = {qb.n, qb.d};
    return frac_scale(one, qa.d, qa.n, out);
}

/* The tree path between a and b (parent edges of the walk), with the firings it gives
 * b per firing of a; reports the inconsistency of edge e, which joins a and b. */
static void
report_inconsistent(Reader *r, const Graph *g, const int *parent, const int *depth,
                    const Frac *q, int e, int a, int b)
{
    const Edge *x = &g->edges[e];
    /* the path a -> ... -> lca <- ... <- b as edges, in order from a to b */
    int n = g->ntasks;
    int *up_a = malloc(((size_t)n + 1) * sizeof *up_a);
    int *up_b = malloc(((size_t)n + 1) * sizeof *up_b);
    if (!up_a || !up_b)
        ice("out of memory");
    int na = 0, nb = 0, u = a, v = b;
    while (depth[u] > depth[v]) {
        up_a[na++] = parent[u];
        const Edge *p = &g->edges[parent[u]];
        u = p->from == u ? p->to : p->from;
    }
    while (depth[v] > depth[u]) {
        up_b[nb++] = parent[v];
        const Edge *p = &g->edges[parent[v]];
        v = p->from == v ? p->to : p->from;
    }
    while (u != v) {
        up_a[na++] = parent[u];
        const Edge *p = &g->edges[parent[u]];
        u = p->from == u ? p->to : p->from;
        up_b[nb++] = parent[v];
        p = &g->edges[parent[v]];
        v = p->from == v ? p->to : p->from;
    }
    /* the path as "a -> c <- b" and its channels */
    Loc l = edge_at(r, e, NULL);
    FeBuf path = {0}, chans = {0};
    int cur = a;
    fe_buf_add(&path, g->tasks[a].id);
    for (int k = 0; k < na + nb; k++) {
        int pe = k < na ? up_a[k] : up_b[nb - 1 - (k - na)];
        const Edge *p = &g->edges[pe];
        bool fwd = p->from == cur;
        cur = fwd ? p->to : p->from;
        fe_buf_add(&path, fwd ? " -> " : " <- ");
        fe_buf_add(&path, g->tasks[cur].id);
        fe_buf_add(&chans, k ? ", " : "");
        fe_buf_add(&chans, channel_text(r, &l, g, pe));
    }
    Frac by_path = {1, 1}, by_edge = {1, 1};
    /* q[to] / q[from]: produce / consume by the edge, the walk's fractions by the path */
    bool fits = relative(q[x->from], q[x->to], &by_path);
    Frac one = {1, 1};
    frac_scale(one, x->produce, x->consume, &by_edge);
    diag_error(
        r->d, &l,
        "inconsistent rates: channel %s gives the firings of \"%s\" and \"%s\" the "
        "ratio %s, but the path %s of channels %s gives %s: no repetition vector "
        "balances this cycle of channels",
        channel_text(r, &l, g, e), g->tasks[x->from].id, g->tasks[x->to].id,
        ratio_text(r, (Frac){by_edge.d, by_edge.n}), path.s, chans.s,
        fits ? ratio_text(r, (Frac){by_path.d, by_path.n}) : "a ratio beyond 64 bits");
    free(path.s);
    free(chans.s);
    free(up_a);
    free(up_b);
}

static void
report_overflow(Reader *r, const Graph *g, const Loc *l, int t)
{
    diag_error(r->d, l,
               "the rates overflow the repetition vector: \"%s\" would fire more than "
               "%" PRId64 " times per iteration",
               g->tasks[t].id, INT64_MAX);
}

/* The expansion names firing k of an actor a that fires q > 1 times "a[k]"; an actor that
 * fires once keeps its id, which must not be one of those names. */
static void
check_names(Reader *r, const Graph *g)
{
    FeIdMap ids;
    fe_idmap_init(&ids, g);
    for (int b = 0; b < g->ntasks; b++) {
        const char *id = g->tasks[b].id;
        size_t n = strlen(id);
        const char *open = strrchr(id, '[');
        if (g->repetitions[b] != 1 || n < 4 || id[n - 1] != ']' || !open || open == id)
            continue;
        int64_t k = 0;
        bool digits = open + 2 < id + n && (open[1] != '0' || open + 2 == id + n - 1);
        for (const char *c = open + 1; digits && c < id + n - 1; c++) {
            digits = *c >= '0' && *c <= '9' && k < INT64_MAX / 10;
            k = k * 10 + (*c - '0');
        }
        if (!digits)
            continue;
        char *prefix = arena_strndup(r->tmp, id, (size_t)(open - id));
        int a = fe_idmap_find(&ids, prefix);
        if (a < 0 || g->repetitions[a] <= k)
            continue;
        Loc l = fe_loc(r, arena_printf(r->tmp, "/tasks/%d/id", b));
        diag_error(r->d, &l,
                   "task id \"%s\" is the name the expansion gives firing %" PRId64
                   " of task \"%s\" (%s, %" PRId64 " firings per iteration): rename one",
                   id, k, prefix, fe_ref(r, &l, "tasks", a), g->repetitions[a]);
    }
    fe_idmap_free(&ids);
}

int
fe_rates(Reader *r, Graph *g)
{
    int e0 = diag_errors(r->d);
    int n = g->ntasks, m = g->nedges;
    bool multirate = false;
    for (int e = 0; e < m; e++) {
        Edge *x = &g->edges[e];
        if (x->produce <= 0)
            x->produce = 1;
        if (x->consume <= 0)
            x->consume = 1;
        multirate |= x->produce != 1 || x->consume != 1;
    }
    g->multirate = multirate;
    g->repetitions = arena_array(g->arena, (size_t)n + 1, sizeof *g->repetitions);
    if (!multirate) { /* every actor fires once; tokens are the delay */
        for (int t = 0; t < n; t++)
            g->repetitions[t] = 1;
        g->firings = n;
        for (int e = 0; e < m; e++) {
            Edge *x = &g->edges[e];
            if (x->delay > 0)
                x->tokens = x->delay;
            else if (x->tokens > FE_MAX_DELAY) {
                Loc l = edge_at(r, e, "/tokens");
                diag_error(r->d, &l,
                           "%" PRId64 " initial tokens delay this single-rate channel by "
                           "as many iterations, more than the limit of %d",
                           x->tokens, FE_MAX_DELAY);
            } else
                x->delay = (int)x->tokens;
        }
        return diag_errors(r->d) - e0;
    }

    /* incidences in CSR form, each task's in edge order (a self edge once) */
    int *off = calloc((size_t)n + 2, sizeof *off),
        *inc = malloc(2 * ((size_t)m + 1) * sizeof *inc);
    Frac *q = calloc((size_t)n + 1, sizeof *q);
    int *parent = malloc(((size_t)n + 1) * sizeof *parent);
    int *depth = malloc(((size_t)n + 1) * sizeof *depth);
    int *queue = malloc(((size_t)n + 1) * sizeof *queue);
    bool *seen = calloc((size_t)n + 1, 1), *checked = calloc((size_t)m + 1, 1);
    if (!off || !inc || !q || !parent || !depth || !queue || !seen || !checked)
        ice("out of memory");
    for (int e = 0; e < m; e++) {
        off[g->edges[e].from + 1]++;
        if (g->edges[e].to != g->edges[e].from)
            off[g->edges[e].to + 1]++;
    }
    for (int t = 0; t < n; t++)
        off[t + 1] += off[t];
    int *fill = ir_xmemdup(off, ((size_t)n + 1) * sizeof *off);
    for (int e = 0; e < m; e++) {
        inc[fill[g->edges[e].from]++] = e;
        if (g->edges[e].to != g->edges[e].from)
            inc[fill[g->edges[e].to]++] = e;
    }
    free(fill);

    for (int root = 0; root < n; root++) {
        if (seen[root])
            continue;
        int head = 0, tail = 0;
        bool bad = false;
        seen[root] = true;
        q[root] = (Frac){1, 1};
        parent[root] = -1;
        depth[root] = 0;
        queue[tail++] = root;
        while (head < tail) {
            int u = queue[head++];
            for (int k = off[u]; k < off[u + 1]; k++) {
                int e = inc[k];
                const Edge *x = &g->edges[e];
                if (x->from == x->to) {
                    if (!checked[e] && x->produce != x->consume && !bad) {
                        Loc l = edge_at(r, e, NULL);
                        diag_error(r->d, &l,
                                   "inconsistent rates: channel %s from \"%s\" to itself "
                                   "must consume what it produces per firing",
                                   channel_text(r, &l, g, e), g->tasks[u].id);
                        bad = true;
                    }
                    checked[e] = true;
                    continue;
                }
                int w = x->from == u ? x->to : x->from;
                Frac cand;
                bool fits = x->from == u
                                ? frac_scale(q[u], x->produce, x->consume, &cand)
                                : frac_scale(q[u], x->consume, x->produce, &cand);
                if (!seen[w]) {
                    seen[w] = true;
                    parent[w] = e;
                    depth[w] = depth[u] + 1;
                    queue[tail++] = w;
                    checked[e] = true;
                    if (!fits && !bad) {
                        Loc l = edge_at(r, e, NULL);
                        report_overflow(r, g, &l, w);
                        bad = true;
                    }
                    q[w] = fits ? cand : (Frac){1, 1};
                    continue;
                }
                if (checked[e])
                    continue;
                checked[e] = true;
                if (!bad && (!fits || cand.n != q[w].n || cand.d != q[w].d)) {
                    report_inconsistent(r, g, parent, depth, q, e, x->from, x->to);
                    bad = true;
                }
            }
        }
        if (bad)
            continue;
        /* scale by the least common multiple of the denominators */
        int64_t lcm = 1;
        for (int k = 0; k < tail && !bad; k++) {
            int64_t dd = q[queue[k]].d, gg = ir_gcd64(lcm, dd);
            if (__builtin_mul_overflow(lcm / gg, dd, &lcm)) {
                Loc l = task_at(r, root);
                report_overflow(r, g, &l, root);
                bad = true;
            }
        }
        for (int k = 0; k < tail && !bad; k++) {
            int v = queue[k];
            if (__builtin_mul_overflow(q[v].n, lcm / q[v].d, &g->repetitions[v])) {
                Loc l = task_at(r, v);
                report_overflow(r, g, &l, v);
                bad = true;
            }
        }
    }
    free(off);
    free(inc);
    free(q);
    free(parent);
    free(depth);
    free(queue);
    free(seen);
    free(checked);
    if (diag_errors(r->d) != e0)
        return diag_errors(r->d) - e0;

    check_names(r, g);
    /* the firings, the tokens per iteration of each channel, the initial tokens */
    int64_t total = 0;
    for (int t = 0; t < n; t++)
        total = ir_add_sat(total, g->repetitions[t]);
    g->firings = total;
    for (int e = 0; e < m; e++) {
        Edge *x = &g->edges[e];
        int64_t per;
        if (__builtin_mul_overflow(g->repetitions[x->from], x->produce, &per) ||
            per > MAX_PER_ITERATION) {
            Loc l = edge_at(r, e, NULL);
            diag_error(r->d, &l, "channel %s moves more than 2^61 tokens per iteration",
                       channel_text(r, &l, g, e));
            continue;
        }
        if (x->delay > 0) {
            int64_t tk;
            if (__builtin_mul_overflow((int64_t)x->delay, per, &tk) ||
                tk > MAX_PER_ITERATION) {
                Loc l = edge_at(r, e, "/delay");
                diag_error(r->d, &l,
                           "a delay of %d iterations of %" PRId64
                           " tokens each is more than 2^61 initial tokens",
                           x->delay, per);
                continue;
            }
            x->tokens = tk;
            x->delay = 0;
        }
        /* the furthest a token reaches: a firing's last token, shifted by the initial
           tokens, that many whole iterations of the channel later */
        int64_t lag = (x->tokens + per - 1) / per;
        if (lag > FE_MAX_DELAY) {
            Loc l = edge_at(r, e, "/tokens");
            diag_error(r->d, &l,
                       "%" PRId64 " initial tokens delay channel %s by up to %" PRId64
                       " iterations (%" PRId64 " tokens each), more than the limit of %d",
                       x->tokens, channel_text(r, &l, g, e), lag, per, FE_MAX_DELAY);
        }
    }
    return diag_errors(r->d) - e0;
}

/* ---- the SDF deadlock check ----------------------------------------------------------
 */

int
fe_deadlock(Reader *r, const Graph *g)
{
    int n = g->ntasks, m = g->nedges;
    int64_t *tok = malloc(((size_t)m + 1) * sizeof *tok);
    int64_t *fired = calloc((size_t)n + 1, sizeof *fired);
    int *work = malloc(((size_t)n + 1) * sizeof *work);
    bool *queued = calloc((size_t)n + 1, 1);
    if (!tok || !fired || !work || !queued)
        ice("out of memory");
    if (!g->succ_off)
        ice("fe_deadlock needs the graph's adjacency (ir_graph_index)");
    for (int e = 0; e < m; e++)
        tok[e] = g->edges[e].tokens;
    /* a ring of the actors to try, each at most once in it */
    int head = 0, count = 0;
    for (int t = 0; t < n; t++) {
        work[count++] = t;
        queued[t] = true;
    }
    while (count > 0) {
        int a = work[head];
        head = (head + 1) % n;
        count--;
        queued[a] = false;
        int64_t k = g->repetitions[a] - fired[a];
        for (int j = g->pred_off[a]; j < g->pred_off[a + 1] && k > 0; j++) {
            const Edge *x = &g->edges[g->pred[j]];
            int64_t can = tok[g->pred[j]] / x->consume;
            if (x->from == a) /* it gives back what it takes */
                can = can > 0 ? k : 0;
            if (can < k)
                k = can;
        }
        if (k <= 0)
            continue;
        fired[a] += k;
        for (int j = g->pred_off[a]; j < g->pred_off[a + 1]; j++)
            if (g->edges[g->pred[j]].from != a)
                tok[g->pred[j]] -= k * g->edges[g->pred[j]].consume;
        for (int j = g->succ_off[a]; j < g->succ_off[a + 1]; j++) {
            const Edge *x = &g->edges[g->succ[j]];
            if (x->to == a)
                continue;
            tok[g->succ[j]] += k * x->produce;
            if (!queued[x->to] && fired[x->to] < g->repetitions[x->to]) {
                work[(head + count) % n] = x->to;
                count++;
                queued[x->to] = true;
            }
        }
    }
    /* the first blocked actor, and the short channels back from it */
    int start = -1;
    for (int t = 0; t < n && start < 0; t++)
        if (fired[t] < g->repetitions[t])
            start = t;
    int rc = 0;
    if (start >= 0) {
        int *step = malloc(((size_t)n + 1) * sizeof *step); /* the short channel into t */
        int *mark = calloc((size_t)n + 1, sizeof *mark);
        if (!step || !mark)
            ice("out of memory");
        int a = start;
        while (!mark[a]) {
            mark[a] = 1;
            int via = -1;
            for (int j = g->pred_off[a]; j < g->pred_off[a + 1] && via < 0; j++) {
                const Edge *x = &g->edges[g->pred[j]];
                if (tok[g->pred[j]] < x->consume &&
                    fired[x->from] < g->repetitions[x->from])
                    via = g->pred[j];
            }
            if (via < 0)
                ice("blocked actor \"%s\" without a short input", g->tasks[a].id);
            step[a] = via;
            a = g->edges[via].from;
        }
        /* the cycle: from a back through step[], printed in the direction of the data,
           starting at its lowest task */
        int len = 0, low = a;
        for (int b = a;;) {
            len++;
            if (b < low)
                low = b;
            b = g->edges[step[b]].from;
            if (b == a)
                break;
        }
        int *cyc = malloc(((size_t)len + 1) * sizeof *cyc); /* tasks in data order */
        if (!cyc)
            ice("out of memory");
        cyc[0] = low;
        int b = g->edges[step[low]].from;
        for (int k = len - 1; k >= 1; k--) { /* walking back against the data */
            cyc[k] = b;
            b = g->edges[step[b]].from;
        }
        FeBuf names = {0}, detail = {0};
        for (int k = 0; k < len; k++) {
            fe_buf_add(&names, g->tasks[cyc[k]].id);
            fe_buf_add(&names, " -> ");
        }
        fe_buf_add(&names, g->tasks[cyc[0]].id);
        int first_edge = -1;
        for (int k = 0; k < len; k++) {
            int e = step[cyc[(k + 1) % len]];
            if (first_edge < 0 || e < first_edge)
                first_edge = e;
        }
        Loc l = edge_at(r, first_edge, NULL);
        for (int k = 0; k < len; k++) {
            int c = cyc[(k + 1) % len], e = step[c];
            const Edge *x = &g->edges[e];
            fe_buf_add(&detail, k ? "; " : "");
            fe_buf_add(
                &detail,
                arena_printf(r->tmp,
                             "%s %s -> %s holds %" PRId64
                             " initial token%s, a firing of \"%s\" consumes %" PRId64,
                             fe_ref(r, &l, "edges", e), g->tasks[x->from].id,
                             g->tasks[x->to].id, x->tokens, x->tokens == 1 ? "" : "s",
                             g->tasks[c].id, x->consume));
        }
        diag_error(r->d, &l,
                   "SDF deadlock: the cycle %s cannot complete an iteration with its "
                   "initial tokens (%s): give its channels more \"tokens\"",
                   names.s, detail.s);
        free(names.s);
        free(detail.s);
        free(cyc);
        free(step);
        free(mark);
        rc = 1;
    }
    free(tok);
    free(fired);
    free(work);
    free(queued);
    return rc;
}
