#!/bin/sh
# tests/run_harden.sh TGC TESTCASES - what tgc does with hostile inputs and outputs
# (docs/cli.md, docs/formats.md): names JSON cannot hold, kernel files outside the graph's
# folder, devices, FIFOs and symbolic links as outputs, partial projects, concurrent runs.
# Each check says what it expects; every failure is printed, the exit status is 1 if any.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tgc=$1
cases=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
out=$tmp/stdout err=$tmp/stderr

. "$here/expect.sh"

no() { # no WHAT COMMAND...: the command must fail
    what=$1
    shift
    if "$@"; then
        echo "FAIL: $what"
        fail=1
    fi
}

cd "$tmp" || exit 1
cp "$cases/chain4/chain4.json" chain4.json

# ---- names that JSON cannot hold: input errors, never an abort or a dropped field
bad=$(printf 'g\377.json')
cp chain4.json "$bad"
expect 1 "$bad: error: cannot read file: its name is not valid UTF-8" check --json "$bad"
[ -s "$out" ] && { echo "FAIL: check --json printed for a non-UTF-8 file name"; fail=1; }
expect 1 "$bad: error: cannot read file: its name is not valid UTF-8" schedule "$bad"
expect 2 "tgc: error: with --json, option values must be valid UTF-8, got \"p\\xff\"
run 'tgc help compile' for the options" compile chain4.json -o "$(printf 'p\377')" --json
[ -e "$(printf 'p\377')" ] && { echo "FAIL: compile wrote a project after a usage error"; fail=1; }

exit $fail
