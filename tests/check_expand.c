/* tests/check_expand.c - multi-rate graphs (frontend/rates.c, frontend/expand.c): the
 * repetition vector against its definition, the SDF deadlock check against a firing by
 * firing simulation, and the expansion against the FIFO semantics of a channel, token by
 * token, on random graphs; the pass in place; the identity on single-rate graphs. */
#include <check.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "ir.h"

static Options
opts(void)
{
    Options o = {.limits = ir_default_limits()};
    return o;
}

static char diag_buf[16384];

static Graph *
load(const char *text)
{
    Options o = opts();
    Diag *d = diag_new();
    Graph *g = fe_load_graph_string(text, "g.json", &o, d);
    snprintf(diag_buf, sizeof diag_buf, "%s", diag_text(d));
    diag_free(d);
    return g;
}

static uint64_t rng;

/* A growing string. */
typedef struct Text {
    char s[65536];
    size_t n;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    t->n += (size_t)vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    ck_assert(t->n < sizeof t->s);
}

/* A random multi-rate graph: n actors, a repetition vector drawn first (so the rates
 * balance), channels forward and back with random initial tokens (which may deadlock
 * unless `live`: then a back channel has a whole iteration of tokens or more), parallel
 * channels, channels to the actor itself; bytes 1..3 a token (so a run's tokens are its
 * bytes over the token size). */
static void
random_sdf(Text *t, bool live, int *nactors)
{
    int n = (int)ir_rand_range(&rng, 1, 7);
    int64_t q[8];
    put(t, "{\"format\": \"tgc-graph/1\", \"iterations\": %d, \"tasks\": [",
        (int)ir_rand_range(&rng, 1, 4));
    for (int a = 0; a < n; a++) {
        q[a] = ir_rand_range(&rng, 1, 5);
        put(t, "%s{\"id\": \"a%d\", \"cycles\": %d}", a ? ", " : "", a,
            (int)ir_rand_range(&rng, 0, 100));
    }
    put(t, "], \"edges\": [");
    int m = (int)ir_rand_range(&rng, 0, 9);
    for (int e = 0; e < m; e++) {
        int f = (int)ir_rand_range(&rng, 0, n - 1),
            to = (int)ir_rand_range(&rng, 0, n - 1);
        int64_t g = ir_gcd64(q[f], q[to]), k = ir_rand_range(&rng, 1, 3);
        int64_t p = q[to] / g * k, c = q[f] / g * k, per = q[f] * p;
        int64_t tokens = ir_rand_range(&rng, 0, 2) ? 0 : ir_rand_range(&rng, 0, 2 * per);
        if (f == to)
            tokens =
                live ? c + ir_rand_range(&rng, 0, 2 * c) : ir_rand_range(&rng, 0, 2 * c);
        else if (f > to && live)
            tokens = per * ir_rand_range(&rng, 1, 2) + ir_rand_range(&rng, 0, per);
        put(t,
            "%s{\"from\": \"a%d\", \"to\": \"a%d\", \"bytes\": %d, \"produce\": %" PRId64
            ", \"consume\": %" PRId64 ", \"tokens\": %" PRId64 "}",
            e ? ", " : "", f, to, (int)ir_rand_range(&rng, 1, 3), p, c, tokens);
        if (f == to && tokens == 0) /* a self edge without tokens is another error */
            t->n -= 2, put(t, "1}");
    }
    put(t, "]}");
    *nactors = n;
}

/* The firings of one iteration one at a time, any actor that can, until none can: true
 * when every actor fired its q times (no deadlock). */
static bool
iteration_completes(const Graph *g)
{
    int64_t tok[64], fired[16] = {0};
    for (int e = 0; e < g->nedges; e++)
        tok[e] = g->edges[e].tokens;
    for (bool progress = true; progress;) {
        progress = false;
        for (int a = 0; a < g->ntasks; a++) {
            bool can = fired[a] < g->repetitions[a];
            for (int e = 0; e < g->nedges && can; e++)
                can = g->edges[e].to != a || tok[e] >= g->edges[e].consume;
            if (!can)
                continue;
            for (int e = 0; e < g->nedges; e++) {
                if (g->edges[e].to == a)
                    tok[e] -= g->edges[e].consume;
                if (g->edges[e].from == a)
                    tok[e] += g->edges[e].produce;
            }
            fired[a]++;
            progress = true;
        }
    }
    for (int a = 0; a < g->ntasks; a++)
        if (fired[a] < g->repetitions[a])
            return false;
    return true;
}

