/* mpirio-run: start an MPIRIO program on N simulated DSPs, as mpirun does.
 *
 *   mpirio-run -n N [--platform P] [--no-contention] [--trace FILE] [--summary]
 *              [--coll switch|mpich] [--faults FRACTION] [--fault-seed S] ./prog [args]
 *
 * Each DSP must see its own copy of the program's globals, as under MPI. mpirio-cc
 * builds the program as a shared object (prog.so beside a small launcher script
 * prog); mpirio-run copies the object to N private files and dlopens each copy
 * RTLD_LOCAL, so every DSP runs the main() of its own copy with its own data and
 * bss. dlmopen would limit a run to 16 namespaces; private copies have no such
 * limit. The copies are in-memory files (memfd_create), or files in $TMPDIR where
 * those are not to be had. The libraries the program links dynamically (libc, libm, ...)
 * are shared by all DSPs, as are the MPIRIO symbols this executable exports.
 *
 * Options by getopt_long (GNU conventions: --opt=value or --opt value, -nN or -n N, "--"
 * ends them, the program and its arguments follow the options); -np N as mpirun's.
 *
 * Exit status (the table of docs/cli.md, the same for tgc and the generated programs): 0;
 * the largest status a DSP's main returned; 1 when the program cannot be loaded or a
 * setting is refused, or when the run lasted longer than MPIEXEC_TIMEOUT seconds of
 * wall-clock time (as mpiexec's limit, which MPICH's test harness sets); 2 for bad
 * usage (one line "mpirio-run: error: ...", then the usage); 3 after a deadlock (the
 * report is on stderr). */
#define _GNU_SOURCE
#include "mpirio.h"
#include "mpirio/mpi.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Under AddressSanitizer (the tgc tree's sanitizer build) the private copies are files
 * (not in-memory files, whose /proc/self/fd paths a symbolizer in another process
 * cannot open), and they stay on disk until the run ends, because the sanitizers read
 * them to name the source lines in a report; they are removed at exit and when a
 * sanitizer ends the run. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MPIRIO_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(MPIRIO_ASAN)
#define MPIRIO_ASAN 1
#endif
#ifdef MPIRIO_ASAN
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#endif

typedef int (*MainFn)(int, char **);

static char copies[4096]; /* the folder of the private copies on disk, if any */
static int ncopies;       /* copies in it */

static void
remove_copies(void)
{
    for (int r = 0; r < ncopies; r++) {
        char copy[4200];
        snprintf(copy, sizeof copy, "%s/dsp%d.so", copies, r);
        unlink(copy);
    }
    ncopies = 0;
    if (copies[0])
        rmdir(copies);
    copies[0] = 0;
}

typedef struct Job {
    int n, argc;
    char **argv;
    char ***argvs; /* per DSP: its own copy of argv, freed by main (a DSP that ends in
                      a deadlock never returns to free it) */
    MainFn *mains;
    int *status;
} Job;

static void
usage_to(FILE *f)
{
    fputs("usage: mpirio-run -n N [--platform P] [--no-contention] [--trace FILE] "
          "[--summary]\n"
          "                  [--coll switch|mpich] [--faults FRACTION] [--fault-seed S] "
          "./prog [args]\n"
          "       mpirio-run --help | --version\n",
          f);
}

/* a usage error: one line, then the usage; exit status 2 */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int
bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mpirio-run: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    usage_to(stderr);
    return 2;
}

