#!/bin/bash
# test_glm_coef.sh: the coefficient table of a --family binomial fit
# (basel coef; FIT.json "coefficients"; docs/GLM.md "Coefficients"), what
# the user reads, on Pima from rj and bd: the CSV's columns, one row for the
# intercept and one per input, the PIP column equal to the fit's pip, no
# NaN or empty cell, sd >= 0, lower <= upper, lower <= mean <= upper for the
# intercept (in every model), and glucose's coefficient positive with an interval
# above 0 (every model of Pima keeps it: PIP 1.000; a positive effect is
# what every logistic fit of these data finds, glm's estimate is 0.032 per
# mg/dl). A document of a binomial fit without a table (an older basel's)
# is refused with a clear message. A Poisson fit (enumerate, quine) has the
# same table.
source "$(dirname "$0")/lib.sh" "$1"
D=data/classification/pima_tr.csv
for m in rj bd; do
expect 0 "" -- "$BASEL" fit $D --target class --family binomial --method $m --iter 4000 --seed 4 --quiet -o "$T/$m.json"
expect 0 "" -- "$BASEL" coef "$T/$m.json" -o "$T/$m.csv"
expect 0 "^term,target,pip,mean,sd,cond_mean,cond_sd,lower,upper$" -- head -1 "$T/$m.csv"
expect 0 "$m coefficient table as the user reads it" -- /usr/bin/python3 -c "
import csv, json, math, sys
fit = json.load(open('$T/$m.json'))
rows = list(csv.DictReader(open('$T/$m.csv')))
names = [a['name'] for a in fit['atoms']]
def fail(why): print(why); sys.exit(1)
if [r['term'] for r in rows] != ['(Intercept)'] + names: fail('terms %s' % [r['term'] for r in rows])
for r in rows:
    if any(v == '' for v in r.values()): fail('an empty cell: %s' % r)
    x = {k: float(v) for k, v in r.items() if k not in ('term', 'target')}
    if any(math.isnan(v) or math.isinf(v) for v in x.values()): fail('not finite: %s' % r)
    if x['sd'] < 0 or x['cond_sd'] < 0 or x['lower'] > x['upper']: fail('sd or interval: %s' % r)
    if r['target'] != 'class': fail('target %s' % r['target'])
for r, p in zip(rows[1:], fit['pip']):
    if float(r['pip']) != p: fail('pip %s: %s against the fit\'s %r' % (r['term'], r['pip'], p))
if float(rows[0]['pip']) != 1: fail('the intercept is in every model')
if not float(rows[0]['lower']) <= float(rows[0]['cond_mean']) <= float(rows[0]['upper']): fail('intercept: %s' % rows[0])
glu = rows[1 + names.index('glu')]
if not (float(glu['mean']) > 0 and float(glu['lower']) > 0): fail('glucose: %s' % glu)
print('$m coefficient table as the user reads it')"
done
# basel summary shows the table, saying what it is
expect 0 "^Coefficients \(original scale, log-odds; model-averaged over [0-9]+ models holding (> )?99\.[0-9]*% of the posterior, each by its Laplace approximation\)" \
    -- "$BASEL" summary "$T/rj.json"
expect 0 "^  glu +1\.000 +0\.0[0-9]+" -- "$BASEL" summary "$T/rj.json"
# the same numbers in FIT.json's "coefficients"
expect 0 "^ok$" -- /usr/bin/python3 -c "
import json
c = json.load(open('$T/rj.json'))['coefficients']
print('ok' if c['scale'] == 'original' and c['level'] == 0.95 and 0.99 <= c['covered'] <= 1 and c['models'] > 1 else c)"
# a Poisson fit's table (enumerate, quine): the same columns, the PIP column equal to the fit's, no NaN,
# the log-rate scale named by the summary
expect 0 "" -- "$BASEL" fit data/count/quine.csv --family poisson --method enumerate --is-draws 500 --seed 2 --quiet \
    -o "$T/q.json"
expect 0 "poisson table" -- /usr/bin/python3 -c "
import csv, io, json, math, subprocess, sys
fit = json.load(open('$T/q.json'))
out = subprocess.run(['$BASEL', 'coef', '$T/q.json'], capture_output=True, text=True, check=True).stdout
rows = list(csv.DictReader(io.StringIO(out)))
ok = [r['term'] for r in rows] == ['(Intercept)'] + [a['name'] for a in fit['atoms']]
ok = ok and all(float(r['pip']) == p for r, p in zip(rows[1:], fit['pip']))
ok = ok and all(not math.isnan(float(v)) for r in rows for k, v in r.items() if k not in ('term', 'target'))
print('poisson table' if ok else rows); sys.exit(0 if ok else 1)"
expect 0 "^Coefficients \(original scale, log-rate;" -- "$BASEL" summary "$T/q.json"
# an older binomial fit, without the table
/usr/bin/python3 -c "
import json
d = json.load(open('$T/rj.json')); del d['coefficients']; json.dump(d, open('$T/old.json', 'w'))"
expect 2 "this --family binomial fit has no coefficient table: it was written before basel made one" \
    -- "$BASEL" coef "$T/old.json"
finish
