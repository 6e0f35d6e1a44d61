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
 * returned, or the live ones are all blocked (a deadlock, reported by name). */
#define _GNU_SOURCE
#include "mpirio_int.h"

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>

Kernel *K;
#define K_HORIZON 1000000 /* cycles a DSP may run ahead of the kernel */
static _Thread_local Dsp *self;
static MPIRIO_Stats last_stats;
static long long *last_finish;
static int last_nfinish;

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
k_push(Cycles t, int cls, int type, int arg, void *p)
{
    if (K->nheap == K->capheap) {
        K->capheap = K->capheap ? 2 * K->capheap : 1024;
        K->heap = realloc(K->heap, K->capheap * sizeof *K->heap);
        if (!K->heap)
            abort();
    }
    Event e = {t, ((uint64_t)cls << 62) | K->seq++, type, arg, p};
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
dispatch(const Event *e)
{
    switch (e->type) {
    case EV_WAKE:
        k_make_ready(e->p);
        break;
    case EV_ISSUE:
        p2p_issue(e->p);
        break;
    case EV_POST:
        p2p_post(e->p);
        break;
    case EV_STREAM:
        net_start_stream(e->p, e->arg);
        break;
    case EV_MSG_START:
        net_start_msg(e->p);
        break;
    case EV_MSG_ARRIVE:
        p2p_msg_arrived(e->p);
        break;
    case EV_PKT_RECV:
        net_pkt_recv(e->p, e->arg);
        break;
    case EV_PKT_READY:
        net_pkt_ready(e->p);
        break;
    case EV_LINK_ARB:
        net_link_arb(e->arg);
        break;
    }
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
        dispatch(&e);
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
    if (blocked && K->trace && t1 > t0)
        k_trace_span(0, d->rank, d->call ? d->call : "wait", t0, t1, "wait");
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
        if (K->trace)
            k_trace_span(0, d->rank, d->after_what, d->clock, d->clock + d->after,
                         "busy");
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
    if (K->trace)
        k_trace_span(0, d->rank, what, d->clock, d->clock + c, "busy");
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
    k_push(d->clock, 0, EV_WAKE, 0, d);
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

void
settings_from_env(Settings *s)
{
    const char *v;
    if ((v = getenv("MPIRIO_NO_CONTENTION")) && *v && strcmp(v, "0") != 0)
        s->no_contention = 1;
    if ((v = getenv("MPIRIO_SUMMARY")) && *v && strcmp(v, "0") != 0)
        s->summary = 1;
    if ((v = getenv("MPIRIO_COLL"))) {
        if (strcmp(v, "mpich") == 0)
            s->coll = MPIRIO_COLL_MPICH;
        else if (strcmp(v, "switch") == 0)
            s->coll = MPIRIO_COLL_SWITCH;
    }
    if ((v = getenv("MPIRIO_FAULTS")) && *v)
        s->fault_rate = strtod(v, NULL);
    if ((v = getenv("MPIRIO_FAULT_SEED")) && *v)
        s->fault_seed = strtoull(v, NULL, 0);
    if ((v = getenv("MPIRIO_TRACE")) && *v)
        s->trace = v;
}

/* a run that cannot start: the message goes to stderr and to the statistics */
static void
setup_error(const Settings *set, const char *err)
{
    snprintf(last_stats.report, sizeof last_stats.report, "mpirio: %s\n", err);
    if (!set->quiet)
        fputs(last_stats.report, stderr);
}

/* the run behind MPIRIO_Run and mpirio-run */
int sim_run(int n, const char *platform, const Settings *set, void (*fn)(int, void *),
            void *arg);

static int run_locked(int n, const char *platform, const Settings *set,
                      void (*fn)(int, void *), void *arg);

int
sim_run(int n, const char *platform, const Settings *set, void (*fn)(int, void *),
        void *arg)
{
    static pthread_mutex_t one_run = PTHREAD_MUTEX_INITIALIZER;
    if (pthread_mutex_trylock(&one_run) != 0) {
        fprintf(stderr, "mpirio: a run is already in progress\n");
        return 1;
    }
    int rc = run_locked(n, platform, set, fn, arg);
    pthread_mutex_unlock(&one_run);
    return rc;
}

static int
run_locked(int n, const char *platform, const Settings *set, void (*fn)(int, void *),
           void *arg)
{
    char err[256];
    memset(&last_stats, 0, sizeof last_stats);
    if (n < 1 || !fn) {
        fprintf(stderr, "mpirio: need at least one DSP and a function\n");
        return 1;
    }
    Kernel *k = calloc(1, sizeof *k);
    if (!k)
        return 1;
    if (plat_load(&k->plat, platform, n, err, sizeof err) != 0) {
        setup_error(set, err);
        free(k);
        return 1;
    }
    k->pdsps = k->plat.boards * k->plat.dsps_per_board;
    if (n > k->pdsps) {
        snprintf(err, sizeof err, "platform \"%s\" has %d DSPs, %d requested",
                 k->plat.name, k->pdsps, n);
        setup_error(set, err);
        plat_free(&k->plat);
        free(k);
        return 1;
    }
    k->set = *set;
    k->ndsps = n;
    k->live = n;
    K = k;
    if (net_init(err, sizeof err) != 0) {
        setup_error(set, err);
        net_free();
        plat_free(&k->plat);
        free(k);
        K = NULL;
        return 1;
    }
    trace_open();
    k->dsps = calloc((size_t)n, sizeof *k->dsps);
    sem_t *sems = calloc((size_t)n + 1, sizeof *sems);
    pthread_t *th = calloc((size_t)n, sizeof *th);
    if (!k->dsps || !sems || !th)
        abort();
    k->main_sem = &sems[n];
    sem_init(&sems[n], 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20);
    /* only one DSP thread runs at a time: on one CPU the baton passes without
     * cross-CPU wake-ups, several times faster (MPIRIO_NO_PIN=1 turns it off) */
    cpu_set_t old_cpus, one;
    int pinned = 0;
    const char *nopin = getenv("MPIRIO_NO_PIN");
    if (!(nopin && *nopin && strcmp(nopin, "0") != 0) &&
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
        Dsp *d = &k->dsps[i];
        d->rank = i;
        d->board = i / k->plat.dsps_per_board;
        d->coll = set->coll;
        d->fn = fn;
        d->arg = arg;
        d->thread_sem = &sems[i];
        d->state = DS_READY;
        d->what[0] = 0;
        sem_init(&sems[i], 0, 0);
    }
    int created = 0;
    for (; created < n; created++)
        if (pthread_create(&th[created], &attr, dsp_thread, &k->dsps[created]) != 0)
            break;
    pthread_attr_destroy(&attr);
    if (created < n) {
        fprintf(stderr, "mpirio: cannot create %d threads (only %d)\n", n, created);
        k->aborting = 1;
        for (int i = 0; i < created; i++)
            sem_post(&sems[i]);
    } else {
        for (int i = 0; i < n; i++)
            k_make_ready(&k->dsps[i]);
        Dsp *first = next_dsp();
        sem_post(first->thread_sem);
        sem_wait(k->main_sem);
    }
    for (int i = 0; i < created; i++)
        pthread_join(th[i], NULL);
    if (pinned)
        pthread_setaffinity_np(pthread_self(), sizeof old_cpus, &old_cpus);
    /* fill the statistics */
    MPIRIO_Stats *s = &last_stats;
    s->ndsps = n;
    s->deadlock = k->deadlock;
    free(last_finish);
    last_finish = calloc((size_t)n, sizeof *last_finish);
    last_nfinish = n;
    for (int i = 0; i < n; i++) {
        Cycles f = k->dsps[i].state == DS_DONE ? k->dsps[i].finish : k->now;
        if (last_finish)
            last_finish[i] = f;
        if (f > s->cycles)
            s->cycles = f;
    }
    tr_traffic(&s->traffic);
    s->events = k->events;
    s->switches = k->switches;
    memcpy(s->report, k->report, sizeof s->report);
    if (k->set.summary && created == n)
        stats_summary(stderr);
    trace_close();
    int rc = created < n ? 1 : k->deadlock ? 2 : 0;
    for (int i = 0; i <= n; i++)
        sem_destroy(&sems[i]);
    for (int i = 0; i < n; i++) {
        Dsp *d = &k->dsps[i];
        for (Msg *m = d->unexp; m;) {
            Msg *nx = m->next;
            free(m->data);
            free(m->pk);
            free(m->hop_busy);
            free(m);
            m = nx;
        }
    }
    while (k->reqs)
        req_free(k->reqs);
    coll_free_all();
    net_free();
    free(k->heap);
    free(k->dsps);
    free(sems);
    free(th);
    plat_free(&k->plat);
    free(k);
    K = NULL;
    return rc;
}

int
MPIRIO_Run(int n, const char *platform, int flags, void (*dsp_main)(int rank, void *arg),
           void *arg)
{
    Settings s = {0};
    settings_from_env(&s);
    if (flags & MPIRIO_RUN_NO_CONTENTION)
        s.no_contention = 1;
    if (flags & MPIRIO_RUN_SUMMARY)
        s.summary = 1;
    if (flags & MPIRIO_RUN_COLL_MPICH)
        s.coll = MPIRIO_COLL_MPICH;
    if (flags & MPIRIO_RUN_QUIET)
        s.quiet = 1;
    return sim_run(n, platform, &s, dsp_main, arg);
}

int
MPIRIO_Run_stats(MPIRIO_Stats *stats)
{
    if (!stats)
        return MPIRIO_ERR_ARG;
    *stats = last_stats;
    return MPIRIO_SUCCESS;
}

int
MPIRIO_Run_finish_times(long long *times, int n)
{
    if (!times || n < 0)
        return MPIRIO_ERR_ARG;
    for (int i = 0; i < n && i < last_nfinish; i++)
        times[i] = last_finish[i];
    return MPIRIO_SUCCESS;
}
