#!/bin/sh
# make_graph.sh slice|fox [M K PRODUCTS [KERNELS_DIR]] - the task graph of C = A B, A M x K
# and B K x M, PRODUCTS iterations (a new A each), on the 8 DSPs of bwdsp-2board, by basic
# slicing or Fox-like, on stdout; M must be a multiple of 8.  The graphs here:
#   sh make_graph.sh slice 64 48 4 > slice.json; sh make_graph.sh fox 64 48 4 > fox.json
# KERNELS_DIR is the folder of the kernels as the graph names it (default "."; a graph
# written elsewhere needs `--kernel-path KERNELS_DIR` on tgc check, compile and run).
# Every task is pinned: the source and the gather task to DSP 0 (the DSP that holds the
# data in the seed), worker r (all its steps in Fox-like) to DSP r.  The cycles are the
# cost model of testcases/README.md.
set -eu
. "$(dirname "$0")/../graph.sh"
way=${1:-} m=${2:-64} k=${3:-48} products=${4:-4} kdir=${5:-.}
p=8
case "$way" in slice | fox) ;; *)
    echo "usage: make_graph.sh slice|fox [M K PRODUCTS [KERNELS_DIR]]" >&2
    exit 2
    ;;
esac
if [ $((m % p)) -ne 0 ]; then
    echo "make_graph.sh: M must be a multiple of $p" >&2
    exit 2
fi
rows=$((m / p))
what="basic slicing: every DSP holds B, DSP 0 sends the rows of A"
[ "$way" = fox ] && what="Fox-like: the column blocks of B go round the ring in $p steps"
graph_head "matmul-$way" $products bwdsp-2board matmul \
    "C = A B, A ${m}x${k}, B ${k}x${m}, on $p DSPs; $what (make_graph.sh)"
if [ "$way" = slice ]; then
    cat <<SRC
    { "id": "src", "kernel": "mm_slice_source", "dsp": 0,
      "params": { "m": $m, "k": $k, "procs": $p }, "cycles": "40 + cdiv(m * k, 8)" },
SRC
    r=0
    while [ $r -lt $p ]; do
        cat <<W
    { "id": "rows$r", "kernel": "mm_slice_rows", "dsp": $r,
      "params": { "first": $((r * rows)), "rows": $rows, "m": $m, "k": $k },
      "cycles": "40 + cdiv(rows * m * k, 16) + cdiv(rows * m, 8)" },
W
        r=$((r + 1))
    done
else
    cat <<SRC
    { "id": "src", "kernel": "mm_fox_source", "dsp": 0,
      "params": { "m": $m, "k": $k, "procs": $p }, "cycles": "40 + cdiv(2 * m * k, 8)" },
SRC
    s=0
    while [ $s -lt $p ]; do
        last=0
        [ $s -eq $((p - 1)) ] && last=1
        r=0
        while [ $r -lt $p ]; do
            cat <<W
    { "id": "fox${r}_$s", "kernel": "mm_fox_step", "dsp": $r,
      "params": { "rank": $r, "step": $s, "rows": $rows, "m": $m, "k": $k, "procs": $p, "last": $last },
      "cycles": "40 + cdiv(rows * rows * k, 16) + cdiv((1 - last) * 2 * rows * k + min(step, 1) * rows * m, 8)" },
W
            r=$((r + 1))
        done
        s=$((s + 1))
    done
fi
cat <<SINK
    { "id": "gather", "kernel": "mm_gather", "dsp": 0, "output": "matmul.txt",
      "params": { "m": $m, "procs": $p }, "cycles": "40 + cdiv(m * m, 8)" }
SINK
edges_begin
if [ "$way" = slice ]; then
    r=0
    while [ $r -lt $p ]; do
        edge src rows$r $((4 * rows * k))
        r=$((r + 1))
    done
    r=0
    while [ $r -lt $p ]; do
        edge rows$r gather $((4 * rows * m))
        r=$((r + 1))
    done
else
    r=0
    while [ $r -lt $p ]; do
        edge src fox${r}_0 $((8 * rows * k))
        r=$((r + 1))
    done
    # per step: every worker's edge to its own next step first, then the ring, so that
    # in[0] / out[0] of a step are its own chain and in[1] / out[1] the ring
    s=1
    while [ $s -lt $p ]; do
        r=0
        while [ $r -lt $p ]; do
            edge fox${r}_$((s - 1)) fox${r}_$s $((4 * rows * (k + m)))
            r=$((r + 1))
        done
        r=0
        while [ $r -lt $p ]; do
            edge fox${r}_$((s - 1)) fox$(((r + p - 1) % p))_$s $((4 * rows * k))
            r=$((r + 1))
        done
        s=$((s + 1))
    done
    r=0
    while [ $r -lt $p ]; do
        edge fox${r}_$((p - 1)) gather $((4 * rows * m))
        r=$((r + 1))
    done
fi
edges_end
