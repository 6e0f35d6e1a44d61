/*
 * tests/fuzz/fuzz_dot.c - libFuzzer target of the DOT importer (frontend/import_dot.c),
 * as `tgc import dot FILE` reads a file; what it imports must be a graph tgc accepts.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_graph_reader(data, size, "input.dot", fe_import_dot, "DOT importer",
                             true);
}
