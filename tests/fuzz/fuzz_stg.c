/*
 * tests/fuzz/fuzz_stg.c - libFuzzer target of the STG importer (frontend/import_stg.c),
 * as `tgc import stg FILE` reads a file; what it imports must be a graph tgc accepts.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("input.stg");
    fuzz_write(path, data, size);
    Options opt = fuzz_options();
    Diag *d = diag_new();
    Graph *g = fe_import_stg(path, &opt, d);
    fuzz_check_diag(d, g != NULL, "STG importer");
    if (g)
        fuzz_graph_round_trip(g, "STG importer");
    ir_graph_free(g);
    diag_free(d);
    return 0;
}
