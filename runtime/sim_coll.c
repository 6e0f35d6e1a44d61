/* sim_coll.c: collectives in the RapidIO switches ([MPIRIO] (docs/references.md)
 * Algorithms 1 to 3).
 *
 * The members of a collective are the DSPs of a communicator; the tree is the MST
 * of the boards rooted at the root's board. A switch talks to the ports that lead
 * to members: its own member DSPs and the child boards whose subtree holds one.
 * - Bcast (Algorithm 1): the root sends k packets to its switch; each switch copies
 *   every packet to all its ports but the input one (its member DSPs and the board
 *   links, all of them, to boards that take part: those on the tree between the root
 *   and a member), and drops a packet whose identifier it has already seen.
 * - Gather (Algorithm 2, without the repacking): every member but the root sends
 *   its block in its own packets towards the root; each switch forwards every packet
 *   as soon as it is in, and the root completes once, when the last block is in.
 *   (Packing the blocks of a board into new packets at every switch re-sent each
 *   block at every level of the tree: more packets than MPICH's binomial tree at
 *   every size, and slower for full packets; docs/runtime.md has the table.)
 * - Reduce: every member but the root sends its vector to its switch; a switch
 *   combines the vectors of its board and child boards (in arrival order, which is
 *   deterministic) and forwards one vector toward the root.
 * - Scatter: the mirror of Gather: the root sends each block in its own packets,
 *   the switches forward them.
 * - Barrier (Algorithm 3): each member sends a header-only packet to its switch,
 *   the counters climb the tree, the root's switch broadcasts the release.
 * - Allreduce: Reduce to the switch of the first member's board (every member
 *   sends, none keeps its vector), which broadcasts the result as in Algorithm 1.
 * - Allgather: every member's block is a broadcast of its own (Algorithm 1): the
 *   switches replicate it to every other member.
 * CPU costs: a member that sends is busy send_overhead and goes on (its data is
 * copied); a member that receives waits for its data and is busy recv_overhead.
 * Packet counts: every packet a DSP or a switch creates counts once; the copies
 * of a broadcast count as link crossings only (MPIRIO_Traffic). */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

struct Coll {
    int kind, ctx;
    unsigned seq;
    int base, size, root, rootg, rb;
    size_t bytes;
    MPIRIO_Datatype type;
    MPIRIO_Op op;
    int finished;          /* members done with it */
    int err;               /* the members disagree: every member's error */
    unsigned char *buf;    /* bcast data; gather/scatter blocks in rank order */
    unsigned char *result; /* reduce: the vector that reached the root */
    int *cnt, *sub, *par;  /* per board: members, members in the subtree, parent */
    int *expect, *got;     /* per board: contributions */
    unsigned char **acc;   /* per board: reduce accumulator */
    int *pk_got;           /* per member: broadcast packets in */
    char *delivered;       /* per member: its data is in */
    unsigned char *seen;   /* per source, board and packet index: broadcast duplicates */
    int npk;               /* packets of one broadcast */
    int need;              /* broadcast packets a member waits for */
    int nsrc;              /* broadcasts: one, or one per member (allgather) */
    int ngot;              /* gather: blocks in at the root */
    int inflight;          /* broadcast packets on their way (duplicates included) */
    Msg **bmsg;            /* per source: the broadcast (or release) stream */
    Coll *next;
};

static void *
xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p)
        abort();
    return p;
}

static int
is_child(Coll *c, int b, int nb)
{
    return c->par[nb] == b && c->sub[nb] > 0;
}

