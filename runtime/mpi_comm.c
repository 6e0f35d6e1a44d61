/* mpi_comm.c: communicators (intra and inter), groups, attributes, Cartesian
 * topologies, and the start of the nonblocking collectives (nbc_start). A
 * communicator is a group of global ranks and two contexts (its point-to-point
 * messages and those of its collectives); the members of a new one agree on its
 * context as MPICH does, by the largest of what each proposes (ctx_propose), so a
 * context is never in use at two members that talk to each other. Part of the API
 * layer (mpi_int.h). */
#include "mpi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMM(var, h)                                                                     \
    Comm *var = comm_get(s, h);                                                          \
    if (!var)                                                                            \
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);

/* a new communicator of s (handle *h) with the local group g[0..n-1] (copied),
 * context ctx, the error handler eh (its parent's, as MPI has it); NULL if the caller
 * is not in g (then *h = MPI_COMM_NULL) */
static Comm *
comm_make(MpiState *s, const int *g, int n, int ctx, MPI_Errhandler eh, MPI_Comm *h)
{
    int me = -1;
    for (int i = 0; i < n; i++)
        if (g[i] == s->rank)
            me = i;
    if (me < 0) {
        *h = MPI_COMM_NULL;
        return NULL;
    }
    Comm *c = comm_slot(s, 3, h);
    c->ctx = ctx, c->cctx = ctx + 1, c->size = n, c->rank = me;
    c->eh = eh;
    c->g = mpi_alloc((size_t)n * sizeof(int));
    memcpy(c->g, g, (size_t)n * sizeof(int));
    return c;
}

/* the agreements of the communicator calls: the algorithms of coll.c on the local
 * group of c, messages in context ctx with tag `tag` */
static void
group_bcast(const Comm *c, int ctx, int tag, void *buf, size_t bytes, int root)
{
    CollGroup g = comm_group(c, ctx);
    coll_bcast(&g, tag, buf, bytes, root);
}

static void
group_allgather(const Comm *c, int ctx, int tag, const void *mine, void *all, size_t blk)
{
    CollGroup g = comm_group(c, ctx);
    coll_allgather(&g, tag, mine, all, blk);
}

/* *v becomes the largest of the members' */
static void
group_max(const Comm *c, int ctx, int tag, int *v)
{
    CollGroup g = comm_group(c, ctx);
    CollOp o = coll_basic_op(MPIRIO_INT, MPIRIO_MAX);
    int in = *v;
    coll_allreduce(&g, tag, &in, v, 1, &o);
}

/* The context this DSP proposes for a new communicator; the members agree on the
 * largest of theirs. A proposal is its count of proposals times the DSPs plus its
 * rank (pairs from 0x20000: point-to-point, collectives), so no two proposals of a
 * run are alike, and the largest of the members' for one new communicator is a
 * context that no other has, even where a DSP takes part in several agreements at
 * once (MPI_Comm_idup: operations in progress side by side, in any order). */
static int
ctx_propose(MpiState *s)
{
    long long n = tr_size(), v = 0x20000 + 2 * ((long long)s->nproposed * n + s->rank);
    if (v >= 0x7fff0000LL) { /* below MPI_COMM_SELF's */
        fprintf(stderr,
                "mpirio: DSP %d: no context left for a new communicator (%d made)\n",
                s->rank, s->nproposed);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    s->nproposed++;
    return (int)v;
}

/* the context of a new communicator made by every member of c (over c's collective
 * context, tag) */
static int
agree_ctx(MpiState *s, const Comm *c, int ctx, int tag)
{
    int v = ctx_propose(s);
    group_max(c, ctx, tag, &v);
    return v;
}

int
MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    ENTER("MPI_Comm_rank");
    COMM(c, comm);
    *rank = c->rank;
    return MPI_SUCCESS;
}

int
MPI_Comm_size(MPI_Comm comm, int *size)
{
    ENTER("MPI_Comm_size");
    COMM(c, comm);
    *size = c->size;
    return MPI_SUCCESS;
}

int
MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    ENTER("MPI_Comm_remote_size");
    COMM(c, comm);
    if (!c->inter)
        return mpi_err(comm, MPI_ERR_COMM);
    *size = c->rsize;
    return MPI_SUCCESS;
}

int
MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    ENTER("MPI_Comm_test_inter");
    COMM(c, comm);
    *flag = c->inter;
    return MPI_SUCCESS;
}

/* ---- attributes ---- */

static const int attr_tag_ub = MPIRIO_TAG_UB, attr_host = MPI_PROC_NULL,
                 attr_io = MPI_ANY_SOURCE, attr_wtime_global = 1, attr_appnum = 0;

int
MPIR_Comm_dup_fn(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    memcpy(out, &in, sizeof in);
    *flag = 1;
    return MPI_SUCCESS;
}

int
MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                       MPI_Comm_delete_attr_function *del, int *keyval, void *extra)
{
    ENTER("MPI_Comm_create_keyval");
    return keyval_new(s, KV_COMM, copy, del, extra, keyval);
}

int
MPI_Comm_free_keyval(int *keyval)
{
    ENTER("MPI_Comm_free_keyval");
    int e = keyval_free(s, KV_COMM, keyval);
    return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
}

int
MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    ENTER("MPI_Comm_set_attr");
    COMM(c, comm);
    int e = attr_set(s, &c->attrs, KV_COMM, comm, keyval, value);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag)
{
    ENTER("MPI_Comm_get_attr");
    COMM(c, comm);
    const int *p = NULL;
    static int universe[1];
    switch (keyval) {
    case MPI_TAG_UB:
        p = &attr_tag_ub;
        break;
    case MPI_HOST:
        p = &attr_host;
        break;
    case MPI_IO:
        p = &attr_io;
        break;
    case MPI_WTIME_IS_GLOBAL:
        p = &attr_wtime_global;
        break;
    case MPI_APPNUM:
        p = &attr_appnum;
        break;
    case MPI_UNIVERSE_SIZE:
        universe[0] = tr_size();
        p = universe;
        break;
    case MPI_LASTUSEDCODE:
        p = &s->lastused;
        break;
    default:
        break;
    }
    if (p) {
        *flag = 1;
        memcpy(value, &p, sizeof p);
        return MPI_SUCCESS;
    }
    int e = attr_get(s, &c->attrs, KV_COMM, keyval, value, flag);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    ENTER("MPI_Comm_delete_attr");
    COMM(c, comm);
    int e = attr_delete(s, &c->attrs, KV_COMM, comm, keyval);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval,
                  void *extra)
{
    return MPI_Comm_create_keyval(copy, del, keyval, extra);
}

int
MPI_Keyval_free(int *keyval)
{
    return MPI_Comm_free_keyval(keyval);
}

int
MPI_Attr_put(MPI_Comm comm, int keyval, void *value)
{
    return MPI_Comm_set_attr(comm, keyval, value);
}

int
MPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag)
{
    return MPI_Comm_get_attr(comm, keyval, value, flag);
}

int
MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return MPI_Comm_delete_attr(comm, keyval);
}

/* ---- creating and freeing communicators ---- */

