#!/bin/sh
# tests/run_harden.sh TGC TESTCASES - what tgc does with hostile inputs and outputs
# (docs/cli.md, docs/formats.md): names JSON cannot hold, kernel files outside the graph's
# folder, devices, FIFOs and symbolic links as outputs, partial projects, concurrent runs.
# Each check says what it expects; every failure is printed, the exit status is 1 if any.
set -u
. "$(cd "$(dirname "$0")" && pwd)/expect.sh"
scratch "$1"
cases=$2

no() { # no WHAT COMMAND...: the command must fail
    what=$1
    shift
    if "$@"; then
        echo "FAIL: $what"
        fail=1
    fi
}

cd "$tmp" || exit 1
cp "$cases/chain4/chain4.json" chain4.json

# ---- names that JSON cannot hold: input errors, never an abort or a dropped field
bad=$(printf 'g\377.json')
cp chain4.json "$bad"
expect 1 "$bad: error: cannot read file: its name is not valid UTF-8" check --json "$bad"
[ -s "$out" ] && { echo "FAIL: check --json printed for a non-UTF-8 file name"; fail=1; }
expect 1 "$bad: error: cannot read file: its name is not valid UTF-8" schedule "$bad"
expect 2 "tgc: error: with --json, option values must be valid UTF-8, got \"p\\xff\"
run 'tgc help compile' for the options" compile chain4.json -o "$(printf 'p\377')" --json
[ -e "$(printf 'p\377')" ] && { echo "FAIL: compile wrote a project after a usage error"; fail=1; }

# ---- kernel files: names tgc chooses, confined to the graph's folder, regular files only
repo=$(cd "$cases/.." && pwd)
json_str() { # the JSON string of $1 without its quotes
    printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' |
        awk '{ printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }'
}
graph() { # graph DIR SOURCE HEADER: a two-task graph calling kernel "k" from SOURCE
    mkdir -p "$1"
    if [ -n "$3" ]; then hdr=", \"header\": \"$(json_str "$3")\""; else hdr=""; fi
    cat >"$1/g.json" <<JSON
{"format": "tgc-graph/1", "iterations": 2,
 "kernels": {"source": "$(json_str "$2")"$hdr},
 "tasks": [{"id": "a", "cycles": 100, "kernel": "k"}, {"id": "b", "cycles": 100, "dsp": 1}],
 "edges": [{"from": "a", "to": "b", "bytes": 8}]}
JSON
}
kernel_src() { # kernel_src INCLUDE: the kernel k, including INCLUDE when not empty
    [ -n "$1" ] && printf '#include "%s"\n' "$1"
    printf '#include "tgc_kernel.h"\nvoid k(const tgc_io *io)\n{\n'
    printf '    unsigned char *p = io->out[0];\n    for (size_t i = 0; i < io->out_bytes[0]; i++)\n'
    printf '        p[i] = (unsigned char)(i + (size_t)io->iteration);\n}\n'
}
run_ok() { # run_ok WHAT ARGS...: tgc run ARGS must pass
    what=$1
    shift
    if ! "$tgc" run "$@" --no-contention >"$out" 2>"$err" || ! grep -q "result            ok" "$out"; then
        echo "FAIL: $what: tgc run $*"
        cat "$out" "$err"
        fail=1
    fi
}

# A source whose name closes the CMake list and runs a command, with a header whose name
# has spaces (the source includes it by that name): the source is copied as
# user_kernels.c, the header keeps its name, neither name is written into C or CMake.
cmk=$(printf 'k.c)\nexecute_process(COMMAND touch PWNED)\n#.c')
graph names "$cmk" "my header.h"
printf '/* a header with spaces in its name */\n#define K_SHIFT 1\n' >"names/my header.h"
kernel_src "my header.h" >"names/$cmk"
run_ok "hostile source name, header with spaces" names/g.json
expect 0 "" compile names/g.json -o names-proj
[ -f "names-proj/user_kernels.c" ] && [ -f "names-proj/my header.h" ] ||
    { echo "FAIL: the kernel files are not in the project under their names"; ls names-proj; fail=1; }
for f in names-proj/*; do
    case $f in names-proj/user_kernels.c | "names-proj/my header.h") continue ;; esac
    grep -q "execute_process\|my header" "$f" &&
        { echo "FAIL: a kernel file's name reached the generated $f"; fail=1; }
done
if command -v cmake >/dev/null; then
    cmake -S names-proj -B names-proj/build -DTGC_SOURCE_DIR="$repo" >names-proj/cmake.log 2>&1 ||
        { echo "FAIL: cmake does not configure the project"; tail -5 names-proj/cmake.log; fail=1; }
    [ -e PWNED ] || [ -e names-proj/PWNED ] || [ -e names-proj/build/PWNED ] &&
        { echo "FAIL: a kernel file name ran a command in cmake"; fail=1; }
else
    echo "skip: cmake not found, the generated CMakeLists.txt is not configured"
fi

# A header whose name would close an #include and define a constructor: copied, never
# included by generated code, so the constructor never runs (it would exit 42).
ctor=$(printf 'stdint.h"\nstatic void __attribute__((constructor)) pwn(void) { _Exit(42); }\n#include "stddef.h')
graph ctor k.c "$ctor"
kernel_src "" >ctor/k.c
printf '/* an ordinary header */\n' >"ctor/$ctor"
run_ok "a header named to inject a constructor" ctor/g.json

