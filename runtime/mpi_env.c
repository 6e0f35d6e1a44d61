/* mpi_env.c: the MPI environment: the per-DSP state and its tables (the table of
 * communicators with the predefined ones), Init and Finalize (and the checks of calls
 * outside them), error handlers and classes, info objects, the clock, versions. The
 * bottom of the MPI layer (mpi_int.h): it calls nothing of the files above it. */
#include "mpi_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *
mpi_alloc(size_t n)
{
    void *p = tr_tmp_alloc(n ? n : 1);
    memset(p, 0, n ? n : 1);
    return p;
}

void
mpi_free(void *p)
{
    if (p)
        tr_tmp_free(p);
}

char *
mpi_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mpi_alloc(n);
    memcpy(d, s, n);
    return d;
}

/* the free entries of a table are a binary min-heap of their indices, so that the
 * next entry made is the lowest free one (as a search from the start found it, and as
 * MPICH's tests expect of a handle just freed) at logarithmic cost: a loop of
 * creations is not quadratic (100000 MPI_Comm_dup, issue 37, 6) */
static void
heap_push(Tab *t, int i)
{
    if (t->nfree == t->freecap) {
        int cap = t->freecap ? t->freecap * 2 : 64;
        int *f = mpi_alloc((size_t)cap * sizeof *f);
        if (t->nfree)
            memcpy(f, t->free, (size_t)t->nfree * sizeof *f);
        mpi_free(t->free);
        t->free = f, t->freecap = cap;
    }
    int k = t->nfree++;
    for (; k > 0 && t->free[(k - 1) / 2] > i; k = (k - 1) / 2)
        t->free[k] = t->free[(k - 1) / 2];
    t->free[k] = i;
}

static int
heap_pop(Tab *t)
{
    int top = t->free[0], last = t->free[--t->nfree], k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= t->nfree)
            break;
        if (c + 1 < t->nfree && t->free[c + 1] < t->free[c])
            c++;
        if (t->free[c] >= last)
            break;
        t->free[k] = t->free[c];
        k = c;
    }
    if (t->nfree)
        t->free[k] = last;
    return top;
}

int
tab_new(Tab *t, int first, size_t size)
{
    /* every freed entry is at or after the first of the calls that make them (the
     * predefined ones below it are never freed) */
    if (t->nfree && t->free[0] >= first) {
        int i = heap_pop(t);
        memset(t->e[i], 0, size);
        return i;
    }
    int i = t->n > first ? t->n : first;
    if (i >= t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        while (cap <= i)
            cap *= 2;
        void **e = mpi_alloc((size_t)cap * sizeof *e);
        if (t->n)
            memcpy(e, t->e, (size_t)t->n * sizeof *e);
        mpi_free(t->e);
        t->e = e;
        t->cap = cap;
    }
    for (int k = t->n; k < i; k++)
        t->e[k] = NULL;
    t->e[i] = mpi_alloc(size);
    t->n = i + 1;
    return i;
}

void
tab_free(Tab *t, int i)
{
    int *used = tab_at(t, i);
    if (!used || !*used)
        return;
    *used = 0;
    heap_push(t, i);
}

/* ---- the table of communicators (the communicator calls are mpi_comm.c's) ---- */

enum { SELF_CTX = 0x7ffffff0 };

Comm *
comm_slot(MpiState *s, int at, MPI_Comm *h)
{
    int i = tab_new(&s->comms, at, sizeof(Comm));
    Comm *c = tab_at(&s->comms, i);
    c->used = 1;
    c->eh = MPI_ERRORS_ARE_FATAL;
    *h = i;
    return c;
}

