/* sim_stats.c: the summary printed at the end of a run and the trace.
 *
 * The trace is Chrome trace-event JSON (opens in Perfetto and chrome://tracing):
 * process 0 "DSPs" has one track per DSP (busy spans named by the cost: compute,
 * send, post, wait, recv, ...; blocked spans named by the call), process 1 "links"
 * one track per directed link (one span per packet transmission, category "retry"
 * when the CRC made the link retransmit). Timestamps are microseconds at the DSP
 * clock; "args" carry the cycles. */
#include "mpirio_int.h"

#include <stdlib.h>

static void
node_name(int node, char *buf, size_t n)
{
    if (node < K->pdsps)
        snprintf(buf, n, "DSP %d", node);
    else
        snprintf(buf, n, "switch %d", node - K->pdsps);
}

static void
meta(int pid, int tid, const char *what, const char *name)
{
    fprintf(K->trace,
            "%s{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":\"%"
            "s\"}}",
            K->trace_first ? "" : ",\n", pid, tid, what, name);
    K->trace_first = 0;
}

void
trace_open(void)
{
    if (!K->set.trace)
        return;
    K->trace = fopen(K->set.trace, "w");
    if (!K->trace) {
        fprintf(stderr, "mpirio: cannot write the trace \"%s\"\n", K->set.trace);
        return;
    }
    K->trace_first = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", K->trace);
    meta(0, 0, "process_name", "DSPs");
    meta(1, 0, "process_name", "links");
    char name[96], a[32], b[32];
    for (int i = 0; i < K->ndsps; i++) {
        snprintf(name, sizeof name, "DSP %d (board %d)", i, i / K->plat.dsps_per_board);
        meta(0, i, "thread_name", name);
    }
    for (int l = 0; l < K->nlinkall; l++) {
        node_name(K->links[l].from, a, sizeof a);
        node_name(K->links[l].to, b, sizeof b);
        snprintf(name, sizeof name, "link %d: %s -> %s", l, a, b);
        meta(1, l, "thread_name", name);
    }
}

void
k_trace_span(int pid, int tid, const char *name, Cycles t0, Cycles t1, const char *cat)
{
    double mhz = K->plat.dsp_clock_mhz;
    fprintf(K->trace,
            ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"cat\":\"%s\","
            "\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"cycle\":%lld,\"cycles\":%lld}}",
            pid, tid, name, cat, (double)t0 / mhz, (double)(t1 - t0) / mhz, t0, t1 - t0);
}

void
trace_close(void)
{
    if (!K->trace)
        return;
    fputs("\n]}\n", K->trace);
    fclose(K->trace);
    K->trace = NULL;
}

void
stats_summary(FILE *f)
{
    Cycles len = 0;
    for (int i = 0; i < K->ndsps; i++)
        if (K->dsps[i].finish > len)
            len = K->dsps[i].finish;
    const MPIRIO_Traffic *t = &K->tr;
    fprintf(f, "mpirio: platform %s, %d DSPs on %d board%s, contention %s\n",
            K->plat.name, K->ndsps, K->plat.boards, K->plat.boards == 1 ? "" : "s",
            K->set.no_contention ? "off" : "on");
    fprintf(f, "mpirio: length %lld cycles (%.6f s at %d MHz)\n", len,
            (double)len / ((double)K->plat.dsp_clock_mhz * 1e6), K->plat.dsp_clock_mhz);
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
