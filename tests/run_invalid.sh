#!/bin/sh
# tests/run_invalid.sh TGC CASE_DIR - one golden bad input (testcases/invalid/<name>/).
#
# Runs `tgc check [ARGS] input.json` from the case's folder, where ARGS are the words of the
# optional file `args`, and checks that the exit status is 1 (or the one in the optional
# file `status`), that nothing was written to
# stdout and that stderr is exactly the file `error`.
set -u
tgc=$1
dir=$2
cd "$dir" || exit 1
args=""
if [ -f args ]; then
    args=$(cat args)
fi
out=$(mktemp) err=$(mktemp)
# shellcheck disable=SC2086 # ARGS are words on purpose
"$tgc" check $args input.json >"$out" 2>"$err"
rc=$?
fail=0
want=1 # or the status of the optional file `status` (2: a bad option value)
if [ -f status ]; then
    want=$(cat status)
fi
if [ "$rc" -ne "$want" ]; then
    echo "exit status $rc, expected $want"
    fail=1
fi
if [ -s "$out" ]; then
    echo "stdout should be empty, got:"
    cat "$out"
    fail=1
fi
if ! cmp -s error "$err"; then
    echo "stderr differs from $dir/error (- expected, + got):"
    diff -u error "$err" | tail -n +3
    fail=1
fi
rm -f "$out" "$err"
exit $fail