/* n ints of a in new memory (NULL for NULL) */
static int *
ints_copy(const int *a, int n)
{
    if (!a)
        return NULL;
    int *b = mpi_alloc((size_t)n * sizeof(int) + 1);
    if (n)
        memcpy(b, a, (size_t)n * sizeof(int));
    return b;
}

static void
copy_topo(Comm *to, const Comm *from)
{
    to->topo = from->topo;
    to->ndims = from->ndims;
    to->dims = ints_copy(from->dims, from->ndims);
    to->periods = ints_copy(from->periods, from->ndims);
    to->nin = from->nin, to->nout = from->nout, to->weighted = from->weighted;
    to->ins = ints_copy(from->ins, from->nin);
    to->outs = ints_copy(from->outs, from->nout);
    to->inw = ints_copy(from->inw, from->nin);
    to->outw = ints_copy(from->outw, from->nout);
    to->nnodes = from->nnodes;
    to->index = ints_copy(from->index, from->nnodes);
    to->edges = ints_copy(from->edges, from->nnodes ? from->index[from->nnodes - 1] : 0);
}

int
MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    ENTER("MPI_Comm_dup");
    COMM(c, comm);
    int ctx;
    if (!c->inter)
        ctx = agree_ctx(s, c, c->cctx, T_CTX);
    else {
        /* both groups: each its maximum, the leaders exchange theirs */
        int v = ctx_propose(s);
        group_max(c, c->cctx, T_CTX, &v);
        if (c->rank == 0) {
            int w;
            Req *sr, *rr;
            tr_irecv(&w, sizeof w, c->rg[0], c->cctx, T_LEADERS, 1, &rr);
            tr_isend(&v, sizeof v, c->rg[0], c->cctx, T_LEADERS, c->rank, &sr);
            tr_wait(sr, NULL);
            tr_wait(rr, NULL);
            if (w > v)
                v = w;
        }
        group_bcast(c, c->cctx, T_CTX, &v, sizeof v, 0);
        ctx = v;
    }
    c = comm_get(s, comm);
    Comm *n = comm_make(s, c->g, c->size, ctx, c->eh, newcomm);
    c = comm_get(s, comm);
    if (c->inter) {
        n->inter = 1;
        n->rsize = c->rsize;
        n->rg = mpi_alloc((size_t)c->rsize * sizeof(int));
        memcpy(n->rg, c->rg, (size_t)c->rsize * sizeof(int));
    }
    copy_topo(n, c);
    int e = attr_copy(s, &c->attrs, &n->attrs, KV_COMM, comm);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    return MPI_Comm_dup(comm, newcomm);
}

static int
run_idup(Nbc *a)
{
    return MPI_Comm_dup(a->comm, a->newcomm);
}

/* MPI_Comm_dup as an operation in progress: *newcomm is the new communicator once
 * the request is complete */
int
MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
    ENTER("MPI_Comm_idup");
    if (!newcomm)
        return mpi_err(comm, MPI_ERR_ARG);
    Nbc a = {.run = run_idup, .comm = comm, .newcomm = newcomm};
    return nbc_start(s, &a, req);
}

int
MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *req)
{
    return MPI_Comm_idup(comm, newcomm, req);
}

/* ---- nonblocking collectives ---- */

/* the datatypes of a, held while it is in progress */
static void
nbc_hold(MpiState *s, Nbc *a, Comm *c)
{
    int n = comm_peers(c), k = 0;
    a->held = mpi_alloc((size_t)(2 * n + 2) * sizeof *a->held);
    MPI_Datatype one[2] = {a->stype, a->rtype};
    for (int i = 0; i < 2; i++)
        if (one[i] && (a->held[k] = type_get(s, one[i])))
            type_ref(a->held[k++]);
    for (int i = 0; i < n; i++) {
        if (a->stypes && (a->held[k] = type_get(s, a->stypes[i])))
            type_ref(a->held[k++]);
        if (a->rtypes && (a->held[k] = type_get(s, a->rtypes[i])))
            type_ref(a->held[k++]);
    }
    a->nheld = k;
}

/* the memory of communicator h (MPI_Comm_free, once no collective is in
 * progress), and its handle, to be given again */
static void
comm_release(Comm *c, MPI_Comm h)
{
    mpi_free(c->g);
    mpi_free(c->rg);
    mpi_free(c->dims);
    mpi_free(c->periods);
    mpi_free(c->ins);
    mpi_free(c->outs);
    mpi_free(c->inw);
    mpi_free(c->outw);
    mpi_free(c->index);
    mpi_free(c->edges);
    c->g = c->rg = c->dims = c->periods = c->ins = c->outs = NULL;
    c->inw = c->outw = c->index = c->edges = NULL;
    tab_free(&mpi_state()->comms, h);
}

/* nbc_start's and the operation's references to a: the last lets it go */
static void
nbc_drop(Nbc *a)
{
    if (--a->refs > 0)
        return;
    for (int i = 0; i < a->nheld; i++)
        type_unref(a->held[i]);
    mpi_free(a->held);
    if (--a->c->pending == 0 && a->c->freed)
        comm_release(a->c, a->comm);
    mpi_free(a);
}

/* the operation in progress (tr_spawn) */
static int
nbc_run(void *p)
{
    Nbc *a = p;
    a->err = a->run(a);
    a->done = 1;
    int e = a->err;
    nbc_drop(a);
    return e;
}

int
nbc_start(MpiState *s, const Nbc *in, MPI_Request *req)
{
    if (!req)
        return mpi_err(in->comm, MPI_ERR_ARG);
    *req = MPI_REQUEST_NULL;
    Comm *c = comm_get(s, in->comm);
    if (!c)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);
    Nbc *a = mpi_alloc(sizeof *a);
    *a = *in;
    a->c = c;
    a->refs = 2;
    nbc_hold(s, a, c);
    c->pending++;
    Rq *r = rq_new(s, RQ_COLL);
    r->active = 1;
    r->comm = in->comm;
    int lane = (int)(c->nbc++ % 0x7fffffffu) + 1;
    tr_spawn(lane, nbc_run, a, &r->tr);
    if (a->done && a->err) { /* found at once: no request */
        int e = a->err;
        tr_wait(r->tr, NULL);
        rq_free(s, r);
        nbc_drop(a);
        return mpi_err(in->comm, e);
    }
    nbc_drop(a);
    *req = r->self;
    return MPI_SUCCESS;
}

typedef struct Split {
    int color, key, rank;
} Split;

