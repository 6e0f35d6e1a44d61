/*
 * bench/bench.c - the benchmark harness: runs named suites, turns what each prints into a
 * table, a CSV file and an SVG plot, and regenerates the results page.
 *
 *     bench [--quick] [--out DIR] [--data DIR] [--no-plots] SUITE...|all
 *     bench --page [--out DIR] [-o FILE]
 *     bench --list
 *     bench json-rows FILE SECTION KEY,KEY,...
 *
 * (--suites DIR and --template FILE replace bench/suites and bench/results.md.in.)
 *
 * A suite is an executable in bench/suites/ (its file name is the suite's name).  The
 * harness runs it from the source folder with TGC_SOURCE_DIR, TGC_BUILD_DIR,
 * TGC_BENCH_DATA (the folder of outside benchmark inputs), TGC_BENCH_MODE (quick or
 * full) and TGC_BENCH_TMP (a scratch folder, removed afterwards) in its environment.  It
 * prints the tgc-bench/1 format on stdout (docs/results.md, "Adding a suite"):
 *
 *     tgc-bench/1
 *     table NAME TITLE...            a new table (NAME: letters, digits, '-')
 *     columns COL,COL,...            its header (once, before its rows)
 *     row VALUE,VALUE,...            one row (CSV: "..." quotes a value with commas)
 *     note TEXT...                   a sentence shown above the table
 *     plot KIND x=COL y=COL[,COL...] [by=COL] [logx] [logy] [xlabel=TEXT] [ylabel=TEXT]
 *                                    KIND: lines, points or bars; a value runs to
 *                                    the next " key=", " logx", " logy" or the end
 *     csv-only                       keep the table out of the page (CSV only)
 *     # ...                          a comment
 *
 * Exit status 0 = measured, 77 = skipped (an input is missing; stderr says which), any
 * other = failed.  A suite that fails, prints something malformed or a table without rows
 * gets nothing written: its previous results stay as they were, and bench exits 1.  Each
 * table T of suite S gives OUT/S-T.csv, OUT/S-T.md (its block of the page: title, notes,
 * table, plot, command and machine) and OUT/S-T.svg; OUT/S.meta records the run.  The
 * page is bench/results.md.in with every line "@suite S@" replaced by S's blocks.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "ir.h"

#ifndef TGC_SOURCE_DIR
#define TGC_SOURCE_DIR "."
#endif
#ifndef TGC_BUILD_DIR
#define TGC_BUILD_DIR "build"
#endif
#ifndef TGC_BUILD_TYPE
#define TGC_BUILD_TYPE "unknown"
#endif

enum { EXIT_SKIP = 77, MAXCOLS = 64, MAXY = 16 };

/* ------------------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------------------ */

static void
die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench: error: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void *
xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die("out of memory");
    return p;
}

static void *
xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

static char *
xstrdup(const char *s)
{
    return pd_format("%s", s);
}

/* A growing string. */
typedef struct Buf {
    char *s;
    size_t n, cap;
} Buf;

static void
buf_add(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *t = pd_vformat(fmt, ap);
    va_end(ap);
    size_t k = strlen(t);
    if (b->n + k + 1 > b->cap) {
        b->cap = (b->n + k + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, t, k + 1);
    b->n += k;
    free(t);
}

static char *
read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    Buf b = {0};
    char chunk[65536];
    size_t k;
    buf_add(&b, "%s", "");
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.n + k + 1 > b.cap) {
            b.cap = (b.n + k + 1) * 2;
            b.s = xrealloc(b.s, b.cap);
        }
        memcpy(b.s + b.n, chunk, k);
        b.n += k;
        b.s[b.n] = 0;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b.s);
        return NULL;
    }
    if (len)
        *len = b.n;
    return b.s;
}

/* Writes text to path through a temporary file and a rename; dies on failure. */
static void
write_file(const char *path, const char *text)
{
    char *tmp = pd_format("%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        die("cannot write %s: %s", tmp, strerror(errno));
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        die("cannot write %s: %s", path, strerror(errno));
    }
    free(tmp);
}

static bool
is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void
make_dir(const char *p)
{
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
        die("cannot create %s: %s", p, strerror(errno));
}

static void
remove_tree(const char *p)
{
    DIR *d = opendir(p);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char *q = pd_format("%s/%s", p, e->d_name);
            if (is_dir(q))
                remove_tree(q);
            else
                remove(q);
            free(q);
        }
        closedir(d);
    }
    rmdir(p);
}

static char *
abs_path(const char *p)
{
    char buf[PATH_MAX];
    if (!realpath(p, buf))
        die("%s: %s", p, strerror(errno));
    return xstrdup(buf);
}

/* The path of `to` relative to the folder `from` (both absolute, normalised). */
static char *
rel_path(const char *from, const char *to)
{
    size_t common = 0;
    for (size_t i = 0;; i++) {
        char a = from[i], b = to[i];
        if ((a == '/' || a == 0) && (b == '/' || b == 0))
            common = i;
        if (a == 0 || b == 0 || a != b)
            break;
    }
    Buf r = {0};
    buf_add(&r, "%s", "");
    for (const char *s = from + common; *s; s++)
        if (*s == '/')
            buf_add(&r, "../");
    const char *rest = to + common;
    if (*rest == '/')
        rest++;
    buf_add(&r, "%s", rest);
    if (r.n == 0)
        buf_add(&r, ".");
    return r.s;
}

static bool
valid_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' ||
              (*s >= 'A' && *s <= 'Z')))
            return false;
    return true;
}

static bool
is_number(const char *s)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    strtod(s, &end);
    return *end == 0 && errno == 0;
}

/* ------------------------------------------------------------------------------------
 * The tgc-bench/1 format
 * ------------------------------------------------------------------------------------ */

typedef enum { PLOT_NONE, PLOT_LINES, PLOT_POINTS, PLOT_BARS } PlotKind;

typedef struct Plot {
    PlotKind kind;
    int x, y[MAXY], ny, by; /* column indices; by = -1 for none */
    bool logx, logy;
    char *xlabel, *ylabel;
} Plot;

typedef struct Table {
    char *name, *title;
    char **cols;
    int ncols;
    char ***rows; /* [nrows][ncols] */
    int nrows;
    char **notes;
    int nnotes;
    Plot plot;
    bool csv_only;
} Table;

