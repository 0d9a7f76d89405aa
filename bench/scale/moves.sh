#!/bin/sh
# bench/scale/moves.sh: moves per CPU-second on data/linear/lin_p100_n1000
# (p = 100, n = 1000), one chain on one core, for basel rj, basel bd and
# BAS's MCMC (bas.lm(method = "MCMC"), built beside the project, found
# through R_LIBS, default /work/peers/Rlib), measured in the same run,
# interleaved, and the ratios (issue 18 item 7).
#
# A rate is marginal: (moves(N2) - moves(N1)) / (CPU(N2) - CPU(N1)), CPU =
# user + system of the process (basel; /usr/bin/time) or of the bas.lm call
# (R's proc.time), so reading the data, set-up and the summaries after the
# run cancel out; median over REPS repeats (default 3). basel: g-prior g =
# 1000, uniform model prior, --burn 0 (BAS: g-prior alpha = 1000,
# burnin.iterations = 0, n.models = 2^20 so that it does not stop at 2^16
# distinct models). bd's moves are its events (births and deaths).
#
# Usage (from the repository root): sh bench/scale/moves.sh [build/basel]
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASEL=${1:-$ROOT/build/basel}
DATA=$ROOT/data/linear/lin_p100_n1000.csv
REPS=${REPS:-3}
export R_LIBS=${R_LIBS:-/work/peers/Rlib} OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/bas.R" <<'REOF'
a <- commandArgs(TRUE); suppressMessages(library(BAS))
d <- read.csv(a[1]); N <- as.numeric(a[2]); set.seed(as.integer(a[3]))
t0 <- proc.time()
m <- bas.lm(y ~ ., data = d, prior = "g-prior", alpha = 1000, modelprior = uniform(),
            method = "MCMC", MCMC.iterations = N, burnin.iterations = 0, n.models = 2^20)
t <- proc.time() - t0
cat(sprintf("%.3f\n", t[["user.self"]] + t[["sys.self"]]))
REOF
cpu() { # cpu seconds of a basel fit with these extra arguments
    /usr/bin/time -f "%U %S" -o "$T/t" "$BASEL" fit "$DATA" --prior g:g=1000 --model-prior uniform \
        --burn 0 --chains 1 --threads 1 --quiet "$@" >/dev/null 2>&1
    awk '{print $1 + $2}' "$T/t"
}
bd_events() { /usr/bin/python3 -c "import json,re,sys; print(re.match(r'(\d+) events', json.load(open(sys.argv[1]))['diagnostics']['note']).group(1))" "$1"; }
: > "$T/rates"
for r in $(seq 1 "$REPS"); do
    # rj: N moves
    a=$(cpu --method rj --iter 300000 --seed "$r" -o "$T/a.json")
    b=$(cpu --method rj --iter 1500000 --seed "$r" -o "$T/b.json")
    echo "rj $(echo "$a $b" | awk '{print 1200000 / ($2 - $1)}')" >> "$T/rates"
    # bd: N blocks, moves = events
    a=$(cpu --method bd --iter 20000 --seed "$r" -o "$T/c.json")
    b=$(cpu --method bd --iter 100000 --seed "$r" -o "$T/d.json")
    echo "bd $(echo "$a $b $(bd_events "$T/c.json") $(bd_events "$T/d.json")" | awk '{print ($4 - $3) / ($2 - $1)}')" >> "$T/rates"
    # BAS: N iterations (one move each)
    a=$(Rscript "$T/bas.R" "$DATA" 10000 "$r")
    b=$(Rscript "$T/bas.R" "$DATA" 60000 "$r")
    echo "bas $(echo "$a $b" | awk '{print 50000 / ($2 - $1)}')" >> "$T/rates"
done
/usr/bin/python3 - "$T/rates" <<'PY'
import statistics, sys
rates = {}
for line in open(sys.argv[1]):
    k, v = line.split()
    rates.setdefault(k, []).append(float(v))
med = {k: statistics.median(v) for k, v in rates.items()}
print("moves per CPU-second on lin_p100_n1000, one chain, one core (median of %d)" % len(rates["rj"]))
for k, name in (("rj", "basel rj"), ("bd", "basel bd (events)"), ("bas", "BAS MCMC")):
    print("  %-18s %12.0f   (runs: %s)" % (name, med[k], ", ".join("%.0f" % x for x in rates[k])))
print("  ratio rj / BAS     %12.1f" % (med["rj"] / med["bas"]))
print("  ratio bd / BAS     %12.1f" % (med["bd"] / med["bas"]))
PY
