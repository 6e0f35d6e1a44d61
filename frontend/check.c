/*
 * frontend/check.c - semantic checks of a lowered graph (fe_check).
 *
 * Requires: a graph whose tasks and edges are in input order (so that task i is
 * /tasks/i and edge j is /edges/j of the file) and, for the platform checks, a resolved
 * platform.  Every check has its own message; every error is reported before returning.
 * On success the graph is indexed (ir_graph_index: succ/pred and topo are valid).
 *
 * The value checks repeat the reader's (cycles, bytes, delay ranges) so that graphs from
 * the importers get them too; the JSON reader never gets here with such a value.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe.h"

enum { CYCLE_PRINT_MAX = 30 }; /* tasks of a zero-delay cycle named in full */

static Loc at(Reader *r, const char *fmt, ...) TGC_PRINTF(2, 3);

static Loc
at(Reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = arena_alloc(r->tmp, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return fe_loc(r, s); /* a flattened graph's tasks and edges where they were written */
}

/* Saturating sum, so that a total above FE_MAX_TOTAL stays above it. */
static int64_t
add_sat(int64_t a, int64_t b)
{
    return a > FE_MAX_TOTAL - b ? FE_MAX_TOTAL + 1 : a + b;
}

static void
check_file(Reader *r, const char *path, const char *ptr, const char *what)
{
    struct stat st;
    Loc l = {.file = r->file, .pointer = ptr};
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            diag_error(r->d, &l, "%s \"%s\" does not exist", what, path);
        else
            diag_error(r->d, &l, "cannot read %s \"%s\": %s", what, path,
                       strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        diag_error(r->d, &l, "%s \"%s\" is a directory", what, path);
    }
}

/* The folders kernel files may be in: the graph's, and those of --kernel-path. */
typedef struct Kernels {
    const Options *opt;
    const char *dir;
} Kernels;

/* Whether real (a resolved path) is dir or below it, dir resolved too. */
static bool
below(const char *real, const char *dir)
{
    char *root = realpath(dir, NULL);
    if (!root)
        return false;
    size_t n = strlen(root);
    bool in = strcmp(root, "/") == 0 ||
              (strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == 0));
    free(root);
    return in;
}

/* The header that a kernel header at path would shadow in the generated project (which
 * holds it under its base name, on the compiler's include path: -I DIR), or NULL: the
 * C standard's headers and the POSIX ones the generated files and libmpirio's include,
 * mpirio.h and mpi.h (the MPI transport's). */
static const char *
shadowed_header(const char *path)
{
    static const char *const names[] = {
        "assert.h",   "complex.h",  "ctype.h",  "errno.h",       "fenv.h",    "float.h",
        "inttypes.h", "iso646.h",   "limits.h", "locale.h",      "math.h",    "setjmp.h",
        "signal.h",   "stdalign.h", "stdarg.h", "stdatomic.h",   "stdbool.h", "stddef.h",
        "stdint.h",   "stdio.h",    "stdlib.h", "stdnoreturn.h", "string.h",  "tgmath.h",
        "threads.h",  "time.h",     "uchar.h",  "wchar.h",       "wctype.h",  "unistd.h",
        "fcntl.h",    "pthread.h",  "getopt.h", "mpirio.h",      "mpi.h"};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(base, names[i]) == 0)
            return names[i];
    return NULL;
}

/* The kernel file at path, read into the graph's arena: it must resolve (symbolic links
 * followed) inside the graph's folder or a --kernel-path folder; a header's base name,
 * which the kernel source includes it by, must end in ".h" and leave "tgc_" to the
 * generated files; it must be a regular file (never a device or a FIFO: it is opened
 * without blocking and refused before a byte is read) of at most --max-file-size bytes.
 * Reports the first of these that fails and leaves *text NULL. */