static void
comm_init_predefined(MpiState *s)
{
    int n = tr_size(), me = tr_rank(), dpb = tr_dsps_per_board();
    MPI_Comm h;
    Comm *w = comm_slot(s, 0, &h);
    w->ctx = 0, w->cctx = 0x10000, w->size = n, w->rank = me, w->world_like = 1;
    w->g = mpi_alloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        w->g[i] = i;
    strcpy(w->name, "MPI_COMM_WORLD");
    Comm *l = comm_slot(s, 1, &h);
    int b = me / dpb, base = b * dpb;
    l->size = n - base < dpb ? n - base : dpb;
    l->ctx = 1 + b, l->cctx = 0x10001 + b, l->rank = me - base, l->world_like = 1;
    l->g = mpi_alloc((size_t)l->size * sizeof(int));
    for (int i = 0; i < l->size; i++)
        l->g[i] = base + i;
    strcpy(l->name, "MPI_COMM_LOCAL");
    Comm *f = comm_slot(s, 2, &h);
    f->ctx = SELF_CTX, f->cctx = SELF_CTX + 1, f->size = 1, f->rank = 0;
    f->g = mpi_alloc(sizeof(int));
    f->g[0] = me;
    strcpy(f->name, "MPI_COMM_SELF");
}

Comm *
comm_get(MpiState *s, MPI_Comm h)
{
    Comm *c = tab_at(&s->comms, h);
    return c && c->used ? c : NULL;
}

static void
state_init(MpiState *s)
{
    s->rank = tr_rank();
    s->lastused = MPI_ERR_LASTCODE;
    comm_init_predefined(s); /* the predefined datatypes: on first use (mpi_type.c) */
    /* groups: 0 is MPI_GROUP_EMPTY */
    Group *g = tab_at(&s->groups, tab_new(&s->groups, 0, sizeof(Group)));
    g->used = 1;
    /* operators below 16 and error handlers below 4 are predefined */
    for (int i = 0; i < 16; i++)
        ((Op *)tab_at(&s->ops, tab_new(&s->ops, i, sizeof(Op))))->used = 1;
    for (int i = 0; i < 4; i++)
        ((Errh *)tab_at(&s->errhs, tab_new(&s->errhs, i, sizeof(Errh))))->used = 1;
    for (int i = 0; i < 2; i++)
        ((Info *)tab_at(&s->infos, tab_new(&s->infos, i, sizeof(Info))))->used = 1;
}

MpiState *
mpi_state(void)
{
    if (!tr_dsp())
        return NULL;
    void **slot = tr_api_slot();
    if (!*slot) {
        MpiState *s = mpi_alloc(sizeof *s);
        *slot = s;
        state_init(s);
    }
    return *slot;
}

/* a call outside Init..Finalize: under mpirio-run (tr_strict) the run ends with a
 * report naming the DSP and the call, as MPI implementations end the job */
static void
outside(int finalized, const char *call)
{
    fflush(stdout);
    fprintf(stderr, "mpirio: DSP %d called %s %s\n", tr_rank(), call,
            finalized ? "after MPI_Finalize" : "before MPI_Init");
    exit(1);
}

MpiState *
mpi_enter(const char *call)
{
    MpiState *s = mpi_state();
    if (!s)
        return NULL;
    int fin = s->finalized || !tr_active();
    if ((!s->initialized && !s->nsessions) || fin) {
        if (tr_strict())
            outside(fin, call);
        if (fin)
            return NULL;
    }
    if (!tr_agent()) { /* an operation in progress keeps the name it was started by */
        s->call = call;
        tr_call(call);
    }
    return s;
}

void
mpi_mark_init(void)
{
    MpiState *s = mpi_state();
    if (s && !s->finalized)
        s->initialized = 1;
}

int
mpi_check_active(const char *call)
{
    MpiState *s = mpi_state();
    if (!s)
        return 0;
    int fin = s->finalized || !tr_active();
    if ((!s->initialized || fin) && tr_strict())
        outside(fin, call);
    return tr_active();
}

/* ---- the table of requests (what they do is mpi_p2p.c's) ---- */

Rq *
rq_new(MpiState *s, int kind)
{
    Rq *r = mpi_alloc(sizeof *r);
    r->kind = kind;
    r->self = (MPI_Request)hnd_new(&s->reqs, r);
    return r;
}

