# tests/expect.sh - sourced by the shell tests that run tgc.
#
# scratch TGC: the start of a test script that stays in its folder: tgc=TGC, fail=0, $tmp
# a scratch folder removed at the exit, and expect's $out and $err in it, unwrapped.
scratch() {
    tgc=$1
    fail=0
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    expect_wrap=
    out=$tmp/stdout err=$tmp/stderr
}

# start TGC DIR: scratch TGC, then DIR the current folder.
start() {
    scratch "$1"
    cd "$2" || exit 1
}

# case_args: the words of the golden case's optional file `args` (nothing without one).
case_args() {
    if [ -f args ]; then
        cat args
    fi
}

# check MESSAGE COMMAND...: fail with MESSAGE unless COMMAND succeeds (stdout dropped).
check() {
    msg=$1
    shift
    if ! "$@" >/dev/null; then
        echo "FAIL: $msg"
        fail=1
    fi
}

# expect STATUS STDERR ARGS...
# runs "$tgc" ARGS with stdout to $out and stderr to $err, and sets fail=1 (printing both
# sides) unless the exit status is STATUS and stderr is exactly STDERR.  $expect_wrap, when
# set, is a command put before tgc (timeout 20).
expect() {
    want_rc=$1 want_err=$2
    shift 2
    ${expect_wrap:-} "$tgc" "$@" >"$out" 2>"$err"
    rc=$?
    if [ "$rc" -ne "$want_rc" ] || [ "$(cat "$err")" != "$want_err" ]; then
        echo "FAIL: tgc $*: exit $rc (expected $want_rc), stderr:"
        cat "$err"
        echo "expected stderr:"
        echo "$want_err"
        fail=1
    fi
}

# The verdicts of the golden cases (run_valid.sh, run_invalid.sh, run_import_sdf3.sh):
# each sets fail=1 and says why unless it holds.
# want_status RC WANT: the exit status RC is WANT.
want_status() {
    if [ "$1" -ne "$2" ]; then
        echo "exit status $1, expected $2"
        fail=1
    fi
}
# want_empty FILE WHAT: FILE (the output WHAT) is empty.
want_empty() {
    if [ -s "$1" ]; then
        echo "$2 should be empty, got:"
        cat "$1"
        fail=1
    fi
}
# want_same EXPECTED GOT WHAT: the file GOT (the output WHAT) is exactly EXPECTED, which is
# named relative to $dir.
want_same() {
    if ! cmp -s "$1" "$2"; then
        echo "$3 differs from $dir/$1 (- expected, + got):"
        diff -u "$1" "$2" | tail -n +3
        fail=1
    fi
}
