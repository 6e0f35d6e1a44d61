#!/bin/sh
# tests/run_progress.sh TGC TESTCASES - the progress line (tools/progress.c, docs/cli.md):
# on a terminal (script(1) gives tgc one), a step longer than a second shows
# "tgc: STEP ..." on stderr and erases it at the end; with --json, or when stderr is not
# a terminal, nothing of it is printed.  The long step: BFCO held for 2 s by --time-limit.
set -u
tgc=$1
cd "$2" || exit 1
fail=0
if ! command -v script >/dev/null 2>&1; then
    echo "SKIP: no script(1) to give tgc a terminal"
    exit 0
fi
out=$(mktemp) err=$(mktemp)
long="opt fir4/fir4.json --generations 1000000 --stall 0 --time-limit 2"
# on a terminal: the line appears, and is erased before the table
script -qec "$tgc $long" /dev/null >"$out" 2>&1 </dev/null
tr '\r' '\n' <"$out" >"$err"
grep -q "tgc: bfco: generation [0-9]*% ([0-9]*/1000000), [0-9]* s" "$err" ||
    { echo "FAIL: no progress line on a terminal"; fail=1; }
grep -q "^.*method *length" "$err" || { echo "FAIL: no result table"; fail=1; }
# the last progress line is erased (ESC [K) before the table is printed
awk '/tgc: bfco: generation/ {p = NR} /method *length/ {t = NR} END {exit !(p && t > p)}' \
    "$err" || { echo "FAIL: the table comes before the progress line"; fail=1; }
# --json on a terminal: no line
script -qec "$tgc $long --json" /dev/null >"$out" 2>&1 </dev/null
if grep -q "tgc: bfco" "$out"; then echo "FAIL: progress line with --json"; fail=1; fi
# stderr not a terminal: no line, no escape sequence
$tgc $long >/dev/null 2>"$err" || { echo "FAIL: tgc opt exits $?"; fail=1; }
if [ -s "$err" ]; then echo "FAIL: stderr not a terminal got: $(head -c 200 "$err")"; fail=1; fi
# BFCO's descent reports too (at 1500 tasks it lasts seconds: no swarm, no local search)
"$tgc" gen --tasks 1500 --seed 3 -o "$out.g.json" >/dev/null || { echo "FAIL: tgc gen"; fail=1; }
script -qec "$tgc opt $out.g.json --search-budget 0 --generations 1" /dev/null >"$out" 2>&1 </dev/null
tr '\r' '\n' <"$out" >"$err"
grep -q "tgc: bfco: descent, moves [0-9]*% ([0-9]*/[0-9]*), [0-9]* s" "$err" ||
    { echo "FAIL: no progress line in BFCO's descent"; fail=1; }
rm -f "$out" "$err" "$out.g.json"
[ $fail = 0 ] && echo "progress: ok"
exit $fail
