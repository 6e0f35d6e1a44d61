/* tests/check_ir.c - the IR core: arena, diagnostics, graph index, platform model,
 * schedule. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "ir.h"

TEST_CASE("core", 0)

TEST(arena_strings_and_alignment)
{
    Arena *a = arena_new();
    char *s = arena_printf(a, "%s-%d", "dsp", 7);
    ck_assert_str_eq(s, "dsp-7");
    for (int i = 0; i < 1000; i++) {
        double *p = arena_alloc(a, 24);
        ck_assert_uint_eq((uintptr_t)p % _Alignof(max_align_t), 0);
        ck_assert(p[0] == 0.0);
    }
    char *big = arena_alloc(a, 1 << 20);
    ck_assert_int_eq(big[(1 << 20) - 1], 0);
    ck_assert_uint_ge(arena_used(a), (1 << 20) + 24000);
    arena_free(a);
}
END_TEST

TEST(diag_formats_positions)
{
    Diag *d = diag_new();
    Loc l1 = {.file = "g.json", .line = 3, .col = 14};
    Loc l2 = {.file = "g.json", .pointer = "/tasks/2/cycles"};
    diag_error(d, &l1, "expected %s", "','");
    diag_error(d, &l2, "cycles must be >= 0, got %d", -4);
    diag_note(d, NULL, "see docs/formats.md");
    ck_assert_str_eq(diag_text(d),
                     "g.json:3:14: error: expected ','\n"
                     "g.json: /tasks/2/cycles: error: cycles must be >= 0, got -4\n"
                     "note: see docs/formats.md\n");
    ck_assert_int_eq(diag_errors(d), 2);
    diag_free(d);
}
END_TEST

TEST(diag_keeps_each_message_on_one_line)
{
    /* names quoted from the input (found by fuzzing: a task name with a newline, a
     * jansson syntax error quoting a backslash and a newline) are escaped */
    Diag *d = diag_new();
    Loc l1 = {.file = "g\n.json", .pointer = "/edges/16/to"};
    Loc l2 = {.file = "p.json", .line = 6, .col = 1};
    diag_error(d, &l1, "unknown task \"%s\" (did you mean \"%s\"?)", "line\nbreakte",
               "line\nbreak");
    diag_error(d, &l2, "invalid escape near '%s'", "\"send_ove\\\n\t\r\x01\x7f");
    ck_assert_str_eq(
        diag_text(d),
        "g\\n.json: /edges/16/to: error: unknown task \"line\\nbreakte\" (did "
        "you mean \"line\\nbreak\"?)\n"
        "p.json:6:1: error: invalid escape near '\"send_ove\\\\n\\t\\r\\x01\\x7f'\n");
    diag_free(d);
}
END_TEST

TEST(diag_suggests_close_names)
{
    const char *c[] = {"cycles", "kernel", "params", "dsp", "id"};
    ck_assert_str_eq(diag_suggest("cylces", c, 5), "cycles");
    ck_assert_str_eq(diag_suggest("kernal", c, 5), "kernel");
    ck_assert_ptr_null(diag_suggest("zzzzzzz", c, 5));
}
END_TEST

TEST(fabric_time_of_section_4)
{
    Arena *a = arena_new();
    Platform *p = plat_preset(a, "bwdsp-1board");
    ck_assert_int_eq(p->ndsps, 4);
    ck_assert_int_eq(plat_ser(p, 90), 82);
    ck_assert_int_eq(plat_fabric_time(p, 0, 1, 64), 264);
    ck_assert_int_eq(plat_packets(p, 10000), 40);
    ck_assert_int_eq(plat_fabric_time(p, 0, 1, 10000), 10350);
    ck_assert_int_eq(plat_packets(p, 0), 1);
    ck_assert_int_eq(plat_packets(p, 251), 2);
    /* 251 bytes: packets of 276 and 27 bytes: 250 + 25 + (100 + 250) */
    ck_assert_int_eq(plat_fabric_time(p, 0, 3, 251), 250 + 25 + 350);
    arena_free(a);
}
END_TEST

TEST(routes_follow_the_spanning_tree)
{
    Arena *a = arena_new();
    Platform *r = plat_preset(a, "bwdsp-4board"); /* ring 0-1-2-3-0: tree 0-1, 1-2, 0-3 */
    ck_assert_int_eq(r->ndsps, 16);
    ck_assert_int_eq(r->mst_parent[1], 0);
    ck_assert_int_eq(r->mst_parent[2], 1);
    ck_assert_int_eq(r->mst_parent[3], 0);
    ck_assert_int_eq(plat_switch_hops(r, 0, 15), 2); /* boards 0 -> 3 */
    ck_assert_int_eq(plat_switch_hops(r, 8, 12), 4); /* boards 2 -> 1 -> 0 -> 3 */
    ck_assert_int_eq(plat_switch_hops(r, 5, 6), 1);
    Platform *m = plat_preset(a, "bwdsp-16board");
    ck_assert_int_eq(m->ndsps, 64);
    ck_assert_int_eq(m->nlinks, 24);
    /* 10000 bytes across 3 switches: 40 * 250 + 3 * 350 */
    ck_assert_int_eq(plat_fabric_time(r, 0, 4 * 2, 10000), 10000 + 3 * 350);
    ck_assert_ptr_null(plat_preset(a, "bwdsp-3board"));
    arena_free(a);
}
END_TEST

