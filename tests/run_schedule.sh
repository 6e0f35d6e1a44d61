#!/bin/sh
# tests/run_schedule.sh TGC TESTCASES - `tgc schedule` and `tgc import` through the binary:
# the schedule file's byte-identical round trip (--from), the dot and Gantt outputs, the
# --json fields, the text summary (and tgc run's DSP table), and that a failed run writes
# no file.
set -u
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
start "$@"

# Schedule, write all three outputs, read the schedule back, write it again: same bytes.
check "schedule fir4" "$tgc" schedule fir4/fir4.json -o "$tmp/a.json" --dot "$tmp/a.dot" \
    --gantt "$tmp/a.svg" --search-budget 20
check "schedule --from" "$tgc" schedule --from "$tmp/a.json" -o "$tmp/b.json" --json \
    --dot "$tmp/b.dot"
check "round trip is byte-identical" cmp -s "$tmp/a.json" "$tmp/b.json"
check "the dot of the read-back schedule is the same" cmp -s "$tmp/a.dot" "$tmp/b.dot"
# The worked example of docs/design.md section 3: the golden file (also check_backend's, built
# there from the times worked out by hand).
check "schedule worked" "$tgc" schedule worked/worked.json -o "$tmp/worked.json"
check "worked example matches its golden schedule" cmp -s "$tmp/worked.json" \
    schedule/worked.json
# from another folder: kernel paths are relative to the schedule file
mkdir "$tmp/sub"
(cd "$tmp/sub" && "$tgc" schedule --from ../a.json -o ../c.json >/dev/null) ||
    { echo "FAIL: --from in another folder"; fail=1; }
check "round trip from another folder" cmp -s "$tmp/a.json" "$tmp/c.json"

# An optimised schedule (aggregated, pipelined) read back from another folder: same bytes.
check "opt -o" "$tgc" opt fir4/fir4.json --method bfco -o "$tmp/opt.json"
(cd "$tmp/sub" && "$tgc" schedule --from ../opt.json -o ../opt2.json >/dev/null) ||
    { echo "FAIL: --from an optimised schedule"; fail=1; }
check "optimised schedule round trip" cmp -s "$tmp/opt.json" "$tmp/opt2.json"
grep -q '"pipelined": true' "$tmp/opt.json" || { echo "FAIL: no pipelined receive"; fail=1; }

# The text summary: a line per DSP with work, one for a run of idle DSPs (chain4's four
# tasks on 16 DSPs: DSPs 4-15 idle).
"$tgc" schedule chain4/chain4.json --platform bwdsp-4board >"$tmp/text.out" ||
    { echo "FAIL: schedule chain4 on bwdsp-4board"; fail=1; }
[ "$(grep -c '^  DSP [0-9]  *busy ' "$tmp/text.out")" -eq 4 ] &&
    grep -qx '  DSPs 4-15        idle: no tasks, no messages' "$tmp/text.out" &&
    [ "$(grep -c '^  DSP' "$tmp/text.out")" -eq 5 ] ||
    { echo "FAIL: the DSP lines of the summary:"; cat "$tmp/text.out"; fail=1; }

# tgc run's table likewise: worked's two tasks on DSPs 0 and 1, DSPs 2-3 idle.
"$tgc" run worked/worked.json -O cp --no-contention >"$tmp/run.out" ||
    { echo "FAIL: run worked"; fail=1; }
grep -qx '  2-3 idle' "$tmp/run.out" && [ "$(grep -c '^  *[0-9][0-9]* ' "$tmp/run.out")" -eq 2 ] ||
    { echo "FAIL: the DSP table of tgc run:"; cat "$tmp/run.out"; fail=1; }