static void
read_kernel(Reader *r, const Kernels *ks, Graph *g, const char *path, const char *ptr,
            const char *what, const char **text, size_t *len)
{
    Loc l = {.file = r->file, .pointer = ptr};
    const char *shown = ir_shown(r->tmp, path, 200);
    char *real = realpath(path, NULL);
    if (!real) {
        if (errno == ENOENT)
            diag_error(r->d, &l, "%s \"%s\" does not exist", what, shown);
        else
            diag_error(r->d, &l, "cannot read %s \"%s\": %s", what, shown,
                       strerror(errno));
        return;
    }
    bool allowed = below(real, ks->dir);
    for (int i = 0; !allowed && i < ks->opt->nkernel_dirs; i++)
        allowed = below(real, ks->opt->kernel_dirs[i]);
    if (!allowed) {
        diag_error(r->d, &l,
                   "%s \"%s\" is outside the folder of \"%s\" (allow its folder with "
                   "--kernel-path DIR)",
                   what, shown, r->file);
        free(real);
        return;
    }
    bool header = strcmp(ptr, "/kernels/header") == 0;
    if (header) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t n = strlen(base);
        if (n < 3 || strcmp(base + n - 2, ".h") != 0 || strncmp(base, "tgc_", 4) == 0) {
            diag_error(r->d, &l,
                       "%s \"%s\" must have a name that ends in \".h\" and does not "
                       "begin with \"tgc_\" (the project holds it under that name)",
                       what, shown);
            free(real);
            return;
        }
    }
    const char *shadowed = header ? shadowed_header(path) : NULL;
    if (shadowed) {
        diag_error(r->d, &l,
                   "%s \"%s\" must not be named \"%s\": the generated files include "
                   "<%s>, and the project holds the header under its name on their "
                   "include path, where it would take that one's place",
                   what, shown, shadowed, shadowed);
        free(real);
        return;
    }
    int fd = open(real, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    free(real);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        diag_error(r->d, &l, "cannot read %s \"%s\": %s", what, shown, strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    int64_t limit = r->lim->max_file_bytes;
    if (S_ISDIR(st.st_mode))
        diag_error(r->d, &l, "%s \"%s\" is a directory", what, shown);
    else if (!S_ISREG(st.st_mode))
        diag_error(r->d, &l, "%s \"%s\" is not a regular file", what, shown);
    else if ((int64_t)st.st_size > limit)
        diag_error(r->d, &l,
                   "%s \"%s\" (%lld bytes) exceeds the limit of %lld bytes (raise it "
                   "with --max-file-size)",
                   what, shown, (long long)st.st_size, (long long)limit);
    else {
        /* at most limit bytes, whatever the file grows to meanwhile */
        size_t cap = (size_t)st.st_size + 1, n = 0;
        char *buf = arena_alloc(g->arena, cap + 1);
        ssize_t got = 0;
        while (n < cap && (got = read(fd, buf + n, cap - n)) != 0) {
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0)
                break;
            n += (size_t)got;
        }
        if (got < 0)
            diag_error(r->d, &l, "cannot read %s \"%s\": %s", what, shown,
                       strerror(errno));
        else if (n > (size_t)st.st_size)
            diag_error(r->d, &l, "%s \"%s\" changed while it was read", what, shown);
        else {
            buf[n] = 0;
            *text = buf;
            *len = n;
        }
    }
    close(fd);
}

static bool
cycle_edge(const Edge *e)
{
    return e->delay == 0 && e->from != e->to; /* self edges have their own message */
}

/* One message per strongly connected component of the zero-delay edges (Tarjan, without
 * recursion): the shortest cycle through the component's first task, as "a -> b -> a". */
