#!/bin/bash
# tools/fuzz.sh [SECONDS [NAME...]]: build every libFuzzer target of
# tests/fuzz (fuzz_csv, fuzz_fit, fuzz_spec, fuzz_stats, fuzz_ckpt, fuzz_npy) with
# clang under AddressSanitizer and UndefinedBehaviorSanitizer, and run each
# (or only the NAMEs given, e.g. ckpt) for SECONDS (default 20; tools/test.sh's
# CI stage) over a copy of its committed corpus tests/fuzz/corpus/NAME. For
# a longer search: tools/fuzz.sh 600, or tools/fuzz.sh 600 ckpt.
# fuzz_ckpt restarts small fits from the checkpoints it is given (its header
# comment says which, and how it gets past their checksum).
# What a run finds (a crash, a leak, undefined behaviour, a broken property,
# an input that takes over 10 s or 2 GB) fails the script; libFuzzer keeps
# the input in build-fuzz/found/NAME/ (crash-*, leak-*, timeout-*, oom-*).
# Add it to tests/fuzz/corpus/NAME once fixed: tests/unit/io/test_fuzz_replay.c
# replays the corpus in every ordinary test run. New inputs the fuzzer
# finds interesting go to build-fuzz/corpus/NAME, never into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
shift $(($# > 0 ? 1 : 0))
names=${*:-csv fit spec stats ckpt npy}
tools/deps.sh build fuzz
B=build-fuzz
mkdir -p "$B/obj" "$B/found"
CC=clang
FLAGS="-std=c11 -D_XOPEN_SOURCE=700 -DBASEL_BUILDING -g -O1 -fopenmp -fno-omit-frame-pointer
       -fsanitize=address,undefined -fno-sanitize-recover=undefined -Iinclude -Isrc -Itests/fuzz
       $(pkg-config --cflags gsl jansson)"
LIBS="$(pkg-config --libs gsl jansson | sed 's/-lgslcblas//') -llapacke -lopenblas -lz -ldl -lm"

# the library once (every source but the command line), shared by the targets
find src -name '*.c' ! -path 'src/cli/*' | sort > "$B/sources"
build_one() {
    local src=$1 obj=$B/obj/$(echo "$1" | tr / _).o
    if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find src include -name '*.h' -newer "$obj" -print -quit)" ]; then
        $CC $FLAGS -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
    fi
}
export -f build_one
export CC FLAGS B
xargs -P 2 -I{} bash -c 'build_one {}' < "$B/sources"
objs=$(sed 's|/|_|g; s|^|'"$B"'/obj/|; s|$|.o|' "$B/sources")

status=0
for name in $names; do
    exe=$B/fuzz_$name
    $CC $FLAGS -fsanitize=fuzzer tests/fuzz/fuzz_$name.c $objs $LIBS -o "$exe"
    mkdir -p "$B/corpus/$name" "$B/found/$name"
    cp -n tests/fuzz/corpus/$name/* "$B/corpus/$name/" 2> /dev/null || true
    echo "=== fuzz.sh: fuzz_$name for $secs s" >&2
    # one OpenBLAS and OpenMP thread: the targets are single-threaded checks
    if OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$B/found/$name/" "$B/corpus/$name" 2> "$B/fuzz_$name.log"; then
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$B/fuzz_$name.log" | sed "s/^/  fuzz_$name /" >&2
    else
        status=1
        echo "fuzz.sh: fuzz_$name found a failure (input in $B/found/$name/):" >&2
        grep -E "ERROR|SUMMARY|fuzz_$name:|runtime error" "$B/fuzz_$name.log" | head -20 >&2
    fi
done
exit $status
