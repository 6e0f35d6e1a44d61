/* tr_mpi.c: the MPI transport: the tr_ functions of mpirio_int.h over a real MPI
 * library (Open MPI or MPICH; the build links one), for the program that runs under
 * mpirun -np P (docs/cluster.md).
 *
 * Every MPI process is one DSP. Its rank is its place in the job ordered by node
 * (the processes of a node are consecutive ranks), so that MPIRIO_COMM_LOCAL, which
 * api.c forms from blocks of tr_dsps_per_board() ranks, is the processes of a node;
 * MPIRIO_BOARD_SIZE=K (or "platform": the platform's DSPs per board) gives blocks of K
 * ranks instead. Four communicators keep the four kinds of context of api.c apart:
 * the job and the board, each for the user's messages and for the MPICH collectives'.
 * The collectives of the default family map to MPI's own (MPI_Bcast, ...);
 * MPIRIO_COLL_MPICH runs api.c's binomial trees over point-to-point, as on the
 * simulated platform. Time is wall-clock (MPI_Wtime) from a barrier at the start, in
 * cycles of the platform's DSP clock. MPIRIO_Compute(c) does nothing
 * (MPIRIO_COMPUTE=none, the default) or spins until c cycles have passed since the
 * DSP's previous MPIRIO call returned (MPIRIO_COMPUTE=spin: the host time of the code
 * in between, a kernel's, counts towards the c cycles). MPIRIO_Isend copies the
 * payload at the call, as the simulation does, so the buffer is free at once; under
 * MPIRIO_RUN_SEND_IN_PLACE (the program waits for a send before it writes the buffer
 * again, as generated programs do; MPIRIO_SEND_IN_PLACE=1 for a program with its own
 * main) it sends from the caller's buffer, as MPI does. */
#define _GNU_SOURCE /* on_exit: the exit status of a DSP that leaves without Finalize */
#include "mpirio_int.h"
#include "platform_load.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct MPIRIO_Req {
    MPI_Request r;
    int recv;
    void *copy; /* an Isend's copy of the payload */
};

enum { C_WORLD, C_WORLD_COLL, C_LOCAL, C_LOCAL_COLL, NCOMMS };
#define CTX_COLL 0x10000 /* api.c's context offset of its collectives */

static struct {
    int inited;    /* MPI_Init done by us (or found done) and the job set up */
    int mpi_final; /* MPI_Finalize done by us */
    int finalized; /* tr_finalize: the DSP is done */
    int in_run;    /* inside tr_run */
    int ran;       /* a tr_run happened (one per process) */
    int own_main;  /* set up by MPIRIO_Init, not by MPIRIO_Run: the program's own main */
    int rank, size, dpb;
    int coll;     /* default collective family */
    int spin;     /* MPIRIO_COMPUTE=spin */
    int in_place; /* MPIRIO_RUN_SEND_IN_PLACE: Isend sends from the caller's buffer */
    long long hz;
    double t0;   /* MPI_Wtime at the start barrier */
    double mark; /* MPI_Wtime when the previous MPIRIO call returned */
    Cycles finish;
    MPIRIO_Traffic tr;
    MPI_Comm comm[NCOMMS];
    char platform[64];
} M;

