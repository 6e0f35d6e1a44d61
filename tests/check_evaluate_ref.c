/* tests/check_evaluate_ref.c - the evaluator (passes/evaluate/) against two references
 * written apart from it (the definitions of docs/design.md section 3 as a memoized
 * recursion; with contention, a packet-level discrete-event simulation) on random
 * schedules, and its fast paths (the sweep, the memo, the cutoff, steady-state skipping,
 * a billion iterations) against its plain simulation. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "evaluate_fixture.h"
#include "ir.h"

/* --- a reference: the definitions of docs/design.md section 3 written as a memoized
 * recursion over every operation instance (full arrays, no window, no rings).  A
 * dependence cycle met on the recursion stack is a deadlock.  The delay rule, as
 * docs/evaluator.md states it: the data of iteration x is sent in iteration x unless x >=
 * n - delay, and received in iteration x when the delay is 0, else in iteration x + 1
 * (into the ring of `delay` buffers). */

typedef struct Ref {
    const Sched *s;
    const Platform *p;
    int64_t n;
    int *off;            /* [ndsps + 1] first op of each DSP in the flat arrays */
    int64_t *end;        /* [ops * n] */
    char *st;            /* 0 new, 1 on the stack, 2 done */
    int64_t *prolog_end; /* [ndsps] */
    int64_t *first_post; /* [nmsgs] prolog post time */
    int *send_k, *recv_k;
    bool cycle;
} Ref;

static int64_t ref_end(Ref *r, int d, int k, int64_t i);

static int64_t
ref_ready(Ref *r, int d, int k, int64_t i)
{
    if (k > 0)
        return ref_end(r, d, k - 1, i);
    if (i > 0)
        return ref_end(r, d, r->s->nops[d] - 1, i - 1);
    return r->prolog_end[d];
}

static bool
ref_eager(const Ref *r, int m)
{
    return r->s->msgs[m].bytes <= r->p->eager_limit;
}

/* Is the data of iteration x of message m ever sent? */
static bool
ref_sent(const Ref *r, const Msg *ms, int64_t x)
{
    return x >= 0 && x + ms->delay < r->n;
}

/* The iteration whose RECV takes in the data of iteration x. */
static int64_t
ref_recv_iter(const Msg *ms, int64_t x)
{
    return ms->delay == 0 ? x : x + 1;
}

static int64_t
ref_arrive(Ref *r, int m, int64_t x)
{
    const Msg *ms = &r->s->msgs[m];
    int64_t issue = ref_end(r, ms->src, r->send_k[m], x), dep = issue;
    if (!ref_eager(r, m)) {
        int64_t post;
        if (!ms->pipelined) /* posted when the receive is reached */
            post = ref_ready(r, ms->dst, r->recv_k[m], ref_recv_iter(ms, x));
        else if (x == 0) /* the prolog */
            post = r->first_post[m];
        else /* at the end of the receive of the data of x - 1 */
            post = ref_end(r, ms->dst, r->recv_k[m], ref_recv_iter(ms, x - 1));
        dep = (issue > post ? issue : post) + r->p->handshake;
    }
    return dep + plat_fabric_time(r->p, ms->src, ms->dst, ms->bytes);
}

static int64_t
ref_end(Ref *r, int d, int k, int64_t i)
{
    size_t id = (size_t)(r->off[d] + k) * (size_t)r->n + (size_t)i;
    if (r->st[id] == 2)
        return r->end[id];
    if (r->st[id] == 1 || r->cycle) {
        r->cycle = true;
        return 0;
    }
    r->st[id] = 1;
    const Sched *s = r->s;
    const Platform *p = r->p;
    int64_t ready = ref_ready(r, d, k, i), start = ready, end = ready;
    Op o = s->ops[d][k];
    if (o.kind == OP_COMPUTE) {
        for (int m = 0; m < s->nmsgs && i > 0; m++) {
            const Msg *ms = &s->msgs[m];
            if (ms->nedges == 1 && s->g->edges[ms->edges[0]].from == o.ref &&
                ref_sent(r, ms, i - 1)) {
                int64_t a = ref_arrive(r, m, i - 1);
                start = a > start ? a : start;
            }
        }
        end = start + ir_task_cycles(&s->g->tasks[o.ref], d);
    } else {
        const Msg *ms = &s->msgs[o.ref];
        int64_t copy = ms->nedges > 1 ? (ms->bytes + p->copy_bytes_per_cycle - 1) /
                                            p->copy_bytes_per_cycle
                                      : 0;
        /* the data this RECV takes in: of iteration i, or i - 1 with a delay */
        int64_t x = ms->delay == 0 ? i : i - 1;
        if (o.kind == OP_SEND && ref_sent(r, ms, i)) {
            if (ms->nedges > 1 && i > 0) {
                int64_t a = ref_arrive(r, o.ref, i - 1);
                start = a > start ? a : start;
            }
            end = start + p->send_overhead + copy;
        } else if (o.kind == OP_RECV && ref_sent(r, ms, x)) {
            int64_t a = ref_arrive(r, o.ref, x);
            start = a > start ? a : start;
            bool pipe = ms->pipelined && !ref_eager(r, o.ref);
            /* a pipelined receive posts the next data, if that is ever sent */
            end = start + (pipe ? p->wait_overhead : p->recv_overhead) + copy +
                  (pipe && ref_sent(r, ms, x + 1) ? p->post_overhead : 0);
        }
    }
    r->st[id] = 2;
    r->end[id] = end;
    return end;
}

/* Length by the reference, or -1 on a cycle; r->end holds every end time. */
static int64_t
ref_length(Ref *r, const Sched *s)
{
    int nd = s->ndsps, tot = 0;
    int64_t n = s->g->iterations;
    memset(r, 0, sizeof *r);
    r->s = s;
    r->p = s->p;
    r->n = n;
    r->off = calloc((size_t)nd + 1, sizeof *r->off);
    for (int d = 0; d < nd; d++) {
        r->off[d] = tot;
        tot += s->nops[d];
    }
    r->off[nd] = tot;
    r->end = calloc((size_t)tot * (size_t)n + 1, sizeof *r->end);
    r->st = calloc((size_t)tot * (size_t)n + 1, 1);
    r->prolog_end = calloc((size_t)nd, sizeof *r->prolog_end);
    r->first_post = calloc((size_t)s->nmsgs + 1, sizeof *r->first_post);
    r->send_k = calloc((size_t)s->nmsgs + 1, sizeof *r->send_k);
    r->recv_k = calloc((size_t)s->nmsgs + 1, sizeof *r->recv_k);
    for (int d = 0; d < nd; d++)
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            if (o.kind == OP_SEND)
                r->send_k[o.ref] = k;
            if (o.kind != OP_RECV)
                continue;
            r->recv_k[o.ref] = k;
            const Msg *ms = &s->msgs[o.ref];
            if (ms->pipelined && !ref_eager(r, o.ref) && ref_sent(r, ms, 0)) {
                r->prolog_end[d] += s->p->post_overhead;
                r->first_post[o.ref] = r->prolog_end[d];
            }
        }
    int64_t len = 0;
    for (int d = 0; d < nd && !r->cycle; d++) {
        int64_t e = s->nops[d] ? ref_end(r, d, s->nops[d] - 1, n - 1) : 0;
        len = e > len ? e : len;
    }
    return r->cycle ? -1 : len;
}

