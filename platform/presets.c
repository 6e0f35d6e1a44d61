/*
 * platform/presets.c - the presets and the defaults of the platform model (docs/design.md
 * section 2), the platform that fits a number of DSPs, and the small helpers of the
 * reader (suggestions, the connectivity of the board links).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

const char *const pd_preset_names[] = {
    "bwdsp-1board", "bwdsp-2board", "bwdsp-4board", "bwdsp-16board", "abstract", NULL,
};

static void *
xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("platform: out of memory\n", stderr);
        abort();
    }
    return q;
}

void
pd_set_name(PlatDesc *p, const char *name)
{
    size_t n = strlen(name) + 1;
    char *s = xrealloc(NULL, n);
    memcpy(s, name, n);
    free(p->name);
    p->name = s;
}

void
pd_free(PlatDesc *p)
{
    free(p->name);
    free(p->links);
    p->name = NULL;
    p->links = NULL;
    p->nlinks = 0;
}

void
pd_defaults(PlatDesc *p)
{
    memset(p, 0, sizeof *p);
    pd_set_name(p, "bwdsp");
    p->model = PD_BWDSP;
    p->nboards = 1;
    p->dsps_per_board = 4;
    p->ndsps = 4;
    p->dsp_clock_mhz = 500;
    p->link_mbps = 4416;
    p->packet_bytes = 276;
    p->payload_bytes = 250;
    p->switch_latency = 100;
    p->send_overhead = 600;
    p->recv_overhead = 400;
    p->post_overhead = 300;
    p->wait_overhead = 200;
    p->copy_bytes_per_cycle = 8;
    p->handshake = 300;
    p->eager_limit = 0;
    p->dsp_memory_bytes = 2097152;
}

void
pd_abstract(PlatDesc *p, int ndsps)
{
    pd_defaults(p);
    pd_set_name(p, "abstract");
    p->model = PD_ABSTRACT;
    p->nboards = 0;
    p->dsps_per_board = 0;
    p->ndsps = ndsps;
    p->switch_latency = p->send_overhead = p->recv_overhead = 0;
    p->post_overhead = p->wait_overhead = p->handshake = 0;
    /* The literature's model: data moves as soon as it is sent (arrival = producer's
     * finish + bytes), with no rendezvous waiting for the receiver to post: every
     * message eager. */
    p->eager_limit = 1000000000;
    p->copy_bytes_per_cycle =
        1000000; /* packing is free: ceil(n / 1e6) is 0 only for 0 */
}

static void
add_link(PlatDesc *p, int a, int b)
{
    p->links = xrealloc(p->links, (size_t)(p->nlinks + 1) * sizeof *p->links);
    p->links[p->nlinks++] = (PdLink){a, b};
}

static void
clear_links(PlatDesc *p)
{
    free(p->links);
    p->links = NULL;
    p->nlinks = 0;
}

void
pd_chain(PlatDesc *p)
{
    clear_links(p);
    for (int b = 0; b + 1 < p->nboards; b++)
        add_link(p, b, b + 1);
}

/* rows x cols boards numbered row-major (the last row may be short): links to the right
 * and lower neighbours, in board order */
static void
mesh(PlatDesc *p, int rows, int cols)
{
    clear_links(p);
    for (int b = 0; b < p->nboards; b++) {
        int r = b / cols, c = b % cols;
        if (c + 1 < cols && b + 1 < p->nboards)
            add_link(p, b, b + 1);
        if (r + 1 < rows && b + cols < p->nboards)
            add_link(p, b, b + cols);
    }
}

void
pd_preset_links(PlatDesc *p)
{
    if (p->nboards == 2) {
        clear_links(p);
        add_link(p, 0, 1);
    } else if (p->nboards == 4) {
        clear_links(p);
        for (int i = 0; i < 4; i++)
            add_link(p, i, (i + 1) % 4);
    } else if (p->nboards == 16) {
        mesh(p, 4, 4);
    } else {
        pd_chain(p);
    }
}

int
pd_preset(PlatDesc *p, const char *name)
{
    static const int boards[] = {1, 2, 4, 16};
    if (strcmp(name, "abstract") == 0) {
        pd_abstract(p, 4);
        return 0;
    }
    for (int i = 0; i < 4; i++)
        if (strcmp(name, pd_preset_names[i]) == 0) {
            pd_defaults(p);
            pd_set_name(p, name);
            p->nboards = boards[i];
            p->ndsps = boards[i] * p->dsps_per_board;
            pd_preset_links(p);
            return 0;
        }
    return -1;
}

void
pd_fit(PlatDesc *p, int ndsps)
{
    const char *fit = ndsps <= 4    ? "bwdsp-1board"
                      : ndsps <= 8  ? "bwdsp-2board"
                      : ndsps <= 16 ? "bwdsp-4board"
                      : ndsps <= 64 ? "bwdsp-16board"
                                    : NULL;
    if (fit) {
        pd_preset(p, fit);
        return;
    }
    pd_defaults(p);
    int boards = (ndsps + 3) / 4;
    int cols = (int)ceil(sqrt((double)boards));
    int rows = (boards + cols - 1) / cols;
    char name[64];
    snprintf(name, sizeof name, "mesh-%dx%d-%dboard", rows, cols, boards);
    pd_set_name(p, name);
    p->nboards = boards;
    p->ndsps = boards * p->dsps_per_board;
    mesh(p, rows, cols);
}

