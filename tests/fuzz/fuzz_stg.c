/*
 * tests/fuzz/fuzz_stg.c - libFuzzer target of the STG importer (frontend/import_stg.c),
 * as `tgc import stg FILE` reads a file; what it imports must be a graph tgc accepts.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_graph_reader(data, size, "input.stg", fe_import_stg, "STG importer",
                             true);
}
