#!/bin/sh
# layers.sh: checks that the files of libmpirio call each other in one direction,
# the layers of runtime/mpirio_int.h.
#
#   layers.sh LIBMPIRIO.a [TABLE]
#
# TABLE (default: the one below) has a line "FILE LAYER" per source file, layer 1 the
# top. From the symbols of the archive (nm): a file may use a global symbol of another
# file only if that file is on a lower layer (a larger number): no call goes up, none
# sideways, so there is no circle. The API layer (layer 1: api.c and the MPI files
# mpi_*.c, one layer split into files with one internal header, mpi_int.h) is the
# exception: its files call each other; of the transport they use only the tr_
# functions. read.c, fields.c and presets.c are platform/'s (the platform description
# and its reader, tgc's too), compiled into libmpirio below all of its own files. Every object
# of the archive must be in the table. Prints each
# offending use and exits 1; exits 0 when there is none.
set -eu
lib=${1:?usage: layers.sh LIBMPIRIO.a [TABLE]}
table=${2:-}
default_table='api.c 1
mpi_env.c 1
mpi_comm.c 1
mpi_type.c 1
mpi_p2p.c 1
mpi_coll.c 1
sim_run.c 2
sim_p2p.c 3
sim_coll.c 3
sim_net.c 4
sim_kernel.c 5
platform_load.c 6
datatype.c 6
trace.c 6
fiber.c 6
read.c 7
fields.c 8
presets.c 9'
[ -r "$lib" ] || { echo "layers.sh: cannot read $lib" >&2; exit 1; }
syms=$(nm -A -P "$lib") || { echo "layers.sh: nm failed on $lib" >&2; exit 1; }
[ -n "$syms" ] || { echo "layers.sh: no symbols in $lib" >&2; exit 1; }
if [ -n "$table" ]; then
    tab=$(cat "$table")
else
    tab=$default_table
fi
out=$(printf '%s\n' "$tab" | awk '
    BEGIN { transport_top = 2; transport_bottom = 5 }
    FNR == NR { layer[$1] = $2; next }
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
            if (layer[g] == 1 && layer[f] == 1)
                continue
            if (layer[g] <= layer[f]) {
                printf "layers.sh: %s (layer %d) uses %s of %s (layer %d): %s\n", f,
                       layer[f], s, g, layer[g],
                       layer[g] < layer[f] ? "a call upward" : "a call sideways"
                bad = 1
            } else if (layer[f] == 1 && layer[g] >= transport_top &&
                       layer[g] <= transport_bottom && s !~ /^tr_/) {
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
