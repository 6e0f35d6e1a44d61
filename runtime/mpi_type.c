/* mpi_type.c: datatypes. A datatype is its type map flattened into blocks of
 * contiguous bytes (in type-map order, neighbours merged), its size, bounds and the
 * predefined type of its elements (for reductions); messages carry the packed bytes.
 * Part of the API layer (mpi_int.h). */
#include "mpi_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

typedef struct {
    float v;
    int i;
} FloatInt;
typedef struct {
    double v;
    int i;
} DoubleInt;
typedef struct {
    long v;
    int i;
} LongInt;
typedef struct {
    short v;
    int i;
} ShortInt;
typedef struct {
    long double v;
    int i;
} LongDoubleInt;

static const struct {
    int h;
    size_t size, extent;
    size_t off2, size1; /* pairs: offset of the int, size of the value */
    const char *name;
} predefs[] = {
    {MPI_BYTE, 1, 1, 0, 0, "MPI_BYTE"},
    {MPI_CHAR, 1, 1, 0, 0, "MPI_CHAR"},
    {MPI_INT, sizeof(int), sizeof(int), 0, 0, "MPI_INT"},
    {MPI_FLOAT, sizeof(float), sizeof(float), 0, 0, "MPI_FLOAT"},
    {MPI_DOUBLE, sizeof(double), sizeof(double), 0, 0, "MPI_DOUBLE"},
    {MPI_LONG, sizeof(long), sizeof(long), 0, 0, "MPI_LONG"},
    {MPI_UNSIGNED, sizeof(unsigned), sizeof(unsigned), 0, 0, "MPI_UNSIGNED"},
    {MPI_SIGNED_CHAR, 1, 1, 0, 0, "MPI_SIGNED_CHAR"},
    {MPI_UNSIGNED_CHAR, 1, 1, 0, 0, "MPI_UNSIGNED_CHAR"},
    {MPI_SHORT, sizeof(short), sizeof(short), 0, 0, "MPI_SHORT"},
    {MPI_UNSIGNED_SHORT, sizeof(short), sizeof(short), 0, 0, "MPI_UNSIGNED_SHORT"},
    {MPI_UNSIGNED_LONG, sizeof(long), sizeof(long), 0, 0, "MPI_UNSIGNED_LONG"},
    {MPI_LONG_LONG, sizeof(long long), sizeof(long long), 0, 0, "MPI_LONG_LONG"},
    {MPI_UNSIGNED_LONG_LONG, sizeof(long long), sizeof(long long), 0, 0,
     "MPI_UNSIGNED_LONG_LONG"},
    {MPI_LONG_DOUBLE, sizeof(long double), sizeof(long double), 0, 0, "MPI_LONG_DOUBLE"},
    {MPI_WCHAR, sizeof(wchar_t), sizeof(wchar_t), 0, 0, "MPI_WCHAR"},
    {MPI_C_BOOL, sizeof(_Bool), sizeof(_Bool), 0, 0, "MPI_C_BOOL"},
    {MPI_INT8_T, 1, 1, 0, 0, "MPI_INT8_T"},
    {MPI_INT16_T, 2, 2, 0, 0, "MPI_INT16_T"},
    {MPI_INT32_T, 4, 4, 0, 0, "MPI_INT32_T"},
    {MPI_INT64_T, 8, 8, 0, 0, "MPI_INT64_T"},
    {MPI_UINT8_T, 1, 1, 0, 0, "MPI_UINT8_T"},
    {MPI_UINT16_T, 2, 2, 0, 0, "MPI_UINT16_T"},
    {MPI_UINT32_T, 4, 4, 0, 0, "MPI_UINT32_T"},
    {MPI_UINT64_T, 8, 8, 0, 0, "MPI_UINT64_T"},
    {MPI_AINT, sizeof(MPI_Aint), sizeof(MPI_Aint), 0, 0, "MPI_AINT"},
    {MPI_OFFSET, sizeof(MPI_Offset), sizeof(MPI_Offset), 0, 0, "MPI_OFFSET"},
    {MPI_COUNT, sizeof(MPI_Count), sizeof(MPI_Count), 0, 0, "MPI_COUNT"},
    {MPI_C_FLOAT_COMPLEX, 2 * sizeof(float), 2 * sizeof(float), 0, 0,
     "MPI_C_FLOAT_COMPLEX"},
    {MPI_C_DOUBLE_COMPLEX, 2 * sizeof(double), 2 * sizeof(double), 0, 0,
     "MPI_C_DOUBLE_COMPLEX"},
    {MPI_C_LONG_DOUBLE_COMPLEX, 2 * sizeof(long double), 2 * sizeof(long double), 0, 0,
     "MPI_C_LONG_DOUBLE_COMPLEX"},
    {MPI_PACKED, 1, 1, 0, 0, "MPI_PACKED"},
    {MPI_FLOAT_INT, sizeof(float) + sizeof(int), sizeof(FloatInt), offsetof(FloatInt, i),
     sizeof(float), "MPI_FLOAT_INT"},
    {MPI_DOUBLE_INT, sizeof(double) + sizeof(int), sizeof(DoubleInt),
     offsetof(DoubleInt, i), sizeof(double), "MPI_DOUBLE_INT"},
    {MPI_LONG_INT, sizeof(long) + sizeof(int), sizeof(LongInt), offsetof(LongInt, i),
     sizeof(long), "MPI_LONG_INT"},
    {MPI_2INT, 2 * sizeof(int), 2 * sizeof(int), 0, 0, "MPI_2INT"},
    {MPI_SHORT_INT, sizeof(short) + sizeof(int), sizeof(ShortInt), offsetof(ShortInt, i),
     sizeof(short), "MPI_SHORT_INT"},
    {MPI_LONG_DOUBLE_INT, sizeof(long double) + sizeof(int), sizeof(LongDoubleInt),
     offsetof(LongDoubleInt, i), sizeof(long double), "MPI_LONG_DOUBLE_INT"},
    {MPI_LB, 0, 0, 0, 0, "MPI_LB"},
    {MPI_UB, 0, 0, 0, 0, "MPI_UB"},
};