static int
split_cmp(const void *a, const void *b)
{
    const Split *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* the leaders of intercommunicator c swap bytes (mine to the remote leader, theirs
 * from it), then each leader gives its group what it got; every member calls */
void
inter_swap(const Comm *c, int tag, const void *mine, size_t mbytes, void *theirs,
           size_t tbytes)
{
    if (c->rank == 0) {
        Req *sr, *rr;
        tr_irecv(theirs, tbytes, c->rg[0], c->cctx, tag, 1, &rr);
        tr_isend(mine, mbytes, c->rg[0], c->cctx, tag, c->rank, &sr);
        tr_wait(sr, NULL);
        tr_wait(rr, NULL);
    }
    group_bcast(c, c->cctx, tag, theirs, tbytes, 0);
}

/* the members of one color in key order; their global ranks in g, the count */
static int
split_members(Split *all, int n, int color, const int *grp, int *g)
{
    int k = 0;
    Split *mine = mpi_alloc((size_t)n * sizeof *mine);
    for (int i = 0; i < n; i++)
        if (all[i].color == color)
            mine[k++] = all[i];
    qsort(mine, (size_t)k, sizeof *mine, split_cmp);
    for (int i = 0; i < k; i++)
        g[i] = grp[mine[i].rank];
    mpi_free(mine);
    return k;
}

/* MPI_Comm_split of an intercommunicator: the members of a color on each side make an
 * intercommunicator of their two groups (none if one side has none) */
static int
inter_split(MpiState *s, Comm *c, int color, int key, MPI_Comm *newcomm)
{
    Split me = {color, key, c->rank};
    Split *la = mpi_alloc((size_t)c->size * sizeof *la);
    Split *ra = mpi_alloc((size_t)c->rsize * sizeof *ra);
    group_allgather(c, c->cctx, T_SPLIT, &me, la, sizeof me);
    inter_swap(c, T_SPLIT, la, (size_t)c->size * sizeof *la, ra,
               (size_t)c->rsize * sizeof *ra);
    int v = ctx_propose(s), w = 0;
    group_max(c, c->cctx, T_CTX, &v);
    inter_swap(c, T_CTX, &v, sizeof v, &w, sizeof w);
    int ctx = v > w ? v : w;
    *newcomm = MPI_COMM_NULL;
    if (color != MPI_UNDEFINED) {
        int *lg = mpi_alloc((size_t)c->size * sizeof(int));
        int *rg = mpi_alloc((size_t)c->rsize * sizeof(int) + 1);
        int nl = split_members(la, c->size, color, c->g, lg);
        int nr = split_members(ra, c->rsize, color, c->rg, rg);
        if (nr > 0) {
            Comm *n = comm_make(s, lg, nl, ctx, c->eh, newcomm);
            n->inter = 1;
            n->rsize = nr;
            n->rg = rg;
        } else
            mpi_free(rg);
        mpi_free(lg);
    }
    mpi_free(la);
    mpi_free(ra);
    return MPI_SUCCESS;
}

int
MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    ENTER("MPI_Comm_split");
    COMM(c, comm);
    if (color < 0 && color != MPI_UNDEFINED)
        return mpi_err(comm, MPI_ERR_ARG);
    if (c->inter)
        return inter_split(s, c, color, key, newcomm);
    int n = c->size;
    Split me = {color, key, c->rank};
    Split *all = mpi_alloc((size_t)n * sizeof *all);
    group_allgather(c, c->cctx, T_SPLIT, &me, all, sizeof me);
    int ctx = agree_ctx(s, c, c->cctx, T_CTX);
    c = comm_get(s, comm);
    *newcomm = MPI_COMM_NULL;
    if (color != MPI_UNDEFINED) {
        Split *mine = mpi_alloc((size_t)n * sizeof *mine);
        int k = 0;
        for (int i = 0; i < n; i++)
            if (all[i].color == color)
                mine[k++] = all[i];
        qsort(mine, (size_t)k, sizeof *mine, split_cmp);
        int *g = mpi_alloc((size_t)k * sizeof(int));
        for (int i = 0; i < k; i++)
            g[i] = c->g[mine[i].rank];
        comm_make(s, g, k, ctx, c->eh, newcomm);
        mpi_free(g);
        mpi_free(mine);
    }
    mpi_free(all);
    return MPI_SUCCESS;
}

int
MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    /* MPI_COMM_TYPE_SHARED: the DSPs of one board share its memory */
    ENTER("MPI_Comm_split_type");
    COMM(c, comm);
    int color = type == MPI_UNDEFINED ? MPI_UNDEFINED : s->rank / tr_dsps_per_board();
    return MPI_Comm_split(comm, color, key, newcomm);
}

static Group *
group_get(MpiState *s, MPI_Group h)
{
    Group *g = tab_at(&s->groups, h);
    return g && g->used ? g : NULL;
}

int
MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    ENTER("MPI_Comm_create");
    COMM(c, comm);
    Group *g = group_get(s, group);
    if (!g)
        return mpi_err(comm, MPI_ERR_GROUP);
    if (c->inter) {
        /* each side gives a group of its own members: an intercommunicator of the two
         * (a split in which the members of the group have one color, in group order) */
        int at = -1;
        for (int i = 0; i < g->n; i++)
            if (g->g[i] == s->rank)
                at = i;
        return inter_split(s, c, at >= 0 ? 0 : MPI_UNDEFINED, at, newcomm);
    }
    int ctx = agree_ctx(s, c, c->cctx, T_CTX);
    g = group_get(s, group);
    comm_make(s, g->g, g->n, ctx, c->eh, newcomm);
    return MPI_SUCCESS;
}

int
comm_of_group(MpiState *s, MPI_Group group, int cctx, int tag, MPI_Errhandler eh,
              MPI_Comm *newcomm)
{
    Group *g = group_get(s, group);
    if (!g)
        return MPI_ERR_GROUP;
    /* only the members of the group take part: a communicator of them for the
     * agreement, in context cctx with a tag of tag's */
    int me = -1;
    for (int i = 0; i < g->n; i++)
        if (g->g[i] == s->rank)
            me = i;
    if (me < 0) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    Comm tmp = {0};
    tmp.size = g->n, tmp.rank = me, tmp.g = g->g;
    int ctx = agree_ctx(s, &tmp, cctx, T_GROUP + tag);
    g = group_get(s, group);
    comm_make(s, g->g, g->n, ctx, eh, newcomm);
    return MPI_SUCCESS;
}

int
MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    ENTER("MPI_Comm_create_group");
    COMM(c, comm);
    if (tag < 0 || tag > MPIRIO_TAG_UB - T_GROUP)
        return mpi_err(comm, MPI_ERR_TAG);
    int e = comm_of_group(s, group, c->cctx, tag, c->eh, newcomm);
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Comm_free(MPI_Comm *comm)
{
    ENTER("MPI_Comm_free");
    if (!comm || *comm <= MPI_COMM_SELF)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);
    COMM(c, *comm);
    int e = attr_clear(s, &c->attrs, *comm);
    if (e)
        return mpi_err(*comm, e);
    /* a collective in progress on it goes on: the communicator goes when it is over */
    if (c->pending)
        c->freed = 1;
    else
        comm_release(c, *comm);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int
MPI_Comm_disconnect(MPI_Comm *comm)
{
    return MPI_Comm_free(comm);
}

static int
same_members(const int *a, int na, const int *b, int nb)
{
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (int j = 0; j < nb && !found; j++)
            found = a[i] == b[j];
        if (!found)
            return 0;
    }
    return 1;
}

