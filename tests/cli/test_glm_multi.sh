#!/bin/bash
# test_glm_multi.sh: --family multinomial from the command line (docs/GLM.md
# "Multinomial"): Wine's three classes (a whole-number target, levels sorted
# numerically) and a text target are accepted; FIT.json records the family,
# the classes and the reference class, the joint atoms "level:input" and the
# inputs' PIPs; predict writes p_<level> for every level, summing to 1, with
# each --model; enumeration agrees with rj; the same seed gives the same file whatever the threads; and
# bad input is refused with exit status 2 and a message naming the place:
# two levels, a binomial fit of three, an empty class, a method without
# the model, a Gaussian prior, --max-time, informed moves; no output file
# is left behind. --draws keeps the chain's joint models.
source "$(dirname "$0")/lib.sh" "$1"
D=data/classification/wine.csv
# every third row, 4 inputs and the class: all three classes, a fast run
awk -F, 'BEGIN { OFS = "," } NR == 1 || NR % 3 == 0 { print $1, $7, $10, $13, $14 }' $D > "$T/small.csv"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family multinomial --method rj --iter 6000 --seed 2 --quiet -o "$T/r.json"
# without --method the family's one sampler runs (registry.c bsl_default_method): the same fit
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family multinomial --iter 6000 --seed 2 --quiet -o "$T/r0.json"
expect 0 "" -- cmp "$T/r.json" "$T/r0.json"
expect 0 "recorded" -- /usr/bin/python3 -c "
import json, sys
r = json.load(open('$T/r.json'))
ok = r['settings']['family'] == 'multinomial' and r['engine']['family'] == 'multinomial'
ok = ok and r['classes'] == ['1', '2', '3'] and r['reference_class'] == '1'
ok = ok and r['atoms'][0]['name'] == '2:alcohol' and r['atoms'][4]['name'] == '3:alcohol' and len(r['pip']) == 8
ip = r['input_pip']
ok = ok and ip['inputs'] == ['alcohol', 'flavanoids', 'color_intensity', 'proline'] and len(ip['pip']) == 4
ok = ok and all(max(r['pip'][j], r['pip'][4 + j]) <= p + 1e-12 for j, p in enumerate(ip['pip']))
print('recorded' if ok else 'missing: %s' % r['settings']); sys.exit(0 if ok else 1)"
expect 0 "" -- "$BASEL" predict "$T/r.json" "$T/small.csv" -o "$T/p.csv"
expect 0 "^p_1,p_2,p_3,class$" -- head -1 "$T/p.csv"
expect 0 "sum to 1" -- /usr/bin/python3 -c "
import csv, sys
rows = list(csv.DictReader(open('$T/p.csv')))
ok = all(abs(float(r['p_1']) + float(r['p_2']) + float(r['p_3']) - 1) < 1e-9 for r in rows)
truth = [l.rstrip().split(',')[-1] for l in open('$T/small.csv')][1:]
acc = sum(r['class'] == t for r, t in zip(rows, truth)) / len(rows)
print('sum to 1, training accuracy %.2f' % acc if ok and acc > 0.85 else 'bad: %s %.2f' % (ok, acc)); sys.exit(0 if ok and acc > 0.85 else 1)"
for m in hpm median prevalence; do
    expect 0 "^p_1,p_2,p_3,class$" -- "$BASEL" predict "$T/r.json" "$T/small.csv" --model $m -o -
done
expect 0 "2:alcohol" -- "$BASEL" summary "$T/r.json"
# enumeration of the 2^8 joint models: rj's PIPs agree within 5 of rj's standard errors (from its ESS) plus
# 0.03 for enumeration's importance sampling (its note bounds the log marginal likelihoods' error)
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family multinomial --method enumerate --is-draws 1000 --seed 2 --quiet -o "$T/e.json"
expect 0 "rj agrees with enumeration" -- /usr/bin/python3 -c "
import json, math, sys
e = json.load(open('$T/e.json')); r = json.load(open('$T/r.json'))
for p, q, n in zip(e['pip'], r['pip'], r['diagnostics']['ess_pip']):
    se = math.sqrt(max(p * (1 - p), 1e-6) / max(n or 1e6, 1))
    if abs(p - q) > 5 * se + 0.03: print('PIP', p, q, se); sys.exit(1)
print('rj agrees with enumeration')"
expect 0 "^p_1,p_2,p_3,class$" -- "$BASEL" predict "$T/e.json" "$T/small.csv" --model hpm -o -
expect 0 "Inputs: P\(in the subset of some class besides the reference '1'\)" -- "$BASEL" summary "$T/r.json"
# text levels: sorted by strcmp, the first the reference
awk -F, 'BEGIN { OFS = "," } NR > 1 { $5 = ($5 == 1 ? "barolo" : $5 == 2 ? "grignolino" : "barbera") } { print }' \
    "$T/small.csv" > "$T/text.csv"
