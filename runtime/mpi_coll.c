/* mpi_coll.c: MPI collectives and reduction operators. On intracommunicators Barrier,
 * Bcast, Gather, Scatter, Allgather, Alltoall, Reduce and Allreduce are the algorithms
 * of coll.c, those of the MPIRIO collectives (api.c): in the in-switch family on
 * MPI_COMM_WORLD and MPI_COMM_LOCAL the transport's (of the operators and types the
 * switches know), else MPICH's over point-to-point in the communicator's collective
 * context. The v and w variants, the reduce-scatters and the collectives of
 * intercommunicators are MPICH's linear exchanges (and coll.c's trees on the local
 * group), the scans a chain. Data moves packed; reductions work on the packed
 * elements. Below mpi_nbc.c, the nonblocking collectives (mpi_int.h): it calls the
 * files below it, and only mpi_nbc.c calls it. */
#include "mpi_int.h"

#include <complex.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

/* ---- reduction operators ---- */

__extension__ typedef __int128 Int128;           /* MPI_INTEGER16 */
__extension__ typedef unsigned __int128 UInt128; /* its bits */

enum { K_INT, K_UINT, K_FLOAT, K_COMPLEX, K_BYTE, K_BOOL, K_PAIR };

static int
kind_of(int basic)
{
    switch (basic) {
    case MPI_CHAR:
    case MPI_SIGNED_CHAR:
    case MPI_SHORT:
    case MPI_INT:
    case MPI_LONG:
    case MPI_LONG_LONG:
    case MPI_INT8_T:
    case MPI_INT16_T:
    case MPI_INT32_T:
    case MPI_INT64_T:
    case MPI_AINT:
    case MPI_OFFSET:
    case MPI_COUNT:
    case MPI_WCHAR:
    case MPI_INTEGER16:
        return K_INT;
    case MPI_UNSIGNED_CHAR:
    case MPI_UNSIGNED_SHORT:
    case MPI_UNSIGNED:
    case MPI_UNSIGNED_LONG:
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_UINT8_T:
    case MPI_UINT16_T:
    case MPI_UINT32_T:
    case MPI_UINT64_T:
        return K_UINT;
    case MPI_FLOAT:
    case MPI_DOUBLE:
    case MPI_LONG_DOUBLE:
        return K_FLOAT;
    case MPI_C_FLOAT_COMPLEX:
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_C_LONG_DOUBLE_COMPLEX:
        return K_COMPLEX;
    case MPI_BYTE:
        return K_BYTE;
    case MPI_C_BOOL:
        return K_BOOL;
    case MPI_FLOAT_INT:
    case MPI_DOUBLE_INT:
    case MPI_LONG_INT:
    case MPI_2INT:
    case MPI_SHORT_INT:
    case MPI_LONG_DOUBLE_INT:
        return K_PAIR;
    default:
        return -1;
    }
}

int
op_commutes(MpiState *s, MPI_Op op)
{
    if (op >= 16) {
        Op *o = tab_at(&s->ops, op);
        return o && o->commute;
    }
    return 1;
}

int
op_valid(MpiState *s, MPI_Op op, const Type *t)
{
    if (op >= 16) {
        Op *o = tab_at(&s->ops, op);
        return o && o->used && o->fn;
    }
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return 1;
    if (t->size == 0)
        return op >= MPI_SUM && op <= MPI_MAXLOC;
    int k = kind_of(t->basic);
    switch (op) {
    case MPI_SUM:
    case MPI_PROD:
        return k == K_INT || k == K_UINT || k == K_FLOAT || k == K_COMPLEX;
    case MPI_MIN:
    case MPI_MAX:
        return k == K_INT || k == K_UINT || k == K_FLOAT;
    case MPI_LAND:
    case MPI_LOR:
    case MPI_LXOR:
        return k == K_INT || k == K_UINT || k == K_BOOL;
    case MPI_BAND:
    case MPI_BOR:
    case MPI_BXOR:
        return k == K_INT || k == K_UINT || k == K_BYTE;
    case MPI_MINLOC:
    case MPI_MAXLOC:
        return k == K_PAIR;
    default:
        return 0;
    }
}

#define ARITH(T)                                                                         \
    {                                                                                    \
        const T *a = in;                                                                 \
        T *b = inout;                                                                    \
        for (MPI_Count i = 0; i < n; i++) {                                              \
            T x;                                                                         \
            memcpy(&x, &a[i], sizeof x);                                                 \
            T y;                                                                         \
            memcpy(&y, &b[i], sizeof y);                                                 \
            switch (op) {                                                                \
            case MPI_SUM:                                                                \
                y = x + y;                                                               \
                break;                                                                   \
            case MPI_PROD:                                                               \
                y = x * y;                                                               \
                break;                                                                   \
            case MPI_MIN:                                                                \
                y = x < y ? x : y;                                                       \
                break;                                                                   \
            case MPI_MAX:                                                                \
                y = x > y ? x : y;                                                       \
                break;                                                                   \
            case MPI_LAND:                                                               \
                y = (x != 0) && (y != 0);                                                \
                break;                                                                   \
            case MPI_LOR:                                                                \
                y = (x != 0) || (y != 0);                                                \
                break;                                                                   \
            case MPI_LXOR:                                                               \
                y = (x != 0) != (y != 0);                                                \
                break;                                                                   \
            default:                                                                     \
                break;                                                                   \
            }                                                                            \
            memcpy(&b[i], &y, sizeof y);                                                 \
        }                                                                                \
    }                                                                                    \
    break;

#define BITS(T)                                                                          \
    {                                                                                    \
        const T *a = in;                                                                 \
        T *b = inout;                                                                    \
        for (MPI_Count i = 0; i < n; i++) {                                              \
            T x, y;                                                                      \
            memcpy(&x, &a[i], sizeof x);                                                 \
            memcpy(&y, &b[i], sizeof y);                                                 \
            y = op == MPI_BAND ? (T)(x & y) : op == MPI_BOR ? (T)(x | y) : (T)(x ^ y);   \
            memcpy(&b[i], &y, sizeof y);                                                 \
        }                                                                                \
    }                                                                                    \
    break;

#define CPLX(T)                                                                          \
    {                                                                                    \
        const T *a = in;                                                                 \
        T *b = inout;                                                                    \
        for (MPI_Count i = 0; i < n; i++) {                                              \
            T x, y;                                                                      \
            memcpy(&x, &a[i], sizeof x);                                                 \
            memcpy(&y, &b[i], sizeof y);                                                 \
            y = op == MPI_SUM ? x + y : x * y;                                           \
            memcpy(&b[i], &y, sizeof y);                                                 \
        }                                                                                \
    }                                                                                    \
    break;

/* MINLOC/MAXLOC on packed pairs: value of vsize bytes, then an int */
#define LOC(T)                                                                           \
    {                                                                                    \
        const unsigned char *a = in;                                                     \
        unsigned char *b = inout;                                                        \
        size_t w = sizeof(T) + sizeof(int);                                              \
        for (MPI_Count i = 0; i < n; i++) {                                              \
            T x, y;                                                                      \
            int xi, yi;                                                                  \
            memcpy(&x, a + i * w, sizeof x);                                             \
            memcpy(&y, b + i * w, sizeof y);                                             \
            memcpy(&xi, a + i * w + sizeof(T), sizeof xi);                               \
            memcpy(&yi, b + i * w + sizeof(T), sizeof yi);                               \
            int take = op == MPI_MINLOC ? (x < y || (x == y && xi < yi))                 \
                                        : (x > y || (x == y && xi < yi));                \
            if (take) {                                                                  \
                memcpy(b + i * w, &x, sizeof x);                                         \
                memcpy(b + i * w + sizeof(T), &xi, sizeof xi);                           \
            }                                                                            \
        }                                                                                \
    }                                                                                    \
    break;

