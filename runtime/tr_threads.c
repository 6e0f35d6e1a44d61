/* tr_threads.c: the shared-memory transport: the tr_ functions of mpirio_int.h on POSIX
 * threads of one process (libmpirio_threads.a, docs/threads.md).
 *
 * MPIRIO_Run(n, ...) makes every DSP a fiber (fiber.c: a stack of its own, switched in
 * user space) and runs them on W worker threads, W = min(n, the cores this process may
 * run on) or MPIRIO_WORKERS: DSP i always runs on worker i mod W, which runs its ready
 * DSPs in the order they became ready, each until it must wait. A hand-off between
 * DSPs of one worker is a fiber switch (no system call, no OS scheduler); a worker
 * with nothing to run spins up to MPIRIO_SPIN_US (only when the workers are no more
 * than the cores) and then sleeps on its condition variable, which a DSP of another
 * worker that makes one of its DSPs ready signals only when it sleeps. The workers are
 * released together (the start of the run's clock) and joined. Time is the host's
 * monotonic clock since that start, in cycles of the platform's DSP clock;
 * MPIRIO_Compute(c) does nothing (the kernel's own host time is the task's time), or with
 * MPIRIO_COMPUTE=spin spins until c cycles have passed since the DSP's previous MPIRIO
 * call returned, as the MPI transport does.
 *
 * Messages. One mutex guards the matching state of the run: per DSP, the receives it
 * has posted and the sends to it that no receive has matched yet, each in its order
 * (MPI's non-overtaking rule). Whichever side comes second copies the payload, once,
 * outside the mutex, from the sender's buffer straight into the buffer the receiver
 * posted: a receive posted ahead (the generated programs' pipelined receives, double
 * buffers as on the DSPs) is written by the sender's Isend. A send that finds no
 * receive is queued in place when the program keeps the buffer unchanged until the
 * send's Wait (MPIRIO_RUN_SEND_IN_PLACE, which generated programs pass) and the
 * message is above the platform's eager limit: its Wait returns once a receiver has
 * copied it (the rendezvous of the model, which the schedule already allows for).
 * Otherwise the payload is copied into a staging buffer of its own and an eager send
 * (up to the eager limit) is complete at once, as on the DSPs.
 *
 * Blocking. A DSP that must wait switches back to its worker; the side that completes
 * its request makes it ready again (wake). When the last live DSP is about to
 * block every live DSP is blocked and, since a payload moves only while its copier
 * runs, nothing is in flight: a deadlock, reported as the simulation reports one (a
 * line per DSP: the call it is blocked in and what it waits for) on stderr and in
 * MPIRIO_Run_stats; the blocked DSPs end, MPIRIO_Run returns 2.
 *
 * Collectives of the default family: the members of a communicator meet in a slot of
 * their context; the last to arrive moves every block (or reduces, in rank order) and
 * wakes the others. MPIRIO_COLL=mpich, MPIRIO_RUN_COLL_MPICH: api.c's algorithms over
 * point-to-point, as on the other transports.
 *
 * A fault in a DSP's code (SIGSEGV, SIGBUS, SIGFPE, SIGILL) is reported naming the DSP
 * and its last MPIRIO call, then ends the process by the signal; MPIRIO_Abort ends it
 * too (api.c). MPIRIO_PIN=1 or MPIRIO_RUN_PIN binds worker i to the i-th core the
 * process may run on, modulo their number (so DSP i runs on core i mod W). */
#define _GNU_SOURCE /* pthread_setaffinity_np, sched_getaffinity */
#include "fiber.h"
#include "mpirio_int.h"
#include "platform_load.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CTX_COLL 0x10000 /* api.c's context offset of its collectives */

typedef struct Thr Thr;
typedef struct Tmp Tmp;
typedef struct Worker Worker;

enum { K_SEND, K_RECV };

struct MPIRIO_Req {
    Req *qnext;         /* in a DSP's queue of posted receives or unmatched sends */
    Req *lprev, *lnext; /* every request of the run (freed with it after a deadlock) */
    Thr *owner;
    int kind;
    _Atomic int done;  /* complete: Wait returns (read unlocked by a spinning waiter) */
    int queued;        /* in a queue, or being copied by its receiver: then the receiver
                          frees it if the sender has waited already */
    int orphan;        /* the sender waited on it (an eager send) while it was queued */
    int src, ctx, tag; /* recv: src and tag may be -1; send: the sender's global rank */
    int dst;           /* send: the receiver's global rank */
    int srank;         /* send: the source rank the status reports */
    size_t bytes;      /* send: the payload; recv: the capacity */
    const void *sbuf;  /* send: the caller's buffer (in place) */
    unsigned char *stage; /* send: the staged copy, or NULL */
    void *rbuf;           /* recv */
    MPIRIO_Status st;
};

struct Tmp { /* a block of tr_tmp_alloc, in its DSP's list */
    Tmp *prev, *next;
    _Alignas(16) unsigned char data[];
};

/* a collective in progress on one context */
typedef struct Slot {
    unsigned gen; /* collectives completed on this context */
    int arrived;
    int bad; /* the members disagree */
    int kind, root;
    size_t bytes;
    MPIRIO_Datatype type;
    MPIRIO_Op op;
    int size;
    const void **sbuf; /* [size] */
    void **rbuf;
    int *err;
    Thr **who;
} Slot;

