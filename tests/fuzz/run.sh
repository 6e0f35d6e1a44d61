#!/bin/sh
# tests/fuzz/run.sh [-j N] SECONDS [TARGET...] - builds the libFuzzer targets of the readers
# and runs each for SECONDS (docs/testing.md).
#
#   TARGET   graph, platform, schedule, stg, dot, sdf3 (default: all six)
#   -j N     run N targets at a time (default 1)
#
# The build is build-fuzz/ at the top of the repository (TGC_FUZZ_BUILD overrides it),
# configured with CC=clang -DTGC_FUZZ=ON when it does not exist yet.  Each target starts
# from the files of testcases/ in its format and from tests/fuzz/corpus/TARGET/ (read
# only); the inputs it finds go to BUILD/fuzz/TARGET/corpus, a crash, leak, sanitizer
# report, timeout (10 s for one input) or out-of-memory (2 GB) to BUILD/fuzz/TARGET/ with
# the log BUILD/fuzz/TARGET/log.  Prints one line per target with its number of
# executions; exit status 1 when any target failed, 2 for bad usage.
set -eu

usage() {
    echo "usage: tests/fuzz/run.sh [-j N] SECONDS [graph|platform|schedule|stg|dot|sdf3...]" >&2
    exit 2
}
jobs=1
if [ "${1:-}" = "-j" ]; then
    [ $# -ge 2 ] || usage
    jobs=$2
    shift 2
fi
[ $# -ge 1 ] || usage
secs=$1
shift
case $secs in '' | *[!0-9]*) usage ;; esac
case $jobs in '' | *[!0-9]* | 0) usage ;; esac
all="graph platform schedule stg dot sdf3"
targets=${*:-$all}
for t in $targets; do
    case " $all " in *" $t "*) ;; *) echo "run.sh: unknown target \"$t\" (the targets: $all)" >&2; exit 2 ;; esac
done

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/tests/fuzz
build=${TGC_FUZZ_BUILD:-$root/build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=${CC:-clang} cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DTGC_FUZZ=ON >/dev/null
fi
cmake --build "$build" --target fuzz -j"$(nproc 2>/dev/null || echo 2)" >/dev/null

# The files of testcases/ in the format of target $1, one per line.
seeds() {
    case $1 in
    graph) grep -rl --include='*.json' '"tgc-graph/1"' "$root/testcases" ;;
    platform) grep -rl --include='*.json' '"tgc-platform/1"' "$root/testcases" ;;
    schedule) grep -rl --include='*.json' '"tgc-schedule/1"' "$root/testcases" ;;
    stg) find "$root/testcases" -name '*.stg' ;;
    dot) find "$root/testcases" -name '*.dot' ;;
    sdf3) find "$root/testcases" -name '*.xml' ;;
    esac
}

# Runs target $1; its summary line goes to BUILD/fuzz/$1/summary.
run_one() {
    t=$1 w=$build/fuzz/$1
    rm -rf "$w/seeds" "$w/tmp"
    mkdir -p "$w/seeds" "$w/corpus" "$w/tmp" "$here/corpus/$t"
    # seeds above 64 KiB are left out: they slow every mutation down and add no coverage
    seeds "$t" | while read -r f; do
        if [ "$(wc -c <"$f")" -le 65536 ]; then
            cp "$f" "$w/seeds/$(echo "${f#"$root"/}" | tr / _)"
        fi
    done
    dict=
    case $t in graph | platform | schedule) dict=-dict=$here/json.dict ;; dot) dict=-dict=$here/dot.dict ;; sdf3) dict=-dict=$here/xml.dict ;; esac
    set +e
    # shellcheck disable=SC2086 # $dict is one word or none
    TMPDIR=$w/tmp "$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 $dict \
        -artifact_prefix="$w/" "$w/corpus" "$here/corpus/$t" "$w/seeds" >"$w/log" 2>&1
    rc=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        echo "$t: ${runs:-?} executions in $secs s, no crash, hang, leak or sanitizer report" >"$w/summary"
    else
        echo "$t: FAILED (exit status $rc) after ${runs:-?} executions; log: $w/log" >"$w/summary"
        grep -m 1 -E "ERROR|fuzz: |Test unit written" "$w/log" >>"$w/summary" || true
    fi
    return $rc
}

fail=0
set -- $targets
while [ $# -gt 0 ]; do
    pids=
    batch=
    n=0
    while [ $# -gt 0 ] && [ $n -lt "$jobs" ]; do
        run_one "$1" &
        pids="$pids $!"
        batch="$batch $1"
        n=$((n + 1))
        shift
    done
    for p in $pids; do
        wait "$p" || fail=1
    done
    for t in $batch; do
        cat "$build/fuzz/$t/summary"
    done
done
exit $fail
