/* mpi_misuse.c: programs MPI implementations refuse, for mpirio-run to report
 * (tests/runtime/CMakeLists.txt, mpirio_mpi_*): argv[1] picks the case.
 *   nofinalize     every DSP returns from main without MPI_Finalize
 *   noinit         every DSP returns from main without MPI_Init (as a test that
 *                  skips itself): no report, exit status 0
 *   beforeinit     every DSP calls MPI_Comm_rank before MPI_Init
 *   afterfinalize  DSP 2 calls MPI_Barrier after MPI_Finalize
 *   segv           DSP 2 writes through a null pointer after an MPI_Barrier
 *   abort          DSP 2 calls abort() (a failed assert) after an MPI_Barrier
 *   bigcount       DSP 0 sends 2 GiB + 16 bytes to DSP 1, which checks the counts
 *   polldeadlock   each DSP polls (MPI_Test, MPI_Iprobe) for a message nobody sends
 *   mismatch       collectives whose members disagree on the counts: MPI_ERR_TRUNCATE
 *                  where a member's data is sized by another's counts (prints
 *                  "mismatch ok" when every case holds)
 *   requests       waits, tests and frees of requests that completed, were freed or
 *                  never were, and negative counts: MPI_ERR_REQUEST, MPI_ERR_COUNT, no
 *                  use of freed memory (prints "requests ok")
 *   errhandler     the communicators made from one with MPI_ERRORS_RETURN have it too:
 *                  a bad call on them returns (prints "errhandler ok")
 *   commdup [-v]   MPI_Comm_dup in a loop, 100000 copies, costs the same per copy
 *                  (CPU time of the first and the last 10000), and the lowest handle
 *                  freed is the next one given (prints "commdup ok";
 *                  -v: the time of every 10000 on stderr)
 *   ok             a correct program (prints "ok") */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int
