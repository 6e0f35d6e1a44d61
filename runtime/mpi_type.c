/* mpi_type.c: datatypes. A datatype is a tree (mpi_int.h, Type): nrep repetitions of
 * a list of pieces, each a number of instances of a type below; a predefined type of
 * one basic element is a leaf, a pair type (MPI_FLOAT_INT, ...) has two pieces. So a
 * type's memory is its constructor's arguments, never its element count (a vector of
 * 2^31 blocks is one piece), and every size and bound is computed once, with checked
 * arithmetic. Messages carry the packed bytes: a walk of the tree copies one run of
 * bytes per leaf (or per block whose data is one run), in type-map order, and may stop
 * anywhere (a message shorter than the buffer). Part of the API layer (mpi_int.h),
 * below mpi_comm.c, above mpi_env.c. */
#include "mpi_int.h"

#include <float.h>
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
typedef struct {
    float v, w;
} FloatFloat;
__extension__ typedef __int128 Int128; /* MPI_INTEGER16 */
typedef struct {
    double v, w;
} DoubleDouble;

/* how a basic type is written in external32 (MPI 3.1 section 13.5.2): big-endian
 * integers of xsize bytes (the low bytes of a longer native one), IEEE floats, long
 * double as IEEE quadruple precision, bool as one byte; complex types as two parts */
enum { X_RAW, X_INT, X_UINT, X_FLT, X_LDBL, X_BOOL };

/* the predefined types: a basic type (size, alignment, the type reductions treat it
 * as, its external32 form), or a pair of two basic ones (the second at off2) */
