/*
 * platform/platform.h - the platform description that tgc and libmpirio share
 * (docs/design.md section 2, docs/formats.md "Platform"): the presets and the model's
 * defaults (platform/presets.c) and the one reader of tgc-platform/1 (platform/read.c).
 *
 * This folder is a layer below both ir/ and runtime/ and depends on neither: tgc builds
 * its Platform (ir/ir.h) from a PlatDesc (plat_from_desc), the runtime simulates one (or
 * gives its clock to the MPI transport).  Everything a PlatDesc holds is malloc'd;
 * pd_free() releases it.  Out of memory ends the program with a message (the callers do
 * the same).
 */
#ifndef TGC_PLATFORM_H
#define TGC_PLATFORM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_t; /* jansson's value: the reader reads inline objects of other documents */

/* The parameter table: name, minimum, maximum.  The description, the reader, tgc's
 * Platform, its writers and checks iterate it so that a parameter is named in one place
 * (docs/formats.md has the meaning and units of each). */
#define PLATFORM_PARAMS(X)                                                               \
    X(dsp_clock_mhz, 1, 100000)                                                          \
    X(link_mbps, 1, 10000000)                                                            \
    X(packet_bytes, 2, 65536)                                                            \
    X(payload_bytes, 1, 65535)                                                           \
    X(switch_latency, 0, 1000000000)                                                     \
    X(send_overhead, 0, 1000000000)                                                      \
    X(recv_overhead, 0, 1000000000)                                                      \
    X(post_overhead, 0, 1000000000)                                                      \
    X(wait_overhead, 0, 1000000000)                                                      \
    X(copy_bytes_per_cycle, 1, 1000000)                                                  \
    X(handshake, 0, 1000000000)                                                          \
    X(eager_limit, 0, 1000000000)                                                        \
    X(dsp_memory_bytes, 0, INT64_C(1099511627776))

#define PD_MAX_BOARDS 1024         /* boards of a bwdsp platform */
#define PD_MAX_DSPS_PER_BOARD 1024 /* DSPs of one board */
#define PD_MAX_ABSTRACT_DSPS 65536 /* DSPs of an abstract platform */

typedef enum {
    PD_BWDSP,    /* boards of DSPs with RapidIO switches */
    PD_ABSTRACT, /* the scheduling literature's model: n bytes cost n cycles */
} PdModel;

typedef struct PdLink {
    int a, b; /* board indices, a != b; one link per direction */
} PdLink;

#define PD_PARAM_FIELD(f, lo, hi) int64_t f;
typedef struct PlatDesc {
    char *name; /* preset name, file name, "inline", or what the caller set */
    PdModel model;
    int nboards;        /* bwdsp: boards; 0 for the abstract model */
    int dsps_per_board; /* bwdsp: DSPs per board; 0 for the abstract model */
    int ndsps;          /* nboards * dsps_per_board, or the abstract model's "dsps" */
    PLATFORM_PARAMS(PD_PARAM_FIELD)
    PdLink *links; /* board links (bwdsp only), nlinks of them */
    int nlinks;
} PlatDesc;
#undef PD_PARAM_FIELD

/* ---- presets.c: the presets, the defaults, sizes ---- */

/* "bwdsp-1board", "bwdsp-2board", "bwdsp-4board", "bwdsp-16board", "abstract", NULL */
extern const char *const pd_preset_names[];
/* The bwdsp model's defaults: one board of four DSPs, named "bwdsp". */
void pd_defaults(PlatDesc *p);
/* The abstract model with ndsps DSPs, named "abstract". */
void pd_abstract(PlatDesc *p, int ndsps);
/* A preset by name ("abstract" has 4 DSPs); 0, or -1 (p untouched) if there is none. */
int pd_preset(PlatDesc *p, const char *name);
/* The board links of the presets for p->nboards boards: 2 = one link, 4 = a ring,
 * 16 = a 4x4 mesh, any other count a chain 0-1-2-... (replaces p's links). */
void pd_preset_links(PlatDesc *p);
/* A chain 0-1-2-... of p->nboards boards (replaces p's links). */
void pd_chain(PlatDesc *p);
/* The smallest preset with at least ndsps DSPs; above 64 DSPs ceil(ndsps / 4) boards of 4
 * in a near-square mesh (C = ceil(sqrt(B)) columns, row-major board numbers, links to
 * the right and lower neighbours), named "mesh-RxC-Bboard". */
void pd_fit(PlatDesc *p, int ndsps);
/* The preset to suggest for an unknown name, or NULL. */
const char *pd_suggest_preset(const char *name);
/* The candidate closest to word by edit distance (adjacent transpositions count one),
 * within 1, 2 or 3 edits for words of up to 2, 7 or more characters; NULL if none is. */
const char *pd_suggest(const char *word, const char *const *cands, size_t ncands);
/* True when a platform reference names a file: it contains "/" or ends in ".json". */
bool pd_is_path(const char *ref);
/* The spanning tree that tgc's routes and the runtime's follow: Prim from board 0 over
 * the (unweighted) links of boards 0..nboards-1; when several links could join the tree,
 * the one that adds the lowest-numbered board wins, then the one from the
 * lowest-numbered tree board.  parent[nboards] gets each board's parent (-1 for board 0
 * and for boards the links do not join to it).  Returns the lowest board not joined to
 * board 0, or -1 when every board is.  O(nboards^2 + nlinks). */
int pd_spanning_tree(int nboards, const PdLink *links, int nlinks, int *parent);
/* The lowest board the links do not join to board 0, or -1 when every board is joined. */
int pd_unreached_board(const PlatDesc *p);
/* Every field of p on one line, malloc'd: "NAME: bwdsp, 2 boards of 4 DSPs, links 0-1,
 * dsp_clock_mhz 500, ..." (the abstract model: "NAME: abstract, 4 DSPs, ..."). */