static void
report_cycles(Reader *r, const Graph *g)
{
    int n = g->ntasks;
    size_t sz = (size_t)n + 1;
    int *idx = malloc(sz * sizeof *idx), *low = malloc(sz * sizeof *low);
    int *stk = malloc(sz * sizeof *stk), *comp = malloc(sz * sizeof *comp);
    int *cs_v = malloc(sz * sizeof *cs_v), *cs_k = malloc(sz * sizeof *cs_k);
    int *first = malloc(sz * sizeof *first); /* cyclic components: their lowest task */
    bool *on = calloc(sz, sizeof *on);
    if (!idx || !low || !stk || !comp || !cs_v || !cs_k || !first || !on)
        ice("out of memory");
    for (int v = 0; v < n; v++)
        idx[v] = comp[v] = -1;
    int counter = 0, sp = 0, ncomp = 0, ncyclic = 0;
    for (int root = 0; root < n; root++) {
        if (idx[root] >= 0)
            continue;
        int csp = 0;
        cs_v[csp] = root;
        cs_k[csp++] = g->succ_off[root];
        idx[root] = low[root] = counter++;
        stk[sp++] = root;
        on[root] = true;
        while (csp > 0) {
            int v = cs_v[csp - 1];
            if (cs_k[csp - 1] < g->succ_off[v + 1]) {
                const Edge *e = &g->edges[g->succ[cs_k[csp - 1]++]];
                if (!cycle_edge(e))
                    continue;
                int w = e->to;
                if (idx[w] < 0) {
                    idx[w] = low[w] = counter++;
                    stk[sp++] = w;
                    on[w] = true;
                    cs_v[csp] = w;
                    cs_k[csp++] = g->succ_off[w];
                } else if (on[w] && idx[w] < low[v]) {
                    low[v] = idx[w];
                }
                continue;
            }
            csp--;
            if (csp > 0 && low[v] < low[cs_v[csp - 1]])
                low[cs_v[csp - 1]] = low[v];
            if (low[v] != idx[v])
                continue;
            int size = 0, lowest = n;
            int w;
            do {
                w = stk[--sp];
                on[w] = false;
                comp[w] = ncomp;
                size++;
                if (w < lowest)
                    lowest = w;
            } while (w != v);
            if (size > 1)
                first[ncyclic++] = lowest;
            ncomp++;
        }
    }
    /* Report in order of the components' first tasks. */
    for (int i = 1; i < ncyclic; i++)
        for (int j = i; j > 0 && first[j - 1] > first[j]; j--) {
            int t = first[j];
            first[j] = first[j - 1];
            first[j - 1] = t;
        }
    int *via = idx, *queue = low; /* reused: BFS parent edge and queue */
    for (int v = 0; v < n; v++)
        via[v] = -2;
    for (int c = 0; c < ncyclic; c++) {
        int s = first[c], head = 0, tail = 0, close = -1;
        queue[tail++] = s;
        via[s] = -1;
        while (head < tail && close < 0) {
            int u = queue[head++];
            for (int k = g->succ_off[u]; k < g->succ_off[u + 1] && close < 0; k++) {
                int ei = g->succ[k];
                const Edge *e = &g->edges[ei];
                if (!cycle_edge(e) || comp[e->to] != comp[s])
                    continue;
                if (e->to == s)
                    close = ei;
                else if (via[e->to] == -2) {
                    via[e->to] = ei;
                    queue[tail++] = e->to;
                }
            }
        }
        if (close < 0)
            ice("strongly connected component without a cycle");
        /* Walk back from the closing edge to s, then print forwards. */
        int len = 0;
        for (int ei = close; ei >= 0; ei = via[g->edges[ei].from])
            stk[len++] = ei;
        FeBuf b = {0};
        fe_buf_add(&b, g->tasks[s].id);
        for (int k = len - 1, shown = 0; k >= 0; k--, shown++) {
            if (shown == CYCLE_PRINT_MAX && k > 0) {
                char more[64];
                snprintf(more, sizeof more, " -> ... (%d more)", k);
                fe_buf_add(&b, more);
                k = 0;
            }
            fe_buf_add(&b, " -> ");
            fe_buf_add(&b, g->tasks[g->edges[stk[k]].to].id);
        }
        Loc l = at(r, "/edges/%d", stk[len - 1]);
        diag_error(r->d, &l,
                   "cycle of zero-delay edges: %s (give one of its edges a \"delay\")",
                   b.s);
        free(b.s);
        for (int k = 0; k < tail; k++)
            via[queue[k]] = -2;
    }
    free(idx);
    free(low);
    free(stk);
    free(comp);
    free(cs_v);
    free(cs_k);
    free(first);
    free(on);
}

