#!/bin/sh
# tests/run_report.sh TGC TESTCASES - `tgc report` and `tgc opt --report` through the
# binary: the page is written whole, the same bytes on every run and through `-o -`;
# bad input and a deadlocking schedule exit 1 and write nothing (an existing file is left
# as it was); usage errors exit 2; the command is in --help and in the manual page.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/expect.sh"
start "$@"
rows() { # FILE TABLE-ID: the rows of that table's body
    sed -n "/<table id=\"$2\">/,/<\/table>/p" "$1" | sed -n '/<tbody>/,/<\/tbody>/p' |
        grep -c '^<tr'
}

check "report fir4" "$tgc" report fir4/fir4.json -o "$tmp/a.html" --search-budget 20
check "report fir4 again" "$tgc" report fir4/fir4.json -o "$tmp/b.html" --search-budget 20
check "the same input gives the same page" cmp -s "$tmp/a.html" "$tmp/b.html"
"$tgc" report fir4/fir4.json -o - --search-budget 20 >"$tmp/stdout.html" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] || { echo "FAIL: -o -: exit $rc"; fail=1; }
check "-o - writes the same page to the standard output" cmp -s "$tmp/a.html" \
    "$tmp/stdout.html"
head -c 16 "$tmp/a.html" | grep -q '^<!DOCTYPE html>$' || { echo "FAIL: no doctype"; fail=1; }
[ "$(tail -n 1 "$tmp/a.html")" = "</html>" ] || { echo "FAIL: the page is cut"; fail=1; }
[ "$(rows "$tmp/a.html" dsp-table)" -eq 4 ] || { echo "FAIL: DSP rows"; fail=1; }
# the page and the Gantt chart are well-formed XML (XHTML's syntax, inline SVG)
python3 "$here/xml_check.py" "$tmp/a.html" || fail=1

# a DSP of many tasks: the DSP table names its first 8 and last 2, and how many between
check "gen 80 tasks" "$tgc" gen --tasks 80 --seed 3 -o "$tmp/g80.json"
check "report of 80 tasks on 2 DSPs" "$tgc" report "$tmp/g80.json" --platform abstract --dsps 2 -o "$tmp/g80.html" --search-budget 20
row=$(grep -m 1 '<td class="tasks">' "$tmp/g80.html" | sed 's/.*<td class="tasks">//')
n=${row%%:*}
more=$(printf '%s' "$row" | sed -n 's/.*class="more">[^0-9]*\([0-9]*\) more.*/\1/p')
names=$(printf '%s' "$row" | sed 's/<span[^>]*>[^<]*<\/span>//; s/<\/td>.*//' | tr ',' '\n' | grep -c '[^ ]')
[ "$n" -gt 11 ] && [ "$more" = $((n - 10)) ] && [ "$names" -eq 10 ] ||
    { echo "FAIL: DSP 0's tasks ($n) not summarised as 10 names and $((n - 10)) more: $row"; fail=1; }

# --json: the summary, with the operation count the page's table has
"$tgc" report fir4/fir4.json -o "$tmp/j.html" --json --search-budget 20 >"$tmp/j.json"
ops=$(sed -n 's/^  "operations": \([0-9]*\),$/\1/p' "$tmp/j.json")
[ -n "$ops" ] && [ "$(rows "$tmp/j.html" ops-table)" -eq "$ops" ] ||
    { echo "FAIL: --json operations ($ops) against the table"; fail=1; }
grep -q '"graph_drawn": true' "$tmp/j.json" || { echo "FAIL: graph_drawn"; fail=1; }
grep -q "\"page_bytes\": $(wc -c <"$tmp/j.html")$" "$tmp/j.json" ||
    { echo "FAIL: --json page_bytes"; fail=1; }

# --from: the schedule tgc opt wrote, as written (its messages pipelined)
check "opt -o" "$tgc" opt fir4/fir4.json --method cp -o "$tmp/cp.json"
check "report --from" "$tgc" report --from "$tmp/cp.json" -o "$tmp/cp.html"
grep -q '<td>wait (pipelined)</td>' "$tmp/cp.html" ||
    { echo "FAIL: --from lost the pipelined receives"; fail=1; }

# tgc opt --method all --report: a row per method, bfco's schedule shown and the same
# schedule as opt -o writes
check "opt --report" "$tgc" opt fir4/fir4.json --method all --report "$tmp/opt.html" \
    -o "$tmp/bfco.json"
