/* check_mpirio_mpi.c: the MPI names of libmpirio (mpirio/mpi.h) where MPI's rules are
 * subtle: datatypes (a message shorter than the buffer into every kind of derived type
 * and every receive path, MPI_Get_elements and MPI_Get_count on partial instances, the
 * alignment of structs, sizes that do not fit, types of 2^27 bytes and of more than
 * 2^26 blocks, external32), attributes, the cancel of sends, the nonblocking
 * collectives (operations in progress: they let messages through, progress while
 * the DSP computes, go on side by side). Every run is in-process through MPIRIO_Run; a
 * DSP notes its first failed expectation, which the test then reports with the DSP's
 * rank. */
#include <check.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check_run.h"

static char failure[64][512];

/* the first failed expectation of DSP rank (the DSPs run one at a time) */
#define EXPECT(rank, cond, ...)                                                          \
    do {                                                                                 \
        if (!(cond) && !failure[rank][0]) {                                              \
            int n_ = snprintf(failure[rank], sizeof failure[rank],                       \
                              "line %d: %s: ", __LINE__, #cond);                         \
            snprintf(failure[rank] + n_, sizeof failure[rank] - (size_t)n_,              \
                     __VA_ARGS__);                                                       \
        }                                                                                \
    } while (0)

/* runs fn on n DSPs of platform plat (NULL: the smallest preset); each must meet
 * its expectations */
static void
run_on(int n, const char *plat, void (*fn)(int, void *), void *arg)
{
    memset(failure, 0, sizeof failure);
    ck_assert_int_eq(MPIRIO_Run(n, plat, MPIRIO_RUN_QUIET, fn, arg), 0);
    for (int r = 0; r < n; r++)
        ck_assert_msg(!failure[r][0], "DSP %d: %s", r, failure[r]);
}

static void
run(int n, void (*fn)(int, void *), void *arg)
{
    run_on(n, NULL, fn, arg);
}

/* ---- a message shorter than the buffer, into derived types ---- */

/* a derived type of ints and where its ints lie for two instances (in ints from the
 * receive buffer's base), in type-map order, as worked out by hand */
typedef struct {
    const char *name;
    int nmap;
    int map[8];
    int base; /* the receive buffer starts this many ints into the array */
} Case;

static const Case cases[] = {
    /* vector(2, 2, 4) of int: 0 1 4 5, extent 6 ints (the example of issue 34) */
    {"vector", 8, {0, 1, 4, 5, 6, 7, 10, 11}, 0},
    /* indexed {2 at 3, 1 at 0}: 3 4 0, extent 5 */
    {"indexed", 6, {3, 4, 0, 8, 9, 5}, 0},
    /* struct {int at 0, 2 ints at 12 bytes}: 0 3 4, extent 5 */
    {"struct", 6, {0, 3, 4, 5, 8, 9}, 0},
    /* vector(2, 1, 3) resized to an extent of 4 ints: 0 3, then 4 7 */
    {"resized", 4, {0, 3, 4, 7}, 0},
    /* subarray of a 3 x 4 array, 2 x 2 from (1, 1): 5 6 9 10, extent 12 */
    {"subarray", 8, {5, 6, 9, 10, 17, 18, 21, 22}, 0},
    /* hvector(2, 1, -8 bytes): 0 -2 with lb -2 ints, extent 3 ints */
    {"hvector_negative", 4, {0, -2, 3, 1}, 4},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static MPI_Datatype
case_type(int k)
{
    MPI_Datatype t, v;
    switch (k) {
    case 0:
        MPI_Type_vector(2, 2, 4, MPI_INT, &t);
        break;
    case 1:
        MPI_Type_indexed(2, (int[]){2, 1}, (int[]){3, 0}, MPI_INT, &t);
        break;
    case 2:
        MPI_Type_create_struct(2, (int[]){1, 2}, (MPI_Aint[]){0, 12},
                               (MPI_Datatype[]){MPI_INT, MPI_INT}, &t);
        break;
    case 3:
        MPI_Type_vector(2, 1, 3, MPI_INT, &v);
        MPI_Type_create_resized(v, 0, 4 * sizeof(int), &t);
        MPI_Type_free(&v);
        break;
    case 4:
        MPI_Type_create_subarray(2, (int[]){3, 4}, (int[]){2, 2}, (int[]){1, 1},
                                 MPI_ORDER_C, MPI_INT, &t);
        break;
    default:
        MPI_Type_create_hvector(2, 1, -8, MPI_INT, &t);
        break;
    }
    MPI_Type_commit(&t);
    return t;
}

enum { P_RECV, P_IRECV, P_MRECV, P_RECV_INIT, P_SENDRECV, NPATHS };
static const char *const path_names[] = {"MPI_Recv", "MPI_Irecv", "MPI_Mrecv",
                                         "MPI_Recv_init", "MPI_Sendrecv"};

/* DSP 0 sends k ints 1..k (k below 2 instances' ints: the last instance is cut
 * short) to DSP 1, which receives 2 instances of the case's type by one of the paths
 * and checks every int of its buffer: the k first places of the type map hold the
 * data, every other int is untouched; the count is MPI_UNDEFINED, the elements k */
static void
short_into(int rank, void *arg)
{
    const int *ck = arg; /* case, path, k */
    const Case *c = &cases[ck[0]];
    int path = ck[1], k = ck[2];
    MPI_Init(NULL, NULL);
    MPI_Datatype t = case_type(ck[0]);
    int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    if (rank == 0 && path != P_SENDRECV)
        MPI_Send(data, k, MPI_INT, 1, 7, MPI_COMM_WORLD);
    if (rank == 0 && path == P_SENDRECV)
        MPI_Sendrecv(data, k, MPI_INT, 1, 7, NULL, 0, MPI_INT, 1, 8, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    if (rank == 1) {
        int buf[32];
        for (int i = 0; i < 32; i++)
            buf[i] = -1;
        int *at = buf + c->base;
        MPI_Status st;
        MPI_Request r;
        MPI_Message m;
        switch (path) {
        case P_RECV:
            MPI_Recv(at, 2, t, 0, 7, MPI_COMM_WORLD, &st);
            break;
        case P_IRECV:
            MPI_Irecv(at, 2, t, 0, 7, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, &st);
            break;
        case P_MRECV:
            MPI_Mprobe(0, 7, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
            MPI_Mrecv(at, 2, t, &m, &st);
            break;
        case P_RECV_INIT:
            MPI_Recv_init(at, 2, t, 0, 7, MPI_COMM_WORLD, &r);
            MPI_Start(&r);
            MPI_Wait(&r, &st);
            MPI_Request_free(&r);
            break;
        default:
            MPI_Sendrecv(NULL, 0, MPI_INT, 0, 8, at, 2, t, 0, 7, MPI_COMM_WORLD, &st);
            break;
        }
        int want[32];
        for (int i = 0; i < 32; i++)
            want[i] = -1;
        for (int i = 0; i < k; i++)
            want[c->base + c->map[i]] = i + 1;
        for (int i = 0; i < 32; i++)
            EXPECT(1, buf[i] == want[i],
                   "%s into 2 x %s of %d ints: int %d is %d, not %d", path_names[path],
                   c->name, k, i - c->base, buf[i], want[i]);
        int count = 0, elems = 0;
        MPI_Get_count(&st, t, &count);
        MPI_Get_elements(&st, t, &elems);
        EXPECT(1, count == MPI_UNDEFINED, "%s: MPI_Get_count %d", c->name, count);
        EXPECT(1, elems == k, "%s: MPI_Get_elements %d, not %d", c->name, elems, k);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
}

TEST_CASE("datatypes", 120)

TEST(short_message_into_derived_types_fills_the_partial_instance)
{
    for (int c = 0; c < NCASES; c++)
        for (int p = 0; p < NPATHS; p++) {
            /* from one int past the first instance to one short of two instances */
            int per = cases[c].nmap / 2;
            for (int k = per + 1; k < 2 * per; k++) {
                int arg[3] = {c, p, k};
                run(2, short_into, arg);
            }
        }
}
END_TEST

/* issue 34's example exactly: 6 ints into 2 x vector(2, 2, 4) */
static void
vector_example(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    int data[6] = {1, 2, 3, 4, 5, 6};
    if (rank == 0)
        MPI_Send(data, 6, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else {
        MPI_Datatype v;
        MPI_Type_vector(2, 2, 4, MPI_INT, &v);
        MPI_Type_commit(&v);
        int buf[8] = {-1, -1, -1, -1, -1, -1, -1, -1},
            want[8] = {1, 2, -1, -1, 3, 4, 5, 6};
        MPI_Status st;
        MPI_Recv(buf, 2, v, 0, 0, MPI_COMM_WORLD, &st);
        EXPECT(1, memcmp(buf, want, sizeof buf) == 0, "%d %d %d %d %d %d %d %d", buf[0],
               buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]);
        MPI_Type_free(&v);
    }
    MPI_Finalize();
}

TEST(six_ints_into_two_vectors_as_open_mpi)
{
    run(2, vector_example, NULL);
}
END_TEST

/* collectives whose receive may be shorter than the buffer (MPI_Scatterv: rcount
 * larger than what the root sends) write the partial instance too */
static void
scatterv_short(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Datatype v;
    MPI_Type_vector(2, 2, 4, MPI_INT, &v);
    MPI_Type_commit(&v);
    int data[12] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
    int counts[2] = {6, 6}, displs[2] = {0, 6};
    int buf[8] = {-1, -1, -1, -1, -1, -1, -1, -1}, want[8] = {1, 2, -1, -1, 3, 4, 5, 6};
    MPI_Scatterv(data, counts, displs, MPI_INT, buf, 2, v, 0, MPI_COMM_WORLD);
    EXPECT(rank, memcmp(buf, want, sizeof buf) == 0, "%d %d %d %d %d %d %d %d", buf[0],
           buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]);
    MPI_Type_free(&v);
    MPI_Finalize();
}

TEST(scatterv_short_into_vector_fills_the_partial_instance)
{
    run(2, scatterv_short, NULL);
}
END_TEST

/* ---- MPI_Get_elements, MPI_Get_count, MPI_Status_set_elements ---- */

static void
elements(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Status st;
    MPI_Datatype s, ic;
    int e = 0, c = 0;
    /* getpartelm of MPICH: {int, 256 chars} receiving 4 + 16 bytes: 17 elements */
    MPI_Type_create_struct(2, (int[]){1, 256}, (MPI_Aint[]){0, sizeof(int)},
                           (MPI_Datatype[]){MPI_INT, MPI_CHAR}, &s);
    MPI_Type_commit(&s);
    MPI_Status_set_elements(&st, MPI_BYTE, 4 + 16);
    MPI_Get_elements(&st, s, &e);
    MPI_Get_count(&st, s, &c);
    EXPECT(rank, e == 17, "{int, 256 chars}, 20 bytes: %d elements", e);
    EXPECT(rank, c == MPI_UNDEFINED, "count %d", c);
    /* a basic element cut short does not count: {int, double} with 4 + 4 bytes */
    MPI_Datatype id;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                           (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &id);
    MPI_Type_commit(&id);
    MPI_Status_set_elements(&st, MPI_BYTE, 8);
    MPI_Get_elements(&st, id, &e);
    EXPECT(rank, e == 1, "{int, double}, 8 bytes: %d elements", e);
    /* 12 + 4 + 8 bytes: one instance, then both elements of the next */
    MPI_Status_set_elements(&st, MPI_BYTE, 24);
    MPI_Get_elements(&st, id, &e);
    MPI_Get_count(&st, id, &c);
    EXPECT(rank, e == 4 && c == 2, "{int, double}, 24 bytes: %d elements, count %d", e,
           c);
    /* a predefined type: as MPI_Get_count */
    MPI_Status_set_elements(&st, MPI_BYTE, 6);
    MPI_Get_elements(&st, MPI_INT, &e);
    EXPECT(rank, e == MPI_UNDEFINED, "6 bytes of MPI_INT: %d elements", e);
    /* a pair type has two elements; a part of one is MPI_UNDEFINED, as MPICH says,
     * for a predefined type (get_elements_pairtype of MPICH's tests) */
    MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 4);
    MPI_Get_elements(&st, MPI_DOUBLE_INT, &e);
    MPI_Get_count(&st, MPI_DOUBLE_INT, &c);
    EXPECT(rank, e == 4 && c == 2, "4 elements of MPI_DOUBLE_INT: %d, count %d", e, c);
    MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 3);
    MPI_Get_count(&st, MPI_BYTE, &c);
    EXPECT(rank, c == (int)(2 * sizeof(double) + sizeof(int)), "%d bytes", c);
    MPI_Get_elements(&st, MPI_DOUBLE_INT, &e);
    EXPECT(rank, e == MPI_UNDEFINED, "3 elements of MPI_DOUBLE_INT: %d", e);
    /* set_elements of a mixed struct is the inverse of get_elements */
    MPI_Datatype four;
    MPI_Type_create_struct(4, (int[]){1, 1, 1, 1}, (MPI_Aint[]){0, 8, 16, 24},
                           (MPI_Datatype[]){MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_SHORT},
                           &four);
    MPI_Type_commit(&four);
    for (int k = 0; k <= 9; k++) {
        MPI_Status_set_elements(&st, four, k);
        MPI_Get_elements(&st, four, &e);
        EXPECT(rank, e == k, "four-element struct: set %d, got %d", k, e);
    }
    MPI_Status_set_elements(&st, four, 4);
    MPI_Get_count(&st, four, &c);
    EXPECT(rank, c == 1, "four elements make %d instances", c);
    /* an empty type */
    MPI_Type_contiguous(0, MPI_INT, &ic);
    MPI_Type_commit(&ic);
    MPI_Status_set_elements(&st, MPI_BYTE, 0);
    MPI_Get_elements(&st, ic, &e);
    MPI_Get_count(&st, ic, &c);
    EXPECT(rank, e == 0 && c == 0, "empty type: %d elements, count %d", e, c);
    MPI_Type_free(&s);
    MPI_Type_free(&id);
    MPI_Type_free(&four);
    MPI_Type_free(&ic);
    MPI_Finalize();
}

TEST(get_elements_counts_the_whole_basic_elements)
{
    run(1, elements, NULL);
}
END_TEST

/* ---- alignment of structs (MPI 3.1 section 4.1.6) ---- */

static MPI_Aint
extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

static void
alignment(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    struct ic {
        int i;
        char c;
    };
    struct cd {
        char c;
        double d;
    };
    struct di {
        double d;
        int i;
    };
    MPI_Datatype a, b, c, d, e, f;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct ic, c)},
                           (MPI_Datatype[]){MPI_INT, MPI_CHAR}, &a);
    EXPECT(rank, extent_of(a) == sizeof(struct ic), "{int, char}: extent %ld",
           (long)extent_of(a));
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct cd, d)},
                           (MPI_Datatype[]){MPI_CHAR, MPI_DOUBLE}, &b);
    EXPECT(rank, extent_of(b) == sizeof(struct cd), "{char, double}: extent %ld",
           (long)extent_of(b));
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, offsetof(struct di, i)},
                           (MPI_Datatype[]){MPI_DOUBLE, MPI_INT}, &c);
    EXPECT(rank,
           extent_of(c) == sizeof(struct di) && extent_of(c) == extent_of(MPI_DOUBLE_INT),
           "{double, int}: extent %ld", (long)extent_of(c));
    /* an array of them strides by the padded extent */
    MPI_Type_contiguous(3, a, &d);
    EXPECT(rank, extent_of(d) == 3 * sizeof(struct ic), "3 x {int, char}: %ld",
           (long)extent_of(d));
    /* explicit bounds are not padded */
    MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 4, 5},
                           (MPI_Datatype[]){MPI_INT, MPI_CHAR, MPI_UB}, &e);
    EXPECT(rank, extent_of(e) == 5, "{int, char, MPI_UB at 5}: %ld", (long)extent_of(e));
    MPI_Type_create_resized(a, 0, 5, &f);
    EXPECT(rank, extent_of(f) == 5, "resized to 5: %ld", (long)extent_of(f));
    /* and the data of an array of {int, char} is where C puts it */
    MPI_Type_commit(&d);
    struct ic in[3] = {{1, 'a'}, {2, 'b'}, {3, 'c'}}, out[3];
    memset(out, 0, sizeof out);
    MPI_Sendrecv(in, 1, d, 0, 0, out, 1, d, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; i++)
        EXPECT(rank, out[i].i == in[i].i && out[i].c == in[i].c, "element %d", i);
    MPI_Datatype *all[] = {&a, &b, &c, &d, &e, &f};
    for (int i = 0; i < 6; i++)
        MPI_Type_free(all[i]);
    MPI_Finalize();
}

