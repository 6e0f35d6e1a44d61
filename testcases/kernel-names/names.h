/* names.h - the kernels of kernel-names.json: names the generated code or the C library
 * also uses.  Compiled by tgc, each is named tgc_kernel_NAME (docs/kernels.md). */
#ifndef NAMES_H
#define NAMES_H
#include "tgc_kernel.h"

void io(const tgc_io *io, int64_t seed);
void TgcBuf(const tgc_io *io);
void TgcTask(const tgc_io *io);
void main(const tgc_io *io);
void write(const tgc_io *io);
void read(const tgc_io *io);
void e0(const tgc_io *io);
void m0(const tgc_io *io);
void k_t_a(const tgc_io *io);
#endif