static void
check_limits(Reader *r, const Graph *g)
{
    const Limits *lim = r->lim;
    if (g->ntasks > lim->max_tasks) {
        Loc l = at(r, "/tasks");
        diag_error(r->d, &l,
                   "%d tasks exceed the limit of %" PRId64 " (raise it with --max-tasks)",
                   g->ntasks, lim->max_tasks);
    }
    if (g->nedges > lim->max_edges) {
        Loc l = at(r, "/edges");
        diag_error(r->d, &l,
                   "%d edges exceed the limit of %" PRId64 " (raise it with --max-edges)",
                   g->nedges, lim->max_edges);
    }
    Loc li = at(r, "/iterations");
    if (fe_range(r->d, &li, "iterations", g->iterations, 1, INT64_MAX) &&
        g->iterations > lim->max_iterations)
        diag_error(r->d, &li,
                   "%" PRId64 " iterations exceed the limit of %" PRId64
                   " (raise it with --max-iterations)",
                   g->iterations, lim->max_iterations);
}

/* A relative path none of whose components is "..". */
static bool
relative_below(const char *path)
{
    if (path[0] == '/')
        return false;
    for (const char *c = path; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.')
            return false;
        c += n + (c[n] == '/');
    }
    return true;
}

/* Every task that calls a kernel gives it the same kinds of parameters in the same order:
 * the generated code declares one prototype per kernel. */
static void
check_kernel_calls(Reader *r, const Graph *g)
{
    const char **names = ir_xmalloc((size_t)g->ntasks + 1, sizeof *names);
    for (int t = 0; t < g->ntasks; t++)
        names[t] = g->tasks[t].kernel;
    FeIdMap m;
    fe_namemap_init(&m, names, g->ntasks);
    for (int t = 0; t < g->ntasks; t++) {
        const Task *k = &g->tasks[t];
        if (!k->kernel)
            continue;
        int f = fe_idmap_find(&m, k->kernel);
        const Task *o = &g->tasks[f];
        bool same = o->nparams == k->nparams;
        for (int i = 0; same && i < k->nparams; i++)
            same = o->params[i].kind == k->params[i].kind;
        if (!same) {
            Loc l = k->nparams || !o->nparams ? at(r, "/tasks/%d/params", t)
                                              : at(r, "/tasks/%d/kernel", t);
            diag_error(r->d, &l,
                       "kernel \"%s\" is called with other kinds of parameters than by "
                       "task \"%s\" (%s)",
                       k->kernel, o->id ? o->id : "", fe_ref(r, &l, "tasks", f));
        }
    }
    fe_idmap_free(&m);
    free(names);
}

