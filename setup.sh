#!/bin/sh
# setup.sh - set up, configure and build tgc on Debian 12.
#
# Installs the Debian packages tgc needs that are missing (apt-get, as root or through sudo;
# nothing is downloaded from anywhere else), then configures and builds in ./build.  Safe to
# run any number of times: installed packages are skipped and the build is incremental.
#
#   ./setup.sh            install what is missing, configure, build
#   ./setup.sh --deps     only install what is missing
#   ./setup.sh --sanitize the same for the sanitizer build in ./build-asan (clang,
#                         AddressSanitizer + UndefinedBehaviorSanitizer, docs/testing.md)
#   ./setup.sh --tsan     the ThreadSanitizer build in ./build-tsan (clang): what the tests
#                         of the shared-memory transport need (ctest -R '^threads_')
#   ./setup.sh --bench    also install the optional packages of the benchmarks, then build
#   ./setup.sh --browser  also install Debian's chromium, in which the test report_browser
#                         renders tgc's HTML report (skipped without it), then build
set -eu

cd "$(dirname "$0")"

# build tools, the libraries tgc links (jansson, Graphviz's cgraph and gvc, libxml2 for
# SDF3's graphs), the test
# framework (Check), and the tools the tests use (graphviz's dot renders schedules, valgrind checks memory,
# gnuplot draws the benchmark plots, libjpeg-turbo's djpeg decodes what the JPEG encoder
# of testcases/apps writes), clang with its sanitizer and libFuzzer runtimes (the
# sanitizer build and the fuzz targets), binutils (nm: the mpich suite checks what a
# test program needs of libmpirio), and Open MPI and MPICH (libmpirio's MPI transport,
# tgc run --target mpi, docs/cluster.md), python3-jsonschema (the test json_schemas validates
# every command's --json against docs/schemas/)
pkgs="gcc make cmake pkg-config libjansson-dev libgraphviz-dev libxml2-dev graphviz check libsubunit-dev
valgrind gnuplot-nox libjpeg-turbo-progs clang libclang-rt-14-dev binutils
libopenmpi-dev openmpi-bin libmpich-dev mpich python3-jsonschema"
# optional, for the benchmarks only (--bench): SimGrid's SMPI (smpicc, smpirun), which
# build/runtime/bench_smpi runs side by side with mpirio-run, and Open MPI, which runs
# MPICH's tests for the comparison of the mpich suite (docs/runtime.md)
optional="libsimgrid-dev openmpi-bin libopenmpi-dev"
[ "${1:-}" = "--bench" ] && pkgs="$pkgs $optional"
# optional, for the browser test of the HTML report (--browser; docs/testing.md)
[ "${1:-}" = "--browser" ] && pkgs="$pkgs chromium"

missing=""
for p in $pkgs; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "setup: error: need root (or sudo) to install:$missing" >&2
        exit 1
    fi
    $sudo apt-get update -qq
    # shellcheck disable=SC2086 # $missing is a list of package names
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
[ "${1:-}" = "--deps" ] && exit 0

jobs=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" = "--sanitize" ]; then
    CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTGC_SANITIZE=ON \
        >/dev/null
    cmake --build build-asan -j"$jobs"
    echo "setup: built build-asan/tools/tgc (sanitizers)"
    exit 0
fi
if [ "${1:-}" = "--tsan" ]; then
    CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTGC_TSAN=ON \
        >/dev/null
    cmake --build build-tsan -j"$jobs" --target tgc run_graphs check_threads threads_faults
    echo "setup: built build-tsan (ThreadSanitizer; ctest --test-dir build-tsan -R '^threads_')"
    exit 0
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
echo "setup: built build/tools/tgc"
