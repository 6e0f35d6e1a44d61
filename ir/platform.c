/*
 * ir/platform.c - the platform model of docs/design.md sections 2 and 4: tgc's Platform
 * made from the shared description (platform/: the presets, the defaults and the
 * tgc-platform/1 reader), routes along the minimum spanning tree of the board links,
 * packetisation and contention-free fabric time.
 *
 * Routes: along the spanning tree of the board links that platform/ computes
 * (pd_spanning_tree: Prim from board 0, ties to the lower board index), as the runtime's
 * (runtime/) do.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

Platform *
plat_from_desc(Arena *a, const PlatDesc *d)
{
    Platform *p = arena_alloc(a, sizeof *p);
    p->name = arena_strdup(a, d->name ? d->name : "inline");
    p->model = d->model == PD_ABSTRACT ? MODEL_ABSTRACT : MODEL_BWDSP;
    p->nboards = d->nboards;
    p->dsps_per_board = d->dsps_per_board;
    p->ndsps = d->ndsps;
#define COPY(f, lo, hi) p->f = d->f;
    PLATFORM_PARAMS(COPY)
#undef COPY
    p->nlinks = d->nlinks;
    p->links = arena_array(a, (size_t)(d->nlinks > 0 ? d->nlinks : 1), sizeof *p->links);
    for (int i = 0; i < d->nlinks; i++)
        p->links[i] = (BoardLink){d->links[i].a, d->links[i].b};
    return plat_finish(a, p) == 0 ? p : NULL;
}

/* The Platform of a temporary description, which is then released. */
static Platform *
from_temp(Arena *a, PlatDesc *d)
{
    Platform *p = plat_from_desc(a, d);
    if (!p)
        ice("platform \"%s\" is not connected", d->name);
    pd_free(d);
    return p;
}

Platform *
plat_bwdsp_defaults(Arena *a)
{
    PlatDesc d;
    pd_defaults(&d);
    return from_temp(a, &d);
}

Platform *
plat_abstract(Arena *a, int ndsps)
{
    PlatDesc d;
    pd_abstract(&d, ndsps);
    return from_temp(a, &d);
}

Platform *
plat_preset(Arena *a, const char *name)
{
    PlatDesc d;
    if (pd_preset(&d, name) != 0)
        return NULL;
    return from_temp(a, &d);
}

/* The presets' links for p->nboards boards (platform/presets.c), in a. */
static void
preset_links(Arena *a, Platform *p)
{
    PlatDesc d = {.nboards = p->nboards};
    pd_preset_links(&d);
    p->nlinks = d.nlinks;
    p->links = arena_array(a, (size_t)(d.nlinks > 0 ? d.nlinks : 1), sizeof *p->links);
    for (int i = 0; i < d.nlinks; i++)
        p->links[i] = (BoardLink){d.links[i].a, d.links[i].b};
    pd_free(&d);
}

/* The name of a resized platform: a preset's name follows the size (bwdsp-1board with 8
 * DSPs is bwdsp-2board, abstract with 5 is abstract-5), any other name says it was
 * resized. */
static const char *
resized_name(Arena *a, const char *name, const char *family, int count, int ndsps,
             const char *unit)
{
    size_t n = strlen(family);
    const char *rest = name && strncmp(name, family, n) == 0 ? name + n : NULL;
    bool preset = rest && (!*rest || rest[0] == '-');
    if (preset && *rest) { /* "-<digits><unit>" */
        const char *q = rest + 1;
        while (*q >= '0' && *q <= '9')
            q++;
        preset = q > rest + 1 && strcmp(q, unit) == 0;
    }
    if (preset)
        return arena_printf(a, "%s-%d%s", family, count, unit);
    return arena_printf(a, "%s, resized to %d DSPs", name ? name : family, ndsps);
}