static int
group_cmp(const int *a, int na, const int *b, int nb)
{
    if (na == nb && memcmp(a, b, (size_t)na * sizeof(int)) == 0)
        return MPI_IDENT;
    return same_members(a, na, b, nb) ? MPI_SIMILAR : MPI_UNEQUAL;
}

int
MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result)
{
    ENTER("MPI_Comm_compare");
    COMM(x, a);
    COMM(y, b);
    if (a == b)
        *result = MPI_IDENT;
    else {
        int r = group_cmp(x->g, x->size, y->g, y->size);
        if (x->inter != y->inter)
            r = MPI_UNEQUAL;
        *result = r == MPI_IDENT ? MPI_CONGRUENT : r;
    }
    return MPI_SUCCESS;
}

int
MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    ENTER("MPI_Comm_set_name");
    COMM(c, comm);
    snprintf(c->name, sizeof c->name, "%s", name);
    return MPI_SUCCESS;
}

int
MPI_Comm_get_name(MPI_Comm comm, char *name, int *len)
{
    ENTER("MPI_Comm_get_name");
    COMM(c, comm);
    *len = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", c->name);
    return MPI_SUCCESS;
}

int
MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    ENTER("MPI_Comm_set_info");
    COMM(c, comm);
    return MPI_SUCCESS;
}

int
MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info)
{
    ENTER("MPI_Comm_get_info");
    COMM(c, comm);
    return MPI_Info_create(info);
}

/* ---- intercommunicators ---- */

int
MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader,
                     int tag, MPI_Comm *newcomm)
{
    ENTER("MPI_Intercomm_create");
    COMM(lc, local);
    if (lc->inter)
        return mpi_err(local, MPI_ERR_COMM);
    if (local_leader < 0 || local_leader >= lc->size)
        return mpi_err(local, MPI_ERR_RANK);
    int v = ctx_propose(s);
    group_max(lc, lc->cctx, T_CTX, &v);
    /* the leaders exchange their groups and contexts over peer */
    int *info = NULL, rsize = 0;
    lc = comm_get(s, local);
    if (lc->rank == local_leader) {
        Comm *pc = comm_get(s, peer);
        if (!pc)
            return mpi_err(local, MPI_ERR_COMM);
        if (remote_leader < 0 || remote_leader >= pc->size)
            return mpi_err(peer, MPI_ERR_RANK);
        int mine[2] = {v, lc->size}, theirs[2];
        int ptag = T_GROUP + (tag & 0xfffff);
        Req *sr, *rr;
        tr_irecv(theirs, sizeof theirs, pc->g[remote_leader], pc->cctx, ptag, 1, &rr);
        tr_isend(mine, sizeof mine, pc->g[remote_leader], pc->cctx, ptag, pc->rank, &sr);
        tr_wait(sr, NULL);
        tr_wait(rr, NULL);
        rsize = theirs[1];
        info = mpi_alloc((size_t)(rsize + 2) * sizeof(int));
        info[0] = theirs[0] > v ? theirs[0] : v;
        info[1] = rsize;
        tr_irecv(info + 2, (size_t)rsize * sizeof(int), pc->g[remote_leader], pc->cctx,
                 ptag, 1, &rr);
        tr_isend(lc->g, (size_t)lc->size * sizeof(int), pc->g[remote_leader], pc->cctx,
                 ptag, pc->rank, &sr);
        tr_wait(sr, NULL);
        tr_wait(rr, NULL);
    }
    int hdr[2] = {info ? info[0] : 0, rsize};
    group_bcast(lc, lc->cctx, T_LEADERS, hdr, sizeof hdr, local_leader);
    lc = comm_get(s, local);
    if (!info) {
        info = mpi_alloc((size_t)(hdr[1] + 2) * sizeof(int));
        info[0] = hdr[0], info[1] = hdr[1];
    }
    group_bcast(lc, lc->cctx, T_LEADERS, info + 2, (size_t)hdr[1] * sizeof(int),
                local_leader);
    lc = comm_get(s, local);
    Comm *n = comm_make(s, lc->g, lc->size, hdr[0], lc->eh, newcomm);
    n->inter = 1;
    n->rsize = hdr[1];
    n->rg = mpi_alloc((size_t)hdr[1] * sizeof(int) + 1);
    memcpy(n->rg, info + 2, (size_t)hdr[1] * sizeof(int));
    mpi_free(info);
    return MPI_SUCCESS;
}

int
MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newcomm)
{
    ENTER("MPI_Intercomm_merge");
    COMM(c, inter);
    if (!c->inter)
        return mpi_err(inter, MPI_ERR_COMM);
    int v[2] = {ctx_propose(s), high ? 1 : 0};
    group_max(c, c->cctx, T_MERGE, &v[0]);
    int w[2] = {0, 0};
    if (c->rank == 0) {
        Req *sr, *rr;
        tr_irecv(w, sizeof w, c->rg[0], c->cctx, T_LEADERS, 1, &rr);
        tr_isend(v, sizeof v, c->rg[0], c->cctx, T_LEADERS, c->rank, &sr);
        tr_wait(sr, NULL);
        tr_wait(rr, NULL);
    }
    group_bcast(c, c->cctx, T_MERGE, w, sizeof w, 0);
    int ctx = v[0] > w[0] ? v[0] : w[0];
    /* the low group first; with equal flags, the group of the smaller leader */
    int first_local = v[1] != w[1] ? !v[1] : c->g[0] < c->rg[0];
    int n = c->size + c->rsize;
    int *g = mpi_alloc((size_t)n * sizeof(int));
    const int *a = first_local ? c->g : c->rg, *b = first_local ? c->rg : c->g;
    int na = first_local ? c->size : c->rsize;
    memcpy(g, a, (size_t)na * sizeof(int));
    memcpy(g + na, b, (size_t)(n - na) * sizeof(int));
    comm_make(s, g, n, ctx, c->eh, newcomm);
    mpi_free(g);
    return MPI_SUCCESS;
}

/* ---- groups ---- */

static MPI_Group
group_new(MpiState *s, const int *g, int n)
{
    if (n == 0)
        return MPI_GROUP_EMPTY;
    int i = tab_new(&s->groups, 1, sizeof(Group));
    Group *gr = tab_at(&s->groups, i);
    gr->used = 1;
    gr->n = n;
    gr->g = mpi_alloc((size_t)n * sizeof(int));
    memcpy(gr->g, g, (size_t)n * sizeof(int));
    return i;
}

#define GROUP(var, h)                                                                    \
    Group *var = group_get(s, h);                                                        \
    if (!var)                                                                            \
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_GROUP);

int
MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    ENTER("MPI_Comm_group");
    COMM(c, comm);
    *group = group_new(s, c->g, c->size);
    return MPI_SUCCESS;
}

int
MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    ENTER("MPI_Comm_remote_group");
    COMM(c, comm);
    if (!c->inter)
        return mpi_err(comm, MPI_ERR_COMM);
    *group = group_new(s, c->rg, c->rsize);
    return MPI_SUCCESS;
}

int
MPI_Group_size(MPI_Group group, int *size)
{
    ENTER("MPI_Group_size");
    GROUP(g, group);
    *size = g->n;
    return MPI_SUCCESS;
}

