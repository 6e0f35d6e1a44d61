/* sim_kernel.c: the discrete-event kernel of the simulated platform.
 *
 * Each DSP is a fiber (fiber.c) of the host thread that started the run; one runs at
 * a time. Each DSP has its own clock: a CPU cost moves only that clock, and what the
 * DSP then does to the platform (issue, post, inject) is an event at its clock. A
 * DSP that must wait for the platform (a wait whose data is not in, a Test, a
 * traffic query) blocks; it then runs the kernel itself, on its own stack: it pops
 * events in (time, class, sequence) order until some DSP is ready and switches to
 * it (or goes on, when that DSP is itself: no switch at all). Every action lands in
 * the queue at the virtual time it belongs to, and events are ordered by time and
 * insertion sequence, both functions of the program alone, so every run of a
 * program is identical.
 *
 * When no DSP is ready and no event is pending, the run is over: every DSP has
 * returned, or the live ones are all blocked (a deadlock, reported by name).
 *
 * The kernel knows nothing of the layers above: an event carries the function that
 * handles it (k_push), and what a blocked DSP waits for is text they wrote. */
#define _GNU_SOURCE
#include "sim.h"

#include <stdlib.h>
#include <string.h>

Kernel *K;
#define K_HORIZON 1000000       /* cycles a DSP may run ahead of the kernel */
#define K_STACK (8u << 20)      /* a DSP's stack, as a thread's by default */
static _Thread_local Dsp *self; /* the running DSP, on the run's host thread */

Dsp *
k_self(void)
{
    return self;
}

/* ---- the event queue ----
 * Events run in (time, class, sequence) order: by time, class 0 before class 1 at the
 * same time, and in the order they were queued within one time and class. A timing
 * wheel gives that order in constant time: the W cycles from the window's start
 * (base) are W slots, each with a first-in first-out list per class, and a bitmap of
 * the slots in use; an event further ahead waits in a heap (by time, class, sequence)
 * and moves into its slot when the window reaches it, before any event queued
 * directly for that time, so each list stays in queueing order. Nothing is ever
 * queued before the current time, and the window starts at the current time. */
#define Q k_q
#define W K_WHEEL

typedef struct Far { /* an event beyond the window */
    Cycles t;
    uint64_t key; /* class << 62 | sequence */
    Ev *e;
} Far;

EvQueue k_q;

static void
q_reset(void)
{
    free(Q.far);
    memset(&Q, 0, sizeof Q);
}

static int
far_less(const Far *a, const Far *b)
{
    return a->t < b->t || (a->t == b->t && a->key < b->key);
}

static void
far_push(Far f)
{
    if (Q.nfar == Q.capfar) {
        Q.capfar = Q.capfar ? 2 * Q.capfar : 256;
        Q.far = realloc(Q.far, Q.capfar * sizeof *Q.far);
        if (!Q.far)
            abort();
    }
    size_t i = Q.nfar++;
    while (i > 0 && far_less(&f, &Q.far[(i - 1) / 2])) {
        Q.far[i] = Q.far[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    Q.far[i] = f;
}

static Far
far_pop(void)
{
    Far top = Q.far[0], last = Q.far[--Q.nfar];
    size_t i = 0, n = Q.nfar;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && far_less(&Q.far[c + 1], &Q.far[c]))
            c++;
        if (!far_less(&Q.far[c], &last))
            break;
        Q.far[i] = Q.far[c];
        i = c;
    }
    if (n)
        Q.far[i] = last;
    return top;
}

/* the window starts at t: the events it now covers leave the heap, in order */
static void
advance(Cycles t)
{
    Q.base = t;
    while (Q.nfar && Q.far[0].t < t + W) {
        Far f = far_pop();
        k_slot_append(f.e, (int)(f.key >> 62));
    }
}

/* k_push's slow path: beyond the window */
void
k_push_far(Ev *e, int cls)
{
    if (e->t < Q.base) /* the past: a bug of the caller's */
        abort();
    far_push((Far){e->t, ((uint64_t)cls << 62) | Q.seq++, e});
}

/* event records come 256 at a time (no header each: two to a cache line) */
Ev *
k_ev_new(void)
{
    Ev *b = k_alloc(256 * sizeof *b);
    for (int i = 1; i < 255; i++)
        b[i].next = &b[i + 1];
    b[255].next = Q.spare;
    Q.spare = &b[1];
    return b;
}