size_t
basic_size(int basic)
{
    for (size_t i = 0; i < sizeof predefs / sizeof predefs[0]; i++)
        if (predefs[i].h == basic)
            return predefs[i].size;
    return 0;
}

/* the predefined types of s, made at the first look-up (the environment that makes
 * s is the layer below) */
static void
type_init_predefined(MpiState *s)
{
    for (size_t i = 0; i < sizeof predefs / sizeof predefs[0]; i++) {
        Type *t = &s->predef[predefs[i].h];
        t->used = t->committed = t->predefined = 1;
        t->size = (MPI_Count)predefs[i].size;
        t->ub = t->true_ub = (MPI_Aint)predefs[i].extent;
        t->basic = predefs[i].h;
        t->nelem = predefs[i].size ? 1 : 0;
        t->combiner = MPI_COMBINER_NAMED;
        snprintf(t->name, sizeof t->name, "%s", predefs[i].name);
        static TBlk blks[NPREDEF][2];
        TBlk *b = blks[predefs[i].h];
        if (predefs[i].off2) { /* a value and an int with a hole between */
            b[0] = (TBlk){0, (MPI_Aint)predefs[i].size1};
            b[1] = (TBlk){(MPI_Aint)predefs[i].off2, (MPI_Aint)sizeof(int)};
            t->nblk = 2;
            t->true_ub = (MPI_Aint)(predefs[i].off2 + sizeof(int));
        } else if (predefs[i].size) {
            b[0] = (TBlk){0, (MPI_Aint)predefs[i].size};
            t->nblk = 1;
        }
        t->blk = b;
    }
}

Type *
type_get(MpiState *s, MPI_Datatype h)
{
    if (!s->predef[MPI_BYTE].used)
        type_init_predefined(s);
    if (h > 0 && h < NPREDEF)
        return s->predef[h].used ? &s->predef[h] : NULL;
    Type *t = tab_at(&s->types, h - TYPE_BASE);
    return h >= TYPE_BASE && t && t->used && !t->freed ? t : NULL;
}

static void
type_release(Type *t)
{
    mpi_free(t->blk);
    mpi_free(t->ints);
    mpi_free(t->addrs);
    mpi_free(t->types);
    t->used = 0;
}

