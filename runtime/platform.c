/* platform.c: the platform a run simulates (docs/design.md section 2).
 *
 * A preset name (bwdsp-1board, bwdsp-2board, bwdsp-4board, bwdsp-16board), a file
 * of format "tgc-platform/1", or nothing: then the smallest preset with enough DSPs,
 * and above 64 DSPs ceil(n/4) boards in a near-square mesh (C = ceil(sqrt(B))
 * columns, row-major board numbers, links to the right and lower neighbours).
 *
 * Accepted file schema (the one of frontend/platform_json.c for the bwdsp model; every
 * field but "format" optional; "x-..." fields are ignored; "preset" is a base that the
 * other fields override; without "links", the preset's links while "boards" keeps the
 * preset's count, else a chain 0-1-2-...):
 *   { "format": "tgc-platform/1", "name": "...", "preset": "bwdsp-4board",
 *     "model": "bwdsp", "boards": 1, "dsps_per_board": 4,
 *     "links": [[a, b], ...], "dsp_clock_mhz": 500, "link_mbps": 4416,
 *     "packet_bytes": 276, "payload_bytes": 250, "switch_latency": 100,
 *     "send_overhead": 600, "recv_overhead": 400, "post_overhead": 300,
 *     "wait_overhead": 200, "copy_bytes_per_cycle": 8, "handshake": 300,
 *     "eager_limit": 0, "dsp_memory_bytes": 2097152 } */