static const struct {
    int h;
    size_t size, align;
    int basic;        /* the predefined type reductions apply (0: none) */
    int x, xsize, nx; /* external32: kind, bytes of one part, parts (2: complex) */
    int v, w;         /* a pair: the types of its two elements */
    size_t off2, extent;
    const char *name;
} predefs[] = {
#define B(h, T, basic, x, xs, nx, name)                                                  \
    {                                                                                    \
        h, sizeof(T), _Alignof(T), basic, x, xs, nx, 0, 0, 0, sizeof(T), name            \
    }
#define P(h, S, T1, T2, v, w, basic, name)                                               \
    {                                                                                    \
        h, sizeof(T1) + sizeof(T2), _Alignof(S), basic, 0, 0, 0, v, w, offsetof(S, i),   \
            sizeof(S), name                                                              \
    }
    B(MPI_BYTE, char, MPI_BYTE, X_RAW, 1, 1, "MPI_BYTE"),
    B(MPI_CHAR, char, MPI_CHAR, X_RAW, 1, 1, "MPI_CHAR"),
    B(MPI_INT, int, MPI_INT, X_INT, 4, 1, "MPI_INT"),
    B(MPI_FLOAT, float, MPI_FLOAT, X_FLT, 4, 1, "MPI_FLOAT"),
    B(MPI_DOUBLE, double, MPI_DOUBLE, X_FLT, 8, 1, "MPI_DOUBLE"),
    B(MPI_LONG, long, MPI_LONG, X_INT, 4, 1, "MPI_LONG"),
    B(MPI_UNSIGNED, unsigned, MPI_UNSIGNED, X_UINT, 4, 1, "MPI_UNSIGNED"),
    B(MPI_SIGNED_CHAR, signed char, MPI_SIGNED_CHAR, X_RAW, 1, 1, "MPI_SIGNED_CHAR"),
    B(MPI_UNSIGNED_CHAR, unsigned char, MPI_UNSIGNED_CHAR, X_RAW, 1, 1,
      "MPI_UNSIGNED_CHAR"),
    B(MPI_SHORT, short, MPI_SHORT, X_INT, 2, 1, "MPI_SHORT"),
    B(MPI_UNSIGNED_SHORT, unsigned short, MPI_UNSIGNED_SHORT, X_UINT, 2, 1,
      "MPI_UNSIGNED_SHORT"),
    B(MPI_UNSIGNED_LONG, unsigned long, MPI_UNSIGNED_LONG, X_UINT, 4, 1,
      "MPI_UNSIGNED_LONG"),
    B(MPI_LONG_LONG, long long, MPI_LONG_LONG, X_INT, 8, 1, "MPI_LONG_LONG_INT"),
    B(MPI_UNSIGNED_LONG_LONG, unsigned long long, MPI_UNSIGNED_LONG_LONG, X_UINT, 8, 1,
      "MPI_UNSIGNED_LONG_LONG"),
    B(MPI_LONG_DOUBLE, long double, MPI_LONG_DOUBLE, X_LDBL, 16, 1, "MPI_LONG_DOUBLE"),
    B(MPI_WCHAR, wchar_t, MPI_WCHAR, X_UINT, 2, 1, "MPI_WCHAR"),
    B(MPI_C_BOOL, _Bool, MPI_C_BOOL, X_BOOL, 1, 1, "MPI_C_BOOL"),
    B(MPI_INT8_T, int8_t, MPI_INT8_T, X_RAW, 1, 1, "MPI_INT8_T"),
    B(MPI_INT16_T, int16_t, MPI_INT16_T, X_INT, 2, 1, "MPI_INT16_T"),
    B(MPI_INT32_T, int32_t, MPI_INT32_T, X_INT, 4, 1, "MPI_INT32_T"),
    B(MPI_INT64_T, int64_t, MPI_INT64_T, X_INT, 8, 1, "MPI_INT64_T"),
    B(MPI_UINT8_T, uint8_t, MPI_UINT8_T, X_RAW, 1, 1, "MPI_UINT8_T"),
    B(MPI_UINT16_T, uint16_t, MPI_UINT16_T, X_UINT, 2, 1, "MPI_UINT16_T"),
    B(MPI_UINT32_T, uint32_t, MPI_UINT32_T, X_UINT, 4, 1, "MPI_UINT32_T"),
    B(MPI_UINT64_T, uint64_t, MPI_UINT64_T, X_UINT, 8, 1, "MPI_UINT64_T"),
    B(MPI_AINT, MPI_Aint, MPI_AINT, X_INT, 8, 1, "MPI_AINT"),
    B(MPI_OFFSET, MPI_Offset, MPI_OFFSET, X_INT, 8, 1, "MPI_OFFSET"),
    B(MPI_COUNT, MPI_Count, MPI_COUNT, X_INT, 8, 1, "MPI_COUNT"),
    B(MPI_C_FLOAT_COMPLEX, float _Complex, MPI_C_FLOAT_COMPLEX, X_FLT, 4, 2,
      "MPI_C_COMPLEX"),
    B(MPI_C_DOUBLE_COMPLEX, double _Complex, MPI_C_DOUBLE_COMPLEX, X_FLT, 8, 2,
      "MPI_C_DOUBLE_COMPLEX"),
    B(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX, X_LDBL,
      16, 2, "MPI_C_LONG_DOUBLE_COMPLEX"),
    B(MPI_PACKED, char, 0, X_RAW, 1, 1, "MPI_PACKED"),
    P(MPI_FLOAT_INT, FloatInt, float, int, MPI_FLOAT, MPI_INT, MPI_FLOAT_INT,
      "MPI_FLOAT_INT"),
    P(MPI_DOUBLE_INT, DoubleInt, double, int, MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT,
      "MPI_DOUBLE_INT"),
    P(MPI_LONG_INT, LongInt, long, int, MPI_LONG, MPI_INT, MPI_LONG_INT, "MPI_LONG_INT"),
    {MPI_2INT, 2 * sizeof(int), _Alignof(int), MPI_2INT, 0, 0, 0, MPI_INT, MPI_INT,
     sizeof(int), 2 * sizeof(int), "MPI_2INT"},
    P(MPI_SHORT_INT, ShortInt, short, int, MPI_SHORT, MPI_INT, MPI_SHORT_INT,
      "MPI_SHORT_INT"),
    P(MPI_LONG_DOUBLE_INT, LongDoubleInt, long double, int, MPI_LONG_DOUBLE, MPI_INT,
      MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"),
    {MPI_LB, 0, 1, 0, X_RAW, 0, 0, 0, 0, 0, 0, "MPI_LB"},
    {MPI_UB, 0, 1, 0, X_RAW, 0, 0, 0, 0, 0, 0, "MPI_UB"},
    /* the Fortran types as C holds them */
    B(MPI_CHARACTER, char, MPI_CHAR, X_RAW, 1, 1, "MPI_CHARACTER"),
    B(MPI_INTEGER, int, MPI_INT, X_INT, 4, 1, "MPI_INTEGER"),
    B(MPI_REAL, float, MPI_FLOAT, X_FLT, 4, 1, "MPI_REAL"),
    B(MPI_DOUBLE_PRECISION, double, MPI_DOUBLE, X_FLT, 8, 1, "MPI_DOUBLE_PRECISION"),
    B(MPI_LOGICAL, int, MPI_INT, X_INT, 4, 1, "MPI_LOGICAL"),
    B(MPI_COMPLEX, float _Complex, MPI_C_FLOAT_COMPLEX, X_FLT, 4, 2, "MPI_COMPLEX"),
    B(MPI_DOUBLE_COMPLEX, double _Complex, MPI_C_DOUBLE_COMPLEX, X_FLT, 8, 2,
      "MPI_DOUBLE_COMPLEX"),
    {MPI_2INTEGER, 2 * sizeof(int), _Alignof(int), MPI_2INT, 0, 0, 0, MPI_INTEGER,
     MPI_INTEGER, sizeof(int), 2 * sizeof(int), "MPI_2INTEGER"},
    {MPI_2REAL, 2 * sizeof(float), _Alignof(float), 0, 0, 0, 0, MPI_REAL, MPI_REAL,
     offsetof(FloatFloat, w), sizeof(FloatFloat), "MPI_2REAL"},
    {MPI_2DOUBLE_PRECISION, 2 * sizeof(double), _Alignof(double), 0, 0, 0, 0,
     MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, offsetof(DoubleDouble, w),
     sizeof(DoubleDouble), "MPI_2DOUBLE_PRECISION"},
    /* the optional sized types, the C++ types */
    B(MPI_REAL4, float, MPI_FLOAT, X_FLT, 4, 1, "MPI_REAL4"),
    B(MPI_REAL8, double, MPI_DOUBLE, X_FLT, 8, 1, "MPI_REAL8"),
    B(MPI_COMPLEX8, float _Complex, MPI_C_FLOAT_COMPLEX, X_FLT, 4, 2, "MPI_COMPLEX8"),
    B(MPI_COMPLEX16, double _Complex, MPI_C_DOUBLE_COMPLEX, X_FLT, 8, 2, "MPI_COMPLEX16"),
    B(MPI_INTEGER1, int8_t, MPI_INT8_T, X_RAW, 1, 1, "MPI_INTEGER1"),
    B(MPI_INTEGER2, int16_t, MPI_INT16_T, X_INT, 2, 1, "MPI_INTEGER2"),
    B(MPI_INTEGER4, int32_t, MPI_INT32_T, X_INT, 4, 1, "MPI_INTEGER4"),
    B(MPI_INTEGER8, int64_t, MPI_INT64_T, X_INT, 8, 1, "MPI_INTEGER8"),
    B(MPI_INTEGER16, Int128, MPI_INTEGER16, X_INT, 16, 1, "MPI_INTEGER16"),
    B(MPI_CXX_BOOL, _Bool, MPI_C_BOOL, X_BOOL, 1, 1, "MPI_CXX_BOOL"),
    B(MPI_CXX_FLOAT_COMPLEX, float _Complex, MPI_C_FLOAT_COMPLEX, X_FLT, 4, 2,
      "MPI_CXX_FLOAT_COMPLEX"),
    B(MPI_CXX_DOUBLE_COMPLEX, double _Complex, MPI_C_DOUBLE_COMPLEX, X_FLT, 8, 2,
      "MPI_CXX_DOUBLE_COMPLEX"),
    B(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX,
      X_LDBL, 16, 2, "MPI_CXX_LONG_DOUBLE_COMPLEX"),
#undef B
#undef P
};
enum { NPREDEFS = sizeof predefs / sizeof predefs[0] };

/* the entry of predefined handle h, or -1 */
static int
predef_index(int h)
{
    for (int i = 0; i < NPREDEFS; i++)
        if (predefs[i].h == h)
            return i;
    return -1;
}

size_t
basic_size(int basic)
{
    int i = predef_index(basic);
    return i < 0 ? 0 : predefs[i].size;
}

/* the predefined types of s, made at the first look-up (the environment that makes
 * s is the layer below): leaves first, then the pairs, whose pieces are leaves */
static void
type_init_predefined(MpiState *s)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < NPREDEFS; i++) {
            int pair = predefs[i].v != 0;
            if (pair != pass)
                continue;
            Type *t = &s->predef[predefs[i].h];
            t->used = t->committed = t->predefined = 1;
            t->handle = predefs[i].h;
            t->size = (MPI_Count)predefs[i].size;
            t->ub = (MPI_Aint)predefs[i].extent;
            t->align = (int)predefs[i].align;
            t->basic = predefs[i].basic;
            t->nelem = t->basic ? 1 : 0;
            t->combiner = MPI_COMBINER_NAMED;
            t->nrep = 1;
            t->run = 1;
            snprintf(t->name, sizeof t->name, "%s", predefs[i].name);
            if (!pair) {
                t->true_ub = t->ub;
                t->elems = t->size ? 1 : 0;
                t->xsize = (MPI_Count)predefs[i].xsize * predefs[i].nx;
                continue;
            }
            Type *v = &s->predef[predefs[i].v], *w = &s->predef[predefs[i].w];
            t->piece = mpi_alloc(2 * sizeof(Piece));
            t->piece[0] = (Piece){0, 1, v};
            t->piece[1] = (Piece){(MPI_Aint)predefs[i].off2, 1, w};
            t->npiece = 2;
            t->elems = 2;
            t->xsize = v->xsize + w->xsize;
            t->true_ub = (MPI_Aint)predefs[i].off2 + (MPI_Aint)w->size;
            t->run = predefs[i].off2 == (size_t)v->size;
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
    for (int i = 0; i < t->npiece; i++)
        type_unref(t->piece[i].sub);
    for (int i = 0; i < t->ntypes; i++)
        type_unref(t->types[i]);
    mpi_free(t->piece);
    mpi_free(t->ints);
    mpi_free(t->addrs);
    mpi_free(t->types);
    MpiState *s = mpi_state();
    if (s && tab_at(&s->types, t->handle - TYPE_BASE) == t)
        tab_free(&s->types, t->handle - TYPE_BASE);
    memset(t, 0, sizeof *t);
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
    if (!t || !t->committed)
        return MPI_ERR_TYPE;
    *out = t;
    return MPI_SUCCESS;
}

int
type_contig(const Type *t)
{
    return t->size == 0 ||
           (t->run && t->runoff == 0 && (MPI_Count)type_extent(t) == t->size);
}

/* ---- checked arithmetic: 1 when the result does not fit ---- */