# --json: schedule_length equals the file's predicted length.
"$tgc" schedule --from "$tmp/a.json" --json >"$tmp/summary.json"
len=$(sed -n 's/^  "schedule_length": \([0-9]*\),$/\1/p' "$tmp/summary.json")
want=$(sed -n 's/^    "schedule_length": \([0-9]*\),$/\1/p' "$tmp/a.json")
[ -n "$len" ] && [ "$len" = "$want" ] ||
    { echo "FAIL: --json schedule_length \"$len\", file has \"$want\""; fail=1; }
grep -q '"critical_path": {' "$tmp/summary.json" || { echo "FAIL: no critical_path"; fail=1; }

# The pictures: the SVG is an SVG with a lane per DSP; dot renders the graph.
head -c 5 "$tmp/a.svg" | grep -q '^<svg ' || { echo "FAIL: gantt is not an SVG"; fail=1; }
for d in 0 1 2 3; do
    grep -q "class=\"lane\">DSP $d (" "$tmp/a.svg" || { echo "FAIL: no lane DSP $d"; fail=1; }
done
[ "$(grep -c 'subgraph cluster_dsp' "$tmp/a.dot")" -eq 4 ] ||
    { echo "FAIL: the dot has not 4 DSP clusters"; fail=1; }
if command -v dot >/dev/null 2>&1; then
    check "dot -Tsvg renders the schedule" dot -Tsvg -o "$tmp/a.dot.svg" "$tmp/a.dot"
fi

# A failed run writes nothing (a graph with a zero-delay cycle is bad input).
"$tgc" schedule invalid/cycle-of-three/input.json -o "$tmp/x.json" --dot "$tmp/x.dot" \
    --gantt "$tmp/x.svg" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: bad graph: exit $rc, expected 1"; fail=1; }
[ -e "$tmp/x.json" ] || [ -e "$tmp/x.dot" ] || [ -e "$tmp/x.svg" ] &&
    { echo "FAIL: a failed schedule wrote a file"; fail=1; }
# One output that cannot be written: none is written.
"$tgc" schedule fir4/fir4.json -o "$tmp/y.json" --dot "$tmp/no/such/dir/y.dot" \
    >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/y.json" ] ||
    { echo "FAIL: an unwritable --dot: exit $rc, or -o written anyway"; fail=1; }

# A schedule file whose order deadlocks (DSP 0 receives from DSP 1 before it sends to it):
# the cycle is reported, exit 1, no file.
err=$("$tgc" schedule --from schedule/deadlock.json -o "$tmp/d.json" --gantt "$tmp/d.svg" 2>&1)
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/d.json" ] && [ ! -e "$tmp/d.svg" ] ||
    { echo "FAIL: deadlocking schedule: exit $rc"; fail=1; }
case $err in
*"schedule deadlocks: DSP 0: RECV m1"*) ;;
*) echo "FAIL: deadlock message: $err"; fail=1 ;;
esac
for args in "" "--algo xx fir4/fir4.json" "fir4/fir4.json --from $tmp/a.json" \
    "--from $tmp/a.json --dsps 8" "fir4/fir4.json -o - --dot -"; do
    # shellcheck disable=SC2086
    "$tgc" schedule $args >/dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: tgc schedule $args: exit $rc, expected 2"; fail=1; }
done

# Import: stg and dot to tgc-graph/1, then schedule the result on 3 abstract DSPs.
check "import stg" "$tgc" import stg import/small.stg -o "$tmp/small.json" --dsps 3
check "schedule the imported graph" "$tgc" schedule "$tmp/small.json" -o "$tmp/s.json"
grep -q '"dsps": 3' "$tmp/s.json" || { echo "FAIL: imported platform"; fail=1; }
"$tgc" import dot import/small.dot >"$tmp/dot.json" || { echo "FAIL: import dot"; fail=1; }
grep -q '"bytes": 7' "$tmp/dot.json" || { echo "FAIL: dot edge weights"; fail=1; }
err=$("$tgc" import stg import/bad_number.stg -o "$tmp/bad.json" 2>&1)
rc=$?
[ "$rc" -eq 1 ] && [ "$err" = 'import/bad_number.stg:4:6: error: expected an integer, found "x"' ] ||
    { echo "FAIL: import error: exit $rc: $err"; fail=1; }
