#!/bin/sh
# tests/install.sh BUILD SOURCE CC: installs the build tree BUILD as a user and a packager
# do, then uses each installed tree as a user would, with the build tree gone and the
# tree moved (docs/install.md):
#   prefix:  cmake --install BUILD --prefix W/first (the build was configured for another
#            prefix), then W/first moved to W/prefix
#   destdir: DESTDIR=W/stage cmake --install BUILD, then the tree moved to W/moved (a
#            package's staging folder, unpacked elsewhere)
# Each tree is used in a private mount namespace (unshare -m, as root) in which an empty
# folder is mounted over BUILD, so that nothing can reach the build tree: tgc run and tgc
# calibrate with --target mpi (the installed MPI transports) and --target threads (the
# installed shared-memory transport), a CMake project with
# find_package(mpirio), a pkg-config build whose <mpi.h> is MPIRIO's, mpirio-cc -show and
# --showme, `man tgc` with its sections in order, the bash completion, the installed
# documentation, and what the test did before (every file, --version and --help, an
# example through mpirio-cc, a generated project through CMake, tgc run on the simulated
# platform).  No installed binary (debug information aside) and no installed text file
# may name BUILD or SOURCE, none may have a RUNPATH into them.  W is a new folder in
# $TMPDIR, outside BUILD, removed when every check passed.  CC: the compiler of the build
# (a sanitized library links only into a sanitized program).
set -u
# in the sanitizer build, programs under mpirun run without LeakSanitizer, as the mpi_*
# tests do (Open MPI and MPICH leave their job state allocated at exit; docs/testing.md)
nolsan=$(printf '%s' "${ASAN_OPTIONS:-}" | sed 's/detect_leaks=1/detect_leaks=0/')
if [ "${1:-}" = "--use" ]; then # the inner part: --use BUILD SOURCE CC W PREFIX STYLE
    shift
    inner=1
else
    inner=0
fi
build=$1 src=$2 cc=$3
# a sanitizer build's objects name their source files in the sanitizers' reports (clang
# 14 applies no -ffile-prefix-map to them): there the binaries are not checked for the
# source tree's name (the text files and the RUNPATHs still are); the default build is
# (read before the build tree is hidden, passed to the inner part in the environment)
sanitized=${TGC_INSTALL_SANITIZED:-0}
if [ "$inner" = 0 ] && grep -q -E '^TGC_(SANITIZE|TSAN|FUZZ):BOOL=ON' "$build/CMakeCache.txt"; then
    sanitized=1
fi
export TGC_INSTALL_SANITIZED=$sanitized
fail=0
bad() { echo "FAIL: $*"; fail=1; }
self=$(readlink -f "$0")

