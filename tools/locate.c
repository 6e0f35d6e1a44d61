/*
 * tools/locate.c - where this tgc's libmpirio, its transports and micro-benchmarks are
 * (locate.h).  The build tree's tgc reads tgc.paths beside itself (written by
 * tools/CMakeLists.txt: one "key=value" line each); an installed tgc has none and looks
 * relative to its own folder, TGC_INSTALL_LIBDIR, TGC_INSTALL_INCDIR and
 * TGC_INSTALL_LIBEXECDIR being paths relative to bin/ (or absolute when the install
 * directories are).  No build path is compiled into the program.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "locate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir.h"
#include "output.h"

#ifndef TGC_INSTALL_INCDIR
#define TGC_INSTALL_INCDIR "../include"
#endif
#ifndef TGC_INSTALL_LIBDIR
#define TGC_INSTALL_LIBDIR "../lib"
#endif
#ifndef TGC_INSTALL_LIBEXECDIR
#define TGC_INSTALL_LIBEXECDIR "../libexec/tgc"
#endif

/* REL relative to DIR (absolute REL as it is), made canonical when it exists */
static char *
beside(const char *dir, const char *rel)
{
    char *p = rel[0] == '/' || !dir ? ir_xstrdup(rel) : out_path_join(dir, rel);
    char *canon = realpath(p, NULL); /* bin/../lib -> lib */
    if (canon) {
        free(p);
        return canon;
    }
    return p;
}

/* FILE in DIR if it exists, else "" */
static char *
existing(const char *dir, const char *file)
{
    char *p = out_path_join(dir, file);
    if (access(p, R_OK) == 0)
        return p;
    free(p);
    return ir_xstrdup("");
}

static bool
read_paths(const char *file, TgcPaths *p)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = 0;
        const char *v = eq + 1;
        char **slot = strcmp(line, "mpirio_incdir") == 0   ? &p->incdir
                      : strcmp(line, "mpirio_lib") == 0    ? &p->lib
                      : strcmp(line, "openmpi_lib") == 0   ? &p->openmpi_lib
                      : strcmp(line, "mpich_lib") == 0     ? &p->mpich_lib
                      : strcmp(line, "threads_lib") == 0   ? &p->threads_lib
                      : strcmp(line, "calib_openmpi") == 0 ? &p->calib_openmpi
                      : strcmp(line, "calib_mpich") == 0   ? &p->calib_mpich
                      : strcmp(line, "calib_threads") == 0 ? &p->calib_threads
                                                           : NULL;
        if (slot) {
            free(*slot);
            *slot = ir_xstrdup(v);
        }
    }
    fclose(f);
    return p->incdir && p->lib && access(p->lib, R_OK) == 0;
}

const TgcPaths *
tgc_paths(void)
{
    static TgcPaths p;
    static bool done;
    if (done)
        return &p;
    done = true;
    char *exe = realpath("/proc/self/exe", NULL);
    char *slash = exe ? strrchr(exe, '/') : NULL;
    if (slash)
        *slash = 0;
    const char *bindir =
        slash ? exe : NULL; /* no /proc: relative to the current folder */
    char *file = bindir ? out_path_join(bindir, "tgc.paths") : NULL;
    if (file && read_paths(file, &p)) {
        p.in_tree = true;
    } else {
        free(p.incdir), free(p.lib), free(p.openmpi_lib), free(p.mpich_lib);
        free(p.threads_lib), free(p.calib_openmpi), free(p.calib_mpich);
        free(p.calib_threads);
        memset(&p, 0, sizeof p);
        p.incdir = beside(bindir, TGC_INSTALL_INCDIR);
        p.libdir = beside(bindir, TGC_INSTALL_LIBDIR);
        p.openmpi_lib = existing(p.libdir, "libmpirio_openmpi.a");
        p.mpich_lib = existing(p.libdir, "libmpirio_mpich.a");
        p.threads_lib = existing(p.libdir, "libmpirio_threads.a");
        char *libexec = beside(bindir, TGC_INSTALL_LIBEXECDIR);
        p.calib_openmpi = existing(libexec, "tgc-calib-openmpi");
        p.calib_mpich = existing(libexec, "tgc-calib-mpich");
        p.calib_threads = existing(libexec, "tgc-calib-threads");
        free(libexec);
    }
    if (!p.openmpi_lib)
        p.openmpi_lib = ir_xstrdup("");
    if (!p.mpich_lib)
        p.mpich_lib = ir_xstrdup("");
    if (!p.threads_lib)
        p.threads_lib = ir_xstrdup("");
    if (!p.calib_openmpi)
        p.calib_openmpi = ir_xstrdup("");
    if (!p.calib_mpich)
        p.calib_mpich = ir_xstrdup("");
    if (!p.calib_threads)
        p.calib_threads = ir_xstrdup("");
    free(file);
    free(exe);
    return &p;
}
