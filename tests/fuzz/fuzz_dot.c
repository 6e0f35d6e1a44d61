/*
 * tests/fuzz/fuzz_dot.c - libFuzzer target of the DOT importer (frontend/import_dot.c),
 * as `tgc import dot FILE` reads a file; what it imports must be a graph tgc accepts.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("input.dot");
    fuzz_write(path, data, size);
    Options opt = fuzz_options();
    Diag *d = diag_new();
    Graph *g = fe_import_dot(path, &opt, d);
    fuzz_check_diag(d, g != NULL, "DOT importer");
    if (g)
        fuzz_graph_round_trip(g, "DOT importer");
    ir_graph_free(g);
    diag_free(d);
    return 0;
}