TEST(struct_extent_is_rounded_to_the_alignment)
{
    run(1, alignment, NULL);
}
END_TEST

/* ---- sizes that do not fit (issue 37, item 6) ---- */

static void
overflow(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype a, b, t = MPI_DATATYPE_NULL;
    int size = 0, e;
    /* MPI_Pack_size of 2^29 - 1 doubles (2^32 - 8 bytes) wrapped to -8 */
    e = MPI_Pack_size((1 << 29) - 1, MPI_DOUBLE, MPI_COMM_WORLD, &size);
    EXPECT(rank, e == MPI_ERR_ARG, "MPI_Pack_size of 2^32 - 8 bytes: %d, size %d", e,
           size);
    /* sizes: 2^26 doubles, 2^26 of those (2^55 bytes), 2^26 of those (2^81) */
    MPI_Type_contiguous(1 << 26, MPI_DOUBLE, &a);
    MPI_Type_contiguous(1 << 26, a, &b);
    MPI_Count sx;
    MPI_Type_size_x(b, &sx);
    EXPECT(rank, sx == 1LL << 55, "2^55 bytes: %lld", sx);
    e = MPI_Type_contiguous(1 << 26, b, &t);
    EXPECT(rank, e == MPI_ERR_ARG && t == MPI_DATATYPE_NULL,
           "contiguous of 2^81 bytes: %d", e);
    e = MPI_Type_vector(1 << 26, 1, 1, b, &t);
    EXPECT(rank, e == MPI_ERR_ARG, "vector of 2^81 bytes: %d", e);
    /* bounds: a stride of 2^62 bytes, four times */
    e = MPI_Type_create_hvector(4, 1, (MPI_Aint)1 << 62, MPI_INT, &t);
    EXPECT(rank, e == MPI_ERR_ARG, "hvector over 2^63 bytes: %d", e);
    /* a stride in extents: 2^40 extents of 2^55 bytes */
    e = MPI_Type_vector(2, 1, 1 << 30, b, &t);
    EXPECT(rank, e == MPI_ERR_ARG, "vector with a stride of 2^85 bytes: %d", e);
    /* displacements in extents */
    e = MPI_Type_indexed(1, (int[]){1}, (int[]){1 << 30}, b, &t);
    EXPECT(rank, e == MPI_ERR_ARG, "indexed at 2^85 bytes: %d", e);
    /* byte displacements next to the top */
    e = MPI_Type_create_hindexed(1, (int[]){2}, (MPI_Aint[]){INTPTR_MAX - 4}, MPI_INT,
                                 &t);
    EXPECT(rank, e == MPI_ERR_ARG, "hindexed ending past 2^63: %d", e);
    e = MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, INTPTR_MAX - 2},
                               (MPI_Datatype[]){MPI_INT, MPI_INT}, &t);
    EXPECT(rank, e == MPI_ERR_ARG, "struct ending past 2^63: %d", e);
    e = MPI_Type_create_resized(MPI_INT, INTPTR_MAX - 8, 16, &t);
    EXPECT(rank, e == MPI_ERR_ARG, "resized past 2^63: %d", e);
    e = MPI_Type_create_subarray(3, (int[]){1 << 30, 1 << 30, 1 << 30}, (int[]){1, 1, 1},
                                 (int[]){0, 0, 0}, MPI_ORDER_C, MPI_DOUBLE, &t);
    EXPECT(rank, e == MPI_ERR_ARG, "subarray of 2^93 bytes: %d", e);
    /* MPI_Pack: a count whose bytes pass the end */
    char buf[16];
    int pos = 0;
    e = MPI_Pack(buf, 1 << 30, MPI_DOUBLE, buf, 16, &pos, MPI_COMM_WORLD);
    EXPECT(rank, e == MPI_ERR_TRUNCATE && pos == 0, "MPI_Pack of 8 GiB: %d", e);
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    MPI_Finalize();
}

