/* sim.h: the internals of the simulated transport, one section per layer, bottom
 * first. The files are layers (top down), and each calls only functions of the
 * layers below it, never one above or beside it:
 *
 *   api.c                 the MPIRIO API (mpirio_int.h only)
 *   sim_run.c             a run; the tr_ calls about the job and the DSP
 *   sim_p2p.c sim_coll.c  point-to-point protocols; collectives in the switches
 *   sim_net.c             the RapidIO fabric: routes, packets, links, faults
 *   sim_kernel.c          events, DSPs, virtual time, deadlock
 *   platform_load.c datatype.c trace.c fiber.c   used by all
 *   platform/presets.c platform/read.c    the platform description (tgc's), below
 *
 * tests/runtime/layers.sh checks this on the symbols of libmpirio.a. Where a lower
 * layer must reach up it calls a function it was given: an event carries its handler
 * (k_push), a message the functions to call when it arrives (on_arrive, on_packet). */
#ifndef MPIRIO_SIM_H
#define MPIRIO_SIM_H

#include "mpirio_int.h"
#include <stdint.h>
#include <stdio.h>

/* ---- platform_load.c: the platform of a run (platform/platform.h's PlatDesc) ---- */

#include "platform_load.h"

/* settings of one run (command line, environment, MPIRIO_Run flags) */
typedef struct Settings {
    int no_contention;
    int summary;
    int coll; /* default MPIRIO_COLL_ */
    int quiet;
    double fault_rate; /* fraction of link transmissions corrupted */
    unsigned long long fault_seed;
    const char *trace; /* Chrome trace-event file, or NULL */
    int strict;        /* MPIRIO_RUN_STRICT: calls outside Init..Finalize end the run */
} Settings;

/* ---- trace.c: the Chrome trace-event file ---- */

extern int trace_active; /* a trace is open */
/* 0, or -1 with a message in err; the file is valid JSON however the process ends */
int trace_open(const char *path, int mhz, char *err, size_t errlen);
void trace_name(int pid, int tid, const char *what, const char *name); /* metadata */
/* A span [t0, t1) in cycles; args: NULL, or more members of its "args" object, as JSON
 * text ("\"bytes\":64,\"peer\":1") */
void trace_span(int pid, int tid, const char *name, long long t0, long long t1,
                const char *cat, const char *args);
/* One end of a message's flow arrow (end 0: the send, 1: the receive), at cycle t of
 * DSP track tid: the viewers draw an arrow between the spans around the two ends of the
 * same id. */
void trace_flow(int end, unsigned long long id, int tid, long long t);
int trace_close(void); /* 0, or -1 (reported) when the file could not be written */
/* a fault ends the process: what was traced and the closing brackets are written and
 * the file closed (async-signal-safe; nothing is traced after) */
void trace_crash(void);

/* ---- fiber.c: user-level contexts (fiber.h) ---- */

#include "fiber.h"

/* ---- sim_kernel.c: DSPs, events, virtual time, deadlock ---- */

typedef struct Dsp Dsp;
typedef struct Msg Msg;
typedef struct Packet Packet;
typedef struct Coll Coll;

typedef void (*EvFn)(void *p); /* the handler of an event */

struct MPIRIO_Req {
    int kind;     /* 0 send, 1 receive, 2 an agent's work (tr_spawn) */
    int blocking; /* a blocking MPIRIO_Recv: recv_overhead instead of wait_overhead */
    int done;
    int posted;  /* a receive: the post event has run */
    int dropped; /* ... cancelled before it: the post event frees it */
    Dsp *owner;
    /* receive */
    void *buf;
    size_t cap;
    int src, ctx, tag; /* src global or -1 */
    int lane;          /* that of the DSP or agent that made it (Dsp.lane) */
    MPIRIO_Status st;  /* of an agent's work: st.error its result */
    Msg *msg;          /* matched message; of a send: its message */
    unsigned long long
        msg_id;  /* a receive: the message delivered (Msg.id), for the trace */
    int msg_src; /* ... and its sender (global) */
    Dsp *agent;  /* of an agent's work in progress: the agent */
    Req *next;   /* in the posted queue */
    Req *all_prev, *all_next; /* every live request (freed at the end of a run) */
};