static int64_t
check_task(Reader *r, const Graph *g, const FeIdMap *ids, int t)
{
    const Task *k = &g->tasks[t];
    const Platform *p = g->platform;
    Loc l;
    if (k->id && !*k->id) {
        l = at(r, "/tasks/%d/id", t);
        diag_error(r->d, &l, "id must not be empty");
    } else if (k->id) {
        int first = fe_idmap_find(ids, k->id);
        if (first != t) {
            l = at(r, "/tasks/%d/id", t);
            diag_error(r->d, &l, "duplicate task id \"%s\" (first at %s)", k->id,
                       fe_ref(r, &l, "tasks", first));
        }
    }
    int64_t most = 0; /* the largest cost: what the totals bound */
    for (int c = 0; c < k->ncycles; c++) {
        l = k->ncycles > 1 ? at(r, "/tasks/%d/cycles/%d", t, c)
                           : at(r, "/tasks/%d/cycles", t);
        if (fe_range(r->d, &l, "cycles", k->cycles[c], 0, FE_MAX_CYCLES) &&
            k->cycles[c] > most)
            most = k->cycles[c];
    }
    if (p && k->ncycles > 1 && k->ncycles != p->ndsps) {
        l = at(r, "/tasks/%d/cycles", t);
        diag_error(r->d, &l, "cycles lists %d costs but platform \"%s\" has %d DSPs",
                   k->ncycles, p->name, p->ndsps);
    }
    if (k->kernel) {
        l = at(r, "/tasks/%d/kernel", t);
        const char *why = ir_kernel_name_problem(k->kernel);
        if (why)
            diag_error(r->d, &l, "kernel \"%s\" %s", ir_shown(r->tmp, k->kernel, 80),
                       why);
        else if (!g->kernels_source)
            diag_error(r->d, &l,
                       "task \"%s\" names kernel \"%s\" but the graph has no \"kernels\" "
                       "source",
                       k->id ? k->id : "", k->kernel);
    }
    for (int i = 0; i < k->nparams; i++)
        if (!fe_is_identifier(k->params[i].name)) {
            l = fe_loc(r, fe_ptr_key(r, arena_printf(r->tmp, "/tasks/%d/params", t),
                                     k->params[i].name));
            diag_error(r->d, &l, "parameter name \"%s\" is not a C identifier",
                       k->params[i].name);
        }
    if (p && k->dsp >= p->ndsps) {
        l = at(r, "/tasks/%d/dsp", t);
        diag_error(r->d, &l, "dsp %d is outside platform \"%s\" (DSPs 0 to %d)", k->dsp,
                   p->name, p->ndsps - 1);
    }
    for (int i = 0; p && i < k->npins; i++)
        if (k->pins[i] >= p->ndsps) {
            l = at(r, "/tasks/%d/dsp/%d", t, i);
            diag_error(r->d, &l, "dsp %d is outside platform \"%s\" (DSPs 0 to %d)",
                       k->pins[i], p->name, p->ndsps - 1);
        }
    if (k->output && !*k->output) {
        l = at(r, "/tasks/%d/output", t);
        diag_error(r->d, &l, "output must not be empty");
    } else if (k->output && !relative_below(k->output)) {
        l = at(r, "/tasks/%d/output", t);
        diag_error(r->d, &l,
                   "output \"%s\" must be a relative path without \"..\" (it is written "
                   "below the program's --output-dir)",
                   ir_shown(r->tmp, k->output, 80));
    }
    return most;
}

/* The firings and ports of an expanded graph (docs/formats.md, "The expansion"): only in
 * a single-rate graph; a firing below its count; per task and side, every edge in a
 * port or none, the ports numbered 0 .. n-1, the edges of a port tiling it from byte 0
 * in the order of their offsets. */
