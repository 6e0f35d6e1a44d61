#!/bin/sh
# env_values.sh: the MPI transport's settings from the environment take their documented
# values and refuse any other with a message naming the variable (docs/cluster.md); a
# value it ignored silently (MPIRIO_SEND_IN_PLACE=yes sent a copy) is a wrong run.
#
#   env_values.sh MPIRUN PROGRAM VAR GOOD,VALUES BAD,VALUES
#
# PROGRAM (an example linked with libmpirio_openmpi or _mpich, which prints OK) runs
# under MPIRUN -np 2 once with VAR set to each value: each good one must print OK and
# exit 0, each bad one exit nonzero with 'mpirio: VAR "VALUE": expected' on stderr and
# no OK.
set -eu
mpirun=$1 prog=$2 var=$3 good=$4 bad=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
extra=""
case $mpirun in *openmpi*) extra="--oversubscribe"; [ "$(id -u)" -eq 0 ] && extra="$extra --allow-run-as-root" ;; esac
# the sanitizer build: Open MPI and MPICH leak what they allocate for the job at exit
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ASAN_OPTIONS
fail=0 runs=0
run() { # VALUE: the exit status of the job, its output in $tmp/out and $tmp/err
    rc=0
    # shellcheck disable=SC2086 # $extra is a list of options
    env "$var=$1" timeout 120 "$mpirun" $extra -np 2 "$prog" > "$tmp/out" 2> "$tmp/err" || rc=$?
    runs=$((runs + 1))
}
for v in $(echo "$good" | tr , ' '); do
    run "$v"
    if [ "$rc" -ne 0 ] || ! grep -q OK "$tmp/out"; then
        echo "env_values.sh: $var=$v: exit status $rc, expected a run that says OK:"
        cat "$tmp/out" "$tmp/err"
        fail=1
    else
        echo "$var=$v: accepted"
    fi
done
for v in $(echo "$bad" | tr , ' '); do
    run "$v"
    if [ "$rc" -eq 0 ] || grep -q OK "$tmp/out" || ! grep -q "mpirio: $var \"$v\": expected" "$tmp/err"; then
        echo "env_values.sh: $var=$v: exit status $rc, expected a refusal naming $var:"
        cat "$tmp/out" "$tmp/err"
        fail=1
    else
        echo "$var=$v: refused: $(grep -m1 "mpirio: $var" "$tmp/err")"
    fi
done
[ "$runs" -gt 0 ] || { echo "env_values.sh: nothing ran"; exit 1; }
exit $fail
