#!/bin/sh
# cc_refuse.sh MPIRIO_CC_SCRIPT WORKDIR: mpirio-cc refuses, at build time, a program that
# calls what neither it, the C library nor MPIRIO defines; before,
# such a program built with a warning and failed at start with "undefined symbol".
#   1. a call to MPIX_Comm_undeclared, which mpi.h does not declare: an error at compile time,
#      with -o (compile and link) and with -c;
#   2. the same function declared by the program itself: an error at link time;
#   3. a call to a function of the program that it declares and never defines;
# in each case exit status 1, the compiler's or linker's message naming the function,
# and no program written.  Then the same programs with the function defined build and
# run, so the refusals come from the undefined calls and nothing else.
set -u
cc=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1
fail() {
    echo "cc_refuse: $*" >&2
    exit 1
}
# refuse NAME REGEX ARGS...: "$cc ARGS" must fail with REGEX on stderr, writing no NAME
refuse() {
    name=$1 regex=$2
    shift 2
    if "$cc" "$@" 2>err; then
        fail "mpirio-cc $* built; it must refuse it"
    fi
    grep -q -- "$regex" err || { cat err >&2; fail "mpirio-cc $*: no \"$regex\" in the message"; }
    for f in "$name" "$name.so"; do
        [ ! -e "$f" ] || fail "mpirio-cc $*: wrote $f"
    done
}

cat >undeclared.c <<'C'
#include <mpi.h>
#include <stdio.h>
int
main(int argc, char **argv)
{
    MPI_Comm c;
    MPI_Init(&argc, &argv);
    MPIX_Comm_undeclared(MPI_COMM_WORLD, &c);
    puts("ran");
    MPI_Finalize();
    return 0;
}
C
refuse undeclared "implicit declaration of function .MPIX_Comm_undeclared" -o undeclared undeclared.c
refuse undeclared.o "implicit declaration of function .MPIX_Comm_undeclared" -c undeclared.c

sed 's/^int$/int MPIX_Comm_undeclared(MPI_Comm, MPI_Comm *);\nint/' undeclared.c >declared.c
refuse declared "undefined reference to .MPIX_Comm_undeclared" -o declared declared.c
"$cc" -c declared.c || fail "mpirio-cc -c declared.c: the object alone must build"
refuse declared "undefined reference to .MPIX_Comm_undeclared" -o declared declared.o
grep -q "must call only what it, the C library and MPIRIO define" err ||
    fail "mpirio-cc -o declared declared.o: no word of what is wrong"

cat >helper.c <<'C'
#include <mpi.h>
#include <stdio.h>
int helper(int x);
int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    printf("helper %d\n", helper(20));
    MPI_Finalize();
    return 0;
}
C
refuse helper "undefined reference to .helper" -o helper helper.c

# defined, the same programs build and run
printf 'int MPIX_Comm_undeclared(MPI_Comm a, MPI_Comm *b) { *b = a; return 0; }\n' >>declared.c
"$cc" -o declared declared.c || fail "declared.c with MPIX_Comm_undeclared defined did not build"
MPIRIO_NP=2 ./declared | grep -q "^ran$" || fail "declared did not run"
printf 'int helper(int x) { return x + 1; }\n' >helper2.c
"$cc" -o helper helper.c helper2.c || fail "helper.c helper2.c did not build"
MPIRIO_NP=2 ./helper | grep -q "^helper 21$" || fail "helper did not run"
echo "mpirio-cc refuses undefined calls: OK"