static int
group_rank_of(const Group *g, int global)
{
    for (int i = 0; i < g->n; i++)
        if (g->g[i] == global)
            return i;
    return MPI_UNDEFINED;
}

int
MPI_Group_rank(MPI_Group group, int *rank)
{
    ENTER("MPI_Group_rank");
    GROUP(g, group);
    *rank = group_rank_of(g, s->rank);
    return MPI_SUCCESS;
}

int
MPI_Group_free(MPI_Group *group)
{
    ENTER("MPI_Group_free");
    GROUP(g, *group);
    if (*group != MPI_GROUP_EMPTY) {
        mpi_free(g->g);
        tab_free(&s->groups, *group);
    }
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

int
MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    ENTER("MPI_Group_incl");
    GROUP(g, group);
    if (n < 0 || n > g->n)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    int *r = mpi_alloc((size_t)n * sizeof(int) + 1);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->n) {
            mpi_free(r);
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_RANK);
        }
        r[i] = g->g[ranks[i]];
    }
    *newgroup = group_new(s, r, n);
    mpi_free(r);
    return MPI_SUCCESS;
}

int
MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    ENTER("MPI_Group_excl");
    GROUP(g, group);
    if (n < 0 || n > g->n)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    char *out = mpi_alloc((size_t)g->n + 1);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->n) {
            mpi_free(out);
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_RANK);
        }
        out[ranks[i]] = 1;
    }
    int *r = mpi_alloc((size_t)g->n * sizeof(int) + 1), k = 0;
    for (int i = 0; i < g->n; i++)
        if (!out[i])
            r[k++] = g->g[i];
    *newgroup = group_new(s, r, k);
    mpi_free(r);
    mpi_free(out);
    return MPI_SUCCESS;
}

/* the ranks of ranges (first, last, stride) in order; -1 if one is invalid */
static int
range_ranks(const Group *g, int n, int ranges[][3], int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int f = ranges[i][0], l = ranges[i][1], st = ranges[i][2];
        if (st == 0 || f < 0 || f >= g->n || l < 0 || l >= g->n)
            return -1;
        for (int r = f; st > 0 ? r <= l : r >= l; r += st) {
            if (k >= g->n)
                return -1;
            out[k++] = r;
        }
    }
    return k;
}

int
MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    ENTER("MPI_Group_range_incl");
    GROUP(g, group);
    int *r = mpi_alloc((size_t)g->n * sizeof(int) + 1);
    int k = range_ranks(g, n, ranges, r);
    if (k < 0) {
        mpi_free(r);
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_RANK);
    }
    for (int i = 0; i < k; i++)
        r[i] = g->g[r[i]];
    *newgroup = group_new(s, r, k);
    mpi_free(r);
    return MPI_SUCCESS;
}

int
MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    ENTER("MPI_Group_range_excl");
    GROUP(g, group);
    int *r = mpi_alloc((size_t)g->n * sizeof(int) + 1);
    int k = range_ranks(g, n, ranges, r);
    if (k < 0) {
        mpi_free(r);
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_RANK);
    }
    int rc = MPI_Group_excl(group, k, r, newgroup);
    mpi_free(r);
    return rc;
}

int
MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
    ENTER("MPI_Group_union");
    GROUP(x, a);
    GROUP(y, b);
    int *r = mpi_alloc((size_t)(x->n + y->n) * sizeof(int) + 1), k = 0;
    for (int i = 0; i < x->n; i++)
        r[k++] = x->g[i];
    for (int i = 0; i < y->n; i++)
        if (group_rank_of(x, y->g[i]) == MPI_UNDEFINED)
            r[k++] = y->g[i];
    *newgroup = group_new(s, r, k);
    mpi_free(r);
    return MPI_SUCCESS;
}

int
MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
    ENTER("MPI_Group_intersection");
    GROUP(x, a);
    GROUP(y, b);
    int *r = mpi_alloc((size_t)x->n * sizeof(int) + 1), k = 0;
    for (int i = 0; i < x->n; i++)
        if (group_rank_of(y, x->g[i]) != MPI_UNDEFINED)
            r[k++] = x->g[i];
    *newgroup = group_new(s, r, k);
    mpi_free(r);
    return MPI_SUCCESS;
}

int
MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *newgroup)
{
    ENTER("MPI_Group_difference");
    GROUP(x, a);
    GROUP(y, b);
    int *r = mpi_alloc((size_t)x->n * sizeof(int) + 1), k = 0;
    for (int i = 0; i < x->n; i++)
        if (group_rank_of(y, x->g[i]) == MPI_UNDEFINED)
            r[k++] = x->g[i];
    *newgroup = group_new(s, r, k);
    mpi_free(r);
    return MPI_SUCCESS;
}

int
MPI_Group_compare(MPI_Group a, MPI_Group b, int *result)
{
    ENTER("MPI_Group_compare");
    GROUP(x, a);
    GROUP(y, b);
    *result = group_cmp(x->g, x->n, y->g, y->n);
    return MPI_SUCCESS;
}

int
MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[], MPI_Group b,
                          int ranks_b[])
{
    ENTER("MPI_Group_translate_ranks");
    GROUP(x, a);
    GROUP(y, b);
    for (int i = 0; i < n; i++) {
        if (ranks_a[i] == MPI_PROC_NULL) {
            ranks_b[i] = MPI_PROC_NULL;
            continue;
        }
        if (ranks_a[i] < 0 || ranks_a[i] >= x->n)
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_RANK);
        ranks_b[i] = group_rank_of(y, x->g[ranks_a[i]]);
    }
    return MPI_SUCCESS;
}

/* ---- Cartesian topologies ---- */

/* the divisors of n (>= 1), ascending, in *d (malloc'd) */
static void
dims_divisors(int n, int **d, int *nd)
{
    int cap = 64, k = 0;
    int *lo = malloc((size_t)cap * sizeof(int)), *hi = malloc((size_t)cap * sizeof(int));
    int nh = 0;
    for (long long p = 1; lo && hi && p * p <= n; p++)
        if (n % p == 0) {
            if (k == cap || nh == cap) {
                cap *= 2;
                lo = realloc(lo, (size_t)cap * sizeof(int));
                hi = realloc(hi, (size_t)cap * sizeof(int));
                if (!lo || !hi)
                    break;
            }
            lo[k++] = (int)p;
            if (p * p != n)
                hi[nh++] = (int)(n / p);
        }
    if (lo && hi && (lo = realloc(lo, (size_t)(k + nh + 1) * sizeof(int))))
        for (int i = nh - 1; i >= 0; i--)
            lo[k++] = hi[i];
    free(hi);
    *d = lo;
    *nd = k;
}

