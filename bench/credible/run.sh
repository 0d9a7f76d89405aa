#!/bin/sh
# bench/credible/run.sh: credible sets of basel (rj, from the rows and from
# an LD matrix with z-scores) next to susieR's susie and susie_rss (Debian
# r-cran-susier, L = 10) on one fine-mapping-like design (make_data.py:
# n = 1000, p = 200, AR(1) blocks with rho = 0.95, five effects, two of them
# in one block). Prints each method's sets (size, coverage, purity, which
# true effect each holds), power and false positives at PIP >= 0.5, and
# CPU seconds. Usage (from the repository root): sh bench/credible/run.sh
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TMPDIR:-/tmp}/basel_bench_credible
mkdir -p "$TMP"
B=$ROOT/build/basel
python3 "$ROOT/bench/credible/make_data.py" "$TMP/data.csv"
OPENBLAS_NUM_THREADS=1 Rscript "$ROOT/bench/credible/susie.R" "$TMP/data.csv" "$TMP/ld.json" "$TMP/susie.json"
RJ="--method rj --iter 200000 --chains 2 --threads 1 --seed 1 --max-models 400000 --quiet"
/usr/bin/time -f "basel rj (rows): %U + %S CPU s" "$B" fit "$TMP/data.csv" $RJ -o "$TMP/rows.json"
/usr/bin/time -f "basel rj (LD stats): %U + %S CPU s" "$B" fit --stats "$TMP/ld.json" $RJ -o "$TMP/stats.json"
python3 -c "import json; d = json.load(open('$TMP/susie.json')); print('susieR: %.2f CPU s, susie_rss: %.2f CPU s' % (d['susie']['cpu'], d['susie_rss']['cpu']))"
python3 "$ROOT/bench/credible/compare.py" "$TMP/susie.json" "$TMP/rows.json" "$TMP/stats.json"
