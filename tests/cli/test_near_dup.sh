#!/bin/bash
# test_near_dup.sh: nearly duplicated inputs (issue 13 item 4). enumerate
# accepts x2 = x1 + 1e-4 noise (the set {x1, x2} is computable and gets its
# probability) and agrees with bd on the PIPs of x1 and x2. Identical
# columns are refused by every method alike (exit 2, naming them); an input
# that is an exact linear combination of others (x3 = x1 + x2) is fitted,
# the subsets holding all three at probability 0 in every method, and
# enumerate says how many. ssvs's default spike hides near-copies, and
# says so.
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

# ssvs's default spike (tau x the full least-squares standard error) is
# about 100 times the effect when x2 = x1 + 1e-3 noise, and the spike
# explains y = x1 + ... as well as the slab: PIPs 0.04 each where the
# g-prior's exact answer is 0.52 each (issue 30 item 2). The defaults warn,
# naming x1 and x2 (stderr and FIT.json); --prior g, which the warning
# suggests, puts x1 or x2 in every draw; without the near-copy, no warning.
/usr/bin/python3 - "$T" <<'EOF2'
import random, sys
for name, e in (('nd3.csv', 1e-3), ('nd0.csv', None)):
    r = random.Random(7)
    with open(sys.argv[1] + '/' + name, 'w') as out:
        out.write(','.join('x%d' % (j + 1) for j in range(8)) + ',y\n')
        for i in range(100):
            x = [r.gauss(0, 1) for j in range(8)]
            if e is not None: x[1] = x[0] + e * r.gauss(0, 1)
            y = x[0] + 0.5 * x[3] + r.gauss(0, 1)
            out.write(','.join(repr(v) for v in x + [y]) + '\n')
EOF2
HIDES="warning: ssvs's spike hides 'x1' \(\|r\| = 1\.0000 with 'x2'\) and 'x2' \(\|r\| = 1\.0000 with 'x1'\).*--prior g"
expect 0 "$HIDES" -- "$BASEL" fit "$T/nd3.csv" --method ssvs --seed 3 -o "$T/nd3_s.json"
if grep -q "spike hides 'x1'" "$T/nd3_s.json"; then ok; else bad "ssvs near-copies: no warning in FIT.json"; fi
expect 0 "" -- "$BASEL" fit "$T/nd3.csv" --method ssvs --prior g --seed 3 --draws "$T/nd3_g.csv" -o "$T/nd3_g.json" --quiet
# P(x1 or x2) from the draws: 1 exactly under the g-prior (enumeration)
if /usr/bin/python3 -c '
import csv, sys
r = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
p = sum(x["x1"] == "1" or x["x2"] == "1" for x in r) / len(r)
sys.exit(not (len(r) > 1000 and p >= 0.95))' "$T/nd3_g.csv"; then ok; else bad "ssvs --prior g: P(x1 or x2) < 0.95"; fi
expect 0 "" -- "$BASEL" fit "$T/nd0.csv" --method ssvs --seed 3 -o "$T/nd0_s.json"
if grep -q "spike hides" "$T/err" "$T/nd0_s.json"; then bad "ssvs without near-copies warns: $(grep -h "spike hides" "$T/err")"; else ok; fi
finish
