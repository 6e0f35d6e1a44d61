/* mpi_int.h: the internals of the MPI API layer, one header for its files. They are
 * layers, top down: mpi_nbc.c (nonblocking collectives), mpi_coll.c (collectives),
 * mpi_p2p.c (point-to-point), mpi_comm.c (communicators), mpi_type.c (datatypes),
 * mpi_env.c (the environment and its tables); each calls only those below it, coll.c
 * (the collective algorithms, beside api.c's MPIRIO names) and of the transport only
 * the tr_ functions of mpirio_int.h, so the MPI names run on every transport
 * (tests/runtime/layers.sh checks the calls).
 *
 * Everything an MPI process owns (communicators, groups, datatypes, operators,
 * requests, the attached buffer) is per DSP: one MpiState, found through the
 * transport's per-DSP slot (tr_api_slot) and allocated from the run's memory
 * (tr_tmp_alloc), so a run that ends in a deadlock frees it too. */
#ifndef MPIRIO_MPI_INT_H
#define MPIRIO_MPI_INT_H

#include "mpirio/mpi.h"
#include "mpirio_int.h"

#include <stddef.h>

/* attributes (mpi_env.c): of communicators and datatypes, whose handles are ints,
 * so one copy and one delete callback type serve both */
typedef int AttrCopy(int obj, int key, void *extra, void *in, void *out, int *flag);
typedef int AttrDelete(int obj, int key, void *val, void *extra);
enum { KV_COMM = 1, KV_TYPE };

typedef struct Keyval {
    int used;  /* exists: until the program has freed it and no attribute uses it */
    int freed; /* the program freed it (MPI_Comm_free_keyval, ...) */
    int refs;  /* attributes set with it */
    int kind;  /* KV_COMM or KV_TYPE */
    AttrCopy *copy;
    AttrDelete *del;
    void *extra;
} Keyval;

typedef struct Attr {
    int key;
    void *val;
} Attr;

typedef struct AttrList {
    int n, cap;
    Attr *a; /* in the order they were first set */
} AttrList;

/* a datatype is a tree (mpi_type.c): its type map is `nrep` repetitions, `rstride`
 * bytes apart, of its pieces in order; piece i is n instances of the type `sub`, one
 * extent of sub apart, from byte disp of the repetition. A predefined type of one
 * basic element has no pieces (its data is `size` bytes at 0); the pair types
 * (MPI_FLOAT_INT, ...) have two. */
typedef struct Piece {
    MPI_Aint disp;
    MPI_Count n;
    struct Type *sub;
} Piece;

typedef struct Type {
    int used, committed, predefined;
    int refs;        /* requests in progress and types made of it that hold it */
    int freed;       /* no handle any more (freed by the program, or made inside a
                        type): no new use; gone when refs is 0 */
    MPI_Count size;  /* bytes of data */
    MPI_Aint lb, ub; /* the extent is ub - lb */
    MPI_Aint true_lb, true_ub;
    int lbmark, ubmark; /* lb, ub set by MPI_LB, MPI_UB or MPI_Type_create_resized */
    int align;          /* the alignment of its basic types (a struct's extent is
                           rounded up to it) */
    MPI_Count nrep;     /* the type map (above) */
    MPI_Aint rstride;
    int npiece;
    Piece *piece;
    int run; /* the data of one instance is one run of size bytes, at runoff */
    MPI_Aint runoff;
    MPI_Count xsize; /* bytes of one instance in the representation external32 */
    int handle;      /* its handle (of a type made inside another: no one uses it) */
    int basic;       /* reductions: the predefined type of every element, 0 if mixed */
    MPI_Count nelem; /* ... instances of basic in one instance */
    MPI_Count elems; /* MPI's basic elements in one instance (a pair type has two) */
    int combiner;    /* MPI_COMBINER_ */
    int nints, naddrs, ntypes;
    int *ints;
    MPI_Aint *addrs;
    struct Type **types; /* held */
    char name[MPI_MAX_OBJECT_NAME];
    AttrList attrs;
} Type;

typedef struct Group {
    int used;
    int n;
    int *g; /* global ranks */
} Group;

