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
. "$(dirname "$0")/../graph.sh"
. "$(dirname "$0")/tasks.sh"
jpeg_args "$@"
name=jpeg-sdf
[ "$w" -eq 128 ] && [ "$h" -eq 128 ] || name="jpeg-sdf-${w}x${h}"
graph_head "$name" $frames bwdsp-1board jpeg \
    "baseline JPEG encoder, ${w}x${h}, 4:2:0, quality $q, one frame per iteration, as a multi-rate graph: $rows MCU rows a frame (make_sdf.sh)"
jpeg_source
jpeg_row ""
jpeg_sink
edges_begin
edge src color $((16 * w * 3)) ", \"produce\": $rows"
edge color dct_y $((16 * w))
edge color dct_cb $((4 * w))
edge color dct_cr $((4 * w))
edge dct_y huffman $((32 * w)) ", \"consume\": $rows"
edge dct_cb huffman $((8 * w)) ", \"consume\": $rows"
edge dct_cr huffman $((8 * w)) ", \"consume\": $rows"
edges_end