static int
mul(MPI_Count a, MPI_Count b, MPI_Count *r)
{
    return __builtin_mul_overflow(a, b, r);
}

static int
add(MPI_Count a, MPI_Count b, MPI_Count *r)
{
    return __builtin_add_overflow(a, b, r);
}

/* an address as MPI computes it: the sum may leave the object (MPI_BOTTOM plus an
 * absolute address, a negative lower bound), so it is done on integers */
static inline uintptr_t
at(uintptr_t base, MPI_Count off)
{
    return base + (uintptr_t)off;
}

/* ---- walking the type map ---- */

enum { W_PACK, W_UNPACK, W_XPACK, W_XUNPACK };

typedef struct Walk {
    int mode;
    unsigned char *p; /* the packed side: its next byte */
    MPI_Count left;   /* bytes of data still to visit */
} Walk;

static void xput(unsigned char *out, const unsigned char *in, const Type *leaf);
static void xget(unsigned char *out, const unsigned char *in, const Type *leaf);

/* len bytes of data at address a, of the leaf type t when converted */
static void
emit(Walk *w, const Type *t, uintptr_t a, MPI_Count len)
{
    unsigned char *m = (unsigned char *)a;
    switch (w->mode) {
    case W_PACK:
        memcpy(w->p, m, (size_t)len);
        w->p += len;
        break;
    case W_UNPACK:
        memcpy(m, w->p, (size_t)len);
        w->p += len;
        break;
    case W_XPACK:
        for (MPI_Count i = 0; i < len; i += t->size, w->p += t->xsize)
            xput(w->p, m + i, t);
        break;
    case W_XUNPACK:
        for (MPI_Count i = 0; i < len; i += t->size, w->p += t->xsize)
            xget(m + i, w->p, t);
        break;
    }
    w->left -= len;
}

/* visits n instances of t, the first at address base, in type-map order, until
 * w->left bytes are visited. One run per instance whose data is one run (one per n
 * instances when they touch), per leaf in the external32 modes. */
static void
walk(Walk *w, const Type *t, uintptr_t base, MPI_Count n)
{
    if (n <= 0 || t->size == 0 || w->left <= 0)
        return;
    MPI_Aint ext = type_extent(t);
    int merge = t->run && (w->mode < W_XPACK || t->npiece == 0);
    if (merge && (n == 1 || (MPI_Count)ext == t->size)) {
        MPI_Count len = n > w->left / t->size ? w->left : n * t->size;
        emit(w, t, at(base, t->runoff), len);
        return;
    }
    for (MPI_Count i = 0; i < n && w->left > 0; i++) {
        uintptr_t b = at(base, (MPI_Count)i * ext);
        if (merge) {
            emit(w, t, at(b, t->runoff), t->size < w->left ? t->size : w->left);
            continue;
        }
        for (MPI_Count r = 0; r < t->nrep && w->left > 0; r++)
            for (int k = 0; k < t->npiece && w->left > 0; k++)
                walk(w, t->piece[k].sub, at(b, r * t->rstride + t->piece[k].disp),
                     t->piece[k].n);
    }
}

void
type_pack(const Type *t, const void *buf, MPI_Count count, void *out)
{
    if (type_contig(t)) {
        if (t->size && count)
            memcpy(out, buf, (size_t)(t->size * count));
        return;
    }
    Walk w = {W_PACK, out, t->size * count};
    walk(&w, t, (uintptr_t)buf, count);
}

void
type_unpack_bytes(const Type *t, const void *in, MPI_Count bytes, MPI_Count count,
                  void *buf)
{
    MPI_Count all = t->size * count;
    if (bytes > all)
        bytes = all;
    if (type_contig(t)) {
        if (bytes > 0)
            memcpy(buf, in, (size_t)bytes);
        return;
    }
    Walk w = {W_UNPACK, (unsigned char *)in, bytes};
    walk(&w, t, (uintptr_t)buf, count);
}

void
type_unpack(const Type *t, const void *in, MPI_Count count, void *buf)
{
    type_unpack_bytes(t, in, t->size * count, count, buf);
}

/* ---- elements ---- */

/* the basic elements of at most n instances of t (n < 0: any number) whole in the
 * first *bytes bytes of their packed data; *bytes less what they take */
static MPI_Count
elements_in(const Type *t, MPI_Count *bytes, MPI_Count n)
{
    if (t->size == 0 || *bytes <= 0)
        return 0;
    MPI_Count whole = *bytes / t->size;
    if (n >= 0 && whole > n)
        whole = n;
    MPI_Count e = whole * t->elems;
    *bytes -= whole * t->size;
    if (whole == n || *bytes == 0 || t->npiece == 0)
        return e; /* a basic element cut short does not count */
    for (MPI_Count r = 0; r < t->nrep; r++)
        for (int k = 0; k < t->npiece; k++) {
            const Piece *p = &t->piece[k];
            MPI_Count pb = p->n * p->sub->size;
            if (*bytes >= pb) {
                e += p->n * p->sub->elems;
                *bytes -= pb;
            } else
                return e + elements_in(p->sub, bytes, p->n);
        }
    return e;
}

/* the bytes of the first *k basic elements of at most n instances of t (n < 0: any
 * number); *k less those counted; -1 if the bytes overflow */
static MPI_Count
bytes_of(const Type *t, MPI_Count *k, MPI_Count n)
{
    if (t->elems == 0 || *k <= 0)
        return 0;
    MPI_Count whole = *k / t->elems, b;
    if (n >= 0 && whole > n)
        whole = n;
    if (mul(whole, t->size, &b))
        return -1;
    *k -= whole * t->elems;
    if (whole == n || *k == 0 || t->npiece == 0)
        return b;
    for (MPI_Count r = 0; r < t->nrep; r++)
        for (int j = 0; j < t->npiece; j++) {
            const Piece *p = &t->piece[j];
            MPI_Count pe = p->n * p->sub->elems;
            if (*k >= pe) {
                b += p->n * p->sub->size;
                *k -= pe;
            } else
                return b + bytes_of(p->sub, k, p->n);
        }
    return b;
}

/* ---- making types ---- */

static Type *
type_slot(MpiState *s, MPI_Datatype *h)
{
    int i = tab_new(&s->types, 0, sizeof(Type));
    Type *t = tab_at(&s->types, i);
    t->used = 1;
    t->handle = TYPE_BASE + i;
    if (h)
        *h = t->handle;
    return t;
}

/* t was made inside another type (no handle): it goes with the last type holding
 * it, now if none does */
static void
hide(Type *t)
{
    t->freed = 1;
    if (t->refs == 0)
        type_release(t);
}

/* the bounds of n instances of sub (n > 0) at disp: [*lo, *hi) of what lb and ub
 * (or true_lb and true_ub) give one instance; 1 on overflow */
static int
span(const Type *sub, MPI_Aint disp, MPI_Count n, MPI_Aint lb, MPI_Aint ub, MPI_Count *lo,
     MPI_Count *hi)
{
    MPI_Count shift;
    if (mul(n - 1, type_extent(sub), &shift))
        return 1;
    if (add(disp, lb, lo) || add(disp, ub, hi))
        return 1;
    if (shift < 0)
        return add(*lo, shift, lo);
    return add(*hi, shift, hi);
}

typedef struct {
    int have;
    MPI_Count lo, hi;
} Range;

static void
widen(Range *r, MPI_Count lo, MPI_Count hi, int lbtoo, int ubtoo)
{
    if (!r->have) {
        r->lo = lo, r->hi = hi, r->have = 1;
        return;
    }
    if (lbtoo && lo < r->lo)
        r->lo = lo;
    if (ubtoo && hi > r->hi)
        r->hi = hi;
}

