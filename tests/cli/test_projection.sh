#!/bin/bash
# test_projection.sh: the projection model (engine/subset/subset_project.c) from the
# command line. On y = 2 x1 - x3 + noise with four noise inputs, bd's fit
# carries engine.predictor.projection, whose atoms are selected.projection
# (x1 and x3: the average's fit is theirs), and the summary lists it;
# `predict --model projection` predicts every row, close to the model
# average (the projection explains it); --projection-tol 0 takes at least as
# many atoms as the default, --projection-spread total at most as many (its
# spread adds the between-model part); a negative value or an unknown
# spread is refused; a binomial
# fit has no projection model and says so; enumerate, rj and ssvs write one;
# with a categorical input the projection's atoms are groups.
source "$(dirname "$0")/lib.sh" "$1"
/usr/bin/python3 - "$T/d.csv" "$T/b.csv" <<'EOF2'
import random, sys
r = random.Random(3)
with open(sys.argv[1], "w") as f, open(sys.argv[2], "w") as g:
    f.write("x1,x2,x3,x4,x5,x6,y\n")
    g.write("x1,x2,y\n")
    for i in range(80):
        x = [r.gauss(0, 1) for _ in range(6)]
        f.write(",".join("%.6f" % v for v in x) + ",%.6f\n" % (2 * x[0] - x[2] + r.gauss(0, 0.5)))
        g.write("%.6f,%.6f,%s\n" % (x[0], x[1], "yes" if x[0] + r.gauss(0, 0.5) > 0 else "no"))
EOF2
D="$T/d.csv"
expect 0 "" -- "$BASEL" fit "$D" --target y --method bd --iter 3000 --seed 2 --quiet -o "$T/fit.json"
expect 0 "projection x1 x3" -- /usr/bin/python3 -c "
import json, sys
d = json.load(open('$T/fit.json'))
p = d['engine']['predictor']['projection']; sel = d['selected']['projection']
names = [d['atoms'][j]['name'] for j in sel]
ok = sorted(p['atoms']) == sel and names == ['x1', 'x3'] and len(p['coef']) == 2 and p['tol'] == 1
ok = ok and p['path'][-1] <= 1 < p['path'][-2] and len(p['path']) == 3
print('projection ' + ' '.join(names) if ok else 'unexpected: %s %s' % (names, p)); sys.exit(0 if ok else 1)"
expect 0 "projection of the model average +x1 +x3" -- "$BASEL" summary "$T/fit.json"
expect 0 "" -- "$BASEL" predict "$T/fit.json" "$D" --model projection -o "$T/proj.csv"
expect 0 "" -- "$BASEL" predict "$T/fit.json" "$D" --model bma -o "$T/bma.csv"
# 80 rows, each within 0.1 of the average (noise sd 0.5; the projection
# is within the posterior's spread of the average's fitted values)
expect 0 "80 rows close" -- /usr/bin/python3 -c "
import csv, sys
p = [float(r['y_mean']) for r in csv.DictReader(open('$T/proj.csv'))]
b = [float(r['y_mean']) for r in csv.DictReader(open('$T/bma.csv'))]
worst = max(abs(x - y) for x, y in zip(p, b))
print('%d rows %s' % (len(p), 'close' if worst < 0.1 else 'apart by %g' % worst)); sys.exit(0 if len(p) == 80 and worst < 0.1 else 1)"
expect 0 "" -- "$BASEL" fit "$D" --target y --method bd --iter 3000 --seed 2 --quiet --projection-tol 0 -o "$T/tol0.json"
expect 0 "more atoms" -- /usr/bin/python3 -c "
import json, sys
a = len(json.load(open('$T/fit.json'))['selected']['projection'])
b = len(json.load(open('$T/tol0.json'))['selected']['projection'])
print('more atoms' if b >= a and b > 2 else 'tol 0: %d atoms, default %d' % (b, a)); sys.exit(0 if b >= a and b > 2 else 1)"
# --projection-spread total: the rule's spread adds the between-model part
# (written either way), so the projection has at most the default's atoms
expect 0 "" -- "$BASEL" fit "$D" --target y --method bd --iter 3000 --seed 2 --quiet --projection-spread total -o "$T/total.json"
expect 0 "total spread" -- /usr/bin/python3 -c "
import json, sys
w = json.load(open('$T/fit.json'))['engine']['predictor']['projection']
t = json.load(open('$T/total.json'))['engine']['predictor']['projection']
ok = w['spread_kind'] == 'within' and t['spread_kind'] == 'total' and w['spread'] == w['spread_within']
ok = ok and abs(t['spread'] - t['spread_within'] - t['spread_between']) <= 1e-12 * t['spread'] and t['spread_between'] > 0
ok = ok and t['spread_between'] == w['spread_between'] and len(t['atoms']) <= len(w['atoms'])
print('total spread' if ok else 'unexpected: %s %s' % (w, t)); sys.exit(0 if ok else 1)"
expect 2 "projection-spread" -- "$BASEL" fit "$D" --target y --method bd --quiet --projection-spread all -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"
expect 2 "projection-tol" -- "$BASEL" fit "$D" --target y --method bd --quiet --projection-tol -1 -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"
for m in enumerate rj ssvs; do
    expect 0 "" -- "$BASEL" fit "$D" --target y --method $m --seed 2 --quiet -o "$T/$m.json"
    expect 0 "x1 x3" -- /usr/bin/python3 -c "
import json; d = json.load(open('$T/$m.json')); print(' '.join(d['atoms'][j]['name'] for j in d['selected']['projection']))"
    expect 0 "" -- "$BASEL" predict "$T/$m.json" "$D" --model projection -o "$T/p_$m.csv"
done
# a categorical input: the search runs over columns (species' two
# indicators), selected.projection lists the groups holding them
expect 0 "" -- "$BASEL" fit data/linear/iris.csv --method enumerate --quiet -o "$T/iris.json"
expect 0 "groups 0 1 2 3 from columns 0 1 2 3 4" -- /usr/bin/python3 -c "
import json; d = json.load(open('$T/iris.json'))
print('groups %s from columns %s' % (' '.join(map(str, d['selected']['projection'])),
      ' '.join(map(str, sorted(d['engine']['predictor']['projection']['atoms'])))))"
expect 0 "" -- "$BASEL" predict "$T/iris.json" data/linear/iris.csv --model projection -o "$T/p_iris.csv"
expect 0 "" -- "$BASEL" fit "$T/b.csv" --target y --family binomial --method bd --iter 1000 --seed 2 --quiet -o "$T/bin.json"
expect 2 "projection.*Gaussian" -- "$BASEL" predict "$T/bin.json" "$T/b.csv" --model projection -o "$T/pb.csv"
finish