const char *
pd_suggest_preset(const char *name)
{
    int want;
    char tail[8];
    /* "bwdsp-<N>board" suggests the largest preset of at most N boards (edit distance
     * would tie between all of them) */
    if (sscanf(name, "bwdsp-%dboard%7s", &want, tail) == 1 && want > 0) {
        static const int boards[] = {1, 2, 4, 16};
        int best = 0;
        for (int i = 0; i < 4; i++)
            if (boards[i] <= want)
                best = i;
        return pd_preset_names[best];
    }
    size_t n = 0;
    while (pd_preset_names[n])
        n++;
    return pd_suggest(name, pd_preset_names, n);
}

/* Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions),
 * bounded: returns limit + 1 as soon as the distance must exceed limit. */
static size_t
distance(const char *a, const char *b, size_t limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > limit)
        return limit + 1;
    if (la > 64 || lb > 64)
        return strcmp(a, b) ? limit + 1 : 0;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    }
    return d[la][lb];
}

const char *
pd_suggest(const char *word, const char *const *cands, size_t ncands)
{
    size_t len = strlen(word);
    size_t limit = len < 3 ? 1 : len < 8 ? 2 : 3;
    const char *best = NULL;
    size_t bestd = limit + 1;
    for (size_t i = 0; i < ncands; i++) {
        size_t dd = distance(word, cands[i], limit);
        if (dd < bestd) {
            bestd = dd;
            best = cands[i];
        }
    }
    return best;
}

bool
pd_is_path(const char *ref)
{
    size_t n = strlen(ref);
    return strchr(ref, '/') || (n >= 5 && strcmp(ref + n - 5, ".json") == 0);
}

int
pd_spanning_tree(int nboards, const PdLink *links, int nlinks, int *parent)
{
    /* best[v]: the lowest tree board linked to v, or -1 (v in the tree or not linked to
     * it); each step adds the lowest board with one, so the rule costs one scan of the
     * boards per step: O(nboards^2 + nlinks) in all */
    int nb = nboards;
    int *off = xrealloc(NULL, ((size_t)nb + 1) * sizeof *off);
    int *nbr = xrealloc(NULL, (size_t)(2 * nlinks + 1) * sizeof *nbr);
    int *best = xrealloc(NULL, (size_t)nb * sizeof *best);
    bool *in = xrealloc(NULL, (size_t)nb * sizeof *in);
    memset(off, 0, ((size_t)nb + 1) * sizeof *off);
    for (int l = 0; l < nlinks; l++)
        off[links[l].a + 1]++, off[links[l].b + 1]++;
    for (int v = 0; v < nb; v++)
        off[v + 1] += off[v];
    for (int l = 0; l < nlinks; l++) {
        nbr[off[links[l].a]++] = links[l].b;
        nbr[off[links[l].b]++] = links[l].a;
    }
    for (int v = nb; v > 0; v--) /* back to the starts */
        off[v] = off[v - 1];
    off[0] = 0;
    for (int v = 0; v < nb; v++) {
        parent[v] = -1;
        best[v] = -1;
        in[v] = false;
    }
    int unreached = -1;
    for (int added = 0, u = 0; added < nb; added++) {
        in[u] = true;
        for (int j = off[u]; j < off[u + 1]; j++) {
            int w = nbr[j];
            if (!in[w] && (best[w] < 0 || u < best[w]))
                best[w] = u;
        }
        u = -1;
        for (int v = 0; v < nb && u < 0; v++)
            if (!in[v] && best[v] >= 0)
                u = v;
        if (u < 0) {
            for (int v = 0; v < nb && unreached < 0; v++)
                if (!in[v])
                    unreached = v;
            break;
        }
        parent[u] = best[u];
    }
    free(off);
    free(nbr);
    free(best);
    free(in);
    return unreached;
}

int
pd_unreached_board(const PlatDesc *p)
{
    if (p->nboards <= 1)
        return -1;
    int *parent = xrealloc(NULL, (size_t)p->nboards * sizeof *parent);
    int b = pd_spanning_tree(p->nboards, p->links, p->nlinks, parent);
    free(parent);
    return b;
}

/* appends to the malloc'd text at *s (length *len) */
static void append(char **s, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void
append(char **s, size_t *len, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    *s = xrealloc(*s, *len + (size_t)(n > 0 ? n : 0) + 1);
    vsnprintf(*s + *len, (size_t)(n > 0 ? n : 0) + 1, fmt, ap2);
    va_end(ap2);
    *len += (size_t)(n > 0 ? n : 0);
}

char *
pd_describe(const PlatDesc *p)
{
    char *s = NULL;
    size_t len = 0;
    append(&s, &len, "%s: ", p->name ? p->name : "");
    if (p->model == PD_ABSTRACT) {
        append(&s, &len, "abstract, %d DSPs", p->ndsps);
    } else {
        append(&s, &len, "bwdsp, %d board%s of %d DSPs, links", p->nboards,
               p->nboards == 1 ? "" : "s", p->dsps_per_board);
        if (!p->nlinks)
            append(&s, &len, " none");
        for (int i = 0; i < p->nlinks; i++)
            append(&s, &len, " %d-%d", p->links[i].a, p->links[i].b);
    }
#define DESCRIBE(f, lo, hi) append(&s, &len, ", %s %" PRId64, #f, p->f);
    PLATFORM_PARAMS(DESCRIBE)
#undef DESCRIBE
    return s;
}