# A schedule file's kernels are confined to the schedule's folder: written elsewhere, it
# compiles with --kernel-path naming the kernels' folder.
mkdir -p fir sched
cp "$cases/fir4/fir4.json" "$cases/fir4/fir_kernels.c" "$cases/fir4/fir_kernels.h" fir/
expect 0 "" schedule fir/fir4.json -o sched/s.json
expect 1 "sched/s.json (graph): /kernels/source: error: kernel source \"sched/../fir/fir_kernels.c\" is outside the folder of \"sched/s.json (graph)\" (allow its folder with --kernel-path DIR)
sched/s.json (graph): /kernels/header: error: kernel header \"sched/../fir/fir_kernels.h\" is outside the folder of \"sched/s.json (graph)\" (allow its folder with --kernel-path DIR)" \
    compile --from sched/s.json -o from-proj
expect 0 "" compile --from sched/s.json -o from-proj --kernel-path fir
cmp -s from-proj/user_kernels.c fir/fir_kernels.c ||
    { echo "FAIL: compile --from did not copy the kernel source"; fail=1; }

# Outside the graph's folder (through a symbolic link too), FIFOs, devices: refused by
# check and compile alike, before a byte is read and without blocking.
graph outside ../passwd.c ""
ln -s /etc/passwd outside/link.c
expect 1 "outside/g.json: /kernels/source: error: kernel source \"outside/../passwd.c\" does not exist" \
    check outside/g.json
cp chain4.json passwd.c
expect 1 "outside/g.json: /kernels/source: error: kernel source \"outside/../passwd.c\" is outside the folder of \"outside/g.json\" (allow its folder with --kernel-path DIR)" \
    check outside/g.json
expect 1 "outside/g.json: /kernels/source: error: kernel source \"outside/../passwd.c\" is outside the folder of \"outside/g.json\" (allow its folder with --kernel-path DIR)" \
    compile outside/g.json -o outside-proj
[ -e outside-proj ] && { echo "FAIL: compile wrote a project"; fail=1; }
expect 0 "" check outside/g.json --kernel-path .
graph link link.c ""
ln -s /etc/passwd link/link.c
expect 1 "link/g.json: /kernels/source: error: kernel source \"link/link.c\" is outside the folder of \"link/g.json\" (allow its folder with --kernel-path DIR)" \
    check link/g.json
graph fifo fifo.c ""
mkfifo fifo/fifo.c
expect_wrap="timeout 20"
expect 1 "fifo/g.json: /kernels/source: error: kernel source \"fifo/fifo.c\" is not a regular file" \
    check fifo/g.json
expect_wrap=
if [ "$(id -u)" -eq 0 ]; then
    graph dev null.c ""
    mknod dev/null.c c 1 3
    expect 1 "dev/g.json: /kernels/source: error: kernel source \"dev/null.c\" is not a regular file" \
        compile dev/g.json -o dev-proj
else
    echo "skip: not root, no character device made with mknod"
fi

# ---- output files: devices and FIFOs written through, links followed, never replaced.
# Only files made here are written: a tgc that replaced what -o names would otherwise
# replace /dev/null or /dev/stdout of the machine (as root).  nulldev is /dev/null's
# device, to-stdout is what /dev/stdout is (a link to /proc/self/fd/1).
if [ "$(id -u)" -eq 0 ]; then
    mknod nulldev c 1 3
    expect 0 "" schedule chain4.json -o nulldev
    [ -c nulldev ] || { echo "FAIL: -o replaced a character device"; fail=1; }
else
    echo "skip: not root, no character device made with mknod"
fi
mkfifo fifo.out
timeout 20 cat fifo.out >fifo.got &
reader=$!
expect_wrap="timeout 20"
expect 0 "" schedule chain4.json -o fifo.out
expect_wrap=
wait $reader
[ -p fifo.out ] || { echo "FAIL: -o replaced a FIFO"; fail=1; }
grep -q '"format": "tgc-schedule/1"' fifo.got ||
    { echo "FAIL: nothing was written through the FIFO"; fail=1; }
