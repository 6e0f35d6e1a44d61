#!/bin/sh
# make_graph.sh [IH IW CI KH KW IMAGES [KERNELS_DIR]] - the task graph of the im2col
# convolution of IMAGES images of IH x IW x CI with a KH x KW x CI kernel (VALID, stride
# 1) on the 8 DSPs of bwdsp-2board, on stdout; (IH-KH+1)(IW-KW+1) must be a multiple of
# 8.  conv2d.json is   sh make_graph.sh 36 36 3 5 5 4 > conv2d.json
# KERNELS_DIR is the folder of the kernels as the graph names it (default "."; a graph
# written elsewhere needs `--kernel-path KERNELS_DIR` on tgc check, compile and run).
# The source, im2col and gather are pinned to DSP 0 (the DSP that holds the data in the
# seed), worker r to DSP r.  The cycles are the cost model of testcases/README.md.
set -eu
. "$(dirname "$0")/../graph.sh"
ih=${1:-36} iw=${2:-36} ci=${3:-3} kh=${4:-5} kw=${5:-5} images=${6:-4} kdir=${7:-.}
p=8
oh=$((ih - kh + 1)) ow=$((iw - kw + 1))
kl=$((kh * kw * ci))
if [ "$oh" -lt 1 ] || [ "$ow" -lt 1 ] || [ $((oh * ow % p)) -ne 0 ]; then
    echo "make_graph.sh: the output must have a multiple of $p pixels" >&2
    exit 2
fi
rows=$((oh * ow / p))
graph_head conv2d $images bwdsp-2board conv2d \
    "${ih}x${iw}x${ci} * ${kh}x${kw}x${ci}, VALID, stride 1 -> ${oh}x${ow}, by im2col on $p DSPs, one image per iteration (make_graph.sh)"
cat <<HEAD
    { "id": "src", "kernel": "conv2d_source", "dsp": 0,
      "params": { "ih": $ih, "iw": $iw, "ci": $ci, "kl": $kl, "procs": $p },
      "cycles": "40 + cdiv(ih * iw * ci + procs * kl, 8)" },
    { "id": "im2col", "kernel": "conv2d_im2col", "dsp": 0,
      "params": { "ih": $ih, "iw": $iw, "ci": $ci, "kh": $kh, "kw": $kw, "procs": $p },
      "cycles": "40 + cdiv((ih - kh + 1) * (iw - kw + 1) * kh * kw * ci, 8)" },
HEAD
r=0
while [ $r -lt $p ]; do
    cat <<W
    { "id": "w$r", "kernel": "conv2d_gemv", "dsp": $r, "params": { "rows": $rows, "kl": $kl },
      "cycles": "40 + cdiv(rows * kl, 16) + cdiv(rows, 8)" },
W
    r=$((r + 1))
done
cat <<SINK
    { "id": "gather", "kernel": "conv2d_gather", "dsp": 0, "output": "conv2d.txt",
      "params": { "oh": $oh, "ow": $ow, "procs": $p }, "cycles": "40 + cdiv(oh * ow, 8)" }
SINK
edges_begin
edge src im2col $((4 * ih * iw * ci))
r=0
while [ $r -lt $p ]; do
    edge im2col w$r $((4 * rows * kl))
    edge src w$r $((4 * kl))
    r=$((r + 1))
done
r=0
while [ $r -lt $p ]; do
    edge w$r gather $((4 * rows))
    r=$((r + 1))
done
edges_end