static void
ref_free(Ref *r)
{
    free(r->off);
    free(r->end);
    free(r->st);
    free(r->prolog_end);
    free(r->first_post);
    free(r->send_k);
    free(r->recv_k);
}

static uint64_t
rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Merges message b into message a (same DSPs and delay): the SEND at the later of the two
 * slots, the RECV at the earlier; the last message takes b's id. */
static void
merge(Sched *s, int a, int b)
{
    Msg *ma = &s->msgs[a], *mb = &s->msgs[b];
    int *e = arena_array(s->arena, (size_t)(ma->nedges + mb->nedges), sizeof *e);
    memcpy(e, ma->edges, (size_t)ma->nedges * sizeof *e);
    memcpy(e + ma->nedges, mb->edges, (size_t)mb->nedges * sizeof *e);
    for (int j = 0; j < mb->nedges; j++)
        s->edge_msg[mb->edges[j]] = a;
    ma->edges = e;
    ma->nedges += mb->nedges;
    ma->bytes += mb->bytes;
    for (int d = 0; d < s->ndsps; d++) {
        int w = 0, first_recv = -1;
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            bool ours = o.kind != OP_COMPUTE && (o.ref == a || o.ref == b);
            if (ours && o.kind == OP_RECV) {
                if (first_recv >= 0)
                    continue;
                first_recv = w;
                o.ref = a;
            } else if (ours && o.kind == OP_SEND) {
                bool later = false; /* keep only the last SEND of the two */
                for (int j = k + 1; j < s->nops[d]; j++)
                    later |= s->ops[d][j].kind == OP_SEND &&
                             (s->ops[d][j].ref == a || s->ops[d][j].ref == b);
                if (later)
                    continue;
                o.ref = a;
            }
            s->ops[d][w++] = o;
        }
        s->nops[d] = w;
    }
    int last = s->nmsgs - 1;
    if (b != last) {
        s->msgs[b] = s->msgs[last];
        for (int j = 0; j < s->msgs[b].nedges; j++)
            s->edge_msg[s->msgs[b].edges[j]] = b;
        for (int d = 0; d < s->ndsps; d++)
            for (int k = 0; k < s->nops[d]; k++)
                if (s->ops[d][k].kind != OP_COMPUTE && s->ops[d][k].ref == last)
                    s->ops[d][k].ref = b;
    }
    s->nmsgs--;
}

TEST_CASE("core", 0)

/* Random graphs and schedules: list order + comm_insert, then random merges, pipelined
 * flags, eager limits and swaps of neighbouring operations (which may deadlock).  The
 * evaluator must agree with the reference on every length, every deadlock and every end
 * time of every operation in every iteration. */
TEST(agrees_with_a_reference_on_random_schedules)
{
    int deadlocks = 0, ok = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        uint64_t x = seed * 0x9E3779B97F4A7C15u;
        int n = 2 + (int)(rnd(&x) % 11);
        int64_t cyc[16];
        for (int t = 0; t < n; t++)
            cyc[t] = (int64_t)(rnd(&x) % 3000);
        Graph *g = mk_graph(seed % 3 ? "bwdsp-1board" : "bwdsp-4board", n, cyc,
                            1 + (int64_t)(rnd(&x) % 25));
        for (int t = 1; t < n && g->nedges < 60; t++)
            for (int j = 0, k = 1 + (int)(rnd(&x) % 3); j < k; j++)
                add_edge(g, (int)(rnd(&x) % (uint64_t)t), t, (int64_t)(rnd(&x) % 1200),
                         0);
        for (int j = 0, k = (int)(rnd(&x) % 4); j < k && g->nedges < 64; j++)
            add_edge(g, (int)(rnd(&x) % (uint64_t)n), (int)(rnd(&x) % (uint64_t)n), 64,
                     1 + (int)(rnd(&x) % 6));
        ck_assert_int_eq(ir_graph_index(g), 0);
        if (rnd(&x) % 4 == 0)
            g->platform->eager_limit = 64 + (int64_t)(rnd(&x) % 400);
        g->platform->no_contention = true; /* the reference's model */
        int nd = seed % 5 == 0 ? 16 : 2 + (int)(rnd(&x) % 3);
        if (nd > g->platform->ndsps)
            nd = g->platform->ndsps;
        Sched *s = ir_sched_new(g, g->platform);
        for (int k = 0; k < n; k++) {
            int t = g->topo[k];
            s->map[t] = (int)(rnd(&x) % (uint64_t)nd);
            ir_sched_push_op(s, s->map[t], OP_COMPUTE, t);
        }
        comm_insert(s);
        for (int j = 0, k = (int)(rnd(&x) % 4); j < k; j++) {
            int a = (int)(rnd(&x) % (uint64_t)(s->nmsgs + 1)) - 1;
            for (int b = a + 1; a >= 0 && b < s->nmsgs; b++)
                if (s->msgs[a].src == s->msgs[b].src &&
                    s->msgs[a].dst == s->msgs[b].dst &&
                    s->msgs[a].delay == s->msgs[b].delay) {
                    merge(s, a, b);
                    break;
                }
        }
        for (int m = 0; m < s->nmsgs; m++)
            s->msgs[m].pipelined = rnd(&x) % 3 == 0;
        for (int j = 0, k = (int)(rnd(&x) % 3); j < k; j++) {
            int d = (int)(rnd(&x) % (uint64_t)nd);
            if (s->nops[d] < 2)
                continue;
            int q = (int)(rnd(&x) % (uint64_t)(s->nops[d] - 1));
            Op t = s->ops[d][q];
            s->ops[d][q] = s->ops[d][q + 1];
            s->ops[d][q + 1] = t;
        }
        Ref ref;
        int64_t want = ref_length(&ref, s);
        Arena *a = arena_new();
        EvalResult r;
        int64_t got = both(s, &r, a);
        ck_assert_msg(got == want, "seed %llu: evaluator %lld, reference %lld",
                      (unsigned long long)seed, (long long)got, (long long)want);
        if (want >= 0) {
            for (int d = 0; d < s->ndsps; d++)
                for (int64_t i = 0; i < g->iterations; i++)
                    for (int k = 0; k < s->nops[d]; k++)
                        ck_assert_int_eq(
                            ot(s, &r, d, (int)i, k).end,
                            ref.end[(size_t)(ref.off[d] + k) * (size_t)ref.n +
                                    (size_t)i]);
            ok++;
        } else {
            ck_assert_int_ge(r.ncycle, 4);
            deadlocks++;
        }
        ref_free(&ref);
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(ok, 100); /* both kinds of outcome are exercised */
    ck_assert_int_gt(deadlocks, 10);
}
END_TEST

