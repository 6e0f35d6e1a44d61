/* platform.c: the platform a run simulates (DESIGN.md section 2).
 *
 * A preset name (bwdsp-1board, bwdsp-2board, bwdsp-4board, bwdsp-16board), a file
 * of format "tgc-platform/1", or nothing: then the smallest preset with enough DSPs,
 * and above 64 DSPs ceil(n/4) boards in a near-square mesh (C = ceil(sqrt(B))
 * columns, row-major board numbers, links to the right and lower neighbours).
 *
 * Accepted file schema (every field but "format" and "boards" optional):
 *   { "format": "tgc-platform/1", "name": "...", "boards": B, "dsps_per_board": 4,
 *     "links": [[a, b], ...], "dsp_clock_mhz": 500, "link_mbps": 4416,
 *     "packet_bytes": 276, "payload_bytes": 250, "switch_latency": 100,
 *     "send_overhead": 600, "recv_overhead": 400, "post_overhead": 300,
 *     "wait_overhead": 200, "copy_bytes_per_cycle": 8, "handshake": 300,
 *     "eager_limit": 0, "dsp_memory_bytes": 2097152 } */
#include "mpirio_int.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
defaults(Platform *p)
{
    memset(p, 0, sizeof *p);
    p->dsps_per_board = 4;
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

static void
add_link(Platform *p, int a, int b)
{
    p->links = realloc(p->links, (size_t)(p->nlinks + 1) * sizeof *p->links);
    if (!p->links)
        abort();
    p->links[p->nlinks][0] = a;
    p->links[p->nlinks][1] = b;
    p->nlinks++;
}

static void
mesh(Platform *p, int rows, int cols, int boards)
{
    p->boards = boards;
    for (int b = 0; b < boards; b++) {
        int r = b / cols, c = b % cols;
        if (c + 1 < cols && b + 1 < boards)
            add_link(p, b, b + 1);
        if (r + 1 < rows && b + cols < boards)
            add_link(p, b, b + cols);
    }
}

static int
preset(Platform *p, const char *name)
{
    defaults(p);
    snprintf(p->name, sizeof p->name, "%s", name);
    if (strcmp(name, "bwdsp-1board") == 0)
        p->boards = 1;
    else if (strcmp(name, "bwdsp-2board") == 0) {
        p->boards = 2;
        add_link(p, 0, 1);
    } else if (strcmp(name, "bwdsp-4board") == 0) {
        p->boards = 4;
        for (int i = 0; i < 4; i++)
            add_link(p, i, (i + 1) % 4);
    } else if (strcmp(name, "bwdsp-16board") == 0)
        mesh(p, 4, 4, 16);
    else
        return -1;
    return 0;
}

static int
int_field(json_t *o, const char *key, long long lo, long long *out, char *err, size_t n,
          const char *file)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo) {
        snprintf(err, n, "%s: /%s: error: expected an integer >= %lld", file, key, lo);
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

static int
load_file(Platform *p, const char *file, char *err, size_t n)
{
    json_error_t je;
    json_t *root = json_load_file(file, 0, &je);
    if (!root) {
        snprintf(err, n, "%s:%d:%d: error: %s", file, je.line, je.column, je.text);
        return -1;
    }
    defaults(p);
    snprintf(p->name, sizeof p->name, "%s", file);
    int rc = -1;
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "tgc-platform/1") != 0) {
        snprintf(err, n, "%s: /format: error: expected \"tgc-platform/1\"", file);
        goto out;
    }
    if (json_is_string(json_object_get(root, "name")))
        snprintf(p->name, sizeof p->name, "%s",
                 json_string_value(json_object_get(root, "name")));
    struct {
        const char *key;
        long long lo;
        void *dst;
        int is_ll;
    } f[] = {
        {"boards", 1, &p->boards, 0},
        {"dsps_per_board", 1, &p->dsps_per_board, 0},
        {"dsp_clock_mhz", 1, &p->dsp_clock_mhz, 0},
        {"link_mbps", 1, &p->link_mbps, 0},
        {"packet_bytes", 2, &p->packet_bytes, 0},
        {"payload_bytes", 1, &p->payload_bytes, 0},
        {"switch_latency", 0, &p->switch_latency, 0},
        {"send_overhead", 0, &p->send_overhead, 0},
        {"recv_overhead", 0, &p->recv_overhead, 0},
        {"post_overhead", 0, &p->post_overhead, 0},
        {"wait_overhead", 0, &p->wait_overhead, 0},
        {"copy_bytes_per_cycle", 1, &p->copy_bytes_per_cycle, 0},
        {"handshake", 0, &p->handshake, 0},
        {"eager_limit", 0, &p->eager_limit, 0},
        {"dsp_memory_bytes", 0, &p->dsp_memory_bytes, 1},
    };
    if (!json_object_get(root, "boards")) {
        snprintf(err, n, "%s: /boards: error: missing", file);
        goto out;
    }
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        long long v = f[i].is_ll ? *(long long *)f[i].dst : *(int *)f[i].dst;
        if (int_field(root, f[i].key, f[i].lo, &v, err, n, file) != 0)
            goto out;
        if (!f[i].is_ll && v > 1000000000) {
            snprintf(err, n, "%s: /%s: error: too large", file, f[i].key);
            goto out;
        }
        if (f[i].is_ll)
            *(long long *)f[i].dst = v;
        else
            *(int *)f[i].dst = (int)v;
    }
    if (p->payload_bytes >= p->packet_bytes) {
        snprintf(err, n, "%s: /payload_bytes: error: must be less than packet_bytes", file);
        goto out;
    }
    if (p->boards > 4096) {
        snprintf(err, n, "%s: /boards: error: at most 4096 boards", file);
        goto out;
    }
    json_t *links = json_object_get(root, "links");
    if (links && !json_is_array(links)) {
        snprintf(err, n, "%s: /links: error: expected an array of [a, b]", file);
        goto out;
    }
    size_t i;
    json_t *l;
    json_array_foreach(links, i, l)
    {
        json_t *a = json_array_get(l, 0), *b = json_array_get(l, 1);
        if (!json_is_array(l) || json_array_size(l) != 2 || !json_is_integer(a) ||
            !json_is_integer(b) || json_integer_value(a) < 0 ||
            json_integer_value(b) < 0 || json_integer_value(a) >= p->boards ||
            json_integer_value(b) >= p->boards ||
            json_integer_value(a) == json_integer_value(b)) {
            snprintf(err, n, "%s: /links/%zu: error: expected [a, b], two boards", file, i);
            goto out;
        }
        add_link(p, (int)json_integer_value(a), (int)json_integer_value(b));
    }
    rc = 0;