struct Dsp {
    int rank, board;
    Cycles clock;  /* the DSP's own time, >= K->now while it runs */
    int state;     /* DS_ */
    Cycles finish; /* time of Finalize or return */
    int prio;
    unsigned long long nsent; /* point-to-point sends issued so far (Msg.src_seq) */
    int coll;                 /* MPIRIO_COLL_ family */
    int finalized;
    unsigned seq_world, seq_local; /* collective sequence per communicator */
    Req *posted, *posted_tail;     /* expected queue */
    Msg *unexp, *unexp_tail;       /* unexpected queue (arrived envelopes) */
    Req *waiting;                  /* the request the DSP is blocked on */
    Coll *wait_coll;               /* the collective it is blocked on */
    const char *call;              /* the MPIRIO call it is in, for the deadlock report */
    /* what it waits for, written only for a deadlock report: by the function the
     * layer that blocked it left here */
    void (*describe)(const Dsp *d, char *buf, size_t n);
    const char *wait_what; /* the data of the collective it waits for */
    Fiber *fiber;
    void (*fn)(int, void *);
    void *arg;
    Cycles after;           /* busy this long once the wait is over (k_wait_busy) */
    Cycles busy;            /* cycles of CPU costs so far (the summary) */
    const char *after_what; /* the span of `after` in the trace; NULL: none */
    long long iteration;    /* MPIRIO_Trace_iteration's (of `home`), -1: none given */
    Cycles blocked_end;     /* when the wait was over, for the trace */
    Dsp *next_ready;
    void *api;    /* the API layer's state of this DSP (tr_api_slot) */
    int wait_any; /* blocked until any of its requests completes (tr_waitany) */
    int probing;  /* blocked in tr_probe until a matching envelope arrives */
    int polling;  /* its last p2p call was a poll that failed (tr_test, tr_iprobe) */
    int probe_src, probe_ctx, probe_tag;
    Dsp *prober; /* the DSP or agent blocked in tr_probe on this DSP's queue */
    /* Agents (k_agent): a DSP's operations in progress, each a fiber with a clock of
     * its own that acts for its DSP, `home`: its messages are the DSP's (its rank,
     * the DSP's queues, send order and priority). Of a DSP, home is itself. Only the
     * fields above `home`'s that are about waiting and time are an agent's own: clock,
     * state, waiting, wait_coll, call, describe, fiber, after, busy, polling. */
    Dsp *home;
    int lane; /* messages match only between the same lane (0: the DSPs' own) */
    int tid;  /* its track in the trace: the rank, or an agent's number */
    void (*work)(void *); /* an agent's work */
    void *work_arg;
    Dsp *next_agent; /* all agents of the run (Kernel.agents) */
    Dsp *next_idle;  /* an agent whose work is over, to reuse (Dsp.idle of its DSP) */
    Dsp *idle;       /* of a DSP: its agents whose work is over */
};

enum { DS_RUN, DS_READY, DS_BUSY, DS_BLOCKED, DS_DONE };

typedef struct Link {
    int from, to; /* node ids: DSP d is d, switch b is ndsps + b */
    Cycles busy_until;
    int arb_pending;
    Packet **q; /* waiting packets (a binary heap by priority) */
    int nq, capq;
    long long packets, bytes, retries, busy;
} Link;

enum { K_NCLASS = 13 }; /* k_alloc's size classes: 16 bytes to 64 KiB */

/* the event queue (sim_kernel.c): a timing wheel of K_WHEEL cycles, each slot a
 * first-in first-out list per class, and a heap beyond it */
