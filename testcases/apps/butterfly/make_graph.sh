#!/bin/sh
# make_graph.sh [N SUMS [KERNELS_DIR]] - the task graph of the butterfly sum of 8 vectors
# of N floats on the 8 DSPs of bwdsp-2board, SUMS iterations, on stdout.
# KERNELS_DIR is the folder of the kernels as the graph names it (default "."; a graph
# written elsewhere needs `--kernel-path KERNELS_DIR` on tgc check, compile and run).
# butterfly.json is   sh make_graph.sh 1024 8 > butterfly.json
# Task bf<r>_<s> (step s of DSP r) is pinned to DSP r; the last step of every DSP writes
# its sum to sum<r>.txt.  The cycles are the cost model of testcases/README.md.
set -eu
. "$(dirname "$0")/../graph.sh"
n=${1:-1024} sums=${2:-8} kdir=${3:-.}
p=8 steps=3
graph_head butterfly $sums bwdsp-2board butterfly \
    "the sum of $p vectors of $n floats by recursive doubling, $steps steps, every DSP ends with the sum (make_graph.sh)"
s=0
while [ $s -le $steps ]; do
    r=0
    while [ $r -lt $p ]; do
        outs=2
        [ $s -eq $steps ] && outs=0
        sep=","
        [ $s -eq $steps ] && [ $r -eq $((p - 1)) ] && sep=""
        if [ $s -eq 0 ]; then
            echo "    { \"id\": \"bf${r}_0\", \"kernel\": \"bf_init\", \"dsp\": $r,"
            echo "      \"params\": { \"rank\": $r, \"n\": $n, \"outs\": $outs }, \"cycles\": \"40 + cdiv(outs * n, 8)\" }$sep"
        else
            out=""
            [ $s -eq $steps ] && out=", \"output\": \"sum$r.txt\""
            echo "    { \"id\": \"bf${r}_$s\", \"kernel\": \"bf_step\", \"dsp\": $r$out,"
            echo "      \"params\": { \"n\": $n, \"outs\": $outs }, \"cycles\": \"40 + cdiv(n, 16) + cdiv(outs * n, 8)\" }$sep"
        fi
        r=$((r + 1))
    done
    s=$((s + 1))
done
edges_begin
# per step: every DSP's edge to its own next step first, then the exchange, so that in[0]
# and out[0] of a step are its own chain
s=1
while [ $s -le $steps ]; do
    bit=$((1 << (s - 1)))
    r=0
    while [ $r -lt $p ]; do
        edge bf${r}_$((s - 1)) bf${r}_$s $((4 * n))
        r=$((r + 1))
    done
    r=0
    while [ $r -lt $p ]; do
        edge bf${r}_$((s - 1)) bf$((r ^ bit))_$s $((4 * n))
        r=$((r + 1))
    done
    s=$((s + 1))
done
edges_end
