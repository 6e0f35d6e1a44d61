#!/bin/sh
# tests/run_valid.sh TGC CASE_DIR - a valid example graph (testcases/<name>/<name>.json).
#
# Runs `tgc check --json <name>.json` from the case's folder and checks that it succeeds
# with nothing on stderr and, when the folder has check.expected, that stdout is exactly
# that file (the summary: tasks, edges, total cycles, critical path ...).
set -u
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
tgc=$1
dir=$2
name=$(basename "$dir")
cd "$dir" || exit 1
out=$(mktemp) err=$(mktemp)
"$tgc" check --json "$name.json" >"$out" 2>"$err"
rc=$?
fail=0
want_status "$rc" 0
want_empty "$err" stderr
if [ -f check.expected ]; then
    want_same check.expected "$out" stdout
fi
rm -f "$out" "$err"
exit $fail