void
type_ref(Type *t)
{
    if (!t->predefined)
        t->refs++;
}

void
type_unref(Type *t)
{
    if (!t->predefined && --t->refs == 0 && t->freed)
        type_release(t);
}

int
type_check(MpiState *s, MPI_Datatype h, Type **out)
{
    Type *t = type_get(s, h);
    if (!t || !t->committed || (t->predefined && h >= MPI_CHARACTER))
        return MPI_ERR_TYPE;
    *out = t;
    return MPI_SUCCESS;
}

int
type_contig(const Type *t)
{
    return t->size == 0 || (t->nblk == 1 && t->blk[0].off == 0 && t->lb == 0 &&
                            (MPI_Count)type_extent(t) == t->size);
}

void
type_pack(const Type *t, const void *buf, MPI_Count count, void *out)
{
    const unsigned char *in = buf;
    unsigned char *o = out;
    MPI_Aint ext = type_extent(t);
    if (type_contig(t)) {
        if (t->size && count)
            memcpy(o, in, (size_t)(t->size * count));
        return;
    }
    for (MPI_Count i = 0; i < count; i++)
        for (int b = 0; b < t->nblk; b++) {
            memcpy(o, in + i * ext + t->blk[b].off, (size_t)t->blk[b].len);
            o += t->blk[b].len;
        }
}

void
type_unpack(const Type *t, const void *packed, MPI_Count count, void *buf)
{
    const unsigned char *in = packed;
    unsigned char *o = buf;
    MPI_Aint ext = type_extent(t);
    if (type_contig(t)) {
        if (t->size && count)
            memcpy(o, in, (size_t)(t->size * count));
        return;
    }
    for (MPI_Count i = 0; i < count; i++)
        for (int b = 0; b < t->nblk; b++) {
            memcpy(o + i * ext + t->blk[b].off, in, (size_t)t->blk[b].len);
            in += t->blk[b].len;
        }
}

/* ---- constructors ---- */

static Type *
type_slot(MpiState *s, MPI_Datatype *h)
{
    int i = tab_new(&s->types, 0, sizeof(Type));
    Type *t = tab_at(&s->types, i);
    t->used = 1;
    *h = TYPE_BASE + i;
    return t;
}

static void
save_contents(Type *t, int combiner, int ni, const int *ints, int na,
              const MPI_Aint *addrs, int nt, const MPI_Datatype *types)
{
    t->combiner = combiner;
    t->nints = ni, t->naddrs = na, t->ntypes = nt;
    t->ints = mpi_alloc((size_t)ni * sizeof(int) + 1);
    t->addrs = mpi_alloc((size_t)na * sizeof(MPI_Aint) + 1);
    t->types = mpi_alloc((size_t)nt * sizeof(MPI_Datatype) + 1);
    if (ni)
        memcpy(t->ints, ints, (size_t)ni * sizeof(int));
    if (na)
        memcpy(t->addrs, addrs, (size_t)na * sizeof(MPI_Aint));
    if (nt)
        memcpy(t->types, types, (size_t)nt * sizeof(MPI_Datatype));
}

/* the general constructor: n pieces, piece i is bl[i] instances of types[i] at byte
 * displacement disp[i]; the new type is *out. 0 or an error code. */
