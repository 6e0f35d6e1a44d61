#!/bin/sh
# layers.sh: checks that the files of libmpirio call each other in one direction,
# the layers of runtime/mpirio_int.h and docs/runtime.md.
#
#   layers.sh LIBMPIRIO.a [--swap FILE1 FILE2] [TABLE]
#
# TABLE (default: the one below) has a line "FILE LAYER [transport]" per source file,
# layer 1 the top. From the symbols of the archive (nm): a file may use a global
# symbol of another file only if that file is on a lower layer (a larger number): no
# call goes up, none sideways, so there is no circle. The files above the transport
# (the API layer: the MPIRIO names api.c, the MPI names mpi_*.c, the collective
# algorithms coll.c and api_base.c) use of the transport (the files marked transport)
# only its tr_ functions. read.c, fields.c and presets.c are platform/'s (the platform
# description and its reader, tgc's too), compiled into libmpirio below all of its own
# files. The table covers the simulation's libmpirio.a and the MPI transport's
# libraries (tr_mpi.c, mpi_env_tr.c). --swap exchanges the layers of two files of the
# table (the tests show so that the check finds a call upward). Every object of the
# archive must be in the table. Prints each offending use and exits 1; exits 0 when
# there is none.
set -eu
lib=${1:?usage: layers.sh LIBMPIRIO.a [--swap FILE1 FILE2] [TABLE]}
shift
swap1= swap2=
if [ "${1:-}" = "--swap" ]; then
    swap1=${2:?--swap wants two files}
    swap2=${3:?--swap wants two files}
    shift 3
fi
table=${1:-}
default_table='api.c 1
mpi_nbc.c 1
mpi_session.c 1
mpi_coll.c 2
mpi_p2p.c 3
mpi_comm.c 4
mpi_type.c 5
mpi_env.c 6
mpi_env_tr.c 6
coll.c 7
api_base.c 7
sim_run.c 8 transport
tr_mpi.c 8 transport
sim_p2p.c 9 transport
sim_coll.c 9 transport
sim_net.c 10 transport
sim_kernel.c 11 transport
platform_load.c 12
datatype.c 12
trace.c 12
fiber.c 12
read.c 13
fields.c 14
presets.c 15'
[ -r "$lib" ] || { echo "layers.sh: cannot read $lib" >&2; exit 1; }
syms=$(nm -A -P "$lib") || { echo "layers.sh: nm failed on $lib" >&2; exit 1; }
[ -n "$syms" ] || { echo "layers.sh: no symbols in $lib" >&2; exit 1; }
if [ -n "$table" ]; then
    tab=$(cat "$table")
else
    tab=$default_table
fi
if [ -n "$swap1" ]; then
    tab=$(printf '%s\n' "$tab" | awk -v a="$swap1" -v b="$swap2" '
        { f[NR] = $1; l[NR] = $2; t[NR] = $3; if ($1 == a) la = $2; if ($1 == b) lb = $2 }
        END {
            if (la == "" || lb == "") { print "layers.sh: --swap: not in the table" > "/dev/stderr"; exit 1 }
            for (i = 1; i <= NR; i++)
                print f[i], (f[i] == a ? lb : f[i] == b ? la : l[i]), t[i]
        }') || exit 1
fi
out=$(printf '%s\n' "$tab" | awk '
    FNR == NR {
        layer[$1] = $2
        if ($3 == "transport")
            transport[$1] = 1
        next
    }
    {
        # "lib.a[file.c.o]: symbol TYPE value size"
        obj = $1
        sub(/^.*\[/, "", obj)
        sub(/\.o\]:$/, "", obj)
        sym = $2
        type = $3
        objs[obj] = 1
        if (type == "U")
            uses[obj, sym] = 1
        else if (type ~ /^[TDBRGSVW]$/)
            def[sym] = obj
    }
    END {
        top = 0
        for (f in transport)
            if (top == 0 || layer[f] < top)
                top = layer[f]
        bad = 0
        for (o in objs)
            if (!(o in layer)) {
                printf "layers.sh: %s is not in the table of layers\n", o
                bad = 1
            }
        for (k in uses) {
            split(k, p, SUBSEP)
            f = p[1]
            s = p[2]
            if (!(s in def) || def[s] == f)
                continue
            g = def[s]
            if (!(f in layer) || !(g in layer))
                continue
            if (layer[g] <= layer[f]) {
                printf "layers.sh: %s (layer %d) uses %s of %s (layer %d): %s\n", f,
                       layer[f], s, g, layer[g],
                       layer[g] < layer[f] ? "a call upward" : "a call sideways"
                bad = 1
            } else if (layer[f] < top && (g in transport) && s !~ /^tr_/) {
                printf "layers.sh: %s uses %s of %s: the API layer calls only tr_ " \
                       "functions of the transport\n", f, s, g
                bad = 1
            }
        }
        exit bad
    }
' - /dev/fd/3 3<<EOF
$syms
EOF
) && rc=0 || rc=$?
[ -z "$out" ] || printf '%s\n' "$out" | sort
exit $rc
