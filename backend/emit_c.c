/*
 * backend/emit_c.c - the generated C project of a schedule (docs/design.md sections 3 and
 * 6, docs/kernels.md).
 *
 * Requires: a schedule that ir_sched_verify accepts and the evaluator runs without
 * deadlock (either platform model: the runtime simulates both).  Invalidates nothing.
 *
 * The project: one dspK.c per DSP (the operation sequence of the DSP inside the iteration
 * loop, one statement per operation, with the prolog of the pipelined receives), main.c
 * (the parallel program: MPIRIO_Run of the DSP functions), seq.c (the sequential
 * reference: the tasks in a topological order), tasks.c (the kernel of each task and the
 * tables), tgc_graph.h (the constants), the fixed support files of backend/support, the
 * user's kernels (the bytes fe_check read: the source as user_kernels.c, compiled through
 * kernels.c with every kernel renamed tgc_kernel_NAME, the header under its base name),
 * platform.json (the resolved platform, every parameter explicit, through jansson),
 * CMakeLists.txt and README.md.  No file name of the user's reaches C or CMake.
 *
 * Invariants: every identifier comes from the sanitiser (backend/sanitize.c) or from an
 * index; every string of the input is escaped; the output depends only on the schedule,
 * the graph and the platform (never on the output directory, the time or the machine).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"

/* backend/support, embedded by support/embed.cmake */
extern const unsigned char cg_support_tgc_kernel_h[], cg_support_tgc_support_h[],
    cg_support_tgc_support_c[];
extern const size_t cg_support_tgc_kernel_h_len, cg_support_tgc_support_h_len,
    cg_support_tgc_support_c_len;

/* n lists of indices in CSR form: list i is idx[off[i] .. off[i + 1]). */
typedef struct IdxLists {
    int *off, *idx;
} IdxLists;

/* Pairs (list, index) to be grouped by list; kept in the order they are added. */
typedef struct IdxPairs {
    int *list, *index;
    int n, cap;
} IdxPairs;

static void
pair_add(IdxPairs *p, int list, int index)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->list = realloc(p->list, (size_t)p->cap * sizeof *p->list);
        p->index = realloc(p->index, (size_t)p->cap * sizeof *p->index);
        if (!p->list || !p->index)
            ice("out of memory");
    }
    p->list[p->n] = list;
    p->index[p->n++] = index;
}

/* The n lists of the pairs (a stable counting sort: each list keeps the pairs' order);
 * frees the pairs. */
static void
idx_build(IdxLists *l, int n, IdxPairs *p)
{
    l->off = ir_xcalloc((size_t)n + 1, sizeof *l->off);
    l->idx = ir_xcalloc((size_t)p->n + 1, sizeof *l->idx);
    for (int i = 0; i < p->n; i++)
        l->off[p->list[i] + 1]++;
    for (int i = 0; i < n; i++)
        l->off[i + 1] += l->off[i];
    int *fill = ir_xcalloc((size_t)n + 1, sizeof *fill);
    memcpy(fill, l->off, (size_t)n * sizeof *fill);
    for (int i = 0; i < p->n; i++)
        l->idx[fill[p->list[i]]++] = p->index[i];
    free(fill);
    free(p->list);
    free(p->index);
    *p = (IdxPairs){0};
}

static void
idx_free(IdxLists *l)
{
    free(l->off);
    free(l->idx);
}

typedef struct Em {
    const Sched *s;
    const Graph *g;
    const Platform *p;
    const EvalResult *r;
    Diag *d;
    Loc loc;
    CgNames *names;
    const char **tid; /* [ntasks] sanitised name of each task: t_... */
    char **tcom;      /* [ntasks] the id as a comment shows it, quoted */
    bool *pipe; /* [nmsgs] the receive is double-buffered (pipelined and not eager) */
    bool
        *fired; /* [ntasks] a firing of a multi-rate actor: TgcPorts, tgc_compute_ports */
    /* Lists that keep emission linear in the size of the schedule, each in ascending
     * order: the edges and the messages each DSP writes or reads, and the single-edge
     * messages that send an output of each task in place. */
    IdxLists dsp_edges, dsp_msgs, task_zc;
    int *kfirst; /* the first task calling each kernel, in task order */
    int nkfirst;
    int target; /* CG_TARGET_ */
    CgProject *out;
} Em;

/* The copy of the graph's kernel source: not a translation unit of its own, kernels.c
 * includes it with the kernels renamed.  The header keeps its base name (the source
 * includes it by that name); fe_check makes it end in ".h". */
#define USER_SOURCE "user_kernels.c"

static void
add_file(Em *em, const char *name, char *data, size_t len)
{
    CgProject *o = em->out;
    o->files = realloc(o->files, (size_t)(o->nfiles + 1) * sizeof *o->files);
    if (!o->files)
        ice("out of memory");
    char *nm = strdup(name);
    if (!nm)
        ice("out of memory");
    size_t n = strlen(nm);
    bool unit = n > 2 && strcmp(nm + n - 2, ".c") == 0 && strcmp(nm, USER_SOURCE) != 0;
    o->files[o->nfiles++] = (CgFile){nm, data, len, unit};
}

static void
add_buf(Em *em, const char *name, Buf *b)
{
    if (!b->s)
        buf_printf(b, "%s", "");
    add_file(em, name, b->s, b->n);
    *b = (Buf){0};
}

static void
add_bytes(Em *em, const char *name, const unsigned char *data, size_t len)
{
    char *c = ir_xcalloc(len + 1, 1);
    memcpy(c, data, len);
    add_file(em, name, c, len);
}

/* Appends the comment-safe form of s (without quotes). */
static void
put_comment(Buf *b, const char *s)
{
    char *c = cg_c_comment(s);
    buf_printf(b, "%s", c);
    free(c);
}

/* The first line of a generated C file: the comment WHAT "NAME"TAIL (generated by tgc
 * VERSION; do not edit), NAME the graph's name. */
static void
put_head(Buf *b, const Graph *g, const char *what, const char *tail)
{
    buf_printf(b, "/* %s\"", what);
    put_comment(b, g->name ? g->name : "");
    buf_printf(b, "\"%s (generated by tgc %s; do not edit) */\n", tail, TGC_VERSION);
}

static void
put_string(Buf *b, const char *s)
{
    char *c = cg_c_string(s);
    buf_printf(b, "%s", c);
    free(c);
}

