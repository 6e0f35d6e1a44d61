#!/bin/sh
# make_sdf.sh [M K PRODUCTS [KERNELS_DIR]] - the basic slicing of make_graph.sh as a
# multi-rate graph (docs/formats.md, "Multi-rate graphs"), on stdout: three actors.  The
# source produces 8 tokens a product, m/8 rows of A each; the worker actor takes one
# (8 firings, firing r pinned to DSP r as make_graph.sh pins worker r) and writes the
# same rows of C; the gather task takes the 8 tokens.  Its expansion (tgc expand) is
# make_graph.sh's slice graph with the same kernels, params, costs, bytes and pins, so
# the same checksums and the same matmul.txt.  slice-sdf.json is
#   sh make_sdf.sh 64 48 4 > slice-sdf.json
set -eu
. "$(dirname "$0")/../graph.sh"
m=${1:-64} k=${2:-48} products=${3:-4} kdir=${4:-.}
p=8
if [ $((m % p)) -ne 0 ]; then
    echo "make_sdf.sh: M must be a multiple of $p" >&2
    exit 2
fi
rows=$((m / p))
pins=0
r=1
while [ $r -lt $p ]; do
    pins="$pins, $r"
    r=$((r + 1))
done
graph_head matmul-slice-sdf $products bwdsp-2board matmul \
    "C = A B, A ${m}x${k}, B ${k}x${m}, on $p DSPs; basic slicing as a multi-rate graph: every DSP holds B, DSP 0 sends the rows of A, $rows to a firing of rows (make_sdf.sh; the kernel ignores first)"
cat <<GRAPH
    { "id": "src", "kernel": "mm_slice_source", "dsp": 0,
      "params": { "m": $m, "k": $k, "procs": $p }, "cycles": "40 + cdiv(m * k, 8)" },
    { "id": "rows", "kernel": "mm_slice_rows", "dsp": [$pins],
      "params": { "first": 0, "rows": $rows, "m": $m, "k": $k },
      "cycles": "40 + cdiv(rows * m * k, 16) + cdiv(rows * m, 8)" },
    { "id": "gather", "kernel": "mm_gather", "dsp": 0, "output": "matmul.txt",
      "params": { "m": $m, "procs": $p }, "cycles": "40 + cdiv(m * m, 8)" }
GRAPH
edges_begin
edge src rows $((4 * rows * k)) ", \"produce\": $p"
edge rows gather $((4 * rows * m)) ", \"consume\": $p"
edges_end