/* explicit bounds: a struct's MPI_LB and MPI_UB entries, which join those its types
 * carry, or (exact) the bounds of MPI_Type_create_resized, which replace them */
typedef struct {
    int lb, ub;
    MPI_Aint lbv, ubv;
    int exact;
} Marks;

/* a new type (*out, its handle *h unless NULL) of nrep repetitions rstride bytes apart
 * of the np pieces p (the new type's own array now; it holds their types); marks: a
 * struct's MPI_LB and MPI_UB entries; pad: round the extent up to the alignment (a
 * struct's). 0, or MPI_ERR_ARG (p freed) when a size or bound does not fit. */
static int
make(MpiState *s, MPI_Count nrep, MPI_Aint rstride, int np, Piece *p, const Marks *marks,
     int pad, MPI_Datatype *h, Type **out)
{
    MPI_Count size = 0, elems = 0, nelem = 0, xsize = 0;
    Range data = {0}, tdata = {0}, mlb = {0}, mub = {0};
    int basic = -1, align = 1, first_basic = 0;
    for (int i = 0; i < np; i++) {
        const Type *sub = p[i].sub;
        MPI_Count z;
        if (i == 0)
            first_basic = sub->basic;
        if (sub->align > align)
            align = sub->align;
        if (p[i].n == 0)
            continue;
        if (mul(p[i].n, sub->size, &z) || add(size, z, &size) ||
            mul(p[i].n, sub->xsize, &z) || add(xsize, z, &xsize))
            goto overflow;
        elems += p[i].n * sub->elems; /* at most the bytes, which fit */
        nelem += p[i].n * sub->nelem;
        if (sub->size) {
            if (basic == -1)
                basic = sub->basic;
            else if (basic != sub->basic)
                basic = 0;
        }
        MPI_Count lo, hi;
        if (span(sub, p[i].disp, p[i].n, sub->lb, sub->ub, &lo, &hi))
            goto overflow;
        widen(&data, lo, hi, 1, 1);
        if (sub->lbmark)
            widen(&mlb, lo, lo, 1, 0);
        if (sub->ubmark)
            widen(&mub, hi, hi, 0, 1);
        if (span(sub, p[i].disp, p[i].n, sub->true_lb, sub->true_ub, &lo, &hi))
            goto overflow;
        widen(&tdata, lo, hi, 1, 1);
    }
    if (marks && marks->exact)
        mlb.have = mub.have = 0;
    if (marks && marks->lb)
        widen(&mlb, marks->lbv, marks->lbv, 1, 0);
    if (marks && marks->ub)
        widen(&mub, marks->ubv, marks->ubv, 0, 1);
    /* the repetitions: the first and the last bound the rest */
    MPI_Count last = 0;
    if (nrep > 1 && mul(nrep - 1, rstride, &last))
        goto overflow;
    Range *rs[] = {&data, &tdata, &mlb, &mub};
    for (int i = 0; i < 4; i++)
        if (rs[i]->have && last) {
            MPI_Count lo, hi;
            if (add(rs[i]->lo, last, &lo) || add(rs[i]->hi, last, &hi))
                goto overflow;
            widen(rs[i], lo, hi, 1, 1);
        }
    MPI_Count rsize = size;
    if (nrep == 0)
        size = xsize = elems = nelem = 0;
    else if (mul(size, nrep, &size) || mul(xsize, nrep, &xsize))
        goto overflow;
    elems *= nrep, nelem *= nrep;
    MPI_Count lb = mlb.have ? mlb.lo : data.have ? data.lo : 0;
    MPI_Count ub = mub.have ? mub.hi : data.have ? data.hi : 0;
    if (nrep == 0 && !mlb.have && !mub.have)
        lb = ub = 0;
    if (pad && !mub.have && align > 1 && ub >= lb) {
        MPI_Count eps = (ub - lb) % align;
        if (eps && add(ub, align - eps, &ub))
            goto overflow;
    }
    MPI_Count ext;
    if (__builtin_sub_overflow(ub, lb, &ext) || (MPI_Aint)ub != ub || (MPI_Aint)lb != lb)
        goto overflow;
    /* one run? the pieces of a repetition each one run, each starting where the one
     * before ended, and the repetitions touching */
    int run = 1;
    MPI_Count runoff = 0, end = 0;
    int started = 0;
    for (int i = 0; i < np && run; i++) {
        const Type *sub = p[i].sub;
        if (p[i].n == 0 || sub->size == 0)
            continue;
        if (!sub->run || (p[i].n > 1 && (MPI_Count)type_extent(sub) != sub->size)) {
            run = 0;
            break;
        }
        MPI_Count from = (MPI_Count)p[i].disp + sub->runoff;
        if (started && from != end)
            run = 0;
        if (!started)
            runoff = from, started = 1;
        end = from + p[i].n * sub->size;
    }
    if (run && nrep > 1 && rsize > 0 && (MPI_Count)rstride != rsize)
        run = 0;

    Type *t = type_slot(s, h);
    t->size = size;
    t->elems = elems;
    t->nelem = nelem;
    t->xsize = xsize;
    t->basic = basic > 0 ? basic : basic == -1 ? first_basic : 0;
    t->align = align;
    t->lb = (MPI_Aint)lb, t->ub = (MPI_Aint)ub;
    t->lbmark = mlb.have, t->ubmark = mub.have;
    t->true_lb = tdata.have ? (MPI_Aint)tdata.lo : 0;
    t->true_ub = tdata.have ? (MPI_Aint)tdata.hi : 0;
    t->nrep = nrep;
    t->rstride = rstride;
    t->npiece = np;
    t->piece = p;
    t->run = run;
    t->runoff = (MPI_Aint)runoff;
    for (int i = 0; i < np; i++)
        type_ref(p[i].sub);
    *out = t;
    return MPI_SUCCESS;
overflow:
    mpi_free(p);
    return MPI_ERR_ARG;
}

/* the pieces of n blocks of bl[i] instances of types[i] at disp[i] (types NULL: all
 * of old); 0, MPI_ERR_ARG for a negative block length, MPI_ERR_TYPE */
static int
pieces(MpiState *s, int n, const int *bl, const MPI_Aint *disp, const MPI_Datatype *types,
       Type *old, Piece **out)
{
    Piece *p = mpi_alloc((size_t)n * sizeof(Piece) + 1);
    for (int i = 0; i < n; i++) {
        Type *t = types ? type_get(s, types[i]) : old;
        if (bl[i] < 0 || !t) {
            mpi_free(p);
            return bl[i] < 0 ? MPI_ERR_ARG : MPI_ERR_TYPE;
        }
        p[i] = (Piece){disp[i], bl[i], t};
    }
    *out = p;
    return MPI_SUCCESS;
}

/* one piece: n instances of old at disp */
static Piece *
one(Type *old, MPI_Aint disp, MPI_Count n)
{
    Piece *p = mpi_alloc(sizeof(Piece));
    *p = (Piece){disp, n, old};
    return p;
}

static void
save_contents(Type *t, int combiner, int ni, const int *ints, int na,
              const MPI_Aint *addrs, int nt, Type *const *types)
{
    t->combiner = combiner;
    t->nints = ni, t->naddrs = na, t->ntypes = nt;
    t->ints = mpi_alloc((size_t)ni * sizeof(int) + 1);
    t->addrs = mpi_alloc((size_t)na * sizeof(MPI_Aint) + 1);
    t->types = mpi_alloc((size_t)nt * sizeof(Type *) + 1);
    if (ni)
        memcpy(t->ints, ints, (size_t)ni * sizeof(int));
    if (na)
        memcpy(t->addrs, addrs, (size_t)na * sizeof(MPI_Aint));
    for (int i = 0; i < nt; i++) {
        t->types[i] = types[i];
        type_ref(types[i]);
    }
}