int
plat_set_dsps(Arena *a, Platform *p, int ndsps, const char **why)
{
    if (ndsps < 1) {
        *why = "the number of DSPs must be at least 1";
        return -1;
    }
    /* The limits of the platform format (platform/read.c) and of libmpirio, here once for
     * every --dsps: a platform tgc writes must read back, and the routes below take
     * boards^2 memory. */
    if (p->model == MODEL_ABSTRACT && ndsps > PD_MAX_ABSTRACT_DSPS) {
        *why = arena_printf(a, "an abstract platform has at most %d DSPs",
                            PD_MAX_ABSTRACT_DSPS);
        return -2;
    }
    if (p->model == MODEL_ABSTRACT) {
        if (ndsps != p->ndsps)
            p->name = resized_name(a, p->name, "abstract", ndsps, ndsps, "");
        p->ndsps = ndsps;
        return plat_finish(a, p);
    }
    if (ndsps % p->dsps_per_board != 0) {
        *why = arena_printf(a, "%d DSPs is not a whole number of boards of %d", ndsps,
                            p->dsps_per_board);
        return -1;
    }
    int boards = ndsps / p->dsps_per_board;
    if (boards > PD_MAX_BOARDS) {
        *why = arena_printf(a, "%d DSPs need %d boards, more than the limit of %d", ndsps,
                            boards, PD_MAX_BOARDS);
        return -2;
    }
    if (boards != p->nboards) {
        p->name = resized_name(a, p->name, "bwdsp", boards, ndsps, "board");
        p->nboards = boards;
        preset_links(a, p);
    }
    p->ndsps = ndsps;
    return plat_finish(a, p);
}

int
plat_finish(Arena *a, Platform *p)
{
    int nb = p->nboards;
    if (p->model == MODEL_ABSTRACT || nb <= 0) {
        p->mst_parent = NULL;
        p->mst_link = NULL;
        p->board_hops = NULL;
        p->hop_pairs = NULL;
        return 0;
    }
    int *parent = arena_array(a, (size_t)nb, sizeof *parent);
    int *link = arena_array(a, (size_t)nb, sizeof *link);
    int *hops = arena_array(a, (size_t)nb * (size_t)nb, sizeof *hops);
    if (pd_spanning_tree(nb, p->links, p->nlinks, parent) >= 0)
        return -1; /* not connected */
    /* each board's link to its parent: the tree's edges are links (at most one per pair)
     */
    for (int b = 0; b < nb; b++)
        link[b] = -1;
    for (int l = 0; l < p->nlinks; l++) {
        int u = p->links[l].a, v = p->links[l].b;
        if (parent[u] == v)
            link[u] = l;
        else if (parent[v] == u)
            link[v] = l;
    }
    /* Tree distance: a walk over the tree from each board, O(nboards^2) in all. */
    int *off = calloc((size_t)nb + 1, sizeof *off);
    int *nbr = malloc((size_t)(2 * nb) * sizeof *nbr);
    int *queue = malloc((size_t)nb * sizeof *queue);
    if (!off || !nbr || !queue)
        ice("out of memory");
    for (int b = 1; b < nb; b++)
        off[b + 1]++, off[parent[b] + 1]++;
    for (int b = 0; b < nb; b++)
        off[b + 1] += off[b];
    int *fill = queue; /* the next free slot of each board, reusing queue */
    for (int b = 0; b < nb; b++)
        fill[b] = off[b];
    for (int b = 1; b < nb; b++) {
        nbr[fill[b]++] = parent[b];
        nbr[fill[parent[b]]++] = b;
    }
    for (int x = 0; x < nb; x++) {
        int *h = hops + (size_t)x * (size_t)nb;
        for (int y = 0; y < nb; y++)
            h[y] = -1;
        int head = 0, tail = 0;
        queue[tail++] = x;
        h[x] = 0;
        while (head < tail) {
            int u = queue[head++];
            for (int j = off[u]; j < off[u + 1]; j++)
                if (h[nbr[j]] < 0) {
                    h[nbr[j]] = h[u] + 1;
                    queue[tail++] = nbr[j];
                }
        }
    }
    free(off);
    free(nbr);
    free(queue);
    int64_t *pairs = arena_array(a, (size_t)nb, sizeof *pairs);
    for (size_t i = 0; i < (size_t)nb * (size_t)nb; i++)
        pairs[hops[i]]++;
    p->hop_pairs = pairs;
    p->mst_parent = parent;
    p->mst_link = link;
    p->board_hops = hops;
    return 0;
}

