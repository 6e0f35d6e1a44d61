/* mpi_nbc.c: the nonblocking collectives of the MPI names. Each is the blocking one of
 * mpi_coll.c as an operation in progress (nbc_start, mpi_comm.c), which goes on
 * whatever the caller does, in both families with MPICH's algorithms over
 * point-to-point. The top of the MPI layer (mpi_int.h): it calls the files below it,
 * none calls it. */
#include "mpi_int.h"

static int
run_ibarrier(Nbc *a)
{
    return MPI_Barrier(a->comm);
}

int
MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Ibarrier");
    Nbc a = {.run = run_ibarrier, .comm = comm};
    return nbc_start(s, &a, req);
}

static int
run_ibcast(Nbc *a)
{
    return MPI_Bcast(a->rbuf, a->rcount, a->rtype, a->root, a->comm);
}

int
MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
           MPI_Request *req)
{
    ENTER("MPI_Ibcast");
    Nbc a = {.run = run_ibcast,
             .comm = comm,
             .rbuf = buf,
             .rcount = count,
             .rtype = type,
             .root = root};
    return nbc_start(s, &a, req);
}

static int
run_igather(Nbc *a)
{
    return MPI_Gather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                      a->comm);
}

int
MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
            MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Igather");
    Nbc a = {.run = run_igather,
             .comm = comm,
             .sbuf = sbuf,
             .scount = scount,
             .stype = stype,
             .rbuf = rbuf,
             .rcount = rcount,
             .rtype = rtype,
             .root = root};
    return nbc_start(s, &a, req);
}

static int
run_igatherv(Nbc *a)
{
    return MPI_Gatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls,
                       a->rtype, a->root, a->comm);
}

int
MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
             const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
             MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Igatherv");
    Nbc a = {.run = run_igatherv,
             .comm = comm,
             .sbuf = sbuf,
             .scount = scount,
             .stype = stype,
             .rbuf = rbuf,
             .rcounts = rcounts,
             .rdispls = displs,
             .rtype = rtype,
             .root = root};
    return nbc_start(s, &a, req);
}

static int
run_iscatter(Nbc *a)
{
    return MPI_Scatter(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                       a->root, a->comm);
}

int
MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
             MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Iscatter");
    Nbc a = {.run = run_iscatter,
             .comm = comm,
             .sbuf = sbuf,
             .scount = scount,
             .stype = stype,
             .rbuf = rbuf,
             .rcount = rcount,
             .rtype = rtype,
             .root = root};
    return nbc_start(s, &a, req);
}

static int
run_iscatterv(Nbc *a)
{
    return MPI_Scatterv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcount,
                        a->rtype, a->root, a->comm);
}

int
MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
              MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
              MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Iscatterv");
    Nbc a = {.run = run_iscatterv,
             .comm = comm,
             .sbuf = sbuf,
             .scounts = scounts,
             .sdispls = displs,
             .stype = stype,
             .rbuf = rbuf,
             .rcount = rcount,
             .rtype = rtype,
             .root = root};
    return nbc_start(s, &a, req);
}

static int
run_iallgather(Nbc *a)
{
    return MPI_Allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                         a->comm);
}

int
MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Iallgather");
    Nbc a = {.run = run_iallgather,
             .comm = comm,
             .sbuf = sbuf,
             .scount = scount,
             .stype = stype,
             .rbuf = rbuf,
             .rcount = rcount,
             .rtype = rtype};
    return nbc_start(s, &a, req);
}

static int
run_iallgatherv(Nbc *a)
{
    return MPI_Allgatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls,
                          a->rtype, a->comm);
}

int
MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Iallgatherv");
    Nbc a = {.run = run_iallgatherv,
             .comm = comm,
             .sbuf = sbuf,
             .scount = scount,
             .stype = stype,
             .rbuf = rbuf,
             .rcounts = rcounts,
             .rdispls = displs,
             .rtype = rtype};
    return nbc_start(s, &a, req);
}

static int
run_ialltoall(Nbc *a)
{
    return MPI_Alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype,
                        a->comm);
}

