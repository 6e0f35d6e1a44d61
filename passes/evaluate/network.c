/*
 * passes/evaluate/network.c - the links with contention (docs/design.md section 4; the
 * contention paragraph at the top of evaluate.c, docs/evaluator.md "Contention"): the
 * transfers in the network as trains of packets on the hops of their routes, the
 * arbitration of a free link (the rule of runtime/sim_net.c, pk_before), the decisions in
 * time order (ev_net_advance) as far as the DSPs have fixed every departure, and the
 * network's part of the steady state's snapshot (steady.c).
 */
#include "private.h"

/* ---- the network (contention): see the top of the file --------------------------- */

#define HOP(ev, id) (&(ev)->hop[id])
#define SLOT(ev, id) ((id) >> (ev)->hshift)
#define HOPNO(ev, id) ((id) & ((1 << (ev)->hshift) - 1))

/* The arbitration order of two transfers in the network: shorter message, then issue
 * time, source DSP, the source's send order (iteration, then position). */
static inline bool
tr_before(const Evaluator *ev, int a, int b)
{
    const NTr *x = &ev->tr[a], *y = &ev->tr[b];
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes;
    if (x->issue != y->issue)
        return x->issue < y->issue;
    if (x->src != y->src)
        return x->src < y->src;
    if (x->x != y->x)
        return x->x < y->x;
    return x->send_k < y->send_k;
}

static int64_t
ser(const NTr *tr, int64_t j)
{
    return j == tr->npk - 1 ? tr->ser_last : tr->ser_full;
}

static int64_t
piece_end(const Evaluator *ev, const NHop *h, int pc)
{
    int nx = ev->pc[pc].next;
    return nx >= 0 ? ev->pc[nx].start : h->lim;
}

/* End of the run that link l serves: packets sj0 .. b - 1 back to back from ss. */
static int64_t
run_end_at(const NTr *tr, const NLink *l, int64_t b)
{
    if (b == tr->npk)
        return l->ss + (b - 1 - l->sj0) * tr->ser_full + tr->ser_last;
    return l->ss + (b - l->sj0) * tr->ser_full;
}

static int64_t
run_end(const Evaluator *ev, const NLink *l)
{
    const NHop *h = HOP(ev, l->cur);
    return run_end_at(&ev->tr[SLOT(ev, l->cur)], l, piece_end(ev, h, h->head));
}

/* -- the decisions in time order: a tournament tree over the links --
 * Leaf P + l of the tree holds link l and its next decision (INT64_MAX: none), every
 * inner node the link of the smaller key of its children and that key, the left one on
 * a tie, so the root (twin[1], tkey[1]) is the first decision by (at, link id).  An
 * update replays the log2(P) matches above one leaf, carrying the winner so far: each
 * match reads only the sibling, which the update does not change. */

static inline void
tree_set(Evaluator *ev, int l, int64_t key)
{
    int64_t *tk = ev->tkey;
    int *tw = ev->twin;
    int i = ev->tleaves + l, w = l;
    tk[i] = key;
    while (i > 1) {
        int64_t ks = tk[i ^ 1];
        int ws = tw[i ^ 1];
        /* the sibling is the left child when i is odd: it wins ties (keys are times,
         * >= 0, or INT64_MAX: key + 1 fits unsigned) */
        bool sib = (uint64_t)ks < (uint64_t)key + (uint64_t)(i & 1);
        key = sib ? ks : key;
        w = sib ? ws : w;
        i >>= 1;
        tk[i] = key;
        tw[i] = w;
    }
}

/* Sets the next decision of link l to time t (-1: none).  decide marks the link it
 * serves with at = INT64_MIN without touching the tree (it stays the first until its
 * schedule). */
static inline void
set_decision(Evaluator *ev, int l, int64_t t)
{
    NLink *k = &ev->link[l];
    if (t == k->at)
        return;
    k->at = t;
    tree_set(ev, l, t < 0 ? INT64_MAX : t);
}

