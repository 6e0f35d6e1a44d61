#!/bin/sh
# tests/run_browser.sh TGC TESTCASES - the HTML report in a real browser: headless
# Chromium (Debian's chromium) parses and renders the page of `tgc opt --method all
# --report` with the network unreachable.  The DOM it builds must hold every table with a
# row per method, DSP and operation, and both SVG pictures with as many elements as tgc
# wrote (a page the HTML parser repairs, or an SVG it breaks out of, loses or moves some);
# a screenshot must be a PNG of the window's size with far more in it than a blank page's.
# Exit 77 (skipped) when chromium is not installed: ./setup.sh --browser installs it.
set -u
tgc=$1
cd "$2" || exit 1
chromium=${TGC_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    echo "skipped: $chromium is not installed (./setup.sh --browser installs chromium)"
    exit 77
fi
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" # the profile, caches and crash reports stay in here

browse() { # chromium options: headless, no sandbox (CI runs as root), no network
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-extensions --disable-background-networking --disable-sync \
        --user-data-dir="$tmp/profile" --proxy-server=127.0.0.1:9 \
        --host-resolver-rules="MAP * ~NOTFOUND" "$@" 2>>"$tmp/chromium.log"
}
count() { # FILE PATTERN: occurrences of the fixed string PATTERN
    grep -o -F -- "$2" "$1" | wc -l
}
rows() { # FILE TABLE-ID: <tr> elements of that table's body
    sed -n "/<table id=\"$2\">/,/<\/table>/p" "$1" | sed -n '/<tbody>/,/<\/tbody>/p' |
        grep -o '<tr[ >]' | wc -l
}
expect() { # WHAT GOT WANTED
    [ "$2" -eq "$3" ] || { echo "FAIL: $1: $2, expected $3"; fail=1; }
}

"$tgc" opt fir4/fir4.json --method all --report "$tmp/report.html" -o "$tmp/bfco.json" \
    >/dev/null || { echo "FAIL: tgc opt --report"; exit 1; }
"$tgc" report --from "$tmp/bfco.json" -o "$tmp/same.html" --json >"$tmp/same.json" ||
    { echo "FAIL: tgc report --from"; exit 1; }
ops=$(sed -n 's/^  "operations": \([0-9]*\),$/\1/p' "$tmp/same.json")

browse --dump-dom "file://$tmp/report.html" >"$tmp/dom.html"
rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/dom.html" ] || {
    echo "FAIL: chromium --dump-dom: exit $rc"
    cat "$tmp/chromium.log"
    exit 1
}
# the tables, each with its rows where the parser put them
for t in summary-table methods-table dsp-table ops-table; do
    expect "tables $t in the DOM" "$(count "$tmp/dom.html" "<table id=\"$t\">")" 1
done
expect "method rows" "$(rows "$tmp/dom.html" methods-table)" 5
expect "DSP rows" "$(rows "$tmp/dom.html" dsp-table)" 4
expect "operation rows" "$(rows "$tmp/dom.html" ops-table)" "$ops"
expect "summary rows" "$(rows "$tmp/dom.html" summary-table)" \
    "$(rows "$tmp/report.html" summary-table)"
expect "tables" "$(count "$tmp/dom.html" "<table")" 4
# the pictures: two SVG roots, every element of each kept in the SVG
expect "svg elements" "$(count "$tmp/dom.html" "<svg")" 2
for e in '<rect' '<text' '<title>' '<g id="node' '<g id="edge' '<g id="clust' '<polygon'; do
    expect "SVG elements $e" "$(count "$tmp/dom.html" "$e")" "$(count "$tmp/report.html" "$e")"
done
expect "graph nodes: one per operation (the invisible anchors are not drawn)" \
    "$(count "$tmp/dom.html" '<g id="node')" "$ops"
[ "$(count "$tmp/dom.html" '<rect')" -gt "$ops" ] ||
    { echo "FAIL: the Gantt chart has fewer boxes than operations"; fail=1; }

# a screenshot: a PNG of the window's size, much more than a blank page's
printf '<!DOCTYPE html>\n<title>blank</title>\n' >"$tmp/blank.html"
browse --window-size=1400,2400 --screenshot="$tmp/blank.png" "file://$tmp/blank.html" \
    >/dev/null
browse --window-size=1400,2400 --screenshot="$tmp/shot.png" "file://$tmp/report.html" \
    >/dev/null
if [ ! -s "$tmp/shot.png" ] || [ ! -s "$tmp/blank.png" ]; then
    echo "FAIL: no screenshot"
    cat "$tmp/chromium.log"
    exit 1
fi
sig=$(od -A n -t x1 -N 8 "$tmp/shot.png" | tr -d ' \n')
expect "PNG signature 0x$sig" "$([ "$sig" = 89504e470d0a1a0a ] && echo 1 || echo 0)" 1
# IHDR: width and height, big-endian, at bytes 16 and 20
w=$(od -A n -t u1 -j 16 -N 4 "$tmp/shot.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
h=$(od -A n -t u1 -j 20 -N 4 "$tmp/shot.png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
expect "screenshot width" "$w" 1400
expect "screenshot height" "$h" 2400
size=$(wc -c <"$tmp/shot.png")
blank=$(wc -c <"$tmp/blank.png")
# (the report's is about 20 times a blank page's, 305 796 against 15 154 bytes, but one
# taken under the load of the sanitizer suite came out at 291 585: ten times is the bar)
[ "$size" -ge $((10 * blank)) ] && [ "$size" -ge 50000 ] ||
    { echo "FAIL: screenshot of $size bytes (a blank page: $blank)"; fail=1; }
[ $fail -eq 0 ] && echo "report rendered by $("$chromium" --version 2>/dev/null):" \
    "$ops operations, screenshot ${w}x$h, $size bytes (blank page $blank)"
exit $fail