static void
die(const char *msg)
{
    fprintf(stderr, "mpirio: %s\n", msg);
    fflush(stderr);
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* A DSP that leaves (exit, return from main) without MPIRIO_Finalize: a zero status
 * finalises MPI as MPIRIO_Finalize would; any other ends the whole job with it (the
 * others may be waiting for this DSP: MPI_Finalize would never return). */
static void
at_exit(int status, void *arg)
{
    (void)arg;
    if (!M.inited || M.mpi_final)
        return;
    int down = 0;
    MPI_Finalized(&down);
    if (down)
        return;
    fflush(stdout);
    if (status != 0 || (M.in_run && !M.finalized))
        MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
    M.mpi_final = 1;
    MPI_Finalize();
}

/* A setting of the environment that the transport refuses: the first is kept, and
 * settings_agree ends the job once every rank has read its settings. Not die's
 * MPI_Abort: the launcher (MPICH's hydra) may kill the other ranks and end before it
 * passes on the message, and the job would fail saying nothing. */
static char setting_err[256];

static void
bad_setting(const char *var, const char *v, const char *want)
{
    if (!setting_err[0])
        snprintf(setting_err, sizeof setting_err, "%s \"%.64s\": expected %s", var, v,
                 want);
}

/* the lowest rank that refused a setting reports it; then every rank finalises MPI
 * and exits with status 1 */
static void
settings_agree(int wrank, int wsize)
{
    int first = setting_err[0] ? wrank : wsize;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == wsize)
        return;
    if (wrank == first) {
        fprintf(stderr, "mpirio: %s\n", setting_err);
        fflush(stderr);
    }
    M.mpi_final = 1;
    MPI_Finalize();
    exit(1);
}

static int
cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int
board_size_setting(const PlatDesc *p, int size)
{
    const char *v = getenv("MPIRIO_BOARD_SIZE");
    if (!v || !*v)
        return 0;
    if (strcmp(v, "platform") == 0)
        return p->dsps_per_board > 0 ? p->dsps_per_board : size;
    char *end;
    long k = strtol(v, &end, 10);
    if (end == v || *end || k < 1 || k > 1 << 20) {
        bad_setting("MPIRIO_BOARD_SIZE", v, "a number of ranks or \"platform\"");
        return 0;
    }
    return (int)k;
}

/* MPI up, ranks ordered by node, the communicators, the settings, the clock */
static void
setup(const char *platform)
{
    int up = 0, down = 0;
    MPI_Finalized(&down);
    if (down)
        die("MPI was finalised already");
    MPI_Initialized(&up);
    if (!up && MPI_Init(NULL, NULL) != MPI_SUCCESS)
        die("MPI_Init failed");
    on_exit(at_exit, NULL);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    const char *spec = platform;
    if (!spec || !*spec)
        spec = getenv("MPIRIO_PLATFORM");
    PlatDesc p;
    memset(&p, 0, sizeof p);
    char err[512];
    if (plat_load(&p, spec, wsize, err, sizeof err) != 0) {
        char msg[600];
        snprintf(msg, sizeof msg, "platform: %s", err);
        die(msg);
    }
    M.hz = (long long)p.dsp_clock_mhz * 1000000;
    snprintf(M.platform, sizeof M.platform, "%s", p.name);
    /* the node of each process: the smallest world rank sharing its memory */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, wrank, MPI_INFO_NULL,
                        &node);
    int leader = wrank, nsize;
    MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_size(node, &nsize);
    MPI_Comm_free(&node);
    int *all = malloc(sizeof(int) * 3 * (size_t)wsize);
    if (!all)
        die("out of memory");
    /* order: larger nodes first (a smaller node is the partial board at the end),
     * then by node, then by world rank */
    int mine[3] = {-nsize, leader, wrank};
    MPI_Allgather(mine, 3, MPI_INT, all, 3, MPI_INT, MPI_COMM_WORLD);
    qsort(all, (size_t)wsize, sizeof(int) * 3, cmp_pair);
    int rank = 0, maxn = -all[0], uniform = 1;
    for (int i = 0; i < wsize; i++) {
        if (all[3 * i + 2] == wrank)
            rank = i;
        if (-all[3 * i] != maxn && i + (-all[3 * i]) != wsize)
            uniform = 0; /* a second size of node that is not the last node */
    }
    free(all);
    int dpb = board_size_setting(&p, wsize);
    if (!dpb) {
        dpb = maxn;
        if (!uniform && rank == 0)
            fprintf(stderr,
                    "mpirio: the nodes run different numbers of ranks; "
                    "MPIRIO_COMM_LOCAL is blocks of %d ranks\n",
                    dpb);
    }
    pd_free(&p);
    M.rank = rank;
    M.size = wsize;
    M.dpb = dpb;
    MPI_Comm w;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &w);
    MPI_Comm_dup(w, &M.comm[C_WORLD_COLL]);
    M.comm[C_WORLD] = w;
    MPI_Comm_split(w, rank / dpb, rank, &M.comm[C_LOCAL]);
    MPI_Comm_dup(M.comm[C_LOCAL], &M.comm[C_LOCAL_COLL]);
    for (int i = 0; i < NCOMMS; i++)
        MPI_Comm_set_errhandler(M.comm[i], MPI_ERRORS_RETURN);
    const char *v = getenv("MPIRIO_COLL");
    M.coll = MPIRIO_COLL_SWITCH;
    if (v && *v) {
        if (strcmp(v, "mpich") == 0)
            M.coll = MPIRIO_COLL_MPICH;
        else if (strcmp(v, "switch") != 0)
            bad_setting("MPIRIO_COLL", v, "switch (MPI's own collectives) or mpich");
    }
    v = getenv("MPIRIO_SEND_IN_PLACE"); /* a program with its own main: "1" */
    if (v && *v) {
        if (strcmp(v, "1") == 0)
            M.in_place = 1;
        else if (strcmp(v, "0") != 0)
            bad_setting(
                "MPIRIO_SEND_IN_PLACE", v,
                "1 (Isend sends from the caller's buffer) or 0 (it sends a copy)");
    }
    v = getenv("MPIRIO_COMPUTE");
    if (v && *v) {
        if (strcmp(v, "spin") == 0)
            M.spin = 1;
        else if (strcmp(v, "none") != 0)
            bad_setting("MPIRIO_COMPUTE", v, "none or spin");
    }
    settings_agree(wrank, wsize);
    M.inited = 1;
    MPI_Barrier(w);
    M.t0 = MPI_Wtime();
    M.mark = M.t0;
}