Rq *
rq_get(MpiState *s, MPI_Request h)
{
    return hnd_get(&s->reqs, (uintptr_t)h);
}

void
rq_forget(MpiState *s, Rq *r)
{
    hnd_drop(&s->reqs, (uintptr_t)r->self);
    r->self = MPI_REQUEST_NULL;
}

void
rq_free(MpiState *s, Rq *r)
{
    rq_forget(s, r);
    mpi_free(r);
}

HandleTab *
api_requests(void)
{
    MpiState *s = mpi_state();
    return s ? &s->native : NULL;
}

int
mpi_finalized(int *initialized)
{
    MpiState *s = mpi_state();
    *initialized = s && s->initialized;
    return s && (s->finalized || !tr_active());
}

/* ---- Init, Finalize ---- */

int
MPI_Init(int *argc, char ***argv)
{
    MpiState *s = mpi_state();
    if (!s)
        return MPI_ERR_OTHER;
    if (s->initialized || s->finalized) {
        fflush(stdout);
        fprintf(stderr, "mpirio: DSP %d called MPI_Init %s\n", tr_rank(),
                s->finalized ? "after MPI_Finalize" : "twice");
        exit(1);
    }
    s->initialized = 1;
    tr_call("MPI_Init");
    return MPI_SUCCESS;
}

int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int e = MPI_Init(argc, argv);
    MpiState *s = mpi_state();
    if (!e) {
        /* a DSP is one thread of control: MPI_THREAD_FUNNELED at most */
        s->thread_level = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
        if (provided)
            *provided = s->thread_level;
    }
    return e;
}

int
MPI_Query_thread(int *provided)
{
    ENTER("MPI_Query_thread");
    *provided = s->thread_level;
    return MPI_SUCCESS;
}

int
MPI_Is_thread_main(int *flag)
{
    *flag = 1;
    return MPI_SUCCESS;
}

int
MPI_Finalize(void)
{
    ENTER("MPI_Finalize");
    /* pending buffered sends are delivered first */
    for (Bsend *b = s->bsends; b;) {
        Bsend *nx = b->next;
        tr_wait(b->r, NULL);
        mpi_free(b);
        b = nx;
    }
    s->bsends = NULL;
    /* the attributes of MPI_COMM_SELF are deleted first, then those of the other
     * predefined communicators, each in the reverse order of setting (MPI 3.1
     * section 8.7.1), while MPI is still usable */
    static const MPI_Comm predef[] = {MPI_COMM_SELF, MPI_COMM_WORLD, MPI_COMM_LOCAL};
    for (int i = 0; i < 3; i++) {
        Comm *c = comm_get(s, predef[i]);
        int e = c ? attr_clear(s, &c->attrs, predef[i]) : 0;
        if (e)
            return mpi_err(predef[i], e);
    }
    s->finalized = 1;
    tr_finalize();
    return MPI_SUCCESS;
}

int
MPI_Initialized(int *flag)
{
    MpiState *s = mpi_state();
    *flag = s && s->initialized;
    return MPI_SUCCESS;
}

int
MPI_Finalized(int *flag)
{
    MpiState *s = mpi_state();
    *flag = s && s->finalized;
    return MPI_SUCCESS;
}

int
MPI_Abort(MPI_Comm comm, int code)
{
    fflush(stdout);
    fprintf(stderr, "mpirio: DSP %d called MPI_Abort(%d) at cycle %lld\n",
            tr_dsp() ? tr_rank() : -1, code, tr_dsp() ? tr_now() : 0LL);
    exit(code);
}

int
MPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int
MPI_Get_library_version(char *version, int *len)
{
    int n =
        snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                 "MPIRIO %d.%d (MPI %d.%d on simulated BWDSP boards)",
                 MPIRIO_VERSION_MAJOR, MPIRIO_VERSION_MINOR, MPI_VERSION, MPI_SUBVERSION);
    *len = n;
    return MPI_SUCCESS;
}