typedef struct Comm {
    int used;
    int inter;
    int ctx, cctx;  /* contexts of point-to-point and of the collectives' messages */
    int size, rank; /* the local group and the caller's rank in it */
    int *g;         /* global ranks of the local group */
    int rsize;      /* intercommunicator: the remote group */
    int *rg;
    int world_like; /* WORLD or LOCAL: the in-switch collectives apply */
    MPI_Errhandler eh;
    AttrList attrs;
    int topo, ndims;
    int *dims, *periods;
    int nin, nout; /* distributed graph: the sources and destinations */
    int *ins, *outs;
    int weighted; /* ... and their weights (NULL if unweighted) */
    int *inw, *outw;
    int nnodes; /* graph (MPI-1): index[nnodes], edges[index[nnodes - 1]] */
    int *index, *edges;
    char name[MPI_MAX_OBJECT_NAME];
    unsigned nbc; /* nonblocking collectives started on it: the next one's lane */
    int pending;  /* ... not yet over (nbc_start) */
    int freed;    /* MPI_Comm_free'd while some were pending: goes when they are over */
} Comm;

typedef struct Op {
    int used;
    MPI_User_function *fn;
    int commute;
} Op;

typedef struct Errh {
    int used;
    MPI_Comm_errhandler_function *fn;
    int session; /* made by MPI_Session_create_errhandler: for sessions only */
} Errh;

typedef struct Session { /* MPI 4.0 (mpi_session.c) */
    int used;
    MPI_Errhandler eh;
    MPI_Info info; /* what MPI_Session_get_info gives (a copy of it) */
} Session;

typedef struct InfoKV {
    char *key, *val;
} InfoKV;
typedef struct Info {
    int used;
    int n;
    InfoKV kv[64];
} Info;

enum { RQ_SEND, RQ_RECV, RQ_GREQ, RQ_COLL };

/* a request; the program holds its handle (self), an MPI_Request that never points
 * to it (the table of handles in MpiState, rq_get) */
typedef struct Rq Rq;
struct Rq {
    MPI_Request self; /* its handle, while the program may use it */
    int kind;         /* RQ_ */
    int persistent;   /* Send_init/Recv_init: kept by Wait, restarted by Start */
    int active;       /* started and not yet completed */
    int freed;        /* MPI_Request_free on an active request */
    int cancelled;
    int done;      /* RQ_GREQ: Grequest_complete called */
    Req *tr;       /* the transport's request while active */
    MPI_Status st; /* a completed request's status */
    int err;
    /* the arguments (persistent requests start again with them) */
    const void *sbuf;
    void *rbuf;
    int count;
    MPI_Datatype type;
    int peer, tag;
    MPI_Comm comm;
    int mode;                /* 0 standard, 1 synchronous, 2 ready, 3 buffered */
    unsigned long long bseq; /* buffered: its send's Bsend.seq */
    Type *t;                 /* the datatype (a reference held while the request lives) */
    void *pack; /* packed data of a noncontiguous receive, unpacked at completion */
    /* generalized requests */
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *gfree;
    MPI_Grequest_cancel_function *gcancel;
    void *extra;
};

typedef struct MsgH {
    int used;
    void *m; /* the transport's message */
    MPI_Comm comm;
} MsgH;

typedef struct Bsend {
    Req *r;
    size_t bytes;
    unsigned long long seq; /* that of the request that started it (MPI_Cancel) */
    struct Bsend *next;
} Bsend;

/* a table of objects behind int handles: entries are allocated once and reused, so
 * a pointer to one stays valid while the table grows; each begins with its `int used` */
typedef struct Tab {
    void **e;
    int n, cap;
    int *free, nfree, freecap; /* the free entries, a min-heap (mpi_env.c) */
} Tab;
/* index of a free entry at or after `first` (made and zeroed, size bytes): the lowest
 * one freed, else a new one at the end; logarithmic time */
int tab_new(Tab *t, int first, size_t size);
/* entry i is free (used = 0), to be made again by tab_new (keys, never given again,
 * set used = 0 themselves) */
void tab_free(Tab *t, int i);
static inline void *
tab_at(const Tab *t, int i)
{
    return i >= 0 && i < t->n ? t->e[i] : NULL;
}

enum { NPREDEF = 64, TYPE_BASE = 64 };

