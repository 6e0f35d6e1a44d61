#!/bin/sh
# tests/run_invalid.sh TGC CASE_DIR - one golden bad input (testcases/invalid/<name>/).
#
# Runs `tgc check [ARGS] input.json` from the case's folder, where ARGS are the words of the
# optional file `args`, and checks that the exit status is 1 (or the one in the optional
# file `status`), that nothing was written to
# stdout and that stderr is exactly the file `error`.
set -u
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
dir=$2
start "$1" "$dir"
args=$(case_args)
# shellcheck disable=SC2086 # ARGS are words on purpose
"$tgc" check $args input.json >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
want=1 # or the status of the optional file `status` (2: a bad option value)
if [ -f status ]; then
    want=$(cat status)
fi
want_status "$rc" "$want"
want_empty "$tmp/stdout" stdout
want_same error "$tmp/stderr" stderr
exit $fail
