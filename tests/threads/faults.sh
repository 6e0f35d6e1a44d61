#!/bin/sh
# faults.sh FAULTS: a crashing DSP and MPIRIO_Abort end the whole program on the
# shared-memory transport, with a message naming the DSP, never a hang (tests/threads).
set -u
prog=$1
fail() { echo "FAIL $*"; exit 1; }
out=$(timeout 60 "$prog" ok 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$out" = "token 6" ] || fail "ok: exit $rc, output: $out"
out=$(timeout 60 "$prog" segv 2>&1); rc=$?
[ $rc -ne 124 ] || fail "segv: the program hung"
[ $rc -ne 0 ] || fail "segv: exit status 0"
echo "$out" | grep -q "mpirio: DSP 2 (on worker thread [0-9]*) received signal SIGSEGV (segmentation fault)" ||
    fail "segv: no message naming DSP 2: $out"
out=$(timeout 60 "$prog" abort 2>&1); rc=$?
[ $rc -eq 5 ] || fail "abort: exit status $rc, not 5: $out"
echo "$out" | grep -q "mpirio: DSP 1 called MPIRIO_Abort(5)" || fail "abort: no message naming DSP 1: $out"
echo "3 passed, 0 failed"