typedef struct Result {
    Table *t;
    int nt;
} Result;

static void
result_free(Result *r)
{
    for (int i = 0; i < r->nt; i++) {
        Table *t = &r->t[i];
        for (int k = 0; k < t->nrows; k++) {
            for (int j = 0; j < t->ncols; j++)
                free(t->rows[k][j]);
            free(t->rows[k]);
        }
        for (int j = 0; j < t->ncols; j++)
            free(t->cols[j]);
        for (int k = 0; k < t->nnotes; k++)
            free(t->notes[k]);
        free(t->rows);
        free(t->cols);
        free(t->notes);
        free(t->name);
        free(t->title);
        free(t->plot.xlabel);
        free(t->plot.ylabel);
    }
    free(r->t);
    memset(r, 0, sizeof *r);
}

/* Splits one CSV line into at most MAXCOLS fields; returns the count or -1. */
static int
split_csv(const char *s, char **out)
{
    int n = 0;
    for (;;) {
        Buf f = {0};
        buf_add(&f, "%s", "");
        if (*s == '"') {
            s++;
            for (;;) {
                if (*s == 0) {
                    free(f.s);
                    return -1;
                }
                if (*s == '"' && s[1] == '"') {
                    buf_add(&f, "\"");
                    s += 2;
                } else if (*s == '"') {
                    s++;
                    break;
                } else {
                    buf_add(&f, "%c", *s++);
                }
            }
            if (*s != ',' && *s != 0) {
                free(f.s);
                return -1;
            }
        } else {
            while (*s && *s != ',')
                buf_add(&f, "%c", *s++);
        }
        if (n == MAXCOLS) {
            free(f.s);
            return -1;
        }
        out[n++] = f.s;
        if (*s == 0)
            return n;
        s++; /* the comma */
    }
}

static int
col_index(const Table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i], name) == 0)
            return i;
    return -1;
}

/* The value of key=VALUE in a plot line: up to the next " word=" or the end. */
static char *
plot_value(const char *line, const char *key)
{
    size_t k = strlen(key);
    for (const char *s = line; (s = strstr(s, key));) {
        if ((s == line || s[-1] == ' ') && s[k] == '=') {
            const char *v = s + k + 1, *e = v;
            while (*e) {
                if (*e == ' ') {
                    const char *w = e + 1;
                    while ((*w >= 'a' && *w <= 'z'))
                        w++;
                    bool flag = w - e - 1 == 4 && (strncmp(e + 1, "logx", 4) == 0 ||
                                                   strncmp(e + 1, "logy", 4) == 0);
                    if ((*w == '=' && w > e + 1) || (flag && (*w == ' ' || !*w)))
                        break;
                }
                e++;
            }
            char *r = xcalloc((size_t)(e - v) + 1, 1);
            memcpy(r, v, (size_t)(e - v));
            return r;
        }
        s += k;
    }
    return NULL;
}

static bool
has_word(const char *line, const char *w)
{
    size_t k = strlen(w);
    for (const char *s = line; (s = strstr(s, w)); s += k)
        if ((s == line || s[-1] == ' ') && (s[k] == ' ' || s[k] == 0))
            return true;
    return false;
}

/* Parses a plot line into t->plot; returns NULL or the reason it is bad. */
static char *
parse_plot(Table *t, const char *line)
{
    Plot *p = &t->plot;
    memset(p, 0, sizeof *p);
    p->by = -1;
    if (strncmp(line, "lines", 5) == 0 && (line[5] == ' ' || !line[5]))
        p->kind = PLOT_LINES;
    else if (strncmp(line, "points", 6) == 0 && (line[6] == ' ' || !line[6]))
        p->kind = PLOT_POINTS;
    else if (strncmp(line, "bars", 4) == 0 && (line[4] == ' ' || !line[4]))
        p->kind = PLOT_BARS;
    else
        return pd_format("plot kind must be lines, points or bars");
    char *x = plot_value(line, "x"), *y = plot_value(line, "y"),
         *by = plot_value(line, "by");
    char *why = NULL;
    if (!x || !y)
        why = pd_format("plot needs x=COLUMN and y=COLUMN[,COLUMN...]");
    else if ((p->x = col_index(t, x)) < 0)
        why = pd_format("plot: no column \"%s\"", x);
    else if (by && (p->by = col_index(t, by)) < 0)
        why = pd_format("plot: no column \"%s\"", by);
    else {
        char *fields[MAXCOLS];
        int n = split_csv(y, fields);
        for (int i = 0; i < n; i++) {
            int c = col_index(t, fields[i]);
            if (!why && c < 0)
                why = pd_format("plot: no column \"%s\"", fields[i]);
            else if (!why && p->ny == MAXY)
                why = pd_format("plot: at most %d y columns", MAXY);
            else if (!why)
                p->y[p->ny++] = c;
            free(fields[i]);
        }
        if (!why && n <= 0)
            why = pd_format("plot needs y=COLUMN");
    }
    p->logx = has_word(line, "logx");
    p->logy = has_word(line, "logy");
    p->xlabel = plot_value(line, "xlabel");
    p->ylabel = plot_value(line, "ylabel");
    free(x);
    free(y);
    free(by);
    return why;
}