/* the whole file in memory; NULL (errno set) if it cannot be read */
static unsigned char *
read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    ssize_t k = 0;
    while (buf && (k = read(fd, buf + n, cap - n)) > 0)
        if ((n += (size_t)k) == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    close(fd);
    if (k < 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static int
write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* DSP r's private copy of the program: an in-memory file (memfd, its descriptor in
 * *fd, to be closed once every copy is loaded: the path of a closed one would be
 * reused, and dlopen would take it for the copy it has already loaded), else a file
 * in the folder copies (made on first use); its path in name; 0 or -1 */
static int
make_copy(const unsigned char *img, size_t len, int r, char *name, size_t namelen,
          int *fd)
{
    *fd = -1;
#if defined(MFD_CLOEXEC) && !defined(MPIRIO_ASAN)
    int m = memfd_create("mpirio-dsp", MFD_CLOEXEC);
    if (m >= 0 && write_all(m, img, len) == 0) {
        snprintf(name, namelen, "/proc/self/fd/%d", m);
        if (access(name, R_OK) == 0) {
            *fd = m;
            return 0;
        }
    }
    if (m >= 0)
        close(m);
#endif
    if (!copies[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(copies, sizeof copies, "%s/mpirio-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(copies)) {
            fprintf(stderr, "mpirio-run: cannot create a directory in %s: %s\n",
                    tmp && *tmp ? tmp : "/tmp", strerror(errno));
            copies[0] = 0;
            return -1;
        }
        atexit(remove_copies);
#ifdef MPIRIO_ASAN
        __sanitizer_set_death_callback(remove_copies);
#endif
    }
    snprintf(name, namelen, "%s/dsp%d.so", copies, r);
    ncopies = r + 1;
    int out = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0700);
    int rc = out >= 0 && write_all(out, img, len) == 0 ? 0 : -1;
    if (out >= 0 && close(out) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "mpirio-run: cannot write %s\n", name);
    return rc;
}

/* What PATH is: 0 a shared object (what mpirio-cc builds), 1 not ELF, 2 an ELF file that
 * is no shared object (an executable: /bin/ls, a launcher's target built by cc), -1 it
 * cannot be opened (errno set). */
static int
elf_kind(const char *path)
{
    Elf64_Ehdr h;
    memset(&h, 0, sizeof h);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t k = fread(&h, 1, sizeof h, f);
    int kind = 1;
    if (k >= 4 && memcmp(h.e_ident, ELFMAG, SELFMAG) == 0) {
        kind = 2;
        if (k == sizeof h && h.e_ident[EI_CLASS] == ELFCLASS64 && h.e_type == ET_DYN) {
            kind = 0; /* a PIE executable is ET_DYN too: it has an interpreter */
            for (int i = 0; i < h.e_phnum && kind == 0; i++) {
                Elf64_Phdr ph;
                if (fseek(f, (long)(h.e_phoff + (Elf64_Off)i * h.e_phentsize),
                          SEEK_SET) ||
                    fread(&ph, sizeof ph, 1, f) != 1)
                    kind = 2;
                else if (ph.p_type == PT_INTERP)
                    kind = 2;
            }
        }
    }
    fclose(f);
    return kind;
}

static void
dsp_main(int rank, void *arg)
{
    Job *j = arg;
    j->status[rank] = j->mains[rank](j->argc, j->argvs[rank]);
    /* MPI implementations fail a job in which a process initialised MPI and ended
     * without MPI_Finalize (one that never called MPI_Init or MPIRIO_Init, as a test
     * that skips itself, may end as it likes) */
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPIRIO_Finalized(&fin);
    if (init && !fin) {
        fflush(stdout);
        fprintf(stderr,
                "mpirio: DSP %d returned from main without calling MPI_Finalize\n", rank);
        if (j->status[rank] == 0)
            j->status[rank] = 1;
    }
}

/* a fault in one DSP (a bad pointer, a division by zero) is reported naming the DSP
 * and its last MPI call; then the signal's previous action (the default: the
 * process ends by the signal, exit status 128 + signal; or a sanitizer's report) */
static const int fault_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static struct sigaction fault_old[4];

static void
on_fault(int sig)
{
    int rank = -1;
    const char *call = NULL;
    MPIRIO_Current(&rank, &call);
    char msg[256];
    const char *what = sig == SIGSEGV  ? "SIGSEGV (segmentation fault)"
                       : sig == SIGBUS ? "SIGBUS (bus error)"
                       : sig == SIGFPE ? "SIGFPE (arithmetic exception)"
                                       : "SIGILL (illegal instruction)";
    int n;
    if (rank >= 0)
        n = snprintf(msg, sizeof msg, "mpirio: DSP %d received signal %s%s%s%s\n", rank,
                     what, call ? " (its last MPI call: " : "", call ? call : "",
                     call ? ")" : "");
    else
        n = snprintf(msg, sizeof msg, "mpirio-run: signal %s outside the DSPs\n", what);
    if (n > 0 && write(2, msg, (size_t)n) < 0)
        n = 0;
    for (int i = 0; i < 4; i++)
        if (fault_sigs[i] == sig)
            sigaction(sig, &fault_old[i], NULL);
    /* returning runs the faulting instruction again, under the previous action */
}

static void
catch_faults(void)
{
    static char altstack[1 << 16]; /* a DSP's stack may be what overflowed */
    stack_t st = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&st, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 4; i++)
        sigaction(fault_sigs[i], &sa, &fault_old[i]);
}

