/* sim_run.c: the top of the simulated transport: a run, and the tr_ calls about the
 * job and the calling DSP.
 *
 * A run (tr_run, behind MPIRIO_Run and mpirio-run) reads the settings, loads the
 * platform, builds the fabric, opens the trace, lets the kernel run the DSPs, then
 * keeps the statistics, prints the summary and frees everything. The layers of the
 * transport below it, each calling only those below: sim_p2p.c and sim_coll.c (the
 * protocols), sim_net.c (the fabric), sim_kernel.c (events, DSPs, virtual time), and
 * at the bottom platform_load.c (over platform/), datatype.c, trace.c. */
#define _XOPEN_SOURCE 700 /* sigaltstack, siginfo_t's si_code */
#include "sim.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The settings of the environment (mpirio-run's options set them too). Each is
 * checked: a value that does not parse, or is out of range, stops the run with a
 * message naming the variable and the option. Unset or empty: the default. */

static int
bad(char *err, size_t n, const char *var, const char *opt, const char *v,
    const char *want)
{
    snprintf(err, n, "%s%s%s%s \"%s\": expected %s", var, opt ? " (" : "", opt ? opt : "",
             opt ? ")" : "", v, want);
    return -1;
}

/* 0 or 1; the flag's value in *on, untouched when unset */
static int
env_flag(const char *var, const char *opt, int *on, char *err, size_t n)
{
    const char *v = getenv(var);
    if (!v || !*v)
        return 0;
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
        return bad(err, n, var, opt, v, "0 or 1");
    *on = *v == '1';
    return 0;
}

static int
settings_from_env(Settings *s, char *err, size_t n)
{
    const char *v;
    if (env_flag("MPIRIO_NO_CONTENTION", "--no-contention", &s->no_contention, err, n) ||
        env_flag("MPIRIO_SUMMARY", "--summary", &s->summary, err, n))
        return -1;
    if ((v = getenv("MPIRIO_COLL")) && *v) {
        if (strcmp(v, "mpich") == 0)
            s->coll = MPIRIO_COLL_MPICH;
        else if (strcmp(v, "switch") == 0)
            s->coll = MPIRIO_COLL_SWITCH;
        else
            return bad(err, n, "MPIRIO_COLL", "--coll", v, "switch or mpich");
    }
    if ((v = getenv("MPIRIO_FAULTS")) && *v) {
        char *end;
        errno = 0;
        double f = strtod(v, &end);
        if (end == v || *end || errno || !(f >= 0 && f < 1))
            return bad(err, n, "MPIRIO_FAULTS", "--faults", v,
                       "a fraction of the transmissions, at least 0 and below 1");
        s->fault_rate = f;
    }
    if ((v = getenv("MPIRIO_FAULT_SEED")) && *v) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(v, &end, 0);
        if (end == v || *end || errno || strchr(v, '-'))
            return bad(err, n, "MPIRIO_FAULT_SEED", "--fault-seed", v,
                       "an unsigned integer");
        s->fault_seed = x;
    }
    if ((v = getenv("MPIRIO_TRACE")) && *v)
        s->trace = v;
    return 0;
}

/* a run that cannot start: the message goes to stderr and to the statistics */
static void
setup_error(const Settings *set, const char *err, RunResult *out)
{
    /* "mpirio: " before each line (the platform reader reports every error it finds) */
    char *r = out->stats.report;
    size_t n = sizeof out->stats.report, at = 0;
    r[0] = 0;
    for (const char *line = err; at + 1 < n;) {
        size_t len = strcspn(line, "\n");
        int w = snprintf(r + at, n - at, "mpirio: %.*s\n", (int)len, line);
        at = w < 0 || (size_t)w >= n - at ? n - 1 : at + (size_t)w;
        if (!line[len])
            break;
        line += len + 1;
    }
    if (!set->quiet)
        fputs(r, stderr);
}

static void
node_name(int node, char *buf, size_t n)
{
    if (node < K->pdsps)
        snprintf(buf, n, "DSP %d", node);
    else
        snprintf(buf, n, "switch %d", node - K->pdsps);
}

static void
trace_tracks(void)
{
    trace_name(0, 0, "process_name", "DSPs");
    trace_name(1, 0, "process_name", "links");
    char name[96], a[32], b[32];
    for (int i = 0; i < K->ndsps; i++) {
        snprintf(name, sizeof name, "DSP %d (board %d)", i, i / K->plat.dsps_per_board);
        trace_name(0, i, "thread_name", name);
    }
    for (int l = 0; l < K->nlinkall; l++) {
        node_name(K->links[l].from, a, sizeof a);
        node_name(K->links[l].to, b, sizeof b);
        snprintf(name, sizeof name, "link %d: %s -> %s", l, a, b);
        trace_name(1, l, "thread_name", name);
    }
}

/* A DSP that crashes (a fault of its own code, abort() of a failed assert) ends the
 * process without exit handlers: while a trace is open, the run catches the signals
 * of a crash, writes what was traced (trace_crash), and gives the signal to the action
 * that was there before (the default's end by the signal, mpirio-run's report of the
 * DSP, a sanitizer's report). */