static const char *
base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int64_t
ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* "edge 3 \"a\" -> \"b\"" for comments */
static void
put_edge(Buf *b, const Em *em, int e)
{
    const Edge *x = &em->g->edges[e];
    buf_printf(b, "edge %d %s -> %s", e, em->tcom[x->from], em->tcom[x->to]);
}

/* ---- checks
 * ---------------------------------------------------------------------------- */

static int
check_input(Em *em)
{
    const Graph *g = em->g;
    int bad = 0;
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].bytes > IR_MAX_BYTES) {
            diag_error(em->d, &em->loc,
                       "edge %d of %" PRId64 " bytes is too large for MPIRIO", e,
                       g->edges[e].bytes);
            bad++;
        }
    for (int m = 0; m < em->s->nmsgs; m++)
        if (em->s->msgs[m].bytes > IR_MAX_BYTES) {
            diag_error(em->d, &em->loc,
                       "message m%d of %" PRId64 " bytes is too large for MPIRIO", m,
                       em->s->msgs[m].bytes);
            bad++;
        }
    /* What fe_check refuses with a pointer; repeated here because the generated code
       depends on it, whatever built the graph. */
    for (int t = 0; t < g->ntasks; t++) {
        const Task *k = &g->tasks[t];
        if (!k->kernel)
            continue;
        const char *why = ir_kernel_name_problem(k->kernel);
        if (why || !g->kernels_source) {
            diag_error(em->d, &em->loc, "task \"%s\": kernel \"%s\" %s", k->id, k->kernel,
                       why ? why : "needs the graph's kernel source");
            bad++;
        }
    }
    return bad ? -1 : 0;
}

/* ---- fixed and descriptive files
 * ------------------------------------------------------- */

static void
emit_platform(Em *em)
{
    char *text = cg_platform_json_explicit(em->p); /* jansson: any name is escaped */
    add_file(em, "platform.json", text, strlen(text));
}

static void
emit_cmake(Em *em)
{
    Buf b = {0};
    buf_printf(
        &b,
        "# Builds the parallel program and its sequential reference against libmpirio "
        "(generated by tgc %s).\n"
        "#   cmake -S . -B build && cmake --build build        installed libmpirio "
        "(pkg-config mpirio)\n"
        "#   cmake -S . -B build -DTGC_SOURCE_DIR=/path/to/tgc   libmpirio built from "
        "a tgc source tree\n"
        "cmake_minimum_required(VERSION 3.18)\n"
        "project(tgc_program LANGUAGES C)\n"
        "set(CMAKE_C_STANDARD 11)\n"
        "set(CMAKE_C_STANDARD_REQUIRED ON)\n"
        "set(TGC_SOURCE_DIR \"\" CACHE PATH \"tgc source tree to build libmpirio "
        "from (empty: the installed one)\")\n"
        "set(TGC_TARGET \"%s\" CACHE STRING \"where the parallel program runs: sim (the "
        "simulated platform), openmpi or mpich (real MPI, under that library's mpirun "
        "-np %d; docs/cluster.md of tgc), threads (one thread per DSP on this host, "
        "the sequential reference too; docs/threads.md of tgc)\")\n"
        "set(TGC_THREADS OFF)\n"
        "if(TGC_TARGET STREQUAL \"sim\")\n"
        "  set(TGC_PAR_LIB \"\")\n"
        "elseif(TGC_TARGET STREQUAL \"openmpi\" OR TGC_TARGET STREQUAL \"mpich\" OR "
        "TGC_TARGET STREQUAL \"threads\")\n"
        "  set(TGC_PAR_LIB mpirio_${TGC_TARGET})\n"
        "  if(TGC_TARGET STREQUAL \"threads\")\n"
        "    set(TGC_THREADS ON)\n"
        "  endif()\n"
        "else()\n"
        "  message(FATAL_ERROR \"TGC_TARGET: expected sim, openmpi, mpich or threads\")\n"
        "endif()\n"
        "find_package(PkgConfig REQUIRED)\n"
        "if(TGC_SOURCE_DIR)\n"
        "  pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)\n"
        "  find_package(Threads REQUIRED)\n"
        "  add_compile_definitions(_POSIX_C_SOURCE=200809L)\n"
        "  add_subdirectory(${TGC_SOURCE_DIR}/runtime mpirio EXCLUDE_FROM_ALL)\n"
        "  set(TGC_MPIRIO mpirio)\n"
        "  if(TGC_PAR_LIB AND NOT TARGET ${TGC_PAR_LIB})\n"
        "    message(FATAL_ERROR \"the tgc tree has no ${TGC_PAR_LIB}: install "
        "lib${TGC_TARGET}-dev (Open MPI: libopenmpi-dev)\")\n"
        "  endif()\n"
        "else()\n"
        "  pkg_check_modules(MPIRIO REQUIRED IMPORTED_TARGET mpirio)\n"
        "  set(TGC_MPIRIO PkgConfig::MPIRIO)\n"
        "  if(TGC_PAR_LIB)\n"
        "    pkg_check_modules(MPIRIO_MPI REQUIRED IMPORTED_TARGET "
        "mpirio-${TGC_TARGET})\n"
        "    set(TGC_PAR_LIB PkgConfig::MPIRIO_MPI)\n"
        "  endif()\n"
        "endif()\n"
        "add_compile_definitions(\"TGC_PLATFORM_FILE=\\\"${CMAKE_CURRENT_SOURCE_DIR}/"
        "platform.json\\\"\")\n"
        "set(tgc_common tgc_support.c tasks.c%s)\n"
        "add_executable(parallel main.c",
        TGC_VERSION,
        em->target == CG_TARGET_OPENMPI   ? "openmpi"
        : em->target == CG_TARGET_MPICH   ? "mpich"
        : em->target == CG_TARGET_THREADS ? "threads"
                                          : "sim",
        em->s->ndsps, em->g->kernels_source ? " kernels.c" : "");
    for (int d = 0; d < em->s->ndsps; d++)
        buf_printf(&b, " dsp%d.c", d);
    buf_printf(&b,
               " ${tgc_common})\n"
               "add_executable(sequential seq.c ${tgc_common})\n"
               "foreach(t parallel sequential)\n"
               "  target_include_directories(${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})\n"
               "endforeach()\n"
               "if(TGC_THREADS) # one process: no collection of the checksums\n"
               "  target_link_libraries(parallel PRIVATE ${TGC_PAR_LIB})\n"
               "  target_link_libraries(sequential PRIVATE ${TGC_PAR_LIB})\n"
               "elseif(TGC_PAR_LIB)\n"
               "  target_link_libraries(sequential PRIVATE ${TGC_MPIRIO})\n"
               "  target_compile_definitions(parallel PRIVATE TGC_MPI)\n"
               "  target_link_libraries(parallel PRIVATE ${TGC_PAR_LIB})\n"
               "else()\n"
               "  target_link_libraries(sequential PRIVATE ${TGC_MPIRIO})\n"
               "  target_link_libraries(parallel PRIVATE ${TGC_MPIRIO})\n"
               "endif()\n");
    add_buf(em, "CMakeLists.txt", &b);
}

