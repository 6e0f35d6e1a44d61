#!/bin/sh
# make_graph.sh [WIDTH HEIGHT FRAMES QUALITY [KERNELS_DIR]] - the task graph of the JPEG
# encoder for a WIDTH x HEIGHT image (multiples of 16), FRAMES iterations (one frame each)
# at QUALITY (1..100), on stdout.  KERNELS_DIR is the folder of jpeg_kernels.c as the
# graph names it (default ".": the graph sits beside the kernels).  jpeg.json is
#   sh make_graph.sh 128 128 8 75 > jpeg.json
# Tasks: src; per MCU row r: color<r>, then dct_y<r>, dct_cb<r>, dct_cr<r>; huffman, the
# sink.  The cycles are the cost model of testcases/README.md, as expressions of params.
set -eu
w=${1:-128} h=${2:-128} frames=${3:-8} q=${4:-75} kdir=${5:-.}
if [ $((w % 16)) -ne 0 ] || [ $((h % 16)) -ne 0 ] || [ "$w" -lt 16 ] || [ "$h" -lt 16 ]; then
    echo "make_graph.sh: the width and the height must be multiples of 16" >&2
    exit 2
fi
rows=$((h / 16))
name=jpeg
[ "$w" -eq 128 ] && [ "$h" -eq 128 ] || name="jpeg-${w}x${h}"
cat <<HEAD
{
  "format": "tgc-graph/1",
  "name": "$name",
  "iterations": $frames,
  "platform": "bwdsp-1board",
  "kernels": { "source": "$kdir/jpeg_kernels.c", "header": "$kdir/jpeg_kernels.h" },
  "x-comment": "baseline JPEG encoder, ${w}x${h}, 4:2:0, quality $q, one frame per iteration (make_graph.sh)",
  "tasks": [
    { "id": "src", "kernel": "jpeg_source", "params": { "width": $w, "height": $h },
      "cycles": "40 + cdiv(width * height * 3, 32)" },
HEAD
r=0
while [ $r -lt $rows ]; do
    cat <<ROW
    { "id": "color$r", "kernel": "jpeg_color", "params": { "width": $w },
      "cycles": "40 + cdiv(128 * width, 16) + cdiv(6 * width, 8)" },
    { "id": "dct_y$r", "kernel": "jpeg_fdct",
      "params": { "comp": 0, "cols": $((w / 8)), "brows": 2, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
    { "id": "dct_cb$r", "kernel": "jpeg_fdct",
      "params": { "comp": 1, "cols": $((w / 16)), "brows": 1, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
    { "id": "dct_cr$r", "kernel": "jpeg_fdct",
      "params": { "comp": 2, "cols": $((w / 16)), "brows": 1, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
ROW
    r=$((r + 1))
done
cat <<TAIL
    { "id": "huffman", "kernel": "jpeg_huffman",
      "params": { "width": $w, "height": $h, "quality": $q },
      "cycles": "40 + 609 + width * height * 3 / 128 * (64 + 8 * 9)", "output": "jpeg.jpg" }
  ],
  "edges": [
TAIL
r=0
sep=","
while [ $r -lt $rows ]; do
    cat <<ROW
    { "from": "src", "to": "color$r", "bytes": $((16 * w * 3)) },
    { "from": "color$r", "to": "dct_y$r", "bytes": $((16 * w)) },
    { "from": "color$r", "to": "dct_cb$r", "bytes": $((4 * w)) },
    { "from": "color$r", "to": "dct_cr$r", "bytes": $((4 * w)) },
ROW
    r=$((r + 1))
done
r=0
while [ $r -lt $rows ]; do
    [ $r -eq $((rows - 1)) ] && sep=""
    cat <<ROW
    { "from": "dct_y$r", "to": "huffman", "bytes": $((32 * w)) },
    { "from": "dct_cb$r", "to": "huffman", "bytes": $((8 * w)) },
    { "from": "dct_cr$r", "to": "huffman", "bytes": $((8 * w)) }$sep
ROW
    r=$((r + 1))
done
cat <<TAIL
  ]
}
TAIL