/* Parses a suite's output; returns NULL, or a message "LINE: reason". */
static char *
parse_result(char *text, Result *r)
{
    memset(r, 0, sizeof *r);
    int lineno = 0;
    bool header = false;
    Table *t = NULL;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = 0;
        if (n == 0 || line[0] == '#')
            continue;
        if (!header) {
            if (strcmp(line, "tgc-bench/1") != 0)
                return pd_format("%d: expected \"tgc-bench/1\", got \"%.60s\"", lineno,
                                 line);
            header = true;
            continue;
        }
        char *sp = strchr(line, ' ');
        char *arg = sp ? sp + 1 : line + n;
        if (sp)
            *sp = 0;
        if (strcmp(line, "table") == 0) {
            char *nm = arg, *title = strchr(arg, ' ');
            if (title)
                *title++ = 0;
            if (!valid_name(nm))
                return pd_format("%d: a table name is letters, digits and '-'", lineno);
            for (int i = 0; i < r->nt; i++)
                if (strcmp(r->t[i].name, nm) == 0)
                    return pd_format("%d: table \"%s\" given twice", lineno, nm);
            r->t = xrealloc(r->t, (size_t)(r->nt + 1) * sizeof *r->t);
            t = &r->t[r->nt++];
            memset(t, 0, sizeof *t);
            t->name = xstrdup(nm);
            t->title = xstrdup(title && *title ? title : nm);
            continue;
        }
        if (!t)
            return pd_format("%d: \"%s\" before the first table", lineno, line);
        if (strcmp(line, "columns") == 0) {
            if (t->ncols)
                return pd_format("%d: table \"%s\" has its columns already", lineno,
                                 t->name);
            char *f[MAXCOLS];
            int k = split_csv(arg, f);
            if (k <= 0)
                return pd_format("%d: bad column list", lineno);
            t->cols = xcalloc((size_t)k, sizeof *t->cols);
            for (int i = 0; i < k; i++) {
                t->cols[i] = f[i];
                if (!*f[i])
                    return pd_format("%d: empty column name", lineno);
            }
            t->ncols = k;
        } else if (strcmp(line, "row") == 0) {
            if (!t->ncols)
                return pd_format("%d: row before the columns of table \"%s\"", lineno,
                                 t->name);
            char *f[MAXCOLS];
            int k = split_csv(arg, f);
            if (k != t->ncols) {
                for (int i = 0; i < k; i++)
                    free(f[i]);
                return pd_format("%d: table \"%s\" has %d columns, the row %d values",
                                 lineno, t->name, t->ncols, k);
            }
            t->rows = xrealloc(t->rows, (size_t)(t->nrows + 1) * sizeof *t->rows);
            t->rows[t->nrows] = xcalloc((size_t)k, sizeof(char *));
            memcpy(t->rows[t->nrows++], f, (size_t)k * sizeof(char *));
        } else if (strcmp(line, "note") == 0) {
            t->notes = xrealloc(t->notes, (size_t)(t->nnotes + 1) * sizeof *t->notes);
            t->notes[t->nnotes++] = xstrdup(arg);
        } else if (strcmp(line, "plot") == 0) {
            if (!t->ncols)
                return pd_format("%d: plot before the columns", lineno);
            char *why = parse_plot(t, arg);
            if (why) {
                char *m = pd_format("%d: %s", lineno, why);
                free(why);
                return m;
            }
        } else if (strcmp(line, "csv-only") == 0) {
            t->csv_only = true;
        } else {
            return pd_format("%d: unknown line \"%s\"", lineno, line);
        }
    }
    if (!header)
        return pd_format("no output (expected \"tgc-bench/1\")");
    if (r->nt == 0)
        return pd_format("no table");
    for (int i = 0; i < r->nt; i++) {
        Table *u = &r->t[i];
        if (u->nrows == 0)
            return pd_format("table \"%s\" has no rows", u->name);
        Plot *p = &u->plot;
        if (p->kind == PLOT_NONE)
            continue;
        for (int k = 0; k < u->nrows; k++) {
            for (int j = 0; p->kind == PLOT_BARS && j < k; j++)
                if (strcmp(u->rows[j][p->x], u->rows[k][p->x]) == 0 &&
                    (p->by < 0 || strcmp(u->rows[j][p->by], u->rows[k][p->by]) == 0))
                    return pd_format("table \"%s\": two rows have the bar x = \"%s\"%s%s",
                                     u->name, u->rows[k][p->x],
                                     p->by < 0 ? "" : " and by = ",
                                     p->by < 0 ? "" : u->rows[k][p->by]);
            if (p->kind != PLOT_BARS && !is_number(u->rows[k][p->x]))
                return pd_format("table \"%s\": x column \"%s\" is not numeric (\"%s\")",
                                 u->name, u->cols[p->x], u->rows[k][p->x]);
            for (int j = 0; j < p->ny; j++)
                if (!is_number(u->rows[k][p->y[j]]) && strcmp(u->rows[k][p->y[j]], "-"))
                    return pd_format(
                        "table \"%s\": y column \"%s\" is not numeric (\"%s\"; \"-\" "
                        "for none)",
                        u->name, u->cols[p->y[j]], u->rows[k][p->y[j]]);
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------------------------
 * Outputs of one table
 * ------------------------------------------------------------------------------------ */

static void
csv_field(Buf *b, const char *s)
{
    if (strpbrk(s, ",\"")) {
        buf_add(b, "\"");
        for (; *s; s++)
            buf_add(b, *s == '"' ? "\"\"" : "%c", *s);
        buf_add(b, "\"");
    } else {
        buf_add(b, "%s", s);
    }
}

static char *
table_csv(const Table *t)
{
    Buf b = {0};
    for (int i = 0; i < t->ncols; i++) {
        buf_add(&b, i ? "," : "%s", "");
        csv_field(&b, t->cols[i]);
    }
    buf_add(&b, "\n");
    for (int k = 0; k < t->nrows; k++) {
        for (int i = 0; i < t->ncols; i++) {
            buf_add(&b, i ? "," : "%s", "");
            csv_field(&b, t->rows[k][i]);
        }
        buf_add(&b, "\n");
    }
    return b.s;
}

static bool
numeric_col(const Table *t, int c)
{
    for (int k = 0; k < t->nrows; k++)
        if (!is_number(t->rows[k][c]) && strcmp(t->rows[k][c], "-"))
            return false;
    return true;
}

static void
md_cell(Buf *b, const char *s)
{
    for (; *s; s++)
        buf_add(b, *s == '|' ? "\\|" : "%c", *s);
}

static void
table_md(Buf *b, const Table *t)
{
    buf_add(b, "|");
    for (int i = 0; i < t->ncols; i++) {
        buf_add(b, " ");
        md_cell(b, t->cols[i]);
        buf_add(b, " |");
    }
    buf_add(b, "\n|");
    for (int i = 0; i < t->ncols; i++)
        buf_add(b, numeric_col(t, i) ? "---:|" : "---|");
    buf_add(b, "\n");
    for (int k = 0; k < t->nrows; k++) {
        buf_add(b, "|");
        for (int i = 0; i < t->ncols; i++) {
            buf_add(b, " ");
            md_cell(b, t->rows[k][i]);
            buf_add(b, " |");
        }
        buf_add(b, "\n");
    }
}

/* The table as aligned text, for the terminal. */
static void
table_text(FILE *f, const Table *t)
{
    int w[MAXCOLS];
    for (int i = 0; i < t->ncols; i++) {
        w[i] = (int)strlen(t->cols[i]);
        for (int k = 0; k < t->nrows; k++)
            if ((int)strlen(t->rows[k][i]) > w[i])
                w[i] = (int)strlen(t->rows[k][i]);
    }
    fprintf(f, "%s\n", t->title);
    for (int i = 0; i < t->ncols; i++)
        fprintf(f, "%s%-*s", i ? "  " : "  ", w[i], t->cols[i]);
    fputc('\n', f);
    for (int k = 0; k < t->nrows; k++) {
        for (int i = 0; i < t->ncols; i++) {
            bool num = numeric_col(t, i);
            fprintf(f, "  %*s", num ? w[i] : -w[i], t->rows[k][i]);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

/* A gnuplot string literal. */
static void
gp_str(Buf *b, const char *s)
{
    buf_add(b, "\"");
    for (; *s; s++)
        buf_add(b, (*s == '"' || *s == '\\') ? "\\%c" : "%c", *s);
    buf_add(b, "\"");
}

static const char *
gp_value(const char *s)
{
    return strcmp(s, "-") == 0 ? "NaN" : s;
}

/* Distinct values of column c in row order. */
static int
distinct(const Table *t, int c, const char **out)
{
    int n = 0;
    for (int k = 0; k < t->nrows; k++) {
        int j = 0;
        while (j < n && strcmp(out[j], t->rows[k][c]) != 0)
            j++;
        if (j == n)
            out[n++] = t->rows[k][c];
    }
    return n;
}

/* The title of series j of group `group` in t's plot (malloc'd). */
static char *
series_title(const Table *t, const Plot *p, const char *group, int j)
{
    if (p->by >= 0 && p->ny > 1)
        return pd_format("%s %s", group, t->cols[p->y[j]]);
    if (p->by >= 0)
        return pd_format("%s=%s", t->cols[p->by], group);
    return pd_format("%s", t->cols[p->y[j]]);
}

/* Writes the data file and the gnuplot script of t's plot into dir and runs gnuplot;
 * returns NULL or the reason it failed. */
static char *
table_plot(const Table *t, const char *dir, const char *svg)
{
    const Plot *p = &t->plot;
    const char **groups = xcalloc((size_t)t->nrows + 1, sizeof *groups);
    int ng = 1;
    if (p->by >= 0)
        ng = distinct(t, p->by, groups);
    char *data = pd_format("%s/%s.dat", dir, t->name);
    char *script = pd_format("%s/%s.gp", dir, t->name);
    Buf d = {0}, s = {0};
    buf_add(&d, "%s", "");
    buf_add(&s, "set terminal svg size 760,440 dynamic font \"sans,12\" background "
                "\"white\"\nset termoption noenhanced\nset output ");
    gp_str(&s, svg);
    buf_add(&s, "\nset datafile separator \",\"\nset datafile missing \"NaN\"\n");
    buf_add(&s, "set title ");
    gp_str(&s, t->title);
    buf_add(&s, "\nset key outside right top\nset grid ytics\n");
    buf_add(&s, "set xlabel ");
    gp_str(&s, p->xlabel ? p->xlabel : t->cols[p->x]);
    buf_add(&s, "\n");
    if (p->ylabel || p->ny == 1) {
        buf_add(&s, "set ylabel ");
        gp_str(&s, p->ylabel ? p->ylabel : t->cols[p->y[0]]);
        buf_add(&s, "\n");
    }
    if (p->logx && p->kind != PLOT_BARS)
        buf_add(&s, "set logscale x\n");
    if (p->logy)
        buf_add(&s, "set logscale y\n");
    if (p->kind == PLOT_BARS) {
        /* One row per x value, one column per (group, y) series. */
        const char **xs = xcalloc((size_t)t->nrows + 1, sizeof *xs);
        int nx = distinct(t, p->x, xs);
        for (int i = 0; i < nx; i++) {
            buf_add(&d, "\"%s\"", xs[i]);
            for (int gi = 0; gi < ng; gi++)
                for (int j = 0; j < p->ny; j++) {
                    const char *v = "NaN";
                    for (int k = 0; k < t->nrows; k++)
                        if (strcmp(t->rows[k][p->x], xs[i]) == 0 &&
                            (p->by < 0 || strcmp(t->rows[k][p->by], groups[gi]) == 0))
                            v = gp_value(t->rows[k][p->y[j]]);
                    buf_add(&d, ",%s", v);
                }
            buf_add(&d, "\n");
        }
        buf_add(&s, "set style data histogram\nset style histogram clustered gap 1\n"
                    "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
                    "set xtics rotate by -30\nset yrange [0:*]\n");
        if (p->logy)
            buf_add(&s, "set yrange [*:*]\n");
        buf_add(&s, "plot ");
        int col = 2;
        for (int gi = 0; gi < ng; gi++)
            for (int j = 0; j < p->ny; j++, col++) {
                buf_add(&s, "%s", col > 2 ? ", \\\n     " : "");
                gp_str(&s, data);
                buf_add(&s, " using %d%s title ", col, col == 2 ? ":xtic(1)" : "");
                char *ti = series_title(t, p, groups[gi], j);
                gp_str(&s, ti);
                free(ti);
            }
        buf_add(&s, "\n");
        free(xs);
    } else {
        /* One data block per group: x, y1, y2 ... */
        for (int gi = 0; gi < ng; gi++) {
            for (int k = 0; k < t->nrows; k++) {
                if (p->by >= 0 && strcmp(t->rows[k][p->by], groups[gi]) != 0)
                    continue;
                buf_add(&d, "%s", t->rows[k][p->x]);
                for (int j = 0; j < p->ny; j++)
                    buf_add(&d, ",%s", gp_value(t->rows[k][p->y[j]]));
                buf_add(&d, "\n");
            }
            buf_add(&d, "\n\n");
        }
        buf_add(&s, "plot ");
        for (int gi = 0; gi < ng; gi++)
            for (int j = 0; j < p->ny; j++) {
                buf_add(&s, "%s", gi || j ? ", \\\n     " : "");
                gp_str(&s, data);
                buf_add(&s, " index %d using 1:%d with %s title ", gi, j + 2,
                        p->kind == PLOT_LINES ? "linespoints" : "points");
                char *ti = series_title(t, p, groups[gi], j);
                gp_str(&s, ti);
                free(ti);
            }
        buf_add(&s, "\n");
    }
    write_file(data, d.s);
    write_file(script, s.s);
    char *cmd = pd_format("gnuplot '%s' 2>'%s/%s.gperr'", script, dir, t->name);
    int rc = system(cmd);
    char *why = NULL;
    if (rc != 0) {
        char *err = pd_format("%s/%s.gperr", dir, t->name);
        char *txt = read_file(err, NULL);
        why = pd_format("gnuplot failed on table \"%s\" (is gnuplot installed?)%s%s",
                        t->name, txt && *txt ? ": " : "", txt ? txt : "");
        free(txt);
        free(err);
    }
    free(cmd);
    free(d.s);
    free(s.s);
    free(data);
    free(script);
    free(groups);
    return why;
}

/* ------------------------------------------------------------------------------------
 * Running a suite
 * ------------------------------------------------------------------------------------ */

typedef struct Ctx {
    char *src, *build, *out, *data, *suites, *tpl;
    bool quick, plots;
    const char *argv0;
} Ctx;

static double
children_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* The first line of `cmd`'s output, or "" (popen). */
static char *
first_line(const char *cmd)
{
    FILE *f = popen(cmd, "r");
    char line[512] = "";
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = 0;
        pclose(f);
    }
    line[strcspn(line, "\n")] = 0;
    return xstrdup(line);
}

static char *
cpu_model(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    char *r = NULL;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *v = strchr(line, ':');
            if (v) {
                v++;
                while (*v == ' ')
                    v++;
                v[strcspn(v, "\n")] = 0;
                r = xstrdup(v);
                break;
            }
        }
    }
    if (f)
        fclose(f);
    return r ? r : xstrdup("unknown CPU");
}

static double
loadavg(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

/* The machine, the commit and the date, one line each. */
static void
describe_machine(Buf *b, const Ctx *c)
{
    struct utsname u;
    uname(&u);
    char *cpu = cpu_model();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char *cmd = pd_format("git -C '%s' rev-parse --short HEAD 2>/dev/null", c->src);
    char *commit = first_line(cmd);
    free(cmd);
    cmd = pd_format("git -C '%s' status --porcelain --untracked-files=no 2>/dev/null",
                    c->src);
    char *dirty = first_line(cmd);
    free(cmd);
    time_t t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    buf_add(b, "machine: %s, %ld cores, %s %s %s\n", cpu, cores, u.sysname, u.release,
            u.machine);
    buf_add(b, "build: %s\n", TGC_BUILD_TYPE);
    buf_add(b, "commit: %s%s\n", *commit ? commit : "unknown",
            *dirty ? " with local changes" : "");
    buf_add(b, "date: %s\n", date);
    free(cpu);
    free(commit);
    free(dirty);
}

/* The value of "key: value" in a meta file's text, or NULL. */
static char *
meta_get(const char *meta, const char *key)
{
    size_t k = strlen(key);
    for (const char *s = meta; s && *s;) {
        if (strncmp(s, key, k) == 0 && s[k] == ':') {
            const char *v = s + k + 1;
            while (*v == ' ')
                v++;
            size_t n = strcspn(v, "\n");
            char *r = xcalloc(n + 1, 1);
            memcpy(r, v, n);
            return r;
        }
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    return NULL;
}

/* Removes OUT/name-*.{csv,md,svg} and OUT/name.meta (results of an earlier run). */
static void
remove_results(const Ctx *c, const char *name)
{
    DIR *d = opendir(c->out);
    if (!d)
        return;
    size_t k = strlen(name);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *f = e->d_name;
        const char *dot = strrchr(f, '.');
        bool ours =
            strncmp(f, name, k) == 0 && dot &&
            ((f[k] == '-' && (strcmp(dot, ".csv") == 0 || strcmp(dot, ".md") == 0 ||
                              strcmp(dot, ".svg") == 0)) ||
             strcmp(f + k, ".meta") == 0);
        /* another suite whose name extends this one ("a-b" for "a") keeps its files */
        if (ours && f[k] == '-') {
            char *meta = pd_format("%s/%s.meta", c->out, name);
            char *txt = read_file(meta, NULL);
            char *tables = txt ? meta_get(txt, "tables") : NULL;
            bool listed = false;
            if (tables) {
                char *tb = pd_format(" %s ", tables);
                char *me = xcalloc((size_t)(dot - f - (long)k) + 3, 1);
                me[0] = ' ';
                memcpy(me + 1, f + k + 1, (size_t)(dot - f - (long)k - 1));
                strcat(me, " ");
                listed = strstr(tb, me) != NULL;
                free(tb);
                free(me);
            }
            ours = listed;
            free(tables);
            free(txt);
            free(meta);
        }
        if (ours) {
            char *p = pd_format("%s/%s", c->out, f);
            remove(p);
            free(p);
        }
    }
    closedir(d);
}

static void
move_into(const char *from_dir, const char *file, const char *to_dir)
{
    char *a = pd_format("%s/%s", from_dir, file), *b = pd_format("%s/%s", to_dir, file);
    if (rename(a, b) != 0)
        die("cannot move %s to %s: %s", a, b, strerror(errno));
    free(a);
    free(b);
}

/* Writes the tables of suite `name`'s result r (CSV, Markdown, plots, the .meta file):
 * every file into tmp first, and only when all are there do they replace the old ones in
 * OUT.  Returns 0 or 1 (a plot failed: nothing written). */
static int
write_results(const Ctx *c, const char *name, const Result *r, const char *tmp,
              double load0, double wall, double cpu)
{
    const char *mode = c->quick ? "quick" : "full";
    int rc = 0;
    Buf meta = {0};
    buf_add(&meta, "suite: %s\nmode: %s\n", name, mode);
    char *command = pd_format("%s%s %s", c->argv0, c->quick ? " --quick" : "", name);
    buf_add(&meta, "command: %s\n", command);
    describe_machine(&meta, c);
    buf_add(&meta, "load: %.2f\n", load0);
    buf_add(&meta, "seconds: %.1f wall, %.1f CPU\n", wall, cpu);
    buf_add(&meta, "tables:");
    for (int i = 0; i < r->nt; i++)
        buf_add(&meta, " %s", r->t[i].name);
    buf_add(&meta, "\n");
    char *machine = meta_get(meta.s, "machine"), *commit = meta_get(meta.s, "commit"),
         *date = meta_get(meta.s, "date");
    for (int i = 0; i < r->nt && rc == 0; i++) {
        const Table *t = &r->t[i];
        char *base = pd_format("%s-%s", name, t->name);
        char *f = pd_format("%s/%s.csv", tmp, base);
        char *csv = table_csv(t);
        write_file(f, csv);
        free(csv);
        free(f);
        char *svg = NULL;
        if (t->plot.kind != PLOT_NONE && c->plots) {
            svg = pd_format("%s/%s.svg", tmp, base);
            char *why = table_plot(t, tmp, svg);
            if (why) {
                fprintf(stderr, "bench: error: suite %s: %s; nothing written\n", name,
                        why);
                free(why);
                rc = 1;
            }
        }
        Buf md = {0};
        buf_add(&md, "### %s\n\n", t->title);
        for (int k = 0; k < t->nnotes; k++)
            buf_add(&md, "%s\n", t->notes[k]);
        if (t->nnotes)
            buf_add(&md, "\n");
        if (t->csv_only)
            buf_add(&md, "%d rows, in the CSV file only.\n", t->nrows);
        else
            table_md(&md, t);
        if (svg)
            buf_add(&md, "\n![%s](%s.svg)\n", t->title, base);
        buf_add(&md,
                "\n`%s` (%s mode; CSV: `%s.csv`): %s, %s, commit %s; %.1f s wall, "
                "%.1f s CPU, load %.2f at the start.\n",
                command, mode, base, machine, date, commit, wall, cpu, load0);
        f = pd_format("%s/%s.md", tmp, base);
        write_file(f, md.s);
        free(f);
        free(md.s);
        if (rc == 0 && !t->csv_only)
            table_text(stdout, t);
        else if (rc == 0)
            printf("%s: %d rows, in %s/%s.csv\n\n", t->title, t->nrows, c->out, base);
        free(svg);
        free(base);
    }
    if (rc == 0) {
        char *f = pd_format("%s/%s.meta", tmp, name);
        write_file(f, meta.s);
        free(f);
        remove_results(c, name);
        for (int i = 0; i < r->nt; i++) {
            char *base = pd_format("%s-%s", name, r->t[i].name);
            char *fn = pd_format("%s.csv", base);
            move_into(tmp, fn, c->out);
            free(fn);
            fn = pd_format("%s.md", base);
            move_into(tmp, fn, c->out);
            free(fn);
            if (r->t[i].plot.kind != PLOT_NONE && c->plots) {
                fn = pd_format("%s.svg", base);
                move_into(tmp, fn, c->out);
                free(fn);
            }
            free(base);
        }
        char *mf = pd_format("%s.meta", name);
        move_into(tmp, mf, c->out);
        free(mf);
        fprintf(stderr, "bench: %s: %d table%s written to %s (%.1f s wall, %.1f s CPU)\n",
                name, r->nt, r->nt == 1 ? "" : "s", c->out, wall, cpu);
    }
    free(machine);
    free(commit);
    free(date);
    free(command);
    free(meta.s);
    return rc;
}

/* Runs one suite; returns 0 (measured), 1 (failed) or EXIT_SKIP. */
static int
run_suite(const Ctx *c, const char *name)
{
    char *exe = pd_format("%s/%s", c->suites, name);
    if (access(exe, X_OK) != 0) {
        fprintf(stderr, "bench: error: no suite \"%s\" (%s is not an executable)\n", name,
                exe);
        free(exe);
        return 1;
    }
    make_dir(c->out);
    char *tmp = pd_format("%s/.%s.tmp", c->out, name);
    remove_tree(tmp);
    make_dir(tmp);
    char *scratch = pd_format("%s/scratch", tmp);
    make_dir(scratch);
    char *outfile = pd_format("%s/stdout", tmp);
    const char *mode = c->quick ? "quick" : "full";
    fprintf(stderr, "bench: %s (%s) ...\n", name, mode);
    double load0 = loadavg();
    double t0 = ir_wall_seconds(), cpu0 = children_cpu();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        FILE *o = freopen(outfile, "w", stdout);
        if (!o || chdir(c->src) != 0) {
            perror("bench");
            _exit(126);
        }
        setenv("TGC_SOURCE_DIR", c->src, 1);
        setenv("TGC_BUILD_DIR", c->build, 1);
        setenv("TGC_BENCH_DATA", c->data, 1);
        setenv("TGC_BENCH_MODE", mode, 1);
        setenv("TGC_BENCH_TMP", scratch, 1);
        execl(exe, exe, (char *)NULL);
        perror(exe);
        _exit(126);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            die("waitpid: %s", strerror(errno));
    double wall = ir_wall_seconds() - t0, cpu = children_cpu() - cpu0;
    int rc = 0;
    char *text = NULL;
    Result r = {0};
    if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_SKIP) {
        fprintf(stderr, "bench: %s: skipped (its inputs are missing, see above)\n", name);
        rc = EXIT_SKIP;
    } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (WIFEXITED(st))
            fprintf(stderr,
                    "bench: error: suite %s failed (exit status %d); nothing "
                    "written\n",
                    name, WEXITSTATUS(st));
        else
            fprintf(stderr,
                    "bench: error: suite %s was killed by signal %d; nothing "
                    "written\n",
                    name, WTERMSIG(st));
        rc = 1;
    } else if (!(text = read_file(outfile, NULL))) {
        fprintf(stderr, "bench: error: cannot read the output of %s\n", name);
        rc = 1;
    } else {
        char *why = parse_result(text, &r);
        if (why) {
            fprintf(stderr, "bench: error: suite %s: output line %s; nothing written\n",
                    name, why);
            free(why);
            rc = 1;
        }
    }
    if (rc == 0)
        rc = write_results(c, name, &r, tmp, load0, wall, cpu);
    remove_tree(tmp);
    result_free(&r);
    free(tmp);
    free(scratch);
    free(outfile);
    free(exe);
    free(text);
    return rc;
}

/* ------------------------------------------------------------------------------------
 * The page
 * ------------------------------------------------------------------------------------ */

/* The blocks of suite `name` from OUT, image links made relative to the page's folder;
 * NULL when the suite has no results. */
static char *
suite_blocks(const Ctx *c, const char *name, const char *page_dir)
{
    char *mf = pd_format("%s/%s.meta", c->out, name);
    char *meta = read_file(mf, NULL);
    free(mf);
    if (!meta)
        return NULL;
    char *tables = meta_get(meta, "tables");
    char *out_abs = abs_path(c->out);
    char *rel = rel_path(page_dir, out_abs);
    Buf b = {0};
    buf_add(&b, "%s", "");
    char *save = NULL;
    for (char *t = strtok_r(tables ? tables : xstrdup(""), " ", &save); t;
         t = strtok_r(NULL, " ", &save)) {
        char *f = pd_format("%s/%s-%s.md", c->out, name, t);
        char *md = read_file(f, NULL);
        if (!md)
            die("%s is listed in %s/%s.meta but missing", f, c->out, name);
        free(f);
        for (char *line = md, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = 0;
            if (strncmp(line, "![", 2) == 0 && strstr(line, "](")) {
                char *p = strstr(line, "](");
                *p = 0;
                buf_add(&b, "%s](%s/%s\n", line, rel, p + 2);
            } else {
                buf_add(&b, "%s\n", line);
            }
        }
        buf_add(&b, "\n");
        free(md);
    }
    free(tables);
    free(out_abs);
    free(rel);
    free(meta);
    return b.s;
}

static int
write_page(const Ctx *c, const char *page)
{
    char *tpl_path = xstrdup(c->tpl);
    char *tpl = read_file(tpl_path, NULL);
    if (!tpl)
        die("cannot read %s", tpl_path);
    char *page_abs_dir;
    {
        char *copy = xstrdup(page);
        char *slash = strrchr(copy, '/');
        if (slash)
            *slash = 0;
        page_abs_dir = abs_path(slash ? (*copy ? copy : "/") : ".");
        free(copy);
    }
    Buf b = {0};
    buf_add(&b, "%s", "");
    int missing = 0;
    for (char *s = tpl; *s;) {
        char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char *line = xcalloc(n + 1, 1);
        memcpy(line, s, n);
        if (strncmp(line, "@suite ", 7) == 0 && n > 8 && line[n - 1] == '@') {
            line[n - 1] = 0;
            char *blocks = suite_blocks(c, line + 7, page_abs_dir);
            if (blocks) {
                /* the template has its own blank line after the marker */
                size_t k = strlen(blocks);
                while (k > 1 && blocks[k - 1] == '\n' && blocks[k - 2] == '\n')
                    blocks[--k] = 0;
                buf_add(&b, "%s", blocks);
                free(blocks);
            } else {
                buf_add(&b, "*Not measured yet:* `%s %s` writes this section.\n",
                        c->argv0, line + 7);
                fprintf(stderr, "bench: %s: no results in %s\n", line + 7, c->out);
                missing++;
            }
        } else {
            buf_add(&b, "%s\n", line);
        }
        free(line);
        s += n + (e ? 1 : 0);
    }
    write_file(page, b.s);
    fprintf(stderr, "bench: wrote %s%s\n", page,
            missing ? " (some suites not measured yet)" : "");
    free(b.s);
    free(tpl);
    free(tpl_path);
    free(page_abs_dir);
    return 0;
}

/* ------------------------------------------------------------------------------------
 * bench json-rows: the rows of a program's JSON output for a suite script
 * ------------------------------------------------------------------------------------ */

/* Prints "row V,V,..." for each object of the document's "rows" array whose "section" is
 * `section`, the values of the comma-separated keys in order (reals with 6 significant
 * digits, null as "-").  Returns 0, or 1 after a message when the file is not such a
 * document, a key is missing or no row matches: a suite script stops there. */
static int
json_rows(const char *file, const char *section, const char *keys)
{
    json_error_t err;
    json_t *doc = json_load_file(file, 0, &err);
    if (!doc) {
        fprintf(stderr, "bench: error: %s:%d:%d: %s\n", file, err.line, err.column,
                err.text);
        return 1;
    }
    json_t *rows = json_object_get(doc, "rows");
    if (!json_is_array(rows)) {
        fprintf(stderr, "bench: error: %s: no \"rows\" array\n", file);
        json_decref(doc);
        return 1;
    }
    char *k[MAXCOLS];
    int nk = split_csv(keys, k);
    if (nk <= 0) {
        fprintf(stderr, "bench: error: bad key list \"%s\"\n", keys);
        json_decref(doc);
        return 1;
    }
    int found = 0, rc = 0;
    size_t i;
    json_t *r;
    json_array_foreach (rows, i, r) {
        const char *sec = json_string_value(json_object_get(r, "section"));
        if (!sec || strcmp(sec, section) != 0)
            continue;
        found++;
        Buf b = {0};
        buf_add(&b, "row ");
        for (int j = 0; j < nk && rc == 0; j++) {
            json_t *v = json_object_get(r, k[j]);
            char *txt = NULL;
            if (!v) {
                fprintf(stderr, "bench: error: %s: a \"%s\" row without \"%s\"\n", file,
                        section, k[j]);
                rc = 1;
            } else if (json_is_integer(v)) {
                txt = pd_format("%lld", (long long)json_integer_value(v));
            } else if (json_is_real(v)) {
                txt = pd_format("%.6g", json_real_value(v));
            } else if (json_is_string(v)) {
                txt = xstrdup(json_string_value(v));
            } else if (json_is_boolean(v)) {
                txt = xstrdup(json_is_true(v) ? "true" : "false");
            } else if (json_is_null(v)) {
                txt = xstrdup("-");
            } else {
                fprintf(stderr, "bench: error: %s: \"%s\" is not a plain value\n", file,
                        k[j]);
                rc = 1;
            }
            if (txt) {
                if (j)
                    buf_add(&b, ",");
                csv_field(&b, txt);
                free(txt);
            }
        }
        if (rc == 0)
            printf("%s\n", b.s);
        free(b.s);
        if (rc)
            break;
    }
    if (rc == 0 && found == 0) {
        fprintf(stderr, "bench: error: %s: no row of section \"%s\"\n", file, section);
        rc = 1;
    }
    for (int j = 0; j < nk; j++)
        free(k[j]);
    json_decref(doc);
    return rc;
}

/* ------------------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------------------ */

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The suites of the folder, sorted by name. */
static int
list_suites(const Ctx *c, char ***out)
{
    DIR *d = opendir(c->suites);
    if (!d)
        die("cannot read the suites folder %s: %s", c->suites, strerror(errno));
    char **v = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!valid_name(e->d_name))
            continue;
        char *p = pd_format("%s/%s", c->suites, e->d_name);
        if (access(p, X_OK) == 0 && !is_dir(p)) {
            v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
            v[n++] = xstrdup(e->d_name);
        }
        free(p);
    }
    closedir(d);
    if (n > 1)
        qsort(v, (size_t)n, sizeof *v, cmp_str);
    *out = v;
    return n;
}