static int
build(MpiState *s, int n, const int *bl, const MPI_Aint *disp, const MPI_Datatype *types,
      MPI_Datatype *out, Type **made)
{
    if (n < 0)
        return MPI_ERR_COUNT;
    long long nblk = 0;
    int first = 1, have_lb = 0, have_ub = 0;
    MPI_Aint lb = 0, ub = 0, tlb = 0, tub = 0, mlb = 0, mub = 0;
    int basic = -1;
    MPI_Count size = 0, nelem = 0;
    for (int i = 0; i < n; i++) {
        if (bl[i] < 0)
            return MPI_ERR_ARG;
        Type *o = type_get(s, types[i]);
        if (!o)
            return MPI_ERR_TYPE;
        if (types[i] == MPI_LB) {
            mlb = have_lb ? (disp[i] < mlb ? disp[i] : mlb) : disp[i];
            have_lb = 1;
            continue;
        }
        if (types[i] == MPI_UB) {
            mub = have_ub ? (disp[i] > mub ? disp[i] : mub) : disp[i];
            have_ub = 1;
            continue;
        }
        if (bl[i] == 0)
            continue;
        nblk += (long long)bl[i] * o->nblk;
        size += (MPI_Count)bl[i] * o->size;
        nelem += (MPI_Count)bl[i] * o->nelem;
        MPI_Aint ext = type_extent(o);
        MPI_Aint a = disp[i] + o->lb, b = disp[i] + o->ub + (MPI_Aint)(bl[i] - 1) * ext;
        if (ext < 0) {
            a = disp[i] + o->lb + (MPI_Aint)(bl[i] - 1) * ext;
            b = disp[i] + o->ub;
        }
        MPI_Aint ta = disp[i] + o->true_lb + (ext < 0 ? (MPI_Aint)(bl[i] - 1) * ext : 0);
        MPI_Aint tb = disp[i] + o->true_ub + (ext > 0 ? (MPI_Aint)(bl[i] - 1) * ext : 0);
        if (first) {
            lb = a, ub = b, tlb = ta, tub = tb, first = 0;
        } else {
            lb = a < lb ? a : lb;
            ub = b > ub ? b : ub;
            tlb = ta < tlb ? ta : tlb;
            tub = tb > tub ? tb : tub;
        }
        if (o->size) {
            if (basic == -1)
                basic = o->basic;
            else if (basic != o->basic)
                basic = 0;
        }
    }
    if (nblk > (1LL << 26))
        return MPI_ERR_NO_MEM;
    Type *t = type_slot(s, out);
    t->blk = mpi_alloc((size_t)nblk * sizeof(TBlk) + 1);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (types[i] == MPI_LB || types[i] == MPI_UB)
            continue;
        Type *o = type_get(s, types[i]);
        MPI_Aint ext = type_extent(o);
        for (int j = 0; j < bl[i]; j++)
            for (int b = 0; b < o->nblk; b++) {
                MPI_Aint off = disp[i] + (MPI_Aint)j * ext + o->blk[b].off;
                if (k > 0 && t->blk[k - 1].off + t->blk[k - 1].len == off)
                    t->blk[k - 1].len += o->blk[b].len;
                else
                    t->blk[k++] = (TBlk){off, o->blk[b].len};
            }
    }
    t->nblk = k;
    t->size = size;
    t->nelem = nelem;
    t->basic = basic > 0 ? basic : 0;
    if (basic == -1) /* no data: the elements of the first type */
        t->basic = n > 0 && type_get(s, types[0]) ? type_get(s, types[0])->basic : 0;
    t->lb = have_lb ? mlb : lb;
    t->ub = have_ub ? mub : ub;
    t->true_lb = tlb;
    t->true_ub = tub;
    if (made)
        *made = t;
    return MPI_SUCCESS;
}

int
MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_contiguous");
    if (count < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    Type *t;
    MPI_Aint d = 0;
    int e = build(s, 1, &count, &d, &old, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    save_contents(t, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &old);
    return MPI_SUCCESS;
}

static int
hvector(MpiState *s, int count, int bl, MPI_Aint stride, MPI_Datatype old,
        MPI_Datatype *newtype, Type **t)
{
    if (count < 0 || bl < 0)
        return MPI_ERR_COUNT;
    int *bls = mpi_alloc((size_t)count * sizeof(int) + 1);
    MPI_Aint *d = mpi_alloc((size_t)count * sizeof(MPI_Aint) + 1);
    MPI_Datatype *ty = mpi_alloc((size_t)count * sizeof(MPI_Datatype) + 1);
    for (int i = 0; i < count; i++)
        bls[i] = bl, d[i] = (MPI_Aint)i * stride, ty[i] = old;
    int e = build(s, count, bls, d, ty, newtype, t);
    mpi_free(bls);
    mpi_free(d);
    mpi_free(ty);
    return e;
}

int
MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old,
                MPI_Datatype *newtype)
{
    ENTER("MPI_Type_vector");
    Type *o = type_get(s, old), *t;
    if (!o)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    int e =
        hvector(s, count, blocklen, (MPI_Aint)stride * type_extent(o), old, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[3] = {count, blocklen, stride};
    save_contents(t, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &old);
    return MPI_SUCCESS;
}

int
MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                        MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_hvector");
    Type *t;
    int e = hvector(s, count, blocklen, stride, old, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[2] = {count, blocklen};
    save_contents(t, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &old);
    return MPI_SUCCESS;
}

int
MPI_Type_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                 MPI_Datatype *newtype)
{
    return MPI_Type_create_hvector(count, blocklen, stride, old, newtype);
}