bigcount(int rank)
{
    const long long bytes = (1LL << 31) + 16;
    const int n = (int)(bytes / 8);
    double *buf = malloc((size_t)bytes);
    if (!buf)
        return 3;
    int bad = 0;
    if (rank == 0) {
        for (int i = 0; i < n; i += 4096)
            buf[i] = i;
        buf[n - 1] = -1.0;
        MPI_Send(buf, n, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Status st;
        memset(buf, 0, 8);
        MPI_Recv(buf, n, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &st);
        int count = 0, bcount = 0;
        MPI_Count elems = 0;
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        MPI_Get_count(&st, MPI_BYTE, &bcount);
        MPI_Get_elements_x(&st, MPI_BYTE, &elems);
        printf("doubles %d bytes %s elements %lld last %g\n", count,
               bcount == MPI_UNDEFINED ? "MPI_UNDEFINED" : "wrong", (long long)elems,
               buf[n - 1]);
        bad = count != n || bcount != MPI_UNDEFINED || elems != bytes ||
              buf[n - 1] != -1.0 || buf[4096] != 4096.0;
    }
    free(buf);
    return bad;
}

/* the class of an MPI error code */
static int
cls(int e)
{
    int c = e;
    if (e)
        MPI_Error_class(e, &c);
    return c;
}

enum { BCAST, SCATTER, GATHER, REDUCE, ALLREDUCE, ALLGATHER, NKINDS };
static const char *const kind_name[] = {"bcast",  "scatter",   "gather",
                                        "reduce", "allreduce", "allgather"};

/* one collective of kind k in which the member `odd` has count n_odd, the others n;
 * root 0; MPI_ERRORS_RETURN on the communicator */
static int
one(int k, int rank, int size, int odd, int n, int n_odd)
{
    int c = rank == odd ? n_odd : n, big = 64 * size;
    int *a = calloc((size_t)big, sizeof *a), *b = calloc((size_t)big, sizeof *b);
    for (int i = 0; i < big; i++)
        a[i] = rank * 1000 + i;
    int e = 0;
    switch (k) {
    case BCAST:
        e = MPI_Bcast(a, c, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case SCATTER:
        e = MPI_Scatter(a, c, MPI_INT, b, c, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case GATHER:
        e = MPI_Gather(a, c, MPI_INT, b, c, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case REDUCE:
        e = MPI_Reduce(a, b, c, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        e = MPI_Allreduce(a, b, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        e = MPI_Allgather(a, c, MPI_INT, b, c, MPI_INT, MPI_COMM_WORLD);
        break;
    }
    free(a);
    free(b);
    return cls(e);
}

/* Every collective with one member's count smaller and larger than the others', the
 * odd member a receiver (the last rank) and the root: the members whose data comes
 * sized by other counts than their own get MPI_ERR_TRUNCATE (the odd receiver; all
 * the others when the root is odd; the root of a gather or reduce), nobody another
 * error, and the run goes on (no deadlock, no false success). */
static int
mismatch(int rank, int size)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad = 0;
    for (int k = 0; k < NKINDS; k++)
        for (int odd_root = 0; odd_root < 2; odd_root++)
            for (int larger = 0; larger < 2; larger++) {
                int odd = odd_root ? 0 : size - 1, n = 8, n_odd = larger ? 12 : 4;
                int e = one(k, rank, size, odd, n, n_odd);
                int rooted = k <= REDUCE;
                /* must this member see the error? */
                int must = !rooted                      ? rank == odd
                           : k == GATHER || k == REDUCE ? rank == 0
                           : odd_root                   ? rank != 0
                                                        : rank == odd;
                int wrong = (e != MPI_SUCCESS && e != MPI_ERR_TRUNCATE) ||
                            (must && e != MPI_ERR_TRUNCATE);
                int all_wrong = 0;
                MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                if (wrong)
                    printf(
                        "DSP %d: %s, odd %s with %d ints (others %d): error class %d\n",
                        rank, kind_name[k], odd_root ? "root" : "receiver", n_odd, n, e);
                bad |= all_wrong != 0;
            }
    if (rank == 0 && !bad)
        printf("mismatch ok\n");
    return bad;
}

/* a check of the case "requests": the error class of e is want */
static int
expect(int rank, const char *what, int e, int want)
{
    if (cls(e) == want)
        return 0;
    printf("DSP %d: %s: error class %d, want %d\n", rank, what, cls(e), want);
    return 1;
}

/* Between pairs of DSPs: a request completed by MPI_Wait (freed), one freed by
 * MPI_Request_free, one whose place a new request took, and values that never were a
 * request; each must be refused with MPI_ERR_REQUEST by every call that takes one,
 * and a negative count of requests with MPI_ERR_COUNT; the new request still works. */
static int
requests(int rank, int size)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = rank ^ 1, x = rank, y = -1, bad = 0, flag = 0, idx = 0, out = 0;
    int ind[2];
    MPI_Status st;
    MPI_Request r, stale, freed, junk = (MPI_Request)(uintptr_t)0x12345678, arr[2];
    if (peer >= size)
        return 0;
    MPI_Irecv(&y, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r);
    MPI_Send(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
    stale = r;
    bad |= expect(rank, "first wait", MPI_Wait(&r, &st), MPI_SUCCESS);
    bad |= y != peer;
    /* a new request may take the freed one's place: the stale handle is still refused */
    MPI_Irecv(&y, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r);
    MPI_Request copy = stale;
    bad |= expect(rank, "wait on a completed request", MPI_Wait(&copy, &st),
                  MPI_ERR_REQUEST);
    copy = stale;
    bad |= expect(rank, "test on a completed request", MPI_Test(&copy, &flag, &st),
                  MPI_ERR_REQUEST);
    bad |= expect(rank, "free of a completed request", MPI_Request_free(&copy),
                  MPI_ERR_REQUEST);
    bad |=
        expect(rank, "cancel of a completed request", MPI_Cancel(&copy), MPI_ERR_REQUEST);
    bad |= expect(rank, "status of a completed request",
                  MPI_Request_get_status(stale, &flag, &st), MPI_ERR_REQUEST);
    bad |=
        expect(rank, "start of a completed request", MPI_Start(&copy), MPI_ERR_REQUEST);
    arr[0] = r, arr[1] = stale;
    bad |= expect(rank, "waitall with a completed request",
                  MPI_Waitall(2, arr, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    bad |= expect(rank, "waitany with a completed request",
                  MPI_Waitany(2, arr, &idx, &st), MPI_ERR_REQUEST);
    bad |= expect(rank, "waitsome with a completed request",
                  MPI_Waitsome(2, arr, &out, ind, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    bad |= expect(rank, "testall with a completed request",
                  MPI_Testall(2, arr, &flag, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    bad |= expect(rank, "testany with a completed request",
                  MPI_Testany(2, arr, &idx, &flag, &st), MPI_ERR_REQUEST);
    bad |= expect(rank, "testsome with a completed request",
                  MPI_Testsome(2, arr, &out, ind, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
    copy = junk;
    bad |= expect(rank, "wait on a value that never was a request", MPI_Wait(&copy, &st),
                  MPI_ERR_REQUEST);
    bad |= expect(rank, "waitall of -1", MPI_Waitall(-1, arr, MPI_STATUSES_IGNORE),
                  MPI_ERR_COUNT);
    bad |= expect(rank, "waitsome of -1",
                  MPI_Waitsome(-1, arr, &out, ind, MPI_STATUSES_IGNORE), MPI_ERR_COUNT);
    bad |= expect(rank, "testall of -1", MPI_Testall(-1, arr, &flag, MPI_STATUSES_IGNORE),
                  MPI_ERR_COUNT);
    bad |= expect(rank, "waitany of -1", MPI_Waitany(-1, arr, &idx, &st), MPI_ERR_COUNT);
    /* a request freed by the program while active */
    MPI_Isend(&x, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &freed);
    copy = freed;
    bad |= expect(rank, "free of an active send", MPI_Request_free(&freed), MPI_SUCCESS);
    bad |= expect(rank, "wait on a freed request", MPI_Wait(&copy, &st), MPI_ERR_REQUEST);
    /* the new request is still whole */
    MPI_Send(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
    bad |= expect(rank, "the new request", MPI_Wait(&r, &st), MPI_SUCCESS);
    bad |= r != MPI_REQUEST_NULL || y != peer || st.MPI_TAG != 2;
    int z = -1;
    MPI_Recv(&z, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &st);
    bad |= z != peer;
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !all)
        printf("requests ok\n");
    return bad;
}

/* the error handler of c is MPI_ERRORS_RETURN, and an invalid rank on it returns */
static int
returns(int rank, const char *how, MPI_Comm c)
{
    if (c == MPI_COMM_NULL)
        return 0;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(c, &eh);
    int x = 0, e = MPI_Send(&x, 1, MPI_INT, 1 << 20, 0, c);
    int bad = eh != MPI_ERRORS_RETURN || cls(e) != MPI_ERR_RANK;
    if (bad)
        printf("DSP %d: %s: error handler %d, a send to rank 2^20 gave class %d\n", rank,
               how, (int)eh, cls(e));
    MPI_Comm_free(&c);
    return bad;
}

/* Every call that makes a communicator gives it its parent's error handler (MPI 3.1
 * section 8.3): with MPI_ERRORS_RETURN on the parent a bad call on the child returns
 * its error instead of ending the run. 4 DSPs or more. */
static int
errhandler(int rank, int size)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm c, d;
    MPI_Group wg, g;
    int bad = 0;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    bad |= returns(rank, "MPI_Comm_split", c);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &c);
    bad |= returns(rank, "MPI_Comm_split_type", c);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    bad |= returns(rank, "MPI_Comm_dup", c);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int two[2] = {0, 1};
    MPI_Group_incl(wg, 2, two, &g);
    MPI_Comm_create(MPI_COMM_WORLD, g, &c);
    bad |= returns(rank, "MPI_Comm_create", c);
    c = MPI_COMM_NULL;
    if (rank < 2)
        MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &c);
    bad |= returns(rank, "MPI_Comm_create_group", c);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    int dims[2] = {2, size / 2}, periods[2] = {0, 1}, remain[2] = {1, 0};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
    if (c != MPI_COMM_NULL) {
        MPI_Cart_sub(c, remain, &d);
        bad |= returns(rank, "MPI_Cart_sub", d);
    }
    bad |= returns(rank, "MPI_Cart_create", c);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int w = 1;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, &w, 1, &next, &w,
                                   MPI_INFO_NULL, 0, &c);
    bad |= returns(rank, "MPI_Dist_graph_create_adjacent", c);
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter);
    MPI_Intercomm_merge(inter, rank % 2, &c);
    bad |= returns(rank, "MPI_Intercomm_merge", c);
    bad |= returns(rank, "MPI_Intercomm_create", inter);
    MPI_Comm_free(&half);
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !all)
        printf("errhandler ok\n");
    return bad;
}

/* MPI_Comm_dup in a loop, 100000 copies (issue 37, 6): the last 10000 cost at most
 * three times the CPU time of the first 10000. The table of communicators was searched
 * from its start at every copy: 40000 copies took 61 s, the last 10000 15 times the
 * first, and 100000 several minutes (the test's timeout ends that). A ratio of CPU
 * times in one run, so the machine's load does not decide it; the figures go to
 * stderr when asked (commdup -v). */
static int
commdup(int rank, int verbose)
{
    enum { BLOCK = 10000, BLOCKS = 10 };
    double t[BLOCKS];
    MPI_Comm c;
    for (int b = 0; b < BLOCKS; b++) {
        clock_t t0 = clock();
        for (int i = 0; i < BLOCK; i++)
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Barrier(MPI_COMM_WORLD);
        t[b] = (double)(clock() - t0) / CLOCKS_PER_SEC;
    }
    int bad = t[BLOCKS - 1] > 3 * t[0] + 0.05;
    /* the lowest handle freed is the next one given, as MPICH does (its tests
     * datatype/indexed_misc and others count on it) */
    MPI_Comm lo = c - 3000, hi = c - 2000, x, y;
    MPI_Comm_free(&hi);
    MPI_Comm_free(&lo);
    MPI_Comm_dup(MPI_COMM_WORLD, &x);
    MPI_Comm_dup(MPI_COMM_WORLD, &y);
    if (x != c - 3000 || y != c - 2000) {
        printf("commdup: freed %d and %d, then given %d and %d\n", c - 3000, c - 2000, x,
               y);
        bad = 1;
    }
    if (rank == 0 && (bad || verbose))
        for (int b = 0; b < BLOCKS; b++)
            fprintf(stderr, "commdup: copies %d to %d: %.3f s of CPU\n", b * BLOCK,
                    (b + 1) * BLOCK - 1, t[b]);
    if (rank == 0 && !bad)
        printf("commdup ok\n");
    return bad;
}

int
main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "ok";
    int rank = -1;
    if (strcmp(what, "noinit") == 0) {
        printf("skipped\n");
        return 0;
    }
    if (strcmp(what, "beforeinit") == 0)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* the first DSP to run ends the run */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (strcmp(what, "nofinalize") == 0)
        return 0;
    if (strcmp(what, "segv") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 2) {
            volatile int *p = NULL;
            *p = 1;
        }
    }
    if (strcmp(what, "abort") == 0) { /* a failed assert */
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 2)
            abort();
    }
    if (strcmp(what, "polldeadlock") == 0) {
        int x = 0, flag = 0;
        if (rank % 2 == 0) {
            MPI_Request r;
            MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r);
            while (!flag)
                MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        } else
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    int rc = 0;
    if (strcmp(what, "bigcount") == 0)
        rc = bigcount(rank);
    if (strcmp(what, "errhandler") == 0) {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        rc = errhandler(rank, size);
    }
    if (strcmp(what, "commdup") == 0)
        rc = commdup(rank, argc > 2 && strcmp(argv[2], "-v") == 0);
    if (strcmp(what, "requests") == 0) {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        rc = requests(rank, size);
    }
    if (strcmp(what, "mismatch") == 0) {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        rc = mismatch(rank, size);
    }
    MPI_Finalize();
    if (strcmp(what, "afterfinalize") == 0 && rank == 2)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && strcmp(what, "ok") == 0)
        printf("ok\n");
    return rc;
}