static void
emit_readme(Em *em)
{
    const Graph *g = em->g;
    Buf b = {0};
    buf_printf(&b, "# Generated program of graph ");
    put_comment(&b, g->name ? g->name : "");
    buf_printf(&b,
               "\n\nGenerated by tgc %s from `%s`: %d task%s, %d edge%s, %" PRId64
               " iteration%s, %d DSP%s of platform `",
               TGC_VERSION, base_name(g->file ? g->file : "-"), g->ntasks,
               g->ntasks == 1 ? "" : "s", g->nedges, g->nedges == 1 ? "" : "s",
               g->iterations, g->iterations == 1 ? "" : "s", em->s->ndsps,
               em->s->ndsps == 1 ? "" : "s");
    put_comment(&b, em->p->name ? em->p->name : "inline");
    buf_printf(&b, "`, predicted length %" PRId64 " cycles.\n\n", em->r->length);
    buf_printf(
        &b,
        "| file | what |\n|---|---|\n"
        "| `dspK.c` | the operations of DSP K, in order, inside the iteration loop |\n"
        "| `main.c` | the parallel program: runs the DSP functions on the simulated "
        "platform |\n"
        "| `seq.c` | the sequential reference: every task in a topological order per "
        "iteration "
        "|\n"
        "| `tasks.c` | the kernel call of each task, the tables of tasks and edges |\n"
        "| `tgc_graph.h` | the graph's constants |\n"
        "| `tgc_support.c`, `tgc_support.h` | send, receive, compute, checksums, report "
        "|\n"
        "| `tgc_kernel.h` | the kernel interface (`tgc_io`, docs/kernels.md of tgc) |\n"
        "| `platform.json` | the platform, every parameter explicit |\n"
        "| `CMakeLists.txt` | builds `parallel` and `sequential` against libmpirio |\n");
    if (em->g->kernels_source)
        buf_printf(&b,
                   "| `kernels.c` | compiles `" USER_SOURCE "`, a copy of the graph's "
                   "kernel source, with each kernel named `tgc_kernel_NAME` |\n"
                   "| `" USER_SOURCE "`%s | the graph's kernel source%s, copied |\n",
                   em->g->kernels_header ? " and the header" : "",
                   em->g->kernels_header ? " and its header (under its own name)" : "");
    buf_printf(
        &b,
        "\nBuild and run:\n\n"
        "    cmake -S . -B build                 # or -DTGC_SOURCE_DIR=/path/to/tgc\n"
        "    cmake --build build\n"
        "    build/parallel --no-contention      # simulated = predicted cycles\n"
        "    build/sequential\n\n"
        "Both programs take `--no-contention`, `--platform FILE` (default: "
        "platform.json here), `--output-dir DIR` (where tasks write their output "
        "files), `--summary` and `--quiet`; `MPIRIO_TRACE=FILE` writes a Chrome trace. "
        "Both print a `checksum` line per edge (the value the consumer read in the "
        "last iteration, and a hash over all iterations); the two programs must print "
        "the same lines. `tgc run` does all of this in one command.\n");
    add_buf(em, "README.md", &b);
}

/* ---- tgc_graph.h and tasks.c
 * ----------------------------------------------------------- */

static void
emit_graph_h(Em *em)
{
    const Graph *g = em->g;
    int64_t maxb = 1;
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].bytes > maxb)
            maxb = g->edges[e].bytes;
    Buf b = {0};
    put_head(&b, g, "tgc_graph.h - constants of graph ", "");
    buf_printf(
        &b, "#ifndef TGC_GRAPH_H\n#define TGC_GRAPH_H\n\n#include \"tgc_support.h\"\n\n");
    char *once = cg_c_string(g->name ? g->name : "");
    buf_printf(&b, "#define TGC_GRAPH_LABEL ");
    put_string(&b, once);
    free(once);
    buf_printf(&b, "\n#define TGC_ITERATIONS INT64_C(%" PRId64 ")\n", g->iterations);
    buf_printf(&b, "#define TGC_NTASKS %d\n#define TGC_NEDGES %d\n#define TGC_NDSPS %d\n",
               g->ntasks, g->nedges, em->s->ndsps);
    buf_printf(&b, "#define TGC_MAX_BYTES %" PRId64 "\n", maxb);
    int maxd = 0;
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].delay > maxd)
            maxd = g->edges[e].delay;
    buf_printf(&b, "#define TGC_MAX_DELAY %d\n\n", maxd);
    for (int d = 0; d < em->s->ndsps; d++)
        buf_printf(&b, "void tgc_dsp%d(void);\n", d);
    buf_printf(&b, "\n#endif\n");
    add_buf(em, "tgc_graph.h", &b);
}

static const char *
param_type(ParamKind k)
{
    switch (k) {
    case PARAM_INT:
        return "int64_t";
    case PARAM_REAL:
        return "double";
    case PARAM_STRING:
        return "const char *";
    case PARAM_BOOL:
        return "int";
    }
    return "int";
}

static void
put_param_value(Buf *b, const Param *p)
{
    switch (p->kind) {
    case PARAM_INT:
        if (p->i == INT64_MIN)
            buf_printf(b, "(-INT64_C(9223372036854775807) - 1)");
        else
            buf_printf(b, "INT64_C(%" PRId64 ")", p->i);
        return;
    case PARAM_REAL: {
        /* a double constant: "-0" would be the integer 0 and the kernel would receive
           +0.0; "-0.0" is -0.0 (and "1.0" reads as the double it is) */
        char text[40];
        snprintf(text, sizeof text, "%.17g", p->r);
        buf_printf(b, "%s%s", text, strpbrk(text, ".en") ? "" : ".0");
        return;
    }
    case PARAM_STRING:
        put_string(b, p->s ? p->s : "");
        return;
    case PARAM_BOOL:
        buf_printf(b, "%d", p->i ? 1 : 0);
        return;
    }
}