/* DSPs ready to run, in the order they became ready */
typedef struct Queue {
    Thr *head, *tail;
    _Atomic int n; /* how many (read unlocked by a spinning worker) */
} Queue;

/* a worker thread: runs the DSPs' fibers */
struct Worker {
    int id;
    pthread_t tid;
    int started;
    pthread_cond_t cv;
    int sleeping; /* waits on cv for a DSP to become ready */
    Queue own;    /* pinned: its DSPs that are ready */
    Queue *q;     /* the queue it runs DSPs from: its own, or the run's */
    int nlive;    /* pinned: its DSPs that have not ended */
    Fiber *host;  /* the worker's own context */
    void *altstack;
};

struct Thr {
    int rank;
    Worker *w;             /* the worker it runs on */
    Fiber *fib;            /* its context */
    Thr *rnext;            /* in its worker's queue of ready DSPs */
    int ended;             /* its fiber has ended (returned, or after a deadlock) */
    _Atomic int on_worker; /* a worker is in its fiber: until it has switched out, no
                              other worker may resume it */
    int done;              /* returned from its function */
    int blocked;           /* switched out in a wait, not ready */
    Req *waiting;          /* the request it waits for, or NULL */
    Slot *coll;            /* the collective it waits in, or NULL */
    _Atomic int coll_done; /* that collective is over */
    const char *call;
    void *api_slot;
    int finalized;
    Cycles finish;
    int coll_family;
    unsigned seq_world, seq_local;
    double mark; /* MPIRIO_COMPUTE=spin: when its previous MPIRIO call returned */
    MPIRIO_Traffic tr;
    Req *posted, *posted_tail; /* receives posted, not matched */
    Req *unexp, *unexp_tail;   /* sends to it, not matched */
    Tmp *tmps;
};

static struct {
    pthread_mutex_t mu;
    _Atomic int go; /* every thread has started: the clock runs */
    int arrived;
    Thr *t;
    Worker *w;
    int nw;        /* workers */
    Queue q;       /* not pinned: every ready DSP, for any worker */
    int nlive_all; /* DSPs that have not ended */
    int n, live, nblocked, dead;
    int dpb, nboards;
    int in_place, spin, quiet, pin, coll;
    long spin_ns; /* how long an idle worker spins before it sleeps */
    size_t eager;
    long long hz;
    struct timespec t0;
    Req *reqs;   /* every live request */
    Slot *slots; /* [1 + nboards]: the world, then each board */
    void (*fn)(int, void *);
    void *arg;
    char report[sizeof((MPIRIO_Stats *)0)->report];
} G = {.mu = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local Thr *running_dsp; /* the DSP the calling worker runs */

/* the running DSP. A DSP's fiber may resume on another worker than the one it left,
 * and a compiler may keep a thread-local's address across a call within a function:
 * every read is a call of this function, which computes it afresh (and, not pure
 * because of the barrier, is never merged with an earlier call). */
__attribute__((noinline)) static Thr *
current_dsp(void)
{
    __asm__ volatile("" ::: "memory");
    return running_dsp;
}
#define self current_dsp()

static void ready(Thr *t);
static pthread_mutex_t run_mu = PTHREAD_MUTEX_INITIALIZER; /* one run at a time */
static int running;
static MPIRIO_Stats *run_stats; /* the statistics of the run being set up */
static void *outside_slot;      /* tr_api_slot outside a DSP */

static void
die(const char *msg)
{
    fflush(stdout);
    fprintf(stderr, "mpirio: %s\n", msg);
    exit(1);
}

static void *
xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

static double
seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* the end of an MPIRIO call: where MPIRIO_COMPUTE=spin counts a task's host time from */
static void
done_call(void)
{
    if (G.spin && self)
        self->mark = seconds_since(&G.t0);
}

/* ---- faults: a message naming the DSP, then the signal's previous action ---- */

static const int fault_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction fault_old[4];

static void
on_fault(int sig)
{
    char msg[256];
    const char *what = sig == SIGSEGV  ? "SIGSEGV (segmentation fault)"
                       : sig == SIGBUS ? "SIGBUS (bus error)"
                       : sig == SIGFPE ? "SIGFPE (arithmetic exception)"
                                       : "SIGILL (illegal instruction)";
    Thr *t = self;
    int n;
    if (t)
        n = snprintf(msg, sizeof msg,
                     "mpirio: DSP %d (on worker thread %d) received signal %s%s%s%s\n",
                     t->rank, t->w->id, what, t->call ? " (its last MPIRIO call: " : "",
                     t->call ? t->call : "", t->call ? ")" : "");
    else
        n = snprintf(msg, sizeof msg, "mpirio: signal %s outside the DSPs\n", what);
    if (n > 0 && write(2, msg, (size_t)n) < 0)
        n = 0;
    for (int i = 0; i < 4; i++)
        if (fault_sigs[i] == sig)
            sigaction(sig, &fault_old[i], NULL);
    /* returning runs the faulting instruction again, under the previous action */
}

static void
catch_faults(int on)
{
    if (!on) {
        for (int i = 0; i < 4; i++)
            sigaction(fault_sigs[i], &fault_old[i], NULL);
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 4; i++)
        sigaction(fault_sigs[i], &sa, &fault_old[i]);
}

/* ---- the deadlock report ---- */

static void
ctx_name(int ctx, char *buf, size_t n)
{
    int coll = ctx >= CTX_COLL, c = coll ? ctx - CTX_COLL : ctx;
    const char *kind = coll ? ", collective" : "";
    if (c == 0)
        snprintf(buf, n, "MPIRIO_COMM_WORLD%s", kind);
    else
        snprintf(buf, n, "MPIRIO_COMM_LOCAL of board %d%s", c - 1, kind);
}

static void
describe(const Thr *t, char *buf, size_t n)
{
    const Req *r = t->waiting;
    char cn[64];
    if (t->coll) {
        snprintf(buf, n,
                 "waiting for the other members of a collective (%d of %d arrived)",
                 t->coll->arrived, t->coll->size);
        return;
    }
    if (!r) {
        snprintf(buf, n, "waiting");
        return;
    }
    ctx_name(r->ctx, cn, sizeof cn);
    if (r->kind == K_SEND) {
        snprintf(buf, n, "waiting for its send to rank %d (tag %d, %s) to be received",
                 r->dst, r->tag, cn);
        return;
    }
    char s[32], tg[32];
    if (r->src < 0)
        snprintf(s, sizeof s, "any rank");
    else
        snprintf(s, sizeof s, "rank %d", r->src);
    if (r->tag < 0)
        snprintf(tg, sizeof tg, "any tag");
    else
        snprintf(tg, sizeof tg, "tag %d", r->tag);
    snprintf(buf, n, "waiting for a message from %s (%s, %s)", s, tg, cn);
}

/* every live DSP is blocked (G.mu held): the report, then every sleeper ends */
static void
deadlock(void)
{
    char *r = G.report;
    size_t n = sizeof G.report, len = 0;
    Cycles now = (Cycles)(seconds_since(&G.t0) * (double)G.hz);
    len +=
        (size_t)snprintf(r + len, n - len,
                         "mpirio: deadlock at cycle %lld: all %d live DSPs are blocked "
                         "and no message is in flight (threads)\n",
                         now, G.live);
    for (int i = 0; i < G.n && len < n; i++) {
        Thr *t = &G.t[i];
        if (t->done)
            continue;
        char what[160];
        describe(t, what, sizeof what);
        len +=
            (size_t)snprintf(r + len, n - len, "  DSP %d (board %d): blocked in %s, %s\n",
                             i, i / G.dpb, t->call ? t->call : "?", what);
    }
    G.dead = 1;
    if (!G.quiet)
        fputs(r, stderr);
    for (int i = 0; i < G.n; i++) /* each ends when it runs again */
        if (G.t[i].blocked && &G.t[i] != self)
            ready(&G.t[i]);
}

/* a worker ends: its alternate signal stack is given up first (the run frees it; a
 * sanitizer's runtime would otherwise unmap it as its own at the thread's exit) */
static void
thread_end(void)
{
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
}

static void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* spins (G.mu not held) until *flag or G.spin_ns have passed: a partner running on
 * another core answers in microseconds, well before a sleeper would be woken */
static void
spin_until(const _Atomic int *flag)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double limit = 1e-9 * (double)G.spin_ns;
    for (unsigned i = 1; !*flag; i++) {
        cpu_relax();
        if ((i & 255) == 0 && seconds_since(&t0) > limit)
            return;
    }
}