/* ---- a second reference, with contention: a discrete-event simulation of the whole
 * model packet by packet, in time order, written from the statement of the rules (the
 * runtime's event design: actions at a time before the link arbitrations of that time).
 * DSPs act at the times their operations are ready; a receive or a zero-copy wait whose
 * transfer has not arrived parks the DSP until the arrival.  A link that is free takes,
 * of the packets ready for it, the one of the shorter message, then of the transfer
 * issued first (issue time, source DSP, the source's send order), then the lower packet
 * index. */

enum { DV_DSP, DV_ISSUE, DV_POST, DV_DEPART, DV_READY, DV_END, DV_ARB };

typedef struct DEv {
    int64_t t, seq;
    int cls, type, a; /* a: DSP, message, packet or link */
    int64_t x;        /* transfer */
} DEv;

typedef struct DPkt {
    int m, hop;
    int64_t x, j;
} DPkt;

typedef struct Des {
    const Sched *s;
    const Platform *p;
    int64_t n;
    DEv *ev;
    int nev, capev;
    int64_t seq, now;
    DPkt *pk;
    int npk, cappk;
    /* per DSP */
    int *k, *blocked_m;
    int64_t *it, *blocked_x, *endt;
    bool *done, *posted_here; /* a blocking RECV posted at its first visit */
    /* per message x transfer: -1 until known */
    int64_t *issue, *post, *depart, *arrive, *left;
    int *send_k, *recv_k;
    int *route, nh_max, *nh;
    /* per link */
    int nlinks;
    int **q, *nq, *capq;
    int64_t *busy_until;
    bool *arb;
    int64_t *end; /* [ops * n] end times, as Ref */
    int *off;
} Des;

static bool
dev_less(const DEv *a, const DEv *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    if (a->cls != b->cls)
        return a->cls < b->cls;
    return a->seq < b->seq;
}

static void
des_push(Des *r, int64_t t, int cls, int type, int a, int64_t x)
{
    if (r->nev == r->capev) {
        r->capev = r->capev ? 2 * r->capev : 256;
        r->ev = realloc(r->ev, (size_t)r->capev * sizeof *r->ev);
    }
    DEv e = {t, r->seq++, cls, type, a, x};
    int i = r->nev++;
    while (i > 0 && dev_less(&e, &r->ev[(i - 1) / 2])) {
        r->ev[i] = r->ev[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->ev[i] = e;
}

static DEv
des_pop(Des *r)
{
    DEv top = r->ev[0], last = r->ev[--r->nev];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= r->nev)
            break;
        if (c + 1 < r->nev && dev_less(&r->ev[c + 1], &r->ev[c]))
            c++;
        if (!dev_less(&r->ev[c], &last))
            break;
        r->ev[i] = r->ev[c];
        i = c;
    }
    if (r->nev)
        r->ev[i] = last;
    return top;
}

#define DIX(r, m, x) ((size_t)(m) * (size_t)(r)->n + (size_t)(x))

/* Is transfer x of message ms ever sent? */
static bool
des_sent(const Des *r, const Msg *ms, int64_t x)
{
    return x >= 0 && x + ms->delay < r->n;
}

static bool
des_eager(const Des *r, int m)
{
    return r->s->msgs[m].bytes <= r->p->eager_limit;
}

static int64_t
des_ser(const Des *r, int m, int64_t j)
{
    const Platform *p = r->p;
    int64_t bytes = r->s->msgs[m].bytes, k = plat_packets(p, bytes);
    int64_t pay = j < k - 1 ? p->payload_bytes : bytes - (k - 1) * p->payload_bytes;
    return plat_ser(p, pay + p->packet_bytes - p->payload_bytes);
}

/* Is packet a before packet b on a link? */
static bool
des_before(const Des *r, const DPkt *a, const DPkt *b)
{
    const Msg *ma = &r->s->msgs[a->m], *mb = &r->s->msgs[b->m];
    if (ma->bytes != mb->bytes)
        return ma->bytes < mb->bytes;
    int64_t ia = r->issue[DIX(r, a->m, a->x)], ib = r->issue[DIX(r, b->m, b->x)];
    if (ia != ib)
        return ia < ib;
    if (ma->src != mb->src)
        return ma->src < mb->src;
    if (a->x != b->x)
        return a->x < b->x;
    if (r->send_k[a->m] != r->send_k[b->m])
        return r->send_k[a->m] < r->send_k[b->m];
    return a->j < b->j;
}

static void
des_offer(Des *r, int p, int64_t t)
{
    if (t > r->now) {
        des_push(r, t, 0, DV_READY, p, 0);
        return;
    }
    DPkt *pk = &r->pk[p];
    int l = r->route[pk->m * r->nh_max + pk->hop];
    if (r->nq[l] == r->capq[l]) {
        r->capq[l] = r->capq[l] ? 2 * r->capq[l] : 8;
        r->q[l] = realloc(r->q[l], (size_t)r->capq[l] * sizeof **r->q);
    }
    r->q[l][r->nq[l]++] = p;
    if (!r->arb[l]) {
        r->arb[l] = true;
        des_push(r, r->busy_until[l] > r->now ? r->busy_until[l] : r->now, 1, DV_ARB, l,
                 0);
    }
}

static void
des_depart(Des *r, int m, int64_t x, int64_t t)
{
    if (r->depart[DIX(r, m, x)] >= 0)
        return;
    r->depart[DIX(r, m, x)] = t;
    des_push(r, t, 0, DV_DEPART, m, x);
}

