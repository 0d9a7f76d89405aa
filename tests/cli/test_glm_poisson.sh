#!/bin/bash
# test_glm_poisson.sh: --family poisson (enumerate, rj, bd, ssvs; docs/GLM.md) on
# data/count/quine.csv. The exact answer: on its first 30 rows with the one
# input lrn_sl and a uniform model prior, PIP = Z1 / (Z0 + Z1), Z the
# marginal likelihoods int prod Poisson(y | e^psi) N(alpha; 0, 10^2)
# [N(beta; 0, 1)] by quadrature on a fine grid (midpoint rule; the
# integrands are smooth bumps of width ~0.05 sampled every 0.004: its error
# is far below 1e-6); enumeration's importance-sampling estimate must be
# within p (1 - p) (e^{2 D} - 1) + 1e-6 of it, D = 5 x the standard error
# it reports. Then: predictions are counts with intervals, bad counts and
# a method without the model are refused, and rj's, bd's and ssvs's PIPs
# agree with enumeration's.
source "$(dirname "$0")/lib.sh" "$1"
D=data/count/quine.csv
head -31 $D > "$T/q30.csv"
expect 0 "" -- "$BASEL" fit "$T/q30.csv" --family poisson --method enumerate --inputs lrn_sl --model-prior uniform \
    --seed 1 --quiet -o "$T/one.json"
expect 0 "enumeration equals quadrature" -- /usr/bin/python3 -c "
import csv, json, math, re, sys
e = json.load(open('$T/one.json'))
se = float(re.search('log marginal likelihood ([0-9.e-]+)', e['diagnostics']['note']).group(1))
rows = list(csv.DictReader(open('$T/q30.csv')))
y = [float(r['days']) for r in rows]; x = [float(r['lrn_sl']) for r in rows]
m, s = e['standardize']['mean'][0], e['standardize']['scale'][0]
z = [(v - m) / s for v in x]
lg = sum(math.lgamma(v + 1) for v in y)
def ll(a, b): return sum(yi * (a + b * zi) - math.exp(a + b * zi) for yi, zi in zip(y, z)) - lg
def lse(v): M = max(v); return M + math.log(sum(math.exp(t - M) for t in v))
a0 = math.log(sum(y) / len(y)); h = 0.004
A = [a0 - 0.6 + h * (i + 0.5) for i in range(int(1.2 / h))]; B = [-0.6 + h * (i + 0.5) for i in range(int(1.2 / h))]
la = lambda a: -0.5 * a * a / 100 - 0.5 * math.log(2 * math.pi * 100)
lb = lambda b: -0.5 * b * b - 0.5 * math.log(2 * math.pi)
z0 = lse([ll(a, 0) + la(a) for a in A]) + math.log(h)
z1 = lse([ll(a, b) + la(a) + lb(b) for a in A for b in B]) + 2 * math.log(h)
p = 1 / (1 + math.exp(z0 - z1)); q = e['pip'][0]
bound = p * (1 - p) * math.expm1(10 * se) + 1e-6
print('enumeration equals quadrature' if abs(p - q) <= bound else 'PIP %.6f, quadrature %.6f, bound %.2g' % (q, p, bound))
sys.exit(0 if abs(p - q) <= bound else 1)"
expect 0 "" -- "$BASEL" fit $D --family poisson --method enumerate --seed 2 --quiet -o "$T/q.json"
expect 0 "Poisson marginal likelihoods by importance sampling" -- "$BASEL" summary "$T/q.json"
expect 0 "^days_mean,days_lower,days_upper$" -- "$BASEL" predict "$T/q.json" $D -o -
expect 0 "mean and interval are counts" -- /usr/bin/python3 -c "
import csv, subprocess, sys
out = subprocess.run(['$BASEL', 'predict', '$T/q.json', '$D', '-o', '-'], capture_output=True, text=True).stdout
r = list(csv.DictReader(out.splitlines()))
ok = all(float(x['days_lower']) <= float(x['days_mean']) <= float(x['days_upper']) and float(x['days_lower']) == int(float(x['days_lower'])) for x in r)
print('mean and interval are counts' if ok else 'bad row'); sys.exit(0 if ok else 1)"
expect 2 "--interval-kind mean: a --family poisson fit gives intervals for new counts only" \
    -- "$BASEL" predict "$T/q.json" $D --interval-kind mean -o "$T/p.csv"
awk -F, 'BEGIN { OFS = "," } NR == 3 { $7 = 2.5 } { print }' $D > "$T/frac.csv"
expect 2 "frac.csv:3: target column 'days': 2.5 is not a count" \
    -- "$BASEL" fit "$T/frac.csv" --family poisson --method enumerate -o "$T/f.json"
awk -F, 'BEGIN { OFS = "," } NR == 4 { $7 = -1 } { print }' $D > "$T/neg.csv"
expect 2 "neg.csv:4: target column 'days': -1 is not a count" \
    -- "$BASEL" fit "$T/neg.csv" --family poisson --method enumerate -o "$T/f.json"
expect 2 "--family poisson: --method rbf has no poisson model \(it runs with --method enumerate, bd, rj, ssvs\)" \
    -- "$BASEL" fit $D --family poisson --method rbf -o "$T/f.json"
expect 1 "" -- test -e "$T/f.json"
# rj, bd and ssvs sample the posterior enumeration computes (the same scores,
# glm_exact.c): on the 30 rows and three inputs, their PIPs as the user reads
# them within 0.02 of enumeration's (Monte Carlo error ~0.005 here), and
# their predictions are counts with intervals
expect 0 "" -- "$BASEL" fit "$T/q30.csv" --family poisson --method enumerate --inputs lrn_sl,age_f2,age_f3 --seed 2 -o "$T/e2.json"
for m in rj bd ssvs; do
    expect 0 "" -- "$BASEL" fit "$T/q30.csv" --family poisson --method $m --inputs lrn_sl,age_f2,age_f3 --seed 2 -o "$T/$m.json"
    expect 0 "" -- python3 -c "
import json, sys
e = json.load(open('$T/e2.json'))['pip']; s = json.load(open('$T/$m.json'))['pip']
sys.exit(max(abs(a - b) for a, b in zip(e, s)) > 0.02)"
    expect 0 "^days_mean,days_lower,days_upper" -- "$BASEL" predict "$T/$m.json" "$T/q30.csv"
done
finish