static Coll *
coll_new(int kind, int ctx, unsigned seq, int base, int size, int root, size_t bytes,
         MPIRIO_Datatype type, MPIRIO_Op op)
{
    int B = K->plat.nboards, dpb = K->plat.dsps_per_board;
    Coll *c = xcalloc(1, sizeof *c);
    c->kind = kind, c->ctx = ctx, c->seq = seq, c->base = base, c->size = size;
    c->root = root, c->rootg = base + root, c->rb = c->rootg / dpb;
    c->bytes = bytes, c->type = type, c->op = op;
    c->cnt = xcalloc((size_t)B, sizeof *c->cnt);
    c->sub = xcalloc((size_t)B, sizeof *c->sub);
    c->par = xcalloc((size_t)B, sizeof *c->par);
    c->expect = xcalloc((size_t)B, sizeof *c->expect);
    c->got = xcalloc((size_t)B, sizeof *c->got);
    c->acc = xcalloc((size_t)B, sizeof *c->acc);
    c->pk_got = xcalloc((size_t)size, sizeof *c->pk_got);
    c->delivered = xcalloc((size_t)size, 1);
    for (int g = base; g < base + size; g++)
        c->cnt[g / dpb]++;
    /* BFS from the root board over the tree: parents, then subtree sums */
    int *order = xcalloc((size_t)B, sizeof *order);
    char *seenb = xcalloc((size_t)B, 1);
    int h = 0, t = 0;
    order[t++] = c->rb;
    seenb[c->rb] = 1;
    c->par[c->rb] = -1;
    while (h < t) {
        int u = order[h++];
        for (int j = K->board_nbr_off[u]; j < K->board_nbr_off[u + 1]; j++) {
            int v = K->board_nbr[j];
            if (!seenb[v]) {
                seenb[v] = 1;
                c->par[v] = u;
                order[t++] = v;
            }
        }
    }
    for (int i = 0; i < B; i++)
        c->sub[i] = c->cnt[i];
    for (int i = t - 1; i > 0; i--)
        c->sub[c->par[order[i]]] += c->sub[order[i]];
    for (int b = 0; b < B; b++) {
        int e = c->cnt[b];
        if (kind == CO_REDUCE && b == c->rb)
            e--;
        for (int j = K->board_nbr_off[b]; j < K->board_nbr_off[b + 1]; j++)
            e += is_child(c, b, K->board_nbr[j]);
        c->expect[b] = e;
    }
    free(order);
    free(seenb);
    size_t nbuf = kind == CO_GATHER || kind == CO_SCATTER || kind == CO_ALLGATHER
                      ? bytes * (size_t)size
                      : bytes;
    c->buf = xcalloc(nbuf, 1);
    if (kind == CO_BCAST || kind == CO_BARRIER || kind == CO_ALLGATHER ||
        kind == CO_ALLREDUCE) {
        c->npk = kind == CO_BARRIER ? 1 : net_npackets(bytes);
        c->nsrc = kind == CO_ALLGATHER ? size : 1;
        c->need = kind == CO_ALLGATHER ? (size - 1) * c->npk : c->npk;
        c->seen = xcalloc((size_t)c->nsrc * (size_t)B * (size_t)c->npk, 1);
        c->bmsg = xcalloc((size_t)c->nsrc, sizeof *c->bmsg);
    }
    c->next = K->colls;
    K->colls = c;
    return c;
}

static void
coll_free(Coll *c)
{
    for (int b = 0; b < K->plat.nboards; b++)
        k_dealloc(c->acc[b]);
    for (int i = 0; i < c->nsrc; i++)
        if (c->bmsg[i])
            net_msg_free(c->bmsg[i]);
    free(c->bmsg);
    free(c->acc), free(c->cnt), free(c->sub), free(c->par), free(c->expect);
    free(c->got), free(c->pk_got), free(c->delivered), free(c->seen);
    free(c->buf), k_dealloc(c->result);
    free(c);
}

void
coll_free_all(void)
{
    while (K->colls) {
        Coll *c = K->colls;
        K->colls = c->next;
        coll_free(c);
    }
}

/* a collective is freed once every member is done with it and no copy of its
 * packets is still on its way */
