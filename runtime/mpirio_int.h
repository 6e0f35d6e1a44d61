/* mpirio_int.h: the internals of libmpirio, one prototype section per file.
 *
 * Two layers. api.c is the MPIRIO API: argument checks, communicators, the MPICH
 * collectives over point-to-point. It calls only the tr_ functions of the transport
 * section below, so a second transport (real MPI) is one more file that defines them,
 * chosen by the build. sim_*.c are the simulated BWDSP/RapidIO transport: a
 * discrete-event kernel (SimGrid's maestro design: one thread per DSP, only one runs
 * at a time, each MPIRIO call a request that the kernel orders by virtual time). */
#ifndef MPIRIO_INT_H
#define MPIRIO_INT_H

#include "mpirio.h"
#include <stdint.h>
#include <stdio.h>

typedef long long Cycles;

/* ---- platform.c: the platform description ---- */

typedef struct Platform {
    char name[64];
    int abstract; /* "model": "abstract": one board of N DSPs, a message of n bytes
                     takes n cycles, no overheads, no packets on links */
    int boards, dsps_per_board;
    int nlinks;      /* board links */
    int (*links)[2]; /* nlinks pairs of boards */
    int dsp_clock_mhz, link_mbps, packet_bytes, payload_bytes, switch_latency;
    int send_overhead, recv_overhead, post_overhead, wait_overhead;
    int copy_bytes_per_cycle, handshake, eager_limit;
    long long dsp_memory_bytes;
} Platform;

/* settings of one run (command line, environment, MPIRIO_Run flags) */
typedef struct Settings {
    int no_contention;
    int summary;
    int coll; /* default MPIRIO_COLL_ */
    int quiet;
    double fault_rate; /* fraction of link transmissions corrupted */
    unsigned long long fault_seed;
    const char *trace; /* Chrome trace-event file, or NULL */
} Settings;

/* fills p from a preset name, a "tgc-platform/1" file, or NULL (smallest fit for
 * ndsps DSPs; near-square mesh above 64); 0, or -1 with a message in err */
int plat_load(Platform *p, const char *spec, int ndsps, char *err, size_t errlen);
void plat_free(Platform *p);
void settings_from_env(Settings *s);

/* ---- transport: what api.c calls (sim_*.c implement it) ---- */

typedef struct MPIRIO_Req Req;
int tr_active(void);            /* 1 inside a DSP of a running job */
void tr_call(const char *name); /* the API call the DSP is in (deadlock report) */
int tr_rank(void);              /* caller's global rank */
int tr_size(void);
int tr_dsps_per_board(void);
int tr_isend(const void *buf, size_t bytes, int dst, int ctx, int tag, int srank,
             Req **out);
/* blocking = 1: posted now, no overhead (MPIRIO_Recv); 0: post_overhead first */
int tr_irecv(void *buf, size_t cap, int src, int ctx, int tag, int blocking, Req **out);
int tr_wait(Req *r, MPIRIO_Status *st);            /* frees r; returns its error */
int tr_test(Req *r, int *flag, MPIRIO_Status *st); /* frees r when *flag */
void tr_compute(Cycles c);
Cycles tr_now(void);
long long tr_clock_hz(void);
void tr_set_priority(int prio);
void tr_finalize(void);
int tr_coll_default(void);
void tr_set_coll(int family);
void tr_traffic(MPIRIO_Traffic *t);
int tr_link(int link, MPIRIO_Link *l);
/* collectives in the switches; members are global ranks base..base+size-1, root
 * and the ranks in the buffers are communicator ranks */
enum { CO_BCAST, CO_GATHER, CO_SCATTER, CO_REDUCE, CO_BARRIER };
int tr_coll_switch(int kind, int ctx, int base, int size, int root, const void *sbuf,
                   void *rbuf, size_t bytes, MPIRIO_Datatype type, MPIRIO_Op op);

/* ---- api.c helpers shared with the switch collectives ---- */
size_t api_type_size(MPIRIO_Datatype t);
/* acc = acc op in, n elements; 0 or MPIRIO_ERR_OP */
int api_reduce_op(void *acc, const void *in, int n, MPIRIO_Datatype t, MPIRIO_Op op);
int api_op_valid(MPIRIO_Datatype t, MPIRIO_Op op);

/* ---- sim_kernel.c: threads, events, virtual time, deadlock ---- */

typedef struct Dsp Dsp;
typedef struct Msg Msg;
typedef struct Packet Packet;
typedef struct Coll Coll;

enum {
    EV_WAKE,
    EV_ISSUE,
    EV_POST,
    EV_STREAM,
    EV_MSG_START,
    EV_MSG_ARRIVE,
    EV_PKT_RECV,
    EV_PKT_READY,
    EV_LINK_ARB
};

typedef struct Event {
    Cycles t;
    uint64_t key; /* class << 62 | sequence: arbitration after arrivals at one time */
    int type;
    int arg;
    void *p;
} Event;

