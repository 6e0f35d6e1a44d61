/*
 * tgc_support.c - the operations of docs/design.md section 3 on MPIRIO, the built-in
 * kernel, checksums and the report (written by tgc; the same in every project).
 *
 * Costs (they must add up to the compiler's evaluator, passes/evaluate/):
 *   COMPUTE t   wait for the transfers still reading t's outputs (zero copy), the kernel,
 *               MPIRIO_Compute(cycles); a firing of a multi-rate actor copies its input
 *               edges into its ports before the kernel and its ports into its output
 *               edges after it, host work that costs no simulated cycles (as the kernel's
 *               own does not: its cost is the task's cycles)
 *   SEND m      aggregated: wait for the previous transfer of the pack buffer, pack,
 *               MPIRIO_Compute(copy); then MPIRIO_Isend (send_overhead); skipped in the
 *               last `delay` iterations
 *   RECV m      transfer x is received in iteration x (x + 1 when delayed: the consumer
 *               ring holds the values of the last `delay` iterations), if it was sent;
 *               blocking: MPIRIO_Recv (posted when reached, recv_overhead); pipelined:
 *               MPIRIO_Wait (wait_overhead), then the post of the next transfer
 *               (post_overhead) unless x was the last; aggregated: unpack,
 *               MPIRIO_Compute(copy)
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tgc_graph.h"

typedef struct TgcSum {
    uint64_t last, all;
} TgcSum;

static TgcSum sums[TGC_NEDGES + 1];
static long long compute_cycles[TGC_NDSPS];
static long long end_time[TGC_NDSPS];
static char *output_path[TGC_NTASKS + 1];
/* each task's name as a trace shows it: its escaped id without the quotes of the label */
static char *span_name[TGC_NTASKS + 1];
/* TGC_KERNEL_TIMES=FILE, the sequential program only: each task's calls, the host time
 * its kernel took and its cost, written at the end for tgc calibrate */
static const char *kernel_times;
static double kernel_s[TGC_NTASKS + 1];
static long long kernel_calls[TGC_NTASKS + 1], kernel_cycles[TGC_NTASKS + 1];
static const unsigned char zeros[TGC_MAX_BYTES];
/* The measured period (docs/throughput.md): each DSP's end of every iteration of a window
 * of the general iterations, the last TGC_PERIOD_WINDOW of those below TGC_ITERATIONS -
 * max(TGC_MAX_DELAY, 1) from iteration 2 on (the first and the last ones run other
 * rules: the skipped receives, the prolog, the skipped sends of the last `delay`). */
#ifndef TGC_MPI /* (under MPI each rank holds its own; no period is measured) */
enum { TGC_PERIOD_WINDOW = 512 };
static long long iter_end[TGC_NDSPS][TGC_PERIOD_WINDOW];
static char iter_recorded[TGC_NDSPS];
#endif

#define FNV_OFFSET UINT64_C(14695981039346656037)
#define FNV_PRIME UINT64_C(1099511628211)

static uint64_t
fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    return h;
}

static uint64_t
fnv_u64(uint64_t h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return fnv(h, b, sizeof b);
}

static uint64_t
mix(uint64_t z) /* splitmix64's finaliser */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Bytes p[0..n) (n <= 8) as a little-endian word, on any host. */
static uint64_t
word_le(const unsigned char *p, size_t n)
{
    uint64_t w = 0;
    if (n == 8) {
        memcpy(&w, p, 8); /* one load */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) &&                          \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        uint64_t le = 0;
        for (int i = 0; i < 8; i++)
            le |= ((w >> (8 * i)) & 0xff) << (8 * (7 - i));
        w = le;
#endif
        return w;
    }
    for (size_t i = 0; i < n; i++)
        w |= (uint64_t)p[i] << (8 * i);
    return w;
}

/* The checksum of the n bytes a consumer read: four FNV-style lanes over the
 * little-endian 64-bit words (word i to lane i % 4: xor, multiply by the FNV prime,
 * rotate, so a difference in a high bit reaches the low ones of the next step), the
 * last word zero-padded, folded with the length by splitmix64's finaliser.  A word per
 * step and four steps in flight: about a tenth of a nanosecond per byte where byte-wise
 * FNV-1a takes one, which under MPI is time on the program's critical path. */
