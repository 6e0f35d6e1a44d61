#!/bin/sh
# man.sh TGC TEMPLATE OUT: writes the manual page tgc(1) from TEMPLATE (tools/tgc.1.in)
# with one section per command, made from what `TGC help COMMAND` prints, so that the
# manual and the built-in help are one text.  Run by the build (tools/CMakeLists.txt).
set -eu
tgc=$1
template=$2
out=$3
tmp="$out.tmp"
# roff-escape: backslashes, and a leading . or ' would be a request
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" -e 's/-/\\-/g'; }
{
    sed -n '/@COMMANDS@/q;p' "$template"
    "$tgc" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' |
    while read -r c; do
        printf '.SS "tgc %s"\n' "$c"
        "$tgc" help "$c" | esc | awk '
            NR == 1 { sub(/^usage: /, ""); printf ".B %s\n.PP\n", $0; next }
            /^$/ { if (pre) { print ".fi"; pre = 0 } print ".PP"; next }
            /^[a-z"\\].*:$/ && !/^"/ { if (pre) { print ".fi"; pre = 0 } printf ".I %s\n", $0; next }
            /^  \\-/ {
                if (pre) { print ".fi"; pre = 0 }
                line = $0; sub(/^  /, "", line)
                n = match(line, /   */)
                if (n) { opt = substr(line, 1, n - 1); desc = substr(line, n + RLENGTH) }
                else { opt = line; desc = "" }
                printf ".TP\n.B %s\n", opt
                if (desc != "") print desc
                next
            }
            /^          / { line = $0; sub(/^ */, "", line); print line; next }
            /^  / { if (!pre) { print ".nf"; pre = 1 } print; next }
            { if (pre) { print ".fi"; pre = 0 } print }
            END { if (pre) print ".fi" }'
    done
    sed -n '/@COMMANDS@/,$p' "$template" | sed 1d
} >"$tmp"
mv "$tmp" "$out"
