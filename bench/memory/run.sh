#!/bin/bash
# bench/memory/run.sh: peak resident memory (/usr/bin/time -f %M) of every
# MCMC engine at three run lengths, N, 10 N and 100 N iterations, to show
# that memory does not grow with the run length (issue 14 item 5).
#   [CHECK_ONLY=1] bench/memory/run.sh [path/to/basel] [scale]
# scale (default 1) multiplies every engine's N; N is chosen per engine so
# that a row takes seconds at scale 1 (100 N is then 1e6-1e7 for the
# fast engines), then bd and rj again with --draws, then the check: every
# engine at 10^4 and 10^5 iterations with --thin 1, failing (exit 1) when
# memory grows by more than 10 %. smc is not here: it runs once over the rows (its length is
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
if [ "${CHECK_ONLY:-0}" != 1 ]; then # CHECK_ONLY=1: the check below only
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
fi

# The check (issue 29): every engine at 10^4 and 10^5 iterations, keeping
# every draw it can (--thin 1 where the engine has --thin; anneal and rbf
# keep a fixed number), one chain, one thread; fails (exit 1) when the peak
# RSS at 10^5 is more than 10 % above the one at 10^4. mixture's kept draws
# are its predictor: at most BSL_MIX_MAX_DRAWS per chain (mixture.h), so a
# run asking for more is thinned further and its memory stays flat.
# Measured (issue 29): bd +2.0 %, rj +1.0 %, mixture -0.9 %, anneal -2.4 %,
# rbf +0.7 %, ssvs +10.6 % (10.4 -> 11.5 MB). ssvs's growth is what it
# keeps per visited model (721 at 10^4, 1788 at 10^5 on lin_p15_n200, up
# to --max-models), and massif put its peak at the end, in the fit's
# document: every visited model's atom list in the posterior block (one
# JSON integer per mention, until they were shared: subset_post.c), the
# coefficient mixture (coef_table.c) and the set itself. After sharing,
# on the same machine: bd +2.9 %, rj -1.9 %, ssvs +4.6 % (10.9 -> 11.4 MB;
# +8.3 % before, same load), mixture, anneal and rbf +0.0 %. The same RSS
# varies by about 0.15 MB from run to run.
echo "growth from 10^4 to 10^5 iterations (--thin 1, 1 chain):"
fail=0
flat() { # flat METHOD ARGS...
    local method=$1 kb4 kb5
    shift
    kb4=$(row "$method" 10000 "$@" | awk '{ print $3 }')
    kb5=$(row "$method" 100000 "$@" | awk '{ print $3 }')
    awk -v m="$method" -v a="$kb4" -v b="$kb5" 'BEGIN { g = 100 * (b / a - 1);
        printf "%-8s %8.1f MB -> %8.1f MB  %+5.1f %%%s\n", m, a, b, g, (g > 10 ? "  GROWS" : ""); exit (g > 10) }' || fail=1
}
one=(--chains 1 --threads 1)
flat bd $D/linear/lin_p15_n200.csv --burn 0 --thin 1 "${one[@]}"
flat rj $D/linear/lin_p15_n200.csv --burn 0 --thin 1 "${one[@]}"
flat ssvs $D/linear/lin_p15_n200.csv --burn 0 --thin 1 "${one[@]}"
flat mixture $D/classification/pima_tr.csv --burn 0 --thin 1 "${one[@]}"
flat anneal $D/regression/sinc_vermaak_train.csv --target y --inputs x "${one[@]}"
flat rbf $D/regression/sinc_vermaak_train.csv --target y --inputs x --burn 0 "${one[@]}"
exit $fail