typedef struct MpiState {
    int rank;
    int initialized, finalized, thread_level;
    int nproposed; /* contexts proposed for new communicators (ctx_propose) */
    Tab comms;     /* Comm, handle = index (0 WORLD, 1 LOCAL, 2 SELF) */
    Tab groups;    /* Group, handle = index (0 the empty group) */
    Tab types;     /* Type, handle = TYPE_BASE + index */
    Type predef[NPREDEF];
    Tab ops;          /* Op, handle = index (below 16 the predefined ones) */
    Tab keyvals;      /* Keyval, key = index (from 1, never reused) */
    Tab errhs;        /* Errh, handle = index (below 4 the predefined ones) */
    Tab infos;        /* Info, handle = index (0 MPI_INFO_NULL, 1 MPI_INFO_ENV) */
    Tab msgs;         /* Msg: messages taken by MPI_Mprobe, handle = index */
    Tab sessions;     /* Session, handle = index (0 MPI_SESSION_NULL) */
    int nsessions;    /* ... open: MPI is usable, as after MPI_Init */
    HandleTab reqs;   /* the MPI requests (Rq) */
    HandleTab native; /* the MPIRIO requests (the transport's) */
    void *bbuf;       /* MPI_Buffer_attach */
    int bsize;
    Bsend *bsends;             /* Bsends not yet known complete */
    unsigned long long nbsend; /* Bsends started */
    const char *call;
    int nucode;   /* error classes and codes added: MPI_ERR_LASTCODE + 1 + i */
    int *ucls;    /* ... the class of each (a class its own) */
    char **ustr;  /* ... their strings (NULL: empty) */
    int lastused; /* the MPI_LASTUSEDCODE attribute */
} MpiState;

/* mpi_env.c */
MpiState *mpi_state(void); /* the caller's, made on first use; NULL outside a DSP */
/* the MPI call the caller is in: checks Init (a call before MPI_Init or after
 * MPI_Finalize ends the run with a report naming the DSP and the call); NULL if it
 * must return the error MPI_ERR_OTHER (in-process runs that allow it) */
MpiState *mpi_enter(const char *call);
/* the start of the calls MPI 4.0 allows at any time (info objects, error handlers of
 * sessions): the caller's state, NULL outside a DSP */
MpiState *mpi_enter_any(const char *call);
/* the start of every MPI call: s, its DSP's state, or the error MPI_ERR_OTHER */
#define ENTER(name)                                                                      \
    MpiState *s = mpi_enter(name);                                                       \
    if (!s)                                                                              \
        return MPI_ERR_OTHER;
/* the error handler of comm for code in call: returns code (MPI_ERRORS_RETURN), or
 * ends the run (MPI_ERRORS_ARE_FATAL) */
int mpi_err(MPI_Comm comm, int code);
/* the same with error handler eh, given the handle of the object it is called on */
int mpi_err_eh(MPI_Errhandler eh, int handle, int code);
/* eh is a handler of a communicator (session 0) or of a session (session 1) */
int errh_valid_for(MpiState *s, MPI_Errhandler eh, int session);
/* attributes: a key of kind KV_ (valid until freed and unused: NULL if not one);
 * the list l of the object obj (its handle, given to the callbacks): set (the old
 * value deleted first), get, delete one (MPI_ERR_KEYVAL if not set), copy those whose
 * copy callback says so to `to` (MPI_Comm_dup, MPI_Type_dup), clear all in the
 * reverse order of setting; 0 or an error code (a callback's) */
int keyval_new(MpiState *s, int kind, AttrCopy *copy, AttrDelete *del, void *extra,
               int *key);
int keyval_free(MpiState *s, int kind, int *key);
Keyval *keyval_get(MpiState *s, int kind, int key);
int attr_set(MpiState *s, AttrList *l, int kind, int obj, int key, void *val);
int attr_get(MpiState *s, const AttrList *l, int kind, int key, void *val, int *flag);
int attr_delete(MpiState *s, AttrList *l, int kind, int obj, int key);
int attr_copy(MpiState *s, const AttrList *from, AttrList *to, int kind, int obj);
int attr_clear(MpiState *s, AttrList *l, int obj);
void *mpi_alloc(size_t n); /* tr_tmp_alloc, zeroed */
void mpi_free(void *p);
char *mpi_strdup(const char *s);
Comm *comm_get(MpiState *s, MPI_Comm c); /* NULL for an invalid handle */
/* a new entry of the table of communicators at index `at` or above (*h): its error
 * handler MPI_ERRORS_ARE_FATAL, the rest zero */
Comm *comm_slot(MpiState *s, int at, MPI_Comm *h);
/* the table of requests: a new one of kind (zero but for its handle, r->self) */
Rq *rq_new(MpiState *s, int kind);
/* the live request behind h; NULL for MPI_REQUEST_NULL and for a handle that is not
 * one (of a request completed or freed, or never made) */
Rq *rq_get(MpiState *s, MPI_Request h);
void rq_forget(MpiState *s, Rq *r); /* its handle goes, r lives on (Request_free) */
void rq_free(MpiState *s, Rq *r);   /* r and its handle go */

/* the tags of the internal messages of the collectives (on a communicator's cctx;
 * api.c's MPIRIO collectives use the tags CO_ of mpirio_int.h, below 16) */