/* t may run (G.mu held): to the end of the queue of its worker when pinned, of the
 * run's otherwise; a worker that can run it is signalled only when it sleeps */
static void
ready(Thr *t)
{
    Worker *w = t->w;
    Queue *q = G.pin ? &w->own : &G.q;
    t->rnext = NULL;
    if (q->tail)
        q->tail->rnext = t;
    else
        q->head = t;
    q->tail = t;
    q->n++;
    if (!G.pin && !w->sleeping) /* the one it ran on last, or any that sleeps */
        for (int i = 0; i < G.nw; i++)
            if (G.w[i].sleeping) {
                w = &G.w[i];
                break;
            }
    if (w->sleeping) {
        w->sleeping = 0;
        pthread_cond_signal(&w->cv);
    }
}

/* the DSPs the worker runs that have not ended (G.mu held) */
static int
live_for(const Worker *w)
{
    return G.pin ? w->nlive : G.nlive_all;
}

/* the calling DSP's fiber ends (G.mu held, released): back to its worker for good */
static void
dsp_end(Thr *t)
{
    t->ended = 1;
    t->w->nlive--;
    G.nlive_all--;
    if (!G.pin && G.nlive_all == 0) /* the last: every worker ends */
        for (int i = 0; i < G.nw; i++)
            if (G.w[i].sleeping) {
                G.w[i].sleeping = 0;
                pthread_cond_signal(&G.w[i].cv);
            }
    Fiber *host = t->w->host;
    pthread_mutex_unlock(&G.mu);
    fiber_exit_to(t->fib, host);
}

/* the calling DSP waits until *flag (G.mu held, held again on return): it switches
 * back to its worker, which runs its other ready DSPs (or spins, or sleeps) until a
 * waker makes it ready (wake); a deadlock ends it. The waker counts it as running
 * again, so that a DSP ready but not yet resumed is never taken for a blocked one. */
static void
sleep_until(const _Atomic int *flag)
{
    Thr *t = self;
    while (!*flag) {
        if (!t->blocked) {
            t->blocked = 1;
            G.nblocked++;
        }
        if (!G.dead && G.nblocked == G.live)
            deadlock();
        if (G.dead)
            dsp_end(t);
        Fiber *host = t->w->host; /* t->w changes once it is ready again */
        pthread_mutex_unlock(&G.mu);
        fiber_switch(t->fib, host);
        pthread_mutex_lock(&G.mu);
    }
    if (t->blocked) {
        t->blocked = 0;
        G.nblocked--;
    }
}

