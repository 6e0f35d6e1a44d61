#!/bin/sh
# tests/run_doc_examples.sh TGC SOURCE: the documentation cannot drift from the code
# (docs/testing.md): every command example of README.md and docs/*.md is run and its output
# compared with the documented one (tests/doc_examples.py), and every command of
# `tgc --help` is in README.md's command list, has its section in docs/cli.md and a line
# in tgc(1)'s COMMANDS (tools/man.sh writes it from the same help).
set -u
tgc=$(readlink -f "$1") src=$(readlink -f "$2")
fail=0
python3 "$src/tests/doc_examples.py" "$tgc" "$src" "$src/README.md" "$src"/docs/*.md || fail=1
for c in $("$tgc" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9]*\) .*/\1/p'); do
    sed -n '/^## The command line/,/^## /p' "$src/README.md" | grep -q "^tgc $c " ||
        { echo "FAIL: README.md's command list has no tgc $c"; fail=1; }
    grep -q "^## \`tgc $c" "$src/docs/cli.md" ||
        { echo "FAIL: docs/cli.md has no section for tgc $c"; fail=1; }
done
exit $fail
