#!/bin/sh
# repeat.sh TGC GRAPH N [TGC RUN OPTIONS]: builds GRAPH for --target threads once (tgc run
# --keep), then runs the parallel program N times: every run must end (60 s each, a
# hang fails) with the checksums of the sequential reference (tests/threads).
set -u
tgc=$1 graph=$2 n=$3
shift 3
dir=$(mktemp -d "${TMPDIR:-/tmp}/tgc-repeat-XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$tgc" run --target threads "$graph" --keep "$dir/p" "$@" >"$dir/run.txt" 2>&1 ||
    { cat "$dir/run.txt"; echo "FAIL tgc run"; exit 1; }
grep '^checksum' "$dir/p/sequential.out" >"$dir/want"
[ -s "$dir/want" ] || { echo "FAIL the sequential program printed no checksum"; exit 1; }
i=0 bad=0
while [ $i -lt "$n" ]; do
    timeout 60 "$dir/p/parallel" --platform "$dir/p/platform.json" --quiet \
        --output-dir "$dir/p/out-parallel" >"$dir/out" 2>"$dir/err"
    rc=$?
    if [ $rc -eq 124 ]; then
        echo "FAIL run $i hung"; bad=$((bad + 1))
    elif [ $rc -ne 0 ]; then
        echo "FAIL run $i: exit status $rc"; cat "$dir/err"; bad=$((bad + 1))
    elif ! grep '^checksum' "$dir/out" | cmp -s - "$dir/want"; then
        echo "FAIL run $i: checksums differ from the sequential program's"; bad=$((bad + 1))
    fi
    i=$((i + 1))
done
echo "$((n - bad)) passed, $bad failed"
[ $bad -eq 0 ]
