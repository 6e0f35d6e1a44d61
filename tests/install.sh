#!/bin/sh
# tests/install.sh BUILD SOURCE WORK CC: installs the build tree BUILD in the two ways a
# user or a package does, and uses each installed tree as a user would (docs/install.md):
#   prefix:  cmake --install BUILD --prefix WORK/prefix (the build was configured for
#            another prefix: every installed path must follow the one given here)
#   destdir: DESTDIR=WORK/stage cmake --install BUILD, then the tree moved to
#            WORK/moved (a package's staging folder, unpacked elsewhere)
# In each: every file is there, every tool answers --version, mpirio-cc --help is its own
# help, `man tgc` shows a section per command, pkg-config finds mpirio, an example of
# runtime/examples builds with mpirio-cc and runs, a project written by the installed tgc
# builds with CMake against the installed libmpirio (and its parallel program computes
# what its sequential one does), and the installed tgc run builds against the installed
# library, not the build tree's.  CC: the compiler the project is built with (the one of
# the build, so that a sanitized library links into a sanitized program).
set -u
build=$1 src=$2 work=$3 cc=$4
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rm -rf "$work"
mkdir -p "$work" || exit 1

use() { # use PREFIX STYLE
    p=$1 style=$2
    w="$work/use-$style"
    mkdir -p "$w"
    echo "== $style: $p"
    # the files
    libdir=$(dirname "$(find "$p" -name libmpirio.so | head -n 1)")
    [ -n "$libdir" ] && [ -d "$libdir" ] || { bad "$style: no libmpirio.so"; return; }
    for f in bin/tgc bin/mpirio-cc bin/mpirio-run include/mpirio.h include/mpirio/mpi.h \
        share/man/man1/tgc.1 share/man/man1/mpirio-cc.1 share/man/man1/mpirio-run.1 \
        share/doc/tgc/LICENSE; do
        [ -f "$p/$f" ] || bad "$style: $f not installed"
    done
    for f in libmpirio.a pkgconfig/mpirio.pc; do
        [ -f "$libdir/$f" ] || bad "$style: $libdir/$f not installed"
    done
    grep -q "MIT License" "$p/share/doc/tgc/LICENSE" || bad "$style: LICENSE is not MIT's"
    # nothing installed names the build tree, the source tree or the configured prefix
    if grep -rlI -e "$build" -e "$src" "$p/bin" "$libdir/pkgconfig" >"$w/grep"; then
        bad "$style: installed files name the build or source tree: $(cat "$w/grep")"
    fi
    # --version and --help
    for t in tgc mpirio-cc mpirio-run; do
        v=$("$p/bin/$t" --version) || bad "$style: $t --version exits $?"
        case $v in "$t "*[0-9].[0-9]*) ;; *) bad "$style: $t --version printed '$v'" ;; esac
    done
    h=$("$p/bin/mpirio-cc" --help) || bad "$style: mpirio-cc --help exits $?"
    case $h in "usage: mpirio-cc"*) ;; *) bad "$style: mpirio-cc --help is not its own" ;; esac
    "$p/bin/mpirio-run" --help | grep -q "^usage: mpirio-run" ||
        bad "$style: mpirio-run --help"
    # man
    MANWIDTH=100 man -M "$p/share/man" tgc >"$w/man.txt" 2>"$w/man.err" ||
        bad "$style: man tgc: $(cat "$w/man.err")"
    for c in $("$p/bin/tgc" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
        grep -q "^   tgc $c\$" "$w/man.txt" || bad "$style: man tgc has no section tgc $c"
        grep -q -e "--help" "$w/man.txt" || bad "$style: man tgc lists no options"
    done
    for m in mpirio-cc mpirio-run; do
        man -M "$p/share/man" "$m" 2>&1 | grep -q "^NAME" || bad "$style: man $m"
    done
    # pkg-config
    cflags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags mpirio) ||
        bad "$style: pkg-config mpirio"
    incdir=${cflags#-I}
    incdir=${incdir%% *}
    [ -f "$incdir/mpirio.h" ] || bad "$style: pkg-config --cflags mpirio gives '$cflags'"
    # an example through mpirio-cc and its launcher
    (cd "$w" && "$p/bin/mpirio-cc" -O1 -o ring "$src/runtime/examples/p2p_ring.c") ||
        bad "$style: mpirio-cc cannot build p2p_ring.c"
    (cd "$w" && MPIRIO_NP=4 ./ring >ring.out 2>&1) || bad "$style: ring exits $?"
    grep -q "p2p_ring on 4: OK" "$w/ring.out" || bad "$style: ring: $(cat "$w/ring.out")"
    # a generated project, built by CMake against the installed library
    "$p/bin/tgc" compile "$src/testcases/fir4/fir4.json" -o "$w/fir4" >/dev/null ||
        bad "$style: tgc compile"
    if PKG_CONFIG_PATH="$libdir/pkgconfig" CC=$cc cmake -S "$w/fir4" -B "$w/fir4/build" \
        >"$w/cmake.log" 2>&1 && cmake --build "$w/fir4/build" >>"$w/cmake.log" 2>&1; then
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
        bad "$style: the generated project does not build: $(tail -n 5 "$w/cmake.log")"
    fi
    # tgc run against the installed library
    "$p/bin/tgc" run "$src/testcases/fir4/fir4.json" --keep "$w/run" >"$w/run.out" 2>&1 ||
        bad "$style: tgc run: $(tail -n 3 "$w/run.out")"
    grep -q "result *ok" "$w/run.out" || bad "$style: tgc run: $(tail -n 3 "$w/run.out")"
    exe=$(find "$w/run" -maxdepth 2 -type f -name parallel | head -n 1)
    if [ -z "$exe" ] || ! ldd "$exe" | grep -q "$libdir/libmpirio.so"; then
        bad "$style: tgc run did not build against $libdir/libmpirio.so"
    fi
}

cmake --install "$build" --prefix "$work/prefix" >"$work/install-prefix.log" 2>&1 ||
    bad "cmake --install --prefix: $(tail -n 3 "$work/install-prefix.log")"
use "$work/prefix" prefix

configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
DESTDIR="$work/stage" cmake --install "$build" >"$work/install-destdir.log" 2>&1 ||
    bad "DESTDIR= cmake --install: $(tail -n 3 "$work/install-destdir.log")"
if [ -d "$work/stage$configured/bin" ]; then
    mv "$work/stage$configured" "$work/moved"
    use "$work/moved" destdir
else
    bad "DESTDIR install put nothing in $work/stage$configured"
fi

[ $fail = 0 ] && echo "install: both ways ok" && rm -rf "$work"
exit $fail
