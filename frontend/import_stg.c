/*
 * frontend/import_stg.c - the Standard Task Graph Set format (Kasahara lab, Waseda).
 *
 *     n                                   number of real tasks
 *     0     0   0                         dummy entry task: id, cost, predecessor count
 *     1     5   1    0                    task id, cost, npred, predecessor ids ...
 *     ...
 *     n+1   0   k    ...                  dummy exit task
 *     # footer lines (ignored, as is anything after the n+2 task records)
 *
 * Tokens are separated by any white space, so a long predecessor list may wrap onto the
 * next line; a '#' starts a comment to the end of the line.  Task ids must be 0, 1, ...,
 * n+1 in order and predecessors must be earlier tasks.
 *
 * The dummy tasks are kept (cost 0; they change no schedule length) so that task "k" of
 * the graph is task k of the file.  Task ids are the file's numbers as strings.  Every
 * edge has 0 bytes (the set gives no communication costs) and the platform is the
 * abstract model.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

typedef struct Lexer {
    const char *s;
    size_t i, n;
    int line, col;
    const char *file;
    Diag *d;
} Lexer;

/* Skips white space and comments.  Returns false at the end of the input. */
static bool
skip(Lexer *lx)
{
    while (lx->i < lx->n) {
        char c = lx->s[lx->i];
        if (c == '\n') {
            lx->line++;
            lx->col = 1;
            lx->i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->col++;
            lx->i++;
        } else if (c == '#') {
            while (lx->i < lx->n && lx->s[lx->i] != '\n')
                lx->i++;
        } else {
            return true;
        }
    }
    return false;
}

/* Reads the next integer into *v and its position into *at.  Returns 0, 1 at the end of
 * the input, -1 after reporting a token that is not an integer. */
static int
next_int(Lexer *lx, int64_t *v, Loc *at)
{
    if (!skip(lx)) {
        *at = (Loc){.file = lx->file, .line = lx->line, .col = lx->col};
        return 1;
    }
    *at = (Loc){.file = lx->file, .line = lx->line, .col = lx->col};
    size_t b = lx->i;
    while (lx->i < lx->n && !strchr(" \t\r\n\f\v#", lx->s[lx->i]))
        lx->i++;
    size_t len = lx->i - b;
    lx->col += (int)len;
    char tok[32];
    bool ok = len < sizeof tok;
    if (ok) {
        memcpy(tok, lx->s + b, len);
        tok[len] = 0;
        char *end;
        errno = 0;
        long long x = strtoll(tok, &end, 10);
        ok = *end == 0 && errno == 0 &&
             (tok[0] == '-' || (tok[0] >= '0' && tok[0] <= '9'));
        *v = x;
    }
    if (!ok) {
        Arena *a = arena_new();
        diag_error(lx->d, at, "expected an integer, found \"%s\"",
                   ir_shown(a, arena_strndup(a, lx->s + b, len), 40));
        arena_free(a);
        return -1;
    }
    return 0;
}

/* Like next_int, but the end of the input is an error naming what was expected. */
static int
want_int(Lexer *lx, int64_t *v, Loc *at, const char *what)
{
    int rc = next_int(lx, v, at);
    if (rc == 1)
        diag_error(lx->d, at, "unexpected end of file: expected %s", what);
    return rc ? -1 : 0;
}