/* t may go on (G.mu held) */
static void
wake(Thr *t)
{
    if (t->blocked) {
        t->blocked = 0;
        G.nblocked--;
        ready(t);
    }
}

/* ---- requests ---- */

static Req *
req_new(int kind) /* G.mu held */
{
    Req *r = xmalloc(sizeof *r);
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->owner = self;
    r->lnext = G.reqs;
    if (G.reqs)
        G.reqs->lprev = r;
    G.reqs = r;
    return r;
}

static void
req_free(Req *r) /* G.mu held */
{
    if (r->lprev)
        r->lprev->lnext = r->lnext;
    else
        G.reqs = r->lnext;
    if (r->lnext)
        r->lnext->lprev = r->lprev;
    free(r->stage);
    free(r);
}

static void
req_complete(Req *r) /* G.mu held */
{
    r->done = 1;
    if (r->owner->waiting == r)
        wake(r->owner);
}

static void
push(Req **head, Req **tail, Req *r)
{
    r->qnext = NULL;
    if (*tail)
        (*tail)->qnext = r;
    else
        *head = r;
    *tail = r;
}

/* the first request of the queue that m matches, unlinked; NULL if none */
static Req *
take(Req **head, Req **tail, int (*match)(const Req *, const Req *), const Req *m)
{
    Req *prev = NULL;
    for (Req *q = *head; q; prev = q, q = q->qnext)
        if (match(q, m)) {
            if (prev)
                prev->qnext = q->qnext;
            else
                *head = q->qnext;
            if (*tail == q)
                *tail = prev;
            q->qnext = NULL;
            return q;
        }
    return NULL;
}

static int
recv_matches(const Req *recv, const Req *send)
{
    return recv->ctx == send->ctx && (recv->src < 0 || recv->src == send->src) &&
           (recv->tag < 0 || recv->tag == send->tag);
}

static int
send_matches(const Req *send, const Req *recv)
{
    return recv_matches(recv, send);
}

/* the payload of s into r (outside G.mu: both are unlinked from every queue, and only
 * the copier touches them until it completes them) */
static void
copy_payload(Req *r, const Req *s)
{
    size_t n = s->bytes;
    r->st.source = s->srank;
    r->st.tag = s->tag;
    r->st.error = MPIRIO_SUCCESS;
    if (n > r->bytes) {
        n = r->bytes;
        r->st.error = MPIRIO_ERR_TRUNCATE;
    }
    if (n)
        memcpy(r->rbuf, s->stage ? s->stage : s->sbuf, n);
    r->st.count = (long long)n;
}

/* ---- runs ---- */

static int
env_choice(const char *var, const char *a, const char *b, int *which)
{
    const char *v = getenv(var);
    if (!v || !*v)
        return 0;
    if (strcmp(v, a) == 0)
        *which = 0;
    else if (strcmp(v, b) == 0)
        *which = 1;
    else {
        char msg[160];
        snprintf(msg, sizeof msg, "%s \"%.40s\": expected %s or %s", var, v, a, b);
        snprintf(run_stats->report, sizeof run_stats->report, "mpirio: %s\n", msg);
        return -1;
    }
    return 0;
}

/* Binds the calling thread (its own call, so that it runs on the core when the call
 * returns: a binding set by the parent after pthread_create took effect later, and the
 * sanitizer build saw a pinned DSP on another core). */
static void
pin(const Worker *t)
{
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return;
    int ncpu = CPU_COUNT(&allowed);
    if (ncpu < 1)
        return;
    int k = t->id % ncpu;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &allowed) && k-- == 0) {
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            pthread_setaffinity_np(pthread_self(), sizeof one, &one);
            return;
        }
}

/* a DSP's fiber */
static void
dsp_main(void *p)
{
    Thr *t = p;
    G.fn(t->rank, G.arg);
    if (!t->finalized)
        tr_finalize();
    pthread_mutex_lock(&G.mu);
    t->done = 1;
    G.live--;
    if (!G.dead && G.live > 0 && G.nblocked == G.live)
        deadlock();
    dsp_end(t);
}