/* DSP d acts at time T on its current operation. */
static void
des_dsp(Des *r, int d, int64_t T)
{
    const Sched *s = r->s;
    const Platform *p = r->p;
    int64_t n = r->n;
    for (;;) {
        if (r->k[d] == s->nops[d]) {
            r->k[d] = 0;
            if (++r->it[d] == n) {
                r->done[d] = true;
                r->endt[d] = T;
                return;
            }
        }
        int k = r->k[d];
        int64_t i = r->it[d];
        Op o = s->ops[d][k];
        int64_t end = T;
        if (o.kind == OP_COMPUTE) {
            for (int m = 0; m < s->nmsgs && i > 0; m++) {
                const Msg *ms = &s->msgs[m];
                if (ms->nedges == 1 && s->g->edges[ms->edges[0]].from == o.ref &&
                    des_sent(r, ms, i - 1) && r->arrive[DIX(r, m, i - 1)] < 0) {
                    r->blocked_m[d] = m, r->blocked_x[d] = i - 1;
                    return;
                }
            }
            end = T + ir_task_cycles(&s->g->tasks[o.ref], d);
        } else {
            const Msg *ms = &s->msgs[o.ref];
            int m = o.ref;
            int64_t copy = ms->nedges > 1 ? (ms->bytes + p->copy_bytes_per_cycle - 1) /
                                                p->copy_bytes_per_cycle
                                          : 0;
            int64_t x = ms->delay == 0 ? i : i - 1;
            if (o.kind == OP_SEND && des_sent(r, ms, i)) {
                if (ms->nedges > 1 && i > 0 && r->arrive[DIX(r, m, i - 1)] < 0) {
                    r->blocked_m[d] = m, r->blocked_x[d] = i - 1;
                    return;
                }
                end = T + p->send_overhead + copy;
                des_push(r, end, 0, DV_ISSUE, m, i);
            } else if (o.kind == OP_RECV && des_sent(r, ms, x)) {
                bool pipe = ms->pipelined && !des_eager(r, m);
                if (!pipe && !r->posted_here[d]) {
                    r->posted_here[d] = true;
                    des_push(r, T, 0, DV_POST, m, x);
                }
                if (r->arrive[DIX(r, m, x)] < 0) {
                    r->blocked_m[d] = m, r->blocked_x[d] = x;
                    return;
                }
                r->posted_here[d] = false;
                end = T + (pipe ? p->wait_overhead : p->recv_overhead) + copy;
                if (pipe && des_sent(r, ms, x + 1)) {
                    end += p->post_overhead;
                    des_push(r, end, 0, DV_POST, m, x + 1);
                }
            }
        }
        r->end[(size_t)(r->off[d] + k) * (size_t)n + (size_t)i] = end;
        r->k[d]++;
        if (end > T) {
            des_push(r, end, 0, DV_DSP, d, 0);
            return;
        }
    }
}

/* The length, or -1 when the DSPs deadlock; r->end holds every end time. */
static int64_t
des_length(Des *r, const Sched *s)
{
    memset(r, 0, sizeof *r);
    const Platform *p = s->p;
    int nd = s->ndsps, nm = s->nmsgs, tot = 0;
    int64_t n = s->g->iterations;
    r->s = s;
    r->p = p;
    r->n = n;
    r->off = calloc((size_t)nd + 1, sizeof *r->off);
    for (int d = 0; d < nd; d++) {
        r->off[d] = tot;
        tot += s->nops[d];
    }
    r->end = calloc((size_t)tot * (size_t)n + 1, sizeof *r->end);
    r->k = calloc((size_t)nd, sizeof *r->k);
    r->blocked_m = malloc((size_t)nd * sizeof *r->blocked_m);
    for (int d = 0; d < nd; d++)
        r->blocked_m[d] = -1;
    r->it = calloc((size_t)nd, sizeof *r->it);
    r->blocked_x = calloc((size_t)nd, sizeof *r->blocked_x);
    r->endt = calloc((size_t)nd, sizeof *r->endt);
    r->done = calloc((size_t)nd, sizeof *r->done);
    r->posted_here = calloc((size_t)nd, sizeof *r->posted_here);
    size_t mx = (size_t)nm * (size_t)n + 1;
    r->issue = malloc(mx * sizeof *r->issue);
    r->post = malloc(mx * sizeof *r->post);
    r->depart = malloc(mx * sizeof *r->depart);
    r->arrive = malloc(mx * sizeof *r->arrive);
    r->left = calloc(mx, sizeof *r->left);
    for (size_t j = 0; j < mx; j++)
        r->issue[j] = r->post[j] = r->depart[j] = r->arrive[j] = -1;
    r->send_k = calloc((size_t)nm + 1, sizeof *r->send_k);
    r->recv_k = calloc((size_t)nm + 1, sizeof *r->recv_k);
    r->nh_max = plat_max_route(p);
    r->route = calloc((size_t)nm * (size_t)r->nh_max + 1, sizeof *r->route);
    r->nh = calloc((size_t)nm + 1, sizeof *r->nh);
    for (int m = 0; m < nm; m++)
        r->nh[m] =
            plat_route(p, s->msgs[m].src, s->msgs[m].dst, r->route + m * r->nh_max);
    r->nlinks = plat_directed_links(p);
    r->q = calloc((size_t)r->nlinks, sizeof *r->q);
    r->nq = calloc((size_t)r->nlinks, sizeof *r->nq);
    r->capq = calloc((size_t)r->nlinks, sizeof *r->capq);
    r->busy_until = calloc((size_t)r->nlinks, sizeof *r->busy_until);
    r->arb = calloc((size_t)r->nlinks, sizeof *r->arb);
    for (int d = 0; d < nd; d++) {
        int64_t t = 0;
        for (int k = 0; k < s->nops[d]; k++) {
            Op o = s->ops[d][k];
            if (o.kind == OP_SEND)
                r->send_k[o.ref] = k;
            if (o.kind != OP_RECV)
                continue;
            r->recv_k[o.ref] = k;
            const Msg *ms = &s->msgs[o.ref];
            if (ms->pipelined && !des_eager(r, o.ref) && des_sent(r, ms, 0)) {
                t += p->post_overhead; /* the prolog */
                des_push(r, t, 0, DV_POST, o.ref, 0);
            }
        }
        r->done[d] = s->nops[d] == 0;
        if (!r->done[d])
            des_push(r, t, 0, DV_DSP, d, 0);
    }
    while (r->nev > 0) {
        DEv e = des_pop(r);
        r->now = e.t;
        switch (e.type) {
        case DV_DSP:
            des_dsp(r, e.a, e.t);
            break;
        case DV_ISSUE:
            r->issue[DIX(r, e.a, e.x)] = e.t;
            if (des_eager(r, e.a))
                des_depart(r, e.a, e.x, e.t);
            else if (r->post[DIX(r, e.a, e.x)] >= 0)
                des_depart(r, e.a, e.x, e.t + p->handshake);
            break;
        case DV_POST:
            r->post[DIX(r, e.a, e.x)] = e.t;
            if (!des_eager(r, e.a) && r->issue[DIX(r, e.a, e.x)] >= 0)
                des_depart(r, e.a, e.x, e.t + p->handshake);
            break;
        case DV_DEPART: {
            int64_t k = plat_packets(p, s->msgs[e.a].bytes);
            r->left[DIX(r, e.a, e.x)] = k;
            for (int64_t j = 0; j < k; j++) {
                if (r->npk == r->cappk) {
                    r->cappk = r->cappk ? 2 * r->cappk : 256;
                    r->pk = realloc(r->pk, (size_t)r->cappk * sizeof *r->pk);
                }
                r->pk[r->npk] = (DPkt){e.a, 0, e.x, j};
                des_offer(r, r->npk++, e.t);
            }
            break;
        }
        case DV_READY:
            des_offer(r, e.a, e.t);
            break;
        case DV_ARB: {
            int l = e.a;
            r->arb[l] = false;
            if (r->nq[l] == 0)
                break;
            int b = 0;
            for (int j = 1; j < r->nq[l]; j++)
                if (des_before(r, &r->pk[r->q[l][j]], &r->pk[r->q[l][b]]))
                    b = j;
            int pk = r->q[l][b];
            r->q[l][b] = r->q[l][--r->nq[l]];
            r->busy_until[l] = e.t + des_ser(r, r->pk[pk].m, r->pk[pk].j);
            des_push(r, r->busy_until[l], 0, DV_END, pk, 0);
            if (r->nq[l] > 0) {
                r->arb[l] = true;
                des_push(r, r->busy_until[l], 1, DV_ARB, l, 0);
            }
            break;
        }
        case DV_END: {
            DPkt *pk = &r->pk[e.a];
            if (pk->hop + 1 < r->nh[pk->m]) {
                pk->hop++;
                des_offer(r, e.a, e.t + p->switch_latency);
            } else if (--r->left[DIX(r, pk->m, pk->x)] == 0) {
                r->arrive[DIX(r, pk->m, pk->x)] = e.t;
                const Msg *ms = &s->msgs[pk->m];
                int ends[2] = {ms->src, ms->dst};
                for (int j = 0; j < 2; j++) {
                    int d = ends[j];
                    if (!r->done[d] && r->blocked_m[d] == pk->m &&
                        r->blocked_x[d] == pk->x) {
                        r->blocked_m[d] = -1;
                        des_push(r, e.t, 0, DV_DSP, d, 0);
                    }
                }
            }
            break;
        }
        }
    }
    int64_t len = 0;
    for (int d = 0; d < nd; d++) {
        if (!r->done[d])
            return -1;
        len = r->endt[d] > len ? r->endt[d] : len;
    }
    return len;
}