static int
hindexed(MpiState *s, int count, const int *bl, const MPI_Aint *d, MPI_Datatype old,
         MPI_Datatype *newtype, Type **t)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    MPI_Datatype *ty = mpi_alloc((size_t)count * sizeof(MPI_Datatype) + 1);
    for (int i = 0; i < count; i++)
        ty[i] = old;
    int e = build(s, count, bl, d, ty, newtype, t);
    mpi_free(ty);
    return e;
}

int
MPI_Type_indexed(int count, const int blocklens[], const int displs[], MPI_Datatype old,
                 MPI_Datatype *newtype)
{
    ENTER("MPI_Type_indexed");
    Type *o = type_get(s, old), *t;
    if (!o)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    if (count < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    MPI_Aint *d = mpi_alloc((size_t)count * sizeof(MPI_Aint) + 1);
    for (int i = 0; i < count; i++)
        d[i] = (MPI_Aint)displs[i] * type_extent(o);
    int e = hindexed(s, count, blocklens, d, old, newtype, &t);
    mpi_free(d);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = mpi_alloc((size_t)(2 * count + 1) * sizeof(int));
    ints[0] = count;
    memcpy(ints + 1, blocklens, (size_t)count * sizeof(int));
    memcpy(ints + 1 + count, displs, (size_t)count * sizeof(int));
    save_contents(t, MPI_COMBINER_INDEXED, 2 * count + 1, ints, 0, NULL, 1, &old);
    mpi_free(ints);
    return MPI_SUCCESS;
}

int
MPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint displs[],
                         MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_hindexed");
    Type *t;
    int e = hindexed(s, count, blocklens, displs, old, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = mpi_alloc((size_t)(count + 1) * sizeof(int));
    ints[0] = count;
    memcpy(ints + 1, blocklens, (size_t)count * sizeof(int));
    save_contents(t, MPI_COMBINER_HINDEXED, count + 1, ints, count, displs, 1, &old);
    mpi_free(ints);
    return MPI_SUCCESS;
}

int
MPI_Type_hindexed(int count, const int blocklens[], const MPI_Aint displs[],
                  MPI_Datatype old, MPI_Datatype *newtype)
{
    return MPI_Type_create_hindexed(count, blocklens, displs, old, newtype);
}

int
MPI_Type_create_indexed_block(int count, int blocklen, const int displs[],
                              MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_indexed_block");
    Type *o = type_get(s, old), *t;
    if (!o)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    if (count < 0 || blocklen < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    MPI_Aint *d = mpi_alloc((size_t)count * sizeof(MPI_Aint) + 1);
    int *bl = mpi_alloc((size_t)count * sizeof(int) + 1);
    for (int i = 0; i < count; i++)
        d[i] = (MPI_Aint)displs[i] * type_extent(o), bl[i] = blocklen;
    int e = hindexed(s, count, bl, d, old, newtype, &t);
    mpi_free(d);
    mpi_free(bl);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = mpi_alloc((size_t)(count + 2) * sizeof(int));
    ints[0] = count, ints[1] = blocklen;
    memcpy(ints + 2, displs, (size_t)count * sizeof(int));
    save_contents(t, MPI_COMBINER_INDEXED_BLOCK, count + 2, ints, 0, NULL, 1, &old);
    mpi_free(ints);
    return MPI_SUCCESS;
}

int
MPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint displs[],
                               MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_hindexed_block");
    if (count < 0 || blocklen < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    Type *t;
    int *bl = mpi_alloc((size_t)count * sizeof(int) + 1);
    for (int i = 0; i < count; i++)
        bl[i] = blocklen;
    int e = hindexed(s, count, bl, displs, old, newtype, &t);
    mpi_free(bl);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[2] = {count, blocklen};
    save_contents(t, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, count, displs, 1, &old);
    return MPI_SUCCESS;
}

int
MPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint displs[],
                       const MPI_Datatype types[], MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_struct");
    Type *t;
    int e = build(s, count, blocklens, displs, types, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = mpi_alloc((size_t)(count + 1) * sizeof(int));
    ints[0] = count;
    memcpy(ints + 1, blocklens, (size_t)count * sizeof(int));
    save_contents(t, MPI_COMBINER_STRUCT, count + 1, ints, count, displs, count, types);
    mpi_free(ints);
    return MPI_SUCCESS;
}

int
MPI_Type_struct(int count, const int blocklens[], const MPI_Aint displs[],
                const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return MPI_Type_create_struct(count, blocklens, displs, types, newtype);
}

int
MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                        MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_resized");
    Type *t;
    int one = 1;
    MPI_Aint d = 0;
    int e = build(s, 1, &one, &d, &old, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    t->lb = lb;
    t->ub = lb + extent;
    MPI_Aint a[2] = {lb, extent};
    save_contents(t, MPI_COMBINER_RESIZED, 0, NULL, 2, a, 1, &old);
    return MPI_SUCCESS;
}

int
MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_dup");
    Type *t;
    int one = 1;
    MPI_Aint d = 0;
    int e = build(s, 1, &one, &d, &old, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    Type *o = type_get(s, old);
    t->lb = o->lb, t->ub = o->ub;
    t->committed = o->committed;
    save_contents(t, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old);
    return MPI_SUCCESS;
}

int
MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                         const int starts[], int order, MPI_Datatype old,
                         MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_subarray");
    Type *o = type_get(s, old);
    if (!o)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    if (ndims < 1 || ndims > 32)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    int sz[32], sub[32], st[32];
    long long total = 1, nrows = 1;
    for (int i = 0; i < ndims; i++) {
        int k = order == MPI_ORDER_C ? i : ndims - 1 - i; /* C order from here on */
        sz[i] = sizes[k], sub[i] = subsizes[k], st[i] = starts[k];
        if (sub[i] < 0 || st[i] < 0 || sub[i] + st[i] > sz[i])
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
        total *= sz[i];
        if (i < ndims - 1)
            nrows *= sub[i];
    }
    MPI_Aint ext = type_extent(o);
    int n = (int)nrows;
    int *bl = mpi_alloc((size_t)n * sizeof(int) + 1);
    MPI_Aint *d = mpi_alloc((size_t)n * sizeof(MPI_Aint) + 1);
    int idx[32] = {0};
    for (int r = 0; r < n; r++) {
        long long off = 0;
        for (int i = 0; i < ndims; i++)
            off = off * sz[i] + st[i] + (i < ndims - 1 ? idx[i] : 0);
        d[r] = (MPI_Aint)off * ext;
        bl[r] = sub[ndims - 1];
        for (int i = ndims - 2; i >= 0; i--) {
            if (++idx[i] < sub[i])
                break;
            idx[i] = 0;
        }
    }
    Type *t;
    int e = hindexed(s, n, bl, d, old, newtype, &t);
    mpi_free(bl);
    mpi_free(d);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    t->lb = 0;
    t->ub = (MPI_Aint)total * ext;
    int ints[3 * 32 + 2];
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++) {
        ints[1 + i] = sizes[i];
        ints[1 + ndims + i] = subsizes[i];
        ints[1 + 2 * ndims + i] = starts[i];
    }
    ints[1 + 3 * ndims] = order;
    save_contents(t, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &old);
    return MPI_SUCCESS;
}