int
MPI_Get_processor_name(char *name, int *len)
{
    int r = tr_dsp() ? tr_rank() : 0, dpb = tr_dsp() ? tr_dsps_per_board() : 1;
    *len = snprintf(name, MPI_MAX_PROCESSOR_NAME, "board%d-dsp%d", r / dpb, r % dpb);
    return MPI_SUCCESS;
}

/* reading the clock costs the DSP a few cycles, so that a program that waits by
 * polling MPI_Wtime sees time pass (as on a real DSP) */
enum { WTIME_CYCLES = 100 };

double
MPI_Wtime(void)
{
    if (!tr_active())
        return 0.0;
    tr_compute(WTIME_CYCLES, "MPI_Wtime");
    return (double)tr_now() / (double)tr_clock_hz();
}

double
MPI_Wtick(void)
{
    return 1.0 / (double)tr_clock_hz();
}

int
MPI_Pcontrol(const int level, ...)
{
    return MPI_SUCCESS;
}

int
MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    if (size < 0)
        return MPI_ERR_ARG;
    void *p = malloc(size ? (size_t)size : 1);
    if (!p)
        return MPI_ERR_NO_MEM;
    memcpy(baseptr, &p, sizeof p);
    return MPI_SUCCESS;
}

int
MPI_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}

/* ---- attributes ---- */

int
keyval_new(MpiState *s, int kind, AttrCopy *copy, AttrDelete *del, void *extra, int *key)
{
    /* a key is never given again: one freed is invalid for good */
    int i = tab_new(&s->keyvals, s->keyvals.n > 1 ? s->keyvals.n : 1, sizeof(Keyval));
    Keyval *k = tab_at(&s->keyvals, i);
    *k = (Keyval){1, 0, 0, kind, copy, del, extra};
    *key = i;
    return MPI_SUCCESS;
}

Keyval *
keyval_get(MpiState *s, int kind, int key)
{
    Keyval *k = tab_at(&s->keyvals, key);
    return k && k->used && k->kind == kind ? k : NULL;
}

/* the program's use of k, or an attribute's, is over */
static void
keyval_unref(Keyval *k)
{
    if (k->freed && k->refs == 0)
        k->used = 0;
}

int
keyval_free(MpiState *s, int kind, int *key)
{
    Keyval *k = keyval_get(s, kind, *key);
    if (!k)
        return MPI_ERR_KEYVAL;
    /* an attribute still using it keeps it, its callbacks too; freeing it again
     * meanwhile changes nothing (as MPICH) */
    k->freed = 1;
    keyval_unref(k);
    *key = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static int
attr_find(const AttrList *l, int key)
{
    for (int i = 0; i < l->n; i++)
        if (l->a[i].key == key)
            return i;
    return -1;
}

static void
attr_add(AttrList *l, int key, void *val)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        Attr *a = mpi_alloc((size_t)cap * sizeof *a);
        if (l->n)
            memcpy(a, l->a, (size_t)l->n * sizeof *a);
        mpi_free(l->a);
        l->a = a;
        l->cap = cap;
    }
    l->a[l->n++] = (Attr){key, val};
}

int
attr_set(MpiState *s, AttrList *l, int kind, int obj, int key, void *val)
{
    Keyval *k = keyval_get(s, kind, key);
    if (!k || k->freed)
        return MPI_ERR_KEYVAL;
    int i = attr_find(l, key);
    if (i < 0) {
        attr_add(l, key, val);
        k->refs++;
        return MPI_SUCCESS;
    }
    /* the old value is deleted first; the attribute keeps its place */
    if (k->del) {
        int e = k->del(obj, key, l->a[i].val, k->extra);
        if (e)
            return e;
        i = attr_find(l, key);
        if (i < 0) {
            attr_add(l, key, val);
            k->refs++;
            return MPI_SUCCESS;
        }
    }
    l->a[i].val = val;
    return MPI_SUCCESS;
}