/* "void PREFIXkernel(const tgc_io *, int64_t, ...);" for the parameters of task k. */
static void
put_prototype(Buf *b, const char *prefix, const Task *k)
{
    buf_printf(b, "void %s%s(const tgc_io *", prefix, k->kernel);
    for (int i = 0; i < k->nparams; i++)
        buf_printf(b, ", %s", param_type(k->params[i].kind));
    buf_printf(b, ");\n");
}

/* The prototype of every kernel (from the first task calling it), under a heading. */
static void
put_prototypes(Buf *b, const Em *em, const char *prefix, const char *heading)
{
    if (em->nkfirst)
        buf_printf(b, "\n/* %s */\n", heading);
    for (int i = 0; i < em->nkfirst; i++)
        put_prototype(b, prefix, &em->g->tasks[em->kfirst[i]]);
}

/* kernels.c: the user's kernel source, compiled with every kernel renamed into tgc's
 * namespace (its name defined as tgc_kernel_NAME before the source is included), so
 * that no kernel name can meet an identifier of the generated code or a symbol of the
 * libraries the programs link; the prototypes after it make a kernel defined with other
 * parameters a compile error. */
static void
emit_kernels_c(Em *em)
{
    const Graph *g = em->g;
    Buf b = {0};
    put_head(&b, g, "kernels.c - the kernel source of graph ",
             " (" USER_SOURCE ", a copy), each kernel compiled as tgc_kernel_NAME, the "
             "name tasks.c calls it by");
    buf_printf(&b, "#include \"tgc_kernel.h\"\n\n");
    for (int i = 0; i < em->nkfirst; i++) {
        const char *k = g->tasks[em->kfirst[i]].kernel;
        buf_printf(&b, "#define %s tgc_kernel_%s\n", k, k);
    }
    buf_printf(&b, "\n#include \"" USER_SOURCE "\"\n");
    put_prototypes(&b, em, "", "the kernels as tasks.c calls them");
    add_buf(em, "kernels.c", &b);
}

static void
emit_tasks_c(Em *em)
{
    const Graph *g = em->g;
    Buf b = {0};
    put_head(&b, g, "tasks.c - the kernel of every task of graph ",
             " and the tables of tasks and edges");
    buf_printf(&b, "#include \"tgc_graph.h\"\n");
    put_prototypes(&b, em, "tgc_kernel_", "the kernels, as kernels.c names them");
    for (int t = 0; t < g->ntasks; t++) {
        const Task *k = &g->tasks[t];
        buf_printf(&b, "\n/* task %d %s: ", t, em->tcom[t]);
        if (k->kernel) {
            buf_printf(&b, "kernel %s", k->kernel);
            for (int i = 0; i < k->nparams; i++) {
                buf_printf(&b, "%s", i ? ", " : " (");
                put_comment(&b, k->params[i].name ? k->params[i].name : "");
                buf_printf(&b, "%s", i + 1 == k->nparams ? ")" : "");
            }
        } else {
            buf_printf(&b, "the built-in synthetic kernel");
        }
        buf_printf(&b, " */\nstatic void\nk_%s(const tgc_io *io)\n{\n", em->tid[t]);
        if (k->kernel) {
            buf_printf(&b, "    tgc_kernel_%s(io", k->kernel);
            for (int i = 0; i < k->nparams; i++) {
                buf_printf(&b, ", ");
                put_param_value(&b, &k->params[i]);
            }
            buf_printf(&b, ");\n}\n");
        } else {
            buf_printf(&b, "    tgc_synthetic(io, UINT64_C(%d));\n}\n", t);
        }
    }
    buf_printf(&b, "\nconst TgcTaskInfo tgc_tasks[] = {\n");
    for (int t = 0; t < g->ntasks; t++) {
        buf_printf(&b, "    {");
        char *once = cg_c_string(g->tasks[t].id);
        put_string(&b, once);
        free(once);
        buf_printf(&b, ", k_%s, ", em->tid[t]);
        if (g->tasks[t].output)
            put_string(&b, g->tasks[t].output);
        else
            buf_printf(&b, "NULL");
        buf_printf(&b, "}, /* task %d */\n", t);
    }
    buf_printf(&b, "    {NULL, NULL, NULL},\n};\n\nconst TgcEdgeInfo tgc_edges[] = {\n");
    for (int e = 0; e < g->nedges; e++) {
        const Edge *x = &g->edges[e];
        char *f = cg_c_string(g->tasks[x->from].id), *t = cg_c_string(g->tasks[x->to].id);
        char *label = malloc(strlen(f) + strlen(t) + 8);
        if (!label)
            ice("out of memory");
        sprintf(label, "%s -> %s", f, t);
        buf_printf(&b, "    {");
        put_string(&b, label);
        buf_printf(&b, ", %" PRId64 ", %d}, /* edge %d */\n", x->bytes, x->delay, e);
        free(f);
        free(t);
        free(label);
    }
    buf_printf(&b, "    {NULL, 0, 0},\n};\n");
    add_buf(em, "tasks.c", &b);
}

/* ---- DSP files and the sequential program
 * ---------------------------------------------- */

/* The buffer of edge e in the file being written: slots and delay for its readers. */
static void
emit_edge_buf(Buf *b, const Em *em, int e, int nslots, int delay, const char *what)
{
    int64_t bytes = em->g->edges[e].bytes;
    int64_t total = bytes * nslots;
    buf_printf(b, "static unsigned char b_e%d[%" PRId64 "]; /* ", e,
               total > 0 ? total : 1);
    put_edge(b, em, e);
    buf_printf(b, ": %s, %d slot%s of %" PRId64 " bytes */\n", what, nslots,
               nslots == 1 ? "" : "s", bytes);
    buf_printf(b, "static TgcBuf e%d = {b_e%d, %" PRId64 ", %d, %d};\n", e, e, bytes,
               nslots, delay);
}