static void
check_expanded(Reader *r, const Graph *g)
{
    Loc l;
    for (int t = 0; g->firing && t < g->ntasks; t++) {
        const Firing *f = &g->firing[t];
        if (g->multirate && (f->index || f->count > 1)) {
            l = at(r, "/tasks/%d/firing%s", t, f->index ? "" : "s");
            diag_error(r->d, &l,
                       "firing and firings are those of a task of an expanded graph (tgc "
                       "expand writes them), not of an actor of a multi-rate graph");
        } else if (f->index >= f->count) {
            l = at(r, "/tasks/%d/firing", t);
            diag_error(r->d, &l,
                       "firing must be less than firings (%" PRId64 "), got %" PRId64,
                       f->count, f->index);
        }
    }
    if (!g->ports)
        return;
    if (g->multirate) {
        for (int e = 0; e < g->nedges; e++)
            if (g->ports[e].from_port >= 0 || g->ports[e].to_port >= 0) {
                l = at(r, "/edges/%d/%s", e,
                       g->ports[e].from_port >= 0 ? "from_port" : "to_port");
                diag_error(r->d, &l,
                           "ports are those of an edge of an expanded graph (tgc expand "
                           "writes them), not of a channel of a multi-rate graph");
                return;
            }
        return;
    }
    int n = g->ntasks;
    int *list = malloc(((size_t)g->nedges + 1) * sizeof *list);
    if (!list)
        ice("out of memory");
    for (int side = 0; side < 2; side++) { /* 0: output ports, 1: input ports */
        const char *what = side ? "input" : "output",
                   *key = side ? "to_port" : "from_port";
        const char *okey = side ? "to_offset" : "from_offset";
        const int *off = side ? g->pred_off : g->succ_off,
                  *idx = side ? g->pred : g->succ;
        for (int t = 0; t < n; t++) {
            int k = 0, with = -1, without = -1;
            for (int j = off[t]; j < off[t + 1]; j++) {
                int e = idx[j], p = side ? g->ports[e].to_port : g->ports[e].from_port;
                if (p < 0)
                    without = without < 0 ? e : without;
                else {
                    with = with < 0 ? e : with;
                    list[k++] = e;
                }
            }
            if (with < 0)
                continue;
            if (without >= 0) {
                l = at(r, "/edges/%d", without);
                diag_error(
                    r->d, &l,
                    "edge has no %s but edge /edges/%d of task \"%s\" has one: give "
                    "every %s edge of a task a port, or none",
                    key, with, g->tasks[t].id, side ? "incoming" : "outgoing");
                continue;
            }
            /* the edges by (port, offset, edge index): an insertion sort, ports are few
             */
            for (int a = 1; a < k; a++)
                for (int b = a; b > 0; b--) {
                    const EdgePort *x = &g->ports[list[b - 1]], *y = &g->ports[list[b]];
                    int px = side ? x->to_port : x->from_port,
                        py = side ? y->to_port : y->from_port;
                    int64_t ox = side ? x->to_off : x->from_off,
                            oy = side ? y->to_off : y->from_off;
                    if (px < py ||
                        (px == py && (ox < oy || (ox == oy && list[b - 1] < list[b]))))
                        break;
                    int tmp = list[b];
                    list[b] = list[b - 1];
                    list[b - 1] = tmp;
                }
            int port = -1;
            int64_t end = 0;
            for (int a = 0; a < k; a++) {
                int e = list[a];
                const EdgePort *x = &g->ports[e];
                int p = side ? x->to_port : x->from_port;
                int64_t o = side ? x->to_off : x->from_off;
                if (p != port) {
                    if (p != port + 1) {
                        l = at(r, "/edges/%d/%s", e, key);
                        diag_error(r->d, &l,
                                   "the %s ports of task \"%s\" must be numbered from 0 "
                                   "without gaps: port %d has no edge",
                                   what, g->tasks[t].id, port + 1);
                        break;
                    }
                    port = p;
                    end = 0;
                }
                if (o != end) {
                    l = at(r, "/edges/%d/%s", e, okey);
                    diag_error(r->d, &l,
                               "%s must be %" PRId64 " (where the edges before it in %s "
                               "port %d of task \"%s\" end), got %" PRId64,
                               okey, end, what, p, g->tasks[t].id, o);
                    break;
                }
                end = o + g->edges[e].bytes;
                if (end > FE_MAX_BYTES) {
                    l = at(r, "/edges/%d/%s", e, okey);
                    diag_error(r->d, &l,
                               "%s port %d of task \"%s\" exceeds %" PRId64 " bytes",
                               what, p, g->tasks[t].id, FE_MAX_BYTES);
                    break;
                }
            }
        }
    }
    free(list);
}