int
MPI_Type_commit(MPI_Datatype *type)
{
    ENTER("MPI_Type_commit");
    Type *t = type_get(s, *type);
    if (!t)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    t->committed = 1;
    return MPI_SUCCESS;
}

int
MPI_Type_free(MPI_Datatype *type)
{
    ENTER("MPI_Type_free");
    Type *t = type_get(s, *type);
    if (!t || t->predefined)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    /* a request that uses it keeps it until it is done */
    t->freed = 1;
    if (t->refs == 0)
        type_release(t);
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

/* ---- queries ---- */

#define TYPE(var, h)                                                                     \
    Type *var = type_get(s, h);                                                          \
    if (!var)                                                                            \
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);

int
MPI_Type_size(MPI_Datatype type, int *size)
{
    ENTER("MPI_Type_size");
    TYPE(t, type);
    *size = t->size > 0x7fffffff ? MPI_UNDEFINED : (int)t->size;
    return MPI_SUCCESS;
}

int
MPI_Type_size_x(MPI_Datatype type, MPI_Count *size)
{
    ENTER("MPI_Type_size_x");
    TYPE(t, type);
    *size = t->size;
    return MPI_SUCCESS;
}

int
MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
    ENTER("MPI_Type_get_extent");
    TYPE(t, type);
    *lb = t->lb;
    *extent = type_extent(t);
    return MPI_SUCCESS;
}

