/*
 * frontend/fe.h - declarations private to the frontend (the readers share jansson values,
 * which ir/ir.h must not know about).  Nothing outside frontend/ includes this file.
 *
 * A Reader is the state of reading one JSON file: where messages go, the name that stands
 * for the file in them, the folder relative paths are taken from, the input limits, and a
 * scratch arena for JSON Pointers and other text that dies with the reader.
 */
#ifndef TGC_FE_H
#define TGC_FE_H

#include <jansson.h>

#include "ir.h"

/* Maxima of single values, chosen so that sums over every task, edge and iteration stay
 * far from int64 overflow (fe_check also bounds the totals times the iterations by 2^62).
 */
#define FE_MAX_CYCLES (INT64_C(1) << 40) /* cycles of one task on one DSP */
#define FE_MAX_BYTES IR_MAX_BYTES        /* bytes of one edge (2^30 - 1) */
#define FE_MAX_DELAY 1000000             /* iterations of delay of one edge */
#define FE_MAX_TOTAL (INT64_C(1) << 62)  /* work or traffic summed over all iterations */
#define FE_MAX_RATE (INT64_C(1) << 31)   /* tokens per firing on one channel */
#define FE_MAX_TOKENS (INT64_C(1) << 40) /* initial tokens of one channel */
#define FE_MAX_FIRINGS INT32_MAX         /* firings of one actor in an expanded graph */

typedef struct Reader {
    Diag *d;
    const char *file; /* name in messages: the path as given, or "<stdin>" */
    const char
        *base_dir; /* folder of relative paths in the file; NULL = current folder */
    const Limits *lim;
    Arena *tmp; /* scratch, freed with the reader */
    /* Subgraphs (frontend/hier.c): reading a subgraph's file (interface ports allowed,
     * the top-level fields refused); the files being read, innermost first; the options
     * of the load */
    bool subgraph;
    const struct FeStack *stack;
    const Options *opt;
    int64_t *loaded; /* tasks of the subgraph files read so far (all of a load) */
    /* fe_check of a flattened graph: the graph whose task_origin and edge_origin say
     * where /tasks/i and /edges/j were written (fe_loc) */
    const Graph *origins;
} Reader;

/* The files being read, a subgraph's inside the file that names it. */
typedef struct FeStack {
    const char *real;  /* its canonical path (NULL for standard input and strings) */
    const char *shown; /* as messages name it */
    const struct FeStack *up;
    int depth;
} FeStack;

/* What a task or an edge pointer of r->origins points at: "/tasks/i..." and
 * "/edges/j..." of a flattened graph in the file they were written in, anything else in
 * r->file. */
Loc fe_loc(Reader *r, const char *ptr);
/* "/edges/3" for an edge written in the file of the message's location `at` (NULL:
 * r->file), "/edges/1 of sub.json" for one written elsewhere (for the text of messages);
 * kind "tasks" or "edges".  In r->tmp. */
const char *fe_ref(Reader *r, const Loc *at, const char *kind, int i);

/* frontend/load.c's lowering of a graph document (everything but the platform), for
 * subgraphs. */
void fe_lower(Reader *r, Graph *g, const json_t *root);
/* frontend/hier.c: replaces every task of g whose body is a subgraph file ("graph") by
 * the actors of that file, flattened with its rates (docs/formats.md, "Subgraphs"); reads
 * the interface ports of g's own file (r->subgraph) into *iface.  Returns the errors it
 * reported. */
typedef struct FePort {
    const char *name;
    int task;     /* the actor the port's tokens enter or leave, in g once flattened */
    int64_t rate; /* its tokens per firing of that actor */
    int rank;     /* its place among that actor's channels on that side */
} FePort;
typedef struct FeIface {
    FePort *in, *out;
    int nin, nout;
} FeIface;
int fe_flatten(Reader *r, Graph *g, const json_t *root, FeIface *iface);

/* Where platform/'s readers report for r: its diagnostics. */
PdSink fe_sink(Reader *r);
/* Reports "FILE: /pointer: error: msg" (ptr "" is the whole document). */
void fe_error(Reader *r, const char *ptr, const char *fmt, ...) TGC_PRINTF(3, 4);
/* ptr + "/" + key with RFC 6901 escapes (~0, ~1), in r->tmp. */
const char *fe_ptr_key(Reader *r, const char *ptr, const char *key);
const char *fe_ptr_index(Reader *r, const char *ptr, size_t i);
/* "a string", "an array", "null", "1.5", ... for "got ..." in messages (in r->tmp). */
const char *fe_describe(Reader *r, const json_t *v);
/* Reports every key of object o that is not in known[] and does not start with "x-":
 * unknown field "cylces" (did you mean "cycles"?). */
