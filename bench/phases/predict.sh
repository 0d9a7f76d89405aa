#!/bin/sh
# bench/phases/predict.sh [BASEL]: predict 10^4 rows from a default fit of
# each engine on its reference data set (issue 34: "predict on 10^4 rows of
# any fit takes no more than its fit"), with the default 95 % intervals and
# with --interval none (means only). The rows are the data's own (or its
# test file's) repeated to 10^4. Prints the CPU-s (user + sys, perf's
# task-clock) of the fit and of each predict, one process each. Needs perf.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$ROOT/build/basel}
D=$ROOT/data
T=${BENCH_TMP:-$(mktemp -d)}
export OPENBLAS_NUM_THREADS=1
rep() { # rep IN OUT: IN's header and its rows repeated to 10^4
    /usr/bin/python3 -c "
import sys
lines = open(sys.argv[1]).read().splitlines()
rows = lines[1:]
open(sys.argv[2], 'w').write('\n'.join([lines[0]] + [rows[i % len(rows)] for i in range(10000)]) + '\n')" "$1" "$2"
}
cpu() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | grep task-clock | awk -F, '{printf "%.3f", $1 / 1000}'; }
rep "$D/linear/lin_p100_n1000.csv" "$T/lin.csv"
rep "$D/regression/sinc_test.csv" "$T/sinc.csv"
rep "$D/regression/boston.csv" "$T/boston.csv"
rep "$D/classification/pima_te.csv" "$T/pima.csv"
rep "$D/classification/wine.csv" "$T/wine.csv"
printf '%-26s %8s %14s %14s\n' "fit" "fit CPU" "predict 10^4" "--interval none"
one() { # one NAME DATA ROWS ARGS...
    name=$1 data=$2 rows=$3
    shift 3
    f=$(cpu "$B" fit "$data" --seed 1 --quiet -o "$T/$name.json" "$@")
    p=$(cpu "$B" predict "$T/$name.json" "$rows" -o "$T/$name.pred.csv")
    n=$(cpu "$B" predict "$T/$name.json" "$rows" --interval none -o "$T/$name.none.csv")
    printf '%-26s %8s %14s %14s\n' "$name" "$f" "$p" "$n"
}
one "rj, lin_p100" "$D/linear/lin_p100_n1000.csv" "$T/lin.csv" --method rj
one "bd, lin_p100" "$D/linear/lin_p100_n1000.csv" "$T/lin.csv"
one "ssvs, lin_p100" "$D/linear/lin_p100_n1000.csv" "$T/lin.csv" --method ssvs
one "enumerate, Boston" "$D/regression/boston.csv" "$T/boston.csv" --target medv --method enumerate
one "bd kernel, sinc n500" "$D/regression/sinc_scaling_n500.csv" "$T/sinc.csv" --basis gauss:r=1.6
one "rbf, sinc n500" "$D/regression/sinc_scaling_n500.csv" "$T/sinc.csv" --method rbf
one "smc, sinc n500" "$D/regression/sinc_scaling_n500.csv" "$T/sinc.csv" --method smc
one "rj binomial, Pima" "$D/classification/pima_tr.csv" "$T/pima.csv" --method rj --family binomial --target class
one "rj multinomial, wine" "$D/classification/wine.csv" "$T/wine.csv" --method rj --family multinomial --target class
one "mixture, wine" "$D/classification/wine.csv" "$T/wine.csv" --method mixture --target class
