/* mpitestconf.h: what MPICH's configure would find for the test programs of
 * ../shared/mpich-tests on this project's platform (Linux, C11, libmpirio's mpi.h).
 * The MPI version comes from mpi.h (MPI_VERSION, MPI_SUBVERSION): nothing here
 * claims a call mpi.h lacks. */
#ifndef MPITESTCONF_H
#define MPITESTCONF_H
#define HAVE_STDARG_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STRINGS_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_MPI_INTEGER16 1 /* mpi.h has MPI_INTEGER16 (MPI_REAL16, MPI_COMPLEX32 are MPI_DATATYPE_NULL) */
#define HAVE_MPI_INIT_THREAD 1
#define HAVE__BOOL 1
#define HAVE_INT16_T 1
#define HAVE_INT32_T 1
#define HAVE_INT64_T 1
#define HAVE_UINT16_T 1
#define HAVE_UINT32_T 1
#define HAVE_UINT64_T 1
#define USE_STRICT_MPI 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
#include <stdbool.h> /* mpitest.h uses bool */
#endif