int
attr_get(MpiState *s, const AttrList *l, int kind, int key, void *val, int *flag)
{
    if (!keyval_get(s, kind, key))
        return MPI_ERR_KEYVAL;
    int i = attr_find(l, key);
    *flag = i >= 0;
    if (i >= 0)
        memcpy(val, &l->a[i].val, sizeof(void *));
    return MPI_SUCCESS;
}

int
attr_delete(MpiState *s, AttrList *l, int kind, int obj, int key)
{
    Keyval *k = keyval_get(s, kind, key);
    int i = k ? attr_find(l, key) : -1;
    if (i < 0)
        return MPI_ERR_KEYVAL;
    void *val = l->a[i].val;
    if (k->del) {
        int e = k->del(obj, key, val, k->extra);
        if (e)
            return e;
    }
    /* the callback may have changed the list */
    i = attr_find(l, key);
    if (i >= 0) {
        memmove(l->a + i, l->a + i + 1, (size_t)(l->n - i - 1) * sizeof *l->a);
        l->n--;
        k->refs--;
        keyval_unref(k);
    }
    return MPI_SUCCESS;
}

int
attr_copy(MpiState *s, const AttrList *from, AttrList *to, int kind, int obj)
{
    for (int i = 0; i < from->n; i++) {
        Attr a = from->a[i];
        Keyval *k = keyval_get(s, kind, a.key);
        if (!k || !k->copy)
            continue;
        void *out = NULL;
        int flag = 0;
        int e = k->copy(obj, a.key, k->extra, a.val, &out, &flag);
        if (e)
            return e;
        if (flag) {
            attr_add(to, a.key, out);
            k->refs++;
        }
    }
    return MPI_SUCCESS;
}

int
attr_clear(MpiState *s, AttrList *l, int obj)
{
    while (l->n > 0) {
        Attr a = l->a[l->n - 1];
        Keyval *k = tab_at(&s->keyvals, a.key);
        int e = attr_delete(s, l, k->kind, obj, a.key);
        if (e)
            return e;
    }
    mpi_free(l->a);
    *l = (AttrList){0};
    return MPI_SUCCESS;
}

/* ---- errors ---- */

static const char *
err_text(int code)
{
    if (code >= 0 && code < MPIRIO_ERR_LASTCODE)
        return MPIRIO_Error_string(code);
    switch (code) {
    case MPI_ERR_GROUP:
        return "invalid group";
    case MPI_ERR_TOPOLOGY:
        return "invalid topology";
    case MPI_ERR_DIMS:
        return "invalid dimensions";
    case MPI_ERR_UNKNOWN:
        return "unknown error";
    case MPI_ERR_INTERN:
        return "internal error";
    case MPI_ERR_IN_STATUS:
        return "error code in status";
    case MPI_ERR_PENDING:
        return "pending request";
    case MPI_ERR_INFO:
        return "invalid info object";
    case MPI_ERR_INFO_KEY:
        return "invalid info key";
    case MPI_ERR_INFO_VALUE:
        return "invalid info value";
    case MPI_ERR_INFO_NOKEY:
        return "no such info key";
    case MPI_ERR_KEYVAL:
        return "invalid attribute key";
    case MPI_ERR_NO_MEM:
        return "out of memory";
    case MPI_ERR_UNSUPPORTED_OPERATION:
        return "operation not supported by MPIRIO";
    case MPI_ERR_SESSION:
        return "invalid session";
    case MPI_ERR_LASTCODE:
        return "the last predefined error code";
    default:
        return NULL;
    }
}

/* a class or code the program added (MPI_Add_error_class, _code: MPI_ERR_LASTCODE + 1
 * and up, per DSP as per MPI process): its index, or -1 */
static int
user_code(const MpiState *s, int code)
{
    int i = code - MPI_ERR_LASTCODE - 1;
    return s && i >= 0 && i < s->nucode ? i : -1;
}

