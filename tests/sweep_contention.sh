#!/bin/sh
# tests/sweep_contention.sh - the full-size check of the contended execution model:
# `tgc run` with contention (the default), simulated = predicted cycles EXACTLY, on every
# testcase and on SEEDS graphs of every `tgc gen` class on 1-, 2- and 4-board platforms,
# in every -O mode (none, ma, cp, bfco).  run_graphs fails a run on any difference.
#
#   tests/sweep_contention.sh BUILD [SEEDS [BLOCK [FIRST]]]
#
# BUILD is a build folder (build/tools/tgc and build/tests/run_graphs); SEEDS defaults to
# 200 (the full size), run in blocks of BLOCK seeds (default 10) starting at seed FIRST
# (default 1), each block with one seed of fft32 (the slow class), so that a partial run
# covers every class; the rest of fft32's seeds at the end.
# Output: one run_graphs summary per block (runs, refused, mean predicted, largest
# |simulated / predicted - 1| per class and platform) and the total; exit status 0 when
# every run of every block passed.  ctest runs a small version (run_contention*).
# Slow: about 12000 runs, hours on 2 cores (docs/evaluator.md, "End to end").
set -u
B=${1:?usage: sweep_contention.sh BUILD [SEEDS [BLOCK [FIRST]]]}
SEEDS=${2:-200}
BLOCK=${3:-10}
FIRST=${4:-1}
HERE=$(cd "$(dirname "$0")/.." && pwd)
TGC=$B/tools/tgc
RG=$B/tests/run_graphs
CHEAP=hi20,lo20,rand50,chain100
SLOW=fft32 # 223 tasks: about 20 times the CPU time of the others per graph
PLATFORMS=bwdsp-1board,bwdsp-2board,bwdsp-4board
: "${TGC_CFLAGS:=-std=c11 -O0 -Wall -Wextra -Wpedantic -Werror}"
export TGC_CFLAGS
status=0
gen() { # CLASSES FIRST N
    echo "== tgc gen $1, seeds $2 .. $(($2 + $3 - 1)), 1/2/4 boards, every mode"
    "$RG" --tgc "$TGC" --contention --gen "$1" --first-seed "$2" --gen-seeds "$3" \
        --platforms "$PLATFORMS" || status=1
}
echo "== testcases, every mode, with contention"
"$RG" --tgc "$TGC" --contention --testcases "$HERE/testcases" || status=1
# Block by block: BLOCK seeds of the quick classes and one seed of fft32, so that a
# partial run covers every class; then the fft32 seeds that are left.
s=$FIRST
f=$FIRST
end=$((FIRST + SEEDS))
while [ "$s" -lt "$end" ]; do
    n=$BLOCK
    [ $((s + n)) -gt "$end" ] && n=$((end - s))
    gen "$CHEAP" "$s" "$n"
    gen "$SLOW" "$f" 1
    s=$((s + n))
    f=$((f + 1))
done
while [ "$f" -lt "$end" ]; do
    gen "$SLOW" "$f" 1
    f=$((f + 1))
done
echo "== sweep $( [ $status = 0 ] && echo passed || echo FAILED )"
exit $status