static uint64_t
next_random(uint64_t *r)
{
    *r = *r * 6364136223846793005u + 1442695040888963407u;
    return *r >> 33;
}

/* The rule of the routes written the slow, plain way: Prim scanning every link at each
 * step for the lowest board it can add, then the lowest tree board it comes from. */
static void
reference_tree(int nb, const BoardLink *links, int nlinks, int *parent, int *depth)
{
    bool in[64] = {true};
    for (int b = 0; b < nb; b++)
        parent[b] = -1, depth[b] = 0;
    for (int added = 1; added < nb; added++) {
        int bu = -1, bv = -1;
        for (int l = 0; l < nlinks; l++) {
            int u = links[l].a, v = links[l].b;
            if (in[u] == in[v])
                continue;
            if (!in[u])
                u = links[l].b, v = links[l].a;
            if (bv < 0 || v < bv || (v == bv && u < bu))
                bu = u, bv = v;
        }
        ck_assert_int_ge(bv, 0);
        in[bv] = true;
        parent[bv] = bu;
        depth[bv] = depth[bu] + 1;
    }
}

/* The directed link from board u to board v by a scan of the links. */
static int
reference_link(const Platform *p, int u, int v)
{
    for (int i = 0; i < p->nlinks; i++) {
        if (p->links[i].a == u && p->links[i].b == v)
            return 2 * p->ndsps + 2 * i;
        if (p->links[i].b == u && p->links[i].a == v)
            return 2 * p->ndsps + 2 * i + 1;
    }
    ck_abort_msg("boards %d and %d are not linked", u, v);
    return -1;
}

/* Random connected boards (a random tree and extra links, in random order and direction):
 * the tree, the distances, every route and the mean message cost are those of the plain
 * reference, links and pairs counted one by one. */
TEST(routes_match_a_plain_reference)
{
    uint64_t r = 12345;
    for (int round = 0; round < 200; round++) {
        int nb = 2 + (int)(next_random(&r) % 24), dpb = 1 + (int)(next_random(&r) % 3);
        PlatDesc d;
        pd_defaults(&d);
        d.nboards = nb;
        d.dsps_per_board = dpb;
        d.ndsps = nb * dpb;
        free(d.links);
        d.links = calloc((size_t)(nb * nb), sizeof *d.links);
        d.nlinks = 0;
        bool have[64][64] = {{false}};
        int extra = (int)(next_random(&r) % (uint64_t)(2 * nb));
        for (int v = 1; v < nb + extra; v++) {
            int a = v < nb ? v : (int)(next_random(&r) % (uint64_t)nb);
            int b = (int)(next_random(&r) % (uint64_t)(v < nb ? v : nb));
            if (a == b || have[a][b])
                continue;
            have[a][b] = have[b][a] = true;
            d.links[d.nlinks++] = next_random(&r) % 2 ? (PdLink){a, b} : (PdLink){b, a};
        }
        for (int i = d.nlinks - 1; i > 0; i--) { /* random order */
            int j = (int)(next_random(&r) % (uint64_t)(i + 1));
            PdLink t = d.links[i];
            d.links[i] = d.links[j];
            d.links[j] = t;
        }
        Arena *a = arena_new();
        Platform *p = plat_from_desc(a, &d);
        ck_assert_ptr_nonnull(p);
        int parent[64], depth[64];
        reference_tree(nb, p->links, p->nlinks, parent, depth);
        for (int b = 0; b < nb; b++)
            ck_assert_int_eq(p->mst_parent[b], parent[b]);
        int route[160], want[160];
        __extension__ typedef unsigned __int128 u128;
        u128 sum = 0, pairs = 0;
        for (int x = 0; x < d.ndsps; x++)
            for (int y = 0; y < d.ndsps; y++) {
                if (x == y)
                    continue;
                int u = x / dpb, v = y / dpb, n = 0, back = 0, up[64];
                want[n++] = 2 * x;
                while (u != v) {
                    if (depth[u] >= depth[v]) {
                        want[n++] = reference_link(p, u, parent[u]);
                        u = parent[u];
                    } else {
                        up[back++] = reference_link(p, parent[v], v);
                        v = parent[v];
                    }
                }
                while (back > 0)
                    want[n++] = up[--back];
                want[n++] = 2 * y + 1;
                ck_assert_int_eq(plat_switch_hops(p, x, y), n - 1);
                ck_assert_int_le(n, plat_max_route(p));
                ck_assert_int_eq(plat_route(p, x, y, route), n);
                for (int i = 0; i < n; i++)
                    ck_assert_int_eq(route[i], want[i]);
                sum += (u128)plat_comm_cost(p, x, y, 3000);
                pairs++;
            }
        ck_assert_int_eq(plat_mean_comm_cost(p, 3000), (int64_t)(sum / pairs));
        pd_free(&d);
        arena_free(a);
    }
}
END_TEST

