#!/bin/sh
# tests/run_exit_status.sh TGC MPIRIO_RUN MPIRIO_CC SOURCE EXAMPLES CC: the one exit-status
# table of docs/cli.md ("Exit status") holds for every tool: tgc, mpirio-run, mpirio-cc
# and the programs tgc compile writes (parallel, sequential).  Each row is checked for each
# tool that has it: 0 success, 1 bad input or a failed run, 2 bad usage (one line "TOOL:
# error: ..." first, then the usage or where it is), 3 a deadlock (its report on stderr),
# 128 + S a signal; and every diagnostic is on stderr, stdout empty when a run fails.
# EXAMPLES: the folder of the runtime's example modules (deadlock.so, mpi_ring.so); CC:
# the compiler of the build (that of tgc run's programs).
# The deadlocks of tgc run and of a generated program are made by a compiler wrapper
# ($TGC_CC) that deletes one send from the generated code before compiling it: the
# compiler never emits a schedule that deadlocks, so only a changed program can.
set -u
tgc=$1 run=$2 mpicc=$3 src=$4 ex=$5
REAL_CC=${6:-cc}
export REAL_CC
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# st WANT FIRST_STDERR_LINE_PATTERN STDOUT(empty|any) CMD...: the exit status is WANT,
# the first line of stderr matches the shell pattern, stdout is empty if asked
st() {
    want=$1 pat=$2 so=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    first=$(head -n 1 "$tmp/err")
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: $*: exit $rc, expected $want; stderr:"
        head -n 5 "$tmp/err"
        fail=1
    fi
    # shellcheck disable=SC2254 # a pattern on purpose
    case $first in $pat) ;; *)
        echo "FAIL: $*: stderr's first line is '$first', expected '$pat'"
        fail=1 ;;
    esac
    if [ "$so" = empty ] && [ -s "$tmp/out" ]; then
        echo "FAIL: $*: a diagnostic on stdout: $(head -n 3 "$tmp/out")"
        fail=1
    fi
}

g=$src/testcases/worked/worked.json
# ---- tgc
st 0 "" any "$tgc" check "$g"
st 1 "*missing.json: error: cannot read file*" empty "$tgc" check "$tmp/missing.json"
st 1 "*bad.json:1:*: error: *" empty sh -c 'printf "{" >"$1/bad.json"; "$2" schedule "$1/bad.json"' sh "$tmp" "$tgc"
st 2 'tgc: error: unknown option "--bogus"*' empty "$tgc" schedule --bogus "$g"
st 2 'tgc: error: option "--dsps" needs a value*' empty "$tgc" schedule "$g" --dsps
st 2 "tgc: error: unknown command*" empty "$tgc" frobnicate
grep -q "^run 'tgc help schedule' for the options" "$tmp/err" 2>/dev/null ||
    "$tgc" schedule --bogus "$g" 2>&1 | sed -n 2p | grep -q "^run 'tgc help schedule'" ||
    { echo "FAIL: tgc's usage error is not followed by where the options are"; fail=1; }
st 0 "" any "$tgc" run "$g"
# a run whose parallel program deadlocks: 3, the runtime's report on stderr
cat >"$tmp/cc-nosend" <<'EOF'
#!/bin/sh
# deletes DSP 0's send of m0 from the generated code, then compiles
for a in "$@"; do
    case $a in */dsp0.c) sed -i 's/tgc_send(&m0, it);//' "$a" ;; esac
