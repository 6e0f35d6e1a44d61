/* jpeg_kernels.c - the kernels of the JPEG encoder graph (interface: jpeg_kernels.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg_kernels.h"

/* ---- the input: a synthetic scene, a pure function of the frame and the pixel ---- */

static uint32_t
hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

enum { NOISE = 5 };

static int
clamp255(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

void
jpeg_pixel(int64_t frame, int64_t width, int64_t height, int64_t x, int64_t y,
           uint8_t rgb[3])
{
    /* a smooth background */
    int r = 40 + (int)(150 * x / width), g = 60 + (int)(130 * y / height),
        b = 170 - (int)(100 * (x + y) / (width + height));
    /* a disc that moves right and down by 3 and 2 pixels a frame, with a soft edge */
    int64_t cx = width / 4 + (3 * frame) % (width / 2),
            cy = height / 3 + (2 * frame) % (height / 3);
    int64_t rad = (width < height ? width : height) / 5 + 1;
    int64_t dx = x - cx, dy = y - cy, d2 = dx * dx + dy * dy;
    int inside = d2 <= (rad - 2) * (rad - 2) ? 4 : d2 >= (rad + 2) * (rad + 2) ? 0 : -1;
    if (inside < 0) { /* the edge ring: blend in quarters of the distance */
        double d = sqrt((double)d2);
        inside = (int)((rad + 2 - d) + 0.5);
        inside = inside < 0 ? 0 : inside > 4 ? 4 : inside;
    }
    r = (r * (4 - inside) + 225 * inside) / 4;
    g = (g * (4 - inside) + 70 * inside) / 4;
    b = (b * (4 - inside) + 50 * inside) / 4;
    /* vertical stripes in the lower right quarter, a wood grain in the upper right:
       luminance only */
    if (x >= width / 2 && y >= height / 2) {
        int s = (int)(((x + frame) / 3) % 2 ? 24 : -24);
        r += s;
        g += s;
        b += s;
    } else if (x >= width / 2) {
        int s = (int)(20 * sin((double)(x * x + 3 * y * y + 40 * frame) / 90.0));
        r += s;
        g += s;
        b += s;
    }
    /* grain: noise of +-NOISE */
    uint32_t h = hash32((uint32_t)(frame * 1000003 + y * 4099 + x));
    int n = (int)(h % (2 * NOISE + 1)) - NOISE;
    rgb[0] = (uint8_t)clamp255(r + n);
    rgb[1] = (uint8_t)clamp255(g + n);
    rgb[2] = (uint8_t)clamp255(b + n);
}

void
jpeg_source(const tgc_io *io, int64_t width, int64_t height)
{
    /* the outputs hold the frame's rows in order: a band of 16 each (one output per MCU
       row), or all of them in one (the multi-rate graph: its tokens are the bands) */
    int64_t row0 = 0;
    for (int o = 0; o < io->nout; o++) {
        uint8_t *p = io->out[o];
        size_t n = io->out_bytes[o];
        memset(p, 0, n);
        int64_t rows = (int64_t)(n / (size_t)(3 * width));
        for (int64_t y = 0; y < rows && row0 + y < height; y++)
            for (int64_t x = 0; x < width; x++)
                jpeg_pixel(io->iteration, width, height, x, row0 + y,
                           p + (size_t)((y * width + x) * 3));
        row0 += rows;
    }
}

/* ---- colour conversion and 4:2:0 subsampling (JFIF, in 16-bit fixed point) ---- */

void
jpeg_color(const tgc_io *io, int64_t width)
{
    const uint8_t *rgb = io->in[0];
    uint8_t *ys = io->out[0], *cb = io->out[1], *cr = io->out[2];
    if (io->in_bytes[0] < (size_t)(16 * width * 3) ||
        io->out_bytes[0] < (size_t)(16 * width) ||
        io->out_bytes[1] < (size_t)(4 * width) ||
        io->out_bytes[2] < (size_t)(4 * width)) {
        for (int o = 0; o < io->nout; o++)
            memset(io->out[o], 0, io->out_bytes[o]);
        return;
    }
    for (int64_t i = 0; i < 16 * width; i++) {
        const uint8_t *p = rgb + 3 * i;
        ys[i] = (uint8_t)((19595 * p[0] + 38470 * p[1] + 7471 * p[2] + 32768) >> 16);
    }
    for (int64_t y = 0; y < 8; y++)
        for (int64_t x = 0; x < width / 2; x++) {
            int s[3] = {0, 0, 0};
            for (int k = 0; k < 4; k++) {
                const uint8_t *p = rgb + 3 * ((2 * y + k / 2) * width + 2 * x + k % 2);
                for (int c = 0; c < 3; c++)
                    s[c] += p[c];
            }
            int r = (s[0] + 2) >> 2, g = (s[1] + 2) >> 2, b = (s[2] + 2) >> 2;
            size_t at = (size_t)(y * (width / 2) + x);
            cb[at] = (uint8_t)clamp255(
                (-11059 * r - 21709 * g + 32768 * b + (128 << 16) + 32767) >> 16);
            cr[at] = (uint8_t)clamp255(
                (32768 * r - 27439 * g - 5329 * b + (128 << 16) + 32767) >> 16);
        }
}

/* ---- forward DCT, quantisation, zig-zag ---- */

static const uint8_t zigzag[64] = {/* zigzag[k] = natural index of the k-th coefficient */
                                   0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18,
                                   11, 4,  5,  12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
                                   13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43,
                                   36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45,
                                   38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

static const uint8_t base_q[2][64] = {
    {16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
     14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
     18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
     49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99},
    {17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
     24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
     99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
     99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99}};

void
jpeg_qtable(int comp, int64_t quality, uint16_t q[64])
{
    int64_t qu = quality < 1 ? 1 : quality > 100 ? 100 : quality;
    int64_t scale = qu < 50 ? 5000 / qu : 200 - 2 * qu; /* the IJG scaling */
    for (int i = 0; i < 64; i++) {
        int64_t v = (base_q[comp ? 1 : 0][i] * scale + 50) / 100;
        q[i] = (uint16_t)(v < 1 ? 1 : v > 255 ? 255 : v);
    }
}

/* c[u][x] = C(u) / 2 * cos((2x + 1) u pi / 16), C(0) = 1 / sqrt(2), so F = c f c^T. */
static void
dct_matrix(float c[8][8])
{
    for (int u = 0; u < 8; u++)
        for (int x = 0; x < 8; x++)
            c[u][x] = (float)((u == 0 ? sqrt(0.5) : 1.0) / 2.0 *
                              cos((2 * x + 1) * u * 3.14159265358979323846 / 16.0));
}

void
jpeg_fdct(const tgc_io *io, int64_t comp, int64_t cols, int64_t brows, int64_t quality)
{
    const uint8_t *s = io->in[0];
    int16_t *out = io->out[0];
    int64_t w = 8 * cols;
    if (io->in_bytes[0] < (size_t)(brows * 8 * w) ||
        io->out_bytes[0] < (size_t)(brows * cols * 64) * sizeof *out) {
        memset(io->out[0], 0, io->out_bytes[0]);
        return;
    }
    float c[8][8], f[8][8], t[8][8];
    uint16_t q[64];
    dct_matrix(c);
    jpeg_qtable((int)comp, quality, q);
    for (int64_t b = 0; b < brows * cols; b++) {
        int64_t bx = b % cols, by = b / cols;
        for (int y = 0; y < 8; y++) /* level shift */
            for (int x = 0; x < 8; x++)
                f[y][x] = (float)s[(by * 8 + y) * w + bx * 8 + x] - 128.0f;
        for (int u = 0; u < 8; u++) /* t = c f */
            for (int x = 0; x < 8; x++) {
                float a = 0;
                for (int k = 0; k < 8; k++)
                    a += c[u][k] * f[k][x];
                t[u][x] = a;
            }
        int16_t *zz = out + 64 * b;
        for (int i = 0; i < 64; i++) { /* F = t c^T, quantised, in zig-zag order */
            int u = zigzag[i] / 8, v = zigzag[i] % 8;
            float a = 0;
            for (int k = 0; k < 8; k++)
                a += t[u][k] * c[v][k];
            float r = a / (float)q[zigzag[i]];
            int qv = (int)(r < 0 ? r - 0.5f : r + 0.5f);
            /* baseline codes AC values up to 1023 and DC differences up to 2047 */
            zz[i] = (int16_t)(qv < -1023 ? -1023 : qv > 1023 ? 1023 : qv);
        }
    }
    size_t used = (size_t)(brows * cols * 64);
    memset(out + used, 0, io->out_bytes[0] - used * sizeof *out);
}

/* ---- Huffman coding with the standard tables (T.81 K.3 .. K.6) and the JFIF file ----
 */

static const uint8_t dc_bits[2][17] = {
    {0, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}};
static const uint8_t dc_vals[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
static const uint8_t ac_bits[2][17] = {
    {0, 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d},
    {0, 0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77}};
static const uint8_t ac_vals[2][162] = {
    {0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51,
     0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1,
     0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18,
     0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39,
     0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57,
     0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75,
     0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92,
     0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
     0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
     0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8,
     0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2,
     0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa},
    {0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07,
     0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09,
     0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25,
     0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38,
     0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56,
     0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74,
     0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
     0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
     0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba,
     0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6,
     0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2,
     0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa}};

typedef struct Codes {
    uint16_t code[256];
    uint8_t len[256];
} Codes;

/* The canonical codes of a table (T.81 C.2). */
static void
make_codes(const uint8_t bits[17], const uint8_t *vals, Codes *c)
{
    memset(c, 0, sizeof *c);
    unsigned code = 0;
    int k = 0;
    for (int l = 1; l <= 16; l++) {
        for (int i = 0; i < bits[l]; i++, k++) {
            c->code[vals[k]] = (uint16_t)code++;
            c->len[vals[k]] = (uint8_t)l;
        }
        code <<= 1;
    }
}

typedef struct Bits {
    uint8_t *buf;
    size_t n, cap;
    uint32_t acc; /* pending bits, the oldest highest */
    int nacc;
    int overflow;
} Bits;

static void
put_byte(Bits *b, uint8_t v)
{
    if (b->n < b->cap)
        b->buf[b->n++] = v;
    else
        b->overflow = 1;
}

static void
put_bits(Bits *b, uint32_t v, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        b->acc = (b->acc << 1) | ((v >> i) & 1);
        if (++b->nacc == 8) {
            put_byte(b, (uint8_t)b->acc);
            if ((uint8_t)b->acc == 0xff)
                put_byte(b, 0); /* byte stuffing */
            b->acc = 0;
            b->nacc = 0;
        }
    }
}

static int
category(int v)
{
    int a = v < 0 ? -v : v, s = 0;
    while (a) {
        s++;
        a >>= 1;
    }
    return s;
}

/* Codes one block; returns the number of symbols (codes) it emitted. */
static int
code_block(Bits *b, const int16_t zz[64], int *pred, const Codes *dc, const Codes *ac)
{
    int diff = zz[0] - *pred, syms = 1;
    *pred = zz[0];
    int s = category(diff);
    put_bits(b, dc->code[s], dc->len[s]);
    if (s)
        put_bits(b, (uint32_t)(diff < 0 ? diff - 1 : diff) & ((1u << s) - 1), s);
    int run = 0;
    for (int k = 1; k < 64; k++) {
        if (zz[k] == 0) {
            run++;
            continue;
        }
        for (; run > 15; run -= 16, syms++)
            put_bits(b, ac->code[0xf0], ac->len[0xf0]); /* ZRL */
        s = category(zz[k]);
        int sym = (run << 4) | s;
        put_bits(b, ac->code[sym], ac->len[sym]);
        put_bits(b, (uint32_t)(zz[k] < 0 ? zz[k] - 1 : zz[k]) & ((1u << s) - 1), s);
        syms++;
        run = 0;
    }
    if (run) {
        put_bits(b, ac->code[0x00], ac->len[0x00]); /* EOB */
        syms++;
    }
    return syms;
}

int
jpeg_block_symbols(const int16_t zz[64])
{
    uint8_t scratch[1024];
    Codes dc, ac;
    make_codes(dc_bits[0], dc_vals, &dc);
    make_codes(ac_bits[0], ac_vals[0], &ac);
    Bits b = {.buf = scratch, .cap = sizeof scratch};
    int pred = 0;
    return code_block(&b, zz, &pred, &dc, &ac);
}

static void
put16(Bits *b, unsigned v)
{
    put_byte(b, (uint8_t)(v >> 8));
    put_byte(b, (uint8_t)v);
}

static void
put_dht(Bits *b, int class_id, const uint8_t bits[17], const uint8_t *vals)
{
    int n = 0;
    for (int l = 1; l <= 16; l++)
        n += bits[l];
    put_byte(b, (uint8_t)class_id);
    for (int l = 1; l <= 16; l++)
        put_byte(b, bits[l]);
    for (int i = 0; i < n; i++)
        put_byte(b, vals[i]);
}

void
jpeg_huffman(const tgc_io *io, int64_t width, int64_t height, int64_t quality)
{
    int64_t rows = height / 16, mcus = width / 16;
    size_t ybytes = (size_t)(2 * (width / 8) * 64) * sizeof(int16_t),
           cbytes = (size_t)(width / 16 * 64) * sizeof(int16_t);
    /* the coefficients of MCU row r: in[3r], in[3r+1], in[3r+2] (one input per row and
       component), or row r of in[0], in[1], in[2] (the multi-rate graph: one input per
       component, its tokens the rows in order) */
    int joined = io->nin == 3 && rows > 1;
    if (!joined && io->nin != 3 * rows)
        return;
    for (int64_t r = 0; r < rows; r++) {
        size_t k = joined ? (size_t)rows : 1;
        int i = joined ? 0 : (int)(3 * r);
        if (io->in_bytes[i] < k * ybytes || io->in_bytes[i + 1] < k * cbytes ||
            io->in_bytes[i + 2] < k * cbytes)
            return;
    }
    /* the worst case: 27 bits per coefficient, every byte stuffed, and the headers */
    size_t cap = (size_t)(rows * mcus * 6) * 64 * 27 / 4 + 1024;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return;
    Bits b = {.buf = buf, .cap = cap};
    uint16_t q[2][64];
    jpeg_qtable(0, quality, q[0]);
    jpeg_qtable(1, quality, q[1]);
    Codes dc[2], ac[2];
    for (int t = 0; t < 2; t++) {
        make_codes(dc_bits[t], dc_vals, &dc[t]);
        make_codes(ac_bits[t], ac_vals[t], &ac[t]);
    }
    static const uint8_t app0[] = {0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0,
                                   1,    1,    0, 0,  1,   0,   1,   0,   0};
    put16(&b, 0xffd8); /* SOI */
    for (size_t i = 0; i < sizeof app0; i++)
        put_byte(&b, app0[i]);
    put16(&b, 0xffdb); /* DQT: both tables, in zig-zag order */
    put16(&b, 2 + 2 * 65);
    for (int t = 0; t < 2; t++) {
        put_byte(&b, (uint8_t)t);
        for (int i = 0; i < 64; i++)
            put_byte(&b, (uint8_t)q[t][zigzag[i]]);
    }
    put16(&b, 0xffc0); /* SOF0: baseline, 8 bits, 3 components, Y 2x2, Cb and Cr 1x1 */
    put16(&b, 17);
    put_byte(&b, 8);
    put16(&b, (unsigned)height);
    put16(&b, (unsigned)width);
    put_byte(&b, 3);
    static const uint8_t comps[3][3] = {{1, 0x22, 0}, {2, 0x11, 1}, {3, 0x11, 1}};
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++)
            put_byte(&b, comps[c][i]);
    put16(&b, 0xffc4); /* DHT: the four standard tables */
    put16(&b, 2 + 4 * 17 + 12 + 12 + 162 + 162);
    put_dht(&b, 0x00, dc_bits[0], dc_vals);
    put_dht(&b, 0x10, ac_bits[0], ac_vals[0]);
    put_dht(&b, 0x01, dc_bits[1], dc_vals);
    put_dht(&b, 0x11, ac_bits[1], ac_vals[1]);
    put16(&b, 0xffda); /* SOS: the three components interleaved */
    put16(&b, 12);
    put_byte(&b, 3);
    static const uint8_t scomps[3][2] = {{1, 0x00}, {2, 0x11}, {3, 0x11}};
    for (int c = 0; c < 3; c++) {
        put_byte(&b, scomps[c][0]);
        put_byte(&b, scomps[c][1]);
    }
    put_byte(&b, 0);
    put_byte(&b, 63);
    put_byte(&b, 0);
    int pred[3] = {0, 0, 0};
    for (int64_t r = 0; r < rows; r++) {
        const int16_t *yb, *cb, *cr;
        if (joined) {
            yb = (const int16_t *)io->in[0] + (size_t)r * ybytes / sizeof *yb;
            cb = (const int16_t *)io->in[1] + (size_t)r * cbytes / sizeof *cb;
            cr = (const int16_t *)io->in[2] + (size_t)r * cbytes / sizeof *cr;
        } else {
            yb = io->in[3 * r];
            cb = io->in[3 * r + 1];
            cr = io->in[3 * r + 2];
        }
        int64_t cols = width / 8; /* Y blocks per block row of the band */
        for (int64_t m = 0; m < mcus; m++) {
            const int16_t *y4[4] = {yb + 64 * (2 * m), yb + 64 * (2 * m + 1),
                                    yb + 64 * (cols + 2 * m),
                                    yb + 64 * (cols + 2 * m + 1)};
            for (int k = 0; k < 4; k++)
                code_block(&b, y4[k], &pred[0], &dc[0], &ac[0]);
            code_block(&b, cb + 64 * m, &pred[1], &dc[1], &ac[1]);
            code_block(&b, cr + 64 * m, &pred[2], &dc[1], &ac[1]);
        }
    }
    if (b.nacc) /* pad the last byte with ones */
        put_bits(&b, (1u << (8 - b.nacc)) - 1, 8 - b.nacc);
    put16(&b, 0xffd9); /* EOI */
    FILE *f = io->output && !b.overflow
                  ? fopen(io->output, io->iteration == 0 ? "wb" : "ab")
                  : NULL;
    if (f) {
        fwrite(buf, 1, b.n, f);
        fclose(f);
    }
    free(buf);
}
