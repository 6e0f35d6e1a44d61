/*
 * backend/backend.h - helpers shared by the backend's writers (backend-private).
 */
#ifndef TGC_BACKEND_H
#define TGC_BACKEND_H

#include <jansson.h>

#include "ir.h"

/* JSON building; out of memory is an internal error. */
void cg_set(json_t *o, const char *key, json_t *v);
void cg_push(json_t *a, json_t *v);
/* json_dumps with the project's layout (indent 2, insertion order, final newline) and
 * reals with real_precision significant digits; takes the reference to doc.  The result
 * is malloc'd. */
char *cg_dump(json_t *doc, int real_precision);
/* The fewest significant digits (1..17) with which every real parameter of g reads back
 * as the same double: 0.1 is written "0.1", not "0.10000000000000001". */
int cg_real_precision(const Graph *g);
/* The tgc-graph/1 and tgc-platform/1 objects.  platform_inline writes the graph's
 * platform as an inline object even when the graph names a preset or a file. */
json_t *cg_graph_object(const Graph *g, bool platform_inline);
json_t *cg_platform_object(const Platform *p);
/* The path of `target` relative to the folder of file `out` (both made canonical with
 * realpath), malloc'd; NULL when either cannot be resolved. */
char *cg_relative_to(const char *out, const char *target);
/* The kernel paths of a graph object made relative to the folder of the file out_path
 * (as a reader takes them); nothing for NULL or "-". */
void cg_relative_kernels(json_t *graph, const char *out_path);

/* The critical path of iteration 0 (backend/dot.c): on_path[d][k] for operation k of DSP
 * d and msg_on[m] for the messages it crosses, both malloc'd (free with cg_path_free).
 * Returns the number of operations on it (0 when r records no iteration 0). */
typedef struct CritPath {
    bool **on;    /* [ndsps][nops[d]] */
    bool *msg_on; /* [nmsgs] */
    int nops;
    int *dsp, *op; /* the path from its first operation to its last, nops steps */
} CritPath;
int cg_crit_path(const Sched *s, const EvalResult *r, CritPath *cp);
void cg_path_free(const Sched *s, CritPath *cp);

/* The schedule as a cgraph graph (backend/dot.c): one cluster per busy DSP and per run
 * of idle DSPs (its columns), message edges, the critical path of iteration 0 in red.
 * The caller closes it with agclose.  Written as text by cg_sched_dot, laid out and
 * rendered by the HTML report. */
struct Agraph_s;
struct Agraph_s *cg_sched_graph(const Sched *s, const EvalResult *r);
/* The number of columns (clusters) cg_sched_graph makes of s. */
int cg_sched_columns(const Sched *s);

/* A growing malloc'd string (SVG). */
typedef struct Buf {
    char *s;
    size_t n, cap;
} Buf;
void buf_printf(Buf *b, const char *fmt, ...) TGC_PRINTF(2, 3);
void buf_add(Buf *b, const char *data, size_t n); /* n bytes, kept NUL-terminated */
void buf_escape(Buf *b, const char *text); /* XML-escaped */

#endif /* TGC_BACKEND_H */
