/*
 * ir/ir.h - the one IR header of tgc.
 *
 * Everything the compiler passes share is declared here: the arena, diagnostics, the task
 * graph, the platform, the schedule and the evaluator's results, then one prototype
 * section per .c file in pipeline order (ir/, frontend/, passes/, backend/).  The runtime
 * (runtime/) includes nothing of this file.
 *
 * Units: every time is in DSP cycles (int64_t), every size in bytes (int64_t).  Indices
 * into arrays are int.  An index of -1 means "none".
 *
 * Memory: a Graph owns an Arena; its tasks, edges, strings and arrays come from it and
 * ir_graph_free() releases them all at once.  A Platform lives in the arena it was
 * created in.  A Sched owns its own arena (schedules are made and dropped more often than
 * graphs).
 */
#ifndef TGC_IR_H
#define TGC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "platform.h"

#define TGC_VERSION "0.1.0"

#if defined(__GNUC__)
#define TGC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define TGC_NORETURN __attribute__((noreturn))
#else
#define TGC_PRINTF(a, b)
#define TGC_NORETURN
#endif

/* ------------------------------------------------------------------------------------
 * Arena and diagnostics
 * ------------------------------------------------------------------------------------ */

typedef struct Arena Arena; /* bump allocator; opaque, see ir/arena.c */

/* Where a diagnostic points.  JSON syntax errors have a line and column (from jansson);
 * semantic errors have a JSON Pointer (jansson keeps no positions on values); importers
 * of line-based formats have a line.  Text formats as "FILE:LINE:COL: error: msg" when
 * line > 0, "FILE: /pointer: error: msg" when pointer is set, else "FILE: error: msg". */
typedef struct Loc {
    const char *file;    /* as the user named it; "<stdin>" for "-" */
    int line, col;       /* 1-based; 0 = unknown */
    const char *pointer; /* RFC 6901 JSON Pointer, or NULL */
} Loc;

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

typedef struct Diag Diag; /* collects messages; opaque, see ir/diag.c */

/* ------------------------------------------------------------------------------------
 * Platform (docs/design.md sections 2 and 4)
 * ------------------------------------------------------------------------------------ */

typedef enum {
    MODEL_BWDSP, /* boards of DSPs with RapidIO switches, the cost model of section 4 */
    MODEL_ABSTRACT, /* scheduling literature: an edge costs `bytes` cycles between DSPs,
                       no overheads, no handshake, no contention */
} PlatModel;

/* A board link {a, b}: board indices; bidirectional, one link resource per direction
 * (platform/'s PdLink, so that its spanning tree reads Platform's links). */
typedef PdLink BoardLink;

typedef struct Platform {
    const char *name; /* preset name, file name, or "inline" */
    PlatModel model;
    int nboards;            /* 0 for the abstract model */
    int dsps_per_board;     /* DSP d sits on board d / dsps_per_board */
    int ndsps;              /* nboards * dsps_per_board, or the abstract model's "dsps" */
    int64_t dsp_clock_mhz;  /* DSP clock; cycles per microsecond */
    int64_t link_mbps;      /* RapidIO link rate in Mbit/s */
    int64_t packet_bytes;   /* largest packet on the wire, header included */
    int64_t payload_bytes;  /* data bytes per full packet */
    int64_t switch_latency; /* cycles a switch holds a packet before forwarding */
    int64_t send_overhead;  /* DSP cycles to start a send */
    int64_t recv_overhead;  /* DSP cycles to complete a blocking receive */
    int64_t post_overhead;  /* DSP cycles to post a nonblocking receive */
    int64_t wait_overhead;  /* DSP cycles to complete a nonblocking receive */
    int64_t copy_bytes_per_cycle; /* pack/unpack speed of aggregated messages */
    int64_t handshake;            /* cycles of the RTS/CTS exchange of a rendezvous */
    int64_t eager_limit;      /* messages of at most this many bytes skip the handshake */
    int64_t dsp_memory_bytes; /* buffer memory per DSP */
    BoardLink *links;         /* board links, nlinks of them */
    int nlinks;
    /* Links without contention (--no-contention): every message has the fabric to itself,
     * as in the runtime's --no-contention.  Not a field of the platform file: the
     * commands set it from the option.  Default (false): the directed links are
     * resources that packets hold in turn (docs/execution-model.md, "Contention"). */
    bool no_contention;
    /* Derived by plat_finish(): routes along the minimum spanning tree of the board links
     * (Prim from board 0, ties to the lower board index). */
    int *mst_parent; /* [nboards]: parent board in the tree, -1 for board 0 */
    int *mst_link;   /* [nboards]: the board link (index) to the parent, -1 for board 0 */
    int *board_hops; /* [nboards * nboards]: board links crossed between two boards */
    int64_t *hop_pairs; /* [nboards]: ordered pairs of boards h board links apart */
} Platform;

/* The parameter table PLATFORM_PARAMS (name, minimum, maximum) is platform/platform.h's,
 * with the description tgc and the runtime share (PlatDesc) and its reader. */

/* ------------------------------------------------------------------------------------
 * Task graph (docs/design.md section 2)
 * ------------------------------------------------------------------------------------ */

typedef enum { PARAM_INT, PARAM_REAL, PARAM_STRING, PARAM_BOOL } ParamKind;

typedef struct Param {
    const char *name;
    ParamKind kind;
    int64_t i;     /* PARAM_INT, PARAM_BOOL (0 or 1) */
    double r;      /* PARAM_REAL */
    const char *s; /* PARAM_STRING */
} Param;

typedef struct Task {
    const char *id;  /* unique within the graph; any string (the backend sanitizes it) */
    int64_t *cycles; /* cost in DSP cycles: ncycles == 1 (same on every DSP) or ndsps */
    int ncycles;
    const char *kernel; /* C function name, or NULL for the built-in synthetic kernel */
    Param *params;      /* kernel parameters, in input order */
    int nparams;
    int dsp;            /* pinned DSP, or -1 */
    const char *output; /* file the task's kernel writes (sinks), or NULL */
    int *pins; /* "dsp" as a list: the DSP of each firing of a multi-rate actor (npins of
                  them, fe_check: as many as its firings), or NULL */
    int npins;
} Task;

typedef struct Edge {
    int from, to;  /* task indices */
    int64_t bytes; /* the size of one token (a single-rate edge: its buffer); 0 is legal
                      (a pure dependence) */
    int delay;     /* iterations; 0 = same iteration.  Zero-delay edges form a DAG */
    /* A channel of a multi-rate graph (docs/formats.md, "Multi-rate graphs"): the tokens
     * `from` writes and `to` reads per firing, and the initial tokens.  Before fe_check a
     * rate of 0 stands for the default 1 (code that builds a single-rate graph need not
     * set them); fe_check makes both >= 1, turns a delay d into tokens (d x q[from] x
     * produce) and, in a single-rate graph, tokens into the delay. */
    int64_t produce, consume, tokens;
} Edge;

/* Where an edge of an expanded graph sits in the ports of its tasks (docs/kernels.md):
 * it is bytes [from_off, from_off + bytes) of output port from_port of `from` and bytes
 * [to_off, to_off + bytes) of input port to_port of `to`.  A port of -1: the edge is a
 * port of its own (the single-rate rule: a task's ports are its edges in edge order). */
typedef struct EdgePort {
    int from_port, to_port;
    int64_t from_off, to_off;
} EdgePort;

/* Where a task or an edge of a flattened graph was written: /tasks/index or
 * /edges/index of that file (docs/formats.md, "Subgraphs"). */
typedef struct Origin {
    const char *file;
    int index;
} Origin;

/* Task t of an expanded graph is firing `index` (0 .. count - 1) of an actor that fires
 * `count` times per iteration. */