use() { # use W PREFIX STYLE, with the build tree hidden (or not, when we cannot)
    work=$1 p=$2 style=$3
    w="$work/use-$style"
    mkdir -p "$w"
    echo "== $style: $p"
    if [ -e "$build/CMakeCache.txt" ]; then
        echo "note: $style: the build tree is still visible (no mount namespace)"
    fi
    # the files
    libdir=$(dirname "$(find "$p" -name libmpirio.so | head -n 1)")
    [ -n "$libdir" ] && [ -d "$libdir" ] || { bad "$style: no libmpirio.so"; return; }
    for f in bin/tgc bin/mpirio-cc bin/mpirio-run include/mpirio.h include/mpirio/mpi.h \
        share/man/man1/tgc.1 share/man/man1/mpirio-cc.1 share/man/man1/mpirio-run.1 \
        share/doc/tgc/LICENSE share/doc/tgc/README.md share/doc/tgc/NEWS \
        share/doc/tgc/docs/cli.md share/doc/tgc/docs/install.md \
        share/bash-completion/completions/tgc; do
        [ -f "$p/$f" ] || bad "$style: $f not installed"
    done
    for f in libmpirio.a pkgconfig/mpirio.pc cmake/mpirio/mpirioConfig.cmake \
        cmake/mpirio/mpirioConfigVersion.cmake; do
        [ -f "$libdir/$f" ] || bad "$style: $libdir/$f not installed"
    done
    for impl in $impls threads; do
        for f in "$libdir/libmpirio_$impl.a" "$libdir/pkgconfig/mpirio-$impl.pc" \
            "$p/libexec/tgc/tgc-calib-$impl"; do
            [ -f "$f" ] || bad "$style: $f not installed"
        done
    done
    grep -q "MIT License" "$p/share/doc/tgc/LICENSE" || bad "$style: LICENSE is not MIT's"
    for d in "$src"/docs/*.md; do
        cmp -s "$d" "$p/share/doc/tgc/docs/${d##*/}" || bad "$style: docs/${d##*/} not installed"
    done
    # nothing installed names the build tree or the source tree: text files as they are,
    # binaries without their debug information (which names the sources, as in any -g
    # build; cmake --install --strip leaves it out), and no RUNPATH
    find "$p" -type f | while read -r f; do
        case $(head -c 4 "$f" | od -An -c | tr -d ' ') in
        177ELF | '!<ar')
            objcopy --strip-debug "$f" "$w/stripped" 2>/dev/null || cp "$f" "$w/stripped"
            if [ "$sanitized" = 0 ] && grep -q -a -F -e "$build" -e "$src" "$w/stripped"; then
                echo "FAIL: $style: $f names the build or source tree"
            fi
            if readelf -d "$f" 2>/dev/null | grep -E 'R(UN)?PATH' |
                grep -q -F -e "$build" -e "$src"; then
                echo "FAIL: $style: $f has a RUNPATH into the build or source tree"
            fi
            ;;
        *)
            if grep -q -I -F -e "$build" -e "$src" "$f"; then
                echo "FAIL: $style: $f names the build or source tree"
            fi
            ;;
        esac
    done >"$w/paths"
    [ -s "$w/paths" ] && bad "$(cat "$w/paths")"
    # --version and --help
    for t in tgc mpirio-cc mpirio-run; do
        v=$("$p/bin/$t" --version) || bad "$style: $t --version exits $?"
        case $v in "$t "*[0-9].[0-9]*) ;; *) bad "$style: $t --version printed '$v'" ;; esac
    done
    h=$("$p/bin/mpirio-cc" --help) || bad "$style: mpirio-cc --help exits $?"
    case $h in "usage: mpirio-cc"*) ;; *) bad "$style: mpirio-cc --help is not its own" ;; esac
    "$p/bin/mpirio-run" --help | grep -q "^usage: mpirio-run" ||
        bad "$style: mpirio-run --help"
    # man tgc: every section, in order, the commands listed in COMMANDS and a subsection
    # for each before EXIT STATUS; and the other pages
    MANWIDTH=100 man -M "$p/share/man" tgc >"$w/man.txt" 2>"$w/man.err" ||
        bad "$style: man tgc: $(cat "$w/man.err")"
    sections=$(grep '^[A-Z][A-Z ]*$' "$w/man.txt" | tr '\n' ',')
    [ "$sections" = "NAME,SYNOPSIS,DESCRIPTION,COMMANDS,EXIT STATUS,ENVIRONMENT,FILES,EXAMPLE,SEE ALSO," ] ||
        bad "$style: man tgc: sections $sections"
    commands=$("$p/bin/tgc" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
    [ -n "$commands" ] || bad "$style: tgc --help lists no command"
    listed=$(sed -n '/^COMMANDS$/,/^EXIT STATUS$/s/^       tgc \([a-z]*\)$/\1/p' "$w/man.txt")
    subsections=$(sed -n '/^COMMANDS$/,/^EXIT STATUS$/s/^   tgc \([a-z]*\)$/\1/p' "$w/man.txt")
    [ "$(echo $listed)" = "$(echo $commands)" ] ||
        bad "$style: man tgc's COMMANDS lists '$(echo $listed)', tgc --help '$(echo $commands)'"
    [ "$(echo $subsections)" = "$(echo $commands)" ] ||
        bad "$style: man tgc's subsections are '$(echo $subsections)'"
    grep -q -e "--help" "$w/man.txt" || bad "$style: man tgc lists no options"
    for m in mpirio-cc mpirio-run; do
        man -M "$p/share/man" "$m" 2>&1 | grep -q "^NAME" || bad "$style: man $m"
    done
    # the bash completion: a command, an option of it, a value of an option
    comp() { # comp WORD... : what completing the last word offers
        bash -c '. "$1/share/bash-completion/completions/tgc"; shift
                 COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tgc; echo "${COMPREPLY[*]}"' \
            sh "$p" "$@"
    }
    [ "$(comp "$p/bin/tgc" sche)" = schedule ] || bad "$style: completion of 'tgc sche': $(comp "$p/bin/tgc" sche)"
    [ "$(comp "$p/bin/tgc" opt --meth)" = --method ] || bad "$style: completion of 'tgc opt --meth'"
    [ "$(comp "$p/bin/tgc" opt --method bf)" = bfco ] || bad "$style: completion of '--method bf'"
    [ "$(comp "$p/bin/tgc" help cal)" = calibrate ] || bad "$style: completion of 'tgc help cal'"
    # pkg-config: the include folder, and <mpi.h> and <mpirio.h> compile with its Cflags
    pc="$libdir/pkgconfig"
    cflags=$(PKG_CONFIG_PATH="$pc" pkg-config --cflags mpirio) || bad "$style: pkg-config mpirio"
    libs=$(PKG_CONFIG_PATH="$pc" pkg-config --libs mpirio) || bad "$style: pkg-config --libs mpirio"
    printf '#include <mpi.h>\n#include <mpirio.h>\nint f(void);\nint f(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }\n' >"$w/pc.c"
    # shellcheck disable=SC2086 # the flags are words
    $cc $cflags -fPIC -shared -o "$w/pc.so" "$w/pc.c" $libs 2>"$w/pc.err" ||
        bad "$style: <mpi.h> does not compile with pkg-config's flags '$cflags': $(cat "$w/pc.err")"
    for impl in $impls threads; do
        PKG_CONFIG_PATH="$pc" pkg-config --exists "mpirio-$impl" ||
            bad "$style: pkg-config finds no mpirio-$impl"
    done
    # mpirio-cc: -show and --showme print the command that it runs, which builds
    show=$(cd "$w" && "$p/bin/mpirio-cc" -show -O1 -oring "$src/runtime/examples/p2p_ring.c") ||
        bad "$style: mpirio-cc -show exits $?"
    case $show in *" -I$p/include/mpirio "*"-o ring.so "*p2p_ring.c*) ;;
        *) bad "$style: mpirio-cc -show printed '$show'" ;; esac
    [ "$(cd "$w" && "$p/bin/mpirio-cc" --showme -O1 -oring "$src/runtime/examples/p2p_ring.c")" = "$show" ] ||
        bad "$style: mpirio-cc --showme is not -show"
    [ ! -e "$w/ring.so" ] || bad "$style: mpirio-cc -show built something"
    # an example through mpirio-cc (-oFILE attached) and its launcher
    (cd "$w" && "$p/bin/mpirio-cc" -O1 -oring "$src/runtime/examples/p2p_ring.c") ||
        bad "$style: mpirio-cc cannot build p2p_ring.c"
    [ -x "$w/ring" ] && [ -f "$w/ring.so" ] && [ ! -e "$w/a.out" ] ||
        bad "$style: mpirio-cc -oring did not write ring and ring.so"
    (cd "$w" && MPIRIO_NP=4 ./ring >ring.out 2>&1) || bad "$style: ring exits $?"
    grep -q "p2p_ring on 4: OK" "$w/ring.out" || bad "$style: ring: $(cat "$w/ring.out")"
    # a CMake project with find_package(mpirio): the simulated program as a module run by
    # mpirio-run, and with each transport an MPI program run by that MPI's mpirun
    mkdir -p "$w/cmake"
    cat >"$w/cmake/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(uses_mpirio LANGUAGES C)