expect 0 "" -- "$BASEL" fit "$T/text.csv" --family multinomial --method rj --iter 2000 --seed 2 --quiet -o "$T/t.json"
expect 0 "^p_barbera,p_barolo,p_grignolino,class$" -- "$BASEL" predict "$T/t.json" "$T/text.csv" -o -
# bad input
awk -F, 'BEGIN { OFS = "," } NR == 1 || $5 != 3 { print }' "$T/small.csv" > "$T/two.csv"
expect 2 "target column 'class' has 2 levels: --family multinomial needs three or more \(--family binomial for two\)" \
    -- "$BASEL" fit "$T/two.csv" --family multinomial --method rj -o "$T/f.json"
expect 2 "small.csv:[0-9]+: target column 'class': 2 is not 0 or 1" \
    -- "$BASEL" fit "$T/small.csv" --family binomial --method rj -o "$T/f.json"
awk -F, 'BEGIN { OFS = "," } NR == 6 { $5 = "" } { print }' "$T/text.csv" > "$T/empty.csv"
expect 2 "empty.csv:6: target column 'class' is empty in this row" \
    -- "$BASEL" fit "$T/empty.csv" --family multinomial --method rj -o "$T/f.json"
expect 2 "text.csv:[0-9]+: target column 'class': a third level .*\(--family multinomial takes three or more\)" \
    -- "$BASEL" fit "$T/text.csv" --family binomial --method rj -o "$T/f.json"
expect 2 "--family multinomial: --method bd has no multinomial model \(it runs with --method enumerate, rj\)" \
    -- "$BASEL" fit "$T/small.csv" --family multinomial --method bd -o "$T/f.json"
expect 2 "refuses \(C - 1\) m = 26 > 20; use --method rj" \
    -- "$BASEL" fit "$D" --family multinomial --method enumerate -o "$T/f.json"
expect 2 "--prior g: --family multinomial takes --prior normal\[:sd, intercept-sd\] only" \
    -- "$BASEL" fit "$T/small.csv" --family multinomial --method rj --prior g -o "$T/f.json"
expect 2 "--family multinomial: no --max-time" \
    -- "$BASEL" fit "$T/small.csv" --family multinomial --method rj --max-time 10 -o "$T/f.json"
expect 2 "--family multinomial: no --proposal informed" \
    -- "$BASEL" fit "$T/small.csv" --family multinomial --method rj --proposal informed -o "$T/f.json"
expect 1 "" -- test -e "$T/f.json"
# the coefficient table: one row per class besides the reference and term (test_glm_multi_coef.sh checks its numbers)
expect 0 "^3:proline,class," -- "$BASEL" coef "$T/r.json" -o -
# --draws: one row per kept move, the joint atoms' 0/1 columns; their means are the visit frequencies, within
# the fit's reported largest gap between those and its Rao-Blackwellised PIPs; the fit is the one without --draws
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family multinomial --method rj --iter 6000 --seed 2 --quiet -o "$T/rd.json" \
    --draws "$T/draws.csv"
expect 0 "" -- cmp "$T/r.json" "$T/rd.json"
expect 0 "draws are the chain" -- /usr/bin/python3 -c "
import csv, json, re, sys
r = json.load(open('$T/r.json'))
rows = list(csv.reader(l for l in open('$T/draws.csv') if not l.startswith('#')))
head, rows = rows[0], rows[1:]
names = [a['name'] for a in r['atoms']]
ok = head == ['chain', 'iteration', 'draw', 'size'] + names and len(rows) == 4 * 6000
ok = ok and [int(x[2]) for x in rows] == list(range(1, len(rows) + 1))
ok = ok and all(int(x[1]) == 1 + i % 6000 and int(x[0]) == 1 + i // 6000 for i, x in enumerate(rows))
gap = float(re.search(r'max \|rb - frequency\| ([0-9.]+)', r['diagnostics']['note']).group(1))
freq = [sum(int(x[4 + a]) for x in rows) / len(rows) for a in range(len(names))]
ok = ok and all(abs(f - p) <= gap + 1e-9 for f, p in zip(freq, r['pip']))
ok = ok and all(int(x[3]) == sum(int(v) for v in x[4:]) for x in rows)
print('draws are the chain (%d rows, largest |frequency - pip| %.4f, gap %.4f)' % (len(rows), max(abs(f - p) for f, p in zip(freq, r['pip'])), gap)
      if ok else 'bad draws: %s %d' % (head[:4], len(rows))); sys.exit(0 if ok else 1)"
# the same seed gives the same file whatever the threads
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family multinomial --method rj --iter 2000 --seed 3 --threads 1 --quiet -o "$T/t1.json"
expect 0 "" -- "$BASEL" fit "$T/small.csv" --family multinomial --method rj --iter 2000 --seed 3 --threads 2 --quiet -o "$T/t2.json"
expect 0 "" -- cmp "$T/t1.json" "$T/t2.json"
finish