int
MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
    ENTER("MPI_Type_get_extent_x");
    TYPE(t, type);
    *lb = t->lb;
    *extent = type_extent(t);
    return MPI_SUCCESS;
}

int
MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
    ENTER("MPI_Type_get_true_extent");
    TYPE(t, type);
    *lb = t->true_lb;
    *extent = t->true_ub - t->true_lb;
    return MPI_SUCCESS;
}

int
MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
    ENTER("MPI_Type_get_true_extent_x");
    TYPE(t, type);
    *lb = t->true_lb;
    *extent = t->true_ub - t->true_lb;
    return MPI_SUCCESS;
}

int
MPI_Type_extent(MPI_Datatype type, MPI_Aint *extent)
{
    MPI_Aint lb = 0;
    return MPI_Type_get_extent(type, &lb, extent);
}

int
MPI_Type_lb(MPI_Datatype type, MPI_Aint *lb)
{
    MPI_Aint ext = 0;
    return MPI_Type_get_extent(type, lb, &ext);
}

int
MPI_Type_ub(MPI_Datatype type, MPI_Aint *ub)
{
    MPI_Aint lb = 0, ext = 0;
    int e = MPI_Type_get_extent(type, &lb, &ext);
    if (!e)
        *ub = lb + ext;
    return e;
}

int
MPI_Type_get_envelope(MPI_Datatype type, int *nints, int *naddrs, int *ntypes,
                      int *combiner)
{
    ENTER("MPI_Type_get_envelope");
    TYPE(t, type);
    *combiner = t->combiner;
    *nints = t->nints, *naddrs = t->naddrs, *ntypes = t->ntypes;
    return MPI_SUCCESS;
}

int
MPI_Type_get_contents(MPI_Datatype type, int maxints, int maxaddrs, int maxtypes,
                      int ints[], MPI_Aint addrs[], MPI_Datatype types[])
{
    ENTER("MPI_Type_get_contents");
    TYPE(t, type);
    if (t->predefined || maxints < t->nints || maxaddrs < t->naddrs ||
        maxtypes < t->ntypes)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    if (t->nints)
        memcpy(ints, t->ints, (size_t)t->nints * sizeof(int));
    if (t->naddrs)
        memcpy(addrs, t->addrs, (size_t)t->naddrs * sizeof(MPI_Aint));
    if (t->ntypes)
        memcpy(types, t->types, (size_t)t->ntypes * sizeof(MPI_Datatype));
    return MPI_SUCCESS;
}

int
MPI_Type_set_name(MPI_Datatype type, const char *name)
{
    ENTER("MPI_Type_set_name");
    TYPE(t, type);
    snprintf(t->name, sizeof t->name, "%s", name);
    return MPI_SUCCESS;
}

int
MPI_Type_get_name(MPI_Datatype type, char *name, int *len)
{
    ENTER("MPI_Type_get_name");
    TYPE(t, type);
    *len = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", t->name);
    return MPI_SUCCESS;
}

