#!/bin/sh
# tests/run_terminal_escapes.sh TGC - one escaping rule for everything tgc prints to a
# terminal (issue 37, 9; docs/cli.md, "Conventions"): a graph whose name, task ids,
# platform name and file name hold terminal escapes (ESC [31m, BEL, CR) goes through every
# command that prints them; no control character but the newline may reach stdout or
# stderr, and each name must appear as ir_ctl_escape writes it (\x1b[31m, \x07, \r).
# --json output stays JSON (jansson's \u001b).  Every failure is printed; exit status 1
# if any.
set -u
tgc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
esc=$(printf '\033')
file="e${esc}[31m.json"
cat >"$file" <<'JSON'
{"format": "tgc-graph/1", "name": "g\u001b[31mred\u0007\r", "iterations": 3,
 "platform": {"format": "tgc-platform/1", "name": "p\u001b[0m", "preset": "bwdsp-1board"},
 "tasks": [{"id": "a\u001b[31m", "cycles": 1000}, {"id": "b\u0007", "cycles": 1000, "dsp": 1},
           {"id": "c\r", "cycles": 500}, {"id": "d", "cycles": 400, "dsp": 2}],
 "edges": [{"from": "a\u001b[31m", "to": "b\u0007", "bytes": 64},
           {"from": "b\u0007", "to": "c\r", "bytes": 64},
           {"from": "c\r", "to": "d", "bytes": 64}]}
JSON

# shown WANT... -- ARGS...: runs tgc ARGS; stdout and stderr together hold no control
# character but '\n' and hold every WANT (a fixed string).  The exit status is not judged
# here (the errors' own tests do), only that tgc ran and printed something.
shown() {
    wants=
    while [ "$1" != "--" ]; do
        wants="$wants$1
"
        shift
    done
    shift
    "$tgc" "$@" >out 2>err
    rc=$?
    cat out err >all
    if [ "$rc" -ge 126 ] || [ ! -s all ]; then
        printf 'FAIL: tgc %s: exit %s, printed nothing\n' "$*" "$rc" | cat -v
        fail=1
        return
    fi
    n=$(LC_ALL=C tr -d '\n' <all | LC_ALL=C tr -dc '\000-\037\177' | wc -c)
    if [ "$n" -ne 0 ]; then
        printf 'FAIL: tgc %s: %s raw control characters on the terminal:\n' "$*" "$n" | cat -v
        cat -v all
        fail=1
    fi
    printf '%s' "$wants" | while IFS= read -r w; do
        grep -qF -- "$w" all || {
            printf 'FAIL: tgc %s: no "%s" in:\n' "$*" "$w" | cat -v
            cat -v all
            echo x >"$tmp/missing"
        }
    done
    [ -e "$tmp/missing" ] && { fail=1; rm -f "$tmp/missing"; }
}

fesc='e\x1b[31m.json' gesc='g\x1b[31mred\x07\r' pesc='p\x1b[0m'
ids='"a\x1b[31m"'
shown "$fesc: graph \"$gesc\"" "platform       $pesc" -- check "$file"
shown "$fesc: schedule of graph \"$gesc\" on $pesc" '"b\x07"' "$ids" -- \
    schedule "$file" -o s.json
shown "s.json: schedule of graph \"$gesc\" on $pesc" '"c\r"' -- schedule --from s.json
shown "$fesc: graph \"$gesc\" on $pesc" 'period bound' -- opt "$file" --method all
shown "r.html: report of graph \"$gesc\" on $pesc" -- report "$file" -o r.html
shown "proj: 14 files for 4 DSPs" -- compile "$file" -o proj
shown 'q\x1b[1m: 14 files' -- compile "$file" -o "q${esc}[1m"
shown "tgc run: graph \"$gesc\", 4 DSPs of $pesc" 'result            ok' -- run "$file"
# a name of the user's own on the command line: the summary and the messages
shown 'kept in k\x1b[2J' 'trace written to t\x07.json' -- run "$file" --keep "k${esc}[2J" \
    --trace "$(printf 't\007.json')"
shown 'o\x1b[1m.html: report' -- report "$file" -o "o${esc}[1m.html"
shown 'tgc: error: unknown command "x\x1b[31m"' -- "x${esc}[31m"
shown 'tgc: error: unknown option "--x\x1b[31m"' -- check "--x${esc}[31m" "$file"
shown 'tgc: error: unknown option "-\x1b[31m" (options follow' -- "-${esc}[31m"
shown 'cannot write "no/such\x1b[5m/s.json"' -- schedule "$file" -o "no/such${esc}[5m/s.json"
shown 'unknown platform "p\x1b[31m"' -- gen --platform "p${esc}[31m"
# an error in the file: the message names the task as the summaries do
printf '{"format": "tgc-graph/1", "name": "n", "tasks": [{"id": "a\\u001b[31m", "cycles": -1}]}\n' \
    >bad.json
shown 'bad.json: /tasks/0/cycles: error:' -- check bad.json
printf '{"format": "tgc-graph/1", "name": "n", "tasks": [{"id": "a\\u001b[31m", "cycles": 1}, {"id": "b", "cycles": 1}],\n "edges": [{"from": "a\\u001b[31m", "to": "zz\\u0007", "bytes": 1}]}\n' \
    >bad2.json
shown 'zz\x07' -- check bad2.json
# a kernel file that does not compile: cc's messages quote its line, escaped too
mkdir kern
cat >kern/k.json <<'JSON'
{"format": "tgc-graph/1", "name": "k", "iterations": 1,
 "kernels": {"source": "k.c", "header": "k.h"}, "tasks": [{"id": "a", "cycles": 100, "kernel": "kern"}]}
JSON
printf '#include "k.h"\nvoid kern(const tgc_io *io) { syntax error; /* \033[31m */ }\n' >kern/k.c
printf '#include "tgc_kernel.h"\nvoid kern(const tgc_io *io);\n' >kern/k.h
shown 'building the generated programs failed' -- run kern/k.json
# what the compiler prints is passed on escaped: a compiler (TGC_CC) that quotes the line raw,
# as gcc does (clang writes <U+001B> itself)
printf '#!/bin/sh\nprintf "k.c:2:31: error: /* \\033[31m */\\n" >&2\nexit 1\n' >rawcc
chmod +x rawcc
TGC_CC=$PWD/rawcc
export TGC_CC
shown 'building the generated programs failed' '/* \x1b[31m */' -- run kern/k.json
unset TGC_CC
# calibrate's table names the graphs by their file names
if "$tgc" calibrate --help | grep -q threads &&
    [ -x "$(dirname "$tgc")/tgc-calib-threads" ]; then
    # (a folder: calibrate refuses a file it cannot read before measuring)
    mkdir "$(printf 'n\007.d')"
    shown "$fesc" 'not run: n\x07.d' -- calibrate --target threads -n 2 --reps 5 --runs 1 \
        --graphs "$file,$(printf 'n\007.d')"
else
    echo "skip: calibrate --target threads (no tgc-calib-threads beside tgc)"
fi
# --json stays JSON: jansson writes a control character as \u001b
"$tgc" check "$file" --json >j.json || { echo "FAIL: check --json"; fail=1; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["graph"] != "g\x1b[31mred\x07\r")' \
    j.json || { echo "FAIL: check --json does not give the graph's name as it is"; fail=1; }
exit $fail