/* the end of an MPIRIO call: where MPIRIO_COMPUTE=spin counts a task's host time from */
static void
done(void)
{
    if (M.spin)
        M.mark = MPI_Wtime();
}

/* ---- runs ---- */

int
tr_run(int n, const char *platform, int flags, void (*fn)(int, void *), void *arg,
       RunResult *out)
{
    MPIRIO_Stats *st = &out->stats;
    out->ran = 1;
    if (M.ran || M.in_run) {
        snprintf(st->report, sizeof st->report, "one run per process under MPI");
        fprintf(stderr, "mpirio: %s\n", st->report);
        return 1;
    }
    if (!M.inited)
        setup(platform);
    if (n != M.size) {
        snprintf(st->report, sizeof st->report,
                 "the program runs %d DSPs; start it with mpirun -np %d (not %d)", n, n,
                 M.size);
        if (M.rank == 0)
            fprintf(stderr, "mpirio: %s\n", st->report);
        M.mpi_final = 1;
        MPI_Finalize();
        return 1;
    }
    if (flags & MPIRIO_RUN_COLL_MPICH)
        M.coll = MPIRIO_COLL_MPICH;
    if (flags & MPIRIO_RUN_SEND_IN_PLACE)
        M.in_place = 1;
    M.ran = M.in_run = 1;
    M.finalized = 0;
    MPI_Barrier(M.comm[C_WORLD]);
    M.t0 = M.mark = MPI_Wtime();
    fn(M.rank, arg);
    if (!M.finalized)
        tr_finalize();
    M.in_run = 0;
    /* the statistics of the job: the length is the last DSP's finish */
    long long mine[6] = {M.finish,   M.tr.messages,     M.tr.packets,
                         M.tr.bytes, M.tr.link_packets, M.tr.retries};
    long long sum[6], len = 0;
    MPI_Allreduce(mine, sum, 6, MPI_LONG_LONG, MPI_SUM, M.comm[C_WORLD]);
    MPI_Allreduce(&M.finish, &len, 1, MPI_LONG_LONG, MPI_MAX, M.comm[C_WORLD]);
    out->finish = malloc(sizeof *out->finish * (size_t)M.size);
    if (!out->finish)
        die("out of memory");
    out->nfinish = M.size;
    MPI_Allgather(&M.finish, 1, MPI_LONG_LONG, out->finish, 1, MPI_LONG_LONG,
                  M.comm[C_WORLD]);
    st->cycles = len;
    st->ndsps = M.size;
    st->traffic.messages = sum[1];
    st->traffic.packets = sum[2];
    st->traffic.bytes = sum[3];
    if (flags & MPIRIO_RUN_SUMMARY && M.rank == 0)
        fprintf(stderr,
                "mpirio: %d DSPs under MPI (platform clock %s, %lld Hz), %lld cycles "
                "(%.6f s wall-clock), %lld messages, %lld bytes\n",
                M.size, M.platform, M.hz, len, (double)len / (double)M.hz, sum[1],
                sum[3]);
    M.mpi_final = 1;
    MPI_Finalize();
    return 0;
}