TEST(sizes_that_overflow_are_errors)
{
    run(1, overflow, NULL);
}
END_TEST

/* ---- large types (issue 34 item 5, issue 37 item 6) ---- */

static void
big_contiguous(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Datatype t;
    const int n = 1 << 27;
    int e = MPI_Type_contiguous(n, MPI_BYTE, &t);
    EXPECT(rank, e == MPI_SUCCESS, "MPI_Type_contiguous of 2^27 bytes: %d", e);
    MPI_Type_commit(&t);
    int size = 0;
    MPI_Type_size(t, &size);
    EXPECT(rank, size == n, "size %d", size);
    unsigned char *buf = malloc((size_t)n);
    if (rank == 0) {
        for (int i = 0; i < n; i += 4096)
            buf[i] = (unsigned char)(i >> 12);
        buf[n - 1] = 0xa5;
        MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
    } else {
        memset(buf, 0, (size_t)n);
        MPI_Status st;
        MPI_Recv(buf, 1, t, 0, 0, MPI_COMM_WORLD, &st);
        int bad = 0;
        for (int i = 0; i < n - 1; i += 4096)
            bad += buf[i] != (unsigned char)(i >> 12);
        EXPECT(rank, !bad && buf[n - 1] == 0xa5, "%d bad bytes", bad);
    }
    free(buf);
    MPI_Type_free(&t);
    MPI_Finalize();
}

TEST(contiguous_of_2_27_bytes_is_sent)
{
    run_on(2, "abstract", big_contiguous, NULL);
}
END_TEST

/* more blocks than the 2^26 the flattened types had: 2^27 chars every other byte,
 * and 2^28 + 1 blocks in a vector of vectors; queries, elements and a pack of a
 * part of one (a resized window on it) */
static void
many_blocks(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Datatype v, w;
    int e = MPI_Type_vector(1 << 27, 1, 2, MPI_CHAR, &v);
    EXPECT(rank, e == MPI_SUCCESS, "vector of 2^27 blocks: %d", e);
    MPI_Count size, lb, ext;
    MPI_Type_size_x(v, &size);
    MPI_Type_get_extent_x(v, &lb, &ext);
    EXPECT(rank, size == 1 << 27 && lb == 0 && ext == (1LL << 28) - 1,
           "size %lld, extent %lld", size, ext);
    e = MPI_Type_vector(2, 1, 1 << 28, v, &w);
    EXPECT(rank, e == MPI_SUCCESS, "vector of 2 of them: %d", e);
    MPI_Type_size_x(w, &size);
    EXPECT(rank, size == 1LL << 28, "size %lld", size);
    MPI_Status st;
    MPI_Status_set_elements(&st, MPI_BYTE, 1000);
    int el;
    MPI_Get_elements(&st, w, &el);
    EXPECT(rank, el == 1000, "elements %d", el);
    /* the first 1000 chars of v, unpacked into a buffer of 2000 */
    MPI_Type_commit(&v);
    char in[1000], out[2000];
    for (int i = 0; i < 1000; i++)
        in[i] = (char)(i % 127 + 1);
    memset(out, 0, sizeof out);
    MPI_Sendrecv(in, 1000, MPI_CHAR, 0, 0, out, 1, v, 0, 0, MPI_COMM_SELF, &st);
    int bad = 0;
    for (int i = 0; i < 2000; i++)
        bad += out[i] != (i % 2 ? 0 : in[i / 2]);
    EXPECT(rank, bad == 0, "%d bytes wrong", bad);
    MPI_Type_free(&v);
    MPI_Type_free(&w);
    MPI_Finalize();
}

TEST(types_of_more_than_2_26_blocks)
{
    run(1, many_blocks, NULL);
}
END_TEST

/* ---- external32 ---- */

static void
external(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    /* {int, long, double, short} and the bytes MPI 3.1 table 13.2 gives them */
    struct {
        int i;
        long l;
        double d;
        short s;
    } in = {-2, 0x1234567, 1.0, 3}, out;
    MPI_Datatype t;
    MPI_Type_create_struct(
        4, (int[]){1, 1, 1, 1},
        (MPI_Aint[]){offsetof(__typeof__(in), i), offsetof(__typeof__(in), l),
                     offsetof(__typeof__(in), d), offsetof(__typeof__(in), s)},
        (MPI_Datatype[]){MPI_INT, MPI_LONG, MPI_DOUBLE, MPI_SHORT}, &t);
    MPI_Type_commit(&t);
    MPI_Aint size = 0, pos = 0;
    MPI_Pack_external_size("external32", 1, t, &size);
    EXPECT(rank, size == 4 + 4 + 8 + 2, "external32 size %ld", (long)size);
    unsigned char buf[64],
        want[18] = {0xff, 0xff, 0xff, 0xfe, 0x01, 0x23, 0x45, 0x67, 0x3f,
                    0xf0, 0,    0,    0,    0,    0,    0,    0,    3};
    MPI_Pack_external("external32", &in, 1, t, buf, sizeof buf, &pos);
    EXPECT(rank, pos == 18 && memcmp(buf, want, 18) == 0, "position %ld", (long)pos);
    memset(&out, 0, sizeof out);
    pos = 0;
    MPI_Unpack_external("external32", buf, sizeof buf, &pos, &out, 1, t);
    EXPECT(rank,
           pos == 18 && out.i == -2 && out.l == 0x1234567 && out.d == 1.0 && out.s == 3,
           "back: %d %ld %g %d", out.i, out.l, out.d, out.s);
    /* long double as IEEE quadruple precision */
    long double ld = -2.5L, ld2 = 0;
    unsigned char q[16], qwant[16] = {0xc0, 0x00, 0x40};
    pos = 0;
    MPI_Pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, q, 16, &pos);
    EXPECT(rank, memcmp(q, qwant, 16) == 0, "-2.5L: %02x %02x %02x", q[0], q[1], q[2]);
    pos = 0;
    MPI_Unpack_external("external32", q, 16, &pos, &ld2, 1, MPI_LONG_DOUBLE);
    EXPECT(rank, ld2 == ld, "-2.5L back: %Lg", ld2);
    MPI_Type_free(&t);
    MPI_Finalize();
}

TEST(external32_is_big_endian_with_its_own_sizes)
{
    run(1, external, NULL);
}
END_TEST

/* ---- attributes and keys (issue 34 items 4, 5, 8) ---- */

static int copies[64], deletes[64];
static int order[64][32], norder[64];

static int
count_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)key, (void)extra;
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    copies[r]++;
    memcpy(out, &in, sizeof in);
    *flag = 1;
    return MPI_SUCCESS;
}

/* notes the value deleted (an int in the pointer) and that MPI is still usable */
static int
note_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)extra;
    int r, fin = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Finalized(&fin);
    deletes[r]++;
    if (norder[r] < 32)
        order[r][norder[r]++] = fin ? -1 : (int)(intptr_t)val;
    return MPI_SUCCESS;
}