int
fe_check(Graph *g, const Options *opt, Diag *d)
{
    int e0 = diag_errors(d);
    Limits lim = opt ? opt->limits : ir_default_limits();
    Reader r = {.d = d,
                .file = g->file ? g->file : "<graph>",
                .lim = &lim,
                .tmp = arena_new(),
                .origins = g};
    Loc l;
    check_limits(&r, g);
    if (g->ntasks == 0) {
        l = at(&r, "/tasks");
        diag_error(d, &l, "a task graph needs at least one task");
    }
    if (!g->platform) {
        l = at(&r, "%s", "");
        diag_error(d, &l, "the graph has no platform");
    } else if (g->platform->ndsps > lim.max_dsps) {
        l = at(&r, "/platform");
        diag_error(d, &l,
                   "platform \"%s\" has %d DSPs, more than the limit of %" PRId64
                   " (raise it with --max-dsps)",
                   g->platform->name, g->platform->ndsps, lim.max_dsps);
    }

    FeIdMap ids;
    fe_idmap_init(&ids, g);
    int64_t *most = arena_array(r.tmp, (size_t)g->ntasks + 1, sizeof *most);
    for (int t = 0; t < g->ntasks; t++)
        most[t] = check_task(&r, g, &ids, t);
    fe_idmap_free(&ids);
    check_kernel_calls(&r, g);

    bool ends_ok = true;
    int edge_errors = diag_errors(d);
    for (int i = 0; i < g->nedges; i++) {
        const Edge *e = &g->edges[i];
        if (e->from < 0 || e->from >= g->ntasks || e->to < 0 || e->to >= g->ntasks) {
            l = at(&r, "/edges/%d", i);
            diag_error(d, &l, "edge joins a task that does not exist");
            ends_ok = false;
            continue;
        }
        /* a channel from an actor to itself carries its state from firing to firing:
           legal with initial tokens given as "tokens" (SDF3's way); an edge with a
           delay from a task to itself stays refused, as it always was */
        if (e->from == e->to && (e->tokens <= 0 || e->delay > 0)) {
            l = at(&r, "/edges/%d", i);
            diag_error(d, &l, "edge from task \"%s\" to itself", g->tasks[e->from].id);
        }
        l = at(&r, "/edges/%d/bytes", i);
        fe_range(d, &l, "bytes", e->bytes, 0, FE_MAX_BYTES);
        l = at(&r, "/edges/%d/delay", i);
        fe_range(d, &l, "delay", e->delay, 0, FE_MAX_DELAY);
        static const char *const rates[] = {"produce", "consume"};
        for (int k = 0; k < 2; k++) {
            int64_t rate = k ? e->consume : e->produce;
            l = at(&r, "/edges/%d/%s", i, rates[k]);
            if (rate != 0 && fe_range(d, &l, rates[k], rate, 1, FE_MAX_RATE) &&
                e->bytes <= FE_MAX_BYTES && rate * e->bytes > FE_MAX_BYTES)
                diag_error(d, &l,
                           "a firing of \"%s\" %s %" PRId64 " tokens of %" PRId64
                           " bytes, more than %" PRId64 " bytes",
                           g->tasks[k ? e->to : e->from].id, k ? "reads" : "writes", rate,
                           e->bytes, FE_MAX_BYTES);
        }
        l = at(&r, "/edges/%d/tokens", i);
        fe_range(d, &l, "tokens", e->tokens, 0, FE_MAX_TOKENS);
        if (e->tokens > 0 && e->delay > 0) {
            l = at(&r, "/edges/%d/tokens", i);
            diag_error(
                d, &l,
                "give either \"delay\" or \"tokens\", not both (a delay of d stands "
                "for d iterations of initial tokens)");
        }
    }
    edge_errors = diag_errors(d) - edge_errors;

    /* the repetition vector: how often each task fires per iteration */
    bool rates_ok = ends_ok && edge_errors == 0 && g->ntasks > 0 && fe_rates(&r, g) == 0;
    if (rates_ok && g->multirate) {
        l = at(&r, "/tasks");
        if (g->firings > lim.max_tasks)
            diag_error(d, &l,
                       "the expansion has %" PRId64
                       " firings per iteration, more than the "
                       "limit of %" PRId64 " (raise it with --max-tasks)",
                       g->firings, lim.max_tasks);
        int64_t m = g->firings <= lim.max_tasks ? fe_expand_edges(g, lim.max_edges) : 0;
        l = at(&r, "/edges");
        if (m > lim.max_edges)
            diag_error(d, &l,
                       "the expansion has more than %" PRId64
                       " edges (raise the limit with --max-edges)",
                       lim.max_edges);
        rates_ok = g->firings <= lim.max_tasks && m <= lim.max_edges;
        /* the initial tokens must let an iteration complete (then the expansion's
           zero-delay edges form a DAG) */
        ir_graph_index(g); /* the adjacency; the topological order is the expansion's */
        if (rates_ok && fe_deadlock(&r, g) != 0)
            rates_ok = false;
    }

    /* a list of pins: one per firing (in a single-rate graph, the one pin) */
    for (int t = 0; rates_ok && t < g->ntasks; t++) {
        Task *k = &g->tasks[t];
        if (k->pins && k->npins != g->repetitions[t]) {
            l = at(&r, "/tasks/%d/dsp", t);
            diag_error(d, &l,
                       "dsp lists %d DSPs but \"%s\" fires %" PRId64
                       " time%s per iteration (one DSP per firing)",
                       k->npins, k->id, g->repetitions[t],
                       g->repetitions[t] == 1 ? "" : "s");
        }
        if (k->output && g->repetitions[t] > 1) {
            l = at(&r, "/tasks/%d/output", t);
            diag_error(
                d, &l,
                "task \"%s\" writes an output file but fires %" PRId64
                " times per iteration: an actor with an output file fires once (the "
                "firings of an iteration run in parallel)",
                k->id, g->repetitions[t]);
        }
        if (k->pins && k->npins == g->repetitions[t] && !g->multirate) {
            k->dsp = k->pins[0];
            k->pins = NULL;
            k->npins = 0;
        }
    }

    int64_t work = 0, traffic = 0;
    for (int t = 0; t < g->ntasks; t++)
        work = add_sat(work, rates_ok ? ir_mul_sat(most[t], g->repetitions[t]) : most[t]);
    for (int i = 0; i < g->nedges; i++) {
        const Edge *e = &g->edges[i];
        if (e->from < 0 || e->from >= g->ntasks || e->to < 0 || e->to >= g->ntasks)
            continue;
        if (e->bytes >= 0 && e->bytes <= FE_MAX_BYTES)
            traffic = add_sat(
                traffic, rates_ok
                             ? ir_mul_sat(e->bytes,
                                          ir_mul_sat(e->produce, g->repetitions[e->from]))
                             : e->bytes);
    }

    if (g->iterations >= 1) {
        l = at(&r, "/iterations");
        if (work > FE_MAX_TOTAL / g->iterations)
            diag_error(d, &l,
                       "%" PRId64 " iterations of up to %" PRId64
                       " cycles each exceed 2^62 cycles in total",
                       g->iterations, work);
        if (traffic > FE_MAX_TOTAL / g->iterations)
            diag_error(d, &l,
                       "%" PRId64 " iterations of %" PRId64
                       " bytes each exceed 2^62 bytes in total",
                       g->iterations, traffic);
        if (g->platform && diag_errors(d) == e0 && rates_ok) {
            /* every time the passes compute must fit (docs/evaluator.md, "Arithmetic"),
               on the graph they schedule: the expansion of a multi-rate graph */
            Graph *x = g->multirate ? fe_expand(g) : g;
            if (plat_length_bound(g->platform, x) > IR_MAX_TIME) {
                int64_t w, comm;
                plat_iteration_bound(g->platform, x, &w, &comm);
                diag_error(d, &l,
                           "%" PRId64 " iterations of up to %" PRId64
                           " cycles each, messages on platform \"%s\" included (%" PRId64
                           " for the tasks, up to %" PRId64
                           " for the edges), may exceed 2^62 cycles in total",
                           g->iterations, ir_add_sat(w, comm), g->platform->name, w,
                           comm);
            }
            if (x != g)
                ir_graph_free(x);
        }
    }

    if (opt && opt->read_kernels) {
        Kernels ks = {opt, g->dir ? g->dir : "."};
        if (g->kernels_source)
            read_kernel(&r, &ks, g, g->kernels_source, "/kernels/source", "kernel source",
                        &g->kernels_source_text, &g->kernels_source_len);
        if (g->kernels_header)
            read_kernel(&r, &ks, g, g->kernels_header, "/kernels/header", "kernel header",
                        &g->kernels_header_text, &g->kernels_header_len);
    } else {
        if (g->kernels_source)
            check_file(&r, g->kernels_source, "/kernels/source", "kernel source");
        if (g->kernels_header)
            check_file(&r, g->kernels_header, "/kernels/header", "kernel header");
    }

    /* single-rate: the zero-delay edges form a DAG (a multi-rate graph's deadlocks are
       checked above) */
    if (ends_ok && !g->multirate && ir_graph_index(g) != 0)
        report_cycles(&r, g);
    if (ends_ok && rates_ok)
        check_expanded(&r, g);
    arena_free(r.tmp);
    return diag_errors(d) - e0;
}
