#!/bin/bash
# speed.sh: birth-death speed, peers in the same run (issue "bd", Speed).
#   1. events/s (and marginal-likelihood evaluations/s) for m = 100, 1000,
#      10000 Gaussian kernels at n = m points;
#   2. wall time to max |PIP - exact| < 0.01 on lin_p15_n200;
#   3. a default bd fit on sinc_scaling_n8000 (kernels r = 1.6 at all 8000
#      points) against kernlab's rvm on the 2000-point file: time, peak
#      memory, RMSE against the noise-free sinc.
# usage: bench/bd/speed.sh [path/to/basel]     (installs r-cran-kernlab if root)
set -euo pipefail
cd "$(dirname "$0")/../.."
BASEL=${1:-build/basel}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PY=/usr/bin/python3
calc() { $PY -c "print($1)"; }

echo "== 1. birth-death events per second (4 chains, 2 cores, 2000 blocks) =="
printf "%8s %10s %12s %14s\n" m seconds events/s evaluations/s
for m in 100 1000 10000; do
    $PY - "$m" > "$T/s$m.csv" <<'PYEOF'
import math, random, sys
n = int(sys.argv[1]); random.seed(n)
print("x,y")
for i in range(n):
    x = random.uniform(-10, 10)
    print("%.17g,%.17g" % (x, (math.sin(x) / x if x else 1.0) + random.gauss(0, 0.2)))
PYEOF
    s0=$(date +%s.%N)
    "$BASEL" fit "$T/s$m.csv" --basis gauss:r=1.6 --prior ridge --model-prior poisson:mean=5 \
        --iter 2000 --burn 0 --seed 1 --quiet -o "$T/f$m.json"
    s1=$(date +%s.%N)
    $PY - "$T/f$m.json" "$s0" "$s1" "$m" <<'PYEOF'
import json, re, sys
doc = json.load(open(sys.argv[1])); dt = float(sys.argv[3]) - float(sys.argv[2])
ev = float(re.match(r"(\d+) events", doc["diagnostics"]["note"]).group(1))
k = sum(k * p for k, p in zip(doc["model_size"]["k"], doc["model_size"]["prob"]))
print("%8s %10.2f %12.0f %14.0f" % (sys.argv[4], dt, ev / dt, ev * (k + 1) / dt))
PYEOF
done

echo
echo "== 2. wall time to max |PIP - exact| < 0.01 on lin_p15_n200 (g-prior g = n, uniform; 4 chains) =="
D=data/linear/lin_p15_n200.csv
for it in 500 1000 2000 4000 8000 16000; do
    s0=$(date +%s.%N)
    "$BASEL" fit "$D" --method bd --prior g:g=200 --model-prior uniform --iter $it --burn 100 --seed 1 --quiet -o "$T/l.json"
    s1=$(date +%s.%N)
    err=$($PY -c "
import json; f=json.load(open('$T/l.json')); e=json.load(open('data/linear/exact_lin_p15_n200.json'))
print('%.4f' % max(abs(p - e['pip'][a['name']]) for a, p in zip(f['atoms'], f['pip'])))")
    printf "  iter %6d: %.2f s, max error %s\n" $it "$(calc "$s1 - $s0")" "$err"
    if [ "$(calc "int($err < 0.01)")" = 1 ]; then break; fi
done

echo
echo "== 3. sinc n = 8000: default bd fit vs kernlab rvm at n = 2000, same run =="
if ! Rscript -e 'library(kernlab)' > /dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq r-cran-kernlab > /dev/null; fi
fi
/usr/bin/time -f "%e %M" -o "$T/bd.time" "$BASEL" fit data/regression/sinc_scaling_n8000.csv \
    --basis gauss:r=1.6 --prior ridge --model-prior poisson:mean=5 --seed 1 --quiet -o "$T/s8000.json"
"$BASEL" predict "$T/s8000.json" data/regression/sinc_test.csv -o "$T/p8000.csv"
rmse=$($PY -c "
import csv, math
p = list(csv.DictReader(open('$T/p8000.csv'))); t = list(csv.DictReader(open('data/regression/sinc_test.csv')))
print('%.4f' % math.sqrt(sum((float(a['y_mean']) - float(b['y']))**2 for a, b in zip(p, t)) / len(t)))")
read bd_s bd_kb < "$T/bd.time"
printf "  basel bd, n = 8000:     %6.1f s, %6.0f MB peak, RMSE vs sinc %s\n" "$bd_s" "$(calc "$bd_kb/1024")" "$rmse"
if Rscript -e 'library(kernlab)' > /dev/null 2>&1; then
    cat > "$T/rvm.R" <<'REOF'
suppressMessages(library(kernlab))
args <- commandArgs(TRUE)
d <- read.csv(args[1]); te <- read.csv(args[2])
t0 <- proc.time()[["elapsed"]]
m <- rvm(as.matrix(d$x), d$y, kernel = "rbfdot", kpar = list(sigma = 1 / (2 * 1.6^2)))
el <- proc.time()[["elapsed"]] - t0
p <- predict(m, as.matrix(te$x))
cat(sprintf("%.2f %d %.4f\n", el, length(RVindex(m)), sqrt(mean((p - te$y)^2))))
REOF
    /usr/bin/time -f "%e %M" -o "$T/rvm.time" Rscript "$T/rvm.R" data/regression/sinc_scaling_n2000.csv data/regression/sinc_test.csv > "$T/rvm.out"
    read rvm_fit rvm_k rvm_rmse < "$T/rvm.out"
    read rvm_s rvm_kb < "$T/rvm.time"
    printf "  kernlab rvm, n = 2000: %6.1f s (fit %.1f s), %6.0f MB peak, RMSE vs sinc %s, %s vectors\n" \
        "$rvm_s" "$rvm_fit" "$(calc "$rvm_kb/1024")" "$rvm_rmse" "$rvm_k"
    printf "  ratio of wall times (bd n=8000 / rvm n=2000): %.2f\n" "$(calc "$bd_s / $rvm_s")"
else
    echo "  kernlab not available: install r-cran-kernlab to compare"
fi