int
MPI_Error_string(int code, char *str, int *len)
{
    MpiState *s = mpi_state();
    int u = user_code(s, code);
    const char *m = u >= 0 ? (s->ustr[u] ? s->ustr[u] : "") : err_text(code);
    if (!m)
        return MPI_ERR_ARG;
    *len = snprintf(str, MPI_MAX_ERROR_STRING, "%s", m);
    return MPI_SUCCESS;
}

int
MPI_Error_class(int code, int *cls)
{
    MpiState *s = mpi_state();
    int u = user_code(s, code);
    if (u < 0 && !err_text(code))
        return MPI_ERR_ARG;
    *cls = u >= 0 ? s->ucls[u] : code;
    return MPI_SUCCESS;
}

/* a new code of class cls (-1: a new class), its string empty */
static int
add_code(MpiState *s, int cls)
{
    if (s->nucode % 64 == 0) {
        int *c = mpi_alloc((size_t)(s->nucode + 64) * sizeof *c);
        char **t = mpi_alloc((size_t)(s->nucode + 64) * sizeof *t);
        if (s->nucode) {
            memcpy(c, s->ucls, (size_t)s->nucode * sizeof *c);
            memcpy(t, s->ustr, (size_t)s->nucode * sizeof *t);
        }
        mpi_free(s->ucls);
        mpi_free(s->ustr);
        s->ucls = c, s->ustr = t;
    }
    int code = MPI_ERR_LASTCODE + 1 + s->nucode;
    s->ucls[s->nucode++] = cls < 0 ? code : cls;
    s->lastused = code;
    return code;
}

int
MPI_Add_error_class(int *cls)
{
    ENTER("MPI_Add_error_class");
    *cls = add_code(s, -1);
    return MPI_SUCCESS;
}

int
MPI_Add_error_code(int cls, int *code)
{
    ENTER("MPI_Add_error_code");
    /* a predefined class or one the program added (not a code of one) */
    int u = user_code(s, cls);
    if (u >= 0 ? s->ucls[u] != cls : (cls < 1 || !err_text(cls)))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    *code = add_code(s, cls);
    return MPI_SUCCESS;
}

int
MPI_Add_error_string(int code, const char *str)
{
    ENTER("MPI_Add_error_string");
    int u = user_code(s, code);
    if (u < 0 || !str)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    mpi_free(s->ustr[u]);
    s->ustr[u] = mpi_strdup(str);
    return MPI_SUCCESS;
}

int
mpi_err(MPI_Comm comm, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    /* the errors of an operation in progress are raised by the Wait or Test that
     * completes it, as MPI has it */
    if (tr_agent())
        return code;
    MpiState *s = mpi_state();
    Comm *c = s ? comm_get(s, comm) : NULL;
    if (!c && s)
        c = comm_get(s, MPI_COMM_WORLD);
    return mpi_err_eh(c ? c->eh : MPI_ERRORS_ARE_FATAL, comm, code);
}

int
mpi_err_eh(MPI_Errhandler eh, int handle, int code)
{
    if (code == MPI_SUCCESS || tr_agent())
        return code;
    MpiState *s = mpi_state();
    if (eh == MPI_ERRORS_RETURN)
        return code;
    if (eh >= 4 && s) {
        Errh *h = tab_at(&s->errhs, eh);
        if (h && h->used && h->fn) {
            int hh = handle, cd = code;
            h->fn(&hh, &cd);
            return code;
        }
    }
    char m[MPI_MAX_ERROR_STRING];
    int len;
    if (MPI_Error_string(code, m, &len) || len == 0)
        snprintf(m, sizeof m, "error code %d", code);
    fflush(stdout);
    fprintf(stderr, "mpirio: DSP %d: %s: %s (MPI_ERRORS_ARE_FATAL)\n",
            tr_dsp() ? tr_rank() : -1, s && s->call ? s->call : "MPI call", m);
    exit(1);
}

