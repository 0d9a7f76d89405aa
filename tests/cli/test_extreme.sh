#!/bin/bash
# test_extreme.sh: extreme but finite values (issue 14 item 3). Where the
# model does not depend on a column's units (enumerate, bd, rj under the g,
# aic, bic and mdl priors) the column is rescaled by a power of two and the
# fit is exactly the fit of the rescaled data; elsewhere the value is refused
# with exit 2, naming the column and row. No NaN, Inf or null reaches a
# FIT.json or a predictions CSV with exit 0.
source "$(dirname "$0")/lib.sh" "$1"

# 30 rows of a, b, c, y = 2a - b + noise; big.csv multiplies b and y by
# 2^600, tiny.csv y by 2^-900, yv.csv puts 1e160 in y at line 5, xb.csv in b.
/usr/bin/python3 - "$T" <<'EOF'
import random, sys
random.seed(1)
rows = []
for i in range(30):
    a, b, c = [random.gauss(0, 1) for _ in range(3)]
    rows.append([a, b, c, 2 * a - b + random.gauss(0, 1)])
def write(name, f):
    with open(sys.argv[1] + '/' + name, 'w') as out:
        out.write('a,b,c,y\n')
        for i, r in enumerate(rows):
            out.write(','.join(repr(v) for v in f(i, list(r))) + '\n')
def big(i, r): r[1] *= 2.0 ** 600; r[3] *= 2.0 ** 600; return r
def tiny(i, r): r[3] *= 2.0 ** -900; return r
def yv(i, r):
    if i == 3: r[3] = 1e160
    return r
def xb(i, r):
    if i == 3: r[1] = 1e160
    return r
write('good.csv', lambda i, r: r)
write('big.csv', big)
write('tiny.csv', tiny)
write('yv.csv', yv)
write('xb.csv', xb)
EOF

pips() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['pip'])" "$1"; }
# a FIT.json holds no null (jansson writes neither NaN nor Inf) outside
# diagnostics (where an R-hat or ESS the run cannot define is null), a CSV
# no nan or inf
no_null() {
    case $1 in
    *.json) /usr/bin/python3 -c "
import json, sys
def walk(v):
    if v is None: sys.exit(1)
    for x in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else []): walk(x)
d = json.load(open(sys.argv[1]))
d.pop('diagnostics', None)
walk(d)" "$1" ;;
    *) ! grep -qiwE -- '-?(nan|inf)' "$1" ;;
    esac && ok || bad "$1 holds null, NaN or Inf"
}

# The audit's reproducers: y = 1e160 gave exit 0 with null PIPs (enumerate,
# rj) or plausible PIPs and a null (bd); now a clean fit of the rescaled y.
for m in enumerate bd rj; do
    iter=$([ $m = enumerate ] || echo "--iter 300")
    expect 0 "" -- "$BASEL" fit "$T/yv.csv" --method $m $iter --seed 1 -q -o "$T/yv_$m.json"
    no_null "$T/yv_$m.json"
    expect 0 "" -- "$BASEL" summary "$T/yv_$m.json"
done
expect 0 "" -- "$BASEL" predict "$T/yv_bd.json" "$T/good.csv" -o "$T/yv_pred.csv"
no_null "$T/yv_pred.csv"
# an input of 1e160 was called "collinear"
expect 0 "" -- "$BASEL" fit "$T/xb.csv" --method enumerate -q -o "$T/xb.json"
no_null "$T/xb.json"

# Invariance: columns multiplied by 2^600 or 2^-900 give the same PIPs, bit
# for bit, and predictions multiplied by the same power of two.
for m in enumerate bd; do
    iter=$([ $m = enumerate ] || echo "--iter 500")
    for f in good big tiny; do
        expect 0 "" -- "$BASEL" fit "$T/$f.csv" --method $m $iter --seed 3 -q -o "$T/${f}_$m.json"
    done
    for f in big tiny; do
        if [ "$(pips "$T/good_$m.json")" = "$(pips "$T/${f}_$m.json")" ]; then ok; else bad "$m: $f.csv changes the PIPs"; fi
    done
done
for f in good big tiny; do
    expect 0 "" -- "$BASEL" predict "$T/${f}_enumerate.json" "$T/$f.csv" -o "$T/p_$f.csv"
