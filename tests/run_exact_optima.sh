#!/bin/sh
# --algo=exact against the published optima of the Auckland DOT graphs (docs/scheduler.md):
# every graph of up to 21 tasks, the search started from HEFT's schedule (often far above
# the optimum, so that the search must find the optimum, not only prove the default's
# length); bench_sched fails when a proven length differs from the published optimum (or
# a schedule beats it).  Skipped, saying so, when the data folder is absent.
#
#   run_exact_optima.sh BENCH_SCHED DATA_DIR
set -u
prog=$1
data=$2/dot-optimal
if [ ! -d "$data" ]; then
    echo "SKIP: $data is missing (the DOT graphs with published optima)"
    exit 77
fi
out=$("$prog" --dot "$data" --exact 10 --exact-max-tasks 21 --exact-from-heft) || exit 1
# the exact table must have rows for the 10- and 21-task graphs, all proven and agreeing
echo "$out" | awk -F, '
    /^table exact/ { on = 1; next }
    /^table / { on = 0 }
    on && /^row dot,/ {
        rows++
        printf "%s tasks on %s DSPs: %s graphs, %s proven, %s agree\n", $2, $3, $4, $5, $6
        if ($6 != $5) bad = 1
    }
    END { if (rows < 4 || bad) exit 1 }'
