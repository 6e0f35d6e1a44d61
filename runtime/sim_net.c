/* sim_net.c: the RapidIO fabric of docs/design.md section 4.
 *
 * Nodes: DSP d is node d, the switch of board b is node pdsps + b. Directed links:
 * DSP d up (2d) and down (2d+1), then two per board link. Routes follow the minimum
 * spanning tree of the board links (Prim from board 0, ties to the lower board).
 * A message is k packets; a packet holds a link ser(size) cycles per attempt; a
 * switch forwards it switch_latency cycles after it has received it whole. With
 * contention a link is a resource: waiting packets go by priority (higher first),
 * then shorter message, then issue order, then packet index (pk_before). Without
 * contention each message has the links to itself: a packet waits only for the packets of
 * its own message, which gives exactly
 *     sum ser(packets) + h * (switch_latency + ser(largest packet)).
 * Faults: each transmission is corrupted with probability fault_rate (a hash of
 * the seed, message, packet, link and attempt, so runs repeat); the receiving end
 * checks the CRC-32 and the link retransmits.
 *
 * The fabric calls nothing above it: a message carries the functions to call when its
 * last packet is in at its destination (on_arrive) or, for a broadcast, when any packet
 * reaches a node (on_packet). */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

static int
board_of_node(int node)
{
    return node - K->pdsps;
}

int
net_switch_node(int board)
{
    return K->pdsps + board;
}

static Cycles
ser(int bytes)
{
    long long num = (long long)bytes * 8 * K->plat.dsp_clock_mhz;
    return (num + K->plat.link_mbps - 1) / K->plat.link_mbps;
}

/* a table for the sizes of packets (a division per packet and link is slow) */
Cycles
net_ser(int bytes)
{
    return bytes >= 0 && bytes <= K->plat.packet_bytes ? K->ser_tab[bytes] : ser(bytes);
}

int
net_npackets(size_t bytes)
{
    size_t pl = (size_t)K->plat.payload_bytes;
    size_t k = (bytes + pl - 1) / pl;
    return k ? (int)k : 1;
}

/* The spanning tree of the board links that ir/platform.c routes along too
 * (pd_spanning_tree), its adjacency and each board's next hop towards each other board */
static int
build_tree(char *err, size_t errlen)
{
    int B = K->plat.nboards;
    int *parent = malloc((size_t)B * sizeof *parent);
    K->tree_next = malloc((size_t)B * B * sizeof *K->tree_next);
    K->tree_link = malloc((size_t)B * B * sizeof *K->tree_link);
    K->board_nbr_off = calloc((size_t)B + 1, sizeof *K->board_nbr_off);
    K->board_nbr = malloc((size_t)(2 * B + 2) * sizeof *K->board_nbr);
    if (!parent || !K->tree_next || !K->tree_link || !K->board_nbr_off || !K->board_nbr)
        abort();
    for (int i = 0; i < B * B; i++)
        K->tree_link[i] = -1;
    int base = 2 * K->pdsps;
    for (int i = 0; i < K->plat.nlinks; i++) {
        int a = K->plat.links[i].a, b = K->plat.links[i].b;
        K->tree_link[a * B + b] = base + 2 * i;
        K->tree_link[b * B + a] = base + 2 * i + 1;
    }
    int unreached = pd_spanning_tree(B, K->plat.links, K->plat.nlinks, parent);
    if (unreached >= 0) {
        snprintf(err, errlen, "the board links do not connect board %d to board 0",
                 unreached);
        free(parent);
        return -1;
    }
    /* tree adjacency */
    int *deg = calloc((size_t)B, sizeof *deg);
    for (int v = 0; v < B; v++)
        if (parent[v] >= 0)
            deg[v]++, deg[parent[v]]++;
    for (int v = 0; v < B; v++)
        K->board_nbr_off[v + 1] = K->board_nbr_off[v] + deg[v];
    memset(deg, 0, (size_t)B * sizeof *deg);
    for (int v = 0; v < B; v++) {
        int p = parent[v];
        if (p < 0)
            continue;
        K->board_nbr[K->board_nbr_off[v] + deg[v]++] = p;
        K->board_nbr[K->board_nbr_off[p] + deg[p]++] = v;
    }
    /* next hops: a BFS from each destination over the tree */
    int *q = malloc((size_t)B * sizeof *q);
    for (int dst = 0; dst < B; dst++) {
        for (int i = 0; i < B; i++)
            K->tree_next[i * B + dst] = -1;
        int h = 0, t = 0;
        q[t++] = dst;
        K->tree_next[dst * B + dst] = dst;
        while (h < t) {
            int u = q[h++];
            for (int j = K->board_nbr_off[u]; j < K->board_nbr_off[u + 1]; j++) {
                int v = K->board_nbr[j];
                if (K->tree_next[v * B + dst] < 0) {
                    K->tree_next[v * B + dst] = u;
                    q[t++] = v;
                }
            }
        }
    }
    free(q), free(deg), free(parent);
    return 0;
}