static void
maybe_free(Coll *c)
{
    /* a failed collective stays to the end of the run: packets of the members that
     * took part before the failure may still be on their way */
    if (c->finished < c->size || c->inflight > 0 || c->err)
        return;
    for (Coll **pp = &K->colls; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    coll_free(c);
}

static void
finish(Coll *c)
{
    c->finished++;
    maybe_free(c);
}

static void
deliver(Coll *c, int member)
{
    c->delivered[member] = 1;
    Dsp *d = &K->dsps[c->base + member];
    if (d->wait_coll == c) {
        d->wait_coll = NULL;
        k_release(d);
    }
}

static void
describe(const Dsp *d, char *buf, size_t n)
{
    snprintf(buf, n, "waiting for %s (in-switch, root %d)", d->wait_what,
             d->wait_coll->root);
}

/* waits for the member's data, then is busy recv_overhead; the collective's error
 * (its members disagree: then the data never comes) */
static int
wait_for(Coll *c, Dsp *d, int me, const char *what, const char *busy)
{
    if (c->err)
        return c->err;
    if (c->delivered[me]) {
        k_sleep(d, K->plat.recv_overhead, busy);
        return MPIRIO_SUCCESS;
    }
    d->wait_what = what;
    d->describe = describe;
    d->wait_coll = c;
    k_wait_busy(d, K->plat.recv_overhead, busy);
    return c->err;
}

/* member d's arguments disagree with those of the first member of c: the collective
 * fails with err (MPIRIO_ERR_TRUNCATE where the lengths differ, as MPI has it), at
 * d's time: the members waiting in it are released with the error, those still to
 * come get it at once; what the members sent before goes nowhere */
static int
fail(Coll *c, Dsp *d, int err)
{
    if (c->err)
        return c->err;
    k_sync(d);
    c->err = err;
    for (int i = 0; i < c->size; i++) {
        Dsp *o = &K->dsps[c->base + i];
        if (o->wait_coll == c) {
            o->wait_coll = NULL;
            k_release(o);
        }
    }
    return err;
}

static void stream_arrived(Msg *m, int node);
static void bcast_packet(Packet *p, int node);

/* a stream of the collective between neighbours: net_stream sends it */
static Msg *
stream(Coll *c, size_t bytes, unsigned char *data)
{
    Msg *m = net_msg_new();
    m->id = ++K->msg_seq;
    m->coll = c;
    m->bytes = bytes;
    m->data = data;
    m->src = m->dst = -1;
    m->on_arrive = stream_arrived;
    return m;
}

/* a broadcast stream: the switches copy its packets (bcast_switch); src is the member
 * it comes from, -1 for a switch's (a release, an allreduce's result) */
static Msg *
bcast_stream(Coll *c, size_t bytes, int src)
{
    Msg *m = stream(c, bytes, NULL);
    m->bcast = 1;
    m->on_packet = bcast_packet;
    m->srank = src;
    c->bmsg[c->nsrc > 1 ? src : 0] = m;
    return m;
}

/* the record of packet p of a broadcast at board b */
static unsigned char *
seen_at(Coll *c, const Packet *p, int b)
{
    size_t src = c->nsrc > 1 ? (size_t)p->m->srank : 0;
    return &c->seen[(src * (size_t)K->plat.nboards + (size_t)b) * (size_t)c->npk +
                    (size_t)p->idx];
}

/* a unicast message of the collective from member DSP src to DSP dst: the switches
 * forward its packets on the route as any message's */
static void
unicast_at(Coll *c, int src, int dst, size_t bytes, Cycles t)
{
    Msg *m = stream(c, bytes, NULL);
    m->src = src;
    m->dst = dst;
    net_send_at(m, t);
}

/* switch of board b sends a broadcast packet to its ports but the input: its member
 * DSPs, and every board link (not only the tree's) to a board that takes part; the
 * copies that come round a cycle of links are dropped by identifier */
static void
bcast_switch(Coll *c, Packet *p, int b)
{
    int dpb = K->plat.dsps_per_board;
    int from = p->m->srank >= 0 ? c->base + p->m->srank : -1;
    for (int g = b * dpb; g < (b + 1) * dpb; g++) {
        if (g < c->base || g >= c->base + c->size || g == from)
            continue;
        c->inflight++;
        net_forward_copy(p, 2 * g + 1);
    }
    for (int j = K->phys_off[b]; j < K->phys_off[b + 1]; j++) {
        int L = K->phys_link[j], nb = K->links[L].to - K->pdsps;
        if (c->sub[nb] > 0 && (p->link < 0 || L != (p->link ^ 1))) {
            c->inflight++;
            net_forward_copy(p, L);
        }
    }
}

static void
bcast_packet(Packet *p, int node)
{
    Coll *c = p->m->coll;
    if (node < K->pdsps) {
        int member = node - c->base;
        if (++c->pk_got[member] == c->need)
            deliver(c, member);
    } else {
        int b = node - K->pdsps;
        unsigned char *s = seen_at(c, p, b);
        if (*s)
            K->tr.dropped++;
        else {
            *s = 1;
            bcast_switch(c, p, b);
        }
    }
    if (p->owned)
        k_dealloc(p);
    c->inflight--;
    maybe_free(c);
}

/* the switch of the root board broadcasts: the barrier's release, the allreduce's
 * result */
static void
release(Coll *c, size_t bytes)
{
    Msg *m = bcast_stream(c, bytes, -1);
    net_make_packets(m);
    for (int i = 0; i < m->npk; i++) {
        Packet *p = &m->pk[i];
        *seen_at(c, p, c->rb) = 1;
        bcast_switch(c, p, c->rb);
    }
}

/* the switch of board b has all its contributions */
static void
emit_up(Coll *c, int b)
{
    int sw = net_switch_node(b);
    if (c->kind == CO_BARRIER && b == c->rb) {
        release(c, 0);
        return;
    }
    if (c->kind == CO_ALLREDUCE && b == c->rb) {
        c->result = c->acc[b];
        c->acc[b] = NULL;
        release(c, c->bytes);
        return;
    }
    int to = b == c->rb ? c->rootg : net_switch_node(c->par[b]);
    Msg *m;
    if (c->kind == CO_REDUCE || c->kind == CO_ALLREDUCE) {
        m = stream(c, c->bytes, c->acc[b]);
        c->acc[b] = NULL;
    } else
        m = stream(c, 0, NULL);
    net_stream(m, sw, to);
}

/* the fabric's call: all packets of m are in at node */
static void
stream_arrived(Msg *m, int node)
{
    Coll *c = m->coll;
    if (node < K->pdsps) {
        if (c->kind == CO_REDUCE) {
            c->result = m->data;
            m->data = NULL;
        }
        net_msg_free(m);
        if (c->kind != CO_GATHER || ++c->ngot == c->size - 1)
            deliver(c, node - c->base);
        return;
    }
    int b = node - K->pdsps;
    switch (c->kind) {
    case CO_REDUCE:
    case CO_ALLREDUCE:
        if (!c->acc[b]) {
            c->acc[b] = m->data;
            m->data = NULL;
        } else
            dt_reduce(c->acc[b], m->data, (int)(c->bytes / dt_size(c->type)), c->type,
                      c->op);
        break;
    }
    net_msg_free(m);
    if (++c->got[b] == c->expect[b])
        emit_up(c, b);
}

/* the collective of (ctx, seq), made by its first member; *err where the caller's
 * arguments disagree with that member's: MPIRIO_ERR_TRUNCATE for another length,
 * MPIRIO_ERR_ARG for another kind, root, type or operator */
static Coll *
find(int kind, int ctx, unsigned seq, int base, int size, int root, size_t bytes,
     MPIRIO_Datatype type, MPIRIO_Op op, int *err)
{
    for (Coll *c = K->colls; c; c = c->next)
        if (c->ctx == ctx && c->seq == seq) {
            if (c->kind != kind || c->root != root || c->type != type || c->op != op)
                *err = MPIRIO_ERR_ARG;
            else if (c->bytes != bytes)
                *err = MPIRIO_ERR_TRUNCATE;
            return c;
        }
    return coll_new(kind, ctx, seq, base, size, root, bytes, type, op);
}

int
tr_coll_switch(int kind, int ctx, int base, int size, int root, const void *sbuf,
               void *rbuf, size_t bytes, MPIRIO_Datatype type, MPIRIO_Op op)
{
    Dsp *d = k_self();
    int me = d->rank - base, err = 0;
    unsigned seq = ctx == 0 ? d->seq_world++ : d->seq_local++;
    Coll *c = find(kind, ctx, seq, base, size, root, bytes, type, op, &err);
    if (err || c->err) {
        err = fail(c, d, err ? err : c->err);
        finish(c);
        return err;
    }
    int sw = net_switch_node(d->board);
    const PlatDesc *P = &K->plat;
    switch (kind) {
    case CO_BCAST:
        if (me == root) {
            k_sleep(d, P->send_overhead, "bcast send");
            if (bytes)
                memcpy(c->buf, sbuf, bytes);
            if (size > 1) {
                Msg *m = bcast_stream(c, bytes, root);
                c->inflight += c->npk;
                net_stream_at(m, d->rank, sw, d->clock);
            }
        } else {
            if ((err = wait_for(c, d, me, "the broadcast data", "bcast recv")))
                break;
            if (bytes)
                memcpy(rbuf, c->buf, bytes);
        }
        break;
    case CO_GATHER:
        if (bytes)
            memcpy(c->buf + (size_t)me * bytes, sbuf, bytes);
        if (me != root) {
            k_sleep(d, P->send_overhead, "gather send");
            unicast_at(c, d->rank, c->rootg, bytes, d->clock);
        } else {
            if (size > 1 &&
                (err = wait_for(c, d, me, "the gathered blocks", "gather recv")))
                break;
            if (bytes)
                memcpy(rbuf, c->buf, bytes * (size_t)size);
        }
        break;
    case CO_SCATTER:
        if (me == root) {
            k_sleep(d, P->send_overhead, "scatter send");
            if (bytes) {
                memcpy(c->buf, sbuf, bytes * (size_t)size);
                memmove(rbuf, c->buf + (size_t)me * bytes, bytes);
            }
            for (int i = 0; i < size; i++)
                if (i != me)
                    unicast_at(c, d->rank, base + i, bytes, d->clock);
        } else {
            if ((err = wait_for(c, d, me, "its scattered block", "scatter recv")))
                break;
            if (bytes)
                memcpy(rbuf, c->buf + (size_t)me * bytes, bytes);
        }
        break;
    case CO_REDUCE:
        if (me != root) {
            k_sleep(d, P->send_overhead, "reduce send");
            unsigned char *data = bytes ? k_alloc(bytes) : NULL;
            if (bytes)
                memcpy(data, sbuf, bytes);
            net_stream_at(stream(c, bytes, data), d->rank, sw, d->clock);
        } else {
            unsigned char *own = bytes ? malloc(bytes) : NULL;
            if (bytes && !own)
                abort();
            if (bytes)
                memcpy(own, sbuf, bytes);
            if (size > 1) {
                err = wait_for(c, d, me, "the reduced vector", "reduce recv");
                if (bytes && !err)
                    dt_reduce(own, c->result, (int)(bytes / dt_size(type)), type, op);
            }
            if (bytes && !err)
                memcpy(rbuf, own, bytes);
            free(own);
        }
        break;
    case CO_ALLGATHER:
        if (bytes)
            memcpy(c->buf + (size_t)me * bytes, sbuf, bytes);
        if (size > 1) {
            k_sleep(d, P->send_overhead, "allgather send");
            Msg *m = bcast_stream(c, bytes, me);
            c->inflight += c->npk;
            net_stream_at(m, d->rank, sw, d->clock);
            if ((err = wait_for(c, d, me, "the blocks of the others", "allgather recv")))
                break;
        }
        if (bytes)
            memcpy(rbuf, c->buf, bytes * (size_t)size);
        break;
    case CO_ALLREDUCE:
        if (size == 1) {
            if (bytes)
                memmove(rbuf, sbuf, bytes);
            break;
        }
        k_sleep(d, P->send_overhead, "allreduce send");
        {
            unsigned char *data = bytes ? k_alloc(bytes) : NULL;
            if (bytes)
                memcpy(data, sbuf, bytes);
            net_stream_at(stream(c, bytes, data), d->rank, sw, d->clock);
        }
        if ((err = wait_for(c, d, me, "the reduced vector", "allreduce recv")))
            break;
        if (bytes)
            memcpy(rbuf, c->result, bytes);
        break;
    case CO_BARRIER:
        k_sleep(d, P->send_overhead, "barrier arrive");
        net_stream_at(stream(c, 0, NULL), d->rank, sw, d->clock);
        err = wait_for(c, d, me, "the barrier release", "barrier release");
        break;
    }
    finish(c);
    return err;
}
