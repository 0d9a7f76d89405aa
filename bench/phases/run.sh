#!/bin/bash
# bench/phases/run.sh [BUILD]: the share of CPU each phase of a default fit
# takes (reading, set-up, sampling, and every phase after it), for each
# engine on its reference data set (bench_phases.c), then the peers a user
# would pick instead on the same data, in the same run, as process CPU
# seconds: scikit-learn's fixed-kernel GP (fit and predict), and, when
# installed (tools/peers.sh; BAS from its source, R_LIBS), kernlab's rvm,
# susieR and BAS. Not a test: the machine is shared, so read CPU seconds and
# ratios, not wall time. Minutes of CPU.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
[ -x "$B/bench_phases" ] || { echo "run.sh: build first (tools/build.sh): $B/bench_phases is missing" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMP_WAIT_POLICY=passive
# one OpenBLAS thread, as the command runs (src/cli/main.c): OpenBLAS's
# pthread build otherwise starts a worker per core whose spinning is billed
# to the first phases (reading took 0.024 CPU-s with them on lin_p100)
export OPENBLAS_NUM_THREADS=1

run() { # title, data, options...
    local title=$1 data=$2
    shift 2
    echo "== $title"
    "$B/bench_phases" "$data" "$T/fit.json" threads=1 seed=1 "$@"
}
run "rj, lin_p100_n1000, g = 1000, uniform, 4 x 75000 moves (issue 34's target)" data/linear/lin_p100_n1000.csv \
    method=rj prior=g:g=1000 model-prior=uniform iter=75000 burn=0 chains=4
run "bd (default), lin_p15_n200" data/linear/lin_p15_n200.csv
run "enumerate, lin_p15_n200, g = 200" data/linear/lin_p15_n200.csv method=enumerate prior=g:g=200 model-prior=uniform
run "ssvs, lin_p15_n200" data/linear/lin_p15_n200.csv method=ssvs
run "bd, kernel sinc n = 500, r = 1.6" data/regression/sinc_scaling_n500.csv basis=gauss:r=1.6
run "bd, kernel sinc n = 4000, r = 1.6" data/regression/sinc_scaling_n4000.csv basis=gauss:r=1.6
run "smc, sinc n = 1000, r = 1.6" data/regression/sinc_scaling_n1000.csv method=smc basis=gauss:r=1.6
run "mixture, Pima" data/classification/pima_tr.csv method=mixture target=class
run "rj, binomial, Pima" data/classification/pima_tr.csv method=rj family=binomial target=class

echo "== peers, process CPU seconds (fit and predict of sinc_test.csv where it applies)"
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.2f", $1 + $2}'; }
for n in 500 4000; do
    printf '  scikit-learn GP, fixed RBF kernel, sinc n = %s: ' "$n"
    cpu /usr/bin/python3 -c "
import numpy as np, pandas as pd
from sklearn.gaussian_process import GaussianProcessRegressor as G
from sklearn.gaussian_process.kernels import RBF, WhiteKernel
d = pd.read_csv('data/regression/sinc_scaling_n$n.csv'); t = pd.read_csv('data/regression/sinc_test.csv')
g = G(RBF(1.6, 'fixed') + WhiteKernel(0.01, 'fixed'), normalize_y=True).fit(d[['x']].values, d['y'].values)
g.predict(t[['x']].values, return_std=True)"
    echo " CPU-s"
done
# r_peer PACKAGE TITLE WHERE R-CODE: the R code's process CPU, when the
# package is installed (WHERE says how to get it otherwise)
r_peer() {
    if Rscript -e "quit(status = !requireNamespace('$1', quietly = TRUE))" > /dev/null 2>&1; then
        printf '  %s: ' "$2"
        cpu Rscript -e "suppressMessages(library($1)); $4"
        echo " CPU-s"
    else
        echo "  $1: not installed ($3)"
    fi
}
r_peer kernlab "kernlab rvm, sinc n = 2000" tools/peers.sh \
    "d <- read.csv('data/regression/sinc_scaling_n2000.csv'); m <- rvm(as.matrix(d['x']), d\$y, kernel = 'rbfdot', kpar = list(sigma = 1 / (2 * 1.6^2)))"
r_peer BAS "BAS MCMC, lin_p100_n1000, g = 1000, 300000 iterations" \
    "built from its public source beside the project: bench/linear" \
    "d <- read.csv('data/linear/lin_p100_n1000.csv'); invisible(bas.lm(y ~ ., data = d, prior = 'g-prior', alpha = 1000, modelprior = uniform(), method = 'MCMC', MCMC.iterations = 300000, burnin.iterations = 0))"
r_peer susieR "susieR, lin_p100_n1000, L = 10 (its defaults otherwise)" tools/peers.sh \
    "d <- read.csv('data/linear/lin_p100_n1000.csv'); X <- as.matrix(d[setdiff(names(d), 'y')]); invisible(susie(X, d\$y, L = 10))"
