#!/bin/sh
# make_graph.sh rr|mp LENGTH [KERNELS_DIR] - the task graph of the 1-D convolution of a
# LENGTH-sample signal with a 64-tap filter on the 8 DSPs of bwdsp-2board, in the round
# robin model (rr) or the matrix partition model (mp) of [CONV] (docs/references.md), on stdout.  KERNELS_DIR
# is the folder of conv1d_kernels.c as the graph names it (default "."; a graph written
# elsewhere needs `--kernel-path KERNELS_DIR` on tgc check, compile and run).  The graphs:
#   for n in 256 512 1024 2048 4096 8192; do
#       sh make_graph.sh rr $n > rr-$n.json; sh make_graph.sh mp $n > mp-$n.json; done
# Worker r is pinned to DSP r, the source and the collecting task to DSP 0 (the DSP that
# holds the data in the seed).  The cycles are the cost model of testcases/README.md.
set -eu
. "$(dirname "$0")/../graph.sh"
model=${1:-} n=${2:-} kdir=${3:-.}
p=8 taps=64
case "$model" in rr | mp) ;; *)
    echo "usage: make_graph.sh rr|mp LENGTH [KERNELS_DIR]" >&2
    exit 2
    ;;
esac
if [ -z "$n" ] || [ "$n" -lt 1 ]; then
    echo "make_graph.sh: LENGTH must be a positive integer" >&2
    exit 2
fi
ny=$((n + taps - 1))
if [ "$model" = rr ]; then
    iters=$(((ny + p - 1) / p))
    what="round robin: one round of $p outputs per iteration"
else
    iters=1
    what="matrix partition: $((taps / p)) taps per worker, one reduction"
fi
graph_head "conv1d-$model-$n" $iters bwdsp-2board conv1d \
    "y = x * h, $n samples, $taps taps, $p DSPs; $what (make_graph.sh)"
if [ "$model" = rr ]; then
    cat <<SRC
    { "id": "src", "kernel": "conv1d_rr_source", "dsp": 0,
      "params": { "length": $n, "procs": $p }, "cycles": "40 + cdiv(procs * procs, 8)" },
SRC
else
    cat <<SRC
    { "id": "src", "kernel": "conv1d_mp_source", "dsp": 0,
      "params": { "length": $n, "procs": $p }, "cycles": "40 + cdiv(procs * length, 8)" },
SRC
fi
r=0
while [ $r -lt $p ]; do
    if [ "$model" = rr ]; then
        cat <<W
    { "id": "w$r", "kernel": "conv1d_rr_worker", "dsp": $r,
      "params": { "rank": $r, "procs": $p, "taps": $taps },
      "cycles": "40 + cdiv(taps, 16) + cdiv(taps + procs + 1, 8)" },
W
    else
        cat <<W
    { "id": "w$r", "kernel": "conv1d_mp_worker", "dsp": $r,
      "params": { "rank": $r, "procs": $p, "taps": $taps, "length": $n },
      "cycles": "40 + cdiv(length * (taps / procs), 16) + cdiv(length + taps - 1, 8)" },
W
    fi
    r=$((r + 1))
done
if [ "$model" = rr ]; then
    cat <<SINK
    { "id": "gather", "kernel": "conv1d_rr_gather", "dsp": 0, "output": "conv1d.txt",
      "params": { "length": $n, "taps": $taps, "procs": $p }, "cycles": "40 + cdiv(procs, 8)" }
SINK
else
    cat <<SINK
    { "id": "reduce", "kernel": "conv1d_mp_reduce", "dsp": 0, "output": "conv1d.txt",
      "params": { "length": $n, "taps": $taps, "procs": $p },
      "cycles": "40 + cdiv((procs - 1) * (length + taps - 1), 16)" }
SINK
fi
edges_begin
sink=gather in=$((4 * p)) out=4
[ "$model" = mp ] && sink=reduce in=$((4 * n)) out=$((4 * ny))
r=0
while [ $r -lt $p ]; do
    edge src w$r $in
    r=$((r + 1))
done
r=0
while [ $r -lt $p ]; do
    edge w$r $sink $out
    r=$((r + 1))
done
edges_end
