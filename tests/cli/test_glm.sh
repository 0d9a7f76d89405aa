#!/bin/bash
# test_glm.sh: --family binomial from the command line (docs/GLM.md):
# a two-level text target (Pima's No / Yes) and a 0/1 one are accepted,
# FIT.json records the family and the classes, predict writes class
# probabilities p_<level> (not a mean), enumeration and each sampler (rj,
# bd, ssvs) agree on the PIPs within the sum of their Monte Carlo errors;
# and bad input is refused with exit status 2 and a message naming the
# place: a target of 2, three levels, an empty class, a constant input, a
# Gaussian-only method, a Gaussian prior, ssvs's spike-and-slab prior,
# --relevance; no output file is left behind.
source "$(dirname "$0")/lib.sh" "$1"
D=data/classification/pima_tr.csv
# the first 80 rows, 3 inputs: small enough for a fast enumeration and rj run
cut -d, -f2,5,6,8 $D | head -81 > "$T/small.csv"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method enumerate --seed 2 --quiet -o "$T/e.json"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method rj --iter 20000 --seed 2 --quiet -o "$T/r.json"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method bd --iter 5000 --seed 2 --quiet -o "$T/b.json"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method ssvs --iter 5000 --seed 2 --quiet -o "$T/s.json"
expect 0 "family and classes recorded" -- /usr/bin/python3 -c "
import json, sys
e = json.load(open('$T/e.json'))
ok = e['settings']['family'] == 'binomial' and e['engine']['family'] == 'binomial' and e['classes'] == ['No', 'Yes']
ok = ok and e['settings']['prior'] == 'normal:sd=1,intercept-sd=10'
print('family and classes recorded' if ok else 'missing: %s' % e['settings']); sys.exit(0 if ok else 1)"
# each sampler's PIPs against enumeration's: within 5 of its standard errors (from its ESS) plus 0.02 for
# enumeration's importance sampling (its note bounds the log marginal likelihoods' error)
for m in r b s; do
expect 0 "$m agrees with enumeration" -- /usr/bin/python3 -c "
import json, math, sys
e = json.load(open('$T/e.json')); r = json.load(open('$T/$m.json'))
for p, q, n in zip(e['pip'], r['pip'], r['diagnostics']['ess_pip']):
    se = math.sqrt(max(p * (1 - p), 1e-6) / max(n or 1e6, 1))  # no ESS: the PIP never moved
    if abs(p - q) > 5 * se + 0.02: print('PIP', p, q, se); sys.exit(1)
print('$m agrees with enumeration')"
done
expect 0 "importance sampling" -- "$BASEL" summary "$T/e.json"
expect 0 "^p_No,p_Yes,class$" -- "$BASEL" predict "$T/r.json" "$T/small.csv" -o -
expect 0 "^p_No,p_Yes,class$" -- "$BASEL" predict "$T/b.json" "$T/small.csv" -o -
expect 0 "^p_No,p_Yes,class$" -- "$BASEL" predict "$T/s.json" "$T/small.csv" --model median -o -
expect 0 "^p_No,p_Yes,class$" -- "$BASEL" predict "$T/e.json" "$T/small.csv" --model hpm -o -
# a 0/1 target: p_0,p_1
awk -F, 'BEGIN { OFS = "," } NR == 1 { $4 = "y" } NR > 1 { $4 = ($4 == "Yes") } { print }' "$T/small.csv" > "$T/01.csv"
expect 0 "" -- "$BASEL" fit "$T/01.csv" --family binomial --method enumerate --is-draws 500 --quiet -o "$T/01.json"
expect 0 "^p_0,p_1,class$" -- "$BASEL" predict "$T/01.json" "$T/01.csv" -o -
# bad input
awk -F, 'BEGIN { OFS = "," } NR == 5 { $4 = 2 } { print }' "$T/01.csv" > "$T/two.csv"
expect 2 "two.csv:5: target column 'y': 2 is not 0 or 1" -- "$BASEL" fit "$T/two.csv" --family binomial --method rj -o "$T/f.json"
awk -F, 'BEGIN { OFS = "," } NR == 7 { $4 = "Maybe" } { print }' "$T/small.csv" > "$T/three.csv"
expect 2 "three.csv:7: target column 'class': a third level 'Maybe'" -- "$BASEL" fit "$T/three.csv" --family binomial -o "$T/f.json" --method rj
awk -F, 'BEGIN { OFS = "," } NR == 4 { $4 = "" } { print }' "$T/small.csv" > "$T/empty.csv"
expect 2 "empty.csv:4: target column 'class' is empty in this row" -- "$BASEL" fit "$T/empty.csv" --family binomial -o "$T/f.json" --method rj
awk -F, 'BEGIN { OFS = "," } NR == 1 { $1 = "c" } NR > 1 { $1 = 3 } { print }' "$T/small.csv" > "$T/const.csv"
expect 2 "input column 'c' is constant \(3 in every row\)" -- "$BASEL" fit "$T/const.csv" --family binomial --method rj -o "$T/f.json"
expect 2 "--family binomial: --method smc has no binomial model \(it runs with --method enumerate, bd, rj, ssvs\)" \
    -- "$BASEL" fit "$T/small.csv" --family binomial --method smc -o "$T/f.json"
expect 2 "--prior ssvs: a GLM \(--family binomial or poisson\) takes --prior normal\[:sd, intercept-sd\] .* or one of BAS's g-type priors \(g, uip, hyper-g/n, robust, eb-local\)" \
    -- "$BASEL" fit "$T/small.csv" --family binomial --method ssvs --prior ssvs -o "$T/f.json"
expect 2 "--relevance: not with --family binomial or poisson" \
    -- "$BASEL" fit "$T/small.csv" --family binomial --method bd --basis gauss --relevance select -o "$T/f.json"
expect 2 "--prior ridge: a GLM \(--family binomial or poisson\) takes --prior normal" \
    -- "$BASEL" fit "$T/small.csv" --family binomial --method rj --prior ridge -o "$T/f.json"
expect 2 "--family .gamma.: expected one of gaussian,binomial,multinomial,poisson" \
    -- "$BASEL" fit "$T/small.csv" --family gamma --method rj -o "$T/f.json"
expect 1 "" -- test -e "$T/f.json"
expect 0 "^term,target,pip,mean,sd,cond_mean,cond_sd,lower,upper$" -- "$BASEL" coef "$T/r.json" -o -
# the same seed gives the same file whatever the threads
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method rj --iter 2000 --seed 3 --threads 1 --quiet -o "$T/t1.json"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method rj --iter 2000 --seed 3 --threads 2 --quiet -o "$T/t2.json"
expect 0 "" -- cmp "$T/t1.json" "$T/t2.json"
for m in bd ssvs; do
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method $m --iter 1000 --seed 3 --threads 1 --quiet -o "$T/t1.json"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family binomial --method $m --iter 1000 --seed 3 --threads 2 --quiet -o "$T/t2.json"
expect 0 "" -- cmp "$T/t1.json" "$T/t2.json"
done
finish
