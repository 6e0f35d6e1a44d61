#!/bin/sh
# tests/run_multirate.sh TGC TESTCASES - the multi-rate applications against the
# hand-expanded ones they replace (docs/formats.md, "Multi-rate graphs"):
#
#   apps/jpeg/jpeg-sdf.json     (6 actors)  against apps/jpeg/jpeg.json     (34 tasks)
#   apps/matmul/slice-sdf.json  (3 actors)  against apps/matmul/slice.json  (10 tasks)
#
# For each pair, `tgc run` of both: the output files byte for byte equal (jpeg.jpg,
# matmul.txt), and every edge of the hand-expanded graph has an edge of the expansion
# between the same firings ("color3" is the expansion's "color[3]") with the same
# checksums (last and all).  Then `tgc expand` of the multi-rate graph reads back as a
# graph whose run prints exactly the checksums and cycles of the multi-rate graph's run,
# and `tgc compile` makes the same project of both (README.md aside, which names the
# file).  The output files are also those the hand-expanded graphs gave before
# multi-rate graphs existed (their SHA-256 as tgc 0.1.0 of 7 December 2026 wrote them,
# built here: a change of the kernels or of the expansion that alters them fails).  The
# -O modes and the output checks (djpeg) are bench_apps --test's (apps/jpeg,
# apps/matmul).
#
# The same for apps/jpeg/jpeg-hier.json, jpeg-sdf.json with the work on an MCU row as a
# subgraph (jpeg-mcu.json; its actors are "mcu/color[3]" ...).
#
# Then multirate/fifo.json (and fifo-hier.json, the same graph with two of its actors in
# subgraphs two levels deep), whose kernels check from inside that each port of each firing
# holds in FIFO order the tokens its channel's rates and initial tokens give it (through
# feedback, a state channel, initial tokens that are not whole firings): the parallel
# program's sink reports no mismatch in any iteration, in each -O mode (es too); and
# with one channel's initial tokens described wrongly to the kernels, it reports some
# (the check can fail).
set -u
tgc=$1
cases=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

run() { # GRAPH DIR KDIR: tgc run --keep DIR, passing
    if ! "$tgc" run "$1" --keep "$2" --kernel-path "$3" >"$2.txt" 2>&1; then
        echo "FAIL: tgc run $1"
        cat "$2.txt"
        fail=1
        return 1
    fi
}

# The checksum lines of a run without the edge numbers, names mapped, sorted.
sums() { # DIR MAP
    grep '^checksum e' "$1/parallel.out" | sed -E 's/^checksum e[0-9]+ //' |
        sed -E "$2" | LC_ALL=C sort
}