/* ints: n, then the arrays a (and b) of n ints */
static int *
ints_of(int first, int n, const int *a, const int *b)
{
    int *v = mpi_alloc((size_t)(1 + 2 * (size_t)n) * sizeof(int));
    v[0] = first;
    if (n && a)
        memcpy(v + 1, a, (size_t)n * sizeof(int));
    if (n && b)
        memcpy(v + 1 + n, b, (size_t)n * sizeof(int));
    return v;
}

#define TYPE(var, h)                                                                     \
    Type *var = type_get(s, h);                                                          \
    if (!var)                                                                            \
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);

int
MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_contiguous");
    TYPE(o, old);
    if (count < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    Type *t;
    int e = make(s, 1, 0, 1, one(o, 0, count), NULL, 0, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    save_contents(t, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &o);
    return MPI_SUCCESS;
}

static int
hvector(MpiState *s, int count, int bl, MPI_Aint stride, Type *o, MPI_Datatype *newtype,
        Type **t)
{
    if (count < 0 || bl < 0)
        return MPI_ERR_COUNT;
    return make(s, count, stride, 1, one(o, 0, bl), NULL, 0, newtype, t);
}

int
MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old,
                MPI_Datatype *newtype)
{
    ENTER("MPI_Type_vector");
    TYPE(o, old);
    Type *t;
    MPI_Count bstride;
    if (mul(stride, type_extent(o), &bstride) || (MPI_Aint)bstride != bstride)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    int e = hvector(s, count, blocklen, (MPI_Aint)bstride, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[3] = {count, blocklen, stride};
    save_contents(t, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &o);
    return MPI_SUCCESS;
}

int
MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                        MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_hvector");
    TYPE(o, old);
    Type *t;
    int e = hvector(s, count, blocklen, stride, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[2] = {count, blocklen};
    save_contents(t, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &o);
    return MPI_SUCCESS;
}

int
MPI_Type_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                 MPI_Datatype *newtype)
{
    return MPI_Type_create_hvector(count, blocklen, stride, old, newtype);
}

/* count blocks of old at the displacements d (in units of old's extent if `scaled`):
 * blocklens bl, or all bl0 when bl is NULL */
static int
indexed(MpiState *s, int count, const int *bl, int bl0, const void *d, int scaled,
        Type *o, MPI_Datatype *newtype, Type **t)
{
    if (count < 0 || (!bl && bl0 < 0))
        return MPI_ERR_COUNT;
    Piece *p = mpi_alloc((size_t)count * sizeof(Piece) + 1);
    for (int i = 0; i < count; i++) {
        int b = bl ? bl[i] : bl0;
        MPI_Count disp;
        if (scaled) {
            if (mul(((const int *)d)[i], type_extent(o), &disp) ||
                (MPI_Aint)disp != disp) {
                mpi_free(p);
                return MPI_ERR_ARG;
            }
        } else
            disp = ((const MPI_Aint *)d)[i];
        if (b < 0) {
            mpi_free(p);
            return MPI_ERR_ARG;
        }
        p[i] = (Piece){(MPI_Aint)disp, b, o};
    }
    return make(s, 1, 0, count, p, NULL, 0, newtype, t);
}

