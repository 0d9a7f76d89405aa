#!/bin/sh
# bench/credible/designs.sh: basel's credible sets (docs/FIT.md
# "credible_sets": signals counted per correlation cluster) beside susieR's
# (susie L = 10 + susie_get_cs, tests/cli/credible_susie.R) on
#   lin_p15      the README's data, the README's command (enumerate,
#                g = 200, uniform model prior); truth x3 x6 x7 x9 x14;
#   block05      bench/credible/make_block.py: a3 and a8 (effects 0.5) in a
#                block of 10 at r = 0.8, five near-copies c1..c5 of a third
#                (enumerate, defaults); block1: the same with effects 1;
#   fm           make_data.py (n = 1000, p = 200, AR(1) rho = 0.95, five
#                effects of 0.15, two in one block; rj 2 x 200000 moves,
#                --max-models 400000, as run.sh);
#   scale1000    bench/scale's design at p = 1000 (make_data.R 1000 3 0.9,
#                seed 1000: 3 effects of 0.25, AR(1) blocks of 50 at 0.9;
#                basel's defaults, as bench/scale/run.sh);
#   scale2000s   bench/scale's 2000s (p = 2000, 8 effects of 0.5, rho 0.95,
#                two blocks hold two effects 5 apart; basel's defaults).
# Prints per design and method (table.py): sets, those holding a true
# signal and their share, the signals found, mean size, least and median
# purity, CPU seconds (/usr/bin/time, one process). BASEL_OLD=path/to/basel
# adds another build's rows (e.g. the rule before issue 30).
# Usage (from the repository root): sh bench/credible/designs.sh [build/basel]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$ROOT/build/basel}
T=${TMPDIR:-/tmp}/basel_bench_credible_designs
mkdir -p "$T"
PY=/usr/bin/python3
$PY "$ROOT/bench/credible/make_block.py" "$T/block05.csv" 30 0.5 2> /dev/null
$PY "$ROOT/bench/credible/make_block.py" "$T/block1.csv" 30 1 2> /dev/null
[ -f "$T/fm.csv" ] || $PY "$ROOT/bench/credible/make_data.py" "$T/fm.csv" 2> /dev/null
[ -f "$T/scale1000.csv" ] || Rscript "$ROOT/bench/scale/make_data.R" 1000 3 0.9 1000 "$T/scale1000.csv" "$T/scale1000.truth" 1000 0.25
[ -f "$T/scale2000s.csv" ] || Rscript "$ROOT/bench/scale/make_data.R" 2000 8 0.95 2000 "$T/scale2000s.csv" "$T/scale2000s.truth" 1000 0.5
truth() { paste -sd, "$T/$1.truth"; }
$PY "$ROOT/bench/credible/table.py" --header
for d in lin_p15 block05 block1 fm scale1000 scale2000s; do
    case $d in
    lin_p15) csv=$ROOT/data/linear/lin_p15_n200.csv opt="--method enumerate --prior g:g=200 --model-prior uniform"
        tr="x3,x6,x7,x9,x14" ;;
    block*) csv=$T/$d.csv opt="--method enumerate" tr="a3,a8,c1+c2+c3+c4+c5" ;;
    fm) csv=$T/fm.csv opt="--method rj --iter 200000 --chains 2 --threads 1 --max-models 400000"
        tr="x11,x61,x131,x161,x176" ;;
    *) csv=$T/$d.csv opt="" tr=$(truth "$d") ;;
    esac
    rows=""
    for v in new old; do
        bin=$B
        if [ $v = old ]; then [ -n "${BASEL_OLD:-}" ] || continue; bin=$BASEL_OLD; fi
        /usr/bin/time -f "%U %S" -o "$T/$d.$v.time" "$bin" fit "$csv" $opt --seed 1 --quiet -o "$T/$d.$v.json"
        rows="$rows basel-$v=$T/$d.$v.json@$T/$d.$v.time"
    done
    OPENBLAS_NUM_THREADS=1 /usr/bin/time -f "%U %S" -o "$T/$d.susie.time" Rscript "$ROOT/tests/cli/credible_susie.R" "$csv" > "$T/$d.susie"
    # shellcheck disable=SC2086
    $PY "$ROOT/bench/credible/table.py" "$d" "$tr" $rows susieR="$T/$d.susie@$T/$d.susie.time"
done
