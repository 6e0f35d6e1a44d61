/*
 * check.c - the output check of the JPEG encoder: `check jpeg.json OUTDIR`.
 *
 * OUTDIR/jpeg.jpg holds one baseline JFIF image per iteration, one after the other.  Each
 * must be decoded by libjpeg-turbo's djpeg without a warning, be width x height, and
 * match the frame the source generated at a PSNR (over R, G and B) of at least 30 dB.
 */
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../app_check.h"
#include "jpeg_kernels.h"

extern char **environ;

enum { MIN_PSNR_DB = 30 };

/* Runs djpeg on the image; returns its exit status (127 when it cannot be started). */
static int
djpeg(const char *in, const char *out)
{
    char *argv[] = {"djpeg", "-pnm", "-outfile", (char *)out, (char *)in, NULL};
    pid_t pid;
    int st;
    if (posix_spawnp(&pid, "djpeg", NULL, NULL, argv, environ) != 0)
        return 127;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
        return 126;
    return WEXITSTATUS(st);
}

/* The pixels of a binary PPM (P6, maxval 255), or NULL. */
static const uint8_t *
ppm_pixels(const char *p, size_t n, int *w, int *h)
{
    int maxval, used = 0;
    if (n < 2 || sscanf(p, "P6 %d %d %d%n", w, h, &maxval, &used) != 3 || maxval != 255)
        return NULL;
    if ((size_t)used + 1 + (size_t)*w * (size_t)*h * 3 > n)
        return NULL;
    return (const uint8_t *)p + used + 1;
}

int
app_check(const char *outdir)
{
    int64_t width = app_param("huffman", "width"),
            height = app_param("huffman", "height");
    int64_t frames = app_iterations();
    size_t len;
    char *file = app_read_file(outdir, "jpeg.jpg", &len);
    const uint8_t *d = (const uint8_t *)file;
    char tmp_jpg[64], tmp_ppm[64];
    snprintf(tmp_jpg, sizeof tmp_jpg, "/tmp/tgc-jpeg-check-%d.jpg", (int)getpid());
    snprintf(tmp_ppm, sizeof tmp_ppm, "/tmp/tgc-jpeg-check-%d.ppm", (int)getpid());
    size_t at = 0;
    int64_t frame = 0;
    double min_psnr = INFINITY, sum_psnr = 0;
    while (at < len && frame < frames) {
        /* one image: SOI, marker segments up to SOS (each with its length), then the
           entropy-coded data, where 0xff is always followed by 0 (stuffing), up to EOI */
        if (len - at < 4 || d[at] != 0xff || d[at + 1] != 0xd8) {
            app_fail("frame %lld: no SOI marker at byte %zu", (long long)frame, at);
            break;
        }
        size_t end = at + 2;
        int baseline = 0, sos = 0;
        while (!sos && end + 4 <= len && d[end] == 0xff) {
            baseline |= d[end + 1] == 0xc0;
            sos = d[end + 1] == 0xda;
            end += 2 + ((size_t)d[end + 2] << 8 | d[end + 3]);
        }
        while (sos && end + 1 < len && !(d[end] == 0xff && d[end + 1] == 0xd9))
            end++;
        if (!sos || end + 1 >= len) {
            app_fail("frame %lld: no SOS or no EOI marker", (long long)frame);
            break;
        }
        end += 2;
        if (!baseline)
            app_fail("frame %lld: no SOF0 (baseline) marker", (long long)frame);
        FILE *f = fopen(tmp_jpg, "wb");
        if (!f || fwrite(d + at, 1, end - at, f) != end - at) {
            app_fail("cannot write %s", tmp_jpg);
            if (f)
                fclose(f);
            break;
        }
        fclose(f);
        int st = djpeg(tmp_jpg, tmp_ppm);
        if (st == 127) {
            app_fail("cannot run djpeg: install libjpeg-turbo-progs (setup.sh does)");
            break;
        }
        if (st != 0) {
            app_fail("frame %lld: djpeg exit status %d", (long long)frame, st);
        } else {
            size_t plen;
            char *ppm = app_read_file("/tmp", strrchr(tmp_ppm, '/') + 1, &plen);
            int w, h;
            const uint8_t *px = ppm_pixels(ppm, plen, &w, &h);
            if (!px || w != width || h != height) {
                app_fail("frame %lld: djpeg gave %dx%d, expected %lldx%lld",
                         (long long)frame, px ? w : 0, px ? h : 0, (long long)width,
                         (long long)height);
            } else {
                double se = 0;
                for (int64_t y = 0; y < height; y++)
                    for (int64_t x = 0; x < width; x++) {
                        uint8_t src[3];
                        jpeg_pixel(frame, width, height, x, y, src);
                        for (int c = 0; c < 3; c++) {
                            double e = (double)px[(y * width + x) * 3 + c] - src[c];
                            se += e * e;
                        }
                    }
                double mse = se / (double)(width * height * 3);
                double psnr = mse > 0 ? 10 * log10(255.0 * 255.0 / mse) : 99;
                if (psnr < MIN_PSNR_DB)
                    app_fail("frame %lld: PSNR %.2f dB < %d dB", (long long)frame, psnr,
                             MIN_PSNR_DB);
                min_psnr = psnr < min_psnr ? psnr : min_psnr;
                sum_psnr += psnr;
            }
            free(ppm);
        }
        at = end;
        frame++;
    }
    unlink(tmp_jpg);
    unlink(tmp_ppm);
    if (frame != frames)
        app_fail("%lld frames decoded, expected %lld", (long long)frame,
                 (long long)frames);
    else if (at != len)
        app_fail("%zu bytes after the last frame", len - at);
    if (frame > 0)
        printf("  jpeg: %lld frames of %lldx%lld, %zu bytes (%.0f per frame), decoded by "
               "djpeg; PSNR min %.2f dB, mean %.2f dB (at least %d)\n",
               (long long)frame, (long long)width, (long long)height, len,
               (double)len / (double)frame, min_psnr, sum_psnr / (double)frame,
               MIN_PSNR_DB);
    free(file);
    return app_finish("jpeg");
}