/* the first event, taken off the queue; NULL when there is none */
static Ev *
q_pop(void)
{
    if (!Q.nwheel) {
        if (!Q.nfar)
            return NULL;
        advance(Q.far[0].t);
    }
    unsigned s = (unsigned)Q.base & (W - 1), w = s / 64;
    uint64_t bits = Q.used[w] & (~(uint64_t)0 << (s % 64));
    while (!bits) { /* the wheel is not empty: this ends */
        w = (w + 1) % (W / 64);
        bits = Q.used[w];
    }
    s = w * 64 + (unsigned)__builtin_ctzll(bits);
    int cls = Q.fifo[s][0].head ? 0 : 1;
    Ev *e = Q.fifo[s][cls].head;
    if (!(Q.fifo[s][cls].head = e->next)) {
        Q.fifo[s][cls].tail = NULL;
        if (!Q.fifo[s][cls ^ 1].head)
            Q.used[w] &= ~((uint64_t)1 << (s % 64));
    }
    Q.nwheel--;
    if (e->t != Q.base)
        advance(e->t);
    return e;
}

void
k_make_ready(Dsp *d)
{
    if (d->clock < K->now)
        d->clock = K->now;
    d->state = DS_READY;
    d->next_ready = NULL;
    if (K->ready_tail)
        K->ready_tail->next_ready = d;
    else
        K->ready = d;
    K->ready_tail = d;
}

static void
wake(void *d)
{
    k_make_ready(d);
}

/* runs events until a DSP is ready; NULL when the run is over */
static Dsp *
next_dsp(void)
{
    for (;;) {
        if (K->ready) {
            Dsp *d = K->ready;
            K->ready = d->next_ready;
            if (!K->ready)
                K->ready_tail = NULL;
            return d;
        }
        Ev *e = q_pop();
        if (!e)
            return NULL;
        K->now = e->t;
        K->events++;
        EvFn fn = e->fn;
        void *p = e->p;
        e->next = Q.spare;
        Q.spare = e;
        fn(p);
    }
}

static void
report_deadlock(void)
{
    char *r = K->report;
    size_t n = sizeof K->report, len = 0;
    int live = 0;
    for (int i = 0; i < K->ndsps; i++)
        live += K->dsps[i].state != DS_DONE;
    len +=
        (size_t)snprintf(r + len, n - len,
                         "mpirio: deadlock at cycle %lld: all %d live DSPs are blocked "
                         "and no event is pending\n",
                         K->now, live);
    for (int i = 0; i < K->ndsps && len < n; i++) {
        Dsp *d = &K->dsps[i];
        if (d->state == DS_DONE)
            continue;
        char what[160] = "";
        if (d->describe)
            d->describe(d, what, sizeof what);
        len +=
            (size_t)snprintf(r + len, n - len, "  DSP %d (board %d): blocked in %s, %s\n",
                             i, d->board, d->call ? d->call : "?", what);
    }
    for (Dsp *a = K->agents; a && len < n; a = a->next_agent) {
        if (a->state != DS_BLOCKED)
            continue;
        char what[160] = "";
        if (a->describe)
            a->describe(a, what, sizeof what);
        len += (size_t)snprintf(r + len, n - len, "  DSP %d's %s in progress: %s\n",
                                a->rank, a->call ? a->call : "operation", what);
    }
    K->deadlock = 1;
    if (!K->set.quiet)
        fputs(r, stderr);
}

/* the run is over: the live DSPs (a deadlock) are left where they are, never resumed,
 * and MPIRIO_Run's caller goes on */
static void
end_of_run(Fiber *from, int dying)
{
    if (K->live > 0)
        report_deadlock();
    self = NULL;
    if (dying)
        fiber_exit_to(from, K->host);
    fiber_switch(from, K->host);
}

/* d (running) waits: the kernel runs until a DSP is ready, which gets the baton */
static void
pass_baton(Dsp *d)
{
    Dsp *n = next_dsp();
    if (n != d) {
        if (n) {
            K->switches++;
            self = n;
            fiber_switch(d->fiber, n->fiber);
        } else
            end_of_run(d->fiber, 0);
        /* resumed by the DSP or event that made d ready */
    }
    d->state = DS_RUN;
}

void
k_block(Dsp *d)
{
    Cycles t0 = d->clock > K->now ? d->clock : K->now;
    int blocked = d->state == DS_BLOCKED;
    d->blocked_end = -1;
    pass_baton(d);
    Cycles t1 = d->blocked_end >= 0 ? d->blocked_end : K->now;
    if (blocked && trace_active && t1 > t0) {
        char args[48];
        trace_span(0, d->tid, d->call ? d->call : "wait", t0, t1, "wait",
                   k_trace_args(d, args, sizeof args));
    }
}