/* the largest r with r^k <= n (n >= 1, k >= 1) */
static int
iroot(int n, int k)
{
    int lo = 1, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        long long p = 1;
        for (int i = 0; i < k && p <= n; i++)
            p *= mid;
        if (p <= n)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* is the factorization a (non-increasing, n factors) more balanced than b: its first
 * and last factor closer, or as close and its smallest factors larger, from the last
 * one up (as MPICH's choice) */
static int
dims_better(const int *a, const int *b, int n)
{
    if (a[0] - a[n - 1] != b[0] - b[n - 1])
        return a[0] - a[n - 1] < b[0] - b[n - 1];
    for (int i = n - 1; i > 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 0;
}

/* dims try[at..] for the rest rem, each a divisor no larger than divs[top] (the
 * factorization in non-increasing order); the best so far in out (*found: there is
 * one) */
static void
dims_search(int rem, const int *divs, int top, int n, int at, int *try, int *out,
            int *found)
{
    if (at == n - 1) {
        if (rem > divs[top])
            return;
        try[at] = rem;
        if (!*found || dims_better(try, out, n)) {
            *found = 1;
            memcpy(out, try, (size_t)n * sizeof(int));
        }
        return;
    }
    int root = iroot(rem, n - at);
    for (int k = top; k >= 0; k--) {
        int f = divs[k];
        if (rem % f)
            continue;
        /* the n - at factors left are at most f: their product too small */
        long long pw = 1;
        for (int i = at; i < n && pw < rem; i++)
            pw *= f;
        if (pw < rem)
            break;
        /* the last factor is at most f, and at most the (n - at)-th root of rem: the
         * first differs from it by at least that much (more for a smaller f) */
        int last = f < root ? f : root, first = at ? try[0] : f;
        if (*found && first - last > out[0] - out[n - 1]) {
            if (at)
                break;
            continue;
        }
        try[at] = f;
        dims_search(rem / f, divs, k, n, at + 1, try, out, found);
    }
}

int
MPI_Dims_create(int nnodes, int ndims, int dims[])
{
    if (nnodes < 1 || ndims < 0)
        return MPI_ERR_DIMS;
    int fixed = 1, free_dims = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPI_ERR_DIMS;
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            free_dims++;
    }
    if (nnodes % fixed)
        return MPI_ERR_DIMS;
    int rest = nnodes / fixed;
    if (!free_dims)
        return rest == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
    /* the most balanced of the non-increasing factorizations of rest into free_dims
     * factors (dims_better) */
    int *divs = NULL, nd = 0;
    dims_divisors(rest, &divs, &nd);
    int *v = malloc(2 * (size_t)free_dims * sizeof(int));
    if (!v || !divs)
        abort();
    int found = 0;
    dims_search(rest, divs, nd - 1, free_dims, 0, v + free_dims, v, &found);
    free(divs);
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = v[k++];
    free(v);
    return MPI_SUCCESS;
}

int
MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                int reorder, MPI_Comm *newcomm)
{
    ENTER("MPI_Cart_create");
    COMM(c, comm);
    if (ndims < 0 || c->inter)
        return mpi_err(comm, MPI_ERR_ARG);
    int n = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return mpi_err(comm, MPI_ERR_DIMS);
        n *= dims[i];
    }
    if (n > c->size)
        return mpi_err(comm, MPI_ERR_TOPOLOGY);
    int ctx = agree_ctx(s, c, c->cctx, T_CTX);
    c = comm_get(s, comm);
    Comm *nc = comm_make(s, c->g, n, ctx, c->eh, newcomm);
    if (nc) {
        nc->topo = MPI_CART;
        nc->ndims = ndims;
        nc->dims = mpi_alloc((size_t)ndims * sizeof(int) + 1);
        nc->periods = mpi_alloc((size_t)ndims * sizeof(int) + 1);
        for (int i = 0; i < ndims; i++) {
            nc->dims[i] = dims[i];
            nc->periods[i] = periods[i] != 0;
        }
    }
    return MPI_SUCCESS;
}

#define CART(var, h)                                                                     \
    COMM(var, h);                                                                        \
    if (var->topo != MPI_CART)                                                           \
        return mpi_err(h, MPI_ERR_TOPOLOGY);

int
MPI_Topo_test(MPI_Comm comm, int *status)
{
    ENTER("MPI_Topo_test");
    COMM(c, comm);
    *status = c->topo ? c->topo : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int
MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    ENTER("MPI_Cartdim_get");
    CART(c, comm);
    *ndims = c->ndims;
    return MPI_SUCCESS;
}

static void
coords_of(const Comm *c, int rank, int *coords)
{
    for (int i = c->ndims - 1; i >= 0; i--) {
        coords[i] = rank % c->dims[i];
        rank /= c->dims[i];
    }
}

int
MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    ENTER("MPI_Cart_get");
    CART(c, comm);
    int co[64];
    coords_of(c, c->rank, co);
    for (int i = 0; i < maxdims && i < c->ndims; i++) {
        dims[i] = c->dims[i];
        periods[i] = c->periods[i];
        coords[i] = co[i];
    }
    return MPI_SUCCESS;
}

int
MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    ENTER("MPI_Cart_rank");
    CART(c, comm);
    int r = 0;
    for (int i = 0; i < c->ndims; i++) {
        int x = coords[i];
        if (c->periods[i])
            x = ((x % c->dims[i]) + c->dims[i]) % c->dims[i];
        else if (x < 0 || x >= c->dims[i])
            return mpi_err(comm, MPI_ERR_ARG);
        r = r * c->dims[i] + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}

int
MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    ENTER("MPI_Cart_coords");
    CART(c, comm);
    if (rank < 0 || rank >= c->size)
        return mpi_err(comm, MPI_ERR_RANK);
    int co[64];
    coords_of(c, rank, co);
    for (int i = 0; i < maxdims && i < c->ndims; i++)
        coords[i] = co[i];
    return MPI_SUCCESS;
}

int
MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source, int *dest)
{
    ENTER("MPI_Cart_shift");
    CART(c, comm);
    if (direction < 0 || direction >= c->ndims)
        return mpi_err(comm, MPI_ERR_ARG);
    int co[64];
    coords_of(c, c->rank, co);
    int d = c->dims[direction], x = co[direction];
    for (int k = 0; k < 2; k++) {
        int y = x + (k ? disp : -disp);
        int *out = k ? dest : source;
        if (c->periods[direction])
            y = ((y % d) + d) % d;
        else if (y < 0 || y >= d) {
            *out = MPI_PROC_NULL;
            continue;
        }
        int r = 0;
        for (int i = 0; i < c->ndims; i++)
            r = r * c->dims[i] + (i == direction ? y : co[i]);
        *out = r;
    }
    return MPI_SUCCESS;
}

int
MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm *newcomm)
{
    ENTER("MPI_Cart_sub");
    CART(c, comm);
    int co[64], color = 0, key = 0, nd = 0, dims[64], periods[64];
    coords_of(c, c->rank, co);
    for (int i = 0; i < c->ndims; i++) {
        if (remain[i]) {
            key = key * c->dims[i] + co[i];
            dims[nd] = c->dims[i];
            periods[nd++] = c->periods[i];
        } else
            color = color * c->dims[i] + co[i];
    }
    int e = MPI_Comm_split(comm, color, key, newcomm);
    if (e)
        return e;
    Comm *n = comm_get(s, *newcomm);
    n->topo = MPI_CART;
    n->ndims = nd;
    n->dims = mpi_alloc((size_t)nd * sizeof(int) + 1);
    n->periods = mpi_alloc((size_t)nd * sizeof(int) + 1);
    memcpy(n->dims, dims, (size_t)nd * sizeof(int));
    memcpy(n->periods, periods, (size_t)nd * sizeof(int));
    return MPI_SUCCESS;
}