/* -- slots and pieces -- */

/* The growth of the slots, pieces and candidate lists is out of line: rare, and the
 * allocations' fast paths are inlined into the hot loop. */
static __attribute__((noinline)) void
tr_grow(Evaluator *ev)
{
    int old = ev->captr, cap = old ? 2 * old : 64;
    ev->tr = ev_xrealloc(ev->tr, (size_t)cap, sizeof *ev->tr);
    ev->hop = ev_xrealloc(ev->hop, (size_t)cap << ev->hshift, sizeof *ev->hop);
    ev->sortbuf = ev_xrealloc(ev->sortbuf, 2 * (size_t)cap, sizeof *ev->sortbuf);
    ev->rank = ev_xrealloc(ev->rank, (size_t)cap, sizeof *ev->rank);
    for (int i = cap - 1; i >= old; i--) {
        ev->tr[i].m = -1;
        ev->tr[i].next = ev->freetr;
        ev->freetr = i;
    }
    ev->captr = cap;
}

static int
tr_alloc(Evaluator *ev)
{
    if (ev->freetr < 0)
        tr_grow(ev);
    int s = ev->freetr;
    ev->freetr = ev->tr[s].next;
    return s;
}

static void
tr_release(Evaluator *ev, int s)
{
    ev->tr[s].m = -1;
    ev->tr[s].next = ev->freetr;
    ev->freetr = s;
}

static __attribute__((noinline)) void
pc_grow(Evaluator *ev)
{
    int old = ev->cappc, cap = old ? 2 * old : 256;
    ev->pc = ev_xrealloc(ev->pc, (size_t)cap, sizeof *ev->pc);
    for (int i = cap - 1; i >= old; i--) {
        ev->pc[i].next = ev->freepc;
        ev->freepc = i;
    }
    ev->cappc = cap;
}

static inline int
pc_alloc(Evaluator *ev, int64_t start, int64_t avail)
{
    if (ev->freepc < 0)
        pc_grow(ev);
    int p = ev->freepc;
    ev->freepc = ev->pc[p].next;
    ev->pc[p] = (NPiece){start, avail, -1};
    return p;
}

static void
pc_release(Evaluator *ev, int p)
{
    ev->pc[p].next = ev->freepc;
    ev->freepc = p;
}

static __attribute__((noinline)) void
cand_grow(NLink *k)
{
    k->capcand = k->capcand ? 2 * k->capcand : 4;
    k->cand = ev_xrealloc(k->cand, (size_t)k->capcand, sizeof *k->cand);
}

/* A link's candidates are kept in the order of their avail (ties in the order they
 * came): a decision at t looks only at those ready by t (decide), the next one of an
 * idle link is the first (schedule).  Most of a busy link's candidates are packets
 * still on their way to it: on a 128-point FFT on two boards, going through all of
 * them at every decision was half of the contended evaluation. */
static inline void
cand_add(Evaluator *ev, int l, int id)
{
    NLink *k = &ev->link[l];
    if (k->ncand == k->capcand)
        cand_grow(k);
    NHop *h = HOP(ev, id);
    h->cpos = 0;
    int64_t av = ev->pc[h->head].avail;
    int lo = 0, hi = k->ncand;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (k->cand[mid].avail <= av)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(&k->cand[lo + 1], &k->cand[lo], (size_t)(k->ncand - lo) * sizeof *k->cand);
    k->cand[lo] = (NCand){av, id};
    k->ncand++;
}

static inline void
cand_remove(Evaluator *ev, int l, int id)
{
    NLink *k = &ev->link[l];
    int i = 0;
    while (k->cand[i].id != id)
        i++;
    k->ncand--;
    memmove(&k->cand[i], &k->cand[i + 1], (size_t)(k->ncand - i) * sizeof *k->cand);
    HOP(ev, id)->cpos = -1;
}

