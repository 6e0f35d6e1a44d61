/*
 * frontend/import.h - helpers shared by the importers (frontend-private, not part of
 * ir.h).
 */
#ifndef TGC_FRONTEND_IMPORT_H
#define TGC_FRONTEND_IMPORT_H

#include "fe.h"

/* fe_read_file under opt's limits: a malloc'd NUL-terminated text, or NULL after
 * reporting. */
char *fe_import_read(const char *path, const Options *opt, size_t *len, Diag *d);

/* The base name of a path without its folder and its last extension, in arena a. */
const char *fe_base_name(Arena *a, const char *path);

/* Gives g the abstract model: platform_ref "abstract", or an inline platform when
 * opt->dsps asks for another DSP count than the preset's 4.  0, or -1 after reporting. */
int fe_import_platform(Graph *g, const Options *opt, const Loc *loc, Diag *d);

#endif /* TGC_FRONTEND_IMPORT_H */