int
MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                               const int sourceweights[], int outdegree,
                               const int destinations[], const int destweights[],
                               MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    ENTER("MPI_Dist_graph_create_adjacent");
    COMM(c, comm);
    if (c->inter || indegree < 0 || outdegree < 0)
        return mpi_err(comm, MPI_ERR_ARG);
    for (int i = 0; i < indegree; i++)
        if (sources[i] < 0 || sources[i] >= c->size)
            return mpi_err(comm, MPI_ERR_RANK);
    for (int i = 0; i < outdegree; i++)
        if (destinations[i] < 0 || destinations[i] >= c->size)
            return mpi_err(comm, MPI_ERR_RANK);
    int weighted = sourceweights != MPI_UNWEIGHTED;
    if (weighted != (destweights != MPI_UNWEIGHTED))
        return mpi_err(comm, MPI_ERR_ARG);
    if (weighted &&
        ((indegree && (!sourceweights || sourceweights == MPI_WEIGHTS_EMPTY)) ||
         (outdegree && (!destweights || destweights == MPI_WEIGHTS_EMPTY))))
        return mpi_err(comm, MPI_ERR_ARG);
    int ctx = agree_ctx(s, c, c->cctx, T_CTX);
    c = comm_get(s, comm);
    Comm *n = comm_make(s, c->g, c->size, ctx, c->eh, newcomm);
    n->topo = MPI_DIST_GRAPH;
    n->nin = indegree, n->nout = outdegree;
    n->ins = ints_copy(sources, indegree);
    n->outs = ints_copy(destinations, outdegree);
    if ((n->weighted = weighted)) {
        n->inw = indegree ? ints_copy(sourceweights, indegree) : NULL;
        n->outw = outdegree ? ints_copy(destweights, outdegree) : NULL;
    }
    return MPI_SUCCESS;
}

int
MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                               int *weighted)
{
    ENTER("MPI_Dist_graph_neighbors_count");
    COMM(c, comm);
    if (c->topo != MPI_DIST_GRAPH)
        return mpi_err(comm, MPI_ERR_TOPOLOGY);
    *indegree = c->nin, *outdegree = c->nout, *weighted = c->weighted;
    return MPI_SUCCESS;
}

int
MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                         int sourceweights[], int maxoutdegree, int destinations[],
                         int destweights[])
{
    ENTER("MPI_Dist_graph_neighbors");
    COMM(c, comm);
    if (c->topo != MPI_DIST_GRAPH)
        return mpi_err(comm, MPI_ERR_TOPOLOGY);
    int sw = c->weighted && sourceweights != MPI_UNWEIGHTED && sourceweights,
        dw = c->weighted && destweights != MPI_UNWEIGHTED && destweights;
    for (int i = 0; i < c->nin && i < maxindegree; i++) {
        sources[i] = c->ins[i];
        if (sw)
            sourceweights[i] = c->inw[i];
    }
    for (int i = 0; i < c->nout && i < maxoutdegree; i++) {
        destinations[i] = c->outs[i];
        if (dw)
            destweights[i] = c->outw[i];
    }
    return MPI_SUCCESS;
}

/* An edge of MPI_Dist_graph_create: each goes to its source and its destination */
typedef struct Edge {
    int src, dst, w;
} Edge;

int
MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                      const int destinations[], const int weights[], MPI_Info info,
                      int reorder, MPI_Comm *newcomm)
{
    ENTER("MPI_Dist_graph_create");
    COMM(c, comm);
    if (c->inter || n < 0)
        return mpi_err(comm, MPI_ERR_ARG);
    long long ne = 0;
    for (int i = 0; i < n; i++) {
        if (sources[i] < 0 || sources[i] >= c->size)
            return mpi_err(comm, MPI_ERR_RANK);
        if (degrees[i] < 0)
            return mpi_err(comm, MPI_ERR_ARG);
        ne += degrees[i];
    }
    if (ne > 0x7fffffff / (long long)sizeof(Edge))
        return mpi_err(comm, MPI_ERR_ARG);
    for (long long k = 0; k < ne; k++)
        if (destinations[k] < 0 || destinations[k] >= c->size)
            return mpi_err(comm, MPI_ERR_RANK);
    int weighted = weights != MPI_UNWEIGHTED;
    if (weighted && ne && (!weights || weights == MPI_WEIGHTS_EMPTY))
        return mpi_err(comm, MPI_ERR_ARG);
    int sz = c->size, me = c->rank;
    /* the edges for each member, in the order given: those it is an end of */
    int *cnt = mpi_alloc(2 * (size_t)sz * sizeof(int)), *got = cnt + sz;
    Edge *e = mpi_alloc((size_t)ne * sizeof(Edge) + 1);
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++) {
            e[k] = (Edge){sources[i], destinations[k], weighted ? weights[k] : 1};
            cnt[e[k].src]++;
            if (e[k].dst != e[k].src)
                cnt[e[k].dst]++;
        }
    Edge **out = mpi_alloc((size_t)sz * sizeof *out),
         **in = mpi_alloc((size_t)sz * sizeof *in);
    for (int p = 0; p < sz; p++) {
        out[p] = mpi_alloc((size_t)cnt[p] * sizeof(Edge) + 1);
        int m = 0;
        for (long long k = 0; k < ne; k++)
            if (e[k].src == p || e[k].dst == p)
                out[p][m++] = e[k];
    }
    /* how many each sends each, whether any gave weights, then the edges */
    CollGroup g = comm_group(c, c->cctx);
    coll_alltoall(&g, T_GRAPH, cnt, got, sizeof(int));
    group_max(c, c->cctx, T_GRAPH, &weighted);
    Req **rr = mpi_alloc(2 * (size_t)sz * sizeof *rr), **sr = rr + sz;
    for (int p = 0; p < sz; p++) {
        in[p] = mpi_alloc((size_t)got[p] * sizeof(Edge) + 1);
        if (p != me && got[p])
            tr_irecv(in[p], (size_t)got[p] * sizeof(Edge), c->g[p], c->cctx, T_GRAPH, 0,
                     &rr[p]);
    }
    for (int p = 0; p < sz; p++)
        if (p != me && cnt[p])
            tr_isend(out[p], (size_t)cnt[p] * sizeof(Edge), c->g[p], c->cctx, T_GRAPH, me,
                     &sr[p]);
    if (got[me])
        memcpy(in[me], out[me], (size_t)got[me] * sizeof(Edge));
    for (int p = 0; p < sz; p++)
        if (p != me) {
            if (cnt[p])
                tr_wait(sr[p], NULL);
            if (got[p])
                tr_wait(rr[p], NULL);
        }
    /* this member's neighbours, in the order of the members that gave the edges */
    int nin = 0, nout = 0;
    for (int p = 0; p < sz; p++)
        for (int k = 0; k < got[p]; k++)
            nin += in[p][k].dst == me, nout += in[p][k].src == me;
    int *ins = mpi_alloc((size_t)nin * sizeof(int) + 1),
        *inw = mpi_alloc((size_t)nin * sizeof(int) + 1);
    int *outs = mpi_alloc((size_t)nout * sizeof(int) + 1),
        *outw = mpi_alloc((size_t)nout * sizeof(int) + 1);
    nin = nout = 0;
    for (int p = 0; p < sz; p++)
        for (int k = 0; k < got[p]; k++) {
            const Edge *x = &in[p][k];
            if (x->dst == me)
                ins[nin] = x->src, inw[nin++] = x->w;
            if (x->src == me)
                outs[nout] = x->dst, outw[nout++] = x->w;
        }
    for (int p = 0; p < sz; p++)
        mpi_free(in[p]), mpi_free(out[p]);
    mpi_free(in), mpi_free(out), mpi_free(rr), mpi_free(e), mpi_free(cnt);
    int ctx = agree_ctx(s, c, c->cctx, T_CTX);
    c = comm_get(s, comm);
    Comm *nc = comm_make(s, c->g, c->size, ctx, c->eh, newcomm);
    nc->topo = MPI_DIST_GRAPH;
    nc->nin = nin, nc->nout = nout, nc->ins = ins, nc->outs = outs;
    if ((nc->weighted = weighted != 0))
        nc->inw = inw, nc->outw = outw;
    else
        mpi_free(inw), mpi_free(outw);
    return MPI_SUCCESS;
}

