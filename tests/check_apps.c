/* tests/check_apps.c - the costs of the applications of testcases/apps: every task's
 * cycles, as the frontend reads them from the graph's cycles expressions, must be what
 * the cost model of testcases/README.md gives for its kernel and params, recomputed here
 * from the operation counts; the Huffman coder's estimate of symbols per block must match
 * the frames the JPEG graph encodes; and the graphs must be what their make_graph.sh
 * writes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "ir.h"
#include "jpeg_kernels.h"

#ifndef TGC_APPS
#define TGC_APPS "testcases/apps"
#endif

/* The BWDSP cost model of testcases/README.md: a fixed cost per call, 16 multiply-adds
 * (or adds, multiplies) per cycle, 8 words moved per cycle, one cycle per step of a
 * serial chain, 8 cycles per division. */
enum { CALL = 40, MACS_PER_CYCLE = 16, WORDS_PER_CYCLE = 8, DIVIDE = 8 };
/* The Huffman coder: a serial scan of the 64 coefficients of a block, 8 cycles per
 * symbol, SYMBOLS symbols per block; one cycle per header byte. */
enum { SCAN = 64, PER_SYMBOL = 8, SYMBOLS = 9, HEADER_BYTES = 609 };

static int64_t
cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t
model(int64_t macs, int64_t words, int64_t serial, int64_t divides)
{
    return CALL + cdiv(macs, MACS_PER_CYCLE) + cdiv(words, WORDS_PER_CYCLE) + serial +
           DIVIDE * divides;
}

static int64_t
param(const Task *t, const char *name)
{
    for (int k = 0; k < t->nparams; k++)
        if (strcmp(t->params[k].name, name) == 0)
            return t->params[k].i;
    ck_abort_msg("task \"%s\" has no param \"%s\"", t->id, name);
    return 0;
}

/* The cost of a task from its kernel's operation counts (the README's tables). */
static int64_t
cost(const Task *t)
{
    const char *k = t->kernel;
#define P(name) param(t, #name)
    if (strcmp(k, "jpeg_source") == 0) /* 3 bytes per pixel, 4 to a word */
        return model(0, P(width) * P(height) * 3 / 4, 0, 0);
    if (strcmp(k, "jpeg_color") == 0) /* Y: 3 MACs a pixel; Cb, Cr: 20 ops a 2x2 block */
        return model(3 * 16 * P(width) + 20 * 4 * P(width), (16 + 8) * P(width) / 4, 0,
                     0);
    if (strcmp(k, "jpeg_fdct") == 0) { /* shift 64, DCT 2 x 512, quantise 2 x 64 */
        int64_t blocks = P(brows) * P(cols);
        return model(blocks * (64 + 1024 + 128), blocks * 64, 0, 0);
    }
    if (strcmp(k, "jpeg_huffman") == 0) {
        int64_t blocks = P(width) * P(height) * 3 / 2 / 64;
        return model(0, 0, HEADER_BYTES + blocks * (SCAN + PER_SYMBOL * SYMBOLS), 0);
    }
    if (strcmp(k, "nlms_source") == 0) /* a random sample, the system, the energy */
        return model(P(block) * (4 + P(system) + 3), 6 * P(block), 0, 0);
    if (strcmp(k, "nlms_partial") == 0) /* update and filter; shift in the block */
        return model(2 * P(block) * P(count), 3 * P(block) + P(first) + P(count), 0, 0);
    if (strcmp(k, "nlms_combine") == 0) /* sum, error, step, power; one division */
        return model(P(block) * (P(parts) + 3), P(parts) * P(block), 0, P(block));
    if (strcmp(k, "conv1d_rr_source") == 0)
        return model(0, P(procs) * P(procs), 0, 0);
    if (strcmp(k, "conv1d_rr_worker") == 0)
        return model(P(taps), P(taps) + P(procs) + 1, 0, 0);
    if (strcmp(k, "conv1d_rr_gather") == 0)
        return model(0, P(procs), 0, 0);
    if (strcmp(k, "conv1d_mp_source") == 0)
        return model(0, P(procs) * P(length), 0, 0);
    if (strcmp(k, "conv1d_mp_worker") == 0)
        return model(P(length) * (P(taps) / P(procs)), P(length) + P(taps) - 1, 0, 0);
    if (strcmp(k, "conv1d_mp_reduce") == 0)
        return model((P(procs) - 1) * (P(length) + P(taps) - 1), 0, 0, 0);
    if (strcmp(k, "conv2d_source") == 0)
        return model(0, P(ih) * P(iw) * P(ci) + P(procs) * P(kl), 0, 0);
    if (strcmp(k, "conv2d_im2col") == 0)
        return model(0, (P(ih) - P(kh) + 1) * (P(iw) - P(kw) + 1) * P(kh) * P(kw) * P(ci),
                     0, 0);
    if (strcmp(k, "conv2d_gemv") == 0)
        return model(P(rows) * P(kl), P(rows), 0, 0);
    if (strcmp(k, "conv2d_gather") == 0)
        return model(0, P(oh) * P(ow), 0, 0);
    if (strcmp(k, "mm_slice_source") == 0)
        return model(0, P(m) * P(k), 0, 0);
    if (strcmp(k, "mm_slice_rows") == 0)
        return model(P(rows) * P(m) * P(k), P(rows) * P(m), 0, 0);
    if (strcmp(k, "mm_fox_source") == 0)
        return model(0, 2 * P(m) * P(k), 0, 0);
    if (strcmp(k, "mm_fox_step") == 0) /* A and B passed on unless last, C from step 1 */
        return model(P(rows) * P(rows) * P(k),
                     (P(last) ? 0 : 2 * P(rows) * P(k)) + (P(step) ? P(rows) * P(m) : 0),
                     0, 0);
    if (strcmp(k, "mm_gather") == 0)
        return model(0, P(m) * P(m), 0, 0);
    if (strcmp(k, "bf_init") == 0)
        return model(0, P(outs) * P(n), 0, 0);
    if (strcmp(k, "bf_step") == 0)
        return model(P(n), P(outs) * P(n), 0, 0);
#undef P
    ck_abort_msg("task \"%s\": kernel \"%s\" has no cost model here", t->id, k);
    return -1;
}