int
net_init(char *err, size_t errlen)
{
    int P = K->pdsps;
    K->ser_tab = malloc(((size_t)K->plat.packet_bytes + 1) * sizeof *K->ser_tab);
    if (!K->ser_tab)
        abort();
    for (int b = 0; b <= K->plat.packet_bytes; b++)
        K->ser_tab[b] = ser(b);
    K->nlinkall = 2 * P + 2 * K->plat.nlinks;
    K->links = calloc((size_t)K->nlinkall, sizeof *K->links);
    if (!K->links)
        abort();
    for (int d = 0; d < P; d++) {
        int sw = P + d / K->plat.dsps_per_board;
        K->links[2 * d] = (Link){.from = d, .to = sw};
        K->links[2 * d + 1] = (Link){.from = sw, .to = d};
    }
    for (int i = 0; i < K->plat.nlinks; i++) {
        int a = P + K->plat.links[i].a, b = P + K->plat.links[i].b;
        K->links[2 * P + 2 * i] = (Link){.from = a, .to = b};
        K->links[2 * P + 2 * i + 1] = (Link){.from = b, .to = a};
    }
    K->tr.nlinks = K->nlinkall;
    int B = K->plat.nboards;
    K->phys_off = calloc((size_t)B + 1, sizeof *K->phys_off);
    K->phys_link = malloc((size_t)(2 * K->plat.nlinks + 1) * sizeof *K->phys_link);
    if (!K->phys_off || !K->phys_link)
        abort();
    for (int i = 0; i < K->plat.nlinks; i++) {
        K->phys_off[K->plat.links[i].a + 1]++;
        K->phys_off[K->plat.links[i].b + 1]++;
    }
    for (int b = 0; b < B; b++)
        K->phys_off[b + 1] += K->phys_off[b];
    int *fill = calloc((size_t)B, sizeof *fill);
    if (!fill)
        abort();
    for (int i = 0; i < K->plat.nlinks; i++) {
        int a = K->plat.links[i].a, b = K->plat.links[i].b;
        K->phys_link[K->phys_off[a] + fill[a]++] = 2 * P + 2 * i;
        K->phys_link[K->phys_off[b] + fill[b]++] = 2 * P + 2 * i + 1;
    }
    free(fill);
    return build_tree(err, errlen);
}

void
net_free(void)
{
    for (int i = 0; i < K->nlinkall; i++)
        free(K->links[i].q);
    free(K->links);
    free(K->tree_next);
    free(K->tree_link);
    free(K->board_nbr);
    free(K->board_nbr_off);
    free(K->phys_link);
    free(K->phys_off);
    free(K->ser_tab);
}

int
net_link_between(int from, int to)
{
    int P = K->pdsps;
    if (from < P)
        return 2 * from;
    if (to < P)
        return 2 * to + 1;
    return K->tree_link[board_of_node(from) * K->plat.nboards + board_of_node(to)];
}

/* the link a unicast packet takes next from node */
static int
route(const Msg *m, int node)
{
    if (node < K->pdsps)
        return 2 * node;
    int b = board_of_node(node), db = m->dst / K->plat.dsps_per_board;
    if (b == db)
        return 2 * m->dst + 1;
    int nb = K->tree_next[b * K->plat.nboards + db];
    return K->tree_link[b * K->plat.nboards + nb];
}

/* ---- faults: deterministic corruption, CRC-32 check, retransmission ---- */

