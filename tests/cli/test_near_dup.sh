#!/bin/bash
# test_near_dup.sh: nearly duplicated inputs (issue 13 item 4). enumerate
# accepts x2 = x1 + 1e-4 noise (the set {x1, x2} is computable and gets its
# probability) and agrees with bd on the PIPs of x1 and x2. Identical
# columns are refused by every method alike (exit 2, naming them); an input
# that is an exact linear combination of others (x3 = x1 + x2) is fitted,
# the subsets holding all three at probability 0 in every method, and
# enumerate says how many.
source "$(dirname "$0")/lib.sh" "$1"

/usr/bin/python3 - "$T" <<'EOF2'
import random, sys
random.seed(4)
for name, e in (('near.csv', 1e-4), ('same.csv', 0.0), ('sum.csv', 1.0)):
    r = random.Random(4)
    with open(sys.argv[1] + '/' + name, 'w') as out:
        out.write(','.join('x%d' % (j + 1) for j in range(12)) + ',y\n')
        for i in range(100):
            x = [r.gauss(0, 1) for j in range(12)]
            if name == 'sum.csv': x[2] = x[0] + x[1]
            else: x[1] = x[0] + e * r.gauss(0, 1)
            y = 0.5 * x[0] + 0.3 * x[4] + r.gauss(0, 1)
            out.write(','.join(repr(v) for v in x + [y]) + '\n')
EOF2

pips() { /usr/bin/python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pip"]; print("%.4f %.4f" % (p[0], p[1]))' "$1"; }

expect 0 "" -- "$BASEL" fit "$T/near.csv" --method enumerate -o "$T/near_e.json" --quiet
expect 0 "" -- "$BASEL" fit "$T/near.csv" --seed 5 -o "$T/near_bd.json" --quiet
if [ -s "$T/near_e.json" ] && [ -s "$T/near_bd.json" ]; then
    read -r e1 e2 <<< "$(pips "$T/near_e.json")"
    read -r b1 b2 <<< "$(pips "$T/near_bd.json")"
    # both near 0.5 exactly; bd within 0.05 (its SE here is about 0.01)
    if awk -v a="$e1" -v b="$e2" -v c="$b1" -v d="$b2" 'BEGIN { exit !(a > 0.3 && b > 0.3 && (a-c)^2 < 0.0025 && (b-d)^2 < 0.0025) }'; then
        ok
    else
        bad "near-duplicates: enumerate PIPs $e1 $e2, bd $b1 $b2"
    fi
fi
for method in enumerate bd rj; do
    expect 2 "'x1' and 'x2' are identical" -- "$BASEL" fit "$T/same.csv" --method $method -o "$T/same.json"
done
expect 0 "" -- "$BASEL" fit "$T/sum.csv" --method enumerate -o "$T/sum_e.json" --quiet
expect 0 "512 of them cannot be computed" -- "$BASEL" summary "$T/sum_e.json"
expect 0 "" -- "$BASEL" fit "$T/sum.csv" --seed 5 -o "$T/sum_bd.json" --quiet
finish