static void
apply_basic(MPI_Op op, int basic, const void *in, void *inout, MPI_Count n)
{
    if (op == MPI_NO_OP)
        return;
    if (op == MPI_REPLACE) {
        memcpy(inout, in, (size_t)n * basic_size(basic));
        return;
    }
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) {
        switch (basic_size(basic)) {
        case 1:
            BITS(uint8_t)
        case 2:
            BITS(uint16_t)
        case 4:
            BITS(uint32_t)
        case 8:
            BITS(uint64_t)
        case 16:
            BITS(UInt128)
        default:
            break;
        }
        return;
    }
    switch (basic) {
    case MPI_CHAR:
        ARITH(char)
    case MPI_SIGNED_CHAR:
    case MPI_INT8_T:
        ARITH(int8_t)
    case MPI_UNSIGNED_CHAR:
    case MPI_UINT8_T:
        ARITH(uint8_t)
    case MPI_C_BOOL: {
        const _Bool *a = in;
        _Bool *b = inout;
        for (MPI_Count i = 0; i < n; i++)
            b[i] = op == MPI_LAND  ? (a[i] && b[i])
                   : op == MPI_LOR ? (a[i] || b[i])
                                   : (a[i] != b[i]);
        break;
    }
    case MPI_SHORT:
    case MPI_INT16_T:
        ARITH(int16_t)
    case MPI_UNSIGNED_SHORT:
    case MPI_UINT16_T:
        ARITH(uint16_t)
    case MPI_INT:
    case MPI_INT32_T:
        ARITH(int32_t)
    case MPI_UNSIGNED:
    case MPI_UINT32_T:
        ARITH(uint32_t)
    case MPI_LONG:
        ARITH(long)
    case MPI_UNSIGNED_LONG:
        ARITH(unsigned long)
    case MPI_LONG_LONG:
    case MPI_INT64_T:
    case MPI_OFFSET:
    case MPI_COUNT:
        ARITH(int64_t)
    case MPI_AINT:
        ARITH(MPI_Aint)
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_UINT64_T:
        ARITH(uint64_t)
    case MPI_WCHAR:
        ARITH(wchar_t)
    case MPI_INTEGER16:
        ARITH(Int128)
    case MPI_FLOAT:
        ARITH(float)
    case MPI_DOUBLE:
        ARITH(double)
    case MPI_LONG_DOUBLE:
        ARITH(long double)
    case MPI_C_FLOAT_COMPLEX:
        CPLX(float _Complex)
    case MPI_C_DOUBLE_COMPLEX:
        CPLX(double _Complex)
    case MPI_C_LONG_DOUBLE_COMPLEX:
        CPLX(long double _Complex)
    case MPI_FLOAT_INT:
        LOC(float)
    case MPI_DOUBLE_INT:
        LOC(double)
    case MPI_LONG_INT:
        LOC(long)
    case MPI_2INT:
        LOC(int)
    case MPI_SHORT_INT:
        LOC(short)
    case MPI_LONG_DOUBLE_INT:
        LOC(long double)
    default:
        break;
    }
}

void
op_apply(MpiState *s, MPI_Op op, const void *in, void *inout, int count, MPI_Datatype dt,
         const Type *t)
{
    if (op < 16) {
        apply_basic(op, t->basic, in, inout, (MPI_Count)count * t->nelem);
        return;
    }
    Op *o = tab_at(&s->ops, op);
    int n = count;
    MPI_Datatype d = dt;
    if (type_contig(t)) {
        o->fn((void *)in, inout, &n, &d);
        return;
    }
    /* the user's function sees the data in the type's layout */
    MPI_Aint ext = type_extent(t);
    MPI_Aint lo = t->true_lb < 0 ? t->true_lb : 0;
    MPI_Aint hi = (count > 0 ? (MPI_Aint)(count - 1) * ext : 0) + t->true_ub;
    size_t span = (size_t)(hi - lo) + 1;
    unsigned char *a = mpi_alloc(span), *b = mpi_alloc(span);
    type_unpack(t, in, count, a - lo);
    type_unpack(t, inout, count, b - lo);
    o->fn(a - lo, b - lo, &n, &d);
    type_pack(t, b - lo, count, inout);
    mpi_free(a);
    mpi_free(b);
}

int
MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    ENTER("MPI_Op_create");
    int i = tab_new(&s->ops, 16, sizeof(Op));
    Op *o = tab_at(&s->ops, i);
    o->used = 1, o->fn = fn, o->commute = commute != 0;
    *op = i;
    return MPI_SUCCESS;
}

int
MPI_Op_free(MPI_Op *op)
{
    ENTER("MPI_Op_free");
    Op *o = tab_at(&s->ops, *op);
    if (*op < 16 || !o || !o->used)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OP);
    tab_free(&s->ops, *op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int
MPI_Op_commutative(MPI_Op op, int *commute)
{
    ENTER("MPI_Op_commutative");
    Op *o = tab_at(&s->ops, op);
    if (op < 1 || !o || !o->used)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OP);
    *commute = op_commutes(s, op);
    return MPI_SUCCESS;
}

int
MPI_Reduce_local(const void *in, void *inout, int count, MPI_Datatype type, MPI_Op op)
{
    ENTER("MPI_Reduce_local");
    Type *t;
    if (type_check(s, type, &t))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    if (count < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    if (!op_valid(s, op, t))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OP);
    size_t bytes = (size_t)(t->size * count);
    unsigned char *a = mpi_alloc(bytes), *b = mpi_alloc(bytes);
    type_pack(t, in, count, a);
    type_pack(t, inout, count, b);
    op_apply(s, op, a, b, count, type, t);
    type_unpack(t, b, count, inout);
    mpi_free(a);
    mpi_free(b);
    return MPI_SUCCESS;
}

/* ---- the algorithms of coll.c on communicators ---- */

/* the local group of c for its collectives: their context, and the in-switch family
 * on MPI_COMM_WORLD and MPI_COMM_LOCAL */
static CollGroup
group_of(const Comm *c)
{
    return (CollGroup){c->cctx, c->world_like && !c->inter ? c->ctx : -1,
                       c->size, c->rank,
                       c->g[0], c->g};
}

/* the linear exchanges of the v variants and the scans: point-to-point in the local
 * group (errors of these are not checked, as MPICH's) */
static void
csend(const Comm *c, int ctx, const void *buf, size_t bytes, int to, int tag)
{
    CollGroup g = comm_group(c, ctx);
    coll_send(&g, buf, bytes, to, tag);
}

static void
crecv(const Comm *c, int ctx, void *buf, size_t bytes, int from, int tag,
      MPIRIO_Status *st)
{
    Req *r;
    tr_irecv(buf, bytes, c->g[from], ctx, tag, 1, &r);
    tr_wait(r, st);
}

/* an MPI operator for coll.c: inout = in op inout on count instances of t, packed */
typedef struct OpArg {
    MpiState *s;
    MPI_Op op;
    MPI_Datatype dt;
    const Type *t;
} OpArg;

static void
op_fn(const CollOp *o, const void *in, void *inout, int count)
{
    const OpArg *a = o->arg;
    op_apply(a->s, a->op, in, inout, count, a->dt, a->t);
}

/* the switches reduce the basic types and operators of mpirio.h (contiguous) */
static CollOp
coll_op(const OpArg *a)
{
    CollOp o = {op_fn, (size_t)a->t->size, op_commutes(a->s, a->op), 0, 0, a};
    int b = a->t->basic;
    if (type_contig(a->t) && b > MPIRIO_BYTE && b <= MPIRIO_UNSIGNED &&
        a->op >= MPIRIO_SUM && a->op <= MPIRIO_MAX)
        o.type = b, o.op = a->op;
    return o;
}

/* ---- helpers of the MPI collectives ---- */

/* the checks every collective makes */
#define COLL(name, comm)                                                                 \
    ENTER(name);                                                                         \
    Comm *c = comm_get(s, comm);                                                         \
    if (!c)                                                                              \
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM);

#define TYPE(var, h, comm)                                                               \
    Type *var;                                                                           \
    if (type_check(s, h, &var))                                                          \
        return mpi_err(comm, MPI_ERR_TYPE);

/* count instances at buf, packed: a new buffer (free it) */
static unsigned char *
packed(const Type *t, const void *buf, MPI_Count count)
{
    unsigned char *p = mpi_alloc((size_t)(t->size * count));
    type_pack(t, buf, count, p);
    return p;
}