TEST_CASE("expand", 0)

TEST(repetition_vector_is_the_smallest_solution)
{
    static const char *const cases[][2] = {
        {"{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", \"cycles\": 1}, "
         "{\"id\": "
         "\"b\", \"cycles\": 1}], \"edges\": [{\"from\": \"a\", \"to\": \"b\", "
         "\"produce\": "
         "4, \"consume\": 6}]}",
         "3 2"},
        /* CD to DAT in the shape of SDF3's sample-rate converter: 147 : 160 */
        {"{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", \"cycles\": 1}, "
         "{\"id\": "
         "\"b\", \"cycles\": 1}, {\"id\": \"c\", \"cycles\": 1}, {\"id\": \"d\", "
         "\"cycles\": "
         "1}, {\"id\": \"e\", \"cycles\": 1}, {\"id\": \"f\", \"cycles\": 1}], "
         "\"edges\": ["
         "{\"from\": \"a\", \"to\": \"b\", \"produce\": 1, \"consume\": 1},"
         "{\"from\": \"b\", \"to\": \"c\", \"produce\": 2, \"consume\": 3},"
         "{\"from\": \"c\", \"to\": \"d\", \"produce\": 2, \"consume\": 7},"
         "{\"from\": \"d\", \"to\": \"e\", \"produce\": 8, \"consume\": 7},"
         "{\"from\": \"e\", \"to\": \"f\", \"produce\": 5, \"consume\": 1}]}",
         "147 147 98 28 32 160"},
        /* two components, each its own smallest; a lone actor fires once */
        {"{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", \"cycles\": 1}, "
         "{\"id\": "
         "\"b\", \"cycles\": 1}, {\"id\": \"c\", \"cycles\": 1}, {\"id\": \"d\", "
         "\"cycles\": "
         "1}, {\"id\": \"e\", \"cycles\": 1}], \"edges\": [{\"from\": \"a\", \"to\": "
         "\"b\", "
         "\"produce\": 2, \"consume\": 2}, {\"from\": \"d\", \"to\": \"c\", \"produce\": "
         "1, "
         "\"consume\": 3}]}",
         "1 1 1 3 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Graph *g = load(cases[i][0]);
        ck_assert_msg(g, "%s", diag_buf);
        char got[256] = "";
        for (int t = 0; t < g->ntasks; t++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%" PRId64,
                     t ? " " : "", g->repetitions[t]);
        ck_assert_str_eq(got, cases[i][1]);
        ck_assert(g->multirate);
        ir_graph_free(g);
    }
}
END_TEST

/* On random consistent graphs: the balance equations hold and the vector of each
 * connected component has no common divisor; fe_check refuses exactly the graphs whose
 * iteration cannot complete, and then with an SDF deadlock. */
TEST(random_graphs_balance_and_deadlocks_are_found)
{
    rng = 31;
    int refused = 0, accepted = 0;
    for (int k = 0; k < 400; k++) {
        Text t = {.n = 0};
        int n;
        random_sdf(&t, k % 2 == 0, &n);
        Graph *g = load(t.s);
        if (!g) {
            ck_assert_msg(strstr(diag_buf, "error: SDF deadlock: the cycle ") ||
                              strstr(diag_buf, "error: cycle of zero-delay edges: "),
                          "graph %d: %s\n%s", k, t.s, diag_buf);
            ck_assert_msg(k % 2 == 1, "a live graph refused: %s\n%s", t.s, diag_buf);
            refused++;
            continue;
        }
        accepted++;
        for (int e = 0; e < g->nedges; e++) {
            const Edge *x = &g->edges[e];
            ck_assert_int_eq(g->repetitions[x->from] * x->produce,
                             g->repetitions[x->to] * x->consume);
        }
        /* components by union-find; the gcd of each one's firings is 1 */
        int comp[16];
        for (int a = 0; a < n; a++)
            comp[a] = a;
        for (int e = 0; e < g->nedges; e++) {
            int a = g->edges[e].from, b = g->edges[e].to;
            while (comp[a] != a)
                a = comp[a];
            while (comp[b] != b)
                b = comp[b];
            comp[a] = b;
        }
        for (int a = 0; a < n; a++) {
            int r = a;
            while (comp[r] != r)
                r = comp[r];
            int64_t gg = 0;
            for (int b = 0; b < n; b++) {
                int s = b;
                while (comp[s] != s)
                    s = comp[s];
                if (s == r)
                    gg = ir_gcd64(gg, g->repetitions[b]);
            }
            ck_assert_int_eq(gg, 1);
        }
        if (g->multirate)
            ck_assert_msg(iteration_completes(g), "accepted with a deadlock: %s", t.s);
        ir_graph_free(g);
    }
    /* both outcomes happen often enough to mean something */
    ck_assert_int_gt(refused, 20);
    ck_assert_int_gt(accepted, 200);
}
END_TEST

/* Every token of every channel, over several iterations: the edge of the expansion that
 * carries it joins the firing that writes it (at its place in that firing's port) to the
 * firing that reads it (at its place there), `lag` iterations later, as FIFO order with
 * the initial tokens first says; each token of each port in exactly one edge. */
TEST(expansion_carries_every_token_where_fifo_order_says)
{
    rng = 77;
    int checked = 0;
    for (int k = 0; k < 300; k++) {
        Text t = {.n = 0};
        int n;
        random_sdf(&t, true, &n);
        Graph *g = load(t.s);
        ck_assert_msg(g, "%s\n%s", t.s, diag_buf);
        if (!g->multirate) {
            ir_graph_free(g);
            continue;
        }
        Graph *x = fe_expand(g);
        ck_assert_int_eq(x->ntasks, g->firings);
        ck_assert_ptr_nonnull(x->topo); /* zero-delay edges: a DAG */
        int64_t base[16], b = 0;
        for (int a = 0; a < n; a++) {
            base[a] = b;
            b += g->repetitions[a];
            for (int64_t f = 0; f < g->repetitions[a]; f++) {
                const Task *task = &x->tasks[base[a] + f];
                ck_assert_int_eq(x->firing[base[a] + f].index, f);
                ck_assert_int_eq(x->firing[base[a] + f].count, g->repetitions[a]);
                ck_assert_int_eq(task->cycles[0], g->tasks[a].cycles[0]);
                char id[64];
                if (g->repetitions[a] > 1)
                    snprintf(id, sizeof id, "a%d[%" PRId64 "]", a, f);
                else
                    snprintf(id, sizeof id, "a%d", a);
                ck_assert_str_eq(task->id, id);
            }
        }
        /* per channel: the tokens of one iteration of the producer, and of the consumer
         */
        for (int c = 0; c < g->nedges; c++) {
            const Edge *ch = &g->edges[c];
            int64_t per = g->repetitions[ch->from] * ch->produce;
            int out_port = 0, in_port = 0;
            for (int e = 0; e < c; e++) {
                out_port += g->edges[e].from == ch->from;
                in_port += g->edges[e].to == ch->to;
            }
            char *wrote = calloc((size_t)per, 1), *read = calloc((size_t)per, 1);
            for (int e = 0; e < x->nedges; e++) {
                const Edge *r = &x->edges[e];
                const EdgePort *p = &x->ports[e];
                int pf = r->from, cf = r->to;
                if (pf < base[ch->from] ||
                    pf >= base[ch->from] + g->repetitions[ch->from] ||
                    cf < base[ch->to] || cf >= base[ch->to] + g->repetitions[ch->to] ||
                    p->from_port != out_port || p->to_port != in_port)
                    continue; /* another channel's */
                ck_assert_int_eq(r->bytes % ch->bytes, 0);
                ck_assert_int_eq(p->from_off % ch->bytes, 0);
                ck_assert_int_eq(p->to_off % ch->bytes, 0);
                int64_t i = pf - base[ch->from], j = cf - base[ch->to];
                for (int64_t tk = 0; tk < r->bytes / ch->bytes; tk++) {
                    int64_t o = p->from_off / ch->bytes + tk,
                            oc = p->to_off / ch->bytes + tk;
                    ck_assert_int_lt(o, ch->produce);
                    ck_assert_int_lt(oc, ch->consume);
                    /* producer's token x of iteration 0 is the consumer's stream token
                       x + tokens: its firing j, place oc, in iteration lag */
                    int64_t xs = i * ch->produce + o;
                    int64_t ys = r->delay * per + j * ch->consume + oc;
                    ck_assert_msg(ys == xs + ch->tokens, "%s\nchannel %d edge %d", t.s, c,
                                  e);
                    ck_assert(!wrote[xs]);
                    wrote[xs] = 1;
                    ck_assert(!read[j * ch->consume + oc]);
                    read[j * ch->consume + oc] = 1;
                    checked++;
                }
            }
            for (int64_t s = 0; s < per; s++)
                ck_assert_msg(wrote[s] && read[s], "%s: channel %d token %" PRId64, t.s,
                              c, s);
            free(wrote);
            free(read);
        }
        ir_graph_free(x);
        ir_graph_free(g);
    }
    ck_assert_int_gt(checked, 5000);
}
END_TEST

/* pass_expand replaces the graph in place, keeps the original, and frees both; a
 * single-rate graph is its own expansion (nothing changes: the same ids and edges). */
TEST(pass_expand_in_place_and_identity)
{
    Graph *g =
        load("{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", \"cycles\": "
             "5}, {\"id\": \"b\", \"cycles\": 7}], \"edges\": [{\"from\": \"a\", "
             "\"to\": \"b\", \"bytes\": 4, \"produce\": 3, \"consume\": 2}]}");
    ck_assert_msg(g, "%s", diag_buf);
    Options o = opts();
    Unit u = {.g = g, .p = g->platform, .opt = &o};
    Diag *d = diag_new();
    ck_assert_int_eq(pass_expand(&u, d), 0);
    ck_assert_ptr_eq(u.g, g);
    ck_assert_int_eq(g->ntasks, 5);
    ck_assert_str_eq(g->tasks[0].id, "a[0]");
    ck_assert_str_eq(g->tasks[4].id, "b[2]");
    ck_assert(!g->multirate);
    ck_assert_ptr_nonnull(g->original);
    ck_assert_int_eq(g->original->ntasks, 2);
    ck_assert_int_eq(pass_expand(&u, d), 0); /* once expanded, nothing more */
    ck_assert_int_eq(g->ntasks, 5);
    ir_graph_free(g);

    Graph *s =
        load("{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", \"cycles\": "
             "5}, {\"id\": \"b\", \"cycles\": 7}], \"edges\": [{\"from\": \"a\", "
             "\"to\": \"b\", \"bytes\": 4}, {\"from\": \"b\", \"to\": \"a\", "
             "\"tokens\": 2}]}");
    ck_assert_msg(s, "%s", diag_buf);
    ck_assert(!s->multirate);
    ck_assert_int_eq(s->edges[1].delay, 2); /* the tokens of a single-rate edge */
    Edge *before = s->edges;
    u = (Unit){.g = s, .p = s->platform, .opt = &o};
    ck_assert_int_eq(pass_expand(&u, d), 0);
    ck_assert_ptr_eq(s->edges, before);
    ck_assert_ptr_null(s->original);
    ck_assert_ptr_null(s->ports);
    ir_graph_free(s);
    diag_free(d);
}
END_TEST

/* A graph of 10 000 firings (a chain of ten actors of 1000 firings each and two of one)
 * expands into 10 002 tasks; the bound on the expansion's edges stops counting early. */
TEST(large_expansion)
{
    Text t = {.n = 0};
    put(&t, "{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"src\", \"cycles\": 1}");
    for (int a = 0; a < 10; a++)
        put(&t, ", {\"id\": \"w%d\", \"cycles\": 10}", a);
    put(&t, ", {\"id\": \"sink\", \"cycles\": 1}], \"edges\": [{\"from\": \"src\", "
            "\"to\": \"w0\", \"bytes\": 8, \"produce\": 1000}");
    for (int a = 0; a + 1 < 10; a++)
        put(&t, ", {\"from\": \"w%d\", \"to\": \"w%d\", \"bytes\": 8}", a, a + 1);
    for (int a = 0; a < 10; a++)
        put(&t, ", {\"from\": \"w%d\", \"to\": \"w%d\", \"bytes\": 8, \"tokens\": 1}", a,
            a);
    put(&t, ", {\"from\": \"w9\", \"to\": \"sink\", \"bytes\": 8, \"consume\": 1000}]}");
    Graph *g = load(t.s);
    ck_assert_msg(g, "%s", diag_buf);
    ck_assert_int_eq(g->firings, 10002);
    Graph *x = fe_expand(g);
    ck_assert_int_eq(x->ntasks, 10002);
    /* src -> w0: 1000, w_a -> w_a+1: 9000, the self channels: 10000, w9 -> sink: 1000 */
    ck_assert_int_eq(x->nedges, 21000);
    ir_graph_free(x);
    ir_graph_free(g);
}
END_TEST

/* Writes text into dir/name. */
static void
write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static Graph *
load_file(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    Options o = opts();
    Diag *d = diag_new();
    Graph *g = fe_load_graph(path, &o, d);
    snprintf(diag_buf, sizeof diag_buf, "%s", diag_text(d));
    diag_free(d);
    return g;
}

/* A subgraph fires once per iteration of its graph: its actors fire q[sub] x q[actor]
 * times, its channels keep their initial tokens (a delay there counts iterations of the
 * subgraph), the rate of a port is its actor's, and the actor sees the channels of its
 * ports first, in the order of the ports, then its own; a deadlock through the subgraph
 * is located in the file where the channel is written. */
TEST(subgraph_flattened_with_its_rates)
{
    char dir[] = "/tmp/tgc-check-expand-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(
        dir, "stage.json",
        "{\"format\": \"tgc-graph/1\","
        " \"inputs\": [{\"name\": \"y\", \"to\": \"a\"}, {\"name\": \"x\", \"to\": "
        "\"a\"}],"
        " \"outputs\": [{\"name\": \"out\", \"from\": \"b\"}],"
        " \"tasks\": [{\"id\": \"a\", \"cycles\": 1}, {\"id\": \"b\", \"cycles\": 1}],"
        " \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"bytes\": 4, \"consume\": 2},"
        " {\"from\": \"b\", \"to\": \"a\", \"bytes\": 4, \"produce\": 2, \"delay\": "
        "1}]}");
    /* per firing of stage: a fires 2 times, b once; its ports read 2 tokens each */
    write_file(
        dir, "top.json",
        "{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"src\", \"cycles\": 1},"
        " {\"id\": \"stage\", \"graph\": \"stage.json\"}, {\"id\": \"sink\", "
        "\"cycles\": 1}],"
        " \"edges\": [{\"from\": \"src\", \"to\": \"stage\", \"to_port\": \"x\", "
        "\"bytes\": 8, \"produce\": 6},"
        " {\"from\": \"src\", \"to\": \"stage\", \"to_port\": \"y\", \"bytes\": 8, "
        "\"produce\": 6, \"consume\": 2},"
        " {\"from\": \"stage\", \"to\": \"sink\", \"bytes\": 8, \"consume\": 3}]}");
    Graph *g = load_file(dir, "top.json");
    ck_assert_msg(g, "%s", diag_buf);
    ck_assert(g->flattened);
    ck_assert_int_eq(g->ntasks, 4);
    ck_assert_str_eq(g->tasks[1].id, "stage/a");
    ck_assert_str_eq(g->tasks[2].id, "stage/b");
    /* src fires once, stage 3 times: stage/a 6, stage/b 3, sink once */
    ck_assert_int_eq(g->repetitions[0], 1);
    ck_assert_int_eq(g->repetitions[1], 6);
    ck_assert_int_eq(g->repetitions[2], 3);
    ck_assert_int_eq(g->repetitions[3], 1);
    /* the edges of top.json, then those of stage.json; a's ports: y, x, then b -> a */
    ck_assert_int_eq(g->edges[0].to, 1);
    ck_assert_int_eq(g->edges[0].consume, 1);
    ck_assert_int_eq(g->to_rank[0], 1);      /* port x, the second */
    ck_assert_int_eq(g->to_rank[1], 0);      /* port y */
    ck_assert_int_eq(g->to_rank[4], 2);      /* b -> a after the ports */
    ck_assert_int_eq(g->edges[4].tokens, 2); /* an iteration of stage: q[b] x 2 */
    ck_assert_str_eq(g->edge_origin[4].file + strlen(dir) + 1, "stage.json");
    ck_assert_int_eq(g->edge_origin[4].index, 1);
    ir_graph_free(g);

    /* the same without the delay: the cycle a -> b -> a deadlocks, located in stage.json
     */
    write_file(
        dir, "stage.json",
        "{\"format\": \"tgc-graph/1\", \"inputs\": [{\"name\": \"y\", \"to\": "
        "\"a\"}, {\"name\": \"x\", \"to\": \"a\"}],"
        " \"outputs\": [{\"name\": \"out\", \"from\": \"b\"}],"
        " \"tasks\": [{\"id\": \"a\", \"cycles\": 1}, {\"id\": \"b\", \"cycles\": 1}],"
        " \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"bytes\": 4, \"consume\": 2},"
        " {\"from\": \"b\", \"to\": \"a\", \"bytes\": 4, \"produce\": 2}]}");
    g = load_file(dir, "top.json");
    ck_assert_ptr_null(g);
    char want[1024];
    snprintf(
        want, sizeof want,
        "%s/stage.json: /edges/0: error: SDF deadlock: the cycle a -> b -> a cannot "
        "complete an iteration with its initial tokens (/edges/0 a -> b holds 0 "
        "initial tokens, a firing of \"b\" consumes 2; /edges/1 b -> a holds 0 "
        "initial tokens, a firing of \"a\" consumes 1): give its channels more "
        "\"tokens\"\n%s/top.json: /tasks/1/graph: note: in subgraph \"%s/stage.json\" "
        "of task \"stage\"\n",
        dir, dir, dir);
    ck_assert_str_eq(diag_buf, want);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* top.json with the edges to s from F1 at port P1 and from F2 at port P2 */
static void
write_top(const char *dir, const char *f1, const char *p1, const char *f2, const char *p2)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"format\": \"tgc-graph/1\", \"tasks\": [{\"id\": \"a\", \"cycles\": 1}, "
             "{\"id\": \"b\", \"cycles\": 1}, {\"id\": \"s\", \"graph\": \"sub.json\"}, "
             "{\"id\": \"z\", \"cycles\": 1}], \"edges\": [{\"from\": \"%s\", \"to\": "
             "\"s\", \"to_port\": \"%s\", \"bytes\": 8}, {\"from\": \"%s\", \"to\": "
             "\"s\", \"to_port\": \"%s\", \"bytes\": 4}, {\"from\": \"s\", \"to\": "
             "\"z\", \"bytes\": 4}]}",
             f1, p1, f2, p2);
    write_file(dir, "top.json", text);
}