int
plat_board(const Platform *p, int dsp)
{
    return p->model == MODEL_ABSTRACT ? 0 : dsp / p->dsps_per_board;
}

int
plat_switch_hops(const Platform *p, int a, int b)
{
    if (p->model == MODEL_ABSTRACT)
        return 0;
    int ba = plat_board(p, a), bb = plat_board(p, b);
    return 1 + p->board_hops[ba * p->nboards + bb];
}

int
plat_directed_links(const Platform *p)
{
    return p->model == MODEL_ABSTRACT ? 0 : 2 * p->ndsps + 2 * p->nlinks;
}

int
plat_max_route(const Platform *p)
{
    if (p->model == MODEL_ABSTRACT)
        return 0;
    int nb = p->nboards, h = 0;
    for (int i = 0; i < nb * nb; i++)
        if (p->board_hops[i] > h)
            h = p->board_hops[i];
    return h + 2;
}

/* The directed link from board u to its parent in the tree. */
static int
up_link(const Platform *p, int u)
{
    int l = p->mst_link[u];
    return 2 * p->ndsps + 2 * l + (p->links[l].a == u ? 0 : 1);
}

/* The directed link from v's parent in the tree down to board v. */
static int
down_link(const Platform *p, int v)
{
    int l = p->mst_link[v];
    return 2 * p->ndsps + 2 * l + (p->links[l].b == v ? 0 : 1);
}

int
plat_route(const Platform *p, int a, int b, int *links)
{
    if (p->model == MODEL_ABSTRACT || a == b)
        return 0;
    int n = 0, ba = plat_board(p, a), bb = plat_board(p, b);
    links[n++] = 2 * a;
    /* the tree path: climb from both ends to where they meet (the ends as they climb
     * are stored from the back for b's side) */
    int h = p->board_hops[ba * p->nboards + bb], back = n + h;
    int u = ba, v = bb;
    while (u != v) {
        int du = p->board_hops[u * p->nboards], dv = p->board_hops[v * p->nboards];
        if (du >= dv) { /* the deeper one climbs (depth = distance to board 0) */
            links[n++] = up_link(p, u);
            u = p->mst_parent[u];
        } else {
            links[--back] = down_link(p, v);
            v = p->mst_parent[v];
        }
    }
    n += h - (n - 1); /* b's side was written into [n, n + h) from the back */
    links[n++] = 2 * b + 1;
    return n;
}

int64_t
plat_packets(const Platform *p, int64_t bytes)
{
    if (bytes <= p->payload_bytes)
        return 1;
    return (bytes + p->payload_bytes - 1) / p->payload_bytes;
}

int64_t
plat_ser(const Platform *p, int64_t s)
{
    int64_t num = s * 8 * p->dsp_clock_mhz;
    return (num + p->link_mbps - 1) / p->link_mbps;
}

/* The fabric time of a bwdsp message through h switches. */
static int64_t
fabric_time(const Platform *p, int64_t h, int64_t bytes)
{
    int64_t k = plat_packets(p, bytes);
    int64_t hdr = p->packet_bytes - p->payload_bytes;
    int64_t last = bytes - (k - 1) * p->payload_bytes; /* payload of the last packet */
    int64_t full = p->payload_bytes + hdr;
    int64_t ser_full = plat_ser(p, full), ser_last = plat_ser(p, last + hdr);
    int64_t sum = ir_add_sat(ir_mul_sat(k - 1, ser_full), ser_last);
    int64_t largest = k > 1 ? ser_full : ser_last;
    return ir_add_sat(sum, ir_mul_sat(h, p->switch_latency + largest));
}

/* The cost of a bwdsp message between two DSPs through h switches. */
static int64_t
comm_cost(const Platform *p, int64_t h, int64_t bytes)
{
    int64_t hs = bytes <= p->eager_limit ? 0 : p->handshake;
    return ir_add_sat(p->send_overhead + hs + p->recv_overhead, fabric_time(p, h, bytes));
}