static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
enum { NCRASH = sizeof crash_sigs / sizeof crash_sigs[0] };
static struct sigaction crash_old[NCRASH];
static stack_t crash_oldstack;
static int crash_caught;

static void
uncatch_crashes(void)
{
    if (!crash_caught)
        return;
    for (int i = 0; i < NCRASH; i++)
        sigaction(crash_sigs[i], &crash_old[i], NULL);
    if (crash_oldstack.ss_flags & SS_DISABLE) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    }
    crash_caught = 0;
}

static void
on_crash(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    trace_crash();
    uncatch_crashes();
    /* a fault of an instruction happens again on return, now under the previous
     * action; a signal sent (raise, abort, kill) is sent again, delivered under it when
     * this returns */
    if (si->si_code <= 0 || sig == SIGABRT)
        raise(sig);
}

static void
catch_crashes(void)
{
    static char altstack[1 << 16]; /* the signal of a DSP's stack that overflowed */
    sigaltstack(NULL, &crash_oldstack);
    if (crash_oldstack.ss_flags & SS_DISABLE) {
        stack_t st = {.ss_sp = altstack, .ss_size = sizeof altstack};
        sigaltstack(&st, NULL);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NCRASH; i++)
        sigaction(crash_sigs[i], &sa, &crash_old[i]);
    crash_caught = 1;
}

static void
summary(FILE *f)
{
    Cycles len = 0;
    for (int i = 0; i < K->ndsps; i++)
        if (K->dsps[i].finish > len)
            len = K->dsps[i].finish;
    const MPIRIO_Traffic *t = &K->tr;
    fprintf(f, "mpirio: platform %s, %d DSPs on %d board%s, contention %s\n",
            K->plat.name, K->ndsps, K->plat.nboards, K->plat.nboards == 1 ? "" : "s",
            K->set.no_contention ? "off" : "on");
    char *full = pd_describe(&K->plat);
    fprintf(f, "mpirio:   %s\n", full);
    free(full);
    fprintf(f, "mpirio: length %lld cycles (%.6f s at %d MHz)\n", len,
            (double)len / ((double)K->plat.dsp_clock_mhz * 1e6),
            (int)K->plat.dsp_clock_mhz);
    fprintf(
        f,
        "mpirio: %lld messages, %lld packets, %lld payload bytes, %lld link crossings, "
        "%lld retries, %lld duplicates dropped\n",
        t->messages, t->packets, t->bytes, t->link_packets, t->retries, t->dropped);
    char a[32], b[32];
    for (int i = 0; i < K->ndsps; i++) {
        const Dsp *d = &K->dsps[i];
        fprintf(f, "mpirio:   DSP %d: finished at %lld, busy %lld cycles (%.1f%%)\n", i,
                d->finish, d->busy, len ? 100.0 * (double)d->busy / (double)len : 0.0);
    }
    for (int l = 0; l < K->nlinkall; l++) {
        const Link *k = &K->links[l];
        if (!k->packets)
            continue;
        node_name(k->from, a, sizeof a);
        node_name(k->to, b, sizeof b);
        fprintf(f,
                "mpirio:   link %d %s -> %s: %lld packets, %lld bytes, %lld retries, "
                "busy %lld cycles (%.1f%%)\n",
                l, a, b, k->packets, k->bytes, k->retries, k->busy,
                len ? 100.0 * (double)k->busy / (double)len : 0.0);
    }
}

/* the statistics of the run that has just ended */
static void
keep_stats(int n, RunResult *out)
{
    MPIRIO_Stats *s = &out->stats;
    s->ndsps = n;
    s->deadlock = K->deadlock;
    out->finish = calloc((size_t)n, sizeof *out->finish);
    out->nfinish = out->finish ? n : 0;
    for (int i = 0; i < n; i++) {
        Cycles f = K->dsps[i].state == DS_DONE ? K->dsps[i].finish : K->now;
        if (out->finish)
            out->finish[i] = f;
        if (f > s->cycles)
            s->cycles = f;
    }
    s->traffic = K->tr;
    s->events = K->events;
    s->switches = K->switches;
    memcpy(s->report, K->report, sizeof s->report);
}

