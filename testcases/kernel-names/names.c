/* names.c - kernels whose names are identifiers of the generated code or of the C
 * library: each mixes its inputs (and its own salt) into every output byte. */
#include <stdint.h>

#include "names.h"

static void
mix(const tgc_io *io, uint32_t salt)
{
    uint32_t h = 2166136261u ^ salt ^ (uint32_t)io->iteration;
    for (int i = 0; i < io->nin; i++) {
        const unsigned char *p = io->in[i];
        for (size_t k = 0; k < io->in_bytes[i]; k++)
            h = (h ^ p[k]) * 16777619u;
    }
    for (int o = 0; o < io->nout; o++) {
        unsigned char *p = io->out[o];
        for (size_t k = 0; k < io->out_bytes[o]; k++) {
            h = (h ^ (uint32_t)k) * 16777619u;
            p[k] = (unsigned char)(h >> 24);
        }
    }
}

void io(const tgc_io *io, int64_t seed) { mix(io, (uint32_t)seed); }
void TgcBuf(const tgc_io *io) { mix(io, 1); }
void TgcTask(const tgc_io *io) { mix(io, 2); }
void main(const tgc_io *io) { mix(io, 3); }
void write(const tgc_io *io) { mix(io, 4); }
void read(const tgc_io *io) { mix(io, 5); }
void e0(const tgc_io *io) { mix(io, 6); }
void m0(const tgc_io *io) { mix(io, 7); }
void k_t_a(const tgc_io *io) { mix(io, 8); }
