#!/bin/sh
# bench/linear/run.sh: basel's rj, collapsed ssvs and bd on the linear sets of
# ../shared/data/linear (p = 100, n = 1000; p = 500, n = 5000; p = 1000,
# n = 20000), and the n-scaling check at p = 100 (n = 10^3, 10^4, 10^5).
# Prints, per engine: model evaluations per second, wall time to reach PIPs
# within 0.01 of a reference (BAS's pooled 10^7-iteration run at p = 100;
# a long basel rj run at p = 500 and 1000, whose PIPs are written to /tmp),
# and peak memory. BAS's figures are in ../shared/data/linear/README.md.
# scikit-learn's ARDRegression and LassoCV run too when python3-sklearn is
# installed (apt-get install -y python3-sklearn).
#
# Usage (from the repository root): sh bench/linear/run.sh [quick]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DATA=${DATA:-$ROOT/../shared/data/linear}
[ -d "$DATA" ] || DATA=/work/shared/data/linear
TMP=${TMPDIR:-/tmp}/basel_bench_linear
mkdir -p "$TMP"
BIN=$TMP/bench_linear
BD="-DHAVE_BD"
cd "$ROOT"
# the library's every source but the command line (as tools/fuzz.sh), so
# that the list never goes stale; the bench calls the engines' internals
# shellcheck disable=SC2046,SC2086
gcc -std=c11 -D_XOPEN_SOURCE=700 -DBASEL_BUILDING -O2 -march=native -fopenmp -Iinclude -Isrc -Isrc/summary \
    $(find src -name '*.c' ! -path 'src/cli/*' | sort) $BD bench/linear/bench_linear.c \
    $(pkg-config --libs gsl jansson | sed 's/-lgslcblas//') -llapacke -lopenblas -lz -ldl -lm -o "$BIN"
export OPENBLAS_NUM_THREADS=1

engines="rj ssvs"
[ -n "$BD" ] && engines="rj ssvs bd"

for set in lin_p100_n1000 lin_p500_n5000 lin_p1000_n20000; do
    [ "${1:-}" = quick ] && [ "$set" != lin_p100_n1000 ] && continue
    f=$DATA/$set.csv
    if [ ! -f "$f" ]; then
        f=$TMP/$set.csv
        [ -f "$f" ] || /usr/bin/python3 "$DATA/make_data.py" --data "$TMP" --only "$set" >/dev/null
    fi
    echo "== $set"
    for e in $engines; do
        ref=$DATA/reference_$set.json
        if [ "$e" != rj ] || [ ! -f "$ref" ]; then
            # a long run of the same engine (its own prior for ssvs) is the reference
            ref=$TMP/ref_${set}_$e.txt
            rit=2000000
            [ "$e" = ssvs ] && rit=20000 # sweeps of m updates each
            [ -f "$ref" ] || "$BIN" "$f" "$e" --iter $rit --chains 4 --seed 999 --write-pips "$ref" >/dev/null
        fi
        it=20000
        [ "$e" = ssvs ] && it=200
        "$BIN" "$f" "$e" --ref "$ref" --iter $it --chains 2 --seed 1
    done
    if /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then
        /usr/bin/python3 - "$f" <<'PY'
import sys, time, resource, numpy as np
from sklearn.linear_model import ARDRegression, LassoCV
d = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
X, y = d[:, :-1], d[:, -1]
for name, est in (("ARDRegression", ARDRegression()), ("LassoCV", LassoCV())):
    t = time.time(); est.fit(X, y); t = time.time() - t
    k = int(np.sum(np.abs(est.coef_) > 1e-8 if name == "LassoCV" else np.abs(est.coef_) > 1e-3))
    print(f"engine=sklearn-{name} seconds={t:.2f} kept={k} peak_MiB={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024:.0f}")
PY
    else
        echo "(python3-sklearn not installed: apt-get install -y python3-sklearn)"
    fi
done

echo "== per-iteration time vs n at p = 100 (after the one-time X'X, X'y pass)"
for n in 1000 10000 100000; do
    for e in rj ssvs; do
        it=200000
        [ "$e" = ssvs ] && it=2000
        "$BIN" "synth:$n,100" "$e" --iter $it --chains 1 --seed 1
    done
done
