#!/bin/sh
# tests/run_valid.sh TGC CASE_DIR - a valid example graph (testcases/<name>/<name>.json).
#
# Runs `tgc check --json <name>.json` from the case's folder and checks that it succeeds
# with nothing on stderr and, when the folder has check.expected, that stdout is exactly
# that file (the summary: tasks, edges, total cycles, critical path ...).
set -u
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
dir=$2
name=$(basename "$dir")
start "$1" "$dir"
"$tgc" check --json "$name.json" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
want_status "$rc" 0
want_empty "$tmp/stderr" stderr
if [ -f check.expected ]; then
    want_same check.expected "$tmp/stdout" stdout
fi
exit $fail