int
MPI_Type_indexed(int count, const int blocklens[], const int displs[], MPI_Datatype old,
                 MPI_Datatype *newtype)
{
    ENTER("MPI_Type_indexed");
    TYPE(o, old);
    Type *t;
    int e = indexed(s, count, blocklens, 0, displs, 1, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = ints_of(count, count, blocklens, displs);
    save_contents(t, MPI_COMBINER_INDEXED, 2 * count + 1, ints, 0, NULL, 1, &o);
    mpi_free(ints);
    return MPI_SUCCESS;
}

int
MPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint displs[],
                         MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_hindexed");
    TYPE(o, old);
    Type *t;
    int e = indexed(s, count, blocklens, 0, displs, 0, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = ints_of(count, count, blocklens, NULL);
    save_contents(t, MPI_COMBINER_HINDEXED, count + 1, ints, count, displs, 1, &o);
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
    TYPE(o, old);
    Type *t;
    int e = indexed(s, count, NULL, blocklen, displs, 1, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = ints_of(count, count, displs, NULL);
    memmove(ints + 2, ints + 1, (size_t)count * sizeof(int));
    ints[1] = blocklen;
    save_contents(t, MPI_COMBINER_INDEXED_BLOCK, count + 2, ints, 0, NULL, 1, &o);
    mpi_free(ints);
    return MPI_SUCCESS;
}

int
MPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint displs[],
                               MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_hindexed_block");
    TYPE(o, old);
    Type *t;
    int e = indexed(s, count, NULL, blocklen, displs, 0, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[2] = {count, blocklen};
    save_contents(t, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, count, displs, 1, &o);
    return MPI_SUCCESS;
}

int
MPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint displs[],
                       const MPI_Datatype types[], MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_struct");
    if (count < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    /* MPI_LB and MPI_UB entries set the bounds; the others are pieces */
    Marks m = {0};
    int *bl = mpi_alloc((size_t)count * sizeof(int) + 1);
    MPI_Aint *d = mpi_alloc((size_t)count * sizeof(MPI_Aint) + 1);
    MPI_Datatype *ty = mpi_alloc((size_t)count * sizeof(MPI_Datatype) + 1);
    int n = 0;
    for (int i = 0; i < count; i++) {
        if (types[i] == MPI_LB) {
            if (!m.lb || displs[i] < m.lbv)
                m.lbv = displs[i];
            m.lb = 1;
            continue;
        }
        if (types[i] == MPI_UB) {
            if (!m.ub || displs[i] > m.ubv)
                m.ubv = displs[i];
            m.ub = 1;
            continue;
        }
        bl[n] = blocklens[i], d[n] = displs[i], ty[n++] = types[i];
    }
    Piece *p;
    int e = pieces(s, n, bl, d, ty, NULL, &p);
    mpi_free(bl);
    mpi_free(d);
    mpi_free(ty);
    Type *t;
    if (!e)
        e = make(s, 1, 0, n, p, &m, 1, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int *ints = ints_of(count, count, blocklens, NULL);
    Type **tt = mpi_alloc((size_t)count * sizeof(Type *) + 1);
    for (int i = 0; i < count; i++)
        tt[i] = type_get(s, types[i]);
    save_contents(t, MPI_COMBINER_STRUCT, count + 1, ints, count, displs, count, tt);
    mpi_free(ints);
    mpi_free(tt);
    return MPI_SUCCESS;
}

int
MPI_Type_struct(int count, const int blocklens[], const MPI_Aint displs[],
                const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return MPI_Type_create_struct(count, blocklens, displs, types, newtype);
}

/* old with the bounds [lb, lb + extent) (explicit, as MPI_LB and MPI_UB) */
static int
resized(MpiState *s, Type *o, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *h, Type **t)
{
    MPI_Count ub;
    if (add(lb, extent, &ub) || (MPI_Aint)ub != ub)
        return MPI_ERR_ARG;
    Marks m = {1, 1, lb, (MPI_Aint)ub, 1};
    return make(s, 1, 0, 1, one(o, 0, 1), &m, 0, h, t);
}

int
MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                        MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_resized");
    TYPE(o, old);
    Type *t;
    int e = resized(s, o, lb, extent, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    MPI_Aint a[2] = {lb, extent};
    save_contents(t, MPI_COMBINER_RESIZED, 0, NULL, 2, a, 1, &o);
    return MPI_SUCCESS;
}

int
MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_dup");
    TYPE(o, old);
    Type *t;
    int e = make(s, 1, 0, 1, one(o, 0, 1), NULL, 0, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    t->committed = o->committed;
    save_contents(t, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &o);
    /* the attributes whose copy callbacks say so */
    e = attr_copy(s, &o->attrs, &t->attrs, KV_TYPE, old);
    return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
}

/* a dimension of a subarray or darray: n instances of in (whose extent is the stride
 * of the dimension) from index `from`, in cyclic blocks of blk instances every `every`
 * indices if blk > 0; the result spans g indices (explicit bounds) */
static int
dim_type(MpiState *s, Type *in, MPI_Count from, MPI_Count n, MPI_Count blk,
         MPI_Count every, MPI_Count g, Type **out)
{
    MPI_Aint st = type_extent(in);
    MPI_Count d, len, stride = 0, rd = 0;
    if (mul(from, st, &d) || mul(g, st, &len) || (MPI_Aint)len != len ||
        mul(every, st, &stride) || mul(blk > 0 ? n / blk : 0, stride, &rd) ||
        add(rd, d, &rd))
        return MPI_ERR_ARG;
    Marks m = {1, 1, 0, (MPI_Aint)len, 1};
    if (blk <= 0)
        return make(s, 1, 0, 1, one(in, (MPI_Aint)d, n), &m, 0, NULL, out);
    /* the whole blocks as a vector, then what is left of the last */
    Type *v;
    int e = make(s, n / blk, (MPI_Aint)stride, 1, one(in, 0, blk), NULL, 0, NULL, &v);
    if (e)
        return e;
    Piece *p = mpi_alloc(2 * sizeof(Piece));
    p[0] = (Piece){(MPI_Aint)d, 1, v};
    p[1] = (Piece){(MPI_Aint)rd, n % blk, in};
    e = make(s, 1, 0, 2, p, &m, 0, NULL, out);
    hide(v);
    return e;
}

/* a subarray or darray of old: dimension k (in C order: the last is the fastest) from
 * index from[k], n[k] indices (in cyclic blocks if blk[k] > 0) of g[k]; the type spans
 * the whole array, g[0] * ... * g[ndims - 1] instances of old */
static int
array_type(MpiState *s, int ndims, const MPI_Count *g, const MPI_Count *from,
           const MPI_Count *n, const MPI_Count *blk, const MPI_Count *every, Type *o,
           MPI_Datatype *h, Type **out)
{
    Type *in = o;
    for (int k = ndims - 1; k >= 0; k--) {
        Type *t;
        int e = dim_type(s, in, from[k], n[k], blk[k], every[k], g[k], &t);
        if (in != o)
            hide(in);
        if (e)
            return e;
        in = t;
    }
    *h = in->handle;
    *out = in;
    return MPI_SUCCESS;
}

int
MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                         const int starts[], int order, MPI_Datatype old,
                         MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_subarray");
    TYPE(o, old);
    if (ndims < 1 || ndims > 32 || (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    MPI_Count g[32], from[32], n[32], zero[32] = {0};
    for (int i = 0; i < ndims; i++) {
        int k = order == MPI_ORDER_C ? i : ndims - 1 - i; /* C order from here on */
        g[i] = sizes[k], n[i] = subsizes[k], from[i] = starts[k];
        if (g[i] < 1 || n[i] < 0 || from[i] < 0 || n[i] + from[i] > g[i])
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    }
    Type *t;
    int e = array_type(s, ndims, g, from, n, zero, zero, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[3 * 32 + 2];
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++) {
        ints[1 + i] = sizes[i];
        ints[1 + ndims + i] = subsizes[i];
        ints[1 + 2 * ndims + i] = starts[i];
    }
    ints[1 + 3 * ndims] = order;
    save_contents(t, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &o);
    return MPI_SUCCESS;
}

int
MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
                       const int distribs[], const int dargs[], const int psizes[],
                       int order, MPI_Datatype old, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_darray");
    TYPE(o, old);
    if (size < 1 || rank < 0 || rank >= size || ndims < 1 || ndims > 32 ||
        (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    long long procs = 1;
    for (int i = 0; i < ndims; i++) {
        if (psizes[i] < 1 || gsizes[i] < 1)
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
        procs *= psizes[i];
        if (procs > size)
            break;
    }
    if (procs != size)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    /* the caller's coordinates in the process grid (row-major whatever the order) */
    int coord[32];
    for (int i = ndims - 1, r = rank; i >= 0; i--)
        coord[i] = r % psizes[i], r /= psizes[i];
    MPI_Count g[32], from[32], n[32], blk[32], every[32];
    for (int i = 0; i < ndims; i++) {
        int k = order == MPI_ORDER_C ? i : ndims - 1 - i; /* C order from here on */
        MPI_Count gs = gsizes[k], p = psizes[k], c = coord[k], b;
        g[i] = gs, blk[i] = 0, every[i] = 0;
        switch (distribs[k]) {
        case MPI_DISTRIBUTE_NONE:
            if (p != 1)
                return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
            from[i] = 0, n[i] = gs;
            break;
        case MPI_DISTRIBUTE_BLOCK:
            b = dargs[k] == MPI_DISTRIBUTE_DFLT_DARG ? (gs + p - 1) / p : dargs[k];
            if (b < 1 || b * p < gs)
                return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
            from[i] = c * b < gs ? c * b : gs;
            n[i] = gs - from[i] < b ? gs - from[i] : b;
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            b = dargs[k] == MPI_DISTRIBUTE_DFLT_DARG ? 1 : dargs[k];
            if (b < 1)
                return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
            /* blocks of b from c * b, every p * b: the whole ones and the last */
            from[i] = c * b < gs ? c * b : gs;
            n[i] = (gs - from[i]) / (p * b) * b;
            n[i] += (gs - from[i]) % (p * b) < b ? (gs - from[i]) % (p * b) : b;
            blk[i] = b, every[i] = p * b;
            break;
        default:
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
        }
    }
    Type *t;
    int e = array_type(s, ndims, g, from, n, blk, every, o, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    int ints[4 * 32 + 4];
    ints[0] = size, ints[1] = rank, ints[2] = ndims;
    for (int i = 0; i < ndims; i++) {
        ints[3 + i] = gsizes[i];
        ints[3 + ndims + i] = distribs[i];
        ints[3 + 2 * ndims + i] = dargs[i];
        ints[3 + 3 * ndims + i] = psizes[i];
    }
    ints[3 + 4 * ndims] = order;
    save_contents(t, MPI_COMBINER_DARRAY, 4 * ndims + 4, ints, 0, NULL, 1, &o);
    return MPI_SUCCESS;
}

/* ---- the Fortran 90 parameterised types ---- */

/* the type of (combiner, p, r) as basic: made once, then the same handle (MPI 3.1
 * section 17.1.9); it cannot be freed */
static int
f90_type(MpiState *s, int combiner, int p, int r, int basic, MPI_Datatype *newtype)
{
    int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    for (int i = 0; i < s->types.n; i++) {
        Type *t = s->types.e[i];
        if (t->used && t->predefined && t->combiner == combiner && t->ints[0] == p &&
            (ni == 1 || t->ints[1] == r)) {
            *newtype = t->handle;
            return MPI_SUCCESS;
        }
    }
    Type *t;
    int e = make(s, 1, 0, 1, one(type_get(s, basic), 0, 1), NULL, 0, newtype, &t);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    t->committed = t->predefined = 1;
    int ints[2] = {p, r};
    save_contents(t, combiner, ni, ints, 0, NULL, 0, NULL);
    return MPI_SUCCESS;
}

/* precision p and range r (MPI_UNDEFINED: any) of IEEE single and double */
static int
real_kind(int p, int r)
{
    int any_p = p == MPI_UNDEFINED, any_r = r == MPI_UNDEFINED;
    if ((any_p || p <= FLT_DIG) && (any_r || r <= FLT_MAX_10_EXP))
        return 4;
    if ((any_p || p <= DBL_DIG) && (any_r || r <= DBL_MAX_10_EXP))
        return 8;
    return 0;
}

int
MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_f90_real");
    int k = real_kind(p, r);
    if (!k || (p < 0 && p != MPI_UNDEFINED) || (r < 0 && r != MPI_UNDEFINED))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    return f90_type(s, MPI_COMBINER_F90_REAL, p, r, k == 4 ? MPI_REAL4 : MPI_REAL8,
                    newtype);
}

int
MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_f90_complex");
    int k = real_kind(p, r);
    if (!k || (p < 0 && p != MPI_UNDEFINED) || (r < 0 && r != MPI_UNDEFINED))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    return f90_type(s, MPI_COMBINER_F90_COMPLEX, p, r,
                    k == 4 ? MPI_COMPLEX8 : MPI_COMPLEX16, newtype);
}

int
MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    ENTER("MPI_Type_create_f90_integer");
    /* the smallest integer holding 10^r: 2, 4, 9, 18, 38 decimal digits */
    static const struct {
        int digits, h;
    } ints[] = {{2, MPI_INTEGER1},
                {4, MPI_INTEGER2},
                {9, MPI_INTEGER4},
                {18, MPI_INTEGER8},
                {38, MPI_INTEGER16}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (r == MPI_UNDEFINED || (r >= 0 && r <= ints[i].digits))
            return f90_type(s, MPI_COMBINER_F90_INTEGER, r, 0, ints[i].h, newtype);
    return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
}

/* ---- commit, free ---- */

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
    int e = attr_clear(s, &t->attrs, *type);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    /* a request or a type that uses it keeps it until it is done */
    t->freed = 1;
    if (t->refs == 0)
        type_release(t);
    *type = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

/* ---- queries ---- */

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

/* a new handle of a type equivalent to t (what MPI_Type_get_contents returns for a
 * derived type: the caller frees it): the same type map, contents and state */
static MPI_Datatype
clone(MpiState *s, Type *t)
{
    MPI_Datatype h;
    Type *c = type_slot(s, &h);
    int handle = c->handle;
    *c = *t;
    c->handle = handle;
    c->refs = 0;
    c->freed = 0;
    c->attrs = (AttrList){0}; /* attributes are not part of the type */
    c->piece = mpi_alloc((size_t)t->npiece * sizeof(Piece) + 1);
    if (t->npiece)
        memcpy(c->piece, t->piece, (size_t)t->npiece * sizeof(Piece));
    for (int i = 0; i < t->npiece; i++)
        type_ref(t->piece[i].sub);
    save_contents(c, t->combiner, t->nints, t->ints, t->naddrs, t->addrs, t->ntypes,
                  t->types);
    return h;
}

int
MPI_Type_get_contents(MPI_Datatype type, int maxints, int maxaddrs, int maxtypes,
                      int ints[], MPI_Aint addrs[], MPI_Datatype types[])
{
    ENTER("MPI_Type_get_contents");
    TYPE(t, type);
    if (t->combiner == MPI_COMBINER_NAMED || maxints < t->nints || maxaddrs < t->naddrs ||
        maxtypes < t->ntypes)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    if (t->nints)
        memcpy(ints, t->ints, (size_t)t->nints * sizeof(int));
    if (t->naddrs)
        memcpy(addrs, t->addrs, (size_t)t->naddrs * sizeof(MPI_Aint));
    for (int i = 0; i < t->ntypes; i++)
        types[i] = t->types[i]->predefined ? t->types[i]->handle : clone(s, t->types[i]);
    return MPI_SUCCESS;
}

/* ---- attributes ---- */

int
MPIR_Type_dup_fn(MPI_Datatype type, int key, void *extra, void *in, void *out, int *flag)
{
    (void)type, (void)key, (void)extra;
    memcpy(out, &in, sizeof in);
    *flag = 1;
    return MPI_SUCCESS;
}

int
MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                       MPI_Type_delete_attr_function *del, int *keyval, void *extra)
{
    ENTER("MPI_Type_create_keyval");
    return keyval_new(s, KV_TYPE, copy, del, extra, keyval);
}

int
MPI_Type_free_keyval(int *keyval)
{
    ENTER("MPI_Type_free_keyval");
    int e = keyval_free(s, KV_TYPE, keyval);
    return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
}

int
MPI_Type_set_attr(MPI_Datatype type, int keyval, void *value)
{
    ENTER("MPI_Type_set_attr");
    TYPE(t, type);
    int e = attr_set(s, &t->attrs, KV_TYPE, type, keyval, value);
    return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
}

int
MPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag)
{
    ENTER("MPI_Type_get_attr");
    TYPE(t, type);
    int e = attr_get(s, &t->attrs, KV_TYPE, keyval, value, flag);
    return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
}

int
MPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
    ENTER("MPI_Type_delete_attr");
    TYPE(t, type);
    int e = attr_delete(s, &t->attrs, KV_TYPE, type, keyval);
    return e ? mpi_err(MPI_COMM_WORLD, e) : MPI_SUCCESS;
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
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint
MPI_Aint_diff(MPI_Aint a, MPI_Aint b)
{
    return (MPI_Aint)((uintptr_t)a - (uintptr_t)b);
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
    MPI_Count bytes = status->mpirio_bytes;
    if (t->size == 0)
        *count = bytes > 0 ? MPI_UNDEFINED : 0;
    else if (t->combiner == MPI_COMBINER_NAMED && bytes % t->size)
        *count = MPI_UNDEFINED; /* a predefined type: as MPI_Get_count */
    else
        *count = elements_in(t, &bytes, -1);
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
    MPI_Count k = count, bytes = bytes_of(t, &k, -1);
    if (bytes < 0 || k > 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    status->mpirio_bytes = bytes;
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

/* the bytes of count instances of t (n per instance) at *position of a buffer of
 * size bytes: 0, or the error (MPI_ERR_COUNT, MPI_ERR_TRUNCATE, MPI_ERR_ARG) */
static int
room(MPI_Count n, int count, MPI_Count position, MPI_Count size, MPI_Count *bytes)
{
    MPI_Count end;
    if (count < 0)
        return MPI_ERR_COUNT;
    if (mul(n, count, bytes) || add(position, *bytes, &end))
        return MPI_ERR_ARG;
    return position < 0 || end > size ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

int
MPI_Pack(const void *in, int count, MPI_Datatype type, void *out, int outsize,
         int *position, MPI_Comm comm)
{
    ENTER("MPI_Pack");
    Type *t;
    if (type_check(s, type, &t))
        return mpi_err(comm, MPI_ERR_TYPE);
    MPI_Count n;
    int e = room(t->size, count, *position, outsize, &n);
    if (e)
        return mpi_err(comm, e);
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
    MPI_Count n;
    int e = room(t->size, count, *position, insize, &n);
    if (e)
        return mpi_err(comm, e);
    type_unpack(t, (const unsigned char *)in + *position, count, out);
    *position += (int)n;
    return MPI_SUCCESS;
}

int
MPI_Pack_size(int count, MPI_Datatype type, MPI_Comm comm, int *size)
{
    ENTER("MPI_Pack_size");
    TYPE(t, type);
    MPI_Count n;
    if (count < 0)
        return mpi_err(comm, MPI_ERR_COUNT);
    /* a size an int cannot hold is an error, not a wrapped one */
    if (mul(t->size, count, &n) || n > 0x7fffffff)
        return mpi_err(comm, MPI_ERR_ARG);
    *size = (int)n;
    return MPI_SUCCESS;
}

/* ---- external32 ---- */

/* one part (xs bytes out, ns native) of kind x, big-endian */
static void
xput_part(unsigned char *out, const unsigned char *in, int x, int xs, int ns)
{
    unsigned char v[16];
    if (x == X_LDBL) {
        /* IEEE quadruple from the native long double: sign and exponent as they are
         * (the same bias), the fraction after the explicit integer bit of the x87
         * format, or from a double */
        long double ld;
        memcpy(&ld, in, sizeof ld);
        memset(v, 0, sizeof v);
#if LDBL_MANT_DIG == 64
        unsigned char raw[sizeof(long double)];
        memcpy(raw, &ld, sizeof raw);
        uint64_t mant;
        uint16_t se;
        memcpy(&mant, raw, 8);
        memcpy(&se, raw + 8, 2);
        v[0] = (unsigned char)(se >> 8), v[1] = (unsigned char)se;
        uint64_t frac = mant << 1; /* 63 bits of fraction, at the top of 112 */
        for (int i = 0; i < 8; i++)
            v[2 + i] = (unsigned char)(frac >> (56 - 8 * i));
#else
        double d = (double)ld;
        uint64_t b;
        memcpy(&b, &d, 8);
        uint64_t sign = b >> 63, e = (b >> 52) & 0x7ff, f = b & ((1ULL << 52) - 1);
        uint64_t qe = e == 0 ? 0 : e == 0x7ff ? 0x7fff : e - 1023 + 16383;
        uint64_t hi = (sign << 63) | (qe << 48) | (f >> 4);
        for (int i = 0; i < 8; i++)
            v[i] = (unsigned char)(hi >> (56 - 8 * i));
        v[8] = (unsigned char)(f << 4);
#endif
        memcpy(out, v, 16);
        return;
    }
    if (x == X_BOOL) {
        _Bool b;
        memcpy(&b, in, 1);
        out[0] = b;
        return;
    }
    /* integers: the low xs bytes; floats: all of them (xs == ns) */
    for (int i = 0; i < xs; i++)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        out[i] = in[xs - 1 - i];
#else
        out[i] = in[ns - xs + i];
#endif
    (void)ns;
}

static void
xget_part(unsigned char *out, const unsigned char *in, int x, int xs, int ns)
{
    if (x == X_LDBL) {
        long double ld;
#if LDBL_MANT_DIG == 64
        unsigned char raw[sizeof(long double)];
        memset(raw, 0, sizeof raw);
        uint16_t se = (uint16_t)(in[0] << 8 | in[1]);
        uint64_t frac = 0;
        for (int i = 0; i < 8; i++)
            frac = frac << 8 | in[2 + i];
        /* the explicit integer bit: set but for zeros and subnormals */
        uint64_t mant = frac >> 1 | ((se & 0x7fff) ? 1ULL << 63 : 0);
        memcpy(raw, &mant, 8);
        memcpy(raw + 8, &se, 2);
        memcpy(&ld, raw, sizeof ld);
#else
        uint64_t hi = 0;
        for (int i = 0; i < 8; i++)
            hi = hi << 8 | in[i];
        uint64_t sign = hi >> 63, qe = (hi >> 48) & 0x7fff,
                 f = (hi & ((1ULL << 48) - 1)) << 4;
        f |= in[8] >> 4;
        uint64_t e = qe == 0 ? 0 : qe == 0x7fff ? 0x7ff : qe - 16383 + 1023;
        uint64_t b = sign << 63 | e << 52 | f;
        double d;
        memcpy(&d, &b, 8);
        ld = d;
#endif
        memcpy(out, &ld, sizeof ld);
        return;
    }
    if (x == X_BOOL) {
        _Bool b = in[0] != 0;
        memcpy(out, &b, 1);
        return;
    }
    /* sign-extended (X_INT) or zero-extended to the native size */
    unsigned char fill = x == X_INT && (in[0] & 0x80) ? 0xff : 0;
    for (int i = 0; i < ns; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        out[i] = i < xs ? in[xs - 1 - i] : fill;
#else
        out[i] = i < ns - xs ? fill : in[i - (ns - xs)];
#endif
    }
}

/* one element of the leaf type t to external32 and back */
static void
xput(unsigned char *out, const unsigned char *in, const Type *t)
{
    int i = predef_index(t->handle);
    int nx = predefs[i].nx, xs = predefs[i].xsize, ns = (int)t->size / nx;
    for (int k = 0; k < nx; k++)
        xput_part(out + k * xs, in + k * ns, predefs[i].x, xs, ns);
}

static void
xget(unsigned char *out, const unsigned char *in, const Type *t)
{
    int i = predef_index(t->handle);
    int nx = predefs[i].nx, xs = predefs[i].xsize, ns = (int)t->size / nx;
    for (int k = 0; k < nx; k++)
        xget_part(out + k * ns, in + k * xs, predefs[i].x, xs, ns);
}

static int
external32(const char *datarep)
{
    return datarep && strcmp(datarep, "external32") == 0;
}

int
MPI_Pack_external_size(const char datarep[], int count, MPI_Datatype type, MPI_Aint *size)
{
    ENTER("MPI_Pack_external_size");
    TYPE(t, type);
    if (!external32(datarep))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    MPI_Count n;
    if (count < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COUNT);
    if (mul(t->xsize, count, &n))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    *size = (MPI_Aint)n;
    return MPI_SUCCESS;
}

/* count instances of type between buf and the external32 bytes ext of size bytes
 * at *position (mode W_XPACK: to them, W_XUNPACK: from them) */
static int
external(const char *call, int mode, const char *datarep, void *buf, int count,
         MPI_Datatype type, void *ext, MPI_Aint size, MPI_Aint *position)
{
    ENTER(call);
    Type *t;
    if (type_check(s, type, &t))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_TYPE);
    if (!external32(datarep))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG);
    MPI_Count n;
    int e = room(t->xsize, count, *position, size, &n);
    if (e)
        return mpi_err(MPI_COMM_WORLD, e);
    Walk w = {mode, (unsigned char *)ext + *position, t->size * count};
    walk(&w, t, (uintptr_t)buf, count);
    *position += (MPI_Aint)n;
    return MPI_SUCCESS;
}

int
MPI_Pack_external(const char datarep[], const void *in, int count, MPI_Datatype type,
                  void *out, MPI_Aint outsize, MPI_Aint *position)
{
    return external("MPI_Pack_external", W_XPACK, datarep, (void *)in, count, type, out,
                    outsize, position);
}

int
MPI_Unpack_external(const char datarep[], const void *in, MPI_Aint insize,
                    MPI_Aint *position, void *out, int count, MPI_Datatype type)
{
    return external("MPI_Unpack_external", W_XUNPACK, datarep, out, count, type,
                    (void *)in, insize, position);
}