/* MPIEXEC_TIMEOUT, as mpiexec's: the run ends after that many seconds of wall-clock
 * time, exit status 1 */
static char timeout_msg[160];

static void
on_timeout(int sig)
{
    (void)sig;
    ssize_t w = write(2, timeout_msg, strlen(timeout_msg));
    (void)w;
#ifdef MPIRIO_ASAN
    remove_copies();
#endif
    _exit(1);
}

/* 0, or -1 (reported) for a value that is not a number of seconds */
static int
set_timeout(void)
{
    const char *v = getenv("MPIEXEC_TIMEOUT");
    if (!v || !*v)
        return 0;
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < 0 || x > 100000000) {
        fprintf(stderr,
                "mpirio-run: error: MPIEXEC_TIMEOUT wants a number of seconds: \"%s\"\n",
                v);
        return -1;
    }
    if (x == 0) /* no limit, as mpiexec's */
        return 0;
    snprintf(timeout_msg, sizeof timeout_msg,
             "mpirio-run: the run took longer than MPIEXEC_TIMEOUT=%ld seconds: ended\n",
             x);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timeout;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm((unsigned)x);
    return 0;
}

/* each DSP gets its own argv, as each MPI process does; 0 or -1 */
static int
copy_argvs(Job *j)
{
    j->argvs = calloc((size_t)j->n, sizeof *j->argvs);
    if (!j->argvs)
        return -1;
    for (int r = 0; r < j->n; r++) {
        char **a = j->argvs[r] = calloc((size_t)j->argc + 1, sizeof *a);
        if (!a)
            return -1;
        for (int i = 0; i < j->argc; i++)
            if (!(a[i] = strdup(j->argv[i])))
                return -1;
    }
    return 0;
}

static void
free_argvs(Job *j)
{
    for (int r = 0; j->argvs && r < j->n; r++) {
        for (int i = 0; j->argvs[r] && i < j->argc; i++)
            free(j->argvs[r][i]);
        free(j->argvs[r]);
    }
    free(j->argvs);
}

