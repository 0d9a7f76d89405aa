#!/bin/bash
# test_f32.sh: inputs held as float32 (src/fit/problem.c compact_inputs).
# n = 300, p = 2000: X is 4.8 MB in doubles, over twice --gram-memory 1,
# so the fit holds it as float32 and says so (diagnostics.inputs); with
# --gram-memory 8 it keeps doubles (no "inputs"), and both designs stream.
# Each value moves by less than 6e-8 of itself, so for the same seed the
# chains take the same moves and the PIPs agree to rounding (1e-6 here;
# 2e-8 was seen at p = 10^5); predictions from the float32 fit come from
# its coefficients, within 1e-6 of the doubles' fit. Genotype counts (0, 1,
# 2) are held as 2-bit codes, exactly: there the two fits are the same
# document, but for the recorded --gram-memory and diagnostics.inputs
# ("2-bit"); with one count of 5 (whole, beyond 2 bits) as int8, and with
# one of 200 (beyond int8) as float32, exactly too, and again the same
# document. A value below float32's normal
# range (1e-35) keeps the inputs in doubles. The genotypes from a .npy of
# one-byte integers give the same documents.
source "$(dirname "$0")/lib.sh" "$1"
/usr/bin/python3 - "$T/d.csv" "$T/new.csv" << 'PY'
import sys
import numpy as np
rng = np.random.default_rng(11)
n, p = 300, 2000
X = rng.standard_normal((n, p))
X[:, 1:] = 0.6 * X[:, :-1] + 0.8 * X[:, 1:]  # neighbours correlated
y = 1.0 * X[:, 10] - 0.8 * X[:, 900] + 0.6 * X[:, 1500] + rng.standard_normal(n)
header = ",".join("x%d" % (j + 1) for j in range(p))
np.savetxt(sys.argv[1], np.column_stack([X, y]), delimiter=",", header=header + ",y", comments="", fmt="%.10g")
np.savetxt(sys.argv[2], X[:5], delimiter=",", header=header, comments="", fmt="%.10g")
PY
expect 0 "" -- "$BASEL" fit "$T/d.csv" --method rj --iter 3000 --gram-memory 1 --seed 3 --quiet -o "$T/f32.json"
expect 0 "" -- "$BASEL" fit "$T/d.csv" --method rj --iter 3000 --gram-memory 8 --seed 3 --quiet -o "$T/f64.json"
expect 0 "" -- "$BASEL" predict "$T/f32.json" "$T/new.csv" -o "$T/p32.csv"
expect 0 "" -- "$BASEL" predict "$T/f64.json" "$T/new.csv" -o "$T/p64.csv"
/usr/bin/python3 - "$T" << 'PY' && ok || bad "float32 inputs: recorded, and the same posterior to rounding"
import csv, json, sys
t = sys.argv[1]
a, b = json.load(open(t + "/f32.json")), json.load(open(t + "/f64.json"))
da, db = a["diagnostics"], b["diagnostics"]
dpip = max(abs(x - y) for x, y in zip(a["pip"], b["pip"]))
pa = [float(r["y_mean"]) for r in csv.DictReader(open(t + "/p32.csv"))]
pb = [float(r["y_mean"]) for r in csv.DictReader(open(t + "/p64.csv"))]
dpred = max(abs(x - y) for x, y in zip(pa, pb))
top = sorted(range(len(a["pip"])), key=lambda j: -a["pip"][j])[:3]
print("inputs %s / %s, gram %s / %s, max |dPIP| %.3g, max |dpred| %.3g, top %s"
      % (da.get("inputs"), db.get("inputs"), da.get("gram"), db.get("gram"), dpip, dpred, top))
ok = (da.get("inputs") == "float32" and "inputs" not in db and da.get("gram") == db.get("gram") == "streamed"
      and dpip < 1e-6 and len(pa) == len(pb) == 5 and dpred < 1e-6 and sorted(top) == [10, 900, 1500])