static void
ctx_free(Ctx *c, char **suites, int n)
{
    for (int i = 0; i < n; i++)
        free(suites[i]);
    free(suites);
    free(c->src);
    free(c->build);
    free(c->out);
    free(c->data);
    free(c->suites);
    free(c->tpl);
}

static void
usage(FILE *f)
{
    fprintf(
        f,
        "usage: bench [--quick] [--out DIR] [--data DIR] [--no-plots] SUITE...|all\n"
        "       bench --page [--out DIR] [-o FILE]\n"
        "       bench --list\n"
        "       bench json-rows FILE SECTION KEY,KEY,...\n"
        "\n"
        "Runs benchmark suites (the executables of bench/suites/) and writes each\n"
        "table as CSV, as its block of the results page (Markdown) and as an SVG\n"
        "plot (gnuplot) into DIR (default: bench/results of the source folder);\n"
        "--page then regenerates the results page (default docs/results.md) from\n"
        "DIR.  A suite that fails or prints something malformed gets nothing\n"
        "written and bench exits 1; a suite whose inputs are missing is skipped.\n"
        "\n"
        "  --quick      the small runs of each suite (minutes in all; CI runs them)\n"
        "  --out DIR    where the results go\n"
        "  --data DIR   outside benchmark inputs (TGC_BENCH_DATA; default\n"
        "               ../shared/bench beside the source folder)\n"
        "  --no-plots   write no SVG (no gnuplot needed)\n"
        "  --page       regenerate the page from DIR (after the suites, if any)\n"
        "  -o FILE      the page to write\n"
        "  --suites DIR the suites (default: bench/suites of the source folder)\n"
        "  --template FILE  the page's template (default: bench/results.md.in)\n"
        "  --list       list the suites\n"
        "\n"
        "json-rows prints a tgc-bench/1 row of the values of the keys for each object\n"
        "of FILE's \"rows\" array whose \"section\" is SECTION (for suite scripts of\n"
        "programs that write JSON); exit status 1 when a key or every row is missing.\n");
}

