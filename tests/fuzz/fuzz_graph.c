/*
 * tests/fuzz/fuzz_graph.c - libFuzzer target of the tgc-graph/1 reader (frontend/load.c,
 * with the platform reader and the semantic checks it runs), as `tgc check FILE` reads a
 * file; a graph it accepts must write and read back unchanged.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_graph_reader(data, size, "graph.json", fe_load_graph,
                             "tgc-graph/1 reader", true);
}