const char *
k_trace_args(const Dsp *d, char *buf, size_t n)
{
    if (d->home->iteration < 0)
        return NULL;
    snprintf(buf, n, "\"iteration\":%lld", d->home->iteration);
    return buf;
}

/* no k_sync first: a wait that ends before the DSP's clock costs nothing */
void
k_wait_busy(Dsp *d, Cycles after, const char *what)
{
    d->after = after;
    d->after_what = what;
    d->state = DS_BLOCKED;
    k_block(d);
}

/* the wait of d is over now; its clock may be ahead (it got there late) */
void
k_release(Dsp *d)
{
    d->blocked_end = K->now;
    if (d->clock < K->now)
        d->clock = K->now;
    if (d->after > 0) {
        if (trace_active && d->after_what) {
            char args[48];
            trace_span(0, d->tid, d->after_what, d->clock, d->clock + d->after, "busy",
                       k_trace_args(d, args, sizeof args));
        }
        d->clock += d->after;
        d->busy += d->after;
        d->after = 0;
    }
    k_make_ready(d);
}

void
k_sleep(Dsp *d, Cycles c, const char *what)
{
    if (c <= 0)
        return;
    if (trace_active && what) {
        char args[48];
        trace_span(0, d->tid, what, d->clock, d->clock + c, "busy",
                   k_trace_args(d, args, sizeof args));
    }
    d->clock += c;
    d->busy += c;
    /* a DSP that never waits (polling memory it shares with others in-process, say)
     * still lets the others run every K_HORIZON cycles; only host order changes */
    if (d->clock - K->now > K_HORIZON)
        k_sync(d);
}

void
k_sync(Dsp *d)
{
    if (d->clock <= K->now)
        return;
    k_push(d->clock, 0, wake, d);
    d->state = DS_BUSY;
    k_block(d);
}

static void
dsp_fiber(void *arg)
{
    Dsp *d = arg;
    d->state = DS_RUN;
    d->fn(d->rank, d->arg);
    if (!d->finalized)
        d->finish = d->clock;
    d->state = DS_DONE;
    K->live--;
    Dsp *n = next_dsp();
    if (!n)
        end_of_run(d->fiber, 1);
    K->switches++;
    self = n;
    fiber_exit_to(d->fiber, n->fiber);
}

/* ---- agents ----
 * An agent is a fiber that acts for a DSP (its home) with a clock of its own: a
 * nonblocking operation in progress (tr_spawn), which the kernel runs as it runs the
 * DSPs, whatever the DSP does meanwhile. It starts at once, at its DSP's clock;
 * when its work is over it waits on its DSP's list of idle agents for the next. */
static void
agent_fiber(void *arg)
{
    Dsp *a = arg;
    for (;;) {
        a->state = DS_RUN;
        a->work(a->work_arg);
        a->state = DS_DONE;
        a->call = NULL;
        a->next_idle = a->home->idle;
        a->home->idle = a;
        Dsp *n = next_dsp();
        if (!n)
            end_of_run(a->fiber, 0);
        else {
            K->switches++;
            self = n;
            fiber_switch(a->fiber, n->fiber);
        }
        /* resumed by k_agent with new work */
    }
}

void
k_agent(Dsp *d, int lane, void (*work)(void *), void *arg)
{
    Dsp *h = d->home, *a = h->idle;
    if (a)
        h->idle = a->next_idle;
    else {
        a = calloc(1, sizeof *a);
        if (!a)
            abort();
        a->fiber = fiber_new(K_STACK, agent_fiber, a);
        if (!a->fiber) {
            fprintf(stderr, "mpirio: cannot allocate the stack of an agent of DSP %d\n",
                    h->rank);
            abort();
        }
        a->home = h;
        a->rank = h->rank;
        a->board = h->board;
        a->tid = K->ndsps + K->nagents++;
        a->next_agent = K->agents;
        K->agents = a;
        if (trace_active) {
            char name[64];
            snprintf(name, sizeof name, "DSP %d: agent %d", h->rank, a->tid - K->ndsps);
            trace_name(0, a->tid, "thread_name", name);
        }
    }
    a->lane = lane;
    a->clock = d->clock;
    a->work = work;
    a->work_arg = arg;
    a->waiting = NULL;
    a->wait_coll = NULL;
    a->describe = NULL;
    a->call = d->call;
    k_make_ready(d);
    a->state = DS_RUN;
    K->switches++;
    self = a;
    fiber_switch(d->fiber, a->fiber);
    d->state = DS_RUN; /* resumed once the agent waits, or is done */
}

