#!/bin/sh
# compare.sh: MPICH's tests under libmpirio (both collective families) and, in the same
# run, under Open MPI and MPICH run natively, each built with its own compiler wrapper
# and judged by run_mpich.sh (MPICH's runtests rules); prints the programs built and
# passing per folder for each, the table of docs/runtime.md ("MPICH's tests").
#
#   compare.sh SRC OUT BUILD [--dirs "D..."] [--jobs J] [--max-np N] [--timeout S]
#
# SRC: the folder test/mpi of the MPICH tests; OUT: a scratch folder (one subfolder per
# implementation, with run_mpich.sh's tables and logs); BUILD: tgc's build folder (its
# runtime/mpirio-cc and runtime/mpirio-run). --dirs as run_mpich.sh's. libmpirio's runs
# skip what tests/mpich/skip.txt lists (MPI-4 calls, ...); the native ones skip nothing
# (an MPI that has the call gets to pass the test). Open MPI and MPICH are Debian's
# (setup.sh installs both): mpicc.openmpi and mpirun.openmpi --oversubscribe,
# mpicc.mpich and mpiexec.mpich; an implementation that is not installed is left out,
# saying so. Exit 0, 1 on a usage or build error, 77 when SRC is absent.
set -u
src=${1:-}
out=${2:-}
build=${3:-}
if [ -z "$src" ] || [ -z "$out" ] || [ -z "$build" ]; then
    echo "usage: compare.sh SRC OUT BUILD [--dirs \"D...\"] [--jobs J] [--max-np N]" >&2
    exit 2
fi
shift 3
here=$(cd "$(dirname "$0")" && pwd)
dirs="basic pt2pt coll comm group datatype attr" jobs=2 maxnp=16 timeout=60
while [ $# -gt 0 ]; do
    case $1 in
        --dirs) dirs=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --max-np) maxnp=$2; shift 2 ;;
        --timeout) timeout=$2; shift 2 ;;
        *) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
build=$(cd "$build" && pwd) || exit 1
mkdir -p "$out"
out=$(cd "$out" && pwd)
runner="sh $here/run_mpich.sh"
root=
[ "$(id -u)" -eq 0 ] && root=--allow-run-as-root

# name, compiler wrapper, launcher, the build's extra options, the runs' extra options
impls="mpirio|$build/runtime/mpirio-cc|$build/runtime/mpirio-run|--defs $build/runtime/mpirio-run|--skip $here/skip.txt"
if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
    impls="$impls
openmpi|mpicc.openmpi|mpirun.openmpi --oversubscribe $root||"
else
    echo "compare.sh: Open MPI (mpicc.openmpi, mpirun.openmpi) is not installed: left out"
fi
if command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null; then
    impls="$impls
mpich|mpicc.mpich|mpiexec.mpich||"
else
    echo "compare.sh: MPICH (mpicc.mpich, mpiexec.mpich) is not installed: left out"
fi

t0=$(date +%s)
echo "$impls" | while IFS='|' read -r name cc launch bopt ropt; do
    # shellcheck disable=SC2086 # bopt is a list of options
    $runner build "$src" "$out/$name" "$cc" --jobs "$jobs" --dirs "$dirs" $bopt || exit $?
    if [ "$name" = mpirio ]; then
        for coll in switch mpich; do
            # shellcheck disable=SC2086
            MPIRIO_COLL=$coll $runner run "$src" "$out/$name" "$launch" "$coll" --jobs "$jobs" \
                --max-np "$maxnp" --timeout "$timeout" $ropt >/dev/null
        done
    else
        # shellcheck disable=SC2086
        $runner run "$src" "$out/$name" "$launch" "$name" --jobs "$jobs" --max-np "$maxnp" \
            --timeout "$timeout" $ropt >/dev/null
    fi
done || exit 1

# the counts per folder, from each run's table
row() { # table folder -> "built pass"
    awk -v d="$2" '$1 == d ":" { print $4, $6 }' "$1"
}
echo "MPICH's tests ($(echo "$dirs" | tr ' ' ','); --max-np $maxnp, --timeout $timeout;" \
    "$(($(date +%s) - t0)) s): programs built / passing in at least one run"
printf '| folder | programs | mpirio built | mpirio switch | mpirio mpich |'
[ -f "$out/openmpi/openmpi.table" ] && printf ' Open MPI built | Open MPI |'
[ -f "$out/mpich/mpich.table" ] && printf ' MPICH built | MPICH |'
echo
tot=
for d in $dirs total; do
    if [ "$d" = total ]; then
        printf '| all | %s |' "$(echo "$tot" | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s }')"
    else
        n=$(grep -c "^$d " "$out/mpirio/programs.txt")
        tot="$tot $n"
        printf '| %s | %s |' "$d" "$n"
    fi
    for t in mpirio/switch mpirio/mpich openmpi/openmpi mpich/mpich; do
        f=$out/$(dirname "$t")/$(basename "$t").table
        [ -f "$f" ] || continue
        if [ "$d" = total ]; then
            r=$(awk '/^  [a-z0-9_]*: [0-9]* programs/ { b += $4; p += $6 } END { print b, p }' "$f")
        else
            r=$(row "$f" "$d")
        fi
        set -- $r
        case $t in
            mpirio/switch) printf ' %s | %s |' "$1" "$2" ;;
            mpirio/mpich) printf ' %s |' "$2" ;;
            *) printf ' %s | %s |' "$1" "$2" ;;
        esac
    done
    echo
done