struct MPIRIO_Req {
    int kind;     /* 0 send, 1 receive */
    int blocking; /* a blocking MPIRIO_Recv: recv_overhead instead of wait_overhead */
    int done;
    Dsp *owner;
    /* receive */
    void *buf;
    size_t cap;
    int src, ctx, tag; /* src global or -1 */
    MPIRIO_Status st;
    Msg *msg;                 /* matched message */
    Req *next;                /* in the posted queue */
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
    char what[160];                /* what it waits for */
    void *thread_sem;              /* sem_t */
    void (*fn)(int, void *);
    void *arg;
    Cycles after; /* busy this long once the wait is over (k_wait_busy) */
    Cycles busy;  /* cycles of CPU costs so far (the summary) */
    const char *after_what;
    Cycles blocked_end; /* when the wait was over, for the trace */
    Dsp *next_ready;
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

typedef struct Kernel {
    Platform plat;
    Settings set;
    int ndsps; /* DSPs of the job (ranks) */
    int pdsps; /* DSPs of the platform (>= ndsps) */
    Dsp *dsps;
    Cycles now;
    uint64_t seq;
    Event *heap;
    size_t nheap, capheap;
    Dsp *ready, *ready_tail;
    int live; /* DSPs not done */
    int aborting;
    long long events, switches;
    void *main_sem;
    /* network */
    Link *links;
    int nlinkall;
    int *tree_next; /* [board * boards + dest board] = next board on the MST */
    int *tree_link; /* [board * boards + next board] = link id a->b, -1 */
    int *board_nbr; /* MST adjacency: per board a list, board_nbr_off indexes */
    int *board_nbr_off;
    int *phys_link; /* per board the links out of its switch to other switches, */
    int *phys_off;  /* phys_off indexes: all board links, not only the tree */
    uint64_t msg_seq;
    MPIRIO_Traffic tr;
    Coll *colls; /* open in-switch collectives */
    Req *reqs;   /* live requests */
    FILE *trace;
    int trace_first;
    char report[4096];
    int deadlock;
} Kernel;

extern Kernel *K;

void k_push(Cycles t, int cls, int type, int arg, void *p);
/* the caller blocks until woken (k_sync, or a request or collective completes) */
void k_block(Dsp *d);
/* busy c cycles: only the DSP's clock moves; what it does next at that time is an
 * event at its clock (issue, post, stream) or waits for the kernel (k_sync) */
void k_sleep(Dsp *d, Cycles c, const char *what);
/* blocks until the kernel's time has reached the DSP's clock: before anything that
 * reads the state of the platform */
void k_sync(Dsp *d);
void k_make_ready(Dsp *d);
/* the caller blocks until k_release, then is busy `after` cycles: the wake-up is one
 * event at release + after, which saves a hand-off of the baton */
void k_wait_busy(Dsp *d, Cycles after, const char *what);
void k_release(Dsp *d);
Dsp *k_self(void);
void k_trace_span(int pid, int tid, const char *name, Cycles t0, Cycles t1,
                  const char *cat);

/* ---- sim_net.c: topology, routes, packets, links, faults ---- */

struct Msg {
    uint64_t id;
    int src, dst; /* global DSPs */
    int ctx, tag, srank;
    size_t bytes;
    unsigned char *data; /* copy of the payload taken at issue */
    int prio;
    /* issue order, the link arbitration's tie-break after priority and size: the issue
     * time (virtual), the source rank, the source's count of earlier sends */
    Cycles issued;
    unsigned long long src_seq;
    int eager, matched, arrived;
    Req *sreq, *rreq;
    Msg *next; /* in the unexpected queue */
    /* network */
    int npk, left;    /* packets, packets not yet delivered */
    Cycles *hop_busy; /* no contention: per hop of the route */
    Coll *coll;       /* packets of an in-switch collective */
    int bcast;        /* packets replicated by the switches */
    int coll_dst;     /* target of a coll stream: node id */
    Packet *pk;
};

struct Packet {
    Msg *m;
    int idx, size, payload;
    int hop;     /* links crossed */
    int in_link; /* link it came in on, -1 at the source */
    int link;    /* link it waits for */
    int owned;   /* a switch's replica, freed when consumed */
};

int net_init(char *err, size_t errlen);
void net_free(void);
int net_switch_node(int board);
/* start the data of m moving at K->now (from src DSP to dst DSP) */
void net_start_msg(Msg *m);
/* send the packets of m from node `from` to `to` (a neighbour on the MST or a
 * DSP of the switch): used by the collectives */
void net_start_stream(Msg *m, int from_node);
void net_make_packets(Msg *m);
void net_forward_copy(Packet *p, int link); /* a replica leaves a switch */
int net_link_between(int from_node, int to_node);
void net_pkt_recv(Packet *p, int node);
void net_pkt_ready(Packet *p);
void net_link_arb(int link);
int net_npackets(size_t bytes);
Cycles net_ser(int bytes);

/* ---- sim_p2p.c: matching, requests, arrival ---- */

void p2p_msg_arrived(Msg *m);
void p2p_issue(Msg *m); /* EV_ISSUE: a send is issued at its DSP's clock */
void p2p_post(Req *r);  /* EV_POST: a receive is posted */
void req_complete(Req *r);
Req *req_new(Dsp *owner);
void req_free(Req *r);

/* ---- sim_coll.c: collectives in the switches ---- */

void coll_stream_arrived(Msg *m, int node);  /* all packets of m in at node */
void coll_bcast_packet(Packet *p, int node); /* a broadcast packet in at node */
void coll_free_all(void);

/* ---- sim_stats.c: summary, trace ---- */

void stats_summary(FILE *f);
void trace_open(void);
void trace_close(void);

#endif