enum { K_WHEEL = 4096 };
typedef struct Ev {
    Cycles t;
    EvFn fn;
    void *p;
    struct Ev *next;
} Ev;
typedef struct EvQueue {
    struct {
        Ev *head, *tail;
    } fifo[K_WHEEL][2];
    uint64_t used[K_WHEEL / 64]; /* slots with events */
    Cycles base;                 /* the window is [base, base + K_WHEEL) */
    size_t nwheel;               /* events in the wheel */
    struct Far *far;             /* the heap beyond */
    size_t nfar, capfar;
    uint64_t seq;
    Ev *spare; /* free event records */
} EvQueue;

typedef struct Kernel {
    PlatDesc plat;
    Settings set;
    int ndsps; /* DSPs of the job (ranks) */
    int pdsps; /* DSPs of the platform (>= ndsps) */
    Dsp *dsps;
    Cycles now;
    Dsp *ready, *ready_tail;
    int live; /* DSPs not done */
    long long events, switches;
    Fiber *host;                 /* the context of MPIRIO_Run's caller */
    struct Hdr *freel[K_NCLASS]; /* k_alloc's free blocks per size class */
    struct Hdr *slabs;           /* the memory they come from */
    struct Hdr *large;           /* k_alloc's blocks above the classes */
    /* network (sim_net.c) */
    Link *links;
    int nlinkall;
    int *tree_next; /* [board * boards + dest board] = next board on the MST */
    int *tree_link; /* [board * boards + next board] = link id a->b, -1 */
    int *board_nbr; /* MST adjacency: per board a list, board_nbr_off indexes */
    int *board_nbr_off;
    int *phys_link;  /* per board the links out of its switch to other switches, */
    int *phys_off;   /* phys_off indexes: all board links, not only the tree */
    Cycles *ser_tab; /* net_ser of 0 to packet_bytes bytes */
    uint64_t msg_seq;
    MPIRIO_Traffic tr;
    Coll *colls; /* open in-switch collectives (sim_coll.c) */
    Req *reqs;   /* live requests (sim_p2p.c) */
    Dsp *agents; /* every agent of the run (k_agent) */
    int nagents;
    char report[4096];
    int deadlock;
} Kernel;

extern Kernel *K;

/* runs n DSPs of fn until all have returned (0) or the live ones are deadlocked (2,
 * reported); 1 if the DSPs cannot be created. K holds the platform and settings. */
int k_run(int n, void (*fn)(int, void *), void *arg);
void k_end(void); /* after the statistics have been read */
/* memory that lives at most for the run (messages, requests, packets, payloads):
 * fast, and freed with the run; k_zalloc zeroes it */
void *k_alloc(size_t n);
void *k_zalloc(size_t n);
void k_dealloc(void *p);
/* fn(p) at time t (>= now), after the events of (t, class) already queued: inline
 * (below), since every packet on every link queues several */
/* the caller blocks until woken (k_sync, or a request or collective completes) */
void k_block(Dsp *d);
/* busy c cycles: only the DSP's clock moves; what it does next at that time is an
 * event at its clock (issue, post, stream) or waits for the kernel (k_sync) */
void k_sleep(Dsp *d, Cycles c, const char *what); /* what NULL: no span in the trace */
/* the "args" members of a span of d in the trace: its iteration (NULL when none) */
const char *k_trace_args(const Dsp *d, char *buf, size_t n);
/* blocks until the kernel's time has reached the DSP's clock: before anything that
 * reads the state of the platform */
void k_sync(Dsp *d);
void k_make_ready(Dsp *d);
/* the caller blocks until k_release, then is busy `after` cycles: the wake-up is one
 * event at release + after, which saves a hand-off of the baton */
void k_wait_busy(Dsp *d, Cycles after, const char *what);
void k_release(Dsp *d);
Dsp *k_self(void); /* the DSP (or agent) running, NULL outside */
/* an agent of the running DSP or agent d (for d's DSP) that runs work(arg) with d's
 * clock, its messages in `lane`; it runs at once, and d goes on (made ready) when it
 * first waits or is done. work's end is the agent's: it is kept for the next one. */
void k_agent(Dsp *d, int lane, void (*work)(void *), void *arg);

