/* mtest_mpix.h: MPICH's configure writes this with the MPIX_ extensions it finds;
 * the tests are built with USE_STRICT_MPI (mpitestconf.h), which uses none. */
#ifndef MTEST_MPIX_H_INCLUDED
#define MTEST_MPIX_H_INCLUDED
#endif