typedef struct Firing {
    int64_t index, count;
} Firing;

typedef struct Graph {
    Arena *arena;
    const char *file;          /* where it was read from */
    const char *name;          /* "name" field, or the file's base name */
    int64_t iterations;        /* >= 1 */
    int64_t period_constraint; /* the largest acceptable period, cycles per iteration
                                  (docs/throughput.md); 0 = none */
    const char
        *platform_ref;  /* the "platform" field as written: preset, path or "inline" */
    Platform *platform; /* resolved platform (NULL until resolved) */
    const char *dir;    /* folder of the graph's file, where its relative paths start ("."
                           for standard input and strings) */
    const char
        *kernels_source; /* kernel C file, as a path usable from the cwd, or NULL */
    const char *kernels_header; /* optional header of the kernels, or NULL */
    /* The kernel files' bytes, read by fe_check when Options.read_kernels
     * (docs/formats.md: confined to dir or a --kernel-path folder, regular, within
     * --max-file-size); the emitter copies these, never the paths.  NULL when not read.
     */
    const char *kernels_source_text, *kernels_header_text;
    size_t kernels_source_len, kernels_header_len;
    Task *tasks;
    int ntasks;
    Edge *edges;
    int nedges;
    /* Adjacency in CSR form, built by ir_graph_index(): the edges out of task t are
     * succ[succ_off[t] .. succ_off[t+1]) (edge indices), likewise pred for edges in. */
    int *succ_off, *succ;
    int *pred_off, *pred;
    int *topo; /* [ntasks] a topological order of the zero-delay edges, or NULL if cyclic
                */
    /* Multi-rate graphs (docs/formats.md), set by fe_check: multirate when a rate is not
     * 1 (the expansion is not the identity); the repetition vector, the firings of each
     * task per iteration, and their sum. */
    bool multirate;
    int64_t *repetitions; /* [ntasks] */
    int64_t firings;
    /* An expanded graph (pass_expand, or a file tgc expand wrote): the firing of each
     * task and the ports of each edge; NULL when every task fires once and every edge
     * is a port of its own. */
    Firing *firing;  /* [ntasks] */
    EdgePort *ports; /* [nedges] */
    /* After pass_expand replaced the graph by its expansion: the multi-rate graph as it
     * was read (owned: ir_graph_free frees both). */
    struct Graph *original;
    /* A graph whose subgraph actors were flattened (frontend/hier.c): where each task and
     * edge was written (for messages), and the port each channel is at its ends (the
     * channels of a subgraph's interface come first); NULL when not flattened (a task or
     * edge is /tasks/i or /edges/j of g->file, a channel's ports are its rank among its
     * actors' edges). */
    bool flattened;
    Origin *task_origin, *edge_origin; /* [ntasks], [nedges] */
    int *from_rank, *to_rank;          /* [nedges] */
} Graph;

/* Limits on input size; a user raises them with options.  Inputs above them are refused
 * with a message naming the option, never by running out of memory. */
typedef struct Limits {
    int64_t max_tasks;      /* --max-tasks */
    int64_t max_edges;      /* --max-edges */
    int64_t max_dsps;       /* --max-dsps */
    int64_t max_iterations; /* --max-iterations */
    int64_t max_file_bytes; /* --max-file-size */
} Limits;

/* ------------------------------------------------------------------------------------
 * Schedule (docs/design.md section 3)
 *
 * A schedule maps every task to a DSP and gives each DSP a sequence of operations
 * executed once per iteration, in order.  A message joins one source DSP to one
 * destination DSP and carries one or more edges of the same delay; per DSP pair, receives
 * are in the same order as sends.  Edges between tasks on the same DSP need no message
 * (the consumer reads the producer's buffer).
 * ------------------------------------------------------------------------------------ */

typedef enum { OP_COMPUTE, OP_SEND, OP_RECV } OpKind;

typedef struct Op {
    OpKind kind;
    int ref; /* OP_COMPUTE: task index; OP_SEND, OP_RECV: message index */
} Op;

typedef struct Msg {
    int src, dst;   /* DSPs, src != dst */
    int *edges;     /* edge indices carried, nedges >= 1; all of the same delay */
    int nedges;     /* > 1 = aggregated: packed by the sender, unpacked by the receiver */
    int64_t bytes;  /* sum of the edges' bytes */
    int delay;      /* the common delay of its edges */
    bool pipelined; /* receive double-buffered: posted one iteration ahead */
} Msg;

typedef struct Sched {
    Arena *arena;
    const Graph *g;
    const Platform *p;
    int ndsps;
    int *map;    /* [g->ntasks] task -> DSP */
    Op **ops;    /* [ndsps] operation sequence of each DSP */
    int *nops;   /* [ndsps] */
    int *capops; /* [ndsps] capacity of ops[d] */
    Msg *msgs;   /* messages; index = message id */
    int nmsgs;
    int capmsgs;
    int *edge_msg; /* [g->nedges] message carrying the edge, or -1 (same DSP) */
} Sched;

/* ------------------------------------------------------------------------------------
 * Evaluator results (passes/evaluate/)
 *
 * Times of one operation in one iteration: the DSP reaches it at `ready`, waits until
 * `start` (for data, a free buffer or a completed transfer), is busy until `end`.
 * ------------------------------------------------------------------------------------ */

typedef struct OpTime {
    int64_t ready, start, end;
} OpTime;

typedef struct MsgTime {
    int64_t issue; /* sender finished its SEND (transfer handed to the DMA) */
    int64_t post;  /* receive posted (-1 if never: skipped by a delay) */
    int64_t
        depart; /* data starts to move: max(issue, post) + handshake, or issue if eager */
    int64_t arrive; /* data fully in the receiver's buffer */
} MsgTime;

/* One step of a deadlock cycle: operation `op` of DSP `dsp` in iteration `iter`. */
typedef struct DeadStep {
    int dsp, op;
    int64_t iter;
} DeadStep;

typedef struct EvalResult {
    int64_t length; /* cycle at which the last DSP finishes the last iteration; -1 if
                       deadlocked */
    int64_t *busy;  /* [ndsps] cycles busy (compute and overheads) over all iterations */
    int64_t *idle;  /* [ndsps] length - busy */
    int64_t *compute;  /* [ndsps] cycles of COMPUTE over all iterations */
    int nrec;          /* iterations recorded */
    int64_t *rec_iter; /* [nrec] which iterations, ascending */
    OpTime **op_time;  /* [ndsps][nrec * nops[d]]: op_time[d][r * nops[d] + k] */
    MsgTime *msg_time; /* [nrec * nmsgs]: msg_time[r * nmsgs + m] is transfer (m, i), i =
                          rec_iter[r]: sent in iteration i, received in i (delay 0) or
                          i + 1 (any delay, into a ring of `delay` buffers); all -1 when
                          it never happens (skipped by a delay) */
    bool deadlock;
    DeadStep *cycle; /* the blocking cycle, in order; ncycle steps: pairs (the op a DSP
                        is blocked at, the op of the next DSP it waits for), starting at
                        the lowest DSP of the cycle */
    int ncycle;
} EvalResult;

/* An exact number of cycles per iteration: num / den, den >= 1, in lowest terms. */
typedef struct Ratio {
    int64_t num, den;
} Ratio;

/* Which iterations to record: the first `first` and the last `last` (all if
 * first + last >= iterations; first = last = 0 records none). */
typedef struct EvalOpts {
    int64_t first, last;
} EvalOpts;

/* ------------------------------------------------------------------------------------
 * Compilation unit and passes
 * ------------------------------------------------------------------------------------ */