find_package(mpirio 1.0 REQUIRED COMPONENTS $impls)
add_library(ring MODULE $src/runtime/examples/p2p_ring.c)
target_link_libraries(ring PRIVATE mpirio::mpirio)
target_link_options(ring PRIVATE -Wl,-Bsymbolic)
foreach(impl $impls)
  add_executable(butterfly_\${impl} $src/runtime/examples/butterfly.c)
  target_link_libraries(butterfly_\${impl} PRIVATE mpirio::\${impl})
endforeach()
message(STATUS "mpirio \${mpirio_VERSION}")
EOF
    if CC=$cc cmake -S "$w/cmake" -B "$w/cmake/build" -DCMAKE_PREFIX_PATH="$p" \
        >"$w/cmake.log" 2>&1 && cmake --build "$w/cmake/build" >>"$w/cmake.log" 2>&1; then
        grep -q "mpirio 1\.0\.0" "$w/cmake.log" || bad "$style: find_package(mpirio) gave no version"
        "$p/bin/mpirio-run" -n 4 "$w/cmake/build/libring.so" >"$w/cmake-ring.out" 2>&1 ||
            bad "$style: the CMake-built ring fails: $(cat "$w/cmake-ring.out")"
        grep -q "p2p_ring on 4: OK" "$w/cmake-ring.out" || bad "$style: the CMake-built ring"
        for impl in $impls; do
            extra=
            [ "$impl" = openmpi ] && extra="--oversubscribe" &&
                [ "$(id -u)" -eq 0 ] && extra="$extra --allow-run-as-root"
            # shellcheck disable=SC2086
            (cd "$w" && ASAN_OPTIONS=$nolsan timeout 120 "mpirun.$impl" $extra -np 4 \
                "$w/cmake/build/butterfly_$impl" >"$w/bf-$impl.out" 2>&1) ||
                bad "$style: butterfly on mpirio::$impl: $(tail -n 3 "$w/bf-$impl.out")"
            grep -q "OK" "$w/bf-$impl.out" || bad "$style: butterfly on mpirio::$impl: $(cat "$w/bf-$impl.out")"
        done
    else
        bad "$style: find_package(mpirio) project: $(tail -n 8 "$w/cmake.log")"
    fi
    # a generated project, built by CMake against the installed library
    "$p/bin/tgc" compile "$src/testcases/fir4/fir4.json" -o "$w/fir4" >/dev/null ||
        bad "$style: tgc compile"
    if PKG_CONFIG_PATH="$pc" CC=$cc cmake -S "$w/fir4" -B "$w/fir4/build" \
        >"$w/fir4-cmake.log" 2>&1 && cmake --build "$w/fir4/build" >>"$w/fir4-cmake.log" 2>&1; then
        (cd "$w/fir4/build" && ./parallel --help >help.out) || bad "$style: parallel --help"
        grep -q "^usage: parallel" "$w/fir4/build/help.out" ||
            bad "$style: parallel --help printed no usage"
        (cd "$w/fir4/build" && ./parallel --quiet --platform ../platform.json >par.out &&
            ./sequential --quiet --platform ../platform.json >seq.out) ||
            bad "$style: the generated programs fail"
        grep '^checksum' "$w/fir4/build/par.out" | sort >"$w/par.sum"
        grep '^checksum' "$w/fir4/build/seq.out" | sort >"$w/seq.sum"
        [ -s "$w/par.sum" ] && cmp -s "$w/par.sum" "$w/seq.sum" ||
            bad "$style: parallel and sequential checksums differ"
        ldd "$w/fir4/build/parallel" | grep -q "$libdir/libmpirio" ||
            ! ldd "$w/fir4/build/parallel" | grep -q libmpirio ||
            bad "$style: the project links another libmpirio"
    else
        bad "$style: the generated project does not build: $(tail -n 5 "$w/fir4-cmake.log")"
    fi
    # the same project built by hand with pkg-config's flags
    f="$w/fir4"
    # shellcheck disable=SC2086 # the flags are words
    (cd "$f" && $cc -std=c11 $cflags -I. '-DTGC_PLATFORM_FILE="platform.json"' -o par-pc \
        main.c dsp*.c tgc_support.c tasks.c $(ls kernels.c 2>/dev/null) $libs -Wl,-rpath,"$libdir" \
        2>pc-build.err && ./par-pc --quiet --platform platform.json >par-pc.out) ||
        bad "$style: the project built with pkg-config's flags: $(cat "$f/pc-build.err")"
    grep '^checksum' "$f/par-pc.out" 2>/dev/null | sort >"$w/par-pc.sum"
    [ -s "$w/par-pc.sum" ] && cmp -s "$w/par-pc.sum" "$w/seq.sum" ||
        bad "$style: the pkg-config build's checksums differ from the sequential program's"
    # a project of tgc compile --target mpi or threads, through mpirio-IMPL.pc
    for impl in $impls threads; do
        t=$impl
        [ "$impl" = openmpi ] && t=mpi
        "$p/bin/tgc" compile "$src/testcases/fir4/fir4.json" --target "$t" -o "$w/fir4-$impl" \
            >/dev/null || bad "$style: tgc compile --target $t"
        PKG_CONFIG_PATH="$pc" CC=$cc cmake -S "$w/fir4-$impl" -B "$w/fir4-$impl/build" \
            >"$w/fir4-$impl.log" 2>&1 && cmake --build "$w/fir4-$impl/build" >>"$w/fir4-$impl.log" 2>&1 ||
            bad "$style: the --target $t project does not build: $(tail -n 5 "$w/fir4-$impl.log")"
    done
    # the threads project's programs run as they are (no launcher)
    (cd "$w/fir4-threads/build" && timeout 120 ./parallel --quiet --platform ../platform.json \
        >par.out && timeout 120 ./sequential --quiet --platform ../platform.json >seq.out) ||
        bad "$style: the --target threads programs fail"
    grep '^checksum' "$w/fir4-threads/build/par.out" | sort >"$w/par-threads.sum"
    grep '^checksum' "$w/fir4-threads/build/seq.out" | sort >"$w/seq-threads.sum"
    [ -s "$w/par-threads.sum" ] && cmp -s "$w/par-threads.sum" "$w/seq-threads.sum" ||
        bad "$style: --target threads: parallel and sequential checksums differ"
    # tgc run against the installed library: on the simulated platform, and on real MPI
    "$p/bin/tgc" run "$src/testcases/fir4/fir4.json" --keep "$w/run" >"$w/run.out" 2>&1 ||
        bad "$style: tgc run: $(tail -n 3 "$w/run.out")"
    grep -q "result *ok" "$w/run.out" || bad "$style: tgc run: $(tail -n 3 "$w/run.out")"
    exe=$(find "$w/run" -maxdepth 2 -type f -name parallel | head -n 1)
    if [ -z "$exe" ] || ! ldd "$exe" | grep -q "$libdir/libmpirio.so"; then
        bad "$style: tgc run did not build against $libdir/libmpirio.so"
    fi
    for impl in $impls threads; do
        t=$impl
        [ "$impl" = openmpi ] && t=mpi
        (cd "$w" && ASAN_OPTIONS=$nolsan "$p/bin/tgc" run "$src/testcases/fir4/fir4.json" --target "$t" \
            >"$w/run-$impl.out" 2>&1) || bad "$style: tgc run --target $t: $(tail -n 3 "$w/run-$impl.out")"
        grep -q "result *ok" "$w/run-$impl.out" || bad "$style: tgc run --target $t: $(tail -n 3 "$w/run-$impl.out")"
        (cd "$w" && ASAN_OPTIONS=$nolsan "$p/bin/tgc" calibrate --target "$t" -n 2 --reps 5 --runs 1 -o "cal-$impl.json" \
            >"$w/cal-$impl.out" 2>&1) || bad "$style: tgc calibrate --target $t: $(tail -n 3 "$w/cal-$impl.out")"
        grep -q '"format": "tgc-platform/1"' "$w/cal-$impl.json" 2>/dev/null ||
            bad "$style: tgc calibrate --target $t wrote no platform"
    done
}