static void *
at(const void *buf, const Type *t, MPI_Count i)
{
    return (unsigned char *)buf + i * type_extent(t);
}

/* ---- intercommunicators (MPICH's algorithms: the local group's collective, then the
 * leaders, or every pair of a local and a remote member) ---- */

/* to and from a remote member */
static void
rsend(const Comm *c, const void *buf, size_t bytes, int to, int tag)
{
    Req *r;
    tr_isend(buf, bytes, c->rg[to], c->cctx, tag, c->rank, &r);
    tr_wait(r, NULL);
}

static void
rrecv(const Comm *c, void *buf, size_t bytes, int from, int tag, MPIRIO_Status *st)
{
    Req *r;
    tr_irecv(buf, bytes, c->rg[from], c->cctx, tag, 1, &r);
    tr_wait(r, st);
}

/* the reduction of the local group of intercommunicator c in place in acc (packed,
 * count elements) at its rank 0 */
static void
local_reduce(MpiState *s, const Comm *c, unsigned char *acc, int count, MPI_Datatype dt,
             const Type *t, MPI_Op op)
{
    CollGroup lg = comm_group(c, c->cctx);
    OpArg a = {s, op, dt, t};
    CollOp o = coll_op(&a);
    coll_reduce(&lg, T_REDUCE, acc, acc, count, &o, 0);
}

static void
inter_barrier(const Comm *c)
{
    CollGroup lg = comm_group(c, c->cctx);
    int v = 0, w = 0;
    coll_barrier(&lg, T_BARRIER);
    inter_swap(c, T_BARRIER, &v, sizeof v, &w, sizeof w);
}

/* bytes from root (MPI_ROOT in its group) to every member of the other group */
static void
inter_bcast(const Comm *c, void *buf, size_t bytes, int root)
{
    if (root == MPI_PROC_NULL)
        return;
    if (root == MPI_ROOT) {
        rsend(c, buf, bytes, 0, T_BCAST);
        return;
    }
    CollGroup lg = comm_group(c, c->cctx);
    if (c->rank == 0)
        rrecv(c, buf, bytes, root, T_BCAST, NULL);
    coll_bcast(&lg, T_BCAST, buf, bytes, 0);
}

/* the reduction of the other group's data at root (packed, count elements) */
static unsigned char *
inter_reduce(MpiState *s, const Comm *c, const void *sbuf, int count, MPI_Datatype dt,
             const Type *t, MPI_Op op, int root)
{
    size_t bytes = (size_t)(t->size * count);
    if (root == MPI_PROC_NULL)
        return NULL;
    if (root == MPI_ROOT) {
        unsigned char *res = mpi_alloc(bytes);
        rrecv(c, res, bytes, 0, T_REDUCE, NULL);
        return res;
    }
    unsigned char *acc = packed(t, sbuf, count);
    local_reduce(s, c, acc, count, dt, t, op);
    if (c->rank == 0)
        rsend(c, acc, bytes, root, T_REDUCE);
    mpi_free(acc);
    return NULL;
}

/* ---- the rooted and the all-to-all collectives of intercommunicators (their
 * arguments checked by rooted_args) ---- */

static int
inter_gather(const Comm *c, const void *sbuf, int scount, void *rbuf, int rcount,
             const Type *t, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        size_t blk = (size_t)(t->size * rcount);
        unsigned char *all = mpi_alloc(blk * (size_t)c->rsize);
        rrecv(c, all, blk * (size_t)c->rsize, 0, T_GATHER, NULL);
        type_unpack(t, all, (MPI_Count)rcount * c->rsize, rbuf);
        mpi_free(all);
        return MPI_SUCCESS;
    }
    CollGroup lg = comm_group(c, c->cctx);
    size_t blk = (size_t)(t->size * scount);
    unsigned char *mine = packed(t, sbuf, scount),
                  *all = mpi_alloc(blk * (size_t)c->size);
    coll_gather(&lg, T_GATHER, mine, all, blk, 0);
    if (c->rank == 0)
        rsend(c, all, blk * (size_t)c->size, root, T_GATHER);
    mpi_free(mine);
    mpi_free(all);
    return MPI_SUCCESS;
}

static int
inter_scatter(const Comm *c, const void *sbuf, int scount, void *rbuf, int rcount,
              const Type *t, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        unsigned char *all = packed(t, sbuf, (MPI_Count)scount * c->rsize);
        rsend(c, all, (size_t)(t->size * scount) * (size_t)c->rsize, 0, T_SCATTER);
        mpi_free(all);
        return MPI_SUCCESS;
    }
    CollGroup lg = comm_group(c, c->cctx);
    size_t blk = (size_t)(t->size * rcount);
    unsigned char *all = mpi_alloc(blk * (size_t)c->size), *mine = mpi_alloc(blk);
    if (c->rank == 0)
        rrecv(c, all, blk * (size_t)c->size, root, T_SCATTER, NULL);
    coll_scatter(&lg, T_SCATTER, all, mine, blk, 0);
    type_unpack(t, mine, rcount, rbuf);
    mpi_free(all);
    mpi_free(mine);
    return MPI_SUCCESS;
}

static int
inter_gatherv(const Comm *c, const void *sbuf, int scount, void *rbuf, const int *rcounts,
              const int *displs, const Type *t, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        for (int r = 0; r < c->rsize; r++) {
            size_t b = (size_t)(t->size * rcounts[r]);
            unsigned char *tmp = mpi_alloc(b);
            rrecv(c, tmp, b, r, T_GATHER, NULL);
            type_unpack(t, tmp, rcounts[r], at(rbuf, t, displs[r]));
            mpi_free(tmp);
        }
        return MPI_SUCCESS;
    }
    unsigned char *mine = packed(t, sbuf, scount);
    rsend(c, mine, (size_t)(t->size * scount), root, T_GATHER);
    mpi_free(mine);
    return MPI_SUCCESS;
}

static int
inter_scatterv(const Comm *c, const void *sbuf, const int *scounts, const int *displs,
               void *rbuf, int rcount, const Type *t, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        for (int r = 0; r < c->rsize; r++) {
            unsigned char *p = packed(t, at(sbuf, t, displs[r]), scounts[r]);
            rsend(c, p, (size_t)(t->size * scounts[r]), r, T_SCATTER);
            mpi_free(p);
        }
        return MPI_SUCCESS;
    }
    size_t b = (size_t)(t->size * rcount);
    unsigned char *tmp = mpi_alloc(b);
    MPIRIO_Status ts;
    rrecv(c, tmp, b, root, T_SCATTER, &ts);
    type_unpack_bytes(t, tmp, ts.count, rcount, rbuf);
    mpi_free(tmp);
    return MPI_SUCCESS;
}

static int
inter_allgather(MpiState *s, Comm *c, const void *sbuf, int scount, MPI_Datatype stype,
                void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    Type *st, *rt;
    if (type_check(s, stype, &st) || type_check(s, rtype, &rt))
        return mpi_err(comm, MPI_ERR_TYPE);
    CollGroup lg = comm_group(c, c->cctx);
    size_t lb = (size_t)(st->size * scount), rb = (size_t)(rt->size * rcount);
    unsigned char *mine = packed(st, sbuf, scount),
                  *lall = mpi_alloc(lb * (size_t)c->size);
    unsigned char *rall = mpi_alloc(rb * (size_t)c->rsize);
    coll_gather(&lg, T_ALLGATHER, mine, lall, lb, 0);
    inter_swap(c, T_ALLGATHER, lall, lb * (size_t)c->size, rall, rb * (size_t)c->rsize);
    type_unpack(rt, rall, (MPI_Count)rcount * c->rsize, rbuf);
    mpi_free(mine);
    mpi_free(lall);
    mpi_free(rall);
    return MPI_SUCCESS;
}