typedef enum { OPT_NONE, OPT_MA, OPT_CP, OPT_BFCO, OPT_ES } OptMethod;
typedef enum { SCHED_HEFT, SCHED_PEFT, SCHED_EXACT } SchedAlgo;

/* What the local searches of pass_schedule did, summed over its starting points: the
 * schedules judged (the budget's candidates and each search's starting point), those of
 * them the lower bounds rejected without an evaluation of the objective, the
 * evaluations of the objective (eval_length as the platform says, contended or not) and
 * of the bounds (without contention). */
typedef struct SchedSearchStats {
    int64_t candidates, screened, evals, bound_evals;
    int64_t bb_steps; /* steps of the default's branch and bound */
} SchedSearchStats;

/* What sched_exact found: the length (the incumbent's when nothing shorter exists),
 * whether it is proven optimal (the search ended within its limits), the best lower
 * bound known (= length when proven), nodes expanded and CPU seconds. */
typedef struct SchedExactResult {
    int64_t length, lower, nodes, steps; /* steps: of the bound (sched_exact_grow) */
    bool proven;
    double seconds;
} SchedExactResult;

typedef struct Options {
    Limits limits;
    const char *platform; /* --platform override, or NULL */
    int dsps;             /* --dsps override, or 0 */
    int64_t iterations;   /* --iterations override, or 0 */
    int64_t
        search_budget;  /* local-search evaluations after HEFT; 0 = off, -1 = default */
    bool search_plain;  /* local search judges eval_length as built, not also pipelined */
    bool no_contention; /* --no-contention: Platform.no_contention of the loaded graphs */
    SchedAlgo algo;     /* the list scheduler of pass_schedule (--algo) */
    OptMethod method;
    uint64_t seed;
    int threads;
    bool verbose;
    bool read_kernels; /* fe_check reads the kernel files (check, compile, run) */
    const char *const
        *kernel_dirs; /* --kernel-path: more folders kernel files may be in */
    int nkernel_dirs;
    int64_t exact_nodes;            /* --algo=exact: node limit (0 = none) */
    double exact_seconds;           /* --algo=exact: CPU-time limit (0 = none) */
    SchedExactResult *exact_result; /* --algo=exact: what it found, if not NULL */
    SchedSearchStats *search_stats; /* what the local search did, added to if not NULL */
    bool search_unscreened;  /* the local search without its lower bounds (tests: the same
                                result, slower) */
    int64_t search_bb_steps; /* the default's branch and bound after the local search on
                                the classic model: at least N steps of its bound; 0 =
                                the default (sched_default_bb_steps), -1 = none */
} Options;

typedef struct Unit {
    Graph *g;
    Platform *p; /* == g->platform */
    Sched *s;    /* NULL until pass_schedule */
    const Options *opt;
    /* pass_optimize: every parameter of the search (NULL: the defaults with opt's seed
     * and threads), and where its statistics go (NULL: nowhere; when set, -O none
     * evaluates too) */
    const struct BfcoParams *bfco;
    struct OptStats *stats;
} Unit;

/* ------------------------------------------------------------------------------------
 * ir/arena.c
 * ------------------------------------------------------------------------------------ */

Arena *arena_new(void);                /* aborts through ice() when out of memory */
void *arena_alloc(Arena *a, size_t n); /* zeroed, aligned for any type */
void *arena_array(Arena *a, size_t n, size_t size); /* n * size, overflow checked */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) TGC_PRINTF(2, 3);
size_t arena_used(const Arena *a);
void arena_free(Arena *a);
/* calloc(n, size) for memory outside an arena (workspaces freed by their owner); never
 * NULL: out of memory is an internal error. */
void *ir_xcalloc(size_t n, size_t size);
/* malloc(n * size) and realloc(p, n * size), the product checked; never NULL. */
void *ir_xmalloc(size_t n, size_t size);
void *ir_xrealloc(void *p, size_t n, size_t size);
void *ir_xmemdup(const void *p, size_t bytes); /* a malloc'd copy, never NULL */
char *ir_xstrdup(const char *s);               /* strdup, never NULL, as ir_xcalloc */

/* Progress of a long step (the schedule search, BFCO, emission): `done` of `total` units
 * (total 0: unknown), reported by the main thread.  No one listens unless the driver sets
 * ir_progress_hook (tools/progress.c draws a line on a terminal); the passes' results
 * never depend on it. */
extern void (*ir_progress_hook)(const char *step, int64_t done, int64_t total);
/* Set when an error was about the command line itself although found while reading the
 * input (--dsps that is not a whole number of boards of the graph's platform): the driver
 * then exits with the usage status 2, as for every other bad option value. */
extern bool ir_usage_error;
static inline void
ir_progress(const char *step, int64_t done, int64_t total)
{
    if (ir_progress_hook)
        ir_progress_hook(step, done, total);
}

/* ------------------------------------------------------------------------------------
 * ir/arith.c
 * ------------------------------------------------------------------------------------ */

int64_t ir_gcd64(int64_t a, int64_t b); /* a, b >= 0, not both 0 */
/* The next number of the splitmix64 sequence of *state (which it advances). */
uint64_t ir_splitmix64(uint64_t *state);
/* lo + the next number modulo hi - lo + 1: in [lo, hi] (hi >= lo), from one number. */
int64_t ir_rand_range(uint64_t *state, int64_t lo, int64_t hi);

/* ------------------------------------------------------------------------------------
 * ir/clock.c
 * ------------------------------------------------------------------------------------ */

double ir_wall_seconds(void); /* monotonic wall clock: time limits, progress, timings */
double ir_cpu_seconds(void);  /* CPU time of the process, every thread (benchmarks) */

/* ------------------------------------------------------------------------------------
 * ir/diag.c
 * ------------------------------------------------------------------------------------ */

Diag *diag_new(void);
void diag_free(Diag *d);
void diag_error(Diag *d, const Loc *loc, const char *fmt, ...) TGC_PRINTF(3, 4);
void diag_warning(Diag *d, const Loc *loc, const char *fmt, ...) TGC_PRINTF(3, 4);
void diag_note(Diag *d, const Loc *loc, const char *fmt, ...) TGC_PRINTF(3, 4);
void diag_vreport(Diag *d, DiagLevel lv, const Loc *loc, const char *fmt, va_list ap)
    TGC_PRINTF(4, 0);
int diag_errors(const Diag *d);       /* number of errors so far */
const char *diag_text(const Diag *d); /* all messages, one per line, in order */
void diag_flush(Diag *d, FILE *f);    /* write the messages not yet written */
void diag_clear(Diag *d);
/* The closest candidate to `word` by edit distance, or NULL if none is close enough. */
const char *diag_suggest(const char *word, const char *const *cands, size_t ncands);
/* Internal compiler error: names the file and line and aborts. */
TGC_NORETURN void ice_at(const char *file, int line, const char *fmt, ...)
    TGC_PRINTF(3, 4);
#define ice(...) ice_at(__FILE__, __LINE__, __VA_ARGS__)

/* ------------------------------------------------------------------------------------
 * ir/names.c - text and names that several layers judge alike
 * ------------------------------------------------------------------------------------ */

/* Well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF): what
 * jansson accepts in a JSON string. */
bool ir_utf8_valid(const char *s);
/* The one escape of a control character (below 0x20, and DEL) in the text tgc shows:
 * messages (ir/diag.c), the summaries on the terminal, SVG and HTML (XML cannot hold
 * them): \n, \t, \r or \xNN written to esc, NUL-terminated; returns its length, 0 when c
 * is no control character. */
int ir_ctl_escape(unsigned char c, char esc[5]);
/* s with every control character escaped (ir_ctl_escape), in a; s itself when it has none
 * (NULL stays NULL). */
