#!/bin/bash
# test_diagnostics.sh: the convergence warnings (docs/FIT.md "Diagnostics"),
# both ways, for every MCMC engine: quiet on runs that converged, and on
# stderr, in FIT.json's diagnostics.warnings and in the summary on runs that
# did not (one short chain; one chain that never left one model).
source "$(dirname "$0")/lib.sh" "$1"
L=data/linear/lin_p15_n200.csv
cut -d, -f1-5,16 "$L" > "$T/lin5.csv"
# two classes told apart by a, not by the noise inputs b and c
python3 -c "
import random
random.seed(7)
print('a,b,c,class')
for i in range(120):
    c = i % 2
    print('%.6f,%.6f,%.6f,%s' % (random.gauss(1.2 if c else -1.2, 1), random.gauss(0, 1),
                                 random.gauss(0, 1), 'yes' if c else 'no'))" > "$T/cls.csv"
# a class that x3 decides: one chain stays on {x3} for the whole run
awk -F, 'NR==1{print "x1,x3,x4,class";next}{print $1","$3","$4","($16>1.26?"hi":"lo")}' "$L" > "$T/stuck.csv"
# pure noise, for the rbf sampler
python3 -c "
import random
random.seed(5)
print('x,y')
for i in range(100): print('%.5f,%.5f' % (random.uniform(-3, 3), random.gauss(0, 1)))" > "$T/noise.csv"

# quiet NAME -- fit arguments: the fit succeeds and warns of nothing
quiet() {
    local name=$1
    shift 2
    "$BASEL" fit "$@" -o "$T/q.json" > "$T/out" 2> "$T/err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        bad "$name: exit $rc; $(head -c 400 "$T/err")"
    elif grep -q "warning" "$T/err" || grep -q '"warnings"' "$T/q.json"; then
        bad "$name: a converged run warns: $(head -c 600 "$T/err")"
    else
        ok
    fi
}

# warns NAME PATTERN -- fit arguments: the fit succeeds, prints a warning
# matching PATTERN on stderr (one line each), writes it into FIT.json, and
# basel summary shows it
warns() {
    local name=$1 pattern=$2
    shift 3
    "$BASEL" fit "$@" --seed 1 -o "$T/w.json" > "$T/out" 2> "$T/err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        bad "$name: exit $rc; $(head -c 400 "$T/err")"
    elif ! grep -Eq "^basel: warning: .*$pattern" "$T/err"; then
        bad "$name: no warning /$pattern/ on stderr: $(head -c 600 "$T/err")"
    elif ! grep -q '"warnings"' "$T/w.json"; then
        bad "$name: no diagnostics.warnings in FIT.json"
    elif ! "$BASEL" summary "$T/w.json" | grep -Eq "WARNING: .*$pattern"; then
        bad "$name: the summary does not show the warning"
    else
        ok
    fi
}

# ------------------------------------------------ converged runs: quiet
# (quiet also of the acceptance rule: rj accepts about 12 % of its moves
# here, bd about 90 % of its events)
quiet "bd on lin_p15_n200" -- "$L" --method bd --seed 1
quiet "rj on lin_p15_n200" -- "$L" --method rj --seed 1
quiet "ssvs on 5 inputs" -- "$T/lin5.csv" --method ssvs --seed 1
# --kernels 3: with 6 (the default) or 8 the noise inputs' PIPs fall to
# 0.003 and 0, the chains accept 0.046 % and 0.0071 % of the moves that
# change the inputs, and the stuck-chains rule (tested below) warns on
# this converged run (bench/mixture/README.md); with 3 they accept 3.7 %
# (PIPs 0.12)
quiet "mixture on two classes" -- "$T/cls.csv" --method mixture --kernels 3 --iter 6000 --burn 1000 --thin 6 --seed 1
# the rbf sampler's k mixes slowly even here (a chain now and then holds
# one centre for long: R-hat above 1.01 for about one seed in five at
# 20000 iterations); this seed's run is converged (R-hat 1.0005, ESS 1651)
quiet "rbf, kmax 1" -- "$T/noise.csv" --target y --method rbf --kmax 1 --seed 4

# ------------------------------------------ runs that did not: warnings
SHORT="R-hat .* \(above 1\.01\)|effective sample size .* \(below 400\)"
warns "bd, one short chain" "$SHORT" -- "$L" --method bd --chains 1 --iter 100
warns "rj, one short chain" "$SHORT" -- "$L" --method rj --chains 1 --iter 100
warns "ssvs, one short chain" "$SHORT" -- "$T/lin5.csv" --method ssvs --chains 1 --iter 100
warns "mixture, one short chain" "$SHORT" -- "$T/cls.csv" --method mixture --chains 1 --iter 100 --burn 0 --thin 1
warns "rbf, one short chain" "$SHORT" -- "$T/noise.csv" --target y --method rbf --kmax 1 --chains 1 --iter 300 --burn 100
# the advice names the engine's remedies
warns "bd's advice" "run longer \(--iter\) or with more chains \(--chains\)" -- "$L" --method bd --chains 1 --iter 100
warns "mixture's advice" "--temperatures 4 --temp-max 1\.2" -- "$T/cls.csv" --method mixture --chains 1 --iter 100 --burn 0 --thin 1
# one chain on one model for the whole run: stuck, whatever R-hat cannot say
warns "mixture, one chain never moved" "never changed in 1000 recorded draws of 1 chain" -- \
    "$T/stuck.csv" --method mixture --chains 1 --iter 2000 --burn 500 --thin 2
# several chains that all stay there agree, so R-hat is quiet; but they
# accepted almost none of the moves that change the subset (0.05 %), and
# chains stuck alike would look the same (issue 30 item 5): the acceptance
# rule warns (until issue 30 this run was expected to be quiet)
STUCK="together accepted .* of the [0-9]+ moves that change the (model|set of inputs) \(below 2 % warns\): they may agree because they are stuck alike"
warns "mixture, four chains on one model" "$STUCK" -- "$T/stuck.csv" --method mixture --iter 2000 --burn 500 --thin 2
# rj, its moves frozen by a model prior of 1e-6 per input (0.6 % accepted)
warns "rj, moves frozen" "$STUCK" -- "$L" --method rj --model-prior bernoulli:p=0.000001

# --quiet keeps stderr empty; the warning is still in FIT.json
expect 0 "" -- "$BASEL" fit "$L" --method bd --chains 1 --iter 100 --seed 1 --quiet -o "$T/qq.json"
if [ ! -s "$T/err" ] && grep -q '"warnings"' "$T/qq.json"; then ok; else bad "--quiet: stderr $(head -c 300 "$T/err")"; fi
# one line per warning
expect 0 "" -- "$BASEL" fit "$L" --method rj --chains 1 --iter 100 --seed 1 -o "$T/l.json"
n=$(grep -c "^basel: warning: " "$T/err")
want=$(python3 -c "import json; print(len(json.load(open('$T/l.json'))['diagnostics']['warnings']))")
if [ "$n" -eq "$want" ] && [ "$n" -ge 1 ]; then ok; else bad "$n warning lines for $want warnings"; fi

finish
