#!/bin/sh
# tests/run_sdf3.sh TGC DIR [GRAPH...] - SDF3 graphs end to end (docs/formats.md, "sdf3").
#
# DIR holds SDF3 XML files and a README.md whose table gives, per file, its actors, its
# channels and the sum of its repetition vector ("| file.xml | application | actors |
# channels | firings |"): ../shared/sdf3 (SDF3's testbench, not ours) or
# testcases/import/sdf3 (ours, the held-out set).  For every file of the table (or the
# GRAPHs named): tgc import sdf3 writes a graph with as many tasks and edges as the table
# says, tgc check --json gives "firings" equal to the table's sum, and tgc run --platform
# bwdsp-1board --iterations 2 --json runs it: checksums equal, simulated cycles equal to
# the predicted ones, the period not below its bound, a throughput constraint judged.  A
# table with a sixth column ("period bound", worked out by hand; "-" for none) also has
# tgc's period_bound equal to it exactly.  Exit 77 (skipped) when DIR is missing; a graph
# the table names that is missing fails.
set -u
tgc=$1
dir=$2
shift 2
if [ ! -f "$dir/README.md" ]; then
    echo "skipped: no SDF3 graphs in $dir (the tests read ../shared/sdf3 beside the source folder)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the table's rows: file actors channels firings bound ("-": none)
sed -n -e 's/^| *\([A-Za-z0-9_.-]*\.xml\) *|[^|]*| *\([0-9]*\) *| *\([0-9]*\) *| *\([0-9]*\) *|$/\1 \2 \3 \4 -/p' \
    -e 's/^| *\([A-Za-z0-9_.-]*\.xml\) *|[^|]*| *\([0-9]*\) *| *\([0-9]*\) *| *\([0-9]*\) *| *\([0-9-]*\) *|$/\1 \2 \3 \4 \5/p' \
    "$dir/README.md" >"$tmp/table"
[ -s "$tmp/table" ] || { echo "FAIL: no table of graphs in $dir/README.md"; exit 1; }
fail=0
ran=0
while read -r file actors channels firings bound; do
    if [ $# -gt 0 ]; then
        want=0
        for g in "$@"; do [ "$g" = "$file" ] && want=1; done
        [ $want = 1 ] || continue
    fi
    name=${file%.xml}
    g=$tmp/$name.json
    if ! "$tgc" import sdf3 "$dir/$file" -o "$g" 2>"$tmp/err"; then
        echo "FAIL: $file: tgc import sdf3"
        cat "$tmp/err"
        fail=1
        continue
    fi
    nt=$(grep -c '"id":' "$g")
    ne=$(grep -c '"from":' "$g")
    [ "$nt" = "$actors" ] && [ "$ne" = "$channels" ] ||
        { echo "FAIL: $file: $nt tasks and $ne edges, the table says $actors and $channels"; fail=1; }
    got=$("$tgc" check "$g" --json 2>"$tmp/err" | sed -n 's/^  "firings": \([0-9]*\),*$/\1/p')
    if [ "$got" != "$firings" ]; then
        echo "FAIL: $file: tgc check gives ${got:-no} firings per iteration, the table $firings"
        cat "$tmp/err"
        fail=1
        continue
    fi
    if ! "$tgc" run "$g" --platform bwdsp-1board --iterations 2 --json >"$tmp/run.json" \
        2>"$tmp/err"; then
        echo "FAIL: $file: tgc run"
        head -20 "$tmp/err"
        fail=1
        continue
    fi
    # the flat fields, and the two fractions (objects of "cycles" and "iterations"); a
    # graph with a throughput constraint has it judged
    thr=0
    grep -q '<throughput>' "$dir/$file" && thr=1
    verdict=$(awk -v f="$file" -v thr=$thr -v want="$bound" '
        /^  "[a-z_]+": \{$/ { obj = $1; gsub(/[":]/, "", obj); next }
        /^  \}/ { obj = ""; next }
        obj != "" && /"cycles":/ { v = $2; sub(/,$/, "", v); c[obj] = v }
        obj != "" && /"iterations":/ { v = $2; sub(/,$/, "", v); it[obj] = v }
        obj == "" && /^  "[a-z_]+": / { k = $1; gsub(/[":]/, "", k); v = $2; sub(/,$/, "", v); x[k] = v }
        END {
            if (x["checksums_equal"] != "true") { print "checksums differ"; exit }
            if (x["simulated_cycles"] != x["predicted_cycles"]) {
                print "simulated " x["simulated_cycles"] " cycles, predicted " x["predicted_cycles"]; exit
            }
            if (!("period_exact" in c) || !("period_bound_exact" in c)) { print "no period or no bound"; exit }
            if (c["period_exact"] * it["period_bound_exact"] < c["period_bound_exact"] * it["period_exact"]) {
                print "the period " x["period"] " is below its bound " x["period_bound"]; exit
            }
            if (want != "-" && c["period_bound_exact"] != want * it["period_bound_exact"]) {
                print "the period bound is " x["period_bound"] ", the table says " want; exit
            }
            if (thr && (x["period_constraint"] == "null" || x["period_constraint_met"] == "null")) {
                print "the throughput constraint is not judged"; exit
            }
            cs = thr ? ", constraint " x["period_constraint"] (x["period_constraint_met"] == "true" ? " met" : " missed") : ""
            print "ok " x["tasks"] " tasks, " x["simulated_cycles"] " cycles, period " x["period"] \
                ", bound " x["period_bound"] (want != "-" ? " (the table'"'"'s)" : "") cs
        }' "$tmp/run.json")
    case $verdict in
    ok*) echo "ok   $file: $firings firings per iteration, ${verdict#ok }" ;;
    *) echo "FAIL: $file: $verdict"; fail=1 ;;
    esac
    ran=$((ran + 1))
done <"$tmp/table"
[ $ran -gt 0 ] || { echo "FAIL: no graph ran"; exit 1; }
exit $fail
