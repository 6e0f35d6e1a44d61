#!/bin/sh
# run_mpich.sh: MPICH's own C tests (basic, pt2pt, coll, comm, group, datatype, attr of
# ../shared/mpich-tests) with their real harness (util/mtest.c, mtest_common.c,
# mtest_single.c), built with an MPI compiler wrapper and run with the process counts
# of each folder's testlist, judged as MPICH's runtests judges them.
#
#   run_mpich.sh build SRC OUT CC [--jobs J] [--defs BIN] [--dirs "D..."]
#                                            build the harness and every test program;
#                                            with --defs, a program (prog.so of mpirio-cc)
#                                            that needs an MPI name BIN's dynamic symbols
#                                            lack is not built (mpirio-run loads it only
#                                            at run time)
#   run_mpich.sh run SRC OUT LAUNCH NAME [options]   run them, print the table
#
# SRC: the folder test/mpi of the MPICH tests; OUT: a build folder; CC: the compiler
# wrapper (mpirio-cc, or Open MPI's mpicc for the comparison); LAUNCH: the launcher
# given "-n N prog args" (mpirio-run, or "mpirun --oversubscribe"); NAME: the name of
# this run (the table's title, files OUT/NAME.*); --dirs: the folders of SRC (default
# the seven above; the build's list is the run's). Options of run:
#   --jobs J        runs at once (default 2)
#   --timeout S     wall-clock limit of one run in seconds (default 60; a testlist's
#                   timeLimit when it is lower), then it fails; the launcher gets it
#                   as MPIEXEC_TIMEOUT, as runtests gives it, and this script stops
#                   the run 10 s later
#   --max-np N      runs that need more processes are skipped (default 16)
#   --max-mem G     runs whose testlist asks more GB of memory are skipped (default 2)
#   --keep-env-runs run also the runs that differ from an earlier one only in MPICH's
#                   own settings (env=MPIR_CVAR_...); by default they are skipped
#   --skip FILE     lines "dir/test reason": not run, listed as skipped with the reason
#   --expect FILE   lines "dir/test np [args]": runs that must pass; exit 1 if one fails
#   --env VAR=VAL   set for every run (repeatable)
# A run is judged by MPICH's runtests (test/mpi/runtests.in, check_result and the
# resultTest functions), on the launcher's stdout and stderr together:
#   (no resultTest)        passes when it exits 0 within the limit, prints a line
#                          matching ^\s*No [Ee]rrors\s*$, and nothing else but the
#                          lines runtests lets by (Test Skipped, FORTRAN STOP, ...);
#                          a run that prints "Test Skipped" and no error is skipped;
#   TestAllowWarnings      the same, but lines "MPICH: ", "WARNING: " and MPI_Abort's
#                          are allowed;
#   TestStatus, TestErrFatal  passes when it exits nonzero (the test checks that an
#                          error ends the program): but not by the time limit, which
#                          fails every run here (runtests counts it, as mpiexec's
#                          timeout exits nonzero);
#   TestStatusNoErrors     "No Errors", no stray output and a nonzero exit.
# The programs of basic, which are not MTest programs and print no "No Errors", pass by
# exiting 0 (they have no testlist).
# The table: one line per run (folder/test, processes, arguments, result, reason) and
# the counts; also written to OUT/NAME.table. Exit 0, or 1 when an expected run did
# not pass, 77 when SRC is absent (CTest's skip).
set -u
mode=${1:-}

