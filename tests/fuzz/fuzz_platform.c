/*
 * tests/fuzz/fuzz_platform.c - libFuzzer target of the tgc-platform/1 reader
 * (platform/read.c, through frontend/platform_json.c), as `--platform FILE` reads a file;
 * a platform it accepts must write and read back unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("platform.json");
    fuzz_write(path, data, size);
    Arena *a = arena_new();
    Diag *d = diag_new();
    Platform *p = fe_load_platform(a, path, NULL, d);
    fuzz_check_diag(d, p != NULL, "tgc-platform/1 reader");
    if (p) {
        char *text = cg_platform_json(p);
        fuzz_write(path, text, strlen(text));
        Diag *d2 = diag_new();
        Platform *q = fe_load_platform(a, path, NULL, d2);
        if (!q)
            fuzz_fail("the platform it wrote does not read back:\n%s%s", diag_text(d2),
                      text);
        char *again = cg_platform_json(q);
        if (strcmp(text, again) != 0)
            fuzz_fail("the platform read back writes differently:\n%s\n---\n%s", text,
                      again);
        free(again);
        free(text);
        diag_free(d2);
    }
    diag_free(d);
    arena_free(a);
    return 0;
}