/* -- decisions -- */

/* The last packet of the transfer in slot s starts on its last link now: it arrives at
 * `end`. */
static inline __attribute__((always_inline)) void
finalize(Evaluator *ev, int s, int64_t end)
{
    NTr *tr = &ev->tr[s];
    EMsg *em = &ev->msg[tr->m];
    tr->fin = true;
    if (em->narr != tr->x)
        ice("transfers of message %d arrive out of order", tr->m);
    em->ring[tr->x & em->mask].arr = end;
    em->narr = tr->x + 1;
    int m = tr->m; /* wake only a DSP waiting for this very transfer */
    if (ev->wait_m[em->src] == m && ev->wait_x[em->src] == tr->x)
        wake(ev, em->src);
    if (ev->wait_m[em->dst] == m && ev->wait_x[em->dst] == tr->x)
        wake(ev, em->dst);
}

/* Link l's run is over (its piece fully sent): the hop's next piece, if any, waits. */
static inline void
retire(Evaluator *ev, int l)
{
    NLink *k = &ev->link[l];
    int id = k->cur, s = SLOT(ev, id);
    NHop *h = HOP(ev, id);
    k->cur = -1;
    int p = h->head;
    h->head = ev->pc[p].next;
    if (h->head < 0)
        h->tail = -1;
    pc_release(ev, p);
    if (h->head >= 0)
        cand_add(ev, l, id);
    else if (h->lim == ev->tr[s].npk && --ev->tr[s].live == 0)
        tr_release(ev, s);
}

/* Recomputes when link l must next decide: the end of its run when something waits for
 * the link, the start of the last packet of a transfer on its last link (the arrival is
 * known then), the first packet boundary at which a better packet is ready; an idle link,
 * when its first candidate is ready.  A run that ended before now with nothing waiting
 * is retired here. */
static inline __attribute__((always_inline)) void
schedule(Evaluator *ev, int l)
{
    NLink *k = &ev->link[l];
    int64_t t = -1;
    if (k->cur >= 0) {
        int s = SLOT(ev, k->cur);
        const NTr *tr = &ev->tr[s];
        const NHop *h = HOP(ev, k->cur);
        int nx = ev->pc[h->head].next;
        int64_t b = nx >= 0 ? ev->pc[nx].start : h->lim, e = run_end_at(tr, k, b);
        bool need = k->ncand > 0 || nx >= 0;
        if (e < ev->net_now || (e == ev->net_now && !need)) {
            retire(ev, l);
        } else {
            int64_t sf = tr->ser_full;
            if (need)
                t = e;
            if (b == tr->npk && HOPNO(ev, k->cur) == tr->nh - 1 && !tr->fin) {
                int64_t f = k->ss + (tr->npk - 1 - k->sj0) * sf;
                if (t < 0 || f < t)
                    t = f;
            }
            int64_t a = -1; /* the first ready of those before the run */
            for (int c = 0; c < k->ncand && a < 0; c++)
                if (tr_before(ev, SLOT(ev, k->cand[c].id), s))
                    a = k->cand[c].avail;
            if (a >= 0) {
                int64_t bd = k->ss + ceil_div(a - k->ss, sf) * sf;
                if (bd < e && (t < 0 || bd < t))
                    t = bd;
            }
            set_decision(ev, l, t);
            return;
        }
    }
    if (k->ncand > 0)
        t = k->cand[0].avail;
    set_decision(ev, l, t);
}

/* Packets j and on of the transfer in slot s will not come to hops h0 and later as
 * projected: the run upstream was cut there. */
