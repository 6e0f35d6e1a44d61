# testcases/apps/jpeg/tasks.sh - the tasks of the JPEG encoder, which make_graph.sh
# writes once per MCU row and make_sdf.sh once as actors: the same kernels, params and
# costs (so that make_sdf.sh's expansion is make_graph.sh's graph), and their arguments.
# Sourced after graph.sh.

# jpeg_args [WIDTH HEIGHT FRAMES QUALITY [KERNELS_DIR]]: the arguments of both scripts
# into w, h, frames, q, kdir and rows (MCU rows of a frame); exits 2 on bad sizes.
jpeg_args() {
    w=${1:-128} h=${2:-128} frames=${3:-8} q=${4:-75} kdir=${5:-.}
    if [ $((w % 16)) -ne 0 ] || [ $((h % 16)) -ne 0 ] || [ "$w" -lt 16 ] || [ "$h" -lt 16 ]; then
        echo "${0##*/}: the width and the height must be multiples of 16" >&2
        exit 2
    fi
    rows=$((h / 16))
}

# jpeg_source: the source task, src.
jpeg_source() {
    cat <<SRC
    { "id": "src", "kernel": "jpeg_source", "params": { "width": $w, "height": $h },
      "cycles": "40 + cdiv(width * height * 3, 32)" },
SRC
}

# jpeg_row SUFFIX: the tasks of an MCU row, colorSUFFIX, dct_ySUFFIX, dct_cbSUFFIX and
# dct_crSUFFIX.
jpeg_row() {
    cat <<ROW
    { "id": "color$1", "kernel": "jpeg_color", "params": { "width": $w },
      "cycles": "40 + cdiv(128 * width, 16) + cdiv(6 * width, 8)" },
    { "id": "dct_y$1", "kernel": "jpeg_fdct",
      "params": { "comp": 0, "cols": $((w / 8)), "brows": 2, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
    { "id": "dct_cb$1", "kernel": "jpeg_fdct",
      "params": { "comp": 1, "cols": $((w / 16)), "brows": 1, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
    { "id": "dct_cr$1", "kernel": "jpeg_fdct",
      "params": { "comp": 2, "cols": $((w / 16)), "brows": 1, "quality": $q },
      "cycles": "40 + cdiv(brows * cols * 1216, 16) + cdiv(brows * cols * 64, 8)" },
ROW
}

# jpeg_sink: the sink, huffman, the last task.
jpeg_sink() {
    cat <<SINK
    { "id": "huffman", "kernel": "jpeg_huffman",
      "params": { "width": $w, "height": $h, "quality": $q },
      "cycles": "40 + 609 + width * height * 3 / 128 * (64 + 8 * 9)", "output": "jpeg.jpg" }
SINK
}