done
if /usr/bin/python3 - "$T" <<'EOF'
import csv, sys
rd = lambda n: [[float(x) for x in r] for r in list(csv.reader(open(sys.argv[1] + '/' + n)))[1:]]
g, b, t = rd('p_good.csv'), rd('p_big.csv'), rd('p_tiny.csv')
assert all(x * 2.0 ** 600 == y for r, s in zip(g, b) for x, y in zip(r, s))
assert all(x * 2.0 ** -900 == y for r, s in zip(g, t) for x, y in zip(r, s))
EOF
then ok; else bad "rescaled fits do not predict the rescaled values"; fi

# Where the model is in the data's units, the value is refused by position.
expect 2 "basel: $T/yv.csv:5: target column 'y': 1e\+160 is beyond 1e77 .*--method ssvs" -- \
    "$BASEL" fit "$T/yv.csv" --method ssvs --iter 100 -o "$T/f.json"
expect 2 "basel: $T/xb.csv:5: input column 'b': 1e\+160 is beyond 1e77 .*--prior ridge" -- \
    "$BASEL" fit "$T/xb.csv" --method bd --prior ridge --iter 100 -o "$T/f.json"
expect 2 "basel: $T/yv.csv:5: target column 'y'.*--prior ridge:lambda=1,sigma2=1" -- \
    "$BASEL" fit "$T/yv.csv" --method enumerate --prior ridge:lambda=1,sigma2=1 -o "$T/f.json"
expect 2 "basel: $T/xb.csv:5: input column 'b'.*--method bd --prior g" -- \
    "$BASEL" fit "$T/xb.csv" --method bd --basis gauss:r=1 --iter 100 -o "$T/f.json"
if [ -e "$T/f.json" ]; then bad "a refused fit left f.json"; else ok; fi

# predict with test inputs of 1e155 wrote -nan intervals with exit 0
printf 'a,b,c\n1,0,0\n1e155,0,0\n' > "$T/far.csv"
expect 2 "basel: $T/far.csv:3: input column 'a': 1e\+155 is more than 1e77 training scales" -- \
    "$BASEL" predict "$T/good_enumerate.json" "$T/far.csv" -o "$T/far_pred.csv"
if [ -e "$T/far_pred.csv" ]; then bad "a refused prediction left its file"; else ok; fi

# An input standardised by the engine (mixture) may hold any finite value.
/usr/bin/python3 - "$T" <<'EOF'
import csv, sys
r = list(csv.reader(open('data/classification/pima_tr.csv')))
with open(sys.argv[1] + '/pbig.csv', 'w') as f:
    w = csv.writer(f)
    w.writerow(r[0])
    for row in r[1:]:
        row[1] = repr(float(row[1]) * 1e300 * (1 if float(row[1]) > 100 else -1))
        w.writerow(row)
EOF
expect 0 "" -- "$BASEL" fit "$T/pbig.csv" --method mixture --iter 30 --seed 1 -q -o "$T/pbig.json"
no_null "$T/pbig.json"
expect 0 "^p_No" -- "$BASEL" predict "$T/pbig.json" "$T/pbig.csv"

# Tiny inputs (issue 29): a column scaled to subnormal doubles (1e-310 on odd
# rows, 0 on even) gave exit 1 "out of memory" (enumerate, bd, rj), and at
# 1e-305 basel refused the FIT.json it had just made; now every method
# refuses it up front, naming the column and its line
/usr/bin/python3 - "$T" <<'EOF2'
import csv, sys
r = list(csv.reader(open(sys.argv[1] + '/good.csv')))
for name, s in (('d310.csv', 1e-310), ('d305.csv', 1e-305)):
    with open(sys.argv[1] + '/' + name, 'w') as f:
        w = csv.writer(f)
        w.writerow(r[0])
        for i, row in enumerate(r[1:]):
            row = list(row)
            row[0] = repr(float(row[0]) * s if i % 2 else 0.0)
            w.writerow(row)
EOF2
for f in d310 d305; do
    for m in enumerate bd rj ssvs; do
        expect 2 "$f.csv:[0-9]+: input column 'a': its largest value in magnitude, .* is below 1e-300" -- \
            "$BASEL" fit "$T/$f.csv" --method $m --seed 1 -q -o "$T/$f.json"
    done
done

finish