done
exec "$REAL_CC" "$@"
EOF
chmod +x "$tmp/cc-nosend"
# (a deadlocked run is checked for its status, not for leaks: LeakSanitizer off there)
nolsan=$(printf '%s' "${ASAN_OPTIONS:-}" | sed 's/detect_leaks=1/detect_leaks=0/')
st 3 "tgc: error: the parallel program deadlocked" empty env ASAN_OPTIONS="$nolsan" TGC_CC="$tmp/cc-nosend" "$tgc" run "$g"
grep -q "deadlock at cycle" "$tmp/err" || { echo "FAIL: tgc run's deadlock has no report"; fail=1; }
st 3 "tgc: error: the parallel program deadlocked" empty env ASAN_OPTIONS="$nolsan" TGC_CC="$tmp/cc-nosend" "$tgc" run "$g" --json
# ---- the generated programs
# (built by tgc run --keep: the project and its programs stay)
"$tgc" run "$g" --keep "$tmp/p" >/dev/null 2>&1
ASAN_OPTIONS="$nolsan" TGC_CC="$tmp/cc-nosend" "$tgc" run "$g" --keep "$tmp/d" >/dev/null 2>&1
if [ -x "$tmp/p/parallel" ] && [ -x "$tmp/p/sequential" ] && [ -x "$tmp/d/parallel" ]; then
    for prog in parallel sequential; do
        p=$tmp/p/$prog
        st 0 "" any "$p" --quiet --platform "$tmp/p/platform.json"
        st 0 "" any "$p" --help
        grep -q "^usage: $prog" "$tmp/out" || { echo "FAIL: $prog --help"; fail=1; }
        grep -q "3 a deadlock" "$tmp/out" || { echo "FAIL: $prog --help has not the table"; fail=1; }
        st 0 "" any "$p" --quiet --platform="$tmp/p/platform.json" --output-dir "$tmp"
        st 2 "$prog: error: unknown option \"--bogus\"" empty "$p" --bogus
        sed -n 2p "$tmp/err" | grep -q "^usage: $prog" || { echo "FAIL: $prog: no usage after the error"; fail=1; }
        st 2 "$prog: error: option \"--platform\" needs a value" empty "$p" --platform
        st 2 "$prog: error: unexpected operand \"x\"" empty "$p" x
        st 1 "*$tmp/none.json*" any "$p" --quiet --platform "$tmp/none.json"
    done
    st 3 "parallel: error: deadlock" any env ASAN_OPTIONS="$nolsan" "$tmp/d/parallel" --quiet --platform "$tmp/d/platform.json"
    grep -q "deadlock at cycle" "$tmp/err" || { echo "FAIL: parallel's deadlock report is not on stderr"; fail=1; }
    ! grep -q "deadlock" "$tmp/out" || { echo "FAIL: parallel's deadlock report is on stdout"; fail=1; }
else
    echo "FAIL: tgc run --keep built no programs"
    fail=1
fi
# ---- mpirio-run
st 0 "" any "$run" -n 4 "$ex/mpi_ring.so"
st 1 'mpirio-run: error: cannot run "*none.so": No such file or directory' empty "$run" -n 2 "$tmp/none.so"
st 1 'mpirio-run: error: "/bin/sh" is not a program built by mpirio-cc*' empty "$run" -n 2 /bin/sh
st 1 "*MPIRIO_COLL (--coll)*" empty "$run" -n 2 --coll=bogus "$ex/mpi_ring.so"
st 2 'mpirio-run: error: unknown option "--bogus"' empty "$run" --bogus "$ex/mpi_ring.so"
sed -n 2p "$tmp/err" | grep -q "^usage: mpirio-run" || { echo "FAIL: mpirio-run: no usage after the error"; fail=1; }
st 2 'mpirio-run: error: -n wants a number of DSPs*' empty "$run" -n 4x "$ex/mpi_ring.so"
st 2 'mpirio-run: error: option "--trace" needs a value' empty "$run" -n 2 "--trace"
st 3 "*deadlock at cycle*" any "$run" -n 4 "$ex/deadlock.so"
# a run longer than MPIEXEC_TIMEOUT (mpiexec's limit): ended, 1; a limit that is no number
printf '#include <mpi.h>\nint main(void) { MPI_Init(0, 0); double t = MPI_Wtime();\n%s\n' \
    'while (MPI_Wtime() - t < 1e6) ; MPI_Finalize(); return 0; }' >"$tmp/spin.c"
if "$mpicc" -o "$tmp/spin" "$tmp/spin.c" 2>"$tmp/err"; then
    st 1 "mpirio-run: the run took longer than MPIEXEC_TIMEOUT=1 seconds: ended" any \
        env MPIEXEC_TIMEOUT=1 "$run" -n 2 "$tmp/spin.so"
else
    echo "FAIL: mpirio-cc cannot build the spinning program: $(head -n 3 "$tmp/err")"
    fail=1
fi
st 1 'mpirio-run: error: MPIEXEC_TIMEOUT wants a number of seconds: "soon"' empty \
    env MPIEXEC_TIMEOUT=soon "$run" -n 2 "$ex/mpi_ring.so"
# ---- mpirio-cc
st 0 "" any "$mpicc" -show -o "$tmp/r" "$src/runtime/examples/p2p_ring.c"
st 2 "mpirio-cc: error: -o needs a file name" empty "$mpicc" "$src/runtime/examples/p2p_ring.c" -o
st 2 'mpirio-cc: error: unknown option "--showme:bogus"*' empty "$mpicc" --showme:bogus
printf 'int main(void) { return undeclared_call(); }\n' >"$tmp/bad.c"
st 1 "*" empty "$mpicc" -o "$tmp/bad" "$tmp/bad.c"

[ $fail = 0 ] && echo "exit statuses: one table for tgc, the generated programs, mpirio-run, mpirio-cc"
exit $fail