int
main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "json-rows") == 0)
        return json_rows(argv[2], argv[3], argv[4]);
    Ctx c = {0};
    c.plots = true;
    c.argv0 = argv[0];
    const char *out = NULL, *data = getenv("TGC_BENCH_DATA"), *page = NULL,
               *suites = NULL, *tpl = NULL;
    bool do_page = false, do_list = false;
    char **names = NULL;
    int nnames = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--quick") == 0)
            c.quick = true;
        else if (strcmp(a, "--no-plots") == 0)
            c.plots = false;
        else if (strcmp(a, "--page") == 0)
            do_page = true;
        else if (strcmp(a, "--list") == 0)
            do_list = true;
        else if (strcmp(a, "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(a, "--data") == 0 && i + 1 < argc)
            data = argv[++i];
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            page = argv[++i];
        else if (strcmp(a, "--suites") == 0 && i + 1 < argc)
            suites = argv[++i];
        else if (strcmp(a, "--template") == 0 && i + 1 < argc)
            tpl = argv[++i];
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "bench: error: unknown option \"%s\"\n", a);
            usage(stderr);
            return 2;
        } else {
            names = xrealloc(names, (size_t)(nnames + 1) * sizeof *names);
            names[nnames++] = argv[i];
        }
    }
    if (!nnames && !do_page && !do_list) {
        usage(stderr);
        return 2;
    }
    c.src = abs_path(TGC_SOURCE_DIR);
    c.build = abs_path(TGC_BUILD_DIR);
    c.suites = suites ? xstrdup(suites) : pd_format("%s/bench/suites", c.src);
    c.tpl = tpl ? xstrdup(tpl) : pd_format("%s/bench/results.md.in", c.src);
    c.out = out ? xstrdup(out) : pd_format("%s/bench/results", c.src);
    if (data)
        c.data = xstrdup(data);
    else
        c.data = pd_format("%s/../shared/bench", c.src);
    if (is_dir(c.data)) {
        char *a = abs_path(c.data);
        free(c.data);
        c.data = a;
    }
    char **all;
    int nall = list_suites(&c, &all);
    if (do_list) {
        for (int i = 0; i < nall; i++)
            printf("%s\n", all[i]);
        ctx_free(&c, all, nall);
        free(names);
        return 0;
    }
    int failed = 0, skipped = 0;
    for (int i = 0; i < nnames; i++) {
        bool every = strcmp(names[i], "all") == 0;
        for (int k = 0; k < (every ? nall : 1); k++) {
            const char *nm = every ? all[k] : names[i];
            if (!valid_name(nm)) {
                fprintf(stderr, "bench: error: bad suite name \"%s\"\n", nm);
                failed++;
                continue;
            }
            int rc = run_suite(&c, nm);
            failed += rc == 1;
            skipped += rc == EXIT_SKIP;
        }
    }
    if (do_page) {
        char *p = page ? xstrdup(page) : pd_format("%s/docs/results.md", c.src);
        make_dir(c.out);
        write_page(&c, p);
        free(p);
    }
    if (skipped)
        fprintf(stderr, "bench: %d suite%s skipped (inputs missing, see above)\n",
                skipped, skipped == 1 ? "" : "s");
    if (failed)
        fprintf(stderr, "bench: %d suite%s failed\n", failed, failed == 1 ? "" : "s");
    ctx_free(&c, all, nall);
    free(names);
    return failed ? 1 : 0;
}