static const char *const graphs[] = {
    "jpeg/jpeg.json",      "nlms/nlms.json",       "conv1d/rr-256.json",
    "conv1d/mp-256.json",  "conv1d/rr-512.json",   "conv1d/mp-512.json",
    "conv1d/rr-1024.json", "conv1d/mp-1024.json",  "conv1d/rr-2048.json",
    "conv1d/mp-2048.json", "conv1d/rr-4096.json",  "conv1d/mp-4096.json",
    "conv1d/rr-8192.json", "conv1d/mp-8192.json",  "conv2d/conv2d.json",
    "matmul/slice.json",   "matmul/fox.json",      "butterfly/butterfly.json",
    "jpeg/jpeg-sdf.json",  "matmul/slice-sdf.json"};
enum { NGRAPHS = sizeof graphs / sizeof graphs[0] };

static Graph *
load(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TGC_APPS, rel);
    Options o = {.limits = ir_default_limits()};
    Diag *d = diag_new();
    Graph *g = fe_load_graph(path, &o, d);
    ck_assert_msg(g != NULL, "%s: %s", path, diag_text(d));
    diag_free(d);
    return g;
}

TEST_CASE("core", 0)

LOOP_TEST(cycles_follow_the_cost_model, 0, NGRAPHS)
{
    Graph *g = load(graphs[_i]);
    for (int t = 0; t < g->ntasks; t++) {
        const Task *task = &g->tasks[t];
        ck_assert_msg(task->kernel != NULL, "%s: task \"%s\" has no kernel", graphs[_i],
                      task->id);
        ck_assert_int_eq(task->ncycles, 1);
        int64_t want = cost(task);
        ck_assert_msg(task->cycles[0] == want,
                      "%s: task \"%s\" (%s) costs %lld cycles, the model gives %lld",
                      graphs[_i], task->id, task->kernel, (long long)task->cycles[0],
                      (long long)want);
    }
    ir_graph_free(g);
}
END_TEST

/* The Huffman coder's cost assumes SYMBOLS symbols per block: the frames of the JPEG
 * graph must code to that within one symbol on average. */
