/* names.h - the kernels of kernel-names.json: names the generated code or the C library
 * also uses.  Compiled by tgc, each is named tgc_kernel_NAME (docs/kernels.md). */
#ifndef NAMES_H
#define NAMES_H
#include <stddef.h>
#include <stdint.h>

#ifndef TGC_IO_DEFINED
#define TGC_IO_DEFINED
typedef struct tgc_io {
    int nin, nout;
    const void *const *in;
    const size_t *in_bytes;
    void *const *out;
    const size_t *out_bytes;
    int64_t iteration;
    const char *output;
} tgc_io;
#endif

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
