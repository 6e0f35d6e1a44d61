#!/bin/sh
# tests/run_valid.sh TGC CASE_DIR - a valid example graph (testcases/<name>/<name>.json).
#
# Runs `tgc check --json <name>.json` from the case's folder and checks that it succeeds
# with nothing on stderr and, when the folder has check.expected, that stdout is exactly
# that file (the summary: tasks, edges, total cycles, critical path ...).
set -u
tgc=$1
dir=$2
name=$(basename "$dir")
cd "$dir" || exit 1
out=$(mktemp) err=$(mktemp)
"$tgc" check --json "$name.json" >"$out" 2>"$err"
rc=$?
fail=0
if [ "$rc" -ne 0 ]; then
    echo "exit status $rc, expected 0"
    fail=1
fi
if [ -s "$err" ]; then
    echo "stderr should be empty, got:"
    cat "$err"
    fail=1
fi
if [ -f check.expected ] && ! cmp -s check.expected "$out"; then
    echo "stdout differs from $dir/check.expected (- expected, + got):"
    diff -u check.expected "$out" | tail -n +3
    fail=1
fi
rm -f "$out" "$err"
exit $fail
