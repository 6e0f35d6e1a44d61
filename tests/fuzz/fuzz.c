/*
 * tests/fuzz/fuzz.c - the private folder, the limits and the diagnostic checks shared by
 * the fuzz targets (fuzz.h).
 */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char folder[4096];
enum { NNAMES = 8 };
static char *paths[NNAMES];

static void
remove_folder(void)
{
    for (int i = 0; i < NNAMES && paths[i]; i++) {
        unlink(paths[i]);
        free(paths[i]);
    }
    if (chdir("/") == 0)
        rmdir(folder);
}

_Noreturn void
fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

const char *
fuzz_path(const char *name)
{
    if (!folder[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(folder, sizeof folder, "%s/tgc-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(folder) || chdir(folder) != 0)
            fuzz_fail("cannot create a folder in %s", tmp && *tmp ? tmp : "/tmp");
        atexit(remove_folder);
    }
    int i = 0;
    for (; i < NNAMES && paths[i]; i++)
        if (strcmp(paths[i], name) == 0)
            return paths[i];
    if (i == NNAMES)
        fuzz_fail("more than %d file names", NNAMES);
    paths[i] = strdup(name);
    if (!paths[i])
        fuzz_fail("out of memory");
    return paths[i];
}

void
fuzz_write(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        fuzz_fail("cannot write %s", path);
}

Options
fuzz_options(void)
{
    Options o = {.limits = ir_default_limits(), .search_budget = -1};
    o.limits.max_tasks = 2000;
    o.limits.max_edges = 20000;
    o.limits.max_dsps = 256;
    o.limits.max_file_bytes = 1 << 20;
    return o;
}

/* True when line starts with a position and a level: "POS: error: ", where POS is a
 * non-empty file name, optionally followed by ":LINE", ":LINE:COL" or ": /pointer".  The
 * inputs have relative names, so a position that starts with '/' is a pointer without
 * its file. */
static bool
located(const char *line, size_t len)
{
    static const char *const levels[] = {": error: ", ": warning: ", ": note: "};
    for (size_t i = 0; i < len; i++)
        for (int k = 0; k < 3; k++) {
            size_t n = strlen(levels[k]);
            if (i + n <= len && memcmp(line + i, levels[k], n) == 0)
                return i > 0 && line[0] != '/' && line[0] != ' ';
        }
    return false;
}

void
fuzz_check_diag(const Diag *d, bool ok, const char *what)
{
    const char *text = diag_text(d);
    int errors = diag_errors(d);
    if (ok && errors > 0)
        fuzz_fail("%s: a result and %d errors:\n%s", what, errors, text);
    if (!ok && errors == 0)
        fuzz_fail("%s: no result and no error:\n%s", what, text);
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        /* indented lines continue the message above them */
        if (len > 0 && s[0] != ' ' && s[0] != '\t' && !located(s, len))
            fuzz_fail("%s: a message without a position: \"%.*s\"", what, (int)len, s);
        s += len + (nl != NULL);
    }
}

void
fuzz_graph_round_trip(const Graph *g, const char *what)
{
    char *text = cg_graph_json(g);
    const char *path = fuzz_path("graph.json");
    fuzz_write(path, text, strlen(text));
    Options opt = fuzz_options();
    Diag *d = diag_new();
    Graph *h = fe_load_graph(path, &opt, d);
    if (!h)
        fuzz_fail("%s: the graph it wrote does not read back:\n%s%s", what, diag_text(d),
                  text);
    char *again = cg_graph_json(h);
    if (strcmp(text, again) != 0)
        fuzz_fail("%s: the graph read back writes differently:\n%s\n---\n%s", what, text,
                  again);
    free(again);
    ir_graph_free(h);
    diag_free(d);
    free(text);
}

int
fuzz_graph_reader(const uint8_t *data, size_t size, const char *name,
                  FuzzGraphReader read, const char *what, bool round_trip)
{
    const char *path = fuzz_path(name);
    fuzz_write(path, data, size);
    Options opt = fuzz_options();
    Diag *d = diag_new();
    Graph *g = read(path, &opt, d);
    fuzz_check_diag(d, g != NULL, what);
    if (g && round_trip)
        fuzz_graph_round_trip(g, what);
    ir_graph_free(g);
    diag_free(d);
    return 0;
}