static void
truncate_from(Evaluator *ev, int s, int h0, int64_t j)
{
    const NTr *em = &ev->tr[s];
    for (int hn = h0; hn < em->nh; hn++) {
        int id = s << ev->hshift | hn;
        NHop *h = HOP(ev, id);
        if (h->lim <= j)
            break;
        h->lim = j;
        int prev = -1;
        for (int p = h->head; p >= 0; p = ev->pc[p].next) {
            if (ev->pc[p].start >= j) {
                if (prev >= 0)
                    ev->pc[prev].next = -1;
                else
                    h->head = -1;
                h->tail = prev;
                while (p >= 0) {
                    int nx = ev->pc[p].next;
                    pc_release(ev, p);
                    p = nx;
                }
                break;
            }
            prev = p;
        }
        int l = ev->route[em->rbeg + hn];
        if (ev->link[l].cur == id) {
            schedule(ev, l);
        } else if (h->head < 0 && h->cpos >= 0) {
            cand_remove(ev, l, id);
            schedule(ev, l);
        }
    }
}

/* Link l starts, at time t, the first piece of hop id. */
static void
start_run(Evaluator *ev, int l, int id, int64_t t)
{
    NLink *k = &ev->link[l];
    int s = SLOT(ev, id), hn = HOPNO(ev, id);
    const NTr *em = &ev->tr[s];
    cand_remove(ev, l, id);
    NHop *h = HOP(ev, id);
    k->cur = id;
    k->ss = t;
    k->sj0 = ev->pc[h->head].start;
    int64_t b = piece_end(ev, h, h->head);
    if (hn + 1 < em->nh) { /* the packets reach the next switch one after the other */
        int nid = id + 1;
        NHop *nh = HOP(ev, nid);
        if (nh->lim != k->sj0)
            ice("packets of transfer %d reach hop %d out of order", s, hn + 1);
        nh->lim = b;
        int p = pc_alloc(ev, k->sj0, t + ser(em, k->sj0) + ev->swl);
        if (nh->tail >= 0)
            ev->pc[nh->tail].next = p;
        else
            nh->head = p;
        nh->tail = p;
        int nl = ev->route[em->rbeg + hn + 1];
        if (ev->link[nl].cur == nid) {
            schedule(ev, nl);
        } else if (nh->head == p) {
            cand_add(ev, nl, nid);
            schedule(ev, nl);
        }
    } else if (k->sj0 == em->npk - 1) {
        finalize(ev, s, t + em->ser_last);
    }
}

/* Link l decides at time t (a packet boundary of its run, or idle): of its run's next
 * packet and the candidates ready by t, the first in arbitration order goes. */
static void
decide(Evaluator *ev, int l, int64_t t)
{
    NLink *k = &ev->link[l];
    ev->net_now = t;
    k->at = INT64_MIN; /* taken (l stays first in the tree until schedule) */
    int64_t jt = -1;
    if (k->cur >= 0) {
        if (t >= run_end(ev, k))
            retire(ev, l);
        else
            jt = k->sj0 + (t - k->ss) / ev->tr[SLOT(ev, k->cur)].ser_full;
    }
    int best = -1; /* of the candidates ready by t, the first in arbitration order */
    for (int c = 0; c < k->ncand && k->cand[c].avail <= t; c++) {
        int id = k->cand[c].id;
        if (best < 0 || tr_before(ev, SLOT(ev, id), SLOT(ev, best)))
            best = id;
    }
    if (k->cur >= 0) {
        int id = k->cur, s = SLOT(ev, id);
        const NTr *em = &ev->tr[s];
        if (best < 0 || tr_before(ev, s, SLOT(ev, best))) { /* the run goes on */
            if (jt == em->npk - 1 && HOPNO(ev, id) == em->nh - 1 && !ev->tr[s].fin)
                finalize(ev, s, t + em->ser_last);
            schedule(ev, l);
            return;
        }
        /* cut: the rest of the piece waits, ready now; downstream nothing of it yet */
        NHop *h = HOP(ev, id);
        ev->pc[h->head].start = jt;
        ev->pc[h->head].avail = t;
        k->cur = -1;
        cand_add(ev, l, id);
        truncate_from(ev, s, HOPNO(ev, id) + 1, jt);
    }
    if (best >= 0)
        start_run(ev, l, best, t);
    schedule(ev, l);
}

