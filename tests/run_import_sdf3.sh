#!/bin/sh
# tests/run_import_sdf3.sh TGC CASE_DIR - one golden bad SDF3 graph
# (testcases/import/sdf3/invalid/<name>/).
#
# Runs `tgc import sdf3 [ARGS] input.xml -o out.json` from the case's folder, where ARGS
# are the words of the optional file `args`, and checks that the exit status is 1, that
# nothing was written (no out.json, empty stdout) and that stderr is exactly the file
# `error`.
set -u
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
dir=$2
start "$1" "$dir"
args=$(case_args)
# shellcheck disable=SC2086 # ARGS are words on purpose
"$tgc" import sdf3 $args input.xml -o "$tmp/out.json" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
want_status "$rc" 1
if [ -e "$tmp/out.json" ]; then
    echo "out.json was written"
    fail=1
fi
want_empty "$tmp/stdout" stdout
want_same error "$tmp/stderr" stderr
exit $fail
