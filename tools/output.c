/*
 * tools/output.c - every file tgc writes goes through here (docs/cli.md, "Output files"):
 * the output files of the commands (-o, --dot, --gantt, the dump of --dump-after) and
 * the project directory of tgc compile and tgc run.
 *
 * A file is written whole or not at all.  A new path or a regular file gets a temporary
 * sibling, renamed over it at the end; a symbolic link is followed (the file it names is
 * replaced or created, the link stays a link).  A character device or a FIFO (/dev/null,
 * a pipe, /dev/stdout, /proc/self/fd/1) is written through, never replaced, and the file
 * that is tgc's own standard output or error is written through that descriptor.  A
 * directory, a block device or a socket is refused.
 *
 * A project directory: a new DIR is built in a temporary sibling folder and renamed into
 * place, so that it appears whole or not at all.  An existing DIR is locked (flock: two
 * tgc never write or run in one folder at once), every file is written into a temporary
 * folder inside it, and only then renamed into place, after every name was checked: what
 * is in the way (a directory where a file goes) is refused before anything changes, and a
 * file tgc would replace must be one it wrote and nobody changed since (the manifest
 * .tgc-project holds a hash of each file it wrote) unless --force.
 */
#define _GNU_SOURCE /* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

#define MANIFEST ".tgc-project"

struct OutLock {
    int fd;
};

char *
out_path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (!s)
        ice("out of memory");
    snprintf(s, n, "%s/%s", dir, name);
    return s;
}

/* The folder of path ("." when it has none), malloc'd. */
static char *
folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ir_xstrdup(".");
    if (slash == path)
        return ir_xstrdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* "FOLDER/.BASE.tgc-XXXXXX" for path FOLDER/BASE: a template for mkstemp or mkdtemp of a
 * temporary sibling (same folder, so that rename() is atomic); malloc'd. */
static char *
sibling(const char *path)
{
    char *dir = folder_of(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(dir) + strlen(base) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        ice("out of memory");
    snprintf(tmp, n, "%s/.%s.tgc-XXXXXX", dir, base);
    free(dir);
    return tmp;
}

/* Writes all of data to fd; 0, or an errno. */
static int
write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* ---- one file -------------------------------------------------------------------- */

typedef enum { W_REPLACE, W_THROUGH, W_STREAM } How;

/* The final name a chain of symbolic links leads to (the links are followed by hand, for
 * a link to a file that does not exist yet); malloc'd, or NULL with errno set. */
static char *
follow_links(const char *path)
{
    char *cur = ir_xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char buf[PATH_MAX];
        ssize_t n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        buf[n] = 0;
        char *next;
        if (buf[0] == '/') {
            next = ir_xstrdup(buf);
        } else {
            char *dir = folder_of(cur);
            next = out_path_join(dir, buf);
            free(dir);
        }
        free(cur);
        cur = next;
    }
    free(cur);
    errno = ELOOP;
    return NULL;
}

/* How path is written and, for W_REPLACE, the file that is replaced or created (the end
 * of its symbolic links), with the mode and owner to give it (*mode -1: a new file).
 * NULL, or the reason it cannot be written. */
static const char *
classify(const char *path, How *how, char **target, int *fd, struct stat *old)
{
    struct stat st;
    *target = NULL;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT)
            return strerror(errno);
        /* a new file, maybe at the end of a link to a file that does not exist yet */
        *target = follow_links(path);
        if (!*target)
            return strerror(errno);
        *how = W_REPLACE;
        old->st_mode = 0;
        return NULL;
    }
    for (int s = 1; s <= 2; s++) {
        struct stat fs;
        if (!S_ISDIR(st.st_mode) && fstat(s, &fs) == 0 && fs.st_dev == st.st_dev &&
            fs.st_ino == st.st_ino) {
            *how = W_STREAM;
            *fd = s;
            return NULL;
        }
    }
    if (S_ISDIR(st.st_mode))
        return "it is a directory";
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        *how = W_THROUGH;
        return NULL;
    }
    if (S_ISBLK(st.st_mode))
        return "it is a block device (tgc writes regular files, character devices and "
               "FIFOs)";
    if (!S_ISREG(st.st_mode))
        return "it is not a regular file, a character device or a FIFO";
    *target = realpath(path, NULL);
    if (!*target)
        return strerror(errno);
    *how = W_REPLACE;
    *old = st;
    return NULL;
}