/* The ports of one side of task t (docs/kernels.md), when its edges have them
 * (g->ports: an expanded graph): the port and byte offset of each edge of that side, in
 * the order of the task's edges, and a buffer per port.  Returns the number of ports, 0
 * when every edge is a port of its own (nothing written). */
static int
emit_ports(Buf *b, const Em *em, int t, bool in)
{
    const Graph *g = em->g;
    if (!g->ports)
        return 0;
    const int *off = in ? g->pred_off : g->succ_off, *idx = in ? g->pred : g->succ;
    int k = off[t + 1] - off[t], nports = 0;
    if (k == 0)
        return 0;
    for (int j = 0; j < k; j++) {
        const EdgePort *p = &g->ports[idx[off[t] + j]];
        int port = in ? p->to_port : p->from_port;
        if (port < 0)
            return 0; /* fe_check: every edge of the side has a port, or none */
        nports = port + 1 > nports ? port + 1 : nports;
    }
    int64_t *size = ir_xcalloc((size_t)nports, sizeof *size);
    const char *n = em->tid[t], *x = in ? "ip" : "op";
    buf_printf(b, "static const int %sx_%s[] = {", x, n); /* the port of each edge */
    for (int j = 0; j < k; j++) {
        int e = idx[off[t] + j];
        const EdgePort *p = &g->ports[e];
        int port = in ? p->to_port : p->from_port;
        int64_t o = in ? p->to_off : p->from_off;
        if (o + g->edges[e].bytes > size[port])
            size[port] = o + g->edges[e].bytes;
        buf_printf(b, "%s%d", j ? ", " : "", port);
    }
    buf_printf(b, "};\nstatic const size_t %so_%s[] = {", x, n); /* and its offset */
    for (int j = 0; j < k; j++) {
        const EdgePort *p = &g->ports[idx[off[t] + j]];
        buf_printf(b, "%s%" PRId64, j ? ", " : "", in ? p->to_off : p->from_off);
    }
    buf_printf(b, "};\n");
    for (int q = 0; q < nports; q++)
        buf_printf(b, "static unsigned char %s%d_%s[%" PRId64 "];\n", x, q, n,
                   size[q] > 0 ? size[q] : 1);
    buf_printf(b, "static unsigned char *const %s_%s[] = {", x, n);
    for (int q = 0; q < nports; q++)
        buf_printf(b, "%s%s%d_%s", q ? ", " : "", x, q, n);
    buf_printf(b, "};\nstatic const size_t %sn_%s[] = {", x, n);
    for (int q = 0; q < nports; q++)
        buf_printf(b, "%s%" PRId64, q ? ", " : "", size[q]);
    buf_printf(b, "}; /* the %s ports: the tokens of a firing */\n",
               in ? "input" : "output");
    free(size);
    return nports;
}

/* The descriptor of task t: inputs and outputs are the TgcBuf e<edge> of the file. */
static void
emit_task(Buf *b, const Em *em, int t, int dsp, int64_t cycles, const int *zc, int nzc)
{
    const Graph *g = em->g;
    const char *n = em->tid[t];
    int nin = g->pred_off[t + 1] - g->pred_off[t],
        nout = g->succ_off[t + 1] - g->succ_off[t];
    /* in graph order (the edge index order), as docs/kernels.md says: the CSR lists of
       ir_graph_index keep it */
    const int *in = g->pred + g->pred_off[t], *out = g->succ + g->succ_off[t];
    buf_printf(b, "\n/* task %d %s: %d input%s, %d output%s, %" PRId64 " cycles */\n", t,
               em->tcom[t], nin, nin == 1 ? "" : "s", nout, nout == 1 ? "" : "s", cycles);
    if (nin) {
        buf_printf(b, "static const int inx_%s[] = {", n);
        for (int j = 0; j < nin; j++)
            buf_printf(b, "%s%d", j ? ", " : "", in[j]);
        buf_printf(b, "};\nstatic TgcBuf *const in_%s[] = {", n);
        for (int j = 0; j < nin; j++)
            buf_printf(b, "%s&e%d", j ? ", " : "", in[j]);
        buf_printf(b, "};\nstatic const void *inp_%s[%d];\nstatic size_t inb_%s[%d];\n",
                   n, nin, n, nin);
    }
    if (nout) {
        buf_printf(b, "static TgcBuf *const out_%s[] = {", n);
        for (int j = 0; j < nout; j++)
            buf_printf(b, "%s&e%d", j ? ", " : "", out[j]);
        buf_printf(b, "};\nstatic void *outp_%s[%d];\nstatic size_t outb_%s[%d];\n", n,
                   nout, n, nout);
    }
    if (nzc) {
        buf_printf(b, "static TgcMsg *const zc_%s[] = {", n);
        for (int j = 0; j < nzc; j++)
            buf_printf(b, "%s&m%d", j ? ", " : "", zc[j]);
        buf_printf(b,
                   "}; /* sent in place: waited for before the kernel writes again */\n");
    }
    buf_printf(b, "static const TgcTask task_%s = {%d, %d, %" PRId64 ", %d, %d, %d", n, t,
               dsp, cycles, nin, nout, nzc);
    static const char *const fields[] = {"inx_", "in_",  "out_",  "zc_",
                                         "inp_", "inb_", "outp_", "outb_"};
    for (int i = 0; i < 8; i++) {
        int count = i == 2 || i >= 6 ? nout : i == 3 ? nzc : nin;
        if (count)
            buf_printf(b, ", %s%s", fields[i], n);
        else
            buf_printf(b, ", NULL");
    }
    buf_printf(b, "};\n");
    if (!em->fired[t])
        return;
    /* a firing of a multi-rate actor: its firing index and its ports */
    const Firing *f = g->firing ? &g->firing[t] : NULL;
    int nip = emit_ports(b, em, t, true), nop = emit_ports(b, em, t, false);
    buf_printf(b, "static const TgcPorts ports_%s = {%" PRId64 ", %" PRId64 ", %d, %d", n,
               f ? f->index : 0, f ? f->count : 1, nip, nop);
    static const char *const pf[] = {"ipx_", "ipo_", "opx_", "opo_",
                                     "ip_",  "op_",  "ipn_", "opn_"};
    for (int i = 0; i < 8; i++) {
        bool input = i == 0 || i == 1 || i == 4 || i == 6;
        buf_printf(b, (input ? nip : nop) ? ", %s%s" : ", NULL", pf[i], n);
    }
    buf_printf(b, "};\n");
}