/* ---- the graph topology of MPI-1: the neighbours of node i are
 * edges[index[i - 1] .. index[i]) ---- */

int
MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                 int reorder, MPI_Comm *newcomm)
{
    ENTER("MPI_Graph_create");
    COMM(c, comm);
    if (c->inter)
        return mpi_err(comm, MPI_ERR_COMM);
    if (nnodes < 0 || nnodes > c->size)
        return mpi_err(comm, MPI_ERR_ARG);
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return mpi_err(comm, MPI_ERR_ARG);
    int ne = nnodes ? index[nnodes - 1] : 0;
    for (int k = 0; k < ne; k++)
        if (edges[k] < 0 || edges[k] >= nnodes)
            return mpi_err(comm, MPI_ERR_ARG);
    int ctx = agree_ctx(s, c, c->cctx, T_CTX);
    c = comm_get(s, comm);
    /* the first nnodes members (no reordering); none if nnodes is 0 */
    Comm *n = comm_make(s, c->g, nnodes, ctx, c->eh, newcomm);
    if (n) {
        n->topo = MPI_GRAPH;
        n->nnodes = nnodes;
        n->index = ints_copy(index, nnodes);
        n->edges = ints_copy(edges, ne);
    }
    return MPI_SUCCESS;
}

#define GRAPH(var, h)                                                                    \
    COMM(var, h);                                                                        \
    if (var->topo != MPI_GRAPH)                                                          \
        return mpi_err(h, MPI_ERR_TOPOLOGY);

int
MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    ENTER("MPI_Graphdims_get");
    GRAPH(c, comm);
    *nnodes = c->nnodes;
    *nedges = c->index[c->nnodes - 1];
    return MPI_SUCCESS;
}

int
MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    ENTER("MPI_Graph_get");
    GRAPH(c, comm);
    if (maxindex < 0 || maxedges < 0)
        return mpi_err(comm, MPI_ERR_ARG);
    for (int i = 0; i < maxindex && i < c->nnodes; i++)
        index[i] = c->index[i];
    for (int k = 0; k < maxedges && k < c->index[c->nnodes - 1]; k++)
        edges[k] = c->edges[k];
    return MPI_SUCCESS;
}

int
MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    ENTER("MPI_Graph_neighbors_count");
    GRAPH(c, comm);
    if (rank < 0 || rank >= c->nnodes)
        return mpi_err(comm, MPI_ERR_RANK);
    *nneighbors = c->index[rank] - (rank ? c->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

int
MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    ENTER("MPI_Graph_neighbors");
    GRAPH(c, comm);
    if (rank < 0 || rank >= c->nnodes)
        return mpi_err(comm, MPI_ERR_RANK);
    int first = rank ? c->index[rank - 1] : 0;
    for (int k = first; k < c->index[rank] && k - first < maxneighbors; k++)
        neighbors[k - first] = c->edges[k];
    return MPI_SUCCESS;
}

int
MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
              int *newrank)
{
    ENTER("MPI_Graph_map");
    COMM(c, comm);
    if (nnodes < 1 || nnodes > c->size)
        return mpi_err(comm, MPI_ERR_ARG);
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* the neighbours of a topology in MPI's order: a Cartesian one's are, per dimension,
 * the source and the destination of MPI_Cart_shift(d, 1) (MPI_PROC_NULL at an edge);
 * 0, or -1 for a communicator without a topology. The lists are allocated. */
int
comm_neighbors(const Comm *c, int *nin, int **ins, int *nout, int **outs)
{
    if (c->topo == MPI_GRAPH) { /* its neighbours are the sources and destinations */
        int first = c->rank ? c->index[c->rank - 1] : 0, k = c->index[c->rank] - first;
        *nin = *nout = k;
        *ins = ints_copy(c->edges + first, k);
        *outs = ints_copy(c->edges + first, k);
        return 0;
    }
    if (c->topo == MPI_DIST_GRAPH) {
        *nin = c->nin, *nout = c->nout;
        *ins = mpi_alloc((size_t)c->nin * sizeof(int) + 1);
        *outs = mpi_alloc((size_t)c->nout * sizeof(int) + 1);
        memcpy(*ins, c->ins, (size_t)c->nin * sizeof(int));
        memcpy(*outs, c->outs, (size_t)c->nout * sizeof(int));
        return 0;
    }
    if (c->topo != MPI_CART)
        return -1;
    int n = 2 * c->ndims;
    int *l = mpi_alloc((size_t)n * sizeof(int) + 1), co[64];
    coords_of(c, c->rank, co);
    for (int d = 0; d < c->ndims; d++)
        for (int k = 0; k < 2; k++) {
            int y = co[d] + (k ? 1 : -1), dd = c->dims[d];
            if (c->periods[d])
                y = ((y % dd) + dd) % dd;
            else if (y < 0 || y >= dd) {
                l[2 * d + k] = MPI_PROC_NULL;
                continue;
            }
            int r = 0;
            for (int i = 0; i < c->ndims; i++)
                r = r * c->dims[i] + (i == d ? y : co[i]);
            l[2 * d + k] = r;
        }
    *nin = *nout = n;
    *ins = l;
    *outs = mpi_alloc((size_t)n * sizeof(int) + 1);
    memcpy(*outs, l, (size_t)n * sizeof(int));
    return 0;
}

int
MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
             int *newrank)
{
    ENTER("MPI_Cart_map");
    COMM(c, comm);
    int n = 1;
    for (int i = 0; i < ndims; i++)
        n *= dims[i];
    *newrank = c->rank < n ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