const char *ir_escaped(Arena *a, const char *s);
/* s for a message, in arena a: control bytes as ir_ctl_escape writes them, '"', '\\'
 * and, when s is not valid UTF-8, every byte above 0x7f written as \xNN; at most max
 * bytes of s, then "...". */
char *ir_shown(Arena *a, const char *s, size_t max);
bool ir_c_keyword(const char *s); /* a keyword of C11 or C23 (asm and typeof too) */
/* Why `name` cannot be a kernel's name (docs/kernels.md): "is not a C identifier", "is a
 * C keyword", "is reserved in C (...)", "is reserved for the code tgc generates (...)";
 * NULL when it can. */
const char *ir_kernel_name_problem(const char *name);

/* ------------------------------------------------------------------------------------
 * ir/heap.c - binary min-heap of ints (deterministic ready lists)
 * ------------------------------------------------------------------------------------ */

typedef struct IntHeap {
    int *v; /* room for every element pushed */
    int n;
    bool (*before)(const void *ctx, int a, int b); /* strict total order: a pops first */
    const void *ctx;
} IntHeap;

void ir_heap_push(IntHeap *h, int x);
int ir_heap_pop(IntHeap *h); /* the first element under `before`; ice() when empty */
bool ir_heap_by_index(const void *ctx, int a, int b); /* a < b */

/* ------------------------------------------------------------------------------------
 * ir/graph.c
 * ------------------------------------------------------------------------------------ */

Limits ir_default_limits(void);
Graph *ir_graph_new(void);
void ir_graph_free(Graph *g);
/* Builds succ/pred and topo.  Returns 0, or -1 when zero-delay edges have a cycle (topo
 * is then NULL). */
int ir_graph_index(Graph *g);
int ir_task_find(const Graph *g, const char *id);     /* task index or -1 */
int64_t ir_task_cycles(const Task *t, int dsp);       /* cost on DSP dsp */
double ir_task_mean_cycles(const Task *t, int ndsps); /* mean over the DSPs */
/* Length of the longest zero-delay path counting task costs (mean over DSPs) and, when
 * with_comm, edge costs on the abstract model (bytes).  Requires ir_graph_index. */
int64_t ir_critical_path(const Graph *g, int ndsps, bool with_comm);

/* ------------------------------------------------------------------------------------
 * ir/platform.c
 * ------------------------------------------------------------------------------------ */

/* tgc's Platform of a description (platform/platform.h), routes derived; NULL when the
 * board graph is not connected (the reader has refused such a description already). */
Platform *plat_from_desc(Arena *a, const PlatDesc *d);
/* A preset, or NULL if the name is unknown. */
Platform *plat_preset(Arena *a, const char *name);
/* An abstract-model platform of n DSPs. */
Platform *plat_abstract(Arena *a, int ndsps);
/* A one-board BWDSP platform with the preset defaults of docs/design.md section 2 (no
 * links). */
Platform *plat_bwdsp_defaults(Arena *a);
/* Change the DSP count (--dsps).  BWDSP: n must be a whole number of boards; a new board
 * count takes the presets' topology (2: one link, 4: ring, 16: 4x4 mesh), else a chain.
 * Returns 0; -1 with the reason in *why when n is not a size of this platform; -2 with
 * the reason when the platform would exceed the format's limits (PD_MAX_BOARDS,
 * PD_MAX_ABSTRACT_DSPS: an input error, not a usage error). */
int plat_set_dsps(Arena *a, Platform *p, int ndsps, const char **why);
/* Derive the routes; returns -1 when the board graph is not connected. */
int plat_finish(Arena *a, Platform *p);
int plat_board(const Platform *p, int dsp);
/* Switches a message crosses from DSP a to DSP b (1 on one board). */
int plat_switch_hops(const Platform *p, int a, int b);
/* Packets of an n-byte message: max(1, ceil(n / payload_bytes)). */
int64_t plat_packets(const Platform *p, int64_t bytes);
/* Serialisation time of one packet of s bytes on one link: ceil(s*8*clock/link_mbps). */
int64_t plat_ser(const Platform *p, int64_t s);
/* The directed links a message from DSP a to DSP b holds in turn, written to links[]
 * (room for plat_max_route(p)): DSP a -> its switch, the board links of the tree path,
 * the last switch -> DSP b.  Link ids as the runtime numbers them: 2d DSP d up, 2d + 1
 * DSP d down, 2 ndsps + 2i board link i from links[i].a to .b, + 1 the other way (of
 * several links joining two boards, the last listed).  Returns the count; 0 on the
 * abstract model or when a == b. */
int plat_route(const Platform *p, int a, int b, int *links);
int plat_max_route(const Platform *p);      /* the longest route, in links */
int plat_directed_links(const Platform *p); /* 2 ndsps + 2 nlinks (0 if abstract) */
/* Contention-free fabric time of an n-byte message from DSP a to DSP b (section 4);
 * the abstract model returns n. */
int64_t plat_fabric_time(const Platform *p, int a, int b, int64_t bytes);
/* Cost of an edge of n bytes between two DSPs for list scheduling: the whole path of a
 * single blocking message (send overhead, handshake, fabric, receive overhead); 0 when
 * a == b; n on the abstract model. */
int64_t plat_comm_cost(const Platform *p, int a, int b, int64_t bytes);
/* Mean of plat_comm_cost over all ordered pairs of distinct DSPs (HEFT's mean cost). */
int64_t plat_mean_comm_cost(const Platform *p, int64_t bytes);
/* Bytes of one edge or message: the generated code holds a buffer's size in an int, with
 * a factor of two to spare (backend/emit_c.c refuses more, whatever built the graph);
 * fe_check refuses an edge over it, so that check refuses what compile refuses. 2^30 - 1.
 */
#define IR_MAX_BYTES (INT64_C(1073741823))

/* Times in cycles fit in IR_MAX_TIME (2^62): then every sum the evaluator, the scheduler
 * and the runtime form of two such times fits in an int64_t.  plat_fabric_time,
 * plat_comm_cost and plat_length_bound saturate at INT64_MAX instead of overflowing. */
#define IR_MAX_TIME (INT64_C(1) << 62)
static inline int64_t
ir_add_sat(int64_t a, int64_t b) /* a, b >= 0 */
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}
static inline int64_t
ir_mul_sat(int64_t a, int64_t b) /* a, b >= 0 */
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
/* An upper bound on the length in cycles of every schedule of g on p, whatever its
 * mapping, merges, pipelines and contention (docs/evaluator.md, "Arithmetic"): the sum
 * over all iterations of the largest cost of every task and of what every edge can cost
 * as a message (overheads, pack and unpack, handshake, every packet on every link of the
 * longest route, switch latencies), plus the prologs.  The length is a chain of such
 * activities, each counted once.  Saturates at INT64_MAX; fe_check refuses a graph whose
 * bound exceeds IR_MAX_TIME, so nothing the passes compute can overflow. */
int64_t plat_length_bound(const Platform *p, const Graph *g);
/* The per-iteration part of plat_length_bound: tasks (*work) and edges (*comm). */
void plat_iteration_bound(const Platform *p, const Graph *g, int64_t *work,
                          int64_t *comm);
double plat_cycles_to_us(const Platform *p, int64_t cycles);

/* ------------------------------------------------------------------------------------
 * ir/sched.c
 * ------------------------------------------------------------------------------------ */

Sched *ir_sched_new(const Graph *g, const Platform *p);
void ir_sched_free(Sched *s);
Sched *ir_sched_copy(const Sched *s);
void ir_sched_push_op(Sched *s, int dsp, OpKind kind, int ref);
int ir_sched_add_msg(Sched *s, int src, int dst, const int *edges, int nedges);
/* The first DSP from d on that has an operation, or s->ndsps: the DSPs d .. that - 1 are
 * idle (none when d has an operation).  The summaries and the schedule graph show such a
 * run of idle DSPs as one. */