/* "tgc_compute(&task_x" or, for a firing with ports, "tgc_compute_ports(&task_x,
 * &ports_x" */
static void
put_compute(Buf *b, const Em *em, int t)
{
    if (em->fired[t])
        buf_printf(b, "tgc_compute_ports(&task_%s, &ports_%s", em->tid[t], em->tid[t]);
    else
        buf_printf(b, "tgc_compute(&task_%s", em->tid[t]);
}

static void
put_msg_summary(Buf *b, const Em *em, int m)
{
    const Msg *x = &em->s->msgs[m];
    for (int j = 0; j < x->nedges; j++) {
        buf_printf(b, "%s", j ? ", " : "");
        put_edge(b, em, x->edges[j]);
    }
}

/* Predicted times of operation k of DSP d in iteration 0, if recorded. */
static void
put_predicted(Buf *b, const Em *em, int d, int k)
{
    const EvalResult *r = em->r;
    if (!r || r->nrec < 1 || !r->rec_iter || r->rec_iter[0] != 0 || !r->op_time)
        return;
    OpTime ot = r->op_time[d][k];
    if (ot.start < 0)
        return;
    buf_printf(b, "; iteration 0: %" PRId64 "-%" PRId64, ot.start, ot.end);
}

static void
emit_dsp(Em *em, int d)
{
    const Sched *s = em->s;
    const Graph *g = em->g;
    const Platform *p = em->p;
    Arena *a = arena_new();
    Buf b = {0};
    char what[64], tail[64];
    snprintf(what, sizeof what, "dsp%d.c - DSP %d of graph ", d, d);
    snprintf(tail, sizeof tail, ": %d operation%s per iteration", s->nops[d],
             s->nops[d] == 1 ? "" : "s");
    put_head(&b, g, what, tail);
    buf_printf(&b, "#include \"tgc_graph.h\"\n");
    /* buffers of the edges this DSP writes or reads */
    bool head = false;
    for (int j = em->dsp_edges.off[d]; j < em->dsp_edges.off[d + 1]; j++) {
        int e = em->dsp_edges.idx[j];
        const Edge *x = &g->edges[e];
        int src = s->map[x->from], dst = s->map[x->to];
        if (src != d && dst != d)
            continue;
        if (!head)
            buf_printf(
                &b, "\n/* edge buffers: slot i %% slots is written in iteration i */\n");
        head = true;
        if (src == d && dst == d) {
            emit_edge_buf(&b, em, e, x->delay + 1, x->delay, "within the DSP");
        } else if (src == d) {
            emit_edge_buf(&b, em, e, 1, 0, "sent");
        } else {
            /* transfer x is received into slot x % slots and read d iterations after it
               was sent (docs/design.md section 3 as passes/evaluate/ implements it) */
            int m = s->edge_msg[e];
            bool inplace = em->pipe[m] && s->msgs[m].nedges == 1;
            int slots = inplace ? (x->delay + 1 > 2 ? x->delay + 1 : 2)
                                : (x->delay > 1 ? x->delay : 1);
            emit_edge_buf(&b, em, e, slots, x->delay,
                          inplace ? "received in place, pipelined" : "received");
        }
    }
    /* messages */
    head = false;
    for (int q = em->dsp_msgs.off[d]; q < em->dsp_msgs.off[d + 1]; q++) {
        int m = em->dsp_msgs.idx[q];
        const Msg *x = &s->msgs[m];
        if (!head)
            buf_printf(&b, "\n/* messages: the tag is the message index */\n");
        head = true;
        bool send = x->src == d, agg = x->nedges > 1;
        bool pipe = !send && em->pipe[m];
        buf_printf(&b, "static TgcBuf *const m%d_parts[] = {", m);
        for (int j = 0; j < x->nedges; j++)
            buf_printf(&b, "%s&e%d", j ? ", " : "", x->edges[j]);
        buf_printf(&b, "};\n");
        if (agg)
            buf_printf(&b, "static unsigned char m%d_pack[%" PRId64 "];\n", m,
                       (x->bytes > 0 ? x->bytes : 1) * (pipe ? 2 : 1));
        buf_printf(&b,
                   "static TgcMsg m%d = {%d, %d, %d, %d, %d, %" PRId64 ", %" PRId64
                   ", m%d_parts, %s%s, MPIRIO_REQUEST_NULL};\n",
                   m, m, send ? x->dst : x->src, x->delay, pipe ? 1 : 0, x->nedges,
                   x->bytes, agg ? ceil_div(x->bytes, p->copy_bytes_per_cycle) : 0, m,
                   agg ? "m" : "NULL", agg ? arena_printf(a, "%d_pack", m) : "");
        buf_printf(&b, "/* m%d: %s DSP %d, %" PRId64 " bytes%s%s%s: ", m,
                   send ? "send to" : "receive from", send ? x->dst : x->src, x->bytes,
                   agg ? ", aggregated" : "", pipe ? ", pipelined" : "",
                   x->delay ? arena_printf(a, ", delay %d", x->delay) : "");
        put_msg_summary(&b, em, m);
        buf_printf(&b, " */\n");
    }
    /* tasks */
    for (int k = 0; k < s->nops[d]; k++) {
        Op o = s->ops[d][k];
        if (o.kind != OP_COMPUTE)
            continue;
        const IdxLists *zc = &em->task_zc;
        emit_task(&b, em, o.ref, d, ir_task_cycles(&g->tasks[o.ref], d),
                  zc->idx + zc->off[o.ref], zc->off[o.ref + 1] - zc->off[o.ref]);
    }
    /* the function */
    buf_printf(&b, "\nvoid\ntgc_dsp%d(void)\n{\n", d);
    for (int k = 0; k < s->nops[d]; k++) {
        Op o = s->ops[d][k];
        if (o.kind == OP_RECV && em->pipe[o.ref] && s->msgs[o.ref].delay < g->iterations)
            buf_printf(&b,
                       "    tgc_post_first(&m%d); /* prolog: slot %d receives m%d "
                       "pipelined */\n",
                       o.ref, k, o.ref);
    }
    buf_printf(&b, "    for (int64_t it = 0; it < TGC_ITERATIONS; it++) {\n");
    for (int k = 0; k < s->nops[d]; k++) {
        Op o = s->ops[d][k];
        switch (o.kind) {
        case OP_COMPUTE:
            buf_printf(&b, "        ");
            put_compute(&b, em, o.ref);
            buf_printf(&b, ", it); /* slot %d: COMPUTE %s (task %d)", k, em->tcom[o.ref],
                       o.ref);
            break;
        case OP_SEND:
            buf_printf(&b, "        tgc_send(&m%d, it); /* slot %d: SEND m%d to DSP %d",
                       o.ref, k, o.ref, s->msgs[o.ref].dst);
            break;
        case OP_RECV:
            buf_printf(&b,
                       "        tgc_recv(&m%d, it); /* slot %d: RECV m%d from DSP %d%s",
                       o.ref, k, o.ref, s->msgs[o.ref].src,
                       em->pipe[o.ref] ? ", pipelined" : "");
            break;
        }
        put_predicted(&b, em, d, k);
        buf_printf(&b, " */\n");
    }
    if (s->nops[d] > 0)
        buf_printf(&b, "        tgc_iteration_end(%d, it);\n", d);
    buf_printf(&b, "    }\n    tgc_dsp_end(%d);\n", d);
    for (int j = em->dsp_msgs.off[d]; j < em->dsp_msgs.off[d + 1]; j++)
        if (s->msgs[em->dsp_msgs.idx[j]].src == d)
            buf_printf(&b, "    tgc_wait_send(&m%d); /* the last transfer */\n",
                       em->dsp_msgs.idx[j]);
    buf_printf(&b, "}\n");
    char name[32];
    snprintf(name, sizeof name, "dsp%d.c", d);
    add_buf(em, name, &b);
    arena_free(a);
}