int
main(int argc, char **argv)
{
    int n = 1, i;
    const char *platform = NULL;
    /* -np N as mpirun's: made -n before getopt_long, which would read it as -n p */
    for (i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "-np") == 0)
            argv[i] = "-n";
        else if (strcmp(argv[i], "-n") == 0)
            i++; /* -n N: skip its value */
        else if (strncmp(argv[i], "--", 2) == 0 && !strchr(argv[i], '=') &&
                 (strcmp(argv[i], "--platform") == 0 || strcmp(argv[i], "--trace") == 0 ||
                  strcmp(argv[i], "--coll") == 0 || strcmp(argv[i], "--faults") == 0 ||
                  strcmp(argv[i], "--fault-seed") == 0))
            i++;
    }
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"platform", required_argument, NULL, 'P'},
        {"no-contention", no_argument, NULL, 'C'},
        {"summary", no_argument, NULL, 'S'},
        {"trace", required_argument, NULL, 'T'},
        {"coll", required_argument, NULL, 'L'},
        {"faults", required_argument, NULL, 'F'},
        {"fault-seed", required_argument, NULL, 'E'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    /* "+": the options end at the program, whose own options follow it */
    while ((c = getopt_long(argc, argv, "+:hn:", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage_to(stdout);
            fputs(
                "Runs one copy of a program built by mpirio-cc per simulated DSP; see "
                "mpirio-run(1).\nExit status: the largest status a DSP's main "
                "returned, 1 when the program cannot be loaded, a setting is refused or "
                "the run\nlasted longer than MPIEXEC_TIMEOUT seconds, 2 for bad usage, 3 "
                "after a deadlock (its report on\nstderr).\n",
                stdout);
            return 0;
        case 'V':
            printf("mpirio-run (mpirio) %s\n", MPIRIO_VERSION);
            return 0;
        case 'n': {
            char *end;
            long x = strtol(optarg, &end, 10);
            if (end == optarg || *end || x < 1 || x > 1 << 20)
                return bad_usage("-n wants a number of DSPs, at least 1: \"%s\"", optarg);
            n = (int)x;
            break;
        }
        case 'P':
            platform = optarg;
            break;
        case 'C':
            setenv("MPIRIO_NO_CONTENTION", "1", 1);
            break;
        case 'S':
            setenv("MPIRIO_SUMMARY", "1", 1);
            break;
        case 'T':
            setenv("MPIRIO_TRACE", optarg, 1);
            break;
        case 'L':
            setenv("MPIRIO_COLL", optarg, 1);
            break;
        case 'F':
            setenv("MPIRIO_FAULTS", optarg, 1);
            break;
        case 'E':
            setenv("MPIRIO_FAULT_SEED", optarg, 1);
            break;
        case ':':
            return bad_usage("option \"%s\" needs a value", argv[optind - 1]);
        default:
            return bad_usage("unknown option \"%s\"", argv[optind - 1]);
        }
    }
    i = optind;
    optind = 0; /* libc's getopt state is the programs' too: as new for their getopt */
    if (i >= argc)
        return bad_usage("%s", "no program to run");
    char path[4096];
    snprintf(path, sizeof path, "%s", argv[i]);
    int kind = elf_kind(path);
    if (kind != 0) { /* the launcher PROG of mpirio-cc -o PROG runs PROG.so */
        char so[4096];
        snprintf(so, sizeof so, "%s.so", argv[i]);
        int kso = elf_kind(so);
        if (kso == 0 || (kind < 0 && kso > 0)) {
            snprintf(path, sizeof path, "%s", so);
            kind = kso;
        }
    }
    if (kind < 0) {
        fprintf(stderr, "mpirio-run: error: cannot run \"%s\": %s\n", argv[i],
                strerror(errno));
        return 1;
    }
    if (kind != 0) {
        fprintf(stderr,
                "mpirio-run: error: \"%s\" is not a program built by mpirio-cc (a shared "
                "object: mpirio-cc -o PROG writes PROG.so and its launcher PROG)\n",
                path);
        return 1;
    }
    size_t len = 0;
    unsigned char *img = read_file(path, &len);
    if (!img) {
        fprintf(stderr, "mpirio-run: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    Job j = {n,
             argc - i,
             argv + i,
             NULL,
             calloc((size_t)n, sizeof(MainFn)),
             calloc((size_t)n, sizeof(int))};
    int *fds = malloc((size_t)n * sizeof *fds);
    int rc = 0;
    if (!j.mains || !j.status || !fds || copy_argvs(&j) != 0) {
        fprintf(stderr, "mpirio-run: out of memory\n");
        rc = 1;
    }
    int nfds = 0;
    for (int r = 0; r < n && rc == 0; r++) {
        char copy[4200];
        if (make_copy(img, len, r, copy, sizeof copy, &fds[nfds]) != 0) {
            rc = 1;
            break;
        }
        int memfd = fds[nfds] >= 0;
        nfds += memfd;
        void *h = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
#ifndef MPIRIO_ASAN
        if (!memfd)
            unlink(copy);
#endif
        if (!h) { /* dlerror names the private copy (/proc/self/fd/N): name the program */
            const char *e = dlerror(), *at = e ? strstr(e, copy) : NULL;
            if (at && at == e)
                fprintf(stderr, "mpirio-run: error: %s%s\n", path, e + strlen(copy));
            else
                fprintf(stderr, "mpirio-run: error: %s: %s\n", path,
                        e ? e : "cannot load");
            rc = 1;
            break;
        }
        void *sym = dlsym(h, "main");
        if (!sym) {
            fprintf(stderr, "mpirio-run: %s has no main\n", path);
            rc = 1;
            break;
        }
        memcpy(&j.mains[r], &sym, sizeof sym);
    }
    for (int k = 0; k < nfds; k++)
        close(fds[k]);
    free(fds);
    free(img);
#ifndef MPIRIO_ASAN
    remove_copies();
#endif
    if (rc == 0 && set_timeout() != 0)
        rc = 1;
    if (rc == 0) {
        catch_faults();
        rc = MPIRIO_Run(n, platform, MPIRIO_RUN_STRICT, dsp_main, &j);
        rc = rc == 2 ? 3 : rc; /* a deadlock: 3, as in every tool (docs/cli.md) */
        if (rc == 0)
            for (int r = 0; r < n; r++)
                if (j.status[r] > rc)
                    rc = j.status[r];
    }
    fflush(stdout);
    free_argvs(&j);
    free(j.mains);
    free(j.status);
#ifdef MPIRIO_ASAN
    __lsan_do_leak_check(); /* while the copies are there to name the lines */
#endif
    remove_copies();
    return rc;
}
