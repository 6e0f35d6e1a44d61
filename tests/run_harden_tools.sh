#!/bin/sh
# tests/run_harden_tools.sh TGC TESTCASES - the second round of hostile inputs against the
# compiler and the tools (issue 37): platform limits, well-formed SVG and HTML, the real
# cause of a refusal, linear name lookup, escaped terminal output, hostile --keep names,
# interrupted runs.  Each check says what it expects; every failure is printed, the exit
# status is 1 if any.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/expect.sh"
scratch "$1"
cases=$2

nothing_written() { # nothing_written WHAT PATH...: none of the paths may exist
    what=$1
    shift
    for p in "$@"; do
        [ -e "$p" ] && { echo "FAIL: $what: $p was written"; fail=1; }
    done
}

cd "$tmp" || exit 1
cp "$cases/chain4/chain4.json" chain4.json

# ---- one platform limit (PD_MAX_BOARDS, PD_MAX_ABSTRACT_DSPS), checked where --dsps
# resizes: an input error in every command, before anything is allocated or written.
printf '{"format": "tgc-platform/1", "preset": "bwdsp-1board", "dsps_per_board": 1}\n' >p1.json
big="tgc: error: --dsps 2048: 2048 DSPs need 2048 boards, more than the limit of 1024"
expect 1 "$big" check chain4.json --platform p1.json --dsps 2048
expect 1 "$big" schedule chain4.json --platform p1.json --dsps 2048 -o big.json --gantt big.svg
expect 1 "$big" compile chain4.json --platform p1.json --dsps 2048 -o big-proj
expect 1 "$big" run chain4.json --platform p1.json --dsps 2048 --keep big-run
expect 1 "$big" opt chain4.json --platform p1.json --dsps 2048
nothing_written "--dsps above the board limit" big.json big.svg big-proj big-run
expect 1 "tgc: error: --dsps 1048576: 1048576 DSPs need 262144 boards, more than the limit of 1024" \
    check chain4.json --dsps 1048576 --max-dsps 1048576
expect 1 "tgc: error: --dsps 1048576: an abstract platform has at most 65536 DSPs" \
    check chain4.json --platform abstract --dsps 1048576 --max-dsps 1048576
# the limit itself is a platform tgc writes and reads back
expect 0 "" schedule chain4.json --platform p1.json --dsps 1024 -o edge.json
expect 0 "" schedule --from edge.json

# ---- every SVG and HTML page the tools write is well-formed XML (tests/xml_check.py),
# with ids that hold control characters, markup and quotes (check accepts them): a control
# character is shown as the terminal shows it (\x01), never written raw.
cat >ctl.json <<'JSON'
{"format": "tgc-graph/1", "name": "g\u0001<&\u001b[31m", "iterations": 2,
 "tasks": [{"id": "a\u0001\u001b[2J\u007f", "cycles": 100}, {"id": "b<&>\"'\\", "cycles": 100, "dsp": 1},
           {"id": "c\ttab", "cycles": 50, "dsp": 2}],
 "edges": [{"from": "a\u0001\u001b[2J\u007f", "to": "b<&>\"'\\", "bytes": 8},
           {"from": "a\u0001\u001b[2J\u007f", "to": "c\ttab", "bytes": 4096}]}
JSON
cp "$cases/fir4/fir4.json" "$cases/fir4/fir_kernels.c" "$cases/fir4/fir_kernels.h" .
xml=
for gr in ctl fir4; do
    check "schedule $gr" "$tgc" schedule $gr.json -o $gr-s.json --gantt $gr-s.svg --dot $gr-s.dot
    check "opt $gr" "$tgc" opt $gr.json --method all --gantt $gr-o.svg --dot $gr-o.dot \
        --report $gr-o.html
    check "report $gr" "$tgc" report $gr.json -o $gr-r.html
    check "report --from $gr" "$tgc" report --from $gr-s.json -o $gr-f.html
    check "schedule --from $gr" "$tgc" schedule --from $gr-s.json --gantt $gr-f.svg
    xml="$xml $gr-s.svg $gr-o.svg $gr-o.html $gr-r.html $gr-f.html $gr-f.svg"
    if command -v dot >/dev/null; then
        for d in $gr-s $gr-o; do
            check "dot -Tsvg $d.dot" dot -Tsvg -o $d.dot.svg $d.dot
            xml="$xml $d.dot.svg"
        done
    else
        echo "skip: dot not found, the dot files are not rendered"
    fi
done
# shellcheck disable=SC2086
python3 "$here/xml_check.py" $xml || fail=1
grep -q 'a\\x01\\x1b\[2J\\x7f' ctl-s.svg ||
    { echo "FAIL: the Gantt chart does not show a control character as \\x01"; fail=1; }

# ---- a real param of -0.0 reaches its kernel as -0.0 (it was emitted as "-0", the integer
# 0, and the kernel received +0.0): run the generated programs, the kernel writes the sign.
mkdir negz
cat >negz/k.h <<'EOF'
#include "tgc_kernel.h"
void sign(const tgc_io *io, double x);
EOF
cat >negz/k.c <<'EOF'
#include <math.h>
#include <stdio.h>
#include "k.h"
void sign(const tgc_io *io, double x)
{
    FILE *f = fopen(io->output, "a");
    if (f) {
        fprintf(f, "%s\n", signbit(x) ? "negative" : "positive");
        fclose(f);
    }
}
EOF
cat >negz/negz.json <<'EOF'
{"format": "tgc-graph/1", "name": "negz", "iterations": 1,
 "kernels": {"source": "k.c", "header": "k.h"},
 "tasks": [{"id": "a", "cycles": 10, "kernel": "sign", "params": {"x": -0.0},
            "output": "sign.out"}]}
