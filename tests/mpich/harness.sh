#!/bin/sh
# tests/mpich/harness.sh: run_mpich.sh itself, on a fake MPICH test tree whose "programs"
# are shell scripts (a fake compiler wrapper copies them, a fake launcher runs them
# under MPIEXEC_TIMEOUT as mpiexec does): each run must get the result MPICH's
# runtests gives it (No [Ee]rrors, stray output, Test Skipped, resultTest=TestStatus,
# TestErrFatal, TestAllowWarnings, timeLimit), and --expect must fail on a run that
# did not pass. Exit 0 or 1 (the cases that went wrong are listed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
mkdir -p "$src/util" "$src/include" "$src/dtpools/include" "$src/dtpools/src" "$src/comm"
for f in mtest mtest_common mtest_single dtypes run_mpitests; do
    echo "/* harness stub */" >"$src/util/$f.c"
done

# program NAME BODY: a test whose run does BODY (sh)
program() {
    printf '%s\n' "$2" >"$src/comm/$1.c"
}
program pass 'echo " No Errors"'
program lower 'echo "No errors"'
program twice 'echo " No Errors"; echo " No Errors"'
program stray 'echo "checking"; echo " No Errors"'
program failrc 'echo " No Errors"; exit 3'
program none 'exit 0'
program skip 'echo "Test Skipped"'
program status 'echo "error ends the program"; exit 1'
program statuszero 'echo " No Errors"'
program fatal 'exit 1'
program fatalzero 'exit 0'
program fatalslow 'sleep 30'
program slow 'sleep 30; echo " No Errors"'
program warn 'echo "WARNING: something"; echo " No Errors"'
program warnok 'echo "WARNING: something"; echo " No Errors"'
program args 'test "$1 $2" = "-a b" && echo " No Errors"'
cat >"$src/comm/testlist.in" <<'EOF'
# the fake tests
pass 1
lower 2
twice 1
stray 1
failrc 1
none 1
skip 1
status 1 resultTest=TestStatus
statuszero 1 resultTest=TestStatus
fatal 1 resultTest=TestErrFatal
fatalzero 1 resultTest=TestErrFatal
fatalslow 1 resultTest=TestErrFatal timeLimit=1
slow 1 timeLimit=1
warn 1
warnok 1 resultTest=TestAllowWarnings
args 1 arg=-a arg=b
EOF
# the fake compiler wrapper: -c writes an empty object, else OUT runs the first .c
cat >"$tmp/cc" <<'EOF'
#!/bin/sh
out= c= obj=0
while [ $# -gt 0 ]; do
    case $1 in
        -o) out=$2; shift ;;
        -c) obj=1 ;;
        *.c) [ -z "$c" ] && c=$1 ;;
    esac
    shift
done
if [ $obj = 1 ]; then : >"$out"; exit 0; fi
{ echo '#!/bin/sh'; cat "$c"; } >"$out" && chmod +x "$out"
EOF
# the fake launcher: -n N PROG ARGS, ended after MPIEXEC_TIMEOUT seconds (exit 124)
cat >"$tmp/launch" <<'EOF'
#!/bin/sh
shift 2
exec timeout "${MPIEXEC_TIMEOUT:-60}" "$@"
EOF
chmod +x "$tmp/cc" "$tmp/launch"

fail=0
if ! sh "$here/run_mpich.sh" build "$src" "$tmp/out" "$tmp/cc" --dirs comm >"$tmp/build.txt" 2>&1; then
    echo "harness: the build failed:"
    cat "$tmp/build.txt"
    exit 1
fi
sh "$here/run_mpich.sh" run "$src" "$tmp/out" "$tmp/launch" fake --timeout 20 >"$tmp/run.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "harness: run without --expect: exit status $rc"; fail=1; }

# want TEST RESULT-PREFIX
want() {
    i=$(awk -v t="$1" '$3 == t { print $1; exit }' "$tmp/out/fake.d/runs.txt")
    got=$(cat "$tmp/out/fake.d/$i.result" 2>/dev/null)
    case $got in
        "$2"*) ;;
        *) echo "harness: comm/$1: expected \"$2...\", got \"$got\""; fail=1 ;;
    esac
}
want pass passed
want lower passed
want twice "failed output besides No Errors"
want stray "failed output besides No Errors: checking"
want failrc "failed exit status 3"
want none 'failed no "No Errors"'
want skip "skipped the program printed Test Skipped"
want status passed
want statuszero "failed exit status 0 (TestStatus"
want fatal passed
want fatalzero "failed exit status 0 (TestErrFatal"
want fatalslow passed
want slow "failed timeout after 1 s (MPIEXEC_TIMEOUT)"
want warn "failed output besides No Errors: WARNING: something"
want warnok passed
want args passed
grep -q "^  comm: 16 programs, 16 built, 7 pass$" "$tmp/out/fake.table" ||
    { echo "harness: the counts are wrong:"; tail -3 "$tmp/out/fake.table"; fail=1; }

# --expect: exit 0 when every listed run passed, 1 (naming it) when one did not
printf 'comm pass 1\ncomm status 1 resultTest=TestStatus\n' >"$tmp/good.txt"
printf 'comm pass 1\ncomm twice 1\n' >"$tmp/bad.txt"
sh "$here/run_mpich.sh" run "$src" "$tmp/out" "$tmp/launch" fake --timeout 20 \
    --expect "$tmp/good.txt" >"$tmp/good.out" 2>&1 ||
    { echo "harness: --expect of passing runs failed"; fail=1; }
sh "$here/run_mpich.sh" run "$src" "$tmp/out" "$tmp/launch" fake --timeout 20 \
    --expect "$tmp/bad.txt" >"$tmp/bad.out" 2>&1
rc=$?
if [ $rc -ne 1 ] || ! grep -q "expected to pass: comm twice 1: failed" "$tmp/bad.out"; then
    echo "harness: --expect of a failing run: exit status $rc"
    tail -3 "$tmp/bad.out"
    fail=1
fi
[ $fail -eq 0 ] && echo "harness: every run judged as MPICH's runtests judges it"
exit $fail