/* Transfer (m, x) departs at time `depart`: all its packets wait for the first link. */
static void
net_depart(Evaluator *ev, int m, int64_t x, int64_t depart)
{
    EMsg *em = &ev->msg[m];
    int s = tr_alloc(ev);
    NTr *tr = &ev->tr[s];
    tr->m = m;
    tr->x = x;
    tr->issue = em->ring[x & em->mask].issue;
    tr->depart = depart;
    tr->live = em->nh;
    tr->fin = false;
    tr->src = em->src;
    tr->send_k = em->send_k;
    tr->nh = em->nh;
    tr->rbeg = em->rbeg;
    tr->bytes = em->bytes;
    tr->npk = em->npk;
    tr->ser_full = em->ser_full;
    tr->ser_last = em->ser_last;
    for (int hn = 0; hn < em->nh; hn++)
        ev->hop[s << ev->hshift | hn] = (NHop){0, -1, -1, -1};
    NHop *h = HOP(ev, s << ev->hshift);
    h->lim = em->npk;
    h->head = h->tail = pc_alloc(ev, 0, depart);
    int l = ev->route[em->rbeg];
    cand_add(ev, l, s << ev->hshift);
    schedule(ev, l);
}

/* Takes the network's decisions in time order while they are earlier than lb (no DSP
 * can depart a transfer before lb), until one wakes a DSP. */
void
ev_net_advance(Evaluator *ev, int64_t lb)
{
    ev->woke = false;
    while (!ev->woke) {
        int l = ev->twin[1];
        int64_t t = ev->tkey[1];
        if (t >= lb)
            break;        /* INT64_MAX: no decision left */
        decide(ev, l, t); /* ends with schedule(l), which moves l in the tree */
    }
}

/* Departs every transfer of em whose issue and post are both known (contention). */
void
ev_try_depart(Evaluator *ev, int m)
{
    EMsg *em = &ev->msg[m];
    while (em->ndep < em->nissue && (em->eager || em->ndep < em->npost)) {
        int64_t x = em->ndep, is = em->ring[x & em->mask].issue, dep = is;
        if (!em->eager) {
            int64_t po = em->ring[x & em->mask].post;
            dep = (is > po ? is : po) + em->hs;
        }
        em->ring[x & em->mask].dep = dep;
        em->ndep = x + 1;
        net_depart(ev, m, x, dep);
    }
}

static int
cmp_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : 0;
}