/* ---- the job and the calling DSP ---- */

int
tr_dsp(void)
{
    return M.inited;
}

int
tr_active(void)
{
    if (!M.inited && !M.mpi_final) {
        setup(NULL); /* a program with its own main: MPIRIO_Init starts MPI */
        M.own_main = 1;
    }
    return M.inited && !M.finalized;
}

/* a program with its own main is strict, as under mpirio-run: a call outside
 * MPIRIO_Init..MPIRIO_Finalize ends the job with a report, as MPI libraries do */
int
tr_strict(void)
{
    return M.own_main;
}

static void *api_slot;

void **
tr_api_slot(void)
{
    return &api_slot; /* one DSP per process */
}

static const char *last_call;

void
tr_call(const char *name)
{
    last_call = name;
}

const char *
tr_last_call(void)
{
    return last_call;
}

int
tr_rank(void)
{
    return M.rank;
}

int
tr_size(void)
{
    return M.size;
}

int
tr_dsps_per_board(void)
{
    return M.dpb;
}

Cycles
tr_now(void)
{
    if (M.finalized)
        return M.finish;
    return (Cycles)((MPI_Wtime() - M.t0) * (double)M.hz);
}

long long
tr_clock_hz(void)
{
    return M.hz ? M.hz : 500000000LL;
}

void
tr_finalize(void)
{
    M.finish = tr_now();
    M.finalized = 1;
    if (!M.in_run && !M.mpi_final) {
        M.mpi_final = 1;
        MPI_Finalize();
    }
}

void
tr_set_priority(int prio)
{
    (void)prio; /* MPI has no message priorities */
}

int
tr_coll_default(void)
{
    return M.coll;
}

void
tr_set_coll(int family)
{
    M.coll = family;
}

void
tr_traffic(MPIRIO_Traffic *t)
{
    *t = M.tr; /* what this DSP sent */
}

int
tr_link(int link, MPIRIO_Link *l)
{
    (void)link;
    (void)l;
    return MPIRIO_ERR_ARG; /* no links under MPI */
}

void *
tr_tmp_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

void
tr_tmp_free(void *p)
{
    free(p);
}

/* no trace under a real MPI */
void
tr_trace_iteration(long long it)
{
    (void)it;
}

void
tr_compute(Cycles c, const char *name)
{
    (void)name;
    if (M.spin && c > 0) {
        double until = M.mark + (double)c / (double)M.hz;
        while (MPI_Wtime() < until)
            ;
    }
    done();
}

/* ---- point-to-point ---- */