[ -e "$tmp/bad.json" ] && { echo "FAIL: a failed import wrote a file"; fail=1; }
"$tgc" import csv import/small.stg >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown format is not a usage error"; fail=1; }

# --search-objective (docs/scheduler.md): on chain4 the default (pipelined) objective puts
# one stage on each DSP, which cp then makes shorter than what the plain objective keeps.
cplen() { # OBJECTIVE: tgc opt --method cp's schedule_length of chain4
    "$tgc" opt chain4/chain4.json --method cp --json --search-objective "$1" |
        sed -n 's/^      "schedule_length": \([0-9]*\),$/\1/p'
}
piped=$(cplen pipelined)
plain=$(cplen plain)
[ -n "$piped" ] && [ -n "$plain" ] && [ "$piped" -lt "$plain" ] ||
    { echo "FAIL: cp after the pipelined objective \"$piped\", after plain \"$plain\""; fail=1; }
"$tgc" schedule chain4/chain4.json --json >"$tmp/chain.json"
[ "$(grep -c '"tasks": \[$' "$tmp/chain.json")" -eq 4 ] &&
    ! grep -q '"tasks": \[\]' "$tmp/chain.json" ||
    { echo "FAIL: chain4 is not one stage per DSP"; fail=1; }
"$tgc" schedule chain4/chain4.json --search-objective=fast >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: a bad --search-objective is not a usage error"; fail=1; }

# tgc compile runs the table passes/passes.def: --time-passes prints a line per pass of the
# table (and the load), --dump-after=optimize writes the schedule beside the project as
# DIR.after-optimize.json, a schedule that --from reads back (from another folder too),
# and neither option changes the project.
names=$(sed -n 's/^PASS(\([a-z_]*\),.*/\1/p' ../passes/passes.def)
[ -n "$names" ] || { echo "FAIL: no pass in passes/passes.def"; fail=1; }
check "compile" "$tgc" compile fir4/fir4.json -o "$tmp/p1"
"$tgc" compile fir4/fir4.json -o "$tmp/p2" --time-passes \
    --dump-after=optimize >/dev/null 2>"$tmp/time.txt" ||
    { echo "FAIL: compile --time-passes --dump-after=optimize"; fail=1; }
for n in load $names; do
    [ "$(grep -c "^tgc: time-passes: $n  *[0-9][0-9.]* ms\$" "$tmp/time.txt")" -eq 1 ] ||
        { echo "FAIL: --time-passes has no line for \"$n\":"; cat "$tmp/time.txt"; fail=1; }
done
check "--time-passes and --dump-after do not change the project" diff -r "$tmp/p1" "$tmp/p2"
(cd "$tmp/sub" && "$tgc" schedule --from ../p2.after-optimize.json -o ../dump2.json \
    >/dev/null) || { echo "FAIL: --from the --dump-after=optimize file"; fail=1; }
check "the dump reads back byte-identical" cmp -s "$tmp/p2.after-optimize.json" \
    "$tmp/dump2.json"
"$tgc" compile fir4/fir4.json -o "$tmp/p3" --dump-after=bogus >/dev/null 2>"$tmp/err.txt"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/p3" ] || { echo "FAIL: --dump-after=bogus: exit $rc"; fail=1; }
grep -q 'unknown pass "bogus"' "$tmp/err.txt" ||
    { echo "FAIL: --dump-after=bogus message:"; cat "$tmp/err.txt"; fail=1; }
"$tgc" compile fir4/fir4.json -o "$tmp/p3" --dump-after=optimise 2>&1 |
    grep -q '(did you mean "optimize"?)' || { echo "FAIL: no hint for optimise"; fail=1; }

exit $fail