#include "sim.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
defaults(Platform *p)
{
    memset(p, 0, sizeof *p);
    p->boards = 1;
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

/* the model of the scheduling literature (docs/design.md section 2), as ir/platform.c */
static void
abstract(Platform *p, int ndsps)
{
    defaults(p);
    snprintf(p->name, sizeof p->name, "abstract");
    p->abstract = 1;
    p->dsps_per_board = ndsps > 0 ? ndsps : 1;
    p->switch_latency = p->send_overhead = p->recv_overhead = 0;
    p->post_overhead = p->wait_overhead = p->handshake = 0;
    p->eager_limit = 1000000000;
    p->copy_bytes_per_cycle = 1000000;
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

static void
chain(Platform *p)
{
    free(p->links);
    p->links = NULL;
    p->nlinks = 0;
    for (int b = 0; b + 1 < p->boards; b++)
        add_link(p, b, b + 1);
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
    int rc = -1;
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), "tgc-platform/1") != 0) {
        snprintf(err, n, "%s: /format: error: expected \"tgc-platform/1\"", file);
        goto out;
    }
    json_t *pre = json_object_get(root, "preset");
    json_t *model = json_object_get(root, "model");
    int from_preset = 0, is_abstract = 0;
    if (model &&
        !(json_is_string(model) && (strcmp(json_string_value(model), "bwdsp") == 0 ||
                                    strcmp(json_string_value(model), "abstract") == 0))) {
        snprintf(err, n, "%s: /model: error: expected \"bwdsp\" or \"abstract\"", file);
        goto out;
    }
    is_abstract =
        (model && strcmp(json_string_value(model), "abstract") == 0) ||
        (json_is_string(pre) && strcmp(json_string_value(pre), "abstract") == 0);
    if (is_abstract) {
        json_t *nd = json_object_get(root, "dsps");
        if (nd && (!json_is_integer(nd) || json_integer_value(nd) < 1 ||
                   json_integer_value(nd) > 65536)) {
            snprintf(err, n, "%s: /dsps: error: expected an integer in 1..65536", file);
            goto out;
        }
        if (!nd && !pre) {
            snprintf(err, n,
                     "%s: error: missing field \"dsps\" (the abstract model needs its "
                     "number of DSPs)",
                     file);
            goto out;
        }
        abstract(p, nd ? (int)json_integer_value(nd) : 4);
        for (const char *const *k =
                 (const char *const[]){"boards", "dsps_per_board", "links", NULL};
             *k; k++)
            if (json_object_get(root, *k)) {
                snprintf(err, n, "%s: /%s: error: applies to the bwdsp model only", file,
                         *k);
                goto out;
            }
    } else if (json_object_get(root, "dsps")) {
        snprintf(err, n, "%s: /dsps: error: applies to the abstract model only", file);
        goto out;
    }
    if (pre && !is_abstract) {
        if (!json_is_string(pre) || preset(p, json_string_value(pre)) != 0) {
            snprintf(err, n, "%s: /preset: error: unknown preset", file);
            goto out;
        }
        from_preset = 1;
    }
    snprintf(p->name, sizeof p->name, "%s", file);
    if (json_is_string(json_object_get(root, "name")))
        snprintf(p->name, sizeof p->name, "%s",
                 json_string_value(json_object_get(root, "name")));
    struct {
        const char *key;
        long long lo, hi;
        void *dst;
        int is_ll;
    } f[] = {
        {"boards", 1, 4096, &p->boards, 0},
        {"dsps_per_board", 1, 1024, &p->dsps_per_board, 0},
        {"dsp_clock_mhz", 1, 1000000, &p->dsp_clock_mhz, 0},
        {"link_mbps", 1, 1000000000, &p->link_mbps, 0},
        {"packet_bytes", 2, 1000000, &p->packet_bytes, 0},
        {"payload_bytes", 1, 1000000, &p->payload_bytes, 0},
        {"switch_latency", 0, 1000000000, &p->switch_latency, 0},
        {"send_overhead", 0, 1000000000, &p->send_overhead, 0},
        {"recv_overhead", 0, 1000000000, &p->recv_overhead, 0},
        {"post_overhead", 0, 1000000000, &p->post_overhead, 0},
        {"wait_overhead", 0, 1000000000, &p->wait_overhead, 0},
        {"copy_bytes_per_cycle", 1, 1000000000, &p->copy_bytes_per_cycle, 0},
        {"handshake", 0, 1000000000, &p->handshake, 0},
        {"eager_limit", 0, 1000000000, &p->eager_limit, 0},
        {"dsp_memory_bytes", 0, 1LL << 50, &p->dsp_memory_bytes, 1},
    };
    const char *key;
    json_t *v;
    json_object_foreach (root, key, v) {
        int known = strncmp(key, "x-", 2) == 0 || strcmp(key, "format") == 0 ||
                    strcmp(key, "name") == 0 || strcmp(key, "preset") == 0 ||
                    strcmp(key, "model") == 0 || strcmp(key, "links") == 0 ||
                    strcmp(key, "dsps") == 0;
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            known |= strcmp(key, f[i].key) == 0;
        if (!known) {
            snprintf(err, n, "%s: /%s: error: unknown field", file, key);
            goto out;
        }
    }
    int boards0 = p->boards;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        v = json_object_get(root, f[i].key);
        if (!v)
            continue;
        if (!json_is_integer(v) || json_integer_value(v) < f[i].lo ||
            json_integer_value(v) > f[i].hi) {
            snprintf(err, n, "%s: /%s: error: expected an integer in %lld..%lld", file,
                     f[i].key, f[i].lo, f[i].hi);
            goto out;
        }
        if (f[i].is_ll)
            *(long long *)f[i].dst = json_integer_value(v);
        else
            *(int *)f[i].dst = (int)json_integer_value(v);
    }
    if (p->payload_bytes >= p->packet_bytes) {
        snprintf(err, n, "%s: /payload_bytes: error: must be less than packet_bytes",
                 file);
        goto out;
    }
    json_t *links = json_object_get(root, "links");
    if (is_abstract) {
        /* one board, no board links */
    } else if (!links) {
        /* the preset's links while the board count stays, else a chain 0-1-2-... */
        if (!from_preset || p->boards != boards0)
            chain(p);
    } else if (!json_is_array(links)) {
        snprintf(err, n, "%s: /links: error: expected an array of [a, b]", file);
        goto out;
    } else {
        free(p->links);
        p->links = NULL;
        p->nlinks = 0;
    }
    size_t i;
    json_t *l;
    json_array_foreach (links, i, l) {
        json_t *a = json_array_get(l, 0), *b = json_array_get(l, 1);
        if (!json_is_array(l) || json_array_size(l) != 2 || !json_is_integer(a) ||
            !json_is_integer(b) || json_integer_value(a) < 0 ||
            json_integer_value(b) < 0 || json_integer_value(a) >= p->boards ||
            json_integer_value(b) >= p->boards ||
            json_integer_value(a) == json_integer_value(b)) {
            snprintf(err, n, "%s: /links/%zu: error: expected [a, b], two boards", file,
                     i);
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
        if (strcmp(spec, "abstract") == 0) {
            abstract(p, ndsps);
            return 0;
        }
        if (preset(p, spec) == 0)
            return 0;
        plat_free(p);
        if (strchr(spec, '/') || strchr(spec, '.'))
            return load_file(p, spec, err, n);
        snprintf(err, n,
                 "unknown platform \"%s\" (presets: bwdsp-1board, bwdsp-2board, "
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