void fe_unknown_fields(Reader *r, json_t *o, const char *ptr, const char *const *known,
                       size_t nknown);
/* An integer value, or a real with an integral value.  Reports a type error naming `what`
 * and returns false otherwise. */
bool fe_int(Reader *r, const json_t *v, const char *ptr, const char *what, int64_t *out);
/* A string value; reports and returns NULL otherwise. */
const char *fe_string(Reader *r, const json_t *v, const char *ptr, const char *what);
/* Range message shared by the readers and fe_check: "X must be >= LO, got V" or
 * "X must be at most HI, got V".  Returns false when v is out of [lo, hi]. */
bool fe_range(Diag *d, const Loc *loc, const char *what, int64_t v, int64_t lo,
              int64_t hi);

/* Reads a whole file ("-" = standard input) after checking its size against
 * r->lim->max_file_bytes.  Problems are reported at `where` (the file itself when NULL).
 * Returns a malloc'd NUL-terminated buffer, or NULL. */
char *fe_read_file(Reader *r, const char *path, const Loc *where, size_t *len);
/* Parses a JSON document (duplicate keys rejected); a syntax error is reported as
 * FILE:LINE:COL.  Returns NULL after reporting. */
json_t *fe_parse(Reader *r, const char *text, size_t len);
/* fe_load_graph of a text: relative paths in it are taken from base_dir (NULL: the
 * current folder), which is also the graph's folder for its kernel files. */
Graph *fe_load_text(const char *text, size_t len, const char *file, const char *base_dir,
                    const Options *opt, Diag *d);
/* base_dir joined with path, unless path is absolute or base_dir is NULL or ".". */
const char *fe_join(Arena *a, const char *base_dir, const char *path);
/* The folder of a path ("." when it has none), in a. */
const char *fe_dirname(Arena *a, const char *path);

/* The "platform" value of a graph (or the --platform option when v is NULL and ref is
 * set): a preset name, a path to a tgc-platform/1 file (relative to r->base_dir) or an
 * inline object.  `ptr` locates the value; with ptr NULL errors name the option.  Returns
 * a finished platform allocated in a, or NULL after reporting. */
Platform *fe_platform_value(Reader *r, Arena *a, const json_t *v, const char *ptr);
Platform *fe_platform_ref(Reader *r, Arena *a, const char *ref, const char *ptr);

/* Name -> index map (open addressing; the first index of a name wins; NULL names are
 * left out).  fe_idmap_init maps the task ids. */
typedef struct FeIdMap {
    const char **name; /* [n] the names, not owned */
    int *slot;         /* index + 1, 0 = empty */
    size_t mask;
} FeIdMap;
void fe_namemap_init(FeIdMap *m, const char *const *names, int n);
void fe_idmap_init(FeIdMap *m, const Graph *g);
int fe_idmap_find(const FeIdMap *m, const char *id);
void fe_idmap_free(FeIdMap *m);

/* A cycles expression (frontend/cost_expr.c, docs/formats.md): evaluates text over the
 * integer params of a task; names maps their names to their indexes (fe_namemap_init
 * over the params' names, built once per task: a lookup is O(1)).  Returns true and sets
 * *out; otherwise reports the error at ptr (with the column in the expression) and
 * returns false.  The range of the value is the caller's to check. */
bool fe_cost_expr(Reader *r, const char *text, const Param *params, int nparams,
                  const FeIdMap *names, const char *ptr, int64_t *out);

/* True when s is a C identifier (letters, digits, '_', not starting with a digit). */
bool fe_is_identifier(const char *s);

/* A growing malloc'd string for messages (s stays NUL-terminated; free(s) when done). */
typedef struct FeBuf {
    char *s;
    size_t n, cap;
} FeBuf;
void fe_buf_add(FeBuf *b, const char *s);

/* frontend/rates.c, for fe_check: the repetition vector of g (g->multirate, repetitions,
 * firings; the rates made >= 1, a delay turned into tokens in a multi-rate graph and
 * tokens into the delay in a single-rate one), reporting inconsistent rates and overflow;
 * then, on an indexed multi-rate graph whose rates passed, the SDF deadlock check.  Each
 * returns the number of errors it reported. */
int fe_rates(Reader *r, Graph *g);
int fe_deadlock(Reader *r, const Graph *g);
/* frontend/expand.c: the number of edges of g's expansion, counted until it exceeds
 * limit (then limit + 1). */
int64_t fe_expand_edges(const Graph *g, int64_t limit);

#endif /* TGC_FE_H */