int
k_run(int n, void (*fn)(int, void *), void *arg)
{
    q_reset();
    K->ndsps = n;
    K->live = n;
    K->dsps = calloc((size_t)n, sizeof *K->dsps);
    if (!K->dsps)
        abort();
    for (int i = 0; i < n; i++) {
        Dsp *d = &K->dsps[i];
        d->rank = i;
        d->home = d;
        d->tid = i;
        d->iteration = -1;
        d->board = i / K->plat.dsps_per_board;
        d->coll = K->set.coll;
        d->fn = fn;
        d->arg = arg;
        d->state = DS_READY;
        d->fiber = fiber_new(K_STACK, dsp_fiber, d);
        if (!d->fiber) {
            fprintf(stderr, "mpirio: cannot allocate the stacks of %d DSPs (only %d)\n",
                    n, i);
            return 1;
        }
    }
    K->host = fiber_host();
    for (int i = 0; i < n; i++)
        k_make_ready(&K->dsps[i]);
    Dsp *first = next_dsp();
    self = first;
    fiber_switch(K->host, first->fiber);
    /* back when no DSP is left to run */
    return K->deadlock ? 2 : 0;
}

/* ---- memory of a run ----
 * Messages, requests, packets, payload copies and the API layer's scratch buffers come
 * and go at every call: they come from free lists of size classes (16 bytes to 64
 * KiB, powers of two), carved from slabs; larger blocks from malloc, kept on a list.
 * Whatever is left at the end of the run (a deadlock leaves DSPs holding some) is
 * freed with it. The header in front of a block keeps its class (and, for a large
 * block, its neighbours on the list). Under AddressSanitizer every block is a malloc
 * of its own, so that the sanitizer still sees each one. */
#if defined(__SANITIZE_ADDRESS__)
#define K_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define K_POOL 0
#endif
#endif
#ifndef K_POOL
#define K_POOL 1
#endif
#define K_MINSHIFT 4

typedef struct Hdr {         /* 32 bytes: the blocks stay 16-byte aligned */
    struct Hdr *prev, *next; /* a large block's neighbours */
    long long cls;           /* K_NCLASS for a large block */
    long long pad;
} Hdr;

void *
k_alloc(size_t n)
{
    size_t need = n + sizeof(Hdr);
    int c = need <= (1u << K_MINSHIFT)
                ? 0
                : (int)(8 * sizeof(long) - (size_t)__builtin_clzl(need - 1)) - K_MINSHIFT;
    Hdr *h;
    if (!K_POOL || c >= K_NCLASS) {
        h = malloc(need);
        if (!h)
            abort();
        c = K_NCLASS;
        h->prev = NULL;
        h->next = K->large;
        if (K->large)
            K->large->prev = h;
        K->large = h;
    } else if (K->freel[c]) {
        h = K->freel[c];
        K->freel[c] = h->next;
    } else {
        size_t bs = (size_t)1 << (c + K_MINSHIFT), per = bs >= 8192 ? 8 : 65536 / bs;
        Hdr *slab = malloc(sizeof(Hdr) + per * bs);
        if (!slab)
            abort();
        slab->next = K->slabs;
        K->slabs = slab;
        unsigned char *first = (unsigned char *)(slab + 1);
        for (size_t i = 1; i < per; i++) {
            Hdr *f = (Hdr *)(first + i * bs);
            f->next = K->freel[c];
            K->freel[c] = f;
        }
        h = (Hdr *)first;
    }
    h->cls = c;
    return h + 1;
}

void *
k_zalloc(size_t n)
{
    return memset(k_alloc(n), 0, n);
}

void
k_dealloc(void *p)
{
    if (!p)
        return;
    Hdr *h = (Hdr *)p - 1;
    if (h->cls == K_NCLASS) {
        if (h->prev)
            h->prev->next = h->next;
        else
            K->large = h->next;
        if (h->next)
            h->next->prev = h->prev;
        free(h);
        return;
    }
    h->next = K->freel[(int)h->cls];
    K->freel[(int)h->cls] = h;
}

void
k_end(void)
{
    for (int i = 0; K->dsps && i < K->ndsps; i++)
        fiber_free(K->dsps[i].fiber);
    for (Dsp *a = K->agents, *nx; a; a = nx) {
        nx = a->next_agent;
        fiber_free(a->fiber);
        free(a);
    }
    K->agents = NULL;
    K->nagents = 0;
    q_reset();
    free(K->dsps);
    for (Hdr *h = K->slabs, *nx; h; h = nx) {
        nx = h->next;
        free(h);
    }
    for (Hdr *h = K->large, *nx; h; h = nx) {
        nx = h->next;
        free(h);
    }
}
