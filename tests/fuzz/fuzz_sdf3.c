/*
 * tests/fuzz/fuzz_sdf3.c - libFuzzer target of the SDF3 importer
 * (frontend/import_sdf3.c), as `tgc import sdf3 FILE` reads a file: an error always has
 * its position, and a graph comes back exactly when no error was reported.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("input.xml");
    fuzz_write(path, data, size);
    Options opt = fuzz_options();
    Diag *d = diag_new();
    Graph *g = fe_import_sdf3(path, &opt, NULL, d);
    fuzz_check_diag(d, g != NULL, "SDF3 importer");
    ir_graph_free(g);
    diag_free(d);
    return 0;
}