static uint64_t
sum_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h[4] = {FNV_OFFSET, FNV_OFFSET + 1, FNV_OFFSET + 2, FNV_OFFSET + 3};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int l = 0; l < 4; l++) {
            uint64_t x = (h[l] ^ word_le(p + i + 8 * (size_t)l, 8)) * FNV_PRIME;
            h[l] = x << 31 | x >> 33;
        }
    for (int l = 0; i < n; i += 8, l++) {
        uint64_t x = (h[l] ^ word_le(p + i, n - i < 8 ? n - i : 8)) * FNV_PRIME;
        h[l] = x << 31 | x >> 33;
    }
    uint64_t r = mix(n);
    for (int l = 0; l < 4; l++)
        r = mix(r ^ h[l]);
    return r;
}

/* A failed MPIRIO call is fatal: the report would be meaningless. */
static void
check(int rc, const char *what, int msg)
{
    if (rc == MPIRIO_SUCCESS)
        return;
    if (msg >= 0)
        fprintf(stderr, "tgc: %s of message m%d failed: %s\n", what, msg,
                MPIRIO_Error_string(rc));
    else
        fprintf(stderr, "tgc: %s failed: %s\n", what, MPIRIO_Error_string(rc));
    exit(1); /* a failed run (docs/cli.md, "Exit status") */
}

static unsigned char *
slot(const TgcBuf *b, int64_t x)
{
    return b->base + (size_t)(x % b->nslots) * b->bytes;
}

static const void *
read_ptr(const TgcBuf *b, int64_t it)
{
    return it >= b->delay ? slot(b, it - b->delay) : (const void *)zeros;
}

void
tgc_wait_send(TgcMsg *m)
{
    if (m->req != MPIRIO_REQUEST_NULL) {
        check(MPIRIO_Wait(&m->req, MPIRIO_STATUS_IGNORE), "wait", m->id);
        m->req = MPIRIO_REQUEST_NULL;
    }
}

static void kernel_step(const TgcTask *t, const TgcPorts *p, int64_t it);

void
tgc_compute(const TgcTask *t, int64_t it)
{
    tgc_compute_ports(t, NULL, it);
}

void
tgc_compute_ports(const TgcTask *t, const TgcPorts *p, int64_t it)
{
    for (int z = 0; z < t->nzc; z++)
        tgc_wait_send(t->zc[z]); /* the DMA may still read the output of it - 1 */
    kernel_step(t, p, it);
    const char *name = span_name[t->task] ? span_name[t->task] : tgc_tasks[t->task].label;
    MPIRIO_Trace_iteration(it);
    check(MPIRIO_Compute_named(t->cycles, name), "compute", -1);
    compute_cycles[t->dsp] += t->cycles;
}

void
tgc_kernel_step(const TgcTask *t, int64_t it)
{
    kernel_step(t, NULL, it);
}

