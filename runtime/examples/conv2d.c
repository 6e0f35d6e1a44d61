/* conv2d: 2-D convolution by im2col ([MPIRIO] (docs/references.md) Table 4): input
 * 36x36x3, kernel 5x5x3, VALID, stride 1, output 32x32. DSP 0 builds the 1024 x 75 im2col
 * matrix, scatters its rows, broadcasts the kernel (a 75-vector); each DSP multiplies its
 * rows, and a Gather assembles the output, checked against the direct convolution. */
#include <mpirio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IH 36
#define IW 36
#define CI 3
#define KH 5
#define KW 5
#define OH (IH - KH + 1)
#define OW (IW - KW + 1)
#define KL (KH * KW * CI)

static float in[IH * IW * CI], ker[KL], cols[OH * OW * KL], out[OH * OW], ref[OH * OW];

int
main(int argc, char **argv)
{
    int rank, p;
    MPIRIO_Init(&argc, &argv);
    MPIRIO_Comm_rank(MPIRIO_COMM_WORLD, &rank);
    MPIRIO_Comm_size(MPIRIO_COMM_WORLD, &p);
    if ((OH * OW) % p) {
        if (rank == 0)
            printf("need a divisor of %d DSPs\n", OH * OW);
        return 1;
    }
    if (rank == 0) {
        for (int i = 0; i < IH * IW * CI; i++)
            in[i] = (float)((i * 7) % 9 - 4);
        for (int i = 0; i < KL; i++)
            ker[i] = (float)((i * 5) % 7 - 3);
        for (int oy = 0; oy < OH; oy++)
            for (int ox = 0; ox < OW; ox++) {
                float s = 0;
                int c = 0;
                for (int ky = 0; ky < KH; ky++)
                    for (int kx = 0; kx < KW; kx++)
                        for (int ch = 0; ch < CI; ch++, c++) {
                            float v = in[((oy + ky) * IW + ox + kx) * CI + ch];
                            cols[(oy * OW + ox) * KL + c] = v;
                            s += v * ker[c];
                        }
                ref[oy * OW + ox] = s;
            }
    }
    int rows = OH * OW / p;
    float *mine = malloc(sizeof(float) * rows * KL), *res = malloc(sizeof(float) * rows);
    long long t0 = MPIRIO_time();
    MPIRIO_Bcast(ker, KL, MPIRIO_FLOAT, 0, MPIRIO_COMM_WORLD);
    MPIRIO_Scatter(cols, rows * KL, MPIRIO_FLOAT, mine, rows * KL, MPIRIO_FLOAT, 0,
                   MPIRIO_COMM_WORLD);
    for (int r = 0; r < rows; r++) {
        float s = 0;
        for (int c = 0; c < KL; c++)
            s += mine[r * KL + c] * ker[c];
        res[r] = s;
    }
    MPIRIO_Compute((long long)rows * KL / 16);
    MPIRIO_Gather(res, rows, MPIRIO_FLOAT, out, rows, MPIRIO_FLOAT, 0, MPIRIO_COMM_WORLD);
    int bad = 0;
    if (rank == 0) {
        bad = memcmp(out, ref, sizeof out) != 0;
        printf("conv2d %dx%dx%d * %dx%dx%d -> %dx%d: %lld cycles; %s\n", IH, IW, CI, KH,
               KW, CI, OH, OW, MPIRIO_time() - t0, bad ? "WRONG" : "OK");
    }
    free(mine);
    free(res);
    MPIRIO_Finalize();
    return bad;
}