Graph *
fe_import_stg(const char *path, const Options *opt, Diag *d)
{
    Loc floc = {.file = strcmp(path, "-") == 0 ? "<stdin>" : path};
    size_t len;
    char *text = fe_import_read(path, opt, &len, d);
    if (!text)
        return NULL;
    int errors = diag_errors(d);
    Graph *g = ir_graph_new();
    g->file = arena_strdup(g->arena, floc.file);
    g->name = fe_base_name(g->arena, path);
    g->iterations = 1;
    Lexer lx = {.s = text, .n = len, .line = 1, .col = 1, .file = g->file, .d = d};

    int64_t n;
    Loc at;
    Edge *edges = NULL;
    int nedges = 0, capedges = 0;
    if (want_int(&lx, &n, &at, "the number of tasks") < 0)
        goto fail;
    if (n < 0) {
        diag_error(d, &at, "the number of tasks must be >= 0, got %lld", (long long)n);
        goto fail;
    }
    if (n > opt->limits.max_tasks - 2) { /* n + 2 could overflow */
        diag_error(d, &at,
                   "%llu tasks (with the entry and exit tasks) exceed --max-tasks=%lld",
                   (unsigned long long)n + 2, (long long)opt->limits.max_tasks);
        goto fail;
    }
    g->ntasks = (int)(n + 2);
    g->tasks = arena_array(g->arena, (size_t)g->ntasks, sizeof *g->tasks);
    for (int t = 0; t < g->ntasks; t++) {
        char what[64];
        int64_t id, cost, npred;
        snprintf(what, sizeof what, "task %d of %d", t, g->ntasks - 1);
        if (want_int(&lx, &id, &at, what) < 0)
            goto fail;
        if (id != t) {
            diag_error(d, &at,
                       "expected task %d, found %lld (tasks must be numbered 0..%d in "
                       "order)",
                       t, (long long)id, g->ntasks - 1);
            goto fail;
        }
        Task *tk = &g->tasks[t];
        tk->id = arena_printf(g->arena, "%d", t);
        tk->dsp = -1;
        tk->ncycles = 1;
        tk->cycles = arena_alloc(g->arena, sizeof *tk->cycles);
        snprintf(what, sizeof what, "the cost of task %d", t);
        if (want_int(&lx, &cost, &at, what) < 0)
            goto fail;
        if (cost < 0 || cost > FE_MAX_CYCLES)
            diag_error(d, &at, "the cost of task %d must be in 0..%lld, got %lld", t,
                       (long long)FE_MAX_CYCLES, (long long)cost);
        tk->cycles[0] = cost;
        snprintf(what, sizeof what, "the predecessor count of task %d", t);
        if (want_int(&lx, &npred, &at, what) < 0)
            goto fail;
        if (npred < 0 || npred > t) {
            diag_error(d, &at, "task %d has %lld predecessors; it can have 0 to %d", t,
                       (long long)npred, t);
            goto fail;
        }
        int first = nedges;
        for (int64_t k = 0; k < npred; k++) {
            int64_t p;
            snprintf(what, sizeof what, "predecessor %lld of task %d", (long long)k + 1,
                     t);
            if (want_int(&lx, &p, &at, what) < 0)
                goto fail;
            if (p < 0 || p >= g->ntasks) {
                diag_error(d, &at, "unknown predecessor %lld of task %d", (long long)p,
                           t);
                continue;
            }
            if (p >= t) {
                diag_error(d, &at, "predecessor %lld of task %d is not an earlier task",
                           (long long)p, t);
                continue;
            }
            bool dup = false;
            for (int e = first; e < nedges; e++)
                dup |= edges[e].from == (int)p;
            if (dup) {
                diag_error(d, &at, "predecessor %lld of task %d is listed twice",
                           (long long)p, t);
                continue;
            }
            if (nedges >= opt->limits.max_edges) {
                diag_error(d, &at, "more than --max-edges=%lld edges",
                           (long long)opt->limits.max_edges);
                goto fail;
            }
            if (nedges == capedges) {
                capedges = capedges ? 2 * capedges : 64;
                edges = ir_xrealloc(edges, (size_t)capedges, sizeof *edges);
            }
            edges[nedges++] = (Edge){.from = (int)p, .to = t, .bytes = 0, .delay = 0};
        }
    }
    if (diag_errors(d) > errors)
        goto fail;
    g->nedges = nedges;
    g->edges = arena_array(g->arena, (size_t)nedges + 1, sizeof *g->edges);
    if (nedges)
        memcpy(g->edges, edges, (size_t)nedges * sizeof *edges);
    free(edges);
    free(text);
    if (fe_import_platform(g, opt, &floc, d) < 0 || ir_graph_index(g) < 0) {
        ir_graph_free(g);
        return NULL;
    }
    return g;

fail:
    free(edges);
    free(text);
    ir_graph_free(g);
    return NULL;
}

/* ------------------------------------------------------------------------------------------
 * Helpers shared with import_dot.c (frontend/import.h)
 * ------------------------------------------------------------------------------------------
 */

const char *
fe_base_name(Arena *a, const char *path)
{
    if (strcmp(path, "-") == 0)
        return "stdin";
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    return arena_strndup(a, b, n);
}

char *
fe_import_read(const char *path, const Options *opt, size_t *len, Diag *d)
{
    Reader r = {.d = d,
                .file = strcmp(path, "-") == 0 ? "<stdin>" : path,
                .lim = &opt->limits,
                .tmp = arena_new()};
    char *text = fe_read_file(&r, path, NULL, len);
    arena_free(r.tmp);
    return text;
}

int
fe_import_platform(Graph *g, const Options *opt, const Loc *loc, Diag *d)
{
    Platform *p = plat_preset(g->arena, "abstract");
    g->platform_ref = "abstract";
    if (opt->dsps > 0 && opt->dsps != p->ndsps) {
        const char *why;
        if (opt->dsps > opt->limits.max_dsps) {
            diag_error(d, loc, "%d DSPs exceed --max-dsps=%lld", opt->dsps,
                       (long long)opt->limits.max_dsps);
            return -1;
        }
        if (plat_set_dsps(g->arena, p, opt->dsps, &why) < 0) {
            diag_error(d, loc, "%s", why);
            return -1;
        }
        g->platform_ref = "inline"; /* written as {"name": "abstract", "dsps": N, ...} */
    }
    g->platform = p;
    return 0;
}