static void
emit_main(Em *em)
{
    const Sched *s = em->s;
    const Graph *g = em->g;
    int64_t packets = 0;
    for (int m = 0; m < s->nmsgs; m++)
        if (s->msgs[m].delay < g->iterations)
            packets += plat_packets(em->p, s->msgs[m].bytes) *
                       (g->iterations - s->msgs[m].delay);
    Buf b = {0};
    char tail[32];
    snprintf(tail, sizeof tail, " on %d DSPs", s->ndsps);
    put_head(&b, g, "main.c - the parallel program of graph ", tail);
    buf_printf(&b, "#include \"tgc_graph.h\"\n\n");
    buf_printf(
        &b, "#define TGC_PREDICTED_CYCLES %" PRId64 "LL /* the compiler's evaluator */\n",
        em->r->length);
    buf_printf(&b, "#define TGC_PREDICTED_PACKETS %" PRId64 "LL\n\n", packets);
    buf_printf(&b, "static void (*const dsp_fn[TGC_NDSPS])(void) = {");
    for (int d = 0; d < s->ndsps; d++)
        buf_printf(&b, "%stgc_dsp%d", d ? ", " : "", d);
    buf_printf(
        &b,
        "};\n\n"
        "static void\ndsp_main(int rank, void *arg)\n{\n    (void)arg;\n"
        "    MPIRIO_Init(NULL, NULL);\n    dsp_fn[rank]();\n    MPIRIO_Finalize();\n}\n\n"
        "int\nmain(int argc, char **argv)\n{\n    TgcArgs a;\n"
        "    int st = tgc_parse_args(&a, argc, argv, \"parallel\");\n"
        "    if (st >= 0)\n        return st;\n"
        "    /* a sent buffer is written again only after the send's Wait (zero copy) "
        "*/\n"
        "    int rc = MPIRIO_Run(TGC_NDSPS, a.platform, a.flags | "
        "MPIRIO_RUN_SEND_IN_PLACE,\n"
        "                        dsp_main, NULL);\n"
        "    return tgc_report(rc, \"parallel\", TGC_NDSPS, TGC_PREDICTED_CYCLES,\n"
        "                      TGC_PREDICTED_PACKETS);\n}\n");
    add_buf(em, "main.c", &b);
}

static void
emit_seq(Em *em)
{
    const Graph *g = em->g;
    Buf b = {0};
    put_head(&b, g, "seq.c - the sequential reference of graph ",
             ": every task once per iteration in a topological order, on one DSP");
    buf_printf(&b, "#include \"tgc_graph.h\"\n");
    if (g->nedges)
        buf_printf(&b, "\n/* edge buffers: a ring of delay + 1 slots each */\n");
    for (int e = 0; e < g->nedges; e++)
        emit_edge_buf(&b, em, e, g->edges[e].delay + 1, g->edges[e].delay, "ring");
    for (int j = 0; j < g->ntasks; j++)
        emit_task(&b, em, g->topo[j], 0, ir_task_cycles(&g->tasks[g->topo[j]], 0), NULL,
                  0);
    buf_printf(&b, "\nstatic void\nsequential(int rank, void *arg)\n{\n    (void)rank;\n"
                   "    (void)arg;\n    MPIRIO_Init(NULL, NULL);\n"
                   "    for (int64_t it = 0; it < TGC_ITERATIONS; it++) {\n");
    for (int j = 0; j < g->ntasks; j++) {
        buf_printf(&b, "        ");
        put_compute(&b, em, g->topo[j]);
        buf_printf(&b, ", it); /* task %d %s */\n", g->topo[j], em->tcom[g->topo[j]]);
    }
    buf_printf(&b, "    }\n    tgc_dsp_end(0);\n    MPIRIO_Finalize();\n}\n\n"
                   "int\nmain(int argc, char **argv)\n{\n    TgcArgs a;\n"
                   "    int st = tgc_parse_args(&a, argc, argv, \"sequential\");\n"
                   "    if (st >= 0)\n        return st;\n"
                   "    int rc = MPIRIO_Run(1, a.platform, a.flags, sequential, NULL);\n"
                   "    return tgc_report(rc, \"sequential\", 1, -1, -1);\n}\n");
    add_buf(em, "seq.c", &b);
}

/* ---- kernels
 * --------------------------------------------------------------------------- */

/* The kernel files as fe_check read them: the source as USER_SOURCE, the header under
 * its base name. */