/* the communicator of one of api.c's contexts, and the rank of a global rank in it */
static MPI_Comm
ctx_comm(int ctx, int *base)
{
    int coll = ctx >= CTX_COLL, c = coll ? ctx - CTX_COLL : ctx;
    *base = c == 0 ? 0 : (c - 1) * M.dpb;
    return M
        .comm[c == 0 ? (coll ? C_WORLD_COLL : C_WORLD) : (coll ? C_LOCAL_COLL : C_LOCAL)];
}

static int
mpi_err(int rc)
{
    if (rc == MPI_SUCCESS)
        return MPIRIO_SUCCESS;
    int cls;
    MPI_Error_class(rc, &cls);
    return cls == MPI_ERR_TRUNCATE ? MPIRIO_ERR_TRUNCATE : MPIRIO_ERR_OTHER;
}

static Req *
new_req(int recv)
{
    Req *r = malloc(sizeof *r);
    if (!r)
        die("out of memory");
    r->r = MPI_REQUEST_NULL;
    r->recv = recv;
    r->copy = NULL;
    return r;
}

int
tr_isend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank, Req **out)
{
    (void)srank;
    if (bytes > (size_t)0x7fffffff) {
        *out = NULL;
        return MPIRIO_ERR_COUNT;
    }
    int base;
    MPI_Comm c = ctx_comm(ctx, &base);
    Req *r = new_req(0);
    if (bytes && !M.in_place) {
        r->copy = malloc(bytes);
        if (!r->copy)
            die("out of memory");
        memcpy(r->copy, buf, bytes);
    }
    int rc = MPI_Isend(r->copy ? r->copy : buf, (int)bytes, MPI_BYTE, dst - base, tag, c,
                       &r->r);
    M.tr.messages++;
    M.tr.packets++;
    M.tr.bytes += (long long)bytes;
    *out = r;
    done();
    return mpi_err(rc);
}

int
tr_irecv(void *buf, size_t cap, int src, int ctx, int tag, int blocking, Req **out)
{
    (void)blocking;
    int base;
    MPI_Comm c = ctx_comm(ctx, &base);
    Req *r = new_req(1);
    int n = cap > (size_t)0x7fffffff ? 0x7fffffff : (int)cap;
    int rc = MPI_Irecv(buf, n, MPI_BYTE, src < 0 ? MPI_ANY_SOURCE : src - base,
                       tag < 0 ? MPI_ANY_TAG : tag, c, &r->r);
    *out = r;
    done();
    return mpi_err(rc);
}

static int
complete(Req *r, MPI_Status *ms, int rc, MPIRIO_Status *st)
{
    int e = mpi_err(rc);
    if (rc == MPI_ERR_IN_STATUS || (rc != MPI_SUCCESS && ms->MPI_ERROR != MPI_SUCCESS))
        e = mpi_err(ms->MPI_ERROR);
    if (r->recv && st) {
        int n = 0;
        MPI_Get_count(ms, MPI_BYTE, &n);
        st->source = ms->MPI_SOURCE;
        st->tag = ms->MPI_TAG;
        st->error = e;
        st->count = n < 0 ? 0 : n;
    }
    free(r->copy);
    free(r);
    done();
    return e;
}

int
tr_wait(Req *r, MPIRIO_Status *st)
{
    MPI_Status ms;
    memset(&ms, 0, sizeof ms);
    int rc = MPI_Wait(&r->r, &ms);
    return complete(r, &ms, rc, st);
}

int
tr_test(Req *r, int *flag, MPIRIO_Status *st)
{
    MPI_Status ms;
    memset(&ms, 0, sizeof ms);
    int rc = MPI_Test(&r->r, flag, &ms);
    if (!*flag) {
        done();
        return mpi_err(rc);
    }
    return complete(r, &ms, rc, st);
}

/* ---- collectives: MPI's own ---- */

