#!/bin/sh
# man.sh TGC TEMPLATE OUT: writes the manual page tgc(1) from TEMPLATE (tools/tgc.1.in):
# at the line `.\" tgc-man-commands`, inside its COMMANDS section, the list of commands of
# `TGC --help` and one subsection per command, made from what `TGC help COMMAND` prints,
# so that the manual and the built-in help are one text.  Run by the build
# (tools/CMakeLists.txt).  (A roff comment, not an @VAR@, which configure_file replaced.)
set -eu
tgc=$1
template=$2
out=$3
tmp="$out.tmp"
# roff-escape: backslashes, and a leading . or ' would be a request
esc_text() { sed -e '/^\./!s/\\/\\e/g' -e '/^\./!s/-/\\-/g'; }
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" -e 's/-/\\-/g'; }
{
    grep -q '^\.\\" tgc-man-commands' "$template" || {
        echo "man.sh: $template has no line .\\\" tgc-man-commands" >&2
        exit 1
    }
    sed -n '/^\.\\" tgc-man-commands/q;p' "$template"
    "$tgc" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)/\1 \2/p' |
    while read -r c what; do
        printf '.TP\n.B tgc %s\n%s\n' "$c" "$what" | esc_text
    done
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
    sed -n '/^\.\\" tgc-man-commands/,$p' "$template" | sed 1d
} >"$tmp"
mv "$tmp" "$out"
