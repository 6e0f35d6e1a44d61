#!/bin/sh
# tests/platform_agree.sh TGC MPIRIO_RUN PROGRAM CASES WORK: tgc and libmpirio read
# platforms alike (one reader, platform/read.c; docs/formats.md "Platform").
#
#   CASES/invalid/*.json  each is refused by both, with the same messages: `tgc check
#                         --platform F` (its stderr) and `mpirio-run --platform F PROGRAM`
#                         (its stderr, "mpirio: " taken off each line; tgc's own "tgc: "
#                         likewise), both with exit status 1, and the messages name F
#   references            preset names that are none, a missing file, a folder: the same
#   CASES/valid/*.json    each is read alike: mpirio-run --summary describes the platform
#                         it simulates in full (every field, pd_describe); the platform
#                         tgc read from F, as tgc compile writes it (platform.json), must
#                         be described as F itself is
# Runs from CASES (the files are named by relative paths in the messages).  Prints each
# disagreement and exits 1; prints the counts and exits 0 when there is none.
set -u
tgc=$1 run=$2 prog=$3 cases=$4 work=$5
for x in "$tgc" "$run"; do
    [ -x "$x" ] || { echo "FAIL: $x is not a program"; exit 1; }
done
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$cases" || exit 1
graph=$work/graph.json
cat >"$graph" <<'EOF'
{ "format": "tgc-graph/1", "name": "two", "iterations": 2,
  "tasks": [ { "id": "a", "cycles": 100 }, { "id": "b", "cycles": 100 } ],
  "edges": [ { "from": "a", "to": "b", "bytes": 64 } ] }
EOF
fail=0 ninvalid=0 nvalid=0
bad() { echo "FAIL: $*"; fail=1; }

# refused(REF): both refuse REF with the same messages
refused() {
    ref=$1
    "$tgc" check --platform "$ref" "$graph" >"$work/tgc.out" 2>"$work/tgc.err"
    trc=$?
    "$run" -n 2 --platform "$ref" "$prog" ok >"$work/run.out" 2>"$work/run.err"
    rrc=$?
    sed 's/^tgc: //' "$work/tgc.err" >"$work/tgc.msg"
    sed 's/^mpirio: //' "$work/run.err" >"$work/run.msg"
    [ "$trc" -eq 1 ] || bad "$ref: tgc check exits $trc, not 1"
    [ "$rrc" -eq 1 ] || bad "$ref: mpirio-run exits $rrc, not 1"
    [ -s "$work/tgc.msg" ] || bad "$ref: tgc says nothing"
    grep -qF "$ref" "$work/tgc.msg" || bad "$ref: tgc's messages do not name it"
    if ! cmp -s "$work/tgc.msg" "$work/run.msg"; then
        bad "$ref: tgc and the runtime say different things"
        diff "$work/tgc.msg" "$work/run.msg" | sed 's/^/    /'
    fi
}

for f in invalid/*.json; do
    refused "$f"
    ninvalid=$((ninvalid + 1))
done
for ref in bwdsp-3board bwdsp-40board cluster no-such-file.json invalid/; do
    refused "$ref"
    ninvalid=$((ninvalid + 1))
done

# described(REF): the runtime's description of the platform REF, on stdout
described() {
    "$run" -n 2 --summary --platform "$1" "$prog" ok 2>"$work/d.err" >/dev/null ||
        { bad "$1: mpirio-run refuses it:"; sed 's/^/    /' "$work/d.err"; return 1; }
    sed -n 2p "$work/d.err"
}

for f in valid/*.json; do
    nvalid=$((nvalid + 1))
    name=$(basename "$f" .json)
    out=$work/$name
    "$tgc" compile "$graph" --platform "$f" -O none -o "$out" >/dev/null 2>"$work/c.err" ||
        { bad "$f: tgc compile refuses it:"; sed 's/^/    /' "$work/c.err"; continue; }
    want=$(described "$f") || continue
    got=$(described "$out/platform.json") || continue
    case $want in
    "mpirio:   "?*": "*) ;;
    *) bad "$f: the runtime does not describe its platform: $want" ;;
    esac
    [ "$want" = "$got" ] ||
        bad "$f: read differently
    the runtime: $want
    tgc:         $got"
done
[ "$ninvalid" -ge 30 ] || bad "only $ninvalid refused platforms"
[ "$nvalid" -ge 5 ] || bad "only $nvalid valid platforms"
[ "$fail" -eq 0 ] || exit 1
echo "platforms: $ninvalid refused alike, $nvalid read alike"