sys.exit(0 if ok else 1)
PY
/usr/bin/python3 - "$T/g.csv" << 'PY'
import sys
import numpy as np
rng = np.random.default_rng(3)
n, p = 300, 2000
G = rng.binomial(2, 0.3, size=(n, p)).astype(float)
y = G[:, 5] - G[:, 700] + rng.standard_normal(n)
header = ",".join("x%d" % (j + 1) for j in range(p)) + ",y"
np.savetxt(sys.argv[1], np.column_stack([G, y]), delimiter=",", header=header, comments="", fmt="%g")
PY
/usr/bin/python3 - "$T/g.csv" "$T/g200.csv" "$T/g5.csv" << 'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[7][4] = "200"
csv.writer(open(sys.argv[2], "w", newline="")).writerows(rows)
rows[7][4] = "5"
csv.writer(open(sys.argv[3], "w", newline="")).writerows(rows)
PY
expect 0 "" -- "$BASEL" fit "$T/g.csv" --iter 2000 --gram-memory 1 --seed 2 --quiet -o "$T/g8.json"
expect 0 "" -- "$BASEL" fit "$T/g.csv" --iter 2000 --gram-memory 8 --seed 2 --quiet -o "$T/g64.json"
expect 0 "" -- "$BASEL" fit "$T/g5.csv" --iter 2000 --gram-memory 1 --seed 2 --quiet -o "$T/i8.json"
expect 0 "" -- "$BASEL" fit "$T/g5.csv" --iter 2000 --gram-memory 8 --seed 2 --quiet -o "$T/i64.json"
expect 0 "" -- "$BASEL" fit "$T/g200.csv" --iter 2000 --gram-memory 1 --seed 2 --quiet -o "$T/h32.json"
expect 0 "" -- "$BASEL" fit "$T/g200.csv" --iter 2000 --gram-memory 8 --seed 2 --quiet -o "$T/h64.json"
/usr/bin/python3 - "$T" << 'PY' && ok || bad "2-bit, int8 (a 5) and float32 (a 200): the same fit as in doubles"
import json, sys
t = sys.argv[1]
ok = True
for small, big, kind in (("g8", "g64", "2-bit"), ("i8", "i64", "int8"), ("h32", "h64", "float32")):
    a, b = json.load(open(t + "/%s.json" % small)), json.load(open(t + "/%s.json" % big))
    print("%s: inputs %s / %s" % (small, a["diagnostics"].get("inputs"), b["diagnostics"].get("inputs")))
    ok &= a["diagnostics"].pop("inputs", None) == kind and "inputs" not in b["diagnostics"]
    a["settings"].pop("gram-memory"), b["settings"].pop("gram-memory")
    ok &= a == b
sys.exit(0 if ok else 1)
PY
# The same genotypes as a .npy of one-byte integers beside y.npy are read
# as int8 codes (npy.c), never as doubles: C-order int8, Fortran-order
# uint8 and, with the 200, uint8 (widened to doubles on reading) give the
# CSV's documents byte for byte, held compactly (--gram-memory 1) or not.
/usr/bin/python3 - "$T/g.csv" "$T/g200.csv" "$T" << 'PY'
import sys
import numpy as np
g = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
h = np.loadtxt(sys.argv[2], delimiter=",", skiprows=1)
t = sys.argv[3]
np.save(t + "/g_i1.npy", g[:, :-1].astype(np.int8))
np.save(t + "/g_u1f.npy", np.asfortranarray(g[:, :-1].astype(np.uint8)))
np.save(t + "/h_u1.npy", h[:, :-1].astype(np.uint8))
np.save(t + "/gy.npy", g[:, -1])
PY
for mb in 1 8; do
    for x in g_i1 g_u1f h_u1; do
        expect 0 "" -- "$BASEL" fit "$T/$x.npy" --target-file "$T/gy.npy" --iter 2000 --gram-memory $mb --seed 2 \
            --quiet -o "$T/$x.$mb.json"
    done
    [ $mb = 1 ] && want=(g8 g8 h32) || want=(g64 g64 h64)
    i=0
    for x in g_i1 g_u1f h_u1; do
        cmp -s "$T/$x.$mb.json" "$T/${want[$i]}.json" && ok || bad "$x.npy (--gram-memory $mb) differs from its CSV"
        i=$((i + 1))
    done
done

# basel summary says how the inputs were held
expect 0 "cross products: streamed from the columns; inputs held as 2-bit codes \(whole numbers 0..3: exact\)" -- \
    "$BASEL" summary "$T/g8.json"
expect 0 "inputs held as int8 \(whole numbers: exact\)" -- "$BASEL" summary "$T/i8.json"
expect 0 "inputs held as float32 \(each rounded to 24 bits\)" -- "$BASEL" summary "$T/h32.json"
/usr/bin/python3 - "$T/g.csv" "$T/tiny.csv" << 'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[5][3] = "1e-35"
csv.writer(open(sys.argv[2], "w", newline="")).writerows(rows)
PY
expect 0 "" -- "$BASEL" fit "$T/tiny.csv" --iter 500 --gram-memory 1 --seed 2 --quiet -o "$T/tiny.json"
/usr/bin/python3 -c "import json, sys; sys.exit('inputs' in json.load(open(sys.argv[1]))['diagnostics'])" \
    "$T/tiny.json" && ok || bad "a value below float32's range keeps doubles"
finish