static void *
worker_main(void *p)
{
    Worker *w = p;
    stack_t st = {.ss_sp = w->altstack, .ss_size = 1 << 16};
    sigaltstack(&st, NULL); /* a DSP's stack may be what overflowed */
    w->host = fiber_host();
    if (G.pin)
        pin(w);
    /* the start: the clock runs from the moment the last worker is there */
    pthread_mutex_lock(&G.mu);
    if (++G.arrived == G.nw) {
        clock_gettime(CLOCK_MONOTONIC, &G.t0);
        G.go = 1;
        for (int i = 0; i < G.nw; i++)
            pthread_cond_signal(&G.w[i].cv);
    } else
        while (!G.go)
            pthread_cond_wait(&w->cv, &G.mu);
    if (!G.fn) { /* the run could not start all its workers */
        pthread_mutex_unlock(&G.mu);
        thread_end();
        return NULL;
    }
    Queue *q = w->q;
    for (;;) {
        if (!q->head && live_for(w) > 0 && G.spin_ns > 0) {
            pthread_mutex_unlock(&G.mu);
            spin_until(&q->n);
            pthread_mutex_lock(&G.mu);
        }
        while (!q->head && live_for(w) > 0) {
            w->sleeping = 1;
            pthread_cond_wait(&w->cv, &G.mu);
        }
        w->sleeping = 0;
        if (!q->head)
            break; /* all its DSPs have ended */
        Thr *t = q->head;
        q->head = t->rnext;
        if (!q->head)
            q->tail = NULL;
        q->n--;
        if (!G.pin)
            t->w = w; /* where it runs now: the one signalled first when it is ready */
        pthread_mutex_unlock(&G.mu);
        /* made ready by a waker while still switching out on another worker: until
           that one is out of its fiber (a few instructions, unless it is preempted) */
        for (unsigned i = 1; t->on_worker; i++)
            if (i % 64 == 0)
                sched_yield();
            else
                cpu_relax();
        t->on_worker = 1;
        running_dsp = t; /* the worker's own thread: never elsewhere */
        fiber_switch(w->host, t->fib);
        running_dsp = NULL;
        t->on_worker = 0;
        pthread_mutex_lock(&G.mu);
    }
    pthread_mutex_unlock(&G.mu);
    thread_end();
    return NULL;
}

static void
free_run(void)
{
    while (G.reqs)
        req_free(G.reqs);
    for (int i = 0; i < G.n; i++) {
        Thr *t = &G.t[i];
        while (t->tmps) {
            Tmp *x = t->tmps;
            t->tmps = x->next;
            free(x);
        }
        fiber_free(t->fib);
    }
    for (int i = 0; G.w && i < G.nw; i++) {
        pthread_cond_destroy(&G.w[i].cv);
        free(G.w[i].altstack);
    }
    for (int c = 0; G.slots && c <= G.nboards; c++) {
        Slot *s = &G.slots[c];
        free(s->sbuf);
        free(s->rbuf);
        free(s->err);
        free(s->who);
    }
    free(G.slots);
    free(G.t);
    free(G.w);
    G.slots = NULL;
    G.t = NULL;
    G.w = NULL;
}