/* Appends the network's state to the snapshot at z; returns the new size. */
size_t
ev_snapshot_net(Evaluator *ev, size_t z, int64_t lo, int64_t tb)
{
    for (int l = 0; l < ev->nlinks; l++) /* retire the runs that are over */
        if (ev->link[l].cur >= 0)
            schedule(ev, l);
    /* the transfers in the network, by (message, transfer) */
    int nt = 0;
    for (int s = 0; s < ev->captr; s++)
        if (ev->tr[s].m >= 0) {
            ev->sortbuf[2 * nt] =
                (int64_t)ev->tr[s].m << 32 | (int64_t)(uint32_t)(ev->tr[s].x - lo + 1000);
            ev->sortbuf[2 * nt + 1] = s;
            nt++;
        }
    if (nt > 1) /* sortbuf is NULL while no transfer was ever sorted */
        qsort(ev->sortbuf, (size_t)nt, 2 * sizeof *ev->sortbuf, cmp_pair);
    ev_snap_room(ev, z + 3 + 3 * (size_t)ev->nlinks + 6 * (size_t)nt);
    int64_t *o = ev->snap;
    /* the last decision's time; none yet (no transfer ever left) is a state of its own,
     * not a time that drifts away from tb */
    o[z++] = ev->net_now >= 0 ? ev->net_now - tb : INT64_MIN;
    o[z++] = nt;
    for (int r = 0; r < nt; r++) {
        int s = (int)ev->sortbuf[2 * r + 1];
        const NTr *tr = &ev->tr[s];
        const EMsg *em = &ev->msg[tr->m];
        ev->rank[s] = r;
        size_t need = 6 + 2 * (size_t)em->nh;
        for (int hn = 0; hn < em->nh; hn++)
            for (int p = ev->hop[s << ev->hshift | hn].head; p >= 0; p = ev->pc[p].next)
                need += 2;
        ev_snap_room(ev, z + need + 3 * (size_t)ev->nlinks + 6 * (size_t)(nt - r));
        o = ev->snap;
        o[z++] = tr->m;
        o[z++] = tr->x - lo;
        o[z++] = tr->issue - tb;
        o[z++] = tr->depart - tb;
        o[z++] = tr->fin;
        o[z++] = tr->live;
        for (int hn = 0; hn < em->nh; hn++) {
            const NHop *h = &ev->hop[s << ev->hshift | hn];
            o[z++] = h->lim;
            size_t at = z++;
            int cnt = 0;
            for (int p = h->head; p >= 0; p = ev->pc[p].next, cnt++) {
                o[z++] = ev->pc[p].start;
                o[z++] = ev->pc[p].avail - tb;
            }
            o[at] = cnt;
        }
    }
    for (int l = 0; l < ev->nlinks; l++) {
        const NLink *k = &ev->link[l];
        if (k->cur < 0) {
            o[z++] = -1;
        } else {
            o[z++] = (int64_t)ev->rank[SLOT(ev, k->cur)] * ev->maxh + HOPNO(ev, k->cur);
            o[z++] = k->ss - tb;
            o[z++] = k->sj0;
        }
        o[z++] = k->at >= 0 ? k->at - tb : INT64_MIN;
    }
    return z;
}

/* Shifts the network by sh iterations and dt cycles (a skip of whole periods). */
void
ev_shift_net(Evaluator *ev, int64_t sh, int64_t dt)
{
    for (int s = 0; s < ev->captr; s++) {
        NTr *tr = &ev->tr[s];
        if (tr->m < 0)
            continue;
        tr->x += sh;
        tr->issue += dt;
        tr->depart += dt;
        for (int hn = 0; hn < ev->msg[tr->m].nh; hn++)
            for (int p = ev->hop[s << ev->hshift | hn].head; p >= 0; p = ev->pc[p].next)
                ev->pc[p].avail += dt;
    }
    for (int l = 0; l < ev->nlinks; l++) {
        NLink *k = &ev->link[l];
        for (int c = 0; c < k->ncand; c++)
            k->cand[c].avail += dt;
        k->ss += dt;
        if (k->at >= 0) {
            k->at += dt;
            tree_set(ev, l, k->at);
        }
    }
    if (ev->net_now >= 0) /* -1: no decision yet */
        ev->net_now += dt;
}

/* An empty network: every link idle, every slot and piece free. */
void
ev_net_reset(Evaluator *ev)
{
    for (int l = 0; l < ev->nlinks; l++) {
        NLink *k = &ev->link[l];
        k->cur = -1;
        k->ncand = 0;
        k->at = -1;
    }
    for (int i = 0; i < ev->tleaves; i++) {
        ev->tkey[ev->tleaves + i] = INT64_MAX;
        ev->twin[ev->tleaves + i] = i;
    }
    for (int i = ev->tleaves - 1; i > 0; i--) { /* every key equal: the left one wins */
        ev->tkey[i] = INT64_MAX;
        ev->twin[i] = ev->twin[2 * i];
    }
    ev->freetr = -1;
    for (int s = ev->captr - 1; s >= 0; s--)
        tr_release(ev, s);
    ev->freepc = -1;
    for (int p = ev->cappc - 1; p >= 0; p--)
        pc_release(ev, p);
    ev->net_now = -1;
}
