/*
 * tests/fuzz/fuzz_graph.c - libFuzzer target of the tgc-graph/1 reader (frontend/load.c,
 * with the platform reader and the semantic checks it runs), as `tgc check FILE` reads a
 * file; a graph it accepts must write and read back unchanged.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_path("graph.json");
    fuzz_write(path, data, size);
    Options opt = fuzz_options();
    Diag *d = diag_new();
    Graph *g = fe_load_graph(path, &opt, d);
    fuzz_check_diag(d, g != NULL, "tgc-graph/1 reader");
    if (g)
        fuzz_graph_round_trip(g, "tgc-graph/1 reader");
    ir_graph_free(g);
    diag_free(d);
    return 0;
}