int ir_sched_idle_end(const Sched *s, int d);
/* Checks the invariants of a schedule (every task computed once on its mapped DSP, every
 * cross-DSP edge carried by exactly one message, sends before receives in the same order
 * per pair, ...).  Reports through d and returns -1 on the first broken one. */
int ir_sched_verify(const Sched *s, Diag *d);

/* ------------------------------------------------------------------------------------
 * frontend/load.c - tgc-graph/1 reader (jansson); the accepted schema is at its top
 * ------------------------------------------------------------------------------------ */

/* Reads a graph from a file ("-" = standard input), resolves its platform (opt->platform
 * overrides the graph's, opt->dsps resizes it) and runs the semantic checks.  Returns
 * NULL after reporting every error of the pass through d. */
Graph *fe_load_graph(const char *path, const Options *opt, Diag *d);
/* The same from a string; `name` stands for the file in messages. */
Graph *fe_load_graph_string(const char *text, const char *name, const Options *opt,
                            Diag *d);

/* ------------------------------------------------------------------------------------
 * frontend/expand.c - the single-rate expansion of a multi-rate graph (SDF to HSDF,
 * docs/formats.md "The expansion") and the pass that applies it
 * ------------------------------------------------------------------------------------ */

/* The expansion of g (fe_check accepted it): a new graph whose tasks are the firings and
 * whose edges carry the tokens between them, with their firings and ports (g->firing,
 * g->ports), indexed.  It shares strings and arrays with g, which must outlive it. */
Graph *fe_expand(const Graph *g);
/* Whether g's expansion differs from g: a rate other than 1, or a flattened graph in
 * which some actor's ports (g->from_rank, g->to_rank) are not in the order of its edges.
 */
bool fe_expansion_needed(const Graph *g);
/* Replaces u->g by its expansion in place (u->g->original keeps the multi-rate graph);
 * nothing when !fe_expansion_needed(g).  The first pass of passes/passes.def. */
int pass_expand(Unit *u, Diag *d);

/* ------------------------------------------------------------------------------------
 * frontend/platform_json.c - where tgc finds a platform (the reader: platform/read.c)
 * ------------------------------------------------------------------------------------ */

/* `ref` is a preset name or a path to a tgc-platform/1 file (relative paths are taken
 * from base_dir when not NULL).  Returns NULL after reporting (unknown preset: "did you
 * mean"). */
Platform *fe_load_platform(Arena *a, const char *ref, const char *base_dir, Diag *d);

/* ------------------------------------------------------------------------------------
 * frontend/check.c - semantic checks of a lowered graph
 * ------------------------------------------------------------------------------------ */

/* Every check of docs/design.md section 2 and docs/formats.md; returns the number of
 * errors reported. */
int fe_check(Graph *g, const Options *opt, Diag *d);

/* ------------------------------------------------------------------------------------
 * frontend/import_stg.c, frontend/import_dot.c - importers (tgc import)
 * ------------------------------------------------------------------------------------ */

/* Standard Task Graph Set file -> graph on the abstract model, zero edge costs. */
Graph *fe_import_stg(const char *path, const Options *opt, Diag *d);
/* Graphviz DOT (cgraph) with node/edge attribute Weight (or cycles / bytes). */
Graph *fe_import_dot(const char *path, const Options *opt, Diag *d);
/* An SDF3 synchronous dataflow graph (XML, libxml2) -> a multi-rate graph: actors as
 * tasks with the execution time of their default processor (or of `processor` when not
 * NULL), channels as edges with rates, initial tokens and token sizes, the throughput
 * constraint as period_constraint; on opt's platform (default bwdsp-1board). */
Graph *fe_import_sdf3(const char *path, const Options *opt, const char *processor,
                      Diag *d);

/* ------------------------------------------------------------------------------------
 * frontend/sched_json.c - tgc-schedule/1 reader (tgc schedule --from)
 * ------------------------------------------------------------------------------------ */

/* Reads a schedule file: the embedded graph and platform and the schedule.  *gout
 * receives the graph (the caller frees it with ir_graph_free after ir_sched_free).  NULL
 * on error. */
Sched *fe_load_schedule(const char *path, const Options *opt, Graph **gout, Diag *d);

/* ------------------------------------------------------------------------------------
 * passes/schedule/ - initial schedule: insertion-based HEFT, then a local search whose
 * objective is the evaluated length over all iterations
 * ------------------------------------------------------------------------------------ */

int pass_schedule(Unit *u, Diag *d); /* fills u->s; 0, or -1 after reporting */

/* Branch and bound for the one-iteration length in the classic model (the abstract
 * model's evaluator): *s is the incumbent (NULL: HEFT's), replaced by a shorter
 * schedule when one exists (messages inserted).  node_limit (0 = none) and seconds (CPU,
 * 0 = none) bound the search. */
int sched_exact(const Graph *g, const Platform *p, Sched **s, int64_t node_limit,
                double seconds, SchedExactResult *r);
/* The same within a count of the bound's steps (a task's earliest start on a DSP: its
 * edges in + 1), not a clock (deterministic): at least `steps`, and while shorter
 * schedules still come, on to twice the count when the last one came, at most step_cap.
 * The default's last step on the classic model (pass_schedule, sched_default_bb_steps).
 */
int sched_exact_grow(const Graph *g, const Platform *p, Sched **s, int64_t steps,
                     int64_t step_cap, SchedExactResult *r);
/* List scheduling of one iteration (zero-delay edges only), insertion-based, costs from
 * ir_task_cycles and plat_comm_cost; pinned tasks stay on their DSP.  HEFT: upward rank
 * with mean costs; PEFT (Arabnejad and Barbosa 2014): optimistic cost table.  *out gets a
 * schedule of COMPUTE operations only, in start order per DSP (comm_insert adds the
 * messages); ranks_out ([ntasks], may be NULL) the priorities (upward rank, or the OCT
 * rank); makespan_out (may be NULL) the makespan in the list scheduler's own cost model.
 * Returns 0, or -1 after reporting (zero-delay cycle, bad pin, cost list of wrong size).
 */
int sched_heft(const Graph *g, const Platform *p, Sched **out, double *ranks_out,
               int64_t *makespan_out, Diag *d);
int sched_peft(const Graph *g, const Platform *p, Sched **out, double *ranks_out,
               int64_t *makespan_out, Diag *d);
/* Multi-start list scheduling: forward-backward improvement (list-schedule the reversed
 * graph with the forward schedule's finish times as priorities, then the graph with the
 * backward finish times, while the makespan shrinks) from the upward ranks (the first
 * forward pass is HEFT's schedule), then from ranks perturbed by up to +-25%, `runs`
 * restarts, stopping once the makespan reaches lb (-1: never).  Returns the best forward
 * schedule (COMPUTE operations only, like sched_heft; NULL when g has no task) and its
 * list makespan in *makespan (may be NULL).  Deterministic; a larger `runs` never gives
 * a longer schedule. */
Sched *sched_multi_start(const Graph *g, const Platform *p, int runs, int64_t lb,
                         int64_t *makespan);
/* The optimistic cost table of PEFT, [ntasks * ndsps] row-major; 0, or -1 if cyclic. */
int sched_oct(const Graph *g, const Platform *p, double *oct_out);
/* Single-iteration makespan of s's mapping and per-DSP COMPUTE order (other operations
 * ignored), every task as early as its order and its inputs allow, edge costs from
 * plat_comm_cost: the list scheduler's cost model.  Equals HEFT's makespan on its own
 * schedule. */
