#!/bin/bash
# test_relevance.sh: bd --relevance (engine/bd/bd_relevance.h) from the
# command line. On y = sin(2 x1) + noise with two noise inputs, the fit
# reports each input's PIP (x1 in, x2 and x3 out of the median input set);
# its atoms are refitted at the selected scales, which FIT.json carries to
# predict (engine.basis.input_scale): with x2 and x3 at scale 0 the refit is
# the very fit of x1 alone (same seed: the same columns, bit for bit, so the
# same predictions); the summary shows the table; a bad input_scale is
# refused by path; options that cannot go with it are refused. --relevance
# ml: the scales chosen before the run, x1 kept and the noise inputs left out.
source "$(dirname "$0")/lib.sh" "$1"
/usr/bin/python3 - "$T/d.csv" <<'EOF'
import math, random, sys
r = random.Random(7)
with open(sys.argv[1], "w") as f:
    f.write("x1,x2,x3,y\n")
    for i in range(60):
        x = [r.uniform(-2, 2) for _ in range(3)]
        f.write("%.6f,%.6f,%.6f,%.6f\n" % (x[0], x[1], x[2], math.sin(2 * x[0]) + r.gauss(0, 0.1)))
EOF
D="$T/d.csv"
common=(--target y --basis gauss:r=1 --model-prior poisson:mean=3 --iter 2000 --seed 3 --quiet)
expect 0 "" -- "$BASEL" fit "$D" "${common[@]}" --relevance select -o "$T/rel.json"
expect 0 "x1 in, x2 and x3 out" -- /usr/bin/python3 -c "
import json, sys
d = json.load(open('$T/rel.json')); r = d['relevance']
ok = r['inputs'] == ['x1', 'x2', 'x3'] and r['mode'] == 'select' and r['selected_scale'] == [1, 0, 0]
ok = ok and r['pip'][0] > 0.99 and max(r['pip'][1:]) < 0.5 and len(r['pip_chain']) == 4 * 3
ok = ok and d['engine']['basis']['input_scale'] == r['selected_scale'] and r['moves_proposed'] > 0
print('x1 in, x2 and x3 out' if ok else 'unexpected: %s' % r); sys.exit(0 if ok else 1)"
expect 0 "Input relevance inside the kernel \(--relevance select" -- "$BASEL" summary "$T/rel.json"
# the refit at scales (1, 0, 0) is the fit of x1 alone
expect 0 "" -- "$BASEL" fit "$D" "${common[@]}" --inputs x1 -o "$T/x1.json"
for m in bma prevalence; do
    expect 0 "" -- "$BASEL" predict "$T/rel.json" "$D" --model $m -o "$T/p_rel_$m.csv"
    expect 0 "" -- "$BASEL" predict "$T/x1.json" "$D" --model $m -o "$T/p_x1_$m.csv"
    expect 0 "" -- cmp "$T/p_rel_$m.csv" "$T/p_x1_$m.csv"
done
# grid: each input's scale in {0, 1/2, 1, 2}
expect 0 "" -- "$BASEL" fit "$D" "${common[@]}" --relevance grid -o "$T/grid.json"
expect 0 "grid scales" -- /usr/bin/python3 -c "
import json, sys
r = json.load(open('$T/grid.json'))['relevance']
ok = r['mode'] == 'grid' and all(0 <= s <= 2 for s in r['scale_mean']) and r['selected_scale'][0] > 0
print('grid scales' if ok else r); sys.exit(0 if ok else 1)"
# ml: the scales by a Gaussian process's type-II maximum likelihood, fixed
# before the run (basis.h bsl_ard_ml): x1 in, the noise inputs at 0, the
# scales carried to predict, which fits the training rows to about the noise
expect 0 "" -- "$BASEL" fit "$D" --target y --basis gauss --model-prior poisson:mean=3 --iter 2000 --seed 3 --quiet \
    --relevance ml -o "$T/ml.json"
expect 0 "" -- "$BASEL" predict "$T/ml.json" "$D" -o "$T/p_ml.csv"
expect 0 "ml scales" -- /usr/bin/python3 -c "
import csv, json, math, sys
d = json.load(open('$T/ml.json')); r = d['relevance']; s = r['selected_scale']
ok = r['mode'] == 'ml' and s[0] > 0 and s[1] == 0 and s[2] == 0 and d['engine']['basis']['input_scale'] == s
ok = ok and r['gp_rows'] == 60 and r['gp_noise_var'] > 0 and 'pip' not in r
p = [float(x['y_mean']) for x in csv.DictReader(open('$T/p_ml.csv'))]
y = [float(x['y']) for x in csv.DictReader(open('$D'))]
rmse = math.sqrt(sum((a - b) ** 2 for a, b in zip(p, y)) / len(y))
ok = ok and rmse < 0.15
print('ml scales' if ok else 'unexpected: %s rmse %g' % (r, rmse)); sys.exit(0 if ok else 1)"
expect 0 "Input scales inside the kernel \(--relevance ml" -- "$BASEL" summary "$T/ml.json"
expect 2 "--relevance ml: .*radial" -- "$BASEL" fit "$D" --target y --basis linear --relevance ml --quiet -o "$T/x.json"
# a hand-edited scale is refused by its path
/usr/bin/python3 -c "
import json
d = json.load(open('$T/rel.json')); d['engine']['basis']['input_scale'][1] = -1
json.dump(d, open('$T/bad.json', 'w'))"
expect 2 "engine.basis.input_scale\[1\]" -- "$BASEL" predict "$T/bad.json" "$D"
expect 2 "needs a radial --basis" -- "$BASEL" fit "$D" --target y --basis linear --relevance select --quiet -o "$T/x.json"
expect 2 "relevance" -- "$BASEL" fit "$D" --target y --method rj --basis gauss:r=1 --relevance select --quiet -o "$T/x.json"
expect 2 "--relevance: not with --checkpoint" -- "$BASEL" fit "$D" "${common[@]}" --relevance select \
    --checkpoint "$T/c.ckpt" -o "$T/x.json"
[ ! -e "$T/x.json" ] || bad "a refused fit left $T/x.json"
finish