static void
des_free(Des *r)
{
    for (int l = 0; l < r->nlinks; l++)
        free(r->q[l]);
    free(r->q), free(r->nq), free(r->capq), free(r->busy_until), free(r->arb);
    free(r->ev), free(r->pk), free(r->k), free(r->blocked_m), free(r->it);
    free(r->blocked_x), free(r->endt), free(r->done), free(r->posted_here);
    free(r->issue), free(r->post), free(r->depart), free(r->arrive), free(r->left);
    free(r->send_k), free(r->recv_k), free(r->route), free(r->nh), free(r->end);
    free(r->off);
}

/* A random schedule for the contention tests: list order + comm_insert on 1, 2 or 4
 * boards with random overheads (zeros too), packet sizes and switch latency, then random
 * merges, pipelined flags, eager limits and swaps of neighbouring operations (which may
 * deadlock). */
static Sched *
random_contended(uint64_t seed, int64_t iters_lo, int64_t iters_span, Graph **gout)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15u + 7;
    static const char *plats[] = {"bwdsp-1board", "bwdsp-2board", "bwdsp-4board"};
    int n = 2 + (int)(rnd(&x) % 11);
    int64_t cyc[16];
    for (int t = 0; t < n; t++)
        cyc[t] = rnd(&x) % 5 == 0 ? 0 : (int64_t)(rnd(&x) % 3000);
    Graph *g =
        mk_graph(plats[seed % 3], n, cyc, iters_lo + (int64_t)(rnd(&x) % iters_span));
    for (int t = 1; t < n && g->nedges < 60; t++)
        for (int j = 0, k = 1 + (int)(rnd(&x) % 3); j < k; j++)
            add_edge(g, (int)(rnd(&x) % (uint64_t)t), t,
                     rnd(&x) % 6 == 0 ? 0 : (int64_t)(rnd(&x) % 2500), 0);
    for (int j = 0, k = (int)(rnd(&x) % 4); j < k && g->nedges < 64; j++)
        add_edge(g, (int)(rnd(&x) % (uint64_t)n), (int)(rnd(&x) % (uint64_t)n), 64,
                 1 + (int)(rnd(&x) % 4));
    ck_assert_int_eq(ir_graph_index(g), 0);
    Platform *p = g->platform;
    int64_t *par[] = {&p->send_overhead, &p->recv_overhead, &p->post_overhead,
                      &p->wait_overhead, &p->handshake,     &p->switch_latency};
    for (int j = 0; j < 6; j++)
        if (rnd(&x) % 3 == 0)
            *par[j] = rnd(&x) % 2 ? 0 : (int64_t)(rnd(&x) % 700);
    if (rnd(&x) % 3 == 0) { /* small packets: more of them per message */
        p->payload_bytes = 16 + (int64_t)(rnd(&x) % 200);
        p->packet_bytes = p->payload_bytes + (int64_t)(rnd(&x) % 40);
    }
    if (rnd(&x) % 4 == 0)
        p->eager_limit = 64 + (int64_t)(rnd(&x) % 400);
    int nd = p->ndsps < 8 ? p->ndsps : 2 + (int)(rnd(&x) % 7);
    Sched *s = ir_sched_new(g, p);
    for (int k = 0; k < n; k++) {
        int t = g->topo[k];
        s->map[t] = (int)(rnd(&x) % (uint64_t)nd);
        if (nd > 4 && rnd(&x) % 2) /* across boards: DSP 4 and up */
            s->map[t] = (int)(rnd(&x) % (uint64_t)p->ndsps);
        ir_sched_push_op(s, s->map[t], OP_COMPUTE, t);
    }
    comm_insert(s);
    for (int j = 0, k = (int)(rnd(&x) % 4); j < k; j++) {
        int a = (int)(rnd(&x) % (uint64_t)(s->nmsgs + 1)) - 1;
        for (int b = a + 1; a >= 0 && b < s->nmsgs; b++)
            if (s->msgs[a].src == s->msgs[b].src && s->msgs[a].dst == s->msgs[b].dst &&
                s->msgs[a].delay == s->msgs[b].delay) {
                merge(s, a, b);
                break;
            }
    }
    for (int m = 0; m < s->nmsgs; m++)
        s->msgs[m].pipelined = rnd(&x) % 3 == 0;
    for (int j = 0, k = (int)(rnd(&x) % 3); j < k; j++) {
        int d = (int)(rnd(&x) % (uint64_t)s->ndsps);
        if (s->nops[d] < 2)
            continue;
        int q = (int)(rnd(&x) % (uint64_t)(s->nops[d] - 1));
        Op t = s->ops[d][q];
        s->ops[d][q] = s->ops[d][q + 1];
        s->ops[d][q + 1] = t;
    }
    *gout = g;
    return s;
}