static int
inter_allgatherv(MpiState *s, Comm *c, const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, const int *rcounts, const int *displs, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    Type *st, *rt;
    if (type_check(s, stype, &st) || type_check(s, rtype, &rt))
        return mpi_err(comm, MPI_ERR_TYPE);
    int n = c->rsize;
    Req **rr = mpi_alloc((size_t)n * sizeof *rr),
        **sr = mpi_alloc((size_t)n * sizeof *sr);
    unsigned char **in = mpi_alloc((size_t)n * sizeof *in);
    unsigned char *mine = packed(st, sbuf, scount);
    for (int r = 0; r < n; r++) {
        size_t b = (size_t)(rt->size * rcounts[r]);
        in[r] = mpi_alloc(b);
        tr_irecv(in[r], b, c->rg[r], c->cctx, T_ALLGATHER, 0, &rr[r]);
    }
    for (int r = 0; r < n; r++)
        tr_isend(mine, (size_t)(st->size * scount), c->rg[r], c->cctx, T_ALLGATHER,
                 c->rank, &sr[r]);
    for (int r = 0; r < n; r++)
        tr_wait(sr[r], NULL);
    for (int r = 0; r < n; r++) {
        tr_wait(rr[r], NULL);
        type_unpack(rt, in[r], rcounts[r], at(rbuf, rt, displs[r]));
        mpi_free(in[r]);
    }
    mpi_free(mine);
    mpi_free(in);
    mpi_free(rr);
    mpi_free(sr);
    return MPI_SUCCESS;
}

/* the result at every member: the reduction of the other group's data */
static int
inter_allreduce(MpiState *s, Comm *c, const void *sbuf, void *rbuf, int count,
                MPI_Datatype type, Type *t, MPI_Op op)
{
    size_t bytes = (size_t)(t->size * count);
    unsigned char *acc = packed(t, sbuf, count), *res = mpi_alloc(bytes);
    local_reduce(s, c, acc, count, type, t, op);
    inter_swap(c, T_REDUCE, acc, bytes, res, bytes);
    type_unpack(t, res, count, rbuf);
    mpi_free(acc);
    mpi_free(res);
    return MPI_SUCCESS;
}

/* the other group's reduction, scattered by rcounts over this group */
static int
inter_reduce_scatter(MpiState *s, Comm *c, const void *sbuf, void *rbuf,
                     const int *rcounts, MPI_Datatype type, Type *t, MPI_Op op)
{
    int count = 0;
    for (int r = 0; r < c->size; r++)
        count += rcounts[r];
    size_t bytes = (size_t)(t->size * count);
    unsigned char *acc = packed(t, sbuf, count), *res = mpi_alloc(bytes);
    local_reduce(s, c, acc, count, type, t, op);
    if (c->rank == 0) {
        Req *sr, *rr;
        tr_irecv(res, bytes, c->rg[0], c->cctx, T_REDUCE, 1, &rr);
        tr_isend(acc, bytes, c->rg[0], c->cctx, T_REDUCE, c->rank, &sr);
        tr_wait(sr, NULL);
        tr_wait(rr, NULL);
        size_t off = 0;
        for (int r = 0; r < c->size; r++) {
            size_t b = (size_t)(t->size * rcounts[r]);
            if (r)
                csend(c, c->cctx, res + off, b, r, T_SCATTER);
            off += b;
        }
        type_unpack(t, res, rcounts[0], rbuf);
    } else {
        size_t mine = (size_t)(t->size * rcounts[c->rank]);
        crecv(c, c->cctx, res, mine, 0, T_SCATTER, NULL);
        type_unpack(t, res, rcounts[c->rank], rbuf);
    }
    mpi_free(acc);
    mpi_free(res);
    return MPI_SUCCESS;
}

/* one side of a rooted collective: a count (or a count per member) of a type */
typedef struct Side {
    int count;
    const int *counts; /* the v variants: per member of the root's side */
    MPI_Datatype type;
    Type *t; /* the checked type, where the caller uses the side; else NULL */
} Side;

static int
side_ok(MpiState *s, Side *d, int n)
{
    if (type_check(s, d->type, &d->t))
        return MPI_ERR_TYPE;
    if (d->counts) {
        for (int r = 0; r < n; r++)
            if (d->counts[r] < 0)
                return MPI_ERR_COUNT;
    } else if (d->count < 0)
        return MPI_ERR_COUNT;
    return MPI_SUCCESS;
}

/* The arguments of the rooted collectives (Bcast, Reduce, Gather(v), Scatter(v)),
 * checked here once: the root (a rank of an intracommunicator; of an
 * intercommunicator MPI_ROOT, MPI_PROC_NULL or a rank of the remote group), then the
 * sides the caller uses. own: the caller's block (the buffer of Bcast and Reduce;
 * the send side of Gather, the receive side of Scatter), used by every member but
 * an in-place root of an intracommunicator and the root group of an
 * intercommunicator (there by MPI_ROOT only in Bcast and Reduce, which have no many
 * side); many: the root's blocks of every member (Gather's receive side, Scatter's
 * send side), used at the root only. 0 or the error code. */
static int
rooted_args(MpiState *s, const Comm *c, int root, int inplace, Side *own, Side *many)
{
    own->t = NULL;
    if (many)
        many->t = NULL;
    int at_root, use_own;
    if (c->inter) {
        if (root != MPI_ROOT && root != MPI_PROC_NULL && (root < 0 || root >= c->rsize))
            return MPI_ERR_ROOT;
        at_root = root == MPI_ROOT;
        use_own = root >= 0 || (at_root && !many);
    } else {
        if (root < 0 || root >= c->size)
            return MPI_ERR_ROOT;
        at_root = c->rank == root;
        use_own = !(at_root && inplace);
    }
    int e;
    if (many && at_root && (e = side_ok(s, many, comm_peers(c))))
        return e;
    if (use_own && (e = side_ok(s, own, 0)))
        return e;
    return MPI_SUCCESS;
}

static size_t
side_bytes(const Side *d)
{
    return (size_t)(d->t->size * d->count);
}

/* n blocks of count instances of t at buf, packed into n blocks of blk bytes each (a
 * new buffer): the send side of a collective whose blocks the algorithms of coll.c
 * move as bytes. A shorter block is padded with zeros; a longer one is cut and *err
 * becomes MPI_ERR_TRUNCATE (as MPICH's local copy of the caller's block), and the
 * caller still takes part, so that nobody waits for it */
static unsigned char *
blocks(const Type *t, const void *buf, int count, int n, size_t blk, int *err)
{
    size_t mine = (size_t)(t->size * count);
    if (mine == blk)
        return packed(t, buf, (MPI_Count)count * n);
    if (mine > blk)
        *err = MPI_ERR_TRUNCATE;
    unsigned char *out = mpi_alloc(blk * (size_t)n);
    for (int r = 0; r < n; r++) {
        unsigned char *p = packed(t, at(buf, t, (MPI_Count)count * r), count);
        memcpy(out + blk * (size_t)r, p, mine < blk ? mine : blk);
        mpi_free(p);
    }
    return out;
}

/* n blocks of blk bytes from a collective into count instances of t each at buf */
static void
unblocks(const Type *t, const unsigned char *in, size_t blk, int n, void *buf, int count)
{
    size_t mine = (size_t)(t->size * count);
    if (mine == blk) {
        type_unpack(t, in, (MPI_Count)count * n, buf);
        return;
    }
    for (int r = 0; r < n; r++)
        type_unpack_bytes(t, in + blk * (size_t)r, (MPI_Count)(blk < mine ? blk : mine),
                          count, at(buf, t, (MPI_Count)count * r));
}

/* the result of a collective: the error code through the communicator's handler */
static int
done(MPI_Comm comm, int e)
{
    return e ? mpi_err(comm, e) : MPI_SUCCESS;
}

int
MPI_Barrier(MPI_Comm comm)
{
    COLL("MPI_Barrier", comm);
    if (c->inter) {
        inter_barrier(c);
        return MPI_SUCCESS;
    }
    CollGroup g = group_of(c);
    return done(comm, coll_barrier(&g, T_BARRIER));
}