char *pd_describe(const PlatDesc *p);
/* A copy of name (malloc'd) as p's name. */
void pd_set_name(PlatDesc *p, const char *name);
void pd_free(PlatDesc *p);

/* ---- fields.c: reading JSON values, for every reader ----
 * Written once for the tgc-platform/1 reader and tgc's readers of graphs and schedules
 * (frontend/): the message about one value (each returns a malloc'd string that the
 * caller frees), and the reading that reports it through a sink (PdJson). */

#ifdef __GNUC__
#define PD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PD_PRINTF(a, b)
#endif
/* vsnprintf into a new string. */
char *pd_vformat(const char *fmt, va_list ap) PD_PRINTF(1, 0);
char *pd_format(const char *fmt, ...) PD_PRINTF(1, 2); /* snprintf into a new string */
/* The shortest %g form that reads back as the same double (0.1, not 0.10000000000000001).
 */
char *pd_real_text(double x);
/* "a string", "an array", "null", "1.5", ... for "got ..." in messages. */
char *pd_value_text(const struct json_t *v);
/* ptr + "/" + key with the escapes of RFC 6901 (~0, ~1). */
char *pd_pointer_key(const char *ptr, const char *key);
/* NULL and *out when v is an integer, or a real with an integral value in the int64
 * range; else the message: "WHAT must be an integer, got a string", "WHAT must be a whole
 * number, got 1.5", "WHAT is out of range, got 1e+30". */
char *pd_int_value(const struct json_t *v, const char *what, int64_t *out);
/* NULL and *out when v is a string; else "WHAT must be a string, got ...". */
char *pd_string_value(const struct json_t *v, const char *what, const char **out);
/* NULL when lo <= v <= hi; else "WHAT must be >= LO, got V" or "WHAT must be at most HI,
 * got V". */
char *pd_range_text(const char *what, int64_t v, int64_t lo, int64_t hi);
/* NULL when key is one of known[] or starts with "x-"; else 'unknown field "bords"' with
 * ' (did you mean "boards"?)' when pd_suggest finds one. */
char *pd_unknown_field(const char *key, const char *const *known, size_t nknown);

/* Where a reader's messages go: one call per error, with the file (NULL: none), the
 * JSON Pointer of the value ("" = the whole document; NULL for a syntax error and a
 * message about a reference) or the line and column of a syntax error (0 otherwise), and
 * the text.  tgc turns them into its diagnostics, libmpirio into the lines of its report
 * (pd_format_message: the text tgc's diagnostics print). */
typedef struct PdSink {
    void (*error)(void *ctx, const char *file, const char *pointer, int line, int col,
                  const char *msg);
    void *ctx;
} PdSink;

/* The state of reading one JSON document: where its errors go, the file they name, and
 * how many were reported. */
typedef struct PdJson {
    const PdSink *sink;
    const char *file;
    int errors;
} PdJson;

/* Parses text, duplicate keys refused; a syntax error is reported with its line and
 * column.  Returns the document, or NULL. */
struct json_t *pd_json_parse(PdJson *j, const char *text, size_t len);
/* Reports msg (malloc'd by a function above; freed) at pointer ptr (NULL: ""): false.
 * True, and nothing reported, when msg is NULL. */
bool pd_json_ok(PdJson *j, const char *ptr, char *msg);
/* pd_int_value, pd_string_value (NULL when not a string), pd_range_text: reported. */
bool pd_json_int(PdJson *j, const struct json_t *v, const char *ptr, const char *what,
                 int64_t *out);
const char *pd_json_string(PdJson *j, const struct json_t *v, const char *ptr,
                           const char *what);
bool pd_json_range(PdJson *j, const char *ptr, const char *what, int64_t v, int64_t lo,
                   int64_t hi);
/* Reports every key of object o that pd_unknown_field refuses, at its own pointer. */
void pd_json_unknown_fields(PdJson *j, const struct json_t *o, const char *ptr,
                            const char *const *known, size_t nknown);

/* ---- read.c: the tgc-platform/1 reader ---- */

/* Reads the platform object o found at pointer ptr ("" for a file's root) of file:
 * `format` is required when need_format, default_name names a platform without "name".
 * Returns 0 with *out filled (board graph connected), or -1 after reporting every error
 * (*out then holds nothing to free). */
int pd_read_object(const struct json_t *o, const char *file, const char *ptr,
                   const char *default_name, bool need_format, const PdSink *sink,
                   PlatDesc *out);
/* Parses text (duplicate keys refused, a syntax error reported with its line and column)
 * and reads it as a tgc-platform/1 file named file (its default name). */
int pd_read_text(const char *text, size_t len, const char *file, const PdSink *sink,
                 PlatDesc *out);
/* Reports a platform reference (a preset name that is not a path) that names no preset:
 * unknown platform "bwdsp-3board" (did you mean "bwdsp-2board"?), at ptr of file (both
 * may be NULL: the reference was an option). */
void pd_unknown_platform(const char *name, const char *file, const char *ptr,
                         const PdSink *sink);
/* The message as tgc's diagnostics print it: "FILE:LINE:COL: error: MSG" for a syntax
 * error, "FILE: POINTER: error: MSG" ("/" for the whole document), "FILE: error: MSG"
 * without a pointer, "error: MSG" without a file; control characters as C escapes. Writes
 * at most n bytes (NUL included); returns the length it needed. */
size_t pd_format_message(char *buf, size_t n, const char *file, const char *pointer,
                         int line, int col, const char *msg);

#endif /* TGC_PLATFORM_H */
