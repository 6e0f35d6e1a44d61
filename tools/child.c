/*
 * tools/child.c - the child processes of tgc's commands (child.h).
 */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "ir.h"
#include "progress.h"

extern char **environ;

void
argv_push(Argv *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->v = realloc(a->v, (size_t)a->cap * sizeof *a->v);
        if (!a->v)
            ice("out of memory");
    }
    a->v[a->n] = strdup(s ? s : "");
    if (!a->v[a->n])
        ice("out of memory");
    a->v[++a->n] = NULL;
}

void
argv_words(Argv *a, const char *text)
{
    const char *s = text;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        const char *e = s;
        while (*e && *e != ' ' && *e != '\t')
            e++;
        if (e > s) {
            char *w = strndup(s, (size_t)(e - s));
            if (!w)
                ice("out of memory");
            argv_push(a, w);
            free(w);
        }
        s = e;
    }
}

void
argv_free(Argv *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    *a = (Argv){0};
}

/* The children started and not yet waited for, for child_kill_all (read in a signal
 * handler: a fixed table of pids, negative for a child that leads its group). */
enum { MAX_RUNNING = 16 };
static volatile sig_atomic_t running[MAX_RUNNING];

static void
track(pid_t pid, bool group)
{
    for (int i = 0; i < MAX_RUNNING; i++)
        if (!running[i]) {
            running[i] = group ? -pid : pid;
            return;
        }
}

static void
untrack(pid_t pid)
{
    for (int i = 0; i < MAX_RUNNING; i++)
        if (running[i] == pid || running[i] == -pid)
            running[i] = 0;
}

void
child_kill_all(void)
{
    int saved = errno;
    /* SIGTERM first, so that a compiler removes its temporary files; SIGKILL to what is
       left after a second */
    for (int i = 0; i < MAX_RUNNING; i++)
        if (running[i])
            kill((pid_t)running[i], SIGTERM); /* -pid: its whole group */
    for (int round = 0; round <= 100; round++) {
        bool left = false;
        for (int i = 0; i < MAX_RUNNING; i++) {
            pid_t p = (pid_t)running[i];
            if (!p)
                continue;
            if (round == 100)
                kill(p, SIGKILL);
            int st;
            pid_t r;
            while ((r = waitpid(p < 0 ? -p : p, &st, round == 100 ? 0 : WNOHANG)) < 0 &&
                   errno == EINTR)
                ;
            if (r == 0)
                left = true;
            else
                running[i] = 0;
        }
        if (!left)
            break;
        struct timespec nap = {0, 10000000};
        nanosleep(&nap, NULL);
    }
    errno = saved;
}

Child
child_start(char *const *argv, const char *out, const char *err, char *const *env,
            bool group)
{
    Child c = {0};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawnattr_init(&at);
    if (group) {
        posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&at, 0);
    }
    c.started = posix_spawnp(&c.pid, argv[0], &fa, &at, argv, env ? env : environ) == 0;
    if (c.started)
        track(c.pid, group);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    return c;
}

int
child_finish_within(Child c, double limit, bool *timed_out)
{
    *timed_out = false;
    if (!c.started)
        return -1;
    double t0 = ir_wall_seconds();
    for (;;) {
        int st;
        pid_t r = waitpid(c.pid, &st, WNOHANG);
        if (r == c.pid) {
            untrack(c.pid);
            kill(-c.pid, SIGKILL); /* a rank mpirun left behind */
            return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        }
        if (r < 0 && errno != EINTR) {
            untrack(c.pid);
            return -1;
        }
        if (ir_wall_seconds() - t0 > limit) {
            *timed_out = true;
            kill(-c.pid, SIGKILL);
            while (waitpid(c.pid, &st, 0) < 0 && errno == EINTR)
                ;
            untrack(c.pid);
            return -1;
        }
        struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);
    }
}

int
child_finish(Child c, const char *step)
{
    if (!c.started)
        return -1;
    int st;
    pid_t r;
    while ((r = waitpid(c.pid, &st, progress_enabled() ? WNOHANG : 0)) <= 0) {
        if (r < 0 && errno != EINTR) {
            untrack(c.pid);
            return -1;
        }
        if (r == 0) {
            progress_step(step, 0, 0);
            nanosleep(&(struct timespec){.tv_nsec = 50000000}, NULL);
        }
    }
    untrack(c.pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *
child_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, r;
    char *s = malloc(cap);
    if (!s)
        ice("out of memory");
    while ((r = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            s = realloc(s, cap);
            if (!s)
                ice("out of memory");
        }
    }
    fclose(f);
    s[n] = 0;
    if (len)
        *len = n;
    return s;
}