int
MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
              MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Ialltoall");
    Nbc a = {.run = run_ialltoall,
             .comm = comm,
             .sbuf = sbuf,
             .scount = scount,
             .stype = stype,
             .rbuf = rbuf,
             .rcount = rcount,
             .rtype = rtype};
    return nbc_start(s, &a, req);
}

static int
run_ialltoallv(Nbc *a)
{
    return MPI_Alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                         a->rdispls, a->rtype, a->comm);
}

int
MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
               MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
               MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Ialltoallv");
    Nbc a = {.run = run_ialltoallv,
             .comm = comm,
             .sbuf = sbuf,
             .scounts = scounts,
             .sdispls = sdispls,
             .stype = stype,
             .rbuf = rbuf,
             .rcounts = rcounts,
             .rdispls = rdispls,
             .rtype = rtype};
    return nbc_start(s, &a, req);
}

static int
run_ialltoallw(Nbc *a)
{
    return MPI_Alltoallw(a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf, a->rcounts,
                         a->rdispls, a->rtypes, a->comm);
}

int
MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
               const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
               const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
               MPI_Request *req)
{
    ENTER("MPI_Ialltoallw");
    Nbc a = {.run = run_ialltoallw,
             .comm = comm,
             .sbuf = sbuf,
             .scounts = scounts,
             .sdispls = sdispls,
             .stypes = stypes,
             .rbuf = rbuf,
             .rcounts = rcounts,
             .rdispls = rdispls,
             .rtypes = rtypes};
    return nbc_start(s, &a, req);
}

static int
run_ireduce(Nbc *a)
{
    return MPI_Reduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, a->comm);
}

int
MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
            int root, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Ireduce");
    Nbc a = {.run = run_ireduce,
             .comm = comm,
             .sbuf = sbuf,
             .rbuf = rbuf,
             .rcount = count,
             .rtype = type,
             .op = op,
             .root = root};
    return nbc_start(s, &a, req);
}

static int
run_iallreduce(Nbc *a)
{
    return MPI_Allreduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm);
}

int
MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Iallreduce");
    Nbc a = {.run = run_iallreduce,
             .comm = comm,
             .sbuf = sbuf,
             .rbuf = rbuf,
             .rcount = count,
             .rtype = type,
             .op = op};
    return nbc_start(s, &a, req);
}

static int
run_ireduce_scatter(Nbc *a)
{
    return MPI_Reduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->rtype, a->op, a->comm);
}

int
MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                    MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Ireduce_scatter");
    Nbc a = {.run = run_ireduce_scatter,
             .comm = comm,
             .sbuf = sbuf,
             .rbuf = rbuf,
             .rcounts = rcounts,
             .rtype = type,
             .op = op};
    return nbc_start(s, &a, req);
}

static int
run_ireduce_scatter_block(Nbc *a)
{
    return MPI_Reduce_scatter_block(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op,
                                    a->comm);
}

int
MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                          MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Ireduce_scatter_block");
    Nbc a = {.run = run_ireduce_scatter_block,
             .comm = comm,
             .sbuf = sbuf,
             .rbuf = rbuf,
             .rcount = rcount,
             .rtype = type,
             .op = op};
    return nbc_start(s, &a, req);
}

static int
run_iscan(Nbc *a)
{
    return MPI_Scan(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm);
}

int
MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
          MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Iscan");
    Nbc a = {.run = run_iscan,
             .comm = comm,
             .sbuf = sbuf,
             .rbuf = rbuf,
             .rcount = count,
             .rtype = type,
             .op = op};
    return nbc_start(s, &a, req);
}

static int
run_iexscan(Nbc *a)
{
    return MPI_Exscan(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->comm);
}

int
MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
            MPI_Comm comm, MPI_Request *req)
{
    ENTER("MPI_Iexscan");
    Nbc a = {.run = run_iexscan,
             .comm = comm,
             .sbuf = sbuf,
             .rbuf = rbuf,
             .rcount = count,
             .rtype = type,
             .op = op};
    return nbc_start(s, &a, req);
}