/* With contention, the evaluator against the packet-level simulation: the same length,
 * the same deadlocks, the same end time of every operation in every iteration. */
TEST(contention_agrees_with_a_packet_simulation)
{
    int deadlocks = 0, ok = 0, differ = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 1, 25, &g);
        Des des;
        int64_t want = des_length(&des, s);
        Arena *a = arena_new();
        EvalResult r;
        int64_t got = both(s, &r, a);
        ck_assert_msg(got == want, "seed %llu: evaluator %lld, packet simulation %lld",
                      (unsigned long long)seed, (long long)got, (long long)want);
        if (want >= 0) {
            for (int d = 0; d < s->ndsps; d++)
                for (int64_t i = 0; i < g->iterations; i++)
                    for (int k = 0; k < s->nops[d]; k++)
                        ck_assert_msg(
                            ot(s, &r, d, (int)i, k).end ==
                                des.end[(size_t)(des.off[d] + k) * (size_t)des.n +
                                        (size_t)i],
                            "seed %llu: DSP %d op %d iteration %lld",
                            (unsigned long long)seed, d, k, (long long)i);
            ok++;
            /* the bound that fe_check holds to 2^62 is a bound (docs/evaluator.md) */
            ck_assert_int_le(got, plat_length_bound(g->platform, g));
            g->platform->no_contention = true; /* contention mattered here? */
            Evaluator *ev = eval_new(g, g->platform);
            differ += eval_length(ev, s) != got;
            eval_free(ev);
        } else {
            deadlocks++;
        }
        des_free(&des);
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(ok, 100); /* every kind of outcome is exercised */
    ck_assert_int_gt(deadlocks, 5);
    ck_assert_int_gt(differ, 50); /* and contention changed the length of these */
}
END_TEST

/* eval_length_below against eval_length: with a cutoff above the length the exact
 * length, at or below it EVAL_NOT_BELOW (a deadlock: -1 or EVAL_NOT_BELOW), with and
 * without contention and in eval_new_bound's workspace, on short runs and on long ones
 * that skip periods; the cut runs leave the workspace as good as new. */
static Evaluator *
workspace(const Sched *s, bool bound)
{
    return bound ? eval_new_bound(s->g, s->p) : eval_new(s->g, s->p);
}

/* eval_length_below(s, c) in a new workspace: a run (a new workspace has no memo). */
static int64_t
below_fresh(const Sched *s, bool bound, int64_t c)
{
    Evaluator *ev = workspace(s, bound);
    int64_t L = eval_length_below(ev, s, c);
    eval_free(ev);
    return L;
}

/* Every cutoff runs in a workspace of its own (in ev, which has evaluated s, the memo
 * answers: it must answer as the run does). */
static void
ck_cutoffs(Evaluator *ev, bool bound, const Sched *s, uint64_t *x, uint64_t seed,
           int *cuts)
{
    int64_t L = eval_length(ev, s);
    int64_t c[12] = {L - 1, L, L + 1, L / 2, L - L / 50, L + L / 50, 0, 1, INT64_MAX};
    int nc = 9;
    while (nc < 12)
        c[nc++] =
            L > 0 ? (int64_t)(rnd(x) % (uint64_t)(2 * L + 2)) : (int64_t)(rnd(x) % 100);
    for (int j = 0; j < nc; j++) {
        Evaluator *cut = workspace(s, bound);
        int64_t got = eval_length_below(cut, s, c[j]);
        ck_assert_int_eq(eval_length_below(ev, s, c[j]), got);
        if (got == EVAL_NOT_BELOW) /* nothing left over from a cut run */
            ck_assert_int_eq(eval_length(cut, s), L);
        eval_free(cut);
        if (L < 0)
            ck_assert_msg(got == -1 || (got == EVAL_NOT_BELOW && c[j] != INT64_MAX),
                          "seed %llu: deadlock, cutoff %lld gives %lld",
                          (unsigned long long)seed, (long long)c[j], (long long)got);
        else if (L < c[j])
            ck_assert_msg(got == L, "seed %llu: length %lld, cutoff %lld gives %lld",
                          (unsigned long long)seed, (long long)L, (long long)c[j],
                          (long long)got);
        else
            ck_assert_msg(
                got == EVAL_NOT_BELOW, "seed %llu: length %lld, cutoff %lld gives %lld",
                (unsigned long long)seed, (long long)L, (long long)c[j], (long long)got);
        *cuts += got == EVAL_NOT_BELOW;
    }
}

/* Without contention eval_length and eval_length_below take the sweep (one pass per
 * iteration in a fixed order of the operations) where it applies; eval_run always
 * simulates.  They must agree on every random schedule, in eval_new's workspace without
 * contention and in eval_new_bound's, with and without a cutoff. */
TEST(sweep_agrees_with_simulate)
{
    int runs = 0, deadlocks = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 1, 40, &g);
        g->platform->no_contention = true;
        for (int model = 0; model < 2; model++) {
            Evaluator *ev =
                model ? eval_new_bound(g, g->platform) : eval_new(g, g->platform);
            Arena *a = arena_new();
            EvalResult r;
            int rc = eval_run_with(ev, s, NULL, &r, a);
            int64_t L = eval_length(ev, s);
            ck_assert_msg(
                L == (rc < 0 ? -1 : r.length), "seed %llu model %d: %lld, simulated %lld",
                (unsigned long long)seed, model, (long long)L, (long long)r.length);
            if (L > 0) {
                ck_assert_int_eq(below_fresh(s, model, L + 1), L);
                ck_assert_int_eq(below_fresh(s, model, L), EVAL_NOT_BELOW);
            }
            deadlocks += L < 0;
            runs++;
            arena_free(a);
            eval_free(ev);
        }
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_eq(runs, 800);
    ck_assert_int_lt(deadlocks, runs / 2); /* most runs have a length to compare */
}
END_TEST

/* The memo (docs/evaluator.md, "Cost"): one workspace evaluates a schedule, then others
 * that differ from it in one pipelined flag, one operation's place or its platform's
 * handshake, then it again, with and without cutoffs; every answer is the one a new
 * workspace computes. */