int
MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *eh)
{
    ENTER("MPI_Comm_create_errhandler");
    int i = tab_new(&s->errhs, 4, sizeof(Errh));
    Errh *h = tab_at(&s->errhs, i);
    h->used = 1;
    h->fn = fn;
    *eh = i;
    return MPI_SUCCESS;
}

static int
errh_valid(MpiState *s, MPI_Errhandler eh)
{
    Errh *h = tab_at(&s->errhs, eh);
    return eh > 0 && h && h->used;
}

int
errh_valid_for(MpiState *s, MPI_Errhandler eh, int session)
{
    return errh_valid(s, eh) &&
           (eh < 4 || ((Errh *)tab_at(&s->errhs, eh))->session == session);
}

int
MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh)
{
    ENTER("MPI_Comm_set_errhandler");
    Comm *c = comm_get(s, comm);
    if (!c)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);
    if (!errh_valid_for(s, eh, 0))
        return mpi_err(comm, MPI_ERR_ARG);
    c->eh = eh;
    return MPI_SUCCESS;
}

int
MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh)
{
    ENTER("MPI_Comm_get_errhandler");
    Comm *c = comm_get(s, comm);
    if (!c)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);
    *eh = c->eh;
    return MPI_SUCCESS;
}

int
MPI_Comm_call_errhandler(MPI_Comm comm, int code)
{
    ENTER("MPI_Comm_call_errhandler");
    mpi_err(comm, code);
    return MPI_SUCCESS;
}

/* the MPI-1 names (deprecated, as MPICH keeps them) */
int
MPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh)
{
    return MPI_Comm_create_errhandler(fn, eh);
}

int
MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh)
{
    return MPI_Comm_set_errhandler(comm, eh);
}

int
MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh)
{
    return MPI_Comm_get_errhandler(comm, eh);
}

int
MPI_Errhandler_free(MPI_Errhandler *eh)
{
    /* at any time, as MPI 4.0 has it (a session's may be made before any
     * initialization) */
    MpiState *s = mpi_enter_any("MPI_Errhandler_free");
    if (!s)
        return MPI_ERR_OTHER;
    if (!eh || !errh_valid(s, *eh))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    if (*eh >= 4)
        tab_free(&s->errhs, *eh);
    *eh = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

/* ---- info objects ----
 * As MPI 4.0 has it, the info calls work before MPI_Init and after MPI_Finalize too */

MpiState *
mpi_enter_any(const char *call)
{
    MpiState *s = mpi_state();
    if (s && !tr_agent()) {
        s->call = call;
        tr_call(call);
    }
    return s;
}

#define INFO_ENTER(name)                                                                 \
    MpiState *s = mpi_enter_any(name);                                                   \
    if (!s)                                                                              \
        return MPI_ERR_OTHER;

static Info *
info_get(MpiState *s, MPI_Info i)
{
    Info *f = tab_at(&s->infos, i);
    return i >= 1 && f && f->used ? f : NULL;
}

int
MPI_Info_create(MPI_Info *info)
{
    INFO_ENTER("MPI_Info_create");
    int i = tab_new(&s->infos, 2, sizeof(Info));
    ((Info *)tab_at(&s->infos, i))->used = 1;
    *info = i;
    return MPI_SUCCESS;
}

int
MPI_Info_free(MPI_Info *info)
{
    INFO_ENTER("MPI_Info_free");
    Info *f = info_get(s, *info);
    if (!f || *info < 2)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    for (int k = 0; k < f->n; k++) {
        mpi_free(f->kv[k].key);
        mpi_free(f->kv[k].val);
    }
    tab_free(&s->infos, *info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

static int
info_find(const Info *f, const char *key)
{
    for (int k = 0; k < f->n; k++)
        if (strcmp(f->kv[k].key, key) == 0)
            return k;
    return -1;
}

int
MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    INFO_ENTER("MPI_Info_set");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    if (!key || strlen(key) >= MPI_MAX_INFO_KEY || !*key)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO_KEY);
    if (!value || strlen(value) >= MPI_MAX_INFO_VAL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE);
    int k = info_find(f, key);
    if (k >= 0) {
        mpi_free(f->kv[k].val);
        f->kv[k].val = mpi_strdup(value);
        return MPI_SUCCESS;
    }
    if (f->n == 64)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    f->kv[f->n].key = mpi_strdup(key);
    f->kv[f->n].val = mpi_strdup(value);
    f->n++;
    return MPI_SUCCESS;
}

int
MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    INFO_ENTER("MPI_Info_get");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    int k = info_find(f, key);
    *flag = k >= 0;
    if (k >= 0)
        snprintf(value, (size_t)valuelen + 1, "%s", f->kv[k].val);
    return MPI_SUCCESS;
}