/* Writes data to a new temporary file beside target and renames it over target; the mode
 * (and, for root, the owner) of the file it replaces.  0, or an errno. */
static int
replace(const char *target, const void *data, size_t len, const struct stat *old)
{
    char *tmp = sibling(target);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return e;
    }
    mode_t mask = umask(0);
    umask(mask);
    int err = fchmod(fd, old->st_mode ? old->st_mode & 07777 : 0666 & ~mask) ? errno : 0;
    if (!err && old->st_mode && geteuid() == 0 &&
        fchown(fd, old->st_uid, old->st_gid) != 0)
        err = errno;
    if (!err)
        err = write_all(fd, data, len);
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, target) != 0)
        err = errno;
    if (err)
        unlink(tmp);
    free(tmp);
    return err;
}

/* Through a Diag, so that the path's control characters are escaped as in every message
 * (bench/ links this file without tools/cli.c's cli_error). */
static void
cannot(const char *path, const char *why)
{
    Diag *d = diag_new();
    Loc l = {.file = "tgc"};
    diag_error(d, &l, "cannot write \"%s\": %s", path, why);
    fputs(diag_text(d), stderr);
    diag_free(d);
}

int
out_check(const char *path)
{
    if (strcmp(path, "-") == 0)
        return 0;
    How how;
    char *target;
    int fd;
    struct stat old;
    const char *why = classify(path, &how, &target, &fd, &old);
    if (!why && how == W_REPLACE) {
        char *dir = folder_of(target);
        if (access(dir, W_OK | X_OK) != 0)
            why = strerror(errno);
        free(dir);
    }
    free(target);
    if (why)
        cannot(path, why);
    return why ? 1 : 0;
}

int
out_write_file(const char *path, const void *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "tgc: error: cannot write standard output: %s\n",
                    strerror(errno));
            return 1;
        }
        return 0;
    }
    How how;
    char *target;
    int sfd = -1;
    struct stat old;
    const char *why = classify(path, &how, &target, &sfd, &old);
    if (why) {
        cannot(path, why);
        return 1;
    }
    int err = 0;
    if (how == W_STREAM) {
        fflush(sfd == 1 ? stdout : stderr);
        err = write_all(sfd, data, len);
    } else if (how == W_THROUGH) {
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            err = errno;
        else {
            err = write_all(fd, data, len);
            if (close(fd) != 0 && !err)
                err = errno;
        }
    } else {
        err = replace(target, data, len, &old);
    }
    free(target);
    if (err)
        cannot(path, strerror(err));
    return err ? 1 : 0;
}

/* ---- the lock of a project directory ---------------------------------------------- */

OutLock *
out_lock(const char *dir, Diag *d)
{
    Loc loc = {.file = dir};
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        diag_error(d, &loc, "cannot create directory: %s", strerror(errno));
        return NULL;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        diag_error(d, &loc, "cannot open directory: %s", strerror(errno));
        return NULL;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            diag_error(d, &loc,
                       "another tgc is using this folder (tgc run --keep or tgc compile "
                       "-o); try again when it has finished");
        else
            diag_error(d, &loc, "cannot lock directory: %s", strerror(e));
        return NULL;
    }
    OutLock *l = malloc(sizeof *l);
    if (!l)
        ice("out of memory");
    l->fd = fd;
    return l;
}

void
out_unlock(OutLock *l)
{
    if (!l)
        return;
    close(l->fd); /* releases the flock */
    free(l);
}

/* ---- the manifest ----------------------------------------------------------------- */

static uint64_t
fnv(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(1099511628211);
    return h;
}

typedef struct Entry {
    char *name;
    uint64_t hash;
} Entry;

typedef struct Manifest {
    Entry *e;
    int n;
} Manifest;

/* A name in the manifest: bytes that are not printable ASCII, blanks and '%' as %XX. */
static void
put_name(FILE *f, const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p <= ' ' || *p >= 0x7f || *p == '%')
            fprintf(f, "%%%02X", *p);
        else
            fputc(*p, f);
}

static char *
get_name(const char *s)
{
    char *out = malloc(strlen(s) + 1), *w = out;
    if (!out)
        ice("out of memory");
    for (; *s && *s != '\n'; s++) {
        unsigned x;
        if (*s == '%' && sscanf(s + 1, "%2X", &x) == 1) {
            *w++ = (char)x;
            s += 2;
        } else {
            *w++ = *s;
        }
    }
    *w = 0;
    return out;
}

