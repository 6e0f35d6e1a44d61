#!/bin/sh
# examples.sh: an MPIRIO example program (runtime/examples) under real MPI gives the
# results it gives on the simulated platform.
#
#   examples.sh MPIRIO_RUN EXAMPLE.so MPI_PROGRAM MPIRUN RANKS FAMILY
#
# Runs EXAMPLE.so with mpirio-run -n RANKS --coll FAMILY and MPI_PROGRAM (the same
# source linked with libmpirio_openmpi or _mpich) with MPIRUN -np RANKS and
# MPIRIO_COLL=FAMILY; the two outputs, with every count of cycles masked (the one thing
# that differs: simulated against wall-clock), must be the same lines, each program's
# own check must say OK and neither WRONG. Exit 0 when they agree.
set -eu
run=$1 so=$2 prog=$3 mpirun=$4 n=$5 coll=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mask() { sed -E 's/[0-9]+ cycles/N cycles/g' "$1"; }
"$run" -n "$n" --coll "$coll" "$so" > "$tmp/sim.out" 2> "$tmp/sim.err" || {
    echo "examples.sh: mpirio-run failed:"; cat "$tmp/sim.err"; exit 1; }
extra=""
case $mpirun in *openmpi*) extra="--oversubscribe"; [ "$(id -u)" -eq 0 ] && extra="$extra --allow-run-as-root" ;; esac
# the sanitizer build: Open MPI and MPICH leak what they allocate for the job at exit
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ASAN_OPTIONS
# shellcheck disable=SC2086 # $extra is a list of options
MPIRIO_COLL=$coll timeout 300 "$mpirun" $extra -np "$n" "$prog" > "$tmp/mpi.out" 2> "$tmp/mpi.err" || {
    echo "examples.sh: $mpirun -np $n $prog failed:"; cat "$tmp/mpi.err"; exit 1; }
mask "$tmp/sim.out" > "$tmp/sim.m"
mask "$tmp/mpi.out" > "$tmp/mpi.m"
echo "simulated ($n DSPs, $coll):"; sed 's/^/  /' "$tmp/sim.out"
echo "under MPI ($mpirun -np $n, $coll):"; sed 's/^/  /' "$tmp/mpi.out"
if ! grep -q OK "$tmp/mpi.out" || grep -q WRONG "$tmp/mpi.out" "$tmp/sim.out"; then
    echo "examples.sh: a program's own check failed"; exit 1
fi
if ! diff "$tmp/sim.m" "$tmp/mpi.m"; then
    echo "examples.sh: the results differ (cycles masked)"; exit 1
fi
echo "same results"
