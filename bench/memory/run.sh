#!/bin/bash
# bench/memory/run.sh: peak resident memory (/usr/bin/time -f %M) of every
# MCMC engine at three run lengths, N, 10 N and 100 N iterations, to show
# that memory does not grow with the run length (issue 14 item 5).
#   bench/memory/run.sh [path/to/basel] [scale]
# scale (default 1) multiplies every engine's N; N is chosen per engine so
# that a row takes seconds at scale 1 (100 N is then 1e6-1e7 for the
# fast engines), then bd and rj again with --draws. smc is not here: it runs once over the rows (its length is
# the data, not an iteration count). Prints: method, iter, MB, seconds.
set -u
B=${1:-build/basel}
S=${2:-1}
D=data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
row() { # row METHOD N ARGS...
    local method=$1 n=$2
    shift 2
    local t0=$(date +%s.%N)
    /usr/bin/time -f %M -o "$T/rss" "$B" fit "$@" --method "$method" --iter "$n" --seed 1 --quiet -o "$T/f.json" ||
        { echo "$method $n FAILED"; return; }
    local t1=$(date +%s.%N)
    awk -v m="$method" -v n="$n" -v kb="$(cat "$T/rss")" -v t="$(echo "$t1 - $t0" | bc)" \
        'BEGIN { printf "%-8s %10s %8.1f MB %8.1f s\n", m, n, kb / 1024, t }'
}
engine() { # engine METHOD N ARGS...
    local method=$1 n=$2
    shift 2
    n=$(echo "$n * $S / 1" | bc)
    for f in 1 10 100; do row "$method" $((n * f)) "$@"; done
}
printf "%-8s %10s %11s %10s\n" method iter "peak RSS" wall
engine bd 10000 $D/linear/lin_p15_n200.csv --burn 0
engine rj 100000 $D/linear/lin_p15_n200.csv --burn 0
engine ssvs 1000 $D/linear/lin_p15_n200.csv --burn 0
engine mixture 100 $D/classification/pima_tr.csv --burn 0 --thin 100 --chains 2
engine anneal 1000 $D/regression/sinc_vermaak_train.csv --target y --inputs x --chains 2
engine rbf 1000 $D/regression/sinc_vermaak_train.csv --target y --inputs x --burn 0 --chains 2
# --draws: streamed to temporary files as they are made, not held in memory
# (the draws file grows with the run; the memory must not)
echo "with --draws:"
engine bd 5000 $D/linear/lin_p15_n200.csv --burn 0 --draws "$T/d.csv"
engine rj 10000 $D/linear/lin_p15_n200.csv --burn 0 --draws "$T/d.csv"