static void
freed_keyval(int rank, void *arg)
{
    (void)arg;
    copies[rank] = deletes[rank] = norder[rank] = 0;
    MPI_Init(NULL, NULL);
    int key, saved, dummy[32];
    MPI_Comm_create_keyval(count_copy, note_delete, &key, NULL);
    saved = key;
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)(intptr_t)7);
    /* freed while an attribute uses it: the key and its callbacks live on */
    MPI_Comm_free_keyval(&key);
    EXPECT(rank, key == MPI_KEYVAL_INVALID, "key %d", key);
    for (int i = 0; i < 32; i++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &dummy[i],
                               NULL);
    for (int i = 0; i < 32; i++)
        EXPECT(rank, dummy[i] != saved, "key %d given again", saved);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    EXPECT(rank, copies[rank] == 1, "copy callback called %d times", copies[rank]);
    void *v = NULL;
    int flag = 0;
    MPI_Comm_get_attr(dup, saved, &v, &flag);
    EXPECT(rank, flag && (intptr_t)v == 7, "copied attribute %d %ld", flag,
           (long)(intptr_t)v);
    MPI_Comm_free(&dup);
    EXPECT(rank, deletes[rank] == 1, "delete callback called %d times", deletes[rank]);
    /* a key no attribute uses any more is gone when freed: freeing it again fails */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int k2, k2copy;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL);
    k2copy = k2;
    MPI_Comm_free_keyval(&k2);
    int e = MPI_Comm_free_keyval(&k2copy);
    EXPECT(rank, e == MPI_ERR_KEYVAL, "second free of an unused key: %d", e);
    /* WORLD's attribute is deleted by MPI_Finalize */
    MPI_Finalize();
    EXPECT(rank, deletes[rank] == 2, "delete callback called %d times", deletes[rank]);
}

TEST_CASE("attributes", 0)

TEST(a_freed_key_keeps_its_callbacks_while_attributes_use_it)
{
    run(2, freed_keyval, NULL);
}
END_TEST

static void
finalize_order(int rank, void *arg)
{
    (void)arg;
    deletes[rank] = norder[rank] = 0;
    MPI_Init(NULL, NULL);
    int k[8];
    for (int i = 0; i < 8; i++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, note_delete, &k[i], NULL);
    /* WORLD first, then SELF, in an order of their own; one set twice */
    MPI_Comm_set_attr(MPI_COMM_WORLD, k[5], (void *)(intptr_t)105);
    MPI_Comm_set_attr(MPI_COMM_SELF, k[3], (void *)(intptr_t)3);
    MPI_Comm_set_attr(MPI_COMM_SELF, k[0], (void *)(intptr_t)0);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k[6], (void *)(intptr_t)106);
    MPI_Comm_set_attr(MPI_COMM_SELF, k[4], (void *)(intptr_t)4);
    MPI_Comm_set_attr(MPI_COMM_SELF, k[1], (void *)(intptr_t)1);
    MPI_Comm_set_attr(MPI_COMM_SELF, k[0], (void *)(intptr_t)10); /* deletes 0 */
    for (int i = 0; i < 8; i++)
        MPI_Comm_free_keyval(&k[i]);
    MPI_Finalize();
    /* 0 (replaced), then SELF's in reverse order of setting, then WORLD's */
    int want[] = {0, 1, 4, 10, 3, 106, 105};
    EXPECT(rank, norder[rank] == 7, "%d deletes", norder[rank]);
    for (int i = 0; i < 7 && i < norder[rank]; i++)
        EXPECT(rank, order[rank][i] == want[i],
               "delete %d: %d, not %d (-1: after finalize)", i, order[rank][i], want[i]);
}

TEST(finalize_deletes_self_attributes_first_in_reverse_order)
{
    run(2, finalize_order, NULL);
}
END_TEST

static void
many_attributes(int rank, void *arg)
{
    (void)arg;
    copies[rank] = 0;
    MPI_Init(NULL, NULL);
    enum { N = 100 };
    int k[N];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < N; i++) {
        MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &k[i], NULL);
        int e = MPI_Comm_set_attr(MPI_COMM_WORLD, k[i], (void *)(intptr_t)(i + 1));
        EXPECT(rank, e == MPI_SUCCESS, "attribute %d: %d", i, e);
    }
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    EXPECT(rank, copies[rank] == N, "%d copies", copies[rank]);
    for (int i = 0; i < N; i++) {
        void *v = NULL;
        int flag = 0;
        MPI_Comm_get_attr(dup, k[i], &v, &flag);
        EXPECT(rank, flag && (intptr_t)v == i + 1, "attribute %d of the copy", i);
    }
    MPI_Comm_free(&dup);
    for (int i = 0; i < N; i++)
        MPI_Comm_free_keyval(&k[i]);
    MPI_Finalize();
}

TEST(a_communicator_holds_any_number_of_attributes)
{
    run(2, many_attributes, NULL);
}
END_TEST

static int
type_copy(MPI_Datatype t, int key, void *extra, void *in, void *out, int *flag)
{
    (void)t, (void)key, (void)extra;
    intptr_t v = (intptr_t)in + 1;
    memcpy(out, &v, sizeof v);
    *flag = 1;
    return MPI_SUCCESS;
}

static int
type_delete(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t, (void)key;
    *(intptr_t *)extra += (intptr_t)val;
    return MPI_SUCCESS;
}

static void
type_attributes(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    intptr_t deleted = 0;
    int key, ckey, plain;
    MPI_Type_create_keyval(type_copy, type_delete, &key, &deleted);
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &plain, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL);
    MPI_Datatype t, d;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_set_attr(t, key, (void *)(intptr_t)10);
    MPI_Type_set_attr(t, plain, (void *)(intptr_t)99);
    /* a key of communicators is not one of datatypes, nor the other way */
    int e = MPI_Type_set_attr(t, ckey, NULL);
    EXPECT(rank, e == MPI_ERR_KEYVAL, "a communicator key on a type: %d", e);
    e = MPI_Comm_set_attr(MPI_COMM_WORLD, key, NULL);
    EXPECT(rank, e == MPI_ERR_KEYVAL, "a type key on a communicator: %d", e);
    MPI_Type_dup(t, &d);
    void *v = NULL;
    int flag = 0;
    MPI_Type_get_attr(d, key, &v, &flag);
    EXPECT(rank, flag && (intptr_t)v == 11, "copied: %d %ld", flag, (long)(intptr_t)v);
    MPI_Type_get_attr(d, plain, &v, &flag);
    EXPECT(rank, flag && (intptr_t)v == 99, "MPI_TYPE_DUP_FN: %d %ld", flag,
           (long)(intptr_t)v);
    /* the key freed: its attributes still go through its delete callback */
    MPI_Type_free_keyval(&key);
    MPI_Type_free(&t);
    EXPECT(rank, deleted == 10, "deleted %ld", (long)deleted);
    MPI_Type_delete_attr(d, plain);
    MPI_Type_get_attr(d, plain, &v, &flag);
    EXPECT(rank, !flag, "deleted attribute still there");
    MPI_Type_free(&d);
    EXPECT(rank, deleted == 21, "deleted %ld", (long)deleted);
    /* on a predefined type too */
    MPI_Type_set_attr(MPI_INT, plain, (void *)(intptr_t)5);
    MPI_Type_get_attr(MPI_INT, plain, &v, &flag);
    EXPECT(rank, flag && (intptr_t)v == 5, "on MPI_INT: %d", flag);
    MPI_Type_delete_attr(MPI_INT, plain);
    MPI_Type_free_keyval(&plain);
    MPI_Comm_free_keyval(&ckey);
    MPI_Finalize();
}

TEST(datatype_attributes)
{
    run(1, type_attributes, NULL);
}
END_TEST

/* ---- error classes and codes (issue 34 item 6) ---- */

static int first_class[64];

static void
error_codes(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *last = NULL, flag = 0;
    int e = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    EXPECT(rank, e == MPI_SUCCESS && flag && *last >= MPI_ERR_LASTCODE,
           "MPI_LASTUSEDCODE: %d, flag %d", e, flag);
    int cls, code, argcode, c2;
    MPI_Add_error_class(&cls);
    first_class[rank] = cls;
    EXPECT(rank, cls > MPI_ERR_LASTCODE && *last == cls, "class %d, last used %d", cls,
           *last);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_code(MPI_ERR_ARG, &argcode);
    EXPECT(rank, *last == argcode && code != cls && argcode != code,
           "codes %d %d, last %d", code, argcode, *last);
    int out = -1;
    MPI_Error_class(code, &out);
    EXPECT(rank, out == cls, "class of a new code: %d, not %d", out, cls);
    MPI_Error_class(argcode, &out);
    EXPECT(rank, out == MPI_ERR_ARG, "class of a code of MPI_ERR_ARG: %d", out);
    MPI_Error_class(cls, &out);
    EXPECT(rank, out == cls, "a class is its own class: %d", out);
    char str[MPI_MAX_ERROR_STRING] = "x";
    int len = -1;
    MPI_Error_string(cls, str, &len);
    EXPECT(rank, str[0] == 0 && len == 0, "a new class's string: \"%s\"", str);
    MPI_Add_error_string(code, "a code of ours");
    MPI_Error_string(code, str, &len);
    EXPECT(rank, strcmp(str, "a code of ours") == 0, "\"%s\"", str);
    /* a code is not a class; a predefined code takes no string */
    e = MPI_Add_error_code(code, &c2);
    EXPECT(rank, e == MPI_ERR_ARG, "a code of a code: %d", e);
    e = MPI_Add_error_string(MPI_ERR_ARG, "no");
    EXPECT(rank, e == MPI_ERR_ARG, "a string for MPI_ERR_ARG: %d", e);
    e = MPI_Error_class(MPI_ERR_LASTCODE + 1000, &out);
    EXPECT(rank, e == MPI_ERR_ARG, "class of a code never added: %d", e);
    MPI_Finalize();
}

