#!/bin/sh
# make_sdf.sh [WIDTH HEIGHT FRAMES QUALITY [KERNELS_DIR]] - the JPEG encoder of
# make_graph.sh as a multi-rate graph (docs/formats.md, "Multi-rate graphs"), on stdout:
# six actors instead of the 2 + 4 x HEIGHT/16 tasks make_graph.sh writes by hand.  The
# source fires once per frame and produces one token per MCU row (16 pixel rows), which
# color, dct_y, dct_cb and dct_cr take one at a time (HEIGHT/16 firings each); the sink
# consumes them all.  Its expansion (tgc expand) is make_graph.sh's graph: the same
# kernels with the same params, costs and bytes, so the same checksums and the same
# jpeg.jpg.  jpeg-sdf.json is   sh make_sdf.sh 128 128 8 75 > jpeg-sdf.json
set -eu
w=${1:-128} h=${2:-128} frames=${3:-8} q=${4:-75} kdir=${5:-.}
if [ $((w % 16)) -ne 0 ] || [ $((h % 16)) -ne 0 ] || [ "$w" -lt 16 ] || [ "$h" -lt 16 ]; then
    echo "make_sdf.sh: the width and the height must be multiples of 16" >&2
    exit 2
fi
rows=$((h / 16))
name=jpeg-sdf
[ "$w" -eq 128 ] && [ "$h" -eq 128 ] || name="jpeg-sdf-${w}x${h}"
cat <<GRAPH
{
  "format": "tgc-graph/1",
  "name": "$name",
  "iterations": $frames,
  "platform": "bwdsp-1board",
  "kernels": { "source": "$kdir/jpeg_kernels.c", "header": "$kdir/jpeg_kernels.h" },
  "x-comment": "baseline JPEG encoder, ${w}x${h}, 4:2:0, quality $q, one frame per iteration, as a multi-rate graph: $rows MCU rows a frame (make_sdf.sh)",
  "tasks": [
    { "id": "src", "kernel": "jpeg_source", "params": { "width": $w, "height": $h },
      "cycles": "40 + cdiv(width * height * 3, 32)" },
    { "id": "color", "kernel": "jpeg_color", "params": { "width": $w },
      "cycles": "40 + cdiv(128 * width, 16) + cdiv(6 * width, 8)" },
    { "id": "dct_y", "kernel": "jpeg_fdct",
      "params": { "comp": 0, "cols": $((w / 8)), "brows": 2, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
    { "id": "dct_cb", "kernel": "jpeg_fdct",
      "params": { "comp": 1, "cols": $((w / 16)), "brows": 1, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
    { "id": "dct_cr", "kernel": "jpeg_fdct",
      "params": { "comp": 2, "cols": $((w / 16)), "brows": 1, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
    { "id": "huffman", "kernel": "jpeg_huffman",
      "params": { "width": $w, "height": $h, "quality": $q },
      "cycles": "40 + 609 + width * height * 3 / 128 * (64 + 8 * 9)", "output": "jpeg.jpg" }
  ],
  "edges": [
    { "from": "src", "to": "color", "bytes": $((16 * w * 3)), "produce": $rows },
    { "from": "color", "to": "dct_y", "bytes": $((16 * w)) },
    { "from": "color", "to": "dct_cb", "bytes": $((4 * w)) },
    { "from": "color", "to": "dct_cr", "bytes": $((4 * w)) },
    { "from": "dct_y", "to": "huffman", "bytes": $((32 * w)), "consume": $rows },
    { "from": "dct_cb", "to": "huffman", "bytes": $((8 * w)), "consume": $rows },
    { "from": "dct_cr", "to": "huffman", "bytes": $((8 * w)), "consume": $rows }
  ]
}
GRAPH
