# tests/expect.sh - sourced by the shell tests that run tgc: expect STATUS STDERR ARGS...
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