/* A single-rate subgraph is expanded only when an actor's ports are not in the order of
 * its edges: x's port p1 (from a) comes before p2 (from b) though top.json's edge from b
 * comes first, so the expansion keeps the tasks and edges and writes the ports out;
 * with the edges in the ports' order, the graph is its own expansion. */
TEST(single_rate_subgraph_keeps_its_ports)
{
    char dir[] = "/tmp/tgc-check-expand-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "sub.json",
               "{\"format\": \"tgc-graph/1\","
               " \"inputs\": [{\"name\": \"p1\", \"to\": \"x\"}, {\"name\": \"p2\", "
               "\"to\": \"x\"}], \"outputs\": [{\"name\": \"o\", \"from\": \"x\"}],"
               " \"tasks\": [{\"id\": \"x\", \"cycles\": 1}, {\"id\": \"y\", \"cycles\": "
               "1}], \"edges\": [{\"from\": \"y\", \"to\": \"x\", \"bytes\": 2}]}");
    write_top(dir, "b", "p2", "a", "p1");
    Graph *g = load_file(dir, "top.json");
    ck_assert_msg(g, "%s", diag_buf);
    ck_assert(!g->multirate);
    ck_assert(fe_expansion_needed(g));
    Options o = opts();
    Unit u = {.g = g, .p = g->platform, .opt = &o};
    Diag *d = diag_new();
    ck_assert_int_eq(pass_expand(&u, d), 0);
    ck_assert_int_eq(g->ntasks, 5);
    ck_assert_str_eq(g->tasks[2].id, "s/x"); /* fires once: the actor's id */
    ck_assert_int_eq(g->nedges, 4);
    ck_assert_ptr_nonnull(g->ports);
    ck_assert_int_eq(g->edges[0].from, 1); /* b -> s/x, x's port 1 (p2) */
    ck_assert_int_eq(g->ports[0].to_port, 1);
    ck_assert_int_eq(g->ports[1].to_port, 0); /* a -> s/x: p1 */
    ck_assert_int_eq(g->ports[3].to_port, 2); /* y -> x after the ports */
    ck_assert(!fe_expansion_needed(g));
    ir_graph_free(g);

    write_top(dir, "a", "p1", "b", "p2");
    g = load_file(dir, "top.json");
    ck_assert_msg(g, "%s", diag_buf);
    ck_assert(!fe_expansion_needed(g));
    u = (Unit){.g = g, .p = g->platform, .opt = &o};
    ck_assert_int_eq(pass_expand(&u, d), 0);
    ck_assert_ptr_null(g->ports);
    ck_assert_ptr_null(g->original);
    ir_graph_free(g);
    diag_free(d);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST
