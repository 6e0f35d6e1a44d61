/* mpirio/mpi.h: MPI on the simulated BWDSP/RapidIO platform. mpirio-cc puts this
 * directory first on the include path, so <mpi.h> finds it and a plain MPI program
 * compiles and runs under mpirio-run unchanged. Every name here is a function of
 * libmpirio's API layer (runtime/mpi_*.c) over the same transport as mpirio.h.
 *
 * MPI_VERSION 3.1: the calls of MPI-3.1 that MPICH's own basic, pt2pt and coll tests
 * use are here (docs/runtime.md lists them and what is left out: one-sided
 * communication, MPI-IO, dynamic processes, threads above MPI_THREAD_FUNNELED, the
 * collectives of intercommunicators and of graph topologies). Nonblocking
 * collectives complete at the call that starts them. */
#ifndef MPIRIO_MPI_H
#define MPIRIO_MPI_H

#include "../mpirio.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1

typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;
typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Message;
typedef struct MPIR_Request *MPI_Request;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int mpirio_cancelled;
    long long mpirio_bytes; /* bytes received (a count of 2 GiB and more fits) */
} MPI_Status;

#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_REQUEST_NULL ((MPI_Request)0)

/* communicators (MPI_COMM_WORLD and MPI_COMM_LOCAL are those of mpirio.h) */
#define MPI_COMM_NULL (-1)
#define MPI_COMM_WORLD MPIRIO_COMM_WORLD
#define MPI_COMM_LOCAL MPIRIO_COMM_LOCAL
#define MPI_COMM_SELF 2
#define MPI_GROUP_NULL (-1)
#define MPI_GROUP_EMPTY 0
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3
#define MPI_COMM_TYPE_SHARED 1
#define MPI_MESSAGE_NULL (-1)
#define MPI_MESSAGE_NO_PROC (-2)
#define MPI_INFO_NULL 0
#define MPI_INFO_ENV 1
#define MPI_MAX_INFO_KEY 256
#define MPI_MAX_INFO_VAL 1024

/* datatypes: the first seven are those of mpirio.h */
#define MPI_DATATYPE_NULL 0
#define MPI_BYTE MPIRIO_BYTE
#define MPI_CHAR MPIRIO_CHAR
#define MPI_INT MPIRIO_INT
#define MPI_FLOAT MPIRIO_FLOAT
#define MPI_DOUBLE MPIRIO_DOUBLE
#define MPI_LONG MPIRIO_LONG
#define MPI_UNSIGNED MPIRIO_UNSIGNED
#define MPI_SIGNED_CHAR 8
#define MPI_UNSIGNED_CHAR 9
#define MPI_SHORT 10
#define MPI_UNSIGNED_SHORT 11
#define MPI_UNSIGNED_LONG 12
#define MPI_LONG_LONG 13
#define MPI_LONG_LONG_INT MPI_LONG_LONG
#define MPI_UNSIGNED_LONG_LONG 14
#define MPI_LONG_DOUBLE 15
#define MPI_WCHAR 16
#define MPI_C_BOOL 17
#define MPI_INT8_T 18
#define MPI_INT16_T 19
#define MPI_INT32_T 20
#define MPI_INT64_T 21
#define MPI_UINT8_T 22
#define MPI_UINT16_T 23
#define MPI_UINT32_T 24
#define MPI_UINT64_T 25
#define MPI_AINT 26
#define MPI_OFFSET 27
#define MPI_COUNT 28
#define MPI_C_FLOAT_COMPLEX 29
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX 30
#define MPI_C_LONG_DOUBLE_COMPLEX 31
#define MPI_PACKED 32
#define MPI_FLOAT_INT 33
#define MPI_DOUBLE_INT 34
#define MPI_LONG_INT 35
#define MPI_2INT 36
#define MPI_SHORT_INT 37
#define MPI_LONG_DOUBLE_INT 38
#define MPI_LB 39
#define MPI_UB 40
/* the Fortran types, as C holds them (INTEGER and LOGICAL an int, REAL a float, ...) */
#define MPI_CHARACTER 41
#define MPI_INTEGER 42
#define MPI_REAL 43
#define MPI_DOUBLE_PRECISION 44
#define MPI_LOGICAL 45
#define MPI_COMPLEX 46
#define MPI_DOUBLE_COMPLEX 47
#define MPI_2INTEGER 48
#define MPI_2REAL 49
#define MPI_2DOUBLE_PRECISION 50
/* the optional sized types (REAL16 and COMPLEX32, IEEE quadruple precision, are not
 * there) and the C++ types */
#define MPI_REAL4 51
#define MPI_REAL8 52
#define MPI_REAL16 MPI_DATATYPE_NULL
#define MPI_COMPLEX8 53
#define MPI_COMPLEX16 54
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
#define MPI_INTEGER1 55
#define MPI_INTEGER2 56
#define MPI_INTEGER4 57
#define MPI_INTEGER8 58
#define MPI_INTEGER16 59 /* __int128 */
#define MPI_CXX_BOOL 60
#define MPI_CXX_FLOAT_COMPLEX 61
#define MPI_CXX_DOUBLE_COMPLEX 62
#define MPI_CXX_LONG_DOUBLE_COMPLEX 63

#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR 5
#define MPI_COMBINER_INDEXED 6
#define MPI_COMBINER_HINDEXED 7
#define MPI_COMBINER_INDEXED_BLOCK 8
#define MPI_COMBINER_HINDEXED_BLOCK 9
#define MPI_COMBINER_STRUCT 10
#define MPI_COMBINER_SUBARRAY 11
#define MPI_COMBINER_DARRAY 12
#define MPI_COMBINER_RESIZED 13
#define MPI_COMBINER_F90_REAL 14
#define MPI_COMBINER_F90_COMPLEX 15
#define MPI_COMBINER_F90_INTEGER 16
#define MPI_COMBINER_HVECTOR_INTEGER MPI_COMBINER_HVECTOR
#define MPI_COMBINER_HINDEXED_INTEGER MPI_COMBINER_HINDEXED
#define MPI_COMBINER_STRUCT_INTEGER MPI_COMBINER_STRUCT
#define MPI_ORDER_C 0
#define MPI_ORDER_FORTRAN 1
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* reduction operators: the first four are those of mpirio.h */
#define MPI_OP_NULL 0
#define MPI_SUM MPIRIO_SUM
#define MPI_PROD MPIRIO_PROD
#define MPI_MIN MPIRIO_MIN
#define MPI_MAX MPIRIO_MAX
#define MPI_LAND 5
#define MPI_LOR 6
#define MPI_LXOR 7
#define MPI_BAND 8
#define MPI_BOR 9
#define MPI_BXOR 10
#define MPI_MINLOC 11
#define MPI_MAXLOC 12
#define MPI_REPLACE 13
#define MPI_NO_OP 14

#define MPI_ANY_SOURCE MPIRIO_ANY_SOURCE
#define MPI_ANY_TAG MPIRIO_ANY_TAG
#define MPI_PROC_NULL MPIRIO_PROC_NULL
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID (-1)
#define MPI_BSEND_OVERHEAD 64
#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_MAX_ERROR_STRING 256
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_IN_PLACE ((void *)-1)
#define MPI_BOTTOM ((void *)0)
#define MPI_UNWEIGHTED ((int *)1)
#define MPI_WEIGHTS_EMPTY ((int *)2)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ERRCODES_IGNORE ((int *)0)

/* predefined attributes of MPI_COMM_WORLD (MPI_Comm_get_attr) */
#define MPI_TAG_UB 0x64400001
#define MPI_HOST 0x64400003
#define MPI_IO 0x64400005
#define MPI_WTIME_IS_GLOBAL 0x64400007
#define MPI_UNIVERSE_SIZE 0x64400009
#define MPI_LASTUSEDCODE 0x6440000b
#define MPI_APPNUM 0x6440000d

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

/* error classes: the first ones are those of mpirio.h */
#define MPI_SUCCESS MPIRIO_SUCCESS
#define MPI_ERR_BUFFER MPIRIO_ERR_BUFFER
#define MPI_ERR_COUNT MPIRIO_ERR_COUNT
#define MPI_ERR_TYPE MPIRIO_ERR_TYPE
#define MPI_ERR_TAG MPIRIO_ERR_TAG
#define MPI_ERR_COMM MPIRIO_ERR_COMM
#define MPI_ERR_RANK MPIRIO_ERR_RANK
#define MPI_ERR_ROOT MPIRIO_ERR_ROOT
#define MPI_ERR_OP MPIRIO_ERR_OP
#define MPI_ERR_TRUNCATE MPIRIO_ERR_TRUNCATE
#define MPI_ERR_REQUEST MPIRIO_ERR_REQUEST
#define MPI_ERR_ARG MPIRIO_ERR_ARG
#define MPI_ERR_OTHER MPIRIO_ERR_OTHER
#define MPI_ERR_GROUP 20
#define MPI_ERR_TOPOLOGY 21
#define MPI_ERR_DIMS 22
#define MPI_ERR_UNKNOWN 23
#define MPI_ERR_INTERN 24
#define MPI_ERR_IN_STATUS 25
#define MPI_ERR_PENDING 26
#define MPI_ERR_INFO 27
#define MPI_ERR_INFO_KEY 28
#define MPI_ERR_INFO_VALUE 29
#define MPI_ERR_INFO_NOKEY 30
#define MPI_ERR_KEYVAL 31
#define MPI_ERR_NO_MEM 32
#define MPI_ERR_UNSUPPORTED_OPERATION 33
#define MPI_ERR_SESSION 34 /* MPI 4.0 */
#define MPI_ERR_LASTCODE 64

#define MPI_ERRHANDLER_NULL 0
#define MPI_ERRORS_ARE_FATAL 1
#define MPI_ERRORS_RETURN 2
#define MPI_ERRORS_ABORT 3

typedef void(MPI_User_function)(void *invec, void *inoutvec, int *len,
                                MPI_Datatype *datatype);
typedef void(MPI_Comm_errhandler_function)(MPI_Comm *, int *, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Comm_errhandler_function MPI_Handler_function;
typedef int(MPI_Comm_copy_attr_function)(MPI_Comm, int, void *, void *, void *, int *);
typedef int(MPI_Comm_delete_attr_function)(MPI_Comm, int, void *, void *);
typedef int(MPI_Type_copy_attr_function)(MPI_Datatype, int, void *, void *, void *,
                                         int *);
typedef int(MPI_Type_delete_attr_function)(MPI_Datatype, int, void *, void *);
typedef int(MPI_Grequest_query_function)(void *, MPI_Status *);
typedef int(MPI_Grequest_free_function)(void *);
typedef int(MPI_Grequest_cancel_function)(void *, int);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
int MPIR_Comm_dup_fn(MPI_Comm, int, void *, void *, void *, int *);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN MPIR_Comm_dup_fn
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
#define MPI_DUP_FN MPI_COMM_DUP_FN
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_TYPE_DUP_FN MPIR_Type_dup_fn

/* environment */
int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Finalized(int *flag);
int MPI_Abort(MPI_Comm comm, int code);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *len);
int MPI_Get_processor_name(char *name, int *len);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Error_string(int code, char *s, int *len);
int MPI_Error_class(int code, int *cls);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);
int MPI_Pcontrol(const int level, ...);

/* error handlers */
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *eh);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler eh);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *eh);
int MPI_Comm_call_errhandler(MPI_Comm comm, int code);
int MPI_Errhandler_free(MPI_Errhandler *eh);

/* MPI 4.0's sessions (runtime/mpi_session.c): the process sets "mpi://WORLD" and
 * "mpi://SELF", their groups, and communicators made from a group without a parent */
typedef int MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_MAX_PSET_NAME_LEN 256
typedef void(MPI_Session_errhandler_function)(MPI_Session *, int *, ...);
int MPI_Session_init(MPI_Info info, MPI_Errhandler eh, MPI_Session *session);
int MPI_Session_finalize(MPI_Session *session);
int MPI_Session_get_info(MPI_Session session, MPI_Info *info);
int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npsets);
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *len,
                             char *name);
int MPI_Session_get_pset_info(MPI_Session session, const char *name, MPI_Info *info);
int MPI_Session_create_errhandler(MPI_Session_errhandler_function *fn,
                                  MPI_Errhandler *eh);
int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler eh);
int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *eh);
int MPI_Session_call_errhandler(MPI_Session session, int code);
int MPI_Group_from_session_pset(MPI_Session session, const char *pset, MPI_Group *group);
int MPI_Comm_create_from_group(MPI_Group group, const char *tag, MPI_Info info,
                               MPI_Errhandler eh, MPI_Comm *newcomm);
int MPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *eh);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler eh);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *eh);
int MPI_Add_error_class(int *cls);
int MPI_Add_error_code(int cls, int *code);
int MPI_Add_error_string(int code, const char *s);

/* info objects: keys and values kept, not interpreted */
int MPI_Info_create(MPI_Info *info);
int MPI_Info_free(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
/* MPI 4.0's (the info calls work before MPI_Init and after MPI_Finalize, as there) */
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value,
                        int *flag);
int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);

/* groups */
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_free(MPI_Group *group);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *newgroup);
int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result);
int MPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[], MPI_Group b,
                              int ranks_b[]);

/* communicators */
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req);
/* MPI 4.0's, as MPI_Comm_dup_with_info (the info is not kept) */
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                            MPI_Request *req);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
                        MPI_Comm *newcomm);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_disconnect(MPI_Comm *comm);
int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result);
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *len);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info);
int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer,
                         int remote_leader, int tag, MPI_Comm *newcomm);
int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newcomm);
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
                           MPI_Comm_delete_attr_function *del, int *keyval, void *extra);
int MPI_Comm_free_keyval(int *keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value);
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval);
int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval,
                      void *extra);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *value);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* Cartesian topologies */
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *newcomm);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source, int *dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm *newcomm);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                 int *newrank);
int MPI_Topo_test(MPI_Comm comm, int *status);
/* the graph topology of MPI-1 */
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *newcomm);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                  int *newrank);
/* distributed graphs */
int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info,
                          int reorder, MPI_Comm *newcomm);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[],
                                   MPI_Info info, int reorder, MPI_Comm *newcomm);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                   int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                             int sourceweights[], int maxoutdegree, int destinations[],
                             int destweights[]);
/* neighbourhood collectives on Cartesian, graph and distributed-graph topologies */
int MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            const int rcounts[], const int displs[], MPI_Datatype rtype,
                            MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                          int rcount, MPI_Datatype rtype, MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                           MPI_Datatype stype, void *rbuf, const int rcounts[],
                           const int rdispls[], MPI_Datatype rtype, MPI_Comm comm);
int MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[],
                           const MPI_Aint sdispls[], const MPI_Datatype stypes[],
                           void *rbuf, const int rcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype rtypes[], MPI_Comm comm);

/* datatypes */
int MPI_Type_size(MPI_Datatype type, int *size);
int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size);
int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_extent(MPI_Datatype type, MPI_Aint *extent);
int MPI_Type_lb(MPI_Datatype type, MPI_Aint *lb);
int MPI_Type_ub(MPI_Datatype type, MPI_Aint *ub);
int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old,
                    MPI_Datatype *newtype);
int MPI_Type_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                     MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old,
                            MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int blocklens[], const int displs[],
                     MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, const int blocklens[], const MPI_Aint displs[],
                      MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint displs[],
                             MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklen, const int displs[],
                                  MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint displs[],
                                   MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint displs[],
                           const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_struct(int count, const int blocklens[], const MPI_Aint displs[],
                    const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, MPI_Datatype old,
                             MPI_Datatype *newtype);
int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
                           const int distribs[], const int dargs[], const int psizes[],
                           int order, MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype);
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Type_get_envelope(MPI_Datatype type, int *nints, int *naddrs, int *ntypes,
                          int *combiner);
int MPI_Type_get_contents(MPI_Datatype type, int maxints, int maxaddrs, int maxtypes,
                          int ints[], MPI_Aint addrs[], MPI_Datatype types[]);
int MPIR_Type_dup_fn(MPI_Datatype type, int key, void *extra, void *in, void *out,
                     int *flag);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
                           MPI_Type_delete_attr_function *del, int *keyval, void *extra);
int MPI_Type_free_keyval(int *keyval);
int MPI_Type_set_attr(MPI_Datatype type, int keyval, void *value);
int MPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag);
int MPI_Type_delete_attr(MPI_Datatype type, int keyval);
int MPI_Type_set_name(MPI_Datatype type, const char *name);
int MPI_Type_get_name(MPI_Datatype type, char *name, int *len);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *type);
int MPI_Get_address(const void *location, MPI_Aint *address);
int MPI_Address(void *location, MPI_Aint *address);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint a, MPI_Aint b);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
int MPI_Pack(const void *in, int count, MPI_Datatype type, void *out, int outsize,
             int *position, MPI_Comm comm);
int MPI_Unpack(const void *in, int insize, int *position, void *out, int count,
               MPI_Datatype type, MPI_Comm comm);
int MPI_Pack_size(int count, MPI_Datatype type, MPI_Comm comm, int *size);
/* the data representation "external32" (big-endian, the sizes of MPI 3.1 table 13.2) */
int MPI_Pack_external(const char datarep[], const void *in, int count, MPI_Datatype type,
                      void *out, MPI_Aint outsize, MPI_Aint *position);
int MPI_Unpack_external(const char datarep[], const void *in, MPI_Aint insize,
                        MPI_Aint *position, void *out, int count, MPI_Datatype type);
int MPI_Pack_external_size(const char datarep[], int count, MPI_Datatype type,
                           MPI_Aint *size);
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* point-to-point */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm, MPI_Request *req);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *req);
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *req);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *req);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req);
int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int source, int rtag,
                 MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag,
                         int source, int rtag, MPI_Comm comm, MPI_Status *status);
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                  MPI_Comm comm, MPI_Request *req);
int MPI_Start(MPI_Request *req);
int MPI_Startall(int n, MPI_Request reqs[]);
int MPI_Wait(MPI_Request *req, MPI_Status *status);
int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[]);
int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status);
int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]);
int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status);
int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[]);
int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status);
int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]);
int MPI_Request_free(MPI_Request *req);
int MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status);
int MPI_Cancel(MPI_Request *req);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *msg,
                MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg,
              MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg,
               MPI_Request *req);
int MPI_Buffer_attach(void *buf, int size);
int MPI_Buffer_detach(void *buf, int *size);
int MPI_Grequest_start(MPI_Grequest_query_function *query,
                       MPI_Grequest_free_function *free_fn,
                       MPI_Grequest_cancel_function *cancel, void *extra,
                       MPI_Request *req);
int MPI_Grequest_complete(MPI_Request req);

/* collectives */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                MPI_Comm comm);
int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm);
int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm);
int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm);
int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype,
                   MPI_Comm comm);
int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm);
int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm);
int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                  const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm);
int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm);
int MPI_Reduce_local(const void *in, void *inout, int count, MPI_Datatype type,
                     MPI_Op op);
int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm);
int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm);
int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm);
int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);
/* nonblocking collectives: done when they return (the request is complete) */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req);
int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request *req);
int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req);
int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req);
int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req);
int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  int root, MPI_Comm comm, MPI_Request *req);
int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype,
                    MPI_Comm comm, MPI_Request *req);
int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req);
int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[],
                   const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req);
int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request *req);
int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *req);
int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req);
int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req);
int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm, MPI_Request *req);
int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm, MPI_Request *req);
int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm, MPI_Request *req);

/* handle conversions (C only: the identity) */
#define MPI_Comm_c2f(c) ((MPI_Fint)(c))
#define MPI_Comm_f2c(c) ((MPI_Comm)(c))
#define MPI_Type_c2f(t) ((MPI_Fint)(t))
#define MPI_Type_f2c(t) ((MPI_Datatype)(t))
#define MPI_Op_c2f(o) ((MPI_Fint)(o))
#define MPI_Op_f2c(o) ((MPI_Op)(o))
#define MPI_Group_c2f(g) ((MPI_Fint)(g))
#define MPI_Group_f2c(g) ((MPI_Group)(g))
#define MPI_Info_c2f(i) ((MPI_Fint)(i))
#define MPI_Info_f2c(i) ((MPI_Info)(i))
#define MPI_Session_c2f(s) ((MPI_Fint)(s))
#define MPI_Session_f2c(s) ((MPI_Session)(s))
#define MPI_Message_c2f(m) ((MPI_Fint)(m))
#define MPI_Message_f2c(m) ((MPI_Message)(m))
#define PMPI_Message_c2f(m) ((MPI_Fint)(m))
#define PMPI_Message_f2c(m) ((MPI_Message)(m))

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
