/*
 * frontend/import_dot.c - task graphs in Graphviz DOT, read with cgraph.
 *
 *     digraph "Fork_Join_Nodes_10" {
 *         0 [Weight=6];                 task "0", 6 cycles (attribute Weight or cycles)
 *         1 [Weight=5];
 *         0 -> 1 [Weight=44];           edge of 44 bytes (attribute Weight or bytes)
 *         1 -> 0 [Weight=8, delay=1];   optional: iterations of delay (feedback)
 *     }
 *
 * This is the convention of the optimal-scheduling data sets of the University of
 * Auckland. Tasks are the nodes in the order the file names them, ids are the node names;
 * edges are in file order.  The platform is the abstract model (an edge costs its bytes
 * in cycles). cgraph keeps no positions on nodes, so attribute errors name the node;
 * syntax errors carry the line cgraph reports.
 */
#include <graphviz/cgraph.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

/* cgraph reports through a global callback; the importer collects the text here. */
static char errbuf[1024];
static size_t errlen;

static int
collect(char *msg)
{
    size_t n = strlen(msg);
    if (errlen + n >= sizeof errbuf)
        n = sizeof errbuf - 1 - errlen;
    memcpy(errbuf + errlen, msg, n);
    errlen += n;
    errbuf[errlen] = 0;
    return 0;
}

/* cgraph's syntax error text is "...syntax error in line N near 'x'\n": lowercase it into
 * our format and take the line for the position. */
static void
report_cgraph(Diag *d, const char *file)
{
    char msg[sizeof errbuf];
    const char *s = errbuf;
    if (strncmp(s, "Error: ", 7) == 0)
        s += 7;
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
        n--;
    memcpy(msg, s, n);
    msg[n] = 0;
    /* one message, one line: cgraph continues some on a second ("String starting:...") */
    for (char *c = msg; (c = strchr(c, '\n')) != NULL;)
        *c = ' ';
    if (msg[0] == 0)
        strcpy(msg, "the file holds no graph");
    Loc loc = {.file = file};
    const char *l = strstr(msg, " in line ");
    if (l) {
        loc.line = atoi(l + 9);
        const char *rest = strchr(l + 9, ' ');
        char out[sizeof errbuf];
        snprintf(out, sizeof out, "%.*s%s", (int)(l - msg), msg, rest ? rest : "");
        /* "(null):3:" prefixes and the like never reach here: agsetfile is not used */
        diag_error(d, &loc, "%s", out);
        return;
    }
    diag_error(d, &loc, "%s", msg);
}

/* Integer attribute `names[0]` (or names[1]) of object o; *found tells whether one was
 * set.  Returns -1 after reporting a value that is not an integer in 0..max. */
static int
int_attr(void *o, const char *const names[2], int64_t max, int64_t *v, bool *found,
         const char *what, const Loc *loc, Diag *d)
{
    *found = false;
    for (int i = 0; i < 2; i++) {
        char *s = agget(o, (char *)names[i]);
        if (!s || !*s)
            continue;
        char *end;
        long long x = strtoll(s, &end, 10);
        /* Accept "12.0" as well: some generators print weights as reals. */
        if (*end == '.' && strspn(end + 1, "0") == strlen(end + 1))
            end += strlen(end);
        if (*end || end == s || x < 0 || x > max) {
            diag_error(d, loc,
                       "%s: attribute \"%s\" must be an integer in 0..%lld, got \"%s\"",
                       what, names[i], (long long)max, s);
            return -1;
        }
        *v = x;
        *found = true;
        return 0;
    }
    return 0;
}

typedef struct NodeRec {
    Agrec_t h;
    int index; /* task index */
} NodeRec;

static int
node_index(Agnode_t *n)
{
    return ((NodeRec *)aggetrec(n, "tgc", false))->index;
}

static int
by_seq(const void *a, const void *b)
{
    uint64_t x = AGSEQ(*(Agedge_t *const *)a), y = AGSEQ(*(Agedge_t *const *)b);
    return x < y ? -1 : x > y;
}

/* Reports one zero-delay cycle (ir_graph_index found there is one). */
static void
report_cycle(const Graph *g, const Loc *loc, Diag *d)
{
    int n = g->ntasks;
    char *color = calloc((size_t)n + 1, 1);
    int *stack = malloc(((size_t)n + 1) * sizeof *stack);
    int *pos = malloc(((size_t)n + 1) * sizeof *pos);
    if (!color || !stack || !pos)
        ice("out of memory");
    int found = -1;
    for (int r = 0; r < n && found < 0; r++) {
        if (color[r])
            continue;
        int sp = 0;
        stack[sp] = r;
        pos[sp++] = g->succ_off[r];
        color[r] = 1;
        while (sp && found < 0) {
            int t = stack[sp - 1];
            if (pos[sp - 1] == g->succ_off[t + 1]) {
                color[t] = 2;
                sp--;
                continue;
            }
            const Edge *e = &g->edges[g->succ[pos[sp - 1]++]];
            if (e->delay)
                continue;
            if (color[e->to] == 1)
                found = e->to;
            else if (!color[e->to]) {
                color[e->to] = 1;
                stack[sp] = e->to;
                pos[sp++] = g->succ_off[e->to];
            }
        }
    }
    diag_error(d, loc, "the edges without delay form a cycle through task \"%s\"",
               found >= 0 ? g->tasks[found].id : "?");
    free(color);
    free(stack);
    free(pos);
}