static MPI_Datatype
mpi_type(MPIRIO_Datatype t)
{
    switch (t) {
    case MPIRIO_CHAR:
        return MPI_SIGNED_CHAR;
    case MPIRIO_INT:
        return MPI_INT;
    case MPIRIO_FLOAT:
        return MPI_FLOAT;
    case MPIRIO_DOUBLE:
        return MPI_DOUBLE;
    case MPIRIO_LONG:
        return MPI_LONG;
    case MPIRIO_UNSIGNED:
        return MPI_UNSIGNED;
    default:
        return MPI_BYTE;
    }
}

static MPI_Op
mpi_op(MPIRIO_Op op)
{
    switch (op) {
    case MPIRIO_PROD:
        return MPI_PROD;
    case MPIRIO_MIN:
        return MPI_MIN;
    case MPIRIO_MAX:
        return MPI_MAX;
    default:
        return MPI_SUM;
    }
}

int
tr_coll_switch(int kind, int ctx, int base, int size, int root, const void *sbuf,
               void *rbuf, size_t bytes, MPIRIO_Datatype type, MPIRIO_Op op)
{
    (void)base;
    (void)size;
    int b, me, rc = MPI_SUCCESS;
    MPI_Comm c = ctx_comm(ctx, &b);
    MPI_Comm_rank(c, &me);
    if (bytes > (size_t)0x7fffffff)
        return MPIRIO_ERR_COUNT;
    int n = (int)bytes;
    switch (kind) {
    case CO_BCAST:
        rc = MPI_Bcast(rbuf, n, MPI_BYTE, root, c);
        if (me == root)
            M.tr.messages++, M.tr.packets++, M.tr.bytes += n;
        break;
    case CO_GATHER:
        rc = MPI_Gather(me == root && sbuf == rbuf ? MPI_IN_PLACE : sbuf, n, MPI_BYTE,
                        rbuf, n, MPI_BYTE, root, c);
        if (me != root)
            M.tr.messages++, M.tr.packets++, M.tr.bytes += n;
        break;
    case CO_SCATTER:
        rc = MPI_Scatter(sbuf, n, MPI_BYTE,
                         me == root && sbuf == rbuf ? MPI_IN_PLACE : rbuf, n, MPI_BYTE,
                         root, c);
        if (me == root)
            M.tr.messages += size - 1, M.tr.packets += size - 1,
                M.tr.bytes += (long long)n * (size - 1);
        break;
    case CO_REDUCE: {
        size_t sz = dt_size(type);
        int count = sz ? (int)(bytes / sz) : 0;
        rc = MPI_Reduce(me == root && sbuf == rbuf ? MPI_IN_PLACE : sbuf, rbuf, count,
                        mpi_type(type), mpi_op(op), root, c);
        if (me != root)
            M.tr.messages++, M.tr.packets++, M.tr.bytes += n;
        break;
    }
    case CO_BARRIER:
        rc = MPI_Barrier(c);
        break;
    case CO_ALLGATHER: {
        /* MPI's in-place block is rbuf's own, not its start: a copy when they alias */
        void *tmp = NULL;
        if (sbuf == rbuf && n) {
            tmp = tr_tmp_alloc(bytes);
            memcpy(tmp, sbuf, bytes);
        }
        rc = MPI_Allgather(tmp ? tmp : sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, c);
        tr_tmp_free(tmp);
    }
        M.tr.messages += size - 1, M.tr.packets += size - 1,
            M.tr.bytes += (long long)n * (size - 1);
        break;
    case CO_ALLREDUCE: {
        size_t sz = dt_size(type);
        int count = sz ? (int)(bytes / sz) : 0;
        rc = MPI_Allreduce(sbuf == rbuf ? MPI_IN_PLACE : sbuf, rbuf, count,
                           mpi_type(type), mpi_op(op), c);
        M.tr.messages += size - 1, M.tr.packets += size - 1,
            M.tr.bytes += (long long)n * (size - 1);
        break;
    }
    default:
        return MPIRIO_ERR_ARG;
    }
    done();
    return mpi_err(rc);
}