[ "$(rows "$tmp/opt.html" methods-table)" -eq 5 ] || { echo "FAIL: methods rows"; fail=1; }
grep -q '^<tr class="shown"><td>bfco</td>' "$tmp/opt.html" ||
    { echo "FAIL: the shown method"; fail=1; }
check "report of opt's schedule" "$tgc" report --from "$tmp/bfco.json" -o "$tmp/bfco.html"
sed -n '/<section id="dsps">/,$p' "$tmp/opt.html" >"$tmp/opt.tail"
sed -n '/<section id="dsps">/,$p' "$tmp/bfco.html" >"$tmp/bfco.tail"
check "opt --report shows the schedule opt -o writes" cmp -s "$tmp/opt.tail" "$tmp/bfco.tail"

# Bad input: exit 1 with the position, nothing written, an existing file left alone.
echo "keep" >"$tmp/old.html"
err=$("$tgc" report invalid/cycle-of-three/input.json -o "$tmp/x.html" 2>&1)
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/x.html" ] || { echo "FAIL: bad graph: exit $rc"; fail=1; }
case $err in
invalid/cycle-of-three/input.json*error:*) ;;
*) echo "FAIL: bad graph message: $err"; fail=1 ;;
esac
"$tgc" report invalid/cycle-of-three/input.json -o "$tmp/old.html" >/dev/null 2>&1
[ "$(cat "$tmp/old.html")" = "keep" ] || { echo "FAIL: a failed run touched -o"; fail=1; }
"$tgc" report --from schedule/deadlock.json -o "$tmp/d.html" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/d.html" ] || { echo "FAIL: deadlock: exit $rc"; fail=1; }
"$tgc" report fir4/fir4.json -o "$tmp/no/such/dir/r.html" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: unwritable -o: exit $rc"; fail=1; }
"$tgc" opt invalid/cycle-of-three/input.json --report "$tmp/o.html" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/o.html" ] || { echo "FAIL: opt --report bad: exit $rc"; fail=1; }

# tgc run --report: the run's figures beside the prediction, every difference 0 on the
# simulated platform (a single-rate, a multi-rate and a delayed graph), the page XML
for g in fir4/fir4.json multirate/fifo.json worked/worked.json; do
    f=$tmp/run-$(basename "$g" .json).html
    check "run --report $g" "$tgc" run "$g" --report "$f"
    python3 "$here/xml_check.py" "$f" || fail=1
    n=$(rows "$f" simulated-table)
    zero=$(sed -n '/<table id="simulated-table">/,/<\/table>/p' "$f" | grep -c '<td class="n">+0</td></tr>$')
    [ "$n" -ge 3 ] && [ "$zero" -eq "$n" ] ||
        { echo "FAIL: run --report $g: $zero of $n rows without a difference"; fail=1; }
    grep -q '^<p id="simulated-verdict">largest difference: 0 cycles (they agree)</p>$' "$f" ||
        { echo "FAIL: run --report $g: the verdict"; fail=1; }
done
"$tgc" run fir4/fir4.json --report "$tmp/no/such/dir/r.html" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: run --report to an unwritable path: exit $rc"; fail=1; }

# Usage errors: exit 2, nothing written.
for args in "fir4/fir4.json" "-o $tmp/u.html" "fir4/fir4.json --from $tmp/cp.json -o $tmp/u.html" \
    "--from $tmp/cp.json --dsps 8 -o $tmp/u.html" "fir4/fir4.json -o - --json" \
    "--from $tmp/cp.json --search-budget 3 -o $tmp/u.html" "fir4/fir4.json -o $tmp/u.html --zz"; do
    # shellcheck disable=SC2086
    "$tgc" report $args >/dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || { echo "FAIL: tgc report $args: exit $rc, expected 2"; fail=1; }
done
[ ! -e "$tmp/u.html" ] || { echo "FAIL: a usage error wrote a file"; fail=1; }
"$tgc" opt fir4/fir4.json --report - --gantt - >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: opt --report - --gantt -: not a usage error"; fail=1; }

# The command is listed, has its help and its section of the manual page.
"$tgc" --help | grep -q '^  report ' || { echo "FAIL: not in tgc --help"; fail=1; }
"$tgc" help report | grep -q -- '--from=FILE' || { echo "FAIL: tgc help report"; fail=1; }
man=$(dirname "$tgc")/tgc.1
grep -q '^\.SS "tgc report"$' "$man" || { echo "FAIL: no tgc report in $man"; fail=1; }
exit $fail