EOF
expect 0 "" run negz/negz.json --keep negz-run
for side in parallel sequential; do
    got=$(cat "negz-run/out-$side/sign.out" 2>&1)
    [ "$got" = negative ] || { echo "FAIL: -0.0 param, $side program: kernel got $got"; fail=1; }
done

# ---- tgc run --keep with a name that begins with "-": built in ./-name, never an option
# of the compiler or of mpirun
expect 0 "" run chain4.json --keep=-dash
[ -x ./-dash/parallel ] && [ -x ./-dash/sequential ] ||
    { echo "FAIL: --keep=-dash: no ./-dash/parallel and sequential"; fail=1; }
grep -q 'kept in ./-dash$' "$out" || { echo "FAIL: --keep=-dash: not kept in ./-dash"; fail=1; }

# ---- an interrupted tgc run removes its temporary folder and dies of the signal (exit
# status 128 + its number); env --default-signal undoes the shell's SIGINT ignored in the
# background. The compiler is slowed (TGC_CC) so that the run is still building when the
# signal comes, however fast the machine: the run would otherwise end first, exit 0.
mkdir runtmp
printf '#!/bin/sh\nsleep 60\nexec cc "$@"\n' >slowcc
chmod +x slowcc
for sig in INT:2 TERM:15 HUP:1; do
    num=${sig#*:} sig=${sig%:*}
    TMPDIR=$PWD/runtmp TGC_CC=$PWD/slowcc env --default-signal=INT "$tgc" run chain4.json \
        >/dev/null 2>&1 &
    pid=$!
    i=0
    while [ -z "$(ls runtmp)" ] && [ $i -lt 500 ]; do
        sleep 0.02
        i=$((i + 1))
    done
    sleep 0.2
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    want=$((128 + num))
    [ "$rc" -eq "$want" ] || { echo "FAIL: tgc run killed by SIG$sig: exit $rc, expected $want"; fail=1; }
    [ -z "$(ls runtmp)" ] || { echo "FAIL: tgc run killed by SIG$sig left:"; ls runtmp; fail=1; }
    rm -rf runtmp/*
done

# ---- a kernel header named as a header the generated files include is refused (the
# project holds it under its name on their include path)
for h in stdio.h mpirio.h; do
    mkdir "shadow-$h"
    cp negz/k.c "shadow-$h/k.c"
    cp negz/k.h "shadow-$h/$h"
    sed "s/\"k.h\"/\"$h\"/" negz/negz.json >"shadow-$h/g.json"
    expect 1 "shadow-$h/g.json: /kernels/header: error: kernel header \"shadow-$h/$h\" must not be named \"$h\": the generated files include <$h>, and the project holds the header under its name on their include path, where it would take that one's place" \
        run "shadow-$h/g.json" --keep "shadow-$h/run"
    nothing_written "kernel header $h" "shadow-$h/run"
done

# ---- calibrate --graphs with a graph it cannot read: FILE: error, exit status 1, before
# the measurements; a graph that is not run (a folder) makes the exit status 1 too
if [ -x "$(dirname "$tgc")/tgc-calib-threads" ]; then
    expect 1 "nope.json: error: cannot read it: No such file or directory" \
        calibrate --target threads -n 2 --reps 5 --runs 1 --graphs chain4.json,nope.json
    mkdir adir
    expect 1 "tgc: error: 1 of the 1 graphs of --graphs not run (the table says why)" \
        calibrate --target threads -n 2 --reps 5 --runs 1 --graphs adir
else
    echo "skip: calibrate --graphs (no tgc-calib-threads beside tgc)"
fi

# ---- -O es when the delay rings alone exceed a DSP's memory: the real cause (which DSP,
# the bytes needed and available), not "found no deadlock-free schedule"
cat >mem.json <<'JSON'
{"format": "tgc-graph/1", "name": "mem", "iterations": 4,
 "platform": {"preset": "bwdsp-1board", "dsp_memory_bytes": 4096},
 "tasks": [{"id": "a", "cycles": 1000, "dsp": 0}, {"id": "b", "cycles": 1000, "dsp": 1}],
 "edges": [{"from": "a", "to": "b", "bytes": 3000, "delay": 3},
           {"from": "b", "to": "a", "bytes": 1024, "delay": 2}]}
JSON
mem="mem.json: error: es: the receive buffers of DSP 1 need 9000 bytes (a ring of max(delay, 1) slots per message), more than its 4096 bytes of memory (dsp_memory_bytes of platform \"inline\"): no configuration fits; raise dsp_memory_bytes or lower the delays (the other methods check the memory only for the second buffer of a pipelined receive)"
expect 1 "$mem" opt mem.json --method es
expect 1 "$mem" run mem.json -O es --keep mem-run
nothing_written "-O es over the memory" mem-run
expect 0 "" opt mem.json --method cp

exit $fail
