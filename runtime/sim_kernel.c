/* sim_kernel.c: the discrete-event kernel of the simulated platform.
 *
 * One POSIX thread per DSP, but only one thread runs at a time: the baton passes
 * by semaphores. Each DSP has its own clock: a CPU cost moves only that clock, and
 * what the DSP then does to the platform (issue, post, inject) is an event at its
 * clock. A DSP that must wait for the platform (a wait whose data is not in, a
 * Test, a traffic query) blocks; the blocking thread then runs the kernel itself:
 * it pops events in (time, class, sequence) order until some DSP is ready and hands
 * the baton to it (or keeps it, when that DSP is itself: no thread switch). Every
 * action lands in the queue at the virtual time it belongs to, and events are
 * ordered by time and insertion sequence, both functions of the program alone, so
 * every run of a program is identical whatever the host's thread timing.
 *
 * When no DSP is ready and no event is pending, the run is over: every DSP has
 * returned, or the live ones are all blocked (a deadlock, reported by name).
 *
 * The kernel knows nothing of the layers above: an event carries the function that
 * handles it (k_push), and what a blocked DSP waits for is text they wrote. */
#define _GNU_SOURCE
#include "sim.h"

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>

Kernel *K;
#define K_HORIZON 1000000 /* cycles a DSP may run ahead of the kernel */
static _Thread_local Dsp *self;
static sem_t *sems; /* one per DSP, then main's */
static pthread_t *threads;

Dsp *
k_self(void)
{
    return self;
}

static int
ev_less(const Event *a, const Event *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    return a->key < b->key;
}

void
k_push(Cycles t, int cls, EvFn fn, int arg, void *p)
{
    if (K->nheap == K->capheap) {
        K->capheap = K->capheap ? 2 * K->capheap : 1024;
        K->heap = realloc(K->heap, K->capheap * sizeof *K->heap);
        if (!K->heap)
            abort();
    }
    Event e = {t, ((uint64_t)cls << 62) | K->seq++, fn, arg, p};
    size_t i = K->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!ev_less(&e, &K->heap[up]))
            break;
        K->heap[i] = K->heap[up];
        i = up;
    }
    K->heap[i] = e;
}

static Event
pop(void)
{
    Event top = K->heap[0];
    Event last = K->heap[--K->nheap];
    size_t i = 0, n = K->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_less(&K->heap[c + 1], &K->heap[c]))
            c++;
        if (!ev_less(&K->heap[c], &last))
            break;
        K->heap[i] = K->heap[c];
        i = c;
    }
    if (n)
        K->heap[i] = last;
    return top;
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
wake(int arg, void *d)
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
        if (K->nheap == 0)
            return NULL;
        Event e = pop();
        K->now = e.t;
        K->events++;
        e.fn(e.arg, e.p);
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
        len +=
            (size_t)snprintf(r + len, n - len, "  DSP %d (board %d): blocked in %s, %s\n",
                             i, d->board, d->call ? d->call : "?", d->what);
    }
    K->deadlock = 1;
    if (!K->set.quiet)
        fputs(r, stderr);
}

/* the run is over: wake everything that is left so it can exit, then main */
static void
end_of_run(void)
{
    if (K->live > 0) {
        report_deadlock();
        K->aborting = 1;
        for (int i = 0; i < K->ndsps; i++)
            if (K->dsps[i].state != DS_DONE)
                sem_post(K->dsps[i].thread_sem);
    }
    sem_post(K->main_sem);
}

static void
pass_baton(Dsp *d)
{
    Dsp *n = next_dsp();
    if (n == d) {
        d->state = DS_RUN;
        return;
    }
    if (n) {
        K->switches++;
        sem_post(n->thread_sem);
    } else
        end_of_run();
    sem_wait(d->thread_sem);
    if (K->aborting)
        pthread_exit(NULL);
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
    if (blocked && trace_active && t1 > t0)
        trace_span(0, d->rank, d->call ? d->call : "wait", t0, t1, "wait");
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
        if (trace_active)
            trace_span(0, d->rank, d->after_what, d->clock, d->clock + d->after, "busy");
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
    if (trace_active)
        trace_span(0, d->rank, what, d->clock, d->clock + c, "busy");
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
    k_push(d->clock, 0, wake, 0, d);
    d->state = DS_BUSY;
    k_block(d);
}

static void *
dsp_thread(void *arg)
{
    Dsp *d = arg;
    self = d;
    sem_wait(d->thread_sem);
    if (K->aborting)
        return NULL;
    d->state = DS_RUN;
    d->fn(d->rank, d->arg);
    if (!d->finalized)
        d->finish = d->clock;
    d->state = DS_DONE;
    K->live--;
    Dsp *n = next_dsp();
    if (n)
        sem_post(n->thread_sem);
    else
        end_of_run();
    return NULL;
}

int
k_run(int n, void (*fn)(int, void *), void *arg)
{
    K->ndsps = n;
    K->live = n;
    K->dsps = calloc((size_t)n, sizeof *K->dsps);
    sems = calloc((size_t)n + 1, sizeof *sems);
    threads = calloc((size_t)n, sizeof *threads);
    if (!K->dsps || !sems || !threads)
        abort();
    K->main_sem = &sems[n];
    sem_init(&sems[n], 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20);
    /* only one DSP thread runs at a time: on one CPU the baton passes without
     * cross-CPU wake-ups, several times faster (MPIRIO_NO_PIN=1 turns it off) */
    cpu_set_t old_cpus, one;
    int pinned = 0;
    if (!K->set.no_pin &&
        pthread_getaffinity_np(pthread_self(), sizeof old_cpus, &old_cpus) == 0) {
        int cpu = sched_getcpu();
        CPU_ZERO(&one);
        if (cpu >= 0 && CPU_ISSET(cpu, &old_cpus)) {
            CPU_SET(cpu, &one);
            pinned = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
            if (pinned)
                pthread_attr_setaffinity_np(&attr, sizeof one, &one);
        }
    }
    for (int i = 0; i < n; i++) {
        Dsp *d = &K->dsps[i];
        d->rank = i;
        d->board = i / K->plat.dsps_per_board;
        d->coll = K->set.coll;
        d->fn = fn;
        d->arg = arg;
        d->thread_sem = &sems[i];
        d->state = DS_READY;
        d->what[0] = 0;
        sem_init(&sems[i], 0, 0);
    }
    int created = 0;
    for (; created < n; created++)
        if (pthread_create(&threads[created], &attr, dsp_thread, &K->dsps[created]) != 0)
            break;
    pthread_attr_destroy(&attr);
    if (created < n) {
        fprintf(stderr, "mpirio: cannot create %d threads (only %d)\n", n, created);
        K->aborting = 1;
        for (int i = 0; i < created; i++)
            sem_post(&sems[i]);
    } else {
        for (int i = 0; i < n; i++)
            k_make_ready(&K->dsps[i]);
        Dsp *first = next_dsp();
        sem_post(first->thread_sem);
        sem_wait(K->main_sem);
    }
    for (int i = 0; i < created; i++)
        pthread_join(threads[i], NULL);
    if (pinned)
        pthread_setaffinity_np(pthread_self(), sizeof old_cpus, &old_cpus);
    return created < n ? 1 : K->deadlock ? 2 : 0;
}

void
k_free(void)
{
    if (sems)
        for (int i = 0; i <= K->ndsps; i++)
            sem_destroy(&sems[i]);
    free(sems);
    free(threads);
    sems = NULL;
    threads = NULL;
    free(K->heap);
    free(K->dsps);
}