int
tr_run(int n, const char *platform, int flags, void (*fn)(int, void *), void *arg,
       RunResult *out)
{
    pthread_mutex_lock(&run_mu);
    if (running || self) { /* the results of the run in progress stay */
        pthread_mutex_unlock(&run_mu);
        return 1;
    }
    running = 1;
    pthread_mutex_unlock(&run_mu);
    out->ran = 1;
    run_stats = &out->stats;
    int rc = 0;
    PlatDesc p;
    memset(&p, 0, sizeof p);
    char err[512];
    const char *spec = platform && *platform ? platform : getenv("MPIRIO_PLATFORM");
    int quiet = (flags & MPIRIO_RUN_QUIET) != 0, mpich = 0, spin = 0, pinv = 0;
    long spin_us = 50, nworkers = 0;
    const char *sv = getenv("MPIRIO_SPIN_US"), *wv = getenv("MPIRIO_WORKERS");
    if (n < 1 || n > 1 << 16) {
        snprintf(run_stats->report, sizeof run_stats->report,
                 "mpirio: a run needs 1 to 65536 DSPs, not %d\n", n);
        rc = 1;
    } else if (plat_load(&p, spec, n, err, sizeof err) != 0) {
        snprintf(run_stats->report, sizeof run_stats->report, "mpirio: platform: %s\n",
                 err);
        rc = 1;
    } else if (env_choice("MPIRIO_COLL", "switch", "mpich", &mpich) ||
               env_choice("MPIRIO_COMPUTE", "none", "spin", &spin) ||
               env_choice("MPIRIO_PIN", "0", "1", &pinv)) {
        pd_free(&p);
        rc = 1;
    } else if (sv && *sv) {
        char *end;
        spin_us = strtol(sv, &end, 10);
        if (end == sv || *end || spin_us < 0 || spin_us > 1000000) {
            snprintf(run_stats->report, sizeof run_stats->report,
                     "mpirio: MPIRIO_SPIN_US \"%.40s\": expected microseconds, 0 to "
                     "1000000\n",
                     sv);
            pd_free(&p);
            rc = 1;
        }
    }
    if (!rc && wv && *wv) {
        char *end;
        nworkers = strtol(wv, &end, 10);
        if (end == wv || *end || nworkers < 1 || nworkers > 1 << 16) {
            snprintf(run_stats->report, sizeof run_stats->report,
                     "mpirio: MPIRIO_WORKERS \"%.40s\": expected a number of threads, 1 "
                     "to 65536\n",
                     wv);
            pd_free(&p);
            rc = 1;
        }
    }
    if (rc) {
        if (!quiet)
            fputs(run_stats->report, stderr);
        pthread_mutex_lock(&run_mu);
        running = 0;
        pthread_mutex_unlock(&run_mu);
        return rc;
    }
    memset(G.report, 0, sizeof G.report);
    G.n = G.live = n;
    G.nblocked = G.dead = G.arrived = 0;
    G.go = 0;
    G.dpb = p.dsps_per_board > 0 ? p.dsps_per_board : n;
    G.nboards = (n + G.dpb - 1) / G.dpb;
    G.eager = (size_t)p.eager_limit;
    G.hz = (long long)p.dsp_clock_mhz * 1000000;
    pd_free(&p);
    G.in_place = (flags & MPIRIO_RUN_SEND_IN_PLACE) != 0;
    cpu_set_t allowed;
    int ncpu =
        sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
    G.nw = (int)(nworkers ? nworkers : ncpu);
    if (G.nw > n)
        G.nw = n;
    if (G.nw < 1)
        G.nw = 1;
    /* more workers than cores: an idle one sleeps at once */
    G.spin_ns = G.nw <= ncpu ? spin_us * 1000 : 0;
    G.quiet = quiet;
    G.spin = spin;
    G.pin = pinv || (flags & MPIRIO_RUN_PIN) != 0;
    G.coll =
        mpich || (flags & MPIRIO_RUN_COLL_MPICH) ? MPIRIO_COLL_MPICH : MPIRIO_COLL_SWITCH;
    G.fn = fn;
    G.arg = arg;
    G.reqs = NULL;
    G.t = calloc((size_t)n, sizeof *G.t);
    G.w = calloc((size_t)G.nw, sizeof *G.w);
    G.slots = calloc((size_t)G.nboards + 1, sizeof *G.slots);
    if (!G.t || !G.w || !G.slots)
        die("out of memory");
    for (int c = 0; c <= G.nboards; c++) {
        Slot *s = &G.slots[c];
        s->size = c == 0 ? n : n - (c - 1) * G.dpb < G.dpb ? n - (c - 1) * G.dpb : G.dpb;
        s->sbuf = calloc((size_t)s->size, sizeof *s->sbuf);
        s->rbuf = calloc((size_t)s->size, sizeof *s->rbuf);
        s->err = calloc((size_t)s->size, sizeof *s->err);
        s->who = calloc((size_t)s->size, sizeof *s->who);
        if (!s->sbuf || !s->rbuf || !s->err || !s->who)
            die("out of memory");
    }
    memset(&G.q, 0, sizeof G.q);
    G.nlive_all = 0;
    for (int k = 0; k < G.nw; k++) {
        Worker *w = &G.w[k];
        w->id = k;
        w->q = G.pin ? &w->own : &G.q;
        pthread_cond_init(&w->cv, NULL);
        w->altstack = xmalloc(1 << 16);
    }
    for (int i = 0; i < n && !rc; i++) { /* every DSP ready on its worker, in order */
        Thr *t = &G.t[i];
        t->rank = i;
        t->coll_family = G.coll;
        t->w = &G.w[i % G.nw];
        t->fib =
            fiber_new((size_t)8 << 20, dsp_main, t); /* a DSP's stack, as a thread's */
        if (!t->fib) {
            snprintf(run_stats->report, sizeof run_stats->report,
                     "mpirio: cannot make the context of DSP %d: %s\n", i,
                     strerror(errno));
            rc = 1;
            break;
        }
        t->w->nlive++;
        G.nlive_all++;
        ready(t);
    }
    catch_faults(1);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)1 << 20); /* the workers' own: small */
    int started = 0;
    for (int k = 0; k < G.nw && !rc; k++) {
        Worker *w = &G.w[k];
        if (pthread_create(&w->tid, &attr, worker_main, w) != 0) {
            snprintf(run_stats->report, sizeof run_stats->report,
                     "mpirio: cannot start worker thread %d: %s\n", k, strerror(errno));
            break;
        }
        w->started = 1;
        started++;
    }
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&G.mu);
    if (started < G.nw) { /* the started ones never run the program */
        G.fn = NULL;
        rc = 1;
    }
    if (rc) { /* the started ones end at once */
        G.go = 1;
        for (int k = 0; k < G.nw; k++)
            pthread_cond_signal(&G.w[k].cv);
    }
    pthread_mutex_unlock(&G.mu);
    for (int k = 0; k < G.nw; k++)
        if (G.w[k].started)
            pthread_join(G.w[k].tid, NULL);
    if (rc) { /* the program cannot run on fewer threads */
        catch_faults(0);
        if (!quiet)
            fputs(run_stats->report, stderr);
        free_run();
        pthread_mutex_lock(&run_mu);
        running = 0;
        pthread_mutex_unlock(&run_mu);
        return rc;
    }
    catch_faults(0);
    /* the statistics: the length is the last DSP's finish */
    out->finish = calloc((size_t)n, sizeof *out->finish);
    out->nfinish = out->finish ? n : 0;
    MPIRIO_Stats *st = &out->stats;
    Cycles now = (Cycles)(seconds_since(&G.t0) * (double)G.hz);
    st->ndsps = n;
    for (int i = 0; i < n; i++) {
        Thr *t = &G.t[i];
        Cycles f = t->done ? t->finish : now;
        if (out->finish)
            out->finish[i] = f;
        if (f > st->cycles)
            st->cycles = f;
        st->traffic.messages += t->tr.messages;
        st->traffic.packets += t->tr.packets;
        st->traffic.bytes += t->tr.bytes;
    }
    st->deadlock = G.dead;
    memcpy(st->report, G.report, sizeof st->report);
    if (flags & MPIRIO_RUN_SUMMARY || getenv("MPIRIO_SUMMARY"))
        fprintf(stderr,
                "mpirio: %d DSPs as threads, %lld cycles (%.6f s wall-clock at %lld Hz), "
                "%lld messages, %lld bytes\n",
                n, st->cycles, (double)st->cycles / (double)G.hz, G.hz,
                st->traffic.messages, st->traffic.bytes);
    rc = G.dead ? 2 : 0;
    free_run();
    pthread_mutex_lock(&run_mu);
    running = 0;
    pthread_mutex_unlock(&run_mu);
    return rc;
}