int64_t sched_list_makespan(const Sched *s);
/* Local search: moves, swaps and reorders (kept consistent with the zero-delay
 * precedences), first improvement of the objective over g->iterations, at most `budget`
 * candidate schedules judged (each one eval_length, or two), pinned tasks fixed.  The
 * objective is eval_length of the schedule as comm_insert leaves it when `plain`, else
 * the shorter of that and its eval_length with every receive pipelined that the cp
 * baseline pipelines (bfco_cp_pipes). Replaces *s by the best schedule found (messages
 * inserted, none pipelined) and returns its objective (-1 if every schedule tried
 * deadlocks). */
struct Evaluator; /* passes/evaluate/ */
int64_t sched_local_search(Sched **s, struct Evaluator *ev, int64_t budget, bool plain);
/* The same, stopping as soon as the objective reaches lb (a lower bound; -1 = none). */
int64_t sched_local_search_lb(Sched **s, struct Evaluator *ev, int64_t budget, bool plain,
                              int64_t lb);
/* The same with the screen of lower bounds on or off (docs/scheduler.md, "Screening by
 * lower bounds"): the result is the same either way, the screen only spares
 * evaluations.  Adds its counts to *st (NULL: none). */
int64_t sched_local_search_screen(Sched **s, struct Evaluator *ev, int64_t budget,
                                  bool plain, int64_t lb, bool screen,
                                  SchedSearchStats *st);
/* A lower bound of the length of any schedule of g over its iterations: the longest path
 * of cheapest task costs over the zero-delay edges, iterations x the cheapest work over
 * the DSPs (rounded up), and iterations x the work pinned to any one DSP. */
int64_t sched_lower_bound(const Graph *g, const Platform *p);
/* The budget that search_budget = -1 stands for with that objective: about 3e8
 * operation steps of the evaluator within [4, 4000] candidates; one iteration about
 * 1.5e6 steps within [200, 20000]. */
int64_t sched_default_budget(const Graph *g, bool plain);
/* The steps of the default's branch and bound (search_bb_steps = 0), at least and at
 * most (*cap; sched_exact_grow), for one iteration on the abstract model, the classic
 * model where sched_exact applies; 0 elsewhere. */
int64_t sched_default_bb_steps(const Graph *g, const Platform *p, int64_t *cap);

/* ------------------------------------------------------------------------------------
 * passes/comm.c - message insertion
 * ------------------------------------------------------------------------------------ */

/* Given a schedule whose DSPs hold only COMPUTE operations (mapping and order set),
 * inserts one message per edge across DSPs: its SEND on the source DSP right after the
 * producer, its RECV on the destination DSP right before the first consumer, per DSP pair
 * in the same order on both sides.  Existing SEND/RECV operations and messages are
 * dropped first. */
void comm_insert(Sched *s); /* called by pass_schedule: there is no separate comm pass */

/* ------------------------------------------------------------------------------------
 * passes/evaluate/ - the execution model of docs/design.md section 3 over all iterations
 * ------------------------------------------------------------------------------------ */

typedef struct Evaluator Evaluator; /* reusable workspace for the hot loop (BFCO) */

/* A workspace for any schedule of graph g on platform p (at most g->ntasks + 2 *
 * g->nedges operations and g->nedges messages). */
Evaluator *eval_new(const Graph *g, const Platform *p);
/* A workspace whose eval_length is a lower bound of the length of the schedule with any
 * pipelined flags, with and without contention (the rules relaxed: evaluate/evaluate.c).
 */
Evaluator *eval_new_bound(const Graph *g, const Platform *p);
void eval_free(Evaluator *ev);
/* Schedule length in cycles, or -1 when the schedule deadlocks.  Allocates nothing. */
int64_t eval_length(Evaluator *ev, const Sched *s);
/* eval_length in a workspace of its own, for a caller that evaluates a schedule once. */
int64_t eval_length_of(const Sched *s);
/* eval_length when the length is below cutoff; otherwise EVAL_NOT_BELOW (or -1 when a
 * deadlock shows before the cutoff does), usually long before the run's end: it stops
 * once a DSP's time plus the work it must still do reaches the cutoff.  Exact: a length
 * below the cutoff is never cut (docs/evaluator.md, "Cost").  For the searches, which
 * only ask whether a schedule betters a length. */
enum { EVAL_NOT_BELOW = -2 };
int64_t eval_length_below(Evaluator *ev, const Sched *s, int64_t cutoff);
/* Full evaluation: fills r (arrays from arena a) with times of the iterations chosen by o
 * (NULL records none; op times of instances a deadlock never reached are -1),
 * busy/idle per DSP and, on deadlock, the blocking cycle.  Returns 0, or -1 on deadlock.
 */
int eval_run(const Sched *s, const EvalOpts *o, EvalResult *r, Arena *a);
/* eval_run in the workspace ev (made by eval_new for s's graph and platform): the same
 * result, without building a workspace per call (BFCO's TIS/TEIR run). */
int eval_run_with(Evaluator *ev, const Sched *s, const EvalOpts *o, EvalResult *r,
                  Arena *a);
/* The steady state of a schedule (docs/throughput.md): from iteration `from` on, every
 * `iterations` iterations the whole run repeats `cycles` cycles later; the period is
 * their ratio.  Found on the schedule repeated: a run of `run` iterations (more than the
 * graph's when they are too few), stopped by nothing but its end. */
typedef struct EvalPeriod {
    bool found;   /* the run repeated; else its parts run at different rates */
    bool reached; /* the graph's own iterations show it: the regime and two periods
                     come before its last iterations, and every message is sent */
    Ratio period; /* cycles per iteration, cycles / iterations in lowest terms */
    int64_t cycles, iterations; /* the repetition as found */
    int64_t from;               /* the iteration the regime starts at (or before) */
    int64_t run;                /* iterations of the run that looked for it */
} EvalPeriod;
/* The steady state of s (ev made by eval_new for its graph and platform, contention as
 * the platform says).  Returns 0 (out->found tells whether there is one), -1 when the
 * schedule deadlocks. */
int eval_period(Evaluator *ev, const Sched *s, EvalPeriod *out);
int eval_period_of(const Sched *s, EvalPeriod *out); /* in a workspace of its own */
/* Writes a deadlock cycle as "DSP 0: RECV m3 (iteration 0) -> DSP 1: ..." into d. */
void eval_report_deadlock(const Sched *s, const EvalResult *r, Diag *d);
int pass_verify(Unit *u, Diag *d); /* evaluates u->s; reports a deadlock as an error */

/* ------------------------------------------------------------------------------------
 * passes/period_bound.c - the period bound: the maximum cycle ratio of the graph with its
 * delays, on unlimited DSPs without communication (docs/throughput.md)
 * ------------------------------------------------------------------------------------ */

/* What period_bound found. */
typedef struct PeriodBound {
    Ratio bound;      /* cycles per iteration that no schedule's period can beat */
    int *cycle;       /* a critical cycle: its tasks in order, ncycle of them */
    int *cycle_edges; /* [ncycle] the edge from cycle[i] to the next task, or -1 for the
                         task's own sequence (one task, one delay) */
    int ncycle;
    int64_t cycle_cycles, cycle_tokens; /* the cycle's cost and delays (bound = their
                                           ratio, reduced) */
} PeriodBound;