enum {
    T_BCAST = 16,
    T_GATHER,
    T_SCATTER,
    T_REDUCE,
    T_BARRIER,
    T_ALLGATHER,
    T_ALLTOALL,
    T_SCAN,
    T_CTX,
    T_SPLIT,
    T_LEADERS,
    T_MERGE,
    T_GRAPH,
    T_NBR = 0x100,
    T_GROUP = 0x1000
};

/* mpi_comm.c */
/* the communicator of the members of group (copied) made by every member of it,
 * agreeing on its context in context cctx with tag T_GROUP + tag (MPI_Comm_create_group,
 * MPI_Comm_create_from_group), with error handler eh; MPI_COMM_NULL for a caller not
 * in the group; 0 or MPI_ERR_GROUP */
int comm_of_group(MpiState *s, MPI_Group group, int cctx, int tag, MPI_Errhandler eh,
                  MPI_Comm *newcomm);
int comm_neighbors(const Comm *c, int *nin, int **ins, int *nout, int **outs);
/* A nonblocking collective on comm (or MPI_Comm_idup of it): run(a) is the blocking
 * operation, which runs as an operation in progress of the transport (tr_spawn) in a
 * lane of its own (comm's count of them, the same on every member, since all start
 * them in the same order), so its messages never meet those of the caller or of
 * another in progress; its datatypes (the handles of types[0..ntypes-1]) and comm
 * are held until it is over. The new request in *req; an error found before it
 * first waits is returned at once (no request: MPI_REQUEST_NULL), a later one by
 * the Wait or Test that completes it. a: size bytes, copied. */
typedef struct Nbc Nbc;
struct Nbc {
    int (*run)(Nbc *a);
    MPI_Comm comm;
    const void *sbuf;
    void *rbuf;
    int scount, rcount, root;
    MPI_Datatype stype, rtype;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    const MPI_Datatype *stypes, *rtypes; /* alltoallw: one per peer */
    MPI_Op op;
    MPI_Comm *newcomm; /* MPI_Comm_idup */
    /* nbc_start's */
    Comm *c;
    struct Type **held;
    int nheld;
    int refs, done, err;
};
int nbc_start(MpiState *s, const Nbc *a, MPI_Request *req);
void inter_swap(const Comm *c, int tag, const void *mine, size_t mbytes, void *theirs,
                size_t tbytes);
/* global rank of rank r of c's destination group (remote for an intercomm) */
static inline int
comm_peer(const Comm *c, int r)
{
    return c->inter ? c->rg[r] : c->g[r];
}
static inline int
comm_peers(const Comm *c)
{
    return c->inter ? c->rsize : c->size;
}
/* the local group of c for the algorithms of coll.c, their messages in context ctx:
 * MPICH's algorithms (the in-switch family is for the program's own collectives) */
static inline CollGroup
comm_group(const Comm *c, int ctx)
{
    return (CollGroup){ctx, -1, c->size, c->rank, 0, c->g};
}

/* mpi_type.c */
Type *type_get(MpiState *s, MPI_Datatype t); /* NULL for an invalid handle */
/* committed (or predefined) and usable in communication; else MPI_ERR_TYPE */
int type_check(MpiState *s, MPI_Datatype t, Type **out);
/* count instances at buf are count * size bytes at buf (one run at 0, size ==
 * extent), as packed */
int type_contig(const Type *t);
void type_ref(Type *t);   /* a request holds t */
void type_unref(Type *t); /* ... no longer: t goes if freed */
static inline MPI_Aint
type_extent(const Type *t)
{
    return t->ub - t->lb;
}
/* count instances at buf to/from packed bytes */
void type_pack(const Type *t, const void *buf, MPI_Count count, void *out);
void type_unpack(const Type *t, const void *in, MPI_Count count, void *buf);
/* the first `bytes` packed bytes of count instances (a message shorter than the
 * buffer, which may end inside an instance) into buf */
void type_unpack_bytes(const Type *t, const void *in, MPI_Count bytes, MPI_Count count,
                       void *buf);
/* size in bytes of a basic type (0 if none) */
size_t basic_size(int basic);

/* mpi_coll.c: reductions */
int op_valid(MpiState *s, MPI_Op op, const Type *t);
/* inout = in op inout on count instances of type t in packed form */
void op_apply(MpiState *s, MPI_Op op, const void *in, void *inout, int count,
              MPI_Datatype dt, const Type *t);
int op_commutes(MpiState *s, MPI_Op op);

/* mpi_p2p.c: a completed status from the transport's */
void status_from_tr(MPI_Status *st, const MPIRIO_Status *t);

#endif