# run_mpich.sh judge LOG RC RESULTTEST DIR (internal): the result of one run that
# ended with status RC and wrote LOG, as MPICH's runtests judges it (above)
if [ "$mode" = judge ]; then
    exec awk -v rc="$3" -v rt="$4" -v dir="$5" '
        # check_result of runtests: the first "No Errors" line; "Test Skipped";
        # the warnings; what it lets by; anything else is stray output
        /^[ \t\r]*No [Ee]rrors[ \t\r]*$/ && !noerr { noerr = 1; next }
        /^[ \t\r]*Test Skipped[ \t\r]*$/ { skipped = 1; next }
        /^(MPICH: |WARNING: |(Abort.*)?application called MPI_Abort)/ {
            if (!nwarn++) warn = $0
            next
        }
        /(FORTRAN STOP|requesting checkpoint|checkpoint completed)[ \t\r]*$/ { next }
        /^srun: error: .*: signal: Communication connection failure/ { next }
        { if (!nstray++) stray = $0 == "" ? "(an empty line)" : $0 }
        /Test Skipped/ { skipped = 1 }
        END {
            cut = 100
            if (dir == "basic") { # not MTest programs: the exit status alone
                if (rc != 0) print "failed exit status " rc ": " substr(stray warn, 1, cut)
                else print "passed"
                exit
            }
            if (rt == "TestStatus" || rt == "TestErrFatal") {
                if (rc == 0) print "failed exit status 0 (" rt ": the program must exit nonzero)"
                else print (skipped ? "skipped the program printed Test Skipped" : "passed")
                exit
            }
            if (rt == "TestStatusNoErrors") {
                if (!noerr) print "failed no \"No Errors\": " substr(stray, 1, cut)
                else if (nstray) print "failed output besides No Errors: " substr(stray, 1, cut)
                else if (rc == 0) print "failed exit status 0 (" rt ": the program must exit nonzero)"
                else print "passed"
                exit
            }
            if (rt != "" && rt != "TestAllowWarnings" && rt != "TestBench") {
                print "failed unknown resultTest=" rt
                exit
            }
            if (rt == "TestBench") {
                print (rc == 0 ? "passed" : "failed exit status " rc)
                exit
            }
            if (rt == "TestAllowWarnings") nwarn = 0
            if (!noerr && !skipped)
                print "failed " (rc != 0 ? "exit status " rc ", " : "") "no \"No Errors\": " substr(stray warn, 1, cut)
            else if (nstray || nwarn)
                print "failed output besides No Errors: " substr(nstray ? stray : warn, 1, cut)
            else if (rc != 0)
                print "failed exit status " rc
            else if (skipped)
                print "skipped the program printed Test Skipped"
            else
                print "passed"
        }' "$2"
fi
src=${2:-}
out=${3:-}
if [ -z "$mode" ] || [ -z "$src" ] || [ -z "$out" ]; then
    echo "usage: run_mpich.sh build SRC OUT CC | run SRC OUT LAUNCH NAME [options]" >&2
    exit 2
fi
if [ ! -f "$src/util/mtest.c" ]; then
    echo "run_mpich.sh: $src: no MPICH tests here (see ../shared/mpich-tests/README.md);" \
        "skipped"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
dirs="basic pt2pt coll comm group datatype attr"
# the folders of the list that SRC lacks: the whole suite is skipped, saying which
check_dirs() {
    for d in $dirs; do
        if [ ! -d "$src/$d" ]; then
            echo "run_mpich.sh: $src has no folder $d (see ../shared/mpich-tests/README.md);" \
                "skipped"
            exit 77
        fi
    done
}

# the list of runs: "dir test np args..." (args with arg= stripped, env= kept as
# env:VAR=VAL), from each folder's testlist.in; basic has none (its programs are not
# MTest programs and print no "No Errors": they pass by exiting 0)
list_runs() {
    for d in $dirs; do
        if [ "$d" = basic ]; then
            # no testlist: self sends to itself (1 process), the others pair up (2)
            echo "basic self 1"
            for t in simple sendrecv srtest wtime netpipe patterns adapt; do
                echo "basic $t 2"
            done
            continue
        fi
        tl=$src/$d/testlist.in
        [ -f "$tl" ] || tl=$src/$d/testlist
        sed -e 's/#.*//' "$tl" | awk -v d="$d" 'NF >= 2 {
            line = d " " $1 " " $2
            for (i = 3; i <= NF; i++) {
                if ($i ~ /^arg=/) line = line " " substr($i, 5)
                else if ($i ~ /^env=/) line = line " env:" substr($i, 5)
                else if ($i ~ /^(timeLimit|mem|xfail|resultTest|strict|mpiversion)=/)
                    line = line " " $i
            }
            print line
        }'
    done
}

source_of() { # dir test -> source files
    case "$1/$2" in
        basic/netpipe) echo "$src/basic/netmpi.c $src/basic/GetOpt.c" ;;
        basic/adapt) echo "$src/basic/adapt.c $src/basic/GetOpt.c" ;;
        *) echo "$src/$1/$2.c" ;;
    esac
}

