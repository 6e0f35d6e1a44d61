/*
 * bench/stg_io.h - a small reader of Standard Task Graph Set files for the STG tools
 * (gen_stg, stg_optimal, bench_stg).  tgc itself imports STG with fe_import_stg; the
 * tools keep their own reader so that they measure the scheduler without the frontend.
 */
#ifndef TGC_TOOLS_STG_IO_H
#define TGC_TOOLS_STG_IO_H

#include "ir.h"

/* Reads an STG file: task k of the graph is task k of the file (the dummy entry 0 and
 * exit n+1 included, cost 0), every edge of 0 bytes, no platform.  The graph is indexed.
 * NULL with a message in err (at most errn bytes) when the file is not valid. */
Graph *stg_read(const char *path, char *err, size_t errn);

#endif /* TGC_TOOLS_STG_IO_H */
