/*
 * tests/fuzz/fuzz.h - what the libFuzzer targets of tests/fuzz share (docs/testing.md).
 *
 * Every target reads its input the way tgc reads a file: the bytes are written to a file
 * in a private temporary folder and the reader is given that path, so relative references
 * inside the input resolve in that folder.  A target aborts (and libFuzzer keeps the
 * input) when the reader breaks one of the promises of docs/formats.md, not only when it
 * crashes: a result without errors or errors without a result, an error without a
 * position, or a document that does not read back as what was written.
 */
#ifndef TGC_FUZZ_H
#define TGC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

/* The path of `name` in the private folder, which is the current folder of the process
 * (a relative path, as a user types it; static storage). */
const char *fuzz_path(const char *name);
/* Writes the bytes to the file at path (aborts when it cannot). */
void fuzz_write(const char *path, const void *data, size_t size);
/* The options of `tgc check` with smaller limits, so that inputs stay fast to read. */
Options fuzz_options(void);
/* The promises about a reader's diagnostics: `ok` (a result came back) exactly when no
 * error was reported, and every error starts with a position (FILE:LINE:COL, FILE:LINE,
 * FILE: /pointer or FILE). */
void fuzz_check_diag(const Diag *d, bool ok, const char *what);
/* The promise of the graph writer: g, written as tgc-graph/1 (to graph.json in the
 * private folder), reads back without error and writes the same text again.  Importers
 * promise that way that what they produce is a graph tgc accepts. */
void fuzz_graph_round_trip(const Graph *g, const char *what);
/* A reader of graph files as the fuzz targets call it: the graph, or NULL after
 * reporting into d. */
typedef Graph *(*FuzzGraphReader)(const char *path, const Options *opt, Diag *d);
/* The whole target of a graph reader: the input written to `name`, read with the options
 * of fuzz_options, its diagnostics checked (fuzz_check_diag) and, with round_trip, the
 * graph it returns written and read back (fuzz_graph_round_trip).  Returns 0. */
int fuzz_graph_reader(const uint8_t *data, size_t size, const char *name,
                      FuzzGraphReader read, const char *what, bool round_trip);
/* Prints "fuzz: " and the message on stderr and aborts. */
_Noreturn void fuzz_fail(const char *fmt, ...) TGC_PRINTF(1, 2);

/* Every target defines it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* TGC_FUZZ_H */