int
MPI_Type_match_size(int typeclass, int size, MPI_Datatype *type)
{
    static const int real[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
    static const int integer[] = {MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T};
    static const int cplx[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                               MPI_C_LONG_DOUBLE_COMPLEX};
    const int *l = typeclass == MPI_TYPECLASS_REAL      ? real
                   : typeclass == MPI_TYPECLASS_INTEGER ? integer
                                                        : cplx;
    int n = typeclass == MPI_TYPECLASS_INTEGER ? 4 : 3;
    if (typeclass < 1 || typeclass > 3)
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        if ((int)basic_size(l[i]) == size) {
            *type = l[i];
            return MPI_SUCCESS;
        }
    return MPI_ERR_ARG;
}

int
MPI_Get_address(const void *location, MPI_Aint *address)
{
    *address = (MPI_Aint)(intptr_t)location;
    return MPI_SUCCESS;
}

int
MPI_Address(void *location, MPI_Aint *address)
{
    return MPI_Get_address(location, address);
}

MPI_Aint
MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return base + disp;
}

MPI_Aint
MPI_Aint_diff(MPI_Aint a, MPI_Aint b)
{
    return a - b;
}

/* ---- counts in statuses ---- */

int
MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
    ENTER("MPI_Get_count");
    TYPE(t, type);
    long long bytes = status->mpirio_bytes;
    if (t->size == 0)
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;
    else if (bytes % t->size || bytes / t->size > 0x7fffffff)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(bytes / t->size);
    return MPI_SUCCESS;
}

int
MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    ENTER("MPI_Get_elements_x");
    TYPE(t, type);
    long long bytes = status->mpirio_bytes;
    if (t->size == 0) {
        *count = 0;
        return MPI_SUCCESS;
    }
    MPI_Count whole = bytes / t->size, rest = bytes % t->size;
    MPI_Count n = whole * t->nelem;
    if (rest) {
        /* a partial instance: the whole basic elements of the rest */
        size_t bs = basic_size(t->basic);
        if (!bs || rest % (MPI_Count)bs) {
            *count = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        n += rest / (MPI_Count)bs;
    }
    *count = n;
    return MPI_SUCCESS;
}

int
MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count)
{
    MPI_Count n;
    int e = MPI_Get_elements_x(status, type, &n);
    if (!e)
        *count = n > 0x7fffffff ? MPI_UNDEFINED : (int)n;
    return e;
}

int
MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count)
{
    ENTER("MPI_Status_set_elements_x");
    TYPE(t, type);
    if (count < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    MPI_Count per = t->nelem ? t->size / t->nelem : 0;
    status->mpirio_bytes = count * per;
    return MPI_SUCCESS;
}

int
MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
    return MPI_Status_set_elements_x(status, type, count);
}

int
MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    status->mpirio_cancelled = flag != 0;
    return MPI_SUCCESS;
}

/* ---- pack, unpack ---- */

int
MPI_Pack(const void *in, int count, MPI_Datatype type, void *out, int outsize,
         int *position, MPI_Comm comm)
{
    ENTER("MPI_Pack");
    Type *t;
    if (type_check(s, type, &t))
        return mpi_err(comm, MPI_ERR_TYPE);
    if (count < 0)
        return mpi_err(comm, MPI_ERR_COUNT);
    MPI_Count n = t->size * count;
    if (*position < 0 || *position + n > outsize)
        return mpi_err(comm, MPI_ERR_TRUNCATE);
    type_pack(t, in, count, (unsigned char *)out + *position);
    *position += (int)n;
    return MPI_SUCCESS;
}

int
MPI_Unpack(const void *in, int insize, int *position, void *out, int count,
           MPI_Datatype type, MPI_Comm comm)
{
    ENTER("MPI_Unpack");
    Type *t;
    if (type_check(s, type, &t))
        return mpi_err(comm, MPI_ERR_TYPE);
    if (count < 0)
        return mpi_err(comm, MPI_ERR_COUNT);
    MPI_Count n = t->size * count;
    if (*position < 0 || *position + n > insize)
        return mpi_err(comm, MPI_ERR_TRUNCATE);
    type_unpack(t, (const unsigned char *)in + *position, count, out);
    *position += (int)n;
    return MPI_SUCCESS;
}

int
MPI_Pack_size(int count, MPI_Datatype type, MPI_Comm comm, int *size)
{
    ENTER("MPI_Pack_size");
    TYPE(t, type);
    if (count < 0)
        return mpi_err(comm, MPI_ERR_COUNT);
    *size = (int)(t->size * count);
    return MPI_SUCCESS;
}