static uint64_t
mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint32_t
crc32(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

/* the wire image of a packet: header (id, index, size) then the payload */
static size_t
wire(const Packet *p, unsigned char *buf)
{
    const Msg *m = p->m;
    size_t n = 0;
    memcpy(buf, &m->id, sizeof m->id), n += sizeof m->id;
    memcpy(buf + n, &p->idx, sizeof p->idx), n += sizeof p->idx;
    memcpy(buf + n, &p->size, sizeof p->size), n += sizeof p->size;
    if (m->data && p->payload > 0) {
        memcpy(buf + n, m->data + (size_t)p->idx * K->plat.payload_bytes,
               (size_t)p->payload);
        n += (size_t)p->payload;
    }
    return n;
}

/* attempts needed to get p across link L intact */
static int
attempts(const Packet *p, int L)
{
    if (K->set.fault_rate <= 0)
        return 1;
    unsigned char buf[64 + 4096];
    if (K->plat.payload_bytes > 4096)
        return 1;
    size_t n = wire(p, buf);
    uint32_t sent = crc32(buf, n);
    double th = K->set.fault_rate * 18446744073709551616.0;
    uint64_t thr = th >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)th;
    for (int a = 0; a < 64; a++) {
        uint64_t h = mix(K->set.fault_seed ^ mix(p->m->id * 1000003u + (uint64_t)p->idx) ^
                         mix(((uint64_t)L << 32) | (uint64_t)a));
        if (h >= thr)
            return a + 1;
        /* this attempt is corrupted on the wire: one bit flips */
        size_t bit = (size_t)(mix(h) % (n * 8));
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        uint32_t got = crc32(buf, n);
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        if (got == sent) /* CRC-32 catches every single-bit error; never taken */
            return a + 1;
    }
    return 65;
}

static void pkt_recv(void *p);
static void pkt_ready(void *p);
static void link_arb(void *link);

/* p starts on link L now; returns the end of the transmission */
static Cycles
transmit(Packet *p, int L, Cycles start)
{
    Link *l = &K->links[L];
    int a = K->set.fault_rate > 0 ? attempts(p, L) : 1;
    Cycles dur = (Cycles)a * net_ser(p->size);
    l->packets++;
    l->bytes += p->size;
    l->retries += a - 1;
    l->busy += dur;
    K->tr.link_packets++;
    K->tr.retries += a - 1;
    p->link = L;
    if (trace_active) {
        char name[48];
        snprintf(name, sizeof name, "msg %llu pkt %d", (unsigned long long)p->m->id,
                 p->idx);
        char args[96];
        snprintf(args, sizeof args, "\"msg\":%llu,\"packet\":%d,\"bytes\":%lld",
                 (unsigned long long)p->m->id, p->idx, (long long)p->size);
        trace_span(1, L, name, start, start + dur, a > 1 ? "retry" : "packet", args);
    }
    k_push(start + dur, 0, pkt_recv, p);
    return start + dur;
}

/* The arbitration rule (docs/execution-model.md, "Contention"; the compiler's evaluator
 * implements the same): of the packets ready for a free link, higher priority first, then
 * the shorter message, then the message issued first (issue time, then source rank, then
 * the source's send order: all virtual-time quantities, so the order does not depend on
 * how the DSP threads interleave), then the lower packet index.  In-switch collective
 * streams (no source rank) are ordered by identifier last. */
static int
pk_before(const Packet *a, const Packet *b)
{
    const Msg *x = a->m, *y = b->m;
    if (x->prio != y->prio)
        return x->prio > y->prio;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes;
    if (x->issued != y->issued)
        return x->issued < y->issued;
    if (x->src != y->src)
        return x->src < y->src;
    if (x->src_seq != y->src_seq)
        return x->src_seq < y->src_seq;
    if (x->id != y->id)
        return x->id < y->id;
    return a->idx < b->idx;
}

static void
q_push(Link *l, Packet *p)
{
    if (l->nq == l->capq) {
        l->capq = l->capq ? 2 * l->capq : 16;
        l->q = realloc(l->q, (size_t)l->capq * sizeof *l->q);
        if (!l->q)
            abort();
    }
    int i = l->nq++;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (!pk_before(p, l->q[up]))
            break;
        l->q[i] = l->q[up];
        i = up;
    }
    l->q[i] = p;
}

static Packet *
q_pop(Link *l)
{
    Packet *top = l->q[0], *last = l->q[--l->nq];
    int i = 0, n = l->nq;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && pk_before(l->q[c + 1], l->q[c]))
            c++;
        if (!pk_before(l->q[c], last))
            break;
        l->q[i] = l->q[c];
        i = c;
    }
    if (n)
        l->q[i] = last;
    return top;
}

/* no contention: the slot that records when the message last freed link L */
static Cycles *
own_busy(Packet *p, int L)
{
    Msg *m = p->m;
    if (!m->hop_busy) {
        /* a broadcast spreads over any links; other messages follow one path */
        size_t n = m->bcast ? (size_t)K->nlinkall : (size_t)K->plat.nboards + 2;
        m->hop_busy = k_zalloc(n * sizeof *m->hop_busy);
    }
    return &m->hop_busy[m->bcast ? L : p->hop];
}

