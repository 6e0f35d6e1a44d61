/* fifo_kernels.c - the kernels of fifo.json (fifo_kernels.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fifo_kernels.h"

/* the mismatches a token carries, capped: they add up along every path to the sink */
#define ERRORS_MAX (INT64_C(1) << 40)

void
fifo_actor(const tgc_io *io, int64_t id, int64_t firings, const char *inputs)
{
    int64_t errors = 0, upstream = 0;
    if (io->firings != firings || io->firing < 0 || io->firing >= firings)
        errors++;
    const char *s = inputs;
    for (int p = 0; p < io->nin; p++) {
        long long producer, produce, pfirings, consume, tokens;
        int used = 0;
        if (!s || sscanf(s, "%lld,%lld,%lld,%lld,%lld%n", &producer, &produce, &pfirings,
                         &consume, &tokens, &used) != 5) {
            errors++;
            break;
        }
        s = strchr(s + used, ';');
        s = s ? s + 1 : NULL;
        const FifoToken *tk = io->in[p];
        if (io->in_bytes[p] != (size_t)consume * sizeof *tk) {
            errors++;
            continue;
        }
        /* token o of this firing is token y of the consumer's stream, token y - tokens
           of the producer's (before it: the initial tokens, zeros) */
        long long per = produce * pfirings;
        for (long long o = 0; o < consume; o++) {
            long long y = (io->iteration * firings + io->firing) * consume + o;
            long long x = y - tokens;
            FifoToken want = {0, 0, 0, 0, 0};
            if (x >= 0) {
                want.actor = (int32_t)producer;
                want.iteration = (int32_t)(x / per);
                want.firing = (int32_t)(x % per / produce);
                want.index = (int32_t)(x % produce);
            }
            if (tk[o].actor != want.actor || tk[o].iteration != want.iteration ||
                tk[o].firing != want.firing || tk[o].index != want.index)
                errors++;
            upstream += tk[o].errors < ERRORS_MAX ? tk[o].errors : ERRORS_MAX;
            upstream = upstream < ERRORS_MAX ? upstream : ERRORS_MAX;
        }
    }
    if (s)
        errors++; /* more inputs described than the actor has */
    errors += upstream;
    errors = errors < ERRORS_MAX ? errors : ERRORS_MAX;
    for (int p = 0; p < io->nout; p++) {
        FifoToken *tk = io->out[p];
        size_t n = io->out_bytes[p] / sizeof *tk;
        memset(io->out[p], 0, io->out_bytes[p]);
        for (size_t k = 0; k < n; k++)
            tk[k] = (FifoToken){(int32_t)id, (int32_t)io->iteration, (int32_t)io->firing,
                                (int32_t)k, errors};
    }
    if (io->output) {
        FILE *f = fopen(io->output, io->iteration == 0 && io->firing == 0 ? "w" : "a");
        if (f) {
            fprintf(f, "iteration %lld firing %lld errors %lld\n",
                    (long long)io->iteration, (long long)io->firing, (long long)errors);
            fclose(f);
        }
    }
}