int64_t
plat_fabric_time(const Platform *p, int a, int b, int64_t bytes)
{
    if (p->model == MODEL_ABSTRACT)
        return bytes;
    return fabric_time(p, plat_switch_hops(p, a, b), bytes);
}

int64_t
plat_comm_cost(const Platform *p, int a, int b, int64_t bytes)
{
    if (a == b)
        return 0;
    if (p->model == MODEL_ABSTRACT)
        return bytes;
    return comm_cost(p, plat_switch_hops(p, a, b), bytes);
}

int64_t
plat_mean_comm_cost(const Platform *p, int64_t bytes)
{
    int n = p->ndsps;
    if (n < 2)
        return 0;
    if (p->model == MODEL_ABSTRACT)
        return bytes;
    /* Cost depends only on the board links between the two DSPs: sum over the distances
     * h weighted by the DSP pairs that far apart (of boards h links apart, h > 0; of one
     * board, h = 0). */
    /* 128 bits: up to 2^40 pairs of costs up to 2^63 */
    __extension__ typedef unsigned __int128 u128;
    int64_t dpb = p->dsps_per_board;
    u128 sum = 0, pairs = 0;
    for (int h = 0; h < p->nboards; h++) {
        int64_t np = h == 0 ? p->nboards * dpb * (dpb - 1) : p->hop_pairs[h] * dpb * dpb;
        if (!np)
            continue;
        sum += (u128)np * (u128)comm_cost(p, 1 + h, bytes); /* h links, h + 1 switches */
        pairs += (u128)np;
    }
    return pairs ? (int64_t)(sum / pairs) : 0;
}

void
plat_iteration_bound(const Platform *p, const Graph *g, int64_t *work, int64_t *comm)
{
    int64_t w = 0, c = 0;
    for (int t = 0; t < g->ntasks; t++) {
        const Task *k = &g->tasks[t];
        int64_t most = 0;
        for (int i = 0; i < k->ncycles; i++)
            most = k->cycles[i] > most ? k->cycles[i] : most;
        w = ir_add_sat(w, most);
    }
    /* Per edge, what it can add as (part of) a message: a merged message of bytes B =
     * sum of its edges' costs at most the sum of what each edge costs alone, since
     * ceil(B / c) and the packet count are subadditive and the fixed costs are paid
     * once.  On every link of the longest route each packet holds the link at most
     * ser(packet_bytes) and waits switch_latency. */
    int64_t fixed =
        p->send_overhead + p->handshake + p->post_overhead +
        (p->recv_overhead > p->wait_overhead ? p->recv_overhead : p->wait_overhead);
    int64_t links = p->model == MODEL_ABSTRACT ? 1 : plat_max_route(p);
    int64_t ser = plat_ser(p, p->packet_bytes);
    for (int e = 0; e < g->nedges; e++) {
        int64_t b = g->edges[e].bytes, x;
        if (p->model == MODEL_ABSTRACT) {
            x = ir_add_sat(fixed, b); /* the abstract model has no overheads */
        } else {
            int64_t copy =
                2 * ((b + p->copy_bytes_per_cycle - 1) / p->copy_bytes_per_cycle);
            int64_t hop =
                ir_add_sat(ir_mul_sat(plat_packets(p, b), ser), p->switch_latency);
            x = ir_add_sat(fixed + copy, ir_mul_sat(links, hop));
        }
        c = ir_add_sat(c, x);
    }
    *work = w;
    *comm = c;
}

int64_t
plat_length_bound(const Platform *p, const Graph *g)
{
    int64_t w, c;
    plat_iteration_bound(p, g, &w, &c);
    /* every iteration, and once more for the prologs of the pipelined receives */
    return ir_mul_sat(ir_add_sat(w, c), ir_add_sat(g->iterations, 1));
}

double
plat_cycles_to_us(const Platform *p, int64_t cycles)
{
    return (double)cycles / (double)p->dsp_clock_mhz;
}