int
MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    COLL("MPI_Bcast", comm);
    Side own = {count, NULL, type, NULL};
    int e = rooted_args(s, c, root, 0, &own, NULL);
    if (e)
        return mpi_err(comm, e);
    if (!own.t) /* MPI_PROC_NULL of an intercommunicator */
        return MPI_SUCCESS;
    Type *t = own.t;
    size_t bytes = side_bytes(&own);
    unsigned char *p = type_contig(t) ? buf : packed(t, buf, count);
    int to_me = c->inter ? root >= 0 : c->rank != root;
    if (c->inter)
        inter_bcast(c, p, bytes, root);
    else {
        CollGroup g = group_of(c);
        e = coll_bcast(&g, T_BCAST, p, bytes, root);
    }
    if (p != buf) {
        if (to_me)
            type_unpack(t, p, count, buf);
        mpi_free(p);
    }
    return done(comm, e);
}

int
MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
           MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL("MPI_Gather", comm);
    Side own = {scount, NULL, stype, NULL}, all = {rcount, NULL, rtype, NULL};
    int e = rooted_args(s, c, root, sbuf == MPI_IN_PLACE, &own, &all);
    if (e)
        return mpi_err(comm, e);
    if (c->inter)
        return inter_gather(c, sbuf, scount, rbuf, rcount, all.t ? all.t : own.t, root);
    /* the blocks are the root's: a member whose block differs gets MPI_ERR_TRUNCATE */
    int me_root = c->rank == root;
    size_t blk = me_root ? side_bytes(&all) : side_bytes(&own);
    unsigned char *mine =
        own.t ? blocks(own.t, sbuf, scount, 1, blk, &e)
              : packed(all.t, at(rbuf, all.t, (MPI_Count)rcount * c->rank), rcount);
    unsigned char *res = me_root ? mpi_alloc(blk * (size_t)c->size) : NULL;
    CollGroup g = group_of(c);
    int e2 = coll_gather(&g, T_GATHER, mine, res, blk, root);
    if (me_root) {
        type_unpack(all.t, res, (MPI_Count)rcount * c->size, rbuf);
        mpi_free(res);
    }
    mpi_free(mine);
    return done(comm, e ? e : e2);
}

int
MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
            const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
            MPI_Comm comm)
{
    COLL("MPI_Gatherv", comm);
    Side own = {scount, NULL, stype, NULL}, all = {0, rcounts, rtype, NULL};
    int e = rooted_args(s, c, root, sbuf == MPI_IN_PLACE, &own, &all);
    if (e)
        return mpi_err(comm, e);
    if (c->inter)
        return inter_gatherv(c, sbuf, scount, rbuf, rcounts, displs,
                             all.t ? all.t : own.t, root);
    Type *st = own.t, *rt = all.t;
    if (c->rank != root) {
        unsigned char *mine = packed(st, sbuf, scount);
        csend(c, c->cctx, mine, side_bytes(&own), root, T_GATHER);
        mpi_free(mine);
        return MPI_SUCCESS;
    }
    for (int r = 0; r < c->size; r++) {
        void *dst = at(rbuf, rt, displs[r]);
        if (r == root) {
            if (st) {
                unsigned char *mine = packed(st, sbuf, scount);
                type_unpack_bytes(rt, mine, st->size * scount, rcounts[r], dst);
                mpi_free(mine);
            }
            continue;
        }
        size_t bytes = (size_t)(rt->size * rcounts[r]);
        unsigned char *tmp = mpi_alloc(bytes);
        crecv(c, c->cctx, tmp, bytes, r, T_GATHER, NULL);
        type_unpack(rt, tmp, rcounts[r], dst);
        mpi_free(tmp);
    }
    return MPI_SUCCESS;
}

int
MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
            MPI_Datatype rtype, int root, MPI_Comm comm)
{
    COLL("MPI_Scatter", comm);
    Side own = {rcount, NULL, rtype, NULL}, all = {scount, NULL, stype, NULL};
    int e = rooted_args(s, c, root, rbuf == MPI_IN_PLACE, &own, &all);
    if (e)
        return mpi_err(comm, e);
    if (c->inter)
        return inter_scatter(c, sbuf, scount, rbuf, rcount, all.t ? all.t : own.t, root);
    /* the blocks are the root's: a member whose block differs gets MPI_ERR_TRUNCATE */
    int me_root = c->rank == root;
    size_t blk = me_root ? side_bytes(&all) : side_bytes(&own);
    unsigned char *res =
        me_root ? packed(all.t, sbuf, (MPI_Count)scount * c->size) : NULL;
    unsigned char *mine = mpi_alloc(blk);
    CollGroup g = group_of(c);
    e = coll_scatter(&g, T_SCATTER, res, mine, blk, root);
    if (own.t) {
        if (side_bytes(&own) < blk && !e)
            e = MPI_ERR_TRUNCATE;
        unblocks(own.t, mine, blk, 1, rbuf, rcount);
    }
    mpi_free(mine);
    mpi_free(res);
    return done(comm, e);
}

int
MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
             MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
             MPI_Comm comm)
{
    COLL("MPI_Scatterv", comm);
    Side own = {rcount, NULL, rtype, NULL}, all = {0, scounts, stype, NULL};
    int e = rooted_args(s, c, root, rbuf == MPI_IN_PLACE, &own, &all);
    if (e)
        return mpi_err(comm, e);
    if (c->inter)
        return inter_scatterv(c, sbuf, scounts, displs, rbuf, rcount,
                              all.t ? all.t : own.t, root);
    Type *st = all.t, *rt = own.t;
    if (c->rank != root) {
        size_t bytes = side_bytes(&own);
        unsigned char *tmp = mpi_alloc(bytes);
        MPIRIO_Status ts;
        crecv(c, c->cctx, tmp, bytes, root, T_SCATTER, &ts);
        type_unpack_bytes(rt, tmp, ts.count, rcount, rbuf);
        mpi_free(tmp);
        return MPI_SUCCESS;
    }
    for (int r = 0; r < c->size; r++) {
        unsigned char *p = packed(st, at(sbuf, st, displs[r]), scounts[r]);
        size_t bytes = (size_t)(st->size * scounts[r]);
        if (r != root)
            csend(c, c->cctx, p, bytes, r, T_SCATTER);
        else if (rt)
            type_unpack_bytes(rt, p, (MPI_Count)bytes, rcount, rbuf);
        mpi_free(p);
    }
    return MPI_SUCCESS;
}

int
MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
              MPI_Datatype rtype, MPI_Comm comm)
{
    COLL("MPI_Allgather", comm);
    if (c->inter)
        return inter_allgather(s, c, sbuf, scount, stype, rbuf, rcount, rtype, comm);
    TYPE(rt, rtype, comm);
    int inplace = sbuf == MPI_IN_PLACE;
    Type *st = NULL;
    if (!inplace && type_check(s, stype, &st))
        return mpi_err(comm, MPI_ERR_TYPE);
    if (rcount < 0 || (!inplace && scount < 0))
        return mpi_err(comm, MPI_ERR_COUNT);
    size_t blk = (size_t)(rt->size * rcount);
    int e = 0;
    unsigned char *mine =
        inplace ? packed(rt, at(rbuf, rt, (MPI_Count)rcount * c->rank), rcount)
                : blocks(st, sbuf, scount, 1, blk, &e);
    unsigned char *all = mpi_alloc(blk * (size_t)c->size);
    CollGroup g = group_of(c);
    int e2 = coll_allgather(&g, T_ALLGATHER, mine, all, blk);
    type_unpack(rt, all, (MPI_Count)rcount * c->size, rbuf);
    mpi_free(all);
    mpi_free(mine);
    return done(comm, e ? e : e2);
}