/* MPI 4.0's: *buflen the bytes value has (at most *buflen - 1 characters and the
 * terminating 0 are written); the value's length + 1 comes back in it */
int
MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    INFO_ENTER("MPI_Info_get_string");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    if (!key || !buflen || *buflen < 0 || !flag)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    int k = info_find(f, key);
    *flag = k >= 0;
    if (k < 0)
        return MPI_SUCCESS;
    int len = (int)strlen(f->kv[k].val);
    if (*buflen > 0 && value)
        snprintf(value, (size_t)*buflen, "%s", f->kv[k].val);
    *buflen = len + 1;
    return MPI_SUCCESS;
}

int
MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    INFO_ENTER("MPI_Info_get_valuelen");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    int k = info_find(f, key);
    *flag = k >= 0;
    if (k >= 0)
        *valuelen = (int)strlen(f->kv[k].val);
    return MPI_SUCCESS;
}

int
MPI_Info_delete(MPI_Info info, const char *key)
{
    INFO_ENTER("MPI_Info_delete");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    int k = info_find(f, key);
    if (k < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY);
    mpi_free(f->kv[k].key);
    mpi_free(f->kv[k].val);
    memmove(&f->kv[k], &f->kv[k + 1], (size_t)(f->n - k - 1) * sizeof f->kv[0]);
    f->n--;
    return MPI_SUCCESS;
}

int
MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    INFO_ENTER("MPI_Info_get_nkeys");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    *nkeys = f->n;
    return MPI_SUCCESS;
}

int
MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    INFO_ENTER("MPI_Info_get_nthkey");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    if (n < 0 || n >= f->n)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    strcpy(key, f->kv[n].key);
    return MPI_SUCCESS;
}

int
MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    INFO_ENTER("MPI_Info_dup");
    Info *f = info_get(s, info);
    if (!f)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_INFO);
    int e = MPI_Info_create(newinfo);
    if (e)
        return e;
    f = info_get(s, info);
    for (int k = 0; k < f->n; k++)
        MPI_Info_set(*newinfo, f->kv[k].key, f->kv[k].val);
    return MPI_SUCCESS;
}

/* MPI 4.0's: what the DSP was started with: command (argv[0]), argv (the arguments
 * after it, separated by spaces), maxprocs (the DSPs of the job), thread_level */
int
MPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    INFO_ENTER("MPI_Info_create_env");
    if (!info || argc < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    int e = MPI_Info_create(info);
    if (e)
        return e;
    char v[MPI_MAX_INFO_VAL];
    if (argc > 0 && argv && argv[0])
        MPI_Info_set(*info, "command", argv[0]);
    size_t n = 0;
    v[0] = 0;
    for (int i = 1; argv && i < argc && argv[i]; i++) {
        int k = snprintf(v + n, sizeof v - n, "%s%s", i > 1 ? " " : "", argv[i]);
        if (k < 0 || (size_t)k >= sizeof v - n)
            break;
        n += (size_t)k;
    }
    if (argc > 1)
        MPI_Info_set(*info, "argv", v);
    snprintf(v, sizeof v, "%d", tr_size());
    MPI_Info_set(*info, "maxprocs", v);
    MPI_Info_set(*info, "thread_level", "MPI_THREAD_FUNNELED");
    return MPI_SUCCESS;
}
