#!/bin/sh
# cc_test.sh MPIRIO_CC_SCRIPT EXAMPLES_DIR WORKDIR: builds programs with mpirio-cc and
# runs them through the launcher it writes: private globals on 4, 64 and 256 DSPs,
# a plain MPI program through <mpi.h>, and separate compilation with -c.
set -e
cc=$1 ex=$2 dir=$3
mkdir -p "$dir"
cd "$dir"
"$cc" -O1 -o globals "$ex/globals.c"
for n in 4 64 256; do
    MPIRIO_NP=$n ./globals | grep -q "private per DSP: OK"
done
"$cc" -c -o mpi_ring.o "$ex/mpi_ring.c"
"$cc" -o mpi_ring mpi_ring.o
MPIRIO_NP=8 ./mpi_ring | grep -q "mpi_ring on 8: OK"
MPIRIO_NP=16 ./mpi_ring | grep -q "mpi_ring on 16: OK"
echo "mpirio-cc: OK"