/* ---- the job and the calling DSP ---- */

int
tr_dsp(void)
{
    return self != NULL;
}

int
tr_active(void)
{
    return self && !self->finalized;
}

int
tr_strict(void)
{
    return 0; /* only MPIRIO_Run's DSPs: no program with its own main */
}

void **
tr_api_slot(void)
{
    return self ? &self->api_slot : &outside_slot;
}

void
tr_call(const char *name)
{
    if (self)
        self->call = name;
}

const char *
tr_last_call(void)
{
    return self ? self->call : NULL;
}

int
tr_rank(void)
{
    return self ? self->rank : -1;
}

int
tr_size(void)
{
    return G.n;
}

int
tr_dsps_per_board(void)
{
    return G.dpb;
}

Cycles
tr_now(void)
{
    if (self && self->finalized)
        return self->finish;
    return (Cycles)(seconds_since(&G.t0) * (double)G.hz);
}

long long
tr_clock_hz(void)
{
    return G.hz ? G.hz : 500000000LL;
}

void
tr_finalize(void)
{
    self->finish = tr_now();
    self->finalized = 1;
}

void
tr_set_priority(int prio)
{
    (void)prio; /* shared memory has no message priorities */
}

int
tr_coll_default(void)
{
    return self ? self->coll_family : MPIRIO_COLL_SWITCH;
}

void
tr_set_coll(int family)
{
    self->coll_family = family;
}

void
tr_traffic(MPIRIO_Traffic *t)
{
    *t = self->tr; /* what this DSP sent */
}

int
tr_link(int link, MPIRIO_Link *l)
{
    (void)link;
    (void)l;
    return MPIRIO_ERR_ARG; /* no links in shared memory */
}

void *
tr_tmp_alloc(size_t n)
{
    Tmp *x = xmalloc(sizeof *x + (n ? n : 1));
    Thr *t = self;
    x->prev = NULL;
    x->next = t->tmps;
    if (t->tmps)
        t->tmps->prev = x;
    t->tmps = x;
    return x->data;
}

void
tr_tmp_free(void *p)
{
    if (!p)
        return;
    Tmp *x = (Tmp *)((unsigned char *)p - offsetof(Tmp, data));
    Thr *t = self;
    if (x->prev)
        x->prev->next = x->next;
    else
        t->tmps = x->next;
    if (x->next)
        x->next->prev = x->prev;
    free(x);
}

/* no trace on threads */
void
tr_trace_iteration(long long it)
{
    (void)it;
}

void
tr_compute(Cycles c, const char *name)
{
    (void)name;
    if (G.spin && c > 0) {
        double until = self->mark + (double)c / (double)G.hz;
        while (seconds_since(&G.t0) < until)
            ;
    }
    done_call();
}

/* ---- point-to-point ---- */

int
tr_isend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank, Req **out)
{
    Thr *me = self, *to = &G.t[dst];
    pthread_mutex_lock(&G.mu);
    Req *s = req_new(K_SEND);
    s->src = me->rank;
    s->dst = dst;
    s->ctx = ctx;
    s->tag = tag;
    s->srank = srank;
    s->bytes = bytes;
    s->sbuf = buf;
    me->tr.messages++;
    me->tr.packets++;
    me->tr.bytes += (long long)bytes;
    Req *r = take(&to->posted, &to->posted_tail, recv_matches, s);
    if (r) { /* the receive is posted: straight into its buffer */
        pthread_mutex_unlock(&G.mu);
        copy_payload(r, s);
        pthread_mutex_lock(&G.mu);
        req_complete(r);
        s->done = 1;
    } else {
        if (bytes && (!G.in_place || bytes <= G.eager)) {
            s->stage = xmalloc(bytes);
            memcpy(s->stage, buf, bytes);
        }
        s->done = bytes <= G.eager; /* eager: free at once; else at the match */
        s->queued = 1;
        push(&to->unexp, &to->unexp_tail, s);
    }
    pthread_mutex_unlock(&G.mu);
    *out = s;
    done_call();
    return MPIRIO_SUCCESS;
}

int
tr_irecv(void *buf, size_t cap, int src, int ctx, int tag, int blocking, Req **out)
{
    (void)blocking;
    Thr *me = self;
    pthread_mutex_lock(&G.mu);
    Req *r = req_new(K_RECV);
    r->src = src;
    r->ctx = ctx;
    r->tag = tag;
    r->bytes = cap;
    r->rbuf = buf;
    Req *s = take(&me->unexp, &me->unexp_tail, send_matches, r);
    if (s) { /* the send came first: copy it from its buffer or its staged copy; it
                stays queued (the sender's Wait leaves it to us) until the copy is done */
        pthread_mutex_unlock(&G.mu);
        copy_payload(r, s);
        pthread_mutex_lock(&G.mu);
        s->queued = 0;
        r->done = 1;
        free(s->stage);
        s->stage = NULL;
        if (s->orphan)
            req_free(s);
        else if (!s->done)
            req_complete(s);
    } else {
        push(&me->posted, &me->posted_tail, r);
    }
    pthread_mutex_unlock(&G.mu);
    *out = r;
    done_call();
    return MPIRIO_SUCCESS;
}

