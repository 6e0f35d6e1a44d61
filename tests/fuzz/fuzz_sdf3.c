/*
 * tests/fuzz/fuzz_sdf3.c - libFuzzer target of the SDF3 importer
 * (frontend/import_sdf3.c), as `tgc import sdf3 FILE` reads a file: an error always has
 * its position, and a graph comes back exactly when no error was reported, and it is one
 * tgc accepts (written and read back: the round trip).
 */
#include "fuzz.h"

/* The importer with its default processor. */
static Graph *
import_sdf3(const char *path, const Options *opt, Diag *d)
{
    return fe_import_sdf3(path, opt, NULL, d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_graph_reader(data, size, "input.xml", import_sdf3, "SDF3 importer", true);
}
