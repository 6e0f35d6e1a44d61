#!/bin/sh
# tests/mpi/calibrate.sh TGC IMPL SOURCE_DIR - the host costs of tgc calibrate --graphs:
# the sequential program under TGC_KERNEL_TIMES writes one line per task with its calls
# (one per iteration) and the host time of its kernel; tgc
# calibrate --target IMPL -n 2 --graphs writes the platform and reports, for the FIR
# filter (kernels that do real work) and chain4 (synthetic kernels), the prediction
# with the graph's costs and with host costs and a measured time for each.
set -u
tgc=$1 impl=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
fir=$src/testcases/fir4/fir4.json
# 1. the kernel times of the sequential program (6 tasks, 256 iterations)
TGC_KERNEL_TIMES=$tmp/kt.txt "$tgc" run "$fir" --no-contention --json >"$tmp/run.json" ||
    { echo "FAIL: tgc run fir4"; fail=1; }
if [ "$(grep -c '^task [0-9]* calls 256 seconds [0-9.]* cycles [1-9][0-9]*$' "$tmp/kt.txt")" != 6 ]; then
    echo "FAIL: the kernel times are not one line per task with 256 calls:"
    cat "$tmp/kt.txt"
    fail=1
fi
awk '$6 <= 0 { bad = 1 } END { exit bad }' "$tmp/kt.txt" ||
    { echo "FAIL: a kernel took no host time"; cat "$tmp/kt.txt"; fail=1; }
# 2. tgc calibrate with the two graphs
"$tgc" calibrate --target "$impl" -n 2 --reps 10 --runs 1 -o "$tmp/platform.json" \
    --graphs "$fir,$src/testcases/chain4/chain4.json" >"$tmp/cal.txt" 2>&1 ||
    { echo "FAIL: tgc calibrate exit status $?"; cat "$tmp/cal.txt"; fail=1; }
grep -q '"format": "tgc-platform/1"' "$tmp/platform.json" ||
    { echo "FAIL: no platform written"; fail=1; }
for g in fir4 chain4; do
    # graph predicted measured | raised predicted measured error
    line=$(grep "testcases/$g/$g.json " "$tmp/cal.txt")
    echo "$line" | awk -v n="$([ $g = fir4 ] && echo 6 || echo 4)" \
        '$2 > 0 && $3 > 0 && $4 == "|" && $5 >= 0 && $5 <= n && $6 > 0 && $7 > 0 { ok = 1 }
         END { exit !ok }' ||
        { echo "FAIL: $g: no prediction and measurement with both costs"; cat "$tmp/cal.txt"; fail=1; }
done
grep -q "mean |error|" "$tmp/cal.txt" || { echo "FAIL: no mean error"; fail=1; }
[ $fail = 0 ] && cat "$tmp/cal.txt"
exit $fail
