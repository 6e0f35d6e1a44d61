#!/bin/sh
# tests/run_json_schemas.sh TGC SOURCE: every command's --json validates against its JSON
# Schema (docs/schemas/tgc-COMMAND.schema.json, docs/cli.md "The --json vocabulary"): runs
# each line of tests/json_commands.txt and validates its stdout with tests/validate_json.py;
# and every command of `tgc --help` whose help lists --json has a schema and at least one
# line there, so that a new command or field cannot go unchecked.  Each schema must also
# reject a document with a field it does not name (additionalProperties false at the top).
# Skipped (77) without python3-jsonschema.
set -u
tgc=$(readlink -f "$1") src=$(readlink -f "$2")
fail=0
tmp=$(mktemp -d)
export TMPDIR="$tmp" # mpirun's session folder: its own, as the mpi_* tests do
trap 'rm -rf "$tmp"' EXIT
v="$src/tests/validate_json.py"
python3 -c "import jsonschema" 2>/dev/null || {
    echo "skipped: python3-jsonschema is not installed (./setup.sh installs it)"
    exit 77
}
list="$src/tests/json_commands.txt"
schemas="$src/docs/schemas"
has_mpi=0
[ -n "$(sed -n 's/^openmpi_lib=\(..*\)/\1/p' "$(dirname "$tgc")/tgc.paths" 2>/dev/null)" ] && has_mpi=1
"$tgc" run --help >/dev/null 2>&1 && [ -x /usr/bin/mpirun.openmpi ] || has_mpi=0
# every command with --json has a schema and a line
for c in $("$tgc" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9]*\) .*/\1/p'); do
    "$tgc" help "$c" | grep -q -e "--json" || continue
    [ -f "$schemas/tgc-$c.schema.json" ] ||
        { echo "FAIL: tgc $c has --json but no docs/schemas/tgc-$c.schema.json"; fail=1; }
    grep -q "^\(mpi \)\?$c " "$list" ||
        { echo "FAIL: tgc $c has --json but no line in tests/json_commands.txt"; fail=1; }
done
n=0 ran=0
grep -v '^#' "$list" | grep -v '^$' >"$tmp/list"
while read -r line; do
    n=$((n + 1))
    lsan=${ASAN_OPTIONS:-}
    case $line in mpi\ *)
        [ $has_mpi = 1 ] || continue
        line=${line#mpi }
        # under mpirun without LeakSanitizer, as the mpi_* tests (docs/testing.md)
        lsan=$(printf '%s' "${ASAN_OPTIONS:-}" | sed 's/detect_leaks=1/detect_leaks=0/') ;;
    esac
    schema=${line%% *}
    args=$(printf '%s\n' "${line#* }" | sed -e "s|@SRC@|$src|g" -e "s|@TMP@|$tmp|g")
    # shellcheck disable=SC2086 # the arguments are words
    (cd "$tmp" && ASAN_OPTIONS=$lsan "$tgc" $args) >"$tmp/out.$n" 2>"$tmp/err.$n" </dev/null
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: tgc $args: exit $rc: $(head -n 3 "$tmp/err.$n")"
        fail=1
        continue
    fi
    python3 "$v" "$schemas/tgc-$schema.schema.json" "$tmp/out.$n" >"$tmp/v.$n" 2>&1 || {
        echo "FAIL: tgc $args: its --json does not validate against tgc-$schema.schema.json:"
        sed 's/^/  /' "$tmp/v.$n" | head -n 20
        fail=1
    }
    ran=$((ran + 1))
done <"$tmp/list"
[ $ran -gt 0 ] || { echo "FAIL: no command ran"; fail=1; }
# a refusal (es above --es-limit) is said on stderr and in the JSON, never in stdout's table
g="$src/testcases/fir4/fir4.json"
"$tgc" opt "$g" --method all --es-limit 4 >"$tmp/table" 2>"$tmp/table.err" ||
    { echo "FAIL: tgc opt --method all with es refused exits $?"; fail=1; }
grep -q "^$g: warning: es refused: more than 4 configurations" "$tmp/table.err" ||
    { echo "FAIL: es's refusal is not on stderr: $(cat "$tmp/table.err")"; fail=1; }
! grep -q "error" "$tmp/table" || { echo "FAIL: an error in stdout's table"; fail=1; }
grep -q "^  es  *refused" "$tmp/table" || { echo "FAIL: the table has no refused es row"; fail=1; }
"$tgc" opt "$g" --method all --es-limit 4 --json 2>"$tmp/json.err" |
    python3 -c 'import json,sys; m=json.load(sys.stdin)["methods"]; sys.exit(not (m["es"]["refused"] is True and "es-limit" in m["es"]["reason"] and m["bfco"]["refused"] is False))' ||
    { echo "FAIL: es's refusal is not in the JSON as one"; fail=1; }
grep -q "warning: es refused" "$tmp/json.err" || { echo "FAIL: no warning with --json"; fail=1; }
# the schemas reject what they do not name: a field added at the top of each document
rejected=0
for s in "$schemas"/tgc-*.schema.json; do
    name=${s##*/tgc-}
    name=${name%.schema.json}
    f=$(grep -l . "$tmp"/out.* 2>/dev/null | while read -r o; do
        k=${o##*.}
        l=$(sed -n "${k}p" "$tmp/list")
        case $l in "$name "* | "mpi $name "*) echo "$o"; break ;; esac
    done)
    [ -n "$f" ] || continue
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["no_such_field"] = 1; json.dump(d, open(sys.argv[2], "w"))' "$f" "$tmp/extra.json"
    if python3 "$v" "$s" "$tmp/extra.json" >/dev/null 2>&1; then
        echo "FAIL: tgc-$name.schema.json accepts a field it does not name"
        fail=1
    else
        rejected=$((rejected + 1))
    fi
done
[ $has_mpi = 0 ] || [ "$rejected" -eq "$(ls "$schemas"/tgc-*.schema.json | wc -l)" ] ||
    { echo "FAIL: only $rejected schemas were tried with an unknown field"; fail=1; }
[ $fail = 0 ] && echo "json schemas: $ran runs of $(ls "$schemas"/tgc-*.schema.json | wc -l) commands valid"
exit $fail
