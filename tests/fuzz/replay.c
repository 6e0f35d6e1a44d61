/*
 * tests/fuzz/replay.c - main() of the fuzz targets in a build without libFuzzer: runs the
 * target once on every file named on the command line (a folder: on each file in it), so
 * that CTest replays the committed corpus (tests/fuzz/corpus/TARGET/, which keeps every
 * input that once crashed a reader) in every build, sanitized or not.
 *
 *   fuzz_TARGET FILE|FOLDER...     exit status 0 when every input passed; a failing
 *                                  input aborts (fuzz_fail) after naming itself
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int nrun;

static void
replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fuzz_fail("cannot read %s", path);
    size_t cap = 4096, n = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += got) == cap)
            buf = realloc(buf, cap *= 2);
    if (!buf || ferror(f))
        fuzz_fail("cannot read %s", path);
    fclose(f);
    fprintf(stderr, "%s\n", path); /* the input a failure below belongs to */
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    nrun++;
}

static int
by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
        return 2;
    }
    /* paths become absolute before the first input: the target works in a folder of
     * its own */
    for (int i = 1; i < argc; i++) {
        char *abs = realpath(argv[i], NULL);
        if (!abs)
            fuzz_fail("cannot read %s", argv[i]);
        argv[i] = abs;
    }
    for (int i = 1; i < argc; i++) {
        char *abs = argv[i];
        struct stat st;
        if (stat(abs, &st) != 0)
            fuzz_fail("cannot read %s", abs);
        if (!S_ISDIR(st.st_mode)) {
            replay_file(abs);
            free(abs);
            continue;
        }
        DIR *dir = opendir(abs);
        if (!dir)
            fuzz_fail("cannot read %s", abs);
        char **names = NULL;
        size_t n = 0;
        for (struct dirent *e; (e = readdir(dir)) != NULL;)
            if (e->d_name[0] != '.') {
                names = realloc(names, (n + 1) * sizeof *names);
                size_t len = strlen(abs) + strlen(e->d_name) + 2;
                if (!names || !(names[n] = malloc(len)))
                    fuzz_fail("out of memory");
                snprintf(names[n++], len, "%s/%s", abs, e->d_name);
            }
        closedir(dir);
        if (n > 1)
            qsort(names, n, sizeof *names, by_name);
        for (size_t k = 0; k < n; k++) {
            replay_file(names[k]);
            free(names[k]);
        }
        free(names);
        free(abs);
    }
    if (nrun == 0)
        fuzz_fail("no input to replay");
    printf("%d inputs replayed, every one handled as promised\n", nrun);
    return 0;
}
