/*
 * jpeg_kernels.h - a baseline JPEG encoder (JFIF, 4:2:0, Huffman coding with the standard
 * tables of ITU T.81 Annex K) as the kernels of a task graph: one frame per iteration,
 * split into bands of one MCU row (16 pixel rows) and, after colour conversion, into the
 * three components.  testcases/README.md explains the split and the cost model.
 *
 * The kernel interface of docs/kernels.md: tgc_io comes from tgc_kernel.h, which tgc
 * writes into every project; compiled on their own, the kernels find it in tgc's
 * backend/support/.
 */
#ifndef JPEG_KERNELS_H
#define JPEG_KERNELS_H

#include "tgc_kernel.h"

/* Frame `iteration` of the synthetic scene (a gradient, a moving disc, stripes, a little
 * noise), width x height RGB pixels (3 bytes each), row after row over the outputs:
 * out[r] is MCU row r (16 rows), or out[0] all of them (jpeg-sdf.json: its tokens are
 * the MCU rows). */
void jpeg_source(const tgc_io *io, int64_t width, int64_t height);
/* One MCU row: in[0] = 16 x width RGB; out[0] = Y (16 x width), out[1] = Cb and out[2] =
 * Cr (8 x width/2 each, the average of 2 x 2 pixels: 4:2:0), one byte per sample. */
void jpeg_color(const tgc_io *io, int64_t width);
/* One band of one component: in[0] = brows x 8 rows of cols x 8 samples; out[0] = the
 * brows x cols blocks in raster order, each 64 quantised DCT coefficients (int16) in
 * zig-zag order.  comp 0 uses the luminance table, 1 and 2 the chrominance table. */
void jpeg_fdct(const tgc_io *io, int64_t comp, int64_t cols, int64_t brows,
               int64_t quality);
/* The sink: in[3r], in[3r+1], in[3r+2] = the Y, Cb and Cr coefficients of MCU row r,
 * or (jpeg-sdf.json) in[0], in[1], in[2] = those of every MCU row, one token a row.
 * Huffman-codes the frame and appends it, a complete JFIF image, to the output file. */
void jpeg_huffman(const tgc_io *io, int64_t width, int64_t height, int64_t quality);

/* For the checks: the RGB pixel (x, y) of a frame; the quantisation table of a component
 * (0 luminance, 1 chrominance) at a quality, in natural order; the symbols (DC, AC, ZRL
 * and EOB codes) the Huffman coder emits for one block. */
void jpeg_pixel(int64_t frame, int64_t width, int64_t height, int64_t x, int64_t y,
                uint8_t rgb[3]);
void jpeg_qtable(int comp, int64_t quality, uint16_t q[64]);
int jpeg_block_symbols(const int16_t zz[64]);

#endif
