#!/bin/sh
# run_file_sizes.sh SRC: every file of code under SRC (C, headers, shell, Python, CMake;
# not the build folders, nor data, figures and prose) has fewer than 2000 lines (issue 33:
# a file that grows past it is split where its concepts are). Prints each file over the
# limit and exits 1; exits 1 too when it found almost nothing to check (a wrong SRC).
set -u
src=${1:?usage: run_file_sizes.sh SRC}
limit=2000
list=$(find "$src" \( -path "$src/build*" -o -path "$src/.git" \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.py' -o -name '*.cmake' \
    -o -name CMakeLists.txt \) -print | LC_ALL=C sort)
n=$(printf '%s\n' "$list" | grep -c .)
if [ "$n" -lt 100 ]; then
    echo "run_file_sizes.sh: only $n files of code under $src" >&2
    exit 1
fi
over=$(printf '%s\n' "$list" | while IFS= read -r f; do
    l=$(wc -l <"$f" 2>/dev/null) || continue
    if [ "$l" -ge "$limit" ]; then
        echo "${f#"$src"/}: $l lines (at most $((limit - 1)))"
    fi
done)
if [ -n "$over" ]; then
    printf '%s\n' "$over"
    exit 1
fi
echo "$n files of code, each under $limit lines"
