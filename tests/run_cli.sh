#!/bin/sh
# tests/run_cli.sh TGC TESTCASES - the conventions of the tgc command line (docs/cli.md):
# exit statuses, usage errors, --help, --version, "-" for stdin, "--", several files.
set -u
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
start "$@"
hint='run '\''tgc help check'\'' for the options'

expect 2 "tgc: error: unknown option \"--platfrom\" (did you mean \"--platform\"?)
$hint" check --platfrom bwdsp-2board chain4/chain4.json
expect 2 "tgc: error: unknown option \"-x\"
$hint" check -x chain4/chain4.json
expect 2 "tgc: error: option \"--dsps\" needs a value (N)
$hint" check chain4/chain4.json --dsps
expect 2 "tgc: error: option \"--dsps\" needs an integer, got \"four\"
$hint" check --dsps=four chain4/chain4.json
expect 2 "tgc: error: option \"--json\" takes no value
$hint" check --json=yes chain4/chain4.json
expect 2 "tgc: error: option \"--iterations\" must be at least 1, got 0
$hint" check --iterations 0 chain4/chain4.json
expect 2 "tgc: error: option \"--dsps\" must be at most 2147483647, got 5000000000
$hint" check --dsps 5000000000 chain4/chain4.json
expect 2 "tgc: error: option \"--iterations\" must be at most 9223372036854775807, got 99999999999999999999
$hint" check --iterations 99999999999999999999 chain4/chain4.json
expect 2 "tgc: error: option \"--iterations\" must be at least 1, got -99999999999999999999
$hint" check --iterations -99999999999999999999 chain4/chain4.json
expect 2 "tgc: error: --dsps 64 exceeds the limit of 32 DSPs (raise it with --max-dsps)
$hint" check --dsps 64 --max-dsps 32 chain4/chain4.json
expect 2 "tgc: error: missing operand (usage: tgc check [options] FILE...)
$hint" check
expect 2 "tgc: error: unknown command \"chek\" (did you mean \"check\"?)
run 'tgc --help' for the list of commands" chek chain4/chain4.json
expect 2 "tgc: error: unknown option \"--frobnicate\" (options follow the command)
run 'tgc --help' for the list of commands" --frobnicate
expect 1 "missing.json: error: cannot read file: No such file or directory" check missing.json
expect 1 "chain4: error: cannot read file: is a directory" check chain4

# Success: help, version, options in any order, "--", "-" for stdin, several files.
expect 0 "" --help
grep -q '^  check ' "$out" || { echo "FAIL: tgc --help lists no check"; fail=1; }
expect 0 "" help check
grep -q '^usage: tgc check \[options\] FILE...' "$out" || { echo "FAIL: tgc help check"; fail=1; }
expect 0 "" check --help
expect 0 "" --version
grep -q '^tgc [0-9]' "$out" || { echo "FAIL: tgc --version"; fail=1; }
expect 0 "" check chain4/chain4.json --dsps 8 --iterations=5
grep -q '^  platform       bwdsp-2board (bwdsp, 8 DSPs on 2 boards)$' "$out" ||
    { echo "FAIL: --dsps 8"; cat "$out"; fail=1; }
grep -q '^  iterations     5$' "$out" || { echo "FAIL: --iterations=5"; fail=1; }
expect 0 "" check --json -- - <chain4/chain4.json
grep -q '"file": "<stdin>"' "$out" || { echo "FAIL: stdin"; fail=1; }
expect 0 "" check --json worked/worked.json chain4/chain4.json
[ "$(grep -c '"file"' "$out")" -eq 2 ] && grep -q '^  "files": \[' "$out" ||
    { echo "FAIL: two files"; cat "$out"; fail=1; }
# One bad file among good ones: its errors, no summary, exit 1.
expect 1 "invalid/self-edge/input.json: /edges/0: error: edge from task \"a\" to itself" \
    check chain4/chain4.json invalid/self-edge/input.json
[ -s "$out" ] && { echo "FAIL: summary printed despite an error"; fail=1; }

exit $fail
