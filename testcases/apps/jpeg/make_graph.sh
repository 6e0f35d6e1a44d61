#!/bin/sh
# make_graph.sh [WIDTH HEIGHT FRAMES QUALITY [KERNELS_DIR]] - the task graph of the JPEG
# encoder for a WIDTH x HEIGHT image (multiples of 16), FRAMES iterations (one frame each)
# at QUALITY (1..100), on stdout.  KERNELS_DIR is the folder of jpeg_kernels.c as the
# graph names it (default ".": the graph sits beside the kernels; a graph written elsewhere
# needs `--kernel-path KERNELS_DIR` on tgc check, compile and run).  jpeg.json is
#   sh make_graph.sh 128 128 8 75 > jpeg.json
# Tasks: src; per MCU row r: color<r>, then dct_y<r>, dct_cb<r>, dct_cr<r>; huffman, the
# sink.  The cycles are the cost model of testcases/README.md, as expressions of params.
set -eu
. "$(dirname "$0")/../graph.sh"
. "$(dirname "$0")/tasks.sh"
jpeg_args "$@"
name=jpeg
[ "$w" -eq 128 ] && [ "$h" -eq 128 ] || name="jpeg-${w}x${h}"
graph_head "$name" $frames bwdsp-1board jpeg \
    "baseline JPEG encoder, ${w}x${h}, 4:2:0, quality $q, one frame per iteration (make_graph.sh)"
jpeg_source
r=0
while [ $r -lt $rows ]; do
    jpeg_row $r
    r=$((r + 1))
done
jpeg_sink
edges_begin
r=0
while [ $r -lt $rows ]; do
    edge src color$r $((16 * w * 3))
    edge color$r dct_y$r $((16 * w))
    edge color$r dct_cb$r $((4 * w))
    edge color$r dct_cr$r $((4 * w))
    r=$((r + 1))
done
r=0
while [ $r -lt $rows ]; do
    edge dct_y$r huffman $((32 * w))
    edge dct_cb$r huffman $((8 * w))
    edge dct_cr$r huffman $((8 * w))
    r=$((r + 1))
done
edges_end
