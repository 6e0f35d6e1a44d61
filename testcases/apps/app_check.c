/* app_check.c - the shared part of the applications' output checks (app_check.h). */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_check.h"

static json_t *graph;
static int failures;

void
app_load_graph(const char *path)
{
    json_error_t je;
    graph = json_load_file(path, 0, &je);
    if (!graph) {
        fprintf(stderr, "%s:%d:%d: error: %s\n", path, je.line, je.column, je.text);
        exit(1);
    }
}

int64_t
app_iterations(void)
{
    json_t *v = json_object_get(graph, "iterations");
    return v ? json_integer_value(v) : 1;
}

static json_t *
task(const char *id)
{
    size_t i;
    json_t *t;
    json_array_foreach (json_object_get(graph, "tasks"), i, t) {
        const char *tid = json_string_value(json_object_get(t, "id"));
        if (tid && strcmp(tid, id) == 0)
            return t;
    }
    return NULL;
}

/* The param `name` of task `id`, of the kind is() accepts ("integer", "number"); exits 1
 * when there is none. */
static json_t *
param(const char *id, const char *name, int (*is)(const json_t *), const char *kind)
{
    json_t *v = json_object_get(json_object_get(task(id), "params"), name);
    if (!is(v)) {
        fprintf(stderr, "check: error: the graph has no %s param \"%s\" of task \"%s\"\n",
                kind, name, id);
        exit(1);
    }
    return v;
}

static int
is_integer(const json_t *v)
{
    return json_is_integer(v);
}

static int
is_number(const json_t *v)
{
    return json_is_number(v);
}

int64_t
app_param(const char *id, const char *name)
{
    return json_integer_value(param(id, name, is_integer, "integer"));
}

double
app_real(const char *id, const char *name)
{
    return json_number_value(param(id, name, is_number, "number"));
}

int
app_count_tasks(const char *prefix)
{
    size_t i, n = strlen(prefix);
    json_t *t;
    int count = 0;
    json_array_foreach (json_object_get(graph, "tasks"), i, t) {
        const char *tid = json_string_value(json_object_get(t, "id"));
        count += tid && strncmp(tid, prefix, n) == 0;
    }
    return count;
}

char *
app_read_file(const char *dir, const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (f) {
        for (;;) {
            if (n + 65536 + 1 > cap) {
                cap = 2 * cap + 65536 + 1;
                char *nb = realloc(buf, cap);
                if (!nb)
                    break;
                buf = nb;
            }
            size_t got = fread(buf + n, 1, cap - n - 1, f);
            n += got;
            if (got == 0)
                break;
        }
        fclose(f);
    }
    if (!f || !buf) {
        fprintf(stderr, "check: error: cannot read \"%s\"\n", path);
        exit(1);
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

double *
app_read_values(const char *dir, const char *name, int64_t *n)
{
    size_t len;
    char *text = app_read_file(dir, name, &len);
    size_t cap = 1024;
    double *v = malloc(cap * sizeof *v);
    int used;
    *n = 0;
    for (char *s = text; v && sscanf(s, "%lf%n", &v[*n], &used) == 1; s += used) {
        if ((size_t)++ * n == cap) {
            double *nv = realloc(v, 2 * cap * sizeof *v);
            if (!nv)
                free(v);
            v = nv;
            cap *= 2;
        }
    }
    free(text);
    if (!v) {
        fprintf(stderr, "check: error: out of memory reading \"%s\"\n", name);
        exit(1);
    }
    return v;
}

void
app_check_count(const char *name, int64_t n, int64_t want)
{
    if (n != want)
        app_fail("%s has %lld values, expected %lld", name, (long long)n,
                 (long long)want);
}

void
app_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("  FAIL ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    failures++;
}

int
app_finish(const char *name)
{
    if (failures)
        printf("%s: FAILED (%d checks)\n", name, failures);
    else
        printf("%s: ok\n", name);
    json_decref(graph);
    return failures ? 1 : 0;
}

int
main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check GRAPH OUTDIR\n");
        return 2;
    }
    app_load_graph(argv[1]);
    return app_check(argv[2]);
}