extern EvQueue k_q;
void k_push_far(Ev *e, int cls);
Ev *k_ev_new(void);

static inline void
k_slot_append(Ev *e, int cls)
{
    unsigned s = (unsigned)e->t & (K_WHEEL - 1);
    e->next = NULL;
    if (k_q.fifo[s][cls].tail)
        k_q.fifo[s][cls].tail->next = e;
    else
        k_q.fifo[s][cls].head = e;
    k_q.fifo[s][cls].tail = e;
    k_q.used[s / 64] |= (uint64_t)1 << (s % 64);
    k_q.nwheel++;
}

static inline void
k_push(Cycles t, int cls, EvFn fn, void *p)
{
    Ev *e = k_q.spare;
    if (e)
        k_q.spare = e->next;
    else
        e = k_ev_new();
    e->t = t;
    e->fn = fn;
    e->p = p;
    if (t >= k_q.base && t < k_q.base + K_WHEEL)
        k_slot_append(e, cls);
    else
        k_push_far(e, cls);
}

/* ---- sim_net.c: topology, routes, packets, links, faults ---- */

struct Msg {
    uint64_t id;
    int src, dst; /* global DSPs */
    int ctx, tag, srank;
    int lane; /* its sender's (Dsp.lane): matched only by a receive of the same */
    size_t bytes;
    unsigned char *data; /* copy of the payload taken at issue (k_alloc) */
    int prio;
    /* issue order, the link arbitration's tie-break after priority and size: the issue
     * time (virtual), the source rank, the source's count of earlier sends */
    Cycles issued;
    unsigned long long src_seq;
    int eager, matched, arrived;
    int queued;    /* the envelope has reached the receiver (the issue event) */
    int cancelled; /* its send was cancelled before the issue or while its eager data
                      was on the way: dropped then */
    Req *sreq, *rreq;
    Msg *next; /* in the unexpected queue */
    /* network */
    int from_node, to_node; /* set by net_send / net_stream */
    int npk, left;          /* packets, packets not yet delivered */
    Cycles *hop_busy;       /* no contention: per hop of the route */
    Coll *coll;             /* packets of an in-switch collective */
    int bcast;              /* packets replicated by the switches */
    Packet *pk;
    /* the layer above: called when the last packet is in at to_node */
    void (*on_arrive)(Msg *m, int node);
    /* if set, called instead for every packet at every node it reaches (broadcast) */
    void (*on_packet)(Packet *p, int node);
};

struct Packet {
    Msg *m;
    int idx, size, payload;
    int hop;     /* links crossed */
    int in_link; /* link it came in on, -1 at the source */
    int link;    /* link it waits for */
    int owned;   /* a switch's replica (k_alloc), freed when consumed */
};

int net_init(char *err, size_t errlen); /* 0, or -1 with a message */
void net_free(void);
int net_switch_node(int board);
/* the data of m starts moving from DSP src to DSP dst now / at time t (an event) */
void net_send(Msg *m);
void net_send_at(Msg *m, Cycles t);
/* the packets of m go from node `from` to `to` (a neighbour on the MST or a DSP of
 * the switch), now / at time t: the collectives' streams */
void net_stream(Msg *m, int from_node, int to_node);
void net_stream_at(Msg *m, int from_node, int to_node, Cycles t);
/* a message (zeroed) and its end: its packets, and its data if the data came from
 * k_alloc */
Msg *net_msg_new(void);
void net_msg_free(Msg *m);
void net_make_packets(Msg *m);
void net_forward_copy(Packet *p, int link); /* a replica leaves a switch */
int net_link_between(int from_node, int to_node);
int net_npackets(size_t bytes);
Cycles net_ser(int bytes);

/* ---- sim_p2p.c: matching, requests, arrival (tr_isend ... tr_test) ---- */

void p2p_free_all(void); /* the requests and messages left at the end of a run */

/* ---- sim_coll.c: collectives in the switches (tr_coll_switch) ---- */

void coll_free_all(void);

#endif