if [ "$mode" = build ]; then
    cc=${4:?run_mpich.sh build: CC missing}
    shift 4
    jobs=2 defs=
    while [ $# -gt 0 ]; do
        case $1 in
            --jobs) jobs=$2; shift 2 ;;
            --defs) defs=$2; shift 2 ;;
            --dirs) dirs=$2; shift 2 ;;
            *) echo "run_mpich.sh: unknown option $1" >&2; exit 2 ;;
        esac
    done
    check_dirs
    mkdir -p "$out/util" "$out/bin" "$out/log"
    echo "$dirs" >"$out/dirs.txt"
    inc="-I$here -I$src/include -I$src/basic"
    for f in mtest mtest_common mtest_single dtypes run_mpitests; do
        if ! $cc $inc -c -o "$out/util/$f.o" "$src/util/$f.c" \
            >"$out/log/util_$f.txt" 2>&1; then
            echo "run_mpich.sh: the harness (util/$f.c) does not build with $cc:" >&2
            head -30 "$out/log/util_$f.txt" >&2
            exit 1
        fi
    done
    : >"$out/defs.txt"
    [ -n "$defs" ] && nm -D --defined-only "$defs" | awk '{print $3}' | sort -u >"$out/defs.txt"
    # dtpools, the datatype-pool library of some tests: its headers beside the
    # (empty) dtpoolsconf.h its configure would write, in OUT
    mkdir -p "$out/dtpools/include" "$out/dtpools/obj"
    cp "$src"/dtpools/include/*.h "$out/dtpools/include/"
    echo "/* dtpoolsconf.h: nothing to configure */" >"$out/dtpools/dtpoolsconf.h"
    for f in "$src"/dtpools/src/*.c; do
        b=$(basename "$f" .c)
        if ! $cc $inc -I"$out/dtpools/include" -c -o "$out/dtpools/obj/$b.o" "$f" \
            >"$out/log/dtpools_$b.txt" 2>&1; then
            echo "run_mpich.sh: dtpools ($f) does not build with $cc:" >&2
            head -30 "$out/log/dtpools_$b.txt" >&2
            exit 1
        fi
    done
    list_runs | awk '{print $1, $2}' | sort -u >"$out/programs.txt"
    # one compile per program, J at once; OUT/bin/dir.test, the log beside it
    while read -r d t; do
        echo "$d $t $(source_of "$d" "$t")"
    done <"$out/programs.txt" | xargs -P "$jobs" -L 1 sh -c '
        out=$1 cc=$2 inc=$3 d=$4 t=$5; shift 5
        rm -f "$out/bin/$d.$t" "$out/bin/$d.$t.so"
        if [ ! -f "$1" ]; then echo "error: no source file in the folder" >"$out/log/build_$d.$t.txt"; exit 0; fi
        # the tests written as run(arg) get their main from util/run_mpitests.c
        drv=
        grep -q "^int run(const char \*arg)" "$1" && drv=$out/util/run_mpitests.o
        if grep -q "mtest_dtp.h\|dtpools.h" "$1"; then
            inc="$inc -I$out/dtpools/include"
            drv="$drv $out/dtpools/obj/*.o"
        fi
        $cc $inc -o "$out/bin/$d.$t" "$@" $drv "$out/util/mtest.o" "$out/util/mtest_common.o" \
            "$out/util/mtest_single.o" "$out/util/dtypes.o" -lm \
            >"$out/log/build_$d.$t.txt" 2>&1 || rm -f "$out/bin/$d.$t"
        if [ -s "$out/defs.txt" ] && [ -f "$out/bin/$d.$t.so" ]; then
            miss=$(nm -D --undefined-only "$out/bin/$d.$t.so" | awk "{print \$2}" |
                grep "^P\{0,1\}MPIX\{0,1\}_" | sort -u | comm -23 - "$out/defs.txt")
            if [ -n "$miss" ]; then
                for m in $miss; do printf "undefined reference to \\140%s\\047\\n" "$m"; done \
                    >>"$out/log/build_$d.$t.txt"
                rm -f "$out/bin/$d.$t" "$out/bin/$d.$t.so"
            fi
        fi
    ' sh "$out" "$cc" "$inc"
    n=$(wc -l <"$out/programs.txt")
    b=0
    while read -r d t; do [ -x "$out/bin/$d.$t" ] && b=$((b + 1)); done <"$out/programs.txt"
    echo "run_mpich.sh: $b of $n programs built with $cc (logs in $out/log)"
    exit 0
fi

[ "$mode" = run ] || { echo "run_mpich.sh: unknown mode $mode" >&2; exit 2; }
launch=${4:?run_mpich.sh run: LAUNCH missing}
name=${5:?run_mpich.sh run: NAME missing}
shift 5
jobs=2 timeout=60 maxnp=16 maxmem=2 skip= expect= envs= keepenv=0
while [ $# -gt 0 ]; do
    case $1 in
        --jobs) jobs=$2; shift 2 ;;
        --timeout) timeout=$2; shift 2 ;;
        --max-np) maxnp=$2; shift 2 ;;
        --max-mem) maxmem=$2; shift 2 ;;
        --keep-env-runs) keepenv=1; shift ;;
        --skip) skip=$2; shift 2 ;;
        --expect) expect=$2; shift 2 ;;
        --env) envs="$envs $2"; shift 2 ;;
        *) echo "run_mpich.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -f "$out/programs.txt" ] || { echo "run_mpich.sh: $out: run the build first" >&2; exit 1; }
dirs=$(cat "$out/dirs.txt")
check_dirs
res=$out/$name.d
rm -rf "$res"
mkdir -p "$res"
# number the runs; each writes res/N.result: "STATUS reason"
list_runs | awk '{print NR, $0}' >"$res/runs.txt"
# (no line may end in a blank: xargs -L would join it to the next)
sed 's/[[:space:]]*$//' "$res/runs.txt" | xargs -P "$jobs" -L 1 sh -c '
    res=$1 out=$2 launch=$3 timeout=$4 maxnp=$5 skip=$6 envs=$7 maxmem=$8 keepenv=$9
    self=${10}
    shift 10
    i=$1; shift
    d=$1; shift
    t=$1 np=$2; shift 2
    r=$res/$i.result
    if [ -n "$skip" ] && why=$(awk -v k="$d/$t" "\$1 == k { \$1 = \"\"; sub(/^ /, \"\"); print; exit }" "$skip") && [ -n "$why" ]; then
        echo "skipped $why" >"$r"; exit 0
    fi
    # a run that differs from an earlier one only in MPICH settings (env
    # MPIR_CVAR_*, which mean nothing to other implementations) is that run
    case " $* " in *" env:"*)
        key=$(echo "$d $t $np $*" | tr " " "\n" | grep -v "^env:" | tr "\n" " ")
        same=$(awk -v k="$key" "{ l = \$2; for (j = 3; j <= NF; j++) if (\$j !~ /^env:/) l = l \" \" \$j; if (l \" \" == k) { print \$1; exit } }" "$res/runs.txt")
        if [ -n "$same" ] && [ "$same" != "$i" ] && [ "$keepenv" = 0 ]; then
            echo "skipped as run $same: its MPIR_CVAR settings mean something to MPICH only" >"$r"; exit 0
        fi ;;
    esac
    if [ ! -x "$out/bin/$d.$t" ]; then
        why=$(grep -m1 -o "undefined reference to .[A-Za-z_0-9]*\|error: .*" "$out/log/build_$d.$t.txt" 2>/dev/null | head -c 120)
        echo "not-built ${why:-see $out/log/build_$d.$t.txt}" >"$r"; exit 0
    fi
    if [ "$np" -gt "$maxnp" ]; then echo "skipped needs $np processes (more than $maxnp)" >"$r"; exit 0; fi
    args= runenv= tl=$timeout rt=
    for a in "$@"; do
        case $a in
            env:*) runenv="$runenv ${a#env:}" ;;
            timeLimit=*) [ "${a#timeLimit=}" -lt "$tl" ] && tl=${a#timeLimit=} ;;
            mem=*)
                if awk -v m="${a#mem=}" -v x="$maxmem" "BEGIN { exit !(m > x) }"; then
                    echo "skipped needs ${a#mem=} GB of memory (more than $maxmem)" >"$r"
                    exit 0
                fi ;;
            resultTest=*) rt=${a#resultTest=} ;;
            xfail=*|strict=*|mpiversion=*) ;;
            *) args="$args $a" ;;
        esac
    done
    log=$res/$i.log
    t0=$(date +%s%N)
    # MPIEXEC_TIMEOUT as runtests sets it, for the launchers that end a job after it
    # (the mpiexec of MPICH and of Open MPI, mpirio-run); the limit of this script a
    # little later, for those that do not
    ( cd "$out/bin" && env $envs $runenv MPIEXEC_TIMEOUT="$tl" \
        timeout -k 5 $((tl + 10)) $launch -n "$np" "./$d.$t" $args ) </dev/null >"$log" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    echo $ms >"$res/$i.ms"
    if { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && [ $ms -ge $(((tl + 10) * 1000)) ]; then
        echo "failed timeout after $((tl + 10)) s" >"$r"
    elif [ $rc -ne 0 ] && [ $ms -ge $((tl * 1000)) ] && [ "$rt" != TestErrFatal ] &&
        [ "$rt" != TestStatus ]; then echo "failed timeout after ${tl} s (MPIEXEC_TIMEOUT)" >"$r"
    else sh "$self" judge "$log" "$rc" "$rt" "$d" >"$r"
    fi
' sh "$res" "$out" "$launch" "$timeout" "$maxnp" "$skip" "$envs" "$maxmem" "$keepenv" "$here/run_mpich.sh"

table=$out/$name.table
{
    echo "MPICH tests ($name): folder/test, processes, arguments, result"
    while read -r i d t np rest; do
        a=$(echo "$rest" | tr ' ' '\n' | grep -v '^env:\|^$\|^timeLimit=\|^mem=\|^xfail=\|^resultTest=' | tr '\n' ' ')
        e=$(echo "$rest" | tr ' ' '\n' | grep -c '^env:')
        [ "$e" -gt 0 ] && a="$a(+$e env)"
        printf '%-28s %3s  %-34s %s\n' "$d/$t" "$np" "$a" "$(cat "$res/$i.result" 2>/dev/null || echo 'failed no result')"
    done <"$res/runs.txt"
} >"$table"
cat "$table"
nprog=$(wc -l <"$out/programs.txt")
nbuilt=0
while read -r d t; do [ -x "$out/bin/$d.$t" ] && nbuilt=$((nbuilt + 1)); done <"$out/programs.txt"
count() { cat "$res"/*.result 2>/dev/null | grep -c "^$1" || true; }
p=$(count passed)
f=$(count failed)
s=$(count skipped)
nb=$(count not-built)
nr=$(wc -l <"$res/runs.txt")
# the programs that pass in at least one run
pp=$(while read -r i d t np rest; do
    grep -q '^passed' "$res/$i.result" 2>/dev/null && echo "$d/$t"
done <"$res/runs.txt" | sort -u | wc -l)
ms=$(cat "$res"/*.ms 2>/dev/null | awk '{ t += $1 } END { printf "%.0f", t / 1000 }')
echo "mpich ($name): $nprog programs, $nbuilt built; $nr runs: $p passed, $f failed," \
    "$s skipped, $nb not built; $pp programs pass; ${ms} s of runs" | tee -a "$table"
# per folder: programs, built, passing in at least one run
for d in $dirs; do
    np_=$(grep -c "^$d " "$out/programs.txt")
    nb_=$(while read -r dd t; do [ "$dd" = "$d" ] && [ -x "$out/bin/$dd.$t" ] && echo; done \
        <"$out/programs.txt" | wc -l)
    pp_=$(while read -r i dd t np rest; do
        [ "$dd" = "$d" ] && grep -q '^passed' "$res/$i.result" 2>/dev/null && echo "$t"
    done <"$res/runs.txt" | sort -u | wc -l)
    echo "  $d: $np_ programs, $nb_ built, $pp_ pass"
done | tee -a "$table"
# the slowest runs
for f in "$res"/*.ms; do [ -f "$f" ] && echo "$(cat "$f") $(basename "$f" .ms)"; done |
    sort -rn | head -n 5 | while read -r t i; do
        echo "  slow: $(sed -n "${i}p" "$res/runs.txt" | cut -d' ' -f2-4) $t ms"
    done
rc=0
if [ -n "$expect" ]; then
    # each expected line against the run of the same folder, test, processes, arguments
    while read -r i rest; do
        echo "$rest|$(head -n 1 "$res/$i.result" 2>/dev/null)"
    done <"$res/runs.txt" >"$res/outcomes.txt"
    missing=$(awk -F'|' 'NR == FNR { o[$1] = $2; next }
        /^#/ || NF == 0 { next }
        { k = $0; sub(/[ \t]+$/, "", k)
          if (!(k in o)) print k ": not in the testlists"
          else if (o[k] !~ /^passed/) print k ": " o[k] }' "$res/outcomes.txt" "$expect")
    if [ -n "$missing" ]; then
        printf '%s\n' "$missing" | sed "s/^/mpich ($name): expected to pass: /"
        rc=1
    fi
fi
exit $rc