if [ $inner = 1 ]; then
    work=$4 impls=$7
    use "$work" "$5" "$6"
    exit $fail
fi

# the MPI transports this build has (what must be installed)
impls=""
for impl in openmpi mpich; do
    [ -f "$build/runtime/libmpirio_$impl.a" ] && impls="$impls $impl"
done
impls=${impls# }
work=$(mktemp -d "${TMPDIR:-/tmp}/tgc-install.XXXXXX") || exit 1
case $work in "$build"/*) echo "install.sh: TMPDIR is inside the build tree" >&2; exit 1 ;; esac

# use the tree at PREFIX in a mount namespace where the build tree is an empty folder
hidden() { # hidden PREFIX STYLE
    if unshare -m true 2>/dev/null; then
        unshare -m sh -c 'mount -t tmpfs -o ro,size=4k none "$1" && shift && exec "$@"' \
            sh "$build" sh "$self" --use "$build" "$src" "$cc" "$work" "$1" "$2" "$impls" ||
            fail=1
    else
        echo "note: unshare -m is not permitted here (not root): the build tree stays visible"
        sh "$self" --use "$build" "$src" "$cc" "$work" "$1" "$2" "$impls" || fail=1
    fi
}

cmake --install "$build" --prefix "$work/first" >"$work/install-prefix.log" 2>&1 ||
    bad "cmake --install --prefix: $(tail -n 3 "$work/install-prefix.log")"
mv "$work/first" "$work/prefix"
hidden "$work/prefix" prefix

configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
DESTDIR="$work/stage" cmake --install "$build" >"$work/install-destdir.log" 2>&1 ||
    bad "DESTDIR= cmake --install: $(tail -n 3 "$work/install-destdir.log")"
if [ -d "$work/stage$configured/bin" ]; then
    mv "$work/stage$configured" "$work/moved"
    hidden "$work/moved" destdir
else
    bad "DESTDIR install put nothing in $work/stage$configured"
fi

if [ $fail = 0 ]; then
    echo "install: both ways ok (build tree hidden, trees moved; MPI transports: ${impls:-none})"
    rm -rf "$work"
else
    echo "install: failed; the trees are in $work"
fi
exit $fail