/* The manifest of dir (empty when there is none or it is not tgc's). */
static Manifest
read_manifest(const char *dir)
{
    Manifest m = {0};
    char *path = out_path_join(dir, MANIFEST);
    FILE *f = fopen(path, "r");
    free(path);
    char line[4096 * 3 + 64];
    if (!f)
        return m;
    if (!fgets(line, sizeof line, f) || strcmp(line, "tgc-project 1\n") != 0) {
        fclose(f);
        return m;
    }
    while (fgets(line, sizeof line, f)) {
        uint64_t h;
        int off;
        if (sscanf(line, "%16" SCNx64 " %n", &h, &off) != 1)
            continue;
        m.e = realloc(m.e, (size_t)(m.n + 1) * sizeof *m.e);
        if (!m.e)
            ice("out of memory");
        m.e[m.n++] = (Entry){get_name(line + off), h};
    }
    fclose(f);
    return m;
}

static void
free_manifest(Manifest *m)
{
    for (int i = 0; i < m->n; i++)
        free(m->e[i].name);
    free(m->e);
}

static const Entry *
find_entry(const Manifest *m, const char *name)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->e[i].name, name) == 0)
            return &m->e[i];
    return NULL;
}

/* The hash of the regular file at path; false when it cannot be read. */
static bool
hash_file(const char *path, uint64_t *h)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    uint64_t x = UINT64_C(1469598103934665603);
    unsigned char buf[1 << 16];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++)
            x = (x ^ buf[i]) * UINT64_C(1099511628211);
    close(fd);
    *h = x;
    return n == 0;
}

/* ---- a project -------------------------------------------------------------------- */

/* Writes every file of p and the manifest into the (new, empty) folder tmp.  0, or -1
 * after reporting; the files written are removed again on failure. */
static int
write_files(const CgProject *p, const char *tmp, Diag *d)
{
    mode_t mask = umask(0);
    umask(mask);
    char *mpath = out_path_join(tmp, MANIFEST);
    FILE *mf = fopen(mpath, "w");
    int err = mf ? 0 : errno;
    if (mf)
        fputs("tgc-project 1\n", mf);
    int i = 0;
    for (; i < p->nfiles && !err; i++) {
        const CgFile *f = &p->files[i];
        char *path = out_path_join(tmp, f->name);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666 & ~mask);
        err = fd < 0 ? errno : write_all(fd, f->data, f->len);
        if (fd >= 0 && close(fd) != 0 && !err)
            err = errno;
        if (err) {
            diag_error(d, &(Loc){.file = path}, "cannot write: %s", strerror(err));
            unlink(path);
        } else {
            fprintf(mf, "%016" PRIx64 " ", fnv(f->data, f->len));
            put_name(mf, f->name);
            fputc('\n', mf);
        }
        free(path);
    }
    if (mf && fclose(mf) != 0 && !err) {
        err = errno;
        diag_error(d, &(Loc){.file = mpath}, "cannot write: %s", strerror(err));
    } else if (!mf) {
        diag_error(d, &(Loc){.file = mpath}, "cannot write: %s", strerror(err));
    }
    if (err) {
        for (int k = 0; k < i; k++) {
            char *path = out_path_join(tmp, p->files[k].name);
            unlink(path);
            free(path);
        }
        unlink(mpath);
    }
    free(mpath);
    return err ? -1 : 0;
}

static void
remove_files(const CgProject *p, const char *tmp)
{
    for (int i = 0; i <= p->nfiles; i++) {
        char *path = out_path_join(tmp, i < p->nfiles ? p->files[i].name : MANIFEST);
        unlink(path);
        free(path);
    }
    rmdir(tmp);
}

/* A new project folder: built beside it and renamed into place.  0, -1 after reporting,
 * or 1 when dir appeared meanwhile (the caller writes into it as into an existing one).
 */