Graph *
fe_import_dot(const char *path, const Options *opt, Diag *d)
{
    static const char *const node_w[2] = {"Weight", "cycles"};
    static const char *const edge_w[2] = {"Weight", "bytes"};
    static const char *const delay_w[2] = {"delay", "delay"};
    Loc floc = {.file = strcmp(path, "-") == 0 ? "<stdin>" : path};
    size_t len;
    char *text = fe_import_read(path, opt, &len, d);
    if (!text)
        return NULL;
    if (strlen(text) != len) {
        diag_error(d, &floc, "the file contains a NUL byte");
        free(text);
        return NULL;
    }

    errlen = 0;
    errbuf[0] = 0;
    agusererrf old = agseterrf(collect);
    agerrlevel_t oldlv = agseterr(AGERR);
    /* cgraph's lexer keeps the lookahead of the previous successful read, which shifts
     * the line numbers of the next one by one; a read that fails resets it. */
    Agraph_t *prime = agmemread("}");
    if (prime)
        agclose(prime);
    errlen = 0;
    errbuf[0] = 0;
    agreseterrors();
    Agraph_t *ag = agmemread(text);
    free(text);
    if (!ag || agerrors()) {
        report_cgraph(d, floc.file);
        if (ag)
            agclose(ag);
        agseterrf(old);
        agseterr(oldlv);
        return NULL;
    }
    agseterrf(old);
    agseterr(oldlv);
    if (!agisdirected(ag)) {
        diag_error(d, &floc, "a task graph must be a digraph");
        agclose(ag);
        return NULL;
    }

    int errors = diag_errors(d);
    Graph *g = ir_graph_new();
    g->file = arena_strdup(g->arena, floc.file);
    char *gname = agnameof(ag);
    /* Names become task ids and the graph's name, written as JSON: they must be UTF-8. */
    if (gname && !ir_utf8_valid(gname))
        diag_error(d, &floc, "the graph's name \"%s\" is not valid UTF-8",
                   ir_shown(g->arena, gname, 60));
    g->name = gname && *gname && gname[0] != '%' ? arena_strdup(g->arena, gname)
                                                 : fe_base_name(g->arena, path);
    g->iterations = 1;
    int nn = agnnodes(ag), ne = agnedges(ag);
    if (nn == 0) {
        diag_error(d, &floc,
                   "the graph has no nodes (a task graph needs at least one task)");
        goto fail;
    }
    if (nn > opt->limits.max_tasks || ne > opt->limits.max_edges) {
        diag_error(
            d, &floc, "%d tasks and %d edges exceed --max-tasks=%lld or --max-edges=%lld",
            nn, ne, (long long)opt->limits.max_tasks, (long long)opt->limits.max_edges);
        goto fail;
    }
    g->ntasks = nn;
    g->tasks = arena_array(g->arena, (size_t)nn + 1, sizeof *g->tasks);
    int t = 0;
    for (Agnode_t *n = agfstnode(ag); n; n = agnxtnode(ag, n), t++) {
        Task *tk = &g->tasks[t];
        tk->id = arena_strdup(g->arena, agnameof(n));
        if (!*tk->id)
            diag_error(d, &floc, "a node has an empty name (task ids must not be empty)");
        else if (!ir_utf8_valid(tk->id))
            diag_error(d, &floc, "node \"%s\": the name is not valid UTF-8",
                       ir_shown(g->arena, tk->id, 60));
        tk->dsp = -1;
        tk->ncycles = 1;
        tk->cycles = arena_alloc(g->arena, sizeof *tk->cycles);
        char *what = arena_printf(g->arena, "node \"%s\"", tk->id);
        bool found;
        if (int_attr(n, node_w, FE_MAX_CYCLES, &tk->cycles[0], &found, what, &floc, d) ==
                0 &&
            !found)
            diag_error(d, &floc,
                       "node \"%s\" has no attribute \"Weight\" (or \"cycles\")", tk->id);
        NodeRec *r = agbindrec(n, "tgc", sizeof(NodeRec), false);
        r->index = t;
    }
    Agedge_t **es = malloc(((size_t)ne + 1) * sizeof *es);
    if (!es)
        ice("out of memory");
    int k = 0;
    for (Agnode_t *n = agfstnode(ag); n; n = agnxtnode(ag, n))
        for (Agedge_t *e = agfstout(ag, n); e; e = agnxtout(ag, e))
            es[k++] = e;
    qsort(es, (size_t)k, sizeof *es, by_seq);
    g->nedges = k;
    g->edges = arena_array(g->arena, (size_t)k + 1, sizeof *g->edges);
    for (int i = 0; i < k; i++) {
        Agedge_t *e = es[i];
        Edge *ed = &g->edges[i];
        ed->from = node_index(agtail(e));
        ed->to = node_index(aghead(e));
        char *what = arena_printf(g->arena, "edge \"%s\" -> \"%s\"", agnameof(agtail(e)),
                                  agnameof(aghead(e)));
        bool found;
        if (int_attr(e, edge_w, FE_MAX_BYTES, &ed->bytes, &found, what, &floc, d) == 0 &&
            !found)
            diag_error(d, &floc, "%s has no attribute \"Weight\" (or \"bytes\")", what);
        int64_t delay = 0;
        int_attr(e, delay_w, FE_MAX_DELAY, &delay, &found, what, &floc, d);
        ed->delay = (int)delay;
    }
    free(es);
    agclose(ag);
    ag = NULL;
    if (diag_errors(d) > errors)
        goto fail;
    if (fe_import_platform(g, opt, &floc, d) < 0)
        goto fail;
    if (ir_graph_index(g) < 0) {
        report_cycle(g, &floc, d);
        goto fail;
    }
    return g;

fail:
    if (ag)
        agclose(ag);
    ir_graph_free(g);
    return NULL;
}