ln -s /proc/self/fd/1 to-stdout
"$tgc" schedule chain4.json -o to-stdout >via-link.json 2>"$err" ||
    { echo "FAIL: -o a link to /proc/self/fd/1"; cat "$err"; fail=1; }
[ -L to-stdout ] || { echo "FAIL: -o replaced a symbolic link"; fail=1; }
grep -q '"format": "tgc-schedule/1"' via-link.json ||
    { echo "FAIL: -o /proc/self/fd/1 did not write standard output"; fail=1; }
"$tgc" schedule chain4.json -o to-stdout | cat >via-pipe.json
[ -L to-stdout ] && cmp -s via-link.json via-pipe.json ||
    { echo "FAIL: -o a link to /proc/self/fd/1 on a pipe"; fail=1; }
echo old >real.json
ln -s real.json link.json
expect 0 "" schedule chain4.json -o link.json
[ -L link.json ] && grep -q '"format": "tgc-schedule/1"' real.json ||
    { echo "FAIL: -o a link to a file: the link was replaced or the file not written"; fail=1; }
ln -s made-by-link.json dangling.json
expect 0 "" schedule chain4.json -o dangling.json
[ -L dangling.json ] && [ -f made-by-link.json ] ||
    { echo "FAIL: -o a link to a new file"; fail=1; }
mkdir out-dir.json
expect 1 'tgc: error: cannot write "out-dir.json": it is a directory' \
    schedule chain4.json -o out-dir.json

# ---- project directories: whole or not at all, a lock, the user's files kept
mkdir proj proj/tasks.c
echo mine >proj/notes.txt
expect 1 "proj/tasks.c: error: is a directory where tgc writes a file of the project" \
    compile chain4.json -o proj
[ "$(ls -A proj | tr '\n' ' ')" = "notes.txt tasks.c " ] ||
    { echo "FAIL: a failed compile changed the project folder:"; ls -A proj; fail=1; }
rmdir proj/tasks.c
expect 0 "" compile chain4.json -o proj
expect 0 "" compile chain4.json -o proj # its own files: no --force needed
[ "$(cat proj/notes.txt)" = mine ] || { echo "FAIL: the user's file was touched"; fail=1; }
echo "/* edited */" >>proj/dsp0.c
echo "int mine;" >proj/main.c
expect 1 "proj/dsp0.c: error: exists and is not a file tgc wrote (or it was changed since): --force overwrites it
proj/main.c: error: exists and is not a file tgc wrote (or it was changed since): --force overwrites it" \
    compile chain4.json -o proj
grep -q edited proj/dsp0.c || { echo "FAIL: a refused compile overwrote dsp0.c"; fail=1; }
expect 0 "" compile chain4.json -o proj --force
grep -q edited proj/dsp0.c && { echo "FAIL: --force did not overwrite dsp0.c"; fail=1; }
expect 0 "" compile chain4.json -o proj --dsps 8
[ -f proj/dsp7.c ] || { echo "FAIL: no dsp7.c for 8 DSPs"; fail=1; }
expect 0 "" compile chain4.json -o proj
[ -e proj/dsp7.c ] && { echo "FAIL: dsp7.c of the earlier project is left"; fail=1; }
ls -A . proj | grep -Eq '\.tgc-new-|\.tgc-[A-Za-z0-9]{6}$' && { echo "FAIL: temporary files left:"; ls -A . proj; fail=1; }
expect 1 "no/such/proj: error: cannot create directory: No such file or directory" \
    compile chain4.json -o no/such/proj
[ -e no ] && { echo "FAIL: a failed compile created a folder"; fail=1; }

# A folder in use by another tgc (flock, as tgc itself locks it): refused at once.
mkdir busy
flock -o busy sleep 10 &
locker=$!
i=0
while flock -n busy true && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
busy="busy: error: another tgc is using this folder (tgc run --keep or tgc compile -o); try again when it has finished"
expect 1 "$busy" run chain4.json --keep busy
expect 1 "$busy" compile chain4.json -o busy
kill $locker 2>/dev/null
wait $locker 2>/dev/null
# Two runs in one folder at once: each passes or says the folder is in use.
"$tgc" run chain4.json --keep both >both1.out 2>both1.err &
first=$!
"$tgc" run chain4.json --keep both >both2.out 2>both2.err
rc2=$?
wait $first
rc1=$?
for k in 1 2; do
    eval rc=\$rc$k
    if [ "$rc" -ne 0 ] && [ "$(cat both$k.err)" != "both${busy#busy}" ]; then
        echo "FAIL: concurrent run $k: exit $rc"
        cat both$k.err
        fail=1
    fi
done
[ "$rc1" -eq 0 ] || [ "$rc2" -eq 0 ] || { echo "FAIL: neither concurrent run passed"; fail=1; }

exit $fail