pair() { # DIR HAND SDF OUTPUT SHA256 [SED: the multi-rate side's task names mapped]
    dir=$cases/apps/$1
    name=$(basename "$3" .json)
    run "$dir/$2" "$tmp/$name-hand" "$dir" || return
    run "$dir/$3" "$tmp/$name" "$dir" || return
    if cmp -s "$tmp/$name-hand/out-parallel/$4" "$tmp/$name/out-parallel/$4"; then
        echo "ok   $3: $4 equals that of $2 ($(wc -c <"$tmp/$name/out-parallel/$4") bytes)"
    else
        echo "FAIL: $3: $4 differs from that of $2"
        fail=1
    fi
    if [ "$(sha256sum <"$tmp/$name/out-parallel/$4" | cut -d' ' -f1)" = "$5" ]; then
        echo "ok   $3: $4 is the file $2 gave before (SHA-256 $5)"
    else
        echo "FAIL: $3: $4 is not the file $2 gave before multi-rate graphs"
        fail=1
    fi
    # task "name<k>" of the hand-expanded graph is firing k of actor "name"
    sums "$tmp/$name-hand" 's/"([a-z_]+)([0-9]+)"/"\1[\2]"/g' >"$tmp/hand.sums"
    sums "$tmp/$name" "${6:-s/^//}" >"$tmp/sdf.sums"
    n=$(wc -l <"$tmp/hand.sums")
    if [ "$n" -gt 0 ] && cmp -s "$tmp/hand.sums" "$tmp/sdf.sums"; then
        echo "ok   $3: the checksums of its $n edges equal those of $2"
    else
        echo "FAIL: $3: the checksums differ from those of $2 (- hand, + expansion):"
        diff "$tmp/hand.sums" "$tmp/sdf.sums" | head -20
        fail=1
    fi
    # the expansion as a file: the same run, the same project
    if ! "$tgc" expand "$dir/$3" -o "$tmp/$name-x.json"; then
        echo "FAIL: tgc expand $3"
        fail=1
        return
    fi
    run "$tmp/$name-x.json" "$tmp/$name-x" "$dir" || return
    grep -E '^(checksum|cycles|predicted|packets|simulated)' "$tmp/$name/parallel.out" \
        >"$tmp/a.out"
    grep -E '^(checksum|cycles|predicted|packets|simulated)' "$tmp/$name-x/parallel.out" \
        >"$tmp/b.out"
    if [ -s "$tmp/a.out" ] && cmp -s "$tmp/a.out" "$tmp/b.out"; then
        echo "ok   tgc expand $3: the expansion's run prints the same checksums and cycles"
    else
        echo "FAIL: tgc expand $3: its run differs:"
        diff "$tmp/a.out" "$tmp/b.out" | head -20
        fail=1
    fi
    "$tgc" compile "$dir/$3" -o "$tmp/$name-c1" --kernel-path "$dir" >/dev/null &&
        "$tgc" compile "$tmp/$name-x.json" -o "$tmp/$name-c2" --kernel-path "$dir" \
            >/dev/null || {
        echo "FAIL: tgc compile $3 or its expansion"
        fail=1
        return
    }
    if diff -r -x README.md -x .tgc-project "$tmp/$name-c1" "$tmp/$name-c2" >"$tmp/d"; then
        echo "ok   tgc expand $3: the expansion compiles to the same project"
    else
        echo "FAIL: tgc expand $3: the projects differ:"
        head -20 "$tmp/d"
        fail=1
    fi
}

fifo() { # GRAPH MODE: the mismatches the sink of fifo.json reports, one line each
    rm -rf "$tmp/fifo"
    "$tgc" run "$1" -O "$2" --keep "$tmp/fifo" --kernel-path "$cases/multirate" \
        >"$tmp/fifo.txt" 2>&1 || { cat "$tmp/fifo.txt"; return 1; }
    sed -n 's/^iteration [0-9]* firing 0 errors \([0-9]*\)$/\1/p' \
        "$tmp/fifo/out-parallel/fifo.txt"
}
for graph in fifo fifo-hier; do
    for mode in none ma cp bfco es; do
        got=$(fifo "$cases/multirate/$graph.json" $mode | tr '\n' ' ')
        if [ "$got" = "0 0 0 0 0 " ]; then
            echo "ok   multirate/$graph.json -O $mode: every firing read its tokens in FIFO order"
        else
            echo "FAIL: multirate/$graph.json -O $mode: mismatches per iteration: $got"
            fail=1
        fi
    done
done
sed -e 's/"3,3,3,9,0;1,1,2,2,5"/"3,3,3,9,0;1,1,2,2,4"/' \
    -e "s|\"fifo_kernels\.|\"$cases/multirate/fifo_kernels.|g" "$cases/multirate/fifo.json" \
    >"$tmp/fifo-wrong.json"
got=$(fifo "$tmp/fifo-wrong.json" none | tr '\n' ' ')
case "$got" in
"0 0 0 0 0 " | "" | *[!0-9\ ]*)
    echo "FAIL: fifo.json with wrong initial tokens for its kernels: no mismatch ($got)"
    fail=1
    ;;
*) echo "ok   fifo.json with wrong initial tokens for its kernels: mismatches $got" ;;
esac

pair jpeg jpeg.json jpeg-sdf.json jpeg.jpg \
    9cead95f4da05c90047013e723be1af32e5e19fbf3dadf67de5f1edb148c5c00
pair jpeg jpeg.json jpeg-hier.json jpeg.jpg \
    9cead95f4da05c90047013e723be1af32e5e19fbf3dadf67de5f1edb148c5c00 's|"mcu/|"|g'
pair matmul slice.json slice-sdf.json matmul.txt \
    7ab1025f839c3d0acd8a5145a7d82306b1240be3c622568602dc579dc3a63cef
exit $fail