static int
create(const CgProject *p, const char *dir, Diag *d)
{
    char *tmp = sibling(dir);
    Loc loc = {.file = dir};
    int rc = -1;
    if (!mkdtemp(tmp)) {
        diag_error(d, &loc, "cannot create directory: %s", strerror(errno));
    } else if (write_files(p, tmp, d) == 0) {
        mode_t mask = umask(0);
        umask(mask);
        chmod(tmp, 0777 & ~mask); /* mkdtemp made it 0700 */
        /* RENAME_NOREPLACE: never over a folder that appeared meanwhile */
        int r = renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_NOREPLACE);
        if (r != 0 && (errno == ENOSYS || errno == EINVAL))
            r = rename(tmp, dir);
        if (r == 0) {
            rc = 0;
        } else if (errno == EEXIST || errno == ENOTEMPTY) {
            remove_files(p, tmp);
            rc = 1;
        } else {
            diag_error(d, &loc, "cannot create directory: %s", strerror(errno));
            remove_files(p, tmp);
        }
    } else {
        rmdir(tmp);
    }
    free(tmp);
    return rc;
}

/* Into an existing, locked folder. */
static int
update(const CgProject *p, const char *dir, bool force, Diag *d)
{
    Manifest old = read_manifest(dir);
    int bad = 0;
    for (int i = 0; i < p->nfiles; i++) {
        char *path = out_path_join(dir, p->files[i].name);
        struct stat st;
        Loc loc = {.file = path};
        if (lstat(path, &st) == 0) {
            const Entry *e = find_entry(&old, p->files[i].name);
            uint64_t h;
            if (S_ISDIR(st.st_mode)) {
                diag_error(d, &loc,
                           "is a directory where tgc writes a file of the project");
                bad++;
            } else if (!S_ISREG(st.st_mode)) {
                diag_error(d, &loc,
                           "is not a regular file (a link, a device or a FIFO) where tgc "
                           "writes a file of the project");
                bad++;
            } else if (!force && !(e && hash_file(path, &h) && h == e->hash)) {
                diag_error(
                    d, &loc,
                    "exists and is not a file tgc wrote (or it was changed since): "
                    "--force overwrites it");
                bad++;
            }
        } else if (errno != ENOENT) {
            diag_error(d, &loc, "cannot write: %s", strerror(errno));
            bad++;
        }
        free(path);
    }
    if (bad) {
        free_manifest(&old);
        return -1;
    }
    char *tmp = out_path_join(dir, ".tgc-new-XXXXXX");
    int rc = -1;
    if (!mkdtemp(tmp)) {
        diag_error(d, &(Loc){.file = dir}, "cannot write into directory: %s",
                   strerror(errno));
    } else if (write_files(p, tmp, d) == 0) {
        rc = 0;
        for (int i = 0; i <= p->nfiles && rc == 0; i++) {
            const char *name = i < p->nfiles ? p->files[i].name : MANIFEST;
            char *from = out_path_join(tmp, name), *to = out_path_join(dir, name);
            if (rename(from, to) != 0) {
                diag_error(d, &(Loc){.file = to}, "cannot write: %s", strerror(errno));
                rc = -1;
            }
            free(from);
            free(to);
        }
        /* files of the earlier project that this one no longer has: removed when they
           are as tgc wrote them */
        for (int k = 0; rc == 0 && k < old.n; k++) {
            bool kept = false;
            for (int i = 0; i < p->nfiles && !kept; i++)
                kept = strcmp(p->files[i].name, old.e[k].name) == 0;
            if (kept || strchr(old.e[k].name, '/'))
                continue;
            char *path = out_path_join(dir, old.e[k].name);
            uint64_t h;
            if (hash_file(path, &h) && h == old.e[k].hash)
                unlink(path);
            free(path);
        }
        remove_files(p, tmp);
    } else {
        rmdir(tmp);
    }
    free(tmp);
    free_manifest(&old);
    return rc;
}

int
out_project(const CgProject *p, const char *dir, bool force, OutLock *held, Diag *d)
{
    char *clean = ir_xstrdup(dir);
    for (size_t n = strlen(clean); n > 1 && clean[n - 1] == '/'; n--)
        clean[n - 1] = 0;
    struct stat st;
    int rc;
    if (!held && stat(clean, &st) != 0 && errno == ENOENT) {
        rc = create(p, clean, d);
        if (rc <= 0) {
            free(clean);
            return rc;
        }
    }
    if (stat(clean, &st) == 0 && !S_ISDIR(st.st_mode)) {
        diag_error(d, &(Loc){.file = dir}, "exists and is not a directory");
        free(clean);
        return -1;
    }
    OutLock *l = held ? held : out_lock(clean, d);
    rc = l ? update(p, clean, force, d) : -1;
    if (!held)
        out_unlock(l);
    free(clean);
    return rc;
}