static int
run_locked(int n, const char *platform, const Settings *set, void (*fn)(int, void *),
           void *arg, RunResult *out)
{
    char err[512];
    out->ran = 1;
    if (n < 1 || !fn) {
        fprintf(stderr, "mpirio: need at least one DSP and a function\n");
        return 1;
    }
    Kernel *k = calloc(1, sizeof *k);
    if (!k)
        return 1;
    char perr[sizeof out->stats.report / 2];
    if (plat_load(&k->plat, platform, n, perr, sizeof perr) != 0) {
        setup_error(set, perr, out);
        free(k);
        return 1;
    }
    k->pdsps = k->plat.nboards * k->plat.dsps_per_board;
    if (n > k->pdsps) {
        snprintf(err, sizeof err, "platform \"%s\" has %d DSPs, %d requested",
                 k->plat.name, k->pdsps, n);
        setup_error(set, err, out);
        pd_free(&k->plat);
        free(k);
        return 1;
    }
    k->set = *set;
    k->ndsps = n;
    K = k;
    int rc = net_init(err, sizeof err);
    if (rc == 0 && set->trace)
        rc = trace_open(set->trace, (int)k->plat.dsp_clock_mhz, err, sizeof err);
    if (rc != 0) {
        setup_error(set, err, out);
        net_free();
        pd_free(&k->plat);
        free(k);
        K = NULL;
        return 1;
    }
    if (trace_active) {
        trace_tracks();
        catch_crashes();
    }
    rc = k_run(n, fn, arg);
    uncatch_crashes();
    keep_stats(n, out);
    if (k->set.summary && rc != 1)
        summary(stderr);
    if (trace_close() != 0 && rc == 0)
        rc = 1;
    p2p_free_all();
    coll_free_all();
    net_free();
    k_end();
    pd_free(&k->plat);
    free(k);
    K = NULL;
    return rc;
}

int
tr_run(int n, const char *platform, int flags, void (*fn)(int, void *), void *arg,
       RunResult *out)
{
    static pthread_mutex_t one_run = PTHREAD_MUTEX_INITIALIZER;
    Settings s = {.quiet = (flags & MPIRIO_RUN_QUIET) != 0};
    char err[512];
    if (settings_from_env(&s, err, sizeof err) != 0) {
        out->ran = 1;
        setup_error(&s, err, out);
        return 1;
    }
    if (flags & MPIRIO_RUN_NO_CONTENTION)
        s.no_contention = 1;
    if (flags & MPIRIO_RUN_SUMMARY)
        s.summary = 1;
    if (flags & MPIRIO_RUN_COLL_MPICH)
        s.coll = MPIRIO_COLL_MPICH;
    if (flags & MPIRIO_RUN_STRICT)
        s.strict = 1;
    if (pthread_mutex_trylock(&one_run) != 0) {
        fprintf(stderr, "mpirio: a run is already in progress\n");
        return 1;
    }
    int rc = run_locked(n, platform, &s, fn, arg, out);
    pthread_mutex_unlock(&one_run);
    return rc;
}

/* ---- the job and the calling DSP ---- */

int
tr_dsp(void)
{
    return K && k_self();
}

int
tr_active(void)
{
    return K && k_self() && !k_self()->home->finalized;
}

int
tr_strict(void)
{
    return K && K->set.strict;
}

void **
tr_api_slot(void)
{
    return &k_self()->home->api;
}

const char *
tr_last_call(void)
{
    return k_self()->call;
}

void
tr_call(const char *name)
{
    k_self()->call = name;
}

int
tr_rank(void)
{
    return k_self()->rank;
}

int
tr_size(void)
{
    return K->ndsps;
}

int
tr_dsps_per_board(void)
{
    return K->plat.dsps_per_board;
}

Cycles
tr_now(void)
{
    Dsp *d = k_self();
    return d->home->finalized ? d->home->finish : d->clock;
}

long long
tr_clock_hz(void)
{
    return K ? (long long)K->plat.dsp_clock_mhz * 1000000 : 500000000LL;
}

void
tr_trace_iteration(long long it)
{
    k_self()->home->iteration = it;
}

void
tr_compute(Cycles c, const char *name)
{
    k_self()->polling = 0;
    k_sleep(k_self(), c, name);
}

void *
tr_tmp_alloc(size_t n)
{
    return k_alloc(n);
}

void
tr_tmp_free(void *p)
{
    k_dealloc(p);
}

void
tr_set_priority(int prio)
{
    k_self()->home->prio = prio;
}

int
tr_coll_default(void)
{
    /* the abstract model has no switches: its collectives are MPICH's; so are those
     * of an agent (a nonblocking collective in progress: the switches match a
     * collective by the order of the members' calls, which it cannot keep) */
    Dsp *d = k_self();
    return K->plat.model == PD_ABSTRACT || d != d->home ? MPIRIO_COLL_MPICH : d->coll;
}

void
tr_set_coll(int family)
{
    k_self()->home->coll = family;
}

void
tr_finalize(void)
{
    Dsp *d = k_self()->home;
    d->finish = d->clock;
    d->finalized = 1;
}

void
tr_traffic(MPIRIO_Traffic *t)
{
    k_sync(k_self()); /* the totals at the caller's time */
    *t = K->tr;
}

int
tr_link(int link, MPIRIO_Link *out)
{
    if (link < 0 || link >= K->nlinkall)
        return MPIRIO_ERR_ARG;
    k_sync(k_self());
    Link *l = &K->links[link];
    int P = K->pdsps;
    out->from_kind = l->from >= P;
    out->from = l->from >= P ? l->from - P : l->from;
    out->to_kind = l->to >= P;
    out->to = l->to >= P ? l->to - P : l->to;
    out->packets = l->packets;
    out->bytes = l->bytes;
    out->retries = l->retries;
    out->busy_cycles = l->busy;
    return MPIRIO_SUCCESS;
}