TEST(memo_is_exact)
{
    int unchanged = 0, n = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 1, 25, &g);
        uint64_t x = seed * 0xD1B54A32D192ED03u;
        for (int model = 0; model < 3; model++) {
            g->platform->no_contention = model == 1;
            Evaluator *ev = workspace(s, model == 2);
            for (int step = 0; step < 24; step++) {
                int what = (int)(rnd(&x) % 5), m = -1, d = -1;
                int64_t hs = g->platform->handshake;
                if (what == 1 && s->nmsgs > 0) { /* one pipelined flag */
                    m = (int)(rnd(&x) % (uint64_t)s->nmsgs);
                    s->msgs[m].pipelined = !s->msgs[m].pipelined;
                } else if (what == 2) { /* the first two operations of a DSP swapped */
                    d = (int)(rnd(&x) % (uint64_t)s->ndsps);
                    if (s->nops[d] < 2)
                        d = -1;
                    else {
                        Op t = s->ops[d][0];
                        s->ops[d][0] = s->ops[d][1];
                        s->ops[d][1] = t;
                    }
                } else if (what == 3) {
                    g->platform->handshake = hs + 1 + (int64_t)(rnd(&x) % 50);
                }
                int64_t L = below_fresh(s, model == 2, INT64_MAX);
                int64_t c = rnd(&x) % 3 == 0 ? INT64_MAX
                            : L > 0          ? (int64_t)(rnd(&x) % (uint64_t)(2 * L + 2))
                                             : (int64_t)(rnd(&x) % 100);
                int64_t want = below_fresh(s, model == 2, c);
                int64_t got =
                    c == INT64_MAX ? eval_length(ev, s) : eval_length_below(ev, s, c);
                ck_assert_msg(got == want, "seed %llu model %d step %d: %lld, fresh %lld",
                              (unsigned long long)seed, model, step, (long long)got,
                              (long long)want);
                unchanged += what == 0 || what == 4;
                n++;
                if (m >= 0 && rnd(&x) % 2) /* back to s: the memo holds the variant */
                    s->msgs[m].pipelined = !s->msgs[m].pipelined;
                if (d >= 0 && rnd(&x) % 2) {
                    Op t = s->ops[d][0];
                    s->ops[d][0] = s->ops[d][1];
                    s->ops[d][1] = t;
                }
                g->platform->handshake = hs;
            }
            eval_free(ev);
        }
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_eq(n, 200 * 3 * 24);
    ck_assert_int_gt(unchanged, n / 4); /* repeats, which the memo answers */
}
END_TEST