Ratio period_ratio(int64_t num, int64_t den); /* num / den reduced; num >= 0, den > 0 */
int period_ratio_cmp(Ratio a, Ratio b);       /* -1, 0 or 1, exactly */
double period_ratio_value(Ratio r);
/* The maximum over the cycles C of a directed graph of sum w(C) / sum t(C) (arcs
 * from[e] -> to[e], weights w >= 0, transits t >= 0), exactly, by Howard's policy
 * iteration.  Nodes that reach no cycle are ignored.  cycle[] (room for m arcs) receives
 * the arcs of a cycle of that ratio, *ncycle their count.  Returns 0 (0 / 1 and no cycle
 * when the graph has none); -1 when a cycle has no transit at all (cycle[] is it); -2
 * when the sums of the nodes' largest weights or transits reach 2^62 (beyond exact
 * 128-bit arithmetic). */
int period_max_cycle_ratio(int n, int m, const int *from, const int *to, const int64_t *w,
                           const int64_t *t, Ratio *out, int *cycle, int *ncycle);
/* The cost the bound gives a task: its pinned DSP's, else its cheapest. */
int64_t period_task_cycles(const Graph *g, const Platform *p, int task);
/* The period bound of g (its edges with their delays and every task's own sequence;
 * docs/throughput.md), the cycle's arrays from arena a.  Returns period_max_cycle_ratio's
 * status (-1: a zero-delay cycle, which fe_check refuses). */
int period_bound(const Graph *g, const Platform *p, PeriodBound *pb, Arena *a);

/* ------------------------------------------------------------------------------------
 * passes/bfco/, passes/baselines.c - communication optimisation ([BFCO] in
 * docs/references.md, docs/bfco.md): message aggregation and communication pipelining
 * on a schedule as comm_insert leaves it
 * ------------------------------------------------------------------------------------ */

typedef struct BfcoParams {
    int particles;     /* 0 = from the number of decision variables */
    int generations;   /* 0 = default (100) */
    int stall;         /* a stall: this many generations without a better gbest; -1 =
                          default (20 at most 64 messages, else 3), 0 = never */
    int restarts;      /* at a stall, restart the swarm (gbest kept) this many times, then
                          stop; -1 = default (3 at most 64 messages, else 0) */
    double time_limit; /* seconds (wall) for the search, 0 = none; the result then
                          depends on the machine's speed */
    int threads;       /* evaluation threads; the result does not depend on it */
    uint64_t seed;
    int window; /* merge candidates: same-class messages at most this far apart in send
                   order (0 = every pair) */
    double w_start, w_end; /* inertia, decreasing linearly over the generations */
    double c1, c2, vmax, mutation;
    double epsilon;  /* TIS/TEIR slack */
    bool vshaped;    /* V-shaped transfer function instead of the paper's sigmoid */
    bool joint;      /* a pipeline bit per receive in the particle, searched jointly */
    int joint_units; /* joint also without `joint` when the base has at most this many
                        messages (default 64; 0 = only with joint) */
    bool polish;     /* toggle single pipelines of the best particle while it improves */
    int64_t polish_budget;  /* evaluations of the polish; -1 = from the search's */
    int64_t descent_budget; /* moves the descent tries (docs/bfco.md); -1 = 4 per
                               particle evaluated, 0 = no descent */
    int kicks;          /* the descent's iterated local search stops after this many kicks
                           in a row that keep nothing; -1 = default (none), 0 = no
                           kicks */
    int kick_moves;     /* random moves of a kick */
    int fitness_passes; /* after the last descent, passes of its moves on the fitness
                           while one keeps a move; -1 = default (4 at most 64 messages,
                           else 0), 0 = none */
    int64_t es_limit;   /* es refuses more configurations than this */
    /* polish: evaluate every toggle that can be kept, also those that lengthen the
     * contention-free length (docs/bfco.md) */
    bool polish_all;
    /* tests: the descent's tables of surrogates and of inputs off (the same result, more
     * evaluations) */
    bool no_tables;
    /* the benchmark of the descent's rules (docs/bfco.md, "The descent's rules"): the
     * rules switched off, BFCO_RULE_* bits (bfco_rule_names) */
    unsigned rules_off;
} BfcoParams;

/* The descent's rules that BfcoParams.rules_off switches off, one bit each, in the order
 * of bfco_rule_names (passes/bfco/descent.c says what each is). */
enum {
    BFCO_RULE_CONVERGE = 1u << 0,  /* up to 800 messages, passes to a local optimum */
    BFCO_RULE_REACH = 1u << 1,     /* a pass that fits: passes beyond the budget */
    BFCO_RULE_GATHERS = 1u << 2,   /* above 800 messages, the gather moves */
    BFCO_RULE_KINDS = 1u << 3,     /* the first pass picks the kind kept more often */
    BFCO_RULE_FIRST_CAP = 1u << 4, /* above 800: the first pass within 10 budgets */
    BFCO_RULE_PASS_GAIN = 1u << 5, /* above 800: later passes while they gain 0.1 % */
    BFCO_RULE_CUT = 1u << 6,       /* after a first pass of < 10 %: cut passes, 1 % */
    BFCO_RULE_CONTENDED = 1u << 7, /* above 800: the contended surrogate */
    BFCO_RULE_JUDGE = 1u << 8,     /* a capped first pass judged every budget */
    BFCO_RULE_CONVERGE_CONTENDED = 1u << 9, /* contended passes to a local optimum */
    BFCO_RULE_NEAR_SENDS = 1u << 10,        /* above 800: the near-sends start */
    BFCO_RULE_ORDER = 1u << 11,             /* later passes by the moves' last change */
    BFCO_RULE_FROM_NONE = 1u << 12,         /* the descent from no merge too */
    BFCO_RULE_PASS_ENDS = 1u << 13,         /* above 800: the shortest pass end kept */
    BFCO_RULE_RELOCATE = 1u << 14,          /* up to 800 messages, the relocation moves */
    BFCO_RULES = 15
};
/* "converge", "reach", ...: the names of the bits above, for --rule-off */
extern const char *const bfco_rule_names[BFCO_RULES];

typedef struct OptStats {
    int64_t length;      /* evaluated length of the returned schedule */
    int msgs_before;     /* messages of the input schedule */
    int msgs_after;      /* messages after merging */
    int merged_groups;   /* messages carrying more than one edge */
    int pipelined;       /* pipelined receives */
    int64_t evaluations; /* eval_length / eval_run calls */
    double seconds;
    int nbits;                  /* decision variables (MA/NOMA entries) */
    int particles, generations; /* bfco: as run */
    int restarts;               /* bfco: restarts made */
    int64_t cache_hits;         /* bfco: particles whose repaired merge was known */
    int64_t polish_evals;       /* bfco: evaluations of the polish */
    int64_t descent_moves;      /* bfco: moves the descent tried (surrogates) */
    int64_t fitness_moves;      /* bfco: moves tried on the fitness after the descent */
    bool joint;                 /* bfco: the joint pipeline bits were searched */
    int64_t bound_evals; /* bfco: evaluations without contention (lower bounds), not in
                            evaluations */
} OptStats;

void bfco_default_params(BfcoParams *bp);
/* Optimises base (one message per cross-DSP edge, as comm_insert leaves it) with method
 * m. *out receives a new schedule (the caller frees it).  Returns 0, or -1 after
 * reporting (es above its limit, a deadlocking base). */
int opt_run(const Sched *base, OptMethod m, const BfcoParams *bp, Sched **out,
            OptStats *st, Diag *d);
int pass_optimize(Unit *u, Diag *d); /* u->s optimised by u->opt->method and seed */
const char *opt_method_name(OptMethod m);
int opt_method_parse(const char *name, OptMethod *m); /* 0, or -1 if unknown */

/* Merge groups applied to base: group[m] names the group of base message m (messages with
 * the same value are merged; all must join the same DSP pair with the same delay).  With
 * repair, path conflicts, cycles and order are repaired as BFCO does and *released counts
 * the merges given up; without, the merged send sits at the last member's slot and the
 * merged receive at the first member's, nothing else moves.  No pipelining.  NULL when
 * the groups are not mergeable (different pairs or delays). */