static int
copy_kernels(Em *em)
{
    const Graph *g = em->g;
    if (!g->kernels_source)
        return 0;
    if (!g->kernels_source_text || (g->kernels_header && !g->kernels_header_text))
        ice("the kernel files of graph \"%s\" were not read (Options.read_kernels)",
            g->name ? g->name : "");
    add_bytes(em, USER_SOURCE, (const unsigned char *)g->kernels_source_text,
              g->kernels_source_len);
    if (g->kernels_header) {
        const char *bn = base_name(g->kernels_header);
        size_t n = strlen(bn);
        if (n < 3 || strcmp(bn + n - 2, ".h") != 0 || strncmp(bn, "tgc_", 4) == 0) {
            diag_error(em->d, &em->loc,
                       "kernel header \"%s\" must have a name that ends in \".h\" and "
                       "does not begin with \"tgc_\"",
                       g->kernels_header);
            return -1;
        }
        add_bytes(em, bn, (const unsigned char *)g->kernels_header_text,
                  g->kernels_header_len);
    }
    return 0;
}

/* ---- entry points
 * ---------------------------------------------------------------------- */

int
cg_emit_c(const Sched *s, const EvalResult *predicted, CgProject *out, Diag *d)
{
    return cg_emit_c_for(s, predicted, CG_TARGET_SIM, out, d);
}

int
cg_emit_c_for(const Sched *s, const EvalResult *predicted, int target, CgProject *out,
              Diag *d)
{
    memset(out, 0, sizeof *out);
    Em em = {.s = s,
             .g = s->g,
             .p = s->p,
             .r = predicted,
             .d = d,
             .target = target,
             .out = out};
    em.loc = (Loc){.file = s->g->file};
    out->ndsps = s->ndsps;
    if (check_input(&em) != 0)
        return -1;
    if (!s->g->topo || !s->g->pred_off) {
        diag_error(d, &em.loc,
                   "the graph is not indexed or its zero-delay edges form a cycle");
        return -1;
    }
    if (!predicted || predicted->length < 0) {
        diag_error(d, &em.loc, "the schedule deadlocks; nothing to emit");
        return -1;
    }
    const Graph *g = s->g;
    em.names = cg_names_new();
    em.tid = ir_xcalloc((size_t)g->ntasks, sizeof *em.tid);
    em.tcom = ir_xcalloc((size_t)g->ntasks, sizeof *em.tcom);
    for (int t = 0; t < g->ntasks; t++) {
        em.tid[t] = cg_names_add(em.names, "t_", g->tasks[t].id);
        Buf c = {0};
        buf_printf(&c, "\"");
        put_comment(&c, g->tasks[t].id);
        buf_printf(&c, "\"");
        em.tcom[t] = c.s;
    }
    em.fired = ir_xcalloc((size_t)g->ntasks + 1, sizeof *em.fired);
    for (int t = 0; t < g->ntasks; t++)
        em.fired[t] = g->firing && g->firing[t].count > 1;
    for (int e = 0; g->ports && e < g->nedges; e++) {
        em.fired[g->edges[e].from] |= g->ports[e].from_port >= 0;
        em.fired[g->edges[e].to] |= g->ports[e].to_port >= 0;
    }
    em.pipe = ir_xcalloc((size_t)s->nmsgs, sizeof *em.pipe);
    for (int m = 0; m < s->nmsgs; m++)
        em.pipe[m] = s->msgs[m].pipelined && s->msgs[m].bytes > s->p->eager_limit;
    IdxPairs pairs = {0};
    for (int e = 0; e < g->nedges; e++) {
        int src = s->map[g->edges[e].from], dst = s->map[g->edges[e].to];
        pair_add(&pairs, src, e);
        if (dst != src)
            pair_add(&pairs, dst, e);
    }
    idx_build(&em.dsp_edges, s->ndsps, &pairs);
    for (int m = 0; m < s->nmsgs; m++) {
        pair_add(&pairs, s->msgs[m].src, m);
        pair_add(&pairs, s->msgs[m].dst, m);
    }
    idx_build(&em.dsp_msgs, s->ndsps, &pairs);
    for (int m = 0; m < s->nmsgs; m++) {
        const Msg *x = &s->msgs[m];
        if (x->nedges == 1 && x->delay < g->iterations)
            pair_add(&pairs, g->edges[x->edges[0]].from, m);
    }
    idx_build(&em.task_zc, g->ntasks, &pairs);
    em.kfirst = ir_xcalloc((size_t)g->ntasks + 1, sizeof *em.kfirst);
    CgNames *seen = cg_names_new();
    for (int t = 0; t < g->ntasks; t++) {
        const char *k = g->tasks[t].kernel;
        if (k && !cg_names_has(seen, k)) {
            cg_names_reserve(seen, k);
            em.kfirst[em.nkfirst++] = t;
        }
    }
    cg_names_free(seen);
    int rc = copy_kernels(&em);
    if (rc == 0) {
        emit_readme(&em);
        emit_cmake(&em);
        emit_platform(&em);
        add_bytes(&em, "tgc_kernel.h", cg_support_tgc_kernel_h,
                  cg_support_tgc_kernel_h_len);
        add_bytes(&em, "tgc_support.h", cg_support_tgc_support_h,
                  cg_support_tgc_support_h_len);
        add_bytes(&em, "tgc_support.c", cg_support_tgc_support_c,
                  cg_support_tgc_support_c_len);
        emit_graph_h(&em);
        if (g->kernels_source)
            emit_kernels_c(&em);
        emit_tasks_c(&em);
        for (int dd = 0; dd < s->ndsps; dd++) {
            ir_progress("compile: emitting the DSP files", dd, s->ndsps);
            emit_dsp(&em, dd);
        }
        emit_main(&em);
        emit_seq(&em);
    }
    for (int t = 0; t < g->ntasks; t++)
        free(em.tcom[t]);
    free(em.tcom);
    free(em.tid);
    free(em.pipe);
    free(em.fired);
    idx_free(&em.dsp_edges);
    idx_free(&em.dsp_msgs);
    idx_free(&em.task_zc);
    free(em.kfirst);
    cg_names_free(em.names);
    if (rc != 0)
        cg_project_free(out);
    return rc;
}

void
cg_project_free(CgProject *p)
{
    for (int i = 0; i < p->nfiles; i++) {
        free((char *)p->files[i].name);
        free(p->files[i].data);
    }
    free(p->files);
    memset(p, 0, sizeof *p);
}