TEST(huffman_symbols_match_the_frames)
{
    Graph *g = load("jpeg/jpeg.json");
    const Task *huff = NULL;
    for (int t = 0; t < g->ntasks; t++)
        if (strcmp(g->tasks[t].id, "huffman") == 0)
            huff = &g->tasks[t];
    ck_assert_ptr_nonnull(huff);
    int64_t w = param(huff, "width"), h = param(huff, "height"),
            q = param(huff, "quality");
    size_t band = (size_t)(16 * w * 3);
    uint8_t *rgb = malloc(band * (size_t)(h / 16)), *comp[3];
    int16_t *coef = malloc((size_t)(32 * w) * sizeof *coef);
    size_t cbytes[3] = {(size_t)(16 * w), (size_t)(4 * w), (size_t)(4 * w)};
    for (int c = 0; c < 3; c++)
        comp[c] = malloc(cbytes[c]);
    long long symbols = 0, blocks = 0;
    for (int64_t frame = 0; frame < g->iterations; frame++) {
        void *outs[64];
        size_t ob[64];
        for (int64_t r = 0; r < h / 16 && r < 64; r++) {
            outs[r] = rgb + band * (size_t)r;
            ob[r] = band;
        }
        tgc_io src = {
            .nout = (int)(h / 16), .out = outs, .out_bytes = ob, .iteration = frame};
        jpeg_source(&src, w, h);
        for (int64_t r = 0; r < h / 16; r++) {
            const void *in[1] = {rgb + band * (size_t)r};
            size_t ib[1] = {band};
            void *co[3] = {comp[0], comp[1], comp[2]};
            tgc_io cc = {1, 3, in, ib, co, cbytes, frame, NULL, r, h / 16};
            jpeg_color(&cc, w);
            for (int c = 0; c < 3; c++) {
                int64_t cols = c ? w / 16 : w / 8, brows = c ? 1 : 2;
                const void *ci[1] = {comp[c]};
                void *o[1] = {coef};
                size_t osz[1] = {(size_t)(brows * cols * 64) * sizeof *coef};
                tgc_io d = {1, 1, ci, &cbytes[c], o, osz, frame, NULL, r, h / 16};
                jpeg_fdct(&d, c, cols, brows, q);
                for (int64_t b = 0; b < brows * cols; b++, blocks++)
                    symbols += jpeg_block_symbols(coef + 64 * b);
            }
        }
    }
    double mean = (double)symbols / (double)blocks;
    ck_assert_msg(mean >= SYMBOLS - 1 && mean <= SYMBOLS + 1,
                  "the frames code to %.2f symbols per block, the cost model assumes %d",
                  mean, SYMBOLS);
    for (int c = 0; c < 3; c++)
        free(comp[c]);
    free(coef);
    free(rgb);
    ir_graph_free(g);
}
END_TEST

/* Each graph is what its make_graph.sh writes (the command is in the script's header). */
TEST(graphs_are_made_by_their_scripts)
{
    static const struct {
        const char *dir, *args, *graph;
        const char *script; /* NULL: make_graph.sh */
    } made[] = {
        {"jpeg", "128 128 8 75", "jpeg.json", NULL},
        {"jpeg", "128 128 8 75", "jpeg-sdf.json", "make_sdf.sh"},
        {"matmul", "64 48 4", "slice-sdf.json", "make_sdf.sh"},
        {"conv1d", "rr 256", "rr-256.json", NULL},
        {"conv1d", "mp 256", "mp-256.json", NULL},
        {"conv1d", "rr 512", "rr-512.json", NULL},
        {"conv1d", "mp 512", "mp-512.json", NULL},
        {"conv1d", "rr 1024", "rr-1024.json", NULL},
        {"conv1d", "mp 1024", "mp-1024.json", NULL},
        {"conv1d", "rr 2048", "rr-2048.json", NULL},
        {"conv1d", "mp 2048", "mp-2048.json", NULL},
        {"conv1d", "rr 4096", "rr-4096.json", NULL},
        {"conv1d", "mp 4096", "mp-4096.json", NULL},
        {"conv1d", "rr 8192", "rr-8192.json", NULL},
        {"conv1d", "mp 8192", "mp-8192.json", NULL},
        {"conv2d", "36 36 3 5 5 4", "conv2d.json", NULL},
        {"matmul", "slice 64 48 4", "slice.json", NULL},
        {"matmul", "fox 64 48 4", "fox.json", NULL},
        {"butterfly", "1024 8", "butterfly.json", NULL},
    };
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        char cmd[2048];
        const char *script = made[i].script ? made[i].script : "make_graph.sh";
        snprintf(cmd, sizeof cmd, "cd '%s/%s' && sh %s %s | cmp -s - %s", TGC_APPS,
                 made[i].dir, script, made[i].args, made[i].graph);
        ck_assert_msg(system(cmd) == 0, "%s/%s differs from what \"sh %s %s\" writes",
                      made[i].dir, made[i].graph, script, made[i].args);
    }
}
END_TEST