int
MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
    COLL("MPI_Allgatherv", comm);
    if (c->inter)
        return inter_allgatherv(s, c, sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                                comm);
    TYPE(rt, rtype, comm);
    int inplace = sbuf == MPI_IN_PLACE;
    Type *st = NULL;
    if (!inplace && type_check(s, stype, &st))
        return mpi_err(comm, MPI_ERR_TYPE);
    /* every block to rank 0, which sends all of them to everybody */
    size_t total = 0;
    for (int r = 0; r < c->size; r++) {
        if (rcounts[r] < 0)
            return mpi_err(comm, MPI_ERR_COUNT);
        total += (size_t)(rt->size * rcounts[r]);
    }
    unsigned char *all = mpi_alloc(total);
    unsigned char *mine =
        inplace ? packed(rt, at(rbuf, rt, displs[c->rank]), rcounts[c->rank])
                : packed(st, sbuf, scount);
    size_t mybytes = (size_t)(rt->size * rcounts[c->rank]);
    if (c->rank == 0) {
        size_t off = 0;
        for (int r = 0; r < c->size; r++) {
            size_t b = (size_t)(rt->size * rcounts[r]);
            if (r == 0)
                memcpy(all, mine, b);
            else
                crecv(c, c->cctx, all + off, b, r, T_ALLGATHER, NULL);
            off += b;
        }
    } else
        csend(c, c->cctx, mine, mybytes, 0, T_ALLGATHER);
    CollGroup g = comm_group(c, c->cctx);
    coll_bcast(&g, T_ALLGATHER, all, total, 0);
    size_t off = 0;
    for (int r = 0; r < c->size; r++) {
        type_unpack(rt, all + off, rcounts[r], at(rbuf, rt, displs[r]));
        off += (size_t)(rt->size * rcounts[r]);
    }
    mpi_free(all);
    mpi_free(mine);
    return MPI_SUCCESS;
}

/* the exchange of alltoall, v and w: block r of the send side goes to rank r */
static int
alltoall_general(MpiState *s, Comm *c, const void *sbuf, const int *scounts,
                 const MPI_Aint *sdispls, const MPI_Datatype *stypes, void *rbuf,
                 const int *rcounts, const MPI_Aint *rdispls, const MPI_Datatype *rtypes)
{
    /* intracommunicator: the group; intercommunicator: the remote group */
    int n = comm_peers(c), me = c->inter ? 0 : c->rank;
    const int *peer = c->inter ? c->rg : c->g;
    unsigned char **in = mpi_alloc((size_t)n * sizeof *in);
    Req **rr = mpi_alloc((size_t)n * sizeof *rr),
        **sr = mpi_alloc((size_t)n * sizeof *sr);
    size_t *rbytes = mpi_alloc((size_t)n * sizeof *rbytes);
    /* every receive is posted first, then every send, then the waits */
    for (int k = 0; k < n; k++) {
        int r = (me + n - k) % n;
        Type *rt = type_get(s, rtypes[r]);
        rbytes[r] = (size_t)(rt->size * rcounts[r]);
        in[r] = mpi_alloc(rbytes[r]);
        tr_irecv(in[r], rbytes[r], peer[r], c->cctx, T_ALLTOALL, 0, &rr[r]);
    }
    for (int k = 0; k < n; k++) {
        int r = (me + k) % n;
        Type *st = type_get(s, stypes[r]);
        unsigned char *p =
            packed(st, (const unsigned char *)sbuf + sdispls[r], scounts[r]);
        tr_isend(p, (size_t)(st->size * scounts[r]), peer[r], c->cctx, T_ALLTOALL,
                 c->rank, &sr[r]);
        mpi_free(p);
    }
    for (int r = 0; r < n; r++)
        tr_wait(sr[r], NULL);
    for (int r = 0; r < n; r++) {
        MPIRIO_Status ts;
        tr_wait(rr[r], &ts);
        Type *rt = type_get(s, rtypes[r]);
        type_unpack_bytes(rt, in[r], ts.count, rcounts[r],
                          (unsigned char *)rbuf + rdispls[r]);
        mpi_free(in[r]);
    }
    mpi_free(in);
    mpi_free(rr);
    mpi_free(sr);
    mpi_free(rbytes);
    return MPI_SUCCESS;
}

/* MPI_IN_PLACE: the send side is a copy of the receive side */
static void *
inplace_copy(const Type *rt, const void *rbuf, MPI_Aint span_elems)
{
    (void)rt;
    size_t bytes = (size_t)(span_elems > 0 ? span_elems : 0);
    unsigned char *p = mpi_alloc(bytes);
    if (bytes)
        memcpy(p, rbuf, bytes);
    return p;
}

static MPI_Aint
span_of(const Type *t, const int *counts, const MPI_Aint *displs, int n)
{
    MPI_Aint hi = 0;
    for (int r = 0; r < n; r++)
        if (counts[r] > 0) {
            MPI_Aint e =
                displs[r] + (MPI_Aint)(counts[r] - 1) * type_extent(t) + t->true_ub;
            if (e > hi)
                hi = e;
        }
    return hi;
}

int
MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
             MPI_Datatype rtype, MPI_Comm comm)
{
    COLL("MPI_Alltoall", comm);
    TYPE(rt, rtype, comm);
    int inplace = sbuf == MPI_IN_PLACE, n = comm_peers(c);
    Type *st = rt;
    if (!inplace && type_check(s, stype, &st))
        return mpi_err(comm, MPI_ERR_TYPE);
    if (rcount < 0 || (!inplace && scount < 0))
        return mpi_err(comm, MPI_ERR_COUNT);
    if (!c->inter) { /* coll.c's algorithms on the blocks, packed */
        size_t blk = (size_t)(rt->size * rcount);
        int e = 0;
        unsigned char *out = inplace ? packed(rt, rbuf, (MPI_Count)rcount * n)
                                     : blocks(st, sbuf, scount, n, blk, &e);
        unsigned char *in = mpi_alloc(blk * (size_t)n);
        CollGroup g = group_of(c);
        int e2 = coll_alltoall(&g, T_ALLTOALL, out, in, blk);
        type_unpack(rt, in, (MPI_Count)rcount * n, rbuf);
        mpi_free(out);
        mpi_free(in);
        return done(comm, e ? e : e2);
    }
    int *sc = mpi_alloc((size_t)n * sizeof(int)),
        *rc = mpi_alloc((size_t)n * sizeof(int));
    MPI_Aint *sd = mpi_alloc((size_t)n * sizeof(MPI_Aint));
    MPI_Aint *rd = mpi_alloc((size_t)n * sizeof(MPI_Aint));
    MPI_Datatype *sts = mpi_alloc((size_t)n * sizeof(MPI_Datatype));
    MPI_Datatype *rts = mpi_alloc((size_t)n * sizeof(MPI_Datatype));
    for (int r = 0; r < n; r++) {
        sc[r] = inplace ? rcount : scount, rc[r] = rcount;
        sd[r] = (MPI_Aint)r * sc[r] * type_extent(inplace ? rt : st);
        rd[r] = (MPI_Aint)r * rcount * type_extent(rt);
        sts[r] = inplace ? rtype : stype, rts[r] = rtype;
    }
    void *copy = inplace ? inplace_copy(rt, rbuf, span_of(rt, rc, rd, n)) : NULL;
    alltoall_general(s, c, inplace ? copy : sbuf, sc, sd, sts, rbuf, rc, rd, rts);
    mpi_free(copy);
    mpi_free(sc), mpi_free(rc), mpi_free(sd), mpi_free(rd), mpi_free(sts), mpi_free(rts);
    return MPI_SUCCESS;
}

int
MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
              MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
              MPI_Datatype rtype, MPI_Comm comm)
{
    COLL("MPI_Alltoallv", comm);
    TYPE(rt, rtype, comm);
    int inplace = sbuf == MPI_IN_PLACE, n = comm_peers(c);
    Type *st = rt;
    if (!inplace && type_check(s, stype, &st))
        return mpi_err(comm, MPI_ERR_TYPE);
    MPI_Aint *sd = mpi_alloc((size_t)n * sizeof(MPI_Aint));
    MPI_Aint *rd = mpi_alloc((size_t)n * sizeof(MPI_Aint));
    MPI_Datatype *sts = mpi_alloc((size_t)n * sizeof(MPI_Datatype));
    MPI_Datatype *rts = mpi_alloc((size_t)n * sizeof(MPI_Datatype));
    for (int r = 0; r < n; r++) {
        if (rcounts[r] < 0 || (!inplace && scounts[r] < 0))
            return mpi_err(comm, MPI_ERR_COUNT);
        rd[r] = (MPI_Aint)rdispls[r] * type_extent(rt);
        sd[r] = inplace ? rd[r] : (MPI_Aint)sdispls[r] * type_extent(st);
        sts[r] = inplace ? rtype : stype, rts[r] = rtype;
    }
    void *copy = inplace ? inplace_copy(rt, rbuf, span_of(rt, rcounts, rd, n)) : NULL;
    alltoall_general(s, c, inplace ? copy : sbuf, inplace ? rcounts : scounts, sd, sts,
                     rbuf, rcounts, rd, rts);
    mpi_free(copy);
    mpi_free(sd), mpi_free(rd), mpi_free(sts), mpi_free(rts);
    return MPI_SUCCESS;
}

