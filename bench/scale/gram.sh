#!/bin/sh
# bench/scale/gram.sh: set-up cost chosen by cost (issue 18 item 1). For
# n = 500 ... 16000 sinc points (bench/scale/make_sinc.py, seed 1) and a
# Gaussian kernel of width 1.6 at every point (m = n), a default bd fit
# (the design picks dense Gram or streamed columns, design.c gram_dense)
# next to the same fit with streaming forced (--gram-memory 1): CPU seconds
# (user + system), peak memory, and which path the default took. Before
# the rule the default built the dense Gram whenever it fitted in 256 MB
# (n <= 4000): 5.1 CPU-s at n = 2000 and 38 at n = 4000 (audits/perf.md).
#
# Usage (from the repository root): sh bench/scale/gram.sh [build/basel] [NMAX]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASEL=${1:-$ROOT/build/basel}
NMAX=${2:-16000}
export OPENBLAS_NUM_THREADS=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf "%6s  %-9s %9s %8s   %9s %8s\n" n default CPU-s MiB streamed MiB
for n in 500 1000 2000 4000 8000 16000; do
    [ "$n" -le "$NMAX" ] || continue
    /usr/bin/python3 "$ROOT/bench/scale/make_sinc.py" "$n" "$T/s.csv" 1
    run() {
        /usr/bin/time -f "%U %S %M" -o "$T/t" "$BASEL" fit "$T/s.csv" --basis gauss:r=1.6 --seed 1 \
            --threads 2 --quiet -o "$T/f.json" "$@" >/dev/null 2>&1
        awk '{printf "%9.2f %8.0f", $1 + $2, $3 / 1024}' "$T/t"
    }
    d=$(run)
    path=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['diagnostics'].get('gram', '?'))" "$T/f.json")
    s=$(run --gram-memory 1)
    printf "%6s  %-9s %s   %s\n" "$n" "$path" "$d" "$s"
done