out:
    json_decref(root);
    if (rc != 0)
        plat_free(p);
    return rc;
}

int
plat_load(Platform *p, const char *spec, int ndsps, char *err, size_t n)
{
    if (spec && *spec) {
        if (preset(p, spec) == 0)
            return 0;
        plat_free(p);
        if (strchr(spec, '/') || strchr(spec, '.'))
            return load_file(p, spec, err, n);
        snprintf(err, n, "unknown platform \"%s\" (presets: bwdsp-1board, bwdsp-2board, "
                         "bwdsp-4board, bwdsp-16board, or a tgc-platform/1 file)",
                 spec);
        return -1;
    }
    const char *fit = ndsps <= 4    ? "bwdsp-1board"
                      : ndsps <= 8  ? "bwdsp-2board"
                      : ndsps <= 16 ? "bwdsp-4board"
                      : ndsps <= 64 ? "bwdsp-16board"
                                    : NULL;
    if (fit)
        return preset(p, fit);
    defaults(p);
    int boards = (ndsps + 3) / 4;
    int cols = (int)ceil(sqrt((double)boards));
    int rows = (boards + cols - 1) / cols;
    snprintf(p->name, sizeof p->name, "mesh-%dx%d-%dboard", rows, cols, boards);
    mesh(p, rows, cols, boards);
    return 0;
}

void
plat_free(Platform *p)
{
    free(p->links);
    p->links = NULL;
    p->nlinks = 0;
}