int
MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
              const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
              const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    COLL("MPI_Alltoallw", comm);
    int inplace = sbuf == MPI_IN_PLACE, n = comm_peers(c);
    MPI_Aint *sd = mpi_alloc((size_t)n * sizeof(MPI_Aint));
    MPI_Aint *rd = mpi_alloc((size_t)n * sizeof(MPI_Aint));
    MPI_Aint span = 0;
    for (int r = 0; r < n; r++) {
        Type *rt, *st;
        if (type_check(s, rtypes[r], &rt) || (!inplace && type_check(s, stypes[r], &st)))
            return mpi_err(comm, MPI_ERR_TYPE);
        if (rcounts[r] < 0 || (!inplace && scounts[r] < 0))
            return mpi_err(comm, MPI_ERR_COUNT);
        rd[r] = rdispls[r];
        sd[r] = inplace ? rdispls[r] : sdispls[r];
        if (rcounts[r] > 0) {
            MPI_Aint e =
                rd[r] + (MPI_Aint)(rcounts[r] - 1) * type_extent(rt) + rt->true_ub;
            span = e > span ? e : span;
        }
    }
    void *copy = inplace ? inplace_copy(NULL, rbuf, span) : NULL;
    alltoall_general(s, c, inplace ? copy : sbuf, inplace ? rcounts : scounts, sd,
                     inplace ? rtypes : stypes, rbuf, rcounts, rd, rtypes);
    mpi_free(copy);
    mpi_free(sd), mpi_free(rd);
    return MPI_SUCCESS;
}

/* the reduction to root of count elements (sbuf or, at inplace ranks, rbuf); the
 * result packed in a new buffer at root (else NULL); *err the collective's error */
static unsigned char *
reduce_packed(MpiState *s, const Comm *c, const void *sbuf, const void *rbuf, int count,
              MPI_Datatype dt, const Type *t, MPI_Op op, int root, int *err)
{
    size_t bytes = (size_t)(t->size * count);
    unsigned char *acc = packed(t, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count);
    unsigned char *out = c->rank == root ? mpi_alloc(bytes) : NULL;
    OpArg a = {s, op, dt, t};
    CollOp o = coll_op(&a);
    CollGroup g = group_of(c);
    *err = coll_reduce(&g, T_REDUCE, acc, out, count, &o, root);
    mpi_free(acc);
    return out;
}

#define REDUCE_CHECKS(comm)                                                              \
    if (count < 0)                                                                       \
        return mpi_err(comm, MPI_ERR_COUNT);                                             \
    if (!op_valid(s, op, t))                                                             \
        return mpi_err(comm, MPI_ERR_OP);

int
MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
           int root, MPI_Comm comm)
{
    COLL("MPI_Reduce", comm);
    Side own = {count, NULL, type, NULL};
    int e = rooted_args(s, c, root, 0, &own, NULL);
    if (e)
        return mpi_err(comm, e);
    if (!own.t) /* MPI_PROC_NULL of an intercommunicator */
        return MPI_SUCCESS;
    Type *t = own.t;
    if (!op_valid(s, op, t))
        return mpi_err(comm, MPI_ERR_OP);
    unsigned char *res =
        c->inter ? inter_reduce(s, c, sbuf, count, type, t, op, root)
                 : reduce_packed(s, c, sbuf, rbuf, count, type, t, op, root, &e);
    if (res) {
        type_unpack(t, res, count, rbuf);
        mpi_free(res);
    }
    return done(comm, e);
}

int
MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm)
{
    COLL("MPI_Allreduce", comm);
    TYPE(t, type, comm);
    REDUCE_CHECKS(comm);
    if (c->inter)
        return inter_allreduce(s, c, sbuf, rbuf, count, type, t, op);
    size_t bytes = (size_t)(t->size * count);
    unsigned char *acc = packed(t, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count);
    unsigned char *res = mpi_alloc(bytes);
    OpArg a = {s, op, type, t};
    CollOp o = coll_op(&a);
    CollGroup g = group_of(c);
    int e = coll_allreduce(&g, T_REDUCE, acc, res, count, &o);
    type_unpack(t, res, count, rbuf);
    mpi_free(acc);
    mpi_free(res);
    return done(comm, e);
}

int
MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                   MPI_Op op, MPI_Comm comm)
{
    COLL("MPI_Reduce_scatter", comm);
    TYPE(t, type, comm);
    int count = 0;
    for (int r = 0; r < c->size; r++) {
        if (rcounts[r] < 0)
            return mpi_err(comm, MPI_ERR_COUNT);
        count += rcounts[r];
    }
    REDUCE_CHECKS(comm);
    if (c->inter)
        return inter_reduce_scatter(s, c, sbuf, rbuf, rcounts, type, t, op);
    int e;
    unsigned char *res = reduce_packed(s, c, sbuf, rbuf, count, type, t, op, 0, &e);
    /* rank 0 sends each its part */
    size_t off = 0, mine = (size_t)(t->size * rcounts[c->rank]);
    if (c->rank == 0) {
        for (int r = 0; r < c->size; r++) {
            size_t b = (size_t)(t->size * rcounts[r]);
            if (r)
                csend(c, c->cctx, res + off, b, r, T_SCATTER);
            off += b;
        }
        type_unpack(t, res, rcounts[0], rbuf);
    } else {
        res = mpi_alloc(mine);
        crecv(c, c->cctx, res, mine, 0, T_SCATTER, NULL);
        type_unpack(t, res, rcounts[c->rank], rbuf);
    }
    mpi_free(res);
    return done(comm, e);
}

int
MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                         MPI_Op op, MPI_Comm comm)
{
    COLL("MPI_Reduce_scatter_block", comm);
    if (rcount < 0)
        return mpi_err(comm, MPI_ERR_COUNT);
    int *rc = mpi_alloc((size_t)c->size * sizeof(int));
    for (int r = 0; r < c->size; r++)
        rc[r] = rcount;
    int e = MPI_Reduce_scatter(sbuf, rbuf, rc, type, op, comm);
    mpi_free(rc);
    return e;
}

/* the prefix reductions: a chain, rank r waits for the prefix of 0..r-1 */
static int
scan(const char *name, int exclusive, const void *sbuf, void *rbuf, int count,
     MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    COLL(name, comm);
    TYPE(t, type, comm);
    if (c->inter) /* not defined on intercommunicators */
        return mpi_err(comm, MPI_ERR_COMM);
    REDUCE_CHECKS(comm);
    size_t bytes = (size_t)(t->size * count);
    unsigned char *mine = packed(t, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count);
    unsigned char *prev = NULL;
    if (c->rank > 0) {
        prev = mpi_alloc(bytes);
        crecv(c, c->cctx, prev, bytes, c->rank - 1, T_SCAN, NULL);
    }
    /* the prefix through this rank: prev op mine */
    unsigned char *through = mpi_alloc(bytes);
    memcpy(through, mine, bytes);
    if (prev)
        op_apply(s, op, prev, through, count, type, t);
    if (c->rank + 1 < c->size)
        csend(c, c->cctx, through, bytes, c->rank + 1, T_SCAN);
    if (!exclusive)
        type_unpack(t, through, count, rbuf);
    else if (prev)
        type_unpack(t, prev, count, rbuf);
    mpi_free(mine);
    mpi_free(prev);
    mpi_free(through);
    return MPI_SUCCESS;
}

int
MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
         MPI_Comm comm)
{
    return scan("MPI_Scan", 0, sbuf, rbuf, count, type, op, comm);
}