Sched *opt_merge(const Sched *base, const int *group, bool repair, int *released);

/* ------------------------------------------------------------------------------------
 * backend/graph_json.c - tgc-graph/1 and tgc-platform/1 writers (importers, schedule
 * files)
 * ------------------------------------------------------------------------------------ */

/* Both return a NUL-terminated malloc'd string of the JSON document (caller frees). */
char *cg_graph_json(const Graph *g);
/* cg_graph_json for a file at out_path: kernel paths relative to the file's folder (as
 * the reader takes them); out_path NULL or "-" writes them as they are. */
char *cg_graph_json_file(const Graph *g, const char *out_path);
char *cg_platform_json(const Platform *p);
/* The same with every field written, defaults included (the generated platform.json). */
char *cg_platform_json_explicit(const Platform *p);

/* ------------------------------------------------------------------------------------
 * backend/sched_json.c, backend/dot.c, backend/gantt.c - schedules a person can read
 * ------------------------------------------------------------------------------------ */

char *cg_sched_json(const Sched *s, const EvalResult *r);  /* tgc-schedule/1 */
char *cg_sched_dot(const Sched *s, const EvalResult *r);   /* via cgraph */
char *cg_sched_gantt(const Sched *s, const EvalResult *r); /* SVG */
/* The Gantt chart's width in pixels (its height grows with the lanes), and the largest
 * zoom of the report's (1, 2, 4 ... CG_GANTT_ZOOM_MAX): the chart's root has
 * preserveAspectRatio="none", its group "names" (the title, the legend, the lanes' names)
 * is left unstretched by the report and its group "time" stretched, and the label of a
 * box that fits only from zoom z on has the classes "zl zZ" (hidden outside the report).
 */
enum { CG_GANTT_WIDTH = 1260, CG_GANTT_ZOOM_MAX = 32, CG_GANTT_LEFT = 130 };
/* The critical path of iteration 0, worked out from r's times: the chain of operations
 * that determined the last finish.  dsp[] and op[] (room for every operation) receive it
 * in execution order; returns its length, 0 when r does not record iteration 0. */
int cg_critical_path(const Sched *s, const EvalResult *r, int *dsp, int *op);
/* cg_sched_json for a file at out_path: kernel paths written relative to the file's
 * folder (as the reader takes them); out_path NULL or "-" writes them as they are. */
char *cg_sched_json_file(const Sched *s, const EvalResult *r, const char *out_path);

/* ------------------------------------------------------------------------------------
 * backend/report.c - the HTML report of a schedule (tgc report, tgc opt --report)
 * ------------------------------------------------------------------------------------ */

/* One row of the report's table of methods. */
typedef struct CgReportMethod {
    const char *name;   /* none, ma, cp, bfco, es */
    const char *error;  /* why the method gave no schedule (es refused), or NULL */
    const OptStats *st; /* its results when error is NULL */
    double improvement; /* percent of the length of none */
    bool shown;         /* the schedule the page shows */
} CgReportMethod;
/* The schedule graph is drawn up to this many operations and this many columns (a busy
 * DSP or a run of idle DSPs each), for dot's layout time. */
enum { CG_REPORT_GRAPH_MAX = 1600, CG_REPORT_COLUMNS_MAX = 256 };
/* The throughput rows of the report's summary (docs/throughput.md). */
typedef struct CgThroughput {
    const EvalPeriod *period; /* the schedule's steady state */
    const PeriodBound *bound; /* the graph's period bound, NULL when there is none */
    int64_t constraint;       /* the graph's period_constraint, 0 = none */
} CgThroughput;
/* What a run of the generated program measured (tgc run --report), shown beside the
 * evaluator's prediction with the difference. */
typedef struct CgSimulated {
    const char *target;                  /* sim, threads, openmpi, mpich */
    int64_t length;                      /* the run's cycles */
    int64_t packets, predicted_packets;  /* -1: not printed by the program */
    int64_t period_cycles, period_iters; /* the measured steady state, 0 = none */
    const int64_t *compute, *end;        /* [ndsps] each DSP's compute cycles, its end */
} CgSimulated;
/* One self-contained HTML page of schedule s evaluated as r (not deadlocked; r records
 * iteration 0 and the iterations the Gantt chart shows): summary (with the period, its
 * bound and the constraint when tp is not NULL), methods (when nmethods > 0), DSPs, the
 * Gantt chart and the schedule graph as inline SVG, the operations.  *drawn receives
 * whether the graph is drawn.  With sim (not NULL), the section "Predicted and
 * simulated" puts the run's figures beside r's.  Returns the malloc'd page, or NULL after
 * reporting through d (Graphviz failed). */
char *cg_sched_report(const Sched *s, const EvalResult *r, const CgReportMethod *methods,
                      int nmethods, const CgThroughput *tp, const CgSimulated *sim,
                      bool *drawn, Diag *d);

/* ------------------------------------------------------------------------------------
 * backend/emit_c.c, backend/sanitize.c - the generated C project (docs/design.md section
 * 6, docs/kernels.md): one file per DSP, main.c, the sequential reference, the kernels
 * ------------------------------------------------------------------------------------ */

typedef struct CgFile {
    const char *name; /* file name inside the project directory */
    char *data;       /* malloc'd contents */
    size_t len;
    bool unit; /* a C translation unit the build compiles (both programs, or the one of
                  main.c / seq.c / dspK.c) */
} CgFile;

typedef struct CgProject {
    CgFile *files; /* in a fixed order: same input, same files, same bytes */
    int nfiles;
    int ndsps;
} CgProject;

/* The project of schedule s (deadlock-free, as pass_verify leaves it); predicted is its
 * evaluation (length; iteration 0 recorded, if at all, for the comments).  Reads the
 * graph's kernel source and header.  Returns 0, or -1 after reporting (unreadable
 * kernels, a kernel name that is not a C identifier, an edge too large for MPIRIO ...).
 */
int cg_emit_c(const Sched *s, const EvalResult *predicted, CgProject *out, Diag *d);
/* The same for a target: CG_TARGET_SIM (what cg_emit_c writes), CG_TARGET_OPENMPI or
 * CG_TARGET_MPICH, whose CMakeLists.txt builds the parallel program for that MPI by
 * default (TGC_TARGET; the C files are the same for every target, docs/cluster.md), or
 * CG_TARGET_THREADS, both programs on the host's threads (docs/threads.md). */
enum { CG_TARGET_SIM, CG_TARGET_OPENMPI, CG_TARGET_MPICH, CG_TARGET_THREADS };
int cg_emit_c_for(const Sched *s, const EvalResult *predicted, int target, CgProject *out,
                  Diag *d);
void cg_project_free(CgProject *p);
/* tools/output.c writes a project into its directory (out_project). */

typedef struct CgNames CgNames; /* the identifiers handed out so far in one C file */
CgNames *cg_names_new(void);
void cg_names_free(CgNames *n);
void cg_names_reserve(CgNames *n,
                      const char *name); /* never handed out by cg_names_add */
bool cg_names_has(const CgNames *n, const char *name); /* handed out or reserved */
/* A valid, unique, non-keyword C identifier made of prefix and raw (any bytes); owned by
 * n. */
const char *cg_names_add(CgNames *n, const char *prefix, const char *raw);
bool cg_is_c_keyword(const char *s);
bool cg_is_c_ident(const char *s); /* a valid identifier and no keyword */
char *cg_c_string(const char *s);  /* malloc'd C string literal (quotes included) of s */
char *cg_c_comment(const char *s); /* malloc'd text of s that is safe inside a comment */

#endif /* TGC_IR_H */
