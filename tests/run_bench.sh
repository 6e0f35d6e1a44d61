#!/bin/sh
# The benchmark harness (bench/bench.c) on the suites of tests/bench/suites: what a good
# suite writes, and that a suite that fails, prints something malformed, a table without
# rows or text where a plot needs numbers gets nothing written (earlier results stay) and
# makes bench exit 1; a skipped suite writes nothing and is no failure.
#
#   run_bench.sh BENCH TESTS_DIR
set -u
bench=$1
dir=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0
check() { # check WHAT COMMAND... : the command must succeed
    what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what" >&2
        fails=$((fails + 1))
    fi
}
b() { "$bench" --suites "$dir/suites" --out "$out/res" "$@"; }

b ok >"$out/ok.out" 2>"$out/ok.err"
check "a good suite exits 0" [ $? -eq 0 ]
for f in ok-sizes.csv ok-sizes.md ok-sizes.svg ok-list.csv ok-list.md ok.meta; do
    check "a good suite writes $f" [ -s "$out/res/$f" ]
done
check "no plot for a table without one" [ ! -e "$out/res/ok-list.svg" ]
printf 'tasks,mode,seconds,"a, b"\n100,fast,0.5,x\n1000,fast,4.5,"y, z"\n100,slow,1.5,-\n' >"$out/want.csv"
check "the CSV holds the rows as printed" cmp -s "$out/want.csv" "$out/res/ok-sizes.csv"
check "the Markdown table has its rows" grep -q '^| 1000 | fast | 4.5 | y, z |$' "$out/res/ok-sizes.md"
check "the Markdown block has the note" grep -q '^The first note\.$' "$out/res/ok-sizes.md"
check "the Markdown block links the plot" grep -q '^!\[Sizes and times\](ok-sizes.svg)$' "$out/res/ok-sizes.md"
check "the plot is an SVG of two lines" grep -q 'mode=slow' "$out/res/ok-sizes.svg"
check "the terminal shows the table" grep -q 'Sizes and times' "$out/ok.out"
check "the meta file lists the tables" grep -q '^tables: sizes list$' "$out/res/ok.meta"
cp "$out/res/ok-sizes.csv" "$out/before.csv"

BENCH_TEST_FAIL=1 b ok >/dev/null 2>"$out/fail.err"
check "a failing suite makes bench exit 1" [ $? -eq 1 ]
check "a failing suite is reported" grep -q 'suite ok failed (exit status 3); nothing written' "$out/fail.err"
check "a failing suite leaves the earlier results" cmp -s "$out/before.csv" "$out/res/ok-sizes.csv"

BENCH_TEST_MALFORMED=1 b ok >/dev/null 2>"$out/mal.err"
check "a malformed row makes bench exit 1" [ $? -eq 1 ]
check "a malformed row is reported with its line" grep -q 'output line 8: table "sizes" has 4 columns, the row 2 values' "$out/mal.err"
check "a malformed suite leaves the earlier results" cmp -s "$out/before.csv" "$out/res/ok-sizes.csv"

for s in norows badplot noformat; do
    b "$s" >/dev/null 2>"$out/$s.err"
    check "suite $s makes bench exit 1" [ $? -eq 1 ]
    check "suite $s writes nothing" [ -z "$(ls "$out/res" | grep "^$s")" ]
done
check "a table without rows is reported" grep -q 'table "t" has no rows' "$out/norows.err"
check "text in a plotted column is reported" grep -q 'y column "b" is not numeric' "$out/badplot.err"
check "output without the format line is reported" grep -q 'expected "tgc-bench/1"' "$out/noformat.err"

b skip >/dev/null 2>"$out/skip.err"
check "a skipped suite is no failure" [ $? -eq 0 ]
check "a skipped suite says so" grep -q 'skip: skipped' "$out/skip.err"
b nosuch >/dev/null 2>&1
check "an unknown suite makes bench exit 1" [ $? -eq 1 ]

b --page --template "$dir/template.md.in" -o "$out/page.md" 2>/dev/null
check "the page is written" [ $? -eq 0 ]
check "the page has the suite's table" grep -q '^| 1000 | fast | 4.5 | y, z |$' "$out/page.md"
check "the page links the plot from its own folder" grep -q '^!\[Sizes and times\](res/ok-sizes.svg)$' "$out/page.md"
check "the page keeps the template's text" grep -q '^Between\.$' "$out/page.md"
check "the page says what is not measured" grep -q '^\*Not measured yet:\* .* skip` writes this section\.$' "$out/page.md"

[ "$fails" -eq 0 ] && echo "run_bench: all checks passed"
exit "$fails"
