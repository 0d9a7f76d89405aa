#!/bin/bash
# test_groups.sh: a categorical input (data/linear/iris.csv, species: 3
# levels) is one atom of 2 indicator columns. Enumeration's grouped PIPs
# and size posterior equal R's brute force over the 4 inputs
# (data/linear/iris_groups_exact.json, tools/data/check_iris_groups.R) to
# 1e-9; bd's are within 5 Monte Carlo standard errors (from its own ESS);
# predict maps levels by name and names a level it never saw; methods that
# cannot group refuse the factor.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/iris.csv
expect 0 "" -- "$BASEL" fit $D --method enumerate --quiet -o "$T/e.json"
expect 0 "" -- "$BASEL" fit $D --seed 5 --quiet -o "$T/bd.json"
expect 0 "enumerate equals brute force" -- /usr/bin/python3 -c "
import json, sys
e = json.load(open('$T/e.json')); r = json.load(open('data/linear/iris_groups_exact.json'))
names = [a['name'] for a in e['atoms']]
ok = names == r['atoms'] and all(abs(a - b) < 1e-9 for a, b in zip(e['pip'], r['pip']))
ok = ok and all(abs(a - b) < 1e-9 for a, b in zip(e['model_size']['prob'], r['size_prob']))
f = e['factors'][0]
ok = ok and f['input'] == 'species' and f['reference'] == 'setosa' and f['columns'] == ['species:versicolor', 'species:virginica']
ok = ok and e['atoms'][f['atom']]['columns'] == f['columns'] and e['inputs'][3:5] == f['columns']
print('enumerate equals brute force' if ok else 'differs: %s %s' % (e['pip'], e['model_size']['prob'])); sys.exit(0 if ok else 1)"
expect 0 "bd within MC error" -- /usr/bin/python3 -c "
import json, math, sys
e = json.load(open('$T/e.json')); b = json.load(open('$T/bd.json'))
ess = b['diagnostics']['ess_pip']
worst = 0
for p, q, n in zip(e['pip'], b['pip'], ess):
    # no ESS: the PIP never moved in the draws (exact 1 here within 1e-5)
    se = math.sqrt(max(p * (1 - p), 1e-12) / n) if n else 1e-5
    if abs(p - q) > 5 * se + 1e-9: print('PIP', p, q, se); sys.exit(1)
print('bd within MC error')"
# the coefficient table: one row per level, each with the factor's PIP
expect 0 "species:virginica,sepal_length,0.7678531458" -- "$BASEL" coef "$T/e.json"
# the summary: the factor is one line
expect 0 "species +0.768 " -- "$BASEL" summary "$T/e.json"
head -4 $D > "$T/new.csv"
expect 0 "sepal_length_mean" -- "$BASEL" predict "$T/e.json" "$T/new.csv"
printf 'sepal_width,petal_length,petal_width,species\n3,1.4,0.2,setosa\n3,1.4,0.2,tulip\n' > "$T/unseen.csv"
expect 2 "unseen.csv:3: categorical input 'species': level 'tulip' \(row 2\) was not seen in training" \
    -- "$BASEL" predict "$T/e.json" "$T/unseen.csv"
expect 2 "input column 'species' holds text \('setosa'\), a categorical input: only --method enumerate, bd or rj" \
    -- "$BASEL" fit $D --method ssvs -o "$T/f.json"
expect 2 "input column 'species' holds text" -- "$BASEL" fit $D --basis gauss:r=1 -o "$T/f.json"
# one level only, or more than 50: refused, naming the column
awk -F, 'NR == 1 || $4 == "setosa"' $D > "$T/one.csv"
expect 2 "input column 'species' holds text, so it is read as a categorical input, but it has 1 level" \
    -- "$BASEL" fit "$T/one.csv" --method enumerate -o "$T/f.json"
awk -F, 'BEGIN { OFS = "," } NR > 1 { $4 = "s" NR } { print }' $D > "$T/many.csv"
expect 2 "input column 'species' holds text, so it is read as a categorical input, but it has 150 levels: need 2 to 50" \
    -- "$BASEL" fit "$T/many.csv" --method enumerate -o "$T/f.json"
expect 2 "--checkpoint and --restart: not for a fit with a categorical input \('species'\)" \
    -- "$BASEL" fit $D --method rj --checkpoint "$T/c.ckpt" -o "$T/f.json"
finish
