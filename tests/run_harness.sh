#!/bin/sh
# tests/run_harness.sh RUN_GRAPHS - run_graphs itself (tests/run_graphs.c) against fake
# tgc programs: a refusal counts only when tgc prints exactly the deadlock diagnostic with
# exit status 1, and a suite refused beyond --max-refused fails; es's refusal is reported as
# such and never a pass; --cycle runs each graph once and fails a mode without a pass; a
# period below its bound, or a simulated period other than the predicted one, fails.
set -u
rg=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# fake NAME BODY: a tgc whose "run GRAPH -O MODE ..." does BODY ($graph and $mode set).
fake() {
    cat >"$tmp/$1" <<SCRIPT
#!/bin/sh
graph=\$2 mode=\$4
$2
SCRIPT
    chmod +x "$tmp/$1"
}
# run_json PERIOD BOUND SIMULATED: what tgc run prints, with these periods (cycles per 2
# iterations; SIMULATED null for none)
run_json() {
    echo 'echo "{\"checksums_equal\": true, \"outputs_equal\": true, \"simulated_cycles\": 5, \"predicted_cycles\": 5, \"packets\": 1, \"predicted_packets\": 1, \"period_exact\": {\"cycles\": '"$1"', \"iterations\": 2}, \"period_bound_exact\": {\"cycles\": '"$2"', \"iterations\": 2}, \"simulated_period_exact\": '"$3"'}"'
}
ok_json=$(run_json 9 7 '{\"cycles\": 18, \"iterations\": 4}')
refuse='echo "$graph: error: schedule deadlocks: DSP 0: RECV m0 (iteration 0) waits for DSP 1: RECV m1 (iteration 0)" >&2; exit 1'

# expect STATUS WHAT ARGS...: run_graphs' exit status.
expect() {
    want=$1 what=$2
    shift 2
    "$rg" "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: $what: run_graphs exit $rc, expected $want"
        cat "$tmp/out"
        fail=1
    fi
}

# A build that fails with a link error naming a deadlock function ran nothing: failure.
fake linkerr 'echo "/usr/bin/ld: tasks.o: undefined reference to \`report_deadlock'"'"'" >&2; exit 1'
expect 1 "a link error mentioning deadlock" --tgc "$tmp/linkerr" --random 2 --seed 1
grep -q "refused" "$tmp/out" && ! grep -q "0 refused" "$tmp/out" &&
    { echo "FAIL: the link error was counted as a refusal"; fail=1; }

# The exact refusal, but a second line on stderr: not a refusal.
fake extra "$refuse"'
echo "and something else" >&2'
expect 1 "a refusal with a second message" --tgc "$tmp/extra" --random 1 --seed 1

# The exact refusal with another exit status: not a refusal.
fake crash 'echo "$graph: error: schedule deadlocks: no DSP can advance" >&2; exit 134'
expect 1 "a refusal with exit status 134" --tgc "$tmp/crash" --random 1 --seed 1

# Every run refused: the suite tested nothing.
fake allrefuse "$refuse"
expect 1 "every run refused" --tgc "$tmp/allrefuse" --random 2 --seed 1

# One mode in four refused: passes under --max-refused 30, fails under the default 10.
fake onerefused 'if [ "$mode" = ma ]; then '"$refuse"'; fi
'"$ok_json"
expect 0 "a quarter refused, --max-refused 30" --tgc "$tmp/onerefused" --random 2 --seed 1 \
    --max-refused 30
grep -q "^8 runs, 0 failures, 2 refused" "$tmp/out" ||
    { echo "FAIL: the refusals were not counted"; cat "$tmp/out"; fail=1; }
expect 1 "a quarter refused, default share" --tgc "$tmp/onerefused" --random 2 --seed 1

# Nothing refused: passes.
fake good "$ok_json"
expect 0 "every run passes" --tgc "$tmp/good" --random 2 --seed 1
grep -q "^period >= period_bound on 8 runs (0 without a period); simulated period = predicted on 8" "$tmp/out" ||
    { echo "FAIL: the periods were not compared"; cat "$tmp/out"; fail=1; }

# A period below its bound (9/2 against 10/2), a simulated period that is not the
# predicted one (5/1 against 9/2): failures; no simulated period at all: a pass.
fake below "$(run_json 9 10 null)"
expect 1 "a period below its bound" --tgc "$tmp/below" --random 1 --seed 1
grep -q "the period is below its bound" "$tmp/out" ||
    { echo "FAIL: a period below its bound was not reported"; cat "$tmp/out"; fail=1; }
fake othersim "$(run_json 9 9 '{\"cycles\": 5, \"iterations\": 1}')"
expect 1 "a simulated period other than the predicted one" --tgc "$tmp/othersim" --random 1 --seed 1
fake nosim "$(run_json 9 9 null)"
expect 0 "no simulated period" --tgc "$tmp/nosim" --random 1 --seed 1

# --cycle: each graph once, the pairs in turn (6 graphs, 3 modes: each mode twice).
expect 0 "--cycle" --tgc "$tmp/good" --random 6 --seed 1 --modes none,ma,cp --cycle
grep -q "^6 runs, 0 failures" "$tmp/out" && grep -q "^own  *2  *2  *2$" "$tmp/out" ||
    { echo "FAIL: --cycle did not run each graph once, each mode twice"; cat "$tmp/out"; fail=1; }

# es's refusal of a graph beyond its limit: reported as tgc's refusal, never a pass.
es_refuse='echo "$graph: error: es: more than 1048576 configurations (merge partitions x pipeline subsets); raise the limit with --es-limit" >&2; exit 1'
fake esrefuse 'if [ "$mode" = es ]; then '"$es_refuse"'; fi
'"$ok_json"
expect 1 "es refused on every graph" --tgc "$tmp/esrefuse" --random 1 --seed 1 --modes es
grep -q "^refused .* -O es: tgc: es has more configurations" "$tmp/out" ||
    { echo "FAIL: es's refusal was not reported as a refusal"; cat "$tmp/out"; fail=1; }
# ... --cycle takes the graph's next pair, and the mode es covered by no pass fails
expect 1 "--cycle, es refused on every graph" --tgc "$tmp/esrefuse" --random 4 --seed 1 \
    --modes none,es --cycle
grep -q "^FAIL no pass of the random graphs on 0 ranks with -O es" "$tmp/out" &&
    grep -q "^8 runs, 1 failures, 0 refused by the compiler as deadlocking, 4 refused by es" \
        "$tmp/out" ||
    { echo "FAIL: --cycle counted es's refusals as passes"; cat "$tmp/out"; fail=1; }
# ... es refused except on graph 2: covered there
fake esrefuse2 'case "$graph" in *random002*) ;; *) if [ "$mode" = es ]; then '"$es_refuse"'; fi ;; esac
'"$ok_json"
expect 0 "--cycle, es refused except on one graph" --tgc "$tmp/esrefuse2" --random 4 \
    --seed 1 --modes none,es --cycle
grep -q "^own  *3  *1$" "$tmp/out" ||
    { echo "FAIL: --cycle did not cover es on the graph where it works"; cat "$tmp/out"; fail=1; }
# ... the message with another exit status is a failure
fake escrash 'if [ "$mode" = es ]; then echo "$graph: error: es: more than 1 configurations" >&2; exit 134; fi
'"$ok_json"
expect 1 "es's message with exit status 134" --tgc "$tmp/escrash" --random 2 --seed 1 \
    --modes none,es
exit $fail
