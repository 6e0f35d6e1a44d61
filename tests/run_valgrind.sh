#!/bin/sh
# tests/run_valgrind.sh VALGRIND TGC TESTCASES - `tgc check` under valgrind (memcheck, full
# leak check) on the valid examples and a handful of bad inputs that go through every
# reader's error paths.  Fails when valgrind reports an error or a leak (exit 9), or when the
# exit status of tgc is not the one expected.
set -u
vg=$1
tgc=$2
cd "$3" || exit 1
fail=0
log=$(mktemp)

run() { # run DIR WANT_STATUS ARGS...
    dir=$1 want=$2
    shift 2
    (cd "$dir" && "$vg" -q --leak-check=full --error-exitcode=9 "$tgc" "$@") >/dev/null 2>"$log"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: (cd $dir && tgc $*): exit $rc, expected $want"
        cat "$log"
        fail=1
    fi
}

for n in fir4 chain4 worked topcuoglu peft; do
    run "$n" 0 check --json "$n.json"
done
run . 0 check fir4/fir4.json chain4/chain4.json worked/worked.json
for c in syntax-missing-comma syntax-duplicate-key unknown-field-task many-errors \
    many-semantic-errors cycle-two-loops platform-file-syntax platform-file-unknown-field \
    platform-disconnected limit-max-file-size limit-max-tasks kernel-header-missing; do
    args=""
    [ -f "invalid/$c/args" ] && args=$(cat "invalid/$c/args")
    # shellcheck disable=SC2086
    run "invalid/$c" 1 check $args input.json
done
run . 2 check --no-such-option chain4/chain4.json
rm -f "$log"
exit $fail