TEST(abstract_model_costs_bytes)
{
    Arena *a = arena_new();
    Platform *p = plat_abstract(a, 3);
    ck_assert_int_eq(plat_comm_cost(p, 0, 1, 18), 18);
    ck_assert_int_eq(plat_comm_cost(p, 1, 1, 18), 0);
    ck_assert_int_eq(plat_mean_comm_cost(p, 18), 18);
    const char *why = NULL;
    ck_assert_int_eq(plat_set_dsps(a, p, 5, &why), 0);
    ck_assert_int_eq(p->ndsps, 5);
    Platform *b = plat_preset(a, "bwdsp-1board");
    ck_assert_int_eq(plat_set_dsps(a, b, 6, &why), -1);
    ck_assert_str_eq(why, "6 DSPs is not a whole number of boards of 4");
    ck_assert_int_eq(plat_set_dsps(a, b, 16, &why), 0);
    ck_assert_int_eq(b->nboards, 4);
    /* blocking message on one board: 600 + 300 + 264 + 400 */
    ck_assert_int_eq(plat_comm_cost(b, 0, 1, 64), 1564);
    arena_free(a);
}
END_TEST

static Graph *
chain(int n)
{
    Graph *g = ir_graph_new();
    g->ntasks = n;
    g->tasks = arena_array(g->arena, (size_t)n, sizeof(Task));
    for (int i = 0; i < n; i++) {
        g->tasks[i].id = arena_printf(g->arena, "t%d", i);
        g->tasks[i].ncycles = 1;
        g->tasks[i].cycles = arena_alloc(g->arena, sizeof(int64_t));
        g->tasks[i].cycles[0] = 100 * (i + 1);
        g->tasks[i].dsp = -1;
    }
    g->nedges = n - 1;
    g->edges = arena_array(g->arena, (size_t)n, sizeof(Edge));
    for (int i = 0; i + 1 < n; i++)
        g->edges[i] = (Edge){.from = n - 1 - i - 1, .to = n - 1 - i, .bytes = 8};
    return g;
}

TEST(graph_index_and_critical_path)
{
    Graph *g = chain(4); /* edges listed backwards: 2->3, 1->2, 0->1 */
    ck_assert_int_eq(ir_graph_index(g), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(g->topo[i], i);
    ck_assert_int_eq(g->succ_off[1 + 1] - g->succ_off[1], 1);
    ck_assert_int_eq(ir_critical_path(g, 4, false), 1000);
    ck_assert_int_eq(ir_critical_path(g, 4, true), 1024);
    ck_assert_int_eq(ir_task_find(g, "t2"), 2);
    ck_assert_int_eq(ir_task_find(g, "t9"), -1);
    ir_graph_free(g);

    g = chain(3);
    g->edges[g->nedges++] = (Edge){.from = 2, .to = 0, .bytes = 4}; /* zero-delay cycle */
    ck_assert_int_eq(ir_graph_index(g), -1);
    ck_assert_ptr_null(g->topo);
    ir_graph_free(g);
}
END_TEST

TEST(sched_verify_catches_order)
{
    Graph *g = chain(3);
    ir_graph_index(g);
    Arena *a = arena_new();
    Platform *p = plat_preset(a, "bwdsp-1board");
    Sched *s = ir_sched_new(g, p);
    s->map[0] = 0;
    s->map[1] = 1;
    s->map[2] = 1;
    int e01 = 2; /* edges: [0] 1->2, [1] 0->1 in chain(3): from n-1-i-1 */
    e01 = g->edges[0].from == 0 ? 0 : 1;
    int m = ir_sched_add_msg(s, 0, 1, &e01, 1);
    ir_sched_push_op(s, 0, OP_COMPUTE, 0);
    ir_sched_push_op(s, 0, OP_SEND, m);
    ir_sched_push_op(s, 1, OP_RECV, m);
    ir_sched_push_op(s, 1, OP_COMPUTE, 1);
    ir_sched_push_op(s, 1, OP_COMPUTE, 2);
    Diag *d = diag_new();
    ck_assert_int_eq(ir_sched_verify(s, d), 0);
    Sched *c = ir_sched_copy(s);
    c->map[2] = 0;
    ck_assert_int_eq(ir_sched_verify(c, d), -1);
    ck_assert_ptr_nonnull(
        strstr(diag_text(d), "task \"t2\" is computed on DSP 1, mapped to 0"));
    ir_sched_free(c);
    ir_sched_free(s);
    diag_free(d);
    arena_free(a);
    ir_graph_free(g);
}
END_TEST