/* the kernel of a firing (p NULL: of a single-rate task) and its inputs' checksums */
static void
kernel_step(const TgcTask *t, const TgcPorts *p, int64_t it)
{
    for (int j = 0; j < t->nin; j++) {
        t->in_ptr[j] = read_ptr(t->in[j], it);
        t->in_bytes[j] = t->in[j]->bytes;
    }
    for (int j = 0; j < t->nout; j++) {
        t->out_ptr[j] = slot(t->out[j], it);
        t->out_bytes[j] = t->out[j]->bytes;
    }
    tgc_io io = {t->nin,
                 t->nout,
                 t->in_ptr,
                 t->in_bytes,
                 t->out_ptr,
                 t->out_bytes,
                 it,
                 output_path[t->task],
                 p ? p->firing : 0,
                 p ? p->firings : 1};
    if (p && p->nip) { /* the tokens of each input port, gathered in FIFO order */
        for (int j = 0; j < t->nin; j++)
            memcpy(p->ip[p->in_port[j]] + p->in_off[j], t->in_ptr[j], t->in_bytes[j]);
        io.nin = p->nip;
        io.in = (const void *const *)p->ip;
        io.in_bytes = p->ip_bytes;
    }
    if (p && p->nop) {
        io.nout = p->nop;
        io.out = (void *const *)p->op;
        io.out_bytes = p->op_bytes;
    }
    struct timespec t0, t1;
    if (kernel_times)
        timespec_get(&t0, TIME_UTC);
    tgc_tasks[t->task].kernel(&io);
    if (p && p->nop) /* each output port's tokens to its edges */
        for (int j = 0; j < t->nout; j++)
            memcpy(t->out_ptr[j], p->op[p->out_port[j]] + p->out_off[j], t->out_bytes[j]);
    if (kernel_times) {
        timespec_get(&t1, TIME_UTC);
        kernel_s[t->task] +=
            (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        kernel_calls[t->task]++;
        kernel_cycles[t->task] = t->cycles;
    }
    for (int j = 0; j < t->nin; j++) {
        TgcSum *s = &sums[t->in_edges[j]];
        uint64_t h = sum_bytes(t->in_ptr[j], t->in_bytes[j]);
        if (it == TGC_ITERATIONS - 1)
            s->last = h;
        s->all = fnv_u64(s->all ? s->all : FNV_OFFSET, h);
    }
}

void
tgc_send(TgcMsg *m, int64_t it)
{
    if (it >= TGC_ITERATIONS - m->delay)
        return;                 /* received after the last iteration: never sent */
    MPIRIO_Trace_iteration(it); /* the trace's spans of transfer it */
    const void *data;
    if (m->nparts == 1) {
        tgc_wait_send(m); /* done already: the producer waited */
        data = slot(m->parts[0], it);
    } else {
        tgc_wait_send(
            m); /* the pack buffer holds the previous transfer until it is out */
        size_t off = 0;
        for (int p = 0; p < m->nparts; p++) {
            memcpy(m->pack + off, slot(m->parts[p], it), m->parts[p]->bytes);
            off += m->parts[p]->bytes;
        }
        check(MPIRIO_Compute_named(m->copy_cycles, "pack"), "pack", m->id);
        data = m->pack;
    }
    check(MPIRIO_Isend(data, m->bytes, MPIRIO_BYTE, m->peer, m->id, MPIRIO_COMM_WORLD,
                       &m->req),
          "send", m->id);
}

/* Posts transfer x into its buffer (pipelined receives). */
static void
post(TgcMsg *m, int64_t x)
{
    void *dst = m->nparts == 1 ? (void *)slot(m->parts[0], x)
                               : (void *)(m->pack + (size_t)(x & 1) * (size_t)m->bytes);
    MPIRIO_Trace_iteration(x);
    check(MPIRIO_Irecv(dst, m->bytes, MPIRIO_BYTE, m->peer, m->id, MPIRIO_COMM_WORLD,
                       &m->req),
          "post", m->id);
}

void
tgc_post_first(TgcMsg *m)
{
    if (m->delay < TGC_ITERATIONS)
        post(m, 0);
}

void
tgc_recv(TgcMsg *m, int64_t it)
{
    int64_t lag = m->delay > 0; /* a delayed transfer is received one iteration later */
    int64_t x = it - lag;
    if (x < 0 || x >= TGC_ITERATIONS - m->delay)
        return; /* transfer x is never sent: nothing to receive */
    MPIRIO_Trace_iteration(x);
    MPIRIO_Status st;
    const unsigned char *packed = m->pack;
    if (!m->pipelined) {
        void *dst = m->nparts == 1 ? (void *)slot(m->parts[0], x) : (void *)m->pack;
        check(MPIRIO_Recv(dst, m->bytes, MPIRIO_BYTE, m->peer, m->id, MPIRIO_COMM_WORLD,
                          &st),
              "receive", m->id);
    } else {
        check(MPIRIO_Wait(&m->req, &st), "wait", m->id);
        m->req = MPIRIO_REQUEST_NULL;
        packed = m->pack ? m->pack + (size_t)(x & 1) * (size_t)m->bytes : NULL;
    }
    if (st.count != m->bytes)
        check(MPIRIO_ERR_TRUNCATE, "receive", m->id);
    if (m->nparts > 1) {
        size_t off = 0;
        for (int p = 0; p < m->nparts; p++) {
            memcpy(slot(m->parts[p], x), packed + off, m->parts[p]->bytes);
            off += m->parts[p]->bytes;
        }
        check(MPIRIO_Compute_named(m->copy_cycles, "unpack"), "unpack", m->id);
    }
    if (m->pipelined && x + 1 < TGC_ITERATIONS - m->delay)
        post(m, x + 1); /* into the next buffer, unless x was the last transfer */
}

#ifdef TGC_MPI
/* Built for the MPI transport (-DTGC_MPI): every DSP is a process of its own and holds
 * the checksums of the edges its tasks consume, its compute cycles and its end; the
 * others' entries are zero. DSP 0 collects them (a sum: one nonzero term each) and
 * alone prints the report. */
static int my_dsp = -1;

static void
collect(int dsp)
{
    enum { N = 2 * TGC_NEDGES + 2 * TGC_NDSPS + 1 };
    static long v[N], total[N];
    int k = 0;
    for (int e = 0; e < TGC_NEDGES; e++) {
        memcpy(&v[k++], &sums[e].last, sizeof(long));
        memcpy(&v[k++], &sums[e].all, sizeof(long));
    }
    for (int d = 0; d < TGC_NDSPS; d++) {
        v[k++] = compute_cycles[d];
        v[k++] = end_time[d];
    }
    check(MPIRIO_Reduce(v, total, k, MPIRIO_LONG, MPIRIO_SUM, 0, MPIRIO_COMM_WORLD),
          "collecting the checksums", -1);
    my_dsp = dsp;
    if (dsp != 0)
        return;
    k = 0;
    for (int e = 0; e < TGC_NEDGES; e++) {
        memcpy(&sums[e].last, &total[k++], sizeof(long));
        memcpy(&sums[e].all, &total[k++], sizeof(long));
    }
    for (int d = 0; d < TGC_NDSPS; d++) {
        compute_cycles[d] = total[k++];
        end_time[d] = total[k++];
    }
}
#endif

#ifndef TGC_MPI
static void
period_window(int64_t *from, int64_t *to)
{
    int64_t md = TGC_MAX_DELAY > 1 ? TGC_MAX_DELAY : 1;
    *to = TGC_ITERATIONS - md;
    *from = *to - TGC_PERIOD_WINDOW > 2 ? *to - TGC_PERIOD_WINDOW : 2;
}

#endif

void
tgc_iteration_end(int dsp, int64_t it)
{
#ifndef TGC_MPI
    int64_t from, to;
    period_window(&from, &to);
    if (it >= from && it < to) {
        iter_end[dsp][it - from] = MPIRIO_time();
        iter_recorded[dsp] = 1;
    }
#else
    (void)dsp;
    (void)it;
#endif
}

#ifndef TGC_MPI
/* The period the run shows: the smallest c such that over the window every DSP that
 * works ends each iteration k + c the same `*delta` cycles after iteration k (the window
 * holding at least three periods).  Returns c, or 0 when the window shows none. */
static int64_t
measured_period(long long *delta)
{
    int64_t from, to;
    period_window(&from, &to);
    int64_t len = to - from;
    int first = -1;
    for (int d = 0; d < TGC_NDSPS && first < 0; d++)
        if (iter_recorded[d])
            first = d;
    if (first < 0 || len < 8)
        return 0;
    for (int64_t c = 1; 3 * c <= len; c++) {
        long long dl = iter_end[first][c] - iter_end[first][0];
        int ok = 1;
        for (int d = 0; d < TGC_NDSPS && ok; d++)
            for (int64_t k = 0; iter_recorded[d] && k + c < len && ok; k++)
                ok = iter_end[d][k + c] - iter_end[d][k] == dl;
        if (ok) {
            *delta = dl;
            return c;
        }
    }
    return 0;
}

#endif

void
tgc_dsp_end(int dsp)
{
    end_time[dsp] = MPIRIO_time();
#ifdef TGC_MPI
    collect(dsp);
#endif
}

void
tgc_synthetic(const tgc_io *io, uint64_t seed)
{
    uint64_t h = fnv_u64(fnv_u64(FNV_OFFSET, seed), (uint64_t)io->iteration);
    for (int j = 0; j < io->nin; j++)
        h = fnv(fnv_u64(h, io->in_bytes[j]), io->in[j], io->in_bytes[j]);
    for (int k = 0; k < io->nout; k++) {
        unsigned char *o = io->out[k];
        uint64_t x = h + UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(k + 1);
        for (size_t i = 0; i < io->out_bytes[k]; i++) {
            if (i % 8 == 0) { /* splitmix64 */
                x += UINT64_C(0x9e3779b97f4a7c15);
                uint64_t z = x;
                z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
                z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
                h = z ^ (z >> 31);
            }
            o[i] = (unsigned char)(h >> (8 * (i % 8)));
        }
    }
}

static void
usage(FILE *f, const char *program)
{
    fprintf(
        f,
        "usage: %s [--no-contention] [--platform=FILE] [--output-dir=DIR] [--summary] "
        "[--quiet] [--pin]\n",
        program);
}

/* A usage error: one line, then the usage, exit status 2 (docs/cli.md) */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
bad_usage(const char *program, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", program);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    usage(stderr, program);
    return 2;
}

static const char *platform_name; /* --platform, for the report's messages */

/* The options, by getopt_long (GNU conventions: --opt=value or --opt value, any order,
 * "--" ends them, an unambiguous prefix of a long option is the option). */
int
tgc_parse_args(TgcArgs *a, int argc, char **argv, const char *program)
{
#ifdef TGC_PLATFORM_FILE
    a->platform = TGC_PLATFORM_FILE;
#else
    a->platform = "platform.json";
#endif
    a->output_dir = ".";
    a->flags = 0;
    if (strcmp(program, "sequential") == 0 && getenv("TGC_KERNEL_TIMES") &&
        *getenv("TGC_KERNEL_TIMES"))
        kernel_times = getenv("TGC_KERNEL_TIMES");
    static const struct option opts[] = {
        {"no-contention", no_argument, NULL, 'C'},
        {"summary", no_argument, NULL, 'S'},
        {"quiet", no_argument, NULL, 'q'},
        {"pin", no_argument, NULL, 'P'},
        {"platform", required_argument, NULL, 'p'},
        {"output-dir", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'C':
            a->flags |= MPIRIO_RUN_NO_CONTENTION;
            break;
        case 'S':
            a->flags |= MPIRIO_RUN_SUMMARY;
            break;
        case 'q':
            a->flags |= MPIRIO_RUN_QUIET;
            break;
        case 'P':
            a->flags |= MPIRIO_RUN_PIN;
            break;
        case 'p':
            a->platform = optarg;
            break;
        case 'd':
            a->output_dir = optarg;
            break;
        case 'h':
            usage(stdout, program);
            printf(
                "\nRuns the program of graph %s on the simulated platform "
                "(libmpirio) and prints\nthe checksum of every edge and the "
                "simulated cycles.\n"
                "  --no-contention     links without contention\n"
                "  --platform=FILE     the tgc-platform/1 file (default %s)\n"
                "  --output-dir=DIR    where the output files of the kernels go "
                "(default .)\n"
                "  --summary           the runtime's summary on stderr at the end\n"
                "  --quiet             no runtime messages on stderr\n"
                "  --pin               threads (libmpirio_threads): thread i on core i "
                "modulo the cores\n"
                "  -h, --help          print this help and exit\n"
                "Exit status: 0 success, 1 a failed run (bad platform file, failed "
                "call), 2 bad usage,\n3 a deadlock (its report on stderr).\n",
                TGC_GRAPH_LABEL, a->platform);
            return 0;
        case ':':
            return bad_usage(program, "option \"%s\" needs a value", argv[optind - 1]);
        default:
            return bad_usage(program, "unknown option \"%s\"", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return bad_usage(program, "unexpected operand \"%s\"", argv[optind]);
    platform_name = a->platform;
    for (int t = 0; t < TGC_NTASKS; t++) {
        const char *l = tgc_tasks[t].label;
        size_t ln = strlen(l);
        if (ln >= 2 && l[0] == '"' && l[ln - 1] == '"' &&
            (span_name[t] = malloc(ln - 1))) {
            memcpy(span_name[t], l + 1, ln - 2);
            span_name[t][ln - 2] = 0;
        }
        const char *o = tgc_tasks[t].output;
        if (!o)
            continue;
        size_t n = strlen(a->output_dir) + strlen(o) + 2;
        output_path[t] = malloc(n);
        if (!output_path[t])
            return 2;
        snprintf(output_path[t], n, "%s/%s", a->output_dir, o);
    }
    return -1;
}

int
tgc_report(int run_rc, const char *program, int ndsps, long long predicted_cycles,
           long long predicted_packets)
{
    MPIRIO_Stats st;
    MPIRIO_Run_stats(&st);
#ifdef TGC_MPI
    if (run_rc == 0 && my_dsp != 0)
        return 0;      /* DSP 0 reports for all */
    if (run_rc == 0) { /* the length: the last DSP's end (the collection excluded) */
        st.cycles = 0;
        for (int d = 0; d < ndsps; d++)
            st.cycles = end_time[d] > st.cycles ? end_time[d] : st.cycles;
    }
#endif
    printf("tgc: %s program of graph %s: %d DSP%s, %lld iterations\n", program,
           TGC_GRAPH_LABEL, ndsps, ndsps == 1 ? "" : "s", (long long)TGC_ITERATIONS);
    if (run_rc == 2) { /* exit status 3: a deadlock, in every tool (docs/cli.md) */
        fflush(stdout);
        fprintf(stderr, "%s: error: deadlock\n%s\n", program, st.report);
        return 3;
    }
    if (run_rc != 0) {
        fflush(stdout);
        if (st.report[0]) /* the runtime's message, printed by it unless --quiet */
            fprintf(stderr, "%s: error: %s\n", program, st.report);
        else
            fprintf(stderr, "%s: error: the platform \"%s\" could not be set up\n",
                    program, platform_name);
        return 1;
    }
    FILE *kt = kernel_times ? fopen(kernel_times, "w") : NULL;
    for (int t = 0; kt && t < TGC_NTASKS; t++)
        fprintf(kt, "task %d calls %lld seconds %.9f cycles %lld\n", t, kernel_calls[t],
                kernel_s[t], kernel_cycles[t]);
    if (kt && fclose(kt) != 0)
        fprintf(stderr, "tgc: cannot write %s\n", kernel_times);
    uint64_t total = FNV_OFFSET;
    for (int e = 0; e < TGC_NEDGES; e++) {
        printf("checksum e%d %s %lld bytes delay %d: last %016llx all %016llx\n", e,
               tgc_edges[e].label, tgc_edges[e].bytes, tgc_edges[e].delay,
               (unsigned long long)sums[e].last, (unsigned long long)sums[e].all);
        total = fnv_u64(fnv_u64(total, sums[e].last), sums[e].all);
    }
    printf("checksum total %016llx\n", (unsigned long long)total);
    printf("cycles %lld\n", st.cycles);
    if (predicted_cycles >= 0)
        printf("predicted %lld\n", predicted_cycles);
    printf("packets %lld\n", st.traffic.packets);
    if (predicted_packets >= 0)
        printf("predicted_packets %lld\n", predicted_packets);
    for (int d = 0; d < ndsps; d++)
        printf("dsp %d compute %lld end %lld utilisation %.4f\n", d, compute_cycles[d],
               end_time[d],
               st.cycles > 0 ? (double)compute_cycles[d] / (double)st.cycles : 0.0);
#ifndef TGC_MPI
    long long delta;
    int64_t c = measured_period(&delta);
    if (c > 0)
        printf("period %lld cycles per %lld iterations\n", delta, (long long)c);
#endif
    if (predicted_cycles >= 0)
        printf("simulated %lld cycles, predicted %lld: %s\n", st.cycles, predicted_cycles,
               st.cycles == predicted_cycles ? "equal" : "different");
    return 0;
}