TEST(cutoff_is_exact)
{
    int cuts = 0, runs = 0;
    for (uint64_t seed = 1; seed <= 460; seed++) {
        Graph *g;
        /* 400 short runs, 60 long ones (200 to 1200 iterations: periods skipped) */
        Sched *s = seed <= 400 ? random_contended(seed, 1, 25, &g)
                               : random_contended(seed, 200, 1000, &g);
        uint64_t x = seed * 0x2545F4914F6CDD1Du;
        for (int model = 0; model < 3; model++) {
            g->platform->no_contention = model == 1;
            Evaluator *ev =
                model == 2 ? eval_new_bound(g, g->platform) : eval_new(g, g->platform);
            ck_cutoffs(ev, model == 2, s, &x, seed, &cuts);
            eval_free(ev);
            runs++;
        }
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_eq(runs, 3 * 460);
    ck_assert_int_gt(cuts, runs); /* the "not below" side is exercised */
}
END_TEST

/* Overflow: one 2^31-byte edge over a 1 Mbit/s link with a 100 GHz clock, so that
 * one transfer takes about 1.9e15 cycles.  1000 iterations fit: the run is periodic from
 * the second iteration on, so L(1000) = L(2) + 998 (L(3) - L(2)) exactly, with and
 * without contention (before the fix 10000 iterations gave a shorter length than 1000 and
 * 5000 a false deadlock; fe_check now refuses those,
 * testcases/invalid/total-time-overflow-*). The bound is above every length and below
 * 2^62 at 1000 iterations, above at 5000. */
static int64_t
huge_edge_length(int64_t iterations, bool contention)
{
    int64_t cyc[] = {100, 100};
    Graph *g = mk_graph("bwdsp-1board", 2, cyc, iterations);
    g->platform->link_mbps = 1;
    g->platform->dsp_clock_mhz = 100000;
    g->platform->no_contention = !contention;
    add_edge(g, 0, 1, INT64_C(1) << 31, 0);
    ck_assert_int_eq(ir_graph_index(g), 0);
    Sched *s = ir_sched_new(g, g->platform);
    s->map[0] = 0;
    s->map[1] = 1;
    C(s, 0, 0);
    C(s, 1, 1);
    comm_insert(s);
    int64_t bound = plat_length_bound(g->platform, g), len = -1;
    if (bound <= IR_MAX_TIME) {
        Evaluator *ev = eval_new(g, g->platform);
        len = eval_length(ev, s);
        eval_free(ev);
        ck_assert_int_gt(len, 0);
        ck_assert_int_le(len, bound);
    }
    ir_sched_free(s);
    ir_graph_free(g);
    return len;
}

TEST(a_huge_edge_fits_or_is_refused)
{
    for (int c = 0; c < 2; c++) {
        int64_t l2 = huge_edge_length(2, c), l3 = huge_edge_length(3, c);
        int64_t l1000 = huge_edge_length(1000, c);
        ck_assert_int_gt(l3 - l2, INT64_C(1800000000000000)); /* one transfer */
        ck_assert_int_eq(l1000, l2 + 998 * (l3 - l2));
        ck_assert_int_gt(l1000, INT64_C(1) << 60);
        ck_assert_int_eq(huge_edge_length(5000, c), -1); /* refused: not evaluated */
        ck_assert_int_eq(huge_edge_length(10000, c), -1);
    }
}
END_TEST

/* Long runs with contention: eval_length skips whole periods (the network's state
 * included); the packet simulation runs every iteration. */
TEST(contention_steady_state_skipping_is_exact)
{
    int compared = 0;
    for (uint64_t seed = 1001; seed <= 1060; seed++) {
        Graph *g;
        Sched *s = random_contended(seed, 200, 1000, &g);
        Des des;
        int64_t want = des_length(&des, s);
        Evaluator *ev = eval_new(g, g->platform);
        int64_t got = eval_length(ev, s);
        eval_free(ev);
        ck_assert_msg(got == want, "seed %llu: evaluator %lld, packet simulation %lld",
                      (unsigned long long)seed, (long long)got, (long long)want);
        compared += want >= 0;
        des_free(&des);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(compared, 30);
}
END_TEST

/* Steady state: eval_length skips whole periods once the run repeats itself; eval_run
 * recording every iteration never skips.  They must agree exactly, on long runs of random
 * schedules (with deadlocks, merges, pipelining, delays, eager messages), and recording
 * only the first and the last iterations must give the same times as recording all. */
TEST(steady_state_skipping_is_exact)
{
    int compared = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        uint64_t x = seed * 0x2545F4914F6CDD1Du;
        int n = 2 + (int)(rnd(&x) % 9);
        int64_t cyc[16];
        for (int t = 0; t < n; t++)
            cyc[t] = 1 + (int64_t)(rnd(&x) % 3000);
        Graph *g = mk_graph(seed % 3 ? "bwdsp-1board" : "bwdsp-4board", n, cyc,
                            300 + (int64_t)(rnd(&x) % 1500));
        for (int t = 1; t < n; t++)
            for (int j = 0, k = 1 + (int)(rnd(&x) % 2); j < k; j++)
                add_edge(g, (int)(rnd(&x) % (uint64_t)t), t, (int64_t)(rnd(&x) % 1200),
                         0);
        for (int j = 0, k = (int)(rnd(&x) % 3); j < k; j++)
            add_edge(g, (int)(rnd(&x) % (uint64_t)n), (int)(rnd(&x) % (uint64_t)n), 64,
                     1 + (int)(rnd(&x) % 5));
        ck_assert_int_eq(ir_graph_index(g), 0);
        if (rnd(&x) % 4 == 0)
            g->platform->eager_limit = 64 + (int64_t)(rnd(&x) % 400);
        int nd = 2 + (int)(rnd(&x) % 3);
        Sched *s = ir_sched_new(g, g->platform);
        for (int k = 0; k < n; k++) {
            int t = g->topo[k];
            s->map[t] = (int)(rnd(&x) % (uint64_t)nd);
            ir_sched_push_op(s, s->map[t], OP_COMPUTE, t);
        }
        comm_insert(s);
        for (int a = 0; a + 1 < s->nmsgs && rnd(&x) % 2; a++)
            for (int b = a + 1; b < s->nmsgs; b++)
                if (s->msgs[a].src == s->msgs[b].src &&
                    s->msgs[a].dst == s->msgs[b].dst &&
                    s->msgs[a].delay == s->msgs[b].delay) {
                    merge(s, a, b);
                    break;
                }
        for (int m = 0; m < s->nmsgs; m++)
            s->msgs[m].pipelined = rnd(&x) % 3 == 0;
        Arena *a = arena_new();
        EvalResult all, some;
        int64_t len =
            both(s, &all, a); /* eval_length (skips) == eval_run (records all) */
        int rc = eval_run(s, &(EvalOpts){2, 3}, &some, a);
        ck_assert_int_eq(some.length, len);
        ck_assert_int_eq(rc, len < 0 ? -1 : 0);
        if (len >= 0) {
            for (int d = 0; d < s->ndsps; d++) {
                ck_assert_int_eq(some.busy[d], all.busy[d]);
                ck_assert_int_eq(some.compute[d], all.compute[d]);
                for (int j = 0; j < some.nrec; j++)
                    for (int k = 0; k < s->nops[d]; k++) {
                        OpTime u = ot(s, &some, d, j, k);
                        OpTime v = ot(s, &all, d, (int)some.rec_iter[j], k);
                        ck_assert_int_eq(u.ready, v.ready);
                        ck_assert_int_eq(u.start, v.start);
                        ck_assert_int_eq(u.end, v.end);
                    }
            }
            for (int j = 0; j < some.nrec; j++)
                for (int m = 0; m < s->nmsgs; m++) {
                    MsgTime u = some.msg_time[j * s->nmsgs + m];
                    MsgTime v = all.msg_time[some.rec_iter[j] * s->nmsgs + m];
                    ck_assert_int_eq(u.issue, v.issue);
                    ck_assert_int_eq(u.post, v.post);
                    ck_assert_int_eq(u.arrive, v.arrive);
                }
            compared++;
        }
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    ck_assert_int_gt(compared, 30);
}
END_TEST

/* 10^9 iterations of the worked example, in no time.  Blocking: from iteration 1 on, b
 * ends every 300 + 264 + 400 + 2000 = 2964 cycles (DSP 1 posts at the end of b; the send
 * was issued 800 cycles before), so the length is 4564 + 2964 * (N - 1).  Pipelined: the
 * same length as the full simulation extrapolated from 1000 and 2000 iterations. */
TEST(a_billion_iterations)
{
    Graph *g;
    Sched *s = worked_example(&g, false);
    g->iterations = 1000000000;
    Evaluator *ev = eval_new(g, g->platform);
    ck_assert_int_eq(eval_length(ev, s), 4564 + INT64_C(2964) * (g->iterations - 1));
    s->msgs[0].pipelined = true;
    Arena *a = arena_new();
    EvalResult r1, r2;
    g->iterations = 1000;
    eval_run(s, &(EvalOpts){1000, 0}, &r1, a);
    g->iterations = 2000;
    eval_run(s, &(EvalOpts){2000, 0}, &r2, a);
    int64_t per = (r2.length - r1.length) / 1000;
    g->iterations = 1000000000;
    ck_assert_int_eq(eval_length(ev, s), r1.length + per * (g->iterations - 1000));
    eval_free(ev);
    arena_free(a);
    ir_sched_free(s);
    ir_graph_free(g);
}
END_TEST

/* The delay pair of delay_two_across_dsps_with_zero_delay_traffic over N iterations: b of
 * iteration j ends every 5128 cycles while RECV m1 takes in data (j <= N - d), then every
 * 2964 (the worked example's period): 4564 + 5128 (N - d) + 2964 (d - 1).  Checked by the
 * full simulation for small N, then for 10^9 iterations with delays up to 10^6 (the
 * largest a graph may have): the periodic skip must land exactly on the d - 1 iterations
 * without m1 at the end. */
TEST(a_billion_iterations_with_a_delay_edge)
{
    int small[] = {1, 2, 3, 7, 30};
    for (int j = 0; j < 5; j++) {
        Graph *g;
        Sched *s = delay_pair(&g, small[j], 50, false);
        Arena *a = arena_new();
        EvalResult r;
        ck_assert_int_eq(both(s, &r, a),
                         4564 + 5128 * (50 - small[j]) + 2964 * (small[j] - 1));
        arena_free(a);
        ir_sched_free(s);
        ir_graph_free(g);
    }
    int big[] = {1, 2, 1000, 1000000};
    for (int j = 0; j < 4; j++) {
        Graph *g;
        Sched *s = delay_pair(&g, big[j], 1000000000, false);
        Evaluator *ev = eval_new(g, g->platform);
        int64_t n = g->iterations, d = big[j];
        ck_assert_int_eq(eval_length(ev, s), 4564 + 5128 * (n - d) + 2964 * (d - 1));
        eval_free(ev);
        ir_sched_free(s);
        ir_graph_free(g);
    }
}
END_TEST