int
MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
           MPI_Comm comm)
{
    return scan("MPI_Exscan", 1, sbuf, rbuf, count, type, op, comm);
}

/* ---- neighbourhood collectives: block k to out-neighbour k, block k from
 * in-neighbour k. On a Cartesian topology what a DSP sends to its + neighbour of a
 * dimension arrives in that neighbour's - block (tags tell them apart where the two
 * are one DSP); on a graph, messages between two DSPs keep their order. ---- */

static int
neighbor_general(MpiState *s, Comm *c, MPI_Comm comm, const void *sbuf,
                 const int *scounts, const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                 void *rbuf, const int *rcounts, const MPI_Aint *rdispls,
                 const MPI_Datatype *rtypes, int nin, const int *ins, int nout,
                 const int *outs)
{
    int cart = c->topo == MPI_CART;
    Req **rr = mpi_alloc((size_t)nin * sizeof *rr + 1);
    Req **sr = mpi_alloc((size_t)nout * sizeof *sr + 1);
    unsigned char **in = mpi_alloc((size_t)nin * sizeof *in + 1);
    for (int k = 0; k < nin; k++) {
        if (ins[k] == MPI_PROC_NULL)
            continue;
        Type *rt = type_get(s, rtypes[k]);
        size_t b = (size_t)(rt->size * rcounts[k]);
        in[k] = mpi_alloc(b);
        tr_irecv(in[k], b, c->g[ins[k]], c->cctx, T_NBR + (cart ? k ^ 1 : 0), 0, &rr[k]);
    }
    for (int k = 0; k < nout; k++) {
        if (outs[k] == MPI_PROC_NULL)
            continue;
        Type *st = type_get(s, stypes[k]);
        unsigned char *p =
            packed(st, (const unsigned char *)sbuf + sdispls[k], scounts[k]);
        tr_isend(p, (size_t)(st->size * scounts[k]), c->g[outs[k]], c->cctx,
                 T_NBR + (cart ? k : 0), c->rank, &sr[k]);
        mpi_free(p);
    }
    for (int k = 0; k < nout; k++)
        if (outs[k] != MPI_PROC_NULL)
            tr_wait(sr[k], NULL);
    for (int k = 0; k < nin; k++) {
        if (ins[k] == MPI_PROC_NULL)
            continue;
        MPIRIO_Status ts;
        tr_wait(rr[k], &ts);
        Type *rt = type_get(s, rtypes[k]);
        type_unpack_bytes(rt, in[k], ts.count, rcounts[k],
                          (unsigned char *)rbuf + rdispls[k]);
        mpi_free(in[k]);
    }
    mpi_free(rr);
    mpi_free(sr);
    mpi_free(in);
    return MPI_SUCCESS;
}

/* the arguments of one of the four regular forms made into those of alltoallw */
static int
neighbor(const char *name, int gather, const void *sbuf, const int *scounts,
         const int *sdispls, MPI_Datatype stype, void *rbuf, const int *rcounts,
         const int *rdispls, MPI_Datatype rtype, MPI_Comm comm)
{
    COLL(name, comm);
    Type *st, *rt;
    if (type_check(s, stype, &st) || type_check(s, rtype, &rt))
        return mpi_err(comm, MPI_ERR_TYPE);
    int nin, nout, *ins, *outs;
    if (comm_neighbors(c, &nin, &ins, &nout, &outs))
        return mpi_err(comm, MPI_ERR_TOPOLOGY);
    int *sc = mpi_alloc((size_t)nout * sizeof(int) + 1);
    int *rc = mpi_alloc((size_t)nin * sizeof(int) + 1);
    MPI_Aint *sd = mpi_alloc((size_t)nout * sizeof(MPI_Aint) + 1);
    MPI_Aint *rd = mpi_alloc((size_t)nin * sizeof(MPI_Aint) + 1);
    MPI_Datatype *sts = mpi_alloc((size_t)nout * sizeof(MPI_Datatype) + 1);
    MPI_Datatype *rts = mpi_alloc((size_t)nin * sizeof(MPI_Datatype) + 1);
    for (int k = 0; k < nout; k++) {
        sc[k] = gather ? scounts[0] : scounts[k];
        sd[k] = gather ? 0 : (MPI_Aint)sdispls[k] * type_extent(st);
        sts[k] = stype;
    }
    for (int k = 0; k < nin; k++) {
        rc[k] = rcounts[k];
        rd[k] = (MPI_Aint)rdispls[k] * type_extent(rt);
        rts[k] = rtype;
    }
    int e = neighbor_general(s, c, comm, sbuf, sc, sd, sts, rbuf, rc, rd, rts, nin, ins,
                             nout, outs);
    mpi_free(sc), mpi_free(rc), mpi_free(sd), mpi_free(rd), mpi_free(sts), mpi_free(rts);
    mpi_free(ins), mpi_free(outs);
    return e;
}

/* counts and displacements of the regular forms: n blocks of count */
static void
regular(int n, int count, int **counts, int **displs)
{
    *counts = mpi_alloc((size_t)n * sizeof(int) + 1);
    *displs = mpi_alloc((size_t)n * sizeof(int) + 1);
    for (int k = 0; k < n; k++)
        (*counts)[k] = count, (*displs)[k] = k * count;
}

static int
degree(MPI_Comm comm, int *nin, int *nout)
{
    MpiState *s = mpi_state();
    Comm *c = s ? comm_get(s, comm) : NULL;
    int *ins, *outs;
    if (!c || comm_neighbors(c, nin, &ins, nout, &outs))
        return -1;
    mpi_free(ins), mpi_free(outs);
    return 0;
}

int
MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                       int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int nin, nout, *rc, *rd;
    if (degree(comm, &nin, &nout))
        return mpi_err(comm, MPI_ERR_TOPOLOGY);
    regular(nin, rcount, &rc, &rd);
    int e = neighbor("MPI_Neighbor_allgather", 1, sbuf, &scount, NULL, stype, rbuf, rc,
                     rd, rtype, comm);
    mpi_free(rc), mpi_free(rd);
    return e;
}

int
MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                        const int rcounts[], const int displs[], MPI_Datatype rtype,
                        MPI_Comm comm)
{
    return neighbor("MPI_Neighbor_allgatherv", 1, sbuf, &scount, NULL, stype, rbuf,
                    rcounts, displs, rtype, comm);
}

int
MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                      int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int nin, nout, *rc, *rd, *sc, *sd;
    if (degree(comm, &nin, &nout))
        return mpi_err(comm, MPI_ERR_TOPOLOGY);
    regular(nin, rcount, &rc, &rd);
    regular(nout, scount, &sc, &sd);
    int e = neighbor("MPI_Neighbor_alltoall", 0, sbuf, sc, sd, stype, rbuf, rc, rd, rtype,
                     comm);
    mpi_free(rc), mpi_free(rd), mpi_free(sc), mpi_free(sd);
    return e;
}

int
MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                       MPI_Datatype stype, void *rbuf, const int rcounts[],
                       const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    return neighbor("MPI_Neighbor_alltoallv", 0, sbuf, scounts, sdispls, stype, rbuf,
                    rcounts, rdispls, rtype, comm);
}

int
MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
                       const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                       const MPI_Aint rdispls[], const MPI_Datatype rtypes[],
                       MPI_Comm comm)
{
    COLL("MPI_Neighbor_alltoallw", comm);
    int nin, nout, *ins, *outs;
    if (comm_neighbors(c, &nin, &ins, &nout, &outs))
        return mpi_err(comm, MPI_ERR_TOPOLOGY);
    for (int k = 0; k < nin; k++) {
        Type *t;
        if (type_check(s, rtypes[k], &t))
            return mpi_err(comm, MPI_ERR_TYPE);
    }
    for (int k = 0; k < nout; k++) {
        Type *t;
        if (type_check(s, stypes[k], &t))
            return mpi_err(comm, MPI_ERR_TYPE);
    }
    int e = neighbor_general(s, c, comm, sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                             rdispls, rtypes, nin, ins, nout, outs);
    mpi_free(ins), mpi_free(outs);
    return e;
}
