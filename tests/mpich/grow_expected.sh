#!/bin/sh
# grow_expected.sh OUT [EXPECTED]: the list of runs that must pass (default
# tests/mpich/expected.txt) gains every run that passed in both collective families of
# the last runs in OUT (run_mpich.sh's build folder, after "run ... switch" and
# "run ... mpich"); it never loses one. The runs stay in the order of the testlists.
# Exit 0, 1 when OUT lacks a family's outcomes.
set -u
out=${1:?usage: grow_expected.sh OUT [EXPECTED]}
here=$(cd "$(dirname "$0")" && pwd)
exp=${2:-$here/expected.txt}
for f in switch mpich; do
    [ -f "$out/$f.d/outcomes.txt" ] ||
        { echo "grow_expected.sh: no $out/$f.d/outcomes.txt (run with --expect first)" >&2; exit 1; }
done
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# passed in both, or already expected
awk -F'|' 'FILENAME == ARGV[1] { if ($2 ~ /^passed/) s[$1] = 1; next }
    FILENAME == ARGV[2] { if ($2 ~ /^passed/ && ($1 in s)) keep[$1] = 1; next }
    /^#/ || NF == 0 { next }
    { k = $0; sub(/[ \t]+$/, "", k); keep[k] = 1 }
    END { for (k in keep) print k }' "$out/switch.d/outcomes.txt" "$out/mpich.d/outcomes.txt" \
    "$exp" >"$tmp.keep"
before=$(grep -vc '^#' "$exp")
{
    grep '^#' "$exp"
    # in the order of the testlists, each run once
    cut -d'|' -f1 "$out/switch.d/outcomes.txt" | awk 'NR == FNR { k[$0] = 1; next }
        ($0 in k) && !seen[$0]++' "$tmp.keep" -
} >"$tmp"
# an expected run the testlists no longer have is kept (run_mpich.sh reports it)
awk 'NR == FNR { k[$0] = 1; next } !($0 in k)' "$tmp" "$tmp.keep" >>"$tmp"
rm -f "$tmp.keep"
cp "$tmp" "$exp"
echo "grow_expected.sh: $before runs expected before, $(grep -vc '^#' "$exp") now"