TEST_CASE("errors", 0)

TEST(error_classes_and_codes_are_each_processes_own)
{
    run(2, error_codes, NULL);
    /* each DSP is a process: the same first class on both */
    ck_assert_int_eq(first_class[0], first_class[1]);
    int first = first_class[0];
    run(1, error_codes, NULL); /* and a new run starts again */
    ck_assert_int_eq(first_class[0], first);
}
END_TEST

/* ---- cancelling sends (issue 34 item 7) ---- */

/* DSP 0 sends a (tag 5), then b (tag 5) and cancels b, by the mode of *arg (0
 * standard, 1 synchronous, 2 buffered, 3 persistent); the cancel must hold (DSP 1
 * receives only after a barrier); DSP 1 then receives a's message, then a later one,
 * never b's. Then a send already matched is not cancelled. */
static void
cancel_send(int rank, void *arg)
{
    int mode = *(int *)arg;
    MPI_Init(NULL, NULL);
    int a = 10, b = 20, c = 30, in = 0, flag = -1;
    static char bbuf[2 * (sizeof(int) + MPI_BSEND_OVERHEAD)];
    if (rank == 0) {
        MPI_Request ra, rb;
        MPI_Status st;
        if (mode == 2)
            MPI_Buffer_attach(bbuf, sizeof(int) + MPI_BSEND_OVERHEAD);
        MPI_Isend(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &ra);
        if (mode == 0)
            MPI_Isend(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &rb);
        else if (mode == 1)
            MPI_Issend(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &rb);
        else if (mode == 2)
            MPI_Ibsend(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &rb);
        else {
            MPI_Send_init(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &rb);
            MPI_Start(&rb);
        }
        MPI_Cancel(&rb);
        MPI_Wait(&rb, &st);
        MPI_Test_cancelled(&st, &flag);
        EXPECT(0, flag == 1, "mode %d: the unmatched send was not cancelled", mode);
        if (mode == 3)
            MPI_Request_free(&rb);
        MPI_Barrier(MPI_COMM_WORLD); /* DSP 1 receives only after the cancel */
        if (mode == 2) {
            /* the cancelled message left the buffer: there is room for another */
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            int e = MPI_Bsend(&c, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
            EXPECT(0, e == MPI_SUCCESS, "no room after the cancel: %d", e);
            void *p;
            int n;
            MPI_Buffer_detach(&p, &n);
        } else
            MPI_Send(&c, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Wait(&ra, MPI_STATUS_IGNORE);
        /* matched: the cancel fails and the data arrives */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        MPI_Isend(&b, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &rb);
        MPI_Barrier(MPI_COMM_WORLD); /* DSP 1 has received it by now */
        MPI_Cancel(&rb);
        MPI_Wait(&rb, &st);
        MPI_Test_cancelled(&st, &flag);
        EXPECT(0, flag == 0, "mode %d: a matched send was cancelled", mode);
    } else if (rank == 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT(1, in == 10, "mode %d: first message %d, not 10", mode, in);
        MPI_Recv(&in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT(1, in == 30, "mode %d: second message %d, not 30 (20 was cancelled)", mode,
               in);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Request r;
        MPI_Irecv(&in, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        EXPECT(1, in == 20, "the matched send's data: %d", in);
    }
    MPI_Finalize();
}

TEST_CASE("point-to-point", 0)

TEST(an_unmatched_send_is_cancelled)
{
    for (int mode = 0; mode < 4; mode++) {
        run(2, cancel_send, &mode);
        run_on(2, "abstract", cancel_send, &mode); /* eager: data on the way */
    }
}
END_TEST

/* on the abstract platform nothing costs time: a receive cancelled in the cycle of
 * its post (before the post event) is cancelled still; so is a send before its issue */
static void
cancel_at_once(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    int x = 0, flag = -1;
    MPI_Request r;
    MPI_Status st;
    if (rank == 0) {
        MPI_Irecv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        EXPECT(0, flag == 1, "receive not cancelled");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Send(&rank, 1, MPI_INT, 0, 3, MPI_COMM_WORLD); /* goes to the next receive */
        MPI_Isend(&rank, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        EXPECT(1, flag == 1, "send not cancelled");
    }
    if (rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT(0, x == 1, "x %d", x);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Iprobe(1, 4, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        EXPECT(0, flag == 0, "the cancelled send arrived");
    }
    MPI_Finalize();
}

TEST(cancelled_in_the_cycle_of_the_post)
{
    run_on(2, "abstract", cancel_at_once, NULL);
}
END_TEST

/* ---- nonblocking collectives: operations in progress ---- */

enum {
    NB_BARRIER,
    NB_BCAST,
    NB_GATHER,
    NB_ALLREDUCE,
    NB_ALLTOALL,
    NB_SCAN,
    NB_IDUP,
    NB_N
};
static const char *const nb_names[] = {"Ibarrier",  "Ibcast", "Igather",  "Iallreduce",
                                       "Ialltoall", "Iscan",  "Comm_idup"};

typedef struct NbRun {
    int kind, family;
} NbRun;

/* starts collective kind on comm, with the data of rank (n members) */
static void
nb_start(int kind, int rank, int n, int *in, int *out, MPI_Comm *dup, MPI_Request *r)
{
    for (int i = 0; i < n; i++)
        in[i] = 100 * rank + i, out[i] = -1;
    switch (kind) {
    case NB_BARRIER:
        MPI_Ibarrier(MPI_COMM_WORLD, r);
        break;
    case NB_BCAST:
        out[0] = rank == 1 ? 77 : -1;
        MPI_Ibcast(out, 1, MPI_INT, 1, MPI_COMM_WORLD, r);
        break;
    case NB_GATHER:
        MPI_Igather(in, 1, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD, r);
        break;
    case NB_ALLREDUCE:
        MPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r);
        break;
    case NB_ALLTOALL:
        MPI_Ialltoall(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, r);
        break;
    case NB_SCAN:
        MPI_Iscan(in, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r);
        break;
    default:
        MPI_Comm_idup(MPI_COMM_WORLD, dup, r);
        break;
    }
}

/* what kind left in out, once complete */
static void
nb_check(int kind, int rank, int n, const int *out, MPI_Comm dup)
{
    switch (kind) {
    case NB_BCAST:
        EXPECT(rank, out[0] == 77, "Ibcast: %d", out[0]);
        break;
    case NB_GATHER:
        for (int i = 0; rank == 0 && i < n; i++)
            EXPECT(rank, out[i] == 100 * i, "Igather: [%d] %d", i, out[i]);
        break;
    case NB_ALLREDUCE:
        for (int i = 0; i < n; i++)
            EXPECT(rank, out[i] == 100 * n * (n - 1) / 2 + n * i, "Iallreduce: [%d] %d",
                   i, out[i]);
        break;
    case NB_ALLTOALL:
        for (int i = 0; i < n; i++)
            EXPECT(rank, out[i] == 100 * i + rank, "Ialltoall: [%d] %d", i, out[i]);
        break;
    case NB_SCAN:
        EXPECT(rank, out[0] == 100 * rank * (rank + 1) / 2, "Iscan: %d", out[0]);
        break;
    case NB_IDUP: {
        /* the new communicator works, beside the old one */
        int v = rank, sum = 0, res;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, dup);
        EXPECT(rank, sum == n * (n - 1) / 2, "a collective on the new communicator: %d",
               sum);
        MPI_Comm_compare(dup, MPI_COMM_WORLD, &res);
        EXPECT(rank, res == MPI_CONGRUENT, "Comm_compare: %d", res);
        MPI_Comm_free(&dup);
        break;
    }
    default:
        break;
    }
}

/* As MPICH's comm_idup: DSP 0 waits for a message from every other before it starts
 * the collective, which the others have started before they send: a collective
 * that blocked until all had joined would never let the messages through. */
static void
nb_lets_messages_through(int rank, void *arg)
{
    const NbRun *a = arg;
    MPI_Init(NULL, NULL);
    MPIRIO_Coll_algorithm(a->family);
    int n, in[16], out[16], tok = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Request r;
    if (rank == 0) {
        for (int i = 1; i < n; i++) {
            MPI_Recv(&tok, 1, MPI_INT, i, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            EXPECT(0, tok == i, "token %d from %d", tok, i);
        }
        nb_start(a->kind, rank, n, in, out, &dup, &r);
    } else {
        nb_start(a->kind, rank, n, in, out, &dup, &r);
        MPI_Send(&rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    EXPECT(rank, r == MPI_REQUEST_NULL, "%s: the request is not freed",
           nb_names[a->kind]);
    nb_check(a->kind, rank, n, out, dup);
    MPI_Finalize();
}

TEST_CASE("nonblocking collectives", 120)

TEST(nonblocking_collectives_let_messages_through)
{
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < NB_N; k++) {
            NbRun a = {k, f ? MPIRIO_COLL_MPICH : MPIRIO_COLL_SWITCH};
            for (int n = 2; n <= 9; n += 7) {
                memset(failure, 0, sizeof failure);
                int rc =
                    MPIRIO_Run(n, NULL, MPIRIO_RUN_QUIET, nb_lets_messages_through, &a);
                ck_assert_msg(rc == 0,
                              "%s on %d DSPs, family %d: run status %d (2: deadlock)",
                              nb_names[k], n, f, rc);
                for (int i = 0; i < n; i++)
                    ck_assert_msg(!failure[i][0], "%s on %d DSPs, family %d: DSP %d: %s",
                                  nb_names[k], n, f, i, failure[i]);
            }
        }
}
END_TEST

/* MPI_Test says no until every member has started the collective, and the
 * collective goes on while the DSP computes, without any MPI call of its */
static void
nb_test_and_progress(int rank, void *arg)
{
    const NbRun *a = arg;
    MPI_Init(NULL, NULL);
    MPIRIO_Coll_algorithm(a->family);
    int n, flag = -1, go = 0, x = rank == 0 ? 5 : 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Request r;
    double hz = 1.0 / MPI_Wtick();
    if (rank == 0) {
        MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        EXPECT(0, flag == 0, "complete before DSP 1 started it");
        MPI_Send(&go, 1, MPI_INT, n - 1, 1, MPI_COMM_WORLD);
        /* busy for 10^7 cycles: the bcast reaches the others meanwhile */
        MPIRIO_Compute(10000000);
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        EXPECT(0, flag == 1, "not complete after the others have waited for it");
        EXPECT(0, r == MPI_REQUEST_NULL, "the request is not freed");
    } else {
        if (rank == n - 1)
            MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        EXPECT(rank, x == 5, "bcast: %d", x);
        double t = MPI_Wtime() * hz;
        EXPECT(rank, t < 1000000, "complete at cycle %.0f: DSP 0 computes until 10^7", t);
    }
    MPI_Finalize();
}

TEST(a_nonblocking_collective_progresses_while_the_dsp_computes)
{
    for (int f = 0; f < 2; f++) {
        NbRun a = {NB_BCAST, f ? MPIRIO_COLL_MPICH : MPIRIO_COLL_SWITCH};
        run(4, nb_test_and_progress, &a);
        run(16, nb_test_and_progress, &a);
    }
}
END_TEST

/* several in progress at once on one communicator, completed in another order than
 * they were started, with a blocking collective meanwhile, a communicator and a
 * datatype freed while collectives use them */
static void
nb_several(int rank, void *arg)
{
    const NbRun *a = arg;
    MPI_Init(NULL, NULL);
    MPIRIO_Coll_algorithm(a->family);
    int n, v[4], sum[4], one = 1, all = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm c, d[2];
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Request r[6];
    for (int i = 0; i < 4; i++) {
        v[i] = (i + 1) * (rank + 1);
        MPI_Iallreduce(&v[i], &sum[i], 1, MPI_INT, MPI_SUM, i < 2 ? MPI_COMM_WORLD : c,
                       &r[i]);
    }
    MPI_Comm_idup(c, &d[0], &r[4]);
    MPI_Comm_idup(c, &d[1], &r[5]);
    MPI_Comm_free(&c); /* its collectives in progress go on */
    /* a derived type freed while a collective uses it */
    int vb[6] = {0, 0, 0, 0, 0, 0};
    MPI_Datatype vec;
    MPI_Request rv;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (rank == n - 1)
        for (int i = 0; i < 6; i++)
            vb[i] = 10 + i;
    MPI_Ibcast(vb, 1, vec, n - 1, MPI_COMM_WORLD, &rv);
    MPI_Type_free(&vec);
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(rank, all == n, "a blocking allreduce meanwhile: %d", all);
    for (int i = 5; i >= 0; i--)
        MPI_Wait(&r[i], MPI_STATUS_IGNORE);
    MPI_Wait(&rv, MPI_STATUS_IGNORE);
    for (int i = 0; i < 6; i++)
        EXPECT(rank, vb[i] == (i % 2 == 0 || rank == n - 1 ? 10 + i : 0),
               "Ibcast of a freed vector: [%d] %d", i, vb[i]);
    for (int i = 0; i < 4; i++)
        EXPECT(rank, sum[i] == (i + 1) * n * (n + 1) / 2, "allreduce %d: %d", i, sum[i]);
    /* the two new communicators are two: a message on one is not one on the other */
    int x = -1, y = -1, res;
    MPI_Comm_compare(d[0], d[1], &res);
    EXPECT(rank, res == MPI_CONGRUENT, "compare: %d", res);
    if (rank == 0) {
        int p = 1, q = 2;
        MPI_Request sr[2];
        MPI_Isend(&p, 1, MPI_INT, 1, 0, d[0], &sr[0]);
        MPI_Isend(&q, 1, MPI_INT, 1, 0, d[1], &sr[1]);
        MPI_Waitall(2, sr, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&y, 1, MPI_INT, 0, 0, d[1], MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 0, d[0], MPI_STATUS_IGNORE);
        EXPECT(1, x == 1 && y == 2, "messages crossed communicators: %d %d", x, y);
    }
    MPI_Comm_free(&d[0]);
    MPI_Comm_free(&d[1]);
    MPI_Finalize();
}

TEST(nonblocking_collectives_in_progress_side_by_side)
{
    for (int f = 0; f < 2; f++) {
        NbRun a = {0, f ? MPIRIO_COLL_MPICH : MPIRIO_COLL_SWITCH};
        run(2, nb_several, &a);
        run(7, nb_several, &a);
    }
}
END_TEST

/* an error found at the start is the call's (no request); one found on the way,
 * the Wait's */
static void
nb_errors(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n, buf[4] = {1, 2, 3, 4}, cls = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Request r = (MPI_Request)1;
    int e = MPI_Ibcast(buf, 1, MPI_INT, n, MPI_COMM_WORLD, &r);
    MPI_Error_class(e, &cls);
    EXPECT(rank, cls == MPI_ERR_ROOT, "root out of range: class %d", cls);
    EXPECT(rank, r == MPI_REQUEST_NULL, "a request for a collective that never started");
    /* the root sends 4 ints, the others expect 2 */
    e = MPI_Ibcast(buf, rank == 0 ? 4 : 2, MPI_INT, 0, MPI_COMM_WORLD, &r);
    EXPECT(rank, e == MPI_SUCCESS, "started: %d", e);
    e = MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Error_class(e, &cls);
    if (rank != 0)
        EXPECT(rank, cls == MPI_ERR_TRUNCATE, "a longer message: class %d", cls);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
}

TEST(errors_of_nonblocking_collectives)
{
    run(3, nb_errors, NULL);
}
END_TEST

/* ---- the optional sized types (issue 34 item 8) ---- */

static void
sized_types(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    static const struct {
        MPI_Datatype t;
        int size;
        const char *name;
    } sz[] = {{MPI_REAL4, 4, "REAL4"},         {MPI_REAL8, 8, "REAL8"},
              {MPI_COMPLEX8, 8, "COMPLEX8"},   {MPI_COMPLEX16, 16, "COMPLEX16"},
              {MPI_INTEGER1, 1, "INTEGER1"},   {MPI_INTEGER2, 2, "INTEGER2"},
              {MPI_INTEGER4, 4, "INTEGER4"},   {MPI_INTEGER8, 8, "INTEGER8"},
              {MPI_INTEGER16, 16, "INTEGER16"}};
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++) {
        int n = -1;
        MPI_Type_size(sz[i].t, &n);
        EXPECT(rank, n == sz[i].size, "MPI_%s has size %d, not %d", sz[i].name, n,
               sz[i].size);
    }
    /* reductions and messages of them */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long li = 1LL << 40 | rank, lsum = 0;
    double d = 0.5 * rank, dmax = -1;
    MPI_Allreduce(&li, &lsum, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&d, &dmax, 1, MPI_REAL8, MPI_MAX, MPI_COMM_WORLD);
    EXPECT(rank, lsum == (long long)size * (1LL << 40) + size * (size - 1) / 2,
           "INTEGER8 sum %lld", lsum);
    EXPECT(rank, dmax == 0.5 * (size - 1), "REAL8 max %g", dmax);
    double z[2] = {rank + 0.25, -1.0 * rank}, w[2] = {0, 0};
    int peer = rank ^ 1;
    MPI_Sendrecv(z, 1, MPI_COMPLEX16, peer, 0, w, 1, MPI_COMPLEX16, peer, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(rank, w[0] == peer + 0.25 && w[1] == -1.0 * peer, "COMPLEX16 %g %g", w[0],
           w[1]);
    /* MPI_Type_match_size finds a type of the size asked */
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int n = -1;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t);
    MPI_Type_size(t, &n);
    EXPECT(rank, n == 8, "match_size(INTEGER, 8): size %d", n);
    MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t);
    MPI_Type_size(t, &n);
    EXPECT(rank, n == 16, "match_size(COMPLEX, 16): size %d", n);
    MPI_Finalize();
}

TEST_CASE("datatypes", 120)

TEST(the_sized_types)
{
    run(2, sized_types, NULL);
    run(4, sized_types, NULL);
}
END_TEST

/* ---- topologies ---- */

/* the graph of MPI-1: a ring of 5 nodes on 6 DSPs, node i joined to i - 1 and i + 1,
 * node 0 also to itself (MPI 2.1 allows self edges) */
static void
graph_ring(int rank, void *arg)
{
    (void)arg;
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int index[5], edges[11], k = 0;
    for (int i = 0; i < 5; i++) {
        if (i == 0)
            edges[k++] = 0;
        edges[k++] = (i + 4) % 5;
        edges[k++] = (i + 1) % 5;
        index[i] = k;
    }
    MPI_Comm g, d;
    int e = MPI_Graph_create(MPI_COMM_WORLD, 5, index, edges, 0, &g);
    EXPECT(rank, e == MPI_SUCCESS, "Graph_create: %d", e);
    if (rank == 5) {
        EXPECT(5, g == MPI_COMM_NULL, "a DSP beyond the nodes has a communicator");
    } else {
        int t = -1, nn = -1, ne = -1, cnt = -1, nb[4], ix[5], ed[11], r = -1;
        MPI_Topo_test(g, &t);
        EXPECT(rank, t == MPI_GRAPH, "Topo_test: %d", t);
        MPI_Graphdims_get(g, &nn, &ne);
        EXPECT(rank, nn == 5 && ne == 11, "Graphdims_get: %d %d", nn, ne);
        MPI_Graph_get(g, 5, 11, ix, ed);
        EXPECT(rank, !memcmp(ix, index, sizeof ix) && !memcmp(ed, edges, sizeof ed),
               "Graph_get gives another graph");
        MPI_Graph_neighbors_count(g, rank, &cnt);
        EXPECT(rank, cnt == (rank == 0 ? 3 : 2), "Graph_neighbors_count: %d", cnt);
        MPI_Graph_neighbors(g, rank, 4, nb);
        EXPECT(rank, nb[cnt - 2] == (rank + 4) % 5 && nb[cnt - 1] == (rank + 1) % 5,
               "Graph_neighbors: %d %d", nb[cnt - 2], nb[cnt - 1]);
        e = MPI_Graph_neighbors_count(g, 5, &cnt);
        EXPECT(rank, e != MPI_SUCCESS, "the neighbours of node 5 of 5");
        /* the neighbourhood collective sends to each neighbour, receives from each */
        int out[3] = {-1, -1, -1};
        MPI_Neighbor_allgather(&rank, 1, MPI_INT, out, 1, MPI_INT, g);
        for (int i = 0; i < cnt; i++)
            EXPECT(rank, out[i] == nb[i], "Neighbor_allgather [%d]: %d, not %d", i,
                   out[i], nb[i]);
        /* a duplicate has the topology */
        MPI_Comm_dup(g, &d);
        MPI_Graphdims_get(d, &nn, &ne);
        MPI_Graph_neighbors_count(d, rank, &cnt);
        EXPECT(rank, nn == 5 && ne == 11 && cnt == (rank == 0 ? 3 : 2),
               "the duplicate's graph: %d %d %d", nn, ne, cnt);
        MPI_Comm_free(&d);
        MPI_Comm_free(&g);
        MPI_Graph_map(MPI_COMM_WORLD, 5, index, edges, &r);
        EXPECT(rank, r == rank, "Graph_map: %d", r);
    }
    int r = 0;
    MPI_Graph_map(MPI_COMM_WORLD, 5, index, edges, &r);
    if (rank == 5)
        EXPECT(5, r == MPI_UNDEFINED, "Graph_map beyond the nodes: %d", r);
    /* no nodes: nobody gets a communicator (MPI 2.1); an edge to no node: an error */
    MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &g);
    EXPECT(rank, g == MPI_COMM_NULL, "an empty graph has a communicator");
    edges[3] = 5;
    e = MPI_Graph_create(MPI_COMM_WORLD, 5, index, edges, 0, &g);
    int cls = -1;
    MPI_Error_class(e, &cls);
    EXPECT(rank, cls == MPI_ERR_ARG, "an edge to node 5 of 5: class %d", cls);
    e = MPI_Graphdims_get(MPI_COMM_WORLD, &k, &k);
    MPI_Error_class(e, &cls);
    EXPECT(rank, cls == MPI_ERR_TOPOLOGY, "Graphdims_get without a graph: class %d", cls);
    MPI_Finalize();
}

TEST_CASE("topologies and info", 60)

TEST(graph_topology)
{
    run(6, graph_ring, NULL);
}
END_TEST

/* MPI_Dist_graph_create: every DSP gives the edge from itself to the next (weight
 * 10 + its rank); DSP 0 gives also those from every DSP to DSP 0 (weight 100 + the
 * source), some of which are self edges or duplicates of the first kind */
static void
dist_graph(int rank, void *arg)
{
    const int *weighted = arg;
    MPI_Init(NULL, NULL);
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int src[64], deg[64], dst[128], w[128], m = 0, k = 0;
    src[m] = rank, deg[m++] = 1, dst[k] = (rank + 1) % n, w[k++] = 10 + rank;
    if (rank == 0)
        for (int i = 0; i < n; i++)
            src[m] = i, deg[m++] = 1, dst[k] = 0, w[k++] = 100 + i;
    MPI_Comm g, d;
    MPI_Dist_graph_create(MPI_COMM_WORLD, m, src, deg, dst,
                          *weighted ? w : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    for (int pass = 0; pass < 2; pass++) {
        MPI_Comm c = g;
        if (pass)
            MPI_Comm_dup(g, &d), c = d;
        int nin = -1, nout = -1, wt = -1, t = -1;
        MPI_Topo_test(c, &t);
        EXPECT(rank, t == MPI_DIST_GRAPH, "Topo_test: %d", t);
        MPI_Dist_graph_neighbors_count(c, &nin, &nout, &wt);
        /* in: from rank - 1 (weight 10 + rank - 1) and, at DSP 0, from every DSP */
        int ein = rank == 0 ? 1 + n : 1, eout = 2;
        EXPECT(rank, nin == ein && nout == eout && wt == *weighted,
               "pass %d: neighbours_count %d %d %d, not %d %d %d", pass, nin, nout, wt,
               ein, eout, *weighted);
        int ins[70], inw[70], outs[4], outw[4];
        MPI_Dist_graph_neighbors(c, 70, ins, inw, 4, outs, outw);
        /* in the order of the DSPs that gave the edges: DSP 0's first */
        int p = (rank + n - 1) % n, j = 0;
        if (rank == 0) {
            for (int i = 0; i < n; i++, j++)
                EXPECT(0, ins[j] == i && (!*weighted || inw[j] == 100 + i),
                       "in [%d]: %d (weight %d)", j, ins[j], inw[j]);
        }
        EXPECT(rank, ins[j] == p && (!*weighted || inw[j] == 10 + p), "in [%d]: %d (%d)",
               j, ins[j], inw[j]);
        /* out, in the order of the DSPs that gave the edges: DSP 0 gave its edge to
         * the next before those to itself; another DSP's edge to 0 came from DSP 0 */
        int o0 = rank ? 0 : 1 % n, o1 = rank ? (rank + 1) % n : 0;
        EXPECT(rank, outs[0] == o0 && outs[1] == o1, "outs %d %d, not %d %d", outs[0],
               outs[1], o0, o1);
        if (*weighted)
            EXPECT(rank,
                   outw[0] == (rank ? 100 + rank : 10) &&
                       outw[1] == (rank ? 10 + rank : 100),
                   "out weights %d %d", outw[0], outw[1]);
        /* a message along each edge: block k to out-neighbour k, block i from
         * in-neighbour i, the edges between two DSPs matched in their order */
        int got[70], mine[2] = {1000 + rank, 2000 + rank};
        MPI_Neighbor_alltoall(mine, 1, MPI_INT, got, 1, MPI_INT, c);
        for (int i = 0; i < nin; i++) {
            int from = ins[i], to_zero = rank == 0 && i < n; /* given by DSP 0 */
            int want =
                to_zero ? (from ? 1000 + from : 2000) : (from ? 2000 + from : 1000);
            EXPECT(rank, got[i] == want, "pass %d: block %d from %d: %d, not %d", pass, i,
                   from, got[i], want);
        }
    }
    MPI_Comm_free(&d);
    MPI_Comm_free(&g);
    MPI_Finalize();
}

TEST(dist_graph_create)
{
    for (int wt = 0; wt < 2; wt++) {
        run(2, dist_graph, &wt);
        run(5, dist_graph, &wt);
    }
}
END_TEST

/* MPI_Dims_create: the most balanced factorization, ties as MPICH's (the cases of
 * MPICH's topo/baddims.h where the first choice is not the greedy one) */
TEST(dims_create_is_balanced)
{
    static const int want[][7] = {
        /* nnodes, ndims, the dims */
        {72, 2, 9, 8},
        {5616, 4, 13, 9, 8, 6},
        {590520, 4, 38, 37, 21, 20},
        {98784, 5, 14, 14, 9, 8, 7},
        {16, 3, 4, 2, 2},
        {1, 3, 1, 1, 1},
        {7, 2, 7, 1},
    };
    for (size_t c = 0; c < sizeof want / sizeof want[0]; c++) {
        int dims[5] = {0, 0, 0, 0, 0};
        ck_assert_int_eq(MPI_Dims_create(want[c][0], want[c][1], dims), MPI_SUCCESS);
        for (int i = 0; i < want[c][1]; i++)
            ck_assert_msg(dims[i] == want[c][2 + i], "%d in %d: dims[%d] = %d, not %d",
                          want[c][0], want[c][1], i, dims[i], want[c][2 + i]);
    }
    /* a given dimension stays; the others share the rest */
    int dims[3] = {0, 3, 0};
    ck_assert_int_eq(MPI_Dims_create(72, 3, dims), MPI_SUCCESS);
    ck_assert_msg(dims[0] == 6 && dims[1] == 3 && dims[2] == 4, "%d %d %d", dims[0],
                  dims[1], dims[2]);
    int bad[2] = {5, 0};
    ck_assert_int_ne(MPI_Dims_create(72, 2, bad), MPI_SUCCESS);
}
END_TEST

/* info objects: MPI 4.0's get_string and create_env, and their use after Finalize */
static void
info_calls(int rank, void *arg)
{
    (void)arg;
    MPI_Info in;
    MPI_Info_create(&in); /* before MPI_Init */
    MPI_Info_set(in, "k", "value");
    MPI_Init(NULL, NULL);
    char v[8];
    int len = 3, flag = -1;
    MPI_Info_get_string(in, "k", &len, v, &flag);
    EXPECT(rank, flag == 1 && len == 6 && !strcmp(v, "va"), "get_string: %d %d \"%s\"",
           flag, len, v);
    len = 8;
    MPI_Info_get_string(in, "none", &len, v, &flag);
    EXPECT(rank, flag == 0 && len == 8, "get_string of no key: %d %d", flag, len);
    char *argv[] = {"prog", "-a", "b", NULL};
    MPI_Info env;
    MPI_Info_create_env(3, argv, &env);
    char big[MPI_MAX_INFO_VAL];
    len = sizeof big;
    MPI_Info_get_string(env, "command", &len, big, &flag);
    EXPECT(rank, flag && !strcmp(big, "prog"), "command: %.40s", big);
    len = sizeof big;
    MPI_Info_get_string(env, "argv", &len, big, &flag);
    EXPECT(rank, flag && !strcmp(big, "-a b"), "argv: %.40s", big);
    len = sizeof big;
    MPI_Info_get_string(env, "maxprocs", &len, big, &flag);
    EXPECT(rank, flag && !strcmp(big, "3"), "maxprocs: %.40s", big);
    MPI_Info_free(&env);
    MPI_Finalize();
    int e = MPI_Info_set(in, "k2", "after"); /* after MPI_Finalize */
    EXPECT(rank, e == MPI_SUCCESS, "Info_set after Finalize: %d", e);
    e = MPI_Info_free(&in);
    EXPECT(rank, e == MPI_SUCCESS && in == MPI_INFO_NULL, "Info_free after Finalize: %d",
           e);
}

TEST(info_objects)
{
    run(3, info_calls, NULL);
}
END_TEST
/* ---- sessions (MPI 4.0) ---- */

static int session_calls[64], session_last_code[64];
static MPI_Session session_seen[64];

static void
count_session_error(MPI_Session *session, int *code, ...)
{
    int r = 0;
    MPIRIO_Current(&r, NULL);
    session_calls[r]++;
    session_last_code[r] = *code;
    session_seen[r] = *session;
}

/* on 4 DSPs without MPI_Init: a session, its process sets, a communicator of every
 * DSP and two of halves side by side from groups, the session's error handler; then
 * a second session beside the world model, and none after MPI_Finalize */
static void
session_calls_fn(int rank, void *arg)
{
    (void)arg;
    session_calls[rank] = 0;
    MPI_Errhandler eh;
    int e = MPI_Session_create_errhandler(count_session_error, &eh); /* before any init */
    EXPECT(rank, e == MPI_SUCCESS, "Session_create_errhandler before init: %d", e);
    MPI_Info in;
    MPI_Info_create(&in);
    MPI_Info_set(in, "thread_level", "MPI_THREAD_MULTIPLE");
    MPI_Session ses = MPI_SESSION_NULL;
    e = MPI_Session_init(in, eh, &ses);
    MPI_Info_free(&in);
    EXPECT(rank, e == MPI_SUCCESS && ses != MPI_SESSION_NULL, "Session_init: %d", e);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Info got;
    char v[64] = "";
    int flag = 0, n = -1, len = 0;
    MPI_Session_get_info(ses, &got);
    MPI_Info_get(got, "thread_level", (int)sizeof v - 1, v, &flag);
    MPI_Info_free(&got);
    EXPECT(rank, flag && !strcmp(v, "MPI_THREAD_FUNNELED"), "thread_level: %s", v);
    MPI_Session_get_num_psets(ses, MPI_INFO_NULL, &n);
    EXPECT(rank, n == 2, "%d process sets", n);
    MPI_Session_get_nth_pset(ses, MPI_INFO_NULL, 1, &len, NULL);
    EXPECT(rank, len == 11, "length of the name of set 1: %d", len);
    char name[MPI_MAX_PSET_NAME_LEN];
    len = 6;
    MPI_Session_get_nth_pset(ses, MPI_INFO_NULL, 0, &len, name);
    EXPECT(rank, len == 12 && !strcmp(name, "mpi:/"), "set 0 in 6 chars: %s %d", name,
           len);
    len = sizeof name;
    MPI_Session_get_nth_pset(ses, MPI_INFO_NULL, 0, &len, name);
    EXPECT(rank, !strcmp(name, "mpi://WORLD"), "set 0: %s", name);
    MPI_Session_get_pset_info(ses, "mpi://WORLD", &got);
    MPI_Info_get(got, "mpi_size", (int)sizeof v - 1, v, &flag);
    MPI_Info_free(&got);
    EXPECT(rank, flag && !strcmp(v, "4"), "mpi_size of WORLD: %s", v);
    MPI_Session_get_pset_info(ses, "mpi://self", &got); /* any case */
    MPI_Info_get(got, "mpi_size", (int)sizeof v - 1, v, &flag);
    MPI_Info_free(&got);
    EXPECT(rank, flag && !strcmp(v, "1"), "mpi_size of SELF: %s", v);
    /* a communicator of every DSP, one of each half (side by side, each its tag) */
    MPI_Group world, half;
    MPI_Group_from_session_pset(ses, "mpi://WORLD", &world);
    int gs = -1, gr = -1;
    MPI_Group_size(world, &gs);
    MPI_Group_rank(world, &gr);
    EXPECT(rank, gs == 4 && gr == rank, "the group of WORLD: size %d, rank %d", gs, gr);
    MPI_Comm all, mine;
    e = MPI_Comm_create_from_group(world, "tgc.all", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                   &all);
    EXPECT(rank, e == MPI_SUCCESS && all != MPI_COMM_NULL, "Comm_create_from_group: %d",
           e);
    int sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, all);
    EXPECT(rank, sum == 6, "the sum of the ranks: %d", sum);
    int ranks[2] = {rank % 2, rank % 2 + 2};
    MPI_Group_incl(world, 2, ranks, &half);
    MPI_Comm_create_from_group(half, rank % 2 ? "tgc.odd" : "tgc.even", MPI_INFO_NULL,
                               MPI_ERRORS_RETURN, &mine);
    sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, mine);
    EXPECT(rank, sum == (rank % 2 ? 4 : 2), "the sum in my half: %d", sum);
    MPI_Comm_size(mine, &n);
    EXPECT(rank, n == 2, "my half has %d", n);
    /* a session's handler is for sessions, not communicators */
    e = MPI_Comm_set_errhandler(all, eh);
    EXPECT(rank, e == MPI_ERR_ARG, "a session's handler on a communicator: %d", e);
    MPI_Comm_free(&mine);
    MPI_Comm_free(&all);
    MPI_Group_free(&half);
    MPI_Group_free(&world);
    /* the session's handler: called, and on the session's errors */
    MPI_Session_call_errhandler(ses, MPI_ERR_OTHER);
    EXPECT(rank,
           session_calls[rank] == 1 && session_last_code[rank] == MPI_ERR_OTHER &&
               session_seen[rank] == ses,
           "call_errhandler: %d calls, code %d", session_calls[rank],
           session_last_code[rank]);
    len = 0;
    e = MPI_Session_get_nth_pset(ses, MPI_INFO_NULL, 2, &len, NULL);
    EXPECT(rank, e == MPI_ERR_ARG && session_calls[rank] == 2, "set 2 of 2: %d, %d calls",
           e, session_calls[rank]);
    MPI_Session_set_errhandler(ses, MPI_ERRORS_RETURN);
    MPI_Group g = MPI_GROUP_NULL;
    e = MPI_Group_from_session_pset(ses, "mpi://NOTHING", &g);
    EXPECT(rank, e == MPI_ERR_ARG && session_calls[rank] == 2, "no such set: %d", e);
    e = MPI_Session_get_num_psets(ses + 100, MPI_INFO_NULL, &n);
    EXPECT(rank, e == MPI_ERR_SESSION, "no such session: %d", e);
    MPI_Errhandler_free(&eh);
    e = MPI_Session_finalize(&ses);
    EXPECT(rank, e == MPI_SUCCESS && ses == MPI_SESSION_NULL, "Session_finalize: %d", e);
    /* a second session beside the world model */
    MPI_Init(NULL, NULL);
    e = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &ses);
    EXPECT(rank, e == MPI_SUCCESS, "a second Session_init: %d", e);
    MPI_Group_from_session_pset(ses, "mpi://SELF", &g);
    MPI_Comm self;
    MPI_Comm_create_from_group(g, "tgc.self", MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &self);
    MPI_Comm_size(self, &n);
    EXPECT(rank, n == 1, "the communicator of SELF has %d", n);
    MPI_Comm_free(&self);
    MPI_Group_free(&g);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Session_finalize(&ses);
    MPI_Finalize();
    e = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &ses);
    EXPECT(rank, e == MPI_ERR_OTHER && ses == MPI_SESSION_NULL,
           "Session_init after MPI_Finalize: %d", e);
}

TEST_CASE("sessions", 0)

TEST(sessions_make_communicators_from_groups)
{
    run(4, session_calls_fn, NULL);
}
END_TEST