/* p is ready for link L at time t >= now */
static void
offer(Packet *p, int L, Cycles t)
{
    p->link = L;
    if (K->set.no_contention) {
        Cycles *b = own_busy(p, L);
        Cycles s = t > *b ? t : *b;
        *b = transmit(p, L, s);
        return;
    }
    if (t > K->now) {
        k_push(t, 0, pkt_ready, p);
        return;
    }
    Link *l = &K->links[L];
    q_push(l, p);
    if (!l->arb_pending) {
        l->arb_pending = 1;
        k_push(l->busy_until > K->now ? l->busy_until : K->now, 1, link_arb, l);
    }
}

static void
pkt_ready(void *p)
{
    offer(p, ((Packet *)p)->link, K->now);
}

static void
link_arb(void *link)
{
    Link *l = link;
    int L = (int)(l - K->links);
    l->arb_pending = 0;
    if (l->nq == 0)
        return;
    Packet *p = q_pop(l);
    l->busy_until = transmit(p, L, K->now);
    if (l->nq > 0) {
        l->arb_pending = 1;
        k_push(l->busy_until, 1, link_arb, l);
    }
}

Msg *
net_msg_new(void)
{
    return k_zalloc(sizeof(Msg));
}

void
net_msg_free(Msg *m)
{
    k_dealloc(m->data);
    k_dealloc(m->pk);
    k_dealloc(m->hop_busy);
    k_dealloc(m);
}

void
net_make_packets(Msg *m)
{
    int k = net_npackets(m->bytes);
    int hdr = K->plat.packet_bytes - K->plat.payload_bytes;
    m->npk = m->left = k;
    if (m->coll) /* a switch's stream is issued when it starts to move */
        m->issued = K->now;
    m->pk = k_alloc((size_t)k * sizeof *m->pk);
    size_t rest = m->bytes;
    for (int i = 0; i < k; i++) {
        int pl = rest > (size_t)K->plat.payload_bytes ? K->plat.payload_bytes : (int)rest;
        rest -= (size_t)pl;
        m->pk[i] = (Packet){
            .m = m, .idx = i, .size = pl + hdr, .payload = pl, .in_link = -1, .link = -1};
    }
    K->tr.messages++;
    K->tr.packets += k;
    K->tr.bytes += (long long)m->bytes;
}

static void
arrive_abstract(void *mp)
{
    Msg *m = mp;
    m->on_arrive(m, m->to_node);
}

static void
start_unicast(void *mp)
{
    Msg *m = mp;
    net_make_packets(m);
    if (K->plat.model ==
        PD_ABSTRACT) { /* the literature's model: n bytes cost n cycles */
        k_push(K->now + (m->src == m->dst ? 0 : (Cycles)m->bytes), 0, arrive_abstract, m);
        return;
    }
    int L = route(m, m->src);
    for (int i = 0; i < m->npk; i++)
        offer(&m->pk[i], L, K->now);
}

void
net_send(Msg *m)
{
    m->from_node = m->src;
    m->to_node = m->dst;
    start_unicast(m);
}

void
net_send_at(Msg *m, Cycles t)
{
    m->from_node = m->src;
    m->to_node = m->dst;
    k_push(t, 0, start_unicast, m);
}

static void
start_stream(void *mp)
{
    Msg *m = mp;
    net_make_packets(m);
    Cycles t = K->now;
    if (m->from_node >= K->pdsps)
        t += K->plat.switch_latency;
    int L = net_link_between(m->from_node, m->to_node);
    for (int i = 0; i < m->npk; i++)
        offer(&m->pk[i], L, t);
}

void
net_stream(Msg *m, int from_node, int to_node)
{
    m->from_node = from_node;
    m->to_node = to_node;
    start_stream(m);
}

void
net_stream_at(Msg *m, int from_node, int to_node, Cycles t)
{
    m->from_node = from_node;
    m->to_node = to_node;
    k_push(t, 0, start_stream, m);
}

/* a replica of p (a broadcast packet) leaves its switch on link L */
void
net_forward_copy(Packet *p, int L)
{
    Packet *c = k_alloc(sizeof *c);
    *c = *p;
    c->in_link = p->link;
    c->hop = p->hop + 1;
    c->owned = 1;
    offer(c, L, K->now + K->plat.switch_latency);
}

static void
pkt_recv(void *pp)
{
    Packet *p = pp;
    Msg *m = p->m;
    int node = K->links[p->link].to;
    if (m->on_packet) {
        m->on_packet(p, node);
        return;
    }
    if (node != m->to_node) { /* a switch on the way */
        p->hop++;
        p->in_link = p->link;
        offer(p, route(m, node), K->now + K->plat.switch_latency);
        return;
    }
    if (--m->left == 0)
        m->on_arrive(m, node);
}