/* r complete: its status, then it is freed (G.mu held) */
static int
finish_req(Req *r, MPIRIO_Status *st)
{
    int e = MPIRIO_SUCCESS;
    if (r->kind == K_RECV) {
        e = r->st.error;
        if (st)
            *st = r->st;
    }
    if (r->queued)
        r->orphan = 1; /* an eager send not yet received: the receiver frees it */
    else
        req_free(r);
    return e;
}

int
tr_wait(Req *r, MPIRIO_Status *st)
{
    Thr *me = self;
    pthread_mutex_lock(&G.mu);
    if (!r->done) {
        me->waiting = r;
        sleep_until(&r->done);
        me->waiting = NULL;
    }
    int e = finish_req(r, st);
    pthread_mutex_unlock(&G.mu);
    done_call();
    return e;
}

int
tr_test(Req *r, int *flag, MPIRIO_Status *st)
{
    Thr *t = self;
    pthread_mutex_lock(&G.mu);
    *flag = r->done;
    int e = r->done ? finish_req(r, st) : MPIRIO_SUCCESS;
    if (!*flag && t->w->q->head) { /* a polling loop lets the ready DSPs run */
        Fiber *host = t->w->host;
        ready(t);
        pthread_mutex_unlock(&G.mu);
        fiber_switch(t->fib, host);
    } else {
        pthread_mutex_unlock(&G.mu);
        if (!*flag)
            sched_yield(); /* and the other processes' */
    }
    done_call();
    return e;
}

/* ---- collectives of the default family: a meeting in shared memory ---- */

static void
coll_work(Slot *c)
{
    size_t b = c->bytes;
    int n = c->size;
    if (c->bad) {
        for (int i = 0; i < n; i++)
            c->err[i] = MPIRIO_ERR_ARG;
        return;
    }
    for (int i = 0; i < n; i++)
        c->err[i] = MPIRIO_SUCCESS;
    size_t sz = dt_size(c->type);
    int count = sz ? (int)(b / sz) : 0;
    unsigned char *tmp = NULL;
    switch (c->kind) {
    case CO_BCAST:
        for (int i = 0; i < n && b; i++)
            if (i != c->root)
                memcpy(c->rbuf[i], c->sbuf[c->root], b);
        break;
    case CO_GATHER:
        tmp = xmalloc(b * (size_t)n);
        for (int i = 0; i < n && b; i++)
            memcpy(tmp + (size_t)i * b, c->sbuf[i], b);
        if (b)
            memcpy(c->rbuf[c->root], tmp, b * (size_t)n);
        break;
    case CO_SCATTER:
        tmp = xmalloc(b * (size_t)n);
        if (b)
            memcpy(tmp, c->sbuf[c->root], b * (size_t)n);
        for (int i = 0; i < n && b; i++)
            memmove(c->rbuf[i], tmp + (size_t)i * b, b);
        break;
    case CO_REDUCE:
    case CO_ALLREDUCE:
        tmp = xmalloc(b);
        if (b)
            memcpy(tmp, c->sbuf[0], b);
        for (int i = 1; i < n && b; i++)
            dt_reduce(tmp, c->sbuf[i], count, c->type, c->op);
        for (int i = 0; i < n && b; i++)
            if (c->kind == CO_ALLREDUCE || i == c->root)
                memcpy(c->rbuf[i], tmp, b);
        break;
    case CO_ALLGATHER:
        tmp = xmalloc(b * (size_t)n);
        for (int i = 0; i < n && b; i++)
            memcpy(tmp + (size_t)i * b, c->sbuf[i], b);
        for (int i = 0; i < n && b; i++)
            memcpy(c->rbuf[i], tmp, b * (size_t)n);
        break;
    default: /* CO_BARRIER */
        break;
    }
    free(tmp);
}

int
tr_coll_switch(int kind, int ctx, int base, int size, int root, const void *sbuf,
               void *rbuf, size_t bytes, MPIRIO_Datatype type, MPIRIO_Op op)
{
    Thr *t = self;
    int me = t->rank - base;
    if (ctx < 0 || ctx > G.nboards)
        return MPIRIO_ERR_ARG;
    Slot *c = &G.slots[ctx];
    if (size != c->size)
        return MPIRIO_ERR_ARG;
    pthread_mutex_lock(&G.mu);
    if (c->arrived == 0) {
        c->kind = kind;
        c->root = root;
        c->bytes = bytes;
        c->type = type;
        c->op = op;
        c->bad = 0;
    } else if (c->kind != kind || c->root != root || c->bytes != bytes ||
               ((kind == CO_REDUCE || kind == CO_ALLREDUCE) &&
                (c->type != type || c->op != op)))
        c->bad = 1;
    c->sbuf[me] = sbuf;
    c->rbuf[me] = rbuf;
    c->who[me] = t;
    t->tr.messages += kind == CO_BARRIER ? 0 : 1;
    t->tr.bytes += kind == CO_BARRIER ? 0 : (long long)bytes;
    if (++c->arrived == c->size) {
        coll_work(c);
        c->arrived = 0;
        c->gen++;
        for (int i = 0; i < c->size; i++)
            if (i != me) {
                c->who[i]->coll_done = 1;
                wake(c->who[i]);
            }
    } else {
        t->coll = c;
        t->coll_done = 0;
        sleep_until(&t->coll_done);
        t->coll = NULL;
    }
    int e = c->err[me];
    pthread_mutex_unlock(&G.mu);
    done_call();
    return e;
}
